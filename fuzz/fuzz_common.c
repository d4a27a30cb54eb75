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
