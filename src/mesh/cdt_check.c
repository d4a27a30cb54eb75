// SPDX-License-Identifier: MIT
// Structural, Delaunay and constraint checks of a triangulation, for tests and debugging: they
// read what cdt.c builds and never change it.
#include "mesh/cdt.h"

#include "geom/predicates.h"
#include "mesh/cdt_internal.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>

#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
static bool
check_fail(char *why, size_t why_size, const char *format, ...) {
  if (why && why_size > 0) {
    va_list args;
    va_start(args, format);
    vsnprintf(why, why_size, format, args);
    va_end(args);
  }
  return false;
}

/// Is edge i of `tri` on the boundary of the box [lo, hi]?
static bool edge_on_box(const an_cdt *cdt, const an_cdt_tri *tri, int i, vec2 lo, vec2 hi) {
  vec2 p = cdt->points[tri->v[an_cdt_next3(i)]], q = cdt->points[tri->v[an_cdt_prev3(i)]];
  return (p.x == q.x && (p.x == lo.x || p.x == hi.x)) ||
         (p.y == q.y && (p.y == lo.y || p.y == hi.y));
}

bool an_cdt_check(const an_cdt *cdt, char *why, size_t why_size) {
  if (cdt->point_count < 4 || cdt->tri_count < 2) {
    return check_fail(why, why_size, "%ld points and %ld triangles: not initialised",
                      (long)cdt->point_count, (long)cdt->tri_count);
  }
  vec2 lo = cdt->points[0], hi = cdt->points[2];
  long points = (long)cdt->point_count, tris = (long)cdt->tri_count;
  // Indices first, so the checks below may follow them.
  for (long t = 0; t < tris; ++t) {
    const an_cdt_tri *tri = &cdt->tris[t];
    for (int i = 0; i < 3; ++i) {
      if (tri->v[i] < 0 || tri->v[i] >= points) {
        return check_fail(why, why_size, "triangle %ld: vertex index %ld out of range", t,
                          (long)tri->v[i]);
      }
      if (tri->n[i] < -1 || tri->n[i] >= tris || tri->n[i] == t) {
        return check_fail(why, why_size, "triangle %ld: neighbour index %ld out of range", t,
                          (long)tri->n[i]);
      }
    }
    if (tri->constrained > 7u) {
      return check_fail(why, why_size, "triangle %ld: constraint bits %ld", t,
                        (long)tri->constrained);
    }
  }
  for (long t = 0; t < tris; ++t) {
    for (int i = 0; i < 3; ++i) {
      if (cdt->vertex_tri[cdt->tris[t].v[i]] < 0) {
        return check_fail(why, why_size, "triangle %ld holds removed vertex %ld", t,
                          (long)cdt->tris[t].v[i]);
      }
    }
  }
  for (long v = 0; v < points; ++v) {
    int32_t t = cdt->vertex_tri[v];
    if (t < 0 && v >= 4) {
      continue; // removed (an_cdt_remove_vertex)
    }
    if (t < 0 || t >= tris || an_cdt_vertex_index(&cdt->tris[t], (int32_t)v) < 0) {
      return check_fail(why, why_size, "vertex %ld: its triangle %ld does not hold it", v, (long)t);
    }
  }
  for (long t = 0; t < tris; ++t) {
    const an_cdt_tri *tri = &cdt->tris[t];
    vec2 a = cdt->points[tri->v[0]], b = cdt->points[tri->v[1]], c = cdt->points[tri->v[2]];
    if (!(an_orient2d(a, b, c) > 0.0)) {
      return check_fail(why, why_size, "triangle %ld is not counter-clockwise (vertex %ld first)",
                        t, (long)tri->v[0]);
    }
    for (int i = 0; i < 3; ++i) {
      int32_t u = tri->n[i];
      int32_t from = tri->v[an_cdt_next3(i)], to = tri->v[an_cdt_prev3(i)];
      if (u < 0) {
        if (!edge_on_box(cdt, tri, i, lo, hi)) {
          return check_fail(why, why_size, "triangle %ld: edge %ld has no neighbour inside the box",
                            t, (long)i);
        }
        continue;
      }
      const an_cdt_tri *ut = &cdt->tris[u];
      int j = an_cdt_neighbour_index(ut, (int32_t)t);
      if (j < 0) {
        return check_fail(why, why_size, "triangle %ld: neighbour %ld does not link back", t,
                          (long)u);
      }
      if (ut->v[an_cdt_next3(j)] != to || ut->v[an_cdt_prev3(j)] != from) {
        return check_fail(why, why_size, "triangles %ld and %ld: linked across different edges", t,
                          (long)u);
      }
      if (an_cdt_is_constrained(tri, i) != an_cdt_is_constrained(ut, j)) {
        return check_fail(why, why_size, "triangles %ld and %ld: constraint marked on one side", t,
                          (long)u);
      }
    }
  }
  return true;
}

bool an_cdt_check_delaunay(const an_cdt *cdt, char *why, size_t why_size) {
  for (size_t t = 0; t < cdt->tri_count; ++t) {
    const an_cdt_tri *tri = &cdt->tris[t];
    vec2 a = cdt->points[tri->v[0]], b = cdt->points[tri->v[1]], c = cdt->points[tri->v[2]];
    for (int i = 0; i < 3; ++i) {
      int32_t u = tri->n[i];
      if (u < 0 || an_cdt_is_constrained(tri, i)) {
        continue;
      }
      // The apex across the edge lies outside the circumcircle; on it is fine, cocircular points
      // having more than one valid diagonal.
      const an_cdt_tri *ut = &cdt->tris[u];
      int j = an_cdt_neighbour_index(ut, (int32_t)t);
      if (an_incircle(a, b, c, cdt->points[ut->v[j]]) > 0.0) {
        return check_fail(why, why_size, "triangles %ld and %ld: unconstrained edge not Delaunay",
                          (long)t, (long)u);
      }
    }
  }
  return true;
}

bool an_cdt_check_constraint(const an_cdt *cdt, int32_t a, int32_t b, char *why, size_t why_size) {
  if (a < 0 || b < 0 || (size_t)a >= cdt->point_count || (size_t)b >= cdt->point_count) {
    return check_fail(why, why_size, "constraint %ld-%ld: vertex out of range", (long)a, (long)b);
  }
  vec2 pa = cdt->points[a], pb = cdt->points[b];
  vec2 dir = v2_sub(pb, pa);
  int32_t v = a;
  for (size_t steps = 0; v != b; ++steps) {
    if (steps > cdt->point_count) {
      return check_fail(why, why_size, "constraint %ld-%ld: the chain does not end", (long)a,
                        (long)b);
    }
    // Among the constraint edges at v, the one that advances towards b and stays closest to the
    // segment (rounded crossings lie a rounding error off it).
    double here = v2_dot(v2_sub(cdt->points[v], pa), dir);
    int32_t best = -1;
    double best_off = INFINITY;
    int32_t start = cdt->vertex_tri[v];
    size_t visited = 0;
    for (int dir_side = 0; dir_side < 2; ++dir_side) {
      int32_t t = start;
      do {
        if (++visited > 2 * cdt->tri_count) {
          return check_fail(why, why_size, "constraint %ld-%ld: cannot go round vertex %ld",
                            (long)a, (long)b, (long)v);
        }
        const an_cdt_tri *tri = &cdt->tris[t];
        int k = an_cdt_vertex_index(tri, v);
        for (int e = 0; e < 2; ++e) {
          int edge = e == 0 ? an_cdt_next3(k) : an_cdt_prev3(k); // the two edges at v
          int32_t w = tri->v[e == 0 ? an_cdt_prev3(k) : an_cdt_next3(k)];
          if (!an_cdt_is_constrained(tri, edge)) {
            continue;
          }
          vec2 pw = cdt->points[w];
          double off = fabs(v2_cross(dir, v2_sub(pw, pa)));
          if (v2_dot(v2_sub(pw, pa), dir) > here && off < best_off) {
            best = w;
            best_off = off;
          }
        }
        t = dir_side == 0 ? tri->n[an_cdt_next3(k)] : tri->n[an_cdt_prev3(k)];
      } while (t >= 0 && t != start);
      if (t == start) {
        break; // went all the way round
      }
    }
    if (best < 0) {
      return check_fail(why, why_size,
                        "constraint %ld-%ld: no constraint edge goes on from its "
                        "vertex %ld",
                        (long)a, (long)b, (long)v);
    }
    v = best;
  }
  return true;
}
