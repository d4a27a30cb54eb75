// SPDX-License-Identifier: MIT
#include "svg.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PI 3.14159265358979323846

// SVG's y axis points down. By default every coordinate is written with y negated (ys = -1), so
// the picture shows the map the usual way up and text stays readable; the price is that an arc
// that turns counter-clockwise in map coordinates needs sweep-flag 0 in SVG. In screen
// coordinates (y_down, ys = +1) coordinates are written as they are: maps whose y counts rows
// down, such as MovingAI grids, then look as their files do, and counter-clockwise is sweep 1.

typedef struct box {
  double min_x, min_y, max_x, max_y;
  bool empty;
} box;

static void box_add(box *b, arcnav_vec2 p, double pad) {
  if (b->empty) {
    *b = (box){p.x - pad, p.y - pad, p.x + pad, p.y + pad, false};
    return;
  }
  b->min_x = fmin(b->min_x, p.x - pad);
  b->min_y = fmin(b->min_y, p.y - pad);
  b->max_x = fmax(b->max_x, p.x + pad);
  b->max_y = fmax(b->max_y, p.y + pad);
}

static void put_point(FILE *out, double ys, arcnav_vec2 p) {
  // Adding 0.0 turns -0 into 0 so the output does not show "-0".
  fprintf(out, "%.10g %.10g", p.x + 0.0, ys * p.y + 0.0);
}

static void put_escaped(FILE *out, const char *text) {
  for (const char *c = text; *c != '\0'; c++) {
    switch (*c) {
    case '<':
      fputs("&lt;", out);
      break;
    case '>':
      fputs("&gt;", out);
      break;
    case '&':
      fputs("&amp;", out);
      break;
    case '"':
      fputs("&quot;", out);
      break;
    default:
      fputc(*c, out);
    }
  }
}

static double signed_area(const arcnav_vec2 *p, size_t n) {
  double twice = 0;
  for (size_t i = 0; i < n; i++) {
    arcnav_vec2 a = p[i], b = p[(i + 1) % n];
    twice += a.x * b.y - a.y * b.x;
  }
  return twice / 2;
}

// Copy of a ring without repeated vertices, oriented so that the blocked material lies on the
// left of every edge (the same convention the library uses). Returns the vertex count (0 on
// failure or when fewer than 3 vertices remain).
static size_t oriented_ring(const an_cli_ring *ring, bool material_inside, arcnav_vec2 **out) {
  arcnav_vec2 *p = malloc((ring->count > 0 ? ring->count : 1) * sizeof *p);
  if (p == NULL) {
    return 0;
  }
  size_t n = 0;
  for (size_t i = 0; i < ring->count; i++) {
    arcnav_vec2 v = ring->points[i];
    if (n > 0 && v.x == p[n - 1].x && v.y == p[n - 1].y) {
      continue;
    }
    p[n++] = v;
  }
  while (n > 1 && p[n - 1].x == p[0].x && p[n - 1].y == p[0].y) {
    n--;
  }
  if (n < 3) {
    free(p);
    return 0;
  }
  bool ccw = signed_area(p, n) > 0;
  if (ccw != material_inside) {
    for (size_t i = 0, j = n - 1; i < j; i++, j--) {
      arcnav_vec2 t = p[i];
      p[i] = p[j];
      p[j] = t;
    }
  }
  *out = p;
  return n;
}

static arcnav_vec2 add_scaled(arcnav_vec2 a, arcnav_vec2 d, double s) {
  return (arcnav_vec2){a.x + d.x * s, a.y + d.y * s};
}

static arcnav_vec2 unit(arcnav_vec2 a, arcnav_vec2 b, double *length) {
  double dx = b.x - a.x, dy = b.y - a.y, l = hypot(dx, dy);
  *length = l;
  return l > 0 ? (arcnav_vec2){dx / l, dy / l} : (arcnav_vec2){1, 0};
}

typedef enum corner_kind { CORNER_ARC, CORNER_JOIN, CORNER_BREAK } corner_kind;

typedef struct corner {
  corner_kind kind;
  arcnav_vec2 entry, exit; ///< ends of the incoming and outgoing offset edges
} corner;

// The boundary of the region the agent's centre may not enter near one ring: every edge offset
// by `radius` to the free (right) side, joined by arcs of `radius` around corners that turn left
// (convex as seen from the free side) and trimmed where offset edges cross at the other corners.
static void inflated_ring(FILE *out, double ys, const arcnav_vec2 *p, size_t n, double radius) {
  corner *corners = malloc(n * sizeof *corners);
  arcnav_vec2 *dirs = malloc(n * sizeof *dirs);
  double *lengths = malloc(n * sizeof *lengths);
  if (corners == NULL || dirs == NULL || lengths == NULL) {
    free(corners);
    free(dirs);
    free(lengths);
    return;
  }
  for (size_t i = 0; i < n; i++) {
    dirs[i] = unit(p[i], p[(i + 1) % n], &lengths[i]);
  }
  for (size_t i = 0; i < n; i++) {
    size_t prev = (i + n - 1) % n;
    arcnav_vec2 din = dirs[prev], dout = dirs[i];
    arcnav_vec2 nin = {din.y, -din.x}, nout = {dout.y, -dout.x};
    double cross = din.x * dout.y - din.y * dout.x;
    double dot = din.x * dout.x + din.y * dout.y;
    corner *c = &corners[i];
    c->entry = add_scaled(p[i], nin, radius);
    c->exit = add_scaled(p[i], nout, radius);
    if (cross > 1e-12 || (fabs(cross) <= 1e-12 && dot < 0)) {
      c->kind = CORNER_ARC;
    } else if (fabs(cross) <= 1e-12) {
      c->kind = CORNER_JOIN;
      c->exit = c->entry;
    } else {
      // Offset lines meet at p + R (nin + nout) / (1 + nin . nout); keep it only when it lies on
      // both offset edges, otherwise the short edges vanish and a gap is honest.
      double k = radius / (1 + dot);
      arcnav_vec2 q = {p[i].x + (nin.x + nout.x) * k, p[i].y + (nin.y + nout.y) * k};
      double along_in = (q.x - c->entry.x) * din.x + (q.y - c->entry.y) * din.y;
      double along_out = (q.x - c->exit.x) * dout.x + (q.y - c->exit.y) * dout.y;
      if (along_in <= 0 && -along_in <= lengths[prev] && along_out >= 0 &&
          along_out <= lengths[i]) {
        c->kind = CORNER_JOIN;
        c->entry = c->exit = q;
      } else {
        c->kind = CORNER_BREAK;
      }
    }
  }
  fputs("<path d=\"M", out);
  put_point(out, ys, corners[0].exit);
  for (size_t k = 1; k <= n; k++) {
    const corner *c = &corners[k % n];
    fputs(" L", out);
    put_point(out, ys, c->entry);
    if (c->kind == CORNER_ARC) {
      fprintf(out, " A%.10g %.10g 0 0 %d ", radius, radius, ys > 0 ? 1 : 0);
      put_point(out, ys, c->exit);
    } else if (c->kind == CORNER_BREAK) {
      fputs(" M", out);
      put_point(out, ys, c->exit);
    }
  }
  fputs("\"/>\n", out);
  free(corners);
  free(dirs);
  free(lengths);
}

static void ring_path(FILE *out, double ys, const an_cli_ring *ring) {
  for (size_t i = 0; i < ring->count; i++) {
    fputs(i == 0 ? "M" : " L", out);
    put_point(out, ys, ring->points[i]);
  }
  fputs(" Z ", out);
}

static double arc_sweep(const arcnav_piece *piece) {
  if (piece->sweep > 0 && piece->sweep <= 2 * PI + 1e-9) {
    return piece->sweep;
  }
  double a0 = atan2(piece->from.y - piece->center.y, piece->from.x - piece->center.x);
  double a1 = atan2(piece->to.y - piece->center.y, piece->to.x - piece->center.x);
  double s = piece->ccw ? a1 - a0 : a0 - a1;
  while (s <= 0) {
    s += 2 * PI;
  }
  return s;
}

static void put_arc(FILE *out, double ys, double radius, bool ccw, arcnav_vec2 to) {
  fprintf(out, " A%.10g %.10g 0 0 %d ", radius, radius, ccw == (ys > 0) ? 1 : 0);
  put_point(out, ys, to);
}

static void path_commands(FILE *out, double ys, const arcnav_path *path, arcnav_vec2 from) {
  fputs("M", out);
  put_point(out, ys, from);
  size_t count = arcnav_path_piece_count(path);
  for (size_t i = 0; i < count; i++) {
    arcnav_piece p = arcnav_path_piece(path, i);
    if (p.type == ARCNAV_PIECE_LINE) {
      fputs(" L", out);
      put_point(out, ys, p.to);
      continue;
    }
    // An arc of more than half a turn is split at its middle: each half is then unambiguous with
    // large-arc 0, and a full turn (equal end points) does not vanish.
    double sweep = arc_sweep(&p);
    if (sweep > PI) {
      double a0 = atan2(p.from.y - p.center.y, p.from.x - p.center.x);
      double am = a0 + (p.ccw ? sweep / 2 : -sweep / 2);
      arcnav_vec2 mid = {p.center.x + p.radius * cos(am), p.center.y + p.radius * sin(am)};
      put_arc(out, ys, p.radius, p.ccw, mid);
    }
    put_arc(out, ys, p.radius, p.ccw, p.to);
  }
}

static box map_box(const an_cli_map *map, double radius, const an_cli_svg_query *queries,
                   size_t query_count) {
  box b = {0, 0, 0, 0, true};
  for (size_t i = 0; i < map->shape_count; i++) {
    const an_cli_shape *s = &map->shapes[i];
    if (s->kind == AN_CLI_SHAPE_CIRCLE) {
      box_add(&b, s->center, s->radius + radius);
      continue;
    }
    for (size_t j = 0; j < s->rings[0].count; j++) {
      box_add(&b, s->rings[0].points[j], radius);
    }
  }
  if (map->has_bounds) {
    for (size_t j = 0; j < map->bounds.count; j++) {
      box_add(&b, map->bounds.points[j], 0);
    }
  }
  for (size_t q = 0; q < query_count; q++) {
    box_add(&b, queries[q].from, radius);
    box_add(&b, queries[q].to, radius);
    if (queries[q].status != ARCNAV_OK || queries[q].path == NULL) {
      continue;
    }
    size_t count = arcnav_path_piece_count(queries[q].path);
    for (size_t i = 0; i < count; i++) {
      arcnav_piece p = arcnav_path_piece(queries[q].path, i);
      box_add(&b, p.from, 0);
      box_add(&b, p.to, 0);
      if (p.type == ARCNAV_PIECE_ARC) {
        box_add(&b, p.center, p.radius);
      }
    }
  }
  if (b.empty) {
    b = (box){0, 0, 1, 1, false};
  }
  return b;
}

static void draw_marker(FILE *out, double ys, arcnav_vec2 at, double radius, double dot,
                        const char *color) {
  if (radius > 0) {
    fprintf(out,
            "<circle cx=\"%.10g\" cy=\"%.10g\" r=\"%.10g\" fill=\"%s\" fill-opacity=\"0.25\" "
            "stroke=\"%s\"/>\n",
            at.x + 0.0, ys * at.y + 0.0, radius, color, color);
  }
  fprintf(out, "<circle cx=\"%.10g\" cy=\"%.10g\" r=\"%.10g\" fill=\"%s\" stroke=\"none\"/>\n",
          at.x + 0.0, ys * at.y + 0.0, dot, color);
}

static void draw_triangles(FILE *out, double ys, const arcnav_planner *mesh, double stroke) {
  size_t count = arcnav_planner_triangle_count(mesh);
  if (count == 0) {
    return;
  }
  fprintf(out, "<g fill=\"none\" stroke=\"#9fb7c9\" stroke-width=\"%.6g\">\n", stroke * 0.6);
  for (size_t i = 0; i < count; i++) {
    arcnav_vec2 vertices[3];
    if (!arcnav_planner_triangle(mesh, i, vertices)) {
      continue;
    }
    fputs("<path d=\"M", out);
    put_point(out, ys, vertices[0]);
    fputs(" L", out);
    put_point(out, ys, vertices[1]);
    fputs(" L", out);
    put_point(out, ys, vertices[2]);
    fputs(" Z\"/>\n", out);
  }
  fputs("</g>\n", out);
}

static void write_body(FILE *out, const an_cli_map *map, double radius,
                       const an_cli_svg_query *queries, size_t query_count, const char *title,
                       const arcnav_planner *mesh, bool y_down) {
  double ys = y_down ? 1 : -1;
  box b = map_box(map, radius, queries, query_count);
  double size = fmax(fmax(b.max_x - b.min_x, b.max_y - b.min_y), 1e-9);
  double margin = 0.06 * size;
  double x0 = b.min_x - margin, y0 = y_down ? b.min_y - margin : -(b.max_y + margin);
  double w = b.max_x - b.min_x + 2 * margin, h = b.max_y - b.min_y + 2 * margin;
  double stroke = size / 500;
  double pixels = 1000 / fmax(w, h);
  fprintf(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
  fprintf(out,
          "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"%.10g %.10g %.10g %.10g\" "
          "width=\"%.0f\" height=\"%.0f\">\n",
          x0, y0, w, h, w * pixels, h * pixels);
  if (title != NULL) {
    fputs("<title>", out);
    put_escaped(out, title);
    fputs("</title>\n", out);
  }
  fprintf(out,
          "<rect x=\"%.10g\" y=\"%.10g\" width=\"%.10g\" height=\"%.10g\" fill=\"#fbfaf6\"/>\n", x0,
          y0, w, h);
  if (map->has_bounds) {
    // Shade everything outside the bounds: the view rectangle minus the bounds ring.
    fprintf(out,
            "<path fill=\"#d9d4c7\" fill-rule=\"evenodd\" stroke=\"#6b6455\" "
            "stroke-width=\"%.6g\" d=\"M%.10g %.10g h%.10g v%.10g h%.10g Z ",
            stroke, x0, y0, w, h, -w);
    ring_path(out, ys, &map->bounds);
    fputs("\"/>\n", out);
  }
  if (mesh != NULL) {
    draw_triangles(out, ys, mesh, stroke);
  }
  fprintf(out, "<g fill=\"#8c8c8c\" stroke=\"#3d3d3d\" stroke-width=\"%.6g\">\n", stroke);
  for (size_t i = 0; i < map->shape_count; i++) {
    const an_cli_shape *s = &map->shapes[i];
    if (s->kind == AN_CLI_SHAPE_CIRCLE) {
      fprintf(out, "<circle cx=\"%.10g\" cy=\"%.10g\" r=\"%.10g\"/>\n", s->center.x + 0.0,
              ys * s->center.y + 0.0, s->radius);
      continue;
    }
    fputs("<path fill-rule=\"evenodd\" d=\"", out);
    for (size_t r = 0; r < s->ring_count; r++) {
      ring_path(out, ys, &s->rings[r]);
    }
    fputs("\"/>\n", out);
  }
  fputs("</g>\n", out);
  if (radius > 0) {
    fprintf(out,
            "<g fill=\"none\" stroke=\"#e07b00\" stroke-width=\"%.6g\" "
            "stroke-dasharray=\"%.6g %.6g\">\n",
            stroke, 4 * stroke, 2 * stroke);
    for (size_t i = 0; i < map->shape_count; i++) {
      const an_cli_shape *s = &map->shapes[i];
      if (s->kind == AN_CLI_SHAPE_CIRCLE) {
        fprintf(out, "<circle cx=\"%.10g\" cy=\"%.10g\" r=\"%.10g\"/>\n", s->center.x + 0.0,
                ys * s->center.y + 0.0, s->radius + radius);
        continue;
      }
      for (size_t r = 0; r < s->ring_count; r++) {
        arcnav_vec2 *p = NULL;
        size_t n = oriented_ring(&s->rings[r], r == 0, &p);
        if (n > 0) {
          inflated_ring(out, ys, p, n, radius);
          free(p);
        }
      }
    }
    if (map->has_bounds) {
      arcnav_vec2 *p = NULL;
      size_t n = oriented_ring(&map->bounds, false, &p);
      if (n > 0) {
        inflated_ring(out, ys, p, n, radius);
        free(p);
      }
    }
    fputs("</g>\n", out);
  }
  for (size_t q = 0; q < query_count; q++) {
    const an_cli_svg_query *query = &queries[q];
    if (query->status == ARCNAV_OK && query->path != NULL) {
      fprintf(out,
              "<path fill=\"none\" stroke=\"#1f5fd1\" stroke-width=\"%.6g\" "
              "stroke-linejoin=\"round\" d=\"",
              2 * stroke);
      path_commands(out, ys, query->path, query->from);
      fputs("\"/>\n", out);
    } else {
      fprintf(out,
              "<path fill=\"none\" stroke=\"#c62828\" stroke-width=\"%.6g\" "
              "stroke-dasharray=\"%.6g %.6g\" d=\"M",
              stroke, 2 * stroke, 2 * stroke);
      put_point(out, ys, query->from);
      fputs(" L", out);
      put_point(out, ys, query->to);
      fputs("\"/>\n", out);
    }
    draw_marker(out, ys, query->from, radius, 3 * stroke, "#2e7d32");
    draw_marker(out, ys, query->to, radius, 3 * stroke, "#c62828");
  }
  if (title != NULL) {
    fprintf(out,
            "<text x=\"%.10g\" y=\"%.10g\" font-family=\"sans-serif\" font-size=\"%.6g\" "
            "fill=\"#333\">",
            x0 + margin / 4, y0 + margin * 0.6, margin * 0.45);
    put_escaped(out, title);
    fputs("</text>\n", out);
  }
  fputs("</svg>\n", out);
}

bool an_cli_svg_write(const char *file, const an_cli_map *map, double radius,
                      const an_cli_svg_query *queries, size_t query_count, const char *title,
                      const arcnav_planner *mesh, bool y_down, an_cli_diag *diag) {
  FILE *out = fopen(file, "w");
  if (out == NULL) {
    an_cli_diag_set(diag, "%s: cannot write: %s", file, strerror(errno));
    return false;
  }
  write_body(out, map, radius, queries, query_count, title, mesh, y_down);
  bool ok = !ferror(out);
  if (fclose(out) != 0) {
    ok = false;
  }
  if (!ok) {
    an_cli_diag_set(diag, "%s: error while writing the SVG", file);
  }
  return ok;
}
