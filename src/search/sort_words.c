// SPDX-License-Identifier: MIT
// Sorting 64-bit words (sort_words.h).
#include "search/sort_words.h"

enum { INSERTION_MAX = 16 };

// A quicksort on the median of three, with runs of INSERTION_MAX or fewer left to one insertion
// sort at the end.
void an_sort_words(uint64_t *words, size_t count) {
  size_t stack[2 * 64], depth = 0, lo = 0, hi = count;
  for (;;) {
    while (hi - lo > INSERTION_MAX) {
      size_t mid = lo + (hi - lo) / 2;
      uint64_t a = words[lo], b = words[mid], c = words[hi - 1];
      uint64_t pivot = a < b ? (b < c ? b : (a < c ? c : a)) : (a < c ? a : (b < c ? c : b));
      size_t i = lo, j = hi - 1;
      for (;;) {
        while (words[i] < pivot) {
          ++i;
        }
        while (words[j] > pivot) {
          --j;
        }
        if (i >= j) {
          break;
        }
        uint64_t swap = words[i];
        words[i++] = words[j];
        words[j--] = swap;
      }
      // [lo, j] and [j + 1, hi): the smaller first, the larger kept for later (depth log n).
      if (j + 1 - lo < hi - j - 1) {
        stack[depth++] = j + 1;
        stack[depth++] = hi;
        hi = j + 1;
      } else {
        stack[depth++] = lo;
        stack[depth++] = j + 1;
        lo = j + 1;
      }
    }
    if (depth == 0) {
      break;
    }
    hi = stack[--depth];
    lo = stack[--depth];
  }
  for (size_t k = 1; k < count; ++k) {
    uint64_t word = words[k];
    size_t at = k;
    for (; at > 0 && words[at - 1] > word; --at) {
      words[at] = words[at - 1];
    }
    words[at] = word;
  }
}
