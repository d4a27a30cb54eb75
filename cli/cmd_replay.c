// SPDX-License-Identifier: MIT
// `arcnav replay`: a living map driven by a JSON-lines script (contract: docs/CLI.md, "Replay
// scripts"). The tool keeps each obstacle's geometry under its name beside the library's map, to
// save the map as it is now and to plan with some obstacles left out; planners are kept per
// radius and brought up to date with arcnav_planner_update() when the map changed since they
// last answered.
#include "args.h"
#include "commands.h"
#include "map_file.h"
#include "path_output.h"
#include "replay.h"
#include "session.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char usage[] =
    "usage: arcnav replay SCRIPT\n"
    "\n"
    "Run a living map: SCRIPT (or standard input for '-') has one JSON operation per line, run in\n"
    "order; each is answered by one JSON line with \"op\", \"ok\" (or \"ok\":false and \"error\")\n"
    "and \"micros\". Operations: load, add, remove, move, path, nearest, reachable, raycast,\n"
    "clearance, still_free, save (see docs/CLI.md). A refused operation changes nothing and the\n"
    "script goes on. Blank lines are skipped.\n"
    "\n"
    "Exit status: 0 when every line was a known operation, 2 when a line was not JSON, named no\n"
    "known operation, or SCRIPT could not be read.\n";

// ---- small readers of the operation's members -------------------------------------------------

void an_replay_fail(an_replay *r, const char *format, ...) {
  va_list args;
  va_start(args, format);
  vsnprintf(r->error, sizeof r->error, format, args);
  va_end(args);
}

bool an_replay_number(an_replay *r, const cJSON *op, const char *name, bool required,
                      double fallback, double *out) {
  const cJSON *item = cJSON_GetObjectItemCaseSensitive(op, name);
  if (item == NULL) {
    if (required) {
      an_replay_fail(r, "\"%s\" is required", name);
      return false;
    }
    *out = fallback;
    return true;
  }
  if (!cJSON_IsNumber(item) || !isfinite(item->valuedouble)) {
    an_replay_fail(r, "\"%s\" must be a finite number", name);
    return false;
  }
  *out = item->valuedouble;
  return true;
}

static bool read_pair(const cJSON *item, arcnav_vec2 *out) {
  if (!cJSON_IsArray(item) || cJSON_GetArraySize(item) != 2) {
    return false;
  }
  const cJSON *x = cJSON_GetArrayItem(item, 0), *y = cJSON_GetArrayItem(item, 1);
  if (!cJSON_IsNumber(x) || !cJSON_IsNumber(y) || !isfinite(x->valuedouble) ||
      !isfinite(y->valuedouble)) {
    return false;
  }
  *out = (arcnav_vec2){x->valuedouble, y->valuedouble};
  return true;
}

bool an_replay_point(an_replay *r, const cJSON *op, const char *name, bool required, bool *present,
                     arcnav_vec2 *out) {
  const cJSON *item = cJSON_GetObjectItemCaseSensitive(op, name);
  if (present) {
    *present = item != NULL && !cJSON_IsNull(item);
  }
  if (item == NULL || cJSON_IsNull(item)) {
    if (required) {
      an_replay_fail(r, "\"%s\" is required", name);
      return false;
    }
    return true;
  }
  if (!read_pair(item, out)) {
    an_replay_fail(r, "\"%s\" must be [x, y] with finite numbers", name);
    return false;
  }
  return true;
}

bool an_replay_radius(an_replay *r, const cJSON *op, double *out) {
  if (!an_replay_number(r, op, "radius", false, 0.0, out)) {
    return false;
  }
  if (*out < 0) {
    an_replay_fail(r, "\"radius\" must not be negative");
    return false;
  }
  return true;
}

static const char *string_member(const cJSON *op, const char *name) {
  const cJSON *item = cJSON_GetObjectItemCaseSensitive(op, name);
  return cJSON_IsString(item) ? item->valuestring : NULL;
}

// ---- obstacles by name ----------------------------------------------------------------------

static void free_ring(an_cli_ring *ring) {
  free(ring->points);
  ring->points = NULL;
  ring->count = 0;
}

static void free_shape(an_cli_shape *shape) {
  for (size_t i = 0; i < shape->ring_count; i++) {
    free_ring(&shape->rings[i]);
  }
  free(shape->rings);
  shape->rings = NULL;
  shape->ring_count = 0;
}

static size_t find_named(const an_replay *r, const char *name) {
  for (size_t i = 0; i < r->count; i++) {
    if (strcmp(r->obstacles[i].name, name) == 0) {
      return i;
    }
  }
  return SIZE_MAX;
}

static void clear_map(an_replay *r) {
  for (size_t i = 0; i < r->count; i++) {
    free(r->obstacles[i].name);
    free_shape(&r->obstacles[i].shape);
  }
  free(r->obstacles);
  r->obstacles = NULL;
  r->count = r->capacity = 0;
  free_ring(&r->bounds);
  r->has_bounds = false;
  for (size_t i = 0; i < r->planner_count; i++) {
    arcnav_query_destroy(r->planners[i].query);
    arcnav_planner_destroy(r->planners[i].planner);
  }
  r->planner_count = 0;
  arcnav_map_destroy(r->map);
  r->map = NULL;
}

static bool push_named(an_replay *r, char *name, const an_cli_shape *shape, bool soft) {
  if (r->count == r->capacity) {
    size_t capacity = r->capacity == 0 ? 16 : 2 * r->capacity;
    an_replay_obstacle *grown = realloc(r->obstacles, capacity * sizeof *grown);
    if (grown == NULL) {
      return false;
    }
    r->obstacles = grown;
    r->capacity = capacity;
  }
  r->obstacles[r->count++] = (an_replay_obstacle){
      .name = name,
      .shape = *shape,
      .soft = soft,
      .id = arcnav_map_obstacle_id(r->map, arcnav_map_obstacle_count(r->map) - 1)};
  return true;
}

static char *copy_text(const char *text) {
  size_t length = strlen(text) + 1;
  char *copy = malloc(length);
  if (copy != NULL) {
    memcpy(copy, text, length);
  }
  return copy;
}

static void describe_error(an_replay *r, const char *what, const arcnav_error *error) {
  char where[96] = "";
  if (error->ring >= 0 && error->vertex >= 0) {
    snprintf(where, sizeof where, " (ring %d, vertex %d)", error->ring, error->vertex);
  } else if (error->ring >= 0) {
    snprintf(where, sizeof where, " (ring %d)", error->ring);
  }
  an_replay_fail(r, "%s: %s%s: %s", what, arcnav_status_name(error->status), where,
                 arcnav_status_message(error->status));
}

// ---- planners -------------------------------------------------------------------------------

arcnav_query *an_replay_query(an_replay *r, double radius) {
  if (r->map == NULL) {
    an_replay_fail(r, "no map: start with {\"op\":\"load\",...} or add obstacles");
    return NULL;
  }
  an_replay_planner *found = NULL;
  for (size_t i = 0; i < r->planner_count && found == NULL; i++) {
    found = r->planners[i].radius == radius ? &r->planners[i] : NULL;
  }
  if (found == NULL) {
    if (r->planner_count == AN_REPLAY_PLANNERS) {
      // The radius used longest ago makes room.
      arcnav_query_destroy(r->planners[0].query);
      arcnav_planner_destroy(r->planners[0].planner);
      memmove(r->planners, r->planners + 1, (AN_REPLAY_PLANNERS - 1) * sizeof *r->planners);
      r->planner_count--;
    }
    an_cli_diag diag = {{0}};
    an_replay_planner made = {.radius = radius, .changes = r->changes};
    if (!an_cli_build_planner(r->map, "replay", "replay", radius, 0.0, ARCNAV_ENGINE_AUTO,
                              ARCNAV_TANGENT_GRAPH_ON_DEMAND, &made.planner, &made.query, NULL,
                              &diag)) {
      an_replay_fail(r, "%s", diag.message);
      return NULL;
    }
    r->planners[r->planner_count++] = made;
    return made.query;
  }
  if (found->changes != r->changes) {
    arcnav_status status = arcnav_planner_update(found->planner, r->map);
    if (status != ARCNAV_OK) {
      an_replay_fail(r, "cannot update the planner: %s", arcnav_status_message(status));
      return NULL;
    }
    found->changes = r->changes;
  }
  return found->query;
}

static bool ensure_map(an_replay *r) {
  if (r->map != NULL) {
    return true;
  }
  arcnav_status status = arcnav_map_create(NULL, &r->map);
  if (status != ARCNAV_OK) {
    an_replay_fail(r, "cannot create the map: %s", arcnav_status_message(status));
    return false;
  }
  return true;
}

// ---- operations -------------------------------------------------------------------------------

static bool op_load(an_replay *r, const cJSON *op, FILE *out) {
  const char *file = string_member(op, "map");
  if (file == NULL) {
    an_replay_fail(r, "\"map\" (a file name) is required");
    return false;
  }
  an_cli_map geometry;
  an_cli_map_init(&geometry, file);
  an_cli_diag diag = {{0}};
  arcnav_map *map = NULL;
  if (!an_cli_map_load(file, &geometry, &diag) || !an_cli_map_build(&geometry, &map, &diag)) {
    an_cli_map_free(&geometry);
    an_replay_fail(r, "%s", diag.message);
    return false;
  }
  clear_map(r);
  r->map = map;
  r->changes++;
  bool ok = true;
  for (size_t i = 0; i < geometry.shape_count && ok; i++) {
    char name[32];
    snprintf(name, sizeof name, "#%zu", i);
    char *owned = copy_text(name);
    ok = owned != NULL && push_named(r, owned, &geometry.shapes[i], false);
    if (ok) {
      geometry.shapes[i].rings = NULL; // now the replay's
      geometry.shapes[i].ring_count = 0;
    } else {
      free(owned);
    }
  }
  if (ok && geometry.has_bounds) {
    r->bounds = geometry.bounds;
    r->has_bounds = true;
    geometry.bounds = (an_cli_ring){NULL, 0};
    geometry.has_bounds = false;
  }
  an_cli_map_free(&geometry);
  if (!ok) {
    clear_map(r);
    an_replay_fail(r, "out of memory");
    return false;
  }
  fprintf(out, ",\"obstacles\":%zu", r->count);
  return true;
}

static bool read_ring(an_replay *r, const cJSON *item, const char *what, an_cli_ring *out) {
  int count = cJSON_GetArraySize(item);
  if (!cJSON_IsArray(item) || count < 1) {
    an_replay_fail(r, "%s must be an array of [x, y] points", what);
    return false;
  }
  out->points = malloc((size_t)count * sizeof *out->points);
  out->count = 0;
  if (out->points == NULL) {
    an_replay_fail(r, "out of memory");
    return false;
  }
  const cJSON *point;
  cJSON_ArrayForEach(point, item) {
    if (!read_pair(point, &out->points[out->count])) {
      an_replay_fail(r, "%s: point %zu must be [x, y] with finite numbers", what, out->count);
      free_ring(out);
      return false;
    }
    out->count++;
  }
  return true;
}

static bool read_shape(an_replay *r, const cJSON *op, an_cli_shape *shape) {
  memset(shape, 0, sizeof *shape);
  shape->feature = -1;
  shape->part = -1;
  const cJSON *polygon = cJSON_GetObjectItemCaseSensitive(op, "polygon");
  const cJSON *circle = cJSON_GetObjectItemCaseSensitive(op, "circle");
  if ((polygon == NULL) == (circle == NULL)) {
    an_replay_fail(r, "give exactly one of \"polygon\" and \"circle\"");
    return false;
  }
  if (circle != NULL) {
    double radius = 0;
    if (!cJSON_IsObject(circle) ||
        !an_replay_point(r, circle, "center", true, NULL, &shape->center) ||
        !an_replay_number(r, circle, "radius", true, 0.0, &radius)) {
      if (!cJSON_IsObject(circle)) {
        an_replay_fail(r, "\"circle\" must be {\"center\": [x, y], \"radius\": r}");
      }
      return false;
    }
    shape->kind = AN_CLI_SHAPE_CIRCLE;
    shape->radius = radius;
    return true;
  }
  const cJSON *holes = cJSON_GetObjectItemCaseSensitive(op, "holes");
  if (holes != NULL && !cJSON_IsArray(holes)) {
    an_replay_fail(r, "\"holes\" must be an array of rings");
    return false;
  }
  size_t hole_count = holes != NULL ? (size_t)cJSON_GetArraySize(holes) : 0;
  shape->kind = AN_CLI_SHAPE_POLYGON;
  shape->rings = calloc(hole_count + 1, sizeof *shape->rings);
  if (shape->rings == NULL) {
    an_replay_fail(r, "out of memory");
    return false;
  }
  if (!read_ring(r, polygon, "\"polygon\"", &shape->rings[0])) {
    free_shape(shape);
    return false;
  }
  shape->ring_count = 1;
  for (size_t h = 0; h < hole_count; h++) {
    char what[48];
    snprintf(what, sizeof what, "hole %zu", h);
    if (!read_ring(r, cJSON_GetArrayItem(holes, (int)h), what, &shape->rings[h + 1])) {
      free_shape(shape);
      return false;
    }
    shape->ring_count++;
  }
  return true;
}

static bool op_add(an_replay *r, const cJSON *op, FILE *out) {
  (void)out;
  const char *name = string_member(op, "name");
  if (name == NULL) {
    an_replay_fail(r, "\"name\" (a string) is required");
    return false;
  }
  if (find_named(r, name) != SIZE_MAX) {
    an_replay_fail(r, "an obstacle named \"%s\" is already on the map", name);
    return false;
  }
  const cJSON *soft = cJSON_GetObjectItemCaseSensitive(op, "soft");
  if (soft != NULL && !cJSON_IsBool(soft)) {
    an_replay_fail(r, "\"soft\" must be true or false");
    return false;
  }
  an_cli_shape shape;
  if (!read_shape(r, op, &shape) || !ensure_map(r)) {
    return false;
  }
  arcnav_error error = {ARCNAV_OK, -1, -1, -1};
  char *owned = copy_text(name);
  // A soft circle is a unit: a path question may ignore it without a planner of its own.
  bool unit = cJSON_IsTrue(soft) && shape.kind == AN_CLI_SHAPE_CIRCLE;
  if (unit && owned != NULL) {
    error.status = arcnav_map_add_unit(r->map, shape.center, shape.radius, NULL);
  }
  if (owned == NULL ||
      (unit ? error.status != ARCNAV_OK : !an_cli_add_shape(r->map, &shape, &error))) {
    if (owned == NULL) {
      an_replay_fail(r, "out of memory");
    } else {
      describe_error(r, "refused", &error);
    }
    free(owned);
    free_shape(&shape);
    return false;
  }
  if (!push_named(r, owned, &shape, cJSON_IsTrue(soft))) {
    arcnav_map_remove_obstacle(
        r->map, arcnav_map_obstacle_id(r->map, arcnav_map_obstacle_count(r->map) - 1));
    free(owned);
    free_shape(&shape);
    an_replay_fail(r, "out of memory");
    return false;
  }
  r->changes++;
  return true;
}

static size_t named_or_fail(an_replay *r, const cJSON *op) {
  const char *name = string_member(op, "name");
  if (name == NULL) {
    an_replay_fail(r, "\"name\" (a string) is required");
    return SIZE_MAX;
  }
  size_t index = find_named(r, name);
  if (index == SIZE_MAX) {
    an_replay_fail(r, "no obstacle named \"%s\" on the map", name);
  }
  return index;
}

static bool op_remove(an_replay *r, const cJSON *op, FILE *out) {
  (void)out;
  size_t index = named_or_fail(r, op);
  if (index == SIZE_MAX) {
    return false;
  }
  arcnav_status status = arcnav_map_remove_obstacle(r->map, r->obstacles[index].id);
  if (status != ARCNAV_OK) {
    an_replay_fail(r, "refused: %s", arcnav_status_message(status));
    return false;
  }
  free(r->obstacles[index].name);
  free_shape(&r->obstacles[index].shape);
  memmove(r->obstacles + index, r->obstacles + index + 1,
          (r->count - index - 1) * sizeof *r->obstacles);
  r->count--;
  r->changes++;
  return true;
}

static bool op_move(an_replay *r, const cJSON *op, FILE *out) {
  (void)out;
  size_t index = named_or_fail(r, op);
  arcnav_vec2 by = {0, 0};
  if (index == SIZE_MAX || !an_replay_point(r, op, "by", true, NULL, &by)) {
    return false;
  }
  an_replay_obstacle *ob = &r->obstacles[index];
  arcnav_error error = {ARCNAV_OK, -1, -1, -1};
  if (arcnav_map_move_obstacle(r->map, ob->id, by, &error) != ARCNAV_OK) {
    describe_error(r, "refused", &error);
    return false;
  }
  // The same sums the library made, so a saved map is the map planned on.
  ob->shape.center = (arcnav_vec2){ob->shape.center.x + by.x, ob->shape.center.y + by.y};
  for (size_t k = 0; k < ob->shape.ring_count; k++) {
    for (size_t i = 0; i < ob->shape.rings[k].count; i++) {
      arcnav_vec2 *p = &ob->shape.rings[k].points[i];
      *p = (arcnav_vec2){p->x + by.x, p->y + by.y};
    }
  }
  r->changes++;
  return true;
}

// The path question on `query`: in one go (slice 0), or as a sliced search of `slice`
// expansions a resume, counting the resumes in *slices.
static arcnav_status find_path_sliced(arcnav_query *query, arcnav_vec2 from, arcnav_vec2 to,
                                      size_t slice, arcnav_path *path, size_t *slices) {
  *slices = 0;
  if (slice == 0) {
    return arcnav_find_path(query, from, to, path);
  }
  arcnav_status status = arcnav_query_begin(query, from, to);
  if (status != ARCNAV_OK) {
    return status;
  }
  do {
    status = arcnav_query_resume(query, slice, path);
    (*slices)++;
  } while (status == ARCNAV_IN_PROGRESS);
  return status;
}

// The ids of the obstacles `ignore` names into `ids` (room for r->count), when every one is a
// unit (a soft circle) and the list names at most r->count of them; false otherwise, with nothing
// reported.
static bool ignored_units(const an_replay *r, const cJSON *ignore, arcnav_obstacle_id *ids,
                          size_t *count) {
  *count = 0;
  const cJSON *item;
  cJSON_ArrayForEach(item, ignore) {
    size_t index = cJSON_IsString(item) ? find_named(r, item->valuestring) : SIZE_MAX;
    if (index == SIZE_MAX || !r->obstacles[index].soft ||
        r->obstacles[index].shape.kind != AN_CLI_SHAPE_CIRCLE || *count == r->count) {
      return false;
    }
    ids[(*count)++] = r->obstacles[index].id;
  }
  return true;
}

// A path question that ignores units only, asked of the planner for its radius: false when that
// planner cannot ignore them (a point agent), and a planner of its own must answer.
static bool plan_ignoring_units(an_replay *r, const cJSON *ignore, double radius, bool partial,
                                size_t slice, arcnav_vec2 from, arcnav_vec2 to,
                                arcnav_status *status, size_t *slices) {
  arcnav_obstacle_id *ids = malloc((r->count + 1) * sizeof *ids);
  size_t count = 0;
  bool units = ids != NULL && ignored_units(r, ignore, ids, &count);
  arcnav_query *query = units ? an_replay_query(r, radius) : NULL;
  bool asked = query != NULL && arcnav_query_set_ignored(query, ids, count) == ARCNAV_OK;
  free(ids);
  if (asked) {
    arcnav_query_set_partial(query, partial);
    *status = find_path_sliced(query, from, to, slice, r->path, slices);
    arcnav_query_set_partial(query, false);
    arcnav_query_set_ignored(query, NULL, 0);
  }
  return asked;
}

// A planner on the map without the obstacles `ignore` names, for one query.
static bool plan_ignoring(an_replay *r, const cJSON *ignore, double radius, bool partial,
                          size_t slice, arcnav_vec2 from, arcnav_vec2 to, arcnav_status *status,
                          size_t *slices) {
  bool *skip = calloc(r->count + 1, sizeof *skip);
  if (skip == NULL) {
    an_replay_fail(r, "out of memory");
    return false;
  }
  const cJSON *item;
  cJSON_ArrayForEach(item, ignore) {
    size_t index = cJSON_IsString(item) ? find_named(r, item->valuestring) : SIZE_MAX;
    if (index == SIZE_MAX) {
      an_replay_fail(r, "\"ignore\" must list names of obstacles on the map%s%s%s",
                     cJSON_IsString(item) ? " (no \"" : "",
                     cJSON_IsString(item) ? item->valuestring : "",
                     cJSON_IsString(item) ? "\")" : "");
      free(skip);
      return false;
    }
    skip[index] = true;
  }
  arcnav_map *map = NULL;
  bool ok = arcnav_map_create(NULL, &map) == ARCNAV_OK;
  for (size_t i = 0; ok && i < r->count; i++) {
    arcnav_error error;
    ok = skip[i] || an_cli_add_shape(map, &r->obstacles[i].shape, &error);
  }
  if (ok && r->has_bounds) {
    ok = arcnav_map_set_bounds(map, r->bounds.points, r->bounds.count, NULL) == ARCNAV_OK;
  }
  free(skip);
  arcnav_planner *planner = NULL;
  arcnav_query *query = NULL;
  an_cli_diag diag = {{0}};
  ok = ok && an_cli_build_planner(map, "replay", "replay", radius, 0.0, ARCNAV_ENGINE_AUTO,
                                  ARCNAV_TANGENT_GRAPH_ON_DEMAND, &planner, &query, NULL, &diag);
  if (ok) {
    arcnav_query_set_partial(query, partial);
    *status = find_path_sliced(query, from, to, slice, r->path, slices);
  } else {
    an_replay_fail(r, "%s", diag.message[0] != '\0' ? diag.message : "out of memory");
  }
  arcnav_query_destroy(query);
  arcnav_planner_destroy(planner);
  arcnav_map_destroy(map);
  return ok;
}

// The "from", "to" and "radius" of a path question.
static bool read_question(an_replay *r, const cJSON *op, arcnav_vec2 *from, arcnav_vec2 *to,
                          double *radius) {
  return an_replay_point(r, op, "from", true, NULL, from) &&
         an_replay_point(r, op, "to", true, NULL, to) && an_replay_radius(r, op, radius);
}

static bool op_path(an_replay *r, const cJSON *op, FILE *out) {
  arcnav_vec2 from = {0, 0}, to = {0, 0};
  double radius = 0;
  if (!read_question(r, op, &from, &to, &radius)) {
    return false;
  }
  const cJSON *partial = cJSON_GetObjectItemCaseSensitive(op, "partial");
  if (partial != NULL && !cJSON_IsBool(partial)) {
    an_replay_fail(r, "\"partial\" must be true or false");
    return false;
  }
  const cJSON *ignore = cJSON_GetObjectItemCaseSensitive(op, "ignore");
  if (ignore != NULL && !cJSON_IsArray(ignore)) {
    an_replay_fail(r, "\"ignore\" must be an array of names");
    return false;
  }
  const cJSON *slice_item = cJSON_GetObjectItemCaseSensitive(op, "slice");
  size_t slice = 0;
  if (slice_item != NULL) {
    double value = cJSON_IsNumber(slice_item) ? slice_item->valuedouble : 0.0;
    if (!(value >= 1.0 && value <= 1e9 && value == floor(value))) {
      an_replay_fail(r, "\"slice\" must be a whole number of expansions from 1 to 1e9");
      return false;
    }
    slice = (size_t)value;
  }
  arcnav_status status;
  size_t slices = 0;
  bool want_partial = cJSON_IsTrue(partial);
  if (ignore != NULL && cJSON_GetArraySize(ignore) > 0) {
    if (r->map == NULL) {
      an_replay_fail(r, "no map: start with {\"op\":\"load\",...} or add obstacles");
      return false;
    }
    if (!plan_ignoring_units(r, ignore, radius, want_partial, slice, from, to, &status, &slices) &&
        !plan_ignoring(r, ignore, radius, want_partial, slice, from, to, &status, &slices)) {
      return false;
    }
  } else {
    arcnav_query *query = an_replay_query(r, radius);
    if (query == NULL) {
      return false;
    }
    arcnav_query_set_partial(query, want_partial);
    status = find_path_sliced(query, from, to, slice, r->path, &slices);
    arcnav_query_set_partial(query, false);
  }
  if (!arcnav_status_is_answer(status)) {
    an_replay_fail(r, "%s: %s", arcnav_status_name(status), arcnav_status_message(status));
    return false;
  }
  fputc(',', out);
  an_cli_path_json_members(out, status, radius, r->path, false);
  if (slice > 0) {
    fprintf(out, ",\"slices\":%zu", slices);
  }
  return true;
}

static bool op_reachable(an_replay *r, const cJSON *op, FILE *out) {
  arcnav_vec2 from = {0, 0}, to = {0, 0};
  double radius = 0;
  if (!read_question(r, op, &from, &to, &radius)) {
    return false;
  }
  arcnav_query *query = an_replay_query(r, radius);
  if (query == NULL) {
    return false;
  }
  bool reachable = false, searched = false;
  arcnav_status status = arcnav_query_reachable(query, from, to, &reachable, &searched);
  if (!arcnav_status_is_answer(status)) {
    an_replay_fail(r, "%s: %s", arcnav_status_name(status), arcnav_status_message(status));
    return false;
  }
  fprintf(out, ",\"reachable\":%s,\"status\":\"%s\",\"searched\":%s", reachable ? "true" : "false",
          arcnav_status_name(status), searched ? "true" : "false");
  return true;
}

static void save_ring(FILE *file, const an_cli_ring *ring) {
  fputc('[', file);
  for (size_t i = 0; i <= ring->count; i++) {
    // GeoJSON rings repeat their first point at the end.
    if (i == ring->count && ring->count > 0 && ring->points[0].x == ring->points[i - 1].x &&
        ring->points[0].y == ring->points[i - 1].y) {
      break;
    }
    if (i > 0) {
      fputc(',', file);
    }
    an_cli_json_point(file, ring->points[i % ring->count]);
  }
  fputc(']', file);
}

static bool op_save(an_replay *r, const cJSON *op, FILE *out) {
  const char *file = string_member(op, "out");
  if (file == NULL) {
    an_replay_fail(r, "\"out\" (a file name) is required");
    return false;
  }
  FILE *f = fopen(file, "w");
  if (f == NULL) {
    an_replay_fail(r, "cannot write %s", file);
    return false;
  }
  fputs("{\"type\":\"FeatureCollection\",\"features\":[", f);
  for (size_t i = 0; i < r->count; i++) {
    const an_replay_obstacle *ob = &r->obstacles[i];
    fputs(i > 0 ? ",\n" : "\n", f);
    fputs("{\"type\":\"Feature\",\"properties\":{\"name\":", f);
    an_cli_json_string(f, ob->name);
    if (ob->shape.kind == AN_CLI_SHAPE_CIRCLE) {
      fputs(",\"radius\":", f);
      an_cli_json_number(f, ob->shape.radius);
      if (ob->soft) {
        fputs(",\"soft\":true", f);
      }
      fputs("},\"geometry\":{\"type\":\"Point\",\"coordinates\":", f);
      an_cli_json_point(f, ob->shape.center);
    } else {
      fputs("},\"geometry\":{\"type\":\"Polygon\",\"coordinates\":[", f);
      for (size_t k = 0; k < ob->shape.ring_count; k++) {
        if (k > 0) {
          fputc(',', f);
        }
        save_ring(f, &ob->shape.rings[k]);
      }
      fputc(']', f);
    }
    fputs("}}", f);
  }
  if (r->has_bounds) {
    fputs(r->count > 0 ? ",\n" : "\n", f);
    fputs("{\"type\":\"Feature\",\"properties\":{\"role\":\"bounds\"},\"geometry\":{\"type\":"
          "\"Polygon\",\"coordinates\":[",
          f);
    save_ring(f, &r->bounds);
    fputs("]}}", f);
  }
  fputs("\n]}\n", f);
  bool written = !ferror(f);
  written = fclose(f) == 0 && written;
  if (!written) {
    an_replay_fail(r, "cannot write %s", file);
    return false;
  }
  fprintf(out, ",\"obstacles\":%zu", r->count);
  return true;
}

// ---- the script ---------------------------------------------------------------------------

typedef struct replay_op {
  const char *name;
  bool (*run)(an_replay *r, const cJSON *op, FILE *out);
} replay_op;

static const replay_op OPS[] = {
    {"load", op_load},
    {"add", op_add},
    {"remove", op_remove},
    {"move", op_move},
    {"path", op_path},
    {"reachable", op_reachable},
    {"nearest", an_replay_op_nearest},
    {"raycast", an_replay_op_raycast},
    {"clearance", an_replay_op_clearance},
    {"still_free", an_replay_op_still_free},
    {"save", op_save}, // the last: clang-format keeps one per line
};

// Runs one line; false when it was not a known operation (the exit status says so).
static bool run_line(an_replay *r, const char *line, int line_number, FILE *out) {
  r->error[0] = '\0';
  cJSON *op = cJSON_Parse(line);
  const cJSON *name = op != NULL ? cJSON_GetObjectItemCaseSensitive(op, "op") : NULL;
  const replay_op *found = NULL;
  for (size_t i = 0; cJSON_IsString(name) && i < sizeof OPS / sizeof OPS[0]; i++) {
    found = strcmp(OPS[i].name, name->valuestring) == 0 ? &OPS[i] : found;
  }
  fputs("{\"op\":", out);
  if (cJSON_IsString(name)) {
    an_cli_json_string(out, name->valuestring);
  } else {
    fputs("null", out);
  }
  if (found == NULL) {
    char message[160];
    snprintf(message, sizeof message, "line %d: %s", line_number,
             op == NULL              ? "not a JSON object"
             : !cJSON_IsObject(op)   ? "not a JSON object"
             : !cJSON_IsString(name) ? "\"op\" (a string) is missing"
                                     : "unknown operation");
    fputs(",\"ok\":false,\"error\":", out);
    an_cli_json_string(out, message);
    fputs(",\"micros\":0}\n", out);
    cJSON_Delete(op);
    return false;
  }
  char *members = NULL;
  size_t members_size = 0;
  FILE *buffer = open_memstream(&members, &members_size);
  double started = an_cli_now_us();
  bool ok = buffer != NULL && found->run(r, op, buffer);
  double micros = an_cli_now_us() - started;
  if (buffer != NULL) {
    fclose(buffer);
  } else {
    an_replay_fail(r, "out of memory");
  }
  if (ok) {
    fprintf(out, ",\"ok\":true%s", members != NULL ? members : "");
  } else {
    char message[sizeof r->error + 32];
    snprintf(message, sizeof message, "line %d: %s", line_number, r->error);
    fputs(",\"ok\":false,\"error\":", out);
    an_cli_json_string(out, message);
  }
  fputs(",\"micros\":", out);
  an_cli_json_number(out, micros);
  fputs("}\n", out);
  free(members);
  cJSON_Delete(op);
  return true;
}

static bool blank(const char *line) {
  for (; *line != '\0'; line++) {
    if (*line != ' ' && *line != '\t' && *line != '\r') {
      return false;
    }
  }
  return true;
}

int an_cli_cmd_replay(int argc, char **argv) {
  an_cli_args_result args;
  int early_exit = an_cli_parse_command("replay", argc, argv, NULL, 0, 1, usage, &args);
  if (early_exit >= 0) {
    return early_exit;
  }
  an_cli_diag diag = {{0}};
  if (args.positional_count != 1) {
    an_cli_diag_set(&diag, "arcnav replay: give one SCRIPT (or '-' for standard input)");
    an_cli_diag_print(&diag);
    return AN_CLI_EXIT_USAGE;
  }
  const char *script = args.positional[0];
  char *text = NULL;
  size_t length = 0;
  bool read = strcmp(script, "-") == 0
                  ? an_cli_read_stream(stdin, "standard input", &text, &length, &diag)
                  : an_cli_read_file(script, &text, &length, &diag);
  if (!read) {
    an_cli_diag_print(&diag);
    return AN_CLI_EXIT_USAGE;
  }
  an_replay r;
  memset(&r, 0, sizeof r);
  int exit_code = AN_CLI_EXIT_OK;
  if (arcnav_path_create(NULL, &r.path) != ARCNAV_OK) {
    fprintf(stderr, "arcnav replay: out of memory\n");
    free(text);
    return AN_CLI_EXIT_USAGE;
  }
  int line_number = 1;
  for (char *line = text; line != NULL; line_number++) {
    char *newline = strchr(line, '\n');
    if (newline != NULL) {
      *newline = '\0';
    }
    if (!blank(line) && !run_line(&r, line, line_number, stdout)) {
      exit_code = AN_CLI_EXIT_USAGE;
    }
    line = newline != NULL ? newline + 1 : NULL;
  }
  clear_map(&r);
  arcnav_path_destroy(r.path);
  free(text);
  return exit_code;
}
