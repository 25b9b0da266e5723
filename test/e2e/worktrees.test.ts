// Isolated children in the real CLI (issue #23): merge = "ask" in a pty (the queue in
// /agents, apply and skip by key), a crash (SIGKILL) while an isolated child works, then a
// restart that finds the leftover worktree and cleans it, and outside a git work tree the
// refusal that reaches the model with no child ever created.
import { existsSync, readFileSync, readdirSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, type TestContext } from 'vitest';
import { hasToolResults, startLoopbackModel, trailingToolResults, type LoopbackReply } from '../support/loopbackModel.js';
import { writeConfig } from '../support/tempHome.js';
import { disposeAllTerminals } from '../support/terminal.js';
import { git, gitRepo } from '../helpers/git.js';
import { agentOf } from '../unit/delegate/helpers.js';
import { PTY_TEST_TIMEOUT, sandbox, send } from './sandbox.js';

afterEach(async () => {
  await disposeAllTerminals();
});

const A = 'one\ntwo\nthree\nfour\nfive\nsix\nseven\n';

const repo = (dir: string) => gitRepo(dir, { 'a.txt': A, '.gitignore': '.arbor/\n' });

type Script = Record<string, (hasResults: boolean) => LoopbackReply>;

/** `repo: false` leaves the folder outside any git work tree; `seen` collects every request
 * body the model server got. */
async function world(ctx: TestContext, script: Script, merge: string, opts: { repo?: boolean; seen?: unknown[] } = {}) {
  const sb = sandbox(ctx);
  const model = await startLoopbackModel({
    dialect: 'openai',
    respond: (req) => {
      opts.seen?.push(req.body);
      return script[agentOf(req.body)]?.(hasToolResults(req.body)) ?? { kind: 'text', chunks: ['?'] };
    },
  });
  ctx.onTestFinished(() => model.close());
  const agent = (alias: string, extra = '') =>
    `[agents.${alias}]\nprovider = "fake"\nsystem_prompt = "You are ${alias}."\nrisk_profile = "trusted"\nruntime_profile = "agentic"\n${extra}\n`;
  writeConfig(
    sb.h.dir,
    [
      'default_agent = "main"',
      `[providers.fake]\ntype = "openai-compatible"\nbase_url = "${model.url}"\nmodel = "fake-model"`,
      '[risk_profiles.trusted]\ndelegation_policy = { mode = "allow" }',
      '[runtime_profiles.agentic]\nagentic = true',
      agent('main', 'delegates = ["w1", "w2"]'),
      agent('w1'),
      agent('w2'),
      `[delegation]\nsubagent_approvals = "allow"\nmerge = "${merge}"`,
    ].join('\n\n'),
  );
  if (opts.repo !== false) repo(sb.h.dir);
  return sb;
}

const shell = (id: string, command: string): LoopbackReply => ({ kind: 'tools', calls: [{ id, name: 'shell', args: { command } }] });
const text = (s: string): LoopbackReply => ({ kind: 'text', chunks: [s] });

describe('merge = "ask" in the terminal', () => {
  it('the queue shows in /agents; a applies one entry, d skips the other', { timeout: PTY_TEST_TIMEOUT * 2 }, async (ctx) => {
    const sb = await world(
      ctx,
      {
        main: (r) =>
          r
            ? text('all done')
            : {
                kind: 'tools',
                calls: [{ id: 'd1', name: 'delegate', args: { parallel: ['w1', 'w2'], prompt: 'edit', isolation: 'worktree' } }],
              },
        w1: (r) => (r ? text('w1 done') : shell('s1', "sed -i 's/^one$/ONE/' a.txt")),
        w2: (r) => (r ? text('w2 done') : shell('s2', "sed -i 's/^seven$/SEVEN/' a.txt")),
      },
      'ask',
    );
    const term = await sb.startArbor([], { cols: 140, rows: 40 });
    await send(term, 'go');
    await term.waitForText('all done', 30000);
    await send(term, '/agents');
    await term.waitFor((s) => (s.match(/⇢ merge waiting: a\.txt \+1 −1/g) ?? []).length === 2, 'two waiting entries', 10000);
    // The first row is the turn; the next two are the children.
    term.press('down');
    await term.waitForText(/a apply merge .* d skip .* b keep branch .* r re-run on current tree .* v view diff/, 5000);
    // v opens the entry's review in the pane: files and +/−, the conflict check, the diff.
    term.type('v');
    await term.waitForText('Conflict check: applies cleanly to the current tree.', 10000);
    await term.waitForText(/a\.txt {2}\+1 −1/, 5000);
    await term.waitForText(/@@ -\d+,\d+ \+\d+,\d+ @@/, 5000);
    await term.waitForText(/\d +-(one|seven)\b/, 5000);
    await term.waitForText(/\d +\+(ONE|SEVEN)\b/, 5000);
    term.press('esc');
    await term.waitForText('v view diff', 5000);
    term.type('a');
    await term.waitForText(/w[12]#\d+: changes merged/, 10000);
    const merged = /(w[12])#\d+: changes merged/.exec(term.screen())![1];
    term.press('down');
    term.type('d');
    await term.waitForText(/w[12]#\d+: skipped/, 10000);
    await term.waitForText('⎇ merged', 5000);
    await term.waitForText('⎇ skipped', 5000);
    const expected = merged === 'w1' ? A.replace('one', 'ONE') : A.replace('seven', 'SEVEN');
    expect(readFileSync(join(sb.h.dir, 'a.txt'), 'utf8')).toBe(expected);
    expect(git(sb.h.dir, 'for-each-ref', 'refs/heads/arbor/')).toBe('');
    expect(readdirSync(join(sb.h.home, 'worktrees'))).toEqual([]);
  });
});

describe('a crash while an isolated child works', () => {
  it(
    'SIGKILL, then the restart finds the leftover worktree and /worktrees clean removes it',
    { timeout: PTY_TEST_TIMEOUT * 2 },
    async (ctx) => {
      const sb = await world(
        ctx,
        {
          main: (r) =>
            r
              ? text('never')
              : { kind: 'tools', calls: [{ id: 'd1', name: 'delegate', args: { agent: 'w1', prompt: 'slow', isolation: 'worktree' } }] },
          // The shell leads its own process group: its id is written so the test can end it.
          w1: (r) => (r ? text('w1 done') : shell('s1', "echo $$ > ../pgid && sed -i 's/^one$/ONE/' a.txt && sleep 20")),
        },
        'auto',
      );
      const wtDir = join(sb.h.home, 'worktrees');
      const first = await sb.startArbor([], { cols: 120, rows: 30 });
      await send(first, 'go');
      await first.waitFor(() => existsSync(join(wtDir, 'pgid')), 'the child runs its command', 30000);
      const pgid = Number(readFileSync(join(wtDir, 'pgid'), 'utf8').trim());
      ctx.onTestFinished(() => {
        try {
          process.kill(-pgid, 'SIGKILL');
        } catch {
          // already gone
        }
      });
      first.kill('SIGKILL');
      await first.waitForExit(10000);
      const branch = git(sb.h.dir, 'for-each-ref', '--format=%(refname:short)', 'refs/heads/arbor/').trim();
      expect(branch).toMatch(/^arbor\/[0-9a-f]{8}\/1$/);

      const second = await sb.startArbor([], { cols: 160, rows: 30 });
      await second.waitForText(/1 worktree left by an earlier arbor/, 10000, { where: 'all' });
      await send(second, '/worktrees');
      await second.waitForText('(leftover)', 10000);
      await send(second, '/worktrees clean');
      await second.waitForText('Removed 1 leftover worktree ', 10000);
      expect(git(sb.h.dir, 'for-each-ref', 'refs/heads/arbor/')).toBe('');
      expect(git(sb.h.dir, 'worktree', 'list', '--porcelain').match(/^worktree /gm)).toHaveLength(1);
      expect(readFileSync(join(sb.h.dir, 'a.txt'), 'utf8')).toBe(A);
    },
  );
});

describe('outside a git work tree', () => {
  it(
    'a delegate that asks for a worktree is refused before any child exists: the literal text reaches the model, /agents has no child row',
    { timeout: PTY_TEST_TIMEOUT },
    async (ctx) => {
      const seen: unknown[] = [];
      const sb = await world(
        ctx,
        {
          main: (r) =>
            r
              ? text('refusal read')
              : { kind: 'tools', calls: [{ id: 'd1', name: 'delegate', args: { agent: 'w1', prompt: 'edit', isolation: 'worktree' } }] },
          w1: () => text('w1 should never run'),
        },
        'auto',
        { repo: false, seen },
      );
      const cwd = realpathSync(sb.h.dir);
      const literal = `worktree isolation needs a git repository: ${cwd} is not inside one`;
      const term = await sb.startArbor([], { cols: 140, rows: 30 });
      await send(term, 'go');
      await term.waitForText('refusal read', 30000);
      // Two requests, both main's: the second carries the refusal as the whole tool result.
      expect(seen.map((b) => agentOf(b))).toEqual(['main', 'main']);
      expect(trailingToolResults(seen[1]).map((r) => r.content)).toEqual([literal]);
      await send(term, '/agents');
      await term.waitFor((s) => s.split('\n').some((l) => l.startsWith('Agents ·')), 'the /agents pane', 10000);
      const pane = term.screen();
      expect(pane).not.toMatch(/w1#\d/);
      expect(pane).not.toContain('failed');
      // The session file records no run but the turn's own.
      const sessions = join(sb.h.home, 'sessions');
      const runs = readdirSync(sessions)
        .filter((f) => f.endsWith('.jsonl'))
        .flatMap((f) => readFileSync(join(sessions, f), 'utf8').split('\n'))
        .filter((l) => l.trim() !== '')
        .map((l) => JSON.parse(l))
        .filter((e) => e.type === 'run')
        .map((e) => e.run.alias);
      expect(runs.length).toBeGreaterThan(0);
      expect(runs.every((alias: string) => alias === 'main')).toBe(true);
      expect(existsSync(join(sb.h.home, 'worktrees'))).toBe(false);
    },
  );
});
