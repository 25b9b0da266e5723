// A saved session's tree after the fact (issue 27): a three-level tree run headless, then
// `arbor export` of it by id prefix as the built CLI in both formats (every field the
// issue lists, 0600, secrets scrubbed), and the ledger after --resume (the card's Observed
// section and /subagents info).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect } from 'vitest';
import type { LoopbackIncoming, LoopbackReply } from '../support/loopbackModel.js';
import { disposeAllTerminals } from '../support/terminal.js';
import { PTY_TEST_TIMEOUT, send, ptyTest, type Sandbox } from './sandbox.js';

afterEach(async () => {
  await disposeAllTerminals();
});

const SECRET = 'sk-live1234567890abcdefXYZ';
const toolResults = (body: any) => (body.messages ?? []).filter((m: any) => m.role === 'tool');
const firstUser = (body: any): string => {
  const m = (body.messages ?? []).find((x: any) => x.role === 'user');
  return typeof m?.content === 'string' ? m.content : (m?.content ?? []).map((p: any) => p.text ?? '').join('');
};

/** go → main delegates "level two" to worker → worker delegates "level three" to helper →
 * helper runs `false` and answers with a key. */
function threeLevels({ body }: LoopbackIncoming): LoopbackReply {
  const task = firstUser(body);
  const done = toolResults(body).length > 0;
  if (task === 'level three')
    return done
      ? { kind: 'text', chunks: [`I fixed it with key ${SECRET}`] }
      : { kind: 'tools', calls: [{ id: 'sh', name: 'shell', args: { command: 'false' } }] };
  if (task === 'level two')
    return done
      ? { kind: 'text', chunks: ['level two done, config updated'] }
      : { kind: 'tools', calls: [{ id: 'd2', name: 'delegate', args: { agent: 'helper', prompt: 'level three' } }] };
  return done
    ? { kind: 'text', chunks: ['root done'] }
    : { kind: 'tools', calls: [{ id: 'd1', name: 'delegate', args: { agent: 'worker', prompt: 'level two' } }] };
}

const agentTable = (alias: string) => `
[agents.${alias}]
provider = "fake"
risk_profile = "trusted"
runtime_profile = "deep"
delegate_same_risk_profile = true
`;

const EXTRA = `risk_profile = "trusted"
runtime_profile = "deep"
delegate_same_risk_profile = true
${agentTable('worker')}${agentTable('helper')}
[risk_profiles.trusted]
delegation_policy = { mode = "allow" }

[runtime_profiles.deep]
agentic = true
max_delegation_depth = 3

[delegation]
subagent_approvals = "allow"
`;

/** Runs the three-level tree headless (-p go) and returns the id of the session it saved. */
async function savedTree(sb: Sandbox): Promise<string> {
  const { writeConfig, fakeProviderConfig } = await import('../support/tempHome.js');
  const model = await sb.withModel(threeLevels);
  writeConfig(sb.h.dir, fakeProviderConfig(model.url, 'fake-model', EXTRA));
  const run = await sb.arbor(['-p', 'go']);
  expect(run.stdout).toContain('root done');
  return readdirSync(join(sb.h.home, 'sessions'))
    .filter((f) => f.endsWith('.jsonl'))[0]
    .replace(/\.jsonl$/, '');
}

describe('arbor export', () => {
  ptyTest('writes a saved three-level tree as JSON and Markdown: every field, 0600, secrets scrubbed', PTY_TEST_TIMEOUT, async (sb) => {
    const id = await savedTree(sb);

    const out = join(sb.h.dir, 'tree.json');
    const json = await sb.arbor(['export', id.slice(0, 8), '--format', 'json', '-o', out]);
    expect(json.stderr).toBe('');
    expect(json.code).toBe(0);
    expect(json.stdout).toContain(`Tree exported to ${out} (3 runs).`);
    expect(statSync(out).mode & 0o777).toBe(0o600);
    const text = readFileSync(out, 'utf8');
    expect(text).not.toContain(SECRET);
    const rep = JSON.parse(text);
    expect(rep.session).toBe(id);
    expect(rep.runs).toHaveLength(3);
    const [root, two, three] = rep.runs;
    for (const r of rep.runs) {
      for (const key of ['number', 'label', 'parent', 'agent', 'model', 'task', 'status', 'startedAt', 'endedAt', 'activeSecs'])
        expect(r).toHaveProperty(key);
      for (const key of ['tokensIn', 'tokensOut', 'costUsd', 'observed', 'approvals', 'answer', 'answerCut', 'subtree'])
        expect(r).toHaveProperty(key);
      expect(r.model).toBe('openai-compatible/fake-model');
      expect(r.status).toBe('completed');
      expect(Date.parse(r.startedAt)).toBeLessThanOrEqual(Date.parse(r.endedAt));
    }
    expect([root.number, two.number, three.number]).toEqual([1, 2, 3]);
    expect(root.parent).toBeNull();
    expect(two.parent).toBe(root.label);
    expect(three.parent).toBe(two.label);
    expect([root.task, two.task, three.task]).toEqual(['go', 'level two', 'level three']);
    expect(three.observed.commands).toEqual([
      { command: 'false', ending: 'exit 1', exitCode: 1, durationMs: expect.any(Number), observed: 'outside_git' },
    ]);
    expect(three.observed.flags.map((f: any) => f.flag)).toEqual(['claims changes, none observed', 'last command failed (exit 1)']);
    expect(three.answer).toBe('I fixed it with key [redacted]');
    expect(two.observed.flags.map((f: any) => f.flag)).toEqual(['claims changes, none observed']);
    expect(root.subtree).toMatchObject({ runs: 3, commands: 1, failedCommands: 1, toolCalls: 3 });
    expect(root.subtree.tokensIn).toBe(root.tokensIn + two.tokensIn + three.tokensIn);

    // Markdown to the default path, by the full id.
    const md = await sb.arbor(['export', id]);
    expect(md.code).toBe(0);
    const mdPath = join(sb.h.home, 'exports', `${id}-tree.md`);
    expect(statSync(mdPath).mode & 0o777).toBe(0o600);
    const mdText = readFileSync(mdPath, 'utf8');
    expect(mdText).not.toContain(SECRET);
    expect(mdText).toContain(`# arbor session ${id}: run tree`);
    for (const heading of ['## 1. ', '## 2. ', '## 3. ', '### Task', '### Commands', '### Flags', '### Answer'])
      expect(mdText).toContain(heading);
    expect(mdText).toContain('- model: openai-compatible/fake-model');
    expect(mdText).toContain('`false` → exit 1');
    expect(mdText).toContain('⚠ last command failed (exit 1)');
    expect(mdText).toMatch(
      /- subtree: 3 runs · \d+ in \/ \d+ out · \$\d+\.\d{4} · 3 tool calls · 0 files \+0 -0 · 1 commands \(1 failed\)/,
    );

    // Bad input is named.
    const bad = await sb.arbor(['export', id, '--format', 'xml']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('xml');
  });
});

describe('the ledger after --resume', () => {
  ptyTest('the card keeps its Observed section and /subagents info shows it', PTY_TEST_TIMEOUT, async (sb) => {
    const id = await savedTree(sb);
    const term = await sb.startArbor(['--resume', id], { cols: 140, rows: 40 });
    // The restored card of the root's delegate call keeps its child's flag, and expanded
    // (the transcript viewer) its Observed section: the worker's subtree as recorded.
    await term.waitForText(/restored · ⚠ claims changes, none observed/);
    term.press('ctrl-o');
    await term.waitForText('root done', 5000, { where: 'screen' });
    term.press('up');
    term.press('enter');
    await term.waitForText(/Observed/);
    await term.waitForText(/2 tool calls \(1 failed\) · no files changed · 1 command, 1 failed \(false → exit 1\)/);
    await term.waitForText(/⚠ claims changes, none observed: its answer says "updated"/);
    term.press('ctrl-o');
    await term.waitForText('Type a message', 5000, { where: 'screen' });
    // /subagents info of the worker (restored, by its stable name) shows its ledger.
    await send(term, '/subagents info worker#1');
    await term.waitForText(
      /observed \(with children\):\s+2 tool calls \(1 failed\) · no files changed · 1 command, 1 failed \(false → exit 1\)/,
    );
    await term.waitForText(/flags:\s+⚠ claims changes, none observed/);
  });
});
