// SPDX-License-Identifier: MIT
// A goal's distances to the landmarks, bounded through the corners of its triangle.
#include "mesh/landmarks.h"

#include <math.h>
#include <stdbool.h>

void an_landmark_goal_start(const an_landmarks *landmarks, an_landmark_goal *out) {
  out->count = landmarks->count;
  for (size_t k = 0; k < out->count; ++k) {
    out->below[k] = INFINITY;
    out->above[k] = -INFINITY;
    out->column[k] = (uint8_t)k;
  }
}

void an_landmark_goal_focus(an_landmark_goal *goal, const an_landmark_goal *from, size_t keep) {
  if (goal->count <= keep || from->count != goal->count) {
    return;
  }
  // Each slot's bound on the way between the two places, from their ranges of lengths to the
  // landmark (an unknown range bounds nothing); the best `keep`, best first, make the new slots.
  double gain[AN_LANDMARKS_MAX];
  for (size_t k = 0; k < goal->count; ++k) {
    double g = an_max(from->below[k] - goal->above[k], goal->below[k] - from->above[k]);
    gain[k] = g == g ? g : -INFINITY;
  }
  an_landmark_goal kept = {.count = keep};
  bool taken[AN_LANDMARKS_MAX] = {false};
  for (size_t i = 0; i < keep; ++i) {
    size_t best = goal->count;
    for (size_t k = 0; k < goal->count; ++k) {
      best = !taken[k] && (best == goal->count || gain[k] > gain[best]) ? k : best;
    }
    taken[best] = true;
    kept.below[i] = goal->below[best];
    kept.above[i] = goal->above[best];
    kept.column[i] = goal->column[best];
  }
  *goal = kept;
}

void an_landmark_goal_focus_on(const an_landmarks *landmarks, const vec2 *points, const int32_t *fv,
                               const int32_t *tris, size_t count, vec2 start,
                               an_landmark_goal *goal) {
  if (goal->count <= AN_LANDMARKS_ACTIVE || count == 0) {
    return;
  }
  an_landmark_goal from;
  an_landmark_goal_start(landmarks, &from);
  for (size_t k = 0; k < count; ++k) {
    an_landmark_goal_add(landmarks, points, &fv[3 * (size_t)tris[k]], start, &from);
  }
  an_landmark_goal_focus(goal, &from, AN_LANDMARKS_ACTIVE);
}

void an_landmark_goal_add(const an_landmarks *landmarks, const vec2 *points,
                          const int32_t corners[3], vec2 goal, an_landmark_goal *out) {
  for (size_t k = 0; k < out->count; ++k) {
    // The goal sees every corner of the triangle, so its distance to a landmark is a corner's
    // within the length between them.
    double below = -INFINITY, above = INFINITY;
    for (int c = 0; c < 3; ++c) {
      uint16_t stored = landmarks->code[(size_t)corners[c] * landmarks->count + out->column[k]];
      double at = an_landmark_length(landmarks, stored);
      if (at < INFINITY) {
        double error = an_landmark_error(landmarks, at, v2_dist(points[corners[c]], goal));
        below = an_max(below, at - error);
        // At a pinch the goal's side may not be the one measured.
        if (!(stored & AN_LANDMARK_PINCH)) {
          above = an_min(above, at + error);
        }
      }
    }
    out->below[k] = an_min(out->below[k], below);
    out->above[k] = an_max(out->above[k], above);
  }
}

arcnav_status an_landmarks_after_addition(an_landmarks *landmarks, size_t point_count,
                                          const int32_t *vertices, size_t count,
                                          const an_allocator *alloc) {
  size_t k = landmarks->count;
  if (k == 0) {
    return ARCNAV_OK;
  }
  size_t used = landmarks->vertex_count * k;
  if (!an_reserve(alloc, (void **)&landmarks->code, &landmarks->capacity, used, point_count * k,
                  sizeof *landmarks->code)) {
    return ARCNAV_ERR_OUT_OF_MEMORY;
  }
  for (size_t i = used; i < point_count * k; ++i) {
    landmarks->code[i] = AN_LANDMARK_UNKNOWN;
  }
  for (size_t i = 0; i < count; ++i) {
    for (size_t j = 0; j < k; ++j) {
      landmarks->code[(size_t)vertices[i] * k + j] = AN_LANDMARK_UNKNOWN;
    }
  }
  landmarks->vertex_count = point_count;
  return ARCNAV_OK;
}

void an_landmarks_free(an_landmarks *landmarks, const an_allocator *alloc) {
  an_free(alloc, landmarks->code);
  *landmarks = (an_landmarks){0};
}

size_t an_landmarks_memory_bytes(const an_landmarks *landmarks) {
  return landmarks->capacity * sizeof *landmarks->code;
}
