// SPDX-License-Identifier: MIT
// Measurements along a path: point and heading at a distance, and sampling at a spacing. The path
// is the square detour of the planner tests; the checks use only the pieces' own geometry.
#include "arcnav_test.h"

#include <stdlib.h>

static arcnav_map *map;
static arcnav_planner *planner;
static arcnav_query *query;
static arcnav_path *path;

static void setup(void) {
  ck_assert_int_eq(arcnav_map_create(NULL, &map), ARCNAV_OK);
  ck_assert_int_eq(test_add_box(map, 0, 0, 10, 10), ARCNAV_OK);
  arcnav_planner_def def = arcnav_default_planner_def();
  def.radius = 1.0;
  ck_assert_int_eq(arcnav_planner_create(map, &def, &planner), ARCNAV_OK);
  ck_assert_int_eq(arcnav_query_create(planner, &query), ARCNAV_OK);
  ck_assert_int_eq(arcnav_path_create(NULL, &path), ARCNAV_OK);
  ck_assert_int_eq(arcnav_find_path(query, (arcnav_vec2){-5, 5}, (arcnav_vec2){15, 5}, path),
                   ARCNAV_OK);
}

static void teardown(void) {
  arcnav_path_destroy(path);
  arcnav_query_destroy(query);
  arcnav_planner_destroy(planner);
  arcnav_map_destroy(map);
}

// Distance from p to the nearest piece, computed from the piece definitions.
static double distance_to_path(arcnav_vec2 p) {
  double best = INFINITY;
  for (size_t i = 0; i < arcnav_path_piece_count(path); ++i) {
    arcnav_piece c = arcnav_path_piece(path, i);
    double d;
    if (c.type == ARCNAV_PIECE_LINE) {
      double dx = c.to.x - c.from.x, dy = c.to.y - c.from.y;
      double t = ((p.x - c.from.x) * dx + (p.y - c.from.y) * dy) / (dx * dx + dy * dy);
      t = t < 0 ? 0 : (t > 1 ? 1 : t);
      d = hypot(p.x - (c.from.x + t * dx), p.y - (c.from.y + t * dy));
    } else {
      d = fabs(hypot(p.x - c.center.x, p.y - c.center.y) - c.radius);
    }
    best = d < best ? d : best;
  }
  return best;
}

START_TEST(test_point_at_ends_and_clamping) {
  arcnav_vec2 pos, heading;
  arcnav_path_point_at(path, 0.0, &pos, &heading);
  ck_assert_vec2_near(pos, ((arcnav_vec2){-5, 5}), 1e-12);
  arcnav_path_point_at(path, -3.0, &pos, &heading);
  ck_assert_vec2_near(pos, ((arcnav_vec2){-5, 5}), 1e-12);
  double length = arcnav_path_length(path);
  arcnav_path_point_at(path, length, &pos, &heading);
  ck_assert_vec2_near(pos, ((arcnav_vec2){15, 5}), 1e-12);
  arcnav_path_point_at(path, length + 100.0, &pos, &heading);
  ck_assert_vec2_near(pos, ((arcnav_vec2){15, 5}), 1e-12);
  // On the first piece (a line of length 7) the position moves along the piece's direction.
  arcnav_piece first = arcnav_path_piece(path, 0);
  arcnav_vec2 dir = {(first.to.x - first.from.x) / first.length,
                     (first.to.y - first.from.y) / first.length};
  arcnav_path_point_at(path, 3.0, &pos, &heading);
  ck_assert_vec2_near(pos, ((arcnav_vec2){-5 + 3 * dir.x, 5 + 3 * dir.y}), 1e-12);
  ck_assert_vec2_near(heading, dir, 1e-12);
}
END_TEST

START_TEST(test_point_at_follows_the_pieces) {
  double length = arcnav_path_length(path);
  arcnav_vec2 previous;
  arcnav_path_point_at(path, 0.0, &previous, NULL);
  for (int k = 1; k <= 400; ++k) {
    double s = length * k / 400.0;
    arcnav_vec2 pos, heading;
    arcnav_path_point_at(path, s, &pos, &heading);
    ck_assert_double_le(distance_to_path(pos), 1e-9);
    ck_assert_double_eq_tol(hypot(heading.x, heading.y), 1.0, 1e-12);
    // Moving ds along the path moves at most ds in the plane, and nearly ds on these gentle curves.
    double step = hypot(pos.x - previous.x, pos.y - previous.y);
    ck_assert_double_le(step, length / 400.0 + 1e-9);
    ck_assert_double_ge(step, 0.99 * length / 400.0);
    // The heading points where the path goes next.
    arcnav_vec2 ahead;
    arcnav_path_point_at(path, s - 1e-6, &ahead, NULL);
    if (k < 400) {
      ck_assert_double_gt((pos.x - ahead.x) * heading.x + (pos.y - ahead.y) * heading.y, 0.0);
    }
    previous = pos;
  }
}
END_TEST

START_TEST(test_sampling) {
  double length = arcnav_path_length(path);
  size_t needed = 0;
  ck_assert_int_eq(arcnav_path_sample(path, 0.5, NULL, 0, &needed), ARCNAV_OK);
  ck_assert_uint_eq(needed, (size_t)floor(length / 0.5) + 2);
  arcnav_vec2 *points = malloc(needed * sizeof *points);
  size_t count = 0;
  ck_assert_int_eq(arcnav_path_sample(path, 0.5, points, needed - 1, &count),
                   ARCNAV_ERR_INVALID_ARGUMENT);
  ck_assert_uint_eq(count, needed);
  ck_assert_int_eq(arcnav_path_sample(path, 0.5, points, needed, &count), ARCNAV_OK);
  ck_assert_vec2_near(points[0], ((arcnav_vec2){-5, 5}), 1e-12);
  ck_assert_vec2_near(points[count - 1], ((arcnav_vec2){15, 5}), 1e-12);
  for (size_t k = 0; k < count; ++k) {
    ck_assert_double_le(distance_to_path(points[k]), 1e-9);
    if (k + 1 < count) {
      arcnav_vec2 at;
      arcnav_path_point_at(path, 0.5 * (double)k, &at, NULL);
      ck_assert_vec2_near(points[k], at, 1e-9);
      ck_assert_double_le(hypot(points[k + 1].x - points[k].x, points[k + 1].y - points[k].y),
                          0.5 + 1e-12);
    }
  }
  ck_assert_int_eq(arcnav_path_sample(path, 0.0, points, needed, &count),
                   ARCNAV_ERR_INVALID_ARGUMENT);
  ck_assert_int_eq(arcnav_path_sample(path, NAN, points, needed, &count),
                   ARCNAV_ERR_INVALID_ARGUMENT);
  free(points);
}
END_TEST

START_TEST(test_empty_path) {
  arcnav_path *empty = NULL;
  ck_assert_int_eq(arcnav_path_create(NULL, &empty), ARCNAV_OK);
  ck_assert_uint_eq(arcnav_path_piece_count(empty), 0);
  ck_assert_double_eq(arcnav_path_length(empty), 0.0);
  arcnav_vec2 pos, heading;
  arcnav_path_point_at(empty, 5.0, &pos, &heading);
  ck_assert_vec2_near(heading, ((arcnav_vec2){1, 0}), 0.0);
  arcnav_piece none = arcnav_path_piece(empty, 3);
  ck_assert_double_eq(none.length, 0.0);
  size_t count = 0;
  arcnav_vec2 one;
  ck_assert_int_eq(arcnav_path_sample(empty, 1.0, &one, 1, &count), ARCNAV_OK);
  ck_assert_uint_eq(count, 1);
  arcnav_path_destroy(empty);
}
END_TEST

static Suite *path_suite(void) {
  Suite *suite = suite_create("path");
  TCase *tc = tcase_create("measure");
  tcase_add_checked_fixture(tc, setup, teardown);
  tcase_add_test(tc, test_point_at_ends_and_clamping);
  tcase_add_test(tc, test_point_at_follows_the_pieces);
  tcase_add_test(tc, test_sampling);
  tcase_add_test(tc, test_empty_path);
  suite_add_tcase(suite, tc);
  return suite;
}

int main(void) {
  return test_run_suite(path_suite());
}
