// SPDX-License-Identifier: MIT
#pragma once

// Entry points shared by the libFuzzer targets and the corpus replay test: each returns 0 and
// calls abort() when it finds a violated invariant, so a crash is the only failure signal.

#include <arcnav/arcnav.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

int an_fuzz_geojson(const uint8_t *data, size_t size);
int an_fuzz_neerc(const uint8_t *data, size_t size);
int an_fuzz_gridmap(const uint8_t *data, size_t size);
int an_fuzz_planner(const uint8_t *data, size_t size);
int an_fuzz_living(const uint8_t *data, size_t size);
int an_fuzz_cdt(const uint8_t *data, size_t size);

/// The input as a reader receives a file (an_cli_read_file()): the bytes plus a terminating NUL.
/// Caller frees; NULL when out of memory.
char *an_fuzz_terminated_copy(const uint8_t *data, size_t size);

/// Shared check of a reader's error message: non-empty, one printable line, starting with the
/// file name and a colon. Aborts otherwise.
void an_fuzz_check_message(const char *message, const char *file);

/// The input bytes read one by one, as the targets that build maps decode them; past the end
/// every byte is 0.
typedef struct an_fuzz_reader {
  const uint8_t *data;
  size_t size, pos;
  bool fine; ///< coordinates on a 1/1024 grid instead of a 1/4 grid (coarse gives degeneracies)
} an_fuzz_reader;

uint8_t an_fuzz_byte(an_fuzz_reader *r);
/// A coordinate in [-32, 32): on a 1/4 grid, or with `fine` a 1/1024 grid (two bytes).
double an_fuzz_coord(an_fuzz_reader *r);
/// A ring as the library keeps it: consecutive duplicate points and a closing copy of the first
/// dropped, in place. Returns the new count.
size_t an_fuzz_clean_ring(arcnav_vec2 *points, size_t count);

/// Any double, NaN and infinities included (eight bytes): for the API's refusals.
double an_fuzz_raw(an_fuzz_reader *r);
