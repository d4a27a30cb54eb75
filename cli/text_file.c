// SPDX-License-Identifier: MIT
// Reading whole files and streams (text_file.h).
#include "text_file.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

bool an_cli_read_stream(FILE *stream, const char *name, char **out_text, size_t *out_length,
                        an_cli_diag *diag) {
  size_t capacity = 4096, length = 0;
  char *text = malloc(capacity);
  bool ok = text != NULL;
  while (ok) {
    if (capacity - length < 2) {
      char *grown = capacity > ((size_t)-1) / 4 ? NULL : realloc(text, 2 * capacity);
      if (grown == NULL) {
        ok = false;
        break;
      }
      text = grown;
      capacity *= 2;
    }
    size_t got = fread(text + length, 1, capacity - length - 1, stream);
    length += got;
    if (got == 0) {
      break;
    }
  }
  if (!ok) {
    an_cli_diag_set(diag, "%s: out of memory while reading", name);
  } else if (ferror(stream)) {
    an_cli_diag_set(diag, "%s: cannot read: %s", name, strerror(errno));
    ok = false;
  }
  if (!ok) {
    free(text);
    return false;
  }
  text[length] = '\0';
  *out_text = text;
  *out_length = length;
  return true;
}

bool an_cli_read_file(const char *file, char **out_text, size_t *out_length, an_cli_diag *diag) {
  FILE *stream = fopen(file, "rb");
  if (stream == NULL) {
    an_cli_diag_set(diag, "%s: cannot open: %s", file, strerror(errno));
    return false;
  }
  bool ok = an_cli_read_stream(stream, file, out_text, out_length, diag);
  fclose(stream);
  return ok;
}
