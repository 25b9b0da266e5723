// The live region with more cards than rows (a fan-out's turn): the newest cards that fit
// are drawn, and "… N more above" counts every other item exactly — the walk that finds
// them stops at the first card that does not fit instead of measuring all of them.
import React from 'react';
import { describe, expect, it } from 'vitest';
import { render } from 'ink-testing-library';
import type { TranscriptItem } from '../../src/model/transcript.js';
import { LiveTurn } from '../../src/ui/components/LiveTurn.js';
import { plain } from './harness.js';
import { resetUiBetweenTests } from './lifecycle.js';

resetUiBetweenTests();

function card(i: number): TranscriptItem {
  return {
    id: `t${i}`,
    kind: 'tool',
    runId: 'r',
    callId: `c${i}`,
    name: 'shell',
    args: { command: `echo ${i}` },
    rawArgs: JSON.stringify({ command: `echo ${i}` }),
    status: 'running',
    startedAt: 0,
  } as TranscriptItem;
}

function reply(id: string, text: string): TranscriptItem {
  return { id, kind: 'assistant', runId: 'r', text, streaming: true } as TranscriptItem;
}

/** The card numbers drawn, in order, and the "more above" count (0 when absent). */
function drawn(items: TranscriptItem[], maxRows: number) {
  const app = render(<LiveTurn items={items} width={80} maxRows={maxRows} turnRunning={false} />);
  const frame = plain(app.lastFrame());
  app.unmount();
  const cards = [...frame.matchAll(/shell echo (\d+)/g)].map((m) => Number(m[1]));
  const more = /… (\d+) more above/.exec(frame);
  return { frame, cards, more: more ? Number(more[1]) : 0 };
}

describe('LiveTurn with more cards than rows', () => {
  it('draws the newest cards that fit and counts all the others (1,000 cards)', () => {
    const items = Array.from({ length: 1000 }, (_, i) => card(i));
    const { cards, more } = drawn(items, 8);
    expect(cards.length).toBeGreaterThan(0);
    // The newest ones, in order, ending with the last card.
    expect(cards).toEqual(Array.from({ length: cards.length }, (_, k) => 1000 - cards.length + k));
    expect(more + cards.length).toBe(1000);
  });

  it('does not count the streaming reply among the hidden, wherever it sits', () => {
    for (const at of [0, 3, 500, 996]) {
      const items = Array.from({ length: 1000 }, (_, i) => card(i));
      items.splice(at, 0, reply('a', 'thinking out loud'));
      const { frame, cards, more } = drawn(items, 8);
      expect(frame, `reply at ${at}`).toContain('thinking out loud');
      expect(more + cards.length, `reply at ${at}`).toBe(1000);
      expect(cards[cards.length - 1], `reply at ${at}`).toBe(999);
    }
  });

  it('shows no count when everything fits', () => {
    const items = [card(0), card(1), reply('a', 'done soon')];
    const { cards, more } = drawn(items, 10);
    expect(cards).toEqual([0, 1]);
    expect(more).toBe(0);
  });
});
