// SPDX-License-Identifier: MIT
#include "geom/alloc.h"

#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

an_allocator an_allocator_from(const arcnav_allocator *hooks) {
  an_allocator a = {0};
  if (hooks && hooks->alloc && hooks->free) {
    a.hooks = *hooks;
  }
  return a;
}

void *an_alloc(const an_allocator *a, size_t count, size_t size) {
  if (count == 0 || size == 0 || count > SIZE_MAX / size) {
    return NULL;
  }
  size_t bytes = count * size;
  return a->hooks.alloc ? a->hooks.alloc(bytes, a->hooks.user) : malloc(bytes);
}

void *an_calloc(const an_allocator *a, size_t count, size_t size) {
  void *p = an_alloc(a, count, size);
  if (p) {
    memset(p, 0, count * size);
  }
  return p;
}

void *an_duplicate(const an_allocator *a, const void *from, size_t count, size_t size) {
  void *p = an_alloc(a, count, size);
  if (p) {
    memcpy(p, from, count * size);
  }
  return p;
}

void an_free(const an_allocator *a, void *ptr) {
  if (!ptr) {
    return;
  }
  if (a->hooks.free) {
    a->hooks.free(ptr, a->hooks.user);
  } else {
    free(ptr);
  }
}

bool an_reserve(const an_allocator *a, void **array, size_t *capacity, size_t used, size_t needed,
                size_t size) {
  if (needed <= *capacity) {
    return true;
  }
  size_t grown = *capacity < 8 ? 8 : *capacity + *capacity / 2;
  if (grown < needed) {
    grown = needed;
  }
  void *fresh = an_alloc(a, grown, size);
  if (!fresh) {
    return false;
  }
  if (used) {
    memcpy(fresh, *array, used * size);
  }
  an_free(a, *array);
  *array = fresh;
  *capacity = grown;
  return true;
}

bool an_room_for(const an_allocator *a, const an_room_array *arrays, size_t n, size_t *room,
                 size_t count) {
  if (count <= *room) {
    return true;
  }
  enum { MOST = 8 };
  assert(n <= MOST);
  void *fresh[MOST] = {NULL};
  size_t grown = count + count / 8 + 16;
  bool made = true;
  for (size_t i = 0; made && i < n; ++i) {
    fresh[i] =
        arrays[i].zeroed ? an_calloc(a, grown, arrays[i].size) : an_alloc(a, grown, arrays[i].size);
    made = fresh[i] != NULL;
  }
  for (size_t i = 0; i < n && i < MOST; ++i) {
    void **array = arrays[i].array;
    an_free(a, made ? *array : fresh[i]);
    if (made) {
      *array = fresh[i];
    }
  }
  if (made) {
    *room = grown;
  }
  return made;
}
