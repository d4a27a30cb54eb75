// SPDX-License-Identifier: MIT
#pragma once

/// @file arcnav_web.h
/// What the web page calls in the WebAssembly module (each is exported with a leading '_').
/// Statuses are arcnav_status values as ints; `error_out` [opt] points to three ints that receive
/// the arcnav_error's obstacle, ring and vertex.

#include <arcnav/arcnav.h>

/// Doubles per path piece in an_web_path_data(): type (0 line, 1 arc), from x y, to x y,
/// centre x y, radius, sweep, ccw (0 or 1), length, and one spare.
#define AN_WEB_PIECE_DOUBLES 12

/// A planner with its query scratch and reusable path. Opaque to the page.
typedef struct an_web_planner an_web_planner;

/// An empty map, or NULL when out of memory.
arcnav_map *an_web_map_create(void);
void an_web_map_destroy(arcnav_map *map);

/// A polygon whose `ring_count` rings (outer first, then holes) lie one after the other in
/// `points`, `ring_sizes[i]` vertices each.
int an_web_map_add_polygon(arcnav_map *map, const arcnav_vec2 *points, const int *ring_sizes,
                           int ring_count, int *error_out);
int an_web_map_add_circle(arcnav_map *map, double x, double y, double radius, int *error_out);
int an_web_map_set_bounds(arcnav_map *map, const arcnav_vec2 *ring, int count, int *error_out);

/// A planner for `engine` (an arcnav_engine) and `radius`; NULL on failure, with the status in
/// *status_out. The map may be destroyed afterwards.
an_web_planner *an_web_planner_create(const arcnav_map *map, int engine, double radius,
                                      int *status_out);
void an_web_planner_destroy(an_web_planner *web);

/// The engine that answers queries (AUTO resolved).
int an_web_planner_engine(const an_web_planner *web);

/// Plans from (sx, sy) to (gx, gy) and fills the array an_web_path_data() returns.
int an_web_find_path(an_web_planner *web, double sx, double sy, double gx, double gy);

/// The last answer: length, piece count, then AN_WEB_PIECE_DOUBLES per piece. Valid until the
/// next an_web_find_path() on `web`.
const double *an_web_path_data(const an_web_planner *web);

/// Navmesh triangles of a funnel engine (0 for the tangent engine), 6 doubles each (three
/// corners); NULL when there are none or memory ran out.
int an_web_triangle_count(const an_web_planner *web);
const double *an_web_triangles(an_web_planner *web);

/// arcnav_status_name() and arcnav_status_message() of a status.
const char *an_web_status_name(int status);
const char *an_web_status_message(int status);
