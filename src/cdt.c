// SPDX-License-Identifier: MIT
#include "cdt.h"

#include "predicates.h"

#include <assert.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int next3(int i) {
  return i == 2 ? 0 : i + 1;
}
static int prev3(int i) {
  return i == 0 ? 2 : i - 1;
}

static bool same_point(vec2 a, vec2 b) {
  return a.x == b.x && a.y == b.y;
}

static uint32_t next_random(uint32_t *state) {
  *state = *state * 1664525u + 1013904223u;
  return *state >> 16;
}

/// Index of the edge of `t` whose neighbour is `other`.
static int neighbour_index(const an_cdt_tri *t, int32_t other) {
  for (int i = 0; i < 3; ++i) {
    if (t->n[i] == other) {
      return i;
    }
  }
  return -1;
}

static bool is_constrained(const an_cdt_tri *t, int i) {
  return (t->constrained >> i) & 1u;
}

static void set_tri(an_cdt *cdt, int32_t t, int32_t v0, int32_t v1, int32_t v2, int32_t n0,
                    int32_t n1, int32_t n2, bool c0, bool c1, bool c2) {
  // A triangle has three distinct vertices that exist, and neighbours that exist or are -1.
  assert(t >= 0 && (size_t)t < cdt->tri_count);
  assert(v0 >= 0 && v1 >= 0 && v2 >= 0 && (size_t)v0 < cdt->point_count &&
         (size_t)v1 < cdt->point_count && (size_t)v2 < cdt->point_count);
  assert(v0 != v1 && v1 != v2 && v2 != v0);
  assert(n0 >= -1 && n1 >= -1 && n2 >= -1 && (size_t)(n0 + 1) <= cdt->tri_count &&
         (size_t)(n1 + 1) <= cdt->tri_count && (size_t)(n2 + 1) <= cdt->tri_count);
  an_cdt_tri *tri = &cdt->tris[t];
  tri->v[0] = v0;
  tri->v[1] = v1;
  tri->v[2] = v2;
  tri->n[0] = n0;
  tri->n[1] = n1;
  tri->n[2] = n2;
  tri->constrained = (uint8_t)((c0 ? 1u : 0u) | (c1 ? 2u : 0u) | (c2 ? 4u : 0u));
  cdt->vertex_tri[v0] = t;
  cdt->vertex_tri[v1] = t;
  cdt->vertex_tri[v2] = t;
}

/// Make `nb` (if any) point at `fresh` where it pointed at `old`.
static void relink(an_cdt *cdt, int32_t nb, int32_t old, int32_t fresh) {
  if (nb < 0) {
    return;
  }
  int k = neighbour_index(&cdt->tris[nb], old);
  if (k >= 0) {
    cdt->tris[nb].n[k] = fresh;
  }
}

static bool reserve_tris(an_cdt *cdt, size_t extra) {
  return an_reserve(&cdt->alloc, (void **)&cdt->tris, &cdt->tri_capacity, cdt->tri_count,
                    cdt->tri_count + extra, sizeof(an_cdt_tri));
}

static bool push_work(an_cdt *cdt, int32_t a, int32_t b) {
  if (!an_reserve(&cdt->alloc, (void **)&cdt->stack, &cdt->stack_capacity, cdt->stack_count,
                  cdt->stack_count + 2, sizeof(int32_t))) {
    return false;
  }
  cdt->stack[cdt->stack_count++] = a;
  cdt->stack[cdt->stack_count++] = b;
  return true;
}

static int32_t add_vertex(an_cdt *cdt, vec2 p) {
  if (!an_reserve(&cdt->alloc, (void **)&cdt->points, &cdt->point_capacity, cdt->point_count,
                  cdt->point_count + 1, sizeof(vec2)) ||
      !an_reserve(&cdt->alloc, (void **)&cdt->vertex_tri, &cdt->vertex_tri_capacity,
                  cdt->point_count, cdt->point_count + 1, sizeof(int32_t))) {
    return -1;
  }
  if (cdt->point_count >= (size_t)INT32_MAX / 4) {
    return -1;
  }
  cdt->points[cdt->point_count] = p;
  cdt->vertex_tri[cdt->point_count] = -1;
  return (int32_t)cdt->point_count++;
}

arcnav_status an_cdt_init(an_cdt *cdt, const an_allocator *alloc, vec2 box_min, vec2 box_max) {
  memset(cdt, 0, sizeof *cdt);
  cdt->alloc = *alloc;
  cdt->rng = 0x2545F491u;
  if (!(box_min.x < box_max.x && box_min.y < box_max.y) || !v2_is_finite(box_min) ||
      !v2_is_finite(box_max)) {
    return ARCNAV_ERR_INVALID_ARGUMENT;
  }
  vec2 corners[4] = {box_min, v2(box_max.x, box_min.y), box_max, v2(box_min.x, box_max.y)};
  for (int i = 0; i < 4; ++i) {
    if (add_vertex(cdt, corners[i]) < 0) {
      an_cdt_free(cdt);
      return ARCNAV_ERR_OUT_OF_MEMORY;
    }
  }
  if (!reserve_tris(cdt, 2)) {
    an_cdt_free(cdt);
    return ARCNAV_ERR_OUT_OF_MEMORY;
  }
  cdt->tri_count = 2;
  // (0, 1, 2) and (0, 2, 3) share the diagonal 0-2: edge 1 of the first, edge 2 of the second.
  set_tri(cdt, 0, 0, 1, 2, -1, 1, -1, false, false, false);
  set_tri(cdt, 1, 0, 2, 3, -1, -1, 0, false, false, false);
  return ARCNAV_OK;
}

void an_cdt_free(an_cdt *cdt) {
  an_free(&cdt->alloc, cdt->points);
  an_free(&cdt->alloc, cdt->vertex_tri);
  an_free(&cdt->alloc, cdt->tris);
  an_free(&cdt->alloc, cdt->stack);
  an_allocator alloc = cdt->alloc;
  memset(cdt, 0, sizeof *cdt);
  cdt->alloc = alloc;
}

/// Visibility walk with a randomised first edge, so it cannot cycle in a non-Delaunay
/// (constrained) triangulation. The state is local: concurrent readers are fine.
static int32_t walk(const an_cdt *cdt, vec2 p, int32_t t, uint32_t seed) {
  if (t < 0 || (size_t)t >= cdt->tri_count) {
    t = 0;
  }
  uint32_t rng = seed;
  int32_t previous = -1;
  for (;;) {
    const an_cdt_tri *tri = &cdt->tris[t];
    int start = (int)(next_random(&rng) % 3u);
    int32_t next = -2;
    for (int k = 0; k < 3; ++k) {
      int i = (start + k) % 3;
      if (tri->n[i] == previous && previous >= 0) {
        continue; // came from there: p cannot be behind that edge
      }
      vec2 a = cdt->points[tri->v[next3(i)]];
      vec2 b = cdt->points[tri->v[prev3(i)]];
      if (an_orient2d(a, b, p) < 0.0) {
        next = tri->n[i];
        break;
      }
    }
    if (next == -2) {
      return t;
    }
    if (next < 0) {
      return -1;
    }
    previous = t;
    t = next;
  }
}

int32_t an_cdt_locate(const an_cdt *cdt, vec2 p, int32_t start) {
  if (!v2_is_finite(p) || cdt->tri_count == 0) {
    return -1;
  }
  return walk(cdt, p, start < 0 ? cdt->hint : start, 0x9E3779B9u);
}

// Legalisation: the work stack holds (triangle, edge) pairs whose edge may violate the Delaunay
// property. Constraint edges are never flipped.

/// Flip edge i of t. Afterwards t = (a, b, d) and u = (d, c, a), where a = t.v[i], the old edge
/// was (b, c) and d is the vertex of u opposite it. Returns u.
static int32_t flip(an_cdt *cdt, int32_t t, int i) {
  an_cdt_tri tt = cdt->tris[t];
  int32_t u = tt.n[i];
  assert(u >= 0); // only an interior edge has a second triangle to flip with
  an_cdt_tri uu = cdt->tris[u];
  int j = neighbour_index(&uu, t);
  assert(j >= 0); // neighbour links are symmetric
  int32_t a = tt.v[i], b = tt.v[next3(i)], c = tt.v[prev3(i)], d = uu.v[j];
  int32_t nca = tt.n[next3(i)], nab = tt.n[prev3(i)];
  bool cca = is_constrained(&tt, next3(i)), cab = is_constrained(&tt, prev3(i));
  int32_t nbd = uu.n[next3(j)], ndc = uu.n[prev3(j)];
  bool cbd = is_constrained(&uu, next3(j)), cdc = is_constrained(&uu, prev3(j));
  set_tri(cdt, t, a, b, d, nbd, u, nab, cbd, false, cab);
  set_tri(cdt, u, d, c, a, nca, t, ndc, cca, false, cdc);
  relink(cdt, nbd, u, t);
  relink(cdt, nca, t, u);
  return u;
}

static bool is_illegal(const an_cdt *cdt, int32_t t, int i) {
  const an_cdt_tri *tri = &cdt->tris[t];
  int32_t u = tri->n[i];
  if (u < 0 || is_constrained(tri, i)) {
    return false;
  }
  const an_cdt_tri *ut = &cdt->tris[u];
  int j = neighbour_index(ut, t);
  assert(j >= 0); // neighbour links are symmetric
  vec2 d = cdt->points[ut->v[j]];
  return an_incircle(cdt->points[tri->v[0]], cdt->points[tri->v[1]], cdt->points[tri->v[2]], d) >
         0.0;
}

/// Run flips until the work stack is back down to `low` entries.
static arcnav_status legalize(an_cdt *cdt, size_t low) {
  while (cdt->stack_count > low) {
    int i = cdt->stack[--cdt->stack_count];
    int32_t t = cdt->stack[--cdt->stack_count];
    if (!is_illegal(cdt, t, i)) {
      continue;
    }
    int32_t u = flip(cdt, t, i);
    cdt->flips++;
    // The four outer edges of the flipped quad: edges 0 and 2 of both t and u.
    if (!push_work(cdt, t, 0) || !push_work(cdt, t, 2) || !push_work(cdt, u, 0) ||
        !push_work(cdt, u, 2)) {
      return ARCNAV_ERR_OUT_OF_MEMORY;
    }
  }
  return ARCNAV_OK;
}

/// Split triangle t at new vertex p (strictly inside it).
static arcnav_status split_triangle(an_cdt *cdt, int32_t t, int32_t p) {
  if (!reserve_tris(cdt, 2)) {
    return ARCNAV_ERR_OUT_OF_MEMORY;
  }
  an_cdt_tri tt = cdt->tris[t];
  int32_t t1 = (int32_t)cdt->tri_count, t2 = t1 + 1;
  cdt->tri_count += 2;
  int32_t a = tt.v[0], b = tt.v[1], c = tt.v[2];
  set_tri(cdt, t, a, b, p, t1, t2, tt.n[2], false, false, is_constrained(&tt, 2));
  set_tri(cdt, t1, b, c, p, t2, t, tt.n[0], false, false, is_constrained(&tt, 0));
  set_tri(cdt, t2, c, a, p, t, t1, tt.n[1], false, false, is_constrained(&tt, 1));
  relink(cdt, tt.n[0], t, t1);
  relink(cdt, tt.n[1], t, t2);
  cdt->hint = t;
  size_t low = cdt->stack_count;
  if (!push_work(cdt, t, 2) || !push_work(cdt, t1, 2) || !push_work(cdt, t2, 2)) {
    return ARCNAV_ERR_OUT_OF_MEMORY;
  }
  return legalize(cdt, low);
}

/// Split edge i of t (and the triangle across it) at new vertex p, which lies on that edge. A
/// constraint edge stays a constraint on both halves.
static arcnav_status split_edge(an_cdt *cdt, int32_t t, int i, int32_t p) {
  an_cdt_tri tt = cdt->tris[t];
  int32_t u = tt.n[i];
  if (u < 0) {
    return ARCNAV_ERR_INVALID_ARGUMENT; // on the box boundary: callers keep points inside
  }
  if (!reserve_tris(cdt, 2)) {
    return ARCNAV_ERR_OUT_OF_MEMORY;
  }
  an_cdt_tri uu = cdt->tris[u];
  int j = neighbour_index(&uu, t);
  assert(j >= 0);                                           // neighbour links are symmetric
  assert(is_constrained(&uu, j) == is_constrained(&tt, i)); // marked on both sides or neither
  int32_t a = tt.v[i], b = tt.v[next3(i)], c = tt.v[prev3(i)], d = uu.v[j];
  int32_t nca = tt.n[next3(i)], nab = tt.n[prev3(i)];
  bool cca = is_constrained(&tt, next3(i)), cab = is_constrained(&tt, prev3(i));
  int32_t nbd = uu.n[next3(j)], ndc = uu.n[prev3(j)];
  bool cbd = is_constrained(&uu, next3(j)), cdc = is_constrained(&uu, prev3(j));
  bool ce = is_constrained(&tt, i);
  int32_t t2 = (int32_t)cdt->tri_count, u2 = t2 + 1;
  cdt->tri_count += 2;
  set_tri(cdt, t, a, b, p, u2, t2, nab, ce, false, cab);
  set_tri(cdt, t2, a, p, c, u, nca, t, ce, cca, false);
  set_tri(cdt, u, d, c, p, t2, u2, ndc, ce, false, cdc);
  set_tri(cdt, u2, d, p, b, t, nbd, u, ce, cbd, false);
  relink(cdt, nca, t, t2);
  relink(cdt, nbd, u, u2);
  cdt->hint = t;
  size_t low = cdt->stack_count;
  // Outer edges of the four triangles.
  if (!push_work(cdt, t, 2) || !push_work(cdt, t2, 1) || !push_work(cdt, u, 2) ||
      !push_work(cdt, u2, 1)) {
    return ARCNAV_ERR_OUT_OF_MEMORY;
  }
  return legalize(cdt, low);
}

arcnav_status an_cdt_insert_point(an_cdt *cdt, vec2 p, int32_t *out_vertex) {
  vec2 lo = cdt->points[0], hi = cdt->points[2];
  if (!v2_is_finite(p) || !(p.x > lo.x && p.x < hi.x && p.y > lo.y && p.y < hi.y)) {
    return ARCNAV_ERR_INVALID_ARGUMENT;
  }
  int32_t t = walk(cdt, p, cdt->hint, next_random(&cdt->rng));
  if (t < 0) {
    return ARCNAV_ERR_INVALID_ARGUMENT;
  }
  const an_cdt_tri *tri = &cdt->tris[t];
  int on_edge = -1;
  for (int i = 0; i < 3; ++i) {
    if (same_point(cdt->points[tri->v[i]], p)) {
      *out_vertex = tri->v[i];
      cdt->hint = t;
      return ARCNAV_OK;
    }
  }
  for (int i = 0; i < 3; ++i) {
    if (an_orient2d(cdt->points[tri->v[next3(i)]], cdt->points[tri->v[prev3(i)]], p) == 0.0) {
      on_edge = i;
    }
  }
  int32_t v = add_vertex(cdt, p);
  if (v < 0) {
    return ARCNAV_ERR_OUT_OF_MEMORY;
  }
  *out_vertex = v;
  return on_edge >= 0 ? split_edge(cdt, t, on_edge, v) : split_triangle(cdt, t, v);
}

arcnav_status an_cdt_split_edge(an_cdt *cdt, int32_t a, int32_t b, vec2 p, int32_t *out_vertex) {
  int32_t t;
  int i = a >= 0 && b >= 0 && (size_t)a < cdt->point_count && (size_t)b < cdt->point_count
              ? an_cdt_find_edge(cdt, a, b, &t)
              : -1;
  if (i < 0 || cdt->tris[t].n[i] < 0) {
    return ARCNAV_ERR_INVALID_ARGUMENT;
  }
  int32_t u = cdt->tris[t].n[i];
  vec2 pa = cdt->points[cdt->tris[t].v[i]];
  vec2 pb = cdt->points[cdt->tris[t].v[next3(i)]], pc = cdt->points[cdt->tris[t].v[prev3(i)]];
  vec2 pd = cdt->points[cdt->tris[u].v[neighbour_index(&cdt->tris[u], t)]];
  if (!(an_orient2d(pa, pb, p) > 0.0 && an_orient2d(pa, p, pc) > 0.0 &&
        an_orient2d(pd, pc, p) > 0.0 && an_orient2d(pd, p, pb) > 0.0)) {
    return ARCNAV_ERR_INVALID_ARGUMENT;
  }
  int32_t v = add_vertex(cdt, p);
  if (v < 0) {
    return ARCNAV_ERR_OUT_OF_MEMORY;
  }
  *out_vertex = v;
  return split_edge(cdt, t, i, v);
}

// Walking around a vertex. In triangle t with vertex a at index k, the next triangle
// counter-clockwise around a is across edge k + 1, the next clockwise across edge k + 2.

int an_cdt_find_edge(const an_cdt *cdt, int32_t a, int32_t b, int32_t *out_tri) {
  int32_t start = cdt->vertex_tri[a];
  for (int dir = 0; dir < 2; ++dir) {
    int32_t t = start;
    do {
      const an_cdt_tri *tri = &cdt->tris[t];
      int k = an_cdt_vertex_index(tri, a);
      assert(k >= 0); // vertex_tri[a] holds a, and so does every triangle reached round it
      if (tri->v[next3(k)] == b) {
        *out_tri = t;
        return prev3(k);
      }
      if (tri->v[prev3(k)] == b) {
        *out_tri = t;
        return next3(k);
      }
      t = dir == 0 ? tri->n[next3(k)] : tri->n[prev3(k)];
    } while (t >= 0 && t != start);
    if (t == start) {
      break; // went all the way round
    }
  }
  return -1;
}

static void mark_constrained(an_cdt *cdt, int32_t t, int i) {
  cdt->tris[t].constrained |= (uint8_t)(1u << i);
  int32_t u = cdt->tris[t].n[i];
  if (u >= 0) {
    int j = neighbour_index(&cdt->tris[u], t);
    assert(j >= 0); // neighbour links are symmetric
    cdt->tris[u].constrained |= (uint8_t)(1u << j);
  }
}

static void constrain_edge(an_cdt *cdt, int32_t a, int32_t b) {
  int32_t t;
  int i = an_cdt_find_edge(cdt, a, b, &t);
  if (i >= 0) {
    mark_constrained(cdt, t, i);
  }
}

/// Where segment ab crosses segment pq (which it is known to cross properly).
static vec2 crossing_point(vec2 a, vec2 b, vec2 p, vec2 q) {
  double op = an_orient2d(a, b, p), oq = an_orient2d(a, b, q);
  double s = op / (op - oq);
  vec2 x = v2_lerp(p, q, s);
  // Keep the rounded point inside the edge's box.
  x.x = an_min(an_max(x.x, an_min(p.x, q.x)), an_max(p.x, q.x));
  x.y = an_min(an_max(x.y, an_min(p.y, q.y)), an_max(p.y, q.y));
  return x;
}

/// Flip out the edges crossing the open segment a-e (stored as vertex pairs on the work stack
/// from index `base`), then constrain a-e and restore the Delaunay property around the new edges.
static arcnav_status flip_out_crossings(an_cdt *cdt, int32_t a, int32_t e, size_t base) {
  vec2 pa = cdt->points[a], pe = cdt->points[e];
  size_t head = base;
  // Sloan: take crossing edges in turn; flip each one whose quadrilateral is convex, re-queue the
  // others. The queue is the stack array used as a FIFO from `head`; new edges that no longer
  // cross are collected after it. Termination is Sloan's result.
  size_t guard = 0;
  while (head < cdt->stack_count) {
    int32_t x = cdt->stack[head], y = cdt->stack[head + 1];
    head += 2;
    if (x < 0) {
      continue; // a finished edge parked for the Delaunay pass
    }
    int32_t t;
    int i = an_cdt_find_edge(cdt, x, y, &t);
    if (i < 0) {
      return ARCNAV_ERR_INVALID_ARGUMENT;
    }
    const an_cdt_tri *tri = &cdt->tris[t];
    int32_t u = tri->n[i];
    int32_t w1 = tri->v[i];
    int32_t w2 = cdt->tris[u].v[neighbour_index(&cdt->tris[u], t)];
    vec2 q1 = cdt->points[w1], q2 = cdt->points[w2];
    double ox = an_orient2d(q1, q2, cdt->points[x]), oy = an_orient2d(q1, q2, cdt->points[y]);
    bool convex = (ox > 0.0 && oy < 0.0) || (ox < 0.0 && oy > 0.0);
    if (!convex) {
      if (++guard > 64u * (cdt->stack_count - base + 2u) + 1024u) {
        return ARCNAV_ERR_INVALID_ARGUMENT; // cannot happen for a valid triangulation
      }
      if (!push_work(cdt, x, y)) {
        return ARCNAV_ERR_OUT_OF_MEMORY;
      }
      continue;
    }
    flip(cdt, t, i);
    double o1 = an_orient2d(pa, pe, q1), o2 = an_orient2d(pa, pe, q2);
    bool crosses = (o1 > 0.0 && o2 < 0.0) || (o1 < 0.0 && o2 > 0.0);
    if (crosses) {
      if (!push_work(cdt, w1, w2)) {
        return ARCNAV_ERR_OUT_OF_MEMORY;
      }
    } else {
      // Not crossing: keep it for the Delaunay pass, encoded with a negative marker.
      if (!push_work(cdt, -1 - w1, w2)) {
        return ARCNAV_ERR_OUT_OF_MEMORY;
      }
    }
  }
  constrain_edge(cdt, a, e);
  // Collect the new edges, then run Lawson's flips on them.
  size_t end = cdt->stack_count;
  size_t write = base;
  for (size_t k = base; k < end; k += 2) {
    if (cdt->stack[k] < 0) {
      cdt->stack[write++] = -1 - cdt->stack[k];
      cdt->stack[write++] = cdt->stack[k + 1];
    }
  }
  cdt->stack_count = write;
  for (size_t k = base; k < write; k += 2) {
    int32_t t;
    int i = an_cdt_find_edge(cdt, cdt->stack[k], cdt->stack[k + 1], &t);
    if (i < 0) {
      continue; // flipped away by an earlier legalisation
    }
    if (!push_work(cdt, t, i)) {
      return ARCNAV_ERR_OUT_OF_MEMORY;
    }
    arcnav_status st = legalize(cdt, write);
    if (st != ARCNAV_OK) {
      return st;
    }
  }
  cdt->stack_count = base;
  return ARCNAV_OK;
}

static arcnav_status insert_segment_depth(an_cdt *cdt, int32_t a, int32_t b, int depth);

static void unmark_constrained(an_cdt *cdt, int32_t t, int i) {
  cdt->tris[t].constrained &= (uint8_t) ~(1u << i);
  int32_t u = cdt->tris[t].n[i];
  if (u >= 0) {
    int j = neighbour_index(&cdt->tris[u], t);
    assert(j >= 0); // neighbour links are symmetric
    cdt->tris[u].constrained &= (uint8_t) ~(1u << j);
  }
}

/// Split constraint edge i of t at x (the crossing with the segment being inserted) and return the
/// new vertex. When the rounded crossing cannot split the edge into four valid triangles, it lies
/// within rounding of a vertex of the two triangles: an endpoint of the edge is then returned as
/// the crossing, and an opposite vertex is made part of the old constraint (the constraint is
/// rerouted through it) and returned. Either way the geometry moves by rounding amounts only.
static arcnav_status split_constraint_at(an_cdt *cdt, int32_t t, int i, vec2 x, int depth,
                                         int32_t *out) {
  an_cdt_tri tt = cdt->tris[t];
  int32_t b = tt.v[next3(i)], c = tt.v[prev3(i)];
  vec2 pb = cdt->points[b], pc = cdt->points[c];
  if (same_point(x, pb)) {
    *out = b;
    return ARCNAV_OK;
  }
  if (same_point(x, pc)) {
    *out = c;
    return ARCNAV_OK;
  }
  int32_t u = tt.n[i];
  if (u < 0) {
    return ARCNAV_ERR_INVALID_ARGUMENT;
  }
  vec2 pa = cdt->points[tt.v[i]];
  vec2 pd = cdt->points[cdt->tris[u].v[neighbour_index(&cdt->tris[u], t)]];
  // The rounded crossing must leave all four new triangles counter-clockwise.
  bool valid = an_orient2d(pa, pb, x) > 0.0 && an_orient2d(pa, x, pc) > 0.0 &&
               an_orient2d(pd, pc, x) > 0.0 && an_orient2d(pd, x, pb) > 0.0;
  if (!valid) {
    int32_t va = tt.v[i], vd = cdt->tris[u].v[neighbour_index(&cdt->tris[u], t)];
    int32_t cand[4] = {b, c, va, vd};
    int32_t best = b;
    double best_d = INFINITY;
    for (int k = 0; k < 4; ++k) {
      double d = v2_dist2(x, cdt->points[cand[k]]);
      if (d < best_d) {
        best_d = d;
        best = cand[k];
      }
    }
    *out = best;
    if (best == b || best == c) {
      return ARCNAV_OK;
    }
    unmark_constrained(cdt, t, i);
    arcnav_status st = insert_segment_depth(cdt, b, best, depth + 1);
    if (st == ARCNAV_OK) {
      st = insert_segment_depth(cdt, best, c, depth + 1);
    }
    return st;
  }
  int32_t v = add_vertex(cdt, x);
  if (v < 0) {
    return ARCNAV_ERR_OUT_OF_MEMORY;
  }
  *out = v;
  return split_edge(cdt, t, i, v);
}

/// Where the segment from a towards b leaves a: 0 with the triangle t around a whose wedge it
/// enters (k the index of a in t), or 1 when it runs along an edge of t to a vertex (*hit, the edge
/// being edge *hit_edge of t), or -1 when b is outside the triangulation.
static int find_wedge(const an_cdt *cdt, int32_t a, int32_t b, int32_t *out_t, int *out_k,
                      int32_t *hit, int *hit_edge) {
  vec2 pa = cdt->points[a], pb = cdt->points[b];
  int32_t start = cdt->vertex_tri[a];
  int32_t t = start;
  for (int dir = 0; dir < 2; ++dir) {
    t = start;
    do {
      const an_cdt_tri *tri = &cdt->tris[t];
      int k = an_cdt_vertex_index(tri, a);
      int32_t p = tri->v[next3(k)], q = tri->v[prev3(k)];
      *out_t = t;
      *out_k = k;
      if (p == b || q == b) {
        *hit = b;
        *hit_edge = p == b ? prev3(k) : next3(k);
        return 1;
      }
      vec2 pp = cdt->points[p], pq = cdt->points[q];
      double op = an_orient2d(pa, pp, pb), oq = an_orient2d(pa, pq, pb);
      if (op == 0.0 && v2_dot(v2_sub(pp, pa), v2_sub(pb, pa)) > 0.0) {
        *hit = p;
        *hit_edge = prev3(k);
        return 1;
      }
      if (oq == 0.0 && v2_dot(v2_sub(pq, pa), v2_sub(pb, pa)) > 0.0) {
        *hit = q;
        *hit_edge = next3(k);
        return 1;
      }
      if (op > 0.0 && oq < 0.0) {
        return 0;
      }
      t = dir == 0 ? tri->n[next3(k)] : tri->n[prev3(k)];
    } while (t >= 0 && t != start);
    if (t == start) {
      break;
    }
  }
  return -1; // no wedge: b is outside the triangulation
}

/// Make a-v a constraint for the first vertex v on the way from a to b (b itself, a vertex the
/// segment passes through, or a new vertex where it crosses a constraint). Returns v in *out.
static arcnav_status step_segment(an_cdt *cdt, int32_t a, int32_t b, int depth, int32_t *out) {
  vec2 pa = cdt->points[a], pb = cdt->points[b];
  int32_t t, hit;
  int k, hit_edge;
  int w = find_wedge(cdt, a, b, &t, &k, &hit, &hit_edge);
  if (w < 0) {
    return ARCNAV_ERR_INVALID_ARGUMENT;
  }
  if (w == 1) {
    mark_constrained(cdt, t, hit_edge);
    *out = hit;
    return ARCNAV_OK;
  }
  // Walk along the segment, recording crossed edges as (right, left) vertex pairs.
  size_t base = cdt->stack_count;
  int e = k; // crossed edge of t: the one opposite a
  for (;;) {
    const an_cdt_tri *tri = &cdt->tris[t];
    int32_t right = tri->v[next3(e)], left = tri->v[prev3(e)];
    if (is_constrained(tri, e)) {
      cdt->stack_count = base;
      vec2 x = crossing_point(pa, pb, cdt->points[right], cdt->points[left]);
      int32_t v;
      arcnav_status st = split_constraint_at(cdt, t, e, x, depth, &v);
      if (st != ARCNAV_OK) {
        return st;
      }
      st = insert_segment_depth(cdt, a, v, depth + 1);
      *out = v;
      return st;
    }
    if (!push_work(cdt, right, left)) {
      return ARCNAV_ERR_OUT_OF_MEMORY;
    }
    int32_t u = tri->n[e];
    if (u < 0) {
      return ARCNAV_ERR_INVALID_ARGUMENT;
    }
    const an_cdt_tri *ut = &cdt->tris[u];
    int j = neighbour_index(ut, t);
    int32_t r = ut->v[j];
    double o = an_orient2d(pa, pb, cdt->points[r]);
    if (o == 0.0) {
      arcnav_status st = flip_out_crossings(cdt, a, r, base);
      *out = r;
      return st;
    }
    // r left of the segment: the next crossed edge is (right, r), opposite the left vertex;
    // r right: (r, left), opposite the right vertex.
    e = o > 0.0 ? next3(j) : prev3(j);
    t = u;
  }
}

static arcnav_status insert_segment_depth(an_cdt *cdt, int32_t a, int32_t b, int depth) {
  if (depth > 16) {
    return ARCNAV_ERR_INVALID_ARGUMENT; // crossings that keep rounding onto new crossings
  }
  while (a != b) {
    int32_t v;
    arcnav_status st = step_segment(cdt, a, b, depth, &v);
    if (st != ARCNAV_OK) {
      return st;
    }
    a = v;
  }
  return ARCNAV_OK;
}

arcnav_status an_cdt_insert_segment(an_cdt *cdt, int32_t a, int32_t b) {
  if (a < 0 || b < 0 || (size_t)a >= cdt->point_count || (size_t)b >= cdt->point_count) {
    return ARCNAV_ERR_INVALID_ARGUMENT;
  }
  return insert_segment_depth(cdt, a, b, 0);
}

arcnav_status an_cdt_insert_segment_kept(an_cdt *cdt, int32_t a, int32_t b, an_cdt_keep_fn keep,
                                         void *ctx) {
  if (a < 0 || b < 0 || (size_t)a >= cdt->point_count || (size_t)b >= cdt->point_count) {
    return ARCNAV_ERR_INVALID_ARGUMENT;
  }
  int32_t cur = a;
  bool force = false; // the piece from cur was already judged worth keeping
  while (cur != b) {
    vec2 pa = cdt->points[cur], pb = cdt->points[b];
    int32_t t, hit, v;
    int k, hit_edge;
    int w = find_wedge(cdt, cur, b, &t, &k, &hit, &hit_edge);
    if (w < 0) {
      return ARCNAV_ERR_INVALID_ARGUMENT;
    }
    if (w == 1) {
      if (force || keep(ctx, pa, cdt->points[hit])) {
        mark_constrained(cdt, t, hit_edge);
      }
      cur = hit;
      force = false;
      continue;
    }
    // Walk without changing anything to the next vertex on the segment or constraint crossing;
    // pieces judged not worth keeping are walked past.
    vec2 from = pa;
    int32_t from_t = -1;
    int from_e = -1;
    int e = k;
    arcnav_status st = ARCNAV_OK;
    bool moved = false;
    for (size_t guard = 0; !moved; ++guard) {
      if (guard > 4 * cdt->tri_count + 16) {
        return ARCNAV_ERR_INVALID_ARGUMENT; // cannot happen in a valid triangulation
      }
      const an_cdt_tri *tri = &cdt->tris[t];
      int32_t u = tri->n[e];
      vec2 stop;
      int32_t stop_vertex = -1;
      int32_t r = -1;
      int j = -1;
      if (u < 0) {
        return ARCNAV_ERR_INVALID_ARGUMENT;
      }
      if (is_constrained(tri, e)) {
        stop = crossing_point(pa, pb, cdt->points[tri->v[next3(e)]], cdt->points[tri->v[prev3(e)]]);
      } else {
        j = neighbour_index(&cdt->tris[u], t);
        r = cdt->tris[u].v[j];
        if (an_orient2d(pa, pb, cdt->points[r]) != 0.0) {
          e = an_orient2d(pa, pb, cdt->points[r]) > 0.0 ? next3(j) : prev3(j);
          t = u;
          continue;
        }
        stop_vertex = r;
        stop = cdt->points[r];
      }
      bool wanted = force || keep(ctx, from, stop);
      force = false;
      if (wanted) {
        if (from_t < 0) {
          st = step_segment(cdt, cur, b, 0, &v); // runs to this very stop
          cur = v;
        } else {
          // Materialise the crossing the kept piece starts at; the next round inserts the piece.
          st = split_constraint_at(cdt, from_t, from_e, from, 0, &v);
          cur = v;
          force = true;
        }
        moved = true;
      } else if (stop_vertex >= 0) {
        cur = stop_vertex;
        moved = true;
      } else {
        from = stop;
        from_t = t;
        from_e = e;
        j = neighbour_index(&cdt->tris[u], t);
        r = cdt->tris[u].v[j];
        double o = an_orient2d(pa, pb, cdt->points[r]);
        if (o == 0.0) {
          // The next stop is a vertex just behind the crossing.
          if (keep(ctx, from, cdt->points[r])) {
            st = split_constraint_at(cdt, from_t, from_e, from, 0, &v);
            if (st == ARCNAV_OK && v != r) {
              st = insert_segment_depth(cdt, v, r, 1);
            }
          }
          cur = r;
          moved = true;
        } else {
          e = o > 0.0 ? next3(j) : prev3(j);
          t = u;
        }
      }
    }
    if (st != ARCNAV_OK) {
      return st;
    }
  }
  return ARCNAV_OK;
}

// Splitting the input before triangulating: every segment is cut at the input points that lie
// exactly on it and at its proper crossings with other segments. Doing this up front matters for
// robustness: a crossing point is rounded, and a constraint continued from a rounded point would
// pass a few ulps beside the input points its segment actually runs through; with the cuts made
// first, each piece ends exactly at those points.

typedef struct cut {
  uint32_t segment;
  uint32_t point;
  double t; ///< position along the segment, 0 at its first point and 1 at its second
} cut;

typedef struct build_lists {
  const an_allocator *alloc;
  vec2 *points;
  size_t point_count, point_capacity;
  cut *cuts;
  size_t cut_count, cut_capacity;
} build_lists;

static bool add_cut(build_lists *b, uint32_t segment, uint32_t point, double t) {
  if (!an_reserve(b->alloc, (void **)&b->cuts, &b->cut_capacity, b->cut_count, b->cut_count + 1,
                  sizeof(cut))) {
    return false;
  }
  b->cuts[b->cut_count++] = (cut){segment, point, t};
  return true;
}

static int compare_cuts(const void *pa, const void *pb) {
  const cut *a = pa, *b = pb;
  if (a->segment != b->segment) {
    return a->segment < b->segment ? -1 : 1;
  }
  if (a->t != b->t) {
    return a->t < b->t ? -1 : 1;
  }
  return a->point < b->point ? -1 : (a->point > b->point);
}

typedef struct sorted_index {
  double key;
  uint32_t index;
} sorted_index;

static int compare_sorted(const void *pa, const void *pb) {
  const sorted_index *a = pa, *b = pb;
  if (a->key != b->key) {
    return a->key < b->key ? -1 : 1;
  }
  return a->index < b->index ? -1 : (a->index > b->index);
}

static double param_on(vec2 a, vec2 b, vec2 p) {
  vec2 d = v2_sub(b, a);
  return v2_dot(v2_sub(p, a), d) / v2_len2(d);
}

static int sgn(double v) {
  return (v > 0.0) - (v < 0.0);
}

/// Segment s's bounding box, read where the sweeps need it.
typedef struct seg_box {
  double x0, x1, y0, y1;
} seg_box;

/// A pair of segments that cross, as their positions in the sweep order (lo < hi): sorting the
/// pairs restores the order in which a plain sweep would find them, so the crossing points get the
/// same indices however they were found.
typedef struct cross_pair {
  uint32_t lo, hi;
} cross_pair;

static int compare_pairs(const void *pa, const void *pb) {
  const cross_pair *a = pa, *b = pb;
  if (a->lo != b->lo) {
    return a->lo < b->lo ? -1 : 1;
  }
  return a->hi < b->hi ? -1 : (a->hi > b->hi);
}

typedef struct cutter {
  build_lists *b;
  const uint32_t *segments;
  const sorted_index *seg_x; ///< live segments by smallest x (then index): the sweep order
  const seg_box *box;        ///< per sweep position
  const sorted_index *by_x;  ///< points by x (then index)
  cross_pair *pairs;
  size_t pair_count, pair_capacity;
  size_t limit; ///< stop once more crossings than this are found (0: no limit)
  bool ok, over;
} cutter;

static vec2 seg_point(const cutter *c, uint32_t pos, int end) {
  return c->b->points[c->segments[2 * c->seg_x[pos].index + (uint32_t)end]];
}

/// Cut the segment at sweep position `pos` at the points by_x[lo..hi) lying exactly inside it.
static void cut_at_points(cutter *c, uint32_t pos, const uint32_t *points, size_t count) {
  const seg_box *bx = &c->box[pos];
  vec2 pa = seg_point(c, pos, 0), pb = seg_point(c, pos, 1);
  // First point with x >= x0 (the list is in by_x order).
  size_t lo = 0, hi = count;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if (c->by_x[points[mid]].key < bx->x0) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  for (size_t k = lo; k < count && c->by_x[points[k]].key <= bx->x1 && c->ok; ++k) {
    uint32_t index = c->by_x[points[k]].index;
    vec2 p = c->b->points[index];
    if (p.y < bx->y0 || p.y > bx->y1 || same_point(p, pa) || same_point(p, pb)) {
      continue;
    }
    if (an_orient2d(pa, pb, p) == 0.0) {
      c->ok = add_cut(c->b, c->seg_x[pos].index, index, param_on(pa, pb, p));
    }
  }
}

/// Record the pair when the segments at sweep positions i and j cross properly.
static void test_pair(cutter *c, uint32_t i, uint32_t j) {
  const seg_box *a = &c->box[i], *b = &c->box[j];
  if (a->x1 < b->x0 || b->x1 < a->x0 || a->y1 < b->y0 || b->y1 < a->y0) {
    return;
  }
  vec2 pa = seg_point(c, i, 0), pb = seg_point(c, i, 1);
  vec2 pc = seg_point(c, j, 0), pd = seg_point(c, j, 1);
  int o1 = sgn(an_orient2d(pa, pb, pc)), o2 = sgn(an_orient2d(pa, pb, pd));
  if (o1 * o2 >= 0) {
    return;
  }
  int o3 = sgn(an_orient2d(pc, pd, pa)), o4 = sgn(an_orient2d(pc, pd, pb));
  if (o3 * o4 >= 0) {
    return; // touching at a point of the other segment is handled by the point cuts
  }
  if (c->limit > 0 && c->pair_count >= c->limit) {
    c->over = true;
    c->ok = false;
    return;
  }
  if (!an_reserve(c->b->alloc, (void **)&c->pairs, &c->pair_capacity, c->pair_count,
                  c->pair_count + 1, sizeof(cross_pair))) {
    c->ok = false;
    return;
  }
  c->pairs[c->pair_count++] = (cross_pair){i < j ? i : j, i < j ? j : i};
}

/// One group of segments and points: sweep positions of its segments (ascending) and by_x
/// positions of its points (ascending), its bounding box and its widest segment in x.
typedef struct seg_group {
  uint32_t seg_first, seg_count, point_first, point_count;
  seg_box box;
  double width;
  bool clean;
} seg_group;

// Cutting, by groups: every pair of segments (and every point-segment pair) from two groups with
// overlapping boxes is tested, and so is every pair inside a group unless the caller vouches that
// the group is clean (its segments meet only at shared endpoints and its points lie on none of its
// segments' interiors, as in a validated polygon). A sweep over all segments at once would test
// every pair whose x ranges overlap: quadratic on a many-pointed star.
static arcnav_status cut_segments(build_lists *b, const uint32_t *segments, size_t segment_count,
                                  const an_cdt_options *opt) {
  size_t n = b->point_count;
  size_t group_count = opt && opt->group_count > 0 ? opt->group_count : 1;
  sorted_index *by_x = an_alloc(b->alloc, n + 1, sizeof *by_x);
  sorted_index *seg_x = an_alloc(b->alloc, segment_count + 1, sizeof *seg_x);
  seg_box *box = an_alloc(b->alloc, segment_count + 1, sizeof *box);
  seg_group *groups = an_calloc(b->alloc, group_count, sizeof *groups);
  uint32_t *group_segs = an_alloc(b->alloc, segment_count + 1, sizeof *group_segs);
  uint32_t *group_points = an_alloc(b->alloc, n + 1, sizeof *group_points);
  sorted_index *group_order = an_alloc(b->alloc, group_count, sizeof *group_order);
  cutter c = {.b = b, .segments = segments, .seg_x = seg_x, .box = box, .by_x = by_x, .ok = true};
  c.limit = opt ? opt->crossing_limit : 0;
  if (!by_x || !seg_x || !box || !groups || !group_segs || !group_points || !group_order) {
    c.ok = false;
    goto done;
  }
  for (size_t i = 0; i < n; ++i) {
    by_x[i] = (sorted_index){b->points[i].x, (uint32_t)i};
  }
  qsort(by_x, n, sizeof *by_x, compare_sorted);
  size_t live = 0;
  for (size_t s = 0; s < segment_count && c.ok; ++s) {
    vec2 pa = b->points[segments[2 * s]], pb = b->points[segments[2 * s + 1]];
    c.ok = add_cut(b, (uint32_t)s, segments[2 * s], 0.0) &&
           add_cut(b, (uint32_t)s, segments[2 * s + 1], 1.0);
    if (!same_point(pa, pb)) {
      seg_x[live++] = (sorted_index){an_min(pa.x, pb.x), (uint32_t)s};
    }
  }
  if (!c.ok) {
    goto done;
  }
  qsort(seg_x, live, sizeof *seg_x, compare_sorted);
  for (size_t g = 0; g < group_count; ++g) {
    groups[g].box = (seg_box){INFINITY, -INFINITY, INFINITY, -INFINITY};
    groups[g].clean = opt && opt->group_clean && opt->group_clean[g];
  }
  // Bucket segments and points by group, keeping the sweep and by_x orders within each.
  for (size_t k = 0; k < live; ++k) {
    uint32_t s = seg_x[k].index;
    vec2 pa = b->points[segments[2 * s]], pb = b->points[segments[2 * s + 1]];
    box[k] =
        (seg_box){an_min(pa.x, pb.x), an_max(pa.x, pb.x), an_min(pa.y, pb.y), an_max(pa.y, pb.y)};
    uint32_t g = opt && opt->segment_group ? opt->segment_group[s] : 0;
    seg_group *gr = &groups[g < group_count ? g : 0];
    gr->seg_count++;
    gr->width = an_max(gr->width, box[k].x1 - box[k].x0);
    gr->box.x0 = an_min(gr->box.x0, box[k].x0);
    gr->box.x1 = an_max(gr->box.x1, box[k].x1);
    gr->box.y0 = an_min(gr->box.y0, box[k].y0);
    gr->box.y1 = an_max(gr->box.y1, box[k].y1);
  }
  for (size_t k = 0; k < n; ++k) {
    uint32_t p = by_x[k].index;
    uint32_t g = opt && opt->point_group ? opt->point_group[p] : 0;
    seg_group *gr = &groups[g < group_count ? g : 0];
    gr->point_count++;
    vec2 q = b->points[p];
    gr->box.x0 = an_min(gr->box.x0, q.x);
    gr->box.x1 = an_max(gr->box.x1, q.x);
    gr->box.y0 = an_min(gr->box.y0, q.y);
    gr->box.y1 = an_max(gr->box.y1, q.y);
  }
  uint32_t seg_at = 0, point_at = 0;
  for (size_t g = 0; g < group_count; ++g) {
    groups[g].seg_first = seg_at;
    groups[g].point_first = point_at;
    seg_at += groups[g].seg_count;
    point_at += groups[g].point_count;
    groups[g].seg_count = groups[g].point_count = 0;
  }
  for (size_t k = 0; k < live; ++k) {
    uint32_t g = opt && opt->segment_group ? opt->segment_group[seg_x[k].index] : 0;
    seg_group *gr = &groups[g < group_count ? g : 0];
    group_segs[gr->seg_first + gr->seg_count++] = (uint32_t)k;
  }
  for (size_t k = 0; k < n; ++k) {
    uint32_t g = opt && opt->point_group ? opt->point_group[by_x[k].index] : 0;
    seg_group *gr = &groups[g < group_count ? g : 0];
    group_points[gr->point_first + gr->point_count++] = (uint32_t)k;
  }
  // Inside each group that is not vouched for: the plain sweep.
  for (size_t g = 0; g < group_count && c.ok; ++g) {
    const seg_group *gr = &groups[g];
    if (gr->clean) {
      continue;
    }
    const uint32_t *segs = group_segs + gr->seg_first;
    for (uint32_t a = 0; a < gr->seg_count && c.ok; ++a) {
      cut_at_points(&c, segs[a], group_points + gr->point_first, gr->point_count);
      for (uint32_t k = a + 1; k < gr->seg_count && box[segs[k]].x0 <= box[segs[a]].x1 && c.ok;
           ++k) {
        test_pair(&c, segs[a], segs[k]);
      }
    }
  }
  // Between groups with overlapping boxes.
  size_t used = 0;
  for (size_t g = 0; g < group_count; ++g) {
    if (groups[g].seg_count + groups[g].point_count > 0) {
      group_order[used++] = (sorted_index){groups[g].box.x0, (uint32_t)g};
    }
  }
  qsort(group_order, used, sizeof *group_order, compare_sorted);
  for (size_t i = 0; i < used && c.ok; ++i) {
    const seg_group *ga = &groups[group_order[i].index];
    for (size_t j = i + 1; j < used && group_order[j].key <= ga->box.x1 && c.ok; ++j) {
      const seg_group *gb = &groups[group_order[j].index];
      if (gb->box.y1 < ga->box.y0 || ga->box.y1 < gb->box.y0) {
        continue;
      }
      for (int side = 0; side < 2 && c.ok; ++side) {
        const seg_group *gs = side == 0 ? ga : gb, *gp = side == 0 ? gb : ga;
        for (uint32_t a = 0; a < gs->seg_count && c.ok; ++a) {
          uint32_t pos = group_segs[gs->seg_first + a];
          const seg_box *bx = &box[pos];
          if (bx->x1 < gp->box.x0 || bx->x0 > gp->box.x1 || bx->y1 < gp->box.y0 ||
              bx->y0 > gp->box.y1) {
            continue;
          }
          cut_at_points(&c, pos, group_points + gp->point_first, gp->point_count);
        }
      }
      // Crossings: each segment of the group with fewer segments against the other's segments
      // whose smallest x lies in [x0 - widest, x1].
      const seg_group *gs = ga->seg_count <= gb->seg_count ? ga : gb;
      const seg_group *go = gs == ga ? gb : ga;
      const uint32_t *other = group_segs + go->seg_first;
      for (uint32_t a = 0; a < gs->seg_count && c.ok; ++a) {
        uint32_t pos = group_segs[gs->seg_first + a];
        const seg_box *bx = &box[pos];
        if (bx->x1 < go->box.x0 || bx->x0 > go->box.x1 || bx->y1 < go->box.y0 ||
            bx->y0 > go->box.y1) {
          continue;
        }
        double from = bx->x0 - go->width;
        size_t lo = 0, hi = go->seg_count;
        while (lo < hi) {
          size_t mid = (lo + hi) / 2;
          if (box[other[mid]].x0 < from) {
            lo = mid + 1;
          } else {
            hi = mid;
          }
        }
        for (size_t k = lo; k < go->seg_count && box[other[k]].x0 <= bx->x1 && c.ok; ++k) {
          test_pair(&c, pos, other[k]);
        }
      }
    }
  }
  if (!c.ok) {
    goto done;
  }
  if (c.pair_count > 0) {
    qsort(c.pairs, c.pair_count, sizeof *c.pairs, compare_pairs);
  }
  for (size_t k = 0; k < c.pair_count && c.ok; ++k) {
    uint32_t s = seg_x[c.pairs[k].lo].index, r = seg_x[c.pairs[k].hi].index;
    vec2 pa = b->points[segments[2 * s]], pb = b->points[segments[2 * s + 1]];
    vec2 pc = b->points[segments[2 * r]], pd = b->points[segments[2 * r + 1]];
    vec2 x = crossing_point(pa, pb, pc, pd);
    if (!an_reserve(b->alloc, (void **)&b->points, &b->point_capacity, b->point_count,
                    b->point_count + 1, sizeof(vec2))) {
      c.ok = false;
      break;
    }
    uint32_t idx = (uint32_t)b->point_count;
    b->points[b->point_count++] = x;
    c.ok = add_cut(b, s, idx, param_on(pa, pb, x)) && add_cut(b, r, idx, param_on(pc, pd, x));
  }
done:
  an_free(b->alloc, by_x);
  an_free(b->alloc, seg_x);
  an_free(b->alloc, box);
  an_free(b->alloc, groups);
  an_free(b->alloc, group_segs);
  an_free(b->alloc, group_points);
  an_free(b->alloc, group_order);
  an_free(b->alloc, c.pairs);
  if (c.over) {
    return ARCNAV_ERR_TOO_LARGE;
  }
  return c.ok ? ARCNAV_OK : ARCNAV_ERR_OUT_OF_MEMORY;
}

/// Mix of an index, for the randomised rounds.
static uint32_t mix32(uint32_t x) {
  x ^= x >> 16;
  x *= 0x7feb352dU;
  x ^= x >> 15;
  x *= 0x846ca68bU;
  x ^= x >> 16;
  return x;
}

// Flips per inserted point beyond which the Hilbert order counts as degenerate. Ordinary input
// needs a handful per point; points on a few concentric circles (a star with many tips) are
// cocircular up to rounding, and each insertion in Hilbert order then flips a fan whose size
// grows with the point count.
#define FLIPS_PER_POINT_MAX 16
#define FLIPS_FREE 65536

/// Insert the points in the order of `keys` (Hilbert order). When that order proves degenerate,
/// start again in randomised rounds (half the points in the last round, a quarter in the one
/// before, ...), each round in Hilbert order: the expected work per point is then constant
/// whatever the input. keys[] is reordered then.
static arcnav_status insert_points(an_cdt *cdt, vec2 box_min, vec2 box_max, const vec2 *points,
                                   an_order_key *keys, size_t total, int32_t *map) {
  bool rounds = false;
  for (size_t i = 0; i < total; ++i) {
    arcnav_status st = an_cdt_insert_point(cdt, points[keys[i].index], &map[keys[i].index]);
    if (st != ARCNAV_OK) {
      return st;
    }
    if (!rounds && cdt->flips > FLIPS_PER_POINT_MAX * (i + 1) + FLIPS_FREE) {
      rounds = true;
      an_allocator alloc = cdt->alloc;
      an_cdt_free(cdt);
      st = an_cdt_init(cdt, &alloc, box_min, box_max);
      if (st != ARCNAV_OK) {
        return st;
      }
      for (size_t k = 0; k < total; ++k) {
        uint32_t r = mix32(keys[k].index + 0x9E3779B9u);
        uint64_t round = 0;
        while (round < 32 && (r & 1u)) {
          r >>= 1;
          ++round;
        }
        keys[k].key = (keys[k].key & 0xFFFFFFFFu) | ((32 - round) << 40);
      }
      qsort(keys, total, sizeof *keys, an_compare_order_keys);
      i = (size_t)-1; // restart at 0
    }
  }
  return ARCNAV_OK;
}

arcnav_status an_cdt_build(an_cdt *cdt, const an_allocator *alloc, vec2 box_min, vec2 box_max,
                           const vec2 *points, size_t point_count, const uint32_t *segments,
                           size_t segment_count, int32_t *vertex_of) {
  return an_cdt_build_ex(cdt, alloc, box_min, box_max, points, point_count, segments, segment_count,
                         NULL, vertex_of);
}

arcnav_status an_cdt_build_ex(an_cdt *cdt, const an_allocator *alloc, vec2 box_min, vec2 box_max,
                              const vec2 *points, size_t point_count, const uint32_t *segments,
                              size_t segment_count, an_cdt_options *options, int32_t *vertex_of) {
  if (options) {
    options->over_limit = false;
  }
  arcnav_status st = an_cdt_init(cdt, alloc, box_min, box_max);
  if (st != ARCNAV_OK) {
    return st;
  }
  if (point_count == 0) {
    return segment_count == 0 ? ARCNAV_OK : ARCNAV_ERR_INVALID_ARGUMENT;
  }
  if (point_count > (size_t)INT32_MAX / 8 || segment_count > (size_t)INT32_MAX / 8) {
    an_cdt_free(cdt);
    return ARCNAV_ERR_TOO_LARGE;
  }
  for (size_t s = 0; s < 2 * segment_count; ++s) {
    if (segments[s] >= point_count) {
      an_cdt_free(cdt);
      return ARCNAV_ERR_INVALID_ARGUMENT;
    }
  }
  build_lists lists = {.alloc = alloc};
  if (!an_reserve(alloc, (void **)&lists.points, &lists.point_capacity, 0, point_count,
                  sizeof(vec2))) {
    an_cdt_free(cdt);
    return ARCNAV_ERR_OUT_OF_MEMORY;
  }
  memcpy(lists.points, points, point_count * sizeof(vec2));
  lists.point_count = point_count;
  st = cut_segments(&lists, segments, segment_count, options);
  if (st == ARCNAV_ERR_TOO_LARGE && options) {
    options->over_limit = true;
  }
  size_t total = lists.point_count;
  an_order_key *keys = st == ARCNAV_OK ? an_alloc(alloc, total, sizeof *keys) : NULL;
  int32_t *map = st == ARCNAV_OK ? an_alloc(alloc, total, sizeof *map) : NULL;
  if (st == ARCNAV_OK && (!keys || !map)) {
    st = ARCNAV_ERR_OUT_OF_MEMORY;
  }
  if (st == ARCNAV_OK) {
    // Consecutive insertions close together keep each walk short.
    for (size_t i = 0; i < total; ++i) {
      keys[i].key = an_hilbert_index(lists.points[i], box_min, box_max);
      keys[i].index = (uint32_t)i;
    }
    qsort(keys, total, sizeof *keys, an_compare_order_keys);
    st = insert_points(cdt, box_min, box_max, lists.points, keys, total, map);
  }
  if (st == ARCNAV_OK) {
    if (lists.cut_count > 0) {
      qsort(lists.cuts, lists.cut_count, sizeof *lists.cuts, compare_cuts);
    }
    for (size_t k = 0; k + 1 < lists.cut_count && st == ARCNAV_OK; ++k) {
      if (lists.cuts[k].segment != lists.cuts[k + 1].segment) {
        continue;
      }
      st = an_cdt_insert_segment(cdt, map[lists.cuts[k].point], map[lists.cuts[k + 1].point]);
    }
  }
  if (st == ARCNAV_OK && vertex_of) {
    memcpy(vertex_of, map, point_count * sizeof *map);
  }
  an_free(alloc, keys);
  an_free(alloc, map);
  an_free(alloc, lists.points);
  an_free(alloc, lists.cuts);
  if (st != ARCNAV_OK) {
    an_cdt_free(cdt);
  }
  return st;
}

// ---------------------------------------------------------------------------------------------
// Validation
// ---------------------------------------------------------------------------------------------

#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
static bool
check_fail(char *why, size_t why_size, const char *format, ...) {
  if (why && why_size > 0) {
    va_list args;
    va_start(args, format);
    vsnprintf(why, why_size, format, args);
    va_end(args);
  }
  return false;
}

/// Is edge i of `tri` on the boundary of the box [lo, hi]?
static bool edge_on_box(const an_cdt *cdt, const an_cdt_tri *tri, int i, vec2 lo, vec2 hi) {
  vec2 p = cdt->points[tri->v[next3(i)]], q = cdt->points[tri->v[prev3(i)]];
  return (p.x == q.x && (p.x == lo.x || p.x == hi.x)) ||
         (p.y == q.y && (p.y == lo.y || p.y == hi.y));
}

bool an_cdt_check(const an_cdt *cdt, char *why, size_t why_size) {
  if (cdt->point_count < 4 || cdt->tri_count < 2) {
    return check_fail(why, why_size, "%ld points and %ld triangles: not initialised",
                      (long)cdt->point_count, (long)cdt->tri_count);
  }
  vec2 lo = cdt->points[0], hi = cdt->points[2];
  long points = (long)cdt->point_count, tris = (long)cdt->tri_count;
  // Indices first, so the checks below may follow them.
  for (long t = 0; t < tris; ++t) {
    const an_cdt_tri *tri = &cdt->tris[t];
    for (int i = 0; i < 3; ++i) {
      if (tri->v[i] < 0 || tri->v[i] >= points) {
        return check_fail(why, why_size, "triangle %ld: vertex index %ld out of range", t,
                          (long)tri->v[i]);
      }
      if (tri->n[i] < -1 || tri->n[i] >= tris || tri->n[i] == t) {
        return check_fail(why, why_size, "triangle %ld: neighbour index %ld out of range", t,
                          (long)tri->n[i]);
      }
    }
    if (tri->constrained > 7u) {
      return check_fail(why, why_size, "triangle %ld: constraint bits %ld", t,
                        (long)tri->constrained);
    }
  }
  for (long v = 0; v < points; ++v) {
    int32_t t = cdt->vertex_tri[v];
    if (t < 0 || t >= tris || an_cdt_vertex_index(&cdt->tris[t], (int32_t)v) < 0) {
      return check_fail(why, why_size, "vertex %ld: its triangle %ld does not hold it", v, (long)t);
    }
  }
  for (long t = 0; t < tris; ++t) {
    const an_cdt_tri *tri = &cdt->tris[t];
    vec2 a = cdt->points[tri->v[0]], b = cdt->points[tri->v[1]], c = cdt->points[tri->v[2]];
    if (!(an_orient2d(a, b, c) > 0.0)) {
      return check_fail(why, why_size, "triangle %ld is not counter-clockwise (vertex %ld first)",
                        t, (long)tri->v[0]);
    }
    for (int i = 0; i < 3; ++i) {
      int32_t u = tri->n[i];
      int32_t from = tri->v[next3(i)], to = tri->v[prev3(i)];
      if (u < 0) {
        if (!edge_on_box(cdt, tri, i, lo, hi)) {
          return check_fail(why, why_size, "triangle %ld: edge %ld has no neighbour inside the box",
                            t, (long)i);
        }
        continue;
      }
      const an_cdt_tri *ut = &cdt->tris[u];
      int j = neighbour_index(ut, (int32_t)t);
      if (j < 0) {
        return check_fail(why, why_size, "triangle %ld: neighbour %ld does not link back", t,
                          (long)u);
      }
      if (ut->v[next3(j)] != to || ut->v[prev3(j)] != from) {
        return check_fail(why, why_size, "triangles %ld and %ld: linked across different edges", t,
                          (long)u);
      }
      if (is_constrained(tri, i) != is_constrained(ut, j)) {
        return check_fail(why, why_size, "triangles %ld and %ld: constraint marked on one side", t,
                          (long)u);
      }
    }
  }
  return true;
}

bool an_cdt_check_delaunay(const an_cdt *cdt, char *why, size_t why_size) {
  for (size_t t = 0; t < cdt->tri_count; ++t) {
    const an_cdt_tri *tri = &cdt->tris[t];
    vec2 a = cdt->points[tri->v[0]], b = cdt->points[tri->v[1]], c = cdt->points[tri->v[2]];
    for (int i = 0; i < 3; ++i) {
      int32_t u = tri->n[i];
      if (u < 0 || is_constrained(tri, i)) {
        continue;
      }
      // The apex across the edge lies outside the circumcircle; on it is fine, cocircular points
      // having more than one valid diagonal.
      const an_cdt_tri *ut = &cdt->tris[u];
      int j = neighbour_index(ut, (int32_t)t);
      if (an_incircle(a, b, c, cdt->points[ut->v[j]]) > 0.0) {
        return check_fail(why, why_size, "triangles %ld and %ld: unconstrained edge not Delaunay",
                          (long)t, (long)u);
      }
    }
  }
  return true;
}

bool an_cdt_check_constraint(const an_cdt *cdt, int32_t a, int32_t b, char *why, size_t why_size) {
  if (a < 0 || b < 0 || (size_t)a >= cdt->point_count || (size_t)b >= cdt->point_count) {
    return check_fail(why, why_size, "constraint %ld-%ld: vertex out of range", (long)a, (long)b);
  }
  vec2 pa = cdt->points[a], pb = cdt->points[b];
  vec2 dir = v2_sub(pb, pa);
  int32_t v = a;
  for (size_t steps = 0; v != b; ++steps) {
    if (steps > cdt->point_count) {
      return check_fail(why, why_size, "constraint %ld-%ld: the chain does not end", (long)a,
                        (long)b);
    }
    // Among the constraint edges at v, the one that advances towards b and stays closest to the
    // segment (rounded crossings lie a rounding error off it).
    double here = v2_dot(v2_sub(cdt->points[v], pa), dir);
    int32_t best = -1;
    double best_off = INFINITY;
    int32_t start = cdt->vertex_tri[v];
    size_t visited = 0;
    for (int dir_side = 0; dir_side < 2; ++dir_side) {
      int32_t t = start;
      do {
        if (++visited > 2 * cdt->tri_count) {
          return check_fail(why, why_size, "constraint %ld-%ld: cannot go round vertex %ld",
                            (long)a, (long)b, (long)v);
        }
        const an_cdt_tri *tri = &cdt->tris[t];
        int k = an_cdt_vertex_index(tri, v);
        for (int e = 0; e < 2; ++e) {
          int edge = e == 0 ? next3(k) : prev3(k); // the two edges at v
          int32_t w = tri->v[e == 0 ? prev3(k) : next3(k)];
          if (!is_constrained(tri, edge)) {
            continue;
          }
          vec2 pw = cdt->points[w];
          double off = fabs(v2_cross(dir, v2_sub(pw, pa)));
          if (v2_dot(v2_sub(pw, pa), dir) > here && off < best_off) {
            best = w;
            best_off = off;
          }
        }
        t = dir_side == 0 ? tri->n[next3(k)] : tri->n[prev3(k)];
      } while (t >= 0 && t != start);
      if (t == start) {
        break; // went all the way round
      }
    }
    if (best < 0) {
      return check_fail(why, why_size,
                        "constraint %ld-%ld: no constraint edge goes on from its "
                        "vertex %ld",
                        (long)a, (long)b, (long)v);
    }
    v = best;
  }
  return true;
}
