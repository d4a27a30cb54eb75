// SPDX-License-Identifier: MIT
#pragma once

// Interval search (Polyanya: Cui, Harabor and Grastien, "Compromise-free pathfinding on a
// navigation mesh", IJCAI 2017) for a point agent (R = 0) over the navmesh: the exact Euclidean
// shortest path among the mesh's walls, the same answer as the funnel's optimal search (TA*,
// funnel.h) with fewer, larger search nodes.
//
// A search node is a root (the start or a mesh vertex, the last turn of the paths it stands for),
// an interval [left, right] on an edge of a free triangle, every point of which the root sees, and
// the triangle beyond that edge. Its g is the length from the start to the root; its f adds the
// shortest way from the root through the interval to the goal, a lower bound. Expanding a node
// casts the rays root -> left and root -> right across the triangle: the part of its two far edges
// between the rays is seen from the root (observable successors, same root); where an interval end
// is a corner (a vertex with a wall edge), the part of the far edges beyond the ray next to it is
// seen from that corner only (non-observable successors, rooted there, g grown by the turn).
// Intervals on walls are dropped. So every path the search builds bends only at corners, and its
// length is a sum of distances between the start, mesh vertices and the goal.
//
// Two prunings keep the search small: a vertex is a root only at the shortest g it has been
// reached with so far (a longer arrival is dropped, when made and when popped), and a node with a
// single successor has it expanded on the spot rather than queued (the paper's intermediate
// pruning). The search stops when the open list holds no node whose f beats the best path found.
//
// Ends: a start or goal within eps of several free triangles belongs to all of them, exactly as
// the funnel searches decide (an_funnel_near_triangles()). An end beyond the navmesh's box (a map
// without bounds, navmesh.h) is out of this search's scope: such a query is answered by the
// funnel's optimal search, an_funnel_find_path_within(optimal = true). The mesh must be plain (no
// connector triangles: the eroded meshes of R > 0 are not searched here).

#include "arcnav/arcnav.h"
#include "funnel/funnel.h"
#include "geom/alloc.h"
#include "geom/geom.h"
#include "mesh/navmesh.h"

#include <stdbool.h>
#include <stddef.h>

typedef struct an_interval_scratch an_interval_scratch;

/// Per-query-object memory for one mesh: sized at creation (per vertex, per triangle, and a pool
/// of nodes of 4 per triangle + 1024) so that queries allocate nothing, except when a search
/// needs more nodes than the pool holds: it then doubles the pool through `alloc` and keeps it for
/// later queries; when that fails the query returns ARCNAV_ERR_OUT_OF_MEMORY and the scratch stays
/// usable. ARCNAV_ERR_INVALID_ARGUMENT for a mesh with connector triangles.
arcnav_status an_interval_scratch_create(const an_navmesh *mesh, const an_allocator *alloc,
                                         an_interval_scratch **out);
/// an_interval_scratch_create() with a chosen initial node pool (at least 1): tests start it tiny
/// to make queries grow it.
arcnav_status an_interval_scratch_create_with_capacity(const an_navmesh *mesh,
                                                       const an_allocator *alloc,
                                                       size_t node_capacity,
                                                       an_interval_scratch **out);
void an_interval_scratch_destroy(an_interval_scratch *scratch);
/// Makes `scratch`, made for another mesh (one an update replaced by `mesh`, or `mesh` before a
/// change), a scratch for `mesh` that answers as a new one would, keeping its memory where it has
/// room. ARCNAV_ERR_INVALID_ARGUMENT for meshes the search does not take, the scratch untouched;
/// ARCNAV_ERR_OUT_OF_MEMORY leaves it a scratch only an_interval_scratch_destroy() may take.
arcnav_status an_interval_scratch_renew(an_interval_scratch *scratch, const an_navmesh *mesh);
/// Heap bytes held by the scratch.
size_t an_interval_scratch_memory_bytes(const an_interval_scratch *scratch);

/// Shortest path from start to goal, expanding at most `max_expansions` nodes (0: no limit; a node
/// expanded on the spot counts as one). Statuses and result as an_funnel_find_path_within() with
/// optimal = true: ARCNAV_OK, ARCNAV_NO_PATH, ARCNAV_START_BLOCKED, ARCNAV_GOAL_BLOCKED (start
/// checked first, by an_navmesh_point_is_free()), ARCNAV_SEARCH_LIMIT when the search would expand
/// one more node than allowed, ARCNAV_ERR_OUT_OF_MEMORY when the node pool could not grow. The
/// points are owned by the scratch and valid until its next query; `channels` counts the paths to
/// the goal the search found, each shorter than the one before.
arcnav_status an_interval_find_path_within(const an_navmesh *mesh, an_interval_scratch *scratch,
                                           vec2 start, vec2 goal, size_t max_expansions,
                                           an_funnel_result *out);

/// The same search in slices, as an_funnel_begin() and an_funnel_resume() (funnel.h): the same
/// answers whatever the slices. an_interval_best_so_far(): while the search runs, the path (from
/// the start, in out->points) to the root it has expanded nearest the goal, or the start alone.
arcnav_status an_interval_begin(const an_navmesh *mesh, an_interval_scratch *scratch, vec2 start,
                                vec2 goal, an_funnel_result *out);
/// Later searches on `scratch` keep to the passages at least `width` wide: they answer
/// ARCNAV_NO_PATH at once, with nothing expanded, for ends the mesh joins only through passages
/// narrower (an_navmesh_passage_width()), and cross no portal narrower
/// (an_navmesh_portal_width()). That is the guide of a disk's search, whose centre crosses only
/// portals where the disk fits: its length is the shortest of a point kept off the narrower
/// portals, no longer than the disk's (DESIGN.md, "The guide keeps to the disk's passages"). 0
/// (the default): a point's search, which only ends in different parts answer so.
void an_interval_set_min_width(an_interval_scratch *scratch, double width);
/// Whether the searches on `scratch` shut portals: a width is set and the mesh has portals
/// narrower (an_navmesh.narrowest_portal).
bool an_interval_shuts_portals(const an_interval_scratch *scratch);
arcnav_status an_interval_resume(an_interval_scratch *scratch, size_t max_expansions,
                                 size_t pause_at, an_funnel_result *out);
arcnav_status an_interval_best_so_far(an_interval_scratch *scratch, an_funnel_result *out);

/// an_interval_begin() for a search that also measures, for a disk's search that runs the other
/// way (DESIGN.md, "The guide measures"): it notes, in the scratch (its tables made by the first
/// measure and kept), the shortest length it finds from the start to every vertex it sees, keyed
/// and pruned as the search for the goal is (landmarks, dead ends left out), and after finding
/// the goal goes on until no node is keyed below best * (1 + relative) + absolute, or until it
/// has spent a quarter of the expansions it took to find the goal. Then
/// an_interval_measured_bound() holds. Where begin answers at once (ends in one triangle, in
/// parts apart, or beyond the box), nothing is measured. ARCNAV_ERR_INVALID_ARGUMENT for a
/// negative or NaN extension, ARCNAV_ERR_OUT_OF_MEMORY when the first measure cannot make its
/// tables.
arcnav_status an_interval_begin_measure(const an_navmesh *mesh, an_interval_scratch *scratch,
                                        vec2 start, vec2 goal, double relative, double absolute,
                                        an_funnel_result *out);
/// After a measuring search has answered: a lower bound on the length of a point agent's path
/// from the search's start to mesh vertex `vertex` (at a pinch, to the nearest of its sides),
/// exact where the search expanded all it needed to know it: with K the key below which it
/// expanded every node and m(v) the length it noted, m(v) where m(v) + a(v) < K, else
/// K - a(v) (or 0), a(v) the larger of |v - goal| and the landmarks' allowance; a dead end's far
/// corner capped through its way in. 0 when nothing was measured, or the search has not finished.
/// Valid until the scratch's next search. For a search that shut portals
/// (an_interval_shuts_portals()) the length is that of a path kept off them, which bounds the
/// length to a point near the vertex only where the point sees the vertex without crossing one:
/// an_interval_measured_bound_at() tells where.
double an_interval_measured_bound(const an_interval_scratch *scratch, int32_t vertex);
/// After a measuring search has answered: a lower bound on the length of a point agent's path
/// kept off the portals the search shut from its start to point `p` of the free space near
/// vertex `near_vertex` (where the walk that locates p starts): the largest of the vertices' of
/// the free triangle holding p, an_interval_measured_bound() less the rounding of the sums that
/// made it (AN_MEASURE_ROUNDING) and the way from p (0 when p lies in no free triangle, or nothing
/// was measured).
double an_interval_measured_bound_at(const an_interval_scratch *scratch, vec2 p,
                                     int32_t near_vertex);

/// The shortest length for a point agent from `source` to every vertex of the mesh, into
/// `distances` (one per cdt point; INFINITY for a vertex no path reaches): the search above with
/// no goal, run until nothing is left to expand, into dead ends too (DESIGN.md, "Landmarks"), or
/// until it would expand more than `max_expansions` nodes (0: no limit). ARCNAV_OK,
/// ARCNAV_SEARCH_LIMIT (the distances are then upper bounds only), ARCNAV_START_BLOCKED for a
/// source in no free triangle of the box, ARCNAV_ERR_NOT_FINITE, ARCNAV_ERR_OUT_OF_MEMORY when
/// the node pool could not grow.
arcnav_status an_interval_distances(const an_navmesh *mesh, an_interval_scratch *scratch,
                                    vec2 source, size_t max_expansions, double *distances);
