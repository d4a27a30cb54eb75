// SPDX-License-Identifier: MIT
// The living map: a sequence of operations decoded from the input bytes (adds of rectangles,
// circles and raw polygons, removes and moves by ids that may be stale or made up, moves by
// values that are not numbers or leave the range, planner updates and queries) runs on one map
// with planners whose query objects were made before the first change. The map's answers are
// checked against a plain description kept beside it; after every update each planner answers
// as one built from scratch on a map made from that description (its live shapes in order, units
// as units) answers (status, and length within 1e-9; clearance,
// raycasts and nearest free and reachable points to rounding; some path questions as sliced
// searches, some with partial answers), and every path passes the independent verifier. Some
// circles are units (an odd radius byte), and some path questions ignore units: they must be
// refused exactly where the engine cannot ignore, and elsewhere answer as a planner built from
// scratch on the description without those units. Inputs whose header has its top bit set plan
// with the interval engine (ARCNAV_ENGINE_INTERVAL) where they would with the tangent engine,
// under the same checks. Any violation aborts.
#include "fuzz_entry.h"

#include "mapgen.h"
#include "verify.h"

#include <arcnav/arcnav.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_SHAPES 12
#define MAX_VERTICES 8
#define MAX_OPERATIONS 24

static void fail(const char *what, const char *detail) {
  fprintf(stderr, "fuzz_living: %s%s%s\n", what, detail[0] != '\0' ? ": " : "", detail);
  abort();
}

typedef struct shape {
  bool alive;
  bool circle;
  arcnav_vec2 points[MAX_VERTICES]; ///< polygons: the ring as the map keeps it
  size_t count;
  arcnav_vec2 center;
  double radius;
  bool unit; ///< circles: added by arcnav_map_add_unit()
  arcnav_obstacle_id id;
} shape;

typedef struct living {
  arcnav_map *map;
  shape shapes[MAX_SHAPES];
  size_t count;
  bool bounded;
  arcnav_vec2 bounds[4];
} living;

// The map as a plain description, without the shapes `left_out` marks (NULL: none).
static sup_map describe_without(const living *l, const bool *left_out) {
  sup_map m;
  sup_map_init(&m);
  for (size_t i = 0; i < l->count; i++) {
    const shape *s = &l->shapes[i];
    if (!s->alive || (left_out && left_out[i])) {
      continue;
    }
    if (s->circle) {
      sup_map_add_circle(&m, s->center, s->radius);
    } else {
      sup_map_add_polygon(&m, s->points, s->count, NULL, NULL, 0);
    }
  }
  if (l->bounded) {
    sup_map_set_bounds(&m, l->bounds, 4);
  }
  return m;
}

static sup_map describe(const living *l) {
  return describe_without(l, NULL);
}

// The map built from scratch, without the shapes `left_out` marks (NULL: none): the live shapes in
// the living map's order (an add appends, a removal keeps the others' order, a move keeps its
// place), units as units. Where the map's tolerance swallows the features (an obstacle moved out
// to 1e10 makes it 10), the order of obstacles that touch decides between answers as good as
// each other, so the planners compared must see the same map. NULL when it is refused.
static arcnav_map *fresh_map_without(const living *l, const bool *left_out) {
  arcnav_map *map = NULL;
  if (arcnav_map_create(NULL, &map) != ARCNAV_OK) {
    return NULL;
  }
  arcnav_status status = l->bounded ? arcnav_map_set_bounds(map, l->bounds, 4, NULL) : ARCNAV_OK;
  for (size_t i = 0; i < l->count && status == ARCNAV_OK; i++) {
    const shape *s = &l->shapes[i];
    if (!s->alive || (left_out && left_out[i])) {
      continue;
    }
    status = !s->circle ? arcnav_map_add_polygon(map, s->points, s->count, NULL, NULL, 0, NULL)
             : s->unit  ? arcnav_map_add_unit(map, s->center, s->radius, NULL)
                        : arcnav_map_add_circle(map, s->center, s->radius, NULL);
  }
  if (status != ARCNAV_OK) {
    arcnav_map_destroy(map);
    return NULL;
  }
  return map;
}

// The finest coordinates of the input are 1/1024 apart. A map tolerance of 1e-3 or more (an
// obstacle moved out past about 1e6) reaches the features' scale: obstacles that do not meet
// count as touching, and which of the ways the tolerance leaves open a planner takes depends on
// how it met them (its definition, the obstacles' order, the triangulation an update left): on
// one such map (`fuzz/regressions/living/tolerance-swallows-the-features`, tolerance 11) a fresh
// planner for radii up to 2 answers 2.3e10 at R = 0, one for R = 0 alone and the updated planner
// 41, the funnel 15.4; on another, at R = 0, one found a place reachable that the other did not,
// and the nearest reachable place 3.7 away from it (`.../nearest-reachable-beyond-precision`).
// There whether a way exists, and which, is not compared (same_answer()); what does not depend on
// the ways (a blocked end, clearance, the nearest free place, a ray) still is. Within precision
// everything is, and paths are verified.
static bool within_precision(double eps) {
  return eps < 1e-3;
}

// Two planners' statuses for one question on a map of tolerance `eps`: the same, or beyond
// precision both answers about the ways (found, none, partial).
static bool same_answer(arcnav_status a, arcnav_status b, double eps) {
  bool a_way = a == ARCNAV_OK || a == ARCNAV_NO_PATH || a == ARCNAV_PARTIAL;
  bool b_way = b == ARCNAV_OK || b == ARCNAV_NO_PATH || b == ARCNAV_PARTIAL;
  return a == b || (!within_precision(eps) && a_way && b_way);
}

static size_t alive_count(const living *l) {
  size_t alive = 0;
  for (size_t i = 0; i < l->count; i++) {
    alive += l->shapes[i].alive;
  }
  return alive;
}

static void add_shape(an_fuzz_reader *r, living *l) {
  if (l->count == MAX_SHAPES) {
    return;
  }
  shape *s = &l->shapes[l->count];
  memset(s, 0, sizeof *s);
  uint8_t kind = an_fuzz_byte(r) % 4;
  arcnav_status status;
  bool valid = true;
  if (kind == 0) {
    s->circle = true;
    s->center = (arcnav_vec2){an_fuzz_coord(r), an_fuzz_coord(r)};
    uint8_t radius = an_fuzz_byte(r);
    s->radius = radius / 32.0;
    s->unit = (radius & 1) != 0;
    status = s->unit ? arcnav_map_add_unit(l->map, s->center, s->radius, NULL)
                     : arcnav_map_add_circle(l->map, s->center, s->radius, NULL);
  } else if (kind == 1) {
    // Raw vertices: the library must accept exactly what the independent check accepts.
    size_t n = 3 + an_fuzz_byte(r) % (MAX_VERTICES - 2);
    for (size_t i = 0; i < n; i++) {
      s->points[i] = (arcnav_vec2){an_fuzz_coord(r), an_fuzz_coord(r)};
    }
    status = arcnav_map_add_polygon(l->map, s->points, n, NULL, NULL, 0, NULL);
    s->count = an_fuzz_clean_ring(s->points, n);
    sup_map one;
    sup_map_init(&one);
    sup_map_add_polygon(&one, s->points, s->count, NULL, NULL, 0);
    valid = s->count >= 3 && sup_map_check(&one, NULL, 0);
    sup_map_free(&one);
  } else {
    arcnav_vec2 a = {an_fuzz_coord(r), an_fuzz_coord(r)};
    arcnav_vec2 b = {a.x + 0.25 * (1 + an_fuzz_byte(r) % 48),
                     a.y + 0.25 * (1 + an_fuzz_byte(r) % 48)};
    arcnav_vec2 box[4] = {a, {b.x, a.y}, b, {a.x, b.y}};
    memcpy(s->points, box, sizeof box);
    s->count = 4;
    status = arcnav_map_add_polygon(l->map, box, 4, NULL, NULL, 0, NULL);
  }
  size_t before = alive_count(l);
  // What the library accepts must be valid; the independent check is the looser of the two
  // about rings that touch themselves, so a refusal of a raw ring is not a fault.
  if (status == ARCNAV_OK && !valid) {
    fail("an invalid polygon was accepted", "");
  }
  if (status != ARCNAV_OK && kind != 1) {
    fail("a valid obstacle was refused", arcnav_status_name(status));
  }
  if (status != ARCNAV_OK) {
    if (arcnav_map_obstacle_count(l->map) != before) {
      fail("a refused obstacle changed the map", "");
    }
    return;
  }
  s->alive = true;
  s->id = arcnav_map_obstacle_id(l->map, arcnav_map_obstacle_count(l->map) - 1);
  if (arcnav_map_obstacle_is_unit(l->map, s->id) != s->unit) {
    fail("the map tells a unit from a circle otherwise than it was added", "");
  }
  l->count++;
}

// An id to remove or move: one the map gave out (alive or not), or one made up.
static arcnav_obstacle_id pick_id(an_fuzz_reader *r, const living *l, size_t *shape_index) {
  uint8_t pick = an_fuzz_byte(r);
  *shape_index = SIZE_MAX;
  if (l->count > 0 && pick < 224) {
    *shape_index = pick % l->count;
    return l->shapes[*shape_index].id;
  }
  arcnav_obstacle_id made_up = 0;
  for (int i = 0; i < 8; i++) {
    made_up = made_up << 8 | an_fuzz_byte(r);
  }
  // A made-up id may still name a live obstacle: then it is that obstacle's.
  for (size_t i = 0; i < l->count; i++) {
    if (l->shapes[i].alive && l->shapes[i].id == made_up) {
      *shape_index = i;
    }
  }
  return made_up;
}

static void remove_shape(an_fuzz_reader *r, living *l) {
  size_t index;
  arcnav_obstacle_id id = pick_id(r, l, &index);
  bool alive = index != SIZE_MAX && l->shapes[index].alive;
  arcnav_status status = arcnav_map_remove_obstacle(l->map, id);
  if (status != (alive ? ARCNAV_OK : ARCNAV_ERR_STALE_ID)) {
    fail("remove", arcnav_status_name(status));
  }
  if (alive) {
    l->shapes[index].alive = false;
  }
}

static void move_shape(an_fuzz_reader *r, living *l) {
  size_t index;
  arcnav_obstacle_id id = pick_id(r, l, &index);
  bool alive = index != SIZE_MAX && l->shapes[index].alive;
  uint8_t how = an_fuzz_byte(r);
  arcnav_vec2 by;
  if (how < 240) {
    // Quarter steps: every moved coordinate is exact, so a valid obstacle stays valid.
    by =
        (arcnav_vec2){(double)(int8_t)an_fuzz_byte(r) / 4.0, (double)(int8_t)an_fuzz_byte(r) / 4.0};
  } else {
    by = (arcnav_vec2){an_fuzz_raw(r), an_fuzz_raw(r)};
  }
  arcnav_error error;
  arcnav_status status = arcnav_map_move_obstacle(l->map, id, by, &error);
  arcnav_status expected = ARCNAV_OK;
  if (!alive) {
    expected = ARCNAV_ERR_STALE_ID;
  } else if (!isfinite(by.x) || !isfinite(by.y)) {
    expected = ARCNAV_ERR_NOT_FINITE;
  } else if (fabs(by.x) > 1e100 || fabs(by.y) > 1e100) {
    expected = ARCNAV_ERR_TOO_LARGE;
  }
  shape moved = alive ? l->shapes[index] : (shape){0};
  if (alive && expected == ARCNAV_OK) {
    moved.center = (arcnav_vec2){moved.center.x + by.x, moved.center.y + by.y};
    for (size_t i = 0; i < moved.count; i++) {
      moved.points[i] = (arcnav_vec2){moved.points[i].x + by.x, moved.points[i].y + by.y};
    }
    bool in_range = fabs(moved.center.x) <= 1e100 && fabs(moved.center.y) <= 1e100;
    for (size_t i = 0; i < moved.count; i++) {
      in_range = in_range && fabs(moved.points[i].x) <= 1e100 && fabs(moved.points[i].y) <= 1e100;
    }
    if (!in_range) {
      expected = ARCNAV_ERR_TOO_LARGE;
    } else if (!moved.circle && status != ARCNAV_OK && status >= ARCNAV_ERR_TOO_FEW_VERTICES &&
               status != ARCNAV_ERR_TOO_LARGE && status != ARCNAV_ERR_STALE_ID) {
      // Far moves round the coordinates: the moved ring may be refused as a new one would be.
      expected = status;
    } else if (!moved.circle && status == ARCNAV_OK) {
      sup_map one;
      sup_map_init(&one);
      sup_map_add_polygon(&one, moved.points, moved.count, NULL, NULL, 0);
      bool valid = sup_map_check(&one, NULL, 0);
      sup_map_free(&one);
      if (!valid) {
        fail("a move that makes a polygon invalid was accepted", "");
      }
    }
  }
  if (status != expected || error.status != status) {
    char detail[128];
    snprintf(detail, sizeof detail, "%s, expected %s", arcnav_status_name(status),
             arcnav_status_name(expected));
    fail("move", detail);
  }
  if (status == ARCNAV_OK) {
    l->shapes[index] = moved;
  }
}

typedef struct kept_planner {
  arcnav_planner *planner;
  arcnav_query *query;
  arcnav_planner_def def;
} kept_planner;

static const double RADII[] = {0.0, 0.5, 1.25, 2.0};

static bool near_equal(double a, double b) {
  return a == b || fabs(a - b) <= 1e-9 * (1.0 + fabs(a));
}

// The probes of an updated planner against a fresh one's: clearance and the nearest free point
// at `p`, the nearest place reachable from `q`, and a ray from `p` towards `q`. The map's
// tolerance is `eps`: beyond precision (within_precision()) whether a place is reachable, and so
// the nearest reachable place, depends, like a path, on which ways the tolerance leaves open, and
// is not compared (each planner's answer must still be its own search's).
static void compare_probes(arcnav_query *updated, arcnav_query *fresh, arcnav_vec2 p, arcnav_vec2 q,
                           double R, double eps) {
  char detail[200];
  snprintf(detail, sizeof detail, "R %g at (%g, %g) towards (%g, %g)", R, p.x, p.y, q.x, q.y);
  arcnav_clearance a, b;
  arcnav_status sa = arcnav_query_clearance(updated, p, &a);
  arcnav_status sb = arcnav_query_clearance(fresh, p, &b);
  if (sa != sb ||
      (sa == ARCNAV_OK && (a.found != b.found || !near_equal(a.distance, b.distance)))) {
    fail("clearance differs from a fresh planner's", detail);
  }
  arcnav_vec2 na, nb;
  double da = 0, db = 0;
  sa = arcnav_query_nearest_free(updated, p, &na, &da);
  sb = arcnav_query_nearest_free(fresh, p, &nb, &db);
  if (sa != sb || (sa == ARCNAV_OK && !near_equal(da, db))) {
    fail("the nearest free point differs from a fresh planner's", detail);
  }
  // The nearest point the disk can reach from q: the kept query object keeps the marks of its
  // earlier probes, which must not change the answer.
  sa = arcnav_query_nearest_reachable(updated, q, p, &na, &da);
  sb = arcnav_query_nearest_reachable(fresh, q, p, &nb, &db);
  if (!same_answer(sa, sb, eps) ||
      (sa == ARCNAV_OK && sb == ARCNAV_OK && within_precision(eps) && !near_equal(da, db))) {
    fail("the nearest reachable point differs from a fresh planner's", detail);
  }
  // Whether the disk can get from p to q, told by the updated planner's passages where they can,
  // against the fresh planner's, each by a search where they cannot.
  bool ra = false, rb = false;
  sa = arcnav_query_reachable(updated, p, q, &ra, NULL);
  sb = arcnav_query_reachable(fresh, p, q, &rb, NULL);
  if (!same_answer(sa, sb, eps) || (within_precision(eps) && ra != rb)) {
    fail("reachability differs from a fresh planner's", detail);
  }
  // And each against its own search, which the answer must equal (status and all): a whole one,
  // not a partial answer (the caller sets partial answers again for its own questions).
  arcnav_path *path = NULL;
  if (arcnav_query_set_partial(fresh, false) != ARCNAV_OK ||
      arcnav_query_set_partial(updated, false) != ARCNAV_OK ||
      arcnav_path_create(NULL, &path) != ARCNAV_OK) {
    fail("no memory for a path", detail);
  }
  arcnav_status searched = arcnav_find_path(fresh, p, q, path);
  arcnav_status searched_updated = arcnav_find_path(updated, p, q, path);
  arcnav_path_destroy(path);
  if (searched != sb || searched_updated != sa) {
    fail("reachability differs from the search's answer", detail);
  }
  arcnav_vec2 dir = {q.x - p.x, q.y - p.y};
  if (dir.x != 0 || dir.y != 0) {
    arcnav_ray_hit ha, hb;
    sa = arcnav_query_raycast(updated, p, dir, 40.0, &ha);
    sb = arcnav_query_raycast(fresh, p, dir, 40.0, &hb);
    if (sa != sb || ((sa == ARCNAV_OK || sa == ARCNAV_START_BLOCKED) &&
                     (ha.hit != hb.hit || !near_equal(ha.distance, hb.distance)))) {
      fail("the raycast differs from a fresh planner's", detail);
    }
  }
}

// A path question on kept planner `k` that ignores the alive units of every other shape index
// (from `parity`): refused exactly where the engine cannot ignore (engines other than the tangent
// engine on demand and the interval engine, and point agents), else answered as a planner built
// from scratch on the description without them. Asked only where leaving them out keeps the map's
// tolerance, which decides what touches.
static void compare_ignoring(living *l, const kept_planner *kept, size_t k, size_t parity,
                             arcnav_vec2 s, arcnav_vec2 g, double R) {
  bool left_out[MAX_SHAPES] = {false};
  arcnav_obstacle_id ids[MAX_SHAPES];
  size_t count = 0;
  for (size_t i = 0; i < l->count; i++) {
    if (l->shapes[i].alive && l->shapes[i].unit && (i + parity) % 2 == 0) {
      left_out[i] = true;
      ids[count++] = l->shapes[i].id;
    }
  }
  if (count == 0) {
    return;
  }
  sup_map plain = describe_without(l, left_out);
  double eps = sup_map_tolerance(&plain);
  if (eps != arcnav_map_tolerance(l->map)) {
    sup_map_free(&plain);
    return;
  }
  const arcnav_planner_def *def = &kept[k].def;
  bool can = R > 2.0 * eps && (def->max_radius > 0.0 || def->engine == ARCNAV_ENGINE_INTERVAL ||
                               (def->engine == ARCNAV_ENGINE_TANGENT &&
                                def->tangent_graph == ARCNAV_TANGENT_GRAPH_ON_DEMAND));
  arcnav_status set = arcnav_query_set_ignored(kept[k].query, ids, count);
  char detail[256];
  snprintf(detail, sizeof detail, "planner %zu R %g, %zu units ignored: %s", k, R, count,
           arcnav_status_name(set));
  if (set != (can ? ARCNAV_OK : ARCNAV_ERR_INVALID_ARGUMENT)) {
    fail("an ignore list was refused or taken otherwise than the engine can", detail);
  }
  if (can) {
    arcnav_map *fresh_map = NULL;
    arcnav_planner *fresh = NULL;
    arcnav_query *fresh_query = NULL;
    arcnav_path *got = NULL, *want = NULL;
    if (arcnav_path_create(NULL, &got) != ARCNAV_OK ||
        arcnav_path_create(NULL, &want) != ARCNAV_OK ||
        (fresh_map = fresh_map_without(l, left_out)) == NULL ||
        arcnav_planner_create(fresh_map, def, &fresh) != ARCNAV_OK ||
        arcnav_query_create(fresh, &fresh_query) != ARCNAV_OK ||
        arcnav_query_set_radius(fresh_query, R) != ARCNAV_OK) {
      fail("a planner on the description without the ignored units", "");
    }
    arcnav_status expected = arcnav_find_path(fresh_query, s, g, want);
    arcnav_status status = arcnav_find_path(kept[k].query, s, g, got);
    snprintf(detail, sizeof detail,
             "planner %zu R %g (%g, %g) -> (%g, %g), %zu units ignored: %s, "
             "afresh %s",
             k, R, s.x, s.y, g.x, g.y, count, arcnav_status_name(status),
             arcnav_status_name(expected));
    if (!same_answer(status, expected, eps)) {
      fail("a query ignoring units answers otherwise than a planner without them", detail);
    }
    if (status == ARCNAV_OK && within_precision(eps)) {
      double a = arcnav_path_length(want), b = arcnav_path_length(got);
      if (!(fabs(a - b) <= 1e-9 * (1.0 + a))) {
        fail("a query ignoring units finds another length than a planner without them", detail);
      }
      sup_verify_report report;
      if (!sup_verify_path(&plain, R, eps, s, g, got, &report)) {
        fail("a path ignoring units fails the verifier", report.message);
      }
    }
    arcnav_path_destroy(got);
    arcnav_path_destroy(want);
    arcnav_query_destroy(fresh_query);
    arcnav_planner_destroy(fresh);
    arcnav_map_destroy(fresh_map);
  }
  if (arcnav_query_set_ignored(kept[k].query, NULL, 0) != ARCNAV_OK) {
    fail("an empty ignore list was refused", "");
  }
  sup_map_free(&plain);
}

static void compare(an_fuzz_reader *r, living *l, kept_planner *kept, size_t kept_count,
                    arcnav_path *got, arcnav_path *want) {
  sup_map plain = describe(l);
  arcnav_map *fresh_map = fresh_map_without(l, NULL);
  if (!fresh_map) {
    fail("the description of the living map is refused", "");
  }
  double eps = sup_map_tolerance(&plain);
  for (size_t k = 0; k < kept_count; k++) {
    arcnav_status updated = arcnav_planner_update(kept[k].planner, l->map);
    if (updated != ARCNAV_OK) {
      fail("update", arcnav_status_name(updated));
    }
    arcnav_planner *fresh = NULL;
    arcnav_query *fresh_query = NULL;
    if (arcnav_planner_create(fresh_map, &kept[k].def, &fresh) != ARCNAV_OK ||
        arcnav_query_create(fresh, &fresh_query) != ARCNAV_OK) {
      fail("a planner on the description", "");
    }
    for (int q = 0; q < 2; q++) {
      arcnav_vec2 s = {an_fuzz_coord(r), an_fuzz_coord(r)};
      arcnav_vec2 g = {an_fuzz_coord(r), an_fuzz_coord(r)};
      double R = kept[k].def.max_radius > 0 ? RADII[an_fuzz_byte(r) % 4] : kept[k].def.radius;
      if (arcnav_query_set_radius(kept[k].query, R) != ARCNAV_OK ||
          arcnav_query_set_radius(fresh_query, R) != ARCNAV_OK) {
        fail("set_radius", "");
      }
      compare_probes(kept[k].query, fresh_query, s, g, R, eps);
      // Every other question asks for partial answers (goals blocked or cut off).
      bool partial = (k + (size_t)q) % 2 == 1;
      if (arcnav_query_set_partial(kept[k].query, partial) != ARCNAV_OK ||
          arcnav_query_set_partial(fresh_query, partial) != ARCNAV_OK) {
        fail("set_partial", "");
      }
      arcnav_status expected = arcnav_find_path(fresh_query, s, g, want);
      // The kept planner answers some questions as a sliced search, of 2 or 4 expansions a
      // resume, which must give the same.
      size_t slice = (k + (size_t)q) % 3 * 2;
      arcnav_status status = slice == 0 ? arcnav_find_path(kept[k].query, s, g, got)
                                        : arcnav_query_begin(kept[k].query, s, g);
      if (slice > 0 && status == ARCNAV_OK) {
        do {
          status = arcnav_query_resume(kept[k].query, slice, got);
        } while (status == ARCNAV_IN_PROGRESS);
      }
      char detail[256];
      snprintf(detail, sizeof detail, "planner %zu R %g (%g, %g) -> (%g, %g): %s, afresh %s", k, R,
               s.x, s.y, g.x, g.y, arcnav_status_name(status), arcnav_status_name(expected));
      if (!same_answer(status, expected, eps)) {
        fail("an updated planner answers otherwise than a fresh one", detail);
      }
      if (arcnav_query_set_partial(kept[k].query, false) != ARCNAV_OK) {
        fail("set_partial", "");
      }
      compare_ignoring(l, kept, k, (size_t)q, s, g, R);
      if ((status != ARCNAV_OK && status != ARCNAV_PARTIAL) || !within_precision(eps)) {
        continue;
      }
      // A partial answer's end is a reachable point nearest to the goal, at the same distance
      // from it whichever planner answers; with ties (a goal in a room, every wall as near) the
      // point, and the way to it, may differ.
      double a = arcnav_path_length(want), b = arcnav_path_length(got);
      if (status == ARCNAV_PARTIAL) {
        arcnav_vec2 ea = arcnav_path_end(want), eb = arcnav_path_end(got);
        a = hypot(ea.x - g.x, ea.y - g.y);
        b = hypot(eb.x - g.x, eb.y - g.y);
      }
      if (!(fabs(a - b) <= 1e-9 * (1.0 + a))) {
        fail(status == ARCNAV_PARTIAL
                 ? "an updated planner's partial answer ends farther or nearer than a fresh one's"
                 : "an updated planner's length differs from a fresh one's",
             detail);
      }
      sup_verify_report report;
      if (!sup_verify_path(&plain, R, eps, s, arcnav_path_end(got), got, &report)) {
        char both[sizeof detail + sizeof report.message + 4];
        snprintf(both, sizeof both, "%s: %s", detail, report.message);
        fail("an updated planner's path fails the verifier", both);
      }
    }
    arcnav_query_destroy(fresh_query);
    arcnav_planner_destroy(fresh);
  }
  arcnav_map_destroy(fresh_map);
  sup_map_free(&plain);
}

int an_fuzz_living(const uint8_t *data, size_t size) {
  an_fuzz_reader r = {data, size, 0, false};
  uint8_t header = an_fuzz_byte(&r);
  living l;
  memset(&l, 0, sizeof l);
  if (arcnav_map_create(NULL, &l.map) != ARCNAV_OK) {
    fail("map_create", "");
  }
  l.bounded = (header & 1) != 0;
  if (l.bounded) {
    arcnav_vec2 box[4] = {{-24, -24}, {24, -24}, {24, 24}, {-24, 24}};
    memcpy(l.bounds, box, sizeof box);
    if (arcnav_map_set_bounds(l.map, box, 4, NULL) != ARCNAV_OK) {
      fail("bounds", "");
    }
  }
  for (uint8_t i = 0; i < (header >> 1 & 3); i++) {
    add_shape(&r, &l);
  }
  // Planners made before any change: a ranged one (AUTO, radii up to 2), and one of the header's
  // choice of one radius. The header's top bit, read by no input kept before it was, puts the
  // interval engine in the tangent engine's place in both (its radius 0 is a point agent's, which
  // it leaves to what AUTO builds).
  bool intervals = (header >> 7 & 1) != 0;
  kept_planner kept[2];
  kept[0].def = arcnav_default_planner_def();
  kept[0].def.max_radius = 2.0;
  kept[0].def.engine = intervals ? ARCNAV_ENGINE_INTERVAL : ARCNAV_ENGINE_AUTO;
  kept[1].def = arcnav_default_planner_def();
  kept[1].def.engine = (header >> 3 & 1) ? ARCNAV_ENGINE_FUNNEL
                       : intervals       ? ARCNAV_ENGINE_INTERVAL
                                         : ARCNAV_ENGINE_TANGENT;
  kept[1].def.tangent_graph =
      (header >> 4 & 1) ? ARCNAV_TANGENT_GRAPH_ON_DEMAND : ARCNAV_TANGENT_GRAPH_PREBUILT;
  kept[1].def.radius = kept[1].def.engine == ARCNAV_ENGINE_FUNNEL ? 0.0 : RADII[header >> 5 & 3];
  for (size_t k = 0; k < 2; k++) {
    if (arcnav_planner_create(l.map, &kept[k].def, &kept[k].planner) != ARCNAV_OK ||
        arcnav_query_create(kept[k].planner, &kept[k].query) != ARCNAV_OK) {
      fail("planner", "");
    }
  }
  arcnav_path *got = NULL, *want = NULL;
  if (arcnav_path_create(NULL, &got) != ARCNAV_OK || arcnav_path_create(NULL, &want) != ARCNAV_OK) {
    fail("path_create", "");
  }
  for (int op = 0; op < MAX_OPERATIONS && r.pos < r.size; op++) {
    switch (an_fuzz_byte(&r) % 6) {
    case 0:
    case 1:
      add_shape(&r, &l);
      break;
    case 2:
      remove_shape(&r, &l);
      break;
    case 3:
      move_shape(&r, &l);
      break;
    default:
      compare(&r, &l, kept, 2, got, want);
      break;
    }
    if (arcnav_map_obstacle_count(l.map) != alive_count(&l)) {
      fail("the map's obstacle count differs from the description's", "");
    }
  }
  compare(&r, &l, kept, 2, got, want);
  arcnav_path_destroy(got);
  arcnav_path_destroy(want);
  for (size_t k = 0; k < 2; k++) {
    arcnav_query_destroy(kept[k].query);
    arcnav_planner_destroy(kept[k].planner);
  }
  arcnav_map_destroy(l.map);
  return 0;
}

#ifndef ARCNAV_FUZZ_REPLAY
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  return an_fuzz_living(data, size);
}
#endif
