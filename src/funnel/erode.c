// SPDX-License-Identifier: MIT
#include "funnel/erode.h"

#include "geom/geom.h"
#include "geom/tolerances.h"
#include "index/grid.h"
#include "map/circle_polygon.h"
#include "search/marks.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

// A corner gives at most this many grown vertices (the three-vertex reflex join).
#define MAX_PER_CORNER 3

// Below this value of 1 + cos(turn), a reflex miter runs so far along the bisector that the
// three-vertex join is used instead.
#define REFLEX_MITER_MIN 1e-3

static size_t push(vec2 *out, size_t n, vec2 p) {
  if (n > 0 && out[n - 1].x == p.x && out[n - 1].y == p.y) {
    return n;
  }
  out[n] = p;
  return n + 1;
}

/// The frame of ring vertex i: its edges' directions and the normals pointing away from the
/// material (right-hand, since material lies on the left).
typedef struct ring_corner {
  vec2 v, next;
  vec2 d0, d1, n0, n1;
  double len0, len1;
  double cross, dot;
} ring_corner;

static ring_corner corner_at(const arcnav_map *map, const an_ring *ring, size_t i) {
  ring_corner c;
  vec2 prev = an_ring_vertex(map, ring, i + ring->count - 1);
  c.v = an_ring_vertex(map, ring, i);
  c.next = an_ring_vertex(map, ring, i + 1);
  vec2 e0 = v2_sub(c.v, prev), e1 = v2_sub(c.next, c.v);
  c.len0 = v2_len(e0);
  c.len1 = v2_len(e1);
  c.d0 = v2_scale(e0, 1.0 / c.len0);
  c.d1 = v2_scale(e1, 1.0 / c.len1);
  c.n0 = v2(c.d0.y, -c.d0.x);
  c.n1 = v2(c.d1.y, -c.d1.x);
  c.cross = v2_cross(c.d0, c.d1);
  c.dot = v2_dot(c.d0, c.d1);
  return c;
}

static bool corner_is_convex(const ring_corner *c) {
  return c->cross > 0.0 || (c->cross == 0.0 && c->dot > 0.0);
}

static vec2 corner_miter(const ring_corner *c, double r) {
  return v2_add(c->v, v2_scale(v2_add(c->n0, c->n1), r / (1.0 + c->dot)));
}

/// The grown vertices of a convex corner: the miter, or for a sharper turn than 90 degrees the
/// square bevel (both moved edges cut by the line at distance r across the bisector b).
static size_t convex_join(const ring_corner *c, double r, vec2 out[2]) {
  if (c->dot >= 0.0) {
    out[0] = corner_miter(c, r);
    return 1;
  }
  vec2 b = v2_normalize(v2_sub(c->d0, c->d1));
  double t0 = r * (1.0 - v2_dot(c->n0, b)) / v2_dot(c->d0, b);
  double t1 = r * (1.0 - v2_dot(c->n1, b)) / v2_dot(c->d1, b);
  out[0] = v2_add(c->v, v2_add(v2_scale(c->n0, r), v2_scale(c->d0, t0)));
  out[1] = v2_add(c->v, v2_add(v2_scale(c->n1, r), v2_scale(c->d1, t1)));
  return 2;
}

/// Grow one ring (material on the left of its edges) by r into out (room for MAX_PER_CORNER
/// vertices per input vertex); returns the number of vertices written.
static size_t grow_ring(const arcnav_map *map, const an_ring *ring, double r, vec2 *out) {
  size_t count = ring->count, n = 0;
  for (size_t i = 0; i < count; ++i) {
    ring_corner c = corner_at(map, ring, i);
    if (corner_is_convex(&c)) {
      vec2 join[2];
      size_t joined = convex_join(&c, r, join);
      for (size_t k = 0; k < joined; ++k) {
        n = push(out, n, join[k]);
      }
      continue;
    }
    // Reflex: the miter cuts r * tan(turn / 2) off each moved edge. Keeping that within half an
    // edge stops neighbouring miters from turning an edge inside out.
    double trim = 1.0 + c.dot > REFLEX_MITER_MIN ? r * fabs(c.cross) / (1.0 + c.dot) : INFINITY;
    if (trim <= 0.5 * an_min(c.len0, c.len1)) {
      n = push(out, n, corner_miter(&c, r));
    } else {
      n = push(out, n, v2_add(c.v, v2_scale(c.n0, r)));
      n = push(out, n, c.v);
      n = push(out, n, v2_add(c.v, v2_scale(c.n1, r)));
    }
  }
  while (n > 1 && out[n - 1].x == out[0].x && out[n - 1].y == out[0].y) {
    --n;
  }
  if (n < 3) {
    // Cannot happen for a valid ring and r > 0; keep the ring as it was rather than lose it.
    for (n = 0; n < count; ++n) {
      out[n] = an_ring_vertex(map, ring, n);
    }
  }
  return n;
}

static size_t circle_ring(vec2 center, double radius, vec2 *out) {
  for (int k = 0; k < AN_NAVMESH_CIRCLE_SIDES; ++k) {
    out[k] = an_circle_polygon_vertex(center, radius, k);
  }
  return AN_NAVMESH_CIRCLE_SIDES;
}

static void widen_box(const vec2 *points, size_t count, vec2 *lo, vec2 *hi) {
  for (size_t i = 0; i < count; ++i) {
    *lo = v2(an_min(lo->x, points[i].x), an_min(lo->y, points[i].y));
    *hi = v2(an_max(hi->x, points[i].x), an_max(hi->y, points[i].y));
  }
}

// Growth past the size of the map changes nothing (every point of the navmesh box is then
// covered) but costs precision: 1e34 + 14.5 is 1e34. Clamp it.
static double clamped_radius(const arcnav_map *map, double radius) {
  arcnav_vec2 lo = {0.0, 0.0}, hi = {0.0, 0.0};
  arcnav_map_extent(map, &lo, &hi);
  return an_min(radius, 10.0 * (an_max(hi.x - lo.x, hi.y - lo.y) + 1.0));
}

arcnav_status an_erode_map(const arcnav_map *map, double radius, arcnav_map **out) {
  *out = NULL;
  radius = clamped_radius(map, radius);
  size_t point_room = 0, ring_room = 0;
  for (size_t o = 0; o < map->obstacle_count; ++o) {
    const an_obstacle *ob = &map->obstacles[o];
    if (ob->kind == AN_OBSTACLE_CIRCLE) {
      point_room += AN_NAVMESH_CIRCLE_SIDES;
      ring_room += 1;
      continue;
    }
    for (uint32_t r = 0; r < ob->ring_count; ++r) {
      point_room += MAX_PER_CORNER * (size_t)map->rings[ob->first_ring + r].count;
    }
    ring_room += ob->ring_count;
  }
  if (point_room >= UINT32_MAX || ring_room >= UINT32_MAX) {
    return ARCNAV_ERR_TOO_LARGE;
  }
  const an_allocator *alloc = &map->alloc;
  arcnav_map *grown = an_calloc(alloc, 1, sizeof *grown);
  if (!grown) {
    return ARCNAV_ERR_OUT_OF_MEMORY;
  }
  grown->alloc = map->alloc;
  bool ok = true;
  if (point_room > 0) {
    grown->points = an_alloc(alloc, point_room, sizeof *grown->points);
    grown->rings = an_alloc(alloc, ring_room, sizeof *grown->rings);
    grown->obstacles = an_alloc(alloc, map->obstacle_count, sizeof *grown->obstacles);
    ok = grown->points && grown->rings && grown->obstacles;
    grown->point_capacity = point_room;
    grown->ring_capacity = ring_room;
    grown->obstacle_capacity = map->obstacle_count;
  }
  if (ok && map->has_bounds) {
    grown->bounds_points =
        an_alloc(alloc, MAX_PER_CORNER * (size_t)map->bounds.count, sizeof *grown->bounds_points);
    ok = grown->bounds_points != NULL;
  }
  if (!ok) {
    arcnav_map_destroy(grown);
    return ARCNAV_ERR_OUT_OF_MEMORY;
  }
  for (size_t o = 0; o < map->obstacle_count; ++o) {
    const an_obstacle *ob = &map->obstacles[o];
    an_obstacle *g = &grown->obstacles[grown->obstacle_count++];
    memset(g, 0, sizeof *g);
    g->kind = AN_OBSTACLE_POLYGON;
    g->first_ring = (uint32_t)grown->ring_count;
    g->box_min = v2(INFINITY, INFINITY);
    g->box_max = v2(-INFINITY, -INFINITY);
    uint32_t ring_count = ob->kind == AN_OBSTACLE_CIRCLE ? 1 : ob->ring_count;
    for (uint32_t r = 0; r < ring_count; ++r) {
      vec2 *dst = grown->points + grown->point_count;
      size_t n = ob->kind == AN_OBSTACLE_CIRCLE
                     ? circle_ring(ob->center, ob->radius + radius, dst)
                     : grow_ring(map, &map->rings[ob->first_ring + r], radius, dst);
      grown->rings[grown->ring_count++] = (an_ring){.first = (uint32_t)grown->point_count,
                                                    .count = (uint32_t)n,
                                                    .obstacle = (int32_t)o,
                                                    .role = r == 0 ? AN_RING_OUTER : AN_RING_HOLE};
      grown->point_count += n;
      widen_box(dst, n, &g->box_min, &g->box_max);
    }
    g->ring_count = ring_count;
  }
  if (map->has_bounds) {
    size_t n = grow_ring(map, &map->bounds, radius, grown->bounds_points);
    grown->has_bounds = true;
    grown->bounds =
        (an_ring){.first = 0, .count = (uint32_t)n, .obstacle = -1, .role = AN_RING_BOUNDS};
  }
  *out = grown;
  return ARCNAV_OK;
}

// ---- trimming the grown rings before triangulation -----------------------------------------
//
// The grown region is the union of convex pieces, each swept by moving the original boundary
// towards its free side: per ring edge the strip between the edge and its moved copy, per convex
// corner its join (the miter's quadrilateral, the bevel's pentagon), per circle the grown
// polygon. A piece of a grown segment deeper than a margin inside one of them has blocked space on
// both sides.

typedef struct grown_piece {
  uint32_t first; ///< into corners; counter-clockwise
  uint32_t count;
} grown_piece;

struct an_erode_trim {
  an_allocator alloc;
  double margin;
  vec2 *corners;
  size_t corner_count, corner_capacity;
  grown_piece *pieces;
  size_t piece_count, piece_capacity;
  an_grid grid; ///< cell geometry and the pieces filed by box (its items are unused)
  uint32_t *piece_stamps;
  uint32_t stamp;
  double *covered; ///< pairs (t0, t1) found covered along the current segment
  size_t covered_count, covered_capacity;
  size_t pieces_seen;
  double *kept; ///< pairs handed out
  size_t kept_capacity;
  vec2 a, b; ///< the current segment
  bool out_of_memory;
};

static bool add_piece(an_erode_trim *trim, const vec2 *corners, size_t count) {
  if (!an_reserve(&trim->alloc, (void **)&trim->corners, &trim->corner_capacity, trim->corner_count,
                  trim->corner_count + count, sizeof *trim->corners) ||
      !an_reserve(&trim->alloc, (void **)&trim->pieces, &trim->piece_capacity, trim->piece_count,
                  trim->piece_count + 1, sizeof *trim->pieces)) {
    return false;
  }
  // Stored counter-clockwise, whichever way the ring ran.
  double area = 0.0;
  for (size_t i = 0; i < count; ++i) {
    area += v2_cross(corners[i], corners[(i + 1) % count]);
  }
  for (size_t i = 0; i < count; ++i) {
    trim->corners[trim->corner_count + i] = area >= 0.0 ? corners[i] : corners[count - 1 - i];
  }
  trim->pieces[trim->piece_count++] = (grown_piece){(uint32_t)trim->corner_count, (uint32_t)count};
  trim->corner_count += count;
  return true;
}

// The strips and convex joins of a ring, with the corners grow_ring() makes.
static bool add_ring_pieces(an_erode_trim *trim, const arcnav_map *map, const an_ring *ring,
                            double r) {
  for (size_t i = 0; i < ring->count; ++i) {
    ring_corner c = corner_at(map, ring, i);
    if (!(c.len0 > 0.0) || !(c.len1 > 0.0)) {
      continue;
    }
    vec2 out1 = v2_add(c.v, v2_scale(c.n1, r));
    vec2 strip[4] = {c.v, c.next, v2_add(c.next, v2_scale(c.n1, r)), out1};
    if (!add_piece(trim, strip, 4)) {
      return false;
    }
    if (!corner_is_convex(&c)) {
      continue; // reflex: the two strips cover the corner
    }
    vec2 join[5] = {c.v, v2_add(c.v, v2_scale(c.n0, r))};
    size_t n = 2 + convex_join(&c, r, join + 2);
    join[n++] = out1;
    if (!add_piece(trim, join, n)) {
      return false;
    }
  }
  return true;
}

static void piece_box(const void *context, size_t index, vec2 *lo, vec2 *hi) {
  const an_erode_trim *trim = context;
  const grown_piece *piece = &trim->pieces[index];
  *lo = *hi = trim->corners[piece->first];
  for (uint32_t i = 1; i < piece->count; ++i) {
    vec2 p = trim->corners[piece->first + i];
    *lo = v2(an_min(lo->x, p.x), an_min(lo->y, p.y));
    *hi = v2(an_max(hi->x, p.x), an_max(hi->y, p.y));
  }
}

// Cells of about one piece each, filed by box.
static arcnav_status file_pieces(an_erode_trim *trim) {
  vec2 lo, hi;
  piece_box(trim, 0, &lo, &hi);
  for (size_t i = 1; i < trim->piece_count; ++i) {
    vec2 plo, phi;
    piece_box(trim, i, &plo, &phi);
    lo = v2(an_min(lo.x, plo.x), an_min(lo.y, plo.y));
    hi = v2(an_max(hi.x, phi.x), an_max(hi.y, phi.y));
  }
  an_grid_fit(&trim->grid, lo, hi, trim->piece_count, 0.0);
  return an_grid_file_boxes(&trim->grid, trim->piece_count, piece_box, trim, &trim->alloc);
}

arcnav_status an_erode_trim_create(const arcnav_map *original, double radius,
                                   const an_allocator *alloc, an_erode_trim **out) {
  *out = NULL;
  an_erode_trim *trim = an_calloc(alloc, 1, sizeof *trim);
  if (!trim) {
    return ARCNAV_ERR_OUT_OF_MEMORY;
  }
  trim->alloc = *alloc;
  trim->margin = AN_TRIM_MARGIN_TOLERANCES * an_map_tolerance(original);
  radius = clamped_radius(original, radius);
  bool ok = true;
  for (size_t o = 0; o < original->obstacle_count && ok; ++o) {
    const an_obstacle *ob = &original->obstacles[o];
    if (ob->kind == AN_OBSTACLE_CIRCLE) {
      vec2 polygon[AN_NAVMESH_CIRCLE_SIDES];
      ok = add_piece(trim, polygon, circle_ring(ob->center, ob->radius + radius, polygon));
      continue;
    }
    for (uint32_t r = 0; r < ob->ring_count && ok; ++r) {
      ok = add_ring_pieces(trim, original, &original->rings[ob->first_ring + r], radius);
    }
  }
  if (ok && original->has_bounds) {
    ok = add_ring_pieces(trim, original, &original->bounds, radius);
  }
  arcnav_status status = ok ? ARCNAV_OK : ARCNAV_ERR_OUT_OF_MEMORY;
  if (status == ARCNAV_OK && trim->piece_count > 0) {
    status = file_pieces(trim);
  }
  if (status == ARCNAV_OK) {
    trim->piece_stamps = an_calloc(alloc, trim->piece_count + 1, sizeof *trim->piece_stamps);
    status = trim->piece_stamps ? ARCNAV_OK : ARCNAV_ERR_OUT_OF_MEMORY;
  }
  if (status != ARCNAV_OK) {
    an_erode_trim_destroy(trim);
    return status;
  }
  *out = trim;
  return ARCNAV_OK;
}

void an_erode_trim_destroy(an_erode_trim *trim) {
  if (!trim) {
    return;
  }
  an_allocator alloc = trim->alloc;
  an_grid_destroy(&trim->grid, &alloc);
  an_free(&alloc, trim->corners);
  an_free(&alloc, trim->pieces);
  an_free(&alloc, trim->piece_stamps);
  an_free(&alloc, trim->covered);
  an_free(&alloc, trim->kept);
  an_free(&alloc, trim);
}

static void note_covered(an_erode_trim *trim, double t0, double t1) {
  t0 = an_max(t0, 0.0);
  t1 = an_min(t1, 1.0);
  if (!(t0 < t1)) {
    return;
  }
  if (!an_reserve(&trim->alloc, (void **)&trim->covered, &trim->covered_capacity,
                  2 * trim->covered_count, 2 * trim->covered_count + 2, sizeof *trim->covered)) {
    trim->out_of_memory = true;
    return;
  }
  trim->covered[2 * trim->covered_count] = t0;
  trim->covered[2 * trim->covered_count + 1] = t1;
  trim->covered_count++;
}

// Cyrus-Beck: the parameters where the segment lies inside the convex piece by more than the
// margin, one interval.
static void cover_by_piece(an_erode_trim *trim, const grown_piece *piece) {
  vec2 a = trim->a, along = v2_sub(trim->b, trim->a);
  double enter = 0.0, leave = 1.0;
  for (uint32_t i = 0; i < piece->count && enter < leave; ++i) {
    vec2 p = trim->corners[piece->first + i];
    vec2 q = trim->corners[piece->first + (i + 1) % piece->count];
    vec2 edge = v2_sub(q, p);
    double length = v2_len(edge);
    if (!(length > 0.0)) {
      continue;
    }
    // Depth inside this side, as value + t * rate; it must exceed the margin.
    double value = v2_cross(edge, v2_sub(a, p)) / length - trim->margin;
    double rate = v2_cross(edge, along) / length;
    if (rate == 0.0) {
      if (!(value > 0.0)) {
        return;
      }
    } else if (rate > 0.0) {
      enter = an_max(enter, -value / rate);
    } else {
      leave = an_min(leave, -value / rate);
    }
  }
  if (enter < leave) {
    note_covered(trim, enter, leave);
  }
}

static bool cover_from_cell(void *context, int32_t column, int32_t row) {
  an_erode_trim *trim = context;
  const an_grid *grid = &trim->grid;
  size_t cell = (size_t)row * (size_t)grid->columns + (size_t)column;
  uint32_t count;
  const uint32_t *ids = an_cell_table_list(&grid->cells, cell, &count);
  for (uint32_t k = 0; k < count; ++k) {
    uint32_t index = ids[k];
    if (trim->piece_stamps[index] == trim->stamp) {
      continue;
    }
    if (++trim->pieces_seen > AN_TRIM_MAX_PIECES || trim->out_of_memory) {
      return false;
    }
    trim->piece_stamps[index] = trim->stamp;
    cover_by_piece(trim, &trim->pieces[index]);
  }
  return true;
}

static int compare_intervals(const void *pa, const void *pb) {
  const double *a = pa, *b = pb;
  return a[0] < b[0] ? -1 : (a[0] > b[0] ? 1 : 0);
}

size_t an_erode_trim_segment(void *context, vec2 a, vec2 b, const double **kept) {
  an_erode_trim *trim = context;
  trim->covered_count = 0;
  trim->pieces_seen = 0;
  trim->out_of_memory = false;
  trim->a = a;
  trim->b = b;
  vec2 p = a, q = b;
  if (trim->piece_count > 0 && v2_dist2(a, b) > 0.0 && an_grid_clip_segment(&trim->grid, &p, &q)) {
    if (an_stamp_next(&trim->stamp)) {
      memset(trim->piece_stamps, 0, trim->piece_count * sizeof *trim->piece_stamps);
    }
    an_grid_walk_clipped(&trim->grid, p, q, cover_from_cell, trim);
  }
  if (trim->out_of_memory || !an_reserve(&trim->alloc, (void **)&trim->kept, &trim->kept_capacity,
                                         0, 2 * trim->covered_count + 2, sizeof *trim->kept)) {
    return SIZE_MAX;
  }
  if (trim->covered_count > 1) {
    qsort(trim->covered, trim->covered_count, 2 * sizeof *trim->covered, compare_intervals);
  }
  size_t count = 0;
  double from = 0.0; // the kept stretch runs from here to the next covered interval
  for (size_t i = 0; i < trim->covered_count; ++i) {
    double t0 = trim->covered[2 * i], t1 = trim->covered[2 * i + 1];
    if (t0 > from) {
      trim->kept[2 * count] = from;
      trim->kept[2 * count + 1] = t0;
      ++count;
    }
    from = an_max(from, t1);
  }
  if (from < 1.0) {
    trim->kept[2 * count] = from;
    trim->kept[2 * count + 1] = 1.0;
    ++count;
  }
  *kept = trim->kept;
  return count;
}
