// SPDX-License-Identifier: MIT
// Point agents through the public API: the optimal funnel must find the same length as the
// visibility graph (the tangent engine at R = 0, a different algorithm over different data), the
// plain first-channel funnel is never shorter, and every path passes the independent verifier.
// For R > 0 the funnel engines plan on obstacles grown by R with polygonal corners (an eroded
// navmesh): checked against grown rectangles computed here, against the original obstacles' signed
// distance, and against the exact tangent engine's length.
#include "arcnav_test.h"
#include "mapgen.h"
#include "verify.h"

#include <stdio.h>
#include <stdlib.h>

typedef struct engine_run {
  arcnav_planner *planner;
  arcnav_query *query;
} engine_run;

static engine_run open_engine_at(const arcnav_map *map, arcnav_engine engine, double radius) {
  engine_run run = {NULL, NULL};
  arcnav_planner_def def = arcnav_default_planner_def();
  def.engine = engine;
  def.radius = radius;
  ck_assert_int_eq(arcnav_planner_create(map, &def, &run.planner), ARCNAV_OK);
  ck_assert_int_eq(arcnav_planner_engine(run.planner), engine);
  ck_assert_int_eq(arcnav_query_create(run.planner, &run.query), ARCNAV_OK);
  return run;
}

static engine_run open_engine(const arcnav_map *map, arcnav_engine engine) {
  return open_engine_at(map, engine, 0.0);
}

static void close_engine(engine_run *run) {
  arcnav_query_destroy(run->query);
  arcnav_planner_destroy(run->planner);
}

// Polygon-only maps: rectangles that may overlap, or the mixed generator's polygons (convex,
// star-shaped, with holes) without its circles.
static sup_map polygon_map(uint64_t seed) {
  if (seed % 2 == 0) {
    return sup_gen_random_rectangles(seed, 8 + seed % 12, 300.0, 10.0, 60.0);
  }
  sup_map map = sup_gen_mixed(seed, 5 + seed % 8, 100.0, 3.0);
  map.circle_count = 0;
  return map;
}

START_TEST(test_funnel_matches_visibility_graph) {
  size_t compared = 0, plain_longer = 0;
  double worst_plain_ratio = 1.0;
  for (uint64_t seed = 1; seed <= test_scaled_count(60); ++seed) {
    sup_map generated = polygon_map(seed);
    arcnav_map *map = NULL;
    ck_assert_int_eq(sup_map_to_arcnav(&generated, &map), ARCNAV_OK);
    double eps = arcnav_map_tolerance(map);
    engine_run exact = open_engine(map, ARCNAV_ENGINE_TANGENT);
    engine_run funnel = open_engine(map, ARCNAV_ENGINE_FUNNEL);
    engine_run plain = open_engine(map, ARCNAV_ENGINE_PLAIN_FUNNEL);
    arcnav_path *path = NULL;
    ck_assert_int_eq(arcnav_path_create(NULL, &path), ARCNAV_OK);
    arcnav_vec2 lo, hi;
    ck_assert(sup_map_extent(&generated, &lo, &hi));
    sup_rng rng = sup_rng_seed(seed * 7919);
    for (int q = 0; q < 10; ++q) {
      arcnav_vec2 a, b;
      if (!sup_random_free_point(&generated, 0.0, &rng, lo, hi, 0.0, 500, &a) ||
          !sup_random_free_point(&generated, 0.0, &rng, lo, hi, 0.0, 500, &b)) {
        continue;
      }
      arcnav_status exact_status = arcnav_find_path(exact.query, a, b, path);
      double exact_length = arcnav_path_length(path);
      arcnav_status funnel_status = arcnav_find_path(funnel.query, a, b, path);
      double funnel_length = arcnav_path_length(path);
      sup_verify_report report;
      if (funnel_status == ARCNAV_OK) {
        ck_assert_msg(sup_verify_path(&generated, 0.0, eps, a, b, path, &report),
                      "seed %llu query %d: funnel path invalid: %s", (unsigned long long)seed, q,
                      report.message);
      }
      arcnav_status plain_status = arcnav_find_path(plain.query, a, b, path);
      double plain_length = arcnav_path_length(path);
      if (plain_status == ARCNAV_OK) {
        ck_assert_msg(sup_verify_path(&generated, 0.0, eps, a, b, path, &report),
                      "seed %llu query %d: plain funnel path invalid: %s", (unsigned long long)seed,
                      q, report.message);
      }
      ck_assert_msg(funnel_status == exact_status && plain_status == exact_status,
                    "seed %llu query %d: tangent %s, funnel %s, plain %s", (unsigned long long)seed,
                    q, arcnav_status_name(exact_status), arcnav_status_name(funnel_status),
                    arcnav_status_name(plain_status));
      if (exact_status != ARCNAV_OK) {
        continue;
      }
      ck_assert_msg(fabs(funnel_length - exact_length) <= 1e-9 * exact_length,
                    "seed %llu query %d: funnel %.17g vs visibility graph %.17g",
                    (unsigned long long)seed, q, funnel_length, exact_length);
      ck_assert_msg(plain_length >= funnel_length * (1.0 - 1e-12),
                    "seed %llu query %d: plain %.17g shorter than optimal %.17g",
                    (unsigned long long)seed, q, plain_length, funnel_length);
      compared++;
      if (plain_length > funnel_length * (1.0 + 1e-9)) {
        plain_longer++;
      }
      if (exact_length > 0.0 && plain_length / exact_length > worst_plain_ratio) {
        worst_plain_ratio = plain_length / exact_length;
      }
    }
    arcnav_path_destroy(path);
    close_engine(&exact);
    close_engine(&funnel);
    close_engine(&plain);
    arcnav_map_destroy(map);
    generated.circle_count = 0;
    sup_map_free(&generated);
  }
  printf("engines: %zu queries compared, plain funnel longer on %zu, worst ratio %.4f\n", compared,
         plain_longer, worst_plain_ratio);
  ck_assert_uint_ge(compared, test_scaled_minimum(500, 60));
}
END_TEST

START_TEST(test_auto_engine_choice) {
  arcnav_map *map = NULL;
  ck_assert_int_eq(arcnav_map_create(NULL, &map), ARCNAV_OK);
  ck_assert_int_eq(test_add_box(map, 0, 0, 10, 10), ARCNAV_OK);
  arcnav_planner_def def = arcnav_default_planner_def();
  arcnav_planner *planner = NULL;
  ck_assert_int_eq(arcnav_planner_create(map, &def, &planner), ARCNAV_OK);
  ck_assert_int_eq(arcnav_planner_engine(planner), ARCNAV_ENGINE_FUNNEL);
  ck_assert_uint_gt(arcnav_planner_triangle_count(planner), 0);
  arcnav_vec2 corners[3];
  ck_assert(arcnav_planner_triangle(planner, 0, corners));
  ck_assert(!arcnav_planner_triangle(planner, arcnav_planner_triangle_count(planner), corners));
  arcnav_planner_destroy(planner);
  def.radius = 1.0;
  ck_assert_int_eq(arcnav_planner_create(map, &def, &planner), ARCNAV_OK);
  ck_assert_int_eq(arcnav_planner_engine(planner), ARCNAV_ENGINE_TANGENT);
  arcnav_planner_destroy(planner);
  // Asked for explicitly, the funnel answers at R > 0 too (on grown obstacles).
  def.engine = ARCNAV_ENGINE_FUNNEL;
  ck_assert_int_eq(arcnav_planner_create(map, &def, &planner), ARCNAV_OK);
  ck_assert_int_eq(arcnav_planner_engine(planner), ARCNAV_ENGINE_FUNNEL);
  ck_assert_uint_gt(arcnav_planner_triangle_count(planner), 0);
  arcnav_planner_destroy(planner);
  // A circle obstacle keeps point agents on the exact tangent engine.
  ck_assert_int_eq(arcnav_map_add_circle(map, (arcnav_vec2){20, 5}, 2, NULL), ARCNAV_OK);
  def = arcnav_default_planner_def();
  ck_assert_int_eq(arcnav_planner_create(map, &def, &planner), ARCNAV_OK);
  ck_assert_int_eq(arcnav_planner_engine(planner), ARCNAV_ENGINE_TANGENT);
  arcnav_planner_destroy(planner);
  arcnav_map_destroy(map);
}
END_TEST

// --- funnel engines at R > 0: the eroded navmesh -------------------------------------------------

// Rectangles keep their shape when grown: every corner turns by 90 degrees, which the growth
// miters, so each grown obstacle is the rectangle widened by R on every side.
typedef struct grown_rects {
  double (*box)[4]; // x0, y0, x1, y1
  size_t count;
} grown_rects;

static grown_rects grow_rectangles(const sup_map *map, double R) {
  grown_rects g = {calloc(map->polygon_count, sizeof *g.box), map->polygon_count};
  ck_assert_ptr_nonnull(g.box);
  for (size_t i = 0; i < map->polygon_count; ++i) {
    const sup_ring *ring = &map->polygons[i].outer;
    ck_assert_uint_eq(ring->count, 4);
    double x0 = INFINITY, y0 = INFINITY, x1 = -INFINITY, y1 = -INFINITY;
    for (size_t k = 0; k < ring->count; ++k) {
      x0 = fmin(x0, ring->points[k].x);
      y0 = fmin(y0, ring->points[k].y);
      x1 = fmax(x1, ring->points[k].x);
      y1 = fmax(y1, ring->points[k].y);
    }
    g.box[i][0] = x0 - R;
    g.box[i][1] = y0 - R;
    g.box[i][2] = x1 + R;
    g.box[i][3] = y1 + R;
  }
  return g;
}

// How deep p lies inside the union of the grown rectangles (<= 0 outside all of them).
static double grown_depth(const grown_rects *g, arcnav_vec2 p) {
  double depth = -INFINITY;
  for (size_t i = 0; i < g->count; ++i) {
    double d = fmin(fmin(p.x - g->box[i][0], g->box[i][2] - p.x),
                    fmin(p.y - g->box[i][1], g->box[i][3] - p.y));
    depth = fmax(depth, d);
  }
  return depth;
}

// Dense samples of a found path into a caller-freed array.
static arcnav_vec2 *sample_path(const arcnav_path *path, double spacing, size_t *count) {
  // A zero-sized buffer only asks for the size.
  (void)arcnav_path_sample(path, spacing, NULL, 0, count);
  ck_assert_uint_gt(*count, 0);
  arcnav_vec2 *points = malloc(*count * sizeof *points);
  ck_assert_ptr_nonnull(points);
  ck_assert_int_eq(arcnav_path_sample(path, spacing, points, *count, count), ARCNAV_OK);
  return points;
}

START_TEST(test_eroded_funnel_on_rectangles) {
  static const double radii[] = {2.0, 9.0};
  size_t found = 0, blocked_checked = 0;
  for (uint64_t seed = 1; seed <= test_scaled_count(8); ++seed) {
    sup_map generated = sup_gen_random_rectangles(seed, 10 + seed % 10, 300.0, 10.0, 60.0);
    arcnav_map *map = NULL;
    ck_assert_int_eq(sup_map_to_arcnav(&generated, &map), ARCNAV_OK);
    double R = radii[seed % 2];
    grown_rects g = grow_rectangles(&generated, R);
    // The same grown rectangles as a map of their own, planned for a point: the optimal eroded
    // funnel must give exactly that shortest path.
    sup_map grown_map;
    sup_map_init(&grown_map);
    for (size_t i = 0; i < g.count; ++i) {
      sup_map_add_rect(&grown_map, g.box[i][0], g.box[i][1], g.box[i][2], g.box[i][3]);
    }
    arcnav_map *point_map = NULL;
    ck_assert_int_eq(sup_map_to_arcnav(&grown_map, &point_map), ARCNAV_OK);
    engine_run exact = open_engine_at(map, ARCNAV_ENGINE_TANGENT, R);
    engine_run funnel = open_engine_at(map, ARCNAV_ENGINE_FUNNEL, R);
    engine_run plain = open_engine_at(map, ARCNAV_ENGINE_PLAIN_FUNNEL, R);
    engine_run point = open_engine_at(point_map, ARCNAV_ENGINE_TANGENT, 0.0);
    arcnav_path *path = NULL;
    ck_assert_int_eq(arcnav_path_create(NULL, &path), ARCNAV_OK);
    double tol = 1e-7 * 300.0;
    // Without bounds the navmesh covers a box a little larger than the obstacles: stay inside.
    arcnav_vec2 lo, hi;
    ck_assert(sup_map_extent(&generated, &lo, &hi));
    sup_rng rng = sup_rng_seed(seed * 31);
    // Start and goal judgement: inside a grown rectangle is blocked, outside free.
    for (int k = 0; k < 200; ++k) {
      arcnav_vec2 p = {sup_rng_uniform(&rng, lo.x, hi.x), sup_rng_uniform(&rng, lo.y, hi.y)};
      double depth = grown_depth(&g, p);
      if (fabs(depth) < 1e-6) {
        continue;
      }
      ck_assert_msg(arcnav_planner_point_is_free(funnel.planner, p) == (depth < 0.0),
                    "seed %llu: (%g, %g) depth %g", (unsigned long long)seed, p.x, p.y, depth);
      arcnav_status status = arcnav_find_path(funnel.query, p, p, path);
      ck_assert_int_eq(status, depth < 0.0 ? ARCNAV_OK : ARCNAV_START_BLOCKED);
      blocked_checked++;
    }
    for (int q = 0; q < 25; ++q) {
      arcnav_vec2 a = {sup_rng_uniform(&rng, lo.x, hi.x), sup_rng_uniform(&rng, lo.y, hi.y)};
      arcnav_vec2 b = {sup_rng_uniform(&rng, lo.x, hi.x), sup_rng_uniform(&rng, lo.y, hi.y)};
      double da = grown_depth(&g, a), db = grown_depth(&g, b);
      if (fabs(da) < 1e-6 || fabs(db) < 1e-6) {
        continue;
      }
      arcnav_status expected = da > 0.0   ? ARCNAV_START_BLOCKED
                               : db > 0.0 ? ARCNAV_GOAL_BLOCKED
                                          : ARCNAV_OK;
      arcnav_status point_status = arcnav_find_path(point.query, a, b, path);
      double point_length = arcnav_path_length(path);
      arcnav_status exact_status = arcnav_find_path(exact.query, a, b, path);
      double exact_length = arcnav_path_length(path);
      for (int e = 0; e < 2; ++e) {
        engine_run *run = e == 0 ? &funnel : &plain;
        arcnav_status status = arcnav_find_path(run->query, a, b, path);
        if (expected != ARCNAV_OK) {
          ck_assert_int_eq(status, expected);
          continue;
        }
        ck_assert_int_eq(status, point_status);
        if (status != ARCNAV_OK) {
          continue;
        }
        // A path around the grown rectangles keeps R from the rectangles, so the exact engine
        // finds one too, and no shorter than this one.
        ck_assert_int_eq(exact_status, ARCNAV_OK);
        double length = arcnav_path_length(path);
        ck_assert_msg(length >= exact_length - tol, "seed %llu query %d: %.17g < exact %.17g",
                      (unsigned long long)seed, q, length, exact_length);
        if (e == 0) {
          ck_assert_msg(fabs(length - point_length) <= 1e-9 * point_length,
                        "seed %llu query %d: eroded funnel %.17g vs grown map %.17g",
                        (unsigned long long)seed, q, length, point_length);
          found++;
        } else {
          ck_assert(length >= point_length * (1.0 - 1e-12));
        }
        size_t n = 0;
        arcnav_vec2 *samples = sample_path(path, 0.5, &n);
        for (size_t i = 0; i < n; ++i) {
          ck_assert_msg(grown_depth(&g, samples[i]) <= tol,
                        "seed %llu query %d: (%g, %g) inside a grown rectangle",
                        (unsigned long long)seed, q, samples[i].x, samples[i].y);
        }
        free(samples);
      }
    }
    arcnav_path_destroy(path);
    close_engine(&exact);
    close_engine(&funnel);
    close_engine(&plain);
    close_engine(&point);
    arcnav_map_destroy(point_map);
    arcnav_map_destroy(map);
    sup_map_free(&grown_map);
    sup_map_free(&generated);
    free(g.box);
  }
  printf("eroded funnel on rectangles: %zu paths, %zu start/goal judgements\n", found,
         blocked_checked);
  ck_assert_uint_ge(found, test_scaled_minimum(60, 8));
  ck_assert_uint_ge(blocked_checked, test_scaled_minimum(800, 8));
}
END_TEST

// Mixed maps (convex and star-shaped polygons, holes, circles, bounds): the grown obstacles contain
// every point within R of an obstacle (miters, square bevels and circumscribed circles only add),
// so eroded funnel paths keep R by the verifier's own signed distance, and are never shorter than
// the exact path.
START_TEST(test_eroded_funnel_keeps_radius_on_mixed_maps) {
  size_t found = 0, exact_found = 0;
  for (uint64_t seed = 1; seed <= test_scaled_count(8); ++seed) {
    double R = seed % 2 ? 1.5 : 6.0;
    sup_map generated = sup_gen_mixed(seed, 6 + seed % 8, 120.0, R);
    arcnav_map *map = NULL;
    ck_assert_int_eq(sup_map_to_arcnav(&generated, &map), ARCNAV_OK);
    arcnav_vec2 lo, hi;
    ck_assert(sup_map_extent(&generated, &lo, &hi));
    double tol = 1e-7 * fmax(hi.x - lo.x, hi.y - lo.y);
    engine_run exact = open_engine_at(map, ARCNAV_ENGINE_TANGENT, R);
    engine_run funnel = open_engine_at(map, ARCNAV_ENGINE_FUNNEL, R);
    engine_run plain = open_engine_at(map, ARCNAV_ENGINE_PLAIN_FUNNEL, R);
    arcnav_path *path = NULL;
    ck_assert_int_eq(arcnav_path_create(NULL, &path), ARCNAV_OK);
    sup_rng rng = sup_rng_seed(seed * 101);
    for (int q = 0; q < 20; ++q) {
      arcnav_vec2 a, b;
      if (!sup_random_free_point(&generated, R, &rng, lo, hi, 0.0, 500, &a) ||
          !sup_random_free_point(&generated, R, &rng, lo, hi, 0.0, 500, &b)) {
        continue;
      }
      arcnav_status exact_status = arcnav_find_path(exact.query, a, b, path);
      double exact_length = arcnav_path_length(path);
      exact_found += exact_status == ARCNAV_OK;
      for (int e = 0; e < 2; ++e) {
        engine_run *run = e == 0 ? &funnel : &plain;
        arcnav_status status = arcnav_find_path(run->query, a, b, path);
        ck_assert(arcnav_status_is_answer(status));
        // A start inside a grown obstacle is blocked there: it must then be within R of an
        // obstacle by a corner's worth (miters reach R * sqrt(2), circles' polygons a little
        // beyond their circle).
        if (status == ARCNAV_START_BLOCKED || status == ARCNAV_GOAL_BLOCKED) {
          arcnav_vec2 p = status == ARCNAV_START_BLOCKED ? a : b;
          ck_assert_double_le(sup_signed_distance_to_obstacles(&generated, p), R * sqrt(2.0));
          continue;
        }
        if (status != ARCNAV_OK) {
          continue;
        }
        ck_assert_msg(exact_status == ARCNAV_OK, "seed %llu query %d: eroded found, exact %s",
                      (unsigned long long)seed, q, arcnav_status_name(exact_status));
        double length = arcnav_path_length(path);
        ck_assert_msg(length >= exact_length - tol, "seed %llu query %d: %.17g < exact %.17g",
                      (unsigned long long)seed, q, length, exact_length);
        size_t n = 0;
        arcnav_vec2 *samples = sample_path(path, R / 8.0, &n);
        for (size_t i = 0; i < n; ++i) {
          double d = sup_signed_distance_to_obstacles(&generated, samples[i]);
          ck_assert_msg(d >= R - tol,
                        "seed %llu query %d engine %d: clearance %.9g < R %g at (%g, %g)",
                        (unsigned long long)seed, q, e, d, R, samples[i].x, samples[i].y);
        }
        free(samples);
        found += e == 0;
      }
    }
    arcnav_path_destroy(path);
    close_engine(&exact);
    close_engine(&funnel);
    close_engine(&plain);
    arcnav_map_destroy(map);
    sup_map_free(&generated);
  }
  printf("eroded funnel: %zu of %zu exact answers found\n", found, exact_found);
  ck_assert_uint_ge(found, test_scaled_minimum(60, 8));
}
END_TEST

// Sharp corners, reflex notches narrower than 2R, a hole smaller than the agent and a bounds ring:
// the growth must stay usable (no failure) and keep R.
START_TEST(test_eroded_funnel_awkward_shapes) {
  sup_map m;
  sup_map_init(&m);
  // A comb: teeth 1 wide with slots 3 wide, for R = 2 the slots fill up.
  arcnav_vec2 comb[] = {{0, 0},   {20, 0}, {20, 10}, {19, 10}, {19, 2},  {16, 2}, {16, 10},
                        {15, 10}, {15, 2}, {12, 2},  {12, 10}, {11, 10}, {11, 2}, {0, 2}};
  sup_map_add_polygon(&m, comb, sizeof comb / sizeof comb[0], NULL, NULL, 0);
  // A needle: a very sharp convex corner.
  arcnav_vec2 needle[] = {{40, 0}, {70, 1}, {40, 2}};
  sup_map_add_polygon(&m, needle, 3, NULL, NULL, 0);
  // A ring with a hole too small for the agent.
  arcnav_vec2 shell[] = {{0, 30}, {20, 30}, {20, 50}, {0, 50}};
  arcnav_vec2 hole[] = {{9, 39}, {11, 39}, {11, 41}, {9, 41}};
  const arcnav_vec2 *holes[] = {hole};
  size_t hole_counts[] = {4};
  sup_map_add_polygon(&m, shell, 4, holes, hole_counts, 1);
  sup_map_add_circle(&m, (arcnav_vec2){50, 40}, 0.0);
  sup_map_add_circle(&m, (arcnav_vec2){35, 25}, 3.0);
  arcnav_vec2 bounds[] = {{-10, -10}, {90, -10}, {90, 60}, {45, 35}, {-10, 60}};
  sup_map_set_bounds(&m, bounds, 5);
  arcnav_map *map = NULL;
  ck_assert_int_eq(sup_map_to_arcnav(&m, &map), ARCNAV_OK);
  const double R = 2.0;
  engine_run funnel = open_engine_at(map, ARCNAV_ENGINE_FUNNEL, R);
  engine_run exact = open_engine_at(map, ARCNAV_ENGINE_TANGENT, R);
  arcnav_path *path = NULL;
  ck_assert_int_eq(arcnav_path_create(NULL, &path), ARCNAV_OK);
  // Inside the filled slot, inside the vanished hole, near the point obstacle: blocked.
  ck_assert(!arcnav_planner_point_is_free(funnel.planner, (arcnav_vec2){13.5, 8}));
  ck_assert(!arcnav_planner_point_is_free(funnel.planner, (arcnav_vec2){10, 40}));
  ck_assert(!arcnav_planner_point_is_free(funnel.planner, (arcnav_vec2){51, 41}));
  ck_assert(!arcnav_planner_point_is_free(funnel.planner, (arcnav_vec2){-9, 0}));
  ck_assert(arcnav_planner_point_is_free(funnel.planner, (arcnav_vec2){30, 10}));
  // Around the needle's tip and between the obstacles.
  arcnav_vec2 ends[][2] = {
      {{55, -5}, {55, 8}}, {{5, -6}, {5, 25}}, {{30, 10}, {80, 50}}, {{-5, 20}, {80, 5}}};
  for (size_t q = 0; q < sizeof ends / sizeof ends[0]; ++q) {
    ck_assert_int_eq(arcnav_find_path(exact.query, ends[q][0], ends[q][1], path), ARCNAV_OK);
    double exact_length = arcnav_path_length(path);
    ck_assert_int_eq(arcnav_find_path(funnel.query, ends[q][0], ends[q][1], path), ARCNAV_OK);
    ck_assert_double_ge(arcnav_path_length(path), exact_length - 1e-7);
    size_t n = 0;
    arcnav_vec2 *samples = sample_path(path, 0.1, &n);
    for (size_t i = 0; i < n; ++i) {
      ck_assert_double_ge(sup_signed_distance_to_obstacles(&m, samples[i]), R - 1e-7);
    }
    free(samples);
  }
  arcnav_path_destroy(path);
  close_engine(&funnel);
  close_engine(&exact);
  arcnav_map_destroy(map);
  sup_map_free(&m);
}
END_TEST

// Ends within the tolerance inside the offset line of an edge (free: the README's rule; the
// nearest free point lies half a tolerance inside), where every way on wraps a corner of that
// edge: each tangent engine finds the path, the verifier passes it, and it is as long as from the
// end raised onto the line, to about the tolerance.
START_TEST(test_ends_within_the_tolerance_reach_corners) {
  sup_map m;
  sup_map_init(&m);
  arcnav_vec2 bounds[4] = {{0, 0}, {90, 0}, {90, 90}, {0, 90}};
  sup_map_set_bounds(&m, bounds, 4);
  sup_map_add_rect(&m, 10, 45, 30, 65);
  sup_map_add_rect(&m, 5, 10, 80, 40);
  arcnav_map *map = NULL;
  ck_assert_int_eq(sup_map_to_arcnav(&m, &map), ARCNAV_OK);
  double eps = arcnav_map_tolerance(map), R = 1.0;
  const arcnav_tangent_graph graphs[2] = {ARCNAV_TANGENT_GRAPH_PREBUILT,
                                          ARCNAV_TANGENT_GRAPH_ON_DEMAND};
  arcnav_path *path = NULL, *raised = NULL;
  ck_assert_int_eq(arcnav_path_create(NULL, &path), ARCNAV_OK);
  ck_assert_int_eq(arcnav_path_create(NULL, &raised), ARCNAV_OK);
  // Far from the room, below the lower block: on from above the room's top, the path must wrap
  // one of its top corners and go round the block.
  arcnav_vec2 far = {85, 5};
  for (int g = 0; g < 3; ++g) {
    arcnav_planner_def def = arcnav_default_planner_def();
    def.engine = ARCNAV_ENGINE_TANGENT;
    def.tangent_graph = graphs[g % 2];
    def.radius = R;
    if (g == 2) { // one planner for every radius up to 2
      def.engine = ARCNAV_ENGINE_AUTO;
      def.radius = 0.0;
      def.max_radius = 2.0;
    }
    arcnav_planner *planner = NULL;
    arcnav_query *query = NULL;
    ck_assert_int_eq(arcnav_planner_create(map, &def, &planner), ARCNAV_OK);
    ck_assert_int_eq(arcnav_query_create(planner, &query), ARCNAV_OK);
    ck_assert_int_eq(arcnav_query_set_radius(query, R), ARCNAV_OK);
    const double depths[] = {0.25, 0.5, 0.9};
    const double xs[] = {12.0, 21.5, 29.5};
    for (size_t d = 0; d < 3; ++d) {
      for (size_t k = 0; k < 3; ++k) {
        arcnav_vec2 end = {xs[k], 65.0 + R - depths[d] * eps}, top = {xs[k], 65.0 + R};
        ck_assert(arcnav_query_point_is_free(query, end));
        ck_assert_int_eq(arcnav_find_path(query, top, far, raised), ARCNAV_OK);
        for (int reverse = 0; reverse < 2; ++reverse) {
          arcnav_vec2 a = reverse ? far : end, b = reverse ? end : far;
          ck_assert_msg(arcnav_find_path(query, a, b, path) == ARCNAV_OK,
                        "planner %d, end (%.17g, %.17g), reverse %d: no path", g, end.x, end.y,
                        reverse);
          sup_verify_report report;
          ck_assert_msg(sup_verify_path(&m, R, eps, a, b, path, &report), "planner %d: %s", g,
                        report.message);
          ck_assert_msg(fabs(arcnav_path_length(path) - arcnav_path_length(raised)) <= 4.0 * eps,
                        "planner %d, end (%.17g, %.17g), reverse %d: length %.17g, from the line "
                        "%.17g",
                        g, end.x, end.y, reverse, arcnav_path_length(path),
                        arcnav_path_length(raised));
        }
      }
    }
    arcnav_query_destroy(query);
    arcnav_planner_destroy(planner);
  }
  arcnav_path_destroy(raised);
  arcnav_path_destroy(path);
  arcnav_map_destroy(map);
  sup_map_free(&m);
}
END_TEST

static Suite *engines_suite(void) {
  Suite *suite = suite_create("engines");
  TCase *tc = tcase_create("point agents");
  tcase_set_timeout(tc, 300);
  tcase_add_test(tc, test_funnel_matches_visibility_graph);
  tcase_add_test(tc, test_auto_engine_choice);
  tcase_add_test(tc, test_eroded_funnel_on_rectangles);
  tcase_add_test(tc, test_eroded_funnel_keeps_radius_on_mixed_maps);
  tcase_add_test(tc, test_eroded_funnel_awkward_shapes);
  tcase_add_test(tc, test_ends_within_the_tolerance_reach_corners);
  suite_add_tcase(suite, tc);
  return suite;
}

int main(void) {
  return test_run_suite(engines_suite());
}
