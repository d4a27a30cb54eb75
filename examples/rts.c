// SPDX-License-Identifier: MIT
// A real-time strategy scene on a living map, through the public API only: a 400 x 300 field with
// 20 buildings and 8 trees, 200 units of three sizes (R = 2, 5 and 9) walking to targets, and
// buildings placed and destroyed while they walk. One planner serves every size
// (arcnav_planner_def.max_radius); after each change it is brought up to date
// (arcnav_planner_update), every walking unit asks whether the rest of its path is still free
// (arcnav_query_path_is_free) and only those whose path the change cut plan again; a unit or a
// target the new building covers moves to the nearest place its disk fits
// (arcnav_query_nearest_free), and a new target is one the unit can reach, which the passages tell
// without a search for most (arcnav_query_reachable). Path finding gets a budget of expansions per
// frame: plans run as sliced searches (arcnav_query_begin, arcnav_query_resume), one at a time per
// unit size, and a unit waits for its plan while the search goes on over the next frames. Units
// standing still are
// obstacles for the others' plans (arcnav_map_add_unit): every half second those that stopped are
// put on the map where they stand, those that walk again are taken off, and the planner is
// brought up to date; a plan ignores the unit's own squad of ten, itself included
// (arcnav_query_set_ignored). Walking units pass through one another: steering round moving units
// is the job of local avoidance, not of the planner. It prints what each frame cost and writes SVG
// frames.
//
//   arcnav_rts [OUT_DIR]      (default rts-out; frames OUT_DIR/frame_NNN.svg)

#define _POSIX_C_SOURCE 200809L // clock_gettime, mkdir

#include <arcnav/arcnav.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#define WIDTH 400.0
#define HEIGHT 300.0
#define UNIT_COUNT 200
#define BUILDING_SLOTS 40
#define FRAMES 120
#define FRAME_SECONDS 0.1
#define CHANGE_EVERY 12 // frames between two buildings placed or destroyed
#define SVG_EVERY 10
#define EXPANSIONS_PER_FRAME 200 // path finding's budget per frame, for each unit size
#define PLAN_ATTEMPTS 4          // then the unit gives up its target
#define PROBE_EXPANSIONS 50      // the most a reachability question searches, then the plan tells
#define SQUAD 10                 // units that ignore one another: 0-9, 10-19, ...
#define UNITS_EVERY 5            // frames between two updates of where the units stand

static const double SIZES[3] = {2.0, 5.0, 9.0};
static const double SPEEDS[3] = {40.0, 30.0, 20.0}; // map units per second
static const char *const COLOURS[3] = {"#2b7bb9", "#d08b1d", "#b23a48"};

typedef struct unit {
  int size; // 0, 1, 2: index into SIZES
  arcnav_vec2 position, target;
  arcnav_vec2 standing;  // where its circle stands on the map, as of the last units' update
  arcnav_obstacle_id id; // its circle on the map
  arcnav_path *path;
  double travelled; // along path
  bool walking;
  bool waiting; // in its size's queue of plans, or being planned
  int attempts; // plans tried for this target
} unit;

// The plans waiting for one unit size's query object, first come first served; the first is the
// one being searched when `searching`.
typedef struct plan_queue {
  int units[UNIT_COUNT];
  int head, count;
  bool searching;
} plan_queue;

typedef struct building {
  bool standing;
  arcnav_vec2 lo, hi;
  arcnav_obstacle_id id;
} building;

typedef struct scene {
  arcnav_map *map;
  arcnav_planner *planner;
  arcnav_query *queries[3]; // one per unit size, each at its radius: the sliced plans
  arcnav_query *probes[3];  // the same for the probes, so that they leave the plans alone
  plan_queue plans[3];
  unit units[UNIT_COUNT];
  building buildings[BUILDING_SLOTS];
  arcnav_vec2 trees[8];
  uint64_t random;
} scene;

static double now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

static double uniform(scene *s, double lo, double hi) {
  // xorshift64*: enough for a repeatable scene.
  s->random ^= s->random >> 12;
  s->random ^= s->random << 25;
  s->random ^= s->random >> 27;
  uint64_t bits = s->random * 2685821657736338717ull;
  return lo + (hi - lo) * (double)(bits >> 11) / 9007199254740992.0;
}

static void check(arcnav_status status, const char *what) {
  if (status != ARCNAV_OK) {
    fprintf(stderr, "arcnav_rts: %s: %s\n", what, arcnav_status_message(status));
    exit(1);
  }
}

static bool place_building(scene *s, building *b) {
  double w = uniform(s, 16, 40), h = uniform(s, 16, 40);
  double x = uniform(s, 10, WIDTH - 10 - w), y = uniform(s, 10, HEIGHT - 10 - h);
  b->lo = (arcnav_vec2){x, y};
  b->hi = (arcnav_vec2){x + w, y + h};
  arcnav_vec2 ring[4] = {b->lo, {b->hi.x, b->lo.y}, b->hi, {b->lo.x, b->hi.y}};
  if (arcnav_map_add_polygon(s->map, ring, 4, NULL, NULL, 0, NULL) != ARCNAV_OK) {
    return false;
  }
  b->id = arcnav_map_obstacle_id(s->map, arcnav_map_obstacle_count(s->map) - 1);
  b->standing = true;
  return true;
}

// Tells `query` to plan for unit `u`: without its squad (itself included) in the way.
static void ignore_squad(scene *s, arcnav_query *query, const unit *u) {
  int first = (int)(u - s->units) / SQUAD * SQUAD, count = 0;
  arcnav_obstacle_id squad[SQUAD];
  for (int k = 0; k < SQUAD; ++k) {
    if (s->units[first + k].id != 0) {
      squad[count++] = s->units[first + k].id;
    }
  }
  check(arcnav_query_set_ignored(query, squad, (size_t)count), "ignore the squad");
}

// The probes' query object for unit `u`.
static arcnav_query *probe_for(scene *s, const unit *u) {
  arcnav_query *query = s->probes[u->size];
  ignore_squad(s, query, u);
  return query;
}

// A point where unit `u` fits: random, then moved to the nearest free place.
static arcnav_vec2 free_point(scene *s, const unit *u) {
  arcnav_vec2 p = {uniform(s, 0, WIDTH), uniform(s, 0, HEIGHT)}, fits = p;
  check(arcnav_query_nearest_free(probe_for(s, u), p, &fits, NULL), "nearest free point");
  return fits;
}

// How many targets were refused as unreachable before any plan was made for them, and how many
// were asked about (arcnav_query_reachable).
static int targets_asked, targets_refused;

// A new target for unit `u`: a free point it can reach from where it stands. The passages tell
// most unreachable points at once (arcnav_query_reachable); the probes' expansion limit keeps a
// question they cannot tell from costing a long search within a frame: such a point is taken,
// and the sliced plan finds out.
static arcnav_vec2 reachable_target(scene *s, unit *u) {
  arcnav_vec2 target = free_point(s, u);
  for (int attempt = 0; attempt < 8; ++attempt) {
    bool reachable = false;
    arcnav_status status =
        arcnav_query_reachable(probe_for(s, u), u->position, target, &reachable, NULL);
    targets_asked++;
    if (reachable || status != ARCNAV_NO_PATH) {
      break;
    }
    targets_refused++;
    target = free_point(s, u);
  }
  return target;
}

// Plans the unit's way to its target; a target it cannot reach is given up for a new one.
static int plan(scene *s, unit *u) {
  for (int attempt = 0; attempt < 4; ++attempt) {
    ignore_squad(s, s->queries[u->size], u);
    arcnav_status status = arcnav_find_path(s->queries[u->size], u->position, u->target, u->path);
    if (status == ARCNAV_OK) {
      u->travelled = 0;
      u->walking = true;
      return attempt + 1;
    }
    if (status == ARCNAV_START_BLOCKED) {
      check(arcnav_query_nearest_free(probe_for(s, u), u->position, &u->position, NULL),
            "nearest free point");
    } else {
      u->target = reachable_target(s, u);
    }
  }
  u->walking = false;
  return 4;
}

// Queues a plan for the unit, which stands still until it has one.
static void request_plan(scene *s, unit *u) {
  u->walking = false;
  if (u->waiting) {
    return;
  }
  plan_queue *q = &s->plans[u->size];
  q->units[(q->head + q->count) % UNIT_COUNT] = (int)(u - s->units);
  q->count++;
  u->waiting = true;
  u->attempts = 0;
}

// After a change of the map the search under way starts again from where its unit stands now.
static void restart_searches(scene *s) {
  for (int k = 0; k < 3; ++k) {
    plan_queue *q = &s->plans[k];
    if (q->searching) {
      const unit *u = &s->units[q->units[q->head]];
      check(arcnav_query_begin(s->queries[k], u->position, u->target), "begin");
    }
  }
}

// Spends up to `budget` expansions on the plans of one unit size; returns the plans finished.
static int run_plans(scene *s, int size, size_t budget) {
  plan_queue *q = &s->plans[size];
  arcnav_query *query = s->queries[size];
  int finished = 0;
  while (q->count > 0 && budget > 0) {
    unit *u = &s->units[q->units[q->head]];
    if (!q->searching) {
      ignore_squad(s, query, u);
      check(arcnav_query_begin(query, u->position, u->target), "begin");
      q->searching = true;
    }
    size_t before = arcnav_query_get_stats(query).nodes_expanded;
    arcnav_status status = arcnav_query_resume(query, budget, u->path);
    size_t spent = arcnav_query_get_stats(query).nodes_expanded - before;
    budget -= spent < budget ? spent : budget;
    if (status == ARCNAV_IN_PROGRESS) {
      break;
    }
    q->searching = false;
    if (status == ARCNAV_OK || ++u->attempts >= PLAN_ATTEMPTS) {
      u->walking = status == ARCNAV_OK;
      u->travelled = 0;
      u->waiting = false;
      q->head = (q->head + 1) % UNIT_COUNT;
      q->count--;
      finished++;
    } else if (status == ARCNAV_START_BLOCKED) {
      // Another squad's unit stood here at the last units' update: step out of its way.
      check(arcnav_query_nearest_free(probe_for(s, u), u->position, &u->position, NULL), "nearest");
    } else {
      u->target = reachable_target(s, u); // unreachable: another, same place in the queue
    }
  }
  return finished;
}

static void write_frame(const scene *s, const char *dir, int frame) {
  char name[1024];
  snprintf(name, sizeof name, "%s/frame_%03d.svg", dir, frame);
  FILE *f = fopen(name, "w");
  if (!f) {
    fprintf(stderr, "arcnav_rts: cannot write %s\n", name);
    exit(1);
  }
  fprintf(f,
          "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 %g %g\" width=\"800\" "
          "height=\"600\">\n<rect width=\"%g\" height=\"%g\" fill=\"#f4f1e8\"/>\n",
          WIDTH, HEIGHT, WIDTH, HEIGHT);
  for (int i = 0; i < BUILDING_SLOTS; ++i) {
    const building *b = &s->buildings[i];
    if (b->standing) {
      fprintf(f, "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" fill=\"#8c8577\"/>\n",
              b->lo.x, HEIGHT - b->hi.y, b->hi.x - b->lo.x, b->hi.y - b->lo.y);
    }
  }
  for (int i = 0; i < 8; ++i) {
    fprintf(f, "<circle cx=\"%.2f\" cy=\"%.2f\" r=\"4\" fill=\"#5d8a4a\"/>\n", s->trees[i].x,
            HEIGHT - s->trees[i].y);
  }
  for (int i = 0; i < UNIT_COUNT; ++i) {
    const unit *u = &s->units[i];
    if (u->walking) {
      // The rest of the way, sampled every 2 units of length.
      fprintf(f, "<polyline fill=\"none\" stroke=\"%s\" stroke-opacity=\"0.35\" points=\"",
              COLOURS[u->size]);
      double length = arcnav_path_length(u->path);
      for (double d = u->travelled; d < length + 2.0; d += 2.0) {
        arcnav_vec2 p, heading;
        arcnav_path_point_at(u->path, d, &p, &heading);
        fprintf(f, "%.2f,%.2f ", p.x, HEIGHT - p.y);
      }
      fprintf(f, "\"/>\n");
    }
    fprintf(f, "<circle cx=\"%.2f\" cy=\"%.2f\" r=\"%g\" fill=\"%s\" fill-opacity=\"0.8\"/>\n",
            u->position.x, HEIGHT - u->position.y, SIZES[u->size], COLOURS[u->size]);
  }
  fprintf(f, "<text x=\"4\" y=\"12\" font-size=\"10\">frame %d</text>\n</svg>\n", frame);
  fclose(f);
}

int main(int argc, char **argv) {
  const char *dir = argc > 1 ? argv[1] : "rts-out";
  if (mkdir(dir, 0755) != 0 && errno != EEXIST) {
    fprintf(stderr, "arcnav_rts: cannot create %s\n", dir);
    return 1;
  }
  static scene s;
  s.random = 0x5eed2026u;
  check(arcnav_map_create(NULL, &s.map), "map");
  arcnav_vec2 bounds[4] = {{0, 0}, {WIDTH, 0}, {WIDTH, HEIGHT}, {0, HEIGHT}};
  check(arcnav_map_set_bounds(s.map, bounds, 4, NULL), "bounds");
  for (int i = 0; i < 20; ++i) {
    place_building(&s, &s.buildings[i]);
  }
  for (int i = 0; i < 8; ++i) {
    s.trees[i] = (arcnav_vec2){uniform(&s, 20, WIDTH - 20), uniform(&s, 20, HEIGHT - 20)};
    check(arcnav_map_add_circle(s.map, s.trees[i], 4.0, NULL), "tree");
  }
  arcnav_planner_def def = arcnav_default_planner_def();
  def.radius = SIZES[0];
  def.max_radius = SIZES[2];
  double t0 = now_ms();
  check(arcnav_planner_create(s.map, &def, &s.planner), "planner");
  printf("one planner for R = 2, 5 and 9: built in %.2f ms\n", now_ms() - t0);
  for (int k = 0; k < 3; ++k) {
    check(arcnav_query_create(s.planner, &s.queries[k]), "query");
    check(arcnav_query_set_radius(s.queries[k], SIZES[k]), "radius");
    check(arcnav_query_create(s.planner, &s.probes[k]), "query");
    check(arcnav_query_set_radius(s.probes[k], SIZES[k]), "radius");
    check(arcnav_query_set_expansion_limit(s.probes[k], PROBE_EXPANSIONS), "limit");
  }
  t0 = now_ms();
  for (int i = 0; i < UNIT_COUNT; ++i) {
    unit *u = &s.units[i];
    u->size = i < 100 ? 0 : i < 160 ? 1 : 2;
    check(arcnav_path_create(NULL, &u->path), "path");
    u->position = free_point(&s, u);
  }
  for (int i = 0; i < UNIT_COUNT; ++i) {
    unit *u = &s.units[i];
    u->target = reachable_target(&s, u);
    plan(&s, u);
  }
  printf("%d units planned in %.2f ms\n", UNIT_COUNT, now_ms() - t0);
  printf("frame  event              update_ms  checked  cut  covered  planned  waiting  "
         "frame_ms\n");
  double total_ms = 0, worst_ms = 0, unit_update_ms = 0;
  int events = 0, unit_updates = 0, units_changed = 0;
  for (int frame = 1; frame <= FRAMES; ++frame) {
    double frame_start = now_ms();
    const char *event = "";
    double update_ms = 0;
    int checked = 0, cut = 0, covered = 0, planned = 0;
    if (frame % CHANGE_EVERY == 0) {
      // Alternately place a new building and destroy one of those standing.
      int slot = -1;
      if (events++ % 2 == 0) {
        for (int i = 0; i < BUILDING_SLOTS && slot < 0; ++i) {
          slot = s.buildings[i].standing ? -1 : i;
        }
        event = slot >= 0 && place_building(&s, &s.buildings[slot]) ? "building placed" : "";
      } else {
        int standing[BUILDING_SLOTS], count = 0;
        for (int i = 0; i < BUILDING_SLOTS; ++i) {
          if (s.buildings[i].standing) {
            standing[count++] = i;
          }
        }
        slot = standing[(int)uniform(&s, 0, count) % count];
        check(arcnav_map_remove_obstacle(s.map, s.buildings[slot].id), "remove");
        s.buildings[slot].standing = false;
        event = "building destroyed";
      }
      double u0 = now_ms();
      check(arcnav_planner_update(s.planner, s.map), "update");
      update_ms = now_ms() - u0;
      for (int i = 0; i < UNIT_COUNT; ++i) {
        unit *u = &s.units[i];
        arcnav_query *query = probe_for(&s, u);
        bool target_free = arcnav_query_point_is_free(query, u->target);
        if (!arcnav_query_point_is_free(query, u->position) || !target_free) {
          // The new building covers the unit or its target: to the nearest place it fits.
          covered++;
          check(arcnav_query_nearest_free(query, u->position, &u->position, NULL), "nearest");
          check(arcnav_query_nearest_free(query, u->target, &u->target, NULL), "nearest");
          request_plan(&s, u);
          continue;
        }
        if (!u->walking) {
          continue;
        }
        bool still_free = true;
        double contact = INFINITY;
        checked++;
        check(arcnav_query_path_is_free(query, u->path, &still_free, &contact), "still free");
        // Only a cut ahead of the unit matters; the way behind it is walked already.
        if (!still_free && contact >= u->travelled - 1e-9) {
          cut++;
          request_plan(&s, u);
        }
      }
      restart_searches(&s);
    } else if (frame % UNITS_EVERY == 0) {
      // Units that stopped go on the map where they stand; those walking again come off it.
      double u0 = now_ms();
      int changed = 0;
      for (int i = 0; i < UNIT_COUNT; ++i) {
        unit *u = &s.units[i];
        if (!u->walking && u->id == 0) {
          check(arcnav_map_add_unit(s.map, u->position, SIZES[u->size], &u->id), "unit");
          changed++;
        } else if (u->walking && u->id != 0) {
          check(arcnav_map_remove_obstacle(s.map, u->id), "unit");
          u->id = 0;
          changed++;
        }
      }
      if (changed > 0) {
        check(arcnav_planner_update(s.planner, s.map), "update");
        event = "units";
        restart_searches(&s);
      }
      update_ms = now_ms() - u0;
      units_changed += changed;
      unit_updates++;
      unit_update_ms += update_ms;
    }
    for (int i = 0; i < UNIT_COUNT; ++i) {
      unit *u = &s.units[i];
      if (u->waiting) {
        continue;
      }
      if (!u->walking) {
        u->target = reachable_target(&s, u);
        request_plan(&s, u);
        continue;
      }
      u->travelled += SPEEDS[u->size] * FRAME_SECONDS;
      arcnav_vec2 heading;
      arcnav_path_point_at(u->path, u->travelled, &u->position, &heading);
      if (u->travelled >= arcnav_path_length(u->path)) {
        u->walking = false;
      }
    }
    int waiting = 0;
    for (int k = 0; k < 3; ++k) {
      planned += run_plans(&s, k, EXPANSIONS_PER_FRAME);
      waiting += s.plans[k].count;
    }
    double frame_ms = now_ms() - frame_start;
    total_ms += frame_ms;
    worst_ms = fmax(worst_ms, frame_ms);
    if ((event[0] != '\0' && strcmp(event, "units") != 0) || frame % 30 == 0) {
      printf("%5d  %-18s %9.3f  %7d  %3d  %7d  %7d  %7d  %8.3f\n", frame, event, update_ms, checked,
             cut, covered, planned, waiting, frame_ms);
    }
    if (frame % SVG_EVERY == 0) {
      write_frame(&s, dir, frame);
    }
  }
  printf("%d frames: %.3f ms a frame on average, %.3f ms at worst; frames in %s/\n", FRAMES,
         total_ms / FRAMES, worst_ms, dir);
  printf("units standing still on the map: %d put on or taken off in %d updates, %.3f ms an "
         "update on average\n",
         units_changed, unit_updates, unit_update_ms / (unit_updates > 0 ? unit_updates : 1));
  printf("new targets: %d asked whether reachable, %d refused before any plan\n", targets_asked,
         targets_refused);
  for (int i = 0; i < UNIT_COUNT; ++i) {
    arcnav_path_destroy(s.units[i].path);
  }
  for (int k = 0; k < 3; ++k) {
    arcnav_query_destroy(s.queries[k]);
    arcnav_query_destroy(s.probes[k]);
  }
  arcnav_planner_destroy(s.planner);
  arcnav_map_destroy(s.map);
  return 0;
}
