// SPDX-License-Identifier: MIT
#pragma once

// Helpers shared by the Check tests.

#include "arcnav/arcnav.h"
#include "test_allocator.h"

#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define TEST_PI 3.14159265358979323846

#ifdef ARCNAV_TEST_NO_MARK_POINTS
// Check records the place of every assertion that passes, one write to its message file each, so
// that a test that crashes names its last checkpoint. Under valgrind each write costs more than
// most checks, and the loops of thousands of them were most of the run (the heap test: 24 s, 5 s
// without). There valgrind locates a crash; a failing assertion still names its place.
// (ARCNAV_TEST_MARK_POINTS=OFF, scripts/valgrind.sh.)
#define _mark_point(file, line) ((void)(file), (void)(line))
#endif

#define ck_assert_vec2_near(actual, expected, tolerance)                                           \
  do {                                                                                             \
    arcnav_vec2 ck_actual_ = (actual), ck_expected_ = (expected);                                  \
    ck_assert_msg(fabs(ck_actual_.x - ck_expected_.x) <= (tolerance) &&                            \
                      fabs(ck_actual_.y - ck_expected_.y) <= (tolerance),                          \
                  "(%.17g, %.17g) is not within %g of (%.17g, %.17g)", ck_actual_.x, ck_actual_.y, \
                  (double)(tolerance), ck_expected_.x, ck_expected_.y);                            \
  } while (0)

/// Are two path pieces the same, field by field and bit for bit (determinism checks: the same
/// search run again, in slices, on another thread, after a failed allocation)?
static inline bool test_same_piece(const arcnav_piece *a, const arcnav_piece *b) {
  return a->type == b->type && a->ccw == b->ccw &&
         memcmp(&a->from, &b->from, sizeof a->from) == 0 &&
         memcmp(&a->to, &b->to, sizeof a->to) == 0 &&
         memcmp(&a->center, &b->center, sizeof a->center) == 0 &&
         memcmp(&a->radius, &b->radius, sizeof a->radius) == 0 &&
         memcmp(&a->sweep, &b->sweep, sizeof a->sweep) == 0 &&
         memcmp(&a->length, &b->length, sizeof a->length) == 0;
}

/// A line piece from `from` to `to`, its length from the endpoints, for feeding the verifier.
static inline arcnav_piece test_line_piece(arcnav_vec2 from, arcnav_vec2 to) {
  arcnav_piece p;
  memset(&p, 0, sizeof p);
  p.type = ARCNAV_PIECE_LINE;
  p.from = from;
  p.to = to;
  p.length = hypot(to.x - from.x, to.y - from.y);
  return p;
}

/// An arc piece of `sweep` radians around `center`, its length radius * sweep.
static inline arcnav_piece test_arc_piece(arcnav_vec2 center, double radius, arcnav_vec2 from,
                                          arcnav_vec2 to, double sweep, bool ccw) {
  arcnav_piece p;
  memset(&p, 0, sizeof p);
  p.type = ARCNAV_PIECE_ARC;
  p.center = center;
  p.radius = radius;
  p.from = from;
  p.to = to;
  p.sweep = sweep;
  p.ccw = ccw;
  p.length = radius * sweep;
  return p;
}

/// Axis-aligned rectangle obstacle (any corner order).
static inline arcnav_status test_add_box(arcnav_map *map, double x0, double y0, double x1,
                                         double y1) {
  arcnav_vec2 ring[4] = {{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}};
  return arcnav_map_add_polygon(map, ring, 4, NULL, NULL, 0, NULL);
}

/// A sealed room of four walls around (120, 120), and `posts` posts west of it along y = 40..80 to
/// search around: from (10, 60) to inside the room there is no path, for any radius.
static inline void test_add_sealed_room(arcnav_map *map, int posts) {
  ck_assert_int_eq(test_add_box(map, 100, 100, 140, 104), ARCNAV_OK);
  ck_assert_int_eq(test_add_box(map, 100, 136, 140, 140), ARCNAV_OK);
  ck_assert_int_eq(test_add_box(map, 100, 100, 104, 140), ARCNAV_OK);
  ck_assert_int_eq(test_add_box(map, 136, 100, 140, 140), ARCNAV_OK);
  for (int i = 0; i < posts; ++i) {
    ck_assert_int_eq(test_add_box(map, 20 + 15 * i, 40, 26 + 15 * i, 80), ARCNAV_OK);
  }
}

/// How many of `full` randomised cases to run: all of them unless ARCNAV_TEST_SCALE (a factor in
/// (0, 1]) asks for fewer, as the valgrind run does. Never fewer than one.
static inline uint64_t test_scaled_count(uint64_t full) {
  const char *text = getenv("ARCNAV_TEST_SCALE");
  double scale = text ? atof(text) : 1.0;
  if (!(scale > 0.0) || scale > 1.0) {
    scale = 1.0;
  }
  uint64_t count = (uint64_t)((double)full * scale);
  return count > 0 ? count : 1;
}

/// The least number of cases a scaled run must still exercise: `minimum` in a full run of
/// `full_seeds` seeds, and in a scaled run half of its share for the seeds actually run (few seeds
/// vary more), so a shrunken run still cannot pass by exercising nothing.
static inline uint64_t test_scaled_minimum(uint64_t minimum, uint64_t full_seeds) {
  uint64_t seeds = test_scaled_count(full_seeds);
  if (seeds >= full_seeds) {
    return minimum;
  }
  uint64_t share = minimum * seeds / full_seeds / 2;
  return share > 0 ? share : 1;
}

/// Runs the suite with Check's runner and returns the process exit code.
static inline int test_run_suite(Suite *suite) {
  SRunner *runner = srunner_create(suite);
  srunner_run_all(runner, CK_NORMAL);
  int failed = srunner_ntests_failed(runner);
  srunner_free(runner);
  return failed == 0 ? 0 : 1;
}
