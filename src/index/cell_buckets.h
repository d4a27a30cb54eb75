// SPDX-License-Identifier: MIT
#pragma once

// The compressed table behind every spatial index of the library: for each cell (of a grid, or
// any numbered set of places such as mesh vertices or triangles) the list of items filed there.
// Built in two passes over the same items: the first counts what each cell receives, the second
// files the items into the space the counts reserved. Both passes must put the same items in the
// same cells in the same order; each cell then lists its items in the order they were put, which
// the searches rely on to break ties the same way every time.
//
// The cells are kept in chunks of AN_CELL_CHUNK_CELLS consecutive cells, each the offsets of its
// cells' lists and the lists themselves. A table carried into a new one after a local change
// (an_cell_buckets_put_carried()) shares every chunk the change left as it was, so that the change
// costs the chunks it touched rather than a copy of the whole table (docs/DESIGN.md, "Tables in
// chunks").

#include "geom/alloc.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/// Cells per chunk of a table.
#define AN_CELL_CHUNK_SHIFT 6
#define AN_CELL_CHUNK_CELLS ((size_t)1 << AN_CELL_CHUNK_SHIFT)

/// The allocation a build made its chunks in, freed when no table holds any of them.
typedef struct an_cell_slab an_cell_slab;

/// Cells c0 .. c0 + AN_CELL_CHUNK_CELLS - 1 of a table: cell c0 + i lists
/// items[start[i] .. start[i + 1]) (cells past the table's end list nothing).
typedef struct an_cell_chunk {
  an_cell_slab *slab;
  uint32_t start[AN_CELL_CHUNK_CELLS + 1];
  uint32_t items[];
} an_cell_chunk;

/// A finished table. Copies of the struct read the same chunks; an_cell_table_free() lets go of
/// them once, for the owner.
typedef struct an_cell_table {
  an_cell_chunk **chunks; ///< NULL: not built
  size_t cell_count;
} an_cell_table;

/// The list of `cell` (< cell_count): *count items from the result.
static inline const uint32_t *an_cell_table_list(const an_cell_table *table, size_t cell,
                                                 uint32_t *count) {
  const an_cell_chunk *chunk = table->chunks[cell >> AN_CELL_CHUNK_SHIFT];
  const uint32_t *start = &chunk->start[cell & (AN_CELL_CHUNK_CELLS - 1)];
  *count = start[1] - start[0];
  return chunk->items + start[0];
}

/// How many items the cells list in all.
size_t an_cell_table_entries(const an_cell_table *table);
/// Do the two list the same items in the same cells, each in the same order?
bool an_cell_table_same(const an_cell_table *a, const an_cell_table *b);
/// Bytes held, shared chunks counted whole.
size_t an_cell_table_memory_bytes(const an_cell_table *table);
/// Lets go of the chunks (freeing those no other table holds) and zeroes the table.
void an_cell_table_free(an_cell_table *table, const an_allocator *alloc);

typedef struct an_cell_buckets {
  an_cell_table table; ///< being built: complete after the filing pass
  /// Per cell: its count during the counting pass, then where its next item goes in its chunk;
  /// set to zero a chunk at a time, as the chunk is marked changed or made.
  uint32_t *next;
  /// Per chunk: it holds a put, or a carried cell that changed, so it is made afresh; the others
  /// are shared with the carried table.
  uint8_t *changed;
  /// The table an_cell_buckets_put_carried() carries (NULL: none), and how.
  const an_cell_table *carried;
  const int32_t *renumber;
  const uint8_t *dropping;
  const uint8_t *cleared;
  bool marks_all;
  an_cell_slab *slab; ///< where the counting pass made the chunks it did not share
  bool filling;       ///< false during the counting pass, true during the filing pass
} an_cell_buckets;

/// A rectangle of cells of a row-major grid, bounds included: columns c0..c1 of rows r0..r1.
typedef struct an_cell_rect {
  int32_t c0, c1, r0, r1;
} an_cell_rect;

/// Starts the counting pass for `cell_count` cells. On failure *buckets holds nothing to free.
/// @return ARCNAV_OK or ARCNAV_ERR_OUT_OF_MEMORY.
arcnav_status an_cell_buckets_init(an_cell_buckets *buckets, size_t cell_count,
                                   const an_allocator *alloc);

/// Marks chunk `chunk` changed (during the counting pass) and sets its cells' counts to zero.
void an_cell_buckets_mark_chunk(an_cell_buckets *buckets, size_t chunk);

/// Puts `item` in `cell` (< cell_count): counted in the first pass, filed in the second. Inline:
/// it runs once per item and cell.
static inline void an_cell_buckets_put(an_cell_buckets *buckets, size_t cell, uint32_t item) {
  if (buckets->filling) {
    an_cell_chunk *chunk = buckets->table.chunks[cell >> AN_CELL_CHUNK_SHIFT];
    chunk->items[buckets->next[cell]++] = item;
  } else {
    if (!buckets->changed[cell >> AN_CELL_CHUNK_SHIFT]) {
      an_cell_buckets_mark_chunk(buckets, cell >> AN_CELL_CHUNK_SHIFT);
    }
    buckets->next[cell]++;
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

/// Puts, cell by cell, the entries of an older table `old` (whose cells are the same places as
/// this one's first cells) under their new numbers: renumber[item], left out where that is -1;
/// with `renumber` NULL every entry as it was. Cells past the old table's get none; the old
/// table's cells past this one's must hold no entry that stays. `dropping` (NULL: every cell)
/// marks the cells that may hold an entry renumbered to -1; the others are counted without
/// reading their entries. With `marks_every_change` it marks every cell that holds an entry the
/// renumbering changes at all (moves or leaves out), and the cells it leaves unmarked are kept as
/// they are. `cleared` (NULL: none; one per old cell) marks cells whose old entries all go, those
/// past this table's cells too: places that are other places now (a triangle a change made
/// anew). It must be the first put of each pass: the puts after it follow the old entries in
/// each cell. The chunks in which nothing changes are shared with `old`, which must stay alive
/// until the end of the filing pass. Carrying a table this way, rather than filing every item
/// again by its box, is what keeps a local update of a large map cheap (docs/DESIGN.md, "Several
/// radii, locally").
void an_cell_buckets_put_carried(an_cell_buckets *buckets, const an_cell_table *old,
                                 const int32_t *renumber, const uint8_t *dropping,
                                 bool marks_every_change, const uint8_t *cleared);

/// Ends a pass. After the counting pass: makes the chunks (shares those of the carried table that
/// nothing changed, allocates the others); the filing pass follows. After the filing pass: the
/// table is complete (buckets->table, the caller's from then on) and the working arrays freed.
/// @return ARCNAV_OK, ARCNAV_ERR_OUT_OF_MEMORY, or ARCNAV_ERR_TOO_LARGE when the entries would
/// not fit 32-bit offsets. On failure the caller still frees (an_cell_buckets_free()).
arcnav_status an_cell_buckets_end_pass(an_cell_buckets *buckets, const an_allocator *alloc);

/// The list of `cell` in the table just built, to be put in another order: the cell must have had
/// a put in this build (its chunk is this table's alone).
uint32_t *an_cell_buckets_own_list(an_cell_buckets *buckets, size_t cell, uint32_t *count);

/// Frees what the builder holds, the table too (for a table not handed over), and zeroes it.
void an_cell_buckets_free(an_cell_buckets *buckets, const an_allocator *alloc);
