// SPDX-License-Identifier: MIT
// The navmesh build pipeline: the public build entry points, which run the stages of
// navmesh_build.h in order and fill in the box edges for the funnel.
#include "mesh/navmesh_build.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

arcnav_status an_navmesh_build(const arcnav_map *map, const an_allocator *alloc, an_navmesh **out) {
  an_navmesh_options options = {.crossing_limit = AN_NAVMESH_DEFAULT_LIMIT, .passages = true};
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
void an_navmesh_find_box_edges(an_navmesh *mesh) {
  const an_cdt *cdt = &mesh->cdt;
  for (int32_t e = 0; e < 4; ++e) {
    int32_t t;
    int k = an_cdt_find_edge(cdt, e, (e + 1) % 4, &t);
    // The edge has one triangle, on its inside: the box runs counter-clockwise.
    mesh->box_tri[e] = k >= 0 ? mesh->free_of[t] : -1;
    mesh->box_edge[e] = (int8_t)(k >= 0 ? k : 0);
  }
}

void an_navmesh_mark_triangle(const int32_t *fv, const int32_t *fn, size_t t, int32_t at,
                              uint8_t *corner, int32_t *dead_apex) {
  const int32_t *v = &fv[3 * t], *n = &fn[3 * t];
  int way_in = -1; // the last free neighbour's edge
  for (int k = 0; k < 3; ++k) {
    if (n[k] >= 0) {
      way_in = k;
      continue;
    }
    for (int end = 1; end <= 2; ++end) {
      int32_t w = v[end == 1 ? an_cdt_next3(k) : an_cdt_prev3(k)];
      if (at < 0 || w == at) {
        corner[w] = 1;
      }
    }
  }
  if (way_in < 0) {
    for (int k = 0; k < 3; ++k) {
      if (at < 0 || v[k] == at) {
        dead_apex[v[k]] = -2;
      }
    }
  } else if (an_navmesh_dead_end(fn, t) && (at < 0 || v[way_in] == at)) {
    int32_t *apex = &dead_apex[v[way_in]];
    *apex = *apex == -1 ? (int32_t)t : -2;
  }
}

arcnav_status an_navmesh_mark_corners(const int32_t *fv, const int32_t *fn, size_t free_count,
                                      size_t point_count, const an_allocator *alloc,
                                      uint8_t **out_corner, int32_t **out_dead_apex) {
  uint8_t *corner = an_calloc(alloc, point_count + 1, sizeof *corner);
  int32_t *dead_apex = an_alloc(alloc, point_count + 1, sizeof *dead_apex);
  if (!corner || !dead_apex) {
    an_free(alloc, corner);
    an_free(alloc, dead_apex);
    return ARCNAV_ERR_OUT_OF_MEMORY;
  }
  for (size_t v = 0; v < point_count; ++v) {
    dead_apex[v] = -1;
  }
  for (size_t t = 0; t < free_count; ++t) {
    an_navmesh_mark_triangle(fv, fn, t, -1, corner, dead_apex);
  }
  *out_corner = corner;
  *out_dead_apex = dead_apex;
  return ARCNAV_OK;
}

// Numbers the connected parts of the free mesh (docs/DESIGN.md, "A living map": no_path
// without a search), by a flood across fn from each triangle not yet numbered.
arcnav_status an_navmesh_label_components(const int32_t *fn, size_t n, const an_allocator *alloc,
                                          int32_t *component) {
  int32_t *queue = an_alloc(alloc, n > 0 ? n : 1, sizeof *queue);
  if (!queue) {
    return ARCNAV_ERR_OUT_OF_MEMORY;
  }
  for (size_t t = 0; t < n; ++t) {
    component[t] = -1;
  }
  int32_t parts = 0;
  for (size_t seed = 0; seed < n; ++seed) {
    if (component[seed] >= 0) {
      continue;
    }
    size_t head = 0, tail = 0;
    queue[tail++] = (int32_t)seed;
    component[seed] = parts;
    while (head < tail) {
      int32_t t = queue[head++];
      for (int i = 0; i < 3; ++i) {
        int32_t u = fn[3 * (size_t)t + (size_t)i];
        if (u >= 0 && component[u] < 0) {
          component[u] = parts;
          queue[tail++] = u;
        }
      }
    }
    parts++;
  }
  an_free(alloc, queue);
  return ARCNAV_OK;
}

// The material the two free triangles beside a portal show: their vertices but the box's corners
// (which are no material), and their edges with no free triangle beyond (an obstacle's boundary)
// between such vertices. Every point's distance to any of it bounds the point's clearance.
typedef struct portal_material {
  vec2 points[6];
  vec2 edges[6][2];
  int point_count, edge_count;
} portal_material;

static void add_triangle_material(const an_navmesh *mesh, int32_t t, portal_material *m) {
  const int32_t *v = &mesh->fv[3 * (size_t)t];
  for (int k = 0; k < 3; ++k) {
    if (v[k] >= 4) {
      m->points[m->point_count++] = mesh->cdt.points[v[k]];
    }
    int32_t a = v[an_cdt_next3(k)], b = v[an_cdt_prev3(k)];
    if (mesh->fn[3 * (size_t)t + (size_t)k] < 0 && a >= 4 && b >= 4) {
      m->edges[m->edge_count][0] = mesh->cdt.points[a];
      m->edges[m->edge_count++][1] = mesh->cdt.points[b];
    }
  }
}

// One square root a sample (an_point_segment_dist2).
static double material_distance(const portal_material *m, vec2 p) {
  double nearest2 = INFINITY;
  for (int k = 0; k < m->point_count; ++k) {
    nearest2 = an_min(nearest2, v2_dist2(p, m->points[k]));
  }
  for (int k = 0; k < m->edge_count; ++k) {
    nearest2 = an_min(nearest2, an_point_segment_dist2(p, m->edges[k][0], m->edges[k][1]));
  }
  return sqrt(nearest2);
}

enum { PORTAL_SAMPLES = 8 };

double an_navmesh_portal_width(const an_navmesh *mesh, int32_t t, int i) {
  int32_t u = mesh->fn[3 * (size_t)t + (size_t)i];
  if (u >= 0 && u < t) {
    // From the lower-numbered side, so that both sides give the same number (the samples would
    // otherwise run the other way, and may round otherwise).
    i = an_navmesh_edge_across(mesh->fn, (size_t)u, t);
    t = u;
    u = mesh->fn[3 * (size_t)t + (size_t)i];
  }
  int32_t va = mesh->fv[3 * (size_t)t + (size_t)an_cdt_next3(i)],
          vb = mesh->fv[3 * (size_t)t + (size_t)an_cdt_prev3(i)];
  vec2 a = mesh->cdt.points[va], b = mesh->cdt.points[vb];
  // The ends alone: a point of the portal is at most min(|pa|, |pb|) from them.
  double length = v2_dist(a, b);
  double width = va < 4 && vb < 4 ? INFINITY : (va < 4 || vb < 4 ? 2.0 * length : length);
  if (u < 0) {
    return width;
  }
  portal_material m = {.point_count = 0, .edge_count = 0};
  add_triangle_material(mesh, t, &m);
  add_triangle_material(mesh, u, &m);
  if (m.point_count == 0 && m.edge_count == 0) {
    return width;
  }
  // The distance to the material is 1-Lipschitz: between two samples h apart it stays below the
  // mean of theirs plus h / 2.
  double step = length / PORTAL_SAMPLES, sampled = 0.0;
  double before = material_distance(&m, a);
  for (int k = 1; k <= PORTAL_SAMPLES; ++k) {
    double here = material_distance(&m, v2_lerp(a, b, (double)k / PORTAL_SAMPLES));
    sampled = an_max(sampled, before + here + step);
    before = here;
  }
  return an_min(width, sampled);
}

// The width a mesh stores for the portal across edge i of free triangle t: NaN where no free
// triangle lies across, else an_navmesh_portal_width() rounded up to a float.
static float stored_portal_width(const an_navmesh *mesh, size_t t, int i) {
  return mesh->fn[3 * t + (size_t)i] < 0
             ? NAN
             : an_float_at_least(an_navmesh_portal_width(mesh, (int32_t)t, i));
}

// Measures the portal across edge i of free triangle t once, for both its sides (the same width
// from either: an_navmesh_portal_width()), and keeps *narrowest no wider.
static void measure_portal(const an_navmesh *mesh, size_t t, int i, float *width,
                           float *narrowest) {
  float w = stored_portal_width(mesh, t, i);
  *narrowest = fminf(*narrowest, w); // NaN, no portal, leaves it
  width[3 * t + (size_t)i] = w;
  int32_t u = mesh->fn[3 * t + (size_t)i];
  if (u >= 0) {
    width[3 * (size_t)u + (size_t)an_navmesh_edge_across(mesh->fn, (size_t)u, (int32_t)t)] = w;
  }
}

// Does the edge i of free triangle t lie on the box of a map without bounds, where the plane
// beyond is free (the passages' node free_count)?
static bool opens_beyond_box(const an_navmesh *mesh, size_t t, int i) {
  return mesh->fn[3 * t + (size_t)i] < 0 && mesh->whole_plane &&
         mesh->fv[3 * t + (size_t)an_cdt_next3(i)] < 4 &&
         mesh->fv[3 * t + (size_t)an_cdt_prev3(i)] < 4;
}

// The portals of block `block` of the passages' forest (docs/DESIGN.md, "The widest passages in
// blocks"), each as wide as the lower-numbered of its triangles measured it, and set there; the
// links to other blocks given to both ends' blocks. `inner` and `cross` hold 3 links a triangle
// of a block each.
static arcnav_status set_passage_block(an_navmesh *mesh, const float *width, size_t block,
                                       an_widest_link *inner, an_cross_link *cross) {
  size_t inner_count = 0, cross_count = 0;
  if (block == 0) {
    // The plane beyond the box, linked to the triangle on each edge of the box.
    for (int e = 0; e < 4 && mesh->whole_plane; ++e) {
      int32_t t = mesh->box_tri[e];
      if (t >= 0 && opens_beyond_box(mesh, (size_t)t, mesh->box_edge[e])) {
        cross[cross_count++] = (an_cross_link){INFINITY, 0, an_navmesh_passage_node(mesh, t)};
      }
    }
    return an_blocked_forest_set_block(&mesh->passages, 0, 1, inner, 0, cross, cross_count,
                                       &mesh->alloc);
  }
  size_t first, end;
  an_navmesh_block_triangles(mesh, block - 1, &first, &end);
  for (size_t t = first; t < end; ++t) {
    uint32_t here = (uint32_t)(t - first);
    for (int i = 0; i < 3; ++i) {
      int32_t u = mesh->fn[3 * t + (size_t)i];
      if (u < 0) {
        if (opens_beyond_box(mesh, t, i)) {
          cross[cross_count++] = (an_cross_link){INFINITY, here, {0, 0}};
        }
        continue;
      }
      float w = an_navmesh_link_width(mesh->fn, width, t, i);
      an_forest_ref other = an_navmesh_passage_node(mesh, u);
      if (other.block != block) {
        cross[cross_count++] = (an_cross_link){w, here, other};
      } else if (u > (int32_t)t) {
        inner[inner_count++] = (an_widest_link){w, (int32_t)here, (int32_t)other.index};
      }
    }
  }
  return an_blocked_forest_set_block(&mesh->passages, block, (uint32_t)(end - first), inner,
                                     inner_count, cross, cross_count, &mesh->alloc);
}

// Marks the passages' blocks of free triangle t and of its neighbours.
static void mark_around(const an_navmesh *mesh, size_t t, uint8_t *changed) {
  changed[an_navmesh_passage_node(mesh, (int32_t)t).block] = 1;
  for (int i = 0; i < 3; ++i) {
    int32_t u = mesh->fn[3 * t + (size_t)i];
    if (u >= 0) {
      changed[an_navmesh_passage_node(mesh, u).block] = 1;
    }
  }
}

// Which blocks of the passages' forest a build after a local change makes again: those holding a
// triangle the change renewed or a neighbour of one, or numbers the old mesh had not, or had
// more of; the block beyond the box always (one node). NULL when out of memory.
static uint8_t *changed_passage_blocks(const an_navmesh *mesh, const an_navmesh *before,
                                       size_t blocks) {
  uint8_t *changed = an_calloc(&mesh->alloc, blocks, sizeof *changed);
  if (!changed) {
    return NULL;
  }
  changed[0] = 1;
  size_t n = mesh->free_count, kept_below = an_min(before->free_count, n);
  for (size_t b = 1 + an_navmesh_block_of(mesh, kept_below); n != before->free_count && b < blocks;
       ++b) {
    changed[b] = 1;
  }
  for (size_t k = 0; k < mesh->renewed_count; ++k) {
    if ((size_t)mesh->renewed[k] < n) {
      mark_around(mesh, (size_t)mesh->renewed[k], changed);
    }
  }
  for (size_t t = kept_below; t < n; ++t) {
    mark_around(mesh, t, changed);
  }
  return changed;
}

// The blocks of a mesh of `count` free triangles: as large as balances the two parts of a local
// change's work on the forests, the changed blocks (a few, each as large as a block) and the forest
// over every block's boundary nodes (about 2 count / sqrt(block) of them, the blocks being compact
// patches): a block of about (count / 3)^(2/3), the nearest power of two from 32 to 4,096
// (docs/DESIGN.md, "The widest passages in blocks").
static uint8_t block_shift_for(size_t count) {
  uint8_t shift = 5;
  double third = (double)count / 3.0;
  // Up while 2^(3/2 shift) lies below the target by more than half a step of the powers' logs.
  while (shift < 12 && ldexp(sqrt(8.0), 3 * shift) < third * third) {
    ++shift;
  }
  return shift;
}

// The forest of the widest passages (an_navmesh_passage_width; docs/DESIGN.md, "No path for a
// disk without a search"): each portal as wide as twice a bound on its points' clearance.
arcnav_status an_navmesh_build_passages(an_navmesh *mesh, const an_navmesh *before) {
  size_t n = mesh->free_count;
  bool carry = before && before->portal_width && mesh->cloned_from == before &&
               before->block_shift == mesh->block_shift;
  size_t block = (size_t)1 << mesh->block_shift, blocks = 1 + an_navmesh_block_count(mesh);
  float *width = an_alloc(&mesh->alloc, 3 * n + 1, sizeof *width);
  an_widest_link *inner = an_alloc(&mesh->alloc, 3 * block, sizeof *inner);
  an_cross_link *cross = an_alloc(&mesh->alloc, 3 * block, sizeof *cross);
  uint8_t *changed = carry ? changed_passage_blocks(mesh, before, blocks) : NULL;
  arcnav_status status = width && inner && cross && (changed || !carry)
                             ? an_blocked_forest_begin(blocks, carry ? &before->passages : NULL,
                                                       changed, &mesh->alloc, &mesh->passages)
                             : ARCNAV_ERR_OUT_OF_MEMORY;
  if (status == ARCNAV_OK) {
    // A portal's width depends on its two triangles alone. After a local change the widths are
    // copied whole, and the triangles the change renewed (an_navmesh.renewed, and the numbers the
    // old mesh had none of) measure theirs, with their neighbours' portals facing them: what is
    // left lies between two triangles the change kept.
    size_t kept_below = carry ? (before->free_count < n ? before->free_count : n) : 0;
    if (kept_below > 0) {
      memcpy(width, before->portal_width, 3 * kept_below * sizeof *width);
    }
    // The copied widths' least is not looked for: the mesh before's stands for it.
    mesh->narrowest_portal = carry ? before->narrowest_portal : INFINITY;
    // Each portal once: from the lower-numbered of two triangles measured here, and from the one
    // measured here beside a triangle whose portals were copied.
    for (size_t t = kept_below; t < n; ++t) {
      for (int i = 0; i < 3; ++i) {
        int32_t u = mesh->fn[3 * t + (size_t)i];
        if (u < 0 || (size_t)u > t || (size_t)u < kept_below) {
          measure_portal(mesh, t, i, width, &mesh->narrowest_portal);
        }
      }
    }
    for (size_t k = 0; carry && k < mesh->renewed_count; ++k) {
      size_t t = (size_t)mesh->renewed[k];
      for (int i = 0; t < kept_below && i < 3; ++i) {
        measure_portal(mesh, t, i, width, &mesh->narrowest_portal);
      }
    }
    // The change's blocks were left empty by the begin: `changed` marks what it did not keep.
    for (size_t b = 0; status == ARCNAV_OK && b < blocks; ++b) {
      if (!changed || changed[b]) {
        status = set_passage_block(mesh, width, b, inner, cross);
      }
    }
  }
  if (status == ARCNAV_OK) {
    status = an_blocked_forest_finish(&mesh->passages, &mesh->alloc);
  }
  an_free(&mesh->alloc, inner);
  an_free(&mesh->alloc, cross);
  an_free(&mesh->alloc, changed);
  if (status == ARCNAV_OK) {
    mesh->portal_width = width;
  } else {
    an_free(&mesh->alloc, width);
    an_blocked_forest_destroy(&mesh->passages, &mesh->alloc);
  }
  return status;
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
  an_navmesh_collect_input(map, NULL, NULL, NULL, NULL, &np, &ns);
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
  an_navmesh_input in = {
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
    an_navmesh_collect_input(map, in.points, in.segments, in.point_group, in.segment_group, &in.np,
                             &in.ns);
    st = an_navmesh_find_clean_groups(map, alloc, clean);
  }
  if (st == ARCNAV_OK && !how->open_pinches) {
    // A point agent's pinch is a vertex the obstacles share; at R > 0 the eroded mesh keeps
    // grown obstacles as they are (a gap there is open).
    st = an_navmesh_snap_close_points(&in, mesh->eps, alloc);
    an_navmesh_input split;
    if (st == ARCNAV_OK) {
      st = an_navmesh_split_at_close_points(&in, mesh->eps, clean, alloc, &split);
    }
    if (st == ARCNAV_OK) {
      an_navmesh_input_free(&in, alloc);
      in = split;
    }
  }
  if (st == ARCNAV_OK && trim) {
    an_navmesh_input kept;
    st = an_navmesh_trim_input(&in, trim, trim_context, clean, alloc, &kept);
    if (st == ARCNAV_OK) {
      an_navmesh_input_free(&in, alloc);
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
    // A margin of at least a thousand tolerances: 1 alone vanishes beside far coordinates (a
    // lone point obstacle at 1e77 would leave a box of no height).
    double margin = 0.1 * an_max(hi.x - lo.x, hi.y - lo.y) + an_max(1.0, 1e3 * mesh->eps);
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
      st = an_navmesh_build_by_union(mesh, map, lo, hi, in.points, in.np, in.segments, in.ns,
                                     in.segment_group);
      if (st == ARCNAV_ERR_INVALID_ARGUMENT) {
        // Rounded crossings the incremental build could not route: the full arrangement can.
        options.crossing_limit = 0;
        st = an_cdt_build_ex(&mesh->cdt, alloc, lo, hi, in.points, in.np, in.segments, in.ns,
                             &options, NULL);
      }
    }
  }
  an_navmesh_input_free(&in, alloc);
  an_free(alloc, clean);
  if (st == ARCNAV_OK) {
    st = an_navmesh_classify(mesh, map, how->open_pinches);
  }
  if (st == ARCNAV_OK) {
    an_navmesh_find_box_edges(mesh);
    mesh->whole_plane = !map->has_bounds;
    size_t rows = mesh->free_count > 0 ? mesh->free_count : 1;
    mesh->component = an_alloc(&mesh->alloc, rows, sizeof *mesh->component);
    st = mesh->component ? an_navmesh_label_components(mesh->fn, mesh->free_count, &mesh->alloc,
                                                       mesh->component)
                         : ARCNAV_ERR_OUT_OF_MEMORY;
  }
  if (st == ARCNAV_OK) {
    st = an_navmesh_mark_corners(mesh->fv, mesh->fn, mesh->free_count, mesh->cdt.point_count,
                                 &mesh->alloc, &mesh->corner, &mesh->dead_apex);
  }
  if (st == ARCNAV_OK) {
    mesh->block_shift = block_shift_for(mesh->free_count);
  }
  if (st == ARCNAV_OK && how->passages) {
    st = an_navmesh_build_passages(mesh, NULL);
  }
  if (st == ARCNAV_OK) {
    st = an_navmesh_build_grid(mesh);
  }
  if (st == ARCNAV_OK) {
    // The mesh takes no more points: its arrays need hold no more than it has.
    st = an_cdt_shrink(&mesh->cdt);
  }
  if (st != ARCNAV_OK) {
    an_navmesh_destroy(mesh);
    return st;
  }
  *out = mesh;
  return ARCNAV_OK;
}
