// SPDX-License-Identifier: MIT
// The first stage of a navmesh build: the map's rings, circles as their polygons, as the
// triangulation's constraint points and segments, cut to the pieces a trim keeps.
#include "mesh/navmesh_build.h"

#include "index/cell_buckets.h"
#include "map/circle_polygon.h"

#include <math.h>
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

// A key whose unsigned order is the order of the doubles.
static uint64_t ordered_bits(double x) {
  uint64_t bits;
  memcpy(&bits, &x, sizeof bits);
  return (bits >> 63) ? ~bits : bits | (UINT64_C(1) << 63);
}

arcnav_status an_navmesh_snap_close_points(an_navmesh_input *in, double eps,
                                           const an_allocator *alloc) {
  if (in->np < 2) {
    return ARCNAV_OK;
  }
  an_order_key *by_x = an_alloc(alloc, in->np, sizeof *by_x);
  if (!by_x) {
    return ARCNAV_ERR_OUT_OF_MEMORY;
  }
  for (size_t i = 0; i < in->np; ++i) {
    by_x[i] = (an_order_key){ordered_bits(in->points[i].x), (uint32_t)i};
  }
  qsort(by_x, in->np, sizeof *by_x, an_compare_order_keys);
  for (size_t i = 0; i < in->np; ++i) {
    vec2 p = in->points[by_x[i].index];
    for (size_t j = i + 1; j < in->np && in->points[by_x[j].index].x - p.x <= eps; ++j) {
      uint32_t k = by_x[j].index;
      vec2 q = in->points[k];
      if (in->point_group[k] != in->point_group[by_x[i].index] && !v2_equal(p, q) &&
          v2_dist(p, q) <= eps) {
        in->points[k] = p;
      }
    }
  }
  an_free(alloc, by_x);
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

// The input's points filed in a grid of about one point per cell.
typedef struct point_grid {
  an_cell_buckets cells;
  vec2 lo;
  double cell;
  int32_t columns, rows;
} point_grid;

static int32_t grid_index(double value, double lo, double cell, int32_t count) {
  double k = floor((value - lo) / cell);
  return k < 0.0 ? 0 : k >= (double)count ? count - 1 : (int32_t)k;
}

static arcnav_status point_grid_build(point_grid *g, const an_navmesh_input *in,
                                      const an_allocator *alloc) {
  vec2 lo = in->points[0], hi = lo;
  for (size_t i = 1; i < in->np; ++i) {
    lo = v2(an_min(lo.x, in->points[i].x), an_min(lo.y, in->points[i].y));
    hi = v2(an_max(hi.x, in->points[i].x), an_max(hi.y, in->points[i].y));
  }
  double width = an_max(hi.x - lo.x, 1e-300), height = an_max(hi.y - lo.y, 1e-300);
  double side = sqrt(width * height / (double)in->np);
  side = an_max(side, an_max(width, height) / 4096.0);
  g->lo = lo;
  g->cell = side;
  g->columns = (int32_t)an_min(4096.0, floor(width / side) + 1.0);
  g->rows = (int32_t)an_min(4096.0, floor(height / side) + 1.0);
  arcnav_status status =
      an_cell_buckets_init(&g->cells, (size_t)g->columns * (size_t)g->rows, alloc);
  for (int pass = 0; pass < 2 && status == ARCNAV_OK; ++pass) {
    for (size_t i = 0; i < in->np; ++i) {
      size_t c = (size_t)grid_index(in->points[i].x, lo.x, side, g->columns);
      size_t r = (size_t)grid_index(in->points[i].y, lo.y, side, g->rows);
      an_cell_buckets_put(&g->cells, r * (size_t)g->columns + c, (uint32_t)i);
    }
    status = an_cell_buckets_end_pass(&g->cells, alloc);
  }
  return status;
}

// Adds to *places the points of other groups within eps of the inside of segment k.
static bool find_close_points(const point_grid *g, const an_navmesh_input *in, size_t k, double eps,
                              split_place **places, size_t *capacity, size_t *count,
                              const an_allocator *alloc) {
  uint32_t ia = in->segments[2 * k], ib = in->segments[2 * k + 1];
  uint32_t group = in->segment_group[k];
  vec2 a = in->points[ia], b = in->points[ib], along = v2_sub(b, a);
  double length2 = v2_len2(along);
  if (!(length2 > 0.0)) {
    return true;
  }
  int32_t c0 = grid_index(an_min(a.x, b.x) - eps, g->lo.x, g->cell, g->columns);
  int32_t c1 = grid_index(an_max(a.x, b.x) + eps, g->lo.x, g->cell, g->columns);
  for (int32_t c = c0; c <= c1; ++c) {
    // The rows the segment (grown by eps) crosses within this column's strip of x.
    double x0 = an_max(an_min(a.x, b.x), g->lo.x + c * g->cell - eps);
    double x1 = an_min(an_max(a.x, b.x), g->lo.x + (c + 1) * g->cell + eps);
    double y0 = an_min(a.y, b.y), y1 = an_max(a.y, b.y);
    if (a.x != b.x) {
      double ya = a.y + (x0 - a.x) * along.y / along.x, yb = a.y + (x1 - a.x) * along.y / along.x;
      y0 = an_max(y0, an_min(ya, yb));
      y1 = an_min(y1, an_max(ya, yb));
    }
    int32_t r0 = grid_index(y0 - eps, g->lo.y, g->cell, g->rows);
    int32_t r1 = grid_index(y1 + eps, g->lo.y, g->cell, g->rows);
    for (int32_t r = r0; r <= r1; ++r) {
      size_t cell = (size_t)r * (size_t)g->columns + (size_t)c;
      for (uint32_t e = g->cells.cell_start[cell]; e < g->cells.cell_start[cell + 1]; ++e) {
        uint32_t index = g->cells.items[e];
        vec2 p = in->points[index];
        if (in->point_group[index] == group || v2_dist(p, a) <= eps || v2_dist(p, b) <= eps ||
            an_point_segment_dist(p, a, b) > eps) {
          continue;
        }
        if (!an_reserve(alloc, (void **)places, capacity, *count, *count + 1, sizeof **places)) {
          return false;
        }
        (*places)[(*count)++] = (split_place){v2_dot(v2_sub(p, a), along) / length2, index};
      }
    }
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
  point_grid g;
  arcnav_status status = point_grid_build(&g, in, alloc);
  split_place *places = NULL;
  size_t places_capacity = 0;
  bool ok = status == ARCNAV_OK;
  for (size_t i = 0; ok && i < in->np; ++i) {
    ok = push_point(out, in->points[i], in->point_group[i], alloc, &(uint32_t){0});
  }
  for (size_t k = 0; ok && k < in->ns; ++k) {
    uint32_t ia = in->segments[2 * k], ib = in->segments[2 * k + 1];
    uint32_t group = in->segment_group[k];
    size_t count = 0;
    ok = find_close_points(&g, in, k, eps, &places, &places_capacity, &count, alloc);
    if (ok && count > 0) {
      clean[group] = 0;
      qsort(places, count, sizeof *places, compare_split_places);
    }
    uint32_t from = ia;
    for (size_t i = 0; ok && i < count; ++i) {
      if (places[i].point != from && !v2_equal(in->points[places[i].point], in->points[from])) {
        ok = push_segment(out, from, places[i].point, group, alloc);
        from = places[i].point;
      }
    }
    if (ok && from != ib) {
      ok = push_segment(out, from, ib, group, alloc);
    }
  }
  an_cell_buckets_free(&g.cells, alloc);
  an_free(alloc, places);
  if (!ok) {
    an_navmesh_input_free(out, alloc);
    return ARCNAV_ERR_OUT_OF_MEMORY;
  }
  return ARCNAV_OK;
}
