// SPDX-License-Identifier: MIT
#include "args.h"
#include "commands.h"
#include "path_output.h"
#include "session.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char usage[] =
    "usage: arcnav batch --map MAP --radius R --queries FILE\n"
    "                    [--planner auto|tangent|funnel|plain-funnel]\n"
    "\n"
    "Build the planner once, then answer every query of FILE: one query per line, `SX SY GX GY`;\n"
    "blank lines and lines starting with '#' are skipped. Prints one JSON object per query and\n"
    "line (the `path` answer plus \"query\" (0-based), \"micros\" and \"nodes_expanded\"), then\n"
    "a last line {\"summary\": {...}} with build_ms, queries, found, query_median_us,\n"
    "query_p90_us and more.\n"
    "\n"
    "  --planner P   auto: tangent graph for R > 0, optimal funnel for R = 0; tangent; funnel;\n"
    "                plain-funnel (first corridor only). At R > 0 the funnel engines plan on\n"
    "                obstacles grown with polygonal corners and do not guarantee clearance R.\n"
    "\n"
    "Exit status: 0 when every query was answered (found or not), 2 bad usage or invalid input.\n";

typedef struct query_line {
  arcnav_vec2 from, to;
} query_line;

typedef struct query_list {
  query_line *items;
  size_t count, capacity;
} query_list;

static bool push_query(query_list *list, query_line q) {
  if (list->count == list->capacity) {
    size_t capacity = list->capacity == 0 ? 64 : 2 * list->capacity;
    query_line *grown = realloc(list->items, capacity * sizeof *grown);
    if (grown == NULL) {
      return false;
    }
    list->items = grown;
    list->capacity = capacity;
  }
  list->items[list->count++] = q;
  return true;
}

// Parse one line in place; returns false with a message naming FILE:LINE.
static bool parse_query_line(const char *file, int line_number, char *line, query_list *list,
                             an_cli_diag *diag) {
  char *cursor = line;
  while (isspace((unsigned char)*cursor)) {
    cursor++;
  }
  if (*cursor == '\0' || *cursor == '#') {
    return true;
  }
  double v[4];
  int count = 0;
  char *save = NULL;
  for (char *token = strtok_r(cursor, " \t\r\v\f", &save); token != NULL;
       token = strtok_r(NULL, " \t\r\v\f", &save)) {
    if (count == 4 || !an_cli_parse_number(token, &v[count])) {
      an_cli_diag_set(diag, "%s:%d: expected 4 finite numbers SX SY GX GY, got '%.40s'", file,
                      line_number, token);
      return false;
    }
    count++;
  }
  if (count != 4) {
    an_cli_diag_set(diag, "%s:%d: expected 4 numbers SX SY GX GY, got %d", file, line_number,
                    count);
    return false;
  }
  if (!push_query(list, (query_line){{v[0], v[1]}, {v[2], v[3]}})) {
    an_cli_diag_set(diag, "%s:%d: out of memory", file, line_number);
    return false;
  }
  return true;
}

static bool read_queries(const char *file, query_list *list, an_cli_diag *diag) {
  char *text = NULL;
  size_t length = 0;
  if (!an_cli_read_file(file, &text, &length, diag)) {
    return false;
  }
  if (memchr(text, '\0', length) != NULL) {
    an_cli_diag_set(diag, "%s: binary data in a query file", file);
    free(text);
    return false;
  }
  bool ok = true;
  int line_number = 1;
  char *line = text;
  while (ok && line != NULL && *line != '\0') {
    char *newline = strchr(line, '\n');
    if (newline != NULL) {
      *newline = '\0';
    }
    ok = parse_query_line(file, line_number, line, list, diag);
    line = newline != NULL ? newline + 1 : NULL;
    line_number++;
  }
  free(text);
  return ok;
}

static int compare_doubles(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static void summary(FILE *out, const an_cli_session *session, const double *micros, size_t count,
                    size_t found, double length_sum, size_t expanded_sum) {
  double median = 0, p90 = 0, mean = 0, max = 0;
  if (count > 0) {
    double *sorted = malloc(count * sizeof *sorted);
    if (sorted != NULL) {
      memcpy(sorted, micros, count * sizeof *sorted);
      qsort(sorted, count, sizeof *sorted, compare_doubles);
      median = count % 2 == 1 ? sorted[count / 2] : (sorted[count / 2 - 1] + sorted[count / 2]) / 2;
      // Nearest-rank percentile: the smallest time that at least 90% of the queries beat or met.
      size_t rank = (size_t)ceil(0.9 * (double)count);
      p90 = sorted[rank > 0 ? rank - 1 : 0];
      max = sorted[count - 1];
      free(sorted);
    }
    for (size_t i = 0; i < count; i++) {
      mean += micros[i];
    }
    mean /= (double)count;
  }
  arcnav_planner_info info;
  arcnav_planner_get_info(session->planner, &info);
  fprintf(out, "{\"summary\": {\"build_ms\":%.3f,\"queries\":%zu,\"found\":%zu,", session->build_ms,
          count, found);
  fprintf(out, "\"query_median_us\":%.3f,\"query_p90_us\":%.3f,\"query_mean_us\":%.3f,", median,
          p90, mean);
  fprintf(out, "\"query_max_us\":%.3f,\"mean_length\":", max);
  an_cli_json_number(out, found > 0 ? length_sum / (double)found : 0.0);
  fprintf(out, ",\"mean_nodes_expanded\":%.3f,",
          count > 0 ? (double)expanded_sum / (double)count : 0.0);
  fprintf(out, "\"engine\":\"%s\",\"radius\":",
          an_cli_engine_name(arcnav_planner_engine(session->planner)));
  an_cli_json_number(out, arcnav_planner_radius(session->planner));
  fprintf(out,
          ",\"corners\":%zu,\"nodes\":%zu,\"edges\":%zu,\"triangles\":%zu,\"memory_bytes\":%zu}}\n",
          info.corner_count, info.node_count, info.edge_count, info.triangle_count,
          info.memory_bytes);
}

int an_cli_cmd_batch(int argc, char **argv) {
  const char *map_file = NULL, *queries_file = NULL, *planner = "auto";
  double radius_value = 0;
  bool radius_given = false;
  const an_cli_option options[] = {
      {"--map", AN_CLI_OPTION_STRING, &map_file, NULL},
      {"--radius", AN_CLI_OPTION_NUMBER, &radius_value, &radius_given},
      {"--queries", AN_CLI_OPTION_STRING, &queries_file, NULL},
      {"--planner", AN_CLI_OPTION_STRING, &planner, NULL},
  };
  an_cli_diag diag = {{0}};
  an_cli_args_result args;
  int early_exit = an_cli_parse_command("batch", argc, argv, options,
                                        sizeof options / sizeof options[0], 0, usage, &args);
  if (early_exit >= 0) {
    return early_exit;
  }
  arcnav_engine engine = ARCNAV_ENGINE_AUTO;
  if (map_file == NULL || queries_file == NULL) {
    an_cli_diag_set(&diag, "arcnav batch: --map and --queries are required (see 'arcnav batch "
                           "--help')");
  } else {
    an_cli_check_planning_options("batch", planner, radius_given, radius_value, &engine, &diag);
  }
  if (diag.message[0] != '\0') {
    an_cli_diag_print(&diag);
    return AN_CLI_EXIT_USAGE;
  }

  query_list queries = {NULL, 0, 0};
  an_cli_session session;
  memset(&session, 0, sizeof session);
  double *micros = NULL;
  int exit_code = AN_CLI_EXIT_USAGE;
  double radius = 0;
  if (!an_cli_session_load(&session, map_file, &diag)) {
    goto done;
  }
  if (!an_cli_session_radius(&session, "batch", radius_given, radius_value, true, &radius, &diag) ||
      !read_queries(queries_file, &queries, &diag) ||
      !an_cli_session_plan(&session, "batch", radius, engine, &diag)) {
    goto done;
  }
  micros = queries.count > 0 ? malloc(queries.count * sizeof *micros) : NULL;
  if (queries.count > 0 && micros == NULL) {
    an_cli_diag_set(&diag, "arcnav batch: out of memory");
    goto done;
  }
  an_cli_map_print_warnings(&session.geometry);
  size_t found = 0, expanded_sum = 0;
  double length_sum = 0;
  for (size_t i = 0; i < queries.count; i++) {
    arcnav_status status =
        an_cli_session_find(&session, queries.items[i].from, queries.items[i].to, &micros[i]);
    if (!arcnav_status_is_answer(status)) {
      an_cli_diag_set(&diag, "%s: query %zu failed: %s (%s)", queries_file, i,
                      arcnav_status_message(status), arcnav_status_name(status));
      goto done;
    }
    arcnav_query_stats stats = arcnav_query_get_stats(session.query);
    expanded_sum += stats.nodes_expanded;
    if (status == ARCNAV_OK) {
      found++;
      length_sum += arcnav_path_length(session.path);
    }
    printf("{\"query\":%zu,", i);
    an_cli_path_json_members(stdout, status, radius, session.path, false);
    printf(",\"micros\":%.3f,\"nodes_expanded\":%zu}\n", micros[i], stats.nodes_expanded);
  }
  summary(stdout, &session, micros, queries.count, found, length_sum, expanded_sum);
  exit_code = AN_CLI_EXIT_OK;
done:
  if (exit_code != AN_CLI_EXIT_OK) {
    an_cli_diag_print(&diag);
  }
  free(micros);
  free(queries.items);
  an_cli_session_free(&session);
  return exit_code;
}
