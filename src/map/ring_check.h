// SPDX-License-Identifier: MIT
#pragma once

// Validation of new rings before the map stores them: what arcnav_map_add_polygon() and
// arcnav_map_set_bounds() accept (see arcnav.h) is decided here, so map.c only stores.

#include "arcnav/arcnav.h"
#include "geom/alloc.h"
#include "geom/geom.h"

/// Fill `error` (may be NULL) with a status and where it arose (-1: not about one).
static inline void an_set_error(arcnav_error *error, arcnav_status status, int obstacle, int ring,
                                int vertex) {
  if (error) {
    error->status = status;
    error->obstacle = obstacle;
    error->ring = ring;
    error->vertex = vertex;
  }
}

/// A ring cleaned of consecutive duplicates, remembering each kept vertex's index as given so that
/// errors point at the caller's data.
typedef struct an_clean_ring {
  vec2 *points;
  int *source_index;
  size_t count;
} an_clean_ring;

/// Cleans and validates a polygon's rings (outer first; `ring_count` of them, the input of ring r
/// being inputs[r] with counts[r] vertices) into `rings`, which the caller frees with
/// an_clean_ring_free() whatever the outcome. Where a vertex of one ring lies inside an edge of
/// another, that edge comes out split there. On failure fills `error` (naming `obstacle`).
arcnav_status an_prepare_rings(const an_allocator *alloc, const vec2 *const *inputs,
                               const size_t *counts, size_t ring_count, int obstacle,
                               an_clean_ring *rings, arcnav_error *error);

void an_clean_ring_free(const an_allocator *alloc, an_clean_ring *ring);

/// Would the map accept these rings as one polygon (outer first) or, with one ring, as bounds?
/// The same checks as an_prepare_rings(), for rings built inside the library (the eroded map's),
/// which no map validated. Sets `*clean`; fails only with ARCNAV_ERR_OUT_OF_MEMORY.
arcnav_status an_rings_are_clean(const an_allocator *alloc, const vec2 *const *inputs,
                                 const size_t *counts, size_t ring_count, bool *clean);

/// Reverse the ring (and its source indices) unless it already turns the wanted way.
void an_orient_ring(an_clean_ring *ring, bool want_ccw);
