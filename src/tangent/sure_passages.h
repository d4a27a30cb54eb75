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
  /// Per free triangle, 3 each: the number of the portal across edge i among its block's, when
  /// the triangle owns it. A portal belongs to the lower-numbered of its two triangles; the
  /// portals of free triangles t with the same t / 2^an_navmesh.block_shift are one block of the
  /// forest. A triangle a change kept keeps its portals' numbers, so that the blocks around a
  /// change name them as before.
  uint16_t *portal_index;
  /// Per free triangle, 3 each: the width of the link from the portal across edge i to the one
  /// across edge i + 1, rounded down to a float (NaN: no link), kept for a build after a local
  /// change to carry over (an_sure_carry).
  float *link_width;
  /// Over the portals, in blocks: a build after a local change makes again only the blocks whose
  /// portals or links it changed (docs/DESIGN.md, "The widest passages in blocks").
  an_blocked_forest forest;
} an_sure_passages;

/// What a build after a local change may carry over: the passages of the mesh before it (whose
/// mesh and grid are still alive), and a box holding the material the change took away or put
/// in. A triangle the change left as it was (an_navmesh_kept_triangles()) keeps its links' widths
/// when it does not meet that box grown by the cap: no item that changed comes near enough to
/// change them. The forest's blocks that hold none of the portals of the other triangles (and, for
/// a triangle the change made, of its neighbours) are taken over.
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

/// The widest chain of links between the portal across edge ia of free triangle ta and the one
/// across edge ib of tb (an_widest_forest_width()); NaN when either edge has no portal.
double an_sure_passages_width(const an_sure_passages *sure, int32_t ta, int ia, int32_t tb, int ib);

/// Does the disk of `settings` (R > 0) surely get from `a` to `b`, both free for it, in the
/// mesh's free triangles `ta` and `tb` (an_navmesh_locate())? True only when it does; false when
/// the passages cannot tell.
bool an_sure_passages_join(const an_sure_passages *sure, const an_clearance *settings,
                           an_clearance_scratch *scratch, vec2 a, int32_t ta, vec2 b, int32_t tb);
