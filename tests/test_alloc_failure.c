// SPDX-License-Identifier: MIT
// Allocation failure: an allocator whose N-th allocation fails, for every N from 1 until the
// operation under test no longer allocates N times. Every injected failure must come back as
// ARCNAV_ERR_OUT_OF_MEMORY, leave nothing allocated once the objects are destroyed, and leave the
// objects either unchanged and usable (a map whose add failed, a planner's map, a query and path
// whose find_path failed) or not created at all. The optimal funnel's node pool, which a query
// grows when it is short, is failed growth by growth the same way. "Usable" is checked by finishing
// the work after the failure and comparing every answer bit for bit with a run that never failed;
// the answers of that run are themselves checked by the independent verifier.
#include "arcnav_test.h"
#include "funnel/funnel.h"
#include "funnel_tools.h"
#include "map/map.h"
#include "mapgen.h"
#include "verify.h"

#include <stdalign.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef arcnav_vec2 vec;

// ---- the failing, counting allocator -------------------------------------------------------

#define BLOCK_MAGIC 0x61726376u

// Every block carries its size and a tag in front, so frees are checked against what was handed
// out and the live byte count is exact. The union keeps the payload aligned for any type.
typedef union block_header {
  max_align_t align;
  struct {
    size_t size;
    uint32_t magic;
  } info;
} block_header;

typedef struct fail_alloc {
  uint64_t calls;   ///< allocation requests seen
  uint64_t fail_at; ///< request number that fails (1-based), 0 for none
  bool sticky;      ///< every request from fail_at on fails, not just that one
  bool fired;       ///< the failure was injected
  size_t live_blocks, live_bytes;
  size_t bad_frees; ///< frees of blocks this allocator did not hand out (or freed twice)
} fail_alloc;

static void *fail_alloc_alloc(size_t size, void *user) {
  fail_alloc *fa = user;
  fa->calls++;
  if (fa->fail_at != 0 && (fa->calls == fa->fail_at || (fa->sticky && fa->calls > fa->fail_at))) {
    fa->fired = true;
    return NULL;
  }
  if (size > SIZE_MAX - sizeof(block_header)) {
    return NULL;
  }
  block_header *h = malloc(sizeof *h + size);
  if (!h) {
    return NULL;
  }
  h->info.size = size;
  h->info.magic = BLOCK_MAGIC;
  fa->live_blocks++;
  fa->live_bytes += size;
  return h + 1;
}

static void fail_alloc_free(void *ptr, void *user) {
  fail_alloc *fa = user;
  if (!ptr) {
    fa->bad_frees++; // the hook contract says the library never passes NULL
    return;
  }
  block_header *h = (block_header *)ptr - 1;
  if (h->info.magic != BLOCK_MAGIC || fa->live_blocks == 0) {
    fa->bad_frees++;
    return;
  }
  h->info.magic = 0;
  fa->live_blocks--;
  fa->live_bytes -= h->info.size;
  free(h);
}

static arcnav_allocator hooks_for(fail_alloc *fa) {
  arcnav_allocator a = {fail_alloc_alloc, fail_alloc_free, fa};
  return a;
}

/// Fail the n-th allocation from now (n >= 1), once.
static void arm(fail_alloc *fa, uint64_t n) {
  fa->fail_at = fa->calls + n;
  fa->fired = false;
}

static void disarm(fail_alloc *fa) {
  fa->fail_at = 0;
}

static void assert_nothing_live(const fail_alloc *fa, const char *what, uint64_t n) {
  ck_assert_msg(fa->live_blocks == 0 && fa->live_bytes == 0,
                "%s, failing allocation %llu: %zu blocks (%zu bytes) leaked", what,
                (unsigned long long)n, fa->live_blocks, fa->live_bytes);
  ck_assert_msg(fa->bad_frees == 0, "%s, failing allocation %llu: %zu bad frees", what,
                (unsigned long long)n, fa->bad_frees);
}

// Guards against a loop that never ends when an operation allocates without bound.
#define MAX_INJECTIONS 100000u

// ---- the map -------------------------------------------------------------------------------

// A polygon with two holes (free pockets cut off from the rest), three walls that force a zigzag,
// a non-convex L, a triangle, a circle and a point obstacle, inside bounds that are set twice (the
// second call replaces the first). The walls reach past the bounds.
static const vec POCKET_OUTER[] = {{8, 8}, {38, 8}, {38, 52}, {8, 52}};
static const vec POCKET_HOLE_A[] = {{12, 12}, {12, 24}, {22, 24}, {22, 12}};
static const vec POCKET_HOLE_B[] = {{24, 30}, {34, 30}, {34, 48}, {24, 48}};
static const vec *const POCKET_HOLES[] = {POCKET_HOLE_A, POCKET_HOLE_B};
static const size_t POCKET_HOLE_COUNTS[] = {4, 4};
static const vec WALL_1[] = {{44, -5}, {46, -5}, {46, 45}, {44, 45}};
static const vec WALL_2[] = {{54, 15}, {56, 15}, {56, 65}, {54, 65}};
static const vec WALL_3[] = {{64, -5}, {66, -5}, {66, 45}, {64, 45}};
static const vec ELL[] = {{72, 8}, {95, 8}, {95, 14}, {78, 14}, {78, 38}, {72, 38}};
static const vec TRIANGLE[] = {{84, 20}, {92, 22}, {86, 28}};
static const vec FIRST_BOUNDS[] = {{-20, -20}, {120, -20}, {120, 80}, {-20, 80}};
static const vec BOUNDS[] = {{0, 0}, {100, 0}, {100, 60}, {0, 60}};

typedef enum op_kind { OP_POLYGON, OP_CIRCLE, OP_BOUNDS } op_kind;

typedef struct map_op {
  const char *name;
  op_kind kind;
  const vec *ring;
  size_t count;
  const vec *const *holes;
  const size_t *hole_counts;
  size_t hole_count;
  vec center;
  double radius;
} map_op;

static const map_op MAP_OPS[] = {
    {"bounds (first)", OP_BOUNDS, FIRST_BOUNDS, 4, NULL, NULL, 0, {0, 0}, 0},
    {"polygon with holes",
     OP_POLYGON,
     POCKET_OUTER,
     4,
     POCKET_HOLES,
     POCKET_HOLE_COUNTS,
     2,
     {0, 0},
     0},
    {"wall 1", OP_POLYGON, WALL_1, 4, NULL, NULL, 0, {0, 0}, 0},
    {"circle", OP_CIRCLE, NULL, 0, NULL, NULL, 0, {80, 50}, 4},
    {"wall 2", OP_POLYGON, WALL_2, 4, NULL, NULL, 0, {0, 0}, 0},
    {"bounds (replacing)", OP_BOUNDS, BOUNDS, 4, NULL, NULL, 0, {0, 0}, 0},
    {"wall 3", OP_POLYGON, WALL_3, 4, NULL, NULL, 0, {0, 0}, 0},
    {"L", OP_POLYGON, ELL, 6, NULL, NULL, 0, {0, 0}, 0},
    {"point obstacle", OP_CIRCLE, NULL, 0, NULL, NULL, 0, {92, 32}, 0},
    {"triangle", OP_POLYGON, TRIANGLE, 3, NULL, NULL, 0, {0, 0}, 0},
};
#define MAP_OP_COUNT (sizeof MAP_OPS / sizeof MAP_OPS[0])

static arcnav_status apply_op(arcnav_map *map, const map_op *op) {
  arcnav_error error;
  arcnav_status status = ARCNAV_ERR_INVALID_ARGUMENT;
  switch (op->kind) {
  case OP_POLYGON:
    status = arcnav_map_add_polygon(map, op->ring, op->count, op->holes, op->hole_counts,
                                    op->hole_count, &error);
    break;
  case OP_CIRCLE:
    status = arcnav_map_add_circle(map, op->center, op->radius, &error);
    break;
  case OP_BOUNDS:
    status = arcnav_map_set_bounds(map, op->ring, op->count, &error);
    break;
  }
  ck_assert_int_eq(error.status, status);
  return status;
}

/// The same map as plain data, for the verifier.
static sup_map describe_map(void) {
  sup_map m;
  sup_map_init(&m);
  for (size_t i = 0; i < MAP_OP_COUNT; ++i) {
    const map_op *op = &MAP_OPS[i];
    switch (op->kind) {
    case OP_POLYGON:
      sup_map_add_polygon(&m, op->ring, op->count, op->holes, op->hole_counts, op->hole_count);
      break;
    case OP_CIRCLE:
      sup_map_add_circle(&m, op->center, op->radius);
      break;
    case OP_BOUNDS:
      sup_map_set_bounds(&m, op->ring, op->count);
      break;
    }
  }
  return m;
}

/// Builds the whole map with no failure injected.
static arcnav_map *build_map(const arcnav_allocator *hooks) {
  arcnav_map *map = NULL;
  ck_assert_int_eq(arcnav_map_create(hooks, &map), ARCNAV_OK);
  for (size_t i = 0; i < MAP_OP_COUNT; ++i) {
    ck_assert_int_eq(apply_op(map, &MAP_OPS[i]), ARCNAV_OK);
  }
  return map;
}

// ---- map contents, compared bit for bit ----------------------------------------------------

typedef struct map_copy {
  vec *points;
  size_t point_count;
  an_ring *rings;
  size_t ring_count;
  an_obstacle *obstacles;
  size_t obstacle_count;
  bool has_bounds;
  an_ring bounds;
  vec *bounds_points;
} map_copy;

static void *copy_bytes(const void *src, size_t bytes) {
  if (bytes == 0) {
    return NULL;
  }
  void *dst = malloc(bytes);
  ck_assert_ptr_nonnull(dst);
  memcpy(dst, src, bytes);
  return dst;
}

static map_copy copy_map(const arcnav_map *map) {
  map_copy c;
  memset(&c, 0, sizeof c);
  c.point_count = map->point_count;
  c.points = copy_bytes(map->points, map->point_count * sizeof *map->points);
  c.ring_count = map->ring_count;
  c.rings = copy_bytes(map->rings, map->ring_count * sizeof *map->rings);
  c.obstacle_count = map->obstacle_count;
  c.obstacles = copy_bytes(map->obstacles, map->obstacle_count * sizeof *map->obstacles);
  c.has_bounds = map->has_bounds;
  if (map->has_bounds) {
    c.bounds = map->bounds;
    c.bounds_points = copy_bytes(map->bounds_points, map->bounds.count * sizeof(vec));
  }
  return c;
}

static void free_map_copy(map_copy *c) {
  free(c->points);
  free(c->rings);
  free(c->obstacles);
  free(c->bounds_points);
  memset(c, 0, sizeof *c);
}

static bool same_bits(const void *a, const void *b, size_t bytes) {
  return bytes == 0 || memcmp(a, b, bytes) == 0;
}

static bool same_ring(const an_ring *a, const an_ring *b) {
  return a->first == b->first && a->count == b->count && a->obstacle == b->obstacle &&
         a->role == b->role;
}

static bool same_obstacle(const an_obstacle *a, const an_obstacle *b) {
  return a->kind == b->kind && a->first_ring == b->first_ring && a->ring_count == b->ring_count &&
         same_bits(&a->center, &b->center, sizeof a->center) &&
         same_bits(&a->radius, &b->radius, sizeof a->radius) &&
         same_bits(&a->box_min, &b->box_min, sizeof a->box_min) &&
         same_bits(&a->box_max, &b->box_max, sizeof a->box_max);
}

/// Field by field (struct padding may differ between two maps with the same contents).
static bool same_map(const map_copy *a, const map_copy *b) {
  if (a->point_count != b->point_count || a->ring_count != b->ring_count ||
      a->obstacle_count != b->obstacle_count || a->has_bounds != b->has_bounds) {
    return false;
  }
  if (!same_bits(a->points, b->points, a->point_count * sizeof(vec))) {
    return false;
  }
  for (size_t i = 0; i < a->ring_count; ++i) {
    if (!same_ring(&a->rings[i], &b->rings[i])) {
      return false;
    }
  }
  for (size_t i = 0; i < a->obstacle_count; ++i) {
    if (!same_obstacle(&a->obstacles[i], &b->obstacles[i])) {
      return false;
    }
  }
  return !a->has_bounds ||
         (same_ring(&a->bounds, &b->bounds) &&
          same_bits(a->bounds_points, b->bounds_points, a->bounds.count * sizeof(vec)));
}

// ---- planners and answers ------------------------------------------------------------------

typedef struct engine_case {
  const char *name;
  arcnav_engine engine;
  double radius;
  double verify_radius; ///< the clearance its paths promise (the eroded navmesh promises none)
  arcnav_tangent_graph tangent_graph;
  double max_radius; ///< > 0: one planner for radii up to it, queries at `radius`
} engine_case;

static const engine_case ENGINES[] = {
    {"tangent R=1.5", ARCNAV_ENGINE_TANGENT, 1.5, 1.5, ARCNAV_TANGENT_GRAPH_AUTO, 0.0},
    {"tangent R=0", ARCNAV_ENGINE_TANGENT, 0.0, 0.0, ARCNAV_TANGENT_GRAPH_AUTO, 0.0},
    {"funnel R=0", ARCNAV_ENGINE_FUNNEL, 0.0, 0.0, ARCNAV_TANGENT_GRAPH_AUTO, 0.0},
    {"plain funnel R=0", ARCNAV_ENGINE_PLAIN_FUNNEL, 0.0, 0.0, ARCNAV_TANGENT_GRAPH_AUTO, 0.0},
    {"auto R=1.5", ARCNAV_ENGINE_AUTO, 1.5, 1.5, ARCNAV_TANGENT_GRAPH_AUTO, 0.0},
    {"auto R=0", ARCNAV_ENGINE_AUTO, 0.0, 0.0, ARCNAV_TANGENT_GRAPH_AUTO, 0.0},
    {"funnel R=1.5", ARCNAV_ENGINE_FUNNEL, 1.5, 0.0, ARCNAV_TANGENT_GRAPH_AUTO, 0.0},
    {"plain funnel R=1.5", ARCNAV_ENGINE_PLAIN_FUNNEL, 1.5, 0.0, ARCNAV_TANGENT_GRAPH_AUTO, 0.0},
    {"tangent on demand R=1.5", ARCNAV_ENGINE_TANGENT, 1.5, 1.5, ARCNAV_TANGENT_GRAPH_ON_DEMAND,
     0.0},
    {"tangent on demand R=0", ARCNAV_ENGINE_TANGENT, 0.0, 0.0, ARCNAV_TANGENT_GRAPH_ON_DEMAND, 0.0},
    {"auto R=1.5 of max 4", ARCNAV_ENGINE_AUTO, 1.5, 1.5, ARCNAV_TANGENT_GRAPH_AUTO, 4.0},
    {"tangent R=0 of max 4", ARCNAV_ENGINE_TANGENT, 0.0, 0.0, ARCNAV_TANGENT_GRAPH_AUTO, 4.0},
    {"interval R=1.5", ARCNAV_ENGINE_INTERVAL, 1.5, 1.5, ARCNAV_TANGENT_GRAPH_AUTO, 0.0},
    {"interval R=1.5 of max 4", ARCNAV_ENGINE_INTERVAL, 1.5, 1.5, ARCNAV_TANGENT_GRAPH_AUTO, 4.0},
};
#define ENGINE_COUNT (sizeof ENGINES / sizeof ENGINES[0])

static const sup_query QUERIES[] = {
    {{3, 3}, {90, 4}},    // zigzag over and under the three walls: many pieces
    {{3, 57}, {97, 57}},  // along the top, under wall 2 (which closes the top)
    {{50, 30}, {60, 5}},  // between the walls
    {{3, 3}, {17, 18}},   // into a pocket: no path
    {{17, 18}, {29, 40}}, // pocket to pocket: no path
    {{17, 18}, {19, 21}}, // inside one pocket
    {{3, 3}, {20, 28}},   // goal inside the polygon's material
    {{75, 20}, {3, 3}},   // start inside the L
    {{60, 50}, {60, 50}}, // start == goal
};
#define QUERY_COUNT (sizeof QUERIES / sizeof QUERIES[0])
#define MAX_QUERIES 16
#define MAX_PIECES 64

// A map and its queries. Scene 0 is the hand-made map above; scene 1 a generated map of mixed
// obstacles, larger, so that the triangulation and the tangent list grow several times; scene 2 a
// circle touched at six places, by six circles that touch each other too, whose pinches a point
// agent's engine keeps in its table (the pockets between them are closed).
typedef struct scene {
  const char *name;
  bool hand_made; ///< built through MAP_OPS (bounds replaced once), else from `plain`
  sup_map plain;  ///< the map as plain data, for the verifier
  sup_query queries[MAX_QUERIES];
  size_t query_count;
} scene;
#define SCENE_COUNT 3

static scene make_scene(int index) {
  scene sc;
  memset(&sc, 0, sizeof sc);
  if (index == 0) {
    sc.name = "hand-made map";
    sc.hand_made = true;
    sc.plain = describe_map();
    memcpy(sc.queries, QUERIES, sizeof QUERIES);
    sc.query_count = QUERY_COUNT;
    return sc;
  }
  if (index == 2) {
    sc.name = "circles touching";
    sup_map_init(&sc.plain);
    sup_map_add_circle(&sc.plain, (vec){0, 0}, 4.0);
    const double sixth_turn = TEST_PI / 3.0;
    for (int k = 0; k < 6; ++k) {
      vec at = {8.0 * cos(k * sixth_turn), 8.0 * sin(k * sixth_turn)};
      sup_map_add_circle(&sc.plain, at, 4.0);
      // From each pocket (the middle of the circle's and two neighbours' centres) to the next,
      // and out.
      vec next = {8.0 * cos((k + 1) * sixth_turn), 8.0 * sin((k + 1) * sixth_turn)};
      vec after = {8.0 * cos((k + 2) * sixth_turn), 8.0 * sin((k + 2) * sixth_turn)};
      vec pocket = {(at.x + next.x) / 3.0, (at.y + next.y) / 3.0};
      sc.queries[sc.query_count++] =
          (sup_query){pocket, {(next.x + after.x) / 3.0, (next.y + after.y) / 3.0}};
    }
    sc.queries[sc.query_count++] = (sup_query){sc.queries[0].start, {30, 1}};
    sc.queries[sc.query_count++] = (sup_query){{-30, 2}, {30, -1}};
    return sc;
  }
  sc.name = "generated map";
  sc.plain = sup_gen_mixed(11, 14, 100.0, 2.0);
  sup_rng rng = sup_rng_seed(12345);
  vec lo, hi;
  ck_assert(sup_map_extent(&sc.plain, &lo, &hi));
  for (size_t q = 0; q < 12; ++q) {
    vec a, b;
    ck_assert(sup_random_free_point(&sc.plain, 1.5, &rng, lo, hi, 0.0, 1000, &a));
    ck_assert(sup_random_free_point(&sc.plain, 1.5, &rng, lo, hi, 0.0, 1000, &b));
    sc.queries[sc.query_count++] = (sup_query){a, b};
  }
  return sc;
}

static void free_scene(scene *sc) {
  sup_map_free(&sc->plain);
}

/// The scene's map through the public API with `hooks`, nothing failing.
static arcnav_map *build_scene_map(const scene *sc, const arcnav_allocator *hooks) {
  if (sc->hand_made) {
    return build_map(hooks);
  }
  arcnav_map *map = NULL;
  ck_assert_int_eq(sup_map_to_arcnav_with(&sc->plain, hooks, &map), ARCNAV_OK);
  return map;
}

typedef struct answer {
  arcnav_status status;
  size_t count;
  arcnav_piece pieces[MAX_PIECES];
  double length;
} answer;

static answer read_answer(arcnav_status status, const arcnav_path *path) {
  answer a;
  memset(&a, 0, sizeof a);
  a.status = status;
  a.count = arcnav_path_piece_count(path);
  ck_assert_uint_le(a.count, MAX_PIECES);
  for (size_t i = 0; i < a.count; ++i) {
    a.pieces[i] = arcnav_path_piece(path, i);
  }
  a.length = arcnav_path_length(path);
  return a;
}

static bool same_answer(const answer *a, const answer *b) {
  if (a->status != b->status || a->count != b->count ||
      !same_bits(&a->length, &b->length, sizeof(double))) {
    return false;
  }
  for (size_t i = 0; i < a->count; ++i) {
    if (!test_same_piece(&a->pieces[i], &b->pieces[i])) {
      return false;
    }
  }
  return true;
}

static arcnav_planner_def def_for(const engine_case *ec) {
  arcnav_planner_def def = arcnav_default_planner_def();
  def.engine = ec->engine;
  def.radius = ec->radius;
  def.tangent_graph = ec->tangent_graph;
  def.max_radius = ec->max_radius;
  return def;
}

/// Answers of every query, with the default allocator and no failure anywhere; with `verify`,
/// found paths must pass the verifier (each (scene, engine) pair is verified by one test).
static void reference_answers(const scene *sc, const engine_case *ec, answer out[MAX_QUERIES],
                              bool verify) {
  arcnav_map *map = build_scene_map(sc, NULL);
  arcnav_planner_def def = def_for(ec);
  arcnav_planner *planner = NULL;
  arcnav_query *query = NULL;
  arcnav_path *path = NULL;
  ck_assert_int_eq(arcnav_planner_create(map, &def, &planner), ARCNAV_OK);
  ck_assert_int_eq(arcnav_query_create(planner, &query), ARCNAV_OK);
  ck_assert_int_eq(arcnav_path_create(NULL, &path), ARCNAV_OK);
  double eps = arcnav_map_tolerance(map);
  size_t found = 0;
  for (size_t q = 0; q < sc->query_count; ++q) {
    const sup_query *sq = &sc->queries[q];
    arcnav_status status = arcnav_find_path(query, sq->start, sq->goal, path);
    out[q] = read_answer(status, path);
    found += status == ARCNAV_OK;
    if (status == ARCNAV_OK && verify) {
      sup_verify_report report;
      ck_assert_msg(
          sup_verify_path(&sc->plain, ec->verify_radius, eps, sq->start, sq->goal, path, &report),
          "%s, %s, query %zu: %s", sc->name, ec->name, q, report.message);
    }
  }
  ck_assert_uint_gt(found, 0);
  if (sc->hand_made) {
    // The queries must exercise what the file comment promises: a long path, and answers that
    // are not paths.
    ck_assert_int_eq(out[0].status, ARCNAV_OK);
    ck_assert_uint_ge(out[0].count, 5);
    ck_assert_int_eq(out[3].status, ARCNAV_NO_PATH);
    ck_assert_int_eq(out[4].status, ARCNAV_NO_PATH);
    ck_assert_int_eq(out[6].status, ARCNAV_GOAL_BLOCKED);
    ck_assert_int_eq(out[7].status, ARCNAV_START_BLOCKED);
  }
  arcnav_path_destroy(path);
  arcnav_query_destroy(query);
  arcnav_planner_destroy(planner);
  arcnav_map_destroy(map);
}

/// Builds a planner for `map` with nothing failing and checks all its answers against `expected`.
static void check_answers(const arcnav_map *map, const scene *sc, const engine_case *ec,
                          const answer expected[MAX_QUERIES], const char *context, uint64_t n) {
  arcnav_planner_def def = def_for(ec);
  arcnav_planner *planner = NULL;
  arcnav_query *query = NULL;
  arcnav_path *path = NULL;
  ck_assert_int_eq(arcnav_planner_create(map, &def, &planner), ARCNAV_OK);
  ck_assert_int_eq(arcnav_query_create(planner, &query), ARCNAV_OK);
  ck_assert_int_eq(arcnav_path_create(NULL, &path), ARCNAV_OK);
  for (size_t q = 0; q < sc->query_count; ++q) {
    const sup_query *sq = &sc->queries[q];
    arcnav_status status = arcnav_find_path(query, sq->start, sq->goal, path);
    answer got = read_answer(status, path);
    ck_assert_msg(same_answer(&got, &expected[q]),
                  "%s, %s, %s, failing allocation %llu: query %zu differs from a run without "
                  "failure",
                  context, sc->name, ec->name, (unsigned long long)n, q);
  }
  arcnav_path_destroy(path);
  arcnav_query_destroy(query);
  arcnav_planner_destroy(planner);
}

// ---- (a) building the map ------------------------------------------------------------------

/// Which scene, engine and failure mode loop index `i` stands for: every (scene, engine) pair
/// with single failures, then the hand-made scene again with sticky failures.
static void decode_case(int i, int *scene_index, const engine_case **ec, bool *sticky) {
  size_t k = (size_t)i, single = SCENE_COUNT * ENGINE_COUNT;
  *sticky = k >= single;
  *scene_index = *sticky ? 0 : (int)(k / ENGINE_COUNT);
  *ec = &ENGINES[*sticky ? k - single : k % ENGINE_COUNT];
}
#define ENGINE_CASES ((int)(SCENE_COUNT * ENGINE_COUNT + ENGINE_COUNT))

START_TEST(map_build_survives_each_failure) {
  bool sticky = _i == 1;
  // The answers of two engines stand for "the map works": the exact planner at R > 0 (every
  // corner and circle matters) and the navmesh (every ring is triangulated).
  static answer expected_tangent[MAX_QUERIES], expected_funnel[MAX_QUERIES];
  scene sc = make_scene(0);
  reference_answers(&sc, &ENGINES[0], expected_tangent, false);
  reference_answers(&sc, &ENGINES[2], expected_funnel, false);
  arcnav_map *clean = build_map(NULL);
  map_copy want = copy_map(clean);
  arcnav_map_destroy(clean);

  uint64_t n = 1;
  for (; n < MAX_INJECTIONS; ++n) {
    fail_alloc fa = {.sticky = sticky};
    arcnav_allocator hooks = hooks_for(&fa);
    arm(&fa, n);
    arcnav_map *map = (arcnav_map *)&fa; // must be overwritten
    arcnav_status status = arcnav_map_create(&hooks, &map);
    if (fa.fired) {
      ck_assert_int_eq(status, ARCNAV_ERR_OUT_OF_MEMORY);
      ck_assert_ptr_null(map);
      assert_nothing_live(&fa, "map create", n);
      continue; // later allocations are covered by larger n
    }
    ck_assert_int_eq(status, ARCNAV_OK);
    for (size_t i = 0; i < MAP_OP_COUNT; ++i) {
      bool fired_before = fa.fired;
      map_copy before = copy_map(map);
      status = apply_op(map, &MAP_OPS[i]);
      if (fa.fired && !fired_before) {
        ck_assert_msg(status == ARCNAV_ERR_OUT_OF_MEMORY,
                      "%s, failing allocation %llu: status %s instead of out_of_memory",
                      MAP_OPS[i].name, (unsigned long long)n, arcnav_status_name(status));
        map_copy after = copy_map(map);
        ck_assert_msg(same_map(&before, &after), "%s, failing allocation %llu changed the map",
                      MAP_OPS[i].name, (unsigned long long)n);
        free_map_copy(&after);
        disarm(&fa);
        status = apply_op(map, &MAP_OPS[i]);
      }
      ck_assert_msg(status == ARCNAV_OK, "%s after failing allocation %llu: %s", MAP_OPS[i].name,
                    (unsigned long long)n, arcnav_status_name(status));
      free_map_copy(&before);
    }
    bool fired = fa.fired;
    disarm(&fa);
    // Every stored bit equals the never-failed map's; planners built from it answer the same
    // (checked on every fourth map, as that is what takes the time).
    map_copy got = copy_map(map);
    ck_assert_msg(same_map(&got, &want), "failing allocation %llu: final map differs",
                  (unsigned long long)n);
    free_map_copy(&got);
    if (n % 4 == 1 || !fired) {
      check_answers(map, &sc, &ENGINES[0], expected_tangent, "map build", n);
      check_answers(map, &sc, &ENGINES[2], expected_funnel, "map build", n);
    }
    arcnav_map_destroy(map);
    assert_nothing_live(&fa, "map build", n);
    if (!fired) {
      break; // the whole build took fewer than n allocations: every one has failed once
    }
  }
  printf("map build%s: %llu allocations, each failed once\n", sticky ? " (sticky)" : "",
         (unsigned long long)(n - 1));
  ck_assert_uint_lt(n, MAX_INJECTIONS);
  ck_assert_uint_gt(n, MAP_OP_COUNT); // each add allocates at least once
  free_map_copy(&want);
  free_scene(&sc);
}
END_TEST

// ---- (b) building planners -----------------------------------------------------------------

START_TEST(planner_build_survives_each_failure) {
  int scene_index;
  const engine_case *ec;
  bool sticky;
  decode_case(_i, &scene_index, &ec, &sticky);
  scene sc = make_scene(scene_index);
  static answer expected[MAX_QUERIES];
  reference_answers(&sc, ec, expected, true);
  fail_alloc fa = {.sticky = sticky};
  arcnav_allocator hooks = hooks_for(&fa);
  // One map for every attempt: planner_create only reads it.
  arcnav_map *map = build_scene_map(&sc, &hooks);
  size_t map_blocks = fa.live_blocks, map_bytes = fa.live_bytes;
  uint64_t n = 1;
  for (; n < MAX_INJECTIONS; ++n) {
    arcnav_planner_def def = def_for(ec);
    arcnav_planner *planner = (arcnav_planner *)&fa; // must be overwritten
    arm(&fa, n);
    arcnav_status status = arcnav_planner_create(map, &def, &planner);
    bool fired = fa.fired;
    disarm(&fa);
    if (fired) {
      ck_assert_msg(status == ARCNAV_ERR_OUT_OF_MEMORY,
                    "%s, %s, failing allocation %llu: status %s instead of out_of_memory", sc.name,
                    ec->name, (unsigned long long)n, arcnav_status_name(status));
      ck_assert_ptr_null(planner);
    } else {
      ck_assert_int_eq(status, ARCNAV_OK);
      arcnav_planner_destroy(planner);
    }
    ck_assert_msg(fa.live_blocks == map_blocks && fa.live_bytes == map_bytes && fa.bad_frees == 0,
                  "%s, %s, failing allocation %llu: %zu blocks left behind, %zu bad frees", sc.name,
                  ec->name, (unsigned long long)n, fa.live_blocks - map_blocks, fa.bad_frees);
    if (!fired) {
      break;
    }
  }
  // The map is still whole: a planner built from it now answers as one that never failed.
  check_answers(map, &sc, ec, expected, "planner build", n);
  arcnav_map_destroy(map);
  assert_nothing_live(&fa, ec->name, n);
  printf("planner build, %s, %s%s: %llu allocations, each failed once\n", sc.name, ec->name,
         sticky ? " (sticky)" : "", (unsigned long long)(n - 1));
  ck_assert_uint_lt(n, MAX_INJECTIONS);
  ck_assert_uint_gt(n, 1);
  free_scene(&sc);
}
END_TEST

// ---- (c) paths, queries and find_path -------------------------------------------------------

START_TEST(queries_survive_each_failure) {
  int scene_index;
  const engine_case *ec;
  bool sticky;
  decode_case(_i, &scene_index, &ec, &sticky);
  scene sc = make_scene(scene_index);
  static answer expected[MAX_QUERIES];
  reference_answers(&sc, ec, expected, false);
  fail_alloc fa = {.sticky = sticky};
  arcnav_allocator hooks = hooks_for(&fa);
  // One map and planner for every attempt: queries only read the planner.
  arcnav_map *map = build_scene_map(&sc, &hooks);
  arcnav_planner_def def = def_for(ec);
  arcnav_planner *planner = NULL;
  ck_assert_int_eq(arcnav_planner_create(map, &def, &planner), ARCNAV_OK);
  size_t base_blocks = fa.live_blocks, base_bytes = fa.live_bytes;
  uint64_t n = 1;
  for (; n < MAX_INJECTIONS; ++n) {
    arm(&fa, n);
    arcnav_path *path = (arcnav_path *)&fa; // must be overwritten
    arcnav_status status = arcnav_path_create(&hooks, &path);
    if (fa.fired) {
      ck_assert_int_eq(status, ARCNAV_ERR_OUT_OF_MEMORY);
      ck_assert_ptr_null(path);
      disarm(&fa);
      status = arcnav_path_create(&hooks, &path);
    }
    ck_assert_int_eq(status, ARCNAV_OK);

    bool fired_before = fa.fired;
    arcnav_query *query = (arcnav_query *)&fa; // must be overwritten
    status = arcnav_query_create(planner, &query);
    if (fa.fired && !fired_before) {
      ck_assert_msg(status == ARCNAV_ERR_OUT_OF_MEMORY,
                    "%s, %s, query create, failing allocation %llu: status %s", sc.name, ec->name,
                    (unsigned long long)n, arcnav_status_name(status));
      ck_assert_ptr_null(query);
      disarm(&fa);
      status = arcnav_query_create(planner, &query);
    }
    ck_assert_int_eq(status, ARCNAV_OK);

    for (size_t q = 0; q < sc.query_count; ++q) {
      const sup_query *sq = &sc.queries[q];
      fired_before = fa.fired;
      status = arcnav_find_path(query, sq->start, sq->goal, path);
      if (fa.fired && !fired_before) {
        ck_assert_msg(status == ARCNAV_ERR_OUT_OF_MEMORY,
                      "%s, %s, query %zu, failing allocation %llu: status %s", sc.name, ec->name, q,
                      (unsigned long long)n, arcnav_status_name(status));
        // What is left in the path is an empty path, never half an answer.
        ck_assert_uint_eq(arcnav_path_piece_count(path), 0);
        ck_assert(arcnav_path_length(path) == 0.0);
        disarm(&fa);
        status = arcnav_find_path(query, sq->start, sq->goal, path);
      }
      answer got = read_answer(status, path);
      ck_assert_msg(same_answer(&got, &expected[q]),
                    "%s, %s, query %zu after failing allocation %llu differs from a run "
                    "without failure (status %s, %zu pieces)",
                    sc.name, ec->name, q, (unsigned long long)n, arcnav_status_name(status),
                    got.count);
    }
    bool fired = fa.fired;
    disarm(&fa);
    arcnav_query_destroy(query);
    arcnav_path_destroy(path);
    ck_assert_msg(fa.live_blocks == base_blocks && fa.live_bytes == base_bytes && fa.bad_frees == 0,
                  "%s, %s, failing allocation %llu: %zu blocks left behind, %zu bad frees", sc.name,
                  ec->name, (unsigned long long)n, fa.live_blocks - base_blocks, fa.bad_frees);
    if (!fired) {
      break;
    }
  }
  arcnav_planner_destroy(planner);
  arcnav_map_destroy(map);
  assert_nothing_live(&fa, ec->name, n);
  printf("queries, %s, %s%s: %llu allocations, each failed once\n", sc.name, ec->name,
         sticky ? " (sticky)" : "", (unsigned long long)(n - 1));
  ck_assert_uint_lt(n, MAX_INJECTIONS);
  ck_assert_uint_gt(n, 2); // path, query, and at least one path buffer
  free_scene(&sc);
}
END_TEST

// The optimal funnel's node pool doubles when a query needs more, the only allocation a query
// can make. Started at one node, every growth is made to fail in turn: the query returns
// out_of_memory, and the same scratch then answers it, and every later query, exactly as a
// scratch of the usual size does.
START_TEST(funnel_pool_growth_survives_each_failure) {
  fail_alloc fa = {0};
  arcnav_allocator hooks = hooks_for(&fa);
  an_allocator alloc = an_allocator_from(&hooks);
  sup_map desc = sup_gen_random_rectangles(3, 60, 200.0, 5.0, 30.0);
  arcnav_map *map = NULL;
  ck_assert_int_eq(sup_map_to_arcnav(&desc, &map), ARCNAV_OK);
  an_navmesh *mesh = NULL;
  ck_assert_int_eq(an_navmesh_build(map, &alloc, &mesh), ARCNAV_OK);
  an_funnel_scratch *usual = NULL;
  ck_assert_int_eq(an_funnel_scratch_create(mesh, &alloc, &usual), ARCNAV_OK);
  enum { POOL_QUERIES = 8 };
  vec2 starts[POOL_QUERIES], goals[POOL_QUERIES];
  double lengths[POOL_QUERIES];
  size_t counts[POOL_QUERIES];
  arcnav_vec2 lo, hi;
  ck_assert(sup_map_extent(&desc, &lo, &hi));
  sup_rng rng = sup_rng_seed(17);
  for (size_t q = 0; q < POOL_QUERIES; ++q) {
    ck_assert(sup_random_free_point(&desc, 0.0, &rng, lo, hi, 1e-6, 1000, &starts[q]));
    ck_assert(sup_random_free_point(&desc, 0.0, &rng, lo, hi, 1e-6, 1000, &goals[q]));
    if (q == POOL_QUERIES - 1) {
      goals[q] = v2(hi.x + 1e5, lo.y - 2e5); // far beyond the mesh's box
    }
    an_funnel_result r;
    ck_assert_int_eq(sup_funnel_find_path(mesh, usual, starts[q], goals[q], true, &r), ARCNAV_OK);
    lengths[q] = r.length;
    counts[q] = r.point_count;
  }
  size_t base_blocks = fa.live_blocks, base_bytes = fa.live_bytes;
  uint64_t n = 1;
  for (; n < MAX_INJECTIONS; ++n) {
    an_funnel_scratch *tiny = NULL;
    ck_assert_int_eq(an_funnel_scratch_create_with_capacity(mesh, &alloc, 1, &tiny), ARCNAV_OK);
    arm(&fa, n);
    for (size_t q = 0; q < POOL_QUERIES; ++q) {
      bool fired_before = fa.fired;
      an_funnel_result r;
      arcnav_status status = sup_funnel_find_path(mesh, tiny, starts[q], goals[q], true, &r);
      if (fa.fired && !fired_before) {
        ck_assert_msg(status == ARCNAV_ERR_OUT_OF_MEMORY,
                      "query %zu, failing allocation %llu: status %s", q, (unsigned long long)n,
                      arcnav_status_name(status));
        disarm(&fa);
        status = sup_funnel_find_path(mesh, tiny, starts[q], goals[q], true, &r);
      }
      ck_assert_int_eq(status, ARCNAV_OK);
      ck_assert_msg(r.length == lengths[q] && r.point_count == counts[q],
                    "query %zu after failing allocation %llu: %.17g (%zu points), want %.17g (%zu)",
                    q, (unsigned long long)n, r.length, r.point_count, lengths[q], counts[q]);
    }
    bool fired = fa.fired;
    disarm(&fa);
    an_funnel_scratch_destroy(tiny);
    ck_assert_msg(fa.live_blocks == base_blocks && fa.live_bytes == base_bytes && fa.bad_frees == 0,
                  "pool growth, failing allocation %llu: %zu blocks left behind, %zu bad frees",
                  (unsigned long long)n, fa.live_blocks - base_blocks, fa.bad_frees);
    if (!fired) {
      break;
    }
  }
  an_funnel_scratch_destroy(usual);
  an_navmesh_destroy(mesh);
  arcnav_map_destroy(map);
  sup_map_free(&desc);
  assert_nothing_live(&fa, "pool growth", n);
  printf("funnel pool growth: %llu allocations, each failed once\n", (unsigned long long)(n - 1));
  ck_assert_uint_lt(n, MAX_INJECTIONS);
  ck_assert_uint_gt(n, 4); // the pool grew several times
}
END_TEST

// A path whose buffer is already large enough does not allocate again, so failures only matter
// while it grows: a path that grew in one query answers later ones without touching the allocator.
START_TEST(warm_path_does_not_allocate) {
  fail_alloc fa = {0};
  arcnav_allocator hooks = hooks_for(&fa);
  arcnav_map *map = build_map(&hooks);
  arcnav_planner_def def = def_for(&ENGINES[0]);
  arcnav_planner *planner = NULL;
  arcnav_query *query = NULL;
  arcnav_path *path = NULL;
  ck_assert_int_eq(arcnav_planner_create(map, &def, &planner), ARCNAV_OK);
  ck_assert_int_eq(arcnav_query_create(planner, &query), ARCNAV_OK);
  ck_assert_int_eq(arcnav_path_create(&hooks, &path), ARCNAV_OK);
  ck_assert_int_eq(arcnav_find_path(query, QUERIES[0].start, QUERIES[0].goal, path), ARCNAV_OK);
  uint64_t calls = fa.calls;
  for (size_t q = 0; q < QUERY_COUNT; ++q) {
    arcnav_find_path(query, QUERIES[q].start, QUERIES[q].goal, path);
  }
  ck_assert_uint_eq(fa.calls, calls);
  arcnav_path_destroy(path);
  arcnav_query_destroy(query);
  arcnav_planner_destroy(planner);
  arcnav_map_destroy(map);
  assert_nothing_live(&fa, "warm path", 0);
}
END_TEST

// The first probe on a query object makes the query's probe memory: each of its allocations is
// failed in turn. The probe then returns ARCNAV_ERR_OUT_OF_MEMORY and leaks nothing, and the same
// query answers the next probe as a query that never failed does; warm probes allocate nothing.
typedef struct probe_answers {
  arcnav_status clearance_status, ray_status, nearest_status, path_status;
  arcnav_clearance clearance;
  arcnav_ray_hit ray;
  vec nearest;
  bool path_free;
} probe_answers;

static probe_answers run_probes(arcnav_query *query, const arcnav_path *path) {
  probe_answers a;
  memset(&a, 0, sizeof a);
  a.clearance_status = arcnav_query_clearance(query, QUERIES[2].start, &a.clearance);
  a.ray_status = arcnav_query_raycast(query, QUERIES[2].start, (vec){1.0, 0.2}, INFINITY, &a.ray);
  a.nearest_status = arcnav_query_nearest_free(query, QUERIES[6].goal, &a.nearest, NULL);
  a.path_status = arcnav_query_path_is_free(query, path, &a.path_free, NULL);
  return a;
}

START_TEST(first_probe_survives_each_failure) {
  const engine_case *ec = &ENGINES[_i];
  fail_alloc fa = {0};
  arcnav_allocator hooks = hooks_for(&fa);
  arcnav_map *map = build_map(&hooks);
  arcnav_planner_def def = def_for(ec);
  arcnav_planner *planner = NULL;
  arcnav_path *path = NULL;
  ck_assert_int_eq(arcnav_planner_create(map, &def, &planner), ARCNAV_OK);
  ck_assert_int_eq(arcnav_path_create(&hooks, &path), ARCNAV_OK);
  arcnav_query *query = NULL;
  ck_assert_int_eq(arcnav_query_create(planner, &query), ARCNAV_OK);
  arcnav_find_path(query, QUERIES[0].start, QUERIES[0].goal, path);
  probe_answers expected = run_probes(query, path);
  arcnav_query_destroy(query);
  bool exact = expected.clearance_status == ARCNAV_OK;
  ck_assert(exact || expected.clearance_status == ARCNAV_ERR_INVALID_ARGUMENT);
  uint64_t n = 1;
  for (; n < MAX_INJECTIONS; ++n) {
    ck_assert_int_eq(arcnav_query_create(planner, &query), ARCNAV_OK);
    arm(&fa, n);
    arcnav_clearance c;
    arcnav_status status = arcnav_query_clearance(query, QUERIES[2].start, &c);
    bool fired = fa.fired;
    disarm(&fa);
    if (fired) {
      ck_assert_int_eq(status, ARCNAV_ERR_OUT_OF_MEMORY);
    }
    uint64_t calls = fa.calls;
    probe_answers got = run_probes(query, path);
    if (!fired) {
      ck_assert_uint_eq(fa.calls, calls); // warm probes allocate nothing
    }
    ck_assert_int_eq(got.clearance_status, expected.clearance_status);
    ck_assert_int_eq(got.ray_status, expected.ray_status);
    ck_assert_int_eq(got.nearest_status, expected.nearest_status);
    ck_assert_int_eq(got.path_status, expected.path_status);
    if (exact) {
      ck_assert(got.clearance.distance == expected.clearance.distance);
      ck_assert(got.ray.hit == expected.ray.hit && got.ray.distance == expected.ray.distance);
      ck_assert(got.nearest.x == expected.nearest.x && got.nearest.y == expected.nearest.y);
      ck_assert(got.path_free == expected.path_free);
    }
    arcnav_query_destroy(query);
    if (!fired) {
      break;
    }
  }
  arcnav_path_destroy(path);
  arcnav_planner_destroy(planner);
  arcnav_map_destroy(map);
  assert_nothing_live(&fa, ec->name, n);
  ck_assert_uint_lt(n, MAX_INJECTIONS);
  if (exact) {
    ck_assert_uint_gt(n, 1); // the first probe allocated
  }
}
END_TEST

// The allocator itself: it must be able to tell a leak and a bad free, or the tests above prove
// nothing.
START_TEST(counting_allocator_sees_leaks) {
  fail_alloc fa = {0};
  void *a = fail_alloc_alloc(24, &fa);
  void *b = fail_alloc_alloc(8, &fa);
  ck_assert_ptr_nonnull(a);
  ck_assert_ptr_nonnull(b);
  ck_assert_uint_eq(fa.live_blocks, 2);
  ck_assert_uint_eq(fa.live_bytes, 32);
  fail_alloc_free(a, &fa);
  ck_assert_uint_eq(fa.live_blocks, 1);
  ck_assert_uint_eq(fa.live_bytes, 8);
  arm(&fa, 2);
  void *c = fail_alloc_alloc(8, &fa);
  ck_assert_ptr_nonnull(c);
  ck_assert(!fa.fired);
  ck_assert_ptr_null(fail_alloc_alloc(8, &fa));
  ck_assert(fa.fired);
  fail_alloc_free(b, &fa);
  fail_alloc_free(c, &fa);
  ck_assert_uint_eq(fa.live_blocks, 0);
  ck_assert_uint_eq(fa.bad_frees, 0);
  fail_alloc_free(NULL, &fa);
  ck_assert_uint_eq(fa.bad_frees, 1);
}
END_TEST

static Suite *alloc_failure_suite(void) {
  Suite *suite = suite_create("alloc_failure");
  TCase *tc = tcase_create("alloc_failure");
  tcase_set_timeout(tc, 300);
  tcase_add_test(tc, counting_allocator_sees_leaks);
  // Loop index: see decode_case(). Sticky failures (every allocation after the first failing
  // too) check that cleanup code needs no memory.
  tcase_add_loop_test(tc, map_build_survives_each_failure, 0, 2);
  tcase_add_loop_test(tc, planner_build_survives_each_failure, 0, ENGINE_CASES);
  tcase_add_loop_test(tc, queries_survive_each_failure, 0, ENGINE_CASES);
  tcase_add_test(tc, funnel_pool_growth_survives_each_failure);
  tcase_add_test(tc, warm_path_does_not_allocate);
  tcase_add_loop_test(tc, first_probe_survives_each_failure, 0, (int)ENGINE_COUNT);
  suite_add_tcase(suite, tc);
  return suite;
}

int main(void) {
  return test_run_suite(alloc_failure_suite());
}
