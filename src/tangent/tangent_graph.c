// SPDX-License-Identifier: MIT
#include "tangent/tangent_graph.h"

#include <stdlib.h>
#include <string.h>

double an_corner_arc_sweep(const an_corner *corner, double from_offset, double to_offset,
                           bool ccw) {
  if (corner->wedge_sweep >= AN_TWO_PI) {
    return an_wrap_angle(ccw ? to_offset - from_offset : from_offset - to_offset);
  }
  double sweep = ccw ? to_offset - from_offset : from_offset - to_offset;
  if (sweep < -AN_WEDGE_SLACK) {
    return -1.0;
  }
  return an_max(sweep, 0.0);
}

// A free tangent found while building, before nodes are laid out.
typedef struct free_tangent {
  uint32_t from_corner, to_corner;
  bool from_ccw, to_ccw;
  an_tangent segment;
} free_tangent;

typedef struct node_draft {
  an_graph_node node;
  uint32_t edge_target_draft; ///< draft index of the arrival node for departure nodes, else AN_NONE
  double edge_length;
} node_draft;

static int compare_drafts(const void *lhs, const void *rhs) {
  const an_graph_node *a = &((const node_draft *)lhs)->node;
  const an_graph_node *b = &((const node_draft *)rhs)->node;
  uint32_t ga = an_group_index(a->corner, a->ccw), gb = an_group_index(b->corner, b->ccw);
  if (ga != gb) {
    return ga < gb ? -1 : 1;
  }
  if (a->offset != b->offset) {
    return a->offset < b->offset ? -1 : 1;
  }
  return 0;
}

static node_draft make_draft(const an_corner *corners, uint32_t corner, bool ccw, vec2 point,
                             vec2 direction) {
  node_draft d;
  memset(&d, 0, sizeof d);
  d.node.point = point;
  d.node.angle = an_touch_angle(direction, ccw);
  d.node.offset = an_corner_offset(&corners[corner], d.node.angle);
  d.node.corner = corner;
  d.node.ccw = ccw;
  d.node.next = AN_NONE;
  d.edge_target_draft = AN_NONE;
  return d;
}

// Tries the four directed tangents between corners i and j, seen from i; appends the free ones.
static arcnav_status collect_pair(const an_corner *corners, const double *pinch_table, uint32_t i,
                                  uint32_t j, const an_clearance *clearance,
                                  an_clearance_scratch *scratch, const an_sight *sight,
                                  const an_allocator *alloc, free_tangent **list, size_t *count,
                                  size_t *capacity) {
  const an_corner *a = &corners[i], *b = &corners[j];
  for (int combo = 0; combo < 4; ++combo) {
    bool ccw_a = (combo & 1) != 0, ccw_b = (combo & 2) != 0;
    an_tangent t;
    if (!an_directed_tangent(a->center, a->radius, ccw_a, b->center, b->radius, ccw_b,
                             clearance->eps, &t)) {
      continue;
    }
    if (!an_tangent_is_taut(&t, a, ccw_a, b, ccw_b, 0.0, pinch_table)) {
      continue;
    }
    if (an_sight_blocks(sight, t.direction, ccw_a, v2_dist(t.from, t.to)) ||
        !an_segment_is_free(clearance, scratch, t.from, t.to)) {
      continue;
    }
    if (!an_reserve(alloc, (void **)list, capacity, *count, *count + 1, sizeof **list)) {
      return ARCNAV_ERR_OUT_OF_MEMORY;
    }
    (*list)[(*count)++] = (free_tangent){i, j, ccw_a, ccw_b, t};
  }
  return ARCNAV_OK;
}

// Lays out nodes sorted by group and offset, with their outgoing tangent edges.
static arcnav_status lay_out_nodes(const an_corner *corners, size_t corner_count,
                                   const free_tangent *tangents, size_t tangent_count,
                                   const an_allocator *alloc, an_tangent_graph *graph) {
  size_t draft_count = tangent_count * 4;
  if (draft_count >= AN_NONE) {
    return ARCNAV_ERR_TOO_LARGE;
  }
  node_draft *drafts = draft_count ? an_alloc(alloc, draft_count, sizeof *drafts) : NULL;
  uint32_t *final_index = draft_count ? an_alloc(alloc, draft_count, sizeof *final_index) : NULL;
  graph->group_start = an_calloc(alloc, corner_count * 2 + 1, sizeof *graph->group_start);
  if ((draft_count && (!drafts || !final_index)) || !graph->group_start) {
    an_free(alloc, drafts);
    an_free(alloc, final_index);
    return ARCNAV_ERR_OUT_OF_MEMORY;
  }
  for (size_t k = 0; k < tangent_count; ++k) {
    const free_tangent *t = &tangents[k];
    vec2 forward = t->segment.direction, backward = v2_scale(forward, -1.0);
    node_draft *d = &drafts[4 * k];
    d[0] = make_draft(corners, t->from_corner, t->from_ccw, t->segment.from, forward);
    d[1] = make_draft(corners, t->to_corner, t->to_ccw, t->segment.to, forward);
    d[2] = make_draft(corners, t->to_corner, !t->to_ccw, t->segment.to, backward);
    d[3] = make_draft(corners, t->from_corner, !t->from_ccw, t->segment.from, backward);
    double length = v2_dist(t->segment.from, t->segment.to);
    d[0].edge_target_draft = (uint32_t)(4 * k + 1);
    d[0].edge_length = length;
    d[2].edge_target_draft = (uint32_t)(4 * k + 3);
    d[2].edge_length = length;
    // Remember each draft's own index through the sort.
    for (int m = 0; m < 4; ++m) {
      d[m].node.first_edge = (uint32_t)(4 * k + (size_t)m);
    }
  }
  if (draft_count) {
    qsort(drafts, draft_count, sizeof *drafts, compare_drafts);
  }
  for (size_t n = 0; n < draft_count; ++n) {
    final_index[drafts[n].node.first_edge] = (uint32_t)n;
  }
  graph->nodes = draft_count ? an_alloc(alloc, draft_count, sizeof *graph->nodes) : NULL;
  graph->edges = tangent_count ? an_alloc(alloc, tangent_count * 2, sizeof *graph->edges) : NULL;
  if (draft_count && (!graph->nodes || !graph->edges)) {
    an_free(alloc, drafts);
    an_free(alloc, final_index);
    return ARCNAV_ERR_OUT_OF_MEMORY;
  }
  uint32_t edge_count = 0;
  for (size_t n = 0; n < draft_count; ++n) {
    graph->nodes[n] = drafts[n].node;
    graph->nodes[n].first_edge = edge_count;
    graph->nodes[n].edge_count = 0;
    if (drafts[n].edge_target_draft != AN_NONE) {
      graph->edges[edge_count++] =
          (an_graph_edge){final_index[drafts[n].edge_target_draft], drafts[n].edge_length};
      graph->nodes[n].edge_count = 1;
    }
    graph->group_start[an_group_index(graph->nodes[n].corner, graph->nodes[n].ccw) + 1]++;
  }
  for (size_t g = 0; g < corner_count * 2; ++g) {
    graph->group_start[g + 1] += graph->group_start[g];
  }
  graph->node_count = (uint32_t)draft_count;
  graph->edge_count = edge_count;
  an_free(alloc, drafts);
  an_free(alloc, final_index);
  return ARCNAV_OK;
}

bool an_corner_wedge_is_free(const an_corner *corner, const an_clearance *clearance,
                             an_clearance_scratch *scratch) {
  if (corner->wedge_sweep < AN_TWO_PI) {
    an_arc whole = {corner->center, corner->radius, corner->wedge_start, corner->wedge_sweep};
    return an_arc_is_free(clearance, scratch, &whole);
  }
  // A full circle has no ends, an arc has two, and what touches an arc at an end is left to the
  // end's own tests (docs/DESIGN.md, "The touching rule"): one arc round the whole would not see
  // material touching the rim at its seam. Two arcs of three quarters, half a turn apart, each
  // hold the other's ends inside.
  an_arc first = {corner->center, corner->radius, corner->wedge_start, 0.75 * AN_TWO_PI};
  an_arc second = {corner->center, corner->radius, an_wrap_angle(corner->wedge_start + AN_PI),
                   0.75 * AN_TWO_PI};
  return an_arc_is_free(clearance, scratch, &first) && an_arc_is_free(clearance, scratch, &second);
}

// Notes which corners' whole wedge arc is free.
static arcnav_status check_wedges(const an_corner *corners, size_t corner_count,
                                  const an_clearance *clearance, an_clearance_scratch *scratch,
                                  const an_allocator *alloc, an_tangent_graph *graph) {
  graph->wedge_free = an_alloc(alloc, corner_count ? corner_count : 1, sizeof *graph->wedge_free);
  if (!graph->wedge_free) {
    return ARCNAV_ERR_OUT_OF_MEMORY;
  }
  for (size_t c = 0; c < corner_count; ++c) {
    graph->wedge_free[c] = an_corner_wedge_is_free(&corners[c], clearance, scratch);
  }
  return ARCNAV_OK;
}

// Turns each link to a neighbour into a link to the first node along the arc that has tangents
// leaving it, over free links only. Nodes where tangents only arrive lead nowhere else, so a
// search that travels around the arc need not stop at them; from such a node, and from a node
// before a place where the goal's tangent leaves, the arc is still reached from where it starts.
static void skip_arrivals(const an_corner *corner, bool ccw, an_graph_node *nodes, uint32_t first,
                          uint32_t last) {
  uint32_t count = last - first;
  bool full = corner->wedge_sweep >= AN_TWO_PI;
  // Visit nodes against the travel direction, so that a node's successor is settled first; a
  // full circle needs a second round for the links across its wrap.
  uint32_t rounds = full ? 2 : 1;
  for (uint32_t round = 0; round < rounds; ++round) {
    for (uint32_t step = 0; step < count; ++step) {
      uint32_t n = ccw ? last - 1 - step : first + step;
      an_graph_node *node = &nodes[n];
      uint32_t next = node->next;
      if (next == AN_NONE || nodes[next].edge_count > 0) {
        continue;
      }
      node->next = nodes[next].next;
    }
  }
  for (uint32_t n = first; n < last; ++n) {
    an_graph_node *node = &nodes[n];
    if (node->next == n || (node->next != AN_NONE && nodes[node->next].edge_count == 0)) {
      node->next = AN_NONE;
    }
    if (node->next != AN_NONE) {
      node->arc_to_next =
          corner->radius * an_corner_arc_sweep(corner, node->offset, nodes[node->next].offset, ccw);
    }
  }
}

// Links each node to its successor along its circle in the travel direction, if that arc is free.
static void link_arcs(const an_corner *corners, size_t corner_count, const an_clearance *clearance,
                      an_clearance_scratch *scratch, an_tangent_graph *graph) {
  for (uint32_t g = 0; g < corner_count * 2; ++g) {
    uint32_t first = graph->group_start[g], last = graph->group_start[g + 1];
    if (last - first < 2) {
      continue;
    }
    const an_corner *corner = &corners[g / 2];
    bool ccw = (g & 1u) != 0;
    bool full = corner->wedge_sweep >= AN_TWO_PI;
    bool whole_is_free = graph->wedge_free[g / 2];
    for (uint32_t n = first; n < last; ++n) {
      an_graph_node *node = &graph->nodes[n];
      uint32_t next;
      if (ccw) {
        next = n + 1 < last ? n + 1 : (full ? first : AN_NONE);
      } else {
        next = n > first ? n - 1 : (full ? last - 1 : AN_NONE);
      }
      if (next == AN_NONE) {
        continue;
      }
      const an_graph_node *to = &graph->nodes[next];
      double sweep = an_corner_arc_sweep(corner, node->offset, to->offset, ccw);
      if (sweep < 0.0) {
        continue;
      }
      an_arc arc = an_corner_arc(corner, node->angle, sweep, ccw);
      if (sweep > 0.0 && !whole_is_free && !an_arc_is_free(clearance, scratch, &arc)) {
        continue;
      }
      node->next = next;
      node->arc_to_next = corner->radius * sweep;
    }
    skip_arrivals(corner, ccw, graph->nodes, first, last);
  }
}

arcnav_status an_tangent_graph_build(const an_corner *corners, size_t corner_count,
                                     const double *pinch_table, const an_clearance *clearance,
                                     const an_allocator *alloc, an_tangent_graph *out) {
  memset(out, 0, sizeof *out);
  if (corner_count >= AN_NONE / 4) {
    return ARCNAV_ERR_TOO_LARGE;
  }
  const an_grid *grid = clearance->grid;
  an_clearance_scratch scratch;
  an_sight_scratch sight;
  memset(&sight, 0, sizeof sight);
  arcnav_status status = an_clearance_scratch_init(&scratch, grid, alloc);
  if (status == ARCNAV_OK) {
    status = an_sight_scratch_init(&sight, grid, corner_count, alloc);
  }
  if (status == ARCNAV_OK) {
    status = an_corner_grid_build(grid, corners, corner_count, alloc, &out->corner_grid);
  }
  free_tangent *tangents = NULL;
  size_t tangent_count = 0, tangent_capacity = 0;
  // Each corner gathers the corners it can see; a pair is tried from its lower-numbered corner,
  // and a pair that corner never met is blocked.
  for (uint32_t i = 0; i < corner_count && status == ARCNAV_OK; ++i) {
    const an_corner *corner = &corners[i];
    an_sight_mask mask = an_sight_mask_of_corner(corner);
    double lane_offset = an_corner_material_radius(corner, clearance->radius);
    an_sight_gather(grid, &out->corner_grid, corner_count, &sight, corner->center, lane_offset,
                    clearance->radius, &mask, NULL, clearance->eps);
    for (uint32_t k = 0; k < sight.candidate_count && status == ARCNAV_OK; ++k) {
      uint32_t j = sight.candidates[k];
      if (j > i &&
          an_sight_pair_may_pass(&sight.sight, &mask, v2_sub(corners[j].center, corner->center),
                                 corner->radius + corners[j].radius)) {
        status = collect_pair(corners, pinch_table, i, j, clearance, &scratch, &sight.sight, alloc,
                              &tangents, &tangent_count, &tangent_capacity);
      }
    }
  }
  if (status == ARCNAV_OK) {
    status = lay_out_nodes(corners, corner_count, tangents, tangent_count, alloc, out);
  }
  if (status == ARCNAV_OK) {
    status = check_wedges(corners, corner_count, clearance, &scratch, alloc, out);
  }
  if (status == ARCNAV_OK) {
    link_arcs(corners, corner_count, clearance, &scratch, out);
  } else {
    an_tangent_graph_destroy(out, alloc);
  }
  an_free(alloc, tangents);
  an_clearance_scratch_free(&scratch, alloc);
  an_sight_scratch_free(&sight, alloc);
  return status;
}

void an_tangent_graph_destroy(an_tangent_graph *graph, const an_allocator *alloc) {
  an_free(alloc, graph->nodes);
  an_free(alloc, graph->edges);
  an_free(alloc, graph->group_start);
  an_free(alloc, graph->wedge_free);
  an_corner_grid_destroy(&graph->corner_grid, alloc);
  memset(graph, 0, sizeof *graph);
}

size_t an_tangent_graph_memory_bytes(const an_tangent_graph *graph, size_t corner_count) {
  return an_corner_grid_memory_bytes(&graph->corner_grid) +
         graph->node_count * sizeof(an_graph_node) + graph->edge_count * sizeof(an_graph_edge) +
         (graph->group_start ? (corner_count * 2 + 1) * sizeof(uint32_t) : 0) +
         (graph->wedge_free ? corner_count * sizeof(bool) : 0);
}
