// The ledger on screen (issues 21 and 27): /diff after two approved write_file calls lists
// both files with their +/−, and opening one shows its diff against the content before the
// session's first change; a child that says "I updated the config" without a single tool
// call gets its ⚠ flags on its /agents row and on the card of the call that started it.
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect } from 'vitest';
import type { LoopbackIncoming, LoopbackReply } from '../support/loopbackModel.js';
import { disposeAllTerminals, type Term } from '../support/terminal.js';
import { PTY_TEST_TIMEOUT, send, ptyTest } from './sandbox.js';
import { messagesOf } from '../support/wireBody.js';

afterEach(async () => {
  await disposeAllTerminals();
});

const toolResults = (body: any) => (body.messages ?? []).filter((m: any) => m.role === 'tool');
const lastUser = (body: any): string => {
  const users = (body.messages ?? []).filter((m: any) => m.role === 'user');
  const m = users[users.length - 1];
  return typeof m?.content === 'string' ? m.content : (m?.content ?? []).map((p: any) => p.text ?? '').join('');
};
const firstUser = (body: any): string => {
  const m = (body.messages ?? []).find((x: any) => x.role === 'user');
  return typeof m?.content === 'string' ? m.content : (m?.content ?? []).map((p: any) => p.text ?? '').join('');
};

/** "edit <file>" writes that file: notes.md gets three lines, todo.txt one. */
function writes({ body }: LoopbackIncoming): LoopbackReply {
  const msgs = messagesOf(body);
  if (msgs[msgs.length - 1]?.role === 'tool') return { kind: 'text', chunks: ['written'] };
  const file = lastUser(body).replace(/^edit /, '');
  const content = file === 'notes.md' ? 'one\nTWO\nthree\n' : 'buy milk\n';
  return { kind: 'tools', calls: [{ id: `w${msgs.length}`, name: 'write_file', args: { path: file, content } }] };
}

/** Esc from a file's diff shows the list of changed files; Esc again closes it. */
async function closeDiffThenList(term: Term): Promise<void> {
  term.press('esc');
  await term.waitForText('2 files changed in this session');
  term.press('esc');
  await term.waitForNoText('2 files changed in this session');
}

describe('/diff', () => {
  ptyTest('after two approved edits lists both with +/−, and Enter opens one as a diff', PTY_TEST_TIMEOUT * 2, async (sb) => {
    writeFileSync(join(sb.h.dir, 'notes.md'), 'one\ntwo\nthree\n');
    await sb.withModel(writes);
    const term = await sb.startArbor([], { cols: 110, rows: 30 });

    await send(term, 'edit notes.md');
    await term.waitForText('Approval needed');
    term.type('y');
    await term.waitForText('written');
    await term.waitForNoText('Approval needed');
    await send(term, 'edit todo.txt');
    await term.waitForText('Approval needed');
    term.type('y');
    await term.waitForText(/written[\s\S]*written/, 10000);

    await send(term, '/diff');
    await term.waitForText('2 files changed in this session');
    // Newest first; each with its +/−, the run that changed it and when.
    await term.waitForText(/todo\.txt {2}\+1 −0 \(created\) {2}main {2}\d\d:\d\d:\d\d/);
    await term.waitForText(/notes\.md {2}\+1 −1 {2}main {2}\d\d:\d\d:\d\d/);
    term.press('down');
    term.press('enter');
    await term.waitForText("against its content before the session's first change");
    await term.waitForText('-two');
    await term.waitForText('+TWO');
    const screen = term.screen();
    expect(screen).toContain('notes.md');
    expect(screen).toMatch(/ one\n| {2}one/);
    await closeDiffThenList(term);

    // /diff <path> opens it directly; the created file's diff adds its line.
    await send(term, '/diff todo.txt');
    await term.waitForText('+buy milk');
    await closeDiffThenList(term);
    await send(term, '/diff nope.txt');
    await term.waitForText('No file changed in this session matches "nope.txt"');
    await send(term, '/help');
    await term.waitForText(/\/diff \[path\]\s+Files changed in this session by arbor's tools/);

    // The content before the first change is in the session file: after --resume (and a
    // change to the file meanwhile) /diff still diffs against it.
    await send(term, '/quit');
    await term.waitForExit(15000);
    const id = readdirSync(join(sb.h.home, 'sessions'))
      .filter((f) => f.endsWith('.jsonl'))[0]
      .replace(/\.jsonl$/, '');
    writeFileSync(join(sb.h.dir, 'notes.md'), 'one\nTWO\nthree\nfour\n');
    const again = await sb.startArbor(['--resume', id], { cols: 110, rows: 30 });
    await send(again, '/diff notes.md');
    await again.waitForText('-two');
    await again.waitForText('+four');
  });
});

describe('⚠ flags on screen', () => {
  ptyTest(
    'a child answering "I updated the config" with no tool call: ⚠ on its /agents row and on the card',
    PTY_TEST_TIMEOUT,
    async (sb) => {
      await sb.withModel(({ body }) => {
        if (firstUser(body) === 'update the config') return { kind: 'text', chunks: ['I updated the config'] };
        if (toolResults(body).length) return { kind: 'text', chunks: ['parent done'] };
        return { kind: 'tools', calls: [{ id: 'sp', name: 'spawn_subagent', args: { prompt: 'update the config' } }] };
      });
      const term = await sb.startArbor([], { cols: 140, rows: 34 });
      await send(term, 'go');
      await term.waitForText('parent done');
      // The card of the spawn_subagent call says what was claimed and what was observed.
      await term.waitForText('⚠ no tools used · ⚠ claims changes, none observed', 10000);

      await send(term, '/agents');
      await term.waitForText(/main#1|main/);
      await term.waitForText(/⚠ no tools used · ⚠ claims changes, none observed/);
      term.press('esc');
    },
  );
});
