// Run numbers that never move: a child keeps the number it was given at creation (the 3 of
// main#3) while other runs start, across a runaway tree, in the session file, the trace and
// a resumed session; `/subagents kill N` kills the run the user read as N.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect } from 'vitest';
import type { LoopbackIncoming, LoopbackReply } from '../support/loopbackModel.js';
import { jsonLines } from '../support/runArbor.js';
import { disposeAllTerminals, type Term } from '../support/terminal.js';
import { PTY_TEST_TIMEOUT, send, ptyTest } from './sandbox.js';
import { firstUser, lastUser } from '../support/wireBody.js';

afterEach(async () => {
  await disposeAllTerminals();
});

const PARALLEL = '\n[runtime_profiles.default]\nparallel_tools = true\n';
const toolCount = (body: any): number => (body.messages ?? []).filter((m: any) => m.role === 'tool').length;
const spawnCalls = (prompts: string[]): LoopbackReply => ({
  kind: 'tools',
  calls: prompts.map((p, i) => ({ id: `s${i}_${p.replace(/\W+/g, '_')}`, name: 'spawn_subagent', args: { prompt: p } })),
});

interface FinalRun {
  id: string;
  label: string;
  kind: string;
  alias: string;
}

function finalRuns(stdout: string): FinalRun[] {
  const final = jsonLines(stdout).find((e) => e.type === 'final');
  expect(final).toBeDefined();
  return final.runs as FinalRun[];
}

/** Waits until the newest `/subagents info` of `label` (printed after `after`, if given)
 * shows every line of `shows`. */
async function waitForInfo(term: Term, label: string, shows: string[], what: string, after?: string): Promise<void> {
  await term.waitFor(
    (_, all) => {
      const at = all.lastIndexOf(`label: ${label}`);
      return at >= 0 && (after === undefined || at > all.indexOf(after)) && shows.every((line) => all.slice(at).includes(line));
    },
    what,
    15000,
  );
}

/** The `run` records of every session file under the home, by run id. */
function savedRuns(home: string): Map<string, { number?: number; alias: string }> {
  const out = new Map<string, { number?: number; alias: string }>();
  const dir = join(home, 'sessions');
  for (const f of readdirSync(dir).filter((n) => n.endsWith('.jsonl'))) {
    for (const line of readFileSync(join(dir, f), 'utf8').trim().split('\n')) {
      const e = JSON.parse(line);
      if (e.type === 'run') out.set(e.run.id, e.run);
    }
  }
  return out;
}

describe('stable run numbers', () => {
  ptyTest(
    '/subagents send makes a continuation with a new number; kill 1 still kills the run the user read as main#1',
    PTY_TEST_TIMEOUT * 2,
    async (sb) => {
      await sb.withModel(({ body }: LoopbackIncoming): LoopbackReply => {
        const first = firstUser(body);
        // job 2 answers at once; the message sent to it afterwards starts a run that waits.
        if (first === 'job 2') return lastUser(body) === 'more please' ? { kind: 'hang' } : { kind: 'text', chunks: ['job 2 done'] };
        if (first.startsWith('job ')) return { kind: 'hang' };
        if (toolCount(body)) return { kind: 'text', chunks: ['root done'] };
        return spawnCalls(['job 1', 'job 2', 'job 3']);
      }, PARALLEL);
      const term = await sb.startArbor([], { cols: 160, rows: 40 });
      await send(term, 'three jobs');
      await term.waitForText(/main#2 completed/, 15000);

      await send(term, '/subagents list');
      await term.waitForText(/main#1 · running\n\s+\S+ · \S+ · \d+ tokens\n\s+job 1/);
      // What the user read: main#1 is job 1. A continuation of main#2 now starts a new run.
      await send(term, '/subagents send 2 more please');
      await term.waitForText('main#2 had finished: the message started a new turn');
      await send(term, '/subagents info 4');
      await waitForInfo(term, 'main#4', ['task: more please', 'status: running'], 'the continuation as main#4');
      // main#2 still names the run that finished.
      await send(term, '/subagents info 2');
      await waitForInfo(term, 'main#2', ['task: job 2', 'status: completed'], 'main#2 still the finished job 2');

      await send(term, '/subagents kill 1');
      await term.waitForText('killed main#1');
      await send(term, '/subagents info main#1');
      await waitForInfo(term, 'main#1', ['task: job 1', 'status: killed'], 'main#1 (job 1) killed');
      // The continuation, which a newest-first #1 would have meant, still runs.
      await send(term, '/subagents info #4');
      await waitForInfo(term, 'main#4', ['status: running'], 'main#4 still running', 'killed main#1');
      await send(term, '/subagents kill all');
      await term.waitForText('Killed 2 live subagents (descendants included).', 15000);
    },
  );

  ptyTest(
    'a runaway tree numbers its children 1, 2, 3… in creation order; the session file, the trace and a resumed session agree',
    PTY_TEST_TIMEOUT * 2,
    async (sb) => {
      sb.h.env.ARBOR_OFFLINE_CHILD_DELAY_MS = '0';
      const r = await sb.arbor(['-p', 'runaway: keep going', '--output', 'json']);
      expect(r.code).toBe(0);
      const children = finalRuns(r.stdout).filter((x) => x.kind !== 'root');
      expect(children.length).toBeGreaterThan(3);
      // The final list is in creation order: the numbers are 1..n in that order, whatever the alias.
      expect(children.map((c) => Number(c.label.split('#')[1]))).toEqual(children.map((_, i) => i + 1));
      for (const c of children) expect(c.label).toBe(`${c.alias}#${c.label.split('#')[1]}`);

      const saved = savedRuns(sb.h.home);
      for (const c of children) expect(`${c.alias}#${saved.get(c.id)?.number}`).toBe(c.label);
      const trace = jsonLines(readFileSync(join(sb.h.home, 'logs', 'arbor.log'), 'utf8')).filter(
        (l) => l.event === 'run_started' && l.parent_run_id,
      );
      for (const c of children) expect(trace.find((l) => l.run_id === c.id)?.run_number).toBe(Number(c.label.split('#')[1]));

      // Resumed, the session numbers its new children after the saved ones.
      const session = readdirSync(join(sb.h.home, 'sessions'))[0].replace(/\.jsonl$/, '');
      const next = await sb.arbor(['--resume', session, '-p', 'fan out 2: more', '--output', 'json']);
      expect(next.code).toBe(0);
      const more = finalRuns(next.stdout).filter((x) => x.kind !== 'root');
      expect(more.map((m) => m.label)).toEqual([`main#${children.length + 1}`, `main#${children.length + 2}`]);
    },
  );
});
