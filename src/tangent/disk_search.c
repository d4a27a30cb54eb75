// SPDX-License-Identifier: MIT
// The interval search for a disk (disk_search.h): leaf families and their geometry, the obstacle
// pieces near a triangle, one expansion, and the search loop. docs/DESIGN.md ("The interval search
// for a disk") gives the reasoning.
#include "tangent/disk_search.h"

#include "funnel/funnel.h"
#include "path/path.h"
#include "search/heap.h"
#include "search/marks.h"
#include "tangent/visibility.h"

#include <assert.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

// ---------------------------------------------------------------------------------------------
// Roots, nodes and the search's memory
// ---------------------------------------------------------------------------------------------

/// The start (radius 0), or a corner circle the path arrives on turning `sigma` round its centre
/// (+1 counter-clockwise: the centre on the path's left). Its leaves are numbered by their
/// progress u >= 0 from the arrival: leaf u leaves along the direction arrive + sigma u, from the
/// circle's point there, after an arc of radius * u.
typedef struct dk_root {
  vec2 center;
  double radius;
  double sigma;
  double arrive; ///< direction of the arriving path (leaf u = 0), radians
  vec2 arrive_d; ///< the same as a unit vector, kept for every expansion of the root's leaves
  /// The largest progress the corner's wedge allows, less what other arrivals on the corner leave
  /// shorter (add_root); negative when another arrival dominates all of it.
  double span;
  double g;     ///< length from the start to the arrival point
  vec2 arrival; ///< where the path arrives on the circle (the start itself for the start)
  vec2 leave;   ///< where the path left the parent root for it
  /// The progress on the parent's arc where the path left it: kept, because a later arrival on
  /// the parent's corner may cut the parent's span short of it (keys are not consistent).
  double leave_u;
  int32_t parent;
  uint32_t corner;   ///< AN_NONE for the start
  int32_t next_same; ///< the next root on the same corner and direction, or -1
  uint8_t expanded;  ///< its arc's first piece was expanded
  /// The landmarks' least length from any point of its circle to the goal (mesh/landmarks.h);
  /// every key of its nodes is at least g plus this.
  double bound;
} dk_root;

/// A search node: leaves [lo, hi] of `root` in free triangle `tri`. With `edge` >= 0 they enter
/// it across that edge (opposite the triangle's vertex `edge`); with -1 they leave the root
/// inside it: the start's, or those of the arc piece that begins at progress lo (hi is then the
/// most the arc may go on, the wedge's span).
typedef struct dk_node {
  double lo, hi;
  int32_t root;
  int32_t tri;
  int32_t edge;
} dk_node;

/// A critical leaf of one expansion: its direction and its order key (leaf_key).
typedef struct dk_crit {
  double key;
  vec2 d;
} dk_crit;

struct an_disk_search {
  an_allocator alloc;
  const an_navmesh *mesh;
  size_t tri_count;
  uint32_t item_count;
  uint32_t stamp; ///< the query's
  // The obstacle pieces (grid items) within reach of each triangle, gathered on the first visit
  // and kept while the radius and the units ignored stay: features[tri_first[t] ..
  // + tri_features[t]] when tri_stamp[t] is cache_stamp.
  uint32_t cache_stamp;
  uint32_t *tri_stamp;
  uint32_t *tri_first;
  uint32_t *tri_features;
  uint32_t *item_stamp;
  uint32_t item_mark;
  uint32_t *features;
  size_t feature_count, feature_capacity;
  // The triangles holding the ends (located by an_disk_takes()), those near the goal, and the
  // start's; an_funnel_near_triangles()' walk.
  int32_t start_tri, goal_tri;
  uint32_t *goal_mark;
  int32_t *starts;
  size_t start_count;
  uint32_t *near_stamp;
  uint32_t near_mark;
  int32_t *near_queue;
  // Roots and nodes, made afresh by every query; per (corner, direction) the first root on it.
  dk_root *roots;
  size_t root_count, root_capacity;
  int32_t *same_head;
  uint32_t *same_stamp;
  dk_node *nodes;
  size_t node_count, node_capacity;
  an_heap open;
  /// What the per-triangle, per-item, per-cdt-triangle and per-group arrays hold: their counts
  /// when made, more once renewed (an_disk_search_renew()). A stamp's wrap clears them all.
  size_t tri_room, item_room, near_room, group_room;
  // One expansion's work space: the features within reach of its leaves, its critical leaves.
  uint32_t *near;
  uint8_t *blocks; ///< per entry of `near`: may block a leaf (or only offer a corner)
  size_t near_capacity, blocks_capacity;
  dk_crit *crit;
  size_t crit_count, crit_capacity;
  int32_t *trail;
  size_t trail_capacity;
  // The running search.
  vec2 start, goal;
  double best;       ///< the shortest path to the goal found so far
  int32_t best_root; ///< its last root, -1 for none
  double best_u;     ///< the leaf it leaves that root along
  size_t expansions;
  int32_t near_root; ///< the expanded root nearest the goal, -1: none nearer than the start
  double near_distance;
};

#define NO_ROOT (-1)

void an_disk_search_destroy(an_disk_search *s) {
  if (!s) {
    return;
  }
  an_allocator a = s->alloc;
  an_free(&a, s->tri_stamp);
  an_free(&a, s->tri_first);
  an_free(&a, s->tri_features);
  an_free(&a, s->item_stamp);
  an_free(&a, s->features);
  an_free(&a, s->goal_mark);
  an_free(&a, s->starts);
  an_free(&a, s->near_stamp);
  an_free(&a, s->near_queue);
  an_free(&a, s->roots);
  an_free(&a, s->same_head);
  an_free(&a, s->same_stamp);
  an_free(&a, s->nodes);
  an_heap_free(&s->open, &a);
  an_free(&a, s->near);
  an_free(&a, s->blocks);
  an_free(&a, s->crit);
  an_free(&a, s->trail);
  an_free(&a, s);
}

arcnav_status an_disk_search_create(const an_tangent_engine *engine, an_disk_search **out) {
  *out = NULL;
  if (!engine->polygons) {
    return ARCNAV_OK; // no triangulation: every query goes to the tangents on demand
  }
  an_allocator alloc = engine->alloc;
  an_disk_search *s = an_calloc(&alloc, 1, sizeof *s);
  if (!s) {
    return ARCNAV_ERR_OUT_OF_MEMORY;
  }
  s->alloc = alloc;
  s->mesh = engine->polygons;
  s->tri_count = s->mesh->free_count;
  s->item_count = engine->space.grid.item_count;
  s->cache_stamp = 1;
  size_t nt = s->tri_count + 1, ni = (size_t)s->item_count + 1;
  size_t groups = 2 * engine->corner_count + 1;
  size_t near = s->mesh->cdt.tri_count + 1;
  s->tri_stamp = an_calloc(&alloc, nt, sizeof *s->tri_stamp);
  s->tri_first = an_alloc(&alloc, nt, sizeof *s->tri_first);
  s->tri_features = an_alloc(&alloc, nt, sizeof *s->tri_features);
  s->item_stamp = an_calloc(&alloc, ni, sizeof *s->item_stamp);
  s->goal_mark = an_calloc(&alloc, nt, sizeof *s->goal_mark);
  s->starts = an_alloc(&alloc, nt, sizeof *s->starts);
  s->near_stamp = an_calloc(&alloc, near, sizeof *s->near_stamp);
  s->near_queue = an_alloc(&alloc, near, sizeof *s->near_queue);
  s->same_head = an_alloc(&alloc, groups, sizeof *s->same_head);
  s->same_stamp = an_calloc(&alloc, groups, sizeof *s->same_stamp);
  bool ok = s->tri_stamp && s->tri_first && s->tri_features && s->item_stamp && s->goal_mark &&
            s->starts && s->near_stamp && s->near_queue && s->same_head && s->same_stamp &&
            an_heap_init_sized(&s->open, 256, 0, &alloc) == ARCNAV_OK;
  if (!ok) {
    an_disk_search_destroy(s);
    return ARCNAV_ERR_OUT_OF_MEMORY;
  }
  s->tri_room = nt;
  s->item_room = ni;
  s->near_room = near;
  s->group_room = groups;
  *out = s;
  return ARCNAV_OK;
}

arcnav_status an_disk_search_renew(an_disk_search *s, const an_tangent_engine *engine) {
  if (!engine->polygons) {
    return ARCNAV_ERR_INVALID_ARGUMENT;
  }
  const an_navmesh *mesh = engine->polygons;
  an_room_array tris[] = {{(void **)&s->tri_stamp, sizeof *s->tri_stamp, true},
                          {(void **)&s->tri_first, sizeof *s->tri_first, false},
                          {(void **)&s->tri_features, sizeof *s->tri_features, false},
                          {(void **)&s->goal_mark, sizeof *s->goal_mark, true},
                          {(void **)&s->starts, sizeof *s->starts, false}};
  an_room_array items[] = {{(void **)&s->item_stamp, sizeof *s->item_stamp, true}};
  an_room_array near[] = {{(void **)&s->near_stamp, sizeof *s->near_stamp, true},
                          {(void **)&s->near_queue, sizeof *s->near_queue, false}};
  an_room_array groups[] = {{(void **)&s->same_head, sizeof *s->same_head, false},
                            {(void **)&s->same_stamp, sizeof *s->same_stamp, true}};
  if (!an_room_for(&s->alloc, tris, 5, &s->tri_room, mesh->free_count + 1) ||
      !an_room_for(&s->alloc, items, 1, &s->item_room, (size_t)engine->space.grid.item_count + 1) ||
      !an_room_for(&s->alloc, near, 2, &s->near_room, mesh->cdt.tri_count + 1) ||
      !an_room_for(&s->alloc, groups, 2, &s->group_room, 2 * engine->corner_count + 1)) {
    return ARCNAV_ERR_OUT_OF_MEMORY;
  }
  // The stamps go on from where they were; the triangles' gathered features were the old map's.
  s->mesh = mesh;
  s->tri_count = mesh->free_count;
  s->item_count = engine->space.grid.item_count;
  an_disk_search_forget(s);
  s->start_tri = s->goal_tri = 0;
  s->start_count = s->root_count = s->node_count = s->crit_count = 0;
  an_heap_clear(&s->open);
  s->start = s->goal = v2(0.0, 0.0);
  s->best = 0.0;
  s->best_root = 0;
  s->best_u = 0.0;
  s->expansions = 0;
  s->near_root = 0;
  s->near_distance = 0.0;
  return ARCNAV_OK;
}

void an_disk_search_forget(an_disk_search *s) {
  if (!s) {
    return;
  }
  s->feature_count = 0;
  if (an_stamp_next(&s->cache_stamp)) {
    memset(s->tri_stamp, 0, s->tri_room * sizeof *s->tri_stamp);
  }
}

static bool reserve(an_disk_search *s, void **array, size_t *capacity, size_t used, size_t needed,
                    size_t size) {
  return needed <= *capacity || an_reserve(&s->alloc, array, capacity, used, needed, size);
}

// ---------------------------------------------------------------------------------------------
// Leaf families
// ---------------------------------------------------------------------------------------------

/// The leaves of one root in one triangle: where they come from (the root itself, or an edge they
/// enter across) and the triangle's corners. Leaves are handled by their direction d, a unit
/// vector: the order of leaves is the order of their directions turning sigma from the
/// arrival's, which leaf_key() gives without an angle; angles (progress) are taken only where a
/// length needs them.
typedef struct dk_family {
  vec2 center;
  double radius, sigma, arrive;
  vec2 arrive_d;
  /// How far apart in angle two computations of one leaf may fall: a circle's points are rounded
  /// to its centre's coordinates, which a small radius turns into a wide angle.
  double slack;
  vec2 v[3];     ///< the triangle, counter-clockwise
  int32_t entry; ///< the edge the leaves enter across, or -1: they leave the root inside
} dk_family;

static vec2 leaf_direction(const dk_family *f, double u) {
  double angle = f->arrive + f->sigma * u;
  return v2_from_angle(angle);
}

/// The progress of the leaf along direction d.
static double leaf_progress(const dk_family *f, vec2 d) {
  return an_wrap_angle(f->sigma * (atan2(d.y, d.x) - f->arrive));
}

/// Progress u on a root whose departures end at `span`: a leaf a hair before the arrival (a turn
/// less a hair, after wrapping) is the arrival's, one a hair past the span the span's.
static double clamp_progress(double u, double span) {
  if (u <= span) {
    return u;
  }
  return AN_TWO_PI - u < u - span ? 0.0 : span;
}

/// Where direction d lies after the arrival's, turning sigma: a pseudo-angle in [0, 4), increasing
/// with the angle (a quarter turn per unit).
static double leaf_key(const dk_family *f, vec2 d) {
  vec2 turned = v2(v2_dot(d, f->arrive_d), f->sigma * v2_cross(f->arrive_d, d));
  return turned.x == 0.0 && turned.y == 0.0 ? 0.0 : an_pseudo_angle(turned);
}

/// The point where the leaf of direction d leaves the root: the start, or the circle's point
/// whose tangent it is (the centre on the leaf's left when sigma is +1).
static vec2 leaf_origin(const dk_family *f, vec2 d) {
  double k = f->sigma * f->radius;
  return v2(f->center.x + k * d.y, f->center.y - k * d.x);
}

/// The direction of the leaf through p (the tangent from the root's circle to p in its
/// direction): false when p lies inside the circle, where no leaf passes.
static bool leaf_through(const dk_family *f, vec2 p, vec2 *d) {
  vec2 v = v2_sub(p, f->center);
  double d2 = v2_len2(v);
  double r2 = f->radius * f->radius;
  if (!(d2 > r2)) {
    return false;
  }
  if (f->radius > 0.0) {
    // v turned by the angle whose tangent is sigma R / L, L the tangent's length.
    double l = sqrt(d2 - r2), k = f->sigma * f->radius;
    *d = v2_scale(v2(l * v.x - k * v.y, l * v.y + k * v.x), 1.0 / d2);
  } else {
    *d = v2_scale(v, 1.0 / sqrt(d2));
  }
  return true;
}

/// A leaf's way across the triangle: from `from` (its origin, or where it enters) to `to` on
/// edge `exit`.
typedef struct dk_leaf {
  vec2 d, origin, from, to;
  int32_t exit;
} dk_leaf;

/// How far along the leaf from its origin p lies (projected on the leaf).
static double leaf_position(const dk_leaf *leaf, vec2 p) {
  return v2_dot(v2_sub(p, leaf->origin), leaf->d);
}

static vec2 line_meet(vec2 o, vec2 d, vec2 a, vec2 b) {
  vec2 e = v2_sub(b, a);
  double denom = v2_cross(d, e);
  if (denom == 0.0) {
    return o;
  }
  return v2_mul_add(o, v2_cross(v2_sub(a, o), e) / denom, d);
}

static dk_leaf leaf_in(const dk_family *f, vec2 d) {
  dk_leaf leaf;
  leaf.d = d;
  leaf.origin = leaf_origin(f, d);
  const vec2 *v = f->v;
  if (f->entry >= 0) {
    int32_t k = f->entry;
    leaf.from = line_meet(leaf.origin, d, v[an_cdt_next3(k)], v[an_cdt_prev3(k)]);
    // Seen from the entry edge, the apex splits the far edges.
    leaf.exit = v2_cross(v2_sub(v[k], leaf.from), d) <= 0.0 ? an_cdt_next3(k) : an_cdt_prev3(k);
  } else {
    leaf.from = leaf.origin;
    // The edge whose corners the direction lies between, seen from the origin; the best such
    // when the origin is on the boundary.
    double best = -INFINITY;
    leaf.exit = 0;
    for (int32_t k = 0; k < 3; ++k) {
      vec2 a = v2_sub(v[an_cdt_next3(k)], leaf.from), b = v2_sub(v[an_cdt_prev3(k)], leaf.from);
      double la = v2_len(a), lb = v2_len(b);
      double sa = la > 0.0 ? v2_cross(a, d) / la : 0.0;
      double sb = lb > 0.0 ? v2_cross(d, b) / lb : 0.0;
      double score = an_min(sa, sb);
      if (score > best) {
        best = score;
        leaf.exit = k;
      }
    }
  }
  int32_t k = leaf.exit;
  leaf.to = line_meet(leaf.from, d, v[an_cdt_next3(k)], v[an_cdt_prev3(k)]);
  return leaf;
}

// ---------------------------------------------------------------------------------------------
// Obstacle pieces near a triangle
// ---------------------------------------------------------------------------------------------

static bool point_in_triangle(vec2 p, const vec2 v[3]) {
  return an_orient(v[0], v[1], p) >= 0.0 && an_orient(v[1], v[2], p) >= 0.0 &&
         an_orient(v[2], v[0], p) >= 0.0;
}

static double segment_triangle_dist(vec2 a, vec2 b, const vec2 v[3]) {
  if (point_in_triangle(a, v)) {
    return 0.0;
  }
  double d = INFINITY;
  for (int k = 0; k < 3; ++k) {
    d = an_min(d, an_segment_segment_dist(a, b, v[k], v[an_cdt_next3(k)]));
  }
  return d;
}

/// The grid items within the disk's reach of triangle `tri`: edges within R of it, circle
/// obstacles within their radius + R (and a margin of a few tolerances), units the query ignores
/// left out. Gathered on the first visit and kept until the radius or the units ignored change
/// (an_disk_search_forget). NULL when memory ran out.
static const uint32_t *features_of(const an_tangent_query *q, an_disk_search *s, int32_t tri,
                                   uint32_t *count) {
  if (s->tri_stamp[tri] == s->cache_stamp) {
    *count = s->tri_features[tri];
    return s->features + s->tri_first[tri];
  }
  const an_grid *grid = &q->engine->space.grid;
  vec2 v[3];
  an_navmesh_triangle(s->mesh, (size_t)tri, v);
  vec2 lo, hi;
  an_box_of_points(v, 3, &lo, &hi);
  double margin = AN_FILING_MARGIN_TOLERANCES * q->engine->eps;
  an_cell_rect cells = an_grid_box_cells(grid, lo, hi);
  if (an_stamp_next(&s->item_mark)) {
    memset(s->item_stamp, 0, s->item_room * sizeof *s->item_stamp);
  }
  size_t first = s->feature_count;
  for (int32_t row = cells.r0; row <= cells.r1; ++row) {
    for (int32_t column = cells.c0; column <= cells.c1; ++column) {
      size_t cell = (size_t)row * (size_t)grid->columns + (size_t)column;
      uint32_t filed;
      const uint32_t *ids = an_cell_table_list(&grid->cells, cell, &filed);
      for (uint32_t k = 0; k < filed; ++k) {
        uint32_t id = ids[k];
        if (s->item_stamp[id] == s->item_mark) {
          continue;
        }
        s->item_stamp[id] = s->item_mark;
        const an_item *item = &grid->items[id];
        if (an_clearance_ignores(&q->settings, item->owner)) {
          continue;
        }
        double reach = q->radius + margin, d;
        if (item->kind == AN_ITEM_EDGE) {
          d = segment_triangle_dist(item->a, an_item_end(item), v);
        } else {
          reach += item->radius;
          d = segment_triangle_dist(item->a, item->a, v);
        }
        if (!(d < reach)) {
          continue;
        }
        if (!reserve(s, (void **)&s->features, &s->feature_capacity, s->feature_count,
                     s->feature_count + 1, sizeof *s->features)) {
          return NULL;
        }
        s->features[s->feature_count++] = id;
      }
    }
  }
  s->tri_stamp[tri] = s->cache_stamp;
  s->tri_first[tri] = (uint32_t)first;
  s->tri_features[tri] = (uint32_t)(s->feature_count - first);
  *count = s->tri_features[tri];
  return s->features + first;
}

/// Does segment ab come closer than `limit` to the item (the disk's free test at limit R - eps)?
/// Most edges are dismissed by their boxes.
static bool item_within(const an_item *item, double limit, vec2 a, vec2 b) {
  if (item->kind != AN_ITEM_EDGE) {
    return an_point_segment_dist(item->a, a, b) < limit + item->radius;
  }
  vec2 item_end = an_item_end(item);
  if (an_min(item->a.x, item_end.x) >= an_max(a.x, b.x) + limit ||
      an_max(item->a.x, item_end.x) <= an_min(a.x, b.x) - limit ||
      an_min(item->a.y, item_end.y) >= an_max(a.y, b.y) + limit ||
      an_max(item->a.y, item_end.y) <= an_min(a.y, b.y) - limit) {
    return false;
  }
  return an_segment_segment_dist(a, b, item->a, item_end) < limit;
}

/// Does segment ab come closer than R - eps to one of the features (the disk's free test, with
/// the tolerance every engine uses)?
static bool segment_blocked(const an_tangent_query *q, const uint32_t *features, uint32_t count,
                            vec2 a, vec2 b) {
  const an_item *items = q->engine->space.grid.items;
  double limit = q->radius - q->engine->eps;
  for (uint32_t k = 0; k < count; ++k) {
    if (item_within(&items[features[k]], limit, a, b)) {
      return true;
    }
  }
  return false;
}

static bool point_blocked(const an_tangent_query *q, const uint32_t *features, uint32_t count,
                          vec2 p) {
  return segment_blocked(q, features, count, p, p);
}

// ---------------------------------------------------------------------------------------------
// Critical leaves: where what a leaf meets in the triangle may change
// ---------------------------------------------------------------------------------------------

/// The rim of what a feature keeps the disk's centre from (the points closer than R - eps to it):
/// circles of radius r round its ends (one for a circle obstacle, two for an edge), and for an
/// edge the two lines `offset` either side of it.
typedef struct dk_rim {
  vec2 ends[2];
  int circles;
  double r;
  vec2 offset; ///< edges: the edge's normal, r long
} dk_rim;

static dk_rim rim_of(const an_item *item, double limit) {
  bool edge = item->kind == AN_ITEM_EDGE;
  vec2 item_end = an_item_end(item);
  dk_rim rim = {
      {item->a, item_end}, edge ? 2 : 1, edge ? limit : limit + item->radius, v2(0.0, 0.0)};
  if (edge) {
    rim.offset = v2_scale(v2_perp(v2_normalize(v2_sub(item_end, item->a))), rim.r);
  }
  return rim;
}

/// Where segment ab crosses segment cd, if it does (parallel ones are taken not to).
static bool segments_cross_at(vec2 a, vec2 b, vec2 c, vec2 d, vec2 *at) {
  vec2 e = v2_sub(b, a), g = v2_sub(d, c);
  double denom = v2_cross(e, g);
  if (denom == 0.0) {
    return false;
  }
  double t = v2_cross(v2_sub(c, a), g) / denom;
  double w = v2_cross(v2_sub(c, a), e) / denom;
  if (t < 0.0 || t > 1.0 || w < 0.0 || w > 1.0) {
    return false;
  }
  *at = v2_mul_add(a, t, e);
  return true;
}

/// The range of one expansion's leaves, by key, with the directions at its ends.
typedef struct dk_range {
  double key_lo, key_hi;
  vec2 d_lo, d_hi;
} dk_range;

static bool push_crit(an_disk_search *s, dk_crit c) {
  if (!reserve(s, (void **)&s->crit, &s->crit_capacity, s->crit_count, s->crit_count + 1,
               sizeof *s->crit)) {
    return false;
  }
  s->crit[s->crit_count++] = c;
  return true;
}

static bool add_crit(an_disk_search *s, const dk_family *f, const dk_range *range, vec2 d) {
  double key = leaf_key(f, d);
  return !(key > range->key_lo && key < range->key_hi) || push_crit(s, (dk_crit){key, d});
}

static bool add_crit_point(an_disk_search *s, const dk_family *f, const dk_range *range, vec2 p) {
  vec2 d;
  return !leaf_through(f, p, &d) || add_crit(s, f, range, d);
}

/// The leaves tangent to the circle (centre, r), both ways round.
static bool add_crit_tangents(an_disk_search *s, const dk_family *f, const dk_range *range,
                              vec2 centre, double r) {
  for (int side = 0; side < 2; ++side) {
    an_tangent t;
    if (an_directed_tangent(f->center, f->radius, f->sigma > 0.0, centre, r, side != 0, 0.0, &t) &&
        !add_crit(s, f, range, t.direction)) {
      return false;
    }
  }
  return true;
}

/// The leaves through the points where segment ab meets the circle (centre, r).
static bool add_crit_circle_cuts(an_disk_search *s, const dk_family *f, const dk_range *range,
                                 vec2 a, vec2 b, vec2 centre, double r) {
  double t[2];
  int n = an_segment_circle_intersections(a, b, centre, r, t);
  for (int i = 0; i < n; ++i) {
    if (!add_crit_point(s, f, range, v2_lerp(a, b, t[i]))) {
      return false;
    }
  }
  return true;
}

/// The leaf through the point where segments ab and cd cross, if they do.
static bool add_crit_segment_cut(an_disk_search *s, const dk_family *f, const dk_range *range,
                                 vec2 a, vec2 b, vec2 c, vec2 d) {
  vec2 at;
  return !segments_cross_at(a, b, c, d, &at) || add_crit_point(s, f, range, at);
}

/// Every leaf inside the range where the way a leaf crosses the triangle may change: where it
/// starts or stops meeting a feature within R - eps (tangent to a feature's rim, or its way's far
/// end crossing the rim), and where it passes a corner of the triangle (its exit edge changes).
/// Leaves entering across an edge enter where no feature is (they were free up to it), so rims
/// crossing the entry edge need no leaf. The range's ends close the list, sorted by key.
static bool gather_criticals(const an_tangent_query *q, an_disk_search *s, const dk_family *f,
                             const dk_range *range, const uint32_t *features, uint32_t count) {
  s->crit_count = 0;
  const an_item *items = q->engine->space.grid.items;
  double limit = q->radius - q->engine->eps;
  for (int k = 0; k < 3; ++k) {
    if ((f->entry < 0 || k == f->entry) && !add_crit_point(s, f, range, f->v[k])) {
      return false;
    }
  }
  for (uint32_t i = 0; i < count; ++i) {
    dk_rim rim = rim_of(&items[features[i]], limit);
    for (int e = 0; e < rim.circles; ++e) {
      if (!add_crit_tangents(s, f, range, rim.ends[e], rim.r)) {
        return false;
      }
      for (int k = 0; k < 3; ++k) {
        if (an_cdt_prev3(k) != f->entry &&
            !add_crit_circle_cuts(s, f, range, f->v[k], f->v[an_cdt_next3(k)], rim.ends[e],
                                  rim.r)) {
          return false;
        }
      }
    }
    if (rim.circles == 2) {
      for (int side = -1; side <= 1; side += 2) {
        vec2 a = v2_mul_add(rim.ends[0], side, rim.offset);
        vec2 b = v2_mul_add(rim.ends[1], side, rim.offset);
        for (int k = 0; k < 3; ++k) {
          if (an_cdt_prev3(k) != f->entry &&
              !add_crit_segment_cut(s, f, range, f->v[k], f->v[an_cdt_next3(k)], a, b)) {
            return false;
          }
        }
      }
    }
  }
  // The few criticals of an expansion are sorted by insertion; then the range's ends.
  for (size_t i = 1; i < s->crit_count; ++i) {
    dk_crit c = s->crit[i];
    size_t j = i;
    for (; j > 0 && s->crit[j - 1].key > c.key; --j) {
      s->crit[j] = s->crit[j - 1];
    }
    s->crit[j] = c;
  }
  if (!reserve(s, (void **)&s->crit, &s->crit_capacity, s->crit_count, s->crit_count + 2,
               sizeof *s->crit)) {
    return false;
  }
  memmove(s->crit + 1, s->crit, s->crit_count * sizeof *s->crit);
  s->crit[0] = (dk_crit){range->key_lo, range->d_lo};
  s->crit[s->crit_count + 1] = (dk_crit){range->key_hi, range->d_hi};
  s->crit_count += 2;
  return true;
}

// ---------------------------------------------------------------------------------------------
// One expansion
// ---------------------------------------------------------------------------------------------

static dk_family family_of(const an_disk_search *s, const dk_root *root, int32_t tri,
                           int32_t entry) {
  dk_family f;
  f.center = root->center;
  f.radius = root->radius;
  f.sigma = root->sigma;
  f.arrive = root->arrive;
  f.arrive_d = root->arrive_d;
  f.slack = 1e-12;
  if (root->radius > 0.0) {
    f.slack += 64.0 * DBL_EPSILON * (fabs(root->center.x) + fabs(root->center.y) + root->radius) /
               root->radius;
  }
  an_navmesh_triangle(s->mesh, (size_t)tri, f.v);
  f.entry = entry;
  return f;
}

/// Queues node n (copied into the pool) with key f, or its root's landmark bound when larger.
static bool push_node(an_disk_search *s, const dk_node *n, double f) {
  f = an_max(f, s->roots[n->root].g + s->roots[n->root].bound);
  if (s->node_count >= (size_t)INT32_MAX ||
      !reserve(s, (void **)&s->nodes, &s->node_capacity, s->node_count, s->node_count + 1,
               sizeof *s->nodes) ||
      !an_heap_reserve(&s->open, s->open.size + 1, &s->alloc)) {
    return false;
  }
  s->nodes[s->node_count] = *n;
  an_heap_push(&s->open, (uint32_t)s->node_count, f);
  s->node_count++;
  return true;
}

/// The edge of triangle `to` that it shares with edge `edge` of triangle `from`.
static int32_t shared_edge(const an_navmesh *mesh, int32_t from, int32_t edge, int32_t to) {
  int32_t a = mesh->fv[3 * (size_t)from + (size_t)an_cdt_next3(edge)];
  int32_t b = mesh->fv[3 * (size_t)from + (size_t)an_cdt_prev3(edge)];
  for (int32_t k = 0; k < 3; ++k) {
    int32_t x = mesh->fv[3 * (size_t)to + (size_t)an_cdt_next3(k)];
    int32_t y = mesh->fv[3 * (size_t)to + (size_t)an_cdt_prev3(k)];
    if ((x == a && y == b) || (x == b && y == a)) {
      return k;
    }
  }
  return -1;
}

/// Leaves from direction d_lo to d_hi (progress lo and hi) of `root` leave triangle `tri` across
/// its edge `edge`: a node on the triangle beyond, when there is one. Its key: every leaf between
/// costs at least the arc to lo and the chord from lo's origin on (a chord is no longer than its
/// arc), and crosses the edge between the two leaves' crossings, then goes to the goal.
static bool push_crossing(an_disk_search *s, int32_t root, const dk_family *f, int32_t tri,
                          int32_t edge, double lo, vec2 d_lo, double hi, vec2 d_hi) {
  const an_navmesh *mesh = s->mesh;
  int32_t next = mesh->fn[3 * (size_t)tri + (size_t)edge];
  if (next < 0) {
    return true;
  }
  int32_t entry = shared_edge(mesh, tri, edge, next);
  if (entry < 0) {
    return true;
  }
  vec2 a = f->v[an_cdt_next3(edge)], b = f->v[an_cdt_prev3(edge)];
  vec2 o_lo = leaf_origin(f, d_lo), o_hi = leaf_origin(f, d_hi);
  double key = s->roots[root].g + f->radius * lo +
               an_least_distance_sum(o_lo, s->goal, line_meet(o_lo, d_lo, a, b),
                                     line_meet(o_hi, d_hi, a, b));
  if (!(key < s->best)) {
    return true; // nothing through it beats the path found
  }
  dk_node n = {lo, hi, root, next, entry};
  return push_node(s, &n, key);
}

/// The progress of critical i of the expansion's list (the range's ends are known exactly).
static double crit_progress(const an_disk_search *s, const dk_family *f, size_t i, double lo,
                            double hi) {
  return i == 0 ? lo : i + 1 == s->crit_count ? hi : leaf_progress(f, s->crit[i].d);
}

/// A blocked stretch of leaves, by key, with the directions at its ends.
typedef struct dk_block {
  dk_crit lo, hi;
} dk_block;

static void widen(dk_block *b, bool *any, double key, vec2 d) {
  if (!*any || key < b->lo.key) {
    b->lo = (dk_crit){key, d};
  }
  if (!*any || key > b->hi.key) {
    b->hi = (dk_crit){key, d};
  }
  *any = true;
}

/// Widens the block by the leaf through p, when there is one strictly inside (lo, hi).
static void widen_through(const dk_family *f, const dk_crit *lo, const dk_crit *hi, vec2 p,
                          dk_block *b, bool *any) {
  vec2 d;
  if (leaf_through(f, p, &d)) {
    double key = leaf_key(f, d);
    if (key > lo->key && key < hi->key) {
      widen(b, any, key, d);
    }
  }
}

/// Does the leaf `leaf` meet the feature within the triangle (closer than R - eps to it)?
static bool leaf_meets(const an_item *item, double limit, const dk_leaf *leaf) {
  return item_within(item, limit, leaf->from, leaf->to);
}

/// The leaves strictly inside (lo, hi), all leaving the triangle across edge `exit`, that meet
/// `item` within it: an interval (the region they sweep is convex, and so is the set of points
/// closer than R - eps to the feature), whose ends touch that set's part in the region at a
/// boundary point: where a leaf is tangent to the feature's rim inside the triangle, where the
/// rim crosses the exit edge, or on an outer leaf of the range (leaves enter free, so never where
/// the rim crosses the entry edge). The interval is the least and greatest of those leaves.
/// False when no leaf meets it.
static bool blocked_interval(const an_tangent_query *q, const dk_family *f, const an_item *item,
                             int32_t exit, const dk_crit *lo, const dk_crit *hi,
                             const dk_leaf *leaf_lo, const dk_leaf *leaf_hi, dk_block *out) {
  double limit = q->radius - q->engine->eps;
  dk_rim rim = rim_of(item, limit);
  bool any = false;
  if (leaf_meets(item, limit, leaf_lo)) {
    widen(out, &any, lo->key, lo->d);
  }
  if (leaf_meets(item, limit, leaf_hi)) {
    widen(out, &any, hi->key, hi->d);
  }
  vec2 a = f->v[an_cdt_next3(exit)], b = f->v[an_cdt_prev3(exit)];
  for (int e = 0; e < rim.circles; ++e) {
    for (int side = 0; side < 2; ++side) {
      an_tangent t;
      if (!an_directed_tangent(f->center, f->radius, f->sigma > 0.0, rim.ends[e], rim.r, side != 0,
                               0.0, &t)) {
        continue;
      }
      double key = leaf_key(f, t.direction);
      if (!(key > lo->key && key < hi->key)) {
        continue;
      }
      dk_leaf leaf = leaf_in(f, t.direction);
      double at = leaf_position(&leaf, t.to);
      if (at >= leaf_position(&leaf, leaf.from) && at <= leaf_position(&leaf, leaf.to)) {
        widen(out, &any, key, t.direction);
      }
    }
    double cut[2];
    int m = an_segment_circle_intersections(a, b, rim.ends[e], rim.r, cut);
    for (int k = 0; k < m; ++k) {
      widen_through(f, lo, hi, v2_lerp(a, b, cut[k]), out, &any);
    }
  }
  for (int side = -1; side <= 1 && rim.circles == 2; side += 2) {
    vec2 at;
    if (segments_cross_at(a, b, v2_mul_add(rim.ends[0], side, rim.offset),
                          v2_mul_add(rim.ends[1], side, rim.offset), &at)) {
      widen_through(f, lo, hi, at, out, &any);
    }
  }
  return any;
}

/// The progress of the leaf along d, known to lie between progress lo and hi (up to rounding,
/// which may put it a turn away).
static double progress_within(const dk_family *f, vec2 d, double lo, double hi) {
  double u = leaf_progress(f, d);
  if (u > hi && u - AN_TWO_PI >= lo - 1e-9) {
    u -= AN_TWO_PI;
  }
  return an_min(an_max(u, lo), hi);
}

/// The free runs of leaves [lo, hi] that leave across edge `exit`: the range less what the
/// blocking features block, each free stretch a node on the triangle beyond.
static bool follow_sub_range(const an_tangent_query *q, an_disk_search *s, int32_t root_id,
                             const dk_family *f, int32_t tri, int32_t exit, dk_crit lo, double u_lo,
                             dk_crit hi, double u_hi, const dk_leaf *leaves,
                             const uint32_t *features, uint32_t count) {
  const an_item *items = q->engine->space.grid.items;
  // The outer leaves: the caller's when it has them, else made here.
  dk_leaf leaf_lo = leaves ? leaves[0] : leaf_in(f, lo.d);
  dk_leaf leaf_hi = leaves ? leaves[1] : leaf_in(f, hi.d);
  if (!(hi.key > lo.key)) {
    // One leaf: free or not.
    double limit = q->radius - q->engine->eps;
    for (uint32_t i = 0; i < count; ++i) {
      if (s->blocks[i] && leaf_meets(&items[features[i]], limit, &leaf_lo)) {
        return true;
      }
    }
    return push_crossing(s, root_id, f, tri, exit, u_lo, lo.d, u_hi, hi.d);
  }
  // The blocked stretches, sorted by where they begin (few: by insertion), two criticals each.
  size_t blocked = 0;
  for (uint32_t i = 0; i < count; ++i) {
    dk_block b;
    if (!s->blocks[i] ||
        !blocked_interval(q, f, &items[features[i]], exit, &lo, &hi, &leaf_lo, &leaf_hi, &b)) {
      continue;
    }
    if (!reserve(s, (void **)&s->crit, &s->crit_capacity, 2 * blocked, 2 * blocked + 2,
                 sizeof *s->crit)) {
      return false;
    }
    size_t j = blocked;
    for (; j > 0 && s->crit[2 * j - 2].key > b.lo.key; --j) {
      s->crit[2 * j] = s->crit[2 * j - 2];
      s->crit[2 * j + 1] = s->crit[2 * j - 1];
    }
    s->crit[2 * j] = b.lo;
    s->crit[2 * j + 1] = b.hi;
    blocked++;
  }
  // The free stretches before, between and after them.
  dk_crit from = lo;
  double u_from = u_lo;
  for (size_t j = 0; j <= blocked; ++j) {
    bool last = j == blocked;
    dk_crit to = last ? hi : s->crit[2 * j];
    if (to.key > from.key) {
      double u_to = last ? u_hi : progress_within(f, to.d, u_lo, u_hi);
      if (!push_crossing(s, root_id, f, tri, exit, u_from, from.d, an_max(u_from, u_to), to.d)) {
        return false;
      }
    }
    if (!last && s->crit[2 * j + 1].key > from.key) {
      from = s->crit[2 * j + 1];
      u_from = from.key >= hi.key ? u_hi : progress_within(f, from.d, u_lo, u_hi);
    }
  }
  return true;
}

/// The free runs of leaves entering the triangle across an edge: split where the apex splits the
/// far edges, each part less what blocks it (follow_sub_range).
static bool follow_entering_leaves(const an_tangent_query *q, an_disk_search *s, int32_t root_id,
                                   const dk_family *f, int32_t tri, const dk_range *range,
                                   const uint32_t *features, uint32_t count, double lo, double hi,
                                   const dk_leaf outer[2]) {
  dk_crit a = {range->key_lo, range->d_lo}, b = {range->key_hi, range->d_hi};
  int32_t exit_lo = outer[0].exit, exit_hi = outer[1].exit;
  if (exit_lo == exit_hi) {
    return follow_sub_range(q, s, root_id, f, tri, exit_lo, a, lo, b, hi, outer, features, count);
  }
  vec2 d;
  if (!leaf_through(f, f->v[f->entry], &d)) {
    return true; // the apex inside the root's circle: no leaf gets past it
  }
  dk_crit c = {an_min(an_max(leaf_key(f, d), a.key), b.key), d};
  double u = progress_within(f, d, lo, hi);
  return follow_sub_range(q, s, root_id, f, tri, exit_lo, a, lo, c, u, NULL, features, count) &&
         follow_sub_range(q, s, root_id, f, tri, exit_hi, c, u, b, hi, NULL, features, count);
}

/// The free runs of leaves across the triangle: each maximal run leaving by one edge goes on to
/// the triangle beyond. Between two consecutive critical leaves nothing a leaf meets changes, so
/// the leaf halfway decides for all of them.
static bool follow_leaves(const an_tangent_query *q, an_disk_search *s, int32_t root_id,
                          const dk_family *f, int32_t tri, const dk_range *range,
                          const uint32_t *features, uint32_t count, double lo, double hi) {
  if (!gather_criticals(q, s, f, range, features, count)) {
    return false;
  }
  size_t run_first = 0;
  int32_t run_exit = -1;
  bool single = s->crit_count == 2 && range->key_lo == range->key_hi;
  for (size_t i = 0; i + 1 < s->crit_count; ++i) {
    const dk_crit *a = &s->crit[i], *b = &s->crit[i + 1];
    if (!(b->key > a->key) && !single) {
      continue;
    }
    vec2 mid = v2_normalize(v2_add(a->d, b->d));
    if (!(v2_len2(mid) > 0.0)) {
      mid = a->d;
    }
    dk_leaf leaf = leaf_in(f, mid);
    int32_t exit = segment_blocked(q, features, count, leaf.from, leaf.to) ? -1 : leaf.exit;
    if (exit != run_exit) {
      if (run_exit >= 0 &&
          !push_crossing(s, root_id, f, tri, run_exit, crit_progress(s, f, run_first, lo, hi),
                         s->crit[run_first].d, crit_progress(s, f, i, lo, hi), a->d)) {
        return false;
      }
      run_first = i;
      run_exit = exit;
    }
  }
  size_t last = s->crit_count - 1;
  return run_exit < 0 ||
         push_crossing(s, root_id, f, tri, run_exit, crit_progress(s, f, run_first, lo, hi),
                       s->crit[run_first].d, hi, s->crit[last].d);
}

/// The region leaves [lo, hi] sweep across the triangle: for leaves entering across an edge, the
/// convex polygon the two outer leaves, the entry edge and the far edges bound (the apex among
/// its corners when the leaves split there); for leaves that leave the root inside, the triangle.
static int swept_region(const dk_family *f, const dk_leaf *a, const dk_leaf *b, vec2 poly[5]) {
  if (f->entry < 0) {
    memcpy(poly, f->v, 3 * sizeof *poly);
    return 3;
  }
  int n = 0;
  poly[n++] = a->from;
  poly[n++] = b->from;
  poly[n++] = b->to;
  if (a->exit != b->exit) {
    poly[n++] = f->v[f->entry];
  }
  poly[n++] = a->to;
  return n;
}

/// Of the features near the triangle, those within reach of the region the leaves sweep (into
/// s->near, *kept of them, and s->blocks): a feature farther than R (and a margin) from it
/// neither blocks a leaf there nor offers one a corner to touch, one farther than R - eps blocks
/// none. Distances are bounded below by separating axes (the region's sides), which only keeps
/// more than needed. The edge that starts at the root's own corner is left out (its leaves run R
/// from it or farther, and its corner is the root's); the edge ending there stays, for the corner
/// it starts at.
static const uint32_t *features_in_reach(const an_tangent_query *q, an_disk_search *s,
                                         const dk_root *root, const vec2 *poly, int n,
                                         const uint32_t *features, uint32_t count, uint32_t *kept) {
  if (!reserve(s, (void **)&s->near, &s->near_capacity, 0, (size_t)count + 1, sizeof *s->near) ||
      !reserve(s, (void **)&s->blocks, &s->blocks_capacity, 0, (size_t)count + 1,
               sizeof *s->blocks)) {
    return NULL;
  }
  // The region's sides, each as an outward unit normal and its offset. A side too short to have
  // a direction (an outer leaf through a corner of the triangle enters and leaves it there)
  // separates nothing: it is left out, which only keeps more.
  vec2 normal[5];
  double offset[5];
  int axes = 0;
  vec2 middle = v2(0.0, 0.0), lo_box, hi_box;
  for (int k = 0; k < n; ++k) {
    middle = v2_mul_add(middle, 1.0 / n, poly[k]);
  }
  an_box_of_points(poly, (size_t)n, &lo_box, &hi_box);
  double shortest = 1e-9 * an_max(hi_box.x - lo_box.x, hi_box.y - lo_box.y);
  for (int k = 0; k < n; ++k) {
    vec2 e = v2_sub(poly[(k + 1) % n], poly[k]);
    if (!(v2_len(e) > shortest)) {
      continue;
    }
    vec2 m = v2_normalize(v2(e.y, -e.x));
    if (v2_dot(m, v2_sub(middle, poly[k])) > 0.0) {
      m = v2_scale(m, -1.0);
    }
    normal[axes] = m;
    offset[axes++] = v2_dot(m, poly[k]);
  }
  const an_item *items = q->engine->space.grid.items;
  double reach = q->radius + AN_FILING_MARGIN_TOLERANCES * q->engine->eps;
  double limit = q->radius - q->engine->eps;
  int32_t own = root->corner == AN_NONE ? -1 : q->corners[root->corner].obstacle;
  uint32_t out = 0;
  for (uint32_t i = 0; i < count; ++i) {
    const an_item *item = &items[features[i]];
    vec2 b = an_item_end(item);
    double rim = item->kind == AN_ITEM_EDGE ? 0.0 : item->radius;
    if (own >= 0 && item->owner == (uint32_t)own && v2_equal(item->a, root->center)) {
      continue;
    }
    double apart = -INFINITY;
    for (int k = 0; k < axes; ++k) {
      double d = an_min(v2_dot(normal[k], item->a), v2_dot(normal[k], b)) - offset[k];
      apart = an_max(apart, d);
    }
    if (apart >= reach + rim) {
      continue;
    }
    s->near[out] = features[i];
    s->blocks[out] = apart < limit + rim;
    out++;
  }
  *kept = out;
  return s->near;
}
/// The wedge's room for departures after arriving at `touch` turning `ccw`: the progress from
/// the arrival to the wedge's end in the direction of turn.
static double corner_span(const an_corner *corner, vec2 touch, bool ccw) {
  if (corner->wedge_sweep >= AN_TWO_PI) {
    return AN_TWO_PI * (1.0 - 1e-9);
  }
  double offset =
      an_corner_offset(corner, atan2(touch.y - corner->center.y, touch.x - corner->center.x));
  return ccw ? an_max(0.0, corner->wedge_sweep - offset) : offset;
}

/// Is the arc of corner `c` from touching direction `from` (radians from its centre) turning
/// `progress` radians one way round free? A corner whose whole wedge is free needs no check.
static bool arc_is_free(an_tangent_query *q, const an_corner *c, double from, double progress,
                        bool ccw) {
  if (progress <= 0.0) {
    return true;
  }
  an_arc arc = an_corner_arc(c, from, progress, ccw);
  return an_arc_is_free(&q->settings, &q->clearance, &arc);
}

/// A root arriving on corner `corner` turning `ccw` along the leaf t (from the parent's circle
/// point t.from, at progress leave_u, to the touching point t.to) with length g so far, then its
/// arc's first piece in triangle `tri` queued. Arrivals on one corner and direction dominate each
/// other along the arc between them when it is free (docs/DESIGN.md, "Arrivals on one corner"): a
/// new arrival that an earlier one reaches as short is dropped; one that reaches an earlier one
/// shorter takes over its departures (the earlier one's span ends); otherwise each keeps the
/// departures it leaves shortest, and a span ends where the other arrival's begin.
static bool add_root(an_tangent_query *q, an_disk_search *s, int32_t parent, double leave_u,
                     uint32_t corner, bool ccw, const an_tangent *t, double g, int32_t tri) {
  size_t group = 2 * (size_t)corner + (ccw ? 1 : 0);
  double arrive = atan2(t->direction.y, t->direction.x);
  double sigma = ccw ? 1.0 : -1.0;
  const an_corner *c = &q->corners[corner];
  double rho = c->radius;
  double span = corner_span(c, t->to, ccw);
  double touch = atan2(t->to.y - c->center.y, t->to.x - c->center.x);
  double slack = 1e-12 * (1.0 + g);
  if (s->same_stamp[group] != s->stamp) {
    s->same_stamp[group] = s->stamp;
    s->same_head[group] = NO_ROOT;
  }
  for (int32_t r = s->same_head[group]; r != NO_ROOT; r = s->roots[r].next_same) {
    dk_root *other = &s->roots[r];
    if (other->span < 0.0) {
      continue; // dominated already
    }
    double delta = sigma * remainder(arrive - other->arrive, AN_TWO_PI); // from other to here
    double other_touch = atan2(other->arrival.y - c->center.y, other->arrival.x - c->center.x);
    if (delta >= 0.0) {
      if (delta > other->span || !arc_is_free(q, c, other_touch, delta, ccw)) {
        continue; // beyond the other's wedge end, or the arc between is blocked: apart
      }
      if (other->g + rho * delta <= g + slack) {
        return true;
      }
      other->span = an_min(other->span, delta);
    } else {
      if (-delta > span || !arc_is_free(q, c, touch, -delta, ccw)) {
        continue;
      }
      if (g + rho * -delta <= other->g + slack) {
        other->span = -1.0;
      } else {
        span = an_min(span, -delta);
      }
    }
  }
  if (s->root_count >= (size_t)INT32_MAX ||
      !reserve(s, (void **)&s->roots, &s->root_capacity, s->root_count, s->root_count + 1,
               sizeof *s->roots)) {
    return false;
  }
  int32_t id = (int32_t)s->root_count++;
  s->roots[id] = (dk_root){.center = c->center,
                           .radius = rho,
                           .sigma = sigma,
                           .arrive = arrive,
                           .arrive_d = v2_from_angle(arrive),
                           .span = span,
                           .g = g,
                           .arrival = t->to,
                           .leave = t->from,
                           .leave_u = leave_u,
                           .parent = parent,
                           .corner = corner,
                           .next_same = s->same_head[group],
                           .bound = an_tangent_corner_bound(q, corner)};
  s->same_head[group] = id;
  dk_node n = {0.0, span, id, tri, -1};
  return push_node(s, &n, g + v2_dist(t->to, s->goal));
}

/// The corner whose circle item `id` (a grid item) draws: the corner at an edge's first vertex,
/// or a circle obstacle's; AN_NONE for none (a vertex that is no corner).
static uint32_t corner_of_item(const an_tangent_query *q, uint32_t id) {
  return q->engine->item_corner ? q->engine->item_corner[id] : AN_NONE;
}

/// Is key within the range, give or take the family's rounding slack (a leaf on the range's end
/// belongs to both neighbours; the arrivals it makes twice are one, add_root)? The pseudo-angle
/// of a key grows by at most about one unit per radian.
static bool key_in_range(const dk_family *f, const dk_range *range, double key) {
  return key >= range->key_lo - f->slack && key <= range->key_hi + f->slack;
}

/// New roots: every corner circle a leaf of the range touches inside the triangle, free up to the
/// touching point and arriving within the corner's wedge.
static bool make_roots(an_tangent_query *q, an_disk_search *s, int32_t root_id, const dk_family *f,
                       int32_t tri, const dk_range *range, const uint32_t *features,
                       uint32_t count) {
  double reach = AN_FILING_MARGIN_TOLERANCES * q->engine->eps;
  uint32_t own = s->roots[root_id].corner;
  for (uint32_t i = 0; i < count; ++i) {
    uint32_t corner = corner_of_item(q, features[i]);
    if (corner == AN_NONE || corner == own) {
      continue;
    }
    const an_corner *c = &q->corners[corner];
    for (int side = 0; side < 2; ++side) {
      bool ccw = side != 0;
      an_tangent t;
      if (!an_directed_tangent(f->center, f->radius, f->sigma > 0.0, c->center, c->radius, ccw,
                               q->engine->eps, &t) ||
          !key_in_range(f, range, leaf_key(f, t.direction))) {
        continue;
      }
      // The start's tangent may touch just outside the wedge from an end within the tolerance.
      const double *pinch_table = q->engine->pinch_table;
      bool taut = own == AN_NONE
                      ? an_end_tangent_is_taut(&t, c, ccw, true, q->engine->eps, pinch_table)
                      : an_corner_wedge_contains(c, an_touch_normal(t.direction, ccw),
                                                 AN_WEDGE_SLACK, pinch_table);
      if (!taut) {
        continue;
      }
      dk_leaf leaf = leaf_in(f, t.direction);
      double at = leaf_position(&leaf, t.to);
      double from = leaf_position(&leaf, leaf.from), to = leaf_position(&leaf, leaf.to);
      if (at < from - reach || at > to + reach) {
        continue;
      }
      if (segment_blocked(q, features, count, at < from ? t.to : leaf.from, t.to)) {
        continue;
      }
      const dk_root *root = &s->roots[root_id];
      double u = clamp_progress(leaf_progress(f, t.direction), root->span);
      double g = root->g + root->radius * u + v2_dist(t.from, t.to);
      if (!add_root(q, s, root_id, u, corner, ccw, &t, g, tri)) {
        return false;
      }
    }
  }
  return true;
}

static void note_goal(an_disk_search *s, int32_t root_id, double u, double length) {
  double g = s->roots[root_id].g + s->roots[root_id].radius * u + length;
  if (g < s->best) {
    s->best = g;
    s->best_root = root_id;
    s->best_u = u;
  }
}

/// The goal, when it lies in the triangle and a leaf of the range reaches it free; or, on the
/// piece [lo, hi] of a root's arc, when it lies on the arc itself (an end that touches an
/// obstacle, within the tolerance, lies on that corner's circle).
static void offer_goal(const an_tangent_query *q, an_disk_search *s, int32_t root_id,
                       const dk_family *f, const dk_range *range, const uint32_t *features,
                       uint32_t count, double lo, double hi) {
  vec2 d;
  double eps = q->engine->eps;
  if (f->entry < 0 && f->radius > 0.0 && v2_dist(s->goal, f->center) <= f->radius + eps) {
    vec2 n = v2_sub(s->goal, f->center);
    double touch = atan2(n.y, n.x) + f->sigma * 0.5 * AN_PI;
    double u = an_wrap_angle(f->sigma * (touch - f->arrive));
    // Within the tolerance of the piece's ends, measured along the arc: a goal at the end of the
    // corner's wedge (touching the wall's edge there too) lies at the span's progress, which the
    // two computations of that angle may round apart.
    double slack = eps / f->radius;
    u = u > AN_TWO_PI - slack ? u - AN_TWO_PI : u;
    if (u >= lo - slack && u <= hi + slack) {
      u = an_min(an_max(u, lo), hi);
      note_goal(s, root_id, u, v2_dist(leaf_origin(f, leaf_direction(f, u)), s->goal));
    }
    return;
  }
  if (!leaf_through(f, s->goal, &d)) {
    return;
  }
  const dk_root *root = &s->roots[root_id];
  if (!key_in_range(f, range, leaf_key(f, d))) {
    // A goal within the tolerance of the offset line of the edge a corner's wedge ends on is
    // reached from just past the wedge's end: from the end itself, the path then turning by less
    // than AN_END_TURN_MAX at the touching point (as an_end_tangent_is_taut() allows).
    double u = leaf_progress(f, d);
    if (!(root->radius > 0.0 && hi >= root->span && u > hi)) {
      return;
    }
    vec2 end = leaf_origin(f, range->d_hi);
    double length = v2_dist(end, s->goal);
    if (!(u - hi <= an_min(eps / an_max(length, eps), AN_END_TURN_MAX))) {
      return;
    }
    d = range->d_hi;
  }
  dk_leaf leaf = leaf_in(f, d);
  double at = leaf_position(&leaf, s->goal), from = leaf_position(&leaf, leaf.from);
  if (at < from - AN_FILING_MARGIN_TOLERANCES * q->engine->eps ||
      segment_blocked(q, features, count, at < from ? s->goal : leaf.from, s->goal)) {
    return;
  }
  double u = root->radius > 0.0 ? clamp_progress(leaf_progress(f, d), root->span) : 0.0;
  note_goal(s, root_id, u, v2_dist(leaf.origin, s->goal));
}

static int circle_circle_points(vec2 a, double ra, vec2 b, double rb, vec2 out[2]) {
  vec2 ab = v2_sub(b, a);
  double d = v2_len(ab);
  if (!(d > 0.0) || d > ra + rb || d < fabs(ra - rb)) {
    return 0;
  }
  double along = (d * d + ra * ra - rb * rb) / (2.0 * d);
  double h = an_safe_sqrt(ra * ra - along * along);
  vec2 e = v2_scale(ab, 1.0 / d);
  vec2 m = v2_mul_add(a, along, e);
  out[0] = v2_mul_add(m, h, v2_perp(e));
  out[1] = v2_mul_add(m, -h, v2_perp(e));
  return h > 0.0 ? 2 : 1;
}

/// A point of the arc where what it meets may change, at progress u, kept when inside (lo, hi).
static bool add_arc_crit(an_disk_search *s, double u, double lo, double hi) {
  return !(u > lo && u < hi) || push_crit(s, (dk_crit){u, v2(0.0, 0.0)});
}

/// How far a circle round c turns sigma from angle phi to its point p, in [0, 2 pi).
static double arc_turn(vec2 c, double sigma, double phi, vec2 p) {
  return an_wrap_angle(sigma * (atan2(p.y - c.y, p.x - c.x) - phi));
}

static int compare_crits(const void *pa, const void *pb) {
  double a = ((const dk_crit *)pa)->key, b = ((const dk_crit *)pb)->key;
  return (a > b) - (a < b);
}

/// The arc of `root` inside triangle `f` from progress lo: where it goes on to (the progress it
/// leaves the triangle at, across *exit_edge; -1 when it does not leave it before `limit`), and
/// where it ends in the triangle: the first of leaving, `limit`, and the first point closer than
/// R - eps to a feature (*blocked then).
static double arc_piece(const an_tangent_query *q, an_disk_search *s, const dk_root *root,
                        const dk_family *f, const uint32_t *features, uint32_t count, double lo,
                        double limit, int32_t *exit_edge, bool *blocked) {
  vec2 c = root->center;
  double rho = root->radius, sigma = root->sigma;
  double phi_lo = f->arrive + sigma * lo - sigma * 0.5 * AN_PI;
  *exit_edge = -1;
  *blocked = false;
  double end = limit;
  double tolerance = 2.0 * AN_FILING_MARGIN_TOLERANCES * q->engine->eps, immediate = INFINITY;
  for (int32_t k = 0; k < 3; ++k) {
    // The edge's line with its normal into the triangle, computed from its ends in one fixed
    // order so that both triangles beside it see the very same line.
    vec2 a = f->v[an_cdt_next3(k)], b = f->v[an_cdt_prev3(k)];
    if (b.x < a.x || (b.x == a.x && b.y < a.y)) {
      vec2 t = a;
      a = b;
      b = t;
    }
    vec2 n = v2_normalize(v2_perp(v2_sub(b, a)));
    if (v2_dot(n, v2_sub(f->v[k], a)) < 0.0) {
      n = v2_scale(n, -1.0);
    }
    // Where the arc is at lo: outside this side (a touching point within the tolerance of the
    // triangle), or on it and leaving, it leaves the triangle at once.
    double normal_angle = atan2(n.y, n.x);
    double side = v2_dot(n, v2_sub(c, a)) + rho * cos(phi_lo - normal_angle);
    double moving = -sigma * sin(phi_lo - normal_angle);
    if (side < -tolerance || (side <= tolerance && moving < 0.0)) {
      if (side < immediate) {
        immediate = side;
        *exit_edge = k;
        end = lo;
      }
      continue;
    }
    if (immediate < INFINITY) {
      continue;
    }
    double kappa = -v2_dot(n, v2_sub(c, a)) / rho;
    if (!(kappa > -1.0 && kappa < 1.0)) {
      continue;
    }
    double beta = acos(kappa);
    if (beta < 1e-9 || beta > AN_PI - 1e-9) {
      continue; // the circle only grazes the line
    }
    double p = an_wrap_angle(sigma * (normal_angle + sigma * beta - phi_lo));
    if (p <= 1e-12 || p >= AN_TWO_PI - 1e-12) {
      continue; // the crossing at lo, entering: the next one out is a turn away
    }
    if (lo + p < end) {
      end = lo + p;
      *exit_edge = k;
    }
  }
  if (immediate < INFINITY) {
    return lo;
  }
  // Where the arc first comes closer than R - eps to a feature, between lo and end.
  s->crit_count = 0;
  const an_item *items = q->engine->space.grid.items;
  double limit_r = q->radius - q->engine->eps;
  vec2 points[2];
  for (uint32_t i = 0; i < count; ++i) {
    dk_rim rim = rim_of(&items[features[i]], limit_r);
    for (int e = 0; e < rim.circles; ++e) {
      int m = circle_circle_points(c, rho, rim.ends[e], rim.r, points);
      for (int j = 0; j < m; ++j) {
        if (!add_arc_crit(s, lo + arc_turn(c, sigma, phi_lo, points[j]), lo, end)) {
          return -1.0;
        }
      }
    }
    if (rim.circles == 2) {
      for (int side = -1; side <= 1; side += 2) {
        vec2 a = v2_mul_add(rim.ends[0], side, rim.offset);
        vec2 b = v2_mul_add(rim.ends[1], side, rim.offset);
        double t[2];
        int m = an_segment_circle_intersections(a, b, c, rho, t);
        for (int j = 0; j < m; ++j) {
          if (!add_arc_crit(s, lo + arc_turn(c, sigma, phi_lo, v2_lerp(a, b, t[j])), lo, end)) {
            return -1.0;
          }
        }
      }
    }
  }
  if (!add_arc_crit(s, lo, -INFINITY, INFINITY) || !add_arc_crit(s, end, -INFINITY, INFINITY)) {
    return -1.0;
  }
  qsort(s->crit, s->crit_count, sizeof *s->crit, compare_crits);
  for (size_t i = 0; i + 1 < s->crit_count; ++i) {
    double a = s->crit[i].key, b = s->crit[i + 1].key;
    if (!(b > a)) {
      continue;
    }
    double mid = f->arrive + sigma * 0.5 * (a + b) - sigma * 0.5 * AN_PI;
    if (point_blocked(q, features, count, an_circle_point(c, rho, mid))) {
      *blocked = true;
      *exit_edge = -1;
      return a;
    }
  }
  return end;
}

static vec2 arc_point(const dk_root *root, double u) {
  return an_circle_point(root->center, root->radius,
                         root->arrive + root->sigma * u - root->sigma * 0.5 * AN_PI);
}

/// Expands node `id`.
static bool expand(an_tangent_query *q, an_disk_search *s, uint32_t id) {
  dk_node n = s->nodes[id];
  // A later arrival may have taken this root's departures beyond its span.
  double span = s->roots[n.root].span;
  if (n.lo > span) {
    return true;
  }
  uint32_t count;
  const uint32_t *features = features_of(q, s, n.tri, &count);
  if (!features) {
    return false;
  }
  dk_family f = family_of(s, &s->roots[n.root], n.tri, n.edge);
  double lo = n.lo, hi = an_min(n.hi, span);
  if (n.edge < 0 && s->roots[n.root].radius > 0.0) {
    const dk_root *root = &s->roots[n.root];
    int32_t exit;
    bool blocked;
    hi = arc_piece(q, s, root, &f, features, count, lo, hi, &exit, &blocked);
    if (hi < 0.0) {
      return false;
    }
    int32_t next = exit >= 0 ? s->mesh->fn[3 * (size_t)n.tri + (size_t)exit] : -1;
    if (next >= 0) {
      dk_node arc = {hi, n.hi, n.root, next, -1};
      double key = root->g + root->radius * hi + v2_dist(arc_point(root, hi), s->goal);
      if (key < s->best && !push_node(s, &arc, key)) {
        return false;
      }
    }
    if (n.lo == 0.0 && !s->roots[n.root].expanded) {
      s->roots[n.root].expanded = 1;
      if (an_nearer_than(&s->near_distance, v2_dist(root->arrival, s->goal))) {
        s->near_root = n.root;
      }
    }
  }
  dk_range range;
  range.d_lo = leaf_direction(&f, lo);
  range.d_hi = leaf_direction(&f, hi);
  // The arrival's own leaf is 0; the full turn's end (the start's last leaf) is 4, not 0.
  range.key_lo = lo == 0.0 ? 0.0 : leaf_key(&f, range.d_lo);
  range.key_hi = hi >= AN_TWO_PI ? 4.0 : leaf_key(&f, range.d_hi);
  dk_leaf outer[2] = {leaf_in(&f, range.d_lo), leaf_in(&f, range.d_hi)};
  vec2 poly[5];
  int sides = swept_region(&f, &outer[0], &outer[1], poly);
  features = features_in_reach(q, s, &s->roots[n.root], poly, sides, features, count, &count);
  if (!features) {
    return false;
  }
  bool followed =
      n.edge >= 0
          ? follow_entering_leaves(q, s, n.root, &f, n.tri, &range, features, count, lo, hi, outer)
          : follow_leaves(q, s, n.root, &f, n.tri, &range, features, count, lo, hi);
  if (!followed || !make_roots(q, s, n.root, &f, n.tri, &range, features, count)) {
    return false;
  }
  if (s->goal_mark[n.tri] == s->stamp) {
    offer_goal(q, s, n.root, &f, &range, features, count, lo, hi);
  }
  return true;
}

// ---------------------------------------------------------------------------------------------
// Queries
// ---------------------------------------------------------------------------------------------

bool an_disk_takes(const an_tangent_query *q, an_disk_search *s, vec2 start, vec2 goal) {
  const an_tangent_engine *engine = q->engine;
  if (q->settings.point_agent ||
      q->radius + AN_FILING_MARGIN_TOLERANCES * engine->eps >= engine->disk_margin) {
    return false;
  }
  s->start_tri = an_navmesh_locate(s->mesh, start);
  s->goal_tri = an_navmesh_locate(s->mesh, goal);
  return s->start_tri >= 0 && s->goal_tri >= 0;
}

static void add_start(void *context, int32_t tri) {
  an_disk_search *s = context;
  s->starts[s->start_count++] = tri;
}

static void add_goal(void *context, int32_t tri) {
  an_disk_search *s = context;
  s->goal_mark[tri] = s->stamp;
}

arcnav_status an_disk_begin(an_tangent_query *q, an_disk_search *s, vec2 start, vec2 goal,
                            arcnav_path *path) {
  const an_clearance *cl = &q->settings;
  q->clearance.checks = 0;
  if (an_segment_is_free(cl, &q->clearance, start, goal)) {
    q->control->stats.edges_checked = q->clearance.checks;
    return an_path_add_line(path, start, goal);
  }
  if (an_stamp_next(&s->stamp)) {
    memset(s->goal_mark, 0, s->tri_room * sizeof *s->goal_mark);
    memset(s->same_stamp, 0, s->group_room * sizeof *s->same_stamp);
  }
  s->start = start;
  s->goal = goal;
  s->root_count = 0;
  s->node_count = 0;
  an_heap_clear(&s->open);
  s->best = INFINITY;
  s->best_root = NO_ROOT;
  s->best_u = 0.0;
  s->expansions = 0;
  s->near_root = NO_ROOT;
  s->near_distance = v2_dist(start, goal);
  const an_navmesh *mesh = s->mesh;
  assert(s->start_tri >= 0 && s->goal_tri >= 0);
  s->start_count = 0;
  an_funnel_near_triangles(mesh, start, s->start_tri, s->near_stamp, s->near_room, &s->near_mark,
                           s->near_queue, add_start, s);
  an_funnel_near_triangles(mesh, goal, s->goal_tri, s->near_stamp, s->near_room, &s->near_mark,
                           s->near_queue, add_goal, s);
  if (!reserve(s, (void **)&s->roots, &s->root_capacity, 0, 1, sizeof *s->roots)) {
    return ARCNAV_ERR_OUT_OF_MEMORY;
  }
  s->roots[0] = (dk_root){.center = start,
                          .radius = 0.0,
                          .sigma = 1.0,
                          .arrive = 0.0,
                          .arrive_d = v2(1.0, 0.0),
                          .span = AN_TWO_PI,
                          .g = 0.0,
                          .arrival = start,
                          .leave = start,
                          .parent = NO_ROOT,
                          .corner = AN_NONE,
                          .next_same = NO_ROOT,
                          .expanded = 1};
  s->root_count = 1;
  for (size_t k = 0; k < s->start_count; ++k) {
    dk_node n = {0.0, AN_TWO_PI, 0, s->starts[k], -1};
    if (!push_node(s, &n, v2_dist(start, goal))) {
      return ARCNAV_ERR_OUT_OF_MEMORY;
    }
  }
  q->control->stats.edges_checked = q->clearance.checks;
  return ARCNAV_IN_PROGRESS;
}

/// The path from the start through the roots up to `last`, then along its arc to progress
/// `leave_u` and on to `end` (when `to_end`), or ending at `last`'s arrival point.
static arcnav_status emit_path(an_disk_search *s, int32_t last, bool to_end, double leave_u,
                               vec2 end, arcnav_path *path) {
  size_t length = 0;
  for (int32_t r = last; r != NO_ROOT; r = s->roots[r].parent) {
    if (!reserve(s, (void **)&s->trail, &s->trail_capacity, length, length + 1, sizeof *s->trail)) {
      return ARCNAV_ERR_OUT_OF_MEMORY;
    }
    s->trail[length++] = r;
  }
  vec2 finish = to_end ? end : s->roots[last].arrival;
  an_path_reset(path, s->start, finish);
  arcnav_status status = ARCNAV_OK;
  // trail[length - 1] is the start.
  for (size_t k = length - 1; k-- > 0 && status == ARCNAV_OK;) {
    const dk_root *root = &s->roots[s->trail[k]];
    status = an_path_add_line(path, root->leave, root->arrival);
    if (status != ARCNAV_OK || (k == 0 && !to_end)) {
      break;
    }
    double u;
    vec2 leave;
    if (k > 0) {
      const dk_root *child = &s->roots[s->trail[k - 1]];
      u = child->leave_u;
      leave = child->leave;
    } else {
      u = leave_u;
      leave = arc_point(root, u);
    }
    status = an_path_add_arc(path, root->center, root->radius, root->arrival, leave, u,
                             root->sigma > 0.0);
  }
  if (status == ARCNAV_OK && to_end) {
    const dk_root *last_root = &s->roots[last];
    vec2 from = last_root->radius > 0.0 ? arc_point(last_root, leave_u) : s->start;
    status = an_path_add_line(path, from, end);
  }
  return status;
}

arcnav_status an_disk_resume(an_tangent_query *q, an_disk_search *s, arcnav_path *path) {
  size_t pause_at = an_slice_end(q->control, s->expansions);
  arcnav_status status = ARCNAV_OK;
  while (!an_heap_empty(&s->open) && an_heap_top_key(&s->open) < s->best) {
    if (s->expansions >= pause_at) {
      status = ARCNAV_IN_PROGRESS;
      break;
    }
    if (!an_tangent_may_expand(q, s->expansions)) {
      status = ARCNAV_SEARCH_LIMIT;
      break;
    }
    uint32_t id = an_heap_pop(&s->open, NULL);
    s->expansions++;
    if (!expand(q, s, id)) {
      status = ARCNAV_ERR_OUT_OF_MEMORY;
      break;
    }
  }
  q->control->stats.nodes_expanded = s->expansions;
  if (status != ARCNAV_OK) {
    return status;
  }
  if (s->best_root == NO_ROOT) {
    return ARCNAV_NO_PATH;
  }
  status = emit_path(s, s->best_root, true, s->best_u, s->goal, path);
  if (status != ARCNAV_OK) {
    an_path_reset(path, s->start, s->goal); // nothing half-written on any status but OK
  }
  return status;
}

arcnav_status an_disk_best_so_far(const an_tangent_query *q, an_disk_search *s, arcnav_path *path) {
  (void)q;
  arcnav_status status = ARCNAV_OK;
  if (s->near_root != NO_ROOT) {
    status = emit_path(s, s->near_root, false, 0.0, s->start, path);
  }
  if (s->near_root == NO_ROOT || status != ARCNAV_OK) {
    an_path_reset(path, s->start, s->start);
  }
  return status;
}
