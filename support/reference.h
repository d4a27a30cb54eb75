// SPDX-License-Identifier: MIT
#pragma once

// Brute-force reference for shortest-path lengths, independent of the library.
//
// Construction, for a map and an agent radius R:
//  - around every polygon vertex (outer rings, holes, bounds) N points on the circle of radius
//    rho' = R / cos(pi / N), at angles 2 pi k / N; around every circle obstacle of radius c, N
//    points at radius (c + R) / cos(pi / N). At R = 0 a vertex contributes itself, and a circle of
//    radius 0 its centre. The radius is the circumscribed one on purpose: the chord between two
//    neighbouring samples then touches the true circle of radius R (or c + R) instead of cutting
//    into it, so every polyline the reference builds is a genuinely free path. An R no larger
//    than tol (below) is treated as 0 throughout, samples included;
//  - along every edge offset by R toward its free side, points every `edge_spacing` (always
//    including both ends);
//  - the query's start and goal.
// Samples whose distance to the obstacles is below R - tol are dropped (tol = 1e-12 * the map's
// scale, far below the library's eps). Two samples are joined when the straight segment between
// them is free: for R > tol by the exact distance from the segment to every edge and circle
// (>= R - tol); otherwise by splitting the segment where it meets any edge or circle or passes
// within tol of a vertex, and rejecting it when the middle of a part lies inside an obstacle
// (deeper than tol). Visibility is evaluated lazily inside an A*
// search (straight-line heuristic) and cached per pair, so a reference object is reused across
// queries.
//
// Tolerance model:
//  - Lower bound. The reported path is a polyline whose every point keeps distance >= R - tol
//    from the obstacles, i.e. a free path for the library too. Hence the true optimum L* satisfies
//    L* <= length + tol-level rounding, and an exact planner must return a length no greater than
//    the reference's (up to floating-point noise), and must find a path whenever the reference
//    does.
//  - Upper bound (the chord error). The samples' N-gons lie inside the disks of radius
//    rho' = rho / cos(pi / N), and the reference finds the shortest path avoiding them (its bends
//    are N-gon vertices, all of which are samples when free). Growing a wrapped circle from rho
//    to rho' lengthens a taut path by the integral of its wrap angle over the radius, and each
//    end's tangent angle moves by at most acos(rho / rho') = D / 2 (D = 2 pi / N), so a wrap of
//    sweep theta costs at most
//        e(rho, theta) = (theta + D) * rho * (1 / cos(D / 2) - 1)
//    (second order in D: about 0.5% of rho per radian for N = 32), and a straight piece passing a
//    vertex or circle closer than rho' without wrapping it at most e(rho, 0).
//    sup_reference_excess_estimate() adds these up for a given path. It is an estimate, not a
//    proof: it assumes the pushed-out path meets nothing else, so where another obstacle is
//    within rho' - rho of the path the detour can be longer, and passages wider than 2R but
//    narrower than 2 rho' (or exactly 2R wide and not crossed in a straight line) close, so the
//    reference can miss a path or find a much longer one. Raising N shrinks that window.
//    At R = 0 the polygon part is exact (the samples are the vertices themselves).

#include "arcnav/arcnav.h"
#include "mapgen.h"

#include <stdbool.h>
#include <stddef.h>

typedef struct sup_reference_options {
  int circle_samples;  ///< N, samples per full circle (>= 8); default 32
  double edge_spacing; ///< spacing along offset edges; <= 0 means only the edge ends; default
                       ///< extent / 16
} sup_reference_options;

/// Defaults for `map` (the edge spacing depends on its extent).
sup_reference_options sup_reference_default_options(const sup_map *map);

typedef struct sup_reference sup_reference;

/// Build the sample set for (map, R). `options` [opt]: NULL means the defaults. The map must
/// outlive the reference. Aborts on allocation failure (test-only code).
sup_reference *sup_reference_create(const sup_map *map, double R,
                                    const sup_reference_options *options);
void sup_reference_destroy(sup_reference *ref);

/// Number of free boundary samples (without start and goal).
size_t sup_reference_sample_count(const sup_reference *ref);

typedef struct sup_reference_result {
  bool start_free;      ///< start keeps distance >= R - tol
  bool goal_free;       ///< goal keeps distance >= R - tol
  bool found;           ///< a free polyline joins them
  double length;        ///< its length (INFINITY when not found)
  size_t vertex_count;  ///< polyline vertices, start and goal included (0 when not found)
  size_t pairs_checked; ///< segment checks evaluated by this query (cache misses)
} sup_reference_result;

/// Shortest polyline through the samples from start to goal. Not thread-safe: it fills the
/// reference's visibility cache.
sup_reference_result sup_reference_query(sup_reference *ref, arcnav_vec2 start, arcnav_vec2 goal);

/// Many goals from one start: every sample a path from `start` reaches, kept in the reference
/// for sup_reference_reaches(). Not thread-safe.
void sup_reference_flood(sup_reference *ref, arcnav_vec2 start);
/// Whether sup_reference_query() from the last flood's start to `goal` finds a path (the same
/// graph, searched once for every goal): false before any flood.
bool sup_reference_reaches(sup_reference *ref, arcnav_vec2 goal);

/// One-shot convenience: create, query, destroy.
sup_reference_result sup_reference_shortest(const sup_map *map, double R, arcnav_vec2 start,
                                            arcnav_vec2 goal, const sup_reference_options *options);

/// e(rho, theta) from the tolerance model above, for this reference's N.
double sup_reference_wrap_excess(const sup_reference *ref, double rho, double theta);

/// Estimated upper bound on (reference length - length of the given path) when the path is
/// optimal: e(rho, sweep) for every arc piece, plus e(rho, 0) for every vertex or circle that a
/// line piece passes closer than its circumscribed radius rho' (see the tolerance model).
double sup_reference_excess_estimate(const sup_reference *ref, const arcnav_piece *pieces,
                                     size_t count);
