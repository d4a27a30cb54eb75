// SPDX-License-Identifier: MIT
#include "arcnav/arcnav.h"

typedef struct status_text {
  arcnav_status status;
  const char *name;
  const char *message;
} status_text;

static const status_text STATUS_TEXTS[] = {
    {ARCNAV_OK, "ok", "a path was found"},
    {ARCNAV_NO_PATH, "no_path", "start and goal are not connected"},
    {ARCNAV_START_BLOCKED, "start_blocked", "the agent does not fit at the start"},
    {ARCNAV_GOAL_BLOCKED, "goal_blocked", "the agent does not fit at the goal"},
    {ARCNAV_SEARCH_LIMIT, "search_limit",
     "the search reached the query's expansion limit before settling the question"},
    {ARCNAV_PARTIAL, "partial",
     "the goal cannot be reached; the path leads to the reachable point nearest to it"},
    {ARCNAV_IN_PROGRESS, "in_progress",
     "the sliced search spent its slice; resume it for the answer"},
    {ARCNAV_ERR_INVALID_ARGUMENT, "invalid_argument", "invalid argument"},
    {ARCNAV_ERR_OUT_OF_MEMORY, "out_of_memory", "out of memory"},
    {ARCNAV_ERR_NOT_FINITE, "not_finite", "a coordinate or radius is NaN or infinite"},
    {ARCNAV_ERR_TOO_FEW_VERTICES, "too_few_vertices", "a ring has fewer than 3 distinct vertices"},
    {ARCNAV_ERR_ZERO_AREA, "zero_area", "a ring encloses no area"},
    {ARCNAV_ERR_SELF_INTERSECTION, "self_intersection",
     "a ring crosses or touches itself, or crosses another ring of the same polygon, or touching "
     "rings cut the polygon's interior apart"},
    {ARCNAV_ERR_HOLE_OUTSIDE, "hole_outside", "a hole is not inside its polygon's outer ring"},
    {ARCNAV_ERR_NEGATIVE_RADIUS, "negative_radius", "a radius is negative"},
    {ARCNAV_ERR_TOO_LARGE, "too_large", "too many vertices or obstacles"},
    {ARCNAV_ERR_RING_OVERLAP, "ring_overlap", "two rings of one polygon overlap along an edge"},
    {ARCNAV_ERR_BUFFER_TOO_SMALL, "buffer_too_small",
     "the output buffer is too small; the count tells the size needed"},
    {ARCNAV_ERR_RADIUS_OUT_OF_RANGE, "radius_out_of_range",
     "the planner was not built for this radius (above its max_radius, or not its one radius)"},
    {ARCNAV_ERR_STALE_ID, "stale_id",
     "the obstacle id names no obstacle of the map (removed, or not from this map)"},
    {ARCNAV_ERR_NO_SEARCH, "no_search",
     "no sliced search is in progress on the query object (none begun, or it has answered)"},
};

static const status_text *find_status(arcnav_status status) {
  for (size_t i = 0; i < sizeof STATUS_TEXTS / sizeof STATUS_TEXTS[0]; ++i) {
    if (STATUS_TEXTS[i].status == status) {
      return &STATUS_TEXTS[i];
    }
  }
  return NULL;
}

const char *arcnav_status_name(arcnav_status status) {
  const status_text *text = find_status(status);
  return text ? text->name : "unknown_status";
}

const char *arcnav_status_message(arcnav_status status) {
  const status_text *text = find_status(status);
  return text ? text->message : "unknown status";
}

bool arcnav_status_is_answer(arcnav_status status) {
  return status == ARCNAV_OK || status == ARCNAV_NO_PATH || status == ARCNAV_START_BLOCKED ||
         status == ARCNAV_GOAL_BLOCKED || status == ARCNAV_PARTIAL;
}
