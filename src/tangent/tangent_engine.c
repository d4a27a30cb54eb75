// SPDX-License-Identifier: MIT
#include "tangent/tangent_engine.h"

#include "funnel/interval_search.h"
#include "index/probe.h"
#include "path/path.h"
#include "search/marks.h"
#include "tangent/disk_search.h"
#include "tangent/tangent_lazy.h"
#include "tangent/tangent_search.h"
#include "tangent/tangent_state.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

// ---- build ---------------------------------------------------------------------------------

// A corner's place, for finding exact copies.
typedef struct corner_place {
  double key[5];
  uint32_t index;
} corner_place;

static int compare_corner_places(const void *lhs, const void *rhs) {
  const corner_place *a = lhs, *b = rhs;
  for (int k = 0; k < 5; ++k) {
    if (a->key[k] != b->key[k]) {
      return a->key[k] < b->key[k] ? -1 : 1;
    }
  }
  return a->index < b->index ? -1 : (a->index > b->index ? 1 : 0);
}

// For a point agent, obstacles meeting at a corner's point are one wall with it: the corner may
// be turned around only inside the wall's normals there, and not at all where the wall is not
// convex (docs/DESIGN.md, "The touching rule"). A polygon corner alone at its vertex keeps its own
// wedge, a point obstacle alone its full circle; a point obstacle that other material meets
// becomes a corner of the wall like a vertex. False when the corner has no use left.
static bool restrict_to_the_wall(an_corner *corner, const an_clearance *point_check,
                                 an_clearance_scratch *scratch) {
  double start, sweep;
  size_t material;
  bool point_obstacle = corner->wedge_sweep >= AN_TWO_PI;
  bool convex =
      an_point_agent_corner_wedge(point_check, scratch, corner->center, &start, &sweep, &material);
  if (material == 0 && point_obstacle) {
    return true;
  }
  if (!convex) {
    return false;
  }
  if (material > 1 || point_obstacle) {
    corner->wedge_start = start;
    corner->wedge_sweep = sweep;
    corner->pinch_count = 0;
    corner->normal_start = v2_from_angle(start);
    corner->normal_end = v2_from_angle(start + sweep);
  }
  return true;
}

// Drops corners no path can use, before anything is built on them: a corner whose vertex lies
// inside other material (a disk touching its circle would contain the vertex, so it is blocked),
// for a point agent a corner where touching obstacles leave no convex wall, and exact copies of
// another corner (obstacles stacked on one spot), which would only multiply the same tangents.
// Order is kept, so maps without such corners plan exactly as before. For a disk, units decide
// nothing here (a query may ignore them): a vertex inside a unit stays, blocked by the free checks
// while the unit is there, and a unit's corner is never taken for a copy. Only the corners from
// `first` on are judged: those before it were judged by the build of a map that a change clear of
// them made this one (carry_corners). `on_their_ring_alone`: those are the corners of one ring
// that a local change put in clear of everything else and in the free space, whose vertices are
// free without a look (docs/DESIGN.md, "Corners kept in place").
static arcnav_status drop_unusable_corners(an_tangent_engine *engine, const arcnav_map *map,
                                           size_t first, bool on_their_ring_alone) {
  const an_allocator *alloc = &engine->alloc;
  size_t count = engine->corner_count - first;
  if (count == 0) {
    return ARCNAV_OK;
  }
  bool point_agent = engine->space.clearance.point_agent;
  bool judge_free = point_agent || !on_their_ring_alone;
  an_clearance point_check = engine->space.clearance;
  point_check.radius = 0.0;
  point_check.point_agent = true;
  an_clearance_scratch scratch = {0};
  arcnav_status status =
      judge_free ? an_clearance_scratch_init(&scratch, &engine->space.grid, alloc) : ARCNAV_OK;
  bool *keep = status == ARCNAV_OK ? an_alloc(alloc, count, sizeof *keep) : NULL;
  corner_place *places = keep ? an_alloc(alloc, count, sizeof *places) : NULL;
  uint8_t *units = places ? an_calloc(alloc, map->obstacle_count + 1, sizeof *units) : NULL;
  if (!units) {
    an_free(alloc, keep);
    an_free(alloc, places);
    an_clearance_scratch_free(&scratch, alloc);
    return ARCNAV_ERR_OUT_OF_MEMORY;
  }
  for (size_t i = 0; i < map->obstacle_count; ++i) {
    units[i] = !point_agent && map->obstacles[i].unit;
  }
  point_check.ignored = units;
  an_corner *judged = engine->corners + first;
  for (size_t c = 0; c < count; ++c) {
    an_corner *corner = &judged[c];
    // A circle obstacle's centre is inside itself; only polygon vertices and, for a point agent,
    // point obstacles are judged.
    bool point_obstacle = corner->wedge_sweep >= AN_TWO_PI &&
                          an_corner_material_radius(corner, engine->radius) <= 0.0;
    keep[c] = (corner->wedge_sweep >= AN_TWO_PI && !(point_agent && point_obstacle)) ||
              !judge_free ||
              (an_point_is_free(&point_check, &scratch, corner->center) &&
               (!point_agent || restrict_to_the_wall(corner, &point_check, &scratch)));
    places[c] = (corner_place){{corner->center.x, corner->center.y, corner->radius,
                                corner->wedge_start, corner->wedge_sweep},
                               (uint32_t)c};
  }
  qsort(places, count, sizeof *places, compare_corner_places);
  for (size_t c = 1; c < count; ++c) {
    bool same = true;
    for (int k = 0; k < 5; ++k) {
      same = same && places[c].key[k] == places[c - 1].key[k];
    }
    const an_corner *later = &judged[places[c].index];
    const an_corner *earlier = &judged[places[c - 1].index];
    bool unit = (later->obstacle >= 0 && units[later->obstacle]) ||
                (earlier->obstacle >= 0 && units[earlier->obstacle]);
    if (same && !unit) {
      keep[places[c].index] = false; // a later copy of the one before it in the sorted order
    }
  }
  an_free(alloc, places);
  an_free(alloc, units);
  an_clearance_scratch_free(&scratch, alloc);
  size_t kept = 0;
  for (size_t c = 0; c < count; ++c) {
    if (keep[c]) {
      judged[kept++] = judged[c];
    }
  }
  an_free(alloc, keep);
  engine->corner_count = first + kept;
  return ARCNAV_OK;
}

// Adds the pinch direction `normal` to the angles a full circle's marking has collected so far
// (the engine's table from `first` on) unless one lies that close already (the wedge test would
// refuse it then). False when out of memory.
static bool add_pinch(an_tangent_engine *engine, size_t first, vec2 normal) {
  double angle = v2_angle(normal);
  // No angle collected yet: the table may not be made at all (no arithmetic on a null pointer).
  if (engine->pinch_table_count > first &&
      an_pinch_near(&engine->pinch_table[first], engine->pinch_table_count - first, angle,
                    AN_WEDGE_SLACK)) {
    return true;
  }
  if (!an_reserve(&engine->alloc, (void **)&engine->pinch_table, &engine->pinch_table_room,
                  engine->pinch_table_count, engine->pinch_table_count + 1,
                  sizeof *engine->pinch_table)) {
    return false;
  }
  engine->pinch_table[engine->pinch_table_count++] = angle;
  return true;
}

// Keeps the pinch angles a full circle's marking collected (the engine's table from `first` on):
// in the corner when they fit, else where they are in the table.
static void settle_pinches(an_tangent_engine *engine, an_corner *corner, size_t first) {
  size_t count = engine->pinch_table_count - first;
  if (count <= AN_CORNER_PINCHES) {
    for (size_t k = 0; k < count; ++k) {
      corner->pinch_angle[k] = engine->pinch_table[first + k];
    }
    corner->pinch_count = (uint8_t)count;
    engine->pinch_table_count = first;
    return;
  }
  corner->pinch_count = AN_PINCHES_IN_TABLE;
  corner->pinch_slice = (an_pinch_slice){(uint32_t)first, (uint32_t)count};
}

// Does the material of edge `item` touch the circle centred at c at the point p from outside,
// rather than overlap the circle there? It does when its directions from p (an_item_material_at:
// the far side of a tangent edge, or the material wedge at a vertex) keep out of the circle's side
// of the tangent at p. Rings meeting at a vertex leave material of their own: judged as touching.
static bool edge_touches_from_outside(const an_item *item, vec2 c, vec2 p, double eps) {
  double start, sweep;
  if (!an_item_material_at(item, p, eps, &start, &sweep)) {
    return false;
  }
  if (item->shared_vertex && v2_dist(p, item->a) <= eps) {
    return true;
  }
  // The directions away from the circle at p span the half-turn from the tangent's one way round
  // to its other; the material must lie within it.
  double outside = v2_angle(v2_sub(p, c)) - 0.5 * AN_PI;
  return an_wrap_angle(start - outside + AN_WEDGE_SLACK) + sweep <= AN_PI + 2.0 * AN_WEDGE_SLACK;
}

// For a point agent, the points where other material touches a circle obstacle from outside:
// there the circle and that material are one wall, and a path touching the circle at the point
// would pass between them (docs/DESIGN.md, "The touching rule"). An edge touches where its
// nearest point lies on the rim with its material outside the circle, another circle where the
// two rims meet; within eps either way. Material that overlaps the circle there is one obstacle
// with it, whose boundary a path may follow. Marks the circles from corner `first` on; the
// table of pinch angles holds those of the corners before. ARCNAV_OK or
// ARCNAV_ERR_OUT_OF_MEMORY.
static arcnav_status mark_circle_pinches(an_tangent_engine *engine, size_t first) {
  const an_grid *grid = &engine->space.grid;
  double eps = engine->eps;
  for (size_t c = first; c < engine->corner_count; ++c) {
    an_corner *corner = &engine->corners[c];
    if (corner->wedge_sweep < AN_TWO_PI || corner->radius <= 0.0) {
      continue;
    }
    size_t collected_from = engine->pinch_table_count;
    vec2 reach = v2(corner->radius + eps, corner->radius + eps);
    an_cell_rect cells =
        an_grid_box_cells(grid, v2_sub(corner->center, reach), v2_add(corner->center, reach));
    for (int32_t row = cells.r0; row <= cells.r1; ++row) {
      for (int32_t column = cells.c0; column <= cells.c1; ++column) {
        // Only cells the rim passes near can hold what touches it (large circles cover many).
        vec2 lo =
            v2(grid->origin.x + column * grid->cell_size, grid->origin.y + row * grid->cell_size);
        vec2 near = v2(an_min(an_max(corner->center.x, lo.x), lo.x + grid->cell_size),
                       an_min(an_max(corner->center.y, lo.y), lo.y + grid->cell_size));
        double far_x =
            an_max(fabs(lo.x - corner->center.x), fabs(lo.x + grid->cell_size - corner->center.x));
        double far_y =
            an_max(fabs(lo.y - corner->center.y), fabs(lo.y + grid->cell_size - corner->center.y));
        if (v2_dist(near, corner->center) > corner->radius + eps ||
            hypot(far_x, far_y) < corner->radius - eps) {
          continue;
        }
        size_t cell = (size_t)row * (size_t)grid->columns + (size_t)column;
        uint32_t count;
        const uint32_t *ids = an_cell_table_list(&grid->cells, cell, &count);
        for (uint32_t k = 0; k < count; ++k) {
          const an_item *item = &grid->items[ids[k]];
          // A point obstacle has no material of its own: a path touching the circle at it
          // touches the point too, and passes between nothing.
          if (item->owner == (uint32_t)corner->obstacle ||
              (item->kind != AN_ITEM_EDGE && !(item->radius > eps))) {
            continue;
          }
          vec2 touch = item->kind == AN_ITEM_EDGE
                           ? an_closest_on_segment(corner->center, item->a, an_item_end(item))
                           : item->a;
          double rim = item->kind == AN_ITEM_EDGE ? 0.0 : item->radius;
          double gap = v2_dist(corner->center, touch) - corner->radius - rim;
          if (fabs(gap) <= eps &&
              (item->kind != AN_ITEM_EDGE ||
               edge_touches_from_outside(item, corner->center, touch, eps)) &&
              !add_pinch(engine, collected_from, v2_normalize(v2_sub(touch, corner->center)))) {
            return ARCNAV_ERR_OUT_OF_MEMORY;
          }
        }
      }
    }
    settle_pinches(engine, corner, collected_from);
  }
  return ARCNAV_OK;
}

// Puts the corners in Hilbert order of their centres. A query reads the corners near its path, so
// corners close in the plane then share cache lines: on maps too large for the caches this is
// worth about a tenth of the query time.
static arcnav_status order_corners_in_space(an_tangent_engine *engine) {
  const an_allocator *alloc = &engine->alloc;
  size_t count = engine->corner_count;
  if (count < 2) {
    return ARCNAV_OK;
  }
  an_order_key *keys = an_alloc(alloc, count, sizeof *keys);
  an_corner *ordered = an_alloc(alloc, count, sizeof *ordered);
  if (!keys || !ordered) {
    an_free(alloc, keys);
    an_free(alloc, ordered);
    return ARCNAV_ERR_OUT_OF_MEMORY;
  }
  vec2 lo = engine->corners[0].center, hi = lo;
  for (size_t c = 1; c < count; ++c) {
    vec2 p = engine->corners[c].center;
    lo = v2(an_min(lo.x, p.x), an_min(lo.y, p.y));
    hi = v2(an_max(hi.x, p.x), an_max(hi.y, p.y));
  }
  for (size_t c = 0; c < count; ++c) {
    keys[c] = (an_order_key){an_hilbert_index(engine->corners[c].center, lo, hi), (uint32_t)c};
  }
  qsort(keys, count, sizeof *keys, an_compare_order_keys);
  for (size_t c = 0; c < count; ++c) {
    ordered[c] = engine->corners[keys[c].index];
  }
  an_free(alloc, keys);
  an_free(alloc, engine->corners);
  engine->corners = ordered;
  return ARCNAV_OK;
}

// With tangents on demand the engine keeps only spatial indexes: the corners in space order, the
// corner grid, and the sight mesh. A point agent uses the sight mesh too: obstacles that touch are
// one wall for it (the touching rule), so the triangulation's passages are exactly the ones it
// may take. A lean interval engine (an_tangent_engine.lean) keeps the triangulation alone.
// With `previous`, corners carried from it (`carried`) keep their cells in its corner grid
// (over the same cells) and the vertex its sight mesh filed them at: the change left them where
// they were.
// The sight mesh's filing is carried too when the triangulation is the one `previous` filed on
// (`same_triangulation`: the old one's, after a circle's change).
static arcnav_status build_on_demand(an_tangent_engine *engine, const an_engine_args *args,
                                     const an_tangent_engine *previous,
                                     const an_carried_corners *carried, bool same_triangulation) {
  // Carried corners keep the order they were built in, the new ones last: a few out of place
  // cost nothing measurable, and sorting them all would cost most of what carrying saves.
  arcnav_status status = previous ? ARCNAV_OK : order_corners_in_space(engine);
  // The polygons' triangulation another engine lends, or the engine's own: taken over from its
  // old one (carry_own_parts()), or built here. The engine owns it, the sight mesh borrows it, so
  // that a circle's change can share it. NULL where the triangulation cannot take the input.
  if (status == ARCNAV_OK && !args->polygon_mesh && !engine->own_polygons) {
    status = an_polygon_mesh_build(args->map, &engine->alloc, &engine->own_polygons);
  }
  const an_navmesh *polygons = args->polygon_mesh ? args->polygon_mesh : engine->own_polygons;
  if (status == ARCNAV_OK && engine->intervals && args->map->has_bounds && polygons) {
    // Lean: the triangulation alone. Without one the engine is left to the tangents on demand.
    engine->polygons = polygons;
    engine->lean = true;
    return status;
  }
  const an_corner_grid *corners_before =
      previous && previous->graph.corner_grid.cells.chunks &&
              an_grid_cells_equal(&previous->space.grid, &engine->space.grid)
          ? &previous->graph.corner_grid
          : NULL;
  if (status == ARCNAV_OK && corners_before) {
    status = an_corner_grid_carry(&engine->space.grid, engine->corners, engine->corner_count,
                                  corners_before, previous->corners, carried, &engine->alloc,
                                  &engine->graph.corner_grid);
  } else if (status == ARCNAV_OK) {
    status = an_corner_grid_build(&engine->space.grid, engine->corners, engine->corner_count,
                                  &engine->alloc, &engine->graph.corner_grid);
  }
  an_sight_carry carry = {previous ? previous->sight_mesh : NULL, carried, same_triangulation};
  if (status == ARCNAV_OK && polygons) {
    status = an_sight_mesh_build(args->map, engine->corners, engine->corner_count, engine->radius,
                                 polygons, carry.previous ? &carry : NULL, &engine->alloc,
                                 &engine->sight_mesh);
  }
  return status;
}

// Does corner c draw its circle for item `item`: the corner at an edge's first vertex (the same
// obstacle, and the wedge ending on that edge's normal), or a circle obstacle's?
static bool corner_draws_item(const an_corner *c, const an_item *item, uint32_t bounds_owner) {
  // The bounds' corners belong to no obstacle (-1); the grid files the bounds' edges under the
  // owner after the last obstacle.
  uint32_t owner = c->obstacle < 0 ? bounds_owner : (uint32_t)c->obstacle;
  if (!v2_equal(c->center, item->a) || owner != item->owner) {
    return false;
  }
  if (item->kind != AN_ITEM_EDGE) {
    return c->wedge_sweep >= AN_TWO_PI;
  }
  if (c->wedge_sweep >= AN_TWO_PI) {
    return false;
  }
  vec2 item_end = an_item_end(item);
  vec2 normal = v2_normalize(v2(item_end.y - item->a.y, item->a.x - item_end.x));
  return v2_dot(normal, c->normal_end) > 1.0 - 1e-12;
}

// Which corner each grid item draws a circle for: the interval search meets the obstacles as grid
// items near a triangle, and turns round their corners. Corners are found by their centres, in
// the order compare_corner_places() sorts them.
static arcnav_status build_item_corners(an_tangent_engine *engine) {
  const an_grid *grid = &engine->space.grid;
  const an_allocator *alloc = &engine->alloc;
  size_t count = engine->corner_count;
  engine->item_corner = an_alloc(alloc, (size_t)grid->item_count + 1, sizeof *engine->item_corner);
  corner_place *places = an_alloc(alloc, count + 1, sizeof *places);
  if (!engine->item_corner || !places) {
    an_free(alloc, places);
    return ARCNAV_ERR_OUT_OF_MEMORY;
  }
  for (uint32_t c = 0; c < count; ++c) {
    places[c] = (corner_place){{engine->corners[c].center.x, engine->corners[c].center.y}, c};
  }
  qsort(places, count, sizeof *places, compare_corner_places);
  for (uint32_t i = 0; i < grid->item_count; ++i) {
    const an_item *item = &grid->items[i];
    engine->item_corner[i] = AN_NONE;
    size_t lo = 0, hi = count;
    while (lo < hi) {
      size_t mid = lo + (hi - lo) / 2;
      const double *key = places[mid].key;
      if (key[0] < item->a.x || (key[0] == item->a.x && key[1] < item->a.y)) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    for (size_t k = lo; k < count && places[k].key[0] == item->a.x && places[k].key[1] == item->a.y;
         ++k) {
      if (corner_draws_item(&engine->corners[places[k].index], item, grid->owner_count - 1)) {
        engine->item_corner[i] = places[k].index;
        break;
      }
    }
  }
  an_free(alloc, places);
  return ARCNAV_OK;
}

// How far the polygons' triangulated box reaches beyond every obstacle on a map without bounds:
// a disk path between ends inside the box, round corners at most R from their obstacles, stays in
// the box while R is below it.
static double disk_box_margin(const an_tangent_engine *engine) {
  const an_navmesh *mesh = engine->polygons;
  if (!mesh->whole_plane) {
    return INFINITY;
  }
  vec2 box_lo, box_hi;
  an_box_of_points(mesh->cdt.points, mesh->cdt.point_count, &box_lo, &box_hi);
  const an_grid *grid = &engine->space.grid;
  double margin = INFINITY;
  for (uint32_t i = 0; i < grid->item_count; ++i) {
    const an_item *item = &grid->items[i];
    double r = item->kind == AN_ITEM_EDGE ? 0.0 : item->radius;
    vec2 ends[2] = {item->a, an_item_end(item)};
    for (int e = 0; e < 2; ++e) {
      margin = an_min(margin, an_min(ends[e].x - r - box_lo.x, box_hi.x - ends[e].x - r));
      margin = an_min(margin, an_min(ends[e].y - r - box_lo.y, box_hi.y - ends[e].y - r));
    }
  }
  return margin;
}

static void tangent_destroy(void *state) {
  an_tangent_engine *engine = state;
  if (!engine) {
    return;
  }
  an_allocator alloc = engine->alloc;
  an_tangent_graph_destroy(&engine->graph, &alloc);
  an_sight_mesh_destroy(engine->sight_mesh);
  an_sure_passages_destroy(&engine->sure, &alloc);
  an_navmesh_destroy(engine->own_polygons);
  an_local_polygons_free(&engine->locals, &alloc);
  an_free(&alloc, engine->item_corner);
  an_free(&alloc, engine->corner_vertex);
  if (!engine->borrowed_space) {
    an_free_space_destroy(&engine->space, &alloc);
  }
  if (!engine->corners_borrowed) {
    an_free(&alloc, engine->corners);
  }
  an_free(&alloc, engine->pinch_table);
  an_free(&alloc, engine);
}

static void tangent_hand_down(void *state, void *successor) {
  an_tangent_engine *was = state, *now = successor;
  an_navmesh_hand_down(was->own_polygons, now->own_polygons);
  if (now->corners_borrowed) {
    assert(now->corners == was->corners); // the only array a build borrows (carry_corners)
    was->corners = NULL;
    now->corners_borrowed = false;
  }
}

// an_clearance.outside_polygons from the polygons' triangulation the engine reads.
static bool outside_polygons(const void *context, vec2 p) {
  return an_navmesh_locate_inside(context, p) >= 0;
}

// Which vertex of the polygons' triangulation each polygon corner's centre is, for the landmarks'
// bounds. A corner the triangulation does not have as a vertex (moved by its snapping) gets none.
// With `previous`, corners carried from it (carried_from) keep their vertex there: the change
// left their vertices where they were.
static arcnav_status build_corner_vertices(an_tangent_engine *engine,
                                           const an_tangent_engine *previous,
                                           const int32_t *carried_from) {
  const an_navmesh *mesh = engine->polygons;
  engine->corner_vertex =
      an_alloc(&engine->alloc, engine->corner_count + 1, sizeof *engine->corner_vertex);
  if (!engine->corner_vertex) {
    return ARCNAV_ERR_OUT_OF_MEMORY;
  }
  for (size_t c = 0; c < engine->corner_count; ++c) {
    const an_corner *corner = &engine->corners[c];
    if (previous && previous->corner_vertex && carried_from[c] >= 0) {
      engine->corner_vertex[c] = previous->corner_vertex[carried_from[c]];
      continue;
    }
    engine->corner_vertex[c] = -1;
    int32_t tri = an_corner_material_radius(corner, engine->radius) == 0.0
                      ? an_navmesh_locate(mesh, corner->center)
                      : -1;
    for (int k = 0; k < 3 && tri >= 0; ++k) {
      int32_t v = mesh->fv[3 * (size_t)tri + (size_t)k];
      if (v2_equal(mesh->cdt.points[v], corner->center)) {
        engine->corner_vertex[c] = v;
      }
    }
  }
  return ARCNAV_OK;
}

// The vertex of the engine's polygons at corner c's centre, or -1: the sight mesh's table where
// the engine has one, else its own (an_tangent_engine.corner_vertex).
static int32_t corner_vertex(const an_tangent_engine *engine, uint32_t c) {
  return engine->sight_mesh      ? an_sight_mesh_corner_vertex(engine->sight_mesh, c)
         : engine->corner_vertex ? engine->corner_vertex[c]
                                 : -1;
}

// Are the query's corners bounded beyond the straight line at all: a disk well above the
// tolerance, whose engine knows its corners' vertices (docs/DESIGN.md, "Landmarks")?
static bool may_bound_corners(const an_tangent_query *q) {
  return q->corner_bound && q->radius > AN_LANDMARK_MIN_RADIUS_TOLERANCES * q->engine->eps;
}

// The corners' bounds made so far were for another search, or another measure: made again when
// next asked for.
static void forget_corner_bounds(an_tangent_query *q) {
  if (an_stamp_next(&q->bound_stamp)) {
    memset(q->corner_bound_stamp, 0, q->corner_bound_room * sizeof *q->corner_bound_stamp);
  }
}

// The running search's goal as the landmarks see it: from the free triangle of the engine's
// polygons that holds it (`tri`, located by the free test, or -1 to locate it here), with the
// landmarks that bound the way from the start best (the start's triangle `start_tri`, likewise).
static void bound_goal(an_tangent_query *q, vec2 start, int32_t start_tri, vec2 goal, int32_t tri) {
  const an_navmesh *mesh = q->engine->polygons;
  q->goal_bounds.count = 0;
  q->measure = NULL;
  q->measure_shuts = false;
  if (!may_bound_corners(q)) {
    return;
  }
  tri = tri >= 0 ? tri : an_navmesh_locate(mesh, goal);
  if (tri < 0) {
    return;
  }
  an_landmark_goal_start(&mesh->landmarks, &q->goal_bounds);
  an_landmark_goal_add(&mesh->landmarks, mesh->cdt.points, &mesh->fv[3 * (size_t)tri], goal,
                       &q->goal_bounds);
  // The start is located again only where there is a choice of landmarks to make from it.
  if (q->goal_bounds.count > AN_LANDMARKS_ACTIVE) {
    start_tri = start_tri >= 0 ? start_tri : an_navmesh_locate(mesh, start);
    an_landmark_goal_focus_on(&mesh->landmarks, mesh->cdt.points, mesh->fv, &start_tri,
                              start_tri >= 0 ? 1 : 0, start, &q->goal_bounds);
  }
  forget_corner_bounds(q);
}

void an_tangent_set_measure(an_tangent_query *q, const an_interval_scratch *measure) {
  if (!may_bound_corners(q)) {
    return;
  }
  q->measure = measure;
  q->measure_shuts = measure && an_interval_shuts_portals(measure);
  forget_corner_bounds(q);
}

// How far the polygons' mesh may have snapped a point a measured length ends at.
static double measure_snapping(const an_tangent_query *q) {
  return 4.0 * q->engine->polygons->eps;
}

double an_tangent_corner_bound(an_tangent_query *q, uint32_t corner) {
  int32_t vertex = corner_vertex(q->engine, corner);
  if (!an_tangent_bounds_corners(q) || vertex < 0) {
    return 0.0;
  }
  if (q->corner_bound_stamp[corner] != q->bound_stamp) {
    q->corner_bound_stamp[corner] = q->bound_stamp;
    const an_landmarks *landmarks = &q->engine->polygons->landmarks;
    double reach = q->corners[corner].radius;
    double bound = q->goal_bounds.count > 0
                       ? an_landmarks_bound(landmarks, &q->goal_bounds, vertex, reach)
                       : 0.0;
    if (q->measure && !q->measure_shuts) {
      // Every point of the circle sees its centre, the vertex (DESIGN.md, "The guide measures"):
      // no nearer the goal than the vertex's length (less its sums' rounding and the snapping)
      // less the radius. Unless the guide shut portals, one of which may pass between: then
      // an_tangent_touch_bound().
      double at = an_interval_measured_bound(q->measure, vertex) * (1.0 - AN_MEASURE_ROUNDING);
      bound = an_max(bound, at - reach - measure_snapping(q));
    }
    q->corner_bound[corner] = bound;
  }
  return q->corner_bound[corner];
}

double an_tangent_touch_bound(an_tangent_query *q, uint32_t corner, vec2 touch) {
  double bound = an_tangent_corner_bound(q, corner);
  if (q->measure_shuts) {
    double at = an_interval_measured_bound_at(q->measure, touch, corner_vertex(q->engine, corner));
    bound = an_max(bound, at - measure_snapping(q));
  }
  return bound;
}

static const an_engine_ops graph_ops, on_demand_ops, ranged_ops, interval_ops, ranged_interval_ops;

// The on-demand engine args->previous was built as, for the map before args->change, built as
// this one is (the same radius, tolerance and search), or NULL.
static const an_tangent_engine *same_kind_before(const an_engine_args *args,
                                                 const an_tangent_engine *engine) {
  const an_engine *previous = args->previous;
  if (!previous || !args->change ||
      (previous->ops != &on_demand_ops && previous->ops != &ranged_ops &&
       previous->ops != &interval_ops && previous->ops != &ranged_interval_ops)) {
    return NULL;
  }
  const an_tangent_engine *before = previous->state;
  bool same = before->radius == engine->radius && before->eps == engine->eps &&
              before->ranged == engine->ranged &&
              before->intervals == (args->engine == ARCNAV_ENGINE_INTERVAL) &&
              before->borrowed_space == (args->free_space != NULL) && (before->polygons != NULL) &&
              (args->polygon_mesh != NULL) == before->lent_polygons;
  return same ? before : NULL;
}

// The engine to carry parts over from, when the engine lending this one its mesh and grid
// changed them for args->change (the point funnel's copy, funnel_engine.c: a polygon clear of
// everything).
static const an_tangent_engine *lent_parts_before(const an_engine_args *args,
                                                  const an_tangent_engine *engine) {
  const an_tangent_engine *before = same_kind_before(args, engine);
  return before && args->free_space && args->lender_followed ? before : NULL;
}

// For an engine with a grid of its own: the parts of `before` changed for args->change, into
// `engine`, when the change keeps clear of everything else where it was and where it is, on a map
// whose extent stayed (so the grid's and the triangulation's boxes are those a build makes). The
// grid takes the obstacle's items out and in. The engine's own triangulation of the polygons is a
// copy of the old one's, which a circle's change leaves alone (circles are not in it) and a
// polygon's changes as the point funnel's does (an_local_polygons_change(): a polygon taken out
// is one put in that way, or one the build put in that the mesh holds as such); a lent one its
// lender changed. ARCNAV_ERR_INVALID_ARGUMENT when the change is not such a one: nothing is left
// made, and the engine builds in full.
static arcnav_status carry_own_parts(an_tangent_engine *engine, const an_tangent_engine *before,
                                     const an_engine_args *args, const an_owner_items *was,
                                     bool *same_triangulation) {
  const arcnav_map *map = args->map;
  const an_local_change *change = args->change;
  bool out = change->kind != AN_CHANGE_ADDED, in = change->kind != AN_CHANGE_REMOVED;
  bool local = an_local_polygons_has(&before->locals, change->id);
  // What was taken out is read from its items in the old grid: an engine lent its triangulation
  // keeps no records of the polygons put in (its lender does, and followed the change).
  bool polygon = in ? map->obstacles[change->index].kind == AN_OBSTACLE_POLYGON
                    : was->count > 0 && !was->circle;
  if (engine->has_extent != before->has_extent ||
      !v2_equal(engine->extent_min, before->extent_min) ||
      !v2_equal(engine->extent_max, before->extent_max) || (out && !polygon && !was->circle) ||
      (polygon && !engine->lent_polygons && !an_navmesh_may_change_locally(before->polygons))) {
    return ARCNAV_ERR_INVALID_ARGUMENT;
  }
  const an_allocator *alloc = &engine->alloc;
  arcnav_status status = an_grid_changed_clear(
      &before->space.grid, map, change->index, out ? was : NULL, in,
      AN_LOCAL_CHANGE_CLEARANCE_TOLERANCES * engine->eps, alloc, &engine->space.grid);
  if (status != ARCNAV_OK) {
    return status;
  }
  engine->space.clearance = before->space.clearance;
  engine->space.clearance.grid = &engine->space.grid;
  engine->space.clearance.outside_polygons = NULL;
  engine->space.clearance.outside_context = NULL;
  // A circle's change leaves the triangulation as it was (circles are not in it); a polygon's
  // changes it.
  *same_triangulation = !polygon;
  if (!engine->lent_polygons) {
    // A circle's change shares the triangulation the old engine owns (copying it was a tenth of
    // a unit's move on Expedition); a polygon's changes a copy.
    if (!polygon) {
      assert(before->own_polygons == before->polygons);
      engine->own_polygons = an_navmesh_share(before->own_polygons);
    } else {
      status = an_navmesh_clone(before->polygons, true, &engine->own_polygons);
    }
    // The records go on whatever changed, so a polygon put in before a unit moved can still be
    // taken out locally after.
    if (status == ARCNAV_OK) {
      status = an_local_polygons_copy(&before->locals, &engine->locals, alloc);
    }
    if (status == ARCNAV_OK && polygon) {
      // A polygon the build put in that goes is read from its edges in the old grid.
      an_built_edges built = {out && !local ? before->space.grid.items + was->first : NULL,
                              out && !local ? was->count : 0};
      status = an_local_polygons_change(&engine->locals, engine->own_polygons, map, change->id, out,
                                        in, change->index, &built, alloc);
    }
    assert(status != ARCNAV_OK || !engine->own_polygons->borrows_triangulation);
    // A circle's change keeps the forest the copy took over with the triangulation.
    if (status == ARCNAV_OK && polygon && before->polygons->passages.blocks) {
      status = an_navmesh_build_passages(engine->own_polygons, before->polygons);
    }
  }
  if (status != ARCNAV_OK) {
    an_grid_destroy(&engine->space.grid, alloc);
    memset(&engine->space, 0, sizeof engine->space);
    an_navmesh_destroy(engine->own_polygons);
    engine->own_polygons = NULL;
    an_local_polygons_free(&engine->locals, alloc);
  }
  return status;
}

// How many corners, all of them first in `previous`'s array, a change keeps where they are: every
// one for an obstacle added (it comes last in the map, its corners after all others), and for
// the last obstacle removed those before its corners when they are the array's last ones (its
// own, put there when it was added; a full build orders corners otherwise). SIZE_MAX when the
// change keeps none in place that way: a move, or an obstacle removed before others, whose
// corners are renumbered.
static size_t corners_kept_in_place(const an_tangent_engine *previous, const arcnav_map *map,
                                    const an_local_change *change) {
  size_t before = previous->corner_count;
  if (change->kind == AN_CHANGE_ADDED) {
    return change->index + 1 == map->obstacle_count ? before : SIZE_MAX;
  }
  if (change->kind != AN_CHANGE_REMOVED || change->index != map->obstacle_count) {
    return SIZE_MAX;
  }
  int32_t index = (int32_t)change->index;
  const an_corner *old = previous->corners;
  size_t kept = before;
  while (kept > 0 && old[kept - 1].obstacle == index) {
    --kept;
  }
  for (size_t c = 0; c < kept; ++c) {
    if (old[c].obstacle == index) {
      return SIZE_MAX;
    }
  }
  return kept;
}

// Rings of more vertices are not looked at by put_in_one_ring (a test of every vertex against
// every edge): a building has a few dozen.
enum { ONE_RING_MAX_VERTICES = 64 };

// Did `change`, followed locally, put in a polygon of one ring, each of whose vertices is farther
// than twice the tolerance from every edge of the ring but its own two? Its corners are then on
// the wall and free (drop_unusable_corners; docs/DESIGN.md, "Corners kept in place").
static bool put_in_one_ring(const arcnav_map *map, const an_local_change *change, double eps) {
  const an_obstacle *ob = change->kind != AN_CHANGE_REMOVED ? &map->obstacles[change->index] : NULL;
  if (!ob || ob->kind != AN_OBSTACLE_POLYGON || ob->ring_count != 1) {
    return false;
  }
  const an_ring *ring = &map->rings[ob->first_ring];
  size_t n = ring->count;
  if (n > ONE_RING_MAX_VERTICES) {
    return false;
  }
  const vec2 *points = map->points + ring->first;
  for (size_t i = 0; i < n; ++i) {
    // The edges from vertex j to j + 1 that do not end at vertex i: j from i + 1 to i + n - 2.
    for (size_t k = i + 1; k + 2 <= i + n; ++k) {
      size_t j = k < n ? k : k - n, next = j + 1 < n ? j + 1 : 0;
      if (an_point_segment_within(points[i], points[j], points[next], 2.0 * eps)) {
        return false;
      }
    }
  }
  return true;
}

// The corners `previous` kept, but the changed obstacle's, renumbered as the map after `change`
// numbers obstacles; then the changed obstacle's new corners, from carried->carried on, for
// drop_unusable_corners to judge. The change keeps clear of every other obstacle (engine.h,
// an_engine_args.previous), so it makes no other corner usable or unusable, and a full build
// keeps the same corners. *carried tells the numbers both ways (its arrays the engine's to free:
// free_carried_corners()). Where the kept corners stay where they are and the new ones fit after
// all of previous's, the engine reads and writes previous's array (corners_borrowed); otherwise
// it copies them into one of its own with room for more.
static arcnav_status carry_corners(an_tangent_engine *engine, const an_tangent_engine *previous,
                                   const arcnav_map *map, const an_local_change *change,
                                   an_carried_corners *carried) {
  const an_allocator *alloc = &engine->alloc;
  size_t before = previous->corner_count;
  bool removed = change->kind == AN_CHANGE_REMOVED;
  size_t added = removed ? 0 : an_obstacle_corner_room(map, change->index);
  size_t room = before + added;
  size_t in_place = corners_kept_in_place(previous, map, change);
  bool borrow =
      in_place != SIZE_MAX && (in_place < before ? added == 0 : room <= previous->corner_room);
  // Room for the changes after this one: an eighth more, so that additions write in place.
  size_t spare = borrow ? 0 : room / 8 + 16;
  an_corner *corners = borrow ? previous->corners : an_alloc(alloc, room + spare, sizeof *corners);
  int32_t *from = an_alloc(alloc, room + 1, sizeof *from);
  int32_t *to = an_alloc(alloc, before + 1, sizeof *to);
  if (!corners || !from || !to) {
    if (!borrow) {
      an_free(alloc, corners);
    }
    an_free(alloc, from);
    an_free(alloc, to);
    return ARCNAV_ERR_OUT_OF_MEMORY;
  }
  // The corners before `same` keep their number and every field.
  size_t count = 0, first_changed = before, same = 0;
  if (borrow) {
    for (size_t c = 0; c < in_place; ++c) {
      from[c] = to[c] = (int32_t)c;
    }
    for (size_t c = in_place; c < before; ++c) {
      to[c] = -1;
    }
    count = in_place;
    first_changed = in_place;
    same = in_place;
  } else {
    // The kept corners in runs (an obstacle's corners lie together), copied a run at once.
    int32_t index = (int32_t)change->index;
    const an_corner *old = previous->corners;
    for (size_t c = 0; c < before;) {
      if (old[c].obstacle == index) {
        first_changed = first_changed == before ? c : first_changed;
        to[c++] = -1;
        continue;
      }
      size_t first = c;
      for (; c < before && old[c].obstacle != index; ++c) {
        to[c] = (int32_t)(count + c - first);
        from[count + c - first] = (int32_t)c;
      }
      memcpy(corners + count, old + first, (c - first) * sizeof *corners);
      count += c - first;
    }
    // A removal moves the later obstacles, if any, down by one.
    bool renumbers = removed && change->index < map->obstacle_count;
    same = first_changed;
    for (size_t c = 0; renumbers && c < count; ++c) {
      if (corners[c].obstacle > index) {
        same = c < same ? c : same;
        corners[c].obstacle--;
      }
    }
  }
  engine->corners = corners;
  engine->corner_room = borrow ? previous->corner_room : room + spare;
  engine->corners_borrowed = borrow;
  engine->corners_same = same;
  engine->corner_count =
      count +
      (removed ? 0
               : an_inflate_obstacle_corners(map, change->index, engine->radius, corners + count));
  for (size_t c = count; c < engine->corner_count; ++c) {
    from[c] = -1; // the new corners, last, came from nowhere
  }
  *carried = (an_carried_corners){from, to, before, count, first_changed};
  return ARCNAV_OK;
}

static void free_carried_corners(an_carried_corners *carried, const an_allocator *alloc) {
  an_free(alloc, carried->from);
  an_free(alloc, carried->to);
  *carried = (an_carried_corners){NULL, NULL, 0, 0, 0};
}

arcnav_status an_tangent_engine_build(const an_engine_args *args, an_engine *out) {
  an_tangent_engine *engine = an_calloc(args->alloc, 1, sizeof *engine);
  if (!engine) {
    return ARCNAV_ERR_OUT_OF_MEMORY;
  }
  engine->alloc = *args->alloc;
  // A ranged engine builds its indexes for the largest radius; each query object sets its own.
  engine->ranged = args->max_radius > 0.0;
  engine->radius = engine->ranged ? args->max_radius : args->radius;
  engine->start_radius =
      args->radius > AN_POINT_AGENT_TOLERANCES * args->eps ? args->radius : engine->radius;
  engine->eps = args->eps;
  arcnav_status status = ARCNAV_OK;
  engine->borrowed_space = args->free_space != NULL;
  engine->lent_polygons = args->polygon_mesh != NULL;
  engine->has_extent = arcnav_map_extent(args->map, &engine->extent_min, &engine->extent_max);
  // What a local change lets the build carry over from the engine it replaces (docs/DESIGN.md,
  // "Several radii, locally", "Units, locally"): from lent parts the lender changed, or from its
  // own parts changed here.
  const an_tangent_engine *previous = NULL;
  bool same_triangulation = false;
  if (engine->borrowed_space) {
    an_free_space_share(args->free_space, engine->radius, &engine->space);
    previous = lent_parts_before(args, engine);
  } else {
    previous = same_kind_before(args, engine);
    if (previous && engine->lent_polygons && !args->lender_followed) {
      previous = NULL;
    }
  }
  // What the changed obstacle had in the old grid (one pass over its items): its kind, and the
  // box its material held.
  an_owner_items was = {0, 0, false, v2(INFINITY, INFINITY), v2(-INFINITY, -INFINITY)};
  if (previous && args->change->kind != AN_CHANGE_ADDED) {
    was = an_grid_owner_items(&previous->space.grid, (uint32_t)args->change->index);
  }
  if (!engine->borrowed_space) {
    status = previous ? carry_own_parts(engine, previous, args, &was, &same_triangulation)
                      : ARCNAV_ERR_INVALID_ARGUMENT;
    if (status == ARCNAV_ERR_INVALID_ARGUMENT) {
      previous = NULL;
      status =
          an_free_space_build(args->map, engine->radius, args->eps, &engine->alloc, &engine->space);
    }
  }
  // Point agents follow rules of their own (restricted wedges, pinches); a ranged engine serves
  // only radii above the point-agent tolerance (the planner sends point agents elsewhere).
  assert(!engine->ranged || !engine->space.clearance.point_agent);
  an_carried_corners carried = {NULL, NULL, 0, 0, 0}; // with `previous`
  if (status == ARCNAV_OK) {
    status = previous ? carry_corners(engine, previous, args->map, args->change, &carried)
                      : an_inflate_corners(args->map, engine->radius, &engine->alloc,
                                           &engine->corners, &engine->corner_count);
  }
  if (status == ARCNAV_OK && previous && previous->pinch_table_count > 0) {
    // The carried circles keep their pinches where they lie in the table (a local change touches
    // nothing, so it adds or takes away none of theirs).
    engine->pinch_table = an_duplicate(&engine->alloc, previous->pinch_table,
                                       previous->pinch_table_count, sizeof *engine->pinch_table);
    engine->pinch_table_count = engine->pinch_table_room = previous->pinch_table_count;
    status = engine->pinch_table ? ARCNAV_OK : ARCNAV_ERR_OUT_OF_MEMORY;
  }
  size_t judged_from = carried.carried;
  if (status == ARCNAV_OK) {
    status = drop_unusable_corners(engine, args->map, judged_from,
                                   previous && put_in_one_ring(args->map, args->change, args->eps));
  }
  if (previous && args->followed) {
    *args->followed = true;
  }
  if (status == ARCNAV_OK && engine->space.clearance.point_agent) {
    status = mark_circle_pinches(engine, judged_from);
  }
  assert(engine->space.clearance.grid == &engine->space.grid);
  // The interval search keeps the on-demand indexes: it reads the triangulation, the grid and
  // the corners, and leaves to the on-demand search what it does not take.
  engine->intervals = args->engine == ARCNAV_ENGINE_INTERVAL;
  engine->on_demand = engine->ranged || engine->intervals ||
                      args->tangent_graph == ARCNAV_TANGENT_GRAPH_ON_DEMAND ||
                      (args->tangent_graph == ARCNAV_TANGENT_GRAPH_AUTO &&
                       engine->corner_count > ARCNAV_TANGENT_GRAPH_AUTO_LIMIT);
  if (status == ARCNAV_OK) {
    status =
        engine->on_demand
            ? build_on_demand(engine, args, previous, &carried, same_triangulation)
            : an_tangent_graph_build(engine->corners, engine->corner_count, engine->pinch_table,
                                     &engine->space.clearance, &engine->alloc, &engine->graph);
  }
  if (status == ARCNAV_OK && engine->sight_mesh) {
    engine->polygons = an_sight_mesh_polygons(engine->sight_mesh);
  }
  if (status == ARCNAV_OK && engine->intervals && engine->polygons) {
    status = build_item_corners(engine);
    engine->disk_margin = disk_box_margin(engine);
  }
  if (status == ARCNAV_OK && !engine->on_demand && !engine->space.clearance.point_agent) {
    // The on-demand search has its guide's mesh for this; an input the triangulation cannot
    // take only leaves the check out. Circles are left out of it: a polygon drawn round one
    // would narrow gaps the disk passes.
    status = an_polygon_mesh_build(args->map, &engine->alloc, &engine->own_polygons);
    engine->polygons = engine->own_polygons;
  }
  const an_navmesh *polygons = engine->polygons;
  if (status == ARCNAV_OK && polygons) {
    engine->space.clearance.outside_polygons = outside_polygons;
    engine->space.clearance.outside_context = polygons;
  }
  // The landmarks' bounds read the corners' vertices (the sight mesh has them already).
  if (status == ARCNAV_OK && !engine->space.clearance.point_agent && polygons &&
      polygons->landmarks.count > 0 && !engine->sight_mesh) {
    status = build_corner_vertices(engine, previous, carried.from);
  }
  if (status == ARCNAV_OK && !engine->space.clearance.point_agent && polygons) {
    // The links keep away from the changed obstacle's material, where it was (its items in the
    // old grid) and where it is.
    bool carry = previous && previous->sure.link_width;
    an_sure_carry sure_carry = {previous ? &previous->sure : NULL, was.lo, was.hi};
    if (carry && args->change->kind != AN_CHANGE_REMOVED) {
      const an_obstacle *now = &args->map->obstacles[args->change->index];
      sure_carry.lo =
          v2(an_min(sure_carry.lo.x, now->box_min.x), an_min(sure_carry.lo.y, now->box_min.y));
      sure_carry.hi =
          v2(an_max(sure_carry.hi.x, now->box_max.x), an_max(sure_carry.hi.y, now->box_max.y));
    }
    status = an_sure_passages_build(polygons, &engine->space.grid, engine->radius,
                                    carry ? &sure_carry : NULL, &engine->alloc, &engine->sure);
  }
  free_carried_corners(&carried, &engine->alloc);
  if (status != ARCNAV_OK) {
    tangent_destroy(engine);
    return status;
  }
  const an_engine_ops *ops = engine->intervals
                                 ? (engine->ranged ? &ranged_interval_ops : &interval_ops)
                             : engine->ranged    ? &ranged_ops
                             : engine->on_demand ? &on_demand_ops
                                                 : &graph_ops;
  // The planner hands an engine's parts down only to a successor of the same kind.
  assert(!engine->corners_borrowed || args->previous->ops == ops);
  *out = (an_engine){ops, engine};
  return ARCNAV_OK;
}

// ---- queries -------------------------------------------------------------------------------

bool an_tangent_ruled_out_prepare(an_tangent_query *q, uint32_t mark) {
  size_t count = q->engine->corner_count;
  // A point agent's corner is a vertex, where parts the touching rule keeps apart may meet (a
  // pinch): nothing of a point agent's is ruled out.
  if (!(q->radius > q->engine->eps)) {
    return false;
  }
  if (!q->ruled_out) {
    q->ruled_out = an_calloc(&q->alloc, count + 1, sizeof *q->ruled_out);
    if (!q->ruled_out) {
      return false;
    }
  } else if (mark < q->ruled_out_last) {
    memset(q->ruled_out, 0, (count + 1) * sizeof *q->ruled_out);
    if (q->ruled_out_nodes) {
      memset(q->ruled_out_nodes, 0, q->engine->graph.node_count * sizeof *q->ruled_out_nodes);
    }
  }
  q->ruled_out_last = mark;
  return true;
}

static void tangent_query_destroy(void *query) {
  an_tangent_query *q = query;
  if (!q) {
    return;
  }
  an_allocator alloc = q->alloc;
  an_free(&alloc, q->ruled_out);
  an_free(&alloc, q->closed);
  an_free(&alloc, q->ruled_out_nodes);
  an_free(&alloc, q->own_corners);
  an_free(&alloc, q->corner_bound);
  an_free(&alloc, q->corner_bound_stamp);
  an_clearance_scratch_free(&q->clearance, &alloc);
  an_lazy_search_destroy(q->lazy);
  an_disk_search_destroy(q->disk);
  an_interval_scratch_destroy(q->passages);
  an_passage_flood_free(&q->reach_flood, &alloc);
  an_heap_free(&q->heap, &alloc);
  an_free(&alloc, q->search);
  an_free(&alloc, q->trail);
  an_free(&alloc, q->starts);
  an_heap_free(&q->deferred, &alloc);
  an_free(&alloc, q->goal_exits);
  an_free(&alloc, q->entered);
  an_heap_free(&q->squares, &alloc);
  an_free(&alloc, q->square_seen);
  an_free(&alloc, q);
}

// A ranged engine's query object's own corner circles from `first` on at its radius: each its
// material grown by R (inflate.h).
static void corners_at_radius(const an_tangent_engine *engine, an_tangent_query *q, size_t first) {
  for (size_t c = first; c < engine->corner_count; ++c) {
    q->own_corners[c].radius =
        an_corner_material_radius(&engine->corners[c], engine->radius) + q->radius;
  }
}

// Moves a ranged engine's query object to `radius`: the indexes built for the largest radius
// serve any smaller one.
static void move_to_radius(const an_tangent_engine *engine, an_tangent_query *q, double radius) {
  assert(engine->ranged && radius <= engine->radius);
  q->radius = radius;
  q->settings = an_clearance_at_radius(&engine->space.clearance, radius);
  q->settings.ignored = q->ignored;
  corners_at_radius(engine, q, 0);
}

// Does a query object of `engine` bound its corners by the landmarks (an_tangent_corner_bound)?
static bool query_bounds_corners(const an_tangent_engine *engine) {
  return !engine->space.clearance.point_agent && (engine->corner_vertex || engine->sight_mesh);
}

static an_tangent_query *query_begin(const an_tangent_engine *engine, arcnav_status *status) {
  an_tangent_query *q = an_calloc(&engine->alloc, 1, sizeof *q);
  if (!q) {
    *status = ARCNAV_ERR_OUT_OF_MEMORY;
    return NULL;
  }
  q->engine = engine;
  q->alloc = engine->alloc;
  q->radius = engine->radius;
  q->corners = engine->corners;
  q->settings = engine->space.clearance;
  *status = an_clearance_scratch_init(&q->clearance, &engine->space.grid, &q->alloc);
  if (*status == ARCNAV_OK && engine->ranged && engine->corner_count > 0) {
    q->own_corners = an_alloc(&q->alloc, engine->corner_count, sizeof *q->own_corners);
    if (!q->own_corners) {
      *status = ARCNAV_ERR_OUT_OF_MEMORY;
    } else {
      memcpy(q->own_corners, engine->corners, engine->corner_count * sizeof *q->own_corners);
      q->corners = q->own_corners;
      q->own_corner_room = engine->corner_count;
    }
  }
  if (*status == ARCNAV_OK && query_bounds_corners(engine)) {
    q->corner_bound = an_alloc(&q->alloc, engine->corner_count + 1, sizeof *q->corner_bound);
    q->corner_bound_stamp =
        an_calloc(&q->alloc, engine->corner_count + 1, sizeof *q->corner_bound_stamp);
    if (!q->corner_bound || !q->corner_bound_stamp) {
      *status = ARCNAV_ERR_OUT_OF_MEMORY;
    }
    q->corner_bound_room = engine->corner_count + 1;
  }
  // A map without corners (bounds alone, or nothing) still has a radius to judge points at.
  if (*status == ARCNAV_OK && engine->ranged) {
    move_to_radius(engine, q, engine->start_radius);
  }
  return q;
}

static arcnav_status query_end(an_tangent_query *q, arcnav_status status, void **out_query) {
  if (status != ARCNAV_OK) {
    tangent_query_destroy(q);
    return status;
  }
  *out_query = q;
  return ARCNAV_OK;
}

static arcnav_status graph_query_create(const void *state, void **out_query) {
  const an_tangent_engine *engine = state;
  // Graph nodes, two start attachments per corner, then the goal.
  size_t ids = (size_t)engine->graph.node_count + 2 * engine->corner_count + 1;
  if (ids >= AN_NONE) {
    return ARCNAV_ERR_TOO_LARGE;
  }
  arcnav_status status;
  an_tangent_query *q = query_begin(engine, &status);
  if (!q) {
    return status;
  }
  const an_allocator *alloc = &q->alloc;
  q->id_count = (uint32_t)ids;
  if (status == ARCNAV_OK) {
    status = an_heap_init(&q->heap, q->id_count, alloc);
  }
  if (status == ARCNAV_OK) {
    q->search = an_calloc(alloc, ids, sizeof *q->search);
    q->trail = an_alloc(alloc, ids, sizeof *q->trail);
    q->starts = an_alloc(alloc, 2 * engine->corner_count + 1, sizeof *q->starts);
    q->goal_exits = an_calloc(alloc, 2 * engine->corner_count + 1, sizeof *q->goal_exits);
    q->entered = an_calloc(alloc, engine->corner_count + 1, sizeof *q->entered);
    size_t squares = an_start_flood_square_count(&engine->space.grid);
    q->square_seen = an_calloc(alloc, squares + 1, sizeof *q->square_seen);
    if (!q->search || !q->trail || !q->starts || !q->goal_exits || !q->entered || !q->square_seen) {
      status = ARCNAV_ERR_OUT_OF_MEMORY;
    }
    if (status == ARCNAV_OK) {
      status = an_heap_init(&q->deferred, (uint32_t)engine->corner_count, alloc);
    }
    if (status == ARCNAV_OK) {
      status = an_heap_init(&q->squares, (uint32_t)squares, alloc);
    }
  }
  if (status == ARCNAV_OK && engine->own_polygons) {
    status = an_interval_scratch_create_with_capacity(engine->own_polygons, alloc, 1, &q->passages);
  }
  return query_end(q, status, out_query);
}

// A query object of tangents on demand or of the interval engine, made for an engine an update
// replaced (or renewed for it), made this engine's as on_demand_query_create() or
// interval_query_create() would make it: its memory kept where it has room, its stamps carried
// on, and of its corners at its radius only those after the ones this engine shares with the one
// it replaced (corners_same) copied when the query was that one's (docs/DESIGN.md, "A query
// object renewed").
static arcnav_status tangent_query_renew(const void *state, void *query, bool successor) {
  const an_tangent_engine *engine = state;
  an_tangent_query *q = query;
  // What a new query object of this engine has: tangents on demand but for a lean interval
  // engine; the interval search and its check of the passages where there are polygons.
  bool lazy = !(engine->intervals && engine->lean);
  bool intervals = engine->intervals && engine->polygons;
  if (q->search || (q->lazy != NULL) != lazy || (q->disk != NULL) != intervals ||
      (q->passages != NULL) != intervals) {
    return ARCNAV_ERR_INVALID_ARGUMENT; // another make of engine: made anew
  }
  size_t count = engine->corner_count,
         same = successor && q->own_corners ? engine->corners_same : 0;
  arcnav_status status = an_clearance_scratch_renew(&q->clearance, &engine->space.grid, &q->alloc);
  bool own = engine->ranged && count > 0;
  // Grown, the corners keep the ones in common, so that a renewal tried again after a failure
  // below still has them.
  if (status == ARCNAV_OK && own &&
      !an_reserve(&q->alloc, (void **)&q->own_corners, &q->own_corner_room, same, count,
                  sizeof *q->own_corners)) {
    status = ARCNAV_ERR_OUT_OF_MEMORY;
  }
  if (status == ARCNAV_OK && query_bounds_corners(engine)) {
    an_room_array bounds[] = {
        {(void **)&q->corner_bound, sizeof *q->corner_bound, false},
        {(void **)&q->corner_bound_stamp, sizeof *q->corner_bound_stamp, true}};
    status = an_room_for(&q->alloc, bounds, 2, &q->corner_bound_room, count + 1)
                 ? ARCNAV_OK
                 : ARCNAV_ERR_OUT_OF_MEMORY;
  }
  if (status == ARCNAV_OK && lazy) {
    status = an_lazy_search_renew(q->lazy, engine);
  }
  if (status == ARCNAV_OK && intervals) {
    status = an_disk_search_renew(q->disk, engine);
  }
  if (status == ARCNAV_OK && intervals) {
    status = an_interval_scratch_renew(q->passages, engine->polygons);
  }
  if (status != ARCNAV_OK) {
    return status;
  }
  an_tangent_query kept = *q;
  memset(q, 0, sizeof *q);
  q->engine = engine;
  q->alloc = kept.alloc;
  q->radius = engine->ranged ? kept.radius : engine->radius;
  q->clearance = kept.clearance;
  q->lazy = kept.lazy;
  q->disk = kept.disk;
  q->passages = kept.passages;
  q->reach_flood = kept.reach_flood;
  // A query that ignored no unit has nothing to learn again from the mask's version, which moves
  // on only when a mask comes (planner.c, resolve_ignored): what the old map taught it the
  // renewals above forgot. A mask is made anew for the new map's obstacles, and set again.
  if (!kept.ignored) {
    q->ignored_version = kept.ignored_version;
  }
  q->own_corners = kept.own_corners;
  q->own_corner_room = kept.own_corner_room;
  q->corners = own ? q->own_corners : engine->corners;
  q->settings = engine->ranged ? an_clearance_at_radius(&engine->space.clearance, q->radius)
                               : engine->space.clearance;
  if (own) {
    memcpy(q->own_corners + same, engine->corners + same, (count - same) * sizeof *q->corners);
    corners_at_radius(engine, q, same);
  }
  if (query_bounds_corners(engine)) {
    q->corner_bound = kept.corner_bound;
    q->corner_bound_stamp = kept.corner_bound_stamp;
    q->corner_bound_room = kept.corner_bound_room;
    q->bound_stamp = kept.bound_stamp;
    forget_corner_bounds(q);
  } else {
    an_free(&q->alloc, kept.corner_bound);
    an_free(&q->alloc, kept.corner_bound_stamp);
  }
  // The marks of the nearest-reachable probes name the old engine's corners and graph nodes.
  an_free(&q->alloc, kept.ruled_out);
  an_free(&q->alloc, kept.closed);
  an_free(&q->alloc, kept.ruled_out_nodes);
  return ARCNAV_OK;
}

static arcnav_status on_demand_query_create(const void *state, void **out_query) {
  arcnav_status status;
  an_tangent_query *q = query_begin(state, &status);
  if (!q) {
    return status;
  }
  if (status == ARCNAV_OK) {
    status = an_lazy_search_create(state, &q->lazy);
  }
  return query_end(q, status, out_query);
}

// The ends' free tests. A disk's ends are located in the polygons' triangulation once, for the
// free test (an_clearance.outside_polygons) and for the caller: the free triangles that hold them
// well inside go to *ta and *tb (-1 where none does, or nothing was located).
static arcnav_status judge_ends(an_tangent_query *q, vec2 start, vec2 goal, int32_t *ta,
                                int32_t *tb) {
  const an_navmesh *mesh = q->settings.point_agent ? NULL : q->engine->polygons;
  vec2 ends[2] = {start, goal};
  int32_t *located[2] = {ta, tb};
  for (int e = 0; e < 2; ++e) {
    *located[e] = mesh ? an_navmesh_locate_inside(mesh, ends[e]) : -1;
    if (!an_point_is_free_known(&q->settings, &q->clearance, ends[e], *located[e] >= 0)) {
      return e == 0 ? ARCNAV_START_BLOCKED : ARCNAV_GOAL_BLOCKED;
    }
  }
  return ARCNAV_OK;
}

// Every search: start and goal are judged by the free test first, and equal ends need none; the
// goal's landmark bounds are set from where the free test located it.
static arcnav_status
begin_with(void *query, vec2 start, vec2 goal, an_search_control *control, arcnav_path *path,
           arcnav_status (*begin)(an_tangent_query *, vec2, vec2, arcnav_path *)) {
  an_tangent_query *q = query;
  q->control = control;
  memset(&control->stats, 0, sizeof control->stats);
  int32_t ta, tb;
  arcnav_status status = judge_ends(q, start, goal, &ta, &tb);
  if (status != ARCNAV_OK || v2_equal(start, goal)) {
    return status;
  }
  bound_goal(q, start, ta, goal, tb);
  return begin(q, start, goal, path);
}

// ARCNAV_NO_PATH when start and goal are joined only through passages too narrow for the disk
// (docs/DESIGN.md, "No path for a disk without a search"), as the interval search's begin tells
// the on-demand search's guide; ARCNAV_IN_PROGRESS when they may be joined.
static arcnav_status check_passages(an_tangent_query *q, const an_navmesh *mesh, vec2 start,
                                    vec2 goal) {
  if (!q->passages) {
    return ARCNAV_IN_PROGRESS;
  }
  an_interval_set_min_width(q->passages, an_tangent_min_passage(q));
  an_funnel_result ends;
  memset(&ends, 0, sizeof ends);
  arcnav_status status = an_interval_begin(mesh, q->passages, start, goal, &ends);
  return status == ARCNAV_NO_PATH || status == ARCNAV_ERR_OUT_OF_MEMORY ? status
                                                                        : ARCNAV_IN_PROGRESS;
}

// The passages first: where they shut the ends apart, the search is not even set up.
static arcnav_status graph_begin_checked(an_tangent_query *q, vec2 start, vec2 goal,
                                         arcnav_path *path) {
  // Nothing is reached yet: a no_path from the passages leaves nothing to rule out.
  q->closed_count = 0;
  arcnav_status status = check_passages(q, q->engine->own_polygons, start, goal);
  return status == ARCNAV_IN_PROGRESS ? an_tangent_graph_begin(q, start, goal, path) : status;
}

static arcnav_status graph_begin(const void *state, void *query, vec2 start, vec2 goal,
                                 an_search_control *control, arcnav_path *path) {
  (void)state;
  return begin_with(query, start, goal, control, path, graph_begin_checked);
}

static arcnav_status graph_resume(const void *state, void *query, an_search_control *control,
                                  arcnav_path *path) {
  (void)state;
  an_tangent_query *q = query;
  q->control = control;
  return an_tangent_graph_resume(q, path);
}

static arcnav_status graph_best_so_far(const void *state, void *query, arcnav_path *path) {
  (void)state;
  return an_tangent_graph_best_so_far(query, path);
}

static void graph_rule_out(const void *state, void *query, uint32_t mark) {
  (void)state;
  an_tangent_graph_rule_out(query, mark);
}

static void on_demand_rule_out(const void *state, void *query, uint32_t mark) {
  (void)state;
  an_tangent_query *q = query;
  an_lazy_rule_out(q, q->lazy, mark);
}

static arcnav_status lazy_begin(an_tangent_query *q, vec2 start, vec2 goal, arcnav_path *path) {
  return an_lazy_begin(q, q->lazy, start, goal, path);
}

static arcnav_status on_demand_begin(const void *state, void *query, vec2 start, vec2 goal,
                                     an_search_control *control, arcnav_path *path) {
  (void)state;
  return begin_with(query, start, goal, control, path, lazy_begin);
}

static arcnav_status on_demand_resume(const void *state, void *query, an_search_control *control,
                                      arcnav_path *path) {
  (void)state;
  an_tangent_query *q = query;
  q->control = control;
  return an_lazy_resume(q, q->lazy, path);
}

static arcnav_status on_demand_best_so_far(const void *state, void *query, arcnav_path *path) {
  (void)state;
  an_tangent_query *q = query;
  return an_lazy_best_so_far(q, q->lazy, path);
}

static bool tangent_point_is_free(const void *state, void *query, vec2 point) {
  const an_tangent_engine *engine = state;
  an_tangent_query *q = query;
  if (!q) {
    return an_free_space_point_is_free_once(&engine->space, engine->start_radius, &engine->alloc,
                                            point);
  }
  return an_point_is_free(&q->settings, &q->clearance, point);
}

// What the search keeps from query to query about the corners is for one radius: forgotten when
// the radius changes.
static void tangent_set_radius(const void *state, void *query, double radius) {
  an_tangent_query *q = query;
  if (q->radius != radius) {
    move_to_radius(state, q, radius);
    an_lazy_search_forget_radius(q->lazy, ((const an_tangent_engine *)state)->corner_count);
    an_disk_search_forget(q->disk);
  }
}

// Ignoring units needs the checks to skip them and the gathers to leave their corners out; what
// the search keeps about the corners from query to query was judged with the old mask and is
// forgotten. A point agent's corners were restricted at build time by the walls units make with
// what they touch (the touching rule), which no query can undo: it cannot ignore.
static bool tangent_set_ignored(const void *state, void *query, const uint8_t *ignored,
                                uint64_t version) {
  const an_tangent_engine *engine = state;
  an_tangent_query *q = query;
  if (ignored && q->settings.point_agent) {
    return false;
  }
  if (q->ignored_version != version) {
    q->ignored = ignored;
    q->ignored_version = version;
    q->settings.ignored = ignored;
    an_lazy_search_forget_ignored(q->lazy, engine->corner_count, ignored);
    an_disk_search_forget(q->disk);
  }
  return true;
}

// For a disk: no for ends in parts of the mesh nothing joins; yes where the sure passages join
// them; no where the widest passages keep them apart below the disk's width (the check every
// search begins with); else only a search tells (docs/DESIGN.md, "Reachability without a
// search").
static arcnav_status tangent_decide_reachable(const void *state, void *query, vec2 start, vec2 goal,
                                              bool ends_free) {
  const an_tangent_engine *engine = state;
  an_tangent_query *q = query;
  int32_t ta = -1, tb = -1;
  arcnav_status status = ends_free ? ARCNAV_OK : judge_ends(q, start, goal, &ta, &tb);
  if (status != ARCNAV_OK || v2_equal(start, goal)) {
    return status;
  }
  const an_navmesh *mesh = engine->polygons;
  if (q->settings.point_agent || !mesh) {
    return ARCNAV_IN_PROGRESS;
  }
  // Ends the free tests located already are not located again.
  ta = ta >= 0 ? ta : an_navmesh_locate(mesh, start);
  tb = tb >= 0 ? tb : an_navmesh_locate(mesh, goal);
  if (ta < 0 || tb < 0) {
    return ARCNAV_IN_PROGRESS;
  }
  // Ends in parts of the mesh that nothing joins first (one look each), then the sure passages,
  // which answer most questions, and only then the walk up the widest passages.
  if (mesh->component[ta] != mesh->component[tb] && !mesh->whole_plane) {
    return ARCNAV_NO_PATH;
  }
  if (an_sure_passages_join(&engine->sure, &q->settings, &q->clearance, start, ta, goal, tb)) {
    return ARCNAV_OK;
  }
  return an_navmesh_passage_width(mesh, ta, tb) < an_tangent_min_passage(q) ? ARCNAV_NO_PATH
                                                                            : ARCNAV_IN_PROGRESS;
}

typedef struct cells_under {
  const an_navmesh *mesh;
  const an_grid *grid;
  an_cell_filter *filter;
  double slack;
} cells_under;

static void mark_cells_under(void *context, int32_t triangle) {
  cells_under *c = context;
  vec2 corners[3];
  an_navmesh_triangle(c->mesh, (size_t)triangle, corners);
  vec2 lo, hi;
  an_box_of_points(corners, 3, &lo, &hi);
  an_cell_filter_mark_box(c->filter, c->grid, v2_sub(lo, v2(c->slack, c->slack)),
                          v2_add(hi, v2(c->slack, c->slack)));
}

// A place the disk reaches from `from` lies in a triangle the widest passages join to from's at
// the disk's width, by the argument of the no-answer in tangent_decide_reachable(); the cells
// under those triangles hold every such place (docs/DESIGN.md, "Reachability without a search").
static bool tangent_mark_reachable_cells(const void *state, void *query, vec2 from,
                                         const an_grid *grid, size_t limit,
                                         an_cell_filter *filter) {
  const an_tangent_engine *engine = state;
  an_tangent_query *q = query;
  const an_navmesh *mesh = engine->polygons;
  if (q->settings.point_agent || !mesh) {
    return false;
  }
  int32_t start = an_navmesh_locate(mesh, from);
  if (start < 0) {
    return false;
  }
  cells_under under = {mesh, grid, filter, engine->eps};
  return an_navmesh_flood_passages(mesh, start, an_tangent_min_passage(q), limit, &q->reach_flood,
                                   &q->alloc, mark_cells_under, &under) != SIZE_MAX;
}

static void tangent_get_info(const void *state, arcnav_planner_info *out) {
  const an_tangent_engine *engine = state;
  out->corner_count = engine->corner_count;
  out->node_count = engine->graph.node_count;
  out->edge_count = engine->graph.edge_count;
  out->memory_bytes =
      sizeof *engine +
      (engine->corner_room > engine->corner_count ? engine->corner_room : engine->corner_count) *
          sizeof(an_corner) +
      (engine->borrowed_space ? 0 : an_free_space_memory_bytes(&engine->space)) +
      an_tangent_graph_memory_bytes(&engine->graph, engine->corner_count) +
      an_sight_mesh_memory_bytes(engine->sight_mesh) +
      (engine->own_polygons ? an_navmesh_memory_bytes(engine->own_polygons) : 0) +
      (engine->corner_vertex ? (engine->corner_count + 1) * sizeof *engine->corner_vertex : 0) +
      (engine->item_corner
           ? ((size_t)engine->space.grid.item_count + 1) * sizeof *engine->item_corner
           : 0) +
      an_sure_passages_memory_bytes(&engine->sure) +
      engine->pinch_table_room * sizeof *engine->pinch_table;
}

// The polygons' triangulation this engine reads (its sight mesh's, the prebuilt engine's for the
// passages, or a lean interval engine's), for another engine of the same planner to borrow:
// built once, not twice.
static const an_navmesh *tangent_polygon_mesh(const void *state) {
  return ((const an_tangent_engine *)state)->polygons;
}

static const an_free_space *tangent_free_space(const void *state) {
  return &((const an_tangent_engine *)state)->space;
}

static const an_engine_ops graph_ops = {
    .destroy = tangent_destroy,
    .query_create = graph_query_create,
    .query_destroy = tangent_query_destroy,
    .begin = graph_begin,
    .resume = graph_resume,
    .best_so_far = graph_best_so_far,
    .rule_out = graph_rule_out,
    .point_is_free = tangent_point_is_free,
    .decide_reachable = tangent_decide_reachable,
    .mark_reachable_cells = tangent_mark_reachable_cells,
    .get_info = tangent_get_info,
    .polygon_mesh = tangent_polygon_mesh,
    .free_space = tangent_free_space,
};

static const an_engine_ops on_demand_ops = {
    .destroy = tangent_destroy,
    .hand_down = tangent_hand_down,
    .query_create = on_demand_query_create,
    .query_renew = tangent_query_renew,
    .query_destroy = tangent_query_destroy,
    .begin = on_demand_begin,
    .resume = on_demand_resume,
    .best_so_far = on_demand_best_so_far,
    .rule_out = on_demand_rule_out,
    .point_is_free = tangent_point_is_free,
    .decide_reachable = tangent_decide_reachable,
    .mark_reachable_cells = tangent_mark_reachable_cells,
    .get_info = tangent_get_info,
    .set_ignored = tangent_set_ignored,
    .polygon_mesh = tangent_polygon_mesh,
    .free_space = tangent_free_space,
};

static const an_engine_ops ranged_ops = {
    .destroy = tangent_destroy,
    .hand_down = tangent_hand_down,
    .query_create = on_demand_query_create,
    .query_renew = tangent_query_renew,
    .query_destroy = tangent_query_destroy,
    .begin = on_demand_begin,
    .resume = on_demand_resume,
    .best_so_far = on_demand_best_so_far,
    .rule_out = on_demand_rule_out,
    .point_is_free = tangent_point_is_free,
    .decide_reachable = tangent_decide_reachable,
    .mark_reachable_cells = tangent_mark_reachable_cells,
    .get_info = tangent_get_info,
    .set_radius = tangent_set_radius,
    .set_ignored = tangent_set_ignored,
    .free_space = tangent_free_space,
};

static arcnav_status interval_query_create(const void *state, void **out_query) {
  arcnav_status status;
  an_tangent_query *q = query_begin(state, &status);
  if (!q) {
    return status;
  }
  // A lean engine hands nothing to the tangents on demand: no working memory for them.
  if (status == ARCNAV_OK && !((const an_tangent_engine *)state)->lean) {
    status = an_lazy_search_create(state, &q->lazy);
  }
  if (status == ARCNAV_OK) {
    status = an_disk_search_create(state, &q->disk);
  }
  const an_tangent_engine *engine = state;
  if (status == ARCNAV_OK && engine->polygons) {
    status = an_interval_scratch_create_with_capacity(engine->polygons, &q->alloc, 1, &q->passages);
  }
  return query_end(q, status, out_query);
}

// The interval search answers what it takes; the tangents on demand the rest (ends beyond the box
// of a map without bounds, a radius the box's margin does not hold).
static arcnav_status interval_begin_taken(an_tangent_query *q, vec2 start, vec2 goal,
                                          arcnav_path *path) {
  q->disk_running = q->disk && an_disk_takes(q, q->disk, start, goal);
  if (!q->disk_running) {
    // A lean engine (no tangents on demand) takes every query but a point agent's, which the
    // planner sends elsewhere.
    return q->lazy ? an_lazy_begin(q, q->lazy, start, goal, path) : ARCNAV_ERR_INVALID_ARGUMENT;
  }
  // The passages first (as the prebuilt engine): where they shut the ends apart, no search.
  arcnav_status status = check_passages(q, q->engine->polygons, start, goal);
  return status == ARCNAV_IN_PROGRESS ? an_disk_begin(q, q->disk, start, goal, path) : status;
}

static arcnav_status interval_begin(const void *state, void *query, vec2 start, vec2 goal,
                                    an_search_control *control, arcnav_path *path) {
  (void)state;
  ((an_tangent_query *)query)->disk_running = false;
  return begin_with(query, start, goal, control, path, interval_begin_taken);
}

static arcnav_status interval_resume(const void *state, void *query, an_search_control *control,
                                     arcnav_path *path) {
  (void)state;
  an_tangent_query *q = query;
  q->control = control;
  return q->disk_running ? an_disk_resume(q, q->disk, path) : an_lazy_resume(q, q->lazy, path);
}

static arcnav_status interval_best_so_far(const void *state, void *query, arcnav_path *path) {
  (void)state;
  an_tangent_query *q = query;
  return q->disk_running ? an_disk_best_so_far(q, q->disk, path)
                         : an_lazy_best_so_far(q, q->lazy, path);
}

// The interval search marks nothing: its nodes are ranges of leaves, not places.
static void interval_rule_out(const void *state, void *query, uint32_t mark) {
  an_tangent_query *q = query;
  if (!q->disk_running && q->lazy) {
    on_demand_rule_out(state, query, mark);
  }
}

static const an_engine_ops interval_ops = {
    .destroy = tangent_destroy,
    .hand_down = tangent_hand_down,
    .query_create = interval_query_create,
    .query_renew = tangent_query_renew,
    .query_destroy = tangent_query_destroy,
    .begin = interval_begin,
    .resume = interval_resume,
    .best_so_far = interval_best_so_far,
    .rule_out = interval_rule_out,
    .point_is_free = tangent_point_is_free,
    .decide_reachable = tangent_decide_reachable,
    .mark_reachable_cells = tangent_mark_reachable_cells,
    .get_info = tangent_get_info,
    .set_ignored = tangent_set_ignored,
    .polygon_mesh = tangent_polygon_mesh,
    .free_space = tangent_free_space,
};

static const an_engine_ops ranged_interval_ops = {
    .destroy = tangent_destroy,
    .hand_down = tangent_hand_down,
    .query_create = interval_query_create,
    .query_renew = tangent_query_renew,
    .query_destroy = tangent_query_destroy,
    .begin = interval_begin,
    .resume = interval_resume,
    .best_so_far = interval_best_so_far,
    .rule_out = interval_rule_out,
    .point_is_free = tangent_point_is_free,
    .decide_reachable = tangent_decide_reachable,
    .mark_reachable_cells = tangent_mark_reachable_cells,
    .get_info = tangent_get_info,
    .set_radius = tangent_set_radius,
    .set_ignored = tangent_set_ignored,
    .free_space = tangent_free_space,
};
