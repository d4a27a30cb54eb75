// SPDX-License-Identifier: MIT
// Measurements along a path: point and heading at a distance, and sampling at a spacing. The path
// is the square detour of the planner tests; the checks use only the pieces' own geometry.
// Also the independent verifier's tangent rule on hand-made paths: a kink between lines fails
// however small, and an arc shorter than the tolerance still accounts for the turn it makes.
#include "arcnav_test.h"
#include "mapgen.h"
#include "verify.h"

#include <stdlib.h>
#include <string.h>

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
  ck_assert_int_eq(arcnav_path_sample(path, 0.5, points, needed, &count), ARCNAV_OK);
  ck_assert_uint_eq(count, needed);
  // A short buffer holds the first points of the same sampling, and nothing is written past it.
  arcnav_vec2 *partial = malloc(needed * sizeof *partial);
  const arcnav_vec2 untouched = {-1234.5, 6789.25};
  for (size_t have = 0; have < needed; have += needed / 5 + 1) {
    for (size_t k = 0; k < needed; ++k) {
      partial[k] = untouched;
    }
    count = 0;
    ck_assert_int_eq(arcnav_path_sample(path, 0.5, partial, have, &count),
                     ARCNAV_ERR_BUFFER_TOO_SMALL);
    ck_assert_uint_eq(count, needed);
    for (size_t k = 0; k < needed; ++k) {
      ck_assert_vec2_near(partial[k], k < have ? points[k] : untouched, 0.0);
    }
  }
  count = 0;
  ck_assert_int_eq(arcnav_path_sample(path, 0.5, partial, needed - 1, &count),
                   ARCNAV_ERR_BUFFER_TOO_SMALL);
  ck_assert_uint_eq(count, needed);
  free(partial);
  // A NULL buffer said to hold points is misuse; the size is still told.
  count = 0;
  ck_assert_int_eq(arcnav_path_sample(path, 0.5, NULL, 3, &count), ARCNAV_ERR_INVALID_ARGUMENT);
  ck_assert_uint_eq(count, needed);
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
  count = 0;
  ck_assert_int_eq(arcnav_path_sample(empty, 1.0, &one, 0, &count), ARCNAV_ERR_BUFFER_TOO_SMALL);
  ck_assert_uint_eq(count, 1);
  arcnav_path_destroy(empty);
}
END_TEST

// --- the verifier's tangent rule on hand-made paths ----------------------------------------------

// One box well away from every hand-made path below (they run along y = 0 between x = 0 and
// x = 10); it fixes the map's extent, hence its tolerance 1e-9 * 20.
static sup_map verifier_map(void) {
  sup_map m;
  sup_map_init(&m);
  const arcnav_vec2 box[4] = {{0, 10}, {20, 10}, {20, 20}, {0, 20}};
  sup_map_add_polygon(&m, box, 4, NULL, NULL, 0);
  return m;
}

/// Two lines of length `leg` joined by an arc of radius rho around `center` turning ccw (or cw) by
/// `sweep`: the first line arrives heading along +x at the arc's start, directly below (ccw) or
/// above (cw) the centre; the second leaves along the heading turned by the sweep. All derived by
/// hand from the circle's parametrisation.
static size_t turn_around(arcnav_vec2 center, double rho, double sweep, bool ccw, double leg,
                          arcnav_piece out[3]) {
  double side = ccw ? -1.0 : 1.0; // start below the centre for a left turn, above for a right
  double turn = ccw ? sweep : -sweep;
  arcnav_vec2 a = {center.x, center.y + side * rho};
  // Radius vector at the end: the start's (0, side) turned by `turn`.
  arcnav_vec2 b = {center.x - side * rho * sin(turn), center.y + side * rho * cos(turn)};
  arcnav_vec2 heading = {cos(turn), sin(turn)};
  out[0] = test_line_piece((arcnav_vec2){center.x - leg, a.y}, a);
  out[1] = test_arc_piece(center, rho, a, b, sweep, ccw);
  out[2] = test_line_piece(b, (arcnav_vec2){b.x + leg * heading.x, b.y + leg * heading.y});
  return 3;
}

static bool verify_pieces(const sup_map *m, double R, const arcnav_piece *pieces, size_t count,
                          sup_verify_report *report) {
  double eps = sup_map_tolerance(m);
  double total = 0.0;
  for (size_t i = 0; i < count; ++i) {
    total += pieces[i].length;
  }
  return sup_verify_pieces(m, R, eps, pieces[0].from, pieces[count - 1].to, pieces, count, total,
                           report);
}

// A path rebuilt from its own pieces is the same path; pieces that are not a path are refused
// and leave the path as it was.
START_TEST(test_assign_pieces) {
  size_t count = arcnav_path_piece_count(path);
  ck_assert_uint_ge(count, 3);
  arcnav_piece pieces[16];
  ck_assert_uint_le(count, 16);
  for (size_t i = 0; i < count; ++i) {
    pieces[i] = arcnav_path_piece(path, i);
    pieces[i].length = -1.0; // recomputed, not read
  }
  arcnav_path *copy = NULL;
  ck_assert_int_eq(arcnav_path_create(NULL, &copy), ARCNAV_OK);
  ck_assert_int_eq(arcnav_path_assign(copy, pieces, count), ARCNAV_OK);
  ck_assert_uint_eq(arcnav_path_piece_count(copy), count);
  ck_assert_double_eq_tol(arcnav_path_length(copy), arcnav_path_length(path),
                          1e-12 * arcnav_path_length(path));
  ck_assert_vec2_near(arcnav_path_start(copy), arcnav_path_start(path), 0.0);
  ck_assert_vec2_near(arcnav_path_end(copy), arcnav_path_end(path), 0.0);
  for (size_t i = 0; i < count; ++i) {
    arcnav_piece a = arcnav_path_piece(path, i), b = arcnav_path_piece(copy, i);
    ck_assert_int_eq(a.type, b.type);
    ck_assert_double_eq_tol(a.length, b.length, 1e-12 * (1.0 + a.length));
  }
  double length = arcnav_path_length(copy);

  size_t arc = SIZE_MAX;
  for (size_t i = 0; i < count && arc == SIZE_MAX; ++i) {
    arc = pieces[i].type == ARCNAV_PIECE_ARC ? i : SIZE_MAX;
  }
  ck_assert_uint_ne(arc, SIZE_MAX);
  arcnav_piece bad[16];
  memcpy(bad, pieces, sizeof bad);
  bad[arc].radius = 0.0;
  ck_assert_int_eq(arcnav_path_assign(copy, bad, count), ARCNAV_ERR_INVALID_ARGUMENT);
  memcpy(bad, pieces, sizeof bad);
  bad[arc].sweep = 7.0;
  ck_assert_int_eq(arcnav_path_assign(copy, bad, count), ARCNAV_ERR_INVALID_ARGUMENT);
  memcpy(bad, pieces, sizeof bad);
  bad[arc].center.x += 0.5; // its ends are no longer on its circle
  ck_assert_int_eq(arcnav_path_assign(copy, bad, count), ARCNAV_ERR_INVALID_ARGUMENT);
  memcpy(bad, pieces, sizeof bad);
  bad[1].from.x += 1e-3; // a gap between two pieces
  ck_assert_int_eq(arcnav_path_assign(copy, bad, count), ARCNAV_ERR_INVALID_ARGUMENT);
  memcpy(bad, pieces, sizeof bad);
  bad[0].type = (arcnav_piece_type)7;
  ck_assert_int_eq(arcnav_path_assign(copy, bad, count), ARCNAV_ERR_INVALID_ARGUMENT);
  memcpy(bad, pieces, sizeof bad);
  bad[0].to.y = NAN;
  ck_assert_int_eq(arcnav_path_assign(copy, bad, count), ARCNAV_ERR_NOT_FINITE);
  memcpy(bad, pieces, sizeof bad);
  bad[count - 1].to.y = 1e200;
  ck_assert_int_eq(arcnav_path_assign(copy, bad, count), ARCNAV_ERR_TOO_LARGE);
  ck_assert_int_eq(arcnav_path_assign(copy, NULL, 2), ARCNAV_ERR_INVALID_ARGUMENT);
  ck_assert_int_eq(arcnav_path_assign(NULL, pieces, count), ARCNAV_ERR_INVALID_ARGUMENT);
  ck_assert_uint_eq(arcnav_path_piece_count(copy), count);
  ck_assert(arcnav_path_length(copy) == length);

  ck_assert_int_eq(arcnav_path_assign(copy, NULL, 0), ARCNAV_OK);
  ck_assert_uint_eq(arcnav_path_piece_count(copy), 0);
  ck_assert(arcnav_path_length(copy) == 0.0);
  arcnav_path_destroy(copy);
}
END_TEST

// Each allocation arcnav_path_assign() makes, failed in turn: out_of_memory, and the path keeps
// what it held (nothing: a new path).
START_TEST(test_assign_survives_each_failure) {
  size_t count = arcnav_path_piece_count(path);
  arcnav_piece pieces[16];
  ck_assert_uint_le(count, 16);
  for (size_t i = 0; i < count; ++i) {
    pieces[i] = arcnav_path_piece(path, i);
  }
  long fired = 0;
  for (long n = 0; n < 100; ++n) {
    test_allocator counter = test_allocator_make();
    arcnav_allocator hooks = test_allocator_hooks(&counter);
    arcnav_path *copy = NULL;
    ck_assert_int_eq(arcnav_path_create(&hooks, &copy), ARCNAV_OK);
    counter.fail_at = counter.calls + n;
    arcnav_status status = arcnav_path_assign(copy, pieces, count);
    bool failed = status == ARCNAV_ERR_OUT_OF_MEMORY;
    if (failed) {
      fired++;
      ck_assert_uint_eq(arcnav_path_piece_count(copy), 0);
      ck_assert(arcnav_path_length(copy) == 0.0);
      counter.fail_at = -1;
      status = arcnav_path_assign(copy, pieces, count);
    }
    ck_assert_int_eq(status, ARCNAV_OK);
    ck_assert_uint_eq(arcnav_path_piece_count(copy), count);
    arcnav_path_destroy(copy);
    ck_assert_int_eq(counter.live, 0);
    if (!failed) {
      break;
    }
  }
  ck_assert_int_ge(fired, 1);
}
END_TEST

START_TEST(test_verifier_catches_small_kinks) {
  sup_map m = verifier_map();
  sup_verify_report report;
  // Two lines meeting at (5, 0) with a turn of 1e-4 rad and no arc: a kink for any R > 0.
  const double turn = 1e-4;
  arcnav_vec2 corner = {5, 0};
  arcnav_vec2 end = {corner.x + 5.0 * cos(turn), corner.y + 5.0 * sin(turn)};
  arcnav_piece kink[3] = {test_line_piece((arcnav_vec2){0, 0}, corner),
                          test_line_piece(corner, end)};
  ck_assert(!verify_pieces(&m, 1.0, kink, 2, &report));
  ck_assert_msg(strstr(report.message, "tangent") != NULL, "%s", report.message);
  // The same kink with a line shorter than the tolerance between the two: that line is skipped
  // but turns nothing, so the kink is still seen. Tiny radius, where every arc is that short too
  // (and legs of 1e-6, since the verifier samples every R / 8 along them).
  const double leg = 1e-6;
  arcnav_vec2 nudge = {corner.x + 5e-9 * cos(turn), corner.y + 5e-9 * sin(turn)};
  end = (arcnav_vec2){nudge.x + leg * cos(turn), nudge.y + leg * sin(turn)};
  kink[0] = test_line_piece((arcnav_vec2){corner.x - leg, 0}, corner);
  kink[1] = test_line_piece(corner, nudge);
  kink[2] = test_line_piece(nudge, end);
  ck_assert_double_le(kink[1].length, sup_map_tolerance(&m));
  ck_assert(!verify_pieces(&m, 1e-9, kink, 3, &report));
  ck_assert_msg(strstr(report.message, "heading turns") != NULL, "%s", report.message);
  // And without the kink the same three pieces pass.
  kink[1] = test_line_piece(corner, (arcnav_vec2){corner.x + 5e-9, 0});
  kink[2] = test_line_piece(kink[1].to, (arcnav_vec2){kink[1].to.x + leg, 0});
  ck_assert_msg(verify_pieces(&m, 1e-9, kink, 3, &report), "%s", report.message);
  sup_map_free(&m);
}
END_TEST

START_TEST(test_verifier_accepts_tiny_arcs) {
  sup_map m = verifier_map();
  double eps = sup_map_tolerance(&m);
  sup_verify_report report;
  arcnav_piece pieces[3];
  // Radius 1e-9 (below eps = 2e-8): every arc is shorter than eps, yet it turns the heading by
  // its whole sweep. Both directions, small and large sweeps; legs of 1e-6 keep the sampling
  // (every R / 8) short.
  const double rho = 1e-9;
  const double sweeps[] = {1e-3, 0.5, 2.0, 3.0};
  for (size_t k = 0; k < sizeof sweeps / sizeof sweeps[0]; ++k) {
    for (int ccw = 0; ccw < 2; ++ccw) {
      size_t n = turn_around((arcnav_vec2){5, 0}, rho, sweeps[k], ccw, 1e-6, pieces);
      ck_assert_double_le(pieces[1].length, eps);
      ck_assert_msg(verify_pieces(&m, rho, pieces, n, &report), "sweep %g %s: %s", sweeps[k],
                    ccw ? "ccw" : "cw", report.message);
    }
  }
  // A long arc at R = 1 is checked directly against its neighbours and passes too.
  size_t n = turn_around((arcnav_vec2){5, 0}, 1.0, 0.5, true, 4.0, pieces);
  ck_assert_msg(verify_pieces(&m, 1.0, pieces, n, &report), "%s", report.message);
  sup_map_free(&m);
}
END_TEST

START_TEST(test_verifier_tiny_arc_must_match_the_turn) {
  sup_map m = verifier_map();
  sup_verify_report report;
  arcnav_piece pieces[3];
  const double rho = 1e-9;
  // The lines turn by 0.5 around the tiny arc, but the arc claims a sweep of 0.3: 0.2 rad of the
  // turn is a kink. (Its ends are within rounding at this radius, so only the turn shows it.)
  size_t n = turn_around((arcnav_vec2){5, 0}, rho, 0.5, true, 1e-6, pieces);
  pieces[1].sweep = 0.3;
  pieces[1].length = rho * 0.3;
  ck_assert(!verify_pieces(&m, rho, pieces, n, &report));
  ck_assert_msg(strstr(report.message, "heading turns") != NULL, "%s", report.message);
  // The arc claims the right amount but the wrong direction: the lines turn left by 0.5 while a
  // clockwise arc would turn them right.
  n = turn_around((arcnav_vec2){5, 0}, rho, 0.5, true, 1e-6, pieces);
  pieces[1].ccw = false;
  ck_assert(!verify_pieces(&m, rho, pieces, n, &report));
  ck_assert_msg(strstr(report.message, "heading turns") != NULL, "%s", report.message);
  // A small turn (1e-4 rad) across an arc sweeping 1e-3: still caught, the rule compares with
  // the sweep rather than bounding the turn loosely.
  n = turn_around((arcnav_vec2){5, 0}, rho, 1e-4, true, 1e-6, pieces);
  pieces[1].sweep = 1e-3;
  pieces[1].length = rho * 1e-3;
  ck_assert(!verify_pieces(&m, rho, pieces, n, &report));
  sup_map_free(&m);
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
  tcase_add_test(tc, test_assign_pieces);
  tcase_add_test(tc, test_assign_survives_each_failure);
  suite_add_tcase(suite, tc);
  TCase *verifier = tcase_create("verifier");
  tcase_add_test(verifier, test_verifier_catches_small_kinks);
  tcase_add_test(verifier, test_verifier_accepts_tiny_arcs);
  tcase_add_test(verifier, test_verifier_tiny_arc_must_match_the_turn);
  suite_add_tcase(suite, verifier);
  return suite;
}

int main(void) {
  return test_run_suite(path_suite());
}
