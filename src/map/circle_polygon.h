// SPDX-License-Identifier: MIT
#pragma once

// How a circle obstacle becomes a polygon wherever the library works with polygons only (the
// navmesh, the eroded map): the regular polygon with AN_NAVMESH_CIRCLE_SIDES sides circumscribed
// about the circle, so every path around the polygon clears the circle. It sits below the navmesh
// and the obstacle index so both can count and place the polygon's corners the same way.

#include "geom/geom.h"
#include "map/map.h"

#include <math.h>
#include <stddef.h>

#define AN_NAVMESH_CIRCLE_SIDES 64

/// Distance from a circle's centre to the corners of its circumscribed AN_NAVMESH_CIRCLE_SIDES-gon
/// (whose apothem is the radius).
static inline double an_navmesh_circle_corner_radius(double radius) {
  return radius / cos(AN_PI / AN_NAVMESH_CIRCLE_SIDES);
}

/// Corner k (0 <= k < AN_NAVMESH_CIRCLE_SIDES, counter-clockwise from angle 0) of the polygon that
/// stands for the circle (center, radius).
vec2 an_circle_polygon_vertex(vec2 center, double radius, int k);

/// Is p strictly inside the polygon that stands for the circle (center, radius)? The polygon is
/// convex: inside every side's half-plane, each side at the radius from the centre.
bool an_circle_polygon_contains(vec2 center, double radius, vec2 p);

/// Vertices of an obstacle's rings (a circle counts as the AN_NAVMESH_CIRCLE_SIDES of
/// its polygon).
size_t an_obstacle_vertices(const arcnav_map *map, const an_obstacle *ob);
