// SPDX-License-Identifier: MIT
#include "diag.h"

#include <stdarg.h>
#include <stdio.h>

void an_cli_diag_set(an_cli_diag *diag, const char *format, ...) {
  if (diag == NULL) {
    return;
  }
  va_list args;
  va_start(args, format);
  vsnprintf(diag->message, sizeof diag->message, format, args);
  va_end(args);
}

void an_cli_diag_print(const an_cli_diag *diag) {
  fprintf(stderr, "%s\n", diag->message[0] != '\0' ? diag->message : "arcnav: unknown error");
}
