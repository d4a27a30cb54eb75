// SPDX-License-Identifier: MIT
#pragma once

// Per-object allocator: every allocation in the library goes through one of these, so a caller's
// hooks (and the allocation-failure tests) see all of them.

#include "arcnav/arcnav.h"

#include <stdbool.h>
#include <stddef.h>

typedef struct an_allocator {
  arcnav_allocator hooks; ///< alloc/free/user; NULL alloc means malloc/free
} an_allocator;

an_allocator an_allocator_from(const arcnav_allocator *hooks);
/// Allocate `count * size` bytes; NULL on failure or overflow. count == 0 returns NULL too.
void *an_alloc(const an_allocator *a, size_t count, size_t size);
/// Allocate zeroed memory.
void *an_calloc(const an_allocator *a, size_t count, size_t size);
void an_free(const an_allocator *a, void *ptr);
/// A copy of `count` elements of `size` bytes at `from`; NULL on failure, and for count == 0.
void *an_duplicate(const an_allocator *a, const void *from, size_t count, size_t size);
/// Grow *array (of *capacity elements of `size` bytes, `used` of them live) to hold at least
/// `needed` elements. Returns false (array untouched) on failure.
bool an_reserve(const an_allocator *a, void **array, size_t *capacity, size_t used, size_t needed,
                size_t size);
/// One of the arrays an_room_for() sizes together: the array, its element's size, and whether a
/// new one is zeroed.
typedef struct an_room_array {
  void **array;
  size_t size;
  bool zeroed;
} an_room_array;

/// Room for `count` elements in each of the `n` arrays, which have room for *room each: the
/// arrays as they are when that is enough, else new ones with an eighth more room, the old freed
/// and their contents dropped. For working memory kept through a change of the map it serves (a
/// query object renewed after an update): tables whose entries stamps make valid, or that a
/// search writes before it reads. Returns false (every array untouched) on failure.
bool an_room_for(const an_allocator *a, const an_room_array *arrays, size_t n, size_t *room,
                 size_t count);
