// SPDX-License-Identifier: MIT
#pragma once

// What every planning command does: load a map file, build the library's map and a planner for
// one radius, and time queries against it.

#include "diag.h"
#include "map_file.h"

#include <arcnav/arcnav.h>
#include <stdbool.h>

typedef struct an_cli_session {
  an_cli_map geometry;     ///< the file's geometry, as parsed
  arcnav_map *map;         ///< built from `geometry`
  arcnav_planner *planner; ///< NULL until an_cli_session_plan()
  arcnav_query *query;
  arcnav_path *path;
  double build_ms; ///< planner and query-scratch creation time
  /// Set before planning: a command answering one query finds tangents on demand, since a
  /// prebuilt graph would cost far more than the query.
  arcnav_tangent_graph tangent_graph;
} an_cli_session;

/// Load `file` in `format` (AN_CLI_MAP_DETECT: by extension or content) and build the map. On
/// failure nothing is left to free.
bool an_cli_session_load(an_cli_session *session, const char *file, an_cli_map_format format,
                         an_cli_diag *diag);

/// Build a planner and its query scratch for `radius` with `engine`; *out_build_ms [opt] gets the
/// time.
/// A `max_radius` above 0 makes it answer every radius up to it (arcnav_planner_def.max_radius);
/// 0 keeps it to `radius`. `file` and `command` name the map and the sub-command in messages.
bool an_cli_build_planner(const arcnav_map *map, const char *file, const char *command,
                          double radius, double max_radius, arcnav_engine engine,
                          arcnav_tangent_graph tangent_graph, arcnav_planner **out_planner,
                          arcnav_query **out_query, double *out_build_ms, an_cli_diag *diag);

/// Build the planner for `radius` with `engine`. `command` names the sub-command in messages.
bool an_cli_session_plan(an_cli_session *session, const char *command, double radius,
                         arcnav_engine engine, an_cli_diag *diag);

/// Answer one query into session->path; *micros gets the time spent in arcnav_find_path().
arcnav_status an_cli_session_find(an_cli_session *session, arcnav_vec2 from, arcnav_vec2 to,
                                  double *micros);

void an_cli_session_free(an_cli_session *session);

/// Monotonic clock in microseconds.
double an_cli_now_us(void);

/// Parse a `--planner` value (auto, tangent, funnel, plain-funnel, interval).
bool an_cli_parse_engine(const char *name, arcnav_engine *out);

/// The planning options every planning command shares, checked before any file is read: the
/// `--planner` name into *engine, and a `--radius` (when given) that is not negative. Returns
/// false with the message in *diag.
bool an_cli_check_planning_options(const char *command, const char *planner, bool radius_given,
                                   double radius, arcnav_engine *engine, an_cli_diag *diag);

/// A `--map-format` value (NULL: not given, detect) into *format; false with the message.
bool an_cli_check_map_format(const char *command, const char *name, an_cli_map_format *format,
                             an_cli_diag *diag);

/// The radius to plan with: the --radius value when given (already checked by
/// an_cli_check_planning_options), else the map file's
/// default (NEERC files), else 0 when `required` is false; otherwise an error.
bool an_cli_session_radius(const an_cli_session *session, const char *command, bool given,
                           double value, bool required, double *out, an_cli_diag *diag);
