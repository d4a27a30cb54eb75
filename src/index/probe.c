// SPDX-License-Identifier: MIT
// Probes of the free space: clearance, disk raycast, still-free paths and the nearest free point,
// all on the obstacle grid and judged by the clearance checks (docs/DESIGN.md, "Probes").
#include "index/probe.h"

#include "geom/tolerances.h"
#include "search/marks.h"
#include "search/sort_words.h"

#include <stdlib.h>
#include <string.h>

// Candidates held at once; a probe that makes more tests the ones it holds early, which costs
// free checks but never changes an answer.
#define AN_PROBE_CANDIDATES 2048

arcnav_status an_probe_scratch_init(an_probe_scratch *scratch, const an_grid *grid,
                                    const an_allocator *alloc) {
  memset(scratch, 0, sizeof *scratch);
  arcnav_status status = an_clearance_scratch_init(&scratch->clearance, grid, alloc);
  if (status != ARCNAV_OK) {
    return status;
  }
  size_t items = grid->item_count > 0 ? grid->item_count : 1;
  scratch->item_marks = an_calloc(alloc, items, sizeof *scratch->item_marks);
  // As many again after them, for sorting (sort_by_distance).
  scratch->candidates = an_alloc(alloc, 2 * AN_PROBE_CANDIDATES, sizeof *scratch->candidates);
  if (!scratch->item_marks || !scratch->candidates) {
    an_probe_scratch_free(scratch, alloc);
    return ARCNAV_ERR_OUT_OF_MEMORY;
  }
  scratch->candidate_capacity = AN_PROBE_CANDIDATES;
  scratch->item_mark_room = items;
  return ARCNAV_OK;
}

void an_probe_scratch_free(an_probe_scratch *scratch, const an_allocator *alloc) {
  an_clearance_scratch_free(&scratch->clearance, alloc);
  an_free(alloc, scratch->item_marks);
  an_free(alloc, scratch->candidates);
  an_free(alloc, scratch->cell_marks);
  an_free(alloc, scratch->marked_cells);
  memset(scratch, 0, sizeof *scratch);
}

// A filter with nothing marked, in the scratch's memory (made on first use).
static bool new_cell_filter(an_probe_scratch *scratch, const an_grid *grid,
                            const an_allocator *alloc, an_cell_filter *out) {
  size_t cells = (size_t)grid->columns * (size_t)grid->rows;
  if (scratch->cell_capacity < cells) {
    an_free(alloc, scratch->cell_marks);
    an_free(alloc, scratch->marked_cells);
    scratch->cell_capacity = 0;
    scratch->cell_marks = an_calloc(alloc, cells, sizeof *scratch->cell_marks);
    scratch->marked_cells = an_alloc(alloc, cells, sizeof *scratch->marked_cells);
    if (!scratch->cell_marks || !scratch->marked_cells) {
      return false;
    }
    scratch->cell_capacity = cells;
  }
  if (an_stamp_next(&scratch->cell_stamp)) {
    memset(scratch->cell_marks, 0, scratch->cell_capacity * sizeof *scratch->cell_marks);
  }
  *out = (an_cell_filter){scratch->cell_marks, scratch->marked_cells, scratch->cell_stamp, 0};
  return true;
}

void an_cell_filter_mark_box(an_cell_filter *filter, const an_grid *grid, vec2 lo, vec2 hi) {
  an_cell_rect r = an_grid_box_cells(grid, lo, hi);
  for (int32_t row = r.r0; row <= r.r1; ++row) {
    size_t first = (size_t)row * (size_t)grid->columns;
    for (int32_t column = r.c0; column <= r.c1; ++column) {
      if (filter->marks[first + (size_t)column] != filter->mark) {
        filter->marks[first + (size_t)column] = filter->mark;
        filter->cells[filter->count++] = first + (size_t)column;
      }
    }
  }
}

static bool cell_in_filter(const an_cell_filter *filter, const an_grid *grid, int32_t column,
                           int32_t row) {
  return !filter ||
         filter->marks[(size_t)row * (size_t)grid->columns + (size_t)column] == filter->mark;
}

bool an_probe_scratch_fits(const an_probe_scratch *scratch, const an_grid *grid) {
  // Its tables by item (the marks, the clearance scratch's) each have a room of their own.
  return scratch->candidates && grid->item_count <= scratch->item_mark_room &&
         grid->item_count <= scratch->clearance.item_room &&
         grid->owner_count <= scratch->clearance.owner_room;
}

arcnav_status an_probe_scratch_renew(an_probe_scratch *scratch, const an_grid *grid,
                                     const an_allocator *alloc) {
  an_room_array marks[] = {{(void **)&scratch->item_marks, sizeof *scratch->item_marks, true}};
  arcnav_status status = an_clearance_scratch_renew(&scratch->clearance, grid, alloc);
  if (status == ARCNAV_OK && !an_room_for(alloc, marks, 1, &scratch->item_mark_room,
                                          grid->item_count > 0 ? grid->item_count : 1)) {
    status = ARCNAV_ERR_OUT_OF_MEMORY;
  }
  if (status != ARCNAV_OK) {
    an_probe_scratch_free(scratch, alloc);
  }
  return status;
}

static uint32_t next_mark(an_probe_scratch *scratch) {
  if (an_stamp_next(&scratch->mark)) {
    memset(scratch->item_marks, 0, scratch->item_mark_room * sizeof *scratch->item_marks);
  }
  return scratch->mark;
}

// True the first time item `index` is seen under `mark`, unless the query ignores its owner.
static bool first_sight(const an_clearance *cl, an_probe_scratch *scratch, uint32_t index,
                        uint32_t mark) {
  if (scratch->item_marks[index] == mark ||
      an_clearance_ignores(cl, cl->grid->items[index].owner)) {
    return false;
  }
  scratch->item_marks[index] = mark;
  return true;
}

static const uint32_t *cell_items(const an_grid *grid, int32_t column, int32_t row,
                                  uint32_t *count) {
  return an_cell_table_list(&grid->cells, (size_t)row * (size_t)grid->columns + (size_t)column,
                            count);
}

// ---- rings of cells around a point -----------------------------------------------------------
// Every item that comes within the grid's reach of a point is filed in that point's cell. So a
// point q lies in a cell of ring k around p's cell, and |q - p| >= ring_bound(k): ring by ring, a
// probe has seen every item near every point closer than the bound of the next ring. For p
// outside the grid the rings start at the cell nearest it; with p' the projection of p onto the
// grid's box, |q - p|^2 >= |p - p'|^2 + |q - p'|^2 for every q in the box (the box is convex), and
// the rings bound |q - p'|.

typedef struct ring_origin {
  int32_t column, row;
  double margin;  // from p's projection to the sides of its cell
  double outside; // from p to its projection
  int32_t last;   // the last ring that holds cells
} ring_origin;

static ring_origin ring_origin_of(const an_grid *grid, vec2 p) {
  ring_origin o;
  o.column = an_grid_column(grid, p.x);
  o.row = an_grid_row(grid, p.y);
  double cell = grid->cell_size;
  double x0 = grid->origin.x + o.column * cell, y0 = grid->origin.y + o.row * cell;
  double x = an_min(an_max(p.x, grid->origin.x), grid->origin.x + grid->columns * cell);
  double y = an_min(an_max(p.y, grid->origin.y), grid->origin.y + grid->rows * cell);
  double margin = an_min(an_min(x - x0, x0 + cell - x), an_min(y - y0, y0 + cell - y));
  // Rounding of the cell index may leave the projection a hair outside its cell.
  o.margin = an_max(0.0, margin - AN_GEOM_RELATIVE * cell);
  o.outside = v2_dist(p, v2(x, y)) * (1.0 - AN_GEOM_RELATIVE);
  o.last = an_grid_last_ring(grid, o.column, o.row);
  return o;
}

// No point of a cell in ring k or beyond is nearer to p than this.
static double ring_bound(const an_grid *grid, const ring_origin *o, int32_t k) {
  if (k > o->last) {
    return INFINITY;
  }
  double inside = k == 0 ? 0.0 : (k - 1) * grid->cell_size + o->margin;
  return o->outside > 0.0 ? v2_len(v2(o->outside, inside)) : inside;
}

// Visits every cell of ring k round the origin's cell; false when `visit` stopped.
static bool visit_ring(const an_grid *grid, const ring_origin *o, int32_t k, an_cell_visitor visit,
                       void *context) {
  an_cell_run runs[4];
  int run_count = an_grid_ring_runs(grid, o->column, o->row, k, runs);
  for (int r = 0; r < run_count; ++r) {
    for (int32_t t = runs[r].first; t <= runs[r].last; ++t) {
      int32_t column, row;
      an_cell_run_cell(runs[r], t, &column, &row);
      if (!visit(context, column, row)) {
        return false;
      }
    }
  }
  return true;
}

// The last free prefix: `free_to(context, t)` holds at *lo and not at *hi; both close in on the
// change to within `tolerance`.
static void narrow_to_contact(double *lo, double *hi, double tolerance,
                              bool (*free_to)(const void *context, double t), const void *context) {
  for (int step = 0; step < 200 && *hi - *lo > tolerance; ++step) {
    double mid = 0.5 * (*lo + *hi);
    if (free_to(context, mid)) {
      *lo = mid;
    } else {
      *hi = mid;
    }
  }
}

// ---- clearance -------------------------------------------------------------------------------

// Inside the blocked region: the clearance checks' own point test at radius 0 without tolerance
// says whether p lies strictly inside material or outside the bounds.
static bool inside_material(const an_clearance *cl, an_probe_scratch *scratch, vec2 p) {
  an_clearance exact = *cl;
  exact.radius = 0.0;
  exact.eps = 0.0;
  exact.point_agent = false;
  return !an_point_is_free(&exact, &scratch->clearance, p);
}

// Nearest point of item `item` to p, outside its material.
static vec2 item_nearest(const an_item *item, vec2 p) {
  if (item->kind == AN_ITEM_EDGE) {
    return an_closest_on_segment(p, item->a, an_item_end(item));
  }
  vec2 away = v2_sub(p, item->a);
  double d = v2_len(away);
  return d > 0.0 ? v2_mul_add(item->a, item->radius / d, away) : item->a;
}

typedef struct nearest_item {
  const an_clearance *cl;
  const an_grid *grid;
  an_probe_scratch *scratch;
  uint32_t mark;
  vec2 p;
  double best;
  vec2 nearest;
} nearest_item;

static bool nearest_item_cell(void *context, int32_t column, int32_t row) {
  nearest_item *near = context;
  uint32_t count;
  const uint32_t *items = cell_items(near->grid, column, row, &count);
  for (uint32_t i = 0; i < count; ++i) {
    if (!first_sight(near->cl, near->scratch, items[i], near->mark)) {
      continue;
    }
    vec2 q = item_nearest(&near->grid->items[items[i]], near->p);
    double d = v2_dist(near->p, q);
    if (d < near->best) {
      near->best = d;
      near->nearest = q;
    }
  }
  return true;
}

bool an_probe_clearance(const an_clearance *cl, an_probe_scratch *scratch, vec2 p,
                        double *out_distance, vec2 *out_nearest) {
  const an_grid *grid = cl->grid;
  if (grid->item_count == 0) {
    return false;
  }
  if (inside_material(cl, scratch, p)) {
    *out_distance = 0.0;
    *out_nearest = p;
    return true;
  }
  // Outside every obstacle the distance to their union is the least distance to one of their
  // boundaries, so to one of the items: the nearest is found ring by ring.
  ring_origin o = ring_origin_of(grid, p);
  nearest_item near = {cl, grid, scratch, next_mark(scratch), p, INFINITY, p};
  for (int32_t k = 0; k <= o.last && ring_bound(grid, &o, k) < near.best; ++k) {
    visit_ring(grid, &o, k, nearest_item_cell, &near);
  }
  double best = near.best;
  vec2 nearest = near.nearest;
  *out_distance = best;
  *out_nearest = nearest;
  return true;
}

// ---- raycast ---------------------------------------------------------------------------------

// The parameters [t0, t1], within [0, limit], where the ray from `from` along `unit` is inside the
// grid's box; false when there are none.
static bool ray_in_grid(const an_grid *grid, vec2 from, vec2 unit, double limit, double *t0,
                        double *t1) {
  double lo[2] = {grid->origin.x, grid->origin.y};
  double hi[2] = {grid->origin.x + grid->columns * grid->cell_size,
                  grid->origin.y + grid->rows * grid->cell_size};
  double start[2] = {from.x, from.y}, step[2] = {unit.x, unit.y};
  double enter = 0.0, leave = limit;
  for (int axis = 0; axis < 2; ++axis) {
    if (step[axis] == 0.0) {
      if (start[axis] < lo[axis] || start[axis] > hi[axis]) {
        return false;
      }
      continue;
    }
    double ta = (lo[axis] - start[axis]) / step[axis], tb = (hi[axis] - start[axis]) / step[axis];
    enter = an_max(enter, an_min(ta, tb));
    leave = an_min(leave, an_max(ta, tb));
  }
  *t0 = enter;
  *t1 = leave;
  return enter <= leave;
}

// The parameter at which the ray enters the box of cell (column, row).
static double cell_entry(const an_grid *grid, vec2 from, vec2 unit, int32_t column, int32_t row) {
  double cell = grid->cell_size;
  double x0 = grid->origin.x + column * cell, y0 = grid->origin.y + row * cell;
  double tx = unit.x > 0.0   ? (x0 - from.x) / unit.x
              : unit.x < 0.0 ? (x0 + cell - from.x) / unit.x
                             : -INFINITY;
  double ty = unit.y > 0.0   ? (y0 - from.y) / unit.y
              : unit.y < 0.0 ? (y0 + cell - from.y) / unit.y
                             : -INFINITY;
  return an_max(tx, ty);
}

// An open interval of ray parameters; empty when from >= to.
typedef struct span {
  double from, to;
} span;

static span span_hull(span a, span b) {
  if (!(a.from < a.to)) {
    return b;
  }
  if (!(b.from < b.to)) {
    return a;
  }
  return (span){an_min(a.from, b.from), an_max(a.to, b.to)};
}

// Where the ray's centre line is closer than `radius` to point c (an open disk).
static span disk_span(vec2 from, vec2 unit, vec2 c, double radius) {
  vec2 f = v2_sub(c, from);
  double along = v2_dot(unit, f), off = fabs(v2_cross(unit, f));
  if (!(off < radius)) {
    return (span){0.0, 0.0};
  }
  double half = sqrt((radius - off) * (radius + off));
  return (span){along - half, along + half};
}

// Where the ray's centre line is closer than `radius` to segment ab: the disks at its ends and the
// band along it. The set is convex, so the line meets it in one interval, the hull of the three.
static span stadium_span(vec2 from, vec2 unit, vec2 a, vec2 b, double radius) {
  span s = span_hull(disk_span(from, unit, a, radius), disk_span(from, unit, b, radius));
  vec2 edge = v2_sub(b, a);
  double length = v2_len(edge);
  if (!(length > 0.0)) {
    return s;
  }
  vec2 e = v2_scale(edge, 1.0 / length), n = v2_perp(e);
  vec2 w = v2_sub(from, a);
  double side = v2_dot(n, w), side_step = v2_dot(n, unit);
  double along = v2_dot(e, w), along_step = v2_dot(e, unit);
  span band = {-INFINITY, INFINITY};
  if (side_step == 0.0) {
    if (!(fabs(side) < radius)) {
      return s;
    }
  } else {
    double ta = (-radius - side) / side_step, tb = (radius - side) / side_step;
    band = (span){an_min(ta, tb), an_max(ta, tb)};
  }
  if (along_step == 0.0) {
    if (!(along > 0.0 && along < length)) {
      return s;
    }
  } else {
    double ta = -along / along_step, tb = (length - along) / along_step;
    band.from = an_max(band.from, an_min(ta, tb));
    band.to = an_min(band.to, an_max(ta, tb));
  }
  return span_hull(s, band);
}

typedef struct disk_ray {
  const an_clearance *cl;
  an_probe_scratch *scratch;
  uint32_t mark;
  vec2 from, unit;
  double limit; // R - eps: closer than this is not free
  double graze; // a dip shorter than this along the ray is rounding, not an entry
  double best;  // the earliest entry so far
  const an_item *hit_item;
} disk_ray;

static bool disk_ray_cell(void *context, int32_t column, int32_t row) {
  disk_ray *ray = context;
  const an_grid *grid = ray->cl->grid;
  if (cell_entry(grid, ray->from, ray->unit, column, row) > ray->best) {
    return false; // every entry found from here on would come later
  }
  uint32_t count;
  const uint32_t *items = cell_items(grid, column, row, &count);
  for (uint32_t i = 0; i < count; ++i) {
    if (!first_sight(ray->cl, ray->scratch, items[i], ray->mark)) {
      continue;
    }
    const an_item *item = &grid->items[items[i]];
    span s = item->kind == AN_ITEM_CIRCLE
                 ? disk_span(ray->from, ray->unit, item->a, item->radius + ray->limit)
                 : stadium_span(ray->from, ray->unit, item->a, an_item_end(item), ray->limit);
    double enter = an_max(s.from, 0.0);
    if (s.to - enter > ray->graze && enter < ray->best) {
      ray->best = enter;
      ray->hit_item = item;
    }
  }
  return true;
}

// The disk's sweep for R > 2 eps: the first entry of the centre line into the places closer than
// R - eps to an edge or a circle obstacle. A swept disk that starts free cannot get into material
// without coming that close to an edge, as in the segment check.
static bool disk_raycast(const an_clearance *cl, an_probe_scratch *scratch, vec2 from, vec2 unit,
                         double t0, double t1, double max_distance, double *out_distance,
                         vec2 *out_normal) {
  const an_grid *grid = cl->grid;
  disk_ray ray = {
      cl,       scratch, next_mark(scratch), from, unit, cl->radius - cl->eps, 1e-3 * cl->eps,
      INFINITY, NULL};
  an_grid_walk_clipped(grid, v2_mul_add(from, t0, unit), v2_mul_add(from, t1, unit), disk_ray_cell,
                       &ray);
  // An entry at max_distance leaves the disk touching there, which is free.
  if (!ray.hit_item || !(ray.best < max_distance)) {
    return false;
  }
  vec2 centre = v2_mul_add(from, ray.best, unit);
  const an_item *item = ray.hit_item;
  vec2 contact = item->kind == AN_ITEM_CIRCLE
                     ? item->a
                     : an_closest_on_segment(centre, item->a, an_item_end(item));
  vec2 normal = v2_normalize(v2_sub(centre, contact));
  *out_distance = ray.best;
  *out_normal = normal.x == 0.0 && normal.y == 0.0 ? v2_scale(unit, -1.0) : normal;
  return true;
}

typedef struct point_ray {
  const an_clearance *cl;
  an_probe_scratch *scratch;
  const an_grid *grid;
  uint32_t mark;
  vec2 from, unit;
  double slack;     // items this close to the line give events
  double base, end; // events outside (base, end) are not kept
  size_t count;
  double stopped_at; // entry of the cell where the buffer ran full; INFINITY when it did not
} point_ray;

static void add_event(point_ray *ray, double t) {
  if (t > ray->base && t < ray->end) {
    ray->scratch->candidates[ray->count++].distance = t;
  }
}

// The places along the ray where `item` may change what a point agent's prefix check says: where
// the ray crosses or touches an edge, passes a vertex, or meets a circle's rim.
static void item_events(point_ray *ray, const an_item *item) {
  vec2 unit = ray->unit;
  vec2 fa = v2_sub(item->a, ray->from);
  double along_a = v2_dot(unit, fa), side_a = v2_cross(unit, fa);
  if (item->kind == AN_ITEM_CIRCLE) {
    double off = fabs(side_a);
    if (off <= item->radius + ray->slack) {
      add_event(ray, along_a);
    }
    if (off < item->radius) {
      double half = sqrt((item->radius - off) * (item->radius + off));
      add_event(ray, along_a - half);
      add_event(ray, along_a + half);
    }
    return;
  }
  vec2 fb = v2_sub(an_item_end(item), ray->from);
  double along_b = v2_dot(unit, fb), side_b = v2_cross(unit, fb);
  if (fabs(side_a) <= ray->slack) {
    add_event(ray, along_a);
  }
  if (fabs(side_b) <= ray->slack) {
    add_event(ray, along_b);
  }
  if ((side_a > 0.0) != (side_b > 0.0) && side_a != side_b) {
    add_event(ray, along_a + (along_b - along_a) * side_a / (side_a - side_b));
  }
}

static bool point_ray_cell(void *context, int32_t column, int32_t row) {
  point_ray *ray = context;
  uint32_t count;
  const uint32_t *items = cell_items(ray->grid, column, row, &count);
  for (uint32_t i = 0; i < count; ++i) {
    if (ray->count + 3 > ray->scratch->candidate_capacity) {
      ray->stopped_at = cell_entry(ray->grid, ray->from, ray->unit, column, row);
      return false;
    }
    if (first_sight(ray->cl, ray->scratch, items[i], ray->mark)) {
      item_events(ray, &ray->grid->items[items[i]]);
    }
  }
  return true;
}

// The first `count` of the scratch's candidates (or a ray's events) by distance, equal ones in the
// order given: runs of SORT_RUN by insertion, then merged in passes between them and the buffer's
// second half. A call of a comparison function per comparison, as qsort makes, was a sixth to a
// fifth of a nearest reachable probe on ca_cave.
enum { SORT_RUN = 16 };
static void sort_by_distance(an_probe_scratch *scratch, size_t count) {
  an_probe_candidate *c = scratch->candidates, *spare = c + scratch->candidate_capacity;
  for (size_t lo = 0; lo < count; lo += SORT_RUN) {
    size_t hi = lo + SORT_RUN < count ? lo + SORT_RUN : count;
    for (size_t k = lo + 1; k < hi; ++k) {
      an_probe_candidate held = c[k];
      size_t at = k;
      for (; at > lo && c[at - 1].distance > held.distance; --at) {
        c[at] = c[at - 1];
      }
      c[at] = held;
    }
  }
  an_probe_candidate *from = c, *to = spare;
  for (size_t width = SORT_RUN; width < count; width *= 2) {
    for (size_t lo = 0; lo < count; lo += 2 * width) {
      size_t mid = lo + width < count ? lo + width : count;
      size_t hi = mid + width < count ? mid + width : count;
      size_t i = lo, j = mid, k = lo;
      while (i < mid && j < hi) {
        to[k++] = from[j].distance < from[i].distance ? from[j++] : from[i++];
      }
      while (i < mid) {
        to[k++] = from[i++];
      }
      while (j < hi) {
        to[k++] = from[j++];
      }
    }
    an_probe_candidate *swap = from;
    from = to;
    to = swap;
  }
  if (from != c) {
    memcpy(c, from, count * sizeof *c);
  }
}

static bool prefix_is_free(const an_clearance *cl, an_probe_scratch *scratch, vec2 from, vec2 unit,
                           double t) {
  return an_segment_is_free(cl, &scratch->clearance, from, v2_mul_add(from, t, unit));
}

// A point agent's contact at `at`: an edge's free side when it touches one along its inside, a
// circle's outward radius, else (a vertex, a pinch) straight back along the ray.
static vec2 point_contact_normal(const an_clearance *cl, vec2 at, vec2 unit) {
  const an_grid *grid = cl->grid;
  uint32_t count;
  const uint32_t *items =
      cell_items(grid, an_grid_column(grid, at.x), an_grid_row(grid, at.y), &count);
  vec2 normal = v2_scale(unit, -1.0);
  for (uint32_t i = 0; i < count; ++i) {
    const an_item *item = &grid->items[items[i]];
    if (an_clearance_ignores(cl, item->owner)) {
      continue;
    }
    if (item->kind == AN_ITEM_CIRCLE) {
      if (item->radius > cl->eps && fabs(v2_dist(at, item->a) - item->radius) <= 2.0 * cl->eps) {
        normal = v2_normalize(v2_sub(at, item->a));
      }
      continue;
    }
    vec2 item_end = an_item_end(item);
    if (an_point_segment_dist(at, item->a, item_end) <= 2.0 * cl->eps &&
        v2_dist(at, item->a) > 2.0 * cl->eps && v2_dist(at, item_end) > 2.0 * cl->eps) {
      // Material lies left of every stored edge.
      vec2 edge = v2_normalize(v2_sub(item_end, item->a));
      return v2(edge.y, -edge.x);
    }
  }
  return normal;
}

typedef struct ray_prefix {
  const an_clearance *cl;
  an_probe_scratch *scratch;
  vec2 from, unit;
} ray_prefix;

static bool ray_prefix_is_free(const void *context, double t) {
  const ray_prefix *ray = context;
  return prefix_is_free(ray->cl, ray->scratch, ray->from, ray->unit, t);
}

// The last free prefix in [lo, hi] (the prefix to lo is free) to within half a tolerance, for the
// rare ray whose events do not fit the buffer.
static bool bisect_raycast(const an_clearance *cl, an_probe_scratch *scratch, vec2 from, vec2 unit,
                           double lo, double hi, double *out_distance, vec2 *out_normal) {
  if (prefix_is_free(cl, scratch, from, unit, hi)) {
    return false;
  }
  ray_prefix prefix = {cl, scratch, from, unit};
  narrow_to_contact(&lo, &hi, 0.5 * cl->eps, ray_prefix_is_free, &prefix);
  *out_distance = lo;
  *out_normal = point_contact_normal(cl, v2_mul_add(from, lo, unit), unit);
  return true;
}

// A point agent's sweep: its checks follow the touching rule, so the answer is found with them.
// What a prefix check says changes only at the events of the items along the ray, so between two
// events one check at their middle decides, and prefixes are free up to the first stop: a binary
// search over the events. Events are gathered cell by cell in the order the ray passes; when the
// buffer fills, the events before the cell reached are complete, and the search goes on from
// there.
static bool point_raycast(const an_clearance *cl, an_probe_scratch *scratch, vec2 from, vec2 unit,
                          double t0, double t1, double *out_distance, vec2 *out_normal) {
  const an_grid *grid = cl->grid;
  double base = 0.0;
  for (;;) {
    point_ray ray = {cl, scratch, grid,    next_mark(scratch), from, unit, 2.0 * cl->eps, base,
                     t1, 0,       INFINITY};
    double walk_from = an_max(t0, base);
    an_grid_walk_clipped(grid, v2_mul_add(from, walk_from, unit), v2_mul_add(from, t1, unit),
                         point_ray_cell, &ray);
    if (ray.stopped_at <= base) {
      // One cell holds more items than the buffer takes: prefixes are judged by bisection.
      return bisect_raycast(cl, scratch, from, unit, base, t1, out_distance, out_normal);
    }
    double end = an_min(ray.stopped_at, t1);
    an_probe_candidate *events = scratch->candidates;
    sort_by_distance(scratch, ray.count);
    // events[0..m) strictly inside (base, end), then base before them and end after.
    size_t m = 0;
    for (size_t i = 0; i < ray.count; ++i) {
      if (events[i].distance < end && (m == 0 || events[i].distance > events[m - 1].distance)) {
        events[m++] = events[i];
      }
    }
    // Check k in [0, m]: the prefix to the middle after event k (event 0 is base); check m + 1:
    // the prefix to `end`. Find the first that fails.
    size_t lo = 0, hi = m + 2; // the first failing check lies in [lo, hi); hi = m + 2: none fails
    while (lo < hi) {
      size_t k = lo + (hi - lo) / 2;
      double at_k = k == 0 ? base : events[k - 1].distance;
      double next = k < m ? events[k].distance : end;
      double t = k == m + 1 ? end : 0.5 * (at_k + next);
      if (prefix_is_free(cl, scratch, from, unit, t)) {
        lo = k + 1;
      } else {
        hi = k;
      }
    }
    if (lo <= m + 1) {
      double t = lo == 0 ? base : (lo <= m ? events[lo - 1].distance : end);
      *out_distance = t;
      *out_normal = point_contact_normal(cl, v2_mul_add(from, t, unit), unit);
      return true;
    }
    if (end >= t1) {
      return false;
    }
    base = end;
  }
}

bool an_probe_raycast(const an_clearance *cl, an_probe_scratch *scratch, vec2 from, vec2 unit,
                      double max_distance, double *out_distance, vec2 *out_normal) {
  const an_grid *grid = cl->grid;
  double t0, t1;
  // Beyond the grid's box nothing is filed: the ray is free there.
  if (grid->item_count == 0 || !ray_in_grid(grid, from, unit, max_distance, &t0, &t1)) {
    return false;
  }
  if (cl->point_agent) {
    return point_raycast(cl, scratch, from, unit, t0, t1, out_distance, out_normal);
  }
  return disk_raycast(cl, scratch, from, unit, t0, t1, max_distance, out_distance, out_normal);
}

// ---- paths -----------------------------------------------------------------------------------

// The first `length` of a piece, as a segment's end or an arc.
static void piece_prefix(const arcnav_piece *piece, double length, vec2 *end, an_arc *arc) {
  if (piece->type == ARCNAV_PIECE_LINE) {
    *end = length >= piece->length
               ? piece->to
               : v2_lerp(piece->from, piece->to, piece->length > 0.0 ? length / piece->length : 0);
    return;
  }
  double sweep = length >= piece->length ? piece->sweep : length / piece->radius;
  double start = v2_angle(v2_sub(piece->from, piece->center));
  // An an_arc runs counter-clockwise: a clockwise piece is stored from the far end of its prefix.
  *arc = (an_arc){piece->center, piece->radius, piece->ccw ? start : start - sweep, sweep};
}

static bool piece_prefix_is_free(const an_clearance *cl, an_probe_scratch *scratch,
                                 const arcnav_piece *piece, double length) {
  vec2 end;
  an_arc arc;
  piece_prefix(piece, length, &end, &arc);
  return piece->type == ARCNAV_PIECE_LINE
             ? an_segment_is_free(cl, &scratch->clearance, piece->from, end)
             : an_arc_is_free(cl, &scratch->clearance, &arc);
}

typedef struct piece_check {
  const an_clearance *cl;
  an_probe_scratch *scratch;
  const arcnav_piece *piece;
} piece_check;

static bool piece_prefix_free_to(const void *context, double length) {
  const piece_check *prefix = context;
  return piece_prefix_is_free(prefix->cl, prefix->scratch, prefix->piece, length);
}

bool an_probe_path_is_free(const an_clearance *cl, an_probe_scratch *scratch, vec2 start,
                           const arcnav_piece *pieces, size_t count, double *out_contact) {
  if (!an_point_is_free(cl, &scratch->clearance, start)) {
    *out_contact = 0.0;
    return false;
  }
  double along = 0.0;
  for (size_t i = 0; i < count; ++i) {
    const arcnav_piece *piece = &pieces[i];
    // Each check assumes its start is free: the path's start, then the end of a free piece.
    if (!piece_prefix_is_free(cl, scratch, piece, piece->length)) {
      // Prefixes are free up to the first contact: bisection down to half a tolerance.
      double lo = 0.0, hi = piece->length;
      piece_check prefix = {cl, scratch, piece};
      narrow_to_contact(&lo, &hi, 0.5 * cl->eps, piece_prefix_free_to, &prefix);
      *out_contact = along + hi;
      return false;
    }
    along += piece->length;
  }
  return true;
}

// ---- nearest free point ----------------------------------------------------------------------
// The free set's boundary is made of offset curves: lines at distance d from edges (on their free
// side), circles of radius d round vertices and c + d round circle obstacles. The nearest free
// point to a blocked p lies on it, either where p projects onto one curve or where two curves
// meet (docs/DESIGN.md, "Probes"). The curves are drawn at d = R - eps / 2, inside the free set
// by half a tolerance, so that the rounding of a candidate cannot push it out.

typedef struct curve {
  bool line;
  vec2 point;          // a point of the line, or the circle's centre
  vec2 direction;      // the line's unit direction
  double radius;       // the circle's radius
  double length;       // the line's piece beside its edge: from `point` along `direction`
  vec2 edge_a, edge_b; // the line's edge
} curve;

// The curves of an item: an edge's line and the circle round its first vertex (the next edge of
// its ring draws the one round its last), a circle obstacle's circle. Returns how many.
static int item_curves(const an_item *item, double offset, curve out[2]) {
  if (item->kind == AN_ITEM_CIRCLE) {
    out[0] = (curve){false, item->a, v2(0.0, 0.0), item->radius + offset, 0.0, item->a, item->a};
    return 1;
  }
  vec2 item_end = an_item_end(item);
  double length = v2_dist(item->a, item_end);
  vec2 e = v2_normalize(v2_sub(item_end, item->a));
  out[0] = (curve){false, item->a, v2(0.0, 0.0), offset, 0.0, item->a, item->a};
  if (e.x == 0.0 && e.y == 0.0) {
    return 1;
  }
  // Material lies left of every stored edge: the free side is to the right.
  out[1] =
      (curve){true, v2_mul_add(item->a, offset, v2(e.y, -e.x)), e, 0.0, length, item->a, item_end};
  return 2;
}

typedef struct nearest_search {
  const an_clearance *cl;
  double slack; // how far beyond its edge's ends a line's point may still count
  an_probe_scratch *scratch;
  const an_grid *grid;
  vec2 p;
  double offset;
  size_t count; // candidates held
  double best;  // distance of the nearest free point found so far
  vec2 best_point;
  uint32_t mark;        // items whose own curves are made already
  an_point_test accept; // NULL: every free point
  void *context;
  bool aborted;
  double settled; // candidates nearer than this may be judged now: none to come is nearer
  const an_cell_filter *only; // NULL: every cell
  size_t tested;              // candidates given the free test
  bool refused;               // a free candidate was refused by the caller's test
  bool bound_pending;         // the caller's bound can still be asked for
} nearest_search;

// `candidate`: q is a candidate, not the probe's own point. Most candidates lie on one item's
// curve within another item's reach, so the quick no comes first for them.
static bool accepted(nearest_search *s, vec2 q, bool candidate) {
  ++s->tested;
  if ((candidate && an_point_is_surely_blocked(s->cl, &s->scratch->clearance, q)) ||
      !an_point_is_free(s->cl, &s->scratch->clearance, q)) {
    return false;
  }
  an_verdict verdict = s->accept ? s->accept(s->context, q) : AN_ACCEPTED;
  s->aborted = s->aborted || verdict == AN_ABORTED;
  s->refused = s->refused || verdict == AN_REJECTED;
  return verdict == AN_ACCEPTED;
}

// Candidates tested before a probe asks its bound for the cells to keep to, unless one free place
// was refused sooner: most probes end sooner, and pay nothing for the bound. A refused free place
// says the point lies in another part than the caller's, where the nearer candidates are all
// refused as well.
#define TESTS_BEFORE_BOUND 32

// A refusal stops the testing of a ring's candidates for the bound at once; a count of tests
// waits for the ring's end (bound_due()), where the probe often ends without the bound.
static bool bound_due_now(const nearest_search *s) {
  return s->bound_pending && s->refused;
}

static bool bound_due(const nearest_search *s) {
  return bound_due_now(s) || (s->bound_pending && s->tested >= TESTS_BEFORE_BOUND);
}

// Tests the held candidates nearer than `bound` in order of distance: the first free one the
// caller accepts is nearer than any other held; it becomes the best, and every candidate tested
// or beyond it goes. Candidates at `bound` or beyond stay for later. True when one was found.
// Testing stops early, the untested candidates held, once a refusal makes the bound due.
static bool test_candidates(nearest_search *s, double bound) {
  an_probe_candidate *c = s->scratch->candidates;
  // Only the candidates to be tested now are sorted: they are moved to the front first.
  double limit = an_min(bound, s->best);
  size_t due = 0;
  for (size_t j = 0; j < s->count; ++j) {
    if (c[j].distance < limit) {
      an_probe_candidate held = c[due];
      c[due++] = c[j];
      c[j] = held;
    }
  }
  sort_by_distance(s->scratch, due);
  size_t i = 0;
  bool found = false;
  for (; i < due && !s->aborted && !bound_due_now(s); ++i) {
    if (accepted(s, c[i].point, true)) {
      s->best = c[i].distance;
      s->best_point = c[i].point;
      found = true;
      ++i;
      break;
    }
  }
  size_t kept = 0;
  for (; i < s->count; ++i) {
    if (c[i].distance < s->best) {
      c[kept++] = c[i];
    }
  }
  s->count = kept;
  return found;
}

static bool in_filter(const nearest_search *s, vec2 q) {
  return cell_in_filter(s->only, s->grid, an_grid_column(s->grid, q.x), an_grid_row(s->grid, q.y));
}

// `in_searched_cell`: q lies in the cell being searched, which search_cell() keeps only inside the
// filter.
static void add_candidate(nearest_search *s, vec2 q, bool in_searched_cell) {
  double d = v2_dist(q, s->p);
  if (!(d < s->best) || !v2_is_finite(q) || (!in_searched_cell && !in_filter(s, q))) {
    return;
  }
  // A full buffer judges what it may judge in order first; only when that frees no room does it
  // judge candidates early, which may cost more tests (each a search, for a reachability test)
  // but never changes the answer.
  if (s->count == s->scratch->candidate_capacity) {
    test_candidates(s, s->settled);
    if (s->count == s->scratch->candidate_capacity) {
      test_candidates(s, INFINITY);
    }
    if (!(d < s->best)) {
      return;
    }
  }
  s->scratch->candidates[s->count++] = (an_probe_candidate){q, d};
}

// Only the piece of a line beside its edge is on the boundary: the line goes on in the circles
// round the edge's ends, which make their own candidates.
static bool on_line_piece(const nearest_search *s, const curve *line, double along) {
  return along >= -s->slack && along <= line->length + s->slack;
}

// Where p projects onto a curve: the foot on a line, the nearest point of a circle.
static void add_projection(nearest_search *s, const curve *c) {
  if (c->line) {
    double along = v2_dot(v2_sub(s->p, c->point), c->direction);
    if (on_line_piece(s, c, along)) {
      add_candidate(s, v2_mul_add(c->point, along, c->direction), false);
    }
    return;
  }
  vec2 away = v2_sub(s->p, c->point);
  double d = v2_len(away);
  if (c->radius <= 0.0) {
    add_candidate(s, c->point, false);
  } else if (d > 0.0) {
    add_candidate(s, v2_mul_add(c->point, c->radius / d, away), false);
  } else {
    // Every point of the circle is as near; where it is free only where curves meet decides.
    add_candidate(s, v2_add(c->point, v2(c->radius, 0.0)), false);
  }
}

// Accepts a meeting point of two curves only in the cell being searched: the two items are filed
// in the cell of every point where their curves meet, so each such point is made exactly once,
// with its cell's ring.
static void add_meeting(nearest_search *s, vec2 q, int32_t column, int32_t row) {
  if (an_grid_column(s->grid, q.x) == column && an_grid_row(s->grid, q.y) == row) {
    add_candidate(s, q, true);
  }
}

static void add_meetings(nearest_search *s, const curve *a, const curve *b, int32_t column,
                         int32_t row) {
  if (a->line && b->line) {
    double cross = v2_cross(a->direction, b->direction);
    if (cross != 0.0) {
      double t = v2_cross(v2_sub(b->point, a->point), b->direction) / cross;
      vec2 q = v2_mul_add(a->point, t, a->direction);
      if (on_line_piece(s, a, t) &&
          on_line_piece(s, b, v2_dot(v2_sub(q, b->point), b->direction))) {
        add_meeting(s, q, column, row);
      }
    }
    return;
  }
  if (!a->line && !b->line) {
    if (a->radius <= 0.0 || b->radius <= 0.0) {
      return; // a point is a candidate of its own
    }
    vec2 between = v2_sub(b->point, a->point);
    double d = v2_len(between);
    double slack = AN_GEOM_RELATIVE * (a->radius + b->radius);
    if (!(d > 0.0) || d > a->radius + b->radius + slack ||
        d < fabs(a->radius - b->radius) - slack) {
      return;
    }
    double along = (d * d + a->radius * a->radius - b->radius * b->radius) / (2.0 * d);
    double half = an_safe_sqrt(a->radius * a->radius - along * along);
    vec2 unit = v2_scale(between, 1.0 / d);
    vec2 foot = v2_mul_add(a->point, along, unit);
    add_meeting(s, v2_mul_add(foot, half, v2_perp(unit)), column, row);
    add_meeting(s, v2_mul_add(foot, -half, v2_perp(unit)), column, row);
    return;
  }
  const curve *line = a->line ? a : b, *circle = a->line ? b : a;
  if (circle->radius <= 0.0) {
    return;
  }
  if (circle->radius == s->offset &&
      (v2_equal(circle->point, line->edge_a) || v2_equal(circle->point, line->edge_b))) {
    // The circle round an end of the line's edge, as far out as the line: they touch where the
    // corner's wedge ends, by construction. The general formula would put two meetings there
    // about sqrt(ulp) of the radius apart, as far as the tolerance on a small map, so that a
    // path to the point would have to turn off the corner's arc (DESIGN.md, "Probes").
    vec2 touch =
        v2_mul_add(circle->point, circle->radius, v2(line->direction.y, -line->direction.x));
    if (on_line_piece(s, line, v2_dot(v2_sub(touch, line->point), line->direction))) {
      add_meeting(s, touch, column, row);
    }
    return;
  }
  double along = v2_dot(v2_sub(circle->point, line->point), line->direction);
  vec2 foot = v2_mul_add(line->point, along, line->direction);
  double off = v2_dist(foot, circle->point);
  if (off > circle->radius * (1.0 + AN_GEOM_RELATIVE)) {
    return;
  }
  double half = an_safe_sqrt((circle->radius - off) * (circle->radius + off));
  if (on_line_piece(s, line, along + half)) {
    add_meeting(s, v2_mul_add(foot, half, line->direction), column, row);
  }
  if (on_line_piece(s, line, along - half)) {
    add_meeting(s, v2_mul_add(foot, -half, line->direction), column, row);
  }
}

// An item of the cell being searched, as its meetings need it: its curves, and its box grown by
// the offset (and a circle's radius) with the rounding slack of that box.
typedef struct item_shape {
  curve curves[2];
  int curve_count;
  vec2 lo, hi;
  double slack;
} item_shape;

static void shape_of(const an_item *item, double offset, item_shape *out) {
  out->curve_count = item_curves(item, offset, out->curves);
  double grow = offset + (item->kind == AN_ITEM_CIRCLE ? item->radius : 0.0);
  vec2 end = an_item_end(item);
  out->lo = v2(an_min(item->a.x, end.x) - grow, an_min(item->a.y, end.y) - grow);
  out->hi = v2(an_max(item->a.x, end.x) + grow, an_max(item->a.y, end.y) + grow);
  out->slack = AN_GEOM_RELATIVE *
                   (1.0 + fabs(out->lo.x) + fabs(out->hi.x) + fabs(out->lo.y) + fabs(out->hi.y)) +
               AN_GEOM_RELATIVE * offset;
}

// Could the curves of items a and b meet within the offset of both? Their grown boxes must
// overlap.
static bool shapes_may_meet(const item_shape *a, const item_shape *b) {
  return a->lo.x <= b->hi.x + a->slack && b->lo.x <= a->hi.x + a->slack &&
         a->lo.y <= b->hi.y + a->slack && b->lo.y <= a->hi.y + a->slack;
}

// The shapes of a cell's first items are made once for all their pairs; a crowded cell's others
// are made when needed.
#define SHAPES_KEPT 64

static const item_shape *cell_shape(const nearest_search *s, const uint32_t *items, uint32_t i,
                                    const item_shape *kept, item_shape *spare) {
  if (i < SHAPES_KEPT) {
    return &kept[i];
  }
  shape_of(&s->grid->items[items[i]], s->offset, spare);
  return spare;
}

static bool search_cell(void *context, int32_t column, int32_t row) {
  nearest_search *s = context;
  // A candidate in a cell is made with that cell's ring (a meeting) or sooner (a projection, at
  // its item's first sight; the item is filed in the candidate's cell too), so cells outside the
  // filter make nothing that is kept.
  if (!cell_in_filter(s->only, s->grid, column, row)) {
    return true;
  }
  uint32_t mark = s->mark;
  const an_grid *grid = s->grid;
  uint32_t count;
  const uint32_t *items = cell_items(grid, column, row, &count);
  item_shape kept[SHAPES_KEPT];
  for (uint32_t i = 0; i < count && i < SHAPES_KEPT; ++i) {
    shape_of(&grid->items[items[i]], s->offset, &kept[i]);
  }
  for (uint32_t i = 0; i < count; ++i) {
    if (an_clearance_ignores(s->cl, grid->items[items[i]].owner)) {
      continue;
    }
    item_shape mine_spare, their_spare;
    const item_shape *mine = cell_shape(s, items, i, kept, &mine_spare);
    if (first_sight(s->cl, s->scratch, items[i], mark)) {
      for (int k = 0; k < mine->curve_count; ++k) {
        add_projection(s, &mine->curves[k]);
      }
    }
    for (uint32_t j = i + 1; j < count; ++j) {
      if (an_clearance_ignores(s->cl, grid->items[items[j]].owner)) {
        continue;
      }
      const item_shape *theirs = cell_shape(s, items, j, kept, &their_spare);
      if (!shapes_may_meet(mine, theirs)) {
        continue;
      }
      for (int k = 0; k < mine->curve_count; ++k) {
        for (int l = 0; l < theirs->curve_count; ++l) {
          add_meetings(s, &mine->curves[k], &theirs->curves[l], column, row);
        }
      }
    }
  }
  return true;
}

// Drops the held candidates outside the filter just put in place.
static void keep_candidates_in_filter(nearest_search *s) {
  an_probe_candidate *c = s->scratch->candidates;
  size_t kept = 0;
  for (size_t i = 0; i < s->count; ++i) {
    if (in_filter(s, c[i].point)) {
      c[kept++] = c[i];
    }
  }
  s->count = kept;
}

// No point of the cell is nearer to p than this, rounded down to a float, as the float's bits:
// positive floats order as their bits do. Less the rounding a point's cell index may have: a box
// grown by g on every side is at most sqrt(2) g nearer.
static uint32_t cell_distance_key(const an_grid *grid, vec2 p, int32_t column, int32_t row) {
  double grow = AN_GEOM_RELATIVE * grid->cell_size;
  double d = an_max(an_grid_cell_distance(grid, column, row, p) - 2.0 * grow, 0.0) *
             (1.0 - AN_GEOM_RELATIVE);
  float key = (float)d;
  if ((double)key > d) {
    key = nextafterf(key, 0.0f);
  }
  uint32_t bits;
  memcpy(&bits, &key, sizeof bits);
  return bits;
}

static double key_distance(uint64_t entry) {
  uint32_t bits = (uint32_t)(entry >> 32);
  float key;
  memcpy(&key, &bits, sizeof key);
  return key;
}

// Searches the filter's cells outside the first `searched` rings nearest first, by the distance
// from p to each cell rather than by ring: a candidate is made with its cell or sooner, so once
// the held candidates nearer than the next cell's distance are judged, the nearest accepted one
// is the answer. Far from p a ring's corners are much farther than its sides.
static void search_filtered(nearest_search *s, const ring_origin *o, int32_t searched,
                            an_cell_filter *filter) {
  const an_grid *grid = s->grid;
  size_t kept = 0;
  for (size_t i = 0; i < filter->count; ++i) {
    uint64_t cell = filter->cells[i];
    int32_t column = (int32_t)(cell % (uint64_t)grid->columns);
    int32_t row = (int32_t)(cell / (uint64_t)grid->columns);
    int32_t across = abs(column - o->column), along = abs(row - o->row);
    int32_t ring = across > along ? across : along;
    if (ring > searched) {
      filter->cells[kept++] = ((uint64_t)cell_distance_key(grid, s->p, column, row) << 32) | cell;
    }
  }
  // By the distance bound in the high 32 bits, over the cell's index.
  an_sort_words(filter->cells, kept);
  for (size_t i = 0; i < kept && !s->aborted; ++i) {
    s->settled = key_distance(filter->cells[i]);
    uint64_t cell = filter->cells[i] & 0xffffffffu;
    search_cell(s, (int32_t)(cell % (uint64_t)grid->columns),
                (int32_t)(cell / (uint64_t)grid->columns));
    double bound = i + 1 < kept ? key_distance(filter->cells[i + 1]) : INFINITY;
    if (test_candidates(s, bound) || s->best <= bound) {
      break;
    }
  }
}

an_verdict an_probe_nearest_accepted(const an_clearance *cl, an_probe_scratch *scratch, vec2 p,
                                     an_point_test accept, void *context,
                                     const an_cell_bound *bound, vec2 *out_point) {
  const an_grid *grid = cl->grid;
  nearest_search s = {.cl = cl,
                      .slack = 2.0 * cl->eps,
                      .scratch = scratch,
                      .grid = grid,
                      .p = p,
                      .offset = an_max(0.0, cl->radius - 0.5 * cl->eps),
                      .best = INFINITY,
                      .best_point = p,
                      .accept = accept,
                      .context = context,
                      .bound_pending = bound != NULL};
  if (accepted(&s, p, false)) {
    *out_point = p;
    return AN_ACCEPTED;
  }
  ring_origin o = ring_origin_of(grid, p);
  s.mark = next_mark(scratch);
  // A candidate is made with the ring of its cell, and no cell of a later ring is nearer than
  // that ring's bound: once the held candidates nearer than it are judged, the nearest accepted
  // one among them is the answer.
  an_cell_filter filter;
  for (int32_t k = 0; k <= o.last && !s.aborted; ++k) {
    s.settled = ring_bound(grid, &o, k);
    visit_ring(grid, &o, k, search_cell, &s);
    double next = ring_bound(grid, &o, k + 1);
    if (test_candidates(&s, next) || s.best <= next) {
      break;
    }
    // Places were refused: from here on only the cells the bound keeps are looked at, nearest
    // first. The bound is asked once: one that could not bound the places the first time (too
    // large a part, no memory) cannot the next ring either.
    if (bound_due(&s)) {
      s.bound_pending = false;
      bool bounded = new_cell_filter(scratch, grid, bound->alloc, &filter) &&
                     bound->mark(bound->context, &filter);
      if (bounded) {
        s.only = &filter;
        keep_candidates_in_filter(&s);
        search_filtered(&s, &o, k, &filter);
        break;
      }
    }
  }
  // The last ring may end with a refusal that made the bound due, the candidates after it held
  // untested: past the rings the bound is not asked, and those are tested as the others.
  s.bound_pending = false;
  test_candidates(&s, INFINITY);
  if (s.aborted) {
    return AN_ABORTED;
  }
  if (!(s.best < INFINITY)) {
    return AN_REJECTED;
  }
  *out_point = s.best_point;
  return AN_ACCEPTED;
}

bool an_probe_nearest_free(const an_clearance *cl, an_probe_scratch *scratch, vec2 p,
                           vec2 *out_point) {
  return an_probe_nearest_accepted(cl, scratch, p, NULL, NULL, NULL, out_point) == AN_ACCEPTED;
}
