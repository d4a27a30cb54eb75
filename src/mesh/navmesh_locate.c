// SPDX-License-Identifier: MIT
// Point location in a navmesh: the grid of walk start triangles (the last build stage) and the
// queries that walk from it.
#include "mesh/navmesh_build.h"

#include "geom/predicates.h"
#include "geom/tolerances.h"

#include <math.h>

void an_navmesh_refresh_grid(an_navmesh *mesh, vec2 lo, vec2 hi, size_t valid_count) {
  const an_cdt *cdt = &mesh->cdt;
  int32_t i0 = (int32_t)an_max(0.0, floor((lo.x - mesh->grid_min.x) / mesh->cell_w) - 1.0);
  int32_t j0 = (int32_t)an_max(0.0, floor((lo.y - mesh->grid_min.y) / mesh->cell_h) - 1.0);
  int32_t i1 = (int32_t)an_min((double)mesh->grid_w - 1.0,
                               floor((hi.x - mesh->grid_min.x) / mesh->cell_w) + 1.0);
  int32_t j1 = (int32_t)an_min((double)mesh->grid_h - 1.0,
                               floor((hi.y - mesh->grid_min.y) / mesh->cell_h) + 1.0);
  // Without fewer triangles than before no cell's triangle is gone: only [lo, hi]'s are looked at.
  bool shrank = cdt->tri_count < valid_count;
  for (int32_t j = shrank ? 0 : j0; j <= (shrank ? mesh->grid_h - 1 : j1); ++j) {
    for (int32_t i = shrank ? 0 : i0; i <= (shrank ? mesh->grid_w - 1 : i1); ++i) {
      int32_t *cell = &mesh->grid[(size_t)j * (size_t)mesh->grid_w + (size_t)i];
      bool gone = *cell < 0 || (size_t)*cell >= cdt->tri_count;
      if (!gone && (i < i0 || i > i1 || j < j0 || j > j1)) {
        continue;
      }
      vec2 c = v2(mesh->grid_min.x + ((double)i + 0.5) * mesh->cell_w,
                  mesh->grid_min.y + ((double)j + 0.5) * mesh->cell_h);
      int32_t found = an_cdt_locate(cdt, c, gone ? 0 : *cell);
      *cell = found >= 0 ? found : 0;
    }
  }
}

arcnav_status an_navmesh_build_grid(an_navmesh *mesh) {
  const an_cdt *cdt = &mesh->cdt;
  vec2 lo = cdt->points[0], hi = cdt->points[2];
  double w = hi.x - lo.x, h = hi.y - lo.y;
  // About two triangles per cell keeps the walks a few steps long.
  double cells = an_max(1.0, (double)cdt->tri_count / 2.0);
  double gw = an_min(an_max(1.0, floor(sqrt(cells * w / h))), AN_LOCATE_GRID_MAX_SIDE);
  double gh = an_min(an_max(1.0, floor(cells / gw)), AN_LOCATE_GRID_MAX_SIDE);
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

#define LOCATE_NEAR_MAX 64

bool an_navmesh_in_box(const an_navmesh *mesh, vec2 p) {
  vec2 lo = mesh->cdt.points[0], hi = mesh->cdt.points[2];
  return p.x >= lo.x && p.x <= hi.x && p.y >= lo.y && p.y <= hi.y;
}

bool an_navmesh_point_is_free(const an_navmesh *mesh, vec2 p) {
  if (!v2_is_finite(p)) {
    return false;
  }
  return an_navmesh_in_box(mesh, p) ? an_navmesh_locate(mesh, p) >= 0 : mesh->whole_plane;
}

// The cell of an offset from the grid's corner along one axis, clamped to the grid: floor of
// offset / size, which truncation gives for the offsets not clamped to the first cell.
static int32_t locate_cell(double offset, double size, int32_t count) {
  double f = offset / size;
  if (!(f >= 1.0)) {
    return 0;
  }
  return f >= (double)(count - 1) ? count - 1 : (int32_t)f;
}

int32_t an_navmesh_locate_cdt(const an_navmesh *mesh, vec2 p) {
  if (!v2_is_finite(p) || !mesh->grid) {
    return -1;
  }
  int32_t i = locate_cell(p.x - mesh->grid_min.x, mesh->cell_w, mesh->grid_w);
  int32_t j = locate_cell(p.y - mesh->grid_min.y, mesh->cell_h, mesh->grid_h);
  return an_cdt_locate(&mesh->cdt, p, mesh->grid[(size_t)j * (size_t)mesh->grid_w + (size_t)i]);
}

int32_t an_navmesh_vertex_at(const an_navmesh *mesh, vec2 p) {
  // A vertex lies on the triangles round it alone: the one located holds it as a corner.
  int32_t t = an_navmesh_locate_cdt(mesh, p);
  for (int k = 0; t >= 0 && k < 3; ++k) {
    int32_t v = mesh->cdt.tris[t].v[k];
    if (mesh->cdt.points[v].x == p.x && mesh->cdt.points[v].y == p.y) {
      return v;
    }
  }
  return -1;
}

int32_t an_navmesh_locate_inside(const an_navmesh *mesh, vec2 p) {
  int32_t t = an_navmesh_locate_cdt(mesh, p);
  if (t < 0 || mesh->free_of[t] < 0) {
    return -1;
  }
  const an_cdt_tri *tri = &mesh->cdt.tris[t];
  const vec2 *pts = mesh->cdt.points;
  vec2 corner[3] = {pts[tri->v[0]], pts[tri->v[1]], pts[tri->v[2]]};
  // More than a few tolerances inside each edge: the build snaps points within eps together, so
  // an obstacle's edges lie within eps of the mesh's, and one that snapping collapsed lies
  // within 2 eps of a vertex (docs/DESIGN.md, "Free checks").
  for (int i = 0; i < 3; ++i) {
    vec2 a = corner[an_cdt_next3(i)], b = corner[an_cdt_prev3(i)];
    if (!(an_orient2d(a, b, p) > AN_LOCATE_INSIDE_TOLERANCES * mesh->eps * v2_dist(a, b))) {
      return -1;
    }
  }
  return mesh->free_of[t];
}

int32_t an_navmesh_locate(const an_navmesh *mesh, vec2 p) {
  int32_t t = an_navmesh_locate_cdt(mesh, p);
  if (t < 0) {
    return -1;
  }
  const an_cdt *cdt = &mesh->cdt;
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
      vec2 a = cdt->points[tri->v[an_cdt_next3(k)]], b = cdt->points[tri->v[an_cdt_prev3(k)]];
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
