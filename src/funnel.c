// SPDX-License-Identifier: MIT
#include "funnel.h"

#include "predicates.h"

#include <float.h>
#include <math.h>
#include <string.h>

// ---------------------------------------------------------------------------------------------
// The funnel
// ---------------------------------------------------------------------------------------------

typedef struct funnel_state {
  vec2 *out;         ///< [opt] corners
  size_t count;      ///< corners written (or counted)
  double length;     ///< length of the corners so far
  vec2 last;         ///< last corner
  size_t apex_index; ///< portal index of the final apex (0 = the start apex)
  int apex_side;     ///< 0 left, 1 right, -1 the start apex
} funnel_state;

static void emit(funnel_state *s, vec2 p) {
  if (s->count > 0 && p.x == s->last.x && p.y == s->last.y) {
    return;
  }
  if (s->count > 0) {
    s->length += v2_dist(s->last, p);
  }
  if (s->out) {
    s->out[s->count] = p;
  }
  s->count++;
  s->last = p;
}

static bool same(vec2 a, vec2 b) {
  return a.x == b.x && a.y == b.y;
}

/// Simple stupid funnel (Mononen) with exact orientation tests. Portal 0 is the apex itself,
/// portals 1..m are (left[i-1], right[i-1]), and portal m + 1 is the goal when `goal` is given.
/// When the funnel collapses on one side, the corner on the other side is emitted and the scan
/// restarts from the portal that set it; every restart moves the apex to a later portal, so the
/// scan ends.
static void funnel_run(vec2 apex0, const vec2 *left, const vec2 *right, size_t m, const vec2 *goal,
                       funnel_state *s) {
  size_t n = m + 1 + (goal ? 1u : 0u);
  vec2 apex = apex0, pl = apex0, pr = apex0;
  size_t ai = 0, li = 0, ri = 0;
  int apex_side = -1, pl_side = -1, pr_side = -1;
  s->count = 0;
  s->length = 0.0;
  emit(s, apex);
  for (size_t i = 1; i < n; ++i) {
    vec2 l = i <= m ? left[i - 1] : *goal;
    vec2 r = i <= m ? right[i - 1] : *goal;
    // Right side: the new right point narrows the funnel when it is not to the right of it.
    if (an_orient2d(apex, pr, r) >= 0.0) {
      if (same(apex, pr) || an_orient2d(apex, pl, r) < 0.0) {
        pr = r;
        ri = i;
        pr_side = 1;
      } else {
        // It crossed the left edge: the left point is a corner.
        apex = pl;
        ai = li;
        apex_side = pl_side;
        emit(s, apex);
        pr = pl = apex;
        ri = li = ai;
        pr_side = pl_side = apex_side;
        i = ai;
        continue;
      }
    }
    if (an_orient2d(apex, pl, l) <= 0.0) {
      if (same(apex, pl) || an_orient2d(apex, pr, l) > 0.0) {
        pl = l;
        li = i;
        pl_side = 0;
      } else {
        apex = pr;
        ai = ri;
        apex_side = pr_side;
        emit(s, apex);
        pr = pl = apex;
        ri = li = ai;
        pr_side = pl_side = apex_side;
        i = ai;
        continue;
      }
    }
  }
  s->apex_index = ai;
  s->apex_side = apex_side;
  if (goal) {
    emit(s, *goal);
  }
}

/// Drop corners that lie exactly on the straight segment between their neighbours (the funnel
/// emits them when a portal end is collinear with the path). Returns the new count.
static size_t merge_collinear(vec2 *p, size_t n) {
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

size_t an_funnel_string_pull(vec2 start, const vec2 *left, const vec2 *right, size_t portal_count,
                             vec2 goal, vec2 *out_points) {
  funnel_state s = {.out = out_points};
  funnel_run(start, left, right, portal_count, &goal, &s);
  if (s.count == 1) {
    out_points[1] = goal; // start == goal
    return 2;
  }
  return merge_collinear(out_points, s.count);
}

// ---------------------------------------------------------------------------------------------
// Scratch
// ---------------------------------------------------------------------------------------------

typedef struct heap_item {
  double key;
  int32_t id;
} heap_item;

typedef struct ta_node {
  int32_t tri;         ///< free triangle
  int32_t parent;      ///< node index, -1 for the root
  int32_t left, right; ///< entry portal vertex ids (the root has none)
  int32_t apex;        ///< funnel apex vertex id, -1 for the start point
  int32_t depth;       ///< portals crossed
  int32_t apex_depth;  ///< portal that set the apex (0 = start)
  double apex_dist;    ///< length of the funnel path from the start to the apex
  double f;            ///< lower bound on any path through this channel prefix
  uint64_t signature;  ///< bit (tri mod 64) for every triangle of the chain: a quick "not in chain"
} ta_node;

struct an_funnel_scratch {
  an_allocator alloc;
  const an_navmesh *mesh;
  size_t tri_count, vertex_count, node_capacity, heap_capacity;
  uint32_t stamp;
  // Plain A*, per free triangle.
  uint32_t *tri_stamp;
  double *g;
  vec2 *pos;
  int32_t *parent;
  int32_t *heap_pos; ///< position in the heap, -1 when not in it
  // Optimal search.
  ta_node *nodes;
  size_t node_count;
  uint32_t *vertex_stamp;
  double *apex_best; ///< per vertex: shortest funnel length to it as an apex in this query
  heap_item *heap;
  size_t heap_count;
  // Channel buffers (a channel repeats no triangle, so it has fewer portals than triangles).
  vec2 *left, *right;
  int32_t *left_id, *right_id;
  int32_t *chain;
  vec2 *points;
};

/// Search nodes for the optimal mode: enough for the maps measured with room to spare; when a
/// query needs more, it returns the best channel found so far (result.truncated).
static size_t node_capacity_for(size_t tri_count) {
  size_t cap = 8 * tri_count + 1024;
  return cap > (size_t)INT32_MAX / 2 ? (size_t)INT32_MAX / 2 : cap;
}

void an_funnel_scratch_destroy(an_funnel_scratch *s) {
  if (!s) {
    return;
  }
  an_allocator a = s->alloc;
  an_free(&a, s->tri_stamp);
  an_free(&a, s->g);
  an_free(&a, s->pos);
  an_free(&a, s->parent);
  an_free(&a, s->heap_pos);
  an_free(&a, s->nodes);
  an_free(&a, s->vertex_stamp);
  an_free(&a, s->apex_best);
  an_free(&a, s->heap);
  an_free(&a, s->left);
  an_free(&a, s->right);
  an_free(&a, s->left_id);
  an_free(&a, s->right_id);
  an_free(&a, s->chain);
  an_free(&a, s->points);
  an_free(&a, s);
}

arcnav_status an_funnel_scratch_create(const an_navmesh *mesh, const an_allocator *alloc,
                                       an_funnel_scratch **out) {
  if (!mesh || !alloc || !out) {
    return ARCNAV_ERR_INVALID_ARGUMENT;
  }
  an_funnel_scratch *s = an_calloc(alloc, 1, sizeof *s);
  if (!s) {
    return ARCNAV_ERR_OUT_OF_MEMORY;
  }
  s->alloc = *alloc;
  s->mesh = mesh;
  size_t nt = mesh->free_count + 1, nv = mesh->cdt.point_count + 1;
  s->tri_count = mesh->free_count;
  s->vertex_count = mesh->cdt.point_count;
  s->node_capacity = node_capacity_for(mesh->free_count);
  s->heap_capacity = s->node_capacity > nt ? s->node_capacity : nt;
  s->tri_stamp = an_calloc(alloc, nt, sizeof *s->tri_stamp);
  s->g = an_alloc(alloc, nt, sizeof *s->g);
  s->pos = an_alloc(alloc, nt, sizeof *s->pos);
  s->parent = an_alloc(alloc, nt, sizeof *s->parent);
  s->heap_pos = an_alloc(alloc, nt, sizeof *s->heap_pos);
  s->nodes = an_alloc(alloc, s->node_capacity, sizeof *s->nodes);
  s->vertex_stamp = an_calloc(alloc, nv, sizeof *s->vertex_stamp);
  s->apex_best = an_alloc(alloc, nv, sizeof *s->apex_best);
  s->heap = an_alloc(alloc, s->heap_capacity, sizeof *s->heap);
  s->left = an_alloc(alloc, nt + 2, sizeof *s->left);
  s->right = an_alloc(alloc, nt + 2, sizeof *s->right);
  s->left_id = an_alloc(alloc, nt + 2, sizeof *s->left_id);
  s->right_id = an_alloc(alloc, nt + 2, sizeof *s->right_id);
  s->chain = an_alloc(alloc, nt + 2, sizeof *s->chain);
  s->points = an_alloc(alloc, nt + 4, sizeof *s->points);
  if (!s->tri_stamp || !s->g || !s->pos || !s->parent || !s->heap_pos || !s->nodes ||
      !s->vertex_stamp || !s->apex_best || !s->heap || !s->left || !s->right || !s->left_id ||
      !s->right_id || !s->chain || !s->points) {
    an_funnel_scratch_destroy(s);
    return ARCNAV_ERR_OUT_OF_MEMORY;
  }
  *out = s;
  return ARCNAV_OK;
}

size_t an_funnel_scratch_memory_bytes(const an_funnel_scratch *s) {
  size_t nt = s->tri_count + 1, nv = s->vertex_count + 1;
  return sizeof *s + nt * (sizeof(uint32_t) + sizeof(double) + sizeof(vec2) + 2 * sizeof(int32_t)) +
         s->node_capacity * sizeof(ta_node) + nv * (sizeof(uint32_t) + sizeof(double)) +
         s->heap_capacity * sizeof(heap_item) +
         (nt + 2) * (2 * sizeof(vec2) + 3 * sizeof(int32_t)) + (nt + 4) * sizeof(vec2);
}

static void next_stamp(an_funnel_scratch *s) {
  if (++s->stamp == 0) {
    memset(s->tri_stamp, 0, (s->tri_count + 1) * sizeof *s->tri_stamp);
    memset(s->vertex_stamp, 0, (s->vertex_count + 1) * sizeof *s->vertex_stamp);
    s->stamp = 1;
  }
}

// ---------------------------------------------------------------------------------------------
// Binary heap (min key, ties by id for determinism). With `pos` it tracks positions so keys can
// be decreased; without, it is a plain priority queue.
// ---------------------------------------------------------------------------------------------

static bool heap_less(heap_item a, heap_item b) {
  return a.key < b.key || (a.key == b.key && a.id < b.id);
}

static void heap_set(an_funnel_scratch *s, size_t i, heap_item item, int32_t *pos) {
  s->heap[i] = item;
  if (pos) {
    pos[item.id] = (int32_t)i;
  }
}

static void heap_up(an_funnel_scratch *s, size_t i, int32_t *pos) {
  heap_item item = s->heap[i];
  while (i > 0) {
    size_t p = (i - 1) / 2;
    if (!heap_less(item, s->heap[p])) {
      break;
    }
    heap_set(s, i, s->heap[p], pos);
    i = p;
  }
  heap_set(s, i, item, pos);
}

static void heap_down(an_funnel_scratch *s, size_t i, int32_t *pos) {
  heap_item item = s->heap[i];
  for (;;) {
    size_t c = 2 * i + 1;
    if (c >= s->heap_count) {
      break;
    }
    if (c + 1 < s->heap_count && heap_less(s->heap[c + 1], s->heap[c])) {
      ++c;
    }
    if (!heap_less(s->heap[c], item)) {
      break;
    }
    heap_set(s, i, s->heap[c], pos);
    i = c;
  }
  heap_set(s, i, item, pos);
}

static bool heap_push(an_funnel_scratch *s, double key, int32_t id, int32_t *pos) {
  if (s->heap_count >= s->heap_capacity) {
    return false;
  }
  s->heap[s->heap_count] = (heap_item){key, id};
  heap_up(s, s->heap_count++, pos);
  return true;
}

static heap_item heap_pop(an_funnel_scratch *s, int32_t *pos) {
  heap_item top = s->heap[0];
  if (pos) {
    pos[top.id] = -1;
  }
  if (--s->heap_count > 0) {
    s->heap[0] = s->heap[s->heap_count];
    heap_down(s, 0, pos);
  }
  return top;
}

// ---------------------------------------------------------------------------------------------
// Portals
// ---------------------------------------------------------------------------------------------

/// Portal through edge `edge` of free triangle `tri`, as seen by a traveller leaving the triangle:
/// the edge runs counter-clockwise around the triangle, so its first vertex is on the right.
static void portal_ids(const an_navmesh *mesh, int32_t tri, int edge, int32_t *left,
                       int32_t *right) {
  *right = mesh->fv[3 * (size_t)tri + (size_t)((edge + 1) % 3)];
  *left = mesh->fv[3 * (size_t)tri + (size_t)((edge + 2) % 3)];
}

static arcnav_status finish_points(an_funnel_scratch *s, vec2 start, vec2 goal, size_t portals,
                                   an_funnel_result *out) {
  funnel_state fs = {.out = s->points};
  funnel_run(start, s->left, s->right, portals, &goal, &fs);
  if (fs.count == 1) {
    s->points[fs.count++] = goal;
  }
  out->points = s->points;
  out->point_count = merge_collinear(s->points, fs.count);
  out->length = polyline_length(s->points, out->point_count);
  return ARCNAV_OK;
}

// ---------------------------------------------------------------------------------------------
// Plain mode: Detour-style A* over triangles, one channel
// ---------------------------------------------------------------------------------------------

static arcnav_status plain_search(const an_navmesh *mesh, an_funnel_scratch *s, int32_t st,
                                  int32_t gt, vec2 start, vec2 goal, an_funnel_result *out) {
  next_stamp(s);
  s->heap_count = 0;
  s->tri_stamp[st] = s->stamp;
  s->g[st] = 0.0;
  s->pos[st] = start;
  s->parent[st] = -1;
  s->heap_pos[st] = -1;
  heap_push(s, v2_dist(start, goal), st, s->heap_pos);
  bool found = false;
  while (s->heap_count > 0) {
    int32_t t = heap_pop(s, s->heap_pos).id;
    out->nodes_expanded++;
    if (t == gt) {
      found = true;
      break;
    }
    for (int i = 0; i < 3; ++i) {
      int32_t u = mesh->fn[3 * (size_t)t + (size_t)i];
      if (u < 0) {
        continue;
      }
      int32_t l, r;
      portal_ids(mesh, t, i, &l, &r);
      vec2 mid = v2_scale(v2_add(mesh->cdt.points[l], mesh->cdt.points[r]), 0.5);
      double cost = s->g[t] + v2_dist(s->pos[t], mid);
      double h = v2_dist(mid, goal);
      if (u == gt) {
        cost += h; // the goal's cost is exact once its triangle is reached
        h = 0.0;
      }
      bool seen = s->tri_stamp[u] == s->stamp;
      if (seen && cost >= s->g[u]) {
        continue;
      }
      if (!seen) {
        s->tri_stamp[u] = s->stamp;
        s->heap_pos[u] = -1;
      }
      s->g[u] = cost;
      s->pos[u] = mid;
      s->parent[u] = t;
      if (s->heap_pos[u] >= 0) {
        size_t at = (size_t)s->heap_pos[u];
        s->heap[at].key = cost + h;
        heap_up(s, at, s->heap_pos);
      } else {
        heap_push(s, cost + h, u, s->heap_pos);
      }
    }
  }
  if (!found) {
    return ARCNAV_NO_PATH;
  }
  size_t n = 0;
  for (int32_t t = gt; t >= 0; t = s->parent[t]) {
    s->chain[n++] = t;
  }
  // chain[n-1] is the start triangle; portals run from it towards the goal.
  for (size_t k = 0; k + 1 < n; ++k) {
    int32_t from = s->chain[n - 1 - k], to = s->chain[n - 2 - k];
    int edge = 0;
    while (mesh->fn[3 * (size_t)from + (size_t)edge] != to) {
      ++edge;
    }
    int32_t l, r;
    portal_ids(mesh, from, edge, &l, &r);
    s->left[k] = mesh->cdt.points[l];
    s->right[k] = mesh->cdt.points[r];
  }
  out->channels = 1;
  return finish_points(s, start, goal, n - 1, out);
}

// ---------------------------------------------------------------------------------------------
// Optimal mode: TA*
// ---------------------------------------------------------------------------------------------

/// min over x on segment pq of |a - x| + |x - g|: the function is convex along the segment, and
/// its minimiser on the whole line is where the segment from a to g (g mirrored to the other side
/// when both are on one side) meets it.
static double through_segment(vec2 a, vec2 p, vec2 q, vec2 g) {
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

static bool chain_contains(const an_funnel_scratch *s, int32_t node, int32_t tri) {
  uint64_t bit = (uint64_t)1 << ((uint32_t)tri & 63u);
  if (!(s->nodes[node].signature & bit)) {
    return false;
  }
  for (int32_t k = node; k >= 0; k = s->nodes[k].parent) {
    if (s->nodes[k].tri == tri) {
      return true;
    }
  }
  return false;
}

/// Fill the portal buffers with the portals of `node`'s chain after depth `from_depth`, followed
/// by the extra portal (l, r). Returns the number of portals.
static size_t gather_portals(an_funnel_scratch *s, int32_t node, int32_t from_depth, int32_t l,
                             int32_t r) {
  const vec2 *pts = s->mesh->cdt.points;
  size_t n = (size_t)(s->nodes[node].depth - from_depth) + 1;
  s->left[n - 1] = pts[l];
  s->right[n - 1] = pts[r];
  s->left_id[n - 1] = l;
  s->right_id[n - 1] = r;
  size_t k = n - 1;
  for (int32_t m = node; s->nodes[m].depth > from_depth; m = s->nodes[m].parent) {
    --k;
    s->left[k] = pts[s->nodes[m].left];
    s->right[k] = pts[s->nodes[m].right];
    s->left_id[k] = s->nodes[m].left;
    s->right_id[k] = s->nodes[m].right;
  }
  return n;
}

static vec2 apex_point(const an_navmesh *mesh, int32_t apex, vec2 start) {
  return apex < 0 ? start : mesh->cdt.points[apex];
}

static arcnav_status optimal_search(const an_navmesh *mesh, an_funnel_scratch *s, int32_t st,
                                    int32_t gt, vec2 start, vec2 goal, an_funnel_result *out) {
  next_stamp(s);
  s->heap_count = 0;
  s->node_count = 1;
  s->nodes[0] = (ta_node){.tri = st,
                          .parent = -1,
                          .left = -1,
                          .right = -1,
                          .apex = -1,
                          .depth = 0,
                          .apex_depth = 0,
                          .apex_dist = 0.0,
                          .f = v2_dist(start, goal),
                          .signature = (uint64_t)1 << ((uint32_t)st & 63u)};
  heap_push(s, s->nodes[0].f, 0, NULL);
  double best = INFINITY;
  int32_t best_node = -1, best_l = -1, best_r = -1;
  bool truncated = false;
  while (s->heap_count > 0 && !truncated) {
    int32_t id = heap_pop(s, NULL).id;
    ta_node node = s->nodes[id];
    if (node.f >= best) {
      break;
    }
    if (node.apex >= 0 && node.apex_dist > s->apex_best[node.apex] * (1.0 + 1e-12)) {
      continue; // dominated since it was queued
    }
    out->nodes_expanded++;
    int32_t parent_tri = node.parent >= 0 ? s->nodes[node.parent].tri : -1;
    for (int i = 0; i < 3; ++i) {
      int32_t u = mesh->fn[3 * (size_t)node.tri + (size_t)i];
      if (u < 0 || u == parent_tri || chain_contains(s, id, u)) {
        continue;
      }
      int32_t l, r;
      portal_ids(mesh, node.tri, i, &l, &r);
      vec2 apex = apex_point(mesh, node.apex, start);
      size_t n = gather_portals(s, id, node.apex_depth, l, r);
      funnel_state fs = {0};
      if (u == gt) {
        funnel_run(apex, s->left, s->right, n, &goal, &fs);
        out->channels++;
        double total = node.apex_dist + fs.length;
        if (total < best) {
          best = total;
          best_node = id;
          best_l = l;
          best_r = r;
        }
        continue;
      }
      funnel_run(apex, s->left, s->right, n, NULL, &fs);
      int32_t child_apex = node.apex, child_apex_depth = node.apex_depth;
      if (fs.apex_side >= 0) {
        child_apex =
            fs.apex_side == 0 ? s->left_id[fs.apex_index - 1] : s->right_id[fs.apex_index - 1];
        child_apex_depth = node.apex_depth + (int32_t)fs.apex_index;
      }
      double dist = node.apex_dist + fs.length;
      if (child_apex >= 0) {
        if (s->vertex_stamp[child_apex] != s->stamp) {
          s->vertex_stamp[child_apex] = s->stamp;
          s->apex_best[child_apex] = dist;
        } else if (dist > s->apex_best[child_apex] * (1.0 + 1e-12)) {
          continue; // another channel reaches this apex shorter
        } else if (dist < s->apex_best[child_apex]) {
          s->apex_best[child_apex] = dist;
        }
      }
      vec2 ca = apex_point(mesh, child_apex, start);
      double f = dist + through_segment(ca, mesh->cdt.points[l], mesh->cdt.points[r], goal);
      f = an_max(f, node.f);
      if (f >= best) {
        continue;
      }
      if (s->node_count >= s->node_capacity) {
        truncated = true;
        break;
      }
      int32_t cid = (int32_t)s->node_count++;
      s->nodes[cid] = (ta_node){.tri = u,
                                .parent = id,
                                .left = l,
                                .right = r,
                                .apex = child_apex,
                                .depth = node.depth + 1,
                                .apex_depth = child_apex_depth,
                                .apex_dist = dist,
                                .f = f,
                                .signature = node.signature | ((uint64_t)1 << ((uint32_t)u & 63u))};
      if (!heap_push(s, f, cid, NULL)) {
        truncated = true;
        break;
      }
    }
  }
  out->truncated = truncated;
  if (best_node < 0) {
    return truncated ? ARCNAV_ERR_OUT_OF_MEMORY : ARCNAV_NO_PATH;
  }
  size_t n = gather_portals(s, best_node, 0, best_l, best_r);
  return finish_points(s, start, goal, n, out);
}

arcnav_status an_funnel_find_path(const an_navmesh *mesh, an_funnel_scratch *scratch, vec2 start,
                                  vec2 goal, bool optimal, an_funnel_result *out) {
  if (!mesh || !scratch || !out || scratch->mesh != mesh) {
    return ARCNAV_ERR_INVALID_ARGUMENT;
  }
  memset(out, 0, sizeof *out);
  if (!v2_is_finite(start) || !v2_is_finite(goal)) {
    return ARCNAV_ERR_NOT_FINITE;
  }
  int32_t st = an_navmesh_locate(mesh, start);
  if (st < 0) {
    return ARCNAV_START_BLOCKED;
  }
  int32_t gt = an_navmesh_locate(mesh, goal);
  if (gt < 0) {
    return ARCNAV_GOAL_BLOCKED;
  }
  if (st == gt) {
    // A triangle is convex: the straight segment is the path.
    scratch->points[0] = start;
    scratch->points[1] = goal;
    out->points = scratch->points;
    out->point_count = 2;
    out->length = v2_dist(start, goal);
    out->channels = 1;
    return ARCNAV_OK;
  }
  if (!optimal) {
    return plain_search(mesh, scratch, st, gt, start, goal, out);
  }
  arcnav_status status = optimal_search(mesh, scratch, st, gt, start, goal, out);
  if (status == ARCNAV_ERR_OUT_OF_MEMORY) {
    // The node pool ran out before any channel reached the goal: fall back to one channel.
    size_t expanded = out->nodes_expanded;
    status = plain_search(mesh, scratch, st, gt, start, goal, out);
    out->nodes_expanded += expanded;
    out->truncated = true;
  }
  return status;
}
