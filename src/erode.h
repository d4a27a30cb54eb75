// SPDX-License-Identifier: MIT
#pragma once

// Obstacles grown by the agent radius with polygonal corners: the map an eroded navmesh plans on.
// The funnel engines use it at R > 0 to stand for what a point-agent navmesh built on eroded
// walkable space (Recast's erosion) returns; the result is an approximation for comparison, not
// the exact configuration space.
//
// Every ring edge moves by R away from its material (rings are stored with the material on the
// left, so outer rings grow, holes and the bounds shrink). Corners:
// - convex (the ring turns left) by at most 90 degrees: the miter, where the two moved edges meet;
// - sharper convex corners: a square bevel, two vertices on the line at distance R from the corner
//   perpendicular to its bisector, so the grown corner still contains the disk of radius R;
// - reflex (the ring turns right): the miter when it lies within half of each neighbouring moved
//   edge, else three vertices (the end of the first moved edge, the corner itself, the start of the
//   second moved edge).
// Circles become the regular AN_NAVMESH_CIRCLE_SIDES-gon circumscribed about the circle grown by R.
//
// The grown rings may cross themselves and each other. Every piece of a grown ring is swept from
// the original ring by moving edges only towards their free side, so winding numbers only grow:
// a point is blocked by an obstacle when the sum of the winding numbers of its grown rings about
// the point is at least 1, and outside the grown bounds when the bounds ring's winding number is at
// least 0 (inside the clockwise bounds it is -1). For simple rings this is the usual inside test.

#include "alloc.h"
#include "arcnav/arcnav.h"
#include "map.h"

/// A new map (allocated with map->alloc, freed with arcnav_map_destroy()) whose obstacles are the
/// obstacles of `map` grown by `radius` > 0 as described above (growth beyond ten times the map's
/// size is clamped there: it would change nothing but precision); every obstacle becomes a
/// polygon, the bounds shrink. Rings are stored as computed (not validated, possibly
/// self-crossing).
/// @return ARCNAV_OK, ARCNAV_ERR_OUT_OF_MEMORY or ARCNAV_ERR_TOO_LARGE.
arcnav_status an_erode_map(const arcnav_map *map, double radius, arcnav_map **out);
