// SPDX-License-Identifier: MIT
#pragma once

// SVG drawing of a map: obstacles, bounds, the boundary inflated by the agent radius drawn with
// true arcs, and paths drawn with SVG arc commands.

#include "diag.h"
#include "loaded_map.h"

#include <arcnav/arcnav.h>
#include <stdbool.h>
#include <stddef.h>

typedef struct an_cli_svg_query {
  arcnav_vec2 from, to;
  arcnav_status status;
  const arcnav_path *path; ///< [opt] drawn when status is ARCNAV_OK
} an_cli_svg_query;

/// Write `file`. `radius` > 0 draws the inflated boundary and the agent's disk at start and goal.
/// `title` [opt] becomes the SVG title and a caption.
/// `mesh` [opt]: a funnel planner whose navmesh triangles are drawn under everything else.
/// `y_down`: screen coordinates, the y axis pointing down the picture (no flip); otherwise y is
/// flipped so that it points up.
bool an_cli_svg_write(const char *file, const an_cli_map *map, double radius,
                      const an_cli_svg_query *queries, size_t query_count, const char *title,
                      const arcnav_planner *mesh, bool y_down, an_cli_diag *diag);
