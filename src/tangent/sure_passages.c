// SPDX-License-Identifier: MIT
// Passages a disk surely gets through (sure_passages.h; docs/DESIGN.md, "Reachability without a
// search").
#include "tangent/sure_passages.h"

#include <math.h>

/// The node of the portal across edge i of free triangle t, or -1 when no free triangle lies
/// across it: portals are numbered on the lower-numbered of their two triangles, in its edges'
/// order, from portal_first of that triangle on.
static int32_t portal_node(const an_sure_passages *sure, int32_t t, int i) {
  const int32_t *fn = sure->mesh->fn;
  int32_t u = fn[3 * (size_t)t + (size_t)i];
  if (u < 0) {
    return -1;
  }
  int32_t owner = t < u ? t : u, other = t < u ? u : t;
  int32_t node = (int32_t)sure->portal_first[owner];
  for (int k = 0; k < 3; ++k) {
    int32_t across = fn[3 * (size_t)owner + (size_t)k];
    if (across == other) {
      return node;
    }
    node += across > owner;
  }
  return -1;
}

static vec2 portal_middle(const an_navmesh *mesh, int32_t t, int i) {
  const int32_t *v = &mesh->fv[3 * (size_t)t];
  return v2_lerp(mesh->cdt.points[v[(i + 1) % 3]], mesh->cdt.points[v[(i + 2) % 3]], 0.5);
}

/// A bound on the clearance of the midpoint of the portal across edge i of triangle t: half its
/// length, as far as the nearer of its ends that is material (the box's corners are not);
/// INFINITY between two corners.
static double half_portal(const an_navmesh *mesh, int32_t t, int i) {
  const int32_t *v = &mesh->fv[3 * (size_t)t];
  int32_t a = v[(i + 1) % 3], b = v[(i + 2) % 3];
  if (a < 4 && b < 4) {
    return INFINITY;
  }
  return 0.5 * v2_dist(mesh->cdt.points[a], mesh->cdt.points[b]);
}

typedef struct clearance_walk {
  const an_grid *grid;
  vec2 a, b;
  vec2 along; ///< unit vector from a to b (zero for a point)
  double length;
  double nearest;
} clearance_walk;

// The items of a cell the segment passes through: the nearest so far. An item whose ends both lie
// beyond the nearest distance on one side of the segment's line, or past one of its ends, is no
// nearer: most items of a cell are dismissed so, without a distance.
static bool visit_nearest(void *context, int32_t column, int32_t row) {
  clearance_walk *walk = context;
  const an_grid *grid = walk->grid;
  size_t cell = (size_t)row * (size_t)grid->columns + (size_t)column;
  vec2 across = v2(-walk->along.y, walk->along.x);
  for (uint32_t k = grid->cell_start[cell]; k < grid->cell_start[cell + 1]; ++k) {
    const an_item *item = &grid->items[grid->cell_items[k]];
    bool edge = item->kind == AN_ITEM_EDGE;
    double reach = walk->nearest + (edge ? 0.0 : item->radius);
    vec2 item_end = an_item_end(item);
    vec2 pa = v2_sub(item->a, walk->a), pb = v2_sub(item_end, walk->a);
    double side_a = v2_dot(across, pa), side_b = v2_dot(across, pb);
    double on_a = v2_dot(walk->along, pa), on_b = v2_dot(walk->along, pb);
    if ((side_a >= reach && side_b >= reach) || (side_a <= -reach && side_b <= -reach) ||
        (on_a <= -reach && on_b <= -reach) ||
        (on_a >= walk->length + reach && on_b >= walk->length + reach)) {
      continue;
    }
    double d = edge ? an_segment_segment_dist(walk->a, walk->b, item->a, item_end)
                    : an_point_segment_dist(item->a, walk->a, walk->b) - item->radius;
    walk->nearest = an_min(walk->nearest, d);
  }
  return true;
}

/// The distance from segment ab to the nearest item, or `cap` when none is nearer: every item
/// within the grid's reach of the segment is filed in a cell the segment passes through. `cap`
/// may also be a distance already known to some material.
static double segment_clearance(const an_grid *grid, vec2 a, vec2 b, double cap) {
  double length = v2_dist(a, b);
  vec2 along = length > 0.0 ? v2_scale(v2_sub(b, a), 1.0 / length) : v2(0.0, 0.0);
  clearance_walk walk = {grid, a, b, along, length, cap};
  vec2 p = a, q = b;
  if (grid->item_count > 0 && an_grid_clip_segment(grid, &p, &q)) {
    an_grid_walk_clipped(grid, p, q, visit_nearest, &walk);
  }
  return walk.nearest;
}

// Does the box of the triangle with corners `v` (indices into `points`) meet [lo, hi]?
static bool triangle_box_meets(const vec2 *points, const int32_t v[3], vec2 lo, vec2 hi) {
  vec2 a = points[v[0]], b = points[v[1]], c = points[v[2]];
  return an_max(a.x, an_max(b.x, c.x)) >= lo.x && an_min(a.x, an_min(b.x, c.x)) <= hi.x &&
         an_max(a.y, an_max(b.y, c.y)) >= lo.y && an_min(a.y, an_min(b.y, c.y)) <= hi.y;
}

// Takes out of `kept` the free triangles whose links may pass within the cap of what the change
// touched: every triangle that meets the carry's box grown by the cap. Those form one piece across
// the triangulation's edges (the grown box is convex and the triangles tile it), so a walk from the
// triangle holding the box's middle through the triangles whose own boxes meet it finds them all,
// and reads no other triangle's corners; the zero-area connectors are judged by their boxes. A
// triangle that does not meet the grown box holds its links beyond the cap. False when out of
// memory.
static bool forget_near_change(const an_navmesh *mesh, const an_sure_carry *carry, double cap,
                               uint8_t *kept) {
  vec2 lo = v2(carry->lo.x - cap, carry->lo.y - cap), hi = v2(carry->hi.x + cap, carry->hi.y + cap);
  const vec2 *points = mesh->cdt.points;
  size_t regular = mesh->free_count - mesh->connector_count;
  for (size_t t = regular; t < mesh->free_count; ++t) {
    if (triangle_box_meets(points, &mesh->fv[3 * t], lo, hi)) {
      kept[t] = 0;
    }
  }
  int32_t first = an_navmesh_locate_cdt(mesh, v2_lerp(carry->lo, carry->hi, 0.5));
  if (first < 0) {
    // The box's middle lies beyond the triangulation: every triangle is judged by its box.
    for (size_t t = 0; t < regular; ++t) {
      if (triangle_box_meets(points, &mesh->fv[3 * t], lo, hi)) {
        kept[t] = 0;
      }
    }
    return true;
  }
  const an_cdt *cdt = &mesh->cdt;
  uint8_t *seen = an_calloc(&mesh->alloc, cdt->tri_count, sizeof *seen);
  int32_t *stack = an_alloc(&mesh->alloc, cdt->tri_count, sizeof *stack);
  if (!seen || !stack) {
    an_free(&mesh->alloc, seen);
    an_free(&mesh->alloc, stack);
    return false;
  }
  size_t depth = 0;
  stack[depth++] = first;
  seen[first] = 1;
  while (depth > 0) {
    int32_t ct = stack[--depth];
    const an_cdt_tri *tri = &cdt->tris[ct];
    if (!triangle_box_meets(points, tri->v, lo, hi)) {
      continue;
    }
    int32_t t = mesh->free_of[ct];
    if (t >= 0) {
      kept[t] = 0;
    }
    for (int i = 0; i < 3; ++i) {
      int32_t next = tri->n[i];
      if (next >= 0 && !seen[next]) {
        seen[next] = 1;
        stack[depth++] = next;
      }
    }
  }
  an_free(&mesh->alloc, seen);
  an_free(&mesh->alloc, stack);
  return true;
}

arcnav_status an_sure_passages_build(const an_navmesh *mesh, const an_grid *grid, double cap,
                                     const an_sure_carry *carry, const an_allocator *alloc,
                                     an_sure_passages *out) {
  size_t n = mesh->free_count, count = 0;
  *out = (an_sure_passages){mesh, NULL, NULL, {0, NULL}};
  an_widest_link *links = an_alloc(alloc, 3 * n + 1, sizeof *links);
  out->portal_first = an_alloc(alloc, n > 0 ? n : 1, sizeof *out->portal_first);
  out->link_width = an_alloc(alloc, 3 * n + 1, sizeof *out->link_width);
  uint8_t *kept = carry ? an_navmesh_kept_triangles(carry->previous->mesh, mesh) : NULL;
  if (!links || !out->portal_first || !out->link_width || (carry && !kept) ||
      (kept && !forget_near_change(mesh, carry, cap, kept))) {
    an_free(alloc, links);
    an_free(&mesh->alloc, kept);
    an_sure_passages_destroy(out, alloc);
    return ARCNAV_ERR_OUT_OF_MEMORY;
  }
  uint32_t portals = 0;
  for (size_t t = 0; t < n; ++t) {
    out->portal_first[t] = portals;
    for (int i = 0; i < 3; ++i) {
      portals += mesh->fn[3 * t + (size_t)i] > (int32_t)t;
    }
  }
  for (size_t t = 0; t < n; ++t) {
    int32_t node[3];
    for (int i = 0; i < 3; ++i) {
      node[i] = portal_node(out, (int32_t)t, i);
    }
    // What the change left as it was and far from it keeps its widths.
    const float *carried = kept && kept[t] ? &carry->previous->link_width[3 * t] : NULL;
    float *width = &out->link_width[3 * t];
    for (int i = 0; i < 3; ++i) {
      int j = (i + 1) % 3;
      width[i] = NAN;
      if (node[i] < 0 || node[j] < 0) {
        continue;
      }
      if (carried && !isnan(carried[i])) {
        width[i] = carried[i];
      } else {
        // The link passes through both midpoints: a tight bound from the start dismisses most
        // items.
        double bound =
            an_min(cap, an_min(half_portal(mesh, (int32_t)t, i), half_portal(mesh, (int32_t)t, j)));
        width[i] = an_float_at_most(segment_clearance(grid, portal_middle(mesh, (int32_t)t, i),
                                                      portal_middle(mesh, (int32_t)t, j), bound));
      }
    }
    // A triangle with three portals links them in a cycle, whose narrowest link no widest chain
    // needs (the other two join its ends at least as wide): the forest gets the other two, a
    // third fewer links to sort.
    int narrowest = -1;
    if (!isnan(width[0]) && !isnan(width[1]) && !isnan(width[2])) {
      narrowest = width[1] < width[0] ? 1 : 0;
      narrowest = width[2] < width[narrowest] ? 2 : narrowest;
    }
    for (int i = 0; i < 3; ++i) {
      if (!isnan(width[i]) && i != narrowest) {
        links[count++] = (an_widest_link){width[i], node[i], node[(i + 1) % 3]};
      }
    }
  }
  an_free(&mesh->alloc, kept);
  arcnav_status status = an_widest_forest_build(portals, links, count, alloc, &out->forest);
  an_free(alloc, links);
  if (status != ARCNAV_OK) {
    an_sure_passages_destroy(out, alloc);
  }
  return status;
}

void an_sure_passages_destroy(an_sure_passages *sure, const an_allocator *alloc) {
  an_widest_forest_destroy(&sure->forest, alloc);
  an_free(alloc, sure->portal_first);
  an_free(alloc, sure->link_width);
  sure->portal_first = NULL;
  sure->link_width = NULL;
}

size_t an_sure_passages_memory_bytes(const an_sure_passages *sure) {
  return an_widest_forest_memory_bytes(&sure->forest) +
         (sure->portal_first
              ? sure->mesh->free_count * (sizeof *sure->portal_first + 3 * sizeof *sure->link_width)
              : 0);
}

/// The first portal of the triangle holding p whose midpoint p sees along a free segment: its
/// node, or -1.
static int32_t seen_portal(const an_sure_passages *sure, const an_clearance *settings,
                           an_clearance_scratch *scratch, int32_t tri, vec2 p) {
  for (int i = 0; i < 3; ++i) {
    int32_t node = portal_node(sure, tri, i);
    if (node >= 0 && an_segment_is_free(settings, scratch, p, portal_middle(sure->mesh, tri, i))) {
      return node;
    }
  }
  return -1;
}

bool an_sure_passages_join(const an_sure_passages *sure, const an_clearance *settings,
                           an_clearance_scratch *scratch, vec2 a, int32_t ta, vec2 b, int32_t tb) {
  if (!sure->forest.nodes) {
    return false;
  }
  if (ta == tb && an_segment_is_free(settings, scratch, a, b)) {
    return true;
  }
  int32_t na = seen_portal(sure, settings, scratch, ta, a);
  int32_t nb = na >= 0 ? seen_portal(sure, settings, scratch, tb, b) : -1;
  return nb >= 0 &&
         an_widest_forest_width(&sure->forest, na, nb) >= settings->radius - settings->eps;
}
