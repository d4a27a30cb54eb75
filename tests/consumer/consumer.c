// SPDX-License-Identifier: MIT
// A C program using installed or embedded arcnav (scripts/consumer-test.sh builds it four ways).
// A unit of radius 1 goes from (-5, 5) to (15, 5) past the square [0, 10] x [0, 10]. By hand: it
// leaves the start on a tangent to the circle of radius 1 around the corner (0, 10), whose centre
// is sqrt(50) away, so the tangent is sqrt(50 - 1) = 7 long and leaves at 45 degrees + atan(1/7);
// it turns on that circle to heading 0 (pi/4 + atan(1/7) radians), runs 10 along y = 11, and
// comes down the same way mirrored. (Going under the square is as long.)
#include <arcnav/arcnav.h>
#include <math.h>
#include <stdio.h>

static int failures;

static void check(int ok, const char *what, double got, double want) {
  if (!ok) {
    fprintf(stderr, "consumer_c: %s: got %.17g, want %.17g\n", what, got, want);
    failures++;
  }
}

// Distance from p to the square [0, 10] x [0, 10] (0 inside).
static double square_distance(arcnav_vec2 p) {
  double dx = p.x < 0 ? -p.x : (p.x > 10 ? p.x - 10 : 0);
  double dy = p.y < 0 ? -p.y : (p.y > 10 ? p.y - 10 : 0);
  return sqrt(dx * dx + dy * dy);
}

int main(void) {
  const double pi = 3.14159265358979323846;
  const double want = 24.0 + pi / 2.0 + 2.0 * atan(1.0 / 7.0);
  arcnav_map *map = NULL;
  arcnav_planner *planner = NULL;
  arcnav_query *query = NULL;
  arcnav_path *path = NULL;
  arcnav_vec2 square[4] = {{0, 0}, {10, 0}, {10, 10}, {0, 10}};
  arcnav_vec2 start = {-5, 5}, goal = {15, 5};
  double length = 0;

  if (arcnav_map_create(NULL, &map) != ARCNAV_OK ||
      arcnav_map_add_polygon(map, square, 4, NULL, NULL, 0, NULL) != ARCNAV_OK) {
    fprintf(stderr, "consumer_c: cannot build the map\n");
    return 1;
  }
  arcnav_planner_def def = arcnav_default_planner_def();
  def.radius = 1.0;
  if (arcnav_planner_create(map, &def, &planner) != ARCNAV_OK ||
      arcnav_query_create(planner, &query) != ARCNAV_OK ||
      arcnav_path_create(NULL, &path) != ARCNAV_OK) {
    fprintf(stderr, "consumer_c: cannot create the planner, query or path\n");
    return 1;
  }

  arcnav_status status = arcnav_find_path(query, start, goal, path);
  check(status == ARCNAV_OK, arcnav_status_name(status), (double)status, ARCNAV_OK);
  if (status == ARCNAV_OK) {
    length = arcnav_path_length(path);
    check(fabs(length - want) <= 1e-9 * want, "length", length, want);

    // The pieces join up, from the start to the goal, and add up to the length.
    size_t count = arcnav_path_piece_count(path);
    double sum = 0;
    arcnav_vec2 at = start;
    for (size_t i = 0; i < count; i++) {
      arcnav_piece piece = arcnav_path_piece(path, i);
      check(fabs(piece.from.x - at.x) + fabs(piece.from.y - at.y) <= 1e-9, "piece start x",
            piece.from.x, at.x);
      at = piece.to;
      sum += piece.length;
    }
    check(fabs(at.x - goal.x) + fabs(at.y - goal.y) <= 1e-9, "path end x", at.x, goal.x);
    check(fabs(sum - length) <= 1e-9 * want, "sum of pieces", sum, length);

    // Half way along, by symmetry, the unit is over or under the middle of the square, heading
    // along +x.
    arcnav_vec2 middle, heading;
    arcnav_path_point_at(path, length / 2, &middle, &heading);
    check(fabs(middle.x - 5) <= 1e-9, "middle x", middle.x, 5);
    check(fabs(middle.y - 11) <= 1e-9 || fabs(middle.y + 1) <= 1e-9, "middle y", middle.y, 11);
    check(fabs(heading.x - 1) <= 1e-9 && fabs(heading.y) <= 1e-9, "heading x", heading.x, 1);

    // Every sampled point keeps the radius from the square.
    arcnav_vec2 points[512];
    size_t n = 0;
    status = arcnav_path_sample(path, 0.1, points, 512, &n);
    check(status == ARCNAV_OK && n > 250 && n <= 512, "sample count", (double)n, 260);
    for (size_t i = 0; i < n && i < 512; i++) {
      double d = square_distance(points[i]);
      check(d >= 1 - 1e-9, "clearance", d, 1);
    }
  }

  // A start inside the square is refused.
  status = arcnav_find_path(query, (arcnav_vec2){5, 5}, goal, path);
  check(status == ARCNAV_START_BLOCKED, "blocked start status", (double)status,
        ARCNAV_START_BLOCKED);

  arcnav_path_destroy(path);
  arcnav_query_destroy(query);
  arcnav_planner_destroy(planner);
  arcnav_map_destroy(map);
  if (failures) {
    return 1;
  }
  printf("consumer_c: ok (around a square: length %.12f, by hand %.12f)\n", length, want);
  return 0;
}
