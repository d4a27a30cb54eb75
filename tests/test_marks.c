// SPDX-License-Identifier: MIT
// Visited marks (src/marks.h): the stamp's step and its wrap, and searches that pass the wrap
// in the middle of a run of queries must answer exactly as searches that never reach it.
#include "arcnav_test.h"
#include "mapgen.h"
#include "planner/planner.h"
#include "search/marks.h"
#include "tangent/tangent_state.h"

#include <stdint.h>

START_TEST(test_stamp_steps_and_wraps_to_one) {
  uint32_t stamp = 0;
  ck_assert(!an_stamp_next(&stamp));
  ck_assert_uint_eq(stamp, 1);
  ck_assert(!an_stamp_next(&stamp));
  ck_assert_uint_eq(stamp, 2);
  stamp = UINT32_MAX - 1;
  ck_assert(!an_stamp_next(&stamp));
  ck_assert_uint_eq(stamp, UINT32_MAX);
  ck_assert(an_stamp_next(&stamp));
  ck_assert_uint_eq(stamp, 1);
}
END_TEST

// Two query objects on one planner: after some queries, the second has its search generation and
// its clearance stamp set just below the wrap, so that they wrap and then meet the marks its
// first queries left. (Dropping the search's reset on wrap makes this fail; the clearance
// stamp's wrap is exercised too, but its stale marks rarely change an answer.) Every status and
// length must be the same (exactly: the searches are deterministic).
START_TEST(test_searches_across_the_wrap_answer_as_before) {
  sup_map plain = sup_gen_mixed(11 + (uint64_t)_i, 40, 200.0, 6.0);
  arcnav_map *map = NULL;
  ck_assert_int_eq(sup_map_to_arcnav(&plain, &map), ARCNAV_OK);
  arcnav_planner_def def = arcnav_default_planner_def();
  def.engine = ARCNAV_ENGINE_TANGENT;
  def.tangent_graph = ARCNAV_TANGENT_GRAPH_PREBUILT;
  def.radius = _i == 0 ? 0.0 : 1.5;
  arcnav_planner *planner = NULL;
  ck_assert_int_eq(arcnav_planner_create(map, &def, &planner), ARCNAV_OK);
  arcnav_query *fresh = NULL, *wrapping = NULL;
  ck_assert_int_eq(arcnav_query_create(planner, &fresh), ARCNAV_OK);
  ck_assert_int_eq(arcnav_query_create(planner, &wrapping), ARCNAV_OK);
  an_tangent_query *state = wrapping->engine_query;
  arcnav_path *a = NULL, *b = NULL;
  ck_assert_int_eq(arcnav_path_create(NULL, &a), ARCNAV_OK);
  ck_assert_int_eq(arcnav_path_create(NULL, &b), ARCNAV_OK);
  sup_rng rng = sup_rng_seed(5 + (uint64_t)_i);
  int found = 0;
  for (int k = 0; k < 40; ++k) {
    if (k == 15) {
      // Marks left by the first queries hold small stamps, which the wrapped stamp meets again.
      state->current_generation = UINT32_MAX - 1;
      state->clearance.stamp = UINT32_MAX - 5;
    }
    arcnav_vec2 start, goal, lo = {0.0, 0.0}, hi = {200.0, 200.0};
    ck_assert(sup_random_free_point(&plain, def.radius, &rng, lo, hi, 0.01, 1000, &start));
    ck_assert(sup_random_free_point(&plain, def.radius, &rng, lo, hi, 0.01, 1000, &goal));
    arcnav_status sa = arcnav_find_path(fresh, start, goal, a);
    arcnav_status sb = arcnav_find_path(wrapping, start, goal, b);
    ck_assert_int_eq(sa, sb);
    if (sa == ARCNAV_OK) {
      ck_assert(arcnav_path_length(a) == arcnav_path_length(b));
      found++;
    }
  }
  ck_assert_msg(state->current_generation < 100,
                "the search generation did not wrap (%u, %d found)", state->current_generation,
                found);
  ck_assert_msg(state->clearance.stamp < UINT32_MAX - 5, "the clearance stamp did not wrap");
  ck_assert_msg(found >= 5, "only %d paths found: too few to compare", found);
  arcnav_path_destroy(a);
  arcnav_path_destroy(b);
  arcnav_query_destroy(fresh);
  arcnav_query_destroy(wrapping);
  arcnav_planner_destroy(planner);
  arcnav_map_destroy(map);
  sup_map_free(&plain);
}
END_TEST

static Suite *marks_suite(void) {
  Suite *s = suite_create("marks");
  TCase *tc = tcase_create("marks");
  tcase_set_timeout(tc, 60);
  tcase_add_test(tc, test_stamp_steps_and_wraps_to_one);
  tcase_add_loop_test(tc, test_searches_across_the_wrap_answer_as_before, 0, 2);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  return test_run_suite(marks_suite());
}
