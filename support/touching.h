// SPDX-License-Identifier: MIT
#pragma once

// The touching rule for a point agent (R = 0), checked independently of the library by probing
// the plain map description around points: obstacles that touch are one wall, so a path may touch
// and slide along boundaries but never passes between two pieces of material that meet, along an
// edge (a seam) or at a single point (a pinch); a point on a seam is walled in.
//
// A direction u "leads into material" at x when x + probe * u lies inside an obstacle by more
// than a thousandth of `probe` (sup_signed_distance_to_obstacles), and "leads into free space"
// when it lies that far outside. `probe` must be below the distance between features that do not
// touch and far above the rounding of the coordinates: sup_touch_probe_radius() gives half the
// map's tolerance (a gap of 3 eps is open, and rounding is about 1e-7 of eps). Directions are
// sampled every 2 pi / SUP_TOUCH_DIRECTIONS, so wedges of material narrower than a few of those
// steps may be missed; the test maps have none. sup_walled_in() also probes between the edges
// meeting at the point, so a free crack narrower than a step still frees it.

#include "arcnav/arcnav.h"
#include "mapgen.h"

#include <stdbool.h>
#include <stddef.h>

#define SUP_TOUCH_DIRECTIONS 720

/// Probe distance for `map`: half its tolerance (sup_map_tolerance()).
double sup_touch_probe_radius(const sup_map *map);

/// Does no direction around x lead into free space (x inside a seam, or deep in material)?
bool sup_walled_in(const sup_map *map, arcnav_vec2 x, double probe);

/// A run of directions around a point that lead into free space, counter-clockwise from `from`
/// (radians) over `sweep`, widened on either side so that it holds the directions along the
/// boundaries that close it: by their rounding where boundaries meet the point (the sectors are
/// then the runs of free wedges between them, each judged from the boundaries themselves), else
/// by one sampling step.
typedef struct sup_sector {
  double from, sweep;
} sup_sector;

/// The free sectors around x (at most `max` written); returns how many there are. A point with
/// free space all round has one sector of sweep 2 pi.
size_t sup_free_sectors(const sup_map *map, arcnav_vec2 x, double probe, sup_sector *out,
                        size_t max);

/// Does direction `dir` (non-zero) lie in `sector`?
bool sup_sector_holds(const sup_sector *sector, arcnav_vec2 dir);

/// Does material touch a path through x from both sides? The path comes from direction `back`
/// (pointing from x to where it came from) and leaves along `ahead`; the two open sectors between
/// them, less a few sampling steps next to each, are probed.
bool sup_passes_between(const sup_map *map, arcnav_vec2 x, arcnav_vec2 back, arcnav_vec2 ahead,
                        double probe);

/// Does segment pq pass between touching material somewhere strictly inside it (farther than
/// `tol` from both ends)? Probed where it touches a polygon vertex, a circle or the bounds within
/// `tol`, and in the middle of every stretch where it runs along an edge within `tol`.
bool sup_segment_passes_between(const sup_map *map, arcnav_vec2 p, arcnav_vec2 q, double tol,
                                double probe);
