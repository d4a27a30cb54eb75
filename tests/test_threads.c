// SPDX-License-Identifier: MIT
// Threads: a planner is read-only after creation, so several threads may query it at once, each
// with its own query and path objects, and must get exactly the answers of a single thread. Each
// planner (tangent at R > 0, prebuilt and on demand, tangent at R = 0, optimal funnel, interval
// at R > 0 of one radius and of several) answers ~200 queries alone first;
// then four threads, released together, answer all of them in four different orders, and every
// answer is compared bit for bit. Planners built at the same time from one map must agree too, and
// query objects made before arcnav_planner_update() answer on their threads as a fresh planner.
// Some threads run sliced searches (arcnav_query_begin, arcnav_query_resume), which must answer
// the same, and threads whose queries ignore different units answer as one thread does.
// scripts/tsan.sh runs this under ThreadSanitizer.
#define _POSIX_C_SOURCE 200809L

#include "arcnav_test.h"
#include "mapgen.h"
#include "verify.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef arcnav_vec2 vec;

#define THREAD_COUNT 4
#define QUERY_COUNT 200
#define MAX_PIECES 96
#define VERIFY_EVERY 8

typedef struct answer {
  arcnav_status status;
  size_t count;
  arcnav_piece pieces[MAX_PIECES];
  double length;
  bool start_free;         ///< arcnav_planner_point_is_free at the start, also read concurrently
  arcnav_status reachable; ///< arcnav_query_reachable's answer for the same ends
} answer;

static bool same_bits(const void *a, const void *b, size_t bytes) {
  return memcmp(a, b, bytes) == 0;
}

static bool same_answer(const answer *a, const answer *b) {
  if (a->status != b->status || a->count != b->count || a->start_free != b->start_free ||
      a->reachable != b->reachable || !same_bits(&a->length, &b->length, sizeof(double))) {
    return false;
  }
  for (size_t i = 0; i < a->count; ++i) {
    if (!test_same_piece(&a->pieces[i], &b->pieces[i])) {
      return false;
    }
  }
  return true;
}

/// Answers one query, in one go (slice 0) or as a sliced search of `slice` expansions a resume;
/// false when the path has more pieces than an answer holds (the caller reports it: no Check
/// assertion may run off the main thread).
static bool answer_query(const arcnav_planner *planner, arcnav_query *query, arcnav_path *path,
                         const sup_query *q, size_t slice, answer *out) {
  if (slice == 0) {
    out->status = arcnav_find_path(query, q->start, q->goal, path);
  } else {
    out->status = arcnav_query_begin(query, q->start, q->goal);
    if (out->status == ARCNAV_OK) {
      do {
        out->status = arcnav_query_resume(query, slice, path);
      } while (out->status == ARCNAV_IN_PROGRESS);
    }
  }
  out->count = arcnav_path_piece_count(path);
  out->length = arcnav_path_length(path);
  out->start_free = arcnav_planner_point_is_free(planner, q->start);
  bool reachable = false;
  out->reachable = arcnav_query_reachable(query, q->start, q->goal, &reachable, NULL);
  if (out->count > MAX_PIECES) {
    return false;
  }
  for (size_t i = 0; i < out->count; ++i) {
    out->pieces[i] = arcnav_path_piece(path, i);
  }
  return true;
}

// ---- the shared data -------------------------------------------------------------------------

typedef struct shared {
  const arcnav_planner *planner;
  const sup_query *queries;
  const answer *expected; ///< single-threaded answers, QUERY_COUNT of them
  pthread_barrier_t start;
} shared;

typedef struct worker {
  shared *common;
  int index;
  size_t order[QUERY_COUNT];
  size_t answered, mismatches, first_mismatch;
  arcnav_status error; ///< ARCNAV_OK, or what failed while setting up
  answer scratch;
} worker;

static void *run_worker(void *arg) {
  worker *w = arg;
  const shared *common = w->common;
  arcnav_query *query = NULL;
  arcnav_path *path = NULL;
  w->error = arcnav_query_create(common->planner, &query);
  if (w->error == ARCNAV_OK) {
    w->error = arcnav_path_create(NULL, &path);
  }
  // Every thread reaches the barrier, even one that failed, or the others would wait forever.
  pthread_barrier_wait(&w->common->start);
  if (w->error == ARCNAV_OK) {
    for (size_t k = 0; k < QUERY_COUNT; ++k) {
      size_t q = w->order[k];
      // Odd threads search in slices: the answers are the same, bit for bit.
      bool fits = answer_query(common->planner, query, path, &common->queries[q],
                               (size_t)(w->index % 2) * 7, &w->scratch);
      w->answered++;
      if (!fits || !same_answer(&w->scratch, &common->expected[q])) {
        if (w->mismatches++ == 0) {
          w->first_mismatch = q;
        }
      }
    }
  }
  arcnav_path_destroy(path);
  arcnav_query_destroy(query);
  return NULL;
}

/// Four orders: as given, reversed, and two shuffles with fixed seeds.
static void make_order(size_t *order, int index) {
  for (size_t i = 0; i < QUERY_COUNT; ++i) {
    order[i] = index == 1 ? QUERY_COUNT - 1 - i : i;
  }
  if (index >= 2) {
    sup_rng rng = sup_rng_seed(0x7468726561640000ull + (uint64_t)index);
    for (size_t i = QUERY_COUNT - 1; i > 0; --i) {
      size_t j = sup_rng_below(&rng, i + 1);
      size_t t = order[i];
      order[i] = order[j];
      order[j] = t;
    }
  }
}

// ---- the map and the queries ---------------------------------------------------------------

static sup_map test_map(void) {
  return sup_gen_mixed(31, 16, 100.0, 2.0);
}

static void make_queries(const sup_map *m, sup_query *out) {
  sup_rng rng = sup_rng_seed(2024);
  vec lo, hi;
  ck_assert(sup_map_extent(m, &lo, &hi));
  for (size_t i = 0; i < QUERY_COUNT; ++i) {
    vec a, b;
    ck_assert(sup_random_free_point(m, 0.0, &rng, lo, hi, 0.0, 1000, &a));
    ck_assert(sup_random_free_point(m, 0.0, &rng, lo, hi, 0.0, 1000, &b));
    out[i] = (sup_query){a, b};
  }
}

static const struct {
  const char *name;
  arcnav_engine engine;
  double radius; ///< with a max_radius, the radius its query objects start with
  arcnav_tangent_graph tangent_graph;
  double max_radius; ///< 0: a planner of one radius
} PLANNERS[] = {
    {"tangent R=1.5", ARCNAV_ENGINE_TANGENT, 1.5, ARCNAV_TANGENT_GRAPH_AUTO, 0.0},
    {"tangent R=0", ARCNAV_ENGINE_TANGENT, 0.0, ARCNAV_TANGENT_GRAPH_AUTO, 0.0},
    {"funnel R=0", ARCNAV_ENGINE_FUNNEL, 0.0, ARCNAV_TANGENT_GRAPH_AUTO, 0.0},
    {"tangent on demand R=1.5", ARCNAV_ENGINE_TANGENT, 1.5, ARCNAV_TANGENT_GRAPH_ON_DEMAND, 0.0},
    {"interval R=1.5", ARCNAV_ENGINE_INTERVAL, 1.5, ARCNAV_TANGENT_GRAPH_AUTO, 0.0},
    {"interval R=1.5 of max 4", ARCNAV_ENGINE_INTERVAL, 1.5, ARCNAV_TANGENT_GRAPH_AUTO, 4.0},
};
#define PLANNER_COUNT (sizeof PLANNERS / sizeof PLANNERS[0])

static arcnav_planner_def def_of(size_t which) {
  arcnav_planner_def def = arcnav_default_planner_def();
  def.engine = PLANNERS[which].engine;
  def.radius = PLANNERS[which].radius;
  def.tangent_graph = PLANNERS[which].tangent_graph;
  def.max_radius = PLANNERS[which].max_radius;
  return def;
}

static arcnav_planner *make_planner(const arcnav_map *map, size_t which) {
  arcnav_planner_def def = def_of(which);
  arcnav_planner *planner = NULL;
  ck_assert_int_eq(arcnav_planner_create(map, &def, &planner), ARCNAV_OK);
  if (def.engine == ARCNAV_ENGINE_INTERVAL) {
    ck_assert_int_eq(arcnav_planner_engine(planner), ARCNAV_ENGINE_INTERVAL);
  }
  return planner;
}

/// Single-threaded answers. With `m`, every VERIFY_EVERY-th found path must pass the verifier, so
/// that the reference itself is sound (a sample: verifying is slow under valgrind, and the engine
/// and property tests verify paths in bulk).
static answer *single_thread_answers(const arcnav_planner *planner, const sup_map *m,
                                     const sup_query *queries, double radius, double eps) {
  answer *out = calloc(QUERY_COUNT, sizeof *out);
  ck_assert_ptr_nonnull(out);
  arcnav_query *query = NULL;
  arcnav_path *path = NULL;
  ck_assert_int_eq(arcnav_query_create(planner, &query), ARCNAV_OK);
  ck_assert_int_eq(arcnav_path_create(NULL, &path), ARCNAV_OK);
  size_t found = 0;
  for (size_t q = 0; q < QUERY_COUNT; ++q) {
    ck_assert(answer_query(planner, query, path, &queries[q], 0, &out[q]));
    ck_assert(arcnav_status_is_answer(out[q].status));
    found += out[q].status == ARCNAV_OK;
    if (out[q].status == ARCNAV_OK && m && q % VERIFY_EVERY == 0) {
      sup_verify_report report;
      ck_assert_msg(
          sup_verify_path(m, radius, eps, queries[q].start, queries[q].goal, path, &report),
          "query %zu: %s", q, report.message);
    }
  }
  // Mostly real paths, or the comparison below says little.
  ck_assert_uint_gt(found, QUERY_COUNT / 2);
  arcnav_path_destroy(path);
  arcnav_query_destroy(query);
  return out;
}

START_TEST(threads_share_a_planner) {
  size_t which = (size_t)_i;
  sup_map m = test_map();
  static sup_query queries[QUERY_COUNT];
  make_queries(&m, queries);
  arcnav_map *map = NULL;
  ck_assert_int_eq(sup_map_to_arcnav(&m, &map), ARCNAV_OK);
  arcnav_planner *planner = make_planner(map, which);
  answer *expected = single_thread_answers(planner, &m, queries, PLANNERS[which].radius,
                                           arcnav_map_tolerance(map));
  // The map goes before the threads start: the planner must not depend on it.
  arcnav_map_destroy(map);

  shared common = {.planner = planner, .queries = queries, .expected = expected};
  ck_assert_int_eq(pthread_barrier_init(&common.start, NULL, THREAD_COUNT), 0);
  worker *workers = calloc(THREAD_COUNT, sizeof *workers);
  ck_assert_ptr_nonnull(workers);
  pthread_t threads[THREAD_COUNT];
  for (int t = 0; t < THREAD_COUNT; ++t) {
    workers[t].common = &common;
    workers[t].index = t;
    make_order(workers[t].order, t);
    ck_assert_int_eq(pthread_create(&threads[t], NULL, run_worker, &workers[t]), 0);
  }
  for (int t = 0; t < THREAD_COUNT; ++t) {
    ck_assert_int_eq(pthread_join(threads[t], NULL), 0);
  }
  pthread_barrier_destroy(&common.start);
  for (int t = 0; t < THREAD_COUNT; ++t) {
    ck_assert_msg(workers[t].error == ARCNAV_OK, "%s, thread %d: %s", PLANNERS[which].name, t,
                  arcnav_status_name(workers[t].error));
    ck_assert_uint_eq(workers[t].answered, QUERY_COUNT);
    ck_assert_msg(workers[t].mismatches == 0,
                  "%s, thread %d: %zu answers differ from the single-threaded ones, first at "
                  "query %zu",
                  PLANNERS[which].name, t, workers[t].mismatches, workers[t].first_mismatch);
  }
  free(workers);
  free(expected);
  arcnav_planner_destroy(planner);
  sup_map_free(&m);
}
END_TEST

// ---- planners built at the same time from one map ------------------------------------------

typedef struct builder {
  const arcnav_map *map;
  size_t which;
  pthread_barrier_t *start;
  arcnav_planner *planner;
  arcnav_status status;
} builder;

static void *run_builder(void *arg) {
  builder *b = arg;
  arcnav_planner_def def = def_of(b->which);
  pthread_barrier_wait(b->start);
  b->status = arcnav_planner_create(b->map, &def, &b->planner);
  return NULL;
}

START_TEST(planners_built_concurrently_agree) {
  sup_map m = test_map();
  static sup_query queries[QUERY_COUNT];
  make_queries(&m, queries);
  arcnav_map *map = NULL;
  ck_assert_int_eq(sup_map_to_arcnav(&m, &map), ARCNAV_OK);
  double eps = arcnav_map_tolerance(map);
  // Two builders per kind of planner, all of them reading the map at once.
  enum { BUILDERS = 2 * PLANNER_COUNT };
  builder builders[BUILDERS];
  pthread_t threads[BUILDERS];
  pthread_barrier_t start;
  ck_assert_int_eq(pthread_barrier_init(&start, NULL, BUILDERS), 0);
  for (size_t b = 0; b < BUILDERS; ++b) {
    builders[b] = (builder){.map = map, .which = b % PLANNER_COUNT, .start = &start};
    ck_assert_int_eq(pthread_create(&threads[b], NULL, run_builder, &builders[b]), 0);
  }
  for (size_t b = 0; b < BUILDERS; ++b) {
    ck_assert_int_eq(pthread_join(threads[b], NULL), 0);
  }
  pthread_barrier_destroy(&start);
  for (size_t b = 0; b < BUILDERS; ++b) {
    ck_assert_int_eq(builders[b].status, ARCNAV_OK);
  }
  for (size_t k = 0; k < PLANNER_COUNT; ++k) {
    answer *first =
        single_thread_answers(builders[k].planner, NULL, queries, PLANNERS[k].radius, eps);
    answer *second = single_thread_answers(builders[k + PLANNER_COUNT].planner, NULL, queries,
                                           PLANNERS[k].radius, eps);
    for (size_t q = 0; q < QUERY_COUNT; ++q) {
      ck_assert_msg(same_answer(&first[q], &second[q]), "%s: query %zu differs", PLANNERS[k].name,
                    q);
    }
    free(first);
    free(second);
  }
  for (size_t b = 0; b < BUILDERS; ++b) {
    arcnav_planner_destroy(builders[b].planner);
  }
  arcnav_map_destroy(map);
  sup_map_free(&m);
}
END_TEST

// ---- queries between updates ---------------------------------------------------------------

// Query objects made before the map changed, used by one thread each after
// arcnav_planner_update(): each makes its working memory again on its thread at once with the
// others, and must answer as a twin planner, built and updated the same way, answers on one
// thread. (That an update answers as a fresh build does is test_living_map's; an updated AUTO
// planner finds tangents on demand where a fresh one may prebuild them, and the two may break ties
// apart.)
typedef struct update_worker {
  const arcnav_planner *planner;
  arcnav_query *query;
  arcnav_path *path;
  const sup_query *queries;
  const answer *expected;
  pthread_barrier_t *start;
  size_t order[QUERY_COUNT];
  size_t slice; ///< 0: whole searches; else sliced ones of this many expansions a resume
  size_t mismatches, first_mismatch;
  answer scratch;
} update_worker;

static void *run_update_worker(void *arg) {
  update_worker *w = arg;
  pthread_barrier_wait(w->start);
  for (size_t k = 0; k < QUERY_COUNT; ++k) {
    size_t q = w->order[k];
    bool fits = answer_query(w->planner, w->query, w->path, &w->queries[q], w->slice, &w->scratch);
    if ((!fits || !same_answer(&w->scratch, &w->expected[q])) && w->mismatches++ == 0) {
      w->first_mismatch = q;
    }
  }
  return NULL;
}

START_TEST(threads_query_between_updates) {
  size_t which = (size_t)_i;
  sup_map m = test_map();
  static sup_query queries[QUERY_COUNT];
  make_queries(&m, queries);
  arcnav_map *map = NULL;
  ck_assert_int_eq(sup_map_to_arcnav(&m, &map), ARCNAV_OK);
  arcnav_planner *planner = make_planner(map, which);
  arcnav_planner *twin = make_planner(map, which);
  update_worker workers[THREAD_COUNT];
  for (int t = 0; t < THREAD_COUNT; ++t) {
    workers[t] = (update_worker){.planner = planner, .queries = queries, .slice = (size_t)t * 3};
    ck_assert_int_eq(arcnav_query_create(planner, &workers[t].query), ARCNAV_OK);
    ck_assert_int_eq(arcnav_path_create(NULL, &workers[t].path), ARCNAV_OK);
    make_order(workers[t].order, t);
  }
  vec lo, hi;
  ck_assert(sup_map_extent(&m, &lo, &hi));
  // A wall across the middle, added and then moved away: two updates, two rounds of threads.
  vec wall[4] = {{0.5 * (lo.x + hi.x) - 1, lo.y - 5},
                 {0.5 * (lo.x + hi.x) + 1, lo.y - 5},
                 {0.5 * (lo.x + hi.x) + 1, 0.5 * (lo.y + hi.y)},
                 {0.5 * (lo.x + hi.x) - 1, 0.5 * (lo.y + hi.y)}};
  ck_assert_int_eq(arcnav_map_add_polygon(map, wall, 4, NULL, NULL, 0, NULL), ARCNAV_OK);
  arcnav_obstacle_id wall_id = arcnav_map_obstacle_id(map, arcnav_map_obstacle_count(map) - 1);
  sup_map_add_polygon(&m, wall, 4, NULL, NULL, 0);
  for (int round = 0; round < 2; ++round) {
    if (round == 1) {
      vec by = {0, 0.5 * (hi.y - lo.y)};
      ck_assert_int_eq(arcnav_map_move_obstacle(map, wall_id, by, NULL), ARCNAV_OK);
      sup_polygon *moved = &m.polygons[m.polygon_count - 1];
      for (size_t i = 0; i < moved->outer.count; ++i) {
        moved->outer.points[i].x += by.x;
        moved->outer.points[i].y += by.y;
      }
    }
    ck_assert_int_eq(arcnav_planner_update(planner, map), ARCNAV_OK);
    ck_assert_int_eq(arcnav_planner_update(twin, map), ARCNAV_OK);
    answer *expected =
        single_thread_answers(twin, &m, queries, PLANNERS[which].radius, arcnav_map_tolerance(map));
    pthread_barrier_t start;
    ck_assert_int_eq(pthread_barrier_init(&start, NULL, THREAD_COUNT), 0);
    pthread_t threads[THREAD_COUNT];
    for (int t = 0; t < THREAD_COUNT; ++t) {
      workers[t].expected = expected;
      workers[t].start = &start;
      workers[t].mismatches = 0;
      ck_assert_int_eq(pthread_create(&threads[t], NULL, run_update_worker, &workers[t]), 0);
    }
    for (int t = 0; t < THREAD_COUNT; ++t) {
      ck_assert_int_eq(pthread_join(threads[t], NULL), 0);
    }
    pthread_barrier_destroy(&start);
    for (int t = 0; t < THREAD_COUNT; ++t) {
      ck_assert_msg(workers[t].mismatches == 0,
                    "%s, round %d, thread %d: %zu answers differ from its twin's, first "
                    "at query %zu",
                    PLANNERS[which].name, round, t, workers[t].mismatches,
                    workers[t].first_mismatch);
    }
    free(expected);
  }
  for (int t = 0; t < THREAD_COUNT; ++t) {
    arcnav_path_destroy(workers[t].path);
    arcnav_query_destroy(workers[t].query);
  }
  arcnav_planner_destroy(planner);
  arcnav_planner_destroy(twin);
  arcnav_map_destroy(map);
  sup_map_free(&m);
}
END_TEST

// ---- units each thread ignores on its own ---------------------------------------------------

typedef struct ignoring_worker {
  const arcnav_planner *planner;
  const sup_query *queries;
  arcnav_obstacle_id unit; ///< the one this thread's query ignores
  const answer *expected;  ///< single-threaded answers with that unit ignored
  pthread_barrier_t *start;
  size_t mismatches, first_mismatch;
  arcnav_status error;
  answer scratch;
} ignoring_worker;

static void *run_ignoring_worker(void *arg) {
  ignoring_worker *w = arg;
  arcnav_query *query = NULL;
  arcnav_path *path = NULL;
  w->error = arcnav_query_create(w->planner, &query);
  if (w->error == ARCNAV_OK) {
    w->error = arcnav_path_create(NULL, &path);
  }
  if (w->error == ARCNAV_OK) {
    w->error = arcnav_query_set_ignored(query, &w->unit, 1);
  }
  pthread_barrier_wait(w->start);
  for (size_t q = 0; w->error == ARCNAV_OK && q < QUERY_COUNT; ++q) {
    bool fits = answer_query(w->planner, query, path, &w->queries[q], 0, &w->scratch);
    if (!fits || !same_answer(&w->scratch, &w->expected[q])) {
      if (w->mismatches++ == 0) {
        w->first_mismatch = q;
      }
    }
  }
  arcnav_path_destroy(path);
  arcnav_query_destroy(query);
  return NULL;
}

// Units on the map, and each thread's query ignores another one: the ignore lists live in the
// query objects, so the threads answer as one thread does with the same list. Both engines that
// can ignore units: the tangents on demand (AUTO on a map with units) and the interval engine.
static const arcnav_engine IGNORING_ENGINES[] = {ARCNAV_ENGINE_AUTO, ARCNAV_ENGINE_INTERVAL};

START_TEST(threads_ignore_units_of_their_own) {
  sup_map m = test_map();
  static sup_query queries[QUERY_COUNT];
  make_queries(&m, queries);
  arcnav_map *map = NULL;
  ck_assert_int_eq(sup_map_to_arcnav(&m, &map), ARCNAV_OK);
  // Each unit on the start of a query where the disk fits, apart from the others' starts, so that
  // ignoring it or not changes the answer.
  size_t owner[THREAD_COUNT];
  int chosen = 0;
  for (size_t q = 0; q < QUERY_COUNT && chosen < THREAD_COUNT; ++q) {
    bool apart = sup_distance_to_obstacles(&m, queries[q].start) > 1.6;
    for (int k = 0; k < chosen; ++k) {
      vec other = queries[owner[k]].start;
      apart = apart && hypot(other.x - queries[q].start.x, other.y - queries[q].start.y) > 2.6;
    }
    if (apart) {
      owner[chosen++] = q;
    }
  }
  ck_assert_int_eq(chosen, THREAD_COUNT);
  arcnav_obstacle_id units[THREAD_COUNT];
  for (int t = 0; t < THREAD_COUNT; ++t) {
    ck_assert_int_eq(arcnav_map_add_unit(map, queries[owner[t]].start, 1.0, &units[t]), ARCNAV_OK);
  }
  arcnav_planner_def def = arcnav_default_planner_def();
  def.engine = IGNORING_ENGINES[_i];
  def.radius = 1.5;
  arcnav_planner *planner = NULL;
  ck_assert_int_eq(arcnav_planner_create(map, &def, &planner), ARCNAV_OK);
  arcnav_map_destroy(map);
  answer *expected[THREAD_COUNT];
  arcnav_query *query = NULL;
  arcnav_path *path = NULL;
  ck_assert_int_eq(arcnav_query_create(planner, &query), ARCNAV_OK);
  ck_assert_int_eq(arcnav_path_create(NULL, &path), ARCNAV_OK);
  for (int t = 0; t < THREAD_COUNT; ++t) {
    expected[t] = calloc(QUERY_COUNT, sizeof *expected[t]);
    ck_assert_ptr_nonnull(expected[t]);
    ck_assert_int_eq(arcnav_query_set_ignored(query, &units[t], 1), ARCNAV_OK);
    for (size_t q = 0; q < QUERY_COUNT; ++q) {
      ck_assert(answer_query(planner, query, path, &queries[q], 0, &expected[t][q]));
    }
  }
  // Thread t's unit blocks the start of its query for every other thread, not for thread t.
  for (int t = 0; t < THREAD_COUNT; ++t) {
    ck_assert_int_ne(expected[t][owner[t]].status, ARCNAV_START_BLOCKED);
    ck_assert_int_eq(expected[(t + 1) % THREAD_COUNT][owner[t]].status, ARCNAV_START_BLOCKED);
  }
  arcnav_path_destroy(path);
  arcnav_query_destroy(query);
  pthread_barrier_t start;
  ck_assert_int_eq(pthread_barrier_init(&start, NULL, THREAD_COUNT), 0);
  ignoring_worker workers[THREAD_COUNT];
  pthread_t threads[THREAD_COUNT];
  for (int t = 0; t < THREAD_COUNT; ++t) {
    workers[t] = (ignoring_worker){.planner = planner,
                                   .queries = queries,
                                   .unit = units[t],
                                   .expected = expected[t],
                                   .start = &start};
    ck_assert_int_eq(pthread_create(&threads[t], NULL, run_ignoring_worker, &workers[t]), 0);
  }
  for (int t = 0; t < THREAD_COUNT; ++t) {
    ck_assert_int_eq(pthread_join(threads[t], NULL), 0);
  }
  pthread_barrier_destroy(&start);
  for (int t = 0; t < THREAD_COUNT; ++t) {
    ck_assert_msg(workers[t].error == ARCNAV_OK, "engine %d, thread %d: %s", (int)def.engine, t,
                  arcnav_status_name(workers[t].error));
    ck_assert_msg(workers[t].mismatches == 0,
                  "engine %d, thread %d: %zu answers differ from one thread's, first at query %zu",
                  (int)def.engine, t, workers[t].mismatches, workers[t].first_mismatch);
    free(expected[t]);
  }
  arcnav_planner_destroy(planner);
  sup_map_free(&m);
}
END_TEST

static Suite *threads_suite(void) {
  Suite *suite = suite_create("threads");
  TCase *tc = tcase_create("threads");
  tcase_set_timeout(tc, 300);
  tcase_add_loop_test(tc, threads_share_a_planner, 0, (int)PLANNER_COUNT);
  tcase_add_test(tc, planners_built_concurrently_agree);
  tcase_add_loop_test(tc, threads_query_between_updates, 0, (int)PLANNER_COUNT);
  tcase_add_loop_test(tc, threads_ignore_units_of_their_own, 0,
                      (int)(sizeof IGNORING_ENGINES / sizeof IGNORING_ENGINES[0]));
  suite_add_tcase(suite, tc);
  return suite;
}

int main(void) {
  return test_run_suite(threads_suite());
}
