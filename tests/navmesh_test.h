// SPDX-License-Identifier: MIT
#pragma once

// Areas for checking navmeshes: a ring's by the support code's shoelace formula, and the sum over
// a mesh's free triangles, each of which must be counter-clockwise with positive area.

#include "mapgen.h"
#include "mesh/navmesh.h"
#include "verify.h"

#include <check.h>

static inline double test_ring_area(const arcnav_vec2 *points, size_t count) {
  sup_ring ring = {(arcnav_vec2 *)points, count};
  return sup_ring_signed_area(&ring);
}

/// Sum of the free triangles' areas (connectors are not counted as triangles).
static inline double test_free_mesh_area(const an_navmesh *mesh) {
  double area = 0.0;
  for (size_t t = 0; t < an_navmesh_triangle_count(mesh); ++t) {
    vec2 p[3];
    an_navmesh_triangle(mesh, t, p);
    double a =
        0.5 * ((p[1].x - p[0].x) * (p[2].y - p[0].y) - (p[2].x - p[0].x) * (p[1].y - p[0].y));
    if (!(a > 0.0)) { // by hand: a passing ck_assert is recorded, per triangle
      ck_abort_msg("free triangle %zu has area %g", t, a);
    }
    area += a;
  }
  return area;
}
