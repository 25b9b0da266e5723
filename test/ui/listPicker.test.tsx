// The picker behind --resume, /resume and /model: arrows move, typing filters (Backspace
// edits), Enter picks the highlighted row, Esc cancels.
import React from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup } from 'ink-testing-library';
import { ListPicker } from '../../src/ui/pickers/ListPicker.js';
import type { PickerRow } from '../../src/ui/pickers/pickerRows.js';
import { sessionRows } from '../../src/ui/pickers/sessionRows.js';
import { sessionSummary } from './harness.js';
import { setLanguage } from '../../src/i18n/index.js';
import { DOWN, ENTER, ESC, waitFor } from './harness.js';
import { pressInto, renderSettled } from './settle.js';

afterEach(() => cleanup());

const rows: PickerRow[] = [
  { id: 'a', label: 'alpha apples' },
  { id: 'b', label: 'beta bananas', current: true },
  { id: 'c', label: 'gamma grapes' },
];

async function mountPicker() {
  const picked: string[] = [];
  let cancelled = 0;
  const app = await renderSettled(
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
  const press = (s: string) => pressInto(app.stdin, s);
  return { app, picked, press, cancelled: () => cancelled };
}

describe('ListPicker', () => {
  it('starts on the given row, moves with the arrows and picks with Enter', async () => {
    const p = await mountPicker();
    expect(p.app.lastFrame()).toMatch(/› beta bananas {2}\(current\)/);
    await p.press(DOWN);
    await waitFor(() => expect(p.app.lastFrame()).toContain('› gamma grapes'));
    await p.press(ENTER);
    expect(p.picked).toEqual(['c']);
  });

  it('filters as you type, Backspace widens it again, and says when nothing matches', async () => {
    const p = await mountPicker();
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
    const p = await mountPicker();
    await p.press(ESC);
    await waitFor(() => expect(p.cancelled()).toBe(1));
    expect(p.picked).toEqual([]);
  });
});

describe('ListPicker counts and columns', () => {
  afterEach(() => setLanguage('en'));

  it.each([
    ['en', '3 in all', '1 of 3 matches', '2 of 3 match'],
    ['es', '3 en total', '1 de 3 coincide', '2 de 3 coinciden'],
  ] as const)('counts the rows that match the filter, not a position (%s)', async (lang, all, one, two) => {
    setLanguage(lang);
    const p = await mountPicker();
    await waitFor(() => expect(p.app.lastFrame()).toContain(all));
    await p.press('gr');
    await waitFor(() => expect(p.app.lastFrame()).toContain(one));
    await p.press('\u007f\u007f');
    await p.press('es');
    await waitFor(() => expect(p.app.lastFrame()).toContain(two));
  });

  it('a resume row at 120 columns keeps its cost whole; the first message is cut instead', async () => {
    setLanguage('en');
    const session = sessionSummary({
      id: '20261202-020800-abcd',
      createdAt: '2026-12-02T02:08:00Z',
      cwd: '/tmp/arbor-e2e-GiqYKu/work/deeper/folder',
      firstUserMessage: 'a first message long enough to need cutting somewhere along the way, really',
      turns: 12,
      tokens: 123456,
      costUsd: 1.2345,
      headless: true,
      items: 0,
    });
    const app = await renderSettled(
      <ListPicker
        title="t"
        rows={sessionRows([session], undefined, undefined)}
        width={120}
        maxRows={10}
        empty="-"
        onPick={() => {}}
        onCancel={() => {}}
      />,
    );
    const row = (app.lastFrame() ?? '').split('\n').find((l) => l.includes('[headless]')) ?? '';
    expect(row).toMatch(/12 turns · 123k tokens · \$1\.23$/);
    expect(row.length).toBeLessThanOrEqual(120);
  });
});
