// SPDX-License-Identifier: MIT
#include "index/grid.h"

#include "geom/tolerances.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

// Every grid holds one item per obstacle edge or circle: its size is most of the grid's memory.
_Static_assert(sizeof(an_item) == 32, "an_item grew past 32 bytes");

static size_t obstacle_item_count(const arcnav_map *map, const an_obstacle *ob) {
  size_t count = ob->kind == AN_OBSTACLE_CIRCLE ? 1 : 0;
  for (uint32_t r = 0; ob->kind == AN_OBSTACLE_POLYGON && r < ob->ring_count; ++r) {
    count += map->rings[ob->first_ring + r].count;
  }
  return count;
}

static size_t count_items(const arcnav_map *map) {
  size_t count = map->has_bounds ? map->bounds.count : 0;
  for (size_t o = 0; o < map->obstacle_count; ++o) {
    count += obstacle_item_count(map, &map->obstacles[o]);
  }
  return count;
}

static size_t add_ring_items(const arcnav_map *map, const an_ring *ring, uint32_t owner,
                             an_item *out) {
  for (size_t i = 0; i < ring->count; ++i) {
    out[i] = (an_item){.a = an_ring_vertex(map, ring, i),
                       .before_offset = i == 0 ? (int32_t)ring->count - 1 : -1,
                       .after_offset = i + 1 == ring->count ? 1 - (int32_t)ring->count : 1,
                       .owner = owner,
                       .kind = AN_ITEM_EDGE};
  }
  return ring->count;
}

static int compare_item_starts(const void *lhs, const void *rhs) {
  const an_item *const *a = lhs, *const *b = rhs;
  vec2 p = (*a)->a, q = (*b)->a;
  return p.x != q.x ? (p.x < q.x ? -1 : 1) : (p.y != q.y ? (p.y < q.y ? -1 : 1) : 0);
}

// Marks the edges of a polygon's rings that start where another of its rings has a vertex too
// (rings of one polygon meet only at shared vertices: map.h).
static arcnav_status mark_shared_vertices(an_item *items, size_t count, const an_allocator *alloc) {
  an_item **order = an_alloc(alloc, count, sizeof *order);
  if (!order) {
    return ARCNAV_ERR_OUT_OF_MEMORY;
  }
  for (size_t i = 0; i < count; ++i) {
    order[i] = &items[i];
  }
  qsort(order, count, sizeof *order, compare_item_starts);
  for (size_t i = 1; i < count; ++i) {
    if (compare_item_starts(&order[i - 1], &order[i]) == 0) {
      order[i - 1]->shared_vertex = true;
      order[i]->shared_vertex = true;
    }
  }
  an_free(alloc, order);
  return ARCNAV_OK;
}

// The items of obstacle `index` of `map` into out: a circle's one, or a polygon's rings' edges
// (the vertices its rings share marked); *count receives how many. ARCNAV_ERR_OUT_OF_MEMORY when
// the marking cannot sort.
static arcnav_status add_obstacle_items(const arcnav_map *map, size_t index, an_item *out,
                                        size_t *count, const an_allocator *alloc) {
  const an_obstacle *ob = &map->obstacles[index];
  if (ob->kind == AN_OBSTACLE_CIRCLE) {
    out[0] = (an_item){
        .a = ob->center, .radius = ob->radius, .owner = (uint32_t)index, .kind = AN_ITEM_CIRCLE};
    *count = 1;
    return ARCNAV_OK;
  }
  size_t n = 0;
  for (uint32_t r = 0; r < ob->ring_count; ++r) {
    n += add_ring_items(map, &map->rings[ob->first_ring + r], (uint32_t)index, out + n);
  }
  *count = n;
  return ob->ring_count > 1 ? mark_shared_vertices(out, n, alloc) : ARCNAV_OK;
}

typedef struct item_boxes {
  const an_item *items;
  double reach;
} item_boxes;

static void box_of_item(const void *context, size_t index, vec2 *lo, vec2 *hi) {
  const item_boxes *boxes = context;
  an_item_box(&boxes->items[index], boxes->reach, lo, hi);
}

arcnav_status an_grid_build(const arcnav_map *map, double reach, const an_allocator *alloc,
                            an_grid *out) {
  memset(out, 0, sizeof *out);
  size_t item_count = count_items(map);
  if (item_count >= UINT32_MAX / 4) {
    return ARCNAV_ERR_TOO_LARGE;
  }
  out->owner_count = (uint32_t)map->obstacle_count + 1;
  if (item_count > 0) {
    out->items = an_alloc(alloc, item_count, sizeof *out->items);
    if (!out->items) {
      return ARCNAV_ERR_OUT_OF_MEMORY;
    }
  }
  size_t n = 0;
  for (size_t o = 0; o < map->obstacle_count; ++o) {
    size_t added;
    if (add_obstacle_items(map, o, out->items + n, &added, alloc) != ARCNAV_OK) {
      an_free(alloc, out->items);
      out->items = NULL;
      return ARCNAV_ERR_OUT_OF_MEMORY;
    }
    n += added;
  }
  if (map->has_bounds) {
    n += add_ring_items(map, &map->bounds, (uint32_t)map->obstacle_count, out->items + n);
  }
  out->item_count = (uint32_t)n;

  // Grid box: everything the items reach, so that any query point near an obstacle is inside it.
  vec2 lo = v2(0.0, 0.0), hi = v2(1.0, 1.0);
  for (size_t i = 0; i < n; ++i) {
    vec2 ilo, ihi;
    an_item_box(&out->items[i], reach, &ilo, &ihi);
    if (i == 0) {
      lo = ilo;
      hi = ihi;
    } else {
      lo = v2(an_min(lo.x, ilo.x), an_min(lo.y, ilo.y));
      hi = v2(an_max(hi.x, ihi.x), an_max(hi.y, ihi.y));
    }
  }
  // Never cells much smaller than the reach: then an item's grown box stays within a few cells.
  an_grid_fit(out, lo, hi, n, 0.5 * reach);
  out->reach = reach;
  item_boxes boxes = {out->items, reach};
  arcnav_status status = an_grid_file_boxes(out, n, box_of_item, &boxes, alloc);
  if (status != ARCNAV_OK) {
    an_grid_destroy(out, alloc);
  }
  return status;
}

void an_grid_fit(an_grid *grid, vec2 lo, vec2 hi, size_t count, double min_cell) {
  double width = an_max(hi.x - lo.x, AN_EXTENT_FLOOR),
         height = an_max(hi.y - lo.y, AN_EXTENT_FLOOR);
  double cell = sqrt(width * height / (double)(count > 0 ? count : 1));
  cell = an_max(cell, min_cell);
  cell = an_max(cell, an_max(width, height) / AN_GRID_MAX_CELLS_PER_AXIS);
  grid->origin = lo;
  grid->cell_size = cell;
  grid->inverse_cell_size = 1.0 / cell;
  grid->columns = (int32_t)an_min(ceil(width / cell), AN_GRID_MAX_CELLS_PER_AXIS);
  grid->rows = (int32_t)an_min(ceil(height / cell), AN_GRID_MAX_CELLS_PER_AXIS);
  grid->columns = grid->columns < 1 ? 1 : grid->columns;
  grid->rows = grid->rows < 1 ? 1 : grid->rows;
}

arcnav_status an_grid_bucket_boxes(const an_grid *grid, size_t count, an_box_fn box_of,
                                   const void *context, const an_allocator *alloc,
                                   an_cell_buckets *out) {
  arcnav_status status =
      an_cell_buckets_init(out, (size_t)grid->columns * (size_t)grid->rows, alloc);
  for (int pass = 0; pass < 2 && status == ARCNAV_OK; ++pass) {
    for (size_t i = 0; i < count; ++i) {
      vec2 lo, hi;
      box_of(context, i, &lo, &hi);
      an_cell_buckets_put_rect(out, grid->columns, an_grid_box_cells(grid, lo, hi), (uint32_t)i);
    }
    status = an_cell_buckets_end_pass(out, alloc);
  }
  if (status != ARCNAV_OK) {
    an_cell_buckets_free(out, alloc);
  }
  return status;
}

arcnav_status an_grid_file_boxes(an_grid *grid, size_t count, an_box_fn box_of, const void *context,
                                 const an_allocator *alloc) {
  an_cell_buckets buckets;
  arcnav_status status = an_grid_bucket_boxes(grid, count, box_of, context, alloc, &buckets);
  grid->cells = buckets.table;
  return status;
}

// Items from a changed obstacle's first on, at most this many, have their cells marked when the
// tables are carried over (change_items); with more, every entry is renumbered.
#define AN_GRID_MARKED_ITEMS_MAX 1024

// The cell tables of `grid` with its entries of kept items renumbered by `renumber` (-1: gone,
// only in the cells `dropping` marks; NULL: all kept as they are; with `marks_every_change` the
// marks hold every entry renumbered at all) and, per cell, the entries of `added` new items
// (numbered from first_added) after them. Filing every item again by its box
// (an_grid_file_boxes()) cost 0.45 ms more on Expedition.
static arcnav_status refile(const an_grid *grid, const int32_t *renumber, const uint8_t *dropping,
                            bool marks_every_change, const an_item *added, uint32_t added_count,
                            uint32_t first_added, const an_allocator *alloc, an_grid *out) {
  size_t cells = (size_t)grid->columns * (size_t)grid->rows;
  an_cell_buckets buckets;
  arcnav_status status = an_cell_buckets_init(&buckets, cells, alloc);
  for (int pass = 0; pass < 2 && status == ARCNAV_OK; ++pass) {
    an_cell_buckets_put_carried(&buckets, &grid->cells, renumber, dropping, marks_every_change,
                                NULL);
    for (uint32_t i = 0; i < added_count; ++i) {
      vec2 lo, hi;
      an_item_box(&added[i], grid->reach, &lo, &hi);
      an_cell_buckets_put_rect(&buckets, grid->columns, an_grid_box_cells(grid, lo, hi),
                               first_added + i);
    }
    status = an_cell_buckets_end_pass(&buckets, alloc);
  }
  if (status != ARCNAV_OK) {
    an_cell_buckets_free(&buckets, alloc);
    return status;
  }
  out->cells = buckets.table;
  return ARCNAV_OK;
}

void an_grid_mark_box(const an_grid *grid, vec2 lo, vec2 hi, uint8_t *marks) {
  an_cell_rect rect = an_grid_box_cells(grid, lo, hi);
  for (int32_t r = rect.r0; r <= rect.r1; ++r) {
    memset(marks + (size_t)r * (size_t)grid->columns + (size_t)rect.c0, 1,
           (size_t)(rect.c1 - rect.c0 + 1));
  }
}

bool an_grid_cells_equal(const an_grid *a, const an_grid *b) {
  return v2_equal(a->origin, b->origin) && a->cell_size == b->cell_size &&
         a->columns == b->columns && a->rows == b->rows;
}

// A grid with the cell geometry of `grid` and none of its tables.
static an_grid same_cells(const an_grid *grid) {
  an_grid out = *grid;
  memset(&out.cells, 0, sizeof out.cells);
  out.items = NULL;
  return out;
}

double an_item_segment_dist(const an_item *item, vec2 a, vec2 b) {
  return item->kind == AN_ITEM_EDGE ? an_segment_segment_dist(a, b, item->a, an_item_end(item))
                                    : an_point_segment_dist(item->a, a, b) - item->radius;
}

// The distance between the materials' borders of two items, negative when a circle holds the other.
static double item_item_dist(const an_item *item, const an_item *other) {
  return item->kind == AN_ITEM_EDGE ? an_item_segment_dist(other, item->a, an_item_end(item))
                                    : an_item_segment_dist(other, item->a, item->a) - item->radius;
}

// Is p inside the material of a polygon's edge items (even-odd over every ring)?
static bool inside_edges(const an_item *edges, size_t count, vec2 p) {
  bool inside = false;
  for (size_t i = 0; i < count; ++i) {
    inside ^= an_ray_crosses(p, edges[i].a, an_item_end(&edges[i]));
  }
  return inside;
}

// Whether no item of `grid` but obstacle `except_owner`'s (UINT32_MAX: none) comes within
// `margin` of the obstacle made of `shape` (its `count` items, one array as an obstacle's are
// filed: a circle's one or a polygon's ring edges), and none lies inside it: every item filed in
// the cells its box grown by `margin` covers is measured against each of its items. An obstacle
// that holds the whole shape with no border near is not seen (the caller's edits find that).
static bool shape_is_clear(const an_grid *grid, const an_item *shape, size_t count, double margin,
                           uint32_t except_owner) {
  if (count == 0) {
    return true;
  }
  vec2 lo, hi;
  an_item_box(&shape[0], margin, &lo, &hi);
  for (size_t s = 1; s < count; ++s) {
    vec2 item_lo, item_hi;
    an_item_box(&shape[s], margin, &item_lo, &item_hi);
    lo = v2(an_min(lo.x, item_lo.x), an_min(lo.y, item_lo.y));
    hi = v2(an_max(hi.x, item_hi.x), an_max(hi.y, item_hi.y));
  }
  bool polygon = shape[0].kind == AN_ITEM_EDGE;
  an_cell_rect r = an_grid_box_cells(grid, lo, hi);
  for (int32_t row = r.r0; row <= r.r1; ++row) {
    for (int32_t column = r.c0; column <= r.c1; ++column) {
      size_t cell = (size_t)row * (size_t)grid->columns + (size_t)column;
      uint32_t ids_count;
      const uint32_t *ids = an_cell_table_list(&grid->cells, cell, &ids_count);
      for (uint32_t k = 0; k < ids_count; ++k) {
        const an_item *item = &grid->items[ids[k]];
        vec2 item_lo, item_hi;
        an_item_box(item, 0.0, &item_lo, &item_hi);
        if (item->owner == except_owner || item_lo.x > hi.x || item_hi.x < lo.x ||
            item_lo.y > hi.y || item_hi.y < lo.y) {
          continue;
        }
        for (size_t s = 0; s < count; ++s) {
          if (item_item_dist(&shape[s], item) < margin) {
            return false;
          }
        }
        // Clear of the shape's border, the item's whole ring or circle lies on one side of it:
        // inside the polygon when its first point is.
        if (polygon && inside_edges(shape, count, item->a)) {
          return false;
        }
      }
    }
  }
  return true;
}

an_owner_items an_grid_owner_items(const an_grid *grid, uint32_t owner) {
  an_owner_items found = {0, 0, false, v2(INFINITY, INFINITY), v2(-INFINITY, -INFINITY)};
  for (uint32_t i = 0; i < grid->item_count; ++i) {
    const an_item *item = &grid->items[i];
    if (item->owner == owner) {
      found.first = found.count == 0 ? i : found.first;
      assert(i == found.first + found.count); // the items of one obstacle lie together
      vec2 lo, hi;
      an_item_box(item, 0.0, &lo, &hi);
      found.lo = v2(an_min(found.lo.x, lo.x), an_min(found.lo.y, lo.y));
      found.hi = v2(an_max(found.hi.x, hi.x), an_max(found.hi.y, hi.y));
      found.circle = found.count++ == 0 && item->kind == AN_ITEM_CIRCLE;
    }
  }
  return found;
}

// The grid after the change of obstacle `index` that an_grid_changed_clear() judged clear, into
// `out`: its old items out (`out_old`) and its new ones (`added`, `added_count`: none for a
// removal) put in at the end, the other owners renumbered as the map numbers its obstacles now;
// one pass over the tables, only the cells of the old items losing entries.
static arcnav_status change_items(const an_grid *grid, uint32_t index, bool out_old,
                                  const an_item *added_items, size_t added,
                                  const an_allocator *alloc, an_grid *out) {
  bool in_new = added > 0;
  if ((size_t)grid->item_count + added >= UINT32_MAX / 4) {
    return ARCNAV_ERR_TOO_LARGE;
  }
  *out = same_cells(grid);
  size_t cells = (size_t)grid->columns * (size_t)grid->rows;
  out->items = an_alloc(alloc, grid->item_count + added + 1, sizeof *out->items);
  int32_t *renumber =
      out_old ? an_alloc(alloc, grid->item_count > 0 ? grid->item_count : 1, sizeof *renumber)
              : NULL;
  uint8_t *dropping = out_old ? an_calloc(alloc, cells, sizeof *dropping) : NULL;
  arcnav_status status =
      out->items && (!out_old || (renumber && dropping)) ? ARCNAV_OK : ARCNAV_ERR_OUT_OF_MEMORY;
  // A removal moves the later owners (the bounds' too) down by one, an addition up by one; a
  // move keeps them.
  int shift = (int)in_new - (int)out_old;
  uint32_t kept = 0;
  // The items before the obstacle's first keep their numbers. When few come from it on (a unit
  // moved or taken away among the last changed: each change puts its obstacle's items last), the
  // cells of all of them are marked, which then hold every entry that changes, and the other
  // cells are copied whole; otherwise only the cells of the obstacle's own lose entries. Decided
  // at its first item, where every item before has been kept.
  bool marks_every_change = false;
  if (status == ARCNAV_OK && !out_old) {
    // An addition keeps every item: copied whole, the owners from the new one's on moved up.
    memcpy(out->items, grid->items, grid->item_count * sizeof *out->items);
    kept = grid->item_count;
    for (uint32_t i = 0; i < kept; ++i) {
      out->items[i].owner += out->items[i].owner >= index ? (uint32_t)shift : 0;
    }
  } else if (status == ARCNAV_OK) {
    for (uint32_t i = 0; i < grid->item_count; ++i) {
      const an_item *item = &grid->items[i];
      bool gone = item->owner == index;
      if (gone && kept == i) {
        marks_every_change = grid->item_count - i <= AN_GRID_MARKED_ITEMS_MAX;
      }
      if (gone || marks_every_change) {
        vec2 lo, hi;
        an_item_box(item, grid->reach, &lo, &hi);
        an_grid_mark_box(grid, lo, hi, dropping);
      }
      renumber[i] = gone ? -1 : (int32_t)kept;
      if (!gone) {
        out->items[kept] = *item;
        out->items[kept++].owner += item->owner > index ? (uint32_t)shift : 0;
      }
    }
  }
  if (status == ARCNAV_OK && added > 0) {
    memcpy(out->items + kept, added_items, added * sizeof *out->items);
  }
  if (status == ARCNAV_OK) {
    status = refile(grid, renumber, dropping, marks_every_change, out->items + kept,
                    (uint32_t)added, kept, alloc, out);
  }
  an_free(alloc, renumber);
  an_free(alloc, dropping);
  if (status != ARCNAV_OK) {
    an_grid_destroy(out, alloc);
    return status;
  }
  out->item_count = kept + (uint32_t)added;
  out->owner_count = grid->owner_count + (uint32_t)shift;
  return ARCNAV_OK;
}

arcnav_status an_grid_changed_clear(const an_grid *grid, const arcnav_map *map, size_t index,
                                    const an_owner_items *old, bool in_new, double margin,
                                    const an_allocator *alloc, an_grid *out) {
  memset(out, 0, sizeof *out);
  bool out_old = old != NULL;
  size_t owners_after = grid->owner_count - (uint32_t)out_old + (uint32_t)in_new;
  if ((out_old && old->count == 0) || (!out_old && !in_new) ||
      owners_after != map->obstacle_count + 1 || (in_new && index >= map->obstacle_count)) {
    return ARCNAV_ERR_INVALID_ARGUMENT; // not this grid's change
  }
  // The obstacle's own old items do not count against it (a move may overlap where it was).
  uint32_t except = out_old ? (uint32_t)index : UINT32_MAX;
  if (out_old && !shape_is_clear(grid, grid->items + old->first, old->count, margin, except)) {
    return ARCNAV_ERR_INVALID_ARGUMENT;
  }
  const an_obstacle *now = in_new ? &map->obstacles[index] : NULL;
  if (now) {
    // Filed beyond the box, an item would land in the border cells, where no check looks for it.
    vec2 lo = v2(now->box_min.x - grid->reach, now->box_min.y - grid->reach);
    vec2 hi = v2(now->box_max.x + grid->reach, now->box_max.y + grid->reach);
    double cell = grid->cell_size;
    if (!(lo.x >= grid->origin.x && lo.y >= grid->origin.y &&
          hi.x < grid->origin.x + grid->columns * cell &&
          hi.y < grid->origin.y + grid->rows * cell)) {
      return ARCNAV_ERR_INVALID_ARGUMENT;
    }
  }
  // The new shape's items, made once: judged, then filed.
  size_t count = now ? obstacle_item_count(map, now) : 0;
  an_item *shape = now ? an_alloc(alloc, count, sizeof *shape) : NULL;
  arcnav_status status = now && !shape ? ARCNAV_ERR_OUT_OF_MEMORY : ARCNAV_OK;
  if (status == ARCNAV_OK && now) {
    status = add_obstacle_items(map, index, shape, &count, alloc);
  }
  if (status == ARCNAV_OK && now && !shape_is_clear(grid, shape, count, margin, except)) {
    status = ARCNAV_ERR_INVALID_ARGUMENT;
  }
  if (status == ARCNAV_OK) {
    status = change_items(grid, (uint32_t)index, out_old, shape, now ? count : 0, alloc, out);
  }
  an_free(alloc, shape);
  return status;
}

void an_grid_destroy(an_grid *grid, const an_allocator *alloc) {
  an_cell_table_free(&grid->cells, alloc);
  an_free(alloc, grid->items);
  memset(grid, 0, sizeof *grid);
}

size_t an_grid_memory_bytes(const an_grid *grid) {
  return an_cell_table_memory_bytes(&grid->cells) + grid->item_count * sizeof(an_item);
}

int an_grid_ring_runs(const an_grid *grid, int32_t cx, int32_t cy, int32_t k, an_cell_run out[4]) {
  if (k == 0) {
    out[0] = (an_cell_run){true, cy, cx, cx};
    return 1;
  }
  int count = 0;
  int32_t x0 = cx - k > 0 ? cx - k : 0, x1 = cx + k < grid->columns ? cx + k : grid->columns - 1;
  int32_t y0 = cy - k > 0 ? cy - k : 0, y1 = cy + k < grid->rows ? cy + k : grid->rows - 1;
  if (cy - k >= 0) {
    out[count++] = (an_cell_run){true, cy - k, x0, x1};
  }
  if (cy + k < grid->rows) {
    out[count++] = (an_cell_run){true, cy + k, x0, x1};
  }
  // The columns without the rows already taken.
  int32_t inner0 = cy - k + 1 > y0 ? cy - k + 1 : y0, inner1 = cy + k - 1 < y1 ? cy + k - 1 : y1;
  if (cx - k >= 0 && inner0 <= inner1) {
    out[count++] = (an_cell_run){false, cx - k, inner0, inner1};
  }
  if (cx + k < grid->columns && inner0 <= inner1) {
    out[count++] = (an_cell_run){false, cx + k, inner0, inner1};
  }
  return count;
}

int32_t an_grid_last_ring(const an_grid *grid, int32_t cx, int32_t cy) {
  int32_t last = cx;
  last = grid->columns - 1 - cx > last ? grid->columns - 1 - cx : last;
  last = cy > last ? cy : last;
  return grid->rows - 1 - cy > last ? grid->rows - 1 - cy : last;
}

static double distance_to_interval(double x, double lo, double hi) {
  return x < lo ? lo - x : (x > hi ? x - hi : 0.0);
}

// The distance from p to the box of the span x span cells whose lowest is cell (column, row).
static double cells_distance(const an_grid *grid, int32_t column, int32_t row, int32_t span,
                             vec2 p) {
  double x0 = grid->origin.x + column * grid->cell_size, x1 = x0 + span * grid->cell_size;
  double y0 = grid->origin.y + row * grid->cell_size, y1 = y0 + span * grid->cell_size;
  return v2_len(v2(distance_to_interval(p.x, x0, x1), distance_to_interval(p.y, y0, y1)));
}

double an_grid_cell_distance(const an_grid *grid, int32_t column, int32_t row, vec2 p) {
  return cells_distance(grid, column, row, 1, p);
}

double an_grid_cell_distance_sum(const an_grid *grid, int32_t column, int32_t row, vec2 a, vec2 b) {
  return an_grid_cells_distance_sum(grid, column, row, 1, a, b);
}

double an_grid_cells_distance_sum(const an_grid *grid, int32_t column, int32_t row, int32_t span,
                                  vec2 a, vec2 b) {
  return cells_distance(grid, column, row, span, a) + cells_distance(grid, column, row, span, b);
}

// The point at parameter t of segment ab, given also s = 1 - t computed on its own: evaluating
// from the nearer end keeps a clipped point exact to rounding even when one end is enormously far
// away (from 1e62 off, a + t (b - a) near b would be off by 1e46).
static vec2 point_at(vec2 a, vec2 b, double t, double s) {
  vec2 d = v2_sub(b, a);
  return t <= 0.5 ? v2_mul_add(a, t, d) : v2_mul_add(b, -s, d);
}

// Is the point at parameter t (complement s = 1 - t) beyond the one at (t_ref, s_ref)? Near the
// far end t rounds to 1 while s keeps its digits, so the comparison uses whichever is exact.
static bool param_after(double t, double s, double t_ref, double s_ref) {
  return t >= 0.5 || t_ref >= 0.5 ? s < s_ref : t > t_ref;
}

bool an_grid_clip_segment(const an_grid *grid, vec2 *a, vec2 *b) {
  double lo[2] = {grid->origin.x, grid->origin.y};
  double hi[2] = {grid->origin.x + grid->columns * grid->cell_size,
                  grid->origin.y + grid->rows * grid->cell_size};
  // Most segments lie in the box: they are their own clip, as the parameters 0 and 1 would give.
  if (an_in_closed_box(*a, v2(lo[0], lo[1]), v2(hi[0], hi[1])) &&
      an_in_closed_box(*b, v2(lo[0], lo[1]), v2(hi[0], hi[1]))) {
    return true;
  }
  // Entry (t0) and exit (t1) parameters, each with its complement (1 - t) computed directly.
  double t0 = 0.0, s0 = 1.0, t1 = 1.0, s1 = 0.0;
  vec2 d = v2_sub(*b, *a);
  double start[2] = {a->x, a->y}, end[2] = {b->x, b->y}, delta[2] = {d.x, d.y};
  for (int axis = 0; axis < 2; ++axis) {
    if (delta[axis] == 0.0) {
      if (start[axis] < lo[axis] || start[axis] > hi[axis]) {
        return false;
      }
      continue;
    }
    double ta = (lo[axis] - start[axis]) / delta[axis], sa = (end[axis] - lo[axis]) / delta[axis];
    double tb = (hi[axis] - start[axis]) / delta[axis], sb = (end[axis] - hi[axis]) / delta[axis];
    // The sign of the step says which side is entered first; comparing ta and tb cannot, since
    // from far away both round to the same value.
    if (delta[axis] < 0.0) {
      double t = ta, u = sa;
      ta = tb;
      sa = sb;
      tb = t;
      sb = u;
    }
    if (param_after(ta, sa, t0, s0)) {
      t0 = ta;
      s0 = sa;
    }
    if (param_after(t1, s1, tb, sb)) {
      t1 = tb;
      s1 = sb;
    }
    if (param_after(t0, s0, t1, s1)) {
      return false;
    }
  }
  vec2 from = *a, to = *b;
  *a = point_at(from, to, t0, s0);
  *b = point_at(from, to, t1, s1);
  return true;
}
