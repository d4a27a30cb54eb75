// SPDX-License-Identifier: MIT
#pragma once

// The funnel searches' per-thread query memory: its layout, shared by the searches in funnel.c
// and the memory management in funnel_scratch.c.

#include "arcnav/arcnav.h"
#include "geom/alloc.h"
#include "geom/geom.h"
#include "mesh/navmesh.h"
#include "search/heap.h"

#include <stdint.h>

typedef struct an_funnel_scratch an_funnel_scratch;

/// Per-thread query memory for one mesh, sized at creation so that queries allocate nothing, with
/// one exception: the optimal search's pool of nodes (and their funnel cells and heap entries)
/// starts at 8 per triangle + 1024, enough for the maps measured, and a query that needs more
/// doubles it through `alloc` (kept for later queries). That growth is the only allocation a
/// query can make; when it fails the query returns ARCNAV_ERR_OUT_OF_MEMORY and the scratch stays
/// usable.
arcnav_status an_funnel_scratch_create(const an_navmesh *mesh, const an_allocator *alloc,
                                       an_funnel_scratch **out);
/// an_funnel_scratch_create() with a chosen initial node pool (at least 1): tests start it tiny to
/// make queries grow it.
arcnav_status an_funnel_scratch_create_with_capacity(const an_navmesh *mesh,
                                                     const an_allocator *alloc,
                                                     size_t node_capacity, an_funnel_scratch **out);
/// Makes a scratch made for another mesh (a local update's predecessor of `mesh`, or any) the one
/// an_funnel_scratch_create() would make for `mesh`, keeping its memory where it has room (each
/// table by triangle, vertex or triangulation triangle grows by an eighth more when short; the
/// node pool and the stamps are kept; docs/DESIGN.md, "A query object renewed").
/// @return ARCNAV_OK, or ARCNAV_ERR_OUT_OF_MEMORY (the scratch may then only be renewed again or
///         destroyed).
arcnav_status an_funnel_scratch_renew(an_funnel_scratch *scratch, const an_navmesh *mesh);
void an_funnel_scratch_destroy(an_funnel_scratch *scratch);
/// Heap bytes held by the scratch.
size_t an_funnel_scratch_memory_bytes(const an_funnel_scratch *scratch);

/// A corner of a shortest path inside a channel: the path from the start to `vertex` ends with
/// the segment from `prev`. Channels that share a prefix share its cells, so the whole funnel of
/// a channel is three cells (the apex and the two portal ends): each chain is the path from a
/// portal end back to the apex.
typedef struct an_fn_cell {
  int32_t vertex; ///< cdt point, or -1 for the start
  int32_t prev;   ///< the cell before it on the path, -1 for the start
  int32_t jump;   ///< an earlier cell on the path (skew-binary jump pointer)
  int32_t depth;  ///< cells before it on the path
  double dist;    ///< path length from the start
} an_fn_cell;

typedef struct an_fn_funnel {
  int32_t apex, left, right; ///< cells; left and right are the ends of the last portal
} an_fn_funnel;

typedef struct an_ta_node {
  int32_t tri;         ///< free triangle
  int32_t parent;      ///< node index, -1 for the root
  int32_t jump;        ///< an ancestor node (skew-binary jump pointer)
  int32_t depth;       ///< portals crossed
  int32_t same_tri;    ///< the previous node of this query in the same triangle, -1
  an_fn_funnel funnel; ///< after the entry portal (unused for the root)
  uint64_t signature;  ///< bit (tri mod 64) for every triangle of the chain: a quick "not in chain"
} an_ta_node;

/// Triangles a query adds beyond the box of a map without bounds: at most two box edges face a
/// point, for the start and for the goal.
#define AN_FUNNEL_VIRTUAL_MAX 4

struct an_funnel_scratch {
  an_allocator alloc;
  const an_navmesh *mesh;
  size_t tri_count;    ///< the mesh's free triangles; the query's own ones follow them
  size_t tri_total;    ///< tri_count + AN_FUNNEL_VIRTUAL_MAX
  size_t vertex_count; ///< the mesh's points (the start and goal beyond the box are -1 and -2)
  /// The entries each group of tables holds (an_room_for): by triangle (tri_total + 1), along a
  /// channel (chain, points: tri_total + 9), by vertex (vertex_count + 1), by triangulation
  /// triangle; the count or more once renewed. A stamp's wrap clears the whole room.
  size_t tri_room, path_room, vertex_room, near_room;
  size_t node_capacity, cell_capacity;
  uint32_t stamp;
  vec2 start;
  // Per triangle (the mesh's and the query's). Plain A*: all of them; optimal search: tri_stamp
  // and, in `parent`, the last node created in the triangle. goal_mark: the goal's triangles.
  uint32_t *tri_stamp;
  uint32_t *goal_mark;
  double *g;
  vec2 *pos;
  int32_t *parent;
  // Plain A*: indexed by triangle, with keys updated. Optimal search: a queue of nodes, grown by
  // doubling with the pool of nodes and cells when a query needs more.
  an_heap heap;
  // Optimal search. The pool of nodes and cells grows by doubling when a query needs more.
  an_ta_node *nodes;
  size_t node_count;
  an_fn_cell *cells;
  size_t cell_count;
  uint32_t *vertex_stamp;
  double *apex_best; ///< per vertex: shortest funnel length to it as an apex in this query
  int32_t *chain;    ///< plain mode: the channel's triangles, goal first
  vec2 *points;
  // The start's triangles (the triangles within eps of it, or its fan beyond the box).
  int32_t *starts;
  size_t start_count;
  // Finding the triangles within eps of a point: per cdt triangle a stamp, and a queue.
  uint32_t *near_stamp;
  uint32_t near_mark;
  int32_t *near_queue;
  // The query's triangles beyond the box: fan triangles (p, b, a) on box edges ab that face p.
  size_t virtual_count;
  int32_t vfv[3 * AN_FUNNEL_VIRTUAL_MAX], vfn[3 * AN_FUNNEL_VIRTUAL_MAX];
  vec2 vpoint[2];      ///< vertices -1 (the start: its cells are the start's) and -2 (the goal)
  int32_t goal_single; ///< the goal's only triangle, or -1 when it has several (goal_mark)
  int32_t goal_last;   ///< the goal's triangles so far: the last one marked, and how many
  size_t goal_count;
  int32_t goal_fan[4]; ///< per box edge: the goal's fan triangle on it, or -1
  bool goal_fan_used;  ///< some goal_fan[e] >= 0
  // The running search (an_funnel_begin): its goal and kind, the optimal search's best channel to
  // the goal so far (its node and last portal), and for the best path so far the place reached
  // nearest the goal: a triangle (plain: with its entry point then, near_point) or a cell
  // (optimal: an apex), -1 for none nearer than the start.
  vec2 goal;
  bool optimal, usual;
  double best;
  int32_t best_node, best_l, best_r;
  int32_t near;
  vec2 near_point;
  double near_distance;
};

bool an_funnel_grow_pool(an_funnel_scratch *s, size_t nodes, size_t cells);

/// Room for `nodes` more nodes and `cells` more cells, growing the pool when short (the only
/// allocation a query makes). false when that fails.
static inline bool an_funnel_pool_room(an_funnel_scratch *s, size_t nodes, size_t cells) {
  return (s->node_count + nodes <= s->node_capacity && s->cell_count + cells <= s->cell_capacity &&
          s->heap.size + nodes <= s->heap.capacity) ||
         an_funnel_grow_pool(s, nodes, cells);
}

/// A fresh stamp for a query's per-triangle and per-vertex marks (cleared when the stamp wraps).
void an_funnel_next_stamp(an_funnel_scratch *s);
