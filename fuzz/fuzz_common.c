// SPDX-License-Identifier: MIT
#include "fuzz_entry.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void an_fuzz_check_message(const char *message, const char *file) {
  size_t file_length = strlen(file);
  bool named = strncmp(message, file, file_length) == 0 && message[file_length] == ':';
  bool printable = message[0] != '\0';
  for (const char *c = message; *c != '\0'; c++) {
    // UTF-8 text is allowed; control characters would break the one-line contract.
    if ((unsigned char)*c < 0x20 || *c == 0x7f) {
      printable = false;
    }
  }
  if (!named || !printable) {
    fprintf(stderr, "bad error message: '%s'\n", message);
    abort();
  }
}

char *an_fuzz_terminated_copy(const uint8_t *data, size_t size) {
  char *text = malloc(size + 1);
  if (text == NULL) {
    return NULL;
  }
  if (size > 0) {
    memcpy(text, data, size);
  }
  text[size] = '\0';
  return text;
}

uint8_t an_fuzz_byte(an_fuzz_reader *r) {
  return r->pos < r->size ? r->data[r->pos++] : 0;
}

double an_fuzz_coord(an_fuzz_reader *r) {
  if (!r->fine) {
    return (double)(int8_t)an_fuzz_byte(r) / 4.0;
  }
  int16_t v = (int16_t)(uint16_t)((unsigned)an_fuzz_byte(r) << 8 | an_fuzz_byte(r));
  return (double)v / 1024.0;
}

double an_fuzz_raw(an_fuzz_reader *r) {
  uint64_t bits = 0;
  for (int i = 0; i < 8; i++) {
    bits = bits << 8 | an_fuzz_byte(r);
  }
  double value;
  memcpy(&value, &bits, sizeof value);
  return value;
}

size_t an_fuzz_clean_ring(arcnav_vec2 *points, size_t count) {
  size_t kept = 0;
  for (size_t i = 0; i < count; i++) {
    if (kept == 0 || points[i].x != points[kept - 1].x || points[i].y != points[kept - 1].y) {
      points[kept++] = points[i];
    }
  }
  while (kept > 1 && points[kept - 1].x == points[0].x && points[kept - 1].y == points[0].y) {
    kept--;
  }
  return kept;
}
