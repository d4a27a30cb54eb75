// SPDX-License-Identifier: MIT
// A navmesh build stage: the triangulation built obstacle by obstacle when they overlap heavily.
//
// Obstacles stacked on one spot cross each other quadratically often (1000 turned squares:
// millions of crossings), though the free space only sees the boundary of their union. Past a
// crossing budget the triangulation is built one obstacle at a time instead: the pieces of an
// obstacle's edges that earlier obstacles cover are walked past rather than inserted, and after
// it is in, the constraint edges it covers stop being constraints, so later obstacles flip
// through them instead of splitting them. The faces are still classified against the whole map
// afterwards; dropping a constraint only merges two blocked faces. Coverage is tested with a
// margin far above rounding, so a doubtful piece keeps its constraint, which is always safe.
#include "mesh/navmesh_build.h"

#include "geom/tolerances.h"
#include "index/obstacle_index.h"
#include "index/ring_winding.h"
#include "map/circle_polygon.h"

#include <math.h>
#include <string.h>

/// Is point c inside obstacle `ob` with room to spare (at least `margin` from its boundary)?
static bool deep_inside(const arcnav_map *map, const an_obstacle *ob, vec2 c, double margin) {
  if (ob->kind == AN_OBSTACLE_CIRCLE) {
    vec2 d = v2_sub(c, ob->center);
    if (v2_len2(d) >= ob->radius * ob->radius * 2.0) {
      return false; // beyond the polygon's corners (1 / cos(pi / sides)^2 < 2)
    }
    for (int k = 0; k < AN_NAVMESH_CIRCLE_SIDES; ++k) {
      double angle = AN_TWO_PI * ((double)k + 0.5) / AN_NAVMESH_CIRCLE_SIDES;
      if (v2_dot(d, v2_from_angle(angle)) >= ob->radius - margin) {
        return false;
      }
    }
    return true;
  }
  if (c.x < ob->box_min.x || c.x > ob->box_max.x || c.y < ob->box_min.y || c.y > ob->box_max.y) {
    return false;
  }
  int winding = 0;
  for (uint32_t r = 0; r < ob->ring_count; ++r) {
    winding += an_ring_winding(map, &map->rings[ob->first_ring + r], c);
  }
  if (winding < 1) {
    return false;
  }
  for (uint32_t r = 0; r < ob->ring_count; ++r) {
    const an_ring *ring = &map->rings[ob->first_ring + r];
    vec2 a = an_ring_vertex(map, ring, ring->count - 1);
    for (size_t i = 0; i < ring->count; ++i) {
      vec2 b = an_ring_vertex(map, ring, i);
      if (an_point_segment_dist(c, a, b) <= margin) {
        return false;
      }
      a = b;
    }
  }
  return true;
}

// Obstacles with more vertices are left out of the coverage tests: testing a point against one
// costs too much, and leaving it out only keeps constraints.
#define UNION_TEST_MAX_VERTICES 256

/// Is triangle t inside obstacle `o`? Tests its centroid with a margin far beyond the centroid's
/// rounding, so a sliver outside the obstacle never passes.
static bool triangle_inside(const an_cdt *cdt, int32_t t, const arcnav_map *map, size_t o) {
  const an_cdt_tri *tri = &cdt->tris[t];
  vec2 a = cdt->points[tri->v[0]], b = cdt->points[tri->v[1]], c = cdt->points[tri->v[2]];
  vec2 g = v2((a.x + b.x + c.x) / 3.0, (a.y + b.y + c.y) / 3.0);
  double size = an_max(v2_dist(a, b), an_max(v2_dist(b, c), v2_dist(c, a)));
  double margin = AN_DEEP_INSIDE_RELATIVE * (fabs(g.x) + fabs(g.y) + size);
  return deep_inside(map, &map->obstacles[o], g, margin);
}

typedef struct keep_context {
  const arcnav_map *map;
  const an_obstacle_index *ix;
  size_t obstacle; ///< the one being inserted: only earlier ones can cover its pieces
} keep_context;

/// Is point g deep inside one of the obstacles before `before`?
static bool point_covered(const arcnav_map *map, const an_obstacle_index *ix, vec2 g, double margin,
                          size_t before) {
  for (size_t k = 0; k < ix->big_count; ++k) {
    uint32_t o = ix->big[k];
    if (o < before && deep_inside(map, &map->obstacles[o], g, margin)) {
      return true;
    }
  }
  const uint32_t *item, *last;
  an_obstacle_index_cell(ix, g, &item, &last);
  for (; item < last; ++item) {
    uint32_t o = *item;
    if (o < before && deep_inside(map, &map->obstacles[o], g, margin)) {
      return true;
    }
  }
  return false;
}

/// A piece of the obstacle's boundary between two crossings is needed unless earlier obstacles
/// cover it: between crossings it stays inside one face, so its midpoint decides.
static bool keep_piece(void *ctx, vec2 p, vec2 q) {
  const keep_context *kc = ctx;
  vec2 m = v2_scale(v2_add(p, q), 0.5);
  double margin = AN_DEEP_INSIDE_RELATIVE * (fabs(m.x) + fabs(m.y) + v2_dist(p, q));
  return !point_covered(kc->map, kc->ix, m, margin, kc->obstacle);
}

/// After obstacle `o` is in: drop the constraints it covers, following constraint chains from the
/// vertices made while inserting it (its own and its crossings), which is where the chains it
/// covers meet its boundary. (Its own edges that earlier obstacles cover were never inserted.)
static arcnav_status drop_covered(an_navmesh *mesh, const arcnav_map *map, size_t o,
                                  int32_t first_new, uint32_t **stamp, size_t *stamp_cap,
                                  size_t *stamp_len, uint32_t mark, int32_t **stack,
                                  size_t *stack_cap) {
  an_cdt *cdt = &mesh->cdt;
  size_t nv = cdt->point_count;
  // Stamps of earlier rounds stay valid (marks only grow); new vertices start unmarked.
  if (!an_reserve(&mesh->alloc, (void **)stamp, stamp_cap, *stamp_len, nv, sizeof **stamp)) {
    return ARCNAV_ERR_OUT_OF_MEMORY;
  }
  memset(*stamp + *stamp_len, 0, (nv - *stamp_len) * sizeof **stamp);
  *stamp_len = nv;
  if (!an_reserve(&mesh->alloc, (void **)stack, stack_cap, 0, nv, sizeof **stack)) {
    return ARCNAV_ERR_OUT_OF_MEMORY;
  }
  size_t top = 0;
  for (size_t v = (size_t)first_new; v < nv; ++v) {
    (*stamp)[v] = mark;
    (*stack)[top++] = (int32_t)v;
  }
  while (top > 0) {
    int32_t v = (*stack)[--top];
    int32_t start = cdt->vertex_tri[v];
    if (start < 0) {
      continue;
    }
    int32_t t = start;
    do {
      an_cdt_tri *tri = &cdt->tris[t];
      int k = an_cdt_vertex_index(tri, v);
      if (k < 0) {
        break; // not reached: the walk only visits triangles around v
      }
      int e = k == 0 ? 2 : k - 1; // edge from v to the next vertex
      int32_t u = tri->n[e];
      int32_t w = tri->v[k == 2 ? 0 : k + 1];
      if (u >= 0 && ((tri->constrained >> e) & 1u) && triangle_inside(cdt, t, map, o) &&
          triangle_inside(cdt, u, map, o)) {
        tri->constrained &= (uint8_t) ~(1u << e);
        an_cdt_tri *ut = &cdt->tris[u];
        for (int j = 0; j < 3; ++j) {
          if (ut->n[j] == t) {
            ut->constrained &= (uint8_t) ~(1u << j);
          }
        }
        if ((size_t)w < nv && (*stamp)[w] != mark) {
          (*stamp)[w] = mark;
          (*stack)[top++] = w;
        }
      }
      t = tri->n[k == 2 ? 0 : k + 1]; // next triangle counter-clockwise around v
    } while (t >= 0 && t != start);
  }
  return ARCNAV_OK;
}

arcnav_status an_navmesh_build_by_union(an_navmesh *mesh, const arcnav_map *map, vec2 lo, vec2 hi,
                                        const vec2 *points, size_t np, const uint32_t *segments,
                                        size_t ns, const uint32_t *segment_group) {
  arcnav_status st = an_cdt_init(&mesh->cdt, &mesh->alloc, lo, hi);
  if (st != ARCNAV_OK) {
    return st;
  }
  an_obstacle_index ix;
  st = an_obstacle_index_build(map, &mesh->alloc, lo, hi, UNION_TEST_MAX_VERTICES, &ix);
  int32_t *vertex = an_alloc(&mesh->alloc, np + 1, sizeof *vertex);
  uint32_t *stamp = NULL;
  int32_t *stack = NULL;
  size_t stamp_cap = 0, stamp_len = 0, stack_cap = 0;
  if (!vertex) {
    st = ARCNAV_ERR_OUT_OF_MEMORY;
  }
  // Segments come grouped by obstacle (then the bounds), each ring's points just before use.
  size_t seg = 0;
  uint32_t mark = 0;
  while (st == ARCNAV_OK && seg < ns) {
    uint32_t group = segment_group[seg];
    size_t end = seg;
    while (end < ns && segment_group[end] == group) {
      ++end;
    }
    int32_t first_new = (int32_t)mesh->cdt.point_count;
    // Both ends: a trimmed ring's pieces do not close up, so an end need not start a piece.
    for (size_t k = 2 * seg; k < 2 * end && st == ARCNAV_OK; ++k) {
      uint32_t p = segments[k];
      st = an_cdt_insert_point(&mesh->cdt, points[p], &vertex[p]);
    }
    keep_context kc = {map, &ix, group};
    for (size_t k = seg; k < end && st == ARCNAV_OK; ++k) {
      int32_t a = vertex[segments[2 * k]], b = vertex[segments[2 * k + 1]];
      st = group < map->obstacle_count
               ? an_cdt_insert_segment_kept(&mesh->cdt, a, b, keep_piece, &kc)
               : an_cdt_insert_segment(&mesh->cdt, a, b);
    }
    if (st == ARCNAV_OK && group < map->obstacle_count &&
        an_obstacle_vertices(map, &map->obstacles[group]) <= UNION_TEST_MAX_VERTICES) {
      st = drop_covered(mesh, map, group, first_new, &stamp, &stamp_cap, &stamp_len, ++mark, &stack,
                        &stack_cap);
    }
    seg = end;
  }
  an_obstacle_index_free(&ix, &mesh->alloc);
  an_free(&mesh->alloc, vertex);
  an_free(&mesh->alloc, stamp);
  an_free(&mesh->alloc, stack);
  if (st != ARCNAV_OK) {
    an_cdt_free(&mesh->cdt);
  }
  return st;
}
