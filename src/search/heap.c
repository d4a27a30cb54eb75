// SPDX-License-Identifier: MIT
#include "search/heap.h"

#include <string.h>

arcnav_status an_heap_init_sized(an_heap *heap, size_t capacity, uint32_t id_count,
                                 const an_allocator *alloc) {
  memset(heap, 0, sizeof *heap);
  if (id_count == AN_HEAP_ABSENT) {
    return ARCNAV_ERR_TOO_LARGE;
  }
  size_t slots = capacity > 0 ? capacity : 1;
  heap->entries = an_alloc(alloc, slots, sizeof *heap->entries);
  if (id_count > 0) {
    heap->position = an_alloc(alloc, id_count, sizeof *heap->position);
  }
  if (!heap->entries || (id_count > 0 && !heap->position)) {
    an_heap_free(heap, alloc);
    return ARCNAV_ERR_OUT_OF_MEMORY;
  }
  if (id_count > 0) {
    memset(heap->position, 0xff, (size_t)id_count * sizeof *heap->position);
  }
  heap->capacity = slots;
  heap->id_count = id_count;
  heap->id_room = id_count;
  return ARCNAV_OK;
}

arcnav_status an_heap_init(an_heap *heap, uint32_t id_count, const an_allocator *alloc) {
  return an_heap_init_sized(heap, id_count, id_count, alloc);
}

void an_heap_free(an_heap *heap, const an_allocator *alloc) {
  an_free(alloc, heap->entries);
  an_free(alloc, heap->position);
  memset(heap, 0, sizeof *heap);
}

// Every position in the table's room is AN_HEAP_ABSENT but those of the ids in the heap: a
// table made anew is filled so, and a renewal empties the heap first.
bool an_heap_renew_ids(an_heap *heap, uint32_t id_count, const an_allocator *alloc) {
  an_heap_clear(heap);
  size_t room = heap->id_room;
  an_room_array table[] = {{(void **)&heap->position, sizeof *heap->position, false}};
  if (id_count == AN_HEAP_ABSENT || !an_room_for(alloc, table, 1, &heap->id_room, id_count)) {
    return false;
  }
  if (heap->id_room != room) {
    memset(heap->position, 0xff, heap->id_room * sizeof *heap->position);
  }
  heap->id_count = id_count;
  return true;
}

void an_heap_clear(an_heap *heap) {
  if (heap->indexed) {
    for (size_t i = 0; i < heap->size; ++i) {
      heap->position[heap->entries[i].id] = AN_HEAP_ABSENT;
    }
  }
  heap->size = 0;
  heap->indexed = false;
}

bool an_heap_reserve(an_heap *heap, size_t needed, const an_allocator *alloc) {
  if (needed <= heap->capacity) {
    return true;
  }
  const size_t limit = SIZE_MAX / sizeof *heap->entries;
  size_t grown = heap->capacity > 0 ? heap->capacity : 8;
  while (grown < needed) {
    grown = grown > limit / 2 ? limit : 2 * grown;
    if (grown < needed && grown == limit) {
      return false;
    }
  }
  an_heap_entry *fresh = an_alloc(alloc, grown, sizeof *fresh);
  if (!fresh) {
    return false;
  }
  if (heap->size) {
    memcpy(fresh, heap->entries, heap->size * sizeof *fresh);
  }
  an_free(alloc, heap->entries);
  heap->entries = fresh;
  heap->capacity = grown;
  return true;
}

size_t an_heap_memory_bytes(const an_heap *heap) {
  return heap->capacity * sizeof *heap->entries + heap->id_room * sizeof *heap->position;
}

static inline uint32_t begin_indexed(an_heap *heap, uint32_t id) {
  assert(id < heap->id_count);
  assert(heap->indexed || heap->size == 0);
  heap->indexed = true;
  return heap->position[id];
}

void an_heap_push_or_decrease(an_heap *heap, uint32_t id, double key) {
  uint32_t at = begin_indexed(heap, id);
  if (at == AN_HEAP_ABSENT) {
    assert(heap->size < heap->capacity);
    at = (uint32_t)heap->size++;
    heap->entries[at] = (an_heap_entry){key, id};
  } else if (key < heap->entries[at].key) {
    heap->entries[at].key = key;
  } else {
    return;
  }
  an_heap_sift_up(heap, at, true);
}

void an_heap_push_or_set_sift_up(an_heap *heap, uint32_t id, double key) {
  uint32_t at = begin_indexed(heap, id);
  if (at == AN_HEAP_ABSENT) {
    assert(heap->size < heap->capacity);
    at = (uint32_t)heap->size++;
    heap->entries[at] = (an_heap_entry){key, id};
  } else {
    heap->entries[at].key = key;
  }
  an_heap_sift_up(heap, at, true);
}

bool an_heap_check(const an_heap *heap) {
  if (heap->size > heap->capacity || (heap->size > 0 && !heap->entries)) {
    return false;
  }
  for (size_t i = 1; i < heap->size; ++i) {
    if (an_heap_precedes(heap->entries[i], heap->entries[(i - 1) / 2])) {
      return false;
    }
  }
  if (heap->indexed) {
    if (!heap->position || heap->size > heap->id_count) {
      return false;
    }
    for (size_t i = 0; i < heap->size; ++i) {
      uint32_t id = heap->entries[i].id;
      if (id >= heap->id_count || heap->position[id] != i) {
        return false;
      }
    }
  }
  // Every id not in the heap is absent: the present ones were matched above, so count.
  size_t present = 0;
  for (size_t id = 0; id < heap->id_room; ++id) {
    if (heap->position[id] != AN_HEAP_ABSENT) {
      if (!heap->indexed || id >= heap->id_count || heap->position[id] >= heap->size) {
        return false;
      }
      ++present;
    }
  }
  return present == (heap->indexed ? heap->size : 0);
}
