// SPDX-License-Identifier: MIT
#include "index/free_space.h"

#include "geom/tolerances.h"

arcnav_status an_free_space_build(const arcnav_map *map, double radius, double eps,
                                  const an_allocator *alloc, an_free_space *space) {
  return an_free_space_build_reaching(map, radius, radius, eps, alloc, space);
}

arcnav_status an_free_space_build_reaching(const arcnav_map *map, double radius,
                                           double reach_radius, double eps,
                                           const an_allocator *alloc, an_free_space *space) {
  // Pieces are filed with a margin of a few tolerances beyond the radius, so that anything a
  // check could count as touching is found in the cells the check visits.
  double reach = an_max(radius, reach_radius) + AN_FILING_MARGIN_TOLERANCES * eps;
  an_clearance base = {.grid = &space->grid, .eps = eps, .has_bounds = map->has_bounds};
  space->clearance = an_clearance_at_radius(&base, radius);
  return an_grid_build(map, reach, alloc, &space->grid);
}

void an_free_space_share(const an_free_space *from, double radius, an_free_space *space) {
  space->grid = from->grid;
  space->clearance = an_clearance_at_radius(&from->clearance, radius);
  space->clearance.grid = &space->grid;
}

void an_free_space_destroy(an_free_space *space, const an_allocator *alloc) {
  an_grid_destroy(&space->grid, alloc);
}

size_t an_free_space_memory_bytes(const an_free_space *space) {
  return an_grid_memory_bytes(&space->grid);
}

bool an_free_space_point_is_free_once(const an_free_space *space, double radius,
                                      const an_allocator *alloc, vec2 point) {
  an_clearance_scratch scratch;
  if (an_clearance_scratch_init(&scratch, &space->grid, alloc) != ARCNAV_OK) {
    return false;
  }
  an_clearance settings = an_clearance_at_radius(&space->clearance, radius);
  bool free_here = an_point_is_free(&settings, &scratch, point);
  an_clearance_scratch_free(&scratch, alloc);
  return free_here;
}
