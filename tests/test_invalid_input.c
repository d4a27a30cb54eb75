// SPDX-License-Identifier: MIT
// Invalid input at the library boundary, beyond what test_map covers: every refusal names the
// obstacle, ring and vertex as the caller gave them (duplicates included), holes and bounds report
// their own ring, each bad value class has its own status, and a refused call changes nothing.
#include "arcnav_test.h"

#include <math.h>
#include <stdlib.h>

static arcnav_map *new_map(void) {
  arcnav_map *map = NULL;
  ck_assert_int_eq(arcnav_map_create(NULL, &map), ARCNAV_OK);
  return map;
}

static void expect_error(const arcnav_error *error, arcnav_status status, int obstacle, int ring,
                         int vertex) {
  ck_assert_str_eq(arcnav_status_name(error->status), arcnav_status_name(status));
  ck_assert_int_eq(error->obstacle, obstacle);
  ck_assert_int_eq(error->ring, ring);
  ck_assert_int_eq(error->vertex, vertex);
}

static const arcnav_vec2 SHELL[4] = {{0, 0}, {10, 0}, {10, 10}, {0, 10}};

// One bad hole after a good one: the error names ring 2 (the second hole) and the vertex.
typedef struct bad_hole_case {
  const char *name;
  arcnav_vec2 points[6];
  size_t count;
  arcnav_status expected;
  int vertex; ///< expected vertex; -2: any vertex of the hole
} bad_hole_case;

static const bad_hole_case BAD_HOLES[] = {
    {"too few", {{6, 6}, {7, 7}, {6, 6}}, 3, ARCNAV_ERR_TOO_FEW_VERTICES, -1},
    {"collinear", {{6, 6}, {7, 7}, {8, 8}}, 3, ARCNAV_ERR_ZERO_AREA, -1},
    {"nan", {{6, 6}, {8, 6}, {8, NAN}, {6, 8}}, 4, ARCNAV_ERR_NOT_FINITE, 2},
    {"infinite", {{6, 6}, {8, 6}, {8, 8}, {-INFINITY, 8}}, 4, ARCNAV_ERR_NOT_FINITE, 3},
    {"beyond 1e100", {{6, 6}, {1e101, 6}, {8, 8}}, 3, ARCNAV_ERR_TOO_LARGE, 1},
    {"outside", {{20, 20}, {21, 20}, {21, 21}}, 3, ARCNAV_ERR_HOLE_OUTSIDE, -2},
    {"bow tie", {{6, 6}, {8, 8}, {8, 6}, {6, 8}}, 4, ARCNAV_ERR_SELF_INTERSECTION, -2},
    {"crosses the shell", {{6, 6}, {12, 6}, {12, 8}, {6, 8}}, 4, ARCNAV_ERR_SELF_INTERSECTION, -2},
    // Rings of one polygon may touch at one point, not along an edge (the pair's later ring and
    // the first vertex of its edge are named) and not twice (named: the second touch).
    {"along the shell", {{0, 6}, {2, 6}, {2, 8}, {0, 8}}, 4, ARCNAV_ERR_RING_OVERLAP, 3},
    {"along the first hole", {{3, 1}, {5, 1}, {5, 3}, {3, 3}}, 4, ARCNAV_ERR_RING_OVERLAP, 3},
    {"touches the shell twice", {{5, 0}, {8, 5}, {5, 10}}, 3, ARCNAV_ERR_SELF_INTERSECTION, 2},
    {"touches the first hole twice",
     {{1, 3}, {2, 5}, {3, 3}, {2, 4}},
     4,
     ARCNAV_ERR_SELF_INTERSECTION,
     2},
};

START_TEST(bad_hole_names_its_ring_and_vertex) {
  const bad_hole_case *c = &BAD_HOLES[_i];
  arcnav_vec2 first[4] = {{1, 1}, {3, 1}, {3, 3}, {1, 3}};
  const arcnav_vec2 *holes[2] = {first, c->points};
  size_t counts[2] = {4, c->count};
  arcnav_map *map = new_map();
  ck_assert_int_eq(test_add_box(map, 20, -5, 25, -1), ARCNAV_OK);
  arcnav_error error;
  arcnav_status status = arcnav_map_add_polygon(map, SHELL, 4, holes, counts, 2, &error);
  ck_assert_msg(status == c->expected, "%s: %s", c->name, arcnav_status_name(status));
  ck_assert_int_eq(error.status, status);
  ck_assert_int_eq(error.obstacle, 1);
  // A crossing between the hole and the shell may be blamed on either ring; anything else is the
  // hole's own fault.
  if (c->expected == ARCNAV_ERR_SELF_INTERSECTION && c->points[1].x > 10) {
    ck_assert_msg(error.ring == 0 || error.ring == 2, "%s: ring %d", c->name, error.ring);
  } else {
    ck_assert_msg(error.ring == 2, "%s: ring %d", c->name, error.ring);
  }
  if (c->vertex != -2) {
    ck_assert_msg(error.vertex == c->vertex, "%s: vertex %d", c->name, error.vertex);
  } else {
    ck_assert_msg(error.vertex >= 0 && error.vertex < (int)(error.ring == 0 ? 4 : c->count),
                  "%s: vertex %d", c->name, error.vertex);
  }
  ck_assert_uint_eq(arcnav_map_obstacle_count(map), 1);
  arcnav_map_destroy(map);
}
END_TEST

// Indices refer to the ring as given: a duplicate vertex before the fault shifts them.
START_TEST(indices_count_duplicates_as_given) {
  arcnav_map *map = new_map();
  arcnav_error error;
  arcnav_vec2 nan_ring[5] = {{0, 0}, {0, 0}, {4, 0}, {4, 4}, {NAN, 4}};
  ck_assert_int_eq(arcnav_map_add_polygon(map, nan_ring, 5, NULL, NULL, 0, &error),
                   ARCNAV_ERR_NOT_FINITE);
  expect_error(&error, ARCNAV_ERR_NOT_FINITE, 0, 0, 4);
  // A bow-tie with vertex 0 repeated: edges (0,0)-(2,2) and (2,0)-(0,2) cross; they start at
  // indices 0 (or its copy 1) and 3 of the ring as given.
  arcnav_vec2 bowtie[5] = {{0, 0}, {0, 0}, {2, 2}, {2, 0}, {0, 2}};
  ck_assert_int_eq(arcnav_map_add_polygon(map, bowtie, 5, NULL, NULL, 0, &error),
                   ARCNAV_ERR_SELF_INTERSECTION);
  ck_assert_int_eq(error.obstacle, 0);
  ck_assert_int_eq(error.ring, 0);
  ck_assert_msg(error.vertex == 0 || error.vertex == 1 || error.vertex == 3, "vertex %d",
                error.vertex);
  arcnav_map_destroy(map);
}
END_TEST

START_TEST(bounds_errors_say_bounds) {
  arcnav_map *map = new_map();
  ck_assert_int_eq(test_add_box(map, 1, 1, 2, 2), ARCNAV_OK);
  arcnav_error error;
  arcnav_vec2 nan_ring[4] = {{-9, -9}, {9, -9}, {9, NAN}, {-9, 9}};
  ck_assert_int_eq(arcnav_map_set_bounds(map, nan_ring, 4, &error), ARCNAV_ERR_NOT_FINITE);
  ck_assert_int_eq(error.obstacle, -1);
  ck_assert_int_eq(error.vertex, 2);
  arcnav_vec2 bowtie[4] = {{-9, -9}, {9, 9}, {9, -9}, {-9, 9}};
  ck_assert_int_eq(arcnav_map_set_bounds(map, bowtie, 4, &error), ARCNAV_ERR_SELF_INTERSECTION);
  ck_assert_int_eq(error.obstacle, -1);
  ck_assert_msg(error.vertex == 0 || error.vertex == 2, "vertex %d", error.vertex);
  ck_assert_int_eq(arcnav_map_set_bounds(map, bowtie, 2, &error), ARCNAV_ERR_TOO_FEW_VERTICES);
  ck_assert_int_eq(error.obstacle, -1);
  // Nothing was set: a point far outside every would-be bounds is still free.
  arcnav_planner_def def = arcnav_default_planner_def();
  def.engine = ARCNAV_ENGINE_TANGENT;
  arcnav_planner *planner = NULL;
  ck_assert_int_eq(arcnav_planner_create(map, &def, &planner), ARCNAV_OK);
  ck_assert(arcnav_planner_point_is_free(planner, (arcnav_vec2){50, 50}));
  arcnav_planner_destroy(planner);
  arcnav_map_destroy(map);
}
END_TEST

START_TEST(circle_value_classes) {
  arcnav_map *map = new_map();
  ck_assert_int_eq(test_add_box(map, 1, 1, 2, 2), ARCNAV_OK);
  arcnav_error error;
  ck_assert_int_eq(arcnav_map_add_circle(map, (arcnav_vec2){1e101, 0}, 1, &error),
                   ARCNAV_ERR_TOO_LARGE);
  ck_assert_int_eq(error.obstacle, 1);
  ck_assert_int_eq(error.ring, -1);
  ck_assert_int_eq(arcnav_map_add_circle(map, (arcnav_vec2){0, 0}, 1e101, &error),
                   ARCNAV_ERR_TOO_LARGE);
  ck_assert_int_eq(arcnav_map_add_circle(map, (arcnav_vec2){0, 0}, NAN, &error),
                   ARCNAV_ERR_NOT_FINITE);
  ck_assert_int_eq(arcnav_map_add_circle(map, (arcnav_vec2){0, 0}, -1e-300, &error),
                   ARCNAV_ERR_NEGATIVE_RADIUS);
  ck_assert_int_eq(error.obstacle, 1);
  ck_assert_uint_eq(arcnav_map_obstacle_count(map), 1);
  arcnav_map_destroy(map);
}
END_TEST

// Empty hole rings and a zero outer count are "too few vertices", not misuse.
START_TEST(empty_rings) {
  arcnav_map *map = new_map();
  arcnav_error error;
  ck_assert_int_eq(arcnav_map_add_polygon(map, SHELL, 0, NULL, NULL, 0, &error),
                   ARCNAV_ERR_TOO_FEW_VERTICES);
  ck_assert_int_eq(error.obstacle, 0);
  ck_assert_int_eq(error.ring, 0);
  const arcnav_vec2 *holes[1] = {SHELL};
  size_t counts[1] = {0};
  ck_assert_int_eq(arcnav_map_add_polygon(map, SHELL, 4, holes, counts, 1, &error),
                   ARCNAV_ERR_TOO_FEW_VERTICES);
  ck_assert_int_eq(error.ring, 1);
  ck_assert_uint_eq(arcnav_map_obstacle_count(map), 0);
  arcnav_map_destroy(map);
}
END_TEST

START_TEST(planner_radius_classes) {
  arcnav_map *map = new_map();
  ck_assert_int_eq(test_add_box(map, 1, 1, 2, 2), ARCNAV_OK);
  struct {
    double radius;
    arcnav_status expected;
  } cases[] = {{INFINITY, ARCNAV_ERR_NOT_FINITE},
               {-INFINITY, ARCNAV_ERR_NOT_FINITE},
               {1e101, ARCNAV_ERR_TOO_LARGE},
               {-1e-300, ARCNAV_ERR_NEGATIVE_RADIUS}};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    arcnav_planner_def def = arcnav_default_planner_def();
    def.radius = cases[i].radius;
    arcnav_planner *planner = (arcnav_planner *)&def; // must be reset to NULL on error
    ck_assert_int_eq(arcnav_planner_create(map, &def, &planner), cases[i].expected);
    ck_assert_ptr_null(planner);
  }
  arcnav_map_destroy(map);
}
END_TEST

START_TEST(query_point_classes) {
  arcnav_map *map = new_map();
  ck_assert_int_eq(test_add_box(map, 1, 1, 2, 2), ARCNAV_OK);
  arcnav_planner_def def = arcnav_default_planner_def();
  def.radius = 0.25;
  arcnav_planner *planner = NULL;
  arcnav_query *query = NULL;
  arcnav_path *path = NULL;
  ck_assert_int_eq(arcnav_planner_create(map, &def, &planner), ARCNAV_OK);
  ck_assert_int_eq(arcnav_query_create(planner, &query), ARCNAV_OK);
  ck_assert_int_eq(arcnav_path_create(NULL, &path), ARCNAV_OK);
  arcnav_vec2 good = {0, 0}, far = {5, 5};
  ck_assert_int_eq(arcnav_find_path(query, good, far, path), ARCNAV_OK);
  ck_assert_uint_gt(arcnav_path_piece_count(path), 0);
  ck_assert_int_eq(arcnav_find_path(query, (arcnav_vec2){NAN, 0}, far, path),
                   ARCNAV_ERR_NOT_FINITE);
  ck_assert_int_eq(arcnav_find_path(query, good, (arcnav_vec2){0, INFINITY}, path),
                   ARCNAV_ERR_NOT_FINITE);
  ck_assert_int_eq(arcnav_find_path(query, good, (arcnav_vec2){-1e101, 0}, path),
                   ARCNAV_ERR_TOO_LARGE);
  ck_assert_int_eq(arcnav_find_path(query, good, far, NULL), ARCNAV_ERR_INVALID_ARGUMENT);
  arcnav_path_destroy(path);
  arcnav_query_destroy(query);
  arcnav_planner_destroy(planner);
  arcnav_map_destroy(map);
}
END_TEST

int main(void) {
  Suite *suite = suite_create("invalid_input");
  TCase *tc = tcase_create("invalid_input");
  tcase_add_loop_test(tc, bad_hole_names_its_ring_and_vertex, 0,
                      (int)(sizeof BAD_HOLES / sizeof BAD_HOLES[0]));
  tcase_add_test(tc, indices_count_duplicates_as_given);
  tcase_add_test(tc, bounds_errors_say_bounds);
  tcase_add_test(tc, circle_value_classes);
  tcase_add_test(tc, empty_rings);
  tcase_add_test(tc, planner_radius_classes);
  tcase_add_test(tc, query_point_classes);
  suite_add_tcase(suite, tc);
  return test_run_suite(suite);
}
