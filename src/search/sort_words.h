// SPDX-License-Identifier: MIT
#pragma once

// The one sort of 64-bit words: a key in the high bits over a distinct number in the low ones (a
// link's place, a cell's index), so that every word differs and ascending order is one order,
// whatever sorts it. Without a call per comparison, as qsort makes, it costs a few instructions
// a word on the short lists it is used for (a block's links, a probe's cells).

#include <stddef.h>
#include <stdint.h>

/// Sorts `count` words ascending, in place.
void an_sort_words(uint64_t *words, size_t count);
