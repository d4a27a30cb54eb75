// SPDX-License-Identifier: MIT
#include "planner/planner.h"

#include "funnel/funnel_engine.h"
#include "path/path.h"
#include "tangent/tangent_engine.h"

#include <string.h>

arcnav_planner_def arcnav_default_planner_def(void) {
  arcnav_planner_def def;
  memset(&def, 0, sizeof def);
  def.radius = 0.0;
  def.engine = ARCNAV_ENGINE_AUTO;
  def.internal_magic = AN_PLANNER_DEF_MAGIC;
  return def;
}

static bool has_round_obstacles(const arcnav_map *map) {
  for (size_t i = 0; i < map->obstacle_count; ++i) {
    if (map->obstacles[i].kind == AN_OBSTACLE_CIRCLE && map->obstacles[i].radius > 0.0) {
      return true;
    }
  }
  return false;
}

// AUTO picks the exact answer that is fastest: the optimal funnel for point agents among polygons;
// the tangent graph otherwise (the navmesh would replace circles by polygons, and a disk agent's
// rounded turns need arcs).
static arcnav_engine resolve_engine(const arcnav_map *map, arcnav_engine asked, double radius) {
  if (asked != ARCNAV_ENGINE_AUTO) {
    return asked;
  }
  return radius == 0.0 && !has_round_obstacles(map) ? ARCNAV_ENGINE_FUNNEL : ARCNAV_ENGINE_TANGENT;
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
  if (!isfinite(def->radius)) {
    return ARCNAV_ERR_NOT_FINITE;
  }
  if (def->radius < 0.0) {
    return ARCNAV_ERR_NEGATIVE_RADIUS;
  }
  if (!an_coordinate_in_range(def->radius)) {
    return ARCNAV_ERR_TOO_LARGE;
  }
  if (def->engine < ARCNAV_ENGINE_AUTO || def->engine > ARCNAV_ENGINE_PLAIN_FUNNEL ||
      def->tangent_graph < ARCNAV_TANGENT_GRAPH_AUTO ||
      def->tangent_graph > ARCNAV_TANGENT_GRAPH_ON_DEMAND) {
    return ARCNAV_ERR_INVALID_ARGUMENT;
  }
  an_allocator alloc = map->alloc;
  arcnav_planner *planner = an_calloc(&alloc, 1, sizeof *planner);
  if (!planner) {
    return ARCNAV_ERR_OUT_OF_MEMORY;
  }
  planner->alloc = alloc;
  planner->radius = def->radius;
  planner->eps = an_map_tolerance(map);
  planner->engine_kind = resolve_engine(map, def->engine, def->radius);
  an_engine_args args = {
      .map = map,
      .radius = def->radius,
      .eps = planner->eps,
      .engine = planner->engine_kind,
      .tangent_graph = def->tangent_graph,
      .alloc = &planner->alloc,
  };
  arcnav_status status = planner->engine_kind == ARCNAV_ENGINE_TANGENT
                             ? an_tangent_engine_build(&args, &planner->engine)
                             : an_funnel_engine_build(&args, &planner->engine);
  if (status != ARCNAV_OK) {
    an_free(&alloc, planner);
    return status;
  }
  *out_planner = planner;
  return ARCNAV_OK;
}

void arcnav_planner_destroy(arcnav_planner *planner) {
  if (!planner) {
    return;
  }
  an_allocator alloc = planner->alloc;
  planner->engine.ops->destroy(planner->engine.state);
  an_free(&alloc, planner);
}

double arcnav_planner_radius(const arcnav_planner *planner) {
  return planner ? planner->radius : 0.0;
}

arcnav_engine arcnav_planner_engine(const arcnav_planner *planner) {
  return planner ? planner->engine_kind : ARCNAV_ENGINE_AUTO;
}

void arcnav_planner_get_info(const arcnav_planner *planner, arcnav_planner_info *out_info) {
  if (!planner || !out_info) {
    return;
  }
  memset(out_info, 0, sizeof *out_info);
  planner->engine.ops->get_info(planner->engine.state, out_info);
  out_info->memory_bytes += sizeof *planner;
}

bool arcnav_planner_point_is_free(const arcnav_planner *planner, arcnav_vec2 point) {
  if (!planner || !v2_is_finite(point)) {
    return false;
  }
  return planner->engine.ops->point_is_free(planner->engine.state, NULL, point);
}

size_t arcnav_planner_triangle_count(const arcnav_planner *planner) {
  if (!planner || !planner->engine.ops->triangle_count) {
    return 0;
  }
  return planner->engine.ops->triangle_count(planner->engine.state);
}

bool arcnav_planner_triangle(const arcnav_planner *planner, size_t index, arcnav_vec2 out[3]) {
  if (!out || index >= arcnav_planner_triangle_count(planner)) {
    return false;
  }
  planner->engine.ops->triangle(planner->engine.state, index, out);
  return true;
}

// ---- queries -------------------------------------------------------------------------------

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
  arcnav_status status = planner->engine.ops->query_create(planner->engine.state, &q->engine_query);
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
  query->planner->engine.ops->query_destroy(query->engine_query);
  an_free(&alloc, query);
}

arcnav_status arcnav_query_set_expansion_limit(arcnav_query *query, size_t max_expansions) {
  if (!query) {
    return ARCNAV_ERR_INVALID_ARGUMENT;
  }
  query->control.expansion_limit = max_expansions;
  return ARCNAV_OK;
}

arcnav_query_stats arcnav_query_get_stats(const arcnav_query *query) {
  arcnav_query_stats none;
  memset(&none, 0, sizeof none);
  return query ? query->control.stats : none;
}

arcnav_status arcnav_find_path(arcnav_query *query, arcnav_vec2 start, arcnav_vec2 goal,
                               arcnav_path *path) {
  if (!query || !path) {
    return ARCNAV_ERR_INVALID_ARGUMENT;
  }
  if (!v2_is_finite(start) || !v2_is_finite(goal)) {
    return ARCNAV_ERR_NOT_FINITE;
  }
  if (!an_coordinate_in_range(start.x) || !an_coordinate_in_range(start.y) ||
      !an_coordinate_in_range(goal.x) || !an_coordinate_in_range(goal.y)) {
    return ARCNAV_ERR_TOO_LARGE;
  }
  const an_engine *engine = &query->planner->engine;
  memset(&query->control.stats, 0, sizeof query->control.stats);
  an_path_reset(path, start, goal);
  return engine->ops->find_path(engine->state, query->engine_query, start, goal, &query->control,
                                path);
}

bool arcnav_query_point_is_free(arcnav_query *query, arcnav_vec2 point) {
  if (!query || !v2_is_finite(point)) {
    return false;
  }
  // The test arcnav_find_path() applies to start and goal, with this query's working memory.
  const an_engine *engine = &query->planner->engine;
  return engine->ops->point_is_free(engine->state, query->engine_query, point);
}
