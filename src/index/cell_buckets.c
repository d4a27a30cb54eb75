// SPDX-License-Identifier: MIT
// The two-pass builder of the per-cell item tables (cell_buckets.h).
#include "index/cell_buckets.h"

#include <assert.h>
#include <stdbool.h>
#include <string.h>

arcnav_status an_cell_buckets_init(an_cell_buckets *buckets, size_t cell_count,
                                   const an_allocator *alloc) {
  memset(buckets, 0, sizeof *buckets);
  buckets->cell_start = an_calloc(alloc, cell_count + 1, sizeof *buckets->cell_start);
  if (!buckets->cell_start) {
    return ARCNAV_ERR_OUT_OF_MEMORY;
  }
  buckets->cell_count = cell_count;
  return ARCNAV_OK;
}

void an_cell_buckets_put_carried(an_cell_buckets *buckets, const uint32_t *start,
                                 const uint32_t *items, size_t old_cells, const int32_t *renumber,
                                 const uint8_t *dropping, bool marks_every_change) {
  // What an_cell_buckets_put() does per entry, a cell at a time: a large map's tables hold
  // hundreds of thousands of entries, and this runs on every local update. A cell that keeps
  // every entry as it was (no renumbering, or an unmarked cell when the marks cover every change)
  // is counted without reading its entries and copied with its neighbours in one go.
  uint32_t *at = buckets->cell_start;
  bool marks_all = marks_every_change && dropping;
  // Cells past the old table's have no old entries; the old table's cells past this one's must
  // hold none that stay.
  size_t cells = old_cells < buckets->cell_count ? old_cells : buckets->cell_count;
#ifndef NDEBUG
  for (size_t k = start[cells]; k < start[old_cells]; ++k) {
    assert(renumber && renumber[items[k]] < 0);
  }
#endif
  if (!buckets->filling) {
    size_t total = 0;
    for (size_t cell = 0; cell < cells; ++cell) {
      uint32_t count = start[cell + 1] - start[cell];
      bool drops = renumber && (!dropping || dropping[cell]);
      for (uint32_t k = start[cell]; drops && k < start[cell + 1]; ++k) {
        count -= renumber[items[k]] < 0;
      }
      at[cell + 1] += count;
      total += count;
    }
    buckets->total += total;
    return;
  }
  uint32_t *to = buckets->items;
  // First in the pass, every cell's group begins with the old entries, and a cell that gets
  // nothing else and keeps its entries as they were is exactly as long as before: a run of such
  // cells is copied in one go.
  uint32_t run_from = start[0], run_to = at[0];
  for (size_t cell = 0; cell < cells; ++cell) {
    uint32_t count = start[cell + 1] - start[cell];
    if (!renumber || (marks_all && !dropping[cell])) {
      bool more = at[cell + 1] - at[cell] != count;
      at[cell] += count;
      if (more) {
        memcpy(to + run_to, items + run_from, (start[cell + 1] - run_from) * sizeof *to);
        run_from = start[cell + 1];
        run_to = at[cell + 1];
      }
      continue;
    }
    memcpy(to + run_to, items + run_from, (start[cell] - run_from) * sizeof *to);
    uint32_t next = at[cell];
    for (uint32_t k = start[cell]; k < start[cell + 1]; ++k) {
      int32_t now = renumber[items[k]];
      assert(now >= 0 || !dropping || dropping[cell]); // dropped only where marked
      if (now >= 0) {
        to[next++] = (uint32_t)now;
      }
    }
    at[cell] = next;
    run_from = start[cell + 1];
    run_to = at[cell + 1];
  }
  memcpy(to + run_to, items + run_from, (start[cells] - run_from) * sizeof *to);
}

arcnav_status an_cell_buckets_end_pass(an_cell_buckets *buckets, const an_allocator *alloc) {
  uint32_t *start = buckets->cell_start;
  size_t cells = buckets->cell_count;
  if (buckets->filling) {
    // Filing advanced every start to where the next cell's group begins: shift back by one cell.
    memmove(start + 1, start, cells * sizeof *start);
    start[0] = 0;
    return ARCNAV_OK;
  }
  // Below UINT32_MAX in total, no single cell's count can have wrapped either.
  if (buckets->total >= UINT32_MAX) {
    return ARCNAV_ERR_TOO_LARGE;
  }
  // start[c + 1] holds cell c's count: the running sum makes start[c] the start of cell c.
  for (size_t c = 0; c < cells; ++c) {
    start[c + 1] += start[c];
  }
  buckets->items = an_alloc(alloc, buckets->total > 0 ? buckets->total : 1, sizeof *buckets->items);
  if (!buckets->items) {
    return ARCNAV_ERR_OUT_OF_MEMORY;
  }
  buckets->filling = true;
  return ARCNAV_OK;
}

void an_cell_buckets_free(an_cell_buckets *buckets, const an_allocator *alloc) {
  an_free(alloc, buckets->cell_start);
  an_free(alloc, buckets->items);
  memset(buckets, 0, sizeof *buckets);
}
