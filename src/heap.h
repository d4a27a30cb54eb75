// SPDX-License-Identifier: MIT
#pragma once

// Indexed binary min-heap over ids 0..capacity-1 with decrease-key, shared by the searches. Memory
// is sized once, so a search never allocates.

#include "alloc.h"

#include <stdbool.h>
#include <stdint.h>

typedef struct an_heap {
  uint32_t *ids;      ///< heap order
  double *keys;       ///< keys in heap order
  uint32_t *position; ///< position of each id in `ids`, or UINT32_MAX when absent
  uint32_t size;
  uint32_t capacity;
} an_heap;

arcnav_status an_heap_init(an_heap *heap, uint32_t capacity, const an_allocator *alloc);
void an_heap_free(an_heap *heap, const an_allocator *alloc);
/// Empty the heap (cost proportional to its current size).
void an_heap_clear(an_heap *heap);
/// Insert `id` or lower its key; a higher key than the present one is ignored.
void an_heap_push_or_decrease(an_heap *heap, uint32_t id, double key);
/// Remove and return the id with the smallest key (ties: the smaller id, for determinism).
uint32_t an_heap_pop(an_heap *heap, double *out_key);
static inline bool an_heap_empty(const an_heap *heap) {
  return heap->size == 0;
}
