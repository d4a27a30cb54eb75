// SPDX-License-Identifier: MIT
// The funnel searches' per-thread query memory: creation sized from the mesh, the node pool that
// doubles when a query needs more, and the per-query stamps. The searches are in funnel.c.
#include "funnel/funnel_scratch.h"

#include "geom/alloc.h"
#include "search/marks.h"

#include <string.h>

/// Node ids are int32_t.
#define NODE_LIMIT ((size_t)INT32_MAX / 2)

/// Search nodes the optimal mode starts with: enough for the maps measured with room to spare;
/// a query that needs more grows the pool.
static size_t node_capacity_for(size_t tri_count) {
  size_t cap = 8 * tri_count + 1024;
  return cap > NODE_LIMIT ? NODE_LIMIT : cap;
}

void an_funnel_scratch_destroy(an_funnel_scratch *s) {
  if (!s) {
    return;
  }
  an_allocator a = s->alloc;
  an_free(&a, s->tri_stamp);
  an_free(&a, s->goal_mark);
  an_free(&a, s->g);
  an_free(&a, s->pos);
  an_free(&a, s->parent);
  an_free(&a, s->nodes);
  an_free(&a, s->cells);
  an_free(&a, s->vertex_stamp);
  an_free(&a, s->apex_best);
  an_heap_free(&s->heap, &a);
  an_free(&a, s->chain);
  an_free(&a, s->points);
  an_free(&a, s->starts);
  an_free(&a, s->near_stamp);
  an_free(&a, s->near_queue);
  an_free(&a, s);
}

arcnav_status an_funnel_scratch_create(const an_navmesh *mesh, const an_allocator *alloc,
                                       an_funnel_scratch **out) {
  if (!mesh) {
    return ARCNAV_ERR_INVALID_ARGUMENT;
  }
  return an_funnel_scratch_create_with_capacity(mesh, alloc, node_capacity_for(mesh->free_count),
                                                out);
}

arcnav_status an_funnel_scratch_create_with_capacity(const an_navmesh *mesh,
                                                     const an_allocator *alloc,
                                                     size_t node_capacity,
                                                     an_funnel_scratch **out) {
  if (!mesh || !alloc || !out) {
    return ARCNAV_ERR_INVALID_ARGUMENT;
  }
  *out = NULL;
  an_funnel_scratch *s = an_calloc(alloc, 1, sizeof *s);
  if (!s) {
    return ARCNAV_ERR_OUT_OF_MEMORY;
  }
  s->alloc = *alloc;
  s->mesh = mesh;
  s->tri_count = mesh->free_count;
  s->tri_total = mesh->free_count + AN_FUNNEL_VIRTUAL_MAX;
  s->vertex_count = mesh->cdt.point_count;
  size_t nt = s->tri_total + 1, nv = s->vertex_count + 1, ncdt = mesh->cdt.tri_count + 1;
  s->node_capacity = node_capacity < 1            ? 1
                     : node_capacity > NODE_LIMIT ? NODE_LIMIT
                                                  : node_capacity;
  // One cell per node but the roots, the start and its triangles' corners, one being tried; the
  // plain mode needs one per channel triangle and the same. Grown with the nodes when short.
  s->cell_capacity = s->node_capacity + 8;
  size_t heap_capacity = s->node_capacity > nt ? s->node_capacity : nt;
  s->tri_stamp = an_calloc(alloc, nt, sizeof *s->tri_stamp);
  s->goal_mark = an_calloc(alloc, nt, sizeof *s->goal_mark);
  s->g = an_alloc(alloc, nt, sizeof *s->g);
  s->pos = an_alloc(alloc, nt, sizeof *s->pos);
  s->parent = an_alloc(alloc, nt, sizeof *s->parent);
  s->nodes = an_alloc(alloc, s->node_capacity, sizeof *s->nodes);
  s->cells = an_alloc(alloc, s->cell_capacity, sizeof *s->cells);
  s->vertex_stamp = an_calloc(alloc, nv, sizeof *s->vertex_stamp);
  s->apex_best = an_alloc(alloc, nv, sizeof *s->apex_best);
  s->tri_room = nt;
  s->path_room = nt + 8;
  s->vertex_room = nv;
  s->near_room = ncdt;
  s->chain = an_alloc(alloc, s->path_room, sizeof *s->chain);
  s->points = an_alloc(alloc, s->path_room, sizeof *s->points);
  s->starts = an_alloc(alloc, nt, sizeof *s->starts);
  s->near_stamp = an_calloc(alloc, ncdt, sizeof *s->near_stamp);
  s->near_queue = an_alloc(alloc, ncdt, sizeof *s->near_queue);
  if (nt >= AN_HEAP_ABSENT ||
      an_heap_init_sized(&s->heap, heap_capacity, (uint32_t)nt, alloc) != ARCNAV_OK ||
      !s->tri_stamp || !s->goal_mark || !s->g || !s->pos || !s->parent || !s->nodes || !s->cells ||
      !s->vertex_stamp || !s->apex_best || !s->chain || !s->points || !s->starts ||
      !s->near_stamp || !s->near_queue) {
    an_funnel_scratch_destroy(s);
    return ARCNAV_ERR_OUT_OF_MEMORY;
  }
  *out = s;
  return ARCNAV_OK;
}

size_t an_funnel_scratch_memory_bytes(const an_funnel_scratch *s) {
  return sizeof *s +
         s->tri_room *
             (2 * sizeof(uint32_t) + sizeof(double) + sizeof(vec2) + 2 * sizeof(int32_t)) +
         s->node_capacity * sizeof(an_ta_node) + s->cell_capacity * sizeof(an_fn_cell) +
         s->vertex_room * (sizeof(uint32_t) + sizeof(double)) + an_heap_memory_bytes(&s->heap) +
         s->path_room * (sizeof(int32_t) + sizeof(vec2)) +
         s->near_room * (sizeof(uint32_t) + sizeof(int32_t));
}

arcnav_status an_funnel_scratch_renew(an_funnel_scratch *s, const an_navmesh *mesh) {
  if (!s || !mesh) {
    return ARCNAV_ERR_INVALID_ARGUMENT;
  }
  size_t tri_total = mesh->free_count + AN_FUNNEL_VIRTUAL_MAX, nt = tri_total + 1;
  an_room_array tris[] = {{(void **)&s->tri_stamp, sizeof *s->tri_stamp, true},
                          {(void **)&s->goal_mark, sizeof *s->goal_mark, true},
                          {(void **)&s->g, sizeof *s->g, false},
                          {(void **)&s->pos, sizeof *s->pos, false},
                          {(void **)&s->parent, sizeof *s->parent, false},
                          {(void **)&s->starts, sizeof *s->starts, false}};
  an_room_array paths[] = {{(void **)&s->chain, sizeof *s->chain, false},
                           {(void **)&s->points, sizeof *s->points, false}};
  an_room_array vertices[] = {{(void **)&s->vertex_stamp, sizeof *s->vertex_stamp, true},
                              {(void **)&s->apex_best, sizeof *s->apex_best, false}};
  an_room_array near[] = {{(void **)&s->near_stamp, sizeof *s->near_stamp, true},
                          {(void **)&s->near_queue, sizeof *s->near_queue, false}};
  if (nt >= AN_HEAP_ABSENT) {
    return ARCNAV_ERR_OUT_OF_MEMORY; // as an_funnel_scratch_create() refuses it
  }
  if (!an_room_for(&s->alloc, tris, 6, &s->tri_room, nt) ||
      !an_room_for(&s->alloc, paths, 2, &s->path_room, nt + 8) ||
      !an_room_for(&s->alloc, vertices, 2, &s->vertex_room, mesh->cdt.point_count + 1) ||
      !an_room_for(&s->alloc, near, 2, &s->near_room, mesh->cdt.tri_count + 1) ||
      !an_heap_renew_ids(&s->heap, (uint32_t)nt, &s->alloc) ||
      !an_heap_reserve(&s->heap, s->node_capacity > nt ? s->node_capacity : nt, &s->alloc)) {
    return ARCNAV_ERR_OUT_OF_MEMORY;
  }
  an_funnel_scratch kept = *s;
  memset(s, 0, sizeof *s);
  s->alloc = kept.alloc;
  s->mesh = mesh;
  s->tri_count = mesh->free_count;
  s->tri_total = tri_total;
  s->vertex_count = mesh->cdt.point_count;
  s->tri_room = kept.tri_room;
  s->path_room = kept.path_room;
  s->vertex_room = kept.vertex_room;
  s->near_room = kept.near_room;
  s->node_capacity = kept.node_capacity;
  s->cell_capacity = kept.cell_capacity;
  s->stamp = kept.stamp;
  s->tri_stamp = kept.tri_stamp;
  s->goal_mark = kept.goal_mark;
  s->g = kept.g;
  s->pos = kept.pos;
  s->parent = kept.parent;
  s->heap = kept.heap;
  s->nodes = kept.nodes;
  s->cells = kept.cells;
  s->vertex_stamp = kept.vertex_stamp;
  s->apex_best = kept.apex_best;
  s->chain = kept.chain;
  s->points = kept.points;
  s->starts = kept.starts;
  s->near_stamp = kept.near_stamp;
  s->near_mark = kept.near_mark;
  s->near_queue = kept.near_queue;
  // The old mesh's marks hold stamps up to `stamp`; each search begins with a stamp above them.
  return ARCNAV_OK;
}

/// Doubles an array of `*capacity` elements (`used` live) to hold at least `needed`.
static bool grow_array(const an_allocator *alloc, void **array, size_t *capacity, size_t used,
                       size_t needed, size_t limit, size_t size) {
  size_t grown = *capacity;
  while (grown < needed) {
    grown = grown > limit / 2 ? limit : 2 * grown;
    if (grown < needed && grown == limit) {
      return false;
    }
  }
  void *fresh = an_alloc(alloc, grown, size);
  if (!fresh) {
    return false;
  }
  if (used) {
    memcpy(fresh, *array, used * size);
  }
  an_free(alloc, *array);
  *array = fresh;
  *capacity = grown;
  return true;
}

bool an_funnel_grow_pool(an_funnel_scratch *s, size_t nodes, size_t cells) {
  return (s->node_count + nodes <= s->node_capacity ||
          grow_array(&s->alloc, (void **)&s->nodes, &s->node_capacity, s->node_count,
                     s->node_count + nodes, NODE_LIMIT, sizeof *s->nodes)) &&
         (s->cell_count + cells <= s->cell_capacity ||
          grow_array(&s->alloc, (void **)&s->cells, &s->cell_capacity, s->cell_count,
                     s->cell_count + cells, SIZE_MAX / sizeof *s->cells, sizeof *s->cells)) &&
         an_heap_reserve(&s->heap, s->heap.size + nodes, &s->alloc);
}

void an_funnel_next_stamp(an_funnel_scratch *s) {
  if (an_stamp_next(&s->stamp)) {
    memset(s->tri_stamp, 0, s->tri_room * sizeof *s->tri_stamp);
    memset(s->goal_mark, 0, s->tri_room * sizeof *s->goal_mark);
    memset(s->vertex_stamp, 0, s->vertex_room * sizeof *s->vertex_stamp);
  }
}
