// SPDX-License-Identifier: MIT
// The forest of the widest links (widest_forest.h).
#include "search/widest_forest.h"

#include "geom/geom.h"

#include <math.h>
#include <stdbool.h>
#include <string.h>

// A key for each width that orders as the widths do, widest first, as an unsigned integer: the
// bits of a double order as its value once the sign bit is flipped for positives and every bit
// for negatives.
static uint64_t widest_first_key(double width) {
  uint64_t bits;
  memcpy(&bits, &width, sizeof bits);
  uint64_t ascending = bits >> 63 ? ~bits : bits | (UINT64_C(1) << 63);
  return ~ascending;
}

// Sorts the links widest first, equal widths in the order given (so the forest is the same for
// the same list): a radix sort on the keys above, a byte at a time, skipping the bytes every key
// shares. A comparison sort took a fifth of a local update on the game maps. False when out of
// memory.
static bool sort_widest_first(an_widest_link *links, size_t count, const an_allocator *alloc) {
  if (count < 2) {
    return true;
  }
  uint64_t *keys = an_alloc(alloc, 2 * count, sizeof *keys);
  an_widest_link *spare = an_alloc(alloc, count, sizeof *spare);
  if (!keys || !spare) {
    an_free(alloc, keys);
    an_free(alloc, spare);
    return false;
  }
  uint64_t *from_keys = keys, *to_keys = keys + count;
  an_widest_link *from = links, *to = spare;
  for (size_t k = 0; k < count; ++k) {
    from_keys[k] = widest_first_key(links[k].width);
  }
  for (unsigned shift = 0; shift < 64; shift += 8) {
    size_t start[257] = {0};
    for (size_t k = 0; k < count; ++k) {
      start[((from_keys[k] >> shift) & 255u) + 1]++;
    }
    bool shared = false;
    for (size_t d = 1; d <= 256 && !shared; ++d) {
      shared = start[d] == count;
    }
    if (shared) {
      continue;
    }
    for (size_t d = 1; d <= 256; ++d) {
      start[d] += start[d - 1];
    }
    for (size_t k = 0; k < count; ++k) {
      size_t at = start[(from_keys[k] >> shift) & 255u]++;
      to_keys[at] = from_keys[k];
      to[at] = from[k];
    }
    uint64_t *swap_keys = from_keys;
    from_keys = to_keys;
    to_keys = swap_keys;
    an_widest_link *swap = from;
    from = to;
    to = swap;
  }
  if (from != links) {
    memcpy(links, from, count * sizeof *links);
  }
  an_free(alloc, keys);
  an_free(alloc, spare);
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
    forest.nodes[t] = (an_widest_node){-1.0, (int32_t)t, UINT32_MAX};
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
