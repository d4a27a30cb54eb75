// SPDX-License-Identifier: MIT
#include "reference.h"

#include "touching.h"
#include "verify.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SUP_PI 3.14159265358979323846

typedef arcnav_vec2 vec;

typedef struct edge {
  vec a, b;
  vec lo, hi; // bounding box
} edge;

/// A centre the samples were placed around, for the excess estimate.
typedef struct hub {
  vec center;
  double rho; // true radius (R, or c + R)
} hub;

struct sup_reference {
  const sup_map *map;
  double R;
  double tol;
  double probe; ///< R = 0: the touching rule's probe distance
  int n_circle;
  edge *edges;
  size_t edge_count;
  hub *hubs;
  size_t hub_count;
  vec *samples;
  sup_sector *sectors; ///< per sample: the directions a path may leave it in (R = 0)
  size_t sample_count;
  uint8_t *vis; // sample_count^2: 0 unknown, 1 free, 2 blocked
  // The last flood (sup_reference_flood): its start, and per sample whether a path reaches it.
  vec flood_start;
  bool flood_start_free;
  uint8_t *flooded;
};

static void *xcalloc(size_t n, size_t size) {
  void *p = calloc(n == 0 ? 1 : n, size == 0 ? 1 : size);
  if (p == NULL) {
    fprintf(stderr, "support: out of memory\n");
    abort();
  }
  return p;
}

// As verify.c measures (sqrt, not hypot: see its vlen).
static double dist(vec a, vec b) {
  double dx = a.x - b.x, dy = a.y - b.y;
  return sqrt(dx * dx + dy * dy);
}

sup_reference_options sup_reference_default_options(const sup_map *map) {
  sup_reference_options o = {32, 0.0};
  vec lo, hi;
  if (sup_map_extent(map, &lo, &hi)) {
    o.edge_spacing = fmax(hi.x - lo.x, hi.y - lo.y) / 16.0;
  }
  return o;
}

// --- growing arrays --------------------------------------------------------------------------

typedef struct vec_list {
  vec *items;
  size_t count, capacity;
} vec_list;

static void push_vec(vec_list *l, vec v) {
  if (l->count == l->capacity) {
    l->capacity = l->capacity ? 2 * l->capacity : 256;
    vec *p = realloc(l->items, l->capacity * sizeof *p);
    if (p == NULL) {
      fprintf(stderr, "support: out of memory\n");
      abort();
    }
    l->items = p;
  }
  l->items[l->count++] = v;
}

// --- construction ----------------------------------------------------------------------------

typedef struct ring_walk {
  const sup_map *map;
  size_t polygon, hole; // hole 0 = outer ring
  bool bounds_done;
} ring_walk;

/// Next ring of the map (outer rings, holes, then the bounds), with whether the blocked material
/// lies inside it (outer rings) or outside (holes, bounds).
static const sup_ring *next_ring(ring_walk *w, bool *material_inside) {
  const sup_map *m = w->map;
  if (w->polygon < m->polygon_count) {
    const sup_polygon *p = &m->polygons[w->polygon];
    const sup_ring *r = w->hole == 0 ? &p->outer : &p->holes[w->hole - 1];
    *material_inside = w->hole == 0;
    if (++w->hole > p->hole_count) {
      w->hole = 0;
      ++w->polygon;
    }
    return r;
  }
  if (m->has_bounds && !w->bounds_done) {
    w->bounds_done = true;
    *material_inside = false;
    return &m->bounds;
  }
  return NULL;
}

static void add_if_free(const sup_reference *ref, vec_list *out, vec p) {
  if (sup_signed_distance_to_obstacles(ref->map, p) >= ref->R - ref->tol) {
    push_vec(out, p);
  }
}

static void add_circle_samples(const sup_reference *ref, vec_list *out, vec c, double rho) {
  if (rho <= 0.0) {
    add_if_free(ref, out, c);
    return;
  }
  double scaled = rho / cos(SUP_PI / ref->n_circle);
  for (int k = 0; k < ref->n_circle; ++k) {
    double a = 2.0 * SUP_PI * k / ref->n_circle;
    add_if_free(ref, out, (vec){c.x + scaled * cos(a), c.y + scaled * sin(a)});
  }
}

/// How many edges and circles pass within tol of p.
static size_t pieces_touching(const sup_reference *ref, vec p) {
  size_t count = 0;
  for (size_t i = 0; i < ref->edge_count; ++i) {
    count += sup_point_segment_distance(p, ref->edges[i].a, ref->edges[i].b) <= ref->tol;
  }
  for (size_t i = 0; i < ref->map->circle_count; ++i) {
    const sup_circle *c = &ref->map->circles[i];
    count += c->radius > 0.0 && fabs(dist(p, c->center) - c->radius) <= ref->tol;
  }
  return count;
}

/// R = 0, the touching rule (touching.h): a path may turn at a sample only within one free sector
/// around it. A sample where more than its own two edges meet is replaced by one copy per free
/// sector, each leaving only in its own directions (none for a sample walled in on a seam); the
/// others may leave in every direction.
static void split_by_sectors(sup_reference *ref) {
  enum { MAX_SECTORS = 16 };
  vec_list kept = {0};
  size_t capacity = ref->sample_count * MAX_SECTORS + 1;
  ref->sectors = xcalloc(capacity, sizeof *ref->sectors);
  for (size_t i = 0; i < ref->sample_count; ++i) {
    vec p = ref->samples[i];
    sup_sector found[MAX_SECTORS];
    size_t count = 1;
    found[0] = (sup_sector){0.0, 2.0 * SUP_PI};
    if (ref->R <= ref->tol && pieces_touching(ref, p) > 2) {
      count = sup_free_sectors(ref->map, p, ref->probe, found, MAX_SECTORS);
      if (count > MAX_SECTORS) {
        fprintf(stderr, "support: more than %d free sectors around a sample\n", MAX_SECTORS);
        abort();
      }
    }
    for (size_t k = 0; k < count; ++k) {
      ref->sectors[kept.count] = found[k];
      push_vec(&kept, p);
    }
  }
  free(ref->samples);
  ref->samples = kept.items;
  ref->sample_count = kept.count;
}

sup_reference *sup_reference_create(const sup_map *map, double R,
                                    const sup_reference_options *options) {
  sup_reference_options opt = options ? *options : sup_reference_default_options(map);
  if (opt.circle_samples < 8) {
    opt.circle_samples = 8;
  }
  sup_reference *ref = xcalloc(1, sizeof *ref);
  ref->map = map;
  ref->R = R;
  ref->n_circle = opt.circle_samples;
  ref->tol = 1e-3 * sup_map_tolerance(map);
  // A disk no wider than tol is a point at this precision, and segment_free() checks it as one.
  // Its samples must be the vertices themselves too: samples R away from a vertex lie up to R
  // inside the material, close enough to pass as free, and a segment from one of them slips past
  // the vertex instead of meeting it, which the point-agent check needs to split the segment.
  double rho = R <= ref->tol ? 0.0 : R;

  size_t edge_total = 0, vertex_total = 0;
  {
    ring_walk w = {map, 0, 0, false};
    bool inside;
    for (const sup_ring *r; (r = next_ring(&w, &inside)) != NULL;) {
      edge_total += r->count;
    }
  }
  vertex_total = edge_total;
  ref->edges = xcalloc(edge_total, sizeof *ref->edges);
  ref->hubs = xcalloc(vertex_total + map->circle_count, sizeof *ref->hubs);

  vec_list samples = {0};
  ring_walk w = {map, 0, 0, false};
  bool material_inside;
  for (const sup_ring *r; (r = next_ring(&w, &material_inside)) != NULL;) {
    // The free side is to the right of each edge when the material is on the left; the material
    // is on the left of a ccw outer ring and of a cw hole or bounds ring.
    bool ccw = sup_ring_signed_area(r) > 0.0;
    double side = (ccw == material_inside) ? 1.0 : -1.0; // +1: free side is the right
    for (size_t i = 0; i < r->count; ++i) {
      vec a = r->points[i];
      vec b = r->points[(i + 1) % r->count];
      edge *e = &ref->edges[ref->edge_count++];
      e->a = a;
      e->b = b;
      e->lo = (vec){fmin(a.x, b.x), fmin(a.y, b.y)};
      e->hi = (vec){fmax(a.x, b.x), fmax(a.y, b.y)};
      ref->hubs[ref->hub_count++] = (hub){a, rho};
      add_circle_samples(ref, &samples, a, rho);
      if (rho > 0.0) {
        double len = dist(a, b);
        vec n = {side * (b.y - a.y) / len, -side * (b.x - a.x) / len}; // right normal
        vec oa = {a.x + R * n.x, a.y + R * n.y};
        vec ob = {b.x + R * n.x, b.y + R * n.y};
        size_t parts = opt.edge_spacing > 0.0 ? (size_t)ceil(len / opt.edge_spacing) : 1;
        if (parts < 1) {
          parts = 1;
        }
        for (size_t k = 0; k <= parts; ++k) {
          double t = (double)k / (double)parts;
          add_if_free(ref, &samples, (vec){oa.x + (ob.x - oa.x) * t, oa.y + (ob.y - oa.y) * t});
        }
      } else if (opt.edge_spacing > 0.0) {
        double len = dist(a, b);
        size_t parts = (size_t)ceil(len / opt.edge_spacing);
        for (size_t k = 1; k < parts; ++k) {
          double t = (double)k / (double)parts;
          add_if_free(ref, &samples, (vec){a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t});
        }
      }
    }
  }
  for (size_t i = 0; i < map->circle_count; ++i) {
    const sup_circle *c = &map->circles[i];
    ref->hubs[ref->hub_count++] = (hub){c->center, c->radius + rho};
    add_circle_samples(ref, &samples, c->center, c->radius + rho);
  }
  ref->samples = samples.items;
  ref->sample_count = samples.count;
  ref->probe = sup_touch_probe_radius(map);
  split_by_sectors(ref);
  ref->vis = xcalloc(ref->sample_count * ref->sample_count, 1);
  return ref;
}

void sup_reference_destroy(sup_reference *ref) {
  if (ref == NULL) {
    return;
  }
  free(ref->edges);
  free(ref->hubs);
  free(ref->samples);
  free(ref->sectors);
  free(ref->vis);
  free(ref->flooded);
  free(ref);
}

size_t sup_reference_sample_count(const sup_reference *ref) {
  return ref->sample_count;
}

// --- segment checks ----------------------------------------------------------------------------

static int cmp_double(const void *pa, const void *pb) {
  double a = *(const double *)pa, b = *(const double *)pb;
  return a < b ? -1 : (a > b ? 1 : 0);
}

/// R = 0: split pq where it meets any edge or circle, and where it passes within tol of a vertex;
/// free when no part's middle is inside (deeper than tol).
///
/// Testing one point per part is sound only while each part lies wholly on one side of the
/// boundary, which exact crossings give. A segment passing a vertex closer than tol without
/// touching it meets neither edge there, so without the extra split one part could run from deep
/// inside to just beside the vertex and be judged by a middle point only rounding-deep.
static bool segment_free_point_agent(const sup_reference *ref, vec p, vec q) {
  size_t cap = 2 + 3 * ref->edge_count + 2 * ref->map->circle_count;
  double stack[256];
  double *ts = cap <= 256 ? stack : xcalloc(cap, sizeof *ts);
  size_t n = 0;
  ts[n++] = 0.0;
  ts[n++] = 1.0;
  vec d = {q.x - p.x, q.y - p.y};
  double dd = d.x * d.x + d.y * d.y;
  // A vertex within tol of pq lies within tol of its box: the box screens the distances.
  vec lo = {fmin(p.x, q.x) - ref->tol, fmin(p.y, q.y) - ref->tol};
  vec hi = {fmax(p.x, q.x) + ref->tol, fmax(p.y, q.y) + ref->tol};
  for (size_t i = 0; i < ref->edge_count; ++i) {
    const edge *e = &ref->edges[i];
    // Every vertex starts exactly one edge, so this visits each once.
    bool near_box = e->a.x >= lo.x && e->a.x <= hi.x && e->a.y >= lo.y && e->a.y <= hi.y;
    if (dd > 0.0 && near_box && sup_point_segment_distance(e->a, p, q) <= ref->tol) {
      double t = ((e->a.x - p.x) * d.x + (e->a.y - p.y) * d.y) / dd;
      if (t > 0.0 && t < 1.0) {
        ts[n++] = t;
      }
    }
    if (!sup_segments_intersect(p, q, e->a, e->b)) {
      continue;
    }
    vec f = {e->b.x - e->a.x, e->b.y - e->a.y};
    double den = d.x * f.y - d.y * f.x;
    if (den != 0.0) {
      double t = ((e->a.x - p.x) * f.y - (e->a.y - p.y) * f.x) / den;
      ts[n++] = fmin(1.0, fmax(0.0, t));
    } else {
      // Collinear overlap: the edge's ends projected on pq.
      ts[n++] = fmin(1.0, fmax(0.0, ((e->a.x - p.x) * d.x + (e->a.y - p.y) * d.y) / dd));
      ts[n++] = fmin(1.0, fmax(0.0, ((e->b.x - p.x) * d.x + (e->b.y - p.y) * d.y) / dd));
    }
  }
  for (size_t i = 0; i < ref->map->circle_count; ++i) {
    const sup_circle *c = &ref->map->circles[i];
    vec m = {p.x - c->center.x, p.y - c->center.y};
    double b = m.x * d.x + m.y * d.y;
    double cc = m.x * m.x + m.y * m.y - c->radius * c->radius;
    double disc = b * b - dd * cc;
    if (disc > 0.0) {
      double s = sqrt(disc);
      double t0 = (-b - s) / dd, t1 = (-b + s) / dd;
      if (t0 > 0.0 && t0 < 1.0) {
        ts[n++] = t0;
      }
      if (t1 > 0.0 && t1 < 1.0) {
        ts[n++] = t1;
      }
    }
  }
  qsort(ts, n, sizeof *ts, cmp_double);
  bool free_path = true;
  for (size_t i = 0; i + 1 < n && free_path; ++i) {
    if (ts[i + 1] - ts[i] < 1e-12) {
      continue;
    }
    double t = 0.5 * (ts[i] + ts[i + 1]);
    vec m = {p.x + d.x * t, p.y + d.y * t};
    if (sup_signed_distance_to_obstacles(ref->map, m) < -ref->tol) {
      free_path = false;
    }
  }
  if (ts != stack) {
    free(ts);
  }
  // Obstacles that touch are one wall: no passing between them along a seam or through a pinch.
  return free_path && !sup_segment_passes_between(ref->map, p, q, ref->tol, ref->probe);
}

/// Both ends must already be free.
static bool segment_free(const sup_reference *ref, vec p, vec q) {
  double R = ref->R;
  if (R <= ref->tol) {
    return segment_free_point_agent(ref, p, q);
  }
  double limit = R - ref->tol;
  vec lo = {fmin(p.x, q.x) - R, fmin(p.y, q.y) - R};
  vec hi = {fmax(p.x, q.x) + R, fmax(p.y, q.y) + R};
  for (size_t i = 0; i < ref->map->circle_count; ++i) {
    const sup_circle *c = &ref->map->circles[i];
    if (sup_point_segment_distance(c->center, p, q) - c->radius < limit) {
      return false;
    }
  }
  for (size_t i = 0; i < ref->edge_count; ++i) {
    const edge *e = &ref->edges[i];
    if (e->hi.x < lo.x || e->lo.x > hi.x || e->hi.y < lo.y || e->lo.y > hi.y) {
      continue;
    }
    if (sup_segment_segment_distance(p, q, e->a, e->b) < limit) {
      return false;
    }
  }
  return true;
}

// --- search ------------------------------------------------------------------------------------

/// Start and goal: far enough from the obstacles, and at R = 0 not walled in on a seam.
static bool end_is_free(const sup_reference *ref, vec p) {
  return sup_signed_distance_to_obstacles(ref->map, p) >= ref->R - ref->tol &&
         (ref->R > ref->tol || !sup_walled_in(ref->map, p, ref->probe));
}

/// Samples leave only within their sectors; start and goal in every direction.
static bool leaves_within_sector(const sup_reference *ref, size_t from, vec from_point, vec to) {
  if (from >= ref->sample_count) {
    return true;
  }
  vec dir = {to.x - from_point.x, to.y - from_point.y};
  if (hypot(dir.x, dir.y) <= ref->tol) {
    // Copies of one sample for different sectors must not join: that would pass between them.
    // Nor may copies of two samples closer than the tolerance (a vertex of one obstacle on
    // another's corner, apart by rounding): between them a direction means nothing.
    return ref->sectors[from].sweep >= 2.0 * SUP_PI;
  }
  return sup_sector_holds(&ref->sectors[from], dir);
}

/// Are nodes u and v (samples below sample_count, else the start or the goal) joined by an edge
/// of the graph the search runs on? Uncached.
static bool joined(const sup_reference *ref, size_t u, vec pu, size_t v, vec pv) {
  return leaves_within_sector(ref, u, pu, pv) && leaves_within_sector(ref, v, pv, pu) &&
         segment_free(ref, pu, pv);
}

/// Sample pair (u, v) joined? Through the cache.
static bool samples_joined(sup_reference *ref, size_t u, size_t v) {
  size_t n = ref->sample_count;
  uint8_t *slot = &ref->vis[u * n + v];
  if (*slot == 0) {
    *slot = joined(ref, u, ref->samples[u], v, ref->samples[v]) ? 1 : 2;
    ref->vis[v * n + u] = *slot;
  }
  return *slot == 1;
}

void sup_reference_flood(sup_reference *ref, arcnav_vec2 start) {
  size_t n = ref->sample_count;
  if (!ref->flooded) {
    ref->flooded = xcalloc(n, 1);
  }
  memset(ref->flooded, 0, n);
  ref->flood_start = start;
  ref->flood_start_free = end_is_free(ref, start);
  if (!ref->flood_start_free) {
    return;
  }
  size_t *queue = xcalloc(n, sizeof *queue);
  size_t head = 0, tail = 0;
  for (size_t v = 0; v < n; ++v) {
    if (joined(ref, n, start, v, ref->samples[v])) {
      ref->flooded[v] = 1;
      queue[tail++] = v;
    }
  }
  while (head < tail) {
    size_t u = queue[head++];
    for (size_t v = 0; v < n; ++v) {
      if (!ref->flooded[v] && v != u && samples_joined(ref, u, v)) {
        ref->flooded[v] = 1;
        queue[tail++] = v;
      }
    }
  }
  free(queue);
}

bool sup_reference_reaches(sup_reference *ref, arcnav_vec2 goal) {
  size_t n = ref->sample_count;
  vec start = ref->flood_start;
  if (!ref->flooded || !ref->flood_start_free || !end_is_free(ref, goal)) {
    return false;
  }
  if ((start.x == goal.x && start.y == goal.y) || joined(ref, n, start, n + 1, goal)) {
    return true;
  }
  for (size_t v = 0; v < n; ++v) {
    if (ref->flooded[v] && joined(ref, v, ref->samples[v], n + 1, goal)) {
      return true;
    }
  }
  return false;
}

sup_reference_result sup_reference_query(sup_reference *ref, arcnav_vec2 start, arcnav_vec2 goal) {
  sup_reference_result res = {0};
  res.length = INFINITY;
  res.start_free = end_is_free(ref, start);
  res.goal_free = end_is_free(ref, goal);
  if (!res.start_free || !res.goal_free) {
    return res;
  }
  if (start.x == goal.x && start.y == goal.y) {
    res.found = true;
    res.length = 0.0;
    res.vertex_count = 1;
    return res;
  }
  size_t n = ref->sample_count;
  size_t S = n, G = n + 1, total = n + 2;
  double *g = xcalloc(total, sizeof *g);
  size_t *parent = xcalloc(total, sizeof *parent);
  uint8_t *done = xcalloc(total, 1);
  uint8_t *vis_start = xcalloc(total, 1); // visibility from the start, 0 unknown, 1 free, 2 not
  uint8_t *vis_goal = xcalloc(total, 1);
  // The straight-line heuristic, measured once: the selection below scans every sample per step.
  double *to_goal = xcalloc(total, sizeof *to_goal);
#define POINT(i) ((i) < n ? ref->samples[i] : ((i) == S ? start : goal))
  for (size_t i = 0; i < total; ++i) {
    g[i] = INFINITY;
    parent[i] = SIZE_MAX;
    to_goal[i] = dist(POINT(i), goal);
  }
  g[S] = 0.0;
  for (;;) {
    size_t u = SIZE_MAX;
    double best = INFINITY;
    for (size_t i = 0; i < total; ++i) {
      if (!done[i] && g[i] < INFINITY) {
        double f = g[i] + to_goal[i];
        if (f < best) {
          best = f;
          u = i;
        }
      }
    }
    if (u == SIZE_MAX) {
      break;
    }
    done[u] = 1;
    if (u == G) {
      break;
    }
    vec pu = POINT(u);
    for (size_t v = 0; v < total; ++v) {
      // A pair of samples known to be blocked needs no distance.
      if (done[v] || v == u || (u < n && v < n && ref->vis[u * n + v] == 2)) {
        continue;
      }
      vec pv = POINT(v);
      // The distance is at least the larger of its coordinates' differences, and rounding keeps
      // that order: a sample this bound does not improve is left without measuring.
      if (!(g[u] + fmax(fabs(pu.x - pv.x), fabs(pu.y - pv.y)) < g[v])) {
        continue;
      }
      double nd = g[u] + dist(pu, pv);
      if (!(nd < g[v])) {
        continue;
      }
      // Cached visibility: sample pairs in ref->vis, pairs with the start or goal per query.
      bool free_pair;
      if (u < n && v < n) {
        res.pairs_checked += ref->vis[u * n + v] == 0;
        free_pair = samples_joined(ref, u, v);
      } else {
        uint8_t *slot = u == S || v == S ? &vis_start[u == S ? v : u] : &vis_goal[u == G ? v : u];
        if (*slot == 0) {
          *slot = joined(ref, u, pu, v, pv) ? 1 : 2;
          res.pairs_checked++;
        }
        free_pair = *slot == 1;
      }
      if (free_pair) {
        g[v] = nd;
        parent[v] = u;
      }
    }
  }
#undef POINT
  if (g[G] < INFINITY) {
    res.found = true;
    res.length = g[G];
    size_t count = 1;
    for (size_t i = G; i != S; i = parent[i]) {
      ++count;
    }
    res.vertex_count = count;
  }
  free(g);
  free(parent);
  free(done);
  free(vis_start);
  free(vis_goal);
  free(to_goal);
  return res;
}

sup_reference_result sup_reference_shortest(const sup_map *map, double R, arcnav_vec2 start,
                                            arcnav_vec2 goal,
                                            const sup_reference_options *options) {
  sup_reference *ref = sup_reference_create(map, R, options);
  sup_reference_result res = sup_reference_query(ref, start, goal);
  sup_reference_destroy(ref);
  return res;
}

// --- tolerance model ---------------------------------------------------------------------------

double sup_reference_wrap_excess(const sup_reference *ref, double rho, double theta) {
  double D = 2.0 * SUP_PI / ref->n_circle;
  return (theta + D) * rho * (1.0 / cos(0.5 * D) - 1.0);
}

double sup_reference_excess_estimate(const sup_reference *ref, const arcnav_piece *pieces,
                                     size_t count) {
  double total = 0.0;
  double widen = 1.0 / cos(SUP_PI / ref->n_circle);
  for (size_t i = 0; i < count; ++i) {
    const arcnav_piece *pc = &pieces[i];
    if (pc->type == ARCNAV_PIECE_ARC) {
      total += sup_reference_wrap_excess(ref, pc->radius, pc->sweep);
      continue;
    }
    for (size_t h = 0; h < ref->hub_count; ++h) {
      const hub *c = &ref->hubs[h];
      if (c->rho > 0.0 &&
          sup_point_segment_distance(c->center, pc->from, pc->to) < c->rho * widen) {
        total += sup_reference_wrap_excess(ref, c->rho, 0.0);
      }
    }
  }
  return total;
}
