// SPDX-License-Identifier: MIT
#include "navmesh.h"

#include "circle_polygon.h"
#include "obstacle_index.h"
#include "ring_winding.h"
#include "tolerances.h"

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
  return mesh->free_count - mesh->connector_count;
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
  return index->cell_start ? an_ring_winding_indexed(index, map, ring, p)
                           : an_ring_winding(map, ring, p);
}

static bool obstacle_blocks(blocked_oracle *oracle, const arcnav_map *map, uint32_t o, vec2 p) {
  const an_obstacle *ob = &map->obstacles[o];
  if (ob->kind == AN_OBSTACLE_CIRCLE) {
    double r = an_navmesh_circle_corner_radius(ob->radius);
    return ob->radius > 0.0 && fabs(p.x - ob->center.x) <= r && fabs(p.y - ob->center.y) <= r &&
           inside_circle_polygon(ob, p);
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

/// Collect the constraint points and segments of the map. Counts first (points == NULL).
static void collect_input(const arcnav_map *map, vec2 *points, uint32_t *segments,
                          uint32_t *point_group, uint32_t *segment_group, size_t *np, size_t *ns) {
  size_t n = 0, s = 0;
  for (size_t o = 0; o < map->obstacle_count; ++o) {
    const an_obstacle *ob = &map->obstacles[o];
    if (ob->kind == AN_OBSTACLE_CIRCLE) {
      if (ob->radius <= 0.0) {
        continue;
      }
      for (int k = 0; k < AN_NAVMESH_CIRCLE_SIDES; ++k) {
        if (points) {
          point_group[n + (size_t)k] = segment_group[s + (size_t)k] = (uint32_t)o;
          points[n + (size_t)k] = an_circle_polygon_vertex(ob->center, ob->radius, k);
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
          point_group[n + i] = segment_group[s + i] = (uint32_t)o;
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
        point_group[n + i] = segment_group[s + i] = (uint32_t)map->obstacle_count;
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

// --- Pinches ---------------------------------------------------------------------------------
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

static void add_connectors(an_navmesh *mesh, size_t *next, int32_t v, int32_t a_tri, int a_k,
                           int32_t b_tri, int b_k) {
  const an_cdt_tri *ta = &mesh->cdt.tris[a_tri], *tb = &mesh->cdt.tris[b_tri];
  int32_t p = ta->v[(a_k + 2) % 3]; // fan A closes with its edge k + 1, from p to v
  int32_t q = tb->v[(b_k + 1) % 3]; // fan B opens with its edge k + 2, from v to q
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
  mesh->fn[3 * (size_t)fa + (size_t)(a_k + 1) % 3] = (int32_t)ca;
  mesh->fn[3 * (size_t)fb + (size_t)(b_k + 2) % 3] = (int32_t)cb;
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
    int32_t u = tri->n[(k + 1) % 3];
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

/// A fan's connector sits on the blocked edge that closes or opens it at the pinch; an edge
/// joining two pinch vertices would be wanted by both, so it is split in the middle first (a
/// rounded midpoint moves the obstacle's boundary by rounding only).
static arcnav_status split_pinch_edges(an_navmesh *mesh, const int32_t *pinches, size_t count,
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
      int e = (k + 2) % 3; // the edge from v to the next vertex
      int32_t w = tri->v[(k + 1) % 3], u = tri->n[e];
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
      t = tri->n[(k + 1) % 3];
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

/// The vertices with two fans or more (*list NULL when there are none).
static arcnav_status find_pinches(const an_navmesh *mesh, int32_t **list, size_t *count) {
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

/// Count the connector pairs at the pinch vertices (next == NULL), or add them from index *next
/// on.
static size_t link_pinches(an_navmesh *mesh, const int32_t *pinches, size_t count, size_t *next) {
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
      int32_t u = tri->n[(k + 1) % 3];
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

  size_t nf = 0;
  for (size_t t = 0; t < nt; ++t) {
    if (mesh->free_of[t] >= 0) {
      mesh->free_of[t] = (int32_t)nf++;
    }
  }
  *out_free = nf;
  return ARCNAV_OK;
}

/// Label the faces (see label_faces()), give every pinch vertex's fans edges of their own, and
/// build the free triangles' arrays with the connectors at pinches.
static arcnav_status classify(an_navmesh *mesh, const arcnav_map *map, bool open_pinches) {
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
    st = find_pinches(mesh, &pinch_list, &pinch_count);
  }
  bool split = false;
  if (st == ARCNAV_OK) {
    st = split_pinch_edges(mesh, pinch_list, pinch_count, &split);
  }
  if (st == ARCNAV_OK && split) {
    an_free(&mesh->alloc, mesh->free_of);
    an_free(&mesh->alloc, pinch_list);
    mesh->free_of = NULL;
    pinch_list = NULL;
    st = label_faces(mesh, map, &oracle, &nf);
    if (st == ARCNAV_OK) {
      st = find_pinches(mesh, &pinch_list, &pinch_count);
    }
  }
  blocked_oracle_free(&oracle, map, &mesh->alloc);
  if (st != ARCNAV_OK) {
    an_free(&mesh->alloc, pinch_list);
    return st;
  }
  size_t nt = cdt->tri_count;
  size_t pinches = link_pinches(mesh, pinch_list, pinch_count, NULL);
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
  link_pinches(mesh, pinch_list, pinch_count, &nf);
  an_free(&mesh->alloc, pinch_list);
  return ARCNAV_OK;
}

static arcnav_status build_grid(an_navmesh *mesh) {
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

// --- Vouching for obstacles ----------------------------------------------------------------
//
// The triangulation tests every pair of segments from overlapping obstacles for crossings, and
// every pair inside an obstacle unless told the obstacle is clean (its rings neither cross nor
// touch). Obstacles added through the public API were validated so; an eroded map's grown rings
// were not and may cross themselves. Large obstacles are therefore checked here by the map's own
// validation (an O(n log n) sweep); small ones are cheaper to test pair by pair.

#define CLEAN_CHECK_MIN_VERTICES 256

static arcnav_status polygon_is_clean(const arcnav_map *map, const an_obstacle *ob,
                                      const an_allocator *alloc, bool *clean) {
  *clean = false;
  size_t total = 0;
  for (uint32_t r = 0; r < ob->ring_count; ++r) {
    total += map->rings[ob->first_ring + r].count;
  }
  arcnav_vec2 *pts = an_alloc(alloc, total, sizeof *pts);
  const arcnav_vec2 **holes = an_alloc(alloc, ob->ring_count, sizeof *holes);
  size_t *hole_counts = an_alloc(alloc, ob->ring_count, sizeof *hole_counts);
  arcnav_map *scratch = NULL;
  arcnav_status st = pts && holes && hole_counts ? arcnav_map_create(&alloc->hooks, &scratch)
                                                 : ARCNAV_ERR_OUT_OF_MEMORY;
  if (st == ARCNAV_OK) {
    size_t at = 0;
    for (uint32_t r = 0; r < ob->ring_count; ++r) {
      const an_ring *ring = &map->rings[ob->first_ring + r];
      for (size_t i = 0; i < ring->count; ++i) {
        pts[at + i] = an_ring_vertex(map, ring, i);
      }
      if (r > 0) {
        holes[r - 1] = pts + at;
        hole_counts[r - 1] = ring->count;
      }
      at += ring->count;
    }
    st = arcnav_map_add_polygon(scratch, pts, map->rings[ob->first_ring].count, holes, hole_counts,
                                ob->ring_count - 1, NULL);
    *clean = st == ARCNAV_OK;
    if (st != ARCNAV_ERR_OUT_OF_MEMORY) {
      st = ARCNAV_OK; // refused: not clean, tested pair by pair
    }
  }
  arcnav_map_destroy(scratch);
  an_free(alloc, pts);
  an_free(alloc, holes);
  an_free(alloc, hole_counts);
  return st;
}

static arcnav_status bounds_are_clean(const arcnav_map *map, const an_allocator *alloc,
                                      bool *clean) {
  *clean = false;
  arcnav_map *scratch = NULL;
  arcnav_status st = arcnav_map_create(&alloc->hooks, &scratch);
  if (st == ARCNAV_OK) {
    st = arcnav_map_set_bounds(scratch, map->bounds_points, map->bounds.count, NULL);
    *clean = st == ARCNAV_OK;
    if (st != ARCNAV_ERR_OUT_OF_MEMORY) {
      st = ARCNAV_OK;
    }
  }
  arcnav_map_destroy(scratch);
  return st;
}

static arcnav_status find_clean_groups(const arcnav_map *map, const an_allocator *alloc,
                                       uint8_t *clean) {
  for (size_t o = 0; o < map->obstacle_count; ++o) {
    const an_obstacle *ob = &map->obstacles[o];
    clean[o] = 0;
    if (ob->kind != AN_OBSTACLE_POLYGON) {
      continue;
    }
    size_t total = 0;
    for (uint32_t r = 0; r < ob->ring_count; ++r) {
      total += map->rings[ob->first_ring + r].count;
    }
    if (total < CLEAN_CHECK_MIN_VERTICES) {
      continue;
    }
    bool ok;
    arcnav_status st = polygon_is_clean(map, ob, alloc, &ok);
    if (st != ARCNAV_OK) {
      return st;
    }
    clean[o] = ok;
  }
  clean[map->obstacle_count] = 0;
  if (map->has_bounds && map->bounds.count >= CLEAN_CHECK_MIN_VERTICES) {
    bool ok;
    arcnav_status st = bounds_are_clean(map, alloc, &ok);
    if (st != ARCNAV_OK) {
      return st;
    }
    clean[map->obstacle_count] = ok;
  }
  return ARCNAV_OK;
}

// --- Heavy overlap -------------------------------------------------------------------------
//
// Obstacles stacked on one spot cross each other quadratically often (1000 turned squares:
// millions of crossings), though the free space only sees the boundary of their union. Past a
// crossing budget the triangulation is built one obstacle at a time instead: the pieces of an
// obstacle's edges that earlier obstacles cover are walked past rather than inserted, and after
// it is in, the constraint edges it covers stop being constraints, so later obstacles flip
// through them instead of splitting them. The faces are still classified against the whole map
// afterwards; dropping a constraint only merges two blocked faces. Coverage is tested with a
// margin far above rounding, so a doubtful piece keeps its constraint, which is always safe.

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

static arcnav_status build_by_union(an_navmesh *mesh, const arcnav_map *map, vec2 lo, vec2 hi,
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

/// Points and segments (pairs of point indices) with their groups, as the triangulation takes
/// them.
typedef struct mesh_input {
  vec2 *points;
  uint32_t *segments, *point_group, *segment_group;
  size_t np, ns;
  size_t points_capacity, point_groups_capacity, segments_capacity, segment_groups_capacity;
} mesh_input;

static void mesh_input_free(mesh_input *in, const an_allocator *alloc) {
  an_free(alloc, in->points);
  an_free(alloc, in->segments);
  an_free(alloc, in->point_group);
  an_free(alloc, in->segment_group);
  memset(in, 0, sizeof *in);
}

static bool push_point(mesh_input *out, vec2 p, uint32_t group, const an_allocator *alloc,
                       uint32_t *index) {
  if (!an_reserve(alloc, (void **)&out->points, &out->points_capacity, out->np, out->np + 1,
                  sizeof *out->points) ||
      !an_reserve(alloc, (void **)&out->point_group, &out->point_groups_capacity, out->np,
                  out->np + 1, sizeof *out->point_group)) {
    return false;
  }
  out->points[out->np] = p;
  out->point_group[out->np] = group;
  *index = (uint32_t)out->np++;
  return true;
}

static bool push_segment(mesh_input *out, uint32_t a, uint32_t b, uint32_t group,
                         const an_allocator *alloc) {
  if (!an_reserve(alloc, (void **)&out->segments, &out->segments_capacity, 2 * out->ns,
                  2 * out->ns + 2, sizeof *out->segments) ||
      !an_reserve(alloc, (void **)&out->segment_group, &out->segment_groups_capacity, out->ns,
                  out->ns + 1, sizeof *out->segment_group)) {
    return false;
  }
  out->segments[2 * out->ns] = a;
  out->segments[2 * out->ns + 1] = b;
  out->segment_group[out->ns++] = group;
  return true;
}

/// The output index of a piece's end p: at input point `old` it keeps one index however many
/// pieces end there; a cut makes a point of its own.
static bool piece_end(mesh_input *out, uint32_t *renumbered, uint32_t old, bool at_input_point,
                      vec2 p, uint32_t group, const an_allocator *alloc, uint32_t *index) {
  if (at_input_point && renumbered[old] != UINT32_MAX) {
    *index = renumbered[old];
    return true;
  }
  if (!push_point(out, p, group, alloc, index)) {
    return false;
  }
  if (at_input_point) {
    renumbered[old] = *index;
  }
  return true;
}

/// The kept pieces of every segment of `in`, as new lists in `out` (points only where a kept piece
/// ends). A group whose segments were cut loses its clean promise.
static arcnav_status trim_input(const mesh_input *in, an_navmesh_trim_fn trim, void *context,
                                uint8_t *clean, const an_allocator *alloc, mesh_input *out) {
  memset(out, 0, sizeof *out);
  uint32_t *renumbered = an_alloc(alloc, in->np + 1, sizeof *renumbered);
  if (!renumbered) {
    return ARCNAV_ERR_OUT_OF_MEMORY;
  }
  for (size_t i = 0; i < in->np; ++i) {
    renumbered[i] = UINT32_MAX;
  }
  bool ok = true;
  for (size_t k = 0; k < in->ns && ok; ++k) {
    uint32_t ia = in->segments[2 * k], ib = in->segments[2 * k + 1];
    uint32_t group = in->segment_group[k];
    vec2 a = in->points[ia], b = in->points[ib];
    const double *kept = NULL;
    size_t pieces = trim(context, a, b, &kept);
    ok = pieces != SIZE_MAX;
    if (ok && (pieces != 1 || kept[0] != 0.0 || kept[1] != 1.0)) {
      clean[group] = 0;
    }
    for (size_t i = 0; ok && i < pieces; ++i) {
      double t0 = kept[2 * i], t1 = kept[2 * i + 1];
      uint32_t pa, pb;
      vec2 start = t0 == 0.0 ? a : v2_lerp(a, b, t0), end = t1 == 1.0 ? b : v2_lerp(a, b, t1);
      ok = piece_end(out, renumbered, ia, t0 == 0.0, start, group, alloc, &pa) &&
           piece_end(out, renumbered, ib, t1 == 1.0, end, group, alloc, &pb) &&
           (pa == pb || push_segment(out, pa, pb, group, alloc));
    }
  }
  an_free(alloc, renumbered);
  if (!ok) {
    mesh_input_free(out, alloc);
    return ARCNAV_ERR_OUT_OF_MEMORY;
  }
  return ARCNAV_OK;
}

arcnav_status an_navmesh_build(const arcnav_map *map, const an_allocator *alloc, an_navmesh **out) {
  an_navmesh_options options = {.crossing_limit = AN_NAVMESH_DEFAULT_LIMIT};
  return an_navmesh_build_ex(map, alloc, &options, out);
}

arcnav_status an_navmesh_build_with(const arcnav_map *map, const an_allocator *alloc,
                                    size_t crossing_limit, an_navmesh **out) {
  an_navmesh_options options = {.crossing_limit = crossing_limit};
  return an_navmesh_build_ex(map, alloc, &options, out);
}

arcnav_status an_navmesh_build_trimmed(const arcnav_map *map, const an_allocator *alloc,
                                       an_navmesh_trim_fn trim, void *trim_context,
                                       an_navmesh **out) {
  an_navmesh_options options = {.crossing_limit = AN_NAVMESH_DEFAULT_LIMIT,
                                .trim = trim,
                                .trim_context = trim_context,
                                .open_pinches = true};
  return an_navmesh_build_ex(map, alloc, &options, out);
}

/// The free triangle on each edge of the box (an edge from corner e to corner e + 1 is never
/// split: every constraint point lies strictly inside), for the fans an_funnel adds beyond it.
static void find_box_edges(an_navmesh *mesh) {
  const an_cdt *cdt = &mesh->cdt;
  for (int e = 0; e < 4; ++e) {
    mesh->box_tri[e] = -1;
    mesh->box_edge[e] = 0;
  }
  for (size_t t = 0; t < cdt->tri_count; ++t) {
    const an_cdt_tri *tri = &cdt->tris[t];
    for (int k = 0; k < 3; ++k) {
      int32_t a = tri->v[(k + 1) % 3], b = tri->v[(k + 2) % 3];
      if (tri->n[k] < 0 && a < 4 && b == (a + 1) % 4) {
        mesh->box_tri[a] = mesh->free_of[t];
        mesh->box_edge[a] = (int8_t)k;
      }
    }
  }
}

arcnav_status an_navmesh_build_ex(const arcnav_map *map, const an_allocator *alloc,
                                  const an_navmesh_options *how, an_navmesh **out) {
  if (!map || !alloc || !how || !out) {
    return ARCNAV_ERR_INVALID_ARGUMENT;
  }
  size_t crossing_limit = how->crossing_limit;
  an_navmesh_trim_fn trim = how->trim;
  void *trim_context = how->trim_context;
  size_t np, ns;
  collect_input(map, NULL, NULL, NULL, NULL, &np, &ns);
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
  size_t group_count = map->obstacle_count + 1;
  mesh_input in = {
      .points = np ? an_alloc(alloc, np, sizeof *in.points) : NULL,
      .segments = ns ? an_alloc(alloc, 2 * ns, sizeof *in.segments) : NULL,
      .point_group = np ? an_alloc(alloc, np, sizeof *in.point_group) : NULL,
      .segment_group = ns ? an_alloc(alloc, ns, sizeof *in.segment_group) : NULL,
      .points_capacity = np,
      .point_groups_capacity = np,
      .segments_capacity = 2 * ns,
      .segment_groups_capacity = ns,
  };
  uint8_t *clean = an_alloc(alloc, group_count, sizeof *clean);
  arcnav_status st = ARCNAV_OK;
  if ((np && (!in.points || !in.point_group)) || (ns && (!in.segments || !in.segment_group)) ||
      !clean) {
    st = ARCNAV_ERR_OUT_OF_MEMORY;
  }
  if (st == ARCNAV_OK) {
    collect_input(map, in.points, in.segments, in.point_group, in.segment_group, &in.np, &in.ns);
    st = find_clean_groups(map, alloc, clean);
  }
  if (st == ARCNAV_OK && trim) {
    mesh_input kept;
    st = trim_input(&in, trim, trim_context, clean, alloc, &kept);
    if (st == ARCNAV_OK) {
      mesh_input_free(&in, alloc);
      in = kept;
    }
  }
  vec2 lo = v2(-1.0, -1.0), hi = v2(1.0, 1.0);
  if (st == ARCNAV_OK) {
    // The map's own extent counts point obstacles (circles of radius 0), which add no vertices.
    bool has_extent = arcnav_map_extent(map, &lo, &hi);
    for (size_t i = 0; i < in.np; ++i) {
      if (i == 0 && !has_extent) {
        lo = hi = in.points[0];
      }
      lo = v2(an_min(lo.x, in.points[i].x), an_min(lo.y, in.points[i].y));
      hi = v2(an_max(hi.x, in.points[i].x), an_max(hi.y, in.points[i].y));
    }
    double margin = 0.1 * an_max(hi.x - lo.x, hi.y - lo.y) + 1.0;
    lo = v2(lo.x - margin, lo.y - margin);
    hi = v2(hi.x + margin, hi.y + margin);
    // Ordinary maps cross a few times per segment at most; far more means heavy stacking.
    if (crossing_limit == AN_NAVMESH_DEFAULT_LIMIT) {
      crossing_limit = 32 * in.ns + 16384;
    }
    an_cdt_options options = {.point_group = in.point_group,
                              .segment_group = in.segment_group,
                              .group_clean = clean,
                              .group_count = group_count,
                              .crossing_limit = crossing_limit};
    st = an_cdt_build_ex(&mesh->cdt, alloc, lo, hi, in.points, in.np, in.segments, in.ns, &options,
                         NULL);
    if (st == ARCNAV_ERR_TOO_LARGE && options.over_limit) {
      st =
          build_by_union(mesh, map, lo, hi, in.points, in.np, in.segments, in.ns, in.segment_group);
      if (st == ARCNAV_ERR_INVALID_ARGUMENT) {
        // Rounded crossings the incremental build could not route: the full arrangement can.
        options.crossing_limit = 0;
        st = an_cdt_build_ex(&mesh->cdt, alloc, lo, hi, in.points, in.np, in.segments, in.ns,
                             &options, NULL);
      }
    }
  }
  mesh_input_free(&in, alloc);
  an_free(alloc, clean);
  if (st == ARCNAV_OK) {
    st = classify(mesh, map, how->open_pinches);
  }
  if (st == ARCNAV_OK) {
    find_box_edges(mesh);
    mesh->whole_plane = !map->has_bounds;
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

int32_t an_navmesh_locate_cdt(const an_navmesh *mesh, vec2 p) {
  if (!v2_is_finite(p) || !mesh->grid) {
    return -1;
  }
  double fx = floor((p.x - mesh->grid_min.x) / mesh->cell_w);
  double fy = floor((p.y - mesh->grid_min.y) / mesh->cell_h);
  int32_t i = (int32_t)an_min(an_max(fx, 0.0), (double)(mesh->grid_w - 1));
  int32_t j = (int32_t)an_min(an_max(fy, 0.0), (double)(mesh->grid_h - 1));
  return an_cdt_locate(&mesh->cdt, p, mesh->grid[(size_t)j * (size_t)mesh->grid_w + (size_t)i]);
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
