// SPDX-License-Identifier: MIT
// The touching rule, across every engine: at R = 0 obstacles that touch are one wall, and a map
// without bounds is the whole plane. On maps built to provoke it (obstacles sharing edges and
// vertices, edges on the bounds, holes touching their shell, staircases like a traced grid), with
// queries from the whole plane (inside the extent, on boundaries, at touching points, along seams,
// far away), every engine must give the same status as the brute-force reference (which follows
// the rule by probing the plain map, support/touching.h), the optimal engines its length within
// 1e-9 relative, and every path must pass the independent verifier. At R > 0 the two ways of the
// tangent engine must agree with each other on the same maps.

#include "arcnav_test.h"
#include "mapgen.h"
#include "reference.h"
#include "touching.h"
#include "verify.h"

#include <stdio.h>
#include <string.h>

typedef arcnav_vec2 vec;

typedef struct engine {
  const char *name;
  arcnav_engine engine;
  arcnav_tangent_graph graph;
  bool optimal; ///< its length must equal the reference's
} engine;

static const engine ENGINES[] = {
    {"tangent prebuilt", ARCNAV_ENGINE_TANGENT, ARCNAV_TANGENT_GRAPH_PREBUILT, true},
    {"tangent on demand", ARCNAV_ENGINE_TANGENT, ARCNAV_TANGENT_GRAPH_ON_DEMAND, true},
    {"funnel", ARCNAV_ENGINE_FUNNEL, ARCNAV_TANGENT_GRAPH_AUTO, true},
    {"plain funnel", ARCNAV_ENGINE_PLAIN_FUNNEL, ARCNAV_TANGENT_GRAPH_AUTO, false},
    {"auto", ARCNAV_ENGINE_AUTO, ARCNAV_TANGENT_GRAPH_AUTO, true},
};
#define ENGINE_COUNT (sizeof ENGINES / sizeof ENGINES[0])

typedef struct engine_run {
  arcnav_planner *planner;
  arcnav_query *query;
} engine_run;

static engine_run open_run(const arcnav_map *map, const engine *e, double radius) {
  engine_run run = {NULL, NULL};
  arcnav_planner_def def = arcnav_default_planner_def();
  def.engine = e->engine;
  def.tangent_graph = e->graph;
  def.radius = radius;
  arcnav_status status = arcnav_planner_create(map, &def, &run.planner);
  ck_assert_msg(status == ARCNAV_OK, "%s: planner refused: %s", e->name,
                arcnav_status_name(status));
  ck_assert_int_eq(arcnav_query_create(run.planner, &run.query), ARCNAV_OK);
  return run;
}

static void close_run(engine_run *run) {
  arcnav_query_destroy(run->query);
  arcnav_planner_destroy(run->planner);
}

typedef struct point_pool {
  vec points[96];
  size_t count;
} point_pool;

static void pool_add(point_pool *pool, vec p) {
  if (pool->count < sizeof pool->points / sizeof pool->points[0]) {
    pool->points[pool->count++] = p;
  }
}

static vec ring_point(const sup_ring *ring, size_t i) {
  return ring->points[i % ring->count];
}

// Query points from the whole plane: free points in the extent, vertices (pinches among them),
// edge middles (seams among them), lattice points of the grid, and points up to 10 extents away.
static point_pool query_points(const sup_map *map, sup_rng *rng) {
  point_pool pool = {.count = 0};
  vec lo, hi;
  sup_map_extent(map, &lo, &hi);
  double extent = fmax(hi.x - lo.x, hi.y - lo.y);
  vec centre = {0.5 * (lo.x + hi.x), 0.5 * (lo.y + hi.y)};
  for (int k = 0; k < 16; ++k) {
    vec p;
    if (sup_random_free_point(map, 0.0, rng, lo, hi, 1e-3, 100, &p)) {
      pool_add(&pool, p);
    }
  }
  for (int k = 0; k < 16; ++k) {
    const sup_polygon *poly = &map->polygons[sup_rng_below(rng, map->polygon_count)];
    const sup_ring *ring = &poly->outer;
    if (poly->hole_count > 0 && sup_rng_unit(rng) < 0.5) {
      ring = &poly->holes[sup_rng_below(rng, poly->hole_count)];
    }
    size_t i = sup_rng_below(rng, ring->count);
    vec a = ring_point(ring, i), b = ring_point(ring, i + 1);
    pool_add(&pool, k % 2 == 0 ? a : (vec){0.5 * (a.x + b.x), 0.5 * (a.y + b.y)});
  }
  for (int k = 0; k < 10; ++k) {
    pool_add(&pool,
             (vec){10.0 * (double)sup_rng_below(rng, 8), 10.0 * (double)sup_rng_below(rng, 8)});
  }
  if (!map->has_bounds) {
    for (int k = 0; k < 8; ++k) {
      double angle = sup_rng_uniform(rng, 0.0, 2.0 * TEST_PI);
      double away = extent * sup_rng_uniform(rng, 0.6, 10.0);
      pool_add(&pool, (vec){centre.x + away * cos(angle), centre.y + away * sin(angle)});
    }
  }
  return pool;
}

typedef struct touching_stats {
  size_t queries, found, no_path, blocked, walled_in, far, compared_lengths;
} touching_stats;

static arcnav_status reference_status(const sup_reference_result *r) {
  if (!r->start_free) {
    return ARCNAV_START_BLOCKED;
  }
  if (!r->goal_free) {
    return ARCNAV_GOAL_BLOCKED;
  }
  return r->found ? ARCNAV_OK : ARCNAV_NO_PATH;
}

// Walled in although on the boundary: inside a seam.
static bool on_a_seam(const sup_map *map, vec p, double probe) {
  return sup_signed_distance_to_obstacles(map, p) >= -probe * 1e-3 && sup_walled_in(map, p, probe);
}

static void run_touching_map(uint64_t seed, touching_stats *stats) {
  sup_map generated = sup_gen_touching(seed, true);
  arcnav_map *map = NULL;
  arcnav_status built = sup_map_to_arcnav(&generated, &map);
  ck_assert_msg(built == ARCNAV_OK, "seed %llu: map refused: %s", (unsigned long long)seed,
                arcnav_status_name(built));
  double eps = arcnav_map_tolerance(map);
  double probe = sup_touch_probe_radius(&generated);
  sup_reference_options options = sup_reference_default_options(&generated);
  options.edge_spacing = 0.0; // at R = 0 the vertices are all the samples an exact answer needs
  sup_reference *reference = sup_reference_create(&generated, 0.0, &options);
  engine_run runs[ENGINE_COUNT];
  for (size_t e = 0; e < ENGINE_COUNT; ++e) {
    runs[e] = open_run(map, &ENGINES[e], 0.0);
  }
  arcnav_path *path = NULL;
  ck_assert_int_eq(arcnav_path_create(NULL, &path), ARCNAV_OK);
  sup_rng rng = sup_rng_seed(seed * 7919 + 1);
  point_pool pool = query_points(&generated, &rng);
  vec lo, hi;
  sup_map_extent(&generated, &lo, &hi);
  for (int q = 0; q < 24; ++q) {
    vec s = pool.points[sup_rng_below(&rng, pool.count)];
    vec g = pool.points[sup_rng_below(&rng, pool.count)];
    sup_reference_result expected = sup_reference_query(reference, s, g);
    arcnav_status want = reference_status(&expected);
    stats->queries++;
    stats->found += want == ARCNAV_OK;
    stats->no_path += want == ARCNAV_NO_PATH;
    stats->blocked += want == ARCNAV_START_BLOCKED || want == ARCNAV_GOAL_BLOCKED;
    stats->walled_in += on_a_seam(&generated, s, probe) || on_a_seam(&generated, g, probe);
    stats->far += s.x < lo.x || s.x > hi.x || s.y < lo.y || s.y > hi.y || g.x < lo.x ||
                  g.x > hi.x || g.y < lo.y || g.y > hi.y;
    for (size_t e = 0; e < ENGINE_COUNT; ++e) {
      arcnav_status got = arcnav_find_path(runs[e].query, s, g, path);
      ck_assert_msg(got == want,
                    "seed %llu, %s: (%.17g, %.17g) -> (%.17g, %.17g): %s, the reference says %s",
                    (unsigned long long)seed, ENGINES[e].name, s.x, s.y, g.x, g.y,
                    arcnav_status_name(got), arcnav_status_name(want));
      if (got != ARCNAV_OK) {
        continue;
      }
      sup_verify_report report;
      ck_assert_msg(sup_verify_path(&generated, 0.0, eps, s, g, path, &report),
                    "seed %llu, %s: (%.17g, %.17g) -> (%.17g, %.17g): invalid path: %s",
                    (unsigned long long)seed, ENGINES[e].name, s.x, s.y, g.x, g.y, report.message);
      double length = arcnav_path_length(path);
      if (ENGINES[e].optimal) {
        stats->compared_lengths++;
        ck_assert_msg(fabs(length - expected.length) <= 1e-9 * expected.length + eps,
                      "seed %llu, %s: (%.17g, %.17g) -> (%.17g, %.17g): length %.17g, the "
                      "reference %.17g",
                      (unsigned long long)seed, ENGINES[e].name, s.x, s.y, g.x, g.y, length,
                      expected.length);
      } else {
        ck_assert_msg(length >= expected.length - 1e-9 * expected.length - eps,
                      "seed %llu, %s: shorter than the shortest path: %.17g < %.17g",
                      (unsigned long long)seed, ENGINES[e].name, length, expected.length);
      }
    }
  }
  arcnav_path_destroy(path);
  for (size_t e = 0; e < ENGINE_COUNT; ++e) {
    close_run(&runs[e]);
  }
  sup_reference_destroy(reference);
  arcnav_map_destroy(map);
  sup_map_free(&generated);
}

START_TEST(test_every_engine_follows_the_touching_rule) {
  touching_stats stats = {0};
  uint64_t maps = test_scaled_count(60);
  for (uint64_t seed = 1; seed <= maps; ++seed) {
    run_touching_map(seed, &stats);
  }
  printf("touching rule, R = 0: %zu queries on %llu maps: %zu found, %zu no_path, %zu blocked "
         "(%zu with an end walled in on a seam), %zu with an end outside the extent; %zu lengths "
         "compared\n",
         stats.queries, (unsigned long long)maps, stats.found, stats.no_path, stats.blocked,
         stats.walled_in, stats.far, stats.compared_lengths);
  // The maps must provoke every outcome, or the comparison proves little.
  uint64_t floor = test_scaled_minimum(20, 60);
  ck_assert_uint_ge(stats.found, floor);
  ck_assert_uint_ge(stats.no_path, floor);
  ck_assert_uint_ge(stats.blocked, floor);
  ck_assert_uint_ge(stats.walled_in, test_scaled_minimum(5, 60));
  ck_assert_uint_ge(stats.far, floor);
}
END_TEST

// At R > 0 touching obstacles close every gap between them for both ways of the tangent engine;
// the two must agree on every query (status, and length within 1e-9 relative), and every path must
// pass the verifier.
START_TEST(test_tangent_ways_agree_beside_touching_obstacles) {
  const engine *prebuilt = &ENGINES[0], *on_demand = &ENGINES[1];
  size_t compared = 0;
  for (uint64_t seed = 1; seed <= test_scaled_count(30); ++seed) {
    sup_map generated = sup_gen_touching(seed, true);
    arcnav_map *map = NULL;
    ck_assert_int_eq(sup_map_to_arcnav(&generated, &map), ARCNAV_OK);
    double eps = arcnav_map_tolerance(map);
    double radius = seed % 2 == 0 ? 0.5 : 2.0;
    engine_run a = open_run(map, prebuilt, radius), b = open_run(map, on_demand, radius);
    arcnav_path *path = NULL;
    ck_assert_int_eq(arcnav_path_create(NULL, &path), ARCNAV_OK);
    sup_rng rng = sup_rng_seed(seed * 104729 + 3);
    point_pool pool = query_points(&generated, &rng);
    for (int q = 0; q < 16; ++q) {
      vec s = pool.points[sup_rng_below(&rng, pool.count)];
      vec g = pool.points[sup_rng_below(&rng, pool.count)];
      arcnav_status first = arcnav_find_path(a.query, s, g, path);
      double first_length = first == ARCNAV_OK ? arcnav_path_length(path) : 0.0;
      sup_verify_report report;
      ck_assert_msg(first != ARCNAV_OK ||
                        sup_verify_path(&generated, radius, eps, s, g, path, &report),
                    "seed %llu R %g: prebuilt path invalid: %s", (unsigned long long)seed, radius,
                    report.message);
      arcnav_status second = arcnav_find_path(b.query, s, g, path);
      ck_assert_msg(first == second,
                    "seed %llu R %g: (%g, %g) -> (%g, %g): prebuilt %s, on demand %s",
                    (unsigned long long)seed, radius, s.x, s.y, g.x, g.y, arcnav_status_name(first),
                    arcnav_status_name(second));
      if (second == ARCNAV_OK) {
        double length = arcnav_path_length(path);
        ck_assert_msg(fabs(length - first_length) <= 1e-9 * first_length + eps,
                      "seed %llu R %g: prebuilt %.17g, on demand %.17g", (unsigned long long)seed,
                      radius, first_length, length);
        compared++;
      }
    }
    arcnav_path_destroy(path);
    close_run(&a);
    close_run(&b);
    arcnav_map_destroy(map);
    sup_map_free(&generated);
  }
  ck_assert_uint_ge(compared, test_scaled_minimum(40, 30));
}
END_TEST

// The rule on hand-made cases, each answer worked out by hand.
// On `plain` at R = 0, for the tangent engines (the funnels see a 64-gon, not a circle): the
// path from `from` to `meet`, and the partial answer for the blocked `blocked`, pass the verifier.
static void check_ways_round_a_circle(const sup_map *plain, vec from, vec meet, vec blocked) {
  arcnav_map *map = NULL;
  arcnav_path *path = NULL;
  ck_assert_int_eq(sup_map_to_arcnav(plain, &map), ARCNAV_OK);
  ck_assert_int_eq(arcnav_path_create(NULL, &path), ARCNAV_OK);
  double eps = arcnav_map_tolerance(map);
  for (size_t e = 0; e < 2; ++e) {
    engine_run run = open_run(map, &ENGINES[e], 0.0);
    for (int partial = 0; partial < 2; ++partial) {
      vec to = partial ? blocked : meet;
      ck_assert_int_eq(arcnav_query_set_partial(run.query, partial), ARCNAV_OK);
      ck_assert_int_eq(arcnav_find_path(run.query, from, to, path),
                       partial ? ARCNAV_PARTIAL : ARCNAV_OK);
      sup_verify_report report;
      ck_assert_msg(sup_verify_path(plain, 0.0, eps, from, arcnav_path_end(path), path, &report),
                    "%s, to (%g, %g): %s", ENGINES[e].name, to.x, to.y, report.message);
    }
    close_run(&run);
  }
  arcnav_path_destroy(path);
  arcnav_map_destroy(map);
}

// The ends (5, -3.5) and (5, 3.5) beside the circle of radius 3 round (3, 0), whose rim reaches
// x = 6 at angle 0: from the centre, the angles of the tangent points from (5, 3.5) on the ends'
// side (`near`) and on the far side (`far`; those from (5, -3.5) are their mirror images), and
// the length of the way round the far side, both tangents and the arc between them.
typedef struct beside_circle {
  double near_angle, far_angle, far_way;
} beside_circle;

static beside_circle ends_beside_circle(void) {
  double d = hypot(2.0, 3.5), reach = acos(3.0 / d), towards = atan2(3.5, 2.0);
  return (beside_circle){towards - reach, towards + reach,
                         2.0 * sqrt(d * d - 9.0) + 3.0 * (2.0 * TEST_PI - 2.0 * (towards + reach))};
}

START_TEST(test_touching_rule_by_hand) {
  // The seam: bounds [0, 10]^2, an obstacle [4, 10] x [2, 8] whose right side lies on the
  // bounds. From (8, 9) to (8, 1) the way goes round the left: 2 sqrt(17) + 6.
  sup_map seam;
  sup_map_init(&seam);
  sup_map_add_rect(&seam, 4, 2, 10, 8);
  vec box[4] = {{0, 0}, {10, 0}, {10, 10}, {0, 10}};
  sup_map_set_bounds(&seam, box, 4);
  arcnav_map *map = NULL;
  ck_assert_int_eq(sup_map_to_arcnav(&seam, &map), ARCNAV_OK);
  arcnav_path *path = NULL;
  ck_assert_int_eq(arcnav_path_create(NULL, &path), ARCNAV_OK);
  for (size_t e = 0; e < ENGINE_COUNT; ++e) {
    engine_run run = open_run(map, &ENGINES[e], 0.0);
    ck_assert_int_eq(arcnav_find_path(run.query, (vec){8, 9}, (vec){8, 1}, path), ARCNAV_OK);
    ck_assert_double_eq_tol(arcnav_path_length(path), 2.0 * sqrt(17.0) + 6.0, 1e-9);
    // On the seam itself (x = 10, between y = 2 and 8) a point is walled in.
    ck_assert_int_eq(arcnav_find_path(run.query, (vec){10, 5}, (vec){8, 9}, path),
                     ARCNAV_START_BLOCKED);
    ck_assert(!arcnav_planner_point_is_free(run.planner, (vec){10, 5}));
    // Where the seam meets the free space, the point is free.
    ck_assert_int_eq(arcnav_find_path(run.query, (vec){10, 8}, (vec){8, 9}, path), ARCNAV_OK);
    ck_assert_double_eq_tol(arcnav_path_length(path), sqrt(5.0), 1e-9);
    close_run(&run);
  }
  arcnav_map_destroy(map);
  sup_map_free(&seam);

  // Two rectangles sharing the edge x = 10 between y = 0 and 10: the seam is closed, a point on
  // it walled in, and from (5, -1) to (15, -1) the straight way under them is free.
  sup_map shared;
  sup_map_init(&shared);
  sup_map_add_rect(&shared, 0, 0, 10, 10);
  sup_map_add_rect(&shared, 10, 0, 20, 10);
  ck_assert_int_eq(sup_map_to_arcnav(&shared, &map), ARCNAV_OK);
  for (size_t e = 0; e < ENGINE_COUNT; ++e) {
    engine_run run = open_run(map, &ENGINES[e], 0.0);
    ck_assert_int_eq(arcnav_find_path(run.query, (vec){5, 11}, (vec){10, 5}, path),
                     ARCNAV_GOAL_BLOCKED);
    ck_assert_int_eq(arcnav_find_path(run.query, (vec){5, -1}, (vec){15, -1}, path), ARCNAV_OK);
    ck_assert_double_eq_tol(arcnav_path_length(path), 10.0, 1e-9);
    // Along the top, from one rectangle's side to the other's over the seam's end: straight.
    ck_assert_int_eq(arcnav_find_path(run.query, (vec){2, 10}, (vec){18, 10}, path), ARCNAV_OK);
    ck_assert_double_eq_tol(arcnav_path_length(path), 16.0, 1e-9);
    close_run(&run);
  }
  arcnav_map_destroy(map);
  sup_map_free(&shared);

  // A circle tangent to a polygon's edge: they touch at (0, 7.25), one wall. From (0, 0) to
  // (0, 12), both on the edge x = 0, the way along the edge passes the pinch and is closed; the
  // tangent engines must not touch the circle there and go on (the point where it meets the edge
  // is no corner to turn round). Their path must pass the independent verifier.
  sup_map pinched;
  sup_map_init(&pinched);
  const vec wedge[3] = {{0, -22.5}, {0, 10}, {-14.25, 2.5}};
  sup_map_add_polygon(&pinched, wedge, 3, NULL, NULL, 0);
  sup_map_add_circle(&pinched, (vec){7.25, 7.25}, 7.25);
  ck_assert_int_eq(sup_map_to_arcnav(&pinched, &map), ARCNAV_OK);
  double eps = arcnav_map_tolerance(map);
  for (size_t e = 0; e < 2; ++e) { // the tangent engines: the funnels see a 64-gon, not the circle
    engine_run run = open_run(map, &ENGINES[e], 0.0);
    ck_assert_int_eq(arcnav_find_path(run.query, (vec){0, 0}, (vec){0, 12}, path), ARCNAV_OK);
    sup_verify_report report;
    ck_assert_msg(sup_verify_path(&pinched, 0.0, eps, (vec){0, 0}, (vec){0, 12}, path, &report),
                  "%s: %s", ENGINES[e].name, report.message);
    close_run(&run);
  }
  arcnav_map_destroy(map);
  sup_map_free(&pinched);

  // A circle of radius 3 touching a rectangle's side at a single point, turned a quarter at a
  // time so that the point lies at each of the circle's axes: at angle 0 it is where a full
  // circle's wedge starts. From below the point to above it, beside the rectangle, the way round
  // the circle's rim through the point passes between the two and is closed: every tangent
  // engine (the planner for several radii asked at R = 0 too) goes round the circle's far side,
  // the tangents from both ends and the arc between them, and the path passes the verifier.
  double round_far_side = ends_beside_circle().far_way;
  for (int turn = 0; turn < 4; ++turn) {
    // (x, y) turned by `turn` quarters about the origin: exact in floating point.
    double c = turn == 0 ? 1 : turn == 2 ? -1 : 0, s = turn == 1 ? 1 : turn == 3 ? -1 : 0;
#define TURNED(x, y) ((vec){c * (x)-s * (y), s * (x) + c * (y)})
    sup_map touch;
    sup_map_init(&touch);
    const vec side[4] = {TURNED(6, -2), TURNED(20, -2), TURNED(20, 1), TURNED(6, 1)};
    sup_map_add_polygon(&touch, side, 4, NULL, NULL, 0);
    sup_map_add_circle(&touch, TURNED(3, 0), 3.0);
    vec from = TURNED(5, -3.5), to = TURNED(5, 3.5);
#undef TURNED
    ck_assert_int_eq(sup_map_to_arcnav(&touch, &map), ARCNAV_OK);
    eps = arcnav_map_tolerance(map);
    for (size_t e = 0; e < 3; ++e) { // prebuilt, on demand, and one planner for R <= 3
      arcnav_planner_def def = arcnav_default_planner_def();
      def.engine = ARCNAV_ENGINE_TANGENT;
      def.tangent_graph = e == 0 ? ARCNAV_TANGENT_GRAPH_PREBUILT : ARCNAV_TANGENT_GRAPH_ON_DEMAND;
      def.max_radius = e == 2 ? 3.0 : 0.0;
      engine_run run = {NULL, NULL};
      ck_assert_int_eq(arcnav_planner_create(map, &def, &run.planner), ARCNAV_OK);
      ck_assert_int_eq(arcnav_query_create(run.planner, &run.query), ARCNAV_OK);
      ck_assert_int_eq(arcnav_find_path(run.query, from, to, path), ARCNAV_OK);
      ck_assert_msg(fabs(arcnav_path_length(path) - round_far_side) <= 1e-9 * round_far_side,
                    "turned %d, way %zu: %.17g, round the far side %.17g", turn, e,
                    arcnav_path_length(path), round_far_side);
      sup_verify_report report;
      ck_assert_msg(sup_verify_path(&touch, 0.0, eps, from, to, path, &report), "turned %d: %s",
                    turn, report.message);
      close_run(&run);
    }
    arcnav_map_destroy(map);
    sup_map_free(&touch);
  }

  // A circle touched from outside at three places: a rectangle's side at (0, 1), a triangle's
  // top at (1.25, -0.25) and another triangle's vertex at (0.5, 0), which also overlaps the
  // rectangle. The goal, between the rectangle and the circle below (0, 1), is closed in; the way
  // down the rectangle's side passes the pinch. The circle kept only two of its pinches, and
  // which two depended on the grid: fuzz_planner found the tangent engines going straight down
  // (fuzz/regressions/planner/third-pinch-on-a-circle).
  sup_map thrice;
  sup_map_init(&thrice);
  const vec below[3] = {{16, -0.25}, {-0.25, -0.25}, {1.75, -11.25}};
  const vec far_off[3] = {{4.0377380869572912, 20.811631926645646},
                          {0.7653845451466228, 20.126923353485505},
                          {-0.50000000000000155, 17.218911086754467}};
  const vec barb[3] = {{0.5, 0},
                       {-0.24999999999999989, 0.43301270189221935},
                       {0.48829511159374955, -0.10755409798630498}};
  sup_map_add_polygon(&thrice, below, 3, NULL, NULL, 0);
  sup_map_add_rect(&thrice, -20.75, -20.75, 0, 6.25);
  sup_map_add_polygon(&thrice, far_off, 3, NULL, NULL, 0);
  sup_map_add_polygon(&thrice, barb, 3, NULL, NULL, 0);
  sup_map_add_circle(&thrice, (vec){1.25, 1}, 1.25);
  ck_assert(!sup_reference_shortest(&thrice, 0.0, (vec){0, 12}, (vec){0, 0.5}, NULL).found);
  ck_assert_int_eq(sup_map_to_arcnav(&thrice, &map), ARCNAV_OK);
  for (size_t e = 0; e < 2; ++e) {
    engine_run run = open_run(map, &ENGINES[e], 0.0);
    ck_assert_msg(arcnav_find_path(run.query, (vec){0, 12}, (vec){0, 0.5}, path) == ARCNAV_NO_PATH,
                  "%s: a path of %.17g", ENGINES[e].name, arcnav_path_length(path));
    close_run(&run);
  }
  arcnav_map_destroy(map);
  sup_map_free(&thrice);

  // A circle touched at six places: six equal circles round it, each touching it and its two
  // neighbours, leave six closed pockets, and neighbouring pockets meet only where the middle
  // circle touches one of the ring. Every way from a pocket to the next passes a pinch of the
  // middle circle. It kept four of its six pinches, and two neighbouring pockets were joined
  // through whichever two it lost (the ring's circles, touched at three places, kept theirs).
  sup_map hexagon;
  sup_map_init(&hexagon);
  sup_map_add_circle(&hexagon, (vec){0, 0}, 1.0);
  vec ring[6];
  const double sixth_turn = TEST_PI / 3.0;
  for (int k = 0; k < 6; ++k) {
    ring[k] = (vec){2.0 * cos(k * sixth_turn), 2.0 * sin(k * sixth_turn)};
    sup_map_add_circle(&hexagon, ring[k], 1.0);
  }
  ck_assert_int_eq(sup_map_to_arcnav(&hexagon, &map), ARCNAV_OK);
  for (size_t e = 0; e < 2; ++e) {
    engine_run run = open_run(map, &ENGINES[e], 0.0);
    for (int k = 0; k < 6; ++k) {
      // Each pocket's middle: the centroid of its three circles' centres, 2 / sqrt(3) from each.
      vec here = {(ring[k].x + ring[(k + 1) % 6].x) / 3.0, (ring[k].y + ring[(k + 1) % 6].y) / 3.0};
      vec next = {(ring[(k + 1) % 6].x + ring[(k + 2) % 6].x) / 3.0,
                  (ring[(k + 1) % 6].y + ring[(k + 2) % 6].y) / 3.0};
      ck_assert_msg(arcnav_find_path(run.query, here, next, path) == ARCNAV_NO_PATH,
                    "%s: pocket %d to the next: a path of %.17g", ENGINES[e].name, k,
                    arcnav_path_length(path));
      ck_assert_msg(arcnav_find_path(run.query, here, (vec){10, 0.5}, path) == ARCNAV_NO_PATH,
                    "%s: pocket %d to the outside: a path of %.17g", ENGINES[e].name, k,
                    arcnav_path_length(path));
    }
    close_run(&run);
  }
  arcnav_map_destroy(map);
  sup_map_free(&hexagon);

  // A point obstacle at the bottom of a circle's rim: a point has no material of its own, so a
  // path touching the circle there passes between nothing. From (27.5, 0) the way to (0, 2.5)
  // runs along y = 0 to the point, round the rim and down its tangent (found by fuzz_planner: the
  // tangent engines took the point for a pinch and went over the top, 41.37).
  sup_map dotted;
  sup_map_init(&dotted);
  sup_map_add_circle(&dotted, (vec){7.25, 7.25}, 7.25);
  sup_map_add_circle(&dotted, (vec){7.25, 0}, 0.0);
  ck_assert_int_eq(sup_map_to_arcnav(&dotted, &map), ARCNAV_OK);
  eps = arcnav_map_tolerance(map);
  double to_goal = hypot(7.25, 4.75);
  double leave = atan2(-4.75, -7.25) + acos(7.25 / to_goal);
  double under = 20.25 + 7.25 * (-0.5 * TEST_PI - leave) + sqrt(to_goal * to_goal - 7.25 * 7.25);
  for (size_t e = 0; e < 2; ++e) {
    engine_run run = open_run(map, &ENGINES[e], 0.0);
    ck_assert_int_eq(arcnav_find_path(run.query, (vec){27.5, 0}, (vec){0, 2.5}, path), ARCNAV_OK);
    ck_assert_msg(fabs(arcnav_path_length(path) - under) <= 1e-9 * under, "%s: %.17g, under %.17g",
                  ENGINES[e].name, arcnav_path_length(path), under);
    sup_verify_report report;
    ck_assert_msg(sup_verify_path(&dotted, 0.0, eps, (vec){27.5, 0}, (vec){0, 2.5}, path, &report),
                  "%s: %s", ENGINES[e].name, report.message);
    close_run(&run);
  }
  arcnav_map_destroy(map);
  sup_map_free(&dotted);

  // A rectangle over a circle, its top edge tangent to the circle at the rectangle's corner
  // (0, 0.5), the rectangle's material on the circle's side of it: the circle's arc runs just
  // under that edge, inside the rectangle, leaving the corner along the edge's own direction. To
  // (0.25, 0.433), where the circle meets the rectangle's right side, no path may follow it, and
  // a partial answer for the blocked (0, 0) must not either.
  sup_map tangent;
  sup_map_init(&tangent);
  sup_map_add_rect(&tangent, 0, 0, 0.25, 0.5);
  sup_map_add_circle(&tangent, (vec){0, 0}, 0.5);
  vec around[4] = {{-24, -24}, {24, -24}, {24, 24}, {-24, 24}};
  sup_map_set_bounds(&tangent, around, 4);
  check_ways_round_a_circle(&tangent, (vec){-10.25, -10.25}, (vec){0.25, 0.5 * sqrt(0.75)},
                            (vec){0, 0});
  sup_map_free(&tangent);

  // A thin rectangle across a circle: its top edge crosses the rim at (0.5, 0), its bottom edge
  // at (0.433, -0.25), and between them the rim runs inside the rectangle. An arc from one
  // crossing to the other crosses no edge inside itself, yet passes through the material: the
  // way down the line x = 0.5 to (0.433, -0.25), or to a partial answer for the blocked (0, 0)
  // there, must go round the circle's other side. Every path must pass the verifier.
  sup_map crossed;
  sup_map_init(&crossed);
  sup_map_add_rect(&crossed, -0.25, -0.25, 3.5, 0);
  sup_map_add_circle(&crossed, (vec){0, 0}, 0.5);
  sup_map_add_circle(&crossed, (vec){0, 4}, 0.5);
  sup_map_add_circle(&crossed, (vec){0, 9.5}, 0.5);
  check_ways_round_a_circle(&crossed, (vec){2.25, 20}, (vec){0.5 * sqrt(0.75), -0.25}, (vec){0, 0});
  sup_map_free(&crossed);

  // A circle tangent to a rectangle's side at (0, 0), where a third obstacle's narrow vertex
  // reaches into the circle: the material closes all round the point (the circle's half-turn of
  // directions runs past the full turn counted from the vertex's wedge), so it is walled in, as
  // the verifier says, and a path may not start there.
  sup_map closed;
  sup_map_init(&closed);
  sup_map_add_rect(&closed, -20.75, -20.75, 0, 6.25);
  sup_map_add_circle(&closed, (vec){1.25, 0}, 1.25);
  const vec sliver[3] = {{0.5, 1.25}, {0, 0}, {16, 30.25}};
  sup_map_add_polygon(&closed, sliver, 3, NULL, NULL, 0);
  ck_assert_int_eq(sup_map_to_arcnav(&closed, &map), ARCNAV_OK);
  ck_assert(sup_walled_in(&closed, (vec){0, 0}, sup_touch_probe_radius(&closed)));
  for (size_t e = 0; e < 2; ++e) {
    engine_run run = open_run(map, &ENGINES[e], 0.0);
    ck_assert_msg(!arcnav_planner_point_is_free(run.planner, (vec){0, 0}), "%s", ENGINES[e].name);
    ck_assert_int_eq(arcnav_find_path(run.query, (vec){0, 0}, (vec){16.5, 0}, path),
                     ARCNAV_START_BLOCKED);
    close_run(&run);
  }
  arcnav_map_destroy(map);
  sup_map_free(&closed);

  // Two polygons meeting at the single point (0, 0), with a point obstacle there too: the point
  // adds no material and must not open the pinch. A straight way through (0, 0) is refused, and
  // the answer is the one without the point obstacle; both pass the verifier.
  double lengths[2] = {0.0, 0.0};
  for (int with_point = 0; with_point < 2; ++with_point) {
    sup_map met;
    sup_map_init(&met);
    sup_map_add_rect(&met, -23.5, 0, 0, 0.25);
    const vec spike[3] = {{0, 0}, {10.5, 1}, {3, 3}};
    sup_map_add_polygon(&met, spike, 3, NULL, NULL, 0);
    if (with_point) {
      sup_map_add_circle(&met, (vec){0, 0}, 0.0);
    }
    ck_assert_int_eq(sup_map_to_arcnav(&met, &map), ARCNAV_OK);
    eps = arcnav_map_tolerance(map);
    for (size_t e = 0; e < 2; ++e) {
      engine_run run = open_run(map, &ENGINES[e], 0.0);
      ck_assert_int_eq(arcnav_find_path(run.query, (vec){-16, -16}, (vec){24, 16}, path),
                       ARCNAV_OK);
      sup_verify_report report;
      ck_assert_msg(sup_verify_path(&met, 0.0, eps, (vec){-16, -16}, (vec){24, 16}, path, &report),
                    "%s, point obstacle %d: %s", ENGINES[e].name, with_point, report.message);
      if (e == 0) {
        lengths[with_point] = arcnav_path_length(path);
      }
      close_run(&run);
    }
    arcnav_map_destroy(map);
    sup_map_free(&met);
  }
  ck_assert_double_eq_tol(lengths[1], lengths[0], 1e-9 * lengths[0]);

  // Two obstacles whose vertices at a pinch lie 2e-16 apart, less than the tolerance: they meet
  // there all the same. From the sector right of the pinch to the one left of it every engine
  // goes round an obstacle, and the exact ones agree on the length.
  sup_map near;
  sup_map_init(&near);
  sup_map_add_rect(&near, 0, -9, 2.5, 10);
  const vec spire[4] = {{-2e-16, 10}, {5.6, 16.3}, {-0.34, 13.6}, {-1, 11}};
  sup_map_add_polygon(&near, spire, 4, NULL, NULL, 0);
  ck_assert_int_eq(sup_map_to_arcnav(&near, &map), ARCNAV_OK);
  eps = arcnav_map_tolerance(map);
  double exact_length = 0.0;
  for (size_t e = 0; e < ENGINE_COUNT; ++e) {
    engine_run run = open_run(map, &ENGINES[e], 0.0);
    ck_assert_int_eq(arcnav_find_path(run.query, (vec){2.5, 10.5}, (vec){-2, 5}, path), ARCNAV_OK);
    sup_verify_report report;
    ck_assert_msg(sup_verify_path(&near, 0.0, eps, (vec){2.5, 10.5}, (vec){-2, 5}, path, &report),
                  "%s: %s", ENGINES[e].name, report.message);
    if (ENGINES[e].optimal) {
      if (exact_length == 0.0) {
        exact_length = arcnav_path_length(path);
      }
      ck_assert_msg(fabs(arcnav_path_length(path) - exact_length) <= 1e-9 * exact_length,
                    "%s: %.17g against %.17g", ENGINES[e].name, arcnav_path_length(path),
                    exact_length);
    }
    close_run(&run);
  }
  arcnav_map_destroy(map);
  sup_map_free(&near);

  // A triangle's side and a spike's side on the line x = -0.25, 2e-16 apart: a seam within the
  // tolerance, with the spike's tip on the triangle's side. From the left of the triangle to the
  // right of the spike no engine runs along the seam.
  sup_map seam_near;
  sup_map_init(&seam_near);
  const vec wedge_left[3] = {
      {-2.3, 8.1}, {-0.24999999999999989, 0.433}, {-0.25000000000000022, -0.433}};
  const vec spike_right[3] = {{-0.25, -0.25}, {-0.25, -22.25}, {0, 0}};
  sup_map_add_polygon(&seam_near, wedge_left, 3, NULL, NULL, 0);
  sup_map_add_polygon(&seam_near, spike_right, 3, NULL, NULL, 0);
  ck_assert_int_eq(sup_map_to_arcnav(&seam_near, &map), ARCNAV_OK);
  eps = arcnav_map_tolerance(map);
  for (size_t e = 0; e < ENGINE_COUNT; ++e) {
    engine_run run = open_run(map, &ENGINES[e], 0.0);
    ck_assert_int_eq(arcnav_find_path(run.query, (vec){-0.75, 0}, (vec){4, 0}, path), ARCNAV_OK);
    sup_verify_report report;
    ck_assert_msg(
        sup_verify_path(&seam_near, 0.0, eps, (vec){-0.75, 0}, (vec){4, 0}, path, &report),
        "%s: %s", ENGINES[e].name, report.message);
    close_run(&run);
  }
  arcnav_map_destroy(map);
  sup_map_free(&seam_near);
  arcnav_path_destroy(path);
}
END_TEST

// The verifier and the reference must be able to fail on the rule: a path along a seam and one
// through a pinch are refused, and the reference goes round.
START_TEST(test_checks_see_the_touching_rule) {
  sup_map pinch = sup_gen_corner_squares();
  double eps = sup_map_tolerance(&pinch);
  arcnav_piece through[1] = {test_line_piece((vec){5, 15}, (vec){15, 5})};
  sup_verify_report report;
  ck_assert(!sup_verify_pieces(&pinch, 0.0, eps, (vec){5, 15}, (vec){15, 5}, through, 1,
                               through[0].length, &report));
  // Sliding along one square's top onto the other's bottom also passes between them.
  arcnav_piece slide[1] = {test_line_piece((vec){5, 10}, (vec){15, 10})};
  ck_assert(!sup_verify_pieces(&pinch, 0.0, eps, (vec){5, 10}, (vec){15, 10}, slide, 1,
                               slide[0].length, &report));
  // Turning at the pinch from one side to the other.
  arcnav_piece turn[2] = {test_line_piece((vec){5, 15}, (vec){10, 10}),
                          test_line_piece((vec){10, 10}, (vec){15, 5})};
  turn[1].from = turn[0].to;
  ck_assert(!sup_verify_pieces(&pinch, 0.0, eps, (vec){5, 15}, (vec){15, 5}, turn, 2,
                               turn[0].length + turn[1].length, &report));
  // Touching the pinch and going back to the same side is allowed.
  arcnav_piece back[2] = {test_line_piece((vec){5, 15}, (vec){10, 10}),
                          test_line_piece((vec){10, 10}, (vec){5, 14})};
  ck_assert_msg(sup_verify_pieces(&pinch, 0.0, eps, (vec){5, 15}, (vec){5, 14}, back, 2,
                                  back[0].length + back[1].length, &report),
                "%s", report.message);
  sup_reference_result r = sup_reference_shortest(&pinch, 0.0, (vec){5, 15}, (vec){15, 5}, NULL);
  ck_assert(r.found);
  ck_assert_double_eq_tol(r.length, 2.0 * sqrt(50.0) + 20.0, 1e-9);
  // From the pinch itself both sides are a straight line away.
  r = sup_reference_shortest(&pinch, 0.0, (vec){10, 10}, (vec){15, 5}, NULL);
  ck_assert_double_eq_tol(r.length, sqrt(50.0), 1e-9);
  r = sup_reference_shortest(&pinch, 0.0, (vec){5, 15}, (vec){10, 10}, NULL);
  ck_assert_double_eq_tol(r.length, sqrt(50.0), 1e-9);
  sup_map_free(&pinch);

  // Along a circle's rim through the point where a rectangle's side touches it: the path passes
  // between the two. Touching the rim there and turning back is allowed; so is the way round the
  // circle's far side, over a point obstacle on the rim (a point has no material of its own).
  sup_map rim;
  sup_map_init(&rim);
  sup_map_add_rect(&rim, 6, -2, 20, 1);
  sup_map_add_circle(&rim, (vec){3, 0}, 3.0);
  sup_map_add_circle(&rim, (vec){0, 0}, 0.0);
  beside_circle beside = ends_beside_circle();
  double near_angle = beside.near_angle, far_angle = beside.far_angle;
  vec low = {3.0 + 3.0 * cos(near_angle), -3.0 * sin(near_angle)};
  vec high = {low.x, -low.y};
  arcnav_piece over[3] = {test_line_piece((vec){5, -3.5}, low),
                          test_arc_piece((vec){3, 0}, 3.0, low, high, 2.0 * near_angle, true),
                          test_line_piece(high, (vec){5, 3.5})};
  ck_assert(!sup_verify_pieces(&rim, 0.0, eps, (vec){5, -3.5}, (vec){5, 3.5}, over, 3,
                               over[0].length + over[1].length + over[2].length, &report));
  ck_assert_msg(strstr(report.message, "passes between") != NULL, "%s", report.message);
  vec far_low = {3.0 + 3.0 * cos(far_angle), -3.0 * sin(far_angle)};
  vec far_high = {far_low.x, -far_low.y};
  arcnav_piece round[3] = {
      test_line_piece((vec){5, -3.5}, far_low),
      test_arc_piece((vec){3, 0}, 3.0, far_low, far_high, 2.0 * TEST_PI - 2.0 * far_angle, false),
      test_line_piece(far_high, (vec){5, 3.5})};
  ck_assert_msg(sup_verify_pieces(&rim, 0.0, eps, (vec){5, -3.5}, (vec){5, 3.5}, round, 3,
                                  round[0].length + round[1].length + round[2].length, &report),
                "%s", report.message);
  arcnav_piece touch_back[2] = {
      test_arc_piece((vec){3, 0}, 3.0, low, (vec){6, 0}, near_angle, true),
      test_arc_piece((vec){3, 0}, 3.0, (vec){6, 0}, low, near_angle, false)};
  ck_assert_msg(sup_verify_pieces(&rim, 0.0, eps, low, low, touch_back, 2,
                                  touch_back[0].length + touch_back[1].length, &report),
                "%s", report.message);
  sup_map_free(&rim);

  sup_map shared;
  sup_map_init(&shared);
  sup_map_add_rect(&shared, 0, 0, 10, 10);
  sup_map_add_rect(&shared, 10, 0, 20, 10);
  arcnav_piece seam[1] = {test_line_piece((vec){10, 12}, (vec){10, -2})};
  ck_assert(!sup_verify_pieces(&shared, 0.0, eps, (vec){10, 12}, (vec){10, -2}, seam, 1,
                               seam[0].length, &report));
  ck_assert(sup_walled_in(&shared, (vec){10, 5}, sup_touch_probe_radius(&shared)));
  ck_assert(!sup_walled_in(&shared, (vec){10, 10}, sup_touch_probe_radius(&shared)));
  r = sup_reference_shortest(&shared, 0.0, (vec){10, 12}, (vec){10, -2}, NULL);
  ck_assert(r.found);
  ck_assert_double_eq_tol(r.length, 2.0 * sqrt(104.0) + 10.0, 1e-9);
  sup_map_free(&shared);

  // A sliver of material 0.001 rad wide (far below the sampling step) leaving the vertex (0, 0)
  // that a triangle on the left shares: the two free wedges above and below are two sectors, and
  // the way from one to the other goes round the sliver's far end, not through the vertex between
  // the two obstacles.
  sup_map sliver;
  sup_map_init(&sliver);
  const vec left[3] = {{0, 0}, {-10, 10}, {-10, -10}};
  const vec thin[3] = {{0, 0}, {10, -0.005}, {10, 0.005}};
  sup_map_add_polygon(&sliver, left, 3, NULL, NULL, 0);
  sup_map_add_polygon(&sliver, thin, 3, NULL, NULL, 0);
  sup_sector sectors[4];
  ck_assert_uint_eq(
      sup_free_sectors(&sliver, (vec){0, 0}, sup_touch_probe_radius(&sliver), sectors, 4), 2);
  r = sup_reference_shortest(&sliver, 0.0, (vec){1, 1}, (vec){1, -1}, NULL);
  ck_assert(r.found);
  ck_assert_double_eq_tol(r.length, 2.0 * hypot(9.0, 0.995) + 0.01, 1e-9);
  sup_map_free(&sliver);

  // A crack of 0.001 rad (far below the 720-direction sampling step) cut into a square: its apex
  // is free, one side of its two edges being free space, and only the classification of the
  // wedges between the edges meeting there sees it; a point on one of its edges, next to the
  // apex, is free the same way, and a point in the solid part is walled in.
  sup_map crack;
  sup_map_init(&crack);
  const vec notched[7] = {{0, 0},    {10, -0.005}, {10, -10},  {-10, -10},
                          {-10, 10}, {10, 10},     {10, 0.005}};
  sup_map_add_polygon(&crack, notched, 7, NULL, NULL, 0);
  double crack_probe = sup_touch_probe_radius(&crack);
  ck_assert(!sup_walled_in(&crack, (vec){0, 0}, crack_probe));
  ck_assert(!sup_walled_in(&crack, (vec){1, -0.0005}, crack_probe));
  ck_assert(sup_walled_in(&crack, (vec){-5, 0}, crack_probe));
  sup_map_free(&crack);
}
END_TEST

static Suite *touching_suite(void) {
  Suite *suite = suite_create("touching");
  TCase *tc = tcase_create("touching");
  tcase_set_timeout(tc, 600);
  tcase_add_test(tc, test_checks_see_the_touching_rule);
  tcase_add_test(tc, test_touching_rule_by_hand);
  tcase_add_test(tc, test_every_engine_follows_the_touching_rule);
  tcase_add_test(tc, test_tangent_ways_agree_beside_touching_obstacles);
  suite_add_tcase(suite, tc);
  return suite;
}

int main(void) {
  return test_run_suite(touching_suite());
}
