// SPDX-License-Identifier: MIT
#include "map/map.h"

#include "geom/tolerances.h"
#include "map/ring_check.h"

#include <stdlib.h>
#include <string.h>

// Shapes by hash (an_obstacle.shape): two obstacles of one id with one hash are taken for the
// same shape. Each coordinate's bits are mixed in as a 64-bit word (a multiply and shifts, as in
// splitmix64).
static uint64_t mix(uint64_t h, uint64_t word) {
  h ^= word + 0x9E3779B97F4A7C15u + (h << 6) + (h >> 2);
  h *= 0xBF58476D1CE4E5B9u;
  return h ^ (h >> 31);
}

static uint64_t mix_double(uint64_t h, double value) {
  uint64_t word;
  memcpy(&word, &value, sizeof word);
  return mix(h, word);
}

static uint64_t hash_ring(uint64_t h, const arcnav_map *map, const an_ring *ring) {
  h = mix(h, ring->count);
  for (size_t k = 0; k < ring->count; ++k) {
    vec2 p = an_ring_vertex(map, ring, k);
    h = mix_double(mix_double(h, p.x), p.y);
  }
  return h;
}

// Sets the shape hash of obstacle `index` from what it is now.
static void hash_shape(arcnav_map *map, size_t index) {
  an_obstacle *ob = &map->obstacles[index];
  uint64_t h = mix(mix(0, (uint64_t)ob->kind), ob->unit ? 1u : 0u);
  if (ob->kind == AN_OBSTACLE_CIRCLE) {
    h = mix_double(mix_double(mix_double(h, ob->center.x), ob->center.y), ob->radius);
  }
  for (uint32_t r = 0; ob->kind == AN_OBSTACLE_POLYGON && r < ob->ring_count; ++r) {
    h = hash_ring(h, map, &map->rings[ob->first_ring + r]);
  }
  ob->shape = h;
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
  map->free_slot = AN_NO_SLOT;
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
  an_free(&alloc, map->slots);
  an_free(&alloc, map->bounds_points);
  an_free(&alloc, map);
}

size_t arcnav_map_obstacle_count(const arcnav_map *map) {
  return map ? map->obstacle_count : 0;
}

// ---- ids and the storage of rings ---------------------------------------------------------

static arcnav_obstacle_id id_of_slot(const arcnav_map *map, uint32_t slot) {
  return (uint64_t)map->slots[slot].generation << 32 | slot;
}

// Makes room for one more slot, so that taking it later cannot fail.
static bool reserve_slot(arcnav_map *map) {
  return map->free_slot != AN_NO_SLOT ||
         (map->slot_count < AN_NO_SLOT &&
          an_reserve(&map->alloc, (void **)&map->slots, &map->slot_capacity, map->slot_count,
                     map->slot_count + 1, sizeof *map->slots));
}

// After reserve_slot(): the slot of a new obstacle at `index`.
static uint32_t take_slot(arcnav_map *map, size_t index) {
  uint32_t slot = map->free_slot;
  if (slot != AN_NO_SLOT) {
    map->free_slot = map->slots[slot].obstacle;
  } else {
    slot = (uint32_t)map->slot_count++;
    map->slots[slot].generation = 1;
  }
  map->slots[slot].obstacle = (uint32_t)index;
  return slot;
}

// The obstacle `id` names, or AN_NO_SLOT.
static uint32_t index_of_id(const arcnav_map *map, arcnav_obstacle_id id) {
  uint64_t slot = id & UINT32_MAX;
  uint32_t generation = (uint32_t)(id >> 32);
  if (!map || slot >= map->slot_count || generation == 0 ||
      map->slots[slot].generation != generation) {
    return AN_NO_SLOT;
  }
  // A free slot's generation has moved on, but an id made up with the new one would match it:
  // the slot must hold an obstacle.
  return an_map_slot_obstacle(map, (uint32_t)slot);
}

uint32_t an_map_slot_obstacle(const arcnav_map *map, uint32_t slot) {
  // A free slot's `obstacle` names the next free slot, whose obstacle (if any) is not in it.
  uint32_t index = map->slots[slot].obstacle;
  return index < map->obstacle_count && map->obstacles[index].slot == slot ? index : AN_NO_SLOT;
}

static size_t ring_points(const an_clean_ring *rings, size_t ring_count) {
  size_t total = 0;
  for (size_t r = 0; r < ring_count; ++r) {
    total += rings[r].count;
  }
  return total;
}

// Puts `rings` (oriented) in place of the rings of obstacle `index`: a polygon's own rings, or
// none for an obstacle appended at index == obstacle_count. Rings and points stay in obstacle
// order, so the later obstacles' rings shift. Reserves first: on failure nothing has changed.
static arcnav_status splice_rings(arcnav_map *map, size_t index, const an_clean_ring *rings,
                                  size_t ring_count) {
  size_t r0 = map->ring_count, r1 = r0, p0 = map->point_count, p1 = p0;
  if (index < map->obstacle_count && map->obstacles[index].kind == AN_OBSTACLE_POLYGON) {
    r0 = map->obstacles[index].first_ring;
    r1 = r0 + map->obstacles[index].ring_count;
    p0 = map->rings[r0].first;
    p1 = map->rings[r1 - 1].first + map->rings[r1 - 1].count;
  }
  size_t new_points = ring_points(rings, ring_count);
  size_t point_total = map->point_count - (p1 - p0) + new_points;
  size_t ring_total = map->ring_count - (r1 - r0) + ring_count;
  if (point_total > (size_t)UINT32_MAX || ring_total > (size_t)UINT32_MAX) {
    return ARCNAV_ERR_TOO_LARGE;
  }
  if (!an_reserve(&map->alloc, (void **)&map->points, &map->point_capacity, map->point_count,
                  point_total, sizeof *map->points) ||
      !an_reserve(&map->alloc, (void **)&map->rings, &map->ring_capacity, map->ring_count,
                  ring_total, sizeof *map->rings)) {
    return ARCNAV_ERR_OUT_OF_MEMORY;
  }
  // A map of circles alone has no point or ring arrays at all: nothing to move then.
  if (map->point_count > p1) {
    memmove(map->points + p0 + new_points, map->points + p1,
            (map->point_count - p1) * sizeof *map->points);
  }
  if (map->ring_count > r1) {
    memmove(map->rings + r0 + ring_count, map->rings + r1,
            (map->ring_count - r1) * sizeof *map->rings);
  }
  size_t point = p0;
  for (size_t r = 0; r < ring_count; ++r) {
    map->rings[r0 + r] = (an_ring){(uint32_t)point, (uint32_t)rings[r].count, (int32_t)index,
                                   r == 0 ? AN_RING_OUTER : AN_RING_HOLE};
    memcpy(map->points + point, rings[r].points, rings[r].count * sizeof(vec2));
    point += rings[r].count;
  }
  for (size_t r = r0 + ring_count; r < ring_total; ++r) {
    map->rings[r].first = (uint32_t)(map->rings[r].first + new_points - (p1 - p0));
  }
  for (size_t o = index + 1; o < map->obstacle_count; ++o) {
    if (map->obstacles[o].kind == AN_OBSTACLE_POLYGON) {
      map->obstacles[o].first_ring =
          (uint32_t)(map->obstacles[o].first_ring + ring_count - (r1 - r0));
    }
  }
  map->point_count = point_total;
  map->ring_count = ring_total;
  if (index < map->obstacle_count) {
    map->obstacles[index].first_ring = (uint32_t)r0;
    map->obstacles[index].ring_count = (uint32_t)ring_count;
  }
  return ARCNAV_OK;
}

// Cleans, validates and orients a polygon's rings as given (outer first) into `rings`, which the
// caller frees with free_prepared() whatever the outcome.
static arcnav_status prepare_polygon(arcnav_map *map, const vec2 *const *inputs,
                                     const size_t *counts, size_t ring_count, int obstacle,
                                     an_clean_ring **out_rings, arcnav_error *error) {
  an_clean_ring *rings = an_calloc(&map->alloc, ring_count, sizeof *rings);
  *out_rings = rings;
  if (!rings) {
    an_set_error(error, ARCNAV_ERR_OUT_OF_MEMORY, obstacle, -1, -1);
    return ARCNAV_ERR_OUT_OF_MEMORY;
  }
  arcnav_status status =
      an_prepare_rings(&map->alloc, inputs, counts, ring_count, obstacle, rings, error);
  for (size_t r = 0; status == ARCNAV_OK && r < ring_count; ++r) {
    an_orient_ring(&rings[r], r == 0);
  }
  return status;
}

static void free_prepared(arcnav_map *map, an_clean_ring *rings, size_t ring_count) {
  if (rings) {
    for (size_t r = 0; r < ring_count; ++r) {
      an_clean_ring_free(&map->alloc, &rings[r]);
    }
  }
  an_free(&map->alloc, rings);
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
  const vec2 **inputs = an_alloc(alloc, ring_count, sizeof *inputs);
  size_t *counts = an_alloc(alloc, ring_count, sizeof *counts);
  an_clean_ring *rings = NULL;
  arcnav_status status = ARCNAV_OK;
  if (!inputs || !counts) {
    status = ARCNAV_ERR_OUT_OF_MEMORY;
    an_set_error(error, status, obstacle, -1, -1);
  } else {
    inputs[0] = outer;
    counts[0] = outer_count;
    for (size_t h = 0; h < hole_count; ++h) {
      inputs[h + 1] = holes[h];
      counts[h + 1] = hole_counts[h];
    }
    status = prepare_polygon(map, inputs, counts, ring_count, obstacle, &rings, error);
  }
  // Everything is reserved before the rings go in, so the commit cannot fail halfway.
  if (status == ARCNAV_OK &&
      (!reserve_slot(map) ||
       !an_reserve(alloc, (void **)&map->obstacles, &map->obstacle_capacity, map->obstacle_count,
                   map->obstacle_count + 1, sizeof *map->obstacles))) {
    status = ARCNAV_ERR_OUT_OF_MEMORY;
  }
  if (status == ARCNAV_OK) {
    status = splice_rings(map, map->obstacle_count, rings, ring_count);
  }
  if (status == ARCNAV_OK) {
    size_t index = map->obstacle_count;
    an_obstacle *ob = &map->obstacles[index];
    *ob = (an_obstacle){.kind = AN_OBSTACLE_POLYGON,
                        .first_ring = (uint32_t)(map->ring_count - ring_count),
                        .ring_count = (uint32_t)ring_count};
    an_box_of_points(rings[0].points, rings[0].count, &ob->box_min, &ob->box_max);
    ob->slot = take_slot(map, index);
    hash_shape(map, index);
    map->obstacle_count++;
  } else if (error && error->status == ARCNAV_OK) {
    an_set_error(error, status, obstacle, -1, -1);
  }
  free_prepared(map, rings, ring_count);
  an_free(alloc, (void *)inputs);
  an_free(alloc, counts);
  return status;
}

static arcnav_status add_circle(arcnav_map *map, vec2 center, double radius, bool unit,
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
  } else if (!reserve_slot(map) ||
             !an_reserve(&map->alloc, (void **)&map->obstacles, &map->obstacle_capacity,
                         map->obstacle_count, map->obstacle_count + 1, sizeof *map->obstacles)) {
    status = ARCNAV_ERR_OUT_OF_MEMORY;
  }
  if (status != ARCNAV_OK) {
    an_set_error(error, status, obstacle, -1, -1);
    return status;
  }
  size_t index = map->obstacle_count;
  map->obstacles[index] = (an_obstacle){
      .kind = AN_OBSTACLE_CIRCLE,
      .slot = take_slot(map, index),
      .center = center,
      .radius = radius,
      .box_min = v2(center.x - radius, center.y - radius),
      .box_max = v2(center.x + radius, center.y + radius),
      .unit = unit,
  };
  hash_shape(map, index);
  map->obstacle_count++;
  return ARCNAV_OK;
}

arcnav_status arcnav_map_add_circle(arcnav_map *map, arcnav_vec2 center, double radius,
                                    arcnav_error *error) {
  return add_circle(map, center, radius, false, error);
}

arcnav_status arcnav_map_add_unit(arcnav_map *map, arcnav_vec2 center, double radius,
                                  arcnav_obstacle_id *out_id) {
  if (out_id) {
    *out_id = 0;
  }
  arcnav_status status = add_circle(map, center, radius, true, NULL);
  if (status == ARCNAV_OK && out_id) {
    *out_id = arcnav_map_obstacle_id(map, map->obstacle_count - 1);
  }
  return status;
}

bool arcnav_map_obstacle_is_unit(const arcnav_map *map, arcnav_obstacle_id id) {
  uint32_t index = map ? index_of_id(map, id) : AN_NO_SLOT;
  return index != AN_NO_SLOT && map->obstacles[index].unit;
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
  map->bounds_shape = hash_ring(1, map, &map->bounds) | 1u;
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

bool an_map_has_units(const arcnav_map *map) {
  for (size_t i = 0; i < map->obstacle_count; ++i) {
    if (map->obstacles[i].unit) {
      return true;
    }
  }
  return false;
}

// ---- obstacles by id -------------------------------------------------------------------------

arcnav_obstacle_id arcnav_map_obstacle_id(const arcnav_map *map, size_t index) {
  if (!map || index >= map->obstacle_count) {
    return 0;
  }
  return id_of_slot(map, map->obstacles[index].slot);
}

arcnav_status arcnav_map_obstacle_index(const arcnav_map *map, arcnav_obstacle_id id,
                                        size_t *out_index) {
  if (!map || !out_index) {
    return ARCNAV_ERR_INVALID_ARGUMENT;
  }
  uint32_t index = index_of_id(map, id);
  if (index == AN_NO_SLOT) {
    return ARCNAV_ERR_STALE_ID;
  }
  *out_index = index;
  return ARCNAV_OK;
}

arcnav_status arcnav_map_remove_obstacle(arcnav_map *map, arcnav_obstacle_id id) {
  if (!map) {
    return ARCNAV_ERR_INVALID_ARGUMENT;
  }
  uint32_t index = index_of_id(map, id);
  if (index == AN_NO_SLOT) {
    return ARCNAV_ERR_STALE_ID;
  }
  // Splicing out rings only shrinks the arrays, so it cannot fail.
  arcnav_status status = splice_rings(map, index, NULL, 0);
  if (status != ARCNAV_OK) {
    return status;
  }
  uint32_t slot = map->obstacles[index].slot;
  memmove(map->obstacles + index, map->obstacles + index + 1,
          (map->obstacle_count - index - 1) * sizeof *map->obstacles);
  map->obstacle_count--;
  for (size_t o = index; o < map->obstacle_count; ++o) {
    map->slots[map->obstacles[o].slot].obstacle = (uint32_t)o;
  }
  for (size_t r = 0; r < map->ring_count; ++r) {
    if (map->rings[r].obstacle > (int32_t)index) {
      map->rings[r].obstacle--;
    }
  }
  // A generation that wraps round to 0 would make an id of 0; skip it.
  map->slots[slot].generation =
      map->slots[slot].generation == UINT32_MAX ? 1 : map->slots[slot].generation + 1;
  map->slots[slot].obstacle = map->free_slot;
  map->free_slot = slot;
  return ARCNAV_OK;
}

static arcnav_status move_polygon(arcnav_map *map, size_t index, vec2 by, arcnav_error *error) {
  const an_obstacle *ob = &map->obstacles[index];
  size_t ring_count = ob->ring_count;
  size_t total = 0;
  for (size_t r = 0; r < ring_count; ++r) {
    total += map->rings[ob->first_ring + r].count;
  }
  vec2 *moved = an_alloc(&map->alloc, total, sizeof *moved);
  const vec2 **inputs = an_alloc(&map->alloc, ring_count, sizeof *inputs);
  size_t *counts = an_alloc(&map->alloc, ring_count, sizeof *counts);
  an_clean_ring *rings = NULL;
  arcnav_status status = ARCNAV_OK;
  if (!moved || !inputs || !counts) {
    status = ARCNAV_ERR_OUT_OF_MEMORY;
    an_set_error(error, status, (int)index, -1, -1);
  } else {
    size_t at = 0;
    for (size_t r = 0; r < ring_count; ++r) {
      const an_ring *ring = &map->rings[ob->first_ring + r];
      inputs[r] = moved + at;
      counts[r] = ring->count;
      for (size_t i = 0; i < ring->count; ++i) {
        vec2 p = v2_add(an_ring_vertex(map, ring, i), by);
        if (!v2_is_finite(p) || !an_coordinate_in_range(p.x) || !an_coordinate_in_range(p.y)) {
          status = v2_is_finite(p) ? ARCNAV_ERR_TOO_LARGE : ARCNAV_ERR_NOT_FINITE;
          an_set_error(error, status, (int)index, (int)r, (int)i);
        }
        moved[at++] = p;
      }
    }
    // Rounding can move touching rings apart or into each other: the moved rings are checked
    // again, as a new polygon would be.
    if (status == ARCNAV_OK) {
      status = prepare_polygon(map, inputs, counts, ring_count, (int)index, &rings, error);
    }
  }
  if (status == ARCNAV_OK) {
    status = splice_rings(map, index, rings, ring_count);
    if (status != ARCNAV_OK) {
      an_set_error(error, status, (int)index, -1, -1);
    }
  }
  if (status == ARCNAV_OK) {
    an_obstacle *moved_ob = &map->obstacles[index];
    an_box_of_points(rings[0].points, rings[0].count, &moved_ob->box_min, &moved_ob->box_max);
    hash_shape(map, index);
  }
  free_prepared(map, rings, ring_count);
  an_free(&map->alloc, moved);
  an_free(&map->alloc, (void *)inputs);
  an_free(&map->alloc, counts);
  return status;
}

arcnav_status arcnav_map_move_obstacle(arcnav_map *map, arcnav_obstacle_id id, arcnav_vec2 by,
                                       arcnav_error *error) {
  an_set_error(error, ARCNAV_OK, -1, -1, -1);
  if (!map) {
    an_set_error(error, ARCNAV_ERR_INVALID_ARGUMENT, -1, -1, -1);
    return ARCNAV_ERR_INVALID_ARGUMENT;
  }
  uint32_t index = index_of_id(map, id);
  arcnav_status status = ARCNAV_OK;
  if (index == AN_NO_SLOT) {
    status = ARCNAV_ERR_STALE_ID;
  } else if (!v2_is_finite(by)) {
    status = ARCNAV_ERR_NOT_FINITE;
  } else if (!an_coordinate_in_range(by.x) || !an_coordinate_in_range(by.y)) {
    status = ARCNAV_ERR_TOO_LARGE;
  }
  if (status != ARCNAV_OK) {
    an_set_error(error, status, index == AN_NO_SLOT ? -1 : (int)index, -1, -1);
    return status;
  }
  an_obstacle *ob = &map->obstacles[index];
  if (ob->kind == AN_OBSTACLE_POLYGON) {
    status = move_polygon(map, index, by, error);
  } else {
    vec2 center = v2_add(ob->center, by);
    if (!v2_is_finite(center)) {
      status = ARCNAV_ERR_NOT_FINITE;
    } else if (!an_coordinate_in_range(center.x) || !an_coordinate_in_range(center.y)) {
      status = ARCNAV_ERR_TOO_LARGE;
    } else {
      ob->center = center;
      ob->box_min = v2(center.x - ob->radius, center.y - ob->radius);
      ob->box_max = v2(center.x + ob->radius, center.y + ob->radius);
      hash_shape(map, index);
    }
    if (status != ARCNAV_OK) {
      an_set_error(error, status, (int)index, -1, -1);
    }
  }
  return status;
}
