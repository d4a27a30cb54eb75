// SPDX-License-Identifier: MIT
// MovingAI grid reader and tracer: any bytes must either give traced polygons that cover exactly
// the blocked cells and that the library accepts, or one clean error message naming the file.
#include "fuzz_entry.h"

#include "grid_map.h"
#include "map_file.h"

#include <stdio.h>
#include <stdlib.h>

#define FUZZ_FILE "fuzz.map"

static double traced_area(const an_cli_map *map) {
  double twice = 0;
  for (size_t s = 0; s < map->shape_count; s++) {
    for (size_t r = 0; r < map->shapes[s].ring_count; r++) {
      const an_cli_ring *ring = &map->shapes[s].rings[r];
      for (size_t i = 0; i < ring->count; i++) {
        arcnav_vec2 a = ring->points[i], b = ring->points[(i + 1) % ring->count];
        twice += a.x * b.y - a.y * b.x;
      }
    }
  }
  return twice / 2;
}

// The traced polygons cover exactly the blocked cells (one polygon per region, disjoint, so
// their area is the blocked-cell count) and the library accepts them.
static void trace(const an_cli_grid *grid, size_t blocked) {
  an_cli_map map;
  an_cli_map_init(&map, FUZZ_FILE);
  map.grid = true;
  an_cli_diag diag = {{0}};
  if (!an_cli_grid_trace(grid, &map, &diag)) {
    fprintf(stderr, "tracing failed: %s\n", diag.message);
    abort();
  }
  if (traced_area(&map) != (double)blocked) {
    fprintf(stderr, "traced area %g for %zu blocked cells\n", traced_area(&map), blocked);
    abort();
  }
  arcnav_map *built = NULL;
  if (!an_cli_map_build(&map, &built, &diag)) {
    fprintf(stderr, "the library refused the traced grid: %s\n", diag.message);
    abort();
  }
  arcnav_map_destroy(built);
  an_cli_map_free(&map);
}

int an_fuzz_gridmap(const uint8_t *data, size_t size) {
  char *text = an_fuzz_terminated_copy(data, size);
  if (text == NULL) {
    return 0;
  }
  an_cli_grid grid;
  an_cli_diag diag = {{0}};
  if (an_cli_grid_parse(FUZZ_FILE, text, size, &grid, &diag)) {
    size_t blocked = 0;
    for (size_t i = 0; i < (size_t)grid.width * (size_t)grid.height; i++) {
      blocked += grid.blocked[i];
    }
    trace(&grid, blocked);
    an_cli_grid_free(&grid);
  } else {
    an_fuzz_check_message(diag.message, FUZZ_FILE);
  }
  free(text);
  return 0;
}

#ifndef ARCNAV_FUZZ_REPLAY
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  return an_fuzz_gridmap(data, size);
}
#endif
