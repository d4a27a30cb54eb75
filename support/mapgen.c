// SPDX-License-Identifier: MIT
#include "mapgen.h"

#include "verify.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SUP_TWO_PI 6.28318530717958647693

typedef arcnav_vec2 vec;

static void *xmalloc(size_t size) {
  void *p = malloc(size == 0 ? 1 : size);
  if (p == NULL) {
    fprintf(stderr, "support: out of memory\n");
    abort();
  }
  return p;
}

static void *xrealloc(void *old, size_t size) {
  void *p = realloc(old, size == 0 ? 1 : size);
  if (p == NULL) {
    fprintf(stderr, "support: out of memory\n");
    abort();
  }
  return p;
}

static void *xcalloc(size_t count, size_t size) {
  void *p = xmalloc(count * size);
  memset(p, 0, count * size);
  return p;
}

// --- PRNG -----------------------------------------------------------------------------------

sup_rng sup_rng_seed(uint64_t seed) {
  return (sup_rng){seed};
}

uint64_t sup_rng_next(sup_rng *rng) {
  uint64_t z = (rng->state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

double sup_rng_unit(sup_rng *rng) {
  return (double)(sup_rng_next(rng) >> 11) * 0x1.0p-53;
}

double sup_rng_uniform(sup_rng *rng, double lo, double hi) {
  return lo + (hi - lo) * sup_rng_unit(rng);
}

size_t sup_rng_below(sup_rng *rng, size_t n) {
  return n == 0 ? 0 : (size_t)(sup_rng_next(rng) % (uint64_t)n);
}

// --- building ----------------------------------------------------------------------------------

void sup_map_init(sup_map *map) {
  memset(map, 0, sizeof *map);
}

static void ring_free(sup_ring *ring) {
  free(ring->points);
  ring->points = NULL;
  ring->count = 0;
}

static sup_ring ring_copy(const vec *points, size_t count) {
  sup_ring r = {xmalloc(count * sizeof *points), count};
  memcpy(r.points, points, count * sizeof *points);
  return r;
}

void sup_map_free(sup_map *map) {
  for (size_t i = 0; i < map->polygon_count; ++i) {
    sup_polygon *p = &map->polygons[i];
    ring_free(&p->outer);
    for (size_t h = 0; h < p->hole_count; ++h) {
      ring_free(&p->holes[h]);
    }
    free(p->holes);
  }
  free(map->polygons);
  free(map->circles);
  ring_free(&map->bounds);
  memset(map, 0, sizeof *map);
}

void sup_map_add_polygon(sup_map *map, const arcnav_vec2 *outer, size_t outer_count,
                         const arcnav_vec2 *const *holes, const size_t *hole_counts,
                         size_t hole_count) {
  if (map->polygon_count == map->polygon_capacity) {
    map->polygon_capacity = map->polygon_capacity ? 2 * map->polygon_capacity : 8;
    map->polygons = xrealloc(map->polygons, map->polygon_capacity * sizeof *map->polygons);
  }
  sup_polygon *p = &map->polygons[map->polygon_count++];
  p->outer = ring_copy(outer, outer_count);
  p->hole_count = hole_count;
  p->holes = xmalloc(hole_count * sizeof *p->holes);
  for (size_t h = 0; h < hole_count; ++h) {
    p->holes[h] = ring_copy(holes[h], hole_counts[h]);
  }
}

void sup_map_add_rect(sup_map *map, double x0, double y0, double x1, double y1) {
  vec r[4] = {{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}};
  sup_map_add_polygon(map, r, 4, NULL, NULL, 0);
}

void sup_map_add_sealed_room(sup_map *map, arcnav_vec2 corner, double size, double wall) {
  double x = corner.x, y = corner.y, in = size - wall;
  vec outer[4] = {{x, y}, {x + size, y}, {x + size, y + size}, {x, y + size}};
  vec hole[4] = {{x + wall, y + wall}, {x + wall, y + in}, {x + in, y + in}, {x + in, y + wall}};
  const vec *holes[1] = {hole};
  size_t counts[1] = {4};
  sup_map_add_polygon(map, outer, 4, holes, counts, 1);
}

void sup_map_add_circle(sup_map *map, arcnav_vec2 center, double radius) {
  if (map->circle_count == map->circle_capacity) {
    map->circle_capacity = map->circle_capacity ? 2 * map->circle_capacity : 8;
    map->circles = xrealloc(map->circles, map->circle_capacity * sizeof *map->circles);
  }
  map->circles[map->circle_count++] = (sup_circle){center, radius};
}

void sup_map_set_bounds(sup_map *map, const arcnav_vec2 *ring, size_t count) {
  ring_free(&map->bounds);
  map->bounds = ring_copy(ring, count);
  map->has_bounds = true;
}

void sup_map_copy(sup_map *dst, const sup_map *src) {
  sup_map_init(dst);
  for (size_t i = 0; i < src->polygon_count; ++i) {
    const sup_polygon *p = &src->polygons[i];
    const vec **holes = xmalloc(p->hole_count * sizeof *holes);
    size_t *counts = xmalloc(p->hole_count * sizeof *counts);
    for (size_t h = 0; h < p->hole_count; ++h) {
      holes[h] = p->holes[h].points;
      counts[h] = p->holes[h].count;
    }
    sup_map_add_polygon(dst, p->outer.points, p->outer.count, holes, counts, p->hole_count);
    free(holes);
    free(counts);
  }
  for (size_t i = 0; i < src->circle_count; ++i) {
    sup_map_add_circle(dst, src->circles[i].center, src->circles[i].radius);
  }
  if (src->has_bounds) {
    sup_map_set_bounds(dst, src->bounds.points, src->bounds.count);
  }
}

static void grow_box(vec *lo, vec *hi, vec p) {
  lo->x = fmin(lo->x, p.x);
  lo->y = fmin(lo->y, p.y);
  hi->x = fmax(hi->x, p.x);
  hi->y = fmax(hi->y, p.y);
}

bool sup_map_extent(const sup_map *map, arcnav_vec2 *out_min, arcnav_vec2 *out_max) {
  vec lo = {INFINITY, INFINITY};
  vec hi = {-INFINITY, -INFINITY};
  for (size_t i = 0; i < map->polygon_count; ++i) {
    // Holes lie inside the outer ring, so it alone bounds the polygon.
    for (size_t k = 0; k < map->polygons[i].outer.count; ++k) {
      grow_box(&lo, &hi, map->polygons[i].outer.points[k]);
    }
  }
  for (size_t i = 0; i < map->circle_count; ++i) {
    const sup_circle *c = &map->circles[i];
    grow_box(&lo, &hi, (vec){c->center.x - c->radius, c->center.y - c->radius});
    grow_box(&lo, &hi, (vec){c->center.x + c->radius, c->center.y + c->radius});
  }
  if (map->has_bounds) {
    for (size_t k = 0; k < map->bounds.count; ++k) {
      grow_box(&lo, &hi, map->bounds.points[k]);
    }
  }
  if (lo.x > hi.x) {
    return false;
  }
  *out_min = lo;
  *out_max = hi;
  return true;
}

double sup_map_tolerance(const sup_map *map) {
  vec lo, hi;
  double s = 1.0;
  if (sup_map_extent(map, &lo, &hi)) {
    s = fmax(s, fmax(hi.x - lo.x, hi.y - lo.y));
    s = fmax(s, fmax(fmax(fabs(lo.x), fabs(lo.y)), fmax(fabs(hi.x), fabs(hi.y))));
  }
  return 1e-9 * s;
}

// --- validity ----------------------------------------------------------------------------------

static bool complain(char *why, size_t why_size, const char *text, size_t a, size_t b) {
  if (why != NULL && why_size > 0) {
    snprintf(why, why_size, "%s (%zu, %zu)", text, a, b);
  }
  return false;
}

static bool point_on_segment(vec p, vec a, vec b) {
  return sup_point_segment_distance(p, a, b) == 0.0;
}

static bool ring_is_valid(const sup_ring *r, char *why, size_t why_size, size_t id) {
  size_t n = r->count;
  if (n < 3) {
    return complain(why, why_size, "ring with fewer than 3 vertices", id, n);
  }
  for (size_t i = 0; i < n; ++i) {
    vec a = r->points[i];
    if (!isfinite(a.x) || !isfinite(a.y)) {
      return complain(why, why_size, "non-finite vertex", id, i);
    }
    vec b = r->points[(i + 1) % n];
    if (a.x == b.x && a.y == b.y) {
      return complain(why, why_size, "repeated vertex", id, i);
    }
  }
  if (sup_ring_signed_area(r) == 0.0) {
    return complain(why, why_size, "ring with zero area", id, 0);
  }
  for (size_t i = 0; i < n; ++i) {
    vec a = r->points[i];
    vec b = r->points[(i + 1) % n];
    for (size_t j = i + 1; j < n; ++j) {
      vec c = r->points[j];
      vec d = r->points[(j + 1) % n];
      if (j == i + 1) {
        // Adjacent edges share b == c; they must not fold back onto each other.
        if (point_on_segment(d, a, b) || point_on_segment(a, c, d)) {
          return complain(why, why_size, "ring folds back on itself", id, j);
        }
      } else if (i == 0 && j == n - 1) {
        if (point_on_segment(c, a, b) || point_on_segment(b, c, d)) {
          return complain(why, why_size, "ring folds back on itself", id, j);
        }
      } else if (sup_segments_intersect(a, b, c, d)) {
        return complain(why, why_size, "ring touches or crosses itself", id, i);
      }
    }
  }
  return true;
}

static bool rings_meet(const sup_ring *r, const sup_ring *s) {
  for (size_t i = 0; i < r->count; ++i) {
    for (size_t j = 0; j < s->count; ++j) {
      if (sup_segments_intersect(r->points[i], r->points[(i + 1) % r->count], s->points[j],
                                 s->points[(j + 1) % s->count])) {
        return true;
      }
    }
  }
  return false;
}

bool sup_map_check(const sup_map *map, char *why, size_t why_size) {
  for (size_t i = 0; i < map->polygon_count; ++i) {
    const sup_polygon *p = &map->polygons[i];
    if (!ring_is_valid(&p->outer, why, why_size, i)) {
      return false;
    }
    for (size_t h = 0; h < p->hole_count; ++h) {
      const sup_ring *hr = &p->holes[h];
      if (!ring_is_valid(hr, why, why_size, i)) {
        return false;
      }
      if (rings_meet(hr, &p->outer) || !sup_point_in_ring(&p->outer, hr->points[0])) {
        return complain(why, why_size, "hole not strictly inside its polygon", i, h);
      }
      for (size_t g = 0; g < h; ++g) {
        const sup_ring *gr = &p->holes[g];
        if (rings_meet(hr, gr) || sup_point_in_ring(gr, hr->points[0]) ||
            sup_point_in_ring(hr, gr->points[0])) {
          return complain(why, why_size, "holes meet", i, h);
        }
      }
    }
  }
  for (size_t i = 0; i < map->circle_count; ++i) {
    const sup_circle *c = &map->circles[i];
    if (!isfinite(c->center.x) || !isfinite(c->center.y) || !(c->radius >= 0.0) ||
        !isfinite(c->radius)) {
      return complain(why, why_size, "bad circle", i, 0);
    }
  }
  if (map->has_bounds && !ring_is_valid(&map->bounds, why, why_size, (size_t)-1)) {
    return false;
  }
  return true;
}

// --- conversion ----------------------------------------------------------------------------------

arcnav_status sup_map_to_arcnav(const sup_map *map, arcnav_map **out) {
  return sup_map_to_arcnav_with(map, NULL, out);
}

arcnav_status sup_map_to_arcnav_with(const sup_map *map, const arcnav_allocator *allocator,
                                     arcnav_map **out) {
  *out = NULL;
  arcnav_map *m = NULL;
  arcnav_status st = arcnav_map_create(allocator, &m);
  if (st != ARCNAV_OK) {
    return st;
  }
  for (size_t i = 0; i < map->polygon_count && st == ARCNAV_OK; ++i) {
    const sup_polygon *p = &map->polygons[i];
    const vec **holes = xmalloc(p->hole_count * sizeof *holes);
    size_t *counts = xmalloc(p->hole_count * sizeof *counts);
    for (size_t h = 0; h < p->hole_count; ++h) {
      holes[h] = p->holes[h].points;
      counts[h] = p->holes[h].count;
    }
    st = arcnav_map_add_polygon(m, p->outer.points, p->outer.count,
                                p->hole_count ? (const arcnav_vec2 *const *)holes : NULL,
                                p->hole_count ? counts : NULL, p->hole_count, NULL);
    free(holes);
    free(counts);
  }
  for (size_t i = 0; i < map->circle_count && st == ARCNAV_OK; ++i) {
    st = arcnav_map_add_circle(m, map->circles[i].center, map->circles[i].radius, NULL);
  }
  if (st == ARCNAV_OK && map->has_bounds) {
    st = arcnav_map_set_bounds(m, map->bounds.points, map->bounds.count, NULL);
  }
  if (st != ARCNAV_OK) {
    arcnav_map_destroy(m);
    return st;
  }
  *out = m;
  return ARCNAV_OK;
}

// --- shapes --------------------------------------------------------------------------------------

static int cmp_vec(const void *pa, const void *pb) {
  const vec *a = pa;
  const vec *b = pb;
  if (a->x != b->x) {
    return a->x < b->x ? -1 : 1;
  }
  if (a->y != b->y) {
    return a->y < b->y ? -1 : 1;
  }
  return 0;
}

static double cross3(vec o, vec a, vec b) {
  return (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x);
}

/// Convex hull (Andrew's monotone chain), counter-clockwise, collinear points dropped. `out` needs
/// room for 2 * n points. Returns the hull size.
static size_t convex_hull(vec *pts, size_t n, vec *out) {
  qsort(pts, n, sizeof *pts, cmp_vec);
  size_t k = 0;
  for (size_t i = 0; i < n; ++i) {
    while (k >= 2 && cross3(out[k - 2], out[k - 1], pts[i]) <= 0.0) {
      --k;
    }
    out[k++] = pts[i];
  }
  for (size_t i = n - 1, t = k + 1; i-- > 0;) {
    while (k >= t && cross3(out[k - 2], out[k - 1], pts[i]) <= 0.0) {
      --k;
    }
    out[k++] = pts[i];
  }
  return k > 1 ? k - 1 : k;
}

/// Random convex polygon inside the disk of `radius` around `c`, area at least ~10% of the disk.
static size_t random_convex(sup_rng *rng, vec c, double radius, vec *out /* >= 24 */) {
  for (;;) {
    vec pts[12];
    size_t n = 5 + sup_rng_below(rng, 8);
    for (size_t i = 0; i < n; ++i) {
      double a = sup_rng_uniform(rng, 0.0, SUP_TWO_PI);
      double r = radius * sqrt(sup_rng_uniform(rng, 0.2, 1.0));
      pts[i] = (vec){c.x + r * cos(a), c.y + r * sin(a)};
    }
    size_t k = convex_hull(pts, n, out);
    sup_ring ring = {out, k};
    if (k >= 3 && fabs(sup_ring_signed_area(&ring)) > 0.3 * radius * radius) {
      return k;
    }
  }
}

/// Star-shaped polygon around `c`: `n` vertices at strictly increasing angles (jitter below half
/// a step) and radii in [r_lo, r_hi]. Star-shaped with increasing angles means simple. Every
/// angular gap is below 1.7 * 2 pi / n, so the disk of r_lo * cos(1.7 pi / n) is inside.
static void random_star(sup_rng *rng, vec c, size_t n, double r_lo, double r_hi, vec *out) {
  double step = SUP_TWO_PI / (double)n;
  double phase = sup_rng_uniform(rng, 0.0, SUP_TWO_PI);
  for (size_t i = 0; i < n; ++i) {
    double a = phase + step * ((double)i + sup_rng_uniform(rng, -0.35, 0.35));
    double r = sup_rng_uniform(rng, r_lo, r_hi);
    out[i] = (vec){c.x + r * cos(a), c.y + r * sin(a)};
  }
}

static void add_polygon_with_holes(sup_rng *rng, sup_map *map, vec c, double size) {
  size_t n = 8 + sup_rng_below(rng, 5);
  vec outer[12];
  random_star(rng, c, n, 0.85 * size, size, outer);
  double inner = 0.85 * size * cos(1.7 * 3.14159265358979323846 / (double)n);
  double usable = 0.9 * inner;
  size_t want = 1 + sup_rng_below(rng, 3);
  vec hole_pts[3][24];
  const vec *holes[3];
  size_t counts[3];
  vec centers[3];
  double radii[3];
  size_t made = 0;
  for (int attempt = 0; attempt < 50 && made < want; ++attempt) {
    double hr = usable * sup_rng_uniform(rng, 0.2, 0.5);
    double a = sup_rng_uniform(rng, 0.0, SUP_TWO_PI);
    double d = (usable - hr) * sqrt(sup_rng_unit(rng));
    vec hc = {c.x + d * cos(a), c.y + d * sin(a)};
    bool clear = true;
    for (size_t k = 0; k < made; ++k) {
      double dist = hypot(hc.x - centers[k].x, hc.y - centers[k].y);
      if (dist < hr + radii[k] + 0.05 * inner) {
        clear = false;
      }
    }
    if (!clear) {
      continue;
    }
    centers[made] = hc;
    radii[made] = hr;
    if (sup_rng_below(rng, 2) == 0) {
      double w = hr * 0.7;
      hole_pts[made][0] = (vec){hc.x - w, hc.y - w};
      hole_pts[made][1] = (vec){hc.x - w, hc.y + w};
      hole_pts[made][2] = (vec){hc.x + w, hc.y + w};
      hole_pts[made][3] = (vec){hc.x + w, hc.y - w}; // clockwise on purpose: any orientation
      counts[made] = 4;
    } else {
      counts[made] = random_convex(rng, hc, hr, hole_pts[made]);
    }
    holes[made] = hole_pts[made];
    ++made;
  }
  sup_map_add_polygon(map, outer, n, holes, counts, made);
}

// --- generators ----------------------------------------------------------------------------------

sup_map sup_gen_random_rectangles(uint64_t seed, size_t count, double world_size, double min_size,
                                  double max_size) {
  sup_rng rng = sup_rng_seed(seed);
  sup_map map;
  sup_map_init(&map);
  for (size_t i = 0; i < count; ++i) {
    double w = sup_rng_uniform(&rng, min_size, max_size);
    double h = sup_rng_uniform(&rng, min_size, max_size);
    double x = sup_rng_uniform(&rng, 0.0, world_size - w);
    double y = sup_rng_uniform(&rng, 0.0, world_size - h);
    sup_map_add_rect(&map, x, y, x + w, y + h);
  }
  return map;
}

sup_map sup_gen_maze(uint64_t seed, size_t cells, double cell_size, double wall_thickness) {
  sup_rng rng = sup_rng_seed(seed);
  sup_map map;
  sup_map_init(&map);
  size_t n = cells > 0 ? cells : 1;
  // open_east[i + n * j]: no wall between (i, j) and (i + 1, j); open_north likewise to (i, j + 1).
  bool *open_east = xcalloc(n * n, sizeof *open_east);
  bool *open_north = xcalloc(n * n, sizeof *open_north);
  bool *seen = xcalloc(n * n, sizeof *seen);
  size_t *stack = xcalloc(n * n, sizeof *stack);
  size_t depth = 0;
  stack[depth++] = 0;
  seen[0] = true;
  while (depth > 0) {
    size_t c = stack[depth - 1], i = c % n, j = c / n;
    size_t options[4], count = 0;
    if (i + 1 < n && !seen[c + 1]) {
      options[count++] = c + 1;
    }
    if (i > 0 && !seen[c - 1]) {
      options[count++] = c - 1;
    }
    if (j + 1 < n && !seen[c + n]) {
      options[count++] = c + n;
    }
    if (j > 0 && !seen[c - n]) {
      options[count++] = c - n;
    }
    if (count == 0) {
      --depth;
      continue;
    }
    size_t next = options[sup_rng_below(&rng, count)];
    if (next == c + 1) {
      open_east[c] = true;
    } else if (next + 1 == c) {
      open_east[next] = true;
    } else if (next == c + n) {
      open_north[c] = true;
    } else {
      open_north[next] = true;
    }
    seen[next] = true;
    stack[depth++] = next;
  }
  double h = 0.5 * wall_thickness, size = (double)n * cell_size;
  sup_map_add_rect(&map, -h, -h, size + h, h);
  sup_map_add_rect(&map, -h, size - h, size + h, size + h);
  sup_map_add_rect(&map, -h, h, h, size - h);
  sup_map_add_rect(&map, size - h, h, size + h, size - h);
  for (size_t j = 0; j < n; ++j) {
    for (size_t i = 0; i < n; ++i) {
      size_t c = i + n * j;
      double x1 = (double)(i + 1) * cell_size, y1 = (double)(j + 1) * cell_size;
      if (i + 1 < n && !open_east[c]) {
        sup_map_add_rect(&map, x1 - h, y1 - cell_size - h, x1 + h, y1 + h);
      }
      if (j + 1 < n && !open_north[c]) {
        sup_map_add_rect(&map, x1 - cell_size - h, y1 - h, x1 + h, y1 + h);
      }
    }
  }
  free(open_east);
  free(open_north);
  free(seen);
  free(stack);
  return map;
}

// A building filling [x0, x1] x [y0, y1], L-shaped when `notch` by cutting the corner that points
// away from (cx, cy), so the alley sides stay straight.
static void add_building(sup_map *map, double x0, double y0, double x1, double y1, bool notch,
                         double cx, double cy, sup_rng *rng) {
  if (!notch) {
    sup_map_add_rect(map, x0, y0, x1, y1);
    return;
  }
  double nw = (x1 - x0) * sup_rng_uniform(rng, 0.3, 0.6);
  double nh = (y1 - y0) * sup_rng_uniform(rng, 0.3, 0.6);
  bool right = (x0 + x1) / 2.0 > cx, top = (y0 + y1) / 2.0 > cy;
  double nx = right ? x1 - nw : x0 + nw, ny = top ? y1 - nh : y0 + nh;
  vec r[6];
  if (right && top) {
    r[0] = (vec){x0, y0}, r[1] = (vec){x1, y0}, r[2] = (vec){x1, ny};
    r[3] = (vec){nx, ny}, r[4] = (vec){nx, y1}, r[5] = (vec){x0, y1};
  } else if (!right && top) {
    r[0] = (vec){x0, y0}, r[1] = (vec){x1, y0}, r[2] = (vec){x1, y1};
    r[3] = (vec){nx, y1}, r[4] = (vec){nx, ny}, r[5] = (vec){x0, ny};
  } else if (!right && !top) {
    r[0] = (vec){nx, y0}, r[1] = (vec){x1, y0}, r[2] = (vec){x1, y1};
    r[3] = (vec){x0, y1}, r[4] = (vec){x0, ny}, r[5] = (vec){nx, ny};
  } else {
    r[0] = (vec){x0, y0}, r[1] = (vec){nx, y0}, r[2] = (vec){nx, ny};
    r[3] = (vec){x1, ny}, r[4] = (vec){x1, y1}, r[5] = (vec){x0, y1};
  }
  sup_map_add_polygon(map, r, 6, NULL, NULL, 0);
}

sup_map sup_gen_town(uint64_t seed, size_t blocks, double block_size, double street, double gap_min,
                     double gap_max) {
  sup_rng rng = sup_rng_seed(seed);
  sup_map map;
  sup_map_init(&map);
  for (size_t bj = 0; bj < blocks; ++bj) {
    for (size_t bi = 0; bi < blocks; ++bi) {
      double x0 = street + (double)bi * (block_size + street);
      double y0 = street + (double)bj * (block_size + street);
      double sx = x0 + block_size * sup_rng_uniform(&rng, 0.35, 0.65);
      double sy = y0 + block_size * sup_rng_uniform(&rng, 0.35, 0.65);
      double gx = sup_rng_uniform(&rng, gap_min, gap_max) / 2.0;
      double gy = sup_rng_uniform(&rng, gap_min, gap_max) / 2.0;
      double xs[2][2] = {{x0, sx - gx}, {sx + gx, x0 + block_size}};
      double ys[2][2] = {{y0, sy - gy}, {sy + gy, y0 + block_size}};
      for (int a = 0; a < 2; ++a) {
        for (int b = 0; b < 2; ++b) {
          bool notch = sup_rng_unit(&rng) < 0.3;
          add_building(&map, xs[a][0], ys[b][0], xs[a][1], ys[b][1], notch, sx, sy, &rng);
        }
      }
    }
  }
  return map;
}

sup_map sup_gen_neerc_worst(uint64_t seed) {
  sup_rng rng = sup_rng_seed(seed);
  sup_map map;
  sup_map_init(&map);
  long rects[30][4];
  size_t made = 0;
  long max_side = 400;
  while (made < 30) {
    for (int attempt = 0; attempt < 2000 && made < 30; ++attempt) {
      long w = 1 + (long)sup_rng_below(&rng, (size_t)max_side);
      long h = 1 + (long)sup_rng_below(&rng, (size_t)max_side);
      long x0 = -1000 + (long)sup_rng_below(&rng, (size_t)(2001 - w));
      long y0 = -1000 + (long)sup_rng_below(&rng, (size_t)(2001 - h));
      long x1 = x0 + w, y1 = y0 + h;
      bool clear = true;
      for (size_t k = 0; k < made && clear; ++k) {
        // At least one unit apart along some axis, so they neither overlap nor touch.
        if (!(x1 < rects[k][0] || rects[k][2] < x0 || y1 < rects[k][1] || rects[k][3] < y0)) {
          clear = false;
        }
      }
      if (clear) {
        rects[made][0] = x0;
        rects[made][1] = y0;
        rects[made][2] = x1;
        rects[made][3] = y1;
        ++made;
      }
    }
    max_side = max_side > 20 ? max_side / 2 : max_side;
  }
  for (size_t k = 0; k < made; ++k) {
    sup_map_add_rect(&map, (double)rects[k][0], (double)rects[k][1], (double)rects[k][2],
                     (double)rects[k][3]);
  }
  return map;
}

sup_map sup_gen_mixed(uint64_t seed, size_t count, double world, double radius_hint) {
  sup_rng rng = sup_rng_seed(seed);
  sup_map map;
  sup_map_init(&map);
  double unit = radius_hint > 0.0 ? radius_hint : world / 25.0;
  for (size_t i = 0; i < count; ++i) {
    vec c = {sup_rng_uniform(&rng, 0.0, world), sup_rng_uniform(&rng, 0.0, world)};
    double size = unit * sup_rng_uniform(&rng, 1.5, 5.0);
    size_t kind = sup_rng_below(&rng, 20);
    if (kind < 5) {
      vec pts[24];
      size_t n = random_convex(&rng, c, size, pts);
      sup_map_add_polygon(&map, pts, n, NULL, NULL, 0);
    } else if (kind < 10) {
      vec pts[16];
      size_t n = 5 + sup_rng_below(&rng, 10);
      random_star(&rng, c, n, 0.35 * size, size, pts);
      sup_map_add_polygon(&map, pts, n, NULL, NULL, 0);
    } else if (kind < 13) {
      add_polygon_with_holes(&rng, &map, c, 2.0 * size);
    } else if (kind < 17) {
      sup_map_add_circle(&map, c, size * sup_rng_uniform(&rng, 0.3, 0.8));
    } else {
      double w = size * sup_rng_uniform(&rng, 0.4, 1.2);
      double h = size * sup_rng_uniform(&rng, 0.4, 1.2);
      sup_map_add_rect(&map, c.x - w, c.y - h, c.x + w, c.y + h);
    }
  }
  size_t bounds = sup_rng_below(&rng, 6);
  if (bounds == 0) {
    double m = 0.05 * world;
    vec ring[4] = {{-m, -m}, {world + m, -m}, {world + m, world + m}, {-m, world + m}};
    sup_map_set_bounds(&map, ring, 4);
  } else if (bounds == 1) {
    vec ring[16];
    size_t n = 10 + sup_rng_below(&rng, 7);
    random_star(&rng, (vec){0.5 * world, 0.5 * world}, n, 0.55 * world, 0.75 * world, ring);
    sup_map_set_bounds(&map, ring, n);
  }
  return map;
}

sup_gap_case sup_gen_gap_pair_kind(double R, double gap, sup_gap_kind kind) {
  sup_gap_case g;
  sup_map_init(&g.map);
  double u = R > 0.0 ? R : (gap > 0.0 ? 0.5 * gap : 1.0);
  double mid = 0.5 * gap;
  double reach = 5.0 * u; // start and goal are this far either side of the gap's line
  switch (kind) {
  case SUP_GAP_VERTICES: {
    double w = 20.0 * u, h = 3.0 * u;
    vec a[4] = {{0.0, 0.0}, {-0.5 * w, h}, {-w, 0.0}, {-0.5 * w, -h}};
    vec b[4] = {{gap, 0.0}, {gap + 0.5 * w, -h}, {gap + w, 0.0}, {gap + 0.5 * w, h}};
    sup_map_add_polygon(&g.map, a, 4, NULL, NULL, 0);
    sup_map_add_polygon(&g.map, b, 4, NULL, NULL, 0);
    break;
  }
  case SUP_GAP_CIRCLES: {
    double c = 6.0 * u;
    sup_map_add_circle(&g.map, (vec){-c, 0.0}, c);
    sup_map_add_circle(&g.map, (vec){gap + c, 0.0}, c);
    break;
  }
  case SUP_GAP_RECTS:
  default: {
    double w = 10.0 * u, h = 3.0 * u;
    sup_map_add_rect(&g.map, -w, -h, 0.0, h);
    sup_map_add_rect(&g.map, gap, -h, gap + w, h);
    break;
  }
  }
  g.query.start = (vec){mid, -reach};
  g.query.goal = (vec){mid, reach};
  g.straight_length = 2.0 * reach;
  return g;
}

sup_gap_case sup_gen_gap_pair(double R, double gap) {
  return sup_gen_gap_pair_kind(R, gap, SUP_GAP_RECTS);
}

bool sup_random_free_point(const sup_map *map, double R, sup_rng *rng, arcnav_vec2 box_min,
                           arcnav_vec2 box_max, double margin, int max_tries, arcnav_vec2 *out) {
  for (int i = 0; i < max_tries; ++i) {
    vec p = {sup_rng_uniform(rng, box_min.x, box_max.x),
             sup_rng_uniform(rng, box_min.y, box_max.y)};
    // The signed distance, so that at R = 0 points inside an obstacle are not taken as free.
    if (sup_signed_distance_to_obstacles(map, p) >= R + margin) {
      *out = p;
      return true;
    }
  }
  return false;
}

sup_map sup_gen_corner_squares(void) {
  sup_map m;
  sup_map_init(&m);
  sup_map_add_rect(&m, 0, 0, 10, 10);
  sup_map_add_rect(&m, 10, 10, 20, 20);
  return m;
}

arcnav_vec2 *sup_star_ring(size_t n, double rho, double inner) {
  arcnav_vec2 *p = xmalloc((n ? n : 1) * sizeof *p);
  for (size_t i = 0; i < n; ++i) {
    double angle = SUP_TWO_PI * (double)i / (double)n;
    double r = inner > 0.0 && i % 2 == 1 ? inner : rho;
    p[i] = (arcnav_vec2){r * cos(angle), r * sin(angle)};
  }
  return p;
}

// Adds the polygon through `points`, leaving out consecutive repeats.
static void add_outline(sup_map *map, const arcnav_vec2 *points, size_t count) {
  arcnav_vec2 kept[64];
  size_t n = 0;
  for (size_t i = 0; i < count && n < 64; ++i) {
    if (n == 0 || points[i].x != kept[n - 1].x || points[i].y != kept[n - 1].y) {
      kept[n++] = points[i];
    }
  }
  sup_map_add_polygon(map, kept, n, NULL, NULL, 0);
}

sup_map sup_gen_touching(uint64_t seed, bool touching_holes) {
  sup_rng rng = sup_rng_seed(seed);
  sup_map map;
  sup_map_init(&map);
  const double side = 10.0;
  size_t n = 4 + sup_rng_below(&rng, 4);
  bool blocked[7][7] = {{false}}, used[7][7] = {{false}};
  for (size_t i = 0; i < n; ++i) {
    for (size_t j = 0; j < n; ++j) {
      blocked[i][j] = sup_rng_unit(&rng) < 0.35;
    }
  }
  for (size_t j = 0; j < n; ++j) {
    for (size_t i = 0; i < n; ++i) {
      if (!blocked[i][j] || used[i][j]) {
        continue;
      }
      double x = (double)i * side, y = (double)j * side;
      double pick = sup_rng_unit(&rng);
      if (pick < 0.25) {
        sup_map_add_rect(&map, x, y, x + side, y + side);
        used[i][j] = true;
      } else if (pick < 0.5) {
        size_t end = i;
        while (end + 1 < n && blocked[end + 1][j] && !used[end + 1][j] &&
               sup_rng_unit(&rng) < 0.7) {
          ++end;
        }
        for (size_t k = i; k <= end; ++k) {
          used[k][j] = true;
        }
        sup_map_add_rect(&map, x, y, (double)(end + 1) * side, y + side);
      } else if (pick < 0.7) {
        size_t end = j;
        while (end + 1 < n && blocked[i][end + 1] && !used[i][end + 1] &&
               sup_rng_unit(&rng) < 0.7) {
          ++end;
        }
        for (size_t k = j; k <= end; ++k) {
          used[i][k] = true;
        }
        sup_map_add_rect(&map, x, y, x + side, (double)(end + 1) * side);
      } else if (pick < 0.82) {
        // Two triangles sharing the cell's diagonal.
        used[i][j] = true;
        arcnav_vec2 c[4] = {{x, y}, {x + side, y}, {x + side, y + side}, {x, y + side}};
        if (sup_rng_unit(&rng) < 0.5) {
          arcnav_vec2 lower[3] = {c[0], c[1], c[2]}, upper[3] = {c[0], c[2], c[3]};
          sup_map_add_polygon(&map, lower, 3, NULL, NULL, 0);
          sup_map_add_polygon(&map, upper, 3, NULL, NULL, 0);
        } else {
          arcnav_vec2 lower[3] = {c[0], c[1], c[3]}, upper[3] = {c[1], c[2], c[3]};
          sup_map_add_polygon(&map, lower, 3, NULL, NULL, 0);
          sup_map_add_polygon(&map, upper, 3, NULL, NULL, 0);
        }
      } else {
        // A staircase: columns i.. of non-increasing heights, traced counter-clockwise with the
        // collinear vertices a tracer leaves where neighbouring heights agree.
        size_t columns = 1 + sup_rng_below(&rng, 3);
        if (i + columns > n) {
          columns = n - i;
        }
        size_t heights[3];
        size_t top = 1 + sup_rng_below(&rng, 3);
        for (size_t k = 0; k < columns; ++k) {
          top = k == 0 ? top : 1 + sup_rng_below(&rng, top);
          heights[k] = j + top > n ? n - j : top;
          for (size_t h = 0; h < heights[k]; ++h) {
            used[i + k][j + h] = true;
          }
        }
        arcnav_vec2 outline[16];
        size_t count = 0;
        outline[count++] = (arcnav_vec2){x, y};
        for (size_t k = 0; k < columns; ++k) {
          outline[count++] = (arcnav_vec2){(double)(i + k + 1) * side, y};
        }
        for (size_t k = columns; k-- > 0;) {
          double column_top = y + (double)heights[k] * side;
          outline[count++] = (arcnav_vec2){(double)(i + k + 1) * side, column_top};
          outline[count++] = (arcnav_vec2){(double)(i + k) * side, column_top};
        }
        add_outline(&map, outline, count);
      }
    }
  }
  if (touching_holes && sup_rng_unit(&rng) < 0.5) {
    // A square of two cells a side; one hole touches its left side at one point, a second hole
    // touches the first at one vertex.
    double a = side * (double)sup_rng_below(&rng, n - 1),
           b = side * (double)sup_rng_below(&rng, n - 1);
    arcnav_vec2 outer[4] = {{a, b}, {a + 20, b}, {a + 20, b + 20}, {a, b + 20}};
    arcnav_vec2 first[3] = {{a, b + 10}, {a + 10, b + 4}, {a + 10, b + 16}};
    arcnav_vec2 second[3] = {{a + 10, b + 4}, {a + 17, b + 3}, {a + 17, b + 9}};
    const arcnav_vec2 *holes[2] = {first, second};
    size_t hole_counts[2] = {3, 3};
    sup_map_add_polygon(&map, outer, 4, holes, hole_counts, 2);
  }
  if (map.polygon_count == 0) {
    sup_map_add_rect(&map, 0, 0, side, side);
    sup_map_add_rect(&map, side, side, 2 * side, 2 * side);
  }
  if (sup_rng_unit(&rng) < 0.5) {
    double w = (double)n * side;
    arcnav_vec2 box[4] = {{0, 0}, {w, 0}, {w, w}, {0, w}};
    sup_map_set_bounds(&map, box, 4);
  }
  return map;
}

sup_kind_map sup_gen_kind(int kind, uint64_t seed) {
  switch (kind) {
  case 0:
    return (sup_kind_map){sup_gen_random_rectangles(seed, 25, 100.0, 2.0, 14.0), "rectangles", 1.0};
  case 1:
    return (sup_kind_map){sup_gen_mixed(seed, 20, 100.0, 2.0), "mixed", 2.0};
  case 2:
    return (sup_kind_map){sup_gen_maze(seed, 6, 10.0, 1.0), "maze", 2.5};
  case 3:
    return (sup_kind_map){sup_gen_town(seed, 2, 20.0, 6.0, 1.0, 4.0), "town", 1.2};
  case 4:
    // Obstacles that touch, holes touching their shells, obstacle edges on the bounds.
    return (sup_kind_map){sup_gen_touching(seed, true), "touching", 1.5};
  default: {
    // Bounds and a circle among rectangles: every kind of item in one map.
    sup_kind_map t = {sup_gen_random_rectangles(seed, 12, 60.0, 3.0, 10.0), "bounded", 0.8};
    arcnav_vec2 ring[5] = {{-5.0, -5.0}, {65.0, -5.0}, {65.0, 40.0}, {30.0, 65.0}, {-5.0, 65.0}};
    sup_map_set_bounds(&t.map, ring, 5);
    sup_map_add_circle(&t.map, (arcnav_vec2){30.0, 30.0}, 4.0);
    sup_map_add_circle(&t.map, (arcnav_vec2){50.0, 10.0}, 0.0);
    return t;
  }
  }
}

bool sup_kind_touches_nothing(int kind) {
  return kind != 2 && kind != 3 && kind != 4;
}

// --- grids of cells -----------------------------------------------------------------------------

static bool cell_blocked(const sup_cell_grid *g, int x, int y) {
  return x < 0 || y < 0 || x >= g->w || y >= g->h || g->blocked[y][x];
}

void sup_cell_grid_cave(sup_rng *rng, sup_cell_grid *g) {
  for (int y = 0; y < g->h; ++y) {
    for (int x = 0; x < g->w; ++x) {
      g->blocked[y][x] = sup_rng_unit(rng) < 0.42;
    }
  }
  for (int pass = 0; pass < 2; ++pass) {
    sup_cell_grid next = *g;
    for (int y = 0; y < g->h; ++y) {
      for (int x = 0; x < g->w; ++x) {
        int n = 0;
        for (int dy = -1; dy <= 1; ++dy) {
          for (int dx = -1; dx <= 1; ++dx) {
            n += (dx != 0 || dy != 0) && cell_blocked(g, x + dx, y + dy);
          }
        }
        next.blocked[y][x] = n >= 5 || (g->blocked[y][x] && n >= 4);
      }
    }
    *g = next;
  }
}

void sup_cell_grid_rooms(sup_rng *rng, sup_cell_grid *g) {
  memset(g->blocked, 0, sizeof g->blocked);
  int count = g->w * g->h / 30;
  for (int k = 0; k < count; ++k) {
    int x0 = (int)sup_rng_below(rng, (size_t)g->w), y0 = (int)sup_rng_below(rng, (size_t)g->h);
    int sw = 1 + (int)sup_rng_below(rng, k % 3 == 0 ? 1 : 6);
    int sh = 1 + (int)sup_rng_below(rng, k % 3 == 0 ? 1 : 6);
    for (int y = y0; y < y0 + sh && y < g->h; ++y) {
      for (int x = x0; x < x0 + sw && x < g->w; ++x) {
        g->blocked[y][x] = true;
      }
    }
  }
}

void sup_cell_grid_random(sup_rng *rng, bool cave, sup_cell_grid *g) {
  g->w = 24 + (int)sup_rng_below(rng, 25);
  g->h = 24 + (int)sup_rng_below(rng, 25);
  if (cave) {
    sup_cell_grid_cave(rng, g);
  } else {
    sup_cell_grid_rooms(rng, g);
  }
}

void sup_cell_grid_from_rows(sup_cell_grid *g, const char *const *rows, int h) {
  memset(g, 0, sizeof *g);
  g->h = h;
  g->w = (int)strlen(rows[0]);
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < g->w; ++x) {
      g->blocked[y][x] = rows[y][x] == '#';
    }
  }
}

sup_map sup_cell_grid_to_map(const sup_cell_grid *g, bool bounds) {
  sup_map m;
  sup_map_init(&m);
  for (int y = 0; y < g->h; ++y) {
    for (int x = 0; x < g->w;) {
      if (!g->blocked[y][x]) {
        ++x;
        continue;
      }
      int end = x;
      while (end < g->w && g->blocked[y][end]) {
        ++end;
      }
      sup_map_add_rect(&m, x, y, end, y + 1);
      x = end;
    }
  }
  if (bounds) {
    arcnav_vec2 ring[4] = {{0, 0}, {g->w, 0}, {g->w, g->h}, {0, g->h}};
    sup_map_set_bounds(&m, ring, 4);
  }
  return m;
}

bool sup_cell_grid_end(const sup_cell_grid *g, const sup_map *m, double R, bool fits, sup_rng *rng,
                       arcnav_vec2 *out) {
  double eps = sup_map_tolerance(m);
  for (int attempt = 0; attempt < 400; ++attempt) {
    int x = (int)sup_rng_below(rng, (size_t)g->w), y = (int)sup_rng_below(rng, (size_t)g->h);
    if (g->blocked[y][x]) {
      continue;
    }
    arcnav_vec2 p = {x + 0.5, y + 0.5};
    if (!fits || sup_signed_distance_to_obstacles(m, p) >= R - 0.5 * eps) {
      *out = p;
      return true;
    }
  }
  return false;
}
