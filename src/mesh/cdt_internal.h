// SPDX-License-Identifier: MIT
#pragma once

// What the triangulation kernel (cdt.c), the build from points and segments (cdt_build.c) and the
// checks (cdt_check.c) share beyond cdt.h: edge numbering inside a triangle and the rounded
// crossing point both the kernel and the input cutting must place the same way.

#include "mesh/cdt.h"

static inline bool an_cdt_same_point(vec2 a, vec2 b) {
  return a.x == b.x && a.y == b.y;
}

/// Index of the edge of `t` whose neighbour is `other`, or -1.
static inline int an_cdt_neighbour_index(const an_cdt_tri *t, int32_t other) {
  for (int i = 0; i < 3; ++i) {
    if (t->n[i] == other) {
      return i;
    }
  }
  return -1;
}

static inline bool an_cdt_is_constrained(const an_cdt_tri *t, int i) {
  return (t->constrained >> i) & 1u;
}

/// Where segment ab crosses segment pq (which it is known to cross properly), rounded and kept
/// inside pq's bounding box.
vec2 an_cdt_crossing_point(vec2 a, vec2 b, vec2 p, vec2 q);
