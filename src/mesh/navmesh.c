// SPDX-License-Identifier: MIT
// The navmesh as an object: its accessors and its release. Building it is navmesh_build.c's job,
// locating points in it navmesh_locate.c's.
#include "mesh/navmesh.h"

#include "search/marks.h"

#include <math.h>
#include <string.h>

void an_navmesh_free_triangle_arrays(an_navmesh *mesh) {
  an_navmesh_rows rows = an_navmesh_take_rows(mesh);
  if (!mesh->borrows_triangulation) {
    an_navmesh_rows_free(&rows, &mesh->alloc);
  }
}

void an_navmesh_rows_free(an_navmesh_rows *rows, const an_allocator *alloc) {
  an_free(alloc, rows->free_of);
  an_free(alloc, rows->tri_of);
  an_free(alloc, rows->fv);
  an_free(alloc, rows->fn);
  an_free(alloc, rows->component);
  an_free(alloc, rows->corner);
  an_free(alloc, rows->dead_apex);
  memset(rows, 0, sizeof *rows);
}

void an_navmesh_rewrites_free(an_navmesh_rewrites *rewrites, const an_allocator *alloc) {
  an_free(alloc, rewrites->rows);
  an_free(alloc, rewrites->vertices);
  memset(rewrites, 0, sizeof *rewrites);
}

// The room an array has: what a local change gave it, or else what it holds.
static size_t room_of(size_t room, size_t held) {
  return room > held ? room : held;
}

an_navmesh_rows an_navmesh_take_rows(an_navmesh *mesh) {
  an_navmesh_rows rows = {mesh->free_of,
                          mesh->tri_of,
                          mesh->fv,
                          mesh->fn,
                          mesh->component,
                          mesh->dead_apex,
                          mesh->corner,
                          mesh->cdt.tri_count,
                          mesh->free_count,
                          mesh->cdt.point_count,
                          room_of(mesh->slot_room, mesh->cdt.tri_count),
                          room_of(mesh->row_room, mesh->free_count),
                          room_of(mesh->vertex_room, mesh->cdt.point_count)};
  mesh->free_of = mesh->tri_of = mesh->fv = mesh->fn = mesh->component = mesh->dead_apex = NULL;
  mesh->corner = NULL;
  mesh->slot_room = mesh->row_room = mesh->vertex_room = 0;
  return rows;
}

void an_navmesh_put_rows(an_navmesh *mesh, const an_navmesh_rows *rows) {
  mesh->free_of = rows->free_of;
  mesh->tri_of = rows->tri_of;
  mesh->fv = rows->fv;
  mesh->fn = rows->fn;
  mesh->component = rows->component;
  mesh->dead_apex = rows->dead_apex;
  mesh->corner = rows->corner;
  mesh->free_count = rows->rows;
  mesh->slot_room = rows->slot_room;
  mesh->row_room = rows->row_room;
  mesh->vertex_room = rows->vertex_room;
}

static void free_mesh_arrays(an_navmesh *mesh) {
  an_navmesh_free_triangle_arrays(mesh);
  if (!mesh->borrows_triangulation) {
    an_cdt_free(&mesh->cdt);
  }
  an_blocked_forest_destroy(&mesh->passages, &mesh->alloc);
  an_free(&mesh->alloc, mesh->portal_width);
  an_free(&mesh->alloc, mesh->renewed);
  an_landmarks_free(&mesh->landmarks, &mesh->alloc);
  an_free(&mesh->alloc, mesh->grid);
  an_cdt_free(&mesh->spare);
  an_cdt_edit_free(&mesh->last_edit, &mesh->alloc);
  an_navmesh_rows_free(&mesh->spare_rows, &mesh->alloc);
  an_navmesh_rewrites_free(&mesh->last_rewrites, &mesh->alloc);
}

void an_navmesh_destroy(an_navmesh *mesh) {
  if (!mesh) {
    return;
  }
  if (mesh->sharers > 0) {
    mesh->sharers--;
    return;
  }
  an_allocator alloc = mesh->alloc;
  free_mesh_arrays(mesh);
  an_free(&alloc, mesh);
}

void an_navmesh_hand_down(an_navmesh *from, an_navmesh *to) {
  if (!from || !to || to->cloned_from != from || !to->edited_borrowed || to->spare.points ||
      to->spare.tris || from->borrows_triangulation || from->sharers > 0) {
    return;
  }
  // The rows first: they are told by the triangulation's counts.
  an_navmesh_rows_free(&to->spare_rows, &to->alloc);
  to->spare_rows = an_navmesh_take_rows(from);
  an_cdt_free(&to->spare);
  to->spare = an_cdt_take(&from->cdt);
  to->spare_behind = true;
}

an_navmesh *an_navmesh_share(an_navmesh *mesh) {
  mesh->sharers++;
  return mesh;
}

// Every array copied but the spare ones (the copy makes its own at its first local change). To be
// changed, the triangulation is borrowed: the change copies it again to edit (a tenth of a local
// update on Expedition went to copying it twice), and the forest of the widest passages is left
// out, since the change drops it. A copy that stays as it was keeps the forest and the portals'
// widths: building them again cost half of a unit's update on Expedition (a unit is a circle,
// which the polygons' triangulation leaves out).
arcnav_status an_navmesh_clone(const an_navmesh *mesh, bool to_change, an_navmesh **out) {
  *out = NULL;
  const an_allocator *alloc = &mesh->alloc;
  an_navmesh *copy = an_calloc(alloc, 1, sizeof *copy);
  if (!copy) {
    return ARCNAV_ERR_OUT_OF_MEMORY;
  }
  *copy = *mesh;
  copy->spare = (an_cdt){0};
  copy->last_edit = (an_cdt_edit){NULL, 0, 0};
  copy->spare_behind = copy->edited_borrowed = false;
  memset(&copy->spare_rows, 0, sizeof copy->spare_rows);
  memset(&copy->last_rewrites, 0, sizeof copy->last_rewrites);
  if (!to_change) {
    copy->slot_room = copy->row_room = copy->vertex_room = 0; // copied as they hold
  }
  if (to_change && mesh->spare_behind) {
    // The spare arrays are scratch, which `mesh` only ever writes to change: the copy to be
    // changed takes them, behind by the same edit.
    an_navmesh *donor = (an_navmesh *)mesh;
    copy->spare = an_cdt_take(&donor->spare);
    copy->last_edit = donor->last_edit;
    copy->spare_rows = donor->spare_rows;
    copy->last_rewrites = donor->last_rewrites;
    copy->spare_behind = true;
    donor->last_edit = (an_cdt_edit){NULL, 0, 0};
    memset(&donor->spare_rows, 0, sizeof donor->spare_rows);
    memset(&donor->last_rewrites, 0, sizeof donor->last_rewrites);
    donor->spare_behind = false;
  }
  copy->passages = (an_blocked_forest){0};
  copy->portal_width = NULL;
  copy->cloned_from = mesh;
  copy->sharers = 0;
  copy->renewed = NULL;
  copy->renewed_count = 0;
  copy->borrows_triangulation = to_change;
  size_t tris = mesh->cdt.tri_count, free_count = mesh->free_count;
  size_t points = mesh->corner ? mesh->cdt.point_count : 0;
  size_t cells = (size_t)mesh->grid_w * (size_t)mesh->grid_h;
  size_t distances = mesh->landmarks.vertex_count * mesh->landmarks.count;
  arcnav_status status = ARCNAV_OK;
  if (!to_change) {
    copy->cdt = (an_cdt){0};
    copy->free_of = an_duplicate(alloc, mesh->free_of, tris, sizeof *copy->free_of);
    copy->tri_of = an_duplicate(alloc, mesh->tri_of, free_count, sizeof *copy->tri_of);
    copy->fv = an_duplicate(alloc, mesh->fv, 3 * free_count, sizeof *copy->fv);
    copy->fn = an_duplicate(alloc, mesh->fn, 3 * free_count, sizeof *copy->fn);
    copy->component = an_duplicate(alloc, mesh->component, free_count, sizeof *copy->component);
    copy->corner = an_duplicate(alloc, mesh->corner, points, sizeof *copy->corner);
    copy->dead_apex = an_duplicate(alloc, mesh->dead_apex, points, sizeof *copy->dead_apex);
    status = an_cdt_copy(&mesh->cdt, 0, &copy->cdt);
    if (mesh->passages.blocks) {
      copy->portal_width =
          an_duplicate(alloc, mesh->portal_width, 3 * free_count, sizeof *copy->portal_width);
      if (an_blocked_forest_share(&mesh->passages, alloc, &copy->passages) != ARCNAV_OK ||
          (!copy->portal_width && free_count > 0)) {
        status = ARCNAV_ERR_OUT_OF_MEMORY;
      }
    }
  }
  copy->grid = an_duplicate(alloc, mesh->grid, cells, sizeof *copy->grid);
  copy->landmarks.code =
      an_duplicate(alloc, mesh->landmarks.code, distances, sizeof *copy->landmarks.code);
  copy->landmarks.capacity = copy->landmarks.code ? distances : 0;
  bool copied = copy->free_of && (copy->tri_of || free_count == 0) &&
                (copy->fv || free_count == 0) && (copy->fn || free_count == 0) &&
                (copy->component || free_count == 0) && (copy->corner || points == 0) &&
                (copy->dead_apex || points == 0) && copy->grid &&
                (copy->landmarks.code || distances == 0);
  if (status != ARCNAV_OK || !copied) {
    an_navmesh_destroy(copy);
    return ARCNAV_ERR_OUT_OF_MEMORY;
  }
  if (distances == 0) {
    copy->landmarks = (an_landmarks){0};
  }
  *out = copy;
  return ARCNAV_OK;
}

// The free numbers below which `mesh` keeps `before`'s triangles but those its copy's record
// lists (an_navmesh.renewed): all of them for the same mesh, those both have for a copy changed
// locally, none for another mesh.
static size_t kept_below(const an_navmesh *before, const an_navmesh *mesh) {
  size_t count = mesh->free_count;
  if (mesh == before) {
    return count;
  }
  return mesh->cloned_from == before ? (before->free_count < count ? before->free_count : count)
                                     : 0;
}

uint8_t *an_navmesh_kept_triangles(const an_navmesh *before, const an_navmesh *mesh) {
  size_t count = mesh->free_count;
  uint8_t *kept = an_alloc(&mesh->alloc, count + 1, sizeof *kept);
  if (!kept) {
    return NULL;
  }
  size_t both = kept_below(before, mesh);
  memset(kept, 1, both);
  memset(kept + both, 0, count - both);
  for (size_t k = 0; k < mesh->renewed_count; ++k) {
    if ((size_t)mesh->renewed[k] < count) {
      kept[mesh->renewed[k]] = 0;
    }
  }
  return kept;
}

bool an_navmesh_renewed_numbers(const an_navmesh *before, const an_navmesh *mesh, uint8_t **marks,
                                uint32_t **list, size_t *count) {
  size_t old_count = before->free_count, new_count = mesh->free_count;
  size_t most = old_count > new_count ? old_count : new_count, both = kept_below(before, mesh);
  *marks = an_calloc(&mesh->alloc, most + 1, sizeof **marks);
  *list = an_alloc(&mesh->alloc, mesh->renewed_count + most - both + 1, sizeof **list);
  *count = 0;
  if (!*marks || !*list) {
    return false;
  }
  for (size_t k = 0; k < mesh->renewed_count; ++k) {
    uint32_t f = (uint32_t)mesh->renewed[k];
    if (f < most && !(*marks)[f]) {
      (*marks)[f] = 1;
      (*list)[(*count)++] = f;
    }
  }
  for (size_t f = both; f < most; ++f) {
    if (!(*marks)[f]) {
      (*marks)[f] = 1;
      (*list)[(*count)++] = (uint32_t)f;
    }
  }
  return true;
}

double an_navmesh_passage_width(const an_navmesh *mesh, int32_t a, int32_t b) {
  return mesh->passages.blocks
             ? an_blocked_forest_width(&mesh->passages, an_navmesh_passage_node(mesh, a),
                                       an_navmesh_passage_node(mesh, b))
             : INFINITY;
}

void an_passage_flood_free(an_passage_flood *flood, const an_allocator *alloc) {
  an_free(alloc, flood->seen);
  an_free(alloc, flood->stack);
  memset(flood, 0, sizeof *flood);
}

static bool passage_flood_ready(an_passage_flood *flood, size_t triangles,
                                const an_allocator *alloc) {
  if (flood->capacity < triangles) {
    an_passage_flood_free(flood, alloc);
    flood->seen = an_calloc(alloc, triangles, sizeof *flood->seen);
    flood->stack = an_alloc(alloc, triangles, sizeof *flood->stack);
    if (!flood->seen || !flood->stack) {
      an_passage_flood_free(flood, alloc);
      return false;
    }
    flood->capacity = triangles;
  }
  if (an_stamp_next(&flood->stamp)) {
    memset(flood->seen, 0, flood->capacity * sizeof *flood->seen);
  }
  return true;
}

size_t an_navmesh_flood_passages(const an_navmesh *mesh, int32_t start, double width, size_t limit,
                                 an_passage_flood *flood, const an_allocator *alloc,
                                 void (*visit)(void *context, int32_t triangle), void *context) {
  if (!mesh->passages.blocks || !mesh->portal_width || mesh->whole_plane ||
      !passage_flood_ready(flood, mesh->free_count, alloc)) {
    return SIZE_MAX;
  }
  // The part is the forest's: the triangles that hang from start's top at this width, which are
  // those a chain of the forest's links at least `width` wide joins to it
  // (an_blocked_forest_top()). The links are the portals between free triangles, so a flood across
  // the portals at least that wide finds the part, one float a portal instead of a walk up the
  // forest.
  uint32_t stamp = flood->stamp;
  size_t depth = 0, visited = 0;
  flood->seen[start] = stamp;
  flood->stack[depth++] = start;
  while (depth > 0) {
    int32_t t = flood->stack[--depth];
    if (++visited > limit) {
      return SIZE_MAX;
    }
    visit(context, t);
    for (int i = 0; i < 3; ++i) {
      int32_t u = mesh->fn[3 * (size_t)t + (size_t)i];
      if (u >= 0 && flood->seen[u] != stamp &&
          an_navmesh_link_width(mesh->fn, mesh->portal_width, (size_t)t, i) >= width) {
        flood->seen[u] = stamp;
        flood->stack[depth++] = u;
      }
    }
  }
  return visited;
}

size_t an_navmesh_triangle_count(const an_navmesh *mesh) {
  return mesh->free_count - mesh->connector_count;
}

void an_navmesh_triangle(const an_navmesh *mesh, size_t index, vec2 out[3]) {
  for (int k = 0; k < 3; ++k) {
    out[k] = mesh->cdt.points[mesh->fv[3 * index + (size_t)k]];
  }
}

// The spare free triangles' arrays (an_navmesh.spare_rows): a slot's number, a row's seven
// numbers, a vertex's corner byte and dead apex.
static size_t spare_rows_bytes(const an_navmesh *mesh) {
  const an_navmesh_rows *s = &mesh->spare_rows;
  return s->free_of ? s->slot_room * sizeof(int32_t) + s->row_room * 8 * sizeof(int32_t) +
                          s->vertex_room * (sizeof(uint8_t) + sizeof(int32_t))
                    : 0;
}

size_t an_navmesh_memory_bytes(const an_navmesh *mesh) {
  const an_cdt *c = &mesh->cdt, *s = &mesh->spare;
  return sizeof *mesh + (c->point_capacity + s->point_capacity) * sizeof(vec2) +
         (c->vertex_tri_capacity + s->vertex_tri_capacity) * sizeof(int32_t) +
         (c->tri_capacity + s->tri_capacity) * sizeof(an_cdt_tri) +
         (c->stack_capacity + s->stack_capacity) * sizeof(int32_t) +
         c->tri_count * sizeof(int32_t) + mesh->free_count * 8 * sizeof(int32_t) +
         (mesh->corner ? c->point_count * (sizeof *mesh->corner + sizeof *mesh->dead_apex) : 0) +
         an_blocked_forest_memory_bytes(&mesh->passages) +
         (mesh->portal_width ? 3 * mesh->free_count * sizeof *mesh->portal_width : 0) +
         mesh->renewed_count * sizeof *mesh->renewed + an_landmarks_memory_bytes(&mesh->landmarks) +
         (size_t)mesh->grid_w * (size_t)mesh->grid_h * sizeof(int32_t) + spare_rows_bytes(mesh);
}
