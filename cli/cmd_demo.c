// SPDX-License-Identifier: MIT
#include "args.h"
#include "commands.h"
#include "path_output.h"
#include "session.h"
#include "svg.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef ARCNAV_EXAMPLES_DIR
#define ARCNAV_EXAMPLES_DIR "examples"
#endif

static const char usage[] =
    "usage: arcnav demo [--out DIR] [--maps DIR] [--y-down]\n"
    "\n"
    "Plan fixed queries on the maps that ship with arcnav, for units of two sizes per map, write\n"
    "one SVG per (map, unit) into DIR (default: demo-out) and print a summary table. In the town\n"
    "the large unit does not fit through the gate of the walled yard, so it finds no path there.\n"
    "\n"
    "  --out DIR     where the SVG files go (created if missing)\n"
    "  --maps DIR    where the example maps are (--examples DIR is the same). Without it: an\n"
    "                installed <directory of the arcnav program>/../share/arcnav/examples,\n"
    "                else the source tree's " ARCNAV_EXAMPLES_DIR "\n"
    "  --y-down      draw the SVGs in screen coordinates: y pointing down (no flip)\n";

#define MAX_DEMO_QUERIES 4
#define MAX_DEMO_UNITS 2

typedef struct demo_query {
  arcnav_vec2 from, to;
} demo_query;

typedef struct demo_map {
  const char *name;
  const char *file;
  double units[MAX_DEMO_UNITS];
  demo_query queries[MAX_DEMO_QUERIES];
  size_t query_count;
} demo_map;

// Queries are chosen with the maps: see the comments in each map file's features.
static const demo_map demo_maps[] = {
    {"town",
     "town.geojson",
     {2, 5},
     {{{10, 10}, {190, 130}}, // across town, around the walled yard
      {{10, 70}, {135, 95}},  // into the yard: only through the 7-wide gate
      {{30, 125}, {110, 10}}, // between the houses
      {{30, 27}, {190, 10}}}, // starts inside a house: start_blocked
     4},
    {"maze",
     "maze.geojson",
     {1, 4},
     {{{10, 10}, {90, 90}},  // bottom to top through every corridor
      {{90, 30}, {10, 30}}}, // along one corridor past a 7-wide gap
     2},
    {"plaza",
     "plaza.geojson",
     {0, 1.5},
     {{{5, 30}, {75, 40}},  // around the courtyard building
      {{32, 24}, {48, 36}}, // inside the courtyard, around the fountain
      {{5, 30}, {40, 35}}}, // into the closed courtyard: no path
     3},
};

static bool ensure_directory(const char *dir, an_cli_diag *diag) {
  if (mkdir(dir, 0777) == 0) {
    return true;
  }
  struct stat info;
  if (errno == EEXIST && stat(dir, &info) == 0 && S_ISDIR(info.st_mode)) {
    return true;
  }
  an_cli_diag_set(diag, "arcnav demo: cannot create the directory %s: %s", dir, strerror(errno));
  return false;
}

// Does `dir` hold every demo map?
static bool has_demo_maps(const char *dir) {
  for (size_t m = 0; m < sizeof demo_maps / sizeof demo_maps[0]; m++) {
    char file[4096];
    int written = snprintf(file, sizeof file, "%s/%s", dir, demo_maps[m].file);
    struct stat info;
    if (written < 0 || (size_t)written >= sizeof file || stat(file, &info) != 0 ||
        !S_ISREG(info.st_mode)) {
      return false;
    }
  }
  return true;
}

// Where the example maps are when no --maps is given: beside an installed program first
// (<prefix>/bin/arcnav and <prefix>/share/arcnav/examples), then the source tree it was built
// from. False with the directories tried in *diag when neither holds them.
static bool find_demo_maps(char *out, size_t size, an_cli_diag *diag) {
  char installed[4096] = "";
  char self[4096];
  ssize_t length = readlink("/proc/self/exe", self, sizeof self - 1);
  if (length > 0) {
    self[length] = '\0';
    char *slash = strrchr(self, '/');
    if (slash != NULL) {
      *slash = '\0';
      int written = snprintf(installed, sizeof installed, "%s/../share/arcnav/examples", self);
      if (written < 0 || (size_t)written >= sizeof installed) {
        installed[0] = '\0';
      }
    }
  }
  const char *candidates[] = {installed, ARCNAV_EXAMPLES_DIR};
  for (size_t i = 0; i < sizeof candidates / sizeof candidates[0]; i++) {
    if (candidates[i][0] != '\0' && strlen(candidates[i]) < size && has_demo_maps(candidates[i])) {
      snprintf(out, size, "%s", candidates[i]);
      return true;
    }
  }
  an_cli_diag_set(diag,
                  "arcnav demo: the example maps (town.geojson, maze.geojson, plaza.geojson) are "
                  "in none of: %s%s%s; give their directory with --maps DIR",
                  installed[0] != '\0' ? installed : "", installed[0] != '\0' ? ", " : "",
                  ARCNAV_EXAMPLES_DIR);
  return false;
}

static void format_point(char *out, size_t size, arcnav_vec2 p) {
  snprintf(out, size, "(%g, %g)", p.x, p.y);
}

static bool run_unit(const demo_map *demo, an_cli_session *session, double radius,
                     const char *out_dir, bool y_down, an_cli_diag *diag) {
  if (!an_cli_session_plan(session, "demo", radius, ARCNAV_ENGINE_AUTO, diag)) {
    return false;
  }
  // Each query needs its own path object so that the SVG can show all of them at once.
  arcnav_path *paths[MAX_DEMO_QUERIES] = {NULL};
  an_cli_svg_query drawn[MAX_DEMO_QUERIES];
  bool ok = true;
  const char *engine = an_cli_engine_name(arcnav_planner_engine(session->planner));
  for (size_t i = 0; ok && i < demo->query_count; i++) {
    if (arcnav_path_create(NULL, &paths[i]) != ARCNAV_OK) {
      an_cli_diag_set(diag, "arcnav demo: out of memory");
      ok = false;
      break;
    }
    const demo_query *q = &demo->queries[i];
    double start = an_cli_now_us();
    arcnav_status status = arcnav_find_path(session->query, q->from, q->to, paths[i]);
    double micros = an_cli_now_us() - start;
    if (!arcnav_status_is_answer(status)) {
      an_cli_diag_set(diag, "arcnav demo: %s query %zu failed: %s", demo->name, i,
                      arcnav_status_name(status));
      ok = false;
      break;
    }
    drawn[i] = (an_cli_svg_query){q->from, q->to, status, paths[i]};
    char from[48], to[48], length[32] = "-";
    format_point(from, sizeof from, q->from);
    format_point(to, sizeof to, q->to);
    if (status == ARCNAV_OK) {
      snprintf(length, sizeof length, "%.4f", arcnav_path_length(paths[i]));
    }
    printf("%-7s %6g  %-13s %-12s %-12s %-14s %10s %6zu %9.3f %9.1f\n", demo->name, radius, engine,
           from, to, arcnav_status_name(status), length,
           status == ARCNAV_OK ? arcnav_path_piece_count(paths[i]) : (size_t)0, session->build_ms,
           micros);
  }
  if (ok) {
    char file[4096], title[256];
    int written = snprintf(file, sizeof file, "%s/%s-r%g.svg", out_dir, demo->name, radius);
    snprintf(title, sizeof title, "%s, unit radius %g (%s)", demo->name, radius, engine);
    if (written < 0 || (size_t)written >= sizeof file) {
      an_cli_diag_set(diag, "arcnav demo: output directory name too long");
      ok = false;
    } else {
      ok = an_cli_svg_write(file, &session->geometry, radius, drawn, demo->query_count, title, NULL,
                            y_down, diag);
      if (ok) {
        printf("%-7s %6g  -> %s\n", demo->name, radius, file);
      }
    }
  }
  for (size_t i = 0; i < demo->query_count; i++) {
    arcnav_path_destroy(paths[i]);
  }
  arcnav_path_destroy(session->path);
  arcnav_query_destroy(session->query);
  arcnav_planner_destroy(session->planner);
  session->path = NULL;
  session->query = NULL;
  session->planner = NULL;
  return ok;
}

int an_cli_cmd_demo(int argc, char **argv) {
  const char *out_dir = "demo-out", *examples = NULL;
  bool y_down = false;
  const an_cli_option options[] = {
      {"--out", AN_CLI_OPTION_STRING, &out_dir, NULL},
      {"--maps", AN_CLI_OPTION_STRING, &examples, NULL},
      {"--examples", AN_CLI_OPTION_STRING, &examples, NULL},
      {"--y-down", AN_CLI_OPTION_FLAG, NULL, &y_down},
  };
  an_cli_diag diag = {{0}};
  an_cli_args_result args;
  int early_exit = an_cli_parse_command("demo", argc, argv, options,
                                        sizeof options / sizeof options[0], 0, usage, &args);
  if (early_exit >= 0) {
    return early_exit;
  }
  char found[4096];
  if (examples == NULL) {
    if (!find_demo_maps(found, sizeof found, &diag)) {
      an_cli_diag_print(&diag);
      return AN_CLI_EXIT_USAGE;
    }
    examples = found;
  }
  if (!ensure_directory(out_dir, &diag)) {
    an_cli_diag_print(&diag);
    return AN_CLI_EXIT_USAGE;
  }
  // Every map is loaded before anything is printed, so a missing or broken example leaves
  // standard output empty.
  enum { MAP_COUNT = sizeof demo_maps / sizeof demo_maps[0] };
  an_cli_session sessions[MAP_COUNT];
  memset(sessions, 0, sizeof sessions);
  char files[MAP_COUNT][4096];
  bool ok = true;
  for (size_t m = 0; ok && m < MAP_COUNT; m++) {
    int written = snprintf(files[m], sizeof files[m], "%s/%s", examples, demo_maps[m].file);
    if (written < 0 || (size_t)written >= sizeof files[m]) {
      an_cli_diag_set(&diag, "arcnav demo: examples directory name too long");
      ok = false;
    } else {
      ok = an_cli_session_load(&sessions[m], files[m], AN_CLI_MAP_DETECT, &diag);
    }
  }
  if (ok) {
    printf("%-7s %6s  %-13s %-12s %-12s %-14s %10s %6s %9s %9s\n", "map", "unit R", "engine",
           "from", "to", "status", "length", "pieces", "build ms", "query us");
  }
  for (size_t m = 0; ok && m < MAP_COUNT; m++) {
    an_cli_map_print_warnings(&sessions[m].geometry);
    for (size_t u = 0; ok && u < MAX_DEMO_UNITS; u++) {
      ok = run_unit(&demo_maps[m], &sessions[m], demo_maps[m].units[u], out_dir, y_down, &diag);
    }
  }
  for (size_t m = 0; m < MAP_COUNT; m++) {
    an_cli_session_free(&sessions[m]);
  }
  if (!ok) {
    an_cli_diag_print(&diag);
    return AN_CLI_EXIT_USAGE;
  }
  return AN_CLI_EXIT_OK;
}
