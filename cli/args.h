// SPDX-License-Identifier: MIT
#pragma once

// Option parsing shared by the sub-commands: `--name value` or `--name=value`, plus positional
// arguments. Values are checked here (finite numbers, `X,Y` points) so commands see clean data.

#include "diag.h"

#include <arcnav/arcnav.h>
#include <stdbool.h>
#include <stddef.h>

typedef enum an_cli_option_kind {
  AN_CLI_OPTION_STRING, ///< target: const char *
  AN_CLI_OPTION_NUMBER, ///< target: double (finite)
  AN_CLI_OPTION_POINT,  ///< target: arcnav_vec2 given as `X,Y`
  AN_CLI_OPTION_FLAG,   ///< no value; only `seen` is set
} an_cli_option_kind;

typedef struct an_cli_option {
  const char *name; ///< with the leading dashes, e.g. "--map"
  an_cli_option_kind kind;
  void *target;
  bool *seen; ///< [opt] set to true when the option was given
} an_cli_option;

typedef struct an_cli_args_result {
  bool help;                 ///< --help or -h was given
  const char *positional[4]; ///< positional arguments in order
  size_t positional_count;
} an_cli_args_result;

/// Parse argv[1..argc-1] of sub-command `command` (argv[0] is the sub-command's name).
/// At most `max_positional` (<= 4) positional arguments are accepted.
/// @return false with a message in *diag on unknown options, missing or malformed values.
bool an_cli_parse_args(const char *command, int argc, char **argv, const an_cli_option *options,
                       size_t option_count, size_t max_positional, an_cli_args_result *result,
                       an_cli_diag *diag);

/// What every sub-command does first: parse its arguments, print `usage` for --help, report a
/// usage error. Returns the exit code to leave with now, or -1 to go on.
int an_cli_parse_command(const char *command, int argc, char **argv, const an_cli_option *options,
                         size_t option_count, size_t max_positional, const char *usage,
                         an_cli_args_result *result);

/// Parse a whole string as a finite double.
bool an_cli_parse_number(const char *text, double *out);

/// Parse `X,Y` as two finite doubles.
bool an_cli_parse_point(const char *text, arcnav_vec2 *out);
