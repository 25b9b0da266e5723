// A finished reply longer than what scrollback draws: its head is drawn, then a line says
// how much more there is and where to read it.
import React from 'react';
import { cleanup, render } from 'ink-testing-library';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { setLanguage } from '../../src/i18n/index.js';
import { DRAWN_REPLY_CHARS, FeedEntryView, drawnPart } from '../../src/ui/components/FeedEntryView.js';

beforeAll(() => setLanguage('en'));
afterEach(() => cleanup());

describe('drawing a huge reply', () => {
  it('drawnPart keeps short text whole and cuts long text at a line end under the cap', () => {
    expect(drawnPart('short')).toBe('short');
    const line = 'y'.repeat(79) + '\n';
    const long = line.repeat(3000);
    const head = drawnPart(long);
    expect(head.length).toBeLessThanOrEqual(DRAWN_REPLY_CHARS);
    expect(head.length).toBeGreaterThan(DRAWN_REPLY_CHARS - 80);
    expect(long.startsWith(head)).toBe(true);
    expect(long[head.length]).toBe('\n');
  });

  it('the scrollback entry says how much is not drawn', () => {
    const text = `FIRST-LINE\n${'word '.repeat(60_000)}\nLAST-LINE`;
    const item = { id: 'a', kind: 'assistant' as const, runId: 'r', text, at: 0 };
    const { lastFrame } = render(<FeedEntryView entry={{ key: 'e1', kind: 'item', item }} width={100} />);
    const frame = lastFrame() ?? '';
    expect(frame).toContain('FIRST-LINE');
    expect(frame).not.toContain('LAST-LINE');
    expect(frame).toMatch(/… \d+ KB more of this reply is not drawn here \(Ctrl\+O shows it in the viewer\)/);
  });
});
