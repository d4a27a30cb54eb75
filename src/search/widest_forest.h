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

/// Builds the forest over nodes 0 .. node_count - 1 from `links` (links of NaN width are left
/// out; fewer than 2^32 links). On failure *out is empty.
/// @return ARCNAV_OK or ARCNAV_ERR_OUT_OF_MEMORY.
arcnav_status an_widest_forest_build(size_t node_count, const an_widest_link *links,
                                     size_t link_count, const an_allocator *alloc,
                                     an_widest_forest *out);

void an_widest_forest_destroy(an_widest_forest *forest, const an_allocator *alloc);

/// The largest w such that a chain of links at least w wide joins a and b: INFINITY for a == b,
/// -INFINITY when nothing joins them. O(log n).
double an_widest_forest_width(const an_widest_forest *forest, int32_t a, int32_t b);

/// The node where `node`'s part of the nodes joined by links at least `width` wide hangs: two
/// nodes are joined by a chain of such links exactly when their tops are the same. O(log n).
int32_t an_widest_forest_top(const an_widest_forest *forest, int32_t node, double width);

size_t an_widest_forest_memory_bytes(const an_widest_forest *forest);

// ---- in blocks ---------------------------------------------------------------------------------
//
// The same answers for a graph whose nodes are split in blocks, so that a change of some blocks'
// links builds those blocks again and keeps the others (docs/DESIGN.md, "The widest passages in
// blocks"). Each block keeps a forest of its own links; a node with a link to another block is a
// boundary node. Each node keeps the width at which its block's links first join it to a boundary
// node, and which one. A forest over every block's boundary nodes, joined as its block joins them
// and by the links between blocks, answers the rest: the widest chain from a to b is the wider of
// the chain inside their block and the narrowest of a's and b's widths to their boundary nodes and
// the chain between those.

/// A node of a blocked forest: its block, and its number among the block's nodes.
typedef struct an_forest_ref {
  uint32_t block, index;
} an_forest_ref;

/// A link from node `index` of a block to a node of another block.
typedef struct an_cross_link {
  float width;
  uint32_t index;
  an_forest_ref other;
} an_cross_link;

/// A block's part of the forest: built once, never changed, shared by the forests that keep it.
typedef struct an_forest_block an_forest_block;

/// Blocks of at most this many nodes.
#define AN_FOREST_BLOCK_MAX_NODES 65534u

typedef struct an_blocked_forest {
  size_t block_count;
  an_forest_block **blocks; ///< NULL: not built
  uint32_t *top_base;       ///< per block: the number of its first boundary node in `top`
  an_widest_forest top;     ///< over every block's boundary nodes
  /// The top's links widest first, as the finish listed them (each a key over the link's place
  /// in that list), for the next finish after a change to merge into instead of sorting again.
  uint64_t *top_order;
  size_t top_order_count;
  /// Between the begin and the finish: the forest the kept blocks come from (NULL: none).
  const struct an_blocked_forest *begun_from;
} an_blocked_forest;

/// Starts a forest of `block_count` blocks: block b is taken over from `previous` (NULL: none)
/// unless changed[b], with its nodes and its links to other blocks as they were there; every other
/// block must then be set (an_blocked_forest_set_block()) before an_blocked_forest_finish(). On
/// failure *out is empty.
/// @return ARCNAV_OK or ARCNAV_ERR_OUT_OF_MEMORY.
arcnav_status an_blocked_forest_begin(size_t block_count, const an_blocked_forest *previous,
                                      const uint8_t *changed, const an_allocator *alloc,
                                      an_blocked_forest *out);

/// Builds block `block` of nodes 0 .. node_count - 1 (at most AN_FOREST_BLOCK_MAX_NODES) from the
/// links among them (`inner`; a and b are numbers in the block) and the links from them to other
/// blocks' nodes (`cross`). Links of NaN width are left out. A link between two blocks must be
/// given to both, as wide in both: which nodes are boundary nodes is judged from it.
/// @return ARCNAV_OK, ARCNAV_ERR_OUT_OF_MEMORY, or ARCNAV_ERR_TOO_LARGE.
arcnav_status an_blocked_forest_set_block(an_blocked_forest *forest, size_t block,
                                          uint32_t node_count, const an_widest_link *inner,
                                          size_t inner_count, const an_cross_link *cross,
                                          size_t cross_count, const an_allocator *alloc);

/// Joins the blocks (every one set or kept) by the forest over their boundary nodes; the kept
/// blocks' links keep their order in the top of the forest the begin was given, which must be
/// there, unchanged, until then.
/// @return ARCNAV_OK or ARCNAV_ERR_OUT_OF_MEMORY (the forest is then still to be destroyed).
arcnav_status an_blocked_forest_finish(an_blocked_forest *forest, const an_allocator *alloc);

/// Another forest holding the same blocks (they are shared, not copied) and the same top.
/// @return ARCNAV_OK or ARCNAV_ERR_OUT_OF_MEMORY (*out is then empty).
arcnav_status an_blocked_forest_share(const an_blocked_forest *forest, const an_allocator *alloc,
                                      an_blocked_forest *out);

void an_blocked_forest_destroy(an_blocked_forest *forest, const an_allocator *alloc);

/// As an_widest_forest_width(), for two nodes of a finished forest.
double an_blocked_forest_width(const an_blocked_forest *forest, an_forest_ref a, an_forest_ref b);

/// As an_widest_forest_top(): two nodes are joined by a chain of links at least `width` wide
/// exactly when their tops are the same.
uint64_t an_blocked_forest_top(const an_blocked_forest *forest, an_forest_ref node, double width);

/// Bytes held, shared blocks counted whole.
size_t an_blocked_forest_memory_bytes(const an_blocked_forest *forest);
