// SPDX-License-Identifier: MIT
// The heap every search uses: random operations against a brute-force search for the minimum
// (keys drawn from a few values so that ties are common, and ties must go to the smaller id), in
// both of its uses (indexed with decrease of a key, and as a queue with duplicates),
// growth from a small or empty heap, a growth whose allocation fails, a heap renewed over other
// ids, and an_heap_check itself on heaps broken on purpose.
#include "arcnav_test.h"
#include "search/heap.h"

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

/// Few distinct keys, so that equal keys meet often.
static double random_key(void) {
  return (double)rng_next(6) * 0.5;
}

/// (key, id) before (key', id') in the order the heap promises.
static bool before(double key, uint32_t id, double other_key, uint32_t other_id) {
  return key != other_key ? key < other_key : id < other_id;
}

static an_allocator make_alloc(test_allocator *t) {
  arcnav_allocator hooks = test_allocator_hooks(t);
  return an_allocator_from(&hooks);
}

// ---- indexed use ---------------------------------------------------------------------------

#define IDS 40u

/// Random pushes (insert or decrease), pops and clears on an indexed heap, each pop compared with
/// the smallest (key, id) of a plain table.
static void run_indexed(uint64_t seed) {
  rng_state = seed;
  test_allocator t = test_allocator_make();
  an_allocator alloc = make_alloc(&t);
  an_heap heap;
  ck_assert_int_eq(an_heap_init(&heap, IDS, &alloc), ARCNAV_OK);
  bool present[IDS] = {false};
  double key_of[IDS] = {0};
  size_t count = 0, pops = 0;
  for (int step = 0; step < 20000; ++step) {
    uint32_t op = rng_next(100);
    if (op < 55) {
      uint32_t id = rng_next(IDS);
      double key = random_key();
      an_heap_push_or_decrease(&heap, id, key);
      if (!present[id] || key < key_of[id]) {
        key_of[id] = key;
      }
      if (!present[id]) {
        present[id] = true;
        count++;
      }
    } else if (op < 98) {
      if (count == 0) {
        ck_assert(an_heap_empty(&heap));
        continue;
      }
      uint32_t best = UINT32_MAX;
      for (uint32_t id = 0; id < IDS; ++id) {
        if (present[id] && (best == UINT32_MAX || before(key_of[id], id, key_of[best], best))) {
          best = id;
        }
      }
      ck_assert(an_heap_top_key(&heap) == key_of[best]);
      double key = -1.0;
      uint32_t id = an_heap_pop(&heap, &key);
      ck_assert_uint_eq(id, best);
      ck_assert(key == key_of[best]);
      present[best] = false;
      count--;
      pops++;
    } else {
      an_heap_clear(&heap);
      memset(present, 0, sizeof present);
      count = 0;
    }
    ck_assert_uint_eq(heap.size, count);
    ck_assert(an_heap_check(&heap));
  }
  ck_assert_uint_gt(pops, 1000);
  an_heap_free(&heap, &alloc);
  ck_assert_int_eq(t.live, 0);
}

START_TEST(test_indexed_decrease_against_brute_force) {
  run_indexed(0x9e3779b97f4a7c15ull + (uint64_t)_i);
}
END_TEST

START_TEST(test_equal_keys_pop_by_id) {
  an_allocator alloc = an_allocator_from(NULL);
  an_heap heap;
  ck_assert_int_eq(an_heap_init(&heap, 10, &alloc), ARCNAV_OK);
  const uint32_t order[] = {7, 3, 9, 0, 5};
  for (size_t k = 0; k < 5; ++k) {
    an_heap_push_or_decrease(&heap, order[k], 1.0);
  }
  an_heap_push_or_decrease(&heap, 8, 0.5);
  an_heap_push_or_decrease(&heap, 8, 2.0); // higher: ignored
  const uint32_t expected[] = {8, 0, 3, 5, 7, 9};
  for (size_t k = 0; k < 6; ++k) {
    ck_assert_uint_eq(an_heap_pop(&heap, NULL), expected[k]);
  }
  ck_assert(an_heap_empty(&heap));
  an_heap_free(&heap, &alloc);
}
END_TEST

START_TEST(test_set_sift_up_keeps_a_raised_key_in_its_slot) {
  an_allocator alloc = an_allocator_from(NULL);
  an_heap heap;
  ck_assert_int_eq(an_heap_init(&heap, 8, &alloc), ARCNAV_OK);
  for (uint32_t id = 0; id < 7; ++id) {
    an_heap_push_or_set_sift_up(&heap, id, (double)id);
  }
  ck_assert(an_heap_check(&heap));
  // Lowered: sifted up as by a decrease.
  an_heap_push_or_set_sift_up(&heap, 5, -1.0);
  ck_assert(an_heap_check(&heap));
  ck_assert_uint_eq(heap.position[5], 0);
  // Raised: stays where it was, above smaller keys, and the heap is no longer in order.
  uint32_t slot = heap.position[1];
  an_heap_push_or_set_sift_up(&heap, 1, 10.0);
  ck_assert_uint_eq(heap.position[1], slot);
  ck_assert(heap.entries[slot].key == 10.0);
  ck_assert(!an_heap_check(&heap));
  // Every id still pops once, with the key it was last given.
  bool seen[7] = {false};
  for (int k = 0; k < 7; ++k) {
    double key;
    uint32_t id = an_heap_pop(&heap, &key);
    ck_assert_uint_lt(id, 7);
    ck_assert(!seen[id]);
    seen[id] = true;
    ck_assert(key == (id == 5 ? -1.0 : id == 1 ? 10.0 : (double)id));
  }
  ck_assert(an_heap_empty(&heap));
  ck_assert(an_heap_check(&heap));
  an_heap_free(&heap, &alloc);
}
END_TEST

// ---- queue use and growth ------------------------------------------------------------------

#define QUEUE_MAX 3000u

/// Random pushes (with repeated ids) and pops on a queue heap that starts with `capacity` slots
/// (none: a zeroed heap) and grows through an_heap_reserve.
static void run_queue(size_t capacity, uint64_t seed) {
  rng_state = seed;
  test_allocator t = test_allocator_make();
  an_allocator alloc = make_alloc(&t);
  an_heap heap;
  if (capacity == 0) {
    memset(&heap, 0, sizeof heap);
  } else {
    ck_assert_int_eq(an_heap_init_sized(&heap, capacity, 0, &alloc), ARCNAV_OK);
  }
  static double keys[QUEUE_MAX];
  static uint32_t ids[QUEUE_MAX];
  size_t count = 0, grown = 0;
  for (int step = 0; step < 12000; ++step) {
    // Mostly pushes at first, so that the heap grows several times, then mostly pops.
    bool push = count == 0 || (count < QUEUE_MAX && rng_next(100) < (step < 6000 ? 70u : 35u));
    if (push) {
      size_t before_capacity = heap.capacity;
      ck_assert(an_heap_reserve(&heap, heap.size + 1, &alloc));
      ck_assert_uint_ge(heap.capacity, heap.size + 1);
      grown += heap.capacity != before_capacity;
      uint32_t id = rng_next(50); // repeats: the same id may wait at several keys
      double key = random_key();
      an_heap_push(&heap, id, key);
      keys[count] = key;
      ids[count] = id;
      count++;
    } else {
      size_t best = 0;
      for (size_t k = 1; k < count; ++k) {
        if (before(keys[k], ids[k], keys[best], ids[best])) {
          best = k;
        }
      }
      an_heap_entry top = an_heap_pop_entry(&heap);
      ck_assert_uint_eq(top.id, ids[best]);
      ck_assert(top.key == keys[best]);
      keys[best] = keys[count - 1];
      ids[best] = ids[count - 1];
      count--;
    }
    ck_assert_uint_eq(heap.size, count);
    ck_assert(an_heap_check(&heap));
  }
  ck_assert_uint_ge(grown, 3);
  an_heap_clear(&heap);
  ck_assert(an_heap_empty(&heap));
  an_heap_free(&heap, &alloc);
  ck_assert_int_eq(t.live, 0);
}

START_TEST(test_queue_grows_from_nothing) {
  run_queue(0, 0x2545f4914f6cdd1dull + (uint64_t)_i);
}
END_TEST

START_TEST(test_queue_grows_from_one_slot) {
  run_queue(1, 0x5851f42d4c957f2dull + (uint64_t)_i);
}
END_TEST

START_TEST(test_failed_growth_leaves_heap_unchanged) {
  test_allocator t = test_allocator_make();
  an_allocator alloc = make_alloc(&t);
  an_heap heap;
  ck_assert_int_eq(an_heap_init_sized(&heap, 4, 0, &alloc), ARCNAV_OK);
  for (uint32_t id = 0; id < 4; ++id) {
    an_heap_push(&heap, 10 - id, (double)(id % 2));
  }
  an_heap_entry saved[4];
  memcpy(saved, heap.entries, sizeof saved);
  const an_heap_entry *entries = heap.entries;
  long calls = t.calls;
  t.fail_all = true;
  ck_assert(!an_heap_reserve(&heap, 5, &alloc));
  ck_assert_int_gt(t.calls, calls); // the growth was tried
  ck_assert_ptr_eq(heap.entries, entries);
  ck_assert_uint_eq(heap.capacity, 4);
  ck_assert_uint_eq(heap.size, 4);
  for (int k = 0; k < 4; ++k) { // field by field: an entry's padding bytes are not set
    ck_assert(heap.entries[k].key == saved[k].key);
    ck_assert_uint_eq(heap.entries[k].id, saved[k].id);
  }
  ck_assert(an_heap_check(&heap));
  // Room that is already there needs no allocation.
  calls = t.calls;
  ck_assert(an_heap_reserve(&heap, 4, &alloc));
  ck_assert_int_eq(t.calls, calls);
  // Once allocation works again, the heap grows and pops as before.
  t.fail_all = false;
  ck_assert(an_heap_reserve(&heap, 5, &alloc));
  ck_assert_uint_ge(heap.capacity, 5);
  an_heap_push(&heap, 1, 0.0);
  const uint32_t expected[] = {1, 8, 10, 7, 9};
  for (size_t k = 0; k < 5; ++k) {
    ck_assert_uint_eq(an_heap_pop_entry(&heap).id, expected[k]);
  }
  an_heap_free(&heap, &alloc);
  ck_assert_int_eq(t.live, 0);
  // An indexed heap whose allocation fails is not created and holds nothing.
  t.fail_all = true;
  ck_assert_int_eq(an_heap_init(&heap, 16, &alloc), ARCNAV_ERR_OUT_OF_MEMORY);
  ck_assert_int_eq(t.live, 0);
}
END_TEST

// An indexed heap renewed over other ids: emptied, its table kept where it has room (no
// allocation), else made larger with every position absent; a failed growth leaves it empty over
// its old ids. an_heap_check reads the whole table, so a position left behind fails it.
START_TEST(test_renewed_ids_keep_the_table_where_it_has_room) {
  test_allocator t = test_allocator_make();
  an_allocator alloc = make_alloc(&t);
  an_heap heap;
  ck_assert_int_eq(an_heap_init(&heap, 16, &alloc), ARCNAV_OK);
  an_heap_push_or_decrease(&heap, 3, 2.0);
  an_heap_push_or_decrease(&heap, 9, 1.0);
  an_heap_push_or_decrease(&heap, 15, 3.0);
  const uint32_t *table = heap.position;
  long calls = t.calls;
  ck_assert(an_heap_renew_ids(&heap, 8, &alloc));
  ck_assert_int_eq(t.calls, calls);
  ck_assert_ptr_eq(heap.position, table);
  ck_assert_uint_eq(heap.size, 0);
  ck_assert_uint_eq(heap.id_count, 8);
  ck_assert_uint_eq(heap.id_room, 16);
  ck_assert(an_heap_check(&heap));
  an_heap_push_or_decrease(&heap, 7, 1.0);
  an_heap_push_or_decrease(&heap, 2, 1.0);
  ck_assert(an_heap_check(&heap));
  ck_assert_uint_eq(an_heap_pop(&heap, NULL), 2);
  // More ids than the table holds: a larger one, with room to spare, every position absent.
  ck_assert(an_heap_renew_ids(&heap, 40, &alloc));
  ck_assert_int_gt(t.calls, calls);
  ck_assert_uint_ge(heap.id_room, 45);
  ck_assert_uint_eq(heap.size, 0);
  ck_assert(an_heap_check(&heap));
  ck_assert_uint_eq(an_heap_memory_bytes(&heap),
                    heap.capacity * sizeof *heap.entries + heap.id_room * sizeof *heap.position);
  ck_assert(an_heap_reserve(&heap, 40, &alloc));
  for (uint32_t id = 40; id-- > 0;) {
    an_heap_push_or_decrease(&heap, id, (double)(id % 3));
  }
  ck_assert(an_heap_check(&heap));
  ck_assert_uint_eq(an_heap_pop(&heap, NULL), 0);
  ck_assert_uint_eq(an_heap_pop(&heap, NULL), 3);
  // Growth that fails: empty, over the old ids, still usable; and no table for every id.
  t.fail_all = true;
  ck_assert(!an_heap_renew_ids(&heap, 1000, &alloc));
  ck_assert_uint_eq(heap.size, 0);
  ck_assert_uint_eq(heap.id_count, 40);
  ck_assert(an_heap_check(&heap));
  ck_assert(!an_heap_renew_ids(&heap, AN_HEAP_ABSENT, &alloc));
  t.fail_all = false;
  an_heap_push_or_decrease(&heap, 39, 0.5);
  ck_assert_uint_eq(an_heap_pop(&heap, NULL), 39);
  an_heap_free(&heap, &alloc);
  ck_assert_int_eq(t.live, 0);
}
END_TEST

// ---- the validator -------------------------------------------------------------------------

START_TEST(test_check_finds_broken_heaps) {
  an_allocator alloc = an_allocator_from(NULL);
  an_heap heap;
  ck_assert_int_eq(an_heap_init(&heap, 8, &alloc), ARCNAV_OK);
  for (uint32_t id = 0; id < 6; ++id) {
    an_heap_push_or_decrease(&heap, id, (double)id);
  }
  ck_assert(an_heap_check(&heap));
  // Heap order: a child before its parent.
  heap.entries[4].key = -1.0;
  ck_assert(!an_heap_check(&heap));
  heap.entries[4].key = 4.0;
  ck_assert(an_heap_check(&heap));
  // Equal keys with the larger id above.
  heap.entries[0].id = 6;
  heap.entries[1].key = 0.0;
  ck_assert(!an_heap_check(&heap));
  heap.entries[0].id = 0;
  heap.entries[1].key = 1.0;
  ck_assert(an_heap_check(&heap));
  // A position that points at the wrong slot.
  heap.position[2] = 3;
  ck_assert(!an_heap_check(&heap));
  heap.position[2] = 2;
  ck_assert(an_heap_check(&heap));
  // An id outside the heap that is not marked absent.
  heap.position[7] = 0;
  ck_assert(!an_heap_check(&heap));
  heap.position[7] = AN_HEAP_ABSENT;
  // An entry whose id is out of range.
  heap.entries[5].id = 9;
  ck_assert(!an_heap_check(&heap));
  heap.entries[5].id = 5;
  ck_assert(an_heap_check(&heap));
  an_heap_clear(&heap);
  ck_assert(an_heap_check(&heap));
  for (uint32_t id = 0; id < 8; ++id) {
    ck_assert_uint_eq(heap.position[id], AN_HEAP_ABSENT);
  }
  an_heap_free(&heap, &alloc);
}
END_TEST

static Suite *heap_suite(void) {
  Suite *s = suite_create("heap");
  TCase *tc = tcase_create("heap");
  tcase_add_loop_test(tc, test_indexed_decrease_against_brute_force, 0, 4);
  tcase_add_test(tc, test_equal_keys_pop_by_id);
  tcase_add_test(tc, test_set_sift_up_keeps_a_raised_key_in_its_slot);
  tcase_add_loop_test(tc, test_queue_grows_from_nothing, 0, 2);
  tcase_add_loop_test(tc, test_queue_grows_from_one_slot, 0, 2);
  tcase_add_test(tc, test_failed_growth_leaves_heap_unchanged);
  tcase_add_test(tc, test_renewed_ids_keep_the_table_where_it_has_room);
  tcase_add_test(tc, test_check_finds_broken_heaps);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  return test_run_suite(heap_suite());
}
