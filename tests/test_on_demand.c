// SPDX-License-Identifier: MIT
// The tangent engine with tangents found on demand against the same engine with a prebuilt graph:
// two searches over differently built data must agree on every status and, to rounding, on every
// length, and every on-demand path must pass the independent verifier (support/verify.c). The
// prebuilt engine is itself checked against a brute-force reference by test_property.
#include "arcnav_test.h"
#include "mapgen.h"
#include "planner/planner.h"
#include "tangent/tangent_lazy.h"
#include "tangent/tangent_state.h"
#include "verify.h"

#include <stdio.h>
#include <stdlib.h>

typedef arcnav_vec2 vec;

typedef struct mode_run {
  arcnav_planner *planner;
  arcnav_query *query;
  arcnav_path *path;
} mode_run;

static mode_run open_mode(const arcnav_map *map, double radius, arcnav_tangent_graph mode) {
  mode_run run = {NULL, NULL, NULL};
  arcnav_planner_def def = arcnav_default_planner_def();
  def.engine = ARCNAV_ENGINE_TANGENT;
  def.radius = radius;
  def.tangent_graph = mode;
  ck_assert_int_eq(arcnav_planner_create(map, &def, &run.planner), ARCNAV_OK);
  ck_assert_int_eq(arcnav_query_create(run.planner, &run.query), ARCNAV_OK);
  ck_assert_int_eq(arcnav_path_create(NULL, &run.path), ARCNAV_OK);
  return run;
}

static void close_mode(mode_run *run) {
  arcnav_path_destroy(run->path);
  arcnav_query_destroy(run->query);
  arcnav_planner_destroy(run->planner);
}

typedef struct tally {
  size_t queries, found, no_path;
  size_t at_once;   ///< no_path on demand with nothing expanded, where a point's path exists
  bool gather_late; ///< the on-demand searches gather late (an_lazy_search_gather_late())
  /// Ends at the centres of this grid's free cells, the map its tracing (NULL: random free points).
  const sup_cell_grid *cells;
} tally;

// Does a point agent find a path between the ends (the optimal funnel)?
static bool point_path_exists(const arcnav_map *map, vec s, vec g) {
  arcnav_planner_def def = arcnav_default_planner_def();
  def.engine = ARCNAV_ENGINE_FUNNEL;
  arcnav_planner *planner = NULL;
  arcnav_query *query = NULL;
  arcnav_path *path = NULL;
  ck_assert_int_eq(arcnav_planner_create(map, &def, &planner), ARCNAV_OK);
  ck_assert_int_eq(arcnav_query_create(planner, &query), ARCNAV_OK);
  ck_assert_int_eq(arcnav_path_create(NULL, &path), ARCNAV_OK);
  bool found = arcnav_find_path(query, s, g, path) == ARCNAV_OK;
  arcnav_path_destroy(path);
  arcnav_query_destroy(query);
  arcnav_planner_destroy(planner);
  return found;
}

static void compare_on(const sup_map *generated, const char *label, uint64_t seed,
                       const double *radii, size_t radius_count, size_t queries, tally *t) {
  arcnav_map *map = NULL;
  ck_assert_int_eq(sup_map_to_arcnav(generated, &map), ARCNAV_OK);
  double eps = arcnav_map_tolerance(map);
  vec lo, hi;
  ck_assert(sup_map_extent(generated, &lo, &hi));
  double pad = 0.05 * fmax(hi.x - lo.x, hi.y - lo.y);
  vec box_lo = {lo.x - pad, lo.y - pad}, box_hi = {hi.x + pad, hi.y + pad};
  for (size_t r = 0; r < radius_count; ++r) {
    double R = radii[r];
    mode_run prebuilt = open_mode(map, R, ARCNAV_TANGENT_GRAPH_PREBUILT);
    mode_run on_demand = open_mode(map, R, ARCNAV_TANGENT_GRAPH_ON_DEMAND);
    arcnav_planner_info info;
    arcnav_planner_get_info(on_demand.planner, &info);
    ck_assert_uint_eq(info.node_count, 0); // nothing prebuilt
    if (t->gather_late && R > 0.0) {
      an_tangent_query *engine_query = on_demand.query->engine_query;
      an_lazy_search_gather_late(engine_query->lazy, true);
    }
    sup_rng rng = sup_rng_seed(seed * 31 + r);
    for (size_t q = 0; q < queries; ++q) {
      vec s, g;
      if (t->cells ? !sup_cell_grid_end(t->cells, generated, R, true, &rng, &s) ||
                         !sup_cell_grid_end(t->cells, generated, R, true, &rng, &g)
                   : !sup_random_free_point(generated, R, &rng, box_lo, box_hi, 0.0, 500, &s) ||
                         !sup_random_free_point(generated, R, &rng, box_lo, box_hi, 0.0, 500, &g)) {
        continue;
      }
      arcnav_status want = arcnav_find_path(prebuilt.query, s, g, prebuilt.path);
      arcnav_status got = arcnav_find_path(on_demand.query, s, g, on_demand.path);
      t->queries++;
      ck_assert_msg(want == got,
                    "%s seed %llu R %g (%.17g, %.17g) -> (%.17g, %.17g): prebuilt %s, "
                    "on demand %s",
                    label, (unsigned long long)seed, R, s.x, s.y, g.x, g.y,
                    arcnav_status_name(want), arcnav_status_name(got));
      if (got != ARCNAV_OK) {
        t->no_path += got == ARCNAV_NO_PATH;
        t->at_once += got == ARCNAV_NO_PATH &&
                      arcnav_query_get_stats(on_demand.query).nodes_expanded == 0 && R > 0.0 &&
                      point_path_exists(map, s, g);
        continue;
      }
      t->found++;
      double a = arcnav_path_length(prebuilt.path), b = arcnav_path_length(on_demand.path);
      ck_assert_msg(fabs(a - b) <= 1e-9 * (1.0 + a),
                    "%s seed %llu R %g (%.17g, %.17g) -> (%.17g, %.17g): prebuilt %.17g, on "
                    "demand %.17g",
                    label, (unsigned long long)seed, R, s.x, s.y, g.x, g.y, a, b);
      sup_verify_report report;
      ck_assert_msg(sup_verify_path(generated, R, eps, s, g, on_demand.path, &report),
                    "%s seed %llu R %g: on-demand path fails the verifier: %s", label,
                    (unsigned long long)seed, R, report.message);
    }
    close_mode(&prebuilt);
    close_mode(&on_demand);
  }
  arcnav_map_destroy(map);
}

START_TEST(test_mixed_maps) {
  tally t = {0};
  for (uint64_t seed = 1; seed <= test_scaled_count(24); ++seed) {
    double hint = 2.0 + (double)(seed % 3);
    sup_map m = sup_gen_mixed(seed, 6 + seed % 10, 100.0, hint);
    double radii[3] = {0.0, 0.4 * hint, 1.1 * hint};
    compare_on(&m, "mixed", seed, radii, 3, 10, &t);
    sup_map_free(&m);
  }
  printf("on demand, mixed: %zu queries, %zu found, %zu no path\n", t.queries, t.found, t.no_path);
  ck_assert_uint_ge(t.found, test_scaled_minimum(200, 24));
  ck_assert_uint_ge(t.no_path, 1);
}
END_TEST

START_TEST(test_rectangles_mazes_towns) {
  tally t = {0};
  for (uint64_t seed = 1; seed <= test_scaled_count(3); ++seed) {
    double radii[3] = {0.0, 3.0, 12.0};
    sup_map rects = sup_gen_random_rectangles(seed, 60, 600.0, 10.0, 60.0);
    compare_on(&rects, "rectangles", seed, radii, 3, 15, &t);
    sup_map_free(&rects);
    sup_map maze = sup_gen_maze(seed, 6, 40.0, 4.0);
    compare_on(&maze, "maze", seed, radii, 3, 10, &t);
    sup_map_free(&maze);
    sup_map town = sup_gen_town(seed, 3, 60.0, 16.0, 5.0, 8.0);
    double town_radii[2] = {0.0, 3.2};
    compare_on(&town, "town", seed, town_radii, 2, 10, &t);
    sup_map_free(&town);
    sup_map neerc = sup_gen_neerc_worst(seed);
    double neerc_radii[2] = {0.0, 1.0 + (double)(seed * 7 % 40)};
    compare_on(&neerc, "neerc", seed, neerc_radii, 2, 8, &t);
    sup_map_free(&neerc);
  }
  printf("on demand, rectangles/mazes/towns: %zu queries, %zu found\n", t.queries, t.found);
  ck_assert_uint_ge(t.found, test_scaled_minimum(100, 3));
}
END_TEST

// Caves and rooms traced from grids of cells, like the game maps: corridors one cell wide, where
// the disk of radius 0.5 touches both sides, and for larger disks corners whose wedge's arc is
// not wholly free, so that the arcs from an arrival to its departures are checked one by one.
START_TEST(test_traced_grids) {
  static sup_cell_grid cells;
  tally t = {.cells = &cells};
  for (uint64_t seed = 1; seed <= test_scaled_count(8); ++seed) {
    sup_rng rng = sup_rng_seed(seed * 977 + 5);
    sup_cell_grid_random(&rng, seed % 2, &cells);
    sup_map m = sup_cell_grid_to_map(&cells, (seed / 2) % 2 == 0);
    double radii[4] = {0.5, 1.0, 1.5, 2.0};
    compare_on(&m, seed % 2 ? "cave" : "rooms", seed, radii, 4, 12, &t);
    sup_map_free(&m);
  }
  printf("on demand, traced grids: %zu queries, %zu found, %zu no path\n", t.queries, t.found,
         t.no_path);
  ck_assert_uint_ge(t.found, test_scaled_minimum(200, 8));
  ck_assert_uint_ge(t.no_path, test_scaled_minimum(5, 8));
}
END_TEST

typedef struct bound_tally {
  size_t checked;  ///< touching points whose bound was held to the prebuilt graph's length
  size_t shutting; ///< searches whose guide shut narrow portals
} bound_tally;

// After a search on demand, its bounds on the way on from points of corner circles (the keys of
// arrivals touching there) against the prebuilt graph's length from there to the goal.
static void check_touch_bounds(const mode_run *on_demand, const mode_run *prebuilt, vec g,
                               sup_rng *rng, bound_tally *t) {
  an_tangent_query *q = on_demand->query->engine_query;
  t->shutting += q->measure_shuts;
  size_t corners = q->engine->corner_count;
  for (int k = 0; k < 24 && corners > 0; ++k) {
    uint32_t c = (uint32_t)sup_rng_below(rng, corners);
    const an_corner *corner = &q->corners[c];
    double a = corner->wedge_start + sup_rng_uniform(rng, 0.0, corner->wedge_sweep);
    vec x = {corner->center.x + corner->radius * cos(a),
             corner->center.y + corner->radius * sin(a)};
    if (!arcnav_planner_point_is_free(prebuilt->planner, x) ||
        arcnav_find_path(prebuilt->query, x, g, prebuilt->path) != ARCNAV_OK) {
      continue;
    }
    double length = arcnav_path_length(prebuilt->path);
    double bound = an_tangent_touch_bound(q, c, x);
    ck_assert_msg(bound <= length * (1.0 + 1e-9) + 1e-9,
                  "corner %u at (%.17g, %.17g) R %g: bound %.17g on the way on from (%.17g, "
                  "%.17g), which is %.17g",
                  c, corner->center.x, corner->center.y, corner->radius, bound, x.x, x.y, length);
    t->checked++;
  }
}

// Where a test draws the ends of its queries: at the centres of free cells of the grid `traced`
// the map was traced from, or else anywhere in a box, one for the start [0] and one for the goal
// [1]; always where the disk fits.
typedef struct end_draw {
  const sup_cell_grid *traced;
  vec lo[2], hi[2];
} end_draw;

static bool free_end(const sup_map *m, const end_draw *draw, int which, double R, sup_rng *rng,
                     vec *end) {
  return draw->traced
             ? sup_cell_grid_end(draw->traced, m, R, true, rng, end)
             : sup_random_free_point(m, R, rng, draw->lo[which], draw->hi[which], 0.0, 500, end);
}

// `queries` searches on demand at radius R on map m, each followed by check_touch_bounds().
static void check_bounds_on(const sup_map *m, const end_draw *draw, double R, int queries,
                            sup_rng *rng, bound_tally *t) {
  arcnav_map *map = NULL;
  ck_assert_int_eq(sup_map_to_arcnav(m, &map), ARCNAV_OK);
  mode_run prebuilt = open_mode(map, R, ARCNAV_TANGENT_GRAPH_PREBUILT);
  mode_run on_demand = open_mode(map, R, ARCNAV_TANGENT_GRAPH_ON_DEMAND);
  for (int k = 0; k < queries; ++k) {
    vec s, g;
    if (free_end(m, draw, 0, R, rng, &s) && free_end(m, draw, 1, R, rng, &g) &&
        arcnav_find_path(on_demand.query, s, g, on_demand.path) == ARCNAV_OK) {
      check_touch_bounds(&on_demand, &prebuilt, g, rng, t);
    }
  }
  close_mode(&prebuilt);
  close_mode(&on_demand);
  arcnav_map_destroy(map);
}

// The guide of a disk's search keeps off the portals too narrow for it, so what it measured at a
// corner's vertex may not hold on the far side of one: every touching point's bound must still
// be at most the way on from there (docs/DESIGN.md, "The guide keeps to the disk's passages").
START_TEST(test_guide_bounds_hold_at_touching_points) {
  static sup_cell_grid cells;
  bound_tally t = {0};
  // Traced grids at radii where many of their portals are shut, and mixed maps.
  for (uint64_t seed = 1; seed <= test_scaled_count(12); ++seed) {
    sup_rng rng = sup_rng_seed(seed * 7919 + 3);
    bool mixed = seed % 3 == 0;
    end_draw draw = {mixed ? NULL : &cells, {{0, 0}, {0, 0}}, {{100, 100}, {100, 100}}};
    sup_map m;
    if (mixed) {
      m = sup_gen_mixed(seed, 8 + seed % 10, 100.0, 3.0);
    } else {
      sup_cell_grid_random(&rng, seed % 2, &cells);
      m = sup_cell_grid_to_map(&cells, true);
    }
    double radii[3] = {0.9, 1.4, 2.2};
    for (size_t r = 0; r < 3; ++r) {
      check_bounds_on(&m, &draw, radii[r] * (mixed ? 2.0 : 1.0), 6, &rng, &t);
    }
    sup_map_free(&m);
  }
  // Slits narrower than the disk between two wedges, a spike's tip just below each, whose circle
  // reaches above the slit: from the goal above the slit the guide goes round the wedges to the
  // tip, far longer than the way from above the slit.
  for (uint64_t seed = 1; seed <= test_scaled_count(40); ++seed) {
    sup_rng rng = sup_rng_seed(seed * 104729 + 11);
    double gap = sup_rng_uniform(&rng, 1.2, 1.9);
    vec tip = {sup_rng_uniform(&rng, -0.3, 0.3) * gap, -sup_rng_uniform(&rng, 0.05, 0.5)};
    sup_map m = {0};
    vec left[3] = {{-8.0, -0.4}, {-0.5 * gap, 0.0}, {-8.0, 0.4}};
    vec right[3] = {{8.0, 0.4}, {0.5 * gap, 0.0}, {8.0, -0.4}};
    vec spike[3] = {{tip.x - 0.5, tip.y - 3.0}, {tip.x + 0.5, tip.y - 3.0}, tip};
    sup_map_add_polygon(&m, left, 3, NULL, NULL, 0);
    sup_map_add_polygon(&m, right, 3, NULL, NULL, 0);
    sup_map_add_polygon(&m, spike, 3, NULL, NULL, 0);
    end_draw draw = {NULL, {{-12.0, -8.0}, {-1.5, 0.0}}, {{12.0, -2.0}, {1.5, 2.5}}};
    check_bounds_on(&m, &draw, 1.0, 8, &rng, &t);
    sup_map_free(&m);
  }
  printf("on demand, touching points' bounds: %zu checked, %zu searches shut portals\n", t.checked,
         t.shutting);
  ck_assert_uint_ge(t.checked, test_scaled_minimum(1000, 12));
  ck_assert_uint_ge(t.shutting, test_scaled_minimum(20, 12));
}
END_TEST

// A group's first gather takes the part of the wedge ahead of the arrival that asks for it; an
// arrival touching behind needs the part behind. That is rare (docs/DESIGN.md, "Tangents on
// demand"), so here every first gather takes only the very end of the wedge and nearly every
// departure comes from a part gathered behind: the answers must not change.
START_TEST(test_departures_behind_arrivals) {
  tally t = {.gather_late = true};
  for (uint64_t seed = 1; seed <= test_scaled_count(8); ++seed) {
    double hint = 2.0 + (double)(seed % 3);
    sup_map mixed = sup_gen_mixed(seed, 6 + seed % 10, 100.0, hint);
    double radii[2] = {0.4 * hint, 1.1 * hint};
    compare_on(&mixed, "mixed, late", seed, radii, 2, 10, &t);
    sup_map_free(&mixed);
    sup_map rects = sup_gen_random_rectangles(seed, 40, 500.0, 10.0, 60.0);
    double rect_radii[2] = {3.0, 12.0};
    compare_on(&rects, "rectangles, late", seed, rect_radii, 2, 10, &t);
    sup_map_free(&rects);
  }
  printf("on demand, gathering late: %zu queries, %zu found\n", t.queries, t.found);
  ck_assert_uint_ge(t.found, test_scaled_minimum(150, 8));
}
END_TEST

// Towns whose alleys are about as wide as the disk: many ends a point joins are apart for the
// disk only through alleys too narrow, which the passages of the triangulation tell at once
// (docs/DESIGN.md, "No path for a disk without a search"). The prebuilt engine, which has no such
// shortcut, must agree on every answer.
START_TEST(test_narrow_passages_need_no_search) {
  tally t = {0};
  for (uint64_t seed = 1; seed <= test_scaled_count(8); ++seed) {
    double R = 2.0;
    sup_map town = sup_gen_town(seed, 3, 30.0, 2.0 * R * 0.9, 2.0 * R * 0.8, 2.0 * R * 1.2);
    double radii[2] = {R, 0.8 * R};
    compare_on(&town, "narrow town", seed, radii, 2, 20, &t);
    sup_map_free(&town);
  }
  printf("on demand, narrow towns: %zu queries, %zu found, %zu no path, %zu of them at once\n",
         t.queries, t.found, t.no_path, t.at_once);
  ck_assert_uint_ge(t.found, test_scaled_minimum(40, 8));
  ck_assert_uint_ge(t.at_once, test_scaled_minimum(10, 8));
}
END_TEST

// Two rooms joined by a door 3 wide: a disk of radius 1.4 passes, one of radius 1.6 does not, and
// is told so with nothing expanded.
START_TEST(test_door_too_narrow) {
  arcnav_map *map = NULL;
  ck_assert_int_eq(arcnav_map_create(NULL, &map), ARCNAV_OK);
  vec bounds[4] = {{0, 0}, {40, 0}, {40, 20}, {0, 20}};
  vec below[4] = {{19, 0}, {21, 0}, {21, 8}, {19, 8}};
  vec above[4] = {{19, 11}, {21, 11}, {21, 20}, {19, 20}};
  ck_assert_int_eq(arcnav_map_set_bounds(map, bounds, 4, NULL), ARCNAV_OK);
  ck_assert_int_eq(arcnav_map_add_polygon(map, below, 4, NULL, NULL, 0, NULL), ARCNAV_OK);
  ck_assert_int_eq(arcnav_map_add_polygon(map, above, 4, NULL, NULL, 0, NULL), ARCNAV_OK);
  vec s = {5, 10}, g = {35, 10};
  mode_run fits = open_mode(map, 1.4, ARCNAV_TANGENT_GRAPH_ON_DEMAND);
  ck_assert_int_eq(arcnav_find_path(fits.query, s, g, fits.path), ARCNAV_OK);
  mode_run wide = open_mode(map, 1.6, ARCNAV_TANGENT_GRAPH_ON_DEMAND);
  ck_assert_int_eq(arcnav_find_path(wide.query, s, g, wide.path), ARCNAV_NO_PATH);
  ck_assert_uint_eq(arcnav_query_get_stats(wide.query).nodes_expanded, 0);
  // Exactly as wide as the door (2R = 3): open, the gap of exactly 2R.
  mode_run exact = open_mode(map, 1.5, ARCNAV_TANGENT_GRAPH_ON_DEMAND);
  ck_assert_int_eq(arcnav_find_path(exact.query, s, g, exact.path), ARCNAV_OK);
  close_mode(&fits);
  close_mode(&wide);
  close_mode(&exact);
  arcnav_map_destroy(map);
}
END_TEST

// Queries where the shortest path arrives at a corner a second time, at a touching point before
// the first arrival's along the turn, and leaves from between the two: the search must not drop
// that later, dearer arrival (found by comparing the engines on thousands of random queries).
typedef struct second_arrival_case {
  bool mixed; ///< sup_gen_mixed(seed, 4 + seed % 8, 60, 3), else random rectangles
  uint64_t seed;
  double radius;
  vec start, goal;
} second_arrival_case;

START_TEST(test_second_arrival_at_a_corner) {
  static const second_arrival_case cases[] = {
      {false,
       2,
       3.0,
       {144.21816948443171, 71.070369051220837},
       {25.932623567096368, 167.04128607077627}},
      {true,
       283,
       2.6,
       {11.801741339662556, 47.757623650313548},
       {41.387493268695962, -7.880194218303755}},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
    const second_arrival_case *c = &cases[i];
    sup_map generated =
        c->mixed ? sup_gen_mixed(c->seed, 4 + c->seed % 8, 60.0, 3.0)
                 : sup_gen_random_rectangles(c->seed, 12 + c->seed % 20, 200.0, 8.0, 50.0);
    arcnav_map *map = NULL;
    ck_assert_int_eq(sup_map_to_arcnav(&generated, &map), ARCNAV_OK);
    mode_run prebuilt = open_mode(map, c->radius, ARCNAV_TANGENT_GRAPH_PREBUILT);
    mode_run on_demand = open_mode(map, c->radius, ARCNAV_TANGENT_GRAPH_ON_DEMAND);
    ck_assert_int_eq(arcnav_find_path(prebuilt.query, c->start, c->goal, prebuilt.path), ARCNAV_OK);
    ck_assert_int_eq(arcnav_find_path(on_demand.query, c->start, c->goal, on_demand.path),
                     ARCNAV_OK);
    double want = arcnav_path_length(prebuilt.path), got = arcnav_path_length(on_demand.path);
    ck_assert_msg(fabs(want - got) <= 1e-9 * (1.0 + want),
                  "case %zu: prebuilt %.17g, on demand %.17g", i, want, got);
    sup_verify_report report;
    ck_assert_msg(sup_verify_path(&generated, c->radius, arcnav_map_tolerance(map), c->start,
                                  c->goal, on_demand.path, &report),
                  "case %zu: %s", i, report.message);
    close_mode(&prebuilt);
    close_mode(&on_demand);
    arcnav_map_destroy(map);
    sup_map_free(&generated);
  }
}
END_TEST

// A goal sealed in a room: no disk gets in, because no point does. The search learns that from
// its guide (a point's search among the polygons) and stops there, where it used to try every
// tangent it could reach: it expands what the point's search expands, no more.
START_TEST(test_no_path_costs_a_point_search) {
  arcnav_map *map = NULL;
  ck_assert_int_eq(arcnav_map_create(NULL, &map), ARCNAV_OK);
  test_add_sealed_room(map, 12);
  vec s = {10, 60}, g = {120, 120};
  arcnav_planner_def def = arcnav_default_planner_def();
  def.engine = ARCNAV_ENGINE_FUNNEL;
  arcnav_planner *point = NULL;
  arcnav_query *point_query = NULL;
  arcnav_path *path = NULL;
  ck_assert_int_eq(arcnav_planner_create(map, &def, &point), ARCNAV_OK);
  ck_assert_int_eq(arcnav_query_create(point, &point_query), ARCNAV_OK);
  ck_assert_int_eq(arcnav_path_create(NULL, &path), ARCNAV_OK);
  ck_assert_int_eq(arcnav_find_path(point_query, s, g, path), ARCNAV_NO_PATH);
  size_t point_expanded = arcnav_query_get_stats(point_query).nodes_expanded;
  mode_run prebuilt = open_mode(map, 1.0, ARCNAV_TANGENT_GRAPH_PREBUILT);
  mode_run on_demand = open_mode(map, 1.0, ARCNAV_TANGENT_GRAPH_ON_DEMAND);
  ck_assert_int_eq(arcnav_find_path(prebuilt.query, s, g, prebuilt.path), ARCNAV_NO_PATH);
  ck_assert_int_eq(arcnav_find_path(on_demand.query, s, g, on_demand.path), ARCNAV_NO_PATH);
  size_t disk_expanded = arcnav_query_get_stats(on_demand.query).nodes_expanded;
  ck_assert_msg(disk_expanded <= point_expanded, "expanded %zu, the point's search %zu",
                disk_expanded, point_expanded);
  close_mode(&prebuilt);
  close_mode(&on_demand);
  arcnav_path_destroy(path);
  arcnav_query_destroy(point_query);
  arcnav_planner_destroy(point);
  arcnav_map_destroy(map);
}
END_TEST

START_TEST(test_auto_switches_on_size) {
  // Above the documented limit AUTO finds tangents on demand: no graph nodes are kept.
  size_t count = ARCNAV_TANGENT_GRAPH_AUTO_LIMIT / 4 + 50;
  sup_map m = sup_gen_random_rectangles(7, count, 20000.0, 5.0, 40.0);
  arcnav_map *map = NULL;
  ck_assert_int_eq(sup_map_to_arcnav(&m, &map), ARCNAV_OK);
  arcnav_planner_def def = arcnav_default_planner_def();
  def.radius = 2.0;
  arcnav_planner *planner = NULL;
  ck_assert_int_eq(arcnav_planner_create(map, &def, &planner), ARCNAV_OK);
  arcnav_planner_info info;
  arcnav_planner_get_info(planner, &info);
  ck_assert_uint_gt(info.corner_count, ARCNAV_TANGENT_GRAPH_AUTO_LIMIT);
  ck_assert_uint_eq(info.node_count, 0);
  arcnav_planner_destroy(planner);
  def.tangent_graph = (arcnav_tangent_graph)7;
  ck_assert_int_eq(arcnav_planner_create(map, &def, &planner), ARCNAV_ERR_INVALID_ARGUMENT);
  arcnav_map_destroy(map);
  sup_map_free(&m);
}
END_TEST

static Suite *on_demand_suite(void) {
  Suite *suite = suite_create("on_demand");
  TCase *tc = tcase_create("against the prebuilt graph");
  tcase_set_timeout(tc, 300);
  tcase_add_test(tc, test_mixed_maps);
  tcase_add_test(tc, test_rectangles_mazes_towns);
  tcase_add_test(tc, test_traced_grids);
  tcase_add_test(tc, test_guide_bounds_hold_at_touching_points);
  tcase_add_test(tc, test_second_arrival_at_a_corner);
  tcase_add_test(tc, test_departures_behind_arrivals);
  tcase_add_test(tc, test_no_path_costs_a_point_search);
  tcase_add_test(tc, test_narrow_passages_need_no_search);
  tcase_add_test(tc, test_door_too_narrow);
  tcase_add_test(tc, test_auto_switches_on_size);
  suite_add_tcase(suite, tc);
  return suite;
}

int main(void) {
  return test_run_suite(on_demand_suite());
}
