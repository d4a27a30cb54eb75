// SPDX-License-Identifier: MIT
#pragma once

// The tool's own copy of a map file's geometry, as every reader (GeoJSON, NEERC text, MovingAI
// grids) fills it. The library keeps rings normalised and private; the tool needs the rings as the
// file gave them, to draw them and to name the feature, ring and vertex at fault when the library
// rejects one. The readers depend on this header only, never on the format dispatcher
// (map_file.h), which depends on them.

#include "diag.h"

#include <arcnav/arcnav.h>
#include <stdbool.h>
#include <stddef.h>

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

/// Add one shape to a library map; false with the library's error (ARCNAV_ERR_OUT_OF_MEMORY
/// also for the tool's own allocations).
bool an_cli_add_shape(arcnav_map *built, const an_cli_shape *shape, arcnav_error *error);

/// Build the library's map from the parsed geometry. Errors name the feature, ring and vertex.
bool an_cli_map_build(const an_cli_map *map, arcnav_map **out_map, an_cli_diag *diag);

/// Number of distinct vertices of a ring as the library counts them: consecutive duplicates and
/// a closing copy of the first vertex do not count.
size_t an_cli_ring_distinct_count(const arcnav_vec2 *points, size_t count);
