// SPDX-License-Identifier: MIT
// The interval search for a disk (disk_search.h): leaf families and their geometry, the obstacle
// pieces near a triangle, one expansion, and the search loop. docs/DESIGN.md ("The interval search
// for a disk") gives the reasoning.
#include "tangent/disk_search.h"

#include "funnel/funnel.h"
#include "path/path.h"
#include "search/heap.h"
#include "search/marks.h"

#include <assert.h>
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
  double span;   ///< the largest progress the corner's wedge allows
  double g;      ///< length from the start to the arrival point
  vec2 arrival;  ///< where the path arrives on the circle (the start itself for the start)
  vec2 leave;    ///< where the path left the parent root for it
  int32_t parent;
  uint32_t corner;   ///< AN_NONE for the start
  int32_t next_same; ///< the next root on the same corner and direction, or -1
  uint8_t expanded;  ///< its arc's first piece was expanded
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

struct an_disk_search {
  an_allocator alloc;
  const an_navmesh *mesh;
  size_t tri_count;
  uint32_t item_count;
  uint32_t stamp;
  // The obstacle pieces (grid items) within reach of each triangle, gathered on a query's first
  // visit: features[tri_first[t] .. + tri_count_of[t]] when tri_stamp[t] is the query's stamp.
  uint32_t *tri_stamp;
  uint32_t *tri_first;
  uint32_t *tri_features;
  uint32_t *item_stamp;
  uint32_t item_mark;
  uint32_t *features;
  size_t feature_count, feature_capacity;
  // The triangles holding the goal, and the start's; an_funnel_near_triangles()' walk.
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
  // One expansion's work space: critical progress values and the runs they bound.
  double *crit;
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
  an_free(&a, s->crit);
  an_free(&a, s->trail);
  an_free(&a, s);
}

arcnav_status an_disk_search_create(const an_tangent_engine *engine, an_disk_search **out) {
  *out = NULL;
  if (!engine->sight_mesh) {
    return ARCNAV_OK; // no triangulation: every query goes to the tangents on demand
  }
  an_allocator alloc = engine->alloc;
  an_disk_search *s = an_calloc(&alloc, 1, sizeof *s);
  if (!s) {
    return ARCNAV_ERR_OUT_OF_MEMORY;
  }
  s->alloc = alloc;
  s->mesh = an_sight_mesh_polygons(engine->sight_mesh);
  s->tri_count = s->mesh->free_count;
  s->item_count = engine->space.grid.item_count;
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
  *out = s;
  return ARCNAV_OK;
}

// ---------------------------------------------------------------------------------------------
// Leaf families
// ---------------------------------------------------------------------------------------------

/// The leaves of one root in one triangle: where they come from (the root itself, or an edge they
/// enter across) and the triangle's corners.
typedef struct dk_family {
  vec2 center;
  double radius, sigma, arrive;
  vec2 v[3];     ///< the triangle, counter-clockwise
  int32_t entry; ///< the edge the leaves enter across, or -1: they leave the root inside
} dk_family;

static double wrap_turn(double angle) {
  double w = fmod(angle, AN_TWO_PI);
  return w < 0.0 ? w + AN_TWO_PI : w;
}

static double leaf_angle(const dk_family *f, double u) {
  return f->arrive + f->sigma * u;
}

/// The point where leaf `u`, of direction d, leaves the root: the start, or the circle's point
/// whose tangent it is (the centre on the leaf's left when sigma is +1).
static vec2 leaf_origin(const dk_family *f, vec2 d) {
  double k = f->sigma * f->radius;
  return v2(f->center.x + k * d.y, f->center.y - k * d.x);
}

static double progress_of_angle(const dk_family *f, double angle) {
  return wrap_turn(f->sigma * (angle - f->arrive));
}

/// The leaf through p (the tangent from the root's circle to p in its direction): false when p
/// lies inside the circle, where no leaf passes.
static bool progress_through(const dk_family *f, vec2 p, double *u) {
  vec2 v = v2_sub(p, f->center);
  double d2 = v2_len2(v);
  double r2 = f->radius * f->radius;
  if (!(d2 > r2) || d2 == 0.0) {
    return false;
  }
  double angle = atan2(v.y, v.x);
  if (f->radius > 0.0) {
    angle += f->sigma * atan2(f->radius, sqrt(d2 - r2));
  }
  *u = progress_of_angle(f, angle);
  return true;
}

/// Leaf u's way across the triangle: from `from` (its origin, or where it enters) to `to` on
/// edge `exit`.
typedef struct dk_leaf {
  vec2 d, origin, from, to;
  int32_t exit;
} dk_leaf;

static vec2 line_meet(vec2 o, vec2 d, vec2 a, vec2 b) {
  vec2 e = v2_sub(b, a);
  double denom = v2_cross(d, e);
  if (denom == 0.0) {
    return o;
  }
  return v2_mul_add(o, v2_cross(v2_sub(a, o), e) / denom, d);
}

static dk_leaf leaf_in(const dk_family *f, double u) {
  dk_leaf leaf;
  double angle = leaf_angle(f, u);
  leaf.d = v2(cos(angle), sin(angle));
  leaf.origin = leaf_origin(f, leaf.d);
  const vec2 *v = f->v;
  if (f->entry >= 0) {
    int32_t k = f->entry;
    leaf.from = line_meet(leaf.origin, leaf.d, v[(k + 1) % 3], v[(k + 2) % 3]);
    // Seen from the entry edge, the apex splits the far edges.
    leaf.exit = v2_cross(v2_sub(v[k], leaf.from), leaf.d) <= 0.0 ? (k + 1) % 3 : (k + 2) % 3;
  } else {
    leaf.from = leaf.origin;
    // The edge whose corners the direction lies between, seen from the origin; the best such
    // when the origin is on the boundary.
    double best = -INFINITY;
    leaf.exit = 0;
    for (int32_t k = 0; k < 3; ++k) {
      vec2 a = v2_sub(v[(k + 1) % 3], leaf.from), b = v2_sub(v[(k + 2) % 3], leaf.from);
      double la = v2_len(a), lb = v2_len(b);
      double sa = la > 0.0 ? v2_cross(a, leaf.d) / la : 0.0;
      double sb = lb > 0.0 ? v2_cross(leaf.d, b) / lb : 0.0;
      double score = an_min(sa, sb);
      if (score > best) {
        best = score;
        leaf.exit = k;
      }
    }
  }
  int32_t k = leaf.exit;
  leaf.to = line_meet(leaf.from, leaf.d, v[(k + 1) % 3], v[(k + 2) % 3]);
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
    d = an_min(d, an_segment_segment_dist(a, b, v[k], v[(k + 1) % 3]));
  }
  return d;
}

static void triangle_points(const an_navmesh *mesh, int32_t tri, vec2 out[3]) {
  for (int k = 0; k < 3; ++k) {
    out[k] = mesh->cdt.points[mesh->fv[3 * (size_t)tri + (size_t)k]];
  }
}

static bool reserve(an_disk_search *s, void **array, size_t *capacity, size_t used, size_t needed,
                    size_t size) {
  return needed <= *capacity || an_reserve(&s->alloc, array, capacity, used, needed, size);
}

/// The grid items within the disk's reach of triangle `tri`, gathered on the query's first visit:
/// edges within R of it, circle obstacles within their radius + R (and a margin of a few
/// tolerances). Units the query ignores are left out. NULL when memory ran out.
static const uint32_t *features_of(const an_tangent_query *q, an_disk_search *s, int32_t tri,
                                   uint32_t *count) {
  if (s->tri_stamp[tri] == s->stamp) {
    *count = s->tri_features[tri];
    return s->features + s->tri_first[tri];
  }
  const an_grid *grid = &q->engine->space.grid;
  vec2 v[3];
  triangle_points(s->mesh, tri, v);
  vec2 lo, hi;
  an_box_of_points(v, 3, &lo, &hi);
  double margin = AN_FILING_MARGIN_TOLERANCES * q->engine->eps;
  an_cell_rect cells = an_grid_box_cells(grid, lo, hi);
  if (an_stamp_next(&s->item_mark)) {
    memset(s->item_stamp, 0, ((size_t)s->item_count + 1) * sizeof *s->item_stamp);
  }
  size_t first = s->feature_count;
  for (int32_t row = cells.r0; row <= cells.r1; ++row) {
    for (int32_t column = cells.c0; column <= cells.c1; ++column) {
      size_t cell = (size_t)row * (size_t)grid->columns + (size_t)column;
      for (uint32_t k = grid->cell_start[cell]; k < grid->cell_start[cell + 1]; ++k) {
        uint32_t id = grid->cell_items[k];
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
          d = segment_triangle_dist(item->a, item->b, v);
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
  s->tri_stamp[tri] = s->stamp;
  s->tri_first[tri] = (uint32_t)first;
  s->tri_features[tri] = (uint32_t)(s->feature_count - first);
  *count = s->tri_features[tri];
  return s->features + first;
}

/// Does segment ab come closer than R - eps to one of the features (the disk's free test, with
/// the tolerance every engine uses)?
static bool segment_blocked(const an_tangent_query *q, const uint32_t *features, uint32_t count,
                            vec2 a, vec2 b) {
  const an_item *items = q->engine->space.grid.items;
  double limit = q->radius - q->engine->eps;
  for (uint32_t k = 0; k < count; ++k) {
    const an_item *item = &items[features[k]];
    if (item->kind == AN_ITEM_EDGE) {
      if (an_segment_segment_dist(a, b, item->a, item->b) < limit) {
        return true;
      }
    } else if (an_point_segment_dist(item->a, a, b) < limit + item->radius) {
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

static bool add_crit(an_disk_search *s, double u, double lo, double hi) {
  if (!(u > lo && u < hi)) {
    return true;
  }
  if (!reserve(s, (void **)&s->crit, &s->crit_capacity, s->crit_count, s->crit_count + 1,
               sizeof *s->crit)) {
    return false;
  }
  s->crit[s->crit_count++] = u;
  return true;
}

static bool add_crit_point(an_disk_search *s, const dk_family *f, vec2 p, double lo, double hi) {
  double u;
  return !progress_through(f, p, &u) || add_crit(s, u, lo, hi);
}

/// The leaves tangent to the circle (centre, r), both ways round.
static bool add_crit_tangents(an_disk_search *s, const dk_family *f, vec2 centre, double r,
                              double lo, double hi) {
  for (int side = 0; side < 2; ++side) {
    an_tangent t;
    if (an_directed_tangent(f->center, f->radius, f->sigma > 0.0, centre, r, side != 0, 0.0, &t) &&
        !add_crit(s, progress_of_angle(f, atan2(t.direction.y, t.direction.x)), lo, hi)) {
      return false;
    }
  }
  return true;
}

/// The leaves through the points where segment ab meets the circle (centre, r).
static bool add_crit_circle_cuts(an_disk_search *s, const dk_family *f, vec2 a, vec2 b, vec2 centre,
                                 double r, double lo, double hi) {
  double t[2];
  int n = an_segment_circle_intersections(a, b, centre, r, t);
  for (int i = 0; i < n; ++i) {
    if (!add_crit_point(s, f, v2_lerp(a, b, t[i]), lo, hi)) {
      return false;
    }
  }
  return true;
}

/// The leaf through the point where segments ab and cd cross, if they do.
static bool add_crit_segment_cut(an_disk_search *s, const dk_family *f, vec2 a, vec2 b, vec2 c,
                                 vec2 d, double lo, double hi) {
  vec2 e = v2_sub(b, a), g = v2_sub(d, c);
  double denom = v2_cross(e, g);
  if (denom == 0.0) {
    return true;
  }
  double t = v2_cross(v2_sub(c, a), g) / denom;
  double w = v2_cross(v2_sub(c, a), e) / denom;
  if (t < 0.0 || t > 1.0 || w < 0.0 || w > 1.0) {
    return true;
  }
  return add_crit_point(s, f, v2_mul_add(a, t, e), lo, hi);
}

/// Every leaf in (lo, hi) where the way a leaf crosses the triangle may change: where it starts
/// or stops meeting a feature within R - eps (tangent to a feature's rim, or its way's ends
/// crossing the rim), and where it passes a corner of the triangle (its exit edge changes).
static bool gather_criticals(const an_tangent_query *q, an_disk_search *s, const dk_family *f,
                             const uint32_t *features, uint32_t count, double lo, double hi) {
  s->crit_count = 0;
  const an_item *items = q->engine->space.grid.items;
  double limit = q->radius - q->engine->eps;
  for (int k = 0; k < 3; ++k) {
    if (!add_crit_point(s, f, f->v[k], lo, hi)) {
      return false;
    }
  }
  for (uint32_t i = 0; i < count; ++i) {
    const an_item *item = &items[features[i]];
    vec2 ends[2] = {item->a, item->kind == AN_ITEM_EDGE ? item->b : item->a};
    double r = item->kind == AN_ITEM_EDGE ? limit : limit + item->radius;
    int circles = item->kind == AN_ITEM_EDGE ? 2 : 1;
    for (int e = 0; e < circles; ++e) {
      if (!add_crit_tangents(s, f, ends[e], r, lo, hi)) {
        return false;
      }
      for (int k = 0; k < 3; ++k) {
        if (!add_crit_circle_cuts(s, f, f->v[k], f->v[(k + 1) % 3], ends[e], r, lo, hi)) {
          return false;
        }
      }
    }
    if (item->kind == AN_ITEM_EDGE) {
      vec2 n = v2_scale(v2_perp(v2_normalize(v2_sub(item->b, item->a))), r);
      for (int side = -1; side <= 1; side += 2) {
        vec2 a = v2_mul_add(item->a, side, n), b = v2_mul_add(item->b, side, n);
        for (int k = 0; k < 3; ++k) {
          if (!add_crit_segment_cut(s, f, f->v[k], f->v[(k + 1) % 3], a, b, lo, hi)) {
            return false;
          }
        }
      }
    }
  }
  if (!add_crit(s, lo, -INFINITY, INFINITY) || !add_crit(s, hi, -INFINITY, INFINITY)) {
    return false;
  }
  return true;
}

static int compare_doubles(const void *pa, const void *pb) {
  double a = *(const double *)pa, b = *(const double *)pb;
  return (a > b) - (a < b);
}

// ---------------------------------------------------------------------------------------------
// The search
// ---------------------------------------------------------------------------------------------

static double node_heuristic_edge(const an_disk_search *s, const dk_family *f, double lo, double hi,
                                  vec2 a, vec2 b) {
  // Every leaf in [lo, hi] costs at least the arc to lo and the chord from lo's origin onwards
  // (a chord is no longer than its arc), and then crosses ab between the leaves' crossings.
  double angle_lo = leaf_angle(f, lo), angle_hi = leaf_angle(f, hi);
  vec2 d_lo = v2(cos(angle_lo), sin(angle_lo)), d_hi = v2(cos(angle_hi), sin(angle_hi));
  vec2 o_lo = leaf_origin(f, d_lo), o_hi = leaf_origin(f, d_hi);
  vec2 p = line_meet(o_lo, d_lo, a, b), r = line_meet(o_hi, d_hi, a, b);
  return f->radius * lo + an_least_distance_sum(o_lo, s->goal, p, r);
}

static dk_family family_of(const an_disk_search *s, const dk_root *root, int32_t tri,
                           int32_t entry) {
  dk_family f;
  f.center = root->center;
  f.radius = root->radius;
  f.sigma = root->sigma;
  f.arrive = root->arrive;
  triangle_points(s->mesh, tri, f.v);
  f.entry = entry;
  return f;
}

/// Queues node n (copied into the pool) with key f.
static bool push_node(an_disk_search *s, const dk_node *n, double f) {
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
  int32_t a = mesh->fv[3 * (size_t)from + (size_t)(edge + 1) % 3];
  int32_t b = mesh->fv[3 * (size_t)from + (size_t)(edge + 2) % 3];
  for (int32_t k = 0; k < 3; ++k) {
    int32_t x = mesh->fv[3 * (size_t)to + (size_t)(k + 1) % 3];
    int32_t y = mesh->fv[3 * (size_t)to + (size_t)(k + 2) % 3];
    if ((x == a && y == b) || (x == b && y == a)) {
      return k;
    }
  }
  return -1;
}

/// Leaves [lo, hi] of `root` leave triangle `tri` across its edge `edge`: a node on the triangle
/// beyond, when there is one.
static bool push_crossing(an_disk_search *s, int32_t root, const dk_family *f, int32_t tri,
                          int32_t edge, double lo, double hi) {
  const an_navmesh *mesh = s->mesh;
  int32_t next = mesh->fn[3 * (size_t)tri + (size_t)edge];
  if (next < 0) {
    return true;
  }
  int32_t entry = shared_edge(mesh, tri, edge, next);
  if (entry < 0) {
    return true;
  }
  dk_node n = {lo, hi, root, next, entry};
  double key = s->roots[root].g +
               node_heuristic_edge(s, f, lo, hi, f->v[(edge + 1) % 3], f->v[(edge + 2) % 3]);
  return push_node(s, &n, key);
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

/// A root arriving on corner `corner` turning `ccw` along the leaf t (from the parent's circle
/// point t.from to the touching point t.to) with length g so far: kept unless an arrival at the
/// same point no longer already stands; then its arc's first piece, in triangle `tri`, is queued.
static bool add_root(const an_tangent_query *q, an_disk_search *s, int32_t parent, uint32_t corner,
                     bool ccw, const an_tangent *t, double g, int32_t tri) {
  size_t group = 2 * (size_t)corner + (ccw ? 1 : 0);
  double arrive = atan2(t->direction.y, t->direction.x);
  if (s->same_stamp[group] != s->stamp) {
    s->same_stamp[group] = s->stamp;
    s->same_head[group] = NO_ROOT;
  }
  for (int32_t r = s->same_head[group]; r != NO_ROOT; r = s->roots[r].next_same) {
    const dk_root *other = &s->roots[r];
    double turn = fabs(remainder(other->arrive - arrive, AN_TWO_PI));
    if (turn <= 1e-12 && other->g <= g) {
      return true;
    }
  }
  if (s->root_count >= (size_t)INT32_MAX ||
      !reserve(s, (void **)&s->roots, &s->root_capacity, s->root_count, s->root_count + 1,
               sizeof *s->roots)) {
    return false;
  }
  const an_corner *c = &q->corners[corner];
  int32_t id = (int32_t)s->root_count++;
  s->roots[id] = (dk_root){.center = c->center,
                           .radius = c->radius,
                           .sigma = ccw ? 1.0 : -1.0,
                           .arrive = arrive,
                           .span = corner_span(c, t->to, ccw),
                           .g = g,
                           .arrival = t->to,
                           .leave = t->from,
                           .parent = parent,
                           .corner = corner,
                           .next_same = s->same_head[group]};
  s->same_head[group] = id;
  dk_node n = {0.0, s->roots[id].span, id, tri, -1};
  return push_node(s, &n, g + v2_dist(t->to, s->goal));
}

/// The corner whose circle item `id` (a grid item) draws: the corner at an edge's first vertex,
/// or a circle obstacle's; AN_NONE for none (a vertex that is no corner).
static uint32_t corner_of_item(const an_tangent_query *q, uint32_t id) {
  return q->engine->item_corner ? q->engine->item_corner[id] : AN_NONE;
}

/// New roots: every corner circle a leaf in [lo, hi] touches inside the triangle, free up to the
/// touching point and arriving within the corner's wedge.
static bool make_roots(const an_tangent_query *q, an_disk_search *s, int32_t root_id,
                       const dk_family *f, int32_t tri, const uint32_t *features, uint32_t count,
                       double lo, double hi) {
  const dk_root *root = &s->roots[root_id];
  double slack = 1e-12;
  double reach = 4.0 * q->engine->eps;
  for (uint32_t i = 0; i < count; ++i) {
    uint32_t corner = corner_of_item(q, features[i]);
    if (corner == AN_NONE || corner == root->corner) {
      continue;
    }
    const an_corner *c = &q->corners[corner];
    for (int side = 0; side < 2; ++side) {
      bool ccw = side != 0;
      an_tangent t;
      if (!an_directed_tangent(f->center, f->radius, f->sigma > 0.0, c->center, c->radius, ccw,
                               q->engine->eps, &t)) {
        continue;
      }
      double u = progress_of_angle(f, atan2(t.direction.y, t.direction.x));
      if (u > hi + slack && u - AN_TWO_PI >= lo - slack) {
        u -= AN_TWO_PI;
      }
      if (!(u >= lo - slack && u <= hi + slack)) {
        continue;
      }
      u = an_min(an_max(u, lo), hi);
      // The start's tangent may touch just outside the wedge from an end within the tolerance.
      bool taut =
          root->corner == AN_NONE
              ? an_end_tangent_is_taut(&t, c, ccw, true, q->engine->eps)
              : an_corner_wedge_contains(c, an_touch_normal(t.direction, ccw), AN_WEDGE_SLACK);
      if (!taut) {
        continue;
      }
      dk_leaf leaf = leaf_in(f, u);
      double at = v2_dot(v2_sub(t.to, leaf.origin), leaf.d);
      double from = v2_dot(v2_sub(leaf.from, leaf.origin), leaf.d);
      double to = v2_dot(v2_sub(leaf.to, leaf.origin), leaf.d);
      if (at < from - reach || at > to + reach) {
        continue;
      }
      vec2 begin = at < from ? t.to : leaf.from;
      if (segment_blocked(q, features, count, begin, t.to)) {
        continue;
      }
      double g = root->g + root->radius * u + v2_dist(t.from, t.to);
      if (!add_root(q, s, root_id, corner, ccw, &t, g, tri)) {
        return false;
      }
    }
  }
  return true;
}

/// The goal, when it lies in the triangle and a leaf in [lo, hi] reaches it free.
static void offer_goal(const an_tangent_query *q, an_disk_search *s, int32_t root_id,
                       const dk_family *f, int32_t tri, const uint32_t *features, uint32_t count,
                       double lo, double hi) {
  if (s->goal_mark[tri] != s->stamp) {
    return;
  }
  double u;
  if (!progress_through(f, s->goal, &u)) {
    return;
  }
  double slack = 1e-12;
  if (u > hi + slack && u - AN_TWO_PI >= lo - slack) {
    u -= AN_TWO_PI;
  }
  if (!(u >= lo - slack && u <= hi + slack)) {
    return;
  }
  u = an_min(an_max(u, lo), hi);
  dk_leaf leaf = leaf_in(f, u);
  double at = v2_dot(v2_sub(s->goal, leaf.origin), leaf.d);
  double from = v2_dot(v2_sub(leaf.from, leaf.origin), leaf.d);
  if (at < from - 4.0 * q->engine->eps) {
    return;
  }
  if (segment_blocked(q, features, count, at < from ? s->goal : leaf.from, s->goal)) {
    return;
  }
  const dk_root *root = &s->roots[root_id];
  double g = root->g + root->radius * u + v2_dist(leaf.origin, s->goal);
  if (g < s->best) {
    s->best = g;
    s->best_root = root_id;
    s->best_u = u;
  }
}

/// The free runs of leaves in [lo, hi] across the triangle: each maximal run leaving by one edge
/// goes on to the triangle beyond.
static bool follow_leaves(const an_tangent_query *q, an_disk_search *s, int32_t root_id,
                          const dk_family *f, int32_t tri, const uint32_t *features, uint32_t count,
                          double lo, double hi) {
  if (!gather_criticals(q, s, f, features, count, lo, hi)) {
    return false;
  }
  qsort(s->crit, s->crit_count, sizeof *s->crit, compare_doubles);
  double run_lo = 0.0;
  int32_t run_exit = -1;
  for (size_t i = 0; i + 1 < s->crit_count; ++i) {
    double a = s->crit[i], b = s->crit[i + 1];
    if (!(b > a)) {
      continue;
    }
    dk_leaf leaf = leaf_in(f, 0.5 * (a + b));
    int32_t exit = segment_blocked(q, features, count, leaf.from, leaf.to) ? -1 : leaf.exit;
    if (exit != run_exit) {
      if (run_exit >= 0 && !push_crossing(s, root_id, f, tri, run_exit, run_lo, a)) {
        return false;
      }
      run_lo = a;
      run_exit = exit;
    }
  }
  if (run_exit >= 0 && !push_crossing(s, root_id, f, tri, run_exit, run_lo, hi)) {
    return false;
  }
  if (lo == hi) {
    dk_leaf leaf = leaf_in(f, lo);
    if (!segment_blocked(q, features, count, leaf.from, leaf.to) &&
        !push_crossing(s, root_id, f, tri, leaf.exit, lo, hi)) {
      return false;
    }
  }
  return true;
}

/// The points where circles (a, ra) and (b, rb) meet: how many (0 to 2).
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

/// The arc of `root` inside triangle `f` from progress lo: where it goes on to (the progress it
/// leaves the triangle at, across *exit_edge; -1 when it does not leave it before `limit`), and
/// where it ends in the triangle: the first of leaving, `limit`, and the first point closer than
/// R - eps to a feature (*blocked then).
static double arc_piece(const an_tangent_query *q, an_disk_search *s, const dk_root *root,
                        const dk_family *f, const uint32_t *features, uint32_t count, double lo,
                        double limit, int32_t *exit_edge, bool *blocked) {
  vec2 c = root->center;
  double rho = root->radius, sigma = root->sigma;
  double phi_lo = leaf_angle(f, lo) - sigma * 0.5 * AN_PI;
  *exit_edge = -1;
  *blocked = false;
  double end = limit;
  double tolerance = 2.0 * AN_FILING_MARGIN_TOLERANCES * q->engine->eps, immediate = INFINITY;
  for (int32_t k = 0; k < 3; ++k) {
    // The edge's line with its normal into the triangle, computed from its ends in one fixed
    // order so that both triangles beside it see the very same line.
    vec2 a = f->v[(k + 1) % 3], b = f->v[(k + 2) % 3];
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
    double p = wrap_turn(sigma * (normal_angle + sigma * beta - phi_lo));
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
    const an_item *item = &items[features[i]];
    int ends = item->kind == AN_ITEM_EDGE ? 2 : 1;
    double r = item->kind == AN_ITEM_EDGE ? limit_r : limit_r + item->radius;
    vec2 at[2] = {item->a, item->b};
    for (int e = 0; e < ends; ++e) {
      int m = circle_circle_points(c, rho, at[e], r, points);
      for (int j = 0; j < m; ++j) {
        double u = lo + wrap_turn(sigma * (atan2(points[j].y - c.y, points[j].x - c.x) - phi_lo));
        if (!add_crit(s, u, lo, end)) {
          return -1.0;
        }
      }
    }
    if (item->kind == AN_ITEM_EDGE) {
      vec2 n = v2_scale(v2_perp(v2_normalize(v2_sub(item->b, item->a))), r);
      for (int side = -1; side <= 1; side += 2) {
        vec2 a = v2_mul_add(item->a, side, n), b = v2_mul_add(item->b, side, n);
        double t[2];
        int m = an_segment_circle_intersections(a, b, c, rho, t);
        for (int j = 0; j < m; ++j) {
          vec2 p = v2_lerp(a, b, t[j]);
          double u = lo + wrap_turn(sigma * (atan2(p.y - c.y, p.x - c.x) - phi_lo));
          if (!add_crit(s, u, lo, end)) {
            return -1.0;
          }
        }
      }
    }
  }
  if (!add_crit(s, lo, -INFINITY, INFINITY) || !add_crit(s, end, -INFINITY, INFINITY)) {
    return -1.0;
  }
  qsort(s->crit, s->crit_count, sizeof *s->crit, compare_doubles);
  for (size_t i = 0; i + 1 < s->crit_count; ++i) {
    double a = s->crit[i], b = s->crit[i + 1];
    if (!(b > a)) {
      continue;
    }
    double mid = leaf_angle(f, 0.5 * (a + b)) - sigma * 0.5 * AN_PI;
    if (point_blocked(q, features, count, v2_mul_add(c, rho, v2(cos(mid), sin(mid))))) {
      *blocked = true;
      *exit_edge = -1;
      return a;
    }
  }
  return end;
}

static vec2 arc_point(const dk_root *root, double u) {
  double phi = root->arrive + root->sigma * u - root->sigma * 0.5 * AN_PI;
  return v2_mul_add(root->center, root->radius, v2(cos(phi), sin(phi)));
}

/// Expands node `id`.
static bool expand(const an_tangent_query *q, an_disk_search *s, uint32_t id) {
  dk_node n = s->nodes[id];
  uint32_t count;
  const uint32_t *features = features_of(q, s, n.tri, &count);
  if (!features && count != 0) {
    return false;
  }
  if (!features) {
    // An empty list may have been gathered before anything was ever stored.
    features = s->features;
  }
  dk_family f = family_of(s, &s->roots[n.root], n.tri, n.edge);
  double lo = n.lo, hi = n.hi;
  if (n.edge < 0 && s->roots[n.root].radius > 0.0) {
    const dk_root *root = &s->roots[n.root];
    int32_t exit;
    bool blocked;
    hi = arc_piece(q, s, root, &f, features, count, lo, n.hi, &exit, &blocked);
    if (hi < 0.0) {
      return false;
    }
    if (exit >= 0) {
      const an_navmesh *mesh = s->mesh;
      int32_t next = mesh->fn[3 * (size_t)n.tri + (size_t)exit];
      if (next >= 0) {
        dk_node arc = {hi, n.hi, n.root, next, -1};
        double key = root->g + root->radius * hi + v2_dist(arc_point(root, hi), s->goal);
        if (!push_node(s, &arc, key)) {
          return false;
        }
      }
    }
    if (n.lo == 0.0 && !s->roots[n.root].expanded) {
      s->roots[n.root].expanded = 1;
      if (an_nearer_than(&s->near_distance, v2_dist(root->arrival, s->goal))) {
        s->near_root = n.root;
      }
    }
  }
  // The lists may have moved while nodes were queued: gather them again.
  features = features_of(q, s, n.tri, &count);
  if (!features) {
    features = s->features;
  }
  return follow_leaves(q, s, n.root, &f, n.tri, features, count, lo, hi) &&
         make_roots(q, s, n.root, &f, n.tri, features, count, lo, hi) &&
         (offer_goal(q, s, n.root, &f, n.tri, features, count, lo, hi), true);
}

// ---------------------------------------------------------------------------------------------
// Queries
// ---------------------------------------------------------------------------------------------

bool an_disk_takes(const an_tangent_query *q, vec2 start, vec2 goal) {
  const an_tangent_engine *engine = q->engine;
  if (!engine->sight_mesh || q->settings.point_agent ||
      q->radius + AN_FILING_MARGIN_TOLERANCES * engine->eps >= engine->disk_margin) {
    return false;
  }
  const an_navmesh *mesh = an_sight_mesh_polygons(engine->sight_mesh);
  return an_navmesh_locate(mesh, start) >= 0 && an_navmesh_locate(mesh, goal) >= 0;
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
    memset(s->tri_stamp, 0, (s->tri_count + 1) * sizeof *s->tri_stamp);
    memset(s->goal_mark, 0, (s->tri_count + 1) * sizeof *s->goal_mark);
    memset(s->same_stamp, 0, (2 * q->engine->corner_count + 1) * sizeof *s->same_stamp);
  }
  s->start = start;
  s->goal = goal;
  s->feature_count = 0;
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
  int32_t st = an_navmesh_locate(mesh, start), gt = an_navmesh_locate(mesh, goal);
  assert(st >= 0 && gt >= 0);
  s->start_count = 0;
  an_funnel_near_triangles(mesh, start, st, s->near_stamp, &s->near_mark, s->near_queue, add_start,
                           s);
  an_funnel_near_triangles(mesh, goal, gt, s->near_stamp, &s->near_mark, s->near_queue, add_goal,
                           s);
  if (!reserve(s, (void **)&s->roots, &s->root_capacity, 0, 1, sizeof *s->roots)) {
    return ARCNAV_ERR_OUT_OF_MEMORY;
  }
  s->roots[0] = (dk_root){.center = start,
                          .radius = 0.0,
                          .sigma = 1.0,
                          .arrive = 0.0,
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

/// The progress at which `root` is left for its child `child` (the child's arrival direction).
static double leave_progress(const dk_root *root, const dk_root *child) {
  double u = wrap_turn(root->sigma * (child->arrive - root->arrive));
  if (u > root->span) {
    // Past the wedge's end by rounding, or just before the arrival (a turn less a hair).
    u = AN_TWO_PI - u < u - root->span ? 0.0 : root->span;
  }
  return u;
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
      u = leave_progress(root, child);
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
  return emit_path(s, s->best_root, true, s->best_u, s->goal, path);
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
