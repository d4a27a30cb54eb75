// SPDX-License-Identifier: MIT
#pragma once

// Constrained Delaunay triangulation of points and segments inside an axis-aligned box.
//
// Incremental: the box is split into two triangles, points are inserted one at a time (walk to the
// containing triangle, split it, restore the Delaunay property by Lawson flips), then every
// constraint segment is forced in: the edges it crosses are flipped out (Sloan's method) and the
// Delaunay property is restored around the new edges. an_cdt_build() first cuts every segment at
// the input points lying exactly on it and at its crossings with other segments, so constraints
// that cross come out split at their intersections and pass exactly through the points on them.
// Crossing points are rounded to doubles; when a rounded point cannot split an edge cleanly, the
// constraint is routed through the vertex within rounding distance instead. All topological
// decisions use the exact predicates of predicates.h.
//
// Constraints and vertices can be taken out again (an_cdt_unconstrain_edge(),
// an_cdt_remove_vertex()), for updates that change part of the input.
//
// Triangles are counter-clockwise. Edge i of a triangle is the one opposite vertex i, from
// v[i + 1] to v[i + 2]; n[i] is the triangle across it (-1 on the box boundary).

#include "geom/alloc.h"
#include "geom/geom.h"

#include <stddef.h>
#include <stdint.h>

typedef struct an_cdt_tri {
  int32_t v[3];        ///< vertex indices, counter-clockwise
  int32_t n[3];        ///< neighbour across edge i (opposite v[i]), -1 on the box boundary
  uint8_t constrained; ///< bit i set: edge i is a constraint
  /// The caller's, kept through edits as a label of the region a triangle lies in (in the
  /// struct's padding): triangles made by splitting one take its tag, a flip (never across a
  /// constraint) leaves each slot's, and the triangles filling a removed vertex's hole take the
  /// tag of one triangle round it. The box's first two are 0.
  uint8_t tag;
} an_cdt_tri;

/// Edge (or vertex) after i (0, 1 or 2) in a triangle, counter-clockwise: (i + 1) % 3. Read from
/// two bits per i of a constant: no division and no branch, which in the searches' inner loops
/// the branch predictor would lose as often as not.
static inline int an_cdt_next3(int i) {
  return (0x09 >> (2 * i)) & 3;
}
/// Edge (or vertex) before i in a triangle: (i + 2) % 3.
static inline int an_cdt_prev3(int i) {
  return (0x12 >> (2 * i)) & 3;
}

/// The position of vertex `v` in triangle `t`, or -1.
static inline int an_cdt_vertex_index(const an_cdt_tri *t, int32_t v) {
  return t->v[0] == v ? 0 : t->v[1] == v ? 1 : t->v[2] == v ? 2 : -1;
}

typedef struct an_cdt {
  an_allocator alloc;
  vec2 *points; ///< vertex coordinates; 0..3 are the box corners
  size_t point_count, point_capacity;
  /// One triangle incident to each vertex; for a removed vertex, -2 - the next removed one
  /// (-1 for none): the list, headed by dead_vertex, of indices new vertices take again.
  int32_t *vertex_tri;
  size_t vertex_tri_capacity;
  an_cdt_tri *tris;
  size_t tri_count, tri_capacity;
  int32_t *stack; ///< work list of (triangle, edge) pairs for flips and of vertex pairs for Sloan
  size_t stack_count, stack_capacity;
  int32_t hint;        ///< triangle where the next walk starts
  uint32_t rng;        ///< deterministic choice of the first edge tested in a walk
  size_t flips;        ///< Delaunay flips made so far (a measure of the work done)
  int32_t dead_vertex; ///< the last vertex removed and not yet taken again, or -1
  /// While edits are followed (an_cdt_follow_writes()): which of the first `followed` slots they
  /// wrote, marked and listed (`written`, `written_count`) in the order first written.
  uint8_t *written_mark;
  int32_t *written;
  size_t written_count, followed;
} an_cdt;

/// Follows the writes of the edits to come to the triangles now in `cdt` (an_cdt_wrote()), so
/// that the slots they changed are found without comparing every slot with a copy. Replaces what
/// was followed before. ARCNAV_ERR_OUT_OF_MEMORY (nothing followed then).
arcnav_status an_cdt_follow_writes(an_cdt *cdt);

/// Stops following writes and frees the record.
void an_cdt_unfollow_writes(an_cdt *cdt);

/// What one edit of a triangulation wrote, as an_cdt_follow_writes() followed it: the slots below
/// `followed` (the slot count when following began) it wrote, each once. With the slots past
/// `followed` and the vertices, they are all that a copy of the triangulation before the edit
/// lacks (an_cdt_catch_up()).
typedef struct an_cdt_edit {
  int32_t *written;
  size_t written_count, followed;
} an_cdt_edit;

/// Stops following writes, the slots written kept in *out (an_cdt_edit_free()).
void an_cdt_take_writes(an_cdt *cdt, an_cdt_edit *out);
void an_cdt_edit_free(an_cdt_edit *edit, const an_allocator *alloc);

/// Records a write to triangle slot t, when writes are followed: every write to a slot of the
/// triangulation goes through it. Inline: edits write slots in their inner loops.
static inline void an_cdt_wrote(an_cdt *cdt, int32_t t) {
  if ((size_t)t < cdt->followed && !cdt->written_mark[t]) {
    cdt->written_mark[t] = 1;
    cdt->written[cdt->written_count++] = t;
  }
}

/// Start a triangulation of the box [box_min, box_max] (non-empty in both axes). Nothing to free on
/// failure.
arcnav_status an_cdt_init(an_cdt *cdt, const an_allocator *alloc, vec2 box_min, vec2 box_max);
void an_cdt_free(an_cdt *cdt);
/// The triangulation's arrays, handed over: *cdt is left empty, as an_cdt_free() leaves it, and the
/// result no longer follows writes.
an_cdt an_cdt_take(an_cdt *cdt);

/// Gives back what the arrays hold beyond the triangulation and frees the work stack, for a
/// triangulation that is done (inserting more still works: the arrays grow again).
/// ARCNAV_ERR_OUT_OF_MEMORY when a smaller copy cannot be allocated; the triangulation is whole
/// either way.
arcnav_status an_cdt_shrink(an_cdt *cdt);

/// Insert a point strictly inside the box. *out_vertex receives its vertex index (an existing one
/// when a vertex with the same coordinates exists). ARCNAV_ERR_INVALID_ARGUMENT when not strictly
/// inside the box, ARCNAV_ERR_OUT_OF_MEMORY.
arcnav_status an_cdt_insert_point(an_cdt *cdt, vec2 p, int32_t *out_vertex);

/// The index the next new vertex will take: a removed vertex's, or point_count.
int32_t an_cdt_next_vertex(const an_cdt *cdt);

/// Split the edge between vertices a and b (not on the box) at a new vertex at p, which must lie
/// close enough to the edge that the four triangles around it are counter-clockwise (a rounded
/// point of the edge does). A constraint edge stays a constraint on both halves.
/// ARCNAV_ERR_INVALID_ARGUMENT when there is no such edge or p does not fit,
/// ARCNAV_ERR_OUT_OF_MEMORY.
arcnav_status an_cdt_split_edge(an_cdt *cdt, int32_t a, int32_t b, vec2 p, int32_t *out_vertex);

/// Make the segment between vertices a and b a chain of constraint edges (split at vertices on it
/// and at crossings with earlier constraints). a == b is a no-op. Lower level than
/// an_cdt_build(): a constraint continued from a rounded crossing may pass beside input points
/// that lie exactly on the segment.
arcnav_status an_cdt_insert_segment(an_cdt *cdt, int32_t a, int32_t b);

/// Judges the piece of a segment between p and q (consecutive crossings with constraint edges or
/// vertices on the segment): true to make it a constraint.
typedef bool (*an_cdt_keep_fn)(void *ctx, vec2 p, vec2 q);

/// an_cdt_insert_segment() for the pieces `keep` accepts only; the others are walked past without
/// changing the triangulation, so a segment running mostly through space that no longer needs
/// constraints costs a walk rather than flips. A kept piece that starts at a crossing gets a vertex
/// there.
arcnav_status an_cdt_insert_segment_kept(an_cdt *cdt, int32_t a, int32_t b, an_cdt_keep_fn keep,
                                         void *ctx);

/// Makes `dst` a copy of `src`, for edits that must leave the original as it was should they
/// fail, in dst's own arrays where they are large enough (`dst` is zeroed or a triangulation,
/// which it replaces): room for what `src` holds and `room` more vertices with their triangles,
/// so that as many insertions grow no array. ARCNAV_ERR_OUT_OF_MEMORY leaves `dst` a valid
/// triangulation to free, its contents undefined.
arcnav_status an_cdt_copy(const an_cdt *src, size_t room, an_cdt *dst);

/// an_cdt_copy() for a `dst` that holds `src` as it was before `edit`, the one edit since: only
/// the slots the edit wrote or added, and the vertices, are copied (docs/DESIGN.md, "A living
/// map"). A `dst` of another slot count, or without the room, is copied whole.
arcnav_status an_cdt_catch_up(const an_cdt *src, const an_cdt_edit *edit, size_t room, an_cdt *dst);

/// Make the constraint edge between vertices a and b an ordinary edge and restore the Delaunay
/// property round it (Lawson flips): the triangulation is then what building it without that
/// constraint gives (up to cocircular choices). ARCNAV_ERR_INVALID_ARGUMENT when a and b are not
/// joined by a constraint edge; ARCNAV_ERR_OUT_OF_MEMORY, which leaves a valid triangulation whose
/// Delaunay property may not be whole.
arcnav_status an_cdt_unconstrain_edge(an_cdt *cdt, int32_t a, int32_t b);

/// Take vertex v out: its triangles give way to a triangulation of the hole they leave (ears cut
/// off its boundary), made Delaunay by Lawson flips, so the triangulation is what building it
/// without v gives (up to cocircular choices). v must be inserted (not a box corner) with no
/// constraint edge ending at it; its index is dead (vertex_tri[v] < 0; point indices do not
/// move) until a vertex inserted later takes it again (an_cdt_next_vertex()). Two triangles fewer:
/// the last triangles move into the slots given back, so triangle indices held elsewhere are stale.
/// ARCNAV_ERR_INVALID_ARGUMENT otherwise; on ARCNAV_ERR_OUT_OF_MEMORY the triangulation is
/// unchanged, or (when the flips ran out) valid without v but with its Delaunay property not whole.
arcnav_status an_cdt_remove_vertex(an_cdt *cdt, int32_t v);

/// Convenience: triangulate `point_count` points and `segment_count` segments (pairs of indices
/// into points) in the box. vertex_of [out, opt] receives each input point's vertex index.
arcnav_status an_cdt_build(an_cdt *cdt, const an_allocator *alloc, vec2 box_min, vec2 box_max,
                           const vec2 *points, size_t point_count, const uint32_t *segments,
                           size_t segment_count, int32_t *vertex_of);

/// Optional knowledge for an_cdt_build_ex(). Input points and segments belong to groups (say,
/// the obstacles of a map); a group marked clean promises that its segments meet each other only
/// at shared endpoints and that none of its points lies inside one of its segments (a validated
/// polygon), so pairs inside it are not tested. Pairs between groups always are.
typedef struct an_cdt_options {
  const uint32_t *point_group;   ///< per input point: its group (< group_count); NULL: all 0
  const uint32_t *segment_group; ///< per segment: its group; NULL: all 0
  const uint8_t *group_clean;    ///< per group: nonzero when clean; NULL: none is
  size_t group_count;            ///< 0 counts as 1
  size_t crossing_limit;         ///< give up past this many proper crossings (0: no limit)
  bool over_limit;               ///< out: set when the build gave up at crossing_limit
} an_cdt_options;

/// an_cdt_build() with options (NULL: none). Past options->crossing_limit crossings it returns
/// ARCNAV_ERR_TOO_LARGE with options->over_limit set (and nothing to free). The triangulation is
/// the same as an_cdt_build()'s whatever the groups, as long as the clean groups keep their
/// promise.
arcnav_status an_cdt_build_ex(an_cdt *cdt, const an_allocator *alloc, vec2 box_min, vec2 box_max,
                              const vec2 *points, size_t point_count, const uint32_t *segments,
                              size_t segment_count, an_cdt_options *options, int32_t *vertex_of);

/// Triangle containing p (on its boundary counts), walking from `start` (any triangle index, or
/// -1 for the cdt's own hint). -1 when p is outside the box. Does not modify the triangulation.
int32_t an_cdt_locate(const an_cdt *cdt, vec2 p, int32_t start);

/// Index of edge (a, b) in *out_tri (either direction), or -1 when a and b are not joined by an
/// edge.
int an_cdt_find_edge(const an_cdt *cdt, int32_t a, int32_t b, int32_t *out_tri);

/// Check the triangulation's structure: indices in range, every vertex's triangle holding it
/// (no triangle holding a removed vertex),
/// every triangle counter-clockwise (exact orientation), neighbour links symmetric and across the
/// same edge, -1 only on the box boundary, constraint marks the same on both sides of an edge.
/// True when all hold; otherwise false with the first failure described in why (may be NULL).
/// Costs a pass over the triangles; for tests and debugging.
bool an_cdt_check(const an_cdt *cdt, char *why, size_t why_size);

/// The Delaunay property across every unconstrained edge (exact in-circle test; cocircular is
/// fine), on a triangulation an_cdt_check() accepts. It holds for what this file builds; a caller
/// that clears constraint marks afterwards (the navmesh drops constraints buried inside an earlier
/// obstacle) may break it where it no longer matters. False with a reason in why otherwise.
bool an_cdt_check_delaunay(const an_cdt *cdt, char *why, size_t why_size);

/// Is the segment between vertices a and b present as a chain of constraint edges, from a to b,
/// each advancing towards b (through the vertices an_cdt_build() cut it at)? Follows, at each
/// vertex, the constraint edge that advances and stays closest to the segment. Call on a
/// triangulation an_cdt_check() accepts. False with a reason in why (may be NULL) otherwise.
bool an_cdt_check_constraint(const an_cdt *cdt, int32_t a, int32_t b, char *why, size_t why_size);
