// SPDX-License-Identifier: MIT
// Sliced search (arcnav_query_begin, arcnav_query_resume, arcnav_query_best_path) on every engine.
// For each query the whole search (arcnav_find_path) is the reference, and the same query run in
// slices of 1, 3 and 17 expansions must:
// - spend at most its slice per resume, and give ARCNAV_IN_PROGRESS with an empty path meanwhile;
// - offer at every pause a best path so far that the independent verifier passes for the agent's
//   radius, from the start to its own end, an end never farther from the goal than the one before;
// - end with the whole search's answer: status, pieces bit for bit, and the same count of
//   expansions (slices change nothing in the search's course);
// - then say ARCNAV_ERR_NO_SEARCH.
// Also: the expansion limit and partial answers through slices, a map update in the middle of a
// search, the calls that end a search, bad arguments, and a failing allocation at each request.
#include "arcnav_test.h"
#include "mapgen.h"
#include "verify.h"

#include <stdio.h>

typedef arcnav_vec2 vec;

typedef struct engine_case {
  const char *name;
  arcnav_engine engine;
  arcnav_tangent_graph tangent_graph;
  double radius;     ///< the query's
  double max_radius; ///< the planner's, 0: one radius
  /// The expansion limit (and so a slice) also counts what arcnav_query_stats does not: the
  /// on-demand tangent search's further looks from a corner.
  bool counts_more;
  /// Polylines round grown obstacles: they keep R, but turn at kinks.
  bool eroded;
} engine_case;

static const engine_case ENGINES[] = {
    {"tangent prebuilt R=2", ARCNAV_ENGINE_TANGENT, ARCNAV_TANGENT_GRAPH_PREBUILT, 2.0, 0.0, false,
     false},
    {"tangent on demand R=2", ARCNAV_ENGINE_TANGENT, ARCNAV_TANGENT_GRAPH_ON_DEMAND, 2.0, 0.0, true,
     false},
    {"tangent on demand R=0", ARCNAV_ENGINE_TANGENT, ARCNAV_TANGENT_GRAPH_ON_DEMAND, 0.0, 0.0, true,
     false},
    {"tangent ranged R=3 of 8", ARCNAV_ENGINE_AUTO, ARCNAV_TANGENT_GRAPH_AUTO, 3.0, 8.0, true,
     false},
    {"ranged R=0 of 8", ARCNAV_ENGINE_AUTO, ARCNAV_TANGENT_GRAPH_AUTO, 0.0, 8.0, true, false},
    {"optimal funnel R=0", ARCNAV_ENGINE_FUNNEL, ARCNAV_TANGENT_GRAPH_AUTO, 0.0, 0.0, false, false},
    {"optimal funnel R=2 (eroded)", ARCNAV_ENGINE_FUNNEL, ARCNAV_TANGENT_GRAPH_AUTO, 2.0, 0.0,
     false, true},
    {"plain funnel R=0", ARCNAV_ENGINE_PLAIN_FUNNEL, ARCNAV_TANGENT_GRAPH_AUTO, 0.0, 0.0, false,
     false},
    {"plain funnel R=2 (eroded)", ARCNAV_ENGINE_PLAIN_FUNNEL, ARCNAV_TANGENT_GRAPH_AUTO, 2.0, 0.0,
     false, true},
    // The interval search for a disk counts what its statistics count, but hands ends beyond
    // the box of a map without bounds to the tangents on demand, which count more.
    {"interval R=2", ARCNAV_ENGINE_INTERVAL, ARCNAV_TANGENT_GRAPH_AUTO, 2.0, 0.0, true, false},
    {"interval ranged R=3 of 8", ARCNAV_ENGINE_INTERVAL, ARCNAV_TANGENT_GRAPH_AUTO, 3.0, 8.0, true,
     false},
};
#define ENGINE_COUNT (sizeof ENGINES / sizeof ENGINES[0])

static const size_t SLICES[] = {1, 3, 17};
#define SLICE_COUNT (sizeof SLICES / sizeof SLICES[0])

typedef struct run {
  arcnav_planner *planner;
  arcnav_query *query;
  arcnav_path *path, *best, *whole;
} run;

static arcnav_status open_run(const arcnav_map *map, const engine_case *e, run *r) {
  memset(r, 0, sizeof *r);
  arcnav_planner_def def = arcnav_default_planner_def();
  def.engine = e->engine;
  def.tangent_graph = e->tangent_graph;
  def.radius = e->max_radius > 0.0 ? 0.0 : e->radius;
  def.max_radius = e->max_radius;
  arcnav_status status = arcnav_planner_create(map, &def, &r->planner);
  if (status != ARCNAV_OK) {
    return status;
  }
  ck_assert_int_eq(arcnav_query_create(r->planner, &r->query), ARCNAV_OK);
  ck_assert_int_eq(arcnav_query_set_radius(r->query, e->radius), ARCNAV_OK);
  ck_assert_int_eq(arcnav_path_create(NULL, &r->path), ARCNAV_OK);
  ck_assert_int_eq(arcnav_path_create(NULL, &r->best), ARCNAV_OK);
  ck_assert_int_eq(arcnav_path_create(NULL, &r->whole), ARCNAV_OK);
  return ARCNAV_OK;
}

static void close_run(run *r) {
  arcnav_path_destroy(r->whole);
  arcnav_path_destroy(r->best);
  arcnav_path_destroy(r->path);
  arcnav_query_destroy(r->query);
  arcnav_planner_destroy(r->planner);
}

/// Are the two paths the same, piece by piece and bit for bit?
static bool same_path(const arcnav_path *a, const arcnav_path *b) {
  size_t count = arcnav_path_piece_count(a);
  if (count != arcnav_path_piece_count(b) || arcnav_path_length(a) != arcnav_path_length(b)) {
    return false;
  }
  for (size_t i = 0; i < count; ++i) {
    arcnav_piece p = arcnav_path_piece(a, i), q = arcnav_path_piece(b, i);
    if (p.type != q.type || p.from.x != q.from.x || p.from.y != q.from.y || p.to.x != q.to.x ||
        p.to.y != q.to.y || p.length != q.length) {
      return false;
    }
  }
  return true;
}

static double distance(vec a, vec b) {
  return hypot(a.x - b.x, a.y - b.y);
}

/// The independent verifier's judgement of a path of engine `e` from s to its end: the exact
/// engines' paths in full; the eroded funnel's as a polyline (R = 0: pieces that meet and cross
/// no wall) that keeps R by the verifier's signed distance at dense samples.
static bool path_passes(const sup_map *m, const engine_case *e, vec s, const arcnav_path *path,
                        char *why, size_t why_size) {
  double eps = sup_map_tolerance(m);
  sup_verify_report report;
  if (!sup_verify_path(m, e->eroded ? 0.0 : e->radius, eps, s, arcnav_path_end(path), path,
                       &report)) {
    snprintf(why, why_size, "%s", report.message);
    return false;
  }
  if (!e->eroded || arcnav_path_piece_count(path) == 0) {
    return true;
  }
  size_t count = 0;
  ck_assert_int_eq(arcnav_path_sample(path, e->radius / 8.0, NULL, 0, &count), ARCNAV_OK);
  vec *points = malloc(count * sizeof *points);
  ck_assert_ptr_nonnull(points);
  ck_assert_int_eq(arcnav_path_sample(path, e->radius / 8.0, points, count, &count), ARCNAV_OK);
  bool ok = true;
  for (size_t i = 0; i < count && ok; ++i) {
    double d = sup_signed_distance_to_obstacles(m, points[i]);
    if (d < e->radius - 1e-7 * 300.0) {
      snprintf(why, why_size, "clearance %.9g < R at (%g, %g)", d, points[i].x, points[i].y);
      ok = false;
    }
  }
  free(points);
  return ok;
}

/// Runs the query from s to g in slices of `slice` on r, checking every pause, and compares the
/// answer with `whole_status`, r->whole and `whole_stats`. Returns the number of pauses.
/// `target` is where the search runs: the goal, or with partial answers and a blocked goal the
/// nearest place the agent fits; NAN when the search gives way to another on the way.
static size_t check_sliced(run *r, const sup_map *m, const engine_case *e, vec s, vec g, vec target,
                           size_t slice, arcnav_status whole_status,
                           arcnav_query_stats whole_stats) {
  const char *name = e->name;
  ck_assert_int_eq(arcnav_query_begin(r->query, s, g), ARCNAV_OK);
  // Before the first slice the best path is the start alone.
  ck_assert_int_eq(arcnav_query_best_path(r->query, r->best), ARCNAV_OK);
  ck_assert_uint_eq(arcnav_path_piece_count(r->best), 0);
  ck_assert_vec2_near(arcnav_path_end(r->best), s, 0.0);
  double gap = distance(s, target);
  vec last_end = s;
  size_t expanded = 0, pauses = 0;
  arcnav_status status;
  for (;;) {
    status = arcnav_query_resume(r->query, slice, r->path);
    size_t now = arcnav_query_get_stats(r->query).nodes_expanded;
    ck_assert_msg(now >= expanded && now - expanded <= slice,
                  "%s, slice %zu: a resume went from %zu to %zu expansions", name, slice, expanded,
                  now);
    expanded = now;
    if (status != ARCNAV_IN_PROGRESS) {
      break;
    }
    ++pauses;
    ck_assert_msg(e->counts_more ? pauses < 1000000 : pauses <= whole_stats.nodes_expanded + 2,
                  "%s: more pauses than expansions", name);
    ck_assert_uint_eq(arcnav_path_piece_count(r->path), 0);
    ck_assert_int_eq(arcnav_query_best_path(r->query, r->best), ARCNAV_OK);
    vec end = arcnav_path_end(r->best);
    char why[300];
    // Verified when it changed (the verifier's dense sampling is the test's main cost).
    bool changed = end.x != last_end.x || end.y != last_end.y;
    last_end = end;
    ck_assert_msg(!changed || path_passes(m, e, s, r->best, why, sizeof why),
                  "%s, slice %zu, pause %zu: best path so far (%.17g,%.17g)->(%.17g,%.17g): %s",
                  name, slice, pauses, s.x, s.y, end.x, end.y, why);
    double now_gap = distance(end, target);
    ck_assert_msg(isnan(target.x) || now_gap <= gap,
                  "%s: the best path so far went back from the goal (%g > %g)", name, now_gap, gap);
    gap = now_gap;
  }
  ck_assert_msg(status == whole_status,
                "%s, slice %zu, (%.17g,%.17g)->(%.17g,%.17g): sliced %s, "
                "whole %s",
                name, slice, s.x, s.y, g.x, g.y, arcnav_status_name(status),
                arcnav_status_name(whole_status));
  ck_assert_msg(same_path(r->path, r->whole), "%s, slice %zu: the sliced path differs", name,
                slice);
  ck_assert_uint_eq(expanded, whole_stats.nodes_expanded);
  ck_assert_int_eq(arcnav_query_resume(r->query, slice, r->path), ARCNAV_ERR_NO_SEARCH);
  ck_assert_int_eq(arcnav_query_best_path(r->query, r->best), ARCNAV_ERR_NO_SEARCH);
  return pauses;
}

static sup_map test_map(int which, uint64_t seed) {
  switch (which) {
  case 0:
    return sup_gen_random_rectangles(seed, 40, 300.0, 8.0, 40.0);
  case 1:
    return sup_gen_town(seed, 3, 40.0, 10.0, 2.0, 8.0);
  default:
    return sup_gen_mixed(seed, 25, 300.0, 3.0);
  }
}

START_TEST(test_sliced_equals_whole) {
  const engine_case *e = &ENGINES[_i];
  size_t paused_queries = 0;
  for (int which = 0; which < 3; ++which) {
    for (uint64_t seed = 1; seed <= test_scaled_count(2); ++seed) {
      sup_map m = test_map(which, seed + 10 * (uint64_t)which);
      arcnav_map *map = NULL;
      ck_assert_int_eq(sup_map_to_arcnav(&m, &map), ARCNAV_OK);
      run r;
      if (open_run(map, e, &r) != ARCNAV_OK) {
        // The eroded funnel and the tangent engine at R = 0 take polygons and circles alike; a
        // refusal is a failure.
        ck_abort_msg("%s: planner refused", e->name);
      }
      vec lo, hi;
      ck_assert(sup_map_extent(&m, &lo, &hi));
      sup_rng rng = sup_rng_seed(seed * 977 + (uint64_t)_i);
      for (uint64_t k = 0; k < test_scaled_count(6); ++k) {
        vec s, g;
        if (!sup_random_free_point(&m, e->radius, &rng, lo, hi, 0.01, 1000, &s) ||
            !sup_random_free_point(&m, e->radius, &rng, lo, hi, 0.01, 1000, &g)) {
          continue;
        }
        arcnav_status whole = arcnav_find_path(r.query, s, g, r.whole);
        arcnav_query_stats stats = arcnav_query_get_stats(r.query);
        char why[300];
        ck_assert_msg(whole != ARCNAV_OK || path_passes(&m, e, s, r.whole, why, sizeof why),
                      "%s: %s", e->name, why);
        for (size_t i = 0; i < SLICE_COUNT; ++i) {
          size_t pauses = check_sliced(&r, &m, e, s, g, g, SLICES[i], whole, stats);
          paused_queries += pauses > 0;
        }
      }
      close_run(&r);
      arcnav_map_destroy(map);
      sup_map_free(&m);
    }
  }
  // The maps are big enough that searches pause: the test would otherwise prove nothing.
  ck_assert_msg(paused_queries >= test_scaled_minimum(10, 2), "%s: only %zu sliced queries paused",
                e->name, paused_queries);
}
END_TEST

// A map without bounds, ends beyond the obstacles' box: the interval search hands such a query
// to the funnel, which runs in slices too.
START_TEST(test_sliced_beyond_the_box) {
  sup_map m = sup_gen_random_rectangles(5, 30, 200.0, 10.0, 40.0);
  arcnav_map *map = NULL;
  ck_assert_int_eq(sup_map_to_arcnav(&m, &map), ARCNAV_OK);
  for (size_t e = 0; e < ENGINE_COUNT; ++e) {
    run r;
    ck_assert_int_eq(open_run(map, &ENGINES[e], &r), ARCNAV_OK);
    const vec ends[][2] = {
        {{-50, 100}, {250, 100}}, {{100, -40}, {100, 130}}, {{-20, -20}, {220, 230}}};
    for (size_t k = 0; k < sizeof ends / sizeof ends[0]; ++k) {
      arcnav_status whole = arcnav_find_path(r.query, ends[k][0], ends[k][1], r.whole);
      arcnav_query_stats stats = arcnav_query_get_stats(r.query);
      for (size_t i = 0; i < SLICE_COUNT; ++i) {
        check_sliced(&r, &m, &ENGINES[e], ends[k][0], ends[k][1], ends[k][1], SLICES[i], whole,
                     stats);
      }
    }
    close_run(&r);
  }
  arcnav_map_destroy(map);
  sup_map_free(&m);
}
END_TEST

// The expansion limit and partial answers keep their meaning through slices: the answer is the
// whole search's under the same settings.
START_TEST(test_sliced_limit_and_partial) {
  sup_map m = sup_gen_town(3, 3, 40.0, 10.0, 2.0, 8.0);
  arcnav_map *map = NULL;
  ck_assert_int_eq(sup_map_to_arcnav(&m, &map), ARCNAV_OK);
  vec lo, hi;
  ck_assert(sup_map_extent(&m, &lo, &hi));
  const size_t limits[] = {1, 5, 40};
  size_t partials = 0;
  for (size_t e = 0; e < ENGINE_COUNT; ++e) {
    const engine_case *ec = &ENGINES[e];
    run r;
    ck_assert_int_eq(open_run(map, ec, &r), ARCNAV_OK);
    sup_rng rng = sup_rng_seed(77 + e);
    for (int k = 0; k < 4; ++k) {
      vec s, g;
      ck_assert(sup_random_free_point(&m, ec->radius, &rng, lo, hi, 0.01, 1000, &s));
      ck_assert(sup_random_free_point(&m, ec->radius, &rng, lo, hi, 0.01, 1000, &g));
      for (size_t l = 0; l < sizeof limits / sizeof limits[0]; ++l) {
        ck_assert_int_eq(arcnav_query_set_expansion_limit(r.query, limits[l]), ARCNAV_OK);
        arcnav_status whole = arcnav_find_path(r.query, s, g, r.whole);
        arcnav_query_stats stats = arcnav_query_get_stats(r.query);
        check_sliced(&r, &m, ec, s, g, g, 2, whole, stats);
      }
      ck_assert_int_eq(arcnav_query_set_expansion_limit(r.query, 0), ARCNAV_OK);
      // A goal inside a building: partial answers go to the nearest place the agent fits.
      const sup_ring *ring = &m.polygons[(size_t)k % m.polygon_count].outer;
      vec inside = {0, 0};
      for (size_t v = 0; v < ring->count; ++v) {
        inside.x += ring->points[v].x / (double)ring->count;
        inside.y += ring->points[v].y / (double)ring->count;
      }
      ck_assert_int_eq(arcnav_query_set_partial(r.query, true), ARCNAV_OK);
      arcnav_status whole = arcnav_find_path(r.query, s, inside, r.whole);
      arcnav_query_stats stats = arcnav_query_get_stats(r.query);
      // The search runs to the nearest place the agent fits; when that cannot be reached, it
      // gives way to one to the reachable point nearest to the goal, and the best path so far
      // may then turn elsewhere (no target to hold it to: NAN).
      vec target = inside;
      if (!arcnav_query_point_is_free(r.query, inside)) {
        // The eroded funnel has no exact free test to find it with: its goal stays blocked.
        arcnav_status nearest = arcnav_query_nearest_free(r.query, inside, &target, NULL);
        ck_assert(nearest == ARCNAV_OK || (ec->eroded && nearest == ARCNAV_ERR_INVALID_ARGUMENT));
      }
      if (whole == ARCNAV_PARTIAL) {
        ++partials;
        vec end = arcnav_path_end(r.whole);
        if (end.x != target.x || end.y != target.y) {
          target = (vec){NAN, NAN};
        }
        char why[300];
        ck_assert_msg(path_passes(&m, ec, s, r.whole, why, sizeof why), "%s: partial path: %s",
                      ec->name, why);
      }
      check_sliced(&r, &m, ec, s, inside, target, 2, whole, stats);
      ck_assert_int_eq(arcnav_query_set_partial(r.query, false), ARCNAV_OK);
    }
    close_run(&r);
  }
  // The exact engines answered goals in buildings with partial paths (the eroded ones cannot).
  ck_assert_uint_gt(partials, 0);
  arcnav_map_destroy(map);
  sup_map_free(&m);
}
END_TEST

// The map changes while a search is paused: the next resume begins it again on the new map and
// answers as a planner built afresh on it does.
START_TEST(test_sliced_across_an_update) {
  const engine_case *e = &ENGINES[_i];
  sup_map m = sup_gen_random_rectangles(9, 30, 200.0, 8.0, 30.0);
  arcnav_map *map = NULL;
  ck_assert_int_eq(sup_map_to_arcnav(&m, &map), ARCNAV_OK);
  run r;
  ck_assert_int_eq(open_run(map, e, &r), ARCNAV_OK);
  vec s = {-10, -10}, g = {210, 210};
  ck_assert_int_eq(arcnav_query_begin(r.query, s, g), ARCNAV_OK);
  ck_assert_int_eq(arcnav_query_resume(r.query, 1, r.path), ARCNAV_IN_PROGRESS);
  ck_assert_int_eq(arcnav_query_resume(r.query, 1, r.path), ARCNAV_IN_PROGRESS);
  // A wall across the middle, with one door.
  ck_assert_int_eq(test_add_box(map, -30, 96, 90, 104), ARCNAV_OK);
  ck_assert_int_eq(test_add_box(map, 110, 96, 230, 104), ARCNAV_OK);
  sup_map_add_rect(&m, -30, 96, 90, 104);
  sup_map_add_rect(&m, 110, 96, 230, 104);
  ck_assert_int_eq(arcnav_planner_update(r.planner, map), ARCNAV_OK);
  // The search begins again: nothing of the old map's is offered.
  ck_assert_int_eq(arcnav_query_best_path(r.query, r.best), ARCNAV_OK);
  ck_assert_uint_eq(arcnav_path_piece_count(r.best), 0);
  arcnav_status sliced;
  do {
    sliced = arcnav_query_resume(r.query, 5, r.path);
  } while (sliced == ARCNAV_IN_PROGRESS);
  run fresh;
  ck_assert_int_eq(open_run(map, e, &fresh), ARCNAV_OK);
  arcnav_status whole = arcnav_find_path(fresh.query, s, g, fresh.whole);
  ck_assert_int_eq(sliced, whole);
  ck_assert(same_path(r.path, fresh.whole));
  char why[300];
  ck_assert_msg(whole != ARCNAV_OK || path_passes(&m, e, s, r.path, why, sizeof why), "%s: %s",
                e->name, why);
  close_run(&fresh);
  close_run(&r);
  arcnav_map_destroy(map);
  sup_map_free(&m);
}
END_TEST

// The engines whose ending calls are checked: the tangents on demand, and the interval search
// for a disk of one radius and of several.
static const size_t ENDING_ENGINES[] = {1, 9, 10};
#define ENDING_ENGINE_COUNT (sizeof ENDING_ENGINES / sizeof ENDING_ENGINES[0])

// What ends a sliced search, and what does not.
START_TEST(test_sliced_ending_calls) {
  const engine_case *e = &ENGINES[ENDING_ENGINES[_i]];
  sup_map m = sup_gen_random_rectangles(4, 30, 200.0, 8.0, 30.0);
  arcnav_map *map = NULL;
  ck_assert_int_eq(sup_map_to_arcnav(&m, &map), ARCNAV_OK);
  run r;
  ck_assert_int_eq(open_run(map, e, &r), ARCNAV_OK);
  vec s = {-10, -10}, g = {210, 210};
  arcnav_status whole = arcnav_find_path(r.query, s, g, r.whole);
  ck_assert_int_eq(whole, ARCNAV_OK);

  ck_assert_int_eq(arcnav_query_resume(r.query, 1, r.path), ARCNAV_ERR_NO_SEARCH);
  ck_assert_int_eq(arcnav_query_begin(r.query, s, g), ARCNAV_OK);
  ck_assert_int_eq(arcnav_query_resume(r.query, 1, r.path), ARCNAV_IN_PROGRESS);
  ck_assert_int_eq(arcnav_find_path(r.query, s, g, r.path), ARCNAV_OK);
  ck_assert_int_eq(arcnav_query_resume(r.query, 1, r.path), ARCNAV_ERR_NO_SEARCH);

  ck_assert_int_eq(arcnav_query_begin(r.query, s, g), ARCNAV_OK);
  ck_assert_int_eq(arcnav_query_resume(r.query, 1, r.path), ARCNAV_IN_PROGRESS);
  ck_assert_int_eq(arcnav_query_set_radius(r.query, e->radius), ARCNAV_OK);
  ck_assert_int_eq(arcnav_query_best_path(r.query, r.best), ARCNAV_ERR_NO_SEARCH);

  // Probes and free tests between slices leave the search as it was.
  ck_assert_int_eq(arcnav_query_begin(r.query, s, g), ARCNAV_OK);
  ck_assert_int_eq(arcnav_query_resume(r.query, 1, r.path), ARCNAV_IN_PROGRESS);
  arcnav_clearance clearance;
  ck_assert_int_eq(arcnav_query_clearance(r.query, (vec){100, 100}, &clearance), ARCNAV_OK);
  (void)arcnav_query_point_is_free(r.query, (vec){50, 50});
  vec fits;
  (void)arcnav_query_nearest_free(r.query, (vec){100, 100}, &fits, NULL);
  // A new begin drops the search in progress.
  ck_assert_int_eq(arcnav_query_begin(r.query, g, s), ARCNAV_OK);
  ck_assert_int_eq(arcnav_query_begin(r.query, s, g), ARCNAV_OK);
  arcnav_status sliced;
  do {
    sliced = arcnav_query_resume(r.query, 3, r.path);
  } while (sliced == ARCNAV_IN_PROGRESS);
  ck_assert_int_eq(sliced, whole);
  ck_assert(same_path(r.path, r.whole));
  // A slice of 0 runs to the end.
  ck_assert_int_eq(arcnav_query_begin(r.query, s, g), ARCNAV_OK);
  ck_assert_int_eq(arcnav_query_resume(r.query, 0, r.path), whole);
  ck_assert(same_path(r.path, r.whole));
  close_run(&r);
  arcnav_map_destroy(map);
  sup_map_free(&m);
}
END_TEST

START_TEST(test_sliced_arguments) {
  arcnav_map *map = NULL;
  ck_assert_int_eq(arcnav_map_create(NULL, &map), ARCNAV_OK);
  ck_assert_int_eq(test_add_box(map, 0, 0, 10, 10), ARCNAV_OK);
  run r;
  ck_assert_int_eq(open_run(map, &ENGINES[0], &r), ARCNAV_OK);
  ck_assert_int_eq(arcnav_query_begin(NULL, (vec){0, 0}, (vec){1, 1}), ARCNAV_ERR_INVALID_ARGUMENT);
  ck_assert_int_eq(arcnav_query_resume(NULL, 1, r.path), ARCNAV_ERR_INVALID_ARGUMENT);
  ck_assert_int_eq(arcnav_query_resume(r.query, 1, NULL), ARCNAV_ERR_INVALID_ARGUMENT);
  ck_assert_int_eq(arcnav_query_best_path(NULL, r.path), ARCNAV_ERR_INVALID_ARGUMENT);
  ck_assert_int_eq(arcnav_query_best_path(r.query, NULL), ARCNAV_ERR_INVALID_ARGUMENT);
  ck_assert_int_eq(arcnav_query_begin(r.query, (vec){-5, 5}, (vec){NAN, 5}), ARCNAV_ERR_NOT_FINITE);
  ck_assert_int_eq(arcnav_query_resume(r.query, 1, r.path), ARCNAV_ERR_NO_SEARCH);
  ck_assert_int_eq(arcnav_query_begin(r.query, (vec){-5, 5}, (vec){1e200, 5}),
                   ARCNAV_ERR_TOO_LARGE);
  ck_assert_int_eq(arcnav_query_best_path(r.query, r.path), ARCNAV_ERR_NO_SEARCH);
  // Ends judged at the first resume, as arcnav_find_path() judges them.
  ck_assert_int_eq(arcnav_query_begin(r.query, (vec){5, 5}, (vec){20, 5}), ARCNAV_OK);
  ck_assert_int_eq(arcnav_query_resume(r.query, 1, r.path), ARCNAV_START_BLOCKED);
  ck_assert_int_eq(arcnav_query_begin(r.query, (vec){-5, 5}, (vec){20, 5}), ARCNAV_OK);
  ck_assert_int_eq(arcnav_query_resume(r.query, 1, r.path), ARCNAV_IN_PROGRESS);
  ck_assert_str_eq(arcnav_status_name(ARCNAV_IN_PROGRESS), "in_progress");
  ck_assert_str_eq(arcnav_status_name(ARCNAV_ERR_NO_SEARCH), "no_search");
  ck_assert(!arcnav_status_is_answer(ARCNAV_IN_PROGRESS));
  ck_assert_int_lt(ARCNAV_IN_PROGRESS, ARCNAV_ERR_FIRST);
  close_run(&r);
  arcnav_map_destroy(map);
}
END_TEST

// A failing allocation at each request of a sliced search (the search's growing memory, the
// path's pieces, the best path's): the call that meets it says out_of_memory, a resume's failure
// ends the search, a best path's does not; once allocations succeed again the query object
// answers as before. Nothing leaks.
START_TEST(test_sliced_allocation_failures) {
  const engine_case *e = &ENGINES[_i];
  // A scaled run (valgrind) sweeps the four searches of their own: the prebuilt and on-demand
  // tangent searches, the interval search (R = 0) and the interval search for a disk.
  if (test_scaled_count(ENGINE_COUNT) < ENGINE_COUNT && _i != 0 && _i != 1 && _i != 5 && _i != 9) {
    return;
  }
  test_allocator counter = test_allocator_make();
  arcnav_allocator hooks = test_allocator_hooks(&counter);
  sup_map m = sup_gen_town(2, 2, 40.0, 10.0, 2.0, 8.0);
  vec lo, hi;
  ck_assert(sup_map_extent(&m, &lo, &hi));
  vec s = {lo.x - 3, lo.y - 3}, g = {hi.x + 3, hi.y + 3};
  arcnav_map *map = NULL;
  ck_assert_int_eq(arcnav_map_create(&hooks, &map), ARCNAV_OK);
  for (size_t k = 0; k < m.polygon_count; ++k) {
    const sup_polygon *p = &m.polygons[k];
    ck_assert_int_eq(
        arcnav_map_add_polygon(map, p->outer.points, p->outer.count, NULL, NULL, 0, NULL),
        ARCNAV_OK);
  }
  run r;
  ck_assert_int_eq(open_run(map, e, &r), ARCNAV_OK);
  arcnav_status whole = arcnav_find_path(r.query, s, g, r.whole);
  ck_assert_int_eq(whole, ARCNAV_OK);
  long n = 0;
  for (; n < 100000; ++n) {
    // A fresh query object and fresh paths each time: their memory grows as the searches and
    // the answers need, so the growth of the pieces fails in turn too.
    arcnav_path *path = NULL, *best = NULL;
    ck_assert_int_eq(arcnav_path_create(&hooks, &path), ARCNAV_OK);
    ck_assert_int_eq(arcnav_path_create(&hooks, &best), ARCNAV_OK);
    arcnav_query *query = NULL;
    ck_assert_int_eq(arcnav_query_create(r.planner, &query), ARCNAV_OK);
    ck_assert_int_eq(arcnav_query_set_radius(query, e->radius), ARCNAV_OK);
    long armed = counter.calls + n;
    counter.fail_at = armed;
    bool fired = false;
    arcnav_status status;
    ck_assert_int_eq(arcnav_query_begin(query, s, g), ARCNAV_OK);
    for (;;) {
      status = arcnav_query_resume(query, 2, path);
      if (status == ARCNAV_ERR_OUT_OF_MEMORY) {
        fired = true;
        ck_assert_uint_eq(arcnav_path_piece_count(path), 0);
        ck_assert_int_eq(arcnav_query_resume(query, 2, path), ARCNAV_ERR_NO_SEARCH);
        break;
      }
      if (status != ARCNAV_IN_PROGRESS) {
        break;
      }
      arcnav_status kept = arcnav_query_best_path(query, best);
      if (kept == ARCNAV_ERR_OUT_OF_MEMORY) {
        fired = true;
        ck_assert_uint_eq(arcnav_path_piece_count(best), 0);
      } else {
        ck_assert_int_eq(kept, ARCNAV_OK);
      }
    }
    if (!fired) {
      ck_assert_int_eq(status, whole);
      ck_assert(same_path(path, r.whole));
    }
    ck_assert_msg(fired || counter.calls <= armed,
                  "%s, failing allocation %ld was not reported as out_of_memory", e->name, n);
    counter.fail_at = -1;
    ck_assert_int_eq(arcnav_query_begin(query, s, g), ARCNAV_OK);
    ck_assert_int_eq(arcnav_query_resume(query, 0, path), whole);
    ck_assert(same_path(path, r.whole));
    arcnav_query_destroy(query);
    arcnav_path_destroy(best);
    arcnav_path_destroy(path);
    if (!fired) {
      break;
    }
  }
  ck_assert_msg(n > 0, "%s: no allocation to fail", e->name);
  close_run(&r);
  arcnav_map_destroy(map);
  ck_assert_int_eq(counter.live, 0);
  sup_map_free(&m);
}
END_TEST

static Suite *sliced_suite(void) {
  Suite *suite = suite_create("sliced");
  TCase *tc = tcase_create("every engine");
  tcase_set_timeout(tc, 600);
  tcase_add_loop_test(tc, test_sliced_equals_whole, 0, (int)ENGINE_COUNT);
  tcase_add_test(tc, test_sliced_beyond_the_box);
  tcase_add_test(tc, test_sliced_limit_and_partial);
  tcase_add_loop_test(tc, test_sliced_across_an_update, 0, (int)ENGINE_COUNT);
  tcase_add_loop_test(tc, test_sliced_ending_calls, 0, (int)ENDING_ENGINE_COUNT);
  tcase_add_test(tc, test_sliced_arguments);
  tcase_add_loop_test(tc, test_sliced_allocation_failures, 0, (int)ENGINE_COUNT);
  suite_add_tcase(suite, tc);
  return suite;
}

int main(void) {
  return test_run_suite(sliced_suite());
}
