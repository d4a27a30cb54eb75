// SPDX-License-Identifier: MIT
#include "tangent/sight_mesh.h"

#include "funnel/landmarks_build.h"
#include "geom/tolerances.h"
#include "index/cell_buckets.h"
#include "search/marks.h"
#include "tangent/tangent_graph.h"

#include <assert.h>
#include <string.h>

// The sight mesh's three tables of corners: by mesh vertex (the corners at it); by free triangle
// (circle corners and strays whose material overlaps it); and, for rays from a circle's rim (see
// ray_through), by free triangle again, every corner whose material comes within 2R of it, since
// such a ray ends R from the touching point (see an_sight_mesh_gather): the wide filing.
enum { BY_VERTEX, BY_TRIANGLE, WIDE, TABLES };

struct an_sight_mesh {
  an_allocator alloc;
  const an_navmesh *mesh; ///< the polygons' free space (borrowed); circle obstacles left out
  double eps;
  double radius;            ///< the largest R it files circle corners for
  const an_corner *corners; ///< the planner's, which outlive the mesh
  int32_t *corner_vertex;   ///< per corner: its mesh vertex, -1 for circle corners and strays
  an_cell_table tables[TABLES];
  bool wide_filed; ///< the map has circles: the wide filing holds every corner
  size_t corner_count;
};

// Cells of each table: mesh vertices, then free triangles; none in the wide filing of a map
// without circles, which no ray reads.
static size_t table_cells(const an_sight_mesh *sm, int table) {
  return table == BY_VERTEX                 ? sm->mesh->cdt.point_count
         : table == WIDE && !sm->wide_filed ? 0
                                            : sm->mesh->free_count;
}

// ---- build ---------------------------------------------------------------------------------

/// A cell of one of the tables the filing pass puts corners in.
typedef struct filed_cell {
  int table;
  uint32_t cell;
} filed_cell;

// Work space for filing corners by disk: a queue of triangles and a per-triangle stamp. And for a
// build that files a few corners (after a local change), a log of what each flood of the counting
// pass put its corner in, [how many, free triangles...] per flood, which the filing pass reads
// back instead of flooding again: both passes must put the same in the same order, and a unit's
// floods at the largest radius were a third of its move.
typedef struct disk_flood {
  uint32_t *seen;    ///< made by the first flood: a local change's filing may flood none
  size_t seen_count; ///< triangles it holds a stamp for
  uint32_t stamp;
  int32_t *queue;
  size_t queue_capacity;
  bool logging, replaying;
  int32_t *log;
  size_t log_length, log_capacity, log_read;
  /// While set, the filing pass lists the cells its floods put in (`unsorted`, each once:
  /// `listed` per cell of each table, from `tables`): corners filed again after the carried
  /// ones, which each such cell must list in corner order.
  bool listing;
  const an_cell_buckets *tables;
  uint8_t *listed[TABLES];
  filed_cell *unsorted;
  size_t unsorted_count, unsorted_capacity;
} disk_flood;

static bool log_push(const an_sight_mesh *sm, disk_flood *flood, int32_t value) {
  if (!an_reserve(&sm->alloc, (void **)&flood->log, &flood->log_capacity, flood->log_length,
                  flood->log_length + 1, sizeof *flood->log)) {
    return false;
  }
  flood->log[flood->log_length++] = value;
  return true;
}

// Is edge pq within `reach` of the centre? Its ends are taken in one fixed order, so that the two
// triangles beside it get the same answer.
static bool edge_within(vec2 centre, vec2 p, vec2 q, double reach) {
  bool swap = p.x > q.x || (p.x == q.x && p.y > q.y);
  return swap ? an_point_segment_within(centre, q, p, reach)
              : an_point_segment_within(centre, p, q, reach);
}

// Does triangle t of the triangulation meet the disk (centre, reach): the centre inside it, or an
// edge within reach? The answer is the triangle's own, whichever way a flood came to it, so that a
// local change judges again only the triangles it made (docs/DESIGN.md, "The sight mesh across a
// polygon's change").
static bool triangle_meets_disk(const an_cdt *cdt, int32_t t, vec2 centre, double reach) {
  const int32_t *v = cdt->tris[t].v;
  vec2 a = cdt->points[v[0]], b = cdt->points[v[1]], c = cdt->points[v[2]];
  double ab = an_orient(a, b, centre), bc = an_orient(b, c, centre), ca = an_orient(c, a, centre);
  if ((ab >= 0.0 && bc >= 0.0 && ca >= 0.0) || (ab <= 0.0 && bc <= 0.0 && ca <= 0.0)) {
    return true;
  }
  return edge_within(centre, a, b, reach) || edge_within(centre, b, c, reach) ||
         edge_within(centre, c, a, reach);
}

// How far a flood crosses edges: a triangle the disk meets is reached through edges that cross
// the way from the centre to it, each nearer than it, so that rounding on the way cannot keep the
// flood from a triangle it judges met.
static double crossing_reach(const an_sight_mesh *sm, double reach) {
  return reach + AN_FLOOD_CROSSING_TOLERANCES * sm->eps;
}

// Free triangles that the disk (centre, reach) overlaps (triangle_meets_disk()), found by a flood
// from the triangle holding the centre across edges the disk reaches. Puts corner `corner` in
// each, in the per-free-triangle table `table`, or marks each in `marks` (table NULL): the
// triangles a corner was filed in. Only filing logs and replays (mark_changed() runs before
// either pass). Returns false when out of memory.
static bool file_disk(const an_sight_mesh *sm, disk_flood *flood, vec2 centre, double reach,
                      uint32_t corner, an_cell_buckets *table, uint8_t *marks) {
  const an_cdt *cdt = &sm->mesh->cdt;
  if (flood->replaying) {
    int32_t count = flood->log[flood->log_read++];
    for (int32_t k = 0; k < count; ++k) {
      size_t cell = (size_t)flood->log[flood->log_read++];
      an_cell_buckets_put(table, cell, corner);
      int t = (int)(table - flood->tables);
      if (!flood->listing || flood->listed[t][cell]) {
        continue;
      }
      if (!an_reserve(&sm->alloc, (void **)&flood->unsorted, &flood->unsorted_capacity,
                      flood->unsorted_count, flood->unsorted_count + 1, sizeof *flood->unsorted)) {
        return false;
      }
      flood->listed[t][cell] = 1;
      flood->unsorted[flood->unsorted_count++] = (filed_cell){t, (uint32_t)cell};
    }
    return true;
  }
  size_t count_at = flood->log_length;
  if (flood->logging && !log_push(sm, flood, 0)) {
    return false;
  }
  int32_t first = an_navmesh_locate_cdt(sm->mesh, centre);
  if (first < 0) {
    return true;
  }
  if (!flood->seen) {
    flood->seen = an_calloc(&sm->alloc, flood->seen_count, sizeof *flood->seen);
    if (!flood->seen) {
      return false;
    }
  }
  if (an_stamp_next(&flood->stamp)) {
    memset(flood->seen, 0, cdt->tri_count * sizeof *flood->seen);
  }
  size_t head = 0, tail = 0;
  if (!an_reserve(&sm->alloc, (void **)&flood->queue, &flood->queue_capacity, 0, 1,
                  sizeof *flood->queue)) {
    return false;
  }
  flood->queue[tail++] = first;
  flood->seen[first] = flood->stamp;
  double crossing = crossing_reach(sm, reach);
  while (head < tail) {
    int32_t t = flood->queue[head++];
    int32_t f = sm->mesh->free_of[t];
    if (f >= 0 && !triangle_meets_disk(cdt, t, centre, reach)) {
      f = -1; // reached, but only within the crossing's margin
    }
    if (f >= 0 && table) {
      an_cell_buckets_put(table, (size_t)f, corner);
      if (flood->logging) {
        if (!log_push(sm, flood, f)) {
          return false;
        }
        flood->log[count_at]++;
      }
    } else if (f >= 0) {
      marks[f] = 1;
    }
    for (int k = 0; k < 3; ++k) {
      int32_t u = cdt->tris[t].n[k];
      if (u < 0 || flood->seen[u] == flood->stamp) {
        continue;
      }
      vec2 a = cdt->points[cdt->tris[t].v[an_cdt_next3(k)]];
      vec2 b = cdt->points[cdt->tris[t].v[an_cdt_prev3(k)]];
      if (!an_point_segment_within(centre, a, b, crossing)) {
        continue;
      }
      if (!an_reserve(&sm->alloc, (void **)&flood->queue, &flood->queue_capacity, tail, tail + 1,
                      sizeof *flood->queue)) {
        return false;
      }
      flood->seen[u] = flood->stamp;
      flood->queue[tail++] = u;
    }
  }
  return true;
}

// How far from a corner's centre the table by triangle `table` (BY_TRIANGLE or WIDE) files it for
// radius `radius`: its material grown by the slack, and for the wide filing by 2R more.
static double filing_reach(const an_corner *corner, double radius, int table, double slack) {
  double material = an_corner_material_radius(corner, radius);
  return table == WIDE ? material + 2.0 * radius + slack : material + slack;
}

// Files corner `c` (at vertex `v`, or -1) of a sight mesh for radius `radius` by triangle: when
// it has no vertex, in the free triangles its material grown by the slack overlaps; and, with
// `wide`, in those its material grown by 2R overlaps. Into `tables`, or, with tables NULL, marks
// those cells in `marks`. False when out of memory.
static bool file_by_triangle(const an_sight_mesh *sm, disk_flood *flood, const an_corner *corner,
                             uint32_t c, int32_t v, double radius, bool wide, double slack,
                             an_cell_buckets *tables, uint8_t *marks[TABLES]) {
  if (v < 0 &&
      !file_disk(sm, flood, corner->center, filing_reach(corner, radius, BY_TRIANGLE, slack), c,
                 tables ? &tables[BY_TRIANGLE] : NULL, tables ? NULL : marks[BY_TRIANGLE])) {
    return false;
  }
  return !wide || file_disk(sm, flood, corner->center, filing_reach(corner, radius, WIDE, slack), c,
                            tables ? &tables[WIDE] : NULL, tables ? NULL : marks[WIDE]);
}

// Files corner `c` as file_by_triangle() does, and at its vertex `v` when it has one: the cells a
// corner is filed in.
static bool file_corner(const an_sight_mesh *sm, disk_flood *flood, const an_corner *corner,
                        uint32_t c, int32_t v, double radius, bool wide, double slack,
                        an_cell_buckets *tables, uint8_t *marks[TABLES]) {
  if (v >= 0 && tables) {
    an_cell_buckets_put(&tables[BY_VERTEX], (size_t)v, c);
  } else if (v >= 0) {
    marks[BY_VERTEX][v] = 1;
  }
  return file_by_triangle(sm, flood, corner, c, v, radius, wide, slack, tables, marks);
}

// Marks, per table, the cells the previous sight mesh filed its corners from `first` on in (those
// the change drops or renumbers), and those it filed by triangle that `refile` (NULL: none) marks,
// as it filed them: on its own triangulation (sm's, or the one a local change made sm's from).
// The marks cover the cells of both tables.
static arcnav_status mark_changed(an_sight_mesh *sm, const an_sight_mesh *previous, size_t first,
                                  const uint8_t *refile, disk_flood *flood, double slack,
                                  uint8_t *marks[TABLES]) {
  for (int t = 0; t < TABLES; ++t) {
    size_t cells = table_cells(sm, t), before = table_cells(previous, t);
    cells = cells > before ? cells : before;
    marks[t] = an_calloc(&sm->alloc, cells + 1, sizeof *marks[t]);
    if (!marks[t]) {
      return ARCNAV_ERR_OUT_OF_MEMORY;
    }
  }
  for (size_t c = 0; refile && c < first; ++c) {
    if (refile[c] && !file_by_triangle(previous, flood, &previous->corners[c], (uint32_t)c,
                                       previous->corner_vertex[c], previous->radius,
                                       previous->wide_filed, slack, NULL, marks)) {
      return ARCNAV_ERR_OUT_OF_MEMORY;
    }
  }
  for (size_t c = first; c < previous->corner_count; ++c) {
    if (!file_corner(previous, flood, &previous->corners[c], (uint32_t)c,
                     previous->corner_vertex[c], previous->radius, previous->wide_filed, slack,
                     NULL, marks)) {
      return ARCNAV_ERR_OUT_OF_MEMORY;
    }
  }
  return ARCNAV_OK;
}

// The old corners that a local change of the triangulation makes the sight mesh file again by
// triangle (1 each in the result, by old number): those the previous one filed in a free
// triangle the change renewed (`renewed`, an_navmesh_renewed_numbers()), numbered past the new
// count among them. A corner whose floods met only triangles the change left as they were meets the
// same ones again (docs/DESIGN.md, "Units, locally"). NULL when out of memory.
static uint8_t *corners_to_refile(const an_sight_mesh *sm, const an_sight_mesh *previous,
                                  const uint32_t *renewed, size_t renewed_count) {
  uint8_t *refile = an_calloc(&sm->alloc, previous->corner_count + 1, sizeof *refile);
  for (int t = BY_TRIANGLE; refile && t <= WIDE; ++t) {
    const an_cell_table *table = &previous->tables[t];
    for (size_t k = 0; k < renewed_count; ++k) {
      if (renewed[k] >= table_cells(previous, t)) {
        continue;
      }
      uint32_t count;
      const uint32_t *corners = an_cell_table_list(table, renewed[k], &count);
      for (uint32_t c = 0; c < count; ++c) {
        refile[corners[c]] = 1;
      }
    }
  }
  return refile;
}

/// A corner's place in a table by triangle: corner `corner` in cell `cell` of table `table`.
typedef struct filed_entry {
  uint32_t table, cell, corner;
} filed_entry;

/// A free triangle a local change renewed, with the box of its corners.
typedef struct renewed_triangle {
  uint32_t free_number;
  int32_t slot; ///< its triangle of the triangulation
  vec2 lo, hi;
} renewed_triangle;

// Where the refiled corners (`refiled`, their numbers now, ascending) go in the free triangles the
// change renewed (`numbers`, an_navmesh_renewed_numbers()), as file_by_triangle() would file them
// there: each triangle judged alone (triangle_meets_disk()), so that their places in the triangles
// the change kept stay as they were. Corner by corner, so that each cell gets them in order. False
// when out of memory.
static bool judge_renewed(const an_sight_mesh *sm, const an_corner *corners,
                          const uint32_t *refiled, size_t refiled_count, const uint32_t *numbers,
                          size_t number_count, bool wide, double slack, filed_entry **out,
                          size_t *out_count) {
  const an_navmesh *mesh = sm->mesh;
  size_t regular = mesh->free_count - mesh->connector_count, renewed_count = 0, capacity = 0;
  renewed_triangle *renewed = an_alloc(&sm->alloc, number_count + 1, sizeof *renewed);
  *out = NULL;
  *out_count = 0;
  if (!renewed) {
    return false;
  }
  for (size_t k = 0; k < number_count; ++k) {
    uint32_t f = numbers[k];
    if (f >= regular) {
      continue; // a connector, or a number the mesh has no more
    }
    int32_t slot = mesh->tri_of[f];
    const int32_t *v = mesh->cdt.tris[slot].v;
    vec2 lo, hi;
    vec2 points[3] = {mesh->cdt.points[v[0]], mesh->cdt.points[v[1]], mesh->cdt.points[v[2]]};
    an_box_of_points(points, 3, &lo, &hi);
    renewed[renewed_count++] = (renewed_triangle){f, slot, lo, hi};
  }
  bool ok = true;
  for (size_t k = 0; ok && k < refiled_count; ++k) {
    uint32_t c = refiled[k];
    const an_corner *corner = &corners[c];
    for (uint32_t table = BY_TRIANGLE; ok && table <= WIDE; ++table) {
      if ((table == BY_TRIANGLE && sm->corner_vertex[c] >= 0) || (table == WIDE && !wide)) {
        continue;
      }
      double reach = filing_reach(corner, sm->radius, (int)table, slack);
      for (size_t r = 0; ok && r < renewed_count; ++r) {
        const renewed_triangle *tri = &renewed[r];
        if (tri->lo.x > corner->center.x + reach || tri->hi.x < corner->center.x - reach ||
            tri->lo.y > corner->center.y + reach || tri->hi.y < corner->center.y - reach ||
            !triangle_meets_disk(&mesh->cdt, tri->slot, corner->center, reach)) {
          continue;
        }
        ok = an_reserve(&sm->alloc, (void **)out, &capacity, *out_count, *out_count + 1,
                        sizeof **out);
        if (ok) {
          (*out)[(*out_count)++] = (filed_entry){table, tri->free_number, c};
        }
      }
    }
  }
  an_free(&sm->alloc, renewed);
  return ok;
}

// Puts in order a cell's list of corners made of two ascending runs: the carried corners, then
// those filed after them (the corners filed again, among the carried ones, and the new ones). The
// second run goes to `scratch` (grown as needed) and the two are merged from the back. False when
// out of memory.
static bool merge_runs(const an_allocator *alloc, uint32_t *list, size_t n, uint32_t **scratch,
                       size_t *capacity) {
  size_t second = 1;
  while (second < n && list[second - 1] < list[second]) {
    ++second;
  }
  if (second >= n) {
    return true;
  }
  size_t tail = n - second;
  if (!an_reserve(alloc, (void **)scratch, capacity, 0, tail, sizeof **scratch)) {
    return false;
  }
  memcpy(*scratch, list + second, tail * sizeof *list);
  size_t i = second, j = tail, k = n;
  while (j > 0) {
    list[--k] = i > 0 && list[i - 1] > (*scratch)[j - 1] ? list[--i] : (*scratch)[--j];
  }
  return true;
}

// Sets each corner's mesh vertex: a corner `carry` carried keeps the one it had (the change left
// it where it was), the others are located (none for a circle's corner).
static void set_corner_vertices(an_sight_mesh *sm, const an_corner *corners, size_t count,
                                const an_sight_carry *carry) {
  size_t carried = 0;
  if (carry && carry->previous) {
    const an_carried_corners *numbers = carry->corners;
    const int32_t *before = carry->previous->corner_vertex;
    carried = numbers->carried;
    if (an_carried_same_numbers(numbers)) {
      memcpy(sm->corner_vertex, before, carried * sizeof *sm->corner_vertex);
    } else {
      for (size_t c = 0; c < carried; ++c) {
        sm->corner_vertex[c] = before[numbers->from[c]];
      }
    }
  }
  for (size_t c = carried; c < count; ++c) {
    const an_corner *corner = &corners[c];
    sm->corner_vertex[c] =
        corner->wedge_sweep >= AN_TWO_PI ? -1 : an_navmesh_vertex_at(sm->mesh, corner->center);
  }
}

// The corners (by their numbers now, ascending) that `refile` (by the previous numbers) marks, of
// those carried: `renumber` (NULL: the same numbers) gives the numbers now. NULL when out of
// memory.
static uint32_t *list_refiled(const an_sight_mesh *sm, const an_sight_mesh *previous,
                              const uint8_t *refile, const int32_t *renumber, size_t *out_count) {
  size_t n = 0;
  for (size_t c = 0; c < previous->corner_count; ++c) {
    n += refile[c] && (!renumber || renumber[c] >= 0);
  }
  uint32_t *list = an_alloc(&sm->alloc, n + 1, sizeof *list);
  if (!list) {
    return NULL;
  }
  *out_count = 0;
  for (size_t c = 0; c < previous->corner_count; ++c) {
    if (refile[c] && (!renumber || renumber[c] >= 0)) {
      list[(*out_count)++] = renumber ? (uint32_t)renumber[c] : (uint32_t)c;
    }
  }
  return list;
}

// Files every corner (file_corner()); when the map has circles, in the wide filing too. With
// `carry`, a carried corner keeps its vertex, and its filing: on the same triangulation all of
// it, only the new corners are filed, after the carried ones, so each cell lists its corners in
// their order as a build would; on a triangulation a local change made from the old one, the
// filing at vertices too, and by triangle in the triangles the change kept; the corners the old
// tables filed in a triangle the change renewed (corners_to_refile()) are judged against the
// renewed triangles (judge_renewed()), or, where many corners change numbers, taken out and filed
// by triangle again whole, the cells they go in put back in order (merge_runs()).
static arcnav_status file_corners(an_sight_mesh *sm, const an_corner *corners, size_t count,
                                  bool circles, const an_sight_carry *carry) {
  const an_navmesh *mesh = sm->mesh;
  sm->corner_vertex = an_alloc(&sm->alloc, count ? count : 1, sizeof *sm->corner_vertex);
#ifndef NDEBUG
  for (size_t c = 0; c < count; ++c) {
    assert(circles || an_corner_material_radius(&corners[c], sm->radius) <= 0.0);
  }
#endif
  sm->wide_filed = circles;
  an_cell_buckets tables[TABLES];
  arcnav_status status = sm->corner_vertex ? ARCNAV_OK : ARCNAV_ERR_OUT_OF_MEMORY;
  for (int t = 0; t < TABLES; ++t) {
    if (an_cell_buckets_init(&tables[t], table_cells(sm, t), &sm->alloc) != ARCNAV_OK) {
      status = ARCNAV_ERR_OUT_OF_MEMORY;
    }
  }
  const an_sight_mesh *previous = carry ? carry->previous : NULL;
  // Floods run on this triangulation, and on the previous one's to mark what changed there.
  size_t flooded = mesh->cdt.tri_count;
  if (previous && previous->mesh->cdt.tri_count > flooded) {
    flooded = previous->mesh->cdt.tri_count;
  }
  disk_flood flood = {.seen_count = flooded};
  double slack = an_sight_margin(0.0, sm->eps);
  // The old tables can be carried when the wide one was filed as this one must be, and their
  // cells are this triangulation's or those of one a local change made from it. (Carried in
  // chunks, the tables cost the chunks the change touched: less than filing every corner again,
  // even where the corners are filed at their vertices, one entry each, but for a few strays.)
  bool carried_tables = previous && previous->wide_filed == circles &&
                        (carry->same_triangulation || mesh->cloned_from == previous->mesh);
  // The old corners' new numbers; NULL when every old corner carried keeps its number (an add).
  const int32_t *renumber =
      carried_tables && !an_carried_same_numbers(carry->corners) ? carry->corners->to : NULL;
  // On a changed triangulation, the old corners filed in a triangle the change renewed are filed
  // by triangle again (refile).
  uint8_t *renewed_marks = NULL, *refile = NULL;
  uint32_t *renewed = NULL;
  size_t renewed_count = 0;
  if (carried_tables && !carry->same_triangulation && status == ARCNAV_OK) {
    refile =
        an_navmesh_renewed_numbers(previous->mesh, mesh, &renewed_marks, &renewed, &renewed_count)
            ? corners_to_refile(sm, previous, renewed, renewed_count)
            : NULL;
    status = refile ? ARCNAV_OK : ARCNAV_ERR_OUT_OF_MEMORY;
  }
  // When few corners from the first one the change drops or renumbers on (a unit moved or taken
  // away among the last changed, or none): only the cells they were filed in change, found as they
  // were filed, and the others are copied whole. Then the refiled corners keep their places in
  // the triangles the change kept, the cells of the renewed ones are cleared, and the refiled
  // corners are judged against the renewed triangles alone (judge_renewed()).
  uint8_t *marks[TABLES] = {NULL, NULL, NULL};
  size_t first_changed = previous ? previous->corner_count : 0;
  bool marked = carried_tables && (renumber || refile) && status == ARCNAV_OK &&
                (!renumber || an_carried_few_changed(carry->corners, &first_changed));
  bool judged = marked && refile;
  if (marked) {
    status =
        mark_changed(sm, previous, first_changed, judged ? NULL : refile, &flood, slack, marks);
  }
  // Else the refiled corners leave the old triangle tables (renumber_by_triangle) and are filed
  // again whole, their cells put back in order.
  int32_t *renumber_by_triangle = NULL;
  if (refile && !judged && status == ARCNAV_OK) {
    renumber_by_triangle =
        an_alloc(&sm->alloc, previous->corner_count + 1, sizeof *renumber_by_triangle);
    flood.tables = tables;
    flood.listed[BY_TRIANGLE] = an_calloc(&sm->alloc, table_cells(sm, BY_TRIANGLE) + 1, 1);
    flood.listed[WIDE] = an_calloc(&sm->alloc, table_cells(sm, WIDE) + 1, 1);
    status = renumber_by_triangle && flood.listed[BY_TRIANGLE] && flood.listed[WIDE]
                 ? ARCNAV_OK
                 : ARCNAV_ERR_OUT_OF_MEMORY;
    for (size_t c = 0; status == ARCNAV_OK && c < previous->corner_count; ++c) {
      renumber_by_triangle[c] = refile[c] ? -1 : renumber ? renumber[c] : (int32_t)c;
    }
  }
  if (status == ARCNAV_OK) {
    set_corner_vertices(sm, corners, count, carry);
  }
  // With the tables carried, only the new corners (from carried_count on) are filed, and those
  // carried ones filed by triangle again (refile), in order.
  size_t carried_count = carried_tables ? carry->corners->carried : 0;
  uint32_t *refiled = NULL;
  size_t refiled_count = 0, judged_count = 0;
  filed_entry *judged_entries = NULL;
  if (refile && status == ARCNAV_OK) {
    refiled = list_refiled(sm, previous, refile, renumber, &refiled_count);
    status = refiled ? ARCNAV_OK : ARCNAV_ERR_OUT_OF_MEMORY;
  }
  if (judged && status == ARCNAV_OK &&
      !judge_renewed(sm, corners, refiled, refiled_count, renewed, renewed_count, circles, slack,
                     &judged_entries, &judged_count)) {
    status = ARCNAV_ERR_OUT_OF_MEMORY;
  }
  for (int pass = 0; pass < 2 && status == ARCNAV_OK; ++pass) {
    // With the old tables carried only the new corners are filed: few enough to log.
    flood.logging = carried_tables && pass == 0;
    flood.replaying = carried_tables && pass == 1;
    for (int t = 0; carried_tables && t < TABLES; ++t) {
      bool by_triangle = t != BY_VERTEX;
      an_cell_buckets_put_carried(&tables[t], &previous->tables[t],
                                  by_triangle && renumber_by_triangle ? renumber_by_triangle
                                                                      : renumber,
                                  marks[t], marked, by_triangle && judged ? renewed_marks : NULL);
    }
    // The refiled corners judged in the renewed triangles, whose cells carried nothing.
    for (size_t k = 0; k < judged_count; ++k) {
      const filed_entry *e = &judged_entries[k];
      an_cell_buckets_put(&tables[e->table], e->cell, e->corner);
    }
    // Or the carried corners filed with the old tables, but by triangle again where the change
    // renewed one they were filed in: among the carried corners, so their cells are sorted after.
    // Then the others, in order.
    flood.listing = flood.replaying;
    for (size_t k = 0; !judged && k < refiled_count && status == ARCNAV_OK; ++k) {
      uint32_t c = refiled[k];
      if (!file_by_triangle(sm, &flood, &corners[c], c, sm->corner_vertex[c], sm->radius, circles,
                            slack, tables, NULL)) {
        status = ARCNAV_ERR_OUT_OF_MEMORY;
      }
    }
    flood.listing = false;
    for (size_t c = carried_count; c < count && status == ARCNAV_OK; ++c) {
      if (!file_corner(sm, &flood, &corners[c], (uint32_t)c, sm->corner_vertex[c], sm->radius,
                       circles, slack, tables, NULL)) {
        status = ARCNAV_ERR_OUT_OF_MEMORY;
      }
    }
    for (int t = 0; t < TABLES && status == ARCNAV_OK; ++t) {
      status = an_cell_buckets_end_pass(&tables[t], &sm->alloc);
    }
  }
  uint32_t *scratch = NULL;
  size_t scratch_capacity = 0;
  for (size_t k = 0; status == ARCNAV_OK && k < flood.unsorted_count; ++k) {
    uint32_t length;
    uint32_t *list =
        an_cell_buckets_own_list(&tables[flood.unsorted[k].table], flood.unsorted[k].cell, &length);
    if (!merge_runs(&sm->alloc, list, length, &scratch, &scratch_capacity)) {
      status = ARCNAV_ERR_OUT_OF_MEMORY;
    }
  }
  an_free(&sm->alloc, scratch);
  for (int t = 0; t < TABLES; ++t) {
    if (status == ARCNAV_OK) {
      sm->tables[t] = tables[t].table;
    } else {
      an_cell_buckets_free(&tables[t], &sm->alloc);
    }
    an_free(&sm->alloc, marks[t]);
  }
  an_free(&mesh->alloc, renewed_marks);
  an_free(&mesh->alloc, renewed);
  an_free(&sm->alloc, refile);
  an_free(&sm->alloc, refiled);
  an_free(&sm->alloc, judged_entries);
  an_free(&sm->alloc, renumber_by_triangle);
  an_free(&sm->alloc, flood.seen);
  an_free(&sm->alloc, flood.queue);
  an_free(&sm->alloc, flood.log);
  an_free(&sm->alloc, flood.unsorted);
  for (int t = 0; t < TABLES; ++t) {
    an_free(&sm->alloc, flood.listed[t]);
  }
  return status;
}

arcnav_status an_polygon_mesh_build(const arcnav_map *map, const an_allocator *alloc,
                                    an_navmesh **out) {
  *out = NULL;
  an_obstacle *obstacles =
      an_alloc(alloc, map->obstacle_count ? map->obstacle_count : 1, sizeof *obstacles);
  if (!obstacles) {
    return ARCNAV_ERR_OUT_OF_MEMORY;
  }
  if (map->obstacle_count) {
    memcpy(obstacles, map->obstacles, map->obstacle_count * sizeof *obstacles);
  }
  for (size_t o = 0; o < map->obstacle_count; ++o) {
    if (obstacles[o].kind == AN_OBSTACLE_CIRCLE) {
      obstacles[o].radius = 0.0;
    }
  }
  arcnav_map polygons = *map;
  polygons.obstacles = obstacles;
  arcnav_status status = an_navmesh_build(&polygons, alloc, out);
  an_free(alloc, obstacles);
  // Its landmarks bound the disk searches' remaining lengths (mesh/landmarks.h).
  if (status == ARCNAV_OK) {
    status = an_landmarks_build(*out, an_landmarks_count_for((*out)->cdt.point_count), true);
    if (status != ARCNAV_OK) {
      an_navmesh_destroy(*out);
      *out = NULL;
    }
  }
  // Only running out of memory is an error; an input the triangulation cannot take is gathered
  // from the grid.
  return status == ARCNAV_ERR_OUT_OF_MEMORY ? status : ARCNAV_OK;
}

arcnav_status an_sight_mesh_build(const arcnav_map *map, const an_corner *corners,
                                  size_t corner_count, double radius,
                                  const an_navmesh *polygon_mesh, const an_sight_carry *carry,
                                  const an_allocator *alloc, an_sight_mesh **out) {
  *out = NULL;
  an_sight_mesh *sm = an_calloc(alloc, 1, sizeof *sm);
  if (!sm) {
    return ARCNAV_ERR_OUT_OF_MEMORY;
  }
  sm->alloc = *alloc;
  sm->mesh = polygon_mesh;
  sm->eps = an_map_tolerance(map);
  sm->radius = radius;
  sm->corners = corners;
  sm->corner_count = corner_count;
  // Exactly a map with round obstacles has corners whose material has a rim (a circle's corner
  // is never dropped as unusable, tangent_engine.c), and rays off a rim read the wide filing.
  arcnav_status status =
      file_corners(sm, corners, corner_count, an_map_has_round_obstacles(map), carry);
  if (status != ARCNAV_OK) {
    an_sight_mesh_destroy(sm);
    return status;
  }
  *out = sm;
  return ARCNAV_OK;
}

void an_sight_mesh_destroy(an_sight_mesh *sm) {
  if (!sm) {
    return;
  }
  an_allocator alloc = sm->alloc;
  an_free(&alloc, sm->corner_vertex);
  for (int t = 0; t < TABLES; ++t) {
    an_cell_table_free(&sm->tables[t], &alloc);
  }
  an_free(&alloc, sm);
}

int32_t an_sight_mesh_corner_vertex(const an_sight_mesh *sm, size_t corner) {
  return sm->corner_vertex[corner];
}

bool an_sight_mesh_same_filing(const an_sight_mesh *a, const an_sight_mesh *b) {
  if (a->corner_count != b->corner_count || a->wide_filed != b->wide_filed ||
      memcmp(a->corner_vertex, b->corner_vertex, a->corner_count * sizeof *a->corner_vertex) != 0) {
    return false;
  }
  for (int t = 0; t < TABLES; ++t) {
    if (!an_cell_table_same(&a->tables[t], &b->tables[t])) {
      return false;
    }
  }
  return true;
}

const an_navmesh *an_sight_mesh_polygons(const an_sight_mesh *sm) {
  return sm->mesh;
}

size_t an_sight_mesh_memory_bytes(const an_sight_mesh *sm) {
  if (!sm) {
    return 0;
  }
  size_t bytes = sizeof *sm + sm->corner_count * sizeof *sm->corner_vertex;
  for (int t = 0; t < TABLES; ++t) {
    bytes += an_cell_table_memory_bytes(&sm->tables[t]);
  }
  return bytes;
}

void an_sight_mesh_scratch_free(an_sight_mesh_scratch *scratch, const an_allocator *alloc) {
  an_free(alloc, scratch->windows);
  an_free(alloc, scratch->stopped);
  memset(scratch, 0, sizeof *scratch);
}

// ---- the expansion -------------------------------------------------------------------------

// Departure arcs narrow in steps as targets lie farther (see departure_arcs).
#define ARC_LEVELS 5

// The rays of an expansion leave a point (rim 0), or a circle of radius `rim` around it along its
// tangents, all turning one way. Those tangent rays never cross one another and every point
// outside the circle lies on exactly one of them, so they sweep the plane in the same angular
// order as rays from a point: a window is still the pair of its boundary rays' directions, and
// the ray through a vertex is found from the vertex alone.
typedef struct expansion {
  const an_sight_mesh *sm;
  an_sight_mesh_scratch *scratch;
  an_sight_scratch *out;
  const an_allocator *alloc;
  const an_sight_limit *limit;
  vec2 origin;
  double radius; ///< R: how far a target's touching point lies from its material
  double rim;    ///< radius the rays leave from: 0 for a point
  double turn;   ///< +1 when the rays leave the rim counter-clockwise, -1 clockwise
  size_t count;  ///< windows waiting
  double beyond; ///< least cost bound (see beyond_limit) of any target left out, or infinity
  // From a polygon corner: the directions its taut departures can take, as one or two arcs of
  // less than half a turn each (none: every direction), and how near a target must be to lie
  // outside them (see departure_arcs). Targets farther than level_reach[j] lie within the
  // narrower arcs of level j.
  int arc_count;
  int level_count;
  vec2 arc_right[ARC_LEVELS][2], arc_left[ARC_LEVELS][2];
  double level_reach[ARC_LEVELS];
  double near_reach;
  an_sight_window popped; ///< the window being entered
} expansion;

// Direction of the ray off the rim through the point at offset u from the centre, and how far
// along it the point lies. False when the point is not outside the rim, where no ray reaches.
static bool ray_through_rim(const expansion *x, vec2 u, vec2 *direction, double *length) {
  double excess = v2_len2(u) - x->rim * x->rim;
  if (!(excess > 0.0)) {
    return false;
  }
  // The tangent point t satisfies u = rim n + length turn perp(n) for the unit normal n there;
  // solving gives the direction turn perp(n) as a multiple of length u + turn rim perp(u).
  *length = sqrt(excess);
  *direction = v2_mul_add(v2_scale(u, *length), x->turn * x->rim, v2_perp(u));
  return true;
}

// Direction of the ray through p, and how far along it p lies. False when p is not outside the
// rim, where no ray reaches.
static inline bool ray_through(const expansion *x, vec2 p, vec2 *direction, double *length) {
  vec2 u = v2_sub(p, x->origin);
  if (x->rim == 0.0) {
    *direction = u;
    *length = v2_len(u);
    return true;
  }
  return ray_through_rim(x, u, direction, length);
}

// Rays from a rim offer by the wide filing of the triangles they enter, which holds the corners
// at their vertices too.
static void offer_cell(expansion *x, int table, int32_t cell) {
  assert(cell >= 0 && (size_t)cell < table_cells(x->sm, table));
  uint32_t count;
  const uint32_t *corners = an_cell_table_list(&x->sm->tables[table], (size_t)cell, &count);
  for (uint32_t k = 0; k < count; ++k) {
    an_sight_offer(x->out, corners[k]);
  }
}

static void offer_vertex(expansion *x, int32_t v) {
  if (x->rim <= 0.0) {
    offer_cell(x, BY_VERTEX, v);
  }
}

static void offer_triangle(expansion *x, int32_t f) {
  offer_cell(x, x->rim > 0.0 ? WIDE : BY_TRIANGLE, f);
}

// Slack on a window boundary through a vertex `length` away: shifting the vertex sideways by
// this much keeps grazing rays in.
static double slack_at(const expansion *x, double length) {
  return an_sight_margin(length, x->sm->eps);
}

// Direction d turned clockwise (towards the right) by the small angle whose tangent is `turn`.
static vec2 turned_right(vec2 d, double turn) {
  return v2(d.x + turn * d.y, d.y - turn * d.x);
}

static vec2 turned_left(vec2 d, double turn) {
  return v2(d.x - turn * d.y, d.y + turn * d.x);
}

// Direction to a vertex at offset d, turned clockwise (towards the right) by the slack.
static vec2 widened_right(const expansion *x, vec2 d, double length) {
  return turned_right(d, slack_at(x, length) / length);
}

static vec2 widened_left(const expansion *x, vec2 d, double length) {
  return turned_left(d, slack_at(x, length) / length);
}

// Parameter along a -> b where the ray along `ray` crosses it, clamped to [0, 1]; `fallback` when
// the ray runs (nearly) parallel to the edge. A ray off a rim leaves it at
// origin - turn rim perp(ray) / |ray|, which shifts cross(ray, start - a) by -turn rim |ray|.
static double crossing_parameter(const expansion *x, vec2 ray, vec2 a, vec2 b, double fallback) {
  double den = v2_cross(ray, v2_sub(b, a));
  double num = v2_cross(ray, v2_sub(x->origin, a));
  if (x->rim > 0.0) {
    num -= x->turn * x->rim * v2_len(ray);
  }
  double t = num / den;
  return t >= 0.0 ? (t <= 1.0 ? t : 1.0) : (t < 0.0 ? 0.0 : fallback);
}

// How much nearer the goal a tangent's touching point may lie than the ray's far end, for rays
// from a point (rim 0) in the window between `right` and `left` that reach beyond an edge piece
// `nearest` from the origin and `goal_gap` from the goal; rays end w = `shift` sideways of the
// tangent (see beyond_limit).
//
// The touching point t lies R from the far end p across the tangent, so
// |t - goal| >= |p - goal| - R |sin phi|, phi being the angle between the tangent and the way from
// p to the goal. The tangent turns by asin(w / a) from the ray (a = |p - origin|), so
// |sin phi| <= h / b + w / a, where h is the goal's distance from the ray's line and b = |p -
// goal|. Along a ray, a + b - R h / b never decreases once h >= 2R: its derivative is 1 - cos psi -
// R sin psi cos psi / b (psi the angle at p between the ray and the way to the goal), and tan(psi /
// 2) >= sin psi / 2 = h / (2b) >= R / b. So beyond the edge it is least where the ray crosses it,
// at a distance sum of at least the piece's least and a goal distance b >= goal_gap. A window with
// a ray passing nearer the goal keeps the whole R.
static double goal_side_margin(const expansion *x, vec2 right, vec2 left, double nearest,
                               double goal_gap, double shift) {
  double radius = x->radius;
  if (x->rim > 0.0 || !(nearest > 0.0) || !(goal_gap > 0.0)) {
    return radius;
  }
  vec2 g = v2_sub(x->limit->goal, x->origin);
  vec2 r = v2_normalize(right), l = v2_normalize(left);
  double hr = v2_cross(r, g), hl = v2_cross(l, g);
  // Less than half a turn from right to left: the goal's distance from the rays' lines,
  // |g| |sin|, is zero inside only where the sign changes, and otherwise least at an end.
  if (!(hr * hl > 0.0) || an_min(fabs(hr), fabs(hl)) < 2.0 * radius + slack_at(x, v2_len(g))) {
    return radius;
  }
  double h_most = v2_dot(r, g) * v2_dot(l, g) > 0.0 ? an_max(fabs(hr), fabs(hl)) : v2_len(g);
  return radius * an_min(1.0, h_most / goal_gap + shift / nearest);
}

// Is every target the window's rays reach beyond the edge (a, b) too far for the limit? The limit
// bounds a tangent's length L plus the distance from its touching point to the goal. Along a ray
// from the origin |p - origin| + |p - goal| never decreases, so its least value S beyond the edge
// is on the piece of the edge the window crosses (see an_least_distance_sum), and so is the least
// distance l from the origin.
// A ray's far end lies R from the tangent's touching point, which costs up to R of the goal
// distance (less when the rays pass well away from the goal, see goal_side_margin). The ray's
// length l_ray relates to L by L = sqrt(l_ray^2 - w^2), at most min(w, w^2 / l) short of l_ray:
// - rays from a point: the tangent with both ends moved by R onto material, shifted sideways by
//   w = 2R at most (see departure_arcs);
// - rays leaving a rim: the tangent moved by R onto the rim ray, of the same length, and its
//   start t on the rim makes |p - t| = sqrt(|p - origin|^2 - rim^2): w = rim.
static bool beyond_limit(expansion *x, vec2 a, vec2 b, vec2 right, vec2 left, double *key) {
  if (!x->limit) {
    return false;
  }
  double t0 = crossing_parameter(x, right, a, b, 0.0);
  // Most crossings lie well inside the limit: the sum at one point of the piece shows it.
  vec2 p = v2_lerp(a, b, t0);
  double at_p = v2_dist(x->origin, p) + v2_dist(x->limit->goal, p);
  if (at_p - slack_at(x, at_p) <= x->limit->bound) {
    return false;
  }
  double t1 = crossing_parameter(x, left, a, b, 1.0);
  vec2 q = v2_lerp(a, b, an_max(t0, t1));
  p = v2_lerp(a, b, an_min(t0, t1));
  double least = an_least_distance_sum(x->origin, x->limit->goal, p, q);
  if (least - slack_at(x, least) <= x->limit->bound) {
    return false;
  }
  double shift = x->rim > 0.0 ? x->rim : 2.0 * x->radius;
  double nearest = an_point_segment_dist(x->origin, p, q);
  double goal_gap = an_point_segment_dist(x->limit->goal, p, q);
  double shortening = nearest > shift ? an_min(shift, shift * shift / nearest) : shift;
  least -=
      goal_side_margin(x, right, left, nearest, goal_gap, shift) + shortening + slack_at(x, least);
  *key = least;
  return least > x->limit->bound;
}

// Keeps a window the limit stops, to resume from: the expansion's result reports it.
static bool keep_stopped(expansion *x, const an_sight_window *w, double key) {
  an_sight_mesh_scratch *s = x->scratch;
  if (!an_reserve(x->alloc, (void **)&s->stopped, &s->stopped_capacity, s->stopped_count,
                  s->stopped_count + 1, sizeof *s->stopped)) {
    return false;
  }
  s->stopped[s->stopped_count++] = (an_sight_frontier){*w, key};
  x->beyond = an_min(x->beyond, key);
  return true;
}

static bool push_window(expansion *x, int32_t triangle, int32_t edge, vec2 right, vec2 left,
                        double reach, int arc, int level) {
  an_sight_mesh_scratch *s = x->scratch;
  if (x->count == s->capacity && !an_reserve(x->alloc, (void **)&s->windows, &s->capacity, x->count,
                                             x->count + 1, sizeof *s->windows)) {
    return false;
  }
  an_sight_window *w = &s->windows[x->count++];
  w->right = right;
  w->left = left;
  w->reach = reach;
  w->triangle = triangle;
  w->edge = edge;
  w->arc = (int8_t)arc;
  w->level = (int8_t)level;
  return true;
}

// The window on top, copied field by field: it was most often pushed a moment ago, one field at
// a time, and a copy as a block would wait for those stores to reach the cache.
static const an_sight_window *pop_window(expansion *x) {
  const an_sight_window *top = &x->scratch->windows[--x->count];
  an_sight_window *w = &x->popped;
  w->right = v2(top->right.x, top->right.y);
  w->left = v2(top->left.x, top->left.y);
  w->reach = top->reach;
  w->triangle = top->triangle;
  w->edge = top->edge;
  w->arc = top->arc;
  w->level = top->level;
  return w;
}

// The edge of free triangle `g` that leads back to its neighbour `f`: two triangles of a
// triangulation share at most one edge.
static int32_t edge_towards(const an_navmesh *mesh, int32_t g, int32_t f) {
  const int32_t *across = &mesh->fn[3 * (size_t)g];
  for (int k = 0; k < 3; ++k) {
    if (across[k] == f) {
      return k;
    }
  }
  return -1;
}

// Is direction d within the window or arc (less than half a turn) from `right` counter-clockwise
// to `left`?
static inline bool direction_within(vec2 d, vec2 right, vec2 left) {
  return v2_cross(right, d) >= 0.0 && v2_cross(d, left) >= 0.0;
}

// Narrows the window (right, left) to the arc (arc_right, arc_left); both span less than half a
// turn, so what they share is one arc or nothing. False for nothing.
static bool clip_to_arc(vec2 *right, vec2 *left, vec2 arc_right, vec2 arc_left) {
  vec2 r, l;
  if (direction_within(*right, arc_right, arc_left)) {
    r = *right;
  } else if (direction_within(arc_right, *right, *left)) {
    r = arc_right;
  } else {
    return false;
  }
  if (direction_within(*left, arc_right, arc_left)) {
    l = *left;
  } else if (direction_within(arc_left, *right, *left)) {
    l = arc_left;
  } else {
    return false;
  }
  *right = r;
  *left = l;
  return true;
}

// The ray through a mesh vertex, worked out once for the edges on both sides of it.
typedef struct vertex_ray {
  vec2 point;
  vec2 direction;
  double length; ///< along the ray; 0 when the vertex is not outside the rim
  double turn;   ///< the slack over the length: how far a window bound through it is widened
  bool outside;  ///< a ray reaches the vertex
  bool narrows;  ///< the vertex lies beyond the slack of the origin, so it bounds windows
} vertex_ray;

static vertex_ray ray_to_vertex(const expansion *x, int32_t v) {
  vertex_ray r = {x->sm->mesh->cdt.points[v], v2(0.0, 0.0), 0.0, 0.0, false, false};
  r.outside = ray_through(x, r.point, &r.direction, &r.length);
  if (r.outside) {
    double slack = slack_at(x, r.length);
    r.narrows = r.length > 2.0 * slack;
    r.turn = r.narrows ? slack / r.length : 0.0;
  }
  return r;
}

// Leaves free triangle f across its edge k, from vertex `from` (fv[k + 1], on the right as seen
// from inside) to `to` (fv[k + 2], on the left), narrowing the window w to the rays through that
// edge, and to the narrower departure arcs of targets as far as the edge; a window with a finite
// reach stops at edges wholly beyond it.
static bool leave_across(expansion *x, int32_t f, int k, const an_sight_window *w,
                         const vertex_ray *from, const vertex_ray *to) {
  vec2 right = w->right, left = w->left;
  const an_navmesh *mesh = x->sm->mesh;
  int32_t g = mesh->fn[3 * (size_t)f + k];
  if (g < 0) {
    return true;
  }
  if (from->narrows) {
    vec2 r = turned_right(from->direction, from->turn);
    if (v2_cross(right, r) > 0.0) {
      right = r;
    }
  }
  if (to->narrows) {
    vec2 l = turned_left(to->direction, to->turn);
    if (v2_cross(l, left) > 0.0) {
      left = l;
    }
  }
  if (v2_cross(right, left) < 0.0) {
    return true;
  }
  vec2 pa = from->point, pb = to->point;
  // Rays from a corner pass the vertices at their lengths, and the edge is nearer than both.
  int level = w->level;
  double nearest = -1.0; // the edge's distance from the origin, once needed
  if (w->arc >= 0 && level + 1 < x->level_count &&
      an_min(from->length, to->length) >= x->level_reach[level + 1]) {
    nearest = an_point_segment_dist(x->origin, pa, pb);
    while (level + 1 < x->level_count && nearest >= x->level_reach[level + 1]) {
      ++level;
    }
    if (level != w->level &&
        !clip_to_arc(&right, &left, x->arc_right[level][w->arc], x->arc_left[level][w->arc])) {
      return true;
    }
  }
  if (w->reach < INFINITY) {
    if (nearest < 0.0) {
      nearest = an_point_segment_dist(x->origin, pa, pb);
    }
    if (nearest > w->reach) {
      return true;
    }
  }
  double key = 0.0;
  bool stopped = beyond_limit(x, pa, pb, right, left, &key);
  int32_t back = edge_towards(mesh, g, f);
  if (back < 0) {
    return true;
  }
  if (stopped) {
    an_sight_window next = {right, left, w->reach, g, back, w->arc, (int8_t)level};
    return keep_stopped(x, &next, key);
  }
  return push_window(x, g, back, right, left, w->reach, w->arc, level);
}

// leave_across for a window that does not come from entering f.
static bool leave_edge(expansion *x, int32_t f, int k, const an_sight_window *w) {
  const int32_t *v = &x->sm->mesh->fv[3 * (size_t)f];
  vertex_ray from = ray_to_vertex(x, v[an_cdt_next3(k)]), to = ray_to_vertex(x, v[an_cdt_prev3(k)]);
  return leave_across(x, f, k, w, &from, &to);
}

// A window into the rays between right and left from where an expansion starts, followed as far
// as `reach`, within departure arc `arc` (-1: none). Its triangle and edge are the caller's.
static an_sight_window start_window(vec2 right, vec2 left, double reach, int arc) {
  return (an_sight_window){right, left, reach, -1, -1, (int8_t)arc, 0};
}

// Enters a window's triangle: offers what lies in it, then leaves across its two other edges.
static bool enter(expansion *x, const an_sight_window *w) {
  const an_navmesh *mesh = x->sm->mesh;
  int32_t f = w->triangle;
  int k = w->edge;
  offer_triangle(x, f);
  const int32_t *v = &mesh->fv[3 * (size_t)f];
  const int32_t *across = &mesh->fn[3 * (size_t)f];
  vertex_ray apex = ray_to_vertex(x, v[k]);
  if (!apex.outside || direction_within(apex.direction, w->right, w->left)) {
    offer_vertex(x, v[k]);
  }
  // Edge k + 1 runs from v[k + 2] to the apex, edge k + 2 from the apex to v[k + 1]. The
  // triangle's directions span less than half a turn, so a window wholly on one side of the
  // apex's widened bound misses the edge on the other side whatever its far vertex.
  int k1 = an_cdt_next3(k), k2 = an_cdt_prev3(k);
  bool misses_k1 = apex.narrows && v2_cross(w->right, turned_left(apex.direction, apex.turn)) < 0.0;
  bool misses_k2 = apex.narrows && v2_cross(turned_right(apex.direction, apex.turn), w->left) < 0.0;
  if (across[k1] >= 0 && !misses_k1) {
    vertex_ray from = ray_to_vertex(x, v[k2]);
    if (!leave_across(x, f, k1, w, &from, &apex)) {
      return false;
    }
  }
  if (across[k2] >= 0 && !misses_k2) {
    vertex_ray to = ray_to_vertex(x, v[k1]);
    if (!leave_across(x, f, k2, w, &apex, &to)) {
      return false;
    }
  }
  return true;
}

// A tangent leaving a polygon corner turning one way touches it at a normal inside its wedge, so
// it leaves along that normal turned a quarter turn. Move its ends onto the material they wrap
// (see the file comment): both move by R across the tangent, so the moved segment is the tangent
// shifted sideways by 0 or 2R, and a target whose moved end lies l from the vertex lies within
// asin(2R / l) of a departure direction. Beyond NEAR_REACH_RADII * R that is at most
// asin(2 / NEAR_REACH_RADII); nearer targets are found by windows over every direction that stop
// at that distance. Farther out the arcs narrow further, level by level: a window crossing an
// edge at least level_reach[j] away keeps to the arcs of level j from there on. Far windows of a
// corner whose departures turn away from the goal would otherwise scan the whole way to it.
#define NEAR_REACH_RADII 4.0
// Each arc level holds for targets this many times farther than the level before.
#define ARC_LEVEL_GROWTH 4.0

static void departure_arcs(expansion *x, const an_corner *corner, bool ccw) {
  double radius = x->radius;
  // The arcs spread from the middle of the departures by half the wedge and a pad, sin(pad) = q.
  // Rounding slack: the wedge's own, and far more besides (+1e-6 on q pads by at least 1e-6
  // radians); offering more is always safe.
  double half_wedge = 0.5 * corner->wedge_sweep;
  double middle = corner->wedge_start + (ccw ? 0.5 : -0.5) * AN_PI + half_wedge;
  double q = radius > 0.0 ? 2.0 / NEAR_REACH_RADII : 0.0;
  double spread = half_wedge + asin(q + AN_DEPARTURE_PAD_SINE);
  x->arc_count = spread >= 0.9 * AN_PI ? 0 : spread > 0.45 * AN_PI ? 2 : 1;
  x->level_count = radius > 0.0 ? ARC_LEVELS : 1;
  x->near_reach = 0.0;
  if (x->arc_count == 0) {
    return;
  }
  vec2 mid = v2(cos(middle), sin(middle));
  vec2 half_turn = v2(cos(half_wedge), sin(half_wedge));
  double reach = NEAR_REACH_RADII * radius;
  for (int level = 0; level < x->level_count; ++level) {
    x->level_reach[level] = reach + 2.0 * slack_at(x, reach);
    double sin_pad = q + AN_DEPARTURE_PAD_SINE, cos_pad = sqrt(1.0 - sin_pad * sin_pad);
    // Half the arcs' spread, as a rotation.
    vec2 half = v2(half_turn.x * cos_pad - half_turn.y * sin_pad,
                   half_turn.y * cos_pad + half_turn.x * sin_pad);
    vec2 from = v2(mid.x * half.x + mid.y * half.y, mid.y * half.x - mid.x * half.y);
    vec2 to = v2(mid.x * half.x - mid.y * half.y, mid.y * half.x + mid.x * half.y);
    // Two arcs meet at the middle, whatever the level, so that each level's arc lies within the
    // same arc of the level before.
    vec2 bounds[3] = {from, x->arc_count == 2 ? mid : to, to};
    for (int i = 0; i < x->arc_count; ++i) {
      x->arc_right[level][i] = bounds[i];
      x->arc_left[level][i] = bounds[i + 1];
    }
    reach *= ARC_LEVEL_GROWTH;
    q /= ARC_LEVEL_GROWTH;
  }
  // Targets nearer than the first level's arcs hold are found in every direction.
  if (radius > 0.0) {
    x->near_reach = x->level_reach[0];
  }
}

// Leaves a triangle around the viewpoint's vertex across the edge opposite it, from vertex `from`
// to `to`: within the departure arcs as far as the rays go, and in every direction as far as the
// near reach.
static bool leave_around_vertex(expansion *x, int32_t f, int k, const vertex_ray *from,
                                const vertex_ray *to) {
  vec2 right = turned_right(from->direction, from->turn);
  vec2 left = turned_left(to->direction, to->turn);
  if (x->arc_count == 0) {
    an_sight_window w = start_window(right, left, INFINITY, -1);
    return leave_across(x, f, k, &w, from, to);
  }
  for (int i = 0; i < x->arc_count; ++i) {
    an_sight_window w = start_window(right, left, INFINITY, i);
    if (clip_to_arc(&w.right, &w.left, x->arc_right[0][i], x->arc_left[0][i]) &&
        !leave_across(x, f, k, &w, from, to)) {
      return false;
    }
  }
  an_sight_window near = start_window(right, left, x->near_reach, -1);
  return !(x->near_reach > 0.0) || leave_across(x, f, k, &near, from, to);
}

// Starts from a vertex: every free triangle around it, each vertex of which it sees.
static bool start_at_vertex(expansion *x, int32_t v, bool *suitable) {
  const an_navmesh *mesh = x->sm->mesh;
  const an_cdt *cdt = &mesh->cdt;
  int32_t t0 = cdt->vertex_tri[v], t = t0;
  size_t steps = 0;
  do {
    int i = an_cdt_vertex_index(&cdt->tris[t], v);
    if (i < 0) {
      *suitable = false;
      return true;
    }
    int32_t f = mesh->free_of[t];
    if (f >= 0) {
      // The free triangle's own edge order may start elsewhere: find the edge opposite v.
      const int32_t *fv = &mesh->fv[3 * (size_t)f];
      int k = 0;
      while (k < 3 && fv[k] != v) {
        ++k;
      }
      if (k == 3) {
        *suitable = false;
        return true;
      }
      vertex_ray from = ray_to_vertex(x, fv[an_cdt_next3(k)]),
                 to = ray_to_vertex(x, fv[an_cdt_prev3(k)]);
      if (!from.narrows || !to.narrows) {
        *suitable = false;
        return true;
      }
      offer_triangle(x, f);
      offer_vertex(x, fv[an_cdt_next3(k)]);
      offer_vertex(x, fv[an_cdt_prev3(k)]);
      if (!leave_around_vertex(x, f, k, &from, &to)) {
        return false;
      }
    }
    // Next triangle counter-clockwise around v: across the edge from v[i + 2] to v.
    t = cdt->tris[t].n[an_cdt_next3(i)];
  } while (t >= 0 && t != t0 && ++steps < cdt->tri_count);
  *suitable = t == t0;
  return true;
}

// Starts from a point strictly inside a free triangle.
static bool start_in_triangle(expansion *x, bool *suitable) {
  const an_navmesh *mesh = x->sm->mesh;
  int32_t f = an_navmesh_locate(mesh, x->origin);
  *suitable = false;
  if (f < 0 || (size_t)f >= mesh->free_count - mesh->connector_count) {
    return true;
  }
  const int32_t *fv = &mesh->fv[3 * (size_t)f];
  vertex_ray rays[3];
  for (int k = 0; k < 3; ++k) {
    rays[k] = ray_to_vertex(x, fv[k]);
  }
  for (int k = 0; k < 3; ++k) {
    vec2 a = rays[an_cdt_next3(k)].direction, b = rays[an_cdt_prev3(k)].direction;
    // Clearly inside: farther than the slack from every edge line.
    if (!(v2_cross(a, b) > 2.0 * v2_dist(a, b) * slack_at(x, rays[k].length)) || !rays[k].narrows) {
      return true;
    }
  }
  *suitable = true;
  offer_triangle(x, f);
  for (int k = 0; k < 3; ++k) {
    offer_vertex(x, fv[k]);
  }
  for (int k = 0; k < 3; ++k) {
    const vertex_ray *from = &rays[an_cdt_next3(k)], *to = &rays[an_cdt_prev3(k)];
    an_sight_window w = start_window(turned_right(from->direction, from->turn),
                                     turned_left(to->direction, to->turn), INFINITY, -1);
    if (!leave_across(x, f, k, &w, from, to)) {
      return false;
    }
  }
  return true;
}

// Splits the window of rays crossing edge k of free triangle f (from a to b) until each piece
// spans less than a quarter turn, so that no widening can make a piece look empty.
static bool leave_rim_region(expansion *x, int32_t f, int k, vec2 a, vec2 b, int depth,
                             bool *suitable) {
  vec2 da, db;
  double la, lb;
  if (!ray_through(x, a, &da, &la) || !ray_through(x, b, &db, &lb)) {
    *suitable = false;
    return true;
  }
  vec2 right = widened_right(x, da, la), left = widened_left(x, db, lb);
  if (v2_cross(right, left) > 0.0 && v2_dot(right, left) > 0.0) {
    an_sight_window w = start_window(right, left, INFINITY, -1);
    return leave_edge(x, f, k, &w);
  }
  if (depth == 0) {
    *suitable = false;
    return true;
  }
  vec2 middle = v2_lerp(a, b, 0.5);
  return leave_rim_region(x, f, k, a, middle, depth - 1, suitable) &&
         (!*suitable || leave_rim_region(x, f, k, middle, b, depth - 1, suitable));
}

#define RIM_REGION_LIMIT 32

static bool region_holds(const int32_t *region, size_t count, int32_t f) {
  for (size_t j = 0; j < count; ++j) {
    if (region[j] == f) {
      return true;
    }
  }
  return false;
}

// The free triangles the circle's disk reaches, flooded from the one holding its centre, into
// region[]; 0 when the rim cannot start an expansion: the disk reaches material, the box or a
// pinch, a vertex lies on or inside the rim, or the region outgrows the limit.
static size_t rim_region(const expansion *x, int32_t region[RIM_REGION_LIMIT]) {
  const an_navmesh *mesh = x->sm->mesh;
  size_t proper = mesh->free_count - mesh->connector_count;
  int32_t first = an_navmesh_locate(mesh, x->origin);
  if (first < 0 || (size_t)first >= proper) {
    return 0;
  }
  double reach = x->rim + 2.0 * slack_at(x, x->rim);
  size_t count = 0;
  region[count++] = first;
  for (size_t i = 0; i < count; ++i) {
    const int32_t *v = &mesh->fv[3 * (size_t)region[i]];
    for (int k = 0; k < 3; ++k) {
      vec2 a = mesh->cdt.points[v[an_cdt_next3(k)]], b = mesh->cdt.points[v[an_cdt_prev3(k)]];
      if (!(v2_dist(mesh->cdt.points[v[k]], x->origin) > reach)) {
        return 0;
      }
      if (an_point_segment_dist(x->origin, a, b) > reach) {
        continue;
      }
      int32_t g = mesh->fn[3 * (size_t)region[i] + k];
      if (g < 0 || (size_t)g >= proper) {
        return 0;
      }
      if (!region_holds(region, count, g)) {
        if (count == RIM_REGION_LIMIT) {
          return 0;
        }
        region[count++] = g;
      }
    }
  }
  return count;
}

// Starts from a circle's rim. The triangles of its region hold every ray's start; each ray leaves
// them across one of their outer edges, crossing it from inside.
static bool start_around_rim(expansion *x, bool *suitable) {
  const an_navmesh *mesh = x->sm->mesh;
  int32_t region[RIM_REGION_LIMIT];
  size_t count = rim_region(x, region);
  *suitable = count > 0;
  for (size_t i = 0; i < count; ++i) {
    offer_triangle(x, region[i]);
  }
  for (size_t e = 0; e < 3 * count && *suitable; ++e) {
    int32_t f = region[e / 3], k = (int32_t)(e % 3);
    int32_t g = mesh->fn[3 * (size_t)f + (size_t)k];
    if (g < 0 || region_holds(region, count, g)) {
      continue;
    }
    const int32_t *v = &mesh->fv[3 * (size_t)f];
    vec2 a = mesh->cdt.points[v[an_cdt_next3(k)]], b = mesh->cdt.points[v[an_cdt_prev3(k)]];
    // Rays cross an edge all the same way (none runs along it: it is not tangent to the rim);
    // those crossing into the region left it earlier, across another outer edge.
    vec2 d;
    double length;
    if (!ray_through(x, v2_lerp(a, b, 0.5), &d, &length)) {
      *suitable = false;
    } else if (v2_cross(v2_sub(b, a), d) < 0.0 && !leave_rim_region(x, f, k, a, b, 8, suitable)) {
      return false;
    }
  }
  if (!*suitable) {
    x->count = 0;
  }
  return true;
}

// Goes on from the windows an earlier gather stopped at: those the bound now lets through are
// pushed as they were, the others stay stopped.
static bool resume_from(expansion *x, const an_sight_frontier *frontier, size_t count) {
  for (size_t i = 0; i < count; ++i) {
    const an_sight_window *w = &frontier[i].window;
    bool ok = frontier[i].key > x->limit->bound ? keep_stopped(x, w, frontier[i].key)
                                                : push_window(x, w->triangle, w->edge, w->right,
                                                              w->left, w->reach, w->arc, w->level);
    if (!ok) {
      return false;
    }
  }
  return true;
}

an_sight_mesh_result an_sight_mesh_gather(const an_sight_mesh *sm, an_sight_mesh_scratch *scratch,
                                          an_sight_scratch *out, const an_sight_request *request,
                                          double *beyond, const an_allocator *alloc) {
  int32_t vertex = -1;
  if (request->corner_index != AN_NONE) {
    vertex = sm->corner_vertex[request->corner_index];
    if (vertex < 0 && !(request->rim > 0.0)) {
      return AN_SIGHT_MESH_UNSUITABLE;
    }
  }
  if (!request->adding) {
    an_sight_begin_offers(out);
  }
  scratch->stopped_count = 0;
  expansion x = {.sm = sm,
                 .scratch = scratch,
                 .out = out,
                 .alloc = alloc,
                 .limit = request->limit,
                 .origin = request->origin,
                 .radius = request->radius,
                 .rim = vertex < 0 ? request->rim : 0.0,
                 .turn = request->ccw ? 1.0 : -1.0,
                 .beyond = INFINITY};
  if (vertex >= 0) {
    // A part of the wedge is the wedge of a corner whose tangents touch only there: the
    // departure arcs hold for it as they do for the whole (DESIGN.md, "The sight mesh").
    an_corner corner = sm->corners[request->corner_index];
    if (request->part && corner.wedge_sweep < AN_TWO_PI) {
      double from = an_max(request->part_from, 0.0);
      corner.wedge_start += from;
      corner.wedge_sweep = an_max(an_min(request->part_to, corner.wedge_sweep) - from, 0.0);
    }
    departure_arcs(&x, &corner, request->ccw);
  }
  bool suitable = true, ok;
  if (request->resuming) {
    assert(x.limit); // only a limit stops windows
    ok = resume_from(&x, request->resume, request->resume_count);
  } else {
    ok = vertex >= 0   ? start_at_vertex(&x, vertex, &suitable)
         : x.rim > 0.0 ? start_around_rim(&x, &suitable)
                       : start_in_triangle(&x, &suitable);
  }
  if (ok && !suitable) {
    return AN_SIGHT_MESH_UNSUITABLE;
  }
  // A window crosses each triangle a bounded number of times; an expansion far beyond that is
  // caught in a degenerate cycle of windows, and the grid's gather answers instead.
  size_t window_budget = 16 * sm->mesh->free_count + 4096;
  while (ok && x.count > 0) {
    if (window_budget-- == 0) {
      return AN_SIGHT_MESH_UNSUITABLE;
    }
    ok = enter(&x, pop_window(&x));
  }
  if (!ok) {
    return AN_SIGHT_MESH_OUT_OF_MEMORY;
  }
  *beyond = x.beyond;
  return AN_SIGHT_MESH_GATHERED;
}
