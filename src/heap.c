// SPDX-License-Identifier: MIT
#include "heap.h"

#include <string.h>

#define ABSENT UINT32_MAX

arcnav_status an_heap_init(an_heap *heap, uint32_t capacity, const an_allocator *alloc) {
  memset(heap, 0, sizeof *heap);
  uint32_t slots = capacity > 0 ? capacity : 1;
  heap->ids = an_alloc(alloc, slots, sizeof *heap->ids);
  heap->keys = an_alloc(alloc, slots, sizeof *heap->keys);
  heap->position = an_alloc(alloc, slots, sizeof *heap->position);
  if (!heap->ids || !heap->keys || !heap->position) {
    an_heap_free(heap, alloc);
    return ARCNAV_ERR_OUT_OF_MEMORY;
  }
  memset(heap->position, 0xff, (size_t)slots * sizeof *heap->position);
  heap->capacity = capacity;
  return ARCNAV_OK;
}

void an_heap_free(an_heap *heap, const an_allocator *alloc) {
  an_free(alloc, heap->ids);
  an_free(alloc, heap->keys);
  an_free(alloc, heap->position);
  memset(heap, 0, sizeof *heap);
}

void an_heap_clear(an_heap *heap) {
  for (uint32_t i = 0; i < heap->size; ++i) {
    heap->position[heap->ids[i]] = ABSENT;
  }
  heap->size = 0;
}

static bool precedes(double key_a, uint32_t id_a, double key_b, uint32_t id_b) {
  return key_a != key_b ? key_a < key_b : id_a < id_b;
}

static void place(an_heap *heap, uint32_t slot, uint32_t id, double key) {
  heap->ids[slot] = id;
  heap->keys[slot] = key;
  heap->position[id] = slot;
}

// Sifting moves a hole rather than swapping, so each level costs one write of a moved entry.
static void sift_up(an_heap *heap, uint32_t i) {
  uint32_t id = heap->ids[i];
  double key = heap->keys[i];
  while (i > 0) {
    uint32_t parent = (i - 1) / 2;
    if (!precedes(key, id, heap->keys[parent], heap->ids[parent])) {
      break;
    }
    place(heap, i, heap->ids[parent], heap->keys[parent]);
    i = parent;
  }
  place(heap, i, id, key);
}

static void sift_down(an_heap *heap, uint32_t i) {
  uint32_t id = heap->ids[i];
  double key = heap->keys[i];
  for (;;) {
    uint32_t child = 2 * i + 1;
    if (child >= heap->size) {
      break;
    }
    if (child + 1 < heap->size && precedes(heap->keys[child + 1], heap->ids[child + 1],
                                           heap->keys[child], heap->ids[child])) {
      ++child;
    }
    if (!precedes(heap->keys[child], heap->ids[child], key, id)) {
      break;
    }
    place(heap, i, heap->ids[child], heap->keys[child]);
    i = child;
  }
  place(heap, i, id, key);
}

void an_heap_push_or_decrease(an_heap *heap, uint32_t id, double key) {
  uint32_t at = heap->position[id];
  if (at == ABSENT) {
    at = heap->size++;
    heap->ids[at] = id;
    heap->keys[at] = key;
    heap->position[id] = at;
  } else if (key < heap->keys[at]) {
    heap->keys[at] = key;
  } else {
    return;
  }
  sift_up(heap, at);
}

uint32_t an_heap_pop(an_heap *heap, double *out_key) {
  uint32_t id = heap->ids[0];
  if (out_key) {
    *out_key = heap->keys[0];
  }
  heap->position[id] = ABSENT;
  heap->size--;
  if (heap->size > 0) {
    heap->ids[0] = heap->ids[heap->size];
    heap->keys[0] = heap->keys[heap->size];
    heap->position[heap->ids[0]] = 0;
    sift_down(heap, 0);
  }
  return id;
}
