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
  double eps;
  arcnav_engine engine_kind; ///< resolved: never ARCNAV_ENGINE_AUTO
  an_engine engine;
};

struct arcnav_query {
  const arcnav_planner *planner;
  an_allocator alloc;
  an_search_control control;
  void *engine_query; ///< the engine's working memory for this query object
};
