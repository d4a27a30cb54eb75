// SPDX-License-Identifier: MIT
// Units (arcnav_map_add_unit) and the units a query ignores (arcnav_query_set_ignored). The
// oracle is a planner built from scratch on the map as the query sees it: the polygons and circles
// plus the units it does not ignore, as plain circles, searched over a prebuilt tangent graph (a
// different search over differently built data). Every status must be the same, every length
// equal to rounding, every path must pass the independent verifier on that map, and the probes
// (point test, clearance, raycast, nearest free point) must give the same answers. Units move
// between rounds and the planner is brought up to date: the ignore list keeps naming the same
// units.
#include "arcnav_test.h"
#include "mapgen.h"
#include "verify.h"

#include <stdio.h>

typedef arcnav_vec2 vec;

enum { MAX_UNITS = 24, MAX_IGNORED = 4 };

typedef struct scene {
  const sup_map *base; ///< polygons and plain circles
  arcnav_map *map;     ///< the base plus the units
  sup_circle units[MAX_UNITS];
  arcnav_obstacle_id ids[MAX_UNITS];
  size_t unit_count;
  vec lo, hi; ///< where units and ends are drawn
} scene;

typedef struct tally {
  size_t queries, found, no_path, blocked, ignored_at_start, probes;
} tally;

// The map as a query ignoring `ignored` sees it, with plain circles for the other units.
static sup_map seen_map(const scene *sc, const bool *ignored) {
  sup_map seen;
  sup_map_init(&seen);
  sup_map_copy(&seen, sc->base);
  for (size_t u = 0; u < sc->unit_count; ++u) {
    if (!ignored[u]) {
      sup_map_add_circle(&seen, sc->units[u].center, sc->units[u].radius);
    }
  }
  return seen;
}

static void add_units(scene *sc, sup_rng *rng, size_t count, double size) {
  for (size_t u = 0; u < count && sc->unit_count < MAX_UNITS; ++u) {
    vec c = {sup_rng_uniform(rng, sc->lo.x, sc->hi.x), sup_rng_uniform(rng, sc->lo.y, sc->hi.y)};
    double r = sup_rng_uniform(rng, 0.3, 1.5) * size;
    arcnav_obstacle_id id = 0;
    ck_assert_int_eq(arcnav_map_add_unit(sc->map, c, r, &id), ARCNAV_OK);
    ck_assert(id != 0 && arcnav_map_obstacle_is_unit(sc->map, id));
    sc->units[sc->unit_count] = (sup_circle){c, r};
    sc->ids[sc->unit_count++] = id;
  }
}

static arcnav_planner *oracle_planner(const sup_map *seen, double R, arcnav_map **out_map) {
  ck_assert_int_eq(sup_map_to_arcnav(seen, out_map), ARCNAV_OK);
  arcnav_planner_def def = arcnav_default_planner_def();
  def.engine = ARCNAV_ENGINE_TANGENT;
  def.tangent_graph = ARCNAV_TANGENT_GRAPH_PREBUILT;
  def.radius = R;
  arcnav_planner *planner = NULL;
  ck_assert_int_eq(arcnav_planner_create(*out_map, &def, &planner), ARCNAV_OK);
  return planner;
}

static bool near_equal(double a, double b) {
  return fabs(a - b) <= 1e-9 * (1.0 + fabs(a) + fabs(b));
}

// The probes on `query` (ignoring) against the oracle's at point p. Clearance is exact; a disk's
// stop and the nearest free point are exact to within the tolerance (arcnav.h), which is the map's
// and so differs between the two maps, whose extents differ by the ignored units: `slack`.
static void compare_probes(arcnav_query *query, arcnav_query *oracle, vec p, sup_rng *rng,
                           double slack, const char *label) {
  ck_assert_msg(arcnav_query_point_is_free(query, p) == arcnav_query_point_is_free(oracle, p),
                "%s: free test of (%.17g, %.17g) differs", label, p.x, p.y);
  arcnav_clearance got, want;
  ck_assert_int_eq(arcnav_query_clearance(query, p, &got), ARCNAV_OK);
  ck_assert_int_eq(arcnav_query_clearance(oracle, p, &want), ARCNAV_OK);
  ck_assert_msg(got.found == want.found && (!got.found || near_equal(got.distance, want.distance)),
                "%s: clearance at (%.17g, %.17g) %.17g, oracle %.17g", label, p.x, p.y,
                got.distance, want.distance);
  double angle = sup_rng_uniform(rng, 0.0, 2.0 * TEST_PI);
  vec dir = {cos(angle), sin(angle)};
  arcnav_ray_hit hit_got, hit_want;
  arcnav_status a = arcnav_query_raycast(query, p, dir, 200.0, &hit_got);
  arcnav_status b = arcnav_query_raycast(oracle, p, dir, 200.0, &hit_want);
  ck_assert_int_eq(a, b);
  if (a == ARCNAV_OK) {
    ck_assert_msg(hit_got.hit == hit_want.hit &&
                      (!hit_got.hit || fabs(hit_got.distance - hit_want.distance) <= slack),
                  "%s: raycast from (%.17g, %.17g) at %.17g: %d %.17g, oracle %d %.17g", label, p.x,
                  p.y, angle, hit_got.hit, hit_got.distance, hit_want.hit, hit_want.distance);
  }
  vec near_got, near_want;
  double d_got = 0.0, d_want = 0.0;
  a = arcnav_query_nearest_free(query, p, &near_got, &d_got);
  b = arcnav_query_nearest_free(oracle, p, &near_want, &d_want);
  ck_assert_int_eq(a, b);
  if (a == ARCNAV_OK) {
    ck_assert_msg(fabs(d_got - d_want) <= slack,
                  "%s: nearest free to (%.17g, %.17g) %.17g, oracle %.17g", label, p.x, p.y, d_got,
                  d_want);
  }
}

// Rounds of: an ignore list, an oracle for it, queries; then units move and the planner is
// brought up to date. `max_radius` > 0 makes a planner for every radius and queries at R and at
// R / 2.
static void compare_on(const sup_map *base, const char *label, uint64_t seed, double R,
                       double max_radius, size_t rounds, size_t queries, tally *t) {
  scene sc = {.base = base};
  ck_assert_int_eq(sup_map_to_arcnav(base, &sc.map), ARCNAV_OK);
  ck_assert(sup_map_extent(base, &sc.lo, &sc.hi));
  sup_rng rng = sup_rng_seed(seed * 104729 + 17);
  add_units(&sc, &rng, 4 + seed % 9, fmax(R, 1.0));
  arcnav_planner_def def = arcnav_default_planner_def();
  def.radius = R;
  def.max_radius = max_radius;
  arcnav_planner *planner = NULL;
  ck_assert_int_eq(arcnav_planner_create(sc.map, &def, &planner), ARCNAV_OK);
  ck_assert_int_eq(arcnav_planner_engine(planner), ARCNAV_ENGINE_TANGENT);
  arcnav_query *query = NULL;
  arcnav_path *got = NULL, *want = NULL;
  ck_assert_int_eq(arcnav_query_create(planner, &query), ARCNAV_OK);
  ck_assert_int_eq(arcnav_path_create(NULL, &got), ARCNAV_OK);
  ck_assert_int_eq(arcnav_path_create(NULL, &want), ARCNAV_OK);
  for (size_t round = 0; round < rounds; ++round) {
    double radius = max_radius > 0.0 && round % 2 == 1 ? 0.5 * R : R;
    ck_assert_int_eq(arcnav_query_set_radius(query, radius), ARCNAV_OK);
    bool ignored[MAX_UNITS] = {false};
    arcnav_obstacle_id list[MAX_IGNORED];
    size_t count = sup_rng_below(&rng, MAX_IGNORED + 1);
    for (size_t k = 0; k < count; ++k) {
      size_t u = sup_rng_below(&rng, sc.unit_count);
      ignored[u] = true;
      list[k] = sc.ids[u]; // a unit named twice is ignored once
    }
    ck_assert_int_eq(arcnav_query_set_ignored(query, list, count), ARCNAV_OK);
    sup_map seen = seen_map(&sc, ignored);
    arcnav_map *oracle_map = NULL;
    arcnav_planner *oracle = oracle_planner(&seen, radius, &oracle_map);
    arcnav_query *oracle_query = NULL;
    ck_assert_int_eq(arcnav_query_create(oracle, &oracle_query), ARCNAV_OK);
    double eps = arcnav_map_tolerance(oracle_map);
    for (size_t q = 0; q < queries; ++q) {
      vec s, g;
      // Half the starts sit on an ignored unit, as a unit's own start does.
      if (count > 0 && q % 2 == 0) {
        s = sc.units[sup_rng_below(&rng, sc.unit_count)].center;
        for (size_t u = 0; u < sc.unit_count; ++u) {
          if (ignored[u] && sup_rng_below(&rng, 2) == 0) {
            s = sc.units[u].center;
          }
        }
      } else if (!sup_random_free_point(&seen, radius, &rng, sc.lo, sc.hi, 0.0, 200, &s)) {
        continue;
      }
      if (!sup_random_free_point(&seen, 0.0, &rng, sc.lo, sc.hi, 0.0, 200, &g)) {
        continue;
      }
      char where[256];
      snprintf(where, sizeof where, "%s seed %llu round %zu R %g (%.17g, %.17g) -> (%.17g, %.17g)",
               label, (unsigned long long)seed, round, radius, s.x, s.y, g.x, g.y);
      arcnav_status expected = arcnav_find_path(oracle_query, s, g, want);
      arcnav_status status = arcnav_find_path(query, s, g, got);
      t->queries++;
      ck_assert_msg(status == expected, "%s: oracle %s, ignoring %s", where,
                    arcnav_status_name(expected), arcnav_status_name(status));
      if (q % 4 == 1) {
        double slack = 2.0 * fmax(eps, arcnav_map_tolerance(sc.map));
        compare_probes(query, oracle_query, s, &rng, slack, where);
        t->probes++;
      }
      if (status != ARCNAV_OK) {
        t->no_path += status == ARCNAV_NO_PATH;
        t->blocked += status == ARCNAV_START_BLOCKED || status == ARCNAV_GOAL_BLOCKED;
        continue;
      }
      t->found++;
      bool on_ignored = false;
      for (size_t u = 0; u < sc.unit_count; ++u) {
        on_ignored = on_ignored ||
                     (ignored[u] && s.x == sc.units[u].center.x && s.y == sc.units[u].center.y);
      }
      t->ignored_at_start += on_ignored;
      double a = arcnav_path_length(want), b = arcnav_path_length(got);
      ck_assert_msg(near_equal(a, b), "%s: oracle %.17g, ignoring %.17g", where, a, b);
      sup_verify_report report;
      ck_assert_msg(sup_verify_path(&seen, radius, eps, s, g, got, &report),
                    "%s: the path fails the verifier: %s", where, report.message);
    }
    arcnav_query_destroy(oracle_query);
    arcnav_planner_destroy(oracle);
    arcnav_map_destroy(oracle_map);
    sup_map_free(&seen);
    // Units walk on; the planner is brought up to date and the list names the same units.
    for (size_t u = 0; u < sc.unit_count; ++u) {
      if (sup_rng_below(&rng, 2) == 0) {
        vec by = {sup_rng_uniform(&rng, -3.0, 3.0), sup_rng_uniform(&rng, -3.0, 3.0)};
        ck_assert_int_eq(arcnav_map_move_obstacle(sc.map, sc.ids[u], by, NULL), ARCNAV_OK);
        sc.units[u].center.x += by.x;
        sc.units[u].center.y += by.y;
      }
    }
    ck_assert_int_eq(arcnav_planner_update(planner, sc.map), ARCNAV_OK);
  }
  arcnav_path_destroy(got);
  arcnav_path_destroy(want);
  arcnav_query_destroy(query);
  arcnav_planner_destroy(planner);
  arcnav_map_destroy(sc.map);
}

static void report(const char *label, const tally *t) {
  printf("units, %s: %zu queries, %zu found (%zu from a start on an ignored unit), %zu no path, "
         "%zu blocked, %zu probe sets\n",
         label, t->queries, t->found, t->ignored_at_start, t->no_path, t->blocked, t->probes);
}

START_TEST(test_mixed_maps) {
  tally t = {0};
  for (uint64_t seed = 1; seed <= test_scaled_count(12); ++seed) {
    double hint = 2.0 + (double)(seed % 3);
    sup_map m = sup_gen_mixed(seed, 5 + seed % 8, 100.0, hint);
    compare_on(&m, "mixed", seed, 0.7 * hint, seed % 2 ? 0.0 : 1.2 * hint, 4, 16, &t);
    sup_map_free(&m);
  }
  report("mixed", &t);
  ck_assert_uint_ge(t.found, test_scaled_minimum(250, 12));
  ck_assert_uint_ge(t.ignored_at_start, test_scaled_minimum(40, 12));
  ck_assert_uint_ge(t.no_path + t.blocked, 1);
}
END_TEST

START_TEST(test_towns) {
  tally t = {0};
  for (uint64_t seed = 1; seed <= test_scaled_count(6); ++seed) {
    double R = 2.0;
    sup_map m = sup_gen_town(seed, 3, 30.0, 2.0 * R * 1.6, 2.0 * R * 0.9, 2.0 * R * 1.1);
    compare_on(&m, "town", seed, R, seed % 2 ? 0.0 : 2.0 * R, 4, 24, &t);
    sup_map_free(&m);
  }
  report("town", &t);
  ck_assert_uint_ge(t.found, test_scaled_minimum(100, 6));
}
END_TEST

// A unit of radius 1 at the start of a disk of radius 1 in a corridor 3 wide (the bounds): the
// unit's own start is blocked by itself until it ignores itself; another unit in the corridor
// closes it until the query ignores that one too.
START_TEST(test_hand_worked) {
  arcnav_map *map = NULL;
  ck_assert_int_eq(arcnav_map_create(NULL, &map), ARCNAV_OK);
  vec corridor[4] = {{0, 0}, {40, 0}, {40, 3}, {0, 3}};
  ck_assert_int_eq(arcnav_map_set_bounds(map, corridor, 4, NULL), ARCNAV_OK);
  arcnav_obstacle_id self = 0, blocker = 0;
  ck_assert_int_eq(arcnav_map_add_unit(map, (vec){5, 1.5}, 1.0, &self), ARCNAV_OK);
  ck_assert_int_eq(arcnav_map_add_unit(map, (vec){20, 1.5}, 1.0, &blocker), ARCNAV_OK);
  double eps = arcnav_map_tolerance(map); // a disk stops within it of contact
  arcnav_planner_def def = arcnav_default_planner_def();
  def.radius = 1.0;
  arcnav_planner *planner = NULL;
  ck_assert_int_eq(arcnav_planner_create(map, &def, &planner), ARCNAV_OK);
  arcnav_planner_info info;
  arcnav_planner_get_info(planner, &info);
  ck_assert_uint_eq(info.node_count, 0); // tangents on demand
  arcnav_query *query = NULL;
  arcnav_path *path = NULL;
  ck_assert_int_eq(arcnav_query_create(planner, &query), ARCNAV_OK);
  ck_assert_int_eq(arcnav_path_create(NULL, &path), ARCNAV_OK);
  vec start = {5, 1.5}, goal = {35, 1.5};
  ck_assert_int_eq(arcnav_find_path(query, start, goal, path), ARCNAV_START_BLOCKED);
  ck_assert(!arcnav_query_point_is_free(query, start));
  ck_assert_int_eq(arcnav_query_set_ignored(query, &self, 1), ARCNAV_OK);
  ck_assert(arcnav_query_point_is_free(query, start));
  ck_assert_int_eq(arcnav_find_path(query, start, goal, path), ARCNAV_NO_PATH);
  arcnav_ray_hit hit;
  ck_assert_int_eq(arcnav_query_raycast(query, start, (vec){1, 0}, 100.0, &hit), ARCNAV_OK);
  ck_assert(hit.hit);
  ck_assert_double_eq_tol(hit.distance, 13.0, 2.0 * eps); // centres 2 apart at contact: 20 - 2 - 5
  arcnav_obstacle_id both[2] = {self, blocker};
  ck_assert_int_eq(arcnav_query_set_ignored(query, both, 2), ARCNAV_OK);
  ck_assert_int_eq(arcnav_find_path(query, start, goal, path), ARCNAV_OK);
  ck_assert_double_eq_tol(arcnav_path_length(path), 30.0, 1e-9);
  ck_assert_int_eq(arcnav_query_raycast(query, start, (vec){1, 0}, 100.0, &hit), ARCNAV_OK);
  ck_assert(hit.hit);
  ck_assert_double_eq_tol(hit.distance, 34.0, 2.0 * eps); // the corridor's end: 40 - 1 - 5
  // The blocker leaves the corridor; brought up to date, the planner no longer needs it ignored.
  ck_assert_int_eq(arcnav_query_set_ignored(query, &self, 1), ARCNAV_OK);
  ck_assert_int_eq(arcnav_map_move_obstacle(map, blocker, (vec){30, 0}, NULL), ARCNAV_OK);
  ck_assert_int_eq(arcnav_planner_update(planner, map), ARCNAV_OK);
  ck_assert_int_eq(arcnav_find_path(query, start, goal, path), ARCNAV_OK);
  ck_assert_double_eq_tol(arcnav_path_length(path), 30.0, 1e-9);
  // Without the list the unit is in its own way again.
  ck_assert_int_eq(arcnav_query_set_ignored(query, NULL, 0), ARCNAV_OK);
  ck_assert_int_eq(arcnav_find_path(query, start, goal, path), ARCNAV_START_BLOCKED);
  arcnav_path_destroy(path);
  arcnav_query_destroy(query);
  arcnav_planner_destroy(planner);
  arcnav_map_destroy(map);
}
END_TEST

// A disk turning round a unit that touches a building gathers its tangents through the grid
// (not the sight mesh), where an ignored unit must hide nothing: unit A sits on a box, the
// ignored unit B on the tangent from A to the goal. The answer is the oracle's, which has no B.
START_TEST(test_ignored_unit_hides_nothing) {
  sup_map base;
  sup_map_init(&base);
  sup_map_add_rect(&base, 9.0, -10.0, 11.0, -1.0);
  sup_map_add_circle(&base, (vec){10.0, 0.0}, 1.0);
  arcnav_map *map = NULL;
  ck_assert_int_eq(sup_map_to_arcnav(&base, &map), ARCNAV_OK);
  arcnav_obstacle_id hidden = 0;
  ck_assert_int_eq(arcnav_map_add_unit(map, (vec){15.0, 1.0}, 0.5, &hidden), ARCNAV_OK);
  arcnav_planner_def def = arcnav_default_planner_def();
  def.radius = 1.0;
  arcnav_planner *planner = NULL;
  arcnav_query *query = NULL;
  arcnav_path *path = NULL, *want = NULL;
  ck_assert_int_eq(arcnav_planner_create(map, &def, &planner), ARCNAV_OK);
  ck_assert_int_eq(arcnav_query_create(planner, &query), ARCNAV_OK);
  ck_assert_int_eq(arcnav_path_create(NULL, &path), ARCNAV_OK);
  ck_assert_int_eq(arcnav_path_create(NULL, &want), ARCNAV_OK);
  ck_assert_int_eq(arcnav_query_set_ignored(query, &hidden, 1), ARCNAV_OK);
  vec start = {0.0, 0.0}, goal = {20.0, 0.0};
  ck_assert_int_eq(arcnav_find_path(query, start, goal, path), ARCNAV_OK);
  arcnav_map *oracle_map = NULL;
  arcnav_planner *oracle = oracle_planner(&base, 1.0, &oracle_map);
  arcnav_query *oracle_query = NULL;
  ck_assert_int_eq(arcnav_query_create(oracle, &oracle_query), ARCNAV_OK);
  ck_assert_int_eq(arcnav_find_path(oracle_query, start, goal, want), ARCNAV_OK);
  ck_assert_msg(near_equal(arcnav_path_length(path), arcnav_path_length(want)),
                "ignoring %.17g, oracle %.17g", arcnav_path_length(path), arcnav_path_length(want));
  sup_verify_report report;
  ck_assert_msg(sup_verify_path(&base, 1.0, arcnav_map_tolerance(map), start, goal, path, &report),
                "%s", report.message);
  // Not ignored, B is in the way: the path is longer.
  ck_assert_int_eq(arcnav_query_set_ignored(query, NULL, 0), ARCNAV_OK);
  ck_assert_int_eq(arcnav_find_path(query, start, goal, path), ARCNAV_OK);
  ck_assert(arcnav_path_length(path) > arcnav_path_length(want) + 1e-6);
  arcnav_query_destroy(oracle_query);
  arcnav_planner_destroy(oracle);
  arcnav_map_destroy(oracle_map);
  arcnav_path_destroy(path);
  arcnav_path_destroy(want);
  arcnav_query_destroy(query);
  arcnav_planner_destroy(planner);
  arcnav_map_destroy(map);
  sup_map_free(&base);
}
END_TEST

// The nearest free point's quick no remembers the item that said no last (for the next point
// along the same wall): a unit that said it must not keep saying it once the query ignores the
// unit. A box and a unit over its top edge; the nearest free point to (50, 48.6) is asked first
// not ignoring (the box's offset line at (50, 49) lies within the unit's reach), then ignoring,
// where (50, 49) is the answer: the oracle's, which has no unit.
START_TEST(test_ignored_unit_says_no_no_more) {
  sup_map base;
  sup_map_init(&base);
  sup_map_add_rect(&base, 40.0, 40.0, 60.0, 48.0);
  arcnav_map *map = NULL;
  ck_assert_int_eq(sup_map_to_arcnav(&base, &map), ARCNAV_OK);
  arcnav_obstacle_id unit = 0;
  ck_assert_int_eq(arcnav_map_add_unit(map, (vec){50.0, 50.5}, 1.0, &unit), ARCNAV_OK);
  arcnav_planner_def def = arcnav_default_planner_def();
  def.radius = 1.0;
  arcnav_planner *planner = NULL;
  arcnav_query *query = NULL;
  ck_assert_int_eq(arcnav_planner_create(map, &def, &planner), ARCNAV_OK);
  ck_assert_int_eq(arcnav_query_create(planner, &query), ARCNAV_OK);
  arcnav_map *oracle_map = NULL;
  arcnav_planner *oracle = oracle_planner(&base, 1.0, &oracle_map);
  arcnav_query *oracle_query = NULL;
  ck_assert_int_eq(arcnav_query_create(oracle, &oracle_query), ARCNAV_OK);
  double slack = 2.0 * fmax(arcnav_map_tolerance(map), arcnav_map_tolerance(oracle_map));
  vec p = {50.0, 48.6}, near = {0, 0}, want = {0, 0};
  double d = 0.0, d_want = 0.0;
  ck_assert_int_eq(arcnav_query_nearest_free(query, p, &near, &d), ARCNAV_OK);
  ck_assert_msg(d > 0.9, "not ignoring: %.17g", d); // the unit keeps it off (50, 49)
  ck_assert_int_eq(arcnav_query_set_ignored(query, &unit, 1), ARCNAV_OK);
  ck_assert_int_eq(arcnav_query_nearest_free(query, p, &near, &d), ARCNAV_OK);
  ck_assert_int_eq(arcnav_query_nearest_free(oracle_query, p, &want, &d_want), ARCNAV_OK);
  ck_assert_msg(fabs(d - d_want) <= slack, "ignoring %.17g, oracle %.17g", d, d_want);
  ck_assert_double_eq_tol(d_want, 0.4, slack);
  arcnav_query_destroy(oracle_query);
  arcnav_planner_destroy(oracle);
  arcnav_map_destroy(oracle_map);
  arcnav_query_destroy(query);
  arcnav_planner_destroy(planner);
  arcnav_map_destroy(map);
  sup_map_free(&base);
}
END_TEST

START_TEST(test_refusals) {
  arcnav_map *map = NULL;
  ck_assert_int_eq(arcnav_map_create(NULL, &map), ARCNAV_OK);
  vec box[4] = {{10, 10}, {20, 10}, {20, 20}, {10, 20}};
  ck_assert_int_eq(arcnav_map_add_polygon(map, box, 4, NULL, NULL, 0, NULL), ARCNAV_OK);
  arcnav_obstacle_id building = arcnav_map_obstacle_id(map, 0), unit = 0;
  ck_assert_int_eq(arcnav_map_add_unit(map, (vec){0, 0}, 1.0, &unit), ARCNAV_OK);
  ck_assert(!arcnav_map_obstacle_is_unit(map, building));
  ck_assert(!arcnav_map_obstacle_is_unit(NULL, unit));
  arcnav_obstacle_id none = 0;
  ck_assert_int_eq(arcnav_map_add_unit(map, (vec){NAN, 0}, 1.0, &none), ARCNAV_ERR_NOT_FINITE);
  ck_assert(none == 0);
  ck_assert_int_eq(arcnav_map_add_unit(map, (vec){0, 0}, -1.0, NULL), ARCNAV_ERR_NEGATIVE_RADIUS);
  ck_assert_int_eq(arcnav_map_add_unit(NULL, (vec){0, 0}, 1.0, NULL), ARCNAV_ERR_INVALID_ARGUMENT);
  ck_assert_uint_eq(arcnav_map_obstacle_count(map), 2);

  arcnav_planner_def def = arcnav_default_planner_def();
  def.radius = 1.0;
  arcnav_planner *planner = NULL;
  arcnav_query *query = NULL;
  arcnav_path *path = NULL;
  ck_assert_int_eq(arcnav_path_create(NULL, &path), ARCNAV_OK);
  ck_assert_int_eq(arcnav_planner_create(map, &def, &planner), ARCNAV_OK);
  ck_assert_int_eq(arcnav_query_create(planner, &query), ARCNAV_OK);
  ck_assert_int_eq(arcnav_query_set_ignored(NULL, &unit, 1), ARCNAV_ERR_INVALID_ARGUMENT);
  ck_assert_int_eq(arcnav_query_set_ignored(query, NULL, 1), ARCNAV_ERR_INVALID_ARGUMENT);
  ck_assert_int_eq(arcnav_query_set_ignored(query, &building, 1), ARCNAV_ERR_INVALID_ARGUMENT);
  arcnav_obstacle_id made_up = unit + ((uint64_t)7 << 32);
  ck_assert_int_eq(arcnav_query_set_ignored(query, &made_up, 1), ARCNAV_ERR_STALE_ID);
  // A refused list leaves the old one: the unit still blocks its own start.
  ck_assert_int_eq(arcnav_find_path(query, (vec){0, 0}, (vec){30, 0}, path), ARCNAV_START_BLOCKED);
  // A unit the planner has not been brought up to date with is not known to it yet.
  arcnav_obstacle_id later = 0;
  ck_assert_int_eq(arcnav_map_add_unit(map, (vec){40, 0}, 1.0, &later), ARCNAV_OK);
  ck_assert_int_eq(arcnav_query_set_ignored(query, &later, 1), ARCNAV_ERR_STALE_ID);
  ck_assert_int_eq(arcnav_planner_update(planner, map), ARCNAV_OK);
  ck_assert_int_eq(arcnav_query_set_ignored(query, &later, 1), ARCNAV_OK);
  // Removed and brought up to date: the id is stale, and the list ignores nothing.
  ck_assert_int_eq(arcnav_map_remove_obstacle(map, later), ARCNAV_OK);
  ck_assert_int_eq(arcnav_planner_update(planner, map), ARCNAV_OK);
  ck_assert_int_eq(arcnav_find_path(query, (vec){0, 5}, (vec){30, 0}, path), ARCNAV_OK);
  ck_assert_int_eq(arcnav_query_set_ignored(query, &later, 1), ARCNAV_ERR_STALE_ID);
  arcnav_query_destroy(query);
  arcnav_planner_destroy(planner);

  // Engines that cannot ignore: a prebuilt graph asked for, a point agent, a funnel.
  struct {
    arcnav_engine engine;
    arcnav_tangent_graph graph;
    double radius, max_radius, query_radius;
  } cannot[] = {
      {ARCNAV_ENGINE_TANGENT, ARCNAV_TANGENT_GRAPH_PREBUILT, 1.0, 0.0, 1.0},
      {ARCNAV_ENGINE_AUTO, ARCNAV_TANGENT_GRAPH_AUTO, 0.0, 0.0, 0.0},
      {ARCNAV_ENGINE_FUNNEL, ARCNAV_TANGENT_GRAPH_AUTO, 0.0, 0.0, 0.0},
      {ARCNAV_ENGINE_PLAIN_FUNNEL, ARCNAV_TANGENT_GRAPH_AUTO, 1.0, 0.0, 1.0},
      {ARCNAV_ENGINE_AUTO, ARCNAV_TANGENT_GRAPH_AUTO, 1.0, 3.0, 0.0},
  };
  for (size_t k = 0; k < sizeof cannot / sizeof cannot[0]; ++k) {
    def = arcnav_default_planner_def();
    def.engine = cannot[k].engine;
    def.tangent_graph = cannot[k].graph;
    def.radius = cannot[k].radius;
    def.max_radius = cannot[k].max_radius;
    ck_assert_int_eq(arcnav_planner_create(map, &def, &planner), ARCNAV_OK);
    ck_assert_int_eq(arcnav_query_create(planner, &query), ARCNAV_OK);
    ck_assert_int_eq(arcnav_query_set_radius(query, cannot[k].query_radius), ARCNAV_OK);
    ck_assert_int_eq(arcnav_query_set_ignored(query, NULL, 0), ARCNAV_OK);
    ck_assert_msg(arcnav_query_set_ignored(query, &unit, 1) == ARCNAV_ERR_INVALID_ARGUMENT,
                  "case %zu accepts an ignore list", k);
    ck_assert_int_ne(arcnav_find_path(query, (vec){0, 5}, (vec){30, 0}, path),
                     ARCNAV_ERR_INVALID_ARGUMENT);
    if (cannot[k].max_radius > 0.0) {
      // At a disk's radius it can; back at a point's, its searches and probes refuse the list.
      ck_assert_int_eq(arcnav_query_set_radius(query, 1.0), ARCNAV_OK);
      ck_assert_int_eq(arcnav_query_set_ignored(query, &unit, 1), ARCNAV_OK);
      ck_assert_int_eq(arcnav_find_path(query, (vec){0, 0}, (vec){30, 0}, path), ARCNAV_OK);
      ck_assert_int_eq(arcnav_query_set_radius(query, 0.0), ARCNAV_OK);
      ck_assert_int_eq(arcnav_find_path(query, (vec){0, 0}, (vec){30, 0}, path),
                       ARCNAV_ERR_INVALID_ARGUMENT);
      arcnav_clearance clearance;
      ck_assert_int_eq(arcnav_query_clearance(query, (vec){0, 5}, &clearance),
                       ARCNAV_ERR_INVALID_ARGUMENT);
      ck_assert(!arcnav_query_point_is_free(query, (vec){0, 5}));
    }
    arcnav_query_destroy(query);
    arcnav_planner_destroy(planner);
  }
  arcnav_path_destroy(path);
  arcnav_map_destroy(map);
}
END_TEST

// Every allocation of setting a list and of a search that ignores, failing in turn: the call
// reports running out of memory, and the next one, with nothing failing, answers as a run
// without failures does.
START_TEST(test_allocation_failures) {
  sup_map base = sup_gen_mixed(5, 8, 100.0, 2.0);
  double R = 1.5;
  vec lo, hi, start, goal;
  ck_assert(sup_map_extent(&base, &lo, &hi));
  sup_rng rng = sup_rng_seed(11);
  ck_assert(sup_random_free_point(&base, R + 1.0, &rng, lo, hi, 0.0, 1000, &start));
  ck_assert(sup_random_free_point(&base, R, &rng, lo, hi, 0.0, 1000, &goal));
  size_t failures = 0;
  for (long n = 0;; ++n) {
    test_allocator counting = test_allocator_make();
    arcnav_allocator hooks = test_allocator_hooks(&counting);
    arcnav_map *map = NULL;
    ck_assert_int_eq(sup_map_to_arcnav_with(&base, &hooks, &map), ARCNAV_OK);
    arcnav_obstacle_id self = 0;
    ck_assert_int_eq(arcnav_map_add_unit(map, start, 1.0, &self), ARCNAV_OK);
    arcnav_planner_def def = arcnav_default_planner_def();
    def.radius = R;
    arcnav_planner *planner = NULL;
    arcnav_query *query = NULL;
    arcnav_path *path = NULL;
    ck_assert_int_eq(arcnav_planner_create(map, &def, &planner), ARCNAV_OK);
    ck_assert_int_eq(arcnav_query_create(planner, &query), ARCNAV_OK);
    ck_assert_int_eq(arcnav_path_create(NULL, &path), ARCNAV_OK);
    long first = counting.calls;
    counting.fail_at = first + n;
    arcnav_status set = arcnav_query_set_ignored(query, &self, 1);
    arcnav_status found = arcnav_find_path(query, start, goal, path);
    bool failed = counting.calls > first + n;
    counting.fail_at = -1;
    if (set == ARCNAV_ERR_OUT_OF_MEMORY) {
      ck_assert_int_eq(found, ARCNAV_START_BLOCKED); // the old list: the unit blocks its start
      ck_assert_int_eq(arcnav_query_set_ignored(query, &self, 1), ARCNAV_OK);
    } else {
      ck_assert_int_eq(set, ARCNAV_OK);
      ck_assert_msg(found == ARCNAV_OK || (failed && found == ARCNAV_ERR_OUT_OF_MEMORY),
                    "failing allocation %ld: %s", n, arcnav_status_name(found));
    }
    failures += failed;
    ck_assert_int_eq(arcnav_find_path(query, start, goal, path), ARCNAV_OK);
    ck_assert(arcnav_path_length(path) >= hypot(goal.x - start.x, goal.y - start.y) - 1e-9);
    arcnav_path_destroy(path);
    arcnav_query_destroy(query);
    arcnav_planner_destroy(planner);
    arcnav_map_destroy(map);
    ck_assert_int_eq(counting.live, 0);
    if (!failed) {
      break;
    }
  }
  ck_assert_uint_ge(failures, 2); // the list's copy and its mask at least
  sup_map_free(&base);
}
END_TEST

int main(void) {
  Suite *suite = suite_create("units");
  TCase *oracle = tcase_create("against planners built without the ignored units");
  tcase_set_timeout(oracle, 600);
  tcase_add_test(oracle, test_mixed_maps);
  tcase_add_test(oracle, test_towns);
  suite_add_tcase(suite, oracle);
  TCase *cases = tcase_create("cases");
  tcase_set_timeout(cases, 120);
  tcase_add_test(cases, test_hand_worked);
  tcase_add_test(cases, test_ignored_unit_hides_nothing);
  tcase_add_test(cases, test_ignored_unit_says_no_no_more);
  tcase_add_test(cases, test_refusals);
  tcase_add_test(cases, test_allocation_failures);
  suite_add_tcase(suite, cases);
  SRunner *runner = srunner_create(suite);
  srunner_run_all(runner, CK_NORMAL);
  int failed = srunner_ntests_failed(runner);
  srunner_free(runner);
  return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
