// SPDX-License-Identifier: MIT
#include "session.h"

#include "path_output.h"

#include <string.h>
#include <time.h>

double an_cli_now_us(void) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return (double)now.tv_sec * 1e6 + (double)now.tv_nsec / 1e3;
}

bool an_cli_parse_engine(const char *name, arcnav_engine *out) {
  static const arcnav_engine engines[] = {ARCNAV_ENGINE_AUTO, ARCNAV_ENGINE_TANGENT,
                                          ARCNAV_ENGINE_FUNNEL, ARCNAV_ENGINE_PLAIN_FUNNEL,
                                          ARCNAV_ENGINE_INTERVAL};
  for (size_t i = 0; i < sizeof engines / sizeof engines[0]; i++) {
    if (strcmp(name, an_cli_engine_name(engines[i])) == 0) {
      *out = engines[i];
      return true;
    }
  }
  return false;
}

bool an_cli_check_planning_options(const char *command, const char *planner, bool radius_given,
                                   double radius, arcnav_engine *engine, an_cli_diag *diag) {
  if (!an_cli_parse_engine(planner, engine)) {
    an_cli_diag_set(
        diag,
        "arcnav %s: --planner must be auto, tangent, funnel, plain-funnel or interval, not '%s'",
        command, planner);
    return false;
  }
  if (radius_given && radius < 0) {
    an_cli_diag_set(diag, "arcnav %s: --radius must not be negative (got %.17g)", command, radius);
    return false;
  }
  return true;
}

bool an_cli_check_map_format(const char *command, const char *name, an_cli_map_format *format,
                             an_cli_diag *diag) {
  if (name == NULL) {
    *format = AN_CLI_MAP_DETECT;
    return true;
  }
  if (!an_cli_parse_map_format(name, format)) {
    an_cli_diag_set(diag,
                    "arcnav %s: --map-format must be geojson, neerc, movingai or auto, not '%s'",
                    command, name);
    return false;
  }
  return true;
}

bool an_cli_session_load(an_cli_session *session, const char *file, an_cli_map_format format,
                         an_cli_diag *diag) {
  memset(session, 0, sizeof *session);
  if (!an_cli_map_load_as(file, format, &session->geometry, diag)) {
    return false;
  }
  if (!an_cli_map_build(&session->geometry, &session->map, diag)) {
    an_cli_map_free(&session->geometry);
    return false;
  }
  return true;
}

bool an_cli_build_planner(const arcnav_map *map, const char *file, const char *command,
                          double radius, double max_radius, arcnav_engine engine,
                          arcnav_tangent_graph tangent_graph, arcnav_planner **out_planner,
                          arcnav_query **out_query, double *out_build_ms, an_cli_diag *diag) {
  arcnav_planner_def def = arcnav_default_planner_def();
  def.radius = radius;
  def.max_radius = max_radius;
  def.engine = engine;
  def.tangent_graph = tangent_graph;
  arcnav_planner *planner = NULL;
  arcnav_query *query = NULL;
  double start = an_cli_now_us();
  arcnav_status status = arcnav_planner_create(map, &def, &planner);
  if (status == ARCNAV_OK) {
    status = arcnav_query_create(planner, &query);
  }
  if (out_build_ms != NULL) {
    *out_build_ms = (an_cli_now_us() - start) / 1e3;
  }
  if (status != ARCNAV_OK) {
    arcnav_planner_destroy(planner);
    an_cli_diag_set(diag, "arcnav %s: %s: cannot build the planner: %s (%s)", command, file,
                    arcnav_status_message(status), arcnav_status_name(status));
    return false;
  }
  *out_planner = planner;
  *out_query = query;
  return true;
}

bool an_cli_session_plan(an_cli_session *session, const char *command, double radius,
                         arcnav_engine engine, an_cli_diag *diag) {
  if (!an_cli_build_planner(session->map, session->geometry.file, command, radius, 0.0, engine,
                            session->tangent_graph, &session->planner, &session->query,
                            &session->build_ms, diag)) {
    return false;
  }
  arcnav_status status = arcnav_path_create(NULL, &session->path);
  if (status != ARCNAV_OK) {
    an_cli_diag_set(diag, "arcnav %s: %s (%s)", command, arcnav_status_message(status),
                    arcnav_status_name(status));
    return false;
  }
  return true;
}

arcnav_status an_cli_session_find(an_cli_session *session, arcnav_vec2 from, arcnav_vec2 to,
                                  double *micros) {
  double start = an_cli_now_us();
  arcnav_status status = arcnav_find_path(session->query, from, to, session->path);
  *micros = an_cli_now_us() - start;
  return status;
}

void an_cli_session_free(an_cli_session *session) {
  arcnav_path_destroy(session->path);
  arcnav_query_destroy(session->query);
  arcnav_planner_destroy(session->planner);
  arcnav_map_destroy(session->map);
  an_cli_map_free(&session->geometry);
  memset(session, 0, sizeof *session);
}

bool an_cli_session_radius(const an_cli_session *session, const char *command, bool given,
                           double value, bool required, double *out, an_cli_diag *diag) {
  if (given) {
    *out = value;
    return true;
  }
  if (session->geometry.has_defaults) {
    *out = session->geometry.default_radius;
    return true;
  }
  if (required) {
    an_cli_diag_set(diag, "arcnav %s: --radius is required for %s", command,
                    session->geometry.file);
    return false;
  }
  *out = 0;
  return true;
}
