// SPDX-License-Identifier: MIT
// The query's expansion limit (arcnav_query_set_expansion_limit) on every engine. The least limit
// that lets a query finish is found by bisection, and then:
// - with that limit the path is the unlimited search's, bit for bit;
// - one expansion fewer gives ARCNAV_SEARCH_LIMIT, an empty path and no answer;
// - for the engines that count every expansion in the statistics, the least limit is exactly
//   the unlimited search's nodes_expanded;
// - the same query object, limit removed, finds the same path again.
// A goal walled in needs the whole reachable space searched: a small limit must not pass that
// off as ARCNAV_NO_PATH.
#include "arcnav_test.h"
#include "mapgen.h"

#include <stdio.h>

typedef arcnav_vec2 vec;

typedef struct engine_case {
  const char *name;
  arcnav_engine engine;
  arcnav_tangent_graph tangent_graph;
  bool counts_every_expansion; ///< nodes_expanded is what the limit counts
} engine_case;

static const engine_case ENGINES[] = {
    {"tangent prebuilt", ARCNAV_ENGINE_TANGENT, ARCNAV_TANGENT_GRAPH_PREBUILT, true},
    // Its further looks from a corner count against the limit but not in nodes_expanded.
    {"tangent on demand", ARCNAV_ENGINE_TANGENT, ARCNAV_TANGENT_GRAPH_ON_DEMAND, false},
    {"optimal funnel", ARCNAV_ENGINE_FUNNEL, ARCNAV_TANGENT_GRAPH_AUTO, true},
    {"plain funnel", ARCNAV_ENGINE_PLAIN_FUNNEL, ARCNAV_TANGENT_GRAPH_AUTO, true},
    // The interval search for a disk counts every expansion; a point agent gets what AUTO
    // builds, the optimal funnel or the prebuilt tangent graph, which do too.
    {"interval", ARCNAV_ENGINE_INTERVAL, ARCNAV_TANGENT_GRAPH_AUTO, true},
};
#define ENGINE_COUNT (sizeof ENGINES / sizeof ENGINES[0])

typedef struct run {
  arcnav_planner *planner;
  arcnav_query *query;
  arcnav_path *path;
} run;

static run open_run(const arcnav_map *map, const engine_case *e, double radius) {
  run r = {NULL, NULL, NULL};
  arcnav_planner_def def = arcnav_default_planner_def();
  def.engine = e->engine;
  def.tangent_graph = e->tangent_graph;
  def.radius = radius;
  ck_assert_int_eq(arcnav_planner_create(map, &def, &r.planner), ARCNAV_OK);
  ck_assert_int_eq(arcnav_query_create(r.planner, &r.query), ARCNAV_OK);
  ck_assert_int_eq(arcnav_path_create(NULL, &r.path), ARCNAV_OK);
  return r;
}

static void close_run(run *r) {
  arcnav_path_destroy(r->path);
  arcnav_query_destroy(r->query);
  arcnav_planner_destroy(r->planner);
}

static arcnav_status find_within(run *r, size_t limit, vec s, vec g) {
  ck_assert_int_eq(arcnav_query_set_expansion_limit(r->query, limit), ARCNAV_OK);
  return arcnav_find_path(r->query, s, g, r->path);
}

/// Are the two paths the same, piece by piece and bit for bit?
static bool same_pieces(const arcnav_piece *expected, size_t count, const arcnav_path *path) {
  if (arcnav_path_piece_count(path) != count) {
    return false;
  }
  for (size_t i = 0; i < count; ++i) {
    arcnav_piece p = arcnav_path_piece(path, i);
    const arcnav_piece *q = &expected[i];
    if (p.type != q->type || p.from.x != q->from.x || p.from.y != q->from.y || p.to.x != q->to.x ||
        p.to.y != q->to.y || p.length != q->length) {
      return false;
    }
  }
  return true;
}

/// The least limit under which the query on `r` ends with something other than
/// ARCNAV_SEARCH_LIMIT; `enough` is known to be such a limit.
static size_t least_limit(run *r, vec s, vec g, size_t enough) {
  size_t low = 1, high = enough; // high always lets the query finish
  while (low < high) {
    size_t mid = low + (high - low) / 2;
    if (find_within(r, mid, s, g) == ARCNAV_SEARCH_LIMIT) {
      low = mid + 1;
    } else {
      high = mid;
    }
  }
  return high;
}

/// Checks the limit on one query; returns whether it needed more than one expansion (and so
/// exercised the limit at all).
static bool check_query(run *r, const engine_case *e, double R, vec s, vec g) {
  arcnav_status unlimited = find_within(r, 0, s, g);
  ck_assert_msg(unlimited == ARCNAV_OK || unlimited == ARCNAV_NO_PATH, "%s R=%g: %s", e->name, R,
                arcnav_status_name(unlimited));
  size_t expanded = arcnav_query_get_stats(r->query).nodes_expanded;
  size_t count = arcnav_path_piece_count(r->path);
  arcnav_piece *pieces = malloc((count ? count : 1) * sizeof *pieces);
  ck_assert_ptr_nonnull(pieces);
  for (size_t i = 0; i < count; ++i) {
    pieces[i] = arcnav_path_piece(r->path, i);
  }
  // Far more than these small maps need.
  size_t enough = (size_t)1 << 20;
  ck_assert_int_eq(find_within(r, enough, s, g), unlimited);
  size_t least = least_limit(r, s, g, enough);
  ck_assert_int_eq(find_within(r, least, s, g), unlimited);
  ck_assert_msg(same_pieces(pieces, count, r->path), "%s R=%g: limit %zu changed the path", e->name,
                R, least);
  if (e->counts_every_expansion) {
    // 0 means no limit: the least limit that can be set is 1.
    ck_assert_msg(least == (expanded > 0 ? expanded : 1),
                  "%s R=%g: least limit %zu, but %zu nodes expanded", e->name, R, least, expanded);
  } else {
    ck_assert_msg(least >= expanded, "%s R=%g: least limit %zu below %zu nodes expanded", e->name,
                  R, least, expanded);
  }
  if (least > 1) {
    arcnav_status cut = find_within(r, least - 1, s, g);
    ck_assert_msg(cut == ARCNAV_SEARCH_LIMIT, "%s R=%g: limit %zu gave %s", e->name, R, least - 1,
                  arcnav_status_name(cut));
    ck_assert(!arcnav_status_is_answer(cut));
    ck_assert_uint_eq(arcnav_path_piece_count(r->path), 0);
  }
  // The query object is still good for the whole search.
  ck_assert_int_eq(find_within(r, 0, s, g), unlimited);
  ck_assert(same_pieces(pieces, count, r->path));
  free(pieces);
  return least > 1;
}

START_TEST(test_limit_on_random_maps) {
  const double radii[] = {0.0, 2.0};
  size_t exercised[ENGINE_COUNT] = {0};
  for (uint64_t seed = 1; seed <= test_scaled_count(6); ++seed) {
    sup_map generated = seed % 2 ? sup_gen_random_rectangles(seed, 30, 300.0, 10.0, 50.0)
                                 : sup_gen_mixed(seed, 20, 300.0, 2.0);
    arcnav_map *map = NULL;
    ck_assert_int_eq(sup_map_to_arcnav(&generated, &map), ARCNAV_OK);
    for (size_t k = 0; k < sizeof radii / sizeof radii[0]; ++k) {
      double R = radii[k];
      for (size_t e = 0; e < ENGINE_COUNT; ++e) {
        if ((ENGINES[e].engine == ARCNAV_ENGINE_FUNNEL ||
             ENGINES[e].engine == ARCNAV_ENGINE_PLAIN_FUNNEL) &&
            generated.circle_count > 0) {
          continue; // the funnel engines see circles as 64-gons: many, many triangles
        }
        run r = open_run(map, &ENGINES[e], R);
        sup_rng rng = sup_rng_seed(seed * 7 + k);
        for (int q = 0; q < 4; ++q) {
          vec s, g;
          // Inside the grown obstacles' reach for every engine: 0.5 R beyond the disk.
          ck_assert(sup_random_free_point(&generated, 1.5 * R, &rng, (vec){0, 0}, (vec){300, 300},
                                          0.5, 1000, &s));
          ck_assert(sup_random_free_point(&generated, 1.5 * R, &rng, (vec){0, 0}, (vec){300, 300},
                                          0.5, 1000, &g));
          exercised[e] += check_query(&r, &ENGINES[e], R, s, g);
        }
        close_run(&r);
      }
    }
    arcnav_map_destroy(map);
    sup_map_free(&generated);
  }
  for (size_t e = 0; e < ENGINE_COUNT; ++e) {
    printf("expansion limit: %s: %zu queries needed more than one expansion\n", ENGINES[e].name,
           exercised[e]);
    ck_assert_msg(exercised[e] > 0, "%s: no query tried the limit", ENGINES[e].name);
  }
}
END_TEST

START_TEST(test_limit_is_not_no_path) {
  // The goal inside a room, posts outside to search around. A point agent (R = 0) meets a sealed
  // room; a disk of R = 1 a room whose door, 1.5 wide, lets a point through but not the disk, so
  // that its no_path takes a search on every engine; and a room whose door, 3.5 wide, a post
  // 1 across in its middle narrows to two gaps of 1.25: the triangulation of the polygons, which
  // proves some no_path answers without a search, leaves circles out, so the interval engine
  // searches there.
  vec s = {10, 60}, g = {120, 120};
  size_t searched[ENGINE_COUNT] = {0};
  for (int k = 0; k < 3; ++k) {
    double R = k == 0 ? 0.0 : 1.0;
    double door = k == 1 ? 0.75 : 1.75; // half its width
    arcnav_map *map = NULL;
    ck_assert_int_eq(arcnav_map_create(NULL, &map), ARCNAV_OK);
    test_add_sealed_room(map, 5);
    if (k >= 1) {
      // The door: the bottom wall again, as two pieces either side of it.
      arcnav_map_destroy(map);
      ck_assert_int_eq(arcnav_map_create(NULL, &map), ARCNAV_OK);
      ck_assert_int_eq(test_add_box(map, 100, 100, 120 - door, 104), ARCNAV_OK);
      ck_assert_int_eq(test_add_box(map, 120 + door, 100, 140, 104), ARCNAV_OK);
      if (k == 2) {
        ck_assert_int_eq(arcnav_map_add_circle(map, (vec){120, 102}, 0.5, NULL), ARCNAV_OK);
      }
      ck_assert_int_eq(test_add_box(map, 100, 136, 140, 140), ARCNAV_OK);
      ck_assert_int_eq(test_add_box(map, 100, 100, 104, 140), ARCNAV_OK);
      ck_assert_int_eq(test_add_box(map, 136, 100, 140, 140), ARCNAV_OK);
      for (int i = 0; i < 5; ++i) {
        ck_assert_int_eq(test_add_box(map, 20 + 15 * i, 40, 26 + 15 * i, 80), ARCNAV_OK);
      }
    }
    for (size_t e = 0; e < ENGINE_COUNT; ++e) {
      run r = open_run(map, &ENGINES[e], R);
      ck_assert_int_eq(find_within(&r, 0, s, g), ARCNAV_NO_PATH);
      size_t expanded = arcnav_query_get_stats(r.query).nodes_expanded;
      if (expanded == 0) {
        // Ends in parts of the mesh that do not meet: a proof that needs no search, so no limit
        // stops it.
        ck_assert_int_eq(find_within(&r, 1, s, g), ARCNAV_NO_PATH);
        ck_assert(!check_query(&r, &ENGINES[e], R, s, g));
      } else {
        ck_assert_msg(expanded > 1, "%s R=%g: only %zu expanded", ENGINES[e].name, R, expanded);
        ck_assert_int_eq(find_within(&r, 1, s, g), ARCNAV_SEARCH_LIMIT);
        ck_assert(check_query(&r, &ENGINES[e], R, s, g));
        searched[e]++;
      }
      close_run(&r);
    }
    arcnav_map_destroy(map);
  }
  for (size_t e = 0; e < ENGINE_COUNT; ++e) {
    ck_assert_msg(searched[e] > 0, "%s: no no_path needed a search", ENGINES[e].name);
  }
}
END_TEST

START_TEST(test_limit_arguments) {
  ck_assert_int_eq(arcnav_query_set_expansion_limit(NULL, 10), ARCNAV_ERR_INVALID_ARGUMENT);
  ck_assert_str_eq(arcnav_status_name(ARCNAV_SEARCH_LIMIT), "search_limit");
  ck_assert(!arcnav_status_is_answer(ARCNAV_SEARCH_LIMIT));
  ck_assert_int_lt(ARCNAV_SEARCH_LIMIT, ARCNAV_ERR_FIRST);
}
END_TEST

static Suite *expansion_limit_suite(void) {
  Suite *suite = suite_create("expansion_limit");
  TCase *tc = tcase_create("every engine");
  tcase_set_timeout(tc, 300);
  tcase_add_test(tc, test_limit_on_random_maps);
  tcase_add_test(tc, test_limit_is_not_no_path);
  tcase_add_test(tc, test_limit_arguments);
  suite_add_tcase(suite, tc);
  return suite;
}

int main(void) {
  return test_run_suite(expansion_limit_suite());
}
