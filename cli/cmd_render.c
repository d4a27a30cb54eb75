// SPDX-License-Identifier: MIT
#include "args.h"
#include "commands.h"
#include "session.h"
#include "svg.h"

#include <stdio.h>
#include <string.h>

static const char usage[] =
    "usage: arcnav render --map MAP [--radius R] [--from X,Y --to X,Y] [--triangles] --out "
    "OUT.svg\n"
    "                     [--planner auto|tangent|funnel|plain-funnel|interval] [--y-down]\n"
    "                     [--map-format geojson|neerc|movingai]\n"
    "\n"
    "Draw MAP as SVG: obstacles, bounds, the boundary inflated by R (true arcs around corners)\n"
    "and, when --from and --to are given, the shortest path for radius R. R defaults to the NEERC\n"
    "file's radius, or 0.\n"
    "\n"
    "  --triangles      also draw the navmesh the funnel planner uses (R = 0)\n"
    "  --planner P      engine for the path: auto (default), tangent, funnel, plain-funnel,\n"
    "                   interval\n"
    "  --y-down         screen coordinates: y pointing down the picture (no flip); MovingAI\n"
    "                   grids then look as their files do\n"
    "  --map-format F   read MAP as geojson, neerc or movingai instead of detecting it\n"
    "\n"
    "Exit status: 0 drawn (and the path found, if asked for), 1 drawn but there is no path,\n"
    "2 bad usage or invalid input.\n";

int an_cli_cmd_render(int argc, char **argv) {
  const char *map_file = NULL, *out_file = NULL, *planner = "auto", *map_format = NULL;
  double radius_value = 0;
  arcnav_vec2 from = {0, 0}, to = {0, 0};
  bool radius_given = false, from_given = false, to_given = false, triangles = false,
       y_down = false;
  const an_cli_option options[] = {
      {"--map", AN_CLI_OPTION_STRING, &map_file, NULL},
      {"--radius", AN_CLI_OPTION_NUMBER, &radius_value, &radius_given},
      {"--from", AN_CLI_OPTION_POINT, &from, &from_given},
      {"--to", AN_CLI_OPTION_POINT, &to, &to_given},
      {"--out", AN_CLI_OPTION_STRING, &out_file, NULL},
      {"--planner", AN_CLI_OPTION_STRING, &planner, NULL},
      {"--triangles", AN_CLI_OPTION_FLAG, NULL, &triangles},
      {"--map-format", AN_CLI_OPTION_STRING, &map_format, NULL},
      {"--y-down", AN_CLI_OPTION_FLAG, NULL, &y_down},
  };
  an_cli_diag diag = {{0}};
  an_cli_args_result args;
  int early_exit = an_cli_parse_command("render", argc, argv, options,
                                        sizeof options / sizeof options[0], 0, usage, &args);
  if (early_exit >= 0) {
    return early_exit;
  }
  arcnav_engine engine = ARCNAV_ENGINE_AUTO;
  an_cli_map_format map_kind = AN_CLI_MAP_DETECT;
  if (map_file == NULL || out_file == NULL) {
    an_cli_diag_set(&diag,
                    "arcnav render: --map and --out are required (see 'arcnav render --help')");
  } else if (from_given != to_given) {
    an_cli_diag_set(&diag, "arcnav render: give both --from and --to, or neither");
  } else if (an_cli_check_planning_options("render", planner, radius_given, radius_value, &engine,
                                           &diag)) {
    an_cli_check_map_format("render", map_format, &map_kind, &diag);
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
  if (!an_cli_session_radius(&session, "render", radius_given, radius_value, false, &radius,
                             &diag)) {
    goto done;
  }
  if (!from_given && session.geometry.has_defaults) {
    from = session.geometry.default_from;
    to = session.geometry.default_to;
    from_given = to_given = true;
  }
  an_cli_svg_query query = {from, to, ARCNAV_NO_PATH, NULL};
  if (triangles && radius > 0) {
    an_cli_diag_set(&diag, "arcnav render: --triangles needs --radius 0 (the navmesh is for point "
                           "agents)");
    goto done;
  }
  if (triangles && engine == ARCNAV_ENGINE_AUTO) {
    engine = ARCNAV_ENGINE_FUNNEL; // the navmesh exists only for funnel engines
  }
  if (from_given || triangles) {
    if (!an_cli_session_plan(&session, "render", radius, engine, &diag)) {
      goto done;
    }
  }
  if (from_given) {
    double micros = 0;
    query.status = an_cli_session_find(&session, from, to, &micros);
    query.path = session.path;
    if (!arcnav_status_is_answer(query.status)) {
      an_cli_diag_set(&diag, "arcnav render: the query failed: %s (%s)",
                      arcnav_status_message(query.status), arcnav_status_name(query.status));
      goto done;
    }
  }
  if (!an_cli_svg_write(out_file, &session.geometry, radius, &query, from_given ? 1 : 0, map_file,
                        triangles ? session.planner : NULL, y_down, &diag)) {
    goto done;
  }
  an_cli_map_print_warnings(&session.geometry);
  if (from_given) {
    printf("%s: %s", out_file, arcnav_status_name(query.status));
    if (query.status == ARCNAV_OK) {
      printf(", length %.17g, %zu pieces", arcnav_path_length(session.path),
             arcnav_path_piece_count(session.path));
    }
    putchar('\n');
  } else {
    printf("%s: map drawn\n", out_file);
  }
  exit_code = !from_given || query.status == ARCNAV_OK ? AN_CLI_EXIT_OK : AN_CLI_EXIT_NO_PATH;
done:
  if (exit_code == AN_CLI_EXIT_USAGE) {
    an_cli_diag_print(&diag);
  }
  an_cli_session_free(&session);
  return exit_code;
}
