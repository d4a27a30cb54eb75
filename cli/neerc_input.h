// SPDX-License-Identifier: MIT
#pragma once

// Reader for NEERC 2006 problem D input: cases until end of input, each `r n`, `xA yA xB yB`,
// then n rectangles `x1 y1 x2 y2` (opposite corners in any order). Whitespace, including line
// breaks, only separates numbers; line numbers are kept for messages.

#include "diag.h"
#include "loaded_map.h"

#include <arcnav/arcnav.h>
#include <stdbool.h>
#include <stddef.h>

typedef struct an_cli_neerc_rect {
  arcnav_vec2 min, max;
  int line;
} an_cli_neerc_rect;

typedef struct an_cli_neerc_case {
  double radius;
  arcnav_vec2 from, to;
  an_cli_neerc_rect *rects;
  size_t rect_count;
  int line; ///< line of the case's `r n`
} an_cli_neerc_case;

typedef struct an_cli_neerc_input {
  an_cli_neerc_case *cases;
  size_t case_count, case_capacity;
} an_cli_neerc_input;

/// Parse every case of `text` (`length` bytes). `name` is used in "NAME:LINE: message" errors.
bool an_cli_neerc_parse(const char *name, const char *text, size_t length, an_cli_neerc_input *out,
                        an_cli_diag *diag);
void an_cli_neerc_free(an_cli_neerc_input *input);

/// The geometry of one case as a map (rectangles numbered by their line).
bool an_cli_neerc_case_map(const char *name, const an_cli_neerc_case *c, an_cli_map *map,
                           an_cli_diag *diag);

/// Load the first case of a NEERC file as a map with default radius, start and goal.
bool an_cli_neerc_load_map(const char *file, an_cli_map *map, an_cli_diag *diag);
bool an_cli_neerc_load_map_text(const char *file, const char *text, size_t length, an_cli_map *map,
                                an_cli_diag *diag);
