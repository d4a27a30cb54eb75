// SPDX-License-Identifier: MIT
// The arcnav web page: loads a map into the WebAssembly module (arcnav.js, built from
// web/arcnav_web.c and the library), plans the exact path and the plain funnel path between a
// draggable start and goal, and draws both over the obstacles and their outline grown by R.
//
// URL parameters: map=town|maze|plaza or file=URL (a map file on the same server: GeoJSON, or a
// MovingAI .map), from=X,Y, to=X,Y, r=R, mesh=1 (draw the plain funnel's navmesh), bench=N (drag
// the goal N frames along a line from `to` to `benchto`=X,Y, by default the start, and report
// the redraw times). The page writes what it shows, as JSON, into <pre id="result">, with
// "ready": true once done.
'use strict';

const ENGINE_AUTO = 0;
const ENGINE_PLAIN_FUNNEL = 3;
const ENGINE_NAMES = ['auto', 'tangent', 'funnel', 'plain funnel'];
const PIECE_DOUBLES = 12; // AN_WEB_PIECE_DOUBLES in arcnav_web.h
const PLANNER_CACHE_SIZE = 8;
const EXAMPLES = {
  town: { from: [10, 10], to: [190, 130], radius: 2 },
  maze: { from: [10, 10], to: [90, 90], radius: 1 },
  plaza: { from: [5, 30], to: [75, 40], radius: 1.5 },
};
const COLORS = {
  background: '#fbfaf6',
  outside: '#d9d4c7',
  outsideEdge: '#6b6455',
  obstacle: '#8c8c8c',
  obstacleEdge: '#3d3d3d',
  grown: '#e07b00',
  mesh: '#9fb7c9',
  exact: '#1f5fd1',
  plain: '#9c3fb0',
  start: '#2e7d32',
  goal: '#c62828',
};

const page = {
  module: null,
  map: 0, // arcnav_map * in the module
  geometry: null, // { name, shapes, bounds, min, max, size; yDown and grid for grid maps }
  radius: 0,
  from: [0, 0],
  to: [0, 0],
  planners: new Map(), // "engine radius" -> { handle, engine, buildMs }
  results: { exact: null, plain: null },
  redrawTimes: [],
  queryMicros: { exact: null, plain: null },
  bench: null,
  showMesh: false,
  view: { scale: 1, ox: 0, oy: 0, flip: -1, width: 0, height: 0, dpr: 1 },
  layer: null, // offscreen canvas with everything that does not move
  dragging: null, // 'from' | 'to' | null
  framePending: false,
  timingTimer: 0,
  mapName: null, // the example's name or the file's name
  ready: false,
};

const $ = (id) => document.getElementById(id);
const canvas = $('view');

// ------------------------------------------------------------------------------------------------
// Results into the DOM (for people and for the headless test)
// ------------------------------------------------------------------------------------------------

function resultOf(result, key) {
  if (result === null) {
    return null;
  }
  return {
    status: result.status,
    length: result.status === 'ok' ? result.length : null,
    pieces: result.pieces.length,
    arcs: result.pieces.filter((p) => p.arc).length,
    engine: result.engine,
    build_ms: result.buildMs,
    query_us: page.queryMicros[key],
  };
}

window.arcnavPublish = function () {
  const out = {
    ready: page.ready,
    map: page.mapName,
    radius: page.radius,
    from: page.from,
    to: page.to,
    exact: resultOf(page.results.exact, 'exact'),
    plain: resultOf(page.results.plain, 'plain'),
    redraw_median_ms: median(page.redrawTimes),
    bench: page.bench && page.bench.done ? page.bench.summary : null,
    errors: window.arcnavErrors,
  };
  $('result').textContent = JSON.stringify(out);
};

function median(values) {
  return quantile(values, 0.5);
}

function quantile(values, q) {
  if (values.length === 0) {
    return null;
  }
  const sorted = values.slice().sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

function formatMs(ms) {
  return ms === null ? '\u2013' : ms < 10 ? ms.toFixed(2) + ' ms' : ms.toFixed(1) + ' ms';
}

function formatMicros(us) {
  if (us === null || us === undefined) {
    return '\u2013';
  }
  return us < 1000 ? us.toFixed(us < 10 ? 1 : 0) + ' \u00b5s' : (us / 1000).toFixed(2) + ' ms';
}

function formatPoint(p) {
  const digits = page.geometry && page.geometry.size < 20 ? 3 : 1;
  return p[0].toFixed(digits) + ', ' + p[1].toFixed(digits);
}

function showResults() {
  for (const key of ['exact', 'plain']) {
    const result = page.results[key];
    const cell = $(key + '-length');
    if (result === null) {
      cell.textContent = 'no planner';
      cell.className = 'bad';
    } else if (result.status === 'ok') {
      cell.textContent = result.length.toFixed(4);
      cell.className = '';
    } else {
      cell.textContent = result.status.replace('_', ' ');
      cell.className = 'bad';
    }
    $(key + '-time').textContent = formatMicros(page.queryMicros[key]);
  }
  const exact = page.results.exact;
  const plain = page.results.plain;
  let text = '';
  if (exact && plain && exact.status === 'ok' && plain.status === 'ok' && exact.length > 0) {
    const ratio = plain.length / exact.length;
    const arcs = exact.pieces.filter((p) => p.arc).length;
    text = `plain / exact = ${ratio.toFixed(4)}; the exact path has ${exact.pieces.length} ` +
      `pieces, ${arcs} of them arcs of radius ${page.radius}`;
    if (page.radius > 0) {
      text += '; the funnel path is a polyline on the grown obstacles';
    }
  } else if (exact && exact.status === 'ok') {
    text = `the exact path has ${exact.pieces.length} pieces`;
  }
  $('comparison').textContent = text;
  $('from-text').textContent = formatPoint(page.from);
  $('to-text').textContent = formatPoint(page.to);
  $('build-text').textContent = ['exact', 'plain'].map((key) => page.results[key] === null ?
    '\u2013' : formatMs(page.results[key].buildMs)).join(', ');
  $('build-text').title = 'exact, plain funnel';
  const last = page.redrawTimes[page.redrawTimes.length - 1];
  $('redraw-text').textContent = last === undefined ? '\u2013' :
    `${formatMs(last)}, median ${formatMs(median(page.redrawTimes))}`;
  $('redraw-text').title = 'both queries and the drawing, per frame';
  window.arcnavPublish();
}

// ------------------------------------------------------------------------------------------------
// Map files
// ------------------------------------------------------------------------------------------------

function fail(message) {
  throw new Error(message);
}

function readRing(value, where) {
  if (!Array.isArray(value)) {
    fail(`${where}: a ring must be an array of positions`);
  }
  return value.map((position, i) => {
    if (!Array.isArray(position) || position.length < 2 ||
        typeof position[0] !== 'number' || typeof position[1] !== 'number' ||
        !Number.isFinite(position[0]) || !Number.isFinite(position[1])) {
      fail(`${where}, vertex ${i}: a position must be [x, y] with finite numbers`);
    }
    return [position[0], position[1]];
  });
}

function readPolygon(coordinates, where) {
  if (!Array.isArray(coordinates) || coordinates.length === 0) {
    fail(`${where}: Polygon coordinates must be a non-empty array of rings`);
  }
  return coordinates.map((ring, r) => readRing(ring, `${where}, ring ${r}`));
}

// The GeoJSON map format of the command-line tool (docs/CLI.md): Polygon and MultiPolygon
// features are obstacles, a Point with a numeric properties.radius is a circle, and a Polygon
// with properties.role "bounds" is the region the unit stays inside.
function parseGeoJSON(text, name) {
  let doc;
  try {
    doc = JSON.parse(text);
  } catch (error) {
    fail(`${name}: invalid JSON: ${error.message}`);
  }
  if (doc === null || typeof doc !== 'object' || doc.type !== 'FeatureCollection' ||
      !Array.isArray(doc.features)) {
    fail(`${name}: not a GeoJSON FeatureCollection`);
  }
  const shapes = [];
  const warnings = [];
  let bounds = null;
  doc.features.forEach((feature, index) => {
    const where = `${name}: feature ${index}`;
    if (feature === null || typeof feature !== 'object' || feature.type !== 'Feature') {
      fail(`${where}: not a Feature`);
    }
    const properties = feature.properties || {};
    const geometry = feature.geometry;
    if (geometry === null || geometry === undefined) {
      warnings.push(`${where}: no geometry; ignored`);
      return;
    }
    if (properties.role === 'bounds') {
      if (geometry.type !== 'Polygon') {
        fail(`${where}: role "bounds" needs a Polygon geometry`);
      }
      if (bounds !== null) {
        fail(`${where}: a second bounds polygon`);
      }
      const rings = readPolygon(geometry.coordinates, where);
      if (rings.length !== 1) {
        fail(`${where}: the bounds polygon must not have holes`);
      }
      bounds = { ring: rings[0], feature: index };
    } else if (geometry.type === 'Polygon') {
      shapes.push({ kind: 'polygon', feature: index, rings: readPolygon(geometry.coordinates, where) });
    } else if (geometry.type === 'MultiPolygon') {
      if (!Array.isArray(geometry.coordinates)) {
        fail(`${where}: MultiPolygon coordinates must be an array of polygons`);
      }
      geometry.coordinates.forEach((polygon, part) => {
        const partWhere = `${where} (polygon ${part} of the MultiPolygon)`;
        shapes.push({ kind: 'polygon', feature: index, rings: readPolygon(polygon, partWhere) });
      });
    } else if (geometry.type === 'Point') {
      if (properties.radius === undefined) {
        warnings.push(`${where}: Point without properties.radius; ignored`);
        return;
      }
      const radius = properties.radius;
      if (typeof radius !== 'number' || !Number.isFinite(radius) || radius < 0) {
        fail(`${where}: properties.radius must be a finite number >= 0`);
      }
      const center = readRing([geometry.coordinates], where)[0];
      shapes.push({ kind: 'circle', feature: index, center, radius });
    } else {
      warnings.push(`${where}: ${geometry.type} is not an obstacle; ignored`);
    }
  });
  return { name, shapes, bounds: bounds === null ? null : bounds.ring, warnings };
}

function withExtent(geometry) {
  let min = [Infinity, Infinity];
  let max = [-Infinity, -Infinity];
  const add = (p, pad) => {
    min = [Math.min(min[0], p[0] - pad), Math.min(min[1], p[1] - pad)];
    max = [Math.max(max[0], p[0] + pad), Math.max(max[1], p[1] + pad)];
  };
  for (const shape of geometry.shapes) {
    if (shape.kind === 'circle') {
      add(shape.center, shape.radius);
    } else {
      shape.rings[0].forEach((p) => add(p, 0));
    }
  }
  if (geometry.bounds !== null) {
    geometry.bounds.forEach((p) => add(p, 0));
  }
  if (min[0] > max[0]) {
    min = [0, 0];
    max = [1, 1];
  }
  geometry.min = min;
  geometry.max = max;
  geometry.size = Math.max(max[0] - min[0], max[1] - min[1], 1e-9);
  return geometry;
}

// ------------------------------------------------------------------------------------------------
// The WebAssembly side
// ------------------------------------------------------------------------------------------------

function statusName(status) {
  return page.module.UTF8ToString(page.module._an_web_status_name(status));
}

function statusMessage(status) {
  return page.module.UTF8ToString(page.module._an_web_status_message(status));
}

// Copies points ([x, y] arrays) into the module's memory as arcnav_vec2s.
function writePoints(points) {
  const m = page.module;
  const pointer = m._malloc(Math.max(1, points.length) * 16);
  const heap = m.HEAPF64;
  let at = pointer / 8;
  for (const p of points) {
    heap[at++] = p[0];
    heap[at++] = p[1];
  }
  return pointer;
}

function destroyPlanners() {
  for (const entry of page.planners.values()) {
    page.module._an_web_planner_destroy(entry.handle);
  }
  page.planners.clear();
}

// Builds the library's map from parsed geometry; throws with the place the library refused.
function buildMap(geometry) {
  const m = page.module;
  const map = m._an_web_map_create();
  if (map === 0) {
    fail('out of memory');
  }
  const errorOut = m._malloc(12);
  const refuse = (status, where) => {
    const at = errorOut / 4;
    const [ring, vertex] = [m.HEAP32[at + 1], m.HEAP32[at + 2]];
    let text = `${geometry.name}: ${where}`;
    if (ring >= 0) {
      text += `, ring ${ring}`;
    }
    if (vertex >= 0) {
      text += `, vertex ${vertex}`;
    }
    m._free(errorOut);
    m._an_web_map_destroy(map);
    fail(`${text}: ${statusMessage(status)} (${statusName(status)})`);
  };
  for (const shape of geometry.shapes) {
    let status;
    if (shape.kind === 'circle') {
      status = m._an_web_map_add_circle(map, shape.center[0], shape.center[1], shape.radius,
        errorOut);
    } else {
      const points = writePoints(shape.rings.flat());
      const sizes = m._malloc(4 * shape.rings.length);
      shape.rings.forEach((ring, i) => { m.HEAP32[sizes / 4 + i] = ring.length; });
      status = m._an_web_map_add_polygon(map, points, sizes, shape.rings.length, errorOut);
      m._free(points);
      m._free(sizes);
    }
    if (status !== 0) {
      refuse(status, `feature ${shape.feature}`);
    }
  }
  if (geometry.bounds !== null) {
    const points = writePoints(geometry.bounds);
    const status = m._an_web_map_set_bounds(map, points, geometry.bounds.length, errorOut);
    m._free(points);
    if (status !== 0) {
      refuse(status, 'bounds');
    }
  }
  m._free(errorOut);
  return map;
}

// The planner for (engine, radius), from the cache or built now; null when the build fails.
function planner(engine, radius) {
  const key = `${engine} ${radius}`;
  let entry = page.planners.get(key);
  if (entry !== undefined) {
    page.planners.delete(key); // re-inserted below: the Map's order is the use order
    page.planners.set(key, entry);
    return entry;
  }
  const m = page.module;
  const statusOut = m._malloc(4);
  const start = performance.now();
  const handle = m._an_web_planner_create(page.map, engine, radius, statusOut);
  const buildMs = performance.now() - start;
  const status = m.HEAP32[statusOut / 4];
  m._free(statusOut);
  if (handle === 0) {
    console.error(`cannot build the ${ENGINE_NAMES[engine]} planner for R = ${radius}: ` +
      `${statusMessage(status)} (${statusName(status)})`);
    return null;
  }
  entry = { handle, engine: ENGINE_NAMES[m._an_web_planner_engine(handle)], buildMs };
  page.planners.set(key, entry);
  while (page.planners.size > PLANNER_CACHE_SIZE) {
    const [oldest, old] = page.planners.entries().next().value;
    m._an_web_planner_destroy(old.handle);
    page.planners.delete(oldest);
  }
  return entry;
}

function findPath(entry) {
  if (entry === null) {
    return null;
  }
  const m = page.module;
  const status = m._an_web_find_path(entry.handle, page.from[0], page.from[1], page.to[0],
    page.to[1]);
  const data = m._an_web_path_data(entry.handle) / 8;
  const heap = m.HEAPF64;
  const pieces = [];
  const count = status === 0 ? heap[data + 1] : 0;
  for (let i = 0; i < count; i++) {
    const d = data + 2 + i * PIECE_DOUBLES;
    pieces.push({
      arc: heap[d] === 1,
      from: [heap[d + 1], heap[d + 2]],
      to: [heap[d + 3], heap[d + 4]],
      center: [heap[d + 5], heap[d + 6]],
      radius: heap[d + 7],
      sweep: heap[d + 8],
      ccw: heap[d + 9] === 1,
    });
  }
  return {
    status: statusName(status),
    length: status === 0 ? heap[data] : null,
    pieces,
    engine: entry.engine,
    buildMs: entry.buildMs,
  };
}

function triangles(entry) {
  const m = page.module;
  const count = m._an_web_triangle_count(entry.handle);
  const pointer = m._an_web_triangles(entry.handle);
  return pointer === 0 ? new Float64Array(0) :
    m.HEAPF64.slice(pointer / 8, pointer / 8 + 6 * count);
}

// Query time: one query is shorter than the browser's clock resolution, so once the scene stops
// changing each query runs repeatedly for a few milliseconds and the mean is shown.
function measureQueries() {
  const m = page.module;
  for (const [key, engine] of [['exact', ENGINE_AUTO], ['plain', ENGINE_PLAIN_FUNNEL]]) {
    const entry = planner(engine, page.radius);
    if (entry === null) {
      page.queryMicros[key] = null;
      continue;
    }
    let runs = 0;
    const start = performance.now();
    let elapsed = 0;
    do {
      m._an_web_find_path(entry.handle, page.from[0], page.from[1], page.to[0], page.to[1]);
      runs++;
      elapsed = performance.now() - start;
    } while (elapsed < 8 && runs < 5000);
    page.queryMicros[key] = (1000 * elapsed) / runs;
  }
  showResults();
}

function scheduleQueryTiming() {
  clearTimeout(page.timingTimer);
  page.timingTimer = setTimeout(measureQueries, 150);
}

// ------------------------------------------------------------------------------------------------
// Drawing
// ------------------------------------------------------------------------------------------------

// Maps are drawn with y up, except grid maps, whose rows count down from the top (v.flip = 1).
function toScreen(p) {
  const v = page.view;
  return [v.ox + p[0] * v.scale, v.oy + v.flip * p[1] * v.scale];
}

function toWorld(x, y) {
  const v = page.view;
  return [(x - v.ox) / v.scale, v.flip * (y - v.oy) / v.scale];
}

// Adds to the path a true arc around `center` (map coordinates) from angle `angle` (radians, in
// map coordinates) through `sweep`, counter-clockwise in map coordinates when `ccw`.
function arcTo(ctx, center, radius, angle, sweep, ccw) {
  const [cx, cy] = toScreen(center);
  const flip = page.view.flip;
  const start = flip * angle;
  const end = start + flip * (ccw ? sweep : -sweep);
  ctx.arc(cx, cy, radius * page.view.scale, start, end, end < start);
}

function fitView() {
  const rect = canvas.getBoundingClientRect();
  const v = page.view;
  v.dpr = window.devicePixelRatio || 1;
  v.width = Math.max(1, rect.width);
  v.height = Math.max(1, rect.height);
  canvas.width = Math.round(v.width * v.dpr);
  canvas.height = Math.round(v.height * v.dpr);
  const g = page.geometry;
  if (g === null) {
    return;
  }
  const margin = 18;
  const w = g.max[0] - g.min[0] || 1;
  const h = g.max[1] - g.min[1] || 1;
  v.scale = Math.min((v.width - 2 * margin) / w, (v.height - 2 * margin) / h);
  v.ox = (v.width - w * v.scale) / 2 - g.min[0] * v.scale;
  v.flip = g.yDown ? 1 : -1;
  v.oy = g.yDown ? (v.height - h * v.scale) / 2 - g.min[1] * v.scale :
    (v.height + h * v.scale) / 2 + g.min[1] * v.scale;
  page.layer = null;
}

function ringPath(ctx, ring) {
  ring.forEach((p, i) => {
    const [x, y] = toScreen(p);
    if (i === 0) {
      ctx.moveTo(x, y);
    } else {
      ctx.lineTo(x, y);
    }
  });
  ctx.closePath();
}

function signedArea(ring) {
  let twice = 0;
  for (let i = 0; i < ring.length; i++) {
    const a = ring[i];
    const b = ring[(i + 1) % ring.length];
    twice += a[0] * b[1] - a[1] * b[0];
  }
  return twice / 2;
}

// The ring without repeated vertices, turned so that the blocked side lies on the left of every
// edge (the library's convention); null when fewer than 3 vertices remain.
function orientedRing(ring, materialInside) {
  const p = [];
  for (const v of ring) {
    const last = p[p.length - 1];
    if (last === undefined || last[0] !== v[0] || last[1] !== v[1]) {
      p.push(v);
    }
  }
  while (p.length > 1 && p[p.length - 1][0] === p[0][0] && p[p.length - 1][1] === p[0][1]) {
    p.pop();
  }
  if (p.length < 3) {
    return null;
  }
  if ((signedArea(p) > 0) !== materialInside) {
    p.reverse();
  }
  return p;
}

// The outline the unit's centre may not cross near one ring: each edge moved by R to the free
// (right) side, joined by arcs of radius R at corners that turn left (convex seen from free
// space) and cut where moved edges cross at the others; where short edges vanish the outline
// has an honest gap, as in the command-line tool's SVG.
function grownRingPath(ctx, p, radius) {
  const n = p.length;
  const dirs = [];
  const lengths = [];
  for (let i = 0; i < n; i++) {
    const a = p[i];
    const b = p[(i + 1) % n];
    const l = Math.hypot(b[0] - a[0], b[1] - a[1]);
    lengths.push(l);
    dirs.push(l > 0 ? [(b[0] - a[0]) / l, (b[1] - a[1]) / l] : [1, 0]);
  }
  const corners = [];
  for (let i = 0; i < n; i++) {
    const prev = (i + n - 1) % n;
    const din = dirs[prev];
    const dout = dirs[i];
    const nin = [din[1], -din[0]];
    const nout = [dout[1], -dout[0]];
    const cross = din[0] * dout[1] - din[1] * dout[0];
    const dot = din[0] * dout[0] + din[1] * dout[1];
    const corner = {
      kind: 'break',
      at: p[i],
      entry: [p[i][0] + nin[0] * radius, p[i][1] + nin[1] * radius],
      exit: [p[i][0] + nout[0] * radius, p[i][1] + nout[1] * radius],
      turn: 0,
    };
    if (cross > 1e-12 || (Math.abs(cross) <= 1e-12 && dot < 0)) {
      corner.kind = 'arc';
      corner.turn = Math.abs(cross) <= 1e-12 ? Math.PI : Math.atan2(cross, dot);
    } else if (Math.abs(cross) <= 1e-12) {
      corner.kind = 'join';
      corner.exit = corner.entry;
    } else {
      const k = radius / (1 + dot);
      const q = [p[i][0] + (nin[0] + nout[0]) * k, p[i][1] + (nin[1] + nout[1]) * k];
      const alongIn = (q[0] - corner.entry[0]) * din[0] + (q[1] - corner.entry[1]) * din[1];
      const alongOut = (q[0] - corner.exit[0]) * dout[0] + (q[1] - corner.exit[1]) * dout[1];
      if (alongIn <= 0 && -alongIn <= lengths[prev] && alongOut >= 0 && alongOut <= lengths[i]) {
        corner.kind = 'join';
        corner.entry = q;
        corner.exit = q;
      }
    }
    corners.push(corner);
  }
  let [x, y] = toScreen(corners[0].exit);
  ctx.moveTo(x, y);
  for (let k = 1; k <= n; k++) {
    const c = corners[k % n];
    [x, y] = toScreen(c.entry);
    ctx.lineTo(x, y);
    if (c.kind === 'arc') {
      const angle = Math.atan2(c.entry[1] - c.at[1], c.entry[0] - c.at[0]);
      arcTo(ctx, c.at, radius, angle, c.turn, true);
    } else if (c.kind === 'break') {
      [x, y] = toScreen(c.exit);
      ctx.moveTo(x, y);
    }
  }
}

function drawLayer() {
  const v = page.view;
  const layer = document.createElement('canvas');
  layer.width = canvas.width;
  layer.height = canvas.height;
  const ctx = layer.getContext('2d');
  ctx.setTransform(v.dpr, 0, 0, v.dpr, 0, 0);
  ctx.fillStyle = COLORS.background;
  ctx.fillRect(0, 0, v.width, v.height);
  const g = page.geometry;
  if (g.bounds !== null) {
    ctx.beginPath();
    ctx.rect(0, 0, v.width, v.height);
    ringPath(ctx, g.bounds);
    ctx.fillStyle = COLORS.outside;
    ctx.fill('evenodd');
    ctx.beginPath();
    ringPath(ctx, g.bounds);
    ctx.strokeStyle = COLORS.outsideEdge;
    ctx.lineWidth = 1;
    ctx.stroke();
  }
  if (page.showMesh) {
    const entry = planner(ENGINE_PLAIN_FUNNEL, page.radius);
    if (entry !== null) {
      const t = triangles(entry);
      ctx.beginPath();
      for (let i = 0; i < t.length; i += 6) {
        ringPath(ctx, [[t[i], t[i + 1]], [t[i + 2], t[i + 3]], [t[i + 4], t[i + 5]]]);
      }
      ctx.strokeStyle = COLORS.mesh;
      ctx.lineWidth = 0.7;
      ctx.stroke();
    }
  }
  ctx.fillStyle = COLORS.obstacle;
  ctx.strokeStyle = COLORS.obstacleEdge;
  ctx.lineWidth = 1;
  for (const shape of g.shapes) {
    ctx.beginPath();
    if (shape.kind === 'circle') {
      const [x, y] = toScreen(shape.center);
      ctx.arc(x, y, shape.radius * v.scale, 0, 2 * Math.PI);
    } else {
      shape.rings.forEach((ring) => ringPath(ctx, ring));
    }
    ctx.fill('evenodd');
    ctx.stroke();
  }
  if (page.radius > 0) {
    ctx.beginPath();
    for (const shape of g.shapes) {
      if (shape.kind === 'circle') {
        const [x, y] = toScreen(shape.center);
        ctx.moveTo(x + (shape.radius + page.radius) * v.scale, y);
        ctx.arc(x, y, (shape.radius + page.radius) * v.scale, 0, 2 * Math.PI);
        continue;
      }
      shape.rings.forEach((ring, r) => {
        const p = orientedRing(ring, r === 0);
        if (p !== null) {
          grownRingPath(ctx, p, page.radius);
        }
      });
    }
    if (g.bounds !== null) {
      const p = orientedRing(g.bounds, false);
      if (p !== null) {
        grownRingPath(ctx, p, page.radius);
      }
    }
    ctx.strokeStyle = COLORS.grown;
    ctx.lineWidth = 1.2;
    ctx.setLineDash([5, 3]);
    ctx.stroke();
    ctx.setLineDash([]);
  }
  page.layer = layer;
}

function pathOf(ctx, result) {
  const [x0, y0] = toScreen(page.from);
  ctx.moveTo(x0, y0);
  for (const piece of result.pieces) {
    if (!piece.arc) {
      const [x, y] = toScreen(piece.to);
      ctx.lineTo(x, y);
      continue;
    }
    // A true arc from the piece's centre, radius, start angle and sweep.
    const angle = Math.atan2(piece.from[1] - piece.center[1], piece.from[0] - piece.center[0]);
    arcTo(ctx, piece.center, piece.radius, angle, piece.sweep, piece.ccw);
  }
}

function drawMarker(ctx, at, color) {
  const [x, y] = toScreen(at);
  const r = page.radius * page.view.scale;
  if (r > 0) {
    ctx.beginPath();
    ctx.arc(x, y, r, 0, 2 * Math.PI);
    ctx.globalAlpha = 0.22;
    ctx.fillStyle = color;
    ctx.fill();
    ctx.globalAlpha = 1;
    ctx.strokeStyle = color;
    ctx.lineWidth = 1.2;
    ctx.stroke();
  }
  ctx.beginPath();
  ctx.arc(x, y, 5, 0, 2 * Math.PI);
  ctx.fillStyle = color;
  ctx.fill();
  ctx.strokeStyle = '#fff';
  ctx.lineWidth = 1.5;
  ctx.stroke();
}

function draw() {
  if (page.layer === null) {
    drawLayer();
  }
  const v = page.view;
  const ctx = canvas.getContext('2d');
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  ctx.drawImage(page.layer, 0, 0);
  ctx.setTransform(v.dpr, 0, 0, v.dpr, 0, 0);
  ctx.lineJoin = 'round';
  ctx.lineCap = 'round';
  const { exact, plain } = page.results;
  if (plain !== null && plain.status === 'ok') {
    ctx.beginPath();
    pathOf(ctx, plain);
    ctx.strokeStyle = COLORS.plain;
    ctx.lineWidth = 2;
    ctx.setLineDash([7, 5]);
    ctx.stroke();
    ctx.setLineDash([]);
  }
  if (exact !== null && exact.status === 'ok') {
    ctx.beginPath();
    pathOf(ctx, exact);
    ctx.strokeStyle = COLORS.exact;
    ctx.lineWidth = 3;
    ctx.stroke();
  } else if (exact !== null) {
    const [x0, y0] = toScreen(page.from);
    const [x1, y1] = toScreen(page.to);
    ctx.beginPath();
    ctx.moveTo(x0, y0);
    ctx.lineTo(x1, y1);
    ctx.strokeStyle = COLORS.goal;
    ctx.lineWidth = 1.5;
    ctx.setLineDash([4, 4]);
    ctx.stroke();
    ctx.setLineDash([]);
  }
  drawMarker(ctx, page.from, COLORS.start);
  drawMarker(ctx, page.to, COLORS.goal);
}

// One redraw: both queries and the drawing, timed together. With `flush` the canvas is read
// back, so the time includes the rasterising the browser would otherwise do after the script.
function redraw(flush) {
  const exact = planner(ENGINE_AUTO, page.radius); // built outside the timing when new
  const plain = planner(ENGINE_PLAIN_FUNNEL, page.radius);
  if (page.layer === null) {
    drawLayer();
  }
  const start = performance.now();
  page.results.exact = findPath(exact);
  page.results.plain = findPath(plain);
  draw();
  if (flush) {
    canvas.getContext('2d').getImageData(0, 0, 1, 1);
  }
  const ms = performance.now() - start;
  page.redrawTimes.push(ms);
  if (page.redrawTimes.length > 120) {
    page.redrawTimes.shift();
  }
  return ms;
}

function requestRedraw() {
  if (page.framePending) {
    return;
  }
  page.framePending = true;
  requestAnimationFrame(() => {
    page.framePending = false;
    redraw();
    showResults();
    scheduleQueryTiming();
  });
}

// ------------------------------------------------------------------------------------------------
// Loading maps and settings
// ------------------------------------------------------------------------------------------------

function niceStep(size) {
  return Math.pow(10, Math.round(Math.log10(size / 2000)));
}

function setRadius(radius) {
  page.radius = radius;
  const slider = $('radius');
  if (radius > Number(slider.max)) {
    slider.max = String(radius);
  }
  slider.value = String(radius);
  $('radius-value').textContent = String(radius);
  page.layer = null;
}

function useMap(geometry, settings) {
  const map = buildMap(geometry); // throws before anything changes when the map is refused
  destroyPlanners();
  if (page.map !== 0) {
    page.module._an_web_map_destroy(page.map);
  }
  page.map = map;
  page.geometry = withExtent(geometry);
  const g = page.geometry;
  const step = niceStep(g.size);
  const slider = $('radius');
  slider.step = String(step);
  slider.max = String(Math.ceil((0.08 * g.size) / step) * step);
  const inset = (t, axis) => g.min[axis] + t * (g.max[axis] - g.min[axis]);
  page.from = settings.from || [inset(0.05, 0), inset(0.05, 1)];
  page.to = settings.to || [inset(0.95, 0), inset(0.95, 1)];
  const radius = settings.radius !== undefined ? settings.radius :
    Math.round((0.01 * g.size) / step) * step;
  setRadius(Number(radius.toPrecision(12)));
  page.queryMicros = { exact: null, plain: null };
  page.redrawTimes = [];
  for (const warning of geometry.warnings || []) {
    console.warn(warning);
  }
  fitView();
}

async function loadExample(name, settings) {
  const response = await fetch(`maps/${name}.geojson`);
  if (!response.ok) {
    fail(`maps/${name}.geojson: HTTP ${response.status}`);
  }
  const geometry = parseGeoJSON(await response.text(), `${name}.geojson`);
  useMap(geometry, Object.assign({}, EXAMPLES[name], settings));
  page.mapName = name;
  $('map-select').value = name;
  $('map-note').textContent = 'or drop a GeoJSON or MovingAI .map file on the map';
}

// A map file's text: a MovingAI grid map (.map) or GeoJSON (anything else).
function parseMapFile(text, name) {
  if (name.toLowerCase().endsWith('.map')) {
    return parseMovingAI(text, name);
  }
  return parseGeoJSON(text, name);
}

function fileSettings(geometry) {
  if (geometry.grid === undefined) {
    return {};
  }
  // Grid maps: the unit fits corridors one cell wide; start and goal far apart in the largest
  // free region.
  return Object.assign({ radius: 0.25 }, movingAIEnds(geometry.grid) || {});
}

async function loadFile(file, settings) {
  const text = await file.text();
  const geometry = parseMapFile(text, file.name);
  useMap(geometry, Object.assign(fileSettings(geometry), settings || {}));
  page.mapName = file.name;
  let option = $('map-select').querySelector('option[value=""]');
  if (option === null) {
    option = document.createElement('option');
    option.value = '';
    $('map-select').appendChild(option);
  }
  option.textContent = file.name;
  $('map-select').value = '';
  let vertices = 0;
  for (const shape of geometry.shapes) {
    vertices += shape.kind === 'polygon' ? shape.rings.reduce((n, r) => n + r.length, 0) : 0;
  }
  $('map-note').textContent =
    `${file.name}: ${geometry.shapes.length} obstacles, ${vertices} polygon vertices`;
}

function showLoadError(error) {
  const note = $('map-note');
  note.textContent = error.message;
  note.className = 'hint bad';
}

function clearLoadError() {
  $('map-note').className = 'hint';
}

// ------------------------------------------------------------------------------------------------
// Interaction
// ------------------------------------------------------------------------------------------------

function pointerAt(event) {
  const rect = canvas.getBoundingClientRect();
  return [event.clientX - rect.left, event.clientY - rect.top];
}

function hit(point, at) {
  const [x, y] = toScreen(point);
  const reach = Math.max(12, page.radius * page.view.scale);
  return Math.hypot(x - at[0], y - at[1]) <= reach;
}

canvas.addEventListener('pointerdown', (event) => {
  if (page.geometry === null) {
    return;
  }
  const at = pointerAt(event);
  if (hit(page.to, at)) {
    page.dragging = 'to';
  } else if (hit(page.from, at)) {
    page.dragging = 'from';
  } else {
    page.dragging = 'to';
    page.to = toWorld(at[0], at[1]);
    requestRedraw();
  }
  canvas.setPointerCapture(event.pointerId);
});

canvas.addEventListener('pointermove', (event) => {
  const at = pointerAt(event);
  if (page.dragging === null) {
    const over = page.geometry !== null && (hit(page.to, at) || hit(page.from, at));
    canvas.style.cursor = over ? 'grab' : 'crosshair';
    return;
  }
  page[page.dragging] = toWorld(at[0], at[1]);
  requestRedraw();
});

const endDrag = () => {
  page.dragging = null;
};
canvas.addEventListener('pointerup', endDrag);
canvas.addEventListener('pointercancel', endDrag);

$('radius').addEventListener('input', (event) => {
  setRadius(Number(event.target.value));
  requestRedraw();
});

$('show-mesh').addEventListener('change', (event) => {
  page.showMesh = event.target.checked;
  page.layer = null;
  requestRedraw();
});

$('map-select').addEventListener('change', (event) => {
  if (event.target.value === '') {
    return;
  }
  loadExample(event.target.value, {}).then(() => {
    clearLoadError();
    requestRedraw();
  }, showLoadError);
});

function openFile(file) {
  loadFile(file).then(() => {
    clearLoadError();
    requestRedraw();
  }, showLoadError);
}

$('map-file').addEventListener('change', (event) => {
  if (event.target.files.length > 0) {
    openFile(event.target.files[0]);
  }
  event.target.value = '';
});

const stage = $('stage');
stage.addEventListener('dragover', (event) => {
  event.preventDefault();
  $('drop-hint').hidden = false;
});
stage.addEventListener('dragleave', () => {
  $('drop-hint').hidden = true;
});
stage.addEventListener('drop', (event) => {
  event.preventDefault();
  $('drop-hint').hidden = true;
  if (event.dataTransfer.files.length > 0) {
    openFile(event.dataTransfer.files[0]);
  }
});

new ResizeObserver(() => {
  fitView();
  if (page.geometry !== null) {
    requestRedraw();
  }
}).observe(stage);

// ------------------------------------------------------------------------------------------------
// Start-up and the drag benchmark
// ------------------------------------------------------------------------------------------------

function pointParameter(params, name) {
  const text = params.get(name);
  if (text === null) {
    return undefined;
  }
  const parts = text.split(',').map(Number);
  if (parts.length !== 2 || !parts.every(Number.isFinite)) {
    fail(`URL parameter ${name}=${text}: expected X,Y`);
  }
  return parts;
}

function nextFrame() {
  return new Promise((resolve) => requestAnimationFrame(resolve));
}

// Moves the goal one step per animation frame along a line and times each redraw, read back
// (see redraw()). The browser's clock has a coarse resolution (0.1 ms in Chromium), so the mean
// over all frames is reported beside the median.
async function runBench(steps, from, to) {
  page.bench = { done: false };
  $('bench-row').hidden = false;
  const times = [];
  const foundTimes = []; // frames with an exact path

  const home = page.to;
  for (let i = 0; i < steps; i++) {
    await nextFrame();
    const t = steps > 1 ? i / (steps - 1) : 0;
    page.to = [from[0] + (to[0] - from[0]) * t, from[1] + (to[1] - from[1]) * t];
    times.push(redraw(true));
    if (page.results.exact !== null && page.results.exact.status === 'ok') {
      foundTimes.push(times[times.length - 1]);
    }
    if (i % 20 === 0) {
      $('bench-text').textContent = `${i} / ${steps}`;
    }
  }
  page.to = home;
  const summary = {
    steps,
    found: foundTimes.length,
    found_median_ms: median(foundTimes),
    from,
    to,
    median_ms: median(times),
    mean_ms: times.reduce((sum, t) => sum + t, 0) / times.length,
    p90_ms: quantile(times, 0.9),
    max_ms: Math.max(...times),
  };
  page.bench = { done: true, summary };
  $('bench-text').textContent = `median ${formatMs(summary.median_ms)}, ` +
    `mean ${formatMs(summary.mean_ms)}`;
  $('bench-text').title = `${steps} frames, ${foundTimes.length} with an exact path`;
}

async function start() {
  const params = new URLSearchParams(window.location.search);
  page.module = await createArcnav();
  const name = params.get('map') || 'town';
  if (!(name in EXAMPLES)) {
    fail(`URL parameter map=${name}: not one of ${Object.keys(EXAMPLES).join(', ')}`);
  }
  const settings = {};
  settings.from = pointParameter(params, 'from');
  settings.to = pointParameter(params, 'to');
  if (params.has('r')) {
    settings.radius = Number(params.get('r'));
    if (!Number.isFinite(settings.radius) || settings.radius < 0) {
      fail(`URL parameter r=${params.get('r')}: expected a number >= 0`);
    }
  }
  for (const key of Object.keys(settings)) {
    if (settings[key] === undefined) {
      delete settings[key];
    }
  }
  const steps = Math.floor(Number(params.get('bench') || 0));
  if (steps > 0) {
    canvas.getContext('2d', { willReadFrequently: true }); // the benchmark reads every frame back
  }
  page.showMesh = params.get('mesh') === '1';
  $('show-mesh').checked = page.showMesh;
  const file = params.get('file');
  if (file !== null) {
    // A map file beside the page (same origin), e.g. file=maps/arena2.map.
    const response = await fetch(file);
    if (!response.ok) {
      fail(`${file}: HTTP ${response.status}`);
    }
    const blob = await response.blob();
    await loadFile(new File([blob], file.split('/').pop()), settings);
  } else {
    await loadExample(name, settings);
  }
  redraw();
  if (steps > 0) {
    const end = pointParameter(params, 'benchto') || page.from;
    await runBench(steps, page.to, end);
    redraw();
  }
  // The first runs of fresh WebAssembly use baseline code; the optimised code the browser
  // compiles meanwhile is in place a moment later, and the times shown are for that.
  measureQueries();
  await new Promise((resolve) => setTimeout(resolve, 300));
  measureQueries();
  draw();
  page.ready = true;
  showResults();
}

start().catch((error) => {
  console.error(error && error.message ? error.message : error);
  page.ready = true;
  window.arcnavPublish();
});
