// SPDX-License-Identifier: MIT
#pragma once

// The tangent engine's state, shared by its build (tangent_engine.c) and its two searches: over
// the prebuilt tangent graph (tangent_search.c) and with tangents found on demand
// (tangent_lazy.c).

#include "geom/alloc.h"
#include "index/free_space.h"
#include "mesh/local_polygons.h"
#include "mesh/navmesh.h"
#include "search/engine.h"
#include "search/heap.h"
#include "tangent/inflate.h"
#include "tangent/sight_mesh.h"
#include "tangent/sure_passages.h"
#include "tangent/tangent_graph.h"

/// The squares of the corner grid the prebuilt engine's start attachments flood by, this many
/// cells a side (tangent_search.c, seed_starts; docs/DESIGN.md, "Deferred start attachments"),
/// how many squares span `cells` cells, and how many cover the grid.
enum { AN_START_FLOOD_SPAN = 4 };
static inline int32_t an_start_flood_squares(int32_t cells) {
  return (cells + AN_START_FLOOD_SPAN - 1) / AN_START_FLOOD_SPAN;
}
static inline size_t an_start_flood_square_count(const an_grid *grid) {
  return (size_t)an_start_flood_squares(grid->columns) * (size_t)an_start_flood_squares(grid->rows);
}

/// Built once per planner; read-only while queries run.
typedef struct an_tangent_engine {
  an_allocator alloc;
  /// The radius its indexes are built for: the one radius, or with `ranged` the largest a query
  /// may ask for (every index then offers more than a smaller radius needs, never less).
  double radius;
  bool ranged;
  /// The radius its query objects start at and its point test without one judges: the
  /// planner's radius (for a ranged engine, `radius` when that is a point agent's).
  double start_radius;
  double eps;
  an_corner *corners; ///< the corner circles paths may turn around
  size_t corner_count;
  /// Corners `corners` has room for (0: as many as it holds). An engine built after a local
  /// change leaves room for the next ones, so that they can be written where the array is.
  size_t corner_room;
  /// `corners` is the array of the engine this one replaces, which it keeps reading up to its own
  /// count: a local change that drops nothing before its own corners, and puts them after all
  /// the old ones (an addition) or none (the removal of the last obstacle), reads and writes the
  /// old array instead of a copy. The old engine hands it down when it goes (tangent_hand_down);
  /// until then it is not this engine's to free (docs/DESIGN.md, "Corners kept in place").
  bool corners_borrowed;
  /// The first corners, as many, are those of the engine this one replaced, the same in every
  /// field and number (0 after a full build): a query object renewed for this engine copies only
  /// the others (tangent_query_renew).
  size_t corners_same;
  /// The pinch angles of the circles touched at more than AN_CORNER_PINCHES places, each circle's
  /// together (an_corner.pinch_slice); a point agent's only. NULL when there are none.
  double *pinch_table;
  size_t pinch_table_count, pinch_table_room;
  an_free_space space;
  /// The space's grid tables are the planner's point engine's (an_engine_args.free_space): not
  /// this engine's to free.
  bool borrowed_space;
  /// The polygons' triangulation is the planner's point engine's (an_engine_args.polygon_mesh).
  bool lent_polygons;
  /// The map's extent when built (arcnav_map_extent()): a local change must leave it, so that
  /// the grid's and the triangulation's boxes are a build's.
  vec2 extent_min, extent_max;
  bool has_extent;
  /// The polygons local changes put into own_polygons, which it can take out again.
  an_local_polygons locals;
  an_tangent_graph graph; ///< with tangents on demand, only its corner grid is built
  bool on_demand;
  /// Queries search intervals of the sight mesh's triangulation (disk_search.h), and tangents on
  /// demand only where that search cannot answer.
  bool intervals;
  /// Interval engines: per grid item, the corner whose circle it draws (an edge's first vertex,
  /// a circle obstacle), AN_NONE where there is none; and how far the triangulated box reaches
  /// beyond everything on a map without bounds (INFINITY with bounds): no disk path leaves the box
  /// for a radius below it.
  uint32_t *item_corner;
  double disk_margin;
  /// For a disk without a sight mesh, when `polygons` has landmarks (mesh/landmarks.h): per
  /// corner, the vertex of `polygons` at a polygon corner's centre, or -1 (circle obstacles, a
  /// vertex the triangulation moved); NULL otherwise. The searches bound what is left from a
  /// corner's circle to the goal by the landmarks' lengths to that vertex (and the on-demand
  /// guide's measure); an engine with a sight mesh reads the mesh's own table
  /// (an_sight_mesh_corner_vertex(), the same triangulation).
  int32_t *corner_vertex;
  an_sight_mesh *sight_mesh; ///< on demand: what corners see; NULL: the grid decides
  /// The polygons' triangulation the engine reads (the sight mesh's, one borrowed from the
  /// planner's point engine, or own_polygons); NULL when there is none.
  const struct an_navmesh *polygons;
  /// An interval engine on a map with bounds: every query is the interval search's (no end lies
  /// beyond the box, and the box holds every radius), so the tangents on demand it would leave the
  /// rest to have nothing to do, and neither their corner grid nor their sight mesh is built.
  bool lean;
  /// The polygons' triangulation the engine holds itself, not lent and not its sight mesh's:
  /// prebuilt, for a disk, whose passages tell ends no disk of the radius can join
  /// (docs/DESIGN.md, "No path for a disk without a search"); a lean interval engine's; or, after
  /// a local change, the copy of the engine it replaces' own (which it lends its sight mesh).
  /// NULL when it could not be built (the searches then find that out), or not needed.
  struct an_navmesh *own_polygons;
  /// For a disk: the passages it surely gets through, over the polygons' triangulation (the sight
  /// mesh's or own_polygons), for every radius up to the engine's (docs/DESIGN.md,
  /// "Reachability without a search"); empty for a point agent or without a triangulation.
  an_sure_passages sure;
} an_tangent_engine;

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

typedef struct an_lazy_search an_lazy_search;

/// One query object's working memory.
typedef struct an_tangent_query {
  const an_tangent_engine *engine;
  an_allocator alloc;
  // The radius this query object plans for, and what depends on it: the corner circles (the
  // engine's, or with a ranged engine the query's own copy at its radius) and the clearance
  // settings. Every search reads these, never the engine's.
  double radius;
  const an_corner *corners;
  an_corner *own_corners;
  size_t own_corner_room; ///< corners own_corners holds
  an_clearance settings;
  an_clearance_scratch clearance;
  /// The units this query plans without (an_clearance.ignored; engine.h, `set_ignored`) and the
  /// version of that mask the search's caches were made for.
  const uint8_t *ignored;
  uint64_t ignored_version;
  an_search_control *control; ///< the running search's budget and counters
  // The search over the prebuilt graph:
  an_heap heap;
  uint32_t id_count;      ///< graph nodes + start attachments + the goal
  an_search_node *search; ///< per id
  uint32_t current_generation;
  an_start_node *starts;
  /// Corners not yet attached to the start, keyed by a bound on paths through them.
  an_heap deferred;
  // Corners enter that heap a square of cells of the corner grid at a time (AN_START_FLOOD_SPAN),
  // flooding out from the start's square only as the search needs them.
  uint32_t *entered;        ///< per corner: the generation of the query that entered it
  an_heap squares;          ///< squares found but not entered, keyed by a bound
  uint32_t *square_seen;    ///< per square: the generation of the query that found it
  uint32_t *trail;          ///< node ids of the found path, goal first
  an_goal_exit *goal_exits; ///< per (corner, direction) group: its way to this query's goal
  /// What the landmarks of the engine's polygons say of the running search's goal, and per corner
  /// (by the corners' vertices) the bound an_tangent_corner_bound() made for it, valid where
  /// corner_bound_stamp is bound_stamp: every search asks its corners' bounds many times.
  an_landmark_goal goal_bounds;
  double *corner_bound;
  uint32_t *corner_bound_stamp;
  uint32_t bound_stamp;
  size_t
      corner_bound_room; ///< entries of corner_bound and corner_bound_stamp, all cleared on a wrap
  /// The guide's measure of the running search (an_tangent_set_measure()): a point agent's
  /// lengths from the goal to the polygons' vertices, or NULL.
  const struct an_interval_scratch *measure;
  bool measure_shuts; ///< its guide shut narrow portals (an_interval_shuts_portals())
  // The goal's attachment: touching point on the parent's corner and the arc sweep to it.
  vec2 goal_touch;
  double goal_sweep;
  // The running search's ends, and the expanded node nearest the goal (AN_NONE: none nearer than
  // the start), for the best path so far.
  vec2 search_start, search_goal;
  uint32_t best_id;
  double best_distance;
  // Per corner: the mark of the nearest-reachable probe whose search ruled the corner's whole
  // wedge arc out (engine.h, `rule_out`), and the last mark given; made on first use.
  uint32_t *ruled_out;
  uint32_t ruled_out_last;
  // While a probe rules parts out: the graph nodes the search closed, in order, and per graph
  // node the mark of the probe whose search ruled it out (a node is a place: exact even where
  // its corner's wedge arc is not free).
  uint32_t *closed;
  size_t closed_count, closed_capacity;
  uint32_t *ruled_out_nodes;
  // The search with tangents found on demand:
  an_lazy_search *lazy;
  // The interval search (engine->intervals), and whether it runs the present search rather than
  // the on-demand one.
  struct an_disk_search *disk;
  bool disk_running;
  // The prebuilt search's check of the passages: an interval search over the engine's
  // own_polygons that is only begun, never run.
  struct an_interval_scratch *passages;
  // The flood over the widest passages that bounds where a nearest-reachable probe looks.
  an_passage_flood reach_flood;
} an_tangent_query;

/// Has the running nearest-reachable probe ruled out the part of the free space that corner
/// `corner`'s wedge arc lies in (engine.h, `rule_out`)?
static inline bool an_tangent_ruled_out(const an_tangent_query *query, uint32_t corner) {
  uint32_t mark = query->control->ruled_out;
  return mark != 0 && query->ruled_out && query->ruled_out[corner] == mark;
}

/// The marks' memory for `rule_out` under `mark`: made on first use, cleared when the marks have
/// wrapped round. False when nothing is to be marked: a point agent's query, or no memory.
bool an_tangent_ruled_out_prepare(an_tangent_query *query, uint32_t mark);

/// The narrowest passage a disk of the query's radius may take: 2 (R - 2 eps), what the checks
/// (R - eps each side) admit with one eps more for rounding (docs/DESIGN.md, "No path for a disk
/// without a search").
static inline double an_tangent_min_passage(const an_tangent_query *query) {
  return 2.0 * (query->radius - 2.0 * query->engine->eps);
}

/// Does the query plan without the obstacle `corner` belongs to (a unit it ignores)?
static inline bool an_tangent_ignores(const an_tangent_query *query, const an_corner *corner) {
  return query->ignored != NULL && corner->obstacle >= 0 && query->ignored[corner->obstacle] != 0;
}

/// The least length from any point of corner `corner`'s circle (at the query's radius) to the
/// running search's goal that the landmarks (mesh/landmarks.h) or the guide's measure (where the
/// guide shut no portal: an_tangent_touch_bound()) know of: 0 when they know nothing (a point
/// agent, no landmarks and no measure, a goal off the mesh). Computed once per corner and search.
double an_tangent_corner_bound(an_tangent_query *query, uint32_t corner);

/// A lower bound on the length from `touch`, a point of corner `corner`'s circle, to the running
/// search's goal: an_tangent_corner_bound(), and where the guide shut narrow portals (its measure
/// then bounds nothing for the whole circle), the measure at `touch` (DESIGN.md, "The guide keeps
/// to the disk's passages").
double an_tangent_touch_bound(an_tangent_query *query, uint32_t corner, vec2 touch);

/// Do the running search's corners have bounds beyond the straight line?
static inline bool an_tangent_bounds_corners(const an_tangent_query *query) {
  return query->goal_bounds.count > 0 || query->measure != NULL;
}

/// The running search's guide measured, from its goal, a point agent's lengths to the polygons'
/// vertices (an_interval_begin_measure(), from the goal to the start): its corners' bounds take
/// them from now on. Only for a disk whose bounds the landmarks could give too.
void an_tangent_set_measure(an_tangent_query *query, const struct an_interval_scratch *measure);

/// May the running search, having expanded `expanded` nodes, expand one more?
static inline bool an_tangent_may_expand(const an_tangent_query *query, size_t expanded) {
  return an_may_expand(expanded, query->control->expansion_limit);
}
