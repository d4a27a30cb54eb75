// SPDX-License-Identifier: MIT
// Robust predicates, the constrained Delaunay triangulation and the navmesh built on it.
//
// Predicates are checked against exact integer arithmetic (i128) and against signs derived by
// hand for points a few ulps off a line or circle. Triangulations are checked structurally
// (orientation, adjacency symmetry, Euler's formula, local Delaunay property of every
// non-constraint edge with the exact in-circle test) and against their input: every input point
// is a vertex, and the constraint edges cover exactly the input segments (sampled points of each
// segment lie on a constraint edge, and the constraint edges' total length equals the length of
// the union of the segments). Navmeshes are checked against areas computed independently (shoelace
// of the bounds minus the obstacles, or a grid estimate when obstacles overlap) and pointwise
// against a plain point-in-obstacle test.

#include "arcnav_test.h"
#include "geom/predicates.h"
#include "mapgen.h"
#include "mesh/cdt.h"
#include "mesh/navmesh.h"
#include "navmesh_test.h"
#include "verify.h"

#include <check.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static const an_allocator plain_alloc = {{0}};

// ---------------------------------------------------------------------------------------------
// Predicates

// 128-bit integers are a GCC/Clang extension; the test needs exact products of 50-bit values.
__extension__ typedef __int128 i128;

static int sign128(i128 v) {
  return (v > 0) - (v < 0);
}
static int sign_d(double v) {
  return (v > 0.0) - (v < 0.0);
}

static int orient_int(int64_t ax, int64_t ay, int64_t bx, int64_t by, int64_t cx, int64_t cy) {
  i128 d = (i128)(ax - cx) * (by - cy) - (i128)(ay - cy) * (bx - cx);
  return sign128(d);
}

static int incircle_int(const int64_t p[8]) {
  int64_t adx = p[0] - p[6], ady = p[1] - p[7], bdx = p[2] - p[6], bdy = p[3] - p[7];
  int64_t cdx = p[4] - p[6], cdy = p[5] - p[7];
  i128 al = (i128)adx * adx + (i128)ady * ady;
  i128 bl = (i128)bdx * bdx + (i128)bdy * bdy;
  i128 cl = (i128)cdx * cdx + (i128)cdy * cdy;
  i128 d = al * ((i128)bdx * cdy - (i128)bdy * cdx) + bl * ((i128)cdx * ady - (i128)cdy * adx) +
           cl * ((i128)adx * bdy - (i128)ady * bdx);
  return sign128(d);
}

START_TEST(test_orient_integers) {
  // Small ranges make collinear triples frequent; the scale (a power of two) and the offset keep
  // the doubles exact images of the integers, so the signs must agree exactly.
  sup_rng rng = sup_rng_seed(11);
  const double scale = 0x1p-20;
  for (int it = 0; it < 60000; ++it) {
    int range = it % 2 ? 4 : 1 << 24;
    int64_t c[6];
    for (int k = 0; k < 6; ++k) {
      c[k] = (int64_t)sup_rng_below(&rng, (size_t)range) - range / 2;
    }
    double off = it % 3 == 0 ? 1024.0 : 0.0;
    vec2 a = v2(c[0] * scale + off, c[1] * scale + off);
    vec2 b = v2(c[2] * scale + off, c[3] * scale + off);
    vec2 d = v2(c[4] * scale + off, c[5] * scale + off);
    ck_assert_int_eq(sign_d(an_orient2d(a, b, d)), orient_int(c[0], c[1], c[2], c[3], c[4], c[5]));
  }
}
END_TEST

START_TEST(test_orient_near_line) {
  // orient((0.5 + i u, 0.5 + j u), (12, 12), (24, 24)) = 12 (y - x) exactly: sign(j - i).
  double u = 0x1p-53;
  int wrong_naive = 0;
  for (int i = 0; i < 64; ++i) {
    for (int j = 0; j < 64; ++j) {
      vec2 p = v2(0.5 + i * u, 0.5 + j * u);
      int want = (j > i) - (j < i);
      ck_assert_int_eq(sign_d(an_orient2d(p, v2(12, 12), v2(24, 24))), want);
      wrong_naive += sign_d(an_orient(p, v2(12, 12), v2(24, 24))) != want;
    }
  }
  ck_assert_int_gt(wrong_naive, 0); // the case really needs the exact stage
}
END_TEST

START_TEST(test_incircle_integers) {
  sup_rng rng = sup_rng_seed(12);
  for (int it = 0; it < 60000; ++it) {
    int range = it % 2 ? 6 : 1 << 24;
    int64_t p[8];
    for (int k = 0; k < 8; ++k) {
      p[k] = (int64_t)sup_rng_below(&rng, (size_t)range) - range / 2;
    }
    if (orient_int(p[0], p[1], p[2], p[3], p[4], p[5]) <= 0) {
      continue;
    }
    const double s = 0x1p-10;
    vec2 v[4];
    for (int k = 0; k < 4; ++k) {
      v[k] = v2(p[2 * k] * s + 3.0, p[2 * k + 1] * s - 5.0);
    }
    ck_assert_int_eq(sign_d(an_incircle(v[0], v[1], v[2], v[3])), incircle_int(p));
  }
}
END_TEST

START_TEST(test_incircle_near_circle) {
  // Circle through (0,0), (1,0), (0,1) passes through (1,1). Moved far from the origin so the
  // plain evaluation loses the last bits.
  double off = 1e6;
  vec2 a = v2(off, off), b = v2(off + 1, off), c = v2(off, off + 1);
  vec2 on = v2(off + 1, off + 1);
  ck_assert(an_incircle(a, b, c, on) == 0.0);
  vec2 out = v2(off + 1, nextafter(off + 1, INFINITY));
  vec2 in = v2(off + 1, nextafter(off + 1, 0.0));
  ck_assert(an_incircle(a, b, c, out) < 0.0);
  ck_assert(an_incircle(a, b, c, in) > 0.0);
  // Four corners of a unit square are cocircular in every order.
  ck_assert(an_incircle(v2(0, 0), v2(1, 0), v2(1, 1), v2(0, 1)) == 0.0);
}
END_TEST

// ---------------------------------------------------------------------------------------------
// Triangulation checks

static bool is_con(const an_cdt_tri *t, int i) {
  return (t->constrained >> i) & 1u;
}

/// Structural checks; returns the number of constraint edges' total length in *con_length.
static void check_triangulation(const an_cdt *cdt, double *con_length) {
  // The library's own validator first, then the independent checks below.
  char why[160];
  ck_assert_msg(an_cdt_check(cdt, why, sizeof why), "an_cdt_check: %s", why);
  ck_assert_msg(an_cdt_check_delaunay(cdt, why, sizeof why), "an_cdt_check_delaunay: %s", why);
  size_t boundary = 0, half_edges = 0;
  double length = 0.0, area = 0.0;
  for (size_t t = 0; t < cdt->tri_count; ++t) {
    const an_cdt_tri *tri = &cdt->tris[t];
    vec2 p[3];
    for (int k = 0; k < 3; ++k) {
      p[k] = cdt->points[tri->v[k]];
    }
    // Per-element checks abort by hand: a passing ck_assert is recorded, which for tens of
    // thousands of triangles costs more than the triangulation.
    if (!(an_orient2d(p[0], p[1], p[2]) > 0.0)) {
      ck_abort_msg("triangle %zu not counter-clockwise", t);
    }
    area += 0.5 * an_orient(p[0], p[1], p[2]);
    for (int i = 0; i < 3; ++i) {
      half_edges++;
      int32_t a = tri->v[(i + 1) % 3], b = tri->v[(i + 2) % 3];
      int32_t u = tri->n[i];
      if (u < 0) {
        boundary++;
        continue;
      }
      const an_cdt_tri *ut = &cdt->tris[u];
      int j = -1;
      for (int k = 0; k < 3; ++k) {
        if (ut->n[k] == (int32_t)t) {
          j = k;
        }
      }
      if (j < 0 || ut->v[(j + 1) % 3] != b || ut->v[(j + 2) % 3] != a ||
          is_con(tri, i) != is_con(ut, j)) {
        ck_abort_msg("triangles %zu and %d disagree about their shared edge %d-%d", t, u, a, b);
      }
      if (is_con(tri, i)) {
        if ((int32_t)t < u) {
          length += v2_dist(cdt->points[a], cdt->points[b]);
        }
      } else {
        // Locally Delaunay: the opposite vertex is not strictly inside the circumcircle.
        if (!(an_incircle(p[0], p[1], p[2], cdt->points[ut->v[j]]) <= 0.0)) {
          ck_abort_msg("edge %d of triangle %zu is not locally Delaunay", i, t);
        }
      }
    }
  }
  // Euler: V - E + F = 2 with the outer face.
  size_t edges = (half_edges + boundary) / 2;
  ck_assert_int_eq((long)cdt->point_count - (long)edges + (long)cdt->tri_count, 1);
  ck_assert_int_eq(boundary, 4);
  vec2 lo = cdt->points[0], hi = cdt->points[2];
  double box = (hi.x - lo.x) * (hi.y - lo.y);
  ck_assert_double_eq_tol(area, box, 1e-9 * box);
  *con_length = length;
}

/// Every sample of segment ab lies on a constraint edge (within tol).
static void check_segment_covered(const an_cdt *cdt, vec2 a, vec2 b, double tol) {
  for (int k = 0; k <= 40; ++k) {
    vec2 x = v2_lerp(a, b, k / 40.0);
    double best = INFINITY;
    for (size_t t = 0; t < cdt->tri_count; ++t) {
      const an_cdt_tri *tri = &cdt->tris[t];
      for (int i = 0; i < 3; ++i) {
        if (is_con(tri, i)) {
          vec2 p = cdt->points[tri->v[(i + 1) % 3]], q = cdt->points[tri->v[(i + 2) % 3]];
          best = fmin(best, an_point_segment_dist(x, p, q));
        }
      }
    }
    ck_assert_msg(best <= tol, "sample %d of segment (%g,%g)-(%g,%g) is %g off any constraint", k,
                  a.x, a.y, b.x, b.y, best);
  }
}

/// Every input segment (input point indices, mapped to vertices by vertex_of) is a chain of
/// constraint edges, by the library's validator.
static void check_constraint_chains(const an_cdt *cdt, const int32_t *vertex_of,
                                    const uint32_t *segs, size_t segment_count) {
  char why[160];
  for (size_t s = 0; s < segment_count; ++s) {
    int32_t a = vertex_of[segs[2 * s]], b = vertex_of[segs[2 * s + 1]];
    if (!an_cdt_check_constraint(cdt, a, b, why, sizeof why)) {
      ck_abort_msg("segment %zu: %s", s, why);
    }
  }
}

static void check_vertices_present(const an_cdt *cdt, const vec2 *pts, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    bool found = false;
    for (size_t v = 0; v < cdt->point_count && !found; ++v) {
      found = cdt->points[v].x == pts[i].x && cdt->points[v].y == pts[i].y;
    }
    ck_assert_msg(found, "input point %zu missing", i);
  }
}

START_TEST(test_cdt_random_crossing_segments) {
  for (uint64_t seed = 1; seed <= test_scaled_count(30); ++seed) {
    sup_rng rng = sup_rng_seed(seed);
    size_t n = 20 + sup_rng_below(&rng, 200);
    size_t m = sup_rng_below(&rng, 30);
    vec2 *pts = malloc(n * sizeof *pts);
    uint32_t *segs = malloc(2 * (m + 1) * sizeof *segs);
    bool integer = seed % 2 == 0;
    for (size_t i = 0; i < n; ++i) {
      pts[i] = integer ? v2((double)sup_rng_below(&rng, 12), (double)sup_rng_below(&rng, 12))
                       : v2(sup_rng_uniform(&rng, 0, 10), sup_rng_uniform(&rng, 0, 10));
    }
    double want = 0.0;
    size_t used = 0;
    for (size_t s = 0; s < m; ++s) {
      uint32_t a = (uint32_t)sup_rng_below(&rng, n), b = (uint32_t)sup_rng_below(&rng, n);
      segs[2 * used] = a;
      segs[2 * used + 1] = b;
      used++;
    }
    // Union length of the segments: random segments overlap collinearly only on integer grids,
    // so those runs keep segments that are pairwise non-collinear-overlapping by construction.
    size_t kept = 0;
    for (size_t s = 0; s < used; ++s) {
      vec2 a = pts[segs[2 * s]], b = pts[segs[2 * s + 1]];
      bool overlap = false;
      for (size_t r = 0; r < kept && !overlap; ++r) {
        vec2 c = pts[segs[2 * r]], d = pts[segs[2 * r + 1]];
        if (an_orient2d(a, b, c) == 0.0 && an_orient2d(a, b, d) == 0.0 &&
            an_segment_segment_dist(a, b, c, d) == 0.0) {
          overlap = true;
        }
      }
      if (!overlap && !(a.x == b.x && a.y == b.y)) {
        segs[2 * kept] = segs[2 * s];
        segs[2 * kept + 1] = segs[2 * s + 1];
        kept++;
        want += v2_dist(a, b);
      }
    }
    int32_t *vertex_of = malloc(n * sizeof *vertex_of);
    ck_assert_ptr_nonnull(vertex_of);
    an_cdt cdt;
    arcnav_status st =
        an_cdt_build(&cdt, &plain_alloc, v2(-1, -1), v2(13, 13), pts, n, segs, kept, vertex_of);
    ck_assert_int_eq(st, ARCNAV_OK);
    check_constraint_chains(&cdt, vertex_of, segs, kept);
    double got;
    check_triangulation(&cdt, &got);
    check_vertices_present(&cdt, pts, n);
    ck_assert_double_eq_tol(got, want, 1e-9 * (want + 1.0));
    for (size_t s = 0; s < kept; ++s) {
      check_segment_covered(&cdt, pts[segs[2 * s]], pts[segs[2 * s + 1]], 1e-9);
    }
    an_cdt_free(&cdt);
    free(vertex_of);
    free(pts);
    free(segs);
  }
}
END_TEST

START_TEST(test_cdt_degenerate_input) {
  // A cocircular grid with duplicates, collinear overlapping segments, segments through vertices
  // and segments crossing at grid points and between them.
  vec2 pts[64];
  size_t n = 0;
  for (int y = 0; y < 6; ++y) {
    for (int x = 0; x < 6; ++x) {
      pts[n++] = v2(x, y);
    }
  }
  pts[n++] = v2(2, 2); // duplicate
  pts[n++] = v2(0, 0); // duplicate
  pts[n++] = v2(0.5, 4.25);
  pts[n++] = v2(4.75, 0.5);
  // (0,0)-(5,5) diagonal through grid vertices; (0,5)-(5,0) crossing it at (2.5, 2.5);
  // (0,1)-(5,1) along grid line; (1,0)-(1,5) crossing that at a vertex; (0.5,4.25)-(4.75,0.5)
  // crossing several segments between grid points; (0,3)-(5,3) and (0,3)-(3,3) overlap is
  // avoided (union length would be ambiguous) by using (3,3)-(5,3) only once.
  uint32_t segs[] = {0, 35, 30, 5, 6, 11, 1, 31, 38, 39, 18, 23, 36, 14};
  size_t m = sizeof segs / sizeof segs[0] / 2;
  double want = 0.0;
  for (size_t s = 0; s < m; ++s) {
    want += v2_dist(pts[segs[2 * s]], pts[segs[2 * s + 1]]);
  }
  // Segment 36-14 is (2,2)-(2,2)? No: 36 is the duplicate of (2,2), 14 is (2,2): zero length.
  want -= v2_dist(pts[36], pts[14]);
  an_cdt cdt;
  int32_t vertex_of[64];
  ck_assert_int_eq(
      an_cdt_build(&cdt, &plain_alloc, v2(-1, -1), v2(6, 6), pts, n, segs, m, vertex_of),
      ARCNAV_OK);
  check_constraint_chains(&cdt, vertex_of, segs, m);
  double got;
  check_triangulation(&cdt, &got);
  check_vertices_present(&cdt, pts, n);
  // Duplicates give no extra vertex; the crossings add vertices: 4 + 36 + 2 inputs + at least 1.
  ck_assert_int_gt(cdt.point_count, 42);
  ck_assert_double_eq_tol(got, want, 1e-9);
  for (size_t s = 0; s < m; ++s) {
    check_segment_covered(&cdt, pts[segs[2 * s]], pts[segs[2 * s + 1]], 1e-12);
  }
  // Overlapping collinear constraints: (0,0)-(4,0) and (2,0)-(5,0) cover length 5.
  vec2 line[4] = {v2(0, 0), v2(4, 0), v2(2, 0), v2(5, 0)};
  uint32_t lsegs[4] = {0, 1, 2, 3};
  an_cdt cdt2;
  int32_t line_vertex[4];
  ck_assert_int_eq(
      an_cdt_build(&cdt2, &plain_alloc, v2(-1, -1), v2(6, 1), line, 4, lsegs, 2, line_vertex),
      ARCNAV_OK);
  check_constraint_chains(&cdt2, line_vertex, lsegs, 2);
  check_triangulation(&cdt2, &got);
  ck_assert_double_eq_tol(got, 5.0, 1e-12);
  an_cdt_free(&cdt);
  an_cdt_free(&cdt2);
}
END_TEST

START_TEST(test_cdt_many_crossings) {
  // A star of long segments through nearly one point, plus a fan of parallel-ish lines: many
  // intersections rounded to doubles close to each other.
  vec2 pts[80];
  uint32_t segs[80];
  size_t n = 0, m = 0;
  for (int k = 0; k < 20; ++k) {
    double ang = AN_PI * k / 20.0 + 1e-3 * k;
    vec2 d = v2(cos(ang), sin(ang));
    pts[n++] = v2_mul_add(v2(5, 5), 4.0, d);
    pts[n++] = v2_mul_add(v2(5 + 1e-7 * k, 5), -4.0, d);
    segs[m++] = (uint32_t)(n - 2);
    segs[m++] = (uint32_t)(n - 1);
  }
  an_cdt cdt;
  int32_t vertex_of[80];
  ck_assert_int_eq(
      an_cdt_build(&cdt, &plain_alloc, v2(0, 0), v2(10, 10), pts, n, segs, m / 2, vertex_of),
      ARCNAV_OK);
  check_constraint_chains(&cdt, vertex_of, segs, m / 2);
  double got, want = 0.0;
  for (size_t s = 0; s < m / 2; ++s) {
    want += v2_dist(pts[segs[2 * s]], pts[segs[2 * s + 1]]);
  }
  check_triangulation(&cdt, &got);
  // Rounded crossing points bend the segments by a few ulps: lengths agree to 1e-9.
  ck_assert_double_eq_tol(got, want, 1e-9 * want);
  for (size_t s = 0; s < m / 2; ++s) {
    check_segment_covered(&cdt, pts[segs[2 * s]], pts[segs[2 * s + 1]], 1e-9);
  }
  an_cdt_free(&cdt);
}
END_TEST

/// Same vertices, triangles and constraint flags, in the same order.
static void check_same_cdt(const an_cdt *a, const an_cdt *b) {
  ck_assert_uint_eq(a->point_count, b->point_count);
  ck_assert_uint_eq(a->tri_count, b->tri_count);
  ck_assert(memcmp(a->points, b->points, a->point_count * sizeof *a->points) == 0);
  for (size_t t = 0; t < a->tri_count; ++t) {
    for (int i = 0; i < 3; ++i) {
      ck_assert_int_eq(a->tris[t].v[i], b->tris[t].v[i]);
      ck_assert_int_eq(a->tris[t].n[i], b->tris[t].n[i]);
    }
    ck_assert_uint_eq(a->tris[t].constrained, b->tris[t].constrained);
  }
}

START_TEST(test_cdt_groups_change_nothing) {
  // Random simple polygons (star-shaped around a random centre, so their rings neither cross nor
  // touch themselves) that overlap each other: marking each as a clean group skips the tests
  // inside it but must give exactly the triangulation of the plain build.
  for (uint64_t seed = 1; seed <= test_scaled_count(20); ++seed) {
    sup_rng rng = sup_rng_seed(seed * 31);
    size_t groups = 2 + sup_rng_below(&rng, 6);
    vec2 pts[8 * 40];
    uint32_t segs[2 * 8 * 40], point_group[8 * 40], segment_group[8 * 40];
    uint8_t clean[8];
    size_t n = 0;
    for (size_t g = 0; g < groups; ++g) {
      size_t k = 3 + sup_rng_below(&rng, 37);
      vec2 c = v2(sup_rng_uniform(&rng, 2, 8), sup_rng_uniform(&rng, 2, 8));
      for (size_t i = 0; i < k; ++i) {
        double angle = 2.0 * TEST_PI * ((double)i + sup_rng_uniform(&rng, 0.0, 0.9)) / (double)k;
        double r = sup_rng_uniform(&rng, 0.5, 3.0);
        pts[n + i] = v2(c.x + r * cos(angle), c.y + r * sin(angle));
        point_group[n + i] = segment_group[n + i] = (uint32_t)g;
        segs[2 * (n + i)] = (uint32_t)(n + i);
        segs[2 * (n + i) + 1] = (uint32_t)(n + (i + 1) % k);
      }
      n += k;
      clean[g] = 1;
    }
    an_cdt plain, grouped;
    int32_t vertex_of[8 * 40];
    ck_assert_int_eq(
        an_cdt_build(&plain, &plain_alloc, v2(-1, -1), v2(11, 11), pts, n, segs, n, vertex_of),
        ARCNAV_OK);
    check_constraint_chains(&plain, vertex_of, segs, n);
    an_cdt_options opt = {point_group, segment_group, clean, groups, 0, false};
    ck_assert_int_eq(an_cdt_build_ex(&grouped, &plain_alloc, v2(-1, -1), v2(11, 11), pts, n, segs,
                                     n, &opt, NULL),
                     ARCNAV_OK);
    ck_assert(!opt.over_limit);
    check_same_cdt(&plain, &grouped);
    // Overlapping polygons cross: a budget of one crossing is exceeded and reported.
    double unused;
    check_triangulation(&plain, &unused);
    size_t crossings = plain.point_count - 4 - n;
    if (crossings > 1) {
      an_cdt limited;
      opt.crossing_limit = 1;
      ck_assert_int_eq(an_cdt_build_ex(&limited, &plain_alloc, v2(-1, -1), v2(11, 11), pts, n, segs,
                                       n, &opt, NULL),
                       ARCNAV_ERR_TOO_LARGE);
      ck_assert(opt.over_limit);
    }
    an_cdt_free(&plain);
    an_cdt_free(&grouped);
  }
}
END_TEST

START_TEST(test_cdt_cocircular_points) {
  // Points on two concentric circles are cocircular up to rounding: the build must stay valid
  // and Delaunay, keep every point, and not flip more than a few times per point.
  const size_t n = 20000;
  vec2 *pts = sup_star_ring(n, 100.0, 90.0);
  int32_t *vertex = malloc(n * sizeof *vertex);
  ck_assert_ptr_nonnull(vertex);
  an_cdt cdt;
  ck_assert_int_eq(
      an_cdt_build(&cdt, &plain_alloc, v2(-120, -120), v2(120, 120), pts, n, NULL, 0, vertex),
      ARCNAV_OK);
  ck_assert_msg(cdt.flips <= 8 * n, "%zu flips for %zu points", cdt.flips, n);
  double unused;
  check_triangulation(&cdt, &unused);
  ck_assert_uint_eq(cdt.point_count, n + 4);
  for (size_t i = 0; i < n; ++i) {
    ck_assert_vec2_near(cdt.points[vertex[i]], pts[i], 0.0);
  }
  an_cdt_free(&cdt);
  free(vertex);
  free(pts);
}
END_TEST

START_TEST(test_cdt_split_edge) {
  // A constraint split at its middle stays a constraint on both halves; a point off the edge by
  // far more than rounding is refused.
  vec2 pts[4] = {v2(0, 0), v2(4, 1), v2(2, 3), v2(2, -3)};
  uint32_t segs[2] = {0, 1};
  int32_t vx[4];
  an_cdt cdt;
  ck_assert_int_eq(an_cdt_build(&cdt, &plain_alloc, v2(-1, -4), v2(5, 4), pts, 4, segs, 1, vx),
                   ARCNAV_OK);
  int32_t v;
  ck_assert_int_eq(an_cdt_split_edge(&cdt, vx[0], vx[1], v2(2, 0.5), &v), ARCNAV_OK);
  int32_t t;
  int i = an_cdt_find_edge(&cdt, vx[0], v, &t);
  ck_assert_int_ge(i, 0);
  ck_assert(is_con(&cdt.tris[t], i));
  i = an_cdt_find_edge(&cdt, v, vx[1], &t);
  ck_assert_int_ge(i, 0);
  ck_assert(is_con(&cdt.tris[t], i));
  ck_assert_int_lt(an_cdt_find_edge(&cdt, vx[0], vx[1], &t), 0);
  int32_t w;
  ck_assert_int_eq(an_cdt_split_edge(&cdt, vx[0], v, v2(1, 2), &w), ARCNAV_ERR_INVALID_ARGUMENT);
  ck_assert_int_eq(an_cdt_split_edge(&cdt, vx[0], vx[1], v2(2, 0.5), &w),
                   ARCNAV_ERR_INVALID_ARGUMENT);
  double length;
  check_triangulation(&cdt, &length);
  ck_assert_double_eq_tol(length, hypot(4, 1), 1e-12);
  check_constraint_chains(&cdt, vx, segs, 1); // through the new vertex
  an_cdt_free(&cdt);
}
END_TEST

static bool keep_right_half(void *ctx, vec2 p, vec2 q) {
  (void)ctx;
  return p.x + q.x > 0.0;
}

START_TEST(test_cdt_kept_pieces) {
  // A long segment crossing three vertical constraints: only the pieces right of x = 0 become
  // constraints, the first kept piece starting at a new vertex on the crossed constraint.
  vec2 pts[8] = {v2(-3, -2), v2(-3, 2), v2(-1, -2), v2(-1, 2),
                 v2(1, -2),  v2(1, 2),  v2(-4, 0),  v2(4, 0)};
  uint32_t segs[6] = {0, 1, 2, 3, 4, 5};
  an_cdt cdt;
  int32_t vertex[8];
  ck_assert_int_eq(an_cdt_build(&cdt, &plain_alloc, v2(-5, -3), v2(5, 3), pts, 8, segs, 3, vertex),
                   ARCNAV_OK);
  size_t before = cdt.point_count;
  ck_assert_int_eq(an_cdt_insert_segment_kept(&cdt, vertex[6], vertex[7], keep_right_half, NULL),
                   ARCNAV_OK);
  // One new vertex, at (1, 0) where the kept part starts; none where skipped pieces cross.
  ck_assert_uint_eq(cdt.point_count, before + 1);
  ck_assert_vec2_near(cdt.points[before], v2(1, 0), 0.0);
  double length;
  check_triangulation(&cdt, &length);
  ck_assert_double_eq_tol(length, 3 * 4.0 + 3.0, 1e-12);
  check_constraint_chains(&cdt, vertex, segs, 3);
  char why[160];
  ck_assert_msg(an_cdt_check_constraint(&cdt, (int32_t)before, vertex[7], why, sizeof why), "%s",
                why);
  // The skipped part is no constraint.
  ck_assert(!an_cdt_check_constraint(&cdt, vertex[6], vertex[7], why, sizeof why));
  check_segment_covered(&cdt, v2(1, 0), v2(4, 0), 1e-12);
  an_cdt_free(&cdt);
}
END_TEST

/// A deep copy sharing nothing with `cdt`, for corrupting; free with free_copy().
static an_cdt copy_cdt(const an_cdt *cdt) {
  an_cdt c = *cdt;
  c.points = malloc(cdt->point_count * sizeof *c.points);
  c.vertex_tri = malloc(cdt->point_count * sizeof *c.vertex_tri);
  c.tris = malloc(cdt->tri_count * sizeof *c.tris);
  ck_assert(c.points && c.vertex_tri && c.tris);
  memcpy(c.points, cdt->points, cdt->point_count * sizeof *c.points);
  memcpy(c.vertex_tri, cdt->vertex_tri, cdt->point_count * sizeof *c.vertex_tri);
  memcpy(c.tris, cdt->tris, cdt->tri_count * sizeof *c.tris);
  c.stack = NULL;
  c.stack_count = c.stack_capacity = 0;
  return c;
}

static void free_copy(an_cdt *c) {
  free(c->points);
  free(c->vertex_tri);
  free(c->tris);
}

/// An interior edge (both sides are triangles) of the triangulation, constrained or not as asked.
static void find_interior_edge(const an_cdt *cdt, bool constrained, int32_t *out_t, int *out_i) {
  for (size_t t = 0; t < cdt->tri_count; ++t) {
    for (int i = 0; i < 3; ++i) {
      if (cdt->tris[t].n[i] >= 0 && is_con(&cdt->tris[t], i) == constrained) {
        *out_t = (int32_t)t;
        *out_i = i;
        return;
      }
    }
  }
  ck_abort_msg("no interior edge with constrained = %d", constrained);
}

// ---- removal --------------------------------------------------------------------------------

// The triangles of a triangulation as sorted triples of coordinates (each triangle from its
// lowest vertex, counter-clockwise), the box's corners included: two triangulations of the same
// points in general position are the same Delaunay triangulation exactly when these agree.
typedef struct tri_key {
  vec2 p[3];
} tri_key;

static int compare_points(vec2 a, vec2 b) {
  return a.x < b.x ? -1 : a.x > b.x ? 1 : a.y < b.y ? -1 : a.y > b.y ? 1 : 0;
}

static int compare_tri_keys(const void *lhs, const void *rhs) {
  const tri_key *a = lhs, *b = rhs;
  for (int k = 0; k < 3; ++k) {
    int c = compare_points(a->p[k], b->p[k]);
    if (c != 0) {
      return c;
    }
  }
  return 0;
}

static tri_key *triangle_keys(const an_cdt *cdt) {
  tri_key *keys = malloc(cdt->tri_count * sizeof *keys);
  ck_assert_ptr_nonnull(keys);
  for (size_t t = 0; t < cdt->tri_count; ++t) {
    const an_cdt_tri *tri = &cdt->tris[t];
    int low = 0;
    for (int k = 1; k < 3; ++k) {
      if (compare_points(cdt->points[tri->v[k]], cdt->points[tri->v[low]]) < 0) {
        low = k;
      }
    }
    for (int k = 0; k < 3; ++k) {
      keys[t].p[k] = cdt->points[tri->v[(low + k) % 3]];
    }
  }
  qsort(keys, cdt->tri_count, sizeof *keys, compare_tri_keys);
  return keys;
}

// `cdt`, after removals, must be the triangulation built afresh from what is left: valid,
// Delaunay, every constraint left in place, and triangle for triangle the fresh one.
static void check_same_as_fresh(const an_cdt *cdt, const vec2 *pts, const bool *point_left,
                                size_t n, const uint32_t *segs, const bool *seg_left, size_t m,
                                const int32_t *vertex_of) {
  char why[256];
  ck_assert_msg(an_cdt_check(cdt, why, sizeof why), "%s", why);
  ck_assert_msg(an_cdt_check_delaunay(cdt, why, sizeof why), "%s", why);
  vec2 *kept_pts = malloc(n * sizeof *kept_pts);
  uint32_t *index = malloc(n * sizeof *index);
  uint32_t *kept_segs = malloc(2 * (m + 1) * sizeof *kept_segs);
  ck_assert(kept_pts && index && kept_segs);
  size_t kn = 0, km = 0;
  for (size_t i = 0; i < n; ++i) {
    index[i] = (uint32_t)kn;
    if (point_left[i]) {
      kept_pts[kn++] = pts[i];
    }
  }
  for (size_t s = 0; s < m; ++s) {
    if (seg_left[s]) {
      ck_assert_msg(an_cdt_check_constraint(cdt, vertex_of[segs[2 * s]], vertex_of[segs[2 * s + 1]],
                                            why, sizeof why),
                    "%s", why);
      kept_segs[2 * km] = index[segs[2 * s]];
      kept_segs[2 * km + 1] = index[segs[2 * s + 1]];
      ++km;
    }
  }
  an_cdt fresh;
  ck_assert_int_eq(an_cdt_build(&fresh, &plain_alloc, cdt->points[0], cdt->points[2], kept_pts, kn,
                                kept_segs, km, NULL),
                   ARCNAV_OK);
  ck_assert_uint_eq(cdt->tri_count, fresh.tri_count);
  tri_key *a = triangle_keys(cdt), *b = triangle_keys(&fresh);
  // The empty box's four corners lie on one circle: either diagonal is Delaunay. With a point
  // inside, that circle is not empty and the input is in general position.
  for (size_t t = 0; t < (kn > 0 ? cdt->tri_count : 0); ++t) {
    ck_assert_msg(compare_tri_keys(&a[t], &b[t]) == 0,
                  "triangle %zu of %zu differs from the fresh build", t, cdt->tri_count);
  }
  free(a);
  free(b);
  an_cdt_free(&fresh);
  free(kept_pts);
  free(index);
  free(kept_segs);
}

// Random triangles (apart from each other) among loose points: each triangle's constraints are
// given back and its corners removed, one triangle or point at a time, and after each step the
// triangulation must be the one built afresh without them; then everything is put back by
// insertion and it must be the whole input's again.
START_TEST(test_cdt_remove_matches_fresh_build) {
  for (uint64_t seed = 1; seed <= test_scaled_count(25); ++seed) {
    sup_rng rng = sup_rng_seed(seed * 7919);
    size_t shapes = 4 + sup_rng_below(&rng, 12), loose = sup_rng_below(&rng, 40);
    size_t n = 3 * shapes + loose, m = 3 * shapes;
    vec2 *pts = malloc(n * sizeof *pts);
    uint32_t *segs = malloc(2 * m * sizeof *segs);
    ck_assert(pts && segs);
    vec2 lo[16], hi[16];
    size_t made = 0;
    for (int tries = 0; made < shapes && tries < 10000; ++tries) {
      vec2 c = v2(sup_rng_uniform(&rng, 5, 95), sup_rng_uniform(&rng, 5, 95));
      vec2 corner[3];
      for (int k = 0; k < 3; ++k) {
        double angle = 2.0944 * k + sup_rng_uniform(&rng, -0.6, 0.6);
        double r = sup_rng_uniform(&rng, 1.0, 6.0);
        corner[k] = v2(c.x + r * cos(angle), c.y + r * sin(angle));
      }
      vec2 blo = corner[0], bhi = corner[0];
      for (int k = 1; k < 3; ++k) {
        blo = v2(fmin(blo.x, corner[k].x), fmin(blo.y, corner[k].y));
        bhi = v2(fmax(bhi.x, corner[k].x), fmax(bhi.y, corner[k].y));
      }
      bool apart = true;
      for (size_t o = 0; o < made && apart; ++o) {
        apart = blo.x > hi[o].x || bhi.x < lo[o].x || blo.y > hi[o].y || bhi.y < lo[o].y;
      }
      if (!apart) {
        continue;
      }
      lo[made] = blo;
      hi[made] = bhi;
      for (int k = 0; k < 3; ++k) {
        pts[3 * made + (size_t)k] = corner[k];
        segs[2 * (3 * made + (size_t)k)] = (uint32_t)(3 * made + (size_t)k);
        segs[2 * (3 * made + (size_t)k) + 1] = (uint32_t)(3 * made + (size_t)(k + 1) % 3);
      }
      ++made;
    }
    shapes = made;
    m = 3 * shapes;
    n = 3 * shapes + loose;
    for (size_t i = 3 * shapes; i < n; ++i) {
      pts[i] = v2(sup_rng_uniform(&rng, 1, 99), sup_rng_uniform(&rng, 1, 99));
    }
    int32_t *vertex_of = malloc(n * sizeof *vertex_of);
    bool *point_left = malloc(n * sizeof *point_left), *seg_left = malloc((m + 1) * sizeof(bool));
    ck_assert(vertex_of && point_left && seg_left);
    an_cdt cdt;
    ck_assert_int_eq(
        an_cdt_build(&cdt, &plain_alloc, v2(0, 0), v2(100, 100), pts, n, segs, m, vertex_of),
        ARCNAV_OK);
    for (size_t i = 0; i < n; ++i) {
      point_left[i] = true;
    }
    for (size_t s = 0; s < m; ++s) {
      seg_left[s] = true;
    }
    // Refusals leave it as it was.
    ck_assert_int_eq(an_cdt_remove_vertex(&cdt, 0), ARCNAV_ERR_INVALID_ARGUMENT);
    if (shapes > 0) {
      ck_assert_int_eq(an_cdt_remove_vertex(&cdt, vertex_of[0]), ARCNAV_ERR_INVALID_ARGUMENT);
      ck_assert_int_eq(an_cdt_unconstrain_edge(&cdt, vertex_of[0], 0), ARCNAV_ERR_INVALID_ARGUMENT);
    }
    check_same_as_fresh(&cdt, pts, point_left, n, segs, seg_left, m, vertex_of);
    // Shapes and loose points go in a random order: shape s as item s, point i as shapes + i.
    size_t items = shapes + loose;
    size_t *order = malloc(items * sizeof *order);
    ck_assert_ptr_nonnull(order);
    for (size_t i = 0; i < items; ++i) {
      order[i] = i;
    }
    for (size_t i = items; i > 1; --i) {
      size_t j = sup_rng_below(&rng, i);
      size_t held = order[i - 1];
      order[i - 1] = order[j];
      order[j] = held;
    }
    for (size_t step = 0; step < items; ++step) {
      size_t item = order[step];
      if (item < shapes) {
        for (int k = 0; k < 3; ++k) {
          size_t s = 3 * item + (size_t)k;
          ck_assert_int_eq(
              an_cdt_unconstrain_edge(&cdt, vertex_of[segs[2 * s]], vertex_of[segs[2 * s + 1]]),
              ARCNAV_OK);
          seg_left[s] = false;
        }
        if (step % 2 == 0) {
          // The corners still there, the constraints gone.
          check_same_as_fresh(&cdt, pts, point_left, n, segs, seg_left, m, vertex_of);
        }
        for (int k = 0; k < 3; ++k) {
          size_t i = 3 * item + (size_t)k;
          ck_assert_int_eq(an_cdt_remove_vertex(&cdt, vertex_of[i]), ARCNAV_OK);
          point_left[i] = false;
        }
      } else {
        size_t i = 3 * shapes + (item - shapes);
        ck_assert_int_eq(an_cdt_remove_vertex(&cdt, vertex_of[i]), ARCNAV_OK);
        point_left[i] = false;
        ck_assert_int_eq(an_cdt_remove_vertex(&cdt, vertex_of[i]), ARCNAV_ERR_INVALID_ARGUMENT);
      }
      if (step % 3 == 0 || step + 1 == items) {
        check_same_as_fresh(&cdt, pts, point_left, n, segs, seg_left, m, vertex_of);
      }
    }
    ck_assert_uint_eq(cdt.tri_count, 2);
    // Everything back, by insertion: into the indices the removed vertices gave up, so that a
    // map changing for ever does not grow its triangulation's points.
    size_t points_before = cdt.point_count;
    for (size_t i = 0; i < n; ++i) {
      int32_t taken = an_cdt_next_vertex(&cdt);
      ck_assert_int_lt(taken, (int32_t)points_before);
      ck_assert_int_eq(an_cdt_insert_point(&cdt, pts[i], &vertex_of[i]), ARCNAV_OK);
      ck_assert_int_eq(vertex_of[i], taken);
      point_left[i] = true;
    }
    ck_assert_uint_eq(cdt.point_count, points_before);
    ck_assert_int_eq(an_cdt_next_vertex(&cdt), (int32_t)points_before);
    for (size_t s = 0; s < m; ++s) {
      ck_assert_int_eq(
          an_cdt_insert_segment(&cdt, vertex_of[segs[2 * s]], vertex_of[segs[2 * s + 1]]),
          ARCNAV_OK);
      seg_left[s] = true;
    }
    check_same_as_fresh(&cdt, pts, point_left, n, segs, seg_left, m, vertex_of);
    an_cdt_free(&cdt);
    free(order);
    free(vertex_of);
    free(point_left);
    free(seg_left);
    free(pts);
    free(segs);
  }
}
END_TEST

// Points on a small integer lattice (rows, columns and circles of them line up) with segments
// among them, crossing ones included: removals through such stars (collinear corners, cocircular
// quads) must leave a valid, Delaunay triangulation that keeps every constraint still there.
START_TEST(test_cdt_remove_degenerate) {
  size_t removed = 0;
  for (uint64_t seed = 1; seed <= test_scaled_count(40); ++seed) {
    sup_rng rng = sup_rng_seed(seed * 104729);
    size_t n = 10 + sup_rng_below(&rng, 60), m = sup_rng_below(&rng, 8);
    vec2 *pts = malloc(n * sizeof *pts);
    uint32_t *segs = malloc(2 * (m + 1) * sizeof *segs);
    int32_t *vertex_of = malloc(n * sizeof *vertex_of);
    ck_assert(pts && segs && vertex_of);
    for (size_t i = 0; i < n; ++i) {
      pts[i] = v2((double)(1 + sup_rng_below(&rng, 9)), (double)(1 + sup_rng_below(&rng, 9)));
    }
    for (size_t s = 0; s < m; ++s) {
      segs[2 * s] = (uint32_t)sup_rng_below(&rng, n);
      segs[2 * s + 1] = (uint32_t)sup_rng_below(&rng, n);
    }
    an_cdt cdt;
    ck_assert_int_eq(
        an_cdt_build(&cdt, &plain_alloc, v2(0, 0), v2(10, 10), pts, n, segs, m, vertex_of),
        ARCNAV_OK);
    char why[256];
    for (int round = 0; round < 40; ++round) {
      int32_t v = 4 + (int32_t)sup_rng_below(&rng, cdt.point_count - 4);
      // Refused exactly for removed vertices and those a constraint ends at, judged before.
      bool alive = cdt.vertex_tri[v] >= 0, constrained = false;
      for (size_t t = 0; alive && t < cdt.tri_count && !constrained; ++t) {
        int k = an_cdt_vertex_index(&cdt.tris[t], v);
        constrained = k >= 0 && (cdt.tris[t].constrained & ~(1u << k)) != 0;
      }
      arcnav_status st = an_cdt_remove_vertex(&cdt, v);
      ck_assert_int_eq(st, alive && !constrained ? ARCNAV_OK : ARCNAV_ERR_INVALID_ARGUMENT);
      removed += st == ARCNAV_OK;
      ck_assert_msg(an_cdt_check(&cdt, why, sizeof why), "%s", why);
      ck_assert_msg(an_cdt_check_delaunay(&cdt, why, sizeof why), "%s", why);
    }
    for (size_t s = 0; s < m; ++s) {
      int32_t a = vertex_of[segs[2 * s]], b = vertex_of[segs[2 * s + 1]];
      if (a != b) {
        ck_assert_msg(an_cdt_check_constraint(&cdt, a, b, why, sizeof why), "%s", why);
      }
    }
    an_cdt_free(&cdt);
    free(pts);
    free(segs);
    free(vertex_of);
  }
  ck_assert_uint_ge(removed, test_scaled_minimum(200, 40));
}
END_TEST

// A failed allocation in a removal leaves the triangulation as it was, or valid without the
// vertex (the flips ran out); the removal then succeeds when memory comes back. The work stack is
// given back first (an_cdt_shrink), so the removal's flips allocate too.
START_TEST(test_cdt_remove_without_memory) {
  long failed = 0, failed_after_removing = 0;
  for (long fail_at = 0;; ++fail_at) {
    test_allocator counter = test_allocator_make();
    arcnav_allocator hooks = test_allocator_hooks(&counter);
    an_allocator alloc = an_allocator_from(&hooks);
    vec2 pts[5] = {{2, 2}, {8, 2.5}, {7.5, 8}, {2.5, 7}, {5.1, 4.9}};
    an_cdt cdt;
    int32_t vertex_of[5];
    ck_assert_int_eq(an_cdt_build(&cdt, &alloc, v2(0, 0), v2(10, 10), pts, 5, NULL, 0, vertex_of),
                     ARCNAV_OK);
    ck_assert_int_eq(an_cdt_shrink(&cdt), ARCNAV_OK);
    counter.fail_at = counter.calls + fail_at;
    arcnav_status st = an_cdt_remove_vertex(&cdt, vertex_of[4]);
    counter.fail_at = -1;
    char why[256];
    ck_assert_msg(an_cdt_check(&cdt, why, sizeof why), "%s", why);
    bool gone = cdt.vertex_tri[vertex_of[4]] < 0;
    if (st == ARCNAV_OK) {
      ck_assert(gone);
    } else {
      ck_assert_int_eq(st, ARCNAV_ERR_OUT_OF_MEMORY);
      ++failed;
      failed_after_removing += gone;
      // Unchanged (both triangles still there) or without the vertex (two fewer).
      ck_assert_uint_eq(cdt.tri_count, gone ? 2 + 2 * 4 : 2 + 2 * 5);
      if (!gone) {
        ck_assert_int_eq(an_cdt_remove_vertex(&cdt, vertex_of[4]), ARCNAV_OK);
      }
    }
    ck_assert_uint_eq(cdt.tri_count, 2 + 2 * 4);
    an_cdt_free(&cdt);
    ck_assert_int_eq(counter.live, 0);
    if (st == ARCNAV_OK) {
      break;
    }
  }
  // Some allocation of the removal did fail and left it unchanged. (The flips here stay within
  // the stack the removal reserves first, so none ran out after the vertex went.)
  ck_assert_int_gt(failed - failed_after_removing, 0);
}
END_TEST

START_TEST(test_cdt_check_finds_corruption) {
  // The validator accepts a sound triangulation and reports each kind of damage done to a copy.
  vec2 pts[6] = {v2(0, 0), v2(4, 1), v2(2, 3), v2(2, -3), v2(1, 1), v2(3, -1)};
  uint32_t segs[4] = {0, 1, 2, 3};
  int32_t vx[6];
  an_cdt cdt;
  ck_assert_int_eq(an_cdt_build(&cdt, &plain_alloc, v2(-1, -4), v2(5, 4), pts, 6, segs, 2, vx),
                   ARCNAV_OK);
  char why[160];
  ck_assert_msg(an_cdt_check(&cdt, why, sizeof why), "%s", why);
  ck_assert_msg(an_cdt_check_delaunay(&cdt, why, sizeof why), "%s", why);
  ck_assert(an_cdt_check_constraint(&cdt, vx[0], vx[1], why, sizeof why));
  ck_assert(an_cdt_check_constraint(&cdt, vx[2], vx[3], why, sizeof why));
  int32_t t;
  int i;

  // A neighbour link pointing at the wrong triangle.
  an_cdt bad = copy_cdt(&cdt);
  find_interior_edge(&bad, false, &t, &i);
  int32_t other = bad.tris[t].n[i];
  for (size_t u = 0; u < bad.tri_count; ++u) {
    if ((int32_t)u != t && (int32_t)u != other) {
      bad.tris[t].n[i] = (int32_t)u;
      break;
    }
  }
  why[0] = '\0';
  ck_assert(!an_cdt_check(&bad, why, sizeof why));
  ck_assert_msg(strstr(why, "link") != NULL, "reported: %s", why);
  free_copy(&bad);

  // A neighbour link cut as if the edge lay on the box boundary.
  bad = copy_cdt(&cdt);
  find_interior_edge(&bad, false, &t, &i);
  bad.tris[t].n[i] = -1;
  ck_assert(!an_cdt_check(&bad, why, sizeof why));
  free_copy(&bad);

  // A constraint marked on one side only.
  bad = copy_cdt(&cdt);
  find_interior_edge(&bad, true, &t, &i);
  bad.tris[t].constrained &= (uint8_t) ~(1u << i);
  ck_assert(!an_cdt_check(&bad, why, sizeof why));
  ck_assert_msg(strstr(why, "one side") != NULL, "reported: %s", why);
  free_copy(&bad);

  // A triangle turned clockwise.
  bad = copy_cdt(&cdt);
  int32_t keep = bad.tris[0].v[1];
  bad.tris[0].v[1] = bad.tris[0].v[2];
  bad.tris[0].v[2] = keep;
  ck_assert(!an_cdt_check(&bad, why, sizeof why));
  free_copy(&bad);

  // An unconstrained edge that is not Delaunay: flip the diagonal of a convex quad whose
  // circumcircle test is strict by hand, keeping links and orientation sound, so the structure
  // passes and only the Delaunay check fails.
  bad = copy_cdt(&cdt);
  bool flipped = false;
  for (size_t tt = 0; tt < bad.tri_count && !flipped; ++tt) {
    for (int k = 0; k < 3 && !flipped; ++k) {
      an_cdt_tri *ta = &bad.tris[tt];
      int32_t u = ta->n[k];
      if (u < 0 || is_con(ta, k)) {
        continue;
      }
      an_cdt_tri *tb = &bad.tris[u];
      int j = 0;
      while (tb->n[j] != (int32_t)tt) {
        ++j;
      }
      int32_t a = ta->v[k], b = ta->v[(k + 1) % 3], c = ta->v[(k + 2) % 3], d = tb->v[j];
      // Quad a, b, d, c: the flip is valid when it is strictly convex at b and c.
      if (!(an_orient2d(bad.points[a], bad.points[b], bad.points[d]) > 0.0 &&
            an_orient2d(bad.points[d], bad.points[c], bad.points[a]) > 0.0) ||
          an_incircle(bad.points[a], bad.points[b], bad.points[c], bad.points[d]) >= 0.0) {
        continue;
      }
      int32_t nca = ta->n[(k + 1) % 3], nab = ta->n[(k + 2) % 3];
      int32_t nbd = tb->n[(j + 1) % 3], ndc = tb->n[(j + 2) % 3];
      uint8_t cca = is_con(ta, (k + 1) % 3), cab = is_con(ta, (k + 2) % 3);
      uint8_t cbd = is_con(tb, (j + 1) % 3), cdc = is_con(tb, (j + 2) % 3);
      *ta = (an_cdt_tri){{a, b, d}, {nbd, u, nab}, (uint8_t)(cbd | (cab << 2)), ta->tag};
      *tb = (an_cdt_tri){{d, c, a}, {nca, (int32_t)tt, ndc}, (uint8_t)(cca | (cdc << 2)), tb->tag};
      for (int side = 0; side < 2; ++side) {
        int32_t nb = side == 0 ? nbd : nca, from = side == 0 ? u : (int32_t)tt;
        int32_t to = side == 0 ? (int32_t)tt : u;
        if (nb >= 0) {
          for (int q = 0; q < 3; ++q) {
            if (bad.tris[nb].n[q] == from) {
              bad.tris[nb].n[q] = to;
            }
          }
        }
      }
      bad.vertex_tri[a] = bad.vertex_tri[b] = (int32_t)tt;
      bad.vertex_tri[c] = bad.vertex_tri[d] = u;
      flipped = true;
    }
  }
  ck_assert(flipped);
  ck_assert_msg(an_cdt_check(&bad, why, sizeof why), "%s", why);
  ck_assert(!an_cdt_check_delaunay(&bad, why, sizeof why));
  ck_assert_msg(strstr(why, "Delaunay") != NULL, "reported: %s", why);
  free_copy(&bad);

  // A constraint edge unmarked on both sides: the structure is sound, the chain is broken.
  bad = copy_cdt(&cdt);
  find_interior_edge(&bad, true, &t, &i);
  int32_t u = bad.tris[t].n[i];
  for (int k = 0; k < 3; ++k) {
    if (bad.tris[u].n[k] == t) {
      bad.tris[u].constrained &= (uint8_t) ~(1u << k);
    }
  }
  bad.tris[t].constrained &= (uint8_t) ~(1u << i);
  ck_assert_msg(an_cdt_check(&bad, why, sizeof why), "%s", why);
  ck_assert(!an_cdt_check_constraint(&bad, vx[0], vx[1], why, sizeof why) ||
            !an_cdt_check_constraint(&bad, vx[2], vx[3], why, sizeof why));
  free_copy(&bad);

  // The original is untouched by all this.
  ck_assert_msg(an_cdt_check(&cdt, why, sizeof why), "%s", why);
  an_cdt_free(&cdt);
}
END_TEST

// ---------------------------------------------------------------------------------------------
// Navmesh

/// Every free triangle's centroid is free by the plain test, and the mesh's structure is sound.
static void check_mesh_against(const an_navmesh *mesh, const sup_map *desc) {
  double unused;
  check_triangulation(&mesh->cdt, &unused);
  for (size_t t = 0; t < an_navmesh_triangle_count(mesh); ++t) {
    vec2 p[3];
    an_navmesh_triangle(mesh, t, p);
    vec2 c = v2((p[0].x + p[1].x + p[2].x) / 3, (p[0].y + p[1].y + p[2].y) / 3);
    double d = sup_signed_distance_to_obstacles(desc, c);
    ck_assert_msg(d >= -1e-9, "free triangle %zu has its centroid (%g, %g) inside an obstacle", t,
                  c.x, c.y);
  }
}

START_TEST(test_navmesh_disjoint_area) {
  // Bounds 100 x 80, disjoint obstacles: rectangles, a non-convex polygon with collinear and
  // duplicate vertices, a polygon with a hole holding another obstacle, one touching the bounds.
  sup_map desc;
  sup_map_init(&desc);
  arcnav_vec2 bounds[] = {{0, 0}, {100, 0}, {100, 80}, {50, 90}, {0, 80}};
  sup_map_set_bounds(&desc, bounds, 5);
  double want = test_ring_area(bounds, 5);
  sup_map_add_rect(&desc, 10, 10, 20, 30);
  sup_map_add_rect(&desc, 0, 40, 10, 50); // touches the bounds along x = 0
  want -= 200 + 100;
  arcnav_vec2 ell[] = {{30, 10}, {40, 10}, {50, 10}, {50, 10},
                       {50, 20}, {40, 20}, {40, 40}, {30, 40}};
  sup_map_add_polygon(&desc, ell, 8, NULL, NULL, 0);
  want -= test_ring_area(ell, 8);
  arcnav_vec2 shell[] = {{60, 40}, {95, 40}, {95, 75}, {60, 75}};
  arcnav_vec2 hole[] = {{65, 45}, {65, 70}, {90, 70}, {90, 45}};
  const arcnav_vec2 *holes[] = {hole};
  size_t hole_counts[] = {4};
  sup_map_add_polygon(&desc, shell, 4, holes, hole_counts, 1);
  want -= test_ring_area(shell, 4) + test_ring_area(hole, 4); // hole is clockwise: negative area
  sup_map_add_rect(&desc, 70, 50, 80, 60);                    // inside the hole
  want -= 100;
  arcnav_map *map;
  ck_assert_int_eq(sup_map_to_arcnav(&desc, &map), ARCNAV_OK);
  an_navmesh *mesh;
  ck_assert_int_eq(an_navmesh_build(map, &plain_alloc, &mesh), ARCNAV_OK);
  ck_assert_double_eq_tol(test_free_mesh_area(mesh), want, 1e-9 * want);
  check_mesh_against(mesh, &desc);
  ck_assert_int_gt(an_navmesh_memory_bytes(mesh), 0);
  // Point location: free, on an edge, just inside by less than eps, deeper, outside the bounds.
  double eps = arcnav_map_tolerance(map);
  ck_assert_int_ge(an_navmesh_locate(mesh, v2(5, 5)), 0);
  ck_assert_int_ge(an_navmesh_locate(mesh, v2(15, 10)), 0);             // on an obstacle edge
  ck_assert_int_ge(an_navmesh_locate(mesh, v2(20, 20)), 0);             // on an obstacle edge
  ck_assert_int_ge(an_navmesh_locate(mesh, v2(20 - 0.5 * eps, 20)), 0); // inside by eps / 2
  ck_assert_int_lt(an_navmesh_locate(mesh, v2(20 - 3 * eps, 20)), 0);
  ck_assert_int_lt(an_navmesh_locate(mesh, v2(15, 20)), 0);
  ck_assert_int_ge(an_navmesh_locate(mesh, v2(75, 65)), 0);  // in the hole
  ck_assert_int_lt(an_navmesh_locate(mesh, v2(62, 62)), 0);  // in the shell's material
  ck_assert_int_lt(an_navmesh_locate(mesh, v2(101, 10)), 0); // outside the bounds
  ck_assert_int_lt(an_navmesh_locate(mesh, v2(1e9, 10)), 0); // outside the box
  ck_assert_int_ge(an_navmesh_locate(mesh, v2(100, 10)), 0); // on the bounds
  ck_assert_int_lt(an_navmesh_locate(mesh, v2(NAN, 10)), 0);
  an_navmesh_destroy(mesh);
  arcnav_map_destroy(map);
  sup_map_free(&desc);
}
END_TEST

START_TEST(test_navmesh_random_disjoint_area) {
  // Random disjoint rectangles without bounds: free area = box - obstacles; the box is the
  // documented one (extent + 10% + 1 on every side).
  for (uint64_t seed = 1; seed <= test_scaled_count(10); ++seed) {
    sup_rng rng = sup_rng_seed(seed * 77);
    sup_map desc;
    sup_map_init(&desc);
    double rects[40][4];
    size_t made = 0;
    double blocked = 0.0;
    for (int attempt = 0; attempt < 400 && made < 40; ++attempt) {
      double x = sup_rng_uniform(&rng, 0, 90), y = sup_rng_uniform(&rng, 0, 90);
      double w = sup_rng_uniform(&rng, 1, 10), h = sup_rng_uniform(&rng, 1, 10);
      bool clear = true;
      for (size_t k = 0; k < made && clear; ++k) {
        clear = x > rects[k][2] || x + w < rects[k][0] || y > rects[k][3] || y + h < rects[k][1];
      }
      if (clear) {
        rects[made][0] = x;
        rects[made][1] = y;
        rects[made][2] = x + w;
        rects[made][3] = y + h;
        made++;
        sup_map_add_rect(&desc, x, y, x + w, y + h);
        blocked += w * h;
      }
    }
    arcnav_vec2 lo, hi;
    ck_assert(sup_map_extent(&desc, &lo, &hi));
    double margin = 0.1 * fmax(hi.x - lo.x, hi.y - lo.y) + 1.0;
    double box = (hi.x - lo.x + 2 * margin) * (hi.y - lo.y + 2 * margin);
    arcnav_map *map;
    ck_assert_int_eq(sup_map_to_arcnav(&desc, &map), ARCNAV_OK);
    an_navmesh *mesh;
    ck_assert_int_eq(an_navmesh_build(map, &plain_alloc, &mesh), ARCNAV_OK);
    ck_assert_double_eq_tol(test_free_mesh_area(mesh), box - blocked, 1e-9 * box);
    check_mesh_against(mesh, &desc);
    an_navmesh_destroy(mesh);
    arcnav_map_destroy(map);
    sup_map_free(&desc);
  }
}
END_TEST

/// Grid estimate of the free area and a pointwise comparison of the classification. Points
/// closer than `band` to an obstacle boundary are skipped in the pointwise test (circles are
/// triangulated as circumscribed polygons, which differ from the disk by less than the sagitta).
static void check_overlapping(const sup_map *desc, double band) {
  arcnav_map *map;
  ck_assert_int_eq(sup_map_to_arcnav(desc, &map), ARCNAV_OK);
  an_navmesh *mesh;
  ck_assert_int_eq(an_navmesh_build(map, &plain_alloc, &mesh), ARCNAV_OK);
  check_mesh_against(mesh, desc);
  arcnav_vec2 lo, hi;
  ck_assert(sup_map_extent(desc, &lo, &hi));
  const int n = 200;
  double cw = (hi.x - lo.x) / n, ch = (hi.y - lo.y) / n;
  size_t free_cells = 0;
  for (int j = 0; j < n; ++j) {
    for (int i = 0; i < n; ++i) {
      vec2 p = v2(lo.x + (i + 0.5) * cw, lo.y + (j + 0.5) * ch);
      double d = sup_signed_distance_to_obstacles(desc, p);
      bool mesh_free = an_navmesh_locate(mesh, p) >= 0;
      free_cells += d > 0.0;
      if (fabs(d) > band) {
        ck_assert_msg(mesh_free == (d > 0.0), "(%g, %g): distance %g but mesh says %s", p.x, p.y, d,
                      mesh_free ? "free" : "blocked");
      }
    }
  }
  // The grid estimate's error is at most the cells the boundary touches: perimeter / cell size
  // cells; 2% of the area is far above it for these maps and far below any missing obstacle.
  double estimate = (double)free_cells * cw * ch;
  double area = test_free_mesh_area(mesh);
  double inside = 0.0; // free area restricted to the extent (the mesh's box is larger)
  {
    double box_extra = 0.0;
    vec2 blo = mesh->cdt.points[0], bhi = mesh->cdt.points[2];
    if (!desc->has_bounds) {
      box_extra = (bhi.x - blo.x) * (bhi.y - blo.y) - (hi.x - lo.x) * (hi.y - lo.y);
    }
    inside = area - box_extra;
  }
  ck_assert_msg(fabs(inside - estimate) <= 0.02 * estimate, "free area %g, grid estimate %g",
                inside, estimate);
  an_navmesh_destroy(mesh);
  arcnav_map_destroy(map);
}

START_TEST(test_navmesh_overlapping) {
  sup_map desc;
  sup_map_init(&desc);
  arcnav_vec2 bounds[] = {{0, 0}, {50, 0}, {50, 50}, {0, 50}};
  sup_map_set_bounds(&desc, bounds, 4);
  sup_map_add_rect(&desc, 10, 20, 40, 25); // a cross of two rectangles
  sup_map_add_rect(&desc, 22, 5, 27, 45);
  sup_map_add_rect(&desc, 27, 30, 35, 40);             // touches the vertical bar along x = 27
  sup_map_add_rect(&desc, 22, 5, 27, 10);              // coincides with a piece of the bar
  sup_map_add_circle(&desc, (arcnav_vec2){40, 10}, 6); // overlaps the bounds' edge? no: 34..46
  sup_map_add_circle(&desc, (arcnav_vec2){10, 40}, 4);
  sup_map_add_rect(&desc, 8, 38, 12, 48); // overlaps the second circle
  arcnav_vec2 shell[] = {{2, 2}, {18, 2}, {18, 18}, {2, 18}};
  arcnav_vec2 hole[] = {{5, 5}, {15, 5}, {15, 15}, {5, 15}};
  const arcnav_vec2 *holes[] = {hole};
  size_t hole_counts[] = {4};
  sup_map_add_polygon(&desc, shell, 4, holes, hole_counts, 1);
  sup_map_add_rect(&desc, 12, 12, 20, 13); // crosses the shell and pokes into the hole
  double sagitta = 6.0 * (1.0 / cos(TEST_PI / AN_NAVMESH_CIRCLE_SIDES) - 1.0);
  check_overlapping(&desc, sagitta + 1e-6);
  sup_map_free(&desc);
  for (uint64_t seed = 1; seed <= test_scaled_count(4); ++seed) {
    sup_map r = sup_gen_random_rectangles(seed, 60, 100.0, 2.0, 20.0);
    check_overlapping(&r, 1e-6);
    sup_map_free(&r);
  }
  for (uint64_t seed = 1; seed <= test_scaled_count(4); ++seed) {
    sup_map r = sup_gen_mixed(seed, 25, 100.0, 0.0);
    double band = 1e-6;
    for (size_t c = 0; c < r.circle_count; ++c) {
      band = fmax(band, 1e-6 + r.circles[c].radius *
                                   (1.0 / cos(TEST_PI / AN_NAVMESH_CIRCLE_SIDES) - 1.0));
    }
    check_overlapping(&r, band);
    sup_map_free(&r);
  }
}
END_TEST

START_TEST(test_navmesh_empty_map) {
  arcnav_map *map;
  ck_assert_int_eq(arcnav_map_create(NULL, &map), ARCNAV_OK);
  an_navmesh *mesh;
  ck_assert_int_eq(an_navmesh_build(map, &plain_alloc, &mesh), ARCNAV_OK);
  ck_assert_int_eq(an_navmesh_triangle_count(mesh), 2);
  ck_assert_int_ge(an_navmesh_locate(mesh, v2(0, 0)), 0);
  an_navmesh_destroy(mesh);
  arcnav_map_destroy(map);
}
END_TEST

static Suite *cdt_suite(void) {
  Suite *s = suite_create("cdt");
  TCase *tc = tcase_create("predicates");
  tcase_add_test(tc, test_orient_integers);
  tcase_add_test(tc, test_orient_near_line);
  tcase_add_test(tc, test_incircle_integers);
  tcase_add_test(tc, test_incircle_near_circle);
  suite_add_tcase(s, tc);
  tc = tcase_create("triangulation");
  tcase_set_timeout(tc, 60);
  tcase_add_test(tc, test_cdt_random_crossing_segments);
  tcase_add_test(tc, test_cdt_degenerate_input);
  tcase_add_test(tc, test_cdt_many_crossings);
  tcase_add_test(tc, test_cdt_groups_change_nothing);
  tcase_add_test(tc, test_cdt_cocircular_points);
  tcase_add_test(tc, test_cdt_split_edge);
  tcase_add_test(tc, test_cdt_kept_pieces);
  tcase_add_test(tc, test_cdt_check_finds_corruption);
  tcase_add_test(tc, test_cdt_remove_matches_fresh_build);
  tcase_add_test(tc, test_cdt_remove_degenerate);
  tcase_add_test(tc, test_cdt_remove_without_memory);
  suite_add_tcase(s, tc);
  tc = tcase_create("navmesh");
  tcase_set_timeout(tc, 60);
  tcase_add_test(tc, test_navmesh_disjoint_area);
  tcase_add_test(tc, test_navmesh_random_disjoint_area);
  tcase_add_test(tc, test_navmesh_overlapping);
  tcase_add_test(tc, test_navmesh_empty_map);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  return test_run_suite(cdt_suite());
}
