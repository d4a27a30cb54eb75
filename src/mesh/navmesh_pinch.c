// SPDX-License-Identifier: MIT
// A navmesh build stage: connectors that open the pinches, for the faces stage.
//
// Where obstacles touch at a single vertex v, free space on either side meets only at v: the
// triangles there share v but no edge, so a walk over edge-adjacent free triangles cannot pass,
// though the map's rule says touching is free (a gap of exactly 2R is open). Around such a vertex
// the free triangles form two or more fans separated by blocked wedges; consecutive fans are
// joined through v by a pair of zero-area connector triangles, appended after the real ones:
//   A' = (v, v, p) sits on the blocked edge (p, v) that closes fan A counter-clockwise, and is
//   adjacent to A across it (edge 0);
//   B' = (v, q, v) sits on the blocked edge (v, q) that opens the next fan B, adjacent to B across
//   it (edge 0);
//   A' and B' are adjacent across their zero-length edges (v, v): edge 2 of A', edge 1 of B'.
// A channel through them crosses the portals (p, v), (v, v), (v, q): the funnel is pulled through
// the point v, and the edges (p, v) and (v, q) lie on obstacle boundaries, where touching is free.
#include "mesh/navmesh_build.h"

static void add_connectors(an_navmesh *mesh, size_t *next, int32_t v, int32_t a_tri, int a_k,
                           int32_t b_tri, int b_k) {
  const an_cdt_tri *ta = &mesh->cdt.tris[a_tri], *tb = &mesh->cdt.tris[b_tri];
  int32_t p = ta->v[an_cdt_prev3(a_k)]; // fan A closes with its edge k + 1, from p to v
  int32_t q = tb->v[an_cdt_next3(b_k)]; // fan B opens with its edge k + 2, from v to q
  int32_t fa = mesh->free_of[a_tri], fb = mesh->free_of[b_tri];
  size_t ca = (*next)++, cb = (*next)++;
  const int32_t va[3] = {v, v, p}, vb[3] = {v, q, v};
  const int32_t na[3] = {fa, -1, (int32_t)cb}, nb[3] = {fb, (int32_t)ca, -1};
  for (int i = 0; i < 3; ++i) {
    mesh->fv[3 * ca + (size_t)i] = va[i];
    mesh->fn[3 * ca + (size_t)i] = na[i];
    mesh->fv[3 * cb + (size_t)i] = vb[i];
    mesh->fn[3 * cb + (size_t)i] = nb[i];
  }
  mesh->tri_of[ca] = a_tri;
  mesh->tri_of[cb] = b_tri;
  mesh->fn[3 * (size_t)fa + (size_t)an_cdt_next3(a_k)] = (int32_t)ca;
  mesh->fn[3 * (size_t)fb + (size_t)an_cdt_prev3(b_k)] = (int32_t)cb;
}

/// Number of fans of free triangles around vertex v parted by blocked ones (0 on the box or
/// without a blocked triangle); *first receives a free triangle that follows a blocked one
/// counter-clockwise.
static size_t fans_at(const an_navmesh *mesh, int32_t v, int32_t *first) {
  const an_cdt *cdt = &mesh->cdt;
  int32_t start = cdt->vertex_tri[v];
  *first = -1;
  if (start < 0) {
    return 0;
  }
  // Around v the fans alternate with blocked wedges: count the steps from blocked to free.
  size_t fans = 0;
  int32_t t = start;
  do {
    const an_cdt_tri *tri = &cdt->tris[t];
    int k = an_cdt_vertex_index(tri, v);
    int32_t u = tri->n[an_cdt_next3(k)];
    if (u < 0) {
      return 0; // on the box
    }
    if (mesh->free_of[t] < 0 && mesh->free_of[u] >= 0) {
      if (fans++ == 0) {
        *first = u;
      }
    }
    t = u;
  } while (t != start);
  return fans;
}

arcnav_status an_navmesh_split_pinch_edges(an_navmesh *mesh, const int32_t *pinches, size_t count,
                                           bool *split) {
  an_cdt *cdt = &mesh->cdt;
  if (count < 2) {
    return ARCNAV_OK;
  }
  size_t nv = cdt->point_count;
  uint8_t *pinch = an_calloc(&mesh->alloc, nv + 1, sizeof *pinch);
  int32_t *pairs = NULL;
  size_t pair_count = 0, pair_capacity = 0;
  arcnav_status st = pinch ? ARCNAV_OK : ARCNAV_ERR_OUT_OF_MEMORY;
  for (size_t k = 0; k < count && st == ARCNAV_OK; ++k) {
    pinch[pinches[k]] = 1;
  }
  for (size_t p = 0; p < count && st == ARCNAV_OK; ++p) {
    size_t v = (size_t)pinches[p];
    int32_t start = cdt->vertex_tri[v], t = start;
    do {
      const an_cdt_tri *tri = &cdt->tris[t];
      int k = an_cdt_vertex_index(tri, (int32_t)v);
      int e = an_cdt_prev3(k); // the edge from v to the next vertex
      int32_t w = tri->v[an_cdt_next3(k)], u = tri->n[e];
      if ((size_t)w > v && pinch[w] && u >= 0 &&
          (mesh->free_of[t] >= 0) != (mesh->free_of[u] >= 0)) {
        if (!an_reserve(&mesh->alloc, (void **)&pairs, &pair_capacity, pair_count, pair_count + 2,
                        sizeof *pairs)) {
          st = ARCNAV_ERR_OUT_OF_MEMORY;
          break;
        }
        pairs[pair_count++] = (int32_t)v;
        pairs[pair_count++] = w;
      }
      t = tri->n[an_cdt_next3(k)];
    } while (t != start);
  }
  for (size_t k = 0; k < pair_count && st == ARCNAV_OK; k += 2) {
    vec2 a = cdt->points[pairs[k]], b = cdt->points[pairs[k + 1]];
    int32_t m;
    st = an_cdt_split_edge(cdt, pairs[k], pairs[k + 1], v2_scale(v2_add(a, b), 0.5), &m);
    if (st == ARCNAV_OK) {
      *split = true; // the faces must be labelled again
    } else if (st == ARCNAV_ERR_INVALID_ARGUMENT) {
      st = ARCNAV_OK; // too short to split: the second pinch goes without this connector
    }
  }
  an_free(&mesh->alloc, pinch);
  an_free(&mesh->alloc, pairs);
  return st;
}

arcnav_status an_navmesh_find_pinches(const an_navmesh *mesh, int32_t **list, size_t *count) {
  size_t capacity = 0;
  *list = NULL;
  *count = 0;
  for (size_t v = 4; v < mesh->cdt.point_count; ++v) {
    int32_t first;
    if (fans_at(mesh, (int32_t)v, &first) < 2) {
      continue;
    }
    if (!an_reserve(&mesh->alloc, (void **)list, &capacity, *count, *count + 1, sizeof **list)) {
      return ARCNAV_ERR_OUT_OF_MEMORY;
    }
    (*list)[(*count)++] = (int32_t)v;
  }
  return ARCNAV_OK;
}

size_t an_navmesh_link_pinches(an_navmesh *mesh, const int32_t *pinches, size_t count,
                               size_t *next) {
  const an_cdt *cdt = &mesh->cdt;
  size_t pairs = 0;
  for (size_t p = 0; p < count; ++p) {
    int32_t v = pinches[p];
    int32_t first;
    fans_at(mesh, v, &first);
    // Fans in counter-clockwise order; each one that opens is joined to the one that closed last.
    int32_t first_open = -1, last_close = -1;
    int first_k = 0, last_k = 0;
    size_t fans = 0, here = 0;
    bool previous_free = false;
    int32_t t = first;
    do {
      const an_cdt_tri *tri = &cdt->tris[t];
      int k = an_cdt_vertex_index(tri, v);
      bool is_free = mesh->free_of[t] >= 0;
      int32_t u = tri->n[an_cdt_next3(k)];
      if (is_free && !previous_free) {
        if (fans == 0) {
          first_open = t;
          first_k = k;
        } else {
          if (next) {
            add_connectors(mesh, next, v, last_close, last_k, t, k);
          }
          ++here;
        }
        ++fans;
      }
      if (is_free && mesh->free_of[u] < 0) {
        last_close = t;
        last_k = k;
      }
      previous_free = is_free;
      t = u;
    } while (t != first);
    if (fans >= 3) {
      // Close the cycle: the last fan back to the first.
      if (next) {
        add_connectors(mesh, next, v, last_close, last_k, first_open, first_k);
      }
      ++here;
    }
    pairs += here;
  }
  return pairs;
}
