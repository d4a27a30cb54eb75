// SPDX-License-Identifier: MIT
#include "funnel/funnel_engine.h"

#include "funnel/erode.h"
#include "funnel/funnel.h"
#include "funnel/interval_search.h"
#include "funnel/landmarks_build.h"
#include "geom/tolerances.h"
#include "index/free_space.h"
#include "mesh/navmesh.h"
#include "path/path.h"

#include <assert.h>
#include <string.h>

typedef struct local_polygon {
  arcnav_obstacle_id id;
  uint32_t *ring_counts;
  size_t ring_count;
  int32_t *vertices;
} local_polygon;

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
  /// same way: per polygon its id, its rings' point counts and the mesh vertices of its points.
  local_polygon *locals;
  size_t local_count, local_capacity;
} funnel_engine;

typedef struct funnel_query {
  an_allocator alloc;
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
  for (size_t k = 0; k < engine->local_count; ++k) {
    an_free(&alloc, engine->locals[k].ring_counts);
    an_free(&alloc, engine->locals[k].vertices);
  }
  an_free(&alloc, engine->locals);
  an_free(&alloc, engine);
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

arcnav_status an_funnel_engine_build(const an_engine_args *args, an_engine *out) {
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
      status = an_landmarks_build(engine->navmesh, AN_LANDMARKS_DEFAULT, true);
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
// (an_grid_with_obstacle()) (docs/DESIGN.md, "A living map").

// The engine's record of polygon `id` put in locally, or local_count when there is none.
static size_t find_local(const funnel_engine *engine, arcnav_obstacle_id id) {
  size_t k = 0;
  while (k < engine->local_count && engine->locals[k].id != id) {
    ++k;
  }
  return k;
}

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
  if (change->kind != AN_CHANGE_ADDED && find_local(engine, change->id) == engine->local_count) {
    return false;
  }
  return change->kind == AN_CHANGE_REMOVED ||
         map->obstacles[change->index].kind == AN_OBSTACLE_POLYGON;
}

// The grid for the map after `change`, into *out (on failure nothing to free): the old shape's
// items out, then the new shape's in where nothing else comes near it.
static arcnav_status change_grid(const funnel_engine *engine, const arcnav_map *map,
                                 const an_local_change *change, an_grid *out) {
  const an_allocator *alloc = &engine->alloc;
  uint32_t owner = (uint32_t)change->index;
  if (change->kind == AN_CHANGE_REMOVED) {
    return an_grid_without_obstacle(&engine->space.grid, owner, alloc, out);
  }
  an_grid without;
  memset(&without, 0, sizeof without);
  const an_grid *before = &engine->space.grid;
  arcnav_status status = ARCNAV_OK;
  if (change->kind == AN_CHANGE_MOVED) {
    status = an_grid_without_obstacle(before, owner, alloc, &without);
    before = &without;
  }
  const an_obstacle *ob = &map->obstacles[change->index];
  if (status == ARCNAV_OK) {
    status =
        an_grid_box_is_clear(before, ob->box_min, ob->box_max,
                                 AN_LOCAL_CHANGE_CLEARANCE_TOLERANCES * engine->space.clearance.eps)
            ? an_grid_with_obstacle(before, map, change->index, alloc, out)
            : ARCNAV_ERR_INVALID_ARGUMENT;
  }
  an_grid_destroy(&without, alloc);
  return status;
}

// A record of polygon `index` of the map under `id`, its mesh vertices yet to be given, and its
// points one ring after the other in *out_points (on failure nothing to free).
static arcnav_status describe_polygon(const funnel_engine *engine, const arcnav_map *map,
                                      size_t index, arcnav_obstacle_id id, local_polygon *out,
                                      vec2 **out_points) {
  const an_obstacle *ob = &map->obstacles[index];
  size_t count = 0;
  for (uint32_t r = 0; r < ob->ring_count; ++r) {
    count += map->rings[ob->first_ring + r].count;
  }
  *out = (local_polygon){.id = id, .ring_count = ob->ring_count};
  out->ring_counts = an_alloc(&engine->alloc, ob->ring_count, sizeof *out->ring_counts);
  out->vertices = an_alloc(&engine->alloc, count, sizeof *out->vertices);
  vec2 *points = an_alloc(&engine->alloc, count, sizeof *points);
  if (!out->ring_counts || !out->vertices || !points) {
    an_free(&engine->alloc, out->ring_counts);
    an_free(&engine->alloc, out->vertices);
    an_free(&engine->alloc, points);
    *out = (local_polygon){0};
    return ARCNAV_ERR_OUT_OF_MEMORY;
  }
  size_t n = 0;
  for (uint32_t r = 0; r < ob->ring_count; ++r) {
    const an_ring *ring = &map->rings[ob->first_ring + r];
    out->ring_counts[r] = (uint32_t)ring->count;
    for (size_t k = 0; k < ring->count; ++k) {
      points[n++] = an_ring_vertex(map, ring, k);
    }
  }
  *out_points = points;
  return ARCNAV_OK;
}

// The mesh and the engine's records after `change` (on failure both as they were).
static arcnav_status change_mesh(funnel_engine *engine, const arcnav_map *map,
                                 const an_local_change *change) {
  size_t k = change->kind == AN_CHANGE_ADDED ? engine->local_count : find_local(engine, change->id);
  if (change->kind == AN_CHANGE_ADDED &&
      !an_reserve(&engine->alloc, (void **)&engine->locals, &engine->local_capacity,
                  engine->local_count, engine->local_count + 1, sizeof *engine->locals)) {
    return ARCNAV_ERR_OUT_OF_MEMORY;
  }
  local_polygon fresh = {0};
  vec2 *points = NULL;
  arcnav_status status =
      change->kind == AN_CHANGE_REMOVED
          ? ARCNAV_OK
          : describe_polygon(engine, map, change->index, change->id, &fresh, &points);
  if (status == ARCNAV_OK) {
    const local_polygon *old = change->kind == AN_CHANGE_ADDED ? NULL : &engine->locals[k];
    an_navmesh_rings gone = {old ? old->ring_counts : NULL, old ? old->ring_count : 0,
                             old ? old->vertices : NULL};
    an_navmesh_rings added = {fresh.ring_counts, fresh.ring_count, NULL};
    status = an_navmesh_change_polygon(engine->navmesh, old ? &gone : NULL, points,
                                       change->kind == AN_CHANGE_REMOVED ? NULL : &added,
                                       fresh.vertices);
  }
  an_free(&engine->alloc, points);
  if (status != ARCNAV_OK) {
    an_free(&engine->alloc, fresh.ring_counts);
    an_free(&engine->alloc, fresh.vertices);
    return status;
  }
  if (change->kind != AN_CHANGE_ADDED) {
    an_free(&engine->alloc, engine->locals[k].ring_counts);
    an_free(&engine->alloc, engine->locals[k].vertices);
  }
  if (change->kind == AN_CHANGE_REMOVED) {
    engine->locals[k] = engine->locals[--engine->local_count];
  } else {
    engine->locals[k] = fresh;
    engine->local_count += change->kind == AN_CHANGE_ADDED;
  }
  return ARCNAV_OK;
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
  status = change_mesh(engine, map, change);
  an_free_space old = status == ARCNAV_OK ? engine->space : space;
  if (status == ARCNAV_OK) {
    engine->space = space;
  }
  // `space` began as a copy of the engine's: its settings point at the engine's grid already.
  assert(engine->space.clearance.grid == &engine->space.grid);
  an_free_space_destroy(&old, &engine->alloc);
  return status;
}

// The polygons `engine` put in locally, copied into `copy`, which has none yet.
static arcnav_status copy_locals(const funnel_engine *engine, funnel_engine *copy) {
  if (engine->local_count == 0) {
    return ARCNAV_OK;
  }
  copy->locals = an_calloc(&copy->alloc, engine->local_count, sizeof *copy->locals);
  if (!copy->locals) {
    return ARCNAV_ERR_OUT_OF_MEMORY;
  }
  copy->local_capacity = engine->local_count;
  for (size_t k = 0; k < engine->local_count; ++k) {
    const local_polygon *from = &engine->locals[k];
    size_t points = 0;
    for (size_t r = 0; r < from->ring_count; ++r) {
      points += from->ring_counts[r];
    }
    local_polygon *to = &copy->locals[copy->local_count++];
    *to = (local_polygon){.id = from->id, .ring_count = from->ring_count};
    to->ring_counts =
        an_duplicate(&copy->alloc, from->ring_counts, from->ring_count, sizeof *to->ring_counts);
    to->vertices = an_duplicate(&copy->alloc, from->vertices, points, sizeof *to->vertices);
    if (!to->ring_counts || !to->vertices) {
      return ARCNAV_ERR_OUT_OF_MEMORY;
    }
  }
  return ARCNAV_OK;
}

// change_locally into a new engine beside this one, which stays as it was: for a planner whose
// other engine borrows this one's mesh and grid, and is built again beside its old self from the
// new ones (planner.c, update_ranged_locally). The copy keeps the forest of the widest passages
// that engine's searches read, measured again over the changed mesh.
static arcnav_status funnel_changed_copy(const void *state, const arcnav_map *map,
                                         const an_local_change *change, an_engine *out) {
  const funnel_engine *engine = state;
  if (!may_follow(engine, map, change)) {
    return ARCNAV_ERR_INVALID_ARGUMENT;
  }
  funnel_engine *copy = an_calloc(&engine->alloc, 1, sizeof *copy);
  if (!copy) {
    return ARCNAV_ERR_OUT_OF_MEMORY;
  }
  *copy = *engine;
  copy->navmesh = NULL;
  copy->locals = NULL;
  copy->local_count = copy->local_capacity = 0;
  memset(&copy->space.grid, 0, sizeof copy->space.grid);
  copy->space.clearance.grid = &copy->space.grid;
  arcnav_status status = change_grid(engine, map, change, &copy->space.grid);
  if (status != ARCNAV_OK) {
    // As in change_locally: only a failure to allocate is the caller's to report.
    status = status == ARCNAV_ERR_OUT_OF_MEMORY ? status : ARCNAV_ERR_INVALID_ARGUMENT;
  }
  if (status == ARCNAV_OK) {
    status = an_navmesh_clone(engine->navmesh, &copy->navmesh);
  }
  if (status == ARCNAV_OK) {
    status = copy_locals(engine, copy);
  }
  if (status == ARCNAV_OK) {
    status = change_mesh(copy, map, change);
  }
  if (status == ARCNAV_OK && engine->navmesh->passages.nodes) {
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
    .query_create = funnel_query_create,
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
    .changed_copy = funnel_changed_copy,
};
