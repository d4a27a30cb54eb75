// SPDX-License-Identifier: MIT
#pragma once

// The binary min-heap every search uses. Entries are (key, id) pairs ordered by key, ties by the
// smaller id, so that equal keys pop in an order fixed by the ids alone (determinism).
//
// A heap is used in one of two ways between two an_heap_clear calls:
// - indexed: ids are below `id_count`, each at most once, and the position table lets
//   an_heap_push_or_decrease and an_heap_push_or_set_sift_up change the key of an id in the heap;
// - as a queue: an_heap_push adds entries with any ids, duplicates allowed; a search that queues
//   an item again at a better key skips the stale entries when it pops them.
//
// Memory: an_heap_init sizes the entries and the position table once. A search that never needs
// more than that never allocates; one that does calls an_heap_reserve, which grows the entries
// through the allocator (doubling), before pushing. A zeroed an_heap is an empty queue with no
// room yet.

#include "geom/alloc.h"

#include <assert.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define AN_HEAP_ABSENT UINT32_MAX

typedef struct an_heap_entry {
  double key;
  uint32_t id;
} an_heap_entry;

typedef struct an_heap {
  an_heap_entry *entries; ///< heap order
  uint32_t *position;     ///< per id below id_count: its slot in `entries`, or AN_HEAP_ABSENT
  size_t size;
  size_t capacity; ///< entries allocated
  uint32_t id_count;
  size_t id_room; ///< position entries allocated: id_count, or more after an_heap_renew_ids()
  bool indexed;   ///< the entries are indexed ids (set by the first indexed push, reset by clear)
} an_heap;

/// An indexed heap over ids 0..id_count-1 with room for all of them: it never grows.
arcnav_status an_heap_init(an_heap *heap, uint32_t id_count, const an_allocator *alloc);
/// Room for `capacity` entries and a position table over ids 0..id_count-1 (id_count 0: a queue
/// only, no table).
arcnav_status an_heap_init_sized(an_heap *heap, size_t capacity, uint32_t id_count,
                                 const an_allocator *alloc);
void an_heap_free(an_heap *heap, const an_allocator *alloc);
/// Empties the heap and makes it an indexed heap over ids 0..id_count-1, keeping its position
/// table where it has room, else one with room for an eighth more (geom/alloc.h, an_room_for):
/// a query object renewed for a changed map keeps its memory. False when that allocation fails
/// or id_count is AN_HEAP_ABSENT; the heap is then empty, over its old ids.
bool an_heap_renew_ids(an_heap *heap, uint32_t id_count, const an_allocator *alloc);
/// Empty the heap (cost proportional to its current size when indexed).
void an_heap_clear(an_heap *heap);
/// Room for `needed` entries: grows the entries by doubling, through `alloc`; false when the
/// allocation fails (the heap is unchanged then).
bool an_heap_reserve(an_heap *heap, size_t needed, const an_allocator *alloc);
/// Bytes the heap holds.
size_t an_heap_memory_bytes(const an_heap *heap);

/// Indexed: insert `id` or lower its key; a higher key than the present one is ignored.
void an_heap_push_or_decrease(an_heap *heap, uint32_t id, double key);
/// Indexed: insert `id`, or give it `key` and only sift it up. A raised key stays in its slot,
/// above entries it no longer precedes, and pops early; an_heap_check fails while it waits. The
/// funnel's plain A* orders its search this way (a triangle reached again more cheaply can get a
/// higher key, its heuristic being measured from another edge), and its answers depend on it.
void an_heap_push_or_set_sift_up(an_heap *heap, uint32_t id, double key);

// The searches' hot path, inline: the helpers below are the heap's internals.

static inline bool an_heap_precedes(an_heap_entry a, an_heap_entry b) {
  return a.key != b.key ? a.key < b.key : a.id < b.id;
}

// The same order without branches. Which of two children is smaller is a coin toss the branch
// predictor loses in the tangent graph's indexed heap, where this is faster; in the funnel's queue
// it is slower, the children being in order more often than not.
static inline bool an_heap_precedes_branchless(an_heap_entry a, an_heap_entry b) {
  return (a.key < b.key) | ((a.key == b.key) & (a.id < b.id));
}

// Sifting moves a hole rather than swapping, so each level costs one write of a moved entry. The
// position table is written only when the heap is indexed; `indexed` is a constant at each call,
// so each sift is compiled once per use.
static inline void an_heap_place(an_heap *heap, size_t slot, an_heap_entry e, bool indexed) {
  heap->entries[slot] = e;
  if (indexed) {
    heap->position[e.id] = (uint32_t)slot;
  }
}

static inline void an_heap_sift_up(an_heap *heap, size_t i, bool indexed) {
  an_heap_entry e = heap->entries[i];
  while (i > 0) {
    size_t parent = (i - 1) / 2;
    if (!an_heap_precedes(e, heap->entries[parent])) {
      break;
    }
    an_heap_place(heap, i, heap->entries[parent], indexed);
    i = parent;
  }
  an_heap_place(heap, i, e, indexed);
}

static inline void an_heap_sift_down(an_heap *heap, size_t i, bool indexed) {
  an_heap_entry e = heap->entries[i];
  const size_t n = heap->size;
  for (;;) {
    size_t child = 2 * i + 1;
    if (child >= n) {
      break;
    }
    if (child + 1 < n) {
      child += indexed ? an_heap_precedes_branchless(heap->entries[child + 1], heap->entries[child])
                       : an_heap_precedes(heap->entries[child + 1], heap->entries[child]);
    }
    if (!an_heap_precedes(heap->entries[child], e)) {
      break;
    }
    an_heap_place(heap, i, heap->entries[child], indexed);
    i = child;
  }
  an_heap_place(heap, i, e, indexed);
}

/// Queue: add the entry (room must have been reserved).
static inline void an_heap_push(an_heap *heap, uint32_t id, double key) {
  assert(!heap->indexed);
  assert(heap->size < heap->capacity);
  size_t at = heap->size++;
  heap->entries[at] = (an_heap_entry){key, id};
  an_heap_sift_up(heap, at, false);
}

/// Remove and return the entry with the smallest key (ties: the smaller id). Not empty.
static inline an_heap_entry an_heap_pop_entry(an_heap *heap) {
  assert(heap->size > 0);
  an_heap_entry top = heap->entries[0];
  const bool indexed = heap->indexed;
  heap->size--;
  if (indexed) {
    assert(heap->position[top.id] == 0);
    heap->position[top.id] = AN_HEAP_ABSENT;
    if (heap->size > 0) {
      heap->entries[0] = heap->entries[heap->size];
      an_heap_sift_down(heap, 0, true);
    }
  } else if (heap->size > 0) {
    heap->entries[0] = heap->entries[heap->size];
    an_heap_sift_down(heap, 0, false);
  }
  return top;
}

/// Remove and return the id with the smallest key (ties: the smaller id). Not empty.
static inline uint32_t an_heap_pop(an_heap *heap, double *out_key) {
  an_heap_entry top = an_heap_pop_entry(heap);
  if (out_key) {
    *out_key = top.key;
  }
  return top.id;
}

static inline bool an_heap_empty(const an_heap *heap) {
  return heap->size == 0;
}

/// The smallest key. Not empty.
static inline double an_heap_top_key(const an_heap *heap) {
  assert(heap->size > 0);
  return heap->entries[0].key;
}

/// Checks heap order and, when indexed, that the position table and the entries agree (every
/// entry's id in range and at its slot, every other id absent, up to the table's room). For
/// tests: O(size + id_room).
bool an_heap_check(const an_heap *heap);
