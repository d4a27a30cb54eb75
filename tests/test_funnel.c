// SPDX-License-Identifier: MIT
// The funnel and the channel searches. Portal-sequence cases have expected paths derived by hand;
// on random polygon maps the optimal search must match an independent visibility graph + Dijkstra
// written here and the support library's brute-force reference (relative 1e-9), the plain search
// must never be shorter, and every path is checked by the support library's independent verifier.
// Long channels around polygons of thousands of vertices are checked against the length walked
// along the polygon's hull.

#include "arcnav_test.h"
#include "funnel.h"
#include "mapgen.h"
#include "navmesh.h"
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
  size_t n = an_funnel_string_pull(v2(0, 0), l, r, 5, v2(6, 0), out);
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
  size_t n = an_funnel_string_pull(v2(0, 0), l, r, 3, v2(8, 0), out);
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
  size_t n = an_funnel_string_pull(want[0], l, r, 10, goal, out);
  expect_path(out, n, want, 10);
}
END_TEST

START_TEST(test_pull_start_equals_goal) {
  vec2 out[4];
  size_t n = an_funnel_string_pull(v2(3, 4), NULL, NULL, 0, v2(3, 4), out);
  vec2 want[] = {{3, 4}, {3, 4}};
  expect_path(out, n, want, 2);
  // No portals, distinct points: the straight segment (goal in the start triangle).
  n = an_funnel_string_pull(v2(0, 0), NULL, NULL, 0, v2(1, 2), out);
  vec2 want2[] = {{0, 0}, {1, 2}};
  expect_path(out, n, want2, 2);
}
END_TEST

START_TEST(test_pull_zero_width) {
  // A zero-width portal forces the path through its point; a second one on the straight line
  // adds no corner.
  vec2 l[] = {{1, 1}, {3, 1}}, r[] = {{1, 1}, {3, -1}};
  vec2 out[6];
  size_t n = an_funnel_string_pull(v2(0, 0), l, r, 2, v2(4, 0), out);
  vec2 want[] = {{0, 0}, {1, 1}, {4, 0}};
  expect_path(out, n, want, 3);
  vec2 l2[] = {{2, 0}}, r2[] = {{2, 0}};
  n = an_funnel_string_pull(v2(0, 0), l2, r2, 1, v2(4, 0), out);
  vec2 want2[] = {{0, 0}, {4, 0}};
  expect_path(out, n, want2, 2);
}
END_TEST

START_TEST(test_pull_collinear) {
  // Portal ends on the straight line from start to goal, on both sides, and portals sharing ends.
  vec2 l[] = {{1, 1}, {2, 0}, {2, 0}, {3, 2}}, r[] = {{1, -1}, {2, -1}, {3, 0}, {3, 0}};
  vec2 out[8];
  size_t n = an_funnel_string_pull(v2(0, 0), l, r, 4, v2(5, 0), out);
  vec2 want[] = {{0, 0}, {5, 0}};
  expect_path(out, n, want, 2);
  // Collinear portals along the direction of travel: the path goes around their near end.
  vec2 l3[] = {{1, 1}, {1, 2}}, r3[] = {{1, 0.5}, {1, 1}};
  n = an_funnel_string_pull(v2(0, 0), l3, r3, 2, v2(2, 0), out);
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

static void verify_polyline(const sup_map *desc, double eps, vec2 s, vec2 g,
                            const an_funnel_result *res) {
  arcnav_piece pieces[4096];
  ck_assert_int_le(res->point_count, 4097);
  size_t n = 0;
  double total = 0.0;
  for (size_t i = 1; i < res->point_count; ++i) {
    vec2 a = res->points[i - 1], b = res->points[i];
    if (a.x == b.x && a.y == b.y) {
      continue;
    }
    pieces[n] =
        (arcnav_piece){.type = ARCNAV_PIECE_LINE, .from = a, .to = b, .length = v2_dist(a, b)};
    total += pieces[n].length;
    n++;
  }
  ck_assert_double_eq_tol(total, res->length, 1e-9 * (1.0 + total));
  sup_verify_report rep;
  ck_assert_msg(sup_verify_pieces(desc, 0.0, eps, s, g, pieces, n, total, &rep), "%s", rep.message);
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
    ck_assert_int_eq(an_funnel_find_path(f.mesh, f.scratch, v2(2, 2), v2(8, 2), optimal, &res),
                     ARCNAV_OK);
    vec2 want[] = {{2, 2}, {4, 8}, {6, 8}, {8, 2}};
    expect_path(res.points, res.point_count, want, 4);
    ck_assert_double_eq_tol(res.length, 2 * sqrt(40.0) + 2, 1e-12);
    ck_assert_int_ge(res.channels, 1);
  }
  an_funnel_result res;
  // Goal in the start triangle (or start == goal): a straight segment, 2 points.
  ck_assert_int_eq(an_funnel_find_path(f.mesh, f.scratch, v2(1, 1), v2(1, 1), true, &res),
                   ARCNAV_OK);
  ck_assert_int_eq(res.point_count, 2);
  ck_assert_double_eq(res.length, 0.0);
  // Touching: start on the wall's face, goal on the bounds: up the face to (4, 8), across the top
  // to (6, 8), then (6, 8) to (10, 5) is a 3-4-5 triangle: 5 + 2 + 5.
  ck_assert_int_eq(an_funnel_find_path(f.mesh, f.scratch, v2(4, 3), v2(10, 5), true, &res),
                   ARCNAV_OK);
  ck_assert_double_eq_tol(res.length, 12.0, 1e-12);
  ck_assert_int_eq(an_funnel_find_path(f.mesh, f.scratch, v2(5, 3), v2(8, 2), true, &res),
                   ARCNAV_START_BLOCKED);
  ck_assert_int_eq(an_funnel_find_path(f.mesh, f.scratch, v2(2, 2), v2(5, 7.5), false, &res),
                   ARCNAV_GOAL_BLOCKED);
  ck_assert_int_eq(an_funnel_find_path(f.mesh, f.scratch, v2(2, 2), v2(11, 5), true, &res),
                   ARCNAV_GOAL_BLOCKED);
  ck_assert_int_eq(an_funnel_find_path(f.mesh, f.scratch, v2(-1, 2), v2(11, 5), true, &res),
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
    ck_assert_int_eq(an_funnel_find_path(f.mesh, f.scratch, v2(-1, -1), v2(5, 5), optimal, &res),
                     ARCNAV_NO_PATH);
    ck_assert_int_eq(an_funnel_find_path(f.mesh, f.scratch, v2(3, 3), v2(7, 6), optimal, &res),
                     ARCNAV_OK);
  }
  free_fixture(&f);
  sup_map_free(&desc);
}
END_TEST

START_TEST(test_query_through_touching_corner) {
  // [0, 10]^2 and [10, 20]^2 share the corner (10, 10), which is passable at R = 0 (touching is
  // free). The mesh joins the two sides there with zero-area triangles, so the channel has a
  // portal of zero width: the funnel must put a corner exactly on it. From (5, 15) to (15, 5) the
  // straight line runs through it; from (4, 15) the path bends there: sqrt(6^2 + 5^2) +
  // sqrt(5^2 + 5^2). Going round either square is longer than 20.
  sup_map desc = sup_gen_corner_squares();
  mesh_fixture f = make_fixture(&desc, &plain_alloc);
  double eps = arcnav_map_tolerance(f.map);
  an_funnel_result res;
  ck_assert_int_eq(an_funnel_find_path(f.mesh, f.scratch, v2(5, 15), v2(15, 5), true, &res),
                   ARCNAV_OK);
  ck_assert_double_eq_tol(res.length, sqrt(200.0), 1e-12);
  verify_polyline(&desc, eps, v2(5, 15), v2(15, 5), &res);
  ck_assert_int_eq(an_funnel_find_path(f.mesh, f.scratch, v2(4, 15), v2(15, 5), true, &res),
                   ARCNAV_OK);
  vec2 want[] = {{4, 15}, {10, 10}, {15, 5}};
  expect_path(res.points, res.point_count, want, 3);
  ck_assert_double_eq_tol(res.length, sqrt(61.0) + sqrt(50.0), 1e-12);
  ck_assert_int_eq(an_funnel_find_path(f.mesh, f.scratch, v2(4, 15), v2(15, 5), false, &res),
                   ARCNAV_OK);
  ck_assert(res.length >= (sqrt(61.0) + sqrt(50.0)) * (1 - 1e-12));
  verify_polyline(&desc, eps, v2(4, 15), v2(15, 5), &res);
  free_fixture(&f);
  sup_map_free(&desc);
}
END_TEST

START_TEST(test_query_along_sides_through_touching_corner) {
  // The same touching squares, with start and goal on the squares' sides, so that a path runs
  // along an edge of the channel. The channel crosses the corner v = (10, 10) through portals of
  // zero width; beyond them a funnel chain runs along a side from v, and a goal lying exactly on
  // that side (before the chain's end) must be reached straight from v. By hand: along two sides
  // meeting at v (6 + 6, 6 + 4.5, ...), or straight through v (6 + 6 on one line).
  typedef struct {
    vec2 s, g;
    double length;
  } side_case;
  const side_case cases[] = {
      {{4, 10}, {10, 4}, 12.0},   // round square A's corner: the goal on A's right side
      {{4, 10}, {10, 5.5}, 10.5}, // 6 + 4.5
      {{4, 10}, {10, 0}, 16.0},   // to the far end of A's right side
      {{10, 16}, {16, 10}, 12.0}, // round square B's corner
      {{4, 10}, {16, 10}, 12.0},  // straight through v along the squares' horizontal sides
      {{10, 4}, {10, 16}, 12.0},  // and along the vertical ones
  };
  sup_map desc = sup_gen_corner_squares();
  mesh_fixture f = make_fixture(&desc, &plain_alloc);
  double eps = arcnav_map_tolerance(f.map);
  const vec2 v = {10, 10};
  for (size_t k = 0; k < sizeof cases / sizeof cases[0]; ++k) {
    for (int reverse = 0; reverse < 2; ++reverse) {
      vec2 s = reverse ? cases[k].g : cases[k].s, g = reverse ? cases[k].s : cases[k].g;
      an_funnel_result res;
      ck_assert_int_eq(an_funnel_find_path(f.mesh, f.scratch, s, g, true, &res), ARCNAV_OK);
      ck_assert_msg(fabs(res.length - cases[k].length) <= 1e-12 * cases[k].length,
                    "(%g, %g) -> (%g, %g): %.17g, want %g", s.x, s.y, g.x, g.y, res.length,
                    cases[k].length);
      // Bent at v, or straight through it: the corner is dropped when the path is one segment.
      bool straight = fabs(v2_dist(s, g) - cases[k].length) <= 1e-12 * cases[k].length;
      vec2 bent[] = {s, v, g}, line[] = {s, g};
      if (straight) {
        expect_path(res.points, res.point_count, line, 2);
      } else {
        expect_path(res.points, res.point_count, bent, 3);
      }
      verify_polyline(&desc, eps, s, g, &res);
      ck_assert_int_eq(an_funnel_find_path(f.mesh, f.scratch, s, g, false, &res), ARCNAV_OK);
      ck_assert(res.length >= cases[k].length * (1 - 1e-12));
      verify_polyline(&desc, eps, s, g, &res);
    }
  }
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
      arcnav_status st = an_funnel_find_path(f.mesh, f.scratch, s, t, true, &opt);
      if (!isfinite(want)) {
        ck_assert_int_eq(st, ARCNAV_NO_PATH);
        continue;
      }
      ck_assert_int_eq(st, ARCNAV_OK);
      ck_assert(!opt.truncated);
      ck_assert_msg(fabs(opt.length - want) <= 1e-9 * want,
                    "seed %d query %d: optimal funnel %.17g, visibility graph %.17g", (int)seed, q,
                    opt.length, want);
      verify_polyline(&desc, eps, s, t, &opt);
      double opt_len = opt.length;
      ck_assert_int_eq(an_funnel_find_path(f.mesh, f.scratch, s, t, false, &plain), ARCNAV_OK);
      ck_assert_msg(plain.length >= opt_len * (1 - 1e-12), "plain %.17g shorter than %.17g",
                    plain.length, opt_len);
      verify_polyline(&desc, eps, s, t, &plain);
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
      arcnav_status st = an_funnel_find_path(f.mesh, f.scratch, s, t, true, &opt);
      if (!want.found) {
        ck_assert_int_eq(st, ARCNAV_NO_PATH);
        continue;
      }
      ck_assert_msg(st == ARCNAV_OK, "seed %d query %d (%.17g, %.17g) -> (%.17g, %.17g): %s",
                    (int)seed, q, s.x, s.y, t.x, t.y, arcnav_status_name(st));
      ck_assert(!opt.truncated);
      ck_assert_msg(fabs(opt.length - want.length) <= 1e-9 * fmax(1.0, want.length),
                    "seed %d query %d: optimal funnel %.17g, reference %.17g", (int)seed, q,
                    opt.length, want.length);
      verify_polyline(&desc, eps, s, t, &opt);
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
  ck_assert_int_eq(an_funnel_find_path(f.mesh, f.scratch, s, g, true, &res), ARCNAV_OK);
  ck_assert(!res.truncated);
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
  ck_assert_int_eq(an_funnel_find_path(f.mesh, f.scratch, s, g, false, &res), ARCNAV_OK);
  ck_assert(res.length >= opt_len * (1 - 1e-12));
  verify_polyline(&desc, eps, s, g, &res);

  for (int optimal = 0; optimal < 2; ++optimal) {
    ck_assert_int_eq(
        an_funnel_find_path(f.mesh, f.scratch, v2(-110, -104), v2(110, -104), optimal, &res),
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
    an_funnel_find_path(f.mesh, f.scratch, s, t, q % 2 == 0, &res);
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
  tcase_add_test(tc, test_query_through_touching_corner);
  tcase_add_test(tc, test_query_along_sides_through_touching_corner);
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
