// The neutraliser every piece of outside text passes through before it can reach a screen.
import { describe, expect, it } from 'vitest';
import { hasControls, neutralize, neutralizeDeep } from '../../../src/text/untrusted.js';
import { neutralizeItem, neutralizeRunFields } from '../../../src/text/untrustedItems.js';

/** Anything a terminal could act on: C0 (but \t \n), DEL, C1. */
const ACTIVE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

const CASES: Array<[string, string, string]> = [
  ['OSC 52 clipboard write, BEL-terminated', 'a\u001b]52;c;ZWNobyBwd25lZA==\u0007b', 'a␛]52;c;ZWNobyBwd25lZA==␇b'],
  ['OSC 52 with ST terminator', '\u001b]52;p;aGk=\u001b\\', '␛]52;p;aGk=␛\\'],
  ['OSC 0 window title, BEL', '\u001b]0;pwned\u0007', '␛]0;pwned␇'],
  ['OSC 2 window title, ST', '\u001b]2;pwned\u001b\\', '␛]2;pwned␛\\'],
  ['CSI cursor up and erase line', 'ok\u001b[2A\u001b[2Kfake', 'ok␛[2A␛[2Kfake'],
  ['CSI SGR colour', '\u001b[31mred\u001b[0m', '␛[31mred␛[0m'],
  ['C1 CSI (U+009B)', 'x\u009b2Jy', 'x␛[2Jy'],
  ['C1 OSC (U+009D) and ST (U+009C)', '\u009d0;t\u009c', '␛]0;t␛\\'],
  ['DCS with ST', '\u001bPq#0;2;0;0;0\u001b\\', '␛Pq#0;2;0;0;0␛\\'],
  ['C1 DCS (U+0090)', '\u0090payload', '␛Ppayload'],
  ['lone ESC at the end', 'tail\u001b', 'tail␛'],
  ['backspace and bell', 'a\bb\u0007', 'a␈b␇'],
  ['lone CR (overwrites the line)', 'safe\rEVIL', 'safe␍EVIL'],
  ['NUL and DEL', 'a\u0000b\u007f', 'a␀b␡'],
];

describe('neutralize', () => {
  it.each(CASES)('%s', (_what, input, expected) => {
    const out = neutralize(input);
    expect(out).toBe(expected);
    expect(out).not.toMatch(ACTIVE);
    expect(hasControls(input)).toBe(true);
    expect(hasControls(out)).toBe(false);
  });

  it('keeps newlines and tabs, turns CRLF into LF, leaves clean text as the same string', () => {
    expect(neutralize('a\tb\nc')).toBe('a\tb\nc');
    expect(neutralize('one\r\ntwo\r\n')).toBe('one\ntwo\n');
    const clean = 'plain text — ünïcode ✓ 你好';
    expect(neutralize(clean)).toBe(clean);
  });

  it('is idempotent', () => {
    for (const [, input] of CASES) expect(neutralize(neutralize(input))).toBe(neutralize(input));
  });

  it('a sequence split across stream deltas is as inert as a whole one', () => {
    const whole = 'start \u001b]52;c;aGVsbG8=\u0007 \u001b[3;1H end';
    for (let cut = 0; cut <= whole.length; cut++) {
      const joined = neutralize(whole.slice(0, cut)) + neutralize(whole.slice(cut));
      expect(joined).not.toMatch(ACTIVE);
      expect(joined).toBe(neutralize(whole));
    }
  });

  it('covers every C0 and C1 code point', () => {
    for (let cp = 0; cp < 0xa0; cp++) {
      const out = neutralize(String.fromCharCode(cp));
      if (cp === 9 || cp === 10) expect(out).toBe(String.fromCharCode(cp));
      else expect(out).not.toMatch(ACTIVE);
    }
  });
});

describe('neutralizeDeep', () => {
  it('neutralises strings inside objects and arrays (keys too) and returns clean values untouched', () => {
    const args = { command: 'echo \u001b]0;t\u0007', list: ['ok', '\u009b1m'], n: 3, nested: { '\u001bk': true } };
    const out = neutralizeDeep(args);
    expect(JSON.stringify(out)).not.toMatch(/\\u001b|\\u0007|\\u009b/);
    expect(out.command).toBe('echo ␛]0;t␇');
    expect(out.list).toEqual(['ok', '␛[1m']);
    expect(Object.keys(out.nested)).toEqual(['␛k']);
    expect(args.command).toBe('echo \u001b]0;t\u0007');
    const clean = { a: 'b', c: [1, 'd'] };
    expect(neutralizeDeep(clean)).toBe(clean);
  });
});

describe('transcript items and runs', () => {
  it('neutralises every displayed field of every item kind', () => {
    const tool = neutralizeItem({
      id: '1',
      kind: 'tool',
      runId: 'r',
      callId: 'c',
      name: 'x\u001b[2J',
      args: { path: '\u001b]2;t\u0007' },
      rawArgs: '{"path":"\u001b]2;t\u0007"}',
      status: 'ok',
      result: 'out \u001b]52;c;aGk=\u0007',
      startedAt: 0,
    });
    expect(JSON.stringify(tool)).not.toMatch(/\\u001b|\\u0007/);
    for (const kind of ['user', 'assistant', 'notice'] as const) {
      const item = neutralizeItem({ id: '1', kind, runId: 'r', level: 'error', text: '\u001b]0;x\u0007', at: 0 } as never);
      expect((item as { text: string }).text).toBe('␛]0;x␇');
    }
  });

  it('neutralises a run patch (task, result, error) and keeps a clean patch as is', () => {
    const patch = neutralizeRunFields({ result: '\u009b2J', error: 'e\u0007', task: 't\u001b', iterations: 2 });
    expect(patch).toEqual({ result: '␛[2J', error: 'e␇', task: 't␛', iterations: 2 });
    const clean = { result: 'fine' };
    expect(neutralizeRunFields(clean)).toBe(clean);
  });
});
