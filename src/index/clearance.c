// SPDX-License-Identifier: MIT
#include "index/clearance.h"

#include "geom/predicates.h"
#include "geom/tolerances.h"
#include "search/marks.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

arcnav_status an_clearance_scratch_init(an_clearance_scratch *scratch, const an_grid *grid,
                                        const an_allocator *alloc) {
  memset(scratch, 0, sizeof *scratch);
  size_t items = grid->item_count > 0 ? grid->item_count : 1;
  scratch->item_stamps = an_calloc(alloc, items, sizeof *scratch->item_stamps);
  scratch->touches = an_alloc(alloc, 2 * items, sizeof *scratch->touches);
  scratch->owner_parity = an_calloc(alloc, grid->owner_count, sizeof *scratch->owner_parity);
  scratch->touched_owners = an_alloc(alloc, grid->owner_count, sizeof *scratch->touched_owners);
  scratch->owner_depth = an_alloc(alloc, grid->owner_count, sizeof *scratch->owner_depth);
  if (!scratch->item_stamps || !scratch->owner_parity || !scratch->touched_owners ||
      !scratch->owner_depth || !scratch->touches) {
    an_clearance_scratch_free(scratch, alloc);
    return ARCNAV_ERR_OUT_OF_MEMORY;
  }
  scratch->item_room = items;
  scratch->owner_room = grid->owner_count;
  return ARCNAV_OK;
}

arcnav_status an_clearance_scratch_renew(an_clearance_scratch *scratch, const an_grid *grid,
                                         const an_allocator *alloc) {
  // The stamps go on from where they were, above every one the old grid's items hold; the owners'
  // parities are zero between probes.
  an_room_array items[] = {{(void **)&scratch->item_stamps, sizeof *scratch->item_stamps, true},
                           {(void **)&scratch->touches, 2 * sizeof *scratch->touches, false}};
  an_room_array owners[] = {
      {(void **)&scratch->owner_parity, sizeof *scratch->owner_parity, true},
      {(void **)&scratch->touched_owners, sizeof *scratch->touched_owners, false},
      {(void **)&scratch->owner_depth, sizeof *scratch->owner_depth, false}};
  if (!an_room_for(alloc, items, 2, &scratch->item_room,
                   grid->item_count > 0 ? grid->item_count : 1) ||
      !an_room_for(alloc, owners, 3, &scratch->owner_room, grid->owner_count)) {
    return ARCNAV_ERR_OUT_OF_MEMORY;
  }
  scratch->checks = 0;
  scratch->last_blocker = 0;
  return ARCNAV_OK;
}

void an_clearance_scratch_free(an_clearance_scratch *scratch, const an_allocator *alloc) {
  an_free(alloc, scratch->item_stamps);
  an_free(alloc, scratch->touches);
  an_free(alloc, scratch->owner_parity);
  an_free(alloc, scratch->touched_owners);
  an_free(alloc, scratch->owner_depth);
  memset(scratch, 0, sizeof *scratch);
}

static uint32_t next_stamp(an_clearance_scratch *scratch) {
  if (an_stamp_next(&scratch->stamp)) {
    memset(scratch->item_stamps, 0, scratch->item_room * sizeof *scratch->item_stamps);
  }
  return scratch->stamp;
}

// Visits each item filed in cell (column, row) once per stamp; stops when `visit` returns false.
typedef bool (*item_visitor)(const an_clearance *cl, const an_item *item, const void *shape);

static bool visit_cell(const an_clearance *cl, an_clearance_scratch *scratch, uint32_t stamp,
                       int32_t column, int32_t row, item_visitor visit, const void *shape) {
  const an_grid *grid = cl->grid;
  assert(column >= 0 && column < grid->columns && row >= 0 && row < grid->rows);
  size_t cell = (size_t)row * (size_t)grid->columns + (size_t)column;
  uint32_t count;
  const uint32_t *ids = an_cell_table_list(&grid->cells, cell, &count);
  for (uint32_t k = 0; k < count; ++k) {
    uint32_t index = ids[k];
    assert(index < grid->item_count);
    if (scratch->item_stamps[index] == stamp) {
      continue;
    }
    scratch->item_stamps[index] = stamp;
    if (an_clearance_ignores(cl, grid->items[index].owner)) {
      continue;
    }
    if (!visit(cl, &grid->items[index], shape)) {
      return false;
    }
  }
  return true;
}

// ---- points --------------------------------------------------------------------------------

typedef struct point_probe {
  vec2 p;
  double edge_distance;   // nearest edge of an owner that does not hold p
  double circle_distance; // signed, nearest circle obstacle
  an_clearance_scratch *scratch;
} point_probe;

// Owners marked in owner_parity with this bit hold p in their material.
#define HOLDS_POINT 4u

// The distance from p to an item's border: its edge, or its circle (negative inside).
static double item_border_dist(const an_item *item, vec2 p) {
  return item->kind == AN_ITEM_CIRCLE ? v2_dist(p, item->a) - item->radius
                                      : an_point_segment_dist(p, item->a, an_item_end(item));
}

static bool probe_point(const an_clearance *cl, const an_item *item, const void *shape) {
  (void)cl;
  point_probe *probe = (point_probe *)shape;
  double distance = item_border_dist(item, probe->p);
  if (item->kind == AN_ITEM_CIRCLE) {
    probe->circle_distance = an_min(probe->circle_distance, distance);
    return true;
  }
  if (probe->scratch->owner_parity[item->owner] & HOLDS_POINT) {
    double *depth = &probe->scratch->owner_depth[item->owner];
    *depth = an_min(*depth, distance);
  } else {
    probe->edge_distance = an_min(probe->edge_distance, distance);
  }
  return true;
}

// Which owners hold p in their material (a polygon around it, or the bounds with p outside)?
// Even-odd parity per owner along a ray to +x, gathered from the grid row that holds p. Lists them
// in scratch->touched_owners and returns how many.
static size_t owners_holding(const an_clearance *cl, an_clearance_scratch *scratch, vec2 p) {
  const an_grid *grid = cl->grid;
  uint32_t stamp = next_stamp(scratch);
  size_t touched = 0;
  int32_t row = an_grid_row(grid, p.y);
  bool in_grid_rows = p.y >= grid->origin.y && p.y <= grid->origin.y + grid->rows * grid->cell_size;
  int32_t first_column = an_grid_column(grid, p.x);
  if (p.x < grid->origin.x) {
    first_column = 0;
  }
  for (int32_t column = first_column; in_grid_rows && column < grid->columns; ++column) {
    size_t cell = (size_t)row * (size_t)grid->columns + (size_t)column;
    uint32_t count;
    const uint32_t *ids = an_cell_table_list(&grid->cells, cell, &count);
    for (uint32_t k = 0; k < count; ++k) {
      uint32_t index = ids[k];
      const an_item *item = &grid->items[index];
      if (scratch->item_stamps[index] == stamp || item->kind != AN_ITEM_EDGE ||
          an_clearance_ignores(cl, item->owner)) {
        continue;
      }
      scratch->item_stamps[index] = stamp;
      vec2 a = item->a, b = an_item_end(item);
      if ((a.y > p.y) != (b.y > p.y)) {
        double x = a.x + (p.y - a.y) * (b.x - a.x) / (b.y - a.y);
        if (x > p.x) {
          if (scratch->owner_parity[item->owner] == 0) {
            scratch->touched_owners[touched++] = item->owner;
          }
          scratch->owner_parity[item->owner] ^= 2;
          scratch->owner_parity[item->owner] |= 1;
        }
      }
    }
  }
  uint32_t bounds_owner = grid->owner_count - 1;
  bool bounds_seen = false;
  size_t holding = 0;
  // Compacts in place: the entry written is never one still to be read.
  for (size_t i = 0; i < touched; ++i) {
    uint32_t owner = scratch->touched_owners[i];
    bool odd = (scratch->owner_parity[owner] & 2) != 0;
    scratch->owner_parity[owner] = 0;
    if (owner == bounds_owner) {
      bounds_seen = true;
      odd = cl->has_bounds && !odd;
    }
    if (odd) {
      scratch->touched_owners[holding++] = owner;
    }
  }
  if (cl->has_bounds && !bounds_seen) {
    scratch->touched_owners[holding++] = bounds_owner;
  }
  return holding;
}

// Signed clearance of p: distance to the blocked region, negative inside it (exact only within
// reach of the grid cell; beyond that any value past the bound, which is enough to decide). Inside
// overlapping obstacles, p is as deep as the deepest of the obstacles that hold it: lying on one
// obstacle's edge does not make a point inside another one free. (A disk's point that no polygon
// holds needs no clearance: an_point_is_free_known() asks the quick no.)
static double point_clearance(const an_clearance *cl, an_clearance_scratch *scratch, vec2 p) {
  const an_grid *grid = cl->grid;
  scratch->checks++;
  point_probe probe = {p, INFINITY, INFINITY, scratch};
  if (grid->item_count == 0) {
    return INFINITY;
  }
  size_t holding = owners_holding(cl, scratch, p);
  for (size_t i = 0; i < holding; ++i) {
    uint32_t owner = scratch->touched_owners[i];
    scratch->owner_parity[owner] = HOLDS_POINT;
    scratch->owner_depth[owner] = INFINITY;
  }
  uint32_t stamp = next_stamp(scratch);
  visit_cell(cl, scratch, stamp, an_grid_column(grid, p.x), an_grid_row(grid, p.y), probe_point,
             &probe);
  double deepest = 0.0;
  for (size_t i = 0; i < holding; ++i) {
    uint32_t owner = scratch->touched_owners[i];
    deepest = an_max(deepest, scratch->owner_depth[owner]);
    scratch->owner_parity[owner] = 0;
  }
  double polygon_side = holding > 0 ? -deepest : probe.edge_distance;
  return an_min(polygon_side, probe.circle_distance);
}

// ---- the touching rule for a point agent -----------------------------------------------------
// Obstacles that touch are one wall. Around a point the wall is a set of direction intervals, one
// per item touching the point: a vertex's material wedge, an edge's or a circle's half-plane.

typedef struct material_probe {
  vec2 p;
  an_touch *spans;
  size_t count;
} material_probe;

bool an_item_material_at(const an_item *item, vec2 p, double eps, double *start, double *sweep) {
  if (item->kind == AN_ITEM_CIRCLE) {
    vec2 to_center = v2_sub(item->a, p);
    double d = v2_len(to_center);
    if (item->radius <= eps || d <= eps || fabs(d - item->radius) > eps) {
      return false; // a point obstacle has no inside; a point deep in a circle is not free anyway
    }
    *start = v2_angle(to_center) - 0.5 * AN_PI;
    *sweep = AN_PI;
  } else if (v2_dist(p, item->a) <= eps) {
    *start = v2_angle(v2_sub(an_item_end(item), item->a));
    *sweep = an_wrap_angle(v2_angle(v2_sub(an_item_before(item), item->a)) - *start);
  } else if (v2_dist(p, an_item_end(item)) > eps &&
             an_point_segment_dist(p, item->a, an_item_end(item)) <= eps) {
    *start = v2_angle(v2_sub(an_item_end(item), item->a));
    *sweep = AN_PI;
  } else {
    return false;
  }
  return true;
}

// Adds the directions from probe->p into the material of `item` when the point touches it.
static bool gather_material(const an_clearance *cl, const an_item *item, const void *shape) {
  material_probe *probe = (material_probe *)shape;
  double start, sweep;
  if (!an_item_material_at(item, probe->p, cl->eps, &start, &sweep)) {
    return true;
  }
  if (sweep > 0.0) {
    probe->spans[probe->count++] =
        (an_touch){.from = an_wrap_angle(start), .to = sweep, .owner = item->owner};
  }
  return true;
}

static int compare_touches(const void *lhs, const void *rhs) {
  const an_touch *a = lhs, *b = rhs;
  return a->from < b->from ? -1 : (a->from > b->from ? 1 : 0);
}

static int compare_touch_owners(const void *lhs, const void *rhs) {
  const an_touch *a = lhs, *b = rhs;
  return a->owner != b->owner ? (a->owner < b->owner ? -1 : 1) : compare_touches(lhs, rhs);
}

// The parts of direction interval a that lie in b: at most two.
static size_t intersect_spans(an_touch a, an_touch b, an_touch out[2]) {
  double start = an_wrap_angle(b.from - a.from), end = start + b.to; // b, from a's start
  size_t count = 0;
  if (start < a.to) {
    out[count++] = (an_touch){
        .from = an_wrap_angle(a.from + start), .to = an_min(end, a.to) - start, .owner = a.owner};
  }
  if (end > AN_TWO_PI) {
    out[count++] =
        (an_touch){.from = a.from, .to = an_min(end - AN_TWO_PI, a.to), .owner = a.owner};
  }
  return count;
}

// Rings of one polygon that meet at a point (a hole touching its shell or another hole) leave
// between them what each of them frees, so that polygon's material there is the intersection of
// their spans; different obstacles' material is the union of theirs. Rewrites the `count` spans
// in place, grouped by owner; returns how many remain.
static size_t intersect_rings_of_one_polygon(an_touch *spans, size_t count) {
  qsort(spans, count, sizeof *spans, compare_touch_owners);
  size_t kept = 0;
  for (size_t i = 0; i < count;) {
    size_t end = i + 1;
    while (end < count && spans[end].owner == spans[i].owner) {
      ++end;
    }
    an_touch part[8], next[8];
    size_t parts = 1;
    part[0] = spans[i];
    for (size_t k = i + 1; k < end; ++k) {
      size_t made = 0;
      for (size_t j = 0; j < parts && made + 2 <= 8; ++j) {
        made += intersect_spans(part[j], spans[k], next + made);
      }
      memcpy(part, next, made * sizeof *part);
      parts = made;
    }
    // A group of g spans leaves at most g parts, so the output never overtakes the input.
    for (size_t j = 0; j < parts; ++j) {
      if (part[j].to > 0.0) {
        spans[kept++] = part[j];
      }
    }
    i = end;
  }
  return kept;
}

// The direction intervals of material around p (from: start angle, to: sweep) written to `spans`
// (room for one per grid item); returns how many.
static size_t material_around(const an_clearance *cl, an_clearance_scratch *scratch, vec2 p,
                              an_touch *spans) {
  const an_grid *grid = cl->grid;
  material_probe probe = {p, spans, 0};
  uint32_t stamp = next_stamp(scratch);
  visit_cell(cl, scratch, stamp, an_grid_column(grid, p.x), an_grid_row(grid, p.y), gather_material,
             &probe);
  return intersect_rings_of_one_polygon(spans, probe.count);
}

// Does the direction at `angle` lie strictly inside one of the spans?
static bool spans_hold(const an_touch *spans, size_t count, double angle) {
  for (size_t i = 0; i < count; ++i) {
    double offset = an_wrap_angle(angle - spans[i].from);
    if (offset > AN_DIRECTION_SLACK && offset < spans[i].to - AN_DIRECTION_SLACK) {
      return true;
    }
  }
  return false;
}

// The widest interval of directions that none of the `count` material intervals covers: returns
// its width (2pi when there are none) and writes its start angle.
static double widest_free_gap(an_touch *spans, size_t count, double *gap_start) {
  if (count == 0) {
    *gap_start = 0.0;
    return AN_TWO_PI;
  }
  qsort(spans, count, sizeof *spans, compare_touches);
  // Angles counted from the first interval's start, so coverage begins at 0 and only the last gap
  // wraps around to it. An interval that runs past a full turn from there covers the start of
  // that turn too.
  double origin = spans[0].from, covered = 0.0, widest = 0.0, widest_at = 0.0;
  for (size_t i = 0; i < count; ++i) {
    covered = an_max(covered, spans[i].from - origin + spans[i].to - AN_TWO_PI);
  }
  for (size_t i = 0; i < count; ++i) {
    double from = spans[i].from - origin;
    if (from > covered && from - covered > widest) {
      widest = from - covered;
      widest_at = covered;
    }
    covered = an_max(covered, from + spans[i].to);
  }
  if (AN_TWO_PI - covered > widest) {
    widest = AN_TWO_PI - covered;
    widest_at = covered;
  }
  *gap_start = an_wrap_angle(origin + widest_at);
  return widest;
}

bool an_point_is_free(const an_clearance *cl, an_clearance_scratch *scratch, vec2 p) {
  return an_point_is_free_known(
      cl, scratch, p, cl->outside_polygons && cl->outside_polygons(cl->outside_context, p));
}

// Is p outside the item's box grown by `reach`? Then the item's border is farther than that.
static bool box_beyond(const an_item *item, vec2 p, double reach) {
  vec2 lo, hi;
  an_item_box(item, reach, &lo, &hi);
  return !an_in_closed_box(p, lo, hi);
}

// An obstacle is no farther from p than its boundary is: one boundary item nearer than R - eps
// decides, whatever holds p, without the search for the polygons that hold it. The item that
// decided last is tried first: the probes ask about many points along one stretch of wall. Any
// item of the grid nearer than R - eps says no, filed in p's cell or not. One cell's list holds
// an item once, so no stamps.
bool an_point_is_surely_blocked(const an_clearance *cl, an_clearance_scratch *scratch, vec2 p) {
  const an_grid *grid = cl->grid;
  if (cl->point_agent || grid->item_count == 0) {
    return false;
  }
  double limit = cl->radius - cl->eps;
  // Items whose boxes are farther than the limit, and the rounding of the boxes, along an axis
  // are passed without their distance.
  double reach = limit + AN_GEOM_RELATIVE * (1.0 + fabs(p.x) + fabs(p.y) + limit);
  uint32_t last = scratch->last_blocker;
  if (last < grid->item_count && !an_clearance_ignores(cl, grid->items[last].owner) &&
      item_border_dist(&grid->items[last], p) < limit) {
    return true;
  }
  size_t cell =
      (size_t)an_grid_row(grid, p.y) * (size_t)grid->columns + (size_t)an_grid_column(grid, p.x);
  uint32_t count;
  const uint32_t *ids = an_cell_table_list(&grid->cells, cell, &count);
  for (uint32_t k = 0; k < count; ++k) {
    const an_item *item = &grid->items[ids[k]];
    if (!an_clearance_ignores(cl, item->owner) && !box_beyond(item, p, reach) &&
        item_border_dist(item, p) < limit) {
      scratch->last_blocker = ids[k];
      return true;
    }
  }
  return false;
}

bool an_point_is_free_known(const an_clearance *cl, an_clearance_scratch *scratch, vec2 p,
                            bool outside_polygons) {
  if (outside_polygons && !cl->point_agent) {
    // In no polygon, p's clearance is its least distance to the borders of its cell's items:
    // free exactly when none is nearer than R - eps, the quick test's question.
    scratch->checks++;
    return !an_point_is_surely_blocked(cl, scratch, p);
  }
  double clearance = point_clearance(cl, scratch, p);
  if (clearance < cl->radius - cl->eps) {
    return false;
  }
  if (!cl->point_agent || clearance > cl->eps) {
    return true;
  }
  // Touching: free unless the wall closes all round p (a point on a seam between two obstacles).
  double gap_start;
  return widest_free_gap(scratch->touches, material_around(cl, scratch, p, scratch->touches),
                         &gap_start) > AN_DIRECTION_SLACK;
}

bool an_point_agent_corner_wedge(const an_clearance *cl, an_clearance_scratch *scratch, vec2 v,
                                 double *start, double *sweep, size_t *material_count) {
  size_t count = material_around(cl, scratch, v, scratch->touches);
  *material_count = count;
  double gap_start;
  double gap = widest_free_gap(scratch->touches, count, &gap_start);
  // A path may touch the wall at v and turn there only where the wall is convex, its material
  // within less than a half-turn of directions; the normals of the turn are those at a right
  // angle or more from every direction into the material (docs/DESIGN.md, "The touching rule").
  if (gap <= AN_PI + AN_DIRECTION_SLACK) {
    return false;
  }
  *start = an_wrap_angle(gap_start + 0.5 * AN_PI);
  *sweep = gap - AN_PI;
  return true;
}

// ---- segments ------------------------------------------------------------------------------

typedef struct segment_shape {
  vec2 a, b;
  double length;
  vec2 unit_normal;              ///< perpendicular to b - a, of length 1; zero for a point
  vec2 unit;                     ///< along b - a, of length 1; zero for a point
  an_clearance_scratch *touches; ///< point agents: where material touches the segment
  size_t *touch_count;
} segment_shape;

// Does direction `dir` from vertex item->a point strictly into the material there? Material lies
// counter-clockwise from the outgoing edge up to the reversed incoming edge.
static bool heads_into_material(const an_item *item, vec2 dir) {
  double out_angle = v2_angle(v2_sub(an_item_end(item), item->a));
  double span = an_wrap_angle(v2_angle(v2_sub(an_item_before(item), item->a)) - out_angle);
  double offset = an_wrap_angle(v2_angle(dir) - out_angle);
  return offset > AN_DIRECTION_SLACK && offset < span - AN_DIRECTION_SLACK;
}

static bool point_segment_blocks(const an_clearance *cl, const an_item *item,
                                 const segment_shape *s) {
  double eps = cl->eps;
  if (item->kind == AN_ITEM_CIRCLE) {
    return an_point_segment_dist(item->a, s->a, s->b) < item->radius - eps;
  }
  if (s->length <= eps) {
    return false; // a point: its own test decides
  }
  vec2 item_end = an_item_end(item);
  vec2 along = v2_sub(s->b, s->a);
  vec2 edge = v2_sub(item_end, item->a);
  double edge_length = v2_len(edge);
  double side_a = v2_cross(along, v2_sub(item->a, s->a)) / s->length;
  double side_b = v2_cross(along, v2_sub(item_end, s->a)) / s->length;
  if (edge_length > 0.0) {
    double side_p = v2_cross(edge, v2_sub(s->a, item->a)) / edge_length;
    double side_q = v2_cross(edge, v2_sub(s->b, item->a)) / edge_length;
    bool edge_straddles = (side_a > eps && side_b < -eps) || (side_a < -eps && side_b > eps);
    bool segment_straddles = (side_p > eps && side_q < -eps) || (side_p < -eps && side_q > eps);
    if (edge_straddles && segment_straddles) {
      return true;
    }
    // An endpoint resting on the edge's interior while the other end is on the material side.
    double t_p = v2_dot(v2_sub(s->a, item->a), edge) / (edge_length * edge_length);
    double t_q = v2_dot(v2_sub(s->b, item->a), edge) / (edge_length * edge_length);
    double t_margin = eps / edge_length;
    if (fabs(side_p) <= eps && t_p > t_margin && t_p < 1.0 - t_margin && side_q > eps) {
      return true;
    }
    if (fabs(side_q) <= eps && t_q > t_margin && t_q < 1.0 - t_margin && side_p > eps) {
      return true;
    }
  }
  // The segment passes through (or starts or ends at) the edge's first vertex. A vertex shared by
  // rings of one polygon is judged after the walk, with every ring's material (record_touch).
  if (!item->shared_vertex && an_point_segment_dist(item->a, s->a, s->b) <= eps) {
    if (v2_dist(item->a, s->b) > eps && heads_into_material(item, v2_sub(s->b, item->a))) {
      return true;
    }
    if (v2_dist(item->a, s->a) > eps && heads_into_material(item, v2_sub(s->a, item->a))) {
      return true;
    }
  }
  return false;
}

// Records where `item` touches the inside of a point agent's segment that it does not block: an
// interval of distances along the segment (an edge lying on it) or one distance (a vertex or a
// circle's rim on it), with the side the material is on. Touches within eps of the segment's ends
// belong to the ends: a corner's own wedge and the tests of start and goal judge them.
static void record_touch(const an_clearance *cl, const an_item *item, const segment_shape *s) {
  double eps = cl->eps, length = s->length;
  if (length <= eps) {
    return;
  }
  vec2 unit = s->unit;
  an_touch *out = &s->touches->touches[*s->touch_count];
  double along_a = v2_dot(unit, v2_sub(item->a, s->a));
  double side_a = v2_dot(s->unit_normal, v2_sub(item->a, s->a));
  if (item->kind == AN_ITEM_CIRCLE) {
    if (item->radius > eps && along_a > eps && along_a < length - eps &&
        fabs(fabs(side_a) - item->radius) <= eps) {
      *out = (an_touch){.from = along_a, .to = along_a, .left = side_a > 0.0};
      ++*s->touch_count;
    }
    return;
  }
  vec2 item_end = an_item_end(item);
  double side_b = v2_dot(s->unit_normal, v2_sub(item_end, s->a));
  if (fabs(side_a) <= eps && fabs(side_b) <= eps) {
    double along_b = v2_dot(unit, v2_sub(item_end, s->a));
    double from = an_max(an_min(along_a, along_b), 0.0);
    double to = an_min(an_max(along_a, along_b), length);
    if (to - from > eps) {
      // Material lies left of every stored edge.
      *out = (an_touch){.from = from, .to = to, .left = along_b > along_a};
      ++*s->touch_count;
      return;
    }
  }
  if (item->shared_vertex) {
    if (an_point_segment_dist(item->a, s->a, s->b) <= eps) {
      *out = (an_touch){.from = along_a,
                        .to = along_a,
                        .owner = (uint32_t)(item - cl->grid->items),
                        .deferred = true};
      ++*s->touch_count;
    }
    return;
  }
  if (fabs(side_a) <= eps && along_a > eps && along_a < length - eps) {
    // The vertex's wedge does not hold the segment's direction (point_segment_blocks), so it lies
    // on one side of the segment, where both of its edges leave.
    double out_side = v2_cross(unit, v2_normalize(v2_sub(item_end, item->a)));
    double in_side = v2_cross(unit, v2_normalize(v2_sub(an_item_before(item), item->a)));
    *out = (an_touch){.from = along_a, .to = along_a, .left = out_side + in_side > 0.0};
    ++*s->touch_count;
  }
}

// Judges the vertices shared by rings of one polygon that the segment meets, with the material
// all the polygon's rings leave there: blocked when the segment heads into it, else the touch is
// kept with its side (for inside places) or dropped (at the segment's ends). Returns false when
// blocked; the touches left are compacted, their count written back.
static bool shared_vertices_let_pass(const an_clearance *cl, an_clearance_scratch *scratch,
                                     const segment_shape *s, size_t *count) {
  an_touch *touches = scratch->touches, *spans = scratch->touches + cl->grid->item_count;
  double eps = cl->eps;
  vec2 unit = s->unit;
  double forward = v2_angle(unit), backward = forward + AN_PI;
  size_t kept = 0;
  for (size_t i = 0; i < *count; ++i) {
    an_touch touch = touches[i];
    if (!touch.deferred) {
      touches[kept++] = touch;
      continue;
    }
    size_t n = material_around(cl, scratch, cl->grid->items[touch.owner].a, spans);
    bool at_start = touch.from <= eps, at_end = touch.from >= s->length - eps;
    if ((!at_end && spans_hold(spans, n, forward)) ||
        (!at_start && spans_hold(spans, n, backward))) {
      return false;
    }
    if (at_start || at_end) {
      continue;
    }
    bool sides[2] = {false, false};
    for (size_t k = 0; k < n; ++k) {
      vec2 middle = v2_from_angle(spans[k].from + 0.5 * spans[k].to);
      sides[v2_cross(unit, middle) > 0.0] = true;
    }
    if (sides[0] && sides[1]) {
      return false;
    }
    touches[kept++] = (an_touch){.from = touch.from, .to = touch.from, .left = sides[1]};
  }
  *count = kept;
  return true;
}

// Does material touch the segment from both sides at one place (within eps)? Touches sorted by
// where they begin: each is checked against the farthest reach of the other side's touches that
// began before it.
static bool touched_from_both_sides(an_touch *touches, size_t count, double eps) {
  size_t left = 0;
  for (size_t i = 0; i < count; ++i) {
    left += touches[i].left;
  }
  if (left == 0 || left == count) {
    return false;
  }
  qsort(touches, count, sizeof *touches, compare_touches);
  double reach[2] = {-INFINITY, -INFINITY}; // right, left
  for (size_t i = 0; i < count; ++i) {
    int side = touches[i].left ? 1 : 0;
    if (touches[i].from <= reach[1 - side] + eps) {
      return true;
    }
    reach[side] = an_max(reach[side], touches[i].to);
  }
  return false;
}

static bool segment_item_is_clear(const an_clearance *cl, const an_item *item, const void *shape) {
  const segment_shape *s = shape;
  if (cl->point_agent) {
    if (point_segment_blocks(cl, item, s)) {
      return false;
    }
    record_touch(cl, item, s);
    return true;
  }
  double limit = cl->radius - cl->eps;
  // Most items a cell holds lie wholly to one side of the segment's line, or wholly before its
  // start or beyond its end along it, farther than the limit: no nearer to the segment itself.
  double side_a = v2_dot(s->unit_normal, v2_sub(item->a, s->a));
  double along_a = v2_dot(s->unit, v2_sub(item->a, s->a));
  if (item->kind == AN_ITEM_CIRCLE) {
    double reach = item->radius + limit;
    return fabs(side_a) >= reach || along_a <= -reach || along_a >= s->length + reach ||
           an_point_segment_dist(item->a, s->a, s->b) >= reach;
  }
  vec2 item_end = an_item_end(item);
  double side_b = v2_dot(s->unit_normal, v2_sub(item_end, s->a));
  if ((side_a >= limit && side_b >= limit) || (side_a <= -limit && side_b <= -limit)) {
    return true;
  }
  double along_b = v2_dot(s->unit, v2_sub(item_end, s->a));
  if ((along_a <= -limit && along_b <= -limit) ||
      (along_a >= s->length + limit && along_b >= s->length + limit)) {
    return true;
  }
  return an_segment_segment_dist(s->a, s->b, item->a, item_end) >= limit;
}

typedef struct segment_walk {
  const an_clearance *cl;
  an_clearance_scratch *scratch;
  uint32_t stamp;
  const segment_shape *shape;
} segment_walk;

static bool segment_cell_is_clear(void *context, int32_t column, int32_t row) {
  segment_walk *walk = context;
  return visit_cell(walk->cl, walk->scratch, walk->stamp, column, row, segment_item_is_clear,
                    walk->shape);
}

bool an_segment_is_free(const an_clearance *cl, an_clearance_scratch *scratch, vec2 a, vec2 b) {
  const an_grid *grid = cl->grid;
  scratch->checks++;
  if (grid->item_count == 0) {
    return true;
  }
  vec2 p = a, q = b;
  if (!an_grid_clip_segment(grid, &p, &q)) {
    return true;
  }
  // Items are tested against the clipped piece: nothing lies beyond the grid, and sides measured
  // from an end 1e35 away would have lost every digit.
  double length = v2_dist(p, q);
  vec2 unit_normal = length > 0.0 ? v2_scale(v2_perp(v2_sub(q, p)), 1.0 / length) : v2(0.0, 0.0);
  size_t touch_count = 0;
  vec2 unit = v2(unit_normal.y, -unit_normal.x);
  segment_shape shape = {p, q, length, unit_normal, unit, scratch, &touch_count};
  segment_walk walk = {cl, scratch, next_stamp(scratch), &shape};
  return an_grid_walk_clipped(grid, p, q, segment_cell_is_clear, &walk) &&
         (!cl->point_agent || length <= cl->eps ||
          shared_vertices_let_pass(cl, scratch, &shape, &touch_count)) &&
         !touched_from_both_sides(scratch->touches, touch_count, cl->eps);
}

// ---- arcs ----------------------------------------------------------------------------------

// Is `angle` strictly inside the arc, farther than `slack` from both of its ends?
static bool arc_holds_inside(const an_arc *arc, double angle, double slack) {
  double offset = an_wrap_angle(angle - arc->start_angle);
  return offset > slack && offset < arc->sweep - slack;
}

// A point agent's arc (around a circle obstacle, whose material is on the arc's inner side)
// enters material when it crosses an edge transversally inside both, or passes through a vertex
// heading into the material there. Merely touching an edge is allowed, but not material touching
// the arc from outside: the circle and that material are then one wall the arc would pass through.
// An arc to check, and its end points worked out once for all the items it meets.
typedef struct arc_shape {
  an_arc arc;
  an_arc_ends ends;
  /// The arc's box grown by more than the clearance limit: an edge that misses it is farther than
  /// the limit from every point of the arc.
  vec2 lo, hi;
} arc_shape;

static bool point_arc_blocks(const an_clearance *cl, const an_item *item, const arc_shape *shape) {
  const an_arc *arc = &shape->arc;
  double eps = cl->eps;
  double angle_slack = arc->radius > 0.0 ? eps / arc->radius : 0.0;
  vec2 item_end = an_item_end(item);
  double edge_length = v2_dist(item->a, item_end);
  double t[2];
  int hits = an_segment_circle_intersections(item->a, item_end, arc->center, arc->radius, t);
  // The edge's line only grazes the circle when it passes at distance r from the centre; any
  // other meeting point is a crossing.
  vec2 edge_dir = v2_normalize(v2_sub(item_end, item->a));
  double centre_side = v2_cross(edge_dir, v2_sub(arc->center, item->a));
  double line_distance = fabs(centre_side);
  bool grazing = fabs(line_distance - arc->radius) <= eps;
  if (grazing && centre_side < 0.0 && edge_length > AN_GRAZE_MIN_TOLERANCES * eps) {
    // Material (left of the edge) away from the centre, touching the arc where the edge grazes it.
    double foot = v2_dot(v2_sub(arc->center, item->a), edge_dir);
    if (foot > eps && foot < edge_length - eps &&
        arc_holds_inside(arc, v2_angle(v2_sub(v2_mul_add(item->a, foot, edge_dir), arc->center)),
                         angle_slack)) {
      return true;
    }
  }
  if (grazing && centre_side > 0.0 && edge_length > AN_GRAZE_MIN_TOLERANCES * eps &&
      arc->radius > AN_GRAZE_MIN_TOLERANCES * eps) {
    // Material on the centre's side: the circle lies on the material's side of the edge's line
    // and touches it at the foot, so on each side of the foot that the edge covers the arc runs
    // just under the edge, in the material. Its direction there is the edge's: the vertex test
    // below, which looks at directions alone, cannot see it (docs/DESIGN.md, "The touching
    // rule"). An arc of a radius within tolerances of 0 (a vertex's, for an agent just above
    // R = 0) is a point: every edge at the vertex grazes it.
    double foot = v2_dot(v2_sub(arc->center, item->a), edge_dir);
    if (foot >= -eps && foot <= edge_length + eps) {
      double foot_angle = v2_angle(v2_sub(v2_mul_add(item->a, foot, edge_dir), arc->center));
      // Counter-clockwise round the centre, the arc leaves the foot along +edge_dir exactly when
      // the centre is on the edge's left.
      bool covered_ahead = foot < edge_length - eps;
      bool covered_behind = foot > eps;
      double step = 4.0 * angle_slack;
      if ((covered_ahead && an_arc_contains_angle(arc, foot_angle + step, 0.0)) ||
          (covered_behind && an_arc_contains_angle(arc, foot_angle - step, 0.0))) {
        return true;
      }
    }
  }
  if (hits > 0 && !grazing) {
    double t_margin = edge_length > 0.0 ? eps / edge_length : 1.0;
    for (int k = 0; k < hits; ++k) {
      if (t[k] <= t_margin || t[k] >= 1.0 - t_margin) {
        continue;
      }
      double angle = v2_angle(v2_sub(v2_lerp(item->a, item_end, t[k]), arc->center));
      double offset = an_wrap_angle(angle - arc->start_angle);
      if (offset > angle_slack && offset < arc->sweep - angle_slack) {
        return true;
      }
      // A crossing at an end of the arc: from there the arc runs to one side of the edge, into
      // its material (on its left) or not. An arc from one crossing to another through the
      // material crosses nothing inside itself (docs/DESIGN.md, "The touching rule").
      vec2 ahead = v2_perp(v2_from_angle(angle)); // counter-clockwise, from the arc's start
      bool at_start = offset <= angle_slack || offset >= AN_TWO_PI - angle_slack;
      bool at_end = fabs(offset - arc->sweep) <= angle_slack;
      if ((at_start && v2_cross(edge_dir, ahead) > AN_DIRECTION_SLACK) ||
          (at_end && v2_cross(edge_dir, ahead) < -AN_DIRECTION_SLACK)) {
        return true;
      }
    }
  }
  vec2 radial = v2_sub(item->a, arc->center);
  if (fabs(v2_len(radial) - arc->radius) <= eps &&
      an_arc_contains_angle(arc, v2_angle(radial), angle_slack)) {
    vec2 along = v2_perp(v2_normalize(radial));
    bool at_start = v2_dist(item->a, shape->ends.start) <= eps;
    bool at_end = v2_dist(item->a, shape->ends.end) <= eps;
    if ((!at_end && heads_into_material(item, along)) ||
        (!at_start && heads_into_material(item, v2_scale(along, -1.0)))) {
      return true;
    }
    // A vertex on the rim inside the arc whose wedge reaches outside the circle touches it there.
    double wedge_start = v2_angle(v2_sub(item_end, item->a));
    double wedge_sweep =
        an_wrap_angle(v2_angle(v2_sub(an_item_before(item), item->a)) - wedge_start);
    double outside_start = an_wrap_angle(v2_angle(radial) - 0.5 * AN_PI);
    bool reaches_outside =
        an_wrap_angle(outside_start - wedge_start) < wedge_sweep - AN_DIRECTION_SLACK ||
        an_wrap_angle(wedge_start - outside_start) < AN_PI - AN_DIRECTION_SLACK;
    if (!at_start && !at_end && reaches_outside &&
        arc_holds_inside(arc, v2_angle(radial), angle_slack)) {
      return true;
    }
  }
  return false;
}

// Does edge ab leave from the arc's centre away from the whole arc? Then the centre is the edge's
// nearest point to every point of the arc, a radius away. A corner's own edges are so for every
// arc round it (the arc keeps within the corner's wedge, between its edges' outward normals), and
// they are the costliest of its items to measure otherwise. An arc under a half-turn with both
// ends on the far side of the line through the centre square to the edge lies wholly there.
static bool edge_behind_arc(const an_arc *arc, const an_arc_ends *ends, vec2 a, vec2 b) {
  vec2 along;
  if (v2_equal(a, arc->center)) {
    along = v2_sub(b, a);
  } else if (v2_equal(b, arc->center)) {
    along = v2_sub(a, b);
  } else {
    return false;
  }
  return fabs(arc->sweep) < AN_PI && v2_dot(v2_sub(ends->start, arc->center), along) <= 0.0 &&
         v2_dot(v2_sub(ends->end, arc->center), along) <= 0.0;
}

static bool arc_item_is_clear(const an_clearance *cl, const an_item *item, const void *shape) {
  const arc_shape *checked = shape;
  const an_arc *arc = &checked->arc;
  double limit = cl->radius - cl->eps;
  if (cl->point_agent && item->kind != AN_ITEM_CIRCLE) {
    return !point_arc_blocks(cl, item, checked);
  }
  if (cl->point_agent && item->radius > cl->eps) {
    // Another circle touching the arc's circle from outside, inside the arc: one wall.
    vec2 between = v2_sub(item->a, arc->center);
    if (fabs(v2_len(between) - (arc->radius + item->radius)) <= cl->eps &&
        arc_holds_inside(arc, v2_angle(between), cl->eps / arc->radius)) {
      return false;
    }
  }
  // The arc lies on its circle: an item that far from the whole circle is that far from the arc.
  if (item->kind == AN_ITEM_CIRCLE) {
    double beyond = item->radius + limit;
    return v2_dist(item->a, arc->center) >= arc->radius + beyond ||
           an_point_arc_dist_ends(item->a, arc, &checked->ends) >= beyond;
  }
  vec2 item_end = an_item_end(item);
  if (edge_behind_arc(arc, &checked->ends, item->a, item_end)) {
    return arc->radius >= limit;
  }
  if (!an_segment_meets_box(item->a, item_end, checked->lo, checked->hi)) {
    return true;
  }
  return an_point_segment_dist(arc->center, item->a, item_end) >= arc->radius + limit ||
         an_segment_arc_dist_ends(item->a, item_end, arc, &checked->ends) >= limit;
}

static void arc_box(const an_arc *arc, const an_arc_ends *ends, vec2 *lo, vec2 *hi) {
  vec2 s = ends->start, e = ends->end;
  *lo = v2(an_min(s.x, e.x), an_min(s.y, e.y));
  *hi = v2(an_max(s.x, e.x), an_max(s.y, e.y));
  for (int quarter = 0; quarter < 4; ++quarter) {
    double angle = quarter * (AN_PI / 2.0);
    if (an_arc_contains_angle(arc, angle, 0.0)) {
      vec2 p = an_circle_point(arc->center, arc->radius, angle);
      *lo = v2(an_min(lo->x, p.x), an_min(lo->y, p.y));
      *hi = v2(an_max(hi->x, p.x), an_max(hi->y, p.y));
    }
  }
}

bool an_arc_is_free(const an_clearance *cl, an_clearance_scratch *scratch, const an_arc *arc) {
  const an_grid *grid = cl->grid;
  scratch->checks++;
  if (grid->item_count == 0 || !(arc->radius > 0.0)) {
    return true;
  }
  arc_shape shape = {.arc = *arc, .ends = an_arc_ends_of(arc)};
  vec2 lo, hi;
  arc_box(arc, &shape.ends, &lo, &hi);
  // Grown by the limit and the rounding of the box and of the limit, so that an edge missing it
  // is surely beyond the limit.
  double grow = (cl->radius - cl->eps) * (1.0 + AN_GEOM_RELATIVE) +
                AN_GEOM_RELATIVE * (1.0 + fabs(lo.x) + fabs(lo.y) + fabs(hi.x) + fabs(hi.y));
  shape.lo = v2(lo.x - grow, lo.y - grow);
  shape.hi = v2(hi.x + grow, hi.y + grow);
  uint32_t stamp = next_stamp(scratch);
  int32_t c0 = an_grid_column(grid, lo.x), c1 = an_grid_column(grid, hi.x);
  int32_t r0 = an_grid_row(grid, lo.y), r1 = an_grid_row(grid, hi.y);
  for (int32_t row = r0; row <= r1; ++row) {
    for (int32_t column = c0; column <= c1; ++column) {
      if (!visit_cell(cl, scratch, stamp, column, row, arc_item_is_clear, &shape)) {
        return false;
      }
    }
  }
  return true;
}
