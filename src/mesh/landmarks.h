// SPDX-License-Identifier: MIT
#pragma once

// Landmarks (ALT: Goldberg and Harrelson, 2005): for a few points L of the free mesh, the length of
// a point agent's shortest path from L to every mesh vertex. By the triangle inequality a path from
// x to the goal is at least |d(x, L) - d(goal, L)| long, for a point agent and so for a disk, whose
// path is a point's path among the same obstacles. The searches add this to their straight-line
// bound where it is larger: in a maze or round a long wall it is far closer to the truth, and a
// search expands only what could still lead to a shorter path. docs/DESIGN.md, "Landmarks", says
// why the bounds below hold for every engine.
//
// The table lives with the mesh it was measured on (an_navmesh.landmarks) and does not depend on
// the agent's radius. It is built by funnel/landmarks_build.c, which runs the interval search.

#include "arcnav/arcnav.h"
#include "geom/alloc.h"
#include "geom/geom.h"

#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/// At most this many landmarks (a goal's bounds are kept on the stack).
#define AN_LANDMARKS_MAX 16

/// A search between two places reads at most this many landmarks' bounds: those that bound the
/// way between them best (an_landmark_goal_focus()).
#define AN_LANDMARKS_ACTIVE 4

/// A stored length: its length in steps of an_landmarks.step in the low 15 bits, rounded to the
/// nearest (AN_LANDMARK_UNKNOWN: no length, no path joins them or nothing is known), and
/// AN_LANDMARK_PINCH set at a vertex where free space meets itself (a pinch: two fans of free
/// triangles), whose length is the shorter of its sides', a lower bound for every side but not an
/// upper one. Two bytes a length: the table keeps twice the landmarks floats would in the same
/// room.
#define AN_LANDMARK_UNKNOWN 0x7FFFu
#define AN_LANDMARK_PINCH 0x8000u

/// The rounding of the sums that made a measured length, relative to it.
#define AN_LANDMARK_ROUNDING 0x1p-22

typedef struct an_landmarks {
  size_t count;        ///< 0: no landmarks, every bound is 0
  size_t vertex_count; ///< the mesh's points when measured
  /// Vertex-major: code[v * count + k], the length from landmark k to vertex v (see
  /// AN_LANDMARK_UNKNOWN).
  uint16_t *code;
  size_t capacity; ///< codes `code` has room for
  double step;     ///< the length of a code's step: the longest length measured / 32,766
  double slack;    ///< absolute: a few of the mesh's eps, for its points' snapping
} an_landmarks;

/// The length a code holds (INFINITY: none).
static inline double an_landmark_length(const an_landmarks *landmarks, uint16_t code) {
  unsigned steps = code & AN_LANDMARK_UNKNOWN;
  return steps == AN_LANDMARK_UNKNOWN ? INFINITY : steps * landmarks->step;
}

/// The code of length `at` (INFINITY: none) in steps of `step`, at a pinch or not.
static inline uint16_t an_landmark_code(double at, double step, bool pinch) {
  double steps =
      at < INFINITY ? fmin(round(at / step), AN_LANDMARK_UNKNOWN - 1) : AN_LANDMARK_UNKNOWN;
  return (uint16_t)((unsigned)steps | (pinch ? AN_LANDMARK_PINCH : 0u));
}

/// What the goal's place says of its distance to each landmark: at least `below[k]`, at most
/// `above[k]` (-INFINITY and INFINITY when unknown).
typedef struct an_landmark_goal {
  size_t count; ///< 0: no bound (no landmarks, or a goal beyond the mesh)
  double below[AN_LANDMARKS_MAX];
  double above[AN_LANDMARKS_MAX];
  uint8_t column[AN_LANDMARKS_MAX]; ///< slot k's landmark: the table's column
} an_landmark_goal;

/// Keeps the `keep` landmarks whose bounds on the way between the goal and the place `from`
/// describes (built as a goal's) are the largest: a search between the two reads only those.
void an_landmark_goal_focus(an_landmark_goal *goal, const an_landmark_goal *from, size_t keep);

/// Focuses the goal's bounds (an_landmark_goal_focus()) on a search's start `start`, which the
/// free triangles `tris` (`count` of them; their corners `fv`, 3 each, into `points`) hold, to
/// AN_LANDMARKS_ACTIVE landmarks. Nothing to do for fewer landmarks or no triangle.
void an_landmark_goal_focus_on(const an_landmarks *landmarks, const vec2 *points, const int32_t *fv,
                               const int32_t *tris, size_t count, vec2 start,
                               an_landmark_goal *goal);

/// Begins a goal's bounds: none yet, for an_landmark_goal_add() to widen. A goal needs at least
/// one triangle added before its bounds are used.
void an_landmark_goal_start(const an_landmarks *landmarks, an_landmark_goal *out);
/// Adds a free triangle that holds the goal (`corners`, its vertices, each of which sees the goal):
/// `out` keeps the bounds that hold in every triangle added. A goal within eps of several free
/// triangles may be reached in any of them, and at a pinch they lie on sides of the vertex that
/// no path joins through it.
void an_landmark_goal_add(const an_landmarks *landmarks, const vec2 *points,
                          const int32_t corners[3], vec2 goal, an_landmark_goal *out);

/// How far a stored length `at` may lie from the truth, for a point within `reach` of its vertex:
/// a step (the code's rounding, half a step, and more), the sums' rounding, the snapping of the
/// mesh's points, and the reach.
static inline double an_landmark_error(const an_landmarks *landmarks, double at, double reach) {
  return landmarks->step + at * AN_LANDMARK_ROUNDING + landmarks->slack + reach;
}

/// The least length of a path from any point a point agent joins to mesh vertex `vertex` within
/// `reach` to the goal: 0 when the landmarks know nothing of it.
static inline double an_landmarks_bound(const an_landmarks *landmarks, const an_landmark_goal *goal,
                                        int32_t vertex, double reach) {
  double bound = 0.0;
  if (goal->count == 0) {
    return bound;
  }
  const uint16_t *d = &landmarks->code[(size_t)vertex * landmarks->count];
  for (size_t k = 0; k < goal->count; ++k) {
    uint16_t stored = d[goal->column[k]];
    double at = an_landmark_length(landmarks, stored);
    if (at < INFINITY) {
      double error = an_landmark_error(landmarks, at, reach);
      bound = an_max(bound, at - error - goal->above[k]);
      if (!(stored & AN_LANDMARK_PINCH)) {
        bound = an_max(bound, goal->below[k] - at - error);
      }
    }
  }
  return bound;
}

/// What the landmarks' bound may add, at mesh vertex `vertex`, to a search's keys along a path
/// through it: for every vertex r, an_landmarks_bound(r) <= d(r, vertex) + this (both bounds'
/// forms, errors on both ends; at a pinch too, whose stored length is its nearest side's). A
/// measuring search keyed by the landmarks knows a vertex's length when that length plus the
/// larger of this and the straight way to its goal stays below its stop key (DESIGN.md, "The
/// guide measures"). 0 when the landmarks know nothing.
static inline double an_landmarks_allowance(const an_landmarks *landmarks,
                                            const an_landmark_goal *goal, int32_t vertex) {
  double allowance = 0.0;
  if (goal->count == 0) {
    return allowance;
  }
  const uint16_t *d = &landmarks->code[(size_t)vertex * landmarks->count];
  for (size_t k = 0; k < goal->count; ++k) {
    double at = an_landmark_length(landmarks, d[goal->column[k]]);
    if (!(at < INFINITY)) {
      // No path joins the vertex and landmark k: a vertex r the landmark reaches has no path to
      // it either, and one it does not reach got no bound from k.
      continue;
    }
    double error = an_landmark_error(landmarks, at, 0.0);
    allowance = an_max(allowance, an_max(at + error - goal->above[k], goal->below[k] - at + error));
  }
  return allowance;
}

/// Brings the landmarks up to the mesh after an edit that only added obstacles, in place: the
/// lengths of the map before it are kept, for `point_count` points now, with none (INFINITY) at
/// the `count` vertices the edit made or reused. Every bound stays a bound: a path of the new map
/// is one of the old map, and so is every segment it sees (DESIGN.md, "Landmarks"). Nothing to
/// do without landmarks. @return ARCNAV_OK, or ARCNAV_ERR_OUT_OF_MEMORY with the table unchanged.
arcnav_status an_landmarks_after_addition(an_landmarks *landmarks, size_t point_count,
                                          const int32_t *vertices, size_t count,
                                          const an_allocator *alloc);

void an_landmarks_free(an_landmarks *landmarks, const an_allocator *alloc);
size_t an_landmarks_memory_bytes(const an_landmarks *landmarks);
