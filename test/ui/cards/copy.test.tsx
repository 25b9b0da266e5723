// Copy: OSC 52 for the clipboard, a file for the record, and a message that says where.
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { setLanguage } from '../../../src/i18n/index.js';
import { copyText, entryText, OSC52_MAX_BYTES, osc52 } from '../../../src/ui/cards/copy.js';
import { exportDir } from '../../../src/config/paths.js';
import { writeExport } from '../../../src/persistence/exportFile.js';
import { toolItem } from './fixtures.js';

let dir: string;
beforeEach(() => {
  setLanguage('en');
  dir = mkdtempSync(join(tmpdir(), 'arbor-copy-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** What the runtime's exportText does, into a folder of the test's. */
const saveIn = (folder: string) => (text: string, what: string) => writeExport(text, what, folder);

describe('copy', () => {
  it('exports under $ARBOR_HOME/exports, or the temp folder when it is not set', () => {
    expect(exportDir({ ARBOR_HOME: dir })).toBe(join(dir, 'exports'));
    expect(exportDir({})).toBe(tmpdir());
  });

  it('the entry is the retained call verbatim: arguments and result as recorded', () => {
    const item = toolItem('delegate', { agent: 'r', prompt: 'p' }, { rawArgs: '{"agent":"r","prompt":"p"}', result: 'line 1\nline 2' });
    const text = entryText(item);
    expect(text).toContain('{"agent":"r","prompt":"p"}');
    expect(text).toMatch(/result:\nline 1\nline 2$/);
    expect(entryText(toolItem('spawn_subagent', { prompt: 'p' }, { result: undefined }))).toMatch(/Result not recorded$/);
  });

  it('writes the clipboard sequence and a new file each time, and says where', () => {
    const writes: string[] = [];
    const a = copyText('hello ✓', 'delegate-call/1', (d) => writes.push(d), saveIn(dir));
    const b = copyText('hello ✓', 'delegate-call/1', (d) => writes.push(d), saveIn(dir));
    expect(writes).toEqual([osc52('hello ✓'), osc52('hello ✓')]);
    expect(writes[0]).toBe(`\u001B]52;c;${Buffer.from('hello ✓').toString('base64')}\u0007`);
    expect(a.path).not.toBe(b.path);
    expect(a.path!.startsWith(dir)).toBe(true);
    expect(a.path).toMatch(/arbor-delegate-call_1-\d{8}-\d{6}\.txt$/);
    expect(readFileSync(a.path!, 'utf8')).toBe('hello ✓');
    expect(a.message).toContain(a.path!);
  });

  it('too large for OSC 52: only the file, and the message says so', () => {
    const writes: string[] = [];
    const out = copyText('x'.repeat(OSC52_MAX_BYTES + 1), 'big', (d) => writes.push(d), saveIn(dir));
    expect(writes).toEqual([]);
    expect(out.clipboard).toBe(false);
    expect(out.message).toContain('Too large for the clipboard');
    expect(existsSync(out.path!)).toBe(true);
  });

  it('a folder that cannot be written is named in the message; the clipboard still works', () => {
    const blocker = join(dir, 'not-a-dir');
    writeFileSync(blocker, '');
    const writes: string[] = [];
    const out = copyText('text', 'x', (d) => writes.push(d), saveIn(join(blocker, 'exports')));
    expect(writes).toHaveLength(1);
    expect(out.level).toBe('warn');
    expect(out.message).toContain(join(blocker, 'exports'));
    if (process.getuid?.() !== 0) {
      const ro = join(dir, 'ro');
      writeExport('first', 'x', ro);
      chmodSync(ro, 0o500);
      expect(() => writeExport('second', 'x', ro)).toThrow(/could not write/);
      chmodSync(ro, 0o700);
    }
  });
});

describe('copy scrubs secrets like session files', () => {
  it('a key in the entry reaches neither the export file nor the clipboard', () => {
    const secret = 'sk-export-secret-0123456789';
    process.env.ARBOR_TEST_EXPORT_KEY = secret;
    try {
      const path = writeExport(`key: ${secret}`, 'x', dir);
      expect(readFileSync(path, 'utf8')).toBe('key: [redacted]');
      const writes: string[] = [];
      const outcome = copyText(`again ${secret}`, 'x', (d) => writes.push(d), saveIn(dir));
      expect(writes).toEqual([osc52('again [redacted]')]);
      expect(readFileSync(outcome.path!, 'utf8')).not.toContain(secret);
    } finally {
      delete process.env.ARBOR_TEST_EXPORT_KEY;
    }
  });
});
