// SPDX-License-Identifier: MIT
#include "funnel/funnel_engine.h"

#include "funnel/erode.h"
#include "funnel/funnel.h"
#include "funnel/interval_search.h"
#include "funnel/landmarks_build.h"
#include "geom/tolerances.h"
#include "index/free_space.h"
#include "mesh/local_polygons.h"
#include "mesh/navmesh.h"
#include "path/path.h"

#include <assert.h>
#include <string.h>

typedef struct funnel_engine {
  an_allocator alloc;
  bool optimal; ///< ARCNAV_ENGINE_FUNNEL; else the first channel's path
  /// At R > 0 the engine plans for a point among obstacles grown by R (an eroded navmesh) and
  /// judges start and goal by point location in that mesh, so it needs no grid. Otherwise start
  /// and goal are judged by the free test every engine shares.
  bool eroded;
  bool polygons_only;  ///< no circle obstacle: the navmesh is the polygons' alone
  an_free_space space; ///< not eroded only
  /// The map's extent when the mesh was built: its box follows from it, so a local change must
  /// leave it as it was.
  vec2 extent_min, extent_max;
  bool has_extent;
  an_navmesh *navmesh;
  /// The polygons put into the mesh by local changes (change_locally), which it can take out the
  /// same way.
  an_local_polygons locals;
} funnel_engine;

typedef struct funnel_query {
  an_allocator alloc;
  bool eroded;                    ///< made for an eroded mesh: no clearance scratch
  an_clearance_scratch clearance; ///< not eroded only
  an_funnel_scratch *funnel;      ///< TA* and the plain funnel
  an_interval_scratch *interval;  ///< the optimal search on the plain mesh (R <= 2 eps)
  an_funnel_result result;        ///< the running search's counts and, once found, its path
} funnel_query;

/// The optimal search on the plain mesh is the interval search (Polyanya), the same answers as
/// TA* with fewer nodes; the eroded mesh has connector triangles, which only TA* crosses.
static bool uses_interval_search(const funnel_engine *engine) {
  return engine->optimal && !engine->eroded;
}

static void funnel_destroy(void *state) {
  funnel_engine *engine = state;
  if (!engine) {
    return;
  }
  an_allocator alloc = engine->alloc;
  an_navmesh_destroy(engine->navmesh);
  an_free_space_destroy(&engine->space, &alloc);
  an_local_polygons_free(&engine->locals, &alloc);
  an_free(&alloc, engine);
}

static void funnel_hand_down(void *state, void *successor) {
  an_navmesh_hand_down(((funnel_engine *)state)->navmesh, ((funnel_engine *)successor)->navmesh);
}

static arcnav_status build_eroded(funnel_engine *engine, const arcnav_map *map, double radius) {
  arcnav_map *grown = NULL;
  an_erode_trim *trim = NULL;
  arcnav_status status = an_erode_map(map, radius, &grown);
  if (status == ARCNAV_OK) {
    status = an_erode_trim_create(map, radius, &engine->alloc, &trim);
  }
  if (status == ARCNAV_OK) {
    status = an_navmesh_build_trimmed(grown, &engine->alloc, an_erode_trim_segment, trim,
                                      &engine->navmesh);
  }
  an_erode_trim_destroy(trim);
  arcnav_map_destroy(grown);
  return status;
}

static const an_engine_ops funnel_ops;

static arcnav_status changed_copy(const funnel_engine *engine, const arcnav_map *map,
                                  const an_local_change *change, an_engine *out);

arcnav_status an_funnel_engine_build(const an_engine_args *args, an_engine *out) {
  // After a change the engine it replaces could follow (an_engine_args.previous), a copy of that
  // one changed for it; a change it cannot follow builds from nothing.
  if (args->previous && args->previous->ops == &funnel_ops && args->change) {
    arcnav_status status = changed_copy(args->previous->state, args->map, args->change, out);
    if (status == ARCNAV_OK && args->followed) {
      *args->followed = true;
    }
    if (status != ARCNAV_ERR_INVALID_ARGUMENT) {
      return status;
    }
  }
  funnel_engine *engine = an_calloc(args->alloc, 1, sizeof *engine);
  if (!engine) {
    return ARCNAV_ERR_OUT_OF_MEMORY;
  }
  engine->alloc = *args->alloc;
  engine->optimal = args->engine == ARCNAV_ENGINE_FUNNEL;
  // A radius within the tolerance grows nothing measurable (and would only make near-duplicate
  // vertices): such an agent is a point, as it is for the free checks.
  engine->eroded = args->radius > AN_POINT_AGENT_TOLERANCES * args->eps;
  arcnav_status status;
  if (engine->eroded) {
    status = build_eroded(engine, args->map, args->radius);
  } else {
    engine->polygons_only = !an_map_has_round_obstacles(args->map);
    engine->has_extent = arcnav_map_extent(args->map, &engine->extent_min, &engine->extent_max);
    status = an_free_space_build_reaching(args->map, args->radius, args->grid_radius, args->eps,
                                          &engine->alloc, &engine->space);
    if (status == ARCNAV_OK) {
      status = an_navmesh_build(args->map, &engine->alloc, &engine->navmesh);
    }
    if (status == ARCNAV_OK && engine->optimal) {
      status = an_landmarks_build(engine->navmesh,
                                  an_landmarks_count_for(engine->navmesh->cdt.point_count), true);
    }
  }
  if (status != ARCNAV_OK) {
    funnel_destroy(engine);
    return status;
  }
  *out = (an_engine){&funnel_ops, engine};
  return ARCNAV_OK;
}

static void funnel_query_destroy(void *query) {
  funnel_query *q = query;
  if (!q) {
    return;
  }
  an_allocator alloc = q->alloc;
  an_clearance_scratch_free(&q->clearance, &alloc);
  an_funnel_scratch_destroy(q->funnel);
  an_interval_scratch_destroy(q->interval);
  an_free(&alloc, q);
}

static arcnav_status funnel_query_create(const void *state, void **out_query) {
  const funnel_engine *engine = state;
  funnel_query *q = an_calloc(&engine->alloc, 1, sizeof *q);
  if (!q) {
    return ARCNAV_ERR_OUT_OF_MEMORY;
  }
  q->alloc = engine->alloc;
  q->eroded = engine->eroded;
  arcnav_status status =
      engine->eroded ? ARCNAV_OK
                     : an_clearance_scratch_init(&q->clearance, &engine->space.grid, &q->alloc);
  if (status == ARCNAV_OK) {
    status = uses_interval_search(engine)
                 ? an_interval_scratch_create(engine->navmesh, &q->alloc, &q->interval)
                 : an_funnel_scratch_create(engine->navmesh, &q->alloc, &q->funnel);
  }
  if (status != ARCNAV_OK) {
    funnel_query_destroy(q);
    return status;
  }
  *out_query = q;
  return ARCNAV_OK;
}

// The working memory of a query object of an engine an update replaced (or of this one before
// its change), made this engine's as funnel_query_create() would make it, its memory kept where it
// has room: the interval search's or the funnel's, and the free test's on a plain mesh. Nothing in
// it depends on the engine it was made for (`successor`); one made for the other search, or for
// the other kind of mesh, is made anew.
static arcnav_status funnel_query_renew(const void *state, void *query, bool successor) {
  (void)successor;
  const funnel_engine *engine = state;
  funnel_query *q = query;
  bool intervals = uses_interval_search(engine);
  if (q->eroded != engine->eroded || (intervals ? !q->interval : !q->funnel)) {
    return ARCNAV_ERR_INVALID_ARGUMENT;
  }
  arcnav_status status = intervals ? an_interval_scratch_renew(q->interval, engine->navmesh)
                                   : an_funnel_scratch_renew(q->funnel, engine->navmesh);
  if (status == ARCNAV_OK && !engine->eroded) {
    status = an_clearance_scratch_renew(&q->clearance, &engine->space.grid, &q->alloc);
  }
  if (status == ARCNAV_OK) {
    memset(&q->result, 0, sizeof q->result);
  }
  return status;
}

static bool funnel_point_is_free(const void *state, void *query, vec2 point) {
  const funnel_engine *engine = state;
  funnel_query *q = query;
  // On the eroded mesh the test is point location, which allocates nothing.
  if (engine->eroded) {
    return an_navmesh_point_is_free(engine->navmesh, point);
  }
  if (!q) {
    return an_free_space_point_is_free_once(&engine->space, engine->space.clearance.radius,
                                            &engine->alloc, point);
  }
  return an_point_is_free(&engine->space.clearance, &q->clearance, point);
}

// Appends the result's polyline to `path` as lines; on failure the path is left with no pieces.
static arcnav_status add_lines(const an_funnel_result *result, arcnav_path *path) {
  arcnav_status status = ARCNAV_OK;
  for (size_t i = 1; status == ARCNAV_OK && i < result->point_count; ++i) {
    status = an_path_add_line(path, result->points[i - 1], result->points[i]);
  }
  if (status != ARCNAV_OK) {
    an_path_reset(path, arcnav_path_start(path), arcnav_path_end(path));
  }
  return status;
}

// The answer of a search of the mesh as the engine gives it, with its path.
static arcnav_status funnel_answer(const funnel_engine *engine, funnel_query *q,
                                   arcnav_status status, an_search_control *control,
                                   arcnav_path *path) {
  // Ends the free test passed but the mesh holds blocked lie in the sliver between a circle and
  // its 64-gon: free, but out of this engine's reach.
  if (!engine->eroded && (status == ARCNAV_START_BLOCKED || status == ARCNAV_GOAL_BLOCKED)) {
    status = ARCNAV_NO_PATH;
  }
  const an_funnel_result *result = &q->result;
  control->stats.nodes_expanded = result->nodes_expanded;
  control->stats.channels = result->channels;
  return status == ARCNAV_OK ? add_lines(result, path) : status;
}

// Start and goal by the free test every exact engine shares; on the eroded mesh the search itself
// judges them by point location.
static arcnav_status judge_ends(const funnel_engine *engine, funnel_query *q, vec2 start,
                                vec2 goal) {
  if (engine->eroded) {
    return ARCNAV_OK;
  }
  if (!an_point_is_free(&engine->space.clearance, &q->clearance, start)) {
    return ARCNAV_START_BLOCKED;
  }
  if (!an_point_is_free(&engine->space.clearance, &q->clearance, goal)) {
    return ARCNAV_GOAL_BLOCKED;
  }
  return ARCNAV_OK;
}

static arcnav_status funnel_begin(const void *state, void *query, vec2 start, vec2 goal,
                                  an_search_control *control, arcnav_path *path) {
  const funnel_engine *engine = state;
  funnel_query *q = query;
  memset(&control->stats, 0, sizeof control->stats);
  memset(&q->result, 0, sizeof q->result);
  arcnav_status judged = judge_ends(engine, q, start, goal);
  if (judged != ARCNAV_OK) {
    return judged;
  }
  if (v2_equal(start, goal)) {
    return engine->eroded && !an_navmesh_point_is_free(engine->navmesh, start)
               ? ARCNAV_START_BLOCKED
               : ARCNAV_OK;
  }
  arcnav_status status =
      uses_interval_search(engine)
          ? an_interval_begin(engine->navmesh, q->interval, start, goal, &q->result)
          : an_funnel_begin(engine->navmesh, q->funnel, start, goal, engine->optimal, &q->result);
  return funnel_answer(engine, q, status, control, path);
}

// Ends whose triangles lie in one connected part of the mesh are joined by a path on it, which
// the searches find; every other question takes a search (an end at a pinch may lie by more than
// one part, and one beyond the box or in a circle's sliver by none).
static arcnav_status funnel_decide_reachable(const void *state, void *query, vec2 start, vec2 goal,
                                             bool ends_free) {
  const funnel_engine *engine = state;
  funnel_query *q = query;
  arcnav_status judged = ends_free ? ARCNAV_OK : judge_ends(engine, q, start, goal);
  if (judged != ARCNAV_OK) {
    return judged;
  }
  int32_t ta = an_navmesh_locate(engine->navmesh, start);
  int32_t tb = an_navmesh_locate(engine->navmesh, goal);
  return ta >= 0 && tb >= 0 && engine->navmesh->component[ta] == engine->navmesh->component[tb]
             ? ARCNAV_OK
             : ARCNAV_IN_PROGRESS;
}

static arcnav_status funnel_resume(const void *state, void *query, an_search_control *control,
                                   arcnav_path *path) {
  const funnel_engine *engine = state;
  funnel_query *q = query;
  size_t pause_at = an_slice_end(control, q->result.nodes_expanded);
  arcnav_status status =
      uses_interval_search(engine)
          ? an_interval_resume(q->interval, control->expansion_limit, pause_at, &q->result)
          : an_funnel_resume(q->funnel, control->expansion_limit, pause_at, &q->result);
  return funnel_answer(engine, q, status, control, path);
}

static arcnav_status funnel_best_so_far(const void *state, void *query, arcnav_path *path) {
  const funnel_engine *engine = state;
  funnel_query *q = query;
  an_funnel_result best;
  memset(&best, 0, sizeof best);
  arcnav_status status = uses_interval_search(engine) ? an_interval_best_so_far(q->interval, &best)
                                                      : an_funnel_best_so_far(q->funnel, &best);
  if (status != ARCNAV_OK) {
    return status; // the path stays the start alone
  }
  vec2 start = arcnav_path_start(path);
  an_path_reset(path, start, best.points[best.point_count - 1]);
  status = add_lines(&best, path);
  if (status != ARCNAV_OK) {
    an_path_reset(path, start, start);
  }
  return status;
}

static void funnel_get_info(const void *state, arcnav_planner_info *out) {
  const funnel_engine *engine = state;
  out->triangle_count = an_navmesh_triangle_count(engine->navmesh);
  out->memory_bytes = sizeof *engine + an_navmesh_memory_bytes(engine->navmesh) +
                      (engine->eroded ? 0 : an_free_space_memory_bytes(&engine->space));
}

static size_t funnel_triangle_count(const void *state) {
  const funnel_engine *engine = state;
  return an_navmesh_triangle_count(engine->navmesh);
}

static void funnel_triangle(const void *state, size_t index, vec2 out[3]) {
  const funnel_engine *engine = state;
  an_navmesh_triangle(engine->navmesh, index, out);
}

// At R = 0 on a map without circles the navmesh is the polygons' triangulation, which the tangent
// engine of a planner for several radii borrows for its sight mesh.
static const an_navmesh *funnel_polygon_mesh(const void *state) {
  const funnel_engine *engine = state;
  return !engine->eroded && engine->polygons_only ? engine->navmesh : NULL;
}

// The eroded engines judge points on grown obstacles, not by the exact free test: none to lend.
static const an_free_space *funnel_free_space(const void *state) {
  const funnel_engine *engine = state;
  return engine->eroded ? NULL : &engine->space;
}

// ---- local changes --------------------------------------------------------------------------
// A polygon placed clear of everything, taken out again or moved, changes the point agent's mesh
// only round it (an_navmesh_change_polygon()), and the obstacle grid only its items
// (an_grid_changed_clear()) (docs/DESIGN.md, "A living map").

// Can the engine follow `change` of `map` locally, as far as the map and its records tell?
// Decided before anything is built for it; a new shape's clearance is judged later, on the grid
// without the shape it replaces.
static bool may_follow(const funnel_engine *engine, const arcnav_map *map,
                       const an_local_change *change) {
  vec2 lo = v2(0.0, 0.0), hi = lo;
  bool has_extent = arcnav_map_extent(map, &lo, &hi);
  if (engine->eroded || !engine->polygons_only || has_extent != engine->has_extent ||
      !v2_equal(lo, engine->extent_min) || !v2_equal(hi, engine->extent_max) ||
      !an_navmesh_may_change_locally(engine->navmesh)) {
    return false;
  }
  return change->kind == AN_CHANGE_REMOVED ||
         map->obstacles[change->index].kind == AN_OBSTACLE_POLYGON;
}

// The grid for the map after `change`, into *out (on failure nothing to free): the old shape's
// items out, then the new shape's in, where nothing else comes near either.
static arcnav_status change_grid(const funnel_engine *engine, const arcnav_map *map,
                                 const an_local_change *change, an_grid *out) {
  an_owner_items old = change->kind != AN_CHANGE_ADDED
                           ? an_grid_owner_items(&engine->space.grid, (uint32_t)change->index)
                           : (an_owner_items){0};
  return an_grid_changed_clear(
      &engine->space.grid, map, change->index, change->kind != AN_CHANGE_ADDED ? &old : NULL,
      change->kind != AN_CHANGE_REMOVED,
      AN_LOCAL_CHANGE_CLEARANCE_TOLERANCES * engine->space.clearance.eps, &engine->alloc, out);
}

// The mesh and the engine's records after `change` (on failure both as they were); a polygon
// the build put in that goes is read from its edges in `before`, the grid before the change.
static arcnav_status change_mesh(funnel_engine *engine, const an_grid *before,
                                 const arcnav_map *map, const an_local_change *change) {
  bool out = change->kind != AN_CHANGE_ADDED;
  an_built_edges built = {NULL, 0};
  if (out && !an_local_polygons_has(&engine->locals, change->id)) {
    an_owner_items old = an_grid_owner_items(before, (uint32_t)change->index);
    built = (an_built_edges){old.count > 0 ? before->items + old.first : NULL, old.count};
  }
  return an_local_polygons_change(&engine->locals, engine->navmesh, map, change->id, out,
                                  change->kind != AN_CHANGE_REMOVED, change->index, &built,
                                  &engine->alloc);
}

static arcnav_status funnel_change_locally(void *state, const arcnav_map *map,
                                           const an_local_change *change) {
  funnel_engine *engine = state;
  if (!may_follow(engine, map, change)) {
    return ARCNAV_ERR_INVALID_ARGUMENT;
  }
  // The grid takes the change first, into new tables beside the old: the mesh changes last, so
  // a failure anywhere leaves the engine as it was.
  an_free_space space = engine->space;
  arcnav_status status = change_grid(engine, map, change, &space.grid);
  if (status != ARCNAV_OK) {
    // A grid too large for new tables, or a shape that comes near something, is the full
    // build's to judge.
    return status == ARCNAV_ERR_OUT_OF_MEMORY ? status : ARCNAV_ERR_INVALID_ARGUMENT;
  }
  status = change_mesh(engine, &engine->space.grid, map, change);
  an_free_space old = status == ARCNAV_OK ? engine->space : space;
  if (status == ARCNAV_OK) {
    engine->space = space;
  }
  // `space` began as a copy of the engine's: its settings point at the engine's grid already.
  assert(engine->space.clearance.grid == &engine->space.grid);
  an_free_space_destroy(&old, &engine->alloc);
  return status;
}

// change_locally into a new engine beside `engine`, which stays as it was: for a planner whose
// other engine borrows this one's mesh and grid, and is built again beside its old self from the
// new ones. The copy keeps the forest of the widest passages that engine's searches read,
// measured again over the changed mesh. The same refusals as change_locally, with nothing made.
static arcnav_status changed_copy(const funnel_engine *engine, const arcnav_map *map,
                                  const an_local_change *change, an_engine *out) {
  if (!may_follow(engine, map, change)) {
    return ARCNAV_ERR_INVALID_ARGUMENT;
  }
  funnel_engine *copy = an_calloc(&engine->alloc, 1, sizeof *copy);
  if (!copy) {
    return ARCNAV_ERR_OUT_OF_MEMORY;
  }
  *copy = *engine;
  copy->navmesh = NULL;
  copy->locals = (an_local_polygons){0};
  memset(&copy->space.grid, 0, sizeof copy->space.grid);
  copy->space.clearance.grid = &copy->space.grid;
  arcnav_status status = change_grid(engine, map, change, &copy->space.grid);
  if (status != ARCNAV_OK) {
    // As in change_locally: only a failure to allocate is the caller's to report.
    status = status == ARCNAV_ERR_OUT_OF_MEMORY ? status : ARCNAV_ERR_INVALID_ARGUMENT;
  }
  if (status == ARCNAV_OK) {
    status = an_navmesh_clone(engine->navmesh, true, &copy->navmesh);
  }
  if (status == ARCNAV_OK) {
    status = an_local_polygons_copy(&engine->locals, &copy->locals, &copy->alloc);
  }
  if (status == ARCNAV_OK) {
    status = change_mesh(copy, &engine->space.grid, map, change);
  }
  assert(status != ARCNAV_OK || !copy->navmesh->borrows_triangulation);
  if (status == ARCNAV_OK && engine->navmesh->passages.blocks) {
    status = an_navmesh_build_passages(copy->navmesh, engine->navmesh);
  }
  if (status != ARCNAV_OK) {
    funnel_destroy(copy);
    return status;
  }
  *out = (an_engine){&funnel_ops, copy};
  return ARCNAV_OK;
}

static const an_engine_ops funnel_ops = {
    .polygon_mesh = funnel_polygon_mesh,
    .destroy = funnel_destroy,
    .hand_down = funnel_hand_down,
    .query_create = funnel_query_create,
    .query_renew = funnel_query_renew,
    .query_destroy = funnel_query_destroy,
    .begin = funnel_begin,
    .resume = funnel_resume,
    .best_so_far = funnel_best_so_far,
    .point_is_free = funnel_point_is_free,
    .decide_reachable = funnel_decide_reachable,
    .get_info = funnel_get_info,
    .triangle_count = funnel_triangle_count,
    .triangle = funnel_triangle,
    .free_space = funnel_free_space,
    .change_locally = funnel_change_locally,
};
