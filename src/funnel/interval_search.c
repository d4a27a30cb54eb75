// SPDX-License-Identifier: MIT
// Interval search (Polyanya) for a point agent over the navmesh: its memory, the geometry of one
// expansion (a triangle seen from its entry edge), and the search loop. interval_search.h gives
// the idea and its prunings.
#include "funnel/interval_search.h"

#include "funnel/funnel_scratch.h"
#include "geom/predicates.h"
#include "geom/tolerances.h"
#include "search/engine.h"
#include "search/heap.h"
#include "search/marks.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

// The helpers of one expansion run several times per node: inlined into it.
#if defined(__GNUC__)
#define HOT static inline __attribute__((always_inline))
#else
#define HOT static inline
#endif

/// Node ids are int32_t (and heap ids uint32_t).
#define NODE_LIMIT ((size_t)INT32_MAX / 2)

/// No root at all (roots are mesh vertices, or -1 for the start).
#define NO_ROOT (-2)

/// An expansion makes at most two successors per side of the interval and two between its rays;
/// only a walk round a fan can make more (one per triangle of the fan), and makes room for them.
#define SUCCESSORS_MAX 6
/// How often a chain of single successors looks at its key (chain_waits()).
#define CHAIN_CHECK_STEPS 8

/// The line from point `from` through point `through` (mesh vertices, or -1 for the start), taken
/// in that direction: the ray from a node's root through one end of its interval lies on such a
/// line. An end where a ray met an edge is a computed point, but the ray stays exact: its side
/// tests are orientations of exact points, so a vertex that lies exactly on a ray is found on it
/// (paths on game maps run along such lines through several vertices).
typedef struct iv_ray {
  int32_t from, through;
} iv_ray;

typedef struct iv_node {
  vec2 left, right;           ///< the interval's ends, as the root sees them looking into `tri`
  iv_ray left_ray, right_ray; ///< the rays from the root through them
  double g;                   ///< length from the start to the root
  double f;      ///< g + the shortest way from the root through the interval to the goal
  int32_t root;  ///< mesh vertex, or -1 for the start
  int32_t prev;  ///< a node whose root is the turn before this root (-1: the root is the start)
  int32_t tri;   ///< the free triangle beyond the interval's edge
  int16_t edge;  ///< that edge of `tri`, opposite its vertex `edge`
  int16_t sight; ///< how the root sees the triangle (enum sight)
} iv_node;

/// How a node's root sees its triangle: through the interval from before the edge's line (the
/// usual case), or standing on that line: inside the interval (at a vertex end, a corner that
/// turned, or the start on an edge) it sees the whole triangle; outside it sees none of it.
enum sight { SIGHT_THROUGH, SIGHT_ALL, SIGHT_NONE };

typedef struct iv_search {
  an_interval_scratch *s;
  vec2 start, goal;
  double best;      ///< the shortest path to the goal found so far
  int32_t best_via; ///< its last turn before the goal when that is not its node's root, or -1
  int32_t best_root, best_prev;
  size_t made; ///< successors of the node being expanded, written after the pool's live nodes
  bool out_of_memory; ///< the pool could not grow for a successor (it was dropped)
  size_t offers;      ///< goal offers that shortened the best path
  /// A node whose single successor a slice's end stopped from being expanded on the spot: the
  /// next slice goes on with it before taking a node off the queue; -1 for none.
  int32_t chain;
  size_t chain_steps; ///< steps expanded on the spot since a node came off the queue
  /// For the best path so far: the root expanded nearest the goal (NO_ROOT: none nearer than
  /// the start) and its `prev`.
  int32_t near_root, near_prev;
  double near_distance;
  /// A measuring search (an_interval_distances(), an_interval_begin_measure()) notes the shortest
  /// length from the start it finds to every vertex it sees (note_reach(), the scratch's `reach`).
  bool measuring;
  /// It has a goal (an_interval_distances() has none: it goes on until the queue is empty, its
  /// nodes keyed by their length alone).
  bool to_goal;
  /// A measuring search with a goal goes on after it until no node is keyed below
  /// best * (1 + extend_relative) + extend_absolute (stop_key()); 0 and 0 otherwise, or until it
  /// has spent what it may (MEASURE_SPEND_PART):
  /// `measure_until` is the count it stops at (SIZE_MAX until the goal's path is known shortest),
  /// and `measured_below` the key below which it expanded every node when it stopped.
  double extend_relative, extend_absolute;
  size_t measure_until;
  double measured_below;
} iv_search;

struct an_interval_scratch {
  an_allocator alloc;
  const an_navmesh *mesh;
  size_t tri_count, vertex_count, near_count;
  /// What the per-triangle, per-vertex and per-cdt-triangle arrays hold: their counts plus one
  /// when made, more once renewed (an_interval_scratch_renew()). A stamp's wrap clears them all.
  size_t tri_room, vertex_room, near_room;
  uint32_t stamp;
  uint32_t *goal_mark;  ///< per free triangle: the stamp when it holds the goal
  uint32_t *root_stamp; ///< per vertex: the stamp when root_g is this query's
  double *root_g;       ///< per vertex: the shortest g it became a root at in this query
  int32_t *starts;      ///< the start's triangles
  size_t start_count;
  bool ends_meet;               ///< a goal triangle lies in the connected part of a start triangle
  an_landmark_goal goal_bounds; ///< what the mesh's landmarks say of the goal, in all its triangles
  double min_width;     ///< an_interval_set_min_width(): passages narrower than this are shut
  bool shuts;           ///< and the mesh has portals that narrow (an_navmesh.narrowest_portal)
  uint32_t *near_stamp; ///< an_funnel_near_triangles()' walk: per cdt triangle, and its queue
  uint32_t near_mark;
  int32_t *near_queue;
  iv_node *nodes; ///< the pool: every node the query made (the path links back through it)
  size_t node_count, node_capacity;
  an_heap heap; ///< queue of node ids by f
  vec2 *points; ///< the path found: at most every vertex, the start and the goal
  /// Maps without bounds: the funnel answers ends beyond the box (made for the first such query).
  an_funnel_scratch *beyond;
  iv_search run;  ///< the running search (an_interval_begin)
  bool delegated; ///< the running search is the funnel's, in `beyond`
  /// A measuring search's lengths, per vertex, valid where reach_stamp is `stamp` (elsewhere none
  /// was found): made by the first such search and kept.
  double *reach;
  uint32_t *reach_stamp;
  /// an_interval_measured_bound()'s answers once asked, valid where bound_stamp is `stamp`: a
  /// disk's search asks for the same few vertices again and again.
  double *bound;
  uint32_t *bound_stamp;
  /// an_interval_begin_measure() measured (until the scratch's next search), and the key below
  /// which its finished search expanded every node (0 until it finishes).
  bool measured;
  double measured_key;
};

// ---------------------------------------------------------------------------------------------
// Memory
// ---------------------------------------------------------------------------------------------

void an_interval_scratch_destroy(an_interval_scratch *s) {
  if (!s) {
    return;
  }
  an_allocator a = s->alloc;
  an_free(&a, s->goal_mark);
  an_free(&a, s->root_stamp);
  an_free(&a, s->root_g);
  an_free(&a, s->starts);
  an_free(&a, s->near_stamp);
  an_free(&a, s->near_queue);
  an_free(&a, s->nodes);
  an_heap_free(&s->heap, &a);
  an_free(&a, s->points);
  an_free(&a, s->reach);
  an_free(&a, s->reach_stamp);
  an_free(&a, s->bound);
  an_free(&a, s->bound_stamp);
  an_funnel_scratch_destroy(s->beyond);
  an_free(&a, s);
}

arcnav_status an_interval_scratch_create(const an_navmesh *mesh, const an_allocator *alloc,
                                         an_interval_scratch **out) {
  if (!mesh) {
    return ARCNAV_ERR_INVALID_ARGUMENT;
  }
  size_t cap = 4 * mesh->free_count + 1024;
  return an_interval_scratch_create_with_capacity(mesh, alloc, cap > NODE_LIMIT ? NODE_LIMIT : cap,
                                                  out);
}

arcnav_status an_interval_scratch_create_with_capacity(const an_navmesh *mesh,
                                                       const an_allocator *alloc,
                                                       size_t node_capacity,
                                                       an_interval_scratch **out) {
  if (!mesh || !alloc || !out || mesh->connector_count != 0) {
    return ARCNAV_ERR_INVALID_ARGUMENT;
  }
  *out = NULL;
  an_interval_scratch *s = an_calloc(alloc, 1, sizeof *s);
  if (!s) {
    return ARCNAV_ERR_OUT_OF_MEMORY;
  }
  s->alloc = *alloc;
  s->mesh = mesh;
  s->tri_count = mesh->free_count;
  s->vertex_count = mesh->cdt.point_count;
  s->near_count = mesh->cdt.tri_count + 1;
  s->node_capacity = node_capacity < 1            ? 1
                     : node_capacity > NODE_LIMIT ? NODE_LIMIT
                                                  : node_capacity;
  // A path's points: at most every vertex, the start and the goal.
  size_t nt = s->tri_count + 1, nv = s->vertex_count + 3;
  s->tri_room = nt;
  s->vertex_room = nv;
  s->near_room = s->near_count;
  s->goal_mark = an_calloc(alloc, nt, sizeof *s->goal_mark);
  s->root_stamp = an_calloc(alloc, nv, sizeof *s->root_stamp);
  s->root_g = an_alloc(alloc, nv, sizeof *s->root_g);
  s->starts = an_alloc(alloc, nt, sizeof *s->starts);
  s->near_stamp = an_calloc(alloc, s->near_count, sizeof *s->near_stamp);
  s->near_queue = an_alloc(alloc, s->near_count, sizeof *s->near_queue);
  s->nodes = an_alloc(alloc, s->node_capacity, sizeof *s->nodes);
  s->points = an_alloc(alloc, nv, sizeof *s->points);
  bool ok = s->goal_mark && s->root_stamp && s->root_g && s->starts && s->near_stamp &&
            s->near_queue && s->nodes && s->points &&
            an_heap_init_sized(&s->heap, s->node_capacity, 0, alloc) == ARCNAV_OK;
  if (!ok) {
    an_interval_scratch_destroy(s);
    return ARCNAV_ERR_OUT_OF_MEMORY;
  }
  *out = s;
  return ARCNAV_OK;
}

size_t an_interval_scratch_memory_bytes(const an_interval_scratch *s) {
  size_t nt = s->tri_room, nv = s->vertex_room;
  return sizeof *s + nv * (sizeof(uint32_t) + sizeof(double) + sizeof(vec2)) +
         nt * (sizeof(uint32_t) + sizeof(int32_t)) +
         s->near_room * (sizeof(uint32_t) + sizeof(int32_t)) + s->node_capacity * sizeof(iv_node) +
         an_heap_memory_bytes(&s->heap) +
         (s->reach ? nv * (sizeof *s->reach + sizeof *s->reach_stamp + sizeof *s->bound +
                           sizeof *s->bound_stamp)
                   : 0) +
         (s->beyond ? an_funnel_scratch_memory_bytes(s->beyond) : 0);
}

/// Room for `count` more nodes in the pool and the queue, doubling both when short (the only
/// allocation a query makes). false when that fails; the pool is unchanged then.
static bool pool_room(an_interval_scratch *s, size_t count) {
  if (s->node_count + count <= s->node_capacity) {
    return true;
  }
  size_t grown = s->node_capacity;
  while (grown < s->node_count + count) {
    if (grown >= NODE_LIMIT) {
      return false;
    }
    grown = grown > NODE_LIMIT / 2 ? NODE_LIMIT : 2 * grown;
  }
  if (!an_heap_reserve(&s->heap, grown, &s->alloc)) {
    return false;
  }
  iv_node *fresh = an_alloc(&s->alloc, grown, sizeof *fresh);
  if (!fresh) {
    return false;
  }
  // The whole old pool: an expansion's successors, not yet counted, may lie past node_count.
  memcpy(fresh, s->nodes, s->node_capacity * sizeof *fresh);
  an_free(&s->alloc, s->nodes);
  s->nodes = fresh;
  s->node_capacity = grown;
  return true;
}

static void next_stamp(an_interval_scratch *s) {
  if (an_stamp_next(&s->stamp)) {
    memset(s->goal_mark, 0, s->tri_room * sizeof *s->goal_mark);
    memset(s->root_stamp, 0, s->vertex_room * sizeof *s->root_stamp);
    if (s->reach_stamp) {
      memset(s->reach_stamp, 0, s->vertex_room * sizeof *s->reach_stamp);
      memset(s->bound_stamp, 0, s->vertex_room * sizeof *s->bound_stamp);
    }
  }
}

/// Room for a measuring search's lengths and the bounds made from them, made once (a stamp's wrap
/// clears them with the rest).
/// false when that fails.
static bool reach_room(an_interval_scratch *s) {
  if (!s->reach) {
    size_t nv = s->vertex_room;
    double *reach = an_alloc(&s->alloc, nv, sizeof *reach);
    uint32_t *stamp = an_calloc(&s->alloc, nv, sizeof *stamp);
    double *bound = an_alloc(&s->alloc, nv, sizeof *bound);
    uint32_t *bound_stamp = an_calloc(&s->alloc, nv, sizeof *bound_stamp);
    if (!reach || !stamp || !bound || !bound_stamp) {
      an_free(&s->alloc, reach);
      an_free(&s->alloc, stamp);
      an_free(&s->alloc, bound);
      an_free(&s->alloc, bound_stamp);
      return false;
    }
    s->reach = reach;
    s->reach_stamp = stamp;
    s->bound = bound;
    s->bound_stamp = bound_stamp;
  }
  return true;
}

arcnav_status an_interval_scratch_renew(an_interval_scratch *s, const an_navmesh *mesh) {
  if (!mesh || mesh->connector_count != 0) {
    return ARCNAV_ERR_INVALID_ARGUMENT;
  }
  // The stamps go on from where they were, above every one the old mesh's places hold; the node
  // pool and its queue hold nodes of no mesh in particular.
  an_room_array tris[] = {{(void **)&s->goal_mark, sizeof *s->goal_mark, true},
                          {(void **)&s->starts, sizeof *s->starts, false}};
  an_room_array vertices[] = {{(void **)&s->root_stamp, sizeof *s->root_stamp, true},
                              {(void **)&s->root_g, sizeof *s->root_g, false},
                              {(void **)&s->points, sizeof *s->points, false},
                              {(void **)&s->reach, sizeof *s->reach, false},
                              {(void **)&s->reach_stamp, sizeof *s->reach_stamp, true},
                              {(void **)&s->bound, sizeof *s->bound, false},
                              {(void **)&s->bound_stamp, sizeof *s->bound_stamp, true}};
  an_room_array near[] = {{(void **)&s->near_stamp, sizeof *s->near_stamp, true},
                          {(void **)&s->near_queue, sizeof *s->near_queue, false}};
  if (!an_room_for(&s->alloc, tris, 2, &s->tri_room, mesh->free_count + 1) ||
      !an_room_for(&s->alloc, vertices, s->reach ? 7 : 3, &s->vertex_room,
                   mesh->cdt.point_count + 3) ||
      !an_room_for(&s->alloc, near, 2, &s->near_room, mesh->cdt.tri_count + 1)) {
    return ARCNAV_ERR_OUT_OF_MEMORY;
  }
  // The funnel's for ends beyond the box of a map without bounds, once a query made it.
  arcnav_status beyond = s->beyond ? an_funnel_scratch_renew(s->beyond, mesh) : ARCNAV_OK;
  if (beyond != ARCNAV_OK) {
    return beyond;
  }
  an_interval_scratch kept = *s;
  memset(s, 0, sizeof *s);
  s->alloc = kept.alloc;
  s->mesh = mesh;
  s->tri_count = mesh->free_count;
  s->vertex_count = mesh->cdt.point_count;
  s->near_count = mesh->cdt.tri_count + 1;
  s->tri_room = kept.tri_room;
  s->vertex_room = kept.vertex_room;
  s->near_room = kept.near_room;
  s->stamp = kept.stamp;
  s->goal_mark = kept.goal_mark;
  s->root_stamp = kept.root_stamp;
  s->root_g = kept.root_g;
  s->starts = kept.starts;
  s->near_stamp = kept.near_stamp;
  s->near_mark = kept.near_mark;
  s->near_queue = kept.near_queue;
  s->nodes = kept.nodes;
  s->node_capacity = kept.node_capacity;
  s->heap = kept.heap;
  s->points = kept.points;
  s->reach = kept.reach;
  s->reach_stamp = kept.reach_stamp;
  s->bound = kept.bound;
  s->bound_stamp = kept.bound_stamp;
  s->beyond = kept.beyond;
  an_heap_clear(&s->heap);
  // What the last search found (the reach of a measure, the bounds made of it) is of the old mesh.
  next_stamp(s);
  return ARCNAV_OK;
}

/// The shortest length the running (or last) measuring search found to vertex v, or INFINITY.
static double reached(const an_interval_scratch *s, int32_t v) {
  return s->reach_stamp[v] == s->stamp ? s->reach[v] : INFINITY;
}

// ---------------------------------------------------------------------------------------------
// A triangle seen from its entry edge. Looking from the root across the entry edge, its ends are
// p1 on the left and p2 on the right (the edge runs p1 -> p2 counter-clockwise round the
// triangle), and c is the far corner. The far boundary runs from p2 to c (the right edge) and on
// to p1 (the left edge); a place on it is a number s: 0 at p2, 1 at c, 2 at p1.
// ---------------------------------------------------------------------------------------------

typedef struct tri_view {
  int32_t tri, edge;
  int32_t p1, p2, c; ///< vertices
  vec2 P1, P2, C;
} tri_view;

typedef struct far_point {
  double s; ///< 0 .. 1 on the right edge from p2 to c, 1 .. 2 on the left edge from c to p1
  vec2 p;
  iv_ray ray; ///< the ray from the root of the range it bounds through it
} far_point;

HOT tri_view view_of(const an_navmesh *mesh, int32_t tri, int32_t edge) {
  const int32_t *v = &mesh->fv[3 * (size_t)tri];
  tri_view t = {.tri = tri, .edge = edge, .c = v[edge], .p1 = v[an_cdt_next3(edge)]};
  t.p2 = v[an_cdt_prev3(edge)];
  t.P1 = mesh->cdt.points[t.p1];
  t.P2 = mesh->cdt.points[t.p2];
  t.C = mesh->cdt.points[t.c];
  return t;
}

// ---------------------------------------------------------------------------------------------
// One search
// ---------------------------------------------------------------------------------------------

/// A root's point, or a ray's: a mesh vertex, or -1 for the start.
static inline vec2 root_point(const iv_search *x, int32_t root) {
  return root >= 0 ? x->s->mesh->cdt.points[root] : x->start;
}

/// Which side of `ray` p lies: > 0 left, < 0 right, 0 on it (exact).
HOT double ray_side(const iv_search *x, iv_ray ray, vec2 p) {
  return an_orient2d(root_point(x, ray.from), root_point(x, ray.through), p);
}

/// Vertex v at p as a place on the far boundary, bounding a range of `root`.
HOT far_point vertex_place(double s, vec2 p, int32_t root, int32_t v) {
  return (far_point){s, p, {root, v}};
}

/// Where the line through a and b crosses the far edge from vertex p (at `p_place`) to c: p itself
/// when the line passes exactly through it (tested without the orientation when the line is
/// through p, the usual case of a ray through a vertex end of an interval: the exact stage would
/// take every such zero). `oc` is c's orientation, not zero.
HOT far_point edge_crossing(vec2 a, vec2 b, iv_ray ray, int32_t p, vec2 P, double p_place, vec2 C,
                            double oc) {
  double op = v2_equal(b, P) || v2_equal(a, P) ? 0.0 : an_orient2d(a, b, P);
  if (op == 0.0) {
    return vertex_place(p_place, P, ray.from, p);
  }
  double u = an_min(an_max(op / (op - oc), 0.0), 1.0); // of the way from p to c
  return (far_point){p_place + (1.0 - p_place) * u, v2_lerp(P, C, u), ray};
}

/// Where `ray`, through a point of the entry edge, leaves the triangle. Which far edge it crosses
/// is decided exactly, by the side of c it passes.
HOT far_point ray_exit(const iv_search *x, iv_ray ray, const tri_view *t) {
  vec2 a = root_point(x, ray.from), b = root_point(x, ray.through);
  double o = an_orient2d(a, b, t->C);
  if (o > 0.0) { // c lies left of the ray: it crosses the right edge
    return edge_crossing(a, b, ray, t->p2, t->P2, 0.0, t->C, o);
  }
  if (o < 0.0) {
    return edge_crossing(a, b, ray, t->p1, t->P1, 2.0, t->C, o);
  }
  return vertex_place(1.0, t->C, ray.from, t->c);
}

/// May vertex v become a root at length g? Only when no shorter arrival is known (within the
/// relative tolerance also used by TA*, so that equal lengths computed apart do not drop either).
static bool root_worth(an_interval_scratch *s, int32_t v, double g) {
  if (s->root_stamp[v] != s->stamp) {
    s->root_stamp[v] = s->stamp;
    s->root_g[v] = g;
    return true;
  }
  if (g > s->root_g[v] * (1.0 + AN_DOMINANCE_RELATIVE)) {
    return false;
  }
  s->root_g[v] = an_min(s->root_g[v], g);
  return true;
}

/// A node whose root has since been reached shorter stands for longer paths only.
static bool dominated(const an_interval_scratch *s, const iv_node *n) {
  return n->root >= 0 && n->g > s->root_g[n->root] * (1.0 + AN_DOMINANCE_RELATIVE);
}

/// Whether the searches shut the portal across edge `edge` of free triangle `tri`: narrower than
/// an_interval_set_min_width() asks (NaN, no free triangle across, is never narrower).
static inline bool portal_shut(const an_interval_scratch *s, int32_t tri, int edge) {
  return s->shuts && s->mesh->portal_width[3 * (size_t)tri + (size_t)edge] < s->min_width;
}

/// The edge of triangle u across which its neighbour is t.
static int32_t edge_towards(const an_navmesh *mesh, int32_t u, int32_t t) {
  const int32_t *n = &mesh->fn[3 * (size_t)u];
  return n[0] == t ? 0 : n[1] == t ? 1 : 2;
}

/// A measuring search spends on going past the goal at most a MEASURE_SPEND_PART-th of the
/// expansions it took to find it and know its path the shortest: around a dense outline the nodes
/// keyed a little above the path's length can be many times those below, and where the goal is
/// found in a few dozen or hundred expansions (open maps, small ones), a fixed number more cost the
/// disk's search more than they saved it (DESIGN.md, "The guide measures").
#define MEASURE_SPEND_PART 4

/// The key below which the search expands every node: the best path's length, or more for a
/// measuring search (iv_search.extend_relative).
static inline double stop_key(const iv_search *x) {
  return x->best < INFINITY ? x->best * (1.0 + x->extend_relative) + x->extend_absolute : INFINITY;
}

/// A measuring search: the root sees the vertex a far place lies at, when it does.
/// Every vertex the root sees is such a place of some successor it makes (the ends of ranges,
/// and the far corner where a range spans it), whether or not the successor is kept.
HOT void note_reach(iv_search *x, int32_t root, double g, far_point place) {
  int32_t v = place.ray.through;
  if (v < 0 || place.ray.from != root || !v2_equal(place.p, x->s->mesh->cdt.points[v])) {
    return;
  }
  double length = g + v2_dist(root_point(x, root), place.p);
  an_interval_scratch *s = x->s;
  if (length < reached(s, v)) {
    s->reach[v] = length;
    s->reach_stamp[v] = s->stamp;
  }
}

/// A successor on far edge `side` (0: right, 1: left) of triangle t, from `right_end` to
/// `left_end`, seen from `root`. Dropped on a wall, into a dead end without the goal, or when
/// empty. Its f is its parent's until it is queued (see queue_successors()).
HOT void add_successor(iv_search *x, const tri_view *t, int side, far_point right_end,
                       far_point left_end, int32_t root, double g, int32_t prev, double parent_f) {
  an_interval_scratch *s = x->s;
  const an_navmesh *mesh = s->mesh;
  if (x->measuring) {
    note_reach(x, root, g, right_end);
    note_reach(x, root, g, left_end);
  }
  int32_t edge = side == 0 ? an_cdt_next3(t->edge) : an_cdt_prev3(t->edge);
  int32_t u = mesh->fn[3 * (size_t)t->tri + (size_t)edge];
  if (u < 0 || v2_equal(right_end.p, left_end.p) || portal_shut(s, t->tri, edge) ||
      (an_navmesh_dead_end(mesh->fn, (size_t)u) && s->goal_mark[u] != s->stamp && x->to_goal)) {
    return;
  }
  // A root at an end of the edge is a corner that turned onto it; no other root stands on the
  // line of a far edge it sees part of.
  const int32_t *tv = &mesh->fv[3 * (size_t)t->tri];
  bool on_edge = root >= 0 && (root == tv[an_cdt_next3(edge)] || root == tv[an_cdt_prev3(edge)]);
  if (x->made >= SUCCESSORS_MAX && !pool_room(s, x->made + 1)) {
    x->out_of_memory = true; // a fan walk past the room the search made
    return;
  }
  s->nodes[s->node_count + x->made++] = (iv_node){.left = left_end.p,
                                                  .right = right_end.p,
                                                  .left_ray = left_end.ray,
                                                  .right_ray = right_end.ray,
                                                  .g = g,
                                                  .f = parent_f,
                                                  .root = root,
                                                  .prev = prev,
                                                  .tri = u,
                                                  .edge = (int16_t)edge_towards(mesh, u, t->tri),
                                                  .sight = on_edge ? SIGHT_ALL : SIGHT_THROUGH};
}

/// Successors on the far boundary between places `from` and `to` (from <= to, right to left),
/// split at c.
HOT void add_far_range(iv_search *x, const tri_view *t, far_point from, far_point to, int32_t root,
                       double g, int32_t prev, double parent_f) {
  if (from.s > to.s) {
    return;
  }
  const far_point c = vertex_place(1.0, t->C, root, t->c);
  if (from.s < 1.0) {
    add_successor(x, t, 0, from, to.s < 1.0 ? to : c, root, g, prev, parent_f);
  }
  if (to.s > 1.0) {
    add_successor(x, t, 1, from.s > 1.0 ? from : c, to, root, g, prev, parent_f);
  }
}

/// A path to the goal of length `length`, its last turns `via` (or -1) after node n's root.
static void offer_goal(iv_search *x, const iv_node *n, int32_t via, double length) {
  if (length < x->best) {
    x->best = length;
    x->best_root = n->root;
    x->best_prev = n->prev;
    x->best_via = via;
  }
}

/// The goal lies in node n's triangle: straight from the root when the root sees it through the
/// interval (or stands on the entry edge, inside the interval), else round an interval end that is
/// a corner on the goal's side. Otherwise another node sees it.
static void reach_goal(iv_search *x, const iv_node *n, const tri_view *t, vec2 r, bool on_edge) {
  vec2 goal = x->goal;
  if (on_edge) {
    offer_goal(x, n, -1, n->g + v2_dist(r, goal));
    return;
  }
  double left_side = ray_side(x, n->left_ray, goal), right_side = ray_side(x, n->right_ray, goal);
  if (left_side <= 0.0 && right_side >= 0.0) {
    offer_goal(x, n, -1, n->g + v2_dist(r, goal));
  } else if (left_side > 0.0 && v2_equal(n->left, t->P1) && x->s->mesh->corner[t->p1]) {
    offer_goal(x, n, t->p1, n->g + v2_dist(r, t->P1) + v2_dist(t->P1, goal));
  } else if (right_side < 0.0 && v2_equal(n->right, t->P2) && x->s->mesh->corner[t->p2]) {
    offer_goal(x, n, t->p2, n->g + v2_dist(r, t->P2) + v2_dist(t->P2, goal));
  }
}

/// Node n's root stands at a corner of its triangle t: it sees the whole triangle, and beyond it
/// the whole fan of triangles round that corner, up to a wall. Rather than one node per triangle
/// of the fan, the walk offers the goal in each and makes their edges opposite the root the
/// successors.
static void walk_fan(iv_search *x, const iv_node *n, const tri_view *t, vec2 r) {
  const an_interval_scratch *s = x->s;
  const bool at_right = v2_equal(r, t->P2); // stays so round the fan: the edge crossed keeps it
  tri_view w = *t;
  for (;;) {
    if (w.tri != n->tri && s->goal_mark[w.tri] == s->stamp) {
      offer_goal(x, n, -1, n->g + v2_dist(r, x->goal));
    }
    if (at_right) {
      add_successor(x, &w, 1, vertex_place(1.0, w.C, n->root, w.c),
                    vertex_place(2.0, w.P1, n->root, w.p1), n->root, n->g, n->prev, n->f);
    } else {
      add_successor(x, &w, 0, vertex_place(0.0, w.P2, n->root, w.p2),
                    vertex_place(1.0, w.C, n->root, w.c), n->root, n->g, n->prev, n->f);
    }
    int32_t edge = at_right ? an_cdt_next3(w.edge) : an_cdt_prev3(w.edge);
    int32_t u = s->mesh->fn[3 * (size_t)w.tri + (size_t)edge];
    if (u < 0 || u == n->tri) {
      return;
    }
    w = view_of(s->mesh, u, edge_towards(s->mesh, u, w.tri));
  }
}

/// Expands node `id`: offers the goal when its triangle holds it, and writes its successors after
/// the pool's live nodes (x->made of them; the caller made room for SUCCESSORS_MAX, a fan walk
/// makes room for more).
static void expand(iv_search *x, int32_t id) {
  an_interval_scratch *s = x->s;
  const iv_node n = s->nodes[id];
  const tri_view t = view_of(s->mesh, n.tri, n.edge);
  const vec2 r = root_point(x, n.root);
  x->made = 0;
  if (n.sight == SIGHT_NONE) {
    return;
  }
  if (s->goal_mark[n.tri] == s->stamp) {
    reach_goal(x, &n, &t, r, n.sight == SIGHT_ALL);
  }
  const far_point p2 = vertex_place(0.0, t.P2, n.root, t.p2);
  const far_point p1 = vertex_place(2.0, t.P1, n.root, t.p1);
  if (n.sight == SIGHT_ALL) {
    if (v2_equal(r, t.P1) || v2_equal(r, t.P2)) {
      walk_fan(x, &n, &t, r);
    } else {
      add_far_range(x, &t, p2, p1, n.root, n.g, n.prev, n.f);
    }
    return;
  }
  far_point right_exit = ray_exit(x, n.right_ray, &t), left_exit = ray_exit(x, n.left_ray, &t);
  add_far_range(x, &t, right_exit, left_exit, n.root, n.g, n.prev, n.f);
  // Beyond a ray through a corner end of the interval, the corner sees what the root does not.
  if (v2_equal(n.left, t.P1) && s->mesh->corner[t.p1]) {
    double g = n.g + v2_dist(r, t.P1);
    if (root_worth(s, t.p1, g)) {
      add_far_range(x, &t, left_exit, vertex_place(2.0, t.P1, t.p1, t.p1), t.p1, g, id, n.f);
    }
  }
  if (v2_equal(n.right, t.P2) && s->mesh->corner[t.p2]) {
    double g = n.g + v2_dist(r, t.P2);
    if (root_worth(s, t.p2, g)) {
      add_far_range(x, &t, vertex_place(0.0, t.P2, t.p2, t.p2), right_exit, t.p2, g, id, n.f);
    }
  }
}

/// The start's nodes: each edge of each start triangle, whole, into the triangle beyond, unless
/// the start lies beyond the edge's line (then it is in that triangle, a start triangle as well).
static bool push_start_nodes(iv_search *x) {
  an_interval_scratch *s = x->s;
  const an_navmesh *mesh = s->mesh;
  for (size_t i = 0; i < s->start_count; ++i) {
    int32_t st = s->starts[i];
    for (int k = 0; x->measuring && k < 3; ++k) { // the start sees its triangle's corners
      int32_t v = mesh->fv[3 * (size_t)st + (size_t)k];
      note_reach(x, -1, 0.0, vertex_place(0.0, mesh->cdt.points[v], -1, v));
    }
    for (int k = 0; k < 3; ++k) {
      int32_t u = mesh->fn[3 * (size_t)st + (size_t)k];
      if (u < 0 || portal_shut(s, st, k)) {
        continue;
      }
      int32_t edge = edge_towards(mesh, u, st);
      tri_view t = view_of(mesh, u, edge);
      double side = an_orient2d(t.P1, t.P2, x->start);
      if (side > 0.0) {
        continue;
      }
      int16_t sight = side < 0.0                               ? SIGHT_THROUGH
                      : an_in_closed_box(x->start, t.P1, t.P2) ? SIGHT_ALL
                                                               : SIGHT_NONE;
      if (!pool_room(s, 1)) {
        return false;
      }
      double f = x->to_goal ? an_least_distance_sum(x->start, x->goal, t.P1, t.P2)
                            : an_point_segment_dist(x->start, t.P1, t.P2);
      int32_t id = (int32_t)s->node_count++;
      s->nodes[id] = (iv_node){.left = t.P1,
                               .right = t.P2,
                               .left_ray = {-1, t.p1},
                               .right_ray = {-1, t.p2},
                               .g = 0.0,
                               .f = f,
                               .root = -1,
                               .prev = -1,
                               .tri = u,
                               .edge = (int16_t)edge,
                               .sight = sight};
      an_heap_push(&s->heap, (uint32_t)id, f);
    }
  }
  return true;
}

/// The path to `end` from the start: `end`, its last turn `via` (or -1) when that is not `root`,
/// then `root` and the roots the `prev` links from `prev` name back to the start, reversed.
static void finish_path(iv_search *x, vec2 end, int32_t via, int32_t root, int32_t prev,
                        an_funnel_result *out) {
  an_interval_scratch *s = x->s;
  const vec2 *pts = s->mesh->cdt.points;
  size_t n = 0;
  s->points[n++] = end;
  if (via >= 0) {
    s->points[n++] = pts[via];
  }
  if (root >= 0) {
    s->points[n++] = pts[root];
    for (int32_t p = prev; p >= 0 && s->nodes[p].root >= 0; p = s->nodes[p].prev) {
      s->points[n++] = pts[s->nodes[p].root];
    }
  }
  s->points[n++] = x->start;
  for (size_t i = 0, j = n - 1; i < j; ++i, --j) {
    vec2 p = s->points[i];
    s->points[i] = s->points[j];
    s->points[j] = p;
  }
  size_t w = 1; // drop repeated points (a goal at the corner it turns round, an end at its root)
  for (size_t i = 1; i < n; ++i) {
    if (!v2_equal(s->points[i], s->points[w - 1])) {
      s->points[w++] = s->points[i];
    }
  }
  n = an_funnel_merge_collinear(s->points, w);
  out->points = s->points;
  out->point_count = n;
  out->length = 0.0;
  for (size_t i = 1; i < n; ++i) {
    out->length += v2_dist(s->points[i - 1], s->points[i]);
  }
}

/// A successor's key: its parent's (which a successor expanded on the spot keeps, a lower bound for
/// its own successors), raised by the shortest way from its root through its interval to the goal
/// and by the landmarks' bound at its root.
static double successor_key(const iv_search *x, const iv_node *c) {
  vec2 r = root_point(x, c->root);
  // A search without a goal goes by the length at which its wave reaches the interval.
  double f = an_max(c->f, c->g + (x->to_goal ? an_least_distance_sum(r, x->goal, c->left, c->right)
                                             : an_point_segment_dist(r, c->left, c->right)));
  if (c->root >= 0 && x->to_goal) {
    f = an_max(f,
               c->g + an_landmarks_bound(&x->s->mesh->landmarks, &x->s->goal_bounds, c->root, 0.0));
  }
  return f;
}

/// Queues the successors of an expansion that are still worth it, with their keys.
static void queue_successors(iv_search *x) {
  an_interval_scratch *s = x->s;
  iv_node *made = &s->nodes[s->node_count];
  size_t kept = 0;
  for (size_t i = 0; i < x->made; ++i) {
    iv_node c = made[i];
    c.f = successor_key(x, &c);
    if (c.f < stop_key(x)) {
      made[kept++] = c;
      an_heap_push(&s->heap, (uint32_t)s->node_count++, c.f);
    }
  }
}

/// Does the single successor just made wait in the queue instead of being expanded on the spot?
/// When its key, looked at every CHAIN_CHECK_STEPS steps of a chain, is above the least key
/// queued: a chain that only heads away from the goal would otherwise run on through every
/// triangle ahead, such as a corner's fan of slivers beside a long smooth outline, each of whose
/// vertices starts such a chain (the wrap round half a regular 100,000-gon took 95 s, a chain
/// of tens of thousands of triangles from each of its vertices). Any node may be expanded early
/// or late without changing the answer; the count lives in the search, so slices do the same.
static bool chain_waits(iv_search *x) {
  if (++x->chain_steps % CHAIN_CHECK_STEPS != 0) {
    return false;
  }
  double key = successor_key(x, &x->s->nodes[x->s->node_count]);
  return key >= stop_key(x) || (!an_heap_empty(&x->s->heap) && key > an_heap_top_key(&x->s->heap));
}

/// Runs the search an_interval_begin() set up until it answers, or pauses when the count of
/// expansions reaches `pause_at`. The count is checked where the whole search would check its
/// limit, and a node being expanded on the spot is taken up again by the next slice, so slices
/// change nothing in the search's course.
static arcnav_status search(an_interval_scratch *s, size_t max_expansions, size_t pause_at,
                            an_funnel_result *out) {
  iv_search *x = &s->run;
  for (;;) {
    int32_t id = x->chain;
    x->chain = -1;
    if (id < 0) {
      if (an_heap_empty(&s->heap)) {
        break;
      }
      if (out->nodes_expanded >= pause_at) {
        return ARCNAV_IN_PROGRESS;
      }
      if (x->measuring && x->to_goal && x->best < INFINITY) {
        // The spending counts from where a plain search would stop: the goal's path is the
        // shortest once no node is keyed below it, and not before (the first offer may be longer).
        double least = an_heap_top_key(&s->heap);
        if (x->measure_until == SIZE_MAX && least >= x->best) {
          x->measure_until = out->nodes_expanded + out->nodes_expanded / MEASURE_SPEND_PART;
        }
        if (out->nodes_expanded >= x->measure_until) {
          // Spent: every node keyed below the queue's least key was expanded.
          x->measured_below = an_min(stop_key(x), least);
          break;
        }
      }
      an_heap_entry top = an_heap_pop_entry(&s->heap);
      if (top.key >= stop_key(x)) {
        break;
      }
      id = (int32_t)top.id;
      if (dominated(s, &s->nodes[id])) {
        continue;
      }
      x->chain_steps = 0;
    }
    for (;;) {
      if (!an_may_expand(out->nodes_expanded, max_expansions)) {
        return ARCNAV_SEARCH_LIMIT;
      }
      if (out->nodes_expanded >= pause_at) {
        x->chain = id;
        return ARCNAV_IN_PROGRESS;
      }
      out->nodes_expanded++;
      if (!pool_room(s, SUCCESSORS_MAX)) {
        return ARCNAV_ERR_OUT_OF_MEMORY;
      }
      const iv_node *n = &s->nodes[id];
      if (an_nearer_than(&x->near_distance, v2_dist(root_point(x, n->root), x->goal))) {
        x->near_root = n->root;
        x->near_prev = n->prev;
      }
      double before = x->best;
      expand(x, id);
      if (x->out_of_memory) {
        return ARCNAV_ERR_OUT_OF_MEMORY;
      }
      x->offers += x->best < before;
      if (x->made != 1 || chain_waits(x)) {
        queue_successors(x);
        break;
      }
      // A single successor is expanded on the spot. One with the same root takes its parent's
      // slot (nothing links to a node whose successors all share its root); a new root is kept.
      iv_node *next = &s->nodes[s->node_count];
      if (next->root == s->nodes[id].root) {
        s->nodes[id] = *next;
      } else {
        id = (int32_t)s->node_count++;
      }
    }
  }
  out->channels = x->offers;
  if (x->measuring && x->to_goal) {
    // Every node keyed below the stop key was expanded, unless the spending stopped it first:
    // nodes keyed above the stop key when made were not queued, and it only falls.
    s->measured_key = an_min(stop_key(x), x->measured_below);
  }
  if (!(x->best < INFINITY)) {
    return ARCNAV_NO_PATH;
  }
  finish_path(x, x->goal, x->best_via, x->best_root, x->best_prev, out);
  return ARCNAV_OK;
}

// ---------------------------------------------------------------------------------------------
// A query
// ---------------------------------------------------------------------------------------------

static void add_start(void *context, int32_t tri) {
  an_interval_scratch *s = context;
  s->starts[s->start_count++] = tri;
}

static void add_goal(void *context, int32_t tri) {
  an_interval_scratch *s = context;
  s->goal_mark[tri] = s->stamp;
  const an_navmesh *mesh = s->mesh;
  an_landmark_goal_add(&mesh->landmarks, mesh->cdt.points, &mesh->fv[3 * (size_t)tri], s->run.goal,
                       &s->goal_bounds);
  const int32_t *component = s->mesh->component;
  for (size_t k = 0; k < s->start_count && !s->ends_meet; ++k) {
    s->ends_meet = (!component || component[s->starts[k]] == component[tri]) &&
                   (s->min_width <= 0.0 ||
                    an_navmesh_passage_width(s->mesh, s->starts[k], tri) >= s->min_width);
  }
}

/// A new search from `start` (its triangles found) to `goal`, or, measuring and without a goal
/// (`to_goal` false), to every vertex: its start nodes queued. false when the node pool could not
/// grow.
static bool start_run(an_interval_scratch *s, vec2 start, vec2 goal, bool measuring, bool to_goal) {
  s->run = (iv_search){.s = s,
                       .start = start,
                       .goal = goal,
                       .best = INFINITY,
                       .best_via = -1,
                       .chain = -1,
                       .near_root = NO_ROOT,
                       .near_distance = v2_dist(start, goal),
                       .measuring = measuring,
                       .to_goal = to_goal,
                       .measure_until = SIZE_MAX,
                       .measured_below = INFINITY};
  an_heap_clear(&s->heap);
  s->node_count = 0;
  return push_start_nodes(&s->run);
}

void an_interval_set_min_width(an_interval_scratch *s, double width) {
  s->min_width = width;
  s->shuts = s->mesh->portal_width && width > s->mesh->narrowest_portal;
}

bool an_interval_shuts_portals(const an_interval_scratch *s) {
  return s->shuts;
}

/// an_interval_begin(), the search measuring from its start nodes on when `measuring` (the
/// scratch's lengths made by the caller).
static arcnav_status begin_search(const an_navmesh *mesh, an_interval_scratch *s, vec2 start,
                                  vec2 goal, bool measuring, an_funnel_result *out) {
  if (!mesh || !s || !out || s->mesh != mesh) {
    return ARCNAV_ERR_INVALID_ARGUMENT;
  }
  s->delegated = false;
  s->measured = false;
  s->measured_key = 0.0;
  an_funnel_ends ends;
  arcnav_status located = an_funnel_locate_ends(mesh, start, goal, out, &ends);
  if (located != ARCNAV_OK) {
    return located;
  }
  bool start_in = ends.start_in, goal_in = ends.goal_in;
  int32_t st = ends.start_tri, gt = ends.goal_tri;
  if (!start_in || !goal_in) {
    // Made for the first such query: most never leave the box.
    if (!s->beyond &&
        an_funnel_scratch_create_with_capacity(mesh, &s->alloc, 1024, &s->beyond) != ARCNAV_OK) {
      return ARCNAV_ERR_OUT_OF_MEMORY;
    }
    arcnav_status status = an_funnel_begin(mesh, s->beyond, start, goal, true, out);
    s->delegated = status == ARCNAV_IN_PROGRESS;
    return status;
  }
  next_stamp(s);
  s->start_count = 0;
  s->ends_meet = false;
  // The goal's triangles widen its landmark bounds (add_goal), which read it from the run.
  an_landmark_goal_start(&mesh->landmarks, &s->goal_bounds);
  s->run.goal = goal;
  an_funnel_near_triangles(mesh, start, st, s->near_stamp, s->near_room, &s->near_mark,
                           s->near_queue, add_start, s);
  an_funnel_near_triangles(mesh, goal, gt, s->near_stamp, s->near_room, &s->near_mark,
                           s->near_queue, add_goal, s);
  // Ends in different connected parts of the mesh, or joined only through passages too narrow
  // for the disk this search guides: no path, known without a search.
  if (!s->ends_meet) {
    out->nodes_expanded = 0;
    out->point_count = 0;
    return ARCNAV_NO_PATH;
  }
  for (size_t k = 0; k < s->start_count; ++k) {
    if (s->goal_mark[s->starts[k]] == s->stamp) { // a triangle is convex
      s->points[0] = start;
      s->points[1] = goal;
      an_funnel_result_short(out, s->points, 2);
      out->channels = 1;
      return ARCNAV_OK;
    }
  }
  // The searches' keys read the four landmarks that bound the way between the ends best.
  an_landmark_goal_focus_on(&mesh->landmarks, mesh->cdt.points, mesh->fv, s->starts, s->start_count,
                            start, &s->goal_bounds);
  return start_run(s, start, goal, measuring, true) ? ARCNAV_IN_PROGRESS : ARCNAV_ERR_OUT_OF_MEMORY;
}

arcnav_status an_interval_begin(const an_navmesh *mesh, an_interval_scratch *s, vec2 start,
                                vec2 goal, an_funnel_result *out) {
  return begin_search(mesh, s, start, goal, false, out);
}

arcnav_status an_interval_begin_measure(const an_navmesh *mesh, an_interval_scratch *s, vec2 start,
                                        vec2 goal, double relative, double absolute,
                                        an_funnel_result *out) {
  if (!(relative >= 0.0) || !(absolute >= 0.0)) {
    return ARCNAV_ERR_INVALID_ARGUMENT;
  }
  if (s && !reach_room(s)) {
    return ARCNAV_ERR_OUT_OF_MEMORY;
  }
  arcnav_status status = begin_search(mesh, s, start, goal, true, out);
  if (status != ARCNAV_IN_PROGRESS || s->delegated) {
    return status; // nothing measured: every bound is 0
  }
  s->measured = true;
  s->run.extend_relative = relative;
  s->run.extend_absolute = absolute;
  return status;
}

/// What the finished measure tells of vertex v from its search alone: its length where the search
/// expanded every node it needed to know it, else the least a length beyond them can be
/// (DESIGN.md, "The guide measures"); for a dead end's far corner, only of the ways that do not
/// end in that dead end.
static double measured_outside_dead_ends(const an_interval_scratch *s, int32_t v) {
  vec2 p = s->mesh->cdt.points[v];
  double away = an_max(v2_dist(p, s->run.goal),
                       an_landmarks_allowance(&s->mesh->landmarks, &s->goal_bounds, v));
  double at = reached(s, v);
  return at + away < s->measured_key ? at : an_max(s->measured_key - away, 0.0);
}

// an_interval_measured_bound() worked out.
static double measured_bound(const an_interval_scratch *s, int32_t vertex) {
  double bound = measured_outside_dead_ends(s, vertex);
  int32_t dead_end = s->mesh->dead_apex[vertex];
  if (dead_end == -1) {
    return bound;
  }
  if (dead_end < 0) {
    return 0.0;
  }
  // The search leaves dead ends out: a way that ends at their far corner crosses the way in,
  // whose ends it knows, and a point there lies no nearer than either end less the way between.
  const int32_t *v = &s->mesh->fv[3 * (size_t)dead_end];
  vec2 apex = s->mesh->cdt.points[vertex];
  double through = 0.0;
  for (int k = 0; k < 3; ++k) {
    if (v[k] != vertex) {
      through = an_max(through, measured_outside_dead_ends(s, v[k]) -
                                    v2_dist(s->mesh->cdt.points[v[k]], apex));
    }
  }
  return an_min(bound, through);
}

double an_interval_measured_bound(const an_interval_scratch *s, int32_t vertex) {
  if (!s->measured || vertex < 0 || (size_t)vertex >= s->vertex_count) {
    return 0.0;
  }
  // The scratch is the calling thread's own; the answers it keeps are its search's.
  if (s->bound_stamp[vertex] != s->stamp) {
    s->bound[vertex] = measured_bound(s, vertex);
    s->bound_stamp[vertex] = s->stamp;
  }
  return s->bound[vertex];
}

double an_interval_measured_bound_at(const an_interval_scratch *s, vec2 p, int32_t near_vertex) {
  if (!s->measured || near_vertex < 0 || (size_t)near_vertex >= s->vertex_count) {
    return 0.0;
  }
  const an_cdt *cdt = &s->mesh->cdt;
  int32_t first = cdt->vertex_tri[near_vertex];
  int32_t t = first >= 0 ? an_cdt_locate(cdt, p, first) : -1;
  if (t < 0 || s->mesh->free_of[t] < 0) {
    return 0.0;
  }
  // p sees the three corners of its free triangle, within it: no nearer the start than any of
  // them less the way to it. Each length less its sums' rounding first, where it belongs.
  double bound = 0.0;
  for (int k = 0; k < 3; ++k) {
    int32_t w = cdt->tris[t].v[k];
    double at = an_interval_measured_bound(s, w) * (1.0 - AN_MEASURE_ROUNDING);
    bound = an_max(bound, at - v2_dist(p, cdt->points[w]));
  }
  return bound;
}

arcnav_status an_interval_distances(const an_navmesh *mesh, an_interval_scratch *s, vec2 source,
                                    size_t max_expansions, double *distances) {
  if (!mesh || !s || !distances || s->mesh != mesh) {
    return ARCNAV_ERR_INVALID_ARGUMENT;
  }
  for (size_t v = 0; v < s->vertex_count; ++v) {
    distances[v] = INFINITY;
  }
  if (!reach_room(s)) {
    return ARCNAV_ERR_OUT_OF_MEMORY;
  }
  s->measured = false;
  an_funnel_result out = {0};
  an_funnel_ends ends;
  arcnav_status located = an_funnel_locate_ends(mesh, source, source, &out, &ends);
  if (located != ARCNAV_OK) {
    return located;
  }
  if (!ends.start_in) {
    return ARCNAV_START_BLOCKED;
  }
  next_stamp(s);
  s->start_count = 0;
  an_funnel_near_triangles(mesh, source, ends.start_tri, s->near_stamp, s->near_room, &s->near_mark,
                           s->near_queue, add_start, s);
  if (!start_run(s, source, source, true, false)) {
    return ARCNAV_ERR_OUT_OF_MEMORY;
  }
  arcnav_status status = search(s, max_expansions, SIZE_MAX, &out);
  for (size_t v = 0; v < s->vertex_count; ++v) {
    distances[v] = reached(s, (int32_t)v);
  }
  return status == ARCNAV_NO_PATH ? ARCNAV_OK : status;
}

arcnav_status an_interval_resume(an_interval_scratch *s, size_t max_expansions, size_t pause_at,
                                 an_funnel_result *out) {
  if (s->delegated) {
    return an_funnel_resume(s->beyond, max_expansions, pause_at, out);
  }
  return search(s, max_expansions, pause_at, out);
}

arcnav_status an_interval_best_so_far(an_interval_scratch *s, an_funnel_result *out) {
  if (s->delegated) {
    return an_funnel_best_so_far(s->beyond, out);
  }
  iv_search *x = &s->run;
  if (x->near_root == NO_ROOT) {
    s->points[0] = x->start;
    an_funnel_result_short(out, s->points, 1);
    return ARCNAV_OK;
  }
  finish_path(x, root_point(x, x->near_root), -1, x->near_root, x->near_prev, out);
  return ARCNAV_OK;
}

arcnav_status an_interval_find_path_within(const an_navmesh *mesh, an_interval_scratch *s,
                                           vec2 start, vec2 goal, size_t max_expansions,
                                           an_funnel_result *out) {
  arcnav_status status = an_interval_begin(mesh, s, start, goal, out);
  if (status == ARCNAV_IN_PROGRESS) {
    status = an_interval_resume(s, max_expansions, SIZE_MAX, out);
  }
  return status;
}
