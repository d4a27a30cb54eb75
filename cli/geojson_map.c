// SPDX-License-Identifier: MIT
#include "geojson_map.h"

#include <cJSON.h>
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct reader {
  const char *file;
  an_cli_map *map;
  an_cli_diag *diag;
} reader;

// Where in the file a value sits; -1 fields are left out of messages.
typedef struct location {
  int feature, part, ring, vertex;
} location;

static void format_location(const reader *r, location at, char *out, size_t size) {
  size_t used = (size_t)snprintf(out, size, "%s: feature %d", r->file, at.feature);
  if (at.part >= 0 && used < size) {
    used += (size_t)snprintf(out + used, size - used, " (polygon %d of the MultiPolygon)", at.part);
  }
  if (at.ring >= 0 && used < size) {
    used += (size_t)snprintf(out + used, size - used, ", ring %d", at.ring);
  }
  if (at.vertex >= 0 && used < size) {
    snprintf(out + used, size - used, ", vertex %d", at.vertex);
  }
}

static bool fail(const reader *r, location at, const char *message) {
  char where[320];
  format_location(r, at, where, sizeof where);
  an_cli_diag_set(r->diag, "%s: %s", where, message);
  return false;
}

static const char *json_kind(const cJSON *item) {
  if (item == NULL) {
    return "missing";
  }
  if (cJSON_IsString(item)) {
    return "a string";
  }
  if (cJSON_IsNumber(item)) {
    return "a number";
  }
  if (cJSON_IsArray(item)) {
    return "an array";
  }
  if (cJSON_IsObject(item)) {
    return "an object";
  }
  if (cJSON_IsBool(item)) {
    return "a boolean";
  }
  return "null";
}

// A number as GeoJSON needs it: a JSON number (not a string holding one) that is finite. cJSON
// turns literals such as 1e999 into infinity, so finiteness is checked here.
static bool read_number(const reader *r, location at, const cJSON *item, const char *what,
                        double *out) {
  char message[200];
  if (cJSON_IsString(item)) {
    snprintf(message, sizeof message, "%s is a string (\"%.40s\"); give a JSON number", what,
             item->valuestring);
    return fail(r, at, message);
  }
  if (!cJSON_IsNumber(item)) {
    snprintf(message, sizeof message, "%s must be a number, not %s", what, json_kind(item));
    return fail(r, at, message);
  }
  if (!isfinite(item->valuedouble)) {
    snprintf(message, sizeof message, "%s is not a finite number", what);
    return fail(r, at, message);
  }
  *out = item->valuedouble;
  return true;
}

static bool read_position(const reader *r, location at, const cJSON *item, arcnav_vec2 *out) {
  if (!cJSON_IsArray(item) || cJSON_GetArraySize(item) < 2) {
    char message[160];
    snprintf(message, sizeof message, "a position must be an array [x, y], not %s%s",
             json_kind(item), cJSON_IsArray(item) ? " with fewer than 2 numbers" : "");
    return fail(r, at, message);
  }
  // A third number (altitude) is allowed by GeoJSON and has no meaning here.
  return read_number(r, at, cJSON_GetArrayItem(item, 0), "x", &out->x) &&
         read_number(r, at, cJSON_GetArrayItem(item, 1), "y", &out->y);
}

static bool read_ring(const reader *r, location at, const cJSON *item, an_cli_ring *out) {
  if (!cJSON_IsArray(item)) {
    char message[120];
    snprintf(message, sizeof message, "a ring must be an array of positions, not %s",
             json_kind(item));
    return fail(r, at, message);
  }
  int count = cJSON_GetArraySize(item);
  arcnav_vec2 *points = count > 0 ? malloc((size_t)count * sizeof *points) : NULL;
  if (count > 0 && points == NULL) {
    return fail(r, at, "out of memory");
  }
  int index = 0;
  const cJSON *position = NULL;
  cJSON_ArrayForEach(position, item) {
    location vertex_at = at;
    vertex_at.vertex = index;
    if (!read_position(r, vertex_at, position, &points[index])) {
      free(points);
      return false;
    }
    index++;
  }
  if (an_cli_ring_distinct_count(points, (size_t)count) < 3) {
    free(points);
    return fail(r, at, "a ring needs at least 3 distinct points");
  }
  *out = (an_cli_ring){points, (size_t)count};
  return true;
}

static void free_ring_array(an_cli_ring *rings, size_t count) {
  for (size_t i = 0; i < count; i++) {
    free(rings[i].points);
  }
  free(rings);
}

// Polygon coordinates: [outer ring, hole, hole, ...].
static bool read_polygon(const reader *r, location at, const cJSON *coordinates,
                         an_cli_ring **out_rings, size_t *out_count) {
  if (!cJSON_IsArray(coordinates) || cJSON_GetArraySize(coordinates) < 1) {
    char message[160];
    snprintf(message, sizeof message,
             "Polygon coordinates must be a non-empty array of rings, not %s%s",
             json_kind(coordinates), cJSON_IsArray(coordinates) ? " without rings" : "");
    return fail(r, at, message);
  }
  size_t count = (size_t)cJSON_GetArraySize(coordinates);
  an_cli_ring *rings = calloc(count, sizeof *rings);
  if (rings == NULL) {
    return fail(r, at, "out of memory");
  }
  size_t index = 0;
  const cJSON *ring = NULL;
  cJSON_ArrayForEach(ring, coordinates) {
    location ring_at = at;
    ring_at.ring = (int)index;
    if (!read_ring(r, ring_at, ring, &rings[index])) {
      free_ring_array(rings, index);
      return false;
    }
    index++;
  }
  *out_rings = rings;
  *out_count = count;
  return true;
}

static bool add_polygon(const reader *r, location at, const cJSON *coordinates) {
  an_cli_shape shape = {AN_CLI_SHAPE_POLYGON, at.feature, at.part, NULL, 0, {0, 0}, 0};
  if (!read_polygon(r, at, coordinates, &shape.rings, &shape.ring_count)) {
    return false;
  }
  if (!an_cli_map_add_shape(r->map, &shape)) {
    return fail(r, at, "out of memory");
  }
  return true;
}

static bool read_bounds(const reader *r, location at, const cJSON *geometry, const char *type) {
  char message[200];
  if (strcmp(type, "Polygon") != 0) {
    snprintf(message, sizeof message, "role \"bounds\" needs a Polygon geometry, not %.40s", type);
    return fail(r, at, message);
  }
  if (r->map->has_bounds) {
    snprintf(message, sizeof message, "a second bounds polygon (feature %d is the first)",
             r->map->bounds_feature);
    return fail(r, at, message);
  }
  an_cli_ring *rings = NULL;
  size_t count = 0;
  if (!read_polygon(r, at, cJSON_GetObjectItemCaseSensitive(geometry, "coordinates"), &rings,
                    &count)) {
    return false;
  }
  if (count != 1) {
    free_ring_array(rings, count);
    return fail(r, at, "the bounds polygon must not have holes");
  }
  r->map->has_bounds = true;
  r->map->bounds = rings[0];
  r->map->bounds_feature = at.feature;
  free(rings);
  return true;
}

static bool read_circle(const reader *r, location at, const cJSON *geometry,
                        const cJSON *radius_item) {
  an_cli_shape shape = {AN_CLI_SHAPE_CIRCLE, at.feature, -1, NULL, 0, {0, 0}, 0};
  if (!read_number(r, at, radius_item, "properties.radius", &shape.radius)) {
    return false;
  }
  if (shape.radius < 0) {
    char message[120];
    snprintf(message, sizeof message, "properties.radius must not be negative (%.17g)",
             shape.radius);
    return fail(r, at, message);
  }
  if (!read_position(r, at, cJSON_GetObjectItemCaseSensitive(geometry, "coordinates"),
                     &shape.center)) {
    return false;
  }
  if (!an_cli_map_add_shape(r->map, &shape)) {
    return fail(r, at, "out of memory");
  }
  return true;
}

static bool read_feature(const reader *r, int index, const cJSON *feature) {
  location at = {index, -1, -1, -1};
  char message[200];
  if (!cJSON_IsObject(feature)) {
    snprintf(message, sizeof message, "a feature must be an object, not %s", json_kind(feature));
    return fail(r, at, message);
  }
  const cJSON *type = cJSON_GetObjectItemCaseSensitive(feature, "type");
  if (!cJSON_IsString(type) || strcmp(type->valuestring, "Feature") != 0) {
    return fail(r, at, "\"type\" must be \"Feature\"");
  }
  const cJSON *properties = cJSON_GetObjectItemCaseSensitive(feature, "properties");
  if (properties != NULL && !cJSON_IsNull(properties) && !cJSON_IsObject(properties)) {
    snprintf(message, sizeof message, "\"properties\" must be an object or null, not %s",
             json_kind(properties));
    return fail(r, at, message);
  }
  const cJSON *geometry = cJSON_GetObjectItemCaseSensitive(feature, "geometry");
  if (geometry == NULL || cJSON_IsNull(geometry)) {
    an_cli_map_warn(r->map, "%s: feature %d: warning: no geometry; ignored", r->file, index);
    return true;
  }
  if (!cJSON_IsObject(geometry)) {
    snprintf(message, sizeof message, "\"geometry\" must be an object or null, not %s",
             json_kind(geometry));
    return fail(r, at, message);
  }
  const cJSON *geometry_type = cJSON_GetObjectItemCaseSensitive(geometry, "type");
  if (!cJSON_IsString(geometry_type)) {
    return fail(r, at, "the geometry has no \"type\" string");
  }
  const char *kind = geometry_type->valuestring;
  const cJSON *coordinates = cJSON_GetObjectItemCaseSensitive(geometry, "coordinates");
  const cJSON *role = cJSON_GetObjectItemCaseSensitive(properties, "role");
  if (cJSON_IsString(role) && strcmp(role->valuestring, "bounds") == 0) {
    return read_bounds(r, at, geometry, kind);
  }
  if (strcmp(kind, "Polygon") == 0) {
    return add_polygon(r, at, coordinates);
  }
  if (strcmp(kind, "MultiPolygon") == 0) {
    if (!cJSON_IsArray(coordinates)) {
      snprintf(message, sizeof message,
               "MultiPolygon coordinates must be an array of polygons, not %s",
               json_kind(coordinates));
      return fail(r, at, message);
    }
    if (cJSON_GetArraySize(coordinates) == 0) {
      an_cli_map_warn(r->map, "%s: feature %d: warning: empty MultiPolygon; ignored", r->file,
                      index);
      return true;
    }
    int part = 0;
    const cJSON *polygon = NULL;
    cJSON_ArrayForEach(polygon, coordinates) {
      location part_at = at;
      part_at.part = part++;
      if (!add_polygon(r, part_at, polygon)) {
        return false;
      }
    }
    return true;
  }
  if (strcmp(kind, "Point") == 0) {
    const cJSON *radius = cJSON_GetObjectItemCaseSensitive(properties, "radius");
    if (radius == NULL) {
      an_cli_map_warn(r->map, "%s: feature %d: warning: Point without properties.radius; ignored",
                      r->file, index);
      return true;
    }
    return read_circle(r, at, geometry, radius);
  }
  if (strcmp(kind, "LineString") == 0 || strcmp(kind, "MultiLineString") == 0 ||
      strcmp(kind, "MultiPoint") == 0 || strcmp(kind, "GeometryCollection") == 0) {
    an_cli_map_warn(r->map, "%s: feature %d: warning: %s is not an obstacle; ignored", r->file,
                    index, kind);
    return true;
  }
  snprintf(message, sizeof message, "unknown geometry type \"%.40s\"", kind);
  return fail(r, at, message);
}

static int line_of(const char *text, size_t length, const char *position) {
  int line = 1;
  if (position == NULL || position < text || position > text + length) {
    return line;
  }
  for (const char *c = text; c < position; c++) {
    if (*c == '\n') {
      line++;
    }
  }
  return line;
}

bool an_cli_geojson_parse(const char *file, const char *text, size_t length, an_cli_map *map,
                          an_cli_diag *diag) {
  reader r = {file, map, diag};
  const char *end = NULL;
  cJSON *root = cJSON_ParseWithLengthOpts(text, length, &end, false);
  if (root == NULL) {
    char near[24] = "";
    size_t n = 0;
    if (end != NULL && end >= text && end <= text + length) {
      for (const char *c = end; c < text + length && n + 1 < sizeof near && *c != '\n'; c++) {
        near[n++] = isprint((unsigned char)*c) ? *c : '?';
      }
    }
    near[n] = '\0';
    an_cli_diag_set(diag, "%s:%d: invalid JSON%s%s%s", file, line_of(text, length, end),
                    n > 0 ? " near '" : "", near, n > 0 ? "'" : " (unexpected end)");
    return false;
  }
  // Only whitespace may follow the document.
  if (end != NULL) {
    for (const char *c = end; c < text + length; c++) {
      if (!isspace((unsigned char)*c)) {
        an_cli_diag_set(diag, "%s:%d: invalid JSON: text after the end of the document", file,
                        line_of(text, length, c));
        cJSON_Delete(root);
        return false;
      }
    }
  }
  bool ok = true;
  const cJSON *type = cJSON_GetObjectItemCaseSensitive(root, "type");
  const cJSON *features = cJSON_GetObjectItemCaseSensitive(root, "features");
  if (!cJSON_IsObject(root) || !cJSON_IsString(type) ||
      strcmp(type->valuestring, "FeatureCollection") != 0) {
    an_cli_diag_set(diag,
                    "%s: not a GeoJSON FeatureCollection (top-level \"type\" must be "
                    "\"FeatureCollection\")",
                    file);
    ok = false;
  } else if (!cJSON_IsArray(features)) {
    an_cli_diag_set(diag, "%s: \"features\" must be an array, not %s", file, json_kind(features));
    ok = false;
  } else {
    int index = 0;
    const cJSON *feature = NULL;
    cJSON_ArrayForEach(feature, features) {
      if (!read_feature(&r, index++, feature)) {
        ok = false;
        break;
      }
    }
  }
  cJSON_Delete(root);
  return ok;
}
