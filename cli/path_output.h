// SPDX-License-Identifier: MIT
#pragma once

// Path answers as JSON (the contract's format, shared by `path` and `batch`) and as text.

#include <arcnav/arcnav.h>
#include <stdbool.h>
#include <stdio.h>

/// A JSON number that reads back as the same double: 17 significant digits, integral values
/// without a fraction (7, not 7.0); -0 prints as 0.
void an_cli_json_number(FILE *out, double value);

/// A JSON string: quotes, backslashes and control characters escaped.
void an_cli_json_string(FILE *out, const char *text);

/// A point as a JSON array `[x,y]` of an_cli_json_number() values.
void an_cli_json_point(FILE *out, arcnav_vec2 p);

/// The members `"status":..,"radius":..,"length":..,"pieces":[..]` without the braces, so callers
/// can add their own members around them. `pretty` breaks lines as the contract's example does.
/// `path` is read only when `status` is ARCNAV_OK or ARCNAV_PARTIAL.
void an_cli_path_json_members(FILE *out, arcnav_status status, double radius,
                              const arcnav_path *path, bool pretty);

/// Timings and search figures shown by the text format.
typedef struct an_cli_path_timing {
  double build_ms;
  double query_us;
  arcnav_query_stats stats;
  const char *engine;
} an_cli_path_timing;

/// Human-readable summary: status, length, one line per piece, timings.
void an_cli_path_text(FILE *out, arcnav_status status, double radius, arcnav_vec2 from,
                      arcnav_vec2 to, const arcnav_path *path, const an_cli_path_timing *timing);

/// Name of an engine as the `--planner` option spells it.
const char *an_cli_engine_name(arcnav_engine engine);
