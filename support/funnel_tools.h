// SPDX-License-Identifier: MIT
#pragma once

// Funnel helpers for the tests, beside the library's funnel.h (which they need the library's
// internal headers for).

#include "funnel/funnel.h"

/// The funnel over explicit portals: the shortest path from start to goal through the portal
/// segments (left[i], right[i]) in order, "left" and "right" as seen by the traveller. Writes at
/// most portal_count + 2 points to out_points and returns how many; consecutive equal points are
/// merged, except that start == goal with no portals gives 2 equal points.
size_t sup_string_pull(vec2 start, const vec2 *left, const vec2 *right, size_t portal_count,
                       vec2 goal, vec2 *out_points);

/// an_funnel_find_path_within() without an expansion limit.
arcnav_status sup_funnel_find_path(const an_navmesh *mesh, an_funnel_scratch *scratch, vec2 start,
                                   vec2 goal, bool optimal, an_funnel_result *out);
