// End to end: the built bin/arbor.js in a pty against the loopback model. A turn spawns two
// children; their cards update live while they run and settle when they end; Ctrl+O opens
// the transcript viewer, which moves to an earlier card, expands it, opens its child
// transcript, copies it and returns; after --resume the same cards render from disk.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, type TestContext } from 'vitest';
import {
  hasToolResults,
  lastUserText,
  startLoopbackModel,
  type LoopbackIncoming,
  type LoopbackModel,
  type LoopbackReply,
} from '../support/loopbackModel.js';
import { fakeProviderConfig, tempArborHome, writeConfig, type ArborHome } from '../support/tempHome.js';
import { startTerminal, type Term } from '../support/terminal.js';

const READY = 'Type a message';
const START_TIMEOUT = 15000;
const TEST_TIMEOUT = 90000;

const TASK_A = 'Count the files in src';
const TASK_B = 'Summarize the README';
const ANSWER_A = 'There are 3 files in src.';
const ANSWER_B = 'The README explains the setup.';
/** Each child answers only once `answersMayCome` resolves (after its tool call returned), so
 * the test sees the cards live for as long as it needs. */
async function script(req: LoopbackIncoming, answersMayCome: Promise<void>): Promise<LoopbackReply> {
  const user = lastUserText(req.body);
  if (user === TASK_A || user === TASK_B) {
    if (!hasToolResults(req.body))
      return { kind: 'tools', calls: [{ name: 'list_files', args: { path: '.' } }], usage: { input: 40, output: 8 } };
    await answersMayCome;
    return { kind: 'text', chunks: [user === TASK_A ? ANSWER_A : ANSWER_B], usage: { input: 60, output: 12 } };
  }
  if (!hasToolResults(req.body)) {
    return {
      kind: 'tools',
      calls: [
        { name: 'spawn_subagent', args: { prompt: TASK_A } },
        { name: 'spawn_subagent', args: { prompt: TASK_B } },
      ],
    };
  }
  return { kind: 'text', chunks: ['Both children ', 'are done.'], delayMs: 20 };
}

interface World {
  h: ArborHome;
  model: LoopbackModel;
  start(args?: string[]): Promise<Term>;
  /** Lets the children give their answers. */
  releaseChildren(): void;
}

async function world(ctx: TestContext): Promise<World> {
  const h = tempArborHome();
  let releaseChildren!: () => void;
  const answersMayCome = new Promise<void>((r) => (releaseChildren = r));
  const model = await startLoopbackModel({ dialect: 'openai', respond: (req) => script(req, answersMayCome) });
  const terms: Term[] = [];
  ctx.onTestFinished(async () => {
    await Promise.all(terms.map((t) => t.dispose()));
    await model.close();
    h.cleanup();
  });
  // Both spawn_subagent calls of the turn run at once.
  writeConfig(h.dir, `${fakeProviderConfig(model.url)}\n[runtime_profiles.default]\nparallel_tools = true\n`);
  return {
    h,
    model,
    releaseChildren,
    async start(args = []) {
      const term = await startTerminal({ args, env: h.env, cwd: h.dir, cols: 100, rows: 30 });
      terms.push(term);
      await term.waitForText(READY, START_TIMEOUT);
      await term.waitForRawMode(START_TIMEOUT);
      return term;
    },
  };
}

/** The row the viewer marks as selected. */
function selected(screen: string): string {
  return screen.split('\n').find((l) => l.startsWith('▸ ')) ?? '';
}

/** True when the pieces appear in this order. */
function ordered(screen: string, pieces: string[]): boolean {
  let at = -1;
  for (const p of pieces) {
    at = screen.indexOf(p, at + 1);
    if (at < 0) return false;
  }
  return true;
}

const position = (screen: string) => /Transcript\s+(\d+)\/\d+/.exec(screen)?.[1];

/** ↑ one entry at a time (each press waits for the viewer to show the move) until the
 * selected entry is the wanted one. */
async function upTo(term: Term, wanted: string): Promise<void> {
  for (let i = 0; i < 20; i++) {
    await term.flush();
    if (selected(term.screen()).includes(wanted)) return;
    const before = position(term.screen());
    term.press('up');
    await term.waitFor((s) => position(s) !== before, `the selection to move up from ${before}`, 5000);
  }
  throw new Error(`never reached "${wanted}"\n${term.screen()}`);
}

describe('transcript cards and viewer', () => {
  it('live child cards, the viewer, and the same cards after --resume', { timeout: TEST_TIMEOUT }, async (ctx) => {
    const { h, start, releaseChildren } = await world(ctx);
    const term = await start();
    term.type('split this in two');
    await term.waitForText('split this in two', 5000, { where: 'screen' });
    term.press('enter');

    // Two live cards, bound to their children: status, the tool each ran, elapsed time.
    await term.waitFor(
      (s) =>
        s.includes(`spawn_subagent · ${TASK_A}`) &&
        s.includes(`spawn_subagent · ${TASK_B}`) &&
        (s.match(/└ main#\d running \ds/g) ?? []).length === 2,
      'two live cards with running children',
      15000,
    );
    await term.waitFor((s) => (s.match(/1 tool done/g) ?? []).length === 2, 'both children past their tool call', 10000);
    const early = term.screen().match(/└ main#\d running (\d)s/)![1];
    // The cards keep updating while the children run (elapsed time moves on).
    await term.waitFor(
      (s) => {
        const m = s.match(/└ main#\d running (\d)s/);
        return m !== null && m[1] !== early;
      },
      'the elapsed time to move',
      8000,
    );
    releaseChildren();

    // They settle when the children end: outcome and answer, then the turn's reply.
    await term.waitFor(
      (s) => new RegExp(`✓ spawn_subagent · ${TASK_A}\\n\\s+└ main#\\d completed \\ds · ${ANSWER_A}`).test(s) && s.includes(ANSWER_B),
      'both cards settled',
      15000,
    );
    await term.waitForText('Both children are done.', 10000);
    await term.waitForText(READY, 10000, { where: 'screen' });

    // The viewer: opens at the newest entry.
    term.press('ctrl-o');
    await term.waitFor(
      (s) => /Transcript\s+\d+\/\d+/.test(s) && selected(s).includes('Both children are done.'),
      'the viewer at the newest entry',
      8000,
    );
    // Up to the first child's card, expand it.
    await upTo(term, `spawn_subagent · ${TASK_A}`);
    term.press('enter');
    await term.waitFor((s) => ordered(s, ['Task', TASK_A, 'Response', ANSWER_A, 'Details']), 'the expanded card', 5000);
    await term.waitFor((s) => /child main#\d · run \w{8} · completed/.test(s) && s.includes('list_files'), 'the child details', 5000);

    // Its child transcript: the child's own messages and tool calls.
    term.type('o');
    await term.waitFor(
      (s) => s.includes('Transcript › main') && s.includes(ANSWER_A) && s.includes('list_files'),
      'the child transcript',
      5000,
    );
    expect(term.screen()).toMatch(/── main#\d · \w{8} · completed/);

    // Copy it: the clipboard sequence and a file, whose path the viewer shows.
    term.type('c');
    await term.waitForText('Copied to the clipboard', 5000, { where: 'screen' });
    const flash = term.screen().replace(/\n/g, '');
    const path = /saved to\s*(\S+?\.txt)/.exec(flash)?.[1];
    expect(path, flash).toBeDefined();
    expect(path!.startsWith(join(h.home, 'exports'))).toBe(true);
    expect(existsSync(path!)).toBe(true);
    const copied = readFileSync(path!, 'utf8');
    expect(copied).toContain(TASK_A);
    expect(copied).toContain(ANSWER_A);

    // Back to the session list, then back to the chat.
    term.press('esc');
    await term.waitFor((s) => !s.includes('Transcript ›') && selected(s).includes(TASK_A), 'the session list again', 5000);
    term.press('ctrl-o');
    await term.waitForText(READY, 5000, { where: 'screen' });

    // Quit, then resume: the same cards, from disk, claiming nothing live.
    term.press('ctrl-d');
    expect((await term.waitForExit(10000)).exitCode).toBe(0);
    // -c: the newest session of this directory (--resume alone opens the picker).
    const resumed = await start(['-c']);
    await resumed.waitFor(
      (s, all) =>
        all.includes(`spawn_subagent · ${TASK_A}`) && all.includes(`restored · ${ANSWER_A}`) && all.includes(`restored · ${ANSWER_B}`),
      'the restored cards',
      8000,
    );
    expect(resumed.scrollback()).not.toMatch(/└ (running|completed)/);
    // The restored card still opens the child transcript the session file recorded.
    resumed.press('ctrl-o');
    await resumed.waitFor((s) => /Transcript\s+\d+\/\d+/.test(s), 'the viewer after resume', 8000);
    await upTo(resumed, `spawn_subagent · ${TASK_B}`);
    resumed.type('o');
    await resumed.waitFor((s) => s.includes(ANSWER_B) && s.includes('recorded: completed'), 'the recorded child transcript', 5000);
  });
});
