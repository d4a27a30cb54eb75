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

static bool before(const an_heap *heap, uint32_t i, uint32_t j) {
  if (heap->keys[i] != heap->keys[j]) {
    return heap->keys[i] < heap->keys[j];
  }
  return heap->ids[i] < heap->ids[j];
}

static void swap_slots(an_heap *heap, uint32_t i, uint32_t j) {
  uint32_t id = heap->ids[i];
  double key = heap->keys[i];
  heap->ids[i] = heap->ids[j];
  heap->keys[i] = heap->keys[j];
  heap->ids[j] = id;
  heap->keys[j] = key;
  heap->position[heap->ids[i]] = i;
  heap->position[heap->ids[j]] = j;
}

static void sift_up(an_heap *heap, uint32_t i) {
  while (i > 0) {
    uint32_t parent = (i - 1) / 2;
    if (!before(heap, i, parent)) {
      break;
    }
    swap_slots(heap, i, parent);
    i = parent;
  }
}

static void sift_down(an_heap *heap, uint32_t i) {
  for (;;) {
    uint32_t left = 2 * i + 1, right = left + 1, best = i;
    if (left < heap->size && before(heap, left, best)) {
      best = left;
    }
    if (right < heap->size && before(heap, right, best)) {
      best = right;
    }
    if (best == i) {
      return;
    }
    swap_slots(heap, i, best);
    i = best;
  }
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
