// SPDX-License-Identifier: MIT
// One planner for several radii (arcnav_planner_def.max_radius, arcnav_query_set_radius) against
// planners built for one radius each: every status must be the same and every length equal to
// rounding, and every path of the ranged planner must pass the independent verifier. Each map is
// asked of two ranged planners: one of engine AUTO or TANGENT (tangents on demand), and one of
// engine INTERVAL (the interval search for a disk). The planners of one radius use the prebuilt
// tangent graph, a different search over differently built data; test_property checks that graph
// against a brute-force reference. Radii change from query to query on the same query object, so
// anything a query object keeps for its radius is exercised.
#include "arcnav_test.h"
#include "mapgen.h"
#include "verify.h"

#include <stdio.h>
#include <stdlib.h>

typedef arcnav_vec2 vec;

enum { MAX_RADII = 6 };

typedef struct single {
  arcnav_planner *planner;
  arcnav_query *query;
} single;

typedef struct tally {
  size_t queries, found, no_path, blocked, point_agent;
  size_t interval_found; ///< paths the interval engine's ranged planner found at R > 0
} tally;

enum { RANGED_COUNT = 2 }; // the ranged planners of one map: the engine asked, and INTERVAL

static single build_single(const arcnav_map *map, double radius) {
  single s = {NULL, NULL};
  arcnav_planner_def def = arcnav_default_planner_def();
  def.engine = ARCNAV_ENGINE_TANGENT;
  def.tangent_graph = ARCNAV_TANGENT_GRAPH_PREBUILT;
  def.radius = radius;
  ck_assert_int_eq(arcnav_planner_create(map, &def, &s.planner), ARCNAV_OK);
  ck_assert_int_eq(arcnav_query_create(s.planner, &s.query), ARCNAV_OK);
  return s;
}

// Queries at radii drawn from `radii` in turn on one query object of a planner built once for
// the largest of them (engine AUTO or TANGENT, and again engine INTERVAL), each against the
// planner built for its radius.
static void compare_on(const sup_map *generated, const char *label, uint64_t seed,
                       arcnav_engine engine, const double *radii, size_t radius_count,
                       size_t queries, tally *t) {
  ck_assert_uint_le(radius_count, MAX_RADII);
  arcnav_map *map = NULL;
  ck_assert_int_eq(sup_map_to_arcnav(generated, &map), ARCNAV_OK);
  double eps = arcnav_map_tolerance(map);
  double largest = 0.0;
  single singles[MAX_RADII];
  for (size_t r = 0; r < radius_count; ++r) {
    largest = fmax(largest, radii[r]);
    singles[r] = build_single(map, radii[r]);
  }
  const arcnav_engine engines[RANGED_COUNT] = {engine, ARCNAV_ENGINE_INTERVAL};
  arcnav_planner *ranged[RANGED_COUNT];
  arcnav_query *ranged_query[RANGED_COUNT];
  for (size_t k = 0; k < RANGED_COUNT; ++k) {
    arcnav_planner_def def = arcnav_default_planner_def();
    def.engine = engines[k];
    def.radius = radii[0];
    def.max_radius = largest;
    ck_assert_int_eq(arcnav_planner_create(map, &def, &ranged[k]), ARCNAV_OK);
    ck_assert(arcnav_planner_max_radius(ranged[k]) == largest);
    ck_assert_int_eq(arcnav_query_create(ranged[k], &ranged_query[k]), ARCNAV_OK);
    ck_assert(arcnav_query_radius(ranged_query[k]) == radii[0]);
  }
  arcnav_path *want = NULL, *got = NULL;
  ck_assert_int_eq(arcnav_path_create(NULL, &want), ARCNAV_OK);
  ck_assert_int_eq(arcnav_path_create(NULL, &got), ARCNAV_OK);

  vec lo, hi;
  ck_assert(sup_map_extent(generated, &lo, &hi));
  double pad = 0.05 * fmax(hi.x - lo.x, hi.y - lo.y);
  vec box_lo = {lo.x - pad, lo.y - pad}, box_hi = {hi.x + pad, hi.y + pad};
  sup_rng rng = sup_rng_seed(seed * 7919 + radius_count);
  for (size_t q = 0; q < queries; ++q) {
    size_t r = sup_rng_below(&rng, radius_count);
    double R = radii[r];
    vec s, g;
    // Ends free for the smallest radius asked, so that larger ones meet blocked ends too.
    if (!sup_random_free_point(generated, 0.0, &rng, box_lo, box_hi, 0.0, 500, &s) ||
        !sup_random_free_point(generated, 0.0, &rng, box_lo, box_hi, 0.0, 500, &g)) {
      continue;
    }
    arcnav_status expected = arcnav_find_path(singles[r].query, s, g, want);
    t->queries++;
    t->point_agent += R == 0.0;
    for (size_t k = 0; k < RANGED_COUNT; ++k) {
      arcnav_query *query = ranged_query[k];
      ck_assert_int_eq(arcnav_query_set_radius(query, R), ARCNAV_OK);
      ck_assert(arcnav_query_radius(query) == R);
      ck_assert_msg(arcnav_query_point_is_free(query, s) ==
                        arcnav_query_point_is_free(singles[r].query, s),
                    "%s seed %llu R %g, ranged engine %d: free test of (%.17g, %.17g) differs",
                    label, (unsigned long long)seed, R, (int)engines[k], s.x, s.y);
      arcnav_status status = arcnav_find_path(query, s, g, got);
      ck_assert_msg(status == expected,
                    "%s seed %llu R %g (%.17g, %.17g) -> (%.17g, %.17g): one radius %s, ranged "
                    "engine %d %s",
                    label, (unsigned long long)seed, R, s.x, s.y, g.x, g.y,
                    arcnav_status_name(expected), (int)engines[k], arcnav_status_name(status));
      if (status != ARCNAV_OK) {
        if (k == 0) {
          t->no_path += status == ARCNAV_NO_PATH;
          t->blocked += status == ARCNAV_START_BLOCKED || status == ARCNAV_GOAL_BLOCKED;
        }
        continue;
      }
      t->found += k == 0;
      t->interval_found += k == 1 && R > 0.0;
      double a = arcnav_path_length(want), b = arcnav_path_length(got);
      ck_assert_msg(fabs(a - b) <= 1e-9 * (1.0 + a),
                    "%s seed %llu R %g (%.17g, %.17g) -> (%.17g, %.17g): one radius %.17g, ranged "
                    "engine %d %.17g",
                    label, (unsigned long long)seed, R, s.x, s.y, g.x, g.y, a, (int)engines[k], b);
      sup_verify_report report;
      ck_assert_msg(sup_verify_path(generated, R, eps, s, g, got, &report),
                    "%s seed %llu R %g: ranged engine %d's path fails the verifier: %s", label,
                    (unsigned long long)seed, R, (int)engines[k], report.message);
    }
  }
  arcnav_path_destroy(want);
  arcnav_path_destroy(got);
  for (size_t k = 0; k < RANGED_COUNT; ++k) {
    arcnav_query_destroy(ranged_query[k]);
    arcnav_planner_destroy(ranged[k]);
  }
  for (size_t r = 0; r < radius_count; ++r) {
    arcnav_query_destroy(singles[r].query);
    arcnav_planner_destroy(singles[r].planner);
  }
  arcnav_map_destroy(map);
}

START_TEST(test_mixed_maps) {
  tally t = {0};
  for (uint64_t seed = 1; seed <= test_scaled_count(16); ++seed) {
    double hint = 2.0 + (double)(seed % 3);
    sup_map m = sup_gen_mixed(seed, 6 + seed % 10, 100.0, hint);
    double radii[4] = {0.4 * hint, 0.0, 1.1 * hint, 0.05 * hint};
    compare_on(&m, "mixed", seed, seed % 2 ? ARCNAV_ENGINE_AUTO : ARCNAV_ENGINE_TANGENT, radii, 4,
               40, &t);
    sup_map_free(&m);
  }
  printf("ranged, mixed: %zu queries (%zu at R = 0), %zu found (interval engine: %zu at R > 0), "
         "%zu no path, %zu blocked\n",
         t.queries, t.point_agent, t.found, t.interval_found, t.no_path, t.blocked);
  ck_assert_uint_ge(t.found, test_scaled_minimum(300, 16));
  ck_assert_uint_ge(t.interval_found, test_scaled_minimum(150, 16));
  ck_assert_uint_ge(t.no_path + t.blocked, 1);
}
END_TEST

START_TEST(test_rectangles_mazes_towns) {
  tally t = {0};
  for (uint64_t seed = 1; seed <= test_scaled_count(3); ++seed) {
    double radii[4] = {3.0, 12.0, 0.0, 7.5};
    sup_map rects = sup_gen_random_rectangles(seed, 60, 600.0, 10.0, 60.0);
    compare_on(&rects, "rectangles", seed, ARCNAV_ENGINE_AUTO, radii, 4, 40, &t);
    sup_map_free(&rects);
    sup_map maze = sup_gen_maze(seed, 6, 40.0, 4.0);
    compare_on(&maze, "maze", seed, ARCNAV_ENGINE_AUTO, radii, 4, 30, &t);
    sup_map_free(&maze);
    sup_map town = sup_gen_town(seed, 3, 60.0, 16.0, 5.0, 8.0);
    double town_radii[3] = {3.2, 0.0, 2.4};
    compare_on(&town, "town", seed, ARCNAV_ENGINE_AUTO, town_radii, 3, 30, &t);
    sup_map_free(&town);
    sup_map touching = sup_gen_touching(seed, seed % 2 == 0);
    double touching_radii[3] = {0.0, 0.5, 1.5};
    compare_on(&touching, "touching", seed, ARCNAV_ENGINE_AUTO, touching_radii, 3, 30, &t);
    sup_map_free(&touching);
    sup_map neerc = sup_gen_neerc_worst(seed);
    double neerc_radii[3] = {1.0 + (double)(seed * 7 % 40), 1.0, 0.0};
    compare_on(&neerc, "neerc", seed, ARCNAV_ENGINE_TANGENT, neerc_radii, 3, 20, &t);
    sup_map_free(&neerc);
  }
  printf("ranged, rectangles/mazes/towns: %zu queries (%zu at R = 0), %zu found (interval "
         "engine: %zu at R > 0)\n",
         t.queries, t.point_agent, t.found, t.interval_found);
  ck_assert_uint_ge(t.found, test_scaled_minimum(200, 3));
  ck_assert_uint_ge(t.interval_found, test_scaled_minimum(100, 3));
}
END_TEST

static arcnav_map *square_map(void) {
  arcnav_map *map = NULL;
  ck_assert_int_eq(arcnav_map_create(NULL, &map), ARCNAV_OK);
  const arcnav_vec2 square[4] = {{4, 4}, {6, 4}, {6, 6}, {4, 6}};
  ck_assert_int_eq(arcnav_map_add_polygon(map, square, 4, NULL, NULL, 0, NULL), ARCNAV_OK);
  return map;
}

START_TEST(test_definition_and_radius_checks) {
  arcnav_map *map = square_map();
  arcnav_planner_def def = arcnav_default_planner_def();
  ck_assert(def.max_radius == 0.0);
  arcnav_planner *planner = NULL;
  // A max_radius below the radius, or with an engine of one radius, is refused.
  def.radius = 2.0;
  def.max_radius = 1.0;
  ck_assert_int_eq(arcnav_planner_create(map, &def, &planner), ARCNAV_ERR_INVALID_ARGUMENT);
  def.max_radius = 3.0;
  def.engine = ARCNAV_ENGINE_FUNNEL;
  ck_assert_int_eq(arcnav_planner_create(map, &def, &planner), ARCNAV_ERR_INVALID_ARGUMENT);
  def.engine = ARCNAV_ENGINE_PLAIN_FUNNEL;
  ck_assert_int_eq(arcnav_planner_create(map, &def, &planner), ARCNAV_ERR_INVALID_ARGUMENT);
  def.engine = ARCNAV_ENGINE_AUTO;
  def.max_radius = -1.0;
  ck_assert_int_eq(arcnav_planner_create(map, &def, &planner), ARCNAV_ERR_NEGATIVE_RADIUS);
  def.max_radius = NAN;
  ck_assert_int_eq(arcnav_planner_create(map, &def, &planner), ARCNAV_ERR_NOT_FINITE);
  def.max_radius = 1e200;
  ck_assert_int_eq(arcnav_planner_create(map, &def, &planner), ARCNAV_ERR_TOO_LARGE);
  ck_assert_ptr_null(planner);

  def.max_radius = 3.0;
  ck_assert_int_eq(arcnav_planner_create(map, &def, &planner), ARCNAV_OK);
  ck_assert(arcnav_planner_radius(planner) == 2.0);
  ck_assert(arcnav_planner_max_radius(planner) == 3.0);
  ck_assert_int_eq(arcnav_planner_engine(planner), ARCNAV_ENGINE_TANGENT);
  arcnav_query *query = NULL;
  ck_assert_int_eq(arcnav_query_create(planner, &query), ARCNAV_OK);
  ck_assert(arcnav_query_radius(query) == 2.0);
  ck_assert_int_eq(arcnav_query_set_radius(query, 3.0 + 1e-9), ARCNAV_ERR_RADIUS_OUT_OF_RANGE);
  ck_assert_int_eq(arcnav_query_set_radius(query, -0.5), ARCNAV_ERR_NEGATIVE_RADIUS);
  ck_assert_int_eq(arcnav_query_set_radius(query, INFINITY), ARCNAV_ERR_NOT_FINITE);
  ck_assert_int_eq(arcnav_query_set_radius(NULL, 1.0), ARCNAV_ERR_INVALID_ARGUMENT);
  ck_assert(arcnav_query_radius(query) == 2.0); // errors keep the radius
  // The point (3, 5) is 1 from the square: free for radii up to 1 only.
  vec p = {3.0, 5.0};
  ck_assert(!arcnav_query_point_is_free(query, p));
  ck_assert(!arcnav_planner_point_is_free(planner, p)); // at the planner's radius, 2
  ck_assert_int_eq(arcnav_query_set_radius(query, 1.0), ARCNAV_OK);
  ck_assert(arcnav_query_point_is_free(query, p));
  ck_assert_int_eq(arcnav_query_set_radius(query, 0.0), ARCNAV_OK);
  ck_assert(arcnav_query_point_is_free(query, p));
  ck_assert_int_eq(arcnav_query_set_radius(query, 3.0), ARCNAV_OK);
  ck_assert(!arcnav_query_point_is_free(query, p));
  arcnav_query_destroy(query);
  arcnav_planner_destroy(planner);

  // The interval engine takes a max_radius too, answers radii above 0 itself, and refuses radii
  // beyond it as the tangent engine does.
  def.engine = ARCNAV_ENGINE_INTERVAL;
  ck_assert_int_eq(arcnav_planner_create(map, &def, &planner), ARCNAV_OK);
  ck_assert(arcnav_planner_max_radius(planner) == 3.0);
  ck_assert_int_eq(arcnav_planner_engine(planner), ARCNAV_ENGINE_INTERVAL);
  ck_assert_int_eq(arcnav_query_create(planner, &query), ARCNAV_OK);
  ck_assert(arcnav_query_radius(query) == 2.0);
  ck_assert_int_eq(arcnav_query_set_radius(query, 3.0 + 1e-9), ARCNAV_ERR_RADIUS_OUT_OF_RANGE);
  ck_assert_int_eq(arcnav_query_set_radius(query, 1.0), ARCNAV_OK);
  ck_assert(arcnav_query_point_is_free(query, p));
  ck_assert_int_eq(arcnav_query_set_radius(query, 3.0), ARCNAV_OK);
  ck_assert(!arcnav_query_point_is_free(query, p));
  arcnav_query_destroy(query);
  arcnav_planner_destroy(planner);
  def.engine = ARCNAV_ENGINE_AUTO;

  // A planner of one radius takes that radius only.
  def.max_radius = 0.0;
  ck_assert_int_eq(arcnav_planner_create(map, &def, &planner), ARCNAV_OK);
  ck_assert(arcnav_planner_max_radius(planner) == 2.0);
  ck_assert_int_eq(arcnav_query_create(planner, &query), ARCNAV_OK);
  ck_assert_int_eq(arcnav_query_set_radius(query, 2.0), ARCNAV_OK);
  ck_assert_int_eq(arcnav_query_set_radius(query, 1.0), ARCNAV_ERR_RADIUS_OUT_OF_RANGE);
  ck_assert_str_eq(arcnav_status_name(ARCNAV_ERR_RADIUS_OUT_OF_RANGE), "radius_out_of_range");
  arcnav_query_destroy(query);
  arcnav_planner_destroy(planner);
  arcnav_map_destroy(map);
}
END_TEST

// A map of bounds alone has no corner circle; its query objects must still judge points at their
// own radius, not at the largest (a point 1.95 from a wall is free for R = 0.3, not for R = 2).
START_TEST(test_bounds_alone) {
  sup_map m;
  sup_map_init(&m);
  static const vec bounds[] = {{-2, -10}, {30, -10}, {30, 10}, {-2, 10}};
  sup_map_set_bounds(&m, bounds, 4);
  static const double radii[] = {0.3, 1.0, 2.0};
  tally t = {0};
  compare_on(&m, "bounds alone", 1, ARCNAV_ENGINE_TANGENT, radii, 3, 40, &t);
  arcnav_map *map = NULL;
  ck_assert_int_eq(sup_map_to_arcnav(&m, &map), ARCNAV_OK);
  arcnav_planner_def def = arcnav_default_planner_def();
  def.radius = 0.3;
  def.max_radius = 2.0;
  arcnav_planner *planner = NULL;
  arcnav_query *query = NULL;
  ck_assert_int_eq(arcnav_planner_create(map, &def, &planner), ARCNAV_OK);
  ck_assert_int_eq(arcnav_query_create(planner, &query), ARCNAV_OK);
  vec near_wall = {-0.05, 0};
  ck_assert(arcnav_planner_point_is_free(planner, near_wall));
  ck_assert(arcnav_query_point_is_free(query, near_wall));
  ck_assert_int_eq(arcnav_query_set_radius(query, 2.0), ARCNAV_OK);
  ck_assert(!arcnav_query_point_is_free(query, near_wall));
  arcnav_query_destroy(query);
  arcnav_planner_destroy(planner);
  arcnav_map_destroy(map);
  sup_map_free(&m);
  ck_assert_uint_gt(t.found, 10);
}
END_TEST

START_TEST(test_tiny_max_radius_is_a_point_agent) {
  // Every radius up to a max_radius within the point-agent tolerance is a point agent: the
  // planner needs no engine for disks, and its paths are the point agent's.
  arcnav_map *map = square_map();
  double eps = arcnav_map_tolerance(map);
  arcnav_planner_def def = arcnav_default_planner_def();
  def.max_radius = eps;
  arcnav_planner *planner = NULL;
  ck_assert_int_eq(arcnav_planner_create(map, &def, &planner), ARCNAV_OK);
  ck_assert_int_eq(arcnav_planner_engine(planner), ARCNAV_ENGINE_FUNNEL);
  arcnav_query *query = NULL;
  arcnav_path *path = NULL;
  ck_assert_int_eq(arcnav_query_create(planner, &query), ARCNAV_OK);
  ck_assert_int_eq(arcnav_path_create(NULL, &path), ARCNAV_OK);
  ck_assert_int_eq(arcnav_query_set_radius(query, eps), ARCNAV_OK);
  vec s = {0.0, 5.0}, g = {10.0, 5.0};
  ck_assert_int_eq(arcnav_find_path(query, s, g, path), ARCNAV_OK);
  // Around the square's corner (4, 4) to (6, 4): 2 sqrt(4^2 + 1^2) + 2.
  ck_assert_double_eq_tol(arcnav_path_length(path), 2.0 * sqrt(17.0) + 2.0, 1e-9);
  arcnav_path_destroy(path);
  arcnav_query_destroy(query);
  arcnav_planner_destroy(planner);
  arcnav_map_destroy(map);
}
END_TEST

static Suite *radii_suite(void) {
  Suite *suite = suite_create("radii");
  TCase *tc = tcase_create("one planner for several radii");
  tcase_set_timeout(tc, 300);
  tcase_add_test(tc, test_mixed_maps);
  tcase_add_test(tc, test_rectangles_mazes_towns);
  tcase_add_test(tc, test_definition_and_radius_checks);
  tcase_add_test(tc, test_tiny_max_radius_is_a_point_agent);
  tcase_add_test(tc, test_bounds_alone);
  suite_add_tcase(suite, tc);
  return suite;
}

int main(void) {
  return test_run_suite(radii_suite());
}
