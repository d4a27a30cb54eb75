// SPDX-License-Identifier: MIT
// Building a triangulation from a whole input (an_cdt_build, an_cdt_build_ex): the segments are
// cut into an arrangement first, then the points go in, in space order, then the pieces of the
// segments as constraints. The kernel operations it uses are in cdt.c.
#include "mesh/cdt.h"

#include "geom/predicates.h"
#include "mesh/cdt_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

// Splitting the input before triangulating: every segment is cut at the input points that lie
// exactly on it and at its proper crossings with other segments. Doing this up front matters for
// robustness: a crossing point is rounded, and a constraint continued from a rounded point would
// pass a few ulps beside the input points its segment actually runs through; with the cuts made
// first, each piece ends exactly at those points.

typedef struct cut {
  uint32_t segment;
  uint32_t point;
  double t; ///< position along the segment, 0 at its first point and 1 at its second
} cut;

typedef struct build_lists {
  const an_allocator *alloc;
  vec2 *points;
  size_t point_count, point_capacity;
  cut *cuts;
  size_t cut_count, cut_capacity;
} build_lists;

static bool add_cut(build_lists *b, uint32_t segment, uint32_t point, double t) {
  if (!an_reserve(b->alloc, (void **)&b->cuts, &b->cut_capacity, b->cut_count, b->cut_count + 1,
                  sizeof(cut))) {
    return false;
  }
  b->cuts[b->cut_count++] = (cut){segment, point, t};
  return true;
}

static int compare_cuts(const void *pa, const void *pb) {
  const cut *a = pa, *b = pb;
  if (a->segment != b->segment) {
    return a->segment < b->segment ? -1 : 1;
  }
  if (a->t != b->t) {
    return a->t < b->t ? -1 : 1;
  }
  return a->point < b->point ? -1 : (a->point > b->point);
}

typedef struct sorted_index {
  double key;
  uint32_t index;
} sorted_index;

static int compare_sorted(const void *pa, const void *pb) {
  const sorted_index *a = pa, *b = pb;
  if (a->key != b->key) {
    return a->key < b->key ? -1 : 1;
  }
  return a->index < b->index ? -1 : (a->index > b->index);
}

static double param_on(vec2 a, vec2 b, vec2 p) {
  vec2 d = v2_sub(b, a);
  return v2_dot(v2_sub(p, a), d) / v2_len2(d);
}

/// Segment s's bounding box, read where the sweeps need it.
typedef struct seg_box {
  double x0, x1, y0, y1;
} seg_box;

/// A pair of segments that cross, as their positions in the sweep order (lo < hi): sorting the
/// pairs restores the order in which a plain sweep would find them, so the crossing points get the
/// same indices however they were found.
typedef struct cross_pair {
  uint32_t lo, hi;
} cross_pair;

static int compare_pairs(const void *pa, const void *pb) {
  const cross_pair *a = pa, *b = pb;
  if (a->lo != b->lo) {
    return a->lo < b->lo ? -1 : 1;
  }
  return a->hi < b->hi ? -1 : (a->hi > b->hi);
}

/// One group of segments and points: sweep positions of its segments (ascending) and by_x
/// positions of its points (ascending), its bounding box and its widest segment in x.
typedef struct seg_group {
  uint32_t seg_first, seg_count, point_first, point_count;
  seg_box box;
  double width;
  bool clean;
} seg_group;

typedef struct cutter {
  build_lists *b;
  const uint32_t *segments;
  const an_cdt_options *opt; ///< may be NULL
  sorted_index *seg_x;       ///< live segments by smallest x (then index): the sweep order
  size_t live;               ///< segments of positive length, the first `live` of seg_x
  seg_box *box;              ///< per sweep position
  sorted_index *by_x;        ///< points by x (then index)
  seg_group *groups;
  size_t group_count;
  uint32_t *group_segs;      ///< sweep positions, group by group
  uint32_t *group_points;    ///< by_x positions, group by group
  sorted_index *group_order; ///< non-empty groups by the left side of their box
  cross_pair *pairs;
  size_t pair_count, pair_capacity;
  size_t limit; ///< stop once more crossings than this are found (0: no limit)
  bool ok, over;
} cutter;

static vec2 seg_point(const cutter *c, uint32_t pos, int end) {
  return c->b->points[c->segments[2 * c->seg_x[pos].index + (uint32_t)end]];
}

/// Cut the segment at sweep position `pos` at the points by_x[lo..hi) lying exactly inside it.
static void cut_at_points(cutter *c, uint32_t pos, const uint32_t *points, size_t count) {
  const seg_box *bx = &c->box[pos];
  vec2 pa = seg_point(c, pos, 0), pb = seg_point(c, pos, 1);
  // First point with x >= x0 (the list is in by_x order).
  size_t lo = 0, hi = count;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if (c->by_x[points[mid]].key < bx->x0) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  for (size_t k = lo; k < count && c->by_x[points[k]].key <= bx->x1 && c->ok; ++k) {
    uint32_t index = c->by_x[points[k]].index;
    vec2 p = c->b->points[index];
    if (p.y < bx->y0 || p.y > bx->y1 || an_cdt_same_point(p, pa) || an_cdt_same_point(p, pb)) {
      continue;
    }
    if (an_orient2d(pa, pb, p) == 0.0) {
      c->ok = add_cut(c->b, c->seg_x[pos].index, index, param_on(pa, pb, p));
    }
  }
}

/// Record the pair when the segments at sweep positions i and j cross properly.
static void test_pair(cutter *c, uint32_t i, uint32_t j) {
  const seg_box *a = &c->box[i], *b = &c->box[j];
  if (a->x1 < b->x0 || b->x1 < a->x0 || a->y1 < b->y0 || b->y1 < a->y0) {
    return;
  }
  vec2 pa = seg_point(c, i, 0), pb = seg_point(c, i, 1);
  vec2 pc = seg_point(c, j, 0), pd = seg_point(c, j, 1);
  int o1 = an_sign(an_orient2d(pa, pb, pc)), o2 = an_sign(an_orient2d(pa, pb, pd));
  if (o1 * o2 >= 0) {
    return;
  }
  int o3 = an_sign(an_orient2d(pc, pd, pa)), o4 = an_sign(an_orient2d(pc, pd, pb));
  if (o3 * o4 >= 0) {
    return; // touching at a point of the other segment is handled by the point cuts
  }
  if (c->limit > 0 && c->pair_count >= c->limit) {
    c->over = true;
    c->ok = false;
    return;
  }
  if (!an_reserve(c->b->alloc, (void **)&c->pairs, &c->pair_capacity, c->pair_count,
                  c->pair_count + 1, sizeof(cross_pair))) {
    c->ok = false;
    return;
  }
  c->pairs[c->pair_count++] = (cross_pair){i < j ? i : j, i < j ? j : i};
}

/// Points by x; every segment cut at its own two ends; segments of positive length in sweep order.
static void order_points_and_segments(cutter *c, size_t segment_count) {
  build_lists *b = c->b;
  for (size_t i = 0; i < b->point_count; ++i) {
    c->by_x[i] = (sorted_index){b->points[i].x, (uint32_t)i};
  }
  qsort(c->by_x, b->point_count, sizeof *c->by_x, compare_sorted);
  for (size_t s = 0; s < segment_count && c->ok; ++s) {
    vec2 pa = b->points[c->segments[2 * s]], pb = b->points[c->segments[2 * s + 1]];
    c->ok = add_cut(b, (uint32_t)s, c->segments[2 * s], 0.0) &&
            add_cut(b, (uint32_t)s, c->segments[2 * s + 1], 1.0);
    if (!an_cdt_same_point(pa, pb)) {
      c->seg_x[c->live++] = (sorted_index){an_min(pa.x, pb.x), (uint32_t)s};
    }
  }
  if (c->ok) {
    qsort(c->seg_x, c->live, sizeof *c->seg_x, compare_sorted);
  }
}

/// The group of segment or point `item` by the caller's list (NULL: all in group 0); a group
/// number out of range counts as 0.
static seg_group *group_of(const cutter *c, const uint32_t *list, uint32_t item) {
  uint32_t g = list ? list[item] : 0;
  return &c->groups[g < c->group_count ? g : 0];
}

static void grow_box(seg_box *box, const seg_box *by) {
  box->x0 = an_min(box->x0, by->x0);
  box->x1 = an_max(box->x1, by->x1);
  box->y0 = an_min(box->y0, by->y0);
  box->y1 = an_max(box->y1, by->y1);
}

/// Each group's box, widest segment and lists of segments and points, the sweep and by_x orders
/// kept within each.
static void bucket_by_group(cutter *c) {
  const an_cdt_options *opt = c->opt;
  const uint32_t *segment_group = opt ? opt->segment_group : NULL;
  const uint32_t *point_group = opt ? opt->point_group : NULL;
  for (size_t g = 0; g < c->group_count; ++g) {
    c->groups[g].box = (seg_box){INFINITY, -INFINITY, INFINITY, -INFINITY};
    c->groups[g].clean = opt && opt->group_clean && opt->group_clean[g];
  }
  for (size_t k = 0; k < c->live; ++k) {
    uint32_t s = c->seg_x[k].index;
    vec2 pa = c->b->points[c->segments[2 * s]], pb = c->b->points[c->segments[2 * s + 1]];
    c->box[k] =
        (seg_box){an_min(pa.x, pb.x), an_max(pa.x, pb.x), an_min(pa.y, pb.y), an_max(pa.y, pb.y)};
    seg_group *gr = group_of(c, segment_group, s);
    gr->seg_count++;
    gr->width = an_max(gr->width, c->box[k].x1 - c->box[k].x0);
    grow_box(&gr->box, &c->box[k]);
  }
  for (size_t k = 0; k < c->b->point_count; ++k) {
    uint32_t p = c->by_x[k].index;
    seg_group *gr = group_of(c, point_group, p);
    gr->point_count++;
    vec2 q = c->b->points[p];
    grow_box(&gr->box, &(seg_box){q.x, q.x, q.y, q.y});
  }
  uint32_t seg_at = 0, point_at = 0;
  for (size_t g = 0; g < c->group_count; ++g) {
    c->groups[g].seg_first = seg_at;
    c->groups[g].point_first = point_at;
    seg_at += c->groups[g].seg_count;
    point_at += c->groups[g].point_count;
    c->groups[g].seg_count = c->groups[g].point_count = 0;
  }
  for (size_t k = 0; k < c->live; ++k) {
    seg_group *gr = group_of(c, segment_group, c->seg_x[k].index);
    c->group_segs[gr->seg_first + gr->seg_count++] = (uint32_t)k;
  }
  for (size_t k = 0; k < c->b->point_count; ++k) {
    seg_group *gr = group_of(c, point_group, c->by_x[k].index);
    c->group_points[gr->point_first + gr->point_count++] = (uint32_t)k;
  }
}

/// Inside each group that is not vouched for: the plain sweep.
static void cut_inside_groups(cutter *c) {
  for (size_t g = 0; g < c->group_count && c->ok; ++g) {
    const seg_group *gr = &c->groups[g];
    if (gr->clean) {
      continue;
    }
    const uint32_t *segs = c->group_segs + gr->seg_first;
    for (uint32_t a = 0; a < gr->seg_count && c->ok; ++a) {
      cut_at_points(c, segs[a], c->group_points + gr->point_first, gr->point_count);
      for (uint32_t k = a + 1;
           k < gr->seg_count && c->box[segs[k]].x0 <= c->box[segs[a]].x1 && c->ok; ++k) {
        test_pair(c, segs[a], segs[k]);
      }
    }
  }
}

static bool box_misses(const seg_box *box, const seg_box *other) {
  return box->x1 < other->x0 || box->x0 > other->x1 || box->y1 < other->y0 || box->y0 > other->y1;
}

/// Cut the segments of gs that reach gp's box at the points of gp.
static void cut_at_group_points(cutter *c, const seg_group *gs, const seg_group *gp) {
  for (uint32_t a = 0; a < gs->seg_count && c->ok; ++a) {
    uint32_t pos = c->group_segs[gs->seg_first + a];
    if (box_misses(&c->box[pos], &gp->box)) {
      continue;
    }
    cut_at_points(c, pos, c->group_points + gp->point_first, gp->point_count);
  }
}

/// Crossings between two groups: each segment of the group with fewer segments against the
/// other's segments whose smallest x lies in [x0 - widest, x1].
static void find_group_crossings(cutter *c, const seg_group *ga, const seg_group *gb) {
  const seg_group *gs = ga->seg_count <= gb->seg_count ? ga : gb;
  const seg_group *go = gs == ga ? gb : ga;
  const uint32_t *other = c->group_segs + go->seg_first;
  for (uint32_t a = 0; a < gs->seg_count && c->ok; ++a) {
    uint32_t pos = c->group_segs[gs->seg_first + a];
    const seg_box *bx = &c->box[pos];
    if (box_misses(bx, &go->box)) {
      continue;
    }
    double from = bx->x0 - go->width;
    size_t lo = 0, hi = go->seg_count;
    while (lo < hi) {
      size_t mid = (lo + hi) / 2;
      if (c->box[other[mid]].x0 < from) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    for (size_t k = lo; k < go->seg_count && c->box[other[k]].x0 <= bx->x1 && c->ok; ++k) {
      test_pair(c, pos, other[k]);
    }
  }
}

/// Between groups with overlapping boxes: points of each on segments of the other, and crossings.
static void cut_between_groups(cutter *c) {
  size_t used = 0;
  for (size_t g = 0; g < c->group_count; ++g) {
    if (c->groups[g].seg_count + c->groups[g].point_count > 0) {
      c->group_order[used++] = (sorted_index){c->groups[g].box.x0, (uint32_t)g};
    }
  }
  qsort(c->group_order, used, sizeof *c->group_order, compare_sorted);
  for (size_t i = 0; i < used && c->ok; ++i) {
    const seg_group *ga = &c->groups[c->group_order[i].index];
    for (size_t j = i + 1; j < used && c->group_order[j].key <= ga->box.x1 && c->ok; ++j) {
      const seg_group *gb = &c->groups[c->group_order[j].index];
      if (gb->box.y1 < ga->box.y0 || ga->box.y1 < gb->box.y0) {
        continue;
      }
      cut_at_group_points(c, ga, gb);
      if (c->ok) {
        cut_at_group_points(c, gb, ga);
      }
      find_group_crossings(c, ga, gb);
    }
  }
}

/// A new point at each crossing found, in the order a plain sweep would find them, cutting both
/// segments.
static void add_crossing_points(cutter *c) {
  build_lists *b = c->b;
  if (c->pair_count > 0) {
    qsort(c->pairs, c->pair_count, sizeof *c->pairs, compare_pairs);
  }
  for (size_t k = 0; k < c->pair_count && c->ok; ++k) {
    uint32_t s = c->seg_x[c->pairs[k].lo].index, r = c->seg_x[c->pairs[k].hi].index;
    vec2 pa = b->points[c->segments[2 * s]], pb = b->points[c->segments[2 * s + 1]];
    vec2 pc = b->points[c->segments[2 * r]], pd = b->points[c->segments[2 * r + 1]];
    vec2 x = an_cdt_crossing_point(pa, pb, pc, pd);
    if (!an_reserve(b->alloc, (void **)&b->points, &b->point_capacity, b->point_count,
                    b->point_count + 1, sizeof(vec2))) {
      c->ok = false;
      break;
    }
    uint32_t idx = (uint32_t)b->point_count;
    b->points[b->point_count++] = x;
    c->ok = add_cut(b, s, idx, param_on(pa, pb, x)) && add_cut(b, r, idx, param_on(pc, pd, x));
  }
}

// Cutting, by groups: every pair of segments (and every point-segment pair) from two groups with
// overlapping boxes is tested, and so is every pair inside a group unless the caller vouches that
// the group is clean (its segments meet only at shared endpoints and its points lie on none of its
// segments' interiors, as in a validated polygon). A sweep over all segments at once would test
// every pair whose x ranges overlap: quadratic on a many-pointed star.
static arcnav_status cut_segments(build_lists *b, const uint32_t *segments, size_t segment_count,
                                  const an_cdt_options *opt) {
  size_t n = b->point_count;
  cutter c = {.b = b, .segments = segments, .opt = opt, .ok = true};
  c.group_count = opt && opt->group_count > 0 ? opt->group_count : 1;
  c.limit = opt ? opt->crossing_limit : 0;
  c.by_x = an_alloc(b->alloc, n + 1, sizeof *c.by_x);
  c.seg_x = an_alloc(b->alloc, segment_count + 1, sizeof *c.seg_x);
  c.box = an_alloc(b->alloc, segment_count + 1, sizeof *c.box);
  c.groups = an_calloc(b->alloc, c.group_count, sizeof *c.groups);
  c.group_segs = an_alloc(b->alloc, segment_count + 1, sizeof *c.group_segs);
  c.group_points = an_alloc(b->alloc, n + 1, sizeof *c.group_points);
  c.group_order = an_alloc(b->alloc, c.group_count, sizeof *c.group_order);
  c.ok = c.by_x && c.seg_x && c.box && c.groups && c.group_segs && c.group_points && c.group_order;
  if (c.ok) {
    order_points_and_segments(&c, segment_count);
  }
  if (c.ok) {
    bucket_by_group(&c);
    cut_inside_groups(&c);
    if (c.ok) {
      cut_between_groups(&c);
    }
  }
  if (c.ok) {
    add_crossing_points(&c);
  }
  an_free(b->alloc, c.by_x);
  an_free(b->alloc, c.seg_x);
  an_free(b->alloc, c.box);
  an_free(b->alloc, c.groups);
  an_free(b->alloc, c.group_segs);
  an_free(b->alloc, c.group_points);
  an_free(b->alloc, c.group_order);
  an_free(b->alloc, c.pairs);
  if (c.over) {
    return ARCNAV_ERR_TOO_LARGE;
  }
  return c.ok ? ARCNAV_OK : ARCNAV_ERR_OUT_OF_MEMORY;
}

/// Mix of an index, for the randomised rounds.
static uint32_t mix32(uint32_t x) {
  x ^= x >> 16;
  x *= 0x7feb352dU;
  x ^= x >> 15;
  x *= 0x846ca68bU;
  x ^= x >> 16;
  return x;
}

// Flips per inserted point beyond which the Hilbert order counts as degenerate. Ordinary input
// needs a handful per point; points on a few concentric circles (a star with many tips) are
// cocircular up to rounding, and each insertion in Hilbert order then flips a fan whose size
// grows with the point count.
#define FLIPS_PER_POINT_MAX 16
#define FLIPS_FREE 65536

/// Insert the points in the order of `keys` (Hilbert order). When that order proves degenerate,
/// start again in randomised rounds (half the points in the last round, a quarter in the one
/// before, ...), each round in Hilbert order: the expected work per point is then constant
/// whatever the input. keys[] is reordered then.
static arcnav_status insert_points(an_cdt *cdt, vec2 box_min, vec2 box_max, const vec2 *points,
                                   an_order_key *keys, size_t total, int32_t *map) {
  bool rounds = false;
  for (size_t i = 0; i < total; ++i) {
    arcnav_status st = an_cdt_insert_point(cdt, points[keys[i].index], &map[keys[i].index]);
    if (st != ARCNAV_OK) {
      return st;
    }
    if (!rounds && cdt->flips > FLIPS_PER_POINT_MAX * (i + 1) + FLIPS_FREE) {
      rounds = true;
      an_allocator alloc = cdt->alloc;
      an_cdt_free(cdt);
      st = an_cdt_init(cdt, &alloc, box_min, box_max);
      if (st != ARCNAV_OK) {
        return st;
      }
      for (size_t k = 0; k < total; ++k) {
        uint32_t r = mix32(keys[k].index + 0x9E3779B9u);
        uint64_t round = 0;
        while (round < 32 && (r & 1u)) {
          r >>= 1;
          ++round;
        }
        keys[k].key = (keys[k].key & 0xFFFFFFFFu) | ((32 - round) << 40);
      }
      qsort(keys, total, sizeof *keys, an_compare_order_keys);
      i = (size_t)-1; // restart at 0
    }
  }
  return ARCNAV_OK;
}

arcnav_status an_cdt_build(an_cdt *cdt, const an_allocator *alloc, vec2 box_min, vec2 box_max,
                           const vec2 *points, size_t point_count, const uint32_t *segments,
                           size_t segment_count, int32_t *vertex_of) {
  return an_cdt_build_ex(cdt, alloc, box_min, box_max, points, point_count, segments, segment_count,
                         NULL, vertex_of);
}

arcnav_status an_cdt_build_ex(an_cdt *cdt, const an_allocator *alloc, vec2 box_min, vec2 box_max,
                              const vec2 *points, size_t point_count, const uint32_t *segments,
                              size_t segment_count, an_cdt_options *options, int32_t *vertex_of) {
  if (options) {
    options->over_limit = false;
  }
  arcnav_status st = an_cdt_init(cdt, alloc, box_min, box_max);
  if (st != ARCNAV_OK) {
    return st;
  }
  if (point_count == 0) {
    return segment_count == 0 ? ARCNAV_OK : ARCNAV_ERR_INVALID_ARGUMENT;
  }
  if (point_count > (size_t)INT32_MAX / 8 || segment_count > (size_t)INT32_MAX / 8) {
    an_cdt_free(cdt);
    return ARCNAV_ERR_TOO_LARGE;
  }
  for (size_t s = 0; s < 2 * segment_count; ++s) {
    if (segments[s] >= point_count) {
      an_cdt_free(cdt);
      return ARCNAV_ERR_INVALID_ARGUMENT;
    }
  }
  build_lists lists = {.alloc = alloc};
  if (!an_reserve(alloc, (void **)&lists.points, &lists.point_capacity, 0, point_count,
                  sizeof(vec2))) {
    an_cdt_free(cdt);
    return ARCNAV_ERR_OUT_OF_MEMORY;
  }
  memcpy(lists.points, points, point_count * sizeof(vec2));
  lists.point_count = point_count;
  st = cut_segments(&lists, segments, segment_count, options);
  if (st == ARCNAV_ERR_TOO_LARGE && options) {
    options->over_limit = true;
  }
  size_t total = lists.point_count;
  an_order_key *keys = st == ARCNAV_OK ? an_alloc(alloc, total, sizeof *keys) : NULL;
  int32_t *map = st == ARCNAV_OK ? an_alloc(alloc, total, sizeof *map) : NULL;
  if (st == ARCNAV_OK && (!keys || !map)) {
    st = ARCNAV_ERR_OUT_OF_MEMORY;
  }
  if (st == ARCNAV_OK) {
    // Consecutive insertions close together keep each walk short.
    for (size_t i = 0; i < total; ++i) {
      keys[i].key = an_hilbert_index(lists.points[i], box_min, box_max);
      keys[i].index = (uint32_t)i;
    }
    qsort(keys, total, sizeof *keys, an_compare_order_keys);
    st = insert_points(cdt, box_min, box_max, lists.points, keys, total, map);
  }
  if (st == ARCNAV_OK) {
    if (lists.cut_count > 0) {
      qsort(lists.cuts, lists.cut_count, sizeof *lists.cuts, compare_cuts);
    }
    for (size_t k = 0; k + 1 < lists.cut_count && st == ARCNAV_OK; ++k) {
      if (lists.cuts[k].segment != lists.cuts[k + 1].segment) {
        continue;
      }
      st = an_cdt_insert_segment(cdt, map[lists.cuts[k].point], map[lists.cuts[k + 1].point]);
    }
  }
  if (st == ARCNAV_OK && vertex_of) {
    memcpy(vertex_of, map, point_count * sizeof *map);
  }
  an_free(alloc, keys);
  an_free(alloc, map);
  an_free(alloc, lists.points);
  an_free(alloc, lists.cuts);
  if (st != ARCNAV_OK) {
    an_cdt_free(cdt);
  }
  return st;
}
