// SPDX-License-Identifier: MIT
#pragma once

// Visited marks that a search clears in constant time, the one pattern every search and walk
// uses: each entry (an array of its own, or a field of a larger record) stores the stamp of the
// pass that marked it, and a new pass takes the next stamp, which unmarks everything at once.
// Only when the 32-bit stamp wraps round (after 2^32 - 1 passes) are the stored stamps zeroed.

#include <stdbool.h>
#include <stdint.h>

/// Starts the next pass of a stamp: true when the stamp wrapped, so that the caller must zero
/// every stamp it stored under it (the new stamp is 1, never 0, so zeroed entries are unmarked).
static inline bool an_stamp_next(uint32_t *stamp) {
  if (++*stamp != 0) {
    return false;
  }
  *stamp = 1;
  return true;
}
