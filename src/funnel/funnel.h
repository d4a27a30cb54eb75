// SPDX-License-Identifier: MIT
#pragma once

// Paths for a point agent over the navmesh: channel search over triangles, then the funnel
// (string pulling) over the portals of the channel.
//
// Two modes:
// - plain: A* over triangles with Detour's cost model (the distance between the midpoints of the
//   entry and exit edges, Euclidean distance to the goal as heuristic), then the funnel over that
//   one channel. This is what Recast/Detour returns; it can be longer than the shortest path.
// - optimal: the triangle A* of Demyen and Buro (TA*). A search node is a channel prefix (a chain
//   of triangles, none repeated), so a triangle may be reached along several channels. Each node
//   keeps the funnel apex of its prefix (the last corner every continuation must pass) and the
//   exact length to it; f = that length + the shortest way from the apex through the entry edge
//   to the goal, which is a lower bound on every path that continues the prefix. Reaching the
//   goal triangle string-pulls a complete channel; the search stops when no open node's bound
//   beats the best length. Nodes whose apex was reached shorter along another channel are
//   dominated (any continuation is shorter through the other channel) and dropped; no node on
//   the channel of a shortest path is ever dropped, because its apex lengths are geodesic.
//   The result is the Euclidean shortest path among the mesh's obstacles.
//   The funnel is kept incrementally: path corners are cells linked back towards the start, so
//   channels that share a prefix share its funnel, and a node holds three cells (apex and the
//   ends of its portal). A step adds one vertex and finds, by jump pointers along a chain, which
//   cells it makes redundant or how far the apex moves: O(log n) per node, so channels of
//   hundreds of thousands of triangles cost milliseconds, not a funnel pass per node.
//
// A start or goal within eps of several free triangles (on an edge, at a vertex, and at a pinch
// vertex of the R = 0 mesh, which belongs to every free fan around it) belongs to all of them: the
// search starts from every such triangle and ends in any. A path never passes through a pinch
// from one fan to another, since the fans share no edge.
//
// Beyond the box of a map without bounds (navmesh.h) the plane is free and holds no obstacle.
// An end point p there gets triangles of its own for the query: (p, b, a) for each box edge ab
// that faces p (one, or two around a corner), adjacent to each other across (p, corner) and to
// the box's triangle on ab, so the channel search and the funnel run over them unchanged. A
// shortest path between two points whose segment meets the box bends only at obstacle vertices,
// all inside the box, so it leaves the start's fan into the box and reaches the goal's fan from
// the box: covered exactly. When the segment misses the box (exact orientation tests), it is the
// path.

#include "arcnav/arcnav.h"
#include "funnel/funnel_scratch.h"
#include "geom/alloc.h"
#include "geom/geom.h"
#include "mesh/navmesh.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct an_funnel_result {
  const vec2 *points;    ///< polyline start..goal, owned by the scratch, valid until the next query
  size_t point_count;    ///< >= 2 when found; start == goal gives 2 equal points
  size_t nodes_expanded; ///< search nodes taken off the open list
  size_t channels;       ///< channels string-pulled to the goal
  double length;         ///< length of the polyline
} an_funnel_result;

/// Path from start to goal, expanding at most `max_expansions` nodes (0: no limit). Status:
/// ARCNAV_OK, ARCNAV_NO_PATH, ARCNAV_START_BLOCKED, ARCNAV_GOAL_BLOCKED (start is checked first; a
/// point is blocked when an_navmesh_point_is_free() says so), ARCNAV_SEARCH_LIMIT when the search
/// would expand one more node than allowed, or ARCNAV_ERR_OUT_OF_MEMORY when the optimal search's
/// pool could not grow. Consecutive equal points are merged, so a found path has distinct
/// consecutive points except for start == goal.
arcnav_status an_funnel_find_path_within(const an_navmesh *mesh, an_funnel_scratch *scratch,
                                         vec2 start, vec2 goal, bool optimal, size_t max_expansions,
                                         an_funnel_result *out);

/// Makes `out` the polyline of the `count` points (1: a place alone, 2: a straight segment)
/// written at the start of a scratch's point buffer `points`, with its length.
static inline void an_funnel_result_short(an_funnel_result *out, const vec2 *points, size_t count) {
  out->points = points;
  out->point_count = count;
  out->length = count == 2 ? v2_dist(points[0], points[1]) : 0.0;
}

/// The same search in slices (engine.h, begin and resume): an_funnel_begin() answers what needs
/// no search (as above) or sets the search up in the scratch and returns ARCNAV_IN_PROGRESS;
/// an_funnel_resume() runs it until it answers, or returns ARCNAV_IN_PROGRESS when
/// out->nodes_expanded (kept by the caller from call to call) reaches `pause_at` (an_slice_end()).
/// The answers are the same as an_funnel_find_path_within()'s, whatever the slices.
arcnav_status an_funnel_begin(const an_navmesh *mesh, an_funnel_scratch *scratch, vec2 start,
                              vec2 goal, bool optimal, an_funnel_result *out);
arcnav_status an_funnel_resume(an_funnel_scratch *scratch, size_t max_expansions, size_t pause_at,
                               an_funnel_result *out);
/// While the search set up is running: the path (out->points, from the start) to the place it has
/// reached nearest the goal, a channel's entry or apex, or the start alone (one point). Only
/// ARCNAV_OK or ARCNAV_ERR_OUT_OF_MEMORY.
arcnav_status an_funnel_best_so_far(an_funnel_scratch *scratch, an_funnel_result *out);

/// Where a query's end p belongs: calls `emit` with every free triangle within eps of p (on an
/// edge, at a vertex, at a pinch vertex: all of them), starting from `first`, an_navmesh_locate()'s
/// answer for p, in a fixed order. It walks the triangulation across edges within eps of p, marking
/// cdt triangles in `near_stamp` (`near_room` entries, at least one per cdt triangle + 1, all
/// cleared when the mark wraps) under `*near_mark`, which it advances, and queueing them in
/// `near_queue` (as many). The funnel searches start from and end in these triangles; other
/// searches over the mesh call it to decide the same way.
void an_funnel_near_triangles(const an_navmesh *mesh, vec2 p, int32_t first, uint32_t *near_stamp,
                              size_t near_room, uint32_t *near_mark, int32_t *near_queue,
                              void (*emit)(void *context, int32_t tri), void *context);

/// Where a query's ends lie on the mesh: inside the box (then the free triangle located there) or
/// beyond it (maps without bounds only).
typedef struct an_funnel_ends {
  bool start_in, goal_in;
  int32_t start_tri, goal_tri; ///< -1 beyond the box
} an_funnel_ends;

/// Begins a search over the mesh: clears `result` and locates start and goal the way every such
/// search judges them: ARCNAV_START_BLOCKED (checked first) or ARCNAV_GOAL_BLOCKED when an end is
/// in no free triangle, or beyond the box of a map with bounds; ARCNAV_ERR_NOT_FINITE for a
/// coordinate that is not finite.
arcnav_status an_funnel_locate_ends(const an_navmesh *mesh, vec2 start, vec2 goal,
                                    an_funnel_result *result, an_funnel_ends *out);

/// Drop the corners of the polyline p[0..n) that lie exactly on the straight segment between their
/// neighbours (a funnel emits them when a portal end is collinear with the path). Returns the new
/// count.
size_t an_funnel_merge_collinear(vec2 *p, size_t n);
