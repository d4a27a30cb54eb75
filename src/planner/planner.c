// SPDX-License-Identifier: MIT
#include "planner/planner.h"

#include "funnel/funnel_engine.h"
#include "geom/tolerances.h"
#include "map/map.h"
#include "path/path.h"
#include "tangent/tangent_engine.h"

#include <stdlib.h>
#include <string.h>

arcnav_planner_def arcnav_default_planner_def(void) {
  arcnav_planner_def def;
  memset(&def, 0, sizeof def);
  def.radius = 0.0;
  def.engine = ARCNAV_ENGINE_AUTO;
  def.internal_magic = AN_PLANNER_DEF_MAGIC;
  return def;
}

// AUTO picks the exact answer that is fastest: the optimal funnel for point agents among polygons;
// the tangent graph otherwise (the navmesh would replace circles by polygons, and a disk agent's
// rounded turns need arcs).
// The interval engine plans for disks; a point agent gets what AUTO gives it.
static arcnav_engine resolve_engine(const arcnav_map *map, arcnav_engine asked, double radius) {
  if (asked == ARCNAV_ENGINE_INTERVAL &&
      radius <= AN_POINT_AGENT_TOLERANCES * an_map_tolerance(map)) {
    asked = ARCNAV_ENGINE_AUTO;
  }
  if (asked != ARCNAV_ENGINE_AUTO) {
    return asked;
  }
  return radius == 0.0 && !an_map_has_round_obstacles(map) ? ARCNAV_ENGINE_FUNNEL
                                                           : ARCNAV_ENGINE_TANGENT;
}

static arcnav_status check_radius(double radius) {
  if (!isfinite(radius)) {
    return ARCNAV_ERR_NOT_FINITE;
  }
  if (radius < 0.0) {
    return ARCNAV_ERR_NEGATIVE_RADIUS;
  }
  return an_coordinate_in_range(radius) ? ARCNAV_OK : ARCNAV_ERR_TOO_LARGE;
}

static arcnav_status build_engine(const an_engine_args *args, an_engine *out) {
  return args->engine == ARCNAV_ENGINE_TANGENT || args->engine == ARCNAV_ENGINE_INTERVAL
             ? an_tangent_engine_build(args, out)
             : an_funnel_engine_build(args, out);
}

// AUTO's way of finding tangents: prebuilt (up to ARCNAV_TANGENT_GRAPH_AUTO_LIMIT corners, the
// engine's choice) but on demand on a map with units, where a prebuilt graph would check its
// tangents against every unit (no query could ignore one, and units move often), and in a build
// that brings a planner up to date (`updating`): a prebuilt graph would be built afresh on every
// change (53 ms for R = 0.5 among rect300's rectangles), where tangents on demand follow a change
// locally (docs/DESIGN.md, "AUTO after a change").
static arcnav_tangent_graph resolve_tangent_graph(const arcnav_map *map, arcnav_tangent_graph asked,
                                                  bool updating) {
  return asked == ARCNAV_TANGENT_GRAPH_AUTO && (updating || an_map_has_units(map))
             ? ARCNAV_TANGENT_GRAPH_ON_DEMAND
             : asked;
}

// What a build makes from a map: the planner's engines, the figures they were made for, and
// the map's obstacles by id.
typedef struct built_engines {
  double eps;
  double point_limit;
  arcnav_engine kind;
  an_engine engine;
  an_engine point_engine;
  an_obstacle_entry *obstacles;
  size_t obstacle_count;
} built_engines;

// By slot, then generation: the order a walk over the map's slots lists them in.
static int compare_obstacle_entries(const void *lhs, const void *rhs) {
  const an_obstacle_entry *a = lhs, *b = rhs;
  uint64_t ka = (a->id & UINT32_MAX) << 32 | a->id >> 32,
           kb = (b->id & UINT32_MAX) << 32 | b->id >> 32;
  return ka < kb ? -1 : (ka > kb ? 1 : 0);
}

// The map's obstacles in the order above, with their shapes; NULL when out of memory.
static an_obstacle_entry *obstacle_entries(const arcnav_map *map, const an_allocator *alloc) {
  size_t count = map->obstacle_count, listed = 0;
  an_obstacle_entry *entries = an_alloc(alloc, count > 0 ? count : 1, sizeof *entries);
  if (!entries) {
    return NULL;
  }
  for (uint32_t s = 0; s < map->slot_count; ++s) {
    uint32_t index = an_map_slot_obstacle(map, s);
    if (index != AN_NO_SLOT) {
      const an_obstacle *ob = &map->obstacles[index];
      entries[listed++] =
          (an_obstacle_entry){arcnav_map_obstacle_id(map, index), index, ob->unit, ob->shape};
    }
  }
  return entries;
}

static arcnav_status list_obstacles(const arcnav_map *map, const an_allocator *alloc,
                                    built_engines *built) {
  built->obstacles = obstacle_entries(map, alloc);
  if (!built->obstacles) {
    return ARCNAV_ERR_OUT_OF_MEMORY;
  }
  built->obstacle_count = map->obstacle_count;
  return ARCNAV_OK;
}

static void destroy_engines(built_engines *built) {
  // The tangent engine may borrow the point engine's triangulation: the borrower goes first.
  if (built->engine.ops) {
    built->engine.ops->destroy(built->engine.state);
  }
  if (built->point_engine.ops) {
    built->point_engine.ops->destroy(built->point_engine.state);
  }
  built->engine = (an_engine){NULL, NULL};
  built->point_engine = (an_engine){NULL, NULL};
}

// Each engine of `old`, about to go, hands what it can to the one of `built` in its place.
static void hand_down(built_engines *old, const built_engines *built) {
  const an_engine *pairs[2][2] = {{&old->engine, &built->engine},
                                  {&old->point_engine, &built->point_engine}};
  for (int k = 0; k < 2; ++k) {
    const an_engine *was = pairs[k][0], *now = pairs[k][1];
    if (was->ops && was->ops == now->ops && was->ops->hand_down) {
      was->ops->hand_down(was->state, now->state);
    }
  }
}

static void destroy_built(built_engines *built, const an_allocator *alloc) {
  destroy_engines(built);
  an_free(alloc, built->obstacles);
  built->obstacles = NULL;
  built->obstacle_count = 0;
}

// What an update tells the builds it runs: the engines they replace, the one change since those
// were built (NULL after several), and whether each build carried over from its old engine
// (engine.h, an_engine_args.previous). NULL for a build from nothing.
typedef struct build_hints {
  const built_engines *previous;
  const an_local_change *change;
  bool point_followed, followed;
} build_hints;

static void give_hints(an_engine_args *args, build_hints *hints, bool point) {
  if (!hints || !hints->change) {
    return;
  }
  const an_engine *previous = point ? &hints->previous->point_engine : &hints->previous->engine;
  args->previous = previous->ops ? previous : NULL;
  args->change = hints->change;
  args->followed = point ? &hints->point_followed : &hints->followed;
  args->lender_followed = !point && hints->point_followed;
}

// The point engine of a planner for every radius up to def->max_radius: the engine AUTO (or
// TANGENT) would build for R = 0. The optimal funnel tests only the ends of its queries against
// the obstacle grid: filed for the largest radius, one grid serves both engines. (A point agent's
// tangent engine tests every tangent against it, which the coarser filing would slow.)
static an_engine_args point_engine_args(const arcnav_map *map, const arcnav_planner_def *def,
                                        double eps, const an_allocator *alloc,
                                        const build_hints *hints) {
  an_engine_args args = {
      .map = map,
      .radius = 0.0,
      .eps = eps,
      .engine = resolve_engine(map, def->engine, 0.0),
      .tangent_graph = resolve_tangent_graph(map, def->tangent_graph, hints != NULL),
      .alloc = alloc,
  };
  args.grid_radius = args.engine == ARCNAV_ENGINE_FUNNEL ? def->max_radius : 0.0;
  return args;
}

// The engine of the radii above the point engine's, beside built->point_engine: one tangent
// engine whose indexes reach max_radius, searched as the definition asks: by tangents on demand,
// or by intervals (INTERVAL) (docs/DESIGN.md, "One planner for several radii").
static arcnav_status build_disk_engine(const arcnav_map *map, const arcnav_planner_def *def,
                                       const an_allocator *alloc, build_hints *hints,
                                       built_engines *built) {
  an_engine_args args = point_engine_args(map, def, built->eps, alloc, hints);
  built->kind = args.engine;
  if (def->max_radius <= built->point_limit) {
    return ARCNAV_OK;
  }
  give_hints(&args, hints, false);
  // The point engine's triangulation of the polygons, when it has one, is the one the tangent
  // engine's sight mesh needs, and its grid the tangent engine's: they are borrowed, and the
  // planner destroys the borrower first.
  const an_engine_ops *ops = built->point_engine.ops;
  bool share_grid = args.engine == ARCNAV_ENGINE_FUNNEL;
  args.polygon_mesh = ops->polygon_mesh ? ops->polygon_mesh(built->point_engine.state) : NULL;
  args.free_space =
      share_grid && ops->free_space ? ops->free_space(built->point_engine.state) : NULL;
  args.grid_radius = 0.0;
  args.radius = def->radius;
  args.max_radius = def->max_radius;
  args.engine =
      def->engine == ARCNAV_ENGINE_INTERVAL ? ARCNAV_ENGINE_INTERVAL : ARCNAV_ENGINE_TANGENT;
  args.tangent_graph = ARCNAV_TANGENT_GRAPH_ON_DEMAND;
  arcnav_status status = build_engine(&args, &built->engine);
  if (status == ARCNAV_OK) {
    built->kind = args.engine;
  }
  return status;
}

// A planner for every radius up to def->max_radius: a point engine and, above its radii, a disk
// engine that borrows from it.
static arcnav_status build_ranged(const arcnav_map *map, const arcnav_planner_def *def,
                                  const an_allocator *alloc, build_hints *hints,
                                  built_engines *built) {
  built->point_limit = AN_POINT_AGENT_TOLERANCES * built->eps;
  an_engine_args args = point_engine_args(map, def, built->eps, alloc, hints);
  give_hints(&args, hints, true);
  arcnav_status status = build_engine(&args, &built->point_engine);
  if (status == ARCNAV_OK) {
    status = build_disk_engine(map, def, alloc, hints, built);
  }
  return status;
}

// Builds the engines `def` asks for on `map`, told what `hints` (NULL: nothing) tells; on
// failure nothing is left built. The caller lists the obstacles.
static arcnav_status build_engines(const arcnav_map *map, const arcnav_planner_def *def,
                                   const an_allocator *alloc, build_hints *hints,
                                   built_engines *built) {
  memset(built, 0, sizeof *built);
  built->eps = an_map_tolerance(map);
  arcnav_status status;
  if (def->max_radius > 0.0) {
    status = build_ranged(map, def, alloc, hints, built);
  } else {
    built->kind = resolve_engine(map, def->engine, def->radius);
    an_engine_args args = {
        .map = map,
        .radius = def->radius,
        .eps = built->eps,
        .engine = built->kind,
        .tangent_graph = resolve_tangent_graph(map, def->tangent_graph, hints != NULL),
        .alloc = alloc,
    };
    give_hints(&args, hints, false);
    status = build_engine(&args, &built->engine);
  }
  if (status != ARCNAV_OK) {
    destroy_built(built, alloc);
  }
  return status;
}

static void adopt_engines(arcnav_planner *planner, const built_engines *built) {
  planner->eps = built->eps;
  planner->point_limit = built->point_limit;
  planner->engine_kind = built->kind;
  planner->engine = built->engine;
  planner->point_engine = built->point_engine;
  planner->obstacles = built->obstacles;
  planner->obstacle_count = built->obstacle_count;
}

static built_engines engines_of(const arcnav_planner *planner) {
  return (built_engines){.eps = planner->eps,
                         .point_limit = planner->point_limit,
                         .kind = planner->engine_kind,
                         .engine = planner->engine,
                         .point_engine = planner->point_engine,
                         .obstacles = planner->obstacles,
                         .obstacle_count = planner->obstacle_count};
}

arcnav_status arcnav_planner_create(const arcnav_map *map, const arcnav_planner_def *def,
                                    arcnav_planner **out_planner) {
  if (!out_planner) {
    return ARCNAV_ERR_INVALID_ARGUMENT;
  }
  *out_planner = NULL;
  if (!map || !def || def->internal_magic != AN_PLANNER_DEF_MAGIC) {
    return ARCNAV_ERR_INVALID_ARGUMENT;
  }
  arcnav_status status = check_radius(def->radius);
  if (status == ARCNAV_OK) {
    status = check_radius(def->max_radius);
  }
  if (status != ARCNAV_OK) {
    return status;
  }
  if (def->engine < ARCNAV_ENGINE_AUTO || def->engine > ARCNAV_ENGINE_INTERVAL ||
      def->tangent_graph < ARCNAV_TANGENT_GRAPH_AUTO ||
      def->tangent_graph > ARCNAV_TANGENT_GRAPH_ON_DEMAND) {
    return ARCNAV_ERR_INVALID_ARGUMENT;
  }
  bool ranged = def->max_radius > 0.0;
  if (ranged && (def->radius > def->max_radius ||
                 (def->engine != ARCNAV_ENGINE_AUTO && def->engine != ARCNAV_ENGINE_TANGENT &&
                  def->engine != ARCNAV_ENGINE_INTERVAL))) {
    return ARCNAV_ERR_INVALID_ARGUMENT;
  }
  an_allocator alloc = map->alloc;
  arcnav_planner *planner = an_calloc(&alloc, 1, sizeof *planner);
  if (!planner) {
    return ARCNAV_ERR_OUT_OF_MEMORY;
  }
  planner->alloc = alloc;
  planner->def = *def;
  built_engines built;
  status = build_engines(map, def, &planner->alloc, NULL, &built);
  if (status == ARCNAV_OK) {
    status = list_obstacles(map, &planner->alloc, &built);
  }
  if (status != ARCNAV_OK) {
    destroy_built(&built, &planner->alloc);
    an_free(&alloc, planner);
    return status;
  }
  adopt_engines(planner, &built);
  planner->bounds_shape = map->bounds_shape;
  *out_planner = planner;
  return ARCNAV_OK;
}

// The one change that sets `map` (its bounds and tolerance as they were) apart from the map the
// planner last built or brought up to date: an obstacle added, one removed or one moved (a new
// shape under its id), everything else the same shape under the same id. False for none or more
// than one.
static bool find_single_change(const arcnav_planner *planner, const arcnav_map *map,
                               const an_obstacle_entry *now, an_local_change *change) {
  size_t changes = 0, i = 0, j = 0, n = map->obstacle_count;
  const an_obstacle_entry *before = planner->obstacles;
  while (i < planner->obstacle_count || j < n) {
    int order = j == n                         ? -1
                : i == planner->obstacle_count ? 1
                                               : compare_obstacle_entries(&before[i], &now[j]);
    const an_obstacle_entry *entry = order < 0 ? &before[i] : &now[j];
    if (order != 0 || before[i].shape != now[j].shape) {
      change->kind = order < 0 ? AN_CHANGE_REMOVED : order > 0 ? AN_CHANGE_ADDED : AN_CHANGE_MOVED;
      change->id = entry->id;
      change->index = entry->index;
      ++changes;
    }
    i += order <= 0;
    j += order >= 0;
  }
  return changes == 1;
}

// A planner of one engine that follows `change` in place (engine.h, `change_locally`) is brought
// up to date that way: ARCNAV_OK, or ARCNAV_ERR_INVALID_ARGUMENT when it cannot (nothing changed
// then), or another failure that left the planner as it was. A planner of two engines never is:
// its disk engine borrows the point engine's parts, which must not change under it.
static arcnav_status update_locally(arcnav_planner *planner, const arcnav_map *map,
                                    const an_local_change *change) {
  const an_engine *engine = &planner->engine;
  return !planner->point_engine.ops && engine->ops && engine->ops->change_locally
             ? engine->ops->change_locally(engine->state, map, change)
             : ARCNAV_ERR_INVALID_ARGUMENT;
}

uint64_t arcnav_planner_local_updates(const arcnav_planner *planner) {
  return planner ? planner->local_updates : 0;
}

arcnav_status arcnav_planner_update(arcnav_planner *planner, const arcnav_map *map) {
  if (!planner || !map) {
    return ARCNAV_ERR_INVALID_ARGUMENT;
  }
  an_obstacle_entry *now = obstacle_entries(map, &planner->alloc);
  if (!now) {
    return ARCNAV_ERR_OUT_OF_MEMORY;
  }
  an_local_change change;
  bool single = an_map_tolerance(map) == planner->eps &&
                map->bounds_shape == planner->bounds_shape &&
                find_single_change(planner, map, now, &change);
  arcnav_status status =
      single ? update_locally(planner, map, &change) : ARCNAV_ERR_INVALID_ARGUMENT;
  if (status == ARCNAV_OK) {
    an_free(&planner->alloc, planner->obstacles);
    planner->obstacles = now;
    planner->obstacle_count = map->obstacle_count;
    planner->generation++;
    planner->local_updates++;
    return ARCNAV_OK;
  }
  if (status != ARCNAV_ERR_INVALID_ARGUMENT) {
    an_free(&planner->alloc, now);
    return status;
  }
  // The new engines are built beside the old ones, so a failed build leaves the planner as it
  // was. After a single change they are told the engines they replace, which some carry parts
  // of over; when every engine did, the update was a local one.
  built_engines old = engines_of(planner);
  build_hints hints = {&old, single ? &change : NULL, false, false};
  built_engines built;
  status = build_engines(map, &planner->def, &planner->alloc, &hints, &built);
  if (status != ARCNAV_OK) {
    an_free(&planner->alloc, now);
    return status;
  }
  built.obstacles = now;
  built.obstacle_count = map->obstacle_count;
  hand_down(&old, &built);
  destroy_built(&old, &planner->alloc);
  adopt_engines(planner, &built);
  planner->bounds_shape = map->bounds_shape;
  planner->generation++;
  bool followed =
      (!built.engine.ops || hints.followed) && (!built.point_engine.ops || hints.point_followed);
  planner->local_updates += single && followed;
  return ARCNAV_OK;
}

void arcnav_planner_destroy(arcnav_planner *planner) {
  if (!planner) {
    return;
  }
  an_allocator alloc = planner->alloc;
  built_engines built = engines_of(planner);
  destroy_built(&built, &alloc);
  an_free(&alloc, planner);
}

double arcnav_planner_radius(const arcnav_planner *planner) {
  return planner ? planner->def.radius : 0.0;
}

double arcnav_planner_max_radius(const arcnav_planner *planner) {
  return planner ? an_max(planner->def.radius, planner->def.max_radius) : 0.0;
}

const an_engine *an_planner_engine_for(const arcnav_planner *planner, double radius,
                                       const arcnav_query *query, void **engine_query) {
  bool point = planner->point_engine.ops && radius <= planner->point_limit;
  if (engine_query) {
    *engine_query = query ? (point ? query->point_query : query->engine_query) : NULL;
  }
  return point ? &planner->point_engine : &planner->engine;
}

arcnav_engine arcnav_planner_engine(const arcnav_planner *planner) {
  return planner ? planner->engine_kind : ARCNAV_ENGINE_AUTO;
}

void arcnav_planner_get_info(const arcnav_planner *planner, arcnav_planner_info *out_info) {
  if (!planner || !out_info) {
    return;
  }
  memset(out_info, 0, sizeof *out_info);
  if (planner->engine.ops) {
    planner->engine.ops->get_info(planner->engine.state, out_info);
  }
  if (planner->point_engine.ops) {
    // Counts describe the engine of radii above 0 when there is one; memory is both engines'.
    arcnav_planner_info point;
    memset(&point, 0, sizeof point);
    planner->point_engine.ops->get_info(planner->point_engine.state, &point);
    size_t memory = out_info->memory_bytes + point.memory_bytes;
    if (!planner->engine.ops) {
      *out_info = point;
    }
    out_info->triangle_count = point.triangle_count;
    out_info->memory_bytes = memory;
  }
  out_info->memory_bytes += sizeof *planner;
}

bool arcnav_planner_point_is_free(const arcnav_planner *planner, arcnav_vec2 point) {
  if (!planner || !v2_is_finite(point)) {
    return false;
  }
  const an_engine *engine = an_planner_engine_for(planner, planner->def.radius, NULL, NULL);
  return engine->ops->point_is_free(engine->state, NULL, point);
}

// The triangles drawn are the navmesh's, which only a point agent's funnel has on a planner with
// a max_radius.
static const an_engine *drawn_engine(const arcnav_planner *planner) {
  return planner->point_engine.ops ? &planner->point_engine : &planner->engine;
}

size_t arcnav_planner_triangle_count(const arcnav_planner *planner) {
  if (!planner || !drawn_engine(planner)->ops->triangle_count) {
    return 0;
  }
  return drawn_engine(planner)->ops->triangle_count(drawn_engine(planner)->state);
}

bool arcnav_planner_triangle(const arcnav_planner *planner, size_t index, arcnav_vec2 out[3]) {
  if (!out || index >= arcnav_planner_triangle_count(planner)) {
    return false;
  }
  drawn_engine(planner)->ops->triangle(drawn_engine(planner)->state, index, out);
  return true;
}

// ---- queries -------------------------------------------------------------------------------

// Working memory `query` just made by `engine` starts at the planner's radius: moved to `radius`
// when the engine is the one that answers it.
static void start_at_radius(const arcnav_planner *planner, const an_engine *engine, void *query,
                            double radius) {
  if (engine == an_planner_engine_for(planner, radius, NULL, NULL) && engine->ops->set_radius &&
      radius != planner->def.radius) {
    engine->ops->set_radius(engine->state, query, radius);
  }
}

// Working memory for the planner's current engines, for a query object of `radius`.
static arcnav_status make_engine_queries(const arcnav_planner *planner, double radius,
                                         void **out_engine_query, void **out_point_query) {
  *out_engine_query = NULL;
  *out_point_query = NULL;
  arcnav_status status = ARCNAV_OK;
  if (planner->engine.ops) {
    status = planner->engine.ops->query_create(planner->engine.state, out_engine_query);
  }
  if (status == ARCNAV_OK && planner->point_engine.ops) {
    status = planner->point_engine.ops->query_create(planner->point_engine.state, out_point_query);
  }
  if (status != ARCNAV_OK) {
    if (*out_engine_query) {
      planner->engine.ops->query_destroy(*out_engine_query);
    }
    *out_engine_query = NULL;
    return status;
  }
  start_at_radius(planner, &planner->engine, *out_engine_query, radius);
  start_at_radius(planner, &planner->point_engine, *out_point_query, radius);
  return ARCNAV_OK;
}

static void release_engine_queries(arcnav_query *query) {
  if (query->engine_query) {
    query->engine_query_ops->query_destroy(query->engine_query);
  }
  if (query->point_query) {
    query->point_query_ops->query_destroy(query->point_query);
  }
  query->engine_query = NULL;
  query->point_query = NULL;
}

// Was the query's working memory made for engines of the same kinds as the planner's now (the
// tables are set with the memory they made)? Each engine can then renew its part (engine.h,
// query_renew).
static bool renewable(const arcnav_query *query) {
  const arcnav_planner *planner = query->planner;
  return query->engine_query_ops == planner->engine.ops &&
         query->point_query_ops == planner->point_engine.ops;
}

// The query's working memory renewed for the planner's engines, or made anew for an engine that
// cannot renew it. On failure the memory renewed so far may only be renewed again (the query
// stays a generation behind) or freed.
static arcnav_status renew_engine_queries(arcnav_query *query) {
  const arcnav_planner *planner = query->planner;
  const an_engine *engines[2] = {&planner->engine, &planner->point_engine};
  void **queries[2] = {&query->engine_query, &query->point_query};
  void *made[2] = {NULL, NULL};
  // The engines the memory was made for are the ones the last update replaced.
  bool successor = query->generation + 1 == planner->generation;
  arcnav_status status = ARCNAV_OK;
  for (int k = 0; k < 2 && status == ARCNAV_OK; ++k) {
    const an_engine *engine = engines[k];
    if (!engine->ops) {
      continue;
    }
    status = engine->ops->query_renew
                 ? engine->ops->query_renew(engine->state, *queries[k], successor)
                 : ARCNAV_ERR_INVALID_ARGUMENT;
    if (status == ARCNAV_ERR_INVALID_ARGUMENT) {
      status = engine->ops->query_create(engine->state, &made[k]);
      if (status == ARCNAV_OK) {
        start_at_radius(planner, engine, made[k], query->radius);
      }
    }
  }
  for (int k = 0; k < 2; ++k) {
    if (made[k] && status == ARCNAV_OK) {
      engines[k]->ops->query_destroy(*queries[k]);
      *queries[k] = made[k];
    } else if (made[k]) {
      engines[k]->ops->query_destroy(made[k]);
    }
  }
  return status;
}

// A query object made before arcnav_planner_update() replaced the engines has its working memory
// renewed, or made again, for the new ones before it answers; on failure it keeps the old, unused,
// and tries again next time.
arcnav_status an_query_bind(arcnav_query *query) {
  const arcnav_planner *planner = query->planner;
  if (query->generation == planner->generation) {
    return ARCNAV_OK;
  }
  if (renewable(query)) {
    arcnav_status status = renew_engine_queries(query);
    if (status != ARCNAV_OK) {
      return status;
    }
  } else {
    void *engine_query, *point_query;
    arcnav_status status = make_engine_queries(planner, query->radius, &engine_query, &point_query);
    if (status != ARCNAV_OK) {
      return status;
    }
    release_engine_queries(query);
    an_query_release_probes(query);
    query->engine_query = engine_query;
    query->point_query = point_query;
    query->engine_query_ops = planner->engine.ops;
    query->point_query_ops = planner->point_engine.ops;
  }
  query->generation = planner->generation;
  return ARCNAV_OK;
}

arcnav_status arcnav_query_create(const arcnav_planner *planner, arcnav_query **out_query) {
  if (!out_query) {
    return ARCNAV_ERR_INVALID_ARGUMENT;
  }
  *out_query = NULL;
  if (!planner) {
    return ARCNAV_ERR_INVALID_ARGUMENT;
  }
  an_allocator alloc = planner->alloc;
  arcnav_query *q = an_calloc(&alloc, 1, sizeof *q);
  if (!q) {
    return ARCNAV_ERR_OUT_OF_MEMORY;
  }
  q->planner = planner;
  q->alloc = alloc;
  q->radius = planner->def.radius;
  // One generation back, so that binding makes the working memory for the current engines.
  q->generation = planner->generation - 1;
  arcnav_status status = an_query_bind(q);
  if (status != ARCNAV_OK) {
    an_free(&alloc, q);
    return status;
  }
  *out_query = q;
  return ARCNAV_OK;
}

void arcnav_query_destroy(arcnav_query *query) {
  if (!query) {
    return;
  }
  an_allocator alloc = query->alloc;
  an_query_release_probes(query);
  release_engine_queries(query);
  arcnav_path_destroy(query->scratch_path);
  an_free(&alloc, query->ignored_ids);
  an_free(&alloc, query->ignored_mask);
  an_free(&alloc, query);
}

arcnav_status arcnav_query_set_radius(arcnav_query *query, double radius) {
  if (!query) {
    return ARCNAV_ERR_INVALID_ARGUMENT;
  }
  arcnav_status status = check_radius(radius);
  if (status != ARCNAV_OK) {
    return status;
  }
  const arcnav_planner *planner = query->planner;
  if (planner->def.max_radius > 0.0 ? radius > planner->def.max_radius
                                    : radius != planner->def.radius) {
    return ARCNAV_ERR_RADIUS_OUT_OF_RANGE;
  }
  status = an_query_bind(query);
  if (status != ARCNAV_OK) {
    return status;
  }
  query->radius = radius;
  query->sliced = AN_SLICED_NONE;
  const an_engine *engine = an_planner_engine_for(planner, radius, NULL, NULL);
  if (engine->ops->set_radius) {
    engine->ops->set_radius(engine->state, query->engine_query, radius);
  }
  return ARCNAV_OK;
}

double arcnav_query_radius(const arcnav_query *query) {
  return query ? query->radius : 0.0;
}

arcnav_status arcnav_query_set_expansion_limit(arcnav_query *query, size_t max_expansions) {
  if (!query) {
    return ARCNAV_ERR_INVALID_ARGUMENT;
  }
  query->control.expansion_limit = max_expansions;
  return ARCNAV_OK;
}

// ---- units a query ignores ----------------------------------------------------------------------

// The planner's entry for obstacle `id`, or NULL when its map (as last built) has none.
static const an_obstacle_entry *find_obstacle(const arcnav_planner *planner,
                                              arcnav_obstacle_id id) {
  an_obstacle_entry key = {id, 0, false, 0};
  return planner->obstacle_count == 0 ? NULL
                                      : bsearch(&key, planner->obstacles, planner->obstacle_count,
                                                sizeof key, compare_obstacle_entries);
}

// The mask of the units the query's list names that are on the planner's current map (NULL when
// none is: units removed since are simply not there to ignore). A mask is by the obstacles'
// indices on the map it was made for, so any new one is a change for the engines' queries; none
// on either map is not, and what they keep across the update is for their renewal to judge.
static arcnav_status resolve_ignored(arcnav_query *query) {
  const arcnav_planner *planner = query->planner;
  uint8_t *mask = NULL;
  for (size_t i = 0; i < query->ignored_count; ++i) {
    const an_obstacle_entry *entry = find_obstacle(planner, query->ignored_ids[i]);
    if (!entry || !entry->unit) {
      continue;
    }
    if (!mask) {
      mask = an_calloc(&query->alloc, planner->obstacle_count + 1, sizeof *mask);
      if (!mask) {
        return ARCNAV_ERR_OUT_OF_MEMORY;
      }
    }
    mask[entry->index] = 1;
  }
  bool changed = mask || query->ignored_mask;
  an_free(&query->alloc, query->ignored_mask);
  query->ignored_mask = mask;
  query->ignored_generation = query->planner->generation;
  query->ignored_version += changed;
  return ARCNAV_OK;
}

arcnav_status an_query_apply_ignored(arcnav_query *query, const uint8_t **mask) {
  if (query->ignored_generation != query->planner->generation) {
    arcnav_status status = resolve_ignored(query);
    if (status != ARCNAV_OK) {
      return status;
    }
  }
  if (mask) {
    *mask = query->ignored_mask;
  }
  void *engine_query;
  const an_engine *engine =
      an_planner_engine_for(query->planner, query->radius, query, &engine_query);
  if (!engine->ops->set_ignored) {
    return query->ignored_mask ? ARCNAV_ERR_INVALID_ARGUMENT : ARCNAV_OK;
  }
  return engine->ops->set_ignored(engine->state, engine_query, query->ignored_mask,
                                  query->ignored_version)
             ? ARCNAV_OK
             : ARCNAV_ERR_INVALID_ARGUMENT;
}

arcnav_status arcnav_query_set_ignored(arcnav_query *query, const arcnav_obstacle_id *ids,
                                       size_t count) {
  if (!query || (count > 0 && !ids)) {
    return ARCNAV_ERR_INVALID_ARGUMENT;
  }
  arcnav_status status = an_query_bind(query);
  if (status != ARCNAV_OK) {
    return status;
  }
  const arcnav_planner *planner = query->planner;
  for (size_t i = 0; i < count; ++i) {
    const an_obstacle_entry *entry = find_obstacle(planner, ids[i]);
    if (!entry) {
      return ARCNAV_ERR_STALE_ID;
    }
    if (!entry->unit) {
      return ARCNAV_ERR_INVALID_ARGUMENT;
    }
  }
  arcnav_obstacle_id *copy = NULL;
  if (count > 0) {
    copy = an_alloc(&query->alloc, count, sizeof *copy);
    if (!copy) {
      return ARCNAV_ERR_OUT_OF_MEMORY;
    }
    memcpy(copy, ids, count * sizeof *copy);
  }
  arcnav_obstacle_id *old_ids = query->ignored_ids;
  size_t old_count = query->ignored_count;
  query->ignored_ids = copy;
  query->ignored_count = count;
  query->ignored_generation = planner->generation - 1; // resolve again
  query->sliced = AN_SLICED_NONE;
  status = an_query_apply_ignored(query, NULL);
  if (status != ARCNAV_OK) {
    // Refused: the query keeps its old list (resolved again on its next use).
    an_free(&query->alloc, copy);
    query->ignored_ids = old_ids;
    query->ignored_count = old_count;
    query->ignored_generation = planner->generation - 1;
    return status;
  }
  an_free(&query->alloc, old_ids);
  return ARCNAV_OK;
}

static void add_stats(arcnav_query_stats *to, const arcnav_query_stats *from) {
  to->nodes_expanded += from->nodes_expanded;
  to->edges_checked += from->edges_checked;
  to->channels += from->channels;
}

// A new question on `query`: nothing counted yet.
static void reset_stats(arcnav_query *query) {
  memset(&query->control.stats, 0, sizeof query->control.stats);
  memset(&query->earlier, 0, sizeof query->earlier);
}

arcnav_query_stats arcnav_query_get_stats(const arcnav_query *query) {
  arcnav_query_stats none;
  memset(&none, 0, sizeof none);
  if (!query) {
    return none;
  }
  arcnav_query_stats stats = query->control.stats;
  add_stats(&stats, &query->earlier);
  return stats;
}

// Checks a query's ends as arcnav_find_path() and arcnav_query_begin() do.
static arcnav_status check_ends(vec2 start, vec2 goal) {
  if (!v2_is_finite(start) || !v2_is_finite(goal)) {
    return ARCNAV_ERR_NOT_FINITE;
  }
  if (!an_coordinate_in_range(start.x) || !an_coordinate_in_range(start.y) ||
      !an_coordinate_in_range(goal.x) || !an_coordinate_in_range(goal.y)) {
    return ARCNAV_ERR_TOO_LARGE;
  }
  return ARCNAV_OK;
}

static const an_engine *query_engine(const arcnav_query *query, void **engine_query) {
  return an_planner_engine_for(query->planner, query->radius, query, engine_query);
}

// With partial answers, the engine's search goes on to `target` instead of the goal: its begin.
// The query counts the earlier search's work too, since each engine search counts its own from
// zero.
static arcnav_status retarget(arcnav_query *query, vec2 start, vec2 target, arcnav_path *path) {
  void *engine_query;
  const an_engine *engine = query_engine(query, &engine_query);
  add_stats(&query->earlier, &query->control.stats);
  query->retargeted = true;
  query->sliced_target = target;
  an_path_reset(path, start, target);
  return engine->ops->begin(engine->state, engine_query, start, target, &query->control, path);
}

// Sets up the engine's search for `query`, bound to its planner: the engine's begin, and with
// partial answers, when the goal is blocked, a search to the nearest place the agent fits
// (query->retargeted, query->sliced_target). The nearest place the agent fits is nearer the goal
// than any other free point: reached, it is the reachable point nearest to the goal.
static arcnav_status begin_search(arcnav_query *query, vec2 start, vec2 goal, arcnav_path *path) {
  arcnav_status ignoring = an_query_apply_ignored(query, NULL);
  if (ignoring != ARCNAV_OK) {
    return ignoring;
  }
  void *engine_query;
  const an_engine *engine = query_engine(query, &engine_query);
  query->retargeted = false;
  query->fallen_back = false;
  query->goal_blocked = false;
  query->sliced_target = goal;
  an_path_reset(path, start, goal);
  arcnav_status status =
      engine->ops->begin(engine->state, engine_query, start, goal, &query->control, path);
  if (status != ARCNAV_GOAL_BLOCKED || !query->partial) {
    return status;
  }
  query->goal_blocked = true;
  vec2 fits;
  arcnav_status nearest = arcnav_query_nearest_free(query, goal, &fits, NULL);
  if (nearest != ARCNAV_OK) {
    // Nothing free, or an engine without the probes' free test: the goal stays blocked.
    bool answered = nearest == ARCNAV_NO_PATH || nearest == ARCNAV_ERR_INVALID_ARGUMENT;
    return answered ? ARCNAV_GOAL_BLOCKED : nearest;
  }
  return retarget(query, start, fits, path);
}

// With partial answers, a search that found no path (to a free goal, or to the nearest place the
// agent fits near a blocked one) gives way to a search to the reachable point nearest to the
// goal (arcnav_query_nearest_reachable()); it returns what that search's begin says. Anything
// else passes through.
static arcnav_status fall_back(arcnav_query *query, arcnav_status status, vec2 start, vec2 goal,
                               arcnav_path *path) {
  if (status != ARCNAV_NO_PATH || !query->partial || query->fallen_back) {
    return status;
  }
  vec2 near;
  arcnav_status found = an_query_nearest_reachable(query, start, goal, &near);
  if (found != ARCNAV_OK) {
    return arcnav_status_is_answer(found) ? status : found;
  }
  query->fallen_back = true;
  return retarget(query, start, near, path);
}

// Runs the search begin_search() set up for `slice` expansions (0: to the end).
static arcnav_status run_search(arcnav_query *query, size_t slice, vec2 start, arcnav_path *path) {
  void *engine_query;
  const an_engine *engine = query_engine(query, &engine_query);
  an_path_reset(path, start, query->sliced_target);
  query->control.slice = slice;
  arcnav_status status = engine->ops->resume(engine->state, engine_query, &query->control, path);
  query->control.slice = 0;
  return status;
}

// The caller's answer for the engine's: a search to another place than the goal that found it
// answers ARCNAV_PARTIAL; one that did not leaves the goal blocked, or unreachable.
static arcnav_status settle(const arcnav_query *query, arcnav_status status, vec2 start, vec2 goal,
                            arcnav_path *path) {
  if (status == ARCNAV_IN_PROGRESS) {
    an_path_reset(path, start, goal);
    return status;
  }
  if (!query->retargeted) {
    return status;
  }
  if (status == ARCNAV_OK) {
    return ARCNAV_PARTIAL;
  }
  an_path_reset(path, start, goal);
  if (!arcnav_status_is_answer(status)) {
    return status;
  }
  return query->goal_blocked ? ARCNAV_GOAL_BLOCKED : ARCNAV_NO_PATH;
}

arcnav_status arcnav_find_path(arcnav_query *query, arcnav_vec2 start, arcnav_vec2 goal,
                               arcnav_path *path) {
  if (!query || !path) {
    return ARCNAV_ERR_INVALID_ARGUMENT;
  }
  query->sliced = AN_SLICED_NONE;
  arcnav_status status = check_ends(start, goal);
  if (status != ARCNAV_OK) {
    return status;
  }
  an_path_reset(path, start, goal);
  reset_stats(query);
  status = an_query_bind(query);
  if (status != ARCNAV_OK) {
    return status;
  }
  status = fall_back(query, begin_search(query, start, goal, path), start, goal, path);
  while (status == ARCNAV_IN_PROGRESS) {
    status = fall_back(query, run_search(query, 0, start, path), start, goal, path);
  }
  return settle(query, status, start, goal, path);
}

arcnav_status an_engine_decide_reachable(const an_engine *engine, void *engine_query, vec2 a,
                                         vec2 b, bool ends_free) {
  return engine->ops->decide_reachable
             ? engine->ops->decide_reachable(engine->state, engine_query, a, b, ends_free)
             : ARCNAV_IN_PROGRESS;
}

arcnav_status an_engine_search(const an_engine *engine, void *engine_query,
                               an_search_control *control, vec2 a, vec2 b, arcnav_path *path) {
  an_path_reset(path, a, b);
  arcnav_status status = engine->ops->begin(engine->state, engine_query, a, b, control, path);
  if (status == ARCNAV_IN_PROGRESS) {
    an_path_reset(path, a, b);
    size_t slice = control->slice;
    control->slice = 0;
    status = engine->ops->resume(engine->state, engine_query, control, path);
    control->slice = slice;
  }
  return status;
}

arcnav_status an_query_scratch_path(arcnav_query *query, arcnav_path **out) {
  if (!query->scratch_path &&
      arcnav_path_create(&query->alloc.hooks, &query->scratch_path) != ARCNAV_OK) {
    query->scratch_path = NULL;
  }
  *out = query->scratch_path;
  return *out ? ARCNAV_OK : ARCNAV_ERR_OUT_OF_MEMORY;
}

arcnav_status arcnav_query_reachable(arcnav_query *query, arcnav_vec2 from, arcnav_vec2 to,
                                     bool *out_reachable, bool *out_searched) {
  if (out_reachable) {
    *out_reachable = false;
  }
  if (out_searched) {
    *out_searched = false;
  }
  if (!query || !out_reachable) {
    return ARCNAV_ERR_INVALID_ARGUMENT;
  }
  query->sliced = AN_SLICED_NONE;
  arcnav_status status = check_ends(from, to);
  if (status != ARCNAV_OK) {
    return status;
  }
  reset_stats(query);
  status = an_query_bind(query);
  if (status == ARCNAV_OK) {
    status = an_query_apply_ignored(query, NULL);
  }
  if (status != ARCNAV_OK) {
    return status;
  }
  void *engine_query;
  const an_engine *engine = query_engine(query, &engine_query);
  status = an_engine_decide_reachable(engine, engine_query, from, to, false);
  if (status == ARCNAV_IN_PROGRESS) {
    // Only a search tells: the engine's own, to the goal itself (no partial answer).
    arcnav_path *path = NULL;
    status = an_query_scratch_path(query, &path);
    if (status != ARCNAV_OK) {
      return status;
    }
    status = an_engine_search(engine, engine_query, &query->control, from, to, path);
    if (out_searched) {
      *out_searched = true;
    }
  }
  *out_reachable = status == ARCNAV_OK;
  return status;
}

arcnav_status arcnav_query_begin(arcnav_query *query, arcnav_vec2 start, arcnav_vec2 goal) {
  if (!query) {
    return ARCNAV_ERR_INVALID_ARGUMENT;
  }
  query->sliced = AN_SLICED_NONE;
  arcnav_status status = check_ends(start, goal);
  if (status != ARCNAV_OK) {
    return status;
  }
  reset_stats(query);
  query->sliced_start = start;
  query->sliced_goal = goal;
  query->sliced = AN_SLICED_BEGUN;
  return ARCNAV_OK;
}

arcnav_status arcnav_query_resume(arcnav_query *query, size_t max_expansions, arcnav_path *path) {
  if (!query || !path) {
    return ARCNAV_ERR_INVALID_ARGUMENT;
  }
  if (query->sliced == AN_SLICED_NONE) {
    return ARCNAV_ERR_NO_SEARCH;
  }
  vec2 start = query->sliced_start, goal = query->sliced_goal;
  // An update replaced the engines the running search was set up on: it begins again.
  if (query->generation != query->planner->generation) {
    query->sliced = AN_SLICED_BEGUN;
  }
  an_path_reset(path, start, goal);
  arcnav_status status = ARCNAV_IN_PROGRESS;
  if (query->sliced == AN_SLICED_BEGUN) {
    reset_stats(query);
    status = an_query_bind(query);
    if (status == ARCNAV_OK) {
      status = fall_back(query, begin_search(query, start, goal, path), start, goal, path);
    }
    query->sliced = status == ARCNAV_IN_PROGRESS ? AN_SLICED_RUNNING : AN_SLICED_NONE;
  }
  if (query->sliced == AN_SLICED_RUNNING) {
    status = run_search(query, max_expansions, start, path);
    // A search that gives way to another pauses there: the next resume runs that one.
    if (status != ARCNAV_IN_PROGRESS) {
      status = fall_back(query, status, start, goal, path);
    }
    if (status != ARCNAV_IN_PROGRESS) {
      query->sliced = AN_SLICED_NONE;
    }
  }
  return settle(query, status, start, goal, path);
}

arcnav_status arcnav_query_best_path(arcnav_query *query, arcnav_path *path) {
  if (!query || !path) {
    return ARCNAV_ERR_INVALID_ARGUMENT;
  }
  if (query->sliced == AN_SLICED_NONE) {
    return ARCNAV_ERR_NO_SEARCH;
  }
  vec2 start = query->sliced_start;
  an_path_reset(path, start, start);
  if (query->sliced == AN_SLICED_BEGUN || query->generation != query->planner->generation) {
    return ARCNAV_OK;
  }
  void *engine_query;
  const an_engine *engine = query_engine(query, &engine_query);
  return engine->ops->best_so_far(engine->state, engine_query, path);
}

arcnav_status arcnav_query_set_partial(arcnav_query *query, bool partial) {
  if (!query) {
    return ARCNAV_ERR_INVALID_ARGUMENT;
  }
  query->partial = partial;
  return ARCNAV_OK;
}

bool arcnav_query_point_is_free(arcnav_query *query, arcnav_vec2 point) {
  if (!query || !v2_is_finite(point)) {
    return false;
  }
  // The test arcnav_find_path() applies to start and goal, with this query's working memory.
  if (an_query_bind(query) != ARCNAV_OK || an_query_apply_ignored(query, NULL) != ARCNAV_OK) {
    return false;
  }
  void *engine_query;
  const an_engine *engine =
      an_planner_engine_for(query->planner, query->radius, query, &engine_query);
  return engine->ops->point_is_free(engine->state, engine_query, point);
}
