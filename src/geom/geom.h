// SPDX-License-Identifier: MIT
#pragma once

// Geometry kernel: vector math (inline), distances, intersections and tangents between points,
// segments, circles and arcs. Every function is total: degenerate input (zero-length segments,
// zero radii, concentric circles) gives a defined answer, and square roots of quantities that may
// be slightly negative from rounding are clamped first.

#include "arcnav/arcnav.h"
#include "geom/tolerances.h"

#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef arcnav_vec2 vec2;

#define AN_PI 3.14159265358979323846
#define AN_TWO_PI 6.28318530717958647693

static inline vec2 v2(double x, double y) {
  return (vec2){x, y};
}
static inline vec2 v2_add(vec2 a, vec2 b) {
  return v2(a.x + b.x, a.y + b.y);
}
static inline vec2 v2_sub(vec2 a, vec2 b) {
  return v2(a.x - b.x, a.y - b.y);
}
static inline vec2 v2_scale(vec2 a, double s) {
  return v2(a.x * s, a.y * s);
}
static inline vec2 v2_mul_add(vec2 a, double s, vec2 b) {
  return v2(a.x + s * b.x, a.y + s * b.y);
}
static inline double v2_dot(vec2 a, vec2 b) {
  return a.x * b.x + a.y * b.y;
}
static inline double v2_cross(vec2 a, vec2 b) {
  return a.x * b.y - a.y * b.x;
}
static inline double v2_len2(vec2 a) {
  return v2_dot(a, a);
}
// sqrt of the dot product rather than hypot: several times faster, and arcnav coordinates stay
// far from the 1e154 where squaring would overflow.
static inline double v2_len(vec2 a) {
  return sqrt(v2_dot(a, a));
}
static inline double v2_dist(vec2 a, vec2 b) {
  return v2_len(v2_sub(a, b));
}
static inline double v2_dist2(vec2 a, vec2 b) {
  return v2_len2(v2_sub(a, b));
}
/// Rotate by +90 degrees (counter-clockwise).
static inline vec2 v2_perp(vec2 a) {
  return v2(-a.y, a.x);
}
/// Unit vector in the direction of a; (0, 0) for the zero vector.
static inline vec2 v2_normalize(vec2 a) {
  double len = v2_len(a);
  return len > 0.0 ? v2_scale(a, 1.0 / len) : v2(0.0, 0.0);
}
static inline vec2 v2_from_angle(double angle) {
  return v2(cos(angle), sin(angle));
}
static inline double v2_angle(vec2 a) {
  return atan2(a.y, a.x);
}
/// Exactly the same point (no tolerance).
static inline bool v2_equal(vec2 a, vec2 b) {
  return a.x == b.x && a.y == b.y;
}
/// Coordinates and radii the library accepts (arcnav.h: ARCNAV_ERR_TOO_LARGE).
static inline bool an_coordinate_in_range(double value) {
  return fabs(value) <= AN_MAX_COORDINATE;
}
static inline bool v2_is_finite(vec2 a) {
  return isfinite(a.x) && isfinite(a.y);
}
static inline vec2 v2_lerp(vec2 a, vec2 b, double t) {
  return v2(a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t);
}
static inline double an_min(double a, double b) {
  return a < b ? a : b;
}
static inline double an_max(double a, double b) {
  return a > b ? a : b;
}

/// `x` kept as a float no smaller (an_float_at_least) or no larger (an_float_at_most) than it: a
/// bound stored in 4 bytes stays a bound, and a value carried and one measured again store alike.
static inline float an_float_at_least(double x) {
  float kept = (float)x;
  return (double)kept < x ? nextafterf(kept, INFINITY) : kept;
}
static inline float an_float_at_most(double x) {
  float kept = (float)x;
  return (double)kept > x ? nextafterf(kept, -INFINITY) : kept;
}
/// -1, 0 or 1 as x is negative, zero or positive.
static inline int an_sign(double x) {
  return (x > 0.0) - (x < 0.0);
}
/// Is p inside the closed axis-aligned box spanned by a and b? Exact.
static inline bool an_in_closed_box(vec2 p, vec2 a, vec2 b) {
  return p.x >= an_min(a.x, b.x) && p.x <= an_max(a.x, b.x) && p.y >= an_min(a.y, b.y) &&
         p.y <= an_max(a.y, b.y);
}
/// sqrt that treats tiny negative rounding residue as zero.
static inline double an_safe_sqrt(double x) {
  return x > 0.0 ? sqrt(x) : 0.0;
}

/// Angle wrapped into [0, 2*pi).
double an_wrap_angle(double angle);

/// Twice the signed area of triangle abc: > 0 when a, b, c turn counter-clockwise. Plain floating
/// point; the triangulation uses its own robust predicates.
static inline double an_orient(vec2 a, vec2 b, vec2 c) {
  return v2_cross(v2_sub(b, a), v2_sub(c, a));
}

/// A circular arc: centre, radius, start angle and a sweep in [0, 2*pi] measured
/// counter-clockwise. A clockwise arc is stored as the counter-clockwise arc from its end.
typedef struct an_arc {
  vec2 center;
  double radius;
  double start_angle;
  double sweep;
} an_arc;

/// Point on the arc's circle at `angle`.
static inline vec2 an_circle_point(vec2 center, double radius, double angle) {
  return v2_mul_add(center, radius, v2_from_angle(angle));
}
vec2 an_arc_start(const an_arc *arc);
vec2 an_arc_end(const an_arc *arc);
/// Is `angle` within the arc's angular range (inclusive, with `slack` radians either side)?
bool an_arc_contains_angle(const an_arc *arc, double angle, double slack);

/// Does segment ab cross the horizontal ray from p to the right (the even-odd rule's step: an
/// edge counts when exactly one end lies above p)?
static inline bool an_ray_crosses(vec2 p, vec2 a, vec2 b) {
  return (a.y > p.y) != (b.y > p.y) && p.x < a.x + (p.y - a.y) * (b.x - a.x) / (b.y - a.y);
}
/// Even-odd test of p against the ring's points (closing edge implied). Points on the ring may go
/// either way: callers test only points known to lie off it.
bool an_point_in_ring(vec2 p, const vec2 *points, size_t count);
/// Bounding box of count >= 1 points.
void an_box_of_points(const vec2 *points, size_t count, vec2 *out_min, vec2 *out_max);

/// Closest point to p on segment ab (a when a == b). Inline, as is the distance: the point and
/// segment tests measure every item of a cell with it.
static inline vec2 an_closest_on_segment(vec2 p, vec2 a, vec2 b) {
  vec2 ab = v2_sub(b, a);
  double len2 = v2_len2(ab);
  if (!(len2 > 0.0)) {
    return a;
  }
  double t = v2_dot(v2_sub(p, a), ab) / len2;
  if (!(t > 0.0)) {
    return a;
  }
  if (t >= 1.0) {
    return b;
  }
  return v2_mul_add(a, t, ab);
}
/// The squared distance from p to segment ab. The least of several, then one square root, is the
/// least distance bit for bit (the root rounds correctly and never decreases): one root instead of
/// one a piece where a least distance is wanted.
static inline double an_point_segment_dist2(vec2 p, vec2 a, vec2 b) {
  return v2_dist2(p, an_closest_on_segment(p, a, b));
}
static inline double an_point_segment_dist(vec2 p, vec2 a, vec2 b) {
  return sqrt(an_point_segment_dist2(p, a, b));
}
/// Is p within `reach` of segment ab? As an_point_segment_dist(p, a, b) <= reach up to rounding,
/// without its square root and division: for the floods that test every edge they cross.
static inline bool an_point_segment_within(vec2 p, vec2 a, vec2 b, double reach) {
  vec2 ab = v2_sub(b, a), ap = v2_sub(p, a);
  double along = v2_dot(ap, ab), len2 = v2_len2(ab), reach2 = reach * reach;
  if (!(along > 0.0) || !(len2 > 0.0)) {
    return v2_len2(ap) <= reach2;
  }
  if (along >= len2) {
    return v2_dist2(p, b) <= reach2;
  }
  double across = v2_cross(ab, ap);
  return across * across <= reach2 * len2;
}
/// The least of |x - o| + |x - g| over the points x of segment pq. Along the segment's line the
/// sum is convex, least where the line meets the way from o to g (or to g's mirror image in the
/// line, when both lie on one side); the segment's least is there or at its nearer end.
double an_least_distance_sum(vec2 o, vec2 g, vec2 p, vec2 q);
/// Do closed segments ab and cd share a point (crossing, touching at an end, collinear overlap),
/// given the signs (an_sign) of the orientations of a and b against cd and of c and d against ab,
/// in that order? The one decision behind an_segments_intersect() and the exact
/// an_segments_intersect_exact() of predicates.h, which differ only in how they get the signs.
bool an_segments_meet_given_signs(vec2 a, vec2 b, vec2 c, vec2 d, const int sign[4]);
/// Do closed segments ab and cd share a point? Signs from the plain floating-point an_orient():
/// map validation decides with this rounded answer on purpose (later stages round the same way),
/// and distances treat what it sees meeting as distance 0.
bool an_segments_intersect(vec2 a, vec2 b, vec2 c, vec2 d);
/// Distance between closed segments ab and cd (0 when they intersect).
double an_segment_segment_dist(vec2 a, vec2 b, vec2 c, vec2 d);

/// Parameters t in [0, 1] where segment ab meets the circle (center, radius), ascending.
/// Returns how many (0, 1 or 2; a tangent contact counts once).
int an_segment_circle_intersections(vec2 a, vec2 b, vec2 center, double radius, double out_t[2]);
/// An arc's end points (an_arc_start(), an_arc_end()), worked out once for the tests that read
/// them many times: each costs a sine and a cosine.
typedef struct an_arc_ends {
  vec2 start, end;
} an_arc_ends;
an_arc_ends an_arc_ends_of(const an_arc *arc);

/// Distance between a point and an arc (the nearest point of the arc, endpoints included).
double an_point_arc_dist(vec2 p, const an_arc *arc);
/// The same, with the arc's end points given (an_arc_ends_of(arc)).
double an_point_arc_dist_ends(vec2 p, const an_arc *arc, const an_arc_ends *ends);
/// Does segment ab meet the arc?
bool an_segment_arc_intersect(vec2 a, vec2 b, const an_arc *arc);
/// Distance between segment ab and an arc (0 when they meet).
double an_segment_arc_dist(vec2 a, vec2 b, const an_arc *arc);
/// The same, with the arc's end points given (an_arc_ends_of(arc)).
double an_segment_arc_dist_ends(vec2 a, vec2 b, const an_arc *arc, const an_arc_ends *ends);

/// A directed tangent segment from a point on circle 1 to a point on circle 2.
typedef struct an_tangent {
  vec2 from;      ///< touching point on circle 1
  vec2 to;        ///< touching point on circle 2
  vec2 direction; ///< unit direction of travel from -> to (defined even when from == to)
} an_tangent;

/// The directed common tangent along which an agent leaves circle 1 turning `ccw1` and arrives on
/// circle 2 turning `ccw2` (turning ccw around a centre keeps it on the traveller's left).
/// Radii may be 0 (a point). Exactly one such tangent exists when the circles allow it; returns
/// false when they do not (one circle inside the other for that pairing, or concentric). A
/// configuration within `slack` inside touching is treated as touching (zero-length tangent), so
/// a point that lies within `slack` inside a circle still gets its tangent; so is a point (radius
/// 0) within `slack` outside a circle, whose tangent, sqrt(2 r gap) long, would stand on rounding.
bool an_directed_tangent(vec2 c1, double r1, bool ccw1, vec2 c2, double r2, bool ccw2, double slack,
                         an_tangent *out);

/// A sort key for visiting things in space order, with the index of the thing it belongs to.
typedef struct an_order_key {
  uint64_t key;
  uint32_t index;
} an_order_key;

/// qsort comparison: by key, then by index, so equal keys keep a fixed order.
int an_compare_order_keys(const void *a, const void *b);

/// Position of p along a Hilbert curve of order 16 over the box (points outside are clamped to
/// it): points close on the curve are close in the plane, so things visited in this order share
/// cache lines and walks between them are short.
uint64_t an_hilbert_index(vec2 p, vec2 box_min, vec2 box_max);

/// Signed area of a ring's stored vertices (> 0 for counter-clockwise).
double an_ring_signed_area(const vec2 *points, size_t count);
