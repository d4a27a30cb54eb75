// SPDX-License-Identifier: MIT
// The two-pass builder of the per-cell item tables, and the tables' chunks (cell_buckets.h).
#include "index/cell_buckets.h"

#include <assert.h>
#include <stdalign.h>
#include <string.h>

struct an_cell_slab {
  size_t holders; ///< (table, chunk) pairs holding one of its chunks: the last to let go frees it
};

// Bytes of a chunk of `entries` items, rounded so that chunks can follow one another in a slab.
static size_t chunk_bytes(size_t entries) {
  size_t bytes = offsetof(an_cell_chunk, items) + entries * sizeof(uint32_t);
  return (bytes + alignof(an_cell_chunk) - 1) / alignof(an_cell_chunk) * alignof(an_cell_chunk);
}

// A slab's header, before its first chunk.
static size_t slab_header_bytes(void) {
  size_t align = alignof(an_cell_chunk);
  return (sizeof(an_cell_slab) + align - 1) / align * align;
}

static size_t chunk_count_of(size_t cells) {
  return (cells + AN_CELL_CHUNK_CELLS - 1) >> AN_CELL_CHUNK_SHIFT;
}

// How many of chunk c's cells lie in a table of `cells` cells.
static size_t cells_in_chunk(size_t cells, size_t c) {
  size_t first = c << AN_CELL_CHUNK_SHIFT;
  return first >= cells                        ? 0
         : cells - first < AN_CELL_CHUNK_CELLS ? cells - first
                                               : AN_CELL_CHUNK_CELLS;
}

static void release_chunk(an_cell_chunk *chunk, const an_allocator *alloc) {
  if (chunk && --chunk->slab->holders == 0) {
    an_free(alloc, chunk->slab);
  }
}

size_t an_cell_table_entries(const an_cell_table *table) {
  size_t total = 0;
  for (size_t c = 0; table->chunks && c < chunk_count_of(table->cell_count); ++c) {
    total += table->chunks[c]->start[AN_CELL_CHUNK_CELLS];
  }
  return total;
}

bool an_cell_table_same(const an_cell_table *a, const an_cell_table *b) {
  if (a->cell_count != b->cell_count) {
    return false;
  }
  for (size_t cell = 0; cell < a->cell_count; ++cell) {
    uint32_t na, nb;
    const uint32_t *la = an_cell_table_list(a, cell, &na), *lb = an_cell_table_list(b, cell, &nb);
    if (na != nb || (na > 0 && memcmp(la, lb, na * sizeof *la) != 0)) {
      return false;
    }
  }
  return true;
}

size_t an_cell_table_memory_bytes(const an_cell_table *table) {
  if (!table->chunks) {
    return 0;
  }
  size_t chunks = chunk_count_of(table->cell_count), bytes = (chunks + 1) * sizeof *table->chunks;
  for (size_t c = 0; c < chunks; ++c) {
    bytes += chunk_bytes(table->chunks[c]->start[AN_CELL_CHUNK_CELLS]);
  }
  return bytes;
}

void an_cell_table_free(an_cell_table *table, const an_allocator *alloc) {
  for (size_t c = 0; table->chunks && c < chunk_count_of(table->cell_count); ++c) {
    release_chunk(table->chunks[c], alloc);
  }
  an_free(alloc, table->chunks);
  memset(table, 0, sizeof *table);
}

arcnav_status an_cell_buckets_init(an_cell_buckets *buckets, size_t cell_count,
                                   const an_allocator *alloc) {
  memset(buckets, 0, sizeof *buckets);
  size_t chunks = chunk_count_of(cell_count);
  // The counts and the chunks' marks in one allocation: the builder's working arrays. Only the
  // marks start at zero: the counts are set so a chunk at a time (an_cell_buckets_mark_chunk()),
  // which a table carried over a local change does for the few chunks it changes.
  buckets->next = an_alloc(alloc, 1, (cell_count + 1) * sizeof *buckets->next + chunks + 1);
  buckets->table.chunks = an_calloc(alloc, chunks + 1, sizeof *buckets->table.chunks);
  if (!buckets->next || !buckets->table.chunks) {
    an_free(alloc, buckets->next);
    an_free(alloc, buckets->table.chunks);
    memset(buckets, 0, sizeof *buckets);
    return ARCNAV_ERR_OUT_OF_MEMORY;
  }
  buckets->changed = (uint8_t *)(buckets->next + cell_count + 1);
  memset(buckets->changed, 0, chunks + 1);
  buckets->table.cell_count = cell_count;
  return ARCNAV_OK;
}

// Sets the counts of chunk c's cells to zero.
static void zero_counts(an_cell_buckets *buckets, size_t c) {
  size_t first = c << AN_CELL_CHUNK_SHIFT;
  memset(buckets->next + first, 0,
         cells_in_chunk(buckets->table.cell_count, c) * sizeof *buckets->next);
}

void an_cell_buckets_mark_chunk(an_cell_buckets *buckets, size_t chunk) {
  zero_counts(buckets, chunk);
  buckets->changed[chunk] = 1;
}

// Does old cell `cell` keep its entries as they were (put_carried's arguments in `buckets`)?
static bool kept_as_it_was(const an_cell_buckets *buckets, size_t cell) {
  return (!buckets->cleared || !buckets->cleared[cell]) &&
         (!buckets->renumber || (buckets->marks_all && !buckets->dropping[cell]));
}

// How many of old cell `cell`'s entries stay: all of them but where one may be dropped.
static uint32_t kept_count(const an_cell_buckets *buckets, size_t cell) {
  if (buckets->cleared && buckets->cleared[cell]) {
    return 0;
  }
  uint32_t count;
  const uint32_t *list = an_cell_table_list(buckets->carried, cell, &count);
  if (!buckets->renumber || (buckets->dropping && !buckets->dropping[cell])) {
    return count;
  }
  uint32_t kept = 0;
  for (uint32_t k = 0; k < count; ++k) {
    kept += buckets->renumber[list[k]] >= 0;
  }
  return kept;
}

// The cells the old and the new table both have.
static size_t carried_cells(const an_cell_buckets *buckets) {
  size_t old = buckets->carried->cell_count, now = buckets->table.cell_count;
  return old < now ? old : now;
}

void an_cell_buckets_put_carried(an_cell_buckets *buckets, const an_cell_table *old,
                                 const int32_t *renumber, const uint8_t *dropping,
                                 bool marks_every_change, const uint8_t *cleared) {
  buckets->carried = old;
  buckets->renumber = renumber;
  buckets->dropping = dropping;
  buckets->cleared = cleared;
  buckets->marks_all = marks_every_change && dropping;
  size_t cells = carried_cells(buckets);
#ifndef NDEBUG
  for (size_t cell = cells; cell < old->cell_count; ++cell) {
    uint32_t count;
    const uint32_t *list = an_cell_table_list(old, cell, &count);
    for (uint32_t k = 0; k < count && !(cleared && cleared[cell]); ++k) {
      assert(renumber && renumber[list[k]] < 0);
    }
  }
#endif
  if (!buckets->filling) {
    // The chunks holding a cleared cell that listed something are made afresh (clearing an
    // empty cell changes nothing, and the chunk may still be shared).
    for (size_t c = 0; cleared && c < chunk_count_of(cells); ++c) {
      size_t first = c << AN_CELL_CHUNK_SHIFT, end = first + cells_in_chunk(cells, c);
      bool any = false;
      for (size_t cell = first; cell < end && !any; ++cell) {
        uint32_t count = 0;
        if (cleared[cell]) {
          an_cell_table_list(old, cell, &count);
        }
        any = count > 0;
      }
      if (any && !buckets->changed[c]) {
        an_cell_buckets_mark_chunk(buckets, c);
      }
    }
    // Which chunks the carried entries change; their counts are taken when the pass ends, for the
    // chunks made afresh only. With the marks holding every change, the chunks holding a mark;
    // else those holding an entry the renumbering changes.
    for (size_t c = 0; renumber && c < chunk_count_of(cells); ++c) {
      size_t first = c << AN_CELL_CHUNK_SHIFT, end = first + cells_in_chunk(cells, c);
      if (buckets->changed[c]) {
        continue;
      }
      if (buckets->marks_all) {
        uint8_t any = 0;
        for (size_t cell = first; cell < end; ++cell) {
          any |= dropping[cell];
        }
        if (any) {
          an_cell_buckets_mark_chunk(buckets, c);
        }
        continue;
      }
      for (size_t cell = first; cell < end && !buckets->changed[c]; ++cell) {
        uint32_t count;
        const uint32_t *list = an_cell_table_list(old, cell, &count);
        for (uint32_t k = 0; k < count; ++k) {
          if (renumber[list[k]] != (int32_t)list[k]) {
            an_cell_buckets_mark_chunk(buckets, c);
            break;
          }
        }
      }
    }
    return;
  }
  for (size_t c = 0; c < chunk_count_of(cells); ++c) {
    an_cell_chunk *chunk = buckets->table.chunks[c];
    if (chunk->slab != buckets->slab) {
      continue; // shared as it was
    }
    size_t first = c << AN_CELL_CHUNK_SHIFT, end = first + cells_in_chunk(cells, c);
    for (size_t cell = first; cell < end; ++cell) {
      if (cleared && cleared[cell]) {
        continue;
      }
      uint32_t count;
      const uint32_t *list = an_cell_table_list(old, cell, &count);
      uint32_t *to = chunk->items + buckets->next[cell];
      if (kept_as_it_was(buckets, cell)) {
        memcpy(to, list, count * sizeof *to);
        buckets->next[cell] += count;
        continue;
      }
      uint32_t kept = 0;
      for (uint32_t k = 0; k < count; ++k) {
        int32_t now = renumber[list[k]];
        assert(now >= 0 || !dropping || dropping[cell]); // dropped only where marked
        if (now >= 0) {
          to[kept++] = (uint32_t)now;
        }
      }
      buckets->next[cell] += kept;
    }
  }
}

// Can chunk c be the carried table's own: nothing put in it, nothing carried into it changed, and
// the same cells in both tables?
static bool shares_chunk(const an_cell_buckets *buckets, size_t c) {
  const an_cell_table *old = buckets->carried;
  return old && !buckets->changed[c] && c < chunk_count_of(old->cell_count) &&
         cells_in_chunk(old->cell_count, c) == cells_in_chunk(buckets->table.cell_count, c);
}

// The counting pass's end: shares what it can, and makes the other chunks in one slab with their
// cells' offsets, `next` then where each cell's first item goes.
static arcnav_status make_chunks(an_cell_buckets *buckets, const an_allocator *alloc) {
  size_t cells = buckets->table.cell_count, chunks = chunk_count_of(cells);
  size_t carried = buckets->carried ? carried_cells(buckets) : 0;
  uint32_t *next = buckets->next;
  size_t bytes = slab_header_bytes();
  bool fresh = false;
  for (size_t c = 0; c < chunks; ++c) {
    if (shares_chunk(buckets, c)) {
      continue;
    }
    size_t first = c << AN_CELL_CHUNK_SHIFT, end = first + cells_in_chunk(cells, c);
    if (!buckets->changed[c]) {
      zero_counts(buckets, c); // nothing put there: made afresh for want of a chunk to share
    }
    size_t entries = 0;
    for (size_t cell = first; cell < end; ++cell) {
      if (cell < carried) {
        next[cell] += kept_count(buckets, cell);
      }
      entries += next[cell];
    }
    if (entries >= UINT32_MAX) {
      return ARCNAV_ERR_TOO_LARGE;
    }
    bytes += chunk_bytes(entries);
    fresh = true;
  }
  unsigned char *at = NULL;
  if (fresh) {
    buckets->slab = an_alloc(alloc, 1, bytes);
    if (!buckets->slab) {
      return ARCNAV_ERR_OUT_OF_MEMORY;
    }
    buckets->slab->holders = 0;
    at = (unsigned char *)buckets->slab + slab_header_bytes();
  }
  for (size_t c = 0; c < chunks; ++c) {
    if (shares_chunk(buckets, c)) {
      buckets->table.chunks[c] = buckets->carried->chunks[c];
      buckets->table.chunks[c]->slab->holders++;
      continue;
    }
    an_cell_chunk *chunk = (an_cell_chunk *)at;
    chunk->slab = buckets->slab;
    buckets->slab->holders++;
    size_t first = c << AN_CELL_CHUNK_SHIFT, in = cells_in_chunk(cells, c);
    uint32_t offset = 0;
    for (size_t i = 0; i < AN_CELL_CHUNK_CELLS; ++i) {
      chunk->start[i] = offset;
      if (i < in) {
        uint32_t count = next[first + i];
        next[first + i] = offset;
        offset += count;
      }
    }
    chunk->start[AN_CELL_CHUNK_CELLS] = offset;
    buckets->table.chunks[c] = chunk;
    at += chunk_bytes(offset);
  }
  return ARCNAV_OK;
}

arcnav_status an_cell_buckets_end_pass(an_cell_buckets *buckets, const an_allocator *alloc) {
  if (!buckets->filling) {
    arcnav_status status = make_chunks(buckets, alloc);
    buckets->filling = status == ARCNAV_OK;
    return status;
  }
#ifndef NDEBUG
  // Every cell of a chunk made afresh got what its count reserved.
  for (size_t cell = 0; cell < buckets->table.cell_count; ++cell) {
    const an_cell_chunk *chunk = buckets->table.chunks[cell >> AN_CELL_CHUNK_SHIFT];
    size_t i = cell & (AN_CELL_CHUNK_CELLS - 1);
    assert(chunk->slab != buckets->slab || buckets->next[cell] == chunk->start[i + 1]);
  }
#endif
  an_free(alloc, buckets->next);
  buckets->next = NULL;
  buckets->changed = NULL;
  buckets->carried = NULL;
  return ARCNAV_OK;
}

uint32_t *an_cell_buckets_own_list(an_cell_buckets *buckets, size_t cell, uint32_t *count) {
  // The chunk lies in this build's slab, which the builder may write.
  assert(buckets->table.chunks[cell >> AN_CELL_CHUNK_SHIFT]->slab == buckets->slab);
  return (uint32_t *)an_cell_table_list(&buckets->table, cell, count);
}

void an_cell_buckets_free(an_cell_buckets *buckets, const an_allocator *alloc) {
  an_free(alloc, buckets->next);
  an_cell_table_free(&buckets->table, alloc);
  memset(buckets, 0, sizeof *buckets);
}
