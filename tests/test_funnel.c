// SPDX-License-Identifier: MIT
// The funnel and the channel searches. Portal-sequence cases have expected paths derived by hand;
// on random polygon maps the optimal search must match an independent visibility graph + Dijkstra
// written here and the support library's brute-force reference (relative 1e-9), the plain search
// must never be shorter, and every path is checked by the support library's independent verifier.
// Long channels around polygons of thousands of vertices are checked against the length walked
// along the polygon's hull.

#include "arcnav_test.h"
#include "funnel/funnel.h"
#include "funnel_tools.h"
#include "mapgen.h"
#include "mesh/navmesh.h"
#include "navmesh_test.h"
#include "reference.h"
#include "verify.h"

#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static const an_allocator plain_alloc = {{0}};

static void expect_path(const vec2 *got, size_t got_n, const vec2 *want, size_t want_n) {
  ck_assert_int_eq(got_n, want_n);
  for (size_t i = 0; i < want_n; ++i) {
    ck_assert_vec2_near(got[i], want[i], 1e-12);
  }
}

// ---------------------------------------------------------------------------------------------
// Hand-made portal sequences. "Left" is on the traveller's left (counter-clockwise side).

START_TEST(test_pull_straight_corridor) {
  vec2 l[5], r[5], out[8];
  for (int i = 0; i < 5; ++i) {
    l[i] = v2(i + 1, 1);
    r[i] = v2(i + 1, -1 - 0.1 * i);
  }
  size_t n = sup_string_pull(v2(0, 0), l, r, 5, v2(6, 0), out);
  vec2 want[] = {{0, 0}, {6, 0}};
  expect_path(out, n, want, 2);
}
END_TEST

START_TEST(test_pull_zigzag) {
  // Gates at x = 2 (y in [0, 1]), x = 4 (y in [3, 4]), x = 6 (y in [0, 1]). From (0, 0) the line
  // to (4, 3) passes x = 2 at y = 1.5 > 1, so the path bends at (2, 1); (2, 1) to (6, 1) misses
  // the middle gate, so it bends at (4, 3); (4, 3) to (8, 0) passes x = 6 at y = 1.5, so (6, 1).
  vec2 l[] = {{2, 1}, {4, 4}, {6, 1}};
  vec2 r[] = {{2, 0}, {4, 3}, {6, 0}};
  vec2 out[8];
  size_t n = sup_string_pull(v2(0, 0), l, r, 3, v2(8, 0), out);
  vec2 want[] = {{0, 0}, {2, 1}, {4, 3}, {6, 1}, {8, 0}};
  expect_path(out, n, want, 5);
}
END_TEST

START_TEST(test_pull_spiral) {
  // Portals on rays at 30, 60, ..., 300 degrees from radius 1 (left, inner) to 2 (right); start
  // (1.5, 0), goal at 330 degrees, radius 1.5. The line from the start to the inner point at 60
  // degrees, (1.5 - s, 0.866 s), meets the 30 degree ray at s = 0.6, radius 1.039: inside the
  // portal, so the 30 degree point is no corner. The line to the 90 degree point meets the
  // 60 degree ray at radius 0.834 < 1: it misses that portal, so the 60 degree point is a corner.
  // Between inner points the chords pass at cos(15 deg) < 1 from the centre, so every inner point
  // from 60 to 270 degrees is a corner, and by symmetry the path leaves the 270 degree point
  // straight for the goal.
  vec2 l[10], r[10], out[16], want[10];
  want[0] = v2(1.5, 0);
  for (int k = 1; k <= 10; ++k) {
    double a = k * TEST_PI / 6;
    l[k - 1] = v2(cos(a), sin(a));
    r[k - 1] = v2(2 * cos(a), 2 * sin(a));
    if (k >= 2 && k <= 9) {
      want[k - 1] = l[k - 1];
    }
  }
  vec2 goal = v2(1.5 * cos(11 * TEST_PI / 6), 1.5 * sin(11 * TEST_PI / 6));
  want[9] = goal;
  size_t n = sup_string_pull(want[0], l, r, 10, goal, out);
  expect_path(out, n, want, 10);
}
END_TEST

START_TEST(test_pull_start_equals_goal) {
  vec2 out[4];
  size_t n = sup_string_pull(v2(3, 4), NULL, NULL, 0, v2(3, 4), out);
  vec2 want[] = {{3, 4}, {3, 4}};
  expect_path(out, n, want, 2);
  // No portals, distinct points: the straight segment (goal in the start triangle).
  n = sup_string_pull(v2(0, 0), NULL, NULL, 0, v2(1, 2), out);
  vec2 want2[] = {{0, 0}, {1, 2}};
  expect_path(out, n, want2, 2);
}
END_TEST

START_TEST(test_pull_zero_width) {
  // A zero-width portal forces the path through its point; a second one on the straight line
  // adds no corner.
  vec2 l[] = {{1, 1}, {3, 1}}, r[] = {{1, 1}, {3, -1}};
  vec2 out[6];
  size_t n = sup_string_pull(v2(0, 0), l, r, 2, v2(4, 0), out);
  vec2 want[] = {{0, 0}, {1, 1}, {4, 0}};
  expect_path(out, n, want, 3);
  vec2 l2[] = {{2, 0}}, r2[] = {{2, 0}};
  n = sup_string_pull(v2(0, 0), l2, r2, 1, v2(4, 0), out);
  vec2 want2[] = {{0, 0}, {4, 0}};
  expect_path(out, n, want2, 2);
}
END_TEST

START_TEST(test_pull_collinear) {
  // Portal ends on the straight line from start to goal, on both sides, and portals sharing ends.
  vec2 l[] = {{1, 1}, {2, 0}, {2, 0}, {3, 2}}, r[] = {{1, -1}, {2, -1}, {3, 0}, {3, 0}};
  vec2 out[8];
  size_t n = sup_string_pull(v2(0, 0), l, r, 4, v2(5, 0), out);
  vec2 want[] = {{0, 0}, {5, 0}};
  expect_path(out, n, want, 2);
  // Collinear portals along the direction of travel: the path goes around their near end.
  vec2 l3[] = {{1, 1}, {1, 2}}, r3[] = {{1, 0.5}, {1, 1}};
  n = sup_string_pull(v2(0, 0), l3, r3, 2, v2(2, 0), out);
  vec2 want3[] = {{0, 0}, {1, 1}, {2, 0}};
  expect_path(out, n, want3, 3);
}
END_TEST

// ---------------------------------------------------------------------------------------------
// Queries on maps

typedef struct mesh_fixture {
  arcnav_map *map;
  an_navmesh *mesh;
  an_funnel_scratch *scratch;
} mesh_fixture;

static mesh_fixture make_fixture(const sup_map *desc, const an_allocator *alloc) {
  mesh_fixture f;
  ck_assert_int_eq(sup_map_to_arcnav(desc, &f.map), ARCNAV_OK);
  ck_assert_int_eq(an_navmesh_build(f.map, alloc, &f.mesh), ARCNAV_OK);
  ck_assert_int_eq(an_funnel_scratch_create(f.mesh, alloc, &f.scratch), ARCNAV_OK);
  return f;
}

static void free_fixture(mesh_fixture *f) {
  an_funnel_scratch_destroy(f->scratch);
  an_navmesh_destroy(f->mesh);
  arcnav_map_destroy(f->map);
}

START_TEST(test_query_around_wall) {
  // Bounds [0, 10]^2, wall [4, 6] x [0, 8] standing on the bottom edge. From (2, 2) to (8, 2) the
  // only way is over the wall's top corners: 2 sqrt(2^2 + 6^2) + 2.
  sup_map desc;
  sup_map_init(&desc);
  arcnav_vec2 b[] = {{0, 0}, {10, 0}, {10, 10}, {0, 10}};
  sup_map_set_bounds(&desc, b, 4);
  sup_map_add_rect(&desc, 4, 0, 6, 8);
  mesh_fixture f = make_fixture(&desc, &plain_alloc);
  for (int optimal = 0; optimal < 2; ++optimal) {
    an_funnel_result res;
    ck_assert_int_eq(sup_funnel_find_path(f.mesh, f.scratch, v2(2, 2), v2(8, 2), optimal, &res),
                     ARCNAV_OK);
    vec2 want[] = {{2, 2}, {4, 8}, {6, 8}, {8, 2}};
    expect_path(res.points, res.point_count, want, 4);
    ck_assert_double_eq_tol(res.length, 2 * sqrt(40.0) + 2, 1e-12);
    ck_assert_int_ge(res.channels, 1);
  }
  an_funnel_result res;
  // Goal in the start triangle (or start == goal): a straight segment, 2 points.
  ck_assert_int_eq(sup_funnel_find_path(f.mesh, f.scratch, v2(1, 1), v2(1, 1), true, &res),
                   ARCNAV_OK);
  ck_assert_int_eq(res.point_count, 2);
  ck_assert_double_eq(res.length, 0.0);
  // Touching: start on the wall's face, goal on the bounds: up the face to (4, 8), across the top
  // to (6, 8), then (6, 8) to (10, 5) is a 3-4-5 triangle: 5 + 2 + 5.
  ck_assert_int_eq(sup_funnel_find_path(f.mesh, f.scratch, v2(4, 3), v2(10, 5), true, &res),
                   ARCNAV_OK);
  ck_assert_double_eq_tol(res.length, 12.0, 1e-12);
  ck_assert_int_eq(sup_funnel_find_path(f.mesh, f.scratch, v2(5, 3), v2(8, 2), true, &res),
                   ARCNAV_START_BLOCKED);
  ck_assert_int_eq(sup_funnel_find_path(f.mesh, f.scratch, v2(2, 2), v2(5, 7.5), false, &res),
                   ARCNAV_GOAL_BLOCKED);
  ck_assert_int_eq(sup_funnel_find_path(f.mesh, f.scratch, v2(2, 2), v2(11, 5), true, &res),
                   ARCNAV_GOAL_BLOCKED);
  ck_assert_int_eq(sup_funnel_find_path(f.mesh, f.scratch, v2(-1, 2), v2(11, 5), true, &res),
                   ARCNAV_START_BLOCKED);
  free_fixture(&f);
  sup_map_free(&desc);
}
END_TEST

START_TEST(test_query_no_path) {
  // A ring-shaped obstacle (polygon with a hole) encloses the goal.
  sup_map desc;
  sup_map_init(&desc);
  arcnav_vec2 shell[] = {{0, 0}, {10, 0}, {10, 10}, {0, 10}};
  arcnav_vec2 hole[] = {{2, 2}, {8, 2}, {8, 8}, {2, 8}};
  const arcnav_vec2 *holes[] = {hole};
  size_t counts[] = {4};
  sup_map_add_polygon(&desc, shell, 4, holes, counts, 1);
  mesh_fixture f = make_fixture(&desc, &plain_alloc);
  an_funnel_result res;
  for (int optimal = 0; optimal < 2; ++optimal) {
    ck_assert_int_eq(sup_funnel_find_path(f.mesh, f.scratch, v2(-1, -1), v2(5, 5), optimal, &res),
                     ARCNAV_NO_PATH);
    ck_assert_int_eq(sup_funnel_find_path(f.mesh, f.scratch, v2(3, 3), v2(7, 6), optimal, &res),
                     ARCNAV_OK);
  }
  free_fixture(&f);
  sup_map_free(&desc);
}
END_TEST

// ---------------------------------------------------------------------------------------------
// Touching obstacles at R = 0 are one wall (README, the touching rule): nothing passes where they
// touch at a vertex (a pinch) or along an edge (a seam). Lengths by hand.

/// Both modes from s to g: the optimal one has length `want`, the plain one is not shorter, and
/// both paths pass the verifier.
static void expect_length(const mesh_fixture *f, const sup_map *desc, vec2 s, vec2 g, double want) {
  double eps = arcnav_map_tolerance(f->map);
  for (int optimal = 1; optimal >= 0; --optimal) {
    an_funnel_result res;
    arcnav_status st = sup_funnel_find_path(f->mesh, f->scratch, s, g, optimal, &res);
    ck_assert_msg(st == ARCNAV_OK, "(%g, %g) -> (%g, %g): %s", s.x, s.y, g.x, g.y,
                  arcnav_status_name(st));
    if (optimal) {
      ck_assert_msg(fabs(res.length - want) <= 1e-12 * want,
                    "(%g, %g) -> (%g, %g): %.17g, want %.17g", s.x, s.y, g.x, g.y, res.length,
                    want);
    } else {
      ck_assert_msg(res.length >= want * (1 - 1e-12), "(%g, %g) -> (%g, %g): plain %.17g < %.17g",
                    s.x, s.y, g.x, g.y, res.length, want);
    }
    test_verify_polyline(desc, eps, s, g, &res);
  }
}

START_TEST(test_query_around_touching_corner) {
  // [0, 10]^2 (A) and [10, 20]^2 (B) touch at v = (10, 10). From the upper left to the lower right
  // the way goes round a square: round A from (5, 15) by (0, 10), (0, 0), (10, 0), or round B by
  // (10, 20), (20, 20), (20, 10), both sqrt(50) + 10 + 10 + sqrt(50); through v it would be
  // sqrt(200).
  sup_map desc = sup_gen_corner_squares();
  mesh_fixture f = make_fixture(&desc, &plain_alloc);
  ck_assert_uint_eq(f.mesh->connector_count, 0);
  expect_length(&f, &desc, v2(5, 15), v2(15, 5), 20 + 2 * sqrt(50.0));
  expect_length(&f, &desc, v2(4, 15), v2(15, 5), sqrt(41.0) + 20 + sqrt(50.0)); // round A
  // Start or goal at the pinch: it belongs to both sides, and leaves or arrives straight.
  const vec2 v = {10, 10};
  expect_length(&f, &desc, v, v2(5, 15), sqrt(50.0));
  expect_length(&f, &desc, v, v2(15, 5), sqrt(50.0));
  expect_length(&f, &desc, v2(5, 15), v, sqrt(50.0));
  expect_length(&f, &desc, v2(15, 5), v, sqrt(50.0));
  expect_length(&f, &desc, v, v2(10, 18), 8.0);             // up B's left side
  expect_length(&f, &desc, v2(3, 10), v, 7.0);              // along A's top side
  expect_length(&f, &desc, v2(-5, 0), v, 10 + sqrt(125.0)); // round A's corner (0, 10)
  // Within eps of the pinch is at the pinch.
  double eps = arcnav_map_tolerance(f.map);
  expect_length(&f, &desc, v2(10 + 0.25 * eps, 10 - 0.25 * eps), v2(15, 5),
                v2_dist(v2(10 + 0.25 * eps, 10 - 0.25 * eps), v2(15, 5)));
  expect_length(&f, &desc, v2(10 + 0.25 * eps, 10 - 0.25 * eps), v2(5, 15),
                v2_dist(v2(10 + 0.25 * eps, 10 - 0.25 * eps), v2(5, 15)));
  free_fixture(&f);
  sup_map_free(&desc);
}
END_TEST

START_TEST(test_query_along_sides_of_touching_corner) {
  // The same squares, start and goal on their sides on either side of v: by hand, along the sides
  // round one square (4 + 10 + 10 + 4, ...), or round a square and then straight.
  typedef struct {
    vec2 s, g;
    double length;
  } side_case;
  const double slant = sqrt(136.0); // from a far corner of one square to 6 along the other's side
  const side_case cases[] = {
      {{4, 10}, {10, 4}, 28.0},          // round A, the goal on A's right side
      {{4, 10}, {10, 5.5}, 29.5},        // 4 + 10 + 10 + 5.5
      {{4, 10}, {10, 0}, 24.0},          // to the far end of A's right side
      {{10, 16}, {16, 10}, 28.0},        // round B
      {{4, 10}, {16, 10}, 24.0 + slant}, // round either square, then straight
      {{10, 4}, {10, 16}, 24.0 + slant},
  };
  sup_map desc = sup_gen_corner_squares();
  mesh_fixture f = make_fixture(&desc, &plain_alloc);
  for (size_t k = 0; k < sizeof cases / sizeof cases[0]; ++k) {
    expect_length(&f, &desc, cases[k].s, cases[k].g, cases[k].length);
    expect_length(&f, &desc, cases[k].g, cases[k].s, cases[k].length);
  }
  free_fixture(&f);
  sup_map_free(&desc);
}
END_TEST

START_TEST(test_query_around_seams) {
  // Two rectangles sharing the edge x = 10, 0 <= y <= 10: from (10, 15) to (10, -5) the way goes
  // round, sqrt(125) + 10 + sqrt(125); a point inside the seam is inside the wall.
  sup_map desc;
  sup_map_init(&desc);
  sup_map_add_rect(&desc, 0, 0, 10, 10);
  sup_map_add_rect(&desc, 10, 0, 20, 10);
  mesh_fixture f = make_fixture(&desc, &plain_alloc);
  expect_length(&f, &desc, v2(10, 15), v2(10, -5), 10 + 2 * sqrt(125.0));
  expect_length(&f, &desc, v2(10, 10), v2(10, 15), 5.0); // the seam's end is on the wall's side
  an_funnel_result res;
  for (int optimal = 0; optimal < 2; ++optimal) {
    ck_assert_int_eq(sup_funnel_find_path(f.mesh, f.scratch, v2(10, 5), v2(10, 15), optimal, &res),
                     ARCNAV_START_BLOCKED);
    ck_assert_int_eq(sup_funnel_find_path(f.mesh, f.scratch, v2(10, 15), v2(10, 5), optimal, &res),
                     ARCNAV_GOAL_BLOCKED);
  }
  ck_assert(!an_navmesh_point_is_free(f.mesh, v2(10, 5)));
  ck_assert(!an_navmesh_point_is_free(f.mesh, v2(10, 9.5)));
  ck_assert(an_navmesh_point_is_free(f.mesh, v2(10, 10)));
  free_fixture(&f);
  sup_map_free(&desc);

  // An obstacle edge on the bounds: bounds [0, 10]^2, obstacle [4, 10] x [2, 8]. From (8, 9) to
  // (8, 1) the only way is round the left: sqrt(17) + 6 + sqrt(17).
  sup_map_init(&desc);
  arcnav_vec2 b[] = {{0, 0}, {10, 0}, {10, 10}, {0, 10}};
  sup_map_set_bounds(&desc, b, 4);
  sup_map_add_rect(&desc, 4, 2, 10, 8);
  f = make_fixture(&desc, &plain_alloc);
  expect_length(&f, &desc, v2(8, 9), v2(8, 1), 6 + 2 * sqrt(17.0));
  ck_assert_double_eq_tol(6 + 2 * sqrt(17.0), 14.2462, 1e-4);
  ck_assert_int_eq(sup_funnel_find_path(f.mesh, f.scratch, v2(10, 5), v2(8, 1), true, &res),
                   ARCNAV_START_BLOCKED);
  ck_assert(!an_navmesh_point_is_free(f.mesh, v2(10, 5)));
  free_fixture(&f);
  sup_map_free(&desc);
}
END_TEST

// Independent reference: visibility graph over polygon vertices + Dijkstra.

typedef struct vg {
  const sup_map *desc;
  vec2 *nodes;
  size_t count;
  vec2 *edges_a, *edges_b;
  size_t edge_count;
} vg;

static long double orient_ld(vec2 a, vec2 b, vec2 c) {
  return ((long double)b.x - a.x) * ((long double)c.y - a.y) -
         ((long double)b.y - a.y) * ((long double)c.x - a.x);
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/// Segment pq stays out of every obstacle's interior: no proper crossing with an edge, and the
/// middle of every piece between obstacle vertices on it is not inside an obstacle.
static bool vg_visible(const vg *g, vec2 p, vec2 q) {
  double ts[512];
  size_t nt = 0;
  ts[nt++] = 0.0;
  ts[nt++] = 1.0;
  double len2 = v2_dist2(p, q);
  if (len2 == 0.0) {
    return true;
  }
  double scale = sqrt(len2);
  for (size_t e = 0; e < g->edge_count; ++e) {
    vec2 c = g->edges_a[e], d = g->edges_b[e];
    long double o1 = orient_ld(p, q, c), o2 = orient_ld(p, q, d);
    long double o3 = orient_ld(c, d, p), o4 = orient_ld(c, d, q);
    long double tol = 1e-12L * scale * (scale + v2_dist(c, d));
    bool c_on = fabsl(o1) <= tol, d_on = fabsl(o2) <= tol;
    if (!c_on && !d_on && ((o1 > 0) != (o2 > 0)) && fabsl(o3) > tol && fabsl(o4) > tol &&
        ((o3 > 0) != (o4 > 0))) {
      return false;
    }
    vec2 ends[2] = {c, d};
    bool on[2] = {c_on, d_on};
    for (int k = 0; k < 2; ++k) {
      if (on[k] && nt < 512) {
        double t = v2_dot(v2_sub(ends[k], p), v2_sub(q, p)) / len2;
        if (t > 0.0 && t < 1.0) {
          ts[nt++] = t;
        }
      }
    }
  }
  qsort(ts, nt, sizeof ts[0], cmp_double);
  for (size_t i = 0; i + 1 < nt; ++i) {
    if (ts[i + 1] - ts[i] < 1e-15) {
      continue;
    }
    vec2 m = v2_lerp(p, q, 0.5 * (ts[i] + ts[i + 1]));
    if (sup_signed_distance_to_obstacles(g->desc, m) < -1e-9) {
      return false;
    }
  }
  return true;
}

static void vg_build(vg *g, const sup_map *desc) {
  memset(g, 0, sizeof *g);
  g->desc = desc;
  size_t cap = 0;
  for (size_t i = 0; i < desc->polygon_count; ++i) {
    cap += desc->polygons[i].outer.count;
  }
  g->nodes = malloc((cap + 2) * sizeof *g->nodes);
  g->edges_a = malloc(cap * sizeof *g->edges_a);
  g->edges_b = malloc(cap * sizeof *g->edges_b);
  for (size_t i = 0; i < desc->polygon_count; ++i) {
    const sup_ring *r = &desc->polygons[i].outer;
    for (size_t k = 0; k < r->count; ++k) {
      g->edges_a[g->edge_count] = r->points[k];
      g->edges_b[g->edge_count++] = r->points[(k + 1) % r->count];
      if (sup_signed_distance_to_obstacles(desc, r->points[k]) > -1e-9) {
        g->nodes[g->count++] = r->points[k];
      }
    }
  }
}

/// Shortest length from s to t through visible vertex-to-vertex segments (O(n^2) Dijkstra with
/// visibility tested on demand, cached in `vis`).
static double vg_shortest(const vg *g, signed char *vis, vec2 s, vec2 t) {
  size_t n = g->count + 2;
  vec2 *pts = malloc(n * sizeof *pts);
  memcpy(pts, g->nodes, g->count * sizeof *pts);
  pts[n - 2] = s;
  pts[n - 1] = t;
  double *dist = malloc(n * sizeof *dist);
  bool *done = calloc(n, sizeof *done);
  for (size_t i = 0; i < n; ++i) {
    dist[i] = INFINITY;
  }
  dist[n - 2] = 0.0;
  for (;;) {
    size_t u = n;
    for (size_t i = 0; i < n; ++i) {
      if (!done[i] && dist[i] < INFINITY && (u == n || dist[i] < dist[u])) {
        u = i;
      }
    }
    if (u == n || u == n - 1) {
      break;
    }
    done[u] = true;
    for (size_t v = 0; v < n; ++v) {
      if (done[v]) {
        continue;
      }
      bool visible;
      if (u < g->count && v < g->count) {
        signed char *c = &vis[u * g->count + v];
        if (*c == 0) {
          *c = vg_visible(g, pts[u], pts[v]) ? 1 : -1;
          vis[v * g->count + u] = *c;
        }
        visible = *c > 0;
      } else {
        visible = vg_visible(g, pts[u], pts[v]);
      }
      if (visible && dist[u] + v2_dist(pts[u], pts[v]) < dist[v]) {
        dist[v] = dist[u] + v2_dist(pts[u], pts[v]);
      }
    }
  }
  double d = dist[n - 1];
  free(pts);
  free(dist);
  free(done);
  return d;
}

static void vg_free(vg *g) {
  free(g->nodes);
  free(g->edges_a);
  free(g->edges_b);
}

/// Disjoint axis-aligned rectangles and triangles with integer corners, at least 1 apart.
static sup_map disjoint_integer_map(uint64_t seed) {
  sup_rng rng = sup_rng_seed(seed);
  sup_map desc;
  sup_map_init(&desc);
  double boxes[20][4];
  size_t made = 0;
  for (int attempt = 0; attempt < 500 && made < 14; ++attempt) {
    double w = 2 + (double)sup_rng_below(&rng, 15), h = 2 + (double)sup_rng_below(&rng, 15);
    double x = (double)sup_rng_below(&rng, (size_t)(100 - w)),
           y = (double)sup_rng_below(&rng, (size_t)(100 - h));
    bool clear = true;
    for (size_t k = 0; k < made && clear; ++k) {
      clear = x > boxes[k][2] + 1 || x + w + 1 < boxes[k][0] || y > boxes[k][3] + 1 ||
              y + h + 1 < boxes[k][1];
    }
    if (!clear) {
      continue;
    }
    boxes[made][0] = x;
    boxes[made][1] = y;
    boxes[made][2] = x + w;
    boxes[made][3] = y + h;
    made++;
    if (sup_rng_below(&rng, 2)) {
      sup_map_add_rect(&desc, x, y, x + w, y + h);
    } else {
      arcnav_vec2 tri[3] = {{x, y},
                            {x + w, y + (double)sup_rng_below(&rng, (size_t)h)},
                            {x + (double)sup_rng_below(&rng, (size_t)w), y + h}};
      sup_map_add_polygon(&desc, tri, 3, NULL, NULL, 0);
    }
  }
  return desc;
}

START_TEST(test_random_against_visibility_graph) {
  size_t queries = 0, plain_longer = 0;
  double worst_ratio = 1.0;
  for (uint64_t seed = 1; seed <= test_scaled_count(26); ++seed) {
    sup_map desc = seed % 2 ? disjoint_integer_map(seed)
                            : sup_gen_random_rectangles(seed, 16, 100.0, 4.0, 25.0);
    mesh_fixture f = make_fixture(&desc, &plain_alloc);
    double eps = arcnav_map_tolerance(f.map);
    vg g;
    vg_build(&g, &desc);
    signed char *vis = calloc(g.count * g.count + 1, 1);
    sup_rng rng = sup_rng_seed(seed * 1000 + 7);
    arcnav_vec2 lo, hi;
    ck_assert(sup_map_extent(&desc, &lo, &hi));
    for (int q = 0; q < 20; ++q) {
      arcnav_vec2 s, t;
      ck_assert(sup_random_free_point(&desc, 0.0, &rng, lo, hi, 1e-6, 1000, &s));
      ck_assert(sup_random_free_point(&desc, 0.0, &rng, lo, hi, 1e-6, 1000, &t));
      double want = vg_shortest(&g, vis, s, t);
      an_funnel_result opt, plain;
      arcnav_status st = sup_funnel_find_path(f.mesh, f.scratch, s, t, true, &opt);
      if (!isfinite(want)) {
        ck_assert_int_eq(st, ARCNAV_NO_PATH);
        continue;
      }
      ck_assert_int_eq(st, ARCNAV_OK);

      ck_assert_msg(fabs(opt.length - want) <= 1e-9 * want,
                    "seed %d query %d: optimal funnel %.17g, visibility graph %.17g", (int)seed, q,
                    opt.length, want);
      test_verify_polyline(&desc, eps, s, t, &opt);
      double opt_len = opt.length;
      ck_assert_int_eq(sup_funnel_find_path(f.mesh, f.scratch, s, t, false, &plain), ARCNAV_OK);
      ck_assert_msg(plain.length >= opt_len * (1 - 1e-12), "plain %.17g shorter than %.17g",
                    plain.length, opt_len);
      test_verify_polyline(&desc, eps, s, t, &plain);
      plain_longer += plain.length > opt_len * (1 + 1e-9);
      worst_ratio = fmax(worst_ratio, plain.length / fmax(opt_len, 1e-300));
      queries++;
    }
    free(vis);
    vg_free(&g);
    free_fixture(&f);
    sup_map_free(&desc);
  }
  ck_assert_int_ge(queries, (int)test_scaled_minimum(500, 26));
  // The comparison must be able to tell the modes apart somewhere.
  ck_assert_int_gt(plain_longer, 0);
}
END_TEST

// ---------------------------------------------------------------------------------------------
// Against the support library's brute-force reference, exact at R = 0 (its samples are the
// polygon vertices themselves). Besides random free points, some queries start or end exactly on
// an obstacle corner, where the funnel's orientation tests meet zero-length edges and collinear
// triples. No map here has obstacles that touch without overlapping: the reference would pass
// through the seam between them.

/// A polygon vertex not inside any obstacle, or false after a few tries.
static bool random_corner(const sup_map *desc, sup_rng *rng, arcnav_vec2 *out) {
  for (int attempt = 0; attempt < 50; ++attempt) {
    const sup_ring *ring = &desc->polygons[sup_rng_below(rng, desc->polygon_count)].outer;
    arcnav_vec2 p = ring->points[sup_rng_below(rng, ring->count)];
    if (sup_signed_distance_to_obstacles(desc, p) >= 0.0) {
      *out = p;
      return true;
    }
  }
  return false;
}

START_TEST(test_random_against_reference) {
  size_t compared = 0, cornered = 0;
  for (uint64_t seed = 1; seed <= test_scaled_count(9); ++seed) {
    sup_map desc;
    switch (seed % 3) {
    case 0:
      desc = sup_gen_neerc_worst(seed);
      break;
    case 1:
      desc = sup_gen_town(seed, 2, 30.0, 6.0, 0.5, 3.0);
      break;
    default:
      desc = sup_gen_random_rectangles(seed, 30, 100.0, 3.0, 20.0);
      break;
    }
    mesh_fixture f = make_fixture(&desc, &plain_alloc);
    double eps = arcnav_map_tolerance(f.map);
    sup_reference *ref = sup_reference_create(&desc, 0.0, NULL);
    sup_rng rng = sup_rng_seed(seed * 7919 + 3);
    arcnav_vec2 lo, hi;
    ck_assert(sup_map_extent(&desc, &lo, &hi));
    for (int q = 0; q < 16; ++q) {
      arcnav_vec2 s, t;
      bool corner_start = q % 4 == 1 && random_corner(&desc, &rng, &s);
      bool corner_goal = q % 4 == 2 && random_corner(&desc, &rng, &t);
      if (!corner_start) {
        ck_assert(sup_random_free_point(&desc, 0.0, &rng, lo, hi, 1e-6, 1000, &s));
      }
      if (!corner_goal) {
        ck_assert(sup_random_free_point(&desc, 0.0, &rng, lo, hi, 1e-6, 1000, &t));
      }
      sup_reference_result want = sup_reference_query(ref, s, t);
      an_funnel_result opt;
      arcnav_status st = sup_funnel_find_path(f.mesh, f.scratch, s, t, true, &opt);
      if (!want.found) {
        ck_assert_int_eq(st, ARCNAV_NO_PATH);
        continue;
      }
      ck_assert_msg(st == ARCNAV_OK, "seed %d query %d (%.17g, %.17g) -> (%.17g, %.17g): %s",
                    (int)seed, q, s.x, s.y, t.x, t.y, arcnav_status_name(st));

      ck_assert_msg(fabs(opt.length - want.length) <= 1e-9 * fmax(1.0, want.length),
                    "seed %d query %d: optimal funnel %.17g, reference %.17g", (int)seed, q,
                    opt.length, want.length);
      test_verify_polyline(&desc, eps, s, t, &opt);
      compared++;
      cornered += corner_start || corner_goal;
    }
    sup_reference_destroy(ref);
    free_fixture(&f);
    sup_map_free(&desc);
  }
  ck_assert_int_ge(compared, (int)test_scaled_minimum(100, 9));
  ck_assert_int_ge(cornered, (int)test_scaled_minimum(20, 9));
}
END_TEST

// ---------------------------------------------------------------------------------------------
// Beyond the box: without bounds the map is the whole plane.

START_TEST(test_query_far_beyond_the_box) {
  // The square [0, 10]^2 alone. Its box is [-2, 12]^2; points far beyond it in every direction.
  sup_map desc;
  sup_map_init(&desc);
  sup_map_add_rect(&desc, 0, 0, 10, 10);
  mesh_fixture f = make_fixture(&desc, &plain_alloc);
  ck_assert(f.mesh->whole_plane);
  for (int k = 0; k < 3; ++k) {
    double d = k == 0 ? 100.0 : k == 1 ? 1e6 : 1e10;
    // Straight across, over the top: hypot(d, 5) to (0, 10), 10 along the top, hypot(d, 5) on.
    expect_length(&f, &desc, v2(-d, 5), v2(10 + d, 5), 10 + 2 * hypot(d, 5));
    expect_length(&f, &desc, v2(5, 10 + d), v2(5, -d), 10 + 2 * hypot(d, 5));
    // From a corner region to the opposite one, past the corner (0, 10): the diagonal through the
    // square is blocked.
    vec2 s = v2(-d, -d), g = v2(10 + d, 10 + d);
    expect_length(&f, &desc, s, g, v2_dist(s, v2(0, 10)) + v2_dist(v2(0, 10), g));
    // Into the square's face and out to a far point; a far point to a corner.
    expect_length(&f, &desc, v2(-d, 5), v2(0, 5), d);
    expect_length(&f, &desc, v2(12 + d, 12 + d), v2(10, 10), hypot(2 + d, 2 + d));
    expect_length(&f, &desc, v2(-d, 5), v2(12, 5), hypot(d, 5) + 10 + hypot(2, 5));
    // Both on one side: the segment misses the box.
    expect_length(&f, &desc, v2(-d, -d), v2(d, -d), 2 * d);
    expect_length(&f, &desc, v2(-d, 100), v2(100, d), v2_dist(v2(-d, 100), v2(100, d)));
  }
  // On the box's edges and corners, and just beyond them, to the point mirrored through the
  // square's centre: against the visibility graph.
  vg g;
  vg_build(&g, &desc);
  signed char *vis = calloc(g.count * g.count + 1, 1);
  vec2 lo = f.mesh->cdt.points[0], hi = f.mesh->cdt.points[2];
  const vec2 rim[] = {lo,
                      hi,
                      v2(lo.x, 5),
                      v2(5, hi.y),
                      v2(nextafter(lo.x, -INFINITY), 5),
                      v2(nextafter(hi.x, INFINITY), nextafter(hi.y, INFINITY)),
                      v2(nextafter(lo.x, -INFINITY), hi.y)};
  for (size_t k = 0; k < sizeof rim / sizeof rim[0]; ++k) {
    vec2 p = rim[k];
    vec2 mirror = v2(10 - p.x, 10 - p.y); // through the square's centre
    double best = vg_shortest(&g, vis, p, mirror);
    an_funnel_result res;
    ck_assert_int_eq(sup_funnel_find_path(f.mesh, f.scratch, p, mirror, true, &res), ARCNAV_OK);
    ck_assert_msg(fabs(res.length - best) <= 1e-12 * best, "(%.17g, %.17g): %.17g, want %.17g", p.x,
                  p.y, res.length, best);
    test_verify_polyline(&desc, arcnav_map_tolerance(f.map), p, mirror, &res);
    ck_assert_int_eq(sup_funnel_find_path(f.mesh, f.scratch, p, mirror, false, &res), ARCNAV_OK);
    test_verify_polyline(&desc, arcnav_map_tolerance(f.map), p, mirror, &res);
  }
  free(vis);
  vg_free(&g);
  free_fixture(&f);
  sup_map_free(&desc);
}
END_TEST

typedef struct engine_answer {
  arcnav_status status;
  double length;
} engine_answer;

static engine_answer engine_length(const arcnav_map *map, arcnav_engine engine,
                                   arcnav_tangent_graph graph, double radius, vec2 s, vec2 g) {
  arcnav_planner_def def = arcnav_default_planner_def();
  def.engine = engine;
  def.tangent_graph = graph;
  def.radius = radius;
  arcnav_planner *planner;
  arcnav_query *query;
  arcnav_path *path;
  ck_assert_int_eq(arcnav_planner_create(map, &def, &planner), ARCNAV_OK);
  ck_assert_int_eq(arcnav_query_create(planner, &query), ARCNAV_OK);
  ck_assert_int_eq(arcnav_path_create(NULL, &path), ARCNAV_OK);
  engine_answer a = {arcnav_find_path(query, s, g, path), 0.0};
  a.length = arcnav_path_length(path);
  if (engine != ARCNAV_ENGINE_TANGENT && radius > 0.0) {
    // The eroded mesh judges points by itself: the point test must agree with the statuses.
    ck_assert(arcnav_planner_point_is_free(planner, s) == (a.status != ARCNAV_START_BLOCKED));
  }
  arcnav_path_destroy(path);
  arcnav_query_destroy(query);
  arcnav_planner_destroy(planner);
  return a;
}

START_TEST(test_far_queries_match_tangent_engine) {
  // Obstacles inside [13, 88] x [9, 93] (the example) and far points round them: the
  // optimal funnel must give the tangent engine's length (both graph modes), the plain funnel
  // never less.
  size_t compared = 0;
  for (uint64_t seed = 1; seed <= 4; ++seed) {
    sup_map desc = disjoint_integer_map(seed);
    arcnav_map *map;
    ck_assert_int_eq(sup_map_to_arcnav(&desc, &map), ARCNAV_OK);
    arcnav_vec2 lo, hi;
    ck_assert(sup_map_extent(&desc, &lo, &hi));
    double size = fmax(hi.x - lo.x, hi.y - lo.y);
    vec2 mid = v2(0.5 * (lo.x + hi.x), 0.5 * (lo.y + hi.y));
    vec2 ends[40];
    size_t n = 0;
    ends[n++] = v2(-50, -50);
    ends[n++] = v2(150, 150);
    ends[n++] = v2(50, -5);
    ends[n++] = v2(50, 150);
    const double far[] = {10.0 * size, 1e6, 1e9 * size};
    for (int d = 0; d < 3; ++d) {
      for (int k = 0; k < 8; ++k) {
        double angle = TEST_PI / 4 * k + 0.1 * (double)seed;
        ends[n++] = v2(mid.x + far[d] * cos(angle), mid.y + far[d] * sin(angle));
      }
    }
    sup_rng rng = sup_rng_seed(seed);
    while (n < 40) {
      ck_assert(sup_random_free_point(&desc, 0.0, &rng, lo, hi, 1e-6, 1000, &ends[n]));
      n++;
    }
    for (size_t i = 0; i < n; ++i) {
      size_t j = (i * 7 + 3) % n;
      if (j == i || (i >= 28 && j >= 28)) {
        continue;
      }
      vec2 s = ends[i], g = ends[j];
      engine_answer want =
          engine_length(map, ARCNAV_ENGINE_TANGENT, ARCNAV_TANGENT_GRAPH_PREBUILT, 0.0, s, g);
      engine_answer lazy =
          engine_length(map, ARCNAV_ENGINE_TANGENT, ARCNAV_TANGENT_GRAPH_ON_DEMAND, 0.0, s, g);
      engine_answer opt =
          engine_length(map, ARCNAV_ENGINE_FUNNEL, ARCNAV_TANGENT_GRAPH_AUTO, 0.0, s, g);
      engine_answer plain =
          engine_length(map, ARCNAV_ENGINE_PLAIN_FUNNEL, ARCNAV_TANGENT_GRAPH_AUTO, 0.0, s, g);
      ck_assert_int_eq(want.status, ARCNAV_OK);
      ck_assert_int_eq(lazy.status, ARCNAV_OK);
      ck_assert_msg(opt.status == ARCNAV_OK && plain.status == ARCNAV_OK,
                    "seed %d (%.17g, %.17g) -> (%.17g, %.17g): %s, %s", (int)seed, s.x, s.y, g.x,
                    g.y, arcnav_status_name(opt.status), arcnav_status_name(plain.status));
      ck_assert_double_eq_tol(lazy.length, want.length, 1e-9 * want.length);
      ck_assert_msg(fabs(opt.length - want.length) <= 1e-9 * want.length,
                    "seed %d (%.17g, %.17g) -> (%.17g, %.17g): funnel %.17g, tangent %.17g",
                    (int)seed, s.x, s.y, g.x, g.y, opt.length, want.length);
      ck_assert(plain.length >= opt.length * (1 - 1e-12));
      compared++;
    }
    arcnav_map_destroy(map);
    sup_map_free(&desc);
  }
  ck_assert_uint_ge(compared, 100);
}
END_TEST

START_TEST(test_far_queries_on_eroded_mesh) {
  // At R = 1 the square [0, 10]^2 grows to [-1, 11]^2 (square corners keep their miter), so by
  // hand: round its top corners, or past one corner on the diagonal. Both funnel engines.
  sup_map desc;
  sup_map_init(&desc);
  sup_map_add_rect(&desc, 0, 0, 10, 10);
  arcnav_map *map;
  ck_assert_int_eq(sup_map_to_arcnav(&desc, &map), ARCNAV_OK);
  for (int k = 0; k < 2; ++k) {
    double d = k == 0 ? 1e3 : 1e9;
    typedef struct {
      vec2 s, g;
      double length;
    } far_case;
    const far_case cases[] = {
        {{-d, 5}, {10 + d, 5}, hypot(d - 1, 6) + 12 + hypot(d - 1, 6)},
        {{-d, -d}, {d, d}, hypot(d - 1, d + 11) + hypot(d + 1, d - 11)},
        {{-d, 5}, {20, 5}, hypot(d - 1, 6) + 12 + hypot(9, 6)},
        {{-d, -20}, {d, -20}, 2 * d},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; ++c) {
      for (int reverse = 0; reverse < 2; ++reverse) {
        vec2 s = reverse ? cases[c].g : cases[c].s, g = reverse ? cases[c].s : cases[c].g;
        engine_answer opt =
            engine_length(map, ARCNAV_ENGINE_FUNNEL, ARCNAV_TANGENT_GRAPH_AUTO, 1.0, s, g);
        engine_answer plain =
            engine_length(map, ARCNAV_ENGINE_PLAIN_FUNNEL, ARCNAV_TANGENT_GRAPH_AUTO, 1.0, s, g);
        ck_assert_int_eq(opt.status, ARCNAV_OK);
        ck_assert_int_eq(plain.status, ARCNAV_OK);
        ck_assert_msg(fabs(opt.length - cases[c].length) <= 1e-12 * cases[c].length,
                      "case %zu d %g: %.17g, want %.17g", c, d, opt.length, cases[c].length);
        ck_assert(plain.length >= opt.length * (1 - 1e-12));
      }
    }
  }
  arcnav_map_destroy(map);
  // With bounds, beyond them is blocked, and the point test says so.
  arcnav_vec2 b[] = {{-20, -20}, {30, -20}, {30, 30}, {-20, 30}};
  sup_map_set_bounds(&desc, b, 4);
  ck_assert_int_eq(sup_map_to_arcnav(&desc, &map), ARCNAV_OK);
  for (int e = 0; e < 2; ++e) {
    arcnav_engine engine = e ? ARCNAV_ENGINE_FUNNEL : ARCNAV_ENGINE_PLAIN_FUNNEL;
    ck_assert_int_eq(
        engine_length(map, engine, ARCNAV_TANGENT_GRAPH_AUTO, 1.0, v2(-1e6, 5), v2(20, 5)).status,
        ARCNAV_START_BLOCKED);
    ck_assert_int_eq(
        engine_length(map, engine, ARCNAV_TANGENT_GRAPH_AUTO, 1.0, v2(20, 5), v2(-1e6, 5)).status,
        ARCNAV_GOAL_BLOCKED);
  }
  arcnav_map_destroy(map);
  sup_map_free(&desc);
}
END_TEST

// ---------------------------------------------------------------------------------------------
// Long channels. A regular polygon of n vertices on the circle of radius 100 (or a star: every
// other vertex pulled in to radius 90) alone in the map: the free space is a ring of thin
// triangles fanning from the polygon's edges to the corners of the box around it. From (-110, 1)
// to (110, 4) the shortest path wraps about 130 degrees of the hull, bending at every hull
// vertex on the way; beside it, from (-110, -104) to (110, -104), it is the straight line.

static double cross3(vec2 o, vec2 a, vec2 b) {
  return (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x);
}

/// Shortest way from s to g around a convex polygon (counter-clockwise) that blocks the straight
/// line: for each way round, the tangent to the first vertex, the hull edges, the tangent from the
/// last. *first, *last and *step (+1 counter-clockwise) receive the shorter one's hull walk.
static double hull_walk(const vec2 *hull, size_t n, vec2 s, vec2 g, size_t *first, size_t *last,
                        int *step) {
  double best = INFINITY;
  for (int dir = -1; dir <= 1; dir += 2) {
    // Going counter-clockwise (the hull on the path's left) the path leaves s towards the vertex
    // whose neighbours both lie on the left of the line from s, and reaches g from the vertex
    // whose neighbours both lie on the right of the line from g.
    size_t a = n, b = n;
    for (size_t i = 0; i < n; ++i) {
      vec2 v = hull[i], prev = hull[(i + n - 1) % n], next = hull[(i + 1) % n];
      if (a == n && dir * cross3(s, v, prev) >= 0.0 && dir * cross3(s, v, next) >= 0.0) {
        a = i;
      }
      if (b == n && dir * cross3(g, v, prev) <= 0.0 && dir * cross3(g, v, next) <= 0.0) {
        b = i;
      }
    }
    ck_assert(a < n && b < n);
    double length = v2_dist(s, hull[a]);
    for (size_t k = a; k != b; k = (k + n + (size_t)(dir + 1) - 1) % n) {
      length += v2_dist(hull[k], hull[(k + n + (size_t)(dir + 1) - 1) % n]);
    }
    length += v2_dist(hull[b], g);
    if (length < best) {
      best = length;
      *first = a;
      *last = b;
      *step = dir;
    }
  }
  return best;
}

static void long_channel(size_t n, double inner) {
  vec2 *ring = sup_star_ring(n, 100.0, inner);
  size_t hull_n = inner > 0.0 ? n / 2 : n;
  vec2 *hull = malloc(hull_n * sizeof *hull);
  for (size_t i = 0; i < hull_n; ++i) {
    hull[i] = ring[inner > 0.0 ? 2 * i : i];
  }
  sup_map desc;
  sup_map_init(&desc);
  sup_map_add_polygon(&desc, ring, n, NULL, NULL, 0);
  mesh_fixture f = make_fixture(&desc, &plain_alloc);
  ck_assert_int_ge(an_navmesh_triangle_count(f.mesh), n);
  double eps = arcnav_map_tolerance(f.map);

  vec2 s = v2(-110, 1), g = v2(110, 4);
  size_t first = 0, last = 0;
  int step = 1;
  double want = hull_walk(hull, hull_n, s, g, &first, &last, &step);
  an_funnel_result res;
  ck_assert_int_eq(sup_funnel_find_path(f.mesh, f.scratch, s, g, true, &res), ARCNAV_OK);

  ck_assert_msg(fabs(res.length - want) <= 1e-9 * want, "n %zu: %.17g, hull walk %.17g", n,
                res.length, want);
  // Corner by corner: the start, the hull walk, the goal.
  size_t corners = (step > 0 ? last + hull_n - first : first + hull_n - last) % hull_n + 1;
  ck_assert_uint_eq(res.point_count, corners + 2);
  for (size_t k = 0; k < corners; ++k) {
    ck_assert_vec2_near(res.points[k + 1], hull[(first + hull_n + (size_t)step * k) % hull_n], 0.0);
  }
  // Pinned corner by corner, the path needs no verifier (which would take seconds here).
  double opt_len = res.length;
  ck_assert_int_eq(sup_funnel_find_path(f.mesh, f.scratch, s, g, false, &res), ARCNAV_OK);
  ck_assert(res.length >= opt_len * (1 - 1e-12));
  test_verify_polyline(&desc, eps, s, g, &res);

  for (int optimal = 0; optimal < 2; ++optimal) {
    ck_assert_int_eq(
        sup_funnel_find_path(f.mesh, f.scratch, v2(-110, -104), v2(110, -104), optimal, &res),
        ARCNAV_OK);
    ck_assert_uint_eq(res.point_count, 2);
    ck_assert_double_eq_tol(res.length, 220.0, 1e-12);
  }
  free_fixture(&f);
  sup_map_free(&desc);
  free(hull);
  free(ring);
}

START_TEST(test_long_channel_polygon) {
  long_channel(test_scaled_count(4000) < 400 ? 400 : test_scaled_count(4000), 0.0);
}
END_TEST

START_TEST(test_long_channel_star) {
  size_t n = test_scaled_count(4000) < 400 ? 400 : test_scaled_count(4000);
  long_channel(n - n % 2, 90.0);
}
END_TEST

// A scratch whose node pool starts at one node grows it query by query; the answers must not
// change: the same as a scratch of the usual size and, on maps whose obstacles overlap but never
// touch, the tangent engine's length (a different algorithm over different data). Dense
// rectangles and mazes make the optimal search try many channels. (A maze's walls share edges,
// which the tangent engine may not treat as the funnel does: there only the two scratches are
// compared.)
START_TEST(test_pool_grows_to_the_search) {
  size_t grown = 0, compared = 0;
  for (uint64_t seed = 1; seed <= 4; ++seed) {
    bool maze = seed == 4;
    sup_map desc = maze ? sup_gen_maze(seed, 10, 20.0, 2.0)
                        : sup_gen_random_rectangles(seed, 120, 300.0, 5.0, 40.0);
    mesh_fixture f = make_fixture(&desc, &plain_alloc);
    an_funnel_scratch *tiny;
    ck_assert_int_eq(an_funnel_scratch_create_with_capacity(f.mesh, &plain_alloc, 1, &tiny),
                     ARCNAV_OK);
    size_t bytes = an_funnel_scratch_memory_bytes(tiny);
    arcnav_vec2 lo, hi;
    ck_assert(sup_map_extent(&desc, &lo, &hi));
    sup_rng rng = sup_rng_seed(seed + 40);
    for (int q = 0; q < 12; ++q) {
      arcnav_vec2 s, t;
      ck_assert(sup_random_free_point(&desc, 0.0, &rng, lo, hi, 1e-6, 1000, &s));
      ck_assert(sup_random_free_point(&desc, 0.0, &rng, lo, hi, 1e-6, 1000, &t));
      if (q % 4 == 3) {
        // Far beyond the box, on either side.
        s = v2(lo.x - 1e6, hi.y + 2e5);
        t = v2(hi.x + 1e6, lo.y - 3e5);
      }
      an_funnel_result small, usual;
      arcnav_status st = sup_funnel_find_path(f.mesh, tiny, s, t, true, &small);
      size_t now = an_funnel_scratch_memory_bytes(tiny);
      grown += now > bytes;
      bytes = now;
      ck_assert_int_eq(sup_funnel_find_path(f.mesh, f.scratch, s, t, true, &usual), st);
      if (st != ARCNAV_OK) {
        ck_assert_int_eq(st, ARCNAV_NO_PATH);
        continue;
      }
      ck_assert_uint_eq(small.point_count, usual.point_count);
      ck_assert(small.length == usual.length);
      if (!maze) {
        engine_answer want =
            engine_length(f.map, ARCNAV_ENGINE_TANGENT, ARCNAV_TANGENT_GRAPH_PREBUILT, 0.0, s, t);
        ck_assert_int_eq(want.status, ARCNAV_OK);
        ck_assert_msg(fabs(small.length - want.length) <= 1e-9 * want.length,
                      "seed %d query %d: funnel %.17g, tangent %.17g", (int)seed, q, small.length,
                      want.length);
        compared++;
      }
      // The plain search walks one channel and grows what it needs for it too.
      ck_assert_int_eq(sup_funnel_find_path(f.mesh, tiny, s, t, false, &small), ARCNAV_OK);
      ck_assert(small.length >= usual.length * (1 - 1e-12));
    }
    an_funnel_scratch_destroy(tiny);
    free_fixture(&f);
    sup_map_free(&desc);
  }
  ck_assert_uint_ge(grown, 8);
  ck_assert_uint_ge(compared, 24);
}
END_TEST

// Counting allocator: queries must not allocate.
typedef struct counter {
  size_t allocs;
} counter;

static void *count_alloc(size_t size, void *user) {
  ((counter *)user)->allocs++;
  return malloc(size);
}

static void count_free(void *p, void *user) {
  (void)user;
  free(p);
}

START_TEST(test_queries_do_not_allocate) {
  counter c = {0};
  an_allocator alloc = {{count_alloc, count_free, &c}};
  sup_map desc = sup_gen_random_rectangles(5, 40, 100.0, 2.0, 15.0);
  mesh_fixture f = make_fixture(&desc, &alloc);
  size_t before = c.allocs;
  ck_assert_int_gt(before, 0);
  sup_rng rng = sup_rng_seed(99);
  for (int q = 0; q < 200; ++q) {
    vec2 s = v2(sup_rng_uniform(&rng, 0, 100), sup_rng_uniform(&rng, 0, 100));
    vec2 t = v2(sup_rng_uniform(&rng, 0, 100), sup_rng_uniform(&rng, 0, 100));
    an_funnel_result res;
    sup_funnel_find_path(f.mesh, f.scratch, s, t, q % 2 == 0, &res);
  }
  ck_assert_int_eq(c.allocs, before);
  ck_assert_int_gt(an_funnel_scratch_memory_bytes(f.scratch), 0);
  free_fixture(&f);
  sup_map_free(&desc);
}
END_TEST

static Suite *funnel_suite(void) {
  Suite *s = suite_create("funnel");
  TCase *tc = tcase_create("portals");
  tcase_add_test(tc, test_pull_straight_corridor);
  tcase_add_test(tc, test_pull_zigzag);
  tcase_add_test(tc, test_pull_spiral);
  tcase_add_test(tc, test_pull_start_equals_goal);
  tcase_add_test(tc, test_pull_zero_width);
  tcase_add_test(tc, test_pull_collinear);
  suite_add_tcase(s, tc);
  tc = tcase_create("queries");
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, test_query_around_wall);
  tcase_add_test(tc, test_query_no_path);
  tcase_add_test(tc, test_query_around_touching_corner);
  tcase_add_test(tc, test_query_along_sides_of_touching_corner);
  tcase_add_test(tc, test_query_around_seams);
  tcase_add_test(tc, test_query_far_beyond_the_box);
  tcase_add_test(tc, test_far_queries_match_tangent_engine);
  tcase_add_test(tc, test_far_queries_on_eroded_mesh);
  tcase_add_test(tc, test_pool_grows_to_the_search);
  tcase_add_test(tc, test_random_against_visibility_graph);
  tcase_add_test(tc, test_random_against_reference);
  tcase_add_test(tc, test_long_channel_polygon);
  tcase_add_test(tc, test_long_channel_star);
  tcase_add_test(tc, test_queries_do_not_allocate);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  return test_run_suite(funnel_suite());
}
