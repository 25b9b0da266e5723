// read_file by range: the contract over a table of cases (start, middle, end, a line
// over the cut, CRLF, the note when the file continues, an offset past the end).
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { READ_LINE_CAP_CHARS, readFileTool } from '../../../src/tools/readFile.js';
import { context } from './helpers.js';

let work: string;
beforeEach(() => {
  work = realpathSync(mkdtempSync(join(tmpdir(), 'arbor-ranges-')));
  // 3000 numbered lines, LF, with a final newline.
  writeFileSync(join(work, 'long.txt'), Array.from({ length: 3000 }, (_, i) => `line ${i + 1}`).join('\n') + '\n');
  writeFileSync(join(work, 'crlf.txt'), 'one\r\ntwo\r\nthree\r\n');
  writeFileSync(join(work, 'nofinal.txt'), 'a\nb\nc');
  writeFileSync(join(work, 'wide.txt'), `short\n${'w'.repeat(READ_LINE_CAP_CHARS + 50)}\nafter\n`);
});
afterEach(() => rmSync(work, { recursive: true, force: true }));

const ctx = () => context({ cwd: work });
const n = (i: number, text: string) => `${String(i).padStart(6)}\t${text}`;
const lines = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, k) => n(from + k, `line ${from + k}`)).join('\n');

describe('read_file ranges', () => {
  it.each([
    ['the start by default', {}, `${lines(1, 2000)}\n[showing lines 1-2000 of 3000; read more with offset=2001]`],
    ['the start with a limit', { limit: 3 }, `${lines(1, 3)}\n[showing lines 1-3 of 3000; read more with offset=4]`],
    ['the middle', { offset: 1500, limit: 2 }, `${lines(1500, 1501)}\n[showing lines 1500-1501 of 3000; read more with offset=1502]`],
    ['the end: no note', { offset: 2999 }, lines(2999, 3000)],
    ['the end exactly', { offset: 2001, limit: 1000 }, lines(2001, 3000)],
  ])('%s', async (_what, range, expected) => {
    const r = await readFileTool.run({ path: 'long.txt', ...range }, ctx());
    expect(r.error).toBeUndefined();
    expect(r.output).toBe(expected);
  });

  it('states the range in its display', async () => {
    const r = await readFileTool.run({ path: 'long.txt', offset: 10, limit: 5 }, ctx());
    expect(r.display).toMatchObject({ kind: 'read', path: 'long.txt', startLine: 10, endLine: 14, totalLines: 3000, truncated: true });
  });

  it('shows CRLF lines without their CR, and a last line without a newline', async () => {
    expect((await readFileTool.run({ path: 'crlf.txt' }, ctx())).output).toBe([n(1, 'one'), n(2, 'two'), n(3, 'three')].join('\n'));
    expect((await readFileTool.run({ path: 'nofinal.txt', offset: 3 }, ctx())).output).toBe(n(3, 'c'));
  });

  it('cuts a line over the cap with a marker, and reads on past it', async () => {
    const r = await readFileTool.run({ path: 'wide.txt' }, ctx());
    const out = r.output.split('\n');
    expect(out[1]).toBe(n(2, `${'w'.repeat(READ_LINE_CAP_CHARS)} [... line cut at ${READ_LINE_CAP_CHARS} characters]`));
    expect(out[2]).toBe(n(3, 'after'));
  });

  it('refuses an offset past the end and a bad offset or limit', async () => {
    expect((await readFileTool.run({ path: 'long.txt', offset: 3001 }, ctx())).error).toBe(
      "offset=3001 is past the end of 'long.txt', which has 3000 lines.",
    );
    expect((await readFileTool.run({ path: 'long.txt', offset: 0 }, ctx())).error).toBe(
      "Invalid arguments for read_file: 'offset' must be a positive integer (the 1-based first line).",
    );
    expect((await readFileTool.run({ path: 'long.txt', limit: 'ten' }, ctx())).error).toBe(
      "Invalid arguments for read_file: 'limit' must be a positive integer (the number of lines).",
    );
  });
});
