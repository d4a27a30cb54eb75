// SPDX-License-Identifier: MIT
#pragma once

// Free checks: is the agent's disk, swept along a point, a segment or an arc, clear of every
// obstacle? All of them go through the grid. Two regimes:
// - R > 2 eps: a shape is free when its distance to every obstacle edge is >= R - eps and to every
//   circle obstacle >= c + R - eps (a swept shape that starts free cannot enter material without
//   passing through an edge, so edges suffice once the endpoints are known to be free);
// - R <= 2 eps (a point agent): distances say nothing, so a segment is blocked when it properly
//   crosses an edge, or when it passes through a vertex, or leaves an edge, heading into material.
//   Obstacles that touch are one wall (docs/DESIGN.md, "The touching rule"): a segment is also
//   blocked where material touches it from both sides at one place (a seam between two obstacles,
//   a pinch where they meet at a point), and a point is blocked where material closes all round
//   it (inside a seam).

#include "geom/alloc.h"
#include "geom/geom.h"
#include "geom/tolerances.h"
#include "index/grid.h"

typedef struct an_clearance {
  const an_grid *grid;
  double radius;
  double eps;
  bool point_agent; ///< R <= 2 eps: crossing-based checks
  bool has_bounds;  ///< the grid's last owner is a bounds ring
  /// Per owner (obstacle index): nonzero for the units a query plans without
  /// (arcnav_query_set_ignored()); NULL when it ignores nothing. Every check skips their items.
  const uint8_t *ignored;
  /// Optional (NULL: none): true when p surely lies in no polygon's material and inside the
  /// bounds (a triangulation of the polygons holds it strictly inside a free triangle). A disk's
  /// free test then measures the items near p alone, without the parity of the grid row to the
  /// box's edge that tells which polygons hold p (most of its time on a large map).
  bool (*outside_polygons)(const void *context, vec2 p);
  const void *outside_context;
} an_clearance;

/// Does a check under `cl` leave out the items of obstacle `owner`?
static inline bool an_clearance_ignores(const an_clearance *cl, uint32_t owner) {
  return cl->ignored != NULL && cl->ignored[owner] != 0;
}

/// Where material touches a point agent's segment (an interval of distances along it, on one side)
/// or surrounds a point (an interval of directions): one per item at most.
typedef struct an_touch {
  double from, to; ///< along a segment: an interval; around a point: start angle and sweep
  uint32_t owner;  ///< around a point: the obstacle; along a segment: the item of a deferred vertex
  bool left;       ///< along a segment: the material's side
  bool deferred;   ///< along a segment: a vertex shared by rings of one polygon, judged after
} an_touch;

/// The settings of `base` for an agent of `radius` (not above the reach its grid was built for):
/// the radius and whether it is a point agent (R <= 2 eps) are the only things that depend on it.
static inline an_clearance an_clearance_at_radius(const an_clearance *base, double radius) {
  an_clearance settings = *base;
  settings.radius = radius;
  settings.point_agent = radius <= AN_POINT_AGENT_TOLERANCES * base->eps;
  return settings;
}

/// Per-thread marks for the checks (items seen, parity per obstacle). Sized once.
typedef struct an_clearance_scratch {
  an_touch *touches; ///< two per grid item: a point agent's contacts, and the material round one
  uint32_t *item_stamps;
  uint32_t stamp;
  uint8_t *owner_parity;
  uint32_t *touched_owners;
  double *owner_depth;   ///< per owner: nearest edge while it holds the point being probed
  size_t checks;         ///< number of shape checks since the counter was last reset
  uint32_t last_blocker; ///< the item an_point_is_surely_blocked() last said no by: tried first
  size_t item_room, owner_room; ///< what the per-item and per-owner arrays hold
} an_clearance_scratch;

arcnav_status an_clearance_scratch_init(an_clearance_scratch *scratch, const an_grid *grid,
                                        const an_allocator *alloc);
void an_clearance_scratch_free(an_clearance_scratch *scratch, const an_allocator *alloc);
/// Makes `scratch`, made for another grid (one an update replaced by `grid`), the scratch
/// an_clearance_scratch_init() would make for `grid`, keeping its memory where it has room.
/// ARCNAV_ERR_OUT_OF_MEMORY leaves it a scratch only an_clearance_scratch_free() may take.
arcnav_status an_clearance_scratch_renew(an_clearance_scratch *scratch, const an_grid *grid,
                                         const an_allocator *alloc);

/// The directions from p into the material of `item` where p touches it (within eps): a vertex's
/// material wedge (counter-clockwise from its outgoing edge to the reversed incoming one), an
/// edge's or a circle's half-plane, as a start angle and a counter-clockwise sweep. False where p
/// does not touch it; an edge's end vertex is left to the next edge of its ring, which starts
/// there.
bool an_item_material_at(const an_item *item, vec2 p, double eps, double *start, double *sweep);

/// Is the agent's disk centred at p free (distance to the blocked region >= R - eps)?
bool an_point_is_free(const an_clearance *cl, an_clearance_scratch *scratch, vec2 p);
/// A quick no for a disk's free test, for points that are mostly not free: true when an edge or
/// circle filed in p's cell lies nearer than R - eps, so p is not free. False says nothing: the
/// free test must decide. Never true for a point agent.
bool an_point_is_surely_blocked(const an_clearance *cl, an_clearance_scratch *scratch, vec2 p);
/// an_point_is_free() for a caller that has asked what an_clearance.outside_polygons tells
/// already (it located p itself): `outside_polygons` is that answer.
bool an_point_is_free_known(const an_clearance *cl, an_clearance_scratch *scratch, vec2 p,
                            bool outside_polygons);
/// Segment ab: assumes a is free (checked separately), tests everything in between and b's
/// surroundings against edges and circles.
bool an_segment_is_free(const an_clearance *cl, an_clearance_scratch *scratch, vec2 a, vec2 b);
/// Arc of the agent's path: around a corner circle (R > 0) or a circle obstacle (any R).
bool an_arc_is_free(const an_clearance *cl, an_clearance_scratch *scratch, const an_arc *arc);

/// For a point agent, the directions at a corner's point `v` (a polygon vertex, or a point
/// obstacle) along which a path may touch it and turn: the normals of the wall that every obstacle
/// meeting at `v` makes together. Writes them as a counter-clockwise interval (start angle in
/// [0, 2pi), sweep below pi) and returns true; returns false when the wall is not convex there
/// (obstacles meeting at `v` leave no room to turn around it). `*material_count` receives the
/// number of material intervals meeting at `v`: a polygon corner alone has its own wedge only (1),
/// a point obstacle alone none (and the interval written is then meaningless).
bool an_point_agent_corner_wedge(const an_clearance *cl, an_clearance_scratch *scratch, vec2 v,
                                 double *start, double *sweep, size_t *material_count);
