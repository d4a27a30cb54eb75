// SPDX-License-Identifier: MIT
// Point agents through the public API: the optimal funnel must find the same length as the
// visibility graph (the tangent engine at R = 0, a different algorithm over different data), the
// plain first-channel funnel is never shorter, and every path passes the independent verifier.
#include "arcnav_test.h"
#include "mapgen.h"
#include "verify.h"

#include <stdio.h>
#include <stdlib.h>

typedef struct engine_run {
  arcnav_planner *planner;
  arcnav_query *query;
} engine_run;

static engine_run open_engine(const arcnav_map *map, arcnav_engine engine) {
  engine_run run = {NULL, NULL};
  arcnav_planner_def def = arcnav_default_planner_def();
  def.engine = engine;
  ck_assert_int_eq(arcnav_planner_create(map, &def, &run.planner), ARCNAV_OK);
  ck_assert_int_eq(arcnav_planner_engine(run.planner), engine);
  ck_assert_int_eq(arcnav_query_create(run.planner, &run.query), ARCNAV_OK);
  return run;
}

static void close_engine(engine_run *run) {
  arcnav_query_destroy(run->query);
  arcnav_planner_destroy(run->planner);
}

// Polygon-only maps: rectangles that may overlap, or the mixed generator's polygons (convex,
// star-shaped, with holes) without its circles.
static sup_map polygon_map(uint64_t seed) {
  if (seed % 2 == 0) {
    return sup_gen_random_rectangles(seed, 8 + seed % 12, 300.0, 10.0, 60.0);
  }
  sup_map map = sup_gen_mixed(seed, 5 + seed % 8, 100.0, 3.0);
  map.circle_count = 0;
  return map;
}

START_TEST(test_funnel_matches_visibility_graph) {
  size_t compared = 0, plain_longer = 0;
  double worst_plain_ratio = 1.0;
  for (uint64_t seed = 1; seed <= 60; ++seed) {
    sup_map generated = polygon_map(seed);
    arcnav_map *map = NULL;
    ck_assert_int_eq(sup_map_to_arcnav(&generated, &map), ARCNAV_OK);
    double eps = arcnav_map_tolerance(map);
    engine_run exact = open_engine(map, ARCNAV_ENGINE_TANGENT);
    engine_run funnel = open_engine(map, ARCNAV_ENGINE_FUNNEL);
    engine_run plain = open_engine(map, ARCNAV_ENGINE_PLAIN_FUNNEL);
    arcnav_path *path = NULL;
    ck_assert_int_eq(arcnav_path_create(NULL, &path), ARCNAV_OK);
    arcnav_vec2 lo, hi;
    ck_assert(sup_map_extent(&generated, &lo, &hi));
    sup_rng rng = sup_rng_seed(seed * 7919);
    for (int q = 0; q < 10; ++q) {
      arcnav_vec2 a, b;
      if (!sup_random_free_point(&generated, 0.0, &rng, lo, hi, 0.0, 500, &a) ||
          !sup_random_free_point(&generated, 0.0, &rng, lo, hi, 0.0, 500, &b)) {
        continue;
      }
      arcnav_status exact_status = arcnav_find_path(exact.query, a, b, path);
      double exact_length = arcnav_path_length(path);
      arcnav_status funnel_status = arcnav_find_path(funnel.query, a, b, path);
      double funnel_length = arcnav_path_length(path);
      sup_verify_report report;
      if (funnel_status == ARCNAV_OK) {
        ck_assert_msg(sup_verify_path(&generated, 0.0, eps, a, b, path, &report),
                      "seed %llu query %d: funnel path invalid: %s", (unsigned long long)seed, q,
                      report.message);
      }
      arcnav_status plain_status = arcnav_find_path(plain.query, a, b, path);
      double plain_length = arcnav_path_length(path);
      if (plain_status == ARCNAV_OK) {
        ck_assert_msg(sup_verify_path(&generated, 0.0, eps, a, b, path, &report),
                      "seed %llu query %d: plain funnel path invalid: %s", (unsigned long long)seed,
                      q, report.message);
      }
      ck_assert_msg(funnel_status == exact_status && plain_status == exact_status,
                    "seed %llu query %d: tangent %s, funnel %s, plain %s", (unsigned long long)seed,
                    q, arcnav_status_name(exact_status), arcnav_status_name(funnel_status),
                    arcnav_status_name(plain_status));
      if (exact_status != ARCNAV_OK) {
        continue;
      }
      ck_assert_msg(fabs(funnel_length - exact_length) <= 1e-9 * exact_length,
                    "seed %llu query %d: funnel %.17g vs visibility graph %.17g",
                    (unsigned long long)seed, q, funnel_length, exact_length);
      ck_assert_msg(plain_length >= funnel_length * (1.0 - 1e-12),
                    "seed %llu query %d: plain %.17g shorter than optimal %.17g",
                    (unsigned long long)seed, q, plain_length, funnel_length);
      compared++;
      if (plain_length > funnel_length * (1.0 + 1e-9)) {
        plain_longer++;
      }
      if (exact_length > 0.0 && plain_length / exact_length > worst_plain_ratio) {
        worst_plain_ratio = plain_length / exact_length;
      }
    }
    arcnav_path_destroy(path);
    close_engine(&exact);
    close_engine(&funnel);
    close_engine(&plain);
    arcnav_map_destroy(map);
    generated.circle_count = 0;
    sup_map_free(&generated);
  }
  printf("engines: %zu queries compared, plain funnel longer on %zu, worst ratio %.4f\n", compared,
         plain_longer, worst_plain_ratio);
  ck_assert_uint_ge(compared, 500);
}
END_TEST

START_TEST(test_auto_engine_choice) {
  arcnav_map *map = NULL;
  ck_assert_int_eq(arcnav_map_create(NULL, &map), ARCNAV_OK);
  ck_assert_int_eq(test_add_box(map, 0, 0, 10, 10), ARCNAV_OK);
  arcnav_planner_def def = arcnav_default_planner_def();
  arcnav_planner *planner = NULL;
  ck_assert_int_eq(arcnav_planner_create(map, &def, &planner), ARCNAV_OK);
  ck_assert_int_eq(arcnav_planner_engine(planner), ARCNAV_ENGINE_FUNNEL);
  ck_assert_uint_gt(arcnav_planner_triangle_count(planner), 0);
  arcnav_vec2 corners[3];
  ck_assert(arcnav_planner_triangle(planner, 0, corners));
  ck_assert(!arcnav_planner_triangle(planner, arcnav_planner_triangle_count(planner), corners));
  arcnav_planner_destroy(planner);
  def.radius = 1.0;
  ck_assert_int_eq(arcnav_planner_create(map, &def, &planner), ARCNAV_OK);
  ck_assert_int_eq(arcnav_planner_engine(planner), ARCNAV_ENGINE_TANGENT);
  arcnav_planner_destroy(planner);
  def.engine = ARCNAV_ENGINE_FUNNEL;
  ck_assert_int_eq(arcnav_planner_create(map, &def, &planner), ARCNAV_ERR_UNSUPPORTED);
  // A circle obstacle keeps point agents on the exact tangent engine.
  ck_assert_int_eq(arcnav_map_add_circle(map, (arcnav_vec2){20, 5}, 2, NULL), ARCNAV_OK);
  def = arcnav_default_planner_def();
  ck_assert_int_eq(arcnav_planner_create(map, &def, &planner), ARCNAV_OK);
  ck_assert_int_eq(arcnav_planner_engine(planner), ARCNAV_ENGINE_TANGENT);
  arcnav_planner_destroy(planner);
  arcnav_map_destroy(map);
}
END_TEST

static Suite *engines_suite(void) {
  Suite *suite = suite_create("engines");
  TCase *tc = tcase_create("point agents");
  tcase_set_timeout(tc, 300);
  tcase_add_test(tc, test_funnel_matches_visibility_graph);
  tcase_add_test(tc, test_auto_engine_choice);
  suite_add_tcase(suite, tc);
  return suite;
}

int main(void) {
  return test_run_suite(engines_suite());
}
