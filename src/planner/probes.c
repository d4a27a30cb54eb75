// SPDX-License-Identifier: MIT
// The public probes (clearance, raycast, still-free paths, nearest free point): argument checks,
// the engine that lends its free space, and the query object's probe working memory. The
// geometry is index/probe.c's.
#include "index/free_space.h"
#include "path/path.h"
#include "planner/planner.h"

#include <string.h>

void an_query_release_probes(arcnav_query *query) {
  if (query) {
    an_probe_scratch_free(&query->probe_scratch, &query->alloc);
  }
}

static bool point_in_range(vec2 p) {
  return an_coordinate_in_range(p.x) && an_coordinate_in_range(p.y);
}

static arcnav_status check_point(vec2 p) {
  if (!v2_is_finite(p)) {
    return ARCNAV_ERR_NOT_FINITE;
  }
  return point_in_range(p) ? ARCNAV_OK : ARCNAV_ERR_TOO_LARGE;
}

// The free space of the engine that answers the query's radius (an_planner_engine_for()), the
// free test's settings at the query's radius, and the probe working memory, made on first use.
static arcnav_status begin_probe(arcnav_query *query, an_clearance *settings) {
  const uint8_t *ignored;
  arcnav_status ignoring = an_query_bind(query);
  if (ignoring == ARCNAV_OK) {
    ignoring = an_query_apply_ignored(query, &ignored);
  }
  if (ignoring != ARCNAV_OK) {
    return ignoring;
  }
  const arcnav_planner *planner = query->planner;
  const an_engine *engine = an_planner_engine_for(planner, query->radius, NULL, NULL);
  const an_free_space *space =
      engine->ops->free_space ? engine->ops->free_space(engine->state) : NULL;
  if (!space) {
    return ARCNAV_ERR_INVALID_ARGUMENT; // needs an exact engine
  }
  if (!an_probe_scratch_fits(&query->probe_scratch, &space->grid)) {
    // Kept through updates (an_query_bind()), it grows where the map outgrew it.
    arcnav_status status =
        query->probe_scratch.candidates
            ? an_probe_scratch_renew(&query->probe_scratch, &space->grid, &query->alloc)
            : an_probe_scratch_init(&query->probe_scratch, &space->grid, &query->alloc);
    if (status != ARCNAV_OK) {
      return status;
    }
  }
  *settings = an_clearance_at_radius(&space->clearance, query->radius);
  settings->ignored = ignored;
  return ARCNAV_OK;
}

// Checks `point` as arcnav_find_path() checks its ends, then begin_probe().
static arcnav_status begin_probe_at(arcnav_query *query, vec2 point, an_clearance *settings) {
  arcnav_status status = check_point(point);
  return status == ARCNAV_OK ? begin_probe(query, settings) : status;
}

arcnav_status arcnav_query_clearance(arcnav_query *query, arcnav_vec2 point,
                                     arcnav_clearance *out) {
  if (!query || !out) {
    return ARCNAV_ERR_INVALID_ARGUMENT;
  }
  an_clearance settings;
  arcnav_status status = begin_probe_at(query, point, &settings);
  if (status != ARCNAV_OK) {
    return status;
  }
  double distance;
  vec2 nearest;
  bool found = an_probe_clearance(&settings, &query->probe_scratch, point, &distance, &nearest);
  *out = (arcnav_clearance){
      .distance = found ? distance : INFINITY, .nearest = found ? nearest : point, .found = found};
  return ARCNAV_OK;
}

arcnav_status arcnav_query_raycast(arcnav_query *query, arcnav_vec2 from, arcnav_vec2 direction,
                                   double max_distance, arcnav_ray_hit *out) {
  if (!query || !out) {
    return ARCNAV_ERR_INVALID_ARGUMENT;
  }
  arcnav_status status = check_point(from);
  if (status == ARCNAV_OK && (!v2_is_finite(direction) || isnan(max_distance))) {
    status = ARCNAV_ERR_NOT_FINITE;
  }
  // A direction may be of any finite length: scaled first so that squaring it cannot overflow
  // or vanish.
  double scale = an_max(fabs(direction.x), fabs(direction.y));
  if (status == ARCNAV_OK && (!(scale > 0.0) || max_distance < 0.0)) {
    status = ARCNAV_ERR_INVALID_ARGUMENT;
  }
  an_clearance settings;
  if (status == ARCNAV_OK) {
    status = begin_probe(query, &settings);
  }
  if (status != ARCNAV_OK) {
    return status;
  }
  vec2 unit = v2_normalize(v2_scale(direction, 1.0 / scale));
  an_probe_scratch *scratch = &query->probe_scratch;
  if (!an_point_is_free(&settings, &scratch->clearance, from)) {
    *out = (arcnav_ray_hit){true, 0.0, from, v2_scale(unit, -1.0)};
    return ARCNAV_START_BLOCKED;
  }
  double distance;
  vec2 normal;
  if (an_probe_raycast(&settings, scratch, from, unit, max_distance, &distance, &normal)) {
    *out = (arcnav_ray_hit){true, distance, v2_mul_add(from, distance, unit), normal};
  } else {
    // Without an end the point is at infinity along the direction's non-zero components only
    // (infinity times zero would be NaN).
    vec2 end = isinf(max_distance) ? v2(unit.x != 0.0 ? copysign(INFINITY, unit.x) : from.x,
                                        unit.y != 0.0 ? copysign(INFINITY, unit.y) : from.y)
                                   : v2_mul_add(from, max_distance, unit);
    *out = (arcnav_ray_hit){false, max_distance, end, v2(0.0, 0.0)};
  }
  return ARCNAV_OK;
}

arcnav_status arcnav_query_path_is_free(arcnav_query *query, const arcnav_path *path,
                                        bool *out_free, double *out_first_contact) {
  if (!query || !path || !out_free) {
    return ARCNAV_ERR_INVALID_ARGUMENT;
  }
  arcnav_status status = check_point(path->start);
  for (size_t i = 0; i < path->count && status == ARCNAV_OK; ++i) {
    const arcnav_piece *piece = &path->pieces[i];
    status = check_point(piece->from);
    if (status == ARCNAV_OK) {
      status = check_point(piece->to);
    }
    if (status == ARCNAV_OK && piece->type == ARCNAV_PIECE_ARC) {
      status = check_point(piece->center);
    }
  }
  an_clearance settings;
  if (status == ARCNAV_OK) {
    status = begin_probe(query, &settings);
  }
  if (status != ARCNAV_OK) {
    return status;
  }
  double contact = INFINITY;
  *out_free = an_probe_path_is_free(&settings, &query->probe_scratch, path->start, path->pieces,
                                    path->count, &contact);
  if (out_first_contact) {
    *out_first_contact = *out_free ? INFINITY : contact;
  }
  return ARCNAV_OK;
}

arcnav_status arcnav_query_nearest_free(arcnav_query *query, arcnav_vec2 point,
                                        arcnav_vec2 *out_point, double *out_distance) {
  if (!query || !out_point) {
    return ARCNAV_ERR_INVALID_ARGUMENT;
  }
  an_clearance settings;
  arcnav_status status = begin_probe_at(query, point, &settings);
  if (status != ARCNAV_OK) {
    return status;
  }
  vec2 found;
  if (!an_probe_nearest_free(&settings, &query->probe_scratch, point, &found)) {
    *out_point = point;
    if (out_distance) {
      *out_distance = INFINITY;
    }
    return ARCNAV_NO_PATH;
  }
  *out_point = found;
  if (out_distance) {
    *out_distance = v2_dist(found, point);
  }
  return ARCNAV_OK;
}

// Reachability of a free point from the start of a nearest_reachable(): a search from the point
// to the start (the way back is the way there), with the query's engine, working memory and
// expansion limit.
#define REMEMBERED_REJECTS 16

// The most triangles a nearest-reachable probe floods to bound where it looks: a part of the
// free space larger than this is searched without the bound, since marking its cells would cost
// more than the free tests it spares.
#define REACH_FLOOD_LIMIT 4096

typedef struct reach_test {
  arcnav_query *query;
  const an_engine *engine;
  void *engine_query;
  const an_clearance *settings;
  vec2 from;
  arcnav_path *path;
  arcnav_status failure; ///< what aborted the test, if anything
  size_t limit;          ///< the query's expansion limit, shared by all the searches (0: none)
  size_t spent;          ///< what the searches so far expanded
  // The last places ruled out: a place that sees one of them in a straight line lies in its part
  // of the free space, and is ruled out without a search of its own.
  vec2 rejected[REMEMBERED_REJECTS];
  size_t rejected_count;
} reach_test;

static bool sees(reach_test *t, vec2 a, vec2 b) {
  return an_segment_is_free(t->settings, &t->query->probe_scratch.clearance, a, b);
}

static an_verdict reaches_start(void *context, vec2 point) {
  reach_test *t = context;
  // The passages may tell without a search (docs/DESIGN.md, "Reachability without a search"),
  // for less than a free test of the long segment to `from` costs. Both ends are free: the place
  // passed the free test, `from` was judged when the probe began.
  arcnav_status decided =
      an_engine_decide_reachable(t->engine, t->engine_query, point, t->from, true);
  if (decided == ARCNAV_OK) {
    return AN_ACCEPTED;
  }
  if (decided == ARCNAV_NO_PATH) {
    return AN_REJECTED;
  }
  if (sees(t, point, t->from)) {
    return AN_ACCEPTED;
  }
  size_t remembered =
      t->rejected_count < REMEMBERED_REJECTS ? t->rejected_count : REMEMBERED_REJECTS;
  for (size_t k = 0; k < remembered; ++k) {
    if (sees(t, point, t->rejected[k])) {
      return AN_REJECTED;
    }
  }
  an_search_control *control = &t->query->control;
  if (t->limit > 0) {
    if (t->spent >= t->limit) {
      t->failure = ARCNAV_SEARCH_LIMIT;
      return AN_ABORTED;
    }
    control->expansion_limit = t->limit - t->spent;
  }
  arcnav_status status =
      an_engine_search(t->engine, t->engine_query, control, point, t->from, t->path);
  t->spent += control->stats.nodes_expanded;
  control->expansion_limit = t->limit;
  if (status == ARCNAV_OK) {
    return AN_ACCEPTED;
  }
  if (arcnav_status_is_answer(status)) {
    t->rejected[t->rejected_count++ % REMEMBERED_REJECTS] = point;
    if (status == ARCNAV_NO_PATH && t->engine->ops->rule_out) {
      t->engine->ops->rule_out(t->engine->state, t->engine_query, control->ruled_out);
    }
    return AN_REJECTED;
  }
  t->failure = status;
  return AN_ABORTED;
}

typedef struct reach_bound {
  const an_engine *engine;
  void *engine_query;
  vec2 from;
  const an_grid *grid;
} reach_bound;

static bool mark_reached_cells(void *context, an_cell_filter *filter) {
  reach_bound *r = context;
  return r->engine->ops->mark_reachable_cells(r->engine->state, r->engine_query, r->from, r->grid,
                                              REACH_FLOOD_LIMIT, filter);
}

arcnav_status an_query_nearest_reachable(arcnav_query *query, vec2 from, vec2 point,
                                         vec2 *out_point) {
  an_clearance settings;
  arcnav_status status = begin_probe_at(query, point, &settings);
  if (status == ARCNAV_OK) {
    status = check_point(from);
  }
  if (status != ARCNAV_OK) {
    return status;
  }
  void *engine_query;
  const an_engine *engine =
      an_planner_engine_for(query->planner, query->radius, query, &engine_query);
  if (!engine->ops->point_is_free(engine->state, engine_query, from)) {
    return ARCNAV_START_BLOCKED;
  }
  arcnav_path *path = NULL;
  status = an_query_scratch_path(query, &path);
  if (status != ARCNAV_OK) {
    return status;
  }
  arcnav_query_stats kept = query->control.stats;
  // Marks for the parts the searches rule out, new for this probe (0 means none).
  if (++query->rule_out_mark == 0) {
    query->rule_out_mark = 1;
  }
  query->control.ruled_out = query->rule_out_mark;
  reach_test test = {.query = query,
                     .engine = engine,
                     .engine_query = engine_query,
                     .settings = &settings,
                     .from = from,
                     .path = path,
                     .failure = ARCNAV_OK,
                     .limit = query->control.expansion_limit};
  // Once many places were refused, the probe keeps to the cells of the places the engine can
  // tell `from` reaches, where it can.
  reach_bound reach = {engine, engine_query, from, settings.grid};
  an_cell_bound bound = {mark_reached_cells, &reach, &query->alloc};
  an_verdict verdict =
      an_probe_nearest_accepted(&settings, &query->probe_scratch, point, reaches_start, &test,
                                engine->ops->mark_reachable_cells ? &bound : NULL, out_point);
  query->control.stats = kept;
  query->control.ruled_out = 0;
  if (verdict == AN_ABORTED) {
    return test.failure;
  }
  // The start itself is free and reachable: only rounding can leave nothing accepted.
  return verdict == AN_ACCEPTED ? ARCNAV_OK : ARCNAV_NO_PATH;
}

arcnav_status arcnav_query_nearest_reachable(arcnav_query *query, arcnav_vec2 from,
                                             arcnav_vec2 point, arcnav_vec2 *out_point,
                                             double *out_distance) {
  if (!query || !out_point) {
    return ARCNAV_ERR_INVALID_ARGUMENT;
  }
  // It searches with the query object's working memory.
  query->sliced = AN_SLICED_NONE;
  arcnav_status status = an_query_bind(query);
  vec2 found = point;
  if (status == ARCNAV_OK) {
    status = an_query_nearest_reachable(query, from, point, &found);
  }
  *out_point = status == ARCNAV_OK ? found : point;
  if (out_distance) {
    *out_distance = status == ARCNAV_OK ? v2_dist(found, point) : INFINITY;
  }
  return status;
}
