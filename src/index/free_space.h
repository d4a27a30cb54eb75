// SPDX-License-Identifier: MIT
#pragma once

// The free test every engine but the eroded funnel shares: the obstacle grid and the clearance
// checks on it (clearance.h), set up for one radius. Start and goal are judged by this same test
// in every engine that has it, so engines agree on which points are free.

#include "geom/alloc.h"
#include "index/clearance.h"
#include "index/grid.h"
#include "map/map.h"

typedef struct an_free_space {
  an_grid grid;
  an_clearance clearance; ///< points at `grid`: the struct stays where it was built
} an_free_space;

/// Builds the grid for `radius` and the clearance settings in place. On failure the caller
/// destroys it (an_free_space_destroy()), as after success.
arcnav_status an_free_space_build(const arcnav_map *map, double radius, double eps,
                                  const an_allocator *alloc, an_free_space *space);
/// an_free_space_build() with the grid filed for `reach_radius` (at least `radius`), so that an
/// engine for a larger radius may share it (an_free_space_share()).
arcnav_status an_free_space_build_reaching(const arcnav_map *map, double radius,
                                           double reach_radius, double eps,
                                           const an_allocator *alloc, an_free_space *space);
/// The free space `from` holds, for `radius` (at most the one its grid was filed for): the same
/// grid tables, not copied (`from` outlives it; nothing to destroy), settings for `radius`.
void an_free_space_share(const an_free_space *from, double radius, an_free_space *space);
void an_free_space_destroy(an_free_space *space, const an_allocator *alloc);
size_t an_free_space_memory_bytes(const an_free_space *space);

/// an_point_is_free() for an agent of `radius` (at most the one the space was built for, and a
/// point agent only if it was built for one) with working memory of its own for the one call:
/// false when it cannot allocate it.
bool an_free_space_point_is_free_once(const an_free_space *space, double radius,
                                      const an_allocator *alloc, vec2 point);
