// SPDX-License-Identifier: MIT
// MovingAI grid maps (.map) as polygons: the blocked cells' union is traced into rings, one outer
// ring per group of blocked cells that touch (at a side or a corner), with the free regions they
// enclose as holes, and collinear edges merged, so a 1024 x 1024 map becomes tens of thousands of
// vertices rather than a million squares. The map's outer edge is the bounds.
//
// Coordinates are the file's: cell (x, y), x the column and y the row counted from the top line,
// covers [x, x+1] x [y, y+1], so y grows downwards (the page draws such maps that way up).
//
// Where two blocked cells touch only at a corner, the free space is pinched to a point that no
// unit passes (the grid convention). The tracer keeps such cells together, and since a ring may
// not touch itself or another ring of its polygon, it cuts the two free cells' corners at that
// point by PINCH_CUT: the blocked region gains a bridge of width PINCH_CUT * sqrt(2) there.
'use strict';

const PINCH_CUT = 0.01;

function parseMovingAI(text, name) {
  const lines = text.split(/\r?\n/);
  let width = -1;
  let height = -1;
  let row = 0;
  for (; row < lines.length; row++) {
    const line = lines[row].trim();
    if (line === 'map') {
      break;
    }
    const [key, value] = line.split(/\s+/);
    if (key === 'height') {
      height = Number(value);
    } else if (key === 'width') {
      width = Number(value);
    }
  }
  if (!(Number.isInteger(width) && width > 0 && Number.isInteger(height) && height > 0)) {
    throw new Error(`${name}: not a MovingAI map: no "height H", "width W" and "map" lines`);
  }
  if (row + height >= lines.length + 1 || lines.length - row - 1 < height) {
    throw new Error(`${name}: the map has fewer than ${height} rows`);
  }
  const blocked = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    const line = lines[row + 1 + y];
    if (line.length < width) {
      throw new Error(`${name}: row ${y} has ${line.length} cells, not ${width}`);
    }
    for (let x = 0; x < width; x++) {
      const c = line[x];
      blocked[y * width + x] = c === '.' || c === 'G' || c === 'S' ? 0 : 1;
    }
  }
  const shapes = traceGrid(blocked, width, height);
  const bounds = [[0, 0], [width, 0], [width, height], [0, height]];
  return { name, shapes, bounds, warnings: [], yDown: true, grid: { blocked, width, height } };
}

// Groups of blocked cells touching at a side or a corner, labelled 1.. (0: free).
function labelBlocked(blocked, width, height) {
  const label = new Int32Array(width * height);
  const stack = [];
  let count = 0;
  for (let start = 0; start < blocked.length; start++) {
    if (!blocked[start] || label[start] !== 0) {
      continue;
    }
    label[start] = ++count;
    stack.push(start);
    while (stack.length > 0) {
      const cell = stack.pop();
      const cx = cell % width;
      const cy = (cell - cx) / width;
      for (let dy = -1; dy <= 1; dy++) {
        for (let dx = -1; dx <= 1; dx++) {
          const x = cx + dx;
          const y = cy + dy;
          if (x < 0 || y < 0 || x >= width || y >= height) {
            continue;
          }
          const next = y * width + x;
          if (blocked[next] && label[next] === 0) {
            label[next] = count;
            stack.push(next);
          }
        }
      }
    }
  }
  return label;
}

function traceGrid(blocked, width, height) {
  const isBlocked = (x, y) => x >= 0 && y >= 0 && x < width && y < height &&
    blocked[y * width + x] === 1;
  // Boundary edges, clockwise on the screen around every blocked cell, each with the free cell it
  // borders; sides between two blocked cells cancel out.
  const edges = []; // [x0, y0, x1, y1, freeX, freeY, cell]
  const sides = [
    [0, 0, 1, 0, 0, -1], // top: free cell above
    [1, 0, 1, 1, 1, 0], // right
    [1, 1, 0, 1, 0, 1], // bottom
    [0, 1, 0, 0, -1, 0], // left
  ];
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      if (!blocked[y * width + x]) {
        continue;
      }
      for (const [ax, ay, bx, by, fx, fy] of sides) {
        if (!isBlocked(x + fx, y + fy)) {
          edges.push([x + ax, y + ay, x + bx, y + by, x + fx, y + fy, y * width + x]);
        }
      }
    }
  }
  const stride = width + 1;
  const outgoing = new Map(); // vertex -> edge indices leaving it (one, or two at a pinch)
  edges.forEach((e, i) => {
    const v = e[1] * stride + e[0];
    const list = outgoing.get(v);
    if (list === undefined) {
      outgoing.set(v, [i]);
    } else {
      list.push(i);
    }
  });
  const used = new Uint8Array(edges.length);
  const label = labelBlocked(blocked, width, height);
  const outers = new Map(); // group label -> outer ring
  const holes = new Map(); // group label -> hole rings
  for (let first = 0; first < edges.length; first++) {
    if (used[first]) {
      continue;
    }
    const ring = [];
    let e = first;
    do {
      used[e] = 1;
      const [, , x1, y1, fx, fy] = edges[e];
      const candidates = outgoing.get(y1 * stride + x1);
      let next = candidates[0];
      if (candidates.length > 1) {
        // A pinch: go on along the same free cell, which keeps the blocked cells together.
        next = candidates.find((c) => edges[c][4] === fx && edges[c][5] === fy);
      }
      const n = edges[next];
      const dx0 = Math.sign(x1 - edges[e][0]);
      const dy0 = Math.sign(y1 - edges[e][1]);
      const dx1 = Math.sign(n[2] - n[0]);
      const dy1 = Math.sign(n[3] - n[1]);
      if (candidates.length > 1) {
        ring.push([x1 - PINCH_CUT * dx0, y1 - PINCH_CUT * dy0]);
        ring.push([x1 + PINCH_CUT * dx1, y1 + PINCH_CUT * dy1]);
      } else if (dx0 !== dx1 || dy0 !== dy1) {
        ring.push([x1, y1]);
      }
      e = next;
    } while (e !== first);
    // Clockwise on the screen (y down) is a positive shoelace sum: an outer ring; the rings
    // around enclosed free regions run the other way.
    let twice = 0;
    for (let i = 0; i < ring.length; i++) {
      const a = ring[i];
      const b = ring[(i + 1) % ring.length];
      twice += a[0] * b[1] - a[1] * b[0];
    }
    const group = label[edges[first][6]];
    if (twice > 0) {
      outers.set(group, ring);
    } else {
      if (!holes.has(group)) {
        holes.set(group, []);
      }
      holes.get(group).push(ring);
    }
  }
  const shapes = [];
  for (const [group, outer] of outers) {
    shapes.push({ kind: 'polygon', feature: group, rings: [outer].concat(holes.get(group) || []) });
  }
  return shapes;
}

// Centres of two free cells far apart in the largest free region (side-connected): the first
// and last in reading order.
function movingAIEnds(grid) {
  const { blocked, width, height } = grid;
  const seen = new Uint8Array(width * height);
  let best = null;
  for (let start = 0; start < blocked.length; start++) {
    if (blocked[start] || seen[start]) {
      continue;
    }
    seen[start] = 1;
    const stack = [start];
    let size = 0;
    let low = start;
    let high = start;
    while (stack.length > 0) {
      const cell = stack.pop();
      size++;
      low = Math.min(low, cell);
      high = Math.max(high, cell);
      const x = cell % width;
      const neighbours = [x > 0 ? cell - 1 : -1, x + 1 < width ? cell + 1 : -1, cell - width,
        cell + width];
      for (const next of neighbours) {
        if (next >= 0 && next < blocked.length && !blocked[next] && !seen[next]) {
          seen[next] = 1;
          stack.push(next);
        }
      }
    }
    if (best === null || size > best.size) {
      best = { size, low, high };
    }
  }
  if (best === null) {
    return null;
  }
  const centre = (cell) => [(cell % width) + 0.5, Math.floor(cell / width) + 0.5];
  return { from: centre(best.low), to: centre(best.high) };
}

if (typeof module !== 'undefined') {
  module.exports = { parseMovingAI, movingAIEnds };
}
