// SPDX-License-Identifier: MIT
#include "verify.h"

#include "touching.h"

#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SUP_TWO_PI 6.28318530717958647693

typedef arcnav_vec2 vec;

static vec vsub(vec a, vec b) {
  return (vec){a.x - b.x, a.y - b.y};
}
static double vdot(vec a, vec b) {
  return a.x * b.x + a.y * b.y;
}
static double vcross(vec a, vec b) {
  return a.x * b.y - a.y * b.x;
}
// The square root of the sum of squares, not hypot(): within an ulp or two of it, which the
// tolerances dwarf, and several times cheaper, where every check measures against every edge.
// Coordinates stay far inside the range where the squares neither overflow nor lose digits.
static double vlen(vec a) {
  return sqrt(a.x * a.x + a.y * a.y);
}
static double vdist(vec a, vec b) {
  return vlen(vsub(a, b));
}
// Is p nearer to b than to a? Squared distances: this runs for every sample of every path.
static bool nearer_to(vec p, vec a, vec b) {
  vec pa = vsub(p, a), pb = vsub(p, b);
  return vdot(pb, pb) < vdot(pa, pa);
}
// Measured from the end of ab nearer to c (the same value in exact arithmetic): with a segment far
// longer than c's distance to it, measuring from the far end loses every digit.
static double orient(vec a, vec b, vec c) {
  vec base = nearer_to(c, a, b) ? b : a;
  return vcross(vsub(b, a), vsub(c, base));
}

// The point of segment ab nearest to p.
static vec closest_on_segment(vec p, vec a, vec b) {
  // Project from the nearer end, for the same reason as orient().
  if (nearer_to(p, a, b)) {
    vec swap = a;
    a = b;
    b = swap;
  }
  vec ab = vsub(b, a);
  double len2 = vdot(ab, ab);
  if (len2 <= 0.0) {
    return a;
  }
  double t = vdot(vsub(p, a), ab) / len2;
  if (t <= 0.0) {
    return a;
  }
  if (t >= 1.0) {
    return b;
  }
  return (vec){a.x + ab.x * t, a.y + ab.y * t};
}

double sup_point_segment_distance(arcnav_vec2 p, arcnav_vec2 a, arcnav_vec2 b) {
  return vdist(p, closest_on_segment(p, a, b));
}

static bool on_segment(vec a, vec b, vec p) {
  return fmin(a.x, b.x) <= p.x && p.x <= fmax(a.x, b.x) && fmin(a.y, b.y) <= p.y &&
         p.y <= fmax(a.y, b.y);
}

bool sup_segments_intersect(arcnav_vec2 a, arcnav_vec2 b, arcnav_vec2 c, arcnav_vec2 d) {
  double d1 = orient(c, d, a);
  double d2 = orient(c, d, b);
  double d3 = orient(a, b, c);
  double d4 = orient(a, b, d);
  if (((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0))) {
    return true;
  }
  return (d1 == 0 && on_segment(c, d, a)) || (d2 == 0 && on_segment(c, d, b)) ||
         (d3 == 0 && on_segment(a, b, c)) || (d4 == 0 && on_segment(a, b, d));
}

double sup_segment_segment_distance(arcnav_vec2 a, arcnav_vec2 b, arcnav_vec2 c, arcnav_vec2 d) {
  if (sup_segments_intersect(a, b, c, d)) {
    return 0.0;
  }
  double m1 = fmin(sup_point_segment_distance(a, c, d), sup_point_segment_distance(b, c, d));
  double m2 = fmin(sup_point_segment_distance(c, a, b), sup_point_segment_distance(d, a, b));
  return fmin(m1, m2);
}

bool sup_point_in_ring(const sup_ring *ring, arcnav_vec2 p) {
  bool inside = false;
  for (size_t i = 0, j = ring->count - 1; i < ring->count; j = i++) {
    vec a = ring->points[i];
    vec b = ring->points[j];
    if ((a.y > p.y) != (b.y > p.y)) {
      double x = a.x + (p.y - a.y) * (b.x - a.x) / (b.y - a.y);
      if (p.x < x) {
        inside = !inside;
      }
    }
  }
  return inside;
}

double sup_ring_signed_area(const sup_ring *ring) {
  // Measured from the first vertex: with absolute coordinates far from the origin the products
  // cancel (a 1 x 6 ring at 1.5e11 summed to 0).
  double s = 0.0;
  vec o = ring->count > 0 ? ring->points[0] : (vec){0.0, 0.0};
  for (size_t i = 0; i < ring->count; ++i) {
    vec a = ring->points[i];
    vec b = ring->points[(i + 1) % ring->count];
    s += vcross((vec){a.x - o.x, a.y - o.y}, (vec){b.x - o.x, b.y - o.y});
  }
  return 0.5 * s;
}

static double ring_edge_distance(const sup_ring *ring, vec p) {
  double best = INFINITY;
  for (size_t i = 0; i < ring->count; ++i) {
    double d = sup_point_segment_distance(p, ring->points[i], ring->points[(i + 1) % ring->count]);
    if (d < best) {
      best = d;
    }
  }
  return best;
}

static bool polygon_contains(const sup_polygon *poly, vec p) {
  if (!sup_point_in_ring(&poly->outer, p)) {
    return false;
  }
  for (size_t h = 0; h < poly->hole_count; ++h) {
    if (sup_point_in_ring(&poly->holes[h], p)) {
      return false;
    }
  }
  return true;
}

static double polygon_edge_distance(const sup_polygon *poly, vec p) {
  double best = ring_edge_distance(&poly->outer, p);
  for (size_t h = 0; h < poly->hole_count; ++h) {
    best = fmin(best, ring_edge_distance(&poly->holes[h], p));
  }
  return best;
}

// The polygons screened for the points of one box (sup_obstacle_screen_create()): a polygon whose
// box is farther from that box than the nearest boundary a point has met can neither hold the
// point nor come nearer to it, so the point's signed distance is the same without it. Nearest
// boxes first, so that the rest fall away early.
typedef struct screened_polygon {
  double lower; ///< the distance between its box and the box aimed at
  size_t index;
} screened_polygon;

struct sup_obstacle_screen {
  const sup_map *map;
  vec *lo, *hi;            ///< per polygon, its outer ring's box
  screened_polygon *order; ///< the polygons for the box aimed at, nearest first
  vec aim_lo, aim_hi;      ///< that box (empty before the first aim)
};

sup_obstacle_screen *sup_obstacle_screen_create(const sup_map *map) {
  size_t n = map->polygon_count, room = n ? n : 1;
  sup_obstacle_screen *screen = malloc(sizeof *screen);
  if (!screen) {
    return NULL;
  }
  *screen = (sup_obstacle_screen){map,
                                  malloc(room * sizeof(vec)),
                                  malloc(room * sizeof(vec)),
                                  malloc(room * sizeof(screened_polygon)),
                                  {INFINITY, INFINITY},
                                  {-INFINITY, -INFINITY}};
  if (!screen->lo || !screen->hi || !screen->order) {
    sup_obstacle_screen_destroy(screen);
    return NULL;
  }
  for (size_t k = 0; k < n; ++k) {
    const sup_ring *ring = &map->polygons[k].outer;
    vec lo = {INFINITY, INFINITY}, hi = {-INFINITY, -INFINITY};
    for (size_t i = 0; i < ring->count; ++i) {
      lo = (vec){fmin(lo.x, ring->points[i].x), fmin(lo.y, ring->points[i].y)};
      hi = (vec){fmax(hi.x, ring->points[i].x), fmax(hi.y, ring->points[i].y)};
    }
    screen->lo[k] = lo;
    screen->hi[k] = hi;
  }
  return screen;
}

void sup_obstacle_screen_destroy(sup_obstacle_screen *screen) {
  if (!screen) {
    return;
  }
  free(screen->lo);
  free(screen->hi);
  free(screen->order);
  free(screen);
}

static int by_lower(const void *a, const void *b) {
  const screened_polygon *pa = a, *pb = b;
  if (pa->lower != pb->lower) {
    return pa->lower < pb->lower ? -1 : 1;
  }
  return pa->index < pb->index ? -1 : pa->index > pb->index;
}

void sup_obstacle_screen_aim(sup_obstacle_screen *screen, arcnav_vec2 lo, arcnav_vec2 hi) {
  screen->aim_lo = lo;
  screen->aim_hi = hi;
  for (size_t k = 0; k < screen->map->polygon_count; ++k) {
    double dx = fmax(0.0, fmax(screen->lo[k].x - hi.x, lo.x - screen->hi[k].x));
    double dy = fmax(0.0, fmax(screen->lo[k].y - hi.y, lo.y - screen->hi[k].y));
    screen->order[k] = (screened_polygon){vlen((vec){dx, dy}), k};
  }
  qsort(screen->order, screen->map->polygon_count, sizeof *screen->order, by_lower);
}

// The signed distance from p to the obstacles, leaving out the polygons `screen` (NULL: none)
// shows cannot matter; a point outside the box it was aimed at is measured against every one.
static double signed_distance(const sup_map *map, const sup_obstacle_screen *screen, vec p) {
  if (screen && !(p.x >= screen->aim_lo.x && p.x <= screen->aim_hi.x && p.y >= screen->aim_lo.y &&
                  p.y <= screen->aim_hi.y)) {
    screen = NULL;
  }
  double outside = INFINITY; // nearest blocked boundary while p is free
  double depth = -1.0;       // deepest containment found, < 0 while none
  for (size_t i = 0; i < map->circle_count; ++i) {
    double d = vdist(p, map->circles[i].center) - map->circles[i].radius;
    if (d < 0.0) {
      depth = fmax(depth, -d);
    } else {
      outside = fmin(outside, d);
    }
  }
  if (map->has_bounds) {
    double d = ring_edge_distance(&map->bounds, p);
    if (sup_point_in_ring(&map->bounds, p)) {
      outside = fmin(outside, d);
    } else {
      depth = fmax(depth, d);
    }
  }
  for (size_t j = 0; j < map->polygon_count; ++j) {
    // Strictly farther: a box at distance 0 may hold p, whatever was met before.
    if (screen && screen->order[j].lower > outside) {
      break;
    }
    const sup_polygon *poly = &map->polygons[screen ? screen->order[j].index : j];
    double d = polygon_edge_distance(poly, p);
    if (polygon_contains(poly, p)) {
      depth = fmax(depth, d);
    } else {
      outside = fmin(outside, d);
    }
  }
  return depth >= 0.0 ? -depth : outside;
}

double sup_signed_distance_to_obstacles(const sup_map *map, arcnav_vec2 p) {
  return signed_distance(map, NULL, p);
}

double sup_screened_signed_distance(const sup_obstacle_screen *screen, arcnav_vec2 p) {
  return signed_distance(screen->map, screen, p);
}

double sup_distance_to_obstacles(const sup_map *map, arcnav_vec2 p) {
  return fmax(0.0, sup_signed_distance_to_obstacles(map, p));
}

// --- verification --------------------------------------------------------------------------------

static bool fail(sup_verify_report *r, const char *fmt, ...) {
  if (r->ok) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->message, sizeof r->message, fmt, ap);
    va_end(ap);
  }
  r->ok = false;
  return false;
}

static void note_distance(sup_verify_report *r, double d, vec p, size_t piece) {
  if (d < r->min_distance) {
    r->min_distance = d;
    r->worst_point = p;
    r->worst_piece = piece;
  }
}

/// Unit tangent of a piece at its start (at_end false) or end, following the path's direction.
static vec piece_tangent(const arcnav_piece *pc, bool at_end) {
  vec t;
  if (pc->type == ARCNAV_PIECE_LINE) {
    t = vsub(pc->to, pc->from);
  } else {
    vec r = vsub(at_end ? pc->to : pc->from, pc->center);
    t = pc->ccw ? (vec){-r.y, r.x} : (vec){r.y, -r.x};
  }
  double len = vlen(t);
  return len > 0.0 ? (vec){t.x / len, t.y / len} : (vec){0.0, 0.0};
}

/// How far the sweep of an arc can be off its exact value when its ends are rounded: the tangent
/// points lie at the precision of the coordinates, a few units in the last place of the largest
/// one, and an angle at the centre moves by that over the radius.
static double arc_sweep_rounding(const arcnav_piece *pc) {
  double scale = fmax(fmax(fabs(pc->center.x), fabs(pc->center.y)), pc->radius);
  return 2.0 * 8.0 * DBL_EPSILON * scale / pc->radius;
}

static double wrap_two_pi(double a) {
  a = fmod(a, SUP_TWO_PI);
  return a < 0.0 ? a + SUP_TWO_PI : a;
}

/// Checks (3) for one piece; returns the geometric length, or NAN after reporting a failure.
static double check_piece_geometry(const arcnav_piece *pc, size_t i, double eps,
                                   sup_verify_report *r) {
  if (!isfinite(pc->from.x) || !isfinite(pc->from.y) || !isfinite(pc->to.x) ||
      !isfinite(pc->to.y) || !isfinite(pc->length)) {
    fail(r, "piece %zu: non-finite coordinate or length", i);
    return NAN;
  }
  if (pc->type == ARCNAV_PIECE_LINE) {
    double geo = vdist(pc->from, pc->to);
    // Two sound ways of computing one distance differ by a few units in the last place, which
    // exceed eps once a line is far longer than the map (an end 1e35 away).
    if (fabs(geo - pc->length) > eps + 8.0 * DBL_EPSILON * geo) {
      fail(r, "piece %zu (line): reported length %.17g, endpoints give %.17g", i, pc->length, geo);
      return NAN;
    }
    return geo;
  }
  if (pc->type != ARCNAV_PIECE_ARC) {
    fail(r, "piece %zu: unknown type %d", i, (int)pc->type);
    return NAN;
  }
  if (!isfinite(pc->center.x) || !isfinite(pc->center.y) || !isfinite(pc->radius) ||
      !isfinite(pc->sweep) || !(pc->radius > 0.0)) {
    fail(r, "piece %zu (arc): bad centre, radius %.17g or sweep %.17g", i, pc->radius, pc->sweep);
    return NAN;
  }
  double rf = vdist(pc->from, pc->center);
  double rt = vdist(pc->to, pc->center);
  if (fabs(rf - pc->radius) > eps || fabs(rt - pc->radius) > eps) {
    fail(r, "piece %zu (arc): endpoints at %.17g and %.17g from the centre, radius %.17g", i, rf,
         rt, pc->radius);
    return NAN;
  }
  if (!(pc->sweep > 0.0) || pc->sweep > SUP_TWO_PI * (1.0 + 1e-12)) {
    fail(r, "piece %zu (arc): sweep %.17g outside (0, 2 pi]", i, pc->sweep);
    return NAN;
  }
  vec u = vsub(pc->from, pc->center);
  vec v = vsub(pc->to, pc->center);
  double turn = atan2(vcross(u, v), vdot(u, v)); // ccw angle from u to v in (-pi, pi]
  double expected = wrap_two_pi(pc->ccw ? turn : -turn);
  double diff = remainder(expected - pc->sweep, SUP_TWO_PI);
  double angle_tol = 1e-9 + 4.0 * eps / pc->radius;
  if (fabs(diff) > angle_tol) {
    fail(r, "piece %zu (arc): sweep %.17g but the endpoints turning %s give %.17g", i, pc->sweep,
         pc->ccw ? "ccw" : "cw", expected);
    return NAN;
  }
  double geo = pc->radius * pc->sweep;
  if (fabs(geo - pc->length) > eps) {
    fail(r, "piece %zu (arc): reported length %.17g, radius * sweep gives %.17g", i, pc->length,
         geo);
    return NAN;
  }
  return geo;
}

/// Exact checks of a line piece against every obstacle edge and circle (see verify.h).
static void check_line_exact(const sup_map *map, double R, double eps, const arcnav_piece *pc,
                             size_t index, sup_verify_report *r) {
  vec p = pc->from;
  vec q = pc->to;
  double pq_len = vdist(p, q);
  for (size_t k = 0; k < map->circle_count; ++k) {
    const sup_circle *c = &map->circles[k];
    double d = sup_point_segment_distance(c->center, p, q) - c->radius;
    if (d < r->min_distance) {
      note_distance(r, d, p, index);
    }
    if (d < R - eps) {
      fail(r, "piece %zu (line): passes %.17g from circle %zu, needs %.17g", index, d, k, R);
    }
  }
  const double margin = 4.0 * eps;
  // Walk every ring: polygons' outer rings and holes, then the bounds.
  size_t ring_total = map->has_bounds ? 1 : 0;
  for (size_t k = 0; k < map->polygon_count; ++k) {
    ring_total += 1 + map->polygons[k].hole_count;
  }
  size_t poly = 0, hole = 0;
  for (size_t n = 0; n < ring_total; ++n) {
    const sup_ring *ring;
    if (poly < map->polygon_count) {
      const sup_polygon *pg = &map->polygons[poly];
      ring = hole == 0 ? &pg->outer : &pg->holes[hole - 1];
      if (++hole > pg->hole_count) {
        hole = 0;
        ++poly;
      }
    } else {
      ring = &map->bounds;
    }
    for (size_t e = 0; e < ring->count; ++e) {
      vec a = ring->points[e];
      vec b = ring->points[(e + 1) % ring->count];
      if (R > eps) {
        double d = sup_segment_segment_distance(p, q, a, b);
        if (d < r->min_distance) {
          note_distance(r, d, p, index);
        }
        if (d < R - eps) {
          fail(r, "piece %zu (line): passes %.17g from an obstacle edge, needs %.17g", index, d, R);
        }
        continue;
      }
      double ab_len = vdist(a, b);
      if (ab_len <= 0.0 || pq_len <= 0.0) {
        continue;
      }
      double sp = orient(a, b, p) / ab_len;
      double sq = orient(a, b, q) / ab_len;
      double sa = orient(p, q, a) / pq_len;
      double sb = orient(p, q, b) / pq_len;
      if (sp * sq < 0.0 && sa * sb < 0.0 && fabs(sp) > margin && fabs(sq) > margin &&
          fabs(sa) > margin && fabs(sb) > margin) {
        fail(r, "piece %zu (line): crosses an obstacle edge (%.17g, %.17g)-(%.17g, %.17g)", index,
             a.x, a.y, b.x, b.y);
      }
    }
  }
}

static bool sample_piece(const sup_map *map, sup_obstacle_screen *screen, double R, double eps,
                         double spacing, const arcnav_piece *pc, size_t index,
                         sup_verify_report *r) {
  double len = pc->type == ARCNAV_PIECE_LINE ? vdist(pc->from, pc->to) : pc->radius * pc->sweep;
  double want = ceil(len / spacing) + 1.0;
  // A line piece is also checked exactly against every edge and circle (check_line_exact); its
  // samples only have to catch a piece lying wholly inside material, which any sample does. So a
  // very long line is sampled more thinly instead of refused.
  if (pc->type == ARCNAV_PIECE_LINE && !(want < 1e5) && isfinite(len)) {
    want = 1e5;
  }
  if (!(want < 4e6)) {
    return fail(r, "piece %zu: too long to sample (%.17g)", index, len);
  }
  size_t n = want < 16.0 ? 16 : (size_t)want;
  if (screen) {
    // An arc lies within its circle's box.
    bool line = pc->type == ARCNAV_PIECE_LINE;
    vec lo = line ? (vec){fmin(pc->from.x, pc->to.x), fmin(pc->from.y, pc->to.y)}
                  : (vec){pc->center.x - pc->radius, pc->center.y - pc->radius};
    vec hi = line ? (vec){fmax(pc->from.x, pc->to.x), fmax(pc->from.y, pc->to.y)}
                  : (vec){pc->center.x + pc->radius, pc->center.y + pc->radius};
    sup_obstacle_screen_aim(screen, lo, hi);
  }
  double a0 = atan2(pc->from.y - pc->center.y, pc->from.x - pc->center.x);
  double dir = pc->ccw ? 1.0 : -1.0;
  bool ok = true;
  for (size_t k = 0; k < n; ++k) {
    double t = (double)k / (double)(n - 1);
    vec s;
    if (k == 0) {
      s = pc->from;
    } else if (k == n - 1) {
      s = pc->to;
    } else if (pc->type == ARCNAV_PIECE_LINE) {
      s = (vec){pc->from.x + (pc->to.x - pc->from.x) * t, pc->from.y + (pc->to.y - pc->from.y) * t};
    } else {
      double ang = a0 + dir * pc->sweep * t;
      s = (vec){pc->center.x + pc->radius * cos(ang), pc->center.y + pc->radius * sin(ang)};
    }
    double d = signed_distance(map, screen, s);
    r->samples++;
    note_distance(r, d, s, index);
    if (d < R - eps && ok) {
      ok = fail(r, "piece %zu: sample (%.17g, %.17g) is %.17g from the obstacles, needs %.17g",
                index, s.x, s.y, d, R);
    }
  }
  return ok;
}

// Is the angle of `dir` (from an arc's centre) inside the arc, farther than `margin` radians from
// both its ends?
static bool inside_arc(const arcnav_piece *pc, vec dir, double margin) {
  vec from = vsub(pc->from, pc->center);
  double turn = atan2(vcross(from, dir), vdot(from, dir));
  double offset = wrap_two_pi(pc->ccw ? turn : -turn);
  return offset > margin && offset < pc->sweep - margin;
}

// Does an edge or vertex of `ring` touch the rim of the circle (c, r) (within eps) at a point
// inside the arc: the nearest point of an edge to the centre lying on the rim?
static bool ring_touches_arc(const sup_ring *ring, vec c, double r, double eps,
                             const arcnav_piece *pc, double margin) {
  for (size_t j = 0; j < ring->count; ++j) {
    vec q = closest_on_segment(c, ring->points[j], ring->points[(j + 1) % ring->count]);
    double d = vdist(q, c);
    if (fabs(d - r) <= eps && d > 0.0 && inside_arc(pc, vsub(q, c), margin)) {
      return true;
    }
  }
  return false;
}

// For a point agent's arc, which rides the rim of a circle obstacle: does other material touch
// that rim (within eps) at a point inside the arc? An edge or a vertex of a ring, or another
// circle (not a point) tangent to it from outside. Then the path, on the rim, passes between the
// circle and that material where they meet (or runs into the material, which the samples see as
// well). Touches near the arc's ends are the path's own touching points, judged as a line's are.
static bool arc_passes_a_touch(const sup_map *map, double eps, const arcnav_piece *pc) {
  double margin = 1e-6 + 4.0 * eps / pc->radius;
  if (!(pc->sweep > 2.0 * margin)) {
    return false;
  }
  vec c = pc->center;
  double r = pc->radius;
  for (size_t i = 0; i < map->polygon_count; ++i) {
    const sup_polygon *poly = &map->polygons[i];
    if (ring_touches_arc(&poly->outer, c, r, eps, pc, margin)) {
      return true;
    }
    for (size_t h = 0; h < poly->hole_count; ++h) {
      if (ring_touches_arc(&poly->holes[h], c, r, eps, pc, margin)) {
        return true;
      }
    }
  }
  if (map->has_bounds && ring_touches_arc(&map->bounds, c, r, eps, pc, margin)) {
    return true;
  }
  // A point obstacle has no material of its own: a path over it touches it.
  for (size_t i = 0; i < map->circle_count; ++i) {
    const sup_circle *o = &map->circles[i];
    double d = vdist(o->center, c);
    if (o->radius > eps && fabs(d - (o->radius + r)) <= eps && d > eps &&
        inside_arc(pc, vsub(o->center, c), margin)) {
      return true;
    }
  }
  return false;
}

/// (5) R = 0: obstacles that touch are one wall (touching.h). No line piece passes between
/// touching material, nor does the path where two line pieces meet, nor an arc where material
/// touches its circle, and neither end is walled in.
static void check_touching_rule(const sup_map *map, double eps, vec start, vec goal,
                                const arcnav_piece *pieces, size_t count, sup_verify_report *r) {
  double probe = sup_touch_probe_radius(map);
  if (sup_walled_in(map, start, probe) || sup_walled_in(map, goal, probe)) {
    fail(r, "the path starts or ends walled in where obstacles touch");
    return;
  }
  for (size_t i = 0; i < count; ++i) {
    const arcnav_piece *pc = &pieces[i];
    if (pc->type != ARCNAV_PIECE_LINE) {
      if (pc->radius > 2.0 * eps && arc_passes_a_touch(map, eps, pc)) {
        fail(r, "piece %zu (arc): passes between its circle and material touching it", i);
        return;
      }
      continue;
    }
    if (sup_segment_passes_between(map, pc->from, pc->to, eps, probe)) {
      fail(r, "piece %zu (line): passes between obstacles where they touch", i);
      return;
    }
    const arcnav_piece *next = i + 1 < count ? &pieces[i + 1] : NULL;
    if (next && next->type == ARCNAV_PIECE_LINE && pc->length > eps && next->length > eps &&
        sup_distance_to_obstacles(map, pc->to) <= eps) {
      vec back = vsub(pc->from, pc->to), ahead = vsub(next->to, next->from);
      if (sup_passes_between(map, pc->to, back, ahead, probe)) {
        fail(r, "pieces %zu and %zu: the path turns between obstacles where they touch", i, i + 1);
        return;
      }
    }
  }
}

bool sup_verify_pieces(const sup_map *map, double R, double eps, arcnav_vec2 start,
                       arcnav_vec2 goal, const arcnav_piece *pieces, size_t count,
                       double total_length, sup_verify_report *report) {
  sup_verify_report *r = report;
  memset(r, 0, sizeof *r);
  r->ok = true;
  r->min_distance = INFINITY;
  r->worst_clearance = INFINITY;

  if (count == 0) {
    if (vdist(start, goal) > eps) {
      fail(r, "empty path but start and goal are %.17g apart", vdist(start, goal));
    }
    if (total_length >= 0.0 && fabs(total_length) > eps) {
      fail(r, "empty path with length %.17g", total_length);
    }
    double d = sup_signed_distance_to_obstacles(map, start);
    note_distance(r, d, start, 0);
    r->samples = 1;
    if (d < R - eps) {
      fail(r, "start (%.17g, %.17g) is %.17g from the obstacles", start.x, start.y, d);
    }
    r->worst_clearance = r->min_distance - R;
    return r->ok;
  }

  // (1) ends
  if (vdist(pieces[0].from, start) > eps) {
    fail(r, "path starts at (%.17g, %.17g), not at the start (%.17g, %.17g)", pieces[0].from.x,
         pieces[0].from.y, start.x, start.y);
  }
  if (vdist(pieces[count - 1].to, goal) > eps) {
    fail(r, "path ends at (%.17g, %.17g), not at the goal (%.17g, %.17g)", pieces[count - 1].to.x,
         pieces[count - 1].to.y, goal.x, goal.y);
  }

  // (3) lengths, before (2) because tangents of malformed arcs mean nothing
  double sum = 0.0;
  double reported_sum = 0.0;
  bool geometry_ok = true;
  for (size_t i = 0; i < count; ++i) {
    double g = check_piece_geometry(&pieces[i], i, eps, r);
    if (isnan(g)) {
      geometry_ok = false;
      continue;
    }
    sum += g;
    reported_sum += pieces[i].length;
  }
  r->length_sum = sum;
  if (geometry_ok && total_length >= 0.0 && fabs(total_length - reported_sum) > eps) {
    fail(r, "path length %.17g but the pieces add up to %.17g", total_length, reported_sum);
  }

  // (2) joins and tangents
  for (size_t i = 0; i + 1 < count; ++i) {
    double gap = vdist(pieces[i].to, pieces[i + 1].from);
    if (gap > eps) {
      fail(r, "pieces %zu and %zu do not meet: gap %.17g", i, i + 1, gap);
    }
  }
  if (R > 0.0 && geometry_ok) {
    // The endpoints of a piece not longer than eps are within rounding of each other, so its own
    // direction means nothing and it is skipped. The heading does not stand still across it,
    // though: an arc of length L at radius rho turns it by exactly its sweep L / rho (signed by
    // its direction), which at rho near eps can be a large angle. So the turn between the pieces
    // either side of skipped ones must equal the skipped arcs' total signed sweep (a skipped line
    // turns nothing); with nothing skipped that is the usual "tangents agree".
    size_t prev = count;  // last piece longer than eps
    double skipped = 0.0; // signed sweep of the arcs skipped since then, ccw positive
    double slack = 0.0;   // their sweeps' rounding
    for (size_t i = 0; i < count; ++i) {
      const arcnav_piece *pc = &pieces[i];
      if (!(pc->length > eps)) {
        if (pc->type == ARCNAV_PIECE_ARC) {
          skipped += pc->ccw ? pc->sweep : -pc->sweep;
          slack += arc_sweep_rounding(pc);
        }
        continue;
      }
      if (prev < count) {
        vec a = piece_tangent(&pieces[prev], true);
        vec b = piece_tangent(pc, false);
        double turn = atan2(vcross(a, b), vdot(a, b));
        double off = fabs(remainder(turn - skipped, SUP_TWO_PI));
        if (off > 1e-6 + slack) {
          if (prev + 1 == i) {
            fail(r, "pieces %zu and %zu: tangent directions differ by %.3g rad", prev, i, off);
          } else {
            fail(r,
                 "pieces %zu and %zu: the heading turns %.17g rad across the short pieces between "
                 "them, whose arcs sweep %.17g",
                 prev, i, turn, skipped);
          }
        }
      }
      prev = i;
      skipped = 0.0;
      slack = 0.0;
    }
  }

  // (4) clearance
  if (geometry_ok) {
    vec lo, hi;
    if (!sup_map_extent(map, &lo, &hi)) {
      lo = hi = start;
    }
    lo.x = fmin(lo.x, fmin(start.x, goal.x));
    lo.y = fmin(lo.y, fmin(start.y, goal.y));
    hi.x = fmax(hi.x, fmax(start.x, goal.x));
    hi.y = fmax(hi.y, fmax(start.y, goal.y));
    double extent = fmax(hi.x - lo.x, hi.y - lo.y);
    // Arcs are sampled at an eighth of R at most. A line piece is measured exactly against every
    // edge and circle besides (check_line_exact): its samples, at the map's spacing, are a second
    // look, and a small R would only multiply them.
    double line_spacing = extent / 2000.0;
    if (!(line_spacing > 0.0)) {
      line_spacing = 1e-3;
    }
    double arc_spacing = R > 0.0 ? fmin(line_spacing, R / 8.0) : line_spacing;
    // Without memory for the screen every sample is measured against every polygon.
    sup_obstacle_screen *screen = sup_obstacle_screen_create(map);
    for (size_t i = 0; i < count; ++i) {
      double spacing = pieces[i].type == ARCNAV_PIECE_LINE ? line_spacing : arc_spacing;
      sample_piece(map, screen, R, eps, spacing, &pieces[i], i, r);
      if (pieces[i].type == ARCNAV_PIECE_LINE) {
        check_line_exact(map, R, eps, &pieces[i], i, r);
      }
    }
    sup_obstacle_screen_destroy(screen);
    if (R <= 2.0 * eps) {
      check_touching_rule(map, eps, start, goal, pieces, count, r);
    }
  }
  r->worst_clearance = r->min_distance - R;
  return r->ok;
}

bool sup_verify_path(const sup_map *map, double R, double eps, arcnav_vec2 start, arcnav_vec2 goal,
                     const arcnav_path *path, sup_verify_report *report) {
  size_t n = arcnav_path_piece_count(path);
  arcnav_piece stack[64] = {0};
  arcnav_piece *pieces = stack;
  if (n > 64) {
    pieces = malloc(n * sizeof *pieces);
    if (pieces == NULL) {
      memset(report, 0, sizeof *report);
      snprintf(report->message, sizeof report->message, "out of memory");
      return false;
    }
  }
  for (size_t i = 0; i < n; ++i) {
    pieces[i] = arcnav_path_piece(path, i);
  }
  bool ok =
      sup_verify_pieces(map, R, eps, start, goal, pieces, n, arcnav_path_length(path), report);
  if (pieces != stack) {
    free(pieces);
  }
  return ok;
}
