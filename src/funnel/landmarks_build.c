// SPDX-License-Identifier: MIT
// Landmarks chosen far apart (the "farthest" selection of ALT) and measured by the interval
// search's distances mode.
#include "funnel/landmarks_build.h"

#include "funnel/interval_search.h"
#include "geom/alloc.h"

#include <math.h>

/// A free triangle of the part of the mesh with the most triangles (the part most queries are
/// in) into *out, or -1 when there is none. ARCNAV_OK or ARCNAV_ERR_OUT_OF_MEMORY.
static arcnav_status largest_part_triangle(const an_navmesh *mesh, const an_allocator *alloc,
                                           int32_t *out) {
  *out = mesh->free_count > 0 ? 0 : -1;
  if (mesh->free_count == 0 || !mesh->component) {
    return ARCNAV_OK;
  }
  size_t parts = 0;
  for (size_t t = 0; t < mesh->free_count; ++t) {
    parts = (size_t)mesh->component[t] + 1 > parts ? (size_t)mesh->component[t] + 1 : parts;
  }
  size_t *sizes = an_calloc(alloc, parts, sizeof *sizes);
  if (!sizes) {
    return ARCNAV_ERR_OUT_OF_MEMORY;
  }
  for (size_t t = 0; t < mesh->free_count; ++t) {
    sizes[mesh->component[t]]++;
  }
  size_t best = 0;
  for (size_t p = 1; p < parts; ++p) {
    best = sizes[p] > sizes[best] ? p : best;
  }
  an_free(alloc, sizes);
  size_t t = 0;
  while ((size_t)mesh->component[t] != best) { // the largest part has a triangle
    ++t;
  }
  *out = (int32_t)t;
  return ARCNAV_OK;
}

static vec2 centroid(const an_navmesh *mesh, int32_t tri) {
  const int32_t *v = &mesh->fv[3 * (size_t)tri];
  const vec2 *p = mesh->cdt.points;
  return (vec2){(p[v[0]].x + p[v[1]].x + p[v[2]].x) / 3.0,
                (p[v[0]].y + p[v[1]].y + p[v[2]].y) / 3.0};
}

/// The vertex whose least distance to the landmarks so far (`nearest`) is largest, and a free
/// triangle at it (-1 when no vertex is reached).
static int32_t farthest_triangle(const an_navmesh *mesh, const double *nearest) {
  int32_t best_tri = -1;
  double best = -1.0;
  for (size_t t = 0; t < mesh->free_count; ++t) {
    for (int c = 0; c < 3; ++c) {
      double d = nearest[mesh->fv[3 * t + (size_t)c]];
      if (d < INFINITY && d > best) {
        best = d;
        best_tri = (int32_t)t;
      }
    }
  }
  return best_tri;
}

/// Marks (1) the vertices where free space meets itself: more than one fan of free triangles
/// round them, so more than one triangle with a wall on the edge that leaves the vertex
/// counter-clockwise (a whole ring of free triangles has none).
static void mark_pinches(const an_navmesh *mesh, uint8_t *fans) {
  for (size_t t = 0; t < mesh->free_count; ++t) {
    for (int k = 0; k < 3; ++k) {
      if (mesh->fn[3 * t + (size_t)an_cdt_prev3(k)] < 0) {
        uint8_t *f = &fans[mesh->fv[3 * t + (size_t)k]];
        *f = *f < 2 ? (uint8_t)(*f + 1) : 2;
      }
    }
  }
}

/// How much longer than the straight line the paths from `from` are on average, over the vertices
/// they reach (1 when none is apart from it).
static double mean_detour(const an_navmesh *mesh, vec2 from, const double *distances) {
  double sum = 0.0;
  size_t count = 0;
  for (size_t v = 0; v < mesh->cdt.point_count; ++v) {
    double straight = v2_dist(mesh->cdt.points[v], from);
    if (distances[v] < INFINITY && straight > 0.0) {
      sum += distances[v] / straight;
      count++;
    }
  }
  return count > 0 ? sum / (double)count : 1.0;
}

arcnav_status an_landmarks_build(an_navmesh *mesh, size_t count, bool engine_rules) {
  const an_allocator *alloc = &mesh->alloc;
  an_landmarks_free(&mesh->landmarks, alloc);
  count = count < AN_LANDMARKS_MAX ? count : AN_LANDMARKS_MAX;
  int32_t tri = -1;
  if (mesh->connector_count == 0 && largest_part_triangle(mesh, alloc, &tri) != ARCNAV_OK) {
    return ARCNAV_ERR_OUT_OF_MEMORY;
  }
  if (count == 0 || tri < 0 || (engine_rules && mesh->cdt.point_count < AN_LANDMARK_MIN_POINTS)) {
    return ARCNAV_OK;
  }
  size_t nv = mesh->cdt.point_count;
  // Game maps take 2 to 6 expansions per triangle; a mesh that takes far more (a polygon of
  // thousands of vertices seen round from a fan of slivers) gets no landmarks rather than a
  // build that grows with the square of its size.
  size_t budget = AN_LANDMARK_EXPANSIONS_PER_TRIANGLE * mesh->free_count + 4096;
  an_interval_scratch *scratch = NULL;
  double *distances = an_alloc(alloc, nv, sizeof *distances);
  double *nearest = an_alloc(alloc, nv, sizeof *nearest);
  // Kept as floats, one landmark after another, then coded once the longest is known (the float's
  // rounding is within the codes' allowance for the sums', AN_LANDMARK_ROUNDING).
  float *table = an_alloc(alloc, nv * count, sizeof *table);
  uint16_t *codes = an_alloc(alloc, nv * count, sizeof *codes);
  uint8_t *fans = an_calloc(alloc, nv, sizeof *fans);
  arcnav_status status = distances && nearest && table && codes && fans
                             ? an_interval_scratch_create(mesh, alloc, &scratch)
                             : ARCNAV_ERR_OUT_OF_MEMORY;
  // The first run, from a triangle of the part, only finds where the first landmark goes.
  if (status == ARCNAV_OK) {
    mark_pinches(mesh, fans);
    status = an_interval_distances(mesh, scratch, centroid(mesh, tri), budget, nearest);
  }
  bool worth =
      status == ARCNAV_OK &&
      (!engine_rules || mean_detour(mesh, centroid(mesh, tri), nearest) >= AN_LANDMARK_MIN_DETOUR);
  for (size_t k = 0; k < count && worth && status == ARCNAV_OK; ++k) {
    tri = farthest_triangle(mesh, nearest);
    if (tri < 0) { // a part of a single point: the landmarks left know nothing
      for (size_t v = 0; v < nv; ++v) {
        table[v * count + k] = INFINITY;
      }
      continue;
    }
    status = an_interval_distances(mesh, scratch, centroid(mesh, tri), budget, distances);
    for (size_t v = 0; v < nv && status == ARCNAV_OK; ++v) {
      table[v * count + k] = (float)distances[v];
      nearest[v] = k == 0 ? distances[v] : an_min(nearest[v], distances[v]);
    }
  }
  an_interval_scratch_destroy(scratch);
  an_free(alloc, distances);
  an_free(alloc, nearest);
  if (status != ARCNAV_OK || !worth) {
    an_free(alloc, table);
    an_free(alloc, codes);
    an_free(alloc, fans);
    return status == ARCNAV_START_BLOCKED || status == ARCNAV_SEARCH_LIMIT ? ARCNAV_OK : status;
  }
  double longest = 0.0;
  for (size_t i = 0; i < nv * count; ++i) {
    longest = table[i] < INFINITY ? an_max(longest, table[i]) : longest;
  }
  double step = longest > 0.0 ? longest / (AN_LANDMARK_UNKNOWN - 1) : 1.0;
  for (size_t v = 0; v < nv; ++v) {
    for (size_t k = 0; k < count; ++k) {
      codes[v * count + k] = an_landmark_code(table[v * count + k], step, fans[v] > 1);
    }
  }
  an_free(alloc, table);
  an_free(alloc, fans);
  mesh->landmarks = (an_landmarks){.count = count,
                                   .vertex_count = nv,
                                   .code = codes,
                                   .capacity = nv * count,
                                   .step = step,
                                   .slack = 4.0 * mesh->eps};
  return ARCNAV_OK;
}
