// SPDX-License-Identifier: MIT
#pragma once

// The allocator of the tests and fuzz targets: it counts requests and live blocks, and fails the
// requests it is told to, so that every allocation of an operation can be made to fail in turn.

#include "arcnav/arcnav.h"

#include <stdbool.h>
#include <stdlib.h>

/// The tests' allocator: counts requests and live blocks, and fails on request. A request fails
/// while `fail_all` is set, or when its number (counting from 0) is `fail_at`, or with
/// `fail_onwards` any number from `fail_at` on; `fail_at` -1 (test_allocator_make) fails none.
typedef struct test_allocator {
  long calls;
  long live;
  long fail_at;
  bool fail_onwards;
  bool fail_all;
} test_allocator;

static inline test_allocator test_allocator_make(void) {
  return (test_allocator){.fail_at = -1};
}

static inline void *test_allocator_alloc(size_t size, void *user) {
  test_allocator *t = user;
  long number = t->calls++;
  if (t->fail_all ||
      (t->fail_at >= 0 && (number == t->fail_at || (t->fail_onwards && number > t->fail_at)))) {
    return NULL;
  }
  void *block = malloc(size);
  if (block) {
    t->live++;
  }
  return block;
}

static inline void test_allocator_free(void *ptr, void *user) {
  test_allocator *t = user;
  t->live--;
  free(ptr);
}

static inline arcnav_allocator test_allocator_hooks(test_allocator *t) {
  return (arcnav_allocator){test_allocator_alloc, test_allocator_free, t};
}
