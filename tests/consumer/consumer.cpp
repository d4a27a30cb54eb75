// SPDX-License-Identifier: MIT
// A C++ program using installed or embedded arcnav (scripts/consumer-test.sh builds it four ways).
// Two boxes, [-3, 3] x [2, 4] and [-3, 3] x [-4, -2], leave a corridor 4 wide along the x axis. A
// unit of radius 1 fits (it needs 2), so from (-10, 0) to (10, 0) it goes straight: length 20,
// and at distance d it is at (-10 + d, 0). A unit of radius 2.5 does not fit, and its start and
// goal are 7 from the boxes, so it goes around them: longer than 20. A start inside a box is
// refused.
#include <arcnav/arcnav.h>

#include <cmath>
#include <cstdio>
#include <memory>

namespace {

struct map_deleter {
  void operator()(arcnav_map *map) const { arcnav_map_destroy(map); }
};
struct planner_deleter {
  void operator()(arcnav_planner *planner) const { arcnav_planner_destroy(planner); }
};
struct query_deleter {
  void operator()(arcnav_query *query) const { arcnav_query_destroy(query); }
};
struct path_deleter {
  void operator()(arcnav_path *path) const { arcnav_path_destroy(path); }
};
using map_ptr = std::unique_ptr<arcnav_map, map_deleter>;
using planner_ptr = std::unique_ptr<arcnav_planner, planner_deleter>;
using query_ptr = std::unique_ptr<arcnav_query, query_deleter>;
using path_ptr = std::unique_ptr<arcnav_path, path_deleter>;

int failures = 0;

void check(bool ok, const char *what, double got, double want) {
  if (!ok) {
    std::fprintf(stderr, "consumer_cxx: %s: got %.17g, want %.17g\n", what, got, want);
    failures++;
  }
}

arcnav_vec2 vec(double x, double y) {
  arcnav_vec2 v;
  v.x = x;
  v.y = y;
  return v;
}

struct planned {
  arcnav_status status;
  double length;
  arcnav_vec2 at_five;
};

planned plan(const arcnav_map *map, double radius, arcnav_vec2 start, arcnav_vec2 goal) {
  arcnav_planner_def def = arcnav_default_planner_def();
  def.radius = radius;
  arcnav_planner *raw_planner = nullptr;
  arcnav_query *raw_query = nullptr;
  arcnav_path *raw_path = nullptr;
  planned out = {ARCNAV_ERR_INVALID_ARGUMENT, 0, vec(0, 0)};
  if (arcnav_planner_create(map, &def, &raw_planner) != ARCNAV_OK) {
    return out;
  }
  planner_ptr planner(raw_planner);
  if (arcnav_query_create(planner.get(), &raw_query) != ARCNAV_OK) {
    return out;
  }
  query_ptr query(raw_query);
  if (arcnav_path_create(nullptr, &raw_path) != ARCNAV_OK) {
    return out;
  }
  path_ptr path(raw_path);
  out.status = arcnav_find_path(query.get(), start, goal, path.get());
  out.length = arcnav_path_length(path.get());
  arcnav_vec2 heading;
  arcnav_path_point_at(path.get(), 5.0, &out.at_five, &heading);
  return out;
}

} // namespace

int main() {
  arcnav_map *raw_map = nullptr;
  if (arcnav_map_create(nullptr, &raw_map) != ARCNAV_OK) {
    std::fprintf(stderr, "consumer_cxx: cannot create the map\n");
    return 1;
  }
  map_ptr map(raw_map);
  const arcnav_vec2 upper[4] = {vec(-3, 2), vec(3, 2), vec(3, 4), vec(-3, 4)};
  const arcnav_vec2 lower[4] = {vec(-3, -4), vec(3, -4), vec(3, -2), vec(-3, -2)};
  arcnav_error error;
  if (arcnav_map_add_polygon(map.get(), upper, 4, nullptr, nullptr, 0, &error) != ARCNAV_OK ||
      arcnav_map_add_polygon(map.get(), lower, 4, nullptr, nullptr, 0, &error) != ARCNAV_OK) {
    std::fprintf(stderr, "consumer_cxx: %s\n", arcnav_status_message(error.status));
    return 1;
  }

  planned straight = plan(map.get(), 1.0, vec(-10, 0), vec(10, 0));
  check(straight.status == ARCNAV_OK, "radius 1 status", straight.status, ARCNAV_OK);
  check(std::fabs(straight.length - 20) <= 1e-9, "radius 1 length", straight.length, 20);
  check(std::fabs(straight.at_five.x + 5) <= 1e-9, "radius 1 x at 5", straight.at_five.x, -5);
  check(std::fabs(straight.at_five.y) <= 1e-9, "radius 1 y at 5", straight.at_five.y, 0);

  planned around = plan(map.get(), 2.5, vec(-10, 0), vec(10, 0));
  check(around.status == ARCNAV_OK, "radius 2.5 status", around.status, ARCNAV_OK);
  check(around.length > 20 + 1e-6, "radius 2.5 length", around.length, 20);

  planned blocked = plan(map.get(), 1.0, vec(0, 3), vec(10, 0));
  check(blocked.status == ARCNAV_START_BLOCKED, "blocked start status", blocked.status,
        ARCNAV_START_BLOCKED);

  if (failures != 0) {
    return 1;
  }
  std::printf("consumer_cxx: ok (straight corridor: length %.12f, by hand 20)\n", straight.length);
  return 0;
}
