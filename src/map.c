// SPDX-License-Identifier: MIT
#include "map.h"

#include <stdlib.h>
#include <string.h>

// Relative width below which a ring counts as collinear: rounding in the cross products of
// collinear points is a few ulps of the extent, far below this.
#define ZERO_AREA_RELATIVE 1e-14

static void set_error(arcnav_error *error, arcnav_status status, int obstacle, int ring,
                      int vertex) {
  if (error) {
    error->status = status;
    error->obstacle = obstacle;
    error->ring = ring;
    error->vertex = vertex;
  }
}

arcnav_status arcnav_map_create(const arcnav_allocator *allocator, arcnav_map **out_map) {
  if (!out_map) {
    return ARCNAV_ERR_INVALID_ARGUMENT;
  }
  *out_map = NULL;
  an_allocator alloc = an_allocator_from(allocator);
  arcnav_map *map = an_calloc(&alloc, 1, sizeof *map);
  if (!map) {
    return ARCNAV_ERR_OUT_OF_MEMORY;
  }
  map->alloc = alloc;
  *out_map = map;
  return ARCNAV_OK;
}

void arcnav_map_destroy(arcnav_map *map) {
  if (!map) {
    return;
  }
  an_allocator alloc = map->alloc;
  an_free(&alloc, map->points);
  an_free(&alloc, map->rings);
  an_free(&alloc, map->obstacles);
  an_free(&alloc, map->bounds_points);
  an_free(&alloc, map);
}

size_t arcnav_map_obstacle_count(const arcnav_map *map) {
  return map ? map->obstacle_count : 0;
}

double an_ring_signed_area(const vec2 *points, size_t count) {
  // Shoelace relative to the first vertex keeps the terms small for maps far from the origin.
  double twice = 0.0;
  for (size_t i = 1; i + 1 < count; ++i) {
    twice += v2_cross(v2_sub(points[i], points[0]), v2_sub(points[i + 1], points[0]));
  }
  return 0.5 * twice;
}

// A ring cleaned of consecutive duplicates, remembering each kept vertex's index as given so that
// errors point at the caller's data.
typedef struct clean_ring {
  vec2 *points;
  int *source_index;
  size_t count;
} clean_ring;

static arcnav_status clean_ring_build(const an_allocator *alloc, const vec2 *input, size_t count,
                                      clean_ring *out, int *bad_vertex) {
  memset(out, 0, sizeof *out);
  *bad_vertex = -1;
  if (!input || count == 0) {
    return ARCNAV_ERR_TOO_FEW_VERTICES;
  }
  for (size_t i = 0; i < count; ++i) {
    if (!v2_is_finite(input[i])) {
      *bad_vertex = (int)i;
      return ARCNAV_ERR_NOT_FINITE;
    }
    if (!an_coordinate_in_range(input[i].x) || !an_coordinate_in_range(input[i].y)) {
      *bad_vertex = (int)i;
      return ARCNAV_ERR_TOO_LARGE;
    }
  }
  if (count > (size_t)INT32_MAX / 4) {
    return ARCNAV_ERR_TOO_LARGE;
  }
  out->points = an_alloc(alloc, count, sizeof *out->points);
  out->source_index = an_alloc(alloc, count, sizeof *out->source_index);
  if (!out->points || !out->source_index) {
    an_free(alloc, out->points);
    an_free(alloc, out->source_index);
    memset(out, 0, sizeof *out);
    return ARCNAV_ERR_OUT_OF_MEMORY;
  }
  size_t kept = 0;
  for (size_t i = 0; i < count; ++i) {
    if (kept > 0 && input[i].x == out->points[kept - 1].x &&
        input[i].y == out->points[kept - 1].y) {
      continue;
    }
    out->points[kept] = input[i];
    out->source_index[kept] = (int)i;
    ++kept;
  }
  while (kept > 1 && out->points[kept - 1].x == out->points[0].x &&
         out->points[kept - 1].y == out->points[0].y) {
    --kept;
  }
  out->count = kept;
  return ARCNAV_OK;
}

static void clean_ring_free(const an_allocator *alloc, clean_ring *ring) {
  an_free(alloc, ring->points);
  an_free(alloc, ring->source_index);
  memset(ring, 0, sizeof *ring);
}

static double ring_scale(const clean_ring *ring) {
  double min_x = ring->points[0].x, max_x = min_x, min_y = ring->points[0].y, max_y = min_y;
  for (size_t i = 1; i < ring->count; ++i) {
    min_x = an_min(min_x, ring->points[i].x);
    max_x = an_max(max_x, ring->points[i].x);
    min_y = an_min(min_y, ring->points[i].y);
    max_y = an_max(max_y, ring->points[i].y);
  }
  return an_max(max_x - min_x, max_y - min_y);
}

// Checks that need only the ring itself: enough distinct vertices, and not all on one line. (A
// ring with zero signed area that is not collinear, like a bow-tie, is caught as crossing itself.)
static arcnav_status check_ring_shape(const clean_ring *ring) {
  if (ring->count < 3) {
    return ARCNAV_ERR_TOO_FEW_VERTICES;
  }
  vec2 origin = ring->points[0], far = origin;
  for (size_t i = 1; i < ring->count; ++i) {
    if (v2_dist2(ring->points[i], origin) > v2_dist2(far, origin)) {
      far = ring->points[i];
    }
  }
  vec2 axis = v2_normalize(v2_sub(far, origin));
  double scale = ring_scale(ring), widest = 0.0;
  for (size_t i = 1; i < ring->count; ++i) {
    widest = an_max(widest, fabs(v2_cross(axis, v2_sub(ring->points[i], origin))));
  }
  if (widest <= ZERO_AREA_RELATIVE * scale) {
    return ARCNAV_ERR_ZERO_AREA;
  }
  return ARCNAV_OK;
}

typedef struct ring_edge {
  double min_x, max_x;
  int ring;   // index among the rings being checked together
  int vertex; // index of the edge's first vertex in the cleaned ring
} ring_edge;

static int compare_edges_by_min_x(const void *lhs, const void *rhs) {
  const ring_edge *a = lhs, *b = rhs;
  return (a->min_x > b->min_x) - (a->min_x < b->min_x);
}

// Do the edges starting at vertices i and j of one ring (j == i + 1, adjacent) overlap beyond
// their shared vertex? That is a spike: the ring folds back on itself.
static bool adjacent_edges_fold(vec2 a, vec2 shared, vec2 c) {
  vec2 u = v2_sub(a, shared), w = v2_sub(c, shared);
  return v2_cross(u, w) == 0.0 && v2_dot(u, w) > 0.0;
}

// Finds a pair of edges, among all the given rings, that meet where they should not: non-adjacent
// edges sharing any point, or adjacent edges folding back. A sweep over edges sorted by their
// smallest x keeps this near n log n for ordinary polygons.
static arcnav_status find_ring_contacts(const an_allocator *alloc, const clean_ring *rings,
                                        size_t ring_count, int *bad_ring, int *bad_vertex) {
  size_t edge_count = 0;
  for (size_t r = 0; r < ring_count; ++r) {
    edge_count += rings[r].count;
  }
  ring_edge *edges = an_alloc(alloc, edge_count, sizeof *edges);
  if (!edges) {
    return ARCNAV_ERR_OUT_OF_MEMORY;
  }
  size_t e = 0;
  for (size_t r = 0; r < ring_count; ++r) {
    for (size_t i = 0; i < rings[r].count; ++i) {
      vec2 a = rings[r].points[i], b = rings[r].points[(i + 1) % rings[r].count];
      edges[e++] = (ring_edge){an_min(a.x, b.x), an_max(a.x, b.x), (int)r, (int)i};
    }
  }
  qsort(edges, edge_count, sizeof *edges, compare_edges_by_min_x);
  arcnav_status status = ARCNAV_OK;
  for (size_t i = 0; i < edge_count && status == ARCNAV_OK; ++i) {
    const clean_ring *ri = &rings[edges[i].ring];
    size_t ni = ri->count;
    vec2 a = ri->points[edges[i].vertex], b = ri->points[(size_t)(edges[i].vertex + 1) % ni];
    for (size_t j = i + 1; j < edge_count && edges[j].min_x <= edges[i].max_x; ++j) {
      const clean_ring *rj = &rings[edges[j].ring];
      size_t nj = rj->count;
      vec2 c = rj->points[edges[j].vertex], d = rj->points[(size_t)(edges[j].vertex + 1) % nj];
      if (an_max(c.y, d.y) < an_min(a.y, b.y) || an_min(c.y, d.y) > an_max(a.y, b.y)) {
        continue;
      }
      bool meet;
      if (edges[i].ring == edges[j].ring) {
        size_t vi = (size_t)edges[i].vertex, vj = (size_t)edges[j].vertex;
        if ((vi + 1) % ni == vj) {
          meet = adjacent_edges_fold(a, b, d);
        } else if ((vj + 1) % ni == vi) {
          meet = adjacent_edges_fold(c, d, b);
        } else {
          meet = an_segments_intersect(a, b, c, d);
        }
      } else {
        meet = an_segments_intersect(a, b, c, d);
      }
      if (meet) {
        bool later_first = edges[j].ring > edges[i].ring ||
                           (edges[j].ring == edges[i].ring && edges[j].vertex > edges[i].vertex);
        const ring_edge *blame = later_first ? &edges[j] : &edges[i];
        *bad_ring = blame->ring;
        *bad_vertex = rings[blame->ring].source_index[blame->vertex];
        status = ARCNAV_ERR_SELF_INTERSECTION;
      }
    }
  }
  an_free(alloc, edges);
  return status;
}

// Even-odd point in ring (boundary points may go either way; callers only test points that are
// known not to lie on the ring).
static bool point_in_ring(vec2 p, const vec2 *points, size_t count) {
  bool inside = false;
  for (size_t i = 0, j = count - 1; i < count; j = i++) {
    vec2 a = points[i], b = points[j];
    if ((a.y > p.y) != (b.y > p.y)) {
      double x = a.x + (p.y - a.y) * (b.x - a.x) / (b.y - a.y);
      if (p.x < x) {
        inside = !inside;
      }
    }
  }
  return inside;
}

static void orient_ring(clean_ring *ring, bool want_ccw) {
  bool is_ccw = an_ring_signed_area(ring->points, ring->count) > 0.0;
  if (is_ccw == want_ccw) {
    return;
  }
  for (size_t i = 0, j = ring->count - 1; i < j; ++i, --j) {
    vec2 p = ring->points[i];
    ring->points[i] = ring->points[j];
    ring->points[j] = p;
    int s = ring->source_index[i];
    ring->source_index[i] = ring->source_index[j];
    ring->source_index[j] = s;
  }
}

static void box_of_points(const vec2 *points, size_t count, vec2 *out_min, vec2 *out_max) {
  vec2 lo = points[0], hi = points[0];
  for (size_t i = 1; i < count; ++i) {
    lo.x = an_min(lo.x, points[i].x);
    lo.y = an_min(lo.y, points[i].y);
    hi.x = an_max(hi.x, points[i].x);
    hi.y = an_max(hi.y, points[i].y);
  }
  *out_min = lo;
  *out_max = hi;
}

// Cleans and validates a polygon's rings (outer first) into `rings`; on error fills `error`.
static arcnav_status prepare_rings(const an_allocator *alloc, const vec2 *const *inputs,
                                   const size_t *counts, size_t ring_count, int obstacle,
                                   clean_ring *rings, arcnav_error *error) {
  for (size_t r = 0; r < ring_count; ++r) {
    int bad_vertex = -1;
    arcnav_status status = clean_ring_build(alloc, inputs[r], counts[r], &rings[r], &bad_vertex);
    if (status == ARCNAV_OK) {
      status = check_ring_shape(&rings[r]);
    }
    if (status != ARCNAV_OK) {
      set_error(error, status, obstacle, (int)r, bad_vertex);
      return status;
    }
  }
  int bad_ring = -1, bad_vertex = -1;
  arcnav_status status = find_ring_contacts(alloc, rings, ring_count, &bad_ring, &bad_vertex);
  if (status != ARCNAV_OK) {
    set_error(error, status, obstacle, bad_ring, bad_vertex);
    return status;
  }
  // Rings do not meet, so a hole is inside its shell exactly when one of its vertices is, and is
  // nested in another hole exactly when one vertex lies in that hole.
  for (size_t h = 1; h < ring_count; ++h) {
    if (!point_in_ring(rings[h].points[0], rings[0].points, rings[0].count)) {
      set_error(error, ARCNAV_ERR_HOLE_OUTSIDE, obstacle, (int)h, rings[h].source_index[0]);
      return ARCNAV_ERR_HOLE_OUTSIDE;
    }
    for (size_t other = 1; other < ring_count; ++other) {
      if (other != h &&
          point_in_ring(rings[h].points[0], rings[other].points, rings[other].count)) {
        set_error(error, ARCNAV_ERR_SELF_INTERSECTION, obstacle, (int)h, rings[h].source_index[0]);
        return ARCNAV_ERR_SELF_INTERSECTION;
      }
    }
  }
  return ARCNAV_OK;
}

arcnav_status arcnav_map_add_polygon(arcnav_map *map, const arcnav_vec2 *outer, size_t outer_count,
                                     const arcnav_vec2 *const *holes, const size_t *hole_counts,
                                     size_t hole_count, arcnav_error *error) {
  int obstacle = map ? (int)map->obstacle_count : -1;
  set_error(error, ARCNAV_OK, -1, -1, -1);
  if (!map || !outer || (hole_count > 0 && (!holes || !hole_counts))) {
    set_error(error, ARCNAV_ERR_INVALID_ARGUMENT, obstacle, -1, -1);
    return ARCNAV_ERR_INVALID_ARGUMENT;
  }
  if (hole_count > 1000000 || map->obstacle_count >= (size_t)INT32_MAX / 2) {
    set_error(error, ARCNAV_ERR_TOO_LARGE, obstacle, -1, -1);
    return ARCNAV_ERR_TOO_LARGE;
  }
  size_t ring_count = hole_count + 1;
  const an_allocator *alloc = &map->alloc;
  clean_ring *rings = an_calloc(alloc, ring_count, sizeof *rings);
  const vec2 **inputs = an_alloc(alloc, ring_count, sizeof *inputs);
  size_t *counts = an_alloc(alloc, ring_count, sizeof *counts);
  arcnav_status status = ARCNAV_OK;
  if (!rings || !inputs || !counts) {
    status = ARCNAV_ERR_OUT_OF_MEMORY;
    set_error(error, status, obstacle, -1, -1);
  } else {
    inputs[0] = outer;
    counts[0] = outer_count;
    for (size_t h = 0; h < hole_count; ++h) {
      inputs[h + 1] = holes[h];
      counts[h + 1] = hole_counts[h];
    }
    status = prepare_rings(alloc, inputs, counts, ring_count, obstacle, rings, error);
  }
  size_t new_points = 0;
  if (status == ARCNAV_OK) {
    for (size_t r = 0; r < ring_count; ++r) {
      orient_ring(&rings[r], r == 0);
      new_points += rings[r].count;
    }
    // Reserve everything first so the commit below cannot fail halfway.
    if (map->point_count + new_points > (size_t)UINT32_MAX ||
        !an_reserve(alloc, (void **)&map->points, &map->point_capacity, map->point_count,
                    map->point_count + new_points, sizeof *map->points) ||
        !an_reserve(alloc, (void **)&map->rings, &map->ring_capacity, map->ring_count,
                    map->ring_count + ring_count, sizeof *map->rings) ||
        !an_reserve(alloc, (void **)&map->obstacles, &map->obstacle_capacity, map->obstacle_count,
                    map->obstacle_count + 1, sizeof *map->obstacles)) {
      status = ARCNAV_ERR_OUT_OF_MEMORY;
      set_error(error, status, obstacle, -1, -1);
    }
  }
  if (status == ARCNAV_OK) {
    an_obstacle *ob = &map->obstacles[map->obstacle_count];
    *ob = (an_obstacle){.kind = AN_OBSTACLE_POLYGON,
                        .first_ring = (uint32_t)map->ring_count,
                        .ring_count = (uint32_t)ring_count};
    box_of_points(rings[0].points, rings[0].count, &ob->box_min, &ob->box_max);
    for (size_t r = 0; r < ring_count; ++r) {
      map->rings[map->ring_count++] =
          (an_ring){(uint32_t)map->point_count, (uint32_t)rings[r].count,
                    (int32_t)map->obstacle_count, r == 0 ? AN_RING_OUTER : AN_RING_HOLE};
      memcpy(map->points + map->point_count, rings[r].points, rings[r].count * sizeof(vec2));
      map->point_count += rings[r].count;
    }
    map->obstacle_count++;
  }
  if (rings) {
    for (size_t r = 0; r < ring_count; ++r) {
      clean_ring_free(alloc, &rings[r]);
    }
  }
  an_free(alloc, rings);
  an_free(alloc, (void *)inputs);
  an_free(alloc, counts);
  return status;
}

arcnav_status arcnav_map_add_circle(arcnav_map *map, arcnav_vec2 center, double radius,
                                    arcnav_error *error) {
  int obstacle = map ? (int)map->obstacle_count : -1;
  set_error(error, ARCNAV_OK, -1, -1, -1);
  arcnav_status status = ARCNAV_OK;
  if (!map) {
    status = ARCNAV_ERR_INVALID_ARGUMENT;
  } else if (!v2_is_finite(center) || !isfinite(radius)) {
    status = ARCNAV_ERR_NOT_FINITE;
  } else if (radius < 0.0) {
    status = ARCNAV_ERR_NEGATIVE_RADIUS;
  } else if (!an_coordinate_in_range(center.x) || !an_coordinate_in_range(center.y) ||
             !an_coordinate_in_range(radius)) {
    status = ARCNAV_ERR_TOO_LARGE;
  } else if (map->obstacle_count >= (size_t)INT32_MAX / 2) {
    status = ARCNAV_ERR_TOO_LARGE;
  } else if (!an_reserve(&map->alloc, (void **)&map->obstacles, &map->obstacle_capacity,
                         map->obstacle_count, map->obstacle_count + 1, sizeof *map->obstacles)) {
    status = ARCNAV_ERR_OUT_OF_MEMORY;
  }
  if (status != ARCNAV_OK) {
    set_error(error, status, obstacle, -1, -1);
    return status;
  }
  map->obstacles[map->obstacle_count++] = (an_obstacle){
      .kind = AN_OBSTACLE_CIRCLE,
      .center = center,
      .radius = radius,
      .box_min = v2(center.x - radius, center.y - radius),
      .box_max = v2(center.x + radius, center.y + radius),
  };
  return ARCNAV_OK;
}

arcnav_status arcnav_map_set_bounds(arcnav_map *map, const arcnav_vec2 *ring, size_t count,
                                    arcnav_error *error) {
  set_error(error, ARCNAV_OK, -1, -1, -1);
  if (!map || !ring) {
    set_error(error, ARCNAV_ERR_INVALID_ARGUMENT, -1, -1, -1);
    return ARCNAV_ERR_INVALID_ARGUMENT;
  }
  clean_ring cleaned;
  memset(&cleaned, 0, sizeof cleaned);
  const vec2 *inputs[1] = {ring};
  size_t counts[1] = {count};
  arcnav_status status = prepare_rings(&map->alloc, inputs, counts, 1, -1, &cleaned, error);
  if (status != ARCNAV_OK) {
    clean_ring_free(&map->alloc, &cleaned);
    return status;
  }
  orient_ring(&cleaned, false);
  vec2 *stored = an_alloc(&map->alloc, cleaned.count, sizeof *stored);
  if (!stored) {
    clean_ring_free(&map->alloc, &cleaned);
    set_error(error, ARCNAV_ERR_OUT_OF_MEMORY, -1, -1, -1);
    return ARCNAV_ERR_OUT_OF_MEMORY;
  }
  memcpy(stored, cleaned.points, cleaned.count * sizeof *stored);
  an_free(&map->alloc, map->bounds_points);
  map->bounds_points = stored;
  map->bounds = (an_ring){0, (uint32_t)cleaned.count, -1, AN_RING_BOUNDS};
  map->has_bounds = true;
  clean_ring_free(&map->alloc, &cleaned);
  return ARCNAV_OK;
}

bool arcnav_map_extent(const arcnav_map *map, arcnav_vec2 *out_min, arcnav_vec2 *out_max) {
  if (!map || (map->obstacle_count == 0 && !map->has_bounds)) {
    return false;
  }
  vec2 lo = v2(INFINITY, INFINITY), hi = v2(-INFINITY, -INFINITY);
  for (size_t i = 0; i < map->obstacle_count; ++i) {
    const an_obstacle *ob = &map->obstacles[i];
    lo = v2(an_min(lo.x, ob->box_min.x), an_min(lo.y, ob->box_min.y));
    hi = v2(an_max(hi.x, ob->box_max.x), an_max(hi.y, ob->box_max.y));
  }
  if (map->has_bounds) {
    vec2 blo, bhi;
    box_of_points(map->bounds_points, map->bounds.count, &blo, &bhi);
    lo = v2(an_min(lo.x, blo.x), an_min(lo.y, blo.y));
    hi = v2(an_max(hi.x, bhi.x), an_max(hi.y, bhi.y));
  }
  if (out_min) {
    *out_min = lo;
  }
  if (out_max) {
    *out_max = hi;
  }
  return true;
}

double an_map_tolerance(const arcnav_map *map) {
  vec2 lo, hi;
  double scale = 1.0;
  if (arcnav_map_extent(map, &lo, &hi)) {
    scale = an_max(scale, an_max(hi.x - lo.x, hi.y - lo.y));
    scale = an_max(scale, an_max(an_max(fabs(lo.x), fabs(hi.x)), an_max(fabs(lo.y), fabs(hi.y))));
  }
  return 1e-9 * scale;
}

double arcnav_map_tolerance(const arcnav_map *map) {
  return an_map_tolerance(map);
}
