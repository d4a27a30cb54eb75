// SPDX-License-Identifier: MIT
#pragma once

// The objects behind the public planner and query handles. Each holds one engine's state behind
// the engine interface (engine.h); nothing here knows how an engine works.

#include "geom/alloc.h"
#include "search/engine.h"

#define AN_PLANNER_DEF_MAGIC 0x4152434e /* "ARCN" */

struct arcnav_planner {
  an_allocator alloc;
  double radius;
  double max_radius; ///< 0: one radius; > 0: queries may ask for any radius up to it
  double eps;
  arcnav_engine engine_kind; ///< resolved: never ARCNAV_ENGINE_AUTO
  an_engine engine;          ///< with a max_radius: radii above point_limit (none if it is 0)
  /// With a max_radius: the engine for point agents (radii up to point_limit), built for R = 0.
  an_engine point_engine;
  double point_limit;
};

struct arcnav_query {
  const arcnav_planner *planner;
  an_allocator alloc;
  an_search_control control;
  double radius;
  void *engine_query; ///< the engine's working memory for this query object
  void *point_query;  ///< with a max_radius: the point engine's
};
