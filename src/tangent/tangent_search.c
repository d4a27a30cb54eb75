// SPDX-License-Identifier: MIT
#include "tangent/tangent_search.h"

#include "geom/tolerances.h"
#include "path/path.h"
#include "search/marks.h"

#include <assert.h>
#include <string.h>

// Everything the search needs to know about a node, whether it lives in the graph or is one of
// this query's start attachments.
typedef struct node_view {
  vec2 point;
  double angle;
  double offset;
  uint32_t corner;
  bool ccw;
} node_view;

static node_view view_node(const an_tangent_query *q, uint32_t id) {
  const an_tangent_graph *graph = &q->engine->graph;
  if (id < graph->node_count) {
    const an_graph_node *n = &graph->nodes[id];
    return (node_view){n->point, n->angle, n->offset, n->corner, n->ccw};
  }
  const an_start_node *s = &q->starts[id - graph->node_count];
  return (node_view){s->point, s->angle, s->offset, s->corner, s->ccw};
}

static bool seen(const an_tangent_query *q, uint32_t id) {
  return q->search[id].generation == q->current_generation;
}

// A node's key: its cost and a bound on the rest, the straight line to the goal or, larger where
// walls are in the way, the landmarks' (an_tangent_corner_bound()). The landmarks' bound holds for
// every point of a corner's circle, so it is not consistent: a node reached shorter after it was
// expanded is opened again (DESIGN.md, "Landmarks").
static void relax(an_tangent_query *q, uint32_t id, double cost, uint32_t parent, an_arrival how,
                  vec2 at, vec2 goal) {
  assert(id < q->id_count && (parent == AN_NONE || parent < q->id_count));
  an_search_node *node = &q->search[id];
  if (node->generation == q->current_generation && cost >= node->cost) {
    return;
  }
  node->generation = q->current_generation;
  node->closed = 0;
  node->cost = cost;
  node->parent = parent;
  node->arrival = (uint8_t)how;
  double rest = v2_dist(at, goal);
  if (id + 1 < q->id_count && q->goal_bounds.count > 0) {
    rest = an_max(rest, an_tangent_corner_bound(q, view_node(q, id).corner));
  }
  an_heap_push_or_decrease(&q->heap, id, cost + rest);
}

static bool arc_is_free(an_tangent_query *q, uint32_t corner_index, double from_angle, double sweep,
                        bool ccw) {
  const an_corner *corner = &q->engine->corners[corner_index];
  if (corner->radius * sweep <= 0.0 || q->engine->graph.wedge_free[corner_index]) {
    return true;
  }
  an_arc arc = an_corner_arc(corner, from_angle, sweep, ccw);
  return an_arc_is_free(&q->engine->space.clearance, &q->clearance, &arc);
}

// The group's way to the goal, computed on first use in this query.
static an_goal_exit *goal_exit(an_tangent_query *q, uint32_t corner_index, bool ccw, vec2 goal) {
  an_goal_exit *exit = &q->goal_exits[an_group_index(corner_index, ccw)];
  if (exit->generation == q->current_generation) {
    return exit;
  }
  const an_tangent_engine *engine = q->engine;
  const an_corner *corner = &engine->corners[corner_index];
  exit->generation = q->current_generation;
  exit->segment = 0;
  an_tangent t;
  exit->usable =
      an_directed_tangent(corner->center, corner->radius, ccw, goal, 0.0, true, engine->eps, &t) &&
      an_tangent_is_taut(&t, corner, ccw, NULL, false, engine->eps, engine->pinch_table);
  if (exit->usable) {
    exit->touch = t.from;
    exit->angle = an_touch_angle(t.direction, ccw);
    exit->offset = an_corner_offset(corner, exit->angle);
  }
  return exit;
}

// From node u: around its corner in its direction to where the tangent to the goal leaves, then
// straight to the goal.
static void try_goal(an_tangent_query *q, uint32_t u, const node_view *at, vec2 goal,
                     uint32_t goal_id) {
  const an_tangent_engine *engine = q->engine;
  const an_corner *corner = &engine->corners[at->corner];
  an_goal_exit *exit = goal_exit(q, at->corner, at->ccw, goal);
  if (!exit->usable) {
    return;
  }
  double sweep = an_corner_arc_sweep(corner, at->offset, exit->offset, at->ccw);
  if (sweep < 0.0) {
    return;
  }
  double cost = q->search[u].cost + corner->radius * sweep + v2_dist(exit->touch, goal);
  if (seen(q, goal_id) && cost >= q->search[goal_id].cost) {
    return;
  }
  if (!arc_is_free(q, at->corner, at->angle, sweep, at->ccw)) {
    return;
  }
  if (exit->segment == 0) {
    exit->segment =
        an_segment_is_free(&engine->space.clearance, &q->clearance, exit->touch, goal) ? 1 : 2;
  }
  if (exit->segment != 1) {
    return;
  }
  q->goal_touch = exit->touch;
  q->goal_sweep = sweep;
  relax(q, goal_id, cost, u, AN_ARRIVED_BY_ARC, goal, goal);
}

// The first graph node reached travelling around the corner from a start attachment.
static void follow_start_arc(an_tangent_query *q, uint32_t u, const node_view *at, vec2 goal) {
  const an_tangent_engine *engine = q->engine;
  const an_tangent_graph *graph = &engine->graph;
  const an_corner *corner = &engine->corners[at->corner];
  uint32_t group = an_group_index(at->corner, at->ccw);
  uint32_t first = graph->group_start[group], last = graph->group_start[group + 1];
  if (first == last) {
    return;
  }
  // Lower bound: first node whose offset is >= ours.
  uint32_t lo = first, hi = last;
  while (lo < hi) {
    uint32_t mid = lo + (hi - lo) / 2;
    if (graph->nodes[mid].offset < at->offset) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  bool full = corner->wedge_sweep >= AN_TWO_PI;
  uint32_t next;
  if (at->ccw) {
    next = lo < last ? lo : (full ? first : AN_NONE);
  } else {
    // Last node whose offset is <= ours.
    uint32_t upper = lo;
    while (upper < last && graph->nodes[upper].offset <= at->offset) {
      ++upper;
    }
    next = upper > first ? upper - 1 : (full ? last - 1 : AN_NONE);
  }
  if (next == AN_NONE) {
    return;
  }
  double sweep = an_corner_arc_sweep(corner, at->offset, graph->nodes[next].offset, at->ccw);
  if (sweep < 0.0) {
    return;
  }
  if (!arc_is_free(q, at->corner, at->angle, sweep, at->ccw)) {
    return;
  }
  relax(q, next, q->search[u].cost + corner->radius * sweep, u, AN_ARRIVED_BY_ARC,
        graph->nodes[next].point, goal);
}

static void expand(an_tangent_query *q, uint32_t u, vec2 goal, uint32_t goal_id) {
  const an_tangent_graph *graph = &q->engine->graph;
  node_view at = view_node(q, u);
  try_goal(q, u, &at, goal, goal_id);
  if (u >= graph->node_count) {
    follow_start_arc(q, u, &at, goal);
    return;
  }
  const an_graph_node *node = &graph->nodes[u];
  for (uint32_t e = node->first_edge; e < node->first_edge + node->edge_count; ++e) {
    const an_graph_edge *edge = &graph->edges[e];
    relax(q, edge->target, q->search[u].cost + edge->length, u, AN_ARRIVED_BY_TANGENT,
          graph->nodes[edge->target].point, goal);
  }
  if (node->next != AN_NONE) {
    relax(q, node->next, q->search[u].cost + node->arc_to_next, u, AN_ARRIVED_BY_ARC,
          graph->nodes[node->next].point, goal);
  }
}

// Can a tangent from the point `from` arrive at `corner` turning `ccw` and touch it inside its
// wedge? Such a touching normal n satisfies n . (from - centre) = radius >= 0 and lies on the
// turning side of from - centre, so it is within the quarter turn from that direction towards
// the turning side. A cheap screen (cross products only) before the tangent itself is computed.
static bool may_arrive_taut(const an_corner *corner, vec2 from, bool ccw) {
  if (corner->wedge_sweep >= AN_TWO_PI) {
    return true;
  }
  vec2 v = v2_sub(from, corner->center);
  double slack = AN_TAUT_SCREEN_RELATIVE * v2_len(v);
  vec2 q0 = ccw ? v : v2_scale(v2_perp(v), -1.0);
  vec2 q1 = ccw ? v2_perp(v) : v;
  // Two counter-clockwise ranges narrower than a half turn meet when either one's start lies in
  // the other.
  bool q0_in_wedge =
      v2_cross(corner->normal_start, q0) >= -slack && v2_cross(q0, corner->normal_end) >= -slack;
  bool start_in_quarter =
      v2_cross(q0, corner->normal_start) >= -slack && v2_cross(corner->normal_start, q1) >= -slack;
  return q0_in_wedge || start_in_quarter;
}

// The start's attachments to one corner, queued unchecked: a segment is only checked for freedom
// when its node comes off the open list (its cost is a valid lower bound then).
static void attach_start(an_tangent_query *q, uint32_t c, vec2 start, vec2 goal) {
  const an_tangent_engine *engine = q->engine;
  uint32_t base = engine->graph.node_count;
  const an_corner *corner = &engine->corners[c];
  for (int dir = 0; dir < 2; ++dir) {
    bool ccw = dir == 1;
    uint32_t id = base + an_group_index(c, ccw);
    if (!may_arrive_taut(corner, start, ccw)) {
      continue;
    }
    an_tangent t;
    if (!an_directed_tangent(start, 0.0, true, corner->center, corner->radius, ccw, engine->eps,
                             &t)) {
      continue;
    }
    if (!an_tangent_is_taut(&t, NULL, true, corner, ccw, engine->eps, engine->pinch_table)) {
      continue;
    }
    double angle = an_touch_angle(t.direction, ccw);
    q->starts[id - base] =
        (an_start_node){t.to, angle, an_corner_offset(corner, angle), v2_dist(start, t.to), c, ccw};
    relax(q, id, q->starts[id - base].tangent_length, AN_NONE, AN_ARRIVED_FROM_START, t.to, goal);
  }
}

// A lower bound on any path through the corner: each tangent from the start and the rest to the
// goal are at least the centre distances less the radius, and the rest at least the landmarks'
// bound.
static double deferred_bound(an_tangent_query *q, uint32_t c, vec2 start, vec2 goal) {
  const an_corner *corner = &q->engine->corners[c];
  double rest = an_max(0.0, v2_dist(corner->center, goal) - corner->radius);
  if (q->goal_bounds.count > 0) {
    rest = an_max(rest, an_tangent_corner_bound(q, c));
  }
  return an_max(0.0, v2_dist(start, corner->center) - corner->radius) + rest;
}

static void enter_corner(an_tangent_query *q, uint32_t c, vec2 start, vec2 goal) {
  if (q->entered[c] == q->current_generation) {
    return;
  }
  q->entered[c] = q->current_generation;
  an_heap_push_or_decrease(&q->deferred, c, deferred_bound(q, c, start, goal));
}

// A lower bound on |start - t| + |t - goal| over the points t of the square. A hair is taken off
// for rounding.
static double square_bound(const an_tangent_query *q, int32_t column, int32_t row, vec2 start,
                           vec2 goal) {
  const an_grid *grid = &q->engine->space.grid;
  double bound =
      an_max(v2_dist(start, goal), an_grid_cells_distance_sum(grid, column * AN_START_FLOOD_SPAN,
                                                              row * AN_START_FLOOD_SPAN,
                                                              AN_START_FLOOD_SPAN, start, goal));
  return an_max(0.0,
                bound - AN_CELL_BOUND_TOLERANCES * q->engine->eps - AN_CELL_BOUND_RELATIVE * bound);
}

static void discover_square(an_tangent_query *q, int32_t column, int32_t row, int32_t columns,
                            int32_t rows, vec2 start, vec2 goal) {
  if (column < 0 || row < 0 || column >= columns || row >= rows) {
    return;
  }
  uint32_t square = (uint32_t)row * (uint32_t)columns + (uint32_t)column;
  if (q->square_seen[square] == q->current_generation) {
    return;
  }
  q->square_seen[square] = q->current_generation;
  an_heap_push_or_decrease(&q->squares, square, square_bound(q, column, row, start, goal));
}

// Corners wait in a heap of their own keyed by that bound, and their attachments are computed
// only if the search gets that far, which for most corners of a large map it never does. They
// enter the heap square by square of the corner grid's cells (AN_START_FLOOD_SPAN a side),
// flooding out from the start's square in the order of the squares' bounds, a square only once
// nothing in the heap or on the open list is cheaper than what the square could hold. That is
// enough: an attachment touches its corner at a point t inside the box the grid files the corner
// by, and inside the grid (which covers everything within R of the obstacles), so the corner is
// filed in the cell holding t, and the attachment's key |start - t| + |t - goal| is at least the
// bound of that cell's square and at least the corner's. The squares whose bound is below any
// value meet one convex region (an ellipse around the start and the goal), so they form a
// connected set around the start's square and the flood reaches every one of them in time.
// Corners entered early change nothing: they leave the heap in the order of their keys, as if all
// had entered at once. From outside the grid every corner enters at once.
static void seed_starts(an_tangent_query *q, vec2 start, vec2 goal) {
  const an_tangent_engine *engine = q->engine;
  const an_grid *grid = &engine->space.grid;
  an_heap_clear(&q->deferred);
  an_heap_clear(&q->squares);
  vec2 lo = grid->origin;
  vec2 hi = v2(lo.x + grid->columns * grid->cell_size, lo.y + grid->rows * grid->cell_size);
  if (!(start.x >= lo.x && start.x <= hi.x && start.y >= lo.y && start.y <= hi.y)) {
    for (uint32_t c = 0; c < engine->corner_count; ++c) {
      enter_corner(q, c, start, goal);
    }
    return;
  }
  discover_square(q, an_grid_column(grid, start.x) / AN_START_FLOOD_SPAN,
                  an_grid_row(grid, start.y) / AN_START_FLOOD_SPAN,
                  an_start_flood_squares(grid->columns), an_start_flood_squares(grid->rows), start,
                  goal);
}

// Enters squares until the next one could hold nothing cheaper than the best waiting corner or
// open node; ties enter too, so corners leave the heap in the same order as if all had entered at
// once.
static void enter_squares(an_tangent_query *q, vec2 start, vec2 goal) {
  const an_corner_grid *cgrid = &q->engine->graph.corner_grid;
  const an_grid *grid = &q->engine->space.grid;
  int32_t columns = an_start_flood_squares(grid->columns);
  int32_t rows = an_start_flood_squares(grid->rows);
  for (;;) {
    double next_corner = an_heap_empty(&q->deferred) ? INFINITY : an_heap_top_key(&q->deferred);
    double next_node = an_heap_empty(&q->heap) ? INFINITY : an_heap_top_key(&q->heap);
    if (an_heap_empty(&q->squares) ||
        !(an_heap_top_key(&q->squares) <= an_min(next_corner, next_node))) {
      return;
    }
    uint32_t square = an_heap_pop(&q->squares, NULL);
    int32_t column = (int32_t)(square % (uint32_t)columns);
    int32_t row = (int32_t)(square / (uint32_t)columns);
    int32_t c0 = column * AN_START_FLOOD_SPAN, r0 = row * AN_START_FLOOD_SPAN;
    int32_t c1 =
        c0 + AN_START_FLOOD_SPAN < grid->columns ? c0 + AN_START_FLOOD_SPAN : grid->columns;
    int32_t r1 = r0 + AN_START_FLOOD_SPAN < grid->rows ? r0 + AN_START_FLOOD_SPAN : grid->rows;
    for (int32_t r = r0; r < r1; ++r) {
      for (int32_t c = c0; c < c1; ++c) {
        uint32_t count;
        const uint32_t *corners = an_cell_table_list(
            &cgrid->cells, (size_t)r * (size_t)grid->columns + (size_t)c, &count);
        for (uint32_t k = 0; k < count; ++k) {
          enter_corner(q, corners[k], start, goal);
        }
      }
    }
    discover_square(q, column - 1, row, columns, rows, start, goal);
    discover_square(q, column + 1, row, columns, rows, start, goal);
    discover_square(q, column, row - 1, columns, rows, start, goal);
    discover_square(q, column, row + 1, columns, rows, start, goal);
  }
}

// Attaches the next deferred corner when its bound is no worse than the best open node: no node
// it would add can then be overtaken.
static bool attach_next_deferred(an_tangent_query *q, vec2 start, vec2 goal) {
  enter_squares(q, start, goal);
  if (an_heap_empty(&q->deferred) ||
      (!an_heap_empty(&q->heap) && an_heap_top_key(&q->heap) < an_heap_top_key(&q->deferred))) {
    return false;
  }
  attach_start(q, an_heap_pop(&q->deferred, NULL), start, goal);
  return true;
}

// Turns the chain of parents ending at `end_id` (the goal, or a node the search expanded) into
// pieces, merging consecutive arc steps on one corner; the path ends at the goal or that node.
static arcnav_status emit_path(an_tangent_query *q, uint32_t end_id, arcnav_path *path) {
  const an_tangent_engine *engine = q->engine;
  vec2 start = q->search_start, goal = q->search_goal;
  uint32_t goal_id = q->id_count - 1;
  size_t length = 0;
  for (uint32_t id = end_id; id != AN_NONE; id = q->search[id].parent) {
    q->trail[length++] = id;
  }
  an_path_reset(path, start, end_id == goal_id ? goal : view_node(q, end_id).point);
  arcnav_status status = ARCNAV_OK;
  // trail[length - 1] is a start attachment, trail[0] the end.
  node_view first = view_node(q, q->trail[length - 1]);
  status = an_path_add_line(path, start, first.point);
  vec2 arc_from = first.point;
  double arc_sweep = 0.0;
  node_view prev = first;
  for (size_t k = length - 1; k-- > 0 && status == ARCNAV_OK;) {
    uint32_t id = q->trail[k];
    const an_corner *corner = &engine->corners[prev.corner];
    bool to_goal = id == goal_id;
    bool by_arc = q->search[id].arrival == AN_ARRIVED_BY_ARC;
    vec2 here = to_goal ? q->goal_touch : view_node(q, id).point;
    if (by_arc) {
      arc_sweep +=
          to_goal ? q->goal_sweep
                  : an_corner_arc_sweep(corner, prev.offset, view_node(q, id).offset, prev.ccw);
    }
    // The arc so far ends where a tangent leaves it, or where the path ends.
    if (!by_arc || k == 0) {
      vec2 arc_to = by_arc ? here : prev.point;
      status = an_path_add_arc(path, corner->center, corner->radius, arc_from, arc_to, arc_sweep,
                               prev.ccw);
      if (status == ARCNAV_OK && (!by_arc || to_goal)) {
        status = an_path_add_line(path, arc_to, to_goal ? goal : here);
      }
      arc_from = here;
      arc_sweep = 0.0;
    }
    if (!to_goal) {
      prev = view_node(q, id);
    }
  }
  return status;
}

// Has the running nearest-reachable probe ruled out the place of node u: the node itself, or the
// whole wedge arc of its corner (engine.h, `rule_out`)?
static bool node_ruled_out(const an_tangent_query *q, uint32_t u) {
  uint32_t mark = q->control->ruled_out;
  if (mark == 0) {
    return false;
  }
  bool graph_node = u < q->engine->graph.node_count;
  return an_tangent_ruled_out(q, view_node(q, u).corner) ||
         (graph_node && q->ruled_out_nodes && q->ruled_out_nodes[u] == mark);
}

arcnav_status an_tangent_graph_begin(an_tangent_query *q, vec2 start, vec2 goal,
                                     arcnav_path *path) {
  const an_clearance *cl = &q->engine->space.clearance;
  q->clearance.checks = 0;
  if (an_segment_is_free(cl, &q->clearance, start, goal)) {
    q->control->stats.edges_checked = q->clearance.checks;
    return an_path_add_line(path, start, goal);
  }
  if (an_stamp_next(&q->current_generation)) {
    for (uint32_t id = 0; id < q->id_count; ++id) {
      q->search[id].generation = 0;
    }
    for (size_t g = 0; g < 2 * q->engine->corner_count; ++g) {
      q->goal_exits[g].generation = 0;
    }
    memset(q->entered, 0, q->engine->corner_count * sizeof *q->entered);
    memset(q->square_seen, 0,
           an_start_flood_square_count(&q->engine->space.grid) * sizeof *q->square_seen);
  }
  an_heap_clear(&q->heap);
  q->closed_count = 0;
  q->search_start = start;
  q->search_goal = goal;
  q->best_id = AN_NONE;
  q->best_distance = v2_dist(start, goal);
  seed_starts(q, start, goal);
  return ARCNAV_IN_PROGRESS;
}

arcnav_status an_tangent_graph_resume(an_tangent_query *q, arcnav_path *path) {
  const an_tangent_engine *engine = q->engine;
  const an_clearance *cl = &engine->space.clearance;
  vec2 start = q->search_start, goal = q->search_goal;
  uint32_t goal_id = q->id_count - 1;
  uint32_t start_base = engine->graph.node_count;
  size_t pause_at = an_slice_end(q->control, q->control->stats.nodes_expanded);
  arcnav_status status = ARCNAV_NO_PATH;
  for (;;) {
    if (attach_next_deferred(q, start, goal)) {
      continue;
    }
    if (an_heap_empty(&q->heap)) {
      break;
    }
    if (q->control->stats.nodes_expanded >= pause_at) {
      status = ARCNAV_IN_PROGRESS;
      break;
    }
    uint32_t u = an_heap_pop(&q->heap, NULL);
    if (u == goal_id) {
      status = emit_path(q, goal_id, path);
      break;
    }
    q->search[u].closed = 1;
    if (u >= start_base && u < goal_id) {
      if (!an_segment_is_free(cl, &q->clearance, start, q->starts[u - start_base].point)) {
        continue;
      }
    }
    if (node_ruled_out(q, u)) {
      break; // a part an earlier search of the probe found cut off from the goal
    }
    // A probe's search keeps what it closes, for rule_out; a failure to keep it only leaves
    // places unmarked.
    if (q->control->ruled_out != 0 && u < start_base &&
        an_reserve(&q->alloc, (void **)&q->closed, &q->closed_capacity, q->closed_count,
                   q->closed_count + 1, sizeof *q->closed)) {
      q->closed[q->closed_count++] = u;
    }
    if (!an_tangent_may_expand(q, q->control->stats.nodes_expanded)) {
      status = ARCNAV_SEARCH_LIMIT;
      break;
    }
    q->control->stats.nodes_expanded++;
    if (an_nearer_than(&q->best_distance, v2_dist(view_node(q, u).point, goal))) {
      q->best_id = u;
    }
    expand(q, u, goal, goal_id);
  }
  q->control->stats.edges_checked = q->clearance.checks;
  if (status != ARCNAV_OK) {
    an_path_reset(path, start, goal);
  }
  return status;
}

arcnav_status an_tangent_graph_best_so_far(an_tangent_query *q, arcnav_path *path) {
  if (q->best_id == AN_NONE) {
    an_path_reset(path, q->search_start, q->search_start);
    return ARCNAV_OK;
  }
  arcnav_status status = emit_path(q, q->best_id, path);
  if (status != ARCNAV_OK) {
    an_path_reset(path, q->search_start, q->search_start);
  }
  return status;
}

// A corner's whole wedge arc is one connected free curve when it is free: every place on it lies
// in the part of the free space the search reached it in.
void an_tangent_graph_rule_out(an_tangent_query *q, uint32_t mark) {
  const an_tangent_graph *graph = &q->engine->graph;
  if (!an_tangent_ruled_out_prepare(q, mark) || graph->node_count == 0) {
    return;
  }
  if (!q->ruled_out_nodes) {
    q->ruled_out_nodes = an_calloc(&q->alloc, graph->node_count, sizeof *q->ruled_out_nodes);
  }
  for (size_t k = 0; k < q->closed_count; ++k) {
    uint32_t id = q->closed[k], corner = graph->nodes[id].corner;
    if (q->ruled_out_nodes) {
      q->ruled_out_nodes[id] = mark;
    }
    if (graph->wedge_free[corner]) {
      q->ruled_out[corner] = mark;
    }
  }
}
