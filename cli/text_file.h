// SPDX-License-Identifier: MIT
#pragma once

// Whole files and streams read into memory, for the map readers and the commands that take text
// input; errors are worded for the tool's messages.

#include "diag.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/// Read a whole stream into a NUL-terminated buffer (caller frees); `name` is for messages.
bool an_cli_read_stream(FILE *stream, const char *name, char **out_text, size_t *out_length,
                        an_cli_diag *diag);

/// Read a whole file into a NUL-terminated buffer (caller frees). False with a message on failure.
bool an_cli_read_file(const char *file, char **out_text, size_t *out_length, an_cli_diag *diag);
