// SPDX-License-Identifier: MIT
#include "path/path.h"

#include "geom/tolerances.h"

#include <assert.h>
#include <string.h>

arcnav_status arcnav_path_create(const arcnav_allocator *allocator, arcnav_path **out_path) {
  if (!out_path) {
    return ARCNAV_ERR_INVALID_ARGUMENT;
  }
  an_allocator alloc = an_allocator_from(allocator);
  arcnav_path *path = an_calloc(&alloc, 1, sizeof *path);
  *out_path = path;
  if (!path) {
    return ARCNAV_ERR_OUT_OF_MEMORY;
  }
  path->alloc = alloc;
  return ARCNAV_OK;
}

void arcnav_path_destroy(arcnav_path *path) {
  if (!path) {
    return;
  }
  an_allocator alloc = path->alloc;
  an_free(&alloc, path->pieces);
  an_free(&alloc, path);
}

void an_path_reset(arcnav_path *path, vec2 start, vec2 end) {
  path->count = 0;
  path->length = 0.0;
  path->start = start;
  path->end = end;
}

static arcnav_status push_piece(arcnav_path *path, const arcnav_piece *piece) {
  assert(piece->length > 0.0 && isfinite(piece->length));
  assert(v2_is_finite(piece->from) && v2_is_finite(piece->to));
  assert(piece->type == ARCNAV_PIECE_LINE || (piece->radius > 0.0 && piece->sweep > 0.0));
  if (!an_reserve(&path->alloc, (void **)&path->pieces, &path->capacity, path->count,
                  path->count + 1, sizeof *path->pieces)) {
    return ARCNAV_ERR_OUT_OF_MEMORY;
  }
  path->pieces[path->count++] = *piece;
  path->length += piece->length;
  return ARCNAV_OK;
}

// Where the next piece starts: where the last one ended, or the path's start. Engines compute a
// piece's ends on their own and may round them a few ulps apart; arcnav.h promises consecutive
// pieces share endpoints exactly.
static vec2 next_from(const arcnav_path *path, vec2 from) {
  return path->count > 0 ? path->pieces[path->count - 1].to : from;
}

arcnav_status an_path_add_line(arcnav_path *path, vec2 from, vec2 to) {
  from = next_from(path, from);
  double length = v2_dist(from, to);
  if (length == 0.0) {
    return ARCNAV_OK;
  }
  // A line that continues the previous one straight on (a zero-length turn in between) extends it,
  // so a path never reports two pieces where there is one segment.
  if (path->count > 0 && path->pieces[path->count - 1].type == ARCNAV_PIECE_LINE) {
    arcnav_piece *last = &path->pieces[path->count - 1];
    vec2 before = v2_sub(last->to, last->from), after = v2_sub(to, from);
    bool joined = last->to.x == from.x && last->to.y == from.y;
    if (joined && v2_dot(before, after) > 0.0 &&
        fabs(v2_cross(before, after)) <= AN_STRAIGHT_ON_RELATIVE * last->length * length) {
      path->length -= last->length;
      last->to = to;
      last->length = v2_dist(last->from, to);
      path->length += last->length;
      return ARCNAV_OK;
    }
  }
  arcnav_piece piece = {.type = ARCNAV_PIECE_LINE, .from = from, .to = to, .length = length};
  return push_piece(path, &piece);
}

arcnav_status an_path_add_arc(arcnav_path *path, vec2 center, double radius, vec2 from, vec2 to,
                              double sweep, bool ccw) {
  double length = radius * sweep;
  if (!(length > 0.0)) {
    return ARCNAV_OK;
  }
  from = next_from(path, from);
  arcnav_piece piece = {.type = ARCNAV_PIECE_ARC,
                        .from = from,
                        .to = to,
                        .center = center,
                        .radius = radius,
                        .sweep = sweep,
                        .ccw = ccw,
                        .length = length};
  return push_piece(path, &piece);
}

// Is `piece` as arcnav_piece describes it: finite, in range, an arc with a positive radius, a
// sweep in (0, 2 pi] and both ends on its circle? Ends are compared to within `slack`.
static arcnav_status check_piece(const arcnav_piece *piece, double slack) {
  if (piece->type != ARCNAV_PIECE_LINE && piece->type != ARCNAV_PIECE_ARC) {
    return ARCNAV_ERR_INVALID_ARGUMENT;
  }
  bool arc = piece->type == ARCNAV_PIECE_ARC;
  vec2 points[3] = {piece->from, piece->to, arc ? piece->center : piece->from};
  for (size_t i = 0; i < 3; ++i) {
    if (!v2_is_finite(points[i])) {
      return ARCNAV_ERR_NOT_FINITE;
    }
    if (!an_coordinate_in_range(points[i].x) || !an_coordinate_in_range(points[i].y)) {
      return ARCNAV_ERR_TOO_LARGE;
    }
  }
  if (!arc) {
    return ARCNAV_OK;
  }
  if (!isfinite(piece->radius) || !isfinite(piece->sweep)) {
    return ARCNAV_ERR_NOT_FINITE;
  }
  if (!(piece->radius > 0.0) || !an_coordinate_in_range(piece->radius) ||
      !(piece->sweep > 0.0 && piece->sweep <= 2.0 * AN_PI) ||
      fabs(v2_dist(piece->from, piece->center) - piece->radius) > slack ||
      fabs(v2_dist(piece->to, piece->center) - piece->radius) > slack) {
    return ARCNAV_ERR_INVALID_ARGUMENT;
  }
  return ARCNAV_OK;
}

arcnav_status arcnav_path_assign(arcnav_path *path, const arcnav_piece *pieces, size_t count) {
  if (!path || (count > 0 && !pieces)) {
    return ARCNAV_ERR_INVALID_ARGUMENT;
  }
  // Ends are compared with the tolerance rule of arcnav.h, for a map as large as the path.
  double scale = 1.0;
  for (size_t i = 0; i < count; ++i) {
    scale = an_max(scale, an_max(an_max(fabs(pieces[i].from.x), fabs(pieces[i].from.y)),
                                 an_max(fabs(pieces[i].to.x), fabs(pieces[i].to.y))));
  }
  double slack = AN_MAP_TOLERANCE_RELATIVE * scale;
  for (size_t i = 0; i < count; ++i) {
    arcnav_status status = check_piece(&pieces[i], slack);
    if (status != ARCNAV_OK) {
      return status;
    }
    if (i > 0 && v2_dist(pieces[i - 1].to, pieces[i].from) > slack) {
      return ARCNAV_ERR_INVALID_ARGUMENT;
    }
  }
  if (count > 0 && !an_reserve(&path->alloc, (void **)&path->pieces, &path->capacity, 0, count,
                               sizeof *path->pieces)) {
    return ARCNAV_ERR_OUT_OF_MEMORY;
  }
  an_path_reset(path, count > 0 ? pieces[0].from : v2(0, 0),
                count > 0 ? pieces[count - 1].to : v2(0, 0));
  for (size_t i = 0; i < count; ++i) {
    arcnav_piece piece = pieces[i];
    piece.length = piece.type == ARCNAV_PIECE_LINE ? v2_dist(piece.from, piece.to)
                                                   : piece.radius * piece.sweep;
    if (piece.type == ARCNAV_PIECE_LINE) {
      piece.center = v2(0, 0);
      piece.radius = piece.sweep = 0.0;
      piece.ccw = false;
    }
    path->pieces[path->count++] = piece;
    path->length += piece.length;
  }
  return ARCNAV_OK;
}

size_t arcnav_path_piece_count(const arcnav_path *path) {
  return path ? path->count : 0;
}

arcnav_piece arcnav_path_piece(const arcnav_path *path, size_t index) {
  arcnav_piece none;
  memset(&none, 0, sizeof none);
  return path && index < path->count ? path->pieces[index] : none;
}

double arcnav_path_length(const arcnav_path *path) {
  return path ? path->length : 0.0;
}
arcnav_vec2 arcnav_path_start(const arcnav_path *path) {
  return path ? path->start : v2(0, 0);
}
arcnav_vec2 arcnav_path_end(const arcnav_path *path) {
  return path ? path->end : v2(0, 0);
}

// Position and heading at distance s (0 <= s <= length) into one piece.
static void piece_point(const arcnav_piece *piece, double s, vec2 *position, vec2 *heading) {
  if (piece->type == ARCNAV_PIECE_LINE) {
    vec2 dir = v2_normalize(v2_sub(piece->to, piece->from));
    *position = s >= piece->length ? piece->to : v2_mul_add(piece->from, s, dir);
    *heading = dir;
    return;
  }
  double start_angle = v2_angle(v2_sub(piece->from, piece->center));
  double turned = piece->radius > 0.0 ? s / piece->radius : 0.0;
  double angle = piece->ccw ? start_angle + turned : start_angle - turned;
  *position = s >= piece->length ? piece->to : an_circle_point(piece->center, piece->radius, angle);
  vec2 radial = v2_from_angle(angle);
  *heading = piece->ccw ? v2_perp(radial) : v2_scale(v2_perp(radial), -1.0);
}

void arcnav_path_point_at(const arcnav_path *path, double distance, arcnav_vec2 *out_position,
                          arcnav_vec2 *out_heading) {
  vec2 position = path ? path->start : v2(0, 0), heading = v2(1.0, 0.0);
  if (path && path->count > 0) {
    double s = isfinite(distance) ? an_max(0.0, an_min(distance, path->length)) : 0.0;
    if (isnan(distance)) {
      s = 0.0;
    } else if (distance == INFINITY) {
      s = path->length;
    }
    size_t i = 0;
    while (i + 1 < path->count && s > path->pieces[i].length) {
      s -= path->pieces[i].length;
      ++i;
    }
    piece_point(&path->pieces[i], an_min(s, path->pieces[i].length), &position, &heading);
  }
  if (out_position) {
    *out_position = position;
  }
  if (out_heading) {
    *out_heading = heading;
  }
}

arcnav_status arcnav_path_sample(const arcnav_path *path, double spacing, arcnav_vec2 *out_points,
                                 size_t max_points, size_t *out_count) {
  if (!path || !out_count || !(spacing > 0.0) || !isfinite(spacing)) {
    return ARCNAV_ERR_INVALID_ARGUMENT;
  }
  // Samples at 0, spacing, 2 spacing, ... below the length, then the end point.
  double steps = floor(path->length / spacing);
  if (steps > AN_PATH_MAX_SAMPLES) {
    return ARCNAV_ERR_TOO_LARGE;
  }
  size_t interior = (size_t)steps;
  if (interior > 0 && (double)interior * spacing >= path->length) {
    --interior;
  }
  size_t needed = path->count == 0 ? 1 : interior + 2;
  *out_count = needed;
  if (!out_points) {
    // Only the size was asked for; a NULL buffer said to hold points is misuse.
    return max_points == 0 ? ARCNAV_OK : ARCNAV_ERR_INVALID_ARGUMENT;
  }
  // A short buffer gets the first max_points samples of the same sequence.
  arcnav_status status = needed > max_points ? ARCNAV_ERR_BUFFER_TOO_SMALL : ARCNAV_OK;
  if (max_points == 0) {
    return status;
  }
  if (path->count == 0) {
    out_points[0] = path->start;
    return ARCNAV_OK;
  }
  // Walk the pieces once instead of searching from the start for every sample.
  size_t piece = 0;
  double piece_begin = 0.0;
  size_t written = interior + 1 < max_points ? interior + 1 : max_points;
  for (size_t k = 0; k < written; ++k) {
    double s = (double)k * spacing;
    while (piece + 1 < path->count && s > piece_begin + path->pieces[piece].length) {
      piece_begin += path->pieces[piece].length;
      ++piece;
    }
    vec2 heading;
    piece_point(&path->pieces[piece], an_min(s - piece_begin, path->pieces[piece].length),
                &out_points[k], &heading);
  }
  if (status == ARCNAV_OK) {
    out_points[interior + 1] = path->pieces[path->count - 1].to;
  }
  return status;
}
