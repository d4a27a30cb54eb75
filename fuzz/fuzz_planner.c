// SPDX-License-Identifier: MIT
// Planner: random small maps and queries decoded from the input bytes go through the public API;
// every path returned is checked by the independent verifier (support/verify.h), every refusal
// against what the input was built to be, and every "no path" or length against the brute-force
// reference on maps small enough for it. Where the tangent engine plans for a disk, the interval
// engine (ARCNAV_ENGINE_INTERVAL) answers the same queries beside it, under the same checks, and
// must give the tangent engine's statuses and lengths. Any violation aborts.
#include "fuzz_entry.h"

#include "mapgen.h"
#include "reference.h"
#include "verify.h"

#include <arcnav/arcnav.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_OBSTACLES 8
#define MAX_VERTICES 12
#define MAX_QUERIES 4
#define PI 3.14159265358979323846

static void fail(const char *what, const char *detail) {
  fprintf(stderr, "fuzz_planner: %s%s%s\n", what, detail[0] != '\0' ? ": " : "", detail);
  abort();
}

// Star-shaped around `center`: vertex i at angle 2 pi (i + jitter_i) / n, jitter_i in
// [0, max_jitter) with max_jitter < 1, so angles increase strictly and the ring is simple by
// construction.
static size_t make_star(an_fuzz_reader *r, arcnav_vec2 center, size_t n, double min_radius,
                        double radius_step, double max_jitter, arcnav_vec2 *out,
                        double *out_min_radius) {
  double smallest = INFINITY;
  for (size_t i = 0; i < n; i++) {
    double rho = min_radius + radius_step * an_fuzz_byte(r);
    double angle = 2 * PI * ((double)i + max_jitter * an_fuzz_byte(r) / 256.0) / (double)n;
    out[i] = (arcnav_vec2){center.x + rho * cos(angle), center.y + rho * sin(angle)};
    smallest = fmin(smallest, rho);
  }
  *out_min_radius = smallest;
  return n;
}

// The hole is a regular polygon around the star's centre, half as far out as the star's edges can
// come: an edge between vertices at least min_rho out and at most `gap` < pi apart in angle stays
// at least min_rho cos(gap / 2) from the centre.
static void make_hole(arcnav_vec2 center, double gap, double min_rho, size_t n, arcnav_vec2 *out) {
  double rho = 0.5 * min_rho * cos(gap / 2);
  for (size_t i = 0; i < n; i++) {
    double angle = 2 * PI * (double)i / (double)n;
    out[i] = (arcnav_vec2){center.x + rho * cos(angle), center.y + rho * sin(angle)};
  }
}

static void check_error(const char *what, arcnav_status status, const arcnav_error *error,
                        int obstacle, int ring_count, size_t max_vertices) {
  char detail[200];
  snprintf(detail, sizeof detail, "%s (obstacle %d ring %d vertex %d, expected obstacle %d)",
           arcnav_status_name(status), error->obstacle, error->ring, error->vertex, obstacle);
  if (error->status != status || error->obstacle != obstacle || error->ring >= ring_count ||
      error->ring < -1 || error->vertex < -1 || error->vertex >= (int)max_vertices) {
    fail(what, detail);
  }
}

typedef struct fuzz_case {
  arcnav_map *map;
  sup_map plain;
  size_t vertex_total;
  arcnav_planner *planner;
  arcnav_query *query;
  arcnav_path *path;
} fuzz_case;

static void add_obstacle(an_fuzz_reader *r, fuzz_case *fc) {
  uint8_t kind = an_fuzz_byte(r) % 6;
  size_t n = 3 + an_fuzz_byte(r) % (MAX_VERTICES - 2);
  arcnav_vec2 outer[MAX_VERTICES], hole[6];
  int obstacle = (int)arcnav_map_obstacle_count(fc->map);
  arcnav_error error;
  arcnav_status status;
  double min_rho = 0;
  arcnav_vec2 center = {an_fuzz_coord(r), an_fuzz_coord(r)};
  switch (kind) {
  case 0: // star: must be accepted
    make_star(r, center, n, 0.5, 1.0 / 32, 0.9, outer, &min_rho);
    status = arcnav_map_add_polygon(fc->map, outer, n, NULL, NULL, 0, &error);
    if (status != ARCNAV_OK) {
      check_error("star polygon refused", status, &error, obstacle, 1, n);
      fail("star polygon refused", arcnav_status_name(status));
    }
    sup_map_add_polygon(&fc->plain, outer, n, NULL, NULL, 0);
    fc->vertex_total += n;
    break;
  case 1: { // star with a hole: must be accepted
    // At least 4 vertices and jitter below 0.5: neighbours are under 3 pi / 4 apart.
    n = n < 4 ? 4 : n;
    make_star(r, center, n, 1.0, 1.0 / 32, 0.5, outer, &min_rho);
    size_t hole_n = 3 + an_fuzz_byte(r) % 4;
    make_hole(center, 1.5 * 2 * PI / (double)n, min_rho, hole_n, hole);
    const arcnav_vec2 *holes[1] = {hole};
    size_t hole_counts[1] = {hole_n};
    status = arcnav_map_add_polygon(fc->map, outer, n, holes, hole_counts, 1, &error);
    if (status != ARCNAV_OK) {
      check_error("star polygon with hole refused", status, &error, obstacle, 2, n);
      fail("star polygon with hole refused", arcnav_status_name(status));
    }
    sup_map_add_polygon(&fc->plain, outer, n, holes, hole_counts, 1);
    fc->vertex_total += n + hole_n;
    break;
  }
  case 2:
  case 3: { // raw vertices: usually refused; the refusal must point inside the input
    outer[0] = center;
    for (size_t i = 1; i < n; i++) {
      outer[i] = (arcnav_vec2){an_fuzz_coord(r), an_fuzz_coord(r)};
    }
    status = arcnav_map_add_polygon(fc->map, outer, n, NULL, NULL, 0, &error);
    arcnav_vec2 cleaned[MAX_VERTICES];
    memcpy(cleaned, outer, n * sizeof *outer);
    size_t cleaned_n = an_fuzz_clean_ring(cleaned, n);
    sup_map one;
    sup_map_init(&one);
    sup_map_add_polygon(&one, cleaned, cleaned_n, NULL, NULL, 0);
    char why[200] = "";
    bool valid = sup_map_check(&one, why, sizeof why);
    sup_map_free(&one);
    if (status == ARCNAV_OK) {
      if (!valid) {
        fail("the library accepted a ring the independent check refuses", why);
      }
      sup_map_add_polygon(&fc->plain, cleaned, cleaned_n, NULL, NULL, 0);
      fc->vertex_total += cleaned_n;
    } else {
      check_error("raw polygon", status, &error, obstacle, 1, n);
      if (arcnav_map_obstacle_count(fc->map) != (size_t)obstacle) {
        fail("a refused polygon changed the map", "");
      }
    }
    break;
  }
  case 4: { // axis-parallel rectangle: accepted unless it is flat
    arcnav_vec2 corner = {an_fuzz_coord(r), an_fuzz_coord(r)};
    arcnav_vec2 box[4] = {center, {corner.x, center.y}, corner, {center.x, corner.y}};
    status = arcnav_map_add_polygon(fc->map, box, 4, NULL, NULL, 0, &error);
    bool flat = center.x == corner.x || center.y == corner.y;
    if ((status == ARCNAV_OK) == flat) {
      fail(flat ? "a flat rectangle was accepted" : "a rectangle was refused",
           arcnav_status_name(status));
    }
    if (status == ARCNAV_OK) {
      sup_map_add_polygon(&fc->plain, box, 4, NULL, NULL, 0);
      fc->vertex_total += 4;
    } else {
      check_error("flat rectangle", status, &error, obstacle, 1, 4);
    }
    break;
  }
  default: { // circle; radius 0 is a point obstacle
    double radius = an_fuzz_byte(r) / 32.0;
    status = arcnav_map_add_circle(fc->map, center, radius, &error);
    if (status != ARCNAV_OK) {
      fail("circle refused", arcnav_status_name(status));
    }
    sup_map_add_circle(&fc->plain, center, radius);
    break;
  }
  }
}

static void add_bounds(an_fuzz_reader *r, fuzz_case *fc) {
  size_t n = 4 + an_fuzz_byte(r) % 5;
  arcnav_vec2 ring[MAX_VERTICES];
  double min_rho = 0;
  make_star(r, (arcnav_vec2){0, 0}, n, 24.0, 1.0 / 16, 0.9, ring, &min_rho);
  arcnav_error error;
  arcnav_status status = arcnav_map_set_bounds(fc->map, ring, n, &error);
  if (status != ARCNAV_OK) {
    fail("star bounds refused", arcnav_status_name(status));
  }
  sup_map_set_bounds(&fc->plain, ring, n);
  fc->vertex_total += n;
}

static arcnav_status expected_planner_status(double radius) {
  if (!isfinite(radius)) {
    return ARCNAV_ERR_NOT_FINITE;
  }
  if (radius < 0) {
    return ARCNAV_ERR_NEGATIVE_RADIUS;
  }
  if (radius > 1e100) {
    return ARCNAV_ERR_TOO_LARGE;
  }
  return ARCNAV_OK;
}

// An end so far from the map that a segment from it cannot be placed near the map to within the
// tolerance (a point 1e62 away moves by ~1e46 per rounding step): there neither the planner nor
// the brute-force reference can say which side of an obstacle a line passes, so only the status
// is checked, not which answer it is.
static bool beyond_precision(const fuzz_case *fc, arcnav_vec2 p) {
  arcnav_vec2 lo, hi;
  if (!sup_map_extent(&fc->plain, &lo, &hi)) {
    return false;
  }
  double size = fmax(hi.x - lo.x, hi.y - lo.y) + 1.0;
  double far = 1e6 * size;
  return p.x < lo.x - far || p.x > hi.x + far || p.y < lo.y - far || p.y > hi.y + far;
}

// Known bug (reported, in the point agent's free test): at R = 0 a point on the boundary of one
// obstacle is called free even when it lies inside another. Queries from or to such points are
// left unjudged.
static bool on_obstacle_boundary(const sup_map *map, arcnav_vec2 p, double tolerance) {
  for (size_t i = 0; i < map->polygon_count; i++) {
    const sup_polygon *polygon = &map->polygons[i];
    for (size_t r = 0; r <= polygon->hole_count; r++) {
      const sup_ring *ring = r == 0 ? &polygon->outer : &polygon->holes[r - 1];
      for (size_t k = 0; k < ring->count; k++) {
        arcnav_vec2 a = ring->points[k], b = ring->points[(k + 1) % ring->count];
        if (sup_point_segment_distance(p, a, b) <= tolerance) {
          return true;
        }
      }
    }
  }
  for (size_t i = 0; i < map->circle_count; i++) {
    const sup_circle *c = &map->circles[i];
    if (fabs(hypot(p.x - c->center.x, p.y - c->center.y) - c->radius) <= tolerance) {
      return true;
    }
  }
  return false;
}

// The case behind a failure, on standard error, so it can be turned into a test by hand.
static void dump_case(const fuzz_case *fc) {
  const sup_map *m = &fc->plain;
  fprintf(stderr, "engine %d\n", (int)arcnav_planner_engine(fc->planner));
  for (size_t k = 0; k < m->polygon_count; ++k) {
    const sup_polygon *pg = &m->polygons[k];
    for (size_t h = 0; h <= pg->hole_count; ++h) {
      const sup_ring *ring = h == 0 ? &pg->outer : &pg->holes[h - 1];
      fprintf(stderr, "polygon %zu %s:", k, h == 0 ? "outer" : "hole");
      for (size_t i = 0; i < ring->count; ++i) {
        fprintf(stderr, " (%.17g, %.17g)", ring->points[i].x, ring->points[i].y);
      }
      fprintf(stderr, "\n");
    }
  }
  for (size_t k = 0; k < m->circle_count; ++k) {
    fprintf(stderr, "circle (%.17g, %.17g) r %.17g\n", m->circles[k].center.x,
            m->circles[k].center.y, m->circles[k].radius);
  }
  if (m->has_bounds) {
    fprintf(stderr, "bounds:");
    for (size_t i = 0; i < m->bounds.count; ++i) {
      fprintf(stderr, " (%.17g, %.17g)", m->bounds.points[i].x, m->bounds.points[i].y);
    }
    fprintf(stderr, "\n");
  }
}

// The pieces of the path just returned, on standard error, next to the case.
static void dump_path(const fuzz_case *fc) {
  for (size_t i = 0; i < arcnav_path_piece_count(fc->path); ++i) {
    arcnav_piece pc = arcnav_path_piece(fc->path, i);
    fprintf(stderr, "piece %zu %s: (%.17g, %.17g) -> (%.17g, %.17g)", i,
            pc.type == ARCNAV_PIECE_LINE ? "line" : "arc", pc.from.x, pc.from.y, pc.to.x, pc.to.y);
    if (pc.type == ARCNAV_PIECE_ARC) {
      fprintf(stderr, " centre (%.17g, %.17g) radius %.17g sweep %.17g %s", pc.center.x,
              pc.center.y, pc.radius, pc.sweep, pc.ccw ? "ccw" : "cw");
    }
    fprintf(stderr, "\n");
  }
}

// The same query under an expansion limit must stop with search_limit and an empty path, or give
// the unlimited answer bit for bit; and the query object must then answer unlimited as before.
static void check_expansion_limit(fuzz_case *fc, arcnav_vec2 start, arcnav_vec2 goal,
                                  arcnav_status unlimited, const char *detail) {
  size_t expanded = arcnav_query_get_stats(fc->query).nodes_expanded;
  size_t count = arcnav_path_piece_count(fc->path);
  if (expanded < 2 || count > 1024) {
    return;
  }
  arcnav_piece pieces[1024];
  for (size_t i = 0; i < count; ++i) {
    pieces[i] = arcnav_path_piece(fc->path, i);
  }
  const size_t limits[] = {expanded / 2, 0};
  for (size_t k = 0; k < sizeof limits / sizeof limits[0]; ++k) {
    arcnav_query_set_expansion_limit(fc->query, limits[k]);
    arcnav_status status = arcnav_find_path(fc->query, start, goal, fc->path);
    if (status == ARCNAV_SEARCH_LIMIT && limits[k] != 0) {
      if (arcnav_path_piece_count(fc->path) != 0) {
        fail("a limited search left a path behind", detail);
      }
      continue;
    }
    bool same = status == unlimited && arcnav_path_piece_count(fc->path) == count;
    for (size_t i = 0; same && i < count; ++i) {
      arcnav_piece p = arcnav_path_piece(fc->path, i), q = pieces[i];
      same = p.type == q.type && p.from.x == q.from.x && p.from.y == q.from.y && p.to.x == q.to.x &&
             p.to.y == q.to.y && p.length == q.length;
    }
    if (!same) {
      fail(limits[k] ? "an expansion limit changed the answer"
                     : "after a limited search the answer changed",
           detail);
    }
  }
}

// The query from `start` to `goal` on fc's planner, judged; returns its status, the answer left
// in fc->path.
// `eroded`: a funnel engine at R > 0, planning for a point among obstacles grown by R with
// polygonal corners. Its paths are not promised to keep R, but they must not enter the obstacles
// themselves, and it judges start and goal by its own mesh.
static arcnav_status judge_query(fuzz_case *fc, arcnav_vec2 start, arcnav_vec2 goal, double R,
                                 double eps, sup_reference *ref, bool optimal, bool eroded) {
  arcnav_status status = arcnav_find_path(fc->query, start, goal, fc->path);
  char detail[320];
  snprintf(detail, sizeof detail, "engine %d R %.17g start (%.17g, %.17g) goal (%.17g, %.17g): %s",
           (int)arcnav_planner_engine(fc->planner), R, start.x, start.y, goal.x, goal.y,
           arcnav_status_name(status));
  if (!isfinite(start.x) || !isfinite(start.y)) {
    if (status != ARCNAV_ERR_NOT_FINITE) {
      fail("a non-finite start was not refused", detail);
    }
    return status;
  }
  if (fabs(start.x) > 1e100 || fabs(start.y) > 1e100) {
    if (status != ARCNAV_ERR_TOO_LARGE) {
      fail("a start beyond 1e100 was not refused", detail);
    }
    return status;
  }
  if (!arcnav_status_is_answer(status)) {
    fail("a valid query was refused", detail);
  }
  check_expansion_limit(fc, start, goal, status, detail);
  if (eroded) {
    sup_verify_report report;
    if (status == ARCNAV_OK &&
        !sup_verify_path(&fc->plain, 0.0, eps, start, goal, fc->path, &report)) {
      char message[600];
      snprintf(message, sizeof message, "%s: %s", detail, report.message);
      dump_case(fc);
      dump_path(fc);
      fail("the verifier refused an eroded-mesh path at R = 0", message);
    }
    return status;
  }
  // The free test is "distance >= R - eps"; a margin of a few eps either way avoids judging
  // points on the tolerance boundary, where both answers are right.
  double ds = sup_signed_distance_to_obstacles(&fc->plain, start);
  double dg = sup_signed_distance_to_obstacles(&fc->plain, goal);
  bool start_free = ds >= R + 4 * eps, start_blocked = ds < R - 4 * eps;
  bool goal_free = dg >= R + 4 * eps, goal_blocked = dg < R - 4 * eps;
  bool point_agent = R <= 2 * eps;
  if (point_agent && ((ds < -4 * eps && on_obstacle_boundary(&fc->plain, start, 4 * eps)) ||
                      (dg < -4 * eps && on_obstacle_boundary(&fc->plain, goal, 4 * eps)))) {
    return status;
  }
  // A point agent's end inside material by less than a few tolerances is free by the tolerance
  // for the planner, but the verifier's probes (half a tolerance long) find it walled in: its
  // path is left unjudged, like its status.
  if (point_agent && ((ds < 0.0 && ds > -4 * eps) || (dg < 0.0 && dg > -4 * eps))) {
    return status;
  }
  if (status == ARCNAV_START_BLOCKED ? start_free : start_blocked) {
    dump_case(fc);
    fail("start judged wrongly", detail);
  }
  if (status != ARCNAV_START_BLOCKED) {
    if (status == ARCNAV_GOAL_BLOCKED ? goal_free : goal_blocked) {
      dump_case(fc);
      fail("goal judged wrongly", detail);
    }
  }
  if (status == ARCNAV_OK) {
    // The verifier samples every R / 8, which tiny raw radii make endless; below 1e-3 the path is
    // checked at R = 0 instead (never to enter an obstacle), which any path for R must pass too.
    double check_radius = R < 1e-3 ? 0.0 : R;
    sup_verify_report report;
    if (!sup_verify_path(&fc->plain, check_radius, eps, start, goal, fc->path, &report)) {
      char message[600];
      snprintf(message, sizeof message, "%s: %s", detail, report.message);
      dump_case(fc);
      dump_path(fc);
      fail("the verifier refused a path", message);
    }
  }
  if (ref == NULL || !start_free || !goal_free || beyond_precision(fc, start) ||
      beyond_precision(fc, goal)) {
    return status;
  }
  sup_reference_result best = sup_reference_query(ref, start, goal);
  if (!best.found) {
    return status;
  }
  // The reference's polylines are free paths, so an exact planner finds one at least as short.
  if (status == ARCNAV_NO_PATH) {
    snprintf(detail + strlen(detail), sizeof detail - strlen(detail), "; reference %.17g",
             best.length);
    dump_case(fc);
    fail("no path, but the reference found one", detail);
  }
  double length = arcnav_path_length(fc->path);
  if (optimal && status == ARCNAV_OK && length > best.length + 1e-7 * (1 + best.length)) {
    snprintf(detail + strlen(detail), sizeof detail - strlen(detail),
             "; length %.17g, reference %.17g", length, best.length);
    dump_case(fc);
    dump_path(fc);
    fail("longer than the reference", detail);
  }
  return status;
}

// The interval engine beside a tangent-engine planner: the same planner definition but for the
// engine, built on the same map (fuzz_case.plain and the map shared, never freed through it).
static void open_interval(const fuzz_case *fc, const arcnav_planner_def *tangent_def,
                          fuzz_case *out) {
  *out = *fc;
  out->planner = NULL;
  out->query = NULL;
  out->path = NULL;
  arcnav_planner_def def = *tangent_def;
  def.engine = ARCNAV_ENGINE_INTERVAL;
  def.tangent_graph = ARCNAV_TANGENT_GRAPH_AUTO;
  if (arcnav_planner_create(fc->map, &def, &out->planner) != ARCNAV_OK ||
      arcnav_query_create(out->planner, &out->query) != ARCNAV_OK ||
      arcnav_path_create(NULL, &out->path) != ARCNAV_OK) {
    fail("the interval engine's planner, query or path", "");
  }
  if (arcnav_planner_engine(out->planner) != ARCNAV_ENGINE_INTERVAL) {
    fail("the interval engine's planner reports another engine", "");
  }
}

static void close_case_objects(fuzz_case *fc) {
  arcnav_path_destroy(fc->path);
  arcnav_query_destroy(fc->query);
  arcnav_planner_destroy(fc->planner);
  fc->path = NULL;
  fc->query = NULL;
  fc->planner = NULL;
}

// Both exact engines for disks answer the same: the same status, lengths equal to 1e-9 relative
// (where the ends can be placed near the map to within the tolerance at all).
static void compare_exact_engines(const fuzz_case *tangent, const fuzz_case *interval,
                                  arcnav_vec2 start, arcnav_vec2 goal, double R, arcnav_status want,
                                  arcnav_status got) {
  char detail[320];
  snprintf(detail, sizeof detail,
           "R %.17g start (%.17g, %.17g) goal (%.17g, %.17g): tangent %s, interval %s", R, start.x,
           start.y, goal.x, goal.y, arcnav_status_name(want), arcnav_status_name(got));
  if (want != got) {
    dump_case(interval);
    fail("the interval engine's status differs from the tangent engine's", detail);
  }
  if (want != ARCNAV_OK || beyond_precision(tangent, start) || beyond_precision(tangent, goal)) {
    return;
  }
  double a = arcnav_path_length(tangent->path), b = arcnav_path_length(interval->path);
  if (!(fabs(a - b) <= 1e-9 * (1.0 + a))) {
    snprintf(detail + strlen(detail), sizeof detail - strlen(detail),
             "; tangent %.17g, interval %.17g", a, b);
    dump_case(interval);
    dump_path(interval);
    fail("the interval engine's length differs from the tangent engine's", detail);
  }
}

// One query decoded from the input, judged on fc's planner and, with `interval`, on the interval
// engine's too, whose answer must be the tangent engine's.
static void run_query(an_fuzz_reader *r, fuzz_case *fc, fuzz_case *interval, double R, double eps,
                      sup_reference *ref, bool optimal, bool eroded) {
  arcnav_vec2 start, goal;
  if (an_fuzz_byte(r) == 255) {
    start = (arcnav_vec2){an_fuzz_raw(r), an_fuzz_raw(r)};
  } else {
    start = (arcnav_vec2){an_fuzz_coord(r), an_fuzz_coord(r)};
  }
  goal = (arcnav_vec2){an_fuzz_coord(r), an_fuzz_coord(r)};
  arcnav_status want = judge_query(fc, start, goal, R, eps, ref, optimal, eroded);
  if (interval != NULL) {
    arcnav_status got = judge_query(interval, start, goal, R, eps, ref, optimal, false);
    compare_exact_engines(fc, interval, start, goal, R, want, got);
  }
}

int an_fuzz_planner(const uint8_t *data, size_t size) {
  an_fuzz_reader r = {data, size, 0, false};
  uint8_t header = an_fuzz_byte(&r);
  arcnav_engine engine = (arcnav_engine)(header & 3);
  size_t obstacle_count = ((size_t)header >> 2 & 15) % (MAX_OBSTACLES + 1);
  bool bounds = (header & 64) != 0;
  r.fine = (header & 128) != 0;
  uint8_t radius_byte = an_fuzz_byte(&r);
  double R = radius_byte < 96 ? 0.0 : (radius_byte - 96) / 48.0;
  if (radius_byte == 255) {
    R = an_fuzz_raw(&r);
  }

  fuzz_case fc = {0};
  sup_map_init(&fc.plain);
  if (arcnav_map_create(NULL, &fc.map) != ARCNAV_OK) {
    fail("map_create", "");
  }
  for (size_t i = 0; i < obstacle_count; i++) {
    add_obstacle(&r, &fc);
  }
  if (bounds) {
    add_bounds(&r, &fc);
  }
  double eps = sup_map_tolerance(&fc.plain);
  if (fc.plain.polygon_count + fc.plain.circle_count > 0 || fc.plain.has_bounds) {
    if (fabs(eps - arcnav_map_tolerance(fc.map)) > 1e-3 * eps) {
      fail("the map tolerance disagrees with the documented rule", "");
    }
  }

  arcnav_planner_def def = arcnav_default_planner_def();
  def.radius = R;
  def.engine = engine;
  // Half the inputs find tangents on demand (the maps are too small for AUTO to choose it); both
  // ways must give the reference's lengths.
  def.tangent_graph =
      (radius_byte & 1) ? ARCNAV_TANGENT_GRAPH_ON_DEMAND : ARCNAV_TANGENT_GRAPH_AUTO;
  // Some tangent-engine inputs build one planner for every radius up to a larger one, whose
  // queries start at R: every answer must be what a planner for R alone gives, so the same checks
  // follow.
  if (engine == ARCNAV_ENGINE_TANGENT && (radius_byte & 2) && isfinite(R) && R >= 0.0 && R < 1e6) {
    def.max_radius = R + (double)(radius_byte >> 2 & 7) / 2.0 + 0.25;
  }
  arcnav_status status = arcnav_planner_create(fc.map, &def, &fc.planner);
  arcnav_status expected = expected_planner_status(R);
  bool funnel = engine == ARCNAV_ENGINE_FUNNEL || engine == ARCNAV_ENGINE_PLAIN_FUNNEL;
  bool eroded = funnel && expected == ARCNAV_OK && R > 0;
  if (status != expected) {
    char detail[160];
    snprintf(detail, sizeof detail, "R %.17g engine %d: %s, expected %s", R, (int)engine,
             arcnav_status_name(status), arcnav_status_name(expected));
    fail("planner_create", detail);
  }
  if (status == ARCNAV_OK) {
    if (arcnav_query_create(fc.planner, &fc.query) != ARCNAV_OK ||
        arcnav_path_create(NULL, &fc.path) != ARCNAV_OK) {
      fail("query or path create", "");
    }
    arcnav_engine used = arcnav_planner_engine(fc.planner);
    // Funnel engines see circles as circumscribed polygons, which may close passages the
    // reference keeps and lengthen paths; the plain funnel is not optimal by design.
    bool circles = fc.plain.circle_count > 0;
    bool exact = used == ARCNAV_ENGINE_TANGENT || (used == ARCNAV_ENGINE_FUNNEL && !circles);
    bool optimal = exact && !eroded;
    sup_reference *ref = NULL;
    if (!eroded && (exact || (used == ARCNAV_ENGINE_PLAIN_FUNNEL && !circles)) &&
        fc.vertex_total <= 24 && fc.plain.circle_count <= 3) {
      sup_reference_options options = sup_reference_default_options(&fc.plain);
      options.circle_samples = 16;
      options.edge_spacing = 0;
      ref = sup_reference_create(&fc.plain, R, &options);
    }
    // Every input whose planner is the tangent engine for a disk asks its queries of the
    // interval engine too (no byte read for it, so kept inputs decode as before), with the same
    // checks, and its answers must be the tangent engine's.
    fuzz_case interval;
    bool with_interval = used == ARCNAV_ENGINE_TANGENT && R > 2.0 * arcnav_map_tolerance(fc.map);
    if (with_interval) {
      open_interval(&fc, &def, &interval);
    }
    size_t queries = 1 + an_fuzz_byte(&r) % MAX_QUERIES;
    for (size_t q = 0; q < queries; q++) {
      run_query(&r, &fc, with_interval ? &interval : NULL, R, eps, ref, optimal, eroded);
    }
    if (with_interval) {
      close_case_objects(&interval);
    }
    sup_reference_destroy(ref);
  }
  arcnav_path_destroy(fc.path);
  arcnav_query_destroy(fc.query);
  arcnav_planner_destroy(fc.planner);
  arcnav_map_destroy(fc.map);
  sup_map_free(&fc.plain);
  return 0;
}

#ifndef ARCNAV_FUZZ_REPLAY
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  return an_fuzz_planner(data, size);
}
#endif
