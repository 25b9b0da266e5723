// Navigation over a virtual list of entries of varying height, without ever measuring the
// whole list: the viewport is "row `offset` of entry `top`", and every move looks only at the
// entries around it. A card taller than the view is read line by line before the selection
// moves past it.

export interface Viewport {
  /** Entry drawn on the first row. */
  top: number;
  /** How many of its rows are scrolled off above. */
  offset: number;
}

export interface Nav {
  sel: number;
  vp: Viewport;
}

/** Rows an entry takes (at least 1). */
export type HeightFn = (index: number) => number;

export interface ListShape {
  count: number;
  /** Rows of the body. */
  body: number;
  height: HeightFn;
}

const ORIGIN: Viewport = { top: 0, offset: 0 };

function cmp(a: Viewport, b: Viewport): number {
  return a.top - b.top || a.offset - b.offset;
}

/** The viewport whose last row is the last row of entry `i`. */
export function alignBottom(i: number, shape: ListShape): Viewport {
  let rows = 0;
  for (let j = i; j >= 0; j--) {
    const h = shape.height(j);
    if (rows + h >= shape.body) return { top: j, offset: rows + h - shape.body };
    rows += h;
  }
  return ORIGIN;
}

/** The last page: the list's end on the body's last row (or the list from its start). */
export function endViewport(shape: ListShape): Viewport {
  return shape.count === 0 ? ORIGIN : alignBottom(shape.count - 1, shape);
}

export function clampViewport(vp: Viewport, shape: ListShape): Viewport {
  if (shape.count === 0) return ORIGIN;
  const top = Math.min(Math.max(0, vp.top), shape.count - 1);
  const offset = Math.min(Math.max(0, vp.offset), shape.height(top) - 1);
  const end = endViewport(shape);
  const next = { top, offset };
  return cmp(next, end) > 0 ? end : next;
}

export function scrollBy(vp: Viewport, delta: number, shape: ListShape): Viewport {
  if (shape.count === 0) return ORIGIN;
  let { top, offset } = vp;
  offset += delta;
  while (offset < 0 && top > 0) {
    top--;
    offset += shape.height(top);
  }
  if (offset < 0) offset = 0;
  while (top < shape.count - 1 && offset >= shape.height(top)) {
    offset -= shape.height(top);
    top++;
  }
  return clampViewport({ top, offset }, shape);
}

/** Row of the viewport where entry `i` starts (negative: above it). Entries far away
 * report a row just past the edge: callers only need exact rows near the view. */
export function rowOf(vp: Viewport, i: number, shape: ListShape): number {
  const far = shape.body + 1;
  let r = -vp.offset;
  if (i >= vp.top) {
    for (let j = vp.top; j < i; j++) {
      r += shape.height(j);
      if (r > far) return far;
    }
    return r;
  }
  for (let j = vp.top - 1; j >= i; j--) {
    r -= shape.height(j);
    if (r < -far - shape.height(i)) return -far - shape.height(i);
  }
  return r;
}

function span(n: Nav, shape: ListShape): { top: number; bottom: number; height: number } {
  const top = rowOf(n.vp, n.sel, shape);
  const height = shape.height(n.sel);
  return { top, bottom: top + height - 1, height };
}

/** Scrolls the least needed to show the selected entry. Coming from below (`up`), a tall
 * entry shows its end; otherwise its start. */
export function reveal(n: Nav, shape: ListShape, from: 'up' | 'down' | 'auto' = 'auto'): Nav {
  if (shape.count === 0) return { sel: 0, vp: ORIGIN };
  const s = span(n, shape);
  if (s.top >= 0 && s.bottom <= shape.body - 1) return n;
  if (s.height >= shape.body) {
    if (from === 'auto' && s.top < shape.body && s.bottom >= 0) return n;
    if (from === 'up') return { sel: n.sel, vp: clampViewport({ top: n.sel, offset: s.height - shape.body }, shape) };
    return { sel: n.sel, vp: clampViewport({ top: n.sel, offset: 0 }, shape) };
  }
  if (s.top < 0) return { sel: n.sel, vp: clampViewport({ top: n.sel, offset: 0 }, shape) };
  return { sel: n.sel, vp: clampViewport(alignBottom(n.sel, shape), shape) };
}

export function moveDown(n: Nav, shape: ListShape): Nav {
  if (shape.count === 0) return n;
  if (!intersects(n, shape)) return reveal(n, shape);
  const s = span(n, shape);
  if (s.bottom > shape.body - 1 && s.top < shape.body) return { sel: n.sel, vp: scrollBy(n.vp, 1, shape) };
  if (n.sel >= shape.count - 1) return reveal(n, shape);
  return reveal({ sel: n.sel + 1, vp: n.vp }, shape, 'down');
}

export function moveUp(n: Nav, shape: ListShape): Nav {
  if (shape.count === 0) return n;
  if (!intersects(n, shape)) return reveal(n, shape);
  const s = span(n, shape);
  if (s.top < 0 && s.bottom >= 0) return { sel: n.sel, vp: scrollBy(n.vp, -1, shape) };
  if (n.sel <= 0) return reveal(n, shape);
  return reveal({ sel: n.sel - 1, vp: n.vp }, shape, 'up');
}

function intersects(n: Nav, shape: ListShape): boolean {
  const s = span(n, shape);
  return s.top < shape.body && s.bottom >= 0;
}

/** Entries whose rows are all on screen, top to bottom. */
export function fullyVisible(vp: Viewport, shape: ListShape): number[] {
  const out: number[] = [];
  let r = -vp.offset;
  for (let j = vp.top; j < shape.count && r < shape.body; j++) {
    const h = shape.height(j);
    if (r >= 0 && r + h <= shape.body) out.push(j);
    r += h;
  }
  return out;
}

/** The entry drawn on row `r` of the viewport (the last one when the list ends above it). */
export function entryAtRow(vp: Viewport, r: number, shape: ListShape): number {
  const rows = visibleRows(vp, shape);
  return (rows[Math.min(Math.max(0, r), rows.length - 1)] ?? { entry: vp.top }).entry;
}

/** A page down: the view moves by a page and the selection keeps its row on screen. */
export function pageDown(n: Nav, shape: ListShape): Nav {
  if (shape.count === 0) return n;
  const vp = scrollBy(n.vp, Math.max(1, shape.body - 1), shape);
  if (cmp(vp, n.vp) === 0) return reveal({ sel: shape.count - 1, vp }, shape, 'down');
  const r = Math.min(Math.max(0, rowOf(n.vp, n.sel, shape)), shape.body - 1);
  const sel = Math.max(n.sel, entryAtRow(vp, r, shape));
  return { sel, vp };
}

export function pageUp(n: Nav, shape: ListShape): Nav {
  if (shape.count === 0) return n;
  const vp = scrollBy(n.vp, -Math.max(1, shape.body - 1), shape);
  if (cmp(vp, n.vp) === 0) return { sel: 0, vp: ORIGIN };
  const r = Math.min(Math.max(0, rowOf(n.vp, n.sel, shape)), shape.body - 1);
  const sel = Math.min(n.sel, entryAtRow(vp, r, shape));
  return { sel, vp };
}

export function home(): Nav {
  return { sel: 0, vp: ORIGIN };
}

export function end(shape: ListShape): Nav {
  return { sel: Math.max(0, shape.count - 1), vp: endViewport(shape) };
}

/** After the selected entry grew (expanded): keep its start in view and show as much of
 * it as fits. */
export function revealGrown(n: Nav, shape: ListShape): Nav {
  const placed = reveal(n, shape, 'auto');
  const s = span(placed, shape);
  if (s.top < 0) return { sel: n.sel, vp: clampViewport({ top: n.sel, offset: 0 }, shape) };
  const overflow = s.bottom - (shape.body - 1);
  if (overflow > 0 && s.top > 0) return { sel: n.sel, vp: scrollBy(placed.vp, Math.min(overflow, s.top), shape) };
  return placed;
}

/** True when the viewport shows the list's last row. */
export function atEnd(vp: Viewport, shape: ListShape): boolean {
  return shape.count === 0 || cmp(vp, endViewport(shape)) >= 0;
}

/** The rows to draw: which entry and which of its rows, top to bottom. */
export function visibleRows(vp: Viewport, shape: ListShape): Array<{ entry: number; line: number }> {
  const out: Array<{ entry: number; line: number }> = [];
  let line = vp.offset;
  for (let j = vp.top; j < shape.count && out.length < shape.body; j++) {
    const h = shape.height(j);
    for (; line < h && out.length < shape.body; line++) out.push({ entry: j, line });
    line = 0;
  }
  return out;
}
