// The approval prompt of a file change as a person meets it in a real terminal: the diff
// of what write_file would do (line numbers, +N −M), the warning for a file the model
// never read (and none after it read it), a 300-line diff scrolled inside the prompt with
// PgDn and, after Tab, ↓, without moving the chat above it; the card's +N −M afterwards;
// headless, the display in --output json and the stderr line.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect } from 'vitest';
import type { LoopbackIncoming, LoopbackReply } from '../support/loopbackModel.js';
import { jsonLines } from '../support/runArbor.js';
import { disposeAllTerminals, type Term } from '../support/terminal.js';
import { PTY_TEST_TIMEOUT, send, ptyTest, type Sandbox } from './sandbox.js';
import { messagesOf } from '../support/wireBody.js';

afterEach(async () => {
  await disposeAllTerminals();
});

const NEVER_READ = 'already exists and this agent never read it in this run';
const lines = (n: number, tag: string) => Array.from({ length: n }, (_, i) => `${tag} ${i + 1}\n`).join('');
const toolCount = (body: any) => (body.messages ?? []).filter((m: any) => m.role === 'tool').length;
const lastUser = (body: any): string => {
  const users = (body.messages ?? []).filter((m: any) => m.role === 'user');
  const m = users[users.length - 1];
  return typeof m?.content === 'string' ? m.content : (m?.content ?? []).map((p: any) => p.text ?? '').join('');
};

/** `rewrite`: one write of notes.txt; `read then rewrite`: a read_file of it first;
 * `rewrite big`: a 300-line file replaced line for line. Then a short answer. */
function model({ body }: LoopbackIncoming): LoopbackReply {
  const msgs = messagesOf(body);
  const user = lastUser(body);
  const done = msgs[msgs.length - 1]?.role === 'tool';
  const write = (path: string, content: string): LoopbackReply => ({
    kind: 'tools',
    calls: [{ id: `w${msgs.length}`, name: 'write_file', args: { path, content } }],
  });
  if (user === 'read then rewrite') {
    if (toolCount(body) === 0) return { kind: 'tools', calls: [{ id: 'r1', name: 'read_file', args: { path: 'notes.txt' } }] };
    if (toolCount(body) === 1) return write('notes.txt', 'one\nTWO\nthree\nfour\n');
  } else if (!done) {
    if (user === 'rewrite') return write('notes.txt', 'one\nTWO\nthree\nfour\n');
    if (user === 'rewrite big') return write('big.txt', lines(300, 'new'));
  }
  return { kind: 'text', chunks: ['all done'] };
}

function rowOf(term: Term, text: string): number {
  return term
    .screen()
    .split('\n')
    .findIndex((l) => l.includes(text));
}

/** notes.txt holds three lines; `prompt` makes the model rewrite it; resolves once the
 * approval prompt shows the change (+2 −1). */
async function askedToRewriteNotes(sb: Sandbox, prompt: string): Promise<Term> {
  writeFileSync(join(sb.h.dir, 'notes.txt'), 'one\ntwo\nthree\n');
  await sb.withModel(model);
  const term = await sb.startArbor();
  await send(term, prompt);
  await term.waitForText('Approval needed', 10000, { where: 'screen' });
  await term.waitForText('notes.txt +2 −1', 5000, { where: 'screen' });
  return term;
}

describe('approving a file change', () => {
  ptyTest('shows the diff of a write_file that replaces an unread file; the card says +N −M after it', PTY_TEST_TIMEOUT, async (sb) => {
    const term = await askedToRewriteNotes(sb, 'rewrite');
    const screen = term.screen();
    expect(screen).toContain('@@ -1,3 +1,4 @@');
    expect(screen).toMatch(/2\s+-two/);
    expect(screen).toMatch(/2 \+TWO/);
    expect(screen).toMatch(/4 \+four/);
    expect(screen).toContain(`⚠ notes.txt ${NEVER_READ}`);
    expect(screen).not.toContain('"content"');
    // Asking wrote nothing.
    expect(readFileSync(join(sb.h.dir, 'notes.txt'), 'utf8')).toBe('one\ntwo\nthree\n');
    term.type('y');
    await term.waitForText('all done');
    await term.waitForText('write_file notes.txt +2 −1');
    expect(readFileSync(join(sb.h.dir, 'notes.txt'), 'utf8')).toBe('one\nTWO\nthree\nfour\n');
  });

  ptyTest('no warning once the model has read the file in this run', PTY_TEST_TIMEOUT, async (sb) => {
    const term = await askedToRewriteNotes(sb, 'read then rewrite');
    expect(term.screen()).not.toContain(NEVER_READ);
    term.type('n');
    await term.waitForText('all done');
    expect(readFileSync(join(sb.h.dir, 'notes.txt'), 'utf8')).toBe('one\ntwo\nthree\n');
  });

  ptyTest(
    'a 300-line diff scrolls inside the prompt: PgDn and Tab then ↓ show later lines, the chat stays put',
    PTY_TEST_TIMEOUT,
    async (sb) => {
      writeFileSync(join(sb.h.dir, 'big.txt'), lines(300, 'old'));
      await sb.withModel(model);
      const term = await sb.startArbor([], { cols: 100, rows: 40 });
      await send(term, 'rewrite big');
      await term.waitForText('big.txt +300 −300', 10000, { where: 'screen' });
      await term.waitForText(/lines 1–\d+ of 601/, 5000, { where: 'screen' });
      expect(term.screen()).toMatch(/-old 1\s*│/);
      expect(term.screen()).not.toContain('old 300');
      const chatRow = rowOf(term, '› rewrite big');
      const titleRow = rowOf(term, 'Approval needed');
      const choiceRow = rowOf(term, '[n/Esc] deny');
      expect(chatRow).toBeGreaterThanOrEqual(0);
      const window = Number(/lines 1–(\d+) of 601/.exec(term.screen())![1]);

      term.press('pgdn');
      await term.waitForText(`lines ${window}–${2 * window - 1} of 601`, 5000, { where: 'screen' });
      expect(term.screen()).not.toMatch(/-old 1\s*│/);
      for (const [what, row] of [
        ['› rewrite big', chatRow],
        ['Approval needed', titleRow],
        ['[n/Esc] deny', choiceRow],
      ] as const)
        expect(rowOf(term, what), what).toBe(row);

      // ↓ moves the choice; after Tab it scrolls the diff a line.
      term.press('down');
      await term.waitForText('› [a] allow for this session', 5000, { where: 'screen' });
      expect(term.screen()).toContain(`lines ${window}–`);
      term.press('tab');
      await term.waitForText('back to the choices', 5000, { where: 'screen' });
      term.press('down');
      await term.waitForText(`lines ${window + 1}–${2 * window} of 601`, 5000, { where: 'screen' });
      // 601 rows: past the end in pages of the window less one row.
      for (let i = 0; i < Math.ceil(601 / (window - 1)); i++) term.press('pgdn');
      await term.waitForText(/lines \d+–601 of 601/, 5000, { where: 'screen' });
      expect(term.screen()).toMatch(/300 \+new 300\s*│/);
      expect(rowOf(term, '› rewrite big')).toBe(chatRow);
      expect(rowOf(term, 'Approval needed')).toBe(titleRow);

      term.type('y');
      await term.waitForText('all done');
      await term.waitForText('write_file big.txt +300 −300');
      expect(readFileSync(join(sb.h.dir, 'big.txt'), 'utf8')).toBe(lines(300, 'new'));
    },
  );
});

describe('headless, the same change as data and as a stderr line', () => {
  ptyTest('--output json carries the diff display; text mode prints write_file <path> +N −M on stderr', PTY_TEST_TIMEOUT, async (sb) => {
    writeFileSync(join(sb.h.dir, 'notes.txt'), 'one\ntwo\nthree\n');
    await sb.withModel(model);
    const json = await sb.arbor(['-p', 'rewrite', '--yes', '--output', 'json']);
    expect(json.code).toBe(0);
    const events = jsonLines(json.stdout);
    const result = events.find((e) => e.type === 'tool_result' && e.name === 'write_file')!;
    expect(result.display).toEqual({
      kind: 'diff',
      path: 'notes.txt',
      added: 2,
      removed: 1,
      hunks: [{ oldStart: 1, oldLines: 3, newStart: 1, newLines: 4, lines: [' one', '-two', '+TWO', ' three', '+four'] }],
    });
    writeFileSync(join(sb.h.dir, 'notes.txt'), 'one\ntwo\nthree\n');
    const text = await sb.arbor(['-p', 'rewrite', '--yes']);
    expect(text.code).toBe(0);
    expect(text.stderr).toContain('write_file notes.txt +2 −1');
  });
});
