// SPDX-License-Identifier: MIT
#include "geom/geom.h"

#include "geom/tolerances.h"

static double len_tol(double scale) {
  return AN_GEOM_RELATIVE * (1.0 + fabs(scale));
}

double an_wrap_angle(double angle) {
  if (!isfinite(angle)) {
    return 0.0;
  }
  // Most angles are differences of two in [-pi, pi] or [0, 2 pi]: within (-2 pi, 4 pi) fmod is
  // at most one exact subtraction (Sterbenz), done here without its call; the same result.
  double a = angle > -AN_TWO_PI && angle < 2.0 * AN_TWO_PI
                 ? (angle >= AN_TWO_PI ? angle - AN_TWO_PI : angle)
                 : fmod(angle, AN_TWO_PI);
  if (a < 0.0) {
    a += AN_TWO_PI;
  }
  // Adding 2*pi to a tiny negative value can round up to exactly 2*pi.
  if (a >= AN_TWO_PI) {
    a = 0.0;
  }
  return a;
}

vec2 an_arc_start(const an_arc *arc) {
  return an_circle_point(arc->center, arc->radius, arc->start_angle);
}

vec2 an_arc_end(const an_arc *arc) {
  return an_circle_point(arc->center, arc->radius, arc->start_angle + arc->sweep);
}

an_arc_ends an_arc_ends_of(const an_arc *arc) {
  return (an_arc_ends){an_arc_start(arc), an_arc_end(arc)};
}

bool an_arc_contains_angle(const an_arc *arc, double angle, double slack) {
  if (slack < 0.0) {
    slack = 0.0;
  }
  if (arc->sweep + 2.0 * slack >= AN_TWO_PI) {
    return true;
  }
  double offset = an_wrap_angle(angle - arc->start_angle);
  // The second test catches angles just before the start, which wrap to nearly 2*pi.
  return offset <= arc->sweep + slack || offset >= AN_TWO_PI - slack;
}

bool an_point_in_ring(vec2 p, const vec2 *points, size_t count) {
  bool inside = false;
  for (size_t i = 0, j = count - 1; i < count; j = i++) {
    inside ^= an_ray_crosses(p, points[i], points[j]);
  }
  return inside;
}

void an_box_of_points(const vec2 *points, size_t count, vec2 *out_min, vec2 *out_max) {
  vec2 lo = points[0], hi = points[0];
  for (size_t i = 1; i < count; ++i) {
    lo.x = an_min(lo.x, points[i].x);
    lo.y = an_min(lo.y, points[i].y);
    hi.x = an_max(hi.x, points[i].x);
    hi.y = an_max(hi.y, points[i].y);
  }
  *out_min = lo;
  *out_max = hi;
}

double an_least_distance_sum(vec2 o, vec2 g, vec2 p, vec2 q) {
  vec2 e = v2_sub(q, p);
  double e2 = v2_len2(e);
  double t = 0.0;
  if (e2 > 0.0) {
    double side_o = v2_cross(e, v2_sub(o, p)), side_g = v2_cross(e, v2_sub(g, p));
    // g's mirror image lies as far along the line as g, on the other side.
    if ((side_o > 0.0 && side_g > 0.0) || (side_o < 0.0 && side_g < 0.0)) {
      side_g = -side_g;
    }
    double across = side_o - side_g;
    vec2 meet = across != 0.0 ? v2_lerp(o, g, side_o / across) : o;
    t = v2_dot(v2_sub(meet, p), e) / e2;
    t = t > 0.0 ? (t < 1.0 ? t : 1.0) : 0.0;
  }
  vec2 x = v2_mul_add(p, t, e);
  return v2_dist(x, o) + v2_dist(x, g);
}

bool an_segments_meet_given_signs(vec2 a, vec2 b, vec2 c, vec2 d, const int sign[4]) {
  if (sign[0] * sign[1] < 0 && sign[2] * sign[3] < 0) {
    return true;
  }
  // Touching and collinear cases; a zero-length segment makes every orientation against it zero,
  // so the box tests also cover point-on-segment and point-equals-point.
  return (sign[0] == 0 && an_in_closed_box(a, c, d)) ||
         (sign[1] == 0 && an_in_closed_box(b, c, d)) ||
         (sign[2] == 0 && an_in_closed_box(c, a, b)) || (sign[3] == 0 && an_in_closed_box(d, a, b));
}

bool an_segments_intersect(vec2 a, vec2 b, vec2 c, vec2 d) {
  const int sign[4] = {an_sign(an_orient(c, d, a)), an_sign(an_orient(c, d, b)),
                       an_sign(an_orient(a, b, c)), an_sign(an_orient(a, b, d))};
  return an_segments_meet_given_signs(a, b, c, d, sign);
}

double an_segment_segment_dist(vec2 a, vec2 b, vec2 c, vec2 d) {
  if (an_segments_intersect(a, b, c, d)) {
    return 0.0;
  }
  // Disjoint segments are closest at an endpoint of one of them (one root: an_point_segment_dist2).
  double best2 = an_point_segment_dist2(a, c, d);
  best2 = an_min(best2, an_point_segment_dist2(b, c, d));
  best2 = an_min(best2, an_point_segment_dist2(c, a, b));
  best2 = an_min(best2, an_point_segment_dist2(d, a, b));
  return sqrt(best2);
}

int an_segment_circle_intersections(vec2 a, vec2 b, vec2 center, double radius, double out_t[2]) {
  vec2 ab = v2_sub(b, a);
  vec2 f = v2_sub(a, center);
  double len2 = v2_len2(ab);
  double r = fabs(radius);
  double tol = len_tol(r + v2_len(f));
  if (!(len2 > 0.0)) {
    if (fabs(v2_len(f) - r) <= tol) {
      out_t[0] = 0.0;
      return 1;
    }
    return 0;
  }
  double len = sqrt(len2);
  // Distance from the centre to the line and the foot parameter; the cross product form avoids
  // the cancellation of the textbook discriminant b^2 - 4ac.
  double line_dist = fabs(v2_cross(f, ab)) / len;
  double t_foot = -v2_dot(f, ab) / len2;
  double t_tol = tol / len;
  if (line_dist > r + tol) {
    return 0;
  }
  double roots[2];
  int n_roots;
  if (line_dist >= r - tol) {
    roots[0] = t_foot;
    n_roots = 1;
  } else {
    double half = an_safe_sqrt((r - line_dist) * (r + line_dist)) / len;
    roots[0] = t_foot - half;
    roots[1] = t_foot + half;
    n_roots = 2;
  }
  int count = 0;
  for (int i = 0; i < n_roots; i++) {
    double t = roots[i];
    if (t >= -t_tol && t <= 1.0 + t_tol) {
      out_t[count++] = an_min(1.0, an_max(0.0, t));
    }
  }
  return count;
}

double an_point_arc_dist(vec2 p, const an_arc *arc) {
  an_arc_ends ends = an_arc_ends_of(arc);
  return an_point_arc_dist_ends(p, arc, &ends);
}

double an_point_arc_dist_ends(vec2 p, const an_arc *arc, const an_arc_ends *ends) {
  double best = an_min(v2_dist(p, ends->start), v2_dist(p, ends->end));
  vec2 v = v2_sub(p, arc->center);
  double dc = v2_len(v);
  if (dc == 0.0) {
    // Every point of the circle is equally far from the centre.
    return an_min(best, fabs(arc->radius));
  }
  if (an_arc_contains_angle(arc, v2_angle(v), 0.0)) {
    best = an_min(best, fabs(dc - fabs(arc->radius)));
  }
  return best;
}

// Is a point of the arc's circle (known to lie on the circle) inside the arc's angular range?
static bool arc_has_circle_point(const an_arc *arc, vec2 p) {
  if (!(arc->radius > 0.0)) {
    return true;
  }
  return an_arc_contains_angle(arc, v2_angle(v2_sub(p, arc->center)), AN_ARC_RANGE_SLACK);
}

bool an_segment_arc_intersect(vec2 a, vec2 b, const an_arc *arc) {
  double t[2];
  int n = an_segment_circle_intersections(a, b, arc->center, arc->radius, t);
  for (int i = 0; i < n; i++) {
    if (arc_has_circle_point(arc, v2_lerp(a, b, t[i]))) {
      return true;
    }
  }
  return false;
}

double an_segment_arc_dist(vec2 a, vec2 b, const an_arc *arc) {
  an_arc_ends ends = an_arc_ends_of(arc);
  return an_segment_arc_dist_ends(a, b, arc, &ends);
}

double an_segment_arc_dist_ends(vec2 a, vec2 b, const an_arc *arc, const an_arc_ends *ends) {
  if (an_segment_arc_intersect(a, b, arc)) {
    return 0.0;
  }
  double best = an_min(an_point_arc_dist_ends(a, arc, ends), an_point_arc_dist_ends(b, arc, ends));
  best = an_min(best, an_point_segment_dist(ends->start, a, b));
  best = an_min(best, an_point_segment_dist(ends->end, a, b));
  // An interior-interior minimum joins the two along a line perpendicular to the segment and
  // radial to the circle, i.e. through the foot of the centre on the segment.
  vec2 ab = v2_sub(b, a);
  double len2 = v2_len2(ab);
  if (len2 > 0.0) {
    double t = v2_dot(v2_sub(arc->center, a), ab) / len2;
    if (t > 0.0 && t < 1.0) {
      vec2 v = v2_sub(v2_mul_add(a, t, ab), arc->center);
      double dv = v2_len(v);
      if (dv > 0.0 && an_arc_contains_angle(arc, v2_angle(v), 0.0)) {
        best = an_min(best, fabs(fabs(arc->radius) - dv));
      }
    }
  }
  return best;
}

// Directed tangent in signed-radius form. Configurations within `snap` of touching are made
// exactly touching so that the two tangents of a touching pair come out identical.
static bool tangent_core(vec2 c1, double r1, bool ccw1, vec2 c2, double r2, bool ccw2, double slack,
                         double snap, an_tangent *out) {
  vec2 dvec = v2_sub(c2, c1);
  double d = v2_len(dvec);
  if (!(d > 0.0) || !isfinite(d)) {
    return false;
  }
  double s1 = ccw1 ? 1.0 : -1.0;
  double s2 = ccw2 ? 1.0 : -1.0;
  double delta = s2 * r2 - s1 * r1;
  double gap = d - fabs(delta);
  if (gap < -slack) {
    return false;
  }
  vec2 e = v2_scale(dvec, 1.0 / d);
  double k;
  double h;
  if (gap <= snap && delta != 0.0) {
    k = delta > 0.0 ? 1.0 : -1.0;
    h = 0.0;
  } else {
    k = an_min(1.0, an_max(-1.0, delta / d));
    // (d - |delta|)(d + |delta|) keeps precision when the circles nearly touch.
    h = an_safe_sqrt(gap * (d + fabs(delta))) / d;
  }
  // w is the traveller's unit left normal; the positive root makes the travel direction point
  // from circle 1 towards circle 2.
  vec2 w = v2_add(v2_scale(e, k), v2_scale(v2_perp(e), h));
  out->direction = v2(w.y, -w.x);
  out->from = v2_mul_add(c1, -s1 * r1, w);
  out->to = v2_mul_add(c2, -s2 * r2, w);
  return true;
}

bool an_directed_tangent(vec2 c1, double r1, bool ccw1, vec2 c2, double r2, bool ccw2, double slack,
                         an_tangent *out) {
  // A point within `slack` outside a circle touches it too: its tangent, sqrt(2 r gap) long,
  // would stand on rounding (the point of a path's end at two circles' crossing, 1e-15 outside
  // one of them, gets one 1e-7 long, in the cusp between them).
  slack = an_max(0.0, slack);
  return tangent_core(c1, r1, ccw1, c2, r2, ccw2, slack, r1 == 0.0 || r2 == 0.0 ? slack : 0.0, out);
}

int an_compare_order_keys(const void *pa, const void *pb) {
  const an_order_key *a = pa, *b = pb;
  if (a->key != b->key) {
    return a->key < b->key ? -1 : 1;
  }
  return a->index < b->index ? -1 : (a->index > b->index);
}

static uint64_t hilbert_key(uint32_t x, uint32_t y) {
  uint64_t d = 0;
  for (uint32_t s = 1u << 15; s > 0; s >>= 1) {
    uint32_t rx = (x & s) > 0, ry = (y & s) > 0;
    d += (uint64_t)s * s * ((3u * rx) ^ ry);
    if (ry == 0) {
      if (rx == 1) {
        x = s - 1 - (x & (s - 1)) + (x & ~(s - 1));
        y = s - 1 - (y & (s - 1)) + (y & ~(s - 1));
        x &= 0xFFFFu;
        y &= 0xFFFFu;
      }
      uint32_t tmp = x;
      x = y;
      y = tmp;
    }
  }
  return d;
}

uint64_t an_hilbert_index(vec2 p, vec2 box_min, vec2 box_max) {
  double fx = (p.x - box_min.x) * (65535.0 / (box_max.x - box_min.x));
  double fy = (p.y - box_min.y) * (65535.0 / (box_max.y - box_min.y));
  fx = an_min(an_max(fx, 0.0), 65535.0);
  fy = an_min(an_max(fy, 0.0), 65535.0);
  if (!(fx == fx) || !(fy == fy)) {
    fx = fy = 0.0;
  }
  return hilbert_key((uint32_t)fx, (uint32_t)fy);
}

double an_ring_signed_area(const vec2 *points, size_t count) {
  // Shoelace relative to the first vertex keeps the terms small for maps far from the origin.
  double twice = 0.0;
  for (size_t i = 1; i + 1 < count; ++i) {
    twice += v2_cross(v2_sub(points[i], points[0]), v2_sub(points[i + 1], points[0]));
  }
  return 0.5 * twice;
}
