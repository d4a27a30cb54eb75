// SPDX-License-Identifier: MIT
#pragma once

// Test maps described independently of the library: plain arrays of rings and circles that the
// verifier and the brute-force reference read directly, and that sup_map_to_arcnav() hands to the
// public API. Every generator is deterministic for a given seed (own PRNG, never rand()) and
// produces input the library must accept: simple rings with >= 3 distinct vertices and non-zero
// area, holes strictly inside their shell and apart from each other. Allocation failure aborts:
// this code only runs in tests and benchmarks.

#include "arcnav/arcnav.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/// A closed ring of points, first vertex not repeated at the end. Any orientation.
typedef struct sup_ring {
  arcnav_vec2 *points;
  size_t count;
} sup_ring;

/// A polygon obstacle: outer ring plus holes (free space inside it).
typedef struct sup_polygon {
  sup_ring outer;
  sup_ring *holes;
  size_t hole_count;
} sup_polygon;

/// A disk obstacle; radius 0 is a point obstacle.
typedef struct sup_circle {
  arcnav_vec2 center;
  double radius;
} sup_circle;

/// A whole map. Zero-initialise (or use sup_map_init) before adding to it.
typedef struct sup_map {
  sup_polygon *polygons;
  size_t polygon_count, polygon_capacity;
  sup_circle *circles;
  size_t circle_count, circle_capacity;
  bool has_bounds;
  sup_ring bounds; ///< the agent's disk must stay inside this ring when has_bounds
} sup_map;

/// A start/goal pair.
typedef struct sup_query {
  arcnav_vec2 start;
  arcnav_vec2 goal;
} sup_query;

// --- PRNG -----------------------------------------------------------------------------------

/// splitmix64: tiny, seedable with any value (including 0), good enough for test data.
typedef struct sup_rng {
  uint64_t state;
} sup_rng;

sup_rng sup_rng_seed(uint64_t seed);
uint64_t sup_rng_next(sup_rng *rng);
/// Uniform in [0, 1).
double sup_rng_unit(sup_rng *rng);
/// Uniform in [lo, hi).
double sup_rng_uniform(sup_rng *rng, double lo, double hi);
/// Uniform integer in [0, n); 0 when n == 0.
size_t sup_rng_below(sup_rng *rng, size_t n);

// --- building and converting -------------------------------------------------------------------

void sup_map_init(sup_map *map);
/// Release everything the map owns and zero it.
void sup_map_free(sup_map *map);
/// Copy a polygon into the map. `holes`/`hole_counts` may be NULL when hole_count == 0.
void sup_map_add_polygon(sup_map *map, const arcnav_vec2 *outer, size_t outer_count,
                         const arcnav_vec2 *const *holes, const size_t *hole_counts,
                         size_t hole_count);
/// Axis-parallel rectangle [x0, x1] x [y0, y1] (x0 < x1, y0 < y1).
void sup_map_add_rect(sup_map *map, double x0, double y0, double x1, double y1);
/// A square room sealed all round: the square of side `size` from `corner` up, with walls `wall`
/// thick round a free square hole.
void sup_map_add_sealed_room(sup_map *map, arcnav_vec2 corner, double size, double wall);
void sup_map_add_circle(sup_map *map, arcnav_vec2 center, double radius);
/// Set (or replace) the bounds ring.
void sup_map_set_bounds(sup_map *map, const arcnav_vec2 *ring, size_t count);
/// Deep copy.
void sup_map_copy(sup_map *dst, const sup_map *src);

/// Axis-aligned box around every polygon, circle and the bounds; false for an empty map.
bool sup_map_extent(const sup_map *map, arcnav_vec2 *out_min, arcnav_vec2 *out_max);

/// The library's tolerance rule recomputed from the plain description (see arcnav.h):
/// 1e-9 * max(1, extent width, extent height, largest absolute coordinate).
double sup_map_tolerance(const sup_map *map);

/// Independent validity check of the description (ring simplicity, vertex counts, area, holes
/// inside and apart). Returns true when valid; otherwise writes a reason into `why` [opt].
bool sup_map_check(const sup_map *map, char *why, size_t why_size);

/// Build an arcnav_map with the same obstacles (polygons first, then circles, then the bounds).
/// On error *out is NULL and the library's status is returned.
arcnav_status sup_map_to_arcnav(const sup_map *map, arcnav_map **out);
/// The same through `allocator` (NULL: the default), which the map's planners then use too.
arcnav_status sup_map_to_arcnav_with(const sup_map *map, const arcnav_allocator *allocator,
                                     arcnav_map **out);

// --- generators ---------------------------------------------------------------------------------

/// `count` random axis-parallel rectangles with sides in [min_size, max_size], fully inside
/// [0, world_size]^2. Overlaps are allowed (the benchmark's "random rectangles" map).
sup_map sup_gen_random_rectangles(uint64_t seed, size_t count, double world_size, double min_size,
                                  double max_size);

/// NEERC 2006 D worst case: 30 rectangles with integer corners in [-1000, 1000]^2 that neither
/// overlap nor touch (at least 1 unit apart).
sup_map sup_gen_neerc_worst(uint64_t seed);

/// A mix of `count` obstacles in [0, world]^2: convex polygons (hull of random points), star-shaped
/// non-convex polygons, polygons with holes, circles; overlaps happen. Obstacle sizes scale with
/// `radius_hint` (the agent radii the map is meant for; 0 picks world / 25), so gaps comparable to
/// the agent occur. About one map in three gets a (possibly non-convex) bounds ring.
sup_map sup_gen_mixed(uint64_t seed, size_t count, double world, double radius_hint);

/// A perfect maze (one way between any two cells, carved by a seeded depth-first search) of
/// `cells` x `cells` square cells of side `cell_size`, its walls axis-parallel rectangles
/// `wall_thickness` thick centred on the cell borders, with the outer wall all round; corridors are
/// cell_size - wall_thickness wide. The maze occupies [0, cells * cell_size]^2 (walls stick out by
/// half their thickness); cell (i, j) has its centre at ((i + 0.5) * cell_size, (j + 0.5) *
/// cell_size).
sup_map sup_gen_maze(uint64_t seed, size_t cells, double cell_size, double wall_thickness);

/// A town of `blocks` x `blocks` city blocks of side `block_size`, streets `street` wide between
/// and around them, in [0, blocks * (block_size + street) + street]^2. Each block holds four
/// buildings (rectangles, some L-shaped) split by two alleys whose widths are drawn from
/// [gap_min, gap_max] (pick them around 2R so that some admit the agent and some do not).
sup_map sup_gen_town(uint64_t seed, size_t blocks, double block_size, double street, double gap_min,
                     double gap_max);

/// The squares [0, 10]^2 and [10, 20]^2, touching at the single corner (10, 10).
sup_map sup_gen_corner_squares(void);

/// Obstacles that touch, for the touching rule: a random set of cells of a grid of 4 to 7 square
/// cells of side 10 from the origin, blocked as single squares, runs of squares, staircase
/// polygons (a traced grid's outlines, collinear vertices included) and cells cut along a diagonal
/// into two triangles; so obstacles share edges (seams) and meet at single vertices (pinches),
/// and overlap. Half of the maps get the grid's box as bounds, so obstacle edges lie on the bounds.
/// With `touching_holes`, half of the maps also get a square whose two triangular holes touch
/// its outer ring and each other at one vertex each.
sup_map sup_gen_touching(uint64_t seed, bool touching_holes);

/// A grid of square cells, blocked or free, like a game's tile map: cell (x, y) is
/// [x, x + 1] x [y, y + 1].
enum { SUP_CELL_GRID_MAX = 48 };

typedef struct sup_cell_grid {
  int w, h;                                           ///< at most SUP_CELL_GRID_MAX each
  bool blocked[SUP_CELL_GRID_MAX][SUP_CELL_GRID_MAX]; ///< [y][x]
} sup_cell_grid;

/// A cave on a grid of g->w x g->h cells: random fill, then two smoothing passes (cells outside
/// the grid count as rock).
void sup_cell_grid_cave(sup_rng *rng, sup_cell_grid *g);

/// Rooms and pillars on a grid of g->w x g->h cells: random rectangles of blocked cells and single
/// blocked cells.
void sup_cell_grid_rooms(sup_rng *rng, sup_cell_grid *g);

/// A cave (`cave`) or rooms and pillars on a grid of 24 to 48 cells a side, its size drawn too.
void sup_cell_grid_random(sup_rng *rng, bool cave, sup_cell_grid *g);

/// A grid from rows of '#' (blocked) and '.' (free), row y = 0 first, all as long as the first.
void sup_cell_grid_from_rows(sup_cell_grid *g, const char *const *rows, int h);

/// The grid traced as a map: each maximal horizontal run of blocked cells in a row becomes a
/// rectangle, so runs of neighbouring rows share edges (seams) and meet at single corners. With
/// `bounds`, the grid's outline is the bounds.
sup_map sup_cell_grid_to_map(const sup_cell_grid *g, bool bounds);

/// The centre of a random free cell of `g` (traced as `m`); with `fits`, one where the disk of
/// radius R fits (by the verifier's distance, to half a tolerance: in a corridor one cell wide at
/// R = 0.5 the disk touches both sides). False after 400 tries.
bool sup_cell_grid_end(const sup_cell_grid *g, const sup_map *m, double R, bool fits, sup_rng *rng,
                       arcnav_vec2 *out);

/// One map of each kind the tests of the probes and of reachability sweep, with its name and the
/// radius it is meant for: random rectangles (R 1), mixed shapes with circles (R 2), a maze
/// (R 2.5), a town whose alleys are 1 to 4 wide (R 1.2, so some are narrower than 2R), touching
/// obstacles (R 1.5), and bounds with a circle and a point obstacle among rectangles (R 0.8).
typedef struct sup_kind_map {
  sup_map map;
  const char *label;
  double radius;
} sup_kind_map;

enum { SUP_MAP_KINDS = 6 };

/// Kinds 0 to SUP_MAP_KINDS - 1 in the order above. The caller frees `map`.
sup_kind_map sup_gen_kind(int kind, uint64_t seed);

/// The kinds where a point agent's touching rule plays no part (no walls that touch), so that the
/// distances of verify.h judge a point agent as the library does.
bool sup_kind_touches_nothing(int kind);

/// `n` points on the circle of radius `rho` around the origin, counter-clockwise from (rho, 0);
/// with `inner` > 0 every odd one is at radius `inner` instead (a star). Caller frees.
arcnav_vec2 *sup_star_ring(size_t n, double rho, double inner);

/// Shapes for sup_gen_gap_pair_kind().
typedef enum sup_gap_kind {
  SUP_GAP_RECTS = 0,    ///< two rectangles, flat faces parallel across the gap
  SUP_GAP_VERTICES = 1, ///< two diamonds pointing vertex to vertex
  SUP_GAP_CIRCLES = 2,  ///< two circles
  SUP_GAP_KIND_COUNT
} sup_gap_kind;

/// Two obstacles separated by a gap exactly `gap` wide (along x, centred on x = gap / 2), and a
/// query crossing the gap in a straight line of length `straight_length`. The obstacles are long
/// enough that going around them costs far more than the straight line (at least twice as much).
typedef struct sup_gap_case {
  sup_map map;
  sup_query query;
  double straight_length;
} sup_gap_case;

sup_gap_case sup_gen_gap_pair(double R, double gap);
sup_gap_case sup_gen_gap_pair_kind(double R, double gap, sup_gap_kind kind);

/// A uniformly random point in [box_min, box_max] whose signed distance to the obstacles (the
/// verifier's sup_signed_distance_to_obstacles, equal to sup_distance_to_obstacles outside them)
/// is at least R + margin, so at R = 0 points inside an obstacle are never returned. Tries at most
/// `max_tries` times.
bool sup_random_free_point(const sup_map *map, double R, sup_rng *rng, arcnav_vec2 box_min,
                           arcnav_vec2 box_max, double margin, int max_tries, arcnav_vec2 *out);
