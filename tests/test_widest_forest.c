// SPDX-License-Identifier: MIT
// The forest of the widest links, against a brute force: on small random graphs (ties, NaN links,
// links of a node to itself, parts left unjoined) the widest chain's narrowest link between every
// two nodes, worked out by Floyd and Warshall's closure, is what the forest answers, and two
// nodes share a top for a width exactly when such a chain is at least that wide.
#include "arcnav_test.h"
#include "search/widest_forest.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

static uint64_t rng_state;

static uint32_t rng_next(uint32_t bound) {
  rng_state ^= rng_state << 13;
  rng_state ^= rng_state >> 7;
  rng_state ^= rng_state << 17;
  return (uint32_t)(rng_state % bound);
}

enum { MAX_NODES = 14, MAX_LINKS = 40 };

// A width from a short list, so that many links tie; infinite and negative ones among them.
static float random_width(void) {
  static const float widths[] = {0.0f, 0.5f, 1.0f, 1.0f, 2.25f, 3.0f, 1e30f, -2.0f, INFINITY};
  return rng_next(12) == 0 ? NAN : widths[rng_next(sizeof widths / sizeof widths[0])];
}

START_TEST(test_widths_against_brute_force) {
  rng_state = 0x9e3779b97f4a7c15ull + (uint64_t)_i;
  an_allocator alloc = an_allocator_from(NULL);
  uint64_t rounds = test_scaled_count(500);
  for (uint64_t round = 0; round < rounds; ++round) {
    size_t nodes = 1 + rng_next(MAX_NODES), count = rng_next(MAX_LINKS + 1);
    an_widest_link links[MAX_LINKS + 1];
    double widest[MAX_NODES][MAX_NODES];
    for (size_t a = 0; a < nodes; ++a) {
      for (size_t b = 0; b < nodes; ++b) {
        widest[a][b] = a == b ? INFINITY : -INFINITY;
      }
    }
    for (size_t k = 0; k < count; ++k) {
      links[k] = (an_widest_link){random_width(), (int32_t)rng_next((uint32_t)nodes),
                                  (int32_t)rng_next((uint32_t)nodes)};
      int32_t a = links[k].a, b = links[k].b;
      if (!isnan(links[k].width) && a != b && links[k].width > widest[a][b]) {
        widest[a][b] = widest[b][a] = links[k].width;
      }
    }
    for (size_t via = 0; via < nodes; ++via) {
      for (size_t a = 0; a < nodes; ++a) {
        for (size_t b = 0; b < nodes; ++b) {
          double through = fmin(widest[a][via], widest[via][b]);
          if (through > widest[a][b]) {
            widest[a][b] = through;
          }
        }
      }
    }
    an_widest_forest forest;
    ck_assert_int_eq(an_widest_forest_build(nodes, links, count, &alloc, &forest), ARCNAV_OK);
    for (size_t a = 0; a < nodes; ++a) {
      for (size_t b = 0; b < nodes; ++b) {
        double got = an_widest_forest_width(&forest, (int32_t)a, (int32_t)b);
        double want = widest[a][b] == -INFINITY ? -1.0 : widest[a][b]; // -1: not joined
        ck_assert_msg(got == want,
                      "round %llu: nodes %zu and %zu joined %g wide, the forest says %g",
                      (unsigned long long)round, a, b, want, got);
        for (size_t w = 0; w < 4; ++w) {
          static const double asked[] = {0.0, 1.0, 2.0, 1e31};
          bool joined = a == b || widest[a][b] >= asked[w];
          bool same_top = an_widest_forest_top(&forest, (int32_t)a, asked[w]) ==
                          an_widest_forest_top(&forest, (int32_t)b, asked[w]);
          ck_assert_msg(joined == same_top, "round %llu: nodes %zu and %zu at width %g",
                        (unsigned long long)round, a, b, asked[w]);
        }
      }
    }
    an_widest_forest_destroy(&forest, &alloc);
  }
}
END_TEST

// Many links: the sort's every digit is used (widths spread over the whole range of floats).
START_TEST(test_many_links_against_brute_force) {
  rng_state = 0x2545f4914f6cdd1dull;
  an_allocator alloc = an_allocator_from(NULL);
  enum { NODES = 60, LINKS = 3000 };
  static an_widest_link links[LINKS];
  static double widest[NODES][NODES];
  for (size_t a = 0; a < NODES; ++a) {
    for (size_t b = 0; b < NODES; ++b) {
      widest[a][b] = a == b ? INFINITY : -INFINITY;
    }
  }
  for (size_t k = 0; k < LINKS; ++k) {
    float width = ldexpf((float)(1 + rng_next(1u << 23)), (int)rng_next(120) - 60);
    width = rng_next(10) == 0 ? -width : width;
    links[k] = (an_widest_link){width, (int32_t)rng_next(NODES), (int32_t)rng_next(NODES)};
    int32_t a = links[k].a, b = links[k].b;
    if (a != b && width > widest[a][b]) {
      widest[a][b] = widest[b][a] = width;
    }
  }
  for (size_t via = 0; via < NODES; ++via) {
    for (size_t a = 0; a < NODES; ++a) {
      for (size_t b = 0; b < NODES; ++b) {
        widest[a][b] = fmax(widest[a][b], fmin(widest[a][via], widest[via][b]));
      }
    }
  }
  an_widest_forest forest;
  ck_assert_int_eq(an_widest_forest_build(NODES, links, LINKS, &alloc, &forest), ARCNAV_OK);
  for (size_t a = 0; a < NODES; ++a) {
    for (size_t b = 0; b < NODES; ++b) {
      double want = widest[a][b] == -INFINITY ? -1.0 : widest[a][b];
      ck_assert_msg(an_widest_forest_width(&forest, (int32_t)a, (int32_t)b) == want,
                    "nodes %zu and %zu", a, b);
    }
  }
  an_widest_forest_destroy(&forest, &alloc);
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
