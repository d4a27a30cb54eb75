// SPDX-License-Identifier: MIT
// The triangulation kernel: the box's first two triangles, point location, point insertion with
// Lawson flips, edge splits and constraint insertion (Sloan's flips). Building from a whole input
// is in cdt_build.c, the checks in cdt_check.c.
#include "mesh/cdt.h"

#include "geom/predicates.h"
#include "mesh/cdt_internal.h"

#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static uint32_t next_random(uint32_t *state) {
  *state = *state * 1664525u + 1013904223u;
  return *state >> 16;
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
  an_cdt_wrote(cdt, t);
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
  int k = an_cdt_neighbour_index(&cdt->tris[nb], old);
  if (k >= 0) {
    an_cdt_wrote(cdt, nb);
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

int32_t an_cdt_next_vertex(const an_cdt *cdt) {
  return cdt->dead_vertex >= 0 ? cdt->dead_vertex : (int32_t)cdt->point_count;
}

static int32_t add_vertex(an_cdt *cdt, vec2 p) {
  int32_t v = cdt->dead_vertex;
  if (v >= 0) {
    cdt->dead_vertex = -2 - cdt->vertex_tri[v];
    cdt->points[v] = p;
    cdt->vertex_tri[v] = -1;
    return v;
  }
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
  cdt->dead_vertex = -1;
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
  cdt->tris[0].tag = cdt->tris[1].tag = 0;
  return ARCNAV_OK;
}

// Moves *array into a block of exactly `count` items when it holds more. False when that block
// cannot be allocated (the array stays as it was).
static bool shrink_array(const an_allocator *alloc, void **array, size_t *capacity, size_t count,
                         size_t size) {
  if (*capacity <= count || count == 0) {
    return true;
  }
  void *smaller = an_alloc(alloc, count, size);
  if (!smaller) {
    return false;
  }
  memcpy(smaller, *array, count * size);
  an_free(alloc, *array);
  *array = smaller;
  *capacity = count;
  return true;
}

arcnav_status an_cdt_shrink(an_cdt *cdt) {
  an_free(&cdt->alloc, cdt->stack);
  cdt->stack = NULL;
  cdt->stack_count = cdt->stack_capacity = 0;
  bool shrunk = shrink_array(&cdt->alloc, (void **)&cdt->points, &cdt->point_capacity,
                             cdt->point_count, sizeof *cdt->points) &&
                shrink_array(&cdt->alloc, (void **)&cdt->vertex_tri, &cdt->vertex_tri_capacity,
                             cdt->point_count, sizeof *cdt->vertex_tri) &&
                shrink_array(&cdt->alloc, (void **)&cdt->tris, &cdt->tri_capacity, cdt->tri_count,
                             sizeof *cdt->tris);
  return shrunk ? ARCNAV_OK : ARCNAV_ERR_OUT_OF_MEMORY;
}

arcnav_status an_cdt_follow_writes(an_cdt *cdt) {
  an_cdt_unfollow_writes(cdt);
  size_t slots = cdt->tri_count;
  cdt->written_mark = an_calloc(&cdt->alloc, slots + 1, sizeof *cdt->written_mark);
  cdt->written = an_alloc(&cdt->alloc, slots + 1, sizeof *cdt->written);
  if (!cdt->written_mark || !cdt->written) {
    an_cdt_unfollow_writes(cdt);
    return ARCNAV_ERR_OUT_OF_MEMORY;
  }
  cdt->followed = slots;
  return ARCNAV_OK;
}

void an_cdt_unfollow_writes(an_cdt *cdt) {
  an_free(&cdt->alloc, cdt->written_mark);
  an_free(&cdt->alloc, cdt->written);
  cdt->written_mark = NULL;
  cdt->written = NULL;
  cdt->written_count = cdt->followed = 0;
}

void an_cdt_take_writes(an_cdt *cdt, an_cdt_edit *out) {
  *out = (an_cdt_edit){cdt->written, cdt->written_count, cdt->followed};
  cdt->written = NULL;
  an_cdt_unfollow_writes(cdt);
}

void an_cdt_edit_free(an_cdt_edit *edit, const an_allocator *alloc) {
  an_free(alloc, edit->written);
  *edit = (an_cdt_edit){NULL, 0, 0};
}

// Empties *cdt (its arrays are freed or handed over already), keeping its allocator.
static void leave_empty(an_cdt *cdt) {
  an_allocator alloc = cdt->alloc;
  memset(cdt, 0, sizeof *cdt);
  cdt->alloc = alloc;
  cdt->dead_vertex = -1;
}

void an_cdt_free(an_cdt *cdt) {
  an_cdt_unfollow_writes(cdt);
  an_free(&cdt->alloc, cdt->points);
  an_free(&cdt->alloc, cdt->vertex_tri);
  an_free(&cdt->alloc, cdt->tris);
  an_free(&cdt->alloc, cdt->stack);
  leave_empty(cdt);
}

an_cdt an_cdt_take(an_cdt *cdt) {
  an_cdt_unfollow_writes(cdt);
  an_cdt taken = *cdt;
  leave_empty(cdt);
  return taken;
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
    for (int k = 0, i = start; k < 3; ++k, i = an_cdt_next3(i)) {
      if (tri->n[i] == previous && previous >= 0) {
        continue; // came from there: p cannot be behind that edge
      }
      vec2 a = cdt->points[tri->v[an_cdt_next3(i)]];
      vec2 b = cdt->points[tri->v[an_cdt_prev3(i)]];
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
  int j = an_cdt_neighbour_index(&uu, t);
  assert(j >= 0); // neighbour links are symmetric
  int32_t a = tt.v[i], b = tt.v[an_cdt_next3(i)], c = tt.v[an_cdt_prev3(i)], d = uu.v[j];
  int32_t nca = tt.n[an_cdt_next3(i)], nab = tt.n[an_cdt_prev3(i)];
  bool cca = an_cdt_is_constrained(&tt, an_cdt_next3(i)),
       cab = an_cdt_is_constrained(&tt, an_cdt_prev3(i));
  int32_t nbd = uu.n[an_cdt_next3(j)], ndc = uu.n[an_cdt_prev3(j)];
  bool cbd = an_cdt_is_constrained(&uu, an_cdt_next3(j)),
       cdc = an_cdt_is_constrained(&uu, an_cdt_prev3(j));
  set_tri(cdt, t, a, b, d, nbd, u, nab, cbd, false, cab);
  set_tri(cdt, u, d, c, a, nca, t, ndc, cca, false, cdc);
  relink(cdt, nbd, u, t);
  relink(cdt, nca, t, u);
  return u;
}

static bool is_illegal(const an_cdt *cdt, int32_t t, int i) {
  const an_cdt_tri *tri = &cdt->tris[t];
  int32_t u = tri->n[i];
  if (u < 0 || an_cdt_is_constrained(tri, i)) {
    return false;
  }
  const an_cdt_tri *ut = &cdt->tris[u];
  int j = an_cdt_neighbour_index(ut, t);
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

/// Flips from edge i of t, one that may have just stopped being Delaunay, until it holds again.
static arcnav_status legalize_edge(an_cdt *cdt, int32_t t, int i) {
  size_t low = cdt->stack_count;
  return push_work(cdt, t, i) ? legalize(cdt, low) : ARCNAV_ERR_OUT_OF_MEMORY;
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
  set_tri(cdt, t, a, b, p, t1, t2, tt.n[2], false, false, an_cdt_is_constrained(&tt, 2));
  set_tri(cdt, t1, b, c, p, t2, t, tt.n[0], false, false, an_cdt_is_constrained(&tt, 0));
  set_tri(cdt, t2, c, a, p, t, t1, tt.n[1], false, false, an_cdt_is_constrained(&tt, 1));
  cdt->tris[t1].tag = cdt->tris[t2].tag = tt.tag;
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
  int j = an_cdt_neighbour_index(&uu, t);
  assert(j >= 0); // neighbour links are symmetric
  assert(an_cdt_is_constrained(&uu, j) ==
         an_cdt_is_constrained(&tt, i)); // marked on both sides or neither
  int32_t a = tt.v[i], b = tt.v[an_cdt_next3(i)], c = tt.v[an_cdt_prev3(i)], d = uu.v[j];
  int32_t nca = tt.n[an_cdt_next3(i)], nab = tt.n[an_cdt_prev3(i)];
  bool cca = an_cdt_is_constrained(&tt, an_cdt_next3(i)),
       cab = an_cdt_is_constrained(&tt, an_cdt_prev3(i));
  int32_t nbd = uu.n[an_cdt_next3(j)], ndc = uu.n[an_cdt_prev3(j)];
  bool cbd = an_cdt_is_constrained(&uu, an_cdt_next3(j)),
       cdc = an_cdt_is_constrained(&uu, an_cdt_prev3(j));
  bool ce = an_cdt_is_constrained(&tt, i);
  int32_t t2 = (int32_t)cdt->tri_count, u2 = t2 + 1;
  cdt->tri_count += 2;
  set_tri(cdt, t, a, b, p, u2, t2, nab, ce, false, cab);
  set_tri(cdt, t2, a, p, c, u, nca, t, ce, cca, false);
  set_tri(cdt, u, d, c, p, t2, u2, ndc, ce, false, cdc);
  set_tri(cdt, u2, d, p, b, t, nbd, u, ce, cbd, false);
  cdt->tris[t2].tag = tt.tag;
  cdt->tris[u2].tag = uu.tag;
  relink(cdt, nca, t, t2);
  relink(cdt, nbd, u, u2);
  cdt->hint = t;
  size_t low = cdt->stack_count;
  // Outer edges of the four triangles, and the spokes p-a and p-d: beside a split constraint
  // the two old triangles need not have been Delaunay across it, and p is a rounded point of the
  // edge, so the spokes may not be Delaunay either.
  if (!push_work(cdt, t, 2) || !push_work(cdt, t2, 1) || !push_work(cdt, u, 2) ||
      !push_work(cdt, u2, 1) || !push_work(cdt, t, 1) || !push_work(cdt, u, 1)) {
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
    if (an_cdt_same_point(cdt->points[tri->v[i]], p)) {
      *out_vertex = tri->v[i];
      cdt->hint = t;
      return ARCNAV_OK;
    }
  }
  for (int i = 0; i < 3; ++i) {
    if (an_orient2d(cdt->points[tri->v[an_cdt_next3(i)]], cdt->points[tri->v[an_cdt_prev3(i)]],
                    p) == 0.0) {
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
  vec2 pb = cdt->points[cdt->tris[t].v[an_cdt_next3(i)]],
       pc = cdt->points[cdt->tris[t].v[an_cdt_prev3(i)]];
  vec2 pd = cdt->points[cdt->tris[u].v[an_cdt_neighbour_index(&cdt->tris[u], t)]];
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
      if (tri->v[an_cdt_next3(k)] == b) {
        *out_tri = t;
        return an_cdt_prev3(k);
      }
      if (tri->v[an_cdt_prev3(k)] == b) {
        *out_tri = t;
        return an_cdt_next3(k);
      }
      t = dir == 0 ? tri->n[an_cdt_next3(k)] : tri->n[an_cdt_prev3(k)];
    } while (t >= 0 && t != start);
    if (t == start) {
      break; // went all the way round
    }
  }
  return -1;
}

static void mark_constrained(an_cdt *cdt, int32_t t, int i) {
  an_cdt_wrote(cdt, t);
  cdt->tris[t].constrained |= (uint8_t)(1u << i);
  int32_t u = cdt->tris[t].n[i];
  if (u >= 0) {
    int j = an_cdt_neighbour_index(&cdt->tris[u], t);
    assert(j >= 0); // neighbour links are symmetric
    an_cdt_wrote(cdt, u);
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

vec2 an_cdt_crossing_point(vec2 a, vec2 b, vec2 p, vec2 q) {
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
    int32_t w2 = cdt->tris[u].v[an_cdt_neighbour_index(&cdt->tris[u], t)];
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
  an_cdt_wrote(cdt, t);
  cdt->tris[t].constrained &= (uint8_t) ~(1u << i);
  int32_t u = cdt->tris[t].n[i];
  if (u >= 0) {
    int j = an_cdt_neighbour_index(&cdt->tris[u], t);
    assert(j >= 0); // neighbour links are symmetric
    an_cdt_wrote(cdt, u);
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
  int32_t b = tt.v[an_cdt_next3(i)], c = tt.v[an_cdt_prev3(i)];
  vec2 pb = cdt->points[b], pc = cdt->points[c];
  if (an_cdt_same_point(x, pb)) {
    *out = b;
    return ARCNAV_OK;
  }
  if (an_cdt_same_point(x, pc)) {
    *out = c;
    return ARCNAV_OK;
  }
  int32_t u = tt.n[i];
  if (u < 0) {
    return ARCNAV_ERR_INVALID_ARGUMENT;
  }
  vec2 pa = cdt->points[tt.v[i]];
  vec2 pd = cdt->points[cdt->tris[u].v[an_cdt_neighbour_index(&cdt->tris[u], t)]];
  // The rounded crossing must leave all four new triangles counter-clockwise.
  bool valid = an_orient2d(pa, pb, x) > 0.0 && an_orient2d(pa, x, pc) > 0.0 &&
               an_orient2d(pd, pc, x) > 0.0 && an_orient2d(pd, x, pb) > 0.0;
  if (!valid) {
    int32_t va = tt.v[i], vd = cdt->tris[u].v[an_cdt_neighbour_index(&cdt->tris[u], t)];
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
    // The edge the constraint left is an ordinary one now, and may not be Delaunay.
    int32_t left;
    int k = st == ARCNAV_OK ? an_cdt_find_edge(cdt, b, c, &left) : -1;
    return k >= 0 ? legalize_edge(cdt, left, k) : st;
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
      int32_t p = tri->v[an_cdt_next3(k)], q = tri->v[an_cdt_prev3(k)];
      *out_t = t;
      *out_k = k;
      if (p == b || q == b) {
        *hit = b;
        *hit_edge = p == b ? an_cdt_prev3(k) : an_cdt_next3(k);
        return 1;
      }
      vec2 pp = cdt->points[p], pq = cdt->points[q];
      double op = an_orient2d(pa, pp, pb), oq = an_orient2d(pa, pq, pb);
      if (op == 0.0 && v2_dot(v2_sub(pp, pa), v2_sub(pb, pa)) > 0.0) {
        *hit = p;
        *hit_edge = an_cdt_prev3(k);
        return 1;
      }
      if (oq == 0.0 && v2_dot(v2_sub(pq, pa), v2_sub(pb, pa)) > 0.0) {
        *hit = q;
        *hit_edge = an_cdt_next3(k);
        return 1;
      }
      if (op > 0.0 && oq < 0.0) {
        return 0;
      }
      t = dir == 0 ? tri->n[an_cdt_next3(k)] : tri->n[an_cdt_prev3(k)];
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
    int32_t right = tri->v[an_cdt_next3(e)], left = tri->v[an_cdt_prev3(e)];
    if (an_cdt_is_constrained(tri, e)) {
      cdt->stack_count = base;
      vec2 x = an_cdt_crossing_point(pa, pb, cdt->points[right], cdt->points[left]);
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
    int j = an_cdt_neighbour_index(ut, t);
    int32_t r = ut->v[j];
    double o = an_orient2d(pa, pb, cdt->points[r]);
    if (o == 0.0) {
      arcnav_status st = flip_out_crossings(cdt, a, r, base);
      *out = r;
      return st;
    }
    // r left of the segment: the next crossed edge is (right, r), opposite the left vertex;
    // r right: (r, left), opposite the right vertex.
    e = o > 0.0 ? an_cdt_next3(j) : an_cdt_prev3(j);
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
      if (an_cdt_is_constrained(tri, e)) {
        stop = an_cdt_crossing_point(pa, pb, cdt->points[tri->v[an_cdt_next3(e)]],
                                     cdt->points[tri->v[an_cdt_prev3(e)]]);
      } else {
        j = an_cdt_neighbour_index(&cdt->tris[u], t);
        r = cdt->tris[u].v[j];
        if (an_orient2d(pa, pb, cdt->points[r]) != 0.0) {
          e = an_orient2d(pa, pb, cdt->points[r]) > 0.0 ? an_cdt_next3(j) : an_cdt_prev3(j);
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
        j = an_cdt_neighbour_index(&cdt->tris[u], t);
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
          e = o > 0.0 ? an_cdt_next3(j) : an_cdt_prev3(j);
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

// Makes *array hold at least `count` items of `size` bytes (its contents lost when it grows).
static bool hold_at_least(const an_allocator *alloc, void **array, size_t *capacity, size_t count,
                          size_t size) {
  if (*capacity >= count) {
    return true;
  }
  // An eighth more, so that a map that grows a building at a time finds its spare arrays large
  // enough for the next (an_cdt_catch_up() copies whole into arrays too small).
  size_t grown = count + count / 8;
  an_free(alloc, *array);
  *array = an_alloc(alloc, grown, size);
  *capacity = *array ? grown : 0;
  return *array != NULL;
}

arcnav_status an_cdt_copy(const an_cdt *src, size_t room, an_cdt *dst) {
  if (dst->points == NULL && dst->tris == NULL) {
    dst->alloc = src->alloc;
  }
  // Each inserted vertex makes two more triangles.
  size_t points = src->point_count + room, tris = src->tri_count + 2 * room;
  dst->point_count = dst->tri_count = dst->stack_count = 0;
  if (!hold_at_least(&dst->alloc, (void **)&dst->points, &dst->point_capacity, points,
                     sizeof *dst->points) ||
      !hold_at_least(&dst->alloc, (void **)&dst->vertex_tri, &dst->vertex_tri_capacity, points,
                     sizeof *dst->vertex_tri) ||
      !hold_at_least(&dst->alloc, (void **)&dst->tris, &dst->tri_capacity, tris,
                     sizeof *dst->tris)) {
    return ARCNAV_ERR_OUT_OF_MEMORY;
  }
  memcpy(dst->points, src->points, src->point_count * sizeof *dst->points);
  memcpy(dst->vertex_tri, src->vertex_tri, src->point_count * sizeof *dst->vertex_tri);
  memcpy(dst->tris, src->tris, src->tri_count * sizeof *dst->tris);
  dst->point_count = src->point_count;
  dst->tri_count = src->tri_count;
  dst->hint = src->hint;
  dst->rng = src->rng;
  dst->flips = src->flips;
  dst->dead_vertex = src->dead_vertex;
  return ARCNAV_OK;
}

arcnav_status an_cdt_catch_up(const an_cdt *src, const an_cdt_edit *edit, size_t room,
                              an_cdt *dst) {
  size_t points = src->point_count + room, tris = src->tri_count + 2 * room;
  if (dst->tri_count != edit->followed || dst->point_capacity < points ||
      dst->vertex_tri_capacity < points || dst->tri_capacity < tris) {
    return an_cdt_copy(src, room, dst);
  }
  for (size_t k = 0; k < edit->written_count; ++k) {
    size_t t = (size_t)edit->written[k];
    if (t < src->tri_count) {
      dst->tris[t] = src->tris[t];
    }
  }
  if (src->tri_count > edit->followed) {
    memcpy(dst->tris + edit->followed, src->tris + edit->followed,
           (src->tri_count - edit->followed) * sizeof *dst->tris);
  }
  // The edit's flips move vertices' triangles anywhere round it, unfollowed: the vertices whole.
  memcpy(dst->points, src->points, src->point_count * sizeof *dst->points);
  memcpy(dst->vertex_tri, src->vertex_tri, src->point_count * sizeof *dst->vertex_tri);
  dst->point_count = src->point_count;
  dst->tri_count = src->tri_count;
  dst->stack_count = 0;
  dst->hint = src->hint;
  dst->rng = src->rng;
  dst->flips = src->flips;
  dst->dead_vertex = src->dead_vertex;
#ifndef NDEBUG
  // The slots the edit did not write are the same (corners, neighbours, marks and tag).
  const size_t fields = offsetof(an_cdt_tri, tag) + sizeof src->tris->tag;
  for (size_t t = 0; t < src->tri_count; ++t) {
    assert(memcmp(&dst->tris[t], &src->tris[t], fields) == 0);
  }
#endif
  return ARCNAV_OK;
}

// ---- removal ---------------------------------------------------------------------------------
// The first steps of a local update (docs/DESIGN.md, "A living map"): a constraint given back
// to the Delaunay property, and a vertex taken out with the hole it leaves triangulated again.

arcnav_status an_cdt_unconstrain_edge(an_cdt *cdt, int32_t a, int32_t b) {
  int32_t t;
  int i = a >= 0 && b >= 0 && (size_t)a < cdt->point_count && (size_t)b < cdt->point_count &&
                  cdt->vertex_tri[a] >= 0
              ? an_cdt_find_edge(cdt, a, b, &t)
              : -1;
  if (i < 0 || !an_cdt_is_constrained(&cdt->tris[t], i)) {
    return ARCNAV_ERR_INVALID_ARGUMENT;
  }
  unmark_constrained(cdt, t, i);
  return legalize_edge(cdt, t, i);
}

/// The triangles round vertex v, counter-clockwise: ring[j] = (v, link[j], link[j + 1]).
typedef struct vertex_star {
  int32_t *ring, *link, *outer; ///< outer[j]: the triangle beyond edge link[j] -> link[j + 1]
  uint8_t *outer_constrained;
  int32_t *next, *prev; ///< the link polygon while its ears are cut
  int32_t *corner;      ///< 3 per new triangle: positions in link, counter-clockwise
  size_t count;
} vertex_star;

static void star_free(an_cdt *cdt, vertex_star *star) {
  an_free(&cdt->alloc, star->ring);
}

// Gathers the star of v; ARCNAV_ERR_INVALID_ARGUMENT when a constraint ends at v or v lies on
// the box.
static arcnav_status star_gather(an_cdt *cdt, int32_t v, vertex_star *star) {
  memset(star, 0, sizeof *star);
  size_t count = 0;
  int32_t t = cdt->vertex_tri[v];
  do {
    const an_cdt_tri *tri = &cdt->tris[t];
    int k = an_cdt_vertex_index(tri, v);
    if (an_cdt_is_constrained(tri, an_cdt_next3(k)) ||
        an_cdt_is_constrained(tri, an_cdt_prev3(k)) || tri->n[an_cdt_next3(k)] < 0 ||
        ++count > cdt->tri_count) {
      return ARCNAV_ERR_INVALID_ARGUMENT;
    }
    t = tri->n[an_cdt_next3(k)];
  } while (t != cdt->vertex_tri[v]);
  // One block of nine counts' worth: five arrays of count entries, the corners (3 (count - 2))
  // and the outer edges' constraint marks.
  int32_t *block = an_alloc(&cdt->alloc, 9 * count, sizeof *block);
  if (!block) {
    return ARCNAV_ERR_OUT_OF_MEMORY;
  }
  star->ring = block;
  star->link = block + count;
  star->outer = block + 2 * count;
  star->next = block + 3 * count;
  star->prev = block + 4 * count;
  star->corner = block + 5 * count;
  star->outer_constrained = (uint8_t *)(block + 8 * count);
  star->count = count;
  t = cdt->vertex_tri[v];
  for (size_t j = 0; j < count; ++j) {
    const an_cdt_tri *tri = &cdt->tris[t];
    int k = an_cdt_vertex_index(tri, v);
    star->ring[j] = t;
    star->link[j] = tri->v[an_cdt_next3(k)];
    star->outer[j] = tri->n[k];
    star->outer_constrained[j] = an_cdt_is_constrained(tri, k) ? 1 : 0;
    star->next[j] = (int32_t)((j + 1) % count);
    star->prev[j] = (int32_t)((j + count - 1) % count);
    t = tri->n[an_cdt_next3(k)];
  }
  return ARCNAV_OK;
}

// Is the corner at link position i an ear of the polygon left: convex, and no other vertex of
// it in the closed triangle (a vertex on the cut would leave a triangle beside it unjoined)?
static bool is_ear(const an_cdt *cdt, const vertex_star *star, int32_t i) {
  int32_t a = star->prev[i], b = star->next[i];
  vec2 pa = cdt->points[star->link[a]], pi = cdt->points[star->link[i]],
       pb = cdt->points[star->link[b]];
  if (!(an_orient2d(pa, pi, pb) > 0.0)) {
    return false;
  }
  for (int32_t j = star->next[b]; j != a; j = star->next[j]) {
    vec2 q = cdt->points[star->link[j]];
    if (an_orient2d(pa, pi, q) >= 0.0 && an_orient2d(pi, pb, q) >= 0.0 &&
        an_orient2d(pb, pa, q) >= 0.0) {
      return false;
    }
  }
  return true;
}

// Cuts the link polygon into count - 2 triangles, ears first (a simple polygon always has one).
static arcnav_status star_cut_ears(const an_cdt *cdt, vertex_star *star) {
  size_t left = star->count, made = 0;
  int32_t i = 0;
  while (left > 3) {
    size_t tried = 0;
    while (!is_ear(cdt, star, i)) {
      i = star->next[i];
      if (++tried > left) {
        return ARCNAV_ERR_INVALID_ARGUMENT; // not a simple polygon: the triangulation was broken
      }
    }
    int32_t a = star->prev[i], b = star->next[i];
    star->corner[3 * made] = a;
    star->corner[3 * made + 1] = i;
    star->corner[3 * made + 2] = b;
    ++made;
    star->next[a] = b;
    star->prev[b] = a;
    --left;
    i = b;
  }
  star->corner[3 * made] = star->prev[i];
  star->corner[3 * made + 1] = i;
  star->corner[3 * made + 2] = star->next[i];
  return ARCNAV_OK;
}

// Points the edge from -> to of triangle t (from its side) at `fresh`.
static void set_neighbour_across(an_cdt *cdt, int32_t t, int32_t from, int32_t to, int32_t fresh) {
  an_cdt_wrote(cdt, t);
  an_cdt_tri *tri = &cdt->tris[t];
  for (int m = 0; m < 3; ++m) {
    if (tri->v[an_cdt_next3(m)] == from && tri->v[an_cdt_prev3(m)] == to) {
      tri->n[m] = fresh;
      return;
    }
  }
  assert(false); // the outer triangle holds the star's edge
}

// Gives triangle slot s back: the last triangle moves into it.
static void release_triangle(an_cdt *cdt, int32_t s) {
  int32_t last = (int32_t)cdt->tri_count - 1;
  if (s != last) {
    an_cdt_wrote(cdt, s);
    cdt->tris[s] = cdt->tris[last];
    const an_cdt_tri *moved = &cdt->tris[s];
    for (int m = 0; m < 3; ++m) {
      relink(cdt, moved->n[m], last, s);
      if (cdt->vertex_tri[moved->v[m]] == last) {
        cdt->vertex_tri[moved->v[m]] = s;
      }
    }
  }
  cdt->tri_count--;
  if ((size_t)cdt->hint >= cdt->tri_count) {
    cdt->hint = 0;
  }
}

static int compare_slots(const void *lhs, const void *rhs) {
  int32_t a = *(const int32_t *)lhs, b = *(const int32_t *)rhs;
  return a < b ? -1 : (a > b ? 1 : 0);
}

arcnav_status an_cdt_remove_vertex(an_cdt *cdt, int32_t v) {
  if (v < 4 || (size_t)v >= cdt->point_count || cdt->vertex_tri[v] < 0) {
    return ARCNAV_ERR_INVALID_ARGUMENT;
  }
  vertex_star star;
  arcnav_status status = star_gather(cdt, v, &star);
  if (status == ARCNAV_OK) {
    status = star_cut_ears(cdt, &star);
  }
  // Work for the legalisation, reserved before anything changes: three edges per new triangle.
  size_t low = cdt->stack_count;
  if (status == ARCNAV_OK &&
      !an_reserve(&cdt->alloc, (void **)&cdt->stack, &cdt->stack_capacity, cdt->stack_count,
                  cdt->stack_count + 6 * star.count, sizeof(int32_t))) {
    status = ARCNAV_ERR_OUT_OF_MEMORY;
  }
  if (status != ARCNAV_OK) {
    star_free(cdt, &star);
    return status;
  }
  size_t k = star.count, made = k - 2;
  // The new triangles take the lowest slots of the star; the two highest are given back, so
  // that no new triangle is the one moved into a slot given back.
  uint8_t tag = cdt->tris[star.ring[0]].tag;
  int32_t *slot = star.next; // the polygon's links are no longer needed
  memcpy(slot, star.ring, k * sizeof *slot);
  qsort(slot, k, sizeof *slot, compare_slots);
  for (size_t n = 0; n < made; ++n) {
    const int32_t *c = &star.corner[3 * n];
    int32_t neighbour[3];
    bool constrained[3];
    for (int m = 0; m < 3; ++m) {
      // Edge m runs from corner m + 1 to corner m + 2: an edge of the link polygon, or a cut
      // shared with another new triangle.
      int32_t from = c[an_cdt_next3(m)], to = c[an_cdt_prev3(m)];
      if ((size_t)to == ((size_t)from + 1) % k) {
        neighbour[m] = star.outer[from];
        constrained[m] = star.outer_constrained[from] != 0;
        if (star.outer[from] >= 0) { // else the edge lies on the box
          set_neighbour_across(cdt, star.outer[from], star.link[to], star.link[from], slot[n]);
        }
        continue;
      }
      neighbour[m] = -1;
      constrained[m] = false;
      for (size_t o = 0; o < made && neighbour[m] < 0; ++o) {
        const int32_t *d = &star.corner[3 * o];
        for (int q = 0; q < 3; ++q) {
          if (o != n && d[an_cdt_next3(q)] == to && d[an_cdt_prev3(q)] == from) {
            neighbour[m] = slot[o];
          }
        }
      }
      assert(neighbour[m] >= 0); // every cut has a triangle on each side
    }
    set_tri(cdt, slot[n], star.link[c[0]], star.link[c[1]], star.link[c[2]], neighbour[0],
            neighbour[1], neighbour[2], constrained[0], constrained[1], constrained[2]);
    cdt->tris[slot[n]].tag = tag;
  }
  cdt->vertex_tri[v] = -2 - cdt->dead_vertex;
  cdt->dead_vertex = v;
  release_triangle(cdt, slot[k - 1]);
  release_triangle(cdt, slot[k - 2]);
  for (size_t n = 0; n < made; ++n) {
    for (int m = 0; m < 3; ++m) {
      cdt->stack[cdt->stack_count++] = slot[n];
      cdt->stack[cdt->stack_count++] = m;
    }
  }
  star_free(cdt, &star);
  return legalize(cdt, low);
}
