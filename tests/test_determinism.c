// SPDX-License-Identifier: MIT
// Same input, same output, bit for bit: a 64-bit FNV-1a hash of the raw bits of every answer
// (status, piece types and directions, every coordinate, radius, sweep and length as its IEEE-754
// bit pattern, and the path length) over fixed maps (the NEERC sample, generated maps with fixed
// seeds), fixed queries, several radii and every engine. The hashes are compared with the ones
// committed in tests/data/determinism.hash, one per engine, so a change of any answer in any bit
// shows up, and which engine it came from.
//
// The stored hashes are not known-good answers: they only pin down what the code produced when
// they were written (correctness is the business of the other tests). When a change is meant to
// alter answers (a different but valid floating-point evaluation order in the tangent planner,
// say), regenerate the file deliberately and commit it with that change:
//
//   ARCNAV_DETERMINISM_WRITE=1 ./build/tests/test_determinism
//
// The test prints the computed hashes either way. scripts/determinism.sh builds this test at -O0
// and at -O2 and checks that both give the same hashes.
#include "arcnav_test.h"
#include "mapgen.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef arcnav_vec2 vec;

#define HASH_FILE ARCNAV_TEST_DATA_DIR "/determinism.hash"
#define MAX_QUERIES 24
#define MAX_RADII 4
#define MAX_SCENES 16

// ---- FNV-1a ----------------------------------------------------------------------------------

#define FNV_OFFSET 0xcbf29ce484222325ull
#define FNV_PRIME 0x100000001b3ull

static void hash_bytes(uint64_t *h, const void *data, size_t size) {
  const unsigned char *p = data;
  for (size_t i = 0; i < size; ++i) {
    *h ^= p[i];
    *h *= FNV_PRIME;
  }
}

// Integers are fed as fixed-width little-endian values and doubles as their bit patterns, so the
// hash does not depend on struct padding or on the platform's enum and bool sizes.
static void hash_u64(uint64_t *h, uint64_t v) {
  unsigned char bytes[8];
  for (int i = 0; i < 8; ++i) {
    bytes[i] = (unsigned char)(v >> (8 * i));
  }
  hash_bytes(h, bytes, sizeof bytes);
}

static void hash_double(uint64_t *h, double d) {
  uint64_t bits;
  memcpy(&bits, &d, sizeof bits);
  hash_u64(h, bits);
}

static void hash_vec(uint64_t *h, vec v) {
  hash_double(h, v.x);
  hash_double(h, v.y);
}

// ---- scenes ----------------------------------------------------------------------------------

typedef struct scene {
  char name[48];
  sup_map map;
  double radii[MAX_RADII];
  size_t radius_count;
  sup_query queries[MAX_QUERIES];
  size_t query_count;
} scene;

/// Queries from a fixed generator: free points for a point agent (so most queries mean
/// something), in a box slightly larger than the map.
static void add_random_queries(scene *sc, uint64_t seed, size_t count) {
  sup_rng rng = sup_rng_seed(seed);
  vec lo, hi;
  ck_assert(sup_map_extent(&sc->map, &lo, &hi));
  double margin = 0.05 * (hi.x - lo.x + hi.y - lo.y);
  if (!sc->map.has_bounds) {
    lo = (vec){lo.x - margin, lo.y - margin};
    hi = (vec){hi.x + margin, hi.y + margin};
  }
  for (size_t i = 0; i < count && sc->query_count < MAX_QUERIES; ++i) {
    vec a, b;
    ck_assert(sup_random_free_point(&sc->map, 0.0, &rng, lo, hi, 0.0, 1000, &a));
    ck_assert(sup_random_free_point(&sc->map, 0.0, &rng, lo, hi, 0.0, 1000, &b));
    sc->queries[sc->query_count++] = (sup_query){a, b};
  }
}

static char *slurp(const char *file) {
  FILE *f = fopen(file, "rb");
  ck_assert_msg(f != NULL, "cannot open %s", file);
  ck_assert_int_eq(fseek(f, 0, SEEK_END), 0);
  long size = ftell(f);
  ck_assert_int_ge(size, 0);
  rewind(f);
  char *text = malloc((size_t)size + 1);
  ck_assert_ptr_nonnull(text);
  ck_assert_uint_eq(fread(text, 1, (size_t)size, f), (size_t)size);
  text[size] = '\0';
  fclose(f);
  return text;
}

/// NEERC 2006 D input: per case "r n", "ax ay bx by", then n rectangles "x1 y1 x2 y2", until the
/// end of the file. Each case becomes a scene with radii r and 0 and the case's own query first.
static size_t add_neerc_scenes(scene *scenes, size_t count) {
  char *text = slurp(ARCNAV_TEST_DATA_DIR "/neerc_sample.in");
  char *p = text;
  size_t cases = 0;
  for (;;) {
    char *end;
    double r = strtod(p, &end);
    if (end == p) {
      break;
    }
    p = end;
    double values[5];
    for (int i = 0; i < 5; ++i) {
      values[i] = strtod(p, &end);
      ck_assert_msg(end != p, "neerc_sample.in: case %zu is cut short", cases + 1);
      p = end;
    }
    ck_assert_uint_lt(count, MAX_SCENES);
    scene *sc = &scenes[count++];
    memset(sc, 0, sizeof *sc);
    snprintf(sc->name, sizeof sc->name, "neerc sample %zu", ++cases);
    sup_map_init(&sc->map);
    size_t n = (size_t)values[0];
    for (size_t k = 0; k < n; ++k) {
      double c[4];
      for (int i = 0; i < 4; ++i) {
        c[i] = strtod(p, &end);
        ck_assert_msg(end != p, "neerc_sample.in: rectangle %zu of case %zu is cut short", k,
                      cases);
        p = end;
      }
      sup_map_add_rect(&sc->map, fmin(c[0], c[2]), fmin(c[1], c[3]), fmax(c[0], c[2]),
                       fmax(c[1], c[3]));
    }
    sc->radii[sc->radius_count++] = r;
    sc->radii[sc->radius_count++] = 0.0;
    sc->queries[sc->query_count++] = (sup_query){{values[1], values[2]}, {values[3], values[4]}};
    add_random_queries(sc, 1000 + cases, 8);
  }
  free(text);
  ck_assert_uint_eq(cases, 3);
  return count;
}

static size_t make_scenes(scene *scenes) {
  size_t count = add_neerc_scenes(scenes, 0);
  struct {
    const char *name;
    sup_map map;
    double radii[3];
  } generated[] = {
      {"random rectangles", sup_gen_random_rectangles(7, 24, 300.0, 10.0, 50.0), {0.0, 2.0, 7.5}},
      {"neerc worst case", sup_gen_neerc_worst(8), {0.0, 1.0, 20.0}},
      {"mixed 1", sup_gen_mixed(21, 10, 100.0, 2.0), {0.0, 0.5, 2.0}},
      {"mixed 2", sup_gen_mixed(22, 14, 100.0, 3.0), {0.0, 1.0, 3.0}},
      {"mixed 3", sup_gen_mixed(25, 8, 100.0, 2.5), {0.0, 0.75, 2.5}},
  };
  for (size_t g = 0; g < sizeof generated / sizeof generated[0]; ++g) {
    scene *sc = &scenes[count++];
    memset(sc, 0, sizeof *sc);
    snprintf(sc->name, sizeof sc->name, "%s", generated[g].name);
    sc->map = generated[g].map;
    for (size_t r = 0; r < 3; ++r) {
      sc->radii[sc->radius_count++] = generated[g].radii[r];
    }
    add_random_queries(sc, 77 + g, 16);
  }
  return count;
}

static void free_scenes(scene *scenes, size_t count) {
  for (size_t i = 0; i < count; ++i) {
    sup_map_free(&scenes[i].map);
  }
}

// ---- hashing the answers -------------------------------------------------------------------

// One hash per engine as asked of the planner; AUTO is hashed on its own although it answers
// through one of the others, so that a change in its choice shows up too.
static const struct {
  const char *name;
  arcnav_engine engine;
  bool point_only; ///< the funnel engines answer only for R = 0
  arcnav_tangent_graph tangent_graph;
} ENGINES[] = {
    {"tangent", ARCNAV_ENGINE_TANGENT, false, ARCNAV_TANGENT_GRAPH_AUTO},
    {"funnel", ARCNAV_ENGINE_FUNNEL, true, ARCNAV_TANGENT_GRAPH_AUTO},
    {"plain_funnel", ARCNAV_ENGINE_PLAIN_FUNNEL, true, ARCNAV_TANGENT_GRAPH_AUTO},
    {"auto", ARCNAV_ENGINE_AUTO, false, ARCNAV_TANGENT_GRAPH_AUTO},
    {"tangent_on_demand", ARCNAV_ENGINE_TANGENT, false, ARCNAV_TANGENT_GRAPH_ON_DEMAND},
    {"interval", ARCNAV_ENGINE_INTERVAL, false, ARCNAV_TANGENT_GRAPH_AUTO},
};
#define ENGINE_COUNT (sizeof ENGINES / sizeof ENGINES[0])

static void hash_path(uint64_t *h, arcnav_status status, const arcnav_path *path) {
  hash_u64(h, (uint64_t)status);
  size_t count = arcnav_path_piece_count(path);
  hash_u64(h, count);
  for (size_t i = 0; i < count; ++i) {
    arcnav_piece piece = arcnav_path_piece(path, i);
    hash_u64(h, (uint64_t)piece.type);
    hash_vec(h, piece.from);
    hash_vec(h, piece.to);
    if (piece.type == ARCNAV_PIECE_ARC) {
      hash_u64(h, piece.ccw ? 1u : 0u);
      hash_vec(h, piece.center);
      hash_double(h, piece.radius);
      hash_double(h, piece.sweep);
    }
    hash_double(h, piece.length);
  }
  hash_double(h, arcnav_path_length(path));
}

typedef struct run_totals {
  uint64_t hash[ENGINE_COUNT];
  size_t found, answers;
} run_totals;

static run_totals hash_everything(const scene *scenes, size_t scene_count) {
  run_totals totals;
  memset(&totals, 0, sizeof totals);
  arcnav_path *path = NULL;
  ck_assert_int_eq(arcnav_path_create(NULL, &path), ARCNAV_OK);
  for (size_t e = 0; e < ENGINE_COUNT; ++e) {
    uint64_t h = FNV_OFFSET;
    for (size_t s = 0; s < scene_count; ++s) {
      const scene *sc = &scenes[s];
      arcnav_map *map = NULL;
      ck_assert_int_eq(sup_map_to_arcnav(&sc->map, &map), ARCNAV_OK);
      for (size_t r = 0; r < sc->radius_count; ++r) {
        if (ENGINES[e].point_only && sc->radii[r] != 0.0) {
          continue;
        }
        arcnav_planner_def def = arcnav_default_planner_def();
        def.engine = ENGINES[e].engine;
        def.tangent_graph = ENGINES[e].tangent_graph;
        def.radius = sc->radii[r];
        arcnav_planner *planner = NULL;
        arcnav_query *query = NULL;
        ck_assert_msg(arcnav_planner_create(map, &def, &planner) == ARCNAV_OK, "%s, %s, R = %g",
                      sc->name, ENGINES[e].name, sc->radii[r]);
        ck_assert_int_eq(arcnav_query_create(planner, &query), ARCNAV_OK);
        hash_u64(&h, s);
        hash_double(&h, sc->radii[r]);
        hash_u64(&h, (uint64_t)arcnav_planner_engine(planner));
        for (size_t q = 0; q < sc->query_count; ++q) {
          arcnav_status status =
              arcnav_find_path(query, sc->queries[q].start, sc->queries[q].goal, path);
          ck_assert_msg(arcnav_status_is_answer(status), "%s, %s, R = %g, query %zu: %s", sc->name,
                        ENGINES[e].name, sc->radii[r], q, arcnav_status_name(status));
          hash_path(&h, status, path);
          totals.answers++;
          totals.found += status == ARCNAV_OK;
        }
        arcnav_query_destroy(query);
        arcnav_planner_destroy(planner);
      }
      arcnav_map_destroy(map);
    }
    totals.hash[e] = h;
  }
  arcnav_path_destroy(path);
  return totals;
}

// ---- the hash file ---------------------------------------------------------------------------

static void write_hash_file(const run_totals *t) {
  FILE *f = fopen(HASH_FILE, "w");
  ck_assert_msg(f != NULL, "cannot write %s", HASH_FILE);
  fprintf(f, "# 64-bit FNV-1a of the bits of every path of tests/test_determinism.c, per engine.\n"
             "# Regenerate deliberately (see that file): ARCNAV_DETERMINISM_WRITE=1 "
             "build/tests/test_determinism\n");
  for (size_t e = 0; e < ENGINE_COUNT; ++e) {
    fprintf(f, "%s %016" PRIx64 "\n", ENGINES[e].name, t->hash[e]);
  }
  ck_assert_int_eq(fclose(f), 0);
}

/// Reads "name hex" lines (and '#' comments); false when the engine's line is missing.
static bool stored_hash(const char *text, const char *engine, uint64_t *out) {
  const char *line = text;
  while (line && *line) {
    const char *next = strchr(line, '\n');
    size_t len = strlen(engine);
    if (*line != '#' && strncmp(line, engine, len) == 0 && line[len] == ' ') {
      char *end;
      unsigned long long v = strtoull(line + len + 1, &end, 16);
      if (end != line + len + 1) {
        *out = (uint64_t)v;
        return true;
      }
    }
    line = next ? next + 1 : NULL;
  }
  return false;
}

START_TEST(fnv1a_matches_reference_vectors) {
  // Published FNV-1a 64 test vectors: the empty string and "a".
  uint64_t h = FNV_OFFSET;
  ck_assert_uint_eq(h, 0xcbf29ce484222325ull);
  hash_bytes(&h, "a", 1);
  ck_assert_uint_eq(h, 0xaf63dc4c8601ec8cull);
  h = FNV_OFFSET;
  hash_bytes(&h, "foobar", 6);
  ck_assert_uint_eq(h, 0x85944171f73967e8ull);
}
END_TEST

START_TEST(paths_match_stored_hashes) {
  static scene scenes[MAX_SCENES];
  size_t count = make_scenes(scenes);
  run_totals first = hash_everything(scenes, count);
  // Repeat in the same process on fresh objects: no hidden state may leak between runs.
  run_totals second = hash_everything(scenes, count);
  for (size_t e = 0; e < ENGINE_COUNT; ++e) {
    printf("determinism %s %016" PRIx64 "\n", ENGINES[e].name, first.hash[e]);
    ck_assert_msg(first.hash[e] == second.hash[e], "%s: two runs in one process differ",
                  ENGINES[e].name);
  }
  printf("determinism: %zu answers, %zu paths found\n", first.answers, first.found);
  fflush(stdout); // Check's forked child may end without flushing
  // The hash must cover real paths, not a table of "no path".
  ck_assert_uint_gt(first.found, first.answers / 2);
  free_scenes(scenes, count);

  const char *write = getenv("ARCNAV_DETERMINISM_WRITE");
  if (write && strcmp(write, "1") == 0) {
    write_hash_file(&first);
    printf("determinism: wrote %s\n", HASH_FILE);
    return;
  }
  char *stored = slurp(HASH_FILE);
  size_t differing = 0;
  for (size_t e = 0; e < ENGINE_COUNT; ++e) {
    uint64_t want = 0;
    ck_assert_msg(stored_hash(stored, ENGINES[e].name, &want), "%s has no line for %s", HASH_FILE,
                  ENGINES[e].name);
    if (want != first.hash[e]) {
      fprintf(stderr, "determinism: %s paths changed: %016" PRIx64 " stored, %016" PRIx64 " now\n",
              ENGINES[e].name, want, first.hash[e]);
      differing++;
    }
  }
  free(stored);
  ck_assert_msg(differing == 0,
                "%zu engine(s) answer differently from %s; if intended, regenerate it with "
                "ARCNAV_DETERMINISM_WRITE=1",
                differing, HASH_FILE);
}
END_TEST

static Suite *determinism_suite(void) {
  Suite *suite = suite_create("determinism");
  TCase *tc = tcase_create("determinism");
  tcase_set_timeout(tc, 300);
  tcase_add_test(tc, fnv1a_matches_reference_vectors);
  tcase_add_test(tc, paths_match_stored_hashes);
  suite_add_tcase(suite, tc);
  return suite;
}

int main(void) {
  return test_run_suite(determinism_suite());
}
