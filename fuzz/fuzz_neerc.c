// SPDX-License-Identifier: MIT
// NEERC reader: any bytes must give cases whose maps the library accepts, or one clean error
// message naming the file and a line.
#include "fuzz_entry.h"

#include "map_file.h"
#include "neerc_input.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FUZZ_FILE "fuzz.in"

static void check_case(const an_cli_neerc_case *c) {
  if (!isfinite(c->radius) || c->radius < 0 || !isfinite(c->from.x) || !isfinite(c->from.y) ||
      !isfinite(c->to.x) || !isfinite(c->to.y)) {
    fprintf(stderr, "line %d: a bad radius or point was accepted\n", c->line);
    abort();
  }
  for (size_t i = 0; i < c->rect_count; i++) {
    const an_cli_neerc_rect *r = &c->rects[i];
    if (!(r->min.x < r->max.x) || !(r->min.y < r->max.y)) {
      fprintf(stderr, "line %d: an empty rectangle was accepted\n", r->line);
      abort();
    }
  }
}

int an_fuzz_neerc(const uint8_t *data, size_t size) {
  char *text = an_fuzz_terminated_copy(data, size);
  if (text == NULL) {
    return 0;
  }
  an_cli_neerc_input input;
  an_cli_diag diag = {{0}};
  if (an_cli_neerc_parse(FUZZ_FILE, text, size, &input, &diag)) {
    for (size_t i = 0; i < input.case_count; i++) {
      check_case(&input.cases[i]);
      an_cli_map map;
      an_cli_diag map_diag = {{0}};
      if (!an_cli_neerc_case_map(FUZZ_FILE, &input.cases[i], &map, &map_diag)) {
        an_fuzz_check_message(map_diag.message, FUZZ_FILE);
        continue;
      }
      arcnav_map *built = NULL;
      if (an_cli_map_build(&map, &built, &map_diag)) {
        arcnav_map_destroy(built);
      } else {
        an_fuzz_check_message(map_diag.message, FUZZ_FILE);
      }
      an_cli_map_free(&map);
    }
    an_cli_neerc_free(&input);
  } else {
    an_fuzz_check_message(diag.message, FUZZ_FILE);
  }
  // The map loader's own path (first case only, "no case" for empty input) must agree.
  an_cli_map map;
  an_cli_map_init(&map, FUZZ_FILE);
  an_cli_diag load_diag = {{0}};
  if (an_cli_neerc_load_map_text(FUZZ_FILE, text, size, &map, &load_diag)) {
    an_cli_map_free(&map);
  } else {
    an_fuzz_check_message(load_diag.message, FUZZ_FILE);
  }
  free(text);
  return 0;
}

#ifndef ARCNAV_FUZZ_REPLAY
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  return an_fuzz_neerc(data, size);
}
#endif
