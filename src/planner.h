// SPDX-License-Identifier: MIT
#pragma once

// The objects behind the public planner and query handles, shared by the engines.

#include "alloc.h"
#include "clearance.h"
#include "funnel.h"
#include "grid.h"
#include "heap.h"
#include "inflate.h"
#include "navmesh.h"
#include "sight_mesh.h"
#include "tangent_graph.h"
#include "tangent_lazy.h"

#define AN_PLANNER_DEF_MAGIC 0x4152434e /* "ARCN" */

struct arcnav_planner {
  an_allocator alloc;
  double radius;
  double eps;
  arcnav_engine engine;
  an_corner *corners;
  size_t corner_count;
  an_grid grid;
  an_clearance clearance;
  an_tangent_graph graph; ///< with tangents_on_demand, only its corner grid is built
  bool tangents_on_demand;
  an_sight_mesh *sight_mesh; ///< with tangents_on_demand: what corners see; NULL: the grid decides
  an_navmesh *navmesh;       ///< funnel engines only
};

/// A start attachment: the touching point where the tangent from the query's start meets a corner.
typedef struct an_start_node {
  vec2 point;
  double angle;
  double offset;
  double tangent_length;
  uint32_t corner;
  bool ccw;
} an_start_node;

/// The tangent from a (corner, direction) group to the query's goal, computed once per query:
/// every node of the group leaves for the goal along the same segment.
typedef struct an_goal_exit {
  vec2 touch;
  double angle;
  double offset;
  uint32_t generation; ///< valid when it matches the query's
  uint8_t usable;      ///< the tangent exists and leaves inside the wedge
  uint8_t segment;     ///< 0 unchecked, 1 free, 2 blocked
} an_goal_exit;

/// The search state of a node, together so that one visit touches one place.
typedef struct an_search_node {
  double cost;         ///< g-value
  uint32_t parent;     ///< AN_NONE for a start attachment
  uint32_t generation; ///< the fields are valid when it matches the query's
  uint8_t arrival;     ///< an_arrival
  uint8_t closed;
} an_search_node;

/// How the search reached a node.
typedef enum an_arrival {
  AN_ARRIVED_BY_TANGENT = 0,
  AN_ARRIVED_BY_ARC = 1,
  AN_ARRIVED_FROM_START = 2
} an_arrival;

struct arcnav_query {
  const arcnav_planner *planner;
  an_allocator alloc;
  an_clearance_scratch clearance;
  an_heap heap;
  uint32_t id_count;      ///< graph nodes + start attachments + the goal
  an_search_node *search; ///< per id
  uint32_t current_generation;
  an_start_node *starts;
  /// Corners not yet attached to the start, keyed by a bound on paths through them.
  an_heap deferred;
  // Corners enter that heap cell by cell of the corner grid, flooding out from the start's cell
  // only as the search needs them.
  uint32_t *entered;        ///< per corner: the generation of the query that entered it
  an_heap cells;            ///< cells of the corner grid found but not entered, keyed by a bound
  uint32_t *cell_seen;      ///< per cell: the generation of the query that found it
  uint32_t *trail;          ///< node ids of the found path, goal first
  an_goal_exit *goal_exits; ///< per (corner, direction) group: its way to this query's goal
  // The goal's attachment: touching point on the parent's corner and the arc sweep to it.
  vec2 goal_touch;
  double goal_sweep;
  arcnav_query_stats stats;
  size_t expansion_limit;    ///< most nodes a search may expand; 0: no limit
  an_funnel_scratch *funnel; ///< funnel engines only
  an_lazy_search *lazy;      ///< the tangent engine without a prebuilt graph only
};

/// May a search that has expanded `expanded` nodes expand one more?
static inline bool an_query_may_expand(const arcnav_query *query, size_t expanded) {
  return an_may_expand(expanded, query->expansion_limit);
}

/// Tangent-graph engine: fills `path`. start/goal are finite; start != goal.
arcnav_status an_tangent_find_path(arcnav_query *query, vec2 start, vec2 goal, arcnav_path *path);
