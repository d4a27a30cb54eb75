// SPDX-License-Identifier: MIT
#pragma once

// Inflation: the circles a path may wrap around. Every polygon corner that is convex as seen from
// the free side gets a circle of radius R centred on the vertex, usable only inside its wedge
// (between the free-side normals of its two edges); every circle obstacle of radius c becomes a
// full circle of radius c + R. Offset edges need no storage: free checks measure distance to the
// raw edges, which is the same test.

#include "geom/alloc.h"
#include "geom/geom.h"
#include "geom/tolerances.h"
#include "map/map.h"

#include <stdint.h>

/// The pinches a full circle holds in the corner itself (an_corner.pinch_angle). A circle touched
/// at more places keeps all of its pinches in its engine's table instead (an_corner.pinch_slice).
#define AN_CORNER_PINCHES 4
/// The pinch_count of a circle whose pinches lie in its engine's table of pinch angles.
#define AN_PINCHES_IN_TABLE UINT8_MAX

/// Where a circle's pinch angles lie in its engine's table: `count` of them from `first`.
typedef struct an_pinch_slice {
  uint32_t first, count;
} an_pinch_slice;

typedef struct an_corner {
  vec2 center;
  double radius;      ///< R at polygon corners, c + R around circle obstacles
  double wedge_start; ///< angle of the first free-side normal, in [0, 2pi)
  double wedge_sweep; ///< counter-clockwise extent of the wedge; 2pi for a full circle
  union {
    struct {
      vec2 normal_start; ///< unit vector at wedge_start
      vec2 normal_end;   ///< unit vector at wedge_start + wedge_sweep
    };
    /// A full circle for a point agent: the angles, from its centre, of the points where other
    /// material touches it (pinches), pinch_count of them. Obstacles that touch are one wall, so
    /// no path touches the circle there (docs/DESIGN.md, "The touching rule"). Angles rather than
    /// unit vectors, so that the union holds four.
    double pinch_angle[AN_CORNER_PINCHES];
    /// With pinch_count AN_PINCHES_IN_TABLE: where the angles lie in the engine's table.
    an_pinch_slice pinch_slice;
  };
  int32_t obstacle;    ///< owning obstacle, -1 for the bounds
  uint8_t pinch_count; ///< full circles only: up to AN_CORNER_PINCHES, or AN_PINCHES_IN_TABLE
} an_corner;

/// How an engine built after a local change numbers the corners of the engine it replaces: the
/// carried ones first, in their old order, then the changed obstacle's new ones.
typedef struct an_carried_corners {
  int32_t *from;         ///< per corner now: its index among the previous corners, or -1 (new)
  int32_t *to;           ///< per previous corner: its index now, or -1 (gone)
  size_t previous_count; ///< the previous engine's corners
  size_t carried;        ///< how many were carried: corners 0 .. carried - 1 now
  /// The first previous corner with another number now (previous_count: none).
  size_t first_changed;
} an_carried_corners;

/// Does every previous corner keep its number (an addition: none was dropped)? Tables by corner
/// number can then be copied as they are.
static inline bool an_carried_same_numbers(const an_carried_corners *carried) {
  return carried->carried == carried->previous_count;
}

/// Does the change take away or renumber few corners: some, and at most 256 from the first that
/// it does (*first_changed) on? Every corner before that one keeps its number. After a unit's
/// move or removal only the corners from it on change, few when the unit was among the last
/// changed (each change puts its obstacle's corners last); tables by corner number then change
/// only in the cells those were filed in, which are marked (an_cell_buckets_put_carried()).
/// Beyond that many, marking costs more than renumbering every entry saves.
bool an_carried_few_changed(const an_carried_corners *carried, size_t *first_changed);

/// Collect the corner circles of `map` for agent radius `radius`. *out_corners is allocated with
/// `alloc` (NULL when there are none).
arcnav_status an_inflate_corners(const arcnav_map *map, double radius, const an_allocator *alloc,
                                 an_corner **out_corners, size_t *out_count);

/// How many corners an_inflate_obstacle_corners() may write for obstacle `index` of `map`.
size_t an_obstacle_corner_room(const arcnav_map *map, size_t index);

/// The corner circles of obstacle `index` of `map`, written to `out` (room for
/// an_obstacle_corner_room() of them); returns how many.
size_t an_inflate_obstacle_corners(const arcnav_map *map, size_t index, double radius,
                                   an_corner *out);

/// Radius of the material a corner's circle wraps, `radius` (R) inside it: a circle obstacle's own
/// radius, 0 at a polygon vertex. Tangents leave the material's rim and stay R from it.
static inline double an_corner_material_radius(const an_corner *corner, double radius) {
  return corner->wedge_sweep >= AN_TWO_PI ? an_max(0.0, corner->radius - radius) : 0.0;
}

/// Offset of `angle` from the corner's wedge start, in [0, 2pi). An angle just outside a polygon
/// corner's wedge (a rounding error, or a point end's slack, an_end_wedge_slack()) counts as the
/// nearer end of the wedge, so offsets of touching points sort monotonically along it.
static inline double an_corner_offset(const an_corner *corner, double angle) {
  double offset = an_wrap_angle(angle - corner->wedge_start);
  if (offset <= corner->wedge_sweep + AN_WEDGE_SLACK) {
    return offset;
  }
  return AN_TWO_PI - offset < offset - corner->wedge_sweep ? 0.0 : corner->wedge_sweep;
}

/// The pinch angles of a full circle (`*count` of them): in the corner, or in `pinch_table`, the
/// table of its engine's corners.
static inline const double *an_corner_pinches(const an_corner *corner, const double *pinch_table,
                                              size_t *count) {
  if (corner->pinch_count == AN_PINCHES_IN_TABLE) {
    *count = corner->pinch_slice.count;
    return pinch_table + corner->pinch_slice.first;
  }
  *count = corner->pinch_count;
  return corner->pinch_angle;
}

/// Does one of the `count` pinch angles lie within `slack` radians of `angle`, either way round?
static inline bool an_pinch_near(const double *pinches, size_t count, double angle, double slack) {
  for (size_t k = 0; k < count; ++k) {
    double off = an_wrap_angle(angle - pinches[k]);
    if (off <= slack || off >= AN_TWO_PI - slack) {
      return true;
    }
  }
  return false;
}

/// Does the wedge contain the unit direction `normal` (with about `slack` radians of tolerance at
/// both sides)? Wedges of polygon corners are narrower than pi, so two cross products decide it; a
/// full circle contains every direction but its pinches (`pinch_table`: its engine's table of
/// pinch angles, for a circle touched at more than AN_CORNER_PINCHES places).
static inline bool an_corner_wedge_contains(const an_corner *corner, vec2 normal, double slack,
                                            const double *pinch_table) {
  if (corner->wedge_sweep >= AN_TWO_PI) {
    size_t count;
    const double *pinches = an_corner_pinches(corner, pinch_table, &count);
    return count == 0 || !an_pinch_near(pinches, count, v2_angle(normal), slack);
  }
  return v2_cross(corner->normal_start, normal) >= -slack &&
         v2_cross(normal, corner->normal_end) >= -slack;
}
