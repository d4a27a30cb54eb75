// SPDX-License-Identifier: MIT
// Local changes of a point agent's navmesh: a polygon that touches nothing put in, taken out
// again, or moved, by edits of the triangulation instead of a new build (docs/DESIGN.md, "A living
// map"). The triangles carry their label as the kernel's tag, which its edits keep; the free
// triangles the edit left as they were keep their numbers, and only what it touched is made again.
#include "mesh/navmesh_build.h"

#include <assert.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

bool an_navmesh_may_change_locally(const an_navmesh *mesh) {
  return mesh->connector_count == 0 && mesh->free_count > 0;
}

/// The arrays a mesh numbers its free triangles in, their parts and the vertex tables, for an
/// edited triangulation.
typedef struct free_arrays {
  an_navmesh_rows a; ///< the arrays, with what they hold after the edit and their room
  int32_t *renewed;  ///< the mesh's list (an_navmesh.renewed) and this edit's rows after it
  size_t renewed_count;
  an_navmesh_rewrites rewrites; ///< what the edit wrote beyond a copy of the mesh's
} free_arrays;

static void free_arrays_release(free_arrays *f, const an_allocator *alloc) {
  an_navmesh_rows_free(&f->a, alloc);
  an_free(alloc, f->renewed);
  an_navmesh_rewrites_free(&f->rewrites, alloc);
  memset(f, 0, sizeof *f);
}

// The spare free arrays (an_navmesh.spare_rows), which hold the mesh's as they were before its
// last change, made the mesh's as they are: the rows and vertices that change rewrote, the slots
// its edit of the triangulation wrote, the slots of the rows made again, and what it added. The
// same rule as an_cdt_catch_up(), for the arrays numbered from the triangulation (docs/DESIGN.md,
// "A living map").
static void catch_up_rows(const an_navmesh *mesh, an_navmesh_rows *s) {
  const an_cdt_edit *edit = &mesh->last_edit;
  const an_navmesh_rewrites *w = &mesh->last_rewrites;
  size_t slots = mesh->cdt.tri_count, count = mesh->free_count, points = mesh->cdt.point_count;
  for (size_t k = 0; k < edit->written_count; ++k) {
    size_t t = (size_t)edit->written[k];
    if (t < slots) {
      s->free_of[t] = mesh->free_of[t];
    }
  }
  if (slots > edit->followed) {
    memcpy(s->free_of + edit->followed, mesh->free_of + edit->followed,
           (slots - edit->followed) * sizeof *s->free_of);
  }
  for (size_t k = 0; k < w->row_count; ++k) {
    size_t row = (size_t)w->rows[k];
    if (row >= count) {
      continue;
    }
    s->tri_of[row] = mesh->tri_of[row];
    memcpy(&s->fv[3 * row], &mesh->fv[3 * row], 3 * sizeof *s->fv);
    memcpy(&s->fn[3 * row], &mesh->fn[3 * row], 3 * sizeof *s->fn);
    s->component[row] = mesh->component[row];
    // A triangle that only took another number sits in a slot its edit did not write.
    s->free_of[mesh->tri_of[row]] = (int32_t)row;
  }
  if (w->parts) {
    memcpy(s->component, mesh->component, count * sizeof *s->component);
  }
  for (size_t k = 0; k < w->vertex_count; ++k) {
    size_t v = (size_t)w->vertices[k];
    if (v < points) {
      s->corner[v] = mesh->corner[v];
      s->dead_apex[v] = mesh->dead_apex[v];
    }
  }
  if (points > s->vertices) {
    memcpy(s->corner + s->vertices, mesh->corner + s->vertices,
           (points - s->vertices) * sizeof *s->corner);
    memcpy(s->dead_apex + s->vertices, mesh->dead_apex + s->vertices,
           (points - s->vertices) * sizeof *s->dead_apex);
  }
  s->slots = slots;
  s->rows = count;
  s->vertices = points;
#ifndef NDEBUG
  assert(memcmp(s->free_of, mesh->free_of, slots * sizeof *s->free_of) == 0);
  assert(memcmp(s->tri_of, mesh->tri_of, count * sizeof *s->tri_of) == 0);
  assert(memcmp(s->fv, mesh->fv, 3 * count * sizeof *s->fv) == 0);
  assert(memcmp(s->fn, mesh->fn, 3 * count * sizeof *s->fn) == 0);
  assert(memcmp(s->component, mesh->component, count * sizeof *s->component) == 0);
  assert(memcmp(s->corner, mesh->corner, points * sizeof *s->corner) == 0);
  assert(memcmp(s->dead_apex, mesh->dead_apex, points * sizeof *s->dead_apex) == 0);
#endif
}

// New arrays for an edit (arrays_for_edit()) with an eighth more room than asked, the mesh's
// copied in (what both hold: the free index of every slot, the rows, parts and tables of every
// number both have); false when out of memory (*a then holds what was made).
static bool new_arrays(const an_navmesh *mesh, size_t need_slots, size_t need_rows,
                       size_t need_points, size_t slots, size_t count, size_t points,
                       an_navmesh_rows *a) {
  const an_allocator *alloc = &mesh->alloc;
  a->slot_room = need_slots + need_slots / 8;
  a->row_room = need_rows + need_rows / 8;
  a->vertex_room = need_points + need_points / 8;
  a->free_of = an_alloc(alloc, a->slot_room, sizeof *a->free_of);
  a->tri_of = an_alloc(alloc, a->row_room, sizeof *a->tri_of);
  a->fv = an_alloc(alloc, 3 * a->row_room, sizeof *a->fv);
  a->fn = an_alloc(alloc, 3 * a->row_room, sizeof *a->fn);
  a->component = an_alloc(alloc, a->row_room, sizeof *a->component);
  a->corner = an_alloc(alloc, a->vertex_room, sizeof *a->corner);
  a->dead_apex = an_alloc(alloc, a->vertex_room, sizeof *a->dead_apex);
  if (!a->free_of || !a->tri_of || !a->fv || !a->fn || !a->component || !a->corner ||
      !a->dead_apex) {
    return false;
  }
  size_t old_slots = mesh->cdt.tri_count, old_count = mesh->free_count;
  size_t old_points = mesh->cdt.point_count;
  size_t kept = old_count < count ? old_count : count;
  size_t old_tables = old_points < points ? old_points : points;
  memcpy(a->free_of, mesh->free_of, (old_slots < slots ? old_slots : slots) * sizeof *a->free_of);
  memcpy(a->tri_of, mesh->tri_of, kept * sizeof *a->tri_of);
  memcpy(a->fv, mesh->fv, 3 * kept * sizeof *a->fv);
  memcpy(a->fn, mesh->fn, 3 * kept * sizeof *a->fn);
  memcpy(a->component, mesh->component, kept * sizeof *a->component);
  memcpy(a->corner, mesh->corner, old_tables * sizeof *a->corner);
  memcpy(a->dead_apex, mesh->dead_apex, old_tables * sizeof *a->dead_apex);
  return true;
}

// The arrays an edit numbers the free triangles of its triangulation (`slots` slots, `count`
// free triangles, `points` vertices) in, holding the mesh's as they are: the spare ones caught
// up (catch_up_rows()) when they are `behind` the mesh by its last change alone and have the
// room, else new ones with an eighth more room than both need, the mesh's copied in.
static arcnav_status arrays_for_edit(an_navmesh *mesh, bool behind, size_t slots, size_t count,
                                     size_t points, free_arrays *f) {
  size_t old_slots = mesh->cdt.tri_count, old_count = mesh->free_count;
  size_t old_points = mesh->cdt.point_count;
  size_t need_slots = (slots > old_slots ? slots : old_slots) + 1;
  size_t need_rows = (count > old_count ? count : old_count) + 1;
  size_t need_points = (points > old_points ? points : old_points) + 1;
  an_navmesh_rows *spare = &mesh->spare_rows;
  if (behind && spare->free_of && spare->slots == mesh->last_edit.followed &&
      spare->slot_room >= need_slots && spare->row_room >= need_rows &&
      spare->vertex_room >= need_points) {
    catch_up_rows(mesh, spare);
    f->a = *spare;
    memset(spare, 0, sizeof *spare);
  } else if (!new_arrays(mesh, need_slots, need_rows, need_points, slots, count, points, &f->a)) {
    return ARCNAV_ERR_OUT_OF_MEMORY;
  }
  // What they hold once the edit has numbered its triangles.
  f->a.slots = slots;
  f->a.rows = count;
  f->a.vertices = points;
  return ARCNAV_OK;
}
/// The vertices an edit took out ([0]) and put in ([1]); a put-in one may have a taken-out one's
/// index.
typedef struct edited_vertices {
  const int32_t *vertices[2];
  size_t count[2];
} edited_vertices;

/// The work of numbering an edited triangulation's free triangles from the mesh's: which slots the
/// edit changed, the free triangles whose rows are made again, and the vertices whose tables are.
typedef struct renumbering {
  const an_navmesh *mesh;
  const an_cdt *work;
  size_t count;           ///< free triangles after the edit
  const int32_t *free_of; ///< per slot of `work`: its free number after the edit, or -1
  int32_t *changed_slots; ///< the slots of `work` not as the mesh had them, in order
  size_t changed_count;
  uint8_t *redo; ///< per new free number: its rows are made again
  int32_t *rows; ///< those numbers
  size_t row_count;
  uint8_t *touched; ///< per vertex of `work`: its tables are made again
  int32_t *vertices;
  size_t vertex_count;
} renumbering;

static void renumbering_release(renumbering *r, const an_allocator *alloc) {
  an_free(alloc, r->changed_slots);
  an_free(alloc, r->redo);
  an_free(alloc, r->rows);
  an_free(alloc, r->touched);
  an_free(alloc, r->vertices);
}

static int compare_numbers(const void *a, const void *b) {
  int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
  return (x > y) - (x < y);
}

// Numbers past the new count are those of triangles still to take a freed number: their rows are
// made again under that one.
static void redo_row(renumbering *r, int32_t number) {
  if (number >= 0 && (size_t)number < r->count && !r->redo[number]) {
    r->redo[number] = 1;
    r->rows[r->row_count++] = number;
  }
}

static void redo_free_row(void *context, int32_t t) {
  renumbering *r = context;
  redo_row(r, r->free_of[t]);
}

static void touch_vertex(renumbering *r, int32_t v) {
  if (v >= 0 && !r->touched[v]) {
    r->touched[v] = 1;
    r->vertices[r->vertex_count++] = v;
  }
}

// Calls visit(context, t) for every triangle t of `cdt` round vertex v: walked from one of them,
// and the other way too when the walk meets the box. Nothing for a vertex taken out.
static void each_triangle_round(const an_cdt *cdt, int32_t v, void (*visit)(void *, int32_t),
                                void *context) {
  int32_t start = cdt->vertex_tri[v], t = start;
  if (start < 0) {
    return;
  }
  do {
    visit(context, t);
    const an_cdt_tri *tri = &cdt->tris[t];
    t = tri->n[an_cdt_next3(an_cdt_vertex_index(tri, v))];
  } while (t >= 0 && t != start);
  if (t >= 0) {
    return;
  }
  const an_cdt_tri *tri = &cdt->tris[start];
  for (t = tri->n[an_cdt_prev3(an_cdt_vertex_index(tri, v))]; t >= 0;) {
    visit(context, t);
    tri = &cdt->tris[t];
    t = tri->n[an_cdt_prev3(an_cdt_vertex_index(tri, v))];
  }
}

_Static_assert(offsetof(an_cdt_tri, constrained) == sizeof(int32_t[6]) &&
                   offsetof(an_cdt_tri, tag) == offsetof(an_cdt_tri, constrained) + 1,
               "a triangle's fields lie first, one after the other");

// The slots the edit changed, listed in order: past the mesh's, or holding other corners or
// neighbours or another label. Every other slot is the triangle it was as far as the free
// triangles' arrays go (they hold indices only: a corner the edit took out and put in again at
// another place, under the same index, changes none of them), and so are its free number's rows
// where no neighbour changed. Only the slots the edit wrote (an_cdt_follow_writes()) are compared.
static void mark_changed(renumbering *r) {
  const an_cdt *old = &r->mesh->cdt;
  size_t slots = r->work->tri_count, common = old->tri_count < slots ? old->tri_count : slots;
  assert(r->work->followed >= common);
  // Corners, neighbours, constraint marks and tag (the label), which lie first in a triangle with
  // nothing between them; not the padding after them, which a new triangle leaves undefined.
  const size_t fields = offsetof(an_cdt_tri, tag) + sizeof old->tris->tag;
#ifndef NDEBUG
  // Every slot the edit changed was recorded as written.
  for (size_t t = 0; t < common; ++t) {
    assert(r->work->written_mark[t] || memcmp(&r->work->tris[t], &old->tris[t], fields) == 0);
  }
#endif
  for (size_t k = 0; k < r->work->written_count; ++k) {
    int32_t t = r->work->written[k];
    if ((size_t)t < common && memcmp(&r->work->tris[t], &old->tris[t], fields) != 0) {
      r->changed_slots[r->changed_count++] = t;
    }
  }
  qsort(r->changed_slots, r->changed_count, sizeof *r->changed_slots, compare_numbers);
  for (size_t t = common; t < slots; ++t) {
    r->changed_slots[r->changed_count++] = (int32_t)t;
  }
}

typedef struct vertex_tables_at {
  free_arrays *f;
  int32_t v;
} vertex_tables_at;

static void add_to_vertex_tables(void *context, int32_t t) {
  vertex_tables_at *at = context;
  int32_t number = at->f->a.free_of[t];
  if (number >= 0) {
    an_navmesh_mark_triangle(at->f->a.fv, at->f->a.fn, (size_t)number, at->v, at->f->a.corner,
                             at->f->a.dead_apex);
  }
}

// Vertex v's tables (an_navmesh.corner, dead_apex) from the free triangles round it.
static void vertex_tables(const renumbering *r, free_arrays *f, int32_t v) {
  f->a.corner[v] = 0;
  f->a.dead_apex[v] = -1;
  vertex_tables_at at = {f, v};
  each_triangle_round(r->work, v, add_to_vertex_tables, &at);
}

// The parts of the new free triangles (those in changed slots), flooded across fn through each
// other: each takes the one part it meets, or a new number when it meets none (a courtyard).
// Where they meet two parts (an edit that joined them), everything is numbered again.
static arcnav_status label_new_parts(const an_navmesh *mesh, const renumbering *r, free_arrays *f,
                                     size_t fresh_count) {
  f->rewrites.parts = false;
  size_t n = f->a.rows;
  enum { UNKNOWN = -1, QUEUED = -2 };
  int32_t *queue = an_alloc(&mesh->alloc, fresh_count > 0 ? fresh_count : 1, sizeof *queue);
  if (!queue) {
    return ARCNAV_ERR_OUT_OF_MEMORY;
  }
  int32_t next = 0; // past every part number
  for (size_t k = 0; k < n; ++k) {
    next = f->a.component[k] >= next ? f->a.component[k] + 1 : next;
  }
  bool joined = false;
  for (size_t i = 0; i < r->row_count && !joined; ++i) {
    int32_t seed = r->rows[i];
    if (f->a.component[seed] != UNKNOWN) {
      continue;
    }
    size_t tail = 0;
    int32_t met = UNKNOWN;
    queue[tail++] = seed;
    f->a.component[seed] = QUEUED;
    for (size_t head = 0; head < tail; ++head) {
      for (int k = 0; k < 3; ++k) {
        int32_t u = f->a.fn[3 * (size_t)queue[head] + (size_t)k];
        if (u < 0 || f->a.component[u] == QUEUED) {
          continue;
        }
        if (f->a.component[u] == UNKNOWN) {
          f->a.component[u] = QUEUED;
          queue[tail++] = u;
        } else if (met == UNKNOWN) {
          met = f->a.component[u];
        } else if (met != f->a.component[u]) {
          joined = true;
        }
      }
    }
    int32_t label = met != UNKNOWN ? met : next++;
    for (size_t k = 0; k < tail; ++k) {
      f->a.component[queue[k]] = label;
    }
  }
  an_free(&mesh->alloc, queue);
  if (joined) {
    f->rewrites.parts = true;
    return an_navmesh_label_components(f->a.fn, n, &mesh->alloc, f->a.component);
  }
  return ARCNAV_OK;
}

// The free triangles of the edited triangulation `work`, numbered from the mesh's (docs/DESIGN.md,
// "A living map"): a free triangle the edit left as it was keeps its number, its rows, its part,
// and its corners' tables; the new ones take the numbers the edit freed, lowest first, then the
// numbers past the mesh's; when fewer are made than freed, the highest-numbered triangles take the
// freed numbers below the new count. Only the rows of the triangles so numbered and of their
// neighbours are made again, and the tables of the corners those touch; the rest is copied.
static arcnav_status renumber_free(an_navmesh *mesh, const an_cdt *work,
                                   const edited_vertices *edited, bool behind, free_arrays *f) {
  const an_allocator *alloc = &mesh->alloc;
  memset(f, 0, sizeof *f);
  renumbering r = {.mesh = mesh, .work = work};
  size_t slots = work->tri_count, old_slots = mesh->cdt.tri_count, old_count = mesh->free_count;
  size_t points = work->point_count, old_points = mesh->cdt.point_count;
  r.changed_slots = an_alloc(alloc, slots + 1, sizeof *r.changed_slots);
  int32_t *freed = an_alloc(alloc, old_count + 1, sizeof *freed);
  arcnav_status st = r.changed_slots && freed ? ARCNAV_OK : ARCNAV_ERR_OUT_OF_MEMORY;
  size_t freed_count = 0, fresh_count = 0;
  if (st == ARCNAV_OK) {
    mark_changed(&r);
    for (size_t i = 0; i < r.changed_count; ++i) {
      size_t t = (size_t)r.changed_slots[i];
      if (t < old_slots && mesh->free_of[t] >= 0) {
        freed[freed_count++] = mesh->free_of[t];
      }
      fresh_count += work->tris[t].tag == AN_NAVMESH_TAG_FREE;
    }
    for (size_t t = slots; t < old_slots; ++t) {
      if (mesh->free_of[t] >= 0) {
        freed[freed_count++] = mesh->free_of[t];
      }
    }
    qsort(freed, freed_count, sizeof *freed, compare_numbers);
  }
  size_t count = old_count - freed_count + fresh_count;
  r.count = count;
  size_t rows = count > 0 ? count : 1;
  if (st == ARCNAV_OK) {
    st = arrays_for_edit(mesh, behind, slots, count, points, f);
  }
  if (st == ARCNAV_OK) {
    r.redo = an_calloc(alloc, rows, sizeof *r.redo);
    r.rows = an_alloc(alloc, rows, sizeof *r.rows);
    r.touched = an_calloc(alloc, points + 1, sizeof *r.touched);
    r.vertices = an_alloc(alloc, points + 1, sizeof *r.vertices);
    if (!r.redo || !r.rows || !r.touched || !r.vertices) {
      st = ARCNAV_ERR_OUT_OF_MEMORY;
    }
  }
  if (st == ARCNAV_OK) {
    r.free_of = f->a.free_of;
    size_t old_tables = old_points < points ? old_points : points;
    for (size_t v = old_tables; v < points; ++v) {
      f->a.corner[v] = 0;
      f->a.dead_apex[v] = -1;
    }
    // The numbers to give: the freed ones below the new count, then those past the mesh's.
    size_t give = 0, given = 0;
    while (give < freed_count && (size_t)freed[give] < count) {
      give++;
    }
    size_t past = old_count;
    for (size_t i = 0; i < r.changed_count; ++i) {
      size_t t = (size_t)r.changed_slots[i];
      int32_t number = -1;
      if (work->tris[t].tag == AN_NAVMESH_TAG_FREE) {
        number = given < give ? freed[given++] : (int32_t)past++;
        f->a.tri_of[number] = (int32_t)t;
        f->a.component[number] = -1; // flooded below
        redo_row(&r, number);
      }
      f->a.free_of[t] = number;
    }
    // The triangles numbered past the new count, lowest first, take the freed numbers left.
    size_t next_freed = give;
    for (size_t number = count; number < old_count && given < give; ++number) {
      while (next_freed < freed_count && (size_t)freed[next_freed] < number) {
        next_freed++;
      }
      if (next_freed < freed_count && (size_t)freed[next_freed] == number) {
        continue; // freed itself
      }
      int32_t to = freed[given++];
      int32_t t = mesh->tri_of[number];
      f->a.tri_of[to] = t;
      f->a.free_of[t] = to;
      f->a.component[to] = mesh->component[number];
      redo_row(&r, to); // which touches its corners
      for (int k = 0; k < 3; ++k) {
        int32_t u = work->tris[t].n[k];
        redo_row(&r, u >= 0 ? f->a.free_of[u] : -1);
      }
    }
    // Every changed slot's free neighbours have rows to make again, and its corners tables.
    for (size_t i = 0; i < r.changed_count; ++i) {
      size_t t = (size_t)r.changed_slots[i];
      for (int k = 0; k < 3; ++k) {
        touch_vertex(&r, work->tris[t].v[k]);
        int32_t u = work->tris[t].n[k];
        redo_row(&r, u >= 0 ? f->a.free_of[u] : -1);
      }
    }
    for (size_t k = 0; k < edited->count[0]; ++k) {
      touch_vertex(&r, edited->vertices[0][k]);
    }
    // A vertex put in under a taken-out one's index moves it: a triangle round it whose slot
    // happens to hold what it held is another triangle all the same.
    for (size_t k = 0; k < edited->count[1]; ++k) {
      each_triangle_round(work, edited->vertices[1][k], redo_free_row, &r);
    }
    for (size_t i = 0; i < r.row_count; ++i) {
      int32_t number = r.rows[i];
      const an_cdt_tri *tri = &work->tris[f->a.tri_of[number]];
      for (int k = 0; k < 3; ++k) {
        f->a.fv[3 * (size_t)number + (size_t)k] = tri->v[k];
        f->a.fn[3 * (size_t)number + (size_t)k] = tri->n[k] >= 0 ? f->a.free_of[tri->n[k]] : -1;
        touch_vertex(&r, tri->v[k]);
      }
    }
    for (size_t i = 0; i < r.vertex_count; ++i) {
      vertex_tables(&r, f, r.vertices[i]);
    }
    st = label_new_parts(mesh, &r, f, fresh_count);
  }
  // A copy's record of what its changes made again (an_navmesh.renewed), for the builds that
  // carry what it kept from the original.
  if (st == ARCNAV_OK && mesh->cloned_from) {
    f->renewed = an_alloc(alloc, mesh->renewed_count + r.row_count + 1, sizeof *f->renewed);
    if (f->renewed) {
      if (mesh->renewed_count > 0) {
        memcpy(f->renewed, mesh->renewed, mesh->renewed_count * sizeof *f->renewed);
      }
      if (r.row_count > 0) {
        memcpy(f->renewed + mesh->renewed_count, r.rows, r.row_count * sizeof *f->renewed);
      }
      f->renewed_count = mesh->renewed_count + r.row_count;
    } else {
      st = ARCNAV_ERR_OUT_OF_MEMORY;
    }
  }
  // What the edit wrote, for the next one to catch its spare arrays up with (catch_up_rows()).
  if (st == ARCNAV_OK) {
    f->rewrites.rows = an_duplicate(alloc, r.rows, r.row_count, sizeof *r.rows);
    f->rewrites.vertices = an_duplicate(alloc, r.vertices, r.vertex_count, sizeof *r.vertices);
    f->rewrites.row_count = r.row_count;
    f->rewrites.vertex_count = r.vertex_count;
    if ((r.row_count > 0 && !f->rewrites.rows) || (r.vertex_count > 0 && !f->rewrites.vertices)) {
      st = ARCNAV_ERR_OUT_OF_MEMORY;
    }
  }
  an_free(alloc, freed);
  renumbering_release(&r, alloc);
  if (st != ARCNAV_OK) {
    free_arrays_release(f, alloc);
  }
  return st;
}

// The edited triangulation `work` (in the mesh's spare arrays) replaces the mesh's, whose arrays
// become the spare ones, with the free triangles numbered again, their parts, the box's edges
// and the location grid's cells over [lo, hi]. The forest of the widest passages would need a
// build over the whole mesh: it is dropped, and the mesh then answers passage widths as one built
// without it. So are the landmarks, but for an edit that only added: the old map's lengths still
// bound the new map's (mesh/landmarks.h). On failure the mesh is as it was.
static arcnav_status adopt(an_navmesh *mesh, an_cdt *work, const edited_vertices *edited, vec2 lo,
                           vec2 hi, bool behind) {
  free_arrays f;
  arcnav_status st = renumber_free(mesh, work, edited, behind, &f);
  an_cdt_edit edit;
  an_cdt_take_writes(work, &edit);
  // The last step that may fail: from here on the mesh takes the edit.
  if (st == ARCNAV_OK && edited->count[0] == 0) {
    st = an_landmarks_after_addition(&mesh->landmarks, work->point_count, edited->vertices[1],
                                     edited->count[1], &mesh->alloc);
  }
  if (st != ARCNAV_OK) {
    an_cdt_edit_free(&edit, &mesh->alloc);
    free_arrays_release(&f, &mesh->alloc);
    return st;
  }
  // The old triangulation becomes the spare arrays, behind by this edit, unless it was borrowed
  // (an_navmesh_clone(): its owner may hand it down, an_navmesh_hand_down()).
  // So do the free triangles' arrays, with what this edit rewrote in them.
  an_navmesh_rows_free(&mesh->spare_rows, &mesh->alloc);
  if (!mesh->borrows_triangulation) {
    mesh->spare_rows = an_navmesh_take_rows(mesh);
  }
  an_navmesh_rewrites_free(&mesh->last_rewrites, &mesh->alloc);
  mesh->last_rewrites = f.rewrites;
  size_t old_slots = mesh->cdt.tri_count;
  if (mesh->borrows_triangulation) {
    mesh->cdt = an_cdt_take(work); // the borrowed one stays the original's
  } else {
    an_cdt old = mesh->cdt;
    mesh->cdt = *work;
    *work = old;
  }
  an_cdt_edit_free(&mesh->last_edit, &mesh->alloc);
  mesh->last_edit = edit;
  mesh->spare_behind = !mesh->borrows_triangulation;
  mesh->edited_borrowed = mesh->borrows_triangulation;
  an_navmesh_free_triangle_arrays(mesh);
  mesh->borrows_triangulation = false;
  an_navmesh_put_rows(mesh, &f.a);
  if (mesh->cloned_from) {
    an_free(&mesh->alloc, mesh->renewed);
    mesh->renewed = f.renewed;
    mesh->renewed_count = f.renewed_count;
  }
  an_blocked_forest_destroy(&mesh->passages, &mesh->alloc);
  an_free(&mesh->alloc, mesh->portal_width);
  mesh->portal_width = NULL;
  if (edited->count[0] != 0) {
    an_landmarks_free(&mesh->landmarks, &mesh->alloc);
  }
  an_navmesh_find_box_edges(mesh);
  an_navmesh_refresh_grid(mesh, lo, hi, old_slots);
  return ARCNAV_OK;
}

// The triangle on the left of the directed edge a -> b of `cdt`, or -1 when there is no edge.
static int32_t left_of(const an_cdt *cdt, int32_t a, int32_t b) {
  int32_t t;
  int i = an_cdt_find_edge(cdt, a, b, &t);
  if (i < 0) {
    return -1;
  }
  // Counter-clockwise triangles run along their edge i from v[i + 1] to v[i + 2].
  return cdt->tris[t].v[an_cdt_next3(i)] == a ? t : cdt->tris[t].n[i];
}

static size_t ring_points(const uint32_t *ring_counts, size_t ring_count) {
  size_t count = 0;
  for (size_t r = 0; r < ring_count; ++r) {
    count += ring_counts[r];
  }
  return count;
}

// The point after point k on its ring (the points of the rings one after the other).
static size_t next_in_ring(const an_navmesh_rings *rings, size_t k) {
  size_t first = 0;
  for (size_t r = 0; r < rings->ring_count; first += rings->ring_counts[r++]) {
    size_t end = first + rings->ring_counts[r];
    if (k < end) {
      return k + 1 < end ? k + 1 : first;
    }
  }
  return k;
}

static void widen(vec2 p, vec2 *lo, vec2 *hi) {
  *lo = v2(an_min(lo->x, p.x), an_min(lo->y, p.y));
  *hi = v2(an_max(hi->x, p.x), an_max(hi->y, p.y));
}

static void tag_free(void *cdt, int32_t t) {
  an_cdt_wrote(cdt, t);
  ((an_cdt *)cdt)->tris[t].tag = AN_NAVMESH_TAG_FREE;
}

// Takes a polygon an_navmesh_change_polygon() put in out of `work`; its box widens [lo, hi].
static arcnav_status take_out(an_cdt *work, const an_navmesh_rings *rings, vec2 *lo, vec2 *hi) {
  arcnav_status st = ARCNAV_OK;
  size_t count = ring_points(rings->ring_counts, rings->ring_count);
  const int32_t *vertices = rings->vertices;
  // Every triangle inside the polygon has its corners on it (nothing else lay inside), so the
  // triangles round its vertices are all that was blocked by it: tagged free before anything
  // moves (the flips below keep each slot's tag, and would carry a blocked one beyond the
  // polygon's vertices), and the triangles filling each removed vertex's hole take that tag.
  for (size_t k = 0; st == ARCNAV_OK && k < count; ++k) {
    int32_t v = vertices[k];
    int32_t t = v >= 4 && (size_t)v < work->point_count ? work->vertex_tri[v] : -1;
    if (t < 0) {
      st = ARCNAV_ERR_INVALID_ARGUMENT;
      break;
    }
    widen(work->points[v], lo, hi);
    each_triangle_round(work, v, tag_free, work);
  }
  for (size_t k = 0; st == ARCNAV_OK && k < count; ++k) {
    st = an_cdt_unconstrain_edge(work, vertices[k], vertices[next_in_ring(rings, k)]);
  }
  for (size_t k = 0; st == ARCNAV_OK && k < count; ++k) {
    st = an_cdt_remove_vertex(work, vertices[k]);
  }
  return st;
}

typedef struct vertex_constraints {
  const an_cdt *cdt;
  int32_t vertex;
  int count;
} vertex_constraints;

// Counts the constraint leaving the vertex along triangle t: each edge at a vertex leaves it
// along the one triangle on its left.
static void count_constraint_leaving(void *context, int32_t t) {
  vertex_constraints *c = context;
  const an_cdt_tri *tri = &c->cdt->tris[t];
  c->count += (tri->constrained >> an_cdt_prev3(an_cdt_vertex_index(tri, c->vertex))) & 1u;
}

arcnav_status an_navmesh_find_polygon(const an_navmesh *mesh, const vec2 *points,
                                      const an_navmesh_rings *rings, int32_t *out_vertices) {
  const an_cdt *cdt = &mesh->cdt;
  size_t count = ring_points(rings->ring_counts, rings->ring_count);
  if (!an_navmesh_may_change_locally(mesh) || count == 0) {
    return ARCNAV_ERR_INVALID_ARGUMENT;
  }
  for (size_t k = 0; k < count; ++k) {
    out_vertices[k] = an_navmesh_vertex_at(mesh, points[k]);
    if (out_vertices[k] < 4) {
      return ARCNAV_ERR_INVALID_ARGUMENT; // not a vertex, or a corner of the box
    }
  }
  for (size_t k = 0; k < count; ++k) {
    int32_t a = out_vertices[k], b = out_vertices[next_in_ring(rings, k)];
    int32_t t;
    int i = an_cdt_find_edge(cdt, a, b, &t);
    if (i < 0 || !((cdt->tris[t].constrained >> i) & 1u)) {
      return ARCNAV_ERR_INVALID_ARGUMENT;
    }
    // Counter-clockwise triangles run along their edge i from v[i + 1] to v[i + 2].
    bool on_left = cdt->tris[t].v[an_cdt_next3(i)] == a;
    int32_t left = on_left ? t : cdt->tris[t].n[i], right = on_left ? cdt->tris[t].n[i] : t;
    if (left < 0 || right < 0 || mesh->free_of[left] >= 0 || mesh->free_of[right] < 0) {
      return ARCNAV_ERR_INVALID_ARGUMENT;
    }
  }
  // Two constraints at each vertex, its ring's: a vertex two rings or two points shared would
  // have four.
  for (size_t k = 0; k < count; ++k) {
    vertex_constraints c = {cdt, out_vertices[k], 0};
    each_triangle_round(cdt, out_vertices[k], count_constraint_leaving, &c);
    if (c.count != 2) {
      return ARCNAV_ERR_INVALID_ARGUMENT;
    }
  }
  return ARCNAV_OK;
}

// Puts polygon `points` (its rings' counts in `rings`) into `work`, its vertices to
// out_vertices; its box widens [lo, hi].
static arcnav_status put_in(an_cdt *work, const an_allocator *alloc, const vec2 *points,
                            const an_navmesh_rings *rings, int32_t *out_vertices, vec2 *lo,
                            vec2 *hi) {
  arcnav_status st = ARCNAV_OK;
  size_t count = ring_points(rings->ring_counts, rings->ring_count);
  // Every point a new vertex strictly inside a free triangle's region: the caller found nothing
  // near the polygon, so nothing of the triangulation lies on it.
  // The triangles a new point splits take their tag: one round it says what it landed in.
  for (size_t k = 0; st == ARCNAV_OK && k < count; ++k) {
    int32_t fresh = an_cdt_next_vertex(work);
    widen(points[k], lo, hi);
    st = an_cdt_insert_point(work, points[k], &out_vertices[k]);
    if (st == ARCNAV_OK &&
        (out_vertices[k] != fresh ||
         work->tris[work->vertex_tri[out_vertices[k]]].tag != AN_NAVMESH_TAG_FREE)) {
      st = ARCNAV_ERR_INVALID_ARGUMENT;
    }
  }
  for (size_t k = 0; st == ARCNAV_OK && k < count; ++k) {
    st = an_cdt_insert_segment(work, out_vertices[k], out_vertices[next_in_ring(rings, k)]);
  }
  // The material lies on the left of every ring edge (outer rings counter-clockwise, holes
  // clockwise): flooded from there, up to the polygon's own edges.
  int32_t *queue = st == ARCNAV_OK ? an_alloc(alloc, work->tri_count, sizeof *queue) : NULL;
  if (st == ARCNAV_OK && !queue) {
    st = ARCNAV_ERR_OUT_OF_MEMORY;
  }
  size_t tail = 0;
  for (size_t k = 0; st == ARCNAV_OK && k < count; ++k) {
    int32_t t = left_of(work, out_vertices[k], out_vertices[next_in_ring(rings, k)]);
    if (t < 0) {
      st = ARCNAV_ERR_INVALID_ARGUMENT; // the edge did not go in whole
    } else if (work->tris[t].tag == AN_NAVMESH_TAG_FREE) {
      an_cdt_wrote(work, t);
      work->tris[t].tag = AN_NAVMESH_TAG_BLOCKED;
      queue[tail++] = t;
    }
  }
  for (size_t head = 0; st == ARCNAV_OK && head < tail; ++head) {
    const an_cdt_tri *tri = &work->tris[queue[head]];
    for (int i = 0; i < 3; ++i) {
      int32_t u = tri->n[i];
      if (u >= 0 && !((tri->constrained >> i) & 1u) && work->tris[u].tag == AN_NAVMESH_TAG_FREE) {
        an_cdt_wrote(work, u);
        work->tris[u].tag = AN_NAVMESH_TAG_BLOCKED;
        queue[tail++] = u;
      }
    }
  }
  an_free(alloc, queue);
  return st;
}

arcnav_status an_navmesh_change_polygon(an_navmesh *mesh, const an_navmesh_rings *gone,
                                        const vec2 *points, const an_navmesh_rings *added,
                                        int32_t *out_vertices) {
  size_t gone_count = gone ? ring_points(gone->ring_counts, gone->ring_count) : 0;
  size_t added_count = added ? ring_points(added->ring_counts, added->ring_count) : 0;
  if (!an_navmesh_may_change_locally(mesh) || (gone && gone_count == 0) ||
      (added && added_count == 0) || (!gone && !added)) {
    return ARCNAV_ERR_INVALID_ARGUMENT;
  }
  an_cdt *work = &mesh->spare;
  // The copy's tags are the labels (an_navmesh_fill_free(), and every edit since), which its
  // edits keep. A spare that holds the triangulation before the last edit takes that edit's
  // writes alone; the edit below leaves it behind by no known edit until it is adopted.
  bool behind = mesh->spare_behind;
  mesh->spare_behind = false;
  arcnav_status st = behind ? an_cdt_catch_up(&mesh->cdt, &mesh->last_edit, added_count, work)
                            : an_cdt_copy(&mesh->cdt, added_count, work);
  if (st == ARCNAV_OK) {
    st = an_cdt_follow_writes(work);
  }
  vec2 lo = v2(INFINITY, INFINITY), hi = v2(-INFINITY, -INFINITY);
  if (st == ARCNAV_OK && gone) {
    st = take_out(work, gone, &lo, &hi);
  }
  if (st == ARCNAV_OK && added) {
    st = put_in(work, &mesh->alloc, points, added, out_vertices, &lo, &hi);
  }
  edited_vertices edited = {{gone ? gone->vertices : NULL, out_vertices},
                            {gone_count, added_count}};
  return st == ARCNAV_OK ? adopt(mesh, work, &edited, lo, hi, behind) : st;
}
