// SPDX-License-Identifier: MIT
#pragma once

// The tangent engine without a prebuilt graph. The planner keeps the obstacle grid, the corner
// grid and (for R > 0) the sight mesh; a query discovers tangents as A* needs them. A search
// node is a directed tangent segment (from the start or a corner to a corner or the goal), so
// whether it is free does not depend on how the search reached it: that check waits until the
// node leaves the open list, and most tangents a search generates are never checked at all. A
// corner's departures are gathered when the search first arrives there, as far as a tangent's
// length plus the way from its touching point to the goal fits a bound just above what the search
// has left to spend (through the sight mesh where it can, else the grid culling of
// visibility.h), and gathered again, wider, only when the search reaches what the bound left
// out. A polygon corner's first gather takes only the part of its wedge from where that arrival
// touches on (the departures it can take); the part behind is gathered when an arrival touching
// there is expanded (docs/DESIGN.md, "Tangents on demand").

#include "tangent/tangent_state.h"

/// Work space for one query object. Grows with the largest search seen and keeps its memory.
arcnav_status an_lazy_search_create(const an_tangent_engine *engine, an_lazy_search **out);
void an_lazy_search_destroy(an_lazy_search *search);
/// Makes `search`, made for the engine an update replaced by `engine` (or renewed for it), the
/// work space of a query object of `engine` that answers as a new one would, keeping its memory
/// where it has room. ARCNAV_ERR_OUT_OF_MEMORY leaves it work space only
/// an_lazy_search_destroy() may take.
arcnav_status an_lazy_search_renew(an_lazy_search *search, const an_tangent_engine *engine);

/// Tests: with `late`, every group's first gather takes only the very end of its wedge, so that
/// each arrival touching anywhere else needs the part behind gathered for it. Answers stay the
/// same; only the work grows.
void an_lazy_search_gather_late(an_lazy_search *search, bool late);

/// Tests: what the search keeps from query to query about the wedge arc of corner `corner`: 0 not
/// judged, 1 free, 2 not free.
uint8_t an_lazy_search_wedge_verdict(const an_lazy_search *search, uint32_t corner);

/// Forgets what the search keeps from query to query about the corners at the query object's
/// radius (which wedge arcs are free): the radius changed. NULL (an engine without tangents on
/// demand): nothing.
void an_lazy_search_forget_radius(an_lazy_search *search, size_t corner_count);

/// The same when the units the query ignores changed (`ignored`, an_clearance.ignored), which
/// then hide nothing from the gathers either.
void an_lazy_search_forget_ignored(an_lazy_search *search, size_t corner_count,
                                   const uint8_t *ignored);

/// The search in slices (engine.h, begin, resume and best_so_far). an_lazy_begin(): start and
/// goal are finite, free and distinct; ARCNAV_OK with `path` (reset by the caller) filled when the
/// segment between them is free, ARCNAV_IN_PROGRESS with the search set up (its guide begun), or
/// the guide's answer when it settles the query.
arcnav_status an_lazy_begin(an_tangent_query *query, an_lazy_search *search, arcnav_vec2 start,
                            arcnav_vec2 goal, arcnav_path *path);
arcnav_status an_lazy_resume(an_tangent_query *query, an_lazy_search *search, arcnav_path *path);
arcnav_status an_lazy_best_so_far(const an_tangent_query *query, an_lazy_search *search,
                                  arcnav_path *path);
/// After a search that found no path: rules out the corners it arrived at whose whole wedge
/// arc is free (engine.h, `rule_out`).
void an_lazy_rule_out(an_tangent_query *query, an_lazy_search *search, uint32_t mark);
