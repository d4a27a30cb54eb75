// SPDX-License-Identifier: MIT
// The navmesh on hard input: obstacles touching at a single vertex (the free space pinched to a
// point: closed at R = 0, where touching obstacles are one wall; open in the eroded mesh at R > 0,
// where it is a gap of exactly 2R), hundreds of obstacles stacked on one spot (built
// obstacle by obstacle instead of through their full arrangement), and a polygon whose vertices
// lie on two concentric circles (nearly cocircular input for the Delaunay insertion).
//
// Lengths through pinches are derived by hand; others are checked against the brute-force reference
// (support/reference.h, exact at R = 0 for polygons) and every path against the independent
// verifier; meshes against areas computed by the shoelace formula, against the full-arrangement
// build, and pointwise against a plain point-in-obstacle test.

#include "arcnav_test.h"
#include "funnel/erode.h"
#include "index/ring_winding.h"
#include "mapgen.h"
#include "mesh/cdt.h"
#include "mesh/navmesh.h"
#include "navmesh_test.h"
#include "reference.h"
#include "verify.h"

#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef arcnav_vec2 vec;

static const an_allocator plain_alloc = {{0}};

static const arcnav_engine FUNNEL_ENGINES[] = {ARCNAV_ENGINE_FUNNEL, ARCNAV_ENGINE_PLAIN_FUNNEL,
                                               ARCNAV_ENGINE_AUTO};
#define FUNNEL_ENGINE_COUNT (sizeof FUNNEL_ENGINES / sizeof FUNNEL_ENGINES[0])

static double box_area(const an_navmesh *mesh) {
  vec2 lo = mesh->cdt.points[0], hi = mesh->cdt.points[2];
  return (hi.x - lo.x) * (hi.y - lo.y);
}

/// The mesh's triangulation passes the library's validator (an_cdt_check).
static void check_mesh_cdt(const an_navmesh *mesh) {
  char why[160];
  ck_assert_msg(an_cdt_check(&mesh->cdt, why, sizeof why), "an_cdt_check: %s", why);
}

/// The mesh's triangulation is Delaunay across every unconstrained edge: true of maps whose
/// obstacles do not overlap, where the build drops no constraint buried in an earlier obstacle.
static void check_mesh_delaunay(const an_navmesh *mesh) {
  char why[160];
  ck_assert_msg(an_cdt_check_delaunay(&mesh->cdt, why, sizeof why), "an_cdt_check_delaunay: %s",
                why);
}

/// The triangulation is valid; adjacency is symmetric, connectors included, and a connector pair
/// meets at one vertex.
static void check_adjacency(const an_navmesh *mesh) {
  check_mesh_cdt(mesh);
  for (size_t f = 0; f < mesh->free_count; ++f) {
    for (int i = 0; i < 3; ++i) {
      int32_t g = mesh->fn[3 * f + (size_t)i];
      if (g < 0) {
        continue;
      }
      // Aborts by hand: a passing ck_assert is recorded, which costs more than these checks.
      if (g >= (int32_t)mesh->free_count) {
        ck_abort_msg("triangle %zu links to %d, beyond the %zu free ones", f, g, mesh->free_count);
      }
      int back = 0;
      for (int j = 0; j < 3; ++j) {
        back += mesh->fn[3 * (size_t)g + (size_t)j] == (int32_t)f;
      }
      if (back != 1) {
        ck_abort_msg("triangle %d links back to %zu %d times", g, f, back);
      }
      // The shared edge has the same end points, in opposite directions.
      int32_t a = mesh->fv[3 * f + (size_t)(i + 1) % 3], b = mesh->fv[3 * f + (size_t)(i + 2) % 3];
      int found = 0;
      for (int j = 0; j < 3; ++j) {
        if (mesh->fn[3 * (size_t)g + (size_t)j] == (int32_t)f) {
          found = mesh->fv[3 * (size_t)g + (size_t)(j + 1) % 3] == b &&
                  mesh->fv[3 * (size_t)g + (size_t)(j + 2) % 3] == a;
        }
      }
      if (!found) {
        ck_abort_msg("triangles %zu and %d do not share edge %d-%d", f, g, a, b);
      }
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Pinches

/// Plan from s to g with every funnel engine at R = 0; each path must pass the verifier and have
/// the reference's length (the reference is exact for polygons at R = 0).
static void expect_reference(const sup_map *desc, const char *label, vec s, vec g) {
  sup_reference_result ref = sup_reference_shortest(desc, 0.0, s, g, NULL);
  ck_assert_msg(ref.found, "%s: the reference finds no path", label);
  arcnav_map *map;
  ck_assert_int_eq(sup_map_to_arcnav(desc, &map), ARCNAV_OK);
  double eps = arcnav_map_tolerance(map);
  for (size_t e = 0; e < FUNNEL_ENGINE_COUNT; ++e) {
    arcnav_planner_def def = arcnav_default_planner_def();
    def.engine = FUNNEL_ENGINES[e];
    def.radius = 0.0;
    arcnav_planner *planner;
    ck_assert_int_eq(arcnav_planner_create(map, &def, &planner), ARCNAV_OK);
    arcnav_query *query;
    arcnav_path *path;
    ck_assert_int_eq(arcnav_query_create(planner, &query), ARCNAV_OK);
    ck_assert_int_eq(arcnav_path_create(NULL, &path), ARCNAV_OK);
    arcnav_status st = arcnav_find_path(query, s, g, path);
    ck_assert_msg(st == ARCNAV_OK, "%s: engine %d from (%g, %g) to (%g, %g): %s", label,
                  (int)FUNNEL_ENGINES[e], s.x, s.y, g.x, g.y, arcnav_status_name(st));
    sup_verify_report report;
    ck_assert_msg(sup_verify_path(desc, 0.0, eps, s, g, path, &report), "%s: engine %d: %s", label,
                  (int)FUNNEL_ENGINES[e], report.message);
    double length = arcnav_path_length(path);
    if (FUNNEL_ENGINES[e] == ARCNAV_ENGINE_PLAIN_FUNNEL) {
      // One channel only: not always the shortest, never shorter than the optimum.
      ck_assert_msg(length >= ref.length - 1e-9 * ref.length, "%s: plain %.17g < %.17g", label,
                    length, ref.length);
    } else {
      ck_assert_msg(fabs(length - ref.length) <= 1e-9 * ref.length + eps,
                    "%s: engine %d from (%g, %g) to (%g, %g): %.17g, reference %.17g", label,
                    (int)FUNNEL_ENGINES[e], s.x, s.y, g.x, g.y, length, ref.length);
    }
    arcnav_path_destroy(path);
    arcnav_query_destroy(query);
    arcnav_planner_destroy(planner);
  }
  arcnav_map_destroy(map);
}

/// Plan from s to g with every funnel engine at radius R: each path must pass the verifier (at
/// R = 0) and the optimal one have length `want` (derived by hand) within a relative `tolerance`;
/// the plain one is not shorter. want < 0: no path.
static void expect_length_within(const sup_map *desc, const char *label, double R, vec s, vec g,
                                 double want, double tolerance) {
  arcnav_map *map;
  ck_assert_int_eq(sup_map_to_arcnav(desc, &map), ARCNAV_OK);
  double eps = arcnav_map_tolerance(map);
  for (size_t e = 0; e < FUNNEL_ENGINE_COUNT; ++e) {
    arcnav_planner_def def = arcnav_default_planner_def();
    def.engine = FUNNEL_ENGINES[e];
    def.radius = R;
    arcnav_planner *planner;
    ck_assert_int_eq(arcnav_planner_create(map, &def, &planner), ARCNAV_OK);
    arcnav_query *query;
    arcnav_path *path;
    ck_assert_int_eq(arcnav_query_create(planner, &query), ARCNAV_OK);
    ck_assert_int_eq(arcnav_path_create(NULL, &path), ARCNAV_OK);
    arcnav_status st = arcnav_find_path(query, s, g, path);
    ck_assert_msg(st == (want < 0 ? ARCNAV_NO_PATH : ARCNAV_OK),
                  "%s: engine %d from (%g, %g) to (%g, %g): %s", label, (int)FUNNEL_ENGINES[e], s.x,
                  s.y, g.x, g.y, arcnav_status_name(st));
    if (want >= 0) {
      sup_verify_report report;
      ck_assert_msg(R > 0.0 || sup_verify_path(desc, 0.0, eps, s, g, path, &report),
                    "%s: engine %d: %s", label, (int)FUNNEL_ENGINES[e], report.message);
      double length = arcnav_path_length(path);
      if (FUNNEL_ENGINES[e] == ARCNAV_ENGINE_PLAIN_FUNNEL) {
        ck_assert_msg(length >= want - tolerance * want, "%s: plain %.17g < %.17g", label, length,
                      want);
      } else {
        ck_assert_msg(fabs(length - want) <= tolerance * want,
                      "%s: engine %d from (%g, %g) to (%g, %g): %.17g, want %.17g", label,
                      (int)FUNNEL_ENGINES[e], s.x, s.y, g.x, g.y, length, want);
      }
    }
    arcnav_path_destroy(path);
    arcnav_query_destroy(query);
    arcnav_planner_destroy(planner);
  }
  arcnav_map_destroy(map);
}

static void expect_length(const sup_map *desc, const char *label, double R, vec s, vec g,
                          double want) {
  expect_length_within(desc, label, R, s, g, want, 1e-9);
}

/// The mesh of `desc` with pinches open (as the eroded mesh keeps them).
static an_navmesh *open_mesh(const arcnav_map *map) {
  an_navmesh_options how = {.crossing_limit = AN_NAVMESH_DEFAULT_LIMIT, .open_pinches = true};
  an_navmesh *mesh;
  ck_assert_int_eq(an_navmesh_build_ex(map, &plain_alloc, &how, &mesh), ARCNAV_OK);
  return mesh;
}

START_TEST(test_two_squares_touching_at_a_corner) {
  sup_map desc = sup_gen_corner_squares();
  // Closed at the shared corner (10, 10): round either square, sqrt(50) + 10 + 10 + sqrt(50)
  // (through the corner it would be sqrt(200)); round A's corners (0, 10), (0, 0), (10, 0).
  expect_length(&desc, "touching squares", 0.0, (vec){5, 15}, (vec){15, 5}, 20 + sqrt(200.0));
  expect_length(&desc, "touching squares", 0.0, (vec){2, 11}, (vec){18, 3},
                sqrt(5.0) + 20 + sqrt(73.0));
  expect_length(&desc, "touching squares", 0.0, (vec){4, 10}, (vec){10, 4}, 28.0);
  // From the corner itself to either side, and to it from either side.
  expect_length(&desc, "touching squares", 0.0, (vec){10, 10}, (vec){5, 15}, sqrt(50.0));
  expect_length(&desc, "touching squares", 0.0, (vec){10, 10}, (vec){15, 5}, sqrt(50.0));
  expect_length(&desc, "touching squares", 0.0, (vec){2, 18}, (vec){10, 10}, sqrt(128.0));
  expect_length(&desc, "touching squares", 0.0, (vec){18, 2}, (vec){10, 10}, sqrt(128.0));
  // The R = 0 mesh: no connector, the triangles cover the box minus the squares.
  arcnav_map *map;
  ck_assert_int_eq(sup_map_to_arcnav(&desc, &map), ARCNAV_OK);
  an_navmesh *mesh;
  ck_assert_int_eq(an_navmesh_build(map, &plain_alloc, &mesh), ARCNAV_OK);
  ck_assert_uint_eq(mesh->connector_count, 0);
  ck_assert_uint_eq(an_navmesh_triangle_count(mesh), mesh->free_count);
  double want = box_area(mesh) - 200.0;
  ck_assert_double_eq_tol(test_free_mesh_area(mesh), want, 1e-9 * want);
  check_adjacency(mesh);
  check_mesh_delaunay(mesh);
  an_navmesh_destroy(mesh);
  // Pinches open: one connector pair, no area.
  mesh = open_mesh(map);
  ck_assert_uint_eq(mesh->connector_count, 2);
  ck_assert_uint_eq(an_navmesh_triangle_count(mesh) + 2, mesh->free_count);
  ck_assert_double_eq_tol(test_free_mesh_area(mesh), want, 1e-9 * want);
  check_adjacency(mesh);
  an_navmesh_destroy(mesh);
  arcnav_map_destroy(map);
  sup_map_free(&desc);

  // Overlapping by 3 eps: no connector either way, the way round (the reference applies: nothing
  // touches).
  sup_map overlap;
  sup_map_init(&overlap);
  sup_map_add_rect(&overlap, 0, 0, 10, 10);
  double eps = sup_map_tolerance(&overlap);
  sup_map_add_rect(&overlap, 10 - 3 * eps, 10 - 3 * eps, 20, 20);
  ck_assert_int_eq(sup_map_to_arcnav(&overlap, &map), ARCNAV_OK);
  mesh = open_mesh(map);
  ck_assert_uint_eq(mesh->connector_count, 0);
  an_navmesh_destroy(mesh);
  arcnav_map_destroy(map);
  expect_reference(&overlap, "overlapping squares", (vec){5, 15}, (vec){15, 5});
  ck_assert_double_gt(
      sup_reference_shortest(&overlap, 0.0, (vec){5, 15}, (vec){15, 5}, NULL).length, 20.0);
  sup_map_free(&overlap);

  // The eroded mesh keeps pinches open: [0, 10]^2 and [12, 22]^2 grown by R = 1 (mitred corners)
  // touch at (11, 11), where the disk passes, straight from (2, 20) to (20, 2).
  sup_map apart;
  sup_map_init(&apart);
  sup_map_add_rect(&apart, 0, 0, 10, 10);
  sup_map_add_rect(&apart, 12, 12, 22, 22);
  expect_length(&apart, "grown squares touching", 1.0, (vec){2, 20}, (vec){20, 2}, sqrt(648.0));
  sup_map_free(&apart);
}
END_TEST

START_TEST(test_three_wedges_meeting_at_a_point) {
  // Three triangles with a common apex at the origin leave three free wedges that meet only
  // there. At R = 0 nothing passes the apex: from a wedge to the next one counter-clockwise the
  // way goes round the outer side of the triangle between them, from its corner on the start's
  // side to the other (both at radius 20).
  sup_map desc;
  sup_map_init(&desc);
  for (int k = 0; k < 3; ++k) {
    double a0 = 2.0 * TEST_PI * k / 3.0, a1 = a0 + 1.2;
    vec tri[3] = {{0, 0}, {20 * cos(a0), 20 * sin(a0)}, {20 * cos(a1), 20 * sin(a1)}};
    sup_map_add_polygon(&desc, tri, 3, NULL, NULL, 0);
  }
  for (int a = 0; a < 3; ++a) {
    for (int b = 0; b < 3; ++b) {
      if (a == b) {
        continue;
      }
      // The middle of each free wedge, 5 units out and 9 units out.
      double ma = 2.0 * TEST_PI * a / 3.0 + 1.2 + (2.0 * TEST_PI / 3.0 - 1.2) / 2.0;
      double mb = 2.0 * TEST_PI * b / 3.0 + 1.2 + (2.0 * TEST_PI / 3.0 - 1.2) / 2.0;
      vec s = {5 * cos(ma), 5 * sin(ma)}, g = {9 * cos(mb), 9 * sin(mb)};
      // Triangle k lies between wedge k - 1 and wedge k.
      int k = b == (a + 1) % 3 ? b : a;
      double a0 = 2.0 * TEST_PI * k / 3.0, a1 = a0 + 1.2;
      vec p0 = {20 * cos(a0), 20 * sin(a0)}, p1 = {20 * cos(a1), 20 * sin(a1)};
      vec first = k == b ? p0 : p1, last = k == b ? p1 : p0;
      double want = v2_dist(s, first) + v2_dist(first, last) + v2_dist(last, g);
      expect_length(&desc, "three wedges", 0.0, s, g, want);
      // The apex belongs to every wedge.
      expect_length(&desc, "three wedges", 0.0, (vec){0, 0}, g, 9.0);
      expect_length(&desc, "three wedges", 0.0, s, (vec){0, 0}, 5.0);
    }
  }
  arcnav_map *map;
  ck_assert_int_eq(sup_map_to_arcnav(&desc, &map), ARCNAV_OK);
  an_navmesh *mesh;
  ck_assert_int_eq(an_navmesh_build(map, &plain_alloc, &mesh), ARCNAV_OK);
  ck_assert_uint_eq(mesh->connector_count, 0);
  check_adjacency(mesh);
  check_mesh_delaunay(mesh);
  an_navmesh_destroy(mesh);
  mesh = open_mesh(map);
  ck_assert_uint_eq(mesh->connector_count, 6); // three fans joined in a cycle
  check_adjacency(mesh);
  an_navmesh_destroy(mesh);
  arcnav_map_destroy(map);
  sup_map_free(&desc);
}
END_TEST

START_TEST(test_checkerboard) {
  // Blocked and free cells alternate: free cells meet only at corners. At R = 0 those are closed,
  // so a free cell inside the board is shut in, and only the cells on the board's edge reach the
  // free margin round it (inside bounds).
  sup_map desc;
  sup_map_init(&desc);
  const int n = 6;
  const double side = 10.0;
  vec bounds[] = {{-side, -side},
                  {(n + 1) * side, -side},
                  {(n + 1) * side, (n + 1) * side},
                  {-side, (n + 1) * side}};
  sup_map_set_bounds(&desc, bounds, 4);
  double blocked = 0.0;
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) {
      if ((i + j) % 2 == 0) {
        sup_map_add_rect(&desc, i * side, j * side, (i + 1) * side, (j + 1) * side);
        blocked += side * side;
      }
    }
  }
  arcnav_map *map;
  ck_assert_int_eq(sup_map_to_arcnav(&desc, &map), ARCNAV_OK);
  an_navmesh *mesh;
  ck_assert_int_eq(an_navmesh_build(map, &plain_alloc, &mesh), ARCNAV_OK);
  double want = test_ring_area(bounds, 4) - blocked;
  ck_assert_double_eq_tol(test_free_mesh_area(mesh), want, 1e-9 * want);
  check_adjacency(mesh);
  check_mesh_delaunay(mesh);
  ck_assert_uint_eq(mesh->connector_count, 0);
  an_navmesh_destroy(mesh);
  // With pinches open every interior corner of the board parts two free cells (one connector
  // pair); on the board's edge the margin joins the free cell there.
  mesh = open_mesh(map);
  check_adjacency(mesh);
  size_t interior = (size_t)(n - 1) * (size_t)(n - 1);
  ck_assert_uint_eq(mesh->connector_count, 2 * interior);
  an_navmesh_destroy(mesh);
  arcnav_map_destroy(map);
  sup_map closed;
  sup_map_init(&closed);
  sup_map_set_bounds(&closed, bounds, 4);
  const double delta = 1e-6;
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) {
      if ((i + j) % 2 == 0) {
        sup_map_add_rect(&closed, i * side - delta, j * side - delta, (i + 1) * side + delta,
                         (j + 1) * side + delta);
      }
    }
  }
  // Centres of free cells to centres of free cells, far and near.
  sup_rng rng = sup_rng_seed(99);
  size_t found = 0, shut = 0;
  for (uint64_t q = 0; q < test_scaled_count(12); ++q) {
    int a, b, c, d;
    do {
      a = (int)sup_rng_uniform(&rng, 0, n);
      b = (int)sup_rng_uniform(&rng, 0, n);
    } while ((a + b) % 2 == 0);
    do {
      c = (int)sup_rng_uniform(&rng, 0, n);
      d = (int)sup_rng_uniform(&rng, 0, n);
    } while ((c + d) % 2 == 0 || (a == c && b == d));
    vec s = {(a + sup_rng_uniform(&rng, 0.1, 0.9)) * side,
             (b + sup_rng_uniform(&rng, 0.1, 0.9)) * side};
    vec g = {(c + sup_rng_uniform(&rng, 0.1, 0.9)) * side,
             (d + sup_rng_uniform(&rng, 0.1, 0.9)) * side};
    bool s_out = a == 0 || b == 0 || a == n - 1 || b == n - 1;
    bool g_out = c == 0 || d == 0 || c == n - 1 || d == n - 1;
    if (s_out && g_out) {
      // The answer is the limit of the board with its blocked cells grown by delta, which
      // overlap instead of touching: there the brute-force reference applies.
      sup_reference_result ref = sup_reference_shortest(&closed, 0.0, s, g, NULL);
      ck_assert(ref.found);
      expect_length_within(&desc, "checkerboard", 0.0, s, g, ref.length, 1e-5);
      found++;
    } else {
      expect_length(&desc, "checkerboard", 0.0, s, g, -1.0);
      shut++;
    }
  }
  ck_assert_uint_gt(found, 0);
  ck_assert_uint_gt(shut, 0);
  sup_map_free(&closed);
  sup_map_free(&desc);
}
END_TEST

// ---------------------------------------------------------------------------------------------
// Stacked obstacles

/// `count` copies of the square [0, 10]^2, each turned about its centre by 1e-4 rad more than the
/// last and shifted by 1e-6 (as in test_extreme.c).
static sup_map stacked_squares(size_t count) {
  sup_map m;
  sup_map_init(&m);
  for (size_t i = 0; i < count; ++i) {
    double turn = 1e-4 * (double)i, shift = 1e-6 * (double)i;
    const vec corners[4] = {{-5, -5}, {5, -5}, {5, 5}, {-5, 5}};
    vec ring[4];
    for (int c = 0; c < 4; ++c) {
      ring[c] = (vec){5.0 + shift + corners[c].x * cos(turn) - corners[c].y * sin(turn),
                      5.0 - shift + corners[c].x * sin(turn) + corners[c].y * cos(turn)};
    }
    sup_map_add_polygon(&m, ring, 4, NULL, NULL, 0);
  }
  return m;
}

/// The mesh classifies like the plain point-in-obstacle test at points farther than `band` from
/// every obstacle boundary; returns how many points were compared.
static size_t compare_pointwise(const an_navmesh *mesh, const sup_map *desc, double band, vec lo,
                                vec hi, int n) {
  size_t compared = 0;
  for (int j = 0; j < n; ++j) {
    for (int i = 0; i < n; ++i) {
      vec2 p = v2(lo.x + (hi.x - lo.x) * (i + 0.5) / n, lo.y + (hi.y - lo.y) * (j + 0.5) / n);
      double d = sup_signed_distance_to_obstacles(desc, p);
      if (fabs(d) <= band) {
        continue;
      }
      bool mesh_free = an_navmesh_locate(mesh, p) >= 0;
      ck_assert_msg(mesh_free == (d > 0.0), "(%.17g, %.17g): distance %g but the mesh says %s", p.x,
                    p.y, d, mesh_free ? "free" : "blocked");
      ++compared;
    }
  }
  return compared;
}

/// Builds the full arrangement of `map` and checks that `mesh`, built by unions, has the same free
/// area; returns that area and the full arrangement's vertex count in *full_points.
static double expect_full_arrangement_area(const arcnav_map *map, const an_navmesh *mesh,
                                           const char *label, size_t *full_points) {
  an_navmesh *full;
  an_navmesh_options no_limit = {.crossing_limit = 0};
  ck_assert_int_eq(an_navmesh_build_ex(map, &plain_alloc, &no_limit, &full), ARCNAV_OK);
  double a = test_free_mesh_area(mesh), b = test_free_mesh_area(full);
  ck_assert_msg(fabs(a - b) <= 1e-9 * b, "%s: free area %.17g, full arrangement %.17g", label, a,
                b);
  *full_points = full->cdt.point_count;
  an_navmesh_destroy(full);
  return a;
}

START_TEST(test_stacked_turned_squares) {
  size_t count = (size_t)test_scaled_count(400);
  if (count < 100) {
    count = 100;
  }
  sup_map desc = stacked_squares(count);
  arcnav_map *map;
  ck_assert_int_eq(sup_map_to_arcnav(&desc, &map), ARCNAV_OK);
  an_navmesh *mesh;
  ck_assert_int_eq(an_navmesh_build(map, &plain_alloc, &mesh), ARCNAV_OK);
  // Squares turned about one centre cross each other 8 times a pair: the full arrangement has
  // about 4 n^2 vertices, the boundary of the union only a few per square.
  ck_assert_uint_lt(mesh->cdt.point_count, 16 * count);
  // The same free space as the full arrangement, and the same as the plain test pointwise.
  size_t full_points;
  double a = expect_full_arrangement_area(map, mesh, "turned squares", &full_points);
  ck_assert_uint_gt(full_points, 2 * count * count);
  // The union holds the unturned square and lies in the square grown by the largest turn.
  double grow = 5.0 * sqrt(2.0) * 1e-4 * (double)count + 1e-6 * (double)count;
  ck_assert_double_le(a, box_area(mesh) - 100.0);
  ck_assert_double_ge(a, box_area(mesh) - (10.0 + 2.0 * grow) * (10.0 + 2.0 * grow));
  ck_assert_uint_gt(compare_pointwise(mesh, &desc, 1e-6, (vec){-1, -1}, (vec){11, 11}, 120), 5000);
  check_adjacency(mesh);
  an_navmesh_destroy(mesh);
  arcnav_map_destroy(map);
  sup_map_free(&desc);
}
END_TEST

START_TEST(test_union_build_matches_arrangement) {
  // Forcing the obstacle-by-obstacle build on overlapping maps (a budget of one crossing) gives
  // the free space of the full arrangement.
  for (uint64_t seed = 1; seed <= test_scaled_count(12); ++seed) {
    sup_map desc = seed % 2 ? sup_gen_random_rectangles(seed, 80, 100.0, 2.0, 30.0)
                            : sup_gen_mixed(seed, 30, 100.0, 0.0);
    double band = 1e-6;
    for (size_t c = 0; c < desc.circle_count; ++c) {
      band = fmax(band, 1e-6 + desc.circles[c].radius *
                                   (1.0 / cos(TEST_PI / AN_NAVMESH_CIRCLE_SIDES) - 1.0));
    }
    arcnav_map *map;
    ck_assert_int_eq(sup_map_to_arcnav(&desc, &map), ARCNAV_OK);
    an_navmesh *mesh;
    an_navmesh_options tight = {.crossing_limit = 1};
    ck_assert_int_eq(an_navmesh_build_ex(map, &plain_alloc, &tight, &mesh), ARCNAV_OK);
    char label[32];
    snprintf(label, sizeof label, "seed %llu", (unsigned long long)seed);
    size_t full_points;
    expect_full_arrangement_area(map, mesh, label, &full_points);
    vec lo, hi;
    ck_assert(sup_map_extent(&desc, &lo, &hi));
    ck_assert_uint_gt(compare_pointwise(mesh, &desc, band, lo, hi, 60), 1000);
    check_adjacency(mesh);
    an_navmesh_destroy(mesh);
    arcnav_map_destroy(map);
    sup_map_free(&desc);
  }
}
END_TEST

// ---------------------------------------------------------------------------------------------
// Passages: the widest chain of portals between two triangles

// A portal's width by the length rule alone: the length between two obstacle vertices, twice it
// with one box corner, unbounded between two.
static double length_rule_width(const an_navmesh *mesh, size_t t, int i) {
  int32_t a = mesh->fv[3 * t + (size_t)(i + 1) % 3], b = mesh->fv[3 * t + (size_t)(i + 2) % 3];
  double length = hypot(mesh->cdt.points[a].x - mesh->cdt.points[b].x,
                        mesh->cdt.points[a].y - mesh->cdt.points[b].y);
  return a < 4 && b < 4 ? INFINITY : (a < 4 || b < 4 ? 2.0 * length : length);
}

// Is `to` reached from `from` across portals at least `width` wide (and through the plane beyond
// the box, for a map without bounds)? A flood over the portals' own widths
// (an_navmesh_portal_width(), which test_portal_widths_bound_the_clearance checks against the
// support code's clearance), apart from the forest: this checks the forest's walk.
static bool flood_reaches(const an_navmesh *mesh, int32_t from, int32_t to, double width,
                          int32_t *queue, uint8_t *seen) {
  size_t n = mesh->free_count;
  memset(seen, 0, n);
  size_t head = 0, tail = 0;
  queue[tail++] = from;
  seen[from] = 1;
  bool outside_seen = false;
  while (head < tail) {
    int32_t t = queue[head++];
    if (t == to) {
      return true;
    }
    for (int i = 0; i < 3; ++i) {
      int32_t u = mesh->fn[3 * (size_t)t + (size_t)i];
      int32_t a = mesh->fv[3 * (size_t)t + (size_t)(i + 1) % 3];
      int32_t b = mesh->fv[3 * (size_t)t + (size_t)(i + 2) % 3];
      // The widths the forest was built from: each portal's, rounded up to a float.
      if (u >= 0 && !seen[u] && mesh->portal_width[3 * (size_t)t + (size_t)i] >= width) {
        seen[u] = 1;
        queue[tail++] = u;
      } else if (u < 0 && a < 4 && b < 4 && mesh->whole_plane && !outside_seen) {
        // Beyond the box: every triangle on the box joins.
        outside_seen = true;
        for (size_t v = 0; v < n; ++v) {
          for (int k = 0; k < 3 && !seen[v]; ++k) {
            int32_t va = mesh->fv[3 * v + (size_t)(k + 1) % 3];
            int32_t vb = mesh->fv[3 * v + (size_t)(k + 2) % 3];
            if (mesh->fn[3 * v + (size_t)k] < 0 && va < 4 && vb < 4) {
              seen[v] = 1;
              queue[tail++] = (int32_t)v;
            }
          }
        }
      }
    }
  }
  return false;
}

// The maps of the passage tests: mazes with walls of several thicknesses, towns, rectangles.
static sup_map passage_test_map(uint64_t seed) {
  return seed % 3 == 0   ? sup_gen_maze(seed, 6, 10.0, 1.0 + (double)(seed % 4))
         : seed % 3 == 1 ? sup_gen_town(seed, 3, 30.0, 6.0, 2.0, 5.0)
                         : sup_gen_random_rectangles(seed, 40, 100.0, 2.0, 20.0);
}

static an_navmesh *passage_test_mesh(const sup_map *desc, arcnav_map **map) {
  ck_assert_int_eq(sup_map_to_arcnav(desc, map), ARCNAV_OK);
  an_navmesh *mesh;
  ck_assert_int_eq(an_navmesh_build(*map, &plain_alloc, &mesh), ARCNAV_OK);
  return mesh;
}

// Every portal's width bounds twice the clearance of every point on it, the clearance measured by
// the support code (sup_distance_to_obstacles) at dense samples; it is never looser than the
// length rule; and across traced corridors it is tighter than the length rule somewhere.
START_TEST(test_portal_widths_bound_the_clearance) {
  size_t portals = 0, tighter = 0;
  for (uint64_t seed = 1; seed <= test_scaled_count(6); ++seed) {
    sup_map desc = passage_test_map(seed);
    arcnav_map *map;
    an_navmesh *mesh = passage_test_mesh(&desc, &map);
    for (size_t t = 0; t < mesh->free_count; ++t) {
      for (int i = 0; i < 3; ++i) {
        if (mesh->fn[3 * t + (size_t)i] < (int32_t)t) {
          continue;
        }
        double width = an_navmesh_portal_width(mesh, (int32_t)t, i);
        double rule = length_rule_width(mesh, t, i);
        ck_assert_double_le(width, rule * (1.0 + 1e-12));
        // The forest's: the same, rounded up to the next float at most (still a bound).
        float kept = mesh->portal_width[3 * t + (size_t)i];
        ck_assert_msg((double)kept >= width && (double)nextafterf(kept, 0.0f) < width,
                      "seed %llu: portal %zu/%d is %.17g wide, kept as %.9g",
                      (unsigned long long)seed, t, i, width, (double)kept);
        // The same from the other side, as measured and as kept.
        int32_t u = mesh->fn[3 * t + (size_t)i];
        if (u >= 0) {
          int j = an_navmesh_edge_across(mesh->fn, (size_t)u, (int32_t)t);
          ck_assert_double_eq(an_navmesh_portal_width(mesh, u, j), width);
          ck_assert_float_eq(mesh->portal_width[3 * (size_t)u + (size_t)j], kept);
        }
        tighter += width < rule * (1.0 - 1e-9);
        portals++;
        vec2 a = mesh->cdt.points[mesh->fv[3 * t + (size_t)(i + 1) % 3]];
        vec2 b = mesh->cdt.points[mesh->fv[3 * t + (size_t)(i + 2) % 3]];
        for (int k = 0; k <= 64; ++k) {
          double f = k / 64.0;
          arcnav_vec2 p = {a.x + f * (b.x - a.x), a.y + f * (b.y - a.y)};
          double clearance = sup_distance_to_obstacles(&desc, p);
          ck_assert_msg(2.0 * clearance <= width * (1.0 + 1e-12) + 1e-12,
                        "seed %llu: portal %zu/%d is %.17g wide, a point on it is %.17g clear",
                        (unsigned long long)seed, t, i, width, clearance);
        }
      }
    }
    an_navmesh_destroy(mesh);
    arcnav_map_destroy(map);
    sup_map_free(&desc);
  }
  ck_assert_uint_gt(tighter, portals / 20);
}
END_TEST

START_TEST(test_passage_width_matches_a_flood) {
  size_t pairs = 0, joined = 0, apart = 0;
  for (uint64_t seed = 1; seed <= test_scaled_count(8); ++seed) {
    sup_map desc = passage_test_map(seed);
    arcnav_map *map;
    an_navmesh *mesh = passage_test_mesh(&desc, &map);
    size_t n = mesh->free_count;
    int32_t *queue = malloc((n + 1) * sizeof *queue);
    uint8_t *seen = malloc(n + 1);
    ck_assert(queue && seen);
    sup_rng rng = sup_rng_seed(seed);
    for (int q = 0; q < 40; ++q) {
      int32_t a = (int32_t)sup_rng_below(&rng, n), b = (int32_t)sup_rng_below(&rng, n);
      double width = an_navmesh_passage_width(mesh, a, b);
      pairs++;
      if (width < 0.0) {
        apart++;
        ck_assert_msg(!flood_reaches(mesh, a, b, 0.0, queue, seen),
                      "seed %llu: %d and %d joined, the forest says not", (unsigned long long)seed,
                      a, b);
        continue;
      }
      joined++;
      // That wide: joined just below the width, apart just above it.
      ck_assert_msg(flood_reaches(mesh, a, b, width * (1.0 - 1e-12), queue, seen),
                    "seed %llu: %d and %d not joined at %.17g", (unsigned long long)seed, a, b,
                    width);
      if (isfinite(width)) {
        ck_assert_msg(!flood_reaches(mesh, a, b, width * (1.0 + 1e-12), queue, seen),
                      "seed %llu: %d and %d joined above %.17g", (unsigned long long)seed, a, b,
                      width);
      }
    }
    free(queue);
    free(seen);
    an_navmesh_destroy(mesh);
    arcnav_map_destroy(map);
    sup_map_free(&desc);
  }
  printf("passages: %zu pairs, %zu joined, %zu apart\n", pairs, joined, apart);
  ck_assert_uint_ge(joined, test_scaled_minimum(200, 8));
}
END_TEST

// A copy that stays as it was (an_navmesh_clone() without to_change) keeps the forest of the
// widest passages: after the original is gone, its widths still split every pair as a flood over
// its own portals does.
START_TEST(test_whole_clone_keeps_the_passages) {
  size_t joined = 0;
  for (uint64_t seed = 1; seed <= test_scaled_count(6); ++seed) {
    sup_map desc = passage_test_map(seed);
    arcnav_map *map;
    an_navmesh *original = passage_test_mesh(&desc, &map);
    an_navmesh *mesh;
    ck_assert_int_eq(an_navmesh_clone(original, false, &mesh), ARCNAV_OK);
    an_navmesh_destroy(original);
    ck_assert_ptr_nonnull(mesh->passages.blocks);
    ck_assert_ptr_nonnull(mesh->portal_width);
    size_t n = mesh->free_count;
    int32_t *queue = malloc((n + 1) * sizeof *queue);
    uint8_t *seen = malloc(n + 1);
    ck_assert(queue && seen);
    sup_rng rng = sup_rng_seed(seed + 100);
    for (int q = 0; q < 40; ++q) {
      int32_t a = (int32_t)sup_rng_below(&rng, n), b = (int32_t)sup_rng_below(&rng, n);
      double width = an_navmesh_passage_width(mesh, a, b);
      if (width < 0.0) {
        ck_assert(!flood_reaches(mesh, a, b, 0.0, queue, seen));
        continue;
      }
      joined++;
      ck_assert(flood_reaches(mesh, a, b, width * (1.0 - 1e-12), queue, seen));
      if (isfinite(width)) {
        ck_assert(!flood_reaches(mesh, a, b, width * (1.0 + 1e-12), queue, seen));
      }
    }
    for (size_t t = 0; t < n; ++t) {
      for (int i = 0; i < 3; ++i) {
        float kept = mesh->portal_width[3 * t + (size_t)i];
        if (mesh->fn[3 * t + (size_t)i] < 0) {
          ck_assert(isnan(kept));
          continue;
        }
        ck_assert((double)kept >= an_navmesh_portal_width(mesh, (int32_t)t, i));
      }
    }
    free(queue);
    free(seen);
    an_navmesh_destroy(mesh);
    arcnav_map_destroy(map);
    sup_map_free(&desc);
  }
  ck_assert_uint_ge(joined, test_scaled_minimum(100, 6));
}
END_TEST

// ---------------------------------------------------------------------------------------------
// Nearly cocircular vertices

/// A map of one star: n vertices alternating between radius 100 (tips) and 90 (notches). The ring
/// goes to *out_ring (to be freed) when asked for.
static arcnav_map *star_map(size_t n, vec **out_ring) {
  vec *ring = sup_star_ring(n, 100.0, 90.0);
  ck_assert_ptr_nonnull(ring);
  arcnav_map *map = NULL;
  ck_assert_int_eq(arcnav_map_create(NULL, &map), ARCNAV_OK);
  ck_assert_int_eq(arcnav_map_add_polygon(map, ring, n, NULL, NULL, 0, NULL), ARCNAV_OK);
  if (out_ring) {
    *out_ring = ring;
  } else {
    free(ring);
  }
  return map;
}

START_TEST(test_star_is_triangulated_in_linear_work) {
  // A star with tips on a circle of radius 100 and notches on one of radius 90: Delaunay
  // insertion in space-filling-curve order alone would flip tens of times per point here.
  // Not scaled down: with a few thousand points the effect is too small to measure.
  const size_t n = 40000;
  vec *ring = NULL;
  arcnav_map *map = star_map(n, &ring);
  an_navmesh *mesh;
  ck_assert_int_eq(an_navmesh_build(map, &plain_alloc, &mesh), ARCNAV_OK);
  ck_assert_msg(mesh->cdt.flips <= 8 * n, "%zu flips for %zu points", mesh->cdt.flips, n);
  ck_assert_uint_eq(mesh->cdt.point_count, n + 4);
  check_mesh_cdt(mesh);
  check_mesh_delaunay(mesh);
  double want = box_area(mesh) - test_ring_area(ring, n);
  ck_assert_double_eq_tol(test_free_mesh_area(mesh), want, 1e-9 * want);
  // Outside at a tip, between two tips, inside near a notch.
  ck_assert_int_ge(an_navmesh_locate(mesh, v2(100.5, 0)), 0);
  ck_assert_int_lt(an_navmesh_locate(mesh, v2(99.5, 0)), 0);
  ck_assert_int_lt(
      an_navmesh_locate(mesh, v2(89.5 * cos(TEST_PI / (double)n), 89.5 * sin(TEST_PI / (double)n))),
      0);
  an_navmesh_destroy(mesh);
  arcnav_map_destroy(map);
  free(ring);
}
END_TEST

// ---------------------------------------------------------------------------------------------
// Winding numbers of long rings

/// The index must count what the plain walk over every edge counts, at random points and at the
/// points where rounding decides: vertices, edge midpoints, and points level with a vertex.
static void expect_index_matches_plain(const arcnav_map *map, const an_ring *ring, uint64_t seed) {
  an_ring_winding_index index;
  ck_assert_int_eq(an_ring_winding_index_build(map, ring, &plain_alloc, &index), ARCNAV_OK);
  vec2 lo = index.lo, hi = index.hi;
  vec2 pad = v2(0.1 * (hi.x - lo.x), 0.1 * (hi.y - lo.y));
  sup_rng rng = sup_rng_seed(seed);
  size_t tested = 0, inside = 0;
  for (size_t k = 0; k < 4 * (size_t)ring->count; ++k) {
    vec2 a = an_ring_vertex(map, ring, k / 4), b = an_ring_vertex(map, ring, k / 4 + 1);
    vec2 p;
    switch (k % 4) {
    case 0:
      p = a;
      break;
    case 1:
      p = v2(0.5 * (a.x + b.x), 0.5 * (a.y + b.y));
      break;
    case 2:
      p = v2(sup_rng_uniform(&rng, lo.x - pad.x, hi.x + pad.x), a.y);
      break;
    default:
      p = v2(sup_rng_uniform(&rng, lo.x - pad.x, hi.x + pad.x),
             sup_rng_uniform(&rng, lo.y - pad.y, hi.y + pad.y));
      break;
    }
    int plain = an_ring_winding(map, ring, p);
    int indexed = an_ring_winding_indexed(&index, map, ring, p);
    if (plain != indexed) {
      ck_abort_msg("seed %llu: winding about (%.17g, %.17g): index %d, plain %d",
                   (unsigned long long)seed, p.x, p.y, indexed, plain);
    }
    tested++;
    inside += plain != 0;
  }
  // The sample must reach both sides of the ring, or it proves little.
  ck_assert_uint_gt(inside, tested / 20);
  ck_assert_uint_lt(inside, tested);
  an_ring_winding_index_free(&index, &plain_alloc);
}

START_TEST(test_ring_winding_index_matches_plain_count) {
  // A star, the same star grown by 1 (its grown ring crosses itself thousands of times), and a
  // staircase of horizontal and vertical edges.
  arcnav_map *map = star_map(2000, NULL);
  const size_t steps = 300;
  vec *stairs = malloc((2 * steps + 2) * sizeof *stairs);
  ck_assert_ptr_nonnull(stairs);
  for (size_t i = 0; i < steps; ++i) {
    stairs[2 * i] = (vec){300.0 + (double)i, 50.0 + (double)i};
    stairs[2 * i + 1] = (vec){301.0 + (double)i, 50.0 + (double)i};
  }
  stairs[2 * steps] = (vec){300.0 + (double)steps, 40.0};
  stairs[2 * steps + 1] = (vec){300.0, 40.0};
  ck_assert_int_eq(arcnav_map_add_polygon(map, stairs, 2 * steps + 2, NULL, NULL, 0, NULL),
                   ARCNAV_OK);
  arcnav_map *grown;
  ck_assert_int_eq(an_erode_map(map, 1.0, &grown), ARCNAV_OK);
  expect_index_matches_plain(map, &map->rings[0], 1);
  expect_index_matches_plain(map, &map->rings[1], 2);
  expect_index_matches_plain(grown, &grown->rings[0], 3);
  expect_index_matches_plain(grown, &grown->rings[1], 4);
  arcnav_map_destroy(grown);
  arcnav_map_destroy(map);
  free(stairs);
}
END_TEST

// --- a grown map triangulated without the pieces its own growth buries ----------------------

/// Blocked by the grown map's own definition (erode.h): an obstacle whose grown rings' winding
/// numbers sum to 1 or more, or the grown bounds' winding at 0 or more.
static bool grown_blocked(const arcnav_map *grown, vec2 p) {
  if (grown->has_bounds && an_ring_winding(grown, &grown->bounds, p) >= 0) {
    return true;
  }
  for (size_t o = 0; o < grown->obstacle_count; ++o) {
    const an_obstacle *ob = &grown->obstacles[o];
    int winding = 0;
    for (uint32_t r = 0; r < ob->ring_count; ++r) {
      winding += an_ring_winding(grown, &grown->rings[ob->first_ring + r], p);
    }
    if (winding >= 1) {
      return true;
    }
  }
  return false;
}

static double ring_distance(const arcnav_map *map, const an_ring *ring, vec2 p) {
  double best = INFINITY;
  for (size_t i = 0; i < ring->count; ++i) {
    best = fmin(best, an_point_segment_dist(p, an_ring_vertex(map, ring, i),
                                            an_ring_vertex(map, ring, i + 1)));
  }
  return best;
}

static double distance_to_grown_rings(const arcnav_map *grown, vec2 p) {
  double best = grown->has_bounds ? ring_distance(grown, &grown->bounds, p) : INFINITY;
  for (size_t r = 0; r < grown->ring_count; ++r) {
    best = fmin(best, ring_distance(grown, &grown->rings[r], p));
  }
  return best;
}

/// The trimmed triangulation of `map` grown by R must label every sampled point (in the annulus
/// [inner, outer] around the origin when outer > 0, else anywhere in the grown map's box) as the
/// winding numbers of the whole grown rings do. Points within `near` of a grown ring are skipped.
static void expect_trimmed_labels(const arcnav_map *map, double R, uint64_t seed, size_t samples,
                                  double inner, double outer, const char *label) {
  arcnav_map *grown = NULL;
  ck_assert_int_eq(an_erode_map(map, R, &grown), ARCNAV_OK);
  an_erode_trim *trim = NULL;
  ck_assert_int_eq(an_erode_trim_create(map, R, &plain_alloc, &trim), ARCNAV_OK);
  an_navmesh *trimmed = NULL;
  ck_assert_int_eq(
      an_navmesh_build_trimmed(grown, &plain_alloc, an_erode_trim_segment, trim, &trimmed),
      ARCNAV_OK);
  check_mesh_cdt(trimmed);
  vec lo, hi;
  ck_assert(arcnav_map_extent(grown, &lo, &hi));
  double near = 1e-7 * (hi.x - lo.x + hi.y - lo.y);
  sup_rng rng = sup_rng_seed(seed);
  size_t blocked = 0, open = 0;
  for (size_t k = 0; k < samples; ++k) {
    vec2 p;
    if (outer > 0.0) {
      double angle = sup_rng_uniform(&rng, 0.0, 2.0 * TEST_PI);
      double radius = sup_rng_uniform(&rng, inner, outer);
      p = v2(radius * cos(angle), radius * sin(angle));
    } else {
      p = v2(sup_rng_uniform(&rng, lo.x, hi.x), sup_rng_uniform(&rng, lo.y, hi.y));
    }
    if (distance_to_grown_rings(grown, p) <= near) {
      continue;
    }
    bool expected = grown_blocked(grown, p);
    ck_assert_msg((an_navmesh_locate(trimmed, p) < 0) == expected,
                  "%s R=%g: (%.17g, %.17g) should be %s", label, R, p.x, p.y,
                  expected ? "blocked" : "free");
    blocked += expected;
    open += !expected;
  }
  printf("trimmed grown mesh, %s R=%g: %zu blocked and %zu free points agree, %zu triangles\n",
         label, R, blocked, open, trimmed->cdt.tri_count);
  ck_assert_uint_gt(blocked, samples / 20);
  ck_assert_uint_gt(open, samples / 20);
  an_navmesh_destroy(trimmed);
  an_erode_trim_destroy(trim);
  arcnav_map_destroy(grown);
}

START_TEST(test_trimmed_grown_mesh_keeps_the_free_space) {
  // A star whose grown tips overlap their neighbours' several times over: nearly all of the
  // grown ring is buried, and the envelope of square bevels is what remains.
  size_t samples = test_scaled_count(3000) < 300 ? 300 : (size_t)test_scaled_count(3000);
  arcnav_map *star = star_map(4000, NULL);
  expect_trimmed_labels(star, 1.0, 1, samples, 85.0, 105.0, "star");
  expect_trimmed_labels(star, 7.0, 2, samples, 85.0, 115.0, "star");
  arcnav_map_destroy(star);
  // Overlapping polygons with holes, circles and bounds.
  for (uint64_t seed = 1; seed <= test_scaled_count(4); ++seed) {
    sup_map generated = sup_gen_mixed(seed, 40, 300.0, 4.0);
    arcnav_map *map = NULL;
    ck_assert_int_eq(sup_map_to_arcnav(&generated, &map), ARCNAV_OK);
    expect_trimmed_labels(map, seed % 2 ? 3.0 : 12.0, seed, samples, 0.0, 0.0, "mixed");
    arcnav_map_destroy(map);
    sup_map_free(&generated);
  }
}
END_TEST

static Suite *navmesh_suite(void) {
  Suite *s = suite_create("navmesh");
  TCase *tc = tcase_create("navmesh");
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, test_two_squares_touching_at_a_corner);
  tcase_add_test(tc, test_three_wedges_meeting_at_a_point);
  tcase_add_test(tc, test_checkerboard);
  tcase_add_test(tc, test_stacked_turned_squares);
  tcase_add_test(tc, test_union_build_matches_arrangement);
  tcase_add_test(tc, test_passage_width_matches_a_flood);
  tcase_add_test(tc, test_whole_clone_keeps_the_passages);
  tcase_add_test(tc, test_portal_widths_bound_the_clearance);
  tcase_add_test(tc, test_star_is_triangulated_in_linear_work);
  tcase_add_test(tc, test_ring_winding_index_matches_plain_count);
  tcase_add_test(tc, test_trimmed_grown_mesh_keeps_the_free_space);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  return test_run_suite(navmesh_suite());
}
