// SPDX-License-Identifier: MIT
// The triangulation kernel's edits, the pieces a local update is made of: points and segments
// decoded from the input bytes (on a coarse grid, so rows, circles and crossings of them are
// common) are triangulated, then a sequence of edits runs: insert a point, insert a segment
// between two vertices, give a constraint edge back (an_cdt_unconstrain_edge), take a vertex out
// (an_cdt_remove_vertex), some with an allocation made to fail. After every edit the
// triangulation must be whole (an_cdt_check) and Delaunay (unless an allocation failed in its
// flips, which the kernel documents may leave it short of that), and every refusal must be one
// the kernel documents. A vertex taken out must give two triangles back and leave every
// constraint edge as it was; a constraint given back must be the only edge that stops being one.
// Any violation aborts.
#include "fuzz_entry.h"

#include "mesh/cdt.h"
#include "test_allocator.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_POINTS 48
#define MAX_SEGMENTS 24
#define MAX_EDITS 48

static void fail(const char *what, const char *detail) {
  fprintf(stderr, "fuzz_cdt: %s%s%s\n", what, detail ? ": " : "", detail ? detail : "");
  abort();
}

static vec2 read_point(an_fuzz_reader *r) {
  double x = an_fuzz_coord(r);
  return v2(x, an_fuzz_coord(r));
}

// Does a constraint edge end at vertex v?
static bool constraint_at(const an_cdt *cdt, int32_t v) {
  for (size_t t = 0; t < cdt->tri_count; ++t) {
    int k = an_cdt_vertex_index(&cdt->tris[t], v);
    if (k >= 0 && (cdt->tris[t].constrained & ~(1u << k)) != 0) {
      return true;
    }
  }
  return false;
}

// The constraint edges, each as its two vertices (lower first), sorted: what a removal must leave
// alone. A new array (the caller frees it) of *count edges.
static int compare_edges(const void *lhs, const void *rhs) {
  const int32_t *a = lhs, *b = rhs;
  return a[0] != b[0] ? (a[0] < b[0] ? -1 : 1) : (a[1] < b[1] ? -1 : (a[1] > b[1] ? 1 : 0));
}

static int32_t *constraint_edges(const an_cdt *cdt, size_t *count) {
  // At most one per side of each triangle.
  int32_t *edges = malloc(6 * cdt->tri_count * sizeof *edges);
  if (!edges) {
    fail("no memory for the edge list", NULL);
  }
  *count = 0;
  for (size_t t = 0; t < cdt->tri_count; ++t) {
    const an_cdt_tri *tri = &cdt->tris[t];
    for (int i = 0; i < 3; ++i) {
      int32_t a = tri->v[(i + 1) % 3], b = tri->v[(i + 2) % 3];
      // Each edge once: from the side where it runs from the lower vertex, or from its only
      // side on the box.
      if (((tri->constrained >> i) & 1u) && (a < b || tri->n[i] < 0)) {
        edges[2 * *count] = a < b ? a : b;
        edges[2 * *count + 1] = a < b ? b : a;
        ++*count;
      }
    }
  }
  qsort(edges, *count, 2 * sizeof *edges, compare_edges);
  return edges;
}

static void check_whole(const an_cdt *cdt, bool delaunay) {
  char why[256];
  if (!an_cdt_check(cdt, why, sizeof why)) {
    fail("not a triangulation", why);
  }
  if (delaunay && !an_cdt_check_delaunay(cdt, why, sizeof why)) {
    fail("not Delaunay", why);
  }
}

int an_fuzz_cdt(const uint8_t *data, size_t size) {
  an_fuzz_reader r = {data, size, 0, false};
  uint8_t header = an_fuzz_byte(&r);
  r.fine = (header & 1) != 0;
  size_t np = (size_t)an_fuzz_byte(&r) % (MAX_POINTS + 1);
  size_t ns = (size_t)an_fuzz_byte(&r) % (MAX_SEGMENTS + 1);
  vec2 points[MAX_POINTS];
  uint32_t segments[2 * MAX_SEGMENTS + 2];
  for (size_t i = 0; i < np; ++i) {
    points[i] = read_point(&r);
  }
  for (size_t s = 0; s < ns; ++s) {
    segments[2 * s] = np > 0 ? (uint32_t)(an_fuzz_byte(&r) % np) : 0;
    segments[2 * s + 1] = np > 0 ? (uint32_t)(an_fuzz_byte(&r) % np) : 0;
  }
  if (np == 0) {
    ns = 0;
  }
  test_allocator counter = test_allocator_make();
  arcnav_allocator hooks = test_allocator_hooks(&counter);
  an_allocator alloc = an_allocator_from(&hooks);
  an_cdt cdt;
  int32_t vertex_of[MAX_POINTS];
  // The box holds every coordinate the reader makes ([-32, 32)) strictly inside.
  if (an_cdt_build(&cdt, &alloc, v2(-40, -40), v2(40, 40), points, np, segments, ns, vertex_of) !=
      ARCNAV_OK) {
    fail("the build failed", NULL);
  }
  check_whole(&cdt, true);
  bool delaunay = true;
  size_t edits = (size_t)an_fuzz_byte(&r) % (MAX_EDITS + 1);
  for (size_t e = 0; e < edits; ++e) {
    uint8_t op = an_fuzz_byte(&r);
    // One edit in eight that takes something out (a constraint given back, a vertex removed: what
    // this target is for; insertion keeps its own contract) runs with one of its first
    // allocations failing, the work stack given back first so that its flips allocate too.
    bool starve = (op & 2) != 0 && (op & 0x38) == 0x38;
    if (starve && an_cdt_shrink(&cdt) != ARCNAV_OK) {
      fail("the shrink failed", NULL);
    }
    counter.fail_at = starve ? counter.calls + (long)(an_fuzz_byte(&r) % 4) : -1;
    size_t triangles = cdt.tri_count;
    // Constraint edges before and after an edit that takes something out.
    size_t before_count = 0, after_count = 0;
    int32_t *before = NULL, *after = NULL;
    arcnav_status st = ARCNAV_OK;
    switch (op & 3) {
    case 0: {
      int32_t v;
      vec2 p = read_point(&r);
      int32_t fresh = an_cdt_next_vertex(&cdt);
      size_t point_total = cdt.point_count;
      st = an_cdt_insert_point(&cdt, p, &v);
      // Every point the reader makes lies strictly inside the box.
      if (st != ARCNAV_OK || !v2_equal(cdt.points[v], p) || cdt.vertex_tri[v] < 0) {
        fail("a point inside the box did not go in", arcnav_status_name(st));
      }
      // A new vertex takes a removed one's index where there is one; a point already there
      // takes nothing.
      bool made = v == fresh;
      if (cdt.point_count != point_total + (made && fresh == (int32_t)point_total ? 1 : 0) ||
          (!made && an_cdt_next_vertex(&cdt) != fresh)) {
        fail("a new vertex did not take the index it was given", NULL);
      }
      break;
    }
    case 1: {
      int32_t a = (int32_t)(an_fuzz_byte(&r) % cdt.point_count);
      int32_t b = (int32_t)(an_fuzz_byte(&r) % cdt.point_count);
      if (cdt.vertex_tri[a] < 0 || cdt.vertex_tri[b] < 0) {
        break; // removed vertices take no segments
      }
      st = an_cdt_insert_segment(&cdt, a, b);
      break;
    }
    case 2: {
      int32_t t = (int32_t)(an_fuzz_byte(&r) % cdt.tri_count);
      int i = an_fuzz_byte(&r) % 3;
      const an_cdt_tri *tri = &cdt.tris[t];
      int32_t a = tri->v[(i + 1) % 3], b = tri->v[(i + 2) % 3];
      bool constrained = (tri->constrained >> i) & 1u;
      before = constraint_edges(&cdt, &before_count);
      st = an_cdt_unconstrain_edge(&cdt, a, b);
      if (!constrained && st != ARCNAV_ERR_INVALID_ARGUMENT) {
        fail("an ordinary edge given back", arcnav_status_name(st));
      }
      if (constrained && st == ARCNAV_ERR_INVALID_ARGUMENT) {
        fail("a constraint edge refused", NULL);
      }
      if (constrained) {
        // The flips after it never touch a constraint: exactly that edge is gone.
        after = constraint_edges(&cdt, &after_count);
        size_t count = after_count;
        int32_t gone[2] = {a < b ? a : b, a < b ? b : a};
        size_t j = 0;
        for (size_t k = 0; k < before_count; ++k) {
          if (compare_edges(&before[2 * k], gone) == 0) {
            continue;
          }
          if (j >= count || compare_edges(&before[2 * k], &after[2 * j]) != 0) {
            fail("a constraint other than the one given back changed", NULL);
          }
          ++j;
        }
        if (j != count || count + 1 != before_count) {
          fail("the constraints given back do not add up", NULL);
        }
      }
      break;
    }
    default: {
      int32_t v = (int32_t)(an_fuzz_byte(&r) % cdt.point_count);
      bool may = v >= 4 && cdt.vertex_tri[v] >= 0 && !constraint_at(&cdt, v);
      before = constraint_edges(&cdt, &before_count);
      st = an_cdt_remove_vertex(&cdt, v);
      if (!may && st != ARCNAV_ERR_INVALID_ARGUMENT) {
        fail("a vertex removed that may not be", arcnav_status_name(st));
      }
      if (may && st == ARCNAV_ERR_INVALID_ARGUMENT) {
        fail("a vertex refused that may be removed", NULL);
      }
      if (st == ARCNAV_OK && (cdt.tri_count != triangles - 2 || cdt.vertex_tri[v] >= 0 ||
                              an_cdt_next_vertex(&cdt) != v)) {
        fail("a removal left the wrong count or the vertex", NULL);
      }
      // Out of memory: unchanged, or the vertex gone with the flips cut short.
      bool gone = cdt.vertex_tri[v] < 0;
      if (st == ARCNAV_ERR_OUT_OF_MEMORY && cdt.tri_count != (gone ? triangles - 2 : triangles)) {
        fail("a removal out of memory left neither the old count nor the new", NULL);
      }
      if (st != ARCNAV_ERR_INVALID_ARGUMENT) {
        after = constraint_edges(&cdt, &after_count);
        if (after_count != before_count ||
            memcmp(before, after, 2 * before_count * sizeof *before) != 0) {
          fail("a removal changed the constraints", NULL);
        }
      }
      break;
    }
    }
    free(before);
    free(after);
    counter.fail_at = -1;
    if (st == ARCNAV_ERR_OUT_OF_MEMORY) {
      if (!starve) {
        fail("out of memory with memory to spare", NULL);
      }
      // The kernel keeps the triangulation whole; a flip it could not run may leave it short of
      // Delaunay, and from then on it is not checked for that.
      delaunay = delaunay && an_cdt_check_delaunay(&cdt, NULL, 0);
    } else if (st != ARCNAV_OK && st != ARCNAV_ERR_INVALID_ARGUMENT) {
      fail("an edit failed", arcnav_status_name(st));
    }
    check_whole(&cdt, delaunay);
  }
  an_cdt_free(&cdt);
  if (counter.live != 0) {
    fail("memory left allocated", NULL);
  }
  return 0;
}

#ifndef ARCNAV_FUZZ_REPLAY
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  return an_fuzz_cdt(data, size);
}
#endif
