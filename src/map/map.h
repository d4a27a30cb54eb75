// SPDX-License-Identifier: MIT
#pragma once

// Map storage (validation of new rings is in ring_check.c). Rings are stored normalised so later
// stages never look at orientation again: consecutive duplicates removed, and oriented with the
// blocked material on the LEFT of every directed edge (vertex i -> vertex i+1). So an obstacle's
// outer ring is counter-clockwise, its holes clockwise, and the bounds ring clockwise (outside the
// bounds is blocked). A vertex is a corner the agent wraps around exactly when the ring turns left
// there. Rings of one polygon may touch at single points (see arcnav_map_add_polygon()); where a
// vertex of one lies inside an edge of another, that edge is stored split at the vertex (a straight
// vertex), so stored rings meet only at vertices they share. At such a point at most one of the
// rings turns left: their free sides are apart, and only a free side wider than a half-turn makes a
// corner.

#include "arcnav/arcnav.h"
#include "geom/alloc.h"
#include "geom/geom.h"
#include "geom/tolerances.h"

#include <stddef.h>
#include <stdint.h>

typedef enum an_ring_role {
  AN_RING_OUTER = 0, ///< outer ring of a polygon obstacle
  AN_RING_HOLE = 1,  ///< hole of a polygon obstacle
  AN_RING_BOUNDS = 2 ///< the bounds polygon
} an_ring_role;

typedef struct an_ring {
  uint32_t first;   ///< index of the first vertex in map->points
  uint32_t count;   ///< number of vertices (>= 3), no duplicate closing vertex
  int32_t obstacle; ///< owning obstacle index, -1 for the bounds
  an_ring_role role;
} an_ring;

typedef enum an_obstacle_kind { AN_OBSTACLE_POLYGON = 0, AN_OBSTACLE_CIRCLE = 1 } an_obstacle_kind;

typedef struct an_obstacle {
  an_obstacle_kind kind;
  uint32_t slot;       ///< its entry in map->slots, which its arcnav_obstacle_id names
  uint32_t first_ring; ///< polygons: index of the outer ring in map->rings; holes follow it
  uint32_t ring_count; ///< polygons: 1 + number of holes
  vec2 center;         ///< circles
  double radius;       ///< circles
  vec2 box_min, box_max;
  /// A unit (arcnav_map_add_unit): a circle that queries may be told to ignore, so the planner's
  /// build decides nothing on account of it that an ignoring query would need undone.
  bool unit;
  /// A hash of its shape (kind, rings or circle, unit or not), set wherever the shape is: a
  /// planner compares them to see which obstacles an update changed (docs/DESIGN.md, "A living
  /// map").
  uint64_t shape;
} an_obstacle;

/// What an arcnav_obstacle_id names: the obstacle's index while it exists, and a generation that
/// removal moves on, so an id kept after its obstacle was removed names nothing (the slot may by
/// then hold another obstacle, under another generation).
typedef struct an_obstacle_slot {
  uint32_t generation; ///< starts at 1, so no id is 0
  uint32_t obstacle;   ///< index in map->obstacles; for a free slot, the next free slot
} an_obstacle_slot;

#define AN_NO_SLOT UINT32_MAX

/// The index of the obstacle slot `slot` (< slot_count) holds, or AN_NO_SLOT for a free slot.
uint32_t an_map_slot_obstacle(const arcnav_map *map, uint32_t slot);

struct arcnav_map {
  an_allocator alloc;
  vec2 *points;
  size_t point_count, point_capacity;
  an_ring *rings; ///< every obstacle ring, in obstacle order (the bounds ring is `bounds`)
  size_t ring_count, ring_capacity;
  an_obstacle *obstacles;
  size_t obstacle_count, obstacle_capacity;
  an_obstacle_slot *slots;
  size_t slot_count, slot_capacity;
  uint32_t free_slot; ///< first free slot, AN_NO_SLOT when none
  bool has_bounds;
  an_ring bounds;        ///< valid when has_bounds; its vertices live in bounds_points
  vec2 *bounds_points;   ///< separately owned so replacing the bounds does not leave holes
  uint64_t bounds_shape; ///< a hash of the bounds ring, as an_obstacle.shape; 0 without bounds
};

/// Vertex `i` of `ring` (i taken modulo the ring size).
static inline vec2 an_ring_vertex(const arcnav_map *map, const an_ring *ring, size_t i) {
  const vec2 *base = ring->role == AN_RING_BOUNDS ? map->bounds_points : map->points + ring->first;
  return base[i % ring->count];
}

/// Length tolerance of the map (see arcnav.h): 1e-9 * max(1, extent, max |coordinate|).
double an_map_tolerance(const arcnav_map *map);

/// Does the map hold a circle obstacle of positive radius? (Point obstacles add no material.)
bool an_map_has_round_obstacles(const arcnav_map *map);

/// Does the map hold a unit (arcnav_map_add_unit())?
bool an_map_has_units(const arcnav_map *map);
