// SPDX-License-Identifier: MIT
#pragma once

// The stages of a navmesh build, each in a file of its own, which an_navmesh_build_ex()
// (navmesh_build.c) runs in this order:
//   navmesh_input.c   the map's rings as constraint points and segments, trimmed if asked;
//   navmesh_clean.c   which obstacles the triangulation may trust not to cross themselves;
//   the triangulation (cdt.c), or navmesh_union.c past the crossing budget;
//   navmesh_faces.c   which faces are free, and the free triangles' arrays, with the connectors
//                     of navmesh_pinch.c where pinches are opened;
//   navmesh_locate.c  the point-location grid.
// The stages share only what is declared here; navmesh.h stays the mesh's interface to the rest
// of the library.

#include "mesh/navmesh.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/// Points and segments (pairs of point indices) with their groups, as the triangulation takes
/// them.
typedef struct an_navmesh_input {
  vec2 *points;
  uint32_t *segments, *point_group, *segment_group;
  size_t np, ns;
  size_t points_capacity, point_groups_capacity, segments_capacity, segment_groups_capacity;
} an_navmesh_input;

/// Collect the constraint points and segments of the map. Counts first (points == NULL).
void an_navmesh_collect_input(const arcnav_map *map, vec2 *points, uint32_t *segments,
                              uint32_t *point_group, uint32_t *segment_group, size_t *np,
                              size_t *ns);

void an_navmesh_input_free(an_navmesh_input *in, const an_allocator *alloc);

/// Points of different obstacles within `eps` of each other become one point (each takes the
/// coordinates of the first of them in x order), so that obstacles meeting within the tolerance
/// share a vertex of the triangulation, where a point agent's pinch is seen.
arcnav_status an_navmesh_snap_close_points(an_navmesh_input *in, double eps,
                                           const an_allocator *alloc);

/// Splits every segment at the points of other obstacles within `eps` of its inside, so that an
/// obstacle's vertex touching another's edge within the tolerance lies on it: the two share the
/// vertex, and edges that run together within the tolerance become one constraint (a seam).
/// clean[g] is cleared for every group whose segments were split. Writes a new input to *out.
arcnav_status an_navmesh_split_at_close_points(const an_navmesh_input *in, double eps,
                                               uint8_t *clean, const an_allocator *alloc,
                                               an_navmesh_input *out);

/// The kept pieces of every segment of `in`, as new lists in `out` (points only where a kept piece
/// ends). A group whose segments were cut loses its clean promise.
arcnav_status an_navmesh_trim_input(const an_navmesh_input *in, an_navmesh_trim_fn trim,
                                    void *context, uint8_t *clean, const an_allocator *alloc,
                                    an_navmesh_input *out);

/// Per group (each obstacle, then the bounds) whether the triangulation may skip testing its own
/// segments against each other: clean[g] = 1 for a large ring set the map's validation accepts.
arcnav_status an_navmesh_find_clean_groups(const arcnav_map *map, const an_allocator *alloc,
                                           uint8_t *clean);

/// Triangulate the box [lo, hi] obstacle by obstacle, dropping the constraints other obstacles
/// cover (see navmesh_union.c). Segments come grouped by obstacle, then the bounds.
/// ARCNAV_ERR_INVALID_ARGUMENT: a rounded crossing could not be routed; mesh->cdt is freed on
/// failure.
arcnav_status an_navmesh_build_by_union(an_navmesh *mesh, const arcnav_map *map, vec2 lo, vec2 hi,
                                        const vec2 *points, size_t np, const uint32_t *segments,
                                        size_t ns, const uint32_t *segment_group);

/// Label the faces (see label_faces()), give every pinch vertex's fans edges of their own, and
/// build the free triangles' arrays with the connectors at pinches.
arcnav_status an_navmesh_classify(an_navmesh *mesh, const arcnav_map *map, bool open_pinches);

/// The vertices with two fans or more (*list NULL when there are none).
arcnav_status an_navmesh_find_pinches(const an_navmesh *mesh, int32_t **list, size_t *count);

/// A fan's connector sits on the blocked edge that closes or opens it at the pinch; an edge
/// joining two pinch vertices would be wanted by both, so it is split in the middle first (a
/// rounded midpoint moves the obstacle's boundary by rounding only).
arcnav_status an_navmesh_split_pinch_edges(an_navmesh *mesh, const int32_t *pinches, size_t count,
                                           bool *split);

/// Count the connector pairs at the pinch vertices (next == NULL), or add them from index *next
/// on.
size_t an_navmesh_link_pinches(an_navmesh *mesh, const int32_t *pinches, size_t count,
                               size_t *next);

/// Fill the point-location grid: per cell, the triangle at (or a walk's end near) its centre.
arcnav_status an_navmesh_build_grid(an_navmesh *mesh);

/// Points the location grid's cells over [lo, hi] (and any cell whose triangle is gone) at
/// triangles found again, after the triangulation changed there; the cells were right for a
/// triangulation of `valid_count` triangles, and only when it had more than this one may a cell's
/// triangle be gone. (Every cell would cost a walk each; elsewhere a cell's triangle only moved
/// slot, a start as good as any.)
void an_navmesh_refresh_grid(an_navmesh *mesh, vec2 lo, vec2 hi, size_t valid_count);

/// The free triangle on each edge of the box (box_tri, box_edge).
void an_navmesh_find_box_edges(an_navmesh *mesh);

/// What free triangle t (of `fv` and `fn`) adds to its vertices' tables (an_navmesh.corner and
/// dead_apex, the latter -1 where nothing was added yet): to all three with `at` -1, else to
/// vertex `at` only (a local change making one vertex's tables again).
void an_navmesh_mark_triangle(const int32_t *fv, const int32_t *fn, size_t t, int32_t at,
                              uint8_t *corner, int32_t *dead_apex);

/// The interval search's tables of the vertices (an_navmesh.corner and dead_apex) for the
/// `free_count` free triangles `fv` and `fn` over `point_count` vertices, into *corner and
/// *dead_apex (made with `alloc`). @return ARCNAV_OK or ARCNAV_ERR_OUT_OF_MEMORY (nothing made).
arcnav_status an_navmesh_mark_corners(const int32_t *fv, const int32_t *fn, size_t free_count,
                                      size_t point_count, const an_allocator *alloc,
                                      uint8_t **corner, int32_t **dead_apex);

/// Numbers the connected parts of the `n` free triangles joined across `fn` into `component` (n
/// entries; its queue made with `alloc`). @return ARCNAV_OK or ARCNAV_ERR_OUT_OF_MEMORY
/// (`component` then undefined).
arcnav_status an_navmesh_label_components(const int32_t *fn, size_t n, const an_allocator *alloc,
                                          int32_t *component);

/// The label a triangle of the mesh's triangulation carries as its tag (an_cdt_tri.tag), which
/// the kernel's edits keep: a local change edits a copy and reads what it did from the tags
/// (navmesh_update.c).
enum { AN_NAVMESH_TAG_FREE = 0, AN_NAVMESH_TAG_BLOCKED = 1 };

/// The free triangles' arrays from their numbering free_of (per triangle of cdt, -1 blocked):
/// tri_of, and fv and fn, neighbours across any edge, constraint or not; and every triangle's tag.
void an_navmesh_fill_free(an_cdt *cdt, const int32_t *free_of, int32_t *tri_of, int32_t *fv,
                          int32_t *fn);
