// SPDX-License-Identifier: MIT
// The forest of the widest links, against a brute force: on small random graphs (ties, NaN links,
// links of a node to itself, parts left unjoined) the widest chain's narrowest link between every
// two nodes, worked out by Floyd and Warshall's closure, is what the forest answers, and two
// nodes share a top for a width exactly when such a chain is at least that wide.
#include "arcnav_test.h"
#include "mapgen.h"
#include "search/widest_forest.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

enum { MAX_NODES = 14, MAX_LINKS = 40 };

// A width from a short list, so that many links tie; infinite and negative ones among them.
static float random_width(sup_rng *rng) {
  static const float widths[] = {0.0f, 0.5f, 1.0f, 1.0f, 2.25f, 3.0f, 1e30f, -2.0f, INFINITY};
  return sup_rng_below(rng, 12) == 0 ? NAN
                                     : widths[sup_rng_below(rng, sizeof widths / sizeof widths[0])];
}

// The widest chain's narrowest width between every two of `nodes` nodes (row-major into
// `widest`), by Floyd and Warshall's closure over bottleneck widths: INFINITY from a node to
// itself, -1 where nothing joins two (the forest's answer). NaN links join nothing.
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
  for (size_t k = 0; k < nodes * nodes; ++k) {
    widest[k] = widest[k] == -INFINITY ? -1.0 : widest[k];
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

static Suite *widest_forest_suite(void) {
  Suite *s = suite_create("widest_forest");
  TCase *tc = tcase_create("core");
  tcase_add_loop_test(tc, test_widths_against_brute_force, 0, 4);
  tcase_add_test(tc, test_many_links_against_brute_force);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  return test_run_suite(widest_forest_suite());
}
