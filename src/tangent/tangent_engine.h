// SPDX-License-Identifier: MIT
#pragma once

// The tangent engine: exact shortest paths for a disk of any radius among polygons and circles,
// as straight tangents between the circles of radius R around obstacle corners and arcs on them
// (docs/DESIGN.md, "The tangent engine"). Every free tangent is found when the planner is built
// (ARCNAV_TANGENT_GRAPH_PREBUILT), or each query finds the ones its search needs
// (ARCNAV_TANGENT_GRAPH_ON_DEMAND); AUTO prebuilds up to ARCNAV_TANGENT_GRAPH_AUTO_LIMIT corners.

#include "search/engine.h"

arcnav_status an_tangent_engine_build(const an_engine_args *args, an_engine *out);
