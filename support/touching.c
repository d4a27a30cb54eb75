// SPDX-License-Identifier: MIT
#include "touching.h"

#include "verify.h"

#include <math.h>
#include <stdlib.h>

#define TOUCH_PI 3.14159265358979323846
#define TOUCH_STEP (2.0 * TOUCH_PI / SUP_TOUCH_DIRECTIONS)

typedef arcnav_vec2 vec;

double sup_touch_probe_radius(const sup_map *map) {
  return 0.5 * sup_map_tolerance(map);
}

// -1: the direction leads into material; 1: into free space; 0: along a boundary.
static int probe_direction(const sup_map *map, vec x, double angle, double probe) {
  vec p = {x.x + probe * cos(angle), x.y + probe * sin(angle)};
  double d = sup_signed_distance_to_obstacles(map, p);
  if (d < -1e-3 * probe) {
    return -1;
  }
  return d > 1e-3 * probe ? 1 : 0;
}

#define EDGE_DIRECTIONS_MAX 64

static int compare_angles(const void *lhs, const void *rhs) {
  double a = *(const double *)lhs, b = *(const double *)rhs;
  return a < b ? -1 : (a > b ? 1 : 0);
}

static double angle_of(vec from, vec to) {
  return atan2(to.y - from.y, to.x - from.x);
}

// Counter-clockwise turn from angle `from` to angle `to`, in [0, 2 pi).
static double ccw_turn(double from, double to) {
  double t = fmod(to - from, 2.0 * TOUCH_PI);
  return t < 0.0 ? t + 2.0 * TOUCH_PI : t;
}

static void add_direction(double *out, size_t *count, double angle) {
  if (*count < EDGE_DIRECTIONS_MAX) {
    out[(*count)++] = angle;
  }
}

// Where the ring meets x: at one of its vertices (the index), along an edge (the index of its
// first vertex, *on_edge set), or not at all (-1). "Meets" is within `probe`.
static long ring_meeting(const sup_ring *ring, vec x, double probe, bool *on_edge) {
  *on_edge = false;
  for (size_t i = 0; i < ring->count; ++i) {
    vec a = ring->points[i];
    if (hypot(a.x - x.x, a.y - x.y) <= probe) {
      return (long)i;
    }
  }
  for (size_t i = 0; i < ring->count; ++i) {
    vec a = ring->points[i], b = ring->points[(i + 1) % ring->count];
    double dx = b.x - a.x, dy = b.y - a.y, len2 = dx * dx + dy * dy;
    double t = len2 > 0.0 ? ((x.x - a.x) * dx + (x.y - a.y) * dy) / len2 : 0.0;
    if (t > 0.0 && t < 1.0 && hypot(a.x + t * dx - x.x, a.y + t * dy - x.y) <= probe) {
      *on_edge = true;
      return (long)i;
    }
  }
  return -1;
}

// The ring's vertex nearest i in direction `step` (1 or count - 1) farther than `probe` from
// vertex i: a repeated vertex gives no direction.
static size_t distinct_neighbour(const sup_ring *ring, size_t i, size_t step, double probe) {
  vec here = ring->points[i];
  size_t k = (i + step) % ring->count;
  for (size_t walked = 1; walked < ring->count; ++walked) {
    vec p = ring->points[k];
    if (hypot(p.x - here.x, p.y - here.y) > probe) {
      return k;
    }
    k = (k + step) % ring->count;
  }
  return k;
}

// The directions of the ring's edges at x: the sides of the wedges the ring cuts round x.
static void ring_directions(const sup_ring *ring, vec x, double probe, double *out, size_t *count) {
  bool on_edge;
  long i = ring_meeting(ring, x, probe, &on_edge);
  if (i < 0) {
    return;
  }
  size_t n = ring->count;
  vec here = ring->points[i], next = ring->points[((size_t)i + 1) % n];
  if (on_edge) {
    add_direction(out, count, angle_of(here, next));
    add_direction(out, count, angle_of(next, here));
  } else {
    add_direction(out, count,
                  angle_of(here, ring->points[distinct_neighbour(ring, (size_t)i, 1, probe)]));
    add_direction(out, count,
                  angle_of(here, ring->points[distinct_neighbour(ring, (size_t)i, n - 1, probe)]));
  }
}

// Is the point just beyond x in direction `theta` inside the ring? Decided from the ring's own
// edges at x (its interior is left of its edges when counter-clockwise), not by a probe distance,
// so a wedge of any width is seen.
static bool inside_near(const sup_ring *ring, vec x, double probe, double theta) {
  bool on_edge;
  long i = ring_meeting(ring, x, probe, &on_edge);
  if (i < 0) {
    return sup_point_in_ring(ring, x);
  }
  size_t n = ring->count;
  bool ccw = sup_ring_signed_area(ring) > 0.0;
  vec here = ring->points[i], next = ring->points[((size_t)i + 1) % n];
  if (on_edge) {
    double side = sin(theta - angle_of(here, next)); // > 0: left of the edge
    return ccw ? side > 0.0 : side < 0.0;
  }
  double to_next = angle_of(here, ring->points[distinct_neighbour(ring, (size_t)i, 1, probe)]);
  double to_prev = angle_of(here, ring->points[distinct_neighbour(ring, (size_t)i, n - 1, probe)]);
  // Walking prev -> here -> next, the left side is the turn from to_next counter-clockwise round
  // to to_prev.
  bool left = ccw_turn(to_next, theta) < ccw_turn(to_next, to_prev);
  return ccw ? left : !left;
}

static bool material_near(const sup_map *map, vec x, double probe, double theta) {
  for (size_t o = 0; o < map->polygon_count; ++o) {
    const sup_polygon *polygon = &map->polygons[o];
    if (!inside_near(&polygon->outer, x, probe, theta)) {
      continue;
    }
    bool in_hole = false;
    for (size_t h = 0; h < polygon->hole_count && !in_hole; ++h) {
      in_hole = inside_near(&polygon->holes[h], x, probe, theta);
    }
    if (!in_hole) {
      return true;
    }
  }
  for (size_t c = 0; c < map->circle_count; ++c) {
    const sup_circle *circle = &map->circles[c];
    double d = hypot(x.x - circle->center.x, x.y - circle->center.y);
    if (d < circle->radius - probe) {
      return true;
    }
    if (circle->radius > 0.0 && d <= circle->radius + probe &&
        cos(theta - angle_of(x, circle->center)) > 0.0) {
      return true;
    }
  }
  return map->has_bounds && !inside_near(&map->bounds, x, probe, theta);
}

// How far past the boundaries that bound them sectors reach (and short of them, wedges begin): the
// rounding of their directions, so that a path along a boundary lies inside, far below any wedge of
// material the map can hold.
#define SECTOR_SLACK 1e-9

// Does the circle's rim pass within `probe` of x?
static bool on_rim(const sup_circle *circle, vec x, double probe) {
  double d = hypot(x.x - circle->center.x, x.y - circle->center.y);
  return circle->radius > 0.0 && fabs(d - circle->radius) <= probe;
}

// Does any circle's rim pass within `probe` of x?
static bool rim_near(const sup_map *map, vec x, double probe) {
  for (size_t c = 0; c < map->circle_count; ++c) {
    if (on_rim(&map->circles[c], x, probe)) {
      return true;
    }
  }
  return false;
}

// The directions of the boundaries meeting x (within `probe`), sorted: the edges of the rings
// there, and a circle's tangent where x lies on its rim. They bound the wedges of one kind round x.
static size_t boundary_directions(const sup_map *map, vec x, double probe, double *directions) {
  size_t count = 0;
  for (size_t o = 0; o < map->polygon_count; ++o) {
    const sup_polygon *polygon = &map->polygons[o];
    ring_directions(&polygon->outer, x, probe, directions, &count);
    for (size_t h = 0; h < polygon->hole_count; ++h) {
      ring_directions(&polygon->holes[h], x, probe, directions, &count);
    }
  }
  if (map->has_bounds) {
    ring_directions(&map->bounds, x, probe, directions, &count);
  }
  for (size_t c = 0; c < map->circle_count; ++c) {
    const sup_circle *circle = &map->circles[c];
    if (on_rim(circle, x, probe)) {
      double normal = angle_of(x, circle->center);
      add_direction(directions, &count, normal + 0.5 * TOUCH_PI);
      add_direction(directions, &count, normal - 0.5 * TOUCH_PI);
    }
  }
  qsort(directions, count, sizeof *directions, compare_angles);
  return count;
}

// The wedge from directions[i] to the next direction counter-clockwise (the first one a full turn
// on, after the last): its two sides, and whether it is free (judged at its middle from the
// boundaries themselves, so that a wedge of any width is seen). A wedge of no width is not free.
static bool wedge_is_free(const sup_map *map, vec x, double probe, const double *directions,
                          size_t count, size_t i, double *from, double *to) {
  *from = directions[i];
  *to = i + 1 < count ? directions[i + 1] : directions[0] + 2.0 * TOUCH_PI;
  return *to > *from && !material_near(map, x, probe, 0.5 * (*from + *to));
}

bool sup_walled_in(const sup_map *map, vec x, double probe) {
  for (int k = 0; k < SUP_TOUCH_DIRECTIONS; ++k) {
    if (probe_direction(map, x, k * TOUCH_STEP, probe) > 0) {
      return false;
    }
  }
  // A free wedge narrower than the sampling step (a thin crack between two edges at a vertex) is
  // found by classifying each wedge between the edges meeting x from those edges themselves.
  double directions[EDGE_DIRECTIONS_MAX];
  size_t count = boundary_directions(map, x, probe, directions);
  for (size_t i = 0; i < count; ++i) {
    double from, to;
    if (wedge_is_free(map, x, probe, directions, count, i, &from, &to)) {
      return false;
    }
  }
  return true;
}

// Makes the sector of a run of free slots round a point, from its first to its last slot, counted
// on from the closed slot the walk began at (past the slot count once it went a full turn).
typedef sup_sector (*run_sector_fn)(const void *context, size_t first, size_t last);

// The runs of free slots among `count` round a point, walked from a closed one so that no run
// wraps past the start, each made a sector by `sector_of`; all free: the whole turn.
static size_t free_runs(const bool *free, size_t count, run_sector_fn sector_of,
                        const void *context, sup_sector *out, size_t max) {
  size_t closed = 0;
  while (closed < count && free[closed]) {
    ++closed;
  }
  if (closed == count) {
    if (max > 0) {
      out[0] = (sup_sector){0.0, 2.0 * TOUCH_PI};
    }
    return 1;
  }
  size_t runs = 0, run_start = 0;
  bool in_run = false;
  for (size_t j = closed + 1; j <= closed + count; ++j) {
    bool is_free = free[j % count];
    if (is_free && !in_run) {
      run_start = j;
      in_run = true;
    } else if (!is_free && in_run) {
      if (runs < max) {
        out[runs] = sector_of(context, run_start, j - 1);
      }
      ++runs;
      in_run = false;
    }
  }
  return runs;
}

typedef struct wedge_runs {
  const double *directions;
  size_t count;
} wedge_runs;

// Wedges first .. last: from the first's side to the last's far side, widened by the rounding.
static sup_sector wedge_run_sector(const void *context, size_t first, size_t last) {
  const wedge_runs *w = context;
  double from = w->directions[first % w->count] + (first >= w->count ? 2.0 * TOUCH_PI : 0.0);
  double to = w->directions[(last + 1) % w->count] + (last + 1 >= w->count ? 2.0 * TOUCH_PI : 0.0);
  return (sup_sector){from - SECTOR_SLACK, to - from + 2.0 * SECTOR_SLACK};
}

// Sampled directions first .. last, widened by one sampling step on either side.
static sup_sector direction_run_sector(const void *context, size_t first, size_t last) {
  (void)context;
  int run_start = (int)first, run_end = (int)last;
  return (sup_sector){(run_start - 1) * TOUCH_STEP, (run_end - run_start + 2) * TOUCH_STEP};
}

size_t sup_free_sectors(const sup_map *map, vec x, double probe, sup_sector *out, size_t max) {
  // Where boundaries meet x, the sectors are runs of free wedges between them, each wedge judged
  // from the boundaries themselves: a wedge of material narrower than the sampling step (a sliver
  // of one obstacle between two others' free sides) still parts its neighbours.
  double directions[EDGE_DIRECTIONS_MAX];
  size_t count = boundary_directions(map, x, probe, directions);
  if (count > 0) {
    bool free_wedge[EDGE_DIRECTIONS_MAX];
    for (size_t i = 0; i < count; ++i) {
      double from, to;
      free_wedge[i] = wedge_is_free(map, x, probe, directions, count, i, &from, &to);
    }
    wedge_runs wedges = {directions, count};
    return free_runs(free_wedge, count, wedge_run_sector, &wedges, out, max);
  }
  bool free_at[SUP_TOUCH_DIRECTIONS];
  for (int k = 0; k < SUP_TOUCH_DIRECTIONS; ++k) {
    free_at[k] = probe_direction(map, x, k * TOUCH_STEP, probe) > 0;
  }
  return free_runs(free_at, SUP_TOUCH_DIRECTIONS, direction_run_sector, NULL, out, max);
}

static double wrap(double angle) {
  double a = fmod(angle, 2.0 * TOUCH_PI);
  return a < 0.0 ? a + 2.0 * TOUCH_PI : a;
}

bool sup_sector_holds(const sup_sector *sector, vec dir) {
  if (sector->sweep >= 2.0 * TOUCH_PI) {
    return true;
  }
  return wrap(atan2(dir.y, dir.x) - sector->from) <= sector->sweep;
}

// Counts the boundary pieces within `probe` of x for one ring: `near` edges so far, and whether
// the last two found are consecutive edges of one ring (one vertex's two edges).
typedef struct nearby {
  size_t edges;
  size_t ring, index; ///< the first edge found
  bool one_vertex;
} nearby;

static void ring_nearby(const sup_ring *ring, size_t ring_id, vec x, double probe, nearby *n) {
  for (size_t i = 0; i < ring->count; ++i) {
    vec a = ring->points[i], b = ring->points[(i + 1) % ring->count];
    if (sup_point_segment_distance(x, a, b) > probe) {
      continue;
    }
    if (n->edges == 0) {
      n->ring = ring_id;
      n->index = i;
    } else if (n->edges == 1) {
      size_t next = (n->index + 1) % ring->count,
             before = (n->index + ring->count - 1) % ring->count;
      n->one_vertex = n->ring == ring_id && (i == next || i == before);
    }
    n->edges++;
  }
}

// Material can touch a path from both sides at x only where more boundary than one edge, or one
// vertex's two edges, comes within `probe` of it: anything else is decided without probing.
static bool more_than_one_piece_near(const sup_map *map, vec x, double probe) {
  nearby n = {0, 0, 0, false};
  size_t ring_id = 0;
  for (size_t i = 0; i < map->polygon_count; ++i) {
    const sup_polygon *poly = &map->polygons[i];
    ring_nearby(&poly->outer, ring_id++, x, probe, &n);
    for (size_t h = 0; h < poly->hole_count; ++h) {
      ring_nearby(&poly->holes[h], ring_id++, x, probe, &n);
    }
  }
  if (map->has_bounds) {
    ring_nearby(&map->bounds, ring_id++, x, probe, &n);
  }
  for (size_t i = 0; i < map->circle_count; ++i) {
    const sup_circle *c = &map->circles[i];
    if (c->radius > 0.0 && fabs(hypot(x.x - c->center.x, x.y - c->center.y) - c->radius) <= probe) {
      n.edges++;
      n.one_vertex = false;
    }
  }
  return n.edges > 2 || (n.edges == 2 && !n.one_vertex);
}

bool sup_passes_between(const sup_map *map, vec x, vec back, vec ahead, double probe) {
  if (!more_than_one_piece_near(map, x, probe)) {
    return false;
  }
  double from = atan2(back.y, back.x);
  double span = wrap(atan2(ahead.y, ahead.x) - from); // the sector counter-clockwise from back
  double margin = 3.0 * TOUCH_STEP;
  bool material[2] = {false, false};
  for (int k = 0; k < SUP_TOUCH_DIRECTIONS; ++k) {
    double offset = wrap(k * TOUCH_STEP - from);
    int side;
    if (offset > margin && offset < span - margin) {
      side = 0;
    } else if (offset > span + margin && offset < 2.0 * TOUCH_PI - margin) {
      side = 1;
    } else {
      continue;
    }
    if (!material[side] && probe_direction(map, x, k * TOUCH_STEP, probe) < 0) {
      material[side] = true;
    }
  }
  // A wedge of material narrower than the sampling step (a sliver of one obstacle at a vertex it
  // shares with another) is found from the boundaries meeting x themselves: where only polygons'
  // edges meet, straight, so that a path along one keeps its direction to rounding. A path along a
  // circle's rim, a chord of it within the tolerance, turns off the tangent by its length over
  // the diameter, more than the sectors' slack: there the sampled directions above decide.
  double directions[EDGE_DIRECTIONS_MAX];
  size_t count = rim_near(map, x, probe) ? 0 : boundary_directions(map, x, probe, directions);
  for (size_t i = 0; i < count && !(material[0] && material[1]); ++i) {
    double a, b;
    if (wedge_is_free(map, x, probe, directions, count, i, &a, &b) || !(b > a)) {
      continue;
    }
    double lo = wrap(a - from), hi = lo + (b - a);
    for (int turn = 0; turn < 2; ++turn) {
      double l = lo - turn * 2.0 * TOUCH_PI, h = hi - turn * 2.0 * TOUCH_PI;
      material[0] = material[0] || (h > SECTOR_SLACK && l < span - SECTOR_SLACK);
      material[1] = material[1] || (h > span + SECTOR_SLACK && l < 2.0 * TOUCH_PI - SECTOR_SLACK);
    }
  }
  return material[0] && material[1];
}

// --- segments ------------------------------------------------------------------------------------

typedef struct stops {
  double *t;
  size_t count, capacity;
} stops;

static void add_stop(stops *s, double t) {
  if (s->count == s->capacity) {
    s->capacity = s->capacity ? 2 * s->capacity : 64;
    double *grown = realloc(s->t, s->capacity * sizeof *grown);
    if (!grown) {
      abort();
    }
    s->t = grown;
  }
  s->t[s->count++] = t;
}

static int compare_doubles(const void *lhs, const void *rhs) {
  double a = *(const double *)lhs, b = *(const double *)rhs;
  return a < b ? -1 : (a > b ? 1 : 0);
}

// Places along pq (as distances from p) where what touches it may change, for ring `ring`: its
// vertices within tol of the segment, and the ends of every stretch where an edge lies along it.
static void ring_stops(const sup_ring *ring, vec p, vec unit, vec normal, double length, double tol,
                       stops *out) {
  for (size_t i = 0; i < ring->count; ++i) {
    vec a = ring->points[i], b = ring->points[(i + 1) % ring->count];
    double along_a = (a.x - p.x) * unit.x + (a.y - p.y) * unit.y;
    double side_a = (a.x - p.x) * normal.x + (a.y - p.y) * normal.y;
    double along_b = (b.x - p.x) * unit.x + (b.y - p.y) * unit.y;
    double side_b = (b.x - p.x) * normal.x + (b.y - p.y) * normal.y;
    if (fabs(side_a) <= tol && along_a > tol && along_a < length - tol) {
      add_stop(out, along_a);
    }
    if (fabs(side_a) <= tol && fabs(side_b) <= tol) {
      double from = fmax(fmin(along_a, along_b), 0.0), to = fmin(fmax(along_a, along_b), length);
      if (to - from > 2.0 * tol) {
        add_stop(out, from);
        add_stop(out, to);
      }
    }
  }
}

// Clips segment pq to the box [lo, hi] (Liang-Barsky), in place; false when it misses the box.
// Each parameter is kept with its complement computed directly, and a clipped end is evaluated
// from the nearer original end: from 1e37 away, p + t (q - p) near q would be off by 1e21.
static bool clip_to_box(vec *p, vec *q, vec lo, vec hi) {
  double t0 = 0.0, s0 = 1.0, t1 = 1.0, s1 = 0.0;
  double d[2] = {q->x - p->x, q->y - p->y}, from[2] = {p->x, p->y}, to[2] = {q->x, q->y};
  double low[2] = {lo.x, lo.y}, high[2] = {hi.x, hi.y};
  for (int axis = 0; axis < 2; ++axis) {
    if (d[axis] == 0.0) {
      if (from[axis] < low[axis] || from[axis] > high[axis]) {
        return false;
      }
      continue;
    }
    // Where the line crosses the near and the far side of the slab, and their complements.
    double near = d[axis] > 0.0 ? low[axis] : high[axis],
           far = d[axis] > 0.0 ? high[axis] : low[axis];
    double t_in = (near - from[axis]) / d[axis], s_in = (to[axis] - near) / d[axis];
    double t_out = (far - from[axis]) / d[axis], s_out = (to[axis] - far) / d[axis];
    if (t_in > t0) {
      t0 = t_in;
      s0 = s_in;
    }
    if (t_out < t1) {
      t1 = t_out;
      s1 = s_out;
    }
  }
  if (t0 > t1) {
    return false;
  }
  vec a = *p, b = *q;
  *p =
      t0 <= 0.5 ? (vec){a.x + t0 * d[0], a.y + t0 * d[1]} : (vec){b.x - s0 * d[0], b.y - s0 * d[1]};
  *q =
      t1 <= 0.5 ? (vec){a.x + t1 * d[0], a.y + t1 * d[1]} : (vec){b.x - s1 * d[0], b.y - s1 * d[1]};
  return true;
}

bool sup_segment_passes_between(const sup_map *map, vec p, vec q, double tol, double probe) {
  // Only the part of the segment near the obstacles can pass between them.
  vec lo, hi;
  if (sup_map_extent(map, &lo, &hi)) {
    double margin = 4.0 * (tol + probe);
    if (!clip_to_box(&p, &q, (vec){lo.x - margin, lo.y - margin},
                     (vec){hi.x + margin, hi.y + margin})) {
      return false;
    }
  }
  double length = hypot(q.x - p.x, q.y - p.y);
  if (length <= 2.0 * tol) {
    return false;
  }
  vec unit = {(q.x - p.x) / length, (q.y - p.y) / length};
  vec normal = {-unit.y, unit.x};
  stops found = {0};
  for (size_t i = 0; i < map->polygon_count; ++i) {
    const sup_polygon *poly = &map->polygons[i];
    ring_stops(&poly->outer, p, unit, normal, length, tol, &found);
    for (size_t h = 0; h < poly->hole_count; ++h) {
      ring_stops(&poly->holes[h], p, unit, normal, length, tol, &found);
    }
  }
  if (map->has_bounds) {
    ring_stops(&map->bounds, p, unit, normal, length, tol, &found);
  }
  for (size_t i = 0; i < map->circle_count; ++i) {
    const sup_circle *c = &map->circles[i];
    double along = (c->center.x - p.x) * unit.x + (c->center.y - p.y) * unit.y;
    double side = (c->center.x - p.x) * normal.x + (c->center.y - p.y) * normal.y;
    if (c->radius > 0.0 && fabs(fabs(side) - c->radius) <= tol && along > tol &&
        along < length - tol) {
      add_stop(&found, along);
    }
  }
  if (found.count > 0) {
    qsort(found.t, found.count, sizeof *found.t, compare_doubles);
  }
  // Every stop strictly inside, and the middle of every stretch between stops that touches
  // something (a seam runs there).
  bool between = false;
  vec back = {-unit.x, -unit.y};
  double last = 0.0;
  add_stop(&found, length);
  for (size_t i = 0; i < found.count && !between; ++i) {
    double t = found.t[i];
    if (t - last <= tol) {
      continue; // the same place, probed already
    }
    double middle = 0.5 * (last + t);
    vec m = {p.x + unit.x * middle, p.y + unit.y * middle};
    if (sup_distance_to_obstacles(map, m) <= tol) {
      between = sup_passes_between(map, m, back, unit, probe);
    }
    if (!between && t < length - tol) {
      vec x = {p.x + unit.x * t, p.y + unit.y * t};
      between = sup_passes_between(map, x, back, unit, probe);
    }
    last = t;
  }
  free(found.t);
  return between;
}
