// Agent files as a person meets them: `arbor agents new`, `/agents list` in the chat,
// `--agent` for the chat and for -p, all with the built bin/arbor.js, the chat in a real pty
// against a loopback model that records which model each request asked for.
import { afterEach, describe, expect } from 'vitest';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startLoopbackModel, type LoopbackModel } from '../support/loopbackModel.js';
import { fakeProviderConfig, writeConfig } from '../support/tempHome.js';
import { disposeAllTerminals } from '../support/terminal.js';
import { PROCESS_TEST_TIMEOUT, PTY_TEST_TIMEOUT, send, type Sandbox, ptyTest } from './sandbox.js';
import { messagesOf } from '../support/wireBody.js';
import { requestOf } from '../support/wireRequest.js';

afterEach(async () => {
  await disposeAllTerminals();
});

const WIDE = { cols: 160, rows: 40 };

const systemOf = (body: any): string => (body.messages ?? []).find((m: any) => m.role === 'system')?.content ?? '';

/** A loopback model that answers as a dated version of what was asked (as real servers do
 * for an alias), and a config whose `main` uses it, plus two agent files: a project one
 * with its own model and a user one. */
async function setup(sb: Sandbox, ctx: { onTestFinished(fn: () => unknown): void }): Promise<LoopbackModel> {
  const model = await startLoopbackModel({
    dialect: 'openai',
    answerModel: (m) => `${m}-0601`,
    respond: ({ body }) => {
      const msgs = messagesOf(body);
      // "spawn one" makes the agent start a spawn_subagent child (it shows in the pane).
      if (msgs.at(-1)?.role === 'user' && msgs.at(-1)?.content === 'spawn one') {
        return { kind: 'tools', calls: [{ id: 's1', name: 'spawn_subagent', args: { prompt: 'sub task' } }] };
      }
      return { kind: 'text', chunks: [`answer from ${/^You are (\w+)/.exec(systemOf(body))?.[1] ?? 'default'}`] };
    },
  });
  ctx.onTestFinished(() => model.close());
  writeConfig(sb.h.dir, fakeProviderConfig(model.url));
  mkdirSync(join(sb.h.dir, '.arbor', 'agents'), { recursive: true });
  writeFileSync(
    join(sb.h.dir, '.arbor', 'agents', 'reviewer.md'),
    '---\ndescription: Reviews diffs for bugs.\nmodel: big-model\ntemperature: 0.2\n---\nYou are reviewer. Review.\n',
  );
  mkdirSync(join(sb.h.home, 'agents'), { recursive: true, mode: 0o700 });
  writeFileSync(join(sb.h.home, 'agents', 'helper.md'), '---\ndescription: Helps.\n---\nYou are helper.\n');
  return model;
}

describe('arbor agents new <name>', () => {
  ptyTest(
    'writes a commented template in ./.arbor/agents, refuses to overwrite it, refuses a bad name',
    PROCESS_TEST_TIMEOUT,
    async (sb, ctx) => {
      const path = join(sb.h.dir, '.arbor', 'agents', 'scout.md');
      const first = await sb.arbor(['agents', 'new', 'scout']);
      expect(first.code).toBe(0);
      expect(first.stdout).toContain(`Wrote ${path}`);
      expect(readFileSync(path, 'utf8')).toMatch(/^---\n# The agent's alias[\s\S]*name: scout[\s\S]*# model: [\s\S]*---\nYou are scout\./);

      writeFileSync(path, '---\n---\nmine\n');
      const again = await sb.arbor(['agents', 'new', 'scout']);
      expect(again.code).toBe(2);
      expect(again.stderr).toContain(`${path} already exists; it was left as it is`);
      expect(readFileSync(path, 'utf8')).toBe('---\n---\nmine\n');

      const bad = await sb.arbor(['agents', 'new', '../evil']);
      expect(bad.code).toBe(2);
      expect(bad.stderr).toContain('"../evil" is not a usable agent name');
      expect(existsSync(join(sb.h.dir, '.arbor', 'evil.md'))).toBe(false);

      const usage = await sb.arbor(['agents', 'list']);
      expect(usage.code).toBe(2);
      expect(usage.stderr).toContain('usage: arbor agents new <name>');

      // The new file is picked up as it is written: -p with --agent talks to it.
      const model = await startLoopbackModel({ dialect: 'openai', respond: () => ({ kind: 'text', chunks: ['scouted'] }) });
      ctx.onTestFinished(() => model.close());
      writeConfig(sb.h.dir, fakeProviderConfig(model.url));
      await sb.arbor(['agents', 'new', 'scout2']);
      const run = await sb.arbor(['--agent', 'scout2', '-p', 'go']);
      expect(run.stderr).toBe('');
      expect(run.stdout.trim()).toBe('scouted');
      expect(systemOf(model.requests[0].body)).toMatch(/^You are scout2\./);
    },
  );
});

describe('--agent and /agents list', () => {
  ptyTest(
    '/agents list prints every agent with where it came from; /agents alone still opens the pane',
    PTY_TEST_TIMEOUT,
    async (sb, ctx) => {
      await setup(sb, ctx);
      const term = await sb.startArbor([], WIDE);
      await send(term, '/agents list');
      // helper, main, reviewer from files, and the built-in researcher kept beside them (#20 item 6).
      await term.waitForText('4 agents defined:');
      const screen = term.screen();
      expect(screen).toMatch(/researcher {2}offline · offline\/arbor-offline/);
      expect(screen).toMatch(/helper {2}fake · openai-compatible\/fake-model/);
      expect(screen).toContain(`from ${join(sb.h.home, 'agents', 'helper.md')}`);
      expect(screen).toMatch(/main \(you talk to this one\) {2}fake · openai-compatible\/fake-model/);
      expect(screen).toContain(`from ${join('.arbor', 'config.toml')}`);
      expect(screen).toMatch(/reviewer {2}fake · openai-compatible\/big-model/);
      expect(screen).toContain(`from ${join('.arbor', 'agents', 'reviewer.md')}`);
      expect(screen).toContain('Reviews diffs for bugs.');

      await send(term, '/agents');
      await term.waitForText(/Agents ·/);
    },
  );

  ptyTest(
    '--agent picks the root: its model is in the request, and the pane row shows the model that answered',
    PTY_TEST_TIMEOUT,
    async (sb, ctx) => {
      const model = await setup(sb, ctx);
      const term = await sb.startArbor(['--agent', 'reviewer'], WIDE);
      await send(term, 'look at this');
      await term.waitForText('answer from reviewer');
      expect(model.requests).toHaveLength(1);
      expect(requestOf(model.requests[0].body).model).toBe('big-model');
      expect(requestOf(model.requests[0].body).temperature).toBe(0.2);
      // The status bar names the agent's own model.
      expect(term.screen()).toContain('reviewer · openai-compatible/big-model');

      // Its spawn_subagent child runs on the same definition, so the same model.
      await send(term, 'spawn one');
      await term.waitFor(() => model.requests.length >= 4, 'the child and the root to finish', 10000);
      expect(new Set(model.requests.map((r) => requestOf(r.body).model))).toEqual(new Set(['big-model']));
      term.press('ctrl-t');
      await term.waitFor(
        (s) => s.split('\n').some((l) => l.includes('reviewer#1 subagent') && l.includes('big-model-0601')),
        'the child row with the model that answered',
        10000,
      );
    },
  );

  ptyTest('headless -p with --agent, and an unknown --agent is an error naming the known agents', PROCESS_TEST_TIMEOUT, async (sb, ctx) => {
    const model = await setup(sb, ctx);
    const ok = await sb.arbor(['--agent', 'reviewer', '-p', 'hi']);
    expect(ok.stdout.trim()).toBe('answer from reviewer');
    expect(model.requests.map((r) => requestOf(r.body).model)).toEqual(['big-model']);

    const bad = await sb.arbor(['--agent', 'nobody', '-p', 'hi']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--agent: no agent named "nobody" (known: helper, reviewer, main, researcher)');
    expect(model.requests).toHaveLength(1);
  });

  ptyTest('a broken agent file stops the start with the file, line:col and field', PROCESS_TEST_TIMEOUT, async (sb, ctx) => {
    await setup(sb, ctx);
    const file = join(sb.h.dir, '.arbor', 'agents', 'reviewer.md');
    writeFileSync(file, '---\ndescription: ok\ntemperature: hot\n---\nYou are reviewer.\n');
    const run = await sb.arbor(['-p', 'hi']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`.arbor/agents/reviewer.md:3:14: temperature: expected a number, got string "hot"`);
  });
});
