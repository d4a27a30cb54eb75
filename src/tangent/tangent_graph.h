// SPDX-License-Identifier: MIT
#pragma once

// The tangent visibility graph. A node is a touching point on a corner circle together with a
// turning direction; its edges are the free tangent segments that leave it and the arc piece to
// the next node of the same circle and direction. Nodes are stored grouped by (corner, direction)
// and sorted by their angle's offset inside the corner's wedge, so arcs only link neighbours.

#include "geom/alloc.h"
#include "index/clearance.h"
#include "tangent/inflate.h"
#include "tangent/visibility.h"

#include <stdint.h>

#define AN_NONE UINT32_MAX

typedef struct an_graph_node {
  vec2 point;
  double angle;  ///< direction from the corner's centre to `point` (the free-side normal)
  double offset; ///< angle's offset within the corner's wedge
  uint32_t corner;
  uint32_t first_edge; ///< outgoing tangents: edges[first_edge .. first_edge + edge_count)
  uint32_t edge_count;
  uint32_t next;      ///< next node along the arc in the travel direction, AN_NONE if none/blocked
  double arc_to_next; ///< length of that arc piece
  bool ccw;
} an_graph_node;

typedef struct an_graph_edge {
  uint32_t target;
  double length;
} an_graph_edge;

typedef struct an_tangent_graph {
  an_graph_node *nodes;
  uint32_t node_count;
  an_graph_edge *edges;
  uint32_t edge_count;
  uint32_t *group_start; ///< 2 * corner_count + 1 offsets: group of corner c, direction d (ccw = 1)
  bool *wedge_free;      ///< per corner: its whole wedge arc is free, and so every arc on it
  an_corner_grid corner_grid; ///< corners by cell, for gathering what a query's ends can see
  // With tangents found on demand, only corner_grid is built.
} an_tangent_graph;

/// Index of the (corner, direction) group.
static inline uint32_t an_group_index(uint32_t corner, bool ccw) {
  return corner * 2u + (ccw ? 1u : 0u);
}

/// Angle of the free-side normal at a touching point of a tangent travelling along `direction`,
/// turning `ccw` around the circle: the centre is on the left for ccw, so the normal points right.
static inline vec2 an_touch_normal(vec2 direction, bool ccw) {
  vec2 left = v2_perp(direction);
  return ccw ? v2_scale(left, -1.0) : left;
}
static inline double an_touch_angle(vec2 direction, bool ccw) {
  return v2_angle(an_touch_normal(direction, ccw));
}

/// Does tangent `t` between a point end (the start or the goal) and `corner` (its arrival when
/// `corner_is_to`, else its departure), turning `ccw` there, touch the corner inside its wedge?
/// An end may lie up to the tolerance `eps` inside the offset line of an edge beside the corner
/// (it is free; a nearest free point lies half a tolerance inside). From there every tangent to
/// the corner touches it just outside the wedge, by about the end's depth over the tangent's
/// length. Such a tangent is moved to touch at the wedge's nearer end (t changes): the path meets
/// the arc exactly at the wedge boundary, turning there by at most that angle, which is capped
/// (AN_END_TURN_MAX); the segment keeps within the tolerance of the line (docs/DESIGN.md, "Ends
/// within the tolerance"). A point agent's corners (radius within eps) have no offset line.
/// `pinch_table`: the corners' engine's table of pinch angles (an_corner_wedge_contains()).
static inline bool an_end_tangent_is_taut(an_tangent *t, const an_corner *corner, bool ccw,
                                          bool corner_is_to, double eps,
                                          const double *pinch_table) {
  vec2 normal = an_touch_normal(t->direction, ccw);
  if (an_corner_wedge_contains(corner, normal, AN_WEDGE_SLACK, pinch_table)) {
    return true;
  }
  double length = v2_dist(t->from, t->to);
  if (corner->radius <= eps || corner->wedge_sweep >= AN_TWO_PI || !(length > 0.0) ||
      !an_corner_wedge_contains(corner, normal, an_min(eps / length, AN_END_TURN_MAX),
                                pinch_table)) {
    return false;
  }
  vec2 side = v2_dot(normal, corner->normal_start) >= v2_dot(normal, corner->normal_end)
                  ? corner->normal_start
                  : corner->normal_end;
  vec2 touch = v2_mul_add(corner->center, corner->radius, side);
  if (corner_is_to) {
    t->to = touch;
  } else {
    t->from = touch;
  }
  t->direction = v2_normalize(v2_sub(t->to, t->from));
  return true;
}

/// Does the tangent `t`, turning `from_ccw` where it leaves `from` and `to_ccw` where it reaches
/// `to`, touch both inside their wedges, so that the path wraps each from outside? NULL stands for
/// a point (the start or the goal), which has no wedge; the corner opposite a point end is judged
/// by an_end_tangent_is_taut() for the map tolerance `eps`, which may move the tangent.
static inline bool an_tangent_is_taut(an_tangent *t, const an_corner *from, bool from_ccw,
                                      const an_corner *to, bool to_ccw, double eps,
                                      const double *pinch_table) {
  if (!from) {
    return !to || an_end_tangent_is_taut(t, to, to_ccw, true, eps, pinch_table);
  }
  if (!to) {
    return an_end_tangent_is_taut(t, from, from_ccw, false, eps, pinch_table);
  }
  return an_corner_wedge_contains(from, an_touch_normal(t->direction, from_ccw), AN_WEDGE_SLACK,
                                  pinch_table) &&
         an_corner_wedge_contains(to, an_touch_normal(t->direction, to_ccw), AN_WEDGE_SLACK,
                                  pinch_table);
}

/// Sweep in radians of the arc on `corner` from wedge offset `from` to offset `to` (both from
/// an_corner_offset) travelling ccw or cw, or a negative value when that arc would leave the wedge.
double an_corner_arc_sweep(const an_corner *corner, double from_offset, double to_offset, bool ccw);

/// The arc of the agent's path on `corner` from `from_angle`, turning `sweep` radians ccw or cw, in
/// the kernel's counter-clockwise form (for free checks).
static inline an_arc an_corner_arc(const an_corner *corner, double from_angle, double sweep,
                                   bool ccw) {
  return (an_arc){corner->center, corner->radius, ccw ? from_angle : from_angle - sweep, sweep};
}

/// The prebuilt graph of every free tangent between `corners` (`pinch_table`: their engine's table
/// of pinch angles, an_corner_wedge_contains()).
arcnav_status an_tangent_graph_build(const an_corner *corners, size_t corner_count,
                                     const double *pinch_table, const an_clearance *clearance,
                                     const an_allocator *alloc, an_tangent_graph *out);
/// Is the corner's whole wedge arc free? Most corners have nothing near them, and every arc on
/// such a corner is then free without a check of its own.
bool an_corner_wedge_is_free(const an_corner *corner, const an_clearance *clearance,
                             an_clearance_scratch *scratch);

void an_tangent_graph_destroy(an_tangent_graph *graph, const an_allocator *alloc);
size_t an_tangent_graph_memory_bytes(const an_tangent_graph *graph, size_t corner_count);
