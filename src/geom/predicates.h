// SPDX-License-Identifier: MIT
#pragma once

// Robust geometric predicates for the triangulation. Both are exact in sign for any finite double
// input: a floating-point evaluation with a proven error bound answers when it can, and otherwise
// the determinant is evaluated exactly with floating-point expansions (Shewchuk's representation:
// a sum of non-overlapping doubles). Exact signs matter here because the triangulation makes
// topological decisions (which side, inside a circle or not) from them; one inconsistent answer
// can produce crossing edges or a flip loop. The grid-like maps this library sees are full of
// exactly collinear and cocircular points, so the exact stage is not a rarity and is kept cheap by
// dropping zero components.

#include "geom/geom.h"

#include <float.h>
#include <math.h>

/// 2^-53: the relative error of one rounding of a double, in the predicates' error bounds.
#define AN_UNIT_ROUNDOFF (DBL_EPSILON / 2.0)

/// an_orient2d() where the plain evaluation cannot tell the sign: the determinant evaluated
/// exactly.
double an_orient2d_exact(vec2 a, vec2 b, vec2 c);

/// Twice the signed area of abc: > 0 when a, b, c turn counter-clockwise, < 0 clockwise, 0 exactly
/// when collinear. The sign is exact; the magnitude is an approximation. Inline: the plain
/// evaluation decides nearly every call, and the walks through the triangulation and the interval
/// search make millions.
static inline double an_orient2d(vec2 a, vec2 b, vec2 c) {
  // Error bound of the plain evaluation (Shewchuk 1997, ccwerrboundA).
  const double bound_a = (3.0 + 16.0 * AN_UNIT_ROUNDOFF) * AN_UNIT_ROUNDOFF;
  double left = (a.x - c.x) * (b.y - c.y);
  double right = (a.y - c.y) * (b.x - c.x);
  double det = left - right;
  double sum = fabs(left) + fabs(right);
  if (fabs(det) > bound_a * sum) {
    return det;
  }
  return an_orient2d_exact(a, b, c);
}

/// > 0 when d lies strictly inside the circle through a, b, c (given counter-clockwise), < 0 when
/// strictly outside, 0 exactly when cocircular. The sign is exact.
double an_incircle(vec2 a, vec2 b, vec2 c, vec2 d);

/// Do closed segments ab and cd share a point (crossing, touching at an end, collinear overlap)?
/// Exact: an_segments_intersect() of geom.h with the signs of an_orient2d().
bool an_segments_intersect_exact(vec2 a, vec2 b, vec2 c, vec2 d);

/// Does segment pq meet the closed box [lo, hi]? Their x and y ranges overlap and the box's
/// corners do not all lie strictly on one side of the line pq. Exact.
bool an_segment_meets_box(vec2 p, vec2 q, vec2 lo, vec2 hi);
