// SPDX-License-Identifier: MIT
#include "tangent/inflate.h"

#include <assert.h>
#include <string.h>

static size_t count_ring_corners(const arcnav_map *map, const an_ring *ring) {
  size_t count = 0;
  for (size_t i = 0; i < ring->count; ++i) {
    vec2 prev = an_ring_vertex(map, ring, i + ring->count - 1);
    vec2 here = an_ring_vertex(map, ring, i);
    vec2 next = an_ring_vertex(map, ring, i + 1);
    if (v2_cross(v2_sub(here, prev), v2_sub(next, here)) > 0.0) {
      ++count;
    }
  }
  return count;
}

// Material lies left of every stored edge, so a left turn is a corner the free space wraps around.
// Its wedge runs counter-clockwise from the incoming edge's right normal to the outgoing one's.
static size_t add_ring_corners(const arcnav_map *map, const an_ring *ring, double radius,
                               an_corner *out) {
  size_t count = 0;
  for (size_t i = 0; i < ring->count; ++i) {
    vec2 prev = an_ring_vertex(map, ring, i + ring->count - 1);
    vec2 here = an_ring_vertex(map, ring, i);
    vec2 next = an_ring_vertex(map, ring, i + 1);
    vec2 incoming = v2_sub(here, prev), outgoing = v2_sub(next, here);
    double turn = v2_cross(incoming, outgoing);
    if (turn <= 0.0) {
      continue;
    }
    vec2 normal_in = v2_normalize(v2(incoming.y, -incoming.x));
    vec2 normal_out = v2_normalize(v2(outgoing.y, -outgoing.x));
    out[count++] = (an_corner){
        .center = here,
        .radius = radius,
        .wedge_start = an_wrap_angle(v2_angle(normal_in)),
        .wedge_sweep = atan2(turn, v2_dot(incoming, outgoing)),
        .normal_start = normal_in,
        .normal_end = normal_out,
        .obstacle = ring->obstacle,
    };
    // Only convex turns make corners: a path never bends round a reflex vertex.
    assert(out[count - 1].wedge_sweep > 0.0 && out[count - 1].wedge_sweep < AN_TWO_PI);
  }
  return count;
}

size_t an_obstacle_corner_room(const arcnav_map *map, size_t index) {
  const an_obstacle *ob = &map->obstacles[index];
  if (ob->kind == AN_OBSTACLE_CIRCLE) {
    return 1;
  }
  size_t count = 0;
  for (uint32_t r = 0; r < ob->ring_count; ++r) {
    count += count_ring_corners(map, &map->rings[ob->first_ring + r]);
  }
  return count;
}

size_t an_inflate_obstacle_corners(const arcnav_map *map, size_t index, double radius,
                                   an_corner *out) {
  const an_obstacle *ob = &map->obstacles[index];
  if (ob->kind == AN_OBSTACLE_CIRCLE) {
    out[0] = (an_corner){.center = ob->center,
                         .radius = ob->radius + radius,
                         .wedge_start = 0.0,
                         .wedge_sweep = AN_TWO_PI,
                         .normal_start = v2(1.0, 0.0),
                         .normal_end = v2(1.0, 0.0),
                         .obstacle = (int32_t)index};
    return 1;
  }
  size_t count = 0;
  for (uint32_t r = 0; r < ob->ring_count; ++r) {
    count += add_ring_corners(map, &map->rings[ob->first_ring + r], radius, out + count);
  }
  return count;
}

arcnav_status an_inflate_corners(const arcnav_map *map, double radius, const an_allocator *alloc,
                                 an_corner **out_corners, size_t *out_count) {
  *out_corners = NULL;
  *out_count = 0;
  size_t total = map->has_bounds ? count_ring_corners(map, &map->bounds) : 0;
  for (size_t o = 0; o < map->obstacle_count; ++o) {
    total += an_obstacle_corner_room(map, o);
  }
  if (total == 0) {
    return ARCNAV_OK;
  }
  an_corner *corners = an_alloc(alloc, total, sizeof *corners);
  if (!corners) {
    return ARCNAV_ERR_OUT_OF_MEMORY;
  }
  size_t count = 0;
  for (size_t o = 0; o < map->obstacle_count; ++o) {
    count += an_inflate_obstacle_corners(map, o, radius, corners + count);
  }
  if (map->has_bounds) {
    count += add_ring_corners(map, &map->bounds, radius, corners + count);
  }
  *out_corners = corners;
  *out_count = count;
  return ARCNAV_OK;
}

// Corners from the first changed on, at most this many, have their cells marked in the tables
// carried over (an_carried_few_changed()).
#define CARRIED_MARKED_MAX 256

bool an_carried_few_changed(const an_carried_corners *carried, size_t *first_changed) {
  size_t c = carried->first_changed;
  *first_changed = c;
  return c < carried->previous_count && carried->previous_count - c <= CARRIED_MARKED_MAX;
}
