// SPDX-License-Identifier: MIT
// Sorting 64-bit words (sort_words.h).
#include "search/sort_words.h"

#include <stdbool.h>
#include <string.h>

enum { INSERTION_MAX = 16 };

// Lists of at most MERGE_MAX words (a block's links, the top's changed links) are merge-sorted
// through a spare on the stack, from sorted runs of MERGE_RUN: the merge takes the lesser head
// without a branch, where the quicksort's comparisons of random keys mispredict about half the
// time (a third less time a word on lists of 100 to 250).
enum { MERGE_MAX = 256, MERGE_RUN = 4 };

// Merges the sorted runs a[0 .. na) and b[0 .. nb) into out.
static void merge_runs(const uint64_t *a, size_t na, const uint64_t *b, size_t nb, uint64_t *out) {
  size_t i = 0, j = 0, k = 0;
  while (i < na && j < nb) {
    uint64_t x = a[i], y = b[j];
    bool take_b = y < x;
    out[k++] = take_b ? y : x;
    j += take_b;
    i += !take_b;
  }
  while (i < na) {
    out[k++] = a[i++];
  }
  while (j < nb) {
    out[k++] = b[j++];
  }
}

static void merge_sort(uint64_t *words, size_t count) {
  uint64_t spare[MERGE_MAX];
  for (size_t first = 0; first < count; first += MERGE_RUN) {
    size_t end = first + MERGE_RUN < count ? first + MERGE_RUN : count;
    for (size_t k = first + 1; k < end; ++k) {
      uint64_t word = words[k];
      size_t at = k;
      for (; at > first && words[at - 1] > word; --at) {
        words[at] = words[at - 1];
      }
      words[at] = word;
    }
  }
  uint64_t *from = words, *to = spare;
  for (size_t run = MERGE_RUN; run < count; run *= 2) {
    for (size_t first = 0; first < count; first += 2 * run) {
      size_t middle = first + run < count ? first + run : count;
      size_t end = first + 2 * run < count ? first + 2 * run : count;
      merge_runs(from + first, middle - first, from + middle, end - middle, to + first);
    }
    uint64_t *swap = from;
    from = to;
    to = swap;
  }
  if (from != words) {
    memcpy(words, from, count * sizeof *words);
  }
}

// Short lists merge-sorted (above); longer ones by a quicksort on the median of three, with runs
// of INSERTION_MAX or fewer left to one insertion sort at the end.
void an_sort_words(uint64_t *words, size_t count) {
  if (count <= MERGE_MAX) {
    merge_sort(words, count);
    return;
  }
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
