// SPDX-License-Identifier: MIT
// arcnav benchmark: named scenarios, each a generated map (seeded, so anyone can regenerate it), an
// agent radius R and random queries whose ends keep R from every obstacle. Every scenario runs the
// same queries through six engines side by side:
//   plain-raw      plain funnel on the raw obstacles (an R = 0 planner): what a navmesh built for a
//                  point agent returns;
//   plain-eroded   plain funnel on the obstacles grown by R with polygonal corners (Detour on an
//                  eroded navmesh);
//   funnel-eroded  optimal funnel on the same grown obstacles;
//   exact-on-demand the tangent engine finding tangents per query (ARCNAV_TANGENT_GRAPH_ON_DEMAND),
//                  run by default where it is meant to be used: NEERC cases and the mixed maps;
//   exact          the tangent engine at R as a user gets it by default (AUTO): the shortest path
//                  for the disk;
//   exact-interval the interval engine (ARCNAV_ENGINE_INTERVAL): exact for any R > 0 with nothing
//                  built per radius, here built for the scenario's one radius. It runs by default
//                  on every scenario at R > 0 but the NEERC cases (a fresh build per case is not
//                  what it is for); at R = 0 it is AUTO's point engine, the optimal funnel on
//                  polygon maps, so it runs there only when named or with --all.
// For each: build time, peak heap during the build and bytes held (a counting allocator sees every
// allocation), query median and 90th percentile, nodes expanded, paths found, mean length and the
// ratio to the exact length on the queries every engine answered, and clearance: the share of
// paths that come closer than R to an obstacle, and the smallest distance found as a fraction of
// R. Clearance is measured by the support library's independent signed distance on dense samples
// of each path, never by the planner. Times are the minimum over --repeat runs.
//
// Game scenarios (--game) run the MovingAI maps (../shared/data/movingai, or --movingai DIR),
// traced into polygons by the command-line tool's own reader, with the queries of the maps' .scen
// files. There clearance is measured on the grid itself: the distance to the nearest blocked cell.
// --radii MAP builds one map at R = 0, 0.5, 2 and 8 and prints what each build costs, then builds
// one planner for every radius up to 8 (max_radius) and asks it the same queries, once with AUTO
// and once with the interval engine.
// --probes MAP times the probes of the free space (clearance, raycast, nearest free point) there.
// --sliced MAP times its queries whole and as sliced searches, and their longest slice.
//
//   arcnav_bench --list
//   arcnav_bench [--scenario NAME]... [--engine NAME]... [--all] [--game] [--quick] [--repeat N]
//                [--passes] [--queries N] [--movingai DIR] [--csv FILE] [--svg FILE]
//   arcnav_bench --radii MAP [--movingai DIR] [--queries N]
//   arcnav_bench --living MAP [--movingai DIR] [--queries N] [--repeat N]
//   arcnav_bench --probes MAP [--movingai DIR] [--queries N] [--repeat N]
//   arcnav_bench --sliced MAP [--movingai DIR] [--queries N] [--repeat N]

#define _POSIX_C_SOURCE 200809L // clock_gettime

#include "arcnav/arcnav.h"
#include "mapgen.h"
#include "mesh/navmesh.h"
#include "verify.h"
#ifdef ARCNAV_BENCH_MOVINGAI
#include "grid_map.h"
#include "map_file.h"
#endif

#include <math.h>
#include <stdalign.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

// ---- scenarios ---------------------------------------------------------------------------------

typedef enum scenario_kind { KIND_MAP, KIND_NEERC, KIND_GAME } scenario_kind;

typedef struct scenario {
  const char *name;
  const char *description;
  scenario_kind kind;
  sup_map (*generate)(void);
  double radius; ///< map scenarios; NEERC cases carry their own
  bool slow;     ///< left out unless named or --all: the exact build takes minutes
  /// exact-on-demand runs here unless engines are named: the scenarios it is made for (single
  /// queries, large open maps). Elsewhere, in mazes above all, it is far slower than prebuilt and
  /// runs only with --all or --engine exact-on-demand.
  bool on_demand;
  /// game scenarios: the MovingAI map (file stem); they run only when named, with --game or --all
  const char *game_map;
} scenario;

static sup_map rect300(void) {
  return sup_gen_random_rectangles(1, 300, 2000.0, 10.0, 80.0);
}
// Mixed maps keep the density of 10,000 obstacles in 20,000 x 20,000: world = 200 * sqrt(count).
static sup_map mixed100(void) {
  return sup_gen_mixed(1, 100, 2000.0, 4.0);
}
static sup_map mixed1000(void) {
  return sup_gen_mixed(1, 1000, 200.0 * sqrt(1000.0), 4.0);
}
static sup_map mixed10000(void) {
  return sup_gen_mixed(1, 10000, 20000.0, 4.0);
}
static sup_map maze(void) {
  return sup_gen_maze(1, 25, 80.0, 8.0);
}
static sup_map town(void) {
  return sup_gen_town(1, 8, 200.0, 40.0, 7.2, 8.8);
}

// MovingAI game maps at R = 0, 0.5 and 2: not in the default run (the maps live outside the
// repository). exact-on-demand is left out unless named: exact (AUTO) already finds tangents on
// demand on every map above 4000 corners.
#define GAME(stem, what, r, r_text)                                                                \
  { stem "-r" r_text, stem ".map (" what "), R = " r_text, KIND_GAME, NULL, r, false, false, stem }

static const scenario SCENARIOS[] = {
    {"neerc-worst", "NEERC 2006 D: 30 rectangles, R 1..28, one query per case, fresh build each",
     KIND_NEERC, NULL, 0.0, false, true, NULL},
    {"rect300-r0", "300 random rectangles 10..80 in 2000x2000, point agent", KIND_MAP, rect300, 0.0,
     false, false, NULL},
    {"rect300-r4", "the same map, R = 4", KIND_MAP, rect300, 4.0, false, false, NULL},
    {"rect300-r20", "the same map, large agent (R = 20)", KIND_MAP, rect300, 20.0, false, false,
     NULL},
    {"mixed100-r4", "100 convex/star polygons, holes, circles in 2000x2000, R = 4", KIND_MAP,
     mixed100, 4.0, false, true, NULL},
    {"mixed1000-r4", "1000 of them in 6325x6325 (same density), R = 4", KIND_MAP, mixed1000, 4.0,
     false, true, NULL},
    {"mixed10000-r4", "10000 of them in 20000x20000, R = 4 (slow exact build)", KIND_MAP,
     mixed10000, 4.0, true, true, NULL},
    {"maze-r4", "25x25 maze, corridors 72 wide, walls 8 thick, R = 4", KIND_MAP, maze, 4.0, false,
     false, NULL},
    {"maze-r24", "the same maze, R = 24", KIND_MAP, maze, 24.0, false, false, NULL},
    {"town-r4", "8x8 blocks of 4 buildings, streets 40, alleys 7.2..8.8 (2R +-10%), R = 4",
     KIND_MAP, town, 4.0, false, false, NULL},
    GAME("arena2", "Dragon Age: Origins, 281x209", 0.0, "0"),
    GAME("arena2", "Dragon Age: Origins, 281x209", 0.5, "0.5"),
    GAME("arena2", "Dragon Age: Origins, 281x209", 2.0, "2"),
    GAME("orz103d", "Dragon Age: Origins, 463x456", 0.0, "0"),
    GAME("orz103d", "Dragon Age: Origins, 463x456", 0.5, "0.5"),
    GAME("orz103d", "Dragon Age: Origins, 463x456", 2.0, "2"),
    GAME("ca_cave", "Dragon Age 2, 183x277", 0.0, "0"),
    GAME("ca_cave", "Dragon Age 2, 183x277", 0.5, "0.5"),
    GAME("ca_cave", "Dragon Age 2, 183x277", 2.0, "2"),
    GAME("Archipelago", "StarCraft, 512x512", 0.0, "0"),
    GAME("Archipelago", "StarCraft, 512x512", 0.5, "0.5"),
    GAME("Archipelago", "StarCraft, 512x512", 2.0, "2"),
    GAME("Expedition", "StarCraft, 1024x1024", 0.0, "0"),
    GAME("Expedition", "StarCraft, 1024x1024", 0.5, "0.5"),
    GAME("Expedition", "StarCraft, 1024x1024", 2.0, "2"),
    GAME("AR0300SR", "Baldur's Gate II, 512x512", 0.0, "0"),
    GAME("AR0300SR", "Baldur's Gate II, 512x512", 0.5, "0.5"),
    GAME("AR0300SR", "Baldur's Gate II, 512x512", 2.0, "2"),
};
#define SCENARIO_COUNT (sizeof SCENARIOS / sizeof SCENARIOS[0])

/// The largest radius of the one planner for every radius (def.max_radius): exact-ranged, and
/// the groups of --radii.
#define RADII_MAX 8.0

typedef struct engine_spec {
  const char *name;
  const char *colour; ///< for the chart
  arcnav_engine engine;
  bool raw; ///< planned for a point on the raw obstacles, whatever R is
  arcnav_tangent_graph tangent_graph;
  /// Above 0: one planner for every radius up to this (or the scenario's, when larger), its
  /// query object set to the scenario's radius.
  double max_radius;
} engine_spec;

// "exact" is what a user gets by default (the graph prebuilt on small maps, found on demand on
// large ones); "exact-on-demand" always finds tangents per query, as a map answering few queries
// would choose; "exact-interval" searches intervals of the polygons' triangulation per query and
// builds nothing per radius (a single-radius planner here; --radii also builds it for every
// radius up to 8). "exact-ranged" is AUTO's one planner for every radius up to 8, asked at the
// scenario's radius: the structure a game with units of several sizes keeps. Each comes after the
// others so that their rows and CSV lines keep their order.
static const engine_spec ENGINES[] = {
    {"plain-raw", "#d95f02", ARCNAV_ENGINE_PLAIN_FUNNEL, true, ARCNAV_TANGENT_GRAPH_AUTO, 0.0},
    {"plain-eroded", "#e6ab02", ARCNAV_ENGINE_PLAIN_FUNNEL, false, ARCNAV_TANGENT_GRAPH_AUTO, 0.0},
    {"funnel-eroded", "#7570b3", ARCNAV_ENGINE_FUNNEL, false, ARCNAV_TANGENT_GRAPH_AUTO, 0.0},
    {"exact-on-demand", "#66a61e", ARCNAV_ENGINE_TANGENT, false, ARCNAV_TANGENT_GRAPH_ON_DEMAND,
     0.0},
    {"exact", "#1b9e77", ARCNAV_ENGINE_TANGENT, false, ARCNAV_TANGENT_GRAPH_AUTO, 0.0},
    {"exact-interval", "#e7298a", ARCNAV_ENGINE_INTERVAL, false, ARCNAV_TANGENT_GRAPH_AUTO, 0.0},
    {"exact-ranged", "#a6761d", ARCNAV_ENGINE_AUTO, false, ARCNAV_TANGENT_GRAPH_AUTO, RADII_MAX},
};
#define ENGINE_COUNT (sizeof ENGINES / sizeof ENGINES[0])
#define ON_DEMAND 3
#define EXACT 4
#define INTERVAL 5
#define RANGED 6
_Static_assert(ENGINE_COUNT == RANGED + 1, "the engine indexes follow ENGINES");

/// Whether exact-interval runs on a scenario when no engine is named and --all is not given:
/// wherever R > 0 but the NEERC cases (at R = 0 it is AUTO's point engine, which funnel-eroded
/// already shows on polygon maps).
static bool interval_by_default(const scenario *s) {
  return s->kind != KIND_NEERC && s->radius > 0.0;
}

/// The planner an engine of ENGINES is for a scenario of radius R.
static arcnav_planner_def engine_def(const engine_spec *spec, double radius) {
  arcnav_planner_def def = arcnav_default_planner_def();
  def.radius = spec->raw ? 0.0 : radius;
  def.engine = spec->engine;
  def.tangent_graph = spec->tangent_graph;
  def.max_radius = spec->max_radius > 0.0 ? fmax(spec->max_radius, radius) : 0.0;
  return def;
}

// ---- counting allocator ------------------------------------------------------------------------

typedef struct counter {
  size_t current, peak;
} counter;

// Each block carries its size in front, padded to keep the caller's block aligned for any type.
#define HEADER (alignof(max_align_t) > sizeof(size_t) ? alignof(max_align_t) : sizeof(size_t))

static void *count_alloc(size_t size, void *user) {
  counter *c = user;
  unsigned char *block = malloc(size + HEADER);
  if (!block) {
    return NULL;
  }
  memcpy(block, &size, sizeof size);
  c->current += size;
  c->peak = c->current > c->peak ? c->current : c->peak;
  return block + HEADER;
}

static void count_free(void *ptr, void *user) {
  counter *c = user;
  unsigned char *block = (unsigned char *)ptr - HEADER;
  size_t size;
  memcpy(&size, block, sizeof size);
  c->current -= size;
  free(block);
}

// ---- helpers -----------------------------------------------------------------------------------

static double seconds_now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int compare_doubles(const void *lhs, const void *rhs) {
  double a = *(const double *)lhs, b = *(const double *)rhs;
  return (a > b) - (a < b);
}

static double percentile(double *sorted, size_t n, double p) {
  if (n == 0) {
    return 0.0;
  }
  size_t index = (size_t)(p * (double)(n - 1) + 0.5);
  return sorted[index < n ? index : n - 1];
}

static void *xcalloc(size_t count, size_t size) {
  void *p = calloc(count ? count : 1, size);
  if (!p) {
    fprintf(stderr, "arcnav_bench: out of memory\n");
    exit(3);
  }
  return p;
}

/// Median, 90th and 99th percentile of `n` query times (the times stay as they are).
static void time_percentiles(const double *times, size_t n, double *median, double *p90,
                             double *p99) {
  double *sorted = xcalloc(n, sizeof *sorted);
  memcpy(sorted, times, n * sizeof *sorted);
  qsort(sorted, n, sizeof *sorted, compare_doubles);
  *median = percentile(sorted, n, 0.5);
  *p90 = percentile(sorted, n, 0.9);
  *p99 = percentile(sorted, n, 0.99);
  free(sorted);
}

static arcnav_status to_arcnav(const sup_map *m, const arcnav_allocator *allocator,
                               arcnav_map **out) {
  arcnav_status st = arcnav_map_create(allocator, out);
  for (size_t i = 0; st == ARCNAV_OK && i < m->polygon_count; ++i) {
    const sup_polygon *p = &m->polygons[i];
    const arcnav_vec2 **holes = xcalloc(p->hole_count, sizeof *holes);
    size_t *counts = xcalloc(p->hole_count, sizeof *counts);
    for (size_t h = 0; h < p->hole_count; ++h) {
      holes[h] = p->holes[h].points;
      counts[h] = p->holes[h].count;
    }
    st = arcnav_map_add_polygon(*out, p->outer.points, p->outer.count,
                                (const arcnav_vec2 *const *)holes, counts, p->hole_count, NULL);
    free(holes);
    free(counts);
  }
  for (size_t i = 0; st == ARCNAV_OK && i < m->circle_count; ++i) {
    st = arcnav_map_add_circle(*out, m->circles[i].center, m->circles[i].radius, NULL);
  }
  if (st == ARCNAV_OK && m->has_bounds) {
    st = arcnav_map_set_bounds(*out, m->bounds.points, m->bounds.count, NULL);
  }
  if (st != ARCNAV_OK) {
    arcnav_map_destroy(*out);
    *out = NULL;
  }
  return st;
}

// ---- independent clearance measurement ---------------------------------------------------------

// A bucket grid over the generated obstacles so that the support library's brute-force signed
// distance only sees the obstacles that can come within `reach` of a sample: each cell lists the
// obstacles whose box, grown by reach, meets it, and a sample is measured against a view of the
// map holding just those (plus the bounds). Farther obstacles cannot change a distance below reach.
typedef struct near_index {
  const sup_map *map;
  double reach, x0, y0, cell;
  size_t cols, rows;
  size_t *start; ///< cols * rows + 1 offsets into items
  size_t *items; ///< polygon index, or polygon_count + circle index
  sup_map view;  ///< shallow copies of the listed obstacles; never freed through sup_map_free
} near_index;

static void obstacle_box(const sup_map *m, size_t item, double box[4]) {
  if (item >= m->polygon_count) {
    const sup_circle *c = &m->circles[item - m->polygon_count];
    box[0] = c->center.x - c->radius, box[1] = c->center.y - c->radius;
    box[2] = c->center.x + c->radius, box[3] = c->center.y + c->radius;
    return;
  }
  const sup_ring *r = &m->polygons[item].outer;
  box[0] = box[1] = INFINITY;
  box[2] = box[3] = -INFINITY;
  for (size_t k = 0; k < r->count; ++k) {
    box[0] = fmin(box[0], r->points[k].x), box[1] = fmin(box[1], r->points[k].y);
    box[2] = fmax(box[2], r->points[k].x), box[3] = fmax(box[3], r->points[k].y);
  }
}

static size_t clamp_cell(double v, size_t n) {
  return v <= 0.0 ? 0 : v >= (double)(n - 1) ? n - 1 : (size_t)v;
}

static void near_index_build(near_index *ix, const sup_map *m, double reach) {
  memset(ix, 0, sizeof *ix);
  ix->map = m;
  ix->reach = reach;
  arcnav_vec2 lo, hi;
  if (!sup_map_extent(m, &lo, &hi)) {
    lo = hi = (arcnav_vec2){0, 0};
  }
  size_t count = m->polygon_count + m->circle_count;
  double w = fmax(hi.x - lo.x, 1.0), h = fmax(hi.y - lo.y, 1.0);
  ix->cell = fmax(sqrt(w * h / (double)(count ? count : 1)), 2.0 * reach + 1e-9);
  ix->x0 = lo.x, ix->y0 = lo.y;
  ix->cols = (size_t)(w / ix->cell) + 1, ix->rows = (size_t)(h / ix->cell) + 1;
  ix->start = xcalloc(ix->cols * ix->rows + 1, sizeof *ix->start);
  for (int pass = 0; pass < 2; ++pass) {
    for (size_t item = 0; item < count; ++item) {
      double b[4];
      obstacle_box(m, item, b);
      size_t c0 = clamp_cell((b[0] - reach - ix->x0) / ix->cell, ix->cols);
      size_t c1 = clamp_cell((b[2] + reach - ix->x0) / ix->cell, ix->cols);
      size_t r0 = clamp_cell((b[1] - reach - ix->y0) / ix->cell, ix->rows);
      size_t r1 = clamp_cell((b[3] + reach - ix->y0) / ix->cell, ix->rows);
      for (size_t r = r0; r <= r1; ++r) {
        for (size_t c = c0; c <= c1; ++c) {
          if (pass == 0) {
            ix->start[r * ix->cols + c + 1]++;
          } else {
            ix->items[ix->start[r * ix->cols + c]++] = item;
          }
        }
      }
    }
    size_t cells = ix->cols * ix->rows;
    if (pass == 0) {
      for (size_t c = 0; c < cells; ++c) {
        ix->start[c + 1] += ix->start[c];
      }
      ix->items = xcalloc(ix->start[cells], sizeof *ix->items);
    } else {
      for (size_t c = cells; c > 0; --c) {
        ix->start[c] = ix->start[c - 1];
      }
      ix->start[0] = 0;
    }
  }
  size_t most = 0;
  for (size_t c = 0; c < ix->cols * ix->rows; ++c) {
    size_t n = ix->start[c + 1] - ix->start[c];
    most = n > most ? n : most;
  }
  ix->view.polygons = xcalloc(most, sizeof *ix->view.polygons);
  ix->view.circles = xcalloc(most, sizeof *ix->view.circles);
  ix->view.has_bounds = m->has_bounds;
  ix->view.bounds = m->bounds;
}

static void near_index_free(near_index *ix) {
  free(ix->start);
  free(ix->items);
  free(ix->view.polygons);
  free(ix->view.circles);
}

/// Signed distance from p to the obstacles, exact below reach (larger values are only bounds).
static double near_distance(near_index *ix, arcnav_vec2 p) {
  size_t c = clamp_cell((p.x - ix->x0) / ix->cell, ix->cols);
  size_t r = clamp_cell((p.y - ix->y0) / ix->cell, ix->rows);
  size_t cell = r * ix->cols + c;
  ix->view.polygon_count = ix->view.circle_count = 0;
  for (size_t k = ix->start[cell]; k < ix->start[cell + 1]; ++k) {
    size_t item = ix->items[k];
    if (item < ix->map->polygon_count) {
      ix->view.polygons[ix->view.polygon_count++] = ix->map->polygons[item];
    } else {
      ix->view.circles[ix->view.circle_count++] = ix->map->circles[item - ix->map->polygon_count];
    }
  }
  if (ix->view.polygon_count == 0 && ix->view.circle_count == 0 && !ix->view.has_bounds) {
    return INFINITY;
  }
  return sup_signed_distance_to_obstacles(&ix->view, p);
}

/// A grid map as blocked cells: cell (x, y) covers [x, x+1] x [y, y+1], the outside is blocked.
typedef struct cell_grid {
  int width, height;
  unsigned char *blocked; ///< width * height bytes, row y at y * width; 1 blocked
} cell_grid;

static bool cell_blocked(const cell_grid *g, long x, long y) {
  return x < 0 || y < 0 || x >= g->width || y >= g->height ||
         g->blocked[(size_t)y * (size_t)g->width + (size_t)x];
}

static double square_distance(arcnav_vec2 p, long x, long y) {
  double dx = fmax(fmax((double)x - p.x, p.x - (double)(x + 1)), 0.0);
  double dy = fmax(fmax((double)y - p.y, p.y - (double)(y + 1)), 0.0);
  return hypot(dx, dy);
}

/// Signed distance from p to the blocked cells measured on the grid itself (independently of the
/// traced polygons), exact below reach: positive in free space, negative inside blocked cells.
static double grid_distance(const cell_grid *g, arcnav_vec2 p, double reach) {
  long x0 = (long)floor(p.x - reach), x1 = (long)floor(p.x + reach);
  long y0 = (long)floor(p.y - reach), y1 = (long)floor(p.y + reach);
  double to_blocked = INFINITY, to_free = INFINITY;
  for (long y = y0; y <= y1; ++y) {
    for (long x = x0; x <= x1; ++x) {
      double d = square_distance(p, x, y);
      if (cell_blocked(g, x, y)) {
        to_blocked = fmin(to_blocked, d);
      } else {
        to_free = fmin(to_free, d);
      }
    }
  }
  if (to_blocked > 0.0) {
    return to_blocked; // INFINITY: nothing blocked within reach
  }
  return isfinite(to_free) ? -to_free : -reach;
}

/// Where clearance is measured: the grid of a game map, else the generated obstacles.
typedef struct clearance_probe {
  near_index *ix;
  const cell_grid *grid;
  double reach;
} clearance_probe;

static double probe_distance(clearance_probe *probe, arcnav_vec2 p) {
  return probe->grid ? grid_distance(probe->grid, p, probe->reach) : near_distance(probe->ix, p);
}

/// Smallest signed distance to the obstacles over dense samples of the path.
static double path_clearance(clearance_probe *probe, const arcnav_path *path, double spacing,
                             arcnav_vec2 **buffer, size_t *capacity) {
  size_t n = 0;
  (void)arcnav_path_sample(path, spacing, NULL, 0, &n);
  if (n > *capacity) {
    free(*buffer);
    *capacity = n;
    *buffer = xcalloc(n, sizeof **buffer);
  }
  if (arcnav_path_sample(path, spacing, *buffer, *capacity, &n) != ARCNAV_OK) {
    return NAN;
  }
  double worst = INFINITY;
  for (size_t i = 0; i < n; ++i) {
    worst = fmin(worst, probe_distance(probe, (*buffer)[i]));
  }
  return worst;
}

// ---- running -----------------------------------------------------------------------------------

typedef struct engine_result {
  double build_ms_sum;
  size_t builds;
  size_t peak_bytes; ///< largest heap growth during one build
  size_t held_bytes; ///< planner plus one query's scratch, largest over the builds
  double *times;     ///< per query, microseconds
  double *length;    ///< per query, NAN when not found
  double *clearance; ///< per query, smallest signed distance along the path (NAN when not found)
  double nodes_sum;
  size_t found;
  size_t blocked; ///< start_blocked or goal_blocked answers
} engine_result;

typedef struct scenario_result {
  size_t obstacles;
  size_t queries;
  double radius_min, radius_max;
  double *radius; ///< per query (NEERC cases differ)
  engine_result engines[ENGINE_COUNT];
  size_t vertices; ///< game maps: polygon vertices of the traced map
  size_t skipped;  ///< game maps: .scen queries left out, an end not free for R
} scenario_result;

typedef struct options {
  int repeat;
  /// Time the scenarios' queries pass by pass (each once a pass, the fastest of --repeat passes)
  /// instead of each --repeat times in a row: no query follows itself, so a query object's caches
  /// and the processor's hold only what the queries before it left.
  bool passes;
  size_t query_count;
  bool skip[ENGINE_COUNT]; ///< engines left out with --engine
  const char *movingai;    ///< directory of the MovingAI maps
} options;

static void result_init(scenario_result *res, size_t queries) {
  memset(res, 0, sizeof *res);
  res->queries = queries;
  res->radius_min = INFINITY;
  res->radius_max = -INFINITY;
  res->radius = xcalloc(queries, sizeof(double));
  for (size_t e = 0; e < ENGINE_COUNT; ++e) {
    res->engines[e].times = xcalloc(queries, sizeof(double));
    res->engines[e].length = xcalloc(queries, sizeof(double));
    res->engines[e].clearance = xcalloc(queries, sizeof(double));
  }
}

static void result_free(scenario_result *res) {
  free(res->radius);
  for (size_t e = 0; e < ENGINE_COUNT; ++e) {
    free(res->engines[e].times);
    free(res->engines[e].length);
    free(res->engines[e].clearance);
  }
}

/// One map at one radius: every engine builds (timed, memory counted) and answers queries
/// [first, first + count) of ends into the result's per-query slots.
/// A game map's `grid` measures clearance instead of the polygons (NULL for generated maps).
static bool run_case(const char *label, const sup_map *generated, const cell_grid *grid,
                     double radius, const arcnav_vec2 *ends, size_t first, size_t count,
                     const options *opt, scenario_result *res, bool verbose) {
  counter mem = {0, 0};
  arcnav_allocator allocator = {count_alloc, count_free, &mem};
  arcnav_map *map = NULL;
  arcnav_status st = to_arcnav(generated, &allocator, &map);
  if (st != ARCNAV_OK) {
    fprintf(stderr, "arcnav_bench: %s: map: %s\n", label, arcnav_status_name(st));
    return false;
  }
  arcnav_vec2 lo, hi;
  sup_map_extent(generated, &lo, &hi);
  double extent = fmax(hi.x - lo.x, hi.y - lo.y);
  double spacing = radius > 0.0 ? radius / 8.0 : extent / 4000.0;
  near_index ix;
  memset(&ix, 0, sizeof ix);
  if (!grid) {
    near_index_build(&ix, generated, radius + 4.0 * spacing);
  }
  clearance_probe probe = {&ix, grid, radius + 4.0 * spacing};
  arcnav_vec2 *samples = NULL;
  size_t sample_capacity = 0;
  arcnav_path *path = NULL;
  arcnav_path_create(NULL, &path);
  res->radius_min = fmin(res->radius_min, radius);
  res->radius_max = fmax(res->radius_max, radius);
  for (size_t q = first; q < first + count; ++q) {
    res->radius[q] = radius;
  }
  bool ok = true;
  for (size_t e = 0; e < ENGINE_COUNT && ok; ++e) {
    engine_result *er = &res->engines[e];
    if (opt->skip[e]) {
      for (size_t q = first; q < first + count; ++q) {
        er->length[q] = er->clearance[q] = NAN;
      }
      continue;
    }
    arcnav_planner_def def = engine_def(&ENGINES[e], radius);
    arcnav_planner *planner = NULL;
    double best_ms = INFINITY;
    size_t peak = 0, held = 0;
    for (int r = 0; r < opt->repeat; ++r) {
      arcnav_planner_destroy(planner);
      planner = NULL;
      if (verbose) {
        fprintf(stderr, "  %s: %s: building%s...", label, ENGINES[e].name, r > 0 ? " again" : "");
        fflush(stderr);
      }
      size_t base = mem.current;
      mem.peak = base;
      double t0 = seconds_now();
      st = arcnav_planner_create(map, &def, &planner);
      double ms = (seconds_now() - t0) * 1e3;
      if (verbose) {
        fprintf(stderr, " %.1f ms\n", ms);
      }
      if (st != ARCNAV_OK) {
        fprintf(stderr, "arcnav_bench: %s: %s: planner: %s\n", label, ENGINES[e].name,
                arcnav_status_name(st));
        ok = false;
        break;
      }
      best_ms = fmin(best_ms, ms);
      peak = mem.peak - base;
      held = mem.current - base;
      if (ms > 1000.0) {
        break; // a slow build is timed once
      }
    }
    if (!ok) {
      break;
    }
    arcnav_query *query = NULL;
    size_t before_query = mem.current;
    if (arcnav_query_create(planner, &query) != ARCNAV_OK ||
        arcnav_query_set_radius(query, def.radius) != ARCNAV_OK) {
      fprintf(stderr, "arcnav_bench: %s: query scratch\n", label);
      arcnav_planner_destroy(planner);
      ok = false;
      break;
    }
    held += mem.current - before_query;
    er->build_ms_sum += best_ms;
    er->builds++;
    er->peak_bytes = peak > er->peak_bytes ? peak : er->peak_bytes;
    er->held_bytes = held > er->held_bytes ? held : er->held_bytes;
    double progress_at = seconds_now() + 5.0;
    // --passes: every pass but the last, then the last with the figures below.
    for (int r = 0; opt->passes && r + 1 < opt->repeat; ++r) {
      for (size_t q = first; q < first + count; ++q) {
        double t0 = seconds_now();
        arcnav_find_path(query, ends[2 * q], ends[2 * q + 1], path);
        er->times[q] = fmin(r == 0 ? INFINITY : er->times[q], (seconds_now() - t0) * 1e6);
      }
    }
    for (size_t q = first; q < first + count; ++q) {
      arcnav_vec2 a = ends[2 * q], b = ends[2 * q + 1];
      double best = opt->passes && opt->repeat > 1 ? er->times[q] : INFINITY;
      for (int r = 0; r < (opt->passes ? 1 : opt->repeat); ++r) {
        double t0 = seconds_now();
        st = arcnav_find_path(query, a, b, path);
        best = fmin(best, (seconds_now() - t0) * 1e6);
      }
      er->times[q] = best;
      er->nodes_sum += (double)arcnav_query_get_stats(query).nodes_expanded;
      er->length[q] = NAN;
      er->clearance[q] = NAN;
      if (st == ARCNAV_START_BLOCKED || st == ARCNAV_GOAL_BLOCKED) {
        er->blocked++;
      }
      if (st == ARCNAV_OK) {
        er->found++;
        er->length[q] = arcnav_path_length(path);
        er->clearance[q] = path_clearance(&probe, path, spacing, &samples, &sample_capacity);
      }
      if (verbose && seconds_now() > progress_at) {
        fprintf(stderr, "  %s: %s: query %zu of %zu\n", label, ENGINES[e].name, q - first + 1,
                count);
        progress_at = seconds_now() + 5.0;
      }
    }
    arcnav_query_destroy(query);
    arcnav_planner_destroy(planner);
  }
  arcnav_path_destroy(path);
  free(samples);
  near_index_free(&ix);
  arcnav_map_destroy(map);
  return ok;
}

static bool run_map(const scenario *s, const options *opt, scenario_result *res) {
  sup_map generated = s->generate();
  arcnav_vec2 lo, hi;
  sup_map_extent(&generated, &lo, &hi);
  arcnav_vec2 *ends = xcalloc(2 * opt->query_count, sizeof *ends);
  sup_rng rng = sup_rng_seed(7);
  size_t n = 0;
  while (n < opt->query_count &&
         sup_random_free_point(&generated, s->radius, &rng, lo, hi, 0.0, 10000, &ends[2 * n]) &&
         sup_random_free_point(&generated, s->radius, &rng, lo, hi, 0.0, 10000, &ends[2 * n + 1])) {
    ++n;
  }
  result_init(res, n);
  res->obstacles = generated.polygon_count + generated.circle_count;
  bool ok = run_case(s->name, &generated, NULL, s->radius, ends, 0, n, opt, res, true);
  free(ends);
  sup_map_free(&generated);
  return ok;
}

// NEERC cases: each one a fresh map and radius with a single query, as a judge would run them.
static bool run_neerc(const options *opt, scenario_result *res) {
  size_t cases = opt->query_count < 200 ? opt->query_count : 200;
  result_init(res, cases);
  res->obstacles = 30;
  arcnav_vec2 *ends = xcalloc(2 * cases, sizeof *ends);
  bool ok = true;
  for (size_t c = 0; c < cases && ok; ++c) {
    sup_map generated = sup_gen_neerc_worst(100 + c);
    sup_rng rng = sup_rng_seed(300 + c);
    double radius = 1.0 + (double)(c % 10) * 3.0;
    arcnav_vec2 lo = {-1000, -1000}, hi = {1000, 1000};
    if (sup_random_free_point(&generated, radius, &rng, lo, hi, 0.0, 10000, &ends[2 * c]) &&
        sup_random_free_point(&generated, radius, &rng, lo, hi, 0.0, 10000, &ends[2 * c + 1])) {
      char label[64];
      snprintf(label, sizeof label, "neerc case %zu", c);
      ok = run_case(label, &generated, NULL, radius, ends, c, 1, opt, res, false);
    } else {
      for (size_t e = 0; e < ENGINE_COUNT; ++e) {
        res->engines[e].length[c] = res->engines[e].clearance[c] = NAN;
      }
    }
    sup_map_free(&generated);
  }
  free(ends);
  return ok;
}

// ---- game maps (MovingAI) ----------------------------------------------------------------------

/// A MovingAI map traced into polygons by the command-line tool's reader, with its grid.
typedef struct game_map {
  sup_map map; ///< traced obstacles, bounds [0, W] x [0, H]
  cell_grid grid;
  size_t vertices;
} game_map;

static void game_map_free(game_map *g) {
  sup_map_free(&g->map);
  free(g->grid.blocked);
  memset(g, 0, sizeof *g);
}

/// Load DIR/STEM.map. False with the reason in `why` when it is missing or unreadable.
static bool game_map_load(const char *dir, const char *stem, game_map *out, char *why,
                          size_t why_size) {
  memset(out, 0, sizeof *out);
#ifdef ARCNAV_BENCH_MOVINGAI
  char path[1024];
  snprintf(path, sizeof path, "%s/%s.map", dir, stem);
  an_cli_diag diag;
  char *text = NULL;
  size_t length = 0;
  an_cli_grid grid;
  if (!an_cli_read_file(path, &text, &length, &diag) ||
      !an_cli_grid_parse(path, text, length, &grid, &diag)) {
    free(text);
    snprintf(why, why_size, "%s", diag.message);
    return false;
  }
  free(text);
  an_cli_map traced;
  an_cli_map_init(&traced, path);
  traced.grid = true;
  if (!an_cli_grid_trace(&grid, &traced, &diag)) {
    snprintf(why, why_size, "%s", diag.message);
    an_cli_map_free(&traced);
    an_cli_grid_free(&grid);
    return false;
  }
  sup_map_init(&out->map);
  for (size_t i = 0; i < traced.shape_count; ++i) {
    const an_cli_shape *shape = &traced.shapes[i];
    if (shape->kind != AN_CLI_SHAPE_POLYGON || shape->ring_count == 0) {
      continue;
    }
    // The rings as traced, each without a closing copy of its first vertex.
    size_t hole_count = shape->ring_count - 1;
    const arcnav_vec2 **holes = xcalloc(hole_count, sizeof *holes);
    size_t *counts = xcalloc(shape->ring_count, sizeof *counts);
    for (size_t r = 0; r < shape->ring_count; ++r) {
      const an_cli_ring *ring = &shape->rings[r];
      size_t n = ring->count;
      if (n > 1 && ring->points[n - 1].x == ring->points[0].x &&
          ring->points[n - 1].y == ring->points[0].y) {
        n--;
      }
      counts[r] = n;
      out->vertices += an_cli_ring_distinct_count(ring->points, ring->count);
      if (r > 0) {
        holes[r - 1] = ring->points;
      }
    }
    sup_map_add_polygon(&out->map, shape->rings[0].points, counts[0],
                        (const arcnav_vec2 *const *)holes, counts + 1, hole_count);
    free(holes);
    free(counts);
  }
  if (traced.has_bounds) {
    sup_map_set_bounds(&out->map, traced.bounds.points, traced.bounds.count);
  }
  an_cli_map_free(&traced);
  size_t cells = (size_t)grid.width * (size_t)grid.height;
  out->grid.width = grid.width;
  out->grid.height = grid.height;
  out->grid.blocked = xcalloc(cells, 1);
  memcpy(out->grid.blocked, grid.blocked, cells);
  an_cli_grid_free(&grid);
  return true;
#else
  (void)dir;
  (void)stem;
  snprintf(why, why_size, "built without the command-line tool's map reader (ARCNAV_BUILD_CLI)");
  return false;
#endif
}

/// Queries from DIR/STEM.map.scen: every stride-th line, the stride 5 or larger so that at most
/// `limit` are taken. Ends are the cell centres for R > 0 and the cell corners (x, y) as given for
/// R = 0; a query with an end not free for R (grid distance below R) is skipped. `ends` gets two
/// points per query (caller frees). False with the reason in `why` when the file is unreadable.
static bool game_queries(const char *dir, const char *stem, const cell_grid *grid, double radius,
                         size_t limit, arcnav_vec2 **ends, size_t *count, size_t *skipped,
                         size_t *lines, size_t *stride, char *why, size_t why_size) {
  char path[1024];
  snprintf(path, sizeof path, "%s/%s.map.scen", dir, stem);
  FILE *in = fopen(path, "r");
  if (!in) {
    snprintf(why, why_size, "%s: cannot open", path);
    return false;
  }
  // Two passes: count the query lines, then take every stride-th.
  char line[1024];
  size_t total = 0;
  while (fgets(line, sizeof line, in)) {
    total += strncmp(line, "version", 7) != 0 && strspn(line, " \t\r\n") < strlen(line);
  }
  *lines = total;
  *stride = limit > 0 && (total + limit - 1) / limit > 5 ? (total + limit - 1) / limit : 5;
  *ends = xcalloc(2 * (total / *stride + 1), sizeof **ends);
  *count = *skipped = 0;
  rewind(in);
  size_t index = 0;
  double offset = radius > 0.0 ? 0.5 : 0.0;
  while (fgets(line, sizeof line, in)) {
    if (strncmp(line, "version", 7) == 0 || strspn(line, " \t\r\n") == strlen(line)) {
      continue;
    }
    if (index++ % *stride != 0) {
      continue;
    }
    int bucket, width, height;
    char name[512];
    double sx, sy, gx, gy, optimal;
    if (sscanf(line, "%d %511s %d %d %lf %lf %lf %lf %lf", &bucket, name, &width, &height, &sx, &sy,
               &gx, &gy, &optimal) != 9) {
      snprintf(why, why_size, "%s: query line %zu unreadable", path, index);
      fclose(in);
      free(*ends);
      *ends = NULL;
      return false;
    }
    arcnav_vec2 a = {sx + offset, sy + offset}, b = {gx + offset, gy + offset};
    double tolerance = 1e-9;
    if (grid_distance(grid, a, radius + 1.0) < radius - tolerance ||
        grid_distance(grid, b, radius + 1.0) < radius - tolerance) {
      (*skipped)++;
      continue;
    }
    (*ends)[2 * *count] = a;
    (*ends)[2 * *count + 1] = b;
    (*count)++;
  }
  fclose(in);
  return true;
}

typedef enum game_outcome { GAME_RAN, GAME_FAILED, GAME_MISSING } game_outcome;

static game_outcome run_game(const scenario *s, const options *opt, scenario_result *res) {
  char why[1200];
  game_map g;
  if (!game_map_load(opt->movingai, s->game_map, &g, why, sizeof why)) {
    fprintf(stderr, "arcnav_bench: %s: skipped, map not available: %s\n", s->name, why);
    return GAME_MISSING;
  }
  arcnav_vec2 *ends = NULL;
  size_t n = 0, skipped = 0, lines = 0, stride = 0;
  if (!game_queries(opt->movingai, s->game_map, &g.grid, s->radius, opt->query_count, &ends, &n,
                    &skipped, &lines, &stride, why, sizeof why)) {
    fprintf(stderr, "arcnav_bench: %s: skipped, scenarios not available: %s\n", s->name, why);
    game_map_free(&g);
    return GAME_MISSING;
  }
  fprintf(stderr,
          "  %s: %zu polygons, %zu vertices; %zu queries: one line in %zu of %zu in %s.map.scen, "
          "%zu skipped (an end not free for R = %g)\n",
          s->name, g.map.polygon_count, g.vertices, n, stride, lines, s->game_map, skipped,
          s->radius);
  result_init(res, n);
  res->obstacles = g.map.polygon_count;
  res->vertices = g.vertices;
  res->skipped = skipped;
  bool ok = run_case(s->name, &g.map, &g.grid, s->radius, ends, 0, n, opt, res, true);
  free(ends);
  game_map_free(&g);
  return ok ? GAME_RAN : GAME_FAILED;
}

// ---- summaries ---------------------------------------------------------------------------------

typedef struct engine_summary {
  double build_ms, peak_mb, held_mb;
  size_t found, blocked;
  double median_us, p90_us, p99_us, mean_nodes;
  double mean_length; ///< over the queries every engine answered
  double ratio_mean;  ///< length / exact length, same queries
  double ratio_max;
  size_t common;          ///< how many queries every engine answered
  double violation_share; ///< of found paths: closer than R - tolerance somewhere
  double worst_clearance; ///< smallest clearance found / R (R > 0), or smallest signed distance
} engine_summary;

/// The exact engines beside the reference (exact): on how many queries they found a path where it
/// did not or the other way round, and the largest relative difference of their lengths.
static void print_agreement(const scenario_result *res) {
  const engine_result *ex = &res->engines[EXACT];
  for (size_t e = ON_DEMAND; e < ENGINE_COUNT; ++e) {
    const engine_result *er = &res->engines[e];
    if (e == EXACT || er->builds == 0 || ex->builds == 0) {
      continue;
    }
    size_t both = 0, differ = 0;
    double worst = 0.0;
    for (size_t q = 0; q < res->queries; ++q) {
      bool found = !isnan(er->length[q]), reference = !isnan(ex->length[q]);
      differ += found != reference;
      if (found && reference && ex->length[q] > 0.0) {
        both++;
        worst = fmax(worst, fabs(er->length[q] - ex->length[q]) / ex->length[q]);
      }
    }
    printf("  %s against exact: %zu found by both, %zu found by one only, lengths within %.2g "
           "relative\n",
           ENGINES[e].name, both, differ, worst);
  }
}

static engine_summary summarise(const scenario_result *res, size_t e) {
  const engine_result *er = &res->engines[e];
  const engine_result *ex = &res->engines[EXACT];
  engine_summary s;
  memset(&s, 0, sizeof s);
  s.build_ms = er->builds ? er->build_ms_sum / (double)er->builds : 0.0;
  s.peak_mb = (double)er->peak_bytes / 1e6;
  s.held_mb = (double)er->held_bytes / 1e6;
  s.found = er->found;
  s.blocked = er->blocked;
  time_percentiles(er->times, res->queries, &s.median_us, &s.p90_us, &s.p99_us);
  s.mean_nodes = res->queries ? er->nodes_sum / (double)res->queries : 0.0;
  double length = 0.0, ratio = 0.0;
  size_t violations = 0;
  s.worst_clearance = INFINITY;
  for (size_t q = 0; q < res->queries; ++q) {
    bool everyone = true;
    for (size_t k = 0; k < ENGINE_COUNT; ++k) {
      // An engine left out of this scenario does not take part.
      everyone = everyone && (res->engines[k].builds == 0 || !isnan(res->engines[k].length[q]));
    }
    if (everyone && ex->length[q] > 0.0) {
      s.common++;
      length += er->length[q];
      ratio += er->length[q] / ex->length[q];
      s.ratio_max = fmax(s.ratio_max, er->length[q] / ex->length[q]);
    }
    if (!isnan(er->clearance[q])) {
      double radius = res->radius[q];
      double tolerance = 1e-6 * fmax(radius, 1.0);
      violations += er->clearance[q] < radius - tolerance;
      double measure = radius > 0.0 ? er->clearance[q] / radius : er->clearance[q];
      s.worst_clearance = fmin(s.worst_clearance, measure);
    }
  }
  s.mean_length = s.common ? length / (double)s.common : 0.0;
  s.ratio_mean = s.common ? ratio / (double)s.common : 0.0;
  s.violation_share = er->found ? (double)violations / (double)er->found : 0.0;
  if (!isfinite(s.worst_clearance)) {
    s.worst_clearance = res->radius_max > 0.0 ? 1.0 : 0.0;
  }
  if (res->radius_max > 0.0) {
    s.worst_clearance = fmin(s.worst_clearance, 1.0);
  }
  return s;
}

// ---- one map at several radii ------------------------------------------------------------------

/// One planner built for every radius up to RADII_MAX (def.max_radius; AUTO, or the interval
/// engine), on its own copy of the map so that its memory is counted apart from the per-radius
/// builds.
typedef struct ranged_planner {
  arcnav_engine engine; ///< def.engine: ARCNAV_ENGINE_AUTO or ARCNAV_ENGINE_INTERVAL
  const char *title;    ///< the group's name: "one planner, max_radius 8", ...
  const char *row_name; ///< its rows' planner column (15 characters at most)
  const char *note;     ///< after the title: "AUTO", ...
  counter mem;
  arcnav_allocator allocator;
  arcnav_map *map;
  arcnav_planner *planner;
  arcnav_query *query;
  double build_ms;     ///< the fastest of --repeat builds
  size_t held_bytes;   ///< planner plus its query object, as the allocator counts them
  size_t memory_bytes; ///< arcnav_planner_get_info
} ranged_planner;

/// Build the planner of `rp`, whose engine and names the caller has set (the rest is cleared).
static bool ranged_build(ranged_planner *rp, const sup_map *generated, const options *opt) {
  ranged_planner named = {
      .engine = rp->engine, .title = rp->title, .row_name = rp->row_name, .note = rp->note};
  *rp = named;
  rp->allocator = (arcnav_allocator){count_alloc, count_free, &rp->mem};
  arcnav_status st = to_arcnav(generated, &rp->allocator, &rp->map);
  arcnav_planner_def def = arcnav_default_planner_def();
  def.max_radius = RADII_MAX;
  def.engine = rp->engine;
  rp->build_ms = INFINITY;
  for (int r = 0; st == ARCNAV_OK && r < opt->repeat; ++r) {
    arcnav_planner_destroy(rp->planner);
    rp->planner = NULL;
    fprintf(stderr, "  %s: building%s...", rp->title, r > 0 ? " again" : "");
    size_t base = rp->mem.current;
    double t0 = seconds_now();
    st = arcnav_planner_create(rp->map, &def, &rp->planner);
    double ms = (seconds_now() - t0) * 1e3;
    fprintf(stderr, " %.1f ms\n", ms);
    rp->build_ms = fmin(rp->build_ms, ms);
    rp->held_bytes = rp->mem.current - base;
    if (ms > 1000.0) {
      break; // a slow build is timed once, as run_case does
    }
  }
  if (st == ARCNAV_OK) {
    size_t before_query = rp->mem.current;
    st = arcnav_query_create(rp->planner, &rp->query);
    rp->held_bytes += rp->mem.current - before_query;
  }
  if (st != ARCNAV_OK) {
    fprintf(stderr, "arcnav_bench: %s: %s\n", rp->title, arcnav_status_name(st));
    return false;
  }
  arcnav_planner_info info;
  arcnav_planner_get_info(rp->planner, &info);
  rp->memory_bytes = info.memory_bytes;
  return true;
}

static void ranged_free(ranged_planner *rp) {
  arcnav_query_destroy(rp->query);
  arcnav_planner_destroy(rp->planner);
  arcnav_map_destroy(rp->map);
  rp->query = NULL;
  rp->planner = NULL;
  rp->map = NULL;
}

/// Query figures of one radius, answered one way (the ranged planner or the per-radius exact).
typedef struct radius_figures {
  size_t found;
  double median_us, p90_us, p99_us;
  double mean_length; ///< over the queries it found
} radius_figures;

static radius_figures figures_of(const double *times, const double *length, size_t n) {
  radius_figures f;
  memset(&f, 0, sizeof f);
  time_percentiles(times, n, &f.median_us, &f.p90_us, &f.p99_us);
  double sum = 0.0;
  for (size_t q = 0; q < n; ++q) {
    if (!isnan(length[q])) {
      f.found++;
      sum += length[q];
    }
  }
  f.mean_length = f.found ? sum / (double)f.found : 0.0;
  return f;
}

/// A row of the "one planner" group: the ranged planner's answers to one radius's queries beside
/// the per-radius exact build's.
typedef struct ranged_row {
  double radius;
  size_t queries;
  radius_figures ranged, exact;
  bool exact_ran;
  size_t compared;     ///< queries both found
  double max_relative; ///< largest |ranged - exact| / exact length over them
} ranged_row;

/// Ask the ranged planner the queries of one radius (times the fastest of --repeat runs) and
/// compare its lengths with the exact engine's in `res`.
static bool ranged_run(ranged_planner *rp, double radius, const arcnav_vec2 *ends, size_t n,
                       const scenario_result *res, bool exact_ran, const options *opt,
                       ranged_row *row) {
  memset(row, 0, sizeof *row);
  row->radius = radius;
  row->queries = n;
  row->exact_ran = exact_ran;
  arcnav_status st = arcnav_query_set_radius(rp->query, radius);
  if (st != ARCNAV_OK) {
    fprintf(stderr, "arcnav_bench: %s: radius %g: %s\n", rp->title, radius, arcnav_status_name(st));
    return false;
  }
  arcnav_path *path = NULL;
  if (arcnav_path_create(NULL, &path) != ARCNAV_OK) {
    return false;
  }
  double *times = xcalloc(n, sizeof *times);
  double *length = xcalloc(n, sizeof *length);
  for (size_t q = 0; q < n; ++q) {
    double best = INFINITY;
    for (int r = 0; r < opt->repeat; ++r) {
      double t0 = seconds_now();
      st = arcnav_find_path(rp->query, ends[2 * q], ends[2 * q + 1], path);
      best = fmin(best, (seconds_now() - t0) * 1e6);
    }
    times[q] = best;
    length[q] = st == ARCNAV_OK ? arcnav_path_length(path) : NAN;
    const double exact = exact_ran ? res->engines[EXACT].length[q] : NAN;
    if (!isnan(length[q]) && !isnan(exact)) {
      row->compared++;
      double scale = exact > 0.0 ? exact : 1.0;
      row->max_relative = fmax(row->max_relative, fabs(length[q] - exact) / scale);
    }
  }
  row->ranged = figures_of(times, length, n);
  if (exact_ran) {
    row->exact = figures_of(res->engines[EXACT].times, res->engines[EXACT].length, n);
  }
  free(times);
  free(length);
  arcnav_path_destroy(path);
  return true;
}

static void ranged_print(const ranged_planner *rp, const ranged_row *rows, size_t row_count,
                         const double *exact_build_ms, const double *exact_held_mb) {
  double exact_ms = 0.0, exact_mb = 0.0;
  for (size_t r = 0; r < row_count; ++r) {
    exact_ms += exact_build_ms[r];
    exact_mb += exact_held_mb[r];
  }
  printf("\n  %s (%s): built once in %.2f ms, memory_bytes %.2f MB (held %.2f MB)\n", rp->title,
         rp->note, rp->build_ms, (double)rp->memory_bytes / 1e6, (double)rp->held_bytes / 1e6);
  if (row_count > 0 && rows[0].exact_ran) {
    printf("  exact, one build per radius: %zu builds, %.2f ms in all (held %.2f MB in all)\n",
           row_count, exact_ms, exact_mb);
  }
  printf("  %4s %-15s %7s %6s %10s %10s %10s %12s %9s %13s\n", "R", "planner", "queries", "found",
         "median_us", "p90_us", "p99_us", "mean_length", "compared", "max_rel_diff");
  for (size_t r = 0; r < row_count; ++r) {
    const ranged_row *row = &rows[r];
    printf("  %4g %-15s %7zu %6zu %10.1f %10.1f %10.1f %12.4f", row->radius, rp->row_name,
           row->queries, row->ranged.found, row->ranged.median_us, row->ranged.p90_us,
           row->ranged.p99_us, row->ranged.mean_length);
    if (row->exact_ran) {
      printf(" %9zu %13.3g\n", row->compared, row->max_relative);
      printf("  %4g %-15s %7zu %6zu %10.1f %10.1f %10.1f %12.4f\n", row->radius, "exact",
             row->queries, row->exact.found, row->exact.median_us, row->exact.p90_us,
             row->exact.p99_us, row->exact.mean_length);
    } else {
      printf(" %9s %13s\n", "-", "-");
    }
  }
}

/// --radii: one game map built once per radius for R = 0, 0.5, 2 and 8, each answering its own
/// .scen queries; then one planner built once for every radius up to 8 answers the same queries,
/// twice: AUTO (the group "one planner, max_radius 8") and the interval engine ("one planner,
/// interval, max_radius 8"). A group whose planner fails is reported and left out, and the exit
/// status is then 1; the other group still runs.
static int run_radii(const char *stem, const options *opt) {
  static const double radii[] = {0.0, 0.5, 2.0, RADII_MAX};
  enum { RADII = sizeof radii / sizeof radii[0], GROUPS = 2 };
  char why[1200];
  game_map g;
  if (!game_map_load(opt->movingai, stem, &g, why, sizeof why)) {
    fprintf(stderr, "arcnav_bench: --radii %s: map not available: %s\n", stem, why);
    return 2;
  }
  ranged_planner ranged[GROUPS] = {
      {.engine = ARCNAV_ENGINE_AUTO,
       .title = "one planner, max_radius 8",
       .row_name = "one (max 8)",
       .note = "AUTO"},
      {.engine = ARCNAV_ENGINE_INTERVAL,
       .title = "one planner, interval, max_radius 8",
       .row_name = "interval, max 8",
       .note = "INTERVAL"},
  };
  bool group_ok[GROUPS];
  int exit_code = 0;
  for (size_t k = 0; k < GROUPS; ++k) {
    group_ok[k] = ranged_build(&ranged[k], &g.map, opt);
    if (!group_ok[k]) {
      ranged_free(&ranged[k]);
      exit_code = 1;
    }
  }
  if (!group_ok[0] && !group_ok[1]) {
    game_map_free(&g);
    return 1;
  }
  printf("\n%s: %zu polygons, %zu vertices. One build per radius: a planner serves the one R it\n"
         "was built for, so R = 0, 0.5, 2 and 8 are four builds of the same map (below them, one\n"
         "planner built with max_radius 8 answers all four).\n",
         stem, g.map.polygon_count, g.vertices);
  printf("  %4s %-15s %9s %8s %8s %7s %7s %6s %10s %10s %6s\n", "R", "engine", "build_ms",
         "peak_MB", "held_MB", "queries", "skipped", "found", "median_us", "p99_us", "viol%");
  double total_ms[ENGINE_COUNT] = {0};
  ranged_row rows[GROUPS][RADII];
  double exact_build_ms[RADII] = {0}, exact_held_mb[RADII] = {0};
  size_t row_count[GROUPS] = {0};
  bool failed = false; ///< the per-radius runs (not a group)
  for (size_t r = 0; r < RADII; ++r) {
    arcnav_vec2 *ends = NULL;
    size_t n = 0, skipped = 0, lines = 0, stride = 0;
    if (!game_queries(opt->movingai, stem, &g.grid, radii[r], opt->query_count, &ends, &n, &skipped,
                      &lines, &stride, why, sizeof why)) {
      fprintf(stderr, "arcnav_bench: --radii %s: %s\n", stem, why);
      exit_code = 2;
      failed = true;
      break;
    }
    scenario_result res;
    result_init(&res, n);
    char label[64];
    snprintf(label, sizeof label, "%s at R = %g", stem, radii[r]);
    bool ok = run_case(label, &g.map, &g.grid, radii[r], ends, 0, n, opt, &res, true);
    for (size_t e = 0; ok && e < ENGINE_COUNT; ++e) {
      if (opt->skip[e]) {
        continue;
      }
      engine_summary m = summarise(&res, e);
      total_ms[e] += m.build_ms;
      if (e == EXACT) {
        exact_build_ms[r] = m.build_ms;
        exact_held_mb[r] = m.held_mb;
      }
      printf("  %4g %-15s %9.2f %8.2f %8.2f %7zu %7zu %6zu %10.1f %10.1f %6.1f\n", radii[r],
             ENGINES[e].name, m.build_ms, m.peak_mb, m.held_mb, n, skipped, m.found, m.median_us,
             m.p99_us, 100.0 * m.violation_share);
    }
    fflush(stdout);
    for (size_t k = 0; ok && k < GROUPS; ++k) {
      if (!group_ok[k]) {
        continue;
      }
      fprintf(stderr, "  %s: %s: queries...\n", label, ranged[k].title);
      group_ok[k] =
          ranged_run(&ranged[k], radii[r], ends, n, &res, !opt->skip[EXACT], opt, &rows[k][r]);
      row_count[k] += group_ok[k];
      exit_code = group_ok[k] ? exit_code : 1;
    }
    result_free(&res);
    free(ends);
    if (!ok) {
      exit_code = 1;
      failed = true;
      break;
    }
  }
  for (size_t e = 0; !failed && e < ENGINE_COUNT; ++e) {
    if (!opt->skip[e]) {
      printf("  %-20s builds for the four radii: %.2f ms in all\n", ENGINES[e].name, total_ms[e]);
    }
  }
  for (size_t k = 0; !failed && k < GROUPS; ++k) {
    if (group_ok[k]) {
      ranged_print(&ranged[k], rows[k], row_count[k], exact_build_ms, exact_held_mb);
    } else {
      printf("\n  %s (%s): failed (see the message above)\n", ranged[k].title, ranged[k].note);
    }
  }
  for (size_t k = 0; k < GROUPS; ++k) {
    ranged_free(&ranged[k]);
  }
  game_map_free(&g);
  return exit_code;
}

// ---- a living map -------------------------------------------------------------------------

// A building of 20 vertices: a star of 10 points around `center`, `size` across, its inner
// vertices at 0.7 of the outer radius (a shape with corners of both kinds).
static void building_ring(arcnav_vec2 center, double size, arcnav_vec2 out[20]) {
  for (int i = 0; i < 20; ++i) {
    double angle = 2.0 * 3.14159265358979323846 * i / 20.0;
    double rho = (i % 2 == 0 ? 0.5 : 0.35) * size;
    out[i] = (arcnav_vec2){center.x + rho * cos(angle), center.y + rho * sin(angle)};
  }
}

// The triangulation's share of a local update, measured on its own: the building's 20 points and
// 20 edges put into the map's triangulation (the point agent's navmesh) and taken out again by the
// kernel's edits (docs/DESIGN.md, "A living map"), against building that navmesh. Nothing else
// of a planner is brought up to date here. Prints one line; false when an edit failed.
static bool time_triangulation_edits(const arcnav_map *map, const arcnav_vec2 *centers,
                                     size_t places, double size) {
  an_allocator alloc = an_allocator_from(NULL);
  an_navmesh *mesh = NULL;
  double t0 = seconds_now();
  if (an_navmesh_build(map, &alloc, &mesh) != ARCNAV_OK) {
    return false;
  }
  double build_ms = (seconds_now() - t0) * 1e3;
  an_cdt *cdt = &mesh->cdt;
  double *insert_us = xcalloc(places + 1, sizeof *insert_us);
  double *remove_us = xcalloc(places + 1, sizeof *remove_us);
  bool fine = true;
  for (size_t i = 0; fine && i < places; ++i) {
    arcnav_vec2 ring[20];
    int32_t v[20];
    building_ring(centers[i], size, ring);
    double t1 = seconds_now();
    for (int k = 0; fine && k < 20; ++k) {
      fine = an_cdt_insert_point(cdt, v2(ring[k].x, ring[k].y), &v[k]) == ARCNAV_OK;
    }
    for (int k = 0; fine && k < 20; ++k) {
      fine = an_cdt_insert_segment(cdt, v[k], v[(k + 1) % 20]) == ARCNAV_OK;
    }
    double t2 = seconds_now();
    for (int k = 0; fine && k < 20; ++k) {
      fine = an_cdt_unconstrain_edge(cdt, v[k], v[(k + 1) % 20]) == ARCNAV_OK;
    }
    for (int k = 0; fine && k < 20; ++k) {
      fine = an_cdt_remove_vertex(cdt, v[k]) == ARCNAV_OK;
    }
    double t3 = seconds_now();
    insert_us[i] = (t2 - t1) * 1e6;
    remove_us[i] = (t3 - t2) * 1e6;
  }
  fine = fine && an_cdt_check(cdt, NULL, 0) && an_cdt_check_delaunay(cdt, NULL, 0);
  if (fine) {
    double insert_med, insert_p90, insert_p99, remove_med, remove_p90, remove_p99;
    time_percentiles(insert_us, places, &insert_med, &insert_p90, &insert_p99);
    time_percentiles(remove_us, places, &remove_med, &remove_p90, &remove_p99);
    printf("  triangulation alone: navmesh build %.2f ms; the building's points and edges in\n"
           "  %.1f us (median; p90 %.1f), out again %.1f us (median; p90 %.1f)\n",
           build_ms, insert_med, insert_p90, remove_med, remove_p90);
  }
  free(insert_us);
  free(remove_us);
  an_navmesh_destroy(mesh);
  return fine;
}

// The buildings a map was built with, taken away and put back: `places` obstacles of `generated`
// (rectangles; spread over its list) each removed from the map and added again as a new obstacle
// of the same ring, with arcnav_planner_update() after each, on the planner for every radius up to
// 8. Those clear of every other are followed locally; the others (overlapping or touching
// another: their union changes) build in full. The median and largest times of each kind.
static bool time_built_removals(const sup_map *generated, size_t places) {
  arcnav_map *map = NULL;
  arcnav_planner *planner = NULL;
  arcnav_planner_def def = arcnav_default_planner_def();
  def.radius = 0.5;
  def.max_radius = 8.0;
  size_t count = generated->polygon_count;
  places = places < count ? places : count;
  if (to_arcnav(generated, NULL, &map) != ARCNAV_OK ||
      arcnav_planner_create(map, &def, &planner) != ARCNAV_OK || places == 0) {
    arcnav_planner_destroy(planner);
    arcnav_map_destroy(map);
    return false;
  }
  arcnav_obstacle_id *ids = xcalloc(places, sizeof *ids);
  for (size_t i = 0; i < places; ++i) {
    ids[i] = arcnav_map_obstacle_id(map, i * count / places);
  }
  // Per kind (0: followed locally, 1: built in full): removal and putting back times.
  double *remove_ms[2] = {xcalloc(places, sizeof(double)), xcalloc(places, sizeof(double))};
  double *back_ms[2] = {xcalloc(places, sizeof(double)), xcalloc(places, sizeof(double))};
  size_t counts[2] = {0, 0};
  bool fine = true;
  for (size_t i = 0; fine && i < places; ++i) {
    const sup_ring *ring = &generated->polygons[i * count / places].outer;
    uint64_t before = arcnav_planner_local_updates(planner);
    double t0 = seconds_now();
    fine = arcnav_map_remove_obstacle(map, ids[i]) == ARCNAV_OK &&
           arcnav_planner_update(planner, map) == ARCNAV_OK;
    double t1 = seconds_now();
    int kind = arcnav_planner_local_updates(planner) > before ? 0 : 1;
    fine =
        fine &&
        arcnav_map_add_polygon(map, ring->points, ring->count, NULL, NULL, 0, NULL) == ARCNAV_OK &&
        arcnav_planner_update(planner, map) == ARCNAV_OK;
    remove_ms[kind][counts[kind]] = (t1 - t0) * 1e3;
    back_ms[kind][counts[kind]++] = (seconds_now() - t1) * 1e3;
  }
  static const char *const kinds[2] = {"clear of every other, followed locally",
                                       "overlapping or touching another, built in full"};
  for (int k = 0; fine && k < 2; ++k) {
    if (counts[k] == 0) {
      continue;
    }
    double remove_med, remove_p90, remove_p99, back_med, back_p90, back_p99, remove_max = 0.0;
    time_percentiles(remove_ms[k], counts[k], &remove_med, &remove_p90, &remove_p99);
    time_percentiles(back_ms[k], counts[k], &back_med, &back_p90, &back_p99);
    for (size_t i = 0; i < counts[k]; ++i) {
      remove_max = fmax(remove_max, remove_ms[k][i]);
    }
    printf("  %s %zu of the map's own %zu buildings taken away and put back (auto, one for\n"
           "  R <= 8), %s: %.3f ms (median; largest %.3f), back %.3f ms\n",
           k == 0 ? "the" : "and", counts[k], places, kinds[k], remove_med, remove_max, back_med);
  }
  for (int k = 0; k < 2; ++k) {
    free(remove_ms[k]);
    free(back_ms[k]);
  }
  free(ids);
  arcnav_planner_destroy(planner);
  arcnav_map_destroy(map);
  return fine;
}

typedef struct living_config {
  const char *name;
  double radius, max_radius;
  arcnav_engine engine;
  /// The change is a unit a quarter of the building's size (a circle), on a map with one unit
  /// standing from the start, instead of the building.
  bool unit;
  /// The change is the building, on a map with CROWD units standing (a game's units among its
  /// buildings: every corner's filing then reaches 2R round it).
  bool crowd;
} living_config;

enum { CROWD = 50 };

// What a game pays when a building is placed and destroyed: the map change and the planner
// update, each planner's full build beside them, and the first query after an update (which
// makes the query object's working memory again).
static int run_living(const char *stem, const options *opt) {
  sup_map generated;
  size_t vertices = 0;
  double size = 20.0;
  bool generated_buildings = strcmp(stem, "rect300") == 0;
  if (generated_buildings) {
    generated = rect300();
    vertices = 4 * generated.polygon_count;
  } else {
    game_map g;
    char why[1200];
    if (!game_map_load(opt->movingai, stem, &g, why, sizeof why)) {
      fprintf(stderr, "arcnav_bench: --living %s: map not available: %s\n", stem, why);
      return 2;
    }
    sup_map_copy(&generated, &g.map);
    vertices = g.vertices;
    size = 4.0;
    game_map_free(&g);
  }
  arcnav_vec2 lo, hi;
  sup_map_extent(&generated, &lo, &hi);
  size_t places = opt->query_count < 40 ? opt->query_count : 40;
  arcnav_vec2 *centers = xcalloc(places, sizeof *centers);
  arcnav_vec2 *ends = xcalloc(2 * places, sizeof *ends);
  sup_rng rng = sup_rng_seed(20261125);
  size_t found_places = 0;
  for (size_t i = 0; i < places; ++i) {
    if (sup_random_free_point(&generated, 0.6 * size, &rng, lo, hi, 0.0, 2000, &centers[i]) &&
        sup_random_free_point(&generated, 0.5, &rng, lo, hi, 0.0, 2000, &ends[2 * i]) &&
        sup_random_free_point(&generated, 0.5, &rng, lo, hi, 0.0, 2000, &ends[2 * i + 1])) {
      found_places++;
    } else {
      break;
    }
  }
  static const living_config configs[] = {
      {"auto, one for R <= 8", 0.5, 8.0, ARCNAV_ENGINE_AUTO, false, false},
      {"auto R = 0.5", 0.5, 0.0, ARCNAV_ENGINE_AUTO, false, false},
      {"auto R = 0", 0.0, 0.0, ARCNAV_ENGINE_AUTO, false, false},
      {"plain funnel R = 0", 0.0, 0.0, ARCNAV_ENGINE_PLAIN_FUNNEL, false, false},
      {"unit: auto, one for R <= 8", 0.5, 8.0, ARCNAV_ENGINE_AUTO, true, false},
      {"unit: auto R = 0.5", 0.5, 0.0, ARCNAV_ENGINE_AUTO, true, false},
      {"unit: auto R = 0", 0.0, 0.0, ARCNAV_ENGINE_AUTO, true, false},
      {"crowd: auto, one for R <= 8", 0.5, 8.0, ARCNAV_ENGINE_AUTO, false, true},
      {"crowd: auto R = 0.5", 0.5, 0.0, ARCNAV_ENGINE_AUTO, false, true},
  };
  arcnav_vec2 standing = {0.0, 0.0};
  if (!sup_random_free_point(&generated, 0.3 * size, &rng, lo, hi, 0.0, 2000, &standing)) {
    fprintf(stderr, "arcnav_bench: --living %s: no place for a unit\n", stem);
    return 1;
  }
  // The crowd stands clear of the buildings' places (where they stand and where they move), so
  // that each building's change stays a local one.
  arcnav_vec2 crowd[CROWD];
  size_t crowd_count = 0;
  for (int tries = 0; crowd_count < CROWD && tries < 100 * CROWD; ++tries) {
    arcnav_vec2 p;
    if (!sup_random_free_point(&generated, 0.3 * size, &rng, lo, hi, 0.0, 2000, &p)) {
      break;
    }
    bool clear = true;
    for (size_t i = 0; i < found_places && clear; ++i) {
      clear = hypot(p.x - centers[i].x, p.y - centers[i].y) > 1.2 * size;
    }
    if (clear) {
      crowd[crowd_count++] = p;
    }
  }
  printf("\n%s: %zu polygons, %zu vertices; a building of 20 vertices, %g across, placed,\n"
         "moved a step and removed at %zu free places (\"unit:\" rows: a unit %g across, on a\n"
         "map with one unit standing); each change is the map call plus\n"
         "arcnav_planner_update() (median and largest, ms); then the first query after the\n"
         "update (median, us), and after the move the query object's working memory made\n"
         "again alone (rebind_us, median; no search). turns_med_ms: the standing unit and\n"
         "the new one moved a step each in turn, four times, so that each moved is not the\n"
         "last one changed. \"crowd:\" rows: the building, on a map with %zu units standing.\n"
         "\"plain funnel\": ARCNAV_ENGINE_PLAIN_FUNNEL (Detour-like); the others AUTO.\n",
         stem, generated.polygon_count, vertices, size, found_places, 0.5 * size, crowd_count);
  printf("  %-27s %9s %11s %11s %11s %11s %11s %8s %14s %10s %13s\n", "planner", "build_ms",
         "add_med_ms", "add_max_ms", "move_med_ms", "rem_med_ms", "rem_max_ms", "speedup",
         "first_query_us", "rebind_us", "turns_med_ms");
  int exit_code = 0;
  for (size_t c = 0; c < sizeof configs / sizeof configs[0] && exit_code == 0; ++c) {
    arcnav_map *map = NULL;
    arcnav_planner *planner = NULL;
    arcnav_query *query = NULL;
    arcnav_path *path = NULL;
    arcnav_planner_def def = arcnav_default_planner_def();
    def.radius = configs[c].radius;
    def.max_radius = configs[c].max_radius;
    def.engine = configs[c].engine;
    arcnav_status st = to_arcnav(&generated, NULL, &map);
    arcnav_obstacle_id standing_id = 0;
    if (st == ARCNAV_OK && configs[c].unit) {
      st = arcnav_map_add_unit(map, standing, 0.25 * size, &standing_id);
    }
    for (size_t u = 0; st == ARCNAV_OK && configs[c].crowd && u < crowd_count; ++u) {
      st = arcnav_map_add_unit(map, crowd[u], 0.25 * size, NULL);
    }
    double build_ms = INFINITY;
    for (int r = 0; st == ARCNAV_OK && r < opt->repeat; ++r) {
      arcnav_planner_destroy(planner);
      planner = NULL;
      double t0 = seconds_now();
      st = arcnav_planner_create(map, &def, &planner);
      build_ms = fmin(build_ms, (seconds_now() - t0) * 1e3);
    }
    if (st == ARCNAV_OK) {
      st = arcnav_query_create(planner, &query);
    }
    if (st == ARCNAV_OK) {
      st = arcnav_path_create(NULL, &path);
    }
    double *add_ms = xcalloc(found_places + 1, sizeof *add_ms);
    double *remove_ms = xcalloc(found_places + 1, sizeof *remove_ms);
    double *move_ms = xcalloc(found_places + 1, sizeof *move_ms);
    double *first_us = xcalloc(found_places + 1, sizeof *first_us);
    double *rebind_us = xcalloc(found_places + 1, sizeof *rebind_us);
    double *turns_ms = xcalloc(4 * found_places + 1, sizeof *turns_ms);
    for (size_t i = 0; st == ARCNAV_OK && i < found_places; ++i) {
      arcnav_vec2 ring[20];
      building_ring(centers[i], size, ring);
      double t0 = seconds_now();
      st = configs[c].unit ? arcnav_map_add_unit(map, centers[i], 0.25 * size, NULL)
                           : arcnav_map_add_polygon(map, ring, 20, NULL, NULL, 0, NULL);
      if (st == ARCNAV_OK) {
        st = arcnav_planner_update(planner, map);
      }
      add_ms[i] = (seconds_now() - t0) * 1e3;
      double t1 = seconds_now();
      arcnav_status answer = arcnav_find_path(query, ends[2 * i], ends[2 * i + 1], path);
      first_us[i] = (seconds_now() - t1) * 1e6;
      if (!arcnav_status_is_answer(answer)) {
        st = answer;
      }
      arcnav_obstacle_id building = arcnav_map_obstacle_id(map, arcnav_map_obstacle_count(map) - 1);
      // A step of about a twentieth of its size: it stood clear by a tenth of it.
      double t_move = seconds_now();
      if (st == ARCNAV_OK) {
        st = arcnav_map_move_obstacle(map, building, (arcnav_vec2){0.05 * size, 0.02 * size}, NULL);
      }
      if (st == ARCNAV_OK) {
        st = arcnav_planner_update(planner, map);
      }
      move_ms[i] = (seconds_now() - t_move) * 1e3;
      // The query object alone following the move: setting the radius it has makes its working
      // memory for the new engines, and runs no search.
      double t_rebind = seconds_now();
      if (st == ARCNAV_OK) {
        st = arcnav_query_set_radius(query, def.radius);
      }
      rebind_us[i] = (seconds_now() - t_rebind) * 1e6;
      // Units taking turns: a small step of the standing one, then of the new one, and back.
      for (int turn = 0; configs[c].unit && st == ARCNAV_OK && turn < 4; ++turn) {
        double step = (turn < 2 ? 0.02 : -0.02) * size;
        double t_turn = seconds_now();
        st = arcnav_map_move_obstacle(map, turn % 2 == 0 ? standing_id : building,
                                      (arcnav_vec2){step, 0.0}, NULL);
        if (st == ARCNAV_OK) {
          st = arcnav_planner_update(planner, map);
        }
        turns_ms[4 * i + (size_t)turn] = (seconds_now() - t_turn) * 1e3;
      }
      double t2 = seconds_now();
      if (st == ARCNAV_OK) {
        st = arcnav_map_remove_obstacle(map, building);
      }
      if (st == ARCNAV_OK) {
        st = arcnav_planner_update(planner, map);
      }
      remove_ms[i] = (seconds_now() - t2) * 1e3;
      fprintf(stderr, "  %s, %s: place %zu of %zu\r", stem, configs[c].name, i + 1, found_places);
    }
    fprintf(stderr, "\n");
    if (st != ARCNAV_OK) {
      fprintf(stderr, "arcnav_bench: --living %s, %s: %s\n", stem, configs[c].name,
              arcnav_status_name(st));
      exit_code = 1;
    } else {
      double add_med, add_p90, add_p99, remove_med, remove_p90, remove_p99, first_med, first_p90,
          first_p99, move_med, move_p90, move_p99, rebind_med, rebind_p90, rebind_p99;
      time_percentiles(add_ms, found_places, &add_med, &add_p90, &add_p99);
      time_percentiles(move_ms, found_places, &move_med, &move_p90, &move_p99);
      time_percentiles(remove_ms, found_places, &remove_med, &remove_p90, &remove_p99);
      time_percentiles(first_us, found_places, &first_med, &first_p90, &first_p99);
      time_percentiles(rebind_us, found_places, &rebind_med, &rebind_p90, &rebind_p99);
      double add_max = 0, remove_max = 0;
      for (size_t i = 0; i < found_places; ++i) {
        add_max = fmax(add_max, add_ms[i]);
        remove_max = fmax(remove_max, remove_ms[i]);
      }
      char turns[32] = "-";
      if (configs[c].unit) {
        double turns_med, turns_p90, turns_p99;
        time_percentiles(turns_ms, 4 * found_places, &turns_med, &turns_p90, &turns_p99);
        snprintf(turns, sizeof turns, "%.3f", turns_med);
      }
      printf("  %-27s %9.2f %11.3f %11.3f %11.3f %11.3f %11.3f %7.1fx %14.1f %10.1f %13s\n",
             configs[c].name, build_ms, add_med, add_max, move_med, remove_med, remove_max,
             build_ms / fmax(add_med, remove_med), first_med, rebind_med, turns);
      fflush(stdout);
    }
    free(add_ms);
    free(remove_ms);
    free(move_ms);
    free(first_us);
    free(rebind_us);
    free(turns_ms);
    arcnav_path_destroy(path);
    arcnav_query_destroy(query);
    arcnav_planner_destroy(planner);
    arcnav_map_destroy(map);
  }
  printf("  speedup: the full build over the slower of the median add and remove (target: at\n"
         "  least 50, with add and remove under 1 ms)\n");
  if (exit_code == 0) {
    arcnav_map *map = NULL;
    if (to_arcnav(&generated, NULL, &map) != ARCNAV_OK ||
        !time_triangulation_edits(map, centers, found_places, size)) {
      fprintf(stderr, "arcnav_bench: --living %s: the triangulation's edits failed\n", stem);
      exit_code = 1;
    }
    arcnav_map_destroy(map);
  }
  // A generated map's obstacles are buildings; a game map's are traced rock and water.
  if (exit_code == 0 && generated_buildings && !time_built_removals(&generated, places)) {
    fprintf(stderr, "arcnav_bench: --living %s: the map's own buildings failed\n", stem);
    exit_code = 1;
  }
  free(centers);
  free(ends);
  sup_map_free(&generated);
  return exit_code;
}

// ---- build scaling -----------------------------------------------------------------------------

// Random rectangles at rect300's density (300 in 2000 x 2000), from 1,000 to 100,000 vertices:
// each engine is built once per size (the fastest of --repeat builds) at R = 2 (plain-raw for a
// point) and measured for build time and memory held (planner plus one query object). The build
// exponent is the slope of log(time) over log(vertices), fitted by least squares over the sizes.
static int run_scaling(const options *opt) {
  static const size_t sizes[] = {1000, 3000, 10000, 30000, 100000};
  enum { SIZE_COUNT = sizeof sizes / sizeof sizes[0] };
  const double radius = 2.0;
  printf("\nBuild scaling: random rectangles at rect300's density, R = %g, fastest of %d builds\n",
         radius, opt->repeat);
  printf("  %-15s %9s %11s %10s %12s %14s\n", "engine", "vertices", "build_ms", "held_MB",
         "bytes/vertex", "planner_B/vtx");
  double seconds[ENGINE_COUNT][SIZE_COUNT];
  int exit_code = 0;
  for (size_t k = 0; k < SIZE_COUNT && exit_code == 0; ++k) {
    size_t rectangles = sizes[k] / 4;
    sup_map generated = sup_gen_random_rectangles(
        1, rectangles, 2000.0 * sqrt((double)rectangles / 300.0), 10.0, 80.0);
    for (size_t e = 0; e < ENGINE_COUNT && exit_code == 0; ++e) {
      if (opt->skip[e]) {
        continue;
      }
      counter mem = {0, 0};
      arcnav_allocator allocator = {count_alloc, count_free, &mem};
      arcnav_map *map = NULL;
      arcnav_status st = to_arcnav(&generated, &allocator, &map);
      arcnav_planner_def def = engine_def(&ENGINES[e], radius);
      double best = INFINITY;
      size_t held = 0, planner_bytes = 0;
      for (int r = 0; st == ARCNAV_OK && r < opt->repeat; ++r) {
        size_t before = mem.current;
        arcnav_planner *planner = NULL;
        arcnav_query *query = NULL;
        double t0 = seconds_now();
        st = arcnav_planner_create(map, &def, &planner);
        double t1 = seconds_now();
        if (st == ARCNAV_OK) {
          st = arcnav_query_create(planner, &query);
        }
        best = fmin(best, t1 - t0);
        held = mem.current - before;
        arcnav_planner_info info;
        arcnav_planner_get_info(planner, &info);
        planner_bytes = info.memory_bytes;
        arcnav_query_destroy(query);
        arcnav_planner_destroy(planner);
      }
      arcnav_map_destroy(map);
      if (st != ARCNAV_OK) {
        fprintf(stderr, "arcnav_bench: --scaling: %s at %zu vertices: %s\n", ENGINES[e].name,
                sizes[k], arcnav_status_name(st));
        exit_code = 1;
        break;
      }
      seconds[e][k] = best;
      printf("  %-15s %9zu %11.2f %10.2f %12.0f %14.0f\n", ENGINES[e].name, sizes[k], 1e3 * best,
             (double)held / 1e6, (double)held / (double)sizes[k],
             (double)planner_bytes / (double)sizes[k]);
      fflush(stdout);
    }
    sup_map_free(&generated);
  }
  for (size_t e = 0; e < ENGINE_COUNT && exit_code == 0; ++e) {
    if (opt->skip[e]) {
      continue;
    }
    double sx = 0.0, sy = 0.0, sxx = 0.0, sxy = 0.0;
    for (size_t k = 0; k < SIZE_COUNT; ++k) {
      double x = log((double)sizes[k]), y = log(seconds[e][k]);
      sx += x;
      sy += y;
      sxx += x * x;
      sxy += x * y;
    }
    double slope = (SIZE_COUNT * sxy - sx * sy) / (SIZE_COUNT * sxx - sx * sx);
    printf("  %-15s build time ~ vertices^%.2f (1,000 to 100,000 vertices)\n", ENGINES[e].name,
           slope);
  }
  return exit_code;
}

// ---- chart -------------------------------------------------------------------------------------

typedef struct chart_row {
  const char *name;
  engine_summary engines[ENGINE_COUNT];
} chart_row;

// Three panels of grouped bars, one group per scenario and one bar per engine: path length over the
// exact length (as a difference in percent, bars grow from 0), share of paths that violate R, and
// the query median on a log axis.
static bool write_svg(const char *file, const chart_row *rows, size_t row_count) {
  FILE *out = fopen(file, "w");
  if (!out) {
    perror(file);
    return false;
  }
  const double left = 70, group_w = 90, panel_h = 170, gap = 60, top = 60;
  const double width = fmax(left + group_w * (double)row_count + 30, left + 130.0 * ENGINE_COUNT);
  const double height = top + 3 * (panel_h + gap) + 30;
  const double bar_w = (group_w - 20) / (double)ENGINE_COUNT;
  fprintf(out,
          "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
          "font-family=\"sans-serif\" font-size=\"11\">\n"
          "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n"
          "<text x=\"%.0f\" y=\"20\" font-size=\"14\">arcnav_bench: funnel paths against the "
          "exact path, same queries</text>\n",
          width, height, left);
  for (size_t e = 0; e < ENGINE_COUNT; ++e) {
    double x = left + 130.0 * (double)e;
    fprintf(out,
            "<rect x=\"%.0f\" y=\"32\" width=\"12\" height=\"12\" fill=\"%s\"/>"
            "<text x=\"%.0f\" y=\"42\">%s</text>\n",
            x, ENGINES[e].colour, x + 16, ENGINES[e].name);
  }
  // Panel scales.
  double ratio_lo = 0.0, ratio_hi = 0.0, time_lo = INFINITY, time_hi = 0.0;
  for (size_t r = 0; r < row_count; ++r) {
    for (size_t e = 0; e < ENGINE_COUNT; ++e) {
      const engine_summary *s = &rows[r].engines[e];
      if (s->common > 0) {
        ratio_lo = fmin(ratio_lo, 100.0 * (s->ratio_mean - 1.0));
        ratio_hi = fmax(ratio_hi, 100.0 * (s->ratio_mean - 1.0));
      }
      if (s->median_us > 0.0) {
        time_lo = fmin(time_lo, s->median_us);
        time_hi = fmax(time_hi, s->median_us);
      }
    }
  }
  // Round tick steps: 1, 2, 5, 10, 20, 50 ... percent, about four of them.
  double ratio_step = 1.0;
  while ((ratio_hi - ratio_lo) / ratio_step > 5.0) {
    double mantissa = ratio_step / pow(10.0, floor(log10(ratio_step) + 1e-9));
    ratio_step *= mantissa < 1.5 || mantissa > 4.0 ? 2.0 : 2.5;
  }
  ratio_lo = floor(ratio_lo / ratio_step) * ratio_step;
  ratio_hi = fmax(ceil(ratio_hi / ratio_step) * ratio_step, ratio_lo + ratio_step);
  double log_lo = floor(log10(isfinite(time_lo) ? time_lo : 1.0));
  double log_hi = fmax(ceil(log10(time_hi > 0.0 ? time_hi : 10.0)), log_lo + 1.0);
  const char *titles[3] = {"mean length vs exact (%)",
                           "paths closer than R to an obstacle (% of found)",
                           "query median (microseconds, log scale)"};
  for (int panel = 0; panel < 3; ++panel) {
    double y0 = top + (double)panel * (panel_h + gap) + 20; // panel top
    double y1 = y0 + panel_h;                               // panel bottom
    fprintf(out, "<text x=\"%.0f\" y=\"%.0f\" font-size=\"12\">%s</text>\n", left, y0 - 8,
            titles[panel]);
    // Ticks.
    double lo = panel == 0 ? ratio_lo : panel == 1 ? 0.0 : log_lo;
    double hi = panel == 0 ? ratio_hi : panel == 1 ? 100.0 : log_hi;
    double step = panel == 0 ? ratio_step : panel == 1 ? 25.0 : 1.0;
    for (double t = lo; t <= hi + 1e-9; t += step) {
      double y = y1 - (t - lo) / (hi - lo) * panel_h;
      char label[32];
      if (panel == 2) {
        snprintf(label, sizeof label, "%g", pow(10.0, t));
      } else {
        snprintf(label, sizeof label, panel == 0 && t > 0.0 ? "%+g" : "%g", t == 0.0 ? 0.0 : t);
      }
      fprintf(out,
              "<line x1=\"%.0f\" x2=\"%.0f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>"
              "<text x=\"%.0f\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n",
              left, width - 20, y, y, left - 6, y + 4, label);
    }
    double base = panel == 0 ? y1 - (0.0 - lo) / (hi - lo) * panel_h : y1;
    fprintf(out, "<line x1=\"%.0f\" x2=\"%.0f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#444\"/>\n", left,
            width - 20, base, base);
    for (size_t r = 0; r < row_count; ++r) {
      double gx = left + group_w * (double)r + 10;
      for (size_t e = 0; e < ENGINE_COUNT; ++e) {
        const engine_summary *s = &rows[r].engines[e];
        double v;
        if (panel == 0) {
          if (s->common == 0) {
            continue;
          }
          v = 100.0 * (s->ratio_mean - 1.0);
        } else if (panel == 1) {
          v = 100.0 * s->violation_share;
        } else {
          if (s->median_us <= 0.0) {
            continue;
          }
          v = log10(s->median_us);
        }
        double y = y1 - (v - lo) / (hi - lo) * panel_h;
        double ya = fmin(y, base), yb = fmax(y, base);
        fprintf(out,
                "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\">"
                "<title>%s %s: %g</title></rect>\n",
                gx + bar_w * (double)e, ya, bar_w - 1, fmax(yb - ya, 0.5), ENGINES[e].colour,
                rows[r].name, ENGINES[e].name, panel == 2 ? s->median_us : v);
      }
      if (panel == 2) {
        fprintf(out,
                "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" font-size=\"10\">%s</text>\n",
                gx + (group_w - 20) / 2.0, y1 + 14, rows[r].name);
      } else {
        fprintf(out,
                "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" font-size=\"9\" "
                "fill=\"#666\">%s</text>\n",
                gx + (group_w - 20) / 2.0, y1 + 12, rows[r].name);
      }
    }
  }
  fprintf(out, "</svg>\n");
  return fclose(out) == 0;
}

// ---- probes
// --------------------------------------------------------------------------------------

// --probes MAP: the probes of the free space on a game map at R = 0.5 and 2, from the starts of
// the map's .scen queries: clearance there, a raycast in a random direction (unbounded), and the
// nearest free point of the start moved by up to two cells at random (blocked about as often as
// not), each timed alone (the fastest of --repeat runs).

// One radius of a game map for --probes and --sliced: the .scen queries there (*ends, *n pairs)
// and an AUTO planner at that radius with a query object. 0, or the exit code (2: no queries,
// 1: the build failed), the message printed under `mode`.
typedef struct game_radius {
  arcnav_vec2 *ends;
  size_t n;
  arcnav_map *map;
  arcnav_planner *planner;
  arcnav_query *query;
} game_radius;

static int open_game_radius(const char *mode, const char *stem, const options *opt,
                            const game_map *g, double radius, game_radius *out) {
  memset(out, 0, sizeof *out);
  char why[1200];
  size_t skipped = 0, lines = 0, stride = 0;
  if (!game_queries(opt->movingai, stem, &g->grid, radius, opt->query_count, &out->ends, &out->n,
                    &skipped, &lines, &stride, why, sizeof why)) {
    fprintf(stderr, "arcnav_bench: %s %s: %s\n", mode, stem, why);
    return 2;
  }
  arcnav_planner_def def = arcnav_default_planner_def();
  def.radius = radius;
  if (to_arcnav(&g->map, NULL, &out->map) != ARCNAV_OK ||
      arcnav_planner_create(out->map, &def, &out->planner) != ARCNAV_OK ||
      arcnav_query_create(out->planner, &out->query) != ARCNAV_OK) {
    fprintf(stderr, "arcnav_bench: %s %s: build failed at R = %g\n", mode, stem, radius);
    return 1;
  }
  return 0;
}

static void close_game_radius(game_radius *gr) {
  arcnav_query_destroy(gr->query);
  arcnav_planner_destroy(gr->planner);
  arcnav_map_destroy(gr->map);
  free(gr->ends);
}

enum { PROBE_KINDS = 7 };
static const char *const PROBE_NAMES[PROBE_KINDS] = {
    "clearance",       "raycast",   "nearest_free", "nearest_moved",
    "reachable_moved", "reachable", "find_path"};

static int run_probes(const char *stem, const options *opt) {
  static const double radii[] = {0.5, 2.0};
  char why[1200];
  game_map g;
  if (!game_map_load(opt->movingai, stem, &g, why, sizeof why)) {
    fprintf(stderr, "arcnav_bench: --probes %s: map not available: %s\n", stem, why);
    return 2;
  }
  printf("\n%s: %zu polygons, %zu vertices. Probe times in microseconds (exact engine, AUTO);\n"
         "nearest_free over every point, nearest_moved over those that were not free,\n"
         "reachable_moved: the nearest reachable from the query's goal, for those;\n"
         "reachable: arcnav_query_reachable() from the query's start to its goal, and\n"
         "find_path: the path search it spares where the passages tell.\n",
         stem, g.map.polygon_count, g.vertices);
  printf("  %4s %-14s %7s %10s %10s %10s\n", "R", "probe", "count", "median_us", "p90_us",
         "p99_us");
  int exit_code = 0;
  for (size_t r = 0; r < sizeof radii / sizeof radii[0] && exit_code == 0; ++r) {
    game_radius gr;
    exit_code = open_game_radius("--probes", stem, opt, &g, radii[r], &gr);
    arcnav_vec2 *ends = gr.ends;
    size_t n = gr.n;
    arcnav_query *query = gr.query;
    double *times[PROBE_KINDS];
    size_t counts[PROBE_KINDS] = {0};
    for (int k = 0; k < PROBE_KINDS; ++k) {
      times[k] = xcalloc(n, sizeof **times);
    }
    sup_rng rng = sup_rng_seed(7);
    size_t told = 0;
    arcnav_path *path = NULL;
    if (arcnav_path_create(NULL, &path) != ARCNAV_OK) {
      exit_code = 1;
    }
    for (size_t i = 0; exit_code == 0 && i < n; ++i) {
      arcnav_vec2 from = ends[2 * i];
      double angle = sup_rng_uniform(&rng, 0.0, 6.283185307179586);
      arcnav_vec2 direction = {cos(angle), sin(angle)};
      arcnav_vec2 moved = {from.x + sup_rng_uniform(&rng, -2.0, 2.0),
                           from.y + sup_rng_uniform(&rng, -2.0, 2.0)};
      bool moved_blocked = !arcnav_query_point_is_free(query, moved);
      double best[PROBE_KINDS];
      for (int k = 0; k < PROBE_KINDS; ++k) {
        best[k] = INFINITY;
      }
      bool searched = false;
      for (int rep = 0; rep < opt->repeat; ++rep) {
        arcnav_clearance c;
        arcnav_ray_hit hit;
        arcnav_vec2 q;
        double t0 = seconds_now();
        arcnav_status st = arcnav_query_clearance(query, from, &c);
        double t1 = seconds_now();
        st = st == ARCNAV_OK ? arcnav_query_raycast(query, from, direction, INFINITY, &hit) : st;
        double t2 = seconds_now();
        arcnav_status near = arcnav_query_nearest_free(query, moved, &q, NULL);
        double t3 = seconds_now();
        // The nearest place the unit fits and can reach from the query's goal.
        arcnav_status reach =
            moved_blocked ? arcnav_query_nearest_reachable(query, ends[2 * i + 1], moved, &q, NULL)
                          : ARCNAV_OK;
        double t4 = seconds_now();
        bool reachable = false;
        arcnav_status told_status =
            arcnav_query_reachable(query, from, ends[2 * i + 1], &reachable, &searched);
        double t5 = seconds_now();
        arcnav_status found = arcnav_find_path(query, from, ends[2 * i + 1], path);
        double t6 = seconds_now();
        if (told_status != found) {
          fprintf(stderr, "arcnav_bench: --probes %s: reachable says %s, the search %s\n", stem,
                  arcnav_status_name(told_status), arcnav_status_name(found));
          exit_code = 1;
          break;
        }
        if (st != ARCNAV_OK || (near != ARCNAV_OK && near != ARCNAV_NO_PATH) ||
            (reach != ARCNAV_OK && reach != ARCNAV_NO_PATH)) {
          fprintf(stderr, "arcnav_bench: --probes %s: a probe failed: %s\n", stem,
                  arcnav_status_name(st != ARCNAV_OK     ? st
                                     : near != ARCNAV_OK ? near
                                                         : reach));
          exit_code = 1;
          break;
        }
        best[0] = fmin(best[0], (t1 - t0) * 1e6);
        best[1] = fmin(best[1], (t2 - t1) * 1e6);
        best[2] = fmin(best[2], (t3 - t2) * 1e6);
        best[4] = fmin(best[4], (t4 - t3) * 1e6);
        best[5] = fmin(best[5], (t5 - t4) * 1e6);
        best[6] = fmin(best[6], (t6 - t5) * 1e6);
      }
      for (int k = 0; k < 3; ++k) {
        times[k][counts[k]++] = best[k];
      }
      for (int k = 5; k < PROBE_KINDS; ++k) {
        times[k][counts[k]++] = best[k];
      }
      told += !searched;
      if (moved_blocked) {
        times[3][counts[3]++] = best[2];
        times[4][counts[4]++] = best[4];
      }
    }
    for (int k = 0; exit_code == 0 && k < PROBE_KINDS; ++k) {
      double median, p90, p99;
      time_percentiles(times[k], counts[k], &median, &p90, &p99);
      printf("  %4g %-14s %7zu %10.2f %10.2f %10.2f\n", radii[r], PROBE_NAMES[k], counts[k], median,
             p90, p99);
    }
    if (exit_code == 0) {
      printf("  %4g reachable told without a search: %zu of %zu\n", radii[r], told, n);
    }
    arcnav_path_destroy(path);
    fflush(stdout);
    for (int k = 0; k < PROBE_KINDS; ++k) {
      free(times[k]);
    }
    close_game_radius(&gr);
  }
  game_map_free(&g);
  return exit_code;
}

// ---- sliced search
// ------------------------------------------------------------------------------

// --sliced MAP: the game map's .scen queries at R = 0, 0.5 and 2 (AUTO), whole and as sliced
// searches of 64 and of 1024 expansions a resume: the whole search's time, the sliced search's
// (all its resumes), and its longest resume, what a frame pays at most. The sliced answers must
// equal the whole ones (status and length), or the run fails.

enum { SLICE_KINDS = 2 };
static const size_t SLICE_SIZES[SLICE_KINDS] = {64, 1024};

static int run_sliced(const char *stem, const options *opt) {
  static const double radii[] = {0.0, 0.5, 2.0};
  char why[1200];
  game_map g;
  if (!game_map_load(opt->movingai, stem, &g, why, sizeof why)) {
    fprintf(stderr, "arcnav_bench: --sliced %s: map not available: %s\n", stem, why);
    return 2;
  }
  printf("\n%s: %zu polygons, %zu vertices. Times in microseconds (AUTO engine); a slice is the\n"
         "most expansions one resume may make; longest: the longest resume of a query; first:\n"
         "its first resume, which also judges the ends and sets the search up.\n",
         stem, g.map.polygon_count, g.vertices);
  printf("  %4s %7s %6s %11s %11s %12s %12s %12s %12s %12s\n", "R", "queries", "slice", "whole_med",
         "sliced_med", "resumes_med", "longest_med", "longest_p99", "first_med", "first_p99");
  arcnav_path *path = NULL;
  if (arcnav_path_create(NULL, &path) != ARCNAV_OK) {
    game_map_free(&g);
    return 1;
  }
  int exit_code = 0;
  for (size_t r = 0; r < sizeof radii / sizeof radii[0] && exit_code == 0; ++r) {
    game_radius gr;
    exit_code = open_game_radius("--sliced", stem, opt, &g, radii[r], &gr);
    arcnav_vec2 *ends = gr.ends;
    size_t n = gr.n;
    arcnav_query *query = gr.query;
    double *whole = xcalloc(n, sizeof *whole);
    double *sliced[SLICE_KINDS], *longest[SLICE_KINDS], *resumes[SLICE_KINDS], *first[SLICE_KINDS];
    for (int k = 0; k < SLICE_KINDS; ++k) {
      first[k] = xcalloc(n, sizeof **first);
      sliced[k] = xcalloc(n, sizeof **sliced);
      longest[k] = xcalloc(n, sizeof **longest);
      resumes[k] = xcalloc(n, sizeof **resumes);
    }
    for (size_t i = 0; exit_code == 0 && i < n; ++i) {
      arcnav_vec2 from = ends[2 * i], to = ends[2 * i + 1];
      whole[i] = INFINITY;
      arcnav_status want = ARCNAV_OK;
      double want_length = 0.0;
      for (int rep = 0; rep < opt->repeat; ++rep) {
        double t0 = seconds_now();
        want = arcnav_find_path(query, from, to, path);
        whole[i] = fmin(whole[i], (seconds_now() - t0) * 1e6);
        want_length = arcnav_path_length(path);
      }
      for (int k = 0; k < SLICE_KINDS && exit_code == 0; ++k) {
        sliced[k][i] = longest[k][i] = first[k][i] = INFINITY;
        for (int rep = 0; rep < opt->repeat; ++rep) {
          double total = 0.0, worst = 0.0, first_took = 0.0;
          size_t count = 0;
          arcnav_status got = arcnav_query_begin(query, from, to);
          do {
            double t0 = seconds_now();
            got = arcnav_query_resume(query, SLICE_SIZES[k], path);
            double took = (seconds_now() - t0) * 1e6;
            total += took;
            worst = fmax(worst, took);
            first_took = count == 0 ? took : first_took;
            count++;
          } while (got == ARCNAV_IN_PROGRESS);
          if (got != want || arcnav_path_length(path) != want_length) {
            fprintf(stderr,
                    "arcnav_bench: --sliced %s: query %zu at R = %g: sliced %s %.17g, "
                    "whole %s %.17g\n",
                    stem, i, radii[r], arcnav_status_name(got), arcnav_path_length(path),
                    arcnav_status_name(want), want_length);
            exit_code = 1;
            break;
          }
          sliced[k][i] = fmin(sliced[k][i], total);
          longest[k][i] = fmin(longest[k][i], worst);
          first[k][i] = fmin(first[k][i], first_took);
          resumes[k][i] = (double)count;
        }
      }
    }
    for (int k = 0; exit_code == 0 && k < SLICE_KINDS; ++k) {
      double whole_median, sliced_median, resumes_median, longest_median, longest_p99, p90, p99;
      double first_median, first_p99;
      time_percentiles(first[k], n, &first_median, &p90, &first_p99);
      time_percentiles(whole, n, &whole_median, &p90, &p99);
      time_percentiles(sliced[k], n, &sliced_median, &p90, &p99);
      time_percentiles(resumes[k], n, &resumes_median, &p90, &p99);
      time_percentiles(longest[k], n, &longest_median, &p90, &longest_p99);
      printf("  %4g %7zu %6zu %11.2f %11.2f %12.0f %12.2f %12.2f %12.2f %12.2f\n", radii[r], n,
             SLICE_SIZES[k], whole_median, sliced_median, resumes_median, longest_median,
             longest_p99, first_median, first_p99);
    }
    fflush(stdout);
    free(whole);
    for (int k = 0; k < SLICE_KINDS; ++k) {
      free(sliced[k]);
      free(first[k]);
      free(longest[k]);
      free(resumes[k]);
    }
    close_game_radius(&gr);
  }
  arcnav_path_destroy(path);
  game_map_free(&g);
  return exit_code;
}

// ---- main --------------------------------------------------------------------------------------

static void usage(FILE *to) {
  fprintf(
      to,
      "usage: arcnav_bench [--list] [--scenario NAME]... [--engine NAME]... [--all] [--game]\n"
      "                    [--quick] [--repeat N] [--passes] [--queries N] [--movingai DIR]\n"
      "                    [--csv FILE] [--svg FILE]\n"
      "       arcnav_bench --radii MAP [--movingai DIR] [--engine NAME]... [--queries N]\n"
      "       arcnav_bench --scaling [--engine NAME]... [--repeat N]\n"
      "       arcnav_bench --living MAP [--movingai DIR] [--queries N] [--repeat N]\n"
      "       arcnav_bench --probes MAP [--movingai DIR] [--queries N] [--repeat N]\n"
      "       arcnav_bench --sliced MAP [--movingai DIR] [--queries N] [--repeat N]\n"
      "  --list          print the scenario names and exit\n"
      "  --scenario NAME run only these (default: every scenario not marked slow or game); "
      "repeatable\n"
      "  --all           also run the slow scenarios (mixed10000-r4), the game maps,\n"
      "                  exact-on-demand everywhere (in mazes it takes minutes),\n"
      "                  exact-interval everywhere (by default only at R > 0, NEERC aside)\n"
      "                  and exact-ranged at R > 0 (by default only when named)\n"
      "  --game          run the MovingAI game maps (NAME-r0, -r0.5, -r2); with --scenario,\n"
      "                  these besides the named ones\n"
      "  --movingai DIR  where the game maps and their .scen files are (default:\n"
      "                  " ARCNAV_BENCH_MOVINGAI_DIR ")\n"
      "  --radii MAP     build game map MAP (e.g. arena2) once per radius, R = 0, 0.5, 2, 8,\n"
      "                  with funnel-eroded and exact (unless --engine), and compare; then\n"
      "                  one planner for every radius up to 8 (max_radius) on the same queries,\n"
      "                  AUTO and interval\n"
      "  --scaling       build each engine (all but exact unless --engine) at R = 2 on random\n"
      "                  rectangles of 1,000 to 100,000 vertices: build time, memory per\n"
      "                  vertex, and the build time's exponent\n"
      "  --living MAP    place, move a step and remove a building of 20 vertices, then a\n"
      "                  unit, on MAP (rect300 or a game map) at --queries places (at most\n"
      "                  40): the cost of the map change and the planner update against a\n"
      "                  full build; units also move in turn with a standing one; on\n"
      "                  rect300, as many of the map's own rectangles taken away and put back\n"
      "  --probes MAP    time the probes (clearance, raycast, nearest free point) on game map\n"
      "                  MAP at R = 0.5 and 2, from the starts of its .scen queries\n"
      "  --sliced MAP    game map MAP's .scen queries at R = 0, 0.5 and 2, whole and as sliced\n"
      "                  searches of 64 and 1024 expansions a resume: total and longest resume\n"
      "  --engine NAME   run only these engines (plain-raw, plain-eroded, funnel-eroded,\n"
      "                  exact, exact-on-demand, exact-interval, exact-ranged: one planner\n"
      "                  for every radius up to 8 asked at the scenario's); repeatable.\n"
      "                  Length ratios need exact\n"
      "  --quick         100 queries, one run each (unless --queries/--repeat say otherwise)\n"
      "  --repeat N      time each build and query N times, keep the minimum (default 3)\n"
      "  --passes        time a scenario's queries in N passes over all of them (each once a\n"
      "                  pass) instead of each N times in a row\n"
      "  --queries N     random queries per map scenario, NEERC cases, most queries taken\n"
      "                  from a game map's .scen file (default 500)\n"
      "  --csv FILE      also write the results as CSV, one row per scenario and engine\n"
      "  --svg FILE      also draw them as an SVG bar chart\n");
}

int main(int argc, char **argv) {
  options opt = {3, false, 500, {false}, ARCNAV_BENCH_MOVINGAI_DIR};
  bool engines_named = false;
  bool repeat_given = false, queries_given = false, quick = false, all = false, game = false;
  bool list = false;
  const char *csv_path = NULL, *svg_path = NULL, *radii_map = NULL, *living_map = NULL;
  const char *probes_map = NULL;
  const char *sliced_map = NULL;
  bool scaling = false;
  bool selected[SCENARIO_COUNT] = {false};
  bool any_selected = false;
  for (int i = 1; i < argc; ++i) {
    const char *arg = argv[i];
    bool has_value = i + 1 < argc;
    if (strcmp(arg, "--list") == 0) {
      list = true;
    } else if (strcmp(arg, "--game") == 0) {
      game = true;
    } else if (strcmp(arg, "--movingai") == 0 && has_value) {
      opt.movingai = argv[++i];
    } else if (strcmp(arg, "--scaling") == 0) {
      scaling = true;
    } else if (strcmp(arg, "--radii") == 0 && has_value) {
      radii_map = argv[++i];
    } else if (strcmp(arg, "--living") == 0 && has_value) {
      living_map = argv[++i];
    } else if (strcmp(arg, "--probes") == 0 && has_value) {
      probes_map = argv[++i];
    } else if (strcmp(arg, "--sliced") == 0 && has_value) {
      sliced_map = argv[++i];
    } else if (strcmp(arg, "--scenario") == 0 && has_value) {
      const char *name = argv[++i];
      bool known = false;
      for (size_t s = 0; s < SCENARIO_COUNT; ++s) {
        if (strcmp(SCENARIOS[s].name, name) == 0) {
          selected[s] = known = any_selected = true;
        }
      }
      if (!known) {
        fprintf(stderr, "arcnav_bench: unknown scenario '%s' (see --list)\n", name);
        return 2;
      }
    } else if (strcmp(arg, "--engine") == 0 && has_value) {
      const char *name = argv[++i];
      bool known = false;
      if (!engines_named) {
        for (size_t e = 0; e < ENGINE_COUNT; ++e) {
          opt.skip[e] = true;
        }
        engines_named = true;
      }
      for (size_t e = 0; e < ENGINE_COUNT; ++e) {
        if (strcmp(ENGINES[e].name, name) == 0) {
          opt.skip[e] = false;
          known = true;
        }
      }
      if (!known) {
        fprintf(stderr,
                "arcnav_bench: unknown engine '%s' (plain-raw, plain-eroded, "
                "funnel-eroded, exact-on-demand, exact, exact-interval, exact-ranged)\n",
                name);
        return 2;
      }
    } else if (strcmp(arg, "--all") == 0) {
      all = true;
    } else if (strcmp(arg, "--quick") == 0) {
      quick = true;
    } else if (strcmp(arg, "--passes") == 0) {
      opt.passes = true;
    } else if (strcmp(arg, "--repeat") == 0 && has_value) {
      opt.repeat = atoi(argv[++i]);
      repeat_given = true;
    } else if (strcmp(arg, "--queries") == 0 && has_value) {
      opt.query_count = (size_t)strtoul(argv[++i], NULL, 10);
      queries_given = true;
    } else if (strcmp(arg, "--csv") == 0 && has_value) {
      csv_path = argv[++i];
    } else if (strcmp(arg, "--svg") == 0 && has_value) {
      svg_path = argv[++i];
    } else if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
      usage(stdout);
      return 0;
    } else {
      usage(stderr);
      return 2;
    }
  }
  if (quick) {
    opt.repeat = repeat_given ? opt.repeat : 1;
    opt.query_count = queries_given ? opt.query_count : 100;
  }
  if (opt.repeat < 1 || opt.query_count < 1) {
    usage(stderr);
    return 2;
  }
  if (list) {
    // Game maps are loaded to count their vertices (consecutive scenarios share a map).
    game_map g;
    memset(&g, 0, sizeof g);
    const char *loaded = NULL;
    bool available = false;
    char why[1200] = "";
    for (size_t s = 0; s < SCENARIO_COUNT; ++s) {
      const scenario *sc = &SCENARIOS[s];
      if (!sc->game_map) {
        printf("%-18s %s%s\n", sc->name, sc->description,
               sc->slow ? " [slow: --all or --scenario]" : "");
        continue;
      }
      if (!loaded || strcmp(loaded, sc->game_map) != 0) {
        game_map_free(&g);
        loaded = sc->game_map;
        available = game_map_load(opt.movingai, sc->game_map, &g, why, sizeof why);
      }
      if (available) {
        printf("%-18s %s, %zu polygons, %zu vertices [game: --game, --all or --scenario]\n",
               sc->name, sc->description, g.map.polygon_count, g.vertices);
      } else {
        printf("%-18s %s [game: map not available: %s]\n", sc->name, sc->description, why);
      }
    }
    game_map_free(&g);
    return 0;
  }
  if (scaling) {
    // The prebuilt tangent graph grows with the square of the corners on open maps (and AUTO
    // switches to on demand above 4000 corners): left out unless named.
    if (!engines_named) {
      for (size_t e = 0; e < ENGINE_COUNT; ++e) {
        opt.skip[e] = e == EXACT;
      }
    }
    return run_scaling(&opt);
  }
  if (living_map) {
    return run_living(living_map, &opt);
  }
  if (sliced_map) {
    return run_sliced(sliced_map, &opt);
  }
  if (probes_map) {
    return run_probes(probes_map, &opt);
  }
  if (radii_map) {
    if (!engines_named) {
      for (size_t e = 0; e < ENGINE_COUNT; ++e) {
        opt.skip[e] = strcmp(ENGINES[e].name, "funnel-eroded") != 0 && e != EXACT;
      }
    }
    return run_radii(radii_map, &opt);
  }
  FILE *csv = NULL;
  if (csv_path) {
    csv = fopen(csv_path, "w");
    if (!csv) {
      perror(csv_path);
      return 2;
    }
    fprintf(csv, "scenario,radius,engine,obstacles,queries,found,blocked,build_ms,peak_build_bytes,"
                 "held_bytes,query_median_us,query_p90_us,mean_nodes_expanded,common_queries,"
                 "mean_length,length_ratio_mean,length_ratio_max,violation_share,"
                 "worst_clearance_over_r,query_p99_us,vertices,skipped_queries\n");
  }
  chart_row rows[SCENARIO_COUNT];
  size_t row_count = 0;
  int exit_code = 0;
  for (size_t s = 0; s < SCENARIO_COUNT; ++s) {
    const scenario *sc = &SCENARIOS[s];
    bool run = any_selected || game ? selected[s] || (game && sc->game_map)
                                    : all || (!sc->slow && !sc->game_map);
    if (!run) {
      continue;
    }
    fprintf(stderr, "%s: %s\n", sc->name, sc->description);
    double t0 = seconds_now();
    scenario_result res;
    options scenario_opt = opt;
    if (!engines_named && !all && !sc->on_demand) {
      scenario_opt.skip[ON_DEMAND] = true;
    }
    if (!engines_named && !all && !interval_by_default(sc)) {
      scenario_opt.skip[INTERVAL] = true;
    }
    // The one planner for every radius: named, or with --all where the interval engine runs.
    if (!engines_named && (!all || !interval_by_default(sc))) {
      scenario_opt.skip[RANGED] = true;
    }
    bool ok = true;
    if (sc->kind == KIND_GAME) {
      game_outcome outcome = run_game(sc, &scenario_opt, &res);
      if (outcome == GAME_MISSING) {
        // Asked for by name or with --game: that is an error; with --all, a note.
        if (selected[s] || game) {
          fprintf(stderr,
                  "arcnav_bench: %s was asked for but could not run (see above; --movingai "
                  "DIR names the maps' directory)\n",
                  sc->name);
          exit_code = 2;
        }
        continue;
      }
      ok = outcome == GAME_RAN;
    } else {
      ok = sc->kind == KIND_NEERC ? run_neerc(&scenario_opt, &res)
                                  : run_map(sc, &scenario_opt, &res);
    }
    if (!ok) {
      exit_code = exit_code ? exit_code : 1;
      result_free(&res);
      continue;
    }
    char radius_text[32];
    if (res.radius_min == res.radius_max) {
      snprintf(radius_text, sizeof radius_text, "%g", res.radius_min);
    } else {
      snprintf(radius_text, sizeof radius_text, "%g..%g", res.radius_min, res.radius_max);
    }
    if (sc->kind == KIND_GAME) {
      printf("\n%s (R = %s, %zu obstacles, %zu vertices, %zu queries, %zu skipped, %.0f s)\n",
             sc->name, radius_text, res.obstacles, res.vertices, res.queries, res.skipped,
             seconds_now() - t0);
    } else {
      printf("\n%s (R = %s, %zu obstacles, %zu queries, %.0f s)\n", sc->name, radius_text,
             res.obstacles, res.queries, seconds_now() - t0);
    }
    printf("  %-13s %9s %8s %8s %6s %6s %10s %10s %10s %8s %9s %7s %7s %6s %7s\n", "engine",
           "build_ms", "peak_MB", "held_MB", "found", "blockd", "median_us", "p90_us", "p99_us",
           "nodes", "mean_len", "ratio", "max", "viol%", "minclr");
    rows[row_count].name = sc->name;
    for (size_t e = 0; e < ENGINE_COUNT; ++e) {
      engine_summary m = summarise(&res, e);
      if (scenario_opt.skip[e]) {
        memset(&m, 0, sizeof m);
        rows[row_count].engines[e] = m;
        continue;
      }
      double shown_clearance = fabs(m.worst_clearance) < 5e-4 ? 0.0 : m.worst_clearance;
      rows[row_count].engines[e] = m;
      printf("  %-13s %9.2f %8.2f %8.2f %6zu %6zu %10.1f %10.1f %10.1f %8.1f %9.1f %7.4f %7.4f "
             "%6.1f %7.3f\n",
             ENGINES[e].name, m.build_ms, m.peak_mb, m.held_mb, m.found, m.blocked, m.median_us,
             m.p90_us, m.p99_us, m.mean_nodes, m.mean_length, m.ratio_mean, m.ratio_max,
             100.0 * m.violation_share, shown_clearance);
      if (csv) {
        fprintf(csv,
                "%s,%s,%s,%zu,%zu,%zu,%zu,%.3f,%zu,%zu,%.2f,%.2f,%.1f,%zu,%.4f,%.6f,%.6f,%.6f,"
                "%.6f,%.2f,%zu,%zu\n",
                sc->name, radius_text, ENGINES[e].name, res.obstacles, res.queries, m.found,
                m.blocked, m.build_ms, res.engines[e].peak_bytes, res.engines[e].held_bytes,
                m.median_us, m.p90_us, m.mean_nodes, m.common, m.mean_length, m.ratio_mean,
                m.ratio_max, m.violation_share, m.worst_clearance, m.p99_us, res.vertices,
                res.skipped);
      }
    }
    print_agreement(&res);
    fflush(stdout);
    row_count++;
    result_free(&res);
  }
  printf("\nratio: mean length / exact length on the queries every engine answered; viol%%: found "
         "paths\ncoming closer than R to an obstacle; minclr: smallest clearance found / R (R = 0: "
         "signed\ndistance). blockd: start or goal refused (eroded engines refuse ends inside the "
         "grown\nobstacles).\n");
  if (csv) {
    fclose(csv);
  }
  if (svg_path && !write_svg(svg_path, rows, row_count)) {
    exit_code = 1;
  }
  return exit_code;
}
