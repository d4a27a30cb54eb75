// SPDX-License-Identifier: MIT
#pragma once

// Measures a mesh's landmarks (mesh/landmarks.h) with the interval search.

#include "arcnav/arcnav.h"
#include "mesh/navmesh.h"

/// How many landmarks a planner measures (DESIGN.md, "Landmarks").
#define AN_LANDMARKS_DEFAULT 4
/// The expansions each landmark's measure may take, per free triangle (and 4096 more).
#define AN_LANDMARK_EXPANSIONS_PER_TRIANGLE 8

/// Replaces mesh->landmarks by `count` (at most AN_LANDMARKS_MAX) landmarks in the largest part
/// of the free mesh, each as far as it can be from those before it (the first as far as it can
/// be from a triangle of that part), measured by an_interval_distances(). A mesh with connectors
/// (eroded) or no free triangle gets none, and so does one whose measure would take more than
/// AN_LANDMARK_EXPANSIONS_PER_TRIANGLE expansions per triangle. On failure mesh->landmarks is
/// left empty.
/// @return ARCNAV_OK or ARCNAV_ERR_OUT_OF_MEMORY.
arcnav_status an_landmarks_build(an_navmesh *mesh, size_t count);
