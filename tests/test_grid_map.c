// SPDX-License-Identifier: MIT
// The MovingAI grid tracer (cli/grid_map.c): small grids drawn by hand and random grids are traced,
// and the polygons are checked against the cells independently of the tracer: their area against
// the number of blocked cells, a crossing-number point-in-polygon test and the library's own
// free-point test against the cell under random points, the rings' shape (simple, axis-parallel,
// collinear edges merged), and the library accepting the map.

#include "arcnav/arcnav.h"
#include "grid_map.h"
#include "map_file.h"

#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct hand_grid {
  const char *name;
  const char *rows; ///< rows separated by '/', '#' blocked, '.' free
  int polygons;     ///< expected polygon count; -1 unchecked
  int vertices;     ///< expected vertex count over all rings; -1 unchecked
  int holes;        ///< expected hole count; -1 unchecked
} hand_grid;

static const hand_grid hand_grids[] = {
    {"single cell", ".../.#./...", 1, 4, 0},
    {"L shape", "#../#../###", 1, 6, 0},
    {"ring with a hole", "###/#.#/###", 1, 8, 1},
    {"two diagonal cells", "#./.#", 2, 8, 0},
    {"other diagonal", ".#/#.", 2, 8, 0},
    {"checkerboard", "#.#.#/.#.#./#.#.#/.#.#./#.#.#", 13, 52, 0},
    {"border cells", "#...#/...../..#../...../#...#", 5, 20, 0},
    {"full grid", "###/###", 1, 4, 0},
    {"empty grid", "..../....", 0, 0, 0},
    {"thick ring with two holes", "#######/#.#####/#####.#/#######", 1, 12, 2},
    // The pocket at (1, 1) meets the free corner cell (0, 0) at the vertex (1, 1) only.
    {"pocket pinched at a corner", ".##/#.#/###", 1, 10, 1},
    // Two pockets meeting at the vertex (2, 2).
    {"two pockets touching", "####/#.##/##.#/####", 1, 12, 2},
    {"staircase", "#..../.#.../..#../...#./....#", 5, 20, 0},
    {"U shape", "#.#/#.#/###", 1, 8, 0},
    {"comb", "#####/#.#.#/#.#.#", 1, 12, 0},
};

typedef struct test_grid {
  an_cli_grid grid;
} test_grid;

static an_cli_grid grid_from_rows(const char *rows) {
  an_cli_grid grid;
  memset(&grid, 0, sizeof grid);
  int width = (int)strcspn(rows, "/"), height = 1;
  for (const char *c = rows; *c != '\0'; c++) {
    height += *c == '/';
  }
  grid.width = width;
  grid.height = height;
  grid.first_row_line = 5;
  grid.blocked = malloc((size_t)width * (size_t)height);
  ck_assert_ptr_nonnull(grid.blocked);
  int x = 0, y = 0;
  for (const char *c = rows; *c != '\0'; c++) {
    if (*c == '/') {
      ck_assert_int_eq(x, width);
      x = 0;
      y++;
      continue;
    }
    ck_assert_int_lt(x, width);
    grid.blocked[(size_t)y * (size_t)width + (size_t)x++] = *c == '#';
  }
  ck_assert_int_eq(x, width);
  return grid;
}

static an_cli_grid random_grid(uint64_t *state, int width, int height, int percent) {
  an_cli_grid grid;
  memset(&grid, 0, sizeof grid);
  grid.width = width;
  grid.height = height;
  grid.first_row_line = 5;
  grid.blocked = malloc((size_t)width * (size_t)height);
  ck_assert_ptr_nonnull(grid.blocked);
  for (size_t i = 0; i < (size_t)width * (size_t)height; i++) {
    *state = *state * 6364136223846793005ULL + 1442695040888963407ULL;
    grid.blocked[i] = (int)((*state >> 33) % 100) < percent;
  }
  return grid;
}

static double next_unit(uint64_t *state) {
  *state = *state * 6364136223846793005ULL + 1442695040888963407ULL;
  return (double)(*state >> 11) / 9007199254740992.0;
}

static bool cell_blocked(const an_cli_grid *grid, int x, int y) {
  return grid->blocked[(size_t)y * (size_t)grid->width + (size_t)x] != 0;
}

static double ring_area(const an_cli_ring *ring) {
  double twice = 0;
  for (size_t i = 0; i < ring->count; i++) {
    arcnav_vec2 a = ring->points[i], b = ring->points[(i + 1) % ring->count];
    twice += a.x * b.y - a.y * b.x;
  }
  return twice / 2;
}

// Crossing number: a horizontal ray to the right crosses the ring's edges an odd number of times
// when the point is inside. Points here never lie on an edge or at a vertex's height.
static bool in_ring(const an_cli_ring *ring, arcnav_vec2 p) {
  bool inside = false;
  for (size_t i = 0; i < ring->count; i++) {
    arcnav_vec2 a = ring->points[i], b = ring->points[(i + 1) % ring->count];
    if ((a.y > p.y) != (b.y > p.y)) {
      double x = a.x + (p.y - a.y) * (b.x - a.x) / (b.y - a.y);
      inside = inside != (x > p.x);
    }
  }
  return inside;
}

static bool in_traced(const an_cli_map *map, arcnav_vec2 p) {
  for (size_t s = 0; s < map->shape_count; s++) {
    bool inside = false;
    for (size_t r = 0; r < map->shapes[s].ring_count; r++) {
      inside = inside != in_ring(&map->shapes[s].rings[r], p);
    }
    if (inside) {
      return true;
    }
  }
  return false;
}

// Every ring: at least 4 vertices, all distinct, on the lattice, inside the grid; edges
// axis-parallel, turning at every vertex (collinear edges merged).
static void check_rings(const an_cli_map *map, const an_cli_grid *grid, const char *name) {
  for (size_t s = 0; s < map->shape_count; s++) {
    const an_cli_shape *shape = &map->shapes[s];
    ck_assert_int_eq(shape->kind, AN_CLI_SHAPE_POLYGON);
    ck_assert_msg(ring_area(&shape->rings[0]) > 0, "%s: shape %zu: outer ring not first", name, s);
    for (size_t r = 0; r < shape->ring_count; r++) {
      const an_cli_ring *ring = &shape->rings[r];
      ck_assert_msg(ring->count >= 4 && ring->count % 2 == 0, "%s: ring of %zu vertices", name,
                    ring->count);
      for (size_t i = 0; i < ring->count; i++) {
        arcnav_vec2 a = ring->points[i], b = ring->points[(i + 1) % ring->count];
        arcnav_vec2 c = ring->points[(i + 2) % ring->count];
        ck_assert(a.x == (double)(long)a.x && a.y == (double)(long)a.y);
        ck_assert(a.x >= 0 && a.y >= 0 && a.x <= grid->width && a.y <= grid->height);
        ck_assert_msg((a.x == b.x) != (a.y == b.y), "%s: edge not axis-parallel", name);
        ck_assert_msg((a.x == b.x) != (b.x == c.x), "%s: collinear edges not merged", name);
        for (size_t j = i + 1; j < ring->count; j++) {
          ck_assert_msg(a.x != ring->points[j].x || a.y != ring->points[j].y,
                        "%s: ring touches itself at (%g, %g)", name, a.x, a.y);
        }
      }
      if (r > 0) {
        ck_assert_msg(ring_area(ring) < 0, "%s: hole with the outer ring's orientation", name);
      }
    }
  }
}

static double traced_area(const an_cli_map *map) {
  double area = 0;
  for (size_t s = 0; s < map->shape_count; s++) {
    for (size_t r = 0; r < map->shapes[s].ring_count; r++) {
      area += ring_area(&map->shapes[s].rings[r]);
    }
  }
  return area;
}

static size_t blocked_count(const an_cli_grid *grid) {
  size_t count = 0;
  for (size_t i = 0; i < (size_t)grid->width * (size_t)grid->height; i++) {
    count += grid->blocked[i];
  }
  return count;
}

// Random points inside cells, away from cell edges, against the cells; through the traced
// polygons and, when `planner` is given, through the library at R = 0.
static void check_points(const an_cli_map *map, const an_cli_grid *grid,
                         const arcnav_planner *planner, uint64_t *state, const char *name) {
  int samples = 4 * grid->width * grid->height + 64;
  for (int i = 0; i < samples; i++) {
    int x = (int)(next_unit(state) * grid->width), y = (int)(next_unit(state) * grid->height);
    arcnav_vec2 p = {x + 0.05 + 0.9 * next_unit(state), y + 0.05 + 0.9 * next_unit(state)};
    bool blocked = cell_blocked(grid, x, y);
    ck_assert_msg(in_traced(map, p) == blocked, "%s: (%g, %g) in cell (%d, %d) is %s", name, p.x,
                  p.y, x, y, blocked ? "blocked but outside" : "free but inside");
    if (planner != NULL) {
      ck_assert_msg(arcnav_planner_point_is_free(planner, p) == !blocked,
                    "%s: the library says (%g, %g) is %s", name, p.x, p.y,
                    blocked ? "free" : "blocked");
    }
  }
}

// Trace, check the polygons, build the map and a planner at R = 0 and check points through it.
// Returns the traced map for further checks (caller frees).
static an_cli_map trace_and_check(const an_cli_grid *grid, uint64_t *state, const char *name) {
  an_cli_map map;
  an_cli_map_init(&map, "grid.map");
  map.grid = true;
  an_cli_diag diag = {{0}};
  ck_assert_msg(an_cli_grid_trace(grid, &map, &diag), "%s: %s", name, diag.message);
  check_rings(&map, grid, name);
  ck_assert(map.has_bounds);
  ck_assert_uint_eq(map.bounds.count, 4);
  ck_assert(map.bounds.points[2].x == grid->width && map.bounds.points[2].y == grid->height);
  check_points(&map, grid, NULL, state, name);
  arcnav_map *built = NULL;
  ck_assert_msg(an_cli_map_build(&map, &built, &diag), "%s: refused: %s", name, diag.message);
  if (map.shape_count > 0) {
    arcnav_planner_def def = arcnav_default_planner_def();
    def.radius = 0;
    arcnav_planner *planner = NULL;
    ck_assert_int_eq(arcnav_planner_create(built, &def, &planner), ARCNAV_OK);
    check_points(&map, grid, planner, state, name);
    arcnav_planner_destroy(planner);
  }
  arcnav_map_destroy(built);
  return map;
}

START_TEST(hand_grids_trace_exactly) {
  const hand_grid *h = &hand_grids[_i];
  an_cli_grid grid = grid_from_rows(h->rows);
  uint64_t state = 12345 + (uint64_t)_i;
  an_cli_map kept = trace_and_check(&grid, &state, h->name);
  ck_assert_msg(traced_area(&kept) == (double)blocked_count(&grid), "%s: area %g, %zu cells",
                h->name, traced_area(&kept), blocked_count(&grid));
  size_t vertices = 0, holes = 0;
  for (size_t s = 0; s < kept.shape_count; s++) {
    holes += kept.shapes[s].ring_count - 1;
    for (size_t r = 0; r < kept.shapes[s].ring_count; r++) {
      vertices += kept.shapes[s].rings[r].count;
    }
  }
  ck_assert_msg(h->polygons < 0 || kept.shape_count == (size_t)h->polygons, "%s: %zu polygons",
                h->name, kept.shape_count);
  ck_assert_msg(h->vertices < 0 || vertices == (size_t)h->vertices, "%s: %zu vertices", h->name,
                vertices);
  ck_assert_msg(h->holes < 0 || holes == (size_t)h->holes, "%s: %zu holes", h->name, holes);
  an_cli_map_free(&kept);
  an_cli_grid_free(&grid);
}
END_TEST

// A vertex where two rings of the one polygon of a pinched region meet.
static bool rings_share(const an_cli_shape *shape, size_t r0, size_t r1, arcnav_vec2 p) {
  bool on0 = false, on1 = false;
  for (size_t i = 0; i < shape->rings[r0].count; i++) {
    on0 = on0 || (shape->rings[r0].points[i].x == p.x && shape->rings[r0].points[i].y == p.y);
  }
  for (size_t i = 0; i < shape->rings[r1].count; i++) {
    on1 = on1 || (shape->rings[r1].points[i].x == p.x && shape->rings[r1].points[i].y == p.y);
  }
  return on0 && on1;
}

// Pinched pockets stay holes of one polygon: the pocket's hole shares the vertex (1, 1) with the
// outer ring, and two pockets share (2, 2) with each other; the library accepts both (checked
// with the points and the area in trace_and_check and below).
START_TEST(pinched_pockets_stay_holes) {
  an_cli_grid grid = grid_from_rows(".##/#.#/###");
  uint64_t state = 99;
  an_cli_map kept = trace_and_check(&grid, &state, "pinched pocket");
  ck_assert_uint_eq(kept.shape_count, 1);
  ck_assert_uint_eq(kept.shapes[0].ring_count, 2);
  ck_assert(rings_share(&kept.shapes[0], 0, 1, (arcnav_vec2){1, 1}));
  ck_assert(traced_area(&kept) == (double)blocked_count(&grid));
  an_cli_map_free(&kept);
  an_cli_grid_free(&grid);

  grid = grid_from_rows("####/#.##/##.#/####");
  kept = trace_and_check(&grid, &state, "two pockets touching");
  ck_assert_uint_eq(kept.shape_count, 1);
  ck_assert_uint_eq(kept.shapes[0].ring_count, 3);
  ck_assert(rings_share(&kept.shapes[0], 1, 2, (arcnav_vec2){2, 2}));
  ck_assert(traced_area(&kept) == (double)blocked_count(&grid));
  an_cli_map_free(&kept);
  an_cli_grid_free(&grid);
}
END_TEST

START_TEST(random_grids_trace_exactly) {
  uint64_t state = 0x5eed0000u + (uint64_t)_i;
  int width = 1 + (int)(next_unit(&state) * 14), height = 1 + (int)(next_unit(&state) * 14);
  int percent = 10 + (int)(next_unit(&state) * 80);
  an_cli_grid grid = random_grid(&state, width, height, percent);
  char name[64];
  snprintf(name, sizeof name, "random grid %d (%dx%d, %d%%)", _i, width, height, percent);
  an_cli_map kept = trace_and_check(&grid, &state, name);
  ck_assert_msg(traced_area(&kept) == (double)blocked_count(&grid), "%s: area %g, %zu cells", name,
                traced_area(&kept), blocked_count(&grid));
  an_cli_map_free(&kept);
  an_cli_grid_free(&grid);
}
END_TEST

// The reader: rows, passable characters, line and column of the first cell of each region.
START_TEST(reader_reads_cells_and_names_regions) {
  const char text[] = "type octile\r\nwidth 4\r\nheight 3\r\nmap\r\n.GS@\r\nTW..\r\n..O.\r\n\r\n";
  an_cli_grid grid;
  an_cli_diag diag = {{0}};
  ck_assert_msg(an_cli_grid_parse("t.map", text, strlen(text), &grid, &diag), "%s", diag.message);
  ck_assert_int_eq(grid.width, 4);
  ck_assert_int_eq(grid.height, 3);
  ck_assert_int_eq(grid.first_row_line, 5);
  static const unsigned char expected[12] = {0, 0, 0, 1, 1, 1, 0, 0, 0, 0, 1, 0};
  ck_assert_mem_eq(grid.blocked, expected, 12);
  an_cli_grid_free(&grid);

  an_cli_map map;
  an_cli_map_init(&map, "t.map");
  ck_assert(an_cli_grid_load_map_text("t.map", text, strlen(text), &map, &diag));
  ck_assert(map.grid);
  // Regions in reading order of their first cell: (3, 0) on line 5, (0, 1) on line 6, (2, 2).
  ck_assert_uint_eq(map.shape_count, 3);
  ck_assert_int_eq(map.shapes[0].feature, 5);
  ck_assert_int_eq(map.shapes[0].part, 4);
  ck_assert_int_eq(map.shapes[1].feature, 6);
  ck_assert_int_eq(map.shapes[1].part, 1);
  ck_assert_int_eq(map.shapes[2].feature, 7);
  ck_assert_int_eq(map.shapes[2].part, 3);
  an_cli_map_free(&map);
}
END_TEST

static Suite *grid_map_suite(void) {
  Suite *s = suite_create("grid_map");
  TCase *tc = tcase_create("trace");
  tcase_set_timeout(tc, 60);
  tcase_add_loop_test(tc, hand_grids_trace_exactly, 0,
                      (int)(sizeof hand_grids / sizeof hand_grids[0]));
  tcase_add_test(tc, pinched_pockets_stay_holes);
  tcase_add_loop_test(tc, random_grids_trace_exactly, 0, 300);
  tcase_add_test(tc, reader_reads_cells_and_names_regions);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  SRunner *runner = srunner_create(grid_map_suite());
  srunner_run_all(runner, CK_NORMAL);
  int failed = srunner_ntests_failed(runner);
  srunner_free(runner);
  return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
