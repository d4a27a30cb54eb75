// SPDX-License-Identifier: MIT
// A navmesh build stage: which faces of the triangulation are free. A blocked-point oracle (the
// obstacles filed by area, winding indexes for long rings) labels each face, and the free
// triangles get their arrays, with the connectors of navmesh_pinch.c where pinches are opened.
#include "mesh/navmesh_build.h"

#include "index/obstacle_index.h"
#include "index/ring_winding.h"
#include "map/circle_polygon.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

// Rings with at least this many vertices get a winding index for labelling faces.
#define RING_INDEX_MIN_VERTICES 256

/// What labels the faces: the obstacles filed by area, and winding indexes for long rings, so a
/// map whose triangulation has many faces inside one large polygon does not walk the whole
/// polygon per face.
typedef struct blocked_oracle {
  an_obstacle_index obstacles;
  an_ring_winding_index *rings; ///< per map ring; built for long rings only
  an_ring_winding_index bounds;
} blocked_oracle;

static void blocked_oracle_free(blocked_oracle *oracle, const arcnav_map *map,
                                const an_allocator *alloc) {
  an_obstacle_index_free(&oracle->obstacles, alloc);
  if (oracle->rings) {
    for (size_t r = 0; r < map->ring_count; ++r) {
      an_ring_winding_index_free(&oracle->rings[r], alloc);
    }
  }
  an_free(alloc, oracle->rings);
  an_ring_winding_index_free(&oracle->bounds, alloc);
}

static arcnav_status blocked_oracle_build(blocked_oracle *oracle, const arcnav_map *map,
                                          const an_cdt *cdt, const an_allocator *alloc) {
  memset(oracle, 0, sizeof *oracle);
  // The triangulation's box runs from its point 0 to its point 2.
  arcnav_status st = an_obstacle_index_build(map, alloc, cdt->points[0], cdt->points[2], SIZE_MAX,
                                             &oracle->obstacles);
  if (st == ARCNAV_OK && map->ring_count > 0) {
    oracle->rings = an_calloc(alloc, map->ring_count, sizeof *oracle->rings);
    st = oracle->rings ? ARCNAV_OK : ARCNAV_ERR_OUT_OF_MEMORY;
  }
  for (size_t r = 0; st == ARCNAV_OK && r < map->ring_count; ++r) {
    if (map->rings[r].count >= RING_INDEX_MIN_VERTICES) {
      st = an_ring_winding_index_build(map, &map->rings[r], alloc, &oracle->rings[r]);
    }
  }
  if (st == ARCNAV_OK && map->has_bounds && map->bounds.count >= RING_INDEX_MIN_VERTICES) {
    st = an_ring_winding_index_build(map, &map->bounds, alloc, &oracle->bounds);
  }
  if (st != ARCNAV_OK) {
    blocked_oracle_free(oracle, map, alloc);
  }
  return st;
}

static int oracle_winding(an_ring_winding_index *index, const arcnav_map *map, const an_ring *ring,
                          vec2 p) {
  return index->cells.chunks ? an_ring_winding_indexed(index, map, ring, p)
                             : an_ring_winding(map, ring, p);
}

static bool obstacle_blocks(blocked_oracle *oracle, const arcnav_map *map, uint32_t o, vec2 p) {
  const an_obstacle *ob = &map->obstacles[o];
  if (ob->kind == AN_OBSTACLE_CIRCLE) {
    double r = an_navmesh_circle_corner_radius(ob->radius);
    return ob->radius > 0.0 && fabs(p.x - ob->center.x) <= r && fabs(p.y - ob->center.y) <= r &&
           an_circle_polygon_contains(ob->center, ob->radius, p);
  }
  if (p.x < ob->box_min.x || p.x > ob->box_max.x || p.y < ob->box_min.y || p.y > ob->box_max.y) {
    return false;
  }
  // Outer ring counter-clockwise, holes clockwise: material where the sum is positive.
  int winding = 0;
  for (uint32_t r = ob->first_ring; r < ob->first_ring + ob->ring_count; ++r) {
    winding += oracle_winding(&oracle->rings[r], map, &map->rings[r], p);
  }
  return winding >= 1;
}

/// Is p (a point well inside a face of the arrangement) in the blocked region?
static bool point_blocked(blocked_oracle *oracle, const arcnav_map *map, vec2 p) {
  // The bounds ring is clockwise: -1 inside.
  if (map->has_bounds && oracle_winding(&oracle->bounds, map, &map->bounds, p) >= 0) {
    return true;
  }
  for (size_t k = 0; k < oracle->obstacles.big_count; ++k) {
    if (obstacle_blocks(oracle, map, oracle->obstacles.big[k], p)) {
      return true;
    }
  }
  const uint32_t *item, *last;
  an_obstacle_index_cell(&oracle->obstacles, p, &item, &last);
  for (; item < last; ++item) {
    if (obstacle_blocks(oracle, map, *item, p)) {
      return true;
    }
  }
  return false;
}

// Numbers the free triangles (those free_of marks 0) along a Hilbert curve through their centroids:
// the forests of the widest passages keep blocks of consecutive numbers (navmesh.h,
// an_navmesh.block_shift), and a local change then renews triangles of one or two compact blocks
// instead of a few scattered ones (docs/DESIGN.md, "The widest passages in blocks"); searches read
// the free arrays of neighbouring triangles from nearby memory too.
static arcnav_status number_free_in_space_order(an_navmesh *mesh, size_t *out_free) {
  const an_cdt *cdt = &mesh->cdt;
  size_t nt = cdt->tri_count, nf = 0;
  for (size_t t = 0; t < nt; ++t) {
    nf += mesh->free_of[t] >= 0;
  }
  an_order_key *keys = an_alloc(&mesh->alloc, nf + 1, sizeof *keys);
  if (!keys) {
    return ARCNAV_ERR_OUT_OF_MEMORY;
  }
  vec2 lo, hi;
  an_box_of_points(cdt->points, cdt->point_count, &lo, &hi);
  size_t k = 0;
  for (size_t t = 0; t < nt; ++t) {
    if (mesh->free_of[t] >= 0) {
      const int32_t *v = cdt->tris[t].v;
      vec2 centroid = v2_scale(
          v2_add(cdt->points[v[0]], v2_add(cdt->points[v[1]], cdt->points[v[2]])), 1.0 / 3.0);
      keys[k++] = (an_order_key){an_hilbert_index(centroid, lo, hi), (uint32_t)t};
    }
  }
  qsort(keys, nf, sizeof *keys, an_compare_order_keys);
  for (k = 0; k < nf; ++k) {
    mesh->free_of[keys[k].index] = (int32_t)k;
  }
  an_free(&mesh->alloc, keys);
  *out_free = nf;
  return ARCNAV_OK;
}

/// Label the faces of the constraint arrangement (triangles joined by non-constraint edges),
/// classify each face by testing the incentre of its fattest triangle, and number the free
/// triangles (mesh->free_of).
static arcnav_status label_faces(an_navmesh *mesh, const arcnav_map *map, blocked_oracle *oracle,
                                 size_t *out_free) {
  const an_cdt *cdt = &mesh->cdt;
  size_t nt = cdt->tri_count;
  int32_t *face = an_alloc(&mesh->alloc, nt, sizeof *face);
  int32_t *queue = an_alloc(&mesh->alloc, nt, sizeof *queue);
  mesh->free_of = an_alloc(&mesh->alloc, nt, sizeof *mesh->free_of);
  if (!face || !queue || !mesh->free_of) {
    an_free(&mesh->alloc, face);
    an_free(&mesh->alloc, queue);
    return ARCNAV_ERR_OUT_OF_MEMORY;
  }
  for (size_t t = 0; t < nt; ++t) {
    face[t] = -1;
  }
  for (size_t seed = 0; seed < nt; ++seed) {
    if (face[seed] >= 0) {
      continue;
    }
    // Flood one face, remembering its triangle with the largest inscribed circle.
    size_t head = 0, tail = 0;
    queue[tail++] = (int32_t)seed;
    face[seed] = (int32_t)seed;
    double best_r = -1.0;
    vec2 best_center = {0.0, 0.0};
    while (head < tail) {
      int32_t t = queue[head++];
      const an_cdt_tri *tri = &cdt->tris[t];
      vec2 a = cdt->points[tri->v[0]], b = cdt->points[tri->v[1]], c = cdt->points[tri->v[2]];
      double la = v2_dist(b, c), lb = v2_dist(c, a), lc = v2_dist(a, b);
      double per = la + lb + lc;
      double area2 = fabs(an_orient(a, b, c));
      double r = per > 0.0 ? area2 / per : 0.0;
      if (r > best_r) {
        best_r = r;
        best_center =
            v2((la * a.x + lb * b.x + lc * c.x) / per, (la * a.y + lb * b.y + lc * c.y) / per);
      }
      for (int i = 0; i < 3; ++i) {
        int32_t u = tri->n[i];
        if (u >= 0 && !((tri->constrained >> i) & 1u) && face[u] < 0) {
          face[u] = (int32_t)seed;
          queue[tail++] = u;
        }
      }
    }
    bool blocked = point_blocked(oracle, map, best_center);
    for (size_t k = 0; k < tail; ++k) {
      mesh->free_of[queue[k]] = blocked ? -1 : 0;
    }
  }
  an_free(&mesh->alloc, face);
  an_free(&mesh->alloc, queue);
  return number_free_in_space_order(mesh, out_free);
}

void an_navmesh_fill_free(an_cdt *cdt, const int32_t *free_of, int32_t *tri_of, int32_t *fv,
                          int32_t *fn) {
  for (size_t t = 0; t < cdt->tri_count; ++t) {
    int32_t f = free_of[t];
    cdt->tris[t].tag = f >= 0 ? AN_NAVMESH_TAG_FREE : AN_NAVMESH_TAG_BLOCKED;
    if (f < 0) {
      continue;
    }
    tri_of[f] = (int32_t)t;
    for (int i = 0; i < 3; ++i) {
      int32_t u = cdt->tris[t].n[i];
      fv[3 * (size_t)f + (size_t)i] = cdt->tris[t].v[i];
      fn[3 * (size_t)f + (size_t)i] = u >= 0 ? free_of[u] : -1;
    }
  }
}

arcnav_status an_navmesh_classify(an_navmesh *mesh, const arcnav_map *map, bool open_pinches) {
  const an_cdt *cdt = &mesh->cdt;
  size_t nf;
  int32_t *pinch_list = NULL;
  size_t pinch_count = 0;
  blocked_oracle oracle;
  arcnav_status st = blocked_oracle_build(&oracle, map, cdt, &mesh->alloc);
  if (st != ARCNAV_OK) {
    return st;
  }
  st = label_faces(mesh, map, &oracle, &nf);
  if (st == ARCNAV_OK && open_pinches) {
    st = an_navmesh_find_pinches(mesh, &pinch_list, &pinch_count);
  }
  bool split = false;
  if (st == ARCNAV_OK) {
    st = an_navmesh_split_pinch_edges(mesh, pinch_list, pinch_count, &split);
  }
  if (st == ARCNAV_OK && split) {
    an_free(&mesh->alloc, mesh->free_of);
    an_free(&mesh->alloc, pinch_list);
    mesh->free_of = NULL;
    pinch_list = NULL;
    st = label_faces(mesh, map, &oracle, &nf);
    if (st == ARCNAV_OK) {
      st = an_navmesh_find_pinches(mesh, &pinch_list, &pinch_count);
    }
  }
  blocked_oracle_free(&oracle, map, &mesh->alloc);
  if (st != ARCNAV_OK) {
    an_free(&mesh->alloc, pinch_list);
    return st;
  }
  size_t pinches = an_navmesh_link_pinches(mesh, pinch_list, pinch_count, NULL);
  mesh->free_count = nf + 2 * pinches;
  mesh->connector_count = 2 * pinches;
  if (nf == 0) {
    an_free(&mesh->alloc, pinch_list);
    return ARCNAV_OK;
  }
  size_t total = mesh->free_count;
  mesh->tri_of = an_alloc(&mesh->alloc, total, sizeof *mesh->tri_of);
  mesh->fv = an_alloc(&mesh->alloc, 3 * total, sizeof *mesh->fv);
  mesh->fn = an_alloc(&mesh->alloc, 3 * total, sizeof *mesh->fn);
  if (!mesh->tri_of || !mesh->fv || !mesh->fn) {
    an_free(&mesh->alloc, pinch_list);
    return ARCNAV_ERR_OUT_OF_MEMORY;
  }
  an_navmesh_fill_free(&mesh->cdt, mesh->free_of, mesh->tri_of, mesh->fv, mesh->fn);
  an_navmesh_link_pinches(mesh, pinch_list, pinch_count, &nf);
  an_free(&mesh->alloc, pinch_list);
  return ARCNAV_OK;
}
