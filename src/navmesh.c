// SPDX-License-Identifier: MIT
#include "navmesh.h"

#include <math.h>
#include <string.h>

static void free_mesh_arrays(an_navmesh *mesh) {
  an_free(&mesh->alloc, mesh->free_of);
  an_free(&mesh->alloc, mesh->tri_of);
  an_free(&mesh->alloc, mesh->fv);
  an_free(&mesh->alloc, mesh->fn);
  an_free(&mesh->alloc, mesh->grid);
  an_cdt_free(&mesh->cdt);
}

void an_navmesh_destroy(an_navmesh *mesh) {
  if (!mesh) {
    return;
  }
  an_allocator alloc = mesh->alloc;
  free_mesh_arrays(mesh);
  an_free(&alloc, mesh);
}

size_t an_navmesh_triangle_count(const an_navmesh *mesh) {
  return mesh->free_count;
}

void an_navmesh_triangle(const an_navmesh *mesh, size_t index, vec2 out[3]) {
  for (int k = 0; k < 3; ++k) {
    out[k] = mesh->cdt.points[mesh->fv[3 * index + (size_t)k]];
  }
}

size_t an_navmesh_memory_bytes(const an_navmesh *mesh) {
  const an_cdt *c = &mesh->cdt;
  return sizeof *mesh + c->point_capacity * sizeof(vec2) +
         c->vertex_tri_capacity * sizeof(int32_t) + c->tri_capacity * sizeof(an_cdt_tri) +
         c->stack_capacity * sizeof(int32_t) + c->tri_count * sizeof(int32_t) +
         mesh->free_count * 7 * sizeof(int32_t) +
         (size_t)mesh->grid_w * (size_t)mesh->grid_h * sizeof(int32_t);
}

static vec2 circle_vertex(vec2 center, double radius, int k) {
  // Circumscribed polygon: the apothem equals the radius.
  double r = radius / cos(AN_PI / AN_NAVMESH_CIRCLE_SIDES);
  double angle = AN_TWO_PI * (double)k / AN_NAVMESH_CIRCLE_SIDES;
  return an_circle_point(center, r, angle);
}

/// Winding number of the ring about p (+1 inside a simple counter-clockwise ring). Rings of an
/// eroded map may cross themselves; their material is told by winding sums (see erode.h), which
/// for simple rings is the usual inside test. Only used for points far (relative to rounding) from
/// the ring.
static int ring_winding(const arcnav_map *map, const an_ring *ring, vec2 p) {
  int winding = 0;
  vec2 a = an_ring_vertex(map, ring, ring->count - 1);
  for (size_t i = 0; i < ring->count; ++i) {
    vec2 b = an_ring_vertex(map, ring, i);
    if (a.y <= p.y) {
      if (b.y > p.y && an_orient(a, b, p) > 0.0) {
        ++winding;
      }
    } else if (b.y <= p.y && an_orient(a, b, p) < 0.0) {
      --winding;
    }
    a = b;
  }
  return winding;
}

static bool inside_circle_polygon(const an_obstacle *ob, vec2 p) {
  vec2 d = v2_sub(p, ob->center);
  for (int k = 0; k < AN_NAVMESH_CIRCLE_SIDES; ++k) {
    double angle = AN_TWO_PI * ((double)k + 0.5) / AN_NAVMESH_CIRCLE_SIDES;
    if (v2_dot(d, v2_from_angle(angle)) >= ob->radius) {
      return false;
    }
  }
  return true;
}

/// Is p (a point well inside a face of the arrangement) in the blocked region?
static bool point_blocked(const arcnav_map *map, vec2 p) {
  // The bounds ring is clockwise: -1 inside.
  if (map->has_bounds && ring_winding(map, &map->bounds, p) >= 0) {
    return true;
  }
  for (size_t o = 0; o < map->obstacle_count; ++o) {
    const an_obstacle *ob = &map->obstacles[o];
    if (ob->kind == AN_OBSTACLE_CIRCLE) {
      if (ob->radius <= 0.0) {
        continue;
      }
      double r = ob->radius / cos(AN_PI / AN_NAVMESH_CIRCLE_SIDES);
      if (fabs(p.x - ob->center.x) > r || fabs(p.y - ob->center.y) > r) {
        continue;
      }
      if (inside_circle_polygon(ob, p)) {
        return true;
      }
      continue;
    }
    if (p.x < ob->box_min.x || p.x > ob->box_max.x || p.y < ob->box_min.y || p.y > ob->box_max.y) {
      continue;
    }
    // Outer ring counter-clockwise, holes clockwise: material where the sum is positive.
    int winding = 0;
    for (uint32_t r = 0; r < ob->ring_count; ++r) {
      winding += ring_winding(map, &map->rings[ob->first_ring + r], p);
    }
    if (winding >= 1) {
      return true;
    }
  }
  return false;
}

/// Collect the constraint points and segments of the map. Counts first (points == NULL).
static void collect_input(const arcnav_map *map, vec2 *points, uint32_t *segments, size_t *np,
                          size_t *ns) {
  size_t n = 0, s = 0;
  for (size_t o = 0; o < map->obstacle_count; ++o) {
    const an_obstacle *ob = &map->obstacles[o];
    if (ob->kind == AN_OBSTACLE_CIRCLE) {
      if (ob->radius <= 0.0) {
        continue;
      }
      for (int k = 0; k < AN_NAVMESH_CIRCLE_SIDES; ++k) {
        if (points) {
          points[n + (size_t)k] = circle_vertex(ob->center, ob->radius, k);
          segments[2 * (s + (size_t)k)] = (uint32_t)(n + (size_t)k);
          segments[2 * (s + (size_t)k) + 1] =
              (uint32_t)(n + (size_t)((k + 1) % AN_NAVMESH_CIRCLE_SIDES));
        }
      }
      n += AN_NAVMESH_CIRCLE_SIDES;
      s += AN_NAVMESH_CIRCLE_SIDES;
      continue;
    }
    for (uint32_t r = 0; r < ob->ring_count; ++r) {
      const an_ring *ring = &map->rings[ob->first_ring + r];
      for (size_t i = 0; i < ring->count; ++i) {
        if (points) {
          points[n + i] = an_ring_vertex(map, ring, i);
          segments[2 * (s + i)] = (uint32_t)(n + i);
          segments[2 * (s + i) + 1] = (uint32_t)(n + (i + 1) % ring->count);
        }
      }
      n += ring->count;
      s += ring->count;
    }
  }
  if (map->has_bounds) {
    const an_ring *ring = &map->bounds;
    for (size_t i = 0; i < ring->count; ++i) {
      if (points) {
        points[n + i] = an_ring_vertex(map, ring, i);
        segments[2 * (s + i)] = (uint32_t)(n + i);
        segments[2 * (s + i) + 1] = (uint32_t)(n + (i + 1) % ring->count);
      }
    }
    n += ring->count;
    s += ring->count;
  }
  *np = n;
  *ns = s;
}

/// Label the faces of the constraint arrangement (triangles joined by non-constraint edges),
/// classify each face by testing the incentre of its fattest triangle, and compact the free
/// triangles.
static arcnav_status classify(an_navmesh *mesh, const arcnav_map *map) {
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
    bool blocked = point_blocked(map, best_center);
    for (size_t k = 0; k < tail; ++k) {
      mesh->free_of[queue[k]] = blocked ? -1 : 0;
    }
  }
  an_free(&mesh->alloc, face);
  an_free(&mesh->alloc, queue);

  size_t nf = 0;
  for (size_t t = 0; t < nt; ++t) {
    if (mesh->free_of[t] >= 0) {
      mesh->free_of[t] = (int32_t)nf++;
    }
  }
  mesh->free_count = nf;
  if (nf == 0) {
    return ARCNAV_OK;
  }
  mesh->tri_of = an_alloc(&mesh->alloc, nf, sizeof *mesh->tri_of);
  mesh->fv = an_alloc(&mesh->alloc, 3 * nf, sizeof *mesh->fv);
  mesh->fn = an_alloc(&mesh->alloc, 3 * nf, sizeof *mesh->fn);
  if (!mesh->tri_of || !mesh->fv || !mesh->fn) {
    return ARCNAV_ERR_OUT_OF_MEMORY;
  }
  for (size_t t = 0; t < nt; ++t) {
    int32_t f = mesh->free_of[t];
    if (f < 0) {
      continue;
    }
    mesh->tri_of[f] = (int32_t)t;
    for (int i = 0; i < 3; ++i) {
      int32_t u = cdt->tris[t].n[i];
      mesh->fv[3 * (size_t)f + (size_t)i] = cdt->tris[t].v[i];
      mesh->fn[3 * (size_t)f + (size_t)i] = u >= 0 ? mesh->free_of[u] : -1;
    }
  }
  return ARCNAV_OK;
}

static arcnav_status build_grid(an_navmesh *mesh) {
  const an_cdt *cdt = &mesh->cdt;
  vec2 lo = cdt->points[0], hi = cdt->points[2];
  double w = hi.x - lo.x, h = hi.y - lo.y;
  // About two triangles per cell keeps the walks a few steps long.
  double cells = an_max(1.0, (double)cdt->tri_count / 2.0);
  double gw = an_min(an_max(1.0, floor(sqrt(cells * w / h))), 4096.0);
  double gh = an_min(an_max(1.0, floor(cells / gw)), 4096.0);
  mesh->grid_w = (int32_t)gw;
  mesh->grid_h = (int32_t)gh;
  mesh->grid_min = lo;
  mesh->cell_w = w / gw;
  mesh->cell_h = h / gh;
  mesh->grid = an_alloc(&mesh->alloc, (size_t)mesh->grid_w * (size_t)mesh->grid_h, sizeof(int32_t));
  if (!mesh->grid) {
    return ARCNAV_ERR_OUT_OF_MEMORY;
  }
  int32_t t = 0;
  for (int32_t j = 0; j < mesh->grid_h; ++j) {
    for (int32_t k = 0; k < mesh->grid_w; ++k) {
      // Snake order so each walk starts next to the previous cell.
      int32_t i = (j & 1) ? mesh->grid_w - 1 - k : k;
      vec2 c = v2(lo.x + ((double)i + 0.5) * mesh->cell_w, lo.y + ((double)j + 0.5) * mesh->cell_h);
      int32_t found = an_cdt_locate(cdt, c, t);
      if (found >= 0) {
        t = found;
      }
      mesh->grid[(size_t)j * (size_t)mesh->grid_w + (size_t)i] = t;
    }
  }
  return ARCNAV_OK;
}

arcnav_status an_navmesh_build(const arcnav_map *map, const an_allocator *alloc, an_navmesh **out) {
  if (!map || !alloc || !out) {
    return ARCNAV_ERR_INVALID_ARGUMENT;
  }
  size_t np, ns;
  collect_input(map, NULL, NULL, &np, &ns);
  if (np > (size_t)INT32_MAX / 8) {
    return ARCNAV_ERR_TOO_LARGE;
  }
  an_navmesh *mesh = an_calloc(alloc, 1, sizeof *mesh);
  if (!mesh) {
    return ARCNAV_ERR_OUT_OF_MEMORY;
  }
  mesh->alloc = *alloc;
  mesh->cdt.alloc = *alloc;
  mesh->eps = an_map_tolerance(map);
  vec2 *points = np ? an_alloc(alloc, np, sizeof *points) : NULL;
  uint32_t *segments = ns ? an_alloc(alloc, 2 * ns, sizeof *segments) : NULL;
  if ((np && !points) || (ns && !segments)) {
    an_free(alloc, points);
    an_free(alloc, segments);
    an_free(alloc, mesh);
    return ARCNAV_ERR_OUT_OF_MEMORY;
  }
  collect_input(map, points, segments, &np, &ns);
  vec2 lo = v2(-1.0, -1.0), hi = v2(1.0, 1.0);
  // The map's own extent counts point obstacles (circles of radius 0), which add no vertices.
  bool has_extent = arcnav_map_extent(map, &lo, &hi);
  for (size_t i = 0; i < np; ++i) {
    if (i == 0 && !has_extent) {
      lo = hi = points[0];
    }
    lo = v2(an_min(lo.x, points[i].x), an_min(lo.y, points[i].y));
    hi = v2(an_max(hi.x, points[i].x), an_max(hi.y, points[i].y));
  }
  double margin = 0.1 * an_max(hi.x - lo.x, hi.y - lo.y) + 1.0;
  lo = v2(lo.x - margin, lo.y - margin);
  hi = v2(hi.x + margin, hi.y + margin);
  arcnav_status st = an_cdt_build(&mesh->cdt, alloc, lo, hi, points, np, segments, ns, NULL);
  an_free(alloc, points);
  an_free(alloc, segments);
  if (st == ARCNAV_OK) {
    st = classify(mesh, map);
  }
  if (st == ARCNAV_OK) {
    st = build_grid(mesh);
  }
  if (st != ARCNAV_OK) {
    an_navmesh_destroy(mesh);
    return st;
  }
  *out = mesh;
  return ARCNAV_OK;
}

#define LOCATE_NEAR_MAX 64

int32_t an_navmesh_locate(const an_navmesh *mesh, vec2 p) {
  if (!v2_is_finite(p) || !mesh->grid) {
    return -1;
  }
  double fx = floor((p.x - mesh->grid_min.x) / mesh->cell_w);
  double fy = floor((p.y - mesh->grid_min.y) / mesh->cell_h);
  int32_t i = (int32_t)an_min(an_max(fx, 0.0), (double)(mesh->grid_w - 1));
  int32_t j = (int32_t)an_min(an_max(fy, 0.0), (double)(mesh->grid_h - 1));
  const an_cdt *cdt = &mesh->cdt;
  int32_t t = an_cdt_locate(cdt, p, mesh->grid[(size_t)j * (size_t)mesh->grid_w + (size_t)i]);
  if (t < 0) {
    return -1;
  }
  if (mesh->free_of[t] >= 0) {
    return mesh->free_of[t];
  }
  // Blocked triangle: look for a free one within eps, crossing only edges within eps of p.
  int32_t seen[LOCATE_NEAR_MAX];
  size_t count = 0, head = 0;
  seen[count++] = t;
  int32_t best = -1;
  double best_d = INFINITY;
  while (head < count) {
    const an_cdt_tri *tri = &cdt->tris[seen[head++]];
    for (int k = 0; k < 3; ++k) {
      int32_t u = tri->n[k];
      if (u < 0) {
        continue;
      }
      vec2 a = cdt->points[tri->v[(k + 1) % 3]], b = cdt->points[tri->v[(k + 2) % 3]];
      double d = an_point_segment_dist(p, a, b);
      if (d > mesh->eps) {
        continue;
      }
      bool known = false;
      for (size_t s = 0; s < count && !known; ++s) {
        known = seen[s] == u;
      }
      if (known) {
        continue;
      }
      if (mesh->free_of[u] >= 0) {
        if (d < best_d) {
          best_d = d;
          best = mesh->free_of[u];
        }
      }
      if (count < LOCATE_NEAR_MAX) {
        seen[count++] = u;
      }
    }
  }
  return best;
}
