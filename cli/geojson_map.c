// SPDX-License-Identifier: MIT
#include "geojson_map.h"

#include <cJSON.h>
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

// A string from the file, made safe to quote in a one-line message: at most 40 bytes, and anything
// but printable ASCII (control characters, bytes of multi-byte characters) shown as '?'.
static const char *quoted(const char *text, char *out, size_t size) {
  size_t n = 0;
  for (const char *c = text != NULL ? text : ""; *c != '\0' && n + 4 < size && n < 40; c++) {
    out[n++] = *c >= 0x20 && *c < 0x7f ? *c : '?';
  }
  if (text != NULL && n < strlen(text) && n + 3 < size) {
    memcpy(out + n, "...", 3);
    n += 3;
  }
  out[n] = '\0';
  return out;
}

// A number as GeoJSON needs it: a JSON number (not a string holding one) that is finite. cJSON
// turns literals such as 1e999 into infinity, so finiteness is checked here.
static bool read_number(const reader *r, location at, const cJSON *item, const char *what,
                        double *out) {
  char message[200], shown[48];
  if (cJSON_IsString(item)) {
    snprintf(message, sizeof message, "%s is a string (\"%s\"); give a JSON number", what,
             quoted(item->valuestring, shown, sizeof shown));
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
  size_t distinct = an_cli_ring_distinct_count(points, (size_t)count);
  if (distinct < 3) {
    free(points);
    char message[120];
    snprintf(message, sizeof message, "a ring needs at least 3 distinct points, this one has %zu",
             distinct);
    return fail(r, at, message);
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
  char message[200], shown[48];
  if (strcmp(type, "Polygon") != 0) {
    snprintf(message, sizeof message, "role \"bounds\" needs a Polygon geometry, not %s",
             quoted(type, shown, sizeof shown));
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
  char message[200], shown[48];
  if (!cJSON_IsObject(feature)) {
    snprintf(message, sizeof message, "a feature must be an object, not %s", json_kind(feature));
    return fail(r, at, message);
  }
  const cJSON *type = cJSON_GetObjectItemCaseSensitive(feature, "type");
  if (!cJSON_IsString(type)) {
    snprintf(message, sizeof message, "\"type\" must be the string \"Feature\", not %s",
             json_kind(type));
    return fail(r, at, message);
  }
  if (strcmp(type->valuestring, "Feature") != 0) {
    snprintf(message, sizeof message, "\"type\" must be \"Feature\", not \"%s\"",
             quoted(type->valuestring, shown, sizeof shown));
    return fail(r, at, message);
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
  snprintf(message, sizeof message, "unknown geometry type \"%s\"",
           quoted(kind, shown, sizeof shown));
  return fail(r, at, message);
}

// Line and column (both from 1) of byte `offset`; the column counts characters, so the bytes of a
// multi-byte UTF-8 character count once (the text before `offset` is known to be valid UTF-8).
static void position_of(const char *text, size_t offset, int *line, int *column) {
  *line = 1;
  *column = 1;
  for (size_t i = 0; i < offset; i++) {
    unsigned char c = (unsigned char)text[i];
    if (c == '\n') {
      ++*line;
      *column = 1;
    } else if ((c & 0xC0) != 0x80) {
      ++*column;
    }
  }
}

// Offset of the first byte that is not part of well-formed UTF-8 (RFC 3629: no overlong forms, no
// surrogates, nothing above U+10FFFF) or is a NUL; `length` when there is none.
static size_t first_bad_byte(const unsigned char *text, size_t length) {
  size_t i = 0;
  while (i < length) {
    unsigned char c = text[i];
    if (c == 0) {
      return i;
    }
    if (c < 0x80) {
      i++;
      continue;
    }
    size_t need;
    unsigned char lo = 0x80, hi = 0xBF; // allowed range of the second byte
    if (c >= 0xC2 && c <= 0xDF) {
      need = 1;
    } else if (c >= 0xE0 && c <= 0xEF) {
      need = 2;
      lo = c == 0xE0 ? 0xA0 : 0x80;
      hi = c == 0xED ? 0x9F : 0xBF;
    } else if (c >= 0xF0 && c <= 0xF4) {
      need = 3;
      lo = c == 0xF0 ? 0x90 : 0x80;
      hi = c == 0xF4 ? 0x8F : 0xBF;
    } else {
      return i;
    }
    for (size_t k = 1; k <= need; k++) {
      if (i + k >= length) {
        return i;
      }
      unsigned char next = text[i + k];
      if (k == 1 ? next < lo || next > hi : (next & 0xC0) != 0x80) {
        return i;
      }
    }
    i += need + 1;
  }
  return length;
}

static bool fail_at(an_cli_diag *diag, const char *file, const char *text, size_t offset,
                    const char *message) {
  int line = 0, column = 0;
  position_of(text, offset, &line, &column);
  an_cli_diag_set(diag, "%s:%d:%d: %s", file, line, column, message);
  return false;
}

// Does the text end inside a string or with an array or object still open?
static bool unclosed(const char *text, size_t length) {
  bool in_string = false, escaped = false;
  size_t depth = 0;
  for (size_t i = 0; i < length; i++) {
    char c = text[i];
    if (in_string) {
      if (escaped) {
        escaped = false;
      } else if (c == '\\') {
        escaped = true;
      } else if (c == '"') {
        in_string = false;
      }
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      depth++;
    } else if ((c == ']' || c == '}') && depth > 0) {
      depth--;
    }
  }
  return in_string || depth > 0;
}

static bool is_json_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

bool an_cli_geojson_parse(const char *file, const char *text, size_t length, an_cli_map *map,
                          an_cli_diag *diag) {
  reader r = {file, map, diag};
  char message[160];
  size_t bad = first_bad_byte((const unsigned char *)text, length);
  if (bad < length) {
    if (text[bad] == '\0') {
      return fail_at(diag, file, text, bad, "a NUL byte; JSON text cannot contain one");
    }
    snprintf(message, sizeof message, "invalid UTF-8 (byte 0x%02X); JSON text must be UTF-8",
             (unsigned)(unsigned char)text[bad]);
    return fail_at(diag, file, text, bad, message);
  }
  // A byte order mark is not JSON, but editors write one; RFC 8259 lets a reader skip it.
  size_t skip = length >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
  size_t first = skip;
  while (first < length && is_json_space(text[first])) {
    first++;
  }
  if (first == length) {
    return fail_at(diag, file, text, length,
                   "the file is empty; expected a GeoJSON FeatureCollection");
  }
  const char *end = NULL;
  cJSON *root = cJSON_ParseWithLengthOpts(text + skip, length - skip, &end, false);
  if (root == NULL) {
    size_t offset =
        end != NULL && end >= text && end <= text + length ? (size_t)(end - text) : length;
    // cJSON reports running out of text as an error at the last byte; an unclosed string, array
    // or object there means the file was cut short.
    if (offset + 1 >= length && unclosed(text + skip, length - skip)) {
      offset = length;
    }
    if (offset >= length) {
      return fail_at(diag, file, text, length,
                     "invalid JSON: unexpected end of input (the file looks truncated)");
    }
    char near[24] = "";
    size_t n = 0;
    for (size_t i = offset; i < length && n + 1 < sizeof near && text[i] != '\n'; i++) {
      near[n++] = text[i] >= 0x20 && text[i] < 0x7f ? text[i] : '?';
    }
    near[n] = '\0';
    snprintf(message, sizeof message, "invalid JSON near '%s'", near);
    return fail_at(diag, file, text, offset, message);
  }
  // Only whitespace may follow the document.
  if (end != NULL) {
    for (const char *c = end; c < text + length; c++) {
      if (!is_json_space(*c)) {
        cJSON_Delete(root);
        return fail_at(diag, file, text, (size_t)(c - text),
                       "invalid JSON: text after the end of the document");
      }
    }
  }
  bool ok = true;
  const cJSON *type = cJSON_GetObjectItemCaseSensitive(root, "type");
  const cJSON *features = cJSON_GetObjectItemCaseSensitive(root, "features");
  char shown[48];
  if (!cJSON_IsObject(root)) {
    an_cli_diag_set(diag,
                    "%s: not a GeoJSON FeatureCollection: the top-level value is %s, not an object",
                    file, json_kind(root));
    ok = false;
  } else if (!cJSON_IsString(type)) {
    an_cli_diag_set(diag,
                    "%s: not a GeoJSON FeatureCollection: top-level \"type\" is %s, not the "
                    "string \"FeatureCollection\"",
                    file, json_kind(type));
    ok = false;
  } else if (strcmp(type->valuestring, "FeatureCollection") != 0) {
    an_cli_diag_set(diag,
                    "%s: not a GeoJSON FeatureCollection: top-level \"type\" is \"%s\", not "
                    "\"FeatureCollection\"",
                    file, quoted(type->valuestring, shown, sizeof shown));
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
