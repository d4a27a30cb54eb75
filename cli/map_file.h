// SPDX-License-Identifier: MIT
#pragma once

// Map files: which format a file is in, and loading it with the reader for that format into the
// tool's copy of the geometry (loaded_map.h).

#include "diag.h"
// Callers of map_file.h get the loaded map and file reading with it.
#include "loaded_map.h"
#include "text_file.h"

#include <stdbool.h>

/// Map file formats.
typedef enum an_cli_map_format {
  AN_CLI_MAP_DETECT,   ///< by the extension, else by the content
  AN_CLI_MAP_GEOJSON,  ///< a GeoJSON FeatureCollection
  AN_CLI_MAP_NEERC,    ///< NEERC 2006 D text: the first case
  AN_CLI_MAP_MOVINGAI, ///< a MovingAI grid (`.map`)
} an_cli_map_format;

/// Parse a `--map-format` value (geojson, neerc, movingai; also auto for detection).
bool an_cli_parse_map_format(const char *name, an_cli_map_format *out);

/// The format of a map file: `format` unless AN_CLI_MAP_DETECT; else GeoJSON for `.geojson` and
/// `.json`, NEERC text for `.in`, a MovingAI grid for `.map`; any other name (`.txt` too) by its
/// content: after blanks, `{` is GeoJSON, `type ` a MovingAI grid, anything else NEERC text.
an_cli_map_format an_cli_map_detect(const char *file, const char *text, an_cli_map_format format);

/// Load a map file in `format` (AN_CLI_MAP_DETECT: see an_cli_map_detect()).
bool an_cli_map_load_as(const char *file, an_cli_map_format format, an_cli_map *map,
                        an_cli_diag *diag);

/// an_cli_map_load_as() with the format detected.
bool an_cli_map_load(const char *file, an_cli_map *map, an_cli_diag *diag);
