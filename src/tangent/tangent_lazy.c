// SPDX-License-Identifier: MIT
#include "tangent/tangent_lazy.h"

#include "funnel/interval_search.h"
#include "path/path.h"
#include "search/heap.h"
#include "search/marks.h"

#include <assert.h>
#include <string.h>

// A directed tangent segment and its search state. It leaves the start or a corner circle (the
// group whose departures list it) and arrives at a corner circle (to_corner) or at the goal
// (to_corner == AN_NONE). Edges are made afresh by every query.
typedef struct lazy_edge {
  vec2 from, to;
  double length;
  double depart_offset; ///< wedge offset of `from` on the departure corner
  double arrive_angle;  ///< free-side normal at `to` on the arrival corner
  double arrive_offset;
  double cost;        ///< best known cost from the start to `to`; infinite until reached
  uint32_t to_corner; ///< AN_NONE for the goal, START_CORNER for the start's own entry
  uint32_t parent;
  uint32_t last_block; ///< once expanded: the last departure block of the arrival group relaxed
  /// A bound on the way on from `to` to the goal: the straight line, or the landmarks' when
  /// larger (an_tangent_corner_bound()); negative until first needed.
  double rest;
  uint8_t to_ccw;
  uint8_t closed;   ///< expanded at its present cost (opened again when reached shorter)
  uint8_t checked;  ///< its segment's free test: 0 not yet, 1 free, 2 blocked
  uint8_t recorded; ///< filed among its group's expanded arrivals
} lazy_edge;

#define START_CORNER (AN_NONE - 1)

// A gather of a group's departures: its first, a wider one going on from where the last stopped,
// or the first of the part of its wedge behind where its first arrival touched, which a later
// arrival touching there needs (at the reach the group's gathers have come to).
typedef enum gather_kind { GATHER_FIRST, GATHER_WIDER, GATHER_BACK } gather_kind;

// A target an earlier gather of a group offered but left for later, and a bound on what its
// tangents cost (a tangent's length plus the way on from its touching point to the goal).
typedef struct deferred_target {
  uint32_t corner;
  double key;
} deferred_target;

// What a group's gathers left out, to go on from: the windows the sight mesh stopped at, for each
// part of the wedge (PART_AHEAD, PART_BEHIND), and the targets deferred (runs in the query's
// pools), or by_grid when the sight mesh could not gather for it and the grid gathers again from
// scratch, over the whole wedge.
typedef struct group_rest {
  uint32_t frontier_first[2], frontier_count[2];
  uint32_t deferred_first, deferred_count;
  uint32_t arrivals; ///< the group's expanded arrivals: a chain in the arrival pool
  uint8_t by_grid;
  uint8_t behind_gathered; ///< the part behind has been gathered (it is then widened too)
  /// How far along the turn, from the wedge's start, the part ahead begins (0: the whole wedge,
  /// nothing behind it).
  double ahead_from;
  double reach; ///< the bound of the group's last gather that widened it
} group_rest;

enum { PART_AHEAD = 0, PART_BEHIND = 1 };

// A link in a group's chain of expanded arrivals (edges arriving at it).
typedef struct arrival_link {
  uint32_t edge;
  uint32_t next;
} arrival_link;

// A run of departures found by one gather of a group.
typedef struct departure_block {
  uint32_t first, count;
  uint32_t next; ///< AN_NONE at the end of the group's chain
} departure_block;

struct an_lazy_search {
  an_allocator alloc;
  an_sight_scratch sight;
  an_sight_mesh_scratch sight_mesh;
  // Departures of each (corner, direction) group, and of the start (the last group): a chain of
  // blocks, one per gather, valid when group_stamp[g] is the query's stamp. Gathers are confined
  // by a bound on a tangent's length plus the distance from its touching point to the goal
  // (an_sight_limit); group_bound[g] is the least such sum over the tangents they left out (at
  // least the bound), infinite once nothing was.
  uint32_t *group_head;
  uint32_t *group_tail;
  double *group_bound;
  double *group_base; ///< where the excess of the group's bounds is counted from
  uint32_t *group_stamp;
  group_rest *group_rest;
  // Pools of the groups' rests, filled afresh by every query; a gather appends its group's new
  // rest and leaves the old one unused.
  an_sight_frontier *frontier;
  size_t frontier_count, frontier_capacity;
  deferred_target *deferred;
  size_t deferred_count, deferred_capacity;
  arrival_link *arrivals;
  size_t arrival_count, arrival_capacity;
  departure_block *blocks;
  size_t block_count, block_capacity;
  uint32_t *target_marks; ///< per corner: targets a group already has, during an extension
  uint32_t mark;
  // Per corner: is its whole wedge arc free? 0 not known yet, 1 yes, 2 no. A fact about the
  // planner, so it is kept from query to query.
  uint8_t *wedge_free;
  uint32_t stamp;
  lazy_edge *edges;
  size_t edge_count, edge_capacity;
  // The open list, a queue heap of entries that either offer an edge or (continuation) ask to
  // look further from where an expanded edge arrived: departures beyond the arrival group's bound
  // cost at least the key. Stale entries are skipped on pop. Grown through the allocator.
  an_heap open;
  uint32_t *trail;
  size_t trail_capacity;
  // The guide: a point agent's shortest path among the polygons (the interval search over the
  // sight mesh's triangulation), no longer than the disk's. Its length is where first gathers
  // reach at least (see gather_block); 0 without one.
  an_interval_scratch *guide;
  double guide_length;
  double guide_turning; ///< the guide path's turns, in radians (see gather_block)
  // The running search: its ends; whether its guide is still searching, and the guide's counts;
  // its expansions and continuations with the guide's, what the expansion limit and the slices
  // count; and the expanded edge whose end is nearest the goal (AN_NONE: none nearer than the
  // start), for the best path so far.
  vec2 start, goal;
  bool gather_late; ///< an_lazy_search_gather_late()
  bool guiding;
  an_funnel_result guide_result;
  size_t expansions;
  uint32_t best_edge;
  double best_distance;
  /// What the per-group and per-corner arrays hold: their counts when made, more once renewed
  /// (an_lazy_search_renew()). A stamp's wrap clears them all.
  size_t group_room, corner_room;
};

#define GUIDE_FIRST_NODES 1024

/// How far past the point's path, in radii, a disk's guide goes on measuring: a disk's path is
/// longer than the point's by some radii where it rounds corners and keeps off walls, and the
/// corners it turns at are known exactly when their length and the way on stay below the guide's
/// stop key. The guide's spending caps it (MEASURE_SPEND_PART in interval_search.c); 8 took the
/// fewest instructions on the game maps (DESIGN.md, "The guide measures").
#define GUIDE_MEASURE_RADII 8.0

arcnav_status an_lazy_search_create(const an_tangent_engine *engine, an_lazy_search **out) {
  an_allocator alloc = engine->alloc;
  an_lazy_search *s = an_calloc(&alloc, 1, sizeof *s);
  if (!s) {
    return ARCNAV_ERR_OUT_OF_MEMORY;
  }
  s->alloc = alloc;
  size_t groups = 2 * engine->corner_count + 1, corners = engine->corner_count + 1;
  arcnav_status status =
      an_sight_scratch_init(&s->sight, &engine->space.grid, engine->corner_count, &alloc);
  s->group_head = an_alloc(&alloc, groups, sizeof *s->group_head);
  s->group_tail = an_alloc(&alloc, groups, sizeof *s->group_tail);
  s->group_bound = an_alloc(&alloc, groups, sizeof *s->group_bound);
  s->group_base = an_alloc(&alloc, groups, sizeof *s->group_base);
  s->group_stamp = an_calloc(&alloc, groups, sizeof *s->group_stamp);
  // Like the other per-group arrays, read only once the group's first gather of the query set
  // it: left unzeroed (48 bytes a group, 1 MB on Expedition, made again at every update).
  s->group_rest = an_alloc(&alloc, groups, sizeof *s->group_rest);
  s->target_marks = an_calloc(&alloc, corners, sizeof *s->target_marks);
  s->wedge_free = an_calloc(&alloc, corners, sizeof *s->wedge_free);
  if (status == ARCNAV_OK && engine->sight_mesh) {
    // A small node pool to start: it grows to what the guide's searches need.
    status = an_interval_scratch_create_with_capacity(an_sight_mesh_polygons(engine->sight_mesh),
                                                      &alloc, GUIDE_FIRST_NODES, &s->guide);
  }
  if (status == ARCNAV_OK &&
      (!s->group_head || !s->group_tail || !s->group_bound || !s->group_base || !s->group_stamp ||
       !s->group_rest || !s->target_marks || !s->wedge_free)) {
    status = ARCNAV_ERR_OUT_OF_MEMORY;
  }
  if (status != ARCNAV_OK) {
    an_lazy_search_destroy(s);
    return status;
  }
  s->group_room = groups;
  s->corner_room = corners;
  *out = s;
  return ARCNAV_OK;
}

// A new search: every mark of the last one made stale, its pools emptied.
static void next_search_stamp(an_lazy_search *s) {
  if (an_stamp_next(&s->stamp)) {
    memset(s->group_stamp, 0, s->group_room * sizeof *s->group_stamp);
  }
  s->edge_count = 0;
  s->block_count = 0;
  s->frontier_count = 0;
  s->deferred_count = 0;
  s->arrival_count = 0;
  an_heap_clear(&s->open);
}

arcnav_status an_lazy_search_renew(an_lazy_search *s, const an_tangent_engine *engine) {
  size_t groups = 2 * engine->corner_count + 1, corners = engine->corner_count + 1;
  an_room_array group_arrays[] = {{(void **)&s->group_head, sizeof *s->group_head, false},
                                  {(void **)&s->group_tail, sizeof *s->group_tail, false},
                                  {(void **)&s->group_bound, sizeof *s->group_bound, false},
                                  {(void **)&s->group_base, sizeof *s->group_base, false},
                                  {(void **)&s->group_stamp, sizeof *s->group_stamp, true},
                                  {(void **)&s->group_rest, sizeof *s->group_rest, false}};
  an_room_array corner_arrays[] = {{(void **)&s->target_marks, sizeof *s->target_marks, true},
                                   {(void **)&s->wedge_free, sizeof *s->wedge_free, false}};
  arcnav_status status =
      an_room_for(&s->alloc, group_arrays, 6, &s->group_room, groups) &&
              an_room_for(&s->alloc, corner_arrays, 2, &s->corner_room, corners)
          ? an_sight_scratch_renew(&s->sight, &engine->space.grid, engine->corner_count, &s->alloc)
          : ARCNAV_ERR_OUT_OF_MEMORY;
  const an_navmesh *polygons =
      engine->sight_mesh ? an_sight_mesh_polygons(engine->sight_mesh) : NULL;
  if (status == ARCNAV_OK && s->guide) {
    status = polygons ? an_interval_scratch_renew(s->guide, polygons) : ARCNAV_ERR_INVALID_ARGUMENT;
    if (status == ARCNAV_ERR_INVALID_ARGUMENT) {
      an_interval_scratch_destroy(s->guide);
      s->guide = NULL;
      status = ARCNAV_OK;
    }
  }
  if (status == ARCNAV_OK && !s->guide && polygons) {
    status =
        an_interval_scratch_create_with_capacity(polygons, &s->alloc, GUIDE_FIRST_NODES, &s->guide);
  }
  if (status != ARCNAV_OK) {
    return status;
  }
  // Which wedge arcs are free was judged on the old map; the stamps go on from where they were.
  memset(s->wedge_free, 0, corners * sizeof *s->wedge_free);
  next_search_stamp(s);
  s->guiding = false;
  s->expansions = 0;
  s->best_edge = AN_NONE;
  s->guide_length = 0.0;
  s->guide_turning = 0.0;
  memset(&s->guide_result, 0, sizeof s->guide_result);
  return ARCNAV_OK;
}

void an_lazy_search_destroy(an_lazy_search *s) {
  if (!s) {
    return;
  }
  an_allocator alloc = s->alloc;
  an_sight_scratch_free(&s->sight, &alloc);
  an_sight_mesh_scratch_free(&s->sight_mesh, &alloc);
  an_free(&alloc, s->group_head);
  an_free(&alloc, s->group_tail);
  an_free(&alloc, s->group_bound);
  an_free(&alloc, s->group_base);
  an_free(&alloc, s->group_stamp);
  an_free(&alloc, s->group_rest);
  an_free(&alloc, s->frontier);
  an_free(&alloc, s->deferred);
  an_free(&alloc, s->arrivals);
  an_free(&alloc, s->target_marks);
  an_free(&alloc, s->wedge_free);
  an_free(&alloc, s->blocks);
  an_free(&alloc, s->edges);
  an_heap_free(&s->open, &alloc);
  an_free(&alloc, s->trail);
  an_interval_scratch_destroy(s->guide);
  an_free(&alloc, s);
}

void an_lazy_search_gather_late(an_lazy_search *s, bool late) {
  s->gather_late = late;
}

uint8_t an_lazy_search_wedge_verdict(const an_lazy_search *s, uint32_t corner) {
  return s->wedge_free[corner];
}

void an_lazy_search_forget_radius(an_lazy_search *s, size_t corner_count) {
  if (s) {
    memset(s->wedge_free, 0, (corner_count + 1) * sizeof *s->wedge_free);
  }
}

void an_lazy_search_forget_ignored(an_lazy_search *s, size_t corner_count, const uint8_t *ignored) {
  if (s) {
    an_lazy_search_forget_radius(s, corner_count);
    s->sight.ignored = ignored;
  }
}

// ---- open list -----------------------------------------------------------------------------

// An entry's heap id is twice its edge, plus one for a continuation: ties in the key pop by edge,
// an edge's offer before its continuation.
static bool open_push(an_lazy_search *s, double key, uint32_t edge, bool continuation) {
  if (edge > (AN_HEAP_ABSENT - 1) / 2 || !an_heap_reserve(&s->open, s->open.size + 1, &s->alloc)) {
    return false;
  }
  an_heap_push(&s->open, 2 * edge + (continuation ? 1u : 0u), key);
  return true;
}

// ---- generating tangents -------------------------------------------------------------------

static bool add_edge(an_lazy_search *s, const lazy_edge *edge) {
  if (s->edge_count >= AN_NONE || !an_reserve(&s->alloc, (void **)&s->edges, &s->edge_capacity,
                                              s->edge_count, s->edge_count + 1, sizeof *s->edges)) {
    return false;
  }
  s->edges[s->edge_count++] = *edge;
  return true;
}

static lazy_edge make_edge(const an_corner *to_corner, uint32_t to_index, bool to_ccw,
                           const an_tangent *t) {
  lazy_edge e;
  memset(&e, 0, sizeof e);
  e.from = t->from;
  e.to = t->to;
  e.length = v2_dist(t->from, t->to);
  e.to_corner = to_index;
  e.to_ccw = to_ccw;
  e.cost = INFINITY;
  e.parent = AN_NONE;
  e.last_block = AN_NONE;
  e.rest = -1.0;
  if (to_corner) {
    e.arrive_angle = an_touch_angle(t->direction, to_ccw);
    e.arrive_offset = an_corner_offset(to_corner, e.arrive_angle);
  }
  return e;
}

// Where a group's tangents leave from: a corner circle, or the start (the last group).
typedef struct viewpoint {
  const an_corner *corner; ///< NULL for the start
  uint32_t corner_index;
  bool ccw;
  vec2 origin;
  double radius;
} viewpoint;

static viewpoint viewpoint_of(const an_tangent_query *q, uint32_t group, vec2 start) {
  viewpoint v;
  if (group == 2 * q->engine->corner_count) {
    v = (viewpoint){NULL, AN_NONE, true, start, 0.0};
  } else {
    const an_corner *corner = &q->corners[group / 2];
    v = (viewpoint){corner, group / 2, (group & 1u) != 0, corner->center, corner->radius};
  }
  return v;
}

// The extra distance, in cells, a group's first gather allows beyond the straight line to the
// goal; each further gather triples the excess, so the work stays within a constant factor of the
// last one. Small, because most paths on open maps are nearly straight, and a search reaches most
// groups with little of its detour left to spend.
#define FIRST_EXCESS_CELLS 0.02

// Fills *t with the tangent from the viewpoint to corner `to` arriving turning `to_ccw` (to NULL:
// to the point `target`, the goal) and tells whether it is worth a search edge: it exists, is
// taut at both ends, and the culling does not prove it blocked.
static bool usable_tangent(const an_tangent_engine *engine, const viewpoint *v,
                           const an_sight *sight, const an_corner *to, vec2 target, bool to_ccw,
                           an_tangent *t) {
  return an_directed_tangent(v->origin, v->radius, v->ccw, to ? to->center : target,
                             to ? to->radius : 0.0, to_ccw, engine->eps, t) &&
         an_tangent_is_taut(t, v->corner, v->ccw, to, to_ccw, engine->eps, engine->pinch_table) &&
         !an_sight_blocks(sight, t->direction, v->ccw, v2_dist(t->from, t->to));
}

// The least of a tangent's length plus the distance from its touching point to the goal, over
// the usable tangents from the viewpoint to corner `j`; infinite when there are none. Fills
// tangents[dir] and usable[dir] for both arrival directions.
static double least_through(const an_tangent_query *q, const viewpoint *v, uint32_t j,
                            const an_sight *sight, vec2 goal, an_tangent tangents[2],
                            bool usable[2]) {
  const an_tangent_engine *engine = q->engine;
  const an_corner *to = &q->corners[j];
  double least = INFINITY;
  for (int dir = 0; dir < 2; ++dir) {
    an_tangent *t = &tangents[dir];
    usable[dir] = usable_tangent(engine, v, sight, to, goal, dir == 1, t);
    if (usable[dir]) {
      least = an_min(least, v2_dist(t->from, t->to) + v2_dist(t->to, goal));
    }
  }
  return least;
}

static bool defer_target(an_lazy_search *s, uint32_t corner, double key) {
  if (!an_reserve(&s->alloc, (void **)&s->deferred, &s->deferred_capacity, s->deferred_count,
                  s->deferred_count + 1, sizeof *s->deferred)) {
    return false;
  }
  s->deferred[s->deferred_count++] = (deferred_target){corner, key};
  return true;
}

// Adds the tangents from the viewpoint to corner `j` that fit the bound, or defers the corner
// with a bound on what they cost. `beyond` is the least such bound deferred so far: a corner
// whose rough bound cannot lower it is deferred without computing its tangents.
static bool consider_target(const an_tangent_query *q, an_lazy_search *s, const viewpoint *v,
                            const an_sight *sight, const an_sight_mask *mask, uint32_t j,
                            const an_sight_limit *limit, double *beyond) {
  const an_corner *to = &q->corners[j];
  // A taut path never turns round a unit that is not there: leaving ignored units out only saves
  // their tangents.
  if (an_tangent_ignores(q, to)) {
    return true;
  }
  if (!an_sight_pair_may_pass(sight, mask, v2_sub(to->center, v->origin), v->radius + to->radius)) {
    return true;
  }
  // Cells and triangles are coarse: a corner offered may itself lie beyond the limit. Leave it
  // for a later gather, which the group's bound then promises. A tangent is at most both radii
  // shorter than the distance between the centres, and its touching point at most the target's
  // radius nearer the goal: when that shows the corner beyond, its tangents are worth computing
  // only if they might lower the promise.
  double rough = v2_dist(to->center, v->origin) + v2_dist(to->center, limit->goal) - v->radius -
                 2.0 * to->radius;
  if (rough > limit->bound && rough >= *beyond) {
    return defer_target(s, j, rough);
  }
  an_tangent tangents[2];
  bool usable[2];
  double least = least_through(q, v, j, sight, limit->goal, tangents, usable);
  if (least > limit->bound) {
    if (least < INFINITY) {
      *beyond = an_min(*beyond, least);
      return defer_target(s, j, least);
    }
    return true;
  }
  for (int dir = 0; dir < 2; ++dir) {
    if (!usable[dir]) {
      continue;
    }
    const an_tangent t = tangents[dir];
    lazy_edge e = make_edge(to, j, dir == 1, &t);
    if (v->corner) {
      e.depart_offset = an_corner_offset(v->corner, an_touch_angle(t.direction, v->ccw));
    }
    if (!add_edge(s, &e)) {
      return false;
    }
  }
  return true;
}

// How far along the turn, from its wedge's start, a group's arrival touches its corner, less the
// slack within which a departure just behind it still counts as ahead (an_corner_arc_sweep()).
static double progress_needed(const viewpoint *v, const lazy_edge *arrival) {
  double along = v->ccw ? arrival->arrive_offset : v->corner->wedge_sweep - arrival->arrive_offset;
  return an_max(along - 2.0 * AN_WEDGE_SLACK, 0.0);
}

// The wedge offsets of a part of a group's wedge, the part ahead beginning `ahead_from` along the
// turn; the part behind reaches a little past it (offering more is safe).
static void part_offsets(const viewpoint *v, double ahead_from, int part, double *from,
                         double *to) {
  double sweep = v->corner->wedge_sweep;
  double along_from = part == PART_AHEAD ? ahead_from : 0.0;
  double along_to = part == PART_AHEAD ? sweep : an_min(ahead_from + 2.0 * AN_WEDGE_SLACK, sweep);
  *from = v->ccw ? along_from : sweep - along_to;
  *to = v->ccw ? along_to : sweep - along_from;
}

// Gathers one part of a group's wedge through the sight mesh (the whole wedge when the part ahead
// is all of it), fresh or going on from where its last gather stopped, keeps where this one stops
// and lowers *beyond to what it left out. False when out of memory; *by_mesh false when the mesh
// cannot gather for this viewpoint, and the grid must.
static bool gather_part(const an_tangent_query *q, an_lazy_search *s, uint32_t group,
                        const viewpoint *v, an_sight_request request, int part, bool resuming,
                        double *beyond, bool *by_mesh) {
  const an_tangent_engine *engine = q->engine;
  group_rest *rest = &s->group_rest[group];
  *by_mesh = false;
  if (rest->ahead_from > 0.0) {
    request.part = true;
    part_offsets(v, rest->ahead_from, part, &request.part_from, &request.part_to);
  }
  if (resuming) {
    request.resuming = true;
    request.resume_count = rest->frontier_count[part];
    request.resume = request.resume_count > 0 ? s->frontier + rest->frontier_first[part] : NULL;
  }
  double left_out = INFINITY;
  an_sight_mesh_result result = an_sight_mesh_gather(engine->sight_mesh, &s->sight_mesh, &s->sight,
                                                     &request, &left_out, &s->alloc);
  if (result == AN_SIGHT_MESH_OUT_OF_MEMORY) {
    return false;
  }
  if (result == AN_SIGHT_MESH_UNSUITABLE) {
    return true;
  }
  size_t stopped = s->sight_mesh.stopped_count;
  if (s->frontier_count + stopped >= AN_NONE ||
      !an_reserve(&s->alloc, (void **)&s->frontier, &s->frontier_capacity, s->frontier_count,
                  s->frontier_count + stopped, sizeof *s->frontier)) {
    return false;
  }
  if (stopped > 0) {
    memcpy(s->frontier + s->frontier_count, s->sight_mesh.stopped, stopped * sizeof *s->frontier);
  }
  rest->frontier_first[part] = (uint32_t)s->frontier_count;
  rest->frontier_count[part] = (uint32_t)stopped;
  s->frontier_count += stopped;
  *beyond = an_min(*beyond, left_out);
  *by_mesh = true;
  return true;
}

// Gathers through the sight mesh what a gather of `kind` covers: the first, the part ahead from
// where `arrival` touches (the whole wedge for the start, a circle obstacle's corner or a
// viewpoint the mesh cannot gather for); a wider one, every part gathered so far, going on from
// where each stopped; the part behind, fresh. False when out of memory; *by_mesh false when the
// mesh cannot gather for this viewpoint, and the grid must, over the whole wedge (the group then
// has no part behind).
static bool gather_through_mesh(const an_tangent_query *q, an_lazy_search *s, uint32_t group,
                                const viewpoint *v, const lazy_edge *arrival,
                                const an_sight_request *request, gather_kind kind, double *beyond,
                                bool *by_mesh) {
  const an_tangent_engine *engine = q->engine;
  group_rest *rest = &s->group_rest[group];
  *by_mesh = false;
  if (!engine->sight_mesh || rest->by_grid) {
    return true;
  }
  if (kind == GATHER_FIRST && v->corner && v->corner->wedge_sweep < AN_TWO_PI) {
    rest->ahead_from = s->gather_late ? v->corner->wedge_sweep : progress_needed(v, arrival);
  }
  bool ok = kind == GATHER_BACK
                ? gather_part(q, s, group, v, *request, PART_BEHIND, false, beyond, by_mesh)
                : gather_part(q, s, group, v, *request, PART_AHEAD, kind == GATHER_WIDER, beyond,
                              by_mesh);
  if (ok && *by_mesh && kind == GATHER_WIDER && rest->behind_gathered) {
    an_sight_request adding = *request;
    adding.adding = true;
    ok = gather_part(q, s, group, v, adding, PART_BEHIND, true, beyond, by_mesh);
  }
  if (ok && !*by_mesh) {
    rest->by_grid = 1;
    rest->ahead_from = 0.0;
    *beyond = INFINITY; // the grid's gather from scratch tells what it leaves out
  }
  return ok;
}

// Gathers the departures of `group` within its next bound and appends them as one block. Targets
// the group already has are skipped; so are tangents the culling proves blocked. Earlier gathers'
// deferred targets are tried again, and the sight mesh goes on from the windows it stopped at
// (docs/DESIGN.md, "Tangents on demand"). `arrival` is the expanded edge that asks for the
// gather.
static bool gather_block(const an_tangent_query *q, an_lazy_search *s, uint32_t group,
                         const lazy_edge *arrival, gather_kind kind, vec2 start, vec2 goal) {
  const an_tangent_engine *engine = q->engine;
  viewpoint v = viewpoint_of(q, group, start);
  bool first_gather = kind == GATHER_FIRST;
  group_rest *rest = &s->group_rest[group];
  an_sight_limit limit = {goal, 0.0};
  if (first_gather) {
    // The search needs what costs, from where the arrival touches the circle, at most the way on
    // to the goal plus the detour it has left: the excess is counted from the arrival's bound on
    // that way (the straight line, or the guide's measure where it knows more). Arrivals
    // elsewhere on the circle that need more ask again (a continuation).
    s->group_base[group] = an_max(v2_dist(arrival->to, goal), arrival->rest);
    limit.bound = s->group_base[group] + FIRST_EXCESS_CELLS * engine->space.grid.cell_size;
    // No path for the disk is shorter than the guide, so the search expands every tangent whose
    // cost stays within the guide's length; and where the guide turns by theta the disk goes
    // round a circle, about R theta longer. Gather that much at once: a guess, not a bound (a
    // search that needs more asks again), which spares most groups a wider gather.
    limit.bound =
        an_max(limit.bound, s->guide_length + q->radius * s->guide_turning - arrival->cost);
    *rest = (group_rest){.arrivals = AN_NONE};
  } else {
    double base = s->group_base[group];
    // The part behind comes to where the others are; they only widen.
    limit.bound = kind == GATHER_BACK ? rest->reach : base + 3.0 * (s->group_bound[group] - base);
    // Mark the targets the group already has, in its earlier blocks or deferred.
    if (an_stamp_next(&s->mark)) {
      memset(s->target_marks, 0, s->corner_room * sizeof *s->target_marks);
    }
    for (uint32_t b = s->group_head[group]; b != AN_NONE; b = s->blocks[b].next) {
      for (uint32_t d = s->blocks[b].first; d < s->blocks[b].first + s->blocks[b].count; ++d) {
        if (s->edges[d].to_corner != AN_NONE) {
          s->target_marks[s->edges[d].to_corner] = s->mark;
        }
      }
    }
    for (uint32_t d = rest->deferred_first; d < rest->deferred_first + rest->deferred_count; ++d) {
      s->target_marks[s->deferred[d].corner] = s->mark;
    }
  }
  // The directions a group's tangents may leave in, for the grid's culling only: a gather through
  // the sight mesh culls nothing (an_sight.culls false), so it is made only for the grid.
  an_sight_mask mask = {{{0}}};
  double lane_offset = v.corner ? an_corner_material_radius(v.corner, q->radius) : 0.0;
  // The least, over the tangents this gather leaves out, of length plus the way on to the goal.
  double beyond = INFINITY;
  an_sight_request request = {.corner_index = v.corner_index,
                              .origin = v.origin,
                              .rim = lane_offset,
                              .ccw = v.ccw,
                              .radius = q->radius,
                              .limit = &limit};
  bool by_mesh;
  if (!gather_through_mesh(q, s, group, &v, arrival, &request, kind, &beyond, &by_mesh)) {
    return false;
  }
  if (kind == GATHER_BACK) {
    rest->behind_gathered = 1;
  } else {
    rest->reach = limit.bound;
  }
  if (!by_mesh) {
    mask = v.corner ? an_sight_mask_of_corner(v.corner) : an_sight_mask_all();
    if (v.corner) {
      // Only the side this group turns on matters.
      memset(mask.bits[v.ccw ? 1 : 0], 0, sizeof mask.bits[0]);
    }
    // The grid bounds distance sums from the viewpoint's centre; a tangent leaving the circle is
    // at most its radius shorter than the way from the centre to its touching point.
    an_sight_limit grid_limit = {goal, limit.bound + v.radius};
    if (!an_sight_gather(&engine->space.grid, &engine->graph.corner_grid, engine->corner_count,
                         &s->sight, v.origin, lane_offset, q->radius, &mask, &grid_limit,
                         engine->eps)) {
      beyond = limit.bound;
    }
  }
  const an_sight *sight = &s->sight.sight;
  uint32_t first = (uint32_t)s->edge_count;
  // The deferred targets of earlier gathers, then those offered now; the rest left out is
  // deferred again, as a new run of the pool.
  uint32_t old_first = rest->deferred_first, old_count = rest->deferred_count;
  size_t deferred_first = s->deferred_count;
  for (uint32_t d = old_first; d < old_first + old_count; ++d) {
    deferred_target target = s->deferred[d];
    bool ok = target.key > limit.bound
                  ? defer_target(s, target.corner, target.key)
                  : consider_target(q, s, &v, sight, &mask, target.corner, &limit, &beyond);
    if (!ok) {
      return false;
    }
  }
  for (uint32_t k = 0; k < s->sight.candidate_count; ++k) {
    uint32_t j = s->sight.candidates[k];
    if (j == v.corner_index || (!first_gather && s->target_marks[j] == s->mark)) {
      continue;
    }
    if (!consider_target(q, s, &v, sight, &mask, j, &limit, &beyond)) {
      return false;
    }
  }
  if (s->deferred_count - deferred_first >= AN_NONE) {
    return false;
  }
  rest->deferred_first = (uint32_t)deferred_first;
  rest->deferred_count = (uint32_t)(s->deferred_count - deferred_first);
  for (size_t d = deferred_first; d < s->deferred_count; ++d) {
    beyond = an_min(beyond, s->deferred[d].key);
  }
  // The way off a corner to the goal, once, with the first block.
  an_tangent t;
  if (first_gather && v.corner && usable_tangent(engine, &v, sight, NULL, goal, true, &t)) {
    lazy_edge e = make_edge(NULL, AN_NONE, false, &t);
    e.to = goal;
    e.depart_offset = an_corner_offset(v.corner, an_touch_angle(t.direction, v.ccw));
    if (!add_edge(s, &e)) {
      return false;
    }
  }
  if (!an_reserve(&s->alloc, (void **)&s->blocks, &s->block_capacity, s->block_count,
                  s->block_count + 1, sizeof *s->blocks)) {
    return false;
  }
  uint32_t block = (uint32_t)s->block_count++;

  s->blocks[block] = (departure_block){first, (uint32_t)(s->edge_count - first), AN_NONE};
  if (first_gather) {
    s->group_stamp[group] = s->stamp;
    s->group_head[group] = block;
  } else {
    s->blocks[s->group_tail[group]].next = block;
  }
  s->group_tail[group] = block;
  // What the part behind leaves out joins what the others left (its own deferred run holds
  // theirs too).
  s->group_bound[group] = kind == GATHER_BACK ? an_min(s->group_bound[group], beyond) : beyond;
  return true;
}

// ---- the search ----------------------------------------------------------------------------

static bool wedge_is_free(an_tangent_query *q, an_lazy_search *s, uint32_t corner_index) {
  if (s->wedge_free[corner_index] == 0) {
    s->wedge_free[corner_index] =
        an_corner_wedge_is_free(&q->corners[corner_index], &q->settings, &q->clearance) ? 1 : 2;
  }
  return s->wedge_free[corner_index] == 1;
}

// An edge's key: its cost and a bound on the rest, the landmarks' where they know more than the
// straight line. Their bound holds for a whole corner circle and is not consistent, so an edge
// reached shorter after its expansion is opened again and expanded anew (its free test is kept).
static bool relax(an_tangent_query *q, an_lazy_search *s, uint32_t id, double cost, uint32_t parent,
                  vec2 goal) {
  assert(id < s->edge_count && (parent == AN_NONE || parent < s->edge_count));
  lazy_edge *e = &s->edges[id];
  if (cost >= e->cost || e->checked == 2) {
    return true;
  }
  e->cost = cost;
  e->parent = parent;
  if (e->closed) {
    e->closed = 0;
    e->last_block = AN_NONE; // every departure again, from the shorter arrival
  }
  if (e->rest < 0.0) {
    e->rest = v2_dist(e->to, goal);
    if (e->to_corner < q->engine->corner_count && an_tangent_bounds_corners(q)) {
      e->rest = an_max(e->rest, an_tangent_touch_bound(q, e->to_corner, e->to));
    }
  }
  return open_push(s, cost + e->rest, id, false);
}

static uint32_t arrival_group(const an_tangent_engine *engine, const lazy_edge *e) {
  return e->to_corner == START_CORNER ? (uint32_t)(2 * engine->corner_count)
                                      : an_group_index(e->to_corner, e->to_ccw != 0);
}

// Is the arrival of edge `id` no better than one its group has expanded already? An arrival A at
// cost gA dominates B where B's touching point lies ahead of A's along the turn and
// gA + R sweep(A, B) <= gB: A reaches B's touching point along the arc for no more, and with the
// arc free whatever departs from B departs from A for no more (docs/DESIGN.md, "Tangents on
// demand"). Only where the whole wedge arc is free, so that no arc needs a check.
static bool arrival_is_dominated(an_tangent_query *q, an_lazy_search *s, uint32_t id) {
  const lazy_edge *e = &s->edges[id];
  uint32_t group = arrival_group(q->engine, e);
  if (e->to_corner == START_CORNER || s->group_stamp[group] != s->stamp ||
      s->group_rest[group].arrivals == AN_NONE) {
    return false;
  }
  const an_corner *corner = &q->corners[e->to_corner];
  if (corner->radius > 0.0 && !wedge_is_free(q, s, e->to_corner)) {
    return false;
  }
  for (uint32_t a = s->group_rest[group].arrivals; a != AN_NONE; a = s->arrivals[a].next) {
    if (s->arrivals[a].edge == id) {
      continue; // itself, expanded before at a greater cost
    }
    const lazy_edge *earlier = &s->edges[s->arrivals[a].edge];
    double sweep =
        an_corner_arc_sweep(corner, earlier->arrive_offset, e->arrive_offset, e->to_ccw != 0);
    if (sweep >= 0.0 && earlier->cost + corner->radius * sweep <= e->cost) {
      return true;
    }
  }
  return false;
}

// Files edge `id` among its group's expanded arrivals.
static bool record_arrival(an_tangent_query *q, an_lazy_search *s, uint32_t id) {
  lazy_edge *e = &s->edges[id];
  if (e->to_corner == START_CORNER || e->recorded) {
    return true;
  }
  e->recorded = 1;
  if (s->arrival_count >= AN_NONE ||
      !an_reserve(&s->alloc, (void **)&s->arrivals, &s->arrival_capacity, s->arrival_count,
                  s->arrival_count + 1, sizeof *s->arrivals)) {
    return false;
  }
  group_rest *rest = &s->group_rest[arrival_group(q->engine, e)];
  s->arrivals[s->arrival_count] = (arrival_link){id, rest->arrivals};
  rest->arrivals = (uint32_t)s->arrival_count++;
  return true;
}

// Relaxes the departures of the arrival group that edge `id` has not seen yet, from where it
// arrives; then, if the group's gathers left anything out, queues a continuation keyed by the
// least cost of a path through a departure not yet found.
static bool expand(an_tangent_query *q, an_lazy_search *s, uint32_t id, vec2 start, vec2 goal) {
  const an_tangent_engine *engine = q->engine;
  uint32_t group = arrival_group(engine, &s->edges[id]);
  viewpoint v = viewpoint_of(q, group, start);
  if (s->group_stamp[group] != s->stamp &&
      !gather_block(q, s, group, &s->edges[id], GATHER_FIRST, start, goal)) {
    return false;
  }
  // An arrival touching behind where the group's gathers began needs the part behind.
  const group_rest *rest = &s->group_rest[group];
  if (rest->ahead_from > 0.0 && !rest->behind_gathered &&
      progress_needed(&v, &s->edges[id]) < rest->ahead_from &&
      !gather_block(q, s, group, &s->edges[id], GATHER_BACK, start, goal)) {
    return false;
  }
  // An arrival that has relaxed every departure gathered so far asks for more.
  if (s->edges[id].last_block == s->group_tail[group] && s->group_bound[group] < INFINITY &&
      !gather_block(q, s, group, &s->edges[id], GATHER_WIDER, start, goal)) {
    return false;
  }
  // The edge array may have moved while gathering.
  lazy_edge *arrival = &s->edges[id];
  bool whole_free = !v.corner || v.radius <= 0.0 || wedge_is_free(q, s, v.corner_index);
  // Every arc relaxed here starts where the arrival touches: one that holds a free arc's sweep or
  // less is part of it, so free, and one that reaches a blocked arc's sweep holds it, so blocked.
  // Each check answers for the others on its side (docs/DESIGN.md, "Tangents on demand").
  double free_upto = 0.0, blocked_from = INFINITY;
  uint32_t block =
      arrival->last_block == AN_NONE ? s->group_head[group] : s->blocks[arrival->last_block].next;
  for (; block != AN_NONE; block = s->blocks[block].next) {
    arrival->last_block = block;
    uint32_t last = s->blocks[block].first + s->blocks[block].count;
    for (uint32_t d = s->blocks[block].first; d < last; ++d) {
      const lazy_edge *departure = &s->edges[d];
      double sweep = 0.0;
      if (v.corner) {
        sweep =
            an_corner_arc_sweep(v.corner, arrival->arrive_offset, departure->depart_offset, v.ccw);
        if (sweep < 0.0) {
          continue;
        }
      }
      double cost = arrival->cost + v.radius * sweep + departure->length;
      if (cost >= departure->cost) {
        continue;
      }
      if (!whole_free && sweep > free_upto) {
        if (sweep >= blocked_from) {
          continue;
        }
        an_arc arc = an_corner_arc(v.corner, arrival->arrive_angle, sweep, v.ccw);
        if (!an_arc_is_free(&q->settings, &q->clearance, &arc)) {
          blocked_from = sweep;
          continue;
        }
        free_upto = sweep;
      }
      if (!relax(q, s, d, cost, id, goal)) {
        return false;
      }
    }
  }
  double bound = s->group_bound[group];
  if (bound < INFINITY) {
    // A tangent not gathered yet is, with the way from its touching point to the goal, longer
    // than the bound. An edge has one continuation queued at a time: only its expansion queues
    // one.
    return open_push(s, arrival->cost + bound, id, true);
  }
  return true;
}

// The path from the start along the chain of parents to the end of edge `last`.
static arcnav_status emit_path(const an_tangent_query *q, an_lazy_search *s, uint32_t last,
                               arcnav_path *path) {
  vec2 start = s->start, end = s->edges[last].to;
  size_t length = 0;
  for (uint32_t id = last; s->edges[id].to_corner != START_CORNER; id = s->edges[id].parent) {
    if (!an_reserve(&s->alloc, (void **)&s->trail, &s->trail_capacity, length, length + 1,
                    sizeof *s->trail)) {
      return ARCNAV_ERR_OUT_OF_MEMORY;
    }
    s->trail[length++] = id;
  }
  an_path_reset(path, start, end);
  arcnav_status status = ARCNAV_OK;
  // trail[length - 1] leaves the start, trail[0] reaches the end.
  for (size_t k = length; k-- > 0 && status == ARCNAV_OK;) {
    const lazy_edge *e = &s->edges[s->trail[k]];
    if (k + 1 < length) {
      const lazy_edge *before = &s->edges[s->trail[k + 1]];
      const an_corner *corner = &q->corners[before->to_corner];
      bool ccw = before->to_ccw != 0;
      double sweep = an_corner_arc_sweep(corner, before->arrive_offset, e->depart_offset, ccw);
      status =
          an_path_add_arc(path, corner->center, corner->radius, before->to, e->from, sweep, ccw);
    }
    if (status == ARCNAV_OK) {
      status = an_path_add_line(path, e->from, e->to);
    }
  }
  return status;
}

// The sum of a polyline's turns at its inner points, in radians.
static double polyline_turning(const vec2 *points, size_t count) {
  double turning = 0.0;
  for (size_t i = 1; i + 1 < count; ++i) {
    vec2 in = v2_sub(points[i], points[i - 1]), out = v2_sub(points[i + 1], points[i]);
    turning += atan2(fabs(v2_cross(in, out)), v2_dot(in, out));
  }
  return turning;
}

// The guide's length for this query: a point agent's shortest path among the polygons, searched
// first. Its expansions count against the query's expansion limit and its slices like the
// search's own; reaching the limit ends the query (ARCNAV_SEARCH_LIMIT). Where a point finds no
// path among the polygons, no disk finds one: ARCNAV_NO_PATH, for a disk (R above the point-agent
// tolerance: its path keeps more than eps from all material, clear of every touching subtlety a
// point's search judges, and its ends are free for a point). Any other answer leaves no guide
// (the search needs none); running out of memory is an error. ARCNAV_OK when the search goes on,
// ARCNAV_IN_PROGRESS while the guide's slice ended first.
static arcnav_status settle_guide(an_tangent_query *q, an_lazy_search *s, arcnav_status status) {
  s->expansions = s->guide_result.nodes_expanded;
  q->control->stats.nodes_expanded = s->expansions;
  if (status == ARCNAV_IN_PROGRESS) {
    return status;
  }
  s->guiding = false;
  if (status == ARCNAV_ERR_OUT_OF_MEMORY || status == ARCNAV_SEARCH_LIMIT ||
      (status == ARCNAV_NO_PATH && !q->settings.point_agent)) {
    return status;
  }
  if (status == ARCNAV_OK) {
    s->guide_length = s->guide_result.length;
    s->guide_turning = polyline_turning(s->guide_result.points, s->guide_result.point_count);
    if (!q->settings.point_agent) {
      an_tangent_set_measure(q, s->guide);
    }
  }
  return ARCNAV_OK;
}

// The start's own entry, an edge of length 0 arriving at the start, expanded first: once the
// guide has answered, since the gathers reach as far as its length.
static bool enter_start(an_tangent_query *q, an_lazy_search *s) {
  lazy_edge origin;
  memset(&origin, 0, sizeof origin);
  origin.from = origin.to = s->start;
  origin.to_corner = START_CORNER;
  origin.parent = AN_NONE;
  origin.last_block = AN_NONE;
  origin.closed = 1;
  return add_edge(s, &origin) && expand(q, s, 0, s->start, s->goal);
}

arcnav_status an_lazy_begin(an_tangent_query *q, an_lazy_search *s, vec2 start, vec2 goal,
                            arcnav_path *path) {
  const an_tangent_engine *engine = q->engine;
  const an_clearance *cl = &q->settings;
  q->clearance.checks = 0;
  if (an_segment_is_free(cl, &q->clearance, start, goal)) {
    q->control->stats.edges_checked = q->clearance.checks;
    return an_path_add_line(path, start, goal);
  }
  next_search_stamp(s);
  s->start = start;
  s->goal = goal;
  s->expansions = 0;
  s->best_edge = AN_NONE;
  s->best_distance = v2_dist(start, goal);
  s->guide_length = 0.0;
  s->guide_turning = 0.0;
  s->guiding = s->guide != NULL;
  arcnav_status status = ARCNAV_OK;
  if (s->guiding) {
    memset(&s->guide_result, 0, sizeof s->guide_result);
    // A disk's centre crosses every portal on its way where its checks admit it, R - eps from the
    // obstacles; the passages' widths bound that from above (docs/DESIGN.md, "No path for a disk
    // without a search"). Two more eps for rounding.
    an_interval_set_min_width(s->guide, cl->point_agent ? 0.0 : an_tangent_min_passage(q));
    // A disk's guide runs from the goal and measures as it goes, on past the point's path for a
    // little (DESIGN.md, "The guide measures").
    const an_navmesh *polygons = an_sight_mesh_polygons(engine->sight_mesh);
    status = settle_guide(q, s,
                          cl->point_agent
                              ? an_interval_begin(polygons, s->guide, start, goal, &s->guide_result)
                              : an_interval_begin_measure(polygons, s->guide, goal, start, 0.0,
                                                          GUIDE_MEASURE_RADII * q->radius,
                                                          &s->guide_result));
    // The searches of a nearest-reachable probe mostly end within a few expansions, at a part
    // an earlier one ruled out: they keep the guide's answer without a search (ends the
    // polygons wall apart) and go on without its length, which only sizes the first gathers.
    if (status == ARCNAV_IN_PROGRESS && q->control->ruled_out != 0) {
      s->guiding = false;
      status = ARCNAV_OK;
    }
  }
  if (status == ARCNAV_OK) {
    status = enter_start(q, s) ? ARCNAV_IN_PROGRESS : ARCNAV_ERR_OUT_OF_MEMORY;
  }
  q->control->stats.edges_checked = q->clearance.checks;
  return status;
}

arcnav_status an_lazy_resume(an_tangent_query *q, an_lazy_search *s, arcnav_path *path) {
  const an_clearance *cl = &q->settings;
  vec2 start = s->start, goal = s->goal;
  size_t pause_at = an_slice_end(q->control, s->expansions);
  arcnav_status status = ARCNAV_NO_PATH;
  if (s->guiding) {
    status = settle_guide(
        q, s,
        an_interval_resume(s->guide, q->control->expansion_limit, pause_at, &s->guide_result));
    if (status == ARCNAV_OK) {
      status = enter_start(q, s) ? ARCNAV_NO_PATH : ARCNAV_ERR_OUT_OF_MEMORY;
    }
  }
  // Expansions and continuations, both of which gather, after the guide's: what the expansion
  // limit counts.
  while (status == ARCNAV_NO_PATH && !an_heap_empty(&s->open)) {
    if (s->expansions >= pause_at) {
      status = ARCNAV_IN_PROGRESS;
      break;
    }
    an_heap_entry top = an_heap_pop_entry(&s->open);
    uint32_t edge = top.id / 2;
    lazy_edge *e = &s->edges[edge];
    if (top.id % 2 != 0) {
      if (!an_tangent_may_expand(q, s->expansions++)) {
        status = ARCNAV_SEARCH_LIMIT;
      } else if (!expand(q, s, edge, start, goal)) {
        status = ARCNAV_ERR_OUT_OF_MEMORY;
      }
      continue;
    }
    if (e->closed || top.key > e->cost + e->rest) {
      continue;
    }
    // An edge is checked once; one its group's earlier arrivals dominate needs no check.
    e->closed = 1;
    if (e->to_corner != AN_NONE && arrival_is_dominated(q, s, edge)) {
      continue;
    }
    if (e->checked == 0) {
      e->checked = an_segment_is_free(cl, &q->clearance, e->from, e->to) ? 1 : 2;
    }
    if (e->checked != 1) {
      continue;
    }
    if (e->to_corner == AN_NONE) {
      status = emit_path(q, s, edge, path);
      break;
    }
    if (e->to_corner != START_CORNER && an_tangent_ruled_out(q, e->to_corner)) {
      break; // a part an earlier search of the probe found cut off from the goal
    }
    if (!an_tangent_may_expand(q, s->expansions++)) {
      status = ARCNAV_SEARCH_LIMIT;
      break;
    }
    q->control->stats.nodes_expanded++;
    if (an_nearer_than(&s->best_distance, v2_dist(e->to, goal))) {
      s->best_edge = edge;
    }
    if (!expand(q, s, edge, start, goal) || !record_arrival(q, s, edge)) {
      status = ARCNAV_ERR_OUT_OF_MEMORY;
    }
  }
  q->control->stats.edges_checked = q->clearance.checks;
  if (status != ARCNAV_OK) {
    an_path_reset(path, start, goal);
  }
  return status;
}

arcnav_status an_lazy_best_so_far(const an_tangent_query *q, an_lazy_search *s, arcnav_path *path) {
  arcnav_status status = ARCNAV_OK;
  if (s->best_edge != AN_NONE) {
    status = emit_path(q, s, s->best_edge, path);
  }
  if (s->best_edge == AN_NONE || status != ARCNAV_OK) {
    an_path_reset(path, s->start, s->start);
  }
  return status;
}

void an_lazy_rule_out(an_tangent_query *q, an_lazy_search *s, uint32_t mark) {
  if (!an_tangent_ruled_out_prepare(q, mark)) {
    return;
  }
  // The search's expanded arrivals, in the pool it fills afresh: a corner's whole wedge arc is
  // one connected free curve when it is free, so every place on it lies in the part of the free
  // space the search arrived at it in.
  for (size_t a = 0; a < s->arrival_count; ++a) {
    uint32_t corner = s->edges[s->arrivals[a].edge].to_corner;
    if (wedge_is_free(q, s, corner)) {
      q->ruled_out[corner] = mark;
    }
  }
}
