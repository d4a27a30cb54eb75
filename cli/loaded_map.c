// SPDX-License-Identifier: MIT
// The tool's copy of a map file's geometry: filling it, its warnings, and the library map built
// from it (loaded_map.h).
#include "loaded_map.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void an_cli_map_init(an_cli_map *map, const char *file) {
  memset(map, 0, sizeof *map);
  map->file = file;
  map->bounds_feature = -1;
}

static void free_rings(an_cli_ring *rings, size_t count) {
  if (rings == NULL) {
    return;
  }
  for (size_t i = 0; i < count; i++) {
    free(rings[i].points);
  }
  free(rings);
}

void an_cli_map_free(an_cli_map *map) {
  for (size_t i = 0; i < map->shape_count; i++) {
    free_rings(map->shapes[i].rings, map->shapes[i].ring_count);
  }
  free(map->shapes);
  free(map->bounds.points);
  for (size_t i = 0; i < map->warning_count; i++) {
    free(map->warnings[i]);
  }
  free(map->warnings);
  const char *file = map->file;
  an_cli_map_init(map, file);
}

bool an_cli_map_add_shape(an_cli_map *map, const an_cli_shape *shape) {
  if (map->shape_count == map->shape_capacity) {
    size_t capacity = map->shape_capacity == 0 ? 16 : 2 * map->shape_capacity;
    an_cli_shape *grown = realloc(map->shapes, capacity * sizeof *grown);
    if (grown == NULL) {
      free_rings(shape->rings, shape->ring_count);
      return false;
    }
    map->shapes = grown;
    map->shape_capacity = capacity;
  }
  map->shapes[map->shape_count++] = *shape;
  return true;
}

void an_cli_map_warn(an_cli_map *map, const char *format, ...) {
  char buffer[512];
  va_list args;
  va_start(args, format);
  vsnprintf(buffer, sizeof buffer, format, args);
  va_end(args);
  if (map->warning_count == map->warning_capacity) {
    size_t capacity = map->warning_capacity == 0 ? 8 : 2 * map->warning_capacity;
    char **grown = realloc(map->warnings, capacity * sizeof *grown);
    if (grown == NULL) {
      return;
    }
    map->warnings = grown;
    map->warning_capacity = capacity;
  }
  size_t length = strlen(buffer) + 1;
  char *copy = malloc(length);
  if (copy == NULL) {
    return;
  }
  memcpy(copy, buffer, length);
  map->warnings[map->warning_count++] = copy;
}

void an_cli_map_print_warnings(an_cli_map *map) {
  for (size_t i = 0; i < map->warning_count; i++) {
    fprintf(stderr, "%s\n", map->warnings[i]);
    free(map->warnings[i]);
  }
  map->warning_count = 0;
}

size_t an_cli_ring_distinct_count(const arcnav_vec2 *points, size_t count) {
  size_t distinct = 0;
  for (size_t i = 0; i < count; i++) {
    if (i > 0 && points[i].x == points[i - 1].x && points[i].y == points[i - 1].y) {
      continue;
    }
    distinct++;
  }
  // After merging runs, a closing copy of the first vertex is one trailing element.
  if (distinct > 1 && points[count - 1].x == points[0].x && points[count - 1].y == points[0].y) {
    distinct--;
  }
  return distinct;
}

static void describe_shape(const an_cli_map *map, const an_cli_shape *shape, char *out,
                           size_t size) {
  if (map->grid) {
    snprintf(out, size, "%s:%d:%d: the blocked region traced from this cell", map->file,
             shape->feature, shape->part);
  } else if (map->lines) {
    snprintf(out, size, "%s:%d: rectangle", map->file, shape->feature);
  } else if (shape->part >= 0) {
    snprintf(out, size, "%s: feature %d (polygon %d of the MultiPolygon)", map->file,
             shape->feature, shape->part);
  } else {
    snprintf(out, size, "%s: feature %d", map->file, shape->feature);
  }
}

static void describe_location(const arcnav_error *error, char *out, size_t size) {
  out[0] = '\0';
  if (error->ring >= 0) {
    size_t used = (size_t)snprintf(out, size, ", ring %d (%s)", error->ring,
                                   error->ring == 0 ? "outer" : "hole");
    if (error->vertex >= 0 && used < size) {
      snprintf(out + used, size - used, ", vertex %d", error->vertex);
    }
  } else if (error->vertex >= 0) {
    snprintf(out, size, ", vertex %d", error->vertex);
  }
}

bool an_cli_add_shape(arcnav_map *built, const an_cli_shape *shape, arcnav_error *error) {
  if (shape->kind == AN_CLI_SHAPE_CIRCLE) {
    return arcnav_map_add_circle(built, shape->center, shape->radius, error) == ARCNAV_OK;
  }
  size_t hole_count = shape->ring_count - 1;
  const arcnav_vec2 **holes = NULL;
  size_t *hole_counts = NULL;
  if (hole_count > 0) {
    holes = malloc(hole_count * sizeof *holes);
    hole_counts = malloc(hole_count * sizeof *hole_counts);
    if (holes == NULL || hole_counts == NULL) {
      free(holes);
      free(hole_counts);
      *error = (arcnav_error){ARCNAV_ERR_OUT_OF_MEMORY, -1, -1, -1};
      return false;
    }
    for (size_t i = 0; i < hole_count; i++) {
      holes[i] = shape->rings[i + 1].points;
      hole_counts[i] = shape->rings[i + 1].count;
    }
  }
  arcnav_status status =
      arcnav_map_add_polygon(built, shape->rings[0].points, shape->rings[0].count,
                             (const arcnav_vec2 *const *)holes, hole_counts, hole_count, error);
  free(holes);
  free(hole_counts);
  return status == ARCNAV_OK;
}

bool an_cli_map_build(const an_cli_map *map, arcnav_map **out_map, an_cli_diag *diag) {
  arcnav_map *built = NULL;
  arcnav_status status = arcnav_map_create(NULL, &built);
  if (status != ARCNAV_OK) {
    an_cli_diag_set(diag, "%s: cannot create the map: %s", map->file,
                    arcnav_status_message(status));
    return false;
  }
  for (size_t i = 0; i < map->shape_count; i++) {
    arcnav_error error = {ARCNAV_OK, -1, -1, -1};
    if (an_cli_add_shape(built, &map->shapes[i], &error)) {
      continue;
    }
    // The library numbers obstacles in the order they were added, which is shape order.
    size_t index = i;
    if (error.obstacle >= 0 && (size_t)error.obstacle < map->shape_count) {
      index = (size_t)error.obstacle;
    }
    char what[320], where[96];
    describe_shape(map, &map->shapes[index], what, sizeof what);
    describe_location(&error, where, sizeof where);
    an_cli_diag_set(diag, "%s%s: %s (%s)", what, where, arcnav_status_message(error.status),
                    arcnav_status_name(error.status));
    arcnav_map_destroy(built);
    return false;
  }
  if (map->has_bounds) {
    arcnav_error error = {ARCNAV_OK, -1, -1, -1};
    status = arcnav_map_set_bounds(built, map->bounds.points, map->bounds.count, &error);
    if (status != ARCNAV_OK) {
      char where[96] = "";
      if (error.vertex >= 0) {
        snprintf(where, sizeof where, ", vertex %d", error.vertex);
      }
      an_cli_diag_set(diag, "%s: feature %d (bounds)%s: %s (%s)", map->file, map->bounds_feature,
                      where, arcnav_status_message(status), arcnav_status_name(status));
      arcnav_map_destroy(built);
      return false;
    }
  }
  *out_map = built;
  return true;
}
