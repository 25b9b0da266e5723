// An external ACP agent as arbor's delegate target ([agents.ext] runtime = "acp"): the
// fixture agent (test/fixtures/acpAgent.mjs, written with the SDK's agent side) runs as a real
// process speaking ACP on stdio; the root's model is a loopback that delegates to it.
import { acpAgentLines } from '../helpers/acpPeer.js';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect } from 'vitest';
import type { LoopbackIncoming, LoopbackModel, LoopbackReply } from '../support/loopbackModel.js';
import { alive } from '../support/procs.js';
import { jsonLines, runArbor } from '../support/runArbor.js';
import { disposeAllTerminals, type Term } from '../support/terminal.js';
import { gitRepo } from '../helpers/git.js';
import { PROCESS_TEST_TIMEOUT, PTY_TEST_TIMEOUT, send, ptyTest, type Sandbox } from './sandbox.js';

afterEach(async () => {
  await disposeAllTerminals();
});

/** main may delegate to ext, an ACP agent; `extExtra` adds keys to [agents.ext]. */
function acpConfig(extExtra = '', more = ''): string {
  return [
    '',
    '[risk_profiles.lead]',
    'delegation_policy = { mode = "allow" }',
    '',
    '[runtime_profiles.short]',
    'delegation_timeout_secs = 1',
    '',
    ...acpAgentLines(),
    extExtra,
    more,
  ].join('\n');
}

const LEAD = 'risk_profile = "lead"\ndelegates = ["ext"]';
/** ext under lead too: its shell policy is its own profile's, capped by its caller's. */
const EXT_LEAD = 'risk_profile = "lead"';

const toolResults = (body: any): string[] => (body.messages ?? []).filter((m: any) => m.role === 'tool').map((m: any) => String(m.content));

/** The root delegates each task to ext, then answers with what it got back. */
function delegates(...tasks: string[]) {
  return ({ body }: LoopbackIncoming): LoopbackReply => {
    const results = toolResults(body);
    if (results.length) return { kind: 'text', chunks: [`root saw: ${results.join(' || ')}`] };
    return { kind: 'tools', calls: tasks.map((task, i) => ({ id: `d${i}`, name: 'delegate', args: { agent: 'ext', prompt: task } })) };
  };
}

/** main (under lead) delegates each of `tasks` to ext; the rest is acpConfig's. */
async function leadDelegates(sb: Sandbox, tasks: string[], ...config: Parameters<typeof acpConfig>): Promise<LoopbackModel> {
  const model = await sb.withModel(delegates(...tasks), acpConfig(...config));
  writeConfigAgentExtra(sb.h.dir, LEAD);
  return model;
}

/** With subagent_approvals = "ask", the chat after main delegated `task` to ext (its
 * [agents.ext] extended by `extExtra`), once the operator is asked about `tool`. */
async function operatorAsked(sb: Sandbox, task: string, extExtra: string, tool: string): Promise<Term> {
  await leadDelegates(sb, [task], extExtra, '\n[delegation]\nsubagent_approvals = "ask"\n');
  const term = await sb.startArbor([], { cols: 120, rows: 36 });
  await send(term, 'go');
  await term.waitForText(`ext#1 wants to use ${tool}`, 20000);
  return term;
}

/** What the root read back in the last request: one result per delegated task. */
const lastResults = (model: LoopbackModel): string[] => toolResults(model.requests.at(-1)!.body);

function pidOf(dir: string): number {
  return Number(readFileSync(join(dir, 'acp-agent.pid'), 'utf8'));
}

describe('an external ACP agent as a delegate target', () => {
  ptyTest("returns the agent's final message in the documented shape and ends its process", PROCESS_TEST_TIMEOUT, async (sb) => {
    const model = await leadDelegates(sb, ['say hello']);
    const r = await sb.arbor(['-p', 'go', '--output', 'json']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const events = jsonLines(r.stdout);
    const result = events.find((e) => e.type === 'tool_result' && e.name === 'delegate');
    expect(result.status).toBe('ok');
    expect(toolResults(model.requests.at(-1)!.body)[0]).toBe("[Agent 'ext' (acp/arbor-test-agent)]\nhello from the fixture");
    const final = events.find((e) => e.type === 'final');
    const child = final.runs.find((run: any) => run.alias === 'ext');
    expect(child).toMatchObject({ kind: 'delegate', status: 'completed', model: 'acp/node', tokens_in: 7, tokens_out: 5 });
    await expect.poll(() => alive(pidOf(sb.h.dir)), { timeout: 5000 }).toBe(false);
  });

  ptyTest(
    'serves fs/read_text_file inside the roots and refuses a read outside them (two children, one shared process)',
    PROCESS_TEST_TIMEOUT,
    async (sb) => {
      writeFileSync(join(sb.h.dir, 'notes.txt'), 'inside the roots');
      const model = await leadDelegates(sb, [`read ${join(sb.h.dir, 'notes.txt')}`, 'read /etc/hostname']);
      const r = await sb.arbor(['-p', 'go']);
      expect(r.code).toBe(0);
      const [inside, outside] = lastResults(model);
      expect(inside).toBe("[Agent 'ext' (acp/arbor-test-agent)]\nread: inside the roots");
      expect(outside).toContain('read refused: ');
      expect(outside).toContain("arbor refused read_file '/etc/hostname'");
      expect(outside).toContain('outside the allowed roots');
      // per_child is not set: both children were sessions of one agent process.
      expect(readFileSync(join(sb.h.dir, 'acp-agent.starts'), 'utf8').trim().split('\n')).toHaveLength(1);
    },
  );

  ptyTest(
    'serves fs/write_text_file inside the roots when its profile allows the write, and refuses a write outside them',
    PROCESS_TEST_TIMEOUT,
    async (sb) => {
      const inside = join(sb.h.dir, 'out.txt');
      const model = await leadDelegates(sb, [`write ${inside} written by the agent`, 'write /etc/arbor-acp-test.txt nope'], EXT_LEAD);
      addToProfile(sb.h.dir, 'auto_approve = ["write_file"]');
      const r = await sb.arbor(['-p', 'go']);
      expect(r.code).toBe(0);
      const [wrote, outside] = lastResults(model);
      expect(wrote).toBe(`[Agent 'ext' (acp/arbor-test-agent)]\nwrote ${inside}`);
      expect(readFileSync(inside, 'utf8')).toBe('written by the agent');
      expect(outside).toContain("write refused: Invalid params: arbor refused write_file '/etc/arbor-acp-test.txt'");
      expect(outside).toContain('outside the allowed roots');
      expect(existsSync('/etc/arbor-acp-test.txt')).toBe(false);
    },
  );

  ptyTest(
    "an isolated external child's fs/write_text_file is checked in its worktree: the original checkout is refused, a relative path lands in the worktree",
    PROCESS_TEST_TIMEOUT,
    async (sb) => {
      const checkout = join(sb.h.dir, 'escaped.txt');
      const model = await leadDelegates(
        sb,
        [`write ${checkout} out of the worktree`, 'write inside.txt in the worktree'],
        `${EXT_LEAD}\nisolation = "worktree"`,
        '\n[delegation]\nmerge = "ask"\n',
      );
      addToProfile(sb.h.dir, 'auto_approve = ["write_file"]');
      // Isolated children need a git work tree; .arbor/ (ARBOR_HOME, the worktrees) stays out of it.
      gitRepo(sb.h.dir, { 'a.txt': 'a\n', '.gitignore': '.arbor/\n' });
      const r = await sb.arbor(['-p', 'go']);
      expect(r.code).toBe(0);
      const [escaped, inside] = lastResults(model);
      expect(escaped).toContain(`write refused: Invalid params: arbor refused write_file '${checkout}'`);
      expect(existsSync(checkout)).toBe(false);
      // Written in the child's own worktree (kept for the merge), not in the checkout.
      expect(inside).toContain(`wrote inside.txt`);
      expect(existsSync(join(sb.h.dir, 'inside.txt'))).toBe(false);
    },
  );

  ptyTest('asks the operator before an fs/write_text_file its profile does not auto-approve', PTY_TEST_TIMEOUT, async (sb) => {
    const target = join(sb.h.dir, 'asked.txt');
    const term = await operatorAsked(sb, `write ${target} after asking`, EXT_LEAD, 'write_file');
    // The ask shows the diff the write would make, as arbor's own write_file does.
    await term.waitForText('asked.txt +1 −0', 5000, { where: 'screen' });
    await term.waitForText('+after asking', 5000, { where: 'screen' });
    // Nothing is written before the answer.
    expect(existsSync(target)).toBe(false);
    term.type('y');
    await term.waitForText(`wrote ${target}`, 20000);
    expect(readFileSync(target, 'utf8')).toBe('after asking');
  });

  ptyTest('the operator kills an external child in the terminal: cancel, then its process ends', PTY_TEST_TIMEOUT, async (sb) => {
    // It ignores session/cancel: only the process end stops it.
    await leadDelegates(sb, ['hang'], 'env = { ACP_FIXTURE_IGNORE_CANCEL = "1" }');
    const term = await sb.startArbor([], { cols: 120, rows: 36 });
    await send(term, 'go');
    const prompts = join(sb.h.dir, 'acp-agent.prompts');
    await expect.poll(() => existsSync(prompts) && readFileSync(prompts, 'utf8').includes('"hang"'), { timeout: 20000 }).toBe(true);
    const pid = pidOf(sb.h.dir);
    expect(alive(pid)).toBe(true);
    await send(term, '/subagents kill ext#1');
    await term.waitForText('killed ext#1');
    await expect.poll(() => alive(pid), { timeout: 10000 }).toBe(false);
    // The root's turn goes on with the stopped child's result.
    await term.waitForText("root saw: Agent 'ext' failed: killed by the operator", 20000);
  });

  ptyTest(
    '/subagents send steers an external child: queued as its next prompt; once it finished, refused saying why',
    PTY_TEST_TIMEOUT,
    async (sb) => {
      const go = join(sb.h.dir, 'GO');
      await leadDelegates(sb, [`await ${go} then hello`]);
      const term = await sb.startArbor([], { cols: 160, rows: 36 });
      await send(term, 'go');
      await expect.poll(() => existsSync(`${go}.waiting`), { timeout: 20000 }).toBe(true);
      await send(term, '/subagents send ext#1 say more');
      await term.waitForText('Steering for ext#1 queued: an external agent gets it as its next prompt once its current turn ends.');
      writeFileSync(go, '');
      await term.waitForText("root saw: [Agent 'ext' (acp/arbor-test-agent)]", 20000);
      const prompts = jsonLines(readFileSync(join(sb.h.dir, 'acp-agent.prompts'), 'utf8'));
      // Both prompts went to the same session of the agent.
      expect(prompts.map((p) => p.prompt)).toEqual([`await ${go} then hello`, 'say more']);
      expect(prompts[1].sessionId).toBe(prompts[0].sessionId);
      await send(term, '/subagents send ext#1 one more');
      await term.waitForText("Cannot steer ext#1: an external agent's session ends with its last turn");
    },
  );

  ptyTest(
    'a steer queued for an external child that is then killed: the chat says it was not sent, and why',
    PTY_TEST_TIMEOUT,
    async (sb) => {
      await leadDelegates(sb, ['hang']);
      const term = await sb.startArbor([], { cols: 160, rows: 36 });
      await send(term, 'go');
      const prompts = join(sb.h.dir, 'acp-agent.prompts');
      await expect.poll(() => existsSync(prompts) && readFileSync(prompts, 'utf8').includes('"hang"'), { timeout: 20000 }).toBe(true);
      await send(term, '/subagents send ext#1 say more');
      await term.waitForText('Steering for ext#1 queued: an external agent gets it as its next prompt once its current turn ends.');
      await send(term, '/subagents kill ext#1');
      await term.waitForText('Steering for ext#1 was not sent (it was killed): say more', 20000);
      expect(readFileSync(prompts, 'utf8')).not.toContain('say more');
    },
  );

  ptyTest('cuts a hanging agent at its timeout: cancel, then the process ends (per_child)', PROCESS_TEST_TIMEOUT, async (sb) => {
    // The env table reaches the agent: this one ignores session/cancel, so only the process end stops it.
    const model = await leadDelegates(
      sb,
      ['hang'],
      'runtime_profile = "short"\nper_child = true\nenv = { ACP_FIXTURE_IGNORE_CANCEL = "1" }',
    );
    const r = await sb.arbor(['-p', 'go']);
    expect(r.code).toBe(0);
    expect(lastResults(model)[0]).toContain("Agent 'ext' timed out after 1s");
    expect(existsSync(join(sb.h.dir, 'acp-agent.pid'))).toBe(true);
    await expect.poll(() => alive(pidOf(sb.h.dir)), { timeout: 5000 }).toBe(false);
  });

  ptyTest(
    "serves terminal/* under the caller's shell policy: approved by its profile, in the scrubbed tool environment",
    PROCESS_TEST_TIMEOUT,
    async (sb) => {
      const model = await leadDelegates(sb, ['run echo "token=${ARBOR_TEST_TOKEN:-none}"; echo oops >&2; exit 3'], EXT_LEAD);
      addToProfile(sb.h.dir, 'auto_approve = ["shell"]');
      const r = await runArbor(['-p', 'go'], { env: { ...sb.h.env, ARBOR_TEST_TOKEN: 's3cret' }, cwd: sb.h.dir });
      expect(r.code).toBe(0);
      // The secret-looking variable was scrubbed; stderr came with stdout; the exit code came back.
      expect(lastResults(model)[0]).toBe("[Agent 'ext' (acp/arbor-test-agent)]\nran (exit 3, truncated false): token=none\noops");
    },
  );

  ptyTest('refuses terminal/create when the profile denies shell, and a cwd outside the roots', PROCESS_TEST_TIMEOUT, async (sb) => {
    const model = await leadDelegates(sb, ['run echo never', 'run in /etc echo never'], EXT_LEAD);
    // Allowed by the profile but outside the roots: refused before any ask.
    addToProfile(sb.h.dir, 'auto_approve = ["shell"]');
    const second = await sb.arbor(['-p', 'go']);
    expect(second.code).toBe(0);
    const [, outside] = lastResults(model);
    expect(outside).toContain("run refused: Invalid params: arbor refused shell 'echo never': Path '/etc' refused");
    expect(outside).toContain('outside the allowed roots');
    addToProfile(sb.h.dir, 'excluded_tools = ["shell"]');
    const third = await sb.arbor(['-p', 'go']);
    expect(third.code).toBe(0);
    const [denied] = lastResults(model);
    expect(denied).toBe(
      "[Agent 'ext' (acp/arbor-test-agent)]\nrun refused: Invalid params: arbor refused shell 'echo never': the profile does not allow shell",
    );
  });

  ptyTest('asks the operator before a terminal command the profile does not auto-approve', PTY_TEST_TIMEOUT, async (sb) => {
    const term = await operatorAsked(sb, 'run echo asked-and-ran', EXT_LEAD, 'shell');
    await term.waitForText('echo asked-and-ran');
    term.type('y');
    await term.waitForText('ran (exit 0, truncated false): asked-and-ran', 20000);
  });

  ptyTest("routes the agent's session/request_permission to the operator in the terminal", PTY_TEST_TIMEOUT, async (sb) => {
    const term = await operatorAsked(sb, 'ask', '', 'acp:edit');
    await term.waitForText('edit notes.txt');
    term.type('y');
    await term.waitForText('permission: yes', 20000);
  });
});

/** Adds lines to [risk_profiles.lead] of the sandbox's config. */
function addToProfile(dir: string, lines: string): void {
  const path = join(dir, '.arbor', 'config.toml');
  writeFileSync(path, readFileSync(path, 'utf8').replace('[risk_profiles.lead]\n', `[risk_profiles.lead]\n${lines}\n`));
}

/** Adds lines to [agents.main] of the sandbox's config (written by withModel). */
function writeConfigAgentExtra(dir: string, lines: string): void {
  const path = join(dir, '.arbor', 'config.toml');
  const text = readFileSync(path, 'utf8').replace('[agents.main]\nprovider = "fake"\n', `[agents.main]\nprovider = "fake"\n${lines}\n`);
  writeFileSync(path, text);
}
