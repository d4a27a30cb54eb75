// SPDX-License-Identifier: MIT
#pragma once

// Checks of navmeshes and of the paths searched on them: a ring's area by the support code's
// shoelace formula, the sum over a mesh's free triangles (each counter-clockwise with positive
// area), and a polyline path through the independent verifier.

#include "funnel/funnel.h"
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

/// A funnel or interval search's path as line pieces for the independent verifier at R = 0: it
/// must run from s to g, and its pieces must sum to the reported length.
static inline void test_verify_polyline(const sup_map *desc, double eps, vec2 s, vec2 g,
                                        const an_funnel_result *res) {
  static arcnav_piece pieces[8192];
  ck_assert_uint_le(res->point_count, 8193);
  ck_assert_uint_ge(res->point_count, 2);
  ck_assert(v2_equal(res->points[0], s) && v2_equal(res->points[res->point_count - 1], g));
  size_t n = 0;
  double total = 0.0;
  for (size_t i = 1; i < res->point_count; ++i) {
    vec2 a = res->points[i - 1], b = res->points[i];
    if (v2_equal(a, b)) {
      continue;
    }
    pieces[n] =
        (arcnav_piece){.type = ARCNAV_PIECE_LINE, .from = a, .to = b, .length = v2_dist(a, b)};
    total += pieces[n].length;
    n++;
  }
  ck_assert_double_eq_tol(total, res->length, 1e-9 * (1.0 + total));
  sup_verify_report rep;
  ck_assert_msg(sup_verify_pieces(desc, 0.0, eps, s, g, pieces, n, total, &rep),
                "(%.17g, %.17g) -> (%.17g, %.17g): %s", s.x, s.y, g.x, g.y, rep.message);
}
