// SPDX-License-Identifier: MIT
#include "path_output.h"

#include <math.h>

void an_cli_json_number(FILE *out, double value) {
  if (!isfinite(value)) {
    // JSON has no spelling for these; the tool validates inputs so this is only a safeguard.
    fputs("null", out);
    return;
  }
  if (value == 0) {
    fputs("0", out);
    return;
  }
  fprintf(out, "%.17g", value);
}

void an_cli_json_string(FILE *out, const char *text) {
  fputc('"', out);
  for (const unsigned char *c = (const unsigned char *)text; *c != '\0'; c++) {
    if (*c == '"' || *c == '\\') {
      fprintf(out, "\\%c", *c);
    } else if (*c < 0x20) {
      fprintf(out, "\\u%04x", *c);
    } else {
      fputc(*c, out);
    }
  }
  fputc('"', out);
}

void an_cli_json_point(FILE *out, arcnav_vec2 p) {
  fputc('[', out);
  an_cli_json_number(out, p.x);
  fputc(',', out);
  an_cli_json_number(out, p.y);
  fputc(']', out);
}

static void json_piece(FILE *out, const arcnav_piece *piece) {
  if (piece->type == ARCNAV_PIECE_LINE) {
    fputs("{\"type\":\"line\",\"from\":", out);
    an_cli_json_point(out, piece->from);
    fputs(",\"to\":", out);
    an_cli_json_point(out, piece->to);
    fputc('}', out);
    return;
  }
  fputs("{\"type\":\"arc\",\"center\":", out);
  an_cli_json_point(out, piece->center);
  fputs(",\"radius\":", out);
  an_cli_json_number(out, piece->radius);
  fputs(",\"from\":", out);
  an_cli_json_point(out, piece->from);
  fputs(",\"to\":", out);
  an_cli_json_point(out, piece->to);
  fputs(piece->ccw ? ",\"ccw\":true}" : ",\"ccw\":false}", out);
}

void an_cli_path_json_members(FILE *out, arcnav_status status, double radius,
                              const arcnav_path *path, bool pretty) {
  bool found = status == ARCNAV_OK || status == ARCNAV_PARTIAL;
  fprintf(out, "\"status\":\"%s\",\"radius\":", arcnav_status_name(status));
  an_cli_json_number(out, radius);
  fputs(",\"length\":", out);
  an_cli_json_number(out, found ? arcnav_path_length(path) : 0.0);
  fputs(pretty ? ",\n \"pieces\":[" : ",\"pieces\":[", out);
  size_t count = found ? arcnav_path_piece_count(path) : 0;
  for (size_t i = 0; i < count; i++) {
    if (i > 0) {
      fputc(',', out);
    }
    if (pretty) {
      fputs("\n  ", out);
    }
    arcnav_piece piece = arcnav_path_piece(path, i);
    json_piece(out, &piece);
  }
  fputc(']', out);
}

const char *an_cli_engine_name(arcnav_engine engine) {
  switch (engine) {
  case ARCNAV_ENGINE_AUTO:
    return "auto";
  case ARCNAV_ENGINE_TANGENT:
    return "tangent";
  case ARCNAV_ENGINE_FUNNEL:
    return "funnel";
  case ARCNAV_ENGINE_PLAIN_FUNNEL:
    return "plain-funnel";
  case ARCNAV_ENGINE_INTERVAL:
    return "interval";
  }
  return "unknown";
}

void an_cli_path_text(FILE *out, arcnav_status status, double radius, arcnav_vec2 from,
                      arcnav_vec2 to, const arcnav_path *path, const an_cli_path_timing *timing) {
  bool found = status == ARCNAV_OK || status == ARCNAV_PARTIAL;
  fprintf(out, "status:  %s (%s)\n", arcnav_status_name(status), arcnav_status_message(status));
  fprintf(out, "radius:  %.10g\n", radius);
  fprintf(out, "from:    (%.10g, %.10g)\nto:      (%.10g, %.10g)\n", from.x, from.y, to.x, to.y);
  if (found) {
    size_t count = arcnav_path_piece_count(path);
    fprintf(out, "length:  %.17g\n", arcnav_path_length(path));
    fprintf(out, "pieces:  %zu\n", count);
    for (size_t i = 0; i < count; i++) {
      arcnav_piece p = arcnav_path_piece(path, i);
      if (p.type == ARCNAV_PIECE_LINE) {
        fprintf(out, "  %3zu  line  (%.10g, %.10g) -> (%.10g, %.10g)  length %.10g\n", i + 1,
                p.from.x, p.from.y, p.to.x, p.to.y, p.length);
      } else {
        fprintf(out,
                "  %3zu  arc   (%.10g, %.10g) -> (%.10g, %.10g)  around (%.10g, %.10g) r %.10g, "
                "%s %.4g deg, length %.10g\n",
                i + 1, p.from.x, p.from.y, p.to.x, p.to.y, p.center.x, p.center.y, p.radius,
                p.ccw ? "ccw" : "cw", p.sweep * 180.0 / 3.14159265358979323846, p.length);
      }
    }
  }
  if (timing != NULL) {
    fprintf(out, "engine:  %s\n", timing->engine);
    fprintf(out, "timing:  build %.3f ms, query %.1f us\n", timing->build_ms, timing->query_us);
    fprintf(out, "search:  %zu nodes expanded, %zu free checks, %zu channels\n",
            timing->stats.nodes_expanded, timing->stats.edges_checked, timing->stats.channels);
  }
}
