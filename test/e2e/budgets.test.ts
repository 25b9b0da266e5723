// Budgets and fan-outs as a person meets them: the built app asks before a large fan-out
// (confirm_fanout_over), the operator lowers the count, and only the first children run;
// headless runs follow --yes; the JSON final event carries each run's usage.
import { afterEach, describe, expect } from 'vitest';
import type { LoopbackIncoming, LoopbackReply } from '../support/loopbackModel.js';
import { jsonLines } from '../support/runArbor.js';
import { disposeAllTerminals } from '../support/terminal.js';
import { firstUser, toolResults } from '../support/wireBody.js';
import { PROCESS_TEST_TIMEOUT, PTY_TEST_TIMEOUT, send, ptyTest } from './sandbox.js';

afterEach(async () => {
  await disposeAllTerminals();
});

const TASKS = ['survey docs', 'survey tests', 'survey code', 'survey build'];
const DECLINED = 'The operator declined to start this child';

/** The root asks for four children at once; each child answers; the root reports what it read. */
function fourChildren({ body }: LoopbackIncoming): LoopbackReply {
  const first = firstUser(body);
  if (TASKS.includes(first)) return { kind: 'text', chunks: [`done ${first}`], usage: { input: 100, output: 20 } };
  const results = toolResults(body);
  if (results.length) {
    const declined = results.filter((r) => String(r.content).startsWith(DECLINED)).length;
    return { kind: 'text', chunks: [`parent read ${results.length - declined} answers and ${declined} declined`] };
  }
  return { kind: 'tools', calls: TASKS.map((prompt, i) => ({ id: `c${i + 1}`, name: 'spawn_subagent', args: { prompt } })) };
}

const FANOUT = '\n[delegation]\nconfirm_fanout_over = 2\nmax_children_per_agent = 10\n';

describe('fan-out confirmation in the terminal', () => {
  ptyTest('shows the planned children; - lowers the count; Enter starts the first two', PTY_TEST_TIMEOUT, async (sb) => {
    await sb.withModel(fourChildren, FANOUT);
    const term = await sb.startArbor([], { cols: 110, rows: 34 });
    await send(term, 'go wide');
    await term.waitForText('main wants to start 4 children (more than confirm_fanout_over = 2)');
    await term.waitForText('survey build');
    await term.waitForText('Start 4 of 4');
    // Each - lowers the count by one.
    for (const n of [3, 2]) {
      term.type('-');
      await term.waitForText(`Start ${n} of 4`);
    }
    term.press('enter');
    await term.waitForText('parent read 2 answers and 2 declined');
    await term.waitForText('2 of 4 children started');
    await term.waitForNoText('Start 2 of 4');
  });
});

describe('headless', () => {
  ptyTest('without --yes a large fan-out is denied with a stderr line; with --yes it runs', PROCESS_TEST_TIMEOUT, async (sb) => {
    await sb.withModel(fourChildren, FANOUT);
    const denied = await sb.arbor(['-p', 'go wide']);
    expect(denied.code).toBe(0);
    expect(denied.stdout).toContain('parent read 0 answers and 4 declined');
    expect(denied.stderr).toContain(
      'A model turn asked to start 4 children, more than [delegation] confirm_fanout_over = 2; with no operator (headless -p) none were started. Re-run with --yes to allow large fan-outs.',
    );
    const allowed = await sb.arbor(['-p', 'go wide', '--yes']);
    expect(allowed.stdout).toContain('parent read 4 answers and 0 declined');
  });

  ptyTest('the JSON final event lists each run with its tokens, cost, model and subtree sums', PROCESS_TEST_TIMEOUT, async (sb) => {
    await sb.withModel(fourChildren, '\n[delegation]\nmax_children_per_agent = 10\n');
    const r = await sb.arbor(['-p', 'go wide', '--output', 'json']);
    const events = jsonLines(r.stdout);
    const final = events.at(-1);
    expect(final).toMatchObject({ type: 'final', status: 'completed' });
    const root = final.runs.find((x: any) => x.kind === 'root');
    const kids = final.runs.filter((x: any) => x.kind === 'subagent');
    expect(kids).toHaveLength(4);
    for (const k of kids) {
      expect(k).toMatchObject({
        parent_id: root.id,
        model: 'openai-compatible/fake-model',
        tokens_in: 100,
        tokens_out: 20,
        cost_usd: 0,
        status: 'completed',
      });
      expect(k.subtree_tokens_in).toBe(100);
    }
    expect(kids.map((k: any) => k.label)).toEqual(['main#1', 'main#2', 'main#3', 'main#4']);
    expect(root.subtree_tokens_in).toBe(root.tokens_in + 400);
    expect(root.subtree_tokens_out).toBe(root.tokens_out + 80);
  });
});
