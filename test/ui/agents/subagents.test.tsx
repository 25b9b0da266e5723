import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { setLanguage } from '../../../src/i18n/index.js';
import { addUsage, patchRun, setRunStatus, toolFinished, toolStarted } from '../../../src/runtime/store.js';
import { CommandRegistry, runSlashLine, type CommandContext } from '../../../src/ui/commands/registry.js';
import { agentsCommands } from '../../../src/ui/agents/register.js';
import type { NoticeLevel } from '../../../src/ui/theme.js';
import { addTestRun, FakeRuntime, say, tool } from './fixtures.js';

beforeEach(() => setLanguage('en'));
afterEach(() => setLanguage('en'));

function harness(rt = new FakeRuntime(), archiveAfterMinutes = 60) {
  const registry = new CommandRegistry(agentsCommands({ archiveAfterMinutes }));
  const printed: Array<{ text: string; level: NoticeLevel }> = [];
  const panes: string[] = [];
  const ctx: CommandContext = {
    runtime: rt,
    print: (text, level = 'info') => printed.push({ text, level }),
    sessions: { list: () => [], currentId: 'x' },
    exit() {},
    setLanguage() {},
    clearScreen() {},
    openPane: (p) => panes.push(p.id),
    closePane() {},
    isTurnRunning: () => false,
    commands: registry.list(),
    keyBindings: [],
  };
  return {
    rt,
    panes,
    async run(line: string) {
      printed.length = 0;
      await runSlashLine(line, registry, ctx);
      return printed.slice();
    },
    async out(line: string) {
      const p = await this.run(line);
      expect(p).toHaveLength(1);
      return p[0].text;
    },
  };
}

/** researcher#1 (oldest, completed), researcher#2 running with a child worker#3, writer#4 queued #1. */
function session() {
  const rt = new FakeRuntime();
  const root = addTestRun(rt, { task: 'plan' });
  const r1 = addTestRun(rt, { parent: root.id, alias: 'researcher', kind: 'delegate', task: 'read the docs' });
  setRunStatus(rt.store, r1.id, 'completed', { result: 'Docs read.\nSecond line.' });
  const r2 = addTestRun(rt, { parent: root.id, alias: 'researcher', kind: 'delegate', task: 'read the tests' });
  const w = addTestRun(rt, { parent: r2.id, alias: 'worker', task: 'count files' });
  const q = addTestRun(rt, {
    parent: root.id,
    alias: 'writer',
    kind: 'delegate',
    status: 'queued',
    task: 'write the notes',
    patch: { queuePosition: 1 },
  });
  return { rt, root, r1, r2, w, q };
}

describe('/subagents list', () => {
  it('bare /subagents lists active first (newest first), then finished, each on short lines', async () => {
    const { rt, r2 } = session();
    addUsage(rt.store, r2.id, 1000, 234, 0.02);
    rt.store.setState((s) => ({ runs: s.runs.with(r2.id, { ...s.runs.get(r2.id)!, startedAt: Date.now() - 312_000 }) }));
    const h = harness(rt);
    const text = await h.out('/subagents');
    expect(await h.out('/subagents list')).toBe(text);
    const lines = text.split('\n');
    expect(lines[0]).toContain('Subagents (4)');
    // Listed active first, newest first; each named by its session number, which it keeps.
    expect(lines[1]).toBe('Name a run by label or number: writer#4 or 4; last is the newest.');
    const heads = lines.filter((l) => /^\S+#\d+ · /.test(l));
    expect(heads).toEqual(['writer#4 · queued #1', 'worker#3 · running', 'researcher#2 · running', 'researcher#1 · completed']);
    const r2Detail = lines[lines.indexOf('researcher#2 · running') + 1];
    expect(r2Detail).toMatch(/^ {3}offline\/echo · 5m1[12]s · 1\.2k tokens$/);
    for (const l of lines) expect(l.length).toBeLessThanOrEqual(72);
  });

  it('says so when there are none', async () => {
    expect(await harness().out('/subagents list')).toBe('No subagents right now. Finished ones stay listed for 60 minutes after they end.');
  });
});

describe('/subagents id resolution', () => {
  it('resolves a number, `last`, an id prefix and a label; unknown and ambiguous refs get clear errors', async () => {
    const { rt, r1, r2, w, q } = session();
    const h = harness(rt);
    // A number is the run's own (the 4 of writer#4), not a row position.
    expect(await h.out('/subagents info 4')).toContain(`id: ${q.id}`);
    expect(await h.out('/subagents info #2')).toContain(`id: ${r2.id}`);
    expect(await h.out('/subagents info 1')).toContain(`id: ${r1.id}`);
    expect(await h.out('/subagents info #3')).toContain(`id: ${w.id}`);
    expect(await h.out('/subagents info last')).toContain(`id: ${q.id}`);
    expect(await h.out(`/subagents info ${r1.id.slice(0, 6)}`)).toContain(`id: ${r1.id}`);
    expect(await h.out('/subagents info researcher#1')).toContain(`id: ${r1.id}`);
    expect(await h.out('/subagents info writ')).toContain(`id: ${q.id}`);

    const unknown = await h.run('/subagents info 9');
    expect(unknown).toEqual([{ text: 'No subagent matches "9". /subagents list shows the numbers and labels.', level: 'error' }]);
    const ambiguous = await h.run('/subagents kill researcher');
    expect(ambiguous[0].level).toBe('error');
    expect(ambiguous[0].text).toBe('"researcher" matches more than one subagent: researcher#2, researcher#1. Type more of it.');
    expect(rt.callsOf('kill')).toEqual([]);
    const missing = await h.run('/subagents info');
    expect(missing[0].text).toContain('/subagents info needs a run');

    setLanguage('es');
    expect((await h.run('/subagents info zzz'))[0].text).toBe(
      'Ningún subagente coincide con "zzz". /subagents list muestra los números y las etiquetas.',
    );
  });
});

describe('/subagents kill', () => {
  it('kills one subtree and says how many descendants went with it', async () => {
    const { rt, r2, w } = session();
    const h = harness(rt);
    expect(await h.out('/subagents kill researcher#2')).toBe('killed researcher#2 (+1 descendants)');
    expect(rt.callsOf('kill')).toEqual([[r2.id]]);
    expect(rt.store.getState().runs.get(w.id)!.status).toBe('killed');
    expect(await h.out('/subagents kill researcher#1')).toBe('researcher#1 has already finished (completed).');
  });

  it('kill all kills every live child of the session (not the turn) and says how many', async () => {
    const { rt, root } = session();
    const h = harness(rt);
    expect(await h.out('/subagents kill all')).toBe('Killed 3 live subagents (descendants included).');
    const s = rt.store.getState();
    expect(s.runs.values().filter((r) => r.kind !== 'root' && r.endedAt === undefined)).toEqual([]);
    expect(s.runs.get(root.id)!.status).toBe('running');
    expect(await h.out('/subagents kill all')).toBe('No live subagents to kill.');
    expect((await h.run('/subagents kill'))[0]).toEqual({ text: 'Usage: /subagents kill <id|#|all>', level: 'error' });
  });

  it('kill all answers a tripped runaway guard first, so the paused root does not stay paused', async () => {
    const { rt, root } = session();
    rt.pause(root.id);
    rt.trip(root.id);
    const h = harness(rt);
    await h.run('/subagents kill all');
    expect(rt.callsOf('resolveRunaway')).toEqual([['kill']]);
    expect(rt.store.getState().controls.runaway.tripped).toBe(false);
    expect(rt.store.getState().runs.get(root.id)!.status).toBe('running');
  });
});

describe('/subagents log', () => {
  function withTranscript() {
    const ctx = session();
    say(ctx.rt, ctx.r2.id, 'user', 'read the tests');
    for (let i = 1; i <= 30; i++) say(ctx.rt, ctx.r2.id, 'assistant', `step ${i}`);
    tool(ctx.rt, ctx.r2.id, 'shell', { command: 'ls test' }, 'ok', 'unit\nui');
    tool(ctx.rt, ctx.r2.id, 'read_file', { path: 'x.ts' }, 'error', 'ENOENT: x.ts');
    return ctx;
  }

  it('shows the last 20 messages by default, a given limit, and tool results only with `tools`', async () => {
    const { rt } = withTranscript();
    const h = harness(rt);
    const def = (await h.out('/subagents log researcher#2')).split('\n');
    expect(def[0]).toBe('researcher#2: last 20 of 33 messages');
    expect(def).toContain('[assistant] step 13');
    expect(def).not.toContain('[assistant] step 12');
    expect(def).toContain('[tool shell · ok] ls test');
    const three = (await h.out('/subagents log 2 3')).split('\n');
    expect(three[0]).toBe('researcher#2: last 3 of 33 messages');
    expect(three[1]).toBe('[assistant] step 30');
    const tools = await h.out('/subagents log researcher#2 tools');
    expect(tools.split('\n')[0]).toBe('researcher#2: last 2 of 2 tool results');
    expect(tools).toContain('[tool read_file · error] x.ts\n  ENOENT: x.ts');
    expect(tools).not.toContain('step');
    expect((await h.out('/subagents log researcher#2 tools 1')).split('\n')).toHaveLength(3);
  });

  it('rejects bad limits and stray words', async () => {
    const { rt } = withTranscript();
    const h = harness(rt);
    for (const bad of ['0', '201', '-3']) {
      expect(await h.run(`/subagents log researcher#2 ${bad}`)).toEqual([
        { text: `Bad limit "${bad}": use a whole number from 1 to 200.`, level: 'error' },
      ]);
    }
    expect((await h.run('/subagents log researcher#2 lots'))[0].text).toContain('Unexpected "lots"');
    expect(await h.out('/subagents log researcher#2 200')).toContain('last 33 of 33');
    expect(await h.out('/subagents log writer#4')).toBe('writer#4 has no messages yet.');
  });
});

describe('/subagents info', () => {
  it('shows every lifecycle field with ISO times', async () => {
    const { rt, r1, root } = session();
    toolStarted(rt.store, r1.id, 'x');
    const h = harness(rt);
    const text = await h.out('/subagents info researcher#1');
    const r = rt.store.getState().runs.get(r1.id)!;
    for (const line of [
      `id: ${r1.id}`,
      'label: researcher#1',
      'kind: delegate',
      'agent: researcher',
      'status: completed',
      'task: read the docs',
      `parent: main (turn) (${root.id})`,
      `root: main (turn) (${root.id})`,
      'depth: 1',
      `session key: delegate-${r1.id}`,
      'model: offline/echo',
      `created: ${new Date(r.createdAt).toISOString()}`,
      `started: ${new Date(r.startedAt!).toISOString()}`,
      `ended: ${new Date(r.endedAt!).toISOString()}`,
      'result: Docs read.',
      'error: —',
      'queue position: —',
      'task id: —',
    ]) {
      expect(text.split('\n')).toContain(line);
    }
    for (const label of [
      'runtime: ',
      'paused for: ',
      'iterations: 0',
      'tools completed: 0',
      'last tool: ',
      'recent tools: —',
      'tokens: 0 in / 0 out',
      'cost: $0.00',
    ]) {
      expect(text).toContain(label);
    }
  });

  it('shows the tool running now, recent tools and the queue position', async () => {
    const { rt, r2, q } = session();
    const started = Date.now();
    toolStarted(rt.store, r2.id, 'shell', started - 10);
    toolFinished(rt.store, r2.id, 'shell', started - 10, true);
    toolStarted(rt.store, r2.id, 'read_file', started);
    patchRun(rt.store, r2.id, { iterations: 2 });
    const h = harness(rt);
    const text = await h.out('/subagents info researcher#2');
    expect(text).toContain('last tool: read_file (running)');
    expect(text).toContain('recent tools: shell ✓');
    expect(text).toContain('iterations: 2');
    expect(await h.out(`/subagents info ${q.id.slice(0, 8)}`)).toContain('queue position: 1');
  });
});

describe('/subagents send, pause, resume', () => {
  it('send steers the run and reports delivered or continued', async () => {
    const { rt, r2, r1 } = session();
    const h = harness(rt);
    expect(await h.out('/subagents send researcher#2 look at the ui tests too')).toBe(
      'Steering for researcher#2 delivered: it reads it at its next step.',
    );
    expect(rt.callsOf('steer')).toEqual([[r2.id, 'look at the ui tests too']]);
    rt.steerOutcome = 'continued';
    expect(await h.out('/subagents send researcher#1 and the docs')).toContain('researcher#1 had finished: the message started a new turn');
    expect(rt.callsOf('steer')[1]).toEqual([r1.id, 'and the docs']);
    rt.steerOutcome = 'unknown';
    expect((await h.run('/subagents send researcher#1 hello'))[0].level).toBe('error');
    expect(await h.run('/subagents send researcher#2')).toEqual([{ text: 'Usage: /subagents send <id|#> <message>', level: 'error' }]);
  });

  it('pause and resume with no id act on spawning; with an id on that subtree', async () => {
    const { rt, r2 } = session();
    const h = harness(rt);
    expect(await h.out('/subagents pause')).toContain('Spawning paused');
    expect(rt.callsOf('setSpawnPaused')).toEqual([[true]]);
    expect(await h.out('/subagents list')).toContain('Spawning is paused');
    expect(await h.out('/subagents resume')).toBe('Spawning resumed.');
    expect(rt.callsOf('setSpawnPaused')).toEqual([[true], [false]]);
    expect(rt.callsOf('resolveRunaway')).toEqual([]);
    expect(await h.out('/subagents pause researcher#2')).toBe('paused researcher#2 (+1 descendant)');
    expect(rt.callsOf('pause')).toEqual([[r2.id]]);
    expect(await h.out('/subagents resume 2')).toBe('resumed researcher#2 (+1 descendant)');
    expect(rt.callsOf('resume')).toEqual([[r2.id]]);
    expect(await h.out('/subagents pause researcher#1')).toBe('researcher#1 has already finished (completed).');
  });

  it('resume with no id also answers a tripped runaway guard', async () => {
    const { rt, root } = session();
    rt.trip(root.id);
    const h = harness(rt);
    expect(await h.out('/subagents list')).toContain(
      'Runaway guard tripped: max_tree_size is limited to 4, measured 5. Answer with /subagents resume, or /subagents kill all.',
    );
    const out = await h.run('/subagents resume');
    expect(rt.callsOf('resolveRunaway')).toEqual([['resume']]);
    expect(out.map((p) => p.text)).toEqual(['Spawning resumed.', 'Runaway guard answered: the paused tree resumes.']);
  });

  it('an unknown subcommand names the valid ones; /agents opens the pane', async () => {
    const h = harness();
    expect(await h.run('/subagents frobnicate')).toEqual([
      { text: 'Unknown /subagents command "frobnicate". Use one of: list, kill, log, info, send, pause, resume, export.', level: 'error' },
    ]);
    await h.run('/agents');
    expect(h.panes).toEqual(['agents']);
  });
});
