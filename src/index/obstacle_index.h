// SPDX-License-Identifier: MIT
#pragma once

// The obstacles of a map filed by area, for the point tests of a navmesh build: a grid holds the
// obstacles whose boxes cover few cells, a list the others. A point's candidates are the list
// and the items of its cell.

#include "geom/alloc.h"
#include "index/cell_buckets.h"
#include "map/map.h"

#include <stddef.h>
#include <stdint.h>

typedef struct an_obstacle_index {
  vec2 lo;
  double cw, ch;
  int32_t gw, gh;
  an_cell_table cells; ///< per cell (gw * gh), the obstacles filed there
  uint32_t *big;       ///< obstacles listed everywhere
  size_t big_count;
} an_obstacle_index;

/// Files the obstacles of `map` with at most `max_vertices` vertices in a grid over [lo, hi]
/// (circles of radius 0 block nothing and are left out). A zeroed *ix on entry is safe to free
/// after a failure. @return ARCNAV_OK or ARCNAV_ERR_OUT_OF_MEMORY.
arcnav_status an_obstacle_index_build(const arcnav_map *map, const an_allocator *alloc, vec2 lo,
                                      vec2 hi, size_t max_vertices, an_obstacle_index *ix);
void an_obstacle_index_free(an_obstacle_index *ix, const an_allocator *alloc);

/// The items of the cell holding p (points outside the grid go to the nearest cell).
void an_obstacle_index_cell(const an_obstacle_index *ix, vec2 p, const uint32_t **first,
                            const uint32_t **last);
