// SPDX-License-Identifier: MIT
#pragma once

// The tangent engine's search over its prebuilt graph: A* from start attachments (tangents from
// the start to corners, attached lazily in order of a bound) to the goal, whose tangents are
// computed once per (corner, direction) group.

#include "tangent/tangent_state.h"

/// Fills `path` (reset by the caller). Start and goal are finite, free and distinct.
arcnav_status an_tangent_graph_find_path(an_tangent_query *query, vec2 start, vec2 goal,
                                         arcnav_path *path);
