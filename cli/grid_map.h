// SPDX-License-Identifier: MIT
#pragma once

// MovingAI grid maps (`.map`): a header `type octile`, `height H`, `width W`, `map`, then H rows of
// W characters; `.`, `G` and `S` are passable, every other character is blocked. Cell (x, y), x
// the column and y the row counted from the first map line, covers [x, x+1] x [y, y+1]; map
// coordinates are the file's (no flip), and the outer edge of the grid is the bounds.
//
// The blocked cells are traced into polygons: the boundary of their union, with collinear edges
// merged, as outer rings and holes (free pockets). Two blocked cells that touch only at a corner
// stay apart: every traced polygon is a 4-connected region of cells, and regions that touch only
// at a corner are separate obstacles touching at one point. A free pocket whose rim is pinched at
// such a corner gives a hole touching its outer ring (or another hole) at one vertex, which the
// library accepts (see arcnav_map_add_polygon): each region is one polygon with its holes.

#include "diag.h"
#include "loaded_map.h"

#include <stdbool.h>
#include <stddef.h>

/// A grid as read from a file.
typedef struct an_cli_grid {
  int width, height;
  unsigned char *blocked; ///< width * height bytes, row-major from the first map line; 1 blocked
  int first_row_line;     ///< the file line of row 0 (1-based), for messages
} an_cli_grid;

/// Parse a whole `.map` file. On failure *diag is `FILE:LINE:COLUMN: message`, nothing to free.
bool an_cli_grid_parse(const char *file, const char *text, size_t length, an_cli_grid *grid,
                       an_cli_diag *diag);

void an_cli_grid_free(an_cli_grid *grid);

/// Append the traced obstacles of `grid` to `map` (initialised, `map->file` set), one polygon
/// per region with its holes (a hole may touch its outer ring or another hole at one vertex), and
/// set the bounds to [0, width] x [0, height]. Each shape's `feature` is the file line and `part`
/// the column of the region's first cell (in reading order). False only when out of memory.
bool an_cli_grid_trace(const an_cli_grid *grid, an_cli_map *map, an_cli_diag *diag);

/// Parse and trace a `.map` file's text into `map` (already initialised).
bool an_cli_grid_load_map_text(const char *file, const char *text, size_t length, an_cli_map *map,
                               an_cli_diag *diag);
