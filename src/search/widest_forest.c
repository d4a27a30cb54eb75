// SPDX-License-Identifier: MIT
// The forest of the widest links (widest_forest.h).
#include "search/widest_forest.h"

#include "geom/geom.h"
#include "search/sort_words.h"

#include <assert.h>
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

enum { DIGIT_BITS = 8, DIGIT_VALUES = 1 << DIGIT_BITS, DIGITS = 32 / DIGIT_BITS };

// Below this many links a comparison sort beats the radix sort's passes. Timed, not counted: the
// quicksort runs fewer instructions than the radix sort up to a few hundred words, but its
// comparisons of random widths are mispredicted branches, and from about 40 words on the radix
// sort takes less time (docs/DESIGN.md, "The widest passages in blocks").
enum { RADIX_MIN_LINKS = 40 };

// The words of the links in [first, end) that are not NaN, into `words`: each link's key (above)
// over its place in `links`, so that ascending words take the links widest first and equal
// widths in the order given (the forest is then the same for the same list). Returns how many.
static size_t widest_first_words(const an_widest_link *links, size_t first, size_t end,
                                 uint64_t *words) {
  size_t kept = 0;
  for (size_t k = first; k < end; ++k) {
    if (!isnan(links[k].width)) {
      words[kept++] = (uint64_t)widest_first_key(links[k].width) << 32 | (uint64_t)k;
    }
  }
  return kept;
}

// Sorts `count` such words ascending: a radix sort of their keys, 8 bits at a time, skipping the
// digits every key shares (widths of one magnitude share their exponent's). `spare` holds as many
// words.
static void sort_keyed_words(uint64_t *words, size_t count, uint64_t *spare) {
  if (count < RADIX_MIN_LINKS) {
    // Every word differs (each holds its link's place): the order is the radix sort's.
    an_sort_words(words, count);
    return;
  }
  uint32_t first_key = (uint32_t)(words[0] >> 32), differing = 0;
  for (size_t k = 1; k < count; ++k) {
    differing |= (uint32_t)(words[k] >> 32) ^ first_key;
  }
  uint64_t *from = words, *to = spare;
  for (unsigned d = 0; d < DIGITS; ++d) {
    unsigned shift = 32 + d * DIGIT_BITS;
    if (((differing >> (d * DIGIT_BITS)) & (DIGIT_VALUES - 1)) == 0) {
      continue;
    }
    uint32_t start[DIGIT_VALUES] = {0};
    for (size_t k = 0; k < count; ++k) {
      start[(from[k] >> shift) & (DIGIT_VALUES - 1)]++;
    }
    uint32_t sum = 0;
    for (size_t v = 0; v < DIGIT_VALUES; ++v) {
      uint32_t here = start[v];
      start[v] = sum;
      sum += here;
    }
    for (size_t k = 0; k < count; ++k) {
      to[start[(from[k] >> shift) & (DIGIT_VALUES - 1)]++] = from[k];
    }
    uint64_t *swap = from;
    from = to;
    to = swap;
  }
  if (from != words) {
    memcpy(words, from, count * sizeof *words);
  }
}

// The links that are not NaN, widest first, as words (above) in `sorted`; `spare` holds as many
// words. Returns how many.
static size_t sort_widest_first(const an_widest_link *links, size_t count, uint64_t *sorted,
                                uint64_t *spare) {
  size_t kept = widest_first_words(links, 0, count, sorted);
  sort_keyed_words(sorted, kept, spare);
  return kept;
}

/// A node of a block's own forest (below): as an_widest_node, numbered in the block (8 bytes).
typedef struct block_node {
  float width;     ///< the width of the link to its parent (-1 at a root)
  uint16_t parent; ///< its parent, itself at a root
  uint16_t step;   ///< when that link was made (NO_STEP at a root)
} block_node;

enum { NO_STEP = UINT16_MAX };

// The walks up a forest, written once for both kinds of node: `nodes` with a width, a parent and
// a step, ROOT_STEP at a root.
//
// The widest chain between a and b: links made later lie higher up, so stepping up from the end
// linked earlier never passes the node where the two paths meet, and the narrowest link stepped
// over joined them last.
//
// The top of node's part at `width`: the widths do not grow going up, so the first link narrower
// than `width` ends the part.
#define DEFINE_WALKS(WALK, TOP, NODE, INDEX, ROOT_STEP)                                            \
  static double WALK(const NODE *nodes, INDEX a, INDEX b) {                                        \
    double width = INFINITY;                                                                       \
    while (a != b) {                                                                               \
      const NODE *na = &nodes[a], *nb = &nodes[b];                                                 \
      if (na->step == (ROOT_STEP) && nb->step == (ROOT_STEP)) {                                    \
        return -INFINITY;                                                                          \
      }                                                                                            \
      if (na->step < nb->step) {                                                                   \
        width = an_min(width, na->width);                                                          \
        a = na->parent;                                                                            \
      } else {                                                                                     \
        width = an_min(width, nb->width);                                                          \
        b = nb->parent;                                                                            \
      }                                                                                            \
    }                                                                                              \
    return width;                                                                                  \
  }                                                                                                \
  static INDEX TOP(const NODE *nodes, INDEX node, double width) {                                  \
    while (nodes[node].step != (ROOT_STEP) && nodes[node].width >= width) {                        \
      node = nodes[node].parent;                                                                   \
    }                                                                                              \
    return node;                                                                                   \
  }

DEFINE_WALKS(walk_forest, top_in_forest, an_widest_node, int32_t, UINT32_MAX)
DEFINE_WALKS(walk_block, top_in_block, block_node, uint32_t, NO_STEP)

// The root of t's part while the forest is built: `part` mirrors the forest's links, halved on
// every walk. The forest itself keeps its links as made (its depth is what bounds a query's walk).
static int32_t root_of(int32_t *part, int32_t t) {
  while (part[t] != t) {
    part[t] = part[part[t]];
    t = part[t];
  }
  return t;
}

// Kruskal's step for a link between a and b: false when they are in one part already; else the
// parts are joined by rank, *root the part's root after, *child the root hung under it.
static bool join_parts(int32_t *part, uint8_t *rank, int32_t a, int32_t b, int32_t *root,
                       int32_t *child) {
  int32_t ra = root_of(part, a), rb = root_of(part, b);
  if (ra == rb) {
    return false;
  }
  if (rank[ra] < rank[rb]) {
    int32_t swap = ra;
    ra = rb;
    rb = swap;
  }
  part[rb] = ra;
  rank[ra] += rank[ra] == rank[rb];
  *root = ra;
  *child = rb;
  return true;
}

// The forest of `node_count` nodes joined by Kruskal's rule over the `count` links that `order`
// names widest first (sort_widest_first()'s words).
static arcnav_status forest_in_order(size_t node_count, const an_widest_link *links,
                                     const uint64_t *order, size_t count, const an_allocator *alloc,
                                     an_widest_forest *out) {
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
  for (size_t t = 0; t < node_count; ++t) {
    forest.nodes[t] = (an_widest_node){-1.0f, (int32_t)t, UINT32_MAX};
    part[t] = (int32_t)t;
  }
  // A forest of n nodes has at most n - 1 links: the narrower links after the last are not read.
  uint32_t steps = 0;
  for (size_t k = 0; k < count && steps + 1 < node_count; ++k) {
    const an_widest_link *link = &links[order[k] & UINT32_MAX];
    int32_t root, child;
    if (join_parts(part, rank, link->a, link->b, &root, &child)) {
      forest.nodes[child] = (an_widest_node){link->width, root, steps++};
    }
  }
  an_free(alloc, rank);
  an_free(alloc, part);
  *out = forest;
  return ARCNAV_OK;
}

arcnav_status an_widest_forest_build(size_t node_count, const an_widest_link *links,
                                     size_t link_count, const an_allocator *alloc,
                                     an_widest_forest *out) {
  uint64_t *sorted = an_alloc(alloc, 2 * link_count + 1, sizeof *sorted);
  if (!sorted) {
    *out = (an_widest_forest){0, NULL};
    return ARCNAV_ERR_OUT_OF_MEMORY;
  }
  size_t kept = sort_widest_first(links, link_count, sorted, sorted + link_count);
  arcnav_status status = forest_in_order(node_count, links, sorted, kept, alloc, out);
  an_free(alloc, sorted);
  return status;
}

void an_widest_forest_destroy(an_widest_forest *forest, const an_allocator *alloc) {
  an_free(alloc, forest->nodes);
  *forest = (an_widest_forest){0, NULL};
}

double an_widest_forest_width(const an_widest_forest *forest, int32_t a, int32_t b) {
  return walk_forest(forest->nodes, a, b);
}

int32_t an_widest_forest_top(const an_widest_forest *forest, int32_t node, double width) {
  return top_in_forest(forest->nodes, node, width);
}

size_t an_widest_forest_memory_bytes(const an_widest_forest *forest) {
  return forest->nodes ? forest->node_count * sizeof *forest->nodes : 0;
}

// ---- in blocks ---------------------------------------------------------------------------------

enum { NO_BOUNDARY = UINT16_MAX };

/// A link from node `index` of a block to node `other_index` of the higher block `other_block`.
typedef struct upward_link {
  float width;
  uint16_t index, other_index;
  uint32_t other_block;
} upward_link;

struct an_forest_block {
  uint32_t holders; ///< forests holding it: the last to let go frees it
  uint32_t node_count, boundary_count, compressed_count, cross_count;
  block_node *nodes;
  /// Per node: the width at which the block's links first join it to a boundary node (INFINITY at
  /// a boundary node, -1 when they never do), and that boundary node's number among the block's.
  float *reach_width;
  uint16_t *reach;
  /// The block's links among its boundary nodes (by their numbers), as its forest joins them: the
  /// widest chain inside the block between two boundary nodes is the widest chain of these.
  an_widest_link *compressed;
  /// The block's links to higher blocks (the lower block of a link between two keeps it).
  upward_link *cross;
};

static void block_release(an_forest_block *block, const an_allocator *alloc) {
  if (block && --block->holders == 0) {
    an_free(alloc, block);
  }
}

// A block's one allocation: the struct, then its arrays, widest alignment first (the compressed
// links, one fewer than the boundary nodes at most).
static size_t block_bytes(size_t nodes, size_t boundary, size_t cross) {
  size_t compressed = boundary > 0 ? boundary - 1 : 0;
  return sizeof(an_forest_block) + cross * sizeof(upward_link) + nodes * sizeof(block_node) +
         nodes * sizeof(float) + compressed * sizeof(an_widest_link) + nodes * sizeof(uint16_t);
}

static an_forest_block *block_allocate(uint32_t nodes, uint32_t boundary, uint32_t cross,
                                       const an_allocator *alloc) {
  size_t compressed = boundary > 0 ? boundary - 1 : 0;
  an_forest_block *block = an_alloc(alloc, 1, block_bytes(nodes, boundary, cross));
  if (!block) {
    return NULL;
  }
  unsigned char *at = (unsigned char *)(block + 1);
  *block = (an_forest_block){
      .holders = 1, .node_count = nodes, .boundary_count = boundary, .cross_count = cross};
  block->cross = (upward_link *)at;
  at += cross * sizeof(upward_link);
  block->nodes = (block_node *)at;
  at += nodes * sizeof(block_node);
  block->reach_width = (float *)at;
  at += nodes * sizeof(float);
  block->compressed = (an_widest_link *)at;
  at += compressed * sizeof(an_widest_link);
  block->reach = (uint16_t *)at;
  return block;
}

arcnav_status an_blocked_forest_begin(size_t block_count, const an_blocked_forest *previous,
                                      const uint8_t *changed, const an_allocator *alloc,
                                      an_blocked_forest *out) {
  *out = (an_blocked_forest){0};
  out->blocks = an_calloc(alloc, block_count > 0 ? block_count : 1, sizeof *out->blocks);
  if (!out->blocks) {
    return ARCNAV_ERR_OUT_OF_MEMORY;
  }
  out->block_count = block_count;
  out->begun_from = previous;
  for (size_t b = 0; previous && b < block_count && b < previous->block_count; ++b) {
    if (!changed[b] && previous->blocks[b]) {
      out->blocks[b] = previous->blocks[b];
      out->blocks[b]->holders++;
    }
  }
  return ARCNAV_OK;
}

// The members of each part of the block's nodes that no boundary node has joined yet, as lists
// through `next` from `head` to `last` of the part's root: when a boundary node joins the part,
// each learns its width to it once.
typedef struct block_scratch {
  uint64_t *sorted; ///< the allocation, which the others are carved from
  int32_t *part, *boundary_of, *head, *last, *next;
  uint8_t *rank;
} block_scratch;

// The scratch of a block of n nodes and `links` inner links, in one allocation; false when out of
// memory.
static bool block_scratch_make(block_scratch *s, size_t n, size_t links,
                               const an_allocator *alloc) {
  size_t words = 2 * links + 1;
  s->sorted = an_alloc(alloc, 1, words * sizeof(uint64_t) + n * (5 * sizeof(int32_t) + 1));
  if (!s->sorted) {
    return false;
  }
  int32_t *at = (int32_t *)(s->sorted + words);
  s->part = at;
  s->boundary_of = at + n;
  s->head = at + 2 * n;
  s->last = at + 3 * n;
  s->next = at + 4 * n;
  s->rank = (uint8_t *)(at + 5 * n);
  memset(s->rank, 0, n);
  return true;
}

// Kruskal's algorithm over the block's links, as an_widest_forest_build(), that also follows which
// parts hold a boundary node: when two such parts join, the link joins their boundary nodes in the
// compressed links; when one joins a part without, that part's members reach its boundary node at
// the link's width.
static void block_join(an_forest_block *block, const an_widest_link *inner, size_t sorted_count,
                       block_scratch *s) {
  uint32_t n = block->node_count;
  for (uint32_t x = 0; x < n; ++x) {
    block->nodes[x] = (block_node){-1.0f, (uint16_t)x, NO_STEP};
    s->part[x] = (int32_t)x;
    s->head[x] = s->last[x] = (int32_t)x;
    s->next[x] = -1;
    bool boundary = s->boundary_of[x] >= 0;
    block->reach[x] = boundary ? (uint16_t)s->boundary_of[x] : NO_BOUNDARY;
    block->reach_width[x] = boundary ? INFINITY : -1.0f;
  }
  uint32_t steps = 0, compressed = 0;
  for (size_t k = 0; k < sorted_count && steps + 1 < n; ++k) {
    const an_widest_link *link = &inner[s->sorted[k] & UINT32_MAX];
    int32_t ra, rb;
    if (!join_parts(s->part, s->rank, link->a, link->b, &ra, &rb)) {
      continue;
    }
    block->nodes[rb] = (block_node){link->width, (uint16_t)ra, (uint16_t)steps++};
    int32_t ga = s->boundary_of[ra], gb = s->boundary_of[rb];
    if (ga >= 0 && gb >= 0) {
      block->compressed[compressed++] = (an_widest_link){link->width, ga, gb};
      continue;
    }
    if (ga < 0 && gb < 0) {
      s->next[s->last[ra]] = s->head[rb];
      s->last[ra] = s->last[rb];
      continue;
    }
    int32_t joined = ga >= 0 ? ga : gb, members = ga >= 0 ? rb : ra;
    for (int32_t x = s->head[members]; x >= 0; x = s->next[x]) {
      block->reach[x] = (uint16_t)joined;
      block->reach_width[x] = link->width;
    }
    s->boundary_of[ra] = joined;
  }
  block->compressed_count = compressed;
}

arcnav_status an_blocked_forest_set_block(an_blocked_forest *forest, size_t block,
                                          uint32_t node_count, const an_widest_link *inner,
                                          size_t inner_count, const an_cross_link *cross,
                                          size_t cross_count, const an_allocator *alloc) {
  if (node_count > AN_FOREST_BLOCK_MAX_NODES || cross_count > UINT32_MAX) {
    return ARCNAV_ERR_TOO_LARGE;
  }
  block_scratch s;
  if (!block_scratch_make(&s, node_count, inner_count, alloc)) {
    return ARCNAV_ERR_OUT_OF_MEMORY;
  }
  // The boundary nodes, numbered in the order of the block's.
  for (uint32_t x = 0; x < node_count; ++x) {
    s.boundary_of[x] = -1;
  }
  uint32_t upward = 0;
  for (size_t k = 0; k < cross_count; ++k) {
    if (!isnan(cross[k].width)) {
      assert(cross[k].index < node_count && cross[k].other.block != block &&
             cross[k].other.index < AN_FOREST_BLOCK_MAX_NODES);
      s.boundary_of[cross[k].index] = 0;
      upward += cross[k].other.block > block;
    }
  }
  uint32_t boundary = 0;
  for (uint32_t x = 0; x < node_count; ++x) {
    s.boundary_of[x] = s.boundary_of[x] >= 0 ? (int32_t)boundary++ : -1;
  }
  an_forest_block *made = block_allocate(node_count, boundary, upward, alloc);
  if (!made) {
    an_free(alloc, s.sorted);
    return ARCNAV_ERR_OUT_OF_MEMORY;
  }
  for (size_t k = 0, c = 0; k < cross_count; ++k) {
    if (!isnan(cross[k].width) && cross[k].other.block > block) {
      made->cross[c++] = (upward_link){cross[k].width, (uint16_t)cross[k].index,
                                       (uint16_t)cross[k].other.index, cross[k].other.block};
    }
  }
  size_t sorted = sort_widest_first(inner, inner_count, s.sorted, s.sorted + inner_count);
  block_join(made, inner, sorted, &s);
  an_free(alloc, s.sorted);
  block_release(forest->blocks[block], alloc);
  forest->blocks[block] = made;
  return ARCNAV_OK;
}

// How many links a block gives the top: its compressed links, then its links to higher blocks.
static size_t top_links_of(const an_forest_block *block) {
  return (size_t)block->compressed_count + block->cross_count;
}

// Did `forest` take block b over from `previous` (an_blocked_forest_begin())?
static bool block_kept(const an_blocked_forest *forest, const an_blocked_forest *previous,
                       size_t b) {
  return b < forest->block_count && b < previous->block_count &&
         forest->blocks[b] == previous->blocks[b];
}

// The top's links (`links`, as an_blocked_forest_finish() lists them) widest first, into `order`,
// from the order of the forest `previous` this one was begun from: the links of the blocks both
// hold keep theirs, at their places in this list, and merge with the other blocks' links, sorted;
// the same words as sort_widest_first() gives (docs/DESIGN.md, "The widest passages in blocks").
// `moved` holds a word per link of previous's top, `work` two per link. Returns how many.
static size_t order_after_change(const an_blocked_forest *forest, const an_blocked_forest *previous,
                                 const an_widest_link *links, uint32_t *moved, uint64_t *order,
                                 uint64_t *work) {
  // Where each of previous's places went: a kept block's links move with its first one; a
  // changed block's are gone (UINT32_MAX).
  size_t old_base = 0, new_base = 0;
  for (size_t b = 0; b < previous->block_count; ++b) {
    bool kept = block_kept(forest, previous, b);
    size_t n = top_links_of(previous->blocks[b]);
    for (size_t k = 0; k < n; ++k) {
      moved[old_base + k] = kept ? (uint32_t)(new_base + k) : UINT32_MAX;
    }
    old_base += n;
    new_base += b < forest->block_count ? top_links_of(forest->blocks[b]) : 0;
  }
  // Renumbered, the kept links are still in order: their places keep their order.
  size_t carried = 0;
  for (size_t k = 0; k < previous->top_order_count; ++k) {
    uint64_t word = previous->top_order[k];
    uint32_t place = moved[word & UINT32_MAX];
    if (place != UINT32_MAX) {
      work[carried++] = (word & ~(uint64_t)UINT32_MAX) | place;
    }
  }
  uint64_t *fresh = work + carried;
  size_t fresh_count = 0, base = 0;
  for (size_t b = 0; b < forest->block_count; ++b) {
    size_t n = top_links_of(forest->blocks[b]);
    if (!block_kept(forest, previous, b)) {
      fresh_count += widest_first_words(links, base, base + n, fresh + fresh_count);
    }
    base += n;
  }
  assert(carried + fresh_count <= base);
  sort_keyed_words(fresh, fresh_count, fresh + fresh_count);
  size_t i = 0, j = 0, out = 0;
  while (i < carried || j < fresh_count) {
    order[out++] = j == fresh_count || (i < carried && work[i] < fresh[j]) ? work[i++] : fresh[j++];
  }
  return out;
}

arcnav_status an_blocked_forest_finish(an_blocked_forest *forest, const an_allocator *alloc) {
  const an_blocked_forest *previous = forest->begun_from;
  forest->begun_from = NULL;
  size_t blocks = forest->block_count, count = 0;
  forest->top_base = an_alloc(alloc, blocks > 0 ? blocks : 1, sizeof *forest->top_base);
  if (!forest->top_base) {
    return ARCNAV_ERR_OUT_OF_MEMORY;
  }
  uint32_t total = 0;
  for (size_t b = 0; b < blocks; ++b) {
    const an_forest_block *block = forest->blocks[b];
    assert(block);
    forest->top_base[b] = total;
    total += block->boundary_count;
    count += top_links_of(block);
  }
  bool merge = previous && previous->top_order;
  size_t old_count = 0;
  for (size_t b = 0; merge && b < previous->block_count; ++b) {
    old_count += top_links_of(previous->blocks[b]);
  }
  an_widest_link *links = an_alloc(alloc, count + 1, sizeof *links);
  uint64_t *order = an_alloc(alloc, count + 1, sizeof *order);
  uint64_t *work = an_alloc(alloc, 2 * count + 1, sizeof *work);
  uint32_t *moved = merge ? an_alloc(alloc, old_count + 1, sizeof *moved) : NULL;
  if (!links || !order || !work || (merge && !moved)) {
    an_free(alloc, links);
    an_free(alloc, order);
    an_free(alloc, work);
    an_free(alloc, moved);
    return ARCNAV_ERR_OUT_OF_MEMORY;
  }
  count = 0;
  for (size_t b = 0; b < blocks; ++b) {
    const an_forest_block *block = forest->blocks[b];
    int32_t base = (int32_t)forest->top_base[b];
    for (uint32_t k = 0; k < block->compressed_count; ++k) {
      an_widest_link link = block->compressed[k];
      links[count++] = (an_widest_link){link.width, base + link.a, base + link.b};
    }
    for (uint32_t k = 0; k < block->cross_count; ++k) {
      const upward_link *cross = &block->cross[k];
      const an_forest_block *other = forest->blocks[cross->other_block];
      assert(cross->other_index < other->node_count &&
             other->reach[cross->other_index] != NO_BOUNDARY &&
             other->reach_width[cross->other_index] == INFINITY);
      links[count++] = (an_widest_link){
          cross->width, base + block->reach[cross->index],
          (int32_t)(forest->top_base[cross->other_block] + other->reach[cross->other_index])};
    }
  }
  // A local change keeps most blocks: their links' order is the forest before's, which spares
  // sorting them again (a tenth of a building's update on rect300).
  size_t kept = merge ? order_after_change(forest, previous, links, moved, order, work)
                      : sort_widest_first(links, count, order, work);
  arcnav_status status = forest_in_order(total, links, order, kept, alloc, &forest->top);
  an_free(alloc, links);
  an_free(alloc, work);
  an_free(alloc, moved);
  if (status != ARCNAV_OK) {
    an_free(alloc, order);
    return status;
  }
  forest->top_order = order;
  forest->top_order_count = kept;
  return ARCNAV_OK;
}

arcnav_status an_blocked_forest_share(const an_blocked_forest *forest, const an_allocator *alloc,
                                      an_blocked_forest *out) {
  *out = (an_blocked_forest){0};
  size_t blocks = forest->block_count;
  out->blocks = an_duplicate(alloc, forest->blocks, blocks, sizeof *out->blocks);
  out->top_base = an_duplicate(alloc, forest->top_base, blocks, sizeof *out->top_base);
  out->top.nodes =
      an_duplicate(alloc, forest->top.nodes, forest->top.node_count, sizeof *out->top.nodes);
  out->top_order =
      an_duplicate(alloc, forest->top_order, forest->top_order_count, sizeof *out->top_order);
  if ((blocks > 0 && (!out->blocks || !out->top_base)) ||
      (forest->top.node_count > 0 && !out->top.nodes) ||
      (forest->top_order_count > 0 && !out->top_order)) {
    an_free(alloc, out->blocks);
    an_free(alloc, out->top_base);
    an_free(alloc, out->top.nodes);
    an_free(alloc, out->top_order);
    *out = (an_blocked_forest){0};
    return ARCNAV_ERR_OUT_OF_MEMORY;
  }
  out->block_count = blocks;
  out->top.node_count = forest->top.node_count;
  out->top_order_count = forest->top_order_count;
  for (size_t b = 0; b < blocks; ++b) {
    out->blocks[b]->holders++;
  }
  return ARCNAV_OK;
}

void an_blocked_forest_destroy(an_blocked_forest *forest, const an_allocator *alloc) {
  for (size_t b = 0; forest->blocks && b < forest->block_count; ++b) {
    block_release(forest->blocks[b], alloc);
  }
  an_free(alloc, forest->blocks);
  an_free(alloc, forest->top_base);
  an_free(alloc, forest->top_order);
  an_widest_forest_destroy(&forest->top, alloc);
  *forest = (an_blocked_forest){0};
}

double an_blocked_forest_width(const an_blocked_forest *forest, an_forest_ref a, an_forest_ref b) {
  const an_forest_block *ba = forest->blocks[a.block], *bb = forest->blocks[b.block];
  double width = a.block == b.block ? walk_block(ba->nodes, a.index, b.index) : -INFINITY;
  uint16_t ra = ba->reach[a.index], rb = bb->reach[b.index];
  if (ra == NO_BOUNDARY || rb == NO_BOUNDARY) {
    return width;
  }
  double through = an_min(ba->reach_width[a.index], bb->reach_width[b.index]);
  if (through <= width) {
    return width;
  }
  through = an_min(through,
                   an_widest_forest_width(&forest->top, (int32_t)(forest->top_base[a.block] + ra),
                                          (int32_t)(forest->top_base[b.block] + rb)));
  return an_max(width, through);
}

uint64_t an_blocked_forest_top(const an_blocked_forest *forest, an_forest_ref node, double width) {
  const an_forest_block *block = forest->blocks[node.block];
  uint16_t reach = block->reach[node.index];
  if (reach != NO_BOUNDARY && block->reach_width[node.index] >= width) {
    // Its part holds a boundary node: the part is the top forest's.
    int32_t top =
        an_widest_forest_top(&forest->top, (int32_t)(forest->top_base[node.block] + reach), width);
    return UINT64_C(1) << 63 | (uint64_t)top;
  }
  // Its part lies inside the block.
  return (uint64_t)node.block << 32 | top_in_block(block->nodes, node.index, width);
}

size_t an_blocked_forest_memory_bytes(const an_blocked_forest *forest) {
  if (!forest->blocks) {
    return 0;
  }
  size_t bytes = forest->block_count * (sizeof *forest->blocks + sizeof *forest->top_base) +
                 an_widest_forest_memory_bytes(&forest->top) +
                 forest->top_order_count * sizeof *forest->top_order;
  for (size_t b = 0; b < forest->block_count; ++b) {
    const an_forest_block *block = forest->blocks[b];
    bytes += block ? block_bytes(block->node_count, block->boundary_count, block->cross_count) : 0;
  }
  return bytes;
}
