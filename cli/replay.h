// SPDX-License-Identifier: MIT
#pragma once

// The state of `arcnav replay` (cmd_replay.c) shared with the operations that probe the free
// space (replay_probes.c): the map, each obstacle under its name, and planners per radius.

#include "loaded_map.h"

#include <arcnav/arcnav.h>
#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/// Planners kept at once, one per radius; the radius used longest ago makes room.
#define AN_REPLAY_PLANNERS 8

typedef struct an_replay_obstacle {
  char *name;
  an_cli_shape shape; ///< as given, moved with the obstacle: what `save` writes
  bool soft;
  arcnav_obstacle_id id;
} an_replay_obstacle;

typedef struct an_replay_planner {
  double radius;
  arcnav_planner *planner;
  arcnav_query *query;
  uint64_t changes; ///< the replay's change count when it was last brought up to date
} an_replay_planner;

typedef struct an_replay {
  arcnav_map *map; ///< NULL before the first load or add
  an_replay_obstacle *obstacles;
  size_t count, capacity;
  bool has_bounds;
  an_cli_ring bounds;
  an_replay_planner planners[AN_REPLAY_PLANNERS];
  size_t planner_count;
  uint64_t changes; ///< moves on with every change of the map
  arcnav_path *path;
  char error[512]; ///< why the operation running was refused
} an_replay;

/// Refuse the operation running, with a message.
void an_replay_fail(an_replay *r, const char *format, ...) __attribute__((format(printf, 2, 3)));

/// Member `name` of `op` as a finite number: `fallback` when absent and not `required`.
bool an_replay_number(an_replay *r, const cJSON *op, const char *name, bool required,
                      double fallback, double *out);
/// Member `name` as [x, y]; *present [opt] tells whether it was given (null counts as absent).
bool an_replay_point(an_replay *r, const cJSON *op, const char *name, bool required, bool *present,
                     arcnav_vec2 *out);
/// The operation's "radius": 0 when absent, never negative.
bool an_replay_radius(an_replay *r, const cJSON *op, double *out);

/// The query object of the planner for `radius`, brought up to date with the map; NULL (and the
/// operation refused) when there is no map or the planner cannot be built.
arcnav_query *an_replay_query(an_replay *r, double radius);

/// The operations of replay_probes.c: each answers `op` into `out` (members after "ok"), or
/// refuses it (an_replay_fail) and returns false.
bool an_replay_op_nearest(an_replay *r, const cJSON *op, FILE *out);
bool an_replay_op_raycast(an_replay *r, const cJSON *op, FILE *out);
bool an_replay_op_clearance(an_replay *r, const cJSON *op, FILE *out);
bool an_replay_op_still_free(an_replay *r, const cJSON *op, FILE *out);
