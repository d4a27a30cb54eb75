// SPDX-License-Identifier: MIT
// arcnav_query_reachable() against path searches: on every kind of generated map, at several
// radii, on planners of one radius and on ranged ones, every answer must equal whether a prebuilt
// tangent planner's search finds a path; and the passages must tell most answers without a search
// (the no of the widest passages, the yes of the sure ones). Hand-made doors check the bounds at a
// gap of exactly 2R, units and the ignore list, and the statuses.
#include "arcnav_test.h"
#include "mapgen.h"

#include <stdio.h>

typedef arcnav_vec2 vec;

typedef struct counts {
  size_t asked, searched, decided_yes, decided_no;
} counts;

static arcnav_planner *make_planner(const arcnav_map *map, double radius, double max_radius,
                                    arcnav_engine engine, arcnav_tangent_graph graph) {
  arcnav_planner_def def = arcnav_default_planner_def();
  def.radius = radius;
  def.max_radius = max_radius;
  def.engine = engine;
  def.tangent_graph = graph;
  arcnav_planner *planner = NULL;
  ck_assert_int_eq(arcnav_planner_create(map, &def, &planner), ARCNAV_OK);
  return planner;
}

// Asks `query` whether `to` can be reached from `from`, and checks the answer against the path
// search of `reference` (a prebuilt tangent planner for the same radius).
static void check_pair(arcnav_query *query, arcnav_query *reference, arcnav_path *path, vec from,
                       vec to, const char *label, counts *c) {
  bool reachable = true, searched = true;
  arcnav_status status = arcnav_query_reachable(query, from, to, &reachable, &searched);
  arcnav_status expected = arcnav_find_path(reference, from, to, path);
  ck_assert_msg(expected == ARCNAV_OK || expected == ARCNAV_NO_PATH ||
                    expected == ARCNAV_START_BLOCKED || expected == ARCNAV_GOAL_BLOCKED,
                "%s: reference answered %s", label, arcnav_status_name(expected));
  ck_assert_msg(status == expected,
                "%s: (%.17g, %.17g) to (%.17g, %.17g): reachable says %s (searched %d), the "
                "search %s",
                label, from.x, from.y, to.x, to.y, arcnav_status_name(status), (int)searched,
                arcnav_status_name(expected));
  ck_assert(reachable == (status == ARCNAV_OK));
  if (status != ARCNAV_OK && status != ARCNAV_NO_PATH) {
    return;
  }
  c->asked++;
  if (searched) {
    c->searched++;
  } else if (reachable) {
    c->decided_yes++;
  } else {
    c->decided_no++;
  }
  // Nothing counted when nothing searched.
  if (!searched) {
    ck_assert_uint_eq(arcnav_query_get_stats(query).nodes_expanded, 0);
  }
}

START_TEST(reachable_agrees_with_the_search) {
  counts all = {0, 0, 0, 0};
  size_t point_yes = 0;
  arcnav_path *path = NULL;
  ck_assert_int_eq(arcnav_path_create(NULL, &path), ARCNAV_OK);
  for (int kind = 0; kind < SUP_MAP_KINDS; ++kind) {
    for (uint64_t seed = 1; seed <= 3; ++seed) {
      sup_kind_map t = sup_gen_kind(kind, seed);
      arcnav_map *map = NULL;
      ck_assert_int_eq(sup_map_to_arcnav(&t.map, &map), ARCNAV_OK);
      double max_radius = 2.0 * t.radius;
      arcnav_planner *ranged = make_planner(map, t.radius, max_radius, ARCNAV_ENGINE_AUTO, 0);
      arcnav_planner *intervals =
          make_planner(map, t.radius, max_radius, ARCNAV_ENGINE_INTERVAL, 0);
      arcnav_query *on_ranged = NULL, *on_intervals = NULL;
      ck_assert_int_eq(arcnav_query_create(ranged, &on_ranged), ARCNAV_OK);
      ck_assert_int_eq(arcnav_query_create(intervals, &on_intervals), ARCNAV_OK);
      vec lo, hi;
      ck_assert(sup_map_extent(&t.map, &lo, &hi));
      // R = 0 too: the optimal funnel (AUTO among polygons) tells by the mesh's parts.
      double radii[4] = {0.0, 0.5 * t.radius, t.radius, max_radius};
      for (int r = 0; r < 4; ++r) {
        double radius = radii[r];
        arcnav_planner *own =
            make_planner(map, radius, 0.0, r == 0 ? ARCNAV_ENGINE_AUTO : ARCNAV_ENGINE_TANGENT,
                         ARCNAV_TANGENT_GRAPH_AUTO);
        arcnav_planner *reference =
            make_planner(map, radius, 0.0, ARCNAV_ENGINE_TANGENT, ARCNAV_TANGENT_GRAPH_PREBUILT);
        arcnav_query *on_own = NULL, *on_reference = NULL;
        ck_assert_int_eq(arcnav_query_create(own, &on_own), ARCNAV_OK);
        ck_assert_int_eq(arcnav_query_create(reference, &on_reference), ARCNAV_OK);
        ck_assert_int_eq(arcnav_query_set_radius(on_ranged, radius), ARCNAV_OK);
        ck_assert_int_eq(arcnav_query_set_radius(on_intervals, radius), ARCNAV_OK);
        sup_rng rng = sup_rng_seed(seed * 97 + (uint64_t)kind * 7 + (uint64_t)r);
        char label[96];
        for (int i = 0; i < 40; ++i) {
          vec from, to;
          if (!sup_random_free_point(&t.map, radius, &rng, lo, hi, 0.0, 200, &from) ||
              !sup_random_free_point(&t.map, radius, &rng, lo, hi, 0.0, 200, &to)) {
            continue;
          }
          snprintf(label, sizeof label, "%s seed %d R %g", t.label, (int)seed, radius);
          size_t before = all.decided_yes;
          check_pair(on_own, on_reference, path, from, to, label, &all);
          point_yes += r == 0 ? all.decided_yes - before : 0;
          check_pair(on_ranged, on_reference, path, from, to, label, &all);
          check_pair(on_intervals, on_reference, path, from, to, label, &all);
        }
        arcnav_query_destroy(on_own);
        arcnav_query_destroy(on_reference);
        arcnav_planner_destroy(own);
        arcnav_planner_destroy(reference);
      }
      arcnav_query_destroy(on_ranged);
      arcnav_query_destroy(on_intervals);
      arcnav_planner_destroy(ranged);
      arcnav_planner_destroy(intervals);
      arcnav_map_destroy(map);
      sup_map_free(&t.map);
    }
  }
  arcnav_path_destroy(path);
  printf("reachable: %zu answers, %zu by a search, %zu yes and %zu no without one\n", all.asked,
         all.searched, all.decided_yes, all.decided_no);
  // The passages must do their work: most answers without a search, both ways.
  ck_assert_uint_gt(all.decided_yes + all.decided_no, all.asked * 3 / 4);
  ck_assert_uint_gt(all.decided_no, 0);
  ck_assert_uint_gt(point_yes, 0);
}
END_TEST

// The funnel engines at R > 0 plan on obstacles grown by R (an eroded mesh), which the exact
// engines do not: their answers are checked against their own search, on a second query object.
START_TEST(funnel_engines_agree_with_their_own_search) {
  counts all = {0, 0, 0, 0};
  arcnav_path *path = NULL;
  ck_assert_int_eq(arcnav_path_create(NULL, &path), ARCNAV_OK);
  arcnav_engine engines[2] = {ARCNAV_ENGINE_FUNNEL, ARCNAV_ENGINE_PLAIN_FUNNEL};
  for (int kind = 0; kind < SUP_MAP_KINDS; ++kind) {
    for (uint64_t seed = 1; seed <= 2; ++seed) {
      sup_kind_map t = sup_gen_kind(kind, seed);
      arcnav_map *map = NULL;
      ck_assert_int_eq(sup_map_to_arcnav(&t.map, &map), ARCNAV_OK);
      vec lo, hi;
      ck_assert(sup_map_extent(&t.map, &lo, &hi));
      for (int e = 0; e < 2; ++e) {
        for (int r = 0; r < 2; ++r) {
          double radius = r == 0 ? 0.0 : t.radius;
          arcnav_planner *planner = make_planner(map, radius, 0.0, engines[e], 0);
          arcnav_query *asked = NULL, *searched = NULL;
          ck_assert_int_eq(arcnav_query_create(planner, &asked), ARCNAV_OK);
          ck_assert_int_eq(arcnav_query_create(planner, &searched), ARCNAV_OK);
          sup_rng rng = sup_rng_seed(seed * 31 + (uint64_t)kind * 5 + (uint64_t)(2 * e + r));
          char label[96];
          snprintf(label, sizeof label, "%s seed %d engine %d R %g", t.label, (int)seed,
                   (int)engines[e], radius);
          for (int i = 0; i < 30; ++i) {
            vec from, to;
            if (sup_random_free_point(&t.map, radius, &rng, lo, hi, 0.0, 200, &from) &&
                sup_random_free_point(&t.map, radius, &rng, lo, hi, 0.0, 200, &to)) {
              check_pair(asked, searched, path, from, to, label, &all);
            }
          }
          arcnav_query_destroy(asked);
          arcnav_query_destroy(searched);
          arcnav_planner_destroy(planner);
        }
      }
      arcnav_map_destroy(map);
      sup_map_free(&t.map);
    }
  }
  arcnav_path_destroy(path);
  printf("funnel engines: %zu answers, %zu by a search, %zu yes without one\n", all.asked,
         all.searched, all.decided_yes);
  ck_assert_uint_gt(all.decided_yes, all.asked / 2);
}
END_TEST

// A box split by a wall 2 thick with a door `door` wide in its middle; the disk goes from the left
// room to the right one only through the door.
static arcnav_map *door_map_with(double door, const arcnav_allocator *hooks) {
  arcnav_map *map = NULL;
  ck_assert_int_eq(arcnav_map_create(hooks, &map), ARCNAV_OK);
  vec bounds[4] = {{0.0, 0.0}, {100.0, 0.0}, {100.0, 50.0}, {0.0, 50.0}};
  ck_assert_int_eq(arcnav_map_set_bounds(map, bounds, 4, NULL), ARCNAV_OK);
  double low = 25.0 - 0.5 * door, high = 25.0 + 0.5 * door;
  vec below[4] = {{49.0, 0.0}, {51.0, 0.0}, {51.0, low}, {49.0, low}};
  vec above[4] = {{49.0, high}, {51.0, high}, {51.0, 50.0}, {49.0, 50.0}};
  ck_assert_int_eq(arcnav_map_add_polygon(map, below, 4, NULL, NULL, 0, NULL), ARCNAV_OK);
  ck_assert_int_eq(arcnav_map_add_polygon(map, above, 4, NULL, NULL, 0, NULL), ARCNAV_OK);
  return map;
}

static arcnav_map *door_map(double door) {
  return door_map_with(door, NULL);
}

// The door map with a circle in the left room: a point agent's planner is then the tangent
// engine's, whose polygons' triangulation does not hold the circle, and it searches.
static arcnav_map *door_map_with_circle(const arcnav_allocator *hooks) {
  arcnav_map *map = door_map_with(8.0, hooks);
  ck_assert_int_eq(arcnav_map_add_circle(map, (vec){20.0, 10.0}, 2.0, NULL), ARCNAV_OK);
  return map;
}

START_TEST(doors_open_at_exactly_two_radii) {
  const double radius = 2.0;
  // Each door on a planner of its radius and on a ranged one: a door of exactly 2R is open, a
  // door narrower by a hair more than the tolerance allows is shut, and a wide one is open.
  double doors[4] = {4.0, 4.0 - 1e-6, 8.0, 2.0};
  bool open[4] = {true, false, true, false};
  for (int k = 0; k < 4; ++k) {
    arcnav_map *map = door_map(doors[k]);
    for (int ranged = 0; ranged < 2; ++ranged) {
      arcnav_planner *planner = make_planner(map, radius, ranged ? 3.0 * radius : 0.0,
                                             ranged ? ARCNAV_ENGINE_INTERVAL : ARCNAV_ENGINE_AUTO,
                                             ARCNAV_TANGENT_GRAPH_AUTO);
      arcnav_query *query = NULL;
      ck_assert_int_eq(arcnav_query_create(planner, &query), ARCNAV_OK);
      bool reachable = !open[k], searched = true;
      arcnav_status status = arcnav_query_reachable(query, (vec){20.0, 25.0}, (vec){80.0, 25.0},
                                                    &reachable, &searched);
      ck_assert_msg(status == (open[k] ? ARCNAV_OK : ARCNAV_NO_PATH), "door %.17g, ranged %d: %s",
                    doors[k], ranged, arcnav_status_name(status));
      ck_assert(reachable == open[k]);
      // Away from the exact fit the passages tell: a door a hair narrower than 2R is narrower
      // than the widest passages allow, and through a wide one the midpoints of the portals see
      // each other. At exactly 2R the disk must leave the door square to the wall, which links
      // between midpoints need not do: a search may tell.
      ck_assert_msg(doors[k] == 2.0 * radius || !searched, "door %.17g, ranged %d needed a search",
                    doors[k], ranged);
      // In one room, always.
      ck_assert_int_eq(
          arcnav_query_reachable(query, (vec){5.0, 5.0}, (vec){40.0, 45.0}, &reachable, NULL),
          ARCNAV_OK);
      ck_assert(reachable);
      arcnav_query_destroy(query);
      arcnav_planner_destroy(planner);
    }
    arcnav_map_destroy(map);
  }
}
END_TEST

// The door map turned by `angle` about (50, 25), with a door `door` wide whose middle is `shift`
// off the wall's middle; the bounds turn with it. With `at_face` the wall ends `door` above the
// bounds' lower edge instead: a gap between a vertex and the middle of an edge, which the
// triangulation's portals (from the wall's end to the box's far corners) overrate.
static arcnav_map *turned_door_map(double door, double shift, double angle, bool at_face) {
  double c = cos(angle), s = sin(angle);
  double low = at_face ? door : 25.0 + shift - 0.5 * door, high = 25.0 + shift + 0.5 * door;
  vec pts[3][4] = {{{0.0, 0.0}, {100.0, 0.0}, {100.0, 50.0}, {0.0, 50.0}},
                   {{49.0, 0.0}, {51.0, 0.0}, {51.0, low}, {49.0, low}},
                   {{49.0, high}, {51.0, high}, {51.0, 50.0}, {49.0, 50.0}}};
  if (at_face) {
    vec wall[4] = {{49.0, low}, {51.0, low}, {51.0, 50.0}, {49.0, 50.0}};
    memcpy(pts[2], wall, sizeof wall);
  }
  for (int r = 0; r < 3; ++r) {
    for (int k = 0; k < 4; ++k) {
      vec d = {pts[r][k].x - 50.0, pts[r][k].y - 25.0};
      pts[r][k] = (vec){50.0 + c * d.x - s * d.y, 25.0 + s * d.x + c * d.y};
    }
  }
  arcnav_map *map = NULL;
  ck_assert_int_eq(arcnav_map_create(NULL, &map), ARCNAV_OK);
  ck_assert_int_eq(arcnav_map_set_bounds(map, pts[0], 4, NULL), ARCNAV_OK);
  if (!at_face) {
    ck_assert_int_eq(arcnav_map_add_polygon(map, pts[1], 4, NULL, NULL, 0, NULL), ARCNAV_OK);
  }
  ck_assert_int_eq(arcnav_map_add_polygon(map, pts[2], 4, NULL, NULL, 0, NULL), ARCNAV_OK);
  return map;
}

START_TEST(doors_of_every_width) {
  // Doors from 1.6 R to 2.4 R wide, turned and shifted, the only way between two rooms: a yes
  // the passages give through a door too narrow, or a no through one wide enough, is wrong. Every
  // other door is a gap between the wall's end and the bounds' face, where only the sure
  // passages can tell.
  const double radius = 2.0;
  counts all = {0, 0, 0, 0};
  arcnav_path *path = NULL;
  ck_assert_int_eq(arcnav_path_create(NULL, &path), ARCNAV_OK);
  sup_rng rng = sup_rng_seed(2024);
  for (int k = 0; k <= 40; ++k) {
    double door = 2.0 * radius * (0.8 + 0.4 * k / 40.0);
    double angle = sup_rng_uniform(&rng, 0.0, 2.0 * TEST_PI);
    double shift = sup_rng_uniform(&rng, -10.0, 10.0);
    arcnav_map *map = turned_door_map(door, shift, angle, k % 2 == 1);
    arcnav_planner *own = make_planner(map, radius, 0.0, ARCNAV_ENGINE_AUTO, 0);
    arcnav_planner *ranged = make_planner(map, radius, 2.0 * radius, ARCNAV_ENGINE_INTERVAL, 0);
    arcnav_planner *reference =
        make_planner(map, radius, 0.0, ARCNAV_ENGINE_TANGENT, ARCNAV_TANGENT_GRAPH_PREBUILT);
    arcnav_query *on_own = NULL, *on_ranged = NULL, *on_reference = NULL;
    ck_assert_int_eq(arcnav_query_create(own, &on_own), ARCNAV_OK);
    ck_assert_int_eq(arcnav_query_create(ranged, &on_ranged), ARCNAV_OK);
    ck_assert_int_eq(arcnav_query_create(reference, &on_reference), ARCNAV_OK);
    char label[64];
    snprintf(label, sizeof label, "door %.17g%s", door, k % 2 == 1 ? " at the face" : "");
    double c = cos(angle), s = sin(angle);
    double door_middle = k % 2 == 1 ? 0.5 * door : 25.0 + shift;
    for (int i = 0; i < 24; ++i) {
      // One end in each room, in the map's own frame before the turn: half of them anywhere,
      // half beside the door, where an end's triangle has the door's portal for a side and the
      // rooms' portals one triangle on (a yes from a portal seen through the door is wrong).
      bool near = i % 2 == 1;
      vec a = near ? (vec){sup_rng_uniform(&rng, 49.0 - 3.0 * radius, 49.0 - radius),
                           door_middle + sup_rng_uniform(&rng, -2.0 * radius, 2.0 * radius)}
                   : (vec){sup_rng_uniform(&rng, 3.0, 46.0), sup_rng_uniform(&rng, 3.0, 47.0)};
      vec b = near ? (vec){sup_rng_uniform(&rng, 51.0 + radius, 51.0 + 3.0 * radius),
                           door_middle + sup_rng_uniform(&rng, -2.0 * radius, 2.0 * radius)}
                   : (vec){sup_rng_uniform(&rng, 54.0, 97.0), sup_rng_uniform(&rng, 3.0, 47.0)};
      vec from = {50.0 + c * (a.x - 50.0) - s * (a.y - 25.0),
                  25.0 + s * (a.x - 50.0) + c * (a.y - 25.0)};
      vec to = {50.0 + c * (b.x - 50.0) - s * (b.y - 25.0),
                25.0 + s * (b.x - 50.0) + c * (b.y - 25.0)};
      check_pair(on_own, on_reference, path, from, to, label, &all);
      check_pair(on_ranged, on_reference, path, from, to, label, &all);
    }
    arcnav_query_destroy(on_own);
    arcnav_query_destroy(on_ranged);
    arcnav_query_destroy(on_reference);
    arcnav_planner_destroy(own);
    arcnav_planner_destroy(ranged);
    arcnav_planner_destroy(reference);
    arcnav_map_destroy(map);
  }
  arcnav_path_destroy(path);
  printf("doors: %zu answers, %zu by a search, %zu yes and %zu no without one\n", all.asked,
         all.searched, all.decided_yes, all.decided_no);
  ck_assert_uint_gt(all.decided_yes, all.asked / 4);
  ck_assert_uint_gt(all.decided_no, all.asked / 5);
}
END_TEST

START_TEST(units_in_the_door_and_the_ignore_list) {
  arcnav_map *map = door_map(8.0);
  arcnav_obstacle_id unit = 0;
  ck_assert_int_eq(arcnav_map_add_unit(map, (vec){50.0, 25.0}, 3.0, &unit), ARCNAV_OK);
  arcnav_planner *planner =
      make_planner(map, 1.0, 2.0, ARCNAV_ENGINE_AUTO, ARCNAV_TANGENT_GRAPH_AUTO);
  arcnav_query *query = NULL;
  ck_assert_int_eq(arcnav_query_create(planner, &query), ARCNAV_OK);
  arcnav_path *path = NULL;
  ck_assert_int_eq(arcnav_path_create(NULL, &path), ARCNAV_OK);
  vec from = {20.0, 25.0}, to = {80.0, 25.0};
  bool reachable = true;
  // The unit leaves 1 on each side of it: too narrow for R = 1 (it needs 2).
  ck_assert_int_eq(arcnav_query_reachable(query, from, to, &reachable, NULL), ARCNAV_NO_PATH);
  ck_assert(!reachable);
  ck_assert_int_eq(arcnav_find_path(query, from, to, path), ARCNAV_NO_PATH);
  ck_assert_int_eq(arcnav_query_set_ignored(query, &unit, 1), ARCNAV_OK);
  ck_assert_int_eq(arcnav_query_reachable(query, from, to, &reachable, NULL), ARCNAV_OK);
  ck_assert(reachable);
  ck_assert_int_eq(arcnav_find_path(query, from, to, path), ARCNAV_OK);
  // Its own start on the unit, ignored: free, and the door is open.
  reachable = false;
  ck_assert_int_eq(arcnav_query_reachable(query, (vec){50.0, 25.0}, to, &reachable, NULL),
                   ARCNAV_OK);
  ck_assert(reachable);
  ck_assert_int_eq(arcnav_query_set_ignored(query, NULL, 0), ARCNAV_OK);
  ck_assert_int_eq(arcnav_query_reachable(query, (vec){50.0, 25.0}, to, &reachable, NULL),
                   ARCNAV_START_BLOCKED);
  ck_assert(!reachable);
  arcnav_path_destroy(path);
  arcnav_query_destroy(query);
  arcnav_planner_destroy(planner);
  arcnav_map_destroy(map);
}
END_TEST

START_TEST(statuses_and_searches) {
  arcnav_map *map = door_map_with_circle(NULL);
  arcnav_planner *planner =
      make_planner(map, 1.0, 2.0, ARCNAV_ENGINE_AUTO, ARCNAV_TANGENT_GRAPH_AUTO);
  arcnav_query *query = NULL;
  ck_assert_int_eq(arcnav_query_create(planner, &query), ARCNAV_OK);
  bool reachable = true, searched = true;
  vec from = {20.0, 25.0}, to = {80.0, 25.0};
  ck_assert_int_eq(arcnav_query_reachable(NULL, from, to, &reachable, NULL),
                   ARCNAV_ERR_INVALID_ARGUMENT);
  ck_assert(!reachable);
  ck_assert_int_eq(arcnav_query_reachable(query, from, to, NULL, NULL),
                   ARCNAV_ERR_INVALID_ARGUMENT);
  reachable = true;
  ck_assert_int_eq(arcnav_query_reachable(query, (vec){NAN, 0.0}, to, &reachable, NULL),
                   ARCNAV_ERR_NOT_FINITE);
  ck_assert(!reachable);
  reachable = true;
  ck_assert_int_eq(arcnav_query_reachable(query, from, (vec){1e300, 0.0}, &reachable, NULL),
                   ARCNAV_ERR_TOO_LARGE);
  ck_assert(!reachable);
  reachable = true;
  ck_assert_int_eq(arcnav_query_reachable(query, (vec){50.0, 5.0}, to, &reachable, NULL),
                   ARCNAV_START_BLOCKED);
  ck_assert(!reachable);
  reachable = true;
  ck_assert_int_eq(arcnav_query_reachable(query, from, (vec){50.0, 45.0}, &reachable, NULL),
                   ARCNAV_GOAL_BLOCKED);
  ck_assert(!reachable);
  ck_assert(!reachable);
  ck_assert_int_eq(arcnav_query_reachable(query, from, from, &reachable, &searched), ARCNAV_OK);
  ck_assert(reachable && !searched);
  // A point agent among polygons and a circle: a search answers, under the expansion limit.
  ck_assert_int_eq(arcnav_query_set_radius(query, 0.0), ARCNAV_OK);
  vec corner = {5.0, 45.0}, other = {95.0, 45.0};
  ck_assert_int_eq(arcnav_query_reachable(query, corner, other, &reachable, &searched), ARCNAV_OK);
  ck_assert(reachable && searched);
  ck_assert_uint_gt(arcnav_query_get_stats(query).nodes_expanded, 0);
  ck_assert_int_eq(arcnav_query_set_expansion_limit(query, 1), ARCNAV_OK);
  ck_assert_int_eq(arcnav_query_reachable(query, corner, other, &reachable, &searched),
                   ARCNAV_SEARCH_LIMIT);
  ck_assert(!reachable && searched);
  // A sliced search in progress ends.
  arcnav_path *path = NULL;
  ck_assert_int_eq(arcnav_path_create(NULL, &path), ARCNAV_OK);
  ck_assert_int_eq(arcnav_query_set_expansion_limit(query, 0), ARCNAV_OK);
  ck_assert_int_eq(arcnav_query_begin(query, corner, other), ARCNAV_OK);
  ck_assert_int_eq(arcnav_query_reachable(query, from, to, &reachable, NULL), ARCNAV_OK);
  ck_assert_int_eq(arcnav_query_resume(query, 1, path), ARCNAV_ERR_NO_SEARCH);
  arcnav_path_destroy(path);
  arcnav_query_destroy(query);
  arcnav_planner_destroy(planner);
  arcnav_map_destroy(map);
}
END_TEST

START_TEST(reachable_fails_cleanly_out_of_memory) {
  test_allocator counter = test_allocator_make();
  arcnav_allocator hooks = test_allocator_hooks(&counter);
  arcnav_map *map = door_map_with_circle(&hooks);
  arcnav_planner *planner =
      make_planner(map, 0.0, 2.0, ARCNAV_ENGINE_AUTO, ARCNAV_TANGENT_GRAPH_AUTO);
  vec from = {5.0, 45.0}, to = {95.0, 45.0};
  long before = counter.live;
  // Each allocation of the call fails in turn (a point agent searches); then all pass.
  for (long fail = 0;; ++fail) {
    arcnav_query *query = NULL;
    ck_assert_int_eq(arcnav_query_create(planner, &query), ARCNAV_OK);
    counter.fail_at = counter.calls + fail;
    bool reachable = true;
    arcnav_status status = arcnav_query_reachable(query, from, to, &reachable, NULL);
    counter.fail_at = -1;
    arcnav_query_destroy(query);
    ck_assert_int_eq(counter.live, before);
    if (status == ARCNAV_OK) {
      ck_assert(reachable);
      ck_assert_int_gt(fail, 0);
      break;
    }
    ck_assert_int_eq(status, ARCNAV_ERR_OUT_OF_MEMORY);
    ck_assert(!reachable);
  }
  arcnav_planner_destroy(planner);
  arcnav_map_destroy(map);
  ck_assert_int_eq(counter.live, 0);
}
END_TEST

static Suite *reachable_suite(void) {
  Suite *suite = suite_create("reachable");
  TCase *tc = tcase_create("reachable");
  tcase_set_timeout(tc, 600);
  tcase_add_test(tc, reachable_agrees_with_the_search);
  tcase_add_test(tc, funnel_engines_agree_with_their_own_search);
  tcase_add_test(tc, doors_open_at_exactly_two_radii);
  tcase_add_test(tc, doors_of_every_width);
  tcase_add_test(tc, units_in_the_door_and_the_ignore_list);
  tcase_add_test(tc, statuses_and_searches);
  tcase_add_test(tc, reachable_fails_cleanly_out_of_memory);
  suite_add_tcase(suite, tc);
  return suite;
}

int main(void) {
  return test_run_suite(reachable_suite());
}
