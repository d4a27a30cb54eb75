// SPDX-License-Identifier: MIT
#pragma once

// The polygons a triangulation took in by local changes (an_navmesh_change_polygon()): each one's
// id and mesh vertices, which taking it out again needs. An engine that follows local changes
// keeps one set beside its mesh (docs/DESIGN.md, "A living map").

#include "geom/alloc.h"
#include "index/grid.h"
#include "map/map.h"
#include "mesh/navmesh.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct an_local_polygon {
  arcnav_obstacle_id id;
  uint32_t *ring_counts;
  size_t ring_count;
  int32_t *vertices; ///< the mesh vertex of each point, ring after ring
} an_local_polygon;

typedef struct an_local_polygons {
  an_local_polygon *items;
  size_t count, capacity;
} an_local_polygons;

/// A polygon's edges as a grid holds them (an_grid_owner_items()): `count` items from `items`.
typedef struct an_built_edges {
  const an_item *items;
  size_t count;
} an_built_edges;

/// Whether polygon `id` is in the set.
bool an_local_polygons_has(const an_local_polygons *set, arcnav_obstacle_id id);

/// A copy of `from` into `to` (empty before). On failure `to` is empty.
/// @return ARCNAV_OK or ARCNAV_ERR_OUT_OF_MEMORY.
arcnav_status an_local_polygons_copy(const an_local_polygons *from, an_local_polygons *to,
                                     const an_allocator *alloc);

/// Changes `mesh` for one change of obstacle `id` and the set with it: polygon `id` taken out
/// (`out`), then, with `in`, polygon `index` of `map` put in under `id`. A move is both. The
/// polygon taken out is one of the set, or, when the set has none under `id`, one the mesh was
/// built with, whose edges `built` gives as the grid of the map before the change holds them
/// (an_grid_owner_items(); NULL or none: not known), taken out when the mesh holds it as a change
/// would have put it in (an_navmesh_find_polygon()). The polygon put in, and one the mesh was
/// built with taken out, must keep clear of everything else, which the caller checks. On failure
/// mesh and set are as they were (an_navmesh_change_polygon()); ARCNAV_ERR_INVALID_ARGUMENT when
/// the change cannot be made so.
arcnav_status an_local_polygons_change(an_local_polygons *set, an_navmesh *mesh,
                                       const arcnav_map *map, arcnav_obstacle_id id, bool out,
                                       bool in, size_t index, const an_built_edges *built,
                                       const an_allocator *alloc);

void an_local_polygons_free(an_local_polygons *set, const an_allocator *alloc);
