// SPDX-License-Identifier: MIT
// The interval engine (ARCNAV_ENGINE_INTERVAL), black box, through the public API only. Its every
// answer for R > 0 is compared with the tangent engine's over its prebuilt graph (a different
// search over differently built data, itself checked against the brute-force reference by
// test_property): the same status, and lengths equal to 1e-9 relative; and every path it finds
// passes the independent verifier (support/verify.c). Nothing expected is ever taken from the
// engine under test: the other answers come from the tangent engine, from the funnel (what
// ARCNAV_ENGINE_AUTO builds for a point agent), or from geometry worked out here by hand.
//
// Covered: random maps of every generator (rectangles, mixed polygons and circles with and
// without bounds, towns with alleys about 2R wide, mazes with corridors of exactly 2R, the NEERC
// worst case with gaps of exactly 2R, touching obstacles), ends at random and ends exactly R from
// a wall; traced game grids (caves and rooms, every run of blocked cells a rectangle, so that
// obstacles share edges and meet at corners); one planner for several radii (max_radius) against
// planners of one radius; gaps of exactly 2R and 2R - 3 eps, corridors one cell wide, a pinch, a
// square, a circle and a reflex corner of the bounds wrapped, with lengths computed here; sliced
// searches against the whole search, bit for bit; the expansion limit; every status; partial
// answers and the nearest reachable point; planners brought up to date after the map changed;
// units and ignore lists; and the engine the planner reports.
//
// ARCNAV_TEST_SCALE (see arcnav_test.h) shrinks the randomised loops for sanitizer and valgrind
// runs.
#include "arcnav_test.h"
#include "mapgen.h"
#include "verify.h"

#include <stdio.h>
#include <stdlib.h>

typedef arcnav_vec2 vec;

// --- planners and the comparison of one query ---------------------------------------------------

typedef struct engine_run {
  arcnav_planner *planner;
  arcnav_query *query;
  arcnav_path *path;
} engine_run;

/// A planner of `engine` at `radius` (with `max_radius` > 0: every radius up to it), its query
/// object and a path. The tangent engine always gets its prebuilt graph.
static engine_run open_run(const arcnav_map *map, arcnav_engine engine, double radius,
                           double max_radius) {
  engine_run run = {NULL, NULL, NULL};
  arcnav_planner_def def = arcnav_default_planner_def();
  def.engine = engine;
  def.radius = radius;
  def.max_radius = max_radius;
  if (engine == ARCNAV_ENGINE_TANGENT) {
    def.tangent_graph = ARCNAV_TANGENT_GRAPH_PREBUILT;
  }
  ck_assert_int_eq(arcnav_planner_create(map, &def, &run.planner), ARCNAV_OK);
  ck_assert_int_eq(arcnav_query_create(run.planner, &run.query), ARCNAV_OK);
  ck_assert_int_eq(arcnav_path_create(NULL, &run.path), ARCNAV_OK);
  return run;
}

static engine_run open_interval(const arcnav_map *map, double radius) {
  engine_run run = open_run(map, ARCNAV_ENGINE_INTERVAL, radius, 0.0);
  ck_assert_int_eq(arcnav_planner_engine(run.planner), ARCNAV_ENGINE_INTERVAL);
  return run;
}

static engine_run open_tangent(const arcnav_map *map, double radius) {
  return open_run(map, ARCNAV_ENGINE_TANGENT, radius, 0.0);
}

static void close_run(engine_run *run) {
  arcnav_path_destroy(run->path);
  arcnav_query_destroy(run->query);
  arcnav_planner_destroy(run->planner);
  *run = (engine_run){NULL, NULL, NULL};
}

typedef struct tally {
  size_t queries, found, no_path, blocked, touching_ends;
} tally;

static bool lengths_agree(double want, double got) {
  return fabs(want - got) <= 1e-9 * fmax(1.0, fabs(want));
}

/// Does the path start at s and end at g exactly (arcnav.h: "the query's start and goal when
/// found"), its first piece from s and its last to g? Where the pieces meet is left to the
/// verifier (within the tolerance): the tangent engine's pieces may meet an ulp apart.
static bool ends_exact(const arcnav_path *path, vec s, vec g) {
  vec start = arcnav_path_start(path), end = arcnav_path_end(path);
  if (start.x != s.x || start.y != s.y || end.x != g.x || end.y != g.y) {
    return false;
  }
  size_t count = arcnav_path_piece_count(path);
  if (count == 0) {
    return true;
  }
  arcnav_piece first = arcnav_path_piece(path, 0), last = arcnav_path_piece(path, count - 1);
  if (first.from.x != s.x || first.from.y != s.y || last.to.x != g.x || last.to.y != g.y) {
    return false;
  }
  // Consecutive pieces share their ends exactly (arcnav.h, arcnav_piece).
  for (size_t i = 1; i < count; ++i) {
    arcnav_piece before = arcnav_path_piece(path, i - 1), after = arcnav_path_piece(path, i);
    if (before.to.x != after.from.x || before.to.y != after.from.y) {
      return false;
    }
  }
  return true;
}

/// One query on both engines: `want` (the reference: the prebuilt tangent engine, or AUTO at
/// R = 0) and `got` (the interval engine), each at radius R on its query object. The statuses
/// (and, with `free_tests`, the free tests of the ends) must agree, the lengths to 1e-9 relative,
/// and the interval engine's path must begin and end exactly at the ends and pass the verifier
/// on `m`. Returns the status.
static arcnav_status compare_query_ex(const sup_map *m, const char *label, uint64_t seed, double R,
                                      engine_run *want, engine_run *got, vec s, vec g, tally *t,
                                      bool free_tests) {
  ck_assert(arcnav_query_radius(got->query) == R);
  ck_assert(arcnav_query_radius(want->query) == R);
  ck_assert_msg(!free_tests || arcnav_query_point_is_free(want->query, s) ==
                                   arcnav_query_point_is_free(got->query, s),
                "%s seed %llu R %.17g: free test of the start (%.17g, %.17g) differs", label,
                (unsigned long long)seed, R, s.x, s.y);
  ck_assert_msg(!free_tests || arcnav_query_point_is_free(want->query, g) ==
                                   arcnav_query_point_is_free(got->query, g),
                "%s seed %llu R %.17g: free test of the goal (%.17g, %.17g) differs", label,
                (unsigned long long)seed, R, g.x, g.y);
  arcnav_status expected = arcnav_find_path(want->query, s, g, want->path);
  arcnav_status status = arcnav_find_path(got->query, s, g, got->path);
  if (t != NULL) {
    t->queries++;
  }
  ck_assert_msg(status == expected,
                "%s seed %llu R %.17g (%.17g, %.17g) -> (%.17g, %.17g): tangent %s, interval %s",
                label, (unsigned long long)seed, R, s.x, s.y, g.x, g.y,
                arcnav_status_name(expected), arcnav_status_name(status));
  if (status != ARCNAV_OK) {
    ck_assert_msg(arcnav_path_piece_count(got->path) == 0,
                  "%s seed %llu R %.17g: %s with %zu pieces", label, (unsigned long long)seed, R,
                  arcnav_status_name(status), arcnav_path_piece_count(got->path));
    if (t != NULL) {
      t->no_path += status == ARCNAV_NO_PATH;
      t->blocked += status == ARCNAV_START_BLOCKED || status == ARCNAV_GOAL_BLOCKED;
    }
    return status;
  }
  if (t != NULL) {
    t->found++;
  }
  // The verifier first, so that a length that differs says whether the path is still valid.
  sup_verify_report report;
  bool valid = sup_verify_path(m, R, sup_map_tolerance(m), s, g, got->path, &report);
  double a = arcnav_path_length(want->path), b = arcnav_path_length(got->path);
  ck_assert_msg(lengths_agree(a, b),
                "%s seed %llu R %.17g (%.17g, %.17g) -> (%.17g, %.17g): tangent %.17g, interval "
                "%.17g (%zu pieces, %s%s)",
                label, (unsigned long long)seed, R, s.x, s.y, g.x, g.y, a, b,
                arcnav_path_piece_count(got->path),
                valid ? "passes the verifier" : "invalid: ", valid ? "" : report.message);
  ck_assert_msg(valid,
                "%s seed %llu R %.17g (%.17g, %.17g) -> (%.17g, %.17g): interval path fails the "
                "verifier: %s",
                label, (unsigned long long)seed, R, s.x, s.y, g.x, g.y, report.message);
  ck_assert_msg(ends_exact(got->path, s, g),
                "%s seed %llu R %.17g (%.17g, %.17g) -> (%.17g, %.17g): the interval path does not "
                "begin and end exactly at the query's ends, its pieces joined exactly",
                label, (unsigned long long)seed, R, s.x, s.y, g.x, g.y);
  ck_assert_msg(ends_exact(want->path, s, g),
                "%s seed %llu R %.17g (%.17g, %.17g) -> (%.17g, %.17g): the reference path's ends "
                "or joins are not exact",
                label, (unsigned long long)seed, R, s.x, s.y, g.x, g.y);
  return status;
}

static arcnav_status compare_query(const sup_map *m, const char *label, uint64_t seed, double R,
                                   engine_run *want, engine_run *got, vec s, vec g, tally *t) {
  return compare_query_ex(m, label, seed, R, want, got, s, g, t, true);
}

// --- ends ----------------------------------------------------------------------------------------

/// A point exactly R from a wall (by the verifier's distance, to a quarter of the tolerance) and
/// no nearer to anything: R out from a random point of a random polygon edge (outer ring, hole,
/// or bounds, on its free side), or R out from a circle. The disk there touches the wall.
static bool point_touching_wall(const sup_map *m, double R, sup_rng *rng, vec *out) {
  double eps = sup_map_tolerance(m);
  size_t kinds = m->polygon_count + m->circle_count + (m->has_bounds ? 1 : 0);
  if (kinds == 0 || R <= 0.0) {
    return false;
  }
  for (int attempt = 0; attempt < 60; ++attempt) {
    size_t k = sup_rng_below(rng, kinds);
    vec p;
    if (k < m->polygon_count || k == m->polygon_count + m->circle_count) {
      const sup_ring *ring;
      if (k < m->polygon_count) {
        const sup_polygon *poly = &m->polygons[k];
        size_t r = sup_rng_below(rng, 1 + poly->hole_count);
        ring = r == 0 ? &poly->outer : &poly->holes[r - 1];
      } else {
        ring = &m->bounds;
      }
      size_t i = sup_rng_below(rng, ring->count);
      vec a = ring->points[i], b = ring->points[(i + 1) % ring->count];
      double len = hypot(b.x - a.x, b.y - a.y);
      if (!(len > 0.0)) {
        continue;
      }
      // An exact binary fraction along the edge: exact points on axis-parallel edges.
      double f = (double)(1 + sup_rng_below(rng, 15)) / 16.0;
      double side = sup_rng_unit(rng) < 0.5 ? 1.0 : -1.0;
      vec n = {-(b.y - a.y) / len * side, (b.x - a.x) / len * side};
      p = (vec){a.x + f * (b.x - a.x) + R * n.x, a.y + f * (b.y - a.y) + R * n.y};
    } else {
      const sup_circle *c = &m->circles[k - m->polygon_count];
      double angle = sup_rng_uniform(rng, 0.0, 2.0 * TEST_PI);
      p = (vec){c->center.x + (c->radius + R) * cos(angle),
                c->center.y + (c->radius + R) * sin(angle)};
    }
    double d = sup_signed_distance_to_obstacles(m, p);
    if (fabs(d - R) <= 0.25 * eps) {
      *out = p;
      return true;
    }
  }
  return false;
}

/// An end for radius R: usually a random point in the box where a disk of `fit_radius` fits, one
/// time in four (counted in `touching`) a point exactly R from a wall.
static bool pick_end(const sup_map *m, double R, double fit_radius, sup_rng *rng, vec box_lo,
                     vec box_hi, vec *out, size_t *touching) {
  if (sup_rng_unit(rng) < 0.25 && point_touching_wall(m, R, rng, out)) {
    ++*touching;
    return true;
  }
  return sup_random_free_point(m, fit_radius, rng, box_lo, box_hi, 0.0, 500, out);
}

/// The map's extent grown by 5% each side: ends a little outside the obstacles too.
static void padded_box(const sup_map *m, vec *lo, vec *hi) {
  ck_assert(sup_map_extent(m, lo, hi));
  double pad = 0.05 * fmax(hi->x - lo->x, hi->y - lo->y);
  lo->x -= pad, lo->y -= pad, hi->x += pad, hi->y += pad;
}

/// `queries` queries at each of `radii` on one map, the interval engine against the prebuilt
/// tangent engine.
static void compare_on(const sup_map *m, const char *label, uint64_t seed, const double *radii,
                       size_t radius_count, size_t queries, tally *t) {
  arcnav_map *map = NULL;
  ck_assert_int_eq(sup_map_to_arcnav(m, &map), ARCNAV_OK);
  ck_assert(arcnav_map_tolerance(map) == sup_map_tolerance(m));
  vec lo, hi;
  padded_box(m, &lo, &hi);
  for (size_t r = 0; r < radius_count; ++r) {
    double R = radii[r];
    engine_run want = open_tangent(map, R);
    engine_run got = open_interval(map, R);
    sup_rng rng = sup_rng_seed(seed * 1000003 + r * 101 + 7);
    for (size_t q = 0; q < queries; ++q) {
      vec s, g;
      // Mostly ends where the disk fits; now and then one where only a smaller disk does.
      double fit = sup_rng_unit(&rng) < 0.1 ? 0.5 * R : R;
      if (!pick_end(m, R, fit, &rng, lo, hi, &s, &t->touching_ends) ||
          !pick_end(m, R, R, &rng, lo, hi, &g, &t->touching_ends)) {
        continue;
      }
      compare_query(m, label, seed, R, &want, &got, s, g, t);
    }
    close_run(&want);
    close_run(&got);
  }
  arcnav_map_destroy(map);
}

// --- 1. random maps of every generator -----------------------------------------------------------

START_TEST(test_random_rectangles_and_neerc) {
  tally t = {0};
  for (uint64_t seed = 1; seed <= test_scaled_count(4); ++seed) {
    sup_map rects = sup_gen_random_rectangles(seed, 30 + seed % 20, 300.0, 8.0, 40.0);
    const double radii[] = {0.5, 1.0, 2.0, 4.0, 9.0};
    compare_on(&rects, "rectangles", seed, radii, 5, 10, &t);
    sup_map_free(&rects);
    // Rectangles at least 1 apart: R = 0.5 passes the gaps of exactly 1 (2R), and larger radii
    // meet gaps of every width.
    sup_map neerc = sup_gen_neerc_worst(seed);
    const double neerc_radii[] = {0.5, 1.0, 4.0, 2.0 + (double)(seed * 7 % 40)};
    compare_on(&neerc, "neerc", seed, neerc_radii, 4, 8, &t);
    sup_map_free(&neerc);
  }
  ck_assert_uint_ge(t.found, test_scaled_minimum(220, 4));
  ck_assert_uint_ge(t.touching_ends, test_scaled_minimum(40, 4));
}
END_TEST

START_TEST(test_mixed_maps) {
  tally t = {0};
  size_t with_bounds = 0;
  for (uint64_t seed = 1; seed <= test_scaled_count(24); ++seed) {
    double hint = 1.0 + (double)(seed % 4);
    sup_map m = sup_gen_mixed(seed, 6 + seed % 12, 100.0, hint);
    with_bounds += m.has_bounds;
    const double radii[] = {0.5, 1.0, 2.0, 4.0, 0.4 * hint, 1.1 * hint};
    compare_on(&m, "mixed", seed, radii, 6, 8, &t);
    sup_map_free(&m);
  }
  ck_assert_uint_ge(t.found, test_scaled_minimum(700, 24));
  ck_assert_uint_ge(t.no_path + t.blocked, 1);
  ck_assert_uint_ge(t.touching_ends, test_scaled_minimum(120, 24));
  ck_assert_uint_ge(with_bounds, test_scaled_count(24) >= 24 ? 4 : 0);
}
END_TEST

// Towns whose alleys are drawn around 2R, for each R: some admit the disk, some do not.
START_TEST(test_towns) {
  tally t = {0};
  const double radii[] = {0.5, 1.0, 2.0, 4.0};
  for (uint64_t seed = 1; seed <= test_scaled_count(4); ++seed) {
    for (size_t r = 0; r < 4; ++r) {
      double R = radii[r];
      sup_map town =
          sup_gen_town(seed * 10 + r, 3, 15.0 * R, 2.0 * R * 0.95, 2.0 * R * 0.8, 2.0 * R * 1.2);
      // The town's own R, and a disk a little smaller that gets through more alleys.
      const double town_radii[] = {R, 0.9 * R};
      compare_on(&town, "town", seed, town_radii, 2, 10, &t);
      sup_map_free(&town);
    }
  }
  ck_assert_uint_ge(t.found, test_scaled_minimum(200, 4));
  ck_assert_uint_ge(t.no_path, test_scaled_minimum(10, 4));
}
END_TEST

// Mazes: corridors of cell - wall = 36 and 8; R = 18 and R = 4 fill them exactly (gaps of 2R),
// and the cell centres are then exactly R from the walls on both sides.
START_TEST(test_mazes) {
  tally t = {0};
  for (uint64_t seed = 1; seed <= test_scaled_count(3); ++seed) {
    sup_map wide = sup_gen_maze(seed, 6, 40.0, 4.0);
    const double wide_radii[] = {0.5, 2.0, 17.5, 18.0};
    compare_on(&wide, "maze 40", seed, wide_radii, 4, 8, &t);
    sup_map narrow = sup_gen_maze(seed + 100, 7, 10.0, 2.0);
    const double narrow_radii[] = {0.5, 1.0, 2.0, 4.0};
    compare_on(&narrow, "maze 10", seed, narrow_radii, 4, 8, &t);
    // Cell centre to cell centre at R = half a corridor: the disk touches both walls all the way.
    struct {
      const sup_map *m;
      size_t cells;
      double cell, R;
    } exact[2] = {{&wide, 6, 40.0, 18.0}, {&narrow, 7, 10.0, 4.0}};
    for (int k = 0; k < 2; ++k) {
      arcnav_map *map = NULL;
      ck_assert_int_eq(sup_map_to_arcnav(exact[k].m, &map), ARCNAV_OK);
      engine_run want = open_tangent(map, exact[k].R);
      engine_run got = open_interval(map, exact[k].R);
      sup_rng rng = sup_rng_seed(seed + 17);
      for (int q = 0; q < 6; ++q) {
        vec ends[2];
        for (int e = 0; e < 2; ++e) {
          ends[e] = (vec){((double)sup_rng_below(&rng, exact[k].cells) + 0.5) * exact[k].cell,
                          ((double)sup_rng_below(&rng, exact[k].cells) + 0.5) * exact[k].cell};
        }
        // A perfect maze joins every two cells.
        ck_assert_int_eq(compare_query(exact[k].m, "maze, 2R corridors", seed, exact[k].R, &want,
                                       &got, ends[0], ends[1], &t),
                         ARCNAV_OK);
      }
      close_run(&want);
      close_run(&got);
      arcnav_map_destroy(map);
    }
    sup_map_free(&wide);
    sup_map_free(&narrow);
  }
  ck_assert_uint_ge(t.found, test_scaled_minimum(150, 3));
}
END_TEST

// Obstacles that share edges and meet at corners: squares of side 10, so R = 5 is exactly half a
// cell's gap.
START_TEST(test_touching_maps) {
  tally t = {0};
  for (uint64_t seed = 1; seed <= test_scaled_count(24); ++seed) {
    sup_map m = sup_gen_touching(seed, seed % 2 == 0);
    const double radii[] = {0.5, 1.0, 2.0, 4.0, 5.0};
    compare_on(&m, "touching", seed, radii, 5, 8, &t);
    sup_map_free(&m);
  }
  ck_assert_uint_ge(t.found, test_scaled_minimum(400, 24));
  ck_assert_uint_ge(t.touching_ends, test_scaled_minimum(80, 24));
}
END_TEST

// --- 2. traced game grids ------------------------------------------------------------------------

START_TEST(test_traced_grids) {
  tally t = {0};
  const double radii[] = {0.5, 0.75, 1.0, 2.0};
  enum { RADII = sizeof radii / sizeof radii[0] };
  for (uint64_t seed = 1; seed <= test_scaled_count(10); ++seed) {
    sup_rng rng = sup_rng_seed(seed * 4241 + 3);
    static sup_cell_grid g;
    sup_cell_grid_random(&rng, seed % 2, &g);
    bool bounds = (seed / 2) % 2 == 0;
    sup_map m = sup_cell_grid_to_map(&g, bounds);
    arcnav_map *map = NULL;
    ck_assert_int_eq(sup_map_to_arcnav(&m, &map), ARCNAV_OK);
    for (size_t r = 0; r < RADII; ++r) {
      double R = radii[r];
      engine_run want = open_tangent(map, R);
      engine_run got = open_interval(map, R);
      for (int q = 0; q < 6; ++q) {
        vec s, e;
        // One query in six may start in a free cell where the disk does not fit.
        if (!sup_cell_grid_end(&g, &m, R, q != 5, &rng, &s) ||
            !sup_cell_grid_end(&g, &m, R, true, &rng, &e)) {
          continue;
        }
        char label[64];
        snprintf(label, sizeof label, "%s grid %dx%d%s", seed % 2 ? "cave" : "rooms", g.w, g.h,
                 bounds ? " with bounds" : "");
        compare_query(&m, label, seed, R, &want, &got, s, e, &t);
      }
      close_run(&want);
      close_run(&got);
    }
    arcnav_map_destroy(map);
    sup_map_free(&m);
  }
  ck_assert_uint_ge(t.found, test_scaled_minimum(120, 10));
  ck_assert_uint_ge(t.no_path, test_scaled_minimum(5, 10));
}
END_TEST

// --- 3. one planner for several radii ----------------------------------------------------------

enum { RANGED_RADII = 4 };

START_TEST(test_ranged_planner) {
  // One query object cycles through 0.5, 2, 8 and 0; a second one, at a radius of its own per
  // query, runs between its queries. Each answer is compared with a planner built for that radius
  // alone: the prebuilt tangent engine for R > 0, AUTO at R = 0.
  const double radii[RANGED_RADII] = {0.5, 2.0, 8.0, 0.0};
  tally t = {0};
  size_t point_agent = 0;
  for (uint64_t seed = 1; seed <= test_scaled_count(9); ++seed) {
    sup_map m;
    const char *label;
    switch (seed % 3) {
    case 0:
      m = sup_gen_random_rectangles(seed, 40, 300.0, 8.0, 40.0);
      label = "ranged rectangles";
      break;
    case 1:
      m = sup_gen_mixed(seed, 14, 120.0, 3.0);
      label = "ranged mixed";
      break;
    default:
      m = sup_gen_town(seed, 3, 40.0, 10.0, 1.0, 17.0);
      label = "ranged town";
      break;
    }
    arcnav_map *map = NULL;
    ck_assert_int_eq(sup_map_to_arcnav(&m, &map), ARCNAV_OK);
    engine_run single[RANGED_RADII];
    for (size_t r = 0; r < RANGED_RADII; ++r) {
      single[r] = radii[r] > 0.0 ? open_tangent(map, radii[r])
                                 : open_run(map, ARCNAV_ENGINE_AUTO, 0.0, 0.0);
    }
    engine_run ranged = open_run(map, ARCNAV_ENGINE_INTERVAL, 0.5, 8.0);
    ck_assert_int_eq(arcnav_planner_engine(ranged.planner), ARCNAV_ENGINE_INTERVAL);
    ck_assert(arcnav_planner_radius(ranged.planner) == 0.5);
    ck_assert(arcnav_planner_max_radius(ranged.planner) == 8.0);
    ck_assert(arcnav_query_radius(ranged.query) == 0.5);
    ck_assert_int_eq(arcnav_query_set_radius(ranged.query, 8.0 + 1e-9),
                     ARCNAV_ERR_RADIUS_OUT_OF_RANGE);
    ck_assert(arcnav_query_radius(ranged.query) == 0.5);
    arcnav_query *other = NULL;
    arcnav_path *other_path = NULL;
    ck_assert_int_eq(arcnav_query_create(ranged.planner, &other), ARCNAV_OK);
    ck_assert_int_eq(arcnav_path_create(NULL, &other_path), ARCNAV_OK);
    vec lo, hi;
    padded_box(&m, &lo, &hi);
    sup_rng rng = sup_rng_seed(seed * 7907 + 1);
    for (size_t q = 0; q < 10; ++q) {
      vec s, g;
      // Ends where the smallest disk fits: larger ones meet blocked ends too.
      if (!pick_end(&m, 0.5, 0.5, &rng, lo, hi, &s, &t.touching_ends) ||
          !pick_end(&m, 0.5, 0.5, &rng, lo, hi, &g, &t.touching_ends)) {
        continue;
      }
      for (size_t r = 0; r < RANGED_RADII; ++r) {
        double R = radii[r];
        ck_assert_int_eq(arcnav_query_set_radius(ranged.query, R), ARCNAV_OK);
        compare_query(&m, label, seed, R, &single[r], &ranged, s, g, &t);
        point_agent += R == 0.0;
        // The other query object, at another radius, in between.
        size_t o = sup_rng_below(&rng, RANGED_RADII);
        ck_assert_int_eq(arcnav_query_set_radius(other, radii[o]), ARCNAV_OK);
        engine_run other_run = {ranged.planner, other, other_path};
        compare_query(&m, label, seed, radii[o], &single[o], &other_run, g, s, &t);
      }
    }
    arcnav_path_destroy(other_path);
    arcnav_query_destroy(other);
    close_run(&ranged);
    for (size_t r = 0; r < RANGED_RADII; ++r) {
      close_run(&single[r]);
    }
    arcnav_map_destroy(map);
    sup_map_free(&m);
  }
  ck_assert_uint_ge(t.found, test_scaled_minimum(400, 9));
  ck_assert_uint_ge(t.no_path + t.blocked, test_scaled_minimum(20, 9));
  ck_assert_uint_ge(point_agent, test_scaled_minimum(60, 9));
}
END_TEST

// --- 4. hand-worked geometry ---------------------------------------------------------------------

/// Finds the interval engine's path at R on the map, which the prebuilt tangent engine must agree
/// with (compare_query, which also checks the path with the verifier), and checks its length
/// against `expected` (computed by hand, 1e-9 relative). Returns the sum of the path's arc sweeps.
static double check_hand_length(const sup_map *m, double R, vec s, vec g, double expected,
                                const char *what) {
  arcnav_map *map = NULL;
  ck_assert_int_eq(sup_map_to_arcnav(m, &map), ARCNAV_OK);
  engine_run want = open_tangent(map, R);
  engine_run got = open_interval(map, R);
  ck_assert_int_eq(compare_query(m, what, 0, R, &want, &got, s, g, NULL), ARCNAV_OK);
  double length = arcnav_path_length(got.path);
  ck_assert_msg(fabs(length - expected) <= 1e-9 * fmax(1.0, expected),
                "%s, R %g: interval length %.17g, by hand %.17g", what, R, length, expected);
  double sweeps = 0.0;
  for (size_t i = 0; i < arcnav_path_piece_count(got.path); ++i) {
    arcnav_piece p = arcnav_path_piece(got.path, i);
    if (p.type == ARCNAV_PIECE_ARC) {
      sweeps += p.sweep;
    }
  }
  close_run(&want);
  close_run(&got);
  arcnav_map_destroy(map);
  return sweeps;
}

/// The gap case with bounds that close every way round: the bounds' sides touch the two
/// obstacles' far ends, its top and bottom 3R beyond the ends.
static void close_round(sup_gap_case *c, double R) {
  vec lo, hi;
  ck_assert(sup_map_extent(&c->map, &lo, &hi));
  double y = 8.0 * R; // the ends are 5R either side of the gap's line
  vec ring[4] = {{lo.x, -y}, {hi.x, -y}, {hi.x, y}, {lo.x, y}};
  sup_map_set_bounds(&c->map, ring, 4);
}

START_TEST(test_gaps_of_two_r) {
  const double radii[] = {0.5, 1.0, 3.0, 40.0};
  for (int kind = 0; kind < SUP_GAP_KIND_COUNT; ++kind) {
    for (size_t r = 0; r < sizeof radii / sizeof radii[0]; ++r) {
      double R = radii[r];
      for (int bounded = 0; bounded < 2; ++bounded) {
        char what[96];
        // Exactly 2R: open, straight across.
        sup_gap_case open = sup_gen_gap_pair_kind(R, 2.0 * R, (sup_gap_kind)kind);
        if (bounded) {
          close_round(&open, R);
        }
        snprintf(what, sizeof what, "gap kind %d of exactly 2R%s", kind,
                 bounded ? ", closed round" : "");
        // The prebuilt tangent engine too: its passage check once saw circles as circumscribed
        // 64-gons, which narrowed this gap below 2R (two circles closed round: no_path).
        double sweeps = check_hand_length(&open.map, R, open.query.start, open.query.goal,
                                          open.straight_length, what);
        ck_assert_msg(sweeps == 0.0, "%s: arcs on a straight path", what);
        double eps = sup_map_tolerance(&open.map);
        sup_map_free(&open.map);

        // 2R - 3 eps: closed. Round the obstacles when they leave a way round, else no path.
        double gap = 2.0 * R - 3.0 * eps;
        sup_gap_case shut = sup_gen_gap_pair_kind(R, gap, (sup_gap_kind)kind);
        if (bounded) {
          close_round(&shut, R);
        }
        ck_assert(gap <= 2.0 * R - 3.0 * sup_map_tolerance(&shut.map));
        snprintf(what, sizeof what, "gap kind %d of 2R - 3 eps%s", kind,
                 bounded ? ", closed round" : "");
        arcnav_map *map = NULL;
        ck_assert_int_eq(sup_map_to_arcnav(&shut.map, &map), ARCNAV_OK);
        engine_run want = open_tangent(map, R);
        engine_run got = open_interval(map, R);
        arcnav_status status = compare_query(&shut.map, what, 0, R, &want, &got, shut.query.start,
                                             shut.query.goal, NULL);
        if (bounded) {
          ck_assert_msg(status == ARCNAV_NO_PATH, "%s: %s", what, arcnav_status_name(status));
        } else {
          ck_assert_msg(status == ARCNAV_OK, "%s: %s", what, arcnav_status_name(status));
          // Going round costs at least twice the straight line (sup_gen_gap_pair_kind).
          ck_assert_msg(arcnav_path_length(got.path) >= 2.0 * shut.straight_length,
                        "%s: %.17g through a closed gap", what, arcnav_path_length(got.path));
        }
        close_run(&want);
        close_run(&got);
        arcnav_map_destroy(map);
        sup_map_free(&shut.map);
      }
    }
  }
}
END_TEST

// Traced grids worked by hand: corridors one cell wide at R = 0.5 (gaps of exactly 2R, the disk
// touching both sides) are open, a hair wider disk fits nowhere, and cells meeting at a corner
// only (a pinch) let nothing through.
// A tiny disk round two corners of a wall, from one along the wall's offset line to the next:
// the leaf leaving the first corner at its wedge's end is the one touching the second, computed
// once from the wedge and once as a tangent. At R = 0.001 with coordinates near 35 their angles
// differ by the rounding of coordinates over the radius (about 1e-12), which the engine must
// allow for (it once lost the path: no_path). Against the prebuilt engine and the verifier.
START_TEST(test_tiny_disk_along_a_wall) {
  sup_map m;
  sup_map_init(&m);
  sup_map_add_rect(&m, 35.0, 99.0, 37.0, 110.0);
  sup_map_add_rect(&m, 20.0, 111.0, 50.0, 112.0);
  tally t = {0};
  const double radii[] = {0.001, 0.0003, 1e-5};
  for (size_t r = 0; r < 3; ++r) {
    double R = radii[r];
    arcnav_map *map = NULL;
    ck_assert_int_eq(sup_map_to_arcnav(&m, &map), ARCNAV_OK);
    engine_run want = open_tangent(map, R);
    engine_run got = open_interval(map, R);
    const vec ends[][2] = {{{26.0, 103.0}, {38.0, 105.0}},
                           {{38.0, 104.0}, {26.0, 102.0}},
                           {{33.0, 101.0}, {39.0, 108.5}}};
    for (size_t k = 0; k < 3; ++k) {
      arcnav_status status = compare_query(&m, "tiny disk along a wall", r, R, &want, &got,
                                           ends[k][0], ends[k][1], &t);
      ck_assert_int_eq(status, ARCNAV_OK);
    }
    close_run(&want);
    close_run(&got);
    arcnav_map_destroy(map);
  }
  sup_map_free(&m);
}
END_TEST

START_TEST(test_grid_corridors_by_hand) {
  static sup_cell_grid g;
  // Along row 2 from cell (0, 2), up column 5 to cell (5, 4): straight 4.5, a quarter turn of
  // radius R round the inner corner (5, 3), straight 1.5.
  static const char *const bend[5] = {"#######", "#######", "......#", "#####.#", "#####.#"};
  sup_cell_grid_from_rows(&g, bend, 5);
  for (int bounded = 0; bounded < 2; ++bounded) {
    sup_map m = sup_cell_grid_to_map(&g, bounded);
    vec s = {0.5, 2.5}, e = {5.5, 4.5};
    double sweeps = check_hand_length(&m, 0.5, s, e, 6.0 + TEST_PI / 4.0, "bent corridor");
    ck_assert(fabs(sweeps - TEST_PI / 2.0) <= 1e-9);
    // Back the other way, and from the bend's cell.
    check_hand_length(&m, 0.5, e, s, 6.0 + TEST_PI / 4.0, "bent corridor, back");
    check_hand_length(&m, 0.5, (vec){5.5, 2.5}, s, 5.0, "bent corridor, from the bend");
    // 3 eps wider: the disk fits nowhere in the corridor.
    double R = 0.5 + 3.0 * sup_map_tolerance(&m);
    arcnav_map *map = NULL;
    ck_assert_int_eq(sup_map_to_arcnav(&m, &map), ARCNAV_OK);
    engine_run want = open_tangent(map, R);
    engine_run got = open_interval(map, R);
    ck_assert_int_eq(compare_query(&m, "bent corridor, wider disk", 0, R, &want, &got, s, e, NULL),
                     ARCNAV_START_BLOCKED);
    close_run(&want);
    close_run(&got);
    arcnav_map_destroy(map);
    sup_map_free(&m);
  }
  // Two rooms in the bounds, joined only where two blocked cells meet at their corner (4, 2): no
  // disk passes.
  static const char *const pinch[5] = {"....#...", "....#...", "...#....", "...#....", "...#...."};
  sup_cell_grid_from_rows(&g, pinch, 5);
  {
    sup_map m = sup_cell_grid_to_map(&g, true);
    arcnav_map *map = NULL;
    ck_assert_int_eq(sup_map_to_arcnav(&m, &map), ARCNAV_OK);
    const double radii[] = {0.5, 0.25, 0.01};
    for (size_t r = 0; r < 3; ++r) {
      engine_run want = open_tangent(map, radii[r]);
      engine_run got = open_interval(map, radii[r]);
      ck_assert_int_eq(compare_query(&m, "pinch", 0, radii[r], &want, &got, (vec){1.5, 1.5},
                                     (vec){6.5, 3.5}, NULL),
                       ARCNAV_NO_PATH);
      ck_assert_int_eq(compare_query(&m, "pinch, same room", 0, radii[r], &want, &got,
                                     (vec){0.5, 0.5}, (vec){2.5, 4.5}, NULL),
                       ARCNAV_OK);
      close_run(&want);
      close_run(&got);
    }
    arcnav_map_destroy(map);
    sup_map_free(&m);
  }
  // A corridor of bounds alone, exactly 2R wide: straight.
  sup_map strip;
  sup_map_init(&strip);
  static const vec ring[4] = {{0, 0}, {10, 0}, {10, 1}, {0, 1}};
  sup_map_set_bounds(&strip, ring, 4);
  check_hand_length(&strip, 0.5, (vec){0.5, 0.5}, (vec){9.5, 0.5}, 9.0, "strip of bounds");
  sup_map_free(&strip);
}
END_TEST

START_TEST(test_square_wrapped) {
  // The square [0, s]^2, ends (-a, y0) and (s + a, y0) at mid height: round two corners (either
  // side, the same length). From the start the heading is phi + asin(R / D) with D the distance
  // to the corner circle's centre (0, s) and phi its direction; the arc turns from that heading
  // to 0 along the top.
  const struct {
    double s, a, R;
  } cases[] = {
      {10.0, 6.0, 1.0}, {4.0, 3.0, 2.0}, {20.0, 2.0, 0.5}, {1.0, 50.0, 0.25}, {100.0, 30.0, 7.0}};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
    double s = cases[i].s, a = cases[i].a, R = cases[i].R;
    for (int shifted = 0; shifted < 2; ++shifted) {
      // The same square moved away from the origin (exact binary offsets).
      double ox = shifted ? 1024.0 : 0.0, oy = shifted ? -512.0 : 0.0;
      sup_map m;
      sup_map_init(&m);
      sup_map_add_rect(&m, ox, oy, ox + s, oy + s);
      double phi = atan2(0.5 * s, a), D = hypot(a, 0.5 * s);
      double heading = phi + asin(R / D);
      ck_assert(heading < TEST_PI / 2);
      double expected = 2.0 * (sqrt(D * D - R * R) + R * heading) + s;
      vec start = {ox - a, oy + 0.5 * s}, goal = {ox + s + a, oy + 0.5 * s};
      double sweeps = check_hand_length(&m, R, start, goal, expected, "square wrapped");
      ck_assert_msg(fabs(sweeps - 2.0 * heading) <= 1e-9, "square %zu: arcs sweep %.17g, not %.17g",
                    i, sweeps, 2.0 * heading);
      // Ends touching the square (R from its sides): up the side, round both corners, down.
      vec s_touch = {ox - R, oy + 0.5 * s}, g_touch = {ox + s + R, oy + 0.5 * s};
      sweeps = check_hand_length(&m, R, s_touch, g_touch, 2.0 * s + TEST_PI * R,
                                 "square, ends touching");
      ck_assert_msg(fabs(sweeps - TEST_PI) <= 1e-9, "square %zu: touching ends sweep %.17g", i,
                    sweeps);
      sup_map_free(&m);
    }
  }
}
END_TEST

START_TEST(test_circle_wrapped) {
  // A circle of radius c at the origin; ends at distances d1 and d2 at an angle alpha apart (the
  // short way) that the segment between them would cut: tangent, arc of radius c + R, tangent.
  const struct {
    double c, R, d1, d2, alpha;
  } cases[] = {
      {2.0, 1.0, 5.0, 5.0, TEST_PI}, {2.0, 1.0, 5.0, 9.0, 2.5}, {10.0, 0.5, 12.0, 30.0, 2.9},
      {0.0, 2.0, 7.0, 3.0, 3.0},  // a point obstacle: the arc is the disk's own radius
      {5.0, 4.0, 9.0, 40.0, 2.2}, // the start touches the circle: no first tangent
      {1.0, 3.0, 20.0, 6.0, 2.6}};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
    double c = cases[i].c, R = cases[i].R, d1 = cases[i].d1, d2 = cases[i].d2;
    double alpha = cases[i].alpha, rho = c + R;
    double w1 = acos(rho / d1), w2 = acos(rho / d2);
    ck_assert(alpha > w1 + w2);
    double sweep = alpha - w1 - w2;
    double expected = sqrt(d1 * d1 - rho * rho) + sqrt(d2 * d2 - rho * rho) + rho * sweep;
    for (int bounded = 0; bounded < 2; ++bounded) {
      sup_map m;
      sup_map_init(&m);
      sup_map_add_circle(&m, (vec){0.0, 0.0}, c);
      if (bounded) {
        // Far bounds change nothing.
        double b = 4.0 * (d1 + d2);
        vec ring[4] = {{-b, -b}, {b, -b}, {b, b}, {-b, b}};
        sup_map_set_bounds(&m, ring, 4);
      }
      vec start = {-d1, 0.0};
      vec goal = {-d2 * cos(alpha), d2 * sin(alpha)};
      if (cases[i].alpha == TEST_PI) {
        goal = (vec){d2, 0.0};
      }
      double sweeps = check_hand_length(&m, R, start, goal, expected, "circle wrapped");
      ck_assert_msg(fabs(sweeps - sweep) <= 1e-9, "circle %zu: arcs sweep %.17g, not %.17g", i,
                    sweeps, sweep);
      sup_map_free(&m);
    }
  }
}
END_TEST

START_TEST(test_bounds_only) {
  // An L of bounds: from one arm to the other round the reflex corner (10, 10), which the disk
  // wraps as a corner circle: the ends are collinear with it, so as round a circle of radius R.
  sup_map m;
  sup_map_init(&m);
  static const vec l_shape[] = {{0, 0}, {20, 0}, {20, 10}, {10, 10}, {10, 20}, {0, 20}};
  sup_map_set_bounds(&m, l_shape, 6);
  const double radii[] = {0.5, 1.0, 2.5};
  for (size_t r = 0; r < 3; ++r) {
    double R = radii[r];
    double d = sqrt(50.0);
    double expected = 2.0 * sqrt(d * d - R * R) + R * (TEST_PI - 2.0 * acos(R / d));
    check_hand_length(&m, R, (vec){15, 5}, (vec){5, 15}, expected, "L bounds");
  }
  // Along one arm, touching its walls on both sides at R = 5: straight.
  check_hand_length(&m, 5.0, (vec){5, 5}, (vec){15, 5}, 10.0, "L bounds, arm exactly 2R");
  tally t = {0};
  const double random_radii[] = {0.5, 1.0, 2.0, 4.0, 4.999};
  compare_on(&m, "L bounds", 1, random_radii, 5, 12, &t);
  sup_map_free(&m);
  // A convex box: every two free points are joined by a straight line.
  sup_map box;
  sup_map_init(&box);
  static const vec square[] = {{-30, -10}, {50, -10}, {50, 40}, {-30, 40}};
  sup_map_set_bounds(&box, square, 4);
  arcnav_map *map = NULL;
  ck_assert_int_eq(sup_map_to_arcnav(&box, &map), ARCNAV_OK);
  sup_rng rng = sup_rng_seed(99);
  for (size_t r = 0; r < 3; ++r) {
    double R = radii[r];
    engine_run want = open_tangent(map, R);
    engine_run got = open_interval(map, R);
    for (int q = 0; q < 10; ++q) {
      vec s, g;
      ck_assert(sup_random_free_point(&box, R, &rng, (vec){-30, -10}, (vec){50, 40}, 0.0, 500, &s));
      ck_assert(sup_random_free_point(&box, R, &rng, (vec){-30, -10}, (vec){50, 40}, 0.0, 500, &g));
      ck_assert_int_eq(compare_query(&box, "box bounds", 0, R, &want, &got, s, g, &t), ARCNAV_OK);
      double straight = hypot(g.x - s.x, g.y - s.y);
      ck_assert(fabs(arcnav_path_length(got.path) - straight) <= 1e-9 * fmax(1.0, straight));
    }
    // Outside the bounds, or too near them.
    ck_assert_int_eq(
        compare_query(&box, "box bounds", 0, R, &want, &got, (vec){-31, 0}, (vec){0, 0}, &t),
        ARCNAV_START_BLOCKED);
    ck_assert_int_eq(compare_query(&box, "box bounds", 0, R, &want, &got, (vec){0, 0},
                                   (vec){50 - 0.5 * R, 0}, &t),
                     ARCNAV_GOAL_BLOCKED);
    close_run(&want);
    close_run(&got);
  }
  arcnav_map_destroy(map);
  sup_map_free(&box);
  ck_assert_uint_ge(t.found, 40);
}
END_TEST

// --- 5. sliced search ----------------------------------------------------------------------------

typedef struct saved_path {
  arcnav_piece *pieces;
  size_t count;
  double length;
} saved_path;

static saved_path save_path(const arcnav_path *path) {
  saved_path saved = {NULL, arcnav_path_piece_count(path), arcnav_path_length(path)};
  saved.pieces = malloc((saved.count ? saved.count : 1) * sizeof *saved.pieces);
  ck_assert_ptr_nonnull(saved.pieces);
  for (size_t i = 0; i < saved.count; ++i) {
    saved.pieces[i] = arcnav_path_piece(path, i);
  }
  return saved;
}

/// Is `path` the saved one, piece by piece and bit for bit?
static bool same_as_saved(const saved_path *saved, const arcnav_path *path) {
  if (arcnav_path_piece_count(path) != saved->count || arcnav_path_length(path) != saved->length) {
    return false;
  }
  for (size_t i = 0; i < saved->count; ++i) {
    arcnav_piece p = arcnav_path_piece(path, i);
    if (!test_same_piece(&p, &saved->pieces[i])) {
      return false;
    }
  }
  return true;
}

/// Runs s -> g on `run` in slices of `slice` and checks every pause and the answer against the
/// whole search's. Returns the number of pauses.
static size_t check_sliced(const sup_map *m, engine_run *run, double R, vec s, vec g, size_t slice,
                           arcnav_status whole, const saved_path *whole_path, size_t whole_expanded,
                           arcnav_path *best) {
  double eps = sup_map_tolerance(m);
  ck_assert_int_eq(arcnav_query_begin(run->query, s, g), ARCNAV_OK);
  ck_assert_int_eq(arcnav_query_best_path(run->query, best), ARCNAV_OK);
  ck_assert_uint_eq(arcnav_path_piece_count(best), 0);
  ck_assert_vec2_near(arcnav_path_end(best), s, 0.0);
  size_t expanded = 0, pauses = 0;
  double gap = hypot(g.x - s.x, g.y - s.y);
  vec last_end = s;
  arcnav_status status;
  for (;;) {
    status = arcnav_query_resume(run->query, slice, run->path);
    size_t now = arcnav_query_get_stats(run->query).nodes_expanded;
    ck_assert_msg(now >= expanded && now - expanded <= slice,
                  "slice %zu: a resume went from %zu to %zu expansions", slice, expanded, now);
    expanded = now;
    if (status != ARCNAV_IN_PROGRESS) {
      break;
    }
    ++pauses;
    ck_assert_msg(pauses < 1000000, "slice %zu: the search never ends", slice);
    ck_assert_uint_eq(arcnav_path_piece_count(run->path), 0);
    ck_assert_int_eq(arcnav_query_best_path(run->query, best), ARCNAV_OK);
    vec end = arcnav_path_end(best);
    double now_gap = hypot(g.x - end.x, g.y - end.y);
    ck_assert_msg(now_gap <= gap, "slice %zu, pause %zu: the best path so far went back (%g > %g)",
                  slice, pauses, now_gap, gap);
    gap = now_gap;
    if (end.x != last_end.x || end.y != last_end.y) {
      // Verified when it changed: from the start to its own end, free for the disk.
      sup_verify_report report;
      ck_assert_msg(sup_verify_path(m, R, eps, s, end, best, &report),
                    "slice %zu, pause %zu, R %g, (%.17g, %.17g) -> (%.17g, %.17g): best path so "
                    "far ending at (%.17g, %.17g) fails the verifier: %s",
                    slice, pauses, R, s.x, s.y, g.x, g.y, end.x, end.y, report.message);
      last_end = end;
    }
  }
  ck_assert_msg(status == whole, "slice %zu, (%.17g, %.17g) -> (%.17g, %.17g): sliced %s, whole %s",
                slice, s.x, s.y, g.x, g.y, arcnav_status_name(status), arcnav_status_name(whole));
  ck_assert_msg(same_as_saved(whole_path, run->path),
                "slice %zu, (%.17g, %.17g) -> (%.17g, %.17g): the sliced path differs", slice, s.x,
                s.y, g.x, g.y);
  ck_assert_uint_eq(expanded, whole_expanded);
  ck_assert_int_eq(arcnav_query_resume(run->query, slice, run->path), ARCNAV_ERR_NO_SEARCH);
  ck_assert_int_eq(arcnav_query_best_path(run->query, best), ARCNAV_ERR_NO_SEARCH);
  return pauses;
}

START_TEST(test_sliced_equals_whole) {
  size_t paused = 0, sliced_queries = 0;
  for (int which = 0; which < 4; ++which) {
    for (uint64_t seed = 1; seed <= test_scaled_count(2); ++seed) {
      sup_map m;
      double R;
      switch (which) {
      case 0:
        m = sup_gen_random_rectangles(seed + 20, 40, 300.0, 8.0, 40.0);
        R = 2.0;
        break;
      case 1:
        m = sup_gen_town(seed + 30, 3, 40.0, 10.0, 2.0, 8.0);
        R = 1.5;
        break;
      case 2:
        m = sup_gen_mixed(seed + 40, 25, 300.0, 3.0);
        R = 3.0;
        break;
      default:
        m = sup_gen_maze(seed + 50, 6, 20.0, 2.0);
        R = 4.0;
        break;
      }
      arcnav_map *map = NULL;
      ck_assert_int_eq(sup_map_to_arcnav(&m, &map), ARCNAV_OK);
      // The interval planner of one radius; on even seeds one for radii up to 8, asked for R.
      engine_run run =
          seed % 2 ? open_interval(map, R) : open_run(map, ARCNAV_ENGINE_INTERVAL, 0.0, 8.0);
      ck_assert_int_eq(arcnav_query_set_radius(run.query, R), ARCNAV_OK);
      engine_run want = open_tangent(map, R);
      arcnav_path *best = NULL;
      ck_assert_int_eq(arcnav_path_create(NULL, &best), ARCNAV_OK);
      vec lo, hi;
      ck_assert(sup_map_extent(&m, &lo, &hi));
      sup_rng rng = sup_rng_seed(seed * 977 + (uint64_t)which);
      for (int k = 0; k < 5; ++k) {
        vec s, g;
        if (!sup_random_free_point(&m, R, &rng, lo, hi, 0.01, 1000, &s) ||
            !sup_random_free_point(&m, R, &rng, lo, hi, 0.01, 1000, &g)) {
          continue;
        }
        // The whole search, itself against the tangent engine.
        arcnav_status whole = compare_query(&m, "sliced", seed, R, &want, &run, s, g, NULL);
        size_t whole_expanded = arcnav_query_get_stats(run.query).nodes_expanded;
        saved_path saved = save_path(run.path);
        const size_t slices[] = {1, 7};
        for (size_t i = 0; i < 2; ++i) {
          paused +=
              check_sliced(&m, &run, R, s, g, slices[i], whole, &saved, whole_expanded, best) > 0;
          ++sliced_queries;
        }
        // A slice of 0 runs to the end; and the whole search again is the same.
        ck_assert_int_eq(arcnav_query_begin(run.query, s, g), ARCNAV_OK);
        ck_assert_int_eq(arcnav_query_resume(run.query, 0, run.path), whole);
        ck_assert(same_as_saved(&saved, run.path));
        ck_assert_int_eq(arcnav_find_path(run.query, s, g, run.path), whole);
        ck_assert(same_as_saved(&saved, run.path));
        // A fresh query object answers the same, bit for bit.
        arcnav_query *fresh = NULL;
        ck_assert_int_eq(arcnav_query_create(run.planner, &fresh), ARCNAV_OK);
        ck_assert_int_eq(arcnav_query_set_radius(fresh, R), ARCNAV_OK);
        ck_assert_int_eq(arcnav_find_path(fresh, s, g, run.path), whole);
        ck_assert(same_as_saved(&saved, run.path));
        arcnav_query_destroy(fresh);
        free(saved.pieces);
      }
      arcnav_path_destroy(best);
      close_run(&want);
      close_run(&run);
      arcnav_map_destroy(map);
      sup_map_free(&m);
    }
  }
  ck_assert_msg(paused >= test_scaled_minimum(20, 2), "only %zu of %zu sliced queries paused",
                paused, sliced_queries);
}
END_TEST

// --- 6. expansion limit --------------------------------------------------------------------------

START_TEST(test_expansion_limit) {
  size_t limited = 0, answered_within = 0;
  for (uint64_t seed = 1; seed <= test_scaled_count(4); ++seed) {
    sup_map m = seed % 2 ? sup_gen_maze(seed, 6, 20.0, 2.0)
                         : sup_gen_random_rectangles(seed, 40, 300.0, 8.0, 40.0);
    arcnav_map *map = NULL;
    ck_assert_int_eq(sup_map_to_arcnav(&m, &map), ARCNAV_OK);
    double R = seed % 2 ? 3.0 : 2.0;
    engine_run want = open_tangent(map, R);
    engine_run got = open_interval(map, R);
    vec lo, hi;
    ck_assert(sup_map_extent(&m, &lo, &hi));
    sup_rng rng = sup_rng_seed(seed * 31337);
    for (int q = 0; q < 6; ++q) {
      vec s, g;
      if (seed % 2 && q == 0) {
        s = (vec){10, 10}, g = (vec){110, 110}; // corner to corner of the maze
      } else if (!sup_random_free_point(&m, R, &rng, lo, hi, 0.01, 1000, &s) ||
                 !sup_random_free_point(&m, R, &rng, lo, hi, 0.01, 1000, &g)) {
        continue;
      }
      ck_assert_int_eq(arcnav_query_set_expansion_limit(got.query, 0), ARCNAV_OK);
      arcnav_status unlimited = compare_query(&m, "limit", seed, R, &want, &got, s, g, NULL);
      saved_path saved = save_path(got.path);
      const size_t limits[] = {1, 2, 5, 20, 100};
      for (size_t l = 0; l < sizeof limits / sizeof limits[0]; ++l) {
        ck_assert_int_eq(arcnav_query_set_expansion_limit(got.query, limits[l]), ARCNAV_OK);
        arcnav_status status = arcnav_find_path(got.query, s, g, got.path);
        if (status == ARCNAV_SEARCH_LIMIT) {
          ck_assert_uint_eq(arcnav_path_piece_count(got.path), 0);
          limited += limits[l] == 1;
          continue;
        }
        // Within the limit: the right answer, and the unlimited search's path.
        ck_assert_msg(status == unlimited, "limit %zu: %s, unlimited %s", limits[l],
                      arcnav_status_name(status), arcnav_status_name(unlimited));
        ck_assert_msg(same_as_saved(&saved, got.path), "limit %zu changed the path", limits[l]);
        answered_within++;
      }
      // A limit far above what the search needs changes nothing; nor does removing it.
      size_t enough = (size_t)1 << 24;
      ck_assert_int_eq(arcnav_query_set_expansion_limit(got.query, enough), ARCNAV_OK);
      ck_assert_int_eq(arcnav_find_path(got.query, s, g, got.path), unlimited);
      ck_assert(same_as_saved(&saved, got.path));
      if (q < 2) {
        // The least limit that lets the search finish: there it finds the same path, one fewer
        // stops it, and it is not below what the unlimited search expanded.
        ck_assert_int_eq(arcnav_query_set_expansion_limit(got.query, 0), ARCNAV_OK);
        ck_assert_int_eq(arcnav_find_path(got.query, s, g, got.path), unlimited);
        size_t expanded = arcnav_query_get_stats(got.query).nodes_expanded;
        size_t low = 1, high = enough;
        while (low < high) {
          size_t mid = low + (high - low) / 2;
          ck_assert_int_eq(arcnav_query_set_expansion_limit(got.query, mid), ARCNAV_OK);
          if (arcnav_find_path(got.query, s, g, got.path) == ARCNAV_SEARCH_LIMIT) {
            low = mid + 1;
          } else {
            high = mid;
          }
        }
        ck_assert_msg(high >= expanded, "least limit %zu below the %zu nodes expanded", high,
                      expanded);
        ck_assert_int_eq(arcnav_query_set_expansion_limit(got.query, high), ARCNAV_OK);
        ck_assert_int_eq(arcnav_find_path(got.query, s, g, got.path), unlimited);
        ck_assert(same_as_saved(&saved, got.path));
        if (high > 1) {
          ck_assert_int_eq(arcnav_query_set_expansion_limit(got.query, high - 1), ARCNAV_OK);
          ck_assert_int_eq(arcnav_find_path(got.query, s, g, got.path), ARCNAV_SEARCH_LIMIT);
          ck_assert_uint_eq(arcnav_path_piece_count(got.path), 0);
        }
      }
      ck_assert_int_eq(arcnav_query_set_expansion_limit(got.query, 0), ARCNAV_OK);
      ck_assert_int_eq(arcnav_find_path(got.query, s, g, got.path), unlimited);
      ck_assert(same_as_saved(&saved, got.path));
      free(saved.pieces);
    }
    close_run(&want);
    close_run(&got);
    arcnav_map_destroy(map);
    sup_map_free(&m);
  }
  // Mazes need more than one expansion from corner to corner: the limit was met; and some
  // searches finished within a limit.
  ck_assert_uint_ge(limited, 1);
  ck_assert_uint_ge(answered_within, 1);

  // A room whose door lets a point through but not the disk: no_path needs the whole reachable
  // space searched, and a limit of 1 must not pass the search off as no_path... unless no_path
  // is proved without a search (then it is right anyway).
  arcnav_map *map = NULL;
  ck_assert_int_eq(arcnav_map_create(NULL, &map), ARCNAV_OK);
  sup_map m;
  sup_map_init(&m);
  const double boxes[][4] = {{100, 100, 119.25, 104}, {120.75, 100, 140, 104}, {100, 136, 140, 140},
                             {100, 100, 104, 140},    {136, 100, 140, 140},    {20, 40, 26, 80},
                             {35, 40, 41, 80},        {50, 40, 56, 80}};
  for (size_t k = 0; k < sizeof boxes / sizeof boxes[0]; ++k) {
    ck_assert_int_eq(test_add_box(map, boxes[k][0], boxes[k][1], boxes[k][2], boxes[k][3]),
                     ARCNAV_OK);
    sup_map_add_rect(&m, boxes[k][0], boxes[k][1], boxes[k][2], boxes[k][3]);
  }
  engine_run want = open_tangent(map, 1.0);
  engine_run got = open_interval(map, 1.0);
  vec s = {10, 60}, g = {120, 120};
  ck_assert_int_eq(compare_query(&m, "room", 0, 1.0, &want, &got, s, g, NULL), ARCNAV_NO_PATH);
  for (size_t limit = 1; limit <= 4; ++limit) {
    ck_assert_int_eq(arcnav_query_set_expansion_limit(got.query, limit), ARCNAV_OK);
    arcnav_status status = arcnav_find_path(got.query, s, g, got.path);
    // no_path only when proved without a search (nothing expanded); a search cut short is the
    // limit's.
    size_t expanded = arcnav_query_get_stats(got.query).nodes_expanded;
    ck_assert_msg(status == ARCNAV_SEARCH_LIMIT || (status == ARCNAV_NO_PATH && expanded == 0),
                  "limit %zu: %s after %zu expansions", limit, arcnav_status_name(status),
                  expanded);
    ck_assert_uint_eq(arcnav_path_piece_count(got.path), 0);
  }
  // The same room at R = 0.7: the door (1.5) admits the disk.
  close_run(&want);
  close_run(&got);
  want = open_tangent(map, 0.7);
  got = open_interval(map, 0.7);
  ck_assert_int_eq(compare_query(&m, "room, door wide enough", 0, 0.7, &want, &got, s, g, NULL),
                   ARCNAV_OK);
  close_run(&want);
  close_run(&got);
  arcnav_map_destroy(map);
  sup_map_free(&m);
}
END_TEST

// --- 7. statuses ---------------------------------------------------------------------------------

START_TEST(test_statuses) {
  // Two boxes and a circle; a sealed room; a polygon with a hole (free inside, sealed).
  sup_map m;
  sup_map_init(&m);
  sup_map_add_rect(&m, 0, 0, 10, 10);
  sup_map_add_rect(&m, 20, 0, 30, 10);
  sup_map_add_circle(&m, (vec){50, 5}, 4);
  sup_map_add_rect(&m, 100, 100, 140, 104);
  sup_map_add_rect(&m, 100, 136, 140, 140);
  sup_map_add_rect(&m, 100, 100, 104, 140);
  sup_map_add_rect(&m, 136, 100, 140, 140);
  static const vec outer[] = {{60, 60}, {90, 60}, {90, 90}, {60, 90}};
  static const vec hole[] = {{65, 65}, {65, 85}, {85, 85}, {85, 65}};
  const vec *holes[1] = {hole};
  const size_t hole_counts[1] = {4};
  sup_map_add_polygon(&m, outer, 4, holes, hole_counts, 1);
  arcnav_map *map = NULL;
  ck_assert_int_eq(sup_map_to_arcnav(&m, &map), ARCNAV_OK);
  double eps = sup_map_tolerance(&m);
  const double radii[] = {0.5, 1.0, 2.0};
  for (size_t r = 0; r < 3; ++r) {
    double R = radii[r];
    engine_run want = open_tangent(map, R);
    engine_run got = open_interval(map, R);
    vec free_a = {-10, 20}, free_b = {40, 30};
#define EXPECT(s, g, status)                                                                       \
  ck_assert_int_eq(compare_query(&m, "statuses", 0, R, &want, &got, (s), (g), NULL), (status))
    EXPECT(free_a, free_b, ARCNAV_OK);
    // Inside material, within R of it, and just inside the tolerance (free).
    EXPECT(((vec){5, 5}), free_b, ARCNAV_START_BLOCKED);
    EXPECT(free_a, ((vec){25, 5}), ARCNAV_GOAL_BLOCKED);
    EXPECT(((vec){50, 5}), free_b, ARCNAV_START_BLOCKED);
    EXPECT(((vec){-0.5 * R, 5}), free_b, ARCNAV_START_BLOCKED);
    EXPECT(free_a, ((vec){5, 10 + 0.5 * R}), ARCNAV_GOAL_BLOCKED);
    EXPECT(free_a, ((vec){50, 9 + 0.5 * R}), ARCNAV_GOAL_BLOCKED);
    EXPECT(((vec){-R + 3.0 * eps, 5}), free_b, ARCNAV_START_BLOCKED);
    EXPECT(((vec){-R + 0.5 * eps, 5}), free_b, ARCNAV_OK);
    EXPECT(free_a, ((vec){50, 9 + R}), ARCNAV_OK);
    // Both blocked: as the tangent engine says.
    compare_query(&m, "statuses", 0, R, &want, &got, (vec){5, 5}, (vec){25, 5}, NULL);
    // Between the boxes (a gap of 10): free for every R here, straight down the gap.
    EXPECT(((vec){15, -5}), ((vec){15, 15}), ARCNAV_OK);
    ck_assert(fabs(arcnav_path_length(got.path) - 20.0) <= 1e-9 * 20.0);
    // Walled apart: into the sealed room, into the sealed hole, and out of them.
    EXPECT(free_a, ((vec){120, 120}), ARCNAV_NO_PATH);
    EXPECT(((vec){120, 120}), free_b, ARCNAV_NO_PATH);
    EXPECT(free_a, ((vec){75, 75}), ARCNAV_NO_PATH);
    EXPECT(((vec){75, 75}), ((vec){120, 120}), ARCNAV_NO_PATH);
    // Within the room and within the hole: straight.
    EXPECT(((vec){110, 110}), ((vec){130, 125}), ARCNAV_OK);
    ck_assert(fabs(arcnav_path_length(got.path) - 25.0) <= 1e-9 * 25.0);
    EXPECT(((vec){70, 70}), ((vec){70 + 12, 70 + 9}), ARCNAV_OK);
    ck_assert(fabs(arcnav_path_length(got.path) - 15.0) <= 1e-9 * 15.0);
    // Start equal to goal: no pieces, length 0; at a blocked point: blocked.
    EXPECT(free_a, free_a, ARCNAV_OK);
    ck_assert_uint_eq(arcnav_path_piece_count(got.path), 0);
    ck_assert(arcnav_path_length(got.path) == 0.0);
    ck_assert_vec2_near(arcnav_path_start(got.path), free_a, 0.0);
    EXPECT(((vec){-R, 5}), ((vec){-R, 5}), ARCNAV_OK);
    compare_query(&m, "statuses", 0, R, &want, &got, (vec){5, 5}, (vec){5, 5}, NULL);
    // Far outside the obstacles' extent (no bounds: the whole plane).
    EXPECT(((vec){-2000, 200}), ((vec){2200, 210}), ARCNAV_OK);
    ck_assert(fabs(arcnav_path_length(got.path) - hypot(4200, 10)) <= 1e-9 * 4200);
    EXPECT(((vec){-1500, -1500}), ((vec){1500, 1500}), ARCNAV_OK);
    EXPECT(((vec){15, -3000}), ((vec){15, 3000}), ARCNAV_OK); // down the gap between the boxes
    ck_assert(fabs(arcnav_path_length(got.path) - 6000) <= 1e-9 * 6000);
    EXPECT(((vec){-2000, 5}), ((vec){2000, 5}), ARCNAV_OK); // round the boxes and the circle
    EXPECT(((vec){3000, -3000}), ((vec){120, 120}), ARCNAV_NO_PATH);
    EXPECT(((vec){3000, -3000}), ((vec){-3000, 5}), ARCNAV_OK);
    ck_assert(fabs(arcnav_path_length(got.path) - hypot(6000, 3005)) <= 1e-9 * 6000);
#undef EXPECT
    close_run(&want);
    close_run(&got);
  }
  arcnav_map_destroy(map);
  sup_map_free(&m);

  // Random maps, ends far beyond the obstacles on every side.
  for (uint64_t seed = 1; seed <= test_scaled_count(4); ++seed) {
    sup_map gen = seed % 2 ? sup_gen_random_rectangles(seed, 30, 200.0, 8.0, 40.0)
                           : sup_gen_mixed(seed, 12, 100.0, 2.0);
    if (gen.has_bounds) {
      gen.has_bounds = false; // the plane without bounds (the ring is still freed with the map)
    }
    ck_assert_int_eq(sup_map_to_arcnav(&gen, &map), ARCNAV_OK);
    double R = 1.5;
    engine_run want = open_tangent(map, R);
    engine_run got = open_interval(map, R);
    vec lo, hi;
    ck_assert(sup_map_extent(&gen, &lo, &hi));
    sup_rng rng = sup_rng_seed(seed + 5);
    for (int q = 0; q < 8; ++q) {
      double far = 10.0 * (hi.x - lo.x);
      vec s = {sup_rng_uniform(&rng, lo.x - far, hi.x + far), lo.y - sup_rng_uniform(&rng, 5, far)};
      vec g;
      if (q % 2) {
        g = (vec){sup_rng_uniform(&rng, lo.x - far, hi.x + far),
                  hi.y + sup_rng_uniform(&rng, 5, far)};
      } else if (!sup_random_free_point(&gen, R, &rng, lo, hi, 0.0, 500, &g)) {
        continue;
      }
      compare_query(&gen, "far ends", seed, R, &want, &got, s, g, NULL);
    }
    close_run(&want);
    close_run(&got);
    arcnav_map_destroy(map);
    sup_map_free(&gen);
  }

  // A map without obstacles: everything is one straight line.
  sup_map empty;
  sup_map_init(&empty);
  ck_assert_int_eq(sup_map_to_arcnav(&empty, &map), ARCNAV_OK);
  engine_run want = open_tangent(map, 2.0);
  engine_run got = open_interval(map, 2.0);
  ck_assert_int_eq(
      compare_query(&empty, "empty map", 0, 2.0, &want, &got, (vec){-3, 4}, (vec){9, -1}, NULL),
      ARCNAV_OK);
  ck_assert(fabs(arcnav_path_length(got.path) - 13.0) <= 1e-9 * 13.0);
  ck_assert_int_eq(compare_query(&empty, "empty map", 0, 2.0, &want, &got, (vec){1e6, 1e6},
                                 (vec){-1e6, 1e6}, NULL),
                   ARCNAV_OK);
  ck_assert(fabs(arcnav_path_length(got.path) - 2e6) <= 1e-9 * 2e6);
  close_run(&want);
  close_run(&got);
  arcnav_map_destroy(map);
  sup_map_free(&empty);
}
END_TEST

// Partial answers (arcnav_query_set_partial) and the nearest reachable point on the interval
// engine, against the tangent engine: a goal inside a building or in a sealed room leads to the
// nearest reachable point. Both engines keep one query object throughout (the prebuilt tangent
// engine's once answered a nearest reachable point wrongly after an earlier one: its rule-out
// marked the previous search's closed nodes when its passage check, not a search, found no path).
static arcnav_status reference_answer(arcnav_query *query, bool partial, vec s, vec g,
                                      arcnav_path *path, vec *reach, double *reach_distance) {
  ck_assert_int_eq(arcnav_query_set_partial(query, partial), ARCNAV_OK);
  return path ? arcnav_find_path(query, s, g, path)
              : arcnav_query_nearest_reachable(query, s, g, reach, reach_distance);
}

START_TEST(test_partial_answers) {
  sup_map m = sup_gen_town(5, 3, 40.0, 10.0, 2.0, 8.0);
  sup_map_add_rect(&m, 200, 200, 240, 204);
  sup_map_add_rect(&m, 200, 236, 240, 240);
  sup_map_add_rect(&m, 200, 200, 204, 240);
  sup_map_add_rect(&m, 236, 200, 240, 240);
  arcnav_map *map = NULL;
  ck_assert_int_eq(sup_map_to_arcnav(&m, &map), ARCNAV_OK);
  double eps = sup_map_tolerance(&m);
  double R = 1.5;
  engine_run want = open_tangent(map, R);
  engine_run got = open_interval(map, R);
  ck_assert_int_eq(arcnav_query_set_partial(got.query, true), ARCNAV_OK);
  sup_rng rng = sup_rng_seed(11);
  size_t partial = 0;
  for (size_t k = 0; k < 10; ++k) {
    vec s;
    ck_assert(sup_random_free_point(&m, R, &rng, (vec){0, 0}, (vec){150, 150}, 0.01, 1000, &s));
    vec g;
    if (k < 7) {
      // The middle of a building's box: inside it, or too near it.
      const sup_ring *ring = &m.polygons[sup_rng_below(&rng, m.polygon_count - 4)].outer;
      g = (vec){0, 0};
      for (size_t v = 0; v < ring->count; ++v) {
        g.x += ring->points[v].x / (double)ring->count;
        g.y += ring->points[v].y / (double)ring->count;
      }
    } else {
      g = (vec){220 + (double)k, 218}; // in the sealed room
    }
    arcnav_status a = reference_answer(want.query, true, s, g, want.path, NULL, NULL);
    arcnav_status b = arcnav_find_path(got.query, s, g, got.path);
    ck_assert_msg(a == b, "partial %zu: tangent %s, interval %s", k, arcnav_status_name(a),
                  arcnav_status_name(b));
    if (b != ARCNAV_OK && b != ARCNAV_PARTIAL) {
      continue;
    }
    partial += b == ARCNAV_PARTIAL;
    vec ea = arcnav_path_end(want.path), eb = arcnav_path_end(got.path);
    ck_assert_msg(hypot(ea.x - eb.x, ea.y - eb.y) <= 1e-9 * fmax(1.0, hypot(ea.x, ea.y)),
                  "partial %zu: ends (%.17g, %.17g) and (%.17g, %.17g)", k, ea.x, ea.y, eb.x, eb.y);
    double la = arcnav_path_length(want.path), lb = arcnav_path_length(got.path);
    ck_assert_msg(fabs(la - lb) <= 1e-9 * fmax(1.0, la),
                  "partial %zu: tangent %.17g, interval %.17g", k, la, lb);
    sup_verify_report report;
    ck_assert_msg(sup_verify_path(&m, R, eps, s, eb, got.path, &report), "partial %zu: %s", k,
                  report.message);
  }
  ck_assert_uint_ge(partial, 5);
  // The nearest reachable point, which searches as partial answers do: goals at buildings'
  // corners and in the sealed room, in turn, on the same query object.
  ck_assert_int_eq(arcnav_query_set_partial(got.query, false), ARCNAV_OK);
  for (size_t k = 0; k < 6; ++k) {
    vec s;
    ck_assert(sup_random_free_point(&m, R, &rng, (vec){0, 0}, (vec){150, 150}, 0.01, 1000, &s));
    vec g = k % 2 ? (vec){215 + (double)k, 225} : m.polygons[k].outer.points[0];
    vec pa, pb;
    double da, db;
    arcnav_status a = reference_answer(want.query, false, s, g, NULL, &pa, &da);
    arcnav_status b = arcnav_query_nearest_reachable(got.query, s, g, &pb, &db);
    ck_assert_msg(a == b, "nearest reachable %zu: tangent %s, interval %s", k,
                  arcnav_status_name(a), arcnav_status_name(b));
    ck_assert_int_eq(b, ARCNAV_OK);
    ck_assert_msg(hypot(pa.x - pb.x, pa.y - pb.y) <= 1e-9 * fmax(1.0, hypot(pa.x, pa.y)) &&
                      fabs(da - db) <= 1e-9 * fmax(1.0, da),
                  "nearest reachable %zu: (%.17g, %.17g) at %.17g and (%.17g, %.17g) at %.17g", k,
                  pa.x, pa.y, da, pb.x, pb.y, db);
  }
  close_run(&want);
  close_run(&got);
  arcnav_map_destroy(map);
  sup_map_free(&m);
}
END_TEST

// --- a map that changes, and units ---------------------------------------------------------------

enum { MAX_BOXES = 48 };

typedef struct box_list {
  double box[MAX_BOXES][4];
  arcnav_obstacle_id id[MAX_BOXES];
  bool live[MAX_BOXES];
  size_t count;
} box_list;

static void add_box(arcnav_map *map, box_list *boxes, double x0, double y0, double x1, double y1) {
  ck_assert_uint_lt(boxes->count, MAX_BOXES);
  ck_assert_int_eq(test_add_box(map, x0, y0, x1, y1), ARCNAV_OK);
  size_t k = boxes->count++;
  boxes->box[k][0] = x0, boxes->box[k][1] = y0, boxes->box[k][2] = x1, boxes->box[k][3] = y1;
  boxes->id[k] = arcnav_map_obstacle_id(map, arcnav_map_obstacle_count(map) - 1);
  boxes->live[k] = true;
}

static sup_map boxes_map(const box_list *boxes) {
  sup_map m;
  sup_map_init(&m);
  for (size_t k = 0; k < boxes->count; ++k) {
    if (boxes->live[k]) {
      sup_map_add_rect(&m, boxes->box[k][0], boxes->box[k][1], boxes->box[k][2], boxes->box[k][3]);
    }
  }
  return m;
}

// Obstacles added, removed and moved, interval planners brought up to date
// (arcnav_planner_update) with their query objects kept: each answer against a prebuilt tangent
// planner built afresh on the map as it is now.
START_TEST(test_planner_update) {
  sup_rng rng = sup_rng_seed(2024);
  arcnav_map *map = NULL;
  ck_assert_int_eq(arcnav_map_create(NULL, &map), ARCNAV_OK);
  box_list boxes = {0};
  for (int k = 0; k < 24; ++k) {
    double x = sup_rng_uniform(&rng, 0, 190), y = sup_rng_uniform(&rng, 0, 190);
    add_box(map, &boxes, x, y, x + sup_rng_uniform(&rng, 4, 24), y + sup_rng_uniform(&rng, 4, 24));
  }
  engine_run single = open_interval(map, 2.0);
  engine_run ranged = open_run(map, ARCNAV_ENGINE_INTERVAL, 0.0, 8.0);
  tally t = {0};
  for (int step = 0; step < 5; ++step) {
    if (step == 1) {
      // A wall across the middle with a door 6 wide.
      add_box(map, &boxes, -20, 96, 97, 104);
      add_box(map, &boxes, 103, 96, 220, 104);
    } else if (step == 2) {
      for (int k = 0; k < 5; ++k) {
        size_t victim = sup_rng_below(&rng, 24);
        if (boxes.live[victim]) {
          ck_assert_int_eq(arcnav_map_remove_obstacle(map, boxes.id[victim]), ARCNAV_OK);
          boxes.live[victim] = false;
        }
      }
    } else if (step == 3) {
      for (int k = 0; k < 5; ++k) {
        size_t moved = sup_rng_below(&rng, 24);
        if (boxes.live[moved]) {
          ck_assert_int_eq(arcnav_map_move_obstacle(map, boxes.id[moved], (vec){3.5, -2.25}, NULL),
                           ARCNAV_OK);
          boxes.box[moved][0] += 3.5, boxes.box[moved][2] += 3.5;
          boxes.box[moved][1] -= 2.25, boxes.box[moved][3] -= 2.25;
        }
      }
    } else if (step == 4) {
      add_box(map, &boxes, 96, 95, 104, 105); // the door shut
    }
    if (step > 0) {
      ck_assert_int_eq(arcnav_planner_update(single.planner, map), ARCNAV_OK);
      ck_assert_int_eq(arcnav_planner_update(ranged.planner, map), ARCNAV_OK);
      ck_assert_int_eq(arcnav_planner_engine(single.planner), ARCNAV_ENGINE_INTERVAL);
    }
    sup_map m = boxes_map(&boxes);
    const double radii[] = {2.0, 2.9, 3.1};
    for (size_t r = 0; r < 3; ++r) {
      double R = radii[r];
      engine_run want = open_tangent(map, R);
      engine_run *got = &ranged;
      if (r == 0) {
        got = &single;
      } else {
        ck_assert_int_eq(arcnav_query_set_radius(ranged.query, R), ARCNAV_OK);
      }
      for (int q = 0; q < 6; ++q) {
        vec s, g;
        ck_assert(sup_random_free_point(&m, R, &rng, (vec){-10, -10}, (vec){210, 95}, 0, 500, &s));
        ck_assert(sup_random_free_point(&m, R, &rng, (vec){-10, 105}, (vec){210, 210}, 0, 500, &g));
        compare_query(&m, "updated map", (uint64_t)step, R, &want, got, s, g, &t);
      }
      close_run(&want);
    }
    sup_map_free(&m);
  }
  close_run(&single);
  close_run(&ranged);
  arcnav_map_destroy(map);
  ck_assert_uint_ge(t.found, 60);
}
END_TEST

// Units (arcnav_map_add_unit) block the interval engine as the circles they are; a query that
// ignores one (arcnav_query_set_ignored) is answered as a prebuilt tangent planner on the map
// without that unit answers, from the unit's own centre too.
START_TEST(test_units) {
  sup_map base = sup_gen_random_rectangles(12, 20, 200.0, 8.0, 30.0);
  sup_rng rng = sup_rng_seed(77);
  enum { UNITS = 8 };
  sup_circle units[UNITS];
  arcnav_obstacle_id ids[UNITS];
  arcnav_map *map = NULL;
  ck_assert_int_eq(sup_map_to_arcnav(&base, &map), ARCNAV_OK);
  sup_map with_units;
  sup_map_init(&with_units);
  sup_map_copy(&with_units, &base);
  for (size_t u = 0; u < UNITS; ++u) {
    units[u].center = (vec){sup_rng_uniform(&rng, 10, 190), sup_rng_uniform(&rng, 10, 190)};
    units[u].radius = sup_rng_uniform(&rng, 1.0, 4.0);
    ck_assert_int_eq(arcnav_map_add_unit(map, units[u].center, units[u].radius, &ids[u]),
                     ARCNAV_OK);
    sup_map_add_circle(&with_units, units[u].center, units[u].radius);
  }
  double R = 1.5;
  engine_run want = open_tangent(map, R);
  engine_run got = open_interval(map, R);
  tally t = {0};
  vec lo, hi;
  padded_box(&with_units, &lo, &hi);
  for (int q = 0; q < 16; ++q) {
    vec s, g;
    ck_assert(sup_random_free_point(&with_units, R, &rng, lo, hi, 0.0, 500, &s));
    ck_assert(sup_random_free_point(&with_units, R, &rng, lo, hi, 0.0, 500, &g));
    compare_query(&with_units, "units", 0, R, &want, &got, s, g, &t);
  }
  close_run(&want);
  size_t answered = 0;
  for (size_t u = 0; u < 3; ++u) {
    // The map without unit u, for the reference and the verifier.
    sup_map seen;
    sup_map_init(&seen);
    sup_map_copy(&seen, &base);
    for (size_t v = 0; v < UNITS; ++v) {
      if (v != u) {
        sup_map_add_circle(&seen, units[v].center, units[v].radius);
      }
    }
    arcnav_map *seen_map = NULL;
    ck_assert_int_eq(sup_map_to_arcnav(&seen, &seen_map), ARCNAV_OK);
    want = open_tangent(seen_map, R);
    // The interval engine ignores units as tangents on demand do (its features leave them out).
    arcnav_status set = arcnav_query_set_ignored(got.query, &ids[u], 1);
    ck_assert_msg(set == ARCNAV_OK, "set_ignored: %s", arcnav_status_name(set));
    for (int q = 0; q < 8 && set == ARCNAV_OK; ++q) {
      // From the ignored unit's own centre (the unit itself), or from anywhere.
      vec s = units[u].center, g;
      if (q % 2 && !sup_random_free_point(&seen, R, &rng, lo, hi, 0.0, 500, &s)) {
        continue;
      }
      ck_assert(sup_random_free_point(&seen, R, &rng, lo, hi, 0.0, 500, &g));
      compare_query_ex(&seen, "ignoring a unit", u, R, &want, &got, s, g, &t, false);
      ++answered;
    }
    ck_assert_int_eq(arcnav_query_set_ignored(got.query, NULL, 0), ARCNAV_OK);
    close_run(&want);
    arcnav_map_destroy(seen_map);
    sup_map_free(&seen);
  }
  ck_assert_uint_ge(answered, 12);
  close_run(&got);
  arcnav_map_destroy(map);
  sup_map_free(&with_units);
  sup_map_free(&base);
  ck_assert_uint_ge(t.found, 10);
}
END_TEST

// --- 8. the engine the planner reports -----------------------------------------------------------

static arcnav_engine engine_of(const arcnav_map *map, arcnav_engine engine, double radius,
                               double max_radius) {
  arcnav_planner_def def = arcnav_default_planner_def();
  def.engine = engine;
  def.radius = radius;
  def.max_radius = max_radius;
  arcnav_planner *planner = NULL;
  ck_assert_int_eq(arcnav_planner_create(map, &def, &planner), ARCNAV_OK);
  arcnav_engine reported = arcnav_planner_engine(planner);
  arcnav_planner_destroy(planner);
  return reported;
}

START_TEST(test_reported_engine) {
  for (int circles = 0; circles < 2; ++circles) {
    sup_map m = sup_gen_random_rectangles(3, 10, 100.0, 5.0, 20.0);
    if (circles) {
      sup_map_add_circle(&m, (vec){150, 50}, 5);
    }
    arcnav_map *map = NULL;
    ck_assert_int_eq(sup_map_to_arcnav(&m, &map), ARCNAV_OK);
    double eps = arcnav_map_tolerance(map);
    ck_assert_int_eq(engine_of(map, ARCNAV_ENGINE_INTERVAL, 1.0, 0.0), ARCNAV_ENGINE_INTERVAL);
    ck_assert_int_eq(engine_of(map, ARCNAV_ENGINE_INTERVAL, 0.01, 0.0), ARCNAV_ENGINE_INTERVAL);
    ck_assert_int_eq(engine_of(map, ARCNAV_ENGINE_INTERVAL, 0.0, 8.0), ARCNAV_ENGINE_INTERVAL);
    ck_assert_int_eq(engine_of(map, ARCNAV_ENGINE_INTERVAL, 3.0, 8.0), ARCNAV_ENGINE_INTERVAL);
    // A point agent gets what AUTO builds for it: the funnel among polygons, else the tangent
    // engine; a radius within the point-agent tolerance is a point agent.
    arcnav_engine point = engine_of(map, ARCNAV_ENGINE_AUTO, 0.0, 0.0);
    ck_assert_int_eq(point, circles ? ARCNAV_ENGINE_TANGENT : ARCNAV_ENGINE_FUNNEL);
    ck_assert_int_eq(engine_of(map, ARCNAV_ENGINE_INTERVAL, 0.0, 0.0), point);
    ck_assert_int_eq(engine_of(map, ARCNAV_ENGINE_INTERVAL, 0.5 * eps, 0.0),
                     engine_of(map, ARCNAV_ENGINE_AUTO, 0.5 * eps, 0.0));
    // And the same answers as AUTO's at R = 0.
    engine_run want = open_run(map, ARCNAV_ENGINE_AUTO, 0.0, 0.0);
    engine_run got = open_run(map, ARCNAV_ENGINE_INTERVAL, 0.0, 0.0);
    vec lo, hi;
    padded_box(&m, &lo, &hi);
    sup_rng rng = sup_rng_seed(5 + (uint64_t)circles);
    tally t = {0};
    for (int q = 0; q < 20; ++q) {
      vec s, g;
      ck_assert(sup_random_free_point(&m, 0.0, &rng, lo, hi, 0.0, 500, &s));
      ck_assert(sup_random_free_point(&m, 0.0, &rng, lo, hi, 0.0, 500, &g));
      compare_query(&m, "point agent", 0, 0.0, &want, &got, s, g, &t);
    }
    ck_assert_uint_ge(t.found, 15);
    close_run(&want);
    close_run(&got);
    // A max_radius below the radius is refused, as for the other engines.
    arcnav_planner_def def = arcnav_default_planner_def();
    def.engine = ARCNAV_ENGINE_INTERVAL;
    def.radius = 2.0;
    def.max_radius = 1.0;
    arcnav_planner *planner = NULL;
    ck_assert_int_eq(arcnav_planner_create(map, &def, &planner), ARCNAV_ERR_INVALID_ARGUMENT);
    ck_assert_ptr_null(planner);
    def.max_radius = 0.0;
    def.radius = -1.0;
    ck_assert_int_eq(arcnav_planner_create(map, &def, &planner), ARCNAV_ERR_NEGATIVE_RADIUS);
    arcnav_map_destroy(map);
    sup_map_free(&m);
  }
}
END_TEST

static Suite *disk_intervals_suite(void) {
  Suite *suite = suite_create("disk_intervals");
  TCase *tc = tcase_create("interval engine against the tangent engine");
  tcase_set_timeout(tc, 300);
  tcase_add_test(tc, test_random_rectangles_and_neerc);
  tcase_add_test(tc, test_mixed_maps);
  tcase_add_test(tc, test_towns);
  tcase_add_test(tc, test_mazes);
  tcase_add_test(tc, test_touching_maps);
  tcase_add_test(tc, test_traced_grids);
  tcase_add_test(tc, test_ranged_planner);
  tcase_add_test(tc, test_gaps_of_two_r);
  tcase_add_test(tc, test_grid_corridors_by_hand);
  tcase_add_test(tc, test_tiny_disk_along_a_wall);
  tcase_add_test(tc, test_square_wrapped);
  tcase_add_test(tc, test_circle_wrapped);
  tcase_add_test(tc, test_bounds_only);
  tcase_add_test(tc, test_sliced_equals_whole);
  tcase_add_test(tc, test_expansion_limit);
  tcase_add_test(tc, test_statuses);
  tcase_add_test(tc, test_partial_answers);
  tcase_add_test(tc, test_planner_update);
  tcase_add_test(tc, test_units);
  tcase_add_test(tc, test_reported_engine);
  suite_add_tcase(suite, tc);
  return suite;
}

int main(void) {
  return test_run_suite(disk_intervals_suite());
}
