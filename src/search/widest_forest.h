// SPDX-License-Identifier: MIT
#pragma once

// The widest chain between two nodes of a graph, for every width at once: Kruskal's algorithm over
// the links, widest first, with union by rank and without path compression, leaves a forest of
// depth O(log n) whose links carry their width and the step at which they were made (the build
// finds parts through a compressed copy of the links, which the queries never read). Along a path
// to a root the steps grow and the widths do not; so stepping up from whichever end was linked
// earlier meets at the node where the two parts joined, and the narrowest link passed is the
// narrowest link of the widest chain (docs/DESIGN.md, "No path for a disk without a search").

#include "arcnav/arcnav.h"
#include "geom/alloc.h"

#include <stddef.h>
#include <stdint.h>

/// A link of the graph: nodes a and b, and its width. Widths are floats: the library keeps them
/// so (rounded down or up, geom.h's an_float_at_most and an_float_at_least), so that a width
/// carried over a local update is the one measured afresh, and they sort fast.
typedef struct an_widest_link {
  float width;
  int32_t a, b;
} an_widest_link;

/// A node of the forest: what a walk up reads, kept together (one cache line per step).
typedef struct an_widest_node {
  float width;    ///< the width of the link to its parent (-1 at a root), a link's float
  int32_t parent; ///< its parent, itself at a root
  uint32_t step;  ///< when that link was made (UINT32_MAX at a root)
} an_widest_node;

typedef struct an_widest_forest {
  size_t node_count;
  an_widest_node *nodes; ///< NULL: not built
} an_widest_forest;

/// Builds the forest over nodes 0 .. node_count - 1 from `links` (sorted in place, widest first;
/// links of NaN width are left out). On failure *out is empty.
/// @return ARCNAV_OK or ARCNAV_ERR_OUT_OF_MEMORY.
arcnav_status an_widest_forest_build(size_t node_count, an_widest_link *links, size_t link_count,
                                     const an_allocator *alloc, an_widest_forest *out);

void an_widest_forest_destroy(an_widest_forest *forest, const an_allocator *alloc);

/// The largest w such that a chain of links at least w wide joins a and b: INFINITY for a == b,
/// -1 when nothing joins them. O(log n).
double an_widest_forest_width(const an_widest_forest *forest, int32_t a, int32_t b);

/// The node where `node`'s part of the nodes joined by links at least `width` wide hangs: two
/// nodes are joined by a chain of such links exactly when their tops are the same. O(log n).
int32_t an_widest_forest_top(const an_widest_forest *forest, int32_t node, double width);

size_t an_widest_forest_memory_bytes(const an_widest_forest *forest);
