// SPDX-License-Identifier: MIT
#pragma once

// Visibility through a triangulation of the polygon obstacles: which corner circles can a tangent
// from a polygon corner, or from a free point, reach at all?
//
// Move both ends of a tangent segment s by R onto the material they wrap: the departure end onto
// the viewpoint's vertex (a point viewpoint stays put), the arrival end onto the target's vertex,
// or onto the rim of a circle obstacle. The moved segment stays within R of s everywhere (each end
// moved by R, and the distance to a segment is convex along another segment), so if it crosses
// the interior of a polygon obstacle, s comes closer than R to that obstacle and is blocked. The
// targets worth trying are therefore those that straight rays from the viewpoint reach through
// the free space of the polygons: found by expanding angular windows across a constrained
// triangulation, triangle by triangle (triangular expansion).
//
// Everything errs towards offering more:
// - Circle obstacles are left out of the triangulation, so they hide nothing. A circle's corner is
//   offered when a window enters any triangle its disk overlaps.
// - Window boundaries are widened by a few map tolerances where a vertex narrows them, so a ray
//   that grazes a vertex within the tolerance still passes. As with the grid culling
//   (visibility.h), a ray crossing an obstacle thinner than the tolerance is treated as blocked.
// - A viewpoint the expansion cannot start from (a circle obstacle's centre, a point on or near a
//   triangle edge) reports so, and the caller gathers from the grid instead.

#include "geom/alloc.h"
#include "map/map.h"
#include "mesh/navmesh.h"
#include "tangent/inflate.h"
#include "tangent/visibility.h"

#include <stddef.h>
#include <stdint.h>

typedef struct an_sight_mesh an_sight_mesh;

/// What a sight mesh built after a local change may carry over from the one it replaces: each
/// carried corner's vertex (the change left it where it was) and, on the same triangulation (the
/// old one's, for a circle's change: circles are not in it), its filing.
typedef struct an_sight_carry {
  const an_sight_mesh *previous;
  const an_carried_corners *corners; ///< how the corners number previous's
  bool same_triangulation;
} an_sight_carry;

/// The polygons' triangulation: the map with every circle shrunk to a point, which the navmesh
/// ignores (circles only narrow passages further, so every disk search may rely on it). *out NULL
/// (ARCNAV_OK) when it cannot be built for this input; ARCNAV_ERR_OUT_OF_MEMORY otherwise.
arcnav_status an_polygon_mesh_build(const arcnav_map *map, const an_allocator *alloc,
                                    an_navmesh **out);

/// Files the corners of `map` by vertex and by triangle of `polygon_mesh`, the polygons'
/// triangulation (an_polygon_mesh_build()), which it borrows: the mesh must outlive it. With
/// `carry` (NULL: none), a build after a local change takes over what it can (see
/// an_sight_carry).
/// @return ARCNAV_OK, ARCNAV_ERR_OUT_OF_MEMORY, or ARCNAV_ERR_TOO_LARGE when the filed corners
/// would not fit 32-bit offsets.
arcnav_status an_sight_mesh_build(const arcnav_map *map, const an_corner *corners,
                                  size_t corner_count, double radius,
                                  const an_navmesh *polygon_mesh, const an_sight_carry *carry,
                                  const an_allocator *alloc, an_sight_mesh **out);
/// The mesh vertex the sight mesh filed corner `corner` at, -1 for none (circle corners, strays).
int32_t an_sight_mesh_corner_vertex(const an_sight_mesh *sight_mesh, size_t corner);
/// Do the two file the same corners at the same vertices and in the same triangles, each cell's
/// in the same order? (A sight mesh a local change carried against one built afresh.)
bool an_sight_mesh_same_filing(const an_sight_mesh *a, const an_sight_mesh *b);
void an_sight_mesh_destroy(an_sight_mesh *sight_mesh);
/// The triangulation of the polygons the sight mesh expands across (circles left out).
const an_navmesh *an_sight_mesh_polygons(const an_sight_mesh *sight_mesh);
size_t an_sight_mesh_memory_bytes(const an_sight_mesh *sight_mesh);

/// A window of rays from the viewpoint, between `right` and `left` (counter-clockwise, less than
/// half a turn apart), entering free triangle `triangle` across its edge `edge`, followed only as
/// far as `reach` from the viewpoint (infinite for most). A window leaving a polygon corner keeps
/// to departure arc `arc` (-1: no arc), as narrowed for targets at least the reach of `level` away.
typedef struct an_sight_window {
  vec2 right, left;
  double reach;
  int32_t triangle;
  int32_t edge;
  int8_t arc;
  int8_t level;
} an_sight_window;

/// A window an expansion stopped at because of its limit, and the least cost bound of any target
/// beyond it (what an_sight_mesh_gather compares with the bound). An expansion resumed from these
/// with a larger bound goes on exactly as a fresh one with that bound would (see
/// an_sight_request.resume).
typedef struct an_sight_frontier {
  an_sight_window window;
  double key;
} an_sight_frontier;

/// Per-thread work space for the expansion.
typedef struct an_sight_mesh_scratch {
  an_sight_window *windows;
  size_t capacity;
  /// The windows the last gather stopped at (valid when it returned AN_SIGHT_MESH_GATHERED).
  an_sight_frontier *stopped;
  size_t stopped_count, stopped_capacity;
} an_sight_mesh_scratch;

void an_sight_mesh_scratch_free(an_sight_mesh_scratch *scratch, const an_allocator *alloc);

typedef enum an_sight_mesh_result {
  AN_SIGHT_MESH_GATHERED = 0,
  /// the viewpoint cannot start an expansion, or the expansion ran past its window budget (a
  /// degenerate cycle); what was gathered is void, and the caller gathers through the grid
  AN_SIGHT_MESH_UNSUITABLE = 1,
  AN_SIGHT_MESH_OUT_OF_MEMORY = 2
} an_sight_mesh_result;

/// What a gather looks for.
typedef struct an_sight_request {
  /// The viewpoint: corner `corner_index` (its vertex), or the point `origin` when corner_index is
  /// AN_NONE; a circle obstacle's corner has no vertex, its material radius `rim` > 0 and its
  /// centre `origin`.
  uint32_t corner_index;
  vec2 origin;
  double rim;
  bool ccw; ///< the tangents leave turning counter-clockwise
  /// The search's R, at most the one the mesh was built for (a mesh built for a larger radius
  /// files circle corners more widely, which only offers more).
  double radius;
  const an_sight_limit *limit; ///< NULL: no limit
  /// false: a fresh expansion from the viewpoint. true: the gather goes on from `resume`, the
  /// frontier an earlier gather of the same viewpoint with a lower bound stopped at
  /// (resume_count windows, possibly none), from those whose key is within the bound, and keeps
  /// the others stopped.
  bool resuming;
  const an_sight_frontier *resume;
  size_t resume_count;
  /// With `part`, a polygon corner's gather looks only for the tangents that touch its circle at
  /// wedge offsets (an_corner_offset()) from `part_from` to `part_to`: a search gathers ahead of
  /// the turn where it arrived, and behind it only when an arrival there needs it. The windows it
  /// stops at belong to that part: a gather resumed from them asks for the same part.
  bool part;
  double part_from, part_to;
  /// Keep the candidates the gather before found (another part of the same viewpoint's wedge)
  /// and add to them, each still once.
  bool adding;
} an_sight_request;

/// Gathers into out->candidates the corners visible from the request's viewpoint. A polygon
/// corner gathers for the tangents that leave it turning `ccw`, within the directions its wedge
/// allows them. Nothing is culled by direction bins (out->sight.culls is false). With a `limit`,
/// the expansion stops at triangle edges beyond which every target's tangent from the viewpoint's
/// circle, of length L and touching at x, has L + |x - goal| above the bound; those windows are
/// left in scratch->stopped, and *beyond receives the least such sum over everything left out
/// (infinity if nothing was), which may well exceed the bound. A resumed gather offers only what
/// the windows it goes on from reach: the caller keeps what earlier gathers offered.
///
/// A circle obstacle's corner gathers for the tangents that leave it turning `ccw`. Shift such a
/// tangent by R towards the centre: it becomes a ray tangent to the rim, turning the same way,
/// exactly R from the tangent, ending R from the touching point. So the expansion follows those
/// rays, and offers every corner whose material comes within 2R of a triangle they enter. A circle
/// the mesh cannot start from (its disk reaches a polygon, the box or a pinch) is UNSUITABLE.
an_sight_mesh_result an_sight_mesh_gather(const an_sight_mesh *sight_mesh,
                                          an_sight_mesh_scratch *scratch, an_sight_scratch *out,
                                          const an_sight_request *request, double *beyond,
                                          const an_allocator *alloc);
