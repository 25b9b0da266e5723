// A regular expression that backtracks without end ((a+)+$ over a line of 40 a's and a '!':
// about 2^40 steps) runs in a grep thread, not on the main thread: the time limit's timer
// fires on the main thread while the thread is still matching (the pattern cannot finish
// first), the grep fails naming the pattern and the file, and a grep started after it
// finishes before it. Then the pool works again, and an abort ends a stuck search at once.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ABORTED } from '../../../src/tools/fileAccess.js';
import { GREP_TOO_SLOW, makeGrepTool } from '../../../src/tools/grep.js';
import { context } from './helpers.js';

const CATASTROPHIC = '(a+)+$';
const LIMIT_MS = 2500;

let work: string;

beforeEach(() => {
  work = realpathSync(mkdtempSync(join(tmpdir(), 'arbor-grep-limit-')));
  mkdirSync(join(work, 'slow'));
  mkdirSync(join(work, 'fine'));
  writeFileSync(join(work, 'slow', 'bad.txt'), `start\n${'a'.repeat(40)}!\nend\n`);
  writeFileSync(join(work, 'fine', 'ok.ts'), 'const greeting = "hello";\n');
});

afterEach(() => rmSync(work, { recursive: true, force: true }));

describe('grep time limit', () => {
  it('a pattern that backtracks without end fails at the limit while the main thread and another grep go on', async () => {
    const grep = makeGrepTool({ fileTimeLimitMs: LIMIT_MS });
    const order: string[] = [];
    const slow = grep.run({ pattern: CATASTROPHIC, path: 'slow' }, context({ cwd: work })).then((r) => {
      order.push('slow');
      return r;
    });
    const fine = grep.run({ pattern: 'hello', path: 'fine' }, context({ cwd: work })).then((r) => {
      order.push('fine');
      return r;
    });
    const [s, f] = await Promise.all([slow, fine]);
    expect(f.error).toBeUndefined();
    expect(f.output).toBe('fine/ok.ts:1:const greeting = "hello";');
    expect(s.success).toBe(false);
    expect(s.error).toBe(GREP_TOO_SLOW(CATASTROPHIC, 'slow/bad.txt', LIMIT_MS));
    expect(s.error).toContain(`'${CATASTROPHIC}'`);
    expect(order).toEqual(['fine', 'slow']);

    // The stuck thread was replaced: the same search with a harmless pattern works.
    const again = await grep.run({ pattern: 'a+!$', path: 'slow' }, context({ cwd: work }));
    expect(again.error).toBeUndefined();
    expect(again.output).toBe(`slow/bad.txt:2:${'a'.repeat(40)}!`);
  });

  it('a file given as the path names that file', async () => {
    const grep = makeGrepTool({ fileTimeLimitMs: LIMIT_MS });
    const r = await grep.run({ pattern: CATASTROPHIC, path: 'slow/bad.txt' }, context({ cwd: work }));
    expect(r.error).toBe(GREP_TOO_SLOW(CATASTROPHIC, 'slow/bad.txt', LIMIT_MS));
  });

  it('an abort ends a search stuck in a pattern long before its limit', async () => {
    const grep = makeGrepTool({ fileTimeLimitMs: 10 * 60_000 });
    const ac = new AbortController();
    const slow = grep.run({ pattern: CATASTROPHIC, path: 'slow' }, context({ cwd: work, signal: ac.signal }));
    // Once another grep has gone through the pool, the stuck one is certainly matching.
    const fine = await grep.run({ pattern: 'hello', path: 'fine' }, context({ cwd: work }));
    expect(fine.error).toBeUndefined();
    ac.abort();
    const r = await slow;
    expect(r.error).toBe(ABORTED('grep'));
  });
});
