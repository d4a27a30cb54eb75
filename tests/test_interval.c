// SPDX-License-Identifier: MIT
// The interval search (Polyanya) for a point agent over the navmesh. Its answers must be the
// funnel's optimal search's (TA*): the same status for every query and the same length within
// 1e-9 relative, over generated maps of every kind, with ends at random points (free or blocked),
// at mesh vertices and at edge midpoints. Paths are checked by the support library's independent
// verifier at R = 0, and on maps whose obstacles do not touch against its brute-force reference.
// The expansion limit, a failing allocator and warm queries behave as the funnel's.

#include "arcnav_test.h"
#include "funnel/funnel.h"
#include "funnel/interval_search.h"
#include "funnel/landmarks_build.h"
#include "mapgen.h"
#include "mesh/landmarks.h"
#include "mesh/navmesh.h"
#include "mesh/navmesh_build.h"
#include "navmesh_test.h"
#include "reference.h"
#include "verify.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const an_allocator plain_alloc = {{0}};

typedef struct fixture {
  arcnav_map *map;
  an_navmesh *mesh;
  an_funnel_scratch *funnel;
  an_interval_scratch *interval;
  double eps;
} fixture;

static void check_vertex_tables(const an_navmesh *mesh);
static void check_free_arrays(const an_navmesh *mesh);

static fixture make_fixture(const sup_map *desc) {
  fixture f;
  ck_assert_int_eq(sup_map_to_arcnav(desc, &f.map), ARCNAV_OK);
  ck_assert_int_eq(an_navmesh_build(f.map, &plain_alloc, &f.mesh), ARCNAV_OK);
  check_free_arrays(f.mesh);
  check_vertex_tables(f.mesh);
  // Always, where the engines skip open maps, and as many as on the largest maps, which the
  // searches read four at a time: the searches' keys use them (TA*'s do not).
  ck_assert_int_eq(an_landmarks_build(f.mesh, AN_LANDMARKS_MANY, false), ARCNAV_OK);
  ck_assert_int_eq(an_funnel_scratch_create(f.mesh, &plain_alloc, &f.funnel), ARCNAV_OK);
  ck_assert_int_eq(an_interval_scratch_create(f.mesh, &plain_alloc, &f.interval), ARCNAV_OK);
  f.eps = arcnav_map_tolerance(f.map);
  return f;
}

static void free_fixture(fixture *f) {
  an_interval_scratch_destroy(f->interval);
  an_funnel_scratch_destroy(f->funnel);
  an_navmesh_destroy(f->mesh);
  arcnav_map_destroy(f->map);
}

/// A query end drawn from the mesh: a vertex of a free triangle, an edge midpoint, or a random
/// point of the box around the map (free or not).
static vec2 random_end(const fixture *f, sup_rng *rng, vec2 lo, vec2 hi) {
  size_t kind = sup_rng_below(rng, 3);
  if (kind == 2 || an_navmesh_triangle_count(f->mesh) == 0) {
    return v2(sup_rng_uniform(rng, lo.x, hi.x), sup_rng_uniform(rng, lo.y, hi.y));
  }
  vec2 t[3];
  an_navmesh_triangle(f->mesh, sup_rng_below(rng, an_navmesh_triangle_count(f->mesh)), t);
  size_t k = sup_rng_below(rng, 3);
  return kind == 0 ? t[k] : v2_scale(v2_add(t[k], t[(k + 1) % 3]), 0.5);
}

typedef struct tally {
  size_t queries, found, blocked, no_path, verified, interval_nodes, funnel_nodes;
} tally;

/// Interval search against TA* for one query: same status, same length; the path verified.
static void compare_query(fixture *f, const sup_map *desc, vec2 s, vec2 t, tally *c) {
  an_funnel_result want, got;
  arcnav_status ws = an_funnel_find_path_within(f->mesh, f->funnel, s, t, true, 0, &want);
  double want_length = want.length;
  arcnav_status gs = an_interval_find_path_within(f->mesh, f->interval, s, t, 0, &got);
  ck_assert_msg(gs == ws, "(%.17g, %.17g) -> (%.17g, %.17g): interval %s, TA* %s", s.x, s.y, t.x,
                t.y, arcnav_status_name(gs), arcnav_status_name(ws));
  c->queries++;
  if (gs != ARCNAV_OK) {
    c->blocked += gs == ARCNAV_START_BLOCKED || gs == ARCNAV_GOAL_BLOCKED;
    c->no_path += gs == ARCNAV_NO_PATH;
    return;
  }
  ck_assert_msg(fabs(got.length - want_length) <= 1e-9 * fmax(want_length, 1e-300),
                "(%.17g, %.17g) -> (%.17g, %.17g): interval %.17g, TA* %.17g", s.x, s.y, t.x, t.y,
                got.length, want_length);
  c->found++;
  c->interval_nodes += got.nodes_expanded;
  c->funnel_nodes += want.nodes_expanded;
  if (c->found % 4 == 0) { // the verifier samples densely: a quarter of the paths is plenty
    test_verify_polyline(desc, f->eps, s, t, &got);
    c->verified++;
  }
}

static void compare_map(const sup_map *desc, uint64_t seed, int queries, tally *c) {
  fixture f = make_fixture(desc);
  vec2 lo = f.mesh->cdt.points[0], hi = f.mesh->cdt.points[2]; // the box: ends stay inside it
  sup_rng rng = sup_rng_seed(seed * 2654435761u + 11);
  for (int q = 0; q < queries; ++q) {
    compare_query(&f, desc, random_end(&f, &rng, lo, hi), random_end(&f, &rng, lo, hi), c);
  }
  free_fixture(&f);
}

/// Random rectangles with the world's box as bounds on odd seeds.
static sup_map rectangles(uint64_t seed, size_t count) {
  sup_map desc = sup_gen_random_rectangles(seed, count, 100.0, 3.0, 20.0);
  if (seed % 2) {
    arcnav_vec2 b[] = {{-2, -2}, {102, -2}, {102, 102}, {-2, 102}};
    sup_map_set_bounds(&desc, b, 4);
  }
  return desc;
}

/// A game map in small: unit cells of a grid blocked at random, each a square obstacle, so
/// obstacles share edges and corners and shortest paths run along lines through several vertices
/// (where computed interval ends must not hide a vertex lying exactly on a ray).
static sup_map grid_cells(uint64_t seed, size_t side, double blocked) {
  sup_map desc;
  sup_map_init(&desc);
  sup_rng rng = sup_rng_seed(seed);
  for (size_t i = 0; i < side; ++i) {
    for (size_t j = 0; j < side; ++j) {
      if (sup_rng_unit(&rng) < blocked) {
        sup_map_add_rect(&desc, (double)i, (double)j, (double)i + 1, (double)j + 1);
      }
    }
  }
  if (seed % 2) {
    double n = (double)side;
    arcnav_vec2 b[] = {{0, 0}, {n, 0}, {n, n}, {0, n}};
    sup_map_set_bounds(&desc, b, 4);
  }
  return desc;
}

START_TEST(test_against_ta_star) {
  tally c = {0};
  uint64_t seeds = test_scaled_count(8);
  for (uint64_t seed = 1; seed <= seeds; ++seed) {
    sup_map maps[] = {rectangles(seed, 40),
                      sup_gen_mixed(seed, 24, 100.0, 0.0),
                      sup_gen_maze(seed, 6, 10.0, 1.0 + 0.5 * (double)(seed % 3)),
                      sup_gen_town(seed, 2, 30.0, 6.0, 0.5, 3.0),
                      sup_gen_touching(seed, false),
                      sup_gen_touching(seed, true),
                      sup_gen_corner_squares(),
                      grid_cells(seed, 24, 0.3)};
    for (size_t m = 0; m < sizeof maps / sizeof maps[0]; ++m) {
      compare_map(&maps[m], seed * 16 + m, 60, &c);
      sup_map_free(&maps[m]);
    }
  }
  printf("interval vs TA*: %zu queries, %zu found (%zu verified), %zu blocked, %zu no path; "
         "nodes expanded %zu vs %zu\n",
         c.queries, c.found, c.verified, c.blocked, c.no_path, c.interval_nodes, c.funnel_nodes);
  ck_assert_uint_ge(c.queries, test_scaled_minimum(3800, 8));
  ck_assert_uint_ge(c.found, test_scaled_minimum(1500, 8));
  ck_assert_uint_ge(c.blocked, test_scaled_minimum(100, 8));
  ck_assert_uint_ge(c.no_path, test_scaled_minimum(10, 8));
}
END_TEST

/// The maps of the landmark tests: rooms and corridors where walls make paths long, and the rest.
static sup_map landmark_map(uint64_t seed, size_t kind) {
  switch (kind) {
  case 0:
    return sup_gen_maze(seed, 6, 10.0, 1.0 + 0.5 * (double)(seed % 3));
  case 1:
    return grid_cells(seed, 24, 0.35);
  case 2:
    return sup_gen_town(seed, 2, 30.0, 6.0, 0.5, 3.0);
  case 3:
    return sup_gen_touching(seed, seed % 2 == 0);
  default:
    return rectangles(seed, 40);
  }
}

/// Runs `visit` on a fixture of each landmark map (`kinds` kinds, the scaled count of seeds),
/// with a generator seeded for that map.
typedef void (*landmark_visit)(fixture *f, uint64_t seed, size_t kind, sup_rng *rng, void *context);
static void for_landmark_maps(size_t kinds, landmark_visit visit, void *context) {
  for (uint64_t seed = 1; seed <= test_scaled_count(4); ++seed) {
    for (size_t kind = 0; kind < kinds; ++kind) {
      sup_map desc = landmark_map(seed, kind);
      fixture f = make_fixture(&desc);
      sup_rng rng = sup_rng_seed(seed * 31 + kind);
      visit(&f, seed, kind, &rng, context);
      free_fixture(&f);
      sup_map_free(&desc);
    }
  }
}

typedef struct distance_tally {
  size_t compared, unreached;
} distance_tally;

static void check_distances(fixture *f, uint64_t seed, size_t kind, sup_rng *rng, void *context) {
  distance_tally *c = context;
  vec2 lo = f->mesh->cdt.points[0], hi = f->mesh->cdt.points[2];
  size_t nv = f->mesh->cdt.point_count;
  double *d = malloc(nv * sizeof *d);
  ck_assert_ptr_nonnull(d);
  vec2 source;
  arcnav_status st;
  do {
    source = random_end(f, rng, lo, hi);
    st = an_interval_distances(f->mesh, f->interval, source, 0, d);
  } while (st == ARCNAV_START_BLOCKED);
  ck_assert_int_eq(st, ARCNAV_OK);
  for (size_t v = 0; v < nv; ++v) {
    an_funnel_result want;
    vec2 p = f->mesh->cdt.points[v];
    arcnav_status ws = an_funnel_find_path_within(f->mesh, f->funnel, source, p, true, 0, &want);
    if (ws == ARCNAV_OK) {
      ck_assert_msg(fabs(d[v] - want.length) <= 1e-9 * fmax(want.length, 1.0),
                    "seed %llu map %zu: vertex (%.17g, %.17g) at %.17g, TA* %.17g",
                    (unsigned long long)seed, kind, p.x, p.y, d[v], want.length);
      c->compared++;
    } else {
      ck_assert_msg(d[v] == INFINITY, "seed %llu map %zu: vertex (%.17g, %.17g): %s, not %.17g",
                    (unsigned long long)seed, kind, p.x, p.y, arcnav_status_name(ws), d[v]);
      c->unreached++;
    }
  }
  free(d);
}

START_TEST(test_distances_are_ta_star_lengths) {
  // The landmarks' measure: from a free point to every vertex, the length TA* finds, or none
  // where TA* finds no path or the vertex is inside an obstacle.
  distance_tally c = {0};
  for_landmark_maps(5, check_distances, &c);
  ck_assert_uint_ge(c.compared, test_scaled_minimum(2000, 4));
  ck_assert_uint_ge(c.unreached, 1);
}
END_TEST

typedef struct measure_tally {
  size_t searches, exact, bounded, beyond_straight;
} measure_tally;

// A measuring search from a free point to another, run to an extension past the goal: the path
// it finds is the plain search's, and what it says of every vertex's distance from its start is
// at most the distance measured in full (itself TA*'s, above); and it knows many of them exactly,
// and many more than the straight line does.
static void check_measure(fixture *f, uint64_t seed, size_t kind, sup_rng *rng, void *context) {
  measure_tally *c = context;
  vec2 lo = f->mesh->cdt.points[0], hi = f->mesh->cdt.points[2];
  size_t nv = f->mesh->cdt.point_count;
  double *full = malloc(nv * sizeof *full);
  ck_assert_ptr_nonnull(full);
  for (int q = 0; q < 4; ++q) {
    vec2 start = random_end(f, rng, lo, hi), goal = random_end(f, rng, lo, hi);
    an_funnel_result plain, measured;
    if (an_interval_find_path_within(f->mesh, f->interval, start, goal, 0, &plain) != ARCNAV_OK ||
        plain.point_count < 3) {
      continue; // no search: nothing measured
    }
    double plain_length = plain.length;
    // The last goes on to twice the path's length, where the search stops for what it spent
    // before its stop key (every node keyed below the queue's least is expanded then).
    double relative = q == 3 ? 1.0 : q % 2 == 0 ? 0.0 : 1.0 / 64.0, absolute = q < 2 ? 0.0 : 2.0;
    arcnav_status st =
        an_interval_begin_measure(f->mesh, f->interval, start, goal, relative, absolute, &measured);
    ck_assert_int_eq(st, ARCNAV_IN_PROGRESS);
    ck_assert_int_eq(an_interval_resume(f->interval, 0, SIZE_MAX, &measured), ARCNAV_OK);
    ck_assert_msg(fabs(measured.length - plain_length) <= 1e-9 * plain_length,
                  "seed %llu map %zu: measuring search %.17g, plain %.17g",
                  (unsigned long long)seed, kind, measured.length, plain_length);
    double bounds[64];
    size_t bounds_count = 0;
    for (size_t v = 0; v < nv && bounds_count < 64; v += 1 + nv / 64) {
      bounds[bounds_count++] = an_interval_measured_bound(f->interval, (int32_t)v);
    }
    ck_assert_int_eq(an_interval_distances(f->mesh, f->interval, start, 0, full), ARCNAV_OK);
    c->searches++;
    bounds_count = 0;
    for (size_t v = 0; v < nv && bounds_count < 64; v += 1 + nv / 64) {
      double bound = bounds[bounds_count++];
      vec2 p = f->mesh->cdt.points[v];
      ck_assert_msg(bound <= full[v] * (1.0 + 1e-12),
                    "seed %llu map %zu: vertex (%.17g, %.17g): measured bound %.17g, length %.17g",
                    (unsigned long long)seed, kind, p.x, p.y, bound, full[v]);
      if (fabs(bound - full[v]) <= 1e-9 * fmax(full[v], 1.0)) {
        c->exact++;
      } else {
        c->bounded++;
      }
      c->beyond_straight += bound > v2_dist(start, p) * (1.0 + 1e-9);
    }
  }
  free(full);
}

START_TEST(test_measured_bounds_hold) {
  measure_tally c = {0};
  for_landmark_maps(5, check_measure, &c);
  printf("measuring searches: %zu, %zu vertices known, %zu bounded, %zu beyond the straight line\n",
         c.searches, c.exact, c.bounded, c.beyond_straight);
  ck_assert_uint_ge(c.searches, test_scaled_minimum(30, 4));
  ck_assert_uint_ge(c.exact, test_scaled_minimum(300, 4));
  ck_assert_uint_ge(c.bounded, test_scaled_minimum(300, 4));
  ck_assert_uint_ge(c.beyond_straight, test_scaled_minimum(100, 4));
}
END_TEST

typedef struct goal_bounds_context {
  const an_navmesh *mesh;
  vec2 goal;
  an_landmark_goal bounds;
} goal_bounds_context;

static void add_goal_triangle(void *context, int32_t tri) {
  goal_bounds_context *c = context;
  an_landmark_goal_add(&c->mesh->landmarks, c->mesh->cdt.points, &c->mesh->fv[3 * (size_t)tri],
                       c->goal, &c->bounds);
}

typedef struct bound_tally {
  size_t checked, beyond_straight;
} bound_tally;

/// A slot's bound on the way between the places two goals' bounds describe.
static double slot_gain(const an_landmark_goal *goal, const an_landmark_goal *from, size_t k) {
  double gain = fmax(from->below[k] - goal->above[k], goal->below[k] - from->above[k]);
  return gain == gain ? gain : -INFINITY;
}

/// Focusing the goal's bounds on a start keeps AN_LANDMARKS_ACTIVE slots as they were (the same
/// landmark's column and range), and none dropped bounds the way between the two better than one
/// kept.
static void check_focus(fixture *f, const an_landmark_goal *bounds, vec2 start,
                        uint32_t *near_stamp, uint32_t *near_mark, int32_t *near_queue) {
  int32_t tri = an_navmesh_locate(f->mesh, start);
  if (tri < 0 || bounds->count <= AN_LANDMARKS_ACTIVE) {
    return;
  }
  goal_bounds_context sc = {f->mesh, start, {0}};
  an_landmark_goal_start(&f->mesh->landmarks, &sc.bounds);
  an_funnel_near_triangles(f->mesh, start, tri, near_stamp, f->mesh->cdt.tri_count + 1, near_mark,
                           near_queue, add_goal_triangle, &sc);
  an_landmark_goal focused = *bounds;
  an_landmark_goal_focus(&focused, &sc.bounds, AN_LANDMARKS_ACTIVE);
  ck_assert_uint_eq(focused.count, AN_LANDMARKS_ACTIVE);
  bool kept[AN_LANDMARKS_MAX] = {false};
  double least_kept = INFINITY;
  for (size_t i = 0; i < focused.count; ++i) {
    size_t k = focused.column[i];
    ck_assert(k < bounds->count && bounds->column[k] == k && !kept[k]);
    ck_assert(focused.below[i] == bounds->below[k] && focused.above[i] == bounds->above[k]);
    kept[k] = true;
    least_kept = fmin(least_kept, slot_gain(bounds, &sc.bounds, k));
  }
  for (size_t k = 0; k < bounds->count; ++k) {
    ck_assert_msg(kept[k] || slot_gain(bounds, &sc.bounds, k) <= least_kept,
                  "landmark %zu dropped with a bound of %.17g, one kept has %.17g", k,
                  slot_gain(bounds, &sc.bounds, k), least_kept);
  }
}

/// Checks what the landmarks of fixture f's mesh say against TA* on it, for goals drawn by `rng`:
/// from vertices (every third) and points a little way from them that see them; counts the pairs
/// checked and those where the bound beats the straight line.
static void check_bounds(fixture *f, uint64_t seed, size_t kind, sup_rng *rng, void *context) {
  bound_tally *c = context;
  const an_landmarks *lm = &f->mesh->landmarks;
  vec2 lo = f->mesh->cdt.points[0], hi = f->mesh->cdt.points[2];
  size_t cdt_tris = f->mesh->cdt.tri_count + 1;
  uint32_t *near_stamp = calloc(cdt_tris, sizeof *near_stamp), near_mark = 0;
  int32_t *near_queue = malloc(cdt_tris * sizeof *near_queue);
  ck_assert(near_stamp && near_queue);
  for (int g = 0; g < 6; ++g) {
    vec2 goal = random_end(f, rng, lo, hi);
    int32_t tri = an_navmesh_locate(f->mesh, goal);
    if (tri < 0) {
      continue;
    }
    // The goal belongs to every free triangle within eps of it, as the searches take it.
    goal_bounds_context gc = {f->mesh, goal, {0}};
    an_landmark_goal_start(lm, &gc.bounds);
    an_funnel_near_triangles(f->mesh, goal, tri, near_stamp, f->mesh->cdt.tri_count + 1, &near_mark,
                             near_queue, add_goal_triangle, &gc);
    const an_landmark_goal bounds = gc.bounds;
    check_focus(f, &bounds, random_end(f, rng, lo, hi), near_stamp, &near_mark, near_queue);
    for (size_t v = 0; v < f->mesh->cdt.point_count; v += 3) {
      vec2 p = f->mesh->cdt.points[v];
      double reach = sup_rng_uniform(rng, 0.0, 0.5);
      double a = sup_rng_uniform(rng, 0.0, 2.0 * TEST_PI);
      vec2 near = v2(p.x + reach * cos(a), p.y + reach * sin(a));
      vec2 froms[2] = {p, near};
      double reaches[2] = {0.0, reach};
      for (int k = 0; k < 2; ++k) {
        an_funnel_result want, link;
        if (an_funnel_find_path_within(f->mesh, f->funnel, froms[k], goal, true, 0, &want) !=
            ARCNAV_OK) {
          continue;
        }
        double length = want.length;
        // The near point must see the vertex for the bound with that reach to cover it.
        if (k == 1 && (an_funnel_find_path_within(f->mesh, f->funnel, froms[k], p, true, 0,
                                                  &link) != ARCNAV_OK ||
                       link.point_count != 2)) {
          continue;
        }
        double bound = an_landmarks_bound(lm, &bounds, (int32_t)v, reaches[k]);
        ck_assert_msg(bound <= length * (1.0 + 1e-12),
                      "seed %llu map %zu: from (%.17g, %.17g) to (%.17g, %.17g): bound %.17g, "
                      "path %.17g",
                      (unsigned long long)seed, kind, froms[k].x, froms[k].y, goal.x, goal.y, bound,
                      length);
        c->checked++;
        c->beyond_straight += bound > v2_dist(froms[k], goal) * (1.0 + 1e-9);
      }
    }
  }
  free(near_stamp);
  free(near_queue);
}

static void check_fresh_bounds(fixture *f, uint64_t seed, size_t kind, sup_rng *rng,
                               void *context) {
  ck_assert_uint_eq(f->mesh->landmarks.count, AN_LANDMARKS_MANY);
  ck_assert_uint_eq(f->mesh->landmarks.vertex_count, f->mesh->cdt.point_count);
  check_bounds(f, seed, kind, rng, context);
}

START_TEST(test_landmark_bounds_hold) {
  // What the landmarks say of the way from a vertex (and from points round it) to a goal is never
  // more than the shortest path TA* finds, and in mazes it is often more than the straight line.
  bound_tally c = {0};
  for_landmark_maps(5, check_fresh_bounds, &c);
  printf("landmark bounds: %zu checked, %zu beyond the straight line\n", c.checked,
         c.beyond_straight);
  ck_assert_uint_ge(c.checked, test_scaled_minimum(2000, 4));
  ck_assert_uint_ge(c.beyond_straight, test_scaled_minimum(200, 4));
}
END_TEST

/// The mesh's vertex tables (an_navmesh.corner and dead_apex) against their definitions, read off
/// each vertex's own triangles: they must follow every change of the free triangles.
static void check_vertex_tables(const an_navmesh *mesh) {
  size_t points = mesh->cdt.point_count;
  uint8_t *walled = calloc(points + 1, 1);
  int32_t *apex = malloc((points + 1) * sizeof *apex);
  size_t *apex_count = calloc(points + 1, sizeof *apex_count);
  ck_assert(walled && apex && apex_count);
  for (size_t t = 0; t < mesh->free_count; ++t) {
    const int32_t *v = &mesh->fv[3 * t], *n = &mesh->fn[3 * t];
    int open = 0;
    for (int k = 0; k < 3; ++k) {
      open += n[k] >= 0;
      // Edge k runs between the two vertices other than v[k].
      for (int end = 1; end <= 2 && n[k] < 0; ++end) {
        walled[v[(k + end) % 3]] = 1;
      }
    }
    for (int k = 0; k < 3 && open <= 1; ++k) {
      // A dead end's apex: the vertex across its one way in, or every vertex without one.
      if (open == 0 || n[k] >= 0) {
        size_t at = (size_t)v[k];
        apex[at] = open == 0 ? -2 : (int32_t)t;
        apex_count[at] += open == 0 ? 2 : 1;
      }
    }
  }
  for (size_t v = 0; v < points; ++v) {
    ck_assert_msg(mesh->corner[v] == walled[v], "vertex %zu: corner %d", v, mesh->corner[v]);
    int32_t want = apex_count[v] == 0 ? -1 : apex_count[v] == 1 ? apex[v] : -2;
    ck_assert_msg(mesh->dead_apex[v] == want, "vertex %zu: dead apex %d, want %d", v,
                  mesh->dead_apex[v], want);
  }
  free(walled);
  free(apex);
  free(apex_count);
}

// The free triangles' arrays against the triangulation they number, read off it alone: every
// free slot (tagged free, the others blocked) numbered once, its rows its corners and its free
// neighbours' numbers, and its part that of every triangle joined to it and of no other (the
// parts of a fresh labelling, whatever their numbers).
static void check_free_arrays(const an_navmesh *mesh) {
  const an_cdt *cdt = &mesh->cdt;
  size_t n = mesh->free_count, free_slots = 0;
  for (size_t t = 0; t < cdt->tri_count; ++t) {
    int32_t f = mesh->free_of[t];
    ck_assert_msg(f >= -1 && f < (int32_t)n, "slot %zu: free number %d of %zu", t, f, n);
    ck_assert_msg(cdt->tris[t].tag == (f >= 0 ? AN_NAVMESH_TAG_FREE : AN_NAVMESH_TAG_BLOCKED),
                  "slot %zu: tag %d, free number %d", t, cdt->tris[t].tag, f);
    if (f < 0) {
      continue;
    }
    free_slots++;
    ck_assert_msg(mesh->tri_of[f] == (int32_t)t, "free %d: slot %d, numbered from slot %zu", f,
                  mesh->tri_of[f], t);
    for (int k = 0; k < 3; ++k) {
      int32_t u = cdt->tris[t].n[k];
      ck_assert_int_eq(mesh->fv[3 * (size_t)f + (size_t)k], cdt->tris[t].v[k]);
      ck_assert_msg(mesh->fn[3 * (size_t)f + (size_t)k] == (u >= 0 ? mesh->free_of[u] : -1),
                    "free %d, edge %d: neighbour %d, the slot across holds %d", f, k,
                    mesh->fn[3 * (size_t)f + (size_t)k], u >= 0 ? mesh->free_of[u] : -1);
    }
  }
  ck_assert_uint_eq(free_slots, n);
  int32_t *fresh = malloc((n + 1) * sizeof *fresh);
  ck_assert_ptr_nonnull(fresh);
  ck_assert_int_eq(an_navmesh_label_components(mesh->fn, n, &plain_alloc, fresh), ARCNAV_OK);
  int32_t top = 0;
  for (size_t f = 0; f < n; ++f) {
    ck_assert_int_ge(mesh->component[f], 0);
    top = mesh->component[f] > top ? mesh->component[f] : top;
  }
  int32_t *as_fresh = malloc(((size_t)top + 1) * sizeof *as_fresh);
  int32_t *as_kept = malloc((n + 1) * sizeof *as_kept);
  ck_assert(as_fresh && as_kept);
  for (int32_t c = 0; c <= top; ++c) {
    as_fresh[c] = -1;
  }
  for (size_t c = 0; c <= n; ++c) {
    as_kept[c] = -1;
  }
  for (size_t f = 0; f < n; ++f) {
    int32_t kept = mesh->component[f], made = fresh[f];
    if (as_fresh[kept] < 0) {
      as_fresh[kept] = made;
    }
    if (as_kept[made] < 0) {
      as_kept[made] = kept;
    }
    ck_assert_msg(as_fresh[kept] == made && as_kept[made] == kept,
                  "free %zu: part %d, which the fresh parts %d and %d share", f, kept,
                  as_fresh[kept], made);
  }
  free(fresh);
  free(as_fresh);
  free(as_kept);
}

/// A square 0.4 across, counter-clockwise, somewhere in [lo, hi].
static void random_square(sup_rng *rng, vec2 lo, vec2 hi, vec2 square[4]) {
  vec2 m = v2(sup_rng_uniform(rng, lo.x, hi.x), sup_rng_uniform(rng, lo.y, hi.y));
  square[0] = v2(m.x - 0.2, m.y - 0.2);
  square[1] = v2(m.x + 0.2, m.y - 0.2);
  square[2] = v2(m.x + 0.2, m.y + 0.2);
  square[3] = v2(m.x - 0.2, m.y + 0.2);
}

typedef struct change_tally {
  bound_tally bounds;
  size_t added;
} change_tally;

typedef struct renumber_tally {
  size_t changes, grew, shrank;
} renumber_tally;

// Squares put into the mesh, taken out again (any of them, not only the last) or moved, in a
// random order: after each change the free triangles' arrays and the vertex tables are checked
// against the triangulation, and the interval search against TA*.
static void check_arrays_through_changes(fixture *f, uint64_t seed, size_t kind, sup_rng *rng,
                                         void *context) {
  renumber_tally *c = context;
  (void)seed;
  (void)kind;
  vec2 lo = f->mesh->cdt.points[0], hi = f->mesh->cdt.points[2];
  enum { SQUARES = 8 };
  int32_t vertices[SQUARES][4];
  size_t here = 0;
  uint32_t ring_counts[1] = {4};
  for (int step = 0; step < 40; ++step) {
    size_t before = f->mesh->free_count;
    size_t pick = here > 0 ? sup_rng_below(rng, here) : 0;
    int what = here == 0         ? 0
               : here == SQUARES ? 1 + (int)sup_rng_below(rng, 2)
                                 : (int)sup_rng_below(rng, 3);
    arcnav_status st;
    if (what == 1) { // taken out
      an_navmesh_rings gone = {ring_counts, 1, vertices[pick]};
      st = an_navmesh_change_polygon(f->mesh, &gone, NULL, NULL, NULL);
      ck_assert_int_eq(st, ARCNAV_OK);
      memmove(vertices[pick], vertices[here - 1], sizeof vertices[pick]);
      here--;
    } else {
      vec2 square[4];
      random_square(rng, lo, hi, square);
      an_navmesh_rings added = {ring_counts, 1, NULL};
      an_navmesh_rings gone = {ring_counts, 1, what == 2 ? vertices[pick] : NULL};
      size_t slot = what == 2 ? pick : here;
      int32_t made[4];
      st = an_navmesh_change_polygon(f->mesh, what == 2 ? &gone : NULL, square, &added, made);
      ck_assert(st == ARCNAV_OK || st == ARCNAV_ERR_INVALID_ARGUMENT);
      if (st == ARCNAV_OK) {
        memcpy(vertices[slot], made, sizeof made);
        here += what == 0;
      }
    }
    if (st != ARCNAV_OK) {
      continue;
    }
    c->changes++;
    c->grew += f->mesh->free_count > before;
    c->shrank += f->mesh->free_count < before;
    check_free_arrays(f->mesh);
    check_vertex_tables(f->mesh);
    if (step % 8 == 7) {
      an_funnel_scratch_destroy(f->funnel); // both sized for the mesh before
      an_interval_scratch_destroy(f->interval);
      ck_assert_int_eq(an_funnel_scratch_create(f->mesh, &plain_alloc, &f->funnel), ARCNAV_OK);
      ck_assert_int_eq(an_interval_scratch_create(f->mesh, &plain_alloc, &f->interval), ARCNAV_OK);
      for (int q = 0; q < 20; ++q) {
        vec2 a = random_end(f, rng, lo, hi), b = random_end(f, rng, lo, hi);
        an_funnel_result want, got;
        arcnav_status ws = an_funnel_find_path_within(f->mesh, f->funnel, a, b, true, 0, &want);
        double want_length = want.length;
        ck_assert_int_eq(an_interval_find_path_within(f->mesh, f->interval, a, b, 0, &got), ws);
        ck_assert(ws != ARCNAV_OK ||
                  fabs(got.length - want_length) <= 1e-9 * fmax(want_length, 1e-300));
      }
    }
  }
}

/// Squares put into the mesh one by one, the bounds checked on the changed mesh, then the last
/// square taken out again.
static void check_bounds_after_additions(fixture *f, uint64_t seed, size_t kind, sup_rng *rng,
                                         void *context) {
  change_tally *c = context;
  vec2 lo = f->mesh->cdt.points[0], hi = f->mesh->cdt.points[2];
  int32_t vertices[4], last[4];
  size_t here = 0;
  uint32_t ring_counts[1] = {4};
  for (int attempt = 0; attempt < 60 && here < 6; ++attempt) {
    vec2 square[4];
    random_square(rng, lo, hi, square);
    an_navmesh_rings ring = {ring_counts, 1, NULL};
    arcnav_status st = an_navmesh_change_polygon(f->mesh, NULL, square, &ring, vertices);
    ck_assert(st == ARCNAV_OK || st == ARCNAV_ERR_INVALID_ARGUMENT);
    if (st == ARCNAV_OK) {
      memcpy(last, vertices, sizeof last);
      here++;
      check_free_arrays(f->mesh);
      check_vertex_tables(f->mesh);
    }
  }
  ck_assert_uint_ge(here, 1);
  c->added += here;
  ck_assert_uint_eq(f->mesh->landmarks.count, AN_LANDMARKS_MANY);
  ck_assert_uint_eq(f->mesh->landmarks.vertex_count, f->mesh->cdt.point_count);
  an_funnel_scratch_destroy(f->funnel); // sized for the mesh before
  ck_assert_int_eq(an_funnel_scratch_create(f->mesh, &plain_alloc, &f->funnel), ARCNAV_OK);
  check_bounds(f, seed, kind, rng, &c->bounds);
  an_navmesh_rings gone = {ring_counts, 1, last};
  ck_assert_int_eq(an_navmesh_change_polygon(f->mesh, &gone, NULL, NULL, NULL), ARCNAV_OK);
  check_free_arrays(f->mesh);
  check_vertex_tables(f->mesh);
  ck_assert_uint_eq(f->mesh->landmarks.count, 0);
}

START_TEST(test_landmarks_only_where_walls_make_paths_long) {
  // The engines' rules: a large maze, whose paths wind, gets landmarks; a small one, and a few
  // squares in a wide field, where paths keep close to the straight line, get none.
  sup_map large = sup_gen_maze(3, 14, 10.0, 1.0), small = sup_gen_maze(3, 4, 10.0, 1.0);
  sup_map field;
  sup_map_init(&field);
  for (int k = 0; k < 160; ++k) {
    double x = 30.0 * (k % 16), y = 30.0 * (k / 16);
    sup_map_add_rect(&field, x, y, x + 2.0, y + 2.0);
  }
  arcnav_vec2 b[] = {{-50, -50}, {550, -50}, {550, 350}, {-50, 350}};
  sup_map_set_bounds(&field, b, 4);
  sup_map *maps[3] = {&large, &small, &field};
  size_t want[3] = {AN_LANDMARKS_FEW, 0, 0};
  for (int m = 0; m < 3; ++m) {
    fixture f = make_fixture(maps[m]);
    // The small maze is below the size rule; the other two are above it, so that the field is
    // left out for its straight paths.
    ck_assert(m == 1 ? f.mesh->cdt.point_count < AN_LANDMARK_MIN_POINTS
                     : f.mesh->cdt.point_count >= AN_LANDMARK_MIN_POINTS);
    ck_assert_int_eq(
        an_landmarks_build(f.mesh, an_landmarks_count_for(f.mesh->cdt.point_count), true),
        ARCNAV_OK);
    ck_assert_msg(f.mesh->landmarks.count == want[m], "map %d (%zu points): %zu landmarks", m,
                  f.mesh->cdt.point_count, f.mesh->landmarks.count);
    free_fixture(&f);
    sup_map_free(maps[m]);
  }
}
END_TEST

START_TEST(test_landmarks_after_local_changes) {
  // The lengths measured before squares were put in still bound the new mesh's paths (new
  // vertices know nothing); taking one out drops the landmarks.
  change_tally c = {{0}, 0};
  for_landmark_maps(2, check_bounds_after_additions, &c);
  printf("landmark bounds after %zu squares: %zu checked, %zu beyond the straight line\n", c.added,
         c.bounds.checked, c.bounds.beyond_straight);
  ck_assert_uint_ge(c.bounds.checked, test_scaled_minimum(500, 4));
  ck_assert_uint_ge(c.bounds.beyond_straight, test_scaled_minimum(50, 4));
}
END_TEST

START_TEST(test_local_changes_keep_the_arrays_whole) {
  // A local change numbers the edited triangulation's free triangles from the mesh's, making
  // again only what it touched: whatever it kept must still be what the triangulation says.
  renumber_tally c = {0, 0, 0};
  for_landmark_maps(5, check_arrays_through_changes, &c);
  printf("free arrays after %zu local changes: %zu grew, %zu shrank\n", c.changes, c.grew,
         c.shrank);
  ck_assert_uint_ge(c.changes, test_scaled_minimum(300, 20));
  ck_assert_uint_ge(c.grew, 1);
  ck_assert_uint_ge(c.shrank, 1);
}
END_TEST

START_TEST(test_beyond_the_box_is_the_funnels) {
  // Without bounds, ends beyond the box go to TA*: the same answers, also across the box.
  sup_map desc = sup_gen_random_rectangles(3, 40, 100.0, 3.0, 20.0);
  fixture f = make_fixture(&desc);
  ck_assert(f.mesh->whole_plane);
  sup_rng rng = sup_rng_seed(5);
  tally c = {0};
  for (int q = 0; q < 100; ++q) {
    vec2 s = v2(sup_rng_uniform(&rng, -300, 400), sup_rng_uniform(&rng, -300, 400));
    vec2 t = v2(sup_rng_uniform(&rng, -300, 400), sup_rng_uniform(&rng, -300, 400));
    compare_query(&f, &desc, s, t, &c);
  }
  ck_assert_uint_ge(c.found, 50);
  free_fixture(&f);
  sup_map_free(&desc);
}
END_TEST

START_TEST(test_against_reference) {
  size_t compared = 0;
  for (uint64_t seed = 1; seed <= test_scaled_count(6); ++seed) {
    sup_map desc = seed % 3 == 0   ? sup_gen_neerc_worst(seed)
                   : seed % 3 == 1 ? sup_gen_town(seed, 2, 30.0, 6.0, 0.5, 3.0)
                                   : sup_gen_random_rectangles(seed, 30, 100.0, 3.0, 20.0);
    fixture f = make_fixture(&desc);
    sup_reference *ref = sup_reference_create(&desc, 0.0, NULL);
    arcnav_vec2 lo, hi;
    ck_assert(sup_map_extent(&desc, &lo, &hi));
    sup_rng rng = sup_rng_seed(seed * 31 + 1);
    for (int q = 0; q < 16; ++q) {
      arcnav_vec2 s, t;
      ck_assert(sup_random_free_point(&desc, 0.0, &rng, lo, hi, 1e-6, 1000, &s));
      ck_assert(sup_random_free_point(&desc, 0.0, &rng, lo, hi, 1e-6, 1000, &t));
      sup_reference_result want = sup_reference_query(ref, s, t);
      an_funnel_result got;
      arcnav_status st = an_interval_find_path_within(f.mesh, f.interval, s, t, 0, &got);
      if (!want.found) {
        ck_assert_int_eq(st, ARCNAV_NO_PATH);
        continue;
      }
      ck_assert_int_eq(st, ARCNAV_OK);
      ck_assert_msg(fabs(got.length - want.length) <= 1e-9 * fmax(1.0, want.length),
                    "seed %d query %d: interval %.17g, reference %.17g", (int)seed, q, got.length,
                    want.length);
      test_verify_polyline(&desc, f.eps, s, t, &got);
      compared++;
    }
    sup_reference_destroy(ref);
    free_fixture(&f);
    sup_map_free(&desc);
  }
  ck_assert_uint_ge(compared, test_scaled_minimum(80, 6));
}
END_TEST

START_TEST(test_hand_made) {
  // Bounds [0, 10]^2, wall [4, 6] x [0, 8] on the bottom edge: from (2, 2) to (8, 2) over the
  // wall's top corners, 2 sqrt(2^2 + 6^2) + 2, with those corners as the turns.
  sup_map desc;
  sup_map_init(&desc);
  arcnav_vec2 b[] = {{0, 0}, {10, 0}, {10, 10}, {0, 10}};
  sup_map_set_bounds(&desc, b, 4);
  sup_map_add_rect(&desc, 4, 0, 6, 8);
  fixture f = make_fixture(&desc);
  an_funnel_result res;
  ck_assert_int_eq(an_interval_find_path_within(f.mesh, f.interval, v2(2, 2), v2(8, 2), 0, &res),
                   ARCNAV_OK);
  vec2 want[] = {{2, 2}, {4, 8}, {6, 8}, {8, 2}};
  ck_assert_uint_eq(res.point_count, 4);
  for (size_t i = 0; i < 4; ++i) {
    ck_assert_vec2_near(res.points[i], want[i], 0.0);
  }
  ck_assert_double_eq_tol(res.length, 2 * sqrt(40.0) + 2, 1e-12);
  // Along the wall's face from a start on it, then round its top: 5 + 2 + 5.
  ck_assert_int_eq(an_interval_find_path_within(f.mesh, f.interval, v2(4, 3), v2(10, 5), 0, &res),
                   ARCNAV_OK);
  ck_assert_double_eq_tol(res.length, 12.0, 1e-12);
  // start == goal: two equal points.
  ck_assert_int_eq(an_interval_find_path_within(f.mesh, f.interval, v2(1, 1), v2(1, 1), 0, &res),
                   ARCNAV_OK);
  ck_assert_uint_eq(res.point_count, 2);
  ck_assert_double_eq(res.length, 0.0);
  // Blocked ends, the start first; out of the bounds is blocked too.
  ck_assert_int_eq(an_interval_find_path_within(f.mesh, f.interval, v2(5, 4), v2(5, 9), 0, &res),
                   ARCNAV_START_BLOCKED);
  ck_assert_int_eq(an_interval_find_path_within(f.mesh, f.interval, v2(5, 9), v2(5, 4), 0, &res),
                   ARCNAV_GOAL_BLOCKED);
  ck_assert_int_eq(an_interval_find_path_within(f.mesh, f.interval, v2(50, 4), v2(5, 4), 0, &res),
                   ARCNAV_START_BLOCKED);
  ck_assert_int_eq(an_interval_find_path_within(f.mesh, f.interval, v2(NAN, 4), v2(5, 4), 0, &res),
                   ARCNAV_ERR_NOT_FINITE);
  free_fixture(&f);
  sup_map_free(&desc);
}
END_TEST

START_TEST(test_touching_corner) {
  // Squares touching at (10, 10): the straight line from (5, 15) to (15, 5) passes through the
  // pinch, which is closed, so the path goes round one of the squares, as TA*'s does.
  sup_map desc = sup_gen_corner_squares();
  fixture f = make_fixture(&desc);
  an_funnel_result got, want;
  vec2 s = v2(5, 15), t = v2(15, 5);
  ck_assert_int_eq(an_interval_find_path_within(f.mesh, f.interval, s, t, 0, &got), ARCNAV_OK);
  ck_assert_int_eq(an_funnel_find_path_within(f.mesh, f.funnel, s, t, true, 0, &want), ARCNAV_OK);
  ck_assert_double_eq_tol(got.length, want.length, 1e-12);
  ck_assert(got.length > v2_dist(s, t) + 1.0);
  // From the pinch vertex itself, which belongs to both fans.
  ck_assert_int_eq(an_interval_find_path_within(f.mesh, f.interval, v2(10, 10), t, 0, &got),
                   ARCNAV_OK);
  ck_assert_double_eq_tol(got.length, v2_dist(v2(10, 10), t), 1e-12);
  // A mesh whose pinches are joined by connectors (the eroded meshes of R > 0) is not for it.
  an_navmesh_options options = {.crossing_limit = AN_NAVMESH_DEFAULT_LIMIT, .open_pinches = true};
  an_navmesh *open;
  ck_assert_int_eq(an_navmesh_build_ex(f.map, &plain_alloc, &options, &open), ARCNAV_OK);
  ck_assert_uint_gt(open->connector_count, 0);
  an_interval_scratch *none = NULL;
  ck_assert_int_eq(an_interval_scratch_create(open, &plain_alloc, &none),
                   ARCNAV_ERR_INVALID_ARGUMENT);
  ck_assert_ptr_null(none);
  an_navmesh_destroy(open);
  free_fixture(&f);
  sup_map_free(&desc);
}
END_TEST

START_TEST(test_expansion_limit) {
  // A search that expanded n nodes answers the same under a limit of n and stops one short.
  size_t limited = 0;
  for (uint64_t seed = 1; seed <= 3; ++seed) {
    sup_map desc = seed == 3 ? sup_gen_maze(seed, 8, 10.0, 1.0) : rectangles(seed, 60);
    fixture f = make_fixture(&desc);
    sup_rng rng = sup_rng_seed(seed + 100);
    arcnav_vec2 lo, hi;
    ck_assert(sup_map_extent(&desc, &lo, &hi));
    for (int q = 0; q < 20; ++q) {
      arcnav_vec2 s, t;
      ck_assert(sup_random_free_point(&desc, 0.0, &rng, lo, hi, 1e-6, 1000, &s));
      ck_assert(sup_random_free_point(&desc, 0.0, &rng, lo, hi, 1e-6, 1000, &t));
      an_funnel_result full, capped;
      arcnav_status st = an_interval_find_path_within(f.mesh, f.interval, s, t, 0, &full);
      if (st != ARCNAV_OK || full.nodes_expanded < 2) {
        continue;
      }
      size_t n = full.nodes_expanded;
      double length = full.length;
      ck_assert_int_eq(an_interval_find_path_within(f.mesh, f.interval, s, t, n, &capped),
                       ARCNAV_OK);
      ck_assert(capped.length == length);
      ck_assert_uint_eq(capped.nodes_expanded, n);
      ck_assert_int_eq(an_interval_find_path_within(f.mesh, f.interval, s, t, n - 1, &capped),
                       ARCNAV_SEARCH_LIMIT);
      ck_assert_uint_eq(capped.nodes_expanded, n - 1);
      limited++;
    }
    free_fixture(&f);
    sup_map_free(&desc);
  }
  ck_assert_uint_ge(limited, 30);
}
END_TEST

START_TEST(test_memory) {
  // Creation fails cleanly at every allocation; a tiny pool grows through the allocator, and
  // when that fails the query says so and the scratch still answers afterwards; warm queries on a
  // scratch of the usual size allocate nothing.
  sup_map desc = rectangles(7, 60);
  fixture f = make_fixture(&desc);
  test_allocator ta = test_allocator_make();
  an_allocator alloc = {test_allocator_hooks(&ta)};
  an_interval_scratch *s = NULL;
  ck_assert_int_eq(an_interval_scratch_create_with_capacity(f.mesh, &alloc, 1, &s), ARCNAV_OK);
  long creation = ta.calls;
  an_interval_scratch_destroy(s);
  for (long k = 0; k < creation; ++k) {
    ta = test_allocator_make();
    ta.fail_at = k;
    ck_assert_int_eq(an_interval_scratch_create_with_capacity(f.mesh, &alloc, 1, &s),
                     ARCNAV_ERR_OUT_OF_MEMORY);
    ck_assert_ptr_null(s);
    ck_assert_int_eq(ta.live, 0);
  }
  sup_rng rng = sup_rng_seed(17);
  size_t failed = 0;
  for (int q = 0; q < 40; ++q) {
    vec2 a = v2(sup_rng_uniform(&rng, 0, 100), sup_rng_uniform(&rng, 0, 100));
    vec2 b = v2(sup_rng_uniform(&rng, 0, 100), sup_rng_uniform(&rng, 0, 100));
    an_funnel_result want, got;
    arcnav_status ws = an_interval_find_path_within(f.mesh, f.interval, a, b, 0, &want);
    double want_length = want.length;
    ta = test_allocator_make();
    ck_assert_int_eq(an_interval_scratch_create_with_capacity(f.mesh, &alloc, 1, &s), ARCNAV_OK);
    ta.fail_all = true;
    arcnav_status gs = an_interval_find_path_within(f.mesh, s, a, b, 0, &got);
    ta.fail_all = false;
    if (gs == ARCNAV_ERR_OUT_OF_MEMORY) {
      failed++;
      gs = an_interval_find_path_within(f.mesh, s, a, b, 0, &got);
    }
    ck_assert_int_eq(gs, ws);
    if (ws == ARCNAV_OK) {
      ck_assert(got.length == want_length);
    }
    an_interval_scratch_destroy(s);
    ck_assert_int_eq(ta.live, 0);
  }
  ck_assert_uint_ge(failed, 10);

  ta = test_allocator_make();
  ck_assert_int_eq(an_interval_scratch_create(f.mesh, &alloc, &s), ARCNAV_OK);
  long before = ta.calls;
  for (int q = 0; q < 200; ++q) {
    vec2 a = v2(sup_rng_uniform(&rng, 0, 100), sup_rng_uniform(&rng, 0, 100));
    vec2 b = v2(sup_rng_uniform(&rng, 0, 100), sup_rng_uniform(&rng, 0, 100));
    an_funnel_result got;
    an_interval_find_path_within(f.mesh, s, a, b, 0, &got);
  }
  ck_assert_int_eq(ta.calls, before);
  ck_assert_uint_gt(an_interval_scratch_memory_bytes(s), 0);
  an_interval_scratch_destroy(s);
  free_fixture(&f);
  sup_map_free(&desc);
}
END_TEST

START_TEST(test_wide_fan) {
  // A spike's tip surrounded by small squares: the tip's fan has many triangles, so turning there
  // walks a fan of more successors than an expansion makes room for, growing a tiny pool mid-walk.
  sup_map desc;
  sup_map_init(&desc);
  arcnav_vec2 spike[] = {{0, 0}, {-1, -100}, {1, -100}};
  sup_map_add_polygon(&desc, spike, 3, NULL, NULL, 0);
  for (int k = 0; k < 64; ++k) {
    double a = TEST_PI * (-0.35 + 1.7 * k / 63.0), x = 4 * cos(a), y = 4 * sin(a);
    if (y > -2) {
      sup_map_add_rect(&desc, x - 0.05, y - 0.05, x + 0.05, y + 0.05);
    }
  }
  fixture f = make_fixture(&desc);
  size_t fan = 0;
  for (size_t t = 0; t < an_navmesh_triangle_count(f.mesh); ++t) {
    vec2 p[3];
    an_navmesh_triangle(f.mesh, t, p);
    fan += v2_equal(p[0], v2(0, 0)) || v2_equal(p[1], v2(0, 0)) || v2_equal(p[2], v2(0, 0));
  }
  ck_assert_uint_gt(fan, 24);
  an_interval_scratch *tiny;
  ck_assert_int_eq(an_interval_scratch_create_with_capacity(f.mesh, &plain_alloc, 1, &tiny),
                   ARCNAV_OK);
  size_t turned = 0;
  for (int q = 0; q < 40; ++q) {
    vec2 s = v2(-0.3 - 0.05 * q, -2), t = v2(0.3 + 0.03 * q, -1.5);
    an_funnel_result want, got;
    ck_assert_int_eq(an_funnel_find_path_within(f.mesh, f.funnel, s, t, true, 0, &want), ARCNAV_OK);
    double want_length = want.length;
    ck_assert_int_eq(an_interval_find_path_within(f.mesh, tiny, s, t, 0, &got), ARCNAV_OK);
    ck_assert_double_eq_tol(got.length, want_length, 1e-9 * want_length);
    for (size_t i = 1; i + 1 < got.point_count; ++i) {
      turned += v2_equal(got.points[i], v2(0, 0));
    }
    test_verify_polyline(&desc, f.eps, s, t, &got);
  }
  ck_assert_uint_ge(turned, 20);
  an_interval_scratch_destroy(tiny);
  free_fixture(&f);
  sup_map_free(&desc);
}
END_TEST

START_TEST(test_timing_printed) {
  // Information only, never asserted: the time per query of both searches on one map.
  sup_map desc = sup_gen_random_rectangles(1, 300, 2000.0, 20.0, 150.0);
  fixture f = make_fixture(&desc);
  enum { QUERIES = 200 };
  vec2 ends[2 * QUERIES];
  sup_rng rng = sup_rng_seed(3);
  arcnav_vec2 lo, hi;
  ck_assert(sup_map_extent(&desc, &lo, &hi));
  for (int i = 0; i < 2 * QUERIES; ++i) {
    ck_assert(sup_random_free_point(&desc, 0.0, &rng, lo, hi, 1e-6, 1000, &ends[i]));
  }
  double seconds[2];
  for (int which = 0; which < 2; ++which) {
    clock_t begin = clock();
    for (int q = 0; q < QUERIES; ++q) {
      an_funnel_result res;
      if (which == 0) {
        an_interval_find_path_within(f.mesh, f.interval, ends[2 * q], ends[2 * q + 1], 0, &res);
      } else {
        an_funnel_find_path_within(f.mesh, f.funnel, ends[2 * q], ends[2 * q + 1], true, 0, &res);
      }
    }
    seconds[which] = (double)(clock() - begin) / CLOCKS_PER_SEC;
  }
  printf("per query on 300 rectangles: interval %.1f us, TA* %.1f us\n", 1e6 * seconds[0] / QUERIES,
         1e6 * seconds[1] / QUERIES);
  free_fixture(&f);
  sup_map_free(&desc);
}
END_TEST

static Suite *interval_suite(void) {
  Suite *s = suite_create("interval");
  TCase *tc = tcase_create("queries");
  tcase_set_timeout(tc, 600);
  tcase_add_test(tc, test_hand_made);
  tcase_add_test(tc, test_touching_corner);
  tcase_add_test(tc, test_against_ta_star);
  tcase_add_test(tc, test_distances_are_ta_star_lengths);
  tcase_add_test(tc, test_landmark_bounds_hold);
  tcase_add_test(tc, test_measured_bounds_hold);
  tcase_add_test(tc, test_landmarks_after_local_changes);
  tcase_add_test(tc, test_local_changes_keep_the_arrays_whole);
  tcase_add_test(tc, test_landmarks_only_where_walls_make_paths_long);
  tcase_add_test(tc, test_beyond_the_box_is_the_funnels);
  tcase_add_test(tc, test_against_reference);
  tcase_add_test(tc, test_expansion_limit);
  tcase_add_test(tc, test_memory);
  tcase_add_test(tc, test_wide_fan);
  tcase_add_test(tc, test_timing_printed);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  return test_run_suite(interval_suite());
}
