// SPDX-License-Identifier: MIT
// A goal's distances to the landmarks, bounded through the corners of its triangle.
#include "mesh/landmarks.h"

#include <math.h>

void an_landmarks_goal(const an_landmarks *landmarks, const vec2 *points, const int32_t corners[3],
                       vec2 goal, an_landmark_goal *out) {
  out->count = landmarks->count;
  if (out->count == 0) {
    return;
  }
  for (size_t k = 0; k < out->count; ++k) {
    out->below[k] = -INFINITY;
    out->above[k] = INFINITY;
  }
  for (int c = 0; c < 3; ++c) {
    // The goal sees every corner of a free triangle that holds it, so its distance to a landmark
    // is the corner's within the length between them.
    const float *d = &landmarks->distance[(size_t)corners[c] * landmarks->count];
    double between = v2_dist(points[corners[c]], goal);
    for (size_t k = 0; k < out->count; ++k) {
      double at = fabs(d[k]);
      if (at < INFINITY) {
        double error = at * AN_LANDMARK_ROUNDING + landmarks->slack + between;
        out->below[k] = an_max(out->below[k], at - error);
        if (!signbit(d[k])) { // at a pinch the goal's side may not be the one measured
          out->above[k] = an_min(out->above[k], at + error);
        }
      }
    }
  }
}

void an_landmark_goal_join(an_landmark_goal *into, const an_landmark_goal *other) {
  for (size_t k = 0; k < into->count; ++k) {
    into->below[k] = an_min(into->below[k], other->below[k]);
    into->above[k] = an_max(into->above[k], other->above[k]);
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
