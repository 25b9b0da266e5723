// The file tools end to end, through the built CLI and a loopback model: the model reads a
// 3,000-line file in two ranged calls, greps it, edits two places in one edit_file call, and
// the file on disk is exactly the expected text.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { trailingToolResults } from '../support/loopbackModel.js';
import { PROCESS_TEST_TIMEOUT, sandbox } from './sandbox.js';

const AUTO = '\n[risk_profiles.default]\nauto_approve = ["read_file", "grep", "edit_file"]\n';
const LINES = Array.from({ length: 3000 }, (_, i) =>
  i === 1233 ? 'const needle = 1;' : i === 2899 ? 'const needle2 = 2;' : `line ${i + 1}`,
);
const n = (i: number) => `${String(i).padStart(6)}\t${LINES[i - 1]}`;

describe('read by range, grep, edit two places', { timeout: PROCESS_TEST_TIMEOUT }, () => {
  it('leaves exactly the expected text on disk', async (ctx) => {
    const sb = sandbox(ctx);
    writeFileSync(join(sb.h.dir, 'big.ts'), `${LINES.join('\n')}\n`);
    const seen: string[] = [];
    const call = (name: string, args: object) => ({ kind: 'tools' as const, calls: [{ id: `c${seen.length}`, name, args }] });
    await sb.withModel((req) => {
      const results = trailingToolResults(req.body);
      if (results.length > 0) seen.push(results.map((r) => r.content).join('\n'));
      switch (req.index) {
        case 0:
          return call('read_file', { path: 'big.ts' });
        case 1:
          return call('read_file', { path: 'big.ts', offset: 2001, limit: 1000 });
        case 2:
          return call('grep', { pattern: 'needle\\d?', output_mode: 'content' });
        case 3:
          return call('edit_file', {
            path: 'big.ts',
            edits: [
              { old_string: 'const needle = 1;', new_string: 'const needle = 10;\n// changed' },
              { old_string: 'line 2899\nconst needle2 = 2;', new_string: 'line 2899\nconst needle2 = 20;' },
            ],
          });
        default:
          return { kind: 'text', chunks: ['done'] };
      }
    }, AUTO);
    const run = await sb.arbor(['-p', 'change the needles']);
    expect(run.code).toBe(0);
    expect(seen).toHaveLength(4);
    const [first, second, grep, edit] = seen;
    expect(first.split('\n')).toHaveLength(2001);
    expect(first.startsWith(`${n(1)}\n${n(2)}\n`)).toBe(true);
    expect(first.endsWith(`${n(2000)}\n[showing lines 1-2000 of 3000; read more with offset=2001]`)).toBe(true);
    expect(second).toBe(Array.from({ length: 1000 }, (_, k) => n(2001 + k)).join('\n'));
    expect(grep).toBe('big.ts:1234:const needle = 1;\nbig.ts:2900:const needle2 = 2;');
    expect(edit).toBe("Edited 'big.ts': 2 replacements (+3 -2 lines).");
    const expected = [...LINES];
    expected.splice(1233, 1, 'const needle = 10;', '// changed');
    expected[2900] = 'const needle2 = 20;';
    expect(readFileSync(join(sb.h.dir, 'big.ts'), 'utf8')).toBe(`${expected.join('\n')}\n`);
  });
});
