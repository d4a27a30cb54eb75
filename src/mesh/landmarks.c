// SPDX-License-Identifier: MIT
// A goal's distances to the landmarks, bounded through the corners of its triangle.
#include "mesh/landmarks.h"

#include <math.h>

void an_landmark_goal_start(const an_landmarks *landmarks, an_landmark_goal *out) {
  out->count = landmarks->count;
  for (size_t k = 0; k < out->count; ++k) {
    out->below[k] = INFINITY;
    out->above[k] = -INFINITY;
  }
}

void an_landmark_goal_add(const an_landmarks *landmarks, const vec2 *points,
                          const int32_t corners[3], vec2 goal, an_landmark_goal *out) {
  for (size_t k = 0; k < out->count; ++k) {
    // The goal sees every corner of the triangle, so its distance to a landmark is a corner's
    // within the length between them.
    double below = -INFINITY, above = INFINITY;
    for (int c = 0; c < 3; ++c) {
      float stored = landmarks->distance[(size_t)corners[c] * landmarks->count + k];
      double at = fabs(stored);
      if (at < INFINITY) {
        double error = an_landmark_error(landmarks, at, v2_dist(points[corners[c]], goal));
        below = an_max(below, at - error);
        if (!signbit(stored)) { // at a pinch the goal's side may not be the one measured
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
  if (!an_reserve(alloc, (void **)&landmarks->distance, &landmarks->capacity, used, point_count * k,
                  sizeof *landmarks->distance)) {
    return ARCNAV_ERR_OUT_OF_MEMORY;
  }
  for (size_t i = used; i < point_count * k; ++i) {
    landmarks->distance[i] = INFINITY;
  }
  for (size_t i = 0; i < count; ++i) {
    for (size_t j = 0; j < k; ++j) {
      landmarks->distance[(size_t)vertices[i] * k + j] = INFINITY;
    }
  }
  landmarks->vertex_count = point_count;
  return ARCNAV_OK;
}

void an_landmarks_free(an_landmarks *landmarks, const an_allocator *alloc) {
  an_free(alloc, landmarks->distance);
  *landmarks = (an_landmarks){0};
}

size_t an_landmarks_memory_bytes(const an_landmarks *landmarks) {
  return landmarks->capacity * sizeof(float);
}
