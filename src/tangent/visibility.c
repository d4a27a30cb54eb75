// SPDX-License-Identifier: MIT
#include "tangent/visibility.h"

#include "geom/tolerances.h"

#include <string.h>

#define BIN_WIDTH (4.0 / AN_SIGHT_BINS)

// ---- corner grid ---------------------------------------------------------------------------

// The box of a corner's circle: every touching point on it lies there (visibility.h).
static void corner_box(const void *context, size_t index, vec2 *lo, vec2 *hi) {
  const an_corner *corner = &((const an_corner *)context)[index];
  double reach = corner->radius;
  *lo = v2(corner->center.x - reach, corner->center.y - reach);
  *hi = v2(corner->center.x + reach, corner->center.y + reach);
}

arcnav_status an_corner_grid_build(const an_grid *grid, const an_corner *corners, size_t count,
                                   const an_allocator *alloc, an_corner_grid *out) {
  memset(out, 0, sizeof *out);
  an_cell_buckets buckets;
  arcnav_status status = an_grid_bucket_boxes(grid, count, corner_box, corners, alloc, &buckets);
  out->cells = buckets.table;
  return status;
}

arcnav_status an_corner_grid_carry(const an_grid *grid, const an_corner *corners, size_t count,
                                   const an_corner_grid *previous,
                                   const an_corner *previous_corners,
                                   const an_carried_corners *carried, const an_allocator *alloc,
                                   an_corner_grid *out) {
  memset(out, 0, sizeof *out);
  size_t cells = (size_t)grid->columns * (size_t)grid->rows;
  // After an addition every corner keeps its number: the table is copied as it is. Otherwise only
  // the cells of the corners gone lose entries.
  bool same_numbers = an_carried_same_numbers(carried);
  uint8_t *dropping = same_numbers ? NULL : an_calloc(alloc, cells + 1, sizeof *dropping);
  an_cell_buckets buckets;
  arcnav_status status = same_numbers || dropping ? an_cell_buckets_init(&buckets, cells, alloc)
                                                  : ARCNAV_ERR_OUT_OF_MEMORY;
  if (status != ARCNAV_OK) {
    an_free(alloc, dropping);
    return status;
  }
  // The cells of the corners gone lose entries; when few corners from the first changed on move
  // or go, marking their cells too marks every change, and the other cells are copied whole.
  size_t first_changed = 0;
  bool marks_every_change = an_carried_few_changed(carried, &first_changed);
  for (size_t c = 0; dropping && c < carried->previous_count; ++c) {
    if (carried->to[c] < 0 || (marks_every_change && c >= first_changed)) {
      vec2 lo, hi;
      corner_box(previous_corners, c, &lo, &hi);
      an_grid_mark_box(grid, lo, hi, dropping);
    }
  }
  for (int pass = 0; pass < 2 && status == ARCNAV_OK; ++pass) {
    an_cell_buckets_put_carried(&buckets, &previous->cells, same_numbers ? NULL : carried->to,
                                dropping, marks_every_change, NULL);
    for (size_t c = carried->carried; c < count; ++c) {
      vec2 lo, hi;
      corner_box(corners, c, &lo, &hi);
      an_cell_buckets_put_rect(&buckets, grid->columns, an_grid_box_cells(grid, lo, hi),
                               (uint32_t)c);
    }
    status = an_cell_buckets_end_pass(&buckets, alloc);
  }
  an_free(alloc, dropping);
  if (status != ARCNAV_OK) {
    an_cell_buckets_free(&buckets, alloc);
    return status;
  }
  out->cells = buckets.table;
  return ARCNAV_OK;
}

void an_corner_grid_destroy(an_corner_grid *cgrid, const an_allocator *alloc) {
  an_cell_table_free(&cgrid->cells, alloc);
}

size_t an_corner_grid_memory_bytes(const an_corner_grid *cgrid) {
  return an_cell_table_memory_bytes(&cgrid->cells);
}

// ---- scratch -------------------------------------------------------------------------------

arcnav_status an_sight_scratch_init(an_sight_scratch *scratch, const an_grid *grid,
                                    size_t corner_count, const an_allocator *alloc) {
  memset(scratch, 0, sizeof *scratch);
  size_t items = grid->item_count > 0 ? grid->item_count : 1;
  size_t corners = corner_count > 0 ? corner_count : 1;
  scratch->item_stamps = an_calloc(alloc, items, sizeof *scratch->item_stamps);
  scratch->corner_stamps = an_calloc(alloc, corners, sizeof *scratch->corner_stamps);
  scratch->candidates = an_alloc(alloc, corners, sizeof *scratch->candidates);
  if (!scratch->item_stamps || !scratch->corner_stamps || !scratch->candidates) {
    an_sight_scratch_free(scratch, alloc);
    return ARCNAV_ERR_OUT_OF_MEMORY;
  }
  scratch->item_room = items;
  scratch->corner_room = corners;
  return ARCNAV_OK;
}

arcnav_status an_sight_scratch_renew(an_sight_scratch *scratch, const an_grid *grid,
                                     size_t corner_count, const an_allocator *alloc) {
  // The stamp goes on from where it was, above every one the old tables hold.
  an_room_array items[] = {{(void **)&scratch->item_stamps, sizeof *scratch->item_stamps, true}};
  an_room_array corners[] = {
      {(void **)&scratch->corner_stamps, sizeof *scratch->corner_stamps, true},
      {(void **)&scratch->candidates, sizeof *scratch->candidates, false}};
  if (!an_room_for(alloc, items, 1, &scratch->item_room,
                   grid->item_count > 0 ? grid->item_count : 1) ||
      !an_room_for(alloc, corners, 2, &scratch->corner_room, corner_count > 0 ? corner_count : 1)) {
    return ARCNAV_ERR_OUT_OF_MEMORY;
  }
  an_sight_scratch kept = *scratch;
  memset(scratch, 0, sizeof *scratch);
  scratch->item_stamps = kept.item_stamps;
  scratch->corner_stamps = kept.corner_stamps;
  scratch->candidates = kept.candidates;
  scratch->stamp = kept.stamp;
  scratch->item_room = kept.item_room;
  scratch->corner_room = kept.corner_room;
  return ARCNAV_OK;
}

void an_sight_scratch_free(an_sight_scratch *scratch, const an_allocator *alloc) {
  an_free(alloc, scratch->item_stamps);
  an_free(alloc, scratch->corner_stamps);
  an_free(alloc, scratch->candidates);
  memset(scratch, 0, sizeof *scratch);
}

// ---- masks ---------------------------------------------------------------------------------

an_sight_mask an_sight_mask_all(void) {
  an_sight_mask mask;
  memset(mask.bits, 0xff, sizeof mask.bits);
  return mask;
}

// Sets the bins that overlap the counter-clockwise pseudo-angle range [lo, hi], one bin wider on
// each side for rounding.
static void mask_range(uint64_t bits[AN_SIGHT_WORDS], double lo, double hi) {
  if (hi < lo) {
    hi += 4.0;
  }
  int first = (int)floor(lo / BIN_WIDTH) - 1, last = (int)floor(hi / BIN_WIDTH) + 1;
  for (int j = first; j <= last; ++j) {
    int bin = ((j % AN_SIGHT_BINS) + AN_SIGHT_BINS) % AN_SIGHT_BINS;
    bits[bin / 64] |= (uint64_t)1 << (bin % 64);
  }
}

an_sight_mask an_sight_mask_of_corner(const an_corner *corner) {
  if (corner->wedge_sweep >= AN_TWO_PI) {
    return an_sight_mask_all();
  }
  an_sight_mask mask;
  memset(mask.bits, 0, sizeof mask.bits);
  // A tangent turning ccw leaves along the touch normal turned +90 degrees; cw along -90.
  vec2 ns = corner->normal_start, ne = corner->normal_end;
  mask_range(mask.bits[0], an_pseudo_angle(v2_perp(ns)), an_pseudo_angle(v2_perp(ne)));
  mask_range(mask.bits[1], an_pseudo_angle(v2_scale(v2_perp(ns), -1.0)),
             an_pseudo_angle(v2_scale(v2_perp(ne), -1.0)));
  return mask;
}

static bool mask_has(const an_sight_mask *mask, int lane, int bin) {
  return (mask->bits[lane][bin / 64] >> (bin % 64)) & 1u;
}

bool an_sight_pair_may_pass(const an_sight *sight, const an_sight_mask *mask, vec2 offset,
                            double radius_sum) {
  if (!sight->culls) {
    return true;
  }
  double dist = v2_len(offset);
  if (!(dist > 2.0 * radius_sum)) {
    return true; // close pairs: the angular spread is wide, leave them to the exact tests
  }
  // Half-angle of the spread in radians (asin x <= x pi/2); the pseudo-angle changes at most as
  // fast as the angle.
  double spread = 1.6 * radius_sum / dist + AN_SPAN_SLACK;
  double centre = an_pseudo_angle(offset);
  int first = (int)floor((centre - spread) / BIN_WIDTH);
  int last = (int)floor((centre + spread) / BIN_WIDTH);
  double shortest = dist - radius_sum;
  double need = shortest - an_sight_margin(shortest, sight->eps);
  for (int j = first; j <= last; ++j) {
    int bin = ((j % AN_SIGHT_BINS) + AN_SIGHT_BINS) % AN_SIGHT_BINS;
    for (int lane = 0; lane < 2; ++lane) {
      if (mask_has(mask, lane, bin) && !(sight->reach[lane][bin] < need)) {
        return true;
      }
    }
  }
  return false;
}

// ---- occluders -----------------------------------------------------------------------------

// Every bin lying wholly inside the counter-clockwise span (lo, hi) is closed beyond `dist`.
static void close_span(an_sight *sight, int lane, double lo, double hi, double dist) {
  if (hi < lo) {
    hi += 4.0;
  }
  lo += AN_SPAN_SLACK;
  hi -= AN_SPAN_SLACK;
  // A span of half a turn or more cannot come from a proper occluder; ignore rounding accidents.
  if (!(hi > lo) || hi - lo >= 2.0) {
    return;
  }
  int first = (int)ceil(lo / BIN_WIDTH), last = (int)floor(hi / BIN_WIDTH) - 1;
  for (int j = first; j <= last; ++j) {
    int bin = j % AN_SIGHT_BINS;
    if (dist < sight->reach[lane][bin]) {
      sight->reach[lane][bin] = dist;
    }
  }
}

// Direction of the line that passes `offset` to the left of the viewpoint (cross(d, x - p) =
// offset) and goes forward through v - p. Needs |v - p| > |offset|.
static vec2 offset_direction(vec2 v, double offset) {
  double length = v2_len(v);
  double sine = offset / length, cosine = an_safe_sqrt(1.0 - sine * sine);
  vec2 u = v2_scale(v, 1.0 / length);
  return v2(cosine * u.x + sine * u.y, -sine * u.x + cosine * u.y);
}

static double lane_offset_of(int lane, double rp) {
  return lane == 0 ? -rp : rp;
}

static void occlude_edge(an_sight *sight, vec2 a, vec2 b, double eps) {
  vec2 p = sight->origin;
  double rp = sight->lane_offset;
  vec2 edge = v2_sub(b, a);
  double length = v2_len(edge);
  if (!(length > 0.0)) {
    return;
  }
  // Only an edge with the whole departure circle strictly on its free (right) side is entered
  // from outside by every ray that crosses it.
  if (!(v2_cross(edge, v2_sub(p, a)) / length < -(rp + eps))) {
    return;
  }
  vec2 pa = v2_sub(a, p), pb = v2_sub(b, p);
  double dist = an_max(v2_len(pa), v2_len(pb));
  if (rp == 0.0) {
    close_span(sight, 0, an_pseudo_angle(pb), an_pseudo_angle(pa), dist);
    return;
  }
  for (int lane = 0; lane < 2; ++lane) {
    double offset = lane_offset_of(lane, rp);
    close_span(sight, lane, an_pseudo_angle(offset_direction(pb, offset)),
               an_pseudo_angle(offset_direction(pa, offset)), dist);
  }
}

static void occlude_circle(an_sight *sight, vec2 center, double radius, double eps) {
  vec2 pc = v2_sub(center, sight->origin);
  double rp = sight->lane_offset;
  double dist = v2_len(pc);
  if (!(dist > rp + radius + eps)) {
    return;
  }
  vec2 u = v2_scale(pc, 1.0 / dist);
  int lanes = rp == 0.0 ? 1 : 2;
  for (int lane = 0; lane < lanes; ++lane) {
    double offset = lane_offset_of(lane, rp);
    // Lines at `offset` that touch the circle: turned from u by -asin((offset +- radius) / dist).
    double s_lo = (offset + radius) / dist, s_hi = (offset - radius) / dist;
    double c_lo = an_safe_sqrt(1.0 - s_lo * s_lo), c_hi = an_safe_sqrt(1.0 - s_hi * s_hi);
    vec2 lo = v2(c_lo * u.x + s_lo * u.y, -s_lo * u.x + c_lo * u.y);
    vec2 hi = v2(c_hi * u.x + s_hi * u.y, -s_hi * u.x + c_hi * u.y);
    close_span(sight, lane, an_pseudo_angle(lo), an_pseudo_angle(hi), dist);
  }
}

// ---- leaving the grid ----------------------------------------------------------------------

// The unit-ish vector whose pseudo-angle is `pa`.
static vec2 pseudo_direction(double pa) {
  if (pa < 1.0) {
    return v2(1.0 - pa, pa);
  }
  if (pa < 2.0) {
    double t = pa - 1.0;
    return v2(-t, 1.0 - t);
  }
  if (pa < 3.0) {
    double t = pa - 2.0;
    return v2(t - 1.0, -t);
  }
  double t = pa - 3.0;
  return v2(t, t - 1.0);
}

static double exit_distance(vec2 p, vec2 d, vec2 lo, vec2 hi) {
  double t = INFINITY;
  if (d.x > 0.0) {
    t = an_min(t, (hi.x - p.x) / d.x);
  } else if (d.x < 0.0) {
    t = an_min(t, (lo.x - p.x) / d.x);
  }
  if (d.y > 0.0) {
    t = an_min(t, (hi.y - p.y) / d.y);
  } else if (d.y < 0.0) {
    t = an_min(t, (lo.y - p.y) / d.y);
  }
  return an_max(t, 0.0) * v2_len(d);
}

// Per bin, the farthest any ray in it can go before leaving the box that holds every target
// tangent: nothing lies beyond, so such a bin is closed for the walk (never for culling).
static void exit_bounds(vec2 p, vec2 lo, vec2 hi, double out[AN_SIGHT_BINS]) {
  double at_boundary[AN_SIGHT_BINS + 1];
  for (int j = 0; j <= AN_SIGHT_BINS; ++j) {
    at_boundary[j] =
        exit_distance(p, pseudo_direction(j == AN_SIGHT_BINS ? 0.0 : j * BIN_WIDTH), lo, hi);
  }
  for (int j = 0; j < AN_SIGHT_BINS; ++j) {
    out[j] = an_max(at_boundary[j], at_boundary[j + 1]);
  }
  vec2 box_corners[4] = {lo, v2(hi.x, lo.y), hi, v2(lo.x, hi.y)};
  for (int k = 0; k < 4; ++k) {
    vec2 d = v2_sub(box_corners[k], p);
    if (d.x == 0.0 && d.y == 0.0) {
      continue;
    }
    int bin = an_sight_bin(d);
    out[bin] = an_max(out[bin], v2_len(d));
  }
}

void an_sight_offer_all(an_sight_scratch *scratch, size_t corner_count) {
  scratch->sight.culls = false;
  scratch->candidate_count = 0;
  for (size_t c = 0; c < corner_count; ++c) {
    scratch->candidates[scratch->candidate_count++] = (uint32_t)c;
  }
}

// ---- the walk ------------------------------------------------------------------------------

static uint32_t next_stamp(an_sight_scratch *scratch) {
  if (scratch->stamp == UINT32_MAX) {
    memset(scratch->item_stamps, 0, scratch->item_room * sizeof *scratch->item_stamps);
    memset(scratch->corner_stamps, 0, scratch->corner_room * sizeof *scratch->corner_stamps);
    scratch->stamp = 0;
  }
  return ++scratch->stamp;
}

void an_sight_begin_offers(an_sight_scratch *scratch) {
  next_stamp(scratch);
  scratch->sight.culls = false;
  scratch->candidate_count = 0;
  scratch->limited = false;
}

static void visit_cell(const an_grid *grid, const an_corner_grid *cgrid, an_sight_scratch *scratch,
                       uint32_t stamp, int32_t column, int32_t row, double eps) {
  size_t cell = (size_t)row * (size_t)grid->columns + (size_t)column;
  uint32_t count;
  const uint32_t *ids = an_cell_table_list(&grid->cells, cell, &count);
  for (uint32_t k = 0; k < count; ++k) {
    uint32_t index = ids[k];
    if (scratch->item_stamps[index] == stamp) {
      continue;
    }
    scratch->item_stamps[index] = stamp;
    const an_item *item = &grid->items[index];
    if (scratch->ignored && scratch->ignored[item->owner]) {
      continue;
    }
    scratch->occluded++;
    if (item->kind == AN_ITEM_CIRCLE) {
      occlude_circle(&scratch->sight, item->a, item->radius, eps);
    } else {
      occlude_edge(&scratch->sight, item->a, an_item_end(item), eps);
    }
  }
  const uint32_t *corners = an_cell_table_list(&cgrid->cells, cell, &count);
  for (uint32_t k = 0; k < count; ++k) {
    uint32_t corner = corners[k];
    if (scratch->corner_stamps[corner] == stamp) {
      continue;
    }
    scratch->corner_stamps[corner] = stamp;
    scratch->candidates[scratch->candidate_count++] = corner;
  }
}

// The lower bound on |x - origin| + |x - goal| over the cell at position t of the run.
static double distance_sum(const an_grid *grid, vec2 origin, const an_sight_limit *limit,
                           an_cell_run run, int32_t t) {
  int32_t column, row;
  an_cell_run_cell(run, t, &column, &row);
  return an_grid_cell_distance_sum(grid, column, row, origin, limit->goal);
}

// Does no cell of the run hold an item or a corner? Such a run neither occludes nor leaves a
// target out, whatever the limit.
static bool run_is_empty(const an_grid *grid, const an_corner_grid *cgrid, an_cell_run run) {
  for (int32_t t = run.first; t <= run.last; ++t) {
    int32_t column, row;
    an_cell_run_cell(run, t, &column, &row);
    size_t cell = (size_t)row * (size_t)grid->columns + (size_t)column;
    uint32_t items, corners;
    an_cell_table_list(&grid->cells, cell, &items);
    an_cell_table_list(&cgrid->cells, cell, &corners);
    if (items > 0 || corners > 0) {
      return false;
    }
  }
  return true;
}

// Visits the cells of a run; with a limit, only those within it. The distance sum is convex
// along a run (each distance to a sliding box is), so the cells within the limit are one interval
// around its minimum: found by a ternary search, then walked outwards. An empty run is passed
// over, without the search: the rings of a grid stretched by a far obstacle are mostly empty.
static void visit_run(const an_grid *grid, const an_corner_grid *cgrid, an_sight_scratch *scratch,
                      const an_sight_limit *limit, uint32_t stamp, an_cell_run run, double eps) {
  int32_t column, row, t0 = run.first, t1 = run.last;
  if (!limit) {
    for (int32_t t = t0; t <= t1; ++t) {
      an_cell_run_cell(run, t, &column, &row);
      visit_cell(grid, cgrid, scratch, stamp, column, row, eps);
    }
    return;
  }
  if (run_is_empty(grid, cgrid, run)) {
    return;
  }
  vec2 origin = scratch->sight.origin;
  int32_t lo = t0, hi = t1;
  while (hi - lo > 2) {
    int32_t m1 = lo + (hi - lo) / 3, m2 = hi - (hi - lo) / 3;
    if (distance_sum(grid, origin, limit, run, m1) <= distance_sum(grid, origin, limit, run, m2)) {
      hi = m2;
    } else {
      lo = m1;
    }
  }
  int32_t best = lo;
  double best_sum = distance_sum(grid, origin, limit, run, lo);
  for (int32_t t = lo + 1; t <= hi; ++t) {
    double sum = distance_sum(grid, origin, limit, run, t);
    if (sum < best_sum) {
      best = t;
      best_sum = sum;
    }
  }
  if (best_sum > limit->bound) {
    scratch->limited = true;
    return;
  }
  int32_t first = best, last = best;
  while (first > t0 && distance_sum(grid, origin, limit, run, first - 1) <= limit->bound) {
    --first;
  }
  while (last < t1 && distance_sum(grid, origin, limit, run, last + 1) <= limit->bound) {
    ++last;
  }
  if (first > t0 || last < t1) {
    scratch->limited = true;
  }
  for (int32_t t = first; t <= last; ++t) {
    an_cell_run_cell(run, t, &column, &row);
    visit_cell(grid, cgrid, scratch, stamp, column, row, eps);
  }
}

static void visit_ring(const an_grid *grid, const an_corner_grid *cgrid, an_sight_scratch *scratch,
                       const an_sight_limit *limit, uint32_t stamp, int32_t cx, int32_t cy,
                       int32_t k, double eps) {
  an_cell_run runs[4];
  int count = an_grid_ring_runs(grid, cx, cy, k, runs);
  for (int r = 0; r < count; ++r) {
    visit_run(grid, cgrid, scratch, k == 0 ? NULL : limit, stamp, runs[r], eps);
  }
}

// Is every direction in `mask` closed for targets `need` away (reaches capped by `exits`)? When
// one is not, *witness is how far one is open, at least `need`, the farthest of all with
// `widest`: until something occludes again, they stay open that far. NaN reaches count as open.
static bool all_closed(const an_sight *sight, const an_sight_mask *mask, const double *exits,
                       double need, bool widest, double *witness) {
  *witness = -INFINITY;
  // A viewpoint without a radius has one set of bins for both turning directions.
  int reach_lanes = sight->lane_offset == 0.0 ? 1 : 2;
  for (int lane = 0; lane < 2; ++lane) {
    const double *reaches = sight->reach[lane < reach_lanes ? lane : 0];
    for (int bin = 0; bin < AN_SIGHT_BINS; ++bin) {
      if (!mask_has(mask, lane, bin)) {
        continue;
      }
      double reach = reaches[bin];
      if (exits && exits[bin] < reach) {
        reach = exits[bin];
      }
      if (!(reach < need)) {
        *witness = an_max(*witness, reach == reach ? reach : INFINITY);
        if (!widest) {
          return false;
        }
      }
    }
  }
  return !(*witness >= need);
}

bool an_sight_gather(const an_grid *grid, const an_corner_grid *cgrid, size_t corner_count,
                     an_sight_scratch *scratch, vec2 origin, double lane_offset, double radius,
                     const an_sight_mask *mask, const an_sight_limit *limit, double eps) {
  an_sight *sight = &scratch->sight;
  sight->origin = origin;
  sight->lane_offset = lane_offset;
  sight->eps = eps;
  for (int bin = 0; bin < AN_SIGHT_BINS; ++bin) {
    sight->reach[0][bin] = INFINITY;
  }
  scratch->candidate_count = 0;
  scratch->limited = false;
  uint32_t stamp = next_stamp(scratch);
  vec2 lo = grid->origin;
  vec2 hi = v2(lo.x + grid->columns * grid->cell_size, lo.y + grid->rows * grid->cell_size);
  if (!(origin.x >= lo.x && origin.x <= hi.x && origin.y >= lo.y && origin.y <= hi.y)) {
    // Ring distances mean nothing from outside the grid.
    an_sight_offer_all(scratch, corner_count);
    return true;
  }
  sight->culls = true;
  memcpy(sight->reach[1], sight->reach[0], sizeof sight->reach[0]);
  int32_t cx = an_grid_column(grid, origin.x), cy = an_grid_row(grid, origin.y);
  int32_t last_ring = an_grid_last_ring(grid, cx, cy);
  double exits[AN_SIGHT_BINS];
  bool have_exits = false;
  // A direction the rings so far leave open, and how far: only a ring that occluded something (or
  // the exits) can close it, so until then the rings within that need no test of every direction
  // (a grid stretched by a far obstacle is mostly empty rings).
  double open_witness = -INFINITY;
  uint64_t occluded_before = UINT64_MAX;
  // Cells of ring k are at least (k - 1) cells from the origin, so their distance sums exceed
  // 2 (k - 1) cells - |origin - goal|: beyond some ring every cell is past the limit.
  double goal_distance = limit ? v2_dist(origin, limit->goal) : 0.0;
  for (int32_t k = 0; k <= last_ring; ++k) {
    if (limit && 2.0 * (k - 1) * grid->cell_size - goal_distance > limit->bound) {
      scratch->limited = true;
      break;
    }
    visit_ring(grid, cgrid, scratch, limit, stamp, cx, cy, k, eps);
    // Targets not met yet touch only in rings beyond k, at least k cells away, and their tangents
    // leave within lane_offset + R of the origin: they are at least this long.
    double need = k * grid->cell_size - lane_offset - radius;
    need -= an_sight_margin(need, eps);
    if (need <= 0.0) {
      continue;
    }
    if (!have_exits && k >= 3) {
      double grow = radius + lane_offset;
      exit_bounds(origin, v2(lo.x - grow, lo.y - grow), v2(hi.x + grow, hi.y + grow), exits);
      have_exits = true;
      occluded_before = UINT64_MAX;
    }
    if (scratch->occluded != occluded_before || !(need <= open_witness)) {
      // After a ring that occluded, the first open direction will do (the next ring most often
      // occludes again); after empty rings outgrew the witness, the farthest open one.
      bool widest = scratch->occluded == occluded_before;
      occluded_before = scratch->occluded;
      if (all_closed(sight, mask, have_exits ? exits : NULL, need, widest, &open_witness)) {
        break;
      }
    }
  }
  if (lane_offset == 0.0) {
    memcpy(sight->reach[1], sight->reach[0], sizeof sight->reach[0]);
  }
  return !scratch->limited;
}
