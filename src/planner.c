// SPDX-License-Identifier: MIT
#include "planner.h"

#include "erode.h"
#include "path.h"
#include "tolerances.h"

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

static bool has_round_obstacles(const arcnav_map *map) {
  for (size_t i = 0; i < map->obstacle_count; ++i) {
    if (map->obstacles[i].kind == AN_OBSTACLE_CIRCLE && map->obstacles[i].radius > 0.0) {
      return true;
    }
  }
  return false;
}

// A corner's place, for finding exact copies.
typedef struct corner_place {
  double key[5];
  uint32_t index;
} corner_place;

static int compare_corner_places(const void *lhs, const void *rhs) {
  const corner_place *a = lhs, *b = rhs;
  for (int k = 0; k < 5; ++k) {
    if (a->key[k] != b->key[k]) {
      return a->key[k] < b->key[k] ? -1 : 1;
    }
  }
  return a->index < b->index ? -1 : (a->index > b->index ? 1 : 0);
}

// For a point agent, obstacles meeting at a corner's vertex are one wall with it: the corner may
// be turned around only inside the wall's normals there, and not at all where the wall is not
// convex (docs/DESIGN.md, "The touching rule"). False when the corner has no use left.
static bool restrict_to_the_wall(an_corner *corner, const an_clearance *point_check,
                                 an_clearance_scratch *scratch) {
  double start, sweep;
  bool alone;
  if (!an_point_agent_corner_wedge(point_check, scratch, corner->center, &start, &sweep, &alone)) {
    return false;
  }
  if (!alone) {
    corner->wedge_start = start;
    corner->wedge_sweep = sweep;
    corner->normal_start = v2_from_angle(start);
    corner->normal_end = v2_from_angle(start + sweep);
  }
  return true;
}

// Drops corners no path can use, before anything is built on them: a corner whose vertex lies
// inside other material (a disk touching its circle would contain the vertex, so it is blocked),
// for a point agent a corner where touching obstacles leave no convex wall, and exact copies of
// another corner (obstacles stacked on one spot), which would only multiply the same tangents.
// Order is kept, so maps without such corners plan exactly as before.
static arcnav_status drop_unusable_corners(arcnav_planner *planner, const an_allocator *alloc) {
  size_t count = planner->corner_count;
  if (count == 0) {
    return ARCNAV_OK;
  }
  an_clearance point_check = planner->clearance;
  point_check.radius = 0.0;
  point_check.point_agent = true;
  an_clearance_scratch scratch;
  arcnav_status status = an_clearance_scratch_init(&scratch, &planner->grid, alloc);
  bool *keep = status == ARCNAV_OK ? an_alloc(alloc, count, sizeof *keep) : NULL;
  corner_place *places = keep ? an_alloc(alloc, count, sizeof *places) : NULL;
  if (!places) {
    an_free(alloc, keep);
    an_clearance_scratch_free(&scratch, alloc);
    return ARCNAV_ERR_OUT_OF_MEMORY;
  }
  for (size_t c = 0; c < count; ++c) {
    an_corner *corner = &planner->corners[c];
    // A circle obstacle's centre is inside itself; only polygon vertices are judged.
    keep[c] =
        corner->wedge_sweep >= AN_TWO_PI ||
        (an_point_is_free(&point_check, &scratch, corner->center) &&
         (!planner->clearance.point_agent || restrict_to_the_wall(corner, &point_check, &scratch)));
    places[c] = (corner_place){{corner->center.x, corner->center.y, corner->radius,
                                corner->wedge_start, corner->wedge_sweep},
                               (uint32_t)c};
  }
  qsort(places, count, sizeof *places, compare_corner_places);
  for (size_t c = 1; c < count; ++c) {
    bool same = true;
    for (int k = 0; k < 5; ++k) {
      same = same && places[c].key[k] == places[c - 1].key[k];
    }
    if (same) {
      keep[places[c].index] = false; // a later copy of the one before it in the sorted order
    }
  }
  an_free(alloc, places);
  an_clearance_scratch_free(&scratch, alloc);
  size_t kept = 0;
  for (size_t c = 0; c < count; ++c) {
    if (keep[c]) {
      planner->corners[kept++] = planner->corners[c];
    }
  }
  an_free(alloc, keep);
  planner->corner_count = kept;
  return ARCNAV_OK;
}

// Puts the corners in Hilbert order of their centres. A query reads the corners near its path, so
// corners close in the plane then share cache lines: on maps too large for the caches this is
// worth about a tenth of the query time.
static arcnav_status order_corners_in_space(arcnav_planner *planner, const an_allocator *alloc) {
  size_t count = planner->corner_count;
  if (count < 2) {
    return ARCNAV_OK;
  }
  an_order_key *keys = an_alloc(alloc, count, sizeof *keys);
  an_corner *ordered = an_alloc(alloc, count, sizeof *ordered);
  if (!keys || !ordered) {
    an_free(alloc, keys);
    an_free(alloc, ordered);
    return ARCNAV_ERR_OUT_OF_MEMORY;
  }
  vec2 lo = planner->corners[0].center, hi = lo;
  for (size_t c = 1; c < count; ++c) {
    vec2 p = planner->corners[c].center;
    lo = v2(an_min(lo.x, p.x), an_min(lo.y, p.y));
    hi = v2(an_max(hi.x, p.x), an_max(hi.y, p.y));
  }
  for (size_t c = 0; c < count; ++c) {
    keys[c] = (an_order_key){an_hilbert_index(planner->corners[c].center, lo, hi), (uint32_t)c};
  }
  qsort(keys, count, sizeof *keys, an_compare_order_keys);
  for (size_t c = 0; c < count; ++c) {
    ordered[c] = planner->corners[keys[c].index];
  }
  an_free(alloc, keys);
  an_free(alloc, planner->corners);
  planner->corners = ordered;
  return ARCNAV_OK;
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
  arcnav_engine engine = resolve_engine(map, def->engine, def->radius);
  bool funnel = engine == ARCNAV_ENGINE_FUNNEL || engine == ARCNAV_ENGINE_PLAIN_FUNNEL;
  // At R > 0 the funnel engines plan for a point on obstacles grown by R (an eroded navmesh) and
  // judge start and goal by the same mesh, so they need neither the grid nor the corners. A radius
  // within the tolerance grows nothing measurable (and would only make near-duplicate vertices):
  // such an agent is a point, as it is for the free checks.
  bool eroded = funnel && def->radius > AN_POINT_AGENT_TOLERANCES * an_map_tolerance(map);
  an_allocator alloc = map->alloc;
  arcnav_planner *planner = an_calloc(&alloc, 1, sizeof *planner);
  if (!planner) {
    return ARCNAV_ERR_OUT_OF_MEMORY;
  }
  planner->alloc = alloc;
  planner->radius = def->radius;
  planner->eps = an_map_tolerance(map);
  planner->engine = engine;
  // Pieces are filed with a margin of a few tolerances beyond the radius, so that anything a
  // check could count as touching is found in the cells the check visits.
  double reach = def->radius + AN_FILING_MARGIN_TOLERANCES * planner->eps;
  // The grid serves every engine: start and goal are judged by the same free test everywhere.
  arcnav_status status = eroded ? ARCNAV_OK : an_grid_build(map, reach, &alloc, &planner->grid);
  if (status == ARCNAV_OK && !funnel) {
    status =
        an_inflate_corners(map, def->radius, &alloc, &planner->corners, &planner->corner_count);
  }
  if (status == ARCNAV_OK && eroded) {
    arcnav_map *grown = NULL;
    an_erode_trim *trim = NULL;
    status = an_erode_map(map, def->radius, &grown);
    if (status == ARCNAV_OK) {
      status = an_erode_trim_create(map, def->radius, &alloc, &trim);
    }
    if (status == ARCNAV_OK) {
      status =
          an_navmesh_build_trimmed(grown, &alloc, an_erode_trim_segment, trim, &planner->navmesh);
    }
    an_erode_trim_destroy(trim);
    arcnav_map_destroy(grown);
  } else if (status == ARCNAV_OK) {
    planner->clearance = (an_clearance){
        .grid = &planner->grid,
        .radius = def->radius,
        .eps = planner->eps,
        .point_agent = def->radius <= AN_POINT_AGENT_TOLERANCES * planner->eps,
        .has_bounds = map->has_bounds,
    };
    if (!funnel) {
      status = drop_unusable_corners(planner, &alloc);
    }
    planner->tangents_on_demand =
        !funnel && (def->tangent_graph == ARCNAV_TANGENT_GRAPH_ON_DEMAND ||
                    (def->tangent_graph == ARCNAV_TANGENT_GRAPH_AUTO &&
                     planner->corner_count > ARCNAV_TANGENT_GRAPH_AUTO_LIMIT));
    if (status == ARCNAV_OK && funnel) {
      status = an_navmesh_build(map, &alloc, &planner->navmesh);
    } else if (status == ARCNAV_OK && planner->tangents_on_demand) {
      status = order_corners_in_space(planner, &alloc);
      if (status == ARCNAV_OK) {
        status = an_corner_grid_build(&planner->grid, planner->corners, planner->corner_count,
                                      def->radius, &alloc, &planner->graph.corner_grid);
      }
      // A point agent uses the sight mesh too: obstacles that touch are one wall for it (the
      // touching rule), so the triangulation's passages are exactly the ones it may take.
      if (status == ARCNAV_OK) {
        status = an_sight_mesh_build(map, planner->corners, planner->corner_count, def->radius,
                                     &alloc, &planner->sight_mesh);
      }
    } else if (status == ARCNAV_OK) {
      status = an_tangent_graph_build(planner->corners, planner->corner_count, &planner->clearance,
                                      &alloc, &planner->graph);
    }
  }
  if (status != ARCNAV_OK) {
    arcnav_planner_destroy(planner);
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
  an_tangent_graph_destroy(&planner->graph, &alloc);
  an_navmesh_destroy(planner->navmesh);
  an_sight_mesh_destroy(planner->sight_mesh);
  an_grid_destroy(&planner->grid, &alloc);
  an_free(&alloc, planner->corners);
  an_free(&alloc, planner);
}

double arcnav_planner_radius(const arcnav_planner *planner) {
  return planner ? planner->radius : 0.0;
}

arcnav_engine arcnav_planner_engine(const arcnav_planner *planner) {
  return planner ? planner->engine : ARCNAV_ENGINE_AUTO;
}

void arcnav_planner_get_info(const arcnav_planner *planner, arcnav_planner_info *out_info) {
  if (!planner || !out_info) {
    return;
  }
  memset(out_info, 0, sizeof *out_info);
  out_info->corner_count = planner->corner_count;
  out_info->node_count = planner->graph.node_count;
  out_info->edge_count = planner->graph.edge_count;
  out_info->triangle_count = planner->navmesh ? an_navmesh_triangle_count(planner->navmesh) : 0;
  out_info->memory_bytes =
      sizeof *planner + planner->corner_count * sizeof(an_corner) +
      (planner->grid.cell_start ? an_grid_memory_bytes(&planner->grid) : 0) +
      an_tangent_graph_memory_bytes(&planner->graph, planner->corner_count, &planner->grid) +
      (planner->navmesh ? an_navmesh_memory_bytes(planner->navmesh) : 0) +
      an_sight_mesh_memory_bytes(planner->sight_mesh);
}

bool arcnav_planner_point_is_free(const arcnav_planner *planner, arcnav_vec2 point) {
  if (!planner || !v2_is_finite(point)) {
    return false;
  }
  if (!planner->grid.cell_start) {
    return an_navmesh_point_is_free(planner->navmesh, point);
  }
  an_clearance_scratch scratch;
  if (an_clearance_scratch_init(&scratch, &planner->grid, &planner->alloc) != ARCNAV_OK) {
    return false;
  }
  bool free_here = an_point_is_free(&planner->clearance, &scratch, point);
  an_clearance_scratch_free(&scratch, &planner->alloc);
  return free_here;
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
  // Graph nodes, two start attachments per corner, then the goal.
  size_t ids = (size_t)planner->graph.node_count + 2 * planner->corner_count + 1;
  if (ids >= AN_NONE) {
    an_free(&alloc, q);
    return ARCNAV_ERR_TOO_LARGE;
  }
  q->id_count = (uint32_t)ids;
  arcnav_status status = planner->grid.cell_start
                             ? an_clearance_scratch_init(&q->clearance, &planner->grid, &alloc)
                             : ARCNAV_OK;
  if (status == ARCNAV_OK && !planner->tangents_on_demand) {
    status = an_heap_init(&q->heap, q->id_count, &alloc);
  }
  if (status == ARCNAV_OK && planner->navmesh) {
    status = an_funnel_scratch_create(planner->navmesh, &alloc, &q->funnel);
  }
  if (status == ARCNAV_OK && planner->tangents_on_demand) {
    status = an_lazy_search_create(planner, &q->lazy);
  }
  if (status == ARCNAV_OK && !planner->tangents_on_demand) {
    q->search = an_calloc(&alloc, ids, sizeof *q->search);
    q->trail = an_alloc(&alloc, ids, sizeof *q->trail);
    q->starts = an_alloc(&alloc, 2 * planner->corner_count + 1, sizeof *q->starts);
    q->goal_exits = an_calloc(&alloc, 2 * planner->corner_count + 1, sizeof *q->goal_exits);
    q->entered = an_calloc(&alloc, planner->corner_count + 1, sizeof *q->entered);
    size_t cells = (size_t)planner->grid.columns * (size_t)planner->grid.rows;
    q->cell_seen = an_calloc(&alloc, cells + 1, sizeof *q->cell_seen);
    if (!q->search || !q->trail || !q->starts || !q->goal_exits || !q->entered || !q->cell_seen) {
      status = ARCNAV_ERR_OUT_OF_MEMORY;
    }
    if (status == ARCNAV_OK) {
      status = an_heap_init(&q->deferred, (uint32_t)planner->corner_count, &alloc);
    }
    if (status == ARCNAV_OK) {
      status = an_heap_init(&q->cells, (uint32_t)cells, &alloc);
    }
  }
  if (status != ARCNAV_OK) {
    arcnav_query_destroy(q);
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
  an_clearance_scratch_free(&query->clearance, &alloc);
  an_heap_free(&query->heap, &alloc);
  an_funnel_scratch_destroy(query->funnel);
  an_lazy_search_destroy(query->lazy);
  an_free(&alloc, query->search);
  an_free(&alloc, query->trail);
  an_free(&alloc, query->starts);
  an_heap_free(&query->deferred, &alloc);
  an_free(&alloc, query->goal_exits);
  an_free(&alloc, query->entered);
  an_heap_free(&query->cells, &alloc);
  an_free(&alloc, query->cell_seen);
  an_free(&alloc, query);
}

arcnav_status arcnav_query_set_expansion_limit(arcnav_query *query, size_t max_expansions) {
  if (!query) {
    return ARCNAV_ERR_INVALID_ARGUMENT;
  }
  query->expansion_limit = max_expansions;
  return ARCNAV_OK;
}

arcnav_query_stats arcnav_query_get_stats(const arcnav_query *query) {
  arcnav_query_stats none;
  memset(&none, 0, sizeof none);
  return query ? query->stats : none;
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
  const arcnav_planner *planner = query->planner;
  memset(&query->stats, 0, sizeof query->stats);
  an_path_reset(path, start, goal);
  // Without a grid (the eroded navmesh) the funnel search judges start and goal by point location.
  if (planner->grid.cell_start) {
    if (!an_point_is_free(&planner->clearance, &query->clearance, start)) {
      return ARCNAV_START_BLOCKED;
    }
    if (!an_point_is_free(&planner->clearance, &query->clearance, goal)) {
      return ARCNAV_GOAL_BLOCKED;
    }
  }
  if (start.x == goal.x && start.y == goal.y) {
    if (!planner->grid.cell_start && !an_navmesh_point_is_free(planner->navmesh, start)) {
      return ARCNAV_START_BLOCKED;
    }
    return ARCNAV_OK;
  }
  if (query->lazy) {
    return an_lazy_find_path(query, query->lazy, start, goal, path);
  }
  if (!planner->navmesh) {
    return an_tangent_find_path(query, start, goal, path);
  }
  an_funnel_result result;
  bool optimal = planner->engine == ARCNAV_ENGINE_FUNNEL;
  arcnav_status status = an_funnel_find_path_within(planner->navmesh, query->funnel, start, goal,
                                                    optimal, query->expansion_limit, &result);
  query->stats.nodes_expanded = result.nodes_expanded;
  query->stats.channels = result.channels;
  for (size_t i = 1; status == ARCNAV_OK && i < result.point_count; ++i) {
    status = an_path_add_line(path, result.points[i - 1], result.points[i]);
  }
  if (status != ARCNAV_OK) {
    an_path_reset(path, start, goal);
  }
  return status;
}

size_t arcnav_planner_triangle_count(const arcnav_planner *planner) {
  return planner && planner->navmesh ? an_navmesh_triangle_count(planner->navmesh) : 0;
}

bool arcnav_planner_triangle(const arcnav_planner *planner, size_t index, arcnav_vec2 out[3]) {
  if (!out || index >= arcnav_planner_triangle_count(planner)) {
    return false;
  }
  an_navmesh_triangle(planner->navmesh, index, out);
  return true;
}

bool arcnav_query_point_is_free(arcnav_query *query, arcnav_vec2 point) {
  if (!query || !v2_is_finite(point)) {
    return false;
  }
  const arcnav_planner *planner = query->planner;
  // Without a grid (a funnel engine on its eroded navmesh) the planner's test is point location in
  // the mesh, which allocates nothing: the same call gives the same answer.
  if (!planner->grid.cell_start) {
    return arcnav_planner_point_is_free(planner, point);
  }
  // The test arcnav_find_path() applies to start and goal, with this query's marks.
  return an_point_is_free(&planner->clearance, &query->clearance, point);
}
