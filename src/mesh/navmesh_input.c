// SPDX-License-Identifier: MIT
// The first stage of a navmesh build: the map's rings, circles as their polygons, as the
// triangulation's constraint points and segments, cut to the pieces a trim keeps.
#include "mesh/navmesh_build.h"

#include "index/cell_buckets.h"
#include "index/grid.h"
#include "map/circle_polygon.h"

#include <stdlib.h>
#include <string.h>

void an_navmesh_collect_input(const arcnav_map *map, vec2 *points, uint32_t *segments,
                              uint32_t *point_group, uint32_t *segment_group, size_t *np,
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

void an_navmesh_input_free(an_navmesh_input *in, const an_allocator *alloc) {
  an_free(alloc, in->points);
  an_free(alloc, in->segments);
  an_free(alloc, in->point_group);
  an_free(alloc, in->segment_group);
  memset(in, 0, sizeof *in);
}

static bool push_point(an_navmesh_input *out, vec2 p, uint32_t group, const an_allocator *alloc,
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

static bool push_segment(an_navmesh_input *out, uint32_t a, uint32_t b, uint32_t group,
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
static bool piece_end(an_navmesh_input *out, uint32_t *renumbered, uint32_t old,
                      bool at_input_point, vec2 p, uint32_t group, const an_allocator *alloc,
                      uint32_t *index) {
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

arcnav_status an_navmesh_trim_input(const an_navmesh_input *in, an_navmesh_trim_fn trim,
                                    void *context, uint8_t *clean, const an_allocator *alloc,
                                    an_navmesh_input *out) {
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
    an_navmesh_input_free(out, alloc);
    return ARCNAV_ERR_OUT_OF_MEMORY;
  }
  return ARCNAV_OK;
}

// The input's points in a grid fitted to them, each filed in every cell its box grown by eps
// overlaps: a point within eps of a place is filed in the cell holding that place.
typedef struct point_cells {
  an_grid grid; ///< cell geometry only
  an_cell_table cells;
  double eps;
} point_cells;

typedef struct grown_points {
  const an_navmesh_input *in;
  double eps;
} grown_points;

static void grown_box(const void *context, size_t index, vec2 *lo, vec2 *hi) {
  const grown_points *g = context;
  vec2 p = g->in->points[index];
  *lo = v2(p.x - g->eps, p.y - g->eps);
  *hi = v2(p.x + g->eps, p.y + g->eps);
}

static arcnav_status file_points(const an_navmesh_input *in, double eps, const an_allocator *alloc,
                                 point_cells *out) {
  vec2 lo = in->points[0], hi = lo;
  for (size_t i = 1; i < in->np; ++i) {
    lo = v2(an_min(lo.x, in->points[i].x), an_min(lo.y, in->points[i].y));
    hi = v2(an_max(hi.x, in->points[i].x), an_max(hi.y, in->points[i].y));
  }
  memset(out, 0, sizeof *out);
  out->eps = eps;
  an_grid_fit(&out->grid, v2(lo.x - eps, lo.y - eps), v2(hi.x + eps, hi.y + eps), in->np, 0.0);
  grown_points context = {in, eps};
  an_cell_buckets buckets;
  arcnav_status status =
      an_grid_bucket_boxes(&out->grid, in->np, grown_box, &context, alloc, &buckets);
  out->cells = buckets.table;
  return status;
}

arcnav_status an_navmesh_snap_close_points(an_navmesh_input *in, double eps,
                                           const an_allocator *alloc) {
  if (in->np < 2) {
    return ARCNAV_OK;
  }
  point_cells pc;
  arcnav_status status = file_points(in, eps, alloc, &pc);
  if (status != ARCNAV_OK) {
    return status;
  }
  // In input order, every later point of another obstacle within eps takes this one's place.
  for (size_t i = 0; i < in->np; ++i) {
    vec2 p = in->points[i];
    size_t cell = (size_t)an_grid_row(&pc.grid, p.y) * (size_t)pc.grid.columns +
                  (size_t)an_grid_column(&pc.grid, p.x);
    uint32_t count;
    const uint32_t *filed = an_cell_table_list(&pc.cells, cell, &count);
    for (uint32_t e = 0; e < count; ++e) {
      uint32_t j = filed[e];
      vec2 q = in->points[j];
      if (j > i && in->point_group[j] != in->point_group[i] && !v2_equal(p, q) &&
          v2_dist(p, q) <= eps) {
        in->points[j] = p;
      }
    }
  }
  an_cell_table_free(&pc.cells, alloc);
  return ARCNAV_OK;
}

typedef struct split_place {
  double t;
  uint32_t point;
} split_place;

static int compare_split_places(const void *lhs, const void *rhs) {
  const split_place *a = lhs, *b = rhs;
  return a->t < b->t ? -1 : a->t > b->t ? 1 : (a->point < b->point ? -1 : a->point > b->point);
}

// The points of other groups within eps of the inside of one segment, gathered cell by cell along
// it.
typedef struct close_points {
  const an_navmesh_input *in;
  const point_cells *pc;
  size_t segment;
  split_place *places;
  size_t count, capacity;
  const an_allocator *alloc;
  bool ok;
} close_points;

static bool gather_close_points(void *context, int32_t column, int32_t row) {
  close_points *c = context;
  const an_navmesh_input *in = c->in;
  double eps = c->pc->eps;
  uint32_t group = in->segment_group[c->segment];
  vec2 a = in->points[in->segments[2 * c->segment]];
  vec2 b = in->points[in->segments[2 * c->segment + 1]];
  vec2 along = v2_sub(b, a);
  size_t cell = (size_t)row * (size_t)c->pc->grid.columns + (size_t)column;
  uint32_t count;
  const uint32_t *filed = an_cell_table_list(&c->pc->cells, cell, &count);
  for (uint32_t e = 0; e < count; ++e) {
    uint32_t index = filed[e];
    vec2 p = in->points[index];
    if (in->point_group[index] == group || v2_dist(p, a) <= eps || v2_dist(p, b) <= eps ||
        an_point_segment_dist(p, a, b) > eps) {
      continue;
    }
    if (!an_reserve(c->alloc, (void **)&c->places, &c->capacity, c->count, c->count + 1,
                    sizeof *c->places)) {
      c->ok = false;
      return false;
    }
    c->places[c->count++] = (split_place){v2_dot(v2_sub(p, a), along) / v2_len2(along), index};
  }
  return true;
}

arcnav_status an_navmesh_split_at_close_points(const an_navmesh_input *in, double eps,
                                               uint8_t *clean, const an_allocator *alloc,
                                               an_navmesh_input *out) {
  memset(out, 0, sizeof *out);
  if (in->np == 0) {
    return ARCNAV_OK;
  }
  point_cells pc;
  arcnav_status status = file_points(in, eps, alloc, &pc);
  close_points c = {.in = in, .pc = &pc, .alloc = alloc, .ok = status == ARCNAV_OK};
  for (size_t i = 0; c.ok && i < in->np; ++i) {
    c.ok = push_point(out, in->points[i], in->point_group[i], alloc, &(uint32_t){0});
  }
  for (size_t k = 0; c.ok && k < in->ns; ++k) {
    uint32_t ia = in->segments[2 * k], ib = in->segments[2 * k + 1];
    uint32_t group = in->segment_group[k];
    c.segment = k;
    c.count = 0;
    if (!v2_equal(in->points[ia], in->points[ib])) {
      // A point filed in several cells the segment crosses is gathered once per cell.
      an_grid_walk_clipped(&pc.grid, in->points[ia], in->points[ib], gather_close_points, &c);
    }
    if (c.ok && c.count > 0) {
      clean[group] = 0;
      qsort(c.places, c.count, sizeof *c.places, compare_split_places);
    }
    uint32_t from = ia;
    for (size_t i = 0; c.ok && i < c.count; ++i) {
      if (c.places[i].point != from && !v2_equal(in->points[c.places[i].point], in->points[from])) {
        c.ok = push_segment(out, from, c.places[i].point, group, alloc);
        from = c.places[i].point;
      }
    }
    if (c.ok && from != ib) {
      c.ok = push_segment(out, from, ib, group, alloc);
    }
  }
  an_cell_table_free(&pc.cells, alloc);
  an_free(alloc, c.places);
  if (!c.ok) {
    an_navmesh_input_free(out, alloc);
    return ARCNAV_ERR_OUT_OF_MEMORY;
  }
  return ARCNAV_OK;
}
