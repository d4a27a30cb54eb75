// SPDX-License-Identifier: MIT
#pragma once

// The tool's own copy of a map file's geometry. The library keeps rings normalised and private;
// the tool needs the rings as the file gave them, to draw them and to name the feature, ring and
// vertex at fault when the library rejects one.

#include "diag.h"

#include <arcnav/arcnav.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

typedef struct an_cli_ring {
  arcnav_vec2 *points; ///< as given (a closing vertex equal to the first may be present)
  size_t count;
} an_cli_ring;

typedef enum an_cli_shape_kind {
  AN_CLI_SHAPE_POLYGON,
  AN_CLI_SHAPE_CIRCLE,
} an_cli_shape_kind;

typedef struct an_cli_shape {
  an_cli_shape_kind kind;
  int feature; ///< GeoJSON feature index, the NEERC line number, or a grid region's first line
  int part;    ///< polygon index inside a MultiPolygon, a grid region's first column; else -1
  an_cli_ring *rings; ///< polygons: ring 0 is the outer ring, then the holes
  size_t ring_count;
  arcnav_vec2 center; ///< circles
  double radius;      ///< circles
} an_cli_shape;

typedef struct an_cli_map {
  const char *file; ///< file name for messages (not owned)
  bool lines;       ///< features are numbered by line (NEERC text) rather than by index
  bool grid;        ///< traced from a MovingAI grid: shapes are named by line and column
  an_cli_shape *shapes;
  size_t shape_count, shape_capacity;
  bool has_bounds;
  an_cli_ring bounds;
  int bounds_feature;
  bool has_defaults; ///< a NEERC file gave a radius, start and goal
  double default_radius;
  arcnav_vec2 default_from, default_to;
  char **warnings; ///< ignored features, reported once the whole file is known to be valid
  size_t warning_count, warning_capacity;
} an_cli_map;

void an_cli_map_init(an_cli_map *map, const char *file);
void an_cli_map_free(an_cli_map *map);

/// Append a shape, taking ownership of its rings. False when out of memory (rings freed).
bool an_cli_map_add_shape(an_cli_map *map, const an_cli_shape *shape);

/// Remember a warning for an_cli_map_print_warnings(). Out of memory drops it silently.
void an_cli_map_warn(an_cli_map *map, const char *format, ...)
    __attribute__((format(printf, 2, 3)));

/// Print and discard the remembered warnings on standard error.
void an_cli_map_print_warnings(an_cli_map *map);

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

/// Build the library's map from the parsed geometry. Errors name the feature, ring and vertex.
bool an_cli_map_build(const an_cli_map *map, arcnav_map **out_map, an_cli_diag *diag);

/// Number of distinct vertices of a ring as the library counts them: consecutive duplicates and
/// a closing copy of the first vertex do not count.
size_t an_cli_ring_distinct_count(const arcnav_vec2 *points, size_t count);

/// Read a whole stream into a NUL-terminated buffer (caller frees); `name` is for messages.
bool an_cli_read_stream(FILE *stream, const char *name, char **out_text, size_t *out_length,
                        an_cli_diag *diag);

/// Read a whole file into a NUL-terminated buffer (caller frees). False with a message on failure.
bool an_cli_read_file(const char *file, char **out_text, size_t *out_length, an_cli_diag *diag);
