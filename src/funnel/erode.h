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

#include "arcnav/arcnav.h"
#include "geom/alloc.h"
#include "map/map.h"

/// A new map (allocated with map->alloc, freed with arcnav_map_destroy()) whose obstacles are the
/// obstacles of `map` grown by `radius` > 0 as described above (growth beyond ten times the map's
/// size is clamped there: it would change nothing but precision); every obstacle becomes a
/// polygon, the bounds shrink. Rings are stored as computed (not validated, possibly
/// self-crossing).
/// @return ARCNAV_OK, ARCNAV_ERR_OUT_OF_MEMORY or ARCNAV_ERR_TOO_LARGE.
arcnav_status an_erode_map(const arcnav_map *map, double radius, arcnav_map **out);

/// What the triangulation of a grown map may leave out. The grown region is the union of convex
/// pieces swept by the growth (per edge the strip between it and its moved copy, per convex
/// corner its miter or bevel, per circle its grown polygon), so a stretch of a grown ring deeper
/// than a margin inside one of them has blocked space on both sides and needs no constraint.
/// Dropping such stretches keeps the arrangement to the boundary of the union, where densely
/// packed corners (a star with many tips) would otherwise cross each other R / spacing times per
/// edge.
typedef struct an_erode_trim an_erode_trim;

/// For the grown map of `original` at `radius` (the same values given to an_erode_map()).
/// @return ARCNAV_OK or ARCNAV_ERR_OUT_OF_MEMORY (*out NULL).
arcnav_status an_erode_trim_create(const arcnav_map *original, double radius,
                                   const an_allocator *alloc, an_erode_trim **out);
void an_erode_trim_destroy(an_erode_trim *trim);

/// The pieces of grown segment ab to keep, as parameter pairs (t0, t1) along it in increasing
/// order, in *kept (owned by `trim`, valid until the next call). Returns the number of pairs, or
/// SIZE_MAX when out of memory. The signature of an_navmesh_trim_fn.
size_t an_erode_trim_segment(void *trim, vec2 a, vec2 b, const double **kept);
