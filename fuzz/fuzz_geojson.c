// SPDX-License-Identifier: MIT
// GeoJSON map reader: any bytes must either give a map the library accepts or one clean error
// message naming the file; never a crash, a leak or a message that breaks the one-line contract.
#include "fuzz_entry.h"

#include "geojson_map.h"
#include "map_file.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FUZZ_FILE "fuzz.geojson"

static void check_shapes(const an_cli_map *map) {
  for (size_t i = 0; i < map->shape_count; i++) {
    const an_cli_shape *shape = &map->shapes[i];
    if (shape->kind == AN_CLI_SHAPE_CIRCLE) {
      if (!isfinite(shape->center.x) || !isfinite(shape->center.y) || !(shape->radius >= 0)) {
        fprintf(stderr, "shape %zu: circle with a bad centre or radius was accepted\n", i);
        abort();
      }
      continue;
    }
    for (size_t r = 0; r < shape->ring_count; r++) {
      for (size_t k = 0; k < shape->rings[r].count; k++) {
        arcnav_vec2 p = shape->rings[r].points[k];
        if (!isfinite(p.x) || !isfinite(p.y)) {
          fprintf(stderr, "shape %zu ring %zu vertex %zu: not finite but accepted\n", i, r, k);
          abort();
        }
      }
    }
  }
}

int an_fuzz_geojson(const uint8_t *data, size_t size) {
  char *text = an_fuzz_terminated_copy(data, size);
  if (text == NULL) {
    return 0;
  }
  an_cli_map map;
  an_cli_map_init(&map, FUZZ_FILE);
  an_cli_diag diag = {{0}};
  if (an_cli_geojson_parse(FUZZ_FILE, text, size, &map, &diag)) {
    check_shapes(&map);
    arcnav_map *built = NULL;
    an_cli_diag build_diag = {{0}};
    if (an_cli_map_build(&map, &built, &build_diag)) {
      if (arcnav_map_obstacle_count(built) != map.shape_count) {
        fprintf(stderr, "%zu shapes read, %zu obstacles built\n", map.shape_count,
                arcnav_map_obstacle_count(built));
        abort();
      }
      arcnav_map_destroy(built);
    } else {
      an_fuzz_check_message(build_diag.message, FUZZ_FILE);
    }
    for (size_t i = 0; i < map.warning_count; i++) {
      an_fuzz_check_message(map.warnings[i], FUZZ_FILE);
    }
  } else {
    an_fuzz_check_message(diag.message, FUZZ_FILE);
  }
  an_cli_map_free(&map);
  free(text);
  return 0;
}

#ifndef ARCNAV_FUZZ_REPLAY
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  return an_fuzz_geojson(data, size);
}
#endif
