// SPDX-License-Identifier: MIT
// The probes of the free space (arcnav_query_clearance, _raycast, _path_is_free, _nearest_free)
// against the support code's own distances (verify.h), never against the library: distances to
// the obstacles, marches and bisections along rays and paths, and dense samples of the free set's
// boundary curves and of arcs round corners. The touching rule for point agents is checked on
// hand-made touching maps.
#include "arcnav_test.h"
#include "index/free_space.h"
#include "index/probe.h"
#include "mapgen.h"
#include "reference.h"
#include "touching.h"
#include "verify.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef arcnav_vec2 vec;

typedef struct setup {
  arcnav_map *map;
  arcnav_planner *planner;
  arcnav_query *query;
  double eps;
} setup;

static setup build(const sup_map *generated, double radius, arcnav_engine engine) {
  setup s = {NULL, NULL, NULL, 0.0};
  ck_assert_int_eq(sup_map_to_arcnav(generated, &s.map), ARCNAV_OK);
  arcnav_planner_def def = arcnav_default_planner_def();
  def.radius = radius;
  def.engine = engine;
  ck_assert_int_eq(arcnav_planner_create(s.map, &def, &s.planner), ARCNAV_OK);
  ck_assert_int_eq(arcnav_query_create(s.planner, &s.query), ARCNAV_OK);
  s.eps = arcnav_map_tolerance(s.map);
  return s;
}

static void release(setup *s) {
  arcnav_query_destroy(s->query);
  arcnav_planner_destroy(s->planner);
  arcnav_map_destroy(s->map);
}

static vec add(vec a, vec b) {
  return (vec){a.x + b.x, a.y + b.y};
}
static vec scale(vec a, double s) {
  return (vec){a.x * s, a.y * s};
}
static vec along(vec from, vec unit, double t) {
  return (vec){from.x + t * unit.x, from.y + t * unit.y};
}
static double dist(vec a, vec b) {
  return hypot(a.x - b.x, a.y - b.y);
}

// The test maps are sup_gen_kind()'s, each with its name and the radius it is meant for. Walls
// of mazes, buildings of towns and the touching maps touch, where a point agent obeys the
// touching rule that the distances of verify.h do not see: those maps are left out of the
// point-agent comparisons (sup_kind_touches_nothing()).
typedef sup_kind_map test_map;

static vec random_point(const sup_map *map, sup_rng *rng, double margin) {
  vec lo, hi;
  ck_assert(sup_map_extent(map, &lo, &hi));
  return (vec){sup_rng_uniform(rng, lo.x - margin, hi.x + margin),
               sup_rng_uniform(rng, lo.y - margin, hi.y + margin)};
}

// ---- clearance -------------------------------------------------------------------------------

START_TEST(clearance_matches_the_reference) {
  size_t checked = 0, inside = 0;
  for (int kind = 0; kind < SUP_MAP_KINDS; ++kind) {
    for (uint64_t seed = 1; seed <= test_scaled_count(3); ++seed) {
      test_map t = sup_gen_kind(kind, seed);
      setup s = build(&t.map, t.radius, ARCNAV_ENGINE_TANGENT);
      sup_rng rng = sup_rng_seed(seed * 31 + (uint64_t)kind);
      for (int i = 0; i < 200; ++i) {
        vec p = random_point(&t.map, &rng, 20.0);
        arcnav_clearance c;
        ck_assert_int_eq(arcnav_query_clearance(s.query, p, &c), ARCNAV_OK);
        ck_assert(c.found);
        double expected = sup_distance_to_obstacles(&t.map, p);
        ck_assert_msg(fabs(c.distance - expected) <= 1e-9 * fmax(1.0, expected),
                      "%s seed %d: clearance at (%.17g, %.17g) is %.17g, reference %.17g", t.label,
                      (int)seed, p.x, p.y, c.distance, expected);
        if (expected == 0.0) {
          ck_assert_vec2_near(c.nearest, p, 0.0);
          ++inside;
        } else {
          // The nearest point is that far, and on the blocked region's boundary.
          ck_assert_double_eq_tol(dist(c.nearest, p), c.distance, 1e-9 * fmax(1.0, expected));
          ck_assert_double_le(fabs(sup_signed_distance_to_obstacles(&t.map, c.nearest)),
                              10.0 * s.eps);
        }
        ++checked;
      }
      release(&s);
      sup_map_free(&t.map);
    }
  }
  ck_assert_uint_gt(inside, checked / 50);
}
END_TEST

// A disk's free test skips the parity of the grid row (which polygons hold a point) where the
// polygons' triangulation holds the point strictly inside a free triangle
// (an_clearance.outside_polygons). The free test, and the ends of a search and of a
// reachability question, must still be judged as the distance says, at points inside
// obstacles, in holes, near edges and out in the open.
START_TEST(ends_are_judged_as_the_distances_say) {
  static const arcnav_engine engines[] = {ARCNAV_ENGINE_TANGENT, ARCNAV_ENGINE_INTERVAL};
  size_t checked = 0, blocked = 0, deep = 0;
  for (int kind = 0; kind < SUP_MAP_KINDS; ++kind) {
    for (uint64_t seed = 1; seed <= test_scaled_count(2); ++seed) {
      test_map t = sup_gen_kind(kind, seed);
      for (size_t e = 0; e < sizeof engines / sizeof engines[0]; ++e) {
        setup s = build(&t.map, t.radius, engines[e]);
        arcnav_path *path = NULL;
        ck_assert_int_eq(arcnav_path_create(NULL, &path), ARCNAV_OK);
        sup_rng rng = sup_rng_seed(seed * 7 + (uint64_t)kind);
        vec lo, hi, goal;
        ck_assert(sup_map_extent(&t.map, &lo, &hi));
        ck_assert(sup_random_free_point(&t.map, t.radius, &rng, lo, hi, 0.0, 2000, &goal));
        for (int i = 0; i < 150; ++i) {
          vec p = random_point(&t.map, &rng, 5.0);
          double d = sup_signed_distance_to_obstacles(&t.map, p);
          double limit = t.radius - s.eps;
          if (fabs(d - limit) < 1e-6 * fmax(1.0, t.radius)) {
            continue;
          }
          bool expected = d >= limit;
          ck_assert_msg(arcnav_query_point_is_free(s.query, p) == expected,
                        "%s seed %d engine %d: free test at (%.17g, %.17g), distance %.17g",
                        t.label, (int)seed, (int)engines[e], p.x, p.y, d);
          bool reachable = false;
          arcnav_status from_p = arcnav_query_reachable(s.query, p, goal, &reachable, NULL);
          ck_assert_msg((from_p == ARCNAV_START_BLOCKED) == !expected,
                        "%s seed %d engine %d: reachable from (%.17g, %.17g) at distance %.17g: %s",
                        t.label, (int)seed, (int)engines[e], p.x, p.y, d,
                        arcnav_status_name(from_p));
          arcnav_status to_p = arcnav_find_path(s.query, goal, p, path);
          ck_assert_msg((to_p == ARCNAV_GOAL_BLOCKED) == !expected,
                        "%s seed %d engine %d: path to (%.17g, %.17g) at distance %.17g: %s",
                        t.label, (int)seed, (int)engines[e], p.x, p.y, d, arcnav_status_name(to_p));
          ++checked;
          blocked += !expected;
          deep += d < -t.radius;
        }
        arcnav_path_destroy(path);
        release(&s);
      }
      sup_map_free(&t.map);
    }
  }
  // Points of every sort were judged: free ones, blocked ones, and ones deep inside obstacles.
  ck_assert_uint_gt(blocked, checked / 20);
  ck_assert_uint_lt(blocked, checked - checked / 20);
  ck_assert_uint_gt(deep, checked / 50);
}
END_TEST

START_TEST(clearance_of_an_empty_map_finds_nothing) {
  sup_map empty;
  sup_map_init(&empty);
  setup s = build(&empty, 0.5, ARCNAV_ENGINE_TANGENT);
  arcnav_clearance c;
  ck_assert_int_eq(arcnav_query_clearance(s.query, (vec){3.0, 4.0}, &c), ARCNAV_OK);
  ck_assert(!c.found);
  ck_assert(isinf(c.distance));
  release(&s);
  // Bounds alone: outside is blocked, inside is that far from the ring.
  vec ring[4] = {{0.0, 0.0}, {10.0, 0.0}, {10.0, 10.0}, {0.0, 10.0}};
  sup_map_set_bounds(&empty, ring, 4);
  s = build(&empty, 0.5, ARCNAV_ENGINE_TANGENT);
  ck_assert_int_eq(arcnav_query_clearance(s.query, (vec){3.0, 4.0}, &c), ARCNAV_OK);
  ck_assert(c.found);
  ck_assert_double_eq_tol(c.distance, 3.0, 1e-12);
  ck_assert_vec2_near(c.nearest, ((vec){0.0, 4.0}), 1e-12);
  ck_assert_int_eq(arcnav_query_clearance(s.query, (vec){-3.0, 4.0}, &c), ARCNAV_OK);
  ck_assert(c.found && c.distance == 0.0);
  release(&s);
  sup_map_free(&empty);
}
END_TEST

// ---- raycast ---------------------------------------------------------------------------------

static bool free_at(const sup_map *map, double radius, double eps, vec p) {
  return sup_signed_distance_to_obstacles(map, p) >= radius - eps;
}

// free_at() for many points of one box, through a screen aimed at it (support/verify.h).
static bool free_at_screened(const sup_obstacle_screen *screen, double radius, double eps, vec p) {
  return sup_screened_signed_distance(screen, p) >= radius - eps;
}

// The reference stop of a ray: a march in steps of `step` to the first position that is not free,
// then bisection between it and the last free one. INFINITY when every step is free up to `end`.
static double march(const sup_map *map, double radius, double eps, vec from, vec unit, double end,
                    double step) {
  double last = 0.0;
  for (double t = step;; t += step) {
    double at = fmin(t, end);
    if (!free_at(map, radius, eps, along(from, unit, at))) {
      double lo = last, hi = at;
      for (int k = 0; k < 100 && hi - lo > 1e-13 * fmax(1.0, hi); ++k) {
        double mid = 0.5 * (lo + hi);
        if (free_at(map, radius, eps, along(from, unit, mid))) {
          lo = mid;
        } else {
          hi = mid;
        }
      }
      return lo;
    }
    last = at;
    if (at >= end) {
      return INFINITY;
    }
  }
}

// Is some position in [t, t + span] not free (a dip shorter than the march's step)?
static bool dips_after(const sup_map *map, double radius, double eps, vec from, vec unit, double t,
                       double span) {
  for (int k = 1; k <= 4000; ++k) {
    if (!free_at(map, radius, eps, along(from, unit, t + span * k / 4000.0))) {
      return true;
    }
  }
  return false;
}

static void check_rays(const test_map *t, double radius, uint64_t seed, size_t *hits,
                       size_t *misses) {
  setup s = build(&t->map, radius, ARCNAV_ENGINE_TANGENT);
  sup_rng rng = sup_rng_seed(seed);
  vec lo, hi;
  ck_assert(sup_map_extent(&t->map, &lo, &hi));
  double far = dist(lo, hi) + 1.0; // every ray leaves the obstacles' box before
  double step = fmax(radius, 0.8) / 16.0;
  double tol = 1e-7 * fmax(1.0, dist(lo, hi));
  for (int i = 0; i < 40; ++i) {
    vec from;
    if (!sup_random_free_point(&t->map, radius, &rng, lo, hi, 1e-3, 1000, &from)) {
      continue;
    }
    double angle = sup_rng_uniform(&rng, 0.0, 2.0 * TEST_PI);
    vec direction = {3.0 * cos(angle), 3.0 * sin(angle)}; // any length
    vec unit = {cos(angle), sin(angle)};
    double max_distance = i % 3 == 0 ? INFINITY : sup_rng_uniform(&rng, 0.0, 60.0);
    arcnav_ray_hit hit;
    ck_assert_int_eq(arcnav_query_raycast(s.query, from, direction, max_distance, &hit), ARCNAV_OK);
    double end = fmin(max_distance, far);
    double expected = march(&t->map, radius, s.eps, from, unit, end, step);
    if (!hit.hit) {
      ck_assert_msg(isinf(expected) || expected >= max_distance - tol,
                    "%s R %g: ray from (%.17g, %.17g) at %.17g rad passed, reference stops at %g",
                    t->label, radius, from.x, from.y, angle, expected);
      ck_assert(hit.distance == max_distance);
      ++*misses;
      continue;
    }
    ++*hits;
    ck_assert_double_le(hit.distance, max_distance);
    ck_assert_vec2_near(hit.point, along(from, unit, hit.distance), 1e-9 * fmax(1.0, far));
    ck_assert_double_eq_tol(hypot(hit.normal.x, hit.normal.y), 1.0, 1e-9);
    // Free all along the way, densely sampled.
    for (int k = 0; k <= 400; ++k) {
      vec p = along(from, unit, hit.distance * k / 400.0);
      ck_assert_msg(sup_signed_distance_to_obstacles(&t->map, p) >= radius - s.eps - 1e-9 * far,
                    "%s R %g: ray from (%.17g, %.17g) at %.17g rad is not free at %g of %g",
                    t->label, radius, from.x, from.y, angle, hit.distance * k / 400.0,
                    hit.distance);
    }
    if (fabs(hit.distance - expected) > tol) {
      // The march can step over a short dip; then one must lie just after the stop.
      ck_assert_msg(hit.distance < expected &&
                        dips_after(&t->map, radius, s.eps, from, unit, hit.distance, 2.0 * step),
                    "%s R %g: ray from (%.17g, %.17g) at %.17g rad stops at %.17g, reference %.17g",
                    t->label, radius, from.x, from.y, angle, hit.distance, expected);
    }
    // The contact: the obstacle is R away from the centre, against the normal.
    double clearance = sup_distance_to_obstacles(&t->map, hit.point);
    ck_assert_double_le(fabs(clearance - radius), 4.0 * s.eps + 1e-9);
    if (radius > 0.0) {
      vec contact = add(hit.point, scale(hit.normal, -radius));
      ck_assert_double_le(sup_distance_to_obstacles(&t->map, contact), 1e-6);
    }
  }
  release(&s);
}

START_TEST(raycast_matches_a_march) {
  size_t hits = 0, misses = 0;
  for (int kind = 0; kind < SUP_MAP_KINDS; ++kind) {
    for (uint64_t seed = 1; seed <= test_scaled_count(6); ++seed) {
      test_map t = sup_gen_kind(kind, seed);
      check_rays(&t, t.radius, seed * 7 + (uint64_t)kind, &hits, &misses);
      if (sup_kind_touches_nothing(kind)) {
        check_rays(&t, 0.0, seed * 11 + (uint64_t)kind, &hits, &misses);
      }
      sup_map_free(&t.map);
    }
  }
  ck_assert_uint_gt(hits, 50);
  ck_assert_uint_gt(misses, 5);
}
END_TEST

START_TEST(raycast_grazes_and_stops_exactly) {
  // A wall y <= 0 (a wide rectangle) and a disk of radius 1.
  sup_map m;
  sup_map_init(&m);
  sup_map_add_rect(&m, -50.0, -10.0, 50.0, 0.0);
  sup_map_add_rect(&m, 10.0, 5.0, 12.0, 20.0);
  sup_map_add_circle(&m, (vec){-10.0, 10.0}, 2.0);
  setup s = build(&m, 1.0, ARCNAV_ENGINE_TANGENT);
  arcnav_ray_hit hit;
  // Sliding along the wall at exactly R: not stopped.
  ck_assert_int_eq(arcnav_query_raycast(s.query, (vec){-30.0, 1.0}, (vec){1.0, 0.0}, 40.0, &hit),
                   ARCNAV_OK);
  ck_assert(!hit.hit);
  ck_assert_double_eq(hit.distance, 40.0);
  // Straight at the rectangle's side x = 10: the centre stops at x = 9.
  ck_assert_int_eq(arcnav_query_raycast(s.query, (vec){0.0, 10.0}, (vec){1.0, 0.0}, INFINITY, &hit),
                   ARCNAV_OK);
  ck_assert(hit.hit);
  ck_assert_double_eq_tol(hit.distance, 9.0, 2.0 * s.eps);
  ck_assert_vec2_near(hit.normal, ((vec){-1.0, 0.0}), 1e-9);
  // Down onto the wall: stops at y = 1.
  ck_assert_int_eq(arcnav_query_raycast(s.query, (vec){0.0, 10.0}, (vec){0.0, -2.0}, 100.0, &hit),
                   ARCNAV_OK);
  ck_assert(hit.hit);
  ck_assert_double_eq_tol(hit.distance, 9.0, 2.0 * s.eps);
  ck_assert_vec2_near(hit.normal, ((vec){0.0, 1.0}), 1e-9);
  // At the circle: its centre is 3 away at contact.
  ck_assert_int_eq(
      arcnav_query_raycast(s.query, (vec){-10.0, 30.0}, (vec){0.0, -1.0}, INFINITY, &hit),
      ARCNAV_OK);
  ck_assert(hit.hit);
  ck_assert_double_eq_tol(hit.distance, 17.0, 2.0 * s.eps);
  // Short of the obstacle: no hit; a ray away from everything: none either.
  ck_assert_int_eq(arcnav_query_raycast(s.query, (vec){0.0, 10.0}, (vec){1.0, 0.0}, 8.5, &hit),
                   ARCNAV_OK);
  ck_assert(!hit.hit);
  ck_assert_int_eq(arcnav_query_raycast(s.query, (vec){0.0, 30.0}, (vec){0.0, 1.0}, INFINITY, &hit),
                   ARCNAV_OK);
  ck_assert(!hit.hit && isinf(hit.distance));
  ck_assert(hit.point.x == 0.0 && hit.point.y == INFINITY);
  // From a blocked place.
  ck_assert_int_eq(arcnav_query_raycast(s.query, (vec){0.0, 0.5}, (vec){1.0, 0.0}, 10.0, &hit),
                   ARCNAV_START_BLOCKED);
  ck_assert(hit.hit && hit.distance == 0.0);
  release(&s);
  sup_map_free(&m);
}
END_TEST

START_TEST(raycast_point_agent_follows_the_touching_rule) {
  sup_map m = sup_gen_corner_squares(); // [0, 10]^2 and [10, 20]^2, touching at (10, 10)
  sup_map_add_rect(&m, 30.0, 0.0, 40.0, 10.0);
  sup_map_add_rect(&m, 40.0, 0.0, 50.0, 10.0); // a seam along x = 40
  sup_map_add_rect(&m, 60.0, 5.0, 70.0, 15.0);
  for (int engine = 0; engine < 2; ++engine) {
    setup s = build(&m, 0.0, engine == 0 ? ARCNAV_ENGINE_TANGENT : ARCNAV_ENGINE_FUNNEL);
    arcnav_ray_hit hit;
    // Through the pinch at (10, 10): stops there.
    ck_assert_int_eq(
        arcnav_query_raycast(s.query, (vec){5.0, 15.0}, (vec){1.0, -1.0}, INFINITY, &hit),
        ARCNAV_OK);
    ck_assert(hit.hit);
    ck_assert_double_eq_tol(hit.distance, 5.0 * sqrt(2.0), 1e-9);
    ck_assert_vec2_near(hit.point, ((vec){10.0, 10.0}), 1e-9);
    // Sliding down the side x = 10 of the upper square into the pinch: stops there too.
    ck_assert_int_eq(
        arcnav_query_raycast(s.query, (vec){10.0, 18.0}, (vec){0.0, -1.0}, INFINITY, &hit),
        ARCNAV_OK);
    ck_assert(hit.hit);
    ck_assert_double_eq_tol(hit.distance, 8.0, 1e-9);
    // Sliding along the top of the upper square: free all the way.
    ck_assert_int_eq(arcnav_query_raycast(s.query, (vec){5.0, 20.0}, (vec){1.0, 0.0}, 20.0, &hit),
                     ARCNAV_OK);
    ck_assert(!hit.hit);
    // Along the tops of the lower rectangles, over the seam's end: free, until a rectangle ahead.
    ck_assert_int_eq(arcnav_query_raycast(s.query, (vec){25.0, 10.0}, (vec){1.0, 0.0}, 30.0, &hit),
                     ARCNAV_OK);
    ck_assert(!hit.hit);
    ck_assert_int_eq(
        arcnav_query_raycast(s.query, (vec){25.0, 10.0}, (vec){1.0, 0.0}, INFINITY, &hit),
        ARCNAV_OK);
    ck_assert(hit.hit);
    ck_assert_double_eq_tol(hit.distance, 35.0, 1e-9);
    ck_assert_vec2_near(hit.normal, ((vec){-1.0, 0.0}), 1e-9);
    // Down into the seam between the two lower rectangles: stops where it begins.
    ck_assert_int_eq(
        arcnav_query_raycast(s.query, (vec){40.0, 15.0}, (vec){0.0, -1.0}, INFINITY, &hit),
        ARCNAV_OK);
    ck_assert(hit.hit);
    ck_assert_double_eq_tol(hit.distance, 5.0, 1e-9);
    // Into a side: stops on it, the normal its free side.
    ck_assert_int_eq(
        arcnav_query_raycast(s.query, (vec){25.0, 5.0}, (vec){1.0, 0.0}, INFINITY, &hit),
        ARCNAV_OK);
    ck_assert(hit.hit);
    ck_assert_double_eq_tol(hit.distance, 5.0, 1e-9);
    ck_assert_vec2_near(hit.normal, ((vec){-1.0, 0.0}), 1e-9);
    release(&s);
  }
  sup_map_free(&m);
}
END_TEST

// Point agents on maps whose obstacles touch, against the support code's own touching rule: rays
// aimed at vertices (where obstacles meet) and at random, from random free points. Up to the stop
// the ray keeps out of material and never passes between touching material; a little beyond it, it
// would enter material, pass between, or end walled in.
START_TEST(raycast_point_agent_matches_the_touching_reference) {
  size_t hits = 0, stops_at_vertices = 0;
  for (uint64_t seed = 1; seed <= test_scaled_count(12); ++seed) {
    sup_map m = sup_gen_touching(seed, true);
    setup s = build(&m, 0.0, seed % 2 ? ARCNAV_ENGINE_TANGENT : ARCNAV_ENGINE_AUTO);
    double probe = sup_touch_probe_radius(&m), tol = 4.0 * s.eps;
    sup_rng rng = sup_rng_seed(seed * 23);
    vec lo, hi;
    ck_assert(sup_map_extent(&m, &lo, &hi));
    for (int i = 0; i < 30; ++i) {
      vec from;
      if (!sup_random_free_point(&m, 0.0, &rng, lo, hi, 1e-3, 1000, &from)) {
        continue;
      }
      vec target = random_point(&m, &rng, 0.0);
      if (i % 2 == 0 && m.polygon_count > 0) {
        const sup_ring *ring = &m.polygons[sup_rng_below(&rng, m.polygon_count)].outer;
        target = ring->points[sup_rng_below(&rng, ring->count)];
      }
      vec unit = {target.x - from.x, target.y - from.y};
      double length = hypot(unit.x, unit.y);
      if (!(length > 1e-6)) {
        continue;
      }
      unit = scale(unit, 1.0 / length);
      arcnav_ray_hit hit;
      ck_assert_int_eq(arcnav_query_raycast(s.query, from, unit, INFINITY, &hit), ARCNAV_OK);
      vec end = hit.hit ? hit.point : along(from, unit, dist(lo, hi) + 1.0);
      for (int k = 0; k <= 200; ++k) {
        vec p = along(from, unit, dist(from, end) * k / 200.0);
        ck_assert_double_ge(sup_signed_distance_to_obstacles(&m, p), -s.eps);
      }
      ck_assert_msg(!sup_segment_passes_between(&m, from, end, tol, probe),
                    "seed %d: the ray from (%.17g, %.17g) towards (%.17g, %.17g) passes between "
                    "touching material before its stop at %.17g",
                    (int)seed, from.x, from.y, target.x, target.y, hit.distance);
      if (!hit.hit) {
        continue;
      }
      ++hits;
      stops_at_vertices += dist(hit.point, target) <= tol;
      vec beyond = along(end, unit, 1e-3);
      bool stopped = sup_signed_distance_to_obstacles(&m, beyond) < -s.eps ||
                     sup_signed_distance_to_obstacles(&m, along(end, unit, 5e-4)) < -s.eps ||
                     sup_segment_passes_between(&m, from, beyond, tol, probe) ||
                     sup_walled_in(&m, beyond, probe);
      ck_assert_msg(stopped,
                    "seed %d: the ray from (%.17g, %.17g) towards (%.17g, %.17g) stops at %.17g "
                    "but could go on",
                    (int)seed, from.x, from.y, target.x, target.y, hit.distance);
    }
    release(&s);
    sup_map_free(&m);
  }
  ck_assert_uint_gt(hits, test_scaled_minimum(150, 12));
  ck_assert_uint_gt(stops_at_vertices, test_scaled_minimum(20, 12));
}
END_TEST

// ---- still-free paths ------------------------------------------------------------------------

// The reference first contact along a path on `map`: dense samples, then bisection.
static double first_contact(const sup_map *map, double radius, double eps, const arcnav_path *path,
                            double step) {
  double length = arcnav_path_length(path), last = 0.0;
  for (double s = 0.0;; s += step) {
    double at = fmin(s, length);
    vec p;
    arcnav_path_point_at(path, at, &p, NULL);
    if (!free_at(map, radius, eps, p)) {
      double lo = last, hi = at;
      for (int k = 0; k < 100 && hi - lo > 1e-12; ++k) {
        double mid = 0.5 * (lo + hi);
        arcnav_path_point_at(path, mid, &p, NULL);
        if (free_at(map, radius, eps, p)) {
          lo = mid;
        } else {
          hi = mid;
        }
      }
      return hi;
    }
    last = at;
    if (at >= length) {
      return INFINITY;
    }
  }
}

static void check_paths(int kind, uint64_t seed, double radius, size_t *free_paths,
                        size_t *blocked_paths) {
  test_map t = sup_gen_kind(kind, seed);
  setup s = build(&t.map, radius, ARCNAV_ENGINE_AUTO);
  arcnav_path *path = NULL;
  ck_assert_int_eq(arcnav_path_create(NULL, &path), ARCNAV_OK);
  sup_rng rng = sup_rng_seed(seed * 13 + (uint64_t)kind);
  vec lo, hi;
  ck_assert(sup_map_extent(&t.map, &lo, &hi));
  for (int i = 0; i < 8; ++i) {
    vec a, b;
    if (!sup_random_free_point(&t.map, radius, &rng, lo, hi, 1e-3, 1000, &a) ||
        !sup_random_free_point(&t.map, radius, &rng, lo, hi, 1e-3, 1000, &b) ||
        arcnav_find_path(s.query, a, b, path) != ARCNAV_OK || arcnav_path_piece_count(path) == 0) {
      continue;
    }
    bool is_free = false;
    double contact = 0.0;
    ck_assert_int_eq(arcnav_query_path_is_free(s.query, path, &is_free, &contact), ARCNAV_OK);
    ck_assert_msg(is_free, "%s R %g: a found path is not free at %g", t.label, radius, contact);
    ck_assert(isinf(contact));
    ++*free_paths;
    // A square across the path's middle, on a second map and planner.
    double length = arcnav_path_length(path);
    double at = sup_rng_uniform(&rng, 0.3, 0.7) * length;
    vec middle;
    arcnav_path_point_at(path, at, &middle, NULL);
    double half = 0.3 + 0.5 * radius;
    sup_map changed;
    sup_map_copy(&changed, &t.map);
    sup_map_add_rect(&changed, middle.x - half, middle.y - half, middle.x + half, middle.y + half);
    setup c = build(&changed, radius, ARCNAV_ENGINE_AUTO);
    ck_assert_int_eq(arcnav_query_path_is_free(c.query, path, &is_free, &contact), ARCNAV_OK);
    ck_assert(!is_free);
    double expected = first_contact(&changed, radius, c.eps, path, fmax(radius, 0.25) / 16.0);
    ck_assert_msg(fabs(contact - expected) <= 1e-6,
                  "%s R %g: first contact at %.17g, reference %.17g", t.label, radius, contact,
                  expected);
    ++*blocked_paths;
    release(&c);
    sup_map_free(&changed);
  }
  arcnav_path_destroy(path);
  release(&s);
  sup_map_free(&t.map);
}

START_TEST(path_is_free_until_the_map_changes) {
  size_t free_paths = 0, blocked_paths = 0;
  for (int kind = 0; kind < SUP_MAP_KINDS; ++kind) {
    for (uint64_t seed = 1; seed <= test_scaled_count(4); ++seed) {
      test_map t = sup_gen_kind(kind, seed);
      double radius = t.radius;
      sup_map_free(&t.map);
      check_paths(kind, seed, radius, &free_paths, &blocked_paths);
      check_paths(kind, seed, 0.0, &free_paths, &blocked_paths);
    }
  }
  ck_assert_uint_gt(free_paths, 20);
  ck_assert_uint_gt(blocked_paths, 20);
}
END_TEST

START_TEST(empty_path_is_free_when_its_start_is) {
  sup_map m;
  sup_map_init(&m);
  sup_map_add_rect(&m, 0.0, 0.0, 10.0, 10.0);
  setup s = build(&m, 1.0, ARCNAV_ENGINE_TANGENT);
  arcnav_path *path = NULL;
  ck_assert_int_eq(arcnav_path_create(NULL, &path), ARCNAV_OK);
  ck_assert_int_eq(arcnav_find_path(s.query, (vec){20.0, 5.0}, (vec){20.0, 5.0}, path), ARCNAV_OK);
  ck_assert_uint_eq(arcnav_path_piece_count(path), 0);
  bool is_free = false;
  double contact = 0.0;
  ck_assert_int_eq(arcnav_query_path_is_free(s.query, path, &is_free, &contact), ARCNAV_OK);
  ck_assert(is_free);
  release(&s);
  // The same path where a new obstacle covers its start.
  sup_map_add_rect(&m, 19.0, 4.0, 21.0, 6.0);
  s = build(&m, 1.0, ARCNAV_ENGINE_TANGENT);
  ck_assert_int_eq(arcnav_query_path_is_free(s.query, path, &is_free, NULL), ARCNAV_OK);
  ck_assert(!is_free);
  ck_assert_int_eq(arcnav_query_path_is_free(s.query, path, &is_free, &contact), ARCNAV_OK);
  ck_assert(contact == 0.0);
  arcnav_path_destroy(path);
  release(&s);
  sup_map_free(&m);
}
END_TEST

// ---- nearest free point ----------------------------------------------------------------------

// The nearest free point among dense samples of the free set's boundary curves at distance R
// (lines beside edges on both sides, circles round vertices and circle obstacles, the points
// themselves at R = 0) that lies nearer to p than `limit`: returns its distance from p (`limit`
// when there is none).
static double sampled_nearest(const sup_map *map, double radius, double eps, vec p, double spacing,
                              double limit) {
  double best = limit;
#define TRY(q)                                                                                     \
  do {                                                                                             \
    vec try_ = (q);                                                                                \
    double d_ = dist(try_, p);                                                                     \
    if (d_ < best && free_at(map, radius, eps, try_)) {                                            \
      best = d_;                                                                                   \
    }                                                                                              \
  } while (0)
  size_t ring_count = 0;
  const sup_ring *rings[512];
  for (size_t i = 0; i < map->polygon_count; ++i) {
    const sup_polygon *poly = &map->polygons[i];
    rings[ring_count++] = &poly->outer;
    for (size_t h = 0; h < poly->hole_count; ++h) {
      rings[ring_count++] = &poly->holes[h];
    }
  }
  if (map->has_bounds) {
    rings[ring_count++] = &map->bounds;
  }
  for (size_t r = 0; r < ring_count; ++r) {
    const sup_ring *ring = rings[r];
    for (size_t i = 0; i < ring->count; ++i) {
      vec a = ring->points[i], b = ring->points[(i + 1) % ring->count];
      double length = dist(a, b);
      vec n = {-(b.y - a.y) / length, (b.x - a.x) / length};
      int steps = (int)ceil(length / spacing);
      for (int k = 0; k <= steps; ++k) {
        vec q = along(a, (vec){(b.x - a.x) / length, (b.y - a.y) / length}, length * k / steps);
        TRY(add(q, scale(n, radius)));
        TRY(add(q, scale(n, -radius)));
      }
      int round = radius > 0.0 ? (int)ceil(2.0 * TEST_PI * radius / spacing) : 1;
      for (int k = 0; k < round; ++k) {
        TRY(add(a, scale((vec){cos(2.0 * TEST_PI * k / round), sin(2.0 * TEST_PI * k / round)},
                         radius)));
      }
    }
  }
  for (size_t i = 0; i < map->circle_count; ++i) {
    double rho = map->circles[i].radius + radius;
    int round = rho > 0.0 ? (int)ceil(2.0 * TEST_PI * rho / spacing) : 1;
    for (int k = 0; k < round; ++k) {
      TRY(add(map->circles[i].center,
              scale((vec){cos(2.0 * TEST_PI * k / round), sin(2.0 * TEST_PI * k / round)}, rho)));
    }
  }
#undef TRY
  return best;
}

static void check_nearest(const test_map *t, double radius, uint64_t seed, size_t *moved) {
  setup s = build(&t->map, radius, ARCNAV_ENGINE_TANGENT);
  sup_obstacle_screen *screen = sup_obstacle_screen_create(&t->map);
  ck_assert_ptr_nonnull(screen);
  sup_rng rng = sup_rng_seed(seed);
  double spacing = 0.02;
  for (int i = 0; i < 30; ++i) {
    vec p = random_point(&t->map, &rng, 5.0);
    vec q;
    double d = -1.0;
    ck_assert_int_eq(arcnav_query_nearest_free(s.query, p, &q, &d), ARCNAV_OK);
    ck_assert_double_eq_tol(d, dist(p, q), 1e-12 * fmax(1.0, d));
    ck_assert_msg(free_at(&t->map, radius, s.eps, q),
                  "%s R %g: nearest free point (%.17g, %.17g) of (%.17g, %.17g) is not free",
                  t->label, radius, q.x, q.y, p.x, p.y);
    if (d == 0.0) {
      ck_assert(free_at(&t->map, radius, s.eps, p));
      continue;
    }
    ++*moved;
    // Nothing sampled on the boundary curves is nearer, beyond the samples' spacing.
    double sampled = sampled_nearest(&t->map, radius, s.eps, p, spacing, d - spacing);
    ck_assert_msg(sampled >= d - spacing,
                  "%s R %g: nearest free point of (%.17g, %.17g) is %.17g away, a sample %.17g",
                  t->label, radius, p.x, p.y, d, sampled);
    // And nothing on a fine grid round p is.
    int n = 30;
    sup_obstacle_screen_aim(screen, (vec){p.x - d, p.y - d}, (vec){p.x + d, p.y + d});
    for (int gx = -n; gx <= n; ++gx) {
      for (int gy = -n; gy <= n; ++gy) {
        vec x = {p.x + d * gx / n, p.y + d * gy / n};
        double dx = dist(x, p);
        if (dx < d - 2.0 * d / n) {
          ck_assert_msg(!free_at_screened(screen, radius, s.eps, x),
                        "%s R %g: (%.17g, %.17g) is free and nearer to (%.17g, %.17g) than %.17g",
                        t->label, radius, x.x, x.y, p.x, p.y, d);
        }
      }
    }
  }
  sup_obstacle_screen_destroy(screen);
  release(&s);
}

START_TEST(nearest_free_is_free_and_nearest) {
  size_t moved = 0;
  for (int kind = 0; kind < SUP_MAP_KINDS; ++kind) {
    for (uint64_t seed = 1; seed <= test_scaled_count(5); ++seed) {
      test_map t = sup_gen_kind(kind, seed);
      check_nearest(&t, t.radius, seed * 17 + (uint64_t)kind, &moved);
      if (sup_kind_touches_nothing(kind)) {
        check_nearest(&t, 0.0, seed * 19 + (uint64_t)kind, &moved);
      }
      sup_map_free(&t.map);
    }
  }
  ck_assert_uint_gt(moved, 40);
}
END_TEST

START_TEST(nearest_free_on_small_cases) {
  sup_map m;
  sup_map_init(&m);
  vec ring[4] = {{0.0, 0.0}, {10.0, 0.0}, {10.0, 10.0}, {0.0, 10.0}};
  sup_map_set_bounds(&m, ring, 4);
  sup_map_add_rect(&m, 2.0, 2.0, 8.0, 8.0);
  setup s = build(&m, 1.0, ARCNAV_ENGINE_TANGENT);
  vec q;
  double d;
  // From inside the square near its left side: out to x = 1, between it and the bounds.
  ck_assert_int_eq(arcnav_query_nearest_free(s.query, (vec){2.5, 5.0}, &q, &d), ARCNAV_OK);
  ck_assert_vec2_near(q, ((vec){1.0, 5.0}), 1e-6);
  // Outside the bounds: back in.
  ck_assert_int_eq(arcnav_query_nearest_free(s.query, (vec){-3.0, 5.0}, &q, &d), ARCNAV_OK);
  ck_assert_vec2_near(q, ((vec){1.0, 5.0}), 1e-6);
  // A free point is its own answer.
  ck_assert_int_eq(arcnav_query_nearest_free(s.query, (vec){1.0, 1.0}, &q, &d), ARCNAV_OK);
  ck_assert(q.x == 1.0 && q.y == 1.0 && d == 0.0);
  release(&s);
  // Bounds too small for the disk: nothing is free.
  s = build(&m, 3.0, ARCNAV_ENGINE_TANGENT);
  ck_assert_int_eq(arcnav_query_nearest_free(s.query, (vec){5.0, 5.0}, &q, &d), ARCNAV_NO_PATH);
  ck_assert(isinf(d));
  release(&s);
  // A point agent on a seam goes to the seam's end.
  sup_map_free(&m);
  sup_map_init(&m);
  sup_map_add_rect(&m, 0.0, 0.0, 10.0, 10.0);
  sup_map_add_rect(&m, 10.0, 0.0, 20.0, 10.0);
  s = build(&m, 0.0, ARCNAV_ENGINE_AUTO);
  ck_assert_int_eq(arcnav_query_nearest_free(s.query, (vec){10.0, 8.0}, &q, &d), ARCNAV_OK);
  ck_assert_vec2_near(q, ((vec){10.0, 10.0}), 1e-9);
  ck_assert_int_eq(arcnav_query_nearest_free(s.query, (vec){3.0, 5.0}, &q, &d), ARCNAV_OK);
  ck_assert_vec2_near(q, ((vec){0.0, 5.0}), 1e-9);
  release(&s);
  sup_map_free(&m);
}
END_TEST

// Places where the geometry is degenerate: polygon vertices, edge middles and circle centres, rays
// along edges and through vertices from there. Every probe answers, and the answers hold.
START_TEST(degenerate_places_are_answered) {
  size_t probed = 0;
  for (int kind = 0; kind < SUP_MAP_KINDS; ++kind) {
    test_map t = sup_gen_kind(kind, 3);
    for (int pass = 0; pass < 2; ++pass) {
      double radius = pass == 0 ? t.radius : 0.0;
      setup s = build(&t.map, radius, ARCNAV_ENGINE_TANGENT);
      // Where sup's distances see every rule: at R = 0 on maps that touch, only material counts.
      double floor = radius == 0.0 && !sup_kind_touches_nothing(kind) ? 0.0 : radius;
      for (size_t i = 0; i < t.map.polygon_count && i < 12; ++i) {
        const sup_ring *ring = &t.map.polygons[i].outer;
        for (size_t v = 0; v < ring->count; ++v) {
          vec a = ring->points[v], b = ring->points[(v + 1) % ring->count];
          vec places[2] = {a, scale(add(a, b), 0.5)};
          for (int k = 0; k < 2; ++k) {
            arcnav_clearance c;
            ck_assert_int_eq(arcnav_query_clearance(s.query, places[k], &c), ARCNAV_OK);
            ck_assert_double_le(c.distance, 1e-9);
            vec q;
            ck_assert_int_eq(arcnav_query_nearest_free(s.query, places[k], &q, NULL), ARCNAV_OK);
            ck_assert_double_ge(sup_signed_distance_to_obstacles(&t.map, q), floor - 2.0 * s.eps);
            // From there along the edge and towards its far end.
            vec directions[2] = {{b.x - a.x, b.y - a.y}, {b.x - q.x, b.y - q.y}};
            for (int d = 0; d < 2; ++d) {
              arcnav_ray_hit hit;
              arcnav_status st = arcnav_query_raycast(s.query, q, directions[d], 50.0, &hit);
              if (directions[d].x == 0.0 && directions[d].y == 0.0) {
                ck_assert_int_eq(st, ARCNAV_ERR_INVALID_ARGUMENT);
                continue;
              }
              ck_assert_int_eq(st, ARCNAV_OK);
              double length = hypot(directions[d].x, directions[d].y);
              vec unit = scale(directions[d], 1.0 / length);
              for (int j = 0; j <= 50; ++j) {
                vec p = along(q, unit, hit.distance * j / 50.0);
                ck_assert_double_ge(sup_signed_distance_to_obstacles(&t.map, p),
                                    floor - 4.0 * s.eps);
              }
              ++probed;
            }
          }
        }
      }
      for (size_t i = 0; i < t.map.circle_count; ++i) {
        vec q;
        ck_assert_int_eq(arcnav_query_nearest_free(s.query, t.map.circles[i].center, &q, NULL),
                         ARCNAV_OK);
        ck_assert_double_ge(sup_signed_distance_to_obstacles(&t.map, q), floor - 2.0 * s.eps);
      }
      release(&s);
    }
    sup_map_free(&t.map);
  }
  ck_assert_uint_gt(probed, 500);
}
END_TEST

// ---- several radii on one planner --------------------------------------------------------------

START_TEST(probes_follow_the_query_radius) {
  test_map t = sup_gen_kind(1, 5);
  arcnav_map *map = NULL;
  ck_assert_int_eq(sup_map_to_arcnav(&t.map, &map), ARCNAV_OK);
  double eps = arcnav_map_tolerance(map);
  arcnav_planner_def def = arcnav_default_planner_def();
  def.max_radius = 3.0;
  arcnav_planner *planner = NULL;
  arcnav_query *query = NULL;
  ck_assert_int_eq(arcnav_planner_create(map, &def, &planner), ARCNAV_OK);
  ck_assert_int_eq(arcnav_query_create(planner, &query), ARCNAV_OK);
  sup_rng rng = sup_rng_seed(99);
  vec lo, hi;
  ck_assert(sup_map_extent(&t.map, &lo, &hi));
  const double radii[4] = {0.0, 2.5, 0.7, 3.0};
  for (int i = 0; i < 60; ++i) {
    double radius = radii[i % 4];
    ck_assert_int_eq(arcnav_query_set_radius(query, radius), ARCNAV_OK);
    vec p = random_point(&t.map, &rng, 0.0), q;
    double d;
    ck_assert_int_eq(arcnav_query_nearest_free(query, p, &q, &d), ARCNAV_OK);
    ck_assert(free_at(&t.map, radius, eps, q));
    vec from;
    if (sup_random_free_point(&t.map, radius, &rng, lo, hi, 1e-3, 1000, &from)) {
      arcnav_ray_hit hit;
      vec unit = {cos(i), sin(i)};
      ck_assert_int_eq(arcnav_query_raycast(query, from, unit, INFINITY, &hit), ARCNAV_OK);
      double expected =
          march(&t.map, radius, eps, from, unit, dist(lo, hi) + 1.0, fmax(radius, 0.8) / 16.0);
      if (hit.hit) {
        ck_assert_double_le(hit.distance, expected + 1e-6);
      } else {
        ck_assert(isinf(expected));
      }
    }
  }
  arcnav_query_destroy(query);
  arcnav_planner_destroy(planner);
  arcnav_map_destroy(map);
  sup_map_free(&t.map);
}
END_TEST

// ---- bad input
// -----------------------------------------------------------------------------------

START_TEST(bad_input_is_refused) {
  sup_map m;
  sup_map_init(&m);
  sup_map_add_rect(&m, 0.0, 0.0, 10.0, 10.0);
  setup s = build(&m, 1.0, ARCNAV_ENGINE_TANGENT);
  arcnav_path *path = NULL;
  ck_assert_int_eq(arcnav_path_create(NULL, &path), ARCNAV_OK);
  arcnav_clearance c;
  arcnav_ray_hit hit;
  vec q, p = {20.0, 20.0}, x = {1.0, 0.0};
  bool is_free;
  double nan = NAN, inf = INFINITY;
  ck_assert_int_eq(arcnav_query_clearance(NULL, p, &c), ARCNAV_ERR_INVALID_ARGUMENT);
  ck_assert_int_eq(arcnav_query_clearance(s.query, p, NULL), ARCNAV_ERR_INVALID_ARGUMENT);
  ck_assert_int_eq(arcnav_query_clearance(s.query, (vec){nan, 0.0}, &c), ARCNAV_ERR_NOT_FINITE);
  ck_assert_int_eq(arcnav_query_clearance(s.query, (vec){0.0, inf}, &c), ARCNAV_ERR_NOT_FINITE);
  ck_assert_int_eq(arcnav_query_clearance(s.query, (vec){1e101, 0.0}, &c), ARCNAV_ERR_TOO_LARGE);
  ck_assert_int_eq(arcnav_query_raycast(NULL, p, x, 1.0, &hit), ARCNAV_ERR_INVALID_ARGUMENT);
  ck_assert_int_eq(arcnav_query_raycast(s.query, p, x, 1.0, NULL), ARCNAV_ERR_INVALID_ARGUMENT);
  ck_assert_int_eq(arcnav_query_raycast(s.query, p, (vec){0.0, 0.0}, 1.0, &hit),
                   ARCNAV_ERR_INVALID_ARGUMENT);
  ck_assert_int_eq(arcnav_query_raycast(s.query, p, x, -1.0, &hit), ARCNAV_ERR_INVALID_ARGUMENT);
  ck_assert_int_eq(arcnav_query_raycast(s.query, p, x, nan, &hit), ARCNAV_ERR_NOT_FINITE);
  ck_assert_int_eq(arcnav_query_raycast(s.query, p, (vec){nan, 1.0}, 1.0, &hit),
                   ARCNAV_ERR_NOT_FINITE);
  ck_assert_int_eq(arcnav_query_raycast(s.query, (vec){inf, 0.0}, x, 1.0, &hit),
                   ARCNAV_ERR_NOT_FINITE);
  ck_assert_int_eq(arcnav_query_raycast(s.query, (vec){-1e101, 0.0}, x, 1.0, &hit),
                   ARCNAV_ERR_TOO_LARGE);
  ck_assert_int_eq(arcnav_query_path_is_free(NULL, path, &is_free, NULL),
                   ARCNAV_ERR_INVALID_ARGUMENT);
  ck_assert_int_eq(arcnav_query_path_is_free(s.query, NULL, &is_free, NULL),
                   ARCNAV_ERR_INVALID_ARGUMENT);
  ck_assert_int_eq(arcnav_query_path_is_free(s.query, path, NULL, NULL),
                   ARCNAV_ERR_INVALID_ARGUMENT);
  ck_assert_int_eq(arcnav_query_nearest_free(NULL, p, &q, NULL), ARCNAV_ERR_INVALID_ARGUMENT);
  ck_assert_int_eq(arcnav_query_nearest_free(s.query, p, NULL, NULL), ARCNAV_ERR_INVALID_ARGUMENT);
  ck_assert_int_eq(arcnav_query_nearest_free(s.query, (vec){nan, nan}, &q, NULL),
                   ARCNAV_ERR_NOT_FINITE);
  ck_assert_int_eq(arcnav_query_nearest_free(s.query, (vec){0.0, 2e100}, &q, NULL),
                   ARCNAV_ERR_TOO_LARGE);
  // Far but in range: answered, and rays from afar neither crash nor hit anything behind them.
  ck_assert_int_eq(arcnav_query_nearest_free(s.query, (vec){1e90, -1e90}, &q, NULL), ARCNAV_OK);
  ck_assert_int_eq(arcnav_query_raycast(s.query, (vec){1e90, 5.0}, (vec){1.0, 0.0}, inf, &hit),
                   ARCNAV_OK);
  ck_assert(!hit.hit);
  ck_assert_int_eq(arcnav_query_raycast(s.query, (vec){1e90, 5.0}, (vec){-1.0, 1e-300}, inf, &hit),
                   ARCNAV_OK);
  ck_assert_int_eq(
      arcnav_query_raycast(s.query, (vec){-20.0, 5.0}, (vec){1e-300, 0.0}, 1e300, &hit), ARCNAV_OK);
  ck_assert(hit.hit);
  ck_assert_double_eq_tol(hit.distance, 19.0, 2.0 * s.eps);
  ck_assert_int_eq(arcnav_query_clearance(s.query, (vec){1e100, 1e100}, &c), ARCNAV_OK);
  ck_assert(c.found && c.distance > 1e99);
  release(&s);
  // The eroded funnel engine at R > 0 has no exact free test to lend.
  s = build(&m, 1.0, ARCNAV_ENGINE_FUNNEL);
  ck_assert_int_eq(arcnav_query_clearance(s.query, p, &c), ARCNAV_ERR_INVALID_ARGUMENT);
  ck_assert_int_eq(arcnav_query_raycast(s.query, p, x, 1.0, &hit), ARCNAV_ERR_INVALID_ARGUMENT);
  ck_assert_int_eq(arcnav_query_path_is_free(s.query, path, &is_free, NULL),
                   ARCNAV_ERR_INVALID_ARGUMENT);
  ck_assert_int_eq(arcnav_query_nearest_free(s.query, p, &q, NULL), ARCNAV_ERR_INVALID_ARGUMENT);
  release(&s);
  arcnav_path_destroy(path);
  sup_map_free(&m);
}
END_TEST

// ---- nearest reachable point ---------------------------------------------------------------

// Random rectangles with two sealed rooms (square rings) and bounds, so that some free places
// cannot be reached from others.
// A square room `size` across with its lower left corner at `corner`, walls `wall` thick, no door.
static sup_map rooms_map(uint64_t seed) {
  sup_map m = sup_gen_random_rectangles(seed, 8, 80.0, 3.0, 10.0);
  vec bounds[4] = {{-6.0, -6.0}, {86.0, -6.0}, {86.0, 86.0}, {-6.0, 86.0}};
  sup_map_set_bounds(&m, bounds, 4);
  for (int k = 0; k < 2; ++k) {
    sup_map_add_sealed_room(&m, (vec){10.0 + 45.0 * k, 45.0 - 30.0 * k}, 20.0, 4.0);
  }
  return m;
}

// Nine sealed rooms among posts: a place in one room is far from the nearest place reached from
// another, so the probe looks past many refused places and keeps to the cells the passages
// bound (index/probe.h, an_cell_bound).
static sup_map many_rooms_map(uint64_t seed) {
  sup_map m = sup_gen_random_rectangles(seed, 24, 90.0, 1.0, 3.0);
  vec bounds[4] = {{-6.0, -6.0}, {96.0, -6.0}, {96.0, 96.0}, {-6.0, 96.0}};
  sup_map_set_bounds(&m, bounds, 4);
  for (int k = 0; k < 9; ++k) {
    sup_map_add_sealed_room(&m, (vec){2.0 + 31.0 * (k % 3), 2.0 + 31.0 * (k / 3)}, 22.0, 2.0);
  }
  return m;
}

// The nearest reachable point q of p from `from`: free by the verifier's distances, reached by a
// path the verifier passes, no nearer than the nearest free point, and no free place nearer to p
// on a grid round it is reached by the brute-force reference (whose paths are free: a path it
// finds proves the place reachable). Counts the answers that had to rule out free places.
static void check_reachable_from(const setup *s, const sup_map *m, double radius,
                                 sup_reference *ref, arcnav_path *path, vec from, vec p,
                                 size_t *ruled_out) {
  vec q, nearest;
  double d = -1.0, d_free = -1.0;
  ck_assert_int_eq(arcnav_query_nearest_reachable(s->query, from, p, &q, &d), ARCNAV_OK);
  ck_assert_double_eq_tol(d, dist(p, q), 1e-12 * fmax(1.0, d));
  ck_assert_msg(free_at(m, radius, s->eps, q), "R %g: (%.17g, %.17g) is not free", radius, q.x,
                q.y);
  ck_assert_int_eq(arcnav_find_path(s->query, from, q, path), ARCNAV_OK);
  sup_verify_report report;
  ck_assert_msg(sup_verify_path(m, radius, s->eps, from, q, path, &report), "R %g: %s", radius,
                report.message);
  ck_assert_int_eq(arcnav_query_nearest_free(s->query, p, &nearest, &d_free), ARCNAV_OK);
  ck_assert_double_ge_tol(d, d_free, 1e-9);
  double step = fmax(d / 12.0, 0.05);
  if (d > d_free + step) {
    ++*ruled_out;
  }
  sup_reference_flood(ref, from);
  for (double gx = -d; gx <= d; gx += step) {
    for (double gy = -d; gy <= d; gy += step) {
      vec x = {p.x + gx, p.y + gy};
      if (dist(x, p) >= d - step || !free_at(m, radius + step, s->eps, x)) {
        continue;
      }
      ck_assert_msg(!sup_reference_reaches(ref, x),
                    "R %g: (%.17g, %.17g) is reached from (%.17g, %.17g) and nearer to "
                    "(%.17g, %.17g) than the answer, %.17g",
                    radius, x.x, x.y, from.x, from.y, p.x, p.y, d);
    }
  }
}

static void check_reachable(const sup_map *m, double radius, arcnav_tangent_graph graph,
                            uint64_t seed, size_t *ruled_out) {
  setup s = build(m, radius, ARCNAV_ENGINE_AUTO);
  if (graph != ARCNAV_TANGENT_GRAPH_AUTO) {
    // The same map on the tangent engine with the graph asked for.
    arcnav_query_destroy(s.query);
    arcnav_planner_destroy(s.planner);
    arcnav_planner_def def = arcnav_default_planner_def();
    def.radius = radius;
    def.engine = ARCNAV_ENGINE_TANGENT;
    def.tangent_graph = graph;
    ck_assert_int_eq(arcnav_planner_create(s.map, &def, &s.planner), ARCNAV_OK);
    ck_assert_int_eq(arcnav_query_create(s.planner, &s.query), ARCNAV_OK);
  }
  sup_reference *ref = sup_reference_create(m, radius, NULL);
  arcnav_path *path = NULL;
  ck_assert_int_eq(arcnav_path_create(NULL, &path), ARCNAV_OK);
  vec lo, hi;
  ck_assert(sup_map_extent(m, &lo, &hi));
  sup_rng rng = sup_rng_seed(seed);
  for (int i = 0; i < 10; ++i) {
    vec from;
    if (!sup_random_free_point(m, radius, &rng, lo, hi, 0.01, 1000, &from)) {
      continue;
    }
    check_reachable_from(&s, m, radius, ref, path, from, random_point(m, &rng, 0.0), ruled_out);
  }
  arcnav_path_destroy(path);
  sup_reference_destroy(ref);
  release(&s);
}

START_TEST(nearest_reachable_is_reached_and_nearest) {
  size_t ruled_out = 0;
  for (uint64_t seed = 1; seed <= test_scaled_count(4); ++seed) {
    sup_map m = rooms_map(seed);
    check_reachable(&m, 1.0, ARCNAV_TANGENT_GRAPH_PREBUILT, seed * 31, &ruled_out);
    check_reachable(&m, 1.0, ARCNAV_TANGENT_GRAPH_ON_DEMAND, seed * 41, &ruled_out);
    check_reachable(&m, 0.0, ARCNAV_TANGENT_GRAPH_AUTO, seed * 37, &ruled_out);
    sup_map_free(&m);
  }
  // Starts and points in different parts: the answers had to rule places out.
  ck_assert_uint_ge(ruled_out, test_scaled_minimum(4, 4));
}
END_TEST

START_TEST(nearest_reachable_among_many_rooms) {
  size_t ruled_out = 0;
  for (uint64_t seed = 1; seed <= test_scaled_count(3); ++seed) {
    sup_map m = many_rooms_map(seed);
    check_reachable(&m, 1.0, ARCNAV_TANGENT_GRAPH_ON_DEMAND, seed * 43, &ruled_out);
    check_reachable(&m, 2.0, ARCNAV_TANGENT_GRAPH_PREBUILT, seed * 47, &ruled_out);
    sup_map_free(&m);
  }
  ck_assert_uint_ge(ruled_out, test_scaled_minimum(3, 6));
}
END_TEST

// A map of few grid cells, two parts of it apart for R = 2 (a quadrilateral nearer than 2R to the
// bounds at two corners): the point lies inside the quadrilateral, its nearest free places in the
// part the start is not in. The refusal comes in the last ring of cells, which makes the bound
// due; past the rings the candidates it held must still be tested (fuzz_living found the probe
// answering no_path: fuzz/regressions/living/nearest-reachable-refused-in-the-last-ring-left-the-
// rest-untested).
START_TEST(nearest_reachable_refused_in_the_last_ring) {
  sup_map m;
  sup_map_init(&m);
  const vec quad[4] = {{0, 22.75}, {-0.25, 0.25}, {4, -0.25}, {20.25, 4}};
  sup_map_add_polygon(&m, quad, 4, NULL, NULL, 0);
  const vec box[4] = {{-24, -24}, {24, -24}, {24, 24}, {-24, 24}};
  sup_map_set_bounds(&m, box, 4);
  size_t ruled_out = 0;
  for (int e = 0; e < 2; ++e) {
    setup s = build(&m, 2.0, e == 0 ? ARCNAV_ENGINE_AUTO : ARCNAV_ENGINE_INTERVAL);
    sup_reference *ref = sup_reference_create(&m, 2.0, NULL);
    arcnav_path *path = NULL;
    ck_assert_int_eq(arcnav_path_create(NULL, &path), ARCNAV_OK);
    check_reachable_from(&s, &m, 2.0, ref, path, (vec){-6, -6}, (vec){7.75, 7.75}, &ruled_out);
    arcnav_path_destroy(path);
    sup_reference_destroy(ref);
    release(&s);
  }
  ck_assert_uint_eq(ruled_out, 2);
  sup_map_free(&m);
}
END_TEST

// A caller's test that refuses about fifteen free places in sixteen, by a hash of the place's bits:
// any rule will do, since both searches below must find the nearest candidate it accepts.
static an_verdict accept_some(void *context, vec2 q) {
  (void)context;
  uint64_t bits[2];
  memcpy(&bits[0], &q.x, sizeof bits[0]);
  memcpy(&bits[1], &q.y, sizeof bits[1]);
  uint64_t h = (bits[0] * 0x9e3779b97f4a7c15u) ^ (bits[1] * 0xc2b2ae3d27d4eb4fu);
  h ^= h >> 29;
  return (h * 0xbf58476d1ce4e5b9u) >> 60 == 0 ? AN_ACCEPTED : AN_REJECTED;
}

// A bound that keeps every cell of the grid.
static bool keep_every_cell(void *context, an_cell_filter *filter) {
  const an_grid *grid = context;
  vec2 hi = {grid->origin.x + grid->columns * grid->cell_size,
             grid->origin.y + grid->rows * grid->cell_size};
  an_cell_filter_mark_box(filter, grid, grid->origin, hi);
  return true;
}

// The bounded search (the kept cells nearest first, asked for at the first refusal) against the
// ring search it takes over from: with a bound that keeps every cell, both must answer the nearest
// candidate the test accepts, however far it lies. The refusals send the bounded search through
// many cells, so a cell searched out of order, or a bound on a cell's distance that is too large,
// shows as a farther answer.
START_TEST(bounded_search_answers_as_the_rings_do) {
  an_allocator alloc = an_allocator_from(NULL);
  size_t bounded = 0;
  for (uint64_t seed = 1; seed <= test_scaled_count(6); ++seed) {
    sup_map m = sup_gen_random_rectangles(seed, 120, 100.0, 0.5, 6.0);
    arcnav_map *map = NULL;
    ck_assert_int_eq(sup_map_to_arcnav(&m, &map), ARCNAV_OK);
    double radius = seed % 2 ? 1.0 : 0.5;
    an_free_space space;
    ck_assert_int_eq(an_free_space_build(map, radius, arcnav_map_tolerance(map), &alloc, &space),
                     ARCNAV_OK);
    an_probe_scratch scratch = {0};
    ck_assert_int_eq(an_probe_scratch_init(&scratch, &space.grid, &alloc), ARCNAV_OK);
    an_clearance settings = an_clearance_at_radius(&space.clearance, radius);
    an_cell_bound every_cell = {keep_every_cell, &space.grid, &alloc};
    sup_rng rng = sup_rng_seed(seed * 53);
    for (int i = 0; i < 40; ++i) {
      vec p = random_point(&m, &rng, 0.0);
      vec2 by_rings = {0.0, 0.0}, by_cells = {0.0, 0.0};
      an_verdict rings = an_probe_nearest_accepted(&settings, &scratch, v2(p.x, p.y), accept_some,
                                                   NULL, NULL, &by_rings);
      an_verdict cells = an_probe_nearest_accepted(&settings, &scratch, v2(p.x, p.y), accept_some,
                                                   NULL, &every_cell, &by_cells);
      ck_assert_int_eq(cells, rings);
      if (rings != AN_ACCEPTED) {
        continue;
      }
      double d_rings = dist(p, (vec){by_rings.x, by_rings.y});
      double d_cells = dist(p, (vec){by_cells.x, by_cells.y});
      ck_assert_msg(fabs(d_cells - d_rings) <= 1e-12 * fmax(1.0, d_rings),
                    "R %g, (%.17g, %.17g): the rings answer %.17g away, the bounded cells %.17g",
                    radius, p.x, p.y, d_rings, d_cells);
      bounded += d_rings > 2.0 * space.grid.cell_size;
    }
    an_probe_scratch_free(&scratch, &alloc);
    an_free_space_destroy(&space, &alloc);
    arcnav_map_destroy(map);
    sup_map_free(&m);
  }
  // Answers beyond the first rings, where the bounded search takes over.
  ck_assert_uint_ge(bounded, test_scaled_minimum(40, 6));
}
END_TEST

// The free test of an arc of radius R round a rectangle's corner (an_arc_is_free, what a disk
// path's turn is checked with) against the support code's distances at samples R/64 apart along
// it: free only when every sample is, and blocked only when some sample comes within half a step
// of touching (the distance to the obstacles changes no faster than the arc's length). The arcs
// start at a free place anywhere round the corner, so many reach into the corner's own edges,
// which the check judges without measuring where the arc keeps behind them.
START_TEST(corner_arcs_are_free_as_the_distances_say) {
  an_allocator alloc = an_allocator_from(NULL);
  size_t verdicts[2] = {0, 0};
  for (uint64_t seed = 1; seed <= test_scaled_count(6); ++seed) {
    sup_map m = sup_gen_random_rectangles(seed, 40, 60.0, 0.5, 6.0);
    arcnav_map *map = NULL;
    ck_assert_int_eq(sup_map_to_arcnav(&m, &map), ARCNAV_OK);
    double radius = seed % 2 ? 1.0 : 0.5;
    double eps = arcnav_map_tolerance(map);
    an_free_space space;
    ck_assert_int_eq(an_free_space_build(map, radius, eps, &alloc, &space), ARCNAV_OK);
    an_probe_scratch scratch = {0};
    ck_assert_int_eq(an_probe_scratch_init(&scratch, &space.grid, &alloc), ARCNAV_OK);
    an_clearance settings = an_clearance_at_radius(&space.clearance, radius);
    sup_rng rng = sup_rng_seed(seed * 71);
    double step = radius / 64.0;
    sup_obstacle_screen *screen = sup_obstacle_screen_create(&m);
    ck_assert_ptr_nonnull(screen);
    for (size_t i = 0; i < m.polygon_count; ++i) {
      const sup_ring *ring = &m.polygons[i].outer;
      for (size_t k = 0; k < ring->count; ++k) {
        vec c = ring->points[k];
        vec before = ring->points[(k + ring->count - 1) % ring->count];
        vec after = ring->points[(k + 1) % ring->count];
        // Half the arcs start near where the corner's wedge starts (the outward normal of the
        // edge before it, the ring taken counter-clockwise) and sweep about the wedge, just
        // inside it or just past its sides; the others start anywhere.
        vec edge = sup_ring_signed_area(ring) > 0.0 ? (vec){c.x - before.x, c.y - before.y}
                                                    : (vec){c.x - after.x, c.y - after.y};
        double wedge_start = atan2(-edge.x, edge.y);
        bool near_wedge = sup_rng_unit(&rng) < 0.5;
        double start = near_wedge ? wedge_start + sup_rng_uniform(&rng, -0.1, 0.1)
                                  : sup_rng_uniform(&rng, 0.0, 2.0 * AN_PI);
        double sweep = near_wedge                 ? sup_rng_uniform(&rng, 0.05, 0.5 * AN_PI + 0.1)
                       : sup_rng_unit(&rng) < 0.8 ? sup_rng_uniform(&rng, 0.05, 3.0)
                                                  : sup_rng_uniform(&rng, 3.3, 6.2);
        an_arc arc = {v2(c.x, c.y), radius, an_wrap_angle(start), sweep};
        // The check measures the arc against the obstacles' edges, for arcs that start free, as
        // a path's do: one wholly inside material comes near no edge.
        vec first = {c.x + radius * cos(arc.start_angle), c.y + radius * sin(arc.start_angle)};
        if (sup_signed_distance_to_obstacles(&m, first) < radius - eps) {
          continue;
        }
        bool free = an_arc_is_free(&settings, &scratch.clearance, &arc);
        double least = INFINITY;
        size_t samples = (size_t)ceil(radius * sweep / step);
        sup_obstacle_screen_aim(screen, (vec){c.x - radius, c.y - radius},
                                (vec){c.x + radius, c.y + radius});
        for (size_t j = 0; j <= samples; ++j) {
          double angle = arc.start_angle + sweep * (double)j / (double)samples;
          vec p = {c.x + radius * cos(angle), c.y + radius * sin(angle)};
          least = fmin(least, sup_screened_signed_distance(screen, p));
        }
        double limit = radius - eps;
        if (free) {
          ck_assert_msg(least >= limit - 1e-9,
                        "seed %" PRIu64 ": the arc round (%g, %g) from %.17g sweeping %.17g is "
                        "called free, but a sample is %.17g from the obstacles",
                        seed, c.x, c.y, arc.start_angle, sweep, least);
        } else {
          ck_assert_msg(least < limit + 0.5 * step + 1e-9,
                        "seed %" PRIu64 ": the arc round (%g, %g) from %.17g sweeping %.17g is "
                        "called blocked, but every sample is %.17g or more from the obstacles",
                        seed, c.x, c.y, arc.start_angle, sweep, least);
        }
        verdicts[free]++;
      }
    }
    sup_obstacle_screen_destroy(screen);
    an_probe_scratch_free(&scratch, &alloc);
    an_free_space_destroy(&space, &alloc);
    arcnav_map_destroy(map);
    sup_map_free(&m);
  }
  ck_assert_uint_ge(verdicts[0], test_scaled_minimum(80, 6));
  ck_assert_uint_ge(verdicts[1], test_scaled_minimum(80, 6));
}
END_TEST

START_TEST(nearest_reachable_small_cases_and_errors) {
  sup_map m = rooms_map(1);
  setup s = build(&m, 1.0, ARCNAV_ENGINE_AUTO);
  vec q;
  double d;
  // Inside the first room (its hole is [14, 26] x [49, 61]) from outside: the room's free centre
  // is not reachable; its walls are 4 thick, so the disk stands 1 outside them, 11 from the
  // centre, on one of the four sides.
  vec from = {0.0, 0.0}, centre = {20.0, 55.0};
  ck_assert(free_at(&m, 1.0, s.eps, from));
  ck_assert_int_eq(arcnav_query_nearest_reachable(s.query, from, centre, &q, &d), ARCNAV_OK);
  ck_assert_double_eq_tol(d, 11.0, 1e-6);
  // From inside the room, the centre is its own answer.
  ck_assert_int_eq(arcnav_query_nearest_reachable(s.query, (vec){16.0, 51.0}, centre, &q, &d),
                   ARCNAV_OK);
  ck_assert(q.x == centre.x && q.y == centre.y && d == 0.0);
  // In the room's wall: the nearest free place is inside the room, 1 from the wall's inner face,
  // but from outside only the outer face's side is reached.
  ck_assert_int_eq(arcnav_query_nearest_reachable(s.query, from, (vec){20.0, 46.5}, &q, &d),
                   ARCNAV_OK);
  ck_assert_vec2_near(q, ((vec){20.0, 44.0}), 1e-6);
  // Errors.
  ck_assert_int_eq(arcnav_query_nearest_reachable(NULL, from, centre, &q, &d),
                   ARCNAV_ERR_INVALID_ARGUMENT);
  ck_assert_int_eq(arcnav_query_nearest_reachable(s.query, from, centre, NULL, &d),
                   ARCNAV_ERR_INVALID_ARGUMENT);
  ck_assert_int_eq(arcnav_query_nearest_reachable(s.query, (vec){NAN, 0.0}, centre, &q, &d),
                   ARCNAV_ERR_NOT_FINITE);
  ck_assert_int_eq(arcnav_query_nearest_reachable(s.query, from, (vec){1e200, 0.0}, &q, &d),
                   ARCNAV_ERR_TOO_LARGE);
  ck_assert_int_eq(arcnav_query_nearest_reachable(s.query, centre, centre, &q, &d), ARCNAV_OK);
  ck_assert_int_eq(arcnav_query_nearest_reachable(s.query, (vec){12.0, 47.0}, centre, &q, &d),
                   ARCNAV_START_BLOCKED);
  ck_assert(isinf(d));
  // A sealed room is ruled out without a search (its triangles are apart from the start's): from
  // just below the room, a point inside it near its floor has one nearest reachable place, 6
  // below it and in sight of the start, and every nearer one is in the room. Under a limit of one
  // expansion the answer is the same.
  ck_assert_int_eq(arcnav_query_set_expansion_limit(s.query, 1), ARCNAV_OK);
  ck_assert_int_eq(
      arcnav_query_nearest_reachable(s.query, (vec){20.0, 40.0}, (vec){20.0, 50.0}, &q, &d),
      ARCNAV_OK);
  ck_assert_double_eq_tol(d, 6.0, 1e-6);
  ck_assert_vec2_near(q, ((vec){20.0, 44.0}), 1e-6);
  // From far away the room's middle too: the passages tell each of the four places reachable
  // without a search, whichever is judged first.
  ck_assert_int_eq(arcnav_query_nearest_reachable(s.query, from, centre, &q, &d), ARCNAV_OK);
  ck_assert_double_eq_tol(d, 11.0, 1e-6);
  release(&s);
  // A room whose door (2.5 wide, wide enough by its portals) a post of radius 0.5 closes for the
  // disk: ruling it out takes a search, which a limit of one expansion stops.
  sup_map door;
  sup_map_init(&door);
  sup_map_add_rect(&door, 10.0, 10.0, 30.0, 12.0);   // floor
  sup_map_add_rect(&door, 10.0, 28.0, 30.0, 30.0);   // roof
  sup_map_add_rect(&door, 10.0, 10.0, 12.0, 30.0);   // west wall
  sup_map_add_rect(&door, 28.0, 10.0, 30.0, 18.75);  // east wall, below the door
  sup_map_add_rect(&door, 28.0, 21.25, 30.0, 30.0);  // above it
  sup_map_add_circle(&door, (vec){29.0, 20.0}, 0.5); // the post
  s = build(&door, 1.0, ARCNAV_ENGINE_AUTO);
  vec inside = {20.0, 20.0};
  ck_assert_int_eq(arcnav_query_nearest_reachable(s.query, from, inside, &q, &d), ARCNAV_OK);
  ck_assert(d > 9.0); // outside the room
  ck_assert_int_eq(arcnav_query_set_expansion_limit(s.query, 1), ARCNAV_OK);
  ck_assert_int_eq(arcnav_query_nearest_reachable(s.query, from, inside, &q, &d),
                   ARCNAV_SEARCH_LIMIT);
  release(&s);
  sup_map_free(&door);
  // The eroded funnel has no exact free test.
  s = build(&m, 1.0, ARCNAV_ENGINE_FUNNEL);
  ck_assert_int_eq(arcnav_query_nearest_reachable(s.query, from, centre, &q, &d),
                   ARCNAV_ERR_INVALID_ARGUMENT);
  release(&s);
  sup_map_free(&m);
}
END_TEST

static Suite *probes_suite(void) {
  Suite *suite = suite_create("probes");
  TCase *tc = tcase_create("probes");
  tcase_set_timeout(tc, 300);
  tcase_add_test(tc, clearance_matches_the_reference);
  tcase_add_test(tc, clearance_of_an_empty_map_finds_nothing);
  tcase_add_test(tc, ends_are_judged_as_the_distances_say);
  tcase_add_test(tc, raycast_matches_a_march);
  tcase_add_test(tc, raycast_grazes_and_stops_exactly);
  tcase_add_test(tc, raycast_point_agent_follows_the_touching_rule);
  tcase_add_test(tc, raycast_point_agent_matches_the_touching_reference);
  tcase_add_test(tc, path_is_free_until_the_map_changes);
  tcase_add_test(tc, empty_path_is_free_when_its_start_is);
  tcase_add_test(tc, nearest_free_is_free_and_nearest);
  tcase_add_test(tc, nearest_free_on_small_cases);
  tcase_add_test(tc, nearest_reachable_is_reached_and_nearest);
  tcase_add_test(tc, nearest_reachable_among_many_rooms);
  tcase_add_test(tc, nearest_reachable_refused_in_the_last_ring);
  tcase_add_test(tc, nearest_reachable_small_cases_and_errors);
  tcase_add_test(tc, bounded_search_answers_as_the_rings_do);
  tcase_add_test(tc, corner_arcs_are_free_as_the_distances_say);
  tcase_add_test(tc, degenerate_places_are_answered);
  tcase_add_test(tc, probes_follow_the_query_radius);
  tcase_add_test(tc, bad_input_is_refused);
  suite_add_tcase(suite, tc);
  return suite;
}

int main(void) {
  return test_run_suite(probes_suite());
}
