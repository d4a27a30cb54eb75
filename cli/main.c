// SPDX-License-Identifier: MIT
// The arcnav command-line tool: sub-command dispatch, --help and --version. The contract for
// everything printed here is docs/CLI.md.

#include "commands.h"

#include <arcnav/arcnav.h>
#include <stdio.h>
#include <string.h>

static const char usage[] =
    "usage: arcnav neerc [FILE]\n"
    "       arcnav path   --map MAP --radius R --from X,Y --to X,Y [--format json|text]\n"
    "                     [--svg OUT.svg] [--y-down]\n"
    "                     [--planner auto|tangent|funnel|plain-funnel|interval]\n"
    "                     [--map-format geojson|neerc|movingai]\n"
    "       arcnav batch  --map MAP --radius R --queries FILE\n"
    "                     [--planner auto|tangent|funnel|plain-funnel|interval]\n"
    "                     [--map-format geojson|neerc|movingai]\n"
    "       arcnav render --map MAP [--radius R] [--from X,Y --to X,Y] [--triangles] --out "
    "OUT.svg\n"
    "                     [--planner auto|tangent|funnel|plain-funnel|interval] [--y-down]\n"
    "                     [--map-format geojson|neerc|movingai]\n"
    "       arcnav replay SCRIPT\n"
    "       arcnav demo   [--out DIR] [--maps DIR] [--y-down]\n"
    "       arcnav --help | arcnav SUBCOMMAND --help | arcnav --version\n"
    "\n"
    "Shortest paths for a disk of radius R among polygon and circle obstacles: straight segments\n"
    "and arcs of radius R around corners.\n"
    "\n"
    "  neerc    solve NEERC 2006 problem D input, one line per case\n"
    "  path     plan one query on a map file and print it as JSON or text\n"
    "  batch    build the planner once and answer many queries (a fifth number on a query line\n"
    "           is its radius), with timings\n"
    "  render   draw a map, its inflated boundary and a path as SVG\n"
    "  replay   run a script of operations on a living map (add, remove, move, path, ...)\n"
    "  demo     run the shipped example maps and write SVG pictures\n"
    "\n"
    "Map files: GeoJSON FeatureCollection (.geojson, .json), MovingAI grid (.map) or NEERC text\n"
    "(.in); other names are read by their content ('{' GeoJSON, 'type ' MovingAI, else NEERC),\n"
    "and --map-format geojson|neerc|movingai overrides both.\n"
    "SVG pictures show y pointing up; --y-down draws screen coordinates (y down, no flip).\n"
    "Exit status: 0 path found, 1 no path, 2 bad usage or invalid input.\n";

typedef struct command {
  const char *name;
  int (*run)(int argc, char **argv);
} command;

int main(int argc, char **argv) {
  static const command commands[] = {
      {"neerc", an_cli_cmd_neerc},   {"path", an_cli_cmd_path}, {"batch", an_cli_cmd_batch},
      {"render", an_cli_cmd_render}, {"demo", an_cli_cmd_demo}, {"replay", an_cli_cmd_replay},
  };
  if (argc < 2) {
    fputs(usage, stderr);
    return AN_CLI_EXIT_USAGE;
  }
  const char *name = argv[1];
  if (strcmp(name, "--help") == 0 || strcmp(name, "-h") == 0 || strcmp(name, "help") == 0) {
    fputs(usage, stdout);
    return AN_CLI_EXIT_OK;
  }
  if (strcmp(name, "--version") == 0 || strcmp(name, "version") == 0) {
    printf("arcnav %s\n", ARCNAV_VERSION_STRING);
    return AN_CLI_EXIT_OK;
  }
  for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++) {
    if (strcmp(name, commands[i].name) == 0) {
      int status = commands[i].run(argc - 1, argv + 1);
      // A full disk or closed pipe must not pass for success.
      if (fflush(stdout) != 0 && status == AN_CLI_EXIT_OK) {
        fprintf(stderr, "arcnav %s: cannot write to standard output\n", name);
        return AN_CLI_EXIT_USAGE;
      }
      return status;
    }
  }
  fprintf(stderr, "arcnav: unknown command '%s' (see 'arcnav --help')\n", name);
  return AN_CLI_EXIT_USAGE;
}
