// grep's literal prefilter (grepWorker.ts): a literal is looked for by its rarest byte
// (rareByteAt), each hit compared in place, and after 32 false hits in a file by a plain
// substring search from there. Either way a file holding the literal is searched and one
// without it is not.
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { grepTool } from '../../../src/tools/grep.js';
import { rareByteAt } from '../../../src/tools/requiredLiteral.js';
import { context } from './helpers.js';

let dir: string;

beforeAll(() => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'arbor-grep-prefilter-')));
  // 'L' is the rare byte of the literal; these files hold it far more than 32 times.
  writeFileSync(join(dir, 'late.txt'), `${'Lx needleLiteral\n'.repeat(200)}the needleLiteralToken at last\n`);
  writeFileSync(join(dir, 'never.txt'), 'Lx needleLiteral\n'.repeat(200));
  writeFileSync(join(dir, 'first.txt'), 'needleLiteralToken on line one\n');
  writeFileSync(join(dir, 'edge.txt'), 'needleLiteralToke'); // cut one byte short at the end
  writeFileSync(join(dir, 'common.txt'), 'nothing to return here\nreturn value\n');
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('grep literal prefilter', () => {
  it('rareByteAt picks a capital over lower-case letters, and nothing when every byte is common', () => {
    expect(rareByteAt('needleLiteralToken')).toBe(6);
    expect(rareByteAt('return')).toBe(-1);
    expect(rareByteAt('Handler(')).toBe(0);
  });

  it('finds the literal after many false hits of its rare byte, and only where it is', async () => {
    const r = await grepTool.run({ pattern: 'needleLiteralToken' }, context({ cwd: dir }));
    expect(r.error).toBeUndefined();
    expect(r.output.split('\n')).toEqual(['first.txt:1:needleLiteralToken on line one', 'late.txt:201:the needleLiteralToken at last']);
  });

  it('a literal made only of common bytes is found by the substring search', async () => {
    const r = await grepTool.run({ pattern: 'return', output_mode: 'count' }, context({ cwd: dir }));
    expect(r.output).toBe('common.txt:2');
  });
});
