// SPDX-License-Identifier: MIT
#pragma once

// Visibility culling: which corner circles can a tangent from a viewpoint reach at all?
//
// A viewpoint is a polygon vertex, a circle obstacle's centre, or a query's start or goal. Its
// tangents leave a circle of radius rp around it (rp = 0 for points and polygon vertices, the
// obstacle's own radius for circle obstacles) plus the agent radius R. Shift a tangent segment s
// by R towards the viewpoint and it becomes a segment s'' of the same length and direction that
// starts on the circle of radius rp and stays exactly R from s. If s'' passes through the interior
// of the material, s comes closer than R to an obstacle and is blocked. So a viewpoint records,
// per direction bin and per side (the two ways s'' can be offset from the viewpoint), the
// distance beyond which a ray in that bin has certainly entered material: it crossed an edge from
// its free side, or entered a circle obstacle. A tangent longer than that in its bin needs no
// free check.
//
// The corners worth trying are gathered by walking rings of grid cells outwards from the
// viewpoint; the walk stops once every direction that matters is closed nearer than the ring.
// Directions are binned by a pseudo-angle (monotonic in the true angle, no trigonometry).
//
// One caveat is numeric: a ray that crosses into an obstacle thinner than the map tolerance is
// treated as blocked, where a free check might call the tangent touching. Such slivers make no
// useful path.

#include "geom/alloc.h"
#include "geom/tolerances.h"
#include "index/cell_buckets.h"
#include "index/grid.h"
#include "tangent/inflate.h"

#include <stdint.h>

#define AN_SIGHT_BINS 128
#define AN_SIGHT_WORDS (AN_SIGHT_BINS / 64)

/// Corners filed by grid cell, over the same cells as the obstacle grid. A corner is filed in every
/// cell that the box of its circle overlaps, so every point a tangent may touch it at lies in a
/// cell it is filed in (a query at a smaller radius touches a smaller circle with the same
/// centre), and a tangent to it from a viewpoint k rings away is at least k cells less the two
/// circles' radii long (docs/DESIGN.md, "Visibility culling by shifted tangents (grid)").
typedef struct an_corner_grid {
  an_cell_table cells; ///< per cell of the obstacle grid, the corners filed there
} an_corner_grid;

arcnav_status an_corner_grid_build(const an_grid *grid, const an_corner *corners, size_t count,
                                   const an_allocator *alloc, an_corner_grid *out);
/// The corner grid of `previous` (over the same cells as `grid`, for `previous_corners`, made at
/// the same radius as `corners`) after a change: the corners carried over (`carried`)
/// keep their cells under their new numbers, and the others are filed by their box. Each cell lists
/// its corners as an_corner_grid_build() would.
arcnav_status an_corner_grid_carry(const an_grid *grid, const an_corner *corners, size_t count,
                                   const an_corner_grid *previous,
                                   const an_corner *previous_corners,
                                   const an_carried_corners *carried, const an_allocator *alloc,
                                   an_corner_grid *out);
void an_corner_grid_destroy(an_corner_grid *cgrid, const an_allocator *alloc);
size_t an_corner_grid_memory_bytes(const an_corner_grid *cgrid);

/// What one viewpoint sees: per side and direction bin, the distance after which a ray has entered
/// material. Side 0 holds tangents that leave turning counter-clockwise, side 1 clockwise.
typedef struct an_sight {
  vec2 origin;
  double lane_offset; ///< rp: the radius the tangents leave from, before adding R
  double eps;         ///< the map tolerance, for length margins
  bool culls;         ///< false when the viewpoint lies outside the grid: nothing is culled
  double reach[2][AN_SIGHT_BINS];
} an_sight;

/// Per-thread work space for gathering.
typedef struct an_sight_scratch {
  uint32_t *item_stamps;
  uint32_t *corner_stamps;
  uint32_t stamp;
  uint32_t *candidates; ///< corners met by the last gather, each once
  uint32_t candidate_count;
  bool limited;      ///< the last gather left out cells beyond its limit
  uint64_t occluded; ///< items occluding so far, over every gather: tells a ring that closed none
  /// Per owner: nonzero for units the running query ignores (an_clearance.ignored), which then
  /// hide nothing; NULL for none.
  const uint8_t *ignored;
  an_sight sight;
  size_t item_room, corner_room; ///< what the per-item and per-corner arrays hold
} an_sight_scratch;

arcnav_status an_sight_scratch_init(an_sight_scratch *scratch, const an_grid *grid,
                                    size_t corner_count, const an_allocator *alloc);
void an_sight_scratch_free(an_sight_scratch *scratch, const an_allocator *alloc);
/// Makes `scratch`, made for another grid and corners (an engine an update replaced), the scratch
/// an_sight_scratch_init() would make for `grid` and `corner_count` corners, keeping its memory
/// where it has room. ARCNAV_ERR_OUT_OF_MEMORY leaves it a scratch only an_sight_scratch_free()
/// may take.
arcnav_status an_sight_scratch_renew(an_sight_scratch *scratch, const an_grid *grid,
                                     size_t corner_count, const an_allocator *alloc);

/// Which (side, bin) pairs matter to a viewpoint: a tangent from a polygon vertex only leaves
/// inside its departure cones; start, goal and circle obstacles leave in any direction.
typedef struct an_sight_mask {
  uint64_t bits[2][AN_SIGHT_WORDS];
} an_sight_mask;

an_sight_mask an_sight_mask_all(void);
an_sight_mask an_sight_mask_of_corner(const an_corner *corner);

/// Confines a gather to what a search can still use. The grid (an_sight_gather) keeps the cells
/// whose distances to the viewpoint and to `goal` sum to at most `bound`; the sight mesh bounds
/// a tangent's length plus the way from its touching point to `goal` (an_sight_mesh_gather).
typedef struct an_sight_limit {
  vec2 goal;
  double bound;
} an_sight_limit;

/// Walks rings of cells from `origin` until the directions in `mask` are closed, filling
/// scratch->sight and scratch->candidates. `radius` is R; `lane_offset` is rp. With a `limit`,
/// cells beyond it are left out, and the result is false when any cell that holds something was:
/// a target not met then lies on a circle whose every point x has |x - origin| + |x - goal| >
/// limit->bound. Without a limit the result is always true.
bool an_sight_gather(const an_grid *grid, const an_corner_grid *cgrid, size_t corner_count,
                     an_sight_scratch *scratch, vec2 origin, double lane_offset, double radius,
                     const an_sight_mask *mask, const an_sight_limit *limit, double eps);

/// Starts an empty list of candidates for another gatherer to fill with an_sight_offer(); the
/// directions bins cull nothing.
void an_sight_begin_offers(an_sight_scratch *scratch);

/// Adds a corner to the candidates, once per gather.
static inline void an_sight_offer(an_sight_scratch *scratch, uint32_t corner) {
  if (scratch->corner_stamps[corner] != scratch->stamp) {
    scratch->corner_stamps[corner] = scratch->stamp;
    scratch->candidates[scratch->candidate_count++] = corner;
  }
}

/// Offers every corner and culls nothing: for maps so small that gathering would cost more.
void an_sight_offer_all(an_sight_scratch *scratch, size_t corner_count);

/// Pseudo-angle of a non-zero vector in [0, 4): monotonic in the angle, cheap to compute.
static inline double an_pseudo_angle(vec2 d) {
  if (d.y >= 0.0) {
    return d.x >= 0.0 ? d.y / (d.x + d.y) : 1.0 + (-d.x) / (-d.x + d.y);
  }
  return d.x < 0.0 ? 2.0 + (-d.y) / (-d.x - d.y) : 3.0 + d.x / (d.x - d.y);
}

static inline int an_sight_bin(vec2 direction) {
  int bin = (int)(an_pseudo_angle(direction) * (AN_SIGHT_BINS / 4.0));
  return bin < 0 ? 0 : (bin >= AN_SIGHT_BINS ? AN_SIGHT_BINS - 1 : bin);
}

/// Can any tangent between the viewpoint's circle and a circle whose centre is `offset` away with
/// radius sum `radius_sum` (both circles including R) be taut at the viewpoint and unblocked? A
/// cheap screen before the tangents are computed: they all lie within asin(radius_sum / |offset|)
/// of the centre line and are at least |offset| - radius_sum long.
bool an_sight_pair_may_pass(const an_sight *sight, const an_sight_mask *mask, vec2 offset,
                            double radius_sum);

/// Slack on tangent lengths, shared by the walk's stopping rule and by an_sight_blocks.
static inline double an_sight_margin(double length, double eps) {
  return AN_SIGHT_MARGIN_TOLERANCES * eps + AN_SIGHT_MARGIN_RELATIVE * fabs(length);
}

/// Is a tangent of `length` leaving the viewpoint along `direction`, turning `ccw`, certainly
/// blocked?
static inline bool an_sight_blocks(const an_sight *sight, vec2 direction, bool ccw, double length) {
  return sight->culls && sight->reach[ccw ? 0 : 1][an_sight_bin(direction)] <
                             length - an_sight_margin(length, sight->eps);
}
