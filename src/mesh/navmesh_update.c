// SPDX-License-Identifier: MIT
// Local changes of a point agent's navmesh: a polygon that touches nothing put in, taken out
// again, or moved, by edits of the triangulation instead of a new build (docs/DESIGN.md, "A living
// map"). The triangles carry their label as the kernel's tag, which its edits keep; the free
// triangles' arrays are then numbered again from the tags.
#include "mesh/navmesh_build.h"

#include <math.h>
#include <string.h>

enum { TAG_FREE = 0, TAG_BLOCKED = 1 };

bool an_navmesh_may_change_locally(const an_navmesh *mesh) {
  return mesh->connector_count == 0 && mesh->free_count > 0;
}

/// The arrays a mesh numbers its free triangles in, made from a triangulation's tags.
typedef struct free_arrays {
  int32_t *free_of, *tri_of, *fv, *fn;
  size_t free_count;
} free_arrays;

static void free_arrays_release(free_arrays *f, const an_allocator *alloc) {
  an_free(alloc, f->free_of);
  an_free(alloc, f->tri_of);
  an_free(alloc, f->fv);
  an_free(alloc, f->fn);
  memset(f, 0, sizeof *f);
}

static arcnav_status number_free(const an_cdt *cdt, const an_allocator *alloc, free_arrays *f) {
  memset(f, 0, sizeof *f);
  size_t nt = cdt->tri_count, nf = 0;
  for (size_t t = 0; t < nt; ++t) {
    nf += cdt->tris[t].tag == TAG_FREE;
  }
  f->free_of = an_alloc(alloc, nt, sizeof *f->free_of);
  f->tri_of = an_alloc(alloc, nf > 0 ? nf : 1, sizeof *f->tri_of);
  f->fv = an_alloc(alloc, 3 * (nf > 0 ? nf : 1), sizeof *f->fv);
  f->fn = an_alloc(alloc, 3 * (nf > 0 ? nf : 1), sizeof *f->fn);
  if (!f->free_of || !f->tri_of || !f->fv || !f->fn) {
    free_arrays_release(f, alloc);
    return ARCNAV_ERR_OUT_OF_MEMORY;
  }
  for (size_t t = 0; t < nt; ++t) {
    f->free_of[t] = cdt->tris[t].tag == TAG_FREE ? (int32_t)f->free_count++ : -1;
  }
  an_navmesh_fill_free(cdt, f->free_of, f->tri_of, f->fv, f->fn);
  return ARCNAV_OK;
}

/// The vertices an edit took out ([0]) and put in ([1]); a put-in one may have a taken-out one's
/// index.
typedef struct edited_vertices {
  const int32_t *vertices[2];
  size_t count[2];
} edited_vertices;

// The parts of the edited triangulation's free triangles, numbered from the mesh's where the
// edit left them (docs/DESIGN.md, "A living map"): a free triangle in a slot that held the same
// corners, free, none of them edited, keeps its part; the triangles the edit made are flooded
// across fn through each other and take the one part they meet, or a new number when they meet none
// (a courtyard). Where they meet two parts (an edit that joined them), everything is numbered
// again.
static arcnav_status label_parts(const an_navmesh *mesh, const an_cdt *work, const free_arrays *f,
                                 const edited_vertices *edited, int32_t **out) {
  size_t n = f->free_count;
  int32_t *part = an_alloc(&mesh->alloc, n > 0 ? n : 1, sizeof *part);
  int32_t *queue = an_alloc(&mesh->alloc, n > 0 ? n : 1, sizeof *queue);
  uint8_t *changed = an_calloc(&mesh->alloc, work->point_count, sizeof *changed);
  if (!part || !queue || !changed) {
    an_free(&mesh->alloc, part);
    an_free(&mesh->alloc, queue);
    an_free(&mesh->alloc, changed);
    return ARCNAV_ERR_OUT_OF_MEMORY;
  }
  for (int e = 0; e < 2; ++e) {
    for (size_t k = 0; k < edited->count[e]; ++k) {
      changed[edited->vertices[e][k]] = 1;
    }
  }
  enum { UNKNOWN = -1, QUEUED = -2 };
  int32_t next = 0; // past every part number kept
  for (size_t k = 0; k < n; ++k) {
    size_t t = (size_t)f->tri_of[k];
    const int32_t *now = work->tris[t].v;
    int32_t before = t < mesh->cdt.tri_count ? mesh->free_of[t] : -1;
    part[k] = UNKNOWN;
    if (before >= 0 && memcmp(now, mesh->cdt.tris[t].v, sizeof work->tris[t].v) == 0 &&
        !changed[now[0]] && !changed[now[1]] && !changed[now[2]]) {
      part[k] = mesh->component[before];
      next = part[k] >= next ? part[k] + 1 : next;
    }
  }
  bool joined = false;
  for (size_t seed = 0; seed < n && !joined; ++seed) {
    if (part[seed] != UNKNOWN) {
      continue;
    }
    size_t tail = 0;
    int32_t met = UNKNOWN;
    queue[tail++] = (int32_t)seed;
    part[seed] = QUEUED;
    for (size_t head = 0; head < tail; ++head) {
      for (int i = 0; i < 3; ++i) {
        int32_t u = f->fn[3 * (size_t)queue[head] + (size_t)i];
        if (u < 0 || part[u] == QUEUED) {
          continue;
        }
        if (part[u] == UNKNOWN) {
          part[u] = QUEUED;
          queue[tail++] = u;
        } else if (met == UNKNOWN) {
          met = part[u];
        } else if (met != part[u]) {
          joined = true;
        }
      }
    }
    int32_t label = met != UNKNOWN ? met : next++;
    for (size_t k = 0; k < tail; ++k) {
      part[queue[k]] = label;
    }
  }
  an_free(&mesh->alloc, queue);
  an_free(&mesh->alloc, changed);
  if (joined) {
    an_free(&mesh->alloc, part);
    return an_navmesh_label_components(f->fn, n, &mesh->alloc, out);
  }
  *out = part;
  return ARCNAV_OK;
}

// The edited triangulation `work` (in the mesh's spare arrays) replaces the mesh's, whose arrays
// become the spare ones, with the free triangles numbered again, their parts, the box's edges
// and the location grid's cells over [lo, hi]. The forest of the widest passages would need a
// build over the whole mesh: it is dropped, and the mesh then answers passage widths as one built
// without it. So are the landmarks, but for an edit that only added: the old map's lengths still
// bound the new map's (mesh/landmarks.h). On failure the mesh is as it was.
static arcnav_status adopt(an_navmesh *mesh, an_cdt *work, const edited_vertices *edited, vec2 lo,
                           vec2 hi) {
  free_arrays f;
  arcnav_status st = number_free(work, &mesh->alloc, &f);
  int32_t *component = NULL, *dead_apex = NULL;
  uint8_t *corner = NULL;
  if (st == ARCNAV_OK) {
    st = label_parts(mesh, work, &f, edited, &component);
  }
  if (st == ARCNAV_OK) {
    st = an_navmesh_mark_corners(f.fv, f.fn, f.free_count, work->point_count, &mesh->alloc, &corner,
                                 &dead_apex);
  }
  // The last step that may fail: from here on the mesh takes the edit.
  if (st == ARCNAV_OK && edited->count[0] == 0) {
    st = an_landmarks_after_addition(&mesh->landmarks, work->point_count, edited->vertices[1],
                                     edited->count[1], &mesh->alloc);
  }
  if (st != ARCNAV_OK) {
    free_arrays_release(&f, &mesh->alloc);
    an_free(&mesh->alloc, component);
    an_free(&mesh->alloc, corner);
    an_free(&mesh->alloc, dead_apex);
    return st;
  }
  // The old triangulation becomes the spare arrays, unless it was borrowed (an_navmesh_clone()).
  an_cdt old = mesh->cdt;
  mesh->cdt = *work;
  *work = mesh->borrows_triangulation ? (an_cdt){0} : old;
  an_navmesh_free_triangle_arrays(mesh);
  mesh->borrows_triangulation = false;
  mesh->free_of = f.free_of;
  mesh->tri_of = f.tri_of;
  mesh->fv = f.fv;
  mesh->fn = f.fn;
  mesh->free_count = f.free_count;
  mesh->component = component;
  mesh->corner = corner;
  mesh->dead_apex = dead_apex;
  an_widest_forest_destroy(&mesh->passages, &mesh->alloc);
  an_free(&mesh->alloc, mesh->portal_width);
  mesh->portal_width = NULL;
  if (edited->count[0] != 0) {
    an_landmarks_free(&mesh->landmarks, &mesh->alloc);
  }
  an_navmesh_find_box_edges(mesh);
  an_navmesh_refresh_grid(mesh, lo, hi);
  return ARCNAV_OK;
}

// The triangle on the left of the directed edge a -> b of `cdt`, or -1 when there is no edge.
static int32_t left_of(const an_cdt *cdt, int32_t a, int32_t b) {
  int32_t t;
  int i = an_cdt_find_edge(cdt, a, b, &t);
  if (i < 0) {
    return -1;
  }
  // Counter-clockwise triangles run along their edge i from v[i + 1] to v[i + 2].
  return cdt->tris[t].v[(i + 1) % 3] == a ? t : cdt->tris[t].n[i];
}

static size_t ring_points(const uint32_t *ring_counts, size_t ring_count) {
  size_t count = 0;
  for (size_t r = 0; r < ring_count; ++r) {
    count += ring_counts[r];
  }
  return count;
}

// The point after point k on its ring (the points of the rings one after the other).
static size_t next_in_ring(const an_navmesh_rings *rings, size_t k) {
  size_t first = 0;
  for (size_t r = 0; r < rings->ring_count; first += rings->ring_counts[r++]) {
    size_t end = first + rings->ring_counts[r];
    if (k < end) {
      return k + 1 < end ? k + 1 : first;
    }
  }
  return k;
}

static void widen(vec2 p, vec2 *lo, vec2 *hi) {
  *lo = v2(an_min(lo->x, p.x), an_min(lo->y, p.y));
  *hi = v2(an_max(hi->x, p.x), an_max(hi->y, p.y));
}

// Takes a polygon an_navmesh_change_polygon() put in out of `work`; its box widens [lo, hi].
static arcnav_status take_out(an_cdt *work, const an_navmesh_rings *rings, vec2 *lo, vec2 *hi) {
  arcnav_status st = ARCNAV_OK;
  size_t count = ring_points(rings->ring_counts, rings->ring_count);
  const int32_t *vertices = rings->vertices;
  // Every triangle inside the polygon has its corners on it (nothing else lay inside), so the
  // triangles round its vertices are all that was blocked by it: tagged free before anything
  // moves (the flips below keep each slot's tag, and would carry a blocked one beyond the
  // polygon's vertices), and the triangles filling each removed vertex's hole take that tag.
  for (size_t k = 0; st == ARCNAV_OK && k < count; ++k) {
    int32_t v = vertices[k];
    int32_t t = v >= 4 && (size_t)v < work->point_count ? work->vertex_tri[v] : -1;
    if (t < 0) {
      st = ARCNAV_ERR_INVALID_ARGUMENT;
      break;
    }
    widen(work->points[v], lo, hi);
    do {
      an_cdt_tri *tri = &work->tris[t];
      int m = an_cdt_vertex_index(tri, v);
      tri->tag = TAG_FREE;
      t = tri->n[(m + 1) % 3];
    } while (t >= 0 && t != work->vertex_tri[v]);
  }
  for (size_t k = 0; st == ARCNAV_OK && k < count; ++k) {
    st = an_cdt_unconstrain_edge(work, vertices[k], vertices[next_in_ring(rings, k)]);
  }
  for (size_t k = 0; st == ARCNAV_OK && k < count; ++k) {
    st = an_cdt_remove_vertex(work, vertices[k]);
  }
  return st;
}

// Puts polygon `points` (its rings' counts in `rings`) into `work`, its vertices to
// out_vertices; its box widens [lo, hi].
static arcnav_status put_in(an_cdt *work, const an_allocator *alloc, const vec2 *points,
                            const an_navmesh_rings *rings, int32_t *out_vertices, vec2 *lo,
                            vec2 *hi) {
  arcnav_status st = ARCNAV_OK;
  size_t count = ring_points(rings->ring_counts, rings->ring_count);
  // Every point a new vertex strictly inside a free triangle's region: the caller found nothing
  // near the polygon, so nothing of the triangulation lies on it.
  // The triangles a new point splits take their tag: one round it says what it landed in.
  for (size_t k = 0; st == ARCNAV_OK && k < count; ++k) {
    int32_t fresh = an_cdt_next_vertex(work);
    widen(points[k], lo, hi);
    st = an_cdt_insert_point(work, points[k], &out_vertices[k]);
    if (st == ARCNAV_OK && (out_vertices[k] != fresh ||
                            work->tris[work->vertex_tri[out_vertices[k]]].tag != TAG_FREE)) {
      st = ARCNAV_ERR_INVALID_ARGUMENT;
    }
  }
  for (size_t k = 0; st == ARCNAV_OK && k < count; ++k) {
    st = an_cdt_insert_segment(work, out_vertices[k], out_vertices[next_in_ring(rings, k)]);
  }
  // The material lies on the left of every ring edge (outer rings counter-clockwise, holes
  // clockwise): flooded from there, up to the polygon's own edges.
  int32_t *queue = st == ARCNAV_OK ? an_alloc(alloc, work->tri_count, sizeof *queue) : NULL;
  if (st == ARCNAV_OK && !queue) {
    st = ARCNAV_ERR_OUT_OF_MEMORY;
  }
  size_t tail = 0;
  for (size_t k = 0; st == ARCNAV_OK && k < count; ++k) {
    int32_t t = left_of(work, out_vertices[k], out_vertices[next_in_ring(rings, k)]);
    if (t < 0) {
      st = ARCNAV_ERR_INVALID_ARGUMENT; // the edge did not go in whole
    } else if (work->tris[t].tag == TAG_FREE) {
      work->tris[t].tag = TAG_BLOCKED;
      queue[tail++] = t;
    }
  }
  for (size_t head = 0; st == ARCNAV_OK && head < tail; ++head) {
    const an_cdt_tri *tri = &work->tris[queue[head]];
    for (int i = 0; i < 3; ++i) {
      int32_t u = tri->n[i];
      if (u >= 0 && !((tri->constrained >> i) & 1u) && work->tris[u].tag == TAG_FREE) {
        work->tris[u].tag = TAG_BLOCKED;
        queue[tail++] = u;
      }
    }
  }
  an_free(alloc, queue);
  return st;
}

arcnav_status an_navmesh_change_polygon(an_navmesh *mesh, const an_navmesh_rings *gone,
                                        const vec2 *points, const an_navmesh_rings *added,
                                        int32_t *out_vertices) {
  size_t gone_count = gone ? ring_points(gone->ring_counts, gone->ring_count) : 0;
  size_t added_count = added ? ring_points(added->ring_counts, added->ring_count) : 0;
  if (!an_navmesh_may_change_locally(mesh) || (gone && gone_count == 0) ||
      (added && added_count == 0) || (!gone && !added)) {
    return ARCNAV_ERR_INVALID_ARGUMENT;
  }
  an_cdt *work = &mesh->spare;
  arcnav_status st = an_cdt_copy(&mesh->cdt, added_count, work);
  // The labels go into the copy's tags, which its edits keep.
  for (size_t t = 0; st == ARCNAV_OK && t < work->tri_count; ++t) {
    work->tris[t].tag = mesh->free_of[t] >= 0 ? TAG_FREE : TAG_BLOCKED;
  }
  vec2 lo = v2(INFINITY, INFINITY), hi = v2(-INFINITY, -INFINITY);
  if (st == ARCNAV_OK && gone) {
    st = take_out(work, gone, &lo, &hi);
  }
  if (st == ARCNAV_OK && added) {
    st = put_in(work, &mesh->alloc, points, added, out_vertices, &lo, &hi);
  }
  edited_vertices edited = {{gone ? gone->vertices : NULL, out_vertices},
                            {gone_count, added_count}};
  return st == ARCNAV_OK ? adopt(mesh, work, &edited, lo, hi) : st;
}
