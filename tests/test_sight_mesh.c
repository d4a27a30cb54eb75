// SPDX-License-Identifier: MIT
// Visibility through the triangulation (src/sight_mesh.c) must never hide a usable tangent. For
// every polygon corner and for random free points of several maps and radii, every directed
// tangent that is taut at both ends and keeps clearance R (measured here with the support code's
// own segment distances, not the library's free checks) must lead to a corner the gather offered.
// With a limit, a target left out must lie where the gather promised: its touching point's
// distance sum at least the reported bound. The grid's gather (visibility.c), which answers where
// the triangulation cannot, is held to the same brute force, and its culling too.
#include "arcnav_test.h"
#include "mapgen.h"
#include "planner/planner.h"
#include "tangent/tangent_state.h"
#include "verify.h"

#include <stdio.h>
#include <stdlib.h>

#define PI 3.14159265358979323846

typedef arcnav_vec2 vec;

static vec to_vec(vec2 p) {
  return (vec){p.x, p.y};
}

static bool ring_keeps_clear(const sup_ring *ring, vec a, vec b, double need) {
  for (size_t i = 0; i < ring->count; ++i) {
    if (sup_segment_segment_distance(a, b, ring->points[i], ring->points[(i + 1) % ring->count]) <
        need) {
      return false;
    }
  }
  return true;
}

// Does the segment ab keep `need` from every obstacle? Exact distances to edges and circles, and
// the signed distance of its ends (a segment wholly inside material crosses no edge). Stops at the
// first obstacle that comes closer.
static bool segment_keeps_clear(const sup_map *map, vec a, vec b, double need) {
  if (sup_signed_distance_to_obstacles(map, a) < need ||
      sup_signed_distance_to_obstacles(map, b) < need) {
    return false;
  }
  for (size_t p = 0; p < map->polygon_count; ++p) {
    const sup_polygon *poly = &map->polygons[p];
    if (!ring_keeps_clear(&poly->outer, a, b, need)) {
      return false;
    }
    for (size_t h = 0; h < poly->hole_count; ++h) {
      if (!ring_keeps_clear(&poly->holes[h], a, b, need)) {
        return false;
      }
    }
  }
  for (size_t c = 0; c < map->circle_count; ++c) {
    const sup_circle *circle = &map->circles[c];
    if (sup_point_segment_distance(circle->center, a, b) - circle->radius < need) {
      return false;
    }
  }
  return !map->has_bounds || ring_keeps_clear(&map->bounds, a, b, need);
}

typedef struct tally {
  size_t viewpoints, unsuitable, free_tangents, limited_left_out, circle_viewpoints,
      circles_gathered;
  size_t resumes, resumed; ///< limited gathers, and those resumed from a stopped frontier
  size_t corner_gathers;   ///< gathers from polygon corners: some ask for parts of the wedge
  size_t parted, halved;   ///< gathers of one part of the wedge, and of two parts added up
} tally;

// The tangent from the viewpoint (corner `from`, or the point `origin` when it is NULL) leaving
// turning `from_ccw` to corner j arriving turning `to_ccw`, when it exists, is taut at both ends
// and keeps clearance R from every obstacle (measured with the support code's distances).
static bool usable_free_tangent(const an_tangent_engine *planner, const sup_map *plain,
                                const an_corner *from, vec2 origin, bool from_ccw, uint32_t j,
                                bool to_ccw, an_tangent *tangent) {
  const an_corner *to = &planner->corners[j];
  return an_directed_tangent(origin, from ? from->radius : 0.0, from_ccw, to->center, to->radius,
                             to_ccw, planner->eps, tangent) &&
         (!from || an_corner_wedge_contains(from, an_touch_normal(tangent->direction, from_ccw),
                                            AN_WEDGE_SLACK, planner->pinch_table)) &&
         an_corner_wedge_contains(to, an_touch_normal(tangent->direction, to_ccw), AN_WEDGE_SLACK,
                                  planner->pinch_table) &&
         segment_keeps_clear(plain, to_vec(tangent->from), to_vec(tangent->to),
                             planner->radius - planner->eps);
}

// Every usable tangent from the viewpoint (a corner, or the point `origin` when `from` is NULL)
// that leaves turning `turn` reaches an offered corner; with a
// limit, the ones not offered lie beyond *beyond.
enum { TURN_CW = 0, TURN_CCW = 1 };

static bool check_viewpoint(const an_tangent_engine *planner, const sup_map *plain,
                            an_sight_mesh_scratch *ms, an_sight_scratch *scratch,
                            uint32_t from_index, vec2 origin, int turn, const an_sight_limit *limit,
                            tally *t, const char *label) {
  double beyond = INFINITY;
  const an_corner *from = from_index == AN_NONE ? NULL : &planner->corners[from_index];
  double rim = from ? an_corner_material_radius(from, planner->radius) : 0.0;
  bool *offered = calloc(planner->corner_count + 1, sizeof *offered);
  ck_assert_ptr_nonnull(offered);
  an_sight_request request = {.corner_index = from_index,
                              .origin = origin,
                              .rim = rim,
                              .ccw = turn == TURN_CCW,
                              .radius = planner->radius,
                              .limit = limit};
  an_sight_frontier *frontier = NULL;
  // Polygon corners' gathers that go in one step ask, one in three, for a part of the wedge (only
  // departures touching there need be offered) and one in three for two parts, the second adding
  // to the first's candidates (together they must offer as the whole wedge does).
  bool one_step = !limit || t->resumes % 2 != 0;
  int parting =
      from && from->wedge_sweep < AN_TWO_PI && one_step ? (int)(t->corner_gathers++ % 3) : 0;
  double part_from = 0.0, part_to = INFINITY, first_beyond = INFINITY;
  if (parting == 1) {
    double a = (double)(t->parted % 5) / 5.0, b = a + 0.2 + 0.3 * (double)(t->parted % 3);
    part_from = a * from->wedge_sweep;
    part_to = an_min(b, 1.0) * from->wedge_sweep;
    request.part = true;
    request.part_from = part_from;
    request.part_to = part_to;
    t->parted++;
  } else if (parting == 2) {
    an_sight_request first = request;
    first.part = true;
    first.part_from = 0.0;
    first.part_to = (double)(1 + t->halved % 4) / 5.0 * from->wedge_sweep;
    request.part = true;
    request.part_from = first.part_to;
    request.part_to = from->wedge_sweep;
    request.adding = true;
    if (an_sight_mesh_gather(planner->sight_mesh, ms, scratch, &first, &first_beyond,
                             &planner->alloc) != AN_SIGHT_MESH_GATHERED) {
      request.adding = false; // the second gather finds the viewpoint unsuitable too
    }
    t->halved++;
  }
  if (limit && t->resumes % 2 == 0) {
    // Half the limited gathers go in two steps: first to a bound halfway from the straight way,
    // then on from where that stopped. What the two offer together must hold the promise of
    // one gather to the full bound.
    an_sight_limit nearer = {limit->goal,
                             0.5 * (limit->bound + v2_dist(origin, limit->goal) - rim)};
    request.limit = &nearer;
    if (an_sight_mesh_gather(planner->sight_mesh, ms, scratch, &request, &beyond,
                             &planner->alloc) == AN_SIGHT_MESH_GATHERED) {
      for (uint32_t k = 0; k < scratch->candidate_count; ++k) {
        offered[scratch->candidates[k]] = true;
      }
      frontier = malloc((ms->stopped_count + 1) * sizeof *frontier);
      ck_assert_ptr_nonnull(frontier);
      memcpy(frontier, ms->stopped, ms->stopped_count * sizeof *frontier);
      request.resuming = true;
      request.resume = frontier;
      request.resume_count = ms->stopped_count;
      t->resumed += ms->stopped_count > 0;
    }
    request.limit = limit;
  }
  t->resumes += limit != NULL;
  an_sight_mesh_result result =
      an_sight_mesh_gather(planner->sight_mesh, ms, scratch, &request, &beyond, &planner->alloc);
  free(frontier);
  beyond = an_min(beyond, first_beyond);
  ck_assert_int_ne(result, AN_SIGHT_MESH_OUT_OF_MEMORY);
  if (result == AN_SIGHT_MESH_UNSUITABLE) {
    t->unsuitable++;
    free(offered);
    return false;
  }
  t->viewpoints++;
  for (uint32_t k = 0; k < scratch->candidate_count; ++k) {
    offered[scratch->candidates[k]] = true;
  }
  for (uint32_t j = 0; j < planner->corner_count; ++j) {
    if (j == from_index) {
      continue;
    }
    for (int d = 0; d < 4; ++d) {
      bool from_ccw = d & 1, to_ccw = (d & 2) != 0;
      an_tangent tangent;
      if ((!from && !from_ccw) || from_ccw != (turn == TURN_CCW) ||
          !usable_free_tangent(planner, plain, from, origin, from_ccw, j, to_ccw, &tangent)) {
        continue;
      }
      if (from && parting == 1) {
        double offset = an_corner_offset(from, an_touch_angle(tangent.direction, from_ccw));
        if (offset < part_from - AN_WEDGE_SLACK || offset > part_to + AN_WEDGE_SLACK) {
          continue; // touches outside the part asked for
        }
      }
      t->free_tangents++;
      const an_corner *to = &planner->corners[j];
      if (!offered[j]) {
        ck_assert_msg(limit != NULL,
                      "%s: free tangent (%.17g, %.17g) -> (%.17g, %.17g) to corner %u at "
                      "(%.17g, %.17g) not offered from (%.17g, %.17g)",
                      label, tangent.from.x, tangent.from.y, tangent.to.x, tangent.to.y, j,
                      to->center.x, to->center.y, origin.x, origin.y);
        // The promise: the tangent's length plus the way from its touching point to the goal.
        double sum = v2_dist(tangent.from, tangent.to) + v2_dist(tangent.to, limit->goal);
        ck_assert_msg(sum >= beyond - 1e-9 * (1.0 + sum),
                      "%s: corner %u left out at length %.17g, below the promised %.17g", label, j,
                      sum, beyond);
        t->limited_left_out++;
      }
    }
  }
  free(offered);
  return true;
}

// A corner gathers once per way off it: a polygon corner within the directions its wedge allows
// that way, a circle obstacle's along the rays leaving its rim that way.
static void check_corner(const an_tangent_engine *planner, const sup_map *plain,
                         an_sight_mesh_scratch *ms, an_sight_scratch *scratch, uint32_t c,
                         const an_sight_limit *limit, tally *t, const char *label) {
  vec2 centre = planner->corners[c].center;
  if (planner->corners[c].wedge_sweep < AN_TWO_PI) {
    check_viewpoint(planner, plain, ms, scratch, c, centre, TURN_CW, limit, t, label);
    check_viewpoint(planner, plain, ms, scratch, c, centre, TURN_CCW, limit, t, label);
    return;
  }
  t->circle_viewpoints += 2;
  t->circles_gathered +=
      check_viewpoint(planner, plain, ms, scratch, c, centre, TURN_CW, limit, t, label);
  t->circles_gathered +=
      check_viewpoint(planner, plain, ms, scratch, c, centre, TURN_CCW, limit, t, label);
}

// The tangent engine with tangents on demand for a disk of radius R on `plain` (*map its map).
static arcnav_planner *on_demand_planner(const sup_map *plain, double R, arcnav_map **map) {
  ck_assert_int_eq(sup_map_to_arcnav(plain, map), ARCNAV_OK);
  arcnav_planner_def def = arcnav_default_planner_def();
  def.engine = ARCNAV_ENGINE_TANGENT;
  def.radius = R;
  def.tangent_graph = ARCNAV_TANGENT_GRAPH_ON_DEMAND;
  arcnav_planner *handle = NULL;
  ck_assert_int_eq(arcnav_planner_create(*map, &def, &handle), ARCNAV_OK);
  return handle;
}

static void check_map(const sup_map *plain, double R, uint64_t seed, const char *label, tally *t) {
  arcnav_map *map = NULL;
  arcnav_planner *handle = on_demand_planner(plain, R, &map);
  const an_tangent_engine *planner = handle->engine.state;
  ck_assert_msg(planner->sight_mesh != NULL, "%s: no sight mesh at R = %g", label, R);
  an_sight_scratch scratch;
  ck_assert_int_eq(
      an_sight_scratch_init(&scratch, &planner->space.grid, planner->corner_count, &planner->alloc),
      ARCNAV_OK);
  an_sight_mesh_scratch ms = {0};
  char where[160];
  for (uint32_t c = 0; c < planner->corner_count; ++c) {
    snprintf(where, sizeof where, "%s seed %llu R %g corner %u", label, (unsigned long long)seed, R,
             c);
    check_corner(planner, plain, &ms, &scratch, c, NULL, t, where);
  }
  vec lo, hi;
  ck_assert(sup_map_extent(plain, &lo, &hi));
  sup_rng rng = sup_rng_seed(seed * 977 + 5);
  for (int k = 0; k < 12; ++k) {
    vec s, g;
    if (!sup_random_free_point(plain, R, &rng, lo, hi, 0.0, 500, &s) ||
        !sup_random_free_point(plain, R, &rng, lo, hi, 0.0, 500, &g)) {
      continue;
    }
    vec2 origin = v2(s.x, s.y), goal = v2(g.x, g.y);
    snprintf(where, sizeof where, "%s seed %llu R %g start %d", label, (unsigned long long)seed, R,
             k);
    check_viewpoint(planner, plain, &ms, &scratch, AN_NONE, origin, TURN_CCW, NULL, t, where);
    // The same point and a corner, now confined by a limit on a tangent's length plus its way on
    // to the goal.
    an_sight_limit limit = {goal, v2_dist(origin, goal) * (1.0 + 0.05 * k)};
    check_viewpoint(planner, plain, &ms, &scratch, AN_NONE, origin, TURN_CCW, &limit, t, where);
    uint32_t c = (uint32_t)(sup_rng_below(&rng, planner->corner_count));
    limit.bound = v2_dist(planner->corners[c].center, goal) * (1.0 + 0.05 * k);
    check_corner(planner, plain, &ms, &scratch, c, &limit, t, where);
    // A limit just above the cost of a tangent from the start to some corner (its length plus its
    // way on to the goal): that corner's material lies beyond, and the gather must still offer it.
    const an_corner *to = &planner->corners[sup_rng_below(&rng, planner->corner_count)];
    an_tangent tangent;
    if (an_directed_tangent(origin, 0.0, true, to->center, to->radius, k % 2 == 0, planner->eps,
                            &tangent)) {
      limit.bound = v2_dist(tangent.from, tangent.to) + v2_dist(tangent.to, goal);
      limit.bound += 1e-9 * limit.bound;
      check_viewpoint(planner, plain, &ms, &scratch, AN_NONE, origin, TURN_CCW, &limit, t, where);
    }
    // Goals straight out from the touching point of a tangent, from the start and from corner c:
    // the material behind a touching point is R farther from such a goal than the point itself,
    // and a limit just above the tangent's length plus its way to the goal must still let the
    // corner through.
    for (int attempt = 0; attempt < 6; ++attempt) {
      const an_corner *target = &planner->corners[sup_rng_below(&rng, planner->corner_count)];
      const an_corner *viewer = &planner->corners[c];
      bool from_corner = attempt % 2 == 1, viewer_ccw = attempt % 4 < 2;
      if ((from_corner && viewer == target) ||
          !an_directed_tangent(from_corner ? viewer->center : origin,
                               from_corner ? viewer->radius : 0.0, viewer_ccw, target->center,
                               target->radius, attempt % 3 == 0, planner->eps, &tangent)) {
        continue;
      }
      vec2 out = v2_scale(v2_sub(tangent.to, target->center), 1.0 / target->radius);
      an_sight_limit beside = {v2_mul_add(tangent.to, (1.0 + attempt % 3) * R, out), 0.0};
      beside.bound = v2_dist(tangent.from, tangent.to) + v2_dist(tangent.to, beside.goal);
      beside.bound += 1e-9 * beside.bound;
      if (from_corner) {
        check_corner(planner, plain, &ms, &scratch, c, &beside, t, where);
      } else {
        check_viewpoint(planner, plain, &ms, &scratch, AN_NONE, origin, TURN_CCW, &beside, t,
                        where);
      }
    }
    // The same from a circle obstacle's corner (the next one from c, if any), along a tangent
    // leaving it the way k picks.
    uint32_t circle = c;
    for (uint32_t step = 0; step < planner->corner_count; ++step) {
      if (planner->corners[circle].wedge_sweep >= AN_TWO_PI) {
        break;
      }
      circle = (circle + 1) % (uint32_t)planner->corner_count;
    }
    const an_corner *from = &planner->corners[circle];
    if (an_directed_tangent(from->center, from->radius, k % 4 < 2, to->center, to->radius,
                            k % 2 == 0, planner->eps, &tangent)) {
      limit.bound = v2_dist(tangent.from, tangent.to) + v2_dist(tangent.to, goal);
      limit.bound += 1e-9 * limit.bound;
      check_corner(planner, plain, &ms, &scratch, circle, &limit, t, where);
    }
  }
  an_sight_mesh_scratch_free(&ms, &planner->alloc);
  an_sight_scratch_free(&scratch, &planner->alloc);
  arcnav_planner_destroy(handle);
  arcnav_map_destroy(map);
}

// A many-sided convex polygon has corners with narrow wedges whose departures graze the polygon:
// small squares placed within 2R of a vertex's tangent line, a little way along it, are reached
// by tangents crossing over between the two.
static sup_map polygon_with_squares_along_tangents(size_t sides, double radius, double R) {
  sup_map m;
  sup_map_init(&m);
  arcnav_vec2 *ring = malloc(sides * sizeof *ring);
  ck_assert_ptr_nonnull(ring);
  for (size_t i = 0; i < sides; ++i) {
    double a = 2.0 * PI * (double)i / (double)sides;
    ring[i] = (arcnav_vec2){radius * cos(a), radius * sin(a)};
  }
  sup_map_add_polygon(&m, ring, sides, NULL, NULL, 0);
  free(ring);
  for (size_t i = 0; i < sides; i += 3) {
    // Outward normal of the edge leaving vertex i, and its direction.
    double a = 2.0 * PI * ((double)i + 0.5) / (double)sides;
    vec normal = {cos(a), sin(a)}, along = {-sin(a), cos(a)};
    double v_angle = 2.0 * PI * (double)i / (double)sides;
    vec v = {radius * cos(v_angle), radius * sin(v_angle)};
    double ahead = (i % 2 ? 9.0 : 4.0) * R, off = (i % 4 < 2 ? 1.3 : 1.8) * R, side = 0.4 * R;
    double x = v.x + ahead * along.x + off * normal.x, y = v.y + ahead * along.y + off * normal.y;
    sup_map_add_rect(&m, x, y, x + side, y + side);
  }
  return m;
}

// Circles crowded among small slivers of polygon, with R comparable to both: tangents from a
// circle reach vertices just beside it, past slivers near its rim.
static sup_map circles_among_slivers(uint64_t seed) {
  sup_rng rng = sup_rng_seed(seed * 31 + 7);
  sup_map m;
  sup_map_init(&m);
  for (int i = 0; i < 14; ++i) {
    vec c = {sup_rng_uniform(&rng, 0.0, 60.0), sup_rng_uniform(&rng, 0.0, 60.0)};
    sup_map_add_circle(&m, c, sup_rng_uniform(&rng, 1.5, 6.0));
  }
  for (int i = 0; i < 40; ++i) {
    vec c = {sup_rng_uniform(&rng, 0.0, 60.0), sup_rng_uniform(&rng, 0.0, 60.0)};
    double a = sup_rng_uniform(&rng, 0.0, 2.0 * PI), length = sup_rng_uniform(&rng, 1.0, 6.0);
    double width = sup_rng_uniform(&rng, 0.1, 0.8);
    vec along = {cos(a), sin(a)}, across = {-sin(a), cos(a)};
    vec tri[3] = {{c.x + length * along.x, c.y + length * along.y},
                  {c.x + width * across.x, c.y + width * across.y},
                  {c.x - width * across.x, c.y - width * across.y}};
    sup_map_add_polygon(&m, tri, 3, NULL, NULL, 0);
  }
  return m;
}

START_TEST(test_no_usable_tangent_hidden) {
  tally t = {0};
  for (uint64_t seed = 1; seed <= test_scaled_count(10); ++seed) {
    double hint = 2.0 + (double)(seed % 3);
    double radii[3] = {0.4 * hint, 1.1 * hint, 3.0 * hint};
    sup_map mixed = sup_gen_mixed(seed, 8 + seed % 8, 120.0, hint);
    sup_map rects = sup_gen_random_rectangles(seed, 25, 400.0, 10.0, 60.0);
    sup_map maze = sup_gen_maze(seed, 4, 40.0, 4.0);
    sup_map town = sup_gen_town(seed, 2, 60.0, 16.0, 5.0, 8.0);
    for (int r = 0; r < 3; ++r) {
      check_map(&mixed, radii[r], seed, "mixed", &t);
      check_map(&rects, radii[r], seed, "rectangles", &t);
      check_map(&maze, radii[r], seed, "maze", &t);
      check_map(&town, radii[r], seed, "town", &t);
    }
    sup_map slivers = circles_among_slivers(seed);
    for (int r = 0; r < 3; ++r) {
      check_map(&slivers, 0.5 + 1.5 * r, seed, "circles among slivers", &t);
    }
    sup_map_free(&slivers);
    if (seed <= 3) {
      double R = 1.0 + 0.5 * (double)seed;
      sup_map polygon = polygon_with_squares_along_tangents(24 + 12 * seed, 60.0, R);
      check_map(&polygon, R, seed, "polygon and squares", &t);
      sup_map_free(&polygon);
    }
    sup_map_free(&mixed);
    sup_map_free(&rects);
    sup_map_free(&maze);
    sup_map_free(&town);
  }
  printf("sight mesh: %zu viewpoints (%zu left to the grid), %zu free tangents, %zu left out by "
         "a limit; circles: %zu of %zu viewpoints gathered through the mesh; %zu gathers "
         "resumed; %zu of a part of the wedge, %zu of two parts added up\n",
         t.viewpoints, t.unsuitable, t.free_tangents, t.limited_left_out, t.circles_gathered,
         t.circle_viewpoints, t.resumed, t.parted, t.halved);
  ck_assert_uint_ge(t.viewpoints, test_scaled_minimum(2000, 10));
  ck_assert_uint_ge(t.free_tangents, test_scaled_minimum(50000, 10));
  // Most circles stand clear of the polygons, so their rays start in the mesh.
  ck_assert_uint_ge(2 * t.circles_gathered, t.circle_viewpoints);
  ck_assert_uint_ge(t.limited_left_out, 1);
  ck_assert_uint_ge(t.resumed, test_scaled_minimum(20, 10));
  ck_assert_uint_ge(t.parted, test_scaled_minimum(500, 10));
  ck_assert_uint_ge(t.halved, test_scaled_minimum(500, 10));
}
END_TEST

// The grid's gather (visibility.h: rings of cells outwards, corners filed by the cells their
// circles cover) from every corner and from random free points: every usable tangent leads to an
// offered corner, and the gather's culling does not call it blocked.
static size_t check_grid_viewpoint(const an_tangent_engine *planner, const sup_map *plain,
                                   an_sight_scratch *scratch, uint32_t from_index, vec2 origin,
                                   const char *label) {
  const an_corner *from = from_index == AN_NONE ? NULL : &planner->corners[from_index];
  an_sight_mask mask = from ? an_sight_mask_of_corner(from) : an_sight_mask_all();
  double lane_offset = from ? an_corner_material_radius(from, planner->radius) : 0.0;
  an_sight_gather(&planner->space.grid, &planner->graph.corner_grid, planner->corner_count, scratch,
                  origin, lane_offset, planner->radius, &mask, NULL, planner->eps);
  bool *offered = calloc(planner->corner_count + 1, sizeof *offered);
  ck_assert_ptr_nonnull(offered);
  for (uint32_t k = 0; k < scratch->candidate_count; ++k) {
    offered[scratch->candidates[k]] = true;
  }
  size_t free_tangents = 0;
  for (uint32_t j = 0; j < planner->corner_count; ++j) {
    for (int d = 0; j != from_index && d < 4; ++d) {
      bool from_ccw = d & 1, to_ccw = (d & 2) != 0;
      an_tangent tangent;
      if ((!from && !from_ccw) ||
          !usable_free_tangent(planner, plain, from, origin, from_ccw, j, to_ccw, &tangent)) {
        continue;
      }
      free_tangents++;
      ck_assert_msg(offered[j] && !an_sight_blocks(&scratch->sight, tangent.direction, from_ccw,
                                                   v2_dist(tangent.from, tangent.to)),
                    "%s: free tangent (%.17g, %.17g) -> (%.17g, %.17g) to corner %u %s from "
                    "(%.17g, %.17g)",
                    label, tangent.from.x, tangent.from.y, tangent.to.x, tangent.to.y, j,
                    offered[j] ? "culled" : "not offered", origin.x, origin.y);
    }
  }
  free(offered);
  return free_tangents;
}

static size_t check_grid_map(const sup_map *plain, double R, uint64_t seed, const char *label) {
  arcnav_map *map = NULL;
  arcnav_planner *handle = on_demand_planner(plain, R, &map);
  const an_tangent_engine *planner = handle->engine.state;
  an_sight_scratch scratch;
  ck_assert_int_eq(
      an_sight_scratch_init(&scratch, &planner->space.grid, planner->corner_count, &planner->alloc),
      ARCNAV_OK);
  char where[160];
  size_t free_tangents = 0;
  for (uint32_t c = 0; c < planner->corner_count; ++c) {
    snprintf(where, sizeof where, "%s seed %llu R %g corner %u", label, (unsigned long long)seed, R,
             c);
    free_tangents +=
        check_grid_viewpoint(planner, plain, &scratch, c, planner->corners[c].center, where);
  }
  vec lo, hi;
  ck_assert(sup_map_extent(plain, &lo, &hi));
  sup_rng rng = sup_rng_seed(seed * 131 + 7);
  for (int k = 0; k < 8; ++k) {
    vec s;
    if (sup_random_free_point(plain, R, &rng, lo, hi, 0.0, 500, &s)) {
      snprintf(where, sizeof where, "%s seed %llu R %g point %d", label, (unsigned long long)seed,
               R, k);
      free_tangents += check_grid_viewpoint(planner, plain, &scratch, AN_NONE, v2(s.x, s.y), where);
    }
  }
  an_sight_scratch_free(&scratch, &planner->alloc);
  arcnav_planner_destroy(handle);
  arcnav_map_destroy(map);
  return free_tangents;
}

// Radii from a fraction of the cell to several cells: the grid's cells are never much smaller
// than R, and a corner's tangents may start up to R nearer the viewpoint than its circle.
START_TEST(test_grid_gather_hides_no_free_tangent) {
  size_t free_tangents = 0;
  for (uint64_t seed = 1; seed <= test_scaled_count(6); ++seed) {
    double hint = 2.0 + (double)(seed % 3);
    sup_map mixed = sup_gen_mixed(seed, 8 + seed % 8, 120.0, hint);
    sup_map maze = sup_gen_maze(seed, 8, 12.0, 2.0);
    sup_map town = sup_gen_town(seed, 2, 60.0, 16.0, 5.0, 8.0);
    sup_map slivers = circles_among_slivers(seed);
    double radii[3] = {0.4 * hint, 1.1 * hint, 3.0 * hint};
    for (int r = 0; r < 3; ++r) {
      free_tangents += check_grid_map(&mixed, radii[r], seed, "mixed");
      free_tangents += check_grid_map(&maze, 0.5 + 1.5 * r, seed, "maze");
      free_tangents += check_grid_map(&town, radii[r], seed, "town");
      free_tangents += check_grid_map(&slivers, 0.5 + 1.5 * r, seed, "circles among slivers");
    }
    sup_map_free(&mixed);
    sup_map_free(&maze);
    sup_map_free(&town);
    sup_map_free(&slivers);
  }
  printf("grid gather: %zu free tangents\n", free_tangents);
  ck_assert_uint_ge(free_tangents, test_scaled_minimum(20000, 10));
}
END_TEST

int main(void) {
  Suite *suite = suite_create("sight_mesh");
  TCase *tc = tcase_create("visibility");
  tcase_set_timeout(tc, 600);
  tcase_add_test(tc, test_no_usable_tangent_hidden);
  tcase_add_test(tc, test_grid_gather_hides_no_free_tangent);
  suite_add_tcase(suite, tc);
  return test_run_suite(suite);
}
