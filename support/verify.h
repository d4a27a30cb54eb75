// SPDX-License-Identifier: MIT
#pragma once

// Independent path verifier. Everything here is computed from a sup_map (the plain description a
// map was generated from) with this file's own geometry code; it never calls into the planner
// beyond reading the pieces of a path, so a planner bug cannot hide itself.

#include "arcnav/arcnav.h"
#include "mapgen.h"

#include <stdbool.h>
#include <stddef.h>

// --- plain geometry (shared by the support code) -------------------------------------------------

double sup_point_segment_distance(arcnav_vec2 p, arcnav_vec2 a, arcnav_vec2 b);
/// Distance between closed segments ab and cd; 0 when they share a point.
double sup_segment_segment_distance(arcnav_vec2 a, arcnav_vec2 b, arcnav_vec2 c, arcnav_vec2 d);
/// Do closed segments ab and cd share a point (crossing, touching, collinear overlap)?
bool sup_segments_intersect(arcnav_vec2 a, arcnav_vec2 b, arcnav_vec2 c, arcnav_vec2 d);
/// Crossing-number test; the answer for points on the ring itself is unspecified.
bool sup_point_in_ring(const sup_ring *ring, arcnav_vec2 p);
/// Signed area of a ring (> 0 counter-clockwise).
double sup_ring_signed_area(const sup_ring *ring);

// --- distance to the blocked region --------------------------------------------------------------

/// Distance from p to the blocked region: 0 inside a polygon's material (inside its outer ring and
/// not inside one of its holes), inside a circle, or outside the bounds; otherwise the smallest
/// distance to any polygon edge, circle, or bounds edge.
double sup_distance_to_obstacles(const sup_map *map, arcnav_vec2 p);

/// Like sup_distance_to_obstacles() outside the blocked region, but negative inside it: minus the
/// depth (the largest distance to the boundary of an obstacle containing p, or to the bounds when
/// p is outside them). Needed for R = 0, where "distance >= R - eps" must still reject points deep
/// inside an obstacle.
double sup_signed_distance_to_obstacles(const sup_map *map, arcnav_vec2 p);

/// The polygons of a map ordered for many distances measured in one box: a polygon whose box is
/// farther from it than the nearest boundary a point has met is left out, which changes no
/// distance. The map must outlive the screen and stay as it was. NULL when out of memory.
typedef struct sup_obstacle_screen sup_obstacle_screen;
sup_obstacle_screen *sup_obstacle_screen_create(const sup_map *map);
void sup_obstacle_screen_destroy(sup_obstacle_screen *screen);
/// Aims the screen at the box [lo, hi], where the next points lie.
void sup_obstacle_screen_aim(sup_obstacle_screen *screen, arcnav_vec2 lo, arcnav_vec2 hi);
/// sup_signed_distance_to_obstacles() of the screen's map through the screen; a point outside
/// the box aimed at is measured against every polygon.
double sup_screened_signed_distance(const sup_obstacle_screen *screen, arcnav_vec2 p);

// --- path verification ---------------------------------------------------------------------------

typedef struct sup_verify_report {
  bool ok;                 ///< every check passed
  double min_distance;     ///< smallest signed distance to the obstacles found along the path
  double worst_clearance;  ///< min_distance - R (>= -eps when ok)
  arcnav_vec2 worst_point; ///< where min_distance was found
  size_t worst_piece;      ///< index of the piece holding worst_point
  double length_sum;       ///< sum of the pieces' geometric lengths
  size_t samples;          ///< number of distance evaluations along the path
  char message[256];       ///< first failure, empty when ok
} sup_verify_report;

/// Verify a path given as an array of pieces (so tests can feed hand-made paths):
///  1. the first piece starts at `start` and the last ends at `goal` (within eps); an empty path
///     is valid only when start and goal coincide (within eps);
///  2. consecutive pieces share endpoints (within eps) and, for R > 0, their tangent directions
///     agree within 1e-6 rad. Pieces not longer than eps have no meaningful direction and are
///     skipped, but the heading still turns across them: between the pieces either side of
///     skipped ones the signed turn must equal the skipped arcs' total signed sweep (L / radius
///     each, ccw positive) within 1e-6 rad plus the rounding of those sweeps (their ends are
///     rounded to the coordinates' precision, an angle of about 16 ulp(max(|centre|, radius)) /
///     radius each), so a turn between two lines with no arc between them is still a kink;
///  3. each piece's reported length matches its geometry (line: |to - from|; arc: radius * sweep,
///     both endpoints at `radius` from the centre, sweep in (0, 2 pi] and equal, modulo 2 pi, to
///     the angle from `from` to `to` turning as `ccw` says), and `total_length` (pass a negative
///     value to skip) equals the sum of the piece lengths;
///  4. dense samples along every piece (spacing min(R / 8, extent / 2000), at least 16 per piece
///     including both endpoints; arcs sampled by angle in the direction given by ccw) keep a signed
///     distance >= R - eps from the obstacles. Line pieces are in addition checked exactly: for
///     R > eps by the exact segment-to-edge and segment-to-circle distances, for smaller R by
///     rejecting proper crossings of an obstacle edge (crossing more than 4 eps from the edge's
///     ends, with the line's ends more than 4 eps either side);
///  5. for R <= 2 eps, the touching rule (touching.h): no line piece, and no turn between two
///     line pieces, passes between obstacles where they touch, and neither end is walled in.
/// Returns report->ok; the report is always filled.
bool sup_verify_pieces(const sup_map *map, double R, double eps, arcnav_vec2 start,
                       arcnav_vec2 goal, const arcnav_piece *pieces, size_t count,
                       double total_length, sup_verify_report *report);

/// Verify a path returned by the library: reads its pieces and length and calls sup_verify_pieces.
bool sup_verify_path(const sup_map *map, double R, double eps, arcnav_vec2 start, arcnav_vec2 goal,
                     const arcnav_path *path, sup_verify_report *report);
