// SPDX-License-Identifier: MIT
// The operations of `arcnav replay` that probe the free space instead of planning: nearest,
// raycast, clearance and still_free (docs/CLI.md, "Replay scripts"). Each answers through the
// planner of its radius, brought up to date with the map.
#include "path_output.h"
#include "replay.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define PI 3.14159265358979323846

// A probe's error status as the refusal's message.
static bool refuse_status(an_replay *r, arcnav_status status) {
  an_replay_fail(r, "%s: %s", arcnav_status_name(status), arcnav_status_message(status));
  return false;
}

bool an_replay_op_nearest(an_replay *r, const cJSON *op, FILE *out) {
  arcnav_vec2 point = {0, 0}, from = {0, 0};
  double radius = 0;
  bool has_from = false;
  if (!an_replay_point(r, op, "point", true, NULL, &point) || !an_replay_radius(r, op, &radius) ||
      !an_replay_point(r, op, "reachable_from", false, &has_from, &from)) {
    return false;
  }
  arcnav_query *query = an_replay_query(r, radius);
  if (query == NULL) {
    return false;
  }
  arcnav_vec2 fits = point;
  double distance = INFINITY;
  arcnav_status status = has_from
                             ? arcnav_query_nearest_reachable(query, from, point, &fits, &distance)
                             : arcnav_query_nearest_free(query, point, &fits, &distance);
  // A start where the disk does not fit reaches nothing: no point, as when nothing is free.
  if (status != ARCNAV_OK && status != ARCNAV_NO_PATH && status != ARCNAV_START_BLOCKED) {
    return refuse_status(r, status);
  }
  bool found = status == ARCNAV_OK;
  fputs(",\"point\":", out);
  if (found) {
    an_cli_json_point(out, fits);
  } else {
    fputs("null", out);
  }
  fputs(",\"distance\":", out);
  an_cli_json_number(out, found ? distance : INFINITY);
  return true;
}

bool an_replay_op_raycast(an_replay *r, const cJSON *op, FILE *out) {
  arcnav_vec2 from = {0, 0}, dir = {0, 0};
  double radius = 0, max = INFINITY;
  if (!an_replay_point(r, op, "from", true, NULL, &from) ||
      !an_replay_point(r, op, "dir", true, NULL, &dir) || !an_replay_radius(r, op, &radius) ||
      !an_replay_number(r, op, "max", false, INFINITY, &max)) {
    return false;
  }
  if (max < 0) {
    an_replay_fail(r, "\"max\" must not be negative");
    return false;
  }
  if (dir.x == 0 && dir.y == 0) {
    an_replay_fail(r, "\"dir\" must not be [0, 0]");
    return false;
  }
  arcnav_query *query = an_replay_query(r, radius);
  if (query == NULL) {
    return false;
  }
  arcnav_ray_hit hit;
  arcnav_status status = arcnav_query_raycast(query, from, dir, max, &hit);
  if (status != ARCNAV_OK && status != ARCNAV_START_BLOCKED) {
    return refuse_status(r, status);
  }
  fprintf(out, ",\"hit\":%s", hit.hit ? "true" : "false");
  if (status == ARCNAV_START_BLOCKED) {
    fputs(",\"start_blocked\":true", out);
  }
  if (hit.hit) {
    fputs(",\"distance\":", out);
    an_cli_json_number(out, hit.distance);
    fputs(",\"point\":", out);
    an_cli_json_point(out, hit.point);
    fputs(",\"normal\":", out);
    an_cli_json_point(out, hit.normal);
  }
  return true;
}

bool an_replay_op_clearance(an_replay *r, const cJSON *op, FILE *out) {
  arcnav_vec2 point = {0, 0};
  if (!an_replay_point(r, op, "point", true, NULL, &point)) {
    return false;
  }
  // Independent of the radius: the planner of radius 0 answers.
  arcnav_query *query = an_replay_query(r, 0.0);
  if (query == NULL) {
    return false;
  }
  arcnav_clearance clearance;
  arcnav_status status = arcnav_query_clearance(query, point, &clearance);
  if (status != ARCNAV_OK) {
    return refuse_status(r, status);
  }
  fputs(",\"distance\":", out);
  an_cli_json_number(out, clearance.distance);
  fputs(",\"nearest\":", out);
  if (clearance.found) {
    an_cli_json_point(out, clearance.nearest);
  } else {
    fputs("null", out);
  }
  return true;
}

// The sweep of an arc from `from` to `to` around `center`, turning as `ccw` says, in (0, 2 pi]:
// the path JSON gives the ends, not the sweep.
static double arc_sweep(arcnav_vec2 center, arcnav_vec2 from, arcnav_vec2 to, bool ccw) {
  double a = atan2(from.y - center.y, from.x - center.x);
  double b = atan2(to.y - center.y, to.x - center.x);
  double sweep = ccw ? b - a : a - b;
  while (sweep <= 0) {
    sweep += 2 * PI;
  }
  while (sweep > 2 * PI) {
    sweep -= 2 * PI;
  }
  return sweep;
}

// The pieces of a path answer (the contract's "Path output") into r->path.
static bool read_path(an_replay *r, const cJSON *path) {
  const cJSON *pieces = cJSON_GetObjectItemCaseSensitive(path, "pieces");
  if (!cJSON_IsArray(pieces)) {
    an_replay_fail(r, "\"path\" must be a path answer with \"pieces\"");
    return false;
  }
  int count = cJSON_GetArraySize(pieces);
  if (count == 0) {
    an_replay_fail(r, "\"path\" has no pieces: there is no way to check");
    return false;
  }
  arcnav_piece *list = calloc((size_t)(count > 0 ? count : 1), sizeof *list);
  if (list == NULL) {
    an_replay_fail(r, "out of memory");
    return false;
  }
  int i = 0;
  const cJSON *item;
  bool ok = true;
  cJSON_ArrayForEach(item, pieces) {
    arcnav_piece *p = &list[i];
    const cJSON *type = cJSON_GetObjectItemCaseSensitive(item, "type");
    bool arc = cJSON_IsString(type) && strcmp(type->valuestring, "arc") == 0;
    bool line = cJSON_IsString(type) && strcmp(type->valuestring, "line") == 0;
    char what[64];
    snprintf(what, sizeof what, "piece %d", i);
    if (!cJSON_IsObject(item) || (!arc && !line)) {
      an_replay_fail(r, "%s: \"type\" must be \"line\" or \"arc\"", what);
      ok = false;
      break;
    }
    p->type = arc ? ARCNAV_PIECE_ARC : ARCNAV_PIECE_LINE;
    ok = an_replay_point(r, item, "from", true, NULL, &p->from) &&
         an_replay_point(r, item, "to", true, NULL, &p->to);
    if (ok && arc) {
      const cJSON *ccw = cJSON_GetObjectItemCaseSensitive(item, "ccw");
      ok = an_replay_point(r, item, "center", true, NULL, &p->center) &&
           an_replay_number(r, item, "radius", true, 0.0, &p->radius);
      if (ok && !cJSON_IsBool(ccw)) {
        an_replay_fail(r, "\"ccw\" must be true or false");
        ok = false;
      }
      if (ok) {
        p->ccw = cJSON_IsTrue(ccw);
        p->sweep = arc_sweep(p->center, p->from, p->to, p->ccw);
      }
    }
    if (!ok) {
      char message[sizeof r->error];
      snprintf(message, sizeof message, "%s", r->error);
      an_replay_fail(r, "%s: %s", what, message);
      break;
    }
    i++;
  }
  arcnav_status status = ok ? arcnav_path_assign(r->path, list, (size_t)count) : ARCNAV_OK;
  free(list);
  if (ok && status != ARCNAV_OK) {
    an_replay_fail(r, "\"path\": %s: the pieces do not make a path (%s)",
                   arcnav_status_name(status), arcnav_status_message(status));
    ok = false;
  }
  return ok;
}

bool an_replay_op_still_free(an_replay *r, const cJSON *op, FILE *out) {
  const cJSON *path = cJSON_GetObjectItemCaseSensitive(op, "path");
  if (!cJSON_IsObject(path)) {
    an_replay_fail(r, "\"path\" (a path answer) is required");
    return false;
  }
  // The radius the path was planned for, unless the operation names another.
  double radius = 0;
  if (!an_replay_number(r, path, "radius", false, 0.0, &radius) ||
      !an_replay_number(r, op, "radius", false, radius, &radius)) {
    return false;
  }
  if (radius < 0) {
    an_replay_fail(r, "\"radius\" must not be negative");
    return false;
  }
  if (!read_path(r, path)) {
    return false;
  }
  arcnav_query *query = an_replay_query(r, radius);
  if (query == NULL) {
    return false;
  }
  bool free_all = false;
  double contact = INFINITY;
  arcnav_status status = arcnav_query_path_is_free(query, r->path, &free_all, &contact);
  if (status != ARCNAV_OK) {
    return refuse_status(r, status);
  }
  fprintf(out, ",\"free\":%s", free_all ? "true" : "false");
  if (!free_all) {
    fputs(",\"first_contact\":", out);
    an_cli_json_number(out, contact);
  }
  return true;
}
