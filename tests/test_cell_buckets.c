// SPDX-License-Identifier: MIT
// The per-cell item tables every spatial index is built with: random rectangles of cells and
// random sequences of single cells against a brute force that lists, for every cell, the items put
// there in the order they were put; boxes filed over a grid against the cells their box overlaps,
// worked out from the cells' edges; tables carried into new ones under new numbers; empty tables;
// and allocations that fail.
#include "arcnav_test.h"
#include "index/cell_buckets.h"
#include "index/grid.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

// ---- helpers -------------------------------------------------------------------------------

static uint64_t rng_state;

static uint32_t rng_next(uint32_t bound) {
  rng_state ^= rng_state << 13;
  rng_state ^= rng_state >> 7;
  rng_state ^= rng_state << 17;
  return (uint32_t)(rng_state % bound);
}

static an_allocator counting_allocator(test_allocator *t) {
  arcnav_allocator hooks = test_allocator_hooks(t);
  return an_allocator_from(&hooks);
}

// The brute force: cell `cell` must list exactly `expected[0 .. count)`, in that order.
static void assert_cell_lists(const an_cell_table *table, size_t cell, const uint32_t *expected,
                              size_t count) {
  uint32_t listed;
  const uint32_t *items = an_cell_table_list(table, cell, &listed);
  ck_assert_uint_eq(listed, count);
  for (size_t k = 0; k < count; ++k) {
    ck_assert_msg(items[k] == expected[k], "cell %zu entry %zu is item %u, expected %u", cell, k,
                  items[k], expected[k]);
  }
}

static bool rect_holds(an_cell_rect rect, int32_t column, int32_t row) {
  return column >= rect.c0 && column <= rect.c1 && row >= rect.r0 && row <= rect.r1;
}

// ---- rectangles ----------------------------------------------------------------------------

START_TEST(test_rectangles_against_brute_force) {
  rng_state = 0x9e3779b97f4a7c15ull + (uint64_t)_i;
  an_allocator alloc = an_allocator_from(NULL);
  uint64_t rounds = test_scaled_count(200);
  for (uint64_t round = 0; round < rounds; ++round) {
    int32_t columns = 1 + (int32_t)rng_next(12), rows = 1 + (int32_t)rng_next(12);
    size_t count = rng_next(40);
    an_cell_rect *rects = malloc((count ? count : 1) * sizeof *rects);
    ck_assert_ptr_nonnull(rects);
    size_t area = 0;
    for (size_t i = 0; i < count; ++i) {
      int32_t c0 = (int32_t)rng_next((uint32_t)columns), r0 = (int32_t)rng_next((uint32_t)rows);
      int32_t c1 = c0 + (int32_t)rng_next((uint32_t)(columns - c0));
      int32_t r1 = r0 + (int32_t)rng_next((uint32_t)(rows - r0));
      rects[i] = (an_cell_rect){c0, c1, r0, r1};
      area += (size_t)(c1 - c0 + 1) * (size_t)(r1 - r0 + 1);
    }
    an_cell_buckets buckets;
    size_t cells = (size_t)columns * (size_t)rows;
    ck_assert_int_eq(an_cell_buckets_init(&buckets, cells, &alloc), ARCNAV_OK);
    for (int pass = 0; pass < 2; ++pass) {
      for (size_t i = 0; i < count; ++i) {
        an_cell_buckets_put_rect(&buckets, columns, rects[i], (uint32_t)i);
      }
      ck_assert_int_eq(an_cell_buckets_end_pass(&buckets, &alloc), ARCNAV_OK);
    }
    ck_assert_uint_eq(an_cell_table_entries(&buckets.table), area);
    uint32_t expected[40];
    for (int32_t r = 0; r < rows; ++r) {
      for (int32_t c = 0; c < columns; ++c) {
        size_t n = 0;
        for (size_t i = 0; i < count; ++i) {
          if (rect_holds(rects[i], c, r)) {
            expected[n++] = (uint32_t)i;
          }
        }
        assert_cell_lists(&buckets.table, (size_t)r * (size_t)columns + c, expected, n);
      }
    }
    an_cell_buckets_free(&buckets, &alloc);
    ck_assert_ptr_null(buckets.table.chunks);
    free(rects);
  }
}
END_TEST

// ---- single cells in any order -------------------------------------------------------------

// Items put in any order, some in the same cell twice: each cell keeps the order of the puts.
START_TEST(test_put_order_is_kept) {
  rng_state = 0x2545f4914f6cdd1dull + (uint64_t)_i;
  an_allocator alloc = an_allocator_from(NULL);
  uint64_t rounds = test_scaled_count(200);
  enum { MAX_PUTS = 64 };
  for (uint64_t round = 0; round < rounds; ++round) {
    size_t cells = 1 + rng_next(10), puts = rng_next(MAX_PUTS + 1);
    size_t cell_of[MAX_PUTS];
    uint32_t item_of[MAX_PUTS];
    for (size_t k = 0; k < puts; ++k) {
      cell_of[k] = rng_next((uint32_t)cells);
      item_of[k] = rng_next(8);
    }
    an_cell_buckets buckets;
    ck_assert_int_eq(an_cell_buckets_init(&buckets, cells, &alloc), ARCNAV_OK);
    for (int pass = 0; pass < 2; ++pass) {
      for (size_t k = 0; k < puts; ++k) {
        an_cell_buckets_put(&buckets, cell_of[k], item_of[k]);
      }
      ck_assert_int_eq(an_cell_buckets_end_pass(&buckets, &alloc), ARCNAV_OK);
    }
    ck_assert_uint_eq(an_cell_table_entries(&buckets.table), puts);
    for (size_t cell = 0; cell < cells; ++cell) {
      uint32_t expected[MAX_PUTS];
      size_t n = 0;
      for (size_t k = 0; k < puts; ++k) {
        if (cell_of[k] == cell) {
          expected[n++] = item_of[k];
        }
      }
      assert_cell_lists(&buckets.table, cell, expected, n);
    }
    an_cell_buckets_free(&buckets, &alloc);
  }
}
END_TEST

START_TEST(test_empty_table) {
  an_allocator alloc = an_allocator_from(NULL);
  an_cell_buckets buckets;
  ck_assert_int_eq(an_cell_buckets_init(&buckets, 6, &alloc), ARCNAV_OK);
  for (int pass = 0; pass < 2; ++pass) {
    ck_assert_int_eq(an_cell_buckets_end_pass(&buckets, &alloc), ARCNAV_OK);
  }
  for (size_t c = 0; c < 6; ++c) {
    assert_cell_lists(&buckets.table, c, NULL, 0);
  }
  // Still built, so that owners can tell a built table from a missing one.
  ck_assert_ptr_nonnull(buckets.table.chunks);
  an_cell_buckets_free(&buckets, &alloc);
}
END_TEST

// ---- boxes over a grid ---------------------------------------------------------------------

typedef struct box_list {
  vec2 *lo, *hi;
} box_list;

static void box_of(const void *context, size_t index, vec2 *lo, vec2 *hi) {
  const box_list *boxes = context;
  *lo = boxes->lo[index];
  *hi = boxes->hi[index];
}

// Does the closed interval [lo, hi] meet cell `k` of `count` unit cells from 0, the first and the
// last of them running on without end (the grid clamps what lies outside it to them)?
static bool meets_cell(double lo, double hi, int32_t k, int32_t count) {
  double from = k == 0 ? -INFINITY : (double)k;
  double to = k == count - 1 ? INFINITY : (double)(k + 1);
  return hi >= from && lo < to;
}

// A coordinate on quarters of a unit cell, from 3 cells before the grid to 3 after it: exact in
// binary, so the brute force and the grid see the same numbers.
static double random_quarter(int32_t cells) {
  return -3.0 + 0.25 * (double)rng_next((uint32_t)(4 * (cells + 6) + 1));
}

START_TEST(test_grid_boxes_against_brute_force) {
  rng_state = 0xd1b54a32d192ed03ull + (uint64_t)_i;
  an_allocator alloc = an_allocator_from(NULL);
  uint64_t rounds = test_scaled_count(200);
  enum { MAX_BOXES = 30 };
  for (uint64_t round = 0; round < rounds; ++round) {
    an_grid grid;
    memset(&grid, 0, sizeof grid);
    grid.origin = v2(0.0, 0.0);
    grid.cell_size = grid.inverse_cell_size = 1.0;
    grid.columns = 1 + (int32_t)rng_next(9);
    grid.rows = 1 + (int32_t)rng_next(9);
    size_t count = rng_next(MAX_BOXES + 1);
    vec2 lo[MAX_BOXES], hi[MAX_BOXES];
    for (size_t i = 0; i < count; ++i) {
      double x0 = random_quarter(grid.columns), x1 = random_quarter(grid.columns);
      double y0 = random_quarter(grid.rows), y1 = random_quarter(grid.rows);
      lo[i] = v2(an_min(x0, x1), an_min(y0, y1));
      hi[i] = v2(an_max(x0, x1), an_max(y0, y1));
    }
    box_list boxes = {lo, hi};
    ck_assert_int_eq(an_grid_file_boxes(&grid, count, box_of, &boxes, &alloc), ARCNAV_OK);
    for (int32_t r = 0; r < grid.rows; ++r) {
      for (int32_t c = 0; c < grid.columns; ++c) {
        uint32_t expected[MAX_BOXES];
        size_t n = 0;
        for (size_t i = 0; i < count; ++i) {
          if (meets_cell(lo[i].x, hi[i].x, c, grid.columns) &&
              meets_cell(lo[i].y, hi[i].y, r, grid.rows)) {
            expected[n++] = (uint32_t)i;
          }
        }
        assert_cell_lists(&grid.cells, (size_t)r * (size_t)grid.columns + c, expected, n);
      }
    }
    an_grid_destroy(&grid, &alloc);
  }
}
END_TEST

// ---- failing allocations -------------------------------------------------------------------

// Each allocation of a build fails in turn: the status says so and nothing is left allocated.
START_TEST(test_failed_allocations) {
  for (long fail_at = 0;; ++fail_at) {
    test_allocator t = test_allocator_make();
    t.fail_at = fail_at;
    an_allocator alloc = counting_allocator(&t);
    an_cell_buckets buckets;
    arcnav_status status = an_cell_buckets_init(&buckets, 4, &alloc);
    for (int pass = 0; pass < 2 && status == ARCNAV_OK; ++pass) {
      an_cell_buckets_put_rect(&buckets, 2, (an_cell_rect){0, 1, 0, 1}, 7);
      status = an_cell_buckets_end_pass(&buckets, &alloc);
    }
    if (status == ARCNAV_OK) {
      // The working arrays, the chunks' list and the slab of chunks: three allocations.
      ck_assert_int_eq(fail_at, 3);
      ck_assert_uint_eq(an_cell_table_entries(&buckets.table), 4);
      an_cell_buckets_free(&buckets, &alloc);
      ck_assert_int_eq(t.live, 0);
      break;
    }
    ck_assert_int_eq(status, ARCNAV_ERR_OUT_OF_MEMORY);
    an_cell_buckets_free(&buckets, &alloc);
    ck_assert_int_eq(t.live, 0);
  }
}
END_TEST

START_TEST(test_failed_grid_filing_leaves_no_tables) {
  vec2 lo[1] = {{0.5, 0.5}}, hi[1] = {{1.5, 1.5}};
  box_list boxes = {lo, hi};
  for (long fail_at = 0; fail_at < 3; ++fail_at) {
    test_allocator t = test_allocator_make();
    t.fail_at = fail_at;
    an_allocator alloc = counting_allocator(&t);
    an_grid grid;
    memset(&grid, 0, sizeof grid);
    grid.cell_size = grid.inverse_cell_size = 1.0;
    grid.columns = grid.rows = 3;
    ck_assert_int_eq(an_grid_file_boxes(&grid, 1, box_of, &boxes, &alloc),
                     ARCNAV_ERR_OUT_OF_MEMORY);
    ck_assert_ptr_null(grid.cells.chunks);
    ck_assert_int_eq(t.live, 0);
  }
}
END_TEST

// ---- tables carried over ------------------------------------------------------------------

// A table built from random puts, carried into a new one under a random renumbering (some items
// gone, with or without a renumbering at all, the cells that lose entries marked or not; or only
// some items gone, the others keeping their numbers, with every cell that loses an entry marked
// and the marks said to hold every change) with more puts after it, into as many cells or fewer
// (the entries of the cells left out gone) or more, some cells cleared or not: each cell lists
// the kept entries of the old one under their new numbers, in their order (none where cleared),
// then its new puts.
START_TEST(test_carried_table_against_brute_force) {
  rng_state = 0x853c49e6748fea9bull + (uint64_t)_i;
  an_allocator alloc = an_allocator_from(NULL);
  uint64_t rounds = test_scaled_count(200);
  enum { MAX_PUTS = 48, ITEMS = 12 };
  for (uint64_t round = 0; round < rounds; ++round) {
    // Half the tables span several chunks, most of which the carrying then shares.
    size_t span = rng_next(2) == 0 ? 10 : 5 * AN_CELL_CHUNK_CELLS;
    size_t cells = 1 + rng_next((uint32_t)span), puts = rng_next(MAX_PUTS + 1), more = rng_next(8);
    // A third of the time the new table has other cells than the old: fewer or more.
    size_t new_cells = rng_next(3) == 0 ? 1 + rng_next((uint32_t)(span + span / 5)) : cells;
    size_t cell_of[MAX_PUTS + 8];
    uint32_t item_of[MAX_PUTS + 8];
    for (size_t k = 0; k < puts + more; ++k) {
      cell_of[k] = rng_next((uint32_t)(k < puts ? cells : new_cells));
      item_of[k] = rng_next(ITEMS);
    }
    int32_t renumber[ITEMS];
    int mode = (int)rng_next(4); // 0: as they were, 1 and 2: renumbered, 3: numbers kept
    // The entries of old cells the new table lacks must go: those items are renumbered to -1.
    mode = mode == 0 && new_cells < cells ? 1 : mode;
    bool renumbered = mode != 0, keeps_numbers = mode == 3;
    for (size_t i = 0; i < ITEMS; ++i) {
      renumber[i] = !renumbered        ? (int32_t)i
                    : rng_next(3) == 0 ? -1
                    : keeps_numbers    ? (int32_t)i
                                       : (int32_t)rng_next(ITEMS);
    }
    for (size_t k = 0; k < puts; ++k) {
      if (cell_of[k] >= new_cells) {
        renumber[item_of[k]] = -1;
      }
    }
    an_cell_buckets old, carried;
    ck_assert_int_eq(an_cell_buckets_init(&old, cells, &alloc), ARCNAV_OK);
    for (int pass = 0; pass < 2; ++pass) {
      for (size_t k = 0; k < puts; ++k) {
        an_cell_buckets_put(&old, cell_of[k], item_of[k]);
      }
      ck_assert_int_eq(an_cell_buckets_end_pass(&old, &alloc), ARCNAV_OK);
    }
    // Half the time the cells that lose an entry are marked, with a few others besides.
    uint8_t dropping[6 * AN_CELL_CHUNK_CELLS] = {0};
    bool marked = keeps_numbers || rng_next(2) == 0;
    for (size_t k = 0; k < puts; ++k) {
      if (cell_of[k] < new_cells) {
        dropping[cell_of[k]] |= renumber[item_of[k]] < 0 || rng_next(8) == 0;
      }
    }
    // A quarter of the time some old cells are cleared: none of their entries stays.
    uint8_t cleared[6 * AN_CELL_CHUNK_CELLS] = {0};
    bool clearing = rng_next(4) == 0;
    for (size_t cell = 0; clearing && cell < cells; ++cell) {
      cleared[cell] = rng_next(4) == 0;
    }
    ck_assert_int_eq(an_cell_buckets_init(&carried, new_cells, &alloc), ARCNAV_OK);
    for (int pass = 0; pass < 2; ++pass) {
      an_cell_buckets_put_carried(&carried, &old.table, renumbered ? renumber : NULL,
                                  marked ? dropping : NULL, keeps_numbers,
                                  clearing ? cleared : NULL);
      for (size_t k = puts; k < puts + more; ++k) {
        an_cell_buckets_put(&carried, cell_of[k], item_of[k]);
      }
      ck_assert_int_eq(an_cell_buckets_end_pass(&carried, &alloc), ARCNAV_OK);
    }
    // The chunks the carried table shares outlive the old one.
    an_cell_buckets_free(&old, &alloc);
    uint32_t expected[MAX_PUTS + 8];
    size_t total = 0;
    for (size_t cell = 0; cell < new_cells; ++cell) {
      size_t n = 0;
      for (size_t k = 0; k < puts + more; ++k) {
        int32_t now = k < puts ? renumber[item_of[k]] : (int32_t)item_of[k];
        if (k < puts && cleared[cell_of[k]]) {
          continue;
        }
        if (cell_of[k] == cell && now >= 0) {
          expected[n++] = (uint32_t)now;
        }
      }
      assert_cell_lists(&carried.table, cell, expected, n);
      total += n;
    }
    ck_assert_uint_eq(an_cell_table_entries(&carried.table), total);
    an_cell_buckets_free(&carried, &alloc);
  }
}
END_TEST

// A table of CHUNKS chunks, every cell listing itself, carried with puts in two cells and with
// the entries of a third cell dropped: the chunks of those three cells are made afresh and every
// other is the old table's own; each cell lists what it should, after the old table is gone too.
START_TEST(test_carrying_shares_unchanged_chunks) {
  enum { CHUNKS = 10 };
  const size_t cells = CHUNKS * AN_CELL_CHUNK_CELLS;
  const size_t put_cells[2] = {AN_CELL_CHUNK_CELLS + 6, 4 * AN_CELL_CHUNK_CELLS + 44};
  const size_t dropped_cell = 2 * AN_CELL_CHUNK_CELLS + 2;
  an_allocator alloc = an_allocator_from(NULL);
  an_cell_buckets old, carried;
  ck_assert_int_eq(an_cell_buckets_init(&old, cells, &alloc), ARCNAV_OK);
  for (int pass = 0; pass < 2; ++pass) {
    for (size_t cell = 0; cell < cells; ++cell) {
      an_cell_buckets_put(&old, cell, (uint32_t)cell);
    }
    ck_assert_int_eq(an_cell_buckets_end_pass(&old, &alloc), ARCNAV_OK);
  }
  // Items keep their numbers but the dropped cell's, whose cell alone is marked.
  int32_t *renumber = malloc(cells * sizeof *renumber);
  uint8_t *dropping = calloc(cells, 1);
  ck_assert_ptr_nonnull(renumber);
  ck_assert_ptr_nonnull(dropping);
  for (size_t i = 0; i < cells; ++i) {
    renumber[i] = i == dropped_cell ? -1 : (int32_t)i;
  }
  dropping[dropped_cell] = 1;
  ck_assert_int_eq(an_cell_buckets_init(&carried, cells, &alloc), ARCNAV_OK);
  for (int pass = 0; pass < 2; ++pass) {
    an_cell_buckets_put_carried(&carried, &old.table, renumber, dropping, true, NULL);
    an_cell_buckets_put(&carried, put_cells[0], 7777);
    an_cell_buckets_put(&carried, put_cells[1], 8888);
    ck_assert_int_eq(an_cell_buckets_end_pass(&carried, &alloc), ARCNAV_OK);
  }
  for (size_t c = 0; c < CHUNKS; ++c) {
    bool changed = c == put_cells[0] / AN_CELL_CHUNK_CELLS ||
                   c == put_cells[1] / AN_CELL_CHUNK_CELLS ||
                   c == dropped_cell / AN_CELL_CHUNK_CELLS;
    ck_assert_msg((carried.table.chunks[c] == old.table.chunks[c]) == !changed,
                  "chunk %zu is %s the old table's", c, changed ? "still" : "not");
  }
  an_cell_buckets_free(&old, &alloc);
  for (size_t cell = 0; cell < cells; ++cell) {
    uint32_t expected[2] = {(uint32_t)cell, 0};
    size_t n = cell == dropped_cell ? 0 : 1;
    for (int k = 0; k < 2; ++k) {
      if (cell == put_cells[k]) {
        expected[n++] = k == 0 ? 7777 : 8888;
      }
    }
    assert_cell_lists(&carried.table, cell, expected, n);
  }
  an_cell_buckets_free(&carried, &alloc);
  free(renumber);
  free(dropping);
}
END_TEST

static Suite *cell_buckets_suite(void) {
  Suite *s = suite_create("cell_buckets");
  TCase *tc = tcase_create("cell_buckets");
  tcase_add_loop_test(tc, test_rectangles_against_brute_force, 0, 4);
  tcase_add_loop_test(tc, test_put_order_is_kept, 0, 4);
  tcase_add_test(tc, test_empty_table);
  tcase_add_loop_test(tc, test_carried_table_against_brute_force, 0, 4);
  tcase_add_test(tc, test_carrying_shares_unchanged_chunks);
  tcase_add_loop_test(tc, test_grid_boxes_against_brute_force, 0, 4);
  tcase_add_test(tc, test_failed_allocations);
  tcase_add_test(tc, test_failed_grid_filing_leaves_no_tables);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  return test_run_suite(cell_buckets_suite());
}
