// SPDX-License-Identifier: MIT
#pragma once

// Winding numbers of rings about points. The plain count walks every edge; a ring with many
// vertices gets an index instead, so that labelling the many faces of a triangulation inside a
// large polygon costs the edges near each point's horizontal ray, not the whole ring each time.

#include "geom/alloc.h"
#include "index/cell_buckets.h"
#include "map/map.h"

#include <stdbool.h>
#include <stdint.h>

/// Winding number of the ring about p: +1 inside a simple counter-clockwise ring, -1 inside a
/// clockwise one, 0 outside; self-crossing rings count every loop. Edges cross the horizontal ray
/// from p to the right with the half-open rule (an edge counts when one end is at or below p.y
/// and the other above), decided by the sign of an orientation, so a point exactly on the ring
/// gets either neighbouring count.
int an_ring_winding(const arcnav_map *map, const an_ring *ring, vec2 p);

/// The ring's non-horizontal edges filed in a grid over its box, each in every cell its segment
/// passes within half a cell of. The crossings of a ray lie in the cells of the ray's row.
typedef struct an_ring_winding_index {
  vec2 lo, hi; ///< the ring's box
  double cell_w, cell_h;
  int32_t grid_w, grid_h;
  /// Per cell (grid_w * grid_h), its edges: edge i runs from ring vertex i to i + 1.
  an_cell_table cells;
  uint32_t *seen; ///< per edge: the query that last tested it
  uint32_t query;
} an_ring_winding_index;

/// Builds the index of `ring` (a zeroed *out needs no freeing on failure).
/// @return ARCNAV_OK, ARCNAV_ERR_OUT_OF_MEMORY, or ARCNAV_ERR_TOO_LARGE when the filed edges
/// would not fit 32-bit offsets.
arcnav_status an_ring_winding_index_build(const arcnav_map *map, const an_ring *ring,
                                          const an_allocator *alloc, an_ring_winding_index *out);
void an_ring_winding_index_free(an_ring_winding_index *index, const an_allocator *alloc);

/// an_ring_winding() through the index: the same count, edge for edge. Not thread-safe (it marks
/// the edges it has tested).
int an_ring_winding_indexed(an_ring_winding_index *index, const arcnav_map *map,
                            const an_ring *ring, vec2 p);
