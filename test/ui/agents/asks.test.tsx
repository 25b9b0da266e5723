// Children's asks on screen: the prompt names the child and its path in the tree and
// offers allow once / for this child / for the whole tree / deny; several asks show as a
// queue (count in the status bar, "1 of 2" in the prompt, a mark on each asking row in
// /agents); in the pane the keys stay the pane's until Enter on an asking row.
import { describe, expect, it } from 'vitest';
import type { ApprovalAnswer, PendingApproval } from '../../../src/model/controls.js';
import { setRunStatus } from '../../../src/runtime/store.js';
import { addTestRun, mountApp, KEYS, FakeRuntime, waitFor } from './fixtures.js';
import { expectAll } from '../harness.js';
import { resetUiBetweenTests } from '../lifecycle.js';

resetUiBetweenTests();

/** Records answers and takes the ask off the queue, as the broker does. */
class AskingRuntime extends FakeRuntime {
  override answerApproval(id: string, answer: ApprovalAnswer): void {
    super.answerApproval(id, answer);
    this.store.setState((s) => ({ controls: { ...s.controls, approvals: s.controls.approvals.filter((a) => a.id !== id) } }));
  }
  ask(runId: string, tool: string, args: unknown): PendingApproval {
    const a: PendingApproval = {
      id: `ask-${runId.slice(0, 4)}-${tool}`,
      runId,
      callId: 'c',
      tool,
      args,
      createdAt: Date.now(),
      isChild: true,
    };
    this.store.setState((s) => ({ controls: { ...s.controls, approvals: [...s.controls.approvals, a] } }));
    setRunStatus(this.store, runId, 'awaiting_approval');
    return a;
  }
}

function tree(rt: AskingRuntime) {
  const root = addTestRun(rt, { task: 'go' });
  const researcher = addTestRun(rt, { parent: root.id, alias: 'researcher', kind: 'delegate', task: 'dig in' });
  const sub = addTestRun(rt, { parent: researcher.id, alias: 'researcher', kind: 'subagent', task: 'write notes' });
  const other = addTestRun(rt, { parent: root.id, alias: 'coder', kind: 'delegate', task: 'fix it' });
  return { root, researcher, sub, other };
}

describe("a child's ask in the prompt", () => {
  it('names the child and its path, shows every argument and the four answers; c and t answer for the child and the tree', async () => {
    const rt = new AskingRuntime();
    const { sub, other } = tree(rt);
    const first = rt.ask(sub.id, 'write_file', { path: 'notes.md', content: 'hello' });
    const second = rt.ask(other.id, 'shell', { command: 'make test' });
    const app = await mountApp(rt);
    await waitFor(() => expect(app.frame()).toContain('Approval needed (1 of 2): researcher#2 wants to use write_file'));
    const frame = app.frame();
    expectAll(frame, [
      'in main › researcher#1 › researcher#2',
      '"path": "notes.md"',
      '"content": "hello"',
      '[y] allow once',
      '[c] allow for this child',
      '[t] allow for the whole tree this turn',
      '[n/Esc] deny',
      '⚑ 2 asks waiting',
    ]);
    expect(frame).not.toContain('allow for this session');
    // a (the root's session answer) means nothing here.
    await app.press('a');
    expect(rt.callsOf('answerApproval')).toEqual([]);
    await app.press('c');
    expect(rt.callsOf('answerApproval')).toEqual([[first.id, 'allow_child']]);
    await waitFor(() => expect(app.frame()).toContain('coder#3 wants to use shell'));
    expect(app.frame()).not.toContain('(1 of');
    expect(app.frame()).toContain('⚑ 1 ask waiting');
    await app.press('t');
    expect(rt.callsOf('answerApproval')).toEqual([
      [first.id, 'allow_child'],
      [second.id, 'allow_tree'],
    ]);
    await waitFor(() => expect(app.frame()).not.toContain('Approval needed'));
    expect(app.frame()).not.toContain('asks waiting');
  });

  it('↓ and Enter choose from the four answers', async () => {
    const rt = new AskingRuntime();
    const { sub } = tree(rt);
    const ask = rt.ask(sub.id, 'write_file', { path: 'a' });
    const app = await mountApp(rt);
    await waitFor(() => expect(app.frame()).toContain('Approval needed'));
    await app.press(KEYS.DOWN);
    await app.press(KEYS.DOWN);
    await app.press(KEYS.ENTER);
    expect(rt.callsOf('answerApproval')).toEqual([[ask.id, 'allow_tree']]);
  });
});

describe('asks in the /agents pane', () => {
  it('marks each asking row; the pane keeps its keys until Enter on a marked row, which answers that ask', async () => {
    const rt = new AskingRuntime();
    const { sub, other } = tree(rt);
    const first = rt.ask(sub.id, 'write_file', { path: 'notes.md' });
    const second = rt.ask(other.id, 'shell', { command: 'make test' });
    const app = await mountApp(rt);
    await app.press(KEYS.CTRL_T);
    await waitFor(() => expect(app.frame()).toContain('coder#3 delegate'));
    const rows = app.frame().split('\n');
    expect(rows.find((l) => l.includes('researcher#2 subagent'))).toMatch(/⚑ awaiting approval\s+researcher#2/);
    expect(rows.find((l) => l.includes('coder#3 delegate'))).toMatch(/⚑ awaiting approval\s+coder#3/);
    expect(rows.find((l) => l.includes('researcher#1 delegate'))).not.toContain('⚑');
    expect(app.frame()).toContain('on its ⚑ row in /agents answers it');
    // Arrows move the selection in the pane; they do not answer anything. Rows: main,
    // researcher#1, researcher#2 (asking), coder#3 (asking).
    expect(app.frame()).toContain('1/4');
    await app.press('j');
    expect(app.frame()).toContain('Enter transcript');
    await app.press(KEYS.DOWN);
    await waitFor(() => expect(app.frame()).toContain('3/4'));
    // On an asking row, Enter answers instead of opening the transcript.
    expect(app.frame()).toContain('Enter answer ask');
    expect(app.frame()).not.toContain('Enter transcript');
    await app.press('j');
    await waitFor(() => expect(app.frame()).toContain('4/4'));
    expect(rt.callsOf('answerApproval')).toEqual([]);
    await app.press(KEYS.ENTER);
    // The prompt now shows the coder's ask (not the oldest) and has the keys.
    await waitFor(() => expect(app.frame()).toContain('Approval needed (2 of 2): coder#3 wants to use shell'));
    await app.press('y');
    expect(rt.callsOf('answerApproval')).toEqual([[second.id, 'allow_once']]);
    // Back to the pane's keys: j moves, n is nothing to the pane.
    await waitFor(() => expect(app.frame()).toContain('researcher#2 wants to use write_file'));
    await app.press('n');
    expect(rt.callsOf('answerApproval')).toEqual([[second.id, 'allow_once']]);
    expect(first).toBeDefined();
  });
});
