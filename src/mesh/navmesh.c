// SPDX-License-Identifier: MIT
// The navmesh as an object: its accessors and its release. Building it is navmesh_build.c's job,
// locating points in it navmesh_locate.c's.
#include "mesh/navmesh.h"

#include <math.h>

static void free_mesh_arrays(an_navmesh *mesh) {
  an_free(&mesh->alloc, mesh->free_of);
  an_free(&mesh->alloc, mesh->tri_of);
  an_free(&mesh->alloc, mesh->fv);
  an_free(&mesh->alloc, mesh->fn);
  an_free(&mesh->alloc, mesh->component);
  an_widest_forest_destroy(&mesh->passages, &mesh->alloc);
  an_free(&mesh->alloc, mesh->grid);
  an_cdt_free(&mesh->cdt);
}

void an_navmesh_destroy(an_navmesh *mesh) {
  if (!mesh) {
    return;
  }
  an_allocator alloc = mesh->alloc;
  free_mesh_arrays(mesh);
  an_free(&alloc, mesh);
}

double an_navmesh_passage_width(const an_navmesh *mesh, int32_t a, int32_t b) {
  return mesh->passages.nodes ? an_widest_forest_width(&mesh->passages, a, b) : INFINITY;
}

size_t an_navmesh_triangle_count(const an_navmesh *mesh) {
  return mesh->free_count - mesh->connector_count;
}

void an_navmesh_triangle(const an_navmesh *mesh, size_t index, vec2 out[3]) {
  for (int k = 0; k < 3; ++k) {
    out[k] = mesh->cdt.points[mesh->fv[3 * index + (size_t)k]];
  }
}

size_t an_navmesh_memory_bytes(const an_navmesh *mesh) {
  const an_cdt *c = &mesh->cdt;
  return sizeof *mesh + c->point_capacity * sizeof(vec2) +
         c->vertex_tri_capacity * sizeof(int32_t) + c->tri_capacity * sizeof(an_cdt_tri) +
         c->stack_capacity * sizeof(int32_t) + c->tri_count * sizeof(int32_t) +
         mesh->free_count * 8 * sizeof(int32_t) + an_widest_forest_memory_bytes(&mesh->passages) +
         (size_t)mesh->grid_w * (size_t)mesh->grid_h * sizeof(int32_t);
}
