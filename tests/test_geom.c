// SPDX-License-Identifier: MIT
// Geometry kernel tests. Expected values are derived by hand (3-4-5 triangles, 30/60 degree
// tangents, axis-aligned configurations) or checked independently: tangents by their defining
// properties, distances against a brute-force minimum over dense samples of both shapes.

#include "geom/geom.h"
#include "geom/predicates.h"

#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define COUNT(table) ((int)(sizeof(table) / sizeof((table)[0])))
#define TOL 1e-9
#define SQRT2 1.41421356237309504880
#define SQRT3 1.73205080756887729353
#define SQRT5 2.23606797749978969641

#define ck_assert_vec2_near(got, want, tol)                                                        \
  do {                                                                                             \
    vec2 got_ = (got);                                                                             \
    vec2 want_ = (want);                                                                           \
    ck_assert_msg(fabs(got_.x - want_.x) <= (tol) && fabs(got_.y - want_.y) <= (tol),              \
                  "%s = (%.17g, %.17g), expected (%.17g, %.17g)", #got, got_.x, got_.y, want_.x,   \
                  want_.y);                                                                        \
  } while (0)

static an_arc mk_arc(vec2 c, double r, double start, double sweep) {
  return (an_arc){.center = c, .radius = r, .start_angle = start, .sweep = sweep};
}

// ---------------------------------------------------------------------------------------------
// Brute-force distance by sampling.

typedef struct shape {
  bool is_arc;
  vec2 a, b; // segment (a == b for a point)
  an_arc arc;
} shape;

static shape seg_shape(vec2 a, vec2 b) {
  return (shape){.is_arc = false, .a = a, .b = b};
}
static shape arc_shape(an_arc arc) {
  return (shape){.is_arc = true, .arc = arc};
}

static vec2 shape_at(const shape *s, double t) {
  if (s->is_arc) {
    double ang = s->arc.start_angle + t * s->arc.sweep;
    return v2(s->arc.center.x + s->arc.radius * cos(ang),
              s->arc.center.y + s->arc.radius * sin(ang));
  }
  return v2(s->a.x + (s->b.x - s->a.x) * t, s->a.y + (s->b.y - s->a.y) * t);
}

static double shape_len(const shape *s) {
  return s->is_arc ? fabs(s->arc.radius) * s->arc.sweep : hypot(s->b.x - s->a.x, s->b.y - s->a.y);
}

#define COARSE 400
#define FINE 100

// Minimum distance between samples of both shapes. `lower` is a proven lower bound of the true
// minimum (every shape point is within half a sample spacing of a sample), `upper` the smallest
// distance between actual shape points found after refining around the best coarse pair.
static void brute_dist(const shape *s1, const shape *s2, double *lower, double *upper) {
  static vec2 p1[COARSE + 1];
  static vec2 p2[COARSE + 1];
  for (int i = 0; i <= COARSE; i++) {
    p1[i] = shape_at(s1, (double)i / COARSE);
    p2[i] = shape_at(s2, (double)i / COARSE);
  }
  double best = HUGE_VAL;
  int bi = 0;
  int bj = 0;
  for (int i = 0; i <= COARSE; i++) {
    for (int j = 0; j <= COARSE; j++) {
      double dx = p1[i].x - p2[j].x;
      double dy = p1[i].y - p2[j].y;
      double d2 = dx * dx + dy * dy;
      if (d2 < best) {
        best = d2;
        bi = i;
        bj = j;
      }
    }
  }
  best = sqrt(best);
  double err = 0.5 * (shape_len(s1) + shape_len(s2)) / COARSE;
  *lower = best - err;
  double lo1 = fmax(0.0, (bi - 1.0) / COARSE);
  double hi1 = fmin(1.0, (bi + 1.0) / COARSE);
  double lo2 = fmax(0.0, (bj - 1.0) / COARSE);
  double hi2 = fmin(1.0, (bj + 1.0) / COARSE);
  double fine = best;
  for (int i = 0; i <= FINE; i++) {
    vec2 q1 = shape_at(s1, lo1 + (hi1 - lo1) * i / FINE);
    for (int j = 0; j <= FINE; j++) {
      vec2 q2 = shape_at(s2, lo2 + (hi2 - lo2) * j / FINE);
      fine = fmin(fine, hypot(q1.x - q2.x, q1.y - q2.y));
    }
  }
  *upper = fine;
}

static void check_against_brute(double got, shape s1, shape s2) {
  double lower;
  double upper;
  brute_dist(&s1, &s2, &lower, &upper);
  ck_assert_msg(got >= lower - 1e-12 && got <= upper + 1e-9,
                "distance %.17g outside brute-force bounds [%.17g, %.17g]", got, lower, upper);
}

// Small deterministic generator so failures reproduce.
static double rnd(uint64_t *state) {
  *state ^= *state << 13;
  *state ^= *state >> 7;
  *state ^= *state << 17;
  return (double)(*state >> 11) / 9007199254740992.0;
}
static double rnd_range(uint64_t *state, double lo, double hi) {
  return lo + (hi - lo) * rnd(state);
}
static vec2 rnd_point(uint64_t *state, double extent) {
  return v2(rnd_range(state, -extent, extent), rnd_range(state, -extent, extent));
}
static an_arc rnd_arc(uint64_t *state) {
  return mk_arc(rnd_point(state, 4.0), rnd_range(state, 0.0, 3.0), rnd_range(state, -7.0, 7.0),
                rnd_range(state, 0.0, AN_TWO_PI));
}

// ---------------------------------------------------------------------------------------------
// Angles and arcs.

static const struct {
  double in, want;
} wrap_cases[] = {
    {0.0, 0.0},
    {AN_TWO_PI, 0.0},
    {-AN_TWO_PI, 0.0},
    {-AN_PI / 2, 1.5 * AN_PI},
    {7 * AN_PI, AN_PI},
    {1.0, 1.0},
    {-1.0, AN_TWO_PI - 1.0},
    {-1e-17, 0.0}, // 2*pi - 1e-17 rounds to 2*pi, which must come back as 0
};

START_TEST(test_wrap_angle) {
  double got = an_wrap_angle(wrap_cases[_i].in);
  ck_assert(got >= 0.0 && got < AN_TWO_PI);
  ck_assert_double_eq_tol(got, wrap_cases[_i].want, 1e-12);
}
END_TEST

// The remainder by fmod, as the wrap was first written: the wrap's shortcut for angles near the
// range must give the same bits.
static double wrap_by_fmod(double angle) {
  double a = fmod(angle, AN_TWO_PI);
  if (a < 0.0) {
    a += AN_TWO_PI;
  }
  return a >= AN_TWO_PI ? 0.0 : a;
}

static void assert_wraps_as_fmod(double x) {
  double got = an_wrap_angle(x), want = wrap_by_fmod(x);
  ck_assert_msg(memcmp(&got, &want, sizeof got) == 0, "wrap(%a) = %a, fmod gives %a", x, got, want);
}

START_TEST(test_wrap_angle_matches_fmod) {
  const double edges[] = {0.0,   -0.0,   AN_TWO_PI,   -AN_TWO_PI, 2.0 * AN_TWO_PI, -2.0 * AN_TWO_PI,
                          AN_PI, -AN_PI, 3.0 * AN_PI, 1e-300,     -1e-300,         -1e-17};
  for (size_t i = 0; i < sizeof edges / sizeof edges[0]; ++i) {
    for (int step = -2; step <= 2; ++step) {
      double x = edges[i];
      for (int k = 0; k < (step < 0 ? -step : step); ++k) {
        x = nextafter(x, step < 0 ? -INFINITY : INFINITY);
      }
      assert_wraps_as_fmod(x);
    }
  }
  uint64_t state = 77;
  for (int i = 0; i < 100000; ++i) {
    assert_wraps_as_fmod(rnd_range(&state, -40.0, 40.0));
  }
}
END_TEST

static const struct {
  double start, sweep, angle, slack;
  bool want;
} contains_cases[] = {
    {0.0, AN_PI / 2, 0.3, 0.0, true},
    {0.0, AN_PI / 2, 0.0, 0.0, true},       // start, inclusive
    {0.0, AN_PI / 2, AN_PI / 2, 0.0, true}, // end, inclusive
    {0.0, AN_PI / 2, 2.0, 0.0, false},
    {0.0, AN_PI / 2, -0.01, 0.0, false},
    {0.0, AN_PI / 2, -0.01, 0.02, true}, // just before the start, within slack
    {0.0, AN_PI / 2, AN_PI / 2 + 0.01, 0.02, true},
    {0.0, AN_PI / 2, -0.0105, 0.011, true},
    {0.0, AN_PI / 2, -0.0105, 0.010, false},
    {1.5 * AN_PI, AN_PI, 0.1, 0.0, true}, // arc crossing 0
    {1.5 * AN_PI, AN_PI, AN_TWO_PI + 0.1, 0.0, true},
    {1.5 * AN_PI, AN_PI, -0.1, 0.0, true},
    {1.5 * AN_PI, AN_PI, AN_PI, 0.0, false},
    {1.5 * AN_PI, AN_PI, 1.5 * AN_PI - 1e-3, 1e-2, true},
    {1.0, 0.0, 1.0, 0.0, true}, // sweep 0 contains its own angle
    {1.0, 0.0, 1.0 + 1e-6, 0.0, false},
    {1.0, 0.0, 1.0 + 1e-6, 1e-5, true},
    {1.0, AN_TWO_PI, 4.0, 0.0, true}, // full circle
    {1.0, AN_TWO_PI, -100.0, 0.0, true},
    {1.0, AN_TWO_PI - 0.2, 0.9, 0.0, false}, // the gap of a nearly full circle
    {1.0, AN_TWO_PI - 0.2, 0.9, 0.11, true},
};

START_TEST(test_arc_contains_angle) {
  an_arc arc = mk_arc(v2(0, 0), 1.0, contains_cases[_i].start, contains_cases[_i].sweep);
  ck_assert_int_eq(an_arc_contains_angle(&arc, contains_cases[_i].angle, contains_cases[_i].slack),
                   contains_cases[_i].want);
}
END_TEST

// ---------------------------------------------------------------------------------------------
// Points and segments.

static const struct {
  vec2 p, a, b, closest;
} closest_cases[] = {
    {{1, 2}, {0, 0}, {4, 0}, {1, 0}},    // foot inside
    {{-3, 1}, {0, 0}, {4, 0}, {0, 0}},   // before a
    {{7, -2}, {0, 0}, {4, 0}, {4, 0}},   // beyond b
    {{4.02, 3}, {0, 0}, {4, 0}, {4, 0}}, // just beyond b
    {{2, 0}, {0, 0}, {4, 0}, {2, 0}},    // on the segment
    {{3, 4}, {1, 1}, {1, 1}, {1, 1}},    // zero-length segment
    {{0, 2}, {0, 0}, {2, 2}, {1, 1}},    // diagonal
    {{5, 5}, {0, 0}, {2, 2}, {2, 2}},    // collinear beyond the end
    {{-1, 3}, {-1, 0}, {-1, 5}, {-1, 3}},
};

START_TEST(test_closest_on_segment) {
  vec2 p = closest_cases[_i].p;
  vec2 a = closest_cases[_i].a;
  vec2 b = closest_cases[_i].b;
  ck_assert_vec2_near(an_closest_on_segment(p, a, b), closest_cases[_i].closest, 1e-12);
  double want = v2_dist(p, closest_cases[_i].closest);
  ck_assert_double_eq_tol(an_point_segment_dist(p, a, b), want, 1e-12);
  ck_assert_double_eq_tol(an_point_segment_dist(p, b, a), want, 1e-12);
  check_against_brute(an_point_segment_dist(p, a, b), seg_shape(p, p), seg_shape(a, b));
}
END_TEST

static const struct {
  vec2 a, b, c, d;
  bool want;
  double dist; // hand-derived distance
} seg_cases[] = {
    {{0, 0}, {2, 2}, {0, 2}, {2, 0}, true, 0.0},    // proper crossing
    {{0, 0}, {2, 0}, {1, 0}, {1, 5}, true, 0.0},    // T: end on interior
    {{0, 0}, {1, 1}, {1, 1}, {3, 0}, true, 0.0},    // shared endpoint
    {{0, 0}, {3, 0}, {1, 0}, {5, 0}, true, 0.0},    // collinear overlapping
    {{0, 0}, {5, 0}, {1, 0}, {2, 0}, true, 0.0},    // collinear contained
    {{0, 0}, {1, 0}, {1, 0}, {2, 0}, true, 0.0},    // collinear touching at an end
    {{0, 0}, {0, 2}, {0, 1}, {0, 3}, true, 0.0},    // vertical collinear overlap
    {{0, 0}, {1, 0}, {3, 0}, {4, 0}, false, 2.0},   // collinear disjoint
    {{0, 0}, {1, 1}, {2, 2}, {3, 3}, false, SQRT2}, // collinear diagonal disjoint
    {{0, 0}, {2, 0}, {0, 1}, {2, 1}, false, 1.0},   // parallel
    {{0, 0}, {1, 0}, {2, 1}, {3, 1}, false, SQRT2}, // parallel, offset
    {{0, 0}, {1, 0}, {2, -1}, {2, 1}, false, 1.0},  // line would cross, segment stops
    {{0, 0}, {2, 0}, {1, 0.5}, {1, 3}, false, 0.5}, // T that stops short
    {{0, 0}, {1, 0}, {1.000001, -1}, {1.000001, 1}, false, 0.000001},
    {{0, 0}, {4, 4}, {4, 0}, {3, 1}, false, SQRT2}, // end to interior on a diagonal
    {{1, 0}, {1, 0}, {0, 0}, {2, 0}, true, 0.0},    // zero-length on the segment
    {{1, 2}, {1, 2}, {0, 0}, {2, 0}, false, 2.0},   // zero-length off it
    {{3, 0}, {3, 0}, {0, 0}, {2, 0}, false, 1.0},   // zero-length on the line, beyond
    {{1, 1}, {1, 1}, {1, 1}, {1, 1}, true, 0.0},    // two equal points
    {{0, 0}, {0, 0}, {3, 4}, {3, 4}, false, 5.0},   // two distinct points
};

// The least distance sum over a segment, against the least over dense samples of it: the sum
// moves by at most twice the step between samples, so the true least lies within that below the
// sampled one.
static void check_least_distance_sum(vec2 o, vec2 g, vec2 p, vec2 q) {
  enum { SAMPLES = 20000 };
  double sampled = INFINITY;
  for (int k = 0; k <= SAMPLES; ++k) {
    vec2 x = v2_lerp(p, q, (double)k / SAMPLES);
    sampled = fmin(sampled, v2_dist(x, o) + v2_dist(x, g));
  }
  double step = v2_dist(p, q) / SAMPLES;
  double got = an_least_distance_sum(o, g, p, q);
  ck_assert_msg(got <= sampled + 1e-12 && got >= sampled - 2.0 * step - 1e-12,
                "least sum (%g, %g) (%g, %g) over (%g, %g)-(%g, %g): %.17g, sampled %.17g", o.x,
                o.y, g.x, g.y, p.x, p.y, q.x, q.y, got, sampled);
}

START_TEST(test_least_distance_sum) {
  // Both on one side, on either side, on the line, ends of the segment nearest, a point.
  check_least_distance_sum(v2(0, 1), v2(4, 3), v2(-1, 0), v2(5, 0));
  check_least_distance_sum(v2(0, -1), v2(4, 3), v2(-1, 0), v2(5, 0));
  check_least_distance_sum(v2(0, 1), v2(4, 3), v2(2, 0), v2(5, 0));
  check_least_distance_sum(v2(0, 1), v2(4, 3), v2(-3, 0), v2(-1, 0));
  check_least_distance_sum(v2(1, 0), v2(4, 3), v2(-1, 0), v2(5, 0));
  check_least_distance_sum(v2(-2, 0), v2(7, 0), v2(-1, 0), v2(5, 0));
  check_least_distance_sum(v2(-2, 0), v2(7, 0), v2(8, 0), v2(9, 0));
  check_least_distance_sum(v2(0, 1), v2(4, 3), v2(2, 2), v2(2, 2));
  uint64_t state = 0x2545f4914f6cdd1dull;
  for (int k = 0; k < 200; ++k) {
    vec2 o = rnd_point(&state, 5.0), g = rnd_point(&state, 5.0);
    vec2 p = rnd_point(&state, 5.0), q = rnd_point(&state, 5.0);
    check_least_distance_sum(o, g, p, q);
  }
}
END_TEST

START_TEST(test_segments_intersect) {
  vec2 a = seg_cases[_i].a, b = seg_cases[_i].b, c = seg_cases[_i].c, d = seg_cases[_i].d;
  bool want = seg_cases[_i].want;
  ck_assert_int_eq(an_segments_intersect(a, b, c, d), want);
  ck_assert_int_eq(an_segments_intersect(b, a, c, d), want);
  ck_assert_int_eq(an_segments_intersect(c, d, a, b), want);
  ck_assert_int_eq(an_segments_intersect(d, c, b, a), want);
  // The exact test agrees on these hand cases, whose orientations round to their true signs.
  ck_assert_int_eq(an_segments_intersect_exact(a, b, c, d), want);
  ck_assert_int_eq(an_segments_intersect_exact(b, a, c, d), want);
  ck_assert_int_eq(an_segments_intersect_exact(c, d, a, b), want);
  ck_assert_int_eq(an_segments_intersect_exact(d, c, b, a), want);
}
END_TEST

START_TEST(test_segment_segment_dist) {
  vec2 a = seg_cases[_i].a, b = seg_cases[_i].b, c = seg_cases[_i].c, d = seg_cases[_i].d;
  double got = an_segment_segment_dist(a, b, c, d);
  ck_assert_double_eq_tol(got, seg_cases[_i].dist, TOL);
  ck_assert_double_eq_tol(an_segment_segment_dist(d, c, b, a), got, 1e-12);
  check_against_brute(got, seg_shape(a, b), seg_shape(c, d));
}
END_TEST

// ---------------------------------------------------------------------------------------------
// Segment and circle.

static const struct {
  vec2 a, b, c;
  double r;
  int n;
  double t0, t1;
} seg_circle_cases[] = {
    {{-2, 0}, {2, 0}, {0, 0}, 1, 2, 0.25, 0.75}, // secant through the centre
    {{0, 0}, {2, 0}, {0, 0}, 1, 1, 0.5, 0},      // starts inside
    {{-1, 1}, {1, 1}, {0, 0}, 1, 1, 0.5, 0},     // tangent contact counts once
    {{-1, 2}, {1, 2}, {0, 0}, 1, 0, 0, 0},       // line misses
    {{-0.5, 0}, {0.5, 0}, {0, 0}, 1, 0, 0, 0},   // entirely inside
    {{2, 0}, {3, 0}, {0, 0}, 1, 0, 0, 0},        // outside, line would hit
    {{1, 0}, {3, 0}, {0, 0}, 1, 1, 0.0, 0},      // starts on the circle going out
    {{1, 0}, {-3, 0}, {0, 0}, 1, 2, 0.0, 0.5},   // starts on the circle going across
    {{-4, 3}, {4, 3}, {0, 0}, 5, 2, 0.0, 1.0},   // both ends on the circle
    {{5, 0}, {5, 10}, {5, 5}, 2, 2, 0.3, 0.7},   // vertical, centre off the origin
    {{0, 1}, {0, 1}, {0, 0}, 1, 1, 0.0, 0},      // zero-length on the circle
    {{0, 0.5}, {0, 0.5}, {0, 0}, 1, 0, 0, 0},    // zero-length inside
    {{-1, 0}, {1, 0}, {0, 0}, 0, 1, 0.5, 0},     // zero radius on the segment
    {{-1, 0}, {1, 0}, {0, 1}, 0, 0, 0, 0},       // zero radius off it
    {{0, 0}, {6, 8}, {3, 4}, 5, 2, 0.0, 1.0},    // a diameter
};

START_TEST(test_segment_circle_intersections) {
  vec2 a = seg_circle_cases[_i].a, b = seg_circle_cases[_i].b, c = seg_circle_cases[_i].c;
  double r = seg_circle_cases[_i].r;
  double t[2] = {-1.0, -1.0};
  int n = an_segment_circle_intersections(a, b, c, r, t);
  ck_assert_int_eq(n, seg_circle_cases[_i].n);
  if (n >= 1) {
    ck_assert_double_eq_tol(t[0], seg_circle_cases[_i].t0, 1e-12);
  }
  if (n == 2) {
    ck_assert_double_eq_tol(t[1], seg_circle_cases[_i].t1, 1e-12);
    ck_assert(t[0] <= t[1]);
  }
  for (int i = 0; i < n; i++) {
    ck_assert(t[i] >= 0.0 && t[i] <= 1.0);
    ck_assert_double_eq_tol(v2_dist(v2_lerp(a, b, t[i]), c), r, 1e-12);
  }
}
END_TEST

// ---------------------------------------------------------------------------------------------
// Arcs: distances and intersections.

// Quarter arc in the first quadrant, a right half-circle crossing angle 0, and variants.
#define QUARTER                                                                                    \
  { {0, 0}, 1, 0, AN_PI / 2 }
#define RIGHT_HALF                                                                                 \
  { {0, 0}, 1, 1.5 * AN_PI, AN_PI }

static const struct {
  vec2 p;
  an_arc arc;
  double want;
} point_arc_cases[] = {
    {{2, 2}, QUARTER, 2 * SQRT2 - 1},                      // radial, inside the range
    {{0.5, 0.5}, QUARTER, 1 - 0.5 * SQRT2},                // inside the circle, inside the range
    {{2, -1}, QUARTER, SQRT2},                             // nearest is the start point (1, 0)
    {{-1, -1}, QUARTER, SQRT5},                            // opposite: both ends equally far
    {{0, 0}, QUARTER, 1.0},                                // centre
    {{0.6, 0.8}, QUARTER, 0.0},                            // on the arc
    {{-0.6, -0.8}, QUARTER, 1.7888543819998317},           // on the circle, off the arc: sqrt(3.2)
    {{5, 1}, {{1, 1}, 2, 1.5 * AN_PI, AN_PI}, 2.0},        // wrap arc, angle 0
    {{-3, 1}, {{1, 1}, 2, 1.5 * AN_PI, AN_PI}, 2 * SQRT5}, // wrap arc, angle pi is outside
    {{0, 3}, {{0, 0}, 1, AN_PI / 2, 0}, 2.0},              // sweep 0 is a point
    {{1, 0}, {{0, 0}, 1, AN_PI / 2, 0}, SQRT2},
    {{3, 4}, {{0, 0}, 1, 2.0, AN_TWO_PI}, 4.0}, // full circle
    {{0.6, 0}, {{0, 0}, 1, 2.0, AN_TWO_PI}, 0.4},
    {{4, 5}, {{1, 1}, 0, 0.0, 1.0}, 5.0}, // zero radius
};

START_TEST(test_point_arc_dist) {
  double got = an_point_arc_dist(point_arc_cases[_i].p, &point_arc_cases[_i].arc);
  ck_assert_double_eq_tol(got, point_arc_cases[_i].want, TOL);
  check_against_brute(got, seg_shape(point_arc_cases[_i].p, point_arc_cases[_i].p),
                      arc_shape(point_arc_cases[_i].arc));
}
END_TEST

static const struct {
  vec2 a, b;
  an_arc arc;
  bool meet;
  double dist;
} seg_arc_cases[] = {
    {{0, 0}, {2, 2}, QUARTER, true, 0.0},            // crosses at 45 degrees
    {{0, 0}, {-2, -2}, QUARTER, false, 1.0},         // crosses the circle off the arc
    {{-2, 0}, {2, 0}, QUARTER, true, 0.0},           // through the start point
    {{1, -1}, {1, 1}, QUARTER, true, 0.0},           // tangent at the start point
    {{2, -1}, {-1, 2}, QUARTER, true, 0.0},          // through both end points
    {{SQRT2, 0}, {0, SQRT2}, QUARTER, true, 0.0},    // tangent in the middle
    {{0.5, 0}, {0, 0.5}, QUARTER, false, 0.5},       // chord inside: its ends are nearest
    {{0, 0}, {0.3, 0.4}, QUARTER, false, 0.5},       // radial, stops inside
    {{2, 2}, {3, 3}, QUARTER, false, 2 * SQRT2 - 1}, // radial, outside
    {{-1, -1}, {-1, 1}, QUARTER, false, 1.0},        // tangent off the arc
    {{3, -1}, {3, 1}, QUARTER, false, 2.0},          // foot of the centre at the start angle
    {{2, -5}, {2, 5}, QUARTER, false, 1.0},
    {{-1, -3}, {3, 1}, QUARTER, false, 0.5 * SQRT2},             // arc end to the segment interior
    {{-0.5, -0.5}, {0.2, 0.2}, QUARTER, false, 1 - 0.2 * SQRT2}, // through the centre, stops short
    {{2, 2}, {2, 2}, QUARTER, false, 2 * SQRT2 - 1},             // zero-length segment
    {{0, 0}, {2, 0}, RIGHT_HALF, true, 0.0},                     // wrap arc at angle 0
    {{0, 0}, {-2, 0}, RIGHT_HALF, false, 1.0},
    {{0.5, -2}, {0.5, 2}, RIGHT_HALF, true, 0.0},
    {{-3, -1}, {-3, 1}, RIGHT_HALF, false, 3.0},
    {{0, 0}, {0, 5}, {{0, 0}, 1, 3.0, AN_TWO_PI}, true, 0.0}, // full circle
    {{-0.5, 0}, {0.5, 0}, {{0, 0}, 1, 3.0, AN_TWO_PI}, false, 0.5},
    {{-1, 1}, {1, 1}, {{0, 0}, 1, AN_PI / 2, 0}, true, 0.0}, // sweep 0 on the segment
    {{-1, 1.1}, {1, 1.1}, {{0, 0}, 1, AN_PI / 2, 0}, false, 0.1},
    {{-1, 3}, {1, 3}, {{0, 0}, 1, AN_PI / 2, 0}, false, 2.0},
    {{-1, -1}, {1, 1}, {{0, 0}, 0, 2.0, 0.5}, true, 0.0}, // zero radius
    {{-1, 0.1}, {1, 0.1}, {{0, 0}, 0, 2.0, 0.5}, false, 0.1},
};

START_TEST(test_segment_arc_intersect) {
  ck_assert_int_eq(
      an_segment_arc_intersect(seg_arc_cases[_i].a, seg_arc_cases[_i].b, &seg_arc_cases[_i].arc),
      seg_arc_cases[_i].meet);
  ck_assert_int_eq(
      an_segment_arc_intersect(seg_arc_cases[_i].b, seg_arc_cases[_i].a, &seg_arc_cases[_i].arc),
      seg_arc_cases[_i].meet);
}
END_TEST

START_TEST(test_segment_arc_dist) {
  double got =
      an_segment_arc_dist(seg_arc_cases[_i].a, seg_arc_cases[_i].b, &seg_arc_cases[_i].arc);
  ck_assert_double_eq_tol(got, seg_arc_cases[_i].dist, TOL);
  check_against_brute(got, seg_shape(seg_arc_cases[_i].a, seg_arc_cases[_i].b),
                      arc_shape(seg_arc_cases[_i].arc));
}
END_TEST

// An arc whose end point's coordinates round, placed at various angles: segments through that
// end point must meet the arc.
START_TEST(test_arcs_meeting_at_ends) {
  double theta = 0.3 + 0.7 * _i;
  vec2 c1 = v2(0.25, -0.5);
  // Counter-clockwise from theta - 1 to theta.
  an_arc a = mk_arc(c1, 1.0, an_wrap_angle(theta - 1.0), 1.0);
  // A radial segment through the end point of arc 1 touches it there.
  vec2 out = v2_add(c1, v2(3.0 * cos(theta), 3.0 * sin(theta)));
  ck_assert(an_segment_arc_intersect(c1, out, &a));
  ck_assert_double_eq(an_segment_arc_dist(c1, out, &a), 0.0);
  // Segments starting at the end point, radially outwards and inwards.
  vec2 end = an_arc_end(&a);
  ck_assert(an_segment_arc_intersect(end, v2_add(end, v2_sub(end, c1)), &a));
  ck_assert(an_segment_arc_intersect(end, c1, &a));
  ck_assert(an_segment_arc_intersect(c1, end, &a));
  ck_assert(an_segment_arc_intersect(v2_add(end, v2_sub(end, c1)), end, &a));
  // The tangent line at the end point touches the arc there.
  vec2 e = an_arc_end(&a);
  vec2 along = v2(-sin(theta), cos(theta));
  ck_assert(an_segment_arc_intersect(e, v2_mul_add(e, 2.0, along), &a));
  ck_assert(an_segment_arc_intersect(v2_mul_add(e, -2.0, along), v2_mul_add(e, 2.0, along), &a));
}
END_TEST

// Random shapes: every distance must lie within the brute-force bounds, and `intersect` must
// agree with a zero distance.
START_TEST(test_random_distances) {
  uint64_t state = 0x9e3779b97f4a7c15ull + (uint64_t)_i * 7919u;
  for (int k = 0; k < 15; k++) {
    vec2 p = rnd_point(&state, 5.0);
    vec2 a = rnd_point(&state, 5.0);
    vec2 b = rnd_point(&state, 5.0);
    vec2 c = rnd_point(&state, 5.0);
    vec2 d = rnd_point(&state, 5.0);
    an_arc arc1 = rnd_arc(&state);

    check_against_brute(an_point_arc_dist(p, &arc1), seg_shape(p, p), arc_shape(arc1));
    check_against_brute(an_segment_segment_dist(a, b, c, d), seg_shape(a, b), seg_shape(c, d));

    double sa = an_segment_arc_dist(a, b, &arc1);
    check_against_brute(sa, seg_shape(a, b), arc_shape(arc1));
    ck_assert_int_eq(sa == 0.0, an_segment_arc_intersect(a, b, &arc1));
  }
}
END_TEST

// ---------------------------------------------------------------------------------------------
// Tangents.

// The defining properties of a directed tangent, checked without the formula that built it.
static void check_directed_tangent(const an_tangent *t, vec2 c1, double r1, bool ccw1, vec2 c2,
                                   double r2, bool ccw2, double tol) {
  vec2 u = t->direction;
  ck_assert_double_eq_tol(v2_len(u), 1.0, 1e-12);
  ck_assert_double_eq_tol(v2_dist(t->from, c1), r1, tol);
  ck_assert_double_eq_tol(v2_dist(t->to, c2), r2, tol);
  vec2 seg = v2_sub(t->to, t->from);
  // Travel goes along the direction, never backwards.
  ck_assert_double_eq_tol(v2_cross(u, seg), 0.0, tol);
  ck_assert(v2_dot(u, seg) >= -tol);
  // The radius at each touching point is perpendicular to the travel, and the centre is on the
  // left (signed distance +r) when turning ccw, on the right when turning cw.
  vec2 to_c1 = v2_sub(c1, t->from);
  vec2 to_c2 = v2_sub(c2, t->to);
  ck_assert_double_eq_tol(v2_dot(u, to_c1), 0.0, tol);
  ck_assert_double_eq_tol(v2_dot(u, to_c2), 0.0, tol);
  ck_assert_double_eq_tol(v2_cross(u, to_c1), ccw1 ? r1 : -r1, tol);
  ck_assert_double_eq_tol(v2_cross(u, to_c2), ccw2 ? r2 : -r2, tol);
}

#define H96 0.97979589711327124 // sqrt(0.96)
#define H75 0.86602540378443865 // sqrt(0.75)

typedef struct directed_case {
  vec2 c1;
  double r1;
  bool ccw1;
  vec2 c2;
  double r2;
  bool ccw2;
  double slack;
  bool ok;
  bool check_points; // compare with the hand-derived from / to below
  vec2 from, to;
} directed_case;

static const directed_case directed_cases[] = {
    // Unit circles 10 apart: outer tangents below (ccw) and above (cw), crossing ones.
    {{0, 0}, 1, true, {10, 0}, 1, true, 0, true, true, {0, -1}, {10, -1}},
    {{0, 0}, 1, false, {10, 0}, 1, false, 0, true, true, {0, 1}, {10, 1}},
    {{0, 0}, 1, true, {10, 0}, 1, false, 0, true, true, {0.2, -H96}, {9.8, H96}},
    {{0, 0}, 1, false, {10, 0}, 1, true, 0, true, true, {0.2, H96}, {9.8, -H96}},
    // Radii 1 and 3 touching from outside at (1, 0).
    {{0, 0}, 1, true, {4, 0}, 3, true, 0, true, true, {-0.5, -H75}, {2.5, -3 * H75}},
    {{0, 0}, 1, true, {4, 0}, 3, false, 0, true, true, {1, 0}, {1, 0}},
    {{0, 0}, 1, false, {4, 0}, 3, true, 0, true, true, {1, 0}, {1, 0}},
    // Point to point, every turning combination.
    {{0, 0}, 0, true, {3, 4}, 0, true, 0, true, true, {0, 0}, {3, 4}},
    {{0, 0}, 0, false, {3, 4}, 0, true, 0, true, true, {0, 0}, {3, 4}},
    // Point to circle: the tangent points of (0,0) on the unit circle at (2,0) are at 30 degrees.
    {{0, 0}, 0, true, {2, 0}, 1, true, 0, true, true, {0, 0}, {1.5, -SQRT3 / 2}},
    {{0, 0}, 0, false, {2, 0}, 1, false, 0, true, true, {0, 0}, {1.5, SQRT3 / 2}},
    // Circle to point.
    {{2, 0}, 1, true, {0, 0}, 0, true, 0, true, true, {1.5, SQRT3 / 2}, {0, 0}},
    {{2, 0}, 1, false, {0, 0}, 0, true, 0, true, true, {1.5, -SQRT3 / 2}, {0, 0}},
    // Overlapping circles: outer tangents exist, crossing ones do not.
    {{0, 0}, 2, true, {3, 0}, 2, true, 0, true, true, {0, -2}, {3, -2}},
    {{0, 0}, 2, true, {3, 0}, 2, false, 0, false, false, {0, 0}, {0, 0}},
    {{0, 0}, 2, false, {3, 0}, 2, true, 0, false, false, {0, 0}, {0, 0}},
    // Nested.
    {{0, 0}, 5, true, {1, 0}, 1, true, 0, false, false, {0, 0}, {0, 0}},
    {{0, 0}, 5, false, {1, 0}, 1, false, 0, false, false, {0, 0}, {0, 0}},
    // Touching from inside at (2, 0): zero-length outer tangent heading up.
    {{0, 0}, 2, true, {1, 0}, 1, true, 0, true, true, {2, 0}, {2, 0}},
    // Concentric, including two equal points.
    {{1, 1}, 2, true, {1, 1}, 2, true, 1, false, false, {0, 0}, {0, 0}},
    {{1, 1}, 0, true, {1, 1}, 0, true, 1, false, false, {0, 0}, {0, 0}},
    // A point 1e-7 inside the unit circle: accepted within slack 1e-6, refused with 1e-8.
    {{1 - 1e-7, 0}, 0, true, {0, 0}, 1, true, 1e-6, true, true, {1 - 1e-7, 0}, {1, 0}},
    {{1 - 1e-7, 0}, 0, true, {0, 0}, 1, true, 1e-8, false, false, {0, 0}, {0, 0}},
    // A point 1e-7 outside it: touching within slack 1e-6 (its tangent, 4.5e-4 long, would
    // stand on rounding), a tangent with 1e-8.
    {{1 + 1e-7, 0}, 0, true, {0, 0}, 1, true, 1e-6, true, true, {1 + 1e-7, 0}, {1, 0}},
    {{1 + 1e-7, 0}, 0, true, {0, 0}, 1, true, 1e-8, true, false, {0, 0}, {0, 0}},
    // Equal radii on a diagonal, crossing.
    {{-3, -3}, 1.5, false, {4, 2}, 1.5, true, 0, true, false, {0, 0}, {0, 0}},
    // A large circle to a small one.
    {{0, 0}, 10, true, {30, 5}, 0.5, false, 0, true, false, {0, 0}, {0, 0}},
};

START_TEST(test_directed_tangent) {
  directed_case k = directed_cases[_i];
  an_tangent t;
  bool ok = an_directed_tangent(k.c1, k.r1, k.ccw1, k.c2, k.r2, k.ccw2, k.slack, &t);
  ck_assert_int_eq(ok, k.ok);
  if (!ok) {
    return;
  }
  if (k.check_points) {
    ck_assert_vec2_near(t.from, k.from, 1e-12);
    ck_assert_vec2_near(t.to, k.to, 1e-12);
  }
  // Within slack the tangent is clamped to touching, so the radius check loosens by the slack.
  check_directed_tangent(&t, k.c1, k.r1, k.ccw1, k.c2, k.r2, k.ccw2, 1e-12 + k.slack);
}
END_TEST

START_TEST(test_directed_tangent_zero_length_direction) {
  // Touching circles: the tangent is a point, and the direction is the common tangent line,
  // travelled so that circle 1 (ccw) is on the left.
  an_tangent t;
  ck_assert(an_directed_tangent(v2(0, 0), 1, true, v2(2, 0), 1, false, 0, &t));
  ck_assert_vec2_near(t.from, v2(1, 0), 1e-12);
  ck_assert_vec2_near(t.to, v2(1, 0), 1e-12);
  ck_assert_vec2_near(t.direction, v2(0, 1), 1e-12);
  ck_assert(an_directed_tangent(v2(0, 0), 1, false, v2(2, 0), 1, true, 0, &t));
  ck_assert_vec2_near(t.direction, v2(0, -1), 1e-12);
}
END_TEST

START_TEST(test_random_directed_tangents) {
  uint64_t state = 0x2545f4914f6cdd1dull + (uint64_t)_i * 104729u;
  for (int k = 0; k < 200; k++) {
    vec2 c1 = rnd_point(&state, 10.0);
    vec2 c2 = rnd_point(&state, 10.0);
    // Some zero radii, so points are covered too.
    double r1 = rnd(&state) < 0.15 ? 0.0 : rnd_range(&state, 0.0, 6.0);
    double r2 = rnd(&state) < 0.15 ? 0.0 : rnd_range(&state, 0.0, 6.0);
    bool ccw1 = rnd(&state) < 0.5;
    bool ccw2 = rnd(&state) < 0.5;
    // The tangent exists exactly when the signed radii differ by at most the centre distance.
    double need = fabs((ccw2 ? r2 : -r2) - (ccw1 ? r1 : -r1));
    double d = v2_dist(c1, c2);
    an_tangent t;
    bool ok = an_directed_tangent(c1, r1, ccw1, c2, r2, ccw2, 0.0, &t);
    ck_assert_int_eq(ok, need <= d);
    if (ok) {
      check_directed_tangent(&t, c1, r1, ccw1, c2, r2, ccw2, 1e-9);
    }
  }
}
END_TEST

// ---------------------------------------------------------------------------------------------
// Point in ring.

// An L-shaped ring (either orientation gives the same answers) and points off its boundary.
static const vec2 l_ring[] = {{0, 0}, {4, 0}, {4, 1}, {1, 1}, {1, 3}, {0, 3}};

static const struct {
  vec2 p;
  bool inside;
} in_ring_cases[] = {
    {{0.5, 0.5}, true},   // the corner square
    {{3.5, 0.5}, true},   // the foot
    {{0.5, 2.5}, true},   // the stem
    {{2.0, 2.0}, false},  // the notch
    {{5.0, 0.5}, false},  // right of the foot, on the line through its bottom-right
    {{-1.0, 1.0}, false}, // left, level with a vertex
    {{0.5, 1.0}, true},   // level with the notch's bottom edge, inside
    {{2.0, -0.5}, false},
};

START_TEST(test_point_in_ring) {
  vec2 reversed[COUNT(l_ring)];
  for (int i = 0; i < COUNT(l_ring); ++i) {
    reversed[i] = l_ring[COUNT(l_ring) - 1 - i];
  }
  vec2 p = in_ring_cases[_i].p;
  ck_assert_int_eq(an_point_in_ring(p, l_ring, COUNT(l_ring)), in_ring_cases[_i].inside);
  ck_assert_int_eq(an_point_in_ring(p, reversed, COUNT(l_ring)), in_ring_cases[_i].inside);
}
END_TEST

// ---------------------------------------------------------------------------------------------

static Suite *geom_suite(void) {
  Suite *s = suite_create("geom");

  TCase *tc = tcase_create("angles");
  tcase_add_loop_test(tc, test_wrap_angle, 0, COUNT(wrap_cases));
  tcase_add_test(tc, test_wrap_angle_matches_fmod);
  tcase_add_loop_test(tc, test_arc_contains_angle, 0, COUNT(contains_cases));
  suite_add_tcase(s, tc);

  tc = tcase_create("segments");
  tcase_add_loop_test(tc, test_closest_on_segment, 0, COUNT(closest_cases));
  tcase_add_loop_test(tc, test_segments_intersect, 0, COUNT(seg_cases));
  tcase_add_loop_test(tc, test_point_in_ring, 0, COUNT(in_ring_cases));
  tcase_add_loop_test(tc, test_segment_segment_dist, 0, COUNT(seg_cases));
  tcase_add_test(tc, test_least_distance_sum);
  tcase_add_loop_test(tc, test_segment_circle_intersections, 0, COUNT(seg_circle_cases));
  suite_add_tcase(s, tc);

  tc = tcase_create("arcs");
  tcase_set_timeout(tc, 120);
  tcase_add_loop_test(tc, test_point_arc_dist, 0, COUNT(point_arc_cases));
  tcase_add_loop_test(tc, test_segment_arc_intersect, 0, COUNT(seg_arc_cases));
  tcase_add_loop_test(tc, test_segment_arc_dist, 0, COUNT(seg_arc_cases));
  tcase_add_loop_test(tc, test_arcs_meeting_at_ends, 0, 9);
  tcase_add_loop_test(tc, test_random_distances, 0, 4);
  suite_add_tcase(s, tc);

  tc = tcase_create("tangents");
  tcase_add_loop_test(tc, test_directed_tangent, 0, COUNT(directed_cases));
  tcase_add_test(tc, test_directed_tangent_zero_length_direction);
  tcase_add_loop_test(tc, test_random_directed_tangents, 0, 4);
  suite_add_tcase(s, tc);

  return s;
}

int main(void) {
  SRunner *sr = srunner_create(geom_suite());
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
