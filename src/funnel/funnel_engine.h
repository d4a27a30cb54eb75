// SPDX-License-Identifier: MIT
#pragma once

// The funnel engines: A* over the triangles of a constrained Delaunay triangulation of the free
// space, the path string-pulled through the channel. ARCNAV_ENGINE_FUNNEL keeps searching until
// no channel can beat the best path (exact for point agents among polygons);
// ARCNAV_ENGINE_PLAIN_FUNNEL stops at the first channel, like Recast/Detour. For R > 0 both plan
// for a point on the map eroded by R (docs/DESIGN.md, "The funnel engines").

#include "search/engine.h"

arcnav_status an_funnel_engine_build(const an_engine_args *args, an_engine *out);
