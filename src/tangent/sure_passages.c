// SPDX-License-Identifier: MIT
// Passages a disk surely gets through (sure_passages.h; docs/DESIGN.md, "Reachability without a
// search").
#include "tangent/sure_passages.h"

#include <math.h>
#include <string.h>

// The forest's blocks: the portals owned by the free triangles of one block of the mesh's
// (an_navmesh_block_of()).
static size_t block_size(const an_navmesh *mesh) {
  return (size_t)1 << mesh->block_shift;
}

/// The node of the portal across edge i of free triangle t, when a free triangle lies across it:
/// portals are numbered on the lower-numbered of their two triangles, in that triangle's block.
static bool portal_node(const an_sure_passages *sure, int32_t t, int i, an_forest_ref *node) {
  const int32_t *fn = sure->mesh->fn;
  int32_t u = fn[3 * (size_t)t + (size_t)i];
  if (u < 0) {
    return false;
  }
  int32_t owner = t < u ? t : u, other = t < u ? u : t;
  int k = an_navmesh_edge_across(fn, (size_t)owner, other);
  *node = (an_forest_ref){an_navmesh_block_of(sure->mesh, (size_t)owner),
                          sure->portal_index[3 * (size_t)owner + (size_t)k]};
  return true;
}

// A triangle with three portals links them in a cycle, whose narrowest link no widest chain
// needs (the other two join its ends at least as wide): the forest gets the other two, a third
// fewer links to sort. Is link i of the triangle with these widths one the forest gets?
static bool link_in_forest(const float width[3], int i) {
  if (isnan(width[i])) {
    return false;
  }
  if (isnan(width[0]) || isnan(width[1]) || isnan(width[2])) {
    return true;
  }
  int narrowest = width[1] < width[0] ? 1 : 0;
  narrowest = width[2] < width[narrowest] ? 2 : narrowest;
  return i != narrowest;
}

static vec2 portal_middle(const an_navmesh *mesh, int32_t t, int i) {
  const int32_t *v = &mesh->fv[3 * (size_t)t];
  return v2_lerp(mesh->cdt.points[v[an_cdt_next3(i)]], mesh->cdt.points[v[an_cdt_prev3(i)]], 0.5);
}

/// A bound on the clearance of the midpoint of the portal across edge i of triangle t: half its
/// length, as far as the nearer of its ends that is material (the box's corners are not);
/// INFINITY between two corners.
static double half_portal(const an_navmesh *mesh, int32_t t, int i) {
  const int32_t *v = &mesh->fv[3 * (size_t)t];
  int32_t a = v[an_cdt_next3(i)], b = v[an_cdt_prev3(i)];
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
  uint32_t count;
  const uint32_t *ids = an_cell_table_list(&grid->cells, cell, &count);
  for (uint32_t k = 0; k < count; ++k) {
    const an_item *item = &grid->items[ids[k]];
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
    walk->nearest = an_min(walk->nearest, an_item_segment_dist(item, walk->a, walk->b));
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

// What a build after a change knows of each free triangle: new (numbered anew, or made by the
// change), the same as before (an_navmesh_kept_triangles()) and far from the change (its links
// carried over), or the same but near it (its links measured again).
enum { TRIANGLE_NEW = 0, TRIANGLE_SAME = 1, TRIANGLE_SAME_NEAR = 2 };

// The first triangle from t on (n when none) that is not TRIANGLE_SAME in `kept`: after a local
// change nearly all are, so runs of them are skipped eight at a time.
static size_t next_not_same(const uint8_t *kept, size_t t, size_t n) {
  const uint64_t all_same = UINT64_C(0x0101010101010101) * TRIANGLE_SAME;
  for (uint64_t word; t + sizeof word <= n; t += sizeof word) {
    memcpy(&word, kept + t, sizeof word);
    if (word != all_same) {
      break;
    }
  }
  while (t < n && kept[t] == TRIANGLE_SAME) {
    ++t;
  }
  return t;
}

// Marks in `kept` the same triangles whose links may pass within the cap of what the change
// touched as near: every triangle that meets the carry's box grown by the cap. Those form one piece
// across the triangulation's edges (the grown box is convex and the triangles tile it), so a walk
// from the triangle holding the box's middle through the triangles whose own boxes meet it finds
// them all, and reads no other triangle's corners; the zero-area connectors are judged by their
// boxes. A triangle that does not meet the grown box holds its links beyond the cap. False when out
// of memory.
static bool forget_near_change(const an_navmesh *mesh, const an_sure_carry *carry, double cap,
                               uint8_t *kept) {
  vec2 lo = v2(carry->lo.x - cap, carry->lo.y - cap), hi = v2(carry->hi.x + cap, carry->hi.y + cap);
  const vec2 *points = mesh->cdt.points;
  size_t regular = mesh->free_count - mesh->connector_count;
  for (size_t t = regular; t < mesh->free_count; ++t) {
    if (triangle_box_meets(points, &mesh->fv[3 * t], lo, hi)) {
      kept[t] = kept[t] ? TRIANGLE_SAME_NEAR : TRIANGLE_NEW;
    }
  }
  int32_t first = an_navmesh_locate_cdt(mesh, v2_lerp(carry->lo, carry->hi, 0.5));
  if (first < 0) {
    // The box's middle lies beyond the triangulation: every triangle is judged by its box.
    for (size_t t = 0; t < regular; ++t) {
      if (triangle_box_meets(points, &mesh->fv[3 * t], lo, hi)) {
        kept[t] = kept[t] ? TRIANGLE_SAME_NEAR : TRIANGLE_NEW;
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
      kept[t] = kept[t] ? TRIANGLE_SAME_NEAR : TRIANGLE_NEW;
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

// The width of each link of free triangle t, from the portal across edge i to the one across
// edge i + 1: NaN where either is missing.
static void measure_links(const an_navmesh *mesh, const an_sure_passages *sure, const an_grid *grid,
                          double cap, size_t t, float *width) {
  for (int i = 0; i < 3; ++i) {
    int j = an_cdt_next3(i);
    an_forest_ref a, b;
    width[i] = NAN;
    if (!portal_node(sure, (int32_t)t, i, &a) || !portal_node(sure, (int32_t)t, j, &b)) {
      continue;
    }
    // The link passes through both midpoints: a tight bound from the start dismisses most items.
    double bound =
        an_min(cap, an_min(half_portal(mesh, (int32_t)t, i), half_portal(mesh, (int32_t)t, j)));
    width[i] = an_float_at_most(segment_clearance(grid, portal_middle(mesh, (int32_t)t, i),
                                                  portal_middle(mesh, (int32_t)t, j), bound));
  }
}

enum { NO_PORTAL = UINT16_MAX };

// Numbers the portals that the new triangles of block `block` own (all of them without `kept`),
// in the numbers the others' portals leave free, lowest first. `used` holds 3 bytes a triangle of
// a block.
static void number_new_portals(const an_navmesh *mesh, const uint8_t *kept, size_t block,
                               uint16_t *portal_index, uint8_t *used) {
  size_t first, end;
  an_navmesh_block_triangles(mesh, block, &first, &end);
  if (kept && !memchr(kept + first, TRIANGLE_NEW, end - first)) {
    return; // a block changed for its neighbours' sake keeps every number
  }
  memset(used, 0, 3 * block_size(mesh));
  for (size_t t = first; kept && t < end; ++t) {
    for (int i = 0; kept[t] != TRIANGLE_NEW && i < 3; ++i) {
      if (mesh->fn[3 * t + (size_t)i] > (int32_t)t) {
        used[portal_index[3 * t + (size_t)i]] = 1;
      }
    }
  }
  uint16_t next = 0;
  for (size_t t = first; t < end; ++t) {
    for (int i = 0; (!kept || kept[t] == TRIANGLE_NEW) && i < 3; ++i) {
      if (mesh->fn[3 * t + (size_t)i] > (int32_t)t) {
        while (used[next]) {
          ++next;
        }
        used[next] = 1;
        portal_index[3 * t + (size_t)i] = next;
      } else {
        portal_index[3 * t + (size_t)i] = NO_PORTAL;
      }
    }
  }
}

typedef struct block_links {
  size_t block;
  an_widest_link *inner; ///< both ends in the block
  an_cross_link *cross;  ///< one end in the block
  size_t inner_count, cross_count;
} block_links;

// The links free triangle g gives the forest that touch the block's portals.
static void gather_links(const an_sure_passages *sure, int32_t g, block_links *out) {
  an_forest_ref node[3];
  for (int i = 0; i < 3; ++i) {
    node[i] = (an_forest_ref){UINT32_MAX, 0};
    portal_node(sure, g, i, &node[i]);
  }
  const float *width = &sure->link_width[3 * (size_t)g];
  for (int i = 0; i < 3; ++i) {
    if (!link_in_forest(width, i)) {
      continue;
    }
    an_forest_ref a = node[i], b = node[an_cdt_next3(i)];
    bool in_a = a.block == out->block, in_b = b.block == out->block;
    if (in_a && in_b) {
      out->inner[out->inner_count++] =
          (an_widest_link){width[i], (int32_t)a.index, (int32_t)b.index};
    } else if (in_a || in_b) {
      out->cross[out->cross_count++] =
          (an_cross_link){width[i], in_a ? a.index : b.index, in_a ? b : a};
    }
  }
}

// Sets block `block` of the forest: its portals (numbers no portal holds are nodes without
// links), the links among them and the links from them to other blocks' portals. A link touching
// a portal belongs to one of the portal's two triangles: one of the block's, or a higher-numbered
// one across a portal the block owns, taken from the lowest such portal's triangle. `inner` and
// `cross` hold 9 links a triangle of a block each: each triangle gives at most three, the block's
// and those across.
static arcnav_status set_block(an_sure_passages *sure, size_t block, an_widest_link *inner,
                               an_cross_link *cross, const an_allocator *alloc) {
  const an_navmesh *mesh = sure->mesh;
  size_t first, end;
  an_navmesh_block_triangles(mesh, block, &first, &end);
  block_links links = {block, inner, cross, 0, 0};
  uint32_t portals = 0;
  for (size_t t = first; t < end; ++t) {
    gather_links(sure, (int32_t)t, &links);
    for (int i = 0; i < 3; ++i) {
      int32_t u = mesh->fn[3 * t + (size_t)i];
      if (u <= (int32_t)t) {
        continue;
      }
      uint32_t here = sure->portal_index[3 * t + (size_t)i];
      portals = here + 1 > portals ? here + 1 : portals;
      if ((size_t)u < end) {
        continue; // the block's own
      }
      bool lowest = true;
      for (int k = 0; k < 3; ++k) {
        int32_t v = mesh->fn[3 * (size_t)u + (size_t)k];
        lowest &= v < (int32_t)first || v >= (int32_t)t;
      }
      if (lowest) {
        gather_links(sure, u, &links);
      }
    }
  }
  return an_blocked_forest_set_block(&sure->forest, block, portals, inner, links.inner_count, cross,
                                     links.cross_count, alloc);
}

// Marks the blocks holding the portals of free triangle t.
static void mark_portal_blocks(const an_navmesh *mesh, size_t t, uint8_t *changed) {
  for (int i = 0; i < 3; ++i) {
    int32_t u = mesh->fn[3 * t + (size_t)i];
    if (u >= 0) {
      changed[an_navmesh_block_of(mesh, (size_t)an_min(u, (int32_t)t))] = 1;
    }
  }
}

// Which blocks a build after a local change makes again (`kept` as forget_near_change leaves it):
// those holding a portal of a triangle whose links are measured again, or of a neighbour of a new
// one (whose links name the new one's portals, numbered anew); those holding a new triangle or
// numbers the mesh no longer has. NULL when out of memory.
static uint8_t *changed_blocks(const an_navmesh *mesh, const an_navmesh *before,
                               const uint8_t *kept, size_t blocks, const an_allocator *alloc) {
  size_t n = mesh->free_count;
  uint8_t *changed = an_calloc(alloc, blocks + 1, sizeof *changed);
  if (!changed) {
    return NULL;
  }
  if (n < before->free_count && n % block_size(mesh) != 0) {
    changed[an_navmesh_block_of(mesh, n)] = 1;
  }
  for (size_t t = next_not_same(kept, 0, n); t < n; t = next_not_same(kept, t + 1, n)) {
    mark_portal_blocks(mesh, t, changed);
    if (kept[t] != TRIANGLE_NEW) {
      continue;
    }
    changed[an_navmesh_block_of(mesh, t)] = 1;
    for (int i = 0; i < 3; ++i) {
      int32_t u = mesh->fn[3 * t + (size_t)i];
      if (u >= 0) {
        mark_portal_blocks(mesh, (size_t)u, changed);
      }
    }
  }
  return changed;
}

arcnav_status an_sure_passages_build(const an_navmesh *mesh, const an_grid *grid, double cap,
                                     const an_sure_carry *carry, const an_allocator *alloc,
                                     an_sure_passages *out) {
  size_t n = mesh->free_count, blocks = an_navmesh_block_count(mesh);
  *out = (an_sure_passages){mesh, NULL, NULL, {0}};
  // A mesh and its copies keep their blocks; another mesh carries nothing over.
  const an_sure_passages *previous =
      carry && carry->previous->mesh->block_shift == mesh->block_shift ? carry->previous : NULL;
  out->portal_index = an_alloc(alloc, 3 * n + 1, sizeof *out->portal_index);
  out->link_width = an_alloc(alloc, 3 * n + 1, sizeof *out->link_width);
  an_widest_link *inner = an_alloc(alloc, 9 * block_size(mesh), sizeof *inner);
  an_cross_link *cross = an_alloc(alloc, 9 * block_size(mesh), sizeof *cross);
  uint8_t *used = an_alloc(alloc, 3 * block_size(mesh), sizeof *used);
  uint8_t *kept = previous ? an_navmesh_kept_triangles(previous->mesh, mesh) : NULL;
  uint8_t *changed = NULL;
  bool ready = out->portal_index && out->link_width && inner && cross && used &&
               (!previous || kept) && (!kept || forget_near_change(mesh, carry, cap, kept)) &&
               (!kept || (changed = changed_blocks(mesh, previous->mesh, kept, blocks, alloc)));
  arcnav_status status = ready
                             ? an_blocked_forest_begin(blocks, previous ? &previous->forest : NULL,
                                                       changed, alloc, &out->forest)
                             : ARCNAV_ERR_OUT_OF_MEMORY;
  if (status == ARCNAV_OK) {
    // The numbers first (a link is filed by its portals' numbers): the kept triangles keep theirs,
    // the new ones take what is free in their blocks.
    size_t carried = previous ? an_min(n, previous->mesh->free_count) : 0;
    if (carried > 0) {
      memcpy(out->portal_index, previous->portal_index, 3 * carried * sizeof *out->portal_index);
      memcpy(out->link_width, previous->link_width, 3 * carried * sizeof *out->link_width);
    }
    for (size_t b = 0; b < blocks; ++b) {
      if (!changed || changed[b]) {
        number_new_portals(mesh, kept, b, out->portal_index, used);
      }
    }
    // What the change left as it was and far from it keeps its widths.
    for (size_t t = kept ? next_not_same(kept, 0, n) : 0; t < n;
         t = kept ? next_not_same(kept, t + 1, n) : t + 1) {
      measure_links(mesh, out, grid, cap, t, &out->link_width[3 * t]);
    }
    for (size_t b = 0; status == ARCNAV_OK && b < blocks; ++b) {
      if (!changed || changed[b]) {
        status = set_block(out, b, inner, cross, alloc);
      }
    }
  }
  if (status == ARCNAV_OK) {
    status = an_blocked_forest_finish(&out->forest, alloc);
  }
  an_free(&mesh->alloc, kept);
  an_free(alloc, changed);
  an_free(alloc, inner);
  an_free(alloc, cross);
  an_free(alloc, used);
  if (status != ARCNAV_OK) {
    an_sure_passages_destroy(out, alloc);
  }
  return status;
}

void an_sure_passages_destroy(an_sure_passages *sure, const an_allocator *alloc) {
  an_blocked_forest_destroy(&sure->forest, alloc);
  an_free(alloc, sure->portal_index);
  an_free(alloc, sure->link_width);
  sure->portal_index = NULL;
  sure->link_width = NULL;
}

size_t an_sure_passages_memory_bytes(const an_sure_passages *sure) {
  return an_blocked_forest_memory_bytes(&sure->forest) +
         (sure->portal_index
              ? 3 * sure->mesh->free_count * (sizeof *sure->portal_index + sizeof *sure->link_width)
              : 0);
}

double an_sure_passages_width(const an_sure_passages *sure, int32_t ta, int ia, int32_t tb,
                              int ib) {
  an_forest_ref a, b;
  if (!portal_node(sure, ta, ia, &a) || !portal_node(sure, tb, ib, &b)) {
    return NAN;
  }
  return an_blocked_forest_width(&sure->forest, a, b);
}

/// The portals an end sees, one at a time: those of the triangle holding it whose midpoint it sees
/// along a free segment, else, when it sees none of them, the further portals of the triangle's
/// neighbours whose midpoint it sees. A place a disk touches walls at (the nearest place it fits,
/// in a corner) often sees none of its own triangle's midpoints, the segments to them running
/// closer to a wall than R, but one a triangle further on (docs/DESIGN.md, "Reachability without
/// a search").
// Where next_seen() looks: the triangle's own 3 edges, then 3 edges of each of its 3 neighbours
// (one of them the shared edge, skipped); so at most 6 portals seen, the neighbours' further ones.
enum { SEEN_CANDIDATES = 3 + 3 * 3, SEEN_MAX = 3 * 2 };

typedef struct seen_portals {
  const an_sure_passages *sure;
  const an_clearance *settings;
  an_clearance_scratch *scratch;
  int32_t tri;
  vec2 p;
  int next; ///< 0 to 2: the triangle's own edges; then 3 for each neighbour, by its edges
  bool own_seen;
} seen_portals;

// The next portal the end sees, if any; once none is left, none ever is.
static bool next_seen(seen_portals *it, an_forest_ref *node) {
  const an_sure_passages *sure = it->sure;
  const int32_t *fn = sure->mesh->fn;
  while (it->next < SEEN_CANDIDATES) {
    int k = it->next++;
    int32_t tri = it->tri;
    int edge = k;
    if (k >= 3) {
      if (it->own_seen) {
        it->next = SEEN_CANDIDATES;
        return false;
      }
      tri = fn[3 * (size_t)it->tri + (size_t)(k - 3) / 3];
      edge = (k - 3) % 3;
      if (tri < 0 || edge == an_navmesh_edge_across(fn, (size_t)tri, it->tri)) {
        continue;
      }
    }
    if (portal_node(sure, tri, edge, node) &&
        an_segment_is_free(it->settings, it->scratch, it->p,
                           portal_middle(sure->mesh, tri, edge))) {
      it->own_seen |= k < 3;
      return true;
    }
  }
  return false;
}

// The portals `it` sees, each found once, when first asked for: whether the j-th is there (in
// seen[j]), `*found` of them found so far, asked for in order.
static bool seen_at(seen_portals *it, an_forest_ref *seen, size_t *found, size_t j) {
  if (j == *found && next_seen(it, &seen[j])) {
    ++*found;
  }
  return j < *found;
}

bool an_sure_passages_join(const an_sure_passages *sure, const an_clearance *settings,
                           an_clearance_scratch *scratch, vec2 a, int32_t ta, vec2 b, int32_t tb) {
  if (!sure->forest.blocks) {
    return false;
  }
  if (ta == tb && an_segment_is_free(settings, scratch, a, b)) {
    return true;
  }
  // Yes when the forest joins some portal a sees to some portal b sees: the answer is the sets',
  // whatever order a mesh lists a triangle's edges in (a mesh changed locally may list them
  // otherwise than one built afresh). The portals b sees are tested once, as they are needed.
  seen_portals from = {sure, settings, scratch, ta, a, 0, false};
  seen_portals to = {sure, settings, scratch, tb, b, 0, false};
  an_forest_ref na, nb[SEEN_MAX];
  size_t nb_count = 0;
  while (next_seen(&from, &na)) {
    for (size_t j = 0; seen_at(&to, nb, &nb_count, j); ++j) {
      if (an_blocked_forest_width(&sure->forest, na, nb[j]) >= settings->radius - settings->eps) {
        return true;
      }
    }
  }
  return false;
}
