// SPDX-License-Identifier: MIT
// A map that changes: obstacle ids, removal and moves, and planners brought up to date with
// arcnav_planner_update() while their query objects live on. The central property: after any
// sequence of adds, removes and moves, a planner updated step by step, queried through query
// objects made before the first change, answers every query as a planner built from scratch on
// the resulting map (same status, same length to rounding), and every path passes the
// independent verifier on a plain description of that map kept beside the library's. The probes
// (clearance, raycast, nearest free point, a path checked again) answer as the fresh planner's.
#include "arcnav_test.h"
#include "mapgen.h"
#include "planner/planner.h"
#include "reference.h"
#include "tangent/tangent_graph.h"
#include "tangent/tangent_lazy.h"
#include "tangent/tangent_state.h"
#include "verify.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef arcnav_vec2 vec;

static void rect_ring(vec lo, vec hi, vec out[4]) {
  out[0] = (vec){lo.x, lo.y};
  out[1] = (vec){hi.x, lo.y};
  out[2] = (vec){hi.x, hi.y};
  out[3] = (vec){lo.x, hi.y};
}

static arcnav_obstacle_id add_rect(arcnav_map *map, vec lo, vec hi) {
  vec ring[4];
  rect_ring(lo, hi, ring);
  ck_assert_int_eq(arcnav_map_add_polygon(map, ring, 4, NULL, NULL, 0, NULL), ARCNAV_OK);
  return arcnav_map_obstacle_id(map, arcnav_map_obstacle_count(map) - 1);
}

static arcnav_obstacle_id add_circle(arcnav_map *map, vec center, double radius) {
  ck_assert_int_eq(arcnav_map_add_circle(map, center, radius, NULL), ARCNAV_OK);
  return arcnav_map_obstacle_id(map, arcnav_map_obstacle_count(map) - 1);
}

static size_t index_of(const arcnav_map *map, arcnav_obstacle_id id) {
  size_t index = SIZE_MAX;
  ck_assert_int_eq(arcnav_map_obstacle_index(map, id, &index), ARCNAV_OK);
  return index;
}

START_TEST(ids_follow_their_obstacles) {
  arcnav_map *map = NULL;
  ck_assert_int_eq(arcnav_map_create(NULL, &map), ARCNAV_OK);
  ck_assert(arcnav_map_obstacle_id(map, 0) == 0);
  arcnav_obstacle_id ids[5] = {
      add_rect(map, (vec){0, 0}, (vec){2, 2}),   add_circle(map, (vec){10, 0}, 1),
      add_rect(map, (vec){20, 0}, (vec){22, 2}), add_circle(map, (vec){30, 0}, 0),
      add_rect(map, (vec){40, 0}, (vec){42, 2}),
  };
  for (size_t i = 0; i < 5; ++i) {
    ck_assert(ids[i] != 0);
    ck_assert_uint_eq(index_of(map, ids[i]), i);
    ck_assert(arcnav_map_obstacle_id(map, i) == ids[i]);
    for (size_t j = 0; j < i; ++j) {
      ck_assert(ids[i] != ids[j]);
    }
  }
  ck_assert(arcnav_map_obstacle_id(map, 5) == 0);

  // Removing the second moves the later ones down by one; its id is stale from then on.
  ck_assert_int_eq(arcnav_map_remove_obstacle(map, ids[1]), ARCNAV_OK);
  ck_assert_uint_eq(arcnav_map_obstacle_count(map), 4);
  size_t index = 99;
  ck_assert_int_eq(arcnav_map_obstacle_index(map, ids[1], &index), ARCNAV_ERR_STALE_ID);
  ck_assert_uint_eq(index, 99);
  ck_assert_int_eq(arcnav_map_remove_obstacle(map, ids[1]), ARCNAV_ERR_STALE_ID);
  arcnav_error error;
  ck_assert_int_eq(arcnav_map_move_obstacle(map, ids[1], (vec){1, 1}, &error), ARCNAV_ERR_STALE_ID);
  ck_assert_uint_eq(arcnav_map_obstacle_count(map), 4);
  ck_assert_int_eq(error.status, ARCNAV_ERR_STALE_ID);
  ck_assert_uint_eq(index_of(map, ids[0]), 0);
  ck_assert_uint_eq(index_of(map, ids[2]), 1);
  ck_assert_uint_eq(index_of(map, ids[3]), 2);
  ck_assert_uint_eq(index_of(map, ids[4]), 3);

  // A new obstacle may take the removed one's place, never its id.
  arcnav_obstacle_id again = add_circle(map, (vec){10, 0}, 1);
  ck_assert(again != ids[1] && again != 0);
  ck_assert_int_eq(arcnav_map_obstacle_index(map, ids[1], &index), ARCNAV_ERR_STALE_ID);
  ck_assert_uint_eq(index_of(map, again), 4);

  // Ids that were never given out.
  ck_assert_int_eq(arcnav_map_obstacle_index(map, 0, &index), ARCNAV_ERR_STALE_ID);
  ck_assert_int_eq(arcnav_map_obstacle_index(map, ids[4] + ((uint64_t)1 << 32), &index),
                   ARCNAV_ERR_STALE_ID);
  ck_assert_int_eq(arcnav_map_obstacle_index(map, (uint64_t)1 << 32 | 1000, &index),
                   ARCNAV_ERR_STALE_ID);
  ck_assert_int_eq(arcnav_map_obstacle_index(NULL, ids[0], &index), ARCNAV_ERR_INVALID_ARGUMENT);
  ck_assert_int_eq(arcnav_map_obstacle_index(map, ids[0], NULL), ARCNAV_ERR_INVALID_ARGUMENT);
  ck_assert_int_eq(arcnav_map_remove_obstacle(NULL, ids[0]), ARCNAV_ERR_INVALID_ARGUMENT);
  ck_assert_int_eq(arcnav_map_move_obstacle(NULL, ids[0], (vec){0, 0}, NULL),
                   ARCNAV_ERR_INVALID_ARGUMENT);
  ck_assert_str_eq(arcnav_status_name(ARCNAV_ERR_STALE_ID), "stale_id");

  // Everything removed: the map is empty and every id stale.
  ck_assert_int_eq(arcnav_map_remove_obstacle(map, ids[0]), ARCNAV_OK);
  ck_assert_int_eq(arcnav_map_remove_obstacle(map, again), ARCNAV_OK);
  // An id made up with the generation a freed slot has now (one more, docs/DESIGN.md) names
  // nothing, though slot and generation match: that slot's entry now leads to the slot freed
  // before it, and must not be read as the index of the obstacle there.
  arcnav_obstacle_id made_up = again + ((uint64_t)1 << 32);
  ck_assert_int_eq(arcnav_map_obstacle_index(map, made_up, &index), ARCNAV_ERR_STALE_ID);
  ck_assert_int_eq(arcnav_map_remove_obstacle(map, made_up), ARCNAV_ERR_STALE_ID);
  ck_assert_int_eq(arcnav_map_move_obstacle(map, made_up, (vec){1, 1}, NULL), ARCNAV_ERR_STALE_ID);
  ck_assert_uint_eq(arcnav_map_obstacle_count(map), 3);
  ck_assert_uint_eq(index_of(map, ids[2]), 0);
  ck_assert_int_eq(arcnav_map_remove_obstacle(map, ids[4]), ARCNAV_OK);
  ck_assert_int_eq(arcnav_map_remove_obstacle(map, ids[3]), ARCNAV_OK);
  ck_assert_int_eq(arcnav_map_remove_obstacle(map, ids[2]), ARCNAV_OK);
  ck_assert_uint_eq(arcnav_map_obstacle_count(map), 0);
  ck_assert(!arcnav_map_extent(map, NULL, NULL));
  arcnav_map_destroy(map);
}
END_TEST

// ---- answers compared ------------------------------------------------------------------------

typedef struct planner_kind {
  const char *name;
  arcnav_engine engine;
  arcnav_tangent_graph graph;
  double radius;
  double max_radius; ///< > 0: the query's radius goes round `radii`
} planner_kind;

static const planner_kind KINDS[] = {
    {"auto R=0", ARCNAV_ENGINE_AUTO, ARCNAV_TANGENT_GRAPH_AUTO, 0.0, 0.0},
    {"tangent R=0", ARCNAV_ENGINE_TANGENT, ARCNAV_TANGENT_GRAPH_PREBUILT, 0.0, 0.0},
    {"tangent R=1.25", ARCNAV_ENGINE_TANGENT, ARCNAV_TANGENT_GRAPH_PREBUILT, 1.25, 0.0},
    {"on demand R=1.25", ARCNAV_ENGINE_TANGENT, ARCNAV_TANGENT_GRAPH_ON_DEMAND, 1.25, 0.0},
    {"auto max 3", ARCNAV_ENGINE_AUTO, ARCNAV_TANGENT_GRAPH_AUTO, 0.5, 3.0},
};
#define KIND_COUNT (sizeof KINDS / sizeof KINDS[0])
static const double RANGED_RADII[] = {0.0, 0.5, 1.25, 3.0};

static arcnav_planner *build_planner(const arcnav_map *map, const planner_kind *kind) {
  arcnav_planner_def def = arcnav_default_planner_def();
  def.engine = kind->engine;
  def.tangent_graph = kind->graph;
  def.radius = kind->radius;
  def.max_radius = kind->max_radius;
  arcnav_planner *planner = NULL;
  ck_assert_int_eq(arcnav_planner_create(map, &def, &planner), ARCNAV_OK);
  return planner;
}

// A planner of each kind on `map`, and a query object for each, made before any change.
static void build_planners(const arcnav_map *map, const planner_kind *kinds, size_t count,
                           arcnav_planner **planners, arcnav_query **queries) {
  for (size_t k = 0; k < count; ++k) {
    planners[k] = build_planner(map, &kinds[k]);
    ck_assert_int_eq(arcnav_query_create(planners[k], &queries[k]), ARCNAV_OK);
  }
}

static void destroy_planners(size_t count, arcnav_planner **planners, arcnav_query **queries) {
  for (size_t k = 0; k < count; ++k) {
    arcnav_query_destroy(queries[k]);
    arcnav_planner_destroy(planners[k]);
  }
}

// Brings `planner` up to date with `map`; whether it did so locally.
static bool update_was_local(arcnav_planner *planner, const arcnav_map *map) {
  uint64_t before = arcnav_planner_local_updates(planner);
  ck_assert_int_eq(arcnav_planner_update(planner, map), ARCNAV_OK);
  return arcnav_planner_local_updates(planner) > before;
}

/// One obstacle of the changing map, as plain data beside the library's.
typedef struct shape {
  bool alive;
  bool circle;
  bool courtyard; ///< rectangles: with a square hole in the middle, a quarter of its size
  vec lo, hi;     ///< rectangles
  vec center;     ///< circles
  double radius;  ///< circles
  arcnav_obstacle_id id;
} shape;

enum { MAX_SHAPES = 64 };

typedef struct world {
  shape shapes[MAX_SHAPES];
  size_t count;
  bool bounded;
} world;

static const vec WORLD_BOUNDS[] = {{0, 0}, {100, 0}, {100, 80}, {0, 80}};

// A rectangle's ring and a hole in its middle, half its size each way (clockwise, as holes go).
static void courtyard_rings(vec lo, vec hi, vec outer[4], vec hole[4]) {
  rect_ring(lo, hi, outer);
  vec q = {0.25 * (hi.x - lo.x), 0.25 * (hi.y - lo.y)};
  hole[0] = (vec){lo.x + q.x, lo.y + q.y};
  hole[1] = (vec){lo.x + q.x, hi.y - q.y};
  hole[2] = (vec){hi.x - q.x, hi.y - q.y};
  hole[3] = (vec){hi.x - q.x, lo.y + q.y};
}

static sup_map describe(const world *w) {
  sup_map m;
  sup_map_init(&m);
  for (size_t i = 0; i < w->count; ++i) {
    const shape *s = &w->shapes[i];
    if (!s->alive) {
      continue;
    }
    if (s->circle) {
      sup_map_add_circle(&m, s->center, s->radius);
    } else if (s->courtyard) {
      vec outer[4], hole[4];
      courtyard_rings(s->lo, s->hi, outer, hole);
      const vec *holes[1] = {hole};
      size_t counts[1] = {4};
      sup_map_add_polygon(&m, outer, 4, holes, counts, 1);
    } else {
      sup_map_add_rect(&m, s->lo.x, s->lo.y, s->hi.x, s->hi.y);
    }
  }
  if (w->bounded) {
    sup_map_set_bounds(&m, WORLD_BOUNDS, 4);
  }
  return m;
}

static size_t pick_alive(const world *w, sup_rng *rng) {
  size_t alive = 0;
  for (size_t i = 0; i < w->count; ++i) {
    alive += w->shapes[i].alive;
  }
  if (alive == 0) {
    return SIZE_MAX;
  }
  size_t k = sup_rng_below(rng, alive);
  for (size_t i = 0; i < w->count; ++i) {
    if (w->shapes[i].alive && k-- == 0) {
      return i;
    }
  }
  return SIZE_MAX;
}

static void add_random_shape(world *w, arcnav_map *map, sup_rng *rng) {
  ck_assert_uint_lt(w->count, MAX_SHAPES);
  shape *s = &w->shapes[w->count++];
  s->alive = true;
  // Coordinates on a quarter grid, so moves by quarter steps are exact and rings stay valid.
  double x = 0.25 * (double)sup_rng_below(rng, 360), y = 0.25 * (double)sup_rng_below(rng, 280);
  s->circle = sup_rng_below(rng, 4) == 0;
  if (s->circle) {
    s->center = (vec){x + 2, y + 2};
    s->radius = 0.25 * (double)(2 + sup_rng_below(rng, 12));
    s->id = add_circle(map, s->center, s->radius);
  } else {
    s->lo = (vec){x, y};
    s->hi = (vec){x + 0.25 * (double)(4 + sup_rng_below(rng, 60)),
                  y + 0.25 * (double)(4 + sup_rng_below(rng, 30))};
    s->id = add_rect(map, s->lo, s->hi);
  }
}

// An empty world, with bounds or without (`bounded`), and the library's map of it.
static arcnav_map *empty_world(world *w, bool bounded) {
  memset(w, 0, sizeof *w);
  w->bounded = bounded;
  arcnav_map *map = NULL;
  ck_assert_int_eq(arcnav_map_create(NULL, &map), ARCNAV_OK);
  if (bounded) {
    ck_assert_int_eq(arcnav_map_set_bounds(map, WORLD_BOUNDS, 4, NULL), ARCNAV_OK);
  }
  return map;
}

static void change_at_random(world *w, arcnav_map *map, sup_rng *rng, char *what, size_t size) {
  size_t pick = pick_alive(w, rng);
  size_t choice = pick == SIZE_MAX ? 0 : sup_rng_below(rng, 5);
  if (choice <= 1 && w->count < MAX_SHAPES) {
    add_random_shape(w, map, rng);
    snprintf(what, size, "add #%zu", w->count - 1);
  } else if (choice <= 2) {
    shape *s = &w->shapes[pick];
    ck_assert_int_eq(arcnav_map_remove_obstacle(map, s->id), ARCNAV_OK);
    ck_assert_int_eq(arcnav_map_remove_obstacle(map, s->id), ARCNAV_ERR_STALE_ID);
    s->alive = false;
    snprintf(what, size, "remove #%zu", pick);
  } else {
    shape *s = &w->shapes[pick];
    vec by = {0.25 * ((double)sup_rng_below(rng, 81) - 40.0),
              0.25 * ((double)sup_rng_below(rng, 81) - 40.0)};
    arcnav_error error;
    ck_assert_int_eq(arcnav_map_move_obstacle(map, s->id, by, &error), ARCNAV_OK);
    s->lo = (vec){s->lo.x + by.x, s->lo.y + by.y};
    s->hi = (vec){s->hi.x + by.x, s->hi.y + by.y};
    s->center = (vec){s->center.x + by.x, s->center.y + by.y};
    snprintf(what, size, "move #%zu by (%g, %g)", pick, by.x, by.y);
  }
}

typedef struct tally {
  size_t compared, found, no_path, blocked;
} tally;

// `query` belongs to `planner`, brought up to date; `fresh` was built on the same map from
// scratch. Both answer the same queries at the same radius.
static bool near_equal(double a, double b) {
  return a == b || fabs(a - b) <= 1e-9 * (1.0 + fabs(a));
}

// The probes of an updated planner's query object against a fresh planner's, at a point `p` of
// any kind (free or not) and along a random direction from the free point `s`.
static void compare_probes(arcnav_query *query, arcnav_query *fresh_query, vec p, vec s,
                           sup_rng *rng, const char *label, double radius) {
  arcnav_clearance got_c, want_c;
  ck_assert_int_eq(arcnav_query_clearance(query, p, &got_c), ARCNAV_OK);
  ck_assert_int_eq(arcnav_query_clearance(fresh_query, p, &want_c), ARCNAV_OK);
  ck_assert_msg(got_c.found == want_c.found && near_equal(got_c.distance, want_c.distance),
                "%s R %g: clearance at (%.17g, %.17g): updated %.17g, afresh %.17g", label, radius,
                p.x, p.y, got_c.distance, want_c.distance);
  double angle = sup_rng_uniform(rng, 0.0, 2.0 * TEST_PI);
  vec dir = {cos(angle), sin(angle)};
  arcnav_ray_hit got_r, want_r;
  arcnav_status got_status = arcnav_query_raycast(query, s, dir, 60.0, &got_r);
  arcnav_status want_status = arcnav_query_raycast(fresh_query, s, dir, 60.0, &want_r);
  ck_assert_msg(got_status == want_status && got_r.hit == want_r.hit &&
                    near_equal(got_r.distance, want_r.distance),
                "%s R %g: raycast from (%.17g, %.17g) at %.17g: updated %s %d %.17g, afresh %s %d "
                "%.17g",
                label, radius, s.x, s.y, angle, arcnav_status_name(got_status), got_r.hit,
                got_r.distance, arcnav_status_name(want_status), want_r.hit, want_r.distance);
  vec got_n, want_n;
  double got_d = 0, want_d = 0;
  got_status = arcnav_query_nearest_free(query, p, &got_n, &got_d);
  want_status = arcnav_query_nearest_free(fresh_query, p, &want_n, &want_d);
  ck_assert_msg(got_status == want_status && near_equal(got_d, want_d),
                "%s R %g: nearest free to (%.17g, %.17g): updated %s %.17g, afresh %s %.17g", label,
                radius, p.x, p.y, arcnav_status_name(got_status), got_d,
                arcnav_status_name(want_status), want_d);
}

static void compare_planners(arcnav_query *query, const arcnav_planner *fresh, const sup_map *m,
                             double radius, sup_rng *rng, size_t queries, const char *label,
                             tally *t) {
  arcnav_query *fresh_query = NULL;
  arcnav_path *want = NULL, *got = NULL;
  ck_assert_int_eq(arcnav_query_create(fresh, &fresh_query), ARCNAV_OK);
  ck_assert_int_eq(arcnav_query_set_radius(fresh_query, radius), ARCNAV_OK);
  ck_assert_int_eq(arcnav_query_set_radius(query, radius), ARCNAV_OK);
  ck_assert_int_eq(arcnav_path_create(NULL, &want), ARCNAV_OK);
  ck_assert_int_eq(arcnav_path_create(NULL, &got), ARCNAV_OK);
  double eps = sup_map_tolerance(m);
  for (size_t q = 0; q < queries; ++q) {
    vec s, g;
    if (!sup_random_free_point(m, 0.0, rng, (vec){-5, -5}, (vec){105, 85}, 0.0, 500, &s) ||
        !sup_random_free_point(m, 0.0, rng, (vec){-5, -5}, (vec){105, 85}, 0.0, 500, &g)) {
      continue;
    }
    ck_assert_msg(arcnav_query_point_is_free(query, s) ==
                      arcnav_query_point_is_free(fresh_query, s),
                  "%s R %g: free test of (%.17g, %.17g) differs", label, radius, s.x, s.y);
    vec p = {sup_rng_uniform(rng, -5, 105), sup_rng_uniform(rng, -5, 85)};
    compare_probes(query, fresh_query, p, s, rng, label, radius);
    // Whether a search was needed shows the parts of the free space each planner keeps (a
    // courtyard's among them).
    bool got_reachable = false, want_reachable = false, got_searched = false, want_searched = false;
    arcnav_status got_reach = arcnav_query_reachable(query, s, g, &got_reachable, &got_searched);
    arcnav_status want_reach =
        arcnav_query_reachable(fresh_query, s, g, &want_reachable, &want_searched);
    ck_assert_msg(got_reach == want_reach && got_reachable == want_reachable &&
                      got_searched == want_searched,
                  "%s R %g: reachable (%.17g, %.17g) -> (%.17g, %.17g): updated %s searched %d, "
                  "afresh %s searched %d",
                  label, radius, s.x, s.y, g.x, g.y, arcnav_status_name(got_reach), got_searched,
                  arcnav_status_name(want_reach), want_searched);
    arcnav_status expected = arcnav_find_path(fresh_query, s, g, want);
    arcnav_status status = arcnav_find_path(query, s, g, got);
    ck_assert_msg(status == expected,
                  "%s R %g (%.17g, %.17g) -> (%.17g, %.17g): updated %s, built afresh %s", label,
                  radius, s.x, s.y, g.x, g.y, arcnav_status_name(status),
                  arcnav_status_name(expected));
    t->compared++;
    if (status != ARCNAV_OK) {
      t->no_path += status == ARCNAV_NO_PATH;
      t->blocked += status == ARCNAV_START_BLOCKED || status == ARCNAV_GOAL_BLOCKED;
      continue;
    }
    t->found++;
    double a = arcnav_path_length(want), b = arcnav_path_length(got);
    ck_assert_msg(fabs(a - b) <= 1e-9 * (1.0 + a),
                  "%s R %g (%.17g, %.17g) -> (%.17g, %.17g): updated %.17g, built afresh %.17g",
                  label, radius, s.x, s.y, g.x, g.y, b, a);
    sup_verify_report report;
    ck_assert_msg(sup_verify_path(m, radius, eps, s, g, got, &report),
                  "%s R %g: the updated planner's path fails the verifier: %s", label, radius,
                  report.message);
    // The fresh planner's path is free on the updated one, which checks it again.
    bool still_free = false;
    ck_assert_int_eq(arcnav_query_path_is_free(query, want, &still_free, NULL), ARCNAV_OK);
    ck_assert_msg(still_free, "%s R %g: a fresh planner's path is not free on the updated one",
                  label, radius);
  }
  arcnav_path_destroy(want);
  arcnav_path_destroy(got);
  arcnav_query_destroy(fresh_query);
}

// compare_planners at the kind's radius (`count` queries), or for a planner of several radii at
// each of RANGED_RADII (`per_radius` queries each), from the one the query object has.
static void compare_at_radii(arcnav_query *query, const arcnav_planner *fresh, const sup_map *m,
                             const planner_kind *kind, sup_rng *rng, size_t per_radius,
                             size_t count, const char *label, tally *t) {
  if (kind->max_radius > 0.0) {
    // A unit's query object keeps its radius across updates: the first queries after an update
    // run on what the renewal alone made of it (no change of radius forgets anything for it).
    enum { RADII = sizeof RANGED_RADII / sizeof RANGED_RADII[0] };
    size_t first = 0;
    while (first + 1 < RADII && RANGED_RADII[first] != arcnav_query_radius(query)) {
      ++first;
    }
    for (size_t r = 0; r < RADII; ++r) {
      compare_planners(query, fresh, m, RANGED_RADII[(first + r) % RADII], rng, per_radius, label,
                       t);
    }
  } else {
    compare_planners(query, fresh, m, kind->radius, rng, count, label, t);
  }
}

// A random world of `seed`: ten shapes, then twelve random changes, each planner kind brought up
// to date (some a change or two late) and compared with one built afresh.
static void updates_against_fresh_builds(uint64_t seed) {
  sup_rng rng = sup_rng_seed(seed * 1299709);
  world w;
  arcnav_map *map = empty_world(&w, seed % 2 == 0);
  for (int i = 0; i < 10; ++i) {
    add_random_shape(&w, map, &rng);
  }
  arcnav_planner *planners[KIND_COUNT];
  arcnav_query *queries[KIND_COUNT];
  build_planners(map, KINDS, KIND_COUNT, planners, queries);
  tally t = {0, 0, 0, 0};
  char what[96];
  for (int step = 0; step < 12; ++step) {
    change_at_random(&w, map, &rng, what, sizeof what);
    sup_map m = describe(&w);
    for (size_t k = 0; k < KIND_COUNT; ++k) {
      // Some steps leave a planner behind for a change or two: it catches up in one update.
      if (step % 3 == (int)k % 3 && step != 11) {
        continue;
      }
      ck_assert_int_eq(arcnav_planner_update(planners[k], map), ARCNAV_OK);
      arcnav_planner *fresh = build_planner(map, &KINDS[k]);
      char label[192];
      snprintf(label, sizeof label, "seed %llu step %d (%s), %s", (unsigned long long)seed, step,
               what, KINDS[k].name);
      compare_at_radii(queries[k], fresh, &m, &KINDS[k], &rng, 3, 6, label, &t);
      arcnav_planner_destroy(fresh);
    }
    sup_map_free(&m);
  }
  printf("living map seed %llu: %zu queries compared, %zu found, %zu no path, %zu blocked\n",
         (unsigned long long)seed, t.compared, t.found, t.no_path, t.blocked);
  ck_assert_uint_gt(t.found, t.compared / 4);
  destroy_planners(KIND_COUNT, planners, queries);
  arcnav_map_destroy(map);
}

START_TEST(updates_equal_fresh_builds) {
  updates_against_fresh_builds((uint64_t)_i + 1);
}
END_TEST

// Seeds beyond the default ones that once failed (found running seeds 7 to 2,000), kept so they
// run every time: 1109, a circle touched at its rim's angle 0 (the tangent engines slid along the
// rim through that pinch at R = 0); the others, triangles listing their edges in another order in
// the updated triangulation than in a fresh one (the sure passages' yes took the first portal an
// end sees, and the two planners took different ones).
static const uint64_t KEPT_SEEDS[] = {331, 618, 728, 1109, 1416};

START_TEST(updates_equal_fresh_builds_kept_seeds) {
  updates_against_fresh_builds(KEPT_SEEDS[_i]);
}
END_TEST

// A pair of free triangles to compare the forests on: each with a triangle spread from it.
static size_t spread_partner(size_t t, size_t count) {
  return (size_t)(((uint64_t)t * 2654435761u + 12345u) % count);
}

// The forests a planner for several radii keeps in blocks, some taken over from the planner before
// its local updates, against forests built afresh on the same mesh and widths: the widest chain
// between each free triangle's portals (the sure passages') or the triangle itself (the passages'
// of the triangulation) and a triangle spread from it.
static void check_forests_afresh(const an_tangent_engine *engine, const an_sure_passages *fresh,
                                 const char *label) {
  const an_sure_passages *sure = &engine->sure;
  const an_navmesh *mesh = engine->polygons;
  size_t n = mesh->free_count;
  an_navmesh *copy = NULL;
  ck_assert_int_eq(an_navmesh_clone(mesh, false, &copy), ARCNAV_OK);
  an_blocked_forest_destroy(&copy->passages, &copy->alloc);
  an_free(&copy->alloc, copy->portal_width);
  copy->portal_width = NULL;
  ck_assert_int_eq(an_navmesh_build_passages(copy, NULL), ARCNAV_OK);
  size_t compared = 0;
  for (size_t t = 0; t < n; ++t) {
    size_t u = spread_partner(t, n);
    double got = an_navmesh_passage_width(mesh, (int32_t)t, (int32_t)u),
           want = an_navmesh_passage_width(copy, (int32_t)t, (int32_t)u);
    if (got != want) {
      ck_abort_msg("%s: triangles %zu and %zu joined %g wide, afresh %g", label, t, u, want, got);
    }
    for (int i = 0; i < 3; ++i) {
      got = an_sure_passages_width(sure, (int32_t)t, i, (int32_t)u, (int)(t % 3));
      want = an_sure_passages_width(fresh, (int32_t)t, i, (int32_t)u, (int)(t % 3));
      if (!(got == want || (isnan(got) && isnan(want)))) {
        ck_abort_msg("%s: portals %d of %zu and %d of %zu joined %g wide, afresh %g", label, i, t,
                     (int)(t % 3), u, got, want);
      }
      compared += !isnan(want) && want > 0.0;
    }
  }
  ck_assert_uint_gt(compared, n / 4);
  an_navmesh_destroy(copy);
}

// The widths a planner for several radii keeps for its next local update against those measured
// afresh on the same mesh and grid, bit for bit (NaN where there is nothing to measure): the sure
// passages' links (its disk engine's) and the portals of the triangulation (its point funnel's,
// rounded up to a float); then the forests over them.
static void check_widths_measured(const arcnav_planner *planner, const char *label) {
  const an_tangent_engine *engine = planner->engine.state;
  const an_sure_passages *sure = &engine->sure;
  ck_assert_ptr_nonnull(sure->link_width);
  an_allocator alloc = an_allocator_from(NULL);
  an_sure_passages measured;
  ck_assert_int_eq(an_sure_passages_build(sure->mesh, &engine->space.grid, engine->radius, NULL,
                                          &alloc, &measured),
                   ARCNAV_OK);
  for (size_t k = 0; k < 3 * sure->mesh->free_count; ++k) {
    float got = sure->link_width[k], want = measured.link_width[k];
    ck_assert_msg((isnan(got) && isnan(want)) || got == want,
                  "%s: link %zu of triangle %zu is %.9g wide, measured afresh %.9g", label, k % 3,
                  k / 3, (double)got, (double)want);
  }
  check_forests_afresh(engine, &measured, label);
  an_sure_passages_destroy(&measured, &alloc);
  const an_navmesh *mesh = engine->polygons;
  ck_assert_ptr_nonnull(mesh->portal_width);
  for (size_t k = 0; k < 3 * mesh->free_count; ++k) {
    float got = mesh->portal_width[k], want = NAN;
    if (mesh->fn[k] >= 0) {
      double width = an_navmesh_portal_width(mesh, (int32_t)(k / 3), (int)(k % 3));
      want = (float)width;
      want = (double)want < width ? nextafterf(want, INFINITY) : want;
    }
    ck_assert_msg((isnan(got) && isnan(want)) || got == want,
                  "%s: portal %zu of triangle %zu is %.9g wide, measured afresh %.9g", label, k % 3,
                  k / 3, (double)got, (double)want);
  }
}

// Planners for point agents on the funnel engines, and planners for several radii whose point
// agents get the optimal funnel, change locally where a building goes up clear of everything, or
// one clear of everything comes down or moves clear again, whether a change or the build put it
// in (arcnav_planner_update()); every other change builds them again. Either way every answer must
// be a fresh planner's: the updates are checked as in updates_equal_fresh_builds, and both kinds
// of update must have happened, and moves of shapes the build put in locally too.
START_TEST(local_updates_equal_fresh_builds) {
  static const planner_kind kinds[] = {
      {"funnel R=0", ARCNAV_ENGINE_AUTO, ARCNAV_TANGENT_GRAPH_AUTO, 0.0, 0.0},
      {"plain funnel R=0", ARCNAV_ENGINE_PLAIN_FUNNEL, ARCNAV_TANGENT_GRAPH_AUTO, 0.0, 0.0},
      {"auto max 3", ARCNAV_ENGINE_AUTO, ARCNAV_TANGENT_GRAPH_AUTO, 0.5, 3.0},
      {"interval max 3", ARCNAV_ENGINE_INTERVAL, ARCNAV_TANGENT_GRAPH_AUTO, 0.5, 3.0},
      {"on demand R=1.25", ARCNAV_ENGINE_TANGENT, ARCNAV_TANGENT_GRAPH_ON_DEMAND, 1.25, 0.0},
  };
  enum { LOCAL_KINDS = sizeof kinds / sizeof kinds[0] };
  uint64_t local = 0, updates = 0, moves = 0, local_moves = 0, built_local_moves = 0;
  uint64_t ranged_local = 0, ranged_updates = 0;
  for (uint64_t seed = 1; seed <= test_scaled_count(4); ++seed) {
    sup_rng rng = sup_rng_seed(seed * 7727);
    world w;
    // Without bounds, a building changes a planner locally only inside the extent of the rest.
    arcnav_map *map = empty_world(&w, seed % 2 == 1);
    for (int i = 0; i < 6; ++i) {
      add_random_shape(&w, map, &rng);
      w.shapes[w.count - 1].alive = !w.shapes[w.count - 1].circle;
      if (w.shapes[w.count - 1].circle) {
        ck_assert_int_eq(arcnav_map_remove_obstacle(map, w.shapes[w.count - 1].id), ARCNAV_OK);
      }
    }
    arcnav_planner *planners[LOCAL_KINDS];
    arcnav_query *queries[LOCAL_KINDS];
    build_planners(map, kinds, LOCAL_KINDS, planners, queries);
    tally t = {0, 0, 0, 0};
    for (int step = 0; step < 14 && w.count < MAX_SHAPES; ++step) {
      char what[96];
      size_t pick = pick_alive(&w, &rng);
      // Down again or moved: a building of the last steps where there is one (a local change
      // when it went up clear), else any; but every other move one of the map's first shapes,
      // which the planners' builds put in (a local change too when it stands clear).
      if (pick != SIZE_MAX && step % 10 != 9) {
        for (size_t i = w.count; i-- > 0 && w.count - i <= 3;) {
          if (w.shapes[i].alive) {
            pick = i;
            break;
          }
        }
      } else if (pick != SIZE_MAX) {
        for (size_t i = 0; i < 6; ++i) {
          if (w.shapes[i].alive) {
            pick = i;
            break;
          }
        }
      }
      bool moving = false, built = pick < 6;
      if (step % 3 == 2 && pick != SIZE_MAX) {
        ck_assert_int_eq(arcnav_map_remove_obstacle(map, w.shapes[pick].id), ARCNAV_OK);
        w.shapes[pick].alive = false;
        snprintf(what, sizeof what, "remove #%zu", pick);
      } else if (step % 5 == 4 && pick != SIZE_MAX) {
        shape *s = &w.shapes[pick];
        vec by = {1.0, -0.5};
        ck_assert_int_eq(arcnav_map_move_obstacle(map, s->id, by, NULL), ARCNAV_OK);
        s->lo = (vec){s->lo.x + by.x, s->lo.y + by.y};
        s->hi = (vec){s->hi.x + by.x, s->hi.y + by.y};
        snprintf(what, sizeof what, "move #%zu", pick);
        moving = true;
      } else {
        // A building, with a courtyard every other time, often clear of everything.
        shape *s = &w.shapes[w.count++];
        memset(s, 0, sizeof *s);
        s->alive = true;
        s->courtyard = step % 2 == 0;
        double x = 0.25 * (double)sup_rng_below(&rng, 340),
               y = 0.25 * (double)sup_rng_below(&rng, 260);
        s->lo = (vec){x + 1, y + 1};
        s->hi = (vec){x + 1 + 0.25 * (double)(12 + sup_rng_below(&rng, 24)),
                      y + 1 + 0.25 * (double)(12 + sup_rng_below(&rng, 24))};
        vec outer[4], hole[4];
        courtyard_rings(s->lo, s->hi, outer, hole);
        const arcnav_vec2 *holes[1] = {hole};
        size_t counts[1] = {4};
        ck_assert_int_eq(arcnav_map_add_polygon(map, outer, 4, s->courtyard ? holes : NULL,
                                                s->courtyard ? counts : NULL, s->courtyard ? 1 : 0,
                                                NULL),
                         ARCNAV_OK);
        s->id = arcnav_map_obstacle_id(map, arcnav_map_obstacle_count(map) - 1);
        snprintf(what, sizeof what, "add #%zu%s", w.count - 1, s->courtyard ? " (courtyard)" : "");
      }
      sup_map m = describe(&w);
      for (size_t k = 0; k < LOCAL_KINDS; ++k) {
        bool followed = update_was_local(planners[k], map);
        ++updates;
        moves += moving;
        local_moves += moving && followed;
        built_local_moves += moving && built && followed;
        arcnav_planner *fresh = build_planner(map, &kinds[k]);
        char label[192];
        snprintf(label, sizeof label, "seed %llu step %d (%s), %s", (unsigned long long)seed, step,
                 what, kinds[k].name);
        ranged_updates += kinds[k].max_radius > 0.0;
        ranged_local += kinds[k].max_radius > 0.0 && followed;
        if (kinds[k].radius > 0.0) {
          check_widths_measured(planners[k], label);
        }
        compare_at_radii(queries[k], fresh, &m, &kinds[k], &rng, 3, 8, label, &t);
        arcnav_planner_destroy(fresh);
      }
      sup_map_free(&m);
    }
    for (size_t k = 0; k < LOCAL_KINDS; ++k) {
      local += arcnav_planner_local_updates(planners[k]);
    }
    destroy_planners(LOCAL_KINDS, planners, queries);
    arcnav_map_destroy(map);
  }
  printf("local updates: %llu of %llu (several radii: %llu of %llu), moves %llu of %llu (of "
         "shapes the build put in: %llu)\n",
         (unsigned long long)local, (unsigned long long)updates, (unsigned long long)ranged_local,
         (unsigned long long)ranged_updates, (unsigned long long)local_moves,
         (unsigned long long)moves, (unsigned long long)built_local_moves);
  // Both ways were taken, local updates often (by the planners for several radii too), and
  // moves locally, of shapes the build put in too.
  ck_assert_uint_ge(local, updates / 5);
  ck_assert_uint_ge(ranged_local, ranged_updates / 5);
  ck_assert_uint_lt(ranged_local, ranged_updates);
  ck_assert_uint_lt(local, updates);
  ck_assert_uint_gt(local_moves, 0);
  ck_assert_uint_gt(built_local_moves, 0);
}
END_TEST

// A wall that closes a corridor, then moves out of the way, then goes: a query object made
// before any of it answers each time as the map now is.
START_TEST(a_moved_wall_opens_the_way) {
  arcnav_map *map = NULL;
  ck_assert_int_eq(arcnav_map_create(NULL, &map), ARCNAV_OK);
  static const vec bounds[] = {{0, 0}, {40, 0}, {40, 10}, {0, 10}};
  ck_assert_int_eq(arcnav_map_set_bounds(map, bounds, 4, NULL), ARCNAV_OK);
  arcnav_obstacle_id wall = add_rect(map, (vec){19, -1}, (vec){21, 11});
  arcnav_planner_def def = arcnav_default_planner_def();
  def.radius = 1.0;
  arcnav_planner *planner = NULL;
  arcnav_query *query = NULL;
  arcnav_path *path = NULL;
  ck_assert_int_eq(arcnav_planner_create(map, &def, &planner), ARCNAV_OK);
  ck_assert_int_eq(arcnav_query_create(planner, &query), ARCNAV_OK);
  ck_assert_int_eq(arcnav_path_create(NULL, &path), ARCNAV_OK);
  vec a = {5, 5}, b = {35, 5};
  ck_assert_int_eq(arcnav_find_path(query, a, b, path), ARCNAV_NO_PATH);

  // Moved up by 4, the wall leaves a gap of 4 at the bottom: a disk of radius 1 passes.
  arcnav_error error;
  ck_assert_int_eq(arcnav_map_move_obstacle(map, wall, (vec){0, 4}, &error), ARCNAV_OK);
  ck_assert_int_eq(arcnav_find_path(query, a, b, path), ARCNAV_NO_PATH); // not updated yet
  ck_assert_int_eq(arcnav_planner_update(planner, map), ARCNAV_OK);
  ck_assert_int_eq(arcnav_find_path(query, a, b, path), ARCNAV_OK);
  ck_assert(arcnav_path_length(path) > 30.0 + 1e-6);
  sup_map m;
  sup_map_init(&m);
  sup_map_add_rect(&m, 19, 3, 21, 15);
  sup_map_set_bounds(&m, bounds, 4);
  sup_verify_report report;
  ck_assert_msg(sup_verify_path(&m, 1.0, sup_map_tolerance(&m), a, b, path, &report), "%s",
                report.message);
  sup_map_free(&m);

  // Moves that would leave the range or are not numbers change nothing.
  ck_assert_int_eq(arcnav_map_move_obstacle(map, wall, (vec){NAN, 0}, &error),
                   ARCNAV_ERR_NOT_FINITE);
  ck_assert_int_eq(error.status, ARCNAV_ERR_NOT_FINITE);
  ck_assert_int_eq(error.obstacle, 0);
  ck_assert_int_eq(arcnav_map_move_obstacle(map, wall, (vec){0, 2e100}, &error),
                   ARCNAV_ERR_TOO_LARGE);
  ck_assert_int_eq(arcnav_planner_update(planner, map), ARCNAV_OK);
  double before = arcnav_path_length(path);
  ck_assert_int_eq(arcnav_find_path(query, a, b, path), ARCNAV_OK);
  ck_assert(arcnav_path_length(path) == before);

  // Removed, the way is straight.
  ck_assert_int_eq(arcnav_map_remove_obstacle(map, wall), ARCNAV_OK);
  ck_assert_int_eq(arcnav_planner_update(planner, map), ARCNAV_OK);
  ck_assert_int_eq(arcnav_find_path(query, a, b, path), ARCNAV_OK);
  ck_assert_double_eq_tol(arcnav_path_length(path), 30.0, 1e-12);
  ck_assert_int_eq(arcnav_planner_update(NULL, map), ARCNAV_ERR_INVALID_ARGUMENT);
  ck_assert_int_eq(arcnav_planner_update(planner, NULL), ARCNAV_ERR_INVALID_ARGUMENT);
  arcnav_path_destroy(path);
  arcnav_query_destroy(query);
  arcnav_planner_destroy(planner);
  arcnav_map_destroy(map);
}
END_TEST

// ---- no path without a search ------------------------------------------------------------

// Rooms a unit cannot enter (rings), some with a door, and crates: ends in different parts of the
// free mesh get no_path at once, with no node expanded, and the brute-force reference agrees that
// no path joins them.
START_TEST(no_path_between_parts_needs_no_search) {
  sup_map m;
  sup_map_init(&m);
  static const vec bounds[] = {{0, 0}, {120, 0}, {120, 90}, {0, 90}};
  sup_map_set_bounds(&m, bounds, 4);
  for (int room = 0; room < 4; ++room) {
    double x = 10 + 27 * room, y = 20 + 10 * (room % 2);
    vec outer[4] = {{x, y}, {x + 22, y}, {x + 22, y + 22}, {x, y + 22}};
    if (room % 2 == 0) {
      vec hole[4] = {{x + 2, y + 2}, {x + 2, y + 20}, {x + 20, y + 20}, {x + 20, y + 2}};
      const vec *holes[1] = {hole};
      size_t counts[1] = {4};
      sup_map_add_polygon(&m, outer, 4, holes, counts, 1);
    } else {
      // A door 6 wide in the bottom wall: the room is a C of two L-shaped walls.
      vec left[6] = {{x, y},         {x + 8, y},      {x + 8, y + 2},
                     {x + 2, y + 2}, {x + 2, y + 22}, {x, y + 22}};
      vec right[8] = {{x + 14, y},     {x + 22, y},      {x + 22, y + 22}, {x + 2, y + 22},
                      {x + 2, y + 20}, {x + 20, y + 20}, {x + 20, y + 2},  {x + 14, y + 2}};
      sup_map_add_polygon(&m, left, 6, NULL, NULL, 0);
      sup_map_add_polygon(&m, right, 8, NULL, NULL, 0);
    }
  }
  sup_map_add_rect(&m, 40, 70, 50, 80);
  arcnav_map *map = NULL;
  ck_assert_int_eq(sup_map_to_arcnav(&m, &map), ARCNAV_OK);
  static const planner_kind kinds[] = {
      {"auto R=0", ARCNAV_ENGINE_AUTO, ARCNAV_TANGENT_GRAPH_AUTO, 0.0, 0.0},
      {"auto max 2 at R=1", ARCNAV_ENGINE_AUTO, ARCNAV_TANGENT_GRAPH_AUTO, 1.0, 2.0},
  };
  arcnav_path *path = NULL;
  ck_assert_int_eq(arcnav_path_create(NULL, &path), ARCNAV_OK);
  sup_rng rng = sup_rng_seed(77);
  for (size_t k = 0; k < 2; ++k) {
    arcnav_planner *planner = build_planner(map, &kinds[k]);
    arcnav_query *query = NULL;
    ck_assert_int_eq(arcnav_query_create(planner, &query), ARCNAV_OK);
    double R = kinds[k].radius;
    size_t at_once = 0, found = 0;
    for (int q = 0; q < 60; ++q) {
      vec s, g;
      // Every other start inside the first room, which is sealed.
      vec lo = q % 2 == 0 ? (vec){12, 22} : (vec){0, 0};
      vec hi = q % 2 == 0 ? (vec){30, 40} : (vec){120, 90};
      ck_assert(sup_random_free_point(&m, R, &rng, lo, hi, 0.0, 1000, &s));
      ck_assert(sup_random_free_point(&m, R, &rng, (vec){0, 0}, (vec){120, 90}, 0.0, 1000, &g));
      arcnav_status status = arcnav_find_path(query, s, g, path);
      found += status == ARCNAV_OK;
      if (status != ARCNAV_NO_PATH || arcnav_query_get_stats(query).nodes_expanded > 0) {
        continue;
      }
      at_once++;
      sup_reference_result ref = sup_reference_shortest(&m, R, s, g, NULL);
      ck_assert_msg(!ref.found,
                    "%s: (%.17g, %.17g) -> (%.17g, %.17g) answered no_path at once, but the "
                    "reference joins them (length %.17g)",
                    kinds[k].name, s.x, s.y, g.x, g.y, ref.length);
    }
    printf("%s: %zu of 60 queries no_path without a search, %zu found\n", kinds[k].name, at_once,
           found);
    // Half the starts are sealed in: many pairs are apart.
    ck_assert_uint_ge(at_once, 10);
    ck_assert_uint_ge(found, 10);
    arcnav_query_destroy(query);
    arcnav_planner_destroy(planner);
  }
  arcnav_path_destroy(path);
  arcnav_map_destroy(map);
  sup_map_free(&m);
}
END_TEST

// ---- partial answers -----------------------------------------------------------------------

// arcnav_find_path() on `query`, checked against the same question as a sliced search of one
// expansion a resume on the same query object: same status, same path, bit for bit.
static arcnav_status find_both_ways(arcnav_query *query, vec start, vec goal, arcnav_path *path) {
  arcnav_path *sliced = NULL;
  ck_assert_int_eq(arcnav_path_create(NULL, &sliced), ARCNAV_OK);
  ck_assert_int_eq(arcnav_query_begin(query, start, goal), ARCNAV_OK);
  arcnav_status status;
  do {
    status = arcnav_query_resume(query, 1, sliced);
  } while (status == ARCNAV_IN_PROGRESS);
  arcnav_status whole = arcnav_find_path(query, start, goal, path);
  ck_assert_int_eq(status, whole);
  ck_assert_uint_eq(arcnav_path_piece_count(sliced), arcnav_path_piece_count(path));
  ck_assert(arcnav_path_length(sliced) == arcnav_path_length(path));
  vec a = arcnav_path_end(sliced), b = arcnav_path_end(path);
  ck_assert(a.x == b.x && a.y == b.y);
  arcnav_path_destroy(sliced);
  return whole;
}

// A goal clicked inside a building: with partial answers on, the path leads to the nearest place
// the unit fits (worked out by hand below), which it reaches. A goal whose nearest place is
// inside a sealed room, and a free goal in the room, lead to the reachable point nearest to them,
// outside the room.
START_TEST(partial_path_to_the_nearest_place_that_fits) {
  sup_map m;
  sup_map_init(&m);
  static const vec bounds[] = {{0, 0}, {100, 0}, {100, 60}, {0, 60}};
  sup_map_set_bounds(&m, bounds, 4);
  sup_map_add_rect(&m, 40, 20, 60, 40);
  vec outer[4] = {{70, 10}, {90, 10}, {90, 30}, {70, 30}};
  vec hole[4] = {{74, 14}, {74, 26}, {86, 26}, {86, 14}};
  const vec *holes[1] = {hole};
  size_t hole_counts[1] = {4};
  sup_map_add_polygon(&m, outer, 4, holes, hole_counts, 1);
  arcnav_map *map = NULL;
  ck_assert_int_eq(sup_map_to_arcnav(&m, &map), ARCNAV_OK);
  double eps = arcnav_map_tolerance(map);
  arcnav_planner_def def = arcnav_default_planner_def();
  def.max_radius = 2.0;
  arcnav_planner *planner = NULL;
  arcnav_query *query = NULL, *plain = NULL;
  arcnav_path *path = NULL, *direct = NULL;
  ck_assert_int_eq(arcnav_planner_create(map, &def, &planner), ARCNAV_OK);
  ck_assert_int_eq(arcnav_query_create(planner, &query), ARCNAV_OK);
  ck_assert_int_eq(arcnav_query_create(planner, &plain), ARCNAV_OK);
  ck_assert_int_eq(arcnav_path_create(NULL, &path), ARCNAV_OK);
  ck_assert_int_eq(arcnav_path_create(NULL, &direct), ARCNAV_OK);
  vec start = {10, 10}, in_building = {50, 24};
  for (int k = 0; k < 2; ++k) {
    double R = k == 0 ? 1.0 : 0.0;
    ck_assert_int_eq(arcnav_query_set_radius(query, R), ARCNAV_OK);
    ck_assert_int_eq(arcnav_query_set_radius(plain, R), ARCNAV_OK);
    ck_assert_int_eq(arcnav_query_set_partial(query, false), ARCNAV_OK);
    ck_assert_int_eq(find_both_ways(query, start, in_building, path), ARCNAV_GOAL_BLOCKED);
    ck_assert_int_eq(arcnav_query_set_partial(query, true), ARCNAV_OK);
    ck_assert_int_eq(find_both_ways(query, start, in_building, path), ARCNAV_PARTIAL);
    // The building's nearest side is its bottom, 4 below the goal; the disk stands R below it.
    vec fits = {50, 20 - R};
    ck_assert_vec2_near(arcnav_path_end(path), fits, 1e-6);
    sup_verify_report report;
    ck_assert_msg(sup_verify_path(&m, R, eps, start, arcnav_path_end(path), path, &report),
                  "R %g: %s", R, report.message);
    ck_assert_int_eq(arcnav_find_path(plain, start, arcnav_path_end(path), direct), ARCNAV_OK);
    ck_assert_double_eq_tol(arcnav_path_length(path), arcnav_path_length(direct), 1e-9);
  }
  ck_assert_int_eq(arcnav_query_set_radius(query, 1.0), ARCNAV_OK);
  ck_assert_int_eq(arcnav_query_set_radius(plain, 1.0), ARCNAV_OK);
  // In the room's top wall, 1.5 above the room and 2.5 below the outside: the nearest place a
  // disk of R = 1 fits is inside the room, which cannot be reached; the nearest it can reach is
  // above the wall, at y = 31.
  ck_assert_int_eq(arcnav_find_path(plain, start, (vec){80, 27.5}, path), ARCNAV_GOAL_BLOCKED);
  ck_assert_int_eq(find_both_ways(query, start, (vec){80, 27.5}, path), ARCNAV_PARTIAL);
  ck_assert_vec2_near(arcnav_path_end(path), ((vec){80, 31}), 1e-6);
  // A free goal in the room: every side of the building is 10 away, so the disk stands 11 away.
  ck_assert_int_eq(arcnav_find_path(plain, start, (vec){80, 20}, path), ARCNAV_NO_PATH);
  ck_assert_int_eq(find_both_ways(query, start, (vec){80, 20}, path), ARCNAV_PARTIAL);
  vec end = arcnav_path_end(path);
  ck_assert_double_eq_tol(hypot(end.x - 80, end.y - 20), 11, 1e-6);
  sup_verify_report report;
  ck_assert_msg(sup_verify_path(&m, 1.0, eps, start, end, path, &report), "%s", report.message);
  ck_assert_int_eq(arcnav_query_set_partial(NULL, true), ARCNAV_ERR_INVALID_ARGUMENT);
  ck_assert_str_eq(arcnav_status_name(ARCNAV_PARTIAL), "partial");
  ck_assert(arcnav_status_is_answer(ARCNAV_PARTIAL));
  arcnav_path_destroy(path);
  arcnav_path_destroy(direct);
  arcnav_query_destroy(query);
  arcnav_query_destroy(plain);
  arcnav_planner_destroy(planner);
  arcnav_map_destroy(map);
  sup_map_free(&m);
}
END_TEST

// ---- failures ----------------------------------------------------------------------------

typedef struct sweep_answer {
  arcnav_status status;
  double length;
} sweep_answer;

static const vec SWEEP_QUERIES[][2] = {
    {{2, 2}, {58, 38}}, {{2, 38}, {58, 2}}, {{30, 2}, {30, 38}}, {{10, 20}, {50, 20}}};
#define SWEEP_QUERY_COUNT (sizeof SWEEP_QUERIES / sizeof SWEEP_QUERIES[0])

static void answer_all(arcnav_query *query, arcnav_path *path, sweep_answer *out) {
  for (size_t q = 0; q < SWEEP_QUERY_COUNT; ++q) {
    out[q].status = arcnav_find_path(query, SWEEP_QUERIES[q][0], SWEEP_QUERIES[q][1], path);
    out[q].length = arcnav_path_length(path);
  }
}

static bool same_answers(const sweep_answer *a, const sweep_answer *b) {
  for (size_t q = 0; q < SWEEP_QUERY_COUNT; ++q) {
    if (a[q].status != b[q].status || a[q].length != b[q].length) {
      return false;
    }
  }
  return true;
}

static arcnav_map *sweep_map(const arcnav_allocator *hooks) {
  arcnav_map *map = NULL;
  ck_assert_int_eq(arcnav_map_create(hooks, &map), ARCNAV_OK);
  static const vec bounds[] = {{0, 0}, {60, 0}, {60, 40}, {0, 40}};
  ck_assert_int_eq(arcnav_map_set_bounds(map, bounds, 4, NULL), ARCNAV_OK);
  add_rect(map, (vec){10, 5}, (vec){14, 30});
  add_circle(map, (vec){30, 20}, 4);
  add_rect(map, (vec){44, 10}, (vec){48, 35});
  return map;
}

// Each change in turn meets a failing allocation at each of its requests: it must say
// out_of_memory and leave map and planner as they were (the planner answering for the map as
// it was), and done again without the failure, it must give what a run that never failed gives.
START_TEST(failed_changes_change_nothing) {
  const planner_kind *kind = &KINDS[_i];
  static const vec house[] = {{24, 28}, {36, 28}, {36, 34}, {30, 37}, {24, 34}};
  sweep_answer expected_before[SWEEP_QUERY_COUNT], expected_after[SWEEP_QUERY_COUNT];
  {
    arcnav_map *map = sweep_map(NULL);
    arcnav_planner *planner = build_planner(map, kind);
    arcnav_query *query = NULL;
    arcnav_path *path = NULL;
    ck_assert_int_eq(arcnav_query_create(planner, &query), ARCNAV_OK);
    ck_assert_int_eq(arcnav_path_create(NULL, &path), ARCNAV_OK);
    answer_all(query, path, expected_before);
    arcnav_query_destroy(query);
    arcnav_planner_destroy(planner);
    ck_assert_int_eq(arcnav_map_add_polygon(map, house, 5, NULL, NULL, 0, NULL), ARCNAV_OK);
    ck_assert_int_eq(
        arcnav_map_move_obstacle(map, arcnav_map_obstacle_id(map, 3), (vec){-2, -1}, NULL),
        ARCNAV_OK);
    ck_assert_int_eq(arcnav_map_remove_obstacle(map, arcnav_map_obstacle_id(map, 1)), ARCNAV_OK);
    planner = build_planner(map, kind);
    ck_assert_int_eq(arcnav_query_create(planner, &query), ARCNAV_OK);
    answer_all(query, path, expected_after);
    arcnav_path_destroy(path);
    arcnav_query_destroy(query);
    arcnav_planner_destroy(planner);
    arcnav_map_destroy(map);
    ck_assert(!same_answers(expected_before, expected_after));
  }
  long fired_total = 0;
  long n = 0;
  for (; n < 100000; ++n) {
    test_allocator counter = test_allocator_make();
    arcnav_allocator hooks = test_allocator_hooks(&counter);
    arcnav_map *map = sweep_map(&hooks);
    arcnav_planner *planner = build_planner(map, kind);
    arcnav_query *query = NULL;
    arcnav_path *path = NULL;
    ck_assert_int_eq(arcnav_query_create(planner, &query), ARCNAV_OK);
    ck_assert_int_eq(arcnav_path_create(NULL, &path), ARCNAV_OK);
    sweep_answer got[SWEEP_QUERY_COUNT];
    answer_all(query, path, got);
    ck_assert(same_answers(got, expected_before));
    long armed = counter.calls + n;
    counter.fail_at = armed;
    bool fired = false;

    size_t count = arcnav_map_obstacle_count(map);
    arcnav_status status = arcnav_map_add_polygon(map, house, 5, NULL, NULL, 0, NULL);
    if (status == ARCNAV_ERR_OUT_OF_MEMORY) {
      fired = true;
      ck_assert_uint_eq(arcnav_map_obstacle_count(map), count);
      status = arcnav_map_add_polygon(map, house, 5, NULL, NULL, 0, NULL);
    }
    ck_assert_int_eq(status, ARCNAV_OK);
    arcnav_obstacle_id moved = arcnav_map_obstacle_id(map, 3);
    status = arcnav_map_move_obstacle(map, moved, (vec){-2, -1}, NULL);
    if (status == ARCNAV_ERR_OUT_OF_MEMORY) {
      fired = true;
      status = arcnav_map_move_obstacle(map, moved, (vec){-2, -1}, NULL);
    }
    ck_assert_int_eq(status, ARCNAV_OK);
    ck_assert_int_eq(arcnav_map_remove_obstacle(map, arcnav_map_obstacle_id(map, 1)), ARCNAV_OK);
    status = arcnav_planner_update(planner, map);
    if (status == ARCNAV_ERR_OUT_OF_MEMORY) {
      fired = true;
      // The planner still answers for the map as it was.
      counter.fail_at = -1;
      answer_all(query, path, got);
      ck_assert_msg(same_answers(got, expected_before),
                    "%s, failing allocation %ld: a failed update changed the answers", kind->name,
                    n);
      status = arcnav_planner_update(planner, map);
    }
    ck_assert_int_eq(status, ARCNAV_OK);
    // The query object makes its working memory again on first use.
    status = arcnav_find_path(query, SWEEP_QUERIES[0][0], SWEEP_QUERIES[0][1], path);
    if (status == ARCNAV_ERR_OUT_OF_MEMORY) {
      fired = true;
      ck_assert_uint_eq(arcnav_path_piece_count(path), 0);
    }
    // A failure injected but reported by none of the calls would have been swallowed.
    ck_assert_msg(fired || counter.calls <= armed,
                  "%s, failing allocation %ld was not reported as out_of_memory", kind->name, n);
    counter.fail_at = -1;
    answer_all(query, path, got);
    ck_assert_msg(same_answers(got, expected_after),
                  "%s, failing allocation %ld: answers differ from a run without failure",
                  kind->name, n);
    arcnav_path_destroy(path);
    arcnav_query_destroy(query);
    arcnav_planner_destroy(planner);
    arcnav_map_destroy(map);
    ck_assert_msg(counter.live == 0, "%s, failing allocation %ld: %ld blocks leaked", kind->name, n,
                  counter.live);
    if (!fired) {
      break;
    }
    fired_total++;
  }
  printf("living map, %s: %ld allocations failed in turn\n", kind->name, fired_total);
  ck_assert_int_gt(fired_total, 3);
  ck_assert_int_lt(n, 100000);
}
END_TEST

// What a disk engine turns round: one corner, or a grid item with the corner it draws (interval
// engines), as numbers to sort and compare.
enum { CORNER_FIELDS = 8, ITEM_FIELDS = 7 };

static int compare_records(const void *lhs, const void *rhs, size_t fields) {
  const double *a = lhs, *b = rhs;
  for (size_t k = 0; k < fields; ++k) {
    if (a[k] != b[k]) {
      return a[k] < b[k] ? -1 : 1;
    }
  }
  return 0;
}

static int compare_corner_records(const void *lhs, const void *rhs) {
  return compare_records(lhs, rhs, CORNER_FIELDS);
}

static int compare_item_records(const void *lhs, const void *rhs) {
  return compare_records(lhs, rhs, ITEM_FIELDS);
}

// The disk engine's corners, and with an interval engine its grid items with the corner each
// draws, sorted into *corners and *items (counts returned through the pointers after them).
static void disk_engine_records(const arcnav_planner *planner, double **corners,
                                size_t *corner_count, double **items, size_t *item_count) {
  const an_tangent_engine *engine = planner->engine.state;
  *corner_count = engine->corner_count;
  *corners = calloc(engine->corner_count * CORNER_FIELDS + 1, sizeof **corners);
  const an_navmesh *mesh = engine->polygons;
  for (size_t c = 0; c < engine->corner_count; ++c) {
    const an_corner *corner = &engine->corners[c];
    // The vertex each table files the corner at, which must lie at its centre: whether there is
    // one is compared, since vertex numbers differ between meshes.
    int32_t landmark_vertex = engine->corner_vertex ? engine->corner_vertex[c] : -2;
    int32_t sight_vertex =
        engine->sight_mesh ? an_sight_mesh_corner_vertex(engine->sight_mesh, c) : -2;
    int32_t filed[2] = {landmark_vertex, sight_vertex};
    for (int k = 0; k < 2; ++k) {
      ck_assert(filed[k] < 0 || (mesh->cdt.points[filed[k]].x == corner->center.x &&
                                 mesh->cdt.points[filed[k]].y == corner->center.y));
    }
    double record[CORNER_FIELDS] = {corner->center.x,
                                    corner->center.y,
                                    corner->radius,
                                    corner->wedge_start,
                                    corner->wedge_sweep,
                                    corner->obstacle,
                                    landmark_vertex < -1 ? -2.0 : landmark_vertex >= 0,
                                    sight_vertex < -1 ? -2.0 : sight_vertex >= 0};
    memcpy(*corners + c * CORNER_FIELDS, record, sizeof record);
  }
  qsort(*corners, *corner_count, CORNER_FIELDS * sizeof **corners, compare_corner_records);
  const an_grid *grid = &engine->space.grid;
  *item_count = engine->item_corner ? grid->item_count : 0;
  *items = calloc(*item_count * ITEM_FIELDS + 1, sizeof **items);
  for (size_t i = 0; i < *item_count; ++i) {
    const an_item *item = &grid->items[i];
    uint32_t c = engine->item_corner[i];
    const an_corner *corner = c == AN_NONE ? NULL : &engine->corners[c];
    double record[ITEM_FIELDS] = {item->a.x,
                                  item->a.y,
                                  an_item_end(item).x,
                                  an_item_end(item).y,
                                  item->owner,
                                  corner ? corner->obstacle : -2.0,
                                  corner ? corner->wedge_start : -1.0};
    memcpy(*items + i * ITEM_FIELDS, record, sizeof record);
  }
  qsort(*items, *item_count, ITEM_FIELDS * sizeof **items, compare_item_records);
}

// A triangle the edit leaves alone can still have a link the new building narrows: triangle
// (0, 0), (10, 0), (5, 12) between three blocks keeps its circumcircle above y = -2.09, the house
// goes below it at y = -2.3, 2.3 from the middle of its base, where its link's width was capped
// at 3. The carried widths must notice (sure_passages.c, carried_widths).
// The map of the two tests below: three blocks whose corners make the triangle (0, 0), (10, 0),
// (5, 12), with bounds well away.
static arcnav_map *untouched_triangle_map(void) {
  static const vec bounds[] = {{-20, -20}, {30, -20}, {30, 20}, {-20, 20}};
  static const vec diamond[] = {{5, 12}, {6, 13}, {5, 14}, {4, 13}};
  arcnav_map *map = NULL;
  ck_assert_int_eq(arcnav_map_create(NULL, &map), ARCNAV_OK);
  ck_assert_int_eq(arcnav_map_set_bounds(map, bounds, 4, NULL), ARCNAV_OK);
  add_rect(map, (vec){-6, -1}, (vec){0, 0});
  add_rect(map, (vec){10, -1}, (vec){16, 0});
  ck_assert_int_eq(arcnav_map_add_polygon(map, diamond, 4, NULL, NULL, 0, NULL), ARCNAV_OK);
  return map;
}

// `planner` (for several radii up to 3) brought up to date with `map` by a local update, whose
// kept widths must be those measured afresh.
static void update_and_measure(arcnav_planner *planner, const arcnav_map *map, const char *label) {
  ck_assert_int_eq(arcnav_planner_update(planner, map), ARCNAV_OK);
  ck_assert_uint_eq(arcnav_planner_local_updates(planner), 1);
  check_widths_measured(planner, label);
}

static const planner_kind UP_TO_3 = {"ranged", ARCNAV_ENGINE_AUTO, ARCNAV_TANGENT_GRAPH_AUTO, 0.5,
                                     3.0};

START_TEST(a_house_narrows_a_link_it_does_not_touch) {
  arcnav_map *map = untouched_triangle_map();
  arcnav_planner *planner = build_planner(map, &UP_TO_3);
  add_rect(map, (vec){3, -5}, (vec){7, -2.3});
  update_and_measure(planner, map, "the house below the base");
  arcnav_planner_destroy(planner);
  arcnav_map_destroy(map);
}
END_TEST

// An AUTO planner for one radius on a small map prebuilds its tangent graph; brought up to date
// after a change, it finds tangents on demand (planner.c, resolve_tangent_graph), so that the
// changes after the first follow locally. Its answers stay those of a fresh build, whose graph is
// prebuilt: the same status and length on a grid of queries, every path verified.
START_TEST(a_changed_map_finds_tangents_on_demand) {
  static const vec bounds[] = {{0, 0}, {60, 0}, {60, 40}, {0, 40}};
  arcnav_map *map = NULL;
  ck_assert_int_eq(arcnav_map_create(NULL, &map), ARCNAV_OK);
  ck_assert_int_eq(arcnav_map_set_bounds(map, bounds, 4, NULL), ARCNAV_OK);
  add_rect(map, (vec){5, 5}, (vec){9, 30});
  add_rect(map, (vec){45, 10}, (vec){50, 35});
  arcnav_planner_def def = arcnav_default_planner_def();
  def.radius = 1.0;
  arcnav_planner *planner = NULL;
  ck_assert_int_eq(arcnav_planner_create(map, &def, &planner), ARCNAV_OK);
  arcnav_planner_info info;
  arcnav_planner_get_info(planner, &info);
  ck_assert_uint_gt(info.edge_count, 0); // prebuilt
  arcnav_obstacle_id house = add_rect(map, (vec){25, 15}, (vec){31, 22});
  ck_assert(!update_was_local(planner, map)); // from a prebuilt graph: built in full
  arcnav_planner_get_info(planner, &info);
  ck_assert_uint_eq(info.edge_count, 0); // on demand
  // A polygon taken out locally must have been put in locally (an_local_polygons_change()): the
  // second house, not the first.
  arcnav_obstacle_id shed = add_rect(map, (vec){25, 2}, (vec){29, 6});
  ck_assert(update_was_local(planner, map));
  ck_assert_int_eq(arcnav_map_move_obstacle(map, shed, (vec){6, 0}, NULL), ARCNAV_OK);
  ck_assert(update_was_local(planner, map));
  ck_assert_int_eq(arcnav_map_remove_obstacle(map, shed), ARCNAV_OK);
  ck_assert(update_was_local(planner, map));
  ck_assert_int_eq(arcnav_map_remove_obstacle(map, house), ARCNAV_OK);
  ck_assert_int_eq(arcnav_planner_update(planner, map), ARCNAV_OK);
  arcnav_planner *fresh = NULL;
  ck_assert_int_eq(arcnav_planner_create(map, &def, &fresh), ARCNAV_OK);
  arcnav_planner_get_info(fresh, &info);
  ck_assert_uint_gt(info.edge_count, 0);
  arcnav_query *query = NULL, *fresh_query = NULL;
  ck_assert_int_eq(arcnav_query_create(planner, &query), ARCNAV_OK);
  ck_assert_int_eq(arcnav_query_create(fresh, &fresh_query), ARCNAV_OK);
  arcnav_path *path = NULL, *fresh_path = NULL;
  ck_assert_int_eq(arcnav_path_create(NULL, &path), ARCNAV_OK);
  ck_assert_int_eq(arcnav_path_create(NULL, &fresh_path), ARCNAV_OK);
  sup_map m; // the map as it ends, the house gone, for the verifier
  sup_map_init(&m);
  sup_map_add_rect(&m, 5, 5, 9, 30);
  sup_map_add_rect(&m, 45, 10, 50, 35);
  sup_map_set_bounds(&m, bounds, 4);
  size_t found = 0;
  for (int k = 0; k < 64; ++k) {
    vec start = {2.5 + 7.0 * (k % 8), 2.5 + 5.0 * (k / 8)};
    vec goal = {57.5 - 7.0 * (k / 8), 37.5 - 4.5 * (k % 8)};
    arcnav_status got = arcnav_find_path(query, start, goal, path);
    arcnav_status want = arcnav_find_path(fresh_query, start, goal, fresh_path);
    ck_assert_int_eq(got, want);
    if (got == ARCNAV_OK) {
      double length = arcnav_path_length(path), fresh_length = arcnav_path_length(fresh_path);
      ck_assert_msg(fabs(length - fresh_length) <= 1e-9 * fresh_length,
                    "query %d: %.17g after the updates, %.17g afresh", k, length, fresh_length);
      sup_verify_report report;
      ck_assert_msg(
          sup_verify_path(&m, def.radius, sup_map_tolerance(&m), start, goal, path, &report),
          "query %d: %s", k, report.message);
      ++found;
    }
  }
  ck_assert_uint_gt(found, 32);
  sup_map_free(&m);
  arcnav_path_destroy(path);
  arcnav_path_destroy(fresh_path);
  arcnav_query_destroy(query);
  arcnav_query_destroy(fresh_query);
  arcnav_planner_destroy(fresh);
  arcnav_planner_destroy(planner);
  arcnav_map_destroy(map);
}
END_TEST

// A unit beside a triangle narrows its link, though it changes no triangle (circles are not in
// the triangulation): the triangle (0, 0), (10, 0), (5, 12) of the house test above, the unit's
// rim 2.5 below the middle of its base and its centre 4.5, farther than the cap of 3. Taking the
// unit away must widen the link again, so the box the carried widths keep away from is the
// unit's whole disk, not its centre (an_tangent_engine_build: the unit's items in the old grid).
START_TEST(a_unit_taken_away_widens_a_link) {
  arcnav_map *map = untouched_triangle_map();
  arcnav_obstacle_id unit = 0, other = 0;
  ck_assert_int_eq(arcnav_map_add_unit(map, (vec){-15, 15}, 1, &other), ARCNAV_OK);
  ck_assert_int_eq(arcnav_map_add_unit(map, (vec){5, -4.5}, 2, &unit), ARCNAV_OK);
  arcnav_planner *planner = build_planner(map, &UP_TO_3);
  ck_assert_int_eq(arcnav_map_remove_obstacle(map, unit), ARCNAV_OK);
  update_and_measure(planner, map, "the unit taken away");
  arcnav_planner_destroy(planner);
  arcnav_map_destroy(map);
}
END_TEST

// The tangent engine of an updated planner against a fresh planner's (disk_engine_records): the
// same corners, the same table entries for each, and the same corner for each grid item. A removal
// drops the landmarks (mesh/landmarks.h), and their table of corner vertices with them: that field
// is compared where both planners have one.
// The corner grid (tangents on demand) of an engine that followed a change lists in each cell the
// corners a build of that grid over the same cells and corners files there, in the same order.
static void check_corner_grid_as_built(const an_tangent_engine *engine, const char *label) {
  const an_corner_grid *got = &engine->graph.corner_grid;
  if (!got->cells.chunks) {
    return;
  }
  an_allocator alloc = an_allocator_from(NULL);
  an_corner_grid want;
  ck_assert_int_eq(an_corner_grid_build(&engine->space.grid, engine->corners, engine->corner_count,
                                        &alloc, &want),
                   ARCNAV_OK);
  ck_assert_uint_eq(got->cells.cell_count, want.cells.cell_count);
  for (size_t cell = 0; cell < want.cells.cell_count; ++cell) {
    uint32_t got_count, want_count;
    const uint32_t *got_list = an_cell_table_list(&got->cells, cell, &got_count);
    const uint32_t *want_list = an_cell_table_list(&want.cells, cell, &want_count);
    ck_assert_msg(got_count == want_count, "%s: the corner grid's cell %zu lists %u, built %u",
                  label, cell, got_count, want_count);
    for (uint32_t k = 0; k < want_count; ++k) {
      ck_assert_msg(got_list[k] == want_list[k],
                    "%s: entry %u of the corner grid's cell %zu is corner %u, built %u", label, k,
                    cell, got_list[k], want_list[k]);
    }
  }
  an_corner_grid_destroy(&want, &alloc);
}

// The sight mesh's filing likewise: as a build of it over the same triangulation and corners
// files them.
static void check_sight_mesh_as_built(const an_tangent_engine *engine, const arcnav_map *map,
                                      const char *label) {
  if (!engine->sight_mesh) {
    return;
  }
  an_allocator alloc = an_allocator_from(NULL);
  an_sight_mesh *want = NULL;
  ck_assert_int_eq(an_sight_mesh_build(map, engine->corners, engine->corner_count, engine->radius,
                                       an_sight_mesh_polygons(engine->sight_mesh), NULL, &alloc,
                                       &want),
                   ARCNAV_OK);
  ck_assert_msg(an_sight_mesh_same_filing(engine->sight_mesh, want),
                "%s: the sight mesh files its corners otherwise than a build", label);
  an_sight_mesh_destroy(want);
}

static void check_parts_as_fresh(const arcnav_planner *planner, const arcnav_planner *fresh,
                                 const char *label) {
  double *got_corners, *want_corners, *got_items, *want_items;
  size_t got_corner_count, want_corner_count, got_item_count, want_item_count;
  disk_engine_records(planner, &got_corners, &got_corner_count, &got_items, &got_item_count);
  disk_engine_records(fresh, &want_corners, &want_corner_count, &want_items, &want_item_count);
  ck_assert_msg(got_corner_count == want_corner_count, "%s: %zu corners, afresh %zu", label,
                got_corner_count, want_corner_count);
  ck_assert_msg(got_item_count == want_item_count, "%s: %zu items, afresh %zu", label,
                got_item_count, want_item_count);
  for (size_t k = 0; k < got_corner_count * CORNER_FIELDS; ++k) {
    bool landmarks = k % CORNER_FIELDS == 6;
    ck_assert_msg((landmarks && (got_corners[k] < -1.0 || want_corners[k] < -1.0)) ||
                      got_corners[k] == want_corners[k],
                  "%s: field %zu of corner %zu differs from a fresh build's", label,
                  k % CORNER_FIELDS, k / CORNER_FIELDS);
  }
  for (size_t k = 0; k < got_item_count * ITEM_FIELDS; ++k) {
    ck_assert_msg(got_items[k] == want_items[k], "%s: item %zu differs from a fresh build's", label,
                  k / ITEM_FIELDS);
  }
  free(got_corners);
  free(want_corners);
  free(got_items);
  free(want_items);
  check_corner_grid_as_built(planner->engine.state, label);
}

// A planner for several radii that follows a change locally carries its disk engine's corners
// over (tangent_engine.c, carry_corners): the corners, their obstacles' numbers, and which corner
// each grid item draws must be those a fresh build makes. Removing a house before another one
// renumbers the later house's corners. The links of the sure passages far from the change are
// carried too (sure_passages.c): each must be as wide as measured afresh. With a unit standing
// (a circle: the point engine is then a tangent engine that lends its triangulation, and the
// sight mesh files every corner wide) each change must still be followed locally. Where the
// change keeps the other corners where they are, the new engine writes in the old one's array,
// which it is handed when the old one goes.
START_TEST(carried_parts_are_a_fresh_builds) {
  static const vec bounds[] = {{0, 0}, {60, 0}, {60, 40}, {0, 40}};
  static const vec house[] = {{20, 20}, {26, 20}, {26, 24}, {23, 27}, {20, 24}};
  static const arcnav_engine engines[] = {ARCNAV_ENGINE_AUTO, ARCNAV_ENGINE_INTERVAL};
  for (size_t variant = 0; variant < 4; ++variant) {
    size_t e = variant % 2;
    bool unit = variant >= 2;
    arcnav_map *map = NULL;
    ck_assert_int_eq(arcnav_map_create(NULL, &map), ARCNAV_OK);
    ck_assert_int_eq(arcnav_map_set_bounds(map, bounds, 4, NULL), ARCNAV_OK);
    add_rect(map, (vec){5, 5}, (vec){9, 30});
    add_rect(map, (vec){45, 10}, (vec){50, 35});
    if (unit) {
      ck_assert_int_eq(arcnav_map_add_unit(map, (vec){41, 31}, 1.0, NULL), ARCNAV_OK);
    }
    // Small blocks all round, so the triangles the edits leave alone come within the cap of the
    // houses.
    static const vec kept_clear[][2] = {{{4.5, 4.5}, {9.5, 30.5}},    {{44.5, 9.5}, {50.5, 35.5}},
                                        {{19.5, 19.5}, {26.5, 27.5}}, {{31.5, 9.5}, {38.5, 17.5}},
                                        {{27.5, 17.5}, {34.5, 25.5}}, {{39.5, 29.5}, {42.5, 32.5}}};
    for (double x = 1.5; x < 58; x += 4) {
      for (double y = 1.5; y < 38; y += 4) {
        bool clear = true;
        for (size_t k = 0; k < sizeof kept_clear / sizeof kept_clear[0]; ++k) {
          clear = clear && (x + 1 < kept_clear[k][0].x || x > kept_clear[k][1].x ||
                            y + 1 < kept_clear[k][0].y || y > kept_clear[k][1].y);
        }
        if (clear) {
          // A point in the middle of each side: more vertices for the landmarks' size rule.
          vec block[8] = {{x, y},         {x + 0.5, y},     {x + 1, y}, {x + 1, y + 0.5},
                          {x + 1, y + 1}, {x + 0.5, y + 1}, {x, y + 1}, {x, y + 0.5}};
          ck_assert_int_eq(arcnav_map_add_polygon(map, block, 8, NULL, NULL, 0, NULL), ARCNAV_OK);
        }
      }
    }
    // Long walls, from either side in turn, make paths long enough for landmarks
    // (mesh/landmarks.h), whose table of corner vertices is carried too: the engine's own, or
    // the sight mesh's where it has one.
    add_rect(map, (vec){10, 3.8}, (vec){59.8, 4.2});
    add_rect(map, (vec){0.2, 7.8}, (vec){50, 8.2});
    add_rect(map, (vec){10, 31.8}, (vec){59.8, 32.2});
    add_rect(map, (vec){0.2, 35.8}, (vec){50, 36.2});
    planner_kind kind = {"ranged", engines[e], ARCNAV_TANGENT_GRAPH_AUTO, 0.5, 3.0};
    arcnav_planner *planner = build_planner(map, &kind);
    const an_tangent_engine *built = planner->engine.state;
    ck_assert_uint_gt(built->polygons->landmarks.count, 0);
    ck_assert(built->corner_vertex != NULL || built->sight_mesh != NULL);
    arcnav_obstacle_id first = 0, second = 0;
    for (int step = 0; step < 5; ++step) {
      vec moved[5];
      for (size_t k = 0; k < 5; ++k) {
        moved[k] = (vec){house[k].x + (step == 0 ? 0.0 : 12.0), house[k].y - 10.0};
      }
      switch (step) {
      case 0:
        ck_assert_int_eq(arcnav_map_add_polygon(map, house, 5, NULL, NULL, 0, NULL), ARCNAV_OK);
        first = arcnav_map_obstacle_id(map, arcnav_map_obstacle_count(map) - 1);
        break;
      case 1:
        ck_assert_int_eq(arcnav_map_add_polygon(map, moved, 5, NULL, NULL, 0, NULL), ARCNAV_OK);
        second = arcnav_map_obstacle_id(map, arcnav_map_obstacle_count(map) - 1);
        break;
      case 2:
        ck_assert_int_eq(arcnav_map_remove_obstacle(map, first), ARCNAV_OK);
        break;
      case 3:
        ck_assert_int_eq(arcnav_map_move_obstacle(map, second, (vec){-4, 8}, NULL), ARCNAV_OK);
        break;
      default:
        ck_assert_int_eq(arcnav_map_remove_obstacle(map, second), ARCNAV_OK);
      }
      char label[64];
      snprintf(label, sizeof label, "engine %d%s step %d", (int)engines[e],
               unit ? " with a unit" : "", step);
      uint64_t local = arcnav_planner_local_updates(planner);
      const an_corner *corners_before = ((const an_tangent_engine *)planner->engine.state)->corners;
      ck_assert_int_eq(arcnav_planner_update(planner, map), ARCNAV_OK);
      ck_assert_msg(arcnav_planner_local_updates(planner) == local + 1,
                    "%s: the update was not a local one", label);
      // The second house's addition writes its corners after the first's copy, in the room that
      // copy left, and its removal, the last obstacle's with the last corners, keeps the others
      // where they are; the first's removal (another house after it) and the move copy them.
      const an_tangent_engine *updated = planner->engine.state;
      ck_assert_msg((updated->corners == corners_before) == (step == 1 || step == 4),
                    "%s: the corners were %s", label,
                    updated->corners == corners_before ? "kept in place" : "copied");
      ck_assert(!updated->corners_borrowed);
      check_widths_measured(planner, label);
      arcnav_planner *fresh = build_planner(map, &kind);
      const an_tangent_engine *interval = planner->engine.state;
      ck_assert_uint_eq(interval->item_corner != NULL, engines[e] == ARCNAV_ENGINE_INTERVAL);
      check_parts_as_fresh(planner, fresh, label);
      check_sight_mesh_as_built(planner->engine.state, map, label);
      arcnav_planner_destroy(fresh);
    }
    arcnav_planner_destroy(planner);
    arcnav_map_destroy(map);
  }
}
END_TEST

// A map of many triangles, whose forests of widest links span many blocks (the triangulation's
// an_navmesh.block_shift): small buildings go up in the gaps of a grid of squares, come down and
// move, each a local update that takes most blocks over from the planner before. The forests must
// answer as forests built afresh (check_widths_measured), the blocks kept included.
START_TEST(forests_in_many_blocks_follow_local_changes) {
  enum { COLUMNS = 16, ROWS = 12 };
  arcnav_map *map = NULL;
  ck_assert_int_eq(arcnav_map_create(NULL, &map), ARCNAV_OK);
  for (int i = 0; i < COLUMNS; ++i) {
    for (int j = 0; j < ROWS; ++j) {
      // Squares of two sizes, so that passages come in several widths.
      double size = (i + j) % 3 == 0 ? 1.5 : 1.0;
      add_rect(map, (vec){4.0 * i, 4.0 * j}, (vec){4.0 * i + size, 4.0 * j + size});
    }
  }
  planner_kind kind = {"ranged", ARCNAV_ENGINE_AUTO, ARCNAV_TANGENT_GRAPH_AUTO, 0.5, 3.0};
  arcnav_planner *planner = build_planner(map, &kind);
  const an_tangent_engine *engine = planner->engine.state;
  ck_assert_uint_gt(engine->polygons->free_count, (size_t)4 << engine->polygons->block_shift);
  sup_rng rng = sup_rng_seed(0x6a09e667f3bcc908ull);
  arcnav_obstacle_id standing[3] = {0, 0, 0};
  size_t standing_count = 0;
  uint64_t local = 0;
  int steps = (int)test_scaled_count(24);
  for (int step = 0; step < steps; ++step) {
    // Up in a random gap; down, or moved to the next gap, once three stand.
    int i = (int)sup_rng_below(&rng, COLUMNS - 1), j = (int)sup_rng_below(&rng, ROWS - 1);
    vec lo = {4.0 * i + 2.25, 4.0 * j + 2.25}, hi = {lo.x + 0.5, lo.y + 0.5};
    char label[64];
    if (standing_count < 3) {
      standing[standing_count++] = add_rect(map, lo, hi);
      snprintf(label, sizeof label, "step %d: up at gap (%d, %d)", step, i, j);
    } else if (step % 2 == 0) {
      ck_assert_int_eq(arcnav_map_remove_obstacle(map, standing[0]), ARCNAV_OK);
      memmove(standing, standing + 1, 2 * sizeof *standing);
      standing_count--;
      snprintf(label, sizeof label, "step %d: down", step);
    } else {
      ck_assert_int_eq(arcnav_map_move_obstacle(map, standing[1], (vec){4.0, 0.0}, NULL),
                       ARCNAV_OK);
      snprintf(label, sizeof label, "step %d: moved", step);
    }
    uint64_t before = arcnav_planner_local_updates(planner);
    arcnav_status status = arcnav_planner_update(planner, map);
    ck_assert_int_eq(status, ARCNAV_OK);
    local += arcnav_planner_local_updates(planner) - before;
    check_widths_measured(planner, label);
  }
  ck_assert_uint_ge(local, (uint64_t)steps / 2);
  arcnav_planner_destroy(planner);
  arcnav_map_destroy(map);
}
END_TEST

// A rectangle at a random place of the world, 2 to 2 + `widths` / 4 wide and 2 to
// 2 + `heights` / 4 high, on the quarter grid.
static void add_building(world *w, arcnav_map *map, sup_rng *rng, unsigned widths,
                         unsigned heights) {
  shape *s = &w->shapes[w->count++];
  memset(s, 0, sizeof *s);
  s->alive = true;
  double x = 0.25 * (double)sup_rng_below(rng, 340), y = 0.25 * (double)sup_rng_below(rng, 260);
  s->lo = (vec){x + 2, y + 2};
  s->hi = (vec){x + 2 + 0.25 * (double)(8 + sup_rng_below(rng, widths)),
                y + 2 + 0.25 * (double)(8 + sup_rng_below(rng, heights))};
  s->id = add_rect(map, s->lo, s->hi);
}

// Units (circles) that come, go and move among buildings, and a few buildings too: where one keeps
// clear of everything, before and after, the tangent engines with tangents on demand carry what it
// leaves alone over from the engines they replace (tangent_engine.c, carry_own_parts), for point
// agents, for one radius and for several. Every answer must be a fresh planner's, the disk engines'
// corners and kept widths too, and both kinds of update must occur.
START_TEST(units_change_locally_as_fresh_builds) {
  static const planner_kind kinds[] = {
      {"auto R=0", ARCNAV_ENGINE_AUTO, ARCNAV_TANGENT_GRAPH_AUTO, 0.0, 0.0},
      {"auto R=1.25", ARCNAV_ENGINE_AUTO, ARCNAV_TANGENT_GRAPH_AUTO, 1.25, 0.0},
      {"auto max 3", ARCNAV_ENGINE_AUTO, ARCNAV_TANGENT_GRAPH_AUTO, 0.5, 3.0},
      {"interval max 3", ARCNAV_ENGINE_INTERVAL, ARCNAV_TANGENT_GRAPH_AUTO, 0.5, 3.0},
  };
  enum { UNIT_KINDS = sizeof kinds / sizeof kinds[0] };
  uint64_t local = 0, updates = 0;
  for (uint64_t seed = 1; seed <= test_scaled_count(4); ++seed) {
    sup_rng rng = sup_rng_seed(seed * 104729);
    world w;
    arcnav_map *map = empty_world(&w, seed % 2 == 1);
    for (int i = 0; i < 8; ++i) {
      add_building(&w, map, &rng, 40, 24);
    }
    // A unit from the start: the point agents' planner is then a tangent engine's throughout.
    shape *first = &w.shapes[w.count++];
    *first = (shape){.alive = true, .circle = true, .center = {1, 1}, .radius = 0.5};
    ck_assert_int_eq(arcnav_map_add_unit(map, first->center, first->radius, &first->id), ARCNAV_OK);
    arcnav_planner *planners[UNIT_KINDS];
    arcnav_query *queries[UNIT_KINDS];
    build_planners(map, kinds, UNIT_KINDS, planners, queries);
    tally t = {0, 0, 0, 0};
    for (int step = 0; step < 16 && w.count < MAX_SHAPES; ++step) {
      char what[96];
      size_t pick = SIZE_MAX;
      for (size_t i = w.count; i-- > 9;) {
        if (w.shapes[i].alive && sup_rng_below(&rng, 2) == 0) {
          pick = i;
          break;
        }
      }
      if (pick != SIZE_MAX && step % 3 == 1) {
        ck_assert_int_eq(arcnav_map_remove_obstacle(map, w.shapes[pick].id), ARCNAV_OK);
        w.shapes[pick].alive = false;
        snprintf(what, sizeof what, "remove #%zu", pick);
      } else if (pick != SIZE_MAX && step % 3 == 2) {
        shape *s = &w.shapes[pick];
        vec by = {0.25 * ((double)sup_rng_below(&rng, 33) - 16.0),
                  0.25 * ((double)sup_rng_below(&rng, 33) - 16.0)};
        ck_assert_int_eq(arcnav_map_move_obstacle(map, s->id, by, NULL), ARCNAV_OK);
        s->center = (vec){s->center.x + by.x, s->center.y + by.y};
        s->lo = (vec){s->lo.x + by.x, s->lo.y + by.y};
        s->hi = (vec){s->hi.x + by.x, s->hi.y + by.y};
        snprintf(what, sizeof what, "move #%zu", pick);
      } else if (step % 5 == 4) {
        // A building among the units: the engines' own triangulations take it in too.
        add_building(&w, map, &rng, 16, 16);
        snprintf(what, sizeof what, "add building #%zu", w.count - 1);
      } else {
        shape *s = &w.shapes[w.count++];
        memset(s, 0, sizeof *s);
        s->alive = true;
        s->circle = true;
        s->center = (vec){4 + 0.25 * (double)sup_rng_below(&rng, 368),
                          4 + 0.25 * (double)sup_rng_below(&rng, 288)};
        if (step % 4 == 3) {
          // On a building's corner, which a point agent then cannot turn round: a full build.
          s->center = w.shapes[sup_rng_below(&rng, 8)].hi;
        }
        s->radius = 0.25 * (double)(2 + sup_rng_below(&rng, 6));
        ck_assert_int_eq(arcnav_map_add_unit(map, s->center, s->radius, &s->id), ARCNAV_OK);
        snprintf(what, sizeof what, "add unit #%zu", w.count - 1);
      }
      sup_map m = describe(&w);
      for (size_t k = 0; k < UNIT_KINDS; ++k) {
        bool followed = update_was_local(planners[k], map);
        ++updates;
        local += followed;
        arcnav_planner *fresh = build_planner(map, &kinds[k]);
        char label[192];
        snprintf(label, sizeof label, "seed %llu step %d (%s), %s", (unsigned long long)seed, step,
                 what, kinds[k].name);
        if (kinds[k].radius > 0.0) {
          check_widths_measured(planners[k], label);
        }
        ck_assert_int_ne(arcnav_planner_engine(planners[k]), ARCNAV_ENGINE_FUNNEL);
        check_parts_as_fresh(planners[k], fresh, label);
        check_sight_mesh_as_built(planners[k]->engine.state, map, label);
        compare_at_radii(queries[k], fresh, &m, &kinds[k], &rng, 2, 6, label, &t);
        arcnav_planner_destroy(fresh);
      }
      sup_map_free(&m);
    }
    destroy_planners(UNIT_KINDS, planners, queries);
    arcnav_map_destroy(map);
  }
  printf("units: %llu of %llu updates local\n", (unsigned long long)local,
         (unsigned long long)updates);
  ck_assert_uint_ge(local, updates / 4);
  ck_assert_uint_lt(local, updates);
}
END_TEST

// A building put up clear of everything, a unit coming between, and the building taken down:
// three local updates of a planner with tangents on demand, since the engine's records of the
// polygons it put in go on through the unit's change. Each answer as a fresh planner's.
START_TEST(a_building_outlives_a_units_change) {
  world w;
  arcnav_map *map = empty_world(&w, true);
  sup_rng rng = sup_rng_seed(7);
  shape *s = &w.shapes[w.count++];
  *s = (shape){.alive = true, .lo = {10, 10}, .hi = {20, 14}};
  s->id = add_rect(map, s->lo, s->hi);
  shape *unit = &w.shapes[w.count++];
  *unit = (shape){.alive = true, .circle = true, .center = {80, 60}, .radius = 1};
  ck_assert_int_eq(arcnav_map_add_unit(map, unit->center, unit->radius, &unit->id), ARCNAV_OK);
  planner_kind kind = {"auto R=1.25", ARCNAV_ENGINE_AUTO, ARCNAV_TANGENT_GRAPH_AUTO, 1.25, 0.0};
  arcnav_planner *planner = build_planner(map, &kind);
  arcnav_query *query = NULL;
  ck_assert_int_eq(arcnav_query_create(planner, &query), ARCNAV_OK);
  shape *building = &w.shapes[w.count++];
  *building = (shape){.alive = true, .lo = {40, 30}, .hi = {50, 36}};
  tally t = {0, 0, 0, 0};
  for (int step = 0; step < 3; ++step) {
    if (step == 0) {
      building->id = add_rect(map, building->lo, building->hi);
    } else if (step == 1) {
      ck_assert_int_eq(arcnav_map_move_obstacle(map, unit->id, (vec){-3, 2}, NULL), ARCNAV_OK);
      unit->center = (vec){unit->center.x - 3, unit->center.y + 2};
    } else {
      ck_assert_int_eq(arcnav_map_remove_obstacle(map, building->id), ARCNAV_OK);
      building->alive = false;
    }
    ck_assert_int_eq(arcnav_planner_update(planner, map), ARCNAV_OK);
    ck_assert_uint_eq(arcnav_planner_local_updates(planner), (uint64_t)step + 1);
    sup_map m = describe(&w);
    arcnav_planner *fresh = build_planner(map, &kind);
    compare_planners(query, fresh, &m, kind.radius, &rng, 6, "a building and a unit", &t);
    arcnav_planner_destroy(fresh);
    sup_map_free(&m);
  }
  arcnav_query_destroy(query);
  arcnav_planner_destroy(planner);
  arcnav_map_destroy(map);
}
END_TEST

// A shape clear of everything by a little, whose box still meets another's (a building off a
// unit's side, on a diagonal, a unit in a building's nook): the planners follow such changes
// locally, judged on the shapes and not their boxes. A building over a unit, or cutting into one,
// is not clear: built in full. Each answer as a fresh planner's.
START_TEST(shapes_clear_of_others_but_not_their_boxes_change_locally) {
  static const planner_kind kinds[] = {
      {"auto R=0", ARCNAV_ENGINE_AUTO, ARCNAV_TANGENT_GRAPH_AUTO, 0.0, 0.0},
      {"auto R=1.25", ARCNAV_ENGINE_AUTO, ARCNAV_TANGENT_GRAPH_AUTO, 1.25, 0.0},
      {"auto max 3", ARCNAV_ENGINE_AUTO, ARCNAV_TANGENT_GRAPH_AUTO, 0.5, 3.0},
      {"interval max 3", ARCNAV_ENGINE_INTERVAL, ARCNAV_TANGENT_GRAPH_AUTO, 0.5, 3.0},
  };
  const planner_kind *kind = &kinds[_i];
  world w;
  arcnav_map *map = empty_world(&w, true);
  sup_rng rng = sup_rng_seed(11);
  shape *wall = &w.shapes[w.count++];
  *wall = (shape){.alive = true, .lo = {10, 10}, .hi = {30, 16}};
  wall->id = add_rect(map, wall->lo, wall->hi);
  shape *unit = &w.shapes[w.count++];
  *unit = (shape){.alive = true, .circle = true, .center = {50, 40}, .radius = 2};
  ck_assert_int_eq(arcnav_map_add_unit(map, unit->center, unit->radius, &unit->id), ARCNAV_OK);
  arcnav_planner *planner = build_planner(map, kind);
  arcnav_query *query = NULL;
  ck_assert_int_eq(arcnav_query_create(planner, &query), ARCNAV_OK);
  // Off the unit's upper right, 0.55 from it at its corner (1.9 by 1.9 from the centre) though
  // its box reaches 0.1 into the unit's; then moved to its lower left the same way.
  shape *building = &w.shapes[w.count++];
  *building = (shape){.alive = true, .lo = {51.9, 41.9}, .hi = {60, 46}};
  shape *small = &w.shapes[w.count++];
  shape *over = &w.shapes[w.count++];
  tally t = {0, 0, 0, 0};
  for (int step = 0; step < 7; ++step) {
    bool local_expected = true;
    if (step == 0) {
      building->id = add_rect(map, building->lo, building->hi);
    } else if (step == 1) {
      vec by = {-13.8, -13.8};
      ck_assert_int_eq(arcnav_map_move_obstacle(map, building->id, by, NULL), ARCNAV_OK);
      building->lo = (vec){building->lo.x + by.x, building->lo.y + by.y};
      building->hi = (vec){building->hi.x + by.x, building->hi.y + by.y};
    } else if (step == 2) {
      // A unit in the wall's corner's nook: its box meets the wall's, it does not.
      *small = (shape){.alive = true, .circle = true, .center = {31.2, 17.2}, .radius = 1.5};
      ck_assert_int_eq(arcnav_map_add_unit(map, small->center, small->radius, &small->id),
                       ARCNAV_OK);
    } else if (step == 3) {
      ck_assert_int_eq(arcnav_map_remove_obstacle(map, building->id), ARCNAV_OK);
      building->alive = false;
    } else if (step == 4) {
      // Over the first unit, which then lies inside it: no edge comes near the unit.
      *over = (shape){.alive = true, .lo = {44, 34}, .hi = {56, 46}};
      over->id = add_rect(map, over->lo, over->hi);
      local_expected = false;
    } else if (step == 5) {
      ck_assert_int_eq(arcnav_map_remove_obstacle(map, over->id), ARCNAV_OK);
      over->alive = false;
      local_expected = false; // put in by a full build, so not the engine's to take out
    } else {
      // Its corner 1.41 from the unit's centre, inside it.
      *over = (shape){.alive = true, .lo = {51, 41}, .hi = {58, 47}};
      over->id = add_rect(map, over->lo, over->hi);
      local_expected = false;
    }
    char label[96];
    snprintf(label, sizeof label, "%s, step %d", kind->name, step);
    ck_assert_msg(update_was_local(planner, map) == local_expected, "%s: local update %s", label,
                  local_expected ? "expected" : "not expected");
    sup_map m = describe(&w);
    arcnav_planner *fresh = build_planner(map, kind);
    if (kind->radius > 0.0) {
      check_widths_measured(planner, label);
    }
    compare_at_radii(query, fresh, &m, kind, &rng, 4, 10, label, &t);
    arcnav_planner_destroy(fresh);
    sup_map_free(&m);
  }
  ck_assert_uint_gt(t.found, 0);
  arcnav_query_destroy(query);
  arcnav_planner_destroy(planner);
  arcnav_map_destroy(map);
}
END_TEST

// A local update (a house put up clear of everything, moved, then taken down) meets a failing
// allocation at each of its requests in turn: it must say out_of_memory and leave the planner
// answering for the map as it was, and done again without the failure, change it locally and
// answer as a fresh planner does. A planner for point agents, and one for several radii (its
// queries for a disk) whose two engines are made anew beside the old ones.
START_TEST(failed_local_updates_change_nothing) {
  static const planner_kind kinds[] = {
      {"auto R=0", ARCNAV_ENGINE_AUTO, ARCNAV_TANGENT_GRAPH_AUTO, 0.0, 0.0},
      {"auto max 3", ARCNAV_ENGINE_AUTO, ARCNAV_TANGENT_GRAPH_AUTO, 1.0, 3.0},
  };
  planner_kind kind = kinds[_i];
  static const vec house[] = {{24, 28}, {36, 28}, {36, 34}, {30, 37}, {24, 34}};
  static const vec bounds[] = {{0, 0}, {60, 0}, {60, 40}, {0, 40}};
  static const vec moved_by = {3, -2};
  static const vec wall_moved_by = {2, 1};
  sweep_answer without[SWEEP_QUERY_COUNT], with[SWEEP_QUERY_COUNT], moved[SWEEP_QUERY_COUNT],
      gone[SWEEP_QUERY_COUNT], wall_moved[SWEEP_QUERY_COUNT], bare[SWEEP_QUERY_COUNT],
      got[SWEEP_QUERY_COUNT];
  long fired_total = 0;
  for (long n = 0; n < 100000; ++n) {
    test_allocator counter = test_allocator_make();
    arcnav_allocator hooks = test_allocator_hooks(&counter);
    arcnav_map *map = NULL;
    ck_assert_int_eq(arcnav_map_create(&hooks, &map), ARCNAV_OK);
    ck_assert_int_eq(arcnav_map_set_bounds(map, bounds, 4, NULL), ARCNAV_OK);
    add_rect(map, (vec){10, 5}, (vec){14, 30});
    add_rect(map, (vec){44, 10}, (vec){48, 35});
    arcnav_planner *planner = build_planner(map, &kind);
    arcnav_query *query = NULL;
    arcnav_path *path = NULL;
    ck_assert_int_eq(arcnav_query_create(planner, &query), ARCNAV_OK);
    ck_assert_int_eq(arcnav_path_create(NULL, &path), ARCNAV_OK);
    answer_all(query, path, without);
    ck_assert_int_eq(arcnav_map_add_polygon(map, house, 5, NULL, NULL, 0, NULL), ARCNAV_OK);
    arcnav_obstacle_id id = arcnav_map_obstacle_id(map, 2);
    arcnav_obstacle_id wall = arcnav_map_obstacle_id(map, 0);
    bool fired = false;
    // Up, moved, then down; then a wall the build put in moved and taken down: each update with
    // allocation n failing (counted from its start).
    sweep_answer *before[5] = {without, with, moved, gone, wall_moved},
                 *after[5] = {with, moved, gone, wall_moved, bare};
    for (int change = 0; change < 5; ++change) {
      if (change == 1) {
        ck_assert_int_eq(arcnav_map_move_obstacle(map, id, moved_by, NULL), ARCNAV_OK);
      } else if (change == 2) {
        ck_assert_int_eq(arcnav_map_remove_obstacle(map, id), ARCNAV_OK);
      } else if (change == 3) {
        ck_assert_int_eq(arcnav_map_move_obstacle(map, wall, wall_moved_by, NULL), ARCNAV_OK);
      } else if (change == 4) {
        ck_assert_int_eq(arcnav_map_remove_obstacle(map, wall), ARCNAV_OK);
      }
      uint64_t local = arcnav_planner_local_updates(planner);
      counter.fail_at = counter.calls + n;
      arcnav_status status = arcnav_planner_update(planner, map);
      counter.fail_at = -1;
      if (status == ARCNAV_ERR_OUT_OF_MEMORY) {
        fired = true;
        answer_all(query, path, got);
        ck_assert_msg(same_answers(got, before[change]),
                      "failing allocation %ld of change %d: the answers changed", n, change);
        ck_assert_uint_eq(arcnav_planner_local_updates(planner), local);
        status = arcnav_planner_update(planner, map);
      }
      ck_assert_int_eq(status, ARCNAV_OK);
      ck_assert_uint_eq(arcnav_planner_local_updates(planner), local + 1);
      answer_all(query, path, after[change]);
    }
    ck_assert(same_answers(gone, without));
    arcnav_map *again = NULL;
    ck_assert_int_eq(arcnav_map_create(NULL, &again), ARCNAV_OK);
    ck_assert_int_eq(arcnav_map_set_bounds(again, bounds, 4, NULL), ARCNAV_OK);
    add_rect(again, (vec){10, 5}, (vec){14, 30});
    add_rect(again, (vec){44, 10}, (vec){48, 35});
    ck_assert_int_eq(arcnav_map_add_polygon(again, house, 5, NULL, NULL, 0, NULL), ARCNAV_OK);
    // The house where it stood, then where it was moved: each as a fresh planner answers.
    for (int place = 0; place < 2; ++place) {
      if (place == 1) {
        ck_assert_int_eq(
            arcnav_map_move_obstacle(again, arcnav_map_obstacle_id(again, 2), moved_by, NULL),
            ARCNAV_OK);
      }
      arcnav_planner *fresh = build_planner(again, &kind);
      arcnav_query *fresh_query = NULL;
      ck_assert_int_eq(arcnav_query_create(fresh, &fresh_query), ARCNAV_OK);
      answer_all(fresh_query, path, got);
      ck_assert(same_answers(got, place == 0 ? with : moved));
      arcnav_query_destroy(fresh_query);
      arcnav_planner_destroy(fresh);
    }
    ck_assert(!same_answers(with, without));
    ck_assert(!same_answers(moved, with));
    arcnav_map_destroy(again);
    // The wall moved, then gone: each as a fresh planner answers.
    for (int place = 0; place < 2; ++place) {
      ck_assert_int_eq(arcnav_map_create(NULL, &again), ARCNAV_OK);
      ck_assert_int_eq(arcnav_map_set_bounds(again, bounds, 4, NULL), ARCNAV_OK);
      if (place == 0) {
        add_rect(again, (vec){10 + wall_moved_by.x, 5 + wall_moved_by.y},
                 (vec){14 + wall_moved_by.x, 30 + wall_moved_by.y});
      }
      add_rect(again, (vec){44, 10}, (vec){48, 35});
      arcnav_planner *fresh = build_planner(again, &kind);
      arcnav_query *fresh_query = NULL;
      ck_assert_int_eq(arcnav_query_create(fresh, &fresh_query), ARCNAV_OK);
      answer_all(fresh_query, path, got);
      ck_assert(same_answers(got, place == 0 ? wall_moved : bare));
      arcnav_query_destroy(fresh_query);
      arcnav_planner_destroy(fresh);
      arcnav_map_destroy(again);
    }
    ck_assert(!same_answers(wall_moved, without));
    ck_assert(!same_answers(bare, wall_moved));
    arcnav_path_destroy(path);
    arcnav_query_destroy(query);
    arcnav_planner_destroy(planner);
    arcnav_map_destroy(map);
    ck_assert_msg(counter.live == 0, "failing allocation %ld: %ld blocks leaked", n, counter.live);
    if (!fired) {
      break;
    }
    fired_total++;
  }
  printf("living map, local updates, %s: %ld allocations failed in turn\n", kind.name, fired_total);
  ck_assert_int_gt(fired_total, 3);
}
END_TEST

// The corner circles of `query` at `radius` (its own copy, with a planner for several radii) are
// those a query object made now has, field for field.
static void expect_corners_of_a_new_query(const arcnav_query *query, double radius,
                                          const char *label) {
  const an_tangent_engine *engine = query->planner->engine.state;
  const an_tangent_query *q = query->engine_query;
  arcnav_query *fresh = NULL;
  ck_assert_int_eq(arcnav_query_create(query->planner, &fresh), ARCNAV_OK);
  ck_assert_int_eq(arcnav_query_set_radius(fresh, radius), ARCNAV_OK);
  const an_tangent_query *f = fresh->engine_query;
  ck_assert_ptr_ne(q->corners, engine->corners);
  for (size_t c = 0; c < engine->corner_count; ++c) {
    ck_assert_msg(memcmp(&q->corners[c], &f->corners[c], sizeof *q->corners) == 0,
                  "%s: corner %zu of %zu differs from a new query object's", label, c,
                  engine->corner_count);
  }
  ck_assert(q->settings.radius == f->settings.radius);
  arcnav_query_destroy(fresh);
}

// A query object kept through updates has its working memory renewed for the new engines, not
// made again (engine.h, `query_renew`), and must answer as a new one would: nothing it kept about
// the old map may outlive the change. Here the on-demand search judged a corner's wedge arc free,
// and a building then stands on that arc: after the update the query object is the same memory,
// its corners at its radius are a new query object's, and every wedge arc it still claims to know
// is judged as the free test judges it on the new map (DESIGN.md, "A query object renewed").
// The paths of `query` between each pair of `ends` are a planner's built afresh on `map` with
// `def`, at the query's radius: same status, same length to rounding.
static void expect_paths_of_a_fresh_planner(arcnav_query *query, const arcnav_map *map,
                                            const arcnav_planner_def *def, vec (*ends)[2],
                                            size_t count, const char *label) {
  arcnav_planner *fresh = NULL;
  ck_assert_int_eq(arcnav_planner_create(map, def, &fresh), ARCNAV_OK);
  arcnav_query *fresh_query = NULL;
  ck_assert_int_eq(arcnav_query_create(fresh, &fresh_query), ARCNAV_OK);
  ck_assert_int_eq(arcnav_query_set_radius(fresh_query, arcnav_query_radius(query)), ARCNAV_OK);
  arcnav_path *got = NULL, *want = NULL;
  ck_assert_int_eq(arcnav_path_create(NULL, &got), ARCNAV_OK);
  ck_assert_int_eq(arcnav_path_create(NULL, &want), ARCNAV_OK);
  for (size_t e = 0; e < count; ++e) {
    arcnav_status status = arcnav_find_path(query, ends[e][0], ends[e][1], got);
    ck_assert_int_eq(status, arcnav_find_path(fresh_query, ends[e][0], ends[e][1], want));
    double a = arcnav_path_length(got), b = arcnav_path_length(want);
    ck_assert_msg(status != ARCNAV_OK || fabs(a - b) <= 1e-9 * fmax(1.0, b),
                  "%s: path %zu is %.17g long, built afresh %.17g", label, e, a, b);
  }
  arcnav_path_destroy(got);
  arcnav_path_destroy(want);
  arcnav_query_destroy(fresh_query);
  arcnav_planner_destroy(fresh);
}

// Sixteen rectangles 18 x 12, four by four, 45 apart and staggered, in [20, 200] x [20, 200].
static void add_rect_grid(arcnav_map *map) {
  for (int i = 0; i < 4; ++i) {
    for (int j = 0; j < 4; ++j) {
      double x = 20.0 + 45.0 * i + 7.0 * (j % 2), y = 20.0 + 45.0 * j + 5.0 * (i % 2);
      add_rect(map, (vec){x, y}, (vec){x + 18.0, y + 12.0});
    }
  }
}

// Renews `query` (made with `counter`'s hooks) after an update that grew the map, each of the
// renewal's allocations failing in turn, each time after the ones before it passed: a renewal cut
// short is tried again on the same memory and must end as one that never failed. It allocated
// (the tables grew) and its engine's working memory is still `engine_query`, not made again.
static void renew_through_failures(arcnav_query *query, test_allocator *counter,
                                   const void *engine_query) {
  long failures = 0;
  for (;; ++failures) {
    counter->fail_at = counter->calls + failures;
    arcnav_status status = arcnav_query_set_radius(query, arcnav_query_radius(query));
    counter->fail_at = -1;
    if (status == ARCNAV_OK) {
      break;
    }
    ck_assert_int_eq(status, ARCNAV_ERR_OUT_OF_MEMORY);
  }
  ck_assert_int_gt(failures, 0);
  ck_assert_ptr_eq(query->engine_query, engine_query);
}

// The planners of several radii whose query objects are renewed: tangents on demand (AUTO) and
// the interval engine.
static const arcnav_engine RENEWED_ENGINES[] = {ARCNAV_ENGINE_AUTO, ARCNAV_ENGINE_INTERVAL};

START_TEST(a_renewed_query_object_forgets_the_old_map) {
  const arcnav_engine kind = RENEWED_ENGINES[_i];
  const double radius = 4.0;
  test_allocator counter = test_allocator_make();
  arcnav_allocator hooks = test_allocator_hooks(&counter);
  arcnav_map *map = NULL;
  ck_assert_int_eq(arcnav_map_create(&hooks, &map), ARCNAV_OK);
  vec bounds[4];
  rect_ring((vec){0, 0}, (vec){200, 200}, bounds);
  ck_assert_int_eq(arcnav_map_set_bounds(map, bounds, 4, NULL), ARCNAV_OK);
  add_rect_grid(map);
  arcnav_planner_def def = arcnav_default_planner_def();
  def.engine = kind;
  def.radius = radius;
  def.max_radius = 8.0;
  arcnav_planner *planner = NULL;
  ck_assert_int_eq(arcnav_planner_create(map, &def, &planner), ARCNAV_OK);
  arcnav_query *query = NULL;
  ck_assert_int_eq(arcnav_query_create(planner, &query), ARCNAV_OK);
  arcnav_path *path = NULL;
  ck_assert_int_eq(arcnav_path_create(NULL, &path), ARCNAV_OK);
  // Across the map; one more past the building below is added once its place is known.
  vec ends[6][2] = {{{5, 5}, {195, 195}},
                    {{195, 5}, {5, 195}},
                    {{5, 100}, {195, 100}},
                    {{100, 5}, {100, 195}},
                    {{10, 190}, {190, 12}}};
  size_t end_count = 5;
  for (size_t e = 0; e < end_count; ++e) {
    ck_assert_int_eq(arcnav_find_path(query, ends[e][0], ends[e][1], path), ARCNAV_OK);
  }
  an_tangent_query *q = query->engine_query;
  const an_tangent_engine *engine = planner->engine.state;
  // Tangents on demand, for AUTO; none for the interval engine of several radii (a lean one).
  ck_assert((q->lazy != NULL) == (kind == ARCNAV_ENGINE_AUTO));
  // A corner of a rectangle judged free (any corner, without tangents on demand), whose wedge
  // arc's middle lies well inside the bounds, with a way straight through that place along the
  // arc's tangent there, searched now: what the query object keeps of the triangles there (the
  // interval engine's obstacle pieces near each) must not outlive the building put there next.
  uint32_t judged = AN_NONE;
  vec on_arc = {0, 0};
  for (uint32_t c = 0; c < engine->corner_count && judged == AN_NONE; ++c) {
    const an_corner *corner = &q->corners[c];
    double middle = corner->wedge_start + 0.5 * corner->wedge_sweep;
    on_arc = (vec){corner->center.x + corner->radius * cos(middle),
                   corner->center.y + corner->radius * sin(middle)};
    vec along = {-8.0 * sin(middle), 8.0 * cos(middle)};
    vec a = {on_arc.x - along.x, on_arc.y - along.y}, b = {on_arc.x + along.x, on_arc.y + along.y};
    bool judged_free = !q->lazy || an_lazy_search_wedge_verdict(q->lazy, c) == 1;
    if (judged_free && corner->wedge_sweep < AN_TWO_PI && on_arc.x > 20.0 && on_arc.x < 180.0 &&
        on_arc.y > 20.0 && on_arc.y < 180.0 && arcnav_query_point_is_free(query, a) &&
        arcnav_query_point_is_free(query, b) && arcnav_find_path(query, a, b, path) == ARCNAV_OK &&
        arcnav_path_piece_count(path) == 1) {
      judged = c;
      ends[end_count][0] = a;
      ends[end_count][1] = b;
      ++end_count;
    }
  }
  ck_assert_msg(judged != AN_NONE, "no corner's wedge arc was judged free");
  arcnav_obstacle_id building =
      add_rect(map, (vec){on_arc.x - 0.5, on_arc.y - 0.5}, (vec){on_arc.x + 0.5, on_arc.y + 0.5});
  ck_assert_int_eq(arcnav_planner_update(planner, map), ARCNAV_OK);
  renew_through_failures(query, &counter, q);
  engine = planner->engine.state;
  ck_assert(!an_corner_wedge_is_free(&q->corners[judged], &q->settings, &q->clearance));
  for (uint32_t c = 0; q->lazy && c < engine->corner_count; ++c) {
    uint8_t verdict = an_lazy_search_wedge_verdict(q->lazy, c);
    bool free = an_corner_wedge_is_free(&q->corners[c], &q->settings, &q->clearance);
    ck_assert_msg(verdict == 0 || verdict == (free ? 1 : 2),
                  "corner %u: the renewed query object says its wedge arc is%s free", c,
                  verdict == 1 ? "" : " not");
  }
  expect_corners_of_a_new_query(query, radius, "after the building");
  expect_paths_of_a_fresh_planner(query, map, &def, ends, end_count, "after the building");
  // Another building, then the first moved (its corners go last) and taken away: the second's
  // corners, before the first's in the array, are renumbered. Each change is followed locally.
  uint64_t local = arcnav_planner_local_updates(planner);
  add_rect(map, (vec){95, 95}, (vec){99, 99});
  ck_assert_int_eq(arcnav_planner_update(planner, map), ARCNAV_OK);
  ck_assert_int_eq(arcnav_find_path(query, ends[2][0], ends[2][1], path), ARCNAV_OK);
  ck_assert_int_eq(arcnav_map_move_obstacle(map, building, (vec){0.25, 0.1}, NULL), ARCNAV_OK);
  ck_assert_int_eq(arcnav_planner_update(planner, map), ARCNAV_OK);
  ck_assert_int_eq(arcnav_find_path(query, ends[0][0], ends[0][1], path), ARCNAV_OK);
  ck_assert_ptr_eq(query->engine_query, q);
  expect_corners_of_a_new_query(query, radius, "after the move");
  expect_paths_of_a_fresh_planner(query, map, &def, ends, end_count, "after the move");
  ck_assert_int_eq(arcnav_map_remove_obstacle(map, building), ARCNAV_OK);
  ck_assert_int_eq(arcnav_planner_update(planner, map), ARCNAV_OK);
  ck_assert_int_eq(arcnav_find_path(query, ends[1][0], ends[1][1], path), ARCNAV_OK);
  ck_assert_ptr_eq(query->engine_query, q);
  expect_corners_of_a_new_query(query, radius, "after the removal");
  expect_paths_of_a_fresh_planner(query, map, &def, ends, end_count, "after the removal");
  ck_assert_uint_eq(arcnav_planner_local_updates(planner), local + 3);
  // Two updates the query object does not see: two rectangles added at once (built in full,
  // the corners in another order), then a building added locally, whose engine shares all its
  // first corners with the one before it, not with the query object's.
  add_rect(map, (vec){40, 95}, (vec){44, 99});
  add_rect(map, (vec){60, 95}, (vec){64, 99});
  ck_assert(!update_was_local(planner, map));
  add_rect(map, (vec){150, 95}, (vec){154, 99});
  ck_assert_int_eq(arcnav_planner_update(planner, map), ARCNAV_OK);
  ck_assert_uint_eq(arcnav_planner_local_updates(planner), local + 4);
  ck_assert_int_eq(arcnav_find_path(query, ends[3][0], ends[3][1], path), ARCNAV_OK);
  ck_assert_ptr_eq(query->engine_query, q);
  expect_corners_of_a_new_query(query, radius, "after two updates unseen");
  expect_paths_of_a_fresh_planner(query, map, &def, ends, end_count, "after two updates unseen");
  arcnav_path_destroy(path);
  arcnav_query_destroy(query);
  arcnav_planner_destroy(planner);
  arcnav_map_destroy(map);
}
END_TEST

// The funnel engines renew their query objects too: the plain funnel's search and the optimal
// one's, with the funnel the interval search keeps for ends beyond the box of a map without
// bounds, on the plain mesh and on the eroded one (DESIGN.md, "A query object renewed"). Each
// allocation of the renewal fails in turn first; then the query object is the same memory, a query
// beyond the box allocates nothing (the funnel for it was kept), and every answer is a planner's
// built afresh.
typedef struct renewed_funnel {
  arcnav_engine engine;
  double radius; ///< above 0: a point among the obstacles grown by it (the eroded mesh)
} renewed_funnel;
static const renewed_funnel RENEWED_FUNNELS[] = {{ARCNAV_ENGINE_PLAIN_FUNNEL, 0.0},
                                                 {ARCNAV_ENGINE_FUNNEL, 0.0},
                                                 {ARCNAV_ENGINE_PLAIN_FUNNEL, 1.5},
                                                 {ARCNAV_ENGINE_FUNNEL, 1.5}};

START_TEST(renewed_funnel_query_objects_answer_as_new_ones) {
  test_allocator counter = test_allocator_make();
  arcnav_allocator hooks = test_allocator_hooks(&counter);
  arcnav_map *map = NULL;
  ck_assert_int_eq(arcnav_map_create(&hooks, &map), ARCNAV_OK);
  add_rect_grid(map);
  arcnav_planner_def def = arcnav_default_planner_def();
  def.engine = RENEWED_FUNNELS[_i].engine;
  def.radius = RENEWED_FUNNELS[_i].radius;
  arcnav_planner *planner = NULL;
  ck_assert_int_eq(arcnav_planner_create(map, &def, &planner), ARCNAV_OK);
  arcnav_query *query = NULL;
  ck_assert_int_eq(arcnav_query_create(planner, &query), ARCNAV_OK);
  arcnav_path *path = NULL;
  ck_assert_int_eq(arcnav_path_create(NULL, &path), ARCNAV_OK);
  // Across the map, past the building's place, and from beyond the box to beyond it.
  vec ends[][2] = {{{5, 5}, {195, 195}},
                   {{195, 5}, {5, 195}},
                   {{40, 53}, {70, 53}},
                   {{-40, -30}, {240, 230}},
                   {{100, -60}, {60, 53}}};
  const size_t end_count = sizeof ends / sizeof ends[0];
  for (size_t e = 0; e < end_count; ++e) {
    ck_assert_int_eq(arcnav_find_path(query, ends[e][0], ends[e][1], path), ARCNAV_OK);
  }
  void *q = query->engine_query;
  arcnav_obstacle_id building = add_rect(map, (vec){50, 50}, (vec){56, 56});
  uint64_t local = arcnav_planner_local_updates(planner);
  ck_assert_int_eq(arcnav_planner_update(planner, map), ARCNAV_OK);
  // The eroded mesh is built again in full for each change: the query object still renews.
  bool eroded = def.radius > 0.0;
  ck_assert_uint_eq(arcnav_planner_local_updates(planner), eroded ? local : local + 1);
  renew_through_failures(query, &counter, q);
  long calls = counter.calls;
  ck_assert_int_eq(arcnav_find_path(query, ends[3][0], ends[3][1], path), ARCNAV_OK);
  ck_assert_int_eq(counter.calls, calls);
  expect_paths_of_a_fresh_planner(query, map, &def, ends, end_count, "after the building");
  ck_assert_int_eq(arcnav_map_move_obstacle(map, building, (vec){1.5, -0.5}, NULL), ARCNAV_OK);
  ck_assert_int_eq(arcnav_planner_update(planner, map), ARCNAV_OK);
  expect_paths_of_a_fresh_planner(query, map, &def, ends, end_count, "after the move");
  ck_assert_int_eq(arcnav_map_remove_obstacle(map, building), ARCNAV_OK);
  ck_assert_int_eq(arcnav_planner_update(planner, map), ARCNAV_OK);
  expect_paths_of_a_fresh_planner(query, map, &def, ends, end_count, "after the removal");
  ck_assert_uint_eq(arcnav_planner_local_updates(planner), eroded ? local : local + 3);
  ck_assert_ptr_eq(query->engine_query, q);
  arcnav_path_destroy(path);
  arcnav_query_destroy(query);
  arcnav_planner_destroy(planner);
  arcnav_map_destroy(map);
  ck_assert_int_eq(counter.live, 0);
}
END_TEST

// The buildings of the map a planner was built from come down and move locally too, where the
// triangulation holds them as a change would have put them in (an_navmesh_find_polygon(): clear
// of everything else, each point a vertex of its own, free all round): a game's map file places
// most of its buildings. Those that touch another, share a vertex between two of their rings, or
// stand inside another obstacle are built in full. Every answer is a fresh planner's, at several
// radii for the planners of several radii.
typedef struct built_change {
  const char *what;
  size_t obstacle; ///< by the number it was added under
  bool move;
  bool local; ///< followed in place by every planner
} built_change;

// The map the planners are built from, its obstacles' ids in `ids` (22).
static arcnav_map *built_town(arcnav_obstacle_id *ids) {
  arcnav_map *map = NULL;
  ck_assert_int_eq(arcnav_map_create(NULL, &map), ARCNAV_OK);
  vec bounds[4];
  rect_ring((vec){0, 0}, (vec){200, 200}, bounds);
  ck_assert_int_eq(arcnav_map_set_bounds(map, bounds, 4, NULL), ARCNAV_OK);
  add_rect_grid(map); // 0 to 15
  // 16: a courtyard. 17 and 18: two houses wall to wall. 19: a hall whose inner court touches its
  // outer wall at a vertex (one vertex, two rings). 20: a keep, and 21 a tower inside it.
  vec outer[4], hole[4];
  courtyard_rings((vec){4, 178}, (vec){34, 196}, outer, hole);
  const arcnav_vec2 *holes[1] = {hole};
  size_t counts[1] = {4};
  ck_assert_int_eq(arcnav_map_add_polygon(map, outer, 4, holes, counts, 1, NULL), ARCNAV_OK);
  add_rect(map, (vec){44, 180}, (vec){54, 190});
  add_rect(map, (vec){54, 180}, (vec){64, 190});
  vec hall[5] = {{74, 178}, {89, 178}, {104, 178}, {104, 196}, {74, 196}};
  vec court[3] = {{89, 178}, {84, 186}, {94, 186}};
  const arcnav_vec2 *courts[1] = {court};
  size_t court_counts[1] = {3};
  ck_assert_int_eq(arcnav_map_add_polygon(map, hall, 5, courts, court_counts, 1, NULL), ARCNAV_OK);
  add_rect(map, (vec){120, 176}, (vec){196, 198});
  add_rect(map, (vec){150, 182}, (vec){160, 190});
  ck_assert_uint_eq(arcnav_map_obstacle_count(map), 22);
  for (size_t k = 0; k < 22; ++k) {
    ids[k] = arcnav_map_obstacle_id(map, k);
  }
  return map;
}

START_TEST(buildings_of_the_built_map_change_locally) {
  static const planner_kind kinds[] = {
      {"funnel R=0", ARCNAV_ENGINE_AUTO, ARCNAV_TANGENT_GRAPH_AUTO, 0.0, 0.0},
      {"plain funnel R=0", ARCNAV_ENGINE_PLAIN_FUNNEL, ARCNAV_TANGENT_GRAPH_AUTO, 0.0, 0.0},
      {"auto max 8", ARCNAV_ENGINE_AUTO, ARCNAV_TANGENT_GRAPH_AUTO, 0.5, 8.0},
      {"interval max 3", ARCNAV_ENGINE_INTERVAL, ARCNAV_TANGENT_GRAPH_AUTO, 0.5, 3.0},
      {"on demand R=1.25", ARCNAV_ENGINE_TANGENT, ARCNAV_TANGENT_GRAPH_ON_DEMAND, 1.25, 0.0},
  };
  const planner_kind *kind = &kinds[_i];
  static const built_change changes[] = {
      {"a house of the grid down", 5, false, true},
      {"another moved", 6, true, true},
      {"the courtyard down", 16, false, true},
      {"a house wall to wall with another down", 17, false, false},
      {"the hall of two rings meeting at a vertex down", 19, false, false},
      {"the tower inside the keep down", 21, false, false},
      {"a house moved", 10, true, true},
      {"the same down, as moved", 10, false, true},
  };
  // Across the map, round the houses, into the keep and where the tower stood.
  vec ends[][2] = {{{5, 5}, {195, 170}},    {{195, 5}, {5, 170}},    {{2, 100}, {198, 100}},
                   {{100, 2}, {100, 174}},  {{40, 175}, {110, 199}}, {{155, 186}, {110, 150}},
                   {{130, 186}, {60, 100}}, {{69, 185}, {30, 60}}};
  size_t end_count = sizeof ends / sizeof ends[0];
  static const double radii[] = {0.0, 0.5, 2.0};
  arcnav_obstacle_id ids[22];
  arcnav_map *map = built_town(ids);
  arcnav_planner *planner = build_planner(map, kind);
  arcnav_query *query = NULL;
  ck_assert_int_eq(arcnav_query_create(planner, &query), ARCNAV_OK);
  arcnav_planner_def def = arcnav_default_planner_def();
  def.engine = kind->engine;
  def.tangent_graph = kind->graph;
  def.radius = kind->radius;
  def.max_radius = kind->max_radius;
  for (size_t c = 0; c < sizeof changes / sizeof changes[0]; ++c) {
    const built_change *change = &changes[c];
    if (change->move) {
      ck_assert_int_eq(arcnav_map_move_obstacle(map, ids[change->obstacle], (vec){0.25, 0.5}, NULL),
                       ARCNAV_OK);
    } else {
      ck_assert_int_eq(arcnav_map_remove_obstacle(map, ids[change->obstacle]), ARCNAV_OK);
    }
    char label[160];
    snprintf(label, sizeof label, "%s: %s", kind->name, change->what);
    ck_assert_msg(update_was_local(planner, map) == change->local, "%s: %s", label,
                  change->local ? "built in full" : "followed in place");
    for (size_t r = 0; r < (kind->max_radius > 0.0 ? 3 : 1); ++r) {
      if (kind->max_radius > 0.0) {
        ck_assert_int_eq(arcnav_query_set_radius(query, radii[r]), ARCNAV_OK);
      }
      expect_paths_of_a_fresh_planner(query, map, &def, ends, end_count, label);
    }
  }
  arcnav_query_destroy(query);
  arcnav_planner_destroy(planner);
  arcnav_map_destroy(map);
}
END_TEST

static Suite *living_map_suite(void) {
  Suite *suite = suite_create("living_map");
  TCase *tc = tcase_create("core");
  tcase_set_timeout(tc, 600);
  tcase_add_test(tc, ids_follow_their_obstacles);
  tcase_add_test(tc, a_moved_wall_opens_the_way);
  tcase_add_test(tc, no_path_between_parts_needs_no_search);
  tcase_add_test(tc, partial_path_to_the_nearest_place_that_fits);
  tcase_add_loop_test(tc, updates_equal_fresh_builds, 0, 6);
  tcase_add_loop_test(tc, updates_equal_fresh_builds_kept_seeds, 0,
                      sizeof KEPT_SEEDS / sizeof KEPT_SEEDS[0]);
  tcase_add_test(tc, local_updates_equal_fresh_builds);
  tcase_add_loop_test(tc, buildings_of_the_built_map_change_locally, 0, 5);
  tcase_add_test(tc, carried_parts_are_a_fresh_builds);
  tcase_add_test(tc, a_house_narrows_a_link_it_does_not_touch);
  tcase_add_test(tc, units_change_locally_as_fresh_builds);
  tcase_add_test(tc, forests_in_many_blocks_follow_local_changes);
  tcase_add_test(tc, a_unit_taken_away_widens_a_link);
  tcase_add_test(tc, a_changed_map_finds_tangents_on_demand);
  tcase_add_test(tc, a_building_outlives_a_units_change);
  tcase_add_loop_test(tc, a_renewed_query_object_forgets_the_old_map, 0, 2);
  tcase_add_loop_test(tc, renewed_funnel_query_objects_answer_as_new_ones, 0,
                      sizeof RENEWED_FUNNELS / sizeof RENEWED_FUNNELS[0]);
  tcase_add_loop_test(tc, failed_local_updates_change_nothing, 0, 2);
  tcase_add_loop_test(tc, shapes_clear_of_others_but_not_their_boxes_change_locally, 0, 4);
  tcase_add_loop_test(tc, failed_changes_change_nothing, 0, KIND_COUNT);
  suite_add_tcase(suite, tc);
  return suite;
}

int main(void) {
  SRunner *runner = srunner_create(living_map_suite());
  srunner_run_all(runner, CK_NORMAL);
  int failed = srunner_ntests_failed(runner);
  srunner_free(runner);
  return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
