// SPDX-License-Identifier: MIT
// The funnel searches (plain A* over triangles and optimal TA*) with their incremental funnel, and
// where a query starts and ends. Their memory is in funnel_scratch.c.
#include "funnel/funnel.h"

#include "funnel/funnel_scratch.h"
#include "geom/predicates.h"
#include "search/engine.h"
#include "search/heap.h"
#include "search/marks.h"

#include <float.h>
#include <math.h>
#include <string.h>

// Each search is built twice, once per value of its `general` flag, as functions of their own
// (SEARCH_BODY into SEARCH_VERSION); the helpers on their hot path (HOT) are inlined into each.
#if defined(__GNUC__)
#define SEARCH_BODY static inline __attribute__((always_inline))
#define SEARCH_VERSION static __attribute__((noinline))
#define HOT static inline __attribute__((always_inline))
#else
#define SEARCH_BODY static inline
#define SEARCH_VERSION static
#define HOT static inline
#endif

// ---------------------------------------------------------------------------------------------
// Finishing a path
// ---------------------------------------------------------------------------------------------

size_t an_funnel_merge_collinear(vec2 *p, size_t n) {
  if (n < 3) {
    return n;
  }
  size_t w = 1;
  for (size_t i = 1; i + 1 < n; ++i) {
    vec2 a = p[w - 1], b = p[i], c = p[i + 1];
    bool on = an_orient2d(a, b, c) == 0.0 && v2_dot(v2_sub(b, a), v2_sub(c, b)) > 0.0;
    if (!on) {
      p[w++] = b;
    }
  }
  p[w++] = p[n - 1];
  return w;
}

static double polyline_length(const vec2 *p, size_t n) {
  double len = 0.0;
  for (size_t i = 1; i < n; ++i) {
    len += v2_dist(p[i - 1], p[i]);
  }
  return len;
}

// ---------------------------------------------------------------------------------------------
// The triangles a query walks: the mesh's free triangles, then its own beyond the box. A box
// triangle leads across its box edge into the goal's fan there (never into the start's: a path
// that left the start's fan, every point of which the start sees, never needs to come back).
// ---------------------------------------------------------------------------------------------

static int32_t box_link(const an_funnel_scratch *s, int32_t t, int k) {
  for (int e = 0; e < 4; ++e) {
    if (s->goal_fan[e] >= 0 && s->mesh->box_tri[e] == t && s->mesh->box_edge[e] == k) {
      return s->goal_fan[e];
    }
  }
  return -1;
}

static inline int32_t tri_vertex(const an_funnel_scratch *s, int32_t t, int k) {
  size_t i = (size_t)t;
  return i < s->tri_count ? s->mesh->fv[3 * i + (size_t)k]
                          : s->vfv[3 * (i - s->tri_count) + (size_t)k];
}

/// Triangle t's vertices and neighbours (across edge k, opposite vertex k; -1 for none), except
/// that a box triangle's neighbour across its box edge is the goal's fan there when there is one
/// (see tri_next()).
static inline void tri_arrays(const an_funnel_scratch *s, int32_t t, const int32_t **v,
                              const int32_t **n) {
  size_t i = (size_t)t;
  if (i < s->tri_count) {
    *v = &s->mesh->fv[3 * i];
    *n = &s->mesh->fn[3 * i];
  } else {
    *v = &s->vfv[3 * (i - s->tri_count)];
    *n = &s->vfn[3 * (i - s->tri_count)];
  }
}

/// The neighbour across edge k given tri_arrays()' row `n` of triangle t.
static inline int32_t next_of(const an_funnel_scratch *s, const int32_t *n, int32_t t, int k) {
  int32_t u = n[k];
  return u < 0 && s->goal_fan_used ? box_link(s, t, k) : u;
}

/// The triangle across edge k of t (opposite its vertex k), or -1.
static inline int32_t tri_next(const an_funnel_scratch *s, int32_t t, int k) {
  size_t i = (size_t)t;
  if (i >= s->tri_count) {
    return s->vfn[3 * (i - s->tri_count) + (size_t)k];
  }
  int32_t u = s->mesh->fn[3 * i + (size_t)k];
  return u < 0 && s->goal_fan_used ? box_link(s, t, k) : u;
}

/// A vertex's position: a mesh point, or (negative) the start or the goal beyond the box.
static inline vec2 vertex_point(const an_funnel_scratch *s, int32_t v) {
  return v >= 0 ? s->mesh->cdt.points[v] : s->vpoint[-1 - v];
}

static inline bool is_goal(const an_funnel_scratch *s, int32_t t) {
  return s->goal_single >= 0 ? t == s->goal_single : s->goal_mark[t] == s->stamp;
}

// ---------------------------------------------------------------------------------------------
// The incremental funnel over cells. A channel step adds one vertex to one side of the funnel;
// the chain on that side loses its end cells that the new vertex makes redundant, and when it
// loses all of them, the apex moves along the other chain to the last cell whose incoming edge
// the new vertex crosses. Both are searches for where an orientation test flips along a convex
// chain, done from the chain's end with jump pointers, so a step costs O(log n) even when
// channels branch and share their chains.
// ---------------------------------------------------------------------------------------------

static inline vec2 cell_point(const an_funnel_scratch *s, int32_t c) {
  int32_t v = s->cells[c].vertex;
  return v >= 0 ? s->mesh->cdt.points[v] : s->start;
}

/// Writes a cell for `vertex` at p after `prev` (-1: the path's first cell) into the next free
/// slot without taking it: the caller keeps it with ++cell_count. The caller made room for it.
static void cell_put(an_funnel_scratch *s, int32_t vertex, vec2 p, int32_t prev) {
  int32_t id = (int32_t)s->cell_count;
  an_fn_cell c = {.vertex = vertex, .prev = prev, .jump = id, .depth = 0, .dist = 0.0};
  if (prev >= 0) {
    const an_fn_cell *pc = &s->cells[prev], *jc = &s->cells[pc->jump];
    c.jump = pc->depth - jc->depth == jc->depth - s->cells[jc->jump].depth ? jc->jump : prev;
    c.depth = pc->depth + 1;
    c.dist = pc->dist + v2_dist(cell_point(s, prev), p);
  }
  s->cells[id] = c;
}

/// Whether p lies strictly on the `sign` side (+1 left, -1 right) of the edge into cell c.
static bool turns(const an_funnel_scratch *s, int32_t c, vec2 p, double sign) {
  return sign * an_orient2d(cell_point(s, s->cells[c].prev), cell_point(s, c), p) > 0.0;
}

/// For p on the line of the edge a -> b: whether it lies before b (exact: along a line, the
/// order of points is the order of one coordinate that changes along it). A zero-length edge
/// has no "before".
static bool before_end(vec2 a, vec2 b, vec2 p) {
  if (a.x != b.x) {
    return a.x < b.x ? p.x < b.x : p.x > b.x;
  }
  if (a.y != b.y) {
    return a.y < b.y ? p.y < b.y : p.y > b.y;
  }
  return false;
}

/// Whether p, the new end of the `sign` chain, is beyond the other chain's edge into cell c, so
/// that its path leaves from c or later. A p on the edge itself before its end is not: the edge's
/// start sees it along the edge (a goal lying on an obstacle side that the chain runs along).
/// A p at the edge's end, or on an edge of zero length (at a pinch's portal of zero width), is
/// beyond: there the apex moves to a cell at p's own position, which shortens nothing.
static bool crosses(const an_funnel_scratch *s, int32_t c, vec2 p, double sign) {
  vec2 a = cell_point(s, s->cells[c].prev), b = cell_point(s, c);
  double o = sign * an_orient2d(a, b, p);
  return o < 0.0 || (o == 0.0 && !before_end(a, b, p));
}

static bool holds(const an_funnel_scratch *s, int32_t c, vec2 p, double sign, bool own) {
  return own ? turns(s, c, p, sign) : crosses(s, c, p, sign);
}

/// Along the path from `apex` (excluded) to `tail`, the cells where the test holds come first:
/// on p's own chain (`own`) the test is turns(), on the other chain crosses(). Returns the last
/// cell where it holds, `apex` when there is none.
static int32_t last_turning(const an_funnel_scratch *s, int32_t tail, int32_t apex, vec2 p,
                            double sign, bool own) {
  int32_t floor = s->cells[apex].depth, x = tail;
  bool known_not = false; // the test is already known to fail at x
  while (x != apex) {
    if (!known_not && holds(s, x, p, sign, own)) {
      return x;
    }
    int32_t j = s->cells[x].jump;
    if (s->cells[j].depth > floor && !holds(s, j, p, sign, own)) {
      x = j;
      known_not = true;
    } else {
      x = s->cells[x].prev;
      known_not = false;
    }
  }
  return apex;
}

/// Where vertex point p goes as the new end of the funnel's left (or right) chain: the new apex
/// and the cell p follows on its path.
static void funnel_place(const an_funnel_scratch *s, an_fn_funnel f, bool left, vec2 p,
                         int32_t *apex, int32_t *prev) {
  double sign = left ? 1.0 : -1.0;
  // On its own chain, p keeps the cells it turns away from (left of a left chain's edge).
  int32_t c = last_turning(s, left ? f.left : f.right, f.apex, p, sign, true);
  if (c != f.apex) {
    *apex = f.apex;
    *prev = c;
    return;
  }
  // It sees the apex: the apex moves to the end of the last edge of the other chain p is beyond.
  int32_t k = last_turning(s, left ? f.right : f.left, f.apex, p, sign, false);
  *apex = k;
  *prev = k;
}

/// The funnel after crossing into the next triangle through portal (l, r), which shares one end
/// with f's portal. The new end's cell is written, not taken (the caller made room for it).
HOT void funnel_step(an_funnel_scratch *s, an_fn_funnel f, int32_t l, int32_t r,
                     an_fn_funnel *out) {
  // By vertex id, not position: at a pinch the mesh has portals of zero width (v, v), and the
  // new end is v again on the side that did not hold it; the zero-length edge then makes v the
  // apex through the orientation tests' zeros.
  bool left = s->cells[f.left].vertex != l;
  int32_t v = left ? l : r, apex, prev;
  vec2 p = vertex_point(s, v);
  funnel_place(s, f, left, p, &apex, &prev);
  cell_put(s, v, p, prev);
  int32_t id = (int32_t)s->cell_count;
  *out = left ? (an_fn_funnel){apex, id, f.right} : (an_fn_funnel){apex, f.left, id};
}

/// The cell the goal's path leaves from, and (when `length` is not NULL) the path's length.
static int32_t goal_prev(const an_funnel_scratch *s, an_fn_funnel f, vec2 goal, double *length) {
  int32_t apex, prev;
  funnel_place(s, f, true, goal, &apex, &prev);
  if (length) {
    *length = s->cells[prev].dist + v2_dist(cell_point(s, prev), goal);
  }
  return prev;
}

/// The start's cell (0) and, for each of the `count` root triangles, cells for its corners (three
/// from 1 + 3 * k, in the order of its vertices). The caller made room for them.
static void start_cells(an_funnel_scratch *s, const int32_t *roots, size_t count, vec2 start) {
  s->start = start;
  s->cell_count = 0;
  cell_put(s, -1, start, -1);
  s->cell_count++;
  for (size_t r = 0; r < count; ++r) {
    for (int k = 0; k < 3; ++k) {
      int32_t v = tri_vertex(s, roots[r], k);
      cell_put(s, v, vertex_point(s, v), 0);
      s->cell_count++;
    }
  }
}

/// The funnel right after leaving root triangle `st`, whose corner cells start at `base`, through
/// portal (l, r).
static an_fn_funnel first_funnel(const an_funnel_scratch *s, int32_t st, int32_t base, int32_t l,
                                 int32_t r) {
  an_fn_funnel f = {0, 0, 0};
  for (int k = 0; k < 3; ++k) {
    int32_t v = tri_vertex(s, st, k);
    if (v == l) {
      f.left = base + k;
    }
    if (v == r) {
      f.right = base + k;
    }
  }
  return f;
}

/// The path start .. cell `last` .. goal into the points buffer.
static arcnav_status finish_points(an_funnel_scratch *s, int32_t last, vec2 goal,
                                   an_funnel_result *out) {
  size_t n = (size_t)s->cells[last].depth + 2, at = n - 1;
  s->points[at] = goal;
  for (int32_t c = last; c >= 0; c = s->cells[c].prev) {
    vec2 p = cell_point(s, c);
    if (p.x != s->points[at].x || p.y != s->points[at].y) {
      s->points[--at] = p;
    }
  }
  size_t count = n - at;
  memmove(s->points, s->points + at, count * sizeof *s->points);
  if (count == 1) {
    s->points[count++] = goal; // start == goal
  }
  out->points = s->points;
  out->point_count = an_funnel_merge_collinear(s->points, count);
  out->length = polyline_length(s->points, out->point_count);
  return ARCNAV_OK;
}

// ---------------------------------------------------------------------------------------------
// Portals
// ---------------------------------------------------------------------------------------------

/// Portal through edge `edge` of free triangle `tri`, as seen by a traveller leaving the triangle:
/// the edge runs counter-clockwise around the triangle, so its first vertex is on the right.
static inline void portal_ids(const an_funnel_scratch *s, int32_t tri, int edge, int32_t *left,
                              int32_t *right) {
  *right = tri_vertex(s, tri, an_cdt_next3(edge));
  *left = tri_vertex(s, tri, an_cdt_prev3(edge));
}

// ---------------------------------------------------------------------------------------------
// Plain mode: Detour-style A* over triangles, one channel
// ---------------------------------------------------------------------------------------------

/// The searches come in two versions: `general` for queries with triangles beyond the box or
/// with several goal triangles, and one without those checks for the usual query (one goal
/// triangle, all in the mesh), which they would slow down by a few percent.
static void plain_setup(an_funnel_scratch *s, vec2 start, vec2 goal) {
  an_heap_clear(&s->heap);
  for (size_t k = 0; k < s->start_count; ++k) {
    int32_t st = s->starts[k];
    s->tri_stamp[st] = s->stamp;
    s->g[st] = 0.0;
    s->pos[st] = start;
    s->parent[st] = -1;
    an_heap_push_or_set_sift_up(&s->heap, (uint32_t)st, v2_dist(start, goal));
  }
}

/// The channel of the triangles from a start triangle to `end_tri` (parent links), string-pulled
/// from the start to `end`, a point of end_tri.
static arcnav_status channel_path(an_funnel_scratch *s, int32_t end_tri, vec2 end,
                                  an_funnel_result *out) {
  size_t n = 0;
  for (int32_t t = end_tri; t >= 0; t = s->parent[t]) {
    s->chain[n++] = t;
  }
  // chain[n-1] is a start triangle; the funnel walks from it towards the end, a cell a step.
  int32_t st = s->chain[n - 1];
  s->node_count = 0;
  s->cell_count = 0;
  if (!an_funnel_pool_room(s, 0, n + 4)) {
    return ARCNAV_ERR_OUT_OF_MEMORY;
  }
  start_cells(s, &st, 1, s->start);
  an_fn_funnel f = {0, 0, 0};
  for (size_t k = 0; k + 1 < n; ++k) {
    int32_t from = s->chain[n - 1 - k], to = s->chain[n - 2 - k];
    int edge = 0;
    while (tri_next(s, from, edge) != to) {
      ++edge;
    }
    int32_t l, r;
    portal_ids(s, from, edge, &l, &r);
    if (k == 0) {
      f = first_funnel(s, st, 1, l, r);
    } else {
      funnel_step(s, f, l, r, &f);
      s->cell_count++;
    }
  }
  out->channels = 1;
  return finish_points(s, goal_prev(s, f, end, NULL), end, out);
}

/// The searches come in two versions: `general` for queries with triangles beyond the box or
/// with several goal triangles, and one without those checks for the usual query (one goal
/// triangle, all in the mesh), which they would slow down by a few percent.
SEARCH_BODY arcnav_status plain_search_with(an_funnel_scratch *s, size_t max_expansions,
                                            size_t pause_at, an_funnel_result *out, bool general) {
  const vec2 goal = s->goal;
  int32_t gt = -1;
  const int32_t goal_single = s->goal_single;
  const uint32_t stamp = s->stamp;
  while (!an_heap_empty(&s->heap)) {
    if (!an_may_expand(out->nodes_expanded, max_expansions)) {
      return ARCNAV_SEARCH_LIMIT;
    }
    if (out->nodes_expanded >= pause_at) {
      return ARCNAV_IN_PROGRESS;
    }
    int32_t t = (int32_t)an_heap_pop(&s->heap, NULL);
    out->nodes_expanded++;
    if (general ? is_goal(s, t) : t == goal_single) {
      gt = t;
      break;
    }
    // The triangle's entry may move when a shorter way reaches it again; its place stays in it.
    if (an_nearer_than(&s->near_distance, v2_dist(s->pos[t], goal))) {
      s->near = t;
      s->near_point = s->pos[t];
    }
    const int32_t *tv = &s->mesh->fv[3 * (size_t)t], *tn = &s->mesh->fn[3 * (size_t)t];
    if (general) {
      tri_arrays(s, t, &tv, &tn);
    }
    for (int i = 0; i < 3; ++i) {
      int32_t u = general ? next_of(s, tn, t, i) : tn[i];
      if (u < 0) {
        continue;
      }
      // The edge runs counter-clockwise round t: its first vertex is on the traveller's right.
      int32_t r = tv[an_cdt_next3(i)], l = tv[an_cdt_prev3(i)];
      vec2 pl = general ? vertex_point(s, l) : s->mesh->cdt.points[l];
      vec2 pr = general ? vertex_point(s, r) : s->mesh->cdt.points[r];
      vec2 mid = v2_scale(v2_add(pl, pr), 0.5);
      double cost = s->g[t] + v2_dist(s->pos[t], mid);
      double h = v2_dist(mid, goal);
      if (general ? is_goal(s, u) : u == goal_single) {
        cost += h; // the goal's cost is exact once its triangle is reached
        h = 0.0;
      }
      bool seen = s->tri_stamp[u] == stamp;
      if (seen && cost >= s->g[u]) {
        continue;
      }
      s->tri_stamp[u] = stamp;
      s->g[u] = cost;
      s->pos[u] = mid;
      s->parent[u] = t;
      an_heap_push_or_set_sift_up(&s->heap, (uint32_t)u, cost + h);
    }
  }
  if (gt < 0) {
    return ARCNAV_NO_PATH;
  }
  return channel_path(s, gt, goal, out);
}

SEARCH_VERSION arcnav_status plain_search_usual(an_funnel_scratch *s, size_t max_expansions,
                                                size_t pause_at, an_funnel_result *out) {
  return plain_search_with(s, max_expansions, pause_at, out, false);
}

SEARCH_VERSION arcnav_status plain_search_general(an_funnel_scratch *s, size_t max_expansions,
                                                  size_t pause_at, an_funnel_result *out) {
  return plain_search_with(s, max_expansions, pause_at, out, true);
}

// ---------------------------------------------------------------------------------------------
// Optimal mode: TA*
// ---------------------------------------------------------------------------------------------

/// min over x on segment pq of |a - x| + |x - g|: the function is convex along the segment, and
/// its minimiser on the whole line is where the segment from a to g (g mirrored to the other side
/// when both are on one side) meets it.
HOT double through_segment(vec2 a, vec2 p, vec2 q, vec2 g) {
  vec2 d = v2_sub(q, p);
  double len2 = v2_len2(d);
  if (len2 == 0.0) {
    return v2_dist(a, p) + v2_dist(p, g);
  }
  double ta = v2_dot(v2_sub(a, p), d) / len2, tg = v2_dot(v2_sub(g, p), d) / len2;
  double ha = fabs(v2_cross(d, v2_sub(a, p))), hg = fabs(v2_cross(d, v2_sub(g, p)));
  double t;
  if (ha + hg > 0.0) {
    t = ta + (tg - ta) * ha / (ha + hg);
  } else {
    t = an_min(an_max(0.5, an_min(ta, tg)), an_max(ta, tg));
  }
  t = an_min(an_max(t, 0.0), 1.0);
  vec2 x = v2_mul_add(p, t, d);
  return v2_dist(a, x) + v2_dist(x, g);
}

/// The ancestor of `node` at `depth` (<= its own).
static int32_t ancestor_at(const an_funnel_scratch *s, int32_t node, int32_t depth) {
  while (s->nodes[node].depth > depth) {
    int32_t j = s->nodes[node].jump;
    node = s->nodes[j].depth >= depth ? j : s->nodes[node].parent;
  }
  return node;
}

HOT bool chain_contains(const an_funnel_scratch *s, int32_t node, int32_t tri) {
  uint64_t bit = (uint64_t)1 << ((uint32_t)tri & 63u);
  if (!(s->nodes[node].signature & bit) || s->tri_stamp[tri] != s->stamp) {
    return false;
  }
  int32_t depth = s->nodes[node].depth;
  for (int32_t m = s->parent[tri]; m >= 0; m = s->nodes[m].same_tri) {
    if (s->nodes[m].depth <= depth && ancestor_at(s, node, s->nodes[m].depth) == m) {
      return true;
    }
  }
  return false;
}

/// Records node `id` as the newest in its triangle and sets its jump pointer.
static void link_node(an_funnel_scratch *s, int32_t id) {
  an_ta_node *n = &s->nodes[id];
  n->same_tri = s->tri_stamp[n->tri] == s->stamp ? s->parent[n->tri] : -1;
  s->tri_stamp[n->tri] = s->stamp;
  s->parent[n->tri] = id;
  n->jump = id;
  if (n->parent >= 0) {
    const an_ta_node *p = &s->nodes[n->parent], *j = &s->nodes[p->jump];
    n->jump = p->depth - j->depth == j->depth - s->nodes[j->jump].depth ? j->jump : n->parent;
  }
}

/// The funnel of the channel of node `id` continued through its triangle's edge `edge` (portal
/// (l, r)); a new cell is written, not taken (a root's children write none).
static inline an_fn_funnel child_funnel(an_funnel_scratch *s, int32_t id, int32_t l, int32_t r) {
  const an_ta_node *n = &s->nodes[id];
  if (n->parent < 0) {
    return first_funnel(s, n->tri, n->funnel.left, l, r);
  }
  an_fn_funnel out;
  funnel_step(s, n->funnel, l, r, &out);
  return out;
}

static bool optimal_setup(an_funnel_scratch *s, vec2 start, vec2 goal) {
  an_heap_clear(&s->heap);
  s->node_count = 0;
  s->cell_count = 0;
  s->best = INFINITY;
  s->best_node = -1;
  // The roots: one per start triangle, their corners' cells after the start's (kept in the root's
  // funnel.left).
  if (!an_funnel_pool_room(s, s->start_count, 3 * s->start_count + 2)) {
    return false;
  }
  start_cells(s, s->starts, s->start_count, start);
  for (size_t k = 0; k < s->start_count; ++k) {
    int32_t st = s->starts[k];
    int32_t base = (int32_t)(1 + 3 * k);
    s->nodes[k] = (an_ta_node){.tri = st,
                               .parent = -1,
                               .depth = 0,
                               .funnel = {0, base, base},
                               .signature = (uint64_t)1 << ((uint32_t)st & 63u)};
    link_node(s, (int32_t)k);
    an_heap_push(&s->heap, (uint32_t)k, v2_dist(start, goal));
  }
  s->node_count = s->start_count;
  return true;
}

SEARCH_BODY arcnav_status optimal_search_with(an_funnel_scratch *s, size_t max_expansions,
                                              size_t pause_at, an_funnel_result *out,
                                              bool general) {
  const int32_t goal_single = s->goal_single;
  const vec2 goal = s->goal;
  while (!an_heap_empty(&s->heap)) {
    if (out->nodes_expanded >= pause_at) {
      return ARCNAV_IN_PROGRESS;
    }
    an_heap_entry top = an_heap_pop_entry(&s->heap);
    if (top.key >= s->best) {
      break;
    }
    int32_t id = (int32_t)top.id;
    an_ta_node node = s->nodes[id];
    int32_t apex_vertex = s->cells[node.funnel.apex].vertex;
    if (apex_vertex >= 0 && s->cells[node.funnel.apex].dist >
                                s->apex_best[apex_vertex] * (1.0 + AN_DOMINANCE_RELATIVE)) {
      continue; // dominated since it was queued
    }
    if (!an_may_expand(out->nodes_expanded, max_expansions)) {
      return ARCNAV_SEARCH_LIMIT;
    }
    out->nodes_expanded++;
    if (an_nearer_than(&s->near_distance, v2_dist(cell_point(s, node.funnel.apex), goal))) {
      s->near = node.funnel.apex;
    }
    // Up to three children: their nodes, cells and heap entries, and the cell the best channel's
    // last step writes at the end.
    if (!an_funnel_pool_room(s, 3, 4)) {
      return ARCNAV_ERR_OUT_OF_MEMORY;
    }
    int32_t parent_tri = node.parent >= 0 ? s->nodes[node.parent].tri : -1;
    const int32_t *tv = &s->mesh->fv[3 * (size_t)node.tri],
                  *tn = &s->mesh->fn[3 * (size_t)node.tri];
    if (general) {
      tri_arrays(s, node.tri, &tv, &tn);
    }
    for (int i = 0; i < 3; ++i) {
      int32_t u = general ? next_of(s, tn, node.tri, i) : tn[i];
      if (u < 0 || u == parent_tri || chain_contains(s, id, u)) {
        continue;
      }
      int32_t r = tv[an_cdt_next3(i)], l = tv[an_cdt_prev3(i)]; // as in portal_ids()
      an_fn_funnel cf = child_funnel(s, id, l, r);
      if (general ? is_goal(s, u) : u == goal_single) {
        out->channels++;
        double total;
        goal_prev(s, cf, goal, &total);
        if (total < s->best) {
          s->best = total;
          s->best_node = id;
          s->best_l = l;
          s->best_r = r;
        }
        continue;
      }
      const an_fn_cell *apex = &s->cells[cf.apex];
      if (apex->vertex >= 0) {
        if (s->vertex_stamp[apex->vertex] != s->stamp) {
          s->vertex_stamp[apex->vertex] = s->stamp;
          s->apex_best[apex->vertex] = apex->dist;
        } else if (apex->dist > s->apex_best[apex->vertex] * (1.0 + AN_DOMINANCE_RELATIVE)) {
          continue; // another channel reaches this apex shorter
        } else if (apex->dist < s->apex_best[apex->vertex]) {
          s->apex_best[apex->vertex] = apex->dist;
        }
      }
      vec2 pl = general ? vertex_point(s, l) : s->mesh->cdt.points[l];
      vec2 pr = general ? vertex_point(s, r) : s->mesh->cdt.points[r];
      double f = apex->dist + through_segment(cell_point(s, cf.apex), pl, pr, goal);
      f = an_max(f, top.key);
      if (f >= s->best) {
        continue;
      }
      if (node.parent >= 0) {
        s->cell_count++; // keep the new end's cell
      }
      int32_t cid = (int32_t)s->node_count++;
      s->nodes[cid] =
          (an_ta_node){.tri = u,
                       .parent = id,
                       .depth = node.depth + 1,
                       .funnel = cf,
                       .signature = node.signature | ((uint64_t)1 << ((uint32_t)u & 63u))};
      link_node(s, cid);
      an_heap_push(&s->heap, (uint32_t)cid, f);
    }
  }
  if (s->best_node < 0) {
    return ARCNAV_NO_PATH;
  }
  an_fn_funnel cf = child_funnel(s, s->best_node, s->best_l, s->best_r);
  if (s->nodes[s->best_node].parent >= 0) {
    s->cell_count++;
  }
  return finish_points(s, goal_prev(s, cf, goal, NULL), goal, out);
}

SEARCH_VERSION arcnav_status optimal_search_usual(an_funnel_scratch *s, size_t max_expansions,
                                                  size_t pause_at, an_funnel_result *out) {
  return optimal_search_with(s, max_expansions, pause_at, out, false);
}

SEARCH_VERSION arcnav_status optimal_search_general(an_funnel_scratch *s, size_t max_expansions,
                                                    size_t pause_at, an_funnel_result *out) {
  return optimal_search_with(s, max_expansions, pause_at, out, true);
}

// ---------------------------------------------------------------------------------------------
// Where a query starts and ends
// ---------------------------------------------------------------------------------------------

void an_funnel_near_triangles(const an_navmesh *mesh, vec2 p, int32_t first, uint32_t *near_stamp,
                              size_t near_room, uint32_t *near_mark, int32_t *near_queue,
                              void (*emit)(void *context, int32_t tri), void *context) {
  const an_cdt *cdt = &mesh->cdt;
  int32_t t0 = mesh->tri_of[first];
  const an_cdt_tri *tri0 = &cdt->tris[t0];
  bool alone = true; // farther than eps from every edge of its triangle: the usual case
  for (int k = 0; k < 3 && alone; ++k) {
    alone =
        tri0->n[k] < 0 || an_point_segment_dist(p, cdt->points[tri0->v[an_cdt_next3(k)]],
                                                cdt->points[tri0->v[an_cdt_prev3(k)]]) > mesh->eps;
  }
  if (alone) {
    emit(context, first);
    return;
  }
  if (an_stamp_next(near_mark)) {
    memset(near_stamp, 0, near_room * sizeof *near_stamp);
  }
  size_t head = 0, tail = 0;
  near_stamp[t0] = *near_mark;
  near_queue[tail++] = t0;
  while (head < tail) {
    int32_t t = near_queue[head++];
    int32_t f = mesh->free_of[t];
    if (f >= 0) {
      emit(context, f);
    }
    const an_cdt_tri *tri = &cdt->tris[t];
    for (int k = 0; k < 3; ++k) {
      int32_t u = tri->n[k];
      if (u < 0 || near_stamp[u] == *near_mark) {
        continue;
      }
      vec2 a = cdt->points[tri->v[an_cdt_next3(k)]], b = cdt->points[tri->v[an_cdt_prev3(k)]];
      if (an_point_segment_dist(p, a, b) <= mesh->eps) {
        near_stamp[u] = *near_mark;
        near_queue[tail++] = u;
      }
    }
  }
}

static void add_start(void *context, int32_t tri) {
  an_funnel_scratch *s = context;
  s->starts[s->start_count++] = tri;
}

static void add_goal(void *context, int32_t tri) {
  an_funnel_scratch *s = context;
  s->goal_mark[tri] = s->stamp;
  s->goal_last = tri;
  s->goal_count++;
}

/// Appends to s->starts (or marks as the goal's) the free triangles within eps of p.
static void near_triangles(an_funnel_scratch *s, vec2 p, int32_t first, bool goal) {
  an_funnel_near_triangles(s->mesh, p, first, s->near_stamp, s->near_room, &s->near_mark,
                           s->near_queue, goal ? add_goal : add_start, s);
}

/// The fan of triangles (p, b, a) on the box edges ab that face p (beyond the box of a map
/// without bounds): one, or two at a corner. The start's fan leads into the box triangles on its
/// edges; the goal's fan is where the search ends, entered from those box triangles.
static void add_fan(an_funnel_scratch *s, vec2 p, bool goal) {
  const an_navmesh *mesh = s->mesh;
  vec2 lo = mesh->cdt.points[0], hi = mesh->cdt.points[2];
  // Box edge e runs from corner e to corner e + 1 counter-clockwise: bottom, right, top, left.
  bool faces[4] = {p.y<lo.y, p.x> hi.x, p.y > hi.y, p.x < lo.x};
  int32_t id[4] = {-1, -1, -1, -1};
  int32_t pv = goal ? -2 : -1;
  s->vpoint[goal ? 1 : 0] = p;
  for (int e = 0; e < 4; ++e) {
    if (faces[e]) {
      id[e] = (int32_t)(s->tri_count + s->virtual_count++);
    }
  }
  for (int e = 0; e < 4; ++e) {
    if (id[e] < 0) {
      continue;
    }
    size_t at = 3 * ((size_t)id[e] - s->tri_count);
    // Counter-clockwise: the box lies left of a -> b, so p, b, a turn left.
    s->vfv[at] = pv;
    s->vfv[at + 1] = (e + 1) % 4;
    s->vfv[at + 2] = e;
    s->vfn[at] = goal ? -1 : mesh->box_tri[e]; // across (b, a): into the box
    s->vfn[at + 1] = id[(e + 3) % 4];          // across (a, p): the fan on the edge before
    s->vfn[at + 2] = id[(e + 1) % 4];          // across (p, b): the fan on the edge after
    if (goal) {
      s->goal_mark[id[e]] = s->stamp;
      s->goal_last = id[e];
      s->goal_count++;
      s->goal_fan[e] = id[e];
      s->goal_fan_used = true;
    } else {
      s->starts[s->start_count++] = id[e];
    }
  }
}

static arcnav_status straight(an_funnel_scratch *s, vec2 start, vec2 goal, an_funnel_result *out) {
  s->points[0] = start;
  s->points[1] = goal;
  an_funnel_result_short(out, s->points, 2);
  out->channels = 1;
  return ARCNAV_OK;
}

arcnav_status an_funnel_locate_ends(const an_navmesh *mesh, vec2 start, vec2 goal,
                                    an_funnel_result *result, an_funnel_ends *out) {
  memset(result, 0, sizeof *result);
  if (!v2_is_finite(start) || !v2_is_finite(goal)) {
    return ARCNAV_ERR_NOT_FINITE;
  }
  out->start_in = an_navmesh_in_box(mesh, start);
  out->goal_in = an_navmesh_in_box(mesh, goal);
  out->start_tri = out->start_in ? an_navmesh_locate(mesh, start) : -1;
  if (out->start_in ? out->start_tri < 0 : !mesh->whole_plane) {
    return ARCNAV_START_BLOCKED;
  }
  out->goal_tri = out->goal_in ? an_navmesh_locate(mesh, goal) : -1;
  if (out->goal_in ? out->goal_tri < 0 : !mesh->whole_plane) {
    return ARCNAV_GOAL_BLOCKED;
  }
  return ARCNAV_OK;
}

arcnav_status an_funnel_begin(const an_navmesh *mesh, an_funnel_scratch *s, vec2 start, vec2 goal,
                              bool optimal, an_funnel_result *out) {
  if (!mesh || !s || !out || s->mesh != mesh) {
    return ARCNAV_ERR_INVALID_ARGUMENT;
  }
  an_funnel_ends ends;
  arcnav_status located = an_funnel_locate_ends(mesh, start, goal, out, &ends);
  if (located != ARCNAV_OK) {
    return located;
  }
  bool start_in = ends.start_in, goal_in = ends.goal_in;
  int32_t st = ends.start_tri, gt = ends.goal_tri;
  // Beyond the box there is nothing but free space: a segment that misses the box is the path.
  if ((!start_in || !goal_in) &&
      !an_segment_meets_box(start, goal, mesh->cdt.points[0], mesh->cdt.points[2])) {
    return straight(s, start, goal, out);
  }
  an_funnel_next_stamp(s);
  s->start_count = 0;
  s->virtual_count = 0;
  s->goal_fan_used = false;
  s->goal_count = 0;
  s->goal_single = -1;
  for (int e = 0; e < 4; ++e) {
    s->goal_fan[e] = -1;
  }
  if (start_in) {
    near_triangles(s, start, st, false);
  } else {
    add_fan(s, start, false);
  }
  if (goal_in) {
    near_triangles(s, goal, gt, true);
  } else {
    add_fan(s, goal, true);
  }
  s->goal_single = s->goal_count == 1 ? s->goal_last : -1;
  for (size_t k = 0; k < s->start_count; ++k) {
    if (is_goal(s, s->starts[k])) {
      return straight(s, start, goal, out); // a triangle is convex
    }
  }
  s->start = start;
  s->goal = goal;
  s->optimal = optimal;
  s->usual = s->virtual_count == 0 && s->goal_single >= 0;
  s->near = -1;
  s->near_distance = v2_dist(start, goal);
  if (!optimal) {
    plain_setup(s, start, goal);
  } else if (!optimal_setup(s, start, goal)) {
    return ARCNAV_ERR_OUT_OF_MEMORY;
  }
  return ARCNAV_IN_PROGRESS;
}

arcnav_status an_funnel_resume(an_funnel_scratch *s, size_t max_expansions, size_t pause_at,
                               an_funnel_result *out) {
  if (s->optimal) {
    return s->usual ? optimal_search_usual(s, max_expansions, pause_at, out)
                    : optimal_search_general(s, max_expansions, pause_at, out);
  }
  return s->usual ? plain_search_usual(s, max_expansions, pause_at, out)
                  : plain_search_general(s, max_expansions, pause_at, out);
}

arcnav_status an_funnel_best_so_far(an_funnel_scratch *s, an_funnel_result *out) {
  if (s->near < 0) {
    s->points[0] = s->start;
    an_funnel_result_short(out, s->points, 1);
    return ARCNAV_OK;
  }
  // The optimal search keeps the cells of every channel: the path to an apex is there. The plain
  // search string-pulls the channel to the entry of its triangle, which it may since its cells
  // are made only for its answer.
  if (s->optimal) {
    return finish_points(s, s->near, cell_point(s, s->near), out);
  }
  return channel_path(s, s->near, s->near_point, out);
}

arcnav_status an_funnel_find_path_within(const an_navmesh *mesh, an_funnel_scratch *s, vec2 start,
                                         vec2 goal, bool optimal, size_t max_expansions,
                                         an_funnel_result *out) {
  arcnav_status status = an_funnel_begin(mesh, s, start, goal, optimal, out);
  if (status == ARCNAV_IN_PROGRESS) {
    status = an_funnel_resume(s, max_expansions, SIZE_MAX, out);
  }
  return status;
}
