// The approval prompt of a call that previewed its change (write_file, edit_file): the
// diff with its `+N −M` header, a window of fixed height that PgUp/PgDn and (after Tab)
// ↑/↓ scroll, the choices still moved by ↑/↓, and the never-read warning, in en and es.
import { describe, expect, it } from 'vitest';
import { setLanguage } from '../../../src/i18n/index.js';
import type { PendingApproval } from '../../../src/model/controls.js';
import { fileDiff } from '../../../src/text/diff.js';
import { DOWN, ENTER, mount, mountSized, TAB, UP, waitFor } from '../harness.js';
import { resetUiBetweenTests } from '../lifecycle.js';

const PGDN = '\u001B[6~';
const PGUP = '\u001B[5~';

resetUiBetweenTests();

const lines = (n: number, tag: string) => Array.from({ length: n }, (_, i) => `${tag} ${i + 1}\n`).join('');

async function askWithDiff(before: string | undefined, after: string, extra: Partial<PendingApproval> = {}) {
  const app = await mount();
  await app.submit('change it');
  const args = { path: 'src/a.ts', content: after };
  app.runtime.addTool('write_file', args, 'pending_approval');
  const approval = app.runtime.requestApproval('write_file', args);
  const preview = fileDiff('src/a.ts', before, after);
  app.runtime.store.setState((s) => ({
    controls: { ...s.controls, approvals: s.controls.approvals.map((a) => (a.id === approval.id ? { ...a, preview, ...extra } : a)) },
  }));
  await waitFor(() => expect(app.frame()).toContain('src/a.ts +'));
  return { app, approval };
}

/** The prompt's rows, from its title to its hint. */
function promptRows(frame: string): string[] {
  const all = frame.split('\n');
  const start = all.findIndex((l) => l.includes('Approval needed') || l.includes('Se necesita aprobación'));
  const end = all.findIndex((l, i) => i > start && l.includes('╰'));
  return all.slice(start, end + 1);
}

describe('approval prompt with a diff', () => {
  it('shows the change as a numbered diff with +N −M instead of the content argument', async () => {
    const { app } = await askWithDiff('one\ntwo\nthree\n', 'one\nTWO\nthree\nfour\n');
    const frame = app.frame();
    expect(frame).toContain('main wants to use write_file');
    expect(frame).toContain('src/a.ts +2 −1');
    expect(frame).toContain('@@ -1,3 +1,4 @@');
    expect(frame).toMatch(/2\s+-two/);
    expect(frame).toMatch(/2\s+\+TWO/);
    expect(frame).toMatch(/4\s+\+four/);
    // The arguments the diff does not show stay, as sent; the content is the diff.
    expect(frame).toContain('"path": "src/a.ts"');
    expect(frame).not.toContain('"content"');
    expect(frame).toContain('[y] allow once');
    expect(frame).toContain('↑↓ choose · Enter answer');
    expect(frame).not.toContain('never read');
  });

  it('a new file says so and shows its first lines', async () => {
    const { app } = await askWithDiff(undefined, lines(200, 'new'));
    const frame = app.frame();
    expect(frame).toContain('src/a.ts +200 −0 (new file)');
    expect(frame).toMatch(/1 \+new 1\s/);
    expect(frame).not.toContain('new 200');
    expect(frame).toMatch(/lines 1–\d+ of 201/);
  });

  it('a long diff scrolls inside a window of fixed height; ↑/↓ keep moving the choice until Tab', async () => {
    const { app, approval } = await askWithDiff(lines(300, 'old'), lines(300, 'new'));
    const first = promptRows(app.frame());
    expect(first.join('\n')).toMatch(/-old 1\s/);
    expect(first.join('\n')).not.toContain('old 300');
    await app.press(PGDN);
    await waitFor(() => expect(app.frame()).not.toMatch(/-old 1\s/));
    const paged = promptRows(app.frame());
    expect(paged.length).toBe(first.length);
    // ↓ on the list moves the choice, not the diff
    await app.press(DOWN);
    await waitFor(() => expect(app.frame()).toMatch(/› \[a\] allow for this session/));
    expect(promptRows(app.frame()).join('\n')).toBe(paged.join('\n').replace('› [y]', '  [y]').replace('  [a]', '› [a]'));
    // Tab gives ↑/↓ to the diff
    await app.press(TAB);
    await waitFor(() => expect(app.frame()).toContain('back to the choices'));
    const at = /lines (\d+)–/.exec(app.frame())![1];
    await app.press(DOWN);
    await waitFor(() => expect(/lines (\d+)–/.exec(app.frame())![1]).toBe(String(Number(at) + 1)));
    await app.press(UP);
    await waitFor(() => expect(/lines (\d+)–/.exec(app.frame())![1]).toBe(at));
    await app.press(PGUP);
    await waitFor(() => expect(app.frame()).toContain('lines 1–'));
    expect(promptRows(app.frame()).length).toBe(first.length);
    // Tab back: ↑ moves the choice again, Enter answers it
    await app.press(TAB);
    await app.press(UP);
    await app.press(ENTER);
    expect(app.runtime.calls.answerApproval).toEqual([{ id: approval.id, answer: 'allow_once' }]);
  });

  it('tab-indented and wide lines stay inside the box, one row each', async () => {
    const before = Array.from({ length: 30 }, (_, i) => `\tfunc${i}() {\t// ${'x'.repeat(150)}\n`).join('');
    const { app } = await askWithDiff(before, before.replace(/func/g, 'fn'));
    const rows = promptRows(app.frame());
    expect(rows.length).toBeGreaterThan(10);
    const width = rows[0].length;
    for (const r of rows) expect(r.length, r).toBe(width);
    expect(rows.join('\n')).toContain('-    func0() {');
  });

  it('warns when the write replaces a file the agent never read', async () => {
    const { app } = await askWithDiff('a\n', 'b\n', { unreadFile: true });
    expect(app.frame()).toContain('⚠ src/a.ts already exists and this agent never read it in this run');
  });

  it('speaks Spanish', async () => {
    setLanguage('es');
    const { app } = await askWithDiff(lines(300, 'old'), lines(300, 'new'), { unreadFile: true });
    const frame = app.frame();
    expect(frame).toContain('⚠ src/a.ts ya existe y este agente no lo leyó en esta ejecución');
    expect(frame).toMatch(/líneas 1–\d+ de 601/);
    expect(frame).toContain('desplazan el diff');
    expect(frame).toContain('src/a.ts +300 −300');
  });

  it("keeps the live region shorter than a small terminal, a child's ask with every row included", async () => {
    for (const rows of [22, 24, 30]) {
      const app = await mountSized(80, rows);
      try {
        await app.press('go');
        await app.press(ENTER);
        const args = { path: 'src/a.ts', content: lines(300, 'new'), replace_all: false };
        const ask = app.runtime.requestApproval('write_file', args);
        const preview = fileDiff('src/a.ts', lines(300, 'old'), lines(300, 'new'));
        app.runtime.store.setState((s) => ({
          controls: {
            ...s.controls,
            approvals: s.controls.approvals.map((a) => (a.id === ask.id ? { ...a, preview, unreadFile: true, isChild: true } : a)),
          },
        }));
        await waitFor(() => expect(app.stdout.last()).toContain('[t] allow for the whole tree'));
        const frame = app.stdout.last();
        const live = frame.slice(frame.indexOf('› go\n') + '› go\n'.length);
        expect(live.split('\n').length, `rows=${rows}\n${live}`).toBeLessThan(rows);
        expect(live).toContain('src/a.ts +300 −300');
        expect(live).toMatch(/lines 1–\d+ of 601/);
      } finally {
        app.unmount();
      }
    }
  });
});
