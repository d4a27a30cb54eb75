// SPDX-License-Identifier: MIT
#pragma once

// Every tolerance, slack, margin and size cap of the library, named once with its reason.
//
// Policy (docs/DESIGN.md, "Tolerance policy"): one length tolerance per map,
// eps = AN_MAP_TOLERANCE_RELATIVE * S, S the largest of 1, the map's width and height and its
// largest absolute coordinate (an_map_tolerance). Lengths are slackened by multiples of eps (the
// *_TOLERANCES constants below); eps itself, unscaled, is the free test's slack (free means
// distance >= R - eps), the distance within which a point agent's contacts touch (clearance.c),
// the reach of point location (navmesh_locate.c, the funnel's ends) and the slack of a point just
// inside a circle that still gets its tangent (an_directed_tangent callers). Everything a check
// could count as touching must be found, and culling errs towards offering more to the exact tests,
// never towards hiding a usable tangent.
//
// The values are part of the determinism hash (tests/test_determinism.c): change one only on
// purpose. The numbers are written with the type their users had (2048 for an integer count,
// 4096.0 for a double), so the expressions that use them are unchanged.

// ---- the map tolerance ---------------------------------------------------------------------

/// eps = this * S: far above the rounding of coordinates of size S (2^-52 S), far below any length
/// a map means.
#define AN_MAP_TOLERANCE_RELATIVE 1e-9

/// Largest accepted coordinate magnitude, so squares of coordinate differences stay finite.
#define AN_MAX_COORDINATE 1e100

// ---- lengths, as multiples of eps ----------------------------------------------------------

/// A radius R <= 2 eps is a point agent (crossing-based checks and the touching rule); the funnel
/// engines erode only a radius above it, one that grows something measurable (free_space.c,
/// funnel_engine.c).
#define AN_POINT_AGENT_TOLERANCES 2.0

/// Grid items are filed this far beyond R, so anything a check counts as touching (within R - eps
/// and then some rounding) lies in the cells the check visits (free_space.c).
#define AN_FILING_MARGIN_TOLERANCES 4.0

/// A sight mesh's flood crosses edges this far beyond the reach it files corners by: the edges on
/// the way to a triangle the disk meets are nearer than it, so rounding in their tests cannot keep
/// the flood from it (sight_mesh.c, crossing_reach).
#define AN_FLOOD_CROSSING_TOLERANCES 1.0

/// Only an edge longer than this counts as grazing an arc from outside; a shorter one is judged by
/// its vertices (clearance.c).
#define AN_GRAZE_MIN_TOLERANCES 2.0

/// How deep inside a free triangle of the polygons' triangulation a point must lie for the free
/// test to take it as outside every polygon without the parity walk: beyond the 2 eps within
/// which snapping may have moved, or collapsed, an obstacle (navmesh_locate.c).
#define AN_LOCATE_INSIDE_TOLERANCES 4.0
/// A disk's search bounds what is left by the landmarks (mesh/landmarks.h) only above this many
/// tolerances: its goal then lies farther than the snapping from every obstacle, so the triangle
/// located for it is on its side of any pinch.
#define AN_LANDMARK_MIN_RADIUS_TOLERANCES 8.0

/// A measured length (an_interval_begin_measure()) is a sum of distances, one per turn of a path,
/// each rounded within 2^-53 relative: 1e-10 relative covers the rounding of a path of 100,000
/// turns ten times over.
#define AN_MEASURE_ROUNDING 1e-10

/// A grown stretch must lie this deep inside a swept piece to be dropped: far above the rounding of
/// the grown vertices, so the boundary of the grown region always keeps its pieces (erode.c).
#define AN_TRIM_MARGIN_TOLERANCES 16.0

/// How far an obstacle a planner follows without a build (docs/DESIGN.md, "A living map") keeps
/// from everything else, between boxes: nothing it could touch, cover or narrow to a pinch.
#define AN_LOCAL_CHANGE_CLEARANCE_TOLERANCES 16.0

/// Fixed part of the slack on tangent lengths (an_sight_margin): a direction bin proves a tangent
/// blocked, or a walk stops, only this much (plus AN_SIGHT_MARGIN_RELATIVE) beyond the length.
#define AN_SIGHT_MARGIN_TOLERANCES 4.0

/// Fixed part of the rounding slack taken off a cell's distance-sum bound (tangent_search.c).
#define AN_CELL_BOUND_TOLERANCES 4.0

// ---- angular slacks (radians, or pseudo-angle units where said) ----------------------------

/// Touching points computed on an offset edge lie on a corner's wedge boundary up to rounding:
/// taut tests, offsets at a wedge's start, arc sweeps (inflate.h, tangent_graph.h/c).
#define AN_WEDGE_SLACK 1e-9

/// The largest turn a path may take where the tangent from an end within the tolerance of an
/// offset line meets a corner's arc (an_end_tangent_is_taut, tangent_graph.h): far below any real
/// angle between pieces.
#define AN_END_TURN_MAX 5e-7

/// Comparing the direction of a segment between input points with an edge direction, and the width
/// of a free gap at a point agent's contact (a gap of pi + slack leaves no corner): above atan2's
/// rounding on exactly collinear input, below any real angle between pieces (clearance.c).
#define AN_DIRECTION_SLACK 1e-9

/// Is a computed intersection point inside an arc's range: points near tangency carry larger error
/// than the kernel's lengths, hence looser than AN_GEOM_RELATIVE (geom.c).
#define AN_ARC_RANGE_SLACK 1e-9

/// Pseudo-angle slack of direction bins: occluder spans shrink by it and pair screens widen by it,
/// so a direction binned across a span boundary by rounding stays inside (visibility.c).
#define AN_SPAN_SLACK 1e-9

/// Added to the sine of a departure arc's spread, padding the arc by at least 1e-6 rad beyond its
/// exact spread: far above the wedge's rounding, and offering more is always safe (sight_mesh.c).
#define AN_DEPARTURE_PAD_SINE 1e-6

// ---- relative slacks, and a floor ----------------------------------------------------------

/// Incidence and touching inside the geometry kernel (segment-circle, circle-circle, common
/// tangents): only the rounding of a few operations, times 1 + |scale| (geom.c).
#define AN_GEOM_RELATIVE 1e-12

/// Length-proportional part of the slack on tangent lengths (an_sight_margin, visibility.h).
#define AN_SIGHT_MARGIN_RELATIVE 1e-9

/// Proportional part of the rounding slack taken off a cell's distance-sum bound
/// (tangent_search.c).
#define AN_CELL_BOUND_RELATIVE 1e-12

/// The cross-product screen of whether a tangent from the start can touch inside a wedge is
/// widened by this times the distance to the corner: a cheap screen, generous (tangent_search.c).
#define AN_TAUT_SCREEN_RELATIVE 1e-6

/// The validation sweep notices edges this close, relative to the largest coordinate, which the
/// rounded pair test might see touching (ring_check.c).
#define AN_SWEEP_NEAR_RELATIVE 1e-12

/// A ring thinner than this relative width counts as collinear (ring_check.c).
#define AN_ZERO_AREA_RELATIVE 1e-14

/// A point must lie this deep inside an earlier obstacle, relative to its coordinates and the
/// size of what it stands for, for a triangle or constraint piece to count as covered
/// (navmesh_union.c).
#define AN_DEEP_INSIDE_RELATIVE 1e-12

/// TA* dominance: an apex reached longer than the best by more than this factor is dominated
/// (funnel.c).
#define AN_DOMINANCE_RELATIVE 1e-12

/// A line continuing the previous one straight on, up to this relative cross product, is merged
/// into it (path.c).
#define AN_STRAIGHT_ON_RELATIVE 1e-12

/// Floor of a box's width and height when sizing a grid over it, so a flat box still has cells of
/// positive size (grid.c, ring_winding.c).
#define AN_EXTENT_FLOOR 1e-300

// ---- size caps -----------------------------------------------------------------------------

/// Cells per axis of the planner's item grid: the table stays small even for very sparse or huge
/// maps (grid.c).
#define AN_GRID_MAX_CELLS_PER_AXIS 2048

/// Cells per axis of a ring's winding index (about one edge per cell on a compact ring)
/// (ring_winding.c).
#define AN_RING_GRID_MAX_SIDE 2048.0

/// Cells per axis of the obstacle index used while building the navmesh (obstacle_index.c).
#define AN_OBSTACLE_GRID_MAX_SIDE 1024.0

/// Cells per axis of the navmesh's point-location grid (about two triangles per cell)
/// (navmesh_locate.c).
#define AN_LOCATE_GRID_MAX_SIDE 4096.0

/// A grown segment compares itself with at most this many pieces; past that it keeps what it has
/// not yet found covered (keeping is always safe), so a radius as large as the map costs a bounded
/// amount per segment (erode.c).
#define AN_TRIM_MAX_PIECES 4096

/// Most sample steps arcnav_path_sample accepts before answering ARCNAV_ERR_TOO_LARGE (path.c).
#define AN_PATH_MAX_SAMPLES 1e9
