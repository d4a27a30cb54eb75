// SPDX-License-Identifier: MIT
#pragma once

/// @file arcnav.h
/// arcnav: exact shortest paths for a circular agent of radius R among obstacles.
///
/// A path is a sequence of straight segments and circular arcs of radius R (or c + R around a
/// circle obstacle of radius c): the agent's centre turns around obstacle corners on rounded
/// curves instead of cutting them. For R = 0 the same API answers through a triangulated navmesh
/// and the funnel algorithm, and the result is still the Euclidean shortest path.
///
/// Typical use:
///   1. arcnav_map_create(), then arcnav_map_add_polygon() / arcnav_map_add_circle() /
///      arcnav_map_set_bounds() for each obstacle;
///   2. arcnav_planner_create() once per map and radius, or once per map for agents of several
///      sizes (arcnav_planner_def.max_radius, then arcnav_query_set_radius()): the expensive part;
///   3. arcnav_query_create() once per thread, arcnav_path_create() once per caller;
///   4. arcnav_find_path() as often as needed. Once warm, a query allocates nothing: the path and
///      the query keep what they grew, and a query needing no more than earlier ones takes no new
///      memory. The prebuilt tangent graph and the plain funnel grow only the path; the on-demand
///      tangent engine and the optimal funnel also grow query scratch (see arcnav_query).
///
/// Threads: a planner is read-only between updates (arcnav_planner_update()), so any number of
/// threads may query one planner at once, each with its own arcnav_query and arcnav_path. An
/// update must not overlap any query on that planner. There is no global state.
///
/// Tolerance ("touching"): every map has a length tolerance eps = 1e-9 * S, where S is the largest
/// of 1, the map's bounding-box width and height, and the largest absolute coordinate. A position
/// is free when its distance to every obstacle is at least R - eps (and, with bounds, its distance
/// to the outside of the bounds is at least R - eps). So an agent may touch obstacles, and for
/// R > 0 a gap of exactly 2R between two obstacles is open, while a gap of 2R - 3 eps is closed.
///
/// At R = 0 obstacles that touch are one wall: a point may touch an obstacle and slide along its
/// boundary, but it never passes between two obstacles, or two parts of one ring (a hole touching
/// its shell), where they touch, along an edge (a seam) or at a single point (a pinch). A point on
/// a seam, closed in by material on every side, is blocked; a point at a pinch is free and may
/// leave into any of the free sides that meet there. This is the limit of what a unit of any
/// positive size can do, and what grid and navmesh planners do on game maps.
///
/// Without bounds the map is the whole plane: every point away from the obstacles is free, however
/// far from them, and every engine answers it.
///
/// Units: all lengths and coordinates are in the caller's units (doubles); angles are radians.

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(ARCNAV_SHARED) && defined(_WIN32)
#if defined(ARCNAV_BUILDING)
#define ARCNAV_API __declspec(dllexport)
#else
#define ARCNAV_API __declspec(dllimport)
#endif
#elif defined(ARCNAV_SHARED)
#define ARCNAV_API __attribute__((visibility("default")))
#else
#define ARCNAV_API
#endif

/// Library version, also printed by `arcnav --version`.
#define ARCNAV_VERSION_STRING "0.1.0"

/// A point or vector in the plane.
typedef struct arcnav_vec2 {
  double x; ///< x coordinate
  double y; ///< y coordinate
} arcnav_vec2;

/// Outcome of every fallible call. Values below ARCNAV_ERR_FIRST are outcomes of a valid question
/// (the first four answer it, and ARCNAV_PARTIAL when asked for; ARCNAV_SEARCH_LIMIT leaves it
/// open); values from ARCNAV_ERR_FIRST on
/// are errors (bad input, no memory) and leave the caller's objects as they were before the call.
typedef enum arcnav_status {
  ARCNAV_OK = 0,        ///< success; for a query: a path was found
  ARCNAV_NO_PATH,       ///< start and goal are free but not connected
  ARCNAV_START_BLOCKED, ///< the agent's disk at the start overlaps an obstacle or leaves the bounds
  ARCNAV_GOAL_BLOCKED,  ///< the agent's disk at the goal overlaps an obstacle or leaves the bounds
  ARCNAV_SEARCH_LIMIT,  ///< the search stopped at the query's expansion limit (see
                        ///< arcnav_query_set_expansion_limit) with neither a path nor a proof
                        ///< that there is none; the path is emptied
  ARCNAV_PARTIAL,       ///< asked for (arcnav_query_set_partial): the goal cannot be reached,
                        ///< and the path leads to the reachable point nearest to it instead
  ARCNAV_IN_PROGRESS,   ///< a sliced search (arcnav_query_resume) spent its slice and waits to
                        ///< be resumed; not an answer yet
  ARCNAV_STATUS_LAST = ARCNAV_IN_PROGRESS,        ///< not a status: the last value below
                                                  ///< ARCNAV_ERR_FIRST (moves when one is added)
  ARCNAV_ERR_FIRST = 16,                          ///< not a status: the first error value
  ARCNAV_ERR_INVALID_ARGUMENT = ARCNAV_ERR_FIRST, ///< NULL pointer, zero count or similar misuse
  ARCNAV_ERR_OUT_OF_MEMORY,                       ///< an allocation failed; nothing was changed
  ARCNAV_ERR_NOT_FINITE,                          ///< a coordinate or radius is NaN or infinite
  ARCNAV_ERR_TOO_FEW_VERTICES,                    ///< a ring has fewer than 3 distinct vertices
  ARCNAV_ERR_ZERO_AREA,         ///< a ring encloses no area (all vertices collinear)
  ARCNAV_ERR_SELF_INTERSECTION, ///< a ring crosses or touches itself, two rings of one polygon
                                ///< cross, or touching rings cut the polygon's interior apart
  ARCNAV_ERR_HOLE_OUTSIDE,      ///< a hole is not inside its polygon's outer ring
  ARCNAV_ERR_NEGATIVE_RADIUS,   ///< a circle radius or agent radius is negative
  ARCNAV_ERR_TOO_LARGE,         ///< a count exceeds what the library can index, or a
                                ///< coordinate or radius exceeds 1e100 in magnitude
  // 25 was ARCNAV_ERR_UNSUPPORTED, which nothing returned; the value is not reused.
  ARCNAV_ERR_RING_OVERLAP = 26,     ///< two rings of one polygon overlap along a piece of an edge
  ARCNAV_ERR_BUFFER_TOO_SMALL = 27, ///< a caller's output buffer holds fewer items than the answer
                                    ///< has: it was filled as far as it goes, and the call says
                                    ///< how many are needed (see arcnav_path_sample)
  ARCNAV_ERR_RADIUS_OUT_OF_RANGE = 28, ///< a query radius the planner was not built for: above
                                       ///< its max_radius, or another than its one radius (see
                                       ///< arcnav_query_set_radius)
  ARCNAV_ERR_STALE_ID = 29,  ///< an arcnav_obstacle_id that names no obstacle of the map: its
                             ///< obstacle was removed, or the id was never given out (an id of
                             ///< another map may name an obstacle of this one: do not mix them)
  ARCNAV_ERR_NO_SEARCH = 30, ///< arcnav_query_resume() or arcnav_query_best_path() on a query
                             ///< object with no sliced search begun, or whose search has ended
  ARCNAV_ERR_LAST = ARCNAV_ERR_NO_SEARCH, ///< not a status: the last error value (moves when one
                                          ///< is appended)
} arcnav_status;

/// Name of a status, e.g. "ok", "no_path", "start_blocked", "self_intersection". Never NULL; an
/// unknown value gives "unknown_status". The first four names are the CLI's JSON `status` strings.
ARCNAV_API const char *arcnav_status_name(arcnav_status status);

/// Human-readable one-line description of a status. Never NULL.
ARCNAV_API const char *arcnav_status_message(arcnav_status status);

/// True for ARCNAV_OK, ARCNAV_NO_PATH, ARCNAV_START_BLOCKED, ARCNAV_GOAL_BLOCKED, ARCNAV_PARTIAL.
ARCNAV_API bool arcnav_status_is_answer(arcnav_status status);

/// Where invalid input was found. Indices are 0-based; -1 means "not applicable".
typedef struct arcnav_error {
  arcnav_status status; ///< same as the returned status
  int obstacle; ///< index the obstacle would have had (arcnav_map_obstacle_count() before the
                ///< call); -1 for bounds
  int ring;     ///< 0 = outer ring, 1.. = holes in the order given; -1 for circles
  int vertex;   ///< index of the offending vertex in the ring as given; -1 when not tied to one
} arcnav_error;

/// Optional allocator, per object (no global hook). NULL or a zero struct means malloc/free.
/// `alloc` returns NULL on failure; arcnav then returns ARCNAV_ERR_OUT_OF_MEMORY.
typedef struct arcnav_allocator {
  void *(*alloc)(size_t size, void *user); ///< [in] allocate `size` bytes, aligned for any type
  void (*free)(void *ptr, void *user);     ///< [in] release a block from `alloc` (never NULL ptr)
  void *user;                              ///< [in] passed back to both
} arcnav_allocator;

// ---------------------------------------------------------------------------------------------
// Map
// ---------------------------------------------------------------------------------------------

/// A set of obstacles plus an optional bounds polygon. Opaque.
typedef struct arcnav_map arcnav_map;

/// Create an empty map. `allocator` [opt] is copied; planners built from the map use it too.
/// @return ARCNAV_OK and *out_map, or ARCNAV_ERR_INVALID_ARGUMENT / ARCNAV_ERR_OUT_OF_MEMORY.
ARCNAV_API arcnav_status arcnav_map_create(const arcnav_allocator *allocator, arcnav_map **out_map);

/// Destroy a map. Planners built from it stay valid (they copy what they need). NULL is a no-op.
ARCNAV_API void arcnav_map_destroy(arcnav_map *map);

/// Add a simple polygon obstacle, optionally with holes (free space inside it).
/// Rings may have either orientation; consecutive duplicate vertices and a closing vertex equal to
/// the first are dropped. A ring must have at least 3 distinct vertices, a non-zero area, and must
/// not cross or touch itself (ARCNAV_ERR_SELF_INTERSECTION); holes must lie inside the outer ring
/// (ARCNAV_ERR_HOLE_OUTSIDE) and outside each other.
/// As in GeoJSON and OGC simple features, two different rings may touch at a single point: a hole
/// may touch the outer ring from inside, and two holes may touch from outside each other, where a
/// vertex of one ring is a vertex of the other or lies exactly on one of its edges (the edge is
/// then stored split at that vertex; the shape is unchanged). Grid maps traced into polygons have
/// these wherever two blocked cells meet only at a corner. Still refused: two rings that cross
/// (ARCNAV_ERR_SELF_INTERSECTION); two rings that share a piece of an edge of positive length
/// (ARCNAV_ERR_RING_OVERLAP); and touches that cut the polygon's interior into pieces, since OGC
/// requires a connected interior: two rings touching at two or more points (a hole touching the
/// outer ring twice cuts off the material between them), or a round of rings each touching the
/// next (three holes touching pairwise), are ARCNAV_ERR_SELF_INTERSECTION, with error->ring and
/// error->vertex at the touch that closes the round. A hole outside the outer ring and touching it
/// is ARCNAV_ERR_HOLE_OUTSIDE; a hole inside another hole and touching it,
/// ARCNAV_ERR_SELF_INTERSECTION. A vertex touches an edge only when it lies on it exactly; one off
/// it by rounding counts as crossing it when a rounded test sees the edges meet.
/// Obstacles may overlap or touch each other: the blocked region is their union.
/// @param outer       [in] outer ring vertices, `outer_count` of them
/// @param holes       [in, opt] `hole_count` pointers to hole rings
/// @param hole_counts [in, opt] vertex count of each hole ring
/// @param error       [out, opt] where the input is at fault, when an error is returned
/// @return ARCNAV_OK, or an error that leaves the map unchanged.
ARCNAV_API arcnav_status arcnav_map_add_polygon(arcnav_map *map, const arcnav_vec2 *outer,
                                                size_t outer_count, const arcnav_vec2 *const *holes,
                                                const size_t *hole_counts, size_t hole_count,
                                                arcnav_error *error);

/// Add a circle obstacle (a disk of `radius` >= 0 around `center`; radius 0 is a point obstacle).
ARCNAV_API arcnav_status arcnav_map_add_circle(arcnav_map *map, arcnav_vec2 center, double radius,
                                               arcnav_error *error);

/// Set (or replace) the bounds polygon: the agent's whole disk must stay inside it. Same ring
/// rules as a polygon's outer ring. error->obstacle is -1 for bounds errors.
ARCNAV_API arcnav_status arcnav_map_set_bounds(arcnav_map *map, const arcnav_vec2 *ring,
                                               size_t count, arcnav_error *error);

/// Number of obstacles on the map (polygons and circles; the bounds are not counted).
ARCNAV_API size_t arcnav_map_obstacle_count(const arcnav_map *map);

/// Names one obstacle of one map for as long as the obstacle exists, whatever is added or removed
/// meanwhile. Ids are values to copy and compare; 0 is never an id. Each carries a generation, so
/// an id kept after its obstacle was removed is refused with ARCNAV_ERR_STALE_ID, even once a new
/// obstacle took the removed one's place.
typedef uint64_t arcnav_obstacle_id;

/// The id of the obstacle at `index`, 0 when `index` is out of range. Obstacles are indexed
/// 0 .. arcnav_map_obstacle_count() - 1 in the order they were added; removing one moves the later
/// ones down by one, and moving one keeps its index. So the obstacle an add just put on the map is
/// arcnav_map_obstacle_id(map, arcnav_map_obstacle_count(map) - 1).
ARCNAV_API arcnav_obstacle_id arcnav_map_obstacle_id(const arcnav_map *map, size_t index);

/// The current index of obstacle `id` into *out_index.
/// @return ARCNAV_OK, ARCNAV_ERR_STALE_ID, or ARCNAV_ERR_INVALID_ARGUMENT (NULL map or out_index).
ARCNAV_API arcnav_status arcnav_map_obstacle_index(const arcnav_map *map, arcnav_obstacle_id id,
                                                   size_t *out_index);

/// Remove obstacle `id` from the map; its id becomes stale. Planners built from the map are
/// brought up to date by arcnav_planner_update(). Allocates nothing.
/// @return ARCNAV_OK, ARCNAV_ERR_STALE_ID (the map is unchanged) or ARCNAV_ERR_INVALID_ARGUMENT.
ARCNAV_API arcnav_status arcnav_map_remove_obstacle(arcnav_map *map, arcnav_obstacle_id id);

/// Move obstacle `id` by `by`; it keeps its id and index. A moved polygon is checked again as
/// arcnav_map_add_polygon() checks a new one, since rounding the moved coordinates can make
/// touching rings of it cross; `error` names the obstacle by its index.
/// @return ARCNAV_OK, or an error that leaves the map unchanged: ARCNAV_ERR_STALE_ID,
///         ARCNAV_ERR_NOT_FINITE, ARCNAV_ERR_TOO_LARGE (a coordinate would leave the range),
///         a ring error of arcnav_map_add_polygon(), ARCNAV_ERR_OUT_OF_MEMORY or
///         ARCNAV_ERR_INVALID_ARGUMENT.
ARCNAV_API arcnav_status arcnav_map_move_obstacle(arcnav_map *map, arcnav_obstacle_id id,
                                                  arcnav_vec2 by, arcnav_error *error);

/// Add a unit: a circle obstacle (as arcnav_map_add_circle() adds) that a query may be told to
/// plan without (arcnav_query_set_ignored()), for the units of a game, which block one another but
/// not themselves or their own squad. Move and remove it as any obstacle; bring planners up to
/// date with arcnav_planner_update(). A map with units is planned by the tangent engine with
/// tangents on demand wherever the engine is ARCNAV_ENGINE_AUTO (docs/DESIGN.md, "Units").
/// @param out_id [out, opt] the unit's id (0 on error)
/// @return ARCNAV_OK, or an error of arcnav_map_add_circle() that leaves the map unchanged.
ARCNAV_API arcnav_status arcnav_map_add_unit(arcnav_map *map, arcnav_vec2 center, double radius,
                                             arcnav_obstacle_id *out_id);

/// Is `id` a unit of the map (added by arcnav_map_add_unit())? False for a stale id.
ARCNAV_API bool arcnav_map_obstacle_is_unit(const arcnav_map *map, arcnav_obstacle_id id);

/// Axis-aligned box around every obstacle and the bounds; false for an empty map.
ARCNAV_API bool arcnav_map_extent(const arcnav_map *map, arcnav_vec2 *out_min,
                                  arcnav_vec2 *out_max);

/// The map's length tolerance eps (see the file comment).
ARCNAV_API double arcnav_map_tolerance(const arcnav_map *map);

// ---------------------------------------------------------------------------------------------
// Planner
// ---------------------------------------------------------------------------------------------

/// Which algorithm answers queries.
///
/// The funnel engines plan for a point on a navmesh; circle obstacles become circumscribed
/// 64-gons. For a point agent, start and goal are judged by the exact free test as in every engine;
/// an end that is free but lies in the sliver between a circle and its 64-gon has no path on the
/// mesh (ARCNAV_NO_PATH). At R > 0 they plan on obstacles grown by R with polygonal corners, as a
/// navmesh built on eroded walkable space would: every edge moves out by R, convex corners get a
/// miter (turns up to 90 degrees) or a square bevel at distance R (sharper turns), reflex corners
/// the meeting point of the moved edges; holes and the bounds shrink by R. Start and goal are then
/// judged on the grown obstacles (a point inside one is ARCNAV_START_BLOCKED / ARCNAV_GOAL_BLOCKED,
/// even where the agent's disk would fit). Their paths are polylines, not the shortest paths for
/// the disk: they exist for comparison and are not guaranteed to keep clearance R. At R = 0 every
/// engine follows the touching rule (see the file comment) and answers the whole plane.
typedef enum arcnav_engine {
  ARCNAV_ENGINE_AUTO = 0,     ///< optimal funnel for R = 0 among polygons only; else tangent graph
  ARCNAV_ENGINE_TANGENT,      ///< tangent visibility graph (any R; at R = 0 a visibility graph)
  ARCNAV_ENGINE_FUNNEL,       ///< navmesh, searched until optimal: exact for R = 0 among polygons
                              ///< (intervals of triangle edges, Polyanya); on grown obstacles for
                              ///< R > 0 (channels string-pulled, TA*)
  ARCNAV_ENGINE_PLAIN_FUNNEL, ///< navmesh + funnel over the first channel only (Detour-like)
  /// exact for any R > 0, like the tangent engine, with nothing built per radius: intervals of
  /// the polygons' triangulation seen from the start and from corner circles, searched per query
  /// (Polyanya for a disk). A point agent gets what ARCNAV_ENGINE_AUTO builds for R = 0.
  ARCNAV_ENGINE_INTERVAL,
} arcnav_engine;

/// How the tangent engine finds its tangents. Answers are the same either way; what differs is
/// where the time goes.
typedef enum arcnav_tangent_graph {
  ARCNAV_TANGENT_GRAPH_AUTO = 0,  ///< prebuilt up to ARCNAV_TANGENT_GRAPH_AUTO_LIMIT corner
                                  ///< circles, on demand above (a prebuilt graph grows with the
                                  ///< square of the corners on open maps), on a map with units,
                                  ///< and once arcnav_planner_update() followed a change
  ARCNAV_TANGENT_GRAPH_PREBUILT,  ///< every free tangent found when the planner is built: the
                                  ///< fastest queries, for a map that answers many of them
  ARCNAV_TANGENT_GRAPH_ON_DEMAND, ///< the planner holds only its spatial indexes; each query finds
                                  ///< the tangents its search reaches: the fastest build, for
                                  ///< large maps and for maps that answer few queries
} arcnav_tangent_graph;

/// Corner circles up to which ARCNAV_TANGENT_GRAPH_AUTO prebuilds the graph.
#define ARCNAV_TANGENT_GRAPH_AUTO_LIMIT 4000

/// Planner settings. Always start from arcnav_default_planner_def().
///
/// One planner for agents of several sizes: set max_radius > 0, and each query object may ask for
/// any radius from 0 to max_radius (arcnav_query_set_radius()) with no further build; `radius` is
/// then the radius new query objects start with. Such a planner answers a query at radius r with
/// exactly the path a planner built for r alone answers (same engine choice as AUTO or TANGENT
/// would make for r): for r = 0 its point-agent part (the optimal funnel among polygons, the
/// tangent engine when there are circle obstacles or the engine is TANGENT), for r > 0 the tangent
/// engine with tangents found on demand, whose indexes are built once for max_radius (with
/// ARCNAV_ENGINE_INTERVAL, the same indexes searched by intervals). Only ARCNAV_ENGINE_AUTO,
/// ARCNAV_ENGINE_TANGENT and ARCNAV_ENGINE_INTERVAL take a max_radius (the funnel engines erode
/// the map by one radius); tangent_graph then applies to the point-agent part only.
typedef struct arcnav_planner_def {
  double radius;                      ///< agent radius R >= 0, in map units
  arcnav_engine engine;               ///< default ARCNAV_ENGINE_AUTO
  arcnav_tangent_graph tangent_graph; ///< tangent engine only; default ARCNAV_TANGENT_GRAPH_AUTO
  double max_radius;  ///< 0 (default): queries at `radius` only; > 0: any radius up to it
  int internal_magic; ///< set by arcnav_default_planner_def(); catches zero-initialised defs
} arcnav_planner_def;

/// A planner: the map inflated by R with its search structure, built once. Opaque, read-only
/// after creation.
typedef struct arcnav_planner arcnav_planner;

/// Default settings: radius 0, ARCNAV_ENGINE_AUTO.
ARCNAV_API arcnav_planner_def arcnav_default_planner_def(void);

/// Build a planner for `map` and `def->radius` (or every radius up to `def->max_radius`). The map
/// may be destroyed or changed afterwards.
/// @return ARCNAV_OK, ARCNAV_ERR_INVALID_ARGUMENT (NULL, def not from the default function, a
///         max_radius below radius, or a max_radius with a funnel engine),
///         ARCNAV_ERR_NEGATIVE_RADIUS, ARCNAV_ERR_NOT_FINITE, ARCNAV_ERR_TOO_LARGE,
///         ARCNAV_ERR_OUT_OF_MEMORY.
ARCNAV_API arcnav_status arcnav_planner_create(const arcnav_map *map, const arcnav_planner_def *def,
                                               arcnav_planner **out_planner);

/// Destroy a planner. Queries created from it must be destroyed first. NULL is a no-op.
ARCNAV_API void arcnav_planner_destroy(arcnav_planner *planner);

/// Bring a planner up to date with `map` as it is now (after obstacles were added, removed or
/// moved), with the definition it was created with, but that ARCNAV_TANGENT_GRAPH_AUTO then finds
/// tangents on demand (a prebuilt graph would be built again on every change; on demand, the
/// changes after the first follow locally as below). Its query objects stay valid: each brings
/// its working memory up to date on its next use, keeping its radius and expansion limit. It
/// renews the memory in place where the planner's engines allow (its tables keep their room, with
/// an eighth to spare when the map outgrows them): tangents on demand (AUTO with a max_radius, or
/// at R > 0 above the prebuilt graph's limit), ARCNAV_ENGINE_INTERVAL and the optimal funnel of
/// point agents; a query object used since the update before then costs about what the change
/// touched. Otherwise it makes its memory again as arcnav_query_create() does.
/// The planner is changed locally where it can be (arcnav_planner_local_updates()), else built
/// again in full (the cost of arcnav_planner_create()). Locally today: a planner for point agents
/// (radius 0, no max_radius) planned by ARCNAV_ENGINE_FUNNEL or ARCNAV_ENGINE_PLAIN_FUNNEL (AUTO
/// picks them among polygons), or a planner with a max_radius (AUTO or ARCNAV_ENGINE_INTERVAL),
/// whose disk engine is then built again on the changed triangulation but keeps what the change
/// leaves alone (many times cheaper than a full build, not as cheap as the point agent's
/// planner), on a map without circles whose extent the change leaves as it was
/// (with bounds, or a building inside the extent of the rest), when the one change since its last
/// build or update is a polygon added clear of everything else (farther than a few tolerances
/// from any obstacle and the bounds), the removal of a polygon it added that way, or a move of
/// such a polygon to a place clear of everything but where it stood. And any planner planned
/// with tangents on demand (AUTO's choice on a map with units, and on large maps), when the one
/// change is a circle or unit added, removed or moved, or a polygon as above, clear of
/// everything where it was and where it is, on a map whose extent stays. Answers are the same
/// either way.
/// Threads: no query may run on the planner, on any thread, while it is updated; queries on
/// several threads may run again once the call returned.
/// @return ARCNAV_OK, ARCNAV_ERR_INVALID_ARGUMENT, or ARCNAV_ERR_OUT_OF_MEMORY /
/// ARCNAV_ERR_TOO_LARGE,
///         which leave the planner answering for the map as it was.
ARCNAV_API arcnav_status arcnav_planner_update(arcnav_planner *planner, const arcnav_map *map);

/// How many of the planner's updates (arcnav_planner_update()) changed it locally instead of
/// building it again; 0 for NULL.
ARCNAV_API uint64_t arcnav_planner_local_updates(const arcnav_planner *planner);

/// The agent radius the planner was built for (with a max_radius: the radius its query objects
/// start with).
ARCNAV_API double arcnav_planner_radius(const arcnav_planner *planner);

/// The largest radius its queries may ask for: def->max_radius, or its one radius without one.
ARCNAV_API double arcnav_planner_max_radius(const arcnav_planner *planner);

/// The engine that answers queries (never ARCNAV_ENGINE_AUTO); for a planner with a max_radius,
/// the one that answers radii above 0 (ARCNAV_ENGINE_TANGENT, or ARCNAV_ENGINE_INTERVAL when the
/// definition asked for it). An interval planner for a point agent (radius 0, no max_radius)
/// reports what ARCNAV_ENGINE_AUTO builds for R = 0.
ARCNAV_API arcnav_engine arcnav_planner_engine(const arcnav_planner *planner);

/// Size figures of a built planner, for diagnostics and benchmarks.
typedef struct arcnav_planner_info {
  size_t corner_count;   ///< corner circles (convex corners and circle obstacles)
  size_t node_count;     ///< tangent-graph nodes (0 for funnel engines)
  size_t edge_count;     ///< free tangent segments kept (0 for funnel engines)
  size_t triangle_count; ///< navmesh triangles (0 for the tangent engine)
  size_t memory_bytes;   ///< bytes held by the planner
} arcnav_planner_info;

/// Fill *out_info. Never fails for a valid planner.
ARCNAV_API void arcnav_planner_get_info(const arcnav_planner *planner,
                                        arcnav_planner_info *out_info);

/// Number of free navmesh triangles (funnel engines; 0 for the tangent engine).
ARCNAV_API size_t arcnav_planner_triangle_count(const arcnav_planner *planner);

/// Corners of free navmesh triangle `index` (< arcnav_planner_triangle_count()) into out[3].
/// Returns false when out of range. For drawing and debugging the triangulation.
ARCNAV_API bool arcnav_planner_triangle(const arcnav_planner *planner, size_t index,
                                        arcnav_vec2 out[3]);

/// Is the agent's disk centred at `point` free (see the tolerance rule)? A convenience for
/// occasional tests: it allocates temporary marks on every call (prefer
/// arcnav_query_point_is_free() in loops, which answers the same without allocating).
/// arcnav_find_path() applies the same test to start and goal. For a funnel engine at R > 0 the
/// test is "outside the grown obstacles" (see arcnav_engine). Returns false also when its
/// temporary allocation fails or the arguments are invalid.
ARCNAV_API bool arcnav_planner_point_is_free(const arcnav_planner *planner, arcnav_vec2 point);

// ---------------------------------------------------------------------------------------------
// Paths
// ---------------------------------------------------------------------------------------------

/// Kind of a path piece.
typedef enum arcnav_piece_type {
  ARCNAV_PIECE_LINE = 0, ///< straight segment from `from` to `to`
  ARCNAV_PIECE_ARC = 1,  ///< circular arc from `from` to `to` around `center`
} arcnav_piece_type;

/// One piece of a path. Consecutive pieces share endpoints exactly.
typedef struct arcnav_piece {
  arcnav_piece_type type; ///< line or arc
  arcnav_vec2 from;       ///< start point
  arcnav_vec2 to;         ///< end point
  arcnav_vec2 center;     ///< arc centre (arcs only)
  double radius;          ///< arc radius (arcs only)
  double sweep;           ///< arc sweep in radians, in (0, 2*pi] (arcs only)
  bool ccw;               ///< arc turns counter-clockwise (arcs only)
  double length;          ///< length of this piece
} arcnav_piece;

/// A path: caller-owned, reusable storage for a query's answer. Opaque.
typedef struct arcnav_path arcnav_path;

/// Create an empty path. `allocator` [opt]: NULL means malloc/free.
ARCNAV_API arcnav_status arcnav_path_create(const arcnav_allocator *allocator,
                                            arcnav_path **out_path);

/// Destroy a path. NULL is a no-op.
ARCNAV_API void arcnav_path_destroy(arcnav_path *path);

/// Replace the path's pieces with `count` pieces of the caller's (a path kept by a game, or read
/// back from the CLI's JSON), so that the path can be checked again (arcnav_query_path_is_free()).
/// Each piece's length is computed from its geometry (the `length` given is ignored); lines need
/// `from` and `to`, arcs also `center`, `radius` > 0, `sweep` in (0, 2 pi] and `ccw`, with both
/// ends on the circle. Consecutive pieces must meet, ends on circles lie on them, to within the
/// tolerance of a map as large as the path (arcnav.h). With `count` 0 the path is empty, at the
/// origin.
/// @return ARCNAV_OK; ARCNAV_ERR_INVALID_ARGUMENT (NULL, an unknown type, a bad radius or sweep,
///         pieces that do not meet), ARCNAV_ERR_NOT_FINITE, ARCNAV_ERR_TOO_LARGE or
///         ARCNAV_ERR_OUT_OF_MEMORY, all of which leave the path as it was.
ARCNAV_API arcnav_status arcnav_path_assign(arcnav_path *path, const arcnav_piece *pieces,
                                            size_t count);

/// Number of pieces (0 when the last query did not find a path, or for start == goal).
ARCNAV_API size_t arcnav_path_piece_count(const arcnav_path *path);

/// Piece `index` (< arcnav_path_piece_count()); returns a zeroed piece when out of range.
ARCNAV_API arcnav_piece arcnav_path_piece(const arcnav_path *path, size_t index);

/// Total length: the sum of the piece lengths.
ARCNAV_API double arcnav_path_length(const arcnav_path *path);

/// Start and end points of the path (the query's start and goal when found).
ARCNAV_API arcnav_vec2 arcnav_path_start(const arcnav_path *path);
ARCNAV_API arcnav_vec2 arcnav_path_end(const arcnav_path *path);

/// Position and unit heading at arc length `distance` from the start, clamped to [0, length].
/// For an empty path, the start point and heading (1, 0).
ARCNAV_API void arcnav_path_point_at(const arcnav_path *path, double distance,
                                     arcnav_vec2 *out_position, arcnav_vec2 *out_heading);

/// Points along the path every `spacing` (> 0) units of length, starting with the start point and
/// always ending with the end point. Writes the number the full sampling needs into *out_count,
/// and the first min(that number, `max_points`) points into `out_points` [opt]. To ask only for
/// the size, pass out_points NULL and max_points 0. Allocates nothing.
/// @return ARCNAV_OK (every point written, or only the size asked for);
///         ARCNAV_ERR_BUFFER_TOO_SMALL when max_points is less than *out_count: the buffer holds
///         the first max_points points, and *out_count tells the size needed;
///         ARCNAV_ERR_INVALID_ARGUMENT for a NULL path or out_count, a spacing that is not
///         positive and finite (*out_count is then left unset), or a NULL out_points with
///         max_points > 0 (*out_count is set); ARCNAV_ERR_TOO_LARGE when more than about 1e9
///         points would be needed.
ARCNAV_API arcnav_status arcnav_path_sample(const arcnav_path *path, double spacing,
                                            arcnav_vec2 *out_points, size_t max_points,
                                            size_t *out_count);

// ---------------------------------------------------------------------------------------------
// Queries
// ---------------------------------------------------------------------------------------------

/// Per-thread scratch memory for queries on one planner (node pool, heap, marks). Opaque.
///
/// What a query may allocate. arcnav_query_create() sizes ahead everything whose size the planner
/// fixes; arcnav_find_path() may still grow, each array when a query needs more of it than any
/// query before it on the same objects:
///   - every engine: the arcnav_path's pieces (through the path's allocator);
///   - the tangent engine with tangents found on demand (ARCNAV_TANGENT_GRAPH_ON_DEMAND, or AUTO
///     above ARCNAV_TANGENT_GRAPH_AUTO_LIMIT corner circles): the tangents the search makes, its
///     open list, its runs of departures per corner and the trail of the found path, all made
///     afresh by every query, the stack of triangle windows its sight mesh walks, and the node
///     pool of its guide (a point agent's search among the polygons, see docs/DESIGN.md);
///   - the optimal funnel (ARCNAV_ENGINE_FUNNEL, and AUTO for R = 0 among polygons only): its
///     search node pool, as arcnav_query_create() describes;
///   - arcnav_query_nearest_reachable(), and partial answers that use it, with the tangent
///     engine: a mark per corner circle, with the prebuilt graph also one per graph node (4
///     bytes each), made on first use, and a path the query object keeps, made on first use;
///   - arcnav_query_reachable() when a search must tell: that same path;
///   - the optimal funnel on a map without bounds: the first query with an end beyond the
///     triangulated box makes a funnel's scratch for such ends (per triangle of the map).
/// The prebuilt tangent graph (ARCNAV_TANGENT_GRAPH_PREBUILT, or AUTO up to the limit) and the
/// plain funnel grow nothing but the path. Query scratch grows through the map's allocator, is
/// kept for later queries and released by arcnav_query_destroy(), so allocation stops once the
/// arrays are as large as the largest query needs; for the on-demand tangent engine that size
/// depends on the query (how far its search spreads), not only on the map. A growth that fails
/// makes the query return ARCNAV_ERR_OUT_OF_MEMORY with an empty path. After
/// arcnav_planner_update() the first call on a query object (arcnav_find_path(),
/// arcnav_query_set_radius() or arcnav_query_point_is_free()) brings its working memory up to
/// date (see arcnav_planner_update()), allocating only where the map outgrew it; otherwise
/// arcnav_query_point_is_free() and arcnav_query_get_stats() never allocate.
typedef struct arcnav_query arcnav_query;

/// Create query scratch for `planner`, sized once so that queries allocate nothing except as
/// arcnav_query describes. The optimal funnel engine's search node pool starts at 4 (R = 0) or 8
/// (R > 0) per navmesh triangle + 1024 (enough for the maps measured), doubles through the map's
/// allocator when a query needs more, and keeps that size for later queries.
ARCNAV_API arcnav_status arcnav_query_create(const arcnav_planner *planner,
                                             arcnav_query **out_query);

/// Destroy query scratch. NULL is a no-op.
ARCNAV_API void arcnav_query_destroy(arcnav_query *query);

/// Diagnostics of the last arcnav_find_path() call on a query object.
typedef struct arcnav_query_stats {
  size_t nodes_expanded; ///< search nodes taken off the open list
  size_t edges_checked;  ///< free checks performed during the query
  size_t channels;       ///< funnel engines: channels string-pulled (0 for the tangent engine)
} arcnav_query_stats;

/// Caps the work of every later arcnav_find_path() on `query`: at most `max_expansions` search
/// nodes are expanded (0, the default, means no cap). A node is what arcnav_query_stats counts in
/// nodes_expanded; the tangent engine without a prebuilt graph also counts each time it looks
/// further from a corner it has already expanded, and the nodes of its guide (a point agent's
/// search among the polygons, run first). A search that would expand one more ends with
/// ARCNAV_SEARCH_LIMIT and an empty path; the query object stays usable. This bounds a query on
/// any input, adversarial geometry included, for callers with a frame budget or a time limit; a
/// cap large enough never changes a path.
/// @return ARCNAV_OK, or ARCNAV_ERR_INVALID_ARGUMENT for a NULL query.
ARCNAV_API arcnav_status arcnav_query_set_expansion_limit(arcnav_query *query,
                                                          size_t max_expansions);

/// Partial answers for every later arcnav_find_path() and sliced search on `query` (off by
/// default): when the goal cannot be reached, the path leads to the reachable point nearest to it
/// instead, and the call returns ARCNAV_PARTIAL (arcnav_path_end() is that point).
///   - A goal where the agent does not fit (inside a building, too close to a wall): the search
///     goes to the nearest place the agent fits (arcnav_query_nearest_free()); reached, that place
///     is the reachable point nearest to the goal.
///   - A free goal that cannot be reached (a sealed courtyard), or a nearest place that cannot:
///     the search that found no path gives way to one to arcnav_query_nearest_reachable() from
///     the start, which costs a search for each free place it must rule out first (see there).
/// When no point can be reached the answer stays ARCNAV_GOAL_BLOCKED or ARCNAV_NO_PATH. Needs an
/// exact engine as the probes do (on an eroded funnel planner at R > 0 answers stay as they are).
/// Finding those places may make the probes' working memory (see "Probes"), so arcnav_find_path()
/// may then return ARCNAV_ERR_OUT_OF_MEMORY; the searches that rule places out run within the
/// call, or the resume, that found no path, and share the query's expansion limit (reaching it
/// answers ARCNAV_SEARCH_LIMIT): see arcnav_query_nearest_reachable() for their cost.
/// @return ARCNAV_OK, or ARCNAV_ERR_INVALID_ARGUMENT for a NULL query.
ARCNAV_API arcnav_status arcnav_query_set_partial(arcnav_query *query, bool partial);

/// The agent radius of every later arcnav_find_path() and arcnav_query_point_is_free() on `query`
/// (it starts at the planner's radius). The planner answers it with no further build.
/// @return ARCNAV_OK, ARCNAV_ERR_INVALID_ARGUMENT (NULL query), ARCNAV_ERR_NOT_FINITE,
///         ARCNAV_ERR_NEGATIVE_RADIUS, or ARCNAV_ERR_RADIUS_OUT_OF_RANGE: above the planner's
///         max_radius, or for a planner without one any radius but its own;
///         ARCNAV_ERR_OUT_OF_MEMORY after an update (see arcnav_query). On an error the query
///         keeps its radius.
ARCNAV_API arcnav_status arcnav_query_set_radius(arcnav_query *query, double radius);

/// The units (arcnav_map_add_unit()) every later search and probe on `query` plans without, as if
/// they were not on the map: the unit itself and its squad. `count` 0 (ids may then be NULL)
/// ignores none again. The list is kept as ids: after arcnav_planner_update() it names the same
/// units, and a unit removed since is simply not there to ignore. Ends a sliced search begun on
/// `query`.
/// Ignoring needs the tangent engine with tangents on demand (which ARCNAV_ENGINE_AUTO builds for
/// a map with units) or the interval engine, and a radius above the point-agent tolerance: for a
/// point agent, units that touch other obstacles make one wall with them (the touching rule),
/// fixed when the planner is built. A search or probe whose list names a unit on the map, at a
/// radius or on a planner that cannot ignore it, returns ARCNAV_ERR_INVALID_ARGUMENT (and
/// arcnav_query_point_is_free() false).
/// @return ARCNAV_OK; ARCNAV_ERR_STALE_ID (an id names no obstacle of the map as the planner was
///         last built or updated), ARCNAV_ERR_INVALID_ARGUMENT (NULL query, NULL ids with a count,
///         an obstacle that is not a unit, or an engine or radius that cannot ignore units),
///         ARCNAV_ERR_OUT_OF_MEMORY; on an error the query keeps its list.
ARCNAV_API arcnav_status arcnav_query_set_ignored(arcnav_query *query,
                                                  const arcnav_obstacle_id *ids, size_t count);

/// The query's agent radius (0 for a NULL query).
ARCNAV_API double arcnav_query_radius(const arcnav_query *query);

/// Shortest path for the query's agent (radius: arcnav_query_radius()) from `start` to `goal` into
/// `path`.
/// @return ARCNAV_OK (path filled), ARCNAV_PARTIAL (path filled, to another end: see
///         arcnav_query_set_partial()), ARCNAV_NO_PATH, ARCNAV_START_BLOCKED, ARCNAV_GOAL_BLOCKED,
///         ARCNAV_SEARCH_LIMIT (path emptied), ARCNAV_ERR_NOT_FINITE, ARCNAV_ERR_INVALID_ARGUMENT,
///         or ARCNAV_ERR_OUT_OF_MEMORY when `path` or the funnel's node pool (see
///         arcnav_query_create()) had to grow and could not, or after arcnav_planner_update() the
///         query object could not make its working memory again. Unlike other calls,
///         on out-of-memory the path is left empty (never half-filled); query and planner stay
///         usable.
ARCNAV_API arcnav_status arcnav_find_path(arcnav_query *query, arcnav_vec2 start, arcnav_vec2 goal,
                                          arcnav_path *path);

// Sliced search: the same search as arcnav_find_path(), run a budget of expansions at a time
// (a frame's share), on one query object.

/// Begins a sliced search from `start` to `goal` for the query's agent; nothing is searched until
/// arcnav_query_resume(). A search already in progress on `query` is dropped. The answer is the
/// one arcnav_find_path() gives for the same query (expansion limit and partial answers
/// included), whatever the slices. arcnav_find_path(), arcnav_query_set_radius() and
/// arcnav_query_nearest_reachable() (which searches) on `query` end a sliced search; the other
/// probes and arcnav_query_point_is_free() do not. After
/// arcnav_planner_update() the search starts again, on the new map, at the next resume.
/// @return ARCNAV_OK, ARCNAV_ERR_INVALID_ARGUMENT (NULL query), ARCNAV_ERR_NOT_FINITE or
///         ARCNAV_ERR_TOO_LARGE (a coordinate), which leave no search begun.
ARCNAV_API arcnav_status arcnav_query_begin(arcnav_query *query, arcnav_vec2 start,
                                            arcnav_vec2 goal);

/// Runs the begun search for at most `max_expansions` more expansions (counted as the expansion
/// limit counts them, see arcnav_query_set_expansion_limit(); 0: to the end). ARCNAV_IN_PROGRESS
/// when the slice is spent first, with `path` emptied; otherwise the answer, exactly as
/// arcnav_find_path() returns it (path filled on ARCNAV_OK and ARCNAV_PARTIAL), and the search has
/// ended. arcnav_query_get_stats() counts the whole search so far. With partial answers, the
/// resume that finds the goal cannot be reached also runs the searches that rule nearer places
/// out (arcnav_query_set_partial()), uncounted and beyond the slice.
/// @return ARCNAV_IN_PROGRESS, what arcnav_find_path() returns, or ARCNAV_ERR_NO_SEARCH when no
///         search is begun. On ARCNAV_ERR_OUT_OF_MEMORY the search has ended.
ARCNAV_API arcnav_status arcnav_query_resume(arcnav_query *query, size_t max_expansions,
                                             arcnav_path *path);

/// While a sliced search is in progress: into `path`, the path the search has found so far to the
/// place it has reached nearest the goal (straight-line distance), free for the query's agent, to
/// follow at once while the search goes on; before the first expansion, or when nothing reached
/// is nearer the goal than the start, the start alone (no pieces). It ends where arcnav_path_end()
/// says. Allocates only the path's pieces.
/// @return ARCNAV_OK, ARCNAV_ERR_INVALID_ARGUMENT (NULL argument), ARCNAV_ERR_NO_SEARCH, or
///         ARCNAV_ERR_OUT_OF_MEMORY (path emptied).
ARCNAV_API arcnav_status arcnav_query_best_path(arcnav_query *query, arcnav_path *path);

/// Statistics of the last arcnav_find_path() on `query`, or of the sliced search so far.
ARCNAV_API arcnav_query_stats arcnav_query_get_stats(const arcnav_query *query);

/// The same answer as arcnav_planner_point_is_free() on the query's planner, for every engine and
/// radius (the query's radius: arcnav_query_set_radius()), but with the query's own marks: it
/// allocates nothing (but see arcnav_query after an update), so it suits loops (one thread per
/// query, as for arcnav_find_path()). Returns false for a NULL query, a point that is not finite,
/// or when its working memory could not be made again after an update.
ARCNAV_API bool arcnav_query_point_is_free(arcnav_query *query, arcnav_vec2 point);

// ---------------------------------------------------------------------------------------------
// Probes: clearance, raycast, still-free paths, nearest free point
// ---------------------------------------------------------------------------------------------
//
// Questions about the free space around a unit, for steering and for a map that changed under
// moving units. They use the query object's radius (arcnav_query_radius()) and its working
// memory, so they are thread-safe per query object like arcnav_find_path(), and judge positions
// by the same free test as arcnav_query_point_is_free() (the touching rule for point agents).
//
// They need an exact engine: a planner whose queries at this radius are answered by the tangent
// engine or by a funnel engine at R = 0 (every planner but the funnel engines at R > 0, which
// judge points on grown obstacles); otherwise they return ARCNAV_ERR_INVALID_ARGUMENT.
//
// Memory: the first probe on a query object allocates its probe working memory (about 60 bytes
// per obstacle edge plus 48 KB) through the planner's allocator, and may therefore return
// ARCNAV_ERR_OUT_OF_MEMORY, leaving the outputs unset; later probes allocate nothing.
// arcnav_query_destroy() releases it.
//
// Every probe returns ARCNAV_ERR_INVALID_ARGUMENT for a NULL query or output, or a planner without
// an exact engine (see above), ARCNAV_ERR_NOT_FINITE for a NaN or infinite coordinate, and
// ARCNAV_ERR_TOO_LARGE for a coordinate beyond 1e100 in magnitude, as arcnav_find_path() does; on
// an error the outputs are left unset.

/// Distance from a point to the blocked region and where it is nearest.
typedef struct arcnav_clearance {
  double distance;     ///< distance to the blocked region; 0 inside it; INFINITY when !found
  arcnav_vec2 nearest; ///< the nearest point of the blocked region (the point itself inside it)
  bool found;          ///< false when the map blocks nothing (no obstacles, no bounds)
} arcnav_clearance;

/// The distance from `point` to the blocked region (polygon and circle material, and the outside
/// of the bounds when the map has bounds) and its nearest point, exactly (no tolerance): 0 and the
/// point itself when it lies inside material. Independent of the query's radius: a disk of
/// radius R centred at the point is free when distance >= R - eps (see the file comment; for
/// point agents the touching rule decides on walls that touch).
/// @return ARCNAV_OK and *out, or an error (see above).
ARCNAV_API arcnav_status arcnav_query_clearance(arcnav_query *query, arcnav_vec2 point,
                                                arcnav_clearance *out);

/// Where a swept disk stops.
typedef struct arcnav_ray_hit {
  bool hit;           ///< the disk stopped before max_distance
  double distance;    ///< how far the centre went: the stop, or max_distance without a hit
  arcnav_vec2 point;  ///< from + distance * direction: the disk's centre at contact; without a
                      ///< hit and with max_distance INFINITY, infinite in each coordinate the
                      ///< direction moves (the others are from's)
  arcnav_vec2 normal; ///< with a hit: the unit vector from the contact point on the obstacle
                      ///< towards the centre; (0, 0) without one
} arcnav_ray_hit;

/// Sweeps the query's disk from `from` along `direction` (normalised here; any length but zero)
/// for at most `max_distance` (>= 0, may be INFINITY), and finds the largest t <= max_distance
/// such that the disk is free (the free test above) at every centre from + s * direction,
/// 0 <= s <= t. A disk that slides along a wall at exactly R (grazing) is not stopped. A point
/// agent follows the touching rule: it may slide along a wall, and stops where it would enter
/// material or pass between obstacles that touch (a seam, a pinch); its normal is then the
/// wall's free side where it meets an edge along its inside, the outward radius of a circle,
/// else (a vertex, a pinch) the reversed direction.
/// @return ARCNAV_OK (out->hit says whether it stopped); ARCNAV_START_BLOCKED when the disk at
///         `from` is not free (out->hit true, distance 0, point `from`, normal the reversed
///         direction); ARCNAV_ERR_INVALID_ARGUMENT also for a zero direction or a negative
///         max_distance; ARCNAV_ERR_NOT_FINITE also for a NaN max_distance or a direction that is
///         not finite; or another error (see above).
ARCNAV_API arcnav_status arcnav_query_raycast(arcnav_query *query, arcnav_vec2 from,
                                              arcnav_vec2 direction, double max_distance,
                                              arcnav_ray_hit *out);

/// Is `path` still free for the query's radius: its start and every position along its pieces
/// (the checks the engines make for their own pieces)? For a game whose map changed, for every
/// moving unit's path: the path may come from another planner, such as one built before the
/// change. An empty path is free when its start is.
/// @param out_free          [out] whether every position is free
/// @param out_first_contact [out, opt] when not free, the length along the path to the first
///                          position that is not (within a few tolerances; 0 when the start is
///                          not free); INFINITY when free
/// @return ARCNAV_OK, or an error (see above; also for a path whose pieces are not finite).
ARCNAV_API arcnav_status arcnav_query_path_is_free(arcnav_query *query, const arcnav_path *path,
                                                   bool *out_free, double *out_first_contact);

/// Can the query's disk get from `from` to `to`? Told without a search wherever the planner's
/// structures can, for any radius the planner serves (docs/DESIGN.md, "Reachability without a
/// search"): ends kept apart by passages narrower than the disk (as every search checks first)
/// answer no, and ends that each see a passage the disk surely gets through, joined by such
/// passages, answer yes; both cost a few free tests and O(log n) steps. A point agent among
/// polygons only (the optimal funnel's navmesh) answers yes for ends in one connected part of
/// the mesh. Otherwise (ends apart at R = 0, a point agent among circles, ends beyond the
/// triangulated box, or a passage whose width lies between the two bounds) a path search
/// answers, under the query's expansion limit; partial answers play no part. It ends a sliced
/// search in progress, and arcnav_query_get_stats() counts its search (nothing when none ran).
/// @param out_reachable [out] whether the disk can get there (false for every status but
///                      ARCNAV_OK)
/// @param out_searched  [out, opt] whether a path search was needed to tell
/// @return ARCNAV_OK (reachable), ARCNAV_NO_PATH (not), ARCNAV_START_BLOCKED, ARCNAV_GOAL_BLOCKED,
///         ARCNAV_SEARCH_LIMIT (the search reached the expansion limit), or an error as for
///         arcnav_find_path().
ARCNAV_API arcnav_status arcnav_query_reachable(arcnav_query *query, arcnav_vec2 from,
                                                arcnav_vec2 to, bool *out_reachable,
                                                bool *out_searched);

/// The nearest point to `point` where the query's disk is free (the point itself when it is
/// free): exact to about a tolerance (the point returned lies up to about eps / 2 inside the free
/// space's boundary, so that it passes the free test however it is rounded).
/// @param out_point    [out] the nearest free point
/// @param out_distance [out, opt] its distance from `point`
/// @return ARCNAV_OK; ARCNAV_NO_PATH when no point is free at all (for instance bounds too small
///         for the disk; *out_point is then `point` and the distance INFINITY); or an error (see
///         above).
ARCNAV_API arcnav_status arcnav_query_nearest_free(arcnav_query *query, arcnav_vec2 point,
                                                   arcnav_vec2 *out_point, double *out_distance);

/// The nearest point to `point` where the query's disk is free and which it can reach from
/// `from` (exact as arcnav_query_nearest_free()): `point` itself when it is free and reachable,
/// else a point of the boundary of the part of the free space `from` lies in. The free places
/// nearer to `point` are judged in order of distance: a place that sees `from` along a free
/// segment is reached, and the passages' forests (arcnav_query_reachable()) tell most of the
/// others; the rest take a path search from there to `from` (the way back is the way there; a
/// place that sees one already ruled out needs none). So the call is cheap (a median of 3 to
/// 20 us on the game maps of the benchmarks) except where many places lie in pockets the
/// forests cannot tell apart (a unit too wide for the diagonal gaps around it: on a 4,928-vertex
/// game map at R = 2 the median call took 20 ms). The searches share the query's expansion limit:
/// set one to bound the call. It searches with the query object's working memory: it ends a sliced
/// search in progress, and leaves arcnav_query_get_stats() as it was.
/// @param out_point    [out] the point, or `point` when there is none
/// @param out_distance [out, opt] its distance to `point`; INFINITY when there is none
/// @return ARCNAV_OK; ARCNAV_START_BLOCKED when the disk does not fit at `from`; ARCNAV_NO_PATH
///         when nothing was found (only rounding can cause it: `from` itself can be reached);
///         ARCNAV_SEARCH_LIMIT when a search reached the expansion limit; errors as for
///         arcnav_query_nearest_free() (ARCNAV_ERR_INVALID_ARGUMENT also on an eroded funnel
///         planner at R > 0) and ARCNAV_ERR_OUT_OF_MEMORY.
ARCNAV_API arcnav_status arcnav_query_nearest_reachable(arcnav_query *query, arcnav_vec2 from,
                                                        arcnav_vec2 point, arcnav_vec2 *out_point,
                                                        double *out_distance);

#ifdef __cplusplus
}
#endif
