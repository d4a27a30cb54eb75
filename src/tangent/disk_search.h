// SPDX-License-Identifier: MIT
#pragma once

// The interval search for a disk: Polyanya (Cui, Harabor and Grastien, IJCAI 2017) carried over
// from a point to an agent of radius R > 0, over the triangulation of the polygons the sight mesh
// holds, with nothing built per radius (docs/DESIGN.md, "The interval search for a disk").
//
// A root is the start, or a corner circle (a polygon corner or a circle obstacle, grown by R) the
// path arrives on turning one way round. Its leaves are the rays a path can leave it along: from
// the start every ray, from a circle every tangent leaving it in its direction of turn, past its
// arrival and within its wedge. A search node is a root, a range of its leaves, and a triangle
// they all reach with nothing closer than R - eps behind them: entering it across one of its
// edges, or leaving the root inside it (the start, or a piece of the circle's arc). Expanding a
// node follows its leaves across the triangle against the obstacle pieces within R of it: those
// that cross it free and leave by one edge make one successor on the triangle beyond; a leaf that
// touches a corner circle inside the triangle, free up to there, makes that circle a new root;
// a leaf that reaches the goal is a path. The arc of a root is followed triangle by triangle as
// far as it is free. Everything depends on R only through the query, so one build serves every
// radius.

#include "tangent/tangent_state.h"

typedef struct an_disk_search an_disk_search;

/// Working memory for one query object of an interval engine (engine->intervals).
arcnav_status an_disk_search_create(const an_tangent_engine *engine, an_disk_search **out);
void an_disk_search_destroy(an_disk_search *search);
/// Makes `search`, made for an engine an update replaced (or renewed for it), the work space of a
/// query object of `engine` that answers as a new one would, keeping its memory where it has
/// room. ARCNAV_ERR_INVALID_ARGUMENT (untouched) for an engine without a triangulation of the
/// polygons; ARCNAV_ERR_OUT_OF_MEMORY leaves it work space only an_disk_search_destroy() may take.
arcnav_status an_disk_search_renew(an_disk_search *search, const an_tangent_engine *engine);

/// Does the interval search answer this query? Not for a point agent, not where an end lies
/// beyond the triangulated box of a map without bounds, nor for a radius the box's margin does not
/// hold (a path could leave the box): the tangents on demand answer those. Where it does, the
/// ends' triangles are kept for an_disk_begin().
bool an_disk_takes(const an_tangent_query *q, an_disk_search *search, vec2 start, vec2 goal);

/// Begins a search from `start` to `goal`, both free, distinct, and just taken (an_disk_takes): as
/// an_lazy_begin() (tangent_lazy.h).
arcnav_status an_disk_begin(an_tangent_query *q, an_disk_search *search, vec2 start, vec2 goal,
                            arcnav_path *path);
/// Runs the search an_disk_begin() set up, within the query's slice.
arcnav_status an_disk_resume(an_tangent_query *q, an_disk_search *search, arcnav_path *path);
/// The path to the root expanded nearest the goal, or the start alone.
arcnav_status an_disk_best_so_far(const an_tangent_query *q, an_disk_search *search,
                                  arcnav_path *path);

/// Forgets what the search keeps from query to query (the obstacle pieces near each triangle,
/// for one radius and one set of units ignored): after the query's radius or its units ignored
/// changed.
void an_disk_search_forget(an_disk_search *search);
