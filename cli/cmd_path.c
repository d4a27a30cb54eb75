// SPDX-License-Identifier: MIT
#include "args.h"
#include "commands.h"
#include "path_output.h"
#include "session.h"
#include "svg.h"

#include <stdio.h>
#include <string.h>

static const char usage[] =
    "usage: arcnav path --map MAP --radius R --from X,Y --to X,Y [--format json|text]\n"
    "                   [--svg OUT.svg] [--y-down]\n"
    "                   [--planner auto|tangent|funnel|plain-funnel|interval]\n"
    "                   [--map-format geojson|neerc|movingai]\n"
    "\n"
    "Plan one shortest path for a disk of radius R on MAP (GeoJSON, a MovingAI grid, or NEERC\n"
    "text whose first case gives the default radius, start and goal). --radius 0 uses the\n"
    "funnel planner.\n"
    "\n"
    "  --map MAP        map file: .geojson/.json GeoJSON, .map MovingAI grid, .in NEERC text;\n"
    "                   other names by content ('{' GeoJSON, 'type ' MovingAI, else NEERC)\n"
    "  --map-format F   read MAP as geojson, neerc or movingai instead of detecting it\n"
    "  --radius R       agent radius, >= 0\n"
    "  --from X,Y       start of the agent's centre\n"
    "  --to X,Y         goal of the agent's centre\n"
    "  --format F       json (default: status, radius, length, pieces) or text\n"
    "  --svg OUT.svg    also draw the map and the path\n"
    "  --y-down         draw the SVG in screen coordinates: y pointing down (no flip)\n"
    "  --planner P      engine: auto (default), tangent, funnel, plain-funnel, interval\n"
    "\n"
    "Exit status: 0 path found, 1 no path (no_path, start_blocked, goal_blocked; the answer is\n"
    "still printed), 2 bad usage or invalid map (nothing on standard output).\n";

int an_cli_cmd_path(int argc, char **argv) {
  const char *map_file = NULL, *format = "json", *svg_file = NULL, *planner = "auto";
  const char *map_format = NULL;
  double radius_value = 0;
  arcnav_vec2 from = {0, 0}, to = {0, 0};
  bool radius_given = false, from_given = false, to_given = false, y_down = false;
  const an_cli_option options[] = {
      {"--map", AN_CLI_OPTION_STRING, &map_file, NULL},
      {"--radius", AN_CLI_OPTION_NUMBER, &radius_value, &radius_given},
      {"--from", AN_CLI_OPTION_POINT, &from, &from_given},
      {"--to", AN_CLI_OPTION_POINT, &to, &to_given},
      {"--format", AN_CLI_OPTION_STRING, &format, NULL},
      {"--svg", AN_CLI_OPTION_STRING, &svg_file, NULL},
      {"--planner", AN_CLI_OPTION_STRING, &planner, NULL},
      {"--map-format", AN_CLI_OPTION_STRING, &map_format, NULL},
      {"--y-down", AN_CLI_OPTION_FLAG, NULL, &y_down},
  };
  an_cli_diag diag = {{0}};
  an_cli_args_result args;
  int early_exit = an_cli_parse_command("path", argc, argv, options,
                                        sizeof options / sizeof options[0], 0, usage, &args);
  if (early_exit >= 0) {
    return early_exit;
  }
  arcnav_engine engine = ARCNAV_ENGINE_AUTO;
  an_cli_map_format map_kind = AN_CLI_MAP_DETECT;
  bool text = strcmp(format, "text") == 0;
  if (map_file == NULL) {
    an_cli_diag_set(&diag, "arcnav path: --map is required (see 'arcnav path --help')");
  } else if (!text && strcmp(format, "json") != 0) {
    an_cli_diag_set(&diag, "arcnav path: --format must be json or text, not '%s'", format);
  } else if (an_cli_check_planning_options("path", planner, radius_given, radius_value, &engine,
                                           &diag)) {
    an_cli_check_map_format("path", map_format, &map_kind, &diag);
  }
  if (diag.message[0] != '\0') {
    an_cli_diag_print(&diag);
    return AN_CLI_EXIT_USAGE;
  }

  an_cli_session session;
  if (!an_cli_session_load(&session, map_file, map_kind, &diag)) {
    an_cli_diag_print(&diag);
    return AN_CLI_EXIT_USAGE;
  }
  int exit_code = AN_CLI_EXIT_USAGE;
  double radius = 0;
  if (!an_cli_session_radius(&session, "path", radius_given, radius_value, true, &radius, &diag)) {
    goto done;
  }
  if (!from_given || !to_given) {
    if (!session.geometry.has_defaults) {
      an_cli_diag_set(&diag, "arcnav path: --from and --to are required");
      goto done;
    }
    from = from_given ? from : session.geometry.default_from;
    to = to_given ? to : session.geometry.default_to;
  }
  session.tangent_graph = ARCNAV_TANGENT_GRAPH_ON_DEMAND;
  if (!an_cli_session_plan(&session, "path", radius, engine, &diag)) {
    goto done;
  }
  double micros = 0;
  arcnav_status status = an_cli_session_find(&session, from, to, &micros);
  if (!arcnav_status_is_answer(status)) {
    an_cli_diag_set(&diag, "arcnav path: the query failed: %s (%s)", arcnav_status_message(status),
                    arcnav_status_name(status));
    goto done;
  }
  if (svg_file != NULL) {
    an_cli_svg_query query = {from, to, status, session.path};
    if (!an_cli_svg_write(svg_file, &session.geometry, radius, &query, 1, map_file, NULL, y_down,
                          &diag)) {
      goto done;
    }
  }
  an_cli_map_print_warnings(&session.geometry);
  if (text) {
    an_cli_path_timing timing = {session.build_ms, micros, arcnav_query_get_stats(session.query),
                                 an_cli_engine_name(arcnav_planner_engine(session.planner))};
    an_cli_path_text(stdout, status, radius, from, to, session.path, &timing);
  } else {
    fputc('{', stdout);
    an_cli_path_json_members(stdout, status, radius, session.path, true);
    fputs("}\n", stdout);
  }
  exit_code = status == ARCNAV_OK ? AN_CLI_EXIT_OK : AN_CLI_EXIT_NO_PATH;
done:
  if (exit_code == AN_CLI_EXIT_USAGE) {
    an_cli_diag_print(&diag);
  }
  an_cli_session_free(&session);
  return exit_code;
}
