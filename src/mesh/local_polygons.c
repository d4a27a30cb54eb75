// SPDX-License-Identifier: MIT
// The polygons a triangulation took in locally (local_polygons.h).
#include "mesh/local_polygons.h"

#include <string.h>

static size_t find(const an_local_polygons *set, arcnav_obstacle_id id) {
  size_t k = 0;
  while (k < set->count && set->items[k].id != id) {
    ++k;
  }
  return k;
}

bool an_local_polygons_has(const an_local_polygons *set, arcnav_obstacle_id id) {
  return find(set, id) < set->count;
}

static size_t point_count(const an_local_polygon *polygon) {
  size_t points = 0;
  for (size_t r = 0; r < polygon->ring_count; ++r) {
    points += polygon->ring_counts[r];
  }
  return points;
}

static void free_polygon(an_local_polygon *polygon, const an_allocator *alloc) {
  an_free(alloc, polygon->ring_counts);
  an_free(alloc, polygon->vertices);
  *polygon = (an_local_polygon){0};
}

arcnav_status an_local_polygons_copy(const an_local_polygons *from, an_local_polygons *to,
                                     const an_allocator *alloc) {
  *to = (an_local_polygons){0};
  if (from->count == 0) {
    return ARCNAV_OK;
  }
  to->items = an_calloc(alloc, from->count, sizeof *to->items);
  if (!to->items) {
    return ARCNAV_ERR_OUT_OF_MEMORY;
  }
  to->capacity = from->count;
  for (size_t k = 0; k < from->count; ++k) {
    const an_local_polygon *polygon = &from->items[k];
    an_local_polygon *copy = &to->items[to->count++];
    *copy = (an_local_polygon){.id = polygon->id, .ring_count = polygon->ring_count};
    copy->ring_counts =
        an_duplicate(alloc, polygon->ring_counts, polygon->ring_count, sizeof *copy->ring_counts);
    copy->vertices =
        an_duplicate(alloc, polygon->vertices, point_count(polygon), sizeof *copy->vertices);
    if (!copy->ring_counts || !copy->vertices) {
      an_local_polygons_free(to, alloc);
      return ARCNAV_ERR_OUT_OF_MEMORY;
    }
  }
  return ARCNAV_OK;
}

// A record of polygon `index` of the map under `id`, its mesh vertices yet to be given, and its
// points one ring after the other in *out_points (on failure nothing to free).
static arcnav_status describe_polygon(const arcnav_map *map, size_t index, arcnav_obstacle_id id,
                                      const an_allocator *alloc, an_local_polygon *out,
                                      vec2 **out_points) {
  const an_obstacle *ob = &map->obstacles[index];
  size_t count = 0;
  for (uint32_t r = 0; r < ob->ring_count; ++r) {
    count += map->rings[ob->first_ring + r].count;
  }
  *out = (an_local_polygon){.id = id, .ring_count = ob->ring_count};
  out->ring_counts = an_alloc(alloc, ob->ring_count, sizeof *out->ring_counts);
  out->vertices = an_alloc(alloc, count, sizeof *out->vertices);
  vec2 *points = an_alloc(alloc, count, sizeof *points);
  if (!out->ring_counts || !out->vertices || !points) {
    free_polygon(out, alloc);
    an_free(alloc, points);
    return ARCNAV_ERR_OUT_OF_MEMORY;
  }
  size_t n = 0;
  for (uint32_t r = 0; r < ob->ring_count; ++r) {
    const an_ring *ring = &map->rings[ob->first_ring + r];
    out->ring_counts[r] = (uint32_t)ring->count;
    for (size_t k = 0; k < ring->count; ++k) {
      points[n++] = an_ring_vertex(map, ring, k);
    }
  }
  *out_points = points;
  return ARCNAV_OK;
}

// A record of the polygon the mesh was built with whose edges `built` gives (the grid keeps an
// obstacle's rings one after the other, each edge's item naming the next one's), under `id`, its
// vertices found in the mesh: ARCNAV_ERR_INVALID_ARGUMENT when the edges are not a polygon's or
// the mesh does not hold it as a change would have put it in (nothing to free then).
static arcnav_status find_built_polygon(const an_navmesh *mesh, const an_built_edges *built,
                                        arcnav_obstacle_id id, const an_allocator *alloc,
                                        an_local_polygon *out) {
  *out = (an_local_polygon){.id = id};
  size_t count = built->count, rings = 0;
  for (size_t k = 0; k < count; ++k) {
    const an_item *item = &built->items[k];
    if (item->kind != AN_ITEM_EDGE) {
      return ARCNAV_ERR_INVALID_ARGUMENT;
    }
    rings += item->after_offset <= 0; // a ring's last edge leads back to its first
  }
  if (count == 0 || rings == 0) {
    return ARCNAV_ERR_INVALID_ARGUMENT;
  }
  out->ring_count = rings;
  out->ring_counts = an_alloc(alloc, rings, sizeof *out->ring_counts);
  out->vertices = an_alloc(alloc, count, sizeof *out->vertices);
  vec2 *points = an_alloc(alloc, count, sizeof *points);
  arcnav_status status =
      out->ring_counts && out->vertices && points ? ARCNAV_OK : ARCNAV_ERR_OUT_OF_MEMORY;
  for (size_t k = 0, ring = 0, first = 0; status == ARCNAV_OK && k < count; ++k) {
    const an_item *item = &built->items[k];
    points[k] = item->a;
    if (item->after_offset <= 0) {
      if ((int64_t)k + item->after_offset != (int64_t)first) {
        status = ARCNAV_ERR_INVALID_ARGUMENT; // not a ring of the items before it
      }
      out->ring_counts[ring++] = (uint32_t)(k + 1 - first);
      first = k + 1;
    } else if (item->after_offset != 1) {
      status = ARCNAV_ERR_INVALID_ARGUMENT;
    }
  }
  if (status == ARCNAV_OK && out->ring_counts[rings - 1] == 0) {
    status = ARCNAV_ERR_INVALID_ARGUMENT; // edges past the last ring's
  }
  if (status == ARCNAV_OK) {
    an_navmesh_rings shape = {out->ring_counts, out->ring_count, NULL};
    status = an_navmesh_find_polygon(mesh, points, &shape, out->vertices);
  }
  an_free(alloc, points);
  if (status != ARCNAV_OK) {
    free_polygon(out, alloc);
  }
  return status;
}

arcnav_status an_local_polygons_change(an_local_polygons *set, an_navmesh *mesh,
                                       const arcnav_map *map, arcnav_obstacle_id id, bool out,
                                       bool in, size_t index, const an_built_edges *built,
                                       const an_allocator *alloc) {
  size_t k = out ? find(set, id) : set->count;
  bool from_build = out && k == set->count;
  if ((from_build && (!built || built->count == 0)) || (!out && !in)) {
    return ARCNAV_ERR_INVALID_ARGUMENT;
  }
  if ((!out || (from_build && in)) && !an_reserve(alloc, (void **)&set->items, &set->capacity,
                                                  set->count, set->count + 1, sizeof *set->items)) {
    return ARCNAV_ERR_OUT_OF_MEMORY;
  }
  an_local_polygon as_built = {0};
  arcnav_status status =
      from_build ? find_built_polygon(mesh, built, id, alloc, &as_built) : ARCNAV_OK;
  an_local_polygon fresh = {0};
  vec2 *points = NULL;
  if (status == ARCNAV_OK && in) {
    status = describe_polygon(map, index, id, alloc, &fresh, &points);
  }
  if (status == ARCNAV_OK) {
    const an_local_polygon *old = !out ? NULL : from_build ? &as_built : &set->items[k];
    an_navmesh_rings gone = {old ? old->ring_counts : NULL, old ? old->ring_count : 0,
                             old ? old->vertices : NULL};
    an_navmesh_rings added = {fresh.ring_counts, fresh.ring_count, NULL};
    status = an_navmesh_change_polygon(mesh, old ? &gone : NULL, points, in ? &added : NULL,
                                       fresh.vertices);
  }
  an_free(alloc, points);
  free_polygon(&as_built, alloc);
  if (status != ARCNAV_OK) {
    free_polygon(&fresh, alloc);
    return status;
  }
  // The set's record of the polygon taken out goes; the one put in takes its place, or comes last.
  if (out && !from_build) {
    free_polygon(&set->items[k], alloc);
    if (!in) {
      set->items[k] = set->items[--set->count];
    }
  }
  if (in) {
    set->items[k] = fresh;
    set->count += k == set->count;
  }
  return ARCNAV_OK;
}

void an_local_polygons_free(an_local_polygons *set, const an_allocator *alloc) {
  for (size_t k = 0; k < set->count; ++k) {
    free_polygon(&set->items[k], alloc);
  }
  an_free(alloc, set->items);
  *set = (an_local_polygons){0};
}
