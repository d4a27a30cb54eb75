// SPDX-License-Identifier: MIT
#pragma once

// The path object behind arcnav_path: pieces in caller-owned, reusable storage, plus the
// measurements along it (length, sampling, point at a distance).

#include "geom/alloc.h"
#include "geom/geom.h"

struct arcnav_path {
  an_allocator alloc;
  arcnav_piece *pieces;
  size_t count, capacity;
  double length;
  vec2 start, end;
};

/// Empty the path and set its endpoints (a found path starts at `start` and ends at `end`).
void an_path_reset(arcnav_path *path, vec2 start, vec2 end);
/// Append a line piece; zero-length lines are skipped. Fails only when growing fails.
arcnav_status an_path_add_line(arcnav_path *path, vec2 from, vec2 to);
/// Append an arc of `sweep` radians; arcs of zero length are skipped.
arcnav_status an_path_add_arc(arcnav_path *path, vec2 center, double radius, vec2 from, vec2 to,
                              double sweep, bool ccw);
