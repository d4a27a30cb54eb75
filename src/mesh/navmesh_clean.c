// SPDX-License-Identifier: MIT
// A navmesh build stage: which obstacles the triangulation may trust not to cross themselves.
//
// The triangulation tests every pair of segments from overlapping obstacles for crossings, and
// every pair inside an obstacle unless told the obstacle is clean (its rings neither cross nor
// touch). Obstacles added through the public API were validated so; an eroded map's grown rings
// were not and may cross themselves. Large obstacles are therefore checked here by the map's own
// validation (an O(n log n) sweep); small ones are cheaper to test pair by pair.
#include "mesh/navmesh_build.h"

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
