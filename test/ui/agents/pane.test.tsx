import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { cleanup } from 'ink-testing-library';
import { patchRun, setRunStatus, toolStarted } from '../../../src/runtime/store.js';
import { addTestRun, KEYS, mountPane, FakeRuntime, say, tool, waitFor } from './fixtures.js';
import { advanceClock, expectAll, waitOnClock } from '../harness.js';
import { settled } from '../settle.js';
import { itInEachLanguage, resetUiBetweenTests } from '../lifecycle.js';

resetUiBetweenTests();

/** Opens the steer prompt and lets it subscribe to keys (it does so in an effect after it
 * mounts; a person never types within milliseconds of the prompt appearing). */
async function openPrompt(pane: Awaited<ReturnType<typeof mountPane>>) {
  await pane.press('s');
  await waitFor(() => expect(pane.frame()).toContain('steer main#1 ›'));
  await settled();
}

/** main (turn) → main#1 → {researcher#2 running, researcher#3 queued #2}; main#4 paused;
 * writer#5 completed; a background task of its own (indexer#6). Each child's number is its
 * place in creation order, whatever its alias. */
function tree(rt = new FakeRuntime()) {
  const root = addTestRun(rt, { task: 'plan the release' });
  const child = addTestRun(rt, {
    parent: root.id,
    task: 'survey the repo',
    patch: { iterations: 3, toolsCompleted: 4, tokensIn: 1000, tokensOut: 200, costUsd: 0.01 },
  });
  const r1 = addTestRun(rt, { parent: child.id, alias: 'researcher', kind: 'delegate', task: 'read the docs' });
  const r2 = addTestRun(rt, {
    parent: child.id,
    alias: 'researcher',
    kind: 'delegate',
    status: 'queued',
    task: 'read the tests',
    patch: { queuePosition: 2 },
  });
  const paused = addTestRun(rt, { parent: root.id, status: 'paused', task: 'wait here' });
  const done = addTestRun(rt, { parent: root.id, alias: 'writer', kind: 'delegate', status: 'completed', task: 'write notes' });
  const bg = addTestRun(rt, { parent: root.id, alias: 'indexer', kind: 'background', task: 'index everything' });
  toolStarted(rt.store, r1.id, 'read_file');
  return { rt, root, child, r1, r2, paused, done, bg };
}

/** tree() with its runaway guard tripped, in the pane, the turn's row (the second) selected. */
async function trippedTreeTurnSelected() {
  const { rt, root } = tree();
  rt.trip(root.id);
  const pane = await mountPane(rt, { width: 140 });
  await pane.press('j');
  return { rt, root, pane };
}

const lineOf = (lines: string[], text: string) => {
  const i = lines.findIndex((l) => l.includes(text));
  if (i < 0) throw new Error(`no line with "${text}" in:\n${lines.join('\n')}`);
  return i;
};

describe('/agents pane rendering', () => {
  it('a row shows the model that answered when there is room; it is the first column to go on a narrow terminal', async () => {
    const rt = new FakeRuntime();
    const root = addTestRun(rt, { task: 'plan' });
    const child = addTestRun(rt, { parent: root.id, alias: 'reviewer', kind: 'delegate', task: 'review the diff' });
    // What the provider's reply named (loop.ts noteAnsweringModel), not what was configured.
    patchRun(rt.store, child.id, { model: 'openai-compatible/big-model-0601' });
    const wide = await mountPane(rt, { width: 150, maxRows: 10 });
    expect(wide.lines()[lineOf(wide.lines(), 'reviewer#1 delegate')]).toMatch(/review the diff.*\$0\.00 big-model-0601/);
    expect(wide.lines()[lineOf(wide.lines(), 'main turn')]).toContain('echo');
    cleanup();
    const narrow = await mountPane(rt, { width: 100, maxRows: 10 });
    expect(narrow.lines()[lineOf(narrow.lines(), 'reviewer#1 delegate')]).not.toContain('big-model');
  });

  it('shows the runs as a tree: indent by depth, root first, status, queue position, metrics', async () => {
    const { rt } = tree();
    const pane = await mountPane(rt, { width: 120, maxRows: 20 });
    const lines = pane.lines();
    const root = lineOf(lines, 'main turn');
    const child = lineOf(lines, 'main#1 subagent');
    const r1 = lineOf(lines, 'researcher#2 delegate');
    const r2 = lineOf(lines, 'researcher#3 delegate');
    const paused = lineOf(lines, 'main#4 subagent');
    const bg = lineOf(lines, 'indexer#6 background');
    // Roots are listed live first, newest first: the background run (a root of its own,
    // created last) comes before the turn.
    expect(bg).toBeLessThan(root);
    expect(root).toBeLessThan(child);
    expect(child).toBeLessThan(r1);
    expect(r1).toBeLessThan(r2);
    expect(r2).toBeLessThan(paused);
    const col = (i: number) => lines[i].search(/[●◌‖✓]/);
    expect(col(child) - col(root)).toBe(2);
    expect(col(r1) - col(child)).toBe(2);
    expect(col(r2)).toBe(col(r1));
    // A background run is detached: a root of its own, at the roots' indent.
    expect(col(bg)).toBe(col(root));
    expect(lines[r2]).toContain('◌ queued #2');
    expect(lines[paused]).toContain('‖ paused');
    expect(lines[lineOf(lines, 'writer#5')]).toContain('✓ completed');
    expect(lines[r1]).toContain('▸ read_file');
    expect(lines[child]).toMatch(/survey the repo\s+\S+\s+3 it\s+4 tools\s+1\.2k tok\s+\$0\.0100/);
    // The number /subagents takes is the one in the label; no second, moving number leads the row.
    expect(lines[bg]).toMatch(/^\s+● running\s+indexer#6 background/);
    expect(lines[child]).toMatch(/^\s+● running\s+main#1 subagent/);
    expect(lines[root]).toMatch(/^\s+●/);
  });

  it('header: spawning state, counts, depth, tree tokens and cost', async () => {
    const { rt } = tree();
    const pane = await mountPane(rt, { width: 160 });
    const head = pane.lines()[0];
    expectAll(head, ['Agents', 'spawning on', '3 running', '1 queued', '1 paused', '1 finished', 'depth 2', '1.2k tok · ~$0.0100']);
  });

  it('shows the runaway banner with threshold, limit, measured value and how to answer', async () => {
    const { rt, root } = tree();
    rt.trip(root.id, 'max_tree_size', 4, 7);
    const pane = await mountPane(rt, { width: 100 });
    const text = pane.frame().replace(/\n/g, ' ');
    expect(text).toContain('Runaway guard tripped: max_tree_size is limited to 4, the tree measured 7 (the whole tree paused).');
    expect(text).toContain('Space on main (turn) resumes; x on it kills its children.');
  });

  it('updates live, throttled: a stream of store updates redraws ~10 times a second, not per update', async () => {
    const { rt, child } = tree();
    const pane = await mountPane(rt);
    // Time is the subject: the refresh timer runs on a fake clock, so a busy machine cannot
    // stretch the 10 ms gaps (and let more frames through) or squeeze them.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    onTestFinished(() => void vi.useRealTimers());
    const before = pane.app.frames.length;
    const started = Date.now();
    // 40 updates 10 ms apart: unthrottled that is ~40 frames; throttled, one per 100 ms.
    for (let i = 1; i <= 40; i++) {
      patchRun(rt.store, child.id, { iterations: i });
      await advanceClock(10);
    }
    await waitOnClock(() => expect(pane.frame()).toContain('40 it'), 10);
    const elapsed = Date.now() - started;
    expect(pane.app.frames.length - before).toBeLessThanOrEqual(Math.ceil(elapsed / 100) + 2);
    expect(pane.app.frames.length - before).toBeGreaterThanOrEqual(2);
  });

  it('with nothing delegated yet, says how children appear', async () => {
    const rt = new FakeRuntime();
    const pane = await mountPane(rt);
    expect(pane.frame()).toContain('No child agents yet');
    expect(pane.frame()).toContain('fan out 3: summarize each file');
    addTestRun(rt, { task: 'hello' });
    await waitFor(() => expect(pane.frame()).toContain('main turn'));
    expect(pane.frame()).toContain('No child agents yet');
  });

  it('hides finished runs archive_after_minutes after they end, and finished plain turns', async () => {
    const rt = new FakeRuntime();
    const root = addTestRun(rt, { task: 'old turn' });
    const old = addTestRun(rt, { parent: root.id, alias: 'old', status: 'completed' });
    addTestRun(rt, { parent: root.id, alias: 'fresh', status: 'completed' });
    setRunStatus(rt.store, root.id, 'completed');
    rt.store.setState((s) => ({ runs: s.runs.with(old.id, { ...s.runs.get(old.id)!, endedAt: Date.now() - 11 * 60_000 }) }));
    const plainTurn = addTestRun(rt, { task: 'just chatting' });
    setRunStatus(rt.store, plainTurn.id, 'completed');
    const pane = await mountPane(rt, { archiveAfterMinutes: 10 });
    expect(pane.frame()).toContain('fresh#2');
    expect(pane.frame()).not.toContain('old#1');
    expect(pane.frame()).toContain('old turn');
    expect(pane.frame()).not.toContain('just chatting');
  });
});

describe('/agents pane keys', () => {
  it('j/k and arrows move the selection; x kills the selected subtree and says what it killed', async () => {
    const { rt, child } = tree();
    const pane = await mountPane(rt, { width: 140 });
    expect(pane.lines()[0]).toContain('1/7');
    await pane.press('j');
    await pane.press(KEYS.DOWN);
    await pane.press('k');
    await waitFor(() => expect(pane.lines()[0]).toContain('2/7'));
    await pane.press('j');
    await pane.press('x');
    expect(rt.callsOf('kill')).toEqual([[child.id]]);
    await waitFor(() => expect(pane.frame()).toContain('killed main#1 (+2 descendants)'));
    await waitFor(() => expect(pane.lines()[lineOf(pane.lines(), 'researcher#3')]).toContain('× killed'));
  });

  it('p toggles spawn pause', async () => {
    const { rt } = tree();
    const pane = await mountPane(rt, { width: 140 });
    await pane.press('p');
    expect(rt.callsOf('setSpawnPaused')).toEqual([[true]]);
    await waitFor(() => expect(pane.lines()[0]).toContain('SPAWNING PAUSED'));
    expect(pane.frame()).toContain('Spawning paused: new spawn_subagent and delegate calls are refused');
    await pane.press('p');
    expect(rt.callsOf('setSpawnPaused')).toEqual([[true], [false]]);
    await waitFor(() => expect(pane.lines()[0]).toContain('spawning on'));
  });

  it('space pauses the selected subtree, and resumes it when paused', async () => {
    const { rt, child } = tree();
    const pane = await mountPane(rt, { width: 140 });
    await pane.press('j');
    await pane.press('j');
    await pane.press(' ');
    expect(rt.callsOf('pause')).toEqual([[child.id]]);
    await waitFor(() => expect(pane.frame()).toContain('paused main#1 (+2 descendants)'));
    await waitFor(() => expect(pane.lines()[lineOf(pane.lines(), 'main#1')]).toContain('‖ paused'));
    await pane.press(' ');
    expect(rt.callsOf('resume')).toEqual([[child.id]]);
    await waitFor(() => expect(pane.frame()).toContain('resumed main#1 (+2 descendants)'));
  });

  itInEachLanguage(
    'space on a run whose kill is still unwinding flashes that nothing was paused (%s)',
    { en: 'Nothing to pause: main (turn) is already ending.', es: 'Nada que pausar: main (turno) ya está terminando.' },
    async (word) => {
      const { rt, root } = tree();
      // A kill marks the whole subtree stopping at once; the turn's loop has not unwound yet.
      rt.holdUnwind = true;
      rt.supervisor.kill(root.id);
      const pane = await mountPane(rt, { width: 140 });
      await pane.press('j');
      await pane.press(' ');
      expect(rt.callsOf('pause')).toEqual([[root.id]]);
      await waitFor(() => expect(pane.frame()).toContain(word));
      expect(pane.frame()).not.toMatch(/paused main \(turn\)|en pausa main/);
    },
  );

  it('space on the root of a tripped tree resumes it, which answers the guard', async () => {
    const { rt, root, pane } = await trippedTreeTurnSelected();
    await pane.press(' ');
    expect(rt.callsOf('resume')).toEqual([[root.id]]);
    expect(rt.callsOf('pause')).toEqual([]);
    await waitFor(() => expect(pane.frame()).toContain('Runaway guard answered: resumed main (turn).'));
    await waitFor(() => expect(pane.frame()).not.toContain('Runaway guard tripped'));
  });

  it('x on the root of a tripped tree answers the guard with kill', async () => {
    const { rt, pane } = await trippedTreeTurnSelected();
    await pane.press('x');
    expect(rt.callsOf('resolveRunaway')).toEqual([['kill']]);
    expect(rt.callsOf('kill')).toEqual([]);
    await waitFor(() => expect(pane.frame()).toContain('Runaway guard answered: killed 4 runs under main (turn); the turn goes on.'));
  });

  it('X asks first; y kills everything, any other key cancels', async () => {
    const { rt, root, bg } = tree();
    const pane = await mountPane(rt, { width: 140 });
    await pane.press('X');
    await waitFor(() => expect(pane.frame()).toContain('Press y to confirm'));
    await pane.press('n');
    expect(rt.callsOf('kill')).toEqual([]);
    await waitFor(() => expect(pane.frame()).toContain('Kill all cancelled.'));
    await pane.press('X');
    await pane.press('y');
    expect(
      rt
        .callsOf('kill')
        .map((c) => c[0])
        .sort(),
    ).toEqual([root.id, bg.id].sort());
    await waitFor(() => expect(pane.frame()).toContain('killed 6 runs'));
    const s = rt.store.getState();
    expect(s.runs.values().filter((r) => r.endedAt === undefined)).toEqual([]);
  });

  it('f cycles the filter all → running → finished', async () => {
    const { rt } = tree();
    const pane = await mountPane(rt, { width: 140 });
    await pane.press('f');
    await waitFor(() => expect(pane.frame()).toContain('showing: running'));
    expect(pane.frame()).not.toContain('writer#5');
    expect(pane.frame()).toContain('researcher#3');
    await pane.press('f');
    await waitFor(() => expect(pane.frame()).toContain('showing: finished'));
    expect(pane.frame()).toContain('writer#5');
    expect(pane.frame()).not.toContain('researcher#3');
    // The running root stays as context so the finished child hangs under its tree.
    expect(pane.frame()).toContain('main turn');
    await pane.press('f');
    await waitFor(() => expect(pane.frame()).toContain('showing: all'));
    expect(pane.frame()).toContain('researcher#3');
  });

  it("Enter opens the selected run's live transcript; Esc goes back to the list", async () => {
    const { rt, r1 } = tree();
    say(rt, r1.id, 'user', 'read the docs');
    tool(rt, r1.id, 'read_file', { path: 'README.md' }, 'ok', '# arbor\nA terminal chat');
    say(rt, r1.id, 'assistant', 'The README explains the chat.');
    const pane = await mountPane(rt, { width: 100 });
    for (let i = 0; i < 3; i++) await pane.press('j');
    await pane.press(KEYS.ENTER);
    await waitFor(() => expect(pane.frame()).toContain('researcher#2 · running'));
    const frame = pane.frame();
    expect(frame).toContain('› read the docs');
    expect(frame).toContain('✓ read_file README.md');
    expect(frame).toContain('└ # arbor');
    expect(frame).toContain('The README explains the chat.');
    say(rt, r1.id, 'assistant', 'Live addition.');
    await waitFor(() => expect(pane.frame()).toContain('Live addition.'));
    await pane.press(KEYS.ESC);
    await waitFor(() => expect(pane.frame()).toContain('researcher#3'));
    expect(pane.closed).toBe(0);
    await pane.press('q');
    expect(pane.closed).toBe(1);
  });

  it('the transcript view scrolls: it follows the end, g goes to the top, G back to the end', async () => {
    const { rt, r1 } = tree();
    for (let i = 1; i <= 40; i++) say(rt, r1.id, 'assistant', `message ${i}`);
    const pane = await mountPane(rt, { width: 100, maxRows: 12 });
    for (let i = 0; i < 3; i++) await pane.press('j');
    await pane.press(KEYS.ENTER);
    await waitFor(() => expect(pane.frame()).toContain('message 40'));
    expect(pane.frame()).not.toContain('message 1\n');
    expect(pane.lines().length).toBeLessThanOrEqual(12);
    await pane.press('g');
    await waitFor(() => expect(pane.frame()).toContain('message 1\n'));
    expect(pane.frame()).not.toContain('message 40');
    // Scrolled up, the view holds still while new lines arrive.
    say(rt, r1.id, 'assistant', 'message 41');
    await pane.press('j');
    await waitFor(() => expect(pane.frame()).toContain('message 2\n'));
    expect(pane.frame()).not.toContain('message 41');
    await pane.press('G');
    await waitFor(() => expect(pane.frame()).toContain('message 41'));
  });

  it('s opens a one-line steer prompt; Enter sends and flashes the outcome', async () => {
    const { rt, child } = tree();
    const pane = await mountPane(rt, { width: 120 });
    await pane.press('j');
    await pane.press('j');
    await openPrompt(pane);
    // Keys typed into the prompt are text, not pane commands; a Ctrl chord types nothing.
    await pane.press('\u000b');
    await pane.press('focus on x');
    await waitFor(() => expect(pane.frame()).toContain('focus on x'));
    await pane.press(KEYS.ENTER);
    expect(rt.callsOf('steer')).toEqual([[child.id, 'focus on x']]);
    expect(rt.callsOf('kill')).toEqual([]);
    await waitFor(() => expect(pane.frame()).toContain('Steering for main#1 delivered'));
    rt.steerOutcome = 'continued';
    await openPrompt(pane);
    await pane.press('again');
    await waitFor(() => expect(pane.frame()).toContain('again'));
    await pane.press(KEYS.ENTER);
    await waitFor(() => expect(pane.frame()).toContain('main#1 had finished: the message started a new turn'));
    await openPrompt(pane);
    await pane.press(KEYS.ESC);
    await waitFor(() => expect(pane.frame()).toContain('x kill'));
    expect(rt.callsOf('steer')).toHaveLength(2);
    expect(pane.closed).toBe(0);
  });

  it('Esc closes the pane', async () => {
    const { rt } = tree();
    const pane = await mountPane(rt);
    await pane.press(KEYS.ESC);
    expect(pane.closed).toBe(1);
  });
});

describe('/agents pane virtualization', () => {
  it('with 500 rows renders only what fits, stays within maxRows and keeps the selection visible', async () => {
    const rt = new FakeRuntime();
    const root = addTestRun(rt, { task: 'fan out' });
    for (let i = 1; i <= 500; i++) addTestRun(rt, { parent: root.id, alias: 'w', task: `job ${i}` });
    const started = performance.now();
    const pane = await mountPane(rt, { width: 100, maxRows: 15 });
    const lines = pane.lines();
    expect(lines.length).toBeLessThanOrEqual(15);
    expect(lines.filter((l) => /w#\d+ subagent/.test(l)).length).toBeLessThanOrEqual(12);
    expect(lines.filter((l) => /w#\d+ subagent/.test(l)).length).toBeGreaterThanOrEqual(8);
    expect(pane.frame()).toContain('1/501');
    await pane.press('G');
    await waitFor(() => expect(pane.frame()).toContain('501/501'));
    // The last row is the oldest child (creation order under the parent).
    expect(pane.frame()).toContain('w#500 subagent');
    expect(pane.lines().length).toBeLessThanOrEqual(15);
    await pane.press('k');
    await waitFor(() => expect(pane.frame()).toContain('500/501'));
    expect(pane.frame()).toContain('w#499');
    expect(performance.now() - started).toBeLessThan(3000);
  });

  it('a narrow terminal keeps one row per run and drops metrics before the task', async () => {
    const { rt } = tree();
    const pane = await mountPane(rt, { width: 50, maxRows: 12 });
    const lines = pane.lines();
    expect(lines.length).toBeLessThanOrEqual(12);
    for (const l of lines) expect(l.length).toBeLessThanOrEqual(50);
    expect(pane.frame()).toContain('researcher#3');
  });
});
