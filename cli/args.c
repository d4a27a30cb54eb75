// SPDX-License-Identifier: MIT
#include "args.h"

#include "commands.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool an_cli_parse_number(const char *text, double *out) {
  if (text == NULL) {
    return false;
  }
  // strtod also accepts "nan", "inf" and hex floats; a map coordinate is plain decimal.
  for (const char *c = text; *c != '\0'; c++) {
    if (!isdigit((unsigned char)*c) && strchr("+-.eE", *c) == NULL) {
      return false;
    }
  }
  char *end = NULL;
  errno = 0;
  double value = strtod(text, &end);
  if (end == text || *end != '\0' || !isfinite(value)) {
    return false;
  }
  *out = value;
  return true;
}

bool an_cli_parse_point(const char *text, arcnav_vec2 *out) {
  if (text == NULL) {
    return false;
  }
  const char *comma = strchr(text, ',');
  if (comma == NULL || strchr(comma + 1, ',') != NULL) {
    return false;
  }
  char first[128];
  size_t first_length = (size_t)(comma - text);
  if (first_length >= sizeof first) {
    return false;
  }
  memcpy(first, text, first_length);
  first[first_length] = '\0';
  arcnav_vec2 point;
  if (!an_cli_parse_number(first, &point.x) || !an_cli_parse_number(comma + 1, &point.y)) {
    return false;
  }
  *out = point;
  return true;
}

static const an_cli_option *find_option(const an_cli_option *options, size_t count,
                                        const char *name, size_t name_length) {
  for (size_t i = 0; i < count; i++) {
    if (strlen(options[i].name) == name_length &&
        strncmp(options[i].name, name, name_length) == 0) {
      return &options[i];
    }
  }
  return NULL;
}

static bool store_value(const char *command, const an_cli_option *option, const char *value,
                        an_cli_diag *diag) {
  switch (option->kind) {
  case AN_CLI_OPTION_STRING:
    if (value[0] == '\0') {
      an_cli_diag_set(diag, "arcnav %s: %s needs a non-empty value", command, option->name);
      return false;
    }
    *(const char **)option->target = value;
    break;
  case AN_CLI_OPTION_NUMBER:
    if (!an_cli_parse_number(value, (double *)option->target)) {
      an_cli_diag_set(diag, "arcnav %s: %s expects a finite number, got '%s'", command,
                      option->name, value);
      return false;
    }
    break;
  case AN_CLI_OPTION_FLAG:
    break;
  case AN_CLI_OPTION_POINT:
    if (!an_cli_parse_point(value, (arcnav_vec2 *)option->target)) {
      an_cli_diag_set(diag, "arcnav %s: %s expects X,Y (two finite numbers), got '%s'", command,
                      option->name, value);
      return false;
    }
    break;
  }
  if (option->seen != NULL) {
    *option->seen = true;
  }
  return true;
}

bool an_cli_parse_args(const char *command, int argc, char **argv, const an_cli_option *options,
                       size_t option_count, size_t max_positional, an_cli_args_result *result,
                       an_cli_diag *diag) {
  memset(result, 0, sizeof *result);
  bool options_done = false;
  for (int i = 1; i < argc; i++) {
    const char *arg = argv[i];
    if (!options_done && (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0)) {
      result->help = true;
      continue;
    }
    if (!options_done && strcmp(arg, "--") == 0) {
      options_done = true;
      continue;
    }
    // A lone "-" is the conventional name for standard input, so it is positional.
    if (options_done || arg[0] != '-' || arg[1] == '\0') {
      if (result->positional_count >= max_positional ||
          result->positional_count >= sizeof result->positional / sizeof result->positional[0]) {
        an_cli_diag_set(diag, "arcnav %s: unexpected argument '%s' (see 'arcnav %s --help')",
                        command, arg, command);
        return false;
      }
      result->positional[result->positional_count++] = arg;
      continue;
    }
    const char *equals = strchr(arg, '=');
    size_t name_length = equals != NULL ? (size_t)(equals - arg) : strlen(arg);
    const an_cli_option *option = find_option(options, option_count, arg, name_length);
    if (option == NULL) {
      an_cli_diag_set(diag, "arcnav %s: unknown option '%.*s' (see 'arcnav %s --help')", command,
                      (int)name_length, arg, command);
      return false;
    }
    const char *value = NULL;
    if (option->kind == AN_CLI_OPTION_FLAG) {
      if (equals != NULL) {
        an_cli_diag_set(diag, "arcnav %s: %s takes no value", command, option->name);
        return false;
      }
      value = "";
    } else if (equals != NULL) {
      value = equals + 1;
    } else if (i + 1 < argc) {
      value = argv[++i];
    } else {
      an_cli_diag_set(diag, "arcnav %s: %s needs a value", command, option->name);
      return false;
    }
    if (!store_value(command, option, value, diag)) {
      return false;
    }
  }
  return true;
}

int an_cli_parse_command(const char *command, int argc, char **argv, const an_cli_option *options,
                         size_t option_count, size_t max_positional, const char *usage,
                         an_cli_args_result *result) {
  an_cli_diag diag = {{0}};
  if (!an_cli_parse_args(command, argc, argv, options, option_count, max_positional, result,
                         &diag)) {
    an_cli_diag_print(&diag);
    return AN_CLI_EXIT_USAGE;
  }
  if (result->help) {
    fputs(usage, stdout);
    return AN_CLI_EXIT_OK;
  }
  return -1;
}
