// SPDX-License-Identifier: MIT
#pragma once

// The objects behind the public planner and query handles. Each holds one engine's state behind
// the engine interface (engine.h); nothing here knows how an engine works.

#include "geom/alloc.h"
#include "search/engine.h"

#define AN_PLANNER_DEF_MAGIC 0x4152434e /* "ARCN" */

struct arcnav_planner {
  an_allocator alloc;
  arcnav_planner_def def; ///< as created: arcnav_planner_update() builds again from it
  /// Moves on with every update that rebuilt the engines; a query object made for an older one
  /// makes its working memory again before its next use.
  uint64_t generation;
  uint64_t map_revision; ///< the map revision the engines were built from
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
  uint64_t generation; ///< the planner generation the working memory below was made for
  void *engine_query;  ///< the engine's working memory for this query object
  void *point_query;   ///< with a max_radius: the point engine's
  /// The tables that made engine_query and point_query: they free them even after an update
  /// replaced the engines.
  const an_engine_ops *engine_query_ops, *point_query_ops;
};
