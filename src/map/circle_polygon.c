// SPDX-License-Identifier: MIT
// The corners of a circle obstacle's polygon, and an obstacle's vertex count with a circle counted
// as that polygon (see circle_polygon.h).
#include "map/circle_polygon.h"

vec2 an_circle_polygon_vertex(vec2 center, double radius, int k) {
  // Circumscribed polygon: the apothem equals the radius.
  double r = an_navmesh_circle_corner_radius(radius);
  double angle = AN_TWO_PI * (double)k / AN_NAVMESH_CIRCLE_SIDES;
  return an_circle_point(center, r, angle);
}

size_t an_obstacle_vertices(const arcnav_map *map, const an_obstacle *ob) {
  if (ob->kind == AN_OBSTACLE_CIRCLE) {
    return AN_NAVMESH_CIRCLE_SIDES;
  }
  size_t total = 0;
  for (uint32_t r = 0; r < ob->ring_count; ++r) {
    total += map->rings[ob->first_ring + r].count;
  }
  return total;
}

bool an_circle_polygon_contains(vec2 center, double radius, vec2 p) {
  vec2 d = v2_sub(p, center);
  for (int k = 0; k < AN_NAVMESH_CIRCLE_SIDES; ++k) {
    double angle = AN_TWO_PI * ((double)k + 0.5) / AN_NAVMESH_CIRCLE_SIDES;
    if (v2_dot(d, v2_from_angle(angle)) >= radius) {
      return false;
    }
  }
  return true;
}
