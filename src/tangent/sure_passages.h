// SPDX-License-Identifier: MIT
#pragma once

// Passages a disk surely gets through, for every radius at once: the lower bound beside the
// passage forest's upper bound (an_navmesh_passage_width()). docs/DESIGN.md, "Reachability
// without a search", gives the reasoning.
//
// The nodes are the midpoints of the portals of the polygons' triangulation; two portals of one
// free triangle are linked, as wide as the clearance of the segment between their midpoints (the
// distance to the nearest obstacle piece of the grid, circles and units included, capped at the
// radius the grid was filed for). A disk of radius R whose two ends each see, along a free
// segment, the midpoint of a portal of a triangle holding them, and whose midpoints a chain of
// links at least R - eps wide joins, can go from one end to the other: every piece of that
// polyline passes the free test of every engine.

#include "geom/alloc.h"
#include "geom/geom.h"
#include "index/clearance.h"
#include "index/grid.h"
#include "mesh/navmesh.h"
#include "search/widest_forest.h"

#include <stdbool.h>

typedef struct an_sure_passages {
  const an_navmesh *mesh; ///< borrowed: the polygons' triangulation
  /// Per free triangle: the number of the first portal it owns. A portal belongs to
  /// the lower-numbered of its two triangles, which numbers its own in the order of its edges.
  uint32_t *portal_first;
  /// Per free triangle, 3 each: the width of the link from the portal across edge i to the one
  /// across edge i + 1, rounded down to a float (NaN: no link), kept for a build after a local
  /// change to carry over (an_sure_carry).
  float *link_width;
  an_widest_forest forest; ///< over the portals
} an_sure_passages;

/// What a build after a local change may carry over: the passages of the mesh before it (whose
/// mesh and grid are still alive), and a box holding the material the change took away or put
/// in. A triangle the change left as it was (an_navmesh_kept_triangles()) keeps its links' widths
/// when it does not meet that box grown by the cap: no item that changed comes near enough to
/// change them.
typedef struct an_sure_carry {
  const an_sure_passages *previous;
  vec2 lo, hi;
} an_sure_carry;

/// Builds the links of `mesh`'s portals, their widths measured against `grid`'s items, capped at
/// `cap` (at most the reach the grid was filed for), or carried over from `carry` (NULL: none)
/// where it allows. On failure *out is empty.
/// @return ARCNAV_OK or ARCNAV_ERR_OUT_OF_MEMORY.
arcnav_status an_sure_passages_build(const an_navmesh *mesh, const an_grid *grid, double cap,
                                     const an_sure_carry *carry, const an_allocator *alloc,
                                     an_sure_passages *out);

void an_sure_passages_destroy(an_sure_passages *sure, const an_allocator *alloc);

size_t an_sure_passages_memory_bytes(const an_sure_passages *sure);

/// Does the disk of `settings` (R > 0) surely get from `a` to `b`, both free for it, in the
/// mesh's free triangles `ta` and `tb` (an_navmesh_locate())? True only when it does; false when
/// the passages cannot tell.
bool an_sure_passages_join(const an_sure_passages *sure, const an_clearance *settings,
                           an_clearance_scratch *scratch, vec2 a, int32_t ta, vec2 b, int32_t tb);
