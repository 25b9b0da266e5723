import { describe, expect, it } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  DEPTH_CAP_REFUSAL,
  EMPTY_OUTPUT,
  MISSING_PROMPT,
  profileGateRefusal,
  spawnSubagentTool,
} from '../../../src/tools/spawnSubagent.js';
import { defaultRiskProfile, defaultRuntimeProfile } from '../../../src/config/defaults.js';
import type { ToolCaller, ToolContext } from '../../../src/tools/types.js';
import { baseToml, calls, firstUserText, makeFixture, text, toolMessages, type Fixture } from '../../helpers/runtimeFixture.js';
import { spawnOne, spawnScript, toolThenAnswer } from '../support/spawnScript.js';
import { messagesWithRole } from '../../support/wireRequest.js';

let fx: Fixture | undefined;

/** A child's call that would ask an operator. */
const WRITE_X = calls({ id: 'w1', name: 'write_file', args: { path: 'x.txt', content: 'hi' } });

function callerWith(overrides: Partial<ToolCaller> = {}): ToolCaller {
  return {
    alias: 'main',
    risk: defaultRiskProfile('default'),
    runtime: defaultRuntimeProfile('default'),
    isSubagent: false,
    delegationDepth: 0,
    delegationDepthLimit: 3,
    callerChain: ['main'],
    ...overrides,
  };
}

function ctxFor(caller: ToolCaller): ToolContext {
  return {
    runId: 'r',
    toolCallId: 'c',
    signal: new AbortController().signal,
    caller,
    config: {} as never,
    cwd: '/',
    tracker: { recordAction: () => undefined, recordCostUsd: () => {}, costExceeded: () => undefined },
    services: {
      spawnRefusal: () => undefined,
      runSubagent: async () => ({ status: 'completed', text: '' }),
    },
  };
}

describe('spawn_subagent guards (order and exact strings)', () => {
  it('empty or missing prompt', async () => {
    expect((await spawnSubagentTool.run({}, ctxFor(callerWith()))).error).toBe(MISSING_PROMPT);
    expect((await spawnSubagentTool.run({ prompt: '   ' }, ctxFor(callerWith()))).error).toBe("Missing or empty 'prompt' parameter");
  });

  it('empty prompt is checked before the depth-1 cap', async () => {
    const r = await spawnSubagentTool.run({ prompt: '' }, ctxFor(callerWith({ isSubagent: true })));
    expect(r.error).toBe(MISSING_PROMPT);
  });

  it('depth-1 cap is checked before the profile gate', async () => {
    const risk = { ...defaultRiskProfile('x'), deny_all_tools: true };
    const r = await spawnSubagentTool.run({ prompt: 'go' }, ctxFor(callerWith({ isSubagent: true, risk })));
    expect(r.error).toBe('spawn_subagent: a subagent may not spawn its own subagents (depth-1 cap)');
    expect(r.error).toBe(DEPTH_CAP_REFUSAL);
  });

  it('risk-profile gate names the parent alias (allowed_tools, excluded_tools, deny_all)', async () => {
    const expected = "spawn_subagent: refused: agent 'main' risk_profile does not list spawn_subagent in allowed_tools";
    for (const patch of [{ allowed_tools: ['read_file'] }, { excluded_tools: ['spawn_subagent'] }, { deny_all_tools: true }]) {
      const risk = { ...defaultRiskProfile('x'), ...patch };
      const r = await spawnSubagentTool.run({ prompt: 'go' }, ctxFor(callerWith({ risk })));
      expect(r.error).toBe(expected);
    }
    expect(profileGateRefusal('main')).toBe(expected);
    // an empty allowed_tools is not deny-all
    const r = await spawnSubagentTool.run(
      { prompt: 'go' },
      ctxFor(callerWith({ risk: { ...defaultRiskProfile('x'), allowed_tools: [] } })),
    );
    expect(r).toEqual({ success: true, output: EMPTY_OUTPUT, display: { kind: 'spawn', answer: EMPTY_OUTPUT } });
  });

  it('wraps build and run failures', async () => {
    const ctx = ctxFor(callerWith());
    ctx.services!.runSubagent = async () => {
      throw new Error("unknown agent alias 'ghost'");
    };
    expect((await spawnSubagentTool.run({ prompt: 'go' }, ctx)).error).toBe("subagent spawn failed: unknown agent alias 'ghost'");
    ctx.services!.runSubagent = async () => ({ status: 'failed', text: '', error: 'model exploded' });
    expect((await spawnSubagentTool.run({ prompt: 'go' }, ctx)).error).toBe('subagent run failed: model exploded');
  });
});

describe('spawn_subagent through the runtime (loopback model)', () => {
  it('runs a child with a fresh history and returns its final text to the parent', async () => {
    fx = await makeFixture({
      respond: spawnOne('child task', () => text('child answer'), 'parent done', 'call_1'),
    });
    await fx.runtime.startTurn('please delegate');
    const s = fx.runtime.store.getState();
    const child = s.runs.values().find((r) => r.kind === 'subagent')!;
    expect(child).toMatchObject({ status: 'completed', parentToolCallId: 'call_1', depth: 1, alias: 'main', result: 'child answer' });
    expect(child.sessionKey).toMatch(/^subagent-[0-9a-f-]{36}$/);
    // the child's request held only its own prompt: no parent history
    const childReq = fx.server.requests.find((r) => firstUserText(r.body) === 'child task')!;
    expect(messagesWithRole(childReq.body, 'user')).toHaveLength(1);
    // the parent got the child's text as the tool result, keyed to its call
    const last = fx.server.requests.at(-1)!.body;
    expect(toolMessages(last)).toEqual([{ tool_call_id: 'call_1', content: 'child answer' }]);
    // child turns never enter the parent's history
    expect(fx.runtime.history.some((m) => m.role === 'user' && m.content === 'child task')).toBe(false);
    expect(s.runTranscripts.get(child.id)!.some((i) => i.kind === 'assistant' && i.text === 'child answer')).toBe(true);
  });

  it('an empty child answer becomes the literal placeholder', async () => {
    fx = await makeFixture({
      respond: spawnOne('quiet', () => ({ kind: 'text', chunks: [] }), 'ok', 'c1'),
    });
    await fx.runtime.startTurn('go');
    expect(toolMessages(fx.server.requests.at(-1)!.body)[0].content).toBe('subagent completed without output');
  });

  it('a child may not spawn (depth-1 cap reaches the child model)', async () => {
    fx = await makeFixture({
      respond: spawnOne(
        'nested',
        toolThenAnswer(calls({ id: 'n1', name: 'spawn_subagent', args: { prompt: 'grandchild' } }), 'child gave up'),
        'root done',
        'r1',
      ),
    });
    await fx.runtime.startTurn('go');
    const childSecond = fx.server.requests.find((r) => firstUserText(r.body) === 'nested' && toolMessages(r.body).length)!;
    expect(toolMessages(childSecond.body)[0].content).toBe(DEPTH_CAP_REFUSAL);
    expect(
      fx.runtime.store
        .getState()
        .runs.values()
        .filter((r) => r.kind === 'subagent'),
    ).toHaveLength(1);
  });

  it('parallel spawns return each result to its own call; identical prompts both run', async () => {
    fx = await makeFixture({
      toml: (u) => baseToml(u, '[runtime_profiles.default]\nparallel_tools = true\n'),
      respond: spawnScript({
        prompts: ['part A', 'part B', 'part B'],
        child: (part) => text(`answer for ${part}`, 30),
        done: 'summary',
        id: (i) => 'abc'[i],
      }),
    });
    await fx.runtime.startTurn('fan out');
    const results = toolMessages(fx.server.requests.at(-1)!.body);
    expect(results).toEqual([
      { tool_call_id: 'a', content: 'answer for part A' },
      { tool_call_id: 'b', content: 'answer for part B' },
      { tool_call_id: 'c', content: 'answer for part B' },
    ]);
    const children = fx.runtime.store
      .getState()
      .runs.values()
      .filter((r) => r.kind === 'subagent');
    expect(children.map((c) => c.parentToolCallId).sort()).toEqual(['a', 'b', 'c']);
  });

  it('the duplicate-call guard skips a repeated identical call, but not spawn_subagent', async () => {
    fx = await makeFixture({
      respond: ({ body }) => {
        if (firstUserText(body) === 'same') return text('child');
        if (toolMessages(body).length) return text('done');
        return calls(
          { id: 'l1', name: 'list_files', args: { path: '.' } },
          { id: 'l2', name: 'list_files', args: { path: '.' } },
          { id: 's1', name: 'spawn_subagent', args: { prompt: 'same' } },
          { id: 's2', name: 'spawn_subagent', args: { prompt: 'same' } },
        );
      },
    });
    await fx.runtime.startTurn('go');
    const results = toolMessages(fx.server.requests.at(-1)!.body);
    expect(results[1].content).toMatch(/^Skipped: 'list_files' was already called with identical arguments/);
    expect(results[2].content).toBe('child');
    expect(results[3].content).toBe('child');
  });

  it('a child has no operator: a call that would ask is denied and the child reads why', async () => {
    fx = await makeFixture({
      respond: spawnOne('write it', toolThenAnswer(WRITE_X, 'could not write'), 'done', 'p1'),
      runtime: { interactive: true },
    });
    await fx.runtime.startTurn('go');
    const childSecond = fx.server.requests.find((r) => firstUserText(r.body) === 'write it' && toolMessages(r.body).length)!;
    expect(toolMessages(childSecond.body)[0].content).toMatch(/write_file.*no operator|operator.*write_file/i);
    expect(existsSync(join(fx.workdir, 'x.txt'))).toBe(false);
    const child = fx.runtime.store
      .getState()
      .runs.values()
      .find((r) => r.kind === 'subagent')!;
    expect(
      fx.runtime.store
        .getState()
        .runTranscripts.get(child.id)!
        .find((i) => i.kind === 'tool'),
    ).toMatchObject({ status: 'denied' });
    expect(fx.runtime.store.getState().controls.approvals).toHaveLength(0);
  });

  it('subagent_auto_approve = true lets the child run it', async () => {
    fx = await makeFixture({
      toml: (u) => baseToml(u, '[delegation]\nsubagent_auto_approve = true\n'),
      respond: spawnOne('write it', toolThenAnswer(WRITE_X, 'wrote'), 'done', 'p1'),
    });
    await fx.runtime.startTurn('go');
    expect(readFileSync(join(fx.workdir, 'x.txt'), 'utf8')).toBe('hi');
  });

  it('parent and child share the hourly action budget', async () => {
    fx = await makeFixture({
      toml: (u) => baseToml(u, '[risk_profiles.default]\nmax_actions_per_hour = 2\n'),
      respond: ({ body }) => {
        if (firstUserText(body) === 'read twice') {
          if (toolMessages(body).length) return text('child done');
          return calls({ id: 'c1', name: 'list_files', args: { path: '.' } }, { id: 'c2', name: 'read_file', args: { path: 'nope.txt' } });
        }
        if (toolMessages(body).length) return text('root done');
        return calls({ id: 'r1', name: 'list_files', args: {} }, { id: 'r2', name: 'spawn_subagent', args: { prompt: 'read twice' } });
      },
    });
    await fx.runtime.startTurn('go');
    const childSecond = fx.server.requests.find((r) => firstUserText(r.body) === 'read twice' && toolMessages(r.body).length)!;
    const [first, second] = toolMessages(childSecond.body);
    expect(first.content).not.toMatch(/max_actions_per_hour/);
    expect(second.content).toMatch(/max_actions_per_hour/);
  });
});

describe('subagent overrides may only narrow', () => {
  it('accepts equal or narrower policies and rejects an escalation naming the field', async () => {
    fx = await makeFixture({ respond: () => text('x') });
    const sup = fx.runtime.supervisor;
    const parent = sup.rootCaller('main');
    expect(sup.buildSubagentCaller(parent).isSubagent).toBe(true);
    const narrower = { ...parent.risk, max_actions_per_hour: 5, excluded_tools: ['shell'] };
    expect(sup.buildSubagentCaller(parent, { risk: narrower }).risk.max_actions_per_hour).toBe(5);
    expect(() => sup.buildSubagentCaller(parent, { risk: { ...parent.risk, allowed_roots: ['/'] } })).toThrow(
      /override escalates allowed_roots: /,
    );
    expect(() => sup.buildSubagentCaller(parent, { shell_timeout_secs: parent.runtime.shell_timeout_secs + 1 })).toThrow(
      /shell_timeout_secs/,
    );
    const limited = { ...parent, risk: { ...parent.risk, max_actions_per_hour: 10 } };
    expect(() => sup.buildSubagentCaller(limited, { risk: { ...limited.risk, max_actions_per_hour: 0 } })).toThrow(
      /override escalates max_actions_per_hour/,
    );
  });
});
