// SPDX-License-Identifier: MIT
#pragma once

// Probes of the free space on the obstacle grid: the distance to the blocked region, the sweep of
// the agent's disk along a ray, whether a path is still free, and the nearest free point. Every
// answer is judged by the free checks of clearance.h, the ones the engines use, so a probe never
// disagrees with a search about which places are free (docs/DESIGN.md, "Probes").

#include "geom/alloc.h"
#include "geom/geom.h"
#include "index/clearance.h"
#include "index/grid.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/// A point found by a probe and its distance from the probed point (a raycast keeps the
/// parameter of an event along the ray in `distance`).
typedef struct an_probe_candidate {
  vec2 point;
  double distance;
} an_probe_candidate;

/// Working memory of the probes: the clearance checks' marks, marks of the items a probe has
/// looked at, and a fixed buffer of candidates. Sized once for a grid's items and owners; it
/// serves every grid with no more of either (the grids of one map's engines have the same).
typedef struct an_probe_scratch {
  an_clearance_scratch clearance;
  uint32_t *item_marks;
  uint32_t mark;
  an_probe_candidate *candidates; ///< candidate_capacity, then as many again to sort them
  size_t candidate_capacity;
  /// What item_marks holds, all cleared when the mark wraps. The scratch serves grids of up to
  /// the least of this and the clearance scratch's rooms (an_probe_scratch_fits()).
  size_t item_mark_room;
  /// Per grid cell, made on first use: the marks of an an_cell_filter, and the list of the
  /// cells it marked.
  uint32_t *cell_marks;
  uint64_t *marked_cells;
  size_t cell_capacity;
  uint32_t cell_stamp;
} an_probe_scratch;

/// The cells of a grid a probe keeps to: cell row * columns + column when marks[cell] == mark;
/// the `count` cells marked are cells[0 .. count - 1].
typedef struct an_cell_filter {
  uint32_t *marks;
  uint64_t *cells;
  uint32_t mark;
  size_t count;
} an_cell_filter;

/// Marks the cells of `grid` that box [lo, hi] overlaps.
void an_cell_filter_mark_box(an_cell_filter *filter, const an_grid *grid, vec2 lo, vec2 hi);

/// Marks in `filter` (an_cell_filter_mark_box()) cells of the probe's grid that hold every point
/// the probe's test accepts; false when it cannot bound them (nothing is filtered then).
/// `alloc` makes the filter's memory in the probe's scratch.
typedef struct an_cell_bound {
  bool (*mark)(void *context, an_cell_filter *filter);
  void *context;
  const an_allocator *alloc;
} an_cell_bound;

arcnav_status an_probe_scratch_init(an_probe_scratch *scratch, const an_grid *grid,
                                    const an_allocator *alloc);
void an_probe_scratch_free(an_probe_scratch *scratch, const an_allocator *alloc);
/// Can `scratch` serve probes on `grid`?
bool an_probe_scratch_fits(const an_probe_scratch *scratch, const an_grid *grid);
/// Makes `scratch`, made for another grid (one an update replaced by `grid`), serve probes on
/// `grid`: its tables by item and by owner grown, with room to spare, where `grid` has more; its
/// marks go on from where they were. On failure it is freed (nothing left to serve).
arcnav_status an_probe_scratch_renew(an_probe_scratch *scratch, const an_grid *grid,
                                     const an_allocator *alloc);

/// Distance from p to the blocked region (material, and outside the bounds when there are any)
/// and its nearest point: 0 and p itself inside it. False (nothing written) when the grid holds
/// nothing, so that nothing is blocked. Independent of the radius in `cl`.
bool an_probe_clearance(const an_clearance *cl, an_probe_scratch *scratch, vec2 p,
                        double *out_distance, vec2 *out_nearest);

/// Sweeps the agent's disk from `from` (free, checked by the caller) along the unit vector `unit`
/// for at most `max_distance` (may be INFINITY). True when it stops before: *out_distance is then
/// the largest t for which the disk stays free along [0, t], *out_normal the unit vector from the
/// contact on the obstacle towards the disk's centre. False when it reaches max_distance free.
bool an_probe_raycast(const an_clearance *cl, an_probe_scratch *scratch, vec2 from, vec2 unit,
                      double max_distance, double *out_distance, vec2 *out_normal);

/// Is the agent free along the `count` pieces of a path starting at `start` (every position)?
/// When not, *out_contact is the length along the path to the first position that is not free,
/// within a few tolerances.
bool an_probe_path_is_free(const an_clearance *cl, an_probe_scratch *scratch, vec2 start,
                           const arcnav_piece *pieces, size_t count, double *out_contact);

/// The nearest point to p where the agent is free (p itself when it is). False when no point is
/// free at all.
bool an_probe_nearest_free(const an_clearance *cl, an_probe_scratch *scratch, vec2 p,
                           vec2 *out_point);

/// What a caller's test says of a free point for an_probe_nearest_accepted().
typedef enum an_verdict {
  AN_ACCEPTED,
  AN_REJECTED,
  AN_ABORTED, ///< the test could not judge (a search reached its limit, memory ran out)
} an_verdict;

typedef an_verdict (*an_point_test)(void *context, vec2 point);

/// The nearest point to p where the agent is free and `accept` says yes: the free points are
/// judged in order of distance from p (p first, when free), so the first it accepts is the
/// nearest accepted one. That holds for a test whose accepted set is a union of connected parts
/// of the free set (reachability from a point): the nearest point of such a part lies on its
/// boundary, where the candidates are. AN_ACCEPTED with *out_point, AN_REJECTED when no free
/// point was accepted, AN_ABORTED as soon as the test aborts. With a `bound` (NULL: none), once
/// many candidates were tested the probe asks it for the cells the accepted points lie in, and
/// then looks only there.
an_verdict an_probe_nearest_accepted(const an_clearance *cl, an_probe_scratch *scratch, vec2 p,
                                     an_point_test accept, void *context,
                                     const an_cell_bound *bound, vec2 *out_point);
