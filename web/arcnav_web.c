// SPDX-License-Identifier: MIT
// The web page's bridge to the library, compiled with Emscripten beside libarcnav.a. JavaScript
// keeps the returned pointers as handles: one map, and one planner per (engine, radius) it has
// asked for. Points cross the boundary as arrays of arcnav_vec2 that JavaScript writes into the
// module's memory (two doubles each); answers come back in a double array it reads the same way.
#include "arcnav_web.h"

#include <emscripten/emscripten.h>
#include <stdlib.h>

struct an_web_planner {
  arcnav_planner *planner;
  arcnav_query *query;
  arcnav_path *path;
  double *data; ///< length, piece count, then AN_WEB_PIECE_DOUBLES per piece
  size_t data_capacity;
  double *triangles; ///< 6 doubles per navmesh triangle, filled on first request
};

static void put_error(const arcnav_error *error, int *out) {
  if (out != NULL) {
    out[0] = error->obstacle;
    out[1] = error->ring;
    out[2] = error->vertex;
  }
}

EMSCRIPTEN_KEEPALIVE arcnav_map *an_web_map_create(void) {
  arcnav_map *map = NULL;
  return arcnav_map_create(NULL, &map) == ARCNAV_OK ? map : NULL;
}

EMSCRIPTEN_KEEPALIVE void an_web_map_destroy(arcnav_map *map) {
  arcnav_map_destroy(map);
}

EMSCRIPTEN_KEEPALIVE int an_web_map_add_polygon(arcnav_map *map, const arcnav_vec2 *points,
                                                const int *ring_sizes, int ring_count,
                                                int *error_out) {
  if (map == NULL || points == NULL || ring_sizes == NULL || ring_count < 1) {
    return ARCNAV_ERR_INVALID_ARGUMENT;
  }
  size_t holes = (size_t)ring_count - 1;
  const arcnav_vec2 **hole_points = NULL;
  size_t *hole_sizes = NULL;
  if (holes > 0) {
    hole_points = malloc(holes * sizeof *hole_points);
    hole_sizes = malloc(holes * sizeof *hole_sizes);
    if (hole_points == NULL || hole_sizes == NULL) {
      free(hole_points);
      free(hole_sizes);
      return ARCNAV_ERR_OUT_OF_MEMORY;
    }
  }
  size_t offset = (size_t)ring_sizes[0];
  for (size_t i = 0; i < holes; i++) {
    hole_points[i] = points + offset;
    hole_sizes[i] = (size_t)ring_sizes[i + 1];
    offset += hole_sizes[i];
  }
  arcnav_error error = {ARCNAV_OK, -1, -1, -1};
  arcnav_status status = arcnav_map_add_polygon(map, points, (size_t)ring_sizes[0], hole_points,
                                                hole_sizes, holes, &error);
  put_error(&error, error_out);
  free(hole_points);
  free(hole_sizes);
  return (int)status;
}

EMSCRIPTEN_KEEPALIVE int an_web_map_add_circle(arcnav_map *map, double x, double y, double radius,
                                               int *error_out) {
  arcnav_error error = {ARCNAV_OK, -1, -1, -1};
  arcnav_status status = arcnav_map_add_circle(map, (arcnav_vec2){x, y}, radius, &error);
  put_error(&error, error_out);
  return (int)status;
}

EMSCRIPTEN_KEEPALIVE int an_web_map_set_bounds(arcnav_map *map, const arcnav_vec2 *ring, int count,
                                               int *error_out) {
  if (count < 0) {
    return ARCNAV_ERR_INVALID_ARGUMENT;
  }
  arcnav_error error = {ARCNAV_OK, -1, -1, -1};
  arcnav_status status = arcnav_map_set_bounds(map, ring, (size_t)count, &error);
  put_error(&error, error_out);
  return (int)status;
}

EMSCRIPTEN_KEEPALIVE void an_web_planner_destroy(an_web_planner *web) {
  if (web == NULL) {
    return;
  }
  arcnav_path_destroy(web->path);
  arcnav_query_destroy(web->query);
  arcnav_planner_destroy(web->planner);
  free(web->data);
  free(web->triangles);
  free(web);
}

EMSCRIPTEN_KEEPALIVE an_web_planner *an_web_planner_create(const arcnav_map *map, int engine,
                                                           double radius, int *status_out) {
  an_web_planner *web = calloc(1, sizeof *web);
  arcnav_status status = ARCNAV_ERR_OUT_OF_MEMORY;
  if (web != NULL) {
    arcnav_planner_def def = arcnav_default_planner_def();
    def.engine = (arcnav_engine)engine;
    def.radius = radius;
    status = arcnav_planner_create(map, &def, &web->planner);
    if (status == ARCNAV_OK) {
      status = arcnav_query_create(web->planner, &web->query);
    }
    if (status == ARCNAV_OK) {
      status = arcnav_path_create(NULL, &web->path);
    }
  }
  if (status_out != NULL) {
    *status_out = (int)status;
  }
  if (status != ARCNAV_OK) {
    an_web_planner_destroy(web);
    return NULL;
  }
  return web;
}

EMSCRIPTEN_KEEPALIVE int an_web_planner_engine(const an_web_planner *web) {
  return (int)arcnav_planner_engine(web->planner);
}

EMSCRIPTEN_KEEPALIVE int an_web_find_path(an_web_planner *web, double sx, double sy, double gx,
                                          double gy) {
  arcnav_status status =
      arcnav_find_path(web->query, (arcnav_vec2){sx, sy}, (arcnav_vec2){gx, gy}, web->path);
  size_t count = arcnav_path_piece_count(web->path);
  size_t need = 2 + count * AN_WEB_PIECE_DOUBLES;
  if (need > web->data_capacity) {
    size_t capacity = need > 2 * web->data_capacity ? need : 2 * web->data_capacity;
    double *grown = realloc(web->data, capacity * sizeof *grown);
    if (grown == NULL) {
      return ARCNAV_ERR_OUT_OF_MEMORY;
    }
    web->data = grown;
    web->data_capacity = capacity;
  }
  double *out = web->data;
  out[0] = arcnav_path_length(web->path);
  out[1] = (double)count;
  for (size_t i = 0; i < count; i++) {
    arcnav_piece p = arcnav_path_piece(web->path, i);
    double *d = out + 2 + i * AN_WEB_PIECE_DOUBLES;
    d[0] = p.type == ARCNAV_PIECE_ARC ? 1 : 0;
    d[1] = p.from.x;
    d[2] = p.from.y;
    d[3] = p.to.x;
    d[4] = p.to.y;
    d[5] = p.center.x;
    d[6] = p.center.y;
    d[7] = p.radius;
    d[8] = p.sweep;
    d[9] = p.ccw ? 1 : 0;
    d[10] = p.length;
    d[11] = 0;
  }
  return (int)status;
}

EMSCRIPTEN_KEEPALIVE const double *an_web_path_data(const an_web_planner *web) {
  return web->data;
}

EMSCRIPTEN_KEEPALIVE int an_web_triangle_count(const an_web_planner *web) {
  return (int)arcnav_planner_triangle_count(web->planner);
}

EMSCRIPTEN_KEEPALIVE const double *an_web_triangles(an_web_planner *web) {
  size_t count = arcnav_planner_triangle_count(web->planner);
  if (count == 0) {
    return NULL;
  }
  if (web->triangles == NULL) {
    web->triangles = malloc(count * 6 * sizeof *web->triangles);
    if (web->triangles == NULL) {
      return NULL;
    }
    for (size_t i = 0; i < count; i++) {
      arcnav_vec2 v[3] = {{0, 0}, {0, 0}, {0, 0}};
      arcnav_planner_triangle(web->planner, i, v);
      for (int k = 0; k < 3; k++) {
        web->triangles[i * 6 + 2 * (size_t)k] = v[k].x;
        web->triangles[i * 6 + 2 * (size_t)k + 1] = v[k].y;
      }
    }
  }
  return web->triangles;
}

EMSCRIPTEN_KEEPALIVE const char *an_web_status_name(int status) {
  return arcnav_status_name((arcnav_status)status);
}

EMSCRIPTEN_KEEPALIVE const char *an_web_status_message(int status) {
  return arcnav_status_message((arcnav_status)status);
}
