// SPDX-License-Identifier: MIT
#pragma once

// GeoJSON map reader: a FeatureCollection whose Polygon and MultiPolygon features are obstacles,
// Point features with a numeric properties.radius are circles, and the Polygon feature with
// properties.role == "bounds" is the bounds. Anything else is ignored with a warning.

#include "diag.h"
#include "loaded_map.h"

#include <stdbool.h>
#include <stddef.h>

/// Parse `text` (`length` bytes) into `map` (already initialised). On failure *diag names `file`,
/// the feature index and, where it applies, the polygon, ring and vertex.
bool an_cli_geojson_parse(const char *file, const char *text, size_t length, an_cli_map *map,
                          an_cli_diag *diag);
