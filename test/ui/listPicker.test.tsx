// The picker behind --resume, /resume and /model: arrows move, typing filters (Backspace
// edits), Enter picks the highlighted row, Esc cancels.
import React from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render } from 'ink-testing-library';
import { ListPicker, type PickerRow } from '../../src/ui/pickers/ListPicker.js';
import { DOWN, ENTER, ESC, sleep, waitFor } from './harness.js';

afterEach(() => cleanup());

const rows: PickerRow[] = [
  { id: 'a', label: 'alpha apples' },
  { id: 'b', label: 'beta bananas', current: true },
  { id: 'c', label: 'gamma grapes' },
];

function mountPicker() {
  const picked: string[] = [];
  let cancelled = 0;
  const app = render(
    <ListPicker
      title="Pick one"
      rows={rows}
      width={60}
      maxRows={10}
      empty="nothing"
      onPick={(id) => picked.push(id)}
      onCancel={() => cancelled++}
      initialId="b"
    />,
  );
  const press = async (s: string) => {
    app.stdin.write(s);
    await sleep(40);
  };
  return { app, picked, press, cancelled: () => cancelled };
}

describe('ListPicker', () => {
  it('starts on the given row, moves with the arrows and picks with Enter', async () => {
    const p = mountPicker();
    await sleep(40);
    expect(p.app.lastFrame()).toMatch(/› beta bananas {2}\(current\)/);
    await p.press(DOWN);
    await waitFor(() => expect(p.app.lastFrame()).toContain('› gamma grapes'));
    await p.press(ENTER);
    expect(p.picked).toEqual(['c']);
  });

  it('filters as you type, Backspace widens it again, and says when nothing matches', async () => {
    const p = mountPicker();
    await sleep(40);
    await p.press('gr');
    await waitFor(() => expect(p.app.lastFrame()).toContain('1 of 3'));
    expect(p.app.lastFrame()).not.toContain('alpha');
    await p.press('x');
    await waitFor(() => expect(p.app.lastFrame()).toContain('nothing'));
    await p.press('\u007f');
    await waitFor(() => expect(p.app.lastFrame()).toContain('› gamma grapes'));
    await p.press(ENTER);
    expect(p.picked).toEqual(['c']);
  });

  it('Esc cancels without picking', async () => {
    const p = mountPicker();
    await sleep(40);
    await p.press(ESC);
    await waitFor(() => expect(p.cancelled()).toBe(1));
    expect(p.picked).toEqual([]);
  });
});
