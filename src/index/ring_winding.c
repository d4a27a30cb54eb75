// SPDX-License-Identifier: MIT
#include "index/ring_winding.h"

#include "geom/geom.h"
#include "geom/tolerances.h"
#include "index/cell_buckets.h"

#include <math.h>
#include <string.h>

/// The signed crossing of edge a -> b with the ray from p to the right (see an_ring_winding()).
static int crossing(vec2 a, vec2 b, vec2 p) {
  if (a.y <= p.y) {
    return b.y > p.y && an_orient(a, b, p) > 0.0 ? 1 : 0;
  }
  return b.y <= p.y && an_orient(a, b, p) < 0.0 ? -1 : 0;
}

int an_ring_winding(const arcnav_map *map, const an_ring *ring, vec2 p) {
  int winding = 0;
  vec2 a = an_ring_vertex(map, ring, ring->count - 1);
  for (size_t i = 0; i < ring->count; ++i) {
    vec2 b = an_ring_vertex(map, ring, i);
    winding += crossing(a, b, p);
    a = b;
  }
  return winding;
}

static int32_t clamp_cell(double f, int32_t count) {
  return (int32_t)an_min(an_max(f, 0.0), (double)(count - 1));
}

static int32_t row_of(const an_ring_winding_index *ix, double y) {
  return clamp_cell(floor((y - ix->lo.y) / ix->cell_h), ix->grid_h);
}

static int32_t column_of(const an_ring_winding_index *ix, double x) {
  return clamp_cell(floor((x - ix->lo.x) / ix->cell_w), ix->grid_w);
}

/// Visits the cells of edge a -> b: per row, the columns of the edge clipped to the row widened by
/// half a cell up and down, plus one column either side. Rounding never moves a point half a
/// cell, so a crossing at height y and abscissa x is always in a visited cell of its row.
static void file_edge(const an_ring_winding_index *ix, vec2 a, vec2 b, uint32_t edge,
                      an_cell_buckets *buckets) {
  if (a.y == b.y) {
    return; // a horizontal edge never crosses a horizontal ray
  }
  if (a.y > b.y) {
    vec2 t = a;
    a = b;
    b = t;
  }
  int32_t r0 = row_of(ix, a.y), r1 = row_of(ix, b.y);
  double slope = (b.x - a.x) / (b.y - a.y);
  for (int32_t r = r0; r <= r1; ++r) {
    double y0 = an_max(a.y, ix->lo.y + ((double)r - 0.5) * ix->cell_h);
    double y1 = an_min(b.y, ix->lo.y + ((double)r + 1.5) * ix->cell_h);
    double x0 = a.x + (y0 - a.y) * slope, x1 = a.x + (y1 - a.y) * slope;
    int32_t c0 = column_of(ix, an_min(x0, x1)) - 1, c1 = column_of(ix, an_max(x0, x1)) + 1;
    c0 = c0 < 0 ? 0 : c0;
    c1 = c1 >= ix->grid_w ? ix->grid_w - 1 : c1;
    an_cell_buckets_put_rect(buckets, ix->grid_w, (an_cell_rect){c0, c1, r, r}, edge);
  }
}

arcnav_status an_ring_winding_index_build(const arcnav_map *map, const an_ring *ring,
                                          const an_allocator *alloc, an_ring_winding_index *out) {
  memset(out, 0, sizeof *out);
  size_t n = ring->count;
  vec2 lo = an_ring_vertex(map, ring, 0), hi = lo;
  for (size_t i = 1; i < n; ++i) {
    vec2 p = an_ring_vertex(map, ring, i);
    lo = v2(an_min(lo.x, p.x), an_min(lo.y, p.y));
    hi = v2(an_max(hi.x, p.x), an_max(hi.y, p.y));
  }
  // About one edge per cell on a compact ring.
  double side = an_min(an_max(1.0, ceil(sqrt((double)n))), AN_RING_GRID_MAX_SIDE);
  out->grid_w = out->grid_h = (int32_t)side;
  out->lo = lo;
  out->hi = hi;
  out->cell_w = an_max(hi.x - lo.x, AN_EXTENT_FLOOR) / side;
  out->cell_h = an_max(hi.y - lo.y, AN_EXTENT_FLOOR) / side;
  an_cell_buckets buckets;
  arcnav_status status =
      an_cell_buckets_init(&buckets, (size_t)out->grid_w * (size_t)out->grid_h, alloc);
  out->seen = an_calloc(alloc, n, sizeof *out->seen);
  if (!out->seen) {
    status = ARCNAV_ERR_OUT_OF_MEMORY;
  }
  for (int pass = 0; pass < 2 && status == ARCNAV_OK; ++pass) {
    for (size_t i = 0; i < n; ++i) {
      file_edge(out, an_ring_vertex(map, ring, i), an_ring_vertex(map, ring, i + 1), (uint32_t)i,
                &buckets);
    }
    status = an_cell_buckets_end_pass(&buckets, alloc);
  }
  if (status != ARCNAV_OK) {
    an_cell_buckets_free(&buckets, alloc);
    an_ring_winding_index_free(out, alloc);
    return status;
  }
  out->cells = buckets.table;
  return ARCNAV_OK;
}

void an_ring_winding_index_free(an_ring_winding_index *index, const an_allocator *alloc) {
  an_cell_table_free(&index->cells, alloc);
  an_free(alloc, index->seen);
  memset(index, 0, sizeof *index);
}

int an_ring_winding_indexed(an_ring_winding_index *ix, const arcnav_map *map, const an_ring *ring,
                            vec2 p) {
  if (!(p.y >= ix->lo.y && p.y <= ix->hi.y && p.x <= ix->hi.x)) {
    // Beside the ring's rows or right of it: the ray meets no edge (and NaN counts nothing).
    return 0;
  }
  if (++ix->query == 0) {
    memset(ix->seen, 0, ring->count * sizeof *ix->seen);
    ix->query = 1;
  }
  int winding = 0;
  int32_t r = row_of(ix, p.y);
  for (int32_t c = column_of(ix, p.x); c < ix->grid_w; ++c) {
    size_t cell = (size_t)r * (size_t)ix->grid_w + (size_t)c;
    uint32_t count;
    const uint32_t *edges = an_cell_table_list(&ix->cells, cell, &count);
    for (uint32_t k = 0; k < count; ++k) {
      uint32_t e = edges[k];
      if (ix->seen[e] == ix->query) {
        continue;
      }
      ix->seen[e] = ix->query;
      winding += crossing(an_ring_vertex(map, ring, e), an_ring_vertex(map, ring, e + 1), p);
    }
  }
  return winding;
}
