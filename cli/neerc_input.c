// SPDX-License-Identifier: MIT
#include "neerc_input.h"

#include "args.h"
#include "text_file.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

// Far more rectangles than the problem allows (30); storage grows only as rectangles are read.
#define MAX_RECTANGLES 1000000

typedef struct tokenizer {
  const char *text;
  size_t length, pos;
  size_t line_start; ///< offset of the current line's first byte, for columns
  int line;
  int last_line; ///< line of the last number read: where a truncated case is reported
  const char *name;
} tokenizer;

typedef enum token_result { TOKEN_OK, TOKEN_END, TOKEN_BAD } token_result;

static token_result next_number(tokenizer *t, double *out, int *out_line, const char *what,
                                an_cli_diag *diag) {
  while (t->pos < t->length && isspace((unsigned char)t->text[t->pos])) {
    if (t->text[t->pos] == '\n') {
      t->line++;
      t->line_start = t->pos + 1;
    }
    t->pos++;
  }
  if (t->pos >= t->length) {
    an_cli_diag_set(diag, "%s:%d: unexpected end of input: expected %s (the case is truncated)",
                    t->name, t->last_line, what);
    return TOKEN_END;
  }
  size_t start = t->pos;
  int column = (int)(start - t->line_start) + 1;
  while (t->pos < t->length && !isspace((unsigned char)t->text[t->pos])) {
    t->pos++;
  }
  size_t length = t->pos - start;
  char token[64];
  bool fits = length < sizeof token;
  size_t shown = fits ? length : 20;
  memcpy(token, t->text + start, shown);
  token[shown] = '\0';
  // An embedded NUL would make the token look shorter than it is.
  if (!fits || memchr(token, '\0', shown) != NULL || !an_cli_parse_number(token, out)) {
    bool numeric = fits && memchr(token, '\0', shown) == NULL;
    for (size_t i = 0; i < shown && numeric; i++) {
      numeric = isdigit((unsigned char)token[i]) || strchr("+-.eE", token[i]) != NULL;
    }
    for (size_t i = 0; i < shown; i++) {
      if (token[i] < 0x20 || token[i] >= 0x7f) {
        token[i] = '?';
      }
    }
    // A numeric-looking token that still fails is out of range (1e999) or malformed (1e, 1.2.3).
    an_cli_diag_set(diag, "%s:%d:%d: expected %s, got '%s%s'%s", t->name, t->line, column, what,
                    token, fits ? "" : "...",
                    numeric ? " (not a finite decimal number)" : " (not a number)");
    return TOKEN_BAD;
  }
  t->last_line = t->line;
  if (out_line != NULL) {
    *out_line = t->line;
  }
  return TOKEN_OK;
}

static bool at_end(tokenizer *t) {
  while (t->pos < t->length && isspace((unsigned char)t->text[t->pos])) {
    if (t->text[t->pos] == '\n') {
      t->line++;
      t->line_start = t->pos + 1;
    }
    t->pos++;
  }
  return t->pos >= t->length;
}

static bool push_case(an_cli_neerc_input *input, const an_cli_neerc_case *c) {
  if (input->case_count == input->case_capacity) {
    size_t capacity = input->case_capacity == 0 ? 8 : 2 * input->case_capacity;
    an_cli_neerc_case *grown = realloc(input->cases, capacity * sizeof *grown);
    if (grown == NULL) {
      return false;
    }
    input->cases = grown;
    input->case_capacity = capacity;
  }
  input->cases[input->case_count++] = *c;
  return true;
}

static bool parse_case(tokenizer *t, an_cli_neerc_case *c, an_cli_diag *diag) {
  memset(c, 0, sizeof *c);
  double count = 0;
  if (next_number(t, &c->radius, &c->line, "the radius r", diag) != TOKEN_OK) {
    return false;
  }
  if (c->radius < 0) {
    an_cli_diag_set(diag, "%s:%d: the radius r must not be negative (got %.17g)", t->name, c->line,
                    c->radius);
    return false;
  }
  int line = 0;
  if (next_number(t, &count, &line, "the rectangle count n", diag) != TOKEN_OK) {
    return false;
  }
  if (count < 0 || count != floor(count) || count > MAX_RECTANGLES) {
    an_cli_diag_set(diag,
                    "%s:%d: the rectangle count n must be a whole number from 0 to %d (got %.17g)",
                    t->name, line, MAX_RECTANGLES, count);
    return false;
  }
  if (next_number(t, &c->from.x, NULL, "xA", diag) != TOKEN_OK ||
      next_number(t, &c->from.y, NULL, "yA", diag) != TOKEN_OK ||
      next_number(t, &c->to.x, NULL, "xB", diag) != TOKEN_OK ||
      next_number(t, &c->to.y, NULL, "yB", diag) != TOKEN_OK) {
    return false;
  }
  size_t n = (size_t)count, capacity = 0;
  for (size_t i = 0; i < n; i++) {
    // Grown as rectangles arrive, so a huge count in a short file reserves nothing.
    if (i == capacity) {
      capacity = capacity == 0 ? 8 : 2 * capacity;
      an_cli_neerc_rect *grown = realloc(c->rects, capacity * sizeof *grown);
      if (grown == NULL) {
        free(c->rects);
        c->rects = NULL;
        an_cli_diag_set(diag, "%s:%d: out of memory", t->name, line);
        return false;
      }
      c->rects = grown;
    }
    double v[4];
    int rect_line = 0;
    static const char *const names[4] = {"x1 of a rectangle", "y1 of a rectangle",
                                         "x2 of a rectangle", "y2 of a rectangle"};
    for (int k = 0; k < 4; k++) {
      if (next_number(t, &v[k], k == 0 ? &rect_line : NULL, names[k], diag) != TOKEN_OK) {
        free(c->rects);
        c->rects = NULL;
        return false;
      }
    }
    if (v[0] == v[2] || v[1] == v[3]) {
      an_cli_diag_set(diag, "%s:%d: rectangle %zu has zero width or height", t->name, rect_line, i);
      free(c->rects);
      c->rects = NULL;
      return false;
    }
    c->rects[i].min = (arcnav_vec2){fmin(v[0], v[2]), fmin(v[1], v[3])};
    c->rects[i].max = (arcnav_vec2){fmax(v[0], v[2]), fmax(v[1], v[3])};
    c->rects[i].line = rect_line;
  }
  c->rect_count = n;
  return true;
}

bool an_cli_neerc_parse(const char *name, const char *text, size_t length, an_cli_neerc_input *out,
                        an_cli_diag *diag) {
  memset(out, 0, sizeof *out);
  tokenizer t = {text, length, 0, 0, 1, 1, name};
  while (!at_end(&t)) {
    an_cli_neerc_case c;
    if (!parse_case(&t, &c, diag)) {
      an_cli_neerc_free(out);
      return false;
    }
    if (!push_case(out, &c)) {
      free(c.rects);
      an_cli_diag_set(diag, "%s:%d: out of memory", name, c.line);
      an_cli_neerc_free(out);
      return false;
    }
  }
  return true;
}

void an_cli_neerc_free(an_cli_neerc_input *input) {
  for (size_t i = 0; i < input->case_count; i++) {
    free(input->cases[i].rects);
  }
  free(input->cases);
  memset(input, 0, sizeof *input);
}

bool an_cli_neerc_case_map(const char *name, const an_cli_neerc_case *c, an_cli_map *map,
                           an_cli_diag *diag) {
  an_cli_map_init(map, name);
  map->lines = true;
  for (size_t i = 0; i < c->rect_count; i++) {
    const an_cli_neerc_rect *r = &c->rects[i];
    an_cli_ring *ring = malloc(sizeof *ring);
    arcnav_vec2 *points = malloc(4 * sizeof *points);
    if (ring == NULL || points == NULL) {
      free(ring);
      free(points);
      an_cli_map_free(map);
      an_cli_diag_set(diag, "%s:%d: out of memory", name, r->line);
      return false;
    }
    points[0] = r->min;
    points[1] = (arcnav_vec2){r->max.x, r->min.y};
    points[2] = r->max;
    points[3] = (arcnav_vec2){r->min.x, r->max.y};
    *ring = (an_cli_ring){points, 4};
    an_cli_shape shape = {AN_CLI_SHAPE_POLYGON, r->line, -1, ring, 1, {0, 0}, 0};
    if (!an_cli_map_add_shape(map, &shape)) {
      an_cli_map_free(map);
      an_cli_diag_set(diag, "%s:%d: out of memory", name, r->line);
      return false;
    }
  }
  map->has_defaults = true;
  map->default_radius = c->radius;
  map->default_from = c->from;
  map->default_to = c->to;
  return true;
}

bool an_cli_neerc_load_map_text(const char *file, const char *text, size_t length, an_cli_map *map,
                                an_cli_diag *diag) {
  an_cli_neerc_input input;
  if (!an_cli_neerc_parse(file, text, length, &input, diag)) {
    return false;
  }
  if (input.case_count == 0) {
    an_cli_diag_set(diag, "%s:1: no case in the file (expected `r n` first)", file);
    an_cli_neerc_free(&input);
    return false;
  }
  bool ok = an_cli_neerc_case_map(file, &input.cases[0], map, diag);
  an_cli_neerc_free(&input);
  return ok;
}

bool an_cli_neerc_load_map(const char *file, an_cli_map *map, an_cli_diag *diag) {
  char *text = NULL;
  size_t length = 0;
  if (!an_cli_read_file(file, &text, &length, diag)) {
    return false;
  }
  bool ok = an_cli_neerc_load_map_text(file, text, length, map, diag);
  free(text);
  return ok;
}
