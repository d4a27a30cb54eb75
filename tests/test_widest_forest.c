// SPDX-License-Identifier: MIT
// The forest of the widest links, against a brute force: on small random graphs (ties, NaN links,
// links of a node to itself, parts left unjoined) the widest chain's narrowest link between every
// two nodes, worked out by Floyd and Warshall's closure, is what the forest answers, and two
// nodes share a top for a width exactly when such a chain is at least that wide.
#include "arcnav_test.h"
#include "mapgen.h"
#include "search/sort_words.h"
#include "search/widest_forest.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_NODES = 14, MAX_LINKS = 40 };

// A width from a short list, so that many links tie; infinite and negative ones among them.
static float random_width(sup_rng *rng) {
  static const float widths[] = {0.0f, 0.5f, 1.0f, 1.0f, 2.25f, 3.0f, 1e30f, -2.0f, INFINITY};
  return sup_rng_below(rng, 12) == 0 ? NAN
                                     : widths[sup_rng_below(rng, sizeof widths / sizeof widths[0])];
}

// The widest chain's narrowest width between every two of `nodes` nodes (row-major into
// `widest`), by Floyd and Warshall's closure over bottleneck widths: INFINITY from a node to
// itself, -INFINITY where nothing joins two (the forest's answer). NaN links join nothing.
static void widest_by_closure(size_t nodes, const an_widest_link *links, size_t count,
                              double *widest) {
  for (size_t a = 0; a < nodes; ++a) {
    for (size_t b = 0; b < nodes; ++b) {
      widest[a * nodes + b] = a == b ? INFINITY : -INFINITY;
    }
  }
  for (size_t k = 0; k < count; ++k) {
    size_t a = (size_t)links[k].a, b = (size_t)links[k].b;
    if (!isnan(links[k].width) && a != b && links[k].width > widest[a * nodes + b]) {
      widest[a * nodes + b] = widest[b * nodes + a] = links[k].width;
    }
  }
  for (size_t via = 0; via < nodes; ++via) {
    for (size_t a = 0; a < nodes; ++a) {
      for (size_t b = 0; b < nodes; ++b) {
        double through = fmin(widest[a * nodes + via], widest[via * nodes + b]);
        widest[a * nodes + b] = fmax(widest[a * nodes + b], through);
      }
    }
  }
}

// The forest built from `links` answers every two nodes' width as the closure does, and two
// nodes share a top for a width exactly when they are joined at least that wide.
static void check_against_closure(size_t nodes, an_widest_link *links, size_t count, double *widest,
                                  const char *label) {
  widest_by_closure(nodes, links, count, widest);
  an_allocator alloc = an_allocator_from(NULL);
  an_widest_forest forest;
  ck_assert_int_eq(an_widest_forest_build(nodes, links, count, &alloc, &forest), ARCNAV_OK);
  static const double asked[] = {0.0, 1.0, 2.0, 1e31};
  for (size_t a = 0; a < nodes; ++a) {
    for (size_t b = 0; b < nodes; ++b) {
      double got = an_widest_forest_width(&forest, (int32_t)a, (int32_t)b);
      double want = widest[a * nodes + b];
      ck_assert_msg(got == want, "%s: nodes %zu and %zu joined %g wide, the forest says %g", label,
                    a, b, want, got);
      for (size_t w = 0; w < sizeof asked / sizeof asked[0]; ++w) {
        bool joined = want >= asked[w];
        bool same_top = an_widest_forest_top(&forest, (int32_t)a, asked[w]) ==
                        an_widest_forest_top(&forest, (int32_t)b, asked[w]);
        ck_assert_msg(joined == same_top, "%s: nodes %zu and %zu at width %g", label, a, b,
                      asked[w]);
      }
    }
  }
  an_widest_forest_destroy(&forest, &alloc);
}

START_TEST(test_widths_against_brute_force) {
  sup_rng rng = sup_rng_seed(0x9e3779b97f4a7c15ull + (uint64_t)_i);
  uint64_t rounds = test_scaled_count(500);
  for (uint64_t round = 0; round < rounds; ++round) {
    size_t nodes = 1 + sup_rng_below(&rng, MAX_NODES), count = sup_rng_below(&rng, MAX_LINKS + 1);
    an_widest_link links[MAX_LINKS + 1];
    double widest[MAX_NODES * MAX_NODES];
    for (size_t k = 0; k < count; ++k) {
      links[k] = (an_widest_link){random_width(&rng), (int32_t)sup_rng_below(&rng, (uint32_t)nodes),
                                  (int32_t)sup_rng_below(&rng, (uint32_t)nodes)};
    }
    char label[32];
    snprintf(label, sizeof label, "round %llu", (unsigned long long)round);
    check_against_closure(nodes, links, count, widest, label);
  }
}
END_TEST

static int compare_words(const void *lhs, const void *rhs) {
  uint64_t a = *(const uint64_t *)lhs, b = *(const uint64_t *)rhs;
  return (a > b) - (a < b);
}

// The sort of words against qsort, at every length to well past where the quicksort leaves its
// short runs to insertion: keys drawn from a few values (many equal, told apart by the low word)
// or from all, and lists given sorted and reversed.
START_TEST(test_sort_words_against_qsort) {
  sup_rng rng = sup_rng_seed(0x50c4a11d5eedull);
  enum { MOST = 700 };
  static uint64_t words[MOST], want[MOST];
  for (size_t count = 0; count <= MOST; count += 1 + count / 32) {
    for (int kind = 0; kind < 4; ++kind) {
      for (size_t k = 0; k < count; ++k) {
        uint64_t key = kind == 0 ? sup_rng_below(&rng, 4) : sup_rng_below(&rng, UINT32_MAX);
        size_t place = kind == 3 ? count - 1 - k : k;
        words[k] = kind >= 2 ? (uint64_t)place << 32 | k : key << 32 | k;
      }
      memcpy(want, words, count * sizeof *words);
      qsort(want, count, sizeof *want, compare_words);
      an_sort_words(words, count);
      for (size_t k = 0; k < count; ++k) {
        if (words[k] != want[k]) {
          ck_abort_msg("%zu words of kind %d: word %zu out of order", count, kind, k);
        }
      }
    }
  }
}
END_TEST

// Lists of every length around the one where the sort changes from comparisons to digits, with
// widths drawn from a few values (many ties, which keep the order given) or from many.
START_TEST(test_both_sorts_against_brute_force) {
  sup_rng rng = sup_rng_seed(0x51afd7ed558ccd1dull);
  enum { NODES = 40, LINKS = 600 };
  static an_widest_link links[LINKS];
  static double widest[NODES * NODES];
  for (size_t count = 0; count <= LINKS; count += 1 + count / 16) {
    bool ties = count % 2 == 0;
    for (size_t k = 0; k < count; ++k) {
      float width = ties ? random_width(&rng)
                         : ldexpf((float)(1 + sup_rng_below(&rng, 1u << 23)),
                                  (int)sup_rng_below(&rng, 40) - 20);
      links[k] = (an_widest_link){width, (int32_t)sup_rng_below(&rng, NODES),
                                  (int32_t)sup_rng_below(&rng, NODES)};
    }
    char label[48];
    snprintf(label, sizeof label, "%zu links%s", count, ties ? ", ties" : "");
    check_against_closure(NODES, links, count, widest, label);
  }
}
END_TEST

// Many links: the sort's every digit is used (widths spread over the whole range of floats).
START_TEST(test_many_links_against_brute_force) {
  sup_rng rng = sup_rng_seed(0x2545f4914f6cdd1dull);
  enum { NODES = 60, LINKS = 3000 };
  static an_widest_link links[LINKS];
  static double widest[NODES * NODES];
  for (size_t k = 0; k < LINKS; ++k) {
    float width =
        ldexpf((float)(1 + sup_rng_below(&rng, 1u << 23)), (int)sup_rng_below(&rng, 120) - 60);
    width = sup_rng_below(&rng, 10) == 0 ? -width : width;
    links[k] = (an_widest_link){width, (int32_t)sup_rng_below(&rng, NODES),
                                (int32_t)sup_rng_below(&rng, NODES)};
  }
  check_against_closure(NODES, links, LINKS, widest, "many links");
}
END_TEST

// ---- in blocks ---------------------------------------------------------------------------------

enum { BLOCKED_NODES = 24, BLOCKED_LINKS = 48 };

// A graph whose nodes are split in blocks of consecutive numbers (some empty), and its blocked
// forest built from the global list of links as a caller builds it: each block's links among its
// nodes, and each link between two blocks given to both.
typedef struct blocked_graph {
  size_t nodes, blocks;
  uint32_t block_of[BLOCKED_NODES], index_of[BLOCKED_NODES], first[BLOCKED_NODES + 1];
  an_widest_link links[BLOCKED_LINKS];
  size_t count;
} blocked_graph;

static void split_in_blocks(blocked_graph *g, sup_rng *rng) {
  g->blocks = 0;
  size_t node = 0;
  while (node < g->nodes) {
    size_t size = sup_rng_below(rng, 7); // 0: an empty block
    g->first[g->blocks] = (uint32_t)node;
    for (size_t k = 0; k < size && node < g->nodes; ++k, ++node) {
      g->block_of[node] = (uint32_t)g->blocks;
      g->index_of[node] = (uint32_t)k;
    }
    g->blocks++;
  }
  g->first[g->blocks] = (uint32_t)node;
}

static an_widest_link random_link(blocked_graph *g, sup_rng *rng) {
  return (an_widest_link){random_width(rng), (int32_t)sup_rng_below(rng, g->nodes),
                          (int32_t)sup_rng_below(rng, g->nodes)};
}

// Sets block b of `forest` from the graph's links.
static void set_block_from(const blocked_graph *g, size_t b, an_blocked_forest *forest) {
  an_widest_link inner[BLOCKED_LINKS];
  an_cross_link cross[2 * BLOCKED_LINKS];
  size_t inner_count = 0, cross_count = 0;
  for (size_t k = 0; k < g->count; ++k) {
    an_widest_link link = g->links[k];
    uint32_t ba = g->block_of[link.a], bb = g->block_of[link.b];
    uint32_t ia = g->index_of[link.a], ib = g->index_of[link.b];
    if (ba == b && bb == b) {
      inner[inner_count++] = (an_widest_link){link.width, (int32_t)ia, (int32_t)ib};
    } else if (ba == b) {
      cross[cross_count++] = (an_cross_link){link.width, ia, {bb, ib}};
    } else if (bb == b) {
      cross[cross_count++] = (an_cross_link){link.width, ib, {ba, ia}};
    }
  }
  an_allocator alloc = an_allocator_from(NULL);
  ck_assert_int_eq(an_blocked_forest_set_block(forest, b, g->first[b + 1] - g->first[b], inner,
                                               inner_count, cross, cross_count, &alloc),
                   ARCNAV_OK);
}

// The blocked forest answers as the closure does, for every two nodes and at every width asked.
static void check_blocked(const blocked_graph *g, const an_blocked_forest *forest,
                          const char *label) {
  double widest[BLOCKED_NODES * BLOCKED_NODES];
  widest_by_closure(g->nodes, g->links, g->count, widest);
  static const double asked[] = {0.0, 1.0, 2.0, 1e31, INFINITY};
  for (size_t a = 0; a < g->nodes; ++a) {
    an_forest_ref ra = {g->block_of[a], g->index_of[a]};
    for (size_t b = 0; b < g->nodes; ++b) {
      an_forest_ref rb = {g->block_of[b], g->index_of[b]};
      // Asserted only when wrong: every assertion passed is a write of Check's, and these are
      // many.
      double got = an_blocked_forest_width(forest, ra, rb), want = widest[a * g->nodes + b];
      if (got != want) {
        ck_abort_msg("%s: nodes %zu and %zu joined %g wide, the blocked forest says %g", label, a,
                     b, want, got);
      }
      for (size_t w = 0; w < sizeof asked / sizeof asked[0]; ++w) {
        bool same_top = an_blocked_forest_top(forest, ra, asked[w]) ==
                        an_blocked_forest_top(forest, rb, asked[w]);
        if ((want >= asked[w]) != same_top) {
          ck_abort_msg("%s: nodes %zu and %zu at width %g", label, a, b, asked[w]);
        }
      }
    }
  }
}

// A forest finished after a change, its top's links merged into the order of the forest before,
// has the top a forest built afresh has: the same links in the same order, so the same nodes.
static void check_same_top(const blocked_graph *g, const an_blocked_forest *changed,
                           const char *label) {
  an_allocator alloc = an_allocator_from(NULL);
  an_blocked_forest fresh;
  ck_assert_int_eq(an_blocked_forest_begin(g->blocks, NULL, NULL, &alloc, &fresh), ARCNAV_OK);
  for (size_t b = 0; b < g->blocks; ++b) {
    set_block_from(g, b, &fresh);
  }
  ck_assert_int_eq(an_blocked_forest_finish(&fresh, &alloc), ARCNAV_OK);
  ck_assert_msg(changed->top_order_count == fresh.top_order_count, "%s: %zu links, afresh %zu",
                label, changed->top_order_count, fresh.top_order_count);
  for (size_t k = 0; k < fresh.top_order_count; ++k) {
    if (changed->top_order[k] != fresh.top_order[k]) {
      ck_abort_msg("%s: the top's link %zu is not the one a forest built afresh takes", label, k);
    }
  }
  ck_assert_uint_eq(changed->top.node_count, fresh.top.node_count);
  for (size_t t = 0; t < fresh.top.node_count; ++t) {
    an_widest_node a = changed->top.nodes[t], b = fresh.top.nodes[t];
    if (a.parent != b.parent || a.step != b.step || !(a.width == b.width)) {
      ck_abort_msg("%s: the top's node %zu differs from a forest built afresh", label, t);
    }
  }
  an_blocked_forest_destroy(&fresh, &alloc);
}

// Random graphs in random blocks; then links of a few nodes changed again and again, each time
// only the blocks holding an end of a link taken out or put in built again, the others taken over
// from the forest before, which is destroyed after the finish (the blocks it shares must outlive
// it), and the top the same as a forest built afresh has.
START_TEST(test_blocked_against_brute_force) {
  sup_rng rng = sup_rng_seed(0x51afd7ed558ccdull + (uint64_t)_i);
  an_allocator alloc = an_allocator_from(NULL);
  uint64_t rounds = test_scaled_count(150);
  for (uint64_t round = 0; round < rounds; ++round) {
    blocked_graph g = {.nodes = 1 + sup_rng_below(&rng, BLOCKED_NODES)};
    split_in_blocks(&g, &rng);
    g.count = sup_rng_below(&rng, BLOCKED_LINKS / 2 + 1);
    for (size_t k = 0; k < g.count; ++k) {
      g.links[k] = random_link(&g, &rng);
    }
    an_blocked_forest forest;
    ck_assert_int_eq(an_blocked_forest_begin(g.blocks, NULL, NULL, &alloc, &forest), ARCNAV_OK);
    for (size_t b = 0; b < g.blocks; ++b) {
      set_block_from(&g, b, &forest);
    }
    ck_assert_int_eq(an_blocked_forest_finish(&forest, &alloc), ARCNAV_OK);
    char label[48];
    snprintf(label, sizeof label, "round %llu", (unsigned long long)round);
    check_blocked(&g, &forest, label);
    for (int change = 0; change < 4; ++change) {
      uint8_t dirty[BLOCKED_NODES] = {0};
      // Links of a random node out, others in (some of them its own).
      int32_t node = (int32_t)sup_rng_below(&rng, g.nodes);
      size_t kept = 0;
      for (size_t k = 0; k < g.count; ++k) {
        an_widest_link link = g.links[k];
        if (link.a == node || link.b == node || sup_rng_below(&rng, 8) == 0) {
          dirty[g.block_of[link.a]] = dirty[g.block_of[link.b]] = 1;
        } else {
          g.links[kept++] = link;
        }
      }
      g.count = kept;
      size_t added = sup_rng_below(&rng, 6);
      for (size_t k = 0; k < added && g.count < BLOCKED_LINKS; ++k) {
        an_widest_link link = random_link(&g, &rng);
        link.a = sup_rng_below(&rng, 2) ? node : link.a;
        g.links[g.count++] = link;
        dirty[g.block_of[link.a]] = dirty[g.block_of[link.b]] = 1;
      }
      an_blocked_forest next;
      ck_assert_int_eq(an_blocked_forest_begin(g.blocks, &forest, dirty, &alloc, &next), ARCNAV_OK);
      for (size_t b = 0; b < g.blocks; ++b) {
        if (dirty[b]) {
          set_block_from(&g, b, &next);
        }
      }
      ck_assert_int_eq(an_blocked_forest_finish(&next, &alloc), ARCNAV_OK);
      an_blocked_forest_destroy(&forest, &alloc);
      snprintf(label, sizeof label, "round %llu, change %d", (unsigned long long)round, change);
      check_blocked(&g, &next, label);
      check_same_top(&g, &next, label);
      // A share answers the same after the forest it shares is gone.
      ck_assert_int_eq(an_blocked_forest_share(&next, &alloc, &forest), ARCNAV_OK);
      an_blocked_forest_destroy(&next, &alloc);
      check_blocked(&g, &forest, label);
    }
    an_blocked_forest_destroy(&forest, &alloc);
  }
}
END_TEST

static Suite *widest_forest_suite(void) {
  Suite *s = suite_create("widest_forest");
  TCase *tc = tcase_create("core");
  // Check's default of 4 seconds a case is short beside other tests and under the sanitizers.
  tcase_set_timeout(tc, 60);
  tcase_add_loop_test(tc, test_widths_against_brute_force, 0, 4);
  tcase_add_test(tc, test_many_links_against_brute_force);
  tcase_add_test(tc, test_both_sorts_against_brute_force);
  tcase_add_test(tc, test_sort_words_against_qsort);
  tcase_add_loop_test(tc, test_blocked_against_brute_force, 0, 4);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  return test_run_suite(widest_forest_suite());
}
