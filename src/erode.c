// SPDX-License-Identifier: MIT
#include "erode.h"

#include "geom.h"
#include "navmesh.h"

#include <math.h>
#include <string.h>

// A corner gives at most this many grown vertices (the three-vertex reflex join).
#define MAX_PER_CORNER 3

// Below this value of 1 + cos(turn), a reflex miter runs so far along the bisector that the
// three-vertex join is used instead.
#define REFLEX_MITER_MIN 1e-3

static size_t push(vec2 *out, size_t n, vec2 p) {
  if (n > 0 && out[n - 1].x == p.x && out[n - 1].y == p.y) {
    return n;
  }
  out[n] = p;
  return n + 1;
}

/// Grow one ring (material on the left of its edges) by r into out (room for MAX_PER_CORNER
/// vertices per input vertex); returns the number of vertices written.
static size_t grow_ring(const arcnav_map *map, const an_ring *ring, double r, vec2 *out) {
  size_t count = ring->count, n = 0;
  for (size_t i = 0; i < count; ++i) {
    vec2 prev = an_ring_vertex(map, ring, i + count - 1);
    vec2 v = an_ring_vertex(map, ring, i);
    vec2 next = an_ring_vertex(map, ring, i + 1);
    vec2 e0 = v2_sub(v, prev), e1 = v2_sub(next, v);
    double len0 = v2_len(e0), len1 = v2_len(e1);
    vec2 d0 = v2_scale(e0, 1.0 / len0), d1 = v2_scale(e1, 1.0 / len1);
    // Right-hand normals point away from the material.
    vec2 n0 = v2(d0.y, -d0.x), n1 = v2(d1.y, -d1.x);
    double cross = v2_cross(d0, d1), dot = v2_dot(d0, d1);
    vec2 miter = v2_add(v, v2_scale(v2_add(n0, n1), r / (1.0 + dot)));
    if (cross > 0.0 || (cross == 0.0 && dot > 0.0)) {
      if (dot >= 0.0) {
        n = push(out, n, miter);
        continue;
      }
      // Square bevel: both moved edges cut by the line at distance r across the bisector b.
      vec2 b = v2_normalize(v2_sub(d0, d1));
      double t0 = r * (1.0 - v2_dot(n0, b)) / v2_dot(d0, b);
      double t1 = r * (1.0 - v2_dot(n1, b)) / v2_dot(d1, b);
      n = push(out, n, v2_add(v, v2_add(v2_scale(n0, r), v2_scale(d0, t0))));
      n = push(out, n, v2_add(v, v2_add(v2_scale(n1, r), v2_scale(d1, t1))));
      continue;
    }
    // Reflex: the miter cuts r * tan(turn / 2) off each moved edge. Keeping that within half an
    // edge stops neighbouring miters from turning an edge inside out.
    double trim = 1.0 + dot > REFLEX_MITER_MIN ? r * fabs(cross) / (1.0 + dot) : INFINITY;
    if (trim <= 0.5 * an_min(len0, len1)) {
      n = push(out, n, miter);
    } else {
      n = push(out, n, v2_add(v, v2_scale(n0, r)));
      n = push(out, n, v);
      n = push(out, n, v2_add(v, v2_scale(n1, r)));
    }
  }
  while (n > 1 && out[n - 1].x == out[0].x && out[n - 1].y == out[0].y) {
    --n;
  }
  if (n < 3) {
    // Cannot happen for a valid ring and r > 0; keep the ring as it was rather than lose it.
    for (n = 0; n < count; ++n) {
      out[n] = an_ring_vertex(map, ring, n);
    }
  }
  return n;
}

static size_t circle_ring(vec2 center, double radius, vec2 *out) {
  // Circumscribed polygon: the apothem equals the radius.
  double corner = an_navmesh_circle_corner_radius(radius);
  for (int k = 0; k < AN_NAVMESH_CIRCLE_SIDES; ++k) {
    out[k] = an_circle_point(center, corner, AN_TWO_PI * (double)k / AN_NAVMESH_CIRCLE_SIDES);
  }
  return AN_NAVMESH_CIRCLE_SIDES;
}

static void widen_box(const vec2 *points, size_t count, vec2 *lo, vec2 *hi) {
  for (size_t i = 0; i < count; ++i) {
    *lo = v2(an_min(lo->x, points[i].x), an_min(lo->y, points[i].y));
    *hi = v2(an_max(hi->x, points[i].x), an_max(hi->y, points[i].y));
  }
}

arcnav_status an_erode_map(const arcnav_map *map, double radius, arcnav_map **out) {
  *out = NULL;
  // Growth past the size of the map changes nothing (every point of the navmesh box is then
  // covered) but costs precision: 1e34 + 14.5 is 1e34. Clamp it.
  arcnav_vec2 lo = {0.0, 0.0}, hi = {0.0, 0.0};
  arcnav_map_extent(map, &lo, &hi);
  radius = an_min(radius, 10.0 * (an_max(hi.x - lo.x, hi.y - lo.y) + 1.0));
  size_t point_room = 0, ring_room = 0;
  for (size_t o = 0; o < map->obstacle_count; ++o) {
    const an_obstacle *ob = &map->obstacles[o];
    if (ob->kind == AN_OBSTACLE_CIRCLE) {
      point_room += AN_NAVMESH_CIRCLE_SIDES;
      ring_room += 1;
      continue;
    }
    for (uint32_t r = 0; r < ob->ring_count; ++r) {
      point_room += MAX_PER_CORNER * (size_t)map->rings[ob->first_ring + r].count;
    }
    ring_room += ob->ring_count;
  }
  if (point_room >= UINT32_MAX || ring_room >= UINT32_MAX) {
    return ARCNAV_ERR_TOO_LARGE;
  }
  const an_allocator *alloc = &map->alloc;
  arcnav_map *grown = an_calloc(alloc, 1, sizeof *grown);
  if (!grown) {
    return ARCNAV_ERR_OUT_OF_MEMORY;
  }
  grown->alloc = map->alloc;
  bool ok = true;
  if (point_room > 0) {
    grown->points = an_alloc(alloc, point_room, sizeof *grown->points);
    grown->rings = an_alloc(alloc, ring_room, sizeof *grown->rings);
    grown->obstacles = an_alloc(alloc, map->obstacle_count, sizeof *grown->obstacles);
    ok = grown->points && grown->rings && grown->obstacles;
    grown->point_capacity = point_room;
    grown->ring_capacity = ring_room;
    grown->obstacle_capacity = map->obstacle_count;
  }
  if (ok && map->has_bounds) {
    grown->bounds_points =
        an_alloc(alloc, MAX_PER_CORNER * (size_t)map->bounds.count, sizeof *grown->bounds_points);
    ok = grown->bounds_points != NULL;
  }
  if (!ok) {
    arcnav_map_destroy(grown);
    return ARCNAV_ERR_OUT_OF_MEMORY;
  }
  for (size_t o = 0; o < map->obstacle_count; ++o) {
    const an_obstacle *ob = &map->obstacles[o];
    an_obstacle *g = &grown->obstacles[grown->obstacle_count++];
    memset(g, 0, sizeof *g);
    g->kind = AN_OBSTACLE_POLYGON;
    g->first_ring = (uint32_t)grown->ring_count;
    g->box_min = v2(INFINITY, INFINITY);
    g->box_max = v2(-INFINITY, -INFINITY);
    uint32_t ring_count = ob->kind == AN_OBSTACLE_CIRCLE ? 1 : ob->ring_count;
    for (uint32_t r = 0; r < ring_count; ++r) {
      vec2 *dst = grown->points + grown->point_count;
      size_t n = ob->kind == AN_OBSTACLE_CIRCLE
                     ? circle_ring(ob->center, ob->radius + radius, dst)
                     : grow_ring(map, &map->rings[ob->first_ring + r], radius, dst);
      grown->rings[grown->ring_count++] = (an_ring){.first = (uint32_t)grown->point_count,
                                                    .count = (uint32_t)n,
                                                    .obstacle = (int32_t)o,
                                                    .role = r == 0 ? AN_RING_OUTER : AN_RING_HOLE};
      grown->point_count += n;
      widen_box(dst, n, &g->box_min, &g->box_max);
    }
    g->ring_count = ring_count;
  }
  if (map->has_bounds) {
    size_t n = grow_ring(map, &map->bounds, radius, grown->bounds_points);
    grown->has_bounds = true;
    grown->bounds =
        (an_ring){.first = 0, .count = (uint32_t)n, .obstacle = -1, .role = AN_RING_BOUNDS};
  }
  *out = grown;
  return ARCNAV_OK;
}
