// The virtual list's navigation, on entry heights alone: nothing outside the view is measured.
import { describe, expect, it } from 'vitest';
import * as nav from '../../../src/ui/viewer/viewport.js';

function shape(heights: number[], body: number, seen?: Set<number>): nav.ListShape {
  return {
    count: heights.length,
    body,
    height: (i) => {
      seen?.add(i);
      return heights[i];
    },
  };
}

describe('viewport', () => {
  it('opens at the end by measuring only the last page', () => {
    const seen = new Set<number>();
    const s = shape(
      Array.from({ length: 2000 }, () => 2),
      10,
      seen,
    );
    const n = nav.end(s);
    expect(n.sel).toBe(1999);
    expect(nav.visibleRows(n.vp, s).map((r) => r.entry)).toEqual([1995, 1995, 1996, 1996, 1997, 1997, 1998, 1998, 1999, 1999]);
    expect(seen.size).toBeLessThan(20);
  });

  it('a short list starts at the top and never scrolls', () => {
    const s = shape([1, 1, 1], 10);
    expect(nav.end(s).vp).toEqual({ top: 0, offset: 0 });
    expect(nav.pageDown(nav.home(), s).sel).toBe(2);
    expect(nav.pageUp(nav.end(s), s).sel).toBe(0);
  });

  it('↓ reads through an entry taller than the view, then moves on', () => {
    const s = shape([1, 30, 1], 5);
    let n: nav.Nav = nav.home();
    n = nav.moveDown(n, s);
    expect(n.sel).toBe(1);
    // Its start comes to the top of the view.
    expect(n.vp).toEqual({ top: 1, offset: 0 });
    const selections: number[] = [];
    for (let i = 0; i < 40; i++) {
      n = nav.moveDown(n, s);
      selections.push(n.sel);
    }
    // 25 single-row scrolls (its 30 rows in a 5-row view) before entry 2.
    expect(selections.indexOf(2)).toBe(25);
    expect(n.sel).toBe(2);
    // Coming back up lands on the tall entry's end and reads it upwards.
    n = nav.moveUp(n, s);
    expect(n.sel).toBe(1);
    expect(nav.visibleRows(n.vp, s).at(-1)).toEqual({ entry: 1, line: 29 });
  });

  it('keeps the selection visible when entries shrink or the view changes size', () => {
    const heights = [3, 3, 3, 3, 3];
    let s = shape(heights, 4);
    let n = nav.end(s);
    heights[4] = 1;
    s = shape(heights, 4);
    n = nav.reveal({ sel: n.sel, vp: nav.clampViewport(n.vp, s) }, s);
    expect(nav.visibleRows(n.vp, s).some((r) => r.entry === 4)).toBe(true);
    s = shape(heights, 1);
    n = nav.reveal({ sel: 2, vp: nav.clampViewport(n.vp, s) }, s);
    expect(nav.visibleRows(n.vp, s)).toHaveLength(1);
    expect(nav.visibleRows(n.vp, s)[0].entry).toBe(2);
  });

  it('an entry that grows shows as much of itself as fits, its start kept in view', () => {
    const heights = [1, 1, 1, 1, 1, 1];
    let s = shape(heights, 4);
    let n = nav.end(s);
    n = nav.moveUp(n, s);
    heights[4] = 10;
    s = shape(heights, 4);
    n = nav.revealGrown({ sel: n.sel, vp: nav.clampViewport(n.vp, s) }, s);
    expect(nav.visibleRows(n.vp, s)[0]).toEqual({ entry: 4, line: 0 });
  });

  it('an empty list is harmless', () => {
    const s = shape([], 5);
    expect(nav.end(s)).toEqual({ sel: 0, vp: { top: 0, offset: 0 } });
    expect(nav.moveDown(nav.home(), s)).toEqual(nav.home());
    expect(nav.visibleRows({ top: 0, offset: 0 }, s)).toEqual([]);
  });
});
