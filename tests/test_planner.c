// SPDX-License-Identifier: MIT
// The planner on small maps whose shortest paths can be worked out by hand: the expected lengths
// below are closed-form geometry, not values printed by the planner. Then the free test with a
// query's marks: the planner's answer on random maps, for every engine, without allocating.
#include "arcnav_test.h"
#include "mapgen.h"

#include <stdlib.h>
#include <string.h>

typedef struct fixture {
  arcnav_map *map;
  arcnav_planner *planner;
  arcnav_query *query;
  arcnav_path *path;
} fixture;

static void fixture_open(fixture *f) {
  memset(f, 0, sizeof *f);
  ck_assert_int_eq(arcnav_map_create(NULL, &f->map), ARCNAV_OK);
  ck_assert_int_eq(arcnav_path_create(NULL, &f->path), ARCNAV_OK);
}

static void fixture_build(fixture *f, double radius, arcnav_engine engine) {
  arcnav_planner_def def = arcnav_default_planner_def();
  def.radius = radius;
  def.engine = engine;
  arcnav_query_destroy(f->query);
  arcnav_planner_destroy(f->planner);
  ck_assert_int_eq(arcnav_planner_create(f->map, &def, &f->planner), ARCNAV_OK);
  ck_assert_int_eq(arcnav_query_create(f->planner, &f->query), ARCNAV_OK);
}

static void fixture_close(fixture *f) {
  arcnav_path_destroy(f->path);
  arcnav_query_destroy(f->query);
  arcnav_planner_destroy(f->planner);
  arcnav_map_destroy(f->map);
}

static arcnav_status plan(fixture *f, double sx, double sy, double gx, double gy) {
  return arcnav_find_path(f->query, (arcnav_vec2){sx, sy}, (arcnav_vec2){gx, gy}, f->path);
}

// Structural checks any found path must pass: endpoints, joints, per-piece lengths and their sum.
static void check_path_shape(const fixture *f, arcnav_vec2 start, arcnav_vec2 goal) {
  size_t n = arcnav_path_piece_count(f->path);
  double sum = 0.0;
  for (size_t i = 0; i < n; ++i) {
    arcnav_piece p = arcnav_path_piece(f->path, i);
    ck_assert_vec2_near(p.from, i == 0 ? start : arcnav_path_piece(f->path, i - 1).to, 1e-12);
    double geometric = p.type == ARCNAV_PIECE_LINE ? hypot(p.to.x - p.from.x, p.to.y - p.from.y)
                                                   : p.radius * p.sweep;
    ck_assert_double_eq_tol(p.length, geometric, 1e-12 * (1 + geometric));
    if (p.type == ARCNAV_PIECE_ARC) {
      ck_assert_double_eq_tol(hypot(p.from.x - p.center.x, p.from.y - p.center.y), p.radius, 1e-9);
      ck_assert_double_eq_tol(hypot(p.to.x - p.center.x, p.to.y - p.center.y), p.radius, 1e-9);
    }
    sum += p.length;
  }
  if (n > 0) {
    ck_assert_vec2_near(arcnav_path_piece(f->path, n - 1).to, goal, 1e-12);
  }
  ck_assert_double_eq_tol(arcnav_path_length(f->path), sum, 1e-12 * (1 + sum));
}

START_TEST(test_empty_map_is_a_straight_line) {
  fixture f;
  fixture_open(&f);
  fixture_build(&f, 2.0, ARCNAV_ENGINE_AUTO);
  ck_assert_int_eq(plan(&f, 1, 2, 4, 6), ARCNAV_OK);
  ck_assert_uint_eq(arcnav_path_piece_count(f.path), 1);
  ck_assert_double_eq_tol(arcnav_path_length(f.path), 5.0, 1e-15);
  fixture_close(&f);
}
END_TEST

START_TEST(test_around_a_square) {
  // Square [0,10]^2, R = 1, from (-5,5) to (15,5): over the top (or bottom), touching the corner
  // circles at (0,10) and (10,10). From S the tangent to a corner circle has length
  // sqrt(|S - C|^2 - 1) = 7; the arc turns from the tangent's touching normal (at angle
  // 5pi/4 - acos(1/sqrt 50)) to straight up (pi/2), then 10 along the offset edge.
  double arc = 3.0 * TEST_PI / 4.0 - acos(1.0 / sqrt(50.0));
  double expected = 2.0 * 7.0 + 2.0 * arc + 10.0;
  fixture f;
  fixture_open(&f);
  ck_assert_int_eq(test_add_box(f.map, 0, 0, 10, 10), ARCNAV_OK);
  fixture_build(&f, 1.0, ARCNAV_ENGINE_AUTO);
  ck_assert_int_eq(plan(&f, -5, 5, 15, 5), ARCNAV_OK);
  ck_assert_double_eq_tol(arcnav_path_length(f.path), expected, 1e-9);
  check_path_shape(&f, (arcnav_vec2){-5, 5}, (arcnav_vec2){15, 5});
  ck_assert_uint_eq(arcnav_path_piece_count(f.path), 5); // line arc line arc line
  // At R = 0 the same query goes through the corners: 2 sqrt(50) + 10.
  fixture_build(&f, 0.0, ARCNAV_ENGINE_TANGENT);
  ck_assert_int_eq(plan(&f, -5, 5, 15, 5), ARCNAV_OK);
  ck_assert_double_eq_tol(arcnav_path_length(f.path), 2.0 * sqrt(50.0) + 10.0, 1e-9);
  check_path_shape(&f, (arcnav_vec2){-5, 5}, (arcnav_vec2){15, 5});
  fixture_close(&f);
}
END_TEST

START_TEST(test_around_a_circle) {
  // Circle of radius 3 at the origin, R = 1: the centre path hugs a circle of radius 4. Tangents
  // from (+-10, 0) have length sqrt(100 - 16); the arc between the touching points spans
  // pi - 2 acos(4/10).
  double expected = 2.0 * sqrt(84.0) + 4.0 * (TEST_PI - 2.0 * acos(0.4));
  fixture f;
  fixture_open(&f);
  ck_assert_int_eq(arcnav_map_add_circle(f.map, (arcnav_vec2){0, 0}, 3.0, NULL), ARCNAV_OK);
  fixture_build(&f, 1.0, ARCNAV_ENGINE_AUTO);
  ck_assert_int_eq(plan(&f, -10, 0, 10, 0), ARCNAV_OK);
  ck_assert_double_eq_tol(arcnav_path_length(f.path), expected, 1e-9);
  check_path_shape(&f, (arcnav_vec2){-10, 0}, (arcnav_vec2){10, 0});
  fixture_close(&f);
}
END_TEST

// Two boxes with a vertical gap of width `gap` between x = 10 and x = 10 + gap; the query goes
// straight down through the gap.
static arcnav_status plan_through_gap(double radius, double gap, double *length) {
  fixture f;
  fixture_open(&f);
  ck_assert_int_eq(test_add_box(f.map, 0, 0, 10, 10), ARCNAV_OK);
  ck_assert_int_eq(test_add_box(f.map, 10 + gap, 0, 20 + gap, 10), ARCNAV_OK);
  fixture_build(&f, radius, ARCNAV_ENGINE_AUTO);
  double x = 10 + gap / 2;
  arcnav_status status = plan(&f, x, 15, x, -5);
  *length = arcnav_path_length(f.path);
  fixture_close(&f);
  return status;
}

START_TEST(test_gap_of_exactly_two_radii_is_open) {
  double length;
  ck_assert_int_eq(plan_through_gap(1.0, 2.0, &length), ARCNAV_OK);
  ck_assert_double_eq_tol(length, 20.0, 1e-12);
  // Just above 2R: open too.
  ck_assert_int_eq(plan_through_gap(1.0, 2.0 + 1e-6, &length), ARCNAV_OK);
  ck_assert_double_eq_tol(length, 20.0, 1e-12);
}
END_TEST

START_TEST(test_gap_below_two_radii_is_closed) {
  // Below 2R by far more than the tolerance: the start itself still fits (it is above the gap) but
  // the path must go around the outside: at least down the side of a 10 x 10 box.
  double length;
  ck_assert_int_eq(plan_through_gap(1.0, 2.0 - 1e-6, &length), ARCNAV_OK);
  ck_assert_double_gt(length, 30.0);
}
END_TEST

START_TEST(test_blocked_endpoints) {
  fixture f;
  fixture_open(&f);
  ck_assert_int_eq(test_add_box(f.map, 0, 0, 10, 10), ARCNAV_OK);
  fixture_build(&f, 1.0, ARCNAV_ENGINE_AUTO);
  ck_assert_int_eq(plan(&f, 5, 5, 20, 20), ARCNAV_START_BLOCKED);      // inside
  ck_assert_int_eq(plan(&f, 10.5, 5, 20, 20), ARCNAV_START_BLOCKED);   // within R of an edge
  ck_assert_int_eq(plan(&f, 20, 20, 10.7, 10.7), ARCNAV_GOAL_BLOCKED); // within R of a corner
  ck_assert_uint_eq(arcnav_path_piece_count(f.path), 0);
  // Exactly R from an edge is allowed: the disk touches.
  ck_assert_int_eq(plan(&f, 11, 5, 11, -5), ARCNAV_OK);
  ck_assert_double_eq_tol(arcnav_path_length(f.path), 10.0, 1e-12);
  fixture_close(&f);
}
END_TEST

// A point agent may stand on an obstacle's edge, but not on an edge that lies inside another
// obstacle: the vertex (0, 0) of the small triangle is 0.125 deep inside the large one.
START_TEST(test_point_on_an_edge_inside_another_obstacle_is_blocked) {
  fixture f;
  fixture_open(&f);
  const arcnav_vec2 small[3] = {{-0.25, -0.25}, {-0.25, 0.0}, {0.0, 0.0}};
  const arcnav_vec2 large[3] = {{0.5, 0.0}, {-0.25, 0.5}, {-0.25, -0.5}};
  ck_assert_int_eq(arcnav_map_add_polygon(f.map, small, 3, NULL, NULL, 0, NULL), ARCNAV_OK);
  ck_assert_int_eq(arcnav_map_add_polygon(f.map, large, 3, NULL, NULL, 0, NULL), ARCNAV_OK);
  for (int engine = ARCNAV_ENGINE_AUTO; engine <= ARCNAV_ENGINE_PLAIN_FUNNEL; ++engine) {
    fixture_build(&f, 0.0, (arcnav_engine)engine);
    ck_assert(!arcnav_planner_point_is_free(f.planner, (arcnav_vec2){0.0, 0.0}));
    ck_assert_int_eq(plan(&f, 0.0, 0.0, 1.0, 0.0), ARCNAV_START_BLOCKED);
    // On the large triangle's own vertex, outside everything else: free.
    ck_assert(arcnav_planner_point_is_free(f.planner, (arcnav_vec2){0.5, 0.0}));
    ck_assert_int_eq(plan(&f, 0.5, 0.0, 1.0, 0.0), ARCNAV_OK);
  }
  fixture_close(&f);
}
END_TEST

START_TEST(test_start_equals_goal) {
  fixture f;
  fixture_open(&f);
  ck_assert_int_eq(test_add_box(f.map, 0, 0, 10, 10), ARCNAV_OK);
  fixture_build(&f, 1.0, ARCNAV_ENGINE_AUTO);
  ck_assert_int_eq(plan(&f, 20, 20, 20, 20), ARCNAV_OK);
  ck_assert_uint_eq(arcnav_path_piece_count(f.path), 0);
  ck_assert_double_eq(arcnav_path_length(f.path), 0.0);
  fixture_close(&f);
}
END_TEST

START_TEST(test_enclosed_start_has_no_path) {
  // A square wall with a square hole: a start inside the hole cannot reach the outside.
  arcnav_vec2 outer[4] = {{0, 0}, {30, 0}, {30, 30}, {0, 30}};
  arcnav_vec2 hole[4] = {{10, 10}, {20, 10}, {20, 20}, {10, 20}};
  const arcnav_vec2 *holes[1] = {hole};
  size_t counts[1] = {4};
  fixture f;
  fixture_open(&f);
  ck_assert_int_eq(arcnav_map_add_polygon(f.map, outer, 4, holes, counts, 1, NULL), ARCNAV_OK);
  fixture_build(&f, 1.0, ARCNAV_ENGINE_AUTO);
  ck_assert_int_eq(plan(&f, 15, 15, 40, 15), ARCNAV_NO_PATH);
  ck_assert_int_eq(plan(&f, 40, 15, 15, 15), ARCNAV_NO_PATH);
  // Inside the hole, movement is free: along the diagonal of the shrunken hole.
  ck_assert_int_eq(plan(&f, 11, 11, 19, 19), ARCNAV_OK);
  ck_assert_double_eq_tol(arcnav_path_length(f.path), 8.0 * sqrt(2.0), 1e-12);
  // The wall material itself is blocked.
  ck_assert_int_eq(plan(&f, 5, 5, 15, 15), ARCNAV_START_BLOCKED);
  fixture_close(&f);
}
END_TEST

START_TEST(test_hole_reflex_corner_is_wrapped) {
  // An L-shaped hole (free space) in a big block: going from one arm to the other wraps the
  // hole's reflex corner at (10,10) with an arc of radius R, not cutting it.
  arcnav_vec2 outer[4] = {{-10, -10}, {40, -10}, {40, 40}, {-10, 40}};
  arcnav_vec2 hole[6] = {{0, 0}, {30, 0}, {30, 10}, {10, 10}, {10, 30}, {0, 30}};
  const arcnav_vec2 *holes[1] = {hole};
  size_t counts[1] = {6};
  fixture f;
  fixture_open(&f);
  ck_assert_int_eq(arcnav_map_add_polygon(f.map, outer, 4, holes, counts, 1, NULL), ARCNAV_OK);
  fixture_build(&f, 1.0, ARCNAV_ENGINE_AUTO);
  // From (25,5) to (5,25): both at distance 5 from the corner's offset lines. The path wraps the
  // circle of radius 1 around (10,10): two tangents from points at distance sqrt(225+25) from the
  // corner, symmetric about the diagonal.
  ck_assert_int_eq(plan(&f, 25, 5, 5, 25), ARCNAV_OK);
  double d = sqrt(15.0 * 15.0 + 5.0 * 5.0);
  double tangent = sqrt(d * d - 1.0);
  // Seen from the corner, the start lies at angle atan2(-5, 15); the touching normal is acos(1/d)
  // further clockwise, toward the free wedge that points down-left. By mirror symmetry about
  // y = x the goal's touching normal is at pi/2 - a, i.e. pi/2 - a - 2pi, so the arc sweeps
  // a - (pi/2 - a - 2pi) = 2a + 3pi/2.
  double a = atan2(-5.0, 15.0) - acos(1.0 / d);
  double wedge_arc = 2.0 * a + 1.5 * TEST_PI;
  ck_assert(wedge_arc > 0.0 && wedge_arc < TEST_PI / 2.0);
  ck_assert_double_eq_tol(arcnav_path_length(f.path), 2.0 * tangent + wedge_arc, 1e-9);
  check_path_shape(&f, (arcnav_vec2){25, 5}, (arcnav_vec2){5, 25});
  fixture_close(&f);
}
END_TEST

START_TEST(test_bounds_keep_the_disk_inside) {
  fixture f;
  fixture_open(&f);
  arcnav_vec2 bounds[4] = {{0, 0}, {20, 0}, {20, 20}, {0, 20}};
  ck_assert_int_eq(arcnav_map_set_bounds(f.map, bounds, 4, NULL), ARCNAV_OK);
  fixture_build(&f, 2.0, ARCNAV_ENGINE_AUTO);
  ck_assert_int_eq(plan(&f, 2, 2, 18, 18), ARCNAV_OK); // touching two walls is fine
  ck_assert_int_eq(plan(&f, 1, 10, 10, 10), ARCNAV_START_BLOCKED);
  ck_assert_int_eq(plan(&f, 10, 10, 25, 10), ARCNAV_GOAL_BLOCKED);
  fixture_close(&f);
}
END_TEST

START_TEST(test_reflex_corner_gets_no_arc) {
  // A U-shaped obstacle opening upward; a path from inside the U's mouth to its outside must go
  // up and over an arm: the inner (reflex) corners at the bottom of the U are never wrapped.
  arcnav_vec2 u_shape[8] = {{0, 0},   {30, 0},  {30, 30}, {20, 30},
                            {20, 10}, {10, 10}, {10, 30}, {0, 30}};
  fixture f;
  fixture_open(&f);
  ck_assert_int_eq(arcnav_map_add_polygon(f.map, u_shape, 8, NULL, NULL, 0, NULL), ARCNAV_OK);
  fixture_build(&f, 1.0, ARCNAV_ENGINE_AUTO);
  ck_assert_int_eq(plan(&f, 15, 12, 40, 15), ARCNAV_OK);
  check_path_shape(&f, (arcnav_vec2){15, 12}, (arcnav_vec2){40, 15});
  // Every arc of the path is centred on a convex corner: (20,30) or (30,30).
  for (size_t i = 0; i < arcnav_path_piece_count(f.path); ++i) {
    arcnav_piece p = arcnav_path_piece(f.path, i);
    if (p.type == ARCNAV_PIECE_ARC) {
      ck_assert(p.center.y == 30.0 && (p.center.x == 20.0 || p.center.x == 30.0));
    }
  }
  fixture_close(&f);
}
END_TEST

START_TEST(test_same_query_same_bits) {
  fixture f;
  fixture_open(&f);
  ck_assert_int_eq(test_add_box(f.map, 0, 0, 10, 10), ARCNAV_OK);
  ck_assert_int_eq(arcnav_map_add_circle(f.map, (arcnav_vec2){20, 5}, 3, NULL), ARCNAV_OK);
  fixture_build(&f, 1.0, ARCNAV_ENGINE_AUTO);
  ck_assert_int_eq(plan(&f, -5, 3, 30, 6), ARCNAV_OK);
  double first = arcnav_path_length(f.path);
  arcnav_piece first_piece = arcnav_path_piece(f.path, 1);
  ck_assert_int_eq(plan(&f, 5, 20, 40, 40), ARCNAV_OK);
  ck_assert_int_eq(plan(&f, -5, 3, 30, 6), ARCNAV_OK);
  ck_assert(memcmp(&first, &(double){arcnav_path_length(f.path)}, sizeof first) == 0);
  arcnav_piece again = arcnav_path_piece(f.path, 1);
  ck_assert(memcmp(&first_piece.to, &again.to, sizeof again.to) == 0);
  fixture_close(&f);
}
END_TEST

START_TEST(test_invalid_query_arguments) {
  fixture f;
  fixture_open(&f);
  fixture_build(&f, 1.0, ARCNAV_ENGINE_AUTO);
  ck_assert_int_eq(plan(&f, NAN, 0, 1, 1), ARCNAV_ERR_NOT_FINITE);
  ck_assert_int_eq(plan(&f, 0, 0, INFINITY, 1), ARCNAV_ERR_NOT_FINITE);
  ck_assert_int_eq(arcnav_find_path(NULL, (arcnav_vec2){0, 0}, (arcnav_vec2){1, 1}, f.path),
                   ARCNAV_ERR_INVALID_ARGUMENT);
  ck_assert_int_eq(arcnav_find_path(f.query, (arcnav_vec2){0, 0}, (arcnav_vec2){1, 1}, NULL),
                   ARCNAV_ERR_INVALID_ARGUMENT);
  fixture_close(&f);
}
END_TEST

// --- the free test with a query's marks ------------------------------------------------------

// Counts the blocks a map, its planners and their queries ask for.
typedef struct counted_allocations {
  size_t count;
} counted_allocations;

static void *counted_alloc(size_t size, void *user) {
  ((counted_allocations *)user)->count++;
  return malloc(size);
}

static void counted_free(void *ptr, void *user) {
  (void)user;
  free(ptr);
}

typedef struct free_test_engine {
  arcnav_engine engine;
  arcnav_tangent_graph tangent_graph;
} free_test_engine;

static const free_test_engine FREE_TEST_ENGINES[] = {
    {ARCNAV_ENGINE_TANGENT, ARCNAV_TANGENT_GRAPH_PREBUILT},
    {ARCNAV_ENGINE_TANGENT, ARCNAV_TANGENT_GRAPH_ON_DEMAND},
    {ARCNAV_ENGINE_FUNNEL, ARCNAV_TANGENT_GRAPH_AUTO},
    {ARCNAV_ENGINE_PLAIN_FUNNEL, ARCNAV_TANGENT_GRAPH_AUTO},
};
#define FREE_TEST_ENGINE_COUNT (sizeof FREE_TEST_ENGINES / sizeof FREE_TEST_ENGINES[0])
static const double FREE_TEST_RADII[] = {0.0, 2.0};
#define FREE_TEST_RADIUS_COUNT (sizeof FREE_TEST_RADII / sizeof FREE_TEST_RADII[0])

static void build_free_test(const arcnav_map *map, double radius, size_t engine,
                            arcnav_planner **planner, arcnav_query **query) {
  arcnav_planner_def def = arcnav_default_planner_def();
  def.radius = radius;
  def.engine = FREE_TEST_ENGINES[engine].engine;
  def.tangent_graph = FREE_TEST_ENGINES[engine].tangent_graph;
  ck_assert_int_eq(arcnav_planner_create(map, &def, planner), ARCNAV_OK);
  ck_assert_int_eq(arcnav_query_create(*planner, query), ARCNAV_OK);
}

// Points to judge: uniform in the map's box grown by 5, then each polygon vertex and the points
// R and R/2 to its right (touching it and overlapping it for a disk agent).
static size_t free_test_points(const sup_map *m, double radius, uint64_t seed, arcnav_vec2 *out,
                               size_t capacity) {
  arcnav_vec2 lo, hi;
  ck_assert(sup_map_extent(m, &lo, &hi));
  sup_rng rng = sup_rng_seed(seed);
  size_t n = 0;
  size_t uniform = (size_t)test_scaled_count(capacity / 2);
  for (size_t k = 0; k < uniform; ++k) {
    out[n++] = (arcnav_vec2){sup_rng_uniform(&rng, lo.x - 5, hi.x + 5),
                             sup_rng_uniform(&rng, lo.y - 5, hi.y + 5)};
  }
  for (size_t p = 0; p < m->polygon_count; ++p) {
    const sup_ring *ring = &m->polygons[p].outer;
    for (size_t v = 0; v < ring->count && n + 3 <= capacity; ++v) {
      arcnav_vec2 at = ring->points[v];
      out[n++] = at;
      out[n++] = (arcnav_vec2){at.x + radius, at.y};
      out[n++] = (arcnav_vec2){at.x + 0.5 * radius, at.y};
    }
  }
  return n;
}

START_TEST(test_query_point_is_free_matches_the_planner) {
  enum { CAPACITY = 4000 };
  arcnav_vec2 *points = malloc(CAPACITY * sizeof *points);
  ck_assert_ptr_nonnull(points);
  uint64_t seeds = test_scaled_count(4);
  for (uint64_t seed = 1; seed <= seeds; ++seed) {
    sup_map m = sup_gen_mixed(seed, 12, 100.0, 2.0);
    arcnav_map *map = NULL;
    ck_assert_int_eq(sup_map_to_arcnav(&m, &map), ARCNAV_OK);
    for (size_t r = 0; r < FREE_TEST_RADIUS_COUNT; ++r) {
      double radius = FREE_TEST_RADII[r];
      size_t n = free_test_points(&m, radius, seed * 31 + r, points, CAPACITY);
      for (size_t e = 0; e < FREE_TEST_ENGINE_COUNT; ++e) {
        arcnav_planner *planner = NULL;
        arcnav_query *query = NULL;
        build_free_test(map, radius, e, &planner, &query);
        size_t free_count = 0;
        for (size_t k = 0; k < n; ++k) {
          bool expected = arcnav_planner_point_is_free(planner, points[k]);
          ck_assert_msg(arcnav_query_point_is_free(query, points[k]) == expected,
                        "seed %d R %g engine %d: (%.17g, %.17g) the planner says %d", (int)seed,
                        radius, (int)e, points[k].x, points[k].y, (int)expected);
          free_count += expected;
        }
        // Both answers occur, so the two do not merely agree on a constant.
        ck_assert_uint_gt(free_count, 0);
        ck_assert_uint_lt(free_count, n);
        arcnav_query_destroy(query);
        arcnav_planner_destroy(planner);
      }
    }
    arcnav_map_destroy(map);
    sup_map_free(&m);
  }
  free(points);
}
END_TEST

START_TEST(test_query_point_is_free_allocates_nothing) {
  counted_allocations counted = {0};
  const arcnav_allocator allocator = {counted_alloc, counted_free, &counted};
  arcnav_map *map = NULL;
  ck_assert_int_eq(arcnav_map_create(&allocator, &map), ARCNAV_OK);
  ck_assert_int_eq(test_add_box(map, 0, 0, 10, 10), ARCNAV_OK);
  ck_assert_int_eq(test_add_box(map, 16, -5, 30, 8), ARCNAV_OK);
  const arcnav_vec2 triangle[3] = {{5, 20}, {25, 15}, {12, 32}};
  ck_assert_int_eq(arcnav_map_add_polygon(map, triangle, 3, NULL, NULL, 0, NULL), ARCNAV_OK);
  ck_assert_int_eq(arcnav_map_add_circle(map, (arcnav_vec2){32, 25}, 3.0, NULL), ARCNAV_OK);
  for (size_t r = 0; r < FREE_TEST_RADIUS_COUNT; ++r) {
    for (size_t e = 0; e < FREE_TEST_ENGINE_COUNT; ++e) {
      arcnav_planner *planner = NULL;
      arcnav_query *query = NULL;
      build_free_test(map, FREE_TEST_RADII[r], e, &planner, &query);
      // The counter sees the library's blocks: building took some.
      ck_assert_uint_gt(counted.count, 0);
      size_t before = counted.count;
      sup_rng rng = sup_rng_seed(r * 10 + e);
      size_t free_count = 0;
      for (int k = 0; k < 1000; ++k) {
        arcnav_vec2 p = {sup_rng_uniform(&rng, -10, 45), sup_rng_uniform(&rng, -15, 40)};
        free_count += arcnav_query_point_is_free(query, p);
      }
      ck_assert_msg(counted.count == before, "R %g engine %d: %zu allocations in 1000 calls",
                    FREE_TEST_RADII[r], (int)e, counted.count - before);
      ck_assert_uint_gt(free_count, 0);
      ck_assert_uint_lt(free_count, 1000);
      // The planner's own test takes its temporary marks from the same allocator wherever it
      // checks against the obstacle grid: every planner but the funnel engines' at R > 0.
      bool eroded = FREE_TEST_RADII[r] > 0 && FREE_TEST_ENGINES[e].engine != ARCNAV_ENGINE_TANGENT;
      (void)arcnav_planner_point_is_free(planner, (arcnav_vec2){-5, -5});
      ck_assert(eroded ? counted.count == before : counted.count > before);
      arcnav_query_destroy(query);
      arcnav_planner_destroy(planner);
    }
  }
  arcnav_map_destroy(map);
}
END_TEST

static Suite *planner_suite(void) {
  Suite *suite = suite_create("planner");
  TCase *tc = tcase_create("hand-derived");
  tcase_add_test(tc, test_empty_map_is_a_straight_line);
  tcase_add_test(tc, test_around_a_square);
  tcase_add_test(tc, test_around_a_circle);
  tcase_add_test(tc, test_gap_of_exactly_two_radii_is_open);
  tcase_add_test(tc, test_gap_below_two_radii_is_closed);
  tcase_add_test(tc, test_blocked_endpoints);
  tcase_add_test(tc, test_point_on_an_edge_inside_another_obstacle_is_blocked);
  tcase_add_test(tc, test_start_equals_goal);
  tcase_add_test(tc, test_enclosed_start_has_no_path);
  tcase_add_test(tc, test_hole_reflex_corner_is_wrapped);
  tcase_add_test(tc, test_bounds_keep_the_disk_inside);
  tcase_add_test(tc, test_reflex_corner_gets_no_arc);
  tcase_add_test(tc, test_same_query_same_bits);
  tcase_add_test(tc, test_invalid_query_arguments);
  suite_add_tcase(suite, tc);
  TCase *free_test = tcase_create("query free test");
  tcase_add_test(free_test, test_query_point_is_free_matches_the_planner);
  tcase_add_test(free_test, test_query_point_is_free_allocates_nothing);
  suite_add_tcase(suite, free_test);
  return suite;
}

int main(void) {
  return test_run_suite(planner_suite());
}
