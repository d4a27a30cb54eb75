// SPDX-License-Identifier: MIT
#pragma once

// The compressed table behind every spatial index of the library: for each cell (of a grid, or
// any numbered set of places such as mesh vertices or triangles) the list of items filed there,
// stored as one array of item indices grouped by cell plus the offset where each cell's group
// starts. Built in two passes over the same items: the first counts what each cell receives, the
// second files the items into the space the counts reserved. Both passes must put the same items
// in the same cells in the same order; each cell then lists its items in the order they were put,
// which the searches rely on to break ties the same way every time.

#include "geom/alloc.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct an_cell_buckets {
  uint32_t *cell_start; ///< cell_count + 1 offsets into items once built
  uint32_t *items;      ///< item indices grouped by cell; allocated by the counting pass
  size_t cell_count;
  size_t total; ///< entries put during the counting pass
  bool filling; ///< false during the counting pass, true during the filing pass
} an_cell_buckets;

/// A rectangle of cells of a row-major grid, bounds included: columns c0..c1 of rows r0..r1.
typedef struct an_cell_rect {
  int32_t c0, c1, r0, r1;
} an_cell_rect;

/// Starts the counting pass for `cell_count` cells. On failure *buckets holds nothing to free.
/// @return ARCNAV_OK or ARCNAV_ERR_OUT_OF_MEMORY.
arcnav_status an_cell_buckets_init(an_cell_buckets *buckets, size_t cell_count,
                                   const an_allocator *alloc);

/// Puts `item` in `cell` (< cell_count): counted in the first pass, filed in the second. Inline:
/// it runs once per item and cell.
static inline void an_cell_buckets_put(an_cell_buckets *buckets, size_t cell, uint32_t item) {
  if (buckets->filling) {
    buckets->items[buckets->cell_start[cell]++] = item;
  } else {
    buckets->cell_start[cell + 1]++;
    buckets->total++;
  }
}

/// Puts `item` in every cell of `rect` (within a grid of `columns` columns), row by row from r0,
/// each row from c0: the order every grid of the library files a box in.
static inline void an_cell_buckets_put_rect(an_cell_buckets *buckets, int32_t columns,
                                            an_cell_rect rect, uint32_t item) {
  for (int32_t r = rect.r0; r <= rect.r1; ++r) {
    for (int32_t c = rect.c0; c <= rect.c1; ++c) {
      an_cell_buckets_put(buckets, (size_t)r * (size_t)columns + (size_t)c, item);
    }
  }
}

/// Puts, cell by cell, the entries of an older table (`start`, `items`, over `old_cells` cells, the
/// same places as this one's first cells) under their new numbers: renumber[item], left out where
/// that is -1; with `renumber` NULL every entry as it was. Cells past the old table's get none;
/// the old table's cells past this one's must hold no entry that stays. `dropping` (NULL: every
/// cell) marks the cells that may hold an entry renumbered to -1; the others are counted without
/// reading their entries. With `marks_every_change` it marks every cell that holds an entry the
/// renumbering changes at all (moves or leaves out), and the cells it leaves unmarked are copied as
/// they are. It must be the first put of each pass: the puts after it follow the old entries in
/// each cell. Copying a table this way, rather than filing every item again by its box, is what
/// keeps a local update of a large map cheap (docs/DESIGN.md, "Several radii, locally").
void an_cell_buckets_put_carried(an_cell_buckets *buckets, const uint32_t *start,
                                 const uint32_t *items, size_t old_cells, const int32_t *renumber,
                                 const uint8_t *dropping, bool marks_every_change);

/// Ends a pass. After the counting pass: turns the counts into offsets and allocates the items
/// (at least one entry, so an empty table still has an array); the filing pass follows. After the
/// filing pass: the table is complete, cell c lists items[cell_start[c] .. cell_start[c + 1]).
/// @return ARCNAV_OK, ARCNAV_ERR_OUT_OF_MEMORY, or ARCNAV_ERR_TOO_LARGE when the entries would
/// not fit 32-bit offsets. On failure the caller still frees (an_cell_buckets_free()).
arcnav_status an_cell_buckets_end_pass(an_cell_buckets *buckets, const an_allocator *alloc);

/// Frees what the table holds (for a table not handed over to its owner) and zeroes it.
void an_cell_buckets_free(an_cell_buckets *buckets, const an_allocator *alloc);
