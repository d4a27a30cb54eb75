// SPDX-License-Identifier: MIT
#include "index/obstacle_index.h"

#include "geom/geom.h"
#include "geom/tolerances.h"
#include "map/circle_polygon.h"

#include <math.h>
#include <string.h>

// An obstacle whose box covers more cells than this goes to the list instead.
#define GRID_MAX_CELLS 16

static void obstacle_box(const an_obstacle *ob, vec2 *lo, vec2 *hi) {
  if (ob->kind == AN_OBSTACLE_CIRCLE) {
    double r = an_navmesh_circle_corner_radius(ob->radius);
    *lo = v2(ob->center.x - r, ob->center.y - r);
    *hi = v2(ob->center.x + r, ob->center.y + r);
  } else {
    *lo = ob->box_min;
    *hi = ob->box_max;
  }
}

static void cell_range(const an_obstacle_index *ix, vec2 lo, vec2 hi, int32_t r[4]) {
  double f[4] = {floor((lo.x - ix->lo.x) / ix->cw), floor((lo.y - ix->lo.y) / ix->ch),
                 floor((hi.x - ix->lo.x) / ix->cw), floor((hi.y - ix->lo.y) / ix->ch)};
  for (int k = 0; k < 4; ++k) {
    double top = (double)((k % 2 == 0 ? ix->gw : ix->gh) - 1);
    r[k] = (int32_t)an_min(an_max(f[k], 0.0), top);
  }
}

arcnav_status an_obstacle_index_build(const arcnav_map *map, const an_allocator *alloc, vec2 lo,
                                      vec2 hi, size_t max_vertices, an_obstacle_index *ix) {
  memset(ix, 0, sizeof *ix);
  size_t n = map->obstacle_count;
  double side = an_max(1.0, floor(sqrt((double)n)));
  ix->gw = ix->gh = (int32_t)an_min(side, AN_OBSTACLE_GRID_MAX_SIDE);
  ix->lo = lo;
  ix->cw = (hi.x - lo.x) / ix->gw;
  ix->ch = (hi.y - lo.y) / ix->gh;
  an_cell_buckets buckets;
  arcnav_status status = an_cell_buckets_init(&buckets, (size_t)ix->gw * (size_t)ix->gh, alloc);
  ix->big = an_alloc(alloc, n + 1, sizeof *ix->big);
  if (!ix->big) {
    status = ARCNAV_ERR_OUT_OF_MEMORY;
  }
  for (int pass = 0; pass < 2 && status == ARCNAV_OK; ++pass) {
    for (size_t o = 0; o < n; ++o) {
      const an_obstacle *ob = &map->obstacles[o];
      if ((ob->kind == AN_OBSTACLE_CIRCLE && ob->radius <= 0.0) ||
          an_obstacle_vertices(map, ob) > max_vertices) {
        continue;
      }
      vec2 a, b;
      obstacle_box(ob, &a, &b);
      int32_t r[4];
      cell_range(ix, a, b, r);
      size_t covered = (size_t)(r[2] - r[0] + 1) * (size_t)(r[3] - r[1] + 1);
      if (covered > GRID_MAX_CELLS) {
        if (pass == 0) {
          ix->big[ix->big_count++] = (uint32_t)o;
        }
        continue;
      }
      an_cell_buckets_put_rect(&buckets, ix->gw, (an_cell_rect){r[0], r[2], r[1], r[3]},
                               (uint32_t)o);
    }
    status = an_cell_buckets_end_pass(&buckets, alloc);
  }
  if (status != ARCNAV_OK) {
    an_cell_buckets_free(&buckets, alloc);
  }
  ix->cells = buckets.table;
  return status;
}

void an_obstacle_index_free(an_obstacle_index *ix, const an_allocator *alloc) {
  an_cell_table_free(&ix->cells, alloc);
  an_free(alloc, ix->big);
  memset(ix, 0, sizeof *ix);
}

void an_obstacle_index_cell(const an_obstacle_index *ix, vec2 p, const uint32_t **first,
                            const uint32_t **last) {
  int32_t r[4];
  cell_range(ix, p, p, r);
  size_t cell = (size_t)r[1] * (size_t)ix->gw + (size_t)r[0];
  uint32_t count;
  *first = an_cell_table_list(&ix->cells, cell, &count);
  *last = *first + count;
}
