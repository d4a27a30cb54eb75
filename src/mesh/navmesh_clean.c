// SPDX-License-Identifier: MIT
// A navmesh build stage: which obstacles the triangulation may trust not to cross themselves.
//
// The triangulation tests every pair of segments from overlapping obstacles for crossings, and
// every pair inside an obstacle unless told the obstacle is clean (its rings neither cross nor
// touch). Obstacles added through the public API were validated so; an eroded map's grown rings
// were not and may cross themselves. Large obstacles are therefore checked here by the map's own
// ring checks (an O(n log n) sweep, map/ring_check.c); small ones are cheaper to test pair by pair.
#include "mesh/navmesh_build.h"

#include "map/ring_check.h"

#define CLEAN_CHECK_MIN_VERTICES 256

static arcnav_status polygon_is_clean(const arcnav_map *map, const an_obstacle *ob,
                                      const an_allocator *alloc, bool *clean) {
  *clean = false;
  const vec2 **inputs = an_alloc(alloc, ob->ring_count, sizeof *inputs);
  size_t *counts = an_alloc(alloc, ob->ring_count, sizeof *counts);
  arcnav_status st = inputs && counts ? ARCNAV_OK : ARCNAV_ERR_OUT_OF_MEMORY;
  if (st == ARCNAV_OK) {
    // An obstacle's rings are stored one after another in the map's points.
    for (uint32_t r = 0; r < ob->ring_count; ++r) {
      const an_ring *ring = &map->rings[ob->first_ring + r];
      inputs[r] = map->points + ring->first;
      counts[r] = ring->count;
    }
    st = an_rings_are_clean(alloc, inputs, counts, ob->ring_count, clean);
  }
  an_free(alloc, (void *)inputs);
  an_free(alloc, counts);
  return st;
}

static arcnav_status bounds_are_clean(const arcnav_map *map, const an_allocator *alloc,
                                      bool *clean) {
  const vec2 *inputs[1] = {map->bounds_points};
  size_t counts[1] = {map->bounds.count};
  return an_rings_are_clean(alloc, inputs, counts, 1, clean);
}

arcnav_status an_navmesh_find_clean_groups(const arcnav_map *map, const an_allocator *alloc,
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
