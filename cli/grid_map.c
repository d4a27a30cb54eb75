// SPDX-License-Identifier: MIT
#include "grid_map.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// Cells per side: the largest MovingAI maps are 1024 or 2048 wide; this leaves room and keeps
// every vertex index of a grid inside an int.
#define MAX_SIDE 16384

// ---------------------------------------------------------------------------------------------
// Reading

typedef struct line_reader {
  const char *text;
  size_t length, pos;
  int line; ///< number of the line last returned (1-based)
} line_reader;

// The next line as [*start, *end), without its '\n' and a trailing '\r'. False at the end.
static bool next_line(line_reader *r, size_t *start, size_t *end) {
  if (r->pos >= r->length) {
    return false;
  }
  size_t s = r->pos;
  const char *newline = memchr(r->text + s, '\n', r->length - s);
  size_t e = newline != NULL ? (size_t)(newline - r->text) : r->length;
  r->pos = newline != NULL ? e + 1 : r->length;
  r->line++;
  if (e > s && r->text[e - 1] == '\r') {
    e--;
  }
  *start = s;
  *end = e;
  return true;
}

typedef struct token {
  size_t start, end;
} token;

// Split [start, end) at spaces and tabs into at most `max` tokens; returns how many there are
// (all of them are counted, even past `max`).
static size_t split_tokens(const char *text, size_t start, size_t end, token *out, size_t max) {
  size_t count = 0, i = start;
  while (i < end) {
    while (i < end && (text[i] == ' ' || text[i] == '\t')) {
      i++;
    }
    if (i == end) {
      break;
    }
    size_t s = i;
    while (i < end && text[i] != ' ' && text[i] != '\t') {
      i++;
    }
    if (count < max) {
      out[count] = (token){s, i};
    }
    count++;
  }
  return count;
}

static bool token_is(const char *text, token t, const char *word) {
  size_t length = strlen(word);
  return t.end - t.start == length && memcmp(text + t.start, word, length) == 0;
}

// A token as it may be shown in a message: at most 24 characters, unprintable bytes as '?'.
static void show_token(const char *text, token t, char *out, size_t size) {
  size_t n = t.end - t.start, shown = n < 24 ? n : 24;
  if (shown >= size) {
    shown = size - 1;
  }
  for (size_t i = 0; i < shown; i++) {
    unsigned char c = (unsigned char)text[t.start + i];
    out[i] = c >= 0x20 && c < 0x7f ? (char)c : '?';
  }
  out[shown] = '\0';
  if (shown < n && size > shown + 3) {
    memcpy(out + shown, "...", 4);
  }
}

static int column_of(size_t line_start, size_t at) {
  return (int)(at - line_start) + 1;
}

// One header line: `what` for messages; fills the tokens (at most 3).
static bool header_line(const char *file, line_reader *r, const char *what, token *tokens,
                        size_t *count, size_t *line_start, an_cli_diag *diag) {
  size_t start, end;
  if (!next_line(r, &start, &end)) {
    if (r->line == 0) {
      an_cli_diag_set(diag, "%s:1:1: empty file: expected %s (a MovingAI map header)", file, what);
    } else {
      an_cli_diag_set(diag, "%s:%d:1: the file ends in the header: expected %s", file, r->line + 1,
                      what);
    }
    return false;
  }
  *line_start = start;
  *count = split_tokens(r->text, start, end, tokens, 3);
  if (*count == 0) {
    an_cli_diag_set(diag, "%s:%d:1: expected %s, got an empty line", file, r->line, what);
    return false;
  }
  return true;
}

static bool parse_side(const char *text, token t, int *out) {
  size_t n = t.end - t.start;
  if (n == 0 || n > 6) {
    return false;
  }
  long value = 0;
  for (size_t i = 0; i < n; i++) {
    char c = text[t.start + i];
    if (c < '0' || c > '9') {
      return false;
    }
    value = value * 10 + (c - '0');
  }
  if (value < 1 || value > MAX_SIDE) {
    return false;
  }
  *out = (int)value;
  return true;
}

static bool parse_header(const char *file, line_reader *r, int *width, int *height,
                         an_cli_diag *diag) {
  token tokens[3];
  size_t count = 0, line_start = 0;
  char shown[32];
  if (!header_line(file, r, "`type octile`", tokens, &count, &line_start, diag)) {
    return false;
  }
  if (!token_is(r->text, tokens[0], "type") || count < 2) {
    show_token(r->text, tokens[0], shown, sizeof shown);
    an_cli_diag_set(diag, "%s:%d:%d: expected `type octile` (a MovingAI map header), got '%s'",
                    file, r->line, column_of(line_start, tokens[0].start), shown);
    return false;
  }
  if (!token_is(r->text, tokens[1], "octile") || count > 2) {
    token bad = count > 2 && token_is(r->text, tokens[1], "octile") ? tokens[2] : tokens[1];
    show_token(r->text, bad, shown, sizeof shown);
    an_cli_diag_set(diag, "%s:%d:%d: unsupported map type '%s' (only `type octile`)", file, r->line,
                    column_of(line_start, bad.start), shown);
    return false;
  }
  *width = *height = 0;
  for (int i = 0; i < 2; i++) {
    if (!header_line(file, r, *height == 0 ? "`height H`" : "`width W`", tokens, &count,
                     &line_start, diag)) {
      return false;
    }
    bool is_height = token_is(r->text, tokens[0], "height");
    bool is_width = token_is(r->text, tokens[0], "width");
    const char *key = is_height ? "height" : "width";
    int *target = is_height ? height : width;
    if (!is_height && !is_width) {
      show_token(r->text, tokens[0], shown, sizeof shown);
      an_cli_diag_set(diag, "%s:%d:%d: expected `height H` or `width W`, got '%s'", file, r->line,
                      column_of(line_start, tokens[0].start), shown);
      return false;
    }
    if (*target != 0) {
      an_cli_diag_set(diag, "%s:%d:%d: `%s` is given twice", file, r->line,
                      column_of(line_start, tokens[0].start), key);
      return false;
    }
    if (count < 2) {
      an_cli_diag_set(diag, "%s:%d:%d: `%s` needs a whole number from 1 to %d", file, r->line,
                      column_of(line_start, tokens[0].end), key, MAX_SIDE);
      return false;
    }
    if (count > 2 || !parse_side(r->text, tokens[1], target)) {
      token bad = count > 2 && parse_side(r->text, tokens[1], target) ? tokens[2] : tokens[1];
      show_token(r->text, bad, shown, sizeof shown);
      an_cli_diag_set(diag, "%s:%d:%d: `%s` needs a whole number from 1 to %d, got '%s'", file,
                      r->line, column_of(line_start, bad.start), key, MAX_SIDE, shown);
      return false;
    }
  }
  if (!header_line(file, r, "`map`", tokens, &count, &line_start, diag)) {
    return false;
  }
  if (!token_is(r->text, tokens[0], "map") || count > 1) {
    token bad = token_is(r->text, tokens[0], "map") ? tokens[1] : tokens[0];
    show_token(r->text, bad, shown, sizeof shown);
    an_cli_diag_set(diag, "%s:%d:%d: expected `map` (the line before the rows), got '%s'", file,
                    r->line, column_of(line_start, bad.start), shown);
    return false;
  }
  return true;
}

static bool passable(unsigned char c) {
  return c == '.' || c == 'G' || c == 'S';
}

bool an_cli_grid_parse(const char *file, const char *text, size_t length, an_cli_grid *grid,
                       an_cli_diag *diag) {
  memset(grid, 0, sizeof *grid);
  line_reader r = {text, length, 0, 0};
  // A UTF-8 byte order mark may precede the header.
  if (length >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0) {
    r.pos = 3;
  }
  int width = 0, height = 0;
  if (!parse_header(file, &r, &width, &height, diag)) {
    return false;
  }
  // Every cell takes a byte of the file, so a header promising more cells than the file has bytes
  // left is answered by the row checks below without allocating for it.
  size_t cells = (size_t)width * (size_t)height;
  unsigned char *blocked = NULL;
  if (cells <= length - r.pos) {
    blocked = malloc(cells);
    if (blocked == NULL) {
      an_cli_diag_set(diag, "%s: out of memory for a %d x %d grid", file, width, height);
      return false;
    }
  }
  int first_row_line = r.line + 1;
  for (int y = 0; y < height; y++) {
    size_t start, end;
    if (!next_line(&r, &start, &end)) {
      an_cli_diag_set(diag, "%s:%d:1: the file ends after %d of the %d rows (the height)", file,
                      r.line + 1, y, height);
      free(blocked);
      return false;
    }
    size_t n = end - start;
    for (size_t i = 0; i < n && i < (size_t)width; i++) {
      unsigned char c = (unsigned char)text[start + i];
      if (c < 0x20 || c >= 0x7f) {
        an_cli_diag_set(diag, "%s:%d:%d: byte 0x%02x is not a map cell (printable ASCII expected)",
                        file, r.line, (int)i + 1, c);
        free(blocked);
        return false;
      }
      if (blocked != NULL) {
        blocked[(size_t)y * (size_t)width + i] = passable(c) ? 0 : 1;
      }
    }
    if (n != (size_t)width) {
      if (n > (size_t)width) {
        an_cli_diag_set(diag, "%s:%d:%d: row %d is longer than the width %d", file, r.line,
                        width + 1, y, width);
      } else {
        an_cli_diag_set(diag, "%s:%d:%zu: row %d has %zu cells, expected %d (the width)", file,
                        r.line, n + 1, y, n, width);
      }
      free(blocked);
      return false;
    }
  }
  if (blocked == NULL) {
    // Unreachable: complete rows hold at least `cells` bytes. Kept as a guard.
    an_cli_diag_set(diag, "%s:%d:1: the rows are shorter than the header says", file, r.line);
    return false;
  }
  size_t start, end;
  while (next_line(&r, &start, &end)) {
    for (size_t i = start; i < end; i++) {
      if (text[i] != ' ' && text[i] != '\t') {
        an_cli_diag_set(diag, "%s:%d:%d: more rows than the height %d", file, r.line,
                        column_of(start, i), height);
        free(blocked);
        return false;
      }
    }
  }
  grid->width = width;
  grid->height = height;
  grid->blocked = blocked;
  grid->first_row_line = first_row_line;
  return true;
}

void an_cli_grid_free(an_cli_grid *grid) {
  free(grid->blocked);
  memset(grid, 0, sizeof *grid);
}

// ---------------------------------------------------------------------------------------------
// Tracing
//
// A boundary edge is a side of a blocked cell whose neighbour across it is free (or outside the
// grid), directed so that the blocked cell lies on its left. Sides of cell (x, y) in walking
// order: 0 along y from x to x+1, 1 along x+1 from y to y+1, 2 along y+1 back, 3 along x back.
// Each boundary edge is walked once; at a vertex the walk turns left when it can, so that it keeps
// to the cell it came along: two blocked cells meeting only at a corner are never joined.

static const int side_dx[4] = {1, 0, -1, 0}, side_dy[4] = {0, 1, 0, -1};
static const int start_dx[4] = {0, 1, 1, 0}, start_dy[4] = {0, 0, 1, 1};
static const int out_dx[4] = {0, 1, 0, -1}, out_dy[4] = {-1, 0, 1, 0};

// The cells to trace.
typedef struct mask {
  const unsigned char *cells; ///< w * h, 1 blocked
  int w, h;
} mask;

static bool is_blocked(const mask *m, int x, int y) {
  return x >= 0 && y >= 0 && x < m->w && y < m->h && m->cells[(size_t)y * (size_t)m->w + x] != 0;
}

typedef struct loop {
  size_t first, count; ///< into the vertex list
  int component;
  long long twice_area; ///< > 0: counter-clockwise (an outer ring); < 0: a hole
} loop;

typedef struct trace_state {
  const mask *m;
  int *label; ///< component of each blocked cell, -1 free
  int *mark;  ///< per vertex: 1 + its index on the walk's stack; 0 unused
  int *stack;
  size_t stack_count, stack_capacity;
  int *vertices; ///< loops' vertex indices, loop after loop
  size_t vertex_count, vertex_capacity;
  loop *loops;
  size_t loop_count, loop_capacity;
} trace_state;

typedef struct trace_output {
  an_cli_map *map;
  int first_row_line;
  an_cli_diag *diag;
} trace_output;

static bool grow(void **items, size_t *capacity, size_t needed, size_t size) {
  if (needed <= *capacity) {
    return true;
  }
  size_t next = *capacity == 0 ? 64 : *capacity;
  while (next < needed) {
    next *= 2;
  }
  void *grown = realloc(*items, next * size);
  if (grown == NULL) {
    return false;
  }
  *items = grown;
  *capacity = next;
  return true;
}

// Close the loop made of the stack's vertices from `from` on.
static bool emit_loop(trace_state *t, size_t from, int component) {
  size_t count = t->stack_count - from;
  if (!grow((void **)&t->vertices, &t->vertex_capacity, t->vertex_count + count,
            sizeof *t->vertices) ||
      !grow((void **)&t->loops, &t->loop_capacity, t->loop_count + 1, sizeof *t->loops)) {
    return false;
  }
  int stride = t->m->w + 1;
  long long twice = 0;
  for (size_t i = 0; i < count; i++) {
    int a = t->stack[from + i], b = t->stack[from + (i + 1) % count];
    twice += (long long)(a % stride) * (b / stride) - (long long)(b % stride) * (a / stride);
    t->vertices[t->vertex_count + i] = a;
  }
  t->loops[t->loop_count++] = (loop){t->vertex_count, count, component, twice};
  t->vertex_count += count;
  return true;
}

// A corner of the walk. A vertex the walk has already passed closes a loop: the two loops meet
// only there, so each comes out simple.
static bool add_corner(trace_state *t, int vertex, int component) {
  if (t->mark[vertex] != 0) {
    size_t from = (size_t)t->mark[vertex] - 1;
    if (!emit_loop(t, from, component)) {
      return false;
    }
    for (size_t i = from + 1; i < t->stack_count; i++) {
      t->mark[t->stack[i]] = 0;
    }
    t->stack_count = from + 1;
    return true;
  }
  if (!grow((void **)&t->stack, &t->stack_capacity, t->stack_count + 1, sizeof *t->stack)) {
    return false;
  }
  t->stack[t->stack_count++] = vertex;
  t->mark[vertex] = (int)t->stack_count;
  return true;
}

static bool walk(trace_state *t, unsigned char *seen, int x0, int y0, int s0) {
  const mask *m = t->m;
  int stride = m->w + 1, component = t->label[(size_t)y0 * (size_t)m->w + x0];
  int x = x0, y = y0, s = s0;
  t->stack_count = 0;
  do {
    seen[(size_t)y * (size_t)m->w + x] |= (unsigned char)(1u << s);
    int dx = side_dx[s], dy = side_dy[s];
    int end = (y + start_dy[s] + dy) * stride + (x + start_dx[s] + dx);
    int ahead_x = x + dx, ahead_y = y + dy;
    if (!is_blocked(m, ahead_x, ahead_y)) {
      s = (s + 1) % 4; // left: on along the same cell
      if (!add_corner(t, end, component)) {
        return false;
      }
    } else if (!is_blocked(m, ahead_x + dy, ahead_y - dx)) {
      x = ahead_x; // straight on: collinear edges merge
      y = ahead_y;
    } else {
      x = ahead_x + dy; // right, around the cell ahead on the right
      y = ahead_y - dx;
      s = (s + 3) % 4;
      if (!add_corner(t, end, component)) {
        return false;
      }
    }
  } while (x != x0 || y != y0 || s != s0);
  bool ok = t->stack_count < 4 || emit_loop(t, 0, component);
  for (size_t i = 0; i < t->stack_count; i++) {
    t->mark[t->stack[i]] = 0;
  }
  t->stack_count = 0;
  return ok;
}

// Label the 4-connected regions of blocked cells in reading order of their first cell. Returns
// the region count.
static int label_components(const mask *m, int *label, int *queue) {
  size_t n = (size_t)m->w * (size_t)m->h;
  for (size_t i = 0; i < n; i++) {
    label[i] = -1;
  }
  int components = 0;
  for (size_t i = 0; i < n; i++) {
    if (m->cells[i] == 0 || label[i] >= 0) {
      continue;
    }
    size_t head = 0, tail = 0;
    queue[tail++] = (int)i;
    label[i] = components;
    while (head < tail) {
      int cell = queue[head++], x = cell % m->w, y = cell / m->w;
      for (int k = 0; k < 4; k++) {
        int nx = x + out_dx[k], ny = y + out_dy[k];
        size_t next = (size_t)ny * (size_t)m->w + (size_t)nx;
        if (is_blocked(m, nx, ny) && label[next] < 0) {
          label[next] = components;
          queue[tail++] = (int)next;
        }
      }
    }
    components++;
  }
  return components;
}

static void free_rings(an_cli_ring *rings, size_t count) {
  for (size_t i = 0; i < count; i++) {
    free(rings[i].points);
  }
  free(rings);
}

// One region as a polygon: its outer ring first, then its holes.
static bool add_region(const trace_state *t, const size_t *members, size_t count, size_t outer,
                       int first_cell, const trace_output *out) {
  const mask *m = t->m;
  int stride = m->w + 1;
  an_cli_ring *rings = calloc(count, sizeof *rings);
  if (rings == NULL) {
    return false;
  }
  for (size_t r = 0; r < count; r++) {
    const loop *l = &t->loops[members[r == 0 ? outer : (r <= outer ? r - 1 : r)]];
    rings[r].points = malloc(l->count * sizeof *rings[r].points);
    if (rings[r].points == NULL) {
      free_rings(rings, count);
      return false;
    }
    rings[r].count = l->count;
    for (size_t k = 0; k < l->count; k++) {
      int v = t->vertices[l->first + k];
      rings[r].points[k] = (arcnav_vec2){(double)(v % stride), (double)(v / stride)};
    }
  }
  int fx = first_cell % m->w, fy = first_cell / m->w;
  an_cli_shape shape = {
      AN_CLI_SHAPE_POLYGON, out->first_row_line + fy, fx + 1, rings, count, {0, 0}, 0};
  return an_cli_map_add_shape(out->map, &shape);
}

static bool emit_regions(trace_state *t, int components, const trace_output *out) {
  // Loops grouped by region, in region order (a counting sort keeps walk order inside each).
  size_t *start = calloc((size_t)components + 1, sizeof *start);
  size_t *order = malloc((t->loop_count > 0 ? t->loop_count : 1) * sizeof *order);
  int *first_cell = malloc((size_t)(components > 0 ? components : 1) * sizeof *first_cell);
  bool ok = start != NULL && order != NULL && first_cell != NULL;
  if (ok) {
    for (size_t i = 0; i < t->loop_count; i++) {
      start[t->loops[i].component + 1]++;
    }
    for (int c = 0; c < components; c++) {
      start[c + 1] += start[c];
      first_cell[c] = -1;
    }
    size_t *fill = malloc(((size_t)components + 1) * sizeof *fill);
    ok = fill != NULL;
    if (ok) {
      memcpy(fill, start, ((size_t)components + 1) * sizeof *fill);
      for (size_t i = 0; i < t->loop_count; i++) {
        order[fill[t->loops[i].component]++] = i;
      }
      free(fill);
    }
    size_t cells = (size_t)t->m->w * (size_t)t->m->h;
    for (size_t i = 0; ok && i < cells; i++) {
      if (t->label[i] >= 0 && first_cell[t->label[i]] < 0) {
        first_cell[t->label[i]] = (int)i;
      }
    }
  }
  for (int c = 0; ok && c < components; c++) {
    const size_t *members = order + start[c];
    size_t count = start[c + 1] - start[c], outer = count, outers = 0;
    for (size_t i = 0; i < count; i++) {
      if (t->loops[members[i]].twice_area > 0) {
        outer = i;
        outers++;
      }
    }
    if (outers != 1) {
      an_cli_diag_set(out->diag,
                      "%s: internal error: blocked region %d traced into %zu outer rings",
                      out->map->file, c, outers);
      ok = false;
    } else {
      ok = add_region(t, members, count, outer, first_cell[c], out);
    }
  }
  free(start);
  free(order);
  free(first_cell);
  return ok;
}

static bool trace_mask(const mask *m, const trace_output *out) {
  size_t cells = (size_t)m->w * (size_t)m->h;
  size_t vertices = ((size_t)m->w + 1) * ((size_t)m->h + 1);
  trace_state t;
  memset(&t, 0, sizeof t);
  t.m = m;
  t.label = malloc(cells * sizeof *t.label);
  t.mark = calloc(vertices, sizeof *t.mark);
  unsigned char *seen = calloc(cells, 1);
  int *queue = malloc(cells * sizeof *queue);
  bool ok = t.label != NULL && t.mark != NULL && seen != NULL && queue != NULL;
  int components = ok ? label_components(m, t.label, queue) : 0;
  free(queue);
  for (int y = 0; ok && y < m->h; y++) {
    for (int x = 0; ok && x < m->w; x++) {
      size_t cell = (size_t)y * (size_t)m->w + x;
      if (m->cells[cell] == 0) {
        continue;
      }
      for (int s = 0; ok && s < 4; s++) {
        if ((seen[cell] & (1u << s)) == 0 && !is_blocked(m, x + out_dx[s], y + out_dy[s])) {
          ok = walk(&t, seen, x, y, s);
        }
      }
    }
  }
  free(seen);
  if (ok) {
    ok = emit_regions(&t, components, out);
  }
  if (!ok && out->diag != NULL && out->diag->message[0] == '\0') {
    an_cli_diag_set(out->diag, "%s: out of memory while tracing the grid", out->map->file);
  }
  free(t.label);
  free(t.mark);
  free(t.stack);
  free(t.vertices);
  free(t.loops);
  return ok;
}

bool an_cli_grid_trace(const an_cli_grid *grid, an_cli_map *map, an_cli_diag *diag) {
  trace_output out = {map, grid->first_row_line, diag};
  mask whole = {grid->blocked, grid->width, grid->height};
  if (!trace_mask(&whole, &out)) {
    return false;
  }
  arcnav_vec2 *bounds = malloc(4 * sizeof *bounds);
  if (bounds == NULL) {
    an_cli_diag_set(diag, "%s: out of memory", map->file);
    return false;
  }
  double w = grid->width, h = grid->height;
  bounds[0] = (arcnav_vec2){0, 0};
  bounds[1] = (arcnav_vec2){w, 0};
  bounds[2] = (arcnav_vec2){w, h};
  bounds[3] = (arcnav_vec2){0, h};
  free(map->bounds.points);
  map->bounds = (an_cli_ring){bounds, 4};
  map->has_bounds = true;
  map->bounds_feature = -1;
  return true;
}

bool an_cli_grid_load_map_text(const char *file, const char *text, size_t length, an_cli_map *map,
                               an_cli_diag *diag) {
  an_cli_grid grid;
  if (!an_cli_grid_parse(file, text, length, &grid, diag)) {
    return false;
  }
  map->grid = true;
  bool ok = an_cli_grid_trace(&grid, map, diag);
  an_cli_grid_free(&grid);
  return ok;
}
