// SPDX-License-Identifier: MIT
#pragma once

// Measures a mesh's landmarks (mesh/landmarks.h) with the interval search.

#include "arcnav/arcnav.h"
#include "mesh/navmesh.h"

#include <stdbool.h>

/// How many landmarks an engine measures: AN_LANDMARKS_FEW, and AN_LANDMARKS_MANY on a mesh of
/// AN_LANDMARKS_MANY_POINTS points or more, where the four more shorten the searches by more than
/// the build's four more measures are worth (DESIGN.md, "Landmarks"; below it, on the game maps,
/// they moved a query's work by 3% either way).
#define AN_LANDMARKS_FEW 4
#define AN_LANDMARKS_MANY 8
#define AN_LANDMARKS_MANY_POINTS 8192

static inline size_t an_landmarks_count_for(size_t points) {
  return points >= AN_LANDMARKS_MANY_POINTS ? AN_LANDMARKS_MANY : AN_LANDMARKS_FEW;
}
/// The expansions each landmark's measure may take, per free triangle (and 4096 more).
#define AN_LANDMARK_EXPANSIONS_PER_TRIANGLE 8
/// The engines measure landmarks only where paths from a place of the map are on average at least
/// this many times the straight line: on an open map the straight line bounds nearly as well, and
/// the measures would cost every build for little.
#define AN_LANDMARK_MIN_DETOUR 1.05
/// Nor on meshes of fewer points than this: their searches take microseconds, and on a living
/// map, which builds its disk planners again at every change, the measures cost more than they
/// spare (the RTS example's map of 110 vertices: a quarter of a millisecond a build).
#define AN_LANDMARK_MIN_POINTS 512

/// Replaces mesh->landmarks by `count` (at most AN_LANDMARKS_MAX) landmarks in the largest part
/// of the free mesh, each as far as it can be from those before it (the first as far as it can
/// be from a triangle of that part), measured by an_interval_distances(). A mesh with connectors
/// (eroded) or no free triangle gets none, and so does one whose measure would take more than
/// AN_LANDMARK_EXPANSIONS_PER_TRIANGLE expansions per triangle; so do, when `engine_rules`, a mesh
/// of fewer than AN_LANDMARK_MIN_POINTS points and one whose paths from the first place measured
/// are on average less than AN_LANDMARK_MIN_DETOUR times the straight line (tests measure
/// without these rules). On failure mesh->landmarks is left empty.
/// @return ARCNAV_OK or ARCNAV_ERR_OUT_OF_MEMORY.
arcnav_status an_landmarks_build(an_navmesh *mesh, size_t count, bool engine_rules);
