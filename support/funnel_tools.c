// SPDX-License-Identifier: MIT
// The funnel over an explicit list of portals (the library's searches keep their own incremental
// funnel), and the unlimited channel search: what the funnel tests call that the library does not.
#include "funnel_tools.h"

#include "geom/predicates.h"

typedef struct funnel_state {
  vec2 *out;    ///< corners
  size_t count; ///< corners written
} funnel_state;

static void emit(funnel_state *s, vec2 p) {
  if (s->count > 0 && p.x == s->out[s->count - 1].x && p.y == s->out[s->count - 1].y) {
    return;
  }
  s->out[s->count++] = p;
}

static bool same(vec2 a, vec2 b) {
  return a.x == b.x && a.y == b.y;
}

/// Simple stupid funnel (Mononen) with exact orientation tests. Portal 0 is the apex itself,
/// portals 1..m are (left[i-1], right[i-1]), and portal m + 1 is the goal. When the funnel
/// collapses on one side, the corner on the other side is emitted and the scan restarts from the
/// portal that set it; every restart moves the apex to a later portal, so the scan ends.
static void funnel_run(vec2 apex0, const vec2 *left, const vec2 *right, size_t m, vec2 goal,
                       funnel_state *s) {
  size_t n = m + 2;
  vec2 apex = apex0, pl = apex0, pr = apex0;
  size_t li = 0, ri = 0;
  s->count = 0;
  emit(s, apex);
  for (size_t i = 1; i < n; ++i) {
    vec2 l = i <= m ? left[i - 1] : goal;
    vec2 r = i <= m ? right[i - 1] : goal;
    // Right side: the new right point narrows the funnel when it is not to the right of it.
    if (an_orient2d(apex, pr, r) >= 0.0) {
      if (same(apex, pr) || an_orient2d(apex, pl, r) < 0.0) {
        pr = r;
        ri = i;
      } else {
        // It crossed the left edge: the left point is a corner.
        apex = pl;
        emit(s, apex);
        pr = apex;
        i = ri = li;
        continue;
      }
    }
    if (an_orient2d(apex, pl, l) <= 0.0) {
      if (same(apex, pl) || an_orient2d(apex, pr, l) > 0.0) {
        pl = l;
        li = i;
      } else {
        apex = pr;
        emit(s, apex);
        pl = apex;
        i = li = ri;
        continue;
      }
    }
  }
  emit(s, goal);
}

size_t sup_string_pull(vec2 start, const vec2 *left, const vec2 *right, size_t portal_count,
                       vec2 goal, vec2 *out_points) {
  funnel_state s = {out_points, 0};
  funnel_run(start, left, right, portal_count, goal, &s);
  if (s.count == 1) {
    out_points[1] = goal; // start == goal
    return 2;
  }
  return an_funnel_merge_collinear(out_points, s.count);
}

arcnav_status sup_funnel_find_path(const an_navmesh *mesh, an_funnel_scratch *scratch, vec2 start,
                                   vec2 goal, bool optimal, an_funnel_result *out) {
  return an_funnel_find_path_within(mesh, scratch, start, goal, optimal, 0, out);
}
