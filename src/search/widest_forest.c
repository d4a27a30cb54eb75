// SPDX-License-Identifier: MIT
// The forest of the widest links (widest_forest.h).
#include "search/widest_forest.h"

#include "geom/geom.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>

static int compare_links_widest_first(const void *lhs, const void *rhs) {
  const an_widest_link *x = lhs, *y = rhs;
  if (x->width != y->width) {
    return x->width > y->width ? -1 : 1;
  }
  return x->a != y->a ? (x->a < y->a ? -1 : 1) : (x->b < y->b ? -1 : (x->b > y->b ? 1 : 0));
}

static int32_t root_of(const an_widest_forest *forest, int32_t t) {
  while (forest->nodes[t].parent != t) {
    t = forest->nodes[t].parent;
  }
  return t;
}

arcnav_status an_widest_forest_build(size_t node_count, an_widest_link *links, size_t link_count,
                                     const an_allocator *alloc, an_widest_forest *out) {
  an_widest_forest forest = {node_count, NULL};
  size_t nodes = node_count > 0 ? node_count : 1;
  forest.nodes = an_alloc(alloc, nodes, sizeof *forest.nodes);
  uint8_t *rank = an_calloc(alloc, nodes, sizeof *rank);
  if (!forest.nodes || !rank) {
    an_free(alloc, rank);
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
  qsort(links, kept, sizeof *links, compare_links_widest_first);
  for (size_t t = 0; t < node_count; ++t) {
    forest.nodes[t] = (an_widest_node){-1.0, (int32_t)t, UINT32_MAX};
  }
  uint32_t steps = 0;
  for (size_t k = 0; k < kept; ++k) {
    int32_t ra = root_of(&forest, links[k].a), rb = root_of(&forest, links[k].b);
    if (ra == rb) {
      continue;
    }
    if (rank[ra] < rank[rb]) {
      int32_t swap = ra;
      ra = rb;
      rb = swap;
    }
    forest.nodes[rb] = (an_widest_node){links[k].width, ra, steps++};
    rank[ra] += rank[ra] == rank[rb];
  }
  an_free(alloc, rank);
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
