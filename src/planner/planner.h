// SPDX-License-Identifier: MIT
#pragma once

// The objects behind the public planner and query handles. Each holds one engine's state behind
// the engine interface (engine.h); nothing here knows how an engine works.

#include "geom/alloc.h"
#include "index/probe.h"
#include "search/engine.h"

#define AN_PLANNER_DEF_MAGIC 0x4152434e /* "ARCN" */

/// An obstacle of the map a planner was built from: its id, its index then, and whether it is a
/// unit (arcnav_map_add_unit()).
typedef struct an_obstacle_entry {
  arcnav_obstacle_id id;
  uint32_t index;
  bool unit;
  uint64_t shape; ///< the map's hash of its shape (an_obstacle.shape)
} an_obstacle_entry;

struct arcnav_planner {
  an_allocator alloc;
  arcnav_planner_def def; ///< as created: arcnav_planner_update() builds again from it
  /// Moves on with every update that rebuilt the engines; a query object made for an older one
  /// makes its working memory again before its next use.
  uint64_t generation;
  double eps;
  arcnav_engine engine_kind; ///< resolved: never ARCNAV_ENGINE_AUTO
  an_engine engine;          ///< with a max_radius: radii above point_limit (none if it is 0)
  /// With a max_radius: the engine for point agents (radii up to point_limit), built for R = 0.
  an_engine point_engine;
  double point_limit;
  /// Every obstacle of the map as last built, by slot and generation (planner.c lists them so),
  /// for the ids a query ignores and the changes an update finds.
  an_obstacle_entry *obstacles;
  size_t obstacle_count;
  uint64_t bounds_shape;  ///< the hash of the bounds as last built (0: none)
  uint64_t local_updates; ///< updates done locally (arcnav_planner_local_updates())
};

/// Where a sliced search (arcnav_query_begin()) stands.
typedef enum an_sliced_phase {
  AN_SLICED_NONE,    ///< none begun, or it has answered
  AN_SLICED_BEGUN,   ///< begun: the next resume judges the ends and sets up the engine's search
  AN_SLICED_RUNNING, ///< the engine's search is set up in the working memory
} an_sliced_phase;

struct arcnav_query {
  const arcnav_planner *planner;
  an_allocator alloc;
  an_search_control control;
  arcnav_query_stats earlier; ///< the work of the query's earlier engine searches (partial answers)
  double radius;
  bool partial;        ///< arcnav_query_set_partial()
  uint64_t generation; ///< the planner generation the working memory below was made for
  void *engine_query;  ///< the engine's working memory for this query object
  void *point_query;   ///< with a max_radius: the point engine's
  /// The tables that made engine_query and point_query: they free them even after an update
  /// replaced the engines.
  const an_engine_ops *engine_query_ops, *point_query_ops;
  /// The probes' working memory (planner/probes.c), made on the first probe, kept through updates
  /// that renew the engines' memory and grown for a grid with more items than it holds; zeroed
  /// while there is none.
  an_probe_scratch probe_scratch;
  /// A path for the searches whose path the caller never sees (arcnav_query_reachable(), the
  /// nearest-reachable probe), made on first use (an_query_scratch_path()).
  arcnav_path *scratch_path;
  // A sliced search: its phase, its ends, and where the engine's search runs to: the goal, or
  // with partial answers the nearest place the agent fits or the reachable point nearest to the
  // goal (`retargeted`). A running search was set up for the planner generation the working
  // memory is for; after an update it begins again.
  an_sliced_phase sliced;
  vec2 sliced_start, sliced_goal, sliced_target;
  bool retargeted;   ///< the running search (sliced or not) goes to another place than the goal
  bool fallen_back;  ///< that place is the reachable point nearest to the goal
  bool goal_blocked; ///< the goal itself is blocked for the agent
  uint32_t rule_out_mark; ///< the last mark given to a nearest-reachable probe (engine.h)
  // The units the query plans without (arcnav_query_set_ignored()), as given, and as a mask per
  // obstacle index of the planner generation `ignored_generation` (NULL when none of them is on
  // its map); `ignored_version` moves on whenever a mask is made or let go (resolve_ignored).
  arcnav_obstacle_id *ignored_ids;
  size_t ignored_count;
  uint8_t *ignored_mask;
  uint64_t ignored_generation;
  uint64_t ignored_version;
};

/// The engine that answers `radius` on `planner`, and (when `engine_query` is not NULL) its working
/// memory in `query` (NULL for none): a planner with a max_radius answers point agents with its
/// point engine.
const an_engine *an_planner_engine_for(const arcnav_planner *planner, double radius,
                                       const arcnav_query *query, void **engine_query);

/// Frees the probes' working memory of `query`, if any, and marks it not ready: the next probe
/// makes it afresh. Called when the query object is destroyed or moves to another engine.
void an_query_release_probes(arcnav_query *query);

/// Makes the query object's working memory for its planner's current engines when an update
/// replaced them since it was made (ARCNAV_ERR_OUT_OF_MEMORY when that fails).
arcnav_status an_query_bind(arcnav_query *query);

/// Hands the query's ignore list to the engine that answers its radius, resolved for the
/// planner's current map: ARCNAV_OK, ARCNAV_ERR_OUT_OF_MEMORY, or ARCNAV_ERR_INVALID_ARGUMENT
/// when the list names a unit on the map and that engine cannot plan without it. Every search and
/// probe calls it on a bound query object before it starts; *mask receives what its free checks
/// leave out.
arcnav_status an_query_apply_ignored(arcnav_query *query, const uint8_t **mask);

/// The query's own path for searches whose path nobody reads, made on first use: *out NULL and
/// ARCNAV_ERR_OUT_OF_MEMORY when it cannot be.
arcnav_status an_query_scratch_path(arcnav_query *query, arcnav_path **out);

/// What `engine` tells without a search of whether the query's agent gets from a to b (engine.h,
/// `decide_reachable`); ARCNAV_IN_PROGRESS where it cannot tell or has no such entry.
arcnav_status an_engine_decide_reachable(const an_engine *engine, void *engine_query, vec2 a,
                                         vec2 b, bool ends_free);

/// `engine`'s whole search from a to b under `control` (its begin, then resume to the end, no
/// slices), its path in `path`.
arcnav_status an_engine_search(const an_engine *engine, void *engine_query,
                               an_search_control *control, vec2 a, vec2 b, arcnav_path *path);

/// arcnav_query_nearest_reachable() on a query object bound to its planner: ARCNAV_OK with
/// *out_point, ARCNAV_START_BLOCKED, ARCNAV_NO_PATH, or what made a search fail.
arcnav_status an_query_nearest_reachable(arcnav_query *query, vec2 from, vec2 point,
                                         vec2 *out_point);
