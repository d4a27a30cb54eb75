// SPDX-License-Identifier: MIT
// The first stage of a navmesh build: the map's rings, circles as their polygons, as the
// triangulation's constraint points and segments, cut to the pieces a trim keeps.
#include "mesh/navmesh_build.h"

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
