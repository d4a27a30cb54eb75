// SPDX-License-Identifier: MIT
#pragma once

// The one interface every engine answers through. The planner (planner.c) validates arguments,
// builds the engine the definition asks for and then only dispatches: each engine keeps its own
// planner-side state (built once, read-only while queries run) and its own per-query state (the
// search's working memory, one per query object) behind this table. docs/DESIGN.md ("Engines")
// says which engine answers which query and why.

#include "arcnav/arcnav.h"
#include "geom/alloc.h"
#include "geom/geom.h"
#include "map/map.h"

#include <stdint.h>

struct an_navmesh;
struct an_free_space;
struct an_grid;
struct an_cell_filter;
struct an_engine;
struct an_local_change;

/// What a planner definition asks of the engine it builds.
typedef struct an_engine_args {
  const arcnav_map *map;
  double radius; ///< with a max_radius: the radius query objects start at
  /// > 0: one engine for every radius above the point-agent tolerance up to this one; each query
  /// object picks its own through set_radius (only the tangent engine takes one)
  double max_radius;
  double eps; ///< the map's tolerance
  /// The triangulation of the map's polygons another engine of the same planner has built (its
  /// own, borrowed: it outlives this engine), for an engine that would build the same; or NULL.
  const struct an_navmesh *polygon_mesh;
  /// The obstacle grid and free test another engine of the same planner has built, filed for at
  /// least this engine's radius (borrowed: it outlives this engine), for an engine that would
  /// build the same; or NULL.
  const struct an_free_space *free_space;
  /// > 0: file the engine's own obstacle grid for this radius (at least its own), so that an
  /// engine of the same planner for a larger radius may borrow it (free_space).
  double grid_radius;
  arcnav_engine engine;               ///< never ARCNAV_ENGINE_AUTO: the planner resolved it
  arcnav_tangent_graph tangent_graph; ///< tangent engines: prebuilt or on demand
  const an_allocator *alloc;
  /// With `change`: the engine this build replaces, as it was built for the map before `change`
  /// (one change: an obstacle added, removed or moved). The build may carry over what the change
  /// leaves alone, where it finds the change keeps clear of everything else; `previous`
  /// outlives it. NULL: a build from nothing.
  const struct an_engine *previous;
  const struct an_local_change *change;
  /// With `previous`: set true by a build that carried parts over from it, so that the update
  /// was a local one (left alone otherwise).
  bool *followed;
  /// The engine that lends polygon_mesh (and free_space) followed `change` itself: what it
  /// lends is what it lent `previous`, changed only for `change`.
  bool lender_followed;
} an_engine_args;

/// What one search shares with the query object running it: the budget it may spend and the
/// counters it reports.
typedef struct an_search_control {
  size_t expansion_limit; ///< most nodes a search may expand; 0: no limit
  size_t slice;           ///< most nodes one call of `resume` may expand; 0: to the end
  /// Non-zero while the searches of one nearest-reachable probe run: a search that reaches a
  /// place an earlier one of them ruled out (`rule_out`, under this value) ends with no path at
  /// once, since that place's part of the free space does not reach the goal.
  uint32_t ruled_out;
  arcnav_query_stats stats;
} an_search_control;

/// The expansion limit's rule, the same for every search: may a search that has expanded
/// `expanded` nodes expand one more under `max_expansions` (0: no limit)?
static inline bool an_may_expand(size_t expanded, size_t max_expansions) {
  return max_expansions == 0 || expanded < max_expansions;
}

/// The slice's rule, the same for every search: a `resume` that found its count at `expanded`
/// pauses (ARCNAV_IN_PROGRESS) when the count reaches the value returned, before it takes the next
/// node off its open list; SIZE_MAX: never.
static inline size_t an_slice_end(const an_search_control *control, size_t expanded) {
  size_t slice = control->slice;
  return slice == 0 || slice > SIZE_MAX - expanded ? SIZE_MAX : expanded + slice;
}

/// The best-so-far rule, the same for every search: the place just expanded, `distance` from the
/// goal, becomes the one the best path so far leads to when it is nearer than the last
/// (*nearest, the start's distance to begin with).
static inline bool an_nearer_than(double *nearest, double distance) {
  if (!(distance < *nearest)) {
    return false;
  }
  *nearest = distance;
  return true;
}

/// What became of the one obstacle a local change changed.
typedef enum an_change_kind {
  AN_CHANGE_ADDED,   ///< obstacle `index` of the map is new
  AN_CHANGE_REMOVED, ///< `id` is gone
  AN_CHANGE_MOVED,   ///< obstacle `index` has a new shape under its id (arcnav_map_move_obstacle)
} an_change_kind;

/// A change of the map an engine may follow without a new build (`change_locally`).
typedef struct an_local_change {
  an_change_kind kind;
  size_t index;          ///< its index in the map: the new or moved one's, the gone one's as it was
  arcnav_obstacle_id id; ///< the obstacle's id
} an_local_change;

typedef struct an_engine_ops {
  void (*destroy)(void *state);
  /// Working memory for one query object. Only reads the state, so queries on several threads
  /// may create theirs at once.
  arcnav_status (*query_create)(const void *state, void **out_query);
  void (*query_destroy)(void *query);
  /// Makes `query`, the working memory of a query object made (or renewed) for an engine of this
  /// table that an update replaced, this engine's, reusing its memory: the query then answers as
  /// one query_create made would. `successor`: that engine is the one this state replaced in the
  /// planner's last update (or this same state before its `change_locally`), so that what the
  /// state carried over from it holds for the query too. Keeps what the query was told (its
  /// radius; with no units ignored, the version of that, which `set_ignored` then need not be
  /// given again). ARCNAV_ERR_INVALID_ARGUMENT, `query` untouched, when it cannot (the caller makes
  /// a new one); after any other failure `query` may only be renewed again or destroyed. NULL for
  /// engines whose query objects are always made anew.
  arcnav_status (*query_renew)(const void *state, void *query, bool successor);
  /// Start and goal are finite and in range; `path` was reset to them by the caller. Judges
  /// start and goal and sets up the search in `query`: ARCNAV_IN_PROGRESS, for `resume` to run;
  /// any other status is the answer, found without a search (the path filled on ARCNAV_OK, else
  /// left reset). Resets the counters.
  arcnav_status (*begin)(const void *state, void *query, vec2 start, vec2 goal,
                         an_search_control *control, arcnav_path *path);
  /// Runs the search `begin` set up for at most control->slice expansions (the rule of
  /// an_slice_end()): ARCNAV_IN_PROGRESS when the slice ends first, the search kept for the next
  /// call; else the answer, as `begin` gives it, and the search has ended. `path` was reset to
  /// start and goal by the caller; the engine leaves it so on any status but ARCNAV_OK.
  arcnav_status (*resume)(const void *state, void *query, an_search_control *control,
                          arcnav_path *path);
  /// While a search `begin` set up has not ended: the path it has found from the start to the
  /// place it has reached nearest the goal, which the agent may follow (the start alone, `path`
  /// reset to it, before any such place). Only ARCNAV_OK or ARCNAV_ERR_OUT_OF_MEMORY.
  arcnav_status (*best_so_far)(const void *state, void *query, arcnav_path *path);
  /// Can the query's agent get from start to goal (finite and in range), told without a search?
  /// ARCNAV_OK when it surely can, ARCNAV_NO_PATH when it surely cannot, ARCNAV_START_BLOCKED or
  /// ARCNAV_GOAL_BLOCKED as begin judges the ends (unless `ends_free`: the caller has judged them
  /// free already), ARCNAV_IN_PROGRESS when only a search can tell, or ARCNAV_ERR_OUT_OF_MEMORY.
  /// Leaves any search set up in `query` alone. NULL for engines that cannot tell without a
  /// search.
  arcnav_status (*decide_reachable)(const void *state, void *query, vec2 start, vec2 goal,
                                    bool ends_free);
  /// Marks in `filter` (an_cell_filter_mark_box()) cells of `grid` that hold every place the
  /// query's agent can reach from `from` (free), told without a search; false when the engine
  /// cannot tell that within `limit` triangles of work (what it marked then bounds nothing).
  /// NULL for engines that cannot tell at all.
  bool (*mark_reachable_cells)(const void *state, void *query, vec2 from,
                               const struct an_grid *grid, size_t limit,
                               struct an_cell_filter *filter);
  /// The test find_path applies to start and goal. With `query` NULL it may allocate working
  /// memory for the one call; with a query object it allocates nothing.
  bool (*point_is_free)(const void *state, void *query, vec2 point);
  /// After a search that found no path while control->ruled_out was set: marks the places it
  /// reached as ruled out under that value; marks under other values stop counting. NULL for an
  /// engine that marks nothing (its searches then rule out each part again). A failure to make
  /// the marks' memory only leaves places unmarked.
  void (*rule_out)(const void *state, void *query, uint32_t mark);
  /// Counts and memory of the built state; the planner adds its own few bytes.
  void (*get_info)(const void *state, arcnav_planner_info *out);
  /// Engines built with a max_radius: later searches and free tests on `query` are for `radius`
  /// (in range, checked by the caller). NULL for engines of one radius.
  void (*set_radius)(const void *state, void *query, double radius);
  /// Later searches and free tests on `query` plan without the obstacles `ignored` marks (per
  /// obstacle index, nonzero: units the query ignores, arcnav_query_set_ignored()); NULL for
  /// none. The mask stays the caller's; `version` changes whenever its contents do. False when
  /// the engine cannot at the query's radius (a point agent). NULL for engines that cannot at all:
  /// their build decided things on account of every obstacle.
  bool (*set_ignored)(const void *state, void *query, const uint8_t *ignored, uint64_t version);
  /// The triangulation of the map's polygons (circles left out) the engine holds, which another
  /// engine of the planner may borrow; NULL when it holds none. May itself be NULL.
  const struct an_navmesh *(*polygon_mesh)(const void *state);
  /// Brings the state up to date with `map`, which differs from the map it was built from (or
  /// last brought up to date with) by `change` alone, without a new build (docs/DESIGN.md, "A
  /// living map"). ARCNAV_ERR_INVALID_ARGUMENT when this engine cannot follow that change
  /// locally (the planner then builds in full); on any failure the state is as it was. NULL for
  /// engines that follow no change locally.
  arcnav_status (*change_locally)(void *state, const arcnav_map *map,
                                  const an_local_change *change);
  /// Called on an engine an update replaced, just before it is destroyed, with the engine built
  /// in its place (of the same table): hands that one what it can use again (the funnel's and the
  /// tangent engine's triangulations: an_navmesh_hand_down()). NULL for engines with nothing to
  /// hand down.
  void (*hand_down)(void *state, void *successor);
  /// The triangles the engine searches, for drawing; NULL when it has none.
  size_t (*triangle_count)(const void *state);
  void (*triangle)(const void *state, size_t index, vec2 out[3]);
  /// The exact free test's grid and settings the engine judges points by, lent to the probes
  /// (clearance, raycast, still-free paths, nearest free point); NULL, or the entry NULL, when
  /// the engine has none (the eroded funnel engines at R > 0).
  const struct an_free_space *(*free_space)(const void *state);
} an_engine_ops;

/// A built engine: its table and its state.
typedef struct an_engine {
  const an_engine_ops *ops;
  void *state;
} an_engine;
