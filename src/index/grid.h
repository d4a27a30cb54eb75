// SPDX-License-Identifier: MIT
#pragma once

// Spatial index: a uniform grid over the raw obstacle pieces (ring edges and circle obstacles).
// Each piece is filed in every cell that its box, grown by the agent radius plus a margin,
// overlaps; so every piece that comes within R of a point is filed in that point's cell, and a
// free check only has to visit the cells its own shape passes through.

#include "geom/alloc.h"
#include "geom/geom.h"
#include "index/cell_buckets.h"
#include "map/map.h"

#include <stdint.h>

typedef enum an_item_kind { AN_ITEM_EDGE = 0, AN_ITEM_CIRCLE = 1 } an_item_kind;

typedef struct an_item {
  vec2 a; ///< edge start / circle centre
  union {
    double radius; ///< circles
    /// Edges: where the ring's previous and next edges lie in the same array, relative to this
    /// one (the vertex before `a`, for the material wedge at `a`: an_item_before(); the edge's
    /// end: an_item_end()). Offsets rather than points keep an item at 32 bytes.
    struct {
      int32_t before_offset;
      int32_t after_offset;
    };
  };
  uint32_t owner; ///< obstacle index; map->obstacle_count for the bounds
  uint8_t kind;   ///< an_item_kind
  /// Edges: `a` is also a vertex of another ring of the same polygon (a hole touching its shell
  /// or another hole there), so the material at `a` is what the rings leave between them, not
  /// this ring's wedge alone.
  bool shared_vertex;
} an_item;

/// The ring vertex before an edge's start `a`. The item must be in its grid's array.
static inline vec2 an_item_before(const an_item *item) {
  return item[item->before_offset].a;
}

/// An edge's end (the next ring vertex); a circle's centre. The item must be in its grid's array.
static inline vec2 an_item_end(const an_item *item) {
  return item->kind == AN_ITEM_CIRCLE ? item->a : item[item->after_offset].a;
}

/// The box of an item's material grown by `reach` (the box the grid files it by, for its reach).
/// Inline: the point tests pass most items of a cell by it.
static inline void an_item_box(const an_item *item, double reach, vec2 *lo, vec2 *hi) {
  if (item->kind == AN_ITEM_CIRCLE) {
    double r = item->radius + reach;
    *lo = v2(item->a.x - r, item->a.y - r);
    *hi = v2(item->a.x + r, item->a.y + r);
  } else {
    vec2 b = an_item_end(item);
    *lo = v2(an_min(item->a.x, b.x) - reach, an_min(item->a.y, b.y) - reach);
    *hi = v2(an_max(item->a.x, b.x) + reach, an_max(item->a.y, b.y) + reach);
  }
}

typedef struct an_grid {
  vec2 origin;
  double cell_size;
  double inverse_cell_size;
  int32_t columns, rows;
  an_cell_table cells; ///< per cell (row-major, columns * rows), the items filed there
  an_item *items;
  uint32_t item_count;
  uint32_t owner_count; ///< obstacles + 1 (the bounds)
  double reach;         ///< how far beyond its box an item is filed (an_grid_build())
} an_grid;

/// Build the index for `map` and reach `reach` (agent radius + tolerance margin).
arcnav_status an_grid_build(const arcnav_map *map, double reach, const an_allocator *alloc,
                            an_grid *out);
/// Sets the cell geometry of `grid` (origin, cell size, columns, rows) for about `count` things
/// spread over [lo, hi]: about one per cell, cells no smaller than `min_cell`, and at most a fixed
/// number of cells per axis.
void an_grid_fit(an_grid *grid, vec2 lo, vec2 hi, size_t count, double min_cell);

/// Sets marks[cell] (one per cell of `grid`) to 1 for every cell the box [lo, hi] overlaps, as
/// an_grid_box_cells() finds them: where a table over the grid's cells files a thing of that box.
void an_grid_mark_box(const an_grid *grid, vec2 lo, vec2 hi, uint8_t *marks);

/// Do the two grids have the same cells (origin, size, columns and rows), so that a table over
/// one's cells serves the other?
bool an_grid_cells_equal(const an_grid *a, const an_grid *b);

/// The box of thing `index`, for an_grid_file_boxes().
typedef void (*an_box_fn)(const void *context, size_t index, vec2 *lo, vec2 *hi);

/// Files thing i of `count` in every cell of the fitted `grid` that its box overlaps, into a new
/// table `out` over the grid's cells (a grid's own tables, or another table over the same cells).
/// On failure *out holds nothing. @return ARCNAV_OK, ARCNAV_ERR_OUT_OF_MEMORY or
/// ARCNAV_ERR_TOO_LARGE.
arcnav_status an_grid_bucket_boxes(const an_grid *grid, size_t count, an_box_fn box_of,
                                   const void *context, const an_allocator *alloc,
                                   an_cell_buckets *out);

/// Builds the cell tables of a fitted grid with an_grid_bucket_boxes(). Leaves the items alone.
/// On failure the tables stay empty; an_grid_destroy() frees the rest.
/// @return ARCNAV_OK, ARCNAV_ERR_OUT_OF_MEMORY or ARCNAV_ERR_TOO_LARGE.
arcnav_status an_grid_file_boxes(an_grid *grid, size_t count, an_box_fn box_of, const void *context,
                                 const an_allocator *alloc);
/// The distance from segment ab (a point when a == b) to the border of an item's material: an
/// edge's, or a circle's (negative inside it). The item must be in its grid's array.
double an_item_segment_dist(const an_item *item, vec2 a, vec2 b);

/// What obstacle `owner` has in `grid`: how many items from which (an obstacle's items lie
/// together), whether they are one circle's, and the box of their material (empty, lo above hi,
/// when there are none). A pass over every item.
typedef struct an_owner_items {
  uint32_t first, count;
  bool circle;
  vec2 lo, hi;
} an_owner_items;
an_owner_items an_grid_owner_items(const an_grid *grid, uint32_t owner);

/// `grid`, built for a map before one change of its obstacle `index`, changed for it into `out`
/// (`grid` is left alone), as an_grid_build() would give for `map` but on the old cells: the
/// obstacle's items taken out (`old`: what it had, an_grid_owner_items(); NULL for an obstacle
/// new to the map), then its items in `map` put in (`in_new`; a move is both), the later
/// obstacles renumbered. Only when what it had and what it has keep `margin` clear of every
/// other item, judged on the shapes, not their boxes. One pass over the grid's items and tables.
/// @return ARCNAV_OK; ARCNAV_ERR_INVALID_ARGUMENT when they do not keep clear, the new items would
/// be filed beyond the box, or the change is not one of this grid's map (nothing made);
/// ARCNAV_ERR_OUT_OF_MEMORY, ARCNAV_ERR_TOO_LARGE.
arcnav_status an_grid_changed_clear(const an_grid *grid, const arcnav_map *map, size_t index,
                                    const an_owner_items *old, bool in_new, double margin,
                                    const an_allocator *alloc, an_grid *out);

void an_grid_destroy(an_grid *grid, const an_allocator *alloc);
size_t an_grid_memory_bytes(const an_grid *grid);

/// Cell coordinates of p, clamped to the grid.
static inline int32_t an_grid_column(const an_grid *grid, double x) {
  double c = (x - grid->origin.x) * grid->inverse_cell_size;
  if (!(c >= 0.0)) {
    return 0;
  }
  return c >= (double)grid->columns ? grid->columns - 1 : (int32_t)c;
}
static inline int32_t an_grid_row(const an_grid *grid, double y) {
  double r = (y - grid->origin.y) * grid->inverse_cell_size;
  if (!(r >= 0.0)) {
    return 0;
  }
  return r >= (double)grid->rows ? grid->rows - 1 : (int32_t)r;
}

/// The cells that box [lo, hi] overlaps, clamped to the grid.
static inline an_cell_rect an_grid_box_cells(const an_grid *grid, vec2 lo, vec2 hi) {
  return (an_cell_rect){an_grid_column(grid, lo.x), an_grid_column(grid, hi.x),
                        an_grid_row(grid, lo.y), an_grid_row(grid, hi.y)};
}

/// Liang-Barsky clip of segment ab to the grid's box, in place; false when the segment misses it.
/// A clipped end is evaluated from the nearer original end, so it stays exact to rounding even
/// when the other end is enormously far away.
bool an_grid_clip_segment(const an_grid *grid, vec2 *a, vec2 *b);

/// Called per cell of a walk; returning false stops the walk.
typedef bool (*an_cell_visitor)(void *context, int32_t column, int32_t row);

/// Visits, in order, every cell that segment pq (already clipped to the grid) passes through.
/// Returns false when `visit` stopped the walk. Inline: it runs in every segment check, where a
/// call through the visitor per cell would cost more than the cell.
static inline bool an_grid_walk_clipped(const an_grid *grid, vec2 p, vec2 q, an_cell_visitor visit,
                                        void *context) {
  // Amanatides & Woo: every cell the segment passes through, in order.
  int32_t column = an_grid_column(grid, p.x), row = an_grid_row(grid, p.y);
  int32_t end_column = an_grid_column(grid, q.x), end_row = an_grid_row(grid, q.y);
  vec2 d = v2_sub(q, p);
  int32_t step_x = d.x > 0.0 ? 1 : -1, step_y = d.y > 0.0 ? 1 : -1;
  double cell = grid->cell_size;
  double next_x = grid->origin.x + (column + (step_x > 0 ? 1 : 0)) * cell;
  double next_y = grid->origin.y + (row + (step_y > 0 ? 1 : 0)) * cell;
  double t_max_x = d.x != 0.0 ? (next_x - p.x) / d.x : INFINITY;
  double t_max_y = d.y != 0.0 ? (next_y - p.y) / d.y : INFINITY;
  double t_delta_x = d.x != 0.0 ? cell / fabs(d.x) : INFINITY;
  double t_delta_y = d.y != 0.0 ? cell / fabs(d.y) : INFINITY;
  int64_t steps_left = (int64_t)grid->columns + grid->rows + 2;
  for (;;) {
    if (!visit(context, column, row)) {
      return false;
    }
    if ((column == end_column && row == end_row) || --steps_left < 0) {
      break;
    }
    if (t_max_x < t_max_y) {
      column += step_x;
      t_max_x += t_delta_x;
    } else {
      row += step_y;
      t_max_y += t_delta_y;
    }
    if (column < 0 || row < 0 || column >= grid->columns || row >= grid->rows) {
      break;
    }
  }
  return true;
}

/// A straight run of cells, along a row (`fixed` is the row, first..last are columns) or along a
/// column (`fixed` is the column).
typedef struct an_cell_run {
  bool along_row;
  int32_t fixed, first, last;
} an_cell_run;

static inline void an_cell_run_cell(an_cell_run run, int32_t t, int32_t *column, int32_t *row) {
  *column = run.along_row ? t : run.fixed;
  *row = run.along_row ? run.fixed : t;
}

/// The cells at Chebyshev distance k from cell (cx, cy), clipped to the grid, as at most four runs
/// (one cell for k = 0); returns how many.
int an_grid_ring_runs(const an_grid *grid, int32_t cx, int32_t cy, int32_t k, an_cell_run out[4]);

/// The distance from p to the box of cell (column, row): 0 inside.
double an_grid_cell_distance(const an_grid *grid, int32_t column, int32_t row, vec2 p);

/// A lower bound on |p - a| + |p - b| over the points p of cell (column, row): the sum of the
/// distances from a and from b to the cell's box.
double an_grid_cell_distance_sum(const an_grid *grid, int32_t column, int32_t row, vec2 a, vec2 b);
/// The same over the square of span x span cells whose lowest is cell (column, row).
double an_grid_cells_distance_sum(const an_grid *grid, int32_t column, int32_t row, int32_t span,
                                  vec2 a, vec2 b);

/// The largest k for which an_grid_ring_runs() returns anything around cell (cx, cy).
int32_t an_grid_last_ring(const an_grid *grid, int32_t cx, int32_t cy);
