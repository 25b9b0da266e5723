// The /agents pane, /subagents and the runaway guard as a person meets them: arbor in a real
// pty against a scripted loopback model, asserting only what is on the screen.
import { afterEach, describe, expect } from 'vitest';
import type { LoopbackIncoming, LoopbackReply } from '../support/loopbackModel.js';
import { disposeAllTerminals, type Term } from '../support/terminal.js';
import { PTY_TEST_TIMEOUT, send, ptyTest } from './sandbox.js';
import { firstUser, lastUser, messagesOf, textOf } from '../support/wireBody.js';
import { until } from '../support/until.js';

afterEach(async () => {
  await disposeAllTerminals();
});

// Model-facing protocol text (src/runtime/spawnGate.ts SPAWN_PAUSED_REFUSAL), copied on
// purpose: the test checks the literal a user and a model see, not whatever the constant holds.
const SPAWN_PAUSED = 'Delegation spawning is paused. Clear the pause with p in /agents or /subagents resume before retrying.';
const PARALLEL = '\n[runtime_profiles.default]\nparallel_tools = true\n';
const WIDE = { cols: 160, rows: 40 };

const lastMessage = (body: any): any => (body.messages ?? []).at(-1);
const toolResults = (body: any): string[] => (body.messages ?? []).filter((m: any) => m.role === 'tool').map((m: any) => textOf(m.content));
/** The tool results at the end of the conversation: the answers to the latest tool calls. */
function trailingResults(body: any): string[] {
  const msgs: any[] = body.messages ?? [];
  const out: string[] = [];
  for (let i = msgs.length - 1; i >= 0 && msgs[i].role === 'tool'; i--) out.unshift(textOf(msgs[i].content));
  return out;
}

const spawnCalls = (prompts: string[]): LoopbackReply => ({
  kind: 'tools',
  calls: prompts.map((p, i) => ({ id: `s${i}_${p.replace(/\W+/g, '_')}`, name: 'spawn_subagent', args: { prompt: p } })),
});
const jobs = (n: number) => Array.from({ length: n }, (_, i) => `job ${i + 1}`);
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** The pane row that shows `label`, e.g. "main#2 subagent". */
function rowOf(screen: string, label: string): string | undefined {
  return screen.split('\n').find((l) => l.includes(`${label} subagent`));
}

/** Waits until the pane row of `label` reads `status`. */
async function waitForRow(term: Term, label: string, status: RegExp, timeoutMs = 10000): Promise<void> {
  await term.waitFor((s) => status.test(rowOf(s, label) ?? ''), `the ${label} row to match ${status}`, timeoutMs);
}

async function waitForHeader(term: Term, text: RegExp, timeoutMs = 10000): Promise<void> {
  await term.waitFor(
    (s) => s.split('\n').some((l) => l.startsWith('Agents ·') && text.test(l)),
    `the pane header to match ${text}`,
    timeoutMs,
  );
}

describe('runaway guard in the terminal', () => {
  ptyTest(
    'a runaway tree trips max_tree_size and pauses; the pane shows it; space on the root resumes and the turn ends',
    PTY_TEST_TIMEOUT * 2,
    async (sb) => {
      const m = await sb.withModel(({ body }) => {
        const first = firstUser(body);
        if (first.startsWith('job ')) return { kind: 'text', chunks: [`finished ${first}`], delayMs: 1000 };
        if (toolResults(body).length) return { kind: 'text', chunks: [`root collected: ${toolResults(body).join(' | ')}`] };
        return spawnCalls(jobs(5));
      }, `${PARALLEL}[delegation.runaway]\nmax_tree_size = 4\non_trip = "pause_tree"\n`);
      const term = await sb.startArbor([], WIDE);
      await send(term, 'fan out five');

      // The chat banner names the threshold and its limit.
      await term.waitForText(/Runaway guard: max_tree_size is 4, the tree measured \d+\. Action taken: the whole tree paused\./, 20000);

      term.press('ctrl-t');
      await waitForHeader(term, /[1-9] paused/);
      await term.waitForText(
        /⚠ Runaway guard tripped: max_tree_size is limited to 4, the tree measured \d+ \(the whole tree paused\)/,
        5000,
        { where: 'screen' },
      );
      // Every child that exists is paused, and nothing has finished.
      await term.waitFor((s) => rowOf(s, 'main#1') !== undefined && /main turn/.test(s), 'the tree rows');
      // A row reads "‖ paused" (not "pausing…") only once its run holds at its gate, with no
      // model call in flight. Paused children do not move: none has asked the model, and
      // every request the model got (the root's) has been answered, so nothing is still landing.
      await Promise.all(m.requests.map((r) => r.ended));
      expect(m.requests.filter((r) => firstUser(r.body).startsWith('job '))).toEqual([]);
      await term.flush();
      const paused = term.screen();
      const childRows = paused.split('\n').filter((l) => / main#\d subagent/.test(l));
      expect(childRows.length).toBeGreaterThanOrEqual(4);
      for (const row of childRows) expect(row).toMatch(/‖ paused/);
      expect(paused).toMatch(/‖ paused\s+main turn/);
      expect(paused).toMatch(/· 0 finished ·/);
      expect(paused).not.toContain('root collected');

      // The selection starts on the root turn: space answers the guard with "resume".
      expect(paused).toMatch(/· 1\/\d+$/m);
      term.press('space');
      await term.waitForText('Runaway guard answered: resumed main (turn).', 5000, { where: 'screen' });
      await waitForHeader(term, /0 running · 0 queued · 0 paused · 5 finished/, 20000);
      await term.waitForNoText('⚠ Runaway guard tripped', 5000);
      for (const n of [1, 2, 3, 4, 5]) await waitForRow(term, `main#${n}`, /✓ completed/);

      term.press('esc');
      await term.waitForText('root collected: finished job 1 | finished job 2 | finished job 3 | finished job 4 | finished job 5', 20000);
      await term.waitForText('Runaway guard: resumed by the user.');
    },
  );
});

describe('the /agents pane', () => {
  ptyTest('space pauses and resumes one child subtree, x kills it, the others go on', PTY_TEST_TIMEOUT * 2, async (sb) => {
    // Children list files in a loop until released; each step is a model request, so a
    // paused child is seen to stop asking.
    let release = false;
    const stepsOf = new Map<string, number>();
    await sb.withModel(async ({ body }) => {
      const first = firstUser(body);
      if (first.startsWith('job ')) {
        await sleep(150);
        stepsOf.set(first, (stepsOf.get(first) ?? 0) + 1);
        if (release) return { kind: 'text', chunks: [`finished ${first}`], delayMs: 100 };
        // A new path each step: identical repeated calls would be skipped as duplicates.
        const n = messagesOf(body).length;
        return { kind: 'tools', calls: [{ id: `l${n}`, name: 'list_files', args: { path: `.${'/.'.repeat(n)}` } }] };
      }
      if (toolResults(body).length) return { kind: 'text', chunks: [`root collected: ${trailingResults(body).join(' | ')}`] };
      return spawnCalls(jobs(3));
    }, `${PARALLEL}max_tool_iterations = 1000\n`);
    const term = await sb.startArbor([], WIDE);
    await send(term, 'three workers');
    await term.waitForText(/spawn_subagent · job 3/, 15000);

    await send(term, '/agents');
    await waitForHeader(term, /3 running/);
    for (const n of [1, 2, 3]) await waitForRow(term, `main#${n}`, /● running/);

    // Root is row 1; main#2 is row 3. (Keys typed the moment the pane appears reach it: the
    // test below checks that on its own.)
    term.type('j');
    await waitForHeader(term, /· 2\/4$/);
    term.press('down');
    await waitForHeader(term, /· 3\/4$/);
    term.press('space');
    // Mid step the flash says pausing… (as the row does); the row then holds at paused.
    await term.waitForText(/(paused|pausing) main#2/, 5000, { where: 'screen' });
    await waitForRow(term, 'main#2', /‖ paused/);
    // "‖ paused" means the step that was in flight has landed and the run holds at its gate.
    // Barrier: each of the others asks the model twice more (two whole steps); a child whose
    // pause did not hold would have asked in that time too.
    const frozenAt = stepsOf.get('job 2');
    const othersAt = (stepsOf.get('job 1') ?? 0) + (stepsOf.get('job 3') ?? 0);
    const [oneAt, threeAt] = [stepsOf.get('job 1') ?? 0, stepsOf.get('job 3') ?? 0];
    await until(
      () => (stepsOf.get('job 1') ?? 0) >= oneAt + 2 && (stepsOf.get('job 3') ?? 0) >= threeAt + 2,
      15000,
      'main#1 and main#3 to take two more steps each',
    );
    expect(stepsOf.get('job 2')).toBe(frozenAt);
    expect((stepsOf.get('job 1') ?? 0) + (stepsOf.get('job 3') ?? 0)).toBeGreaterThan(othersAt);
    // One whole frame holds all three rows: under CI load a redraw can arrive in pieces, and
    // a screen read between them once missed the main#2 row (same checks, on one frame).
    await term.waitFor(
      (screen) =>
        /‖ paused/.test(rowOf(screen, 'main#2') ?? '') &&
        /● running/.test(rowOf(screen, 'main#1') ?? '') &&
        /● running/.test(rowOf(screen, 'main#3') ?? ''),
      'main#2 paused beside main#1 and main#3 running',
      5000,
    );

    term.press('space');
    await term.waitForText('resumed main#2', 5000, { where: 'screen' });
    await waitForRow(term, 'main#2', /● running/);
    await term.waitFor(() => (stepsOf.get('job 2') ?? 0) > (frozenAt ?? 0), 'main#2 to ask the model again after resume');

    term.type('x');
    // The flash is read off a frame that shows it whole: it lasts 3 s, and a test process
    // lagging behind the pty under CI load once read the screen after it was gone.
    // The wording: `killed <label> (+N descendants)`, N = 0 included.
    await term.waitFor(
      (screen) => screen.split('\n').includes('killed main#2 (+0 descendants)'),
      'the flash line `killed main#2 (+0 descendants)`',
      5000,
    );
    await waitForRow(term, 'main#2', /× killed/);
    await waitForHeader(term, /2 running/);
    expect(rowOf(term.screen(), 'main#1')).toMatch(/● running/);
    expect(rowOf(term.screen(), 'main#3')).toMatch(/● running/);

    // The others go on: released, they finish, and the root reads the kill as a failed result.
    release = true;
    await waitForRow(term, 'main#1', /✓ completed/, 15000);
    await waitForRow(term, 'main#3', /✓ completed/, 15000);
    await waitForHeader(term, /0 running · 0 queued · 0 paused · 3 finished/, 15000);
    expect(rowOf(term.screen(), 'main#2')).toMatch(/× killed/);
    term.type('q');
    await term.waitForText(/root collected: finished job 1 \| subagent run failed: [^|]*kill[^|]* \| finished job 3/, 15000);
  });

  ptyTest('keys typed right after /agents reach the pane, not the hidden input line', PTY_TEST_TIMEOUT, async (sb) => {
    // Six children busy listing files, as in a real session: the screen keeps changing.
    await sb.withModel(async ({ body }) => {
      if (firstUser(body).startsWith('job ')) {
        await sleep(100);
        const n = messagesOf(body).length;
        return { kind: 'tools', calls: [{ id: `l${n}`, name: 'list_files', args: { path: `.${'/.'.repeat(n)}` } }] };
      }
      return spawnCalls(jobs(6));
    }, `${PARALLEL}max_tool_iterations = 1000\n[delegation]\nmax_children_per_agent = 6\n`);
    const term = await sb.startArbor([], WIDE);
    await send(term, 'six busy jobs');
    await term.waitForText(/spawn_subagent · job 6/, 15000);

    // A quick typist: Enter, then j six times, 40 ms apart, starting the moment the pane's
    // first frame is drawn (before its own listener would have subscribed); 7 rows.
    // (Waiting for that frame keeps Enter and the first j from reaching the terminal as one
    // chunk on a loaded machine, which reads as a paste, not as keys.)
    await send(term, '/agents');
    await term.waitFor((s) => /^Agents ·/m.test(s), 'the pane to appear', 10000);
    for (let i = 0; i < 6; i++) {
      await sleep(40);
      term.type('j');
    }
    const reached = await waitForHeader(term, /· 7\/7$/, 5000).then(
      () => 'the last row',
      async () => {
        await term.flush();
        return (
          term
            .screen()
            .split('\n')
            .find((l) => l.startsWith('Agents ·')) ?? 'no pane'
        );
      },
    );
    // Where lost keys go: into the input line under the pane, typed into the next message.
    term.press('esc');
    await term.waitForNoText(/^Agents ·/m, 5000);
    // The input line comes back with whatever reached it while the pane was open.
    const inputLineOf = (s: string) =>
      s
        .split('\n')
        .filter((l) => l.startsWith('› '))
        .at(-1);
    await term.waitFor((s) => inputLineOf(s) !== undefined, 'the input line again', 5000);
    const inputLine = inputLineOf(term.screen());
    expect({ reached, inputLine }).toEqual({ reached: 'the last row', inputLine: '› Type a message, / for commands' });
  });

  ptyTest('p pauses spawning: a new spawn gets the literal refusal; /subagents resume clears it', PTY_TEST_TIMEOUT * 2, async (sb) => {
    await sb.withModel(({ body }) => {
      const first = firstUser(body);
      if (first === 'helper task') return { kind: 'text', chunks: ['helper answered'] };
      const last = lastMessage(body);
      if (last?.role === 'tool') return { kind: 'text', chunks: [`tool said: ${textOf(last.content)}`] };
      if (lastUser(body).startsWith('spawn')) return spawnCalls(['helper task']);
      return { kind: 'text', chunks: ['plain answer'] };
    });
    const term = await sb.startArbor([], WIDE);

    await send(term, '/agents');
    await waitForHeader(term, /spawning on/);
    await term.waitForText('No child agents yet.', 5000, { where: 'screen' });
    term.type('p');
    await waitForHeader(term, /SPAWNING PAUSED/);
    await term.waitForText('Spawning paused: new spawn_subagent and delegate calls are refused; running children go on.', 5000, {
      where: 'screen',
    });
    term.press('esc');
    await term.waitForNoText(/^Agents ·/m);

    await send(term, 'spawn a helper');
    await term.waitForText(`tool said: ${SPAWN_PAUSED}`, 20000);

    await send(term, '/subagents list');
    await term.waitForText('Spawning is paused (/subagents resume clears it).');
    await send(term, '/subagents resume');
    await term.waitForText('Spawning resumed.');

    await send(term, 'spawn again');
    await term.waitForText('tool said: helper answered', 20000);
    await send(term, '/agents');
    await waitForHeader(term, /spawning on.*1 finished/);
    await waitForRow(term, 'main#1', /✓ completed/);
  });
});

describe('/subagents', () => {
  ptyTest('list, info, log and kill all over hanging children; the list then says killed', PTY_TEST_TIMEOUT * 2, async (sb) => {
    await sb.withModel(({ body }: LoopbackIncoming): LoopbackReply => {
      const first = firstUser(body);
      if (first.startsWith('job ')) return { kind: 'hang' };
      if (toolResults(body).length) return { kind: 'text', chunks: [`root collected: ${toolResults(body).join(' | ')}`] };
      return spawnCalls(jobs(3));
    }, PARALLEL);
    const term = await sb.startArbor([], WIDE);
    await send(term, 'three hanging jobs');
    await term.waitForText(/spawn_subagent · job 3/, 15000);

    await send(term, '/subagents list');
    await term.waitForText('Subagents (3): active first, then finished in the last 60 min');
    // Newest first; each child named by its number in the session (main#3 is the third spawned).
    await term.waitForText(/main#3 · running\n\s+openai-compatible\/fake-model · \S+ · \d+ tokens\n\s+job 3/);
    await term.waitForText(/main#2 · running/);
    await term.waitForText(/main#1 · running/);

    await send(term, '/subagents info 3');
    await term.waitForText(/^[ ·]*id: [0-9a-f-]{8,}$/m);
    await term.waitForText(/^[ ·]*label: main#3$/m);
    await term.waitForText(/^[ ·]*kind: subagent$/m);
    await term.waitForText(/^[ ·]*status: running$/m);
    await term.waitForText(/^[ ·]*task: job 3$/m);
    await term.waitForText(/^[ ·]*parent: main \(turn\) \([0-9a-f-]+\)$/m);
    await term.waitForText(/^[ ·]*depth: 1$/m);
    await term.waitForText(/^[ ·]*created: \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/m);
    await term.waitForText(/^[ ·]*started: \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/m);
    await term.waitForText(/^[ ·]*ended: —$/m);

    await send(term, '/subagents log 3');
    await term.waitForText('main#3: last 1 of 1 messages');
    await term.waitForText(/^[ ·]*\[user\] job 3$/m);

    await send(term, '/subagents kill all');
    await term.waitForText('Killed 3 live subagents (descendants included).');
    // The root turn goes on: it reads three failed results and answers.
    await term.waitForText(/root collected: (subagent run failed: [^|]*kill[^|]*( \| )?){3}/, 20000);

    await send(term, '/subagents list');
    await term.waitFor((_, all) => {
      const tail = all.slice(all.lastIndexOf('Subagents (3)'));
      return all.lastIndexOf('Subagents (3)') > all.indexOf('Killed 3 live') && [1, 2, 3].every((n) => tail.includes(`main#${n} · killed`));
    }, 'a fresh list showing every child killed');
  });
});
