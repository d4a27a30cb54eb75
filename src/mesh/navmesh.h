// SPDX-License-Identifier: MIT
#pragma once

// Navigation mesh for a point agent (R = 0): a constrained Delaunay triangulation of the free
// space, the triangles classified as free or blocked, adjacency between free triangles, and point
// location through a grid of walk start triangles.
//
// The triangulation covers a box: the bounds' extent, or without bounds the extent of everything
// on the map, grown by a margin of 10% of the larger extent + 1 (an empty map without bounds gets
// the box [-1, 1]^2 grown by that margin), so every obstacle lies at least the margin inside it.
// With bounds the free space is the bounds polygon minus the union of the obstacles, and a point
// beyond the box is outside the bounds. Without bounds the free space is the whole plane minus
// the obstacles: the part inside the box is triangulated, and beyond it there is nothing to
// triangulate: the funnel search (funnel.h) covers an end point beyond the box with triangles of
// its own, per query (whole_plane tells it may; box_tri / box_edge name the triangle on each box
// edge). A circle obstacle is replaced by the regular polygon with AN_NAVMESH_CIRCLE_SIDES sides
// circumscribed about it (circle_polygon.h), so every path around the polygon clears the circle;
// such paths are longer than the true ones by at most a factor 1 / cos(pi / sides). A circle of
// radius 0 blocks no area and is ignored.
//
// Where obstacles touch, the faces are labelled as the union of the obstacles: an edge two
// obstacles share (a seam) has blocked triangles on both sides, so nothing passes it. Where they
// touch at a single vertex (a pinch), the fans of free triangles around it share the vertex but
// no edge, so at R = 0 nothing passes there either: obstacles that touch are one wall (README,
// the touching rule). A mesh built with open_pinches (the eroded mesh of the funnel engines at
// R > 0, where grown obstacles touching at a point leave a gap of exactly 2R, which is open)
// joins the fans around each pinch vertex by pairs of zero-area connector triangles (v, v, p)
// and (v, q, v), adjacent across their edge (v, v). They are free triangles for fv/fn (indices
// free_count - connector_count and on) but are not counted by an_navmesh_triangle_count(); no
// point is ever located in them.
//
// The code: navmesh.c holds the object, navmesh_build.c the build, which runs the stages declared
// in navmesh_build.h (one file each: input, clean, union, faces, pinch), and navmesh_locate.c the
// point location.

#include "arcnav/arcnav.h"
#include "geom/alloc.h"
#include "geom/geom.h"
#include "map/circle_polygon.h"
#include "map/map.h"
#include "mesh/cdt.h"
#include "mesh/landmarks.h"
#include "search/widest_forest.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/// Which pieces of segment ab (a ring edge of the map) need to be constraints: parameter pairs
/// (t0, t1) in increasing order written to *kept; returns how many, or SIZE_MAX when out of memory.
/// Every piece left out must have blocked space on both sides.
typedef size_t (*an_navmesh_trim_fn)(void *context, vec2 a, vec2 b, const double **kept);

typedef struct an_navmesh an_navmesh;

/// The free triangles' arrays of a mesh (an_navmesh.free_of, tri_of, fv, fn, component, corner,
/// dead_apex) held apart from it, with the counts they hold and have room for: slots of the
/// triangulation, free rows, vertices.
typedef struct an_navmesh_rows {
  int32_t *free_of, *tri_of, *fv, *fn, *component, *dead_apex;
  uint8_t *corner;
  size_t slots, rows, vertices;
  size_t slot_room, row_room, vertex_room;
} an_navmesh_rows;

/// What a local change wrote in the free triangles' arrays besides the slots of the triangulation
/// it wrote (an_cdt_edit): the rows (free numbers) made again, the vertices whose tables were,
/// and whether every part was numbered again.
typedef struct an_navmesh_rewrites {
  int32_t *rows;
  size_t row_count;
  int32_t *vertices;
  size_t vertex_count;
  bool parts;
} an_navmesh_rewrites;

struct an_navmesh {
  an_allocator alloc;
  an_cdt cdt; ///< the whole triangulation of the box, blocked triangles included
  /// The arrays a local change edits a copy of `cdt` in, kept for the next one (navmesh_update.c):
  /// empty until the first.
  an_cdt spare;
  /// The slots the last local change wrote, from the triangulation before it to `cdt`.
  an_cdt_edit last_edit;
  /// `spare` holds the triangulation before `last_edit`, so a copy of `cdt` in it catches up
  /// with that edit alone (an_cdt_catch_up()): after a change in place, or when the mesh this
  /// one was copied from handed its triangulation down (an_navmesh_hand_down()).
  bool spare_behind;
  /// The last local change was made to a copy of the triangulation borrowed from `cloned_from`.
  bool edited_borrowed;
  /// The free triangles' arrays as they were before the last local change, kept and caught up
  /// as `spare` is (NULL arrays: none), and what that change rewrote in them.
  an_navmesh_rows spare_rows;
  an_navmesh_rewrites last_rewrites;
  /// Room in the free triangles' arrays a local change made (0: as much as they hold).
  size_t slot_room, row_room, vertex_room;
  double eps;             ///< the map tolerance
  int32_t *free_of;       ///< per cdt triangle: its free-triangle index, or -1 when blocked
  size_t free_count;      ///< free triangles, the zero-area connectors at pinches included (last)
  size_t connector_count; ///< connectors joining free space through a touching vertex
  int32_t *tri_of;        ///< per free triangle: the cdt triangle
  int32_t *fv; ///< 3 per free triangle: vertex indices into cdt.points, counter-clockwise
  int32_t *fn; ///< 3 per free triangle: free neighbour across edge i (opposite fv[i]), or -1
  /// Per free triangle: its connected part of the free mesh (triangles joined across fn). Two
  /// ends whose triangles lie in different parts have no path on the mesh, for a point nor, since
  /// a disk's path is a point's, for a disk among the same obstacles.
  int32_t *component;
  /// Per vertex of cdt.points, for the interval search (funnel/interval_search.c), numbered with
  /// the free triangles (an_navmesh_mark_corners()): whether the blocked edge of a free triangle
  /// ends there (a corner a path may turn around); and the one dead end (a free triangle with one
  /// free neighbour at most) whose apex the vertex is, across from the edge that neighbour lies
  /// beyond: -1 none, -2 several, or one with no neighbour. Made once per mesh instead of once
  /// per query object.
  uint8_t *corner;
  int32_t *dead_apex;
  /// The widest passages between free triangles, for every disk at once (docs/DESIGN.md, "No
  /// path for a disk without a search"): the forest of the widest portals over the free
  /// triangles and, for a map without bounds, one more node (index free_count) for the plane
  /// beyond the box, in blocks (an_navmesh_passage_node()) so that a local change builds only
  /// the blocks it touched again; empty (blocks NULL) when not built (an_navmesh_options.passages).
  an_blocked_forest passages;
  /// With the passages: per free triangle, 3 each, the width of the portal across edge i
  /// (an_navmesh_portal_width()) rounded up to a float, NaN where no free triangle lies across;
  /// kept for a build after a local change to carry over (an_navmesh_build_passages()).
  float *portal_width;
  /// With them: no wider than the narrowest portal (after a local change, the narrowest of the
  /// mesh before and of the portals measured again), so that searches that shut the portals
  /// narrower than a width know when none is.
  float narrowest_portal;
  /// Lengths from a few points to every vertex, for the searches' bounds (mesh/landmarks.h):
  /// measured by the engines that search this mesh (funnel/landmarks_build.h), none until then.
  an_landmarks landmarks;
  vec2 grid_min; ///< point location grid: cell (i, j) stores a cdt triangle near its centre
  double cell_w, cell_h;
  int32_t grid_w, grid_h;
  int32_t *grid;
  /// The mesh this one is a copy of (an_navmesh_clone()), compared only, never read: NULL for a
  /// mesh built. With it, `renewed` lists the free numbers whose triangle the local changes since
  /// the copy may have made other than the original's (navmesh_update.c; docs/DESIGN.md, "A
  /// living map"), each at least once: a number below both free counts and not listed is the
  /// same triangle there, the same corners at the same points and the same neighbours.
  const an_navmesh *cloned_from;
  /// Owners besides the first (an_navmesh_share()): a destroy while there are some drops one.
  uint32_t sharers;
  int32_t *renewed;
  size_t renewed_count;
  /// A copy made to be changed (an_navmesh_clone()): `cdt` and the free triangles' arrays
  /// (free_of, tri_of, fv, fn, component) are the original's, read but never written or freed
  /// here, until the change puts its own in their place.
  bool borrows_triangulation;
  /// The forests of widest links over the free triangles (the passages', the sure passages') are
  /// kept in blocks of 2^block_shift consecutive free numbers: chosen by a build from its count
  /// (docs/DESIGN.md, "The widest passages in blocks"), kept by copies and local changes.
  uint8_t block_shift;
  bool whole_plane;   ///< no bounds: everything beyond the box is free
  int32_t box_tri[4]; ///< per box edge, corner e to corner e + 1: its free triangle, or -1
  int8_t box_edge[4]; ///< the edge of box_tri[e] on the box edge
};

/// Is free triangle t, of the free neighbours `fn` (3 per triangle), a dead end: one free
/// neighbour at most? A path that enters it leaves through the edge it came in by, never shortest
/// unless the goal is inside (an_navmesh.dead_apex).
static inline bool an_navmesh_dead_end(const int32_t *fn, size_t t) {
  const int32_t *n = &fn[3 * t];
  return (n[0] >= 0) + (n[1] >= 0) + (n[2] >= 0) <= 1;
}

/// The edge of free triangle t with the free triangle u across it (`fn`: 3 per triangle), or -1.
static inline int an_navmesh_edge_across(const int32_t *fn, size_t t, int32_t u) {
  const int32_t *n = &fn[3 * t];
  return n[0] == u ? 0 : n[1] == u ? 1 : n[2] == u ? 2 : -1;
}

/// The width by which the passages' forest links free triangle t to the free triangle across its
/// edge i (there must be one): that portal's entry in `width` (3 per triangle,
/// an_navmesh.portal_width) on the lower-numbered of the two triangles, which measured it.
static inline float an_navmesh_link_width(const int32_t *fn, const float *width, size_t t, int i) {
  int32_t u = fn[3 * t + (size_t)i];
  return u > (int32_t)t
             ? width[3 * t + (size_t)i]
             : width[3 * (size_t)u + (size_t)an_navmesh_edge_across(fn, (size_t)u, (int32_t)t)];
}

/// How an_navmesh_build_ex() builds.
typedef struct an_navmesh_options {
  /// Past this many proper crossings between obstacle edges (0: no limit) the free space is
  /// triangulated obstacle by obstacle, dropping the constraints other obstacles cover, instead of
  /// through the whole arrangement of their edges. Both give the same free space; the budget only
  /// picks the cheaper way for the input. AN_NAVMESH_DEFAULT_LIMIT for an_navmesh_build().
  size_t crossing_limit;
  /// Only the pieces this keeps are triangulated (see an_navmesh_build_trimmed()); NULL: all.
  an_navmesh_trim_fn trim;
  void *trim_context;
  bool open_pinches; ///< join the free fans at pinches by connectors (see the file comment)
  /// Build the forest of the widest passages (an_navmesh_passage_width()); an_navmesh_build()
  /// does, for the disk searches its mesh guides.
  bool passages;
} an_navmesh_options;

/// Triangulate the free space of `map` for a point agent at R = 0 (see the file comment): pinches
/// closed.
/// @return ARCNAV_OK, ARCNAV_ERR_OUT_OF_MEMORY, ARCNAV_ERR_TOO_LARGE, or
///         ARCNAV_ERR_INVALID_ARGUMENT when the triangulation could not be built.
arcnav_status an_navmesh_build(const arcnav_map *map, const an_allocator *alloc, an_navmesh **out);

/// The crossing budget an_navmesh_build() uses (an_navmesh_options.crossing_limit).
#define AN_NAVMESH_DEFAULT_LIMIT SIZE_MAX

/// The eroded mesh of the funnel engines at R > 0 (`map` holds the grown obstacles): an
/// an_navmesh_build() that keeps pinches open and triangulates only the pieces `trim` keeps. The
/// faces are still labelled against the whole map, so the free space is the same; only blocked
/// faces merge.
arcnav_status an_navmesh_build_trimmed(const arcnav_map *map, const an_allocator *alloc,
                                       an_navmesh_trim_fn trim, void *trim_context,
                                       an_navmesh **out);

/// The builds above with every choice explicit.
arcnav_status an_navmesh_build_ex(const arcnav_map *map, const an_allocator *alloc,
                                  const an_navmesh_options *options, an_navmesh **out);
void an_navmesh_destroy(an_navmesh *mesh);

/// Frees the free triangles' arrays (free_of, tri_of, fv, fn, component), unless the mesh borrows
/// them (an_navmesh.borrows_triangulation), for a mesh about to take new ones or to go.
void an_navmesh_free_triangle_arrays(an_navmesh *mesh);

/// Twice an upper bound on the clearance of every point of the portal across edge i of free
/// triangle t (docs/DESIGN.md, "No path for a disk without a search"): the least of its length
/// between two obstacle vertices (twice it with one box corner, INFINITY between two), and a bound
/// from the material the two triangles beside it show (their vertices but the box's corners,
/// their edges with no free triangle beyond), sampled along the portal with the slack the
/// distance's Lipschitz bound asks. For a boundary edge (no free neighbour), the length rule alone.
/// The same from either side of the portal: measured from the lower-numbered of its triangles.
double an_navmesh_portal_width(const an_navmesh *mesh, int32_t t, int i);

/// An upper bound on the diameter of the disks that can pass between free triangles `a` and `b`:
/// the largest w such that a chain of portals at least w wide (an_navmesh_portal_width()) joins
/// them. -INFINITY when
/// nothing joins them; INFINITY for a mesh built without the forest (an_navmesh_options.passages).
/// A disk of radius R whose checks admit R - eps needs at least 2 (R - eps).
double an_navmesh_passage_width(const an_navmesh *mesh, int32_t a, int32_t b);
/// Working memory of an_navmesh_flood_passages(), made on first use; zero it to start.
typedef struct an_passage_flood {
  uint32_t *seen; ///< per free triangle: the stamp of the flood that reached it
  int32_t *stack;
  size_t capacity; ///< free triangles the arrays hold
  uint32_t stamp;
} an_passage_flood;

void an_passage_flood_free(an_passage_flood *flood, const an_allocator *alloc);

/// Calls `visit` on every free triangle joined to free triangle `start` by a chain of portals
/// at least `width` wide (the chains an_navmesh_passage_width() measures), `start` first, and
/// returns how many. SIZE_MAX, part of them visited, when there are more than `limit`, and
/// when the mesh has no forest, is a whole plane's (the plane beyond the box is one of its
/// nodes) or the flood's memory cannot be made: the caller then knows nothing.
size_t an_navmesh_flood_passages(const an_navmesh *mesh, int32_t start, double width, size_t limit,
                                 an_passage_flood *flood, const an_allocator *alloc,
                                 void (*visit)(void *context, int32_t triangle), void *context);
/// Can the mesh take the local changes below? A point agent's mesh (no connectors) with free
/// space. The caller keeps the box what a new build would make it: the bounds, or without them
/// the extent of everything, unchanged.
bool an_navmesh_may_change_locally(const an_navmesh *mesh);

/// A polygon's rings as a local change names them: `ring_count` rings, ring_counts[r] points
/// each, one after the other; `vertices` their mesh vertices (for one the mesh holds).
typedef struct an_navmesh_rings {
  const uint32_t *ring_counts;
  size_t ring_count;
  const int32_t *vertices;
} an_navmesh_rings;

/// Changes the mesh without a new build (docs/DESIGN.md, "A living map"): takes out polygon
/// `gone` (one this function put in, by the vertices it gave, nothing having come near it since),
/// then puts in polygon `added` (its points in `points`; outer rings counter-clockwise, holes
/// clockwise, as the map keeps them; its `vertices` are not read), which must lie in the free
/// space then and keep clear of everything else, which the caller checks. Either may be NULL (an
/// add, a removal); both make a move. The new polygon's vertex indices go to out_vertices (one
/// per point; they may be the taken-out ones'). The mesh's forest of widest passages is dropped,
/// and so are its landmarks unless the change only adds (an_landmarks_after_addition()).
/// ARCNAV_ERR_INVALID_ARGUMENT when a polygon turns out not to lie clear in the free space, or
/// the mesh cannot change locally; that and ARCNAV_ERR_OUT_OF_MEMORY leave the mesh as it was.
arcnav_status an_navmesh_change_polygon(an_navmesh *mesh, const an_navmesh_rings *gone,
                                        const vec2 *points, const an_navmesh_rings *added,
                                        int32_t *out_vertices);

/// The vertices (to `out_vertices`, one per point) of a polygon the mesh holds as
/// an_navmesh_change_polygon() would have put it in, so that it can take it out: one the mesh was
/// built with (docs/DESIGN.md, "A living map", a polygon of the map as built). Its points,
/// `points`, ring after ring as `rings` counts them (`rings->vertices` is not read), each a vertex
/// of the triangulation; each ring edge a constraint, blocked on its left (the material) and free
/// on its right; no other constraint at its vertices (no other ring or obstacle shares one). The
/// caller checks that nothing else comes near it or lies inside it, so that every triangle of its
/// material has its corners on it. A pass over the triangles round its vertices.
/// ARCNAV_ERR_INVALID_ARGUMENT when the mesh does not hold it so (or cannot change locally).
arcnav_status an_navmesh_find_polygon(const an_navmesh *mesh, const vec2 *points,
                                      const an_navmesh_rings *rings, int32_t *out_vertices);

/// A copy of `mesh` that changes apart from it (an_navmesh_change_polygon()). With `to_change`,
/// the copy borrows `mesh`'s triangulation (an_navmesh.borrows_triangulation) instead of copying
/// it, since the change makes its own copy to edit: it must then be changed, or destroyed, while
/// `mesh` lives; it has no forest of the widest passages (an_navmesh_build_passages() makes one
/// again after the change), and takes `mesh`'s spare arrays (never read by `mesh` but to change).
/// Without, the copy is whole, with `mesh`'s forest and portal widths.
/// @return ARCNAV_OK or ARCNAV_ERR_OUT_OF_MEMORY (*out NULL).
arcnav_status an_navmesh_clone(const an_navmesh *mesh, bool to_change, an_navmesh **out);
void an_navmesh_rows_free(an_navmesh_rows *rows, const an_allocator *alloc);
void an_navmesh_rewrites_free(an_navmesh_rewrites *rewrites, const an_allocator *alloc);
/// The mesh's free triangles' arrays, taken from it (its fields left NULL) with what they hold.
an_navmesh_rows an_navmesh_take_rows(an_navmesh *mesh);
/// The other way: `rows` become the mesh's free triangles' arrays (free_count their rows, the room
/// theirs), the mesh's own having been taken or freed.
void an_navmesh_put_rows(an_navmesh *mesh, const an_navmesh_rows *rows);
/// Hands `from`'s triangulation down to `to` as its spare arrays (an_navmesh.spare_behind), when
/// `to` is a copy of it changed once (an_navmesh_clone()) and `from`, owned by one, is about to be
/// destroyed: the next change of `to` then copies only what its last one wrote, instead of the
/// whole triangulation. The free triangles' arrays go down with it (an_navmesh.spare_rows).
/// Otherwise (either NULL too) nothing. `from` may then only be destroyed.
void an_navmesh_hand_down(an_navmesh *from, an_navmesh *to);
/// `mesh` again, for one more owner that will destroy it (an engine built beside another after a
/// change that leaves the triangulation alone: a unit's). Owners must not change it; they are
/// updated one at a time (arcnav_planner_update()), so the count needs no lock.
an_navmesh *an_navmesh_share(an_navmesh *mesh);
/// The block of free triangle t (an_navmesh.block_shift), and how many blocks the mesh's free
/// triangles fill.
static inline uint32_t an_navmesh_block_of(const an_navmesh *mesh, size_t t) {
  return (uint32_t)(t >> mesh->block_shift);
}
static inline size_t an_navmesh_block_count(const an_navmesh *mesh) {
  return (mesh->free_count + ((size_t)1 << mesh->block_shift) - 1) >> mesh->block_shift;
}
/// The free triangles of block b: [*first, *end).
static inline void an_navmesh_block_triangles(const an_navmesh *mesh, size_t b, size_t *first,
                                              size_t *end) {
  *first = b << mesh->block_shift;
  *end = *first + ((size_t)1 << mesh->block_shift);
  *end = *end < mesh->free_count ? *end : mesh->free_count;
}

/// The passages' forest holds free triangle t in block 1 + an_navmesh_block_of(t); block 0 holds
/// the plane beyond the box (t = free_count) alone, so that its links keep their blocks when the
/// count changes.
static inline an_forest_ref an_navmesh_passage_node(const an_navmesh *mesh, int32_t t) {
  if ((size_t)t == mesh->free_count) {
    return (an_forest_ref){0, 0};
  }
  return (an_forest_ref){1 + an_navmesh_block_of(mesh, (size_t)t),
                         (uint32_t)t & ((1u << mesh->block_shift) - 1)};
}

/// Builds the forest of the widest passages (an_navmesh_passage_width()) of a mesh that has none.
/// With `before` (NULL: none), the mesh this one was cloned from before a local change, a portal
/// whose two triangles the change left as they were (an_navmesh_kept_triangles()) keeps the width
/// it had there: the width depends on nothing else; and the forest's blocks that hold none of the
/// triangles the change renewed, nor a neighbour of one, are taken over from `before`'s.
/// @return ARCNAV_OK or ARCNAV_ERR_OUT_OF_MEMORY (the mesh as it was).
arcnav_status an_navmesh_build_passages(an_navmesh *mesh, const an_navmesh *before);

/// Which free triangles of `mesh` are the same as in `before` (the same corners at the same points,
/// the same neighbours): every one when `mesh` is `before`; else per free number of `mesh`, 1
/// where the number is below `before`'s count and `mesh` is a copy of `before` changed locally
/// since (an_navmesh.cloned_from) that left it as it was (an_navmesh.renewed), else 0. NULL when
/// out of memory; free with the mesh's allocator.
uint8_t *an_navmesh_kept_triangles(const an_navmesh *before, const an_navmesh *mesh);
/// The same, as the numbers renewed: those an_navmesh_kept_triangles() gives 0, and those past
/// `mesh`'s count below `before`'s. Marked in *marks (one byte per number of the larger count) and
/// listed once in *list, both made with the mesh's allocator; false when out of memory (free both
/// either way).
bool an_navmesh_renewed_numbers(const an_navmesh *before, const an_navmesh *mesh, uint8_t **marks,
                                uint32_t **list, size_t *count);

/// Number of free (walkable) triangles, without the connectors (which have no area).
size_t an_navmesh_triangle_count(const an_navmesh *mesh);
/// Corners of free triangle `index`, counter-clockwise.
void an_navmesh_triangle(const an_navmesh *mesh, size_t index, vec2 out[3]);
/// Heap bytes held by the mesh.
size_t an_navmesh_memory_bytes(const an_navmesh *mesh);

/// Free triangle containing p, or -1 when p is not free. A point outside every free triangle but
/// within eps of one (touching an obstacle, or inside it by at most eps) gets the nearest such
/// triangle. Thread-safe (reads only).
int32_t an_navmesh_locate(const an_navmesh *mesh, vec2 p);

/// Whether p lies in the triangulated box (its boundary included).
bool an_navmesh_in_box(const an_navmesh *mesh, vec2 p);

/// Whether a point agent may stand at p: located in the box (an_navmesh_locate() >= 0), or beyond
/// the box of a map without bounds. Thread-safe (reads only).
bool an_navmesh_point_is_free(const an_navmesh *mesh, vec2 p);

/// Triangle of the underlying triangulation (free or not) containing p, found from the mesh's
/// locate grid; -1 outside the box. Thread-safe (reads only).
int32_t an_navmesh_locate_cdt(const an_navmesh *mesh, vec2 p);

/// The vertex of the underlying triangulation at p exactly, or -1. Thread-safe (reads only).
int32_t an_navmesh_vertex_at(const an_navmesh *mesh, vec2 p);

/// The free triangle that holds p inside, farther than AN_LOCATE_INSIDE_TOLERANCES tolerances
/// from each of its edges, or -1: a point it returns a triangle for lies in no obstacle of the
/// map the mesh was built from, and inside the bounds, even where the build snapped close points
/// together. Thread-safe (reads only).
int32_t an_navmesh_locate_inside(const an_navmesh *mesh, vec2 p);
