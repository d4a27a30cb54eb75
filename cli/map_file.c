// SPDX-License-Identifier: MIT
#include "map_file.h"

#include "geojson_map.h"
#include "grid_map.h"
#include "neerc_input.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static bool has_suffix(const char *file, const char *suffix) {
  size_t file_length = strlen(file), suffix_length = strlen(suffix);
  return file_length >= suffix_length &&
         strcasecmp(file + file_length - suffix_length, suffix) == 0;
}

bool an_cli_parse_map_format(const char *name, an_cli_map_format *out) {
  static const struct {
    const char *name;
    an_cli_map_format format;
  } formats[] = {{"auto", AN_CLI_MAP_DETECT},
                 {"geojson", AN_CLI_MAP_GEOJSON},
                 {"neerc", AN_CLI_MAP_NEERC},
                 {"movingai", AN_CLI_MAP_MOVINGAI}};
  for (size_t i = 0; i < sizeof formats / sizeof formats[0]; i++) {
    if (strcmp(name, formats[i].name) == 0) {
      *out = formats[i].format;
      return true;
    }
  }
  return false;
}

an_cli_map_format an_cli_map_detect(const char *file, const char *text, an_cli_map_format format) {
  if (format != AN_CLI_MAP_DETECT) {
    return format;
  }
  if (has_suffix(file, ".geojson") || has_suffix(file, ".json")) {
    return AN_CLI_MAP_GEOJSON;
  }
  if (has_suffix(file, ".in")) {
    return AN_CLI_MAP_NEERC;
  }
  if (has_suffix(file, ".map")) {
    return AN_CLI_MAP_MOVINGAI;
  }
  // A UTF-8 byte order mark may precede the text.
  const char *c = strncmp(text, "\xEF\xBB\xBF", 3) == 0 ? text + 3 : text;
  while (*c != '\0' && isspace((unsigned char)*c)) {
    c++;
  }
  if (*c == '{') {
    return AN_CLI_MAP_GEOJSON;
  }
  if (strncmp(c, "type", 4) == 0 && (c[4] == ' ' || c[4] == '\t')) {
    return AN_CLI_MAP_MOVINGAI;
  }
  return AN_CLI_MAP_NEERC;
}

bool an_cli_map_load_as(const char *file, an_cli_map_format format, an_cli_map *map,
                        an_cli_diag *diag) {
  an_cli_map_init(map, file);
  char *text = NULL;
  size_t length = 0;
  if (!an_cli_read_file(file, &text, &length, diag)) {
    return false;
  }
  bool ok = false;
  switch (an_cli_map_detect(file, text, format)) {
  case AN_CLI_MAP_GEOJSON:
    ok = an_cli_geojson_parse(file, text, length, map, diag);
    break;
  case AN_CLI_MAP_MOVINGAI:
    ok = an_cli_grid_load_map_text(file, text, length, map, diag);
    break;
  case AN_CLI_MAP_NEERC:
  case AN_CLI_MAP_DETECT:
    ok = an_cli_neerc_load_map_text(file, text, length, map, diag);
    break;
  }
  free(text);
  if (!ok) {
    an_cli_map_free(map);
  }
  return ok;
}

bool an_cli_map_load(const char *file, an_cli_map *map, an_cli_diag *diag) {
  return an_cli_map_load_as(file, AN_CLI_MAP_DETECT, map, diag);
}
