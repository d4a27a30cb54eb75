// SPDX-License-Identifier: MIT
#include "map/map.h"

#include "geom/tolerances.h"
#include "map/ring_check.h"

#include <stdlib.h>
#include <string.h>

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

arcnav_status arcnav_map_add_polygon(arcnav_map *map, const arcnav_vec2 *outer, size_t outer_count,
                                     const arcnav_vec2 *const *holes, const size_t *hole_counts,
                                     size_t hole_count, arcnav_error *error) {
  int obstacle = map ? (int)map->obstacle_count : -1;
  an_set_error(error, ARCNAV_OK, -1, -1, -1);
  if (!map || !outer || (hole_count > 0 && (!holes || !hole_counts))) {
    an_set_error(error, ARCNAV_ERR_INVALID_ARGUMENT, obstacle, -1, -1);
    return ARCNAV_ERR_INVALID_ARGUMENT;
  }
  if (hole_count > 1000000 || map->obstacle_count >= (size_t)INT32_MAX / 2) {
    an_set_error(error, ARCNAV_ERR_TOO_LARGE, obstacle, -1, -1);
    return ARCNAV_ERR_TOO_LARGE;
  }
  size_t ring_count = hole_count + 1;
  const an_allocator *alloc = &map->alloc;
  an_clean_ring *rings = an_calloc(alloc, ring_count, sizeof *rings);
  const vec2 **inputs = an_alloc(alloc, ring_count, sizeof *inputs);
  size_t *counts = an_alloc(alloc, ring_count, sizeof *counts);
  arcnav_status status = ARCNAV_OK;
  if (!rings || !inputs || !counts) {
    status = ARCNAV_ERR_OUT_OF_MEMORY;
    an_set_error(error, status, obstacle, -1, -1);
  } else {
    inputs[0] = outer;
    counts[0] = outer_count;
    for (size_t h = 0; h < hole_count; ++h) {
      inputs[h + 1] = holes[h];
      counts[h + 1] = hole_counts[h];
    }
    status = an_prepare_rings(alloc, inputs, counts, ring_count, obstacle, rings, error);
  }
  size_t new_points = 0;
  if (status == ARCNAV_OK) {
    for (size_t r = 0; r < ring_count; ++r) {
      an_orient_ring(&rings[r], r == 0);
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
      an_set_error(error, status, obstacle, -1, -1);
    }
  }
  if (status == ARCNAV_OK) {
    an_obstacle *ob = &map->obstacles[map->obstacle_count];
    *ob = (an_obstacle){.kind = AN_OBSTACLE_POLYGON,
                        .first_ring = (uint32_t)map->ring_count,
                        .ring_count = (uint32_t)ring_count};
    an_box_of_points(rings[0].points, rings[0].count, &ob->box_min, &ob->box_max);
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
      an_clean_ring_free(alloc, &rings[r]);
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
  an_set_error(error, ARCNAV_OK, -1, -1, -1);
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
    an_set_error(error, status, obstacle, -1, -1);
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
  an_set_error(error, ARCNAV_OK, -1, -1, -1);
  if (!map || !ring) {
    an_set_error(error, ARCNAV_ERR_INVALID_ARGUMENT, -1, -1, -1);
    return ARCNAV_ERR_INVALID_ARGUMENT;
  }
  an_clean_ring cleaned;
  memset(&cleaned, 0, sizeof cleaned);
  const vec2 *inputs[1] = {ring};
  size_t counts[1] = {count};
  arcnav_status status = an_prepare_rings(&map->alloc, inputs, counts, 1, -1, &cleaned, error);
  if (status != ARCNAV_OK) {
    an_clean_ring_free(&map->alloc, &cleaned);
    return status;
  }
  an_orient_ring(&cleaned, false);
  vec2 *stored = an_alloc(&map->alloc, cleaned.count, sizeof *stored);
  if (!stored) {
    an_clean_ring_free(&map->alloc, &cleaned);
    an_set_error(error, ARCNAV_ERR_OUT_OF_MEMORY, -1, -1, -1);
    return ARCNAV_ERR_OUT_OF_MEMORY;
  }
  memcpy(stored, cleaned.points, cleaned.count * sizeof *stored);
  an_free(&map->alloc, map->bounds_points);
  map->bounds_points = stored;
  map->bounds = (an_ring){0, (uint32_t)cleaned.count, -1, AN_RING_BOUNDS};
  map->has_bounds = true;
  an_clean_ring_free(&map->alloc, &cleaned);
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
    an_box_of_points(map->bounds_points, map->bounds.count, &blo, &bhi);
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
  return AN_MAP_TOLERANCE_RELATIVE * scale;
}

double arcnav_map_tolerance(const arcnav_map *map) {
  return an_map_tolerance(map);
}

bool an_map_has_round_obstacles(const arcnav_map *map) {
  for (size_t i = 0; i < map->obstacle_count; ++i) {
    if (map->obstacles[i].kind == AN_OBSTACLE_CIRCLE && map->obstacles[i].radius > 0.0) {
      return true;
    }
  }
  return false;
}
