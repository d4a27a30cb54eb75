// SPDX-License-Identifier: MIT
// Validation of the rings of a new polygon (or of the bounds) against themselves and each other:
// cleaning, shape, contacts between edges (a sweep, then a grid scan of the pairs it flags),
// touches between rings, hole nesting, and splitting edges at the vertices that touch them.
#include "map/ring_check.h"

#include "geom/predicates.h"
#include "geom/tolerances.h"

#include <stdlib.h>
#include <string.h>

static arcnav_status clean_ring_build(const an_allocator *alloc, const vec2 *input, size_t count,
                                      an_clean_ring *out, int *bad_vertex) {
  memset(out, 0, sizeof *out);
  *bad_vertex = -1;
  if (!input || count == 0) {
    return ARCNAV_ERR_TOO_FEW_VERTICES;
  }
  for (size_t i = 0; i < count; ++i) {
    if (!v2_is_finite(input[i])) {
      *bad_vertex = (int)i;
      return ARCNAV_ERR_NOT_FINITE;
    }
    if (!an_coordinate_in_range(input[i].x) || !an_coordinate_in_range(input[i].y)) {
      *bad_vertex = (int)i;
      return ARCNAV_ERR_TOO_LARGE;
    }
  }
  if (count > (size_t)INT32_MAX / 4) {
    return ARCNAV_ERR_TOO_LARGE;
  }
  out->points = an_alloc(alloc, count, sizeof *out->points);
  out->source_index = an_alloc(alloc, count, sizeof *out->source_index);
  if (!out->points || !out->source_index) {
    an_free(alloc, out->points);
    an_free(alloc, out->source_index);
    memset(out, 0, sizeof *out);
    return ARCNAV_ERR_OUT_OF_MEMORY;
  }
  size_t kept = 0;
  for (size_t i = 0; i < count; ++i) {
    if (kept > 0 && input[i].x == out->points[kept - 1].x &&
        input[i].y == out->points[kept - 1].y) {
      continue;
    }
    out->points[kept] = input[i];
    out->source_index[kept] = (int)i;
    ++kept;
  }
  while (kept > 1 && out->points[kept - 1].x == out->points[0].x &&
         out->points[kept - 1].y == out->points[0].y) {
    --kept;
  }
  out->count = kept;
  return ARCNAV_OK;
}

void an_clean_ring_free(const an_allocator *alloc, an_clean_ring *ring) {
  an_free(alloc, ring->points);
  an_free(alloc, ring->source_index);
  memset(ring, 0, sizeof *ring);
}

static double ring_scale(const an_clean_ring *ring) {
  double min_x = ring->points[0].x, max_x = min_x, min_y = ring->points[0].y, max_y = min_y;
  for (size_t i = 1; i < ring->count; ++i) {
    min_x = an_min(min_x, ring->points[i].x);
    max_x = an_max(max_x, ring->points[i].x);
    min_y = an_min(min_y, ring->points[i].y);
    max_y = an_max(max_y, ring->points[i].y);
  }
  return an_max(max_x - min_x, max_y - min_y);
}

// Checks that need only the ring itself: enough distinct vertices, and not all on one line. (A
// ring with zero signed area that is not collinear, like a bow-tie, is caught as crossing itself.)
static arcnav_status check_ring_shape(const an_clean_ring *ring) {
  if (ring->count < 3) {
    return ARCNAV_ERR_TOO_FEW_VERTICES;
  }
  vec2 origin = ring->points[0], far = origin;
  for (size_t i = 1; i < ring->count; ++i) {
    if (v2_dist2(ring->points[i], origin) > v2_dist2(far, origin)) {
      far = ring->points[i];
    }
  }
  vec2 axis = v2_normalize(v2_sub(far, origin));
  double scale = ring_scale(ring), widest = 0.0;
  for (size_t i = 1; i < ring->count; ++i) {
    widest = an_max(widest, fabs(v2_cross(axis, v2_sub(ring->points[i], origin))));
  }
  if (widest <= AN_ZERO_AREA_RELATIVE * scale) {
    return ARCNAV_ERR_ZERO_AREA;
  }
  return ARCNAV_OK;
}

typedef struct ring_edge {
  double min_x, max_x, min_y, max_y;
  int ring;   // index among the rings being checked together
  int vertex; // index of the edge's first vertex in the cleaned ring
} ring_edge;

static int compare_edges_by_min_x(const void *lhs, const void *rhs) {
  const ring_edge *a = lhs, *b = rhs;
  return (a->min_x > b->min_x) - (a->min_x < b->min_x);
}

// Do the edges starting at vertices i and j of one ring (j == i + 1, adjacent) overlap beyond
// their shared vertex? That is a spike: the ring folds back on itself.
static bool adjacent_edges_fold(vec2 a, vec2 shared, vec2 c) {
  vec2 u = v2_sub(a, shared), w = v2_sub(c, shared);
  return v2_cross(u, w) == 0.0 && v2_dot(u, w) > 0.0;
}

// --- contact detection: a Shamos-Hoey sweep ---------------------------------------------------
//
// A sweep line moves left to right over the edges (endpoints ordered by x, then y); the edges it
// crosses are kept in a treap ordered bottom to top. As long as no two edges meet, that order
// never changes, and the first contact (leftmost point where two edges meet) is between two edges
// that are neighbours in the order at some event before it; so testing each pair of edges when it
// becomes neighbouring finds a contact whenever there is one, in O(n log n). All decisions use the
// exact orientation sign, so the sweep never loses its order to rounding.

typedef struct sweep_edge {
  vec2 left, right; // lexicographically smaller endpoint first
  int ring, vertex;
} sweep_edge;

typedef struct sweep_node {
  int child[2], parent; // -1 for none
  int prev, next;       // neighbours below and above in the sweep order
  uint32_t priority;
} sweep_node;

typedef struct sweep_event {
  vec2 point;
  int is_end; // at one point, every edge starting there goes in before any ending there leaves
  int edge;
} sweep_event;

typedef struct sweep {
  const an_clean_ring *rings;
  sweep_edge *edges;
  sweep_node *nodes;
  int root;
  double near; // distance below which two edges may be seen touching by rounded tests
} sweep;

static int compare_points(vec2 a, vec2 b) {
  if (a.x != b.x) {
    return a.x < b.x ? -1 : 1;
  }
  return (a.y > b.y) - (a.y < b.y);
}

static int compare_events(const void *lhs, const void *rhs) {
  const sweep_event *a = lhs, *b = rhs;
  int c = compare_points(a->point, b->point);
  if (c != 0) {
    return c;
  }
  if (a->is_end != b->is_end) {
    return a->is_end - b->is_end;
  }
  return (a->edge > b->edge) - (a->edge < b->edge);
}

// If edges e and f are consecutive in one ring, stores their shared vertex and returns true.
static bool edges_adjacent(const sweep *sw, int e, int f, vec2 *shared) {
  const sweep_edge *a = &sw->edges[e], *b = &sw->edges[f];
  if (a->ring != b->ring) {
    return false;
  }
  const an_clean_ring *ring = &sw->rings[a->ring];
  size_t n = ring->count, va = (size_t)a->vertex, vb = (size_t)b->vertex;
  if ((va + 1) % n == vb) {
    *shared = ring->points[vb];
    return true;
  }
  if ((vb + 1) % n == va) {
    *shared = ring->points[va];
    return true;
  }
  return false;
}

// Might edges e and f meet where they should not (non-adjacent edges sharing any point, adjacent
// edges overlapping beyond their shared vertex)? The sweep only needs to notice a possible contact:
// the pairwise test then decides with the rounded arithmetic it has always used. So besides the
// exact answer this says yes to non-adjacent edges closer than the sweep's `near` distance, which
// the rounded test may see touching (decimal coordinates that are collinear only up to rounding).
static bool edges_meet(const sweep *sw, int e, int f) {
  const sweep_edge *a = &sw->edges[e], *b = &sw->edges[f];
  vec2 shared;
  if (!edges_adjacent(sw, e, f, &shared)) {
    return an_segments_intersect_exact(a->left, a->right, b->left, b->right) ||
           an_segment_segment_dist(a->left, a->right, b->left, b->right) <= sw->near;
  }
  vec2 u = compare_points(a->left, shared) == 0 ? a->right : a->left;
  vec2 w = compare_points(b->left, shared) == 0 ? b->right : b->left;
  // Differences of doubles keep their signs, so for collinear u and w the dot's sign is exact.
  // Nearly folding counts too: a third edge from u or w can then touch one of these in rounding
  // while the sweep keeps it apart from it.
  return adjacent_edges_fold(u, shared, w) ||
         (an_orient2d(shared, u, w) == 0.0 && v2_dot(v2_sub(u, shared), v2_sub(w, shared)) > 0.0) ||
         an_point_segment_dist(u, shared, w) <= sw->near ||
         an_point_segment_dist(w, shared, u) <= sw->near;
}

// Where edge `e` (starting at its left endpoint) goes relative to active edge `t`: 1 above, -1
// below, 0 when they meet (the caller stops).
static int sweep_side(const sweep *sw, int e, int t) {
  const sweep_edge *s = &sw->edges[e], *a = &sw->edges[t];
  int side = an_sign(an_orient2d(a->left, a->right, s->left));
  if (side != 0) {
    return side;
  }
  // An active edge spans the sweep position, so s's left endpoint lies on it. That is a contact
  // unless the two are ring neighbours sharing exactly that point; then the far end decides.
  vec2 shared;
  if (!edges_adjacent(sw, e, t, &shared) || compare_points(shared, s->left) != 0) {
    return 0;
  }
  side = an_sign(an_orient2d(a->left, a->right, s->right));
  if (side != 0) {
    return side;
  }
  // Collinear: fine only when t ends where s starts (the ring goes straight on).
  return compare_points(a->right, s->left) == 0 ? 1 : 0;
}

static void sweep_rotate_up(sweep *sw, int x) {
  sweep_node *n = sw->nodes;
  int p = n[x].parent, g = n[p].parent;
  int dir = n[p].child[1] == x; // x is p's right child: rotate left
  int moved = n[x].child[!dir];
  n[p].child[dir] = moved;
  if (moved >= 0) {
    n[moved].parent = p;
  }
  n[x].child[!dir] = p;
  n[p].parent = x;
  n[x].parent = g;
  if (g < 0) {
    sw->root = x;
  } else {
    n[g].child[n[g].child[1] == p] = x;
  }
}

// Inserts edge e; returns false when it meets an edge it was compared with (stored in *met).
static bool sweep_insert(sweep *sw, int e, int *met) {
  sweep_node *n = sw->nodes;
  n[e].child[0] = n[e].child[1] = -1;
  n[e].prev = n[e].next = -1;
  int parent = -1, dir = 0;
  for (int at = sw->root; at >= 0; at = n[at].child[dir]) {
    int side = sweep_side(sw, e, at);
    if (side == 0) {
      *met = at;
      return false;
    }
    parent = at;
    dir = side > 0;
  }
  n[e].parent = parent;
  if (parent < 0) {
    sw->root = e;
  } else {
    n[parent].child[dir] = e;
    // The parent is the neighbour on the side we came from.
    if (dir) {
      n[e].prev = parent;
      n[e].next = n[parent].next;
    } else {
      n[e].next = parent;
      n[e].prev = n[parent].prev;
    }
    if (n[e].prev >= 0) {
      n[n[e].prev].next = e;
    }
    if (n[e].next >= 0) {
      n[n[e].next].prev = e;
    }
  }
  while (n[e].parent >= 0 && n[n[e].parent].priority < n[e].priority) {
    sweep_rotate_up(sw, e);
  }
  return true;
}

static void sweep_remove(sweep *sw, int e) {
  sweep_node *n = sw->nodes;
  while (n[e].child[0] >= 0 || n[e].child[1] >= 0) {
    int c0 = n[e].child[0], c1 = n[e].child[1];
    int up = c0 < 0 ? c1 : c1 < 0 ? c0 : n[c0].priority > n[c1].priority ? c0 : c1;
    sweep_rotate_up(sw, up);
  }
  int p = n[e].parent;
  if (p < 0) {
    sw->root = -1;
  } else {
    n[p].child[n[p].child[1] == e] = -1;
  }
  if (n[e].prev >= 0) {
    n[n[e].prev].next = n[e].next;
  }
  if (n[e].next >= 0) {
    n[n[e].next].prev = n[e].prev;
  }
}

// Might a pair of edges, among all the given rings, meet where they should not? Stores the first
// such pair found into out_pair (edge indices counted over the rings in order), or -1s.
static arcnav_status sweep_for_contact(const an_allocator *alloc, const an_clean_ring *rings,
                                       size_t ring_count, size_t edge_count, int out_pair[2]) {
  sweep sw = {rings, NULL, NULL, -1, 0.0};
  sw.edges = an_alloc(alloc, edge_count, sizeof *sw.edges);
  sw.nodes = an_alloc(alloc, edge_count, sizeof *sw.nodes);
  sweep_event *events = an_alloc(alloc, 2 * edge_count, sizeof *events);
  if (!sw.edges || !sw.nodes || !events) {
    an_free(alloc, sw.edges);
    an_free(alloc, sw.nodes);
    an_free(alloc, events);
    return ARCNAV_ERR_OUT_OF_MEMORY;
  }
  // Rounded orientation tests err by a few ulps of the coordinates' magnitude; 1e-12 of it is far
  // above that and far below any feature a map means to have.
  double magnitude = 0.0;
  for (size_t r = 0; r < ring_count; ++r) {
    for (size_t i = 0; i < rings[r].count; ++i) {
      magnitude = an_max(magnitude, an_max(fabs(rings[r].points[i].x), fabs(rings[r].points[i].y)));
    }
  }
  sw.near = AN_SWEEP_NEAR_RELATIVE * magnitude;
  size_t e = 0;
  for (size_t r = 0; r < ring_count; ++r) {
    for (size_t i = 0; i < rings[r].count; ++i, ++e) {
      vec2 a = rings[r].points[i], b = rings[r].points[(i + 1) % rings[r].count];
      bool a_first = compare_points(a, b) < 0;
      sw.edges[e] = (sweep_edge){a_first ? a : b, a_first ? b : a, (int)r, (int)i};
      // Deterministic pseudo-random treap priorities (splitmix64 of the index).
      uint64_t z = (uint64_t)e * 0x9E3779B97F4A7C15u + 0x9E3779B97F4A7C15u;
      z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
      z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
      sw.nodes[e].priority = (uint32_t)(z >> 32);
      events[2 * e] = (sweep_event){sw.edges[e].left, 0, (int)e};
      events[2 * e + 1] = (sweep_event){sw.edges[e].right, 1, (int)e};
    }
  }
  qsort(events, 2 * edge_count, sizeof *events, compare_events);
  out_pair[0] = out_pair[1] = -1;
  for (size_t k = 0; k < 2 * edge_count && out_pair[0] < 0; ++k) {
    int edge = events[k].edge, met = -1;
    int below = sw.nodes[edge].prev, above = sw.nodes[edge].next;
    if (!events[k].is_end) {
      if (!sweep_insert(&sw, edge, &met)) {
        out_pair[0] = edge;
        out_pair[1] = met;
        break;
      }
      below = sw.nodes[edge].prev;
      above = sw.nodes[edge].next;
      if (below >= 0 && edges_meet(&sw, edge, below)) {
        out_pair[0] = edge;
        out_pair[1] = below;
      } else if (above >= 0 && edges_meet(&sw, edge, above)) {
        out_pair[0] = edge;
        out_pair[1] = above;
      }
    } else {
      sweep_remove(&sw, edge);
      if (below >= 0 && above >= 0 && edges_meet(&sw, below, above)) {
        out_pair[0] = below;
        out_pair[1] = above;
      }
    }
  }
  an_free(alloc, sw.edges);
  an_free(alloc, sw.nodes);
  an_free(alloc, events);
  return ARCNAV_OK;
}

// --- touching rings -----------------------------------------------------------------------------
//
// Two different rings of one polygon may touch at single points (a hole at its shell, two holes at
// each other), as long as they do not cross, do not overlap along an edge, and the polygon's
// interior stays connected. Once the sweep has found that some pair of edges meets, every pair of
// edges whose boxes overlap is examined (found through a uniform grid): a pair from one ring that
// meets is refused as before, and a pair from two rings is either a touch at one point, which is
// recorded, or refused.

/// A ring passing through a point where it touches another ring: at its vertex `index`, or
/// (on_edge) inside its edge from vertex `index` to the next.
typedef struct ring_touch {
  vec2 point;
  int ring;
  int index;
  int on_edge;
} ring_touch;

typedef struct touch_list {
  ring_touch *items;
  size_t count, capacity;
} touch_list;

static void touch_list_free(const an_allocator *alloc, touch_list *list) {
  an_free(alloc, list->items);
  memset(list, 0, sizeof *list);
}

// Records that edge `vertex` (from a to b) of `ring` passes through p, a point of the closed edge.
static bool record_touch(const an_allocator *alloc, touch_list *list, const an_clean_ring *ring,
                         int ring_index, int vertex, vec2 a, vec2 b, vec2 p) {
  if (!an_reserve(alloc, (void **)&list->items, &list->capacity, list->count, list->count + 1,
                  sizeof *list->items)) {
    return false;
  }
  ring_touch touch = {p, ring_index, vertex, 0};
  if (compare_points(p, b) == 0) {
    touch.index = (int)(((size_t)vertex + 1) % ring->count);
  } else if (compare_points(p, a) != 0) {
    touch.on_edge = 1;
  }
  list->items[list->count++] = touch;
  return true;
}

static vec2 min_point(vec2 a, vec2 b) {
  return compare_points(a, b) <= 0 ? a : b;
}

static vec2 max_point(vec2 a, vec2 b) {
  return compare_points(a, b) <= 0 ? b : a;
}

// Edge ab of ring r (from vertex i) meets edge cd of ring s (from vertex j), r != s, as far as the
// rounded test sees. ARCNAV_OK with both rings' touches recorded when they share exactly one point
// and do not cross there; ARCNAV_ERR_RING_OVERLAP when they overlap along a piece of positive
// length; ARCNAV_ERR_SELF_INTERSECTION when they cross, or when they do not meet exactly but the
// rounded test sees them meeting (later stages, which round too, could see them touch).
static arcnav_status classify_ring_pair(const an_allocator *alloc, touch_list *touches,
                                        const an_clean_ring *rings, int r, int i, int s, int j) {
  const an_clean_ring *rr = &rings[r], *rs = &rings[s];
  vec2 a = rr->points[i], b = rr->points[(size_t)(i + 1) % rr->count];
  vec2 c = rs->points[j], d = rs->points[(size_t)(j + 1) % rs->count];
  if (!an_segments_intersect_exact(a, b, c, d)) {
    return an_segments_intersect(a, b, c, d) ? ARCNAV_ERR_SELF_INTERSECTION : ARCNAV_OK;
  }
  int oa = an_sign(an_orient2d(c, d, a)), ob = an_sign(an_orient2d(c, d, b));
  int oc = an_sign(an_orient2d(a, b, c)), od = an_sign(an_orient2d(a, b, d));
  vec2 p;
  if (oa == 0 && ob == 0 && oc == 0 && od == 0) {
    // Collinear: the common piece runs from the larger of the smaller endpoints to the smaller of
    // the larger ones (lexicographic order is the order along the line).
    vec2 lo = max_point(min_point(a, b), min_point(c, d));
    vec2 hi = min_point(max_point(a, b), max_point(c, d));
    if (compare_points(lo, hi) < 0) {
      return ARCNAV_ERR_RING_OVERLAP;
    }
    p = lo;
  } else if (oa * ob < 0 && oc * od < 0) {
    return ARCNAV_ERR_SELF_INTERSECTION;
  } else {
    // Not collinear and not crossing: they share one point, an endpoint of one of them.
    p = oa == 0 && an_in_closed_box(a, c, d)   ? a
        : ob == 0 && an_in_closed_box(b, c, d) ? b
        : oc == 0 && an_in_closed_box(c, a, b) ? c
                                               : d;
  }
  if (!record_touch(alloc, touches, rr, r, i, a, b, p) ||
      !record_touch(alloc, touches, rs, s, j, c, d, p)) {
    return ARCNAV_ERR_OUT_OF_MEMORY;
  }
  return ARCNAV_OK;
}

// Tests one pair of edges whose boxes overlap: edges of one ring must not meet (beyond the shared
// vertex of neighbours); edges of two rings go to classify_ring_pair().
static arcnav_status test_edge_pair(const an_allocator *alloc, const an_clean_ring *rings,
                                    touch_list *touches, const ring_edge *e, const ring_edge *f) {
  if (e->ring != f->ring) {
    return classify_ring_pair(alloc, touches, rings, e->ring, e->vertex, f->ring, f->vertex);
  }
  const an_clean_ring *ring = &rings[e->ring];
  size_t n = ring->count, ve = (size_t)e->vertex, vf = (size_t)f->vertex;
  vec2 a = ring->points[ve], b = ring->points[(ve + 1) % n];
  vec2 c = ring->points[vf], d = ring->points[(vf + 1) % n];
  bool meet;
  if ((ve + 1) % n == vf) {
    meet = adjacent_edges_fold(a, b, d);
  } else if ((vf + 1) % n == ve) {
    meet = adjacent_edges_fold(c, d, b);
  } else {
    meet = an_segments_intersect(a, b, c, d);
  }
  return meet ? ARCNAV_ERR_SELF_INTERSECTION : ARCNAV_OK;
}

static bool boxes_overlap(const ring_edge *e, const ring_edge *f) {
  return e->min_x <= f->max_x && f->min_x <= e->max_x && e->min_y <= f->max_y &&
         f->min_y <= e->max_y;
}

// A uniform grid over the edges' boxes, about one cell per edge: each edge is filed in the cells
// its box covers, unless that is more than LONG_EDGE_CELLS; such long edges are tested against
// every edge instead.
#define LONG_EDGE_CELLS 16

typedef struct edge_grid {
  vec2 lo;
  double cell_w, cell_h;
  size_t side;
} edge_grid;

static size_t grid_cell(double value, double lo, double size, size_t side) {
  double t = floor((value - lo) / size);
  return t <= 0.0 ? 0 : t >= (double)(side - 1) ? side - 1 : (size_t)t;
}

static void edge_cells(const edge_grid *grid, const ring_edge *edge, size_t *x0, size_t *x1,
                       size_t *y0, size_t *y1) {
  *x0 = grid_cell(edge->min_x, grid->lo.x, grid->cell_w, grid->side);
  *x1 = grid_cell(edge->max_x, grid->lo.x, grid->cell_w, grid->side);
  *y0 = grid_cell(edge->min_y, grid->lo.y, grid->cell_h, grid->side);
  *y1 = grid_cell(edge->max_y, grid->lo.y, grid->cell_h, grid->side);
}

// Which pair to blame: the first, in the order of the edges' smallest x (then as sorted), among
// the refused pairs; `best` holds its two positions in that order, or SIZE_MAX.
typedef struct pair_verdict {
  arcnav_status status;
  size_t best[2];
} pair_verdict;

static bool judge_pair(const an_allocator *alloc, const an_clean_ring *rings, touch_list *touches,
                       const ring_edge *edges, size_t p, size_t q, pair_verdict *verdict) {
  if (p > q) {
    size_t t = p;
    p = q;
    q = t;
  }
  if (p > verdict->best[0] || (p == verdict->best[0] && q > verdict->best[1])) {
    return true; // a refusal earlier in the order is known
  }
  arcnav_status status = test_edge_pair(alloc, rings, touches, &edges[p], &edges[q]);
  if (status == ARCNAV_ERR_OUT_OF_MEMORY) {
    verdict->status = status;
    return false;
  }
  if (status != ARCNAV_OK) {
    verdict->status = status;
    verdict->best[0] = p;
    verdict->best[1] = q;
  }
  return true;
}

// Tests every pair of edges whose boxes overlap (through the grid above), recording touches
// between rings. On a refusal, blames the later edge (by ring, then vertex) of the first refused
// pair in the order of the edges' smallest x.
static arcnav_status scan_ring_contacts(const an_allocator *alloc, const an_clean_ring *rings,
                                        size_t ring_count, touch_list *touches, int *bad_ring,
                                        int *bad_vertex) {
  size_t edge_count = 0;
  for (size_t r = 0; r < ring_count; ++r) {
    edge_count += rings[r].count;
  }
  size_t side = 1;
  while (side * side < edge_count) {
    ++side;
  }
  size_t cell_count = side * side;
  ring_edge *edges = an_alloc(alloc, edge_count, sizeof *edges);
  bool *is_long = an_alloc(alloc, edge_count, sizeof *is_long);
  size_t *cell_start = an_calloc(alloc, cell_count + 1, sizeof *cell_start);
  if (!edges || !is_long || !cell_start) {
    an_free(alloc, edges);
    an_free(alloc, is_long);
    an_free(alloc, cell_start);
    return ARCNAV_ERR_OUT_OF_MEMORY;
  }
  size_t e = 0;
  vec2 lo = rings[0].points[0], hi = lo;
  for (size_t r = 0; r < ring_count; ++r) {
    for (size_t i = 0; i < rings[r].count; ++i) {
      vec2 a = rings[r].points[i], b = rings[r].points[(i + 1) % rings[r].count];
      edges[e++] = (ring_edge){an_min(a.x, b.x), an_max(a.x, b.x), an_min(a.y, b.y),
                               an_max(a.y, b.y), (int)r,           (int)i};
      lo = v2(an_min(lo.x, a.x), an_min(lo.y, a.y));
      hi = v2(an_max(hi.x, a.x), an_max(hi.y, a.y));
    }
  }
  qsort(edges, edge_count, sizeof *edges, compare_edges_by_min_x);
  edge_grid grid = {lo, (hi.x - lo.x) / (double)side, (hi.y - lo.y) / (double)side, side};
  grid.cell_w = grid.cell_w > 0.0 ? grid.cell_w : 1.0;
  grid.cell_h = grid.cell_h > 0.0 ? grid.cell_h : 1.0;
  // File the edges: count per cell (long edges in none), then place.
  size_t filed = 0;
  for (size_t k = 0; k < edge_count; ++k) {
    size_t x0, x1, y0, y1;
    edge_cells(&grid, &edges[k], &x0, &x1, &y0, &y1);
    is_long[k] = (x1 - x0 + 1) * (y1 - y0 + 1) > LONG_EDGE_CELLS;
    for (size_t y = y0; y <= y1 && !is_long[k]; ++y) {
      for (size_t x = x0; x <= x1; ++x) {
        ++cell_start[y * side + x + 1];
        ++filed;
      }
    }
  }
  for (size_t c = 0; c < cell_count; ++c) {
    cell_start[c + 1] += cell_start[c];
  }
  size_t *cell_edges = an_alloc(alloc, filed + 1, sizeof *cell_edges);
  size_t *fill = an_alloc(alloc, cell_count, sizeof *fill);
  if (!cell_edges || !fill) {
    an_free(alloc, cell_edges);
    an_free(alloc, fill);
    an_free(alloc, edges);
    an_free(alloc, is_long);
    an_free(alloc, cell_start);
    return ARCNAV_ERR_OUT_OF_MEMORY;
  }
  memcpy(fill, cell_start, cell_count * sizeof *fill);
  for (size_t k = 0; k < edge_count; ++k) {
    size_t x0, x1, y0, y1;
    edge_cells(&grid, &edges[k], &x0, &x1, &y0, &y1);
    for (size_t y = y0; y <= y1 && !is_long[k]; ++y) {
      for (size_t x = x0; x <= x1; ++x) {
        cell_edges[fill[y * side + x]++] = k;
      }
    }
  }
  pair_verdict verdict = {ARCNAV_OK, {SIZE_MAX, SIZE_MAX}};
  bool going = true;
  // Pairs sharing a cell, each tested in the one cell holding the lower left corner of the
  // overlap of their boxes.
  for (size_t c = 0; c < cell_count && going; ++c) {
    for (size_t u = cell_start[c]; u < cell_start[c + 1] && going; ++u) {
      for (size_t w = u + 1; w < cell_start[c + 1] && going; ++w) {
        const ring_edge *f = &edges[cell_edges[u]], *g = &edges[cell_edges[w]];
        if (!boxes_overlap(f, g)) {
          continue;
        }
        size_t home = grid_cell(an_max(f->min_y, g->min_y), lo.y, grid.cell_h, side) * side +
                      grid_cell(an_max(f->min_x, g->min_x), lo.x, grid.cell_w, side);
        if (home == c) {
          going = judge_pair(alloc, rings, touches, edges, cell_edges[u], cell_edges[w], &verdict);
        }
      }
    }
  }
  // Long edges against every other edge (a pair of long edges once).
  for (size_t k = 0; k < edge_count && going; ++k) {
    if (!is_long[k]) {
      continue;
    }
    for (size_t m = 0; m < edge_count && going; ++m) {
      if (m != k && (!is_long[m] || m > k) && boxes_overlap(&edges[k], &edges[m])) {
        going = judge_pair(alloc, rings, touches, edges, k, m, &verdict);
      }
    }
  }
  if (verdict.status != ARCNAV_OK && verdict.status != ARCNAV_ERR_OUT_OF_MEMORY) {
    const ring_edge *f = &edges[verdict.best[0]], *g = &edges[verdict.best[1]];
    bool later_first = g->ring > f->ring || (g->ring == f->ring && g->vertex > f->vertex);
    const ring_edge *blame = later_first ? g : f;
    *bad_ring = blame->ring;
    *bad_vertex = rings[blame->ring].source_index[blame->vertex];
  }
  an_free(alloc, cell_edges);
  an_free(alloc, fill);
  an_free(alloc, edges);
  an_free(alloc, is_long);
  an_free(alloc, cell_start);
  return verdict.status;
}

static int compare_touches(const void *lhs, const void *rhs) {
  const ring_touch *a = lhs, *b = rhs;
  int c = compare_points(a->point, b->point);
  if (c != 0) {
    return c;
  }
  if (a->ring != b->ring) {
    return a->ring < b->ring ? -1 : 1;
  }
  if (a->on_edge != b->on_edge) {
    return a->on_edge - b->on_edge;
  }
  return (a->index > b->index) - (a->index < b->index);
}

static bool touch_at(const touch_list *touches, vec2 p) {
  size_t lo = 0, hi = touches->count;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    int c = compare_points(touches->items[mid].point, p);
    if (c == 0) {
      return true;
    }
    if (c < 0) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return false;
}

static size_t find_root(size_t *parent, size_t x) {
  while (parent[x] != x) {
    parent[x] = parent[parent[x]];
    x = parent[x];
  }
  return x;
}

// Checks the points where rings touch (touches sorted, duplicates dropped here): the graph that
// links every ring to the points where it touches others must have no cycle. A cycle (a hole
// touching its shell at two points, three holes touching in a round) cuts the polygon's interior
// into pieces. Without one, two rings share at most one point, so each ring less that point is
// connected and lies on one side of the other: which side, check_hole_nesting() tests. That also
// settles crossings at a shared point, which need a second shared point.
static arcnav_status check_ring_touches(const an_allocator *alloc, const an_clean_ring *rings,
                                        size_t ring_count, touch_list *touches, int *bad_ring,
                                        int *bad_vertex) {
  if (touches->count > 0) {
    qsort(touches->items, touches->count, sizeof *touches->items, compare_touches);
  }
  size_t kept = 0;
  for (size_t k = 0; k < touches->count; ++k) {
    if (kept == 0 || compare_touches(&touches->items[kept - 1], &touches->items[k]) != 0) {
      touches->items[kept++] = touches->items[k];
    }
  }
  touches->count = kept;
  size_t *parent = an_alloc(alloc, ring_count + kept, sizeof *parent);
  if (!parent) {
    return ARCNAV_ERR_OUT_OF_MEMORY;
  }
  for (size_t k = 0; k < ring_count + kept; ++k) {
    parent[k] = k;
  }
  // Nodes: the rings, then one per distinct point.
  arcnav_status status = ARCNAV_OK;
  size_t point_node = ring_count;
  for (size_t k = 0; k < kept; ++k) {
    const ring_touch *t = &touches->items[k];
    if (k > 0 && compare_points(t->point, touches->items[k - 1].point) != 0) {
      ++point_node;
    }
    size_t root = find_root(parent, (size_t)t->ring), point_root = find_root(parent, point_node);
    if (root == point_root) {
      status = ARCNAV_ERR_SELF_INTERSECTION;
      *bad_ring = t->ring;
      *bad_vertex = rings[t->ring].source_index[t->index];
      break;
    }
    parent[root] = point_root;
  }
  an_free(alloc, parent);
  return status;
}

// Finds where the given rings meet: a pair of edges that meet where they should not is refused
// (and the vertex to blame named); touches between two rings that are allowed are returned in
// `touches`, sorted by point.
static arcnav_status find_ring_contacts(const an_allocator *alloc, const an_clean_ring *rings,
                                        size_t ring_count, touch_list *touches, int *bad_ring,
                                        int *bad_vertex) {
  size_t edge_count = 0;
  for (size_t r = 0; r < ring_count; ++r) {
    edge_count += rings[r].count;
  }
  int pair[2];
  arcnav_status status = sweep_for_contact(alloc, rings, ring_count, edge_count, pair);
  if (status != ARCNAV_OK || pair[0] < 0) {
    return status;
  }
  status = scan_ring_contacts(alloc, rings, ring_count, touches, bad_ring, bad_vertex);
  if (status == ARCNAV_OK) {
    status = check_ring_touches(alloc, rings, ring_count, touches, bad_ring, bad_vertex);
  }
  return status;
}

// Where a vertex of one ring lies inside an edge of another, the edge is split there, so that the
// stored rings meet only at shared vertices (later stages, the triangulation among them, rely on
// that). The new vertex lies exactly on the edge: the shape does not change.
typedef struct edge_split {
  vec2 point;
  int ring;
  int index;  ///< the edge's first vertex
  int toward; ///< 1 when the edge runs toward larger points (lexicographically), else -1
} edge_split;

static int compare_splits(const void *lhs, const void *rhs) {
  const edge_split *a = lhs, *b = rhs;
  if (a->ring != b->ring) {
    return a->ring < b->ring ? -1 : 1;
  }
  if (a->index != b->index) {
    return a->index < b->index ? -1 : 1;
  }
  return compare_points(a->point, b->point) * a->toward;
}

// Rebuilds `ring` with the given splits (sorted, all of this ring) inserted.
static bool split_ring(const an_allocator *alloc, an_clean_ring *ring, const edge_split *splits,
                       size_t split_count) {
  size_t n = ring->count, total = n + split_count;
  vec2 *points = an_alloc(alloc, total, sizeof *points);
  int *source = an_alloc(alloc, total, sizeof *source);
  if (!points || !source) {
    an_free(alloc, points);
    an_free(alloc, source);
    return false;
  }
  size_t out = 0;
  for (size_t i = 0, next = 0; i < n; ++i) {
    points[out] = ring->points[i];
    source[out++] = ring->source_index[i];
    for (; next < split_count && splits[next].index == (int)i; ++next) {
      points[out] = splits[next].point;
      source[out++] = ring->source_index[i];
    }
  }
  an_free(alloc, ring->points);
  an_free(alloc, ring->source_index);
  ring->points = points;
  ring->source_index = source;
  ring->count = total;
  return true;
}

static arcnav_status split_touched_edges(const an_allocator *alloc, an_clean_ring *rings,
                                         const touch_list *touches) {
  size_t split_count = 0;
  for (size_t k = 0; k < touches->count; ++k) {
    split_count += touches->items[k].on_edge != 0;
  }
  if (split_count == 0) {
    return ARCNAV_OK;
  }
  edge_split *splits = an_alloc(alloc, split_count, sizeof *splits);
  if (!splits) {
    return ARCNAV_ERR_OUT_OF_MEMORY;
  }
  size_t s = 0;
  for (size_t k = 0; k < touches->count; ++k) {
    const ring_touch *t = &touches->items[k];
    if (t->on_edge) {
      const an_clean_ring *ring = &rings[t->ring];
      size_t i = (size_t)t->index;
      int toward =
          compare_points(ring->points[i], ring->points[(i + 1) % ring->count]) < 0 ? 1 : -1;
      splits[s++] = (edge_split){t->point, t->ring, t->index, toward};
    }
  }
  qsort(splits, split_count, sizeof *splits, compare_splits);
  arcnav_status status = ARCNAV_OK;
  for (size_t first = 0, end; first < split_count && status == ARCNAV_OK; first = end) {
    for (end = first + 1; end < split_count && splits[end].ring == splits[first].ring; ++end) {
    }
    if (!split_ring(alloc, &rings[splits[first].ring], splits + first, end - first)) {
      status = ARCNAV_ERR_OUT_OF_MEMORY;
    }
  }
  an_free(alloc, splits);
  return status;
}

typedef struct ring_box {
  vec2 lo, hi;
  size_t ring;
} ring_box;

static int compare_boxes_by_min_x(const void *lhs, const void *rhs) {
  const ring_box *a = lhs, *b = rhs;
  return (a->lo.x > b->lo.x) - (a->lo.x < b->lo.x);
}

static ring_box box_of(const an_clean_ring *ring, size_t index) {
  ring_box box = {.ring = index};
  an_box_of_points(ring->points, ring->count, &box.lo, &box.hi);
  return box;
}

static bool box_holds(const ring_box *box, vec2 p) {
  return p.x >= box->lo.x && p.x <= box->hi.x && p.y >= box->lo.y && p.y <= box->hi.y;
}

// A point of the hole on no other ring (rings meet only at the touches): its first vertex that
// touches nothing, else the middle of an edge (a hole whose every vertex touches another ring).
// *vertex is the vertex to name in an error.
static vec2 hole_probe(const an_clean_ring *hole, const touch_list *touches, size_t *vertex) {
  for (size_t k = 0; k < hole->count; ++k) {
    if (!touch_at(touches, hole->points[k])) {
      *vertex = k;
      return hole->points[k];
    }
  }
  *vertex = 0;
  for (size_t k = 0; k < hole->count; ++k) {
    vec2 m = v2_lerp(hole->points[k], hole->points[(k + 1) % hole->count], 0.5);
    if (!touch_at(touches, m)) {
      return m;
    }
  }
  return hole->points[0];
}

/// Rings do not cross, so a hole is inside its shell exactly when one of its points off the other
/// rings is, and is nested in another hole exactly when such a point lies in that hole. The holes
/// that may hold the point are found among the boxes sorted by their left side: those starting
/// at most the widest box's width to its left.
static arcnav_status check_hole_nesting(const an_allocator *alloc, const an_clean_ring *rings,
                                        size_t ring_count, const touch_list *touches, int obstacle,
                                        arcnav_error *error) {
  if (ring_count < 2) {
    return ARCNAV_OK;
  }
  size_t hole_count = ring_count - 1;
  ring_box *boxes = an_alloc(alloc, hole_count, sizeof *boxes);
  if (!boxes) {
    an_set_error(error, ARCNAV_ERR_OUT_OF_MEMORY, obstacle, -1, -1);
    return ARCNAV_ERR_OUT_OF_MEMORY;
  }
  double widest = 0.0;
  for (size_t h = 1; h < ring_count; ++h) {
    boxes[h - 1] = box_of(&rings[h], h);
    widest = an_max(widest, boxes[h - 1].hi.x - boxes[h - 1].lo.x);
  }
  qsort(boxes, hole_count, sizeof *boxes, compare_boxes_by_min_x);
  ring_box shell = box_of(&rings[0], 0);
  arcnav_status status = ARCNAV_OK;
  for (size_t h = 1; h < ring_count && status == ARCNAV_OK; ++h) {
    size_t probe_vertex = 0;
    vec2 p = hole_probe(&rings[h], touches, &probe_vertex);
    int named = rings[h].source_index[probe_vertex];
    if (!box_holds(&shell, p) || !an_point_in_ring(p, rings[0].points, rings[0].count)) {
      an_set_error(error, ARCNAV_ERR_HOLE_OUTSIDE, obstacle, (int)h, named);
      status = ARCNAV_ERR_HOLE_OUTSIDE;
      break;
    }
    // Past the last box starting at or left of p, back to the first that may still reach it.
    size_t lo = 0, hi = hole_count;
    while (lo < hi) {
      size_t mid = lo + (hi - lo) / 2;
      if (boxes[mid].lo.x <= p.x) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    for (size_t k = lo; k > 0 && boxes[k - 1].lo.x >= p.x - widest; --k) {
      const ring_box *box = &boxes[k - 1];
      if (box->ring != h && box_holds(box, p) &&
          an_point_in_ring(p, rings[box->ring].points, rings[box->ring].count)) {
        an_set_error(error, ARCNAV_ERR_SELF_INTERSECTION, obstacle, (int)h, named);
        status = ARCNAV_ERR_SELF_INTERSECTION;
        break;
      }
    }
  }
  an_free(alloc, boxes);
  return status;
}

void an_orient_ring(an_clean_ring *ring, bool want_ccw) {
  bool is_ccw = an_ring_signed_area(ring->points, ring->count) > 0.0;
  if (is_ccw == want_ccw) {
    return;
  }
  for (size_t i = 0, j = ring->count - 1; i < j; ++i, --j) {
    vec2 p = ring->points[i];
    ring->points[i] = ring->points[j];
    ring->points[j] = p;
    int s = ring->source_index[i];
    ring->source_index[i] = ring->source_index[j];
    ring->source_index[j] = s;
  }
}

arcnav_status an_prepare_rings(const an_allocator *alloc, const vec2 *const *inputs,
                               const size_t *counts, size_t ring_count, int obstacle,
                               an_clean_ring *rings, arcnav_error *error) {
  for (size_t r = 0; r < ring_count; ++r) {
    int bad_vertex = -1;
    arcnav_status status = clean_ring_build(alloc, inputs[r], counts[r], &rings[r], &bad_vertex);
    if (status == ARCNAV_OK) {
      status = check_ring_shape(&rings[r]);
    }
    if (status != ARCNAV_OK) {
      an_set_error(error, status, obstacle, (int)r, bad_vertex);
      return status;
    }
  }
  int bad_ring = -1, bad_vertex = -1;
  touch_list touches = {NULL, 0, 0};
  arcnav_status status =
      find_ring_contacts(alloc, rings, ring_count, &touches, &bad_ring, &bad_vertex);
  if (status != ARCNAV_OK) {
    an_set_error(error, status, obstacle, bad_ring, bad_vertex);
  } else {
    status = check_hole_nesting(alloc, rings, ring_count, &touches, obstacle, error);
  }
  if (status == ARCNAV_OK) {
    status = split_touched_edges(alloc, rings, &touches);
    if (status != ARCNAV_OK) {
      an_set_error(error, status, obstacle, -1, -1);
    }
  }
  touch_list_free(alloc, &touches);
  return status;
}

arcnav_status an_rings_are_clean(const an_allocator *alloc, const vec2 *const *inputs,
                                 const size_t *counts, size_t ring_count, bool *clean) {
  *clean = false;
  an_clean_ring *rings = an_calloc(alloc, ring_count, sizeof *rings);
  if (!rings) {
    return ARCNAV_ERR_OUT_OF_MEMORY;
  }
  arcnav_status status = an_prepare_rings(alloc, inputs, counts, ring_count, -1, rings, NULL);
  for (size_t r = 0; r < ring_count; ++r) {
    an_clean_ring_free(alloc, &rings[r]);
  }
  an_free(alloc, rings);
  *clean = status == ARCNAV_OK;
  return status == ARCNAV_ERR_OUT_OF_MEMORY ? status : ARCNAV_OK;
}
