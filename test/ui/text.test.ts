import { describe, expect, it } from 'vitest';
import { displayWidth, tailLines, truncate, wrapLine, wrapText } from '../../src/ui/text/width.js';
import { formatCost, formatElapsed, formatTokens, summarizeArgs } from '../../src/ui/text/format.js';
import { StaticFeed, isSettled } from '../../src/ui/state/feed.js';
import type { TranscriptItem } from '../../src/runtime/types.js';

describe('text width and wrapping', () => {
  it('counts wide and zero-width characters', () => {
    expect(displayWidth('abc')).toBe(3);
    expect(displayWidth('日本')).toBe(4);
    expect(displayWidth('e\u0301')).toBe(1);
    expect(displayWidth('🙂')).toBe(2);
  });

  it('wraps at word boundaries and cuts words longer than the width', () => {
    expect(wrapLine('the quick brown fox', 10)).toEqual(['the quick', 'brown fox']);
    expect(wrapLine('abcdefghijkl', 5)).toEqual(['abcde', 'fghij', 'kl']);
    expect(wrapLine('日本語のテキスト', 6)).toEqual(['日本語', 'のテキ', 'スト']);
    for (const line of wrapText('a '.repeat(100), 7)) expect(displayWidth(line)).toBeLessThanOrEqual(7);
  });

  it('takes only the wrapped tail, and says when it cut', () => {
    const text = Array.from({ length: 50 }, (_, i) => `l${i}`).join('\n');
    expect(tailLines(text, 80, 3)).toEqual({ lines: ['l47', 'l48', 'l49'], truncated: true });
    expect(tailLines('one\ntwo', 80, 5)).toEqual({ lines: ['one', 'two'], truncated: false });
    expect(tailLines('aaaa bbbb cccc', 4, 2)).toEqual({ lines: ['bbbb', 'cccc'], truncated: true });
  });

  it('truncates with an ellipsis', () => {
    expect(truncate('hello world', 8)).toBe('hello w…');
    expect(truncate('short', 8)).toBe('short');
  });
});

describe('formatters', () => {
  it('formats tokens, cost and elapsed time', () => {
    expect(formatTokens(999)).toBe('999');
    expect(formatTokens(1234)).toBe('1.2k');
    expect(formatTokens(2_500_000)).toBe('2.50M');
    expect(formatCost(0)).toBe('$0.00');
    expect(formatCost(0.01234)).toBe('$0.0123');
    expect(formatCost(3.456)).toBe('$3.46');
    expect(formatElapsed(9_400)).toBe('9s');
    expect(formatElapsed(125_000)).toBe('2m 05s');
    expect(formatElapsed(3_720_000)).toBe('1h 02m');
  });

  it('formats a compact duration for narrow columns without the space', () => {
    expect(formatElapsed(42_000, { compact: true })).toBe('42s');
    expect(formatElapsed(312_000, { compact: true })).toBe('5m12s');
    expect(formatElapsed(3_720_000, { compact: true })).toBe('1h02m');
    expect(formatElapsed(-5, { compact: true })).toBe('0s');
  });

  it('summarizes arguments on one line, falling back to the raw text', () => {
    expect(summarizeArgs({ command: 'ls\n-la' })).toBe('ls -la');
    expect(summarizeArgs({ path: 'a.txt', content: 'x' })).toBe('a.txt (+1)');
    expect(summarizeArgs({ n: 3, deep: { a: 1 } })).toBe('n=3 deep={"a":1}');
    expect(summarizeArgs(undefined, '{"broken": ')).toBe('{"broken":');
    expect(summarizeArgs({})).toBe('');
  });
});

describe('StaticFeed', () => {
  const user = (id: string): TranscriptItem => ({ id, kind: 'user', text: id, at: 0 });
  const reply = (id: string, streaming: boolean): TranscriptItem => ({ id, kind: 'assistant', runId: 'r', text: id, at: 0, streaming });

  it('commits the settled prefix in order, and everything once no turn runs', () => {
    const feed = new StaticFeed();
    let entries = feed.sync([user('u1'), reply('a1', true), user('u2')], true);
    expect(entries.map((e) => (e.kind === 'item' ? e.item.id : ''))).toEqual(['u1']);
    expect(feed.cursor).toBe(1);
    entries = feed.sync([user('u1'), reply('a1', false), user('u2')], true);
    expect(entries.map((e) => (e.kind === 'item' ? e.item.id : ''))).toEqual(['u1', 'a1', 'u2']);
    const same = feed.sync([user('u1'), reply('a1', false), user('u2')], true);
    expect(same).toBe(entries);
    feed.sync([user('u1'), reply('a1', false), user('u2'), reply('a2', true)], false);
    expect(feed.cursor).toBe(4);
  });

  it('interleaves local notices in the order they happen', () => {
    const feed = new StaticFeed();
    feed.sync([user('u1'), reply('a1', true)], true);
    feed.addLocal('info', 'help text');
    const entries = feed.sync([user('u1'), reply('a1', false)], true);
    expect(entries.map((e) => (e.kind === 'item' ? e.item.id : e.text))).toEqual(['u1', 'help text', 'a1']);
  });

  it('starts over when the transcript is replaced, without reprinting', () => {
    const feed = new StaticFeed();
    feed.sync([user('u1'), user('u2')], false);
    feed.sync([], false);
    expect(feed.cursor).toBe(0);
    const entries = feed.sync([user('u3')], false);
    expect(entries.map((e) => (e.kind === 'item' ? e.item.id : ''))).toEqual(['u1', 'u2', 'u3']);
    feed.reset();
    expect(feed.entries).toEqual([]);
  });

  it('while a turn runs, commits at most once per batch window: the rest waits, in order, none lost or repeated', () => {
    const feed = new StaticFeed();
    const ids = (list: readonly { kind: string; item?: TranscriptItem }[]) => list.map((e) => e.item?.id);
    const items: TranscriptItem[] = [user('u0')];
    // The first settled item goes at once.
    expect(ids(feed.sync(items, true, 1000, 100))).toEqual(['u0']);
    expect(feed.heldUntil).toBeUndefined();
    // More settle within the window: held, and the feed says until when.
    for (let i = 1; i <= 5; i++) {
      items.push(user(`u${i}`));
      expect(ids(feed.sync(items, true, 1000 + i * 10, 100))).toEqual(['u0']);
      expect(feed.heldUntil).toBe(1100);
      expect(feed.cursor).toBe(1);
    }
    // At the window's end they go in one batch, in transcript order.
    expect(ids(feed.sync(items, true, 1100, 100))).toEqual(['u0', 'u1', 'u2', 'u3', 'u4', 'u5']);
    expect(feed.heldUntil).toBeUndefined();
    // Nothing settled to wait for: nothing held.
    items.push(reply('a1', true));
    feed.sync(items, true, 1110, 100);
    expect(feed.heldUntil).toBeUndefined();
    // Once the turn ends everything goes at once, whatever the window.
    items[items.length - 1] = reply('a1', false);
    expect(ids(feed.sync(items, false, 1120, 100))).toEqual(['u0', 'u1', 'u2', 'u3', 'u4', 'u5', 'a1']);
  });

  it('a finished reply is not held: it goes at once, with what settled before it', () => {
    const feed = new StaticFeed();
    const ids = (list: readonly { kind: string; item?: TranscriptItem }[]) => list.map((e) => e.item?.id);
    const items: TranscriptItem[] = [user('u0')];
    expect(ids(feed.sync(items, true, 1000, 100))).toEqual(['u0']);
    items.push(user('u1'), reply('a1', true));
    expect(ids(feed.sync(items, true, 1010, 100))).toEqual(['u0']);
    expect(feed.heldUntil).toBe(1100);
    // The reply finishes inside the window: it and the item before it go now.
    items[2] = reply('a1', false);
    expect(ids(feed.sync(items, true, 1020, 100))).toEqual(['u0', 'u1', 'a1']);
    expect(feed.heldUntil).toBeUndefined();
  });

  it('treats running and pending tools as unsettled', () => {
    const tool = (status: 'running' | 'ok' | 'pending_approval'): TranscriptItem => ({
      id: 't',
      kind: 'tool',
      runId: 'r',
      callId: 'c',
      name: 'x',
      args: {},
      rawArgs: '{}',
      status,
      startedAt: 0,
    });
    expect(isSettled(tool('running'))).toBe(false);
    expect(isSettled(tool('pending_approval'))).toBe(false);
    expect(isSettled(tool('ok'))).toBe(true);
  });
});

describe('sameLine', () => {
  it('compares lines by their pieces and styles, not by identity', async () => {
    const { sameLine } = await import('../../src/ui/text/segments.js');
    const a = [
      { text: '● ', color: 'green' },
      { text: 'child', bold: true },
    ];
    expect(
      sameLine(a, [
        { text: '● ', color: 'green' },
        { text: 'child', bold: true },
      ]),
    ).toBe(true);
    expect(sameLine(a, [{ text: '● ', color: 'green' }, { text: 'child' }])).toBe(false);
    expect(
      sameLine(a, [
        { text: '● ', color: 'red' },
        { text: 'child', bold: true },
      ]),
    ).toBe(false);
    expect(
      sameLine(a, [
        { text: '● ', color: 'green' },
        { text: 'child!', bold: true },
      ]),
    ).toBe(false);
    expect(sameLine(a, [{ text: '● ', color: 'green' }])).toBe(false);
    expect(sameLine([], [])).toBe(true);
  });
});

describe('one width engine: the UI measures as Ink does', () => {
  // Ink lays text out with string-width; a row our budget thinks fits must not wrap in Ink.
  const samples: Array<[string, number]> = [
    ['✅', 2],
    ['⚡', 2],
    ['☕', 2],
    ['👍🏽', 2],
    ['👨‍👩‍👧', 2],
    ['🇪🇸', 2],
    ['日本語', 6],
    ['e\u0301', 1],
    ['a\u0308\u0301b', 2],
    ['\u200b', 0],
    ['한국어', 6],
  ];

  it.each(samples)('measures %s as %i cells', async (text, cells) => {
    const { default: stringWidth } = await import('string-width');
    expect(displayWidth(text)).toBe(cells);
    expect(displayWidth(text)).toBe(stringWidth(text));
  });

  it('wraps and truncates by grapheme, never splitting a cluster', () => {
    expect(wrapLine('👍🏽👍🏽👍🏽', 4)).toEqual(['👍🏽👍🏽', '👍🏽']);
    expect(wrapLine('👨‍👩‍👧x👨‍👩‍👧', 3)).toEqual(['👨‍👩‍👧x', '👨‍👩‍👧']);
    expect(truncate('✅✅✅✅', 5)).toBe('✅✅…');
    for (const line of wrapText('☕ ⚡ 日本 e\u0301e\u0301 '.repeat(20), 9)) expect(displayWidth(line)).toBeLessThanOrEqual(9);
  });
});
