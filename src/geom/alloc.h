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
