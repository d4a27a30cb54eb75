// SPDX-License-Identifier: MIT
#pragma once

// One error message, composed where the fault is found and printed once by the command, so that a
// failing run writes exactly one line to standard error.

typedef struct an_cli_diag {
  char message[1024];
} an_cli_diag;

/// Replace the message (printf-style).
void an_cli_diag_set(an_cli_diag *diag, const char *format, ...)
    __attribute__((format(printf, 2, 3)));

/// Print the message as one line on standard error.
void an_cli_diag_print(const an_cli_diag *diag);
