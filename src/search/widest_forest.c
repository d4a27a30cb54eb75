// SPDX-License-Identifier: MIT
// The forest of the widest links (widest_forest.h).
#include "search/widest_forest.h"

#include "geom/geom.h"

#include <math.h>
#include <stdbool.h>
#include <string.h>

// A key for each width that orders as the widths do, widest first, as an unsigned integer: the
// bits of a float order as its value once the sign bit is flipped for positives and every bit for
// negatives.
static uint32_t widest_first_key(float width) {
  uint32_t bits;
  memcpy(&bits, &width, sizeof bits);
  uint32_t ascending = bits >> 31 ? ~bits : bits | (UINT32_C(1) << 31);
  return ~ascending;
}

enum {
  DIGIT_BITS = 11,
  DIGIT_VALUES = 1 << DIGIT_BITS,
  DIGITS = (32 + DIGIT_BITS - 1) / DIGIT_BITS
};

// Sorts the links widest first, equal widths in the order given (so the forest is the same for
// the same list): a radix sort of each link's key and place, packed in 64 bits, 11 bits of the key
// at a time, with every digit counted in one pass and the digits every key shares skipped; then
// the links are moved once. A comparison sort took a fifth of a local update on the game maps.
// False when out of memory.
static bool sort_widest_first(an_widest_link *links, size_t count, const an_allocator *alloc) {
  if (count < 2) {
    return true;
  }
  uint64_t *packed = an_alloc(alloc, 2 * count, sizeof *packed);
  an_widest_link *sorted = an_alloc(alloc, count, sizeof *sorted);
  uint32_t *starts = an_calloc(alloc, (size_t)DIGITS * DIGIT_VALUES, sizeof *starts);
  if (!packed || !sorted || !starts) {
    an_free(alloc, packed);
    an_free(alloc, sorted);
    an_free(alloc, starts);
    return false;
  }
  uint64_t *from = packed, *to = packed + count;
  for (size_t k = 0; k < count; ++k) {
    uint32_t key = widest_first_key(links[k].width);
    from[k] = (uint64_t)key << 32 | (uint64_t)k;
    for (unsigned d = 0; d < DIGITS; ++d) {
      starts[(size_t)d * DIGIT_VALUES + ((key >> (d * DIGIT_BITS)) & (DIGIT_VALUES - 1))]++;
    }
  }
  for (unsigned d = 0; d < DIGITS; ++d) {
    uint32_t *start = starts + (size_t)d * DIGIT_VALUES;
    unsigned shift = 32 + d * DIGIT_BITS;
    bool shared = false;
    uint32_t sum = 0;
    for (size_t v = 0; v < DIGIT_VALUES; ++v) {
      shared |= start[v] == count;
      uint32_t here = start[v];
      start[v] = sum;
      sum += here;
    }
    if (shared) {
      continue;
    }
    for (size_t k = 0; k < count; ++k) {
      to[start[(from[k] >> shift) & (DIGIT_VALUES - 1)]++] = from[k];
    }
    uint64_t *swap = from;
    from = to;
    to = swap;
  }
  for (size_t k = 0; k < count; ++k) {
    sorted[k] = links[from[k] & UINT32_MAX];
  }
  memcpy(links, sorted, count * sizeof *links);
  an_free(alloc, packed);
  an_free(alloc, sorted);
  an_free(alloc, starts);
  return true;
}

// The root of t's part while the forest is built: `part` mirrors the forest's links, halved on
// every walk. The forest itself keeps its links as made (its depth is what bounds a query's walk).
static int32_t root_of(int32_t *part, int32_t t) {
  while (part[t] != t) {
    part[t] = part[part[t]];
    t = part[t];
  }
  return t;
}

arcnav_status an_widest_forest_build(size_t node_count, an_widest_link *links, size_t link_count,
                                     const an_allocator *alloc, an_widest_forest *out) {
  an_widest_forest forest = {node_count, NULL};
  size_t nodes = node_count > 0 ? node_count : 1;
  forest.nodes = an_alloc(alloc, nodes, sizeof *forest.nodes);
  uint8_t *rank = an_calloc(alloc, nodes, sizeof *rank);
  int32_t *part = an_alloc(alloc, nodes, sizeof *part);
  if (!forest.nodes || !rank || !part) {
    an_free(alloc, rank);
    an_free(alloc, part);
    an_widest_forest_destroy(&forest, alloc);
    *out = (an_widest_forest){0, NULL};
    return ARCNAV_ERR_OUT_OF_MEMORY;
  }
  size_t kept = 0;
  for (size_t k = 0; k < link_count; ++k) {
    if (!isnan(links[k].width)) {
      links[kept++] = links[k];
    }
  }
  if (!sort_widest_first(links, kept, alloc)) {
    an_free(alloc, rank);
    an_free(alloc, part);
    an_widest_forest_destroy(&forest, alloc);
    *out = (an_widest_forest){0, NULL};
    return ARCNAV_ERR_OUT_OF_MEMORY;
  }
  for (size_t t = 0; t < node_count; ++t) {
    forest.nodes[t] = (an_widest_node){-1.0f, (int32_t)t, UINT32_MAX};
    part[t] = (int32_t)t;
  }
  uint32_t steps = 0;
  for (size_t k = 0; k < kept; ++k) {
    int32_t ra = root_of(part, links[k].a), rb = root_of(part, links[k].b);
    if (ra == rb) {
      continue;
    }
    if (rank[ra] < rank[rb]) {
      int32_t swap = ra;
      ra = rb;
      rb = swap;
    }
    forest.nodes[rb] = (an_widest_node){links[k].width, ra, steps++};
    part[rb] = ra;
    rank[ra] += rank[ra] == rank[rb];
  }
  an_free(alloc, rank);
  an_free(alloc, part);
  *out = forest;
  return ARCNAV_OK;
}

void an_widest_forest_destroy(an_widest_forest *forest, const an_allocator *alloc) {
  an_free(alloc, forest->nodes);
  *forest = (an_widest_forest){0, NULL};
}

double an_widest_forest_width(const an_widest_forest *forest, int32_t a, int32_t b) {
  // Links made later lie higher up: stepping up from the end linked earlier never passes the
  // node where the two paths meet. The narrowest link stepped over joined them last.
  double width = INFINITY;
  while (a != b) {
    const an_widest_node *na = &forest->nodes[a], *nb = &forest->nodes[b];
    if (na->step == UINT32_MAX && nb->step == UINT32_MAX) {
      return -1.0;
    }
    if (na->step < nb->step) {
      width = an_min(width, na->width);
      a = na->parent;
    } else {
      width = an_min(width, nb->width);
      b = nb->parent;
    }
  }
  return width;
}

int32_t an_widest_forest_top(const an_widest_forest *forest, int32_t node, double width) {
  // The widths do not grow going up: the first link narrower than `width` ends the part.
  while (forest->nodes[node].step != UINT32_MAX && forest->nodes[node].width >= width) {
    node = forest->nodes[node].parent;
  }
  return node;
}

size_t an_widest_forest_memory_bytes(const an_widest_forest *forest) {
  return forest->nodes ? forest->node_count * sizeof *forest->nodes : 0;
}
