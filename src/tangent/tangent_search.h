// SPDX-License-Identifier: MIT
#pragma once

// The tangent engine's search over its prebuilt graph: A* from start attachments (tangents from
// the start to corners, attached lazily in order of a bound) to the goal, whose tangents are
// computed once per (corner, direction) group.

#include "tangent/tangent_state.h"

/// Sets up a search from `start` to `goal` (finite, free and distinct): ARCNAV_IN_PROGRESS, or
/// ARCNAV_OK with `path` (reset by the caller) filled when the segment between them is free.
arcnav_status an_tangent_graph_begin(an_tangent_query *query, vec2 start, vec2 goal,
                                     arcnav_path *path);

/// Runs the search set up for a slice (engine.h, `resume`); fills `path` on ARCNAV_OK.
arcnav_status an_tangent_graph_resume(an_tangent_query *query, arcnav_path *path);

/// The path to the expanded node nearest the goal (engine.h, `best_so_far`).
arcnav_status an_tangent_graph_best_so_far(an_tangent_query *query, arcnav_path *path);

/// After a search that found no path: rules out the corners it closed a node on whose whole
/// wedge arc is free (engine.h, `rule_out`).
void an_tangent_graph_rule_out(an_tangent_query *query, uint32_t mark);
