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

// Planners kept at once, one per radius, the least recently used replaced first.
#define PLANNER_CACHE 16
#define PLANNER_CACHE_TEXT "16"

static const char usage[] =
    "usage: arcnav batch --map MAP --radius R --queries FILE\n"
    "                    [--planner auto|tangent|funnel|plain-funnel|interval]\n"
    "                    [--map-format geojson|neerc|movingai]\n"
    "\n"
    "Build the planner once, then answer every query of FILE: one query per line, `SX SY GX GY`,\n"
    "optionally followed by a fifth number, the radius for that query (otherwise --radius);\n"
    "blank lines and lines starting with '#' are skipped. With --planner auto, tangent or\n"
    "interval one planner answers every radius: when the lines ask for several, it is built once\n"
    "for radii up to the largest asked. The funnel engines build one planner per distinct radius\n"
    "and reuse it (the " PLANNER_CACHE_TEXT " radii used last are kept). Prints one JSON object\n"
    "per query and line (the `path` answer, with the query's \"radius\", plus \"query\"\n"
    "(0-based), \"micros\" and \"nodes_expanded\"), then a last line {\"summary\": {...}} with\n"
    "build_ms (all builds), planners_built, queries, found, query_median_us, query_p90_us and\n"
    "more; its engine, radius and graph figures are those of the first planner built.\n"
    "\n"
    "  --radius R        the radius of lines without a fifth number (NEERC maps: the file's)\n"
    "  --planner P       auto: tangent graph for R > 0, optimal funnel for R = 0; tangent;\n"
    "                    funnel; plain-funnel (first corridor only); interval (exact for R > 0\n"
    "                    like tangent, nothing built per radius; R = 0 as auto). At R > 0 the\n"
    "                    funnel engines plan on obstacles grown with polygonal corners and do\n"
    "                    not guarantee clearance R.\n"
    "  --map-format F    read MAP as geojson, neerc or movingai instead of detecting it\n"
    "\n"
    "Exit status: 0 when every query was answered (found or not), 2 bad usage or invalid input.\n";

typedef struct query_line {
  arcnav_vec2 from, to;
  double radius;   ///< the fifth number, when given
  bool has_radius; ///< false: the batch's radius
  int line;        ///< in the query file
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
  double v[5];
  int count = 0;
  char *save = NULL;
  for (char *token = strtok_r(cursor, " \t\r\v\f", &save); token != NULL;
       token = strtok_r(NULL, " \t\r\v\f", &save)) {
    if (count == 5 || !an_cli_parse_number(token, &v[count])) {
      an_cli_diag_set(diag, "%s:%d: expected 4 or 5 finite numbers SX SY GX GY [R], got '%.40s'",
                      file, line_number, token);
      return false;
    }
    count++;
  }
  if (count < 4) {
    an_cli_diag_set(diag, "%s:%d: expected 4 or 5 numbers SX SY GX GY [R], got %d", file,
                    line_number, count);
    return false;
  }
  if (count == 5 && v[4] < 0) {
    an_cli_diag_set(diag, "%s:%d: the radius (fifth number) must not be negative (got %.17g)", file,
                    line_number, v[4]);
    return false;
  }
  query_line q = {{v[0], v[1]}, {v[2], v[3]}, count == 5 ? v[4] : 0, count == 5, line_number};
  if (!push_query(list, q)) {
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

typedef struct cached_planner {
  double radius;
  arcnav_planner *planner;
  arcnav_query *query;
  unsigned long long last_use;
} cached_planner;

// Planners by radius: each distinct radius is built once while it stays among the last
// PLANNER_CACHE radii used. With a max_radius the first planner built answers every radius up to
// it, and stays the only one.
typedef struct planner_cache {
  cached_planner items[PLANNER_CACHE];
  size_t count;
  double max_radius; ///< 0: a planner per radius
  const char *queries_file;
  unsigned long long clock;
  size_t built;
  double build_ms;                ///< all builds together
  arcnav_planner_info first_info; ///< the first planner built, described by the summary
  arcnav_engine first_engine;
  double first_radius;
} planner_cache;

static void cache_free(planner_cache *cache) {
  for (size_t i = 0; i < cache->count; i++) {
    arcnav_query_destroy(cache->items[i].query);
    arcnav_planner_destroy(cache->items[i].planner);
  }
  cache->count = 0;
}

static bool cache_has(const planner_cache *cache, double radius) {
  for (size_t i = 0; i < cache->count; i++) {
    if (cache->items[i].radius == radius) {
      return true;
    }
  }
  return false;
}

static cached_planner *cache_get(planner_cache *cache, const an_cli_session *session, double radius,
                                 arcnav_engine engine, an_cli_diag *diag) {
  cache->clock++;
  if (cache->max_radius > 0.0 && cache->count == 1) {
    cached_planner *item = &cache->items[0];
    arcnav_status status = arcnav_query_set_radius(item->query, radius);
    if (status != ARCNAV_OK) {
      an_cli_diag_set(diag, "arcnav batch: %s: radius %.17g: %s (%s)", cache->queries_file, radius,
                      arcnav_status_message(status), arcnav_status_name(status));
      return NULL;
    }
    return item;
  }
  for (size_t i = 0; i < cache->count; i++) {
    if (cache->items[i].radius == radius) {
      cache->items[i].last_use = cache->clock;
      return &cache->items[i];
    }
  }
  size_t slot = cache->count;
  if (slot == PLANNER_CACHE) {
    slot = 0;
    for (size_t i = 1; i < cache->count; i++) {
      if (cache->items[i].last_use < cache->items[slot].last_use) {
        slot = i;
      }
    }
  }
  arcnav_planner *planner = NULL;
  arcnav_query *query = NULL;
  double ms = 0;
  if (!an_cli_build_planner(session->map, session->geometry.file, "batch", radius,
                            cache->max_radius, engine, session->tangent_graph, &planner, &query,
                            &ms, diag)) {
    return NULL;
  }
  if (cache->built == 0) {
    arcnav_planner_get_info(planner, &cache->first_info);
    cache->first_engine = arcnav_planner_engine(planner);
    cache->first_radius = radius;
  }
  cache->built++;
  cache->build_ms += ms;
  cached_planner *item = &cache->items[slot];
  if (slot < cache->count) {
    arcnav_query_destroy(item->query);
    arcnav_planner_destroy(item->planner);
  } else {
    cache->count++;
  }
  *item = (cached_planner){radius, planner, query, cache->clock};
  return item;
}

static void summary(FILE *out, const planner_cache *cache, const double *micros, size_t count,
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
  const arcnav_planner_info *info = &cache->first_info;
  fprintf(out, "{\"summary\": {\"build_ms\":%.3f,\"planners_built\":%zu,\"queries\":%zu,",
          cache->build_ms, cache->built, count);
  fprintf(out, "\"found\":%zu,", found);
  fprintf(out, "\"query_median_us\":%.3f,\"query_p90_us\":%.3f,\"query_mean_us\":%.3f,", median,
          p90, mean);
  fprintf(out, "\"query_max_us\":%.3f,\"mean_length\":", max);
  an_cli_json_number(out, found > 0 ? length_sum / (double)found : 0.0);
  fprintf(out, ",\"mean_nodes_expanded\":%.3f,",
          count > 0 ? (double)expanded_sum / (double)count : 0.0);
  fprintf(out, "\"engine\":\"%s\",\"radius\":", an_cli_engine_name(cache->first_engine));
  an_cli_json_number(out, cache->first_radius);
  fprintf(out,
          ",\"corners\":%zu,\"nodes\":%zu,\"edges\":%zu,\"triangles\":%zu,\"memory_bytes\":%zu}}\n",
          info->corner_count, info->node_count, info->edge_count, info->triangle_count,
          info->memory_bytes);
}

int an_cli_cmd_batch(int argc, char **argv) {
  const char *map_file = NULL, *queries_file = NULL, *planner = "auto", *map_format = NULL;
  double radius_value = 0;
  bool radius_given = false;
  const an_cli_option options[] = {
      {"--map", AN_CLI_OPTION_STRING, &map_file, NULL},
      {"--radius", AN_CLI_OPTION_NUMBER, &radius_value, &radius_given},
      {"--queries", AN_CLI_OPTION_STRING, &queries_file, NULL},
      {"--planner", AN_CLI_OPTION_STRING, &planner, NULL},
      {"--map-format", AN_CLI_OPTION_STRING, &map_format, NULL},
  };
  an_cli_diag diag = {{0}};
  an_cli_args_result args;
  int early_exit = an_cli_parse_command("batch", argc, argv, options,
                                        sizeof options / sizeof options[0], 0, usage, &args);
  if (early_exit >= 0) {
    return early_exit;
  }
  arcnav_engine engine = ARCNAV_ENGINE_AUTO;
  an_cli_map_format format = AN_CLI_MAP_DETECT;
  if (map_file == NULL || queries_file == NULL) {
    an_cli_diag_set(&diag, "arcnav batch: --map and --queries are required (see 'arcnav batch "
                           "--help')");
  } else if (an_cli_check_planning_options("batch", planner, radius_given, radius_value, &engine,
                                           &diag)) {
    an_cli_check_map_format("batch", map_format, &format, &diag);
  }
  if (diag.message[0] != '\0') {
    an_cli_diag_print(&diag);
    return AN_CLI_EXIT_USAGE;
  }

  query_list queries = {NULL, 0, 0};
  an_cli_session session;
  memset(&session, 0, sizeof session);
  planner_cache cache;
  memset(&cache, 0, sizeof cache);
  double *micros = NULL;
  int exit_code = AN_CLI_EXIT_USAGE;
  if (!an_cli_session_load(&session, map_file, format, &diag)) {
    goto done;
  }
  if (!read_queries(queries_file, &queries, &diag)) {
    goto done;
  }
  // --radius (or the NEERC file's) is needed only by lines without a fifth number.
  double radius = 0;
  bool radius_known = radius_given || session.geometry.has_defaults;
  if (radius_known) {
    an_cli_session_radius(&session, "batch", radius_given, radius_value, true, &radius, &diag);
  }
  if (queries.count == 0 && !radius_known) {
    an_cli_diag_set(&diag, "arcnav batch: --radius is required for %s", map_file);
    goto done;
  }
  for (size_t i = 0; i < queries.count; i++) {
    if (!queries.items[i].has_radius && !radius_known) {
      an_cli_diag_set(&diag,
                      "arcnav batch: --radius is required for %s (%s:%d gives no fifth number)",
                      map_file, queries_file, queries.items[i].line);
      goto done;
    }
  }
  micros = queries.count > 0 ? malloc(queries.count * sizeof *micros) : NULL;
  if ((queries.count > 0 && micros == NULL) ||
      arcnav_path_create(NULL, &session.path) != ARCNAV_OK) {
    an_cli_diag_set(&diag, "arcnav batch: out of memory");
    goto done;
  }
  if (queries.count == 0 && radius_known &&
      cache_get(&cache, &session, radius, engine, &diag) == NULL) {
    goto done;
  }
  // The engines that take a radius per query build once for every radius the lines ask for; the
  // funnel engines plan on obstacles grown by one radius, so they keep a planner per radius.
  double first_radius = 0, max_radius = 0;
  bool several_radii = false;
  for (size_t i = 0; i < queries.count; i++) {
    const query_line *q = &queries.items[i];
    double query_radius = q->has_radius ? q->radius : radius;
    if (i == 0) {
      first_radius = max_radius = query_radius;
    }
    several_radii = several_radii || query_radius != first_radius;
    max_radius = fmax(max_radius, query_radius);
  }
  if (several_radii && (engine == ARCNAV_ENGINE_AUTO || engine == ARCNAV_ENGINE_TANGENT ||
                        engine == ARCNAV_ENGINE_INTERVAL)) {
    double planner_radius = radius_known ? radius : first_radius;
    cache.max_radius = fmax(max_radius, planner_radius);
    cache.queries_file = queries_file;
    if (cache_get(&cache, &session, planner_radius, engine, &diag) == NULL) {
      goto done;
    }
  }
  // The planners are built (or, for one planner of several radii, every radius is set once) before
  // anything is printed (as many as the cache holds), so that a radius the engine cannot answer
  // leaves standard output empty.
  for (size_t i = 0; i < queries.count; i++) {
    const query_line *q = &queries.items[i];
    double query_radius = q->has_radius ? q->radius : radius;
    if (cache.count == PLANNER_CACHE && !cache_has(&cache, query_radius)) {
      break;
    }
    if (cache_get(&cache, &session, query_radius, engine, &diag) == NULL) {
      goto done;
    }
  }
  an_cli_map_print_warnings(&session.geometry);
  size_t found = 0, expanded_sum = 0;
  double length_sum = 0;
  for (size_t i = 0; i < queries.count; i++) {
    const query_line *q = &queries.items[i];
    double query_radius = q->has_radius ? q->radius : radius;
    cached_planner *item = cache_get(&cache, &session, query_radius, engine, &diag);
    if (item == NULL) {
      goto done;
    }
    double start = an_cli_now_us();
    arcnav_status status = arcnav_find_path(item->query, q->from, q->to, session.path);
    micros[i] = an_cli_now_us() - start;
    if (!arcnav_status_is_answer(status)) {
      an_cli_diag_set(&diag, "%s:%d: query %zu failed: %s (%s)", queries_file, q->line, i,
                      arcnav_status_message(status), arcnav_status_name(status));
      goto done;
    }
    arcnav_query_stats stats = arcnav_query_get_stats(item->query);
    expanded_sum += stats.nodes_expanded;
    if (status == ARCNAV_OK) {
      found++;
      length_sum += arcnav_path_length(session.path);
    }
    printf("{\"query\":%zu,", i);
    an_cli_path_json_members(stdout, status, query_radius, session.path, false);
    printf(",\"micros\":%.3f,\"nodes_expanded\":%zu}\n", micros[i], stats.nodes_expanded);
  }
  summary(stdout, &cache, micros, queries.count, found, length_sum, expanded_sum);
  exit_code = AN_CLI_EXIT_OK;
done:
  if (exit_code != AN_CLI_EXIT_OK) {
    an_cli_diag_print(&diag);
  }
  cache_free(&cache);
  free(micros);
  free(queries.items);
  an_cli_session_free(&session);
  return exit_code;
}
