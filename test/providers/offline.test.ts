import type { DelegateTargetDisplay, ToolDisplay } from '../../src/model/toolDisplay.js';
import { describe, expect, it } from 'vitest';
import { createProvider } from '../../src/providers/createProvider.js';
import { parseRoster, delegateRoster, pickDelegateTarget } from '../../src/providers/offlineRoster.js';
import {
  ProviderError,
  type ModelMessage,
  type ModelProvider,
  type StreamEvent,
  type ToolCallRequest,
  type ToolSpec,
} from '../../src/providers/types.js';
import { drain } from './streamHelpers.js';

const spawnTool: ToolSpec = {
  name: 'spawn_subagent',
  description: 'Run a subtask',
  parameters: { type: 'object', properties: { prompt: { type: 'string' } }, required: ['prompt'] },
};

const delegateTool = (roster: string): ToolSpec => ({
  name: 'delegate',
  description: 'Hand work to another agent',
  parameters: {
    type: 'object',
    properties: {
      action: { type: 'string' },
      agent: { type: 'string', description: roster },
      prompt: { type: 'string' },
    },
  },
});

const ROSTER = 'Agent to delegate to. Reachable agents:\n- main: General assistant\n- researcher: Finds things\n- reviewer: Reviews plans';
const ALL_TOOLS = [spawnTool, delegateTool(ROSTER)];
const SYSTEM: ModelMessage = { role: 'system', content: 'You are main, a helpful assistant.' };

function offline(env: Record<string, string> = {}): ModelProvider {
  return createProvider(
    { name: 'offline', type: 'offline', model: 'offline', headers: {} },
    { ARBOR_OFFLINE_DELAY_MS: '0', ARBOR_OFFLINE_CHILD_DELAY_MS: '0', ...env },
  );
}

const calls = (events: StreamEvent[]): ToolCallRequest[] => events.flatMap((e) => (e.type === 'tool_call' ? [e.call] : []));
const user = (content: string): ModelMessage[] => [SYSTEM, { role: 'user', content }];
/** What a child is sent: its own system prompt and its task, nothing before. */
const asAgent = (system: string, task: string): ModelMessage[] => [
  { role: 'system', content: system },
  { role: 'user', content: task },
];
/** A child's answer to `task`, offered no tools. */
const childAnswer = (provider: ModelProvider, system: string, task: string) =>
  drain(provider, { messages: asAgent(system, task), tools: [] });

/** A delegate result's display, as the delegate tool gives it beside its text. */
function delegated(targets: DelegateTargetDisplay[], flags: { parallel?: boolean; background?: boolean } = {}): ToolDisplay {
  return { kind: 'delegate', action: 'delegate', ...flags, targets };
}

/** A parallel delegation to researcher and reviewer: the calls the model made for it, and
 * its summary once the result came back: the delegate tool's text (its header, then
 * `sections`, one a target) with `targets` in its display. */
async function parallelDelegation(sections: string[], targets: DelegateTargetDisplay[]) {
  const block = `[Parallel delegation: 2 agents]\n\n${sections.join('\n\n')}`;
  const messages = user('delegate in parallel to researcher, reviewer: compare options');
  const made = calls((await drain(offline(), { messages, tools: ALL_TOOLS })).events);
  const display = delegated(targets, { parallel: true });
  return { made, out: await drain(offline(), { messages: withResults(messages, made, [{ content: block, display }]) }) };
}

/** The history after the offline model's tool calls ran, each with the given result. */
function withResults(
  messages: ModelMessage[],
  made: ToolCallRequest[],
  results: Array<{ content: string; isError?: boolean; display?: ToolDisplay }>,
): ModelMessage[] {
  return [
    ...messages,
    { role: 'assistant', content: '', toolCalls: made },
    ...made.map((c, i) => ({ role: 'tool' as const, toolCallId: c.id, toolName: c.name, ...results[i] })),
  ];
}

describe('offline provider: default reply', () => {
  it('streams a labelled, deterministic reply that echoes the message and explains set-up', async () => {
    const a = await drain(offline(), { messages: user('What is   the capital\nof France?'), tools: ALL_TOOLS });
    const b = await drain(offline(), { messages: user('What is   the capital\nof France?'), tools: ALL_TOOLS });
    expect(a.error).toBeUndefined();
    expect(a.text).toBe(b.text);
    expect(a.text.startsWith('[offline model] You said: "What is the capital of France?"')).toBe(true);
    for (const needle of ['arbor init', '~/.arbor/config.toml', 'OPENAI_API_KEY', 'ANTHROPIC_API_KEY', 'fan out 3:']) {
      expect(a.text).toContain(needle);
    }
    expect(a.events.filter((e) => e.type === 'text').length).toBeGreaterThan(20);
    expect(calls(a.events)).toEqual([]);
    expect(a.events[a.events.length - 1]).toEqual({ type: 'finish', reason: 'stop' });
  });

  it('reports usage of about a token per four characters', async () => {
    const messages = user('x'.repeat(400));
    const out = await drain(offline(), { messages, tools: [] });
    const usage = out.events.find((e) => e.type === 'usage');
    const promptChars = SYSTEM.content.length + 400;
    expect(usage).toEqual({
      type: 'usage',
      usage: { inputTokens: Math.ceil(promptChars / 4), outputTokens: Math.ceil(out.text.length / 4) },
    });
  });

  it('waits the configured delay per word', async () => {
    const started = Date.now();
    const out = await drain(offline({ ARBOR_OFFLINE_DELAY_MS: '4' }), { messages: user('hi'), tools: [] });
    const words = out.events.filter((e) => e.type === 'text').length;
    expect(Date.now() - started).toBeGreaterThanOrEqual(words * 4 * 0.9);
  });

  it('answers a person typing their first message with the default reply, not as a child', async () => {
    const out = await drain(offline(), { messages: user('summarize the repo'), tools: ALL_TOOLS });
    expect(out.text.startsWith('[offline model]')).toBe(true);
  });

  it('stops promptly when aborted mid-reply', async () => {
    const ac = new AbortController();
    let at = 0;
    const out = await drain(offline({ ARBOR_OFFLINE_DELAY_MS: '300' }), { messages: user('hi'), signal: ac.signal }, (e) => {
      if (e.type === 'text' && !at) {
        at = Date.now();
        ac.abort();
      }
    });
    expect(out.error).toBeInstanceOf(ProviderError);
    expect((out.error as ProviderError).kind).toBe('aborted');
    expect(Date.now() - at).toBeLessThan(150);
    expect(out.events.filter((e) => e.type === 'text')).toHaveLength(1);
  });
});

describe('offline provider: fan out', () => {
  it('makes exactly N spawn_subagent calls with numbered prompts', async () => {
    const out = await drain(offline(), { messages: user('fan out 3: summarize each file'), tools: ALL_TOOLS });
    const made = calls(out.events);
    expect(made.map((c) => [c.name, c.args])).toEqual([
      ['spawn_subagent', { prompt: 'summarize each file (part 1 of 3)' }],
      ['spawn_subagent', { prompt: 'summarize each file (part 2 of 3)' }],
      ['spawn_subagent', { prompt: 'summarize each file (part 3 of 3)' }],
    ]);
    expect(new Set(made.map((c) => c.id)).size).toBe(3);
    for (const c of made) expect(JSON.parse(c.rawArgs)).toEqual(c.args);
    expect(out.events[out.events.length - 1]).toEqual({ type: 'finish', reason: 'tool_calls' });
  });

  it('refuses counts outside 1..20 and never calls a tool that is not offered', async () => {
    const tooMany = await drain(offline(), { messages: user('fan out 21: x'), tools: ALL_TOOLS });
    expect(calls(tooMany.events)).toEqual([]);
    expect(tooMany.text).toContain('1 to 20');
    const noTool = await drain(offline(), { messages: user('fan out 2: x'), tools: [delegateTool(ROSTER)] });
    expect(calls(noTool.events)).toEqual([]);
    expect(noTool.text).toContain('spawn_subagent tool is not available');
  });

  it('summarizes the children once their results come back', async () => {
    const messages = user('fan out 3: check links');
    const first = await drain(offline(), { messages, tools: ALL_TOOLS });
    const history = withResults(messages, calls(first.events), [
      { content: 'Done: check links (part 1 of 3)\nmore detail' },
      { content: 'subagent run failed: killed', isError: true },
      { content: 'Done: check links (part 3 of 3)' },
    ]);
    const out = await drain(offline(), { messages: history, tools: ALL_TOOLS });
    expect(calls(out.events)).toEqual([]);
    expect(out.text).toBe(
      '[offline model] Fan-out finished: 2 of 3 succeeded, 1 failed.\n\n' +
        '1. [ok] Done: check links (part 1 of 3)\n' +
        '2. [failed] subagent run failed: killed\n' +
        '3. [ok] Done: check links (part 3 of 3)',
    );
  });

  it('children answer their part after the simulated delay', async () => {
    const started = Date.now();
    const out = await drain(offline({ ARBOR_OFFLINE_CHILD_DELAY_MS: '60' }), {
      messages: user('check links (part 2 of 3)'),
      tools: [spawnTool],
    });
    expect(Date.now() - started).toBeGreaterThanOrEqual(55);
    expect(out.text).toBe('Done: check links (part 2 of 3)');
    expect(calls(out.events)).toEqual([]);
  });

  it('a child stops promptly when aborted during its thinking delay', async () => {
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 20);
    const started = Date.now();
    const out = await drain(offline({ ARBOR_OFFLINE_CHILD_DELAY_MS: '5000' }), {
      messages: user('task (part 1 of 1)'),
      signal: ac.signal,
    });
    expect((out.error as ProviderError).kind).toBe('aborted');
    expect(Date.now() - started).toBeLessThan(500);
  });
});

describe('offline provider: delegate', () => {
  it('delegates in the foreground, then summarizes the answer', async () => {
    const messages = user('delegate to researcher: find the config docs');
    const first = await drain(offline(), { messages, tools: ALL_TOOLS });
    expect(calls(first.events).map((c) => [c.name, c.args])).toEqual([
      ['delegate', { agent: 'researcher', prompt: 'find the config docs' }],
    ]);
    const history = withResults(messages, calls(first.events), [
      {
        content: "[Agent 'researcher' (offline/offline)]\nDone: find the config docs",
        display: delegated([{ target: 'researcher', success: true, label: 'offline/offline', answer: 'Done: find the config docs' }]),
      },
    ]);
    const out = await drain(offline(), { messages: history, tools: ALL_TOOLS });
    expect(out.text).toBe('[offline model] researcher answered: Done: find the config docs');
  });

  it('a refused delegation is summarized with its whole reason: the remedy at its end is kept', async () => {
    const refusal =
      'delegation is forbidden for caller "main" by risk profile "default" delegation_policy; set [risk_profiles.default].delegation_policy mode = "allow"';
    const messages = user('delegate to researcher: dig into Y');
    const first = await drain(offline(), { messages, tools: ALL_TOOLS });
    const history = withResults(messages, calls(first.events), [
      { content: refusal, isError: true, display: delegated([{ target: 'researcher', success: false, error: refusal }]) },
    ]);
    const out = await drain(offline(), { messages: history, tools: ALL_TOOLS });
    expect(out.text).toBe(`[offline model] Delegation to researcher failed: ${refusal}`);
  });

  it('the delegated child answers its task as a child', async () => {
    await drain(offline(), { messages: user('delegate to reviewer: look over plan B'), tools: ALL_TOOLS });
    const child = await childAnswer(offline(), 'You review.', 'look over plan B');
    expect(child.text).toBe('Done: look over plan B');
  });

  it('delegates in parallel and summarizes each block', async () => {
    const sections = [
      "--- researcher (success=true) ---\n[Agent 'researcher' (offline/offline)]",
      '--- reviewer (success=false) ---\nError: timed out',
    ];
    const { made, out } = await parallelDelegation(sections, [
      { target: 'researcher', success: true, label: 'offline/offline', answer: '' },
      { target: 'reviewer', success: false, error: 'timed out' },
    ]);
    expect(made.map((c) => [c.name, c.args])).toEqual([['delegate', { parallel: ['researcher', 'reviewer'], prompt: 'compare options' }]]);
    expect(out.text).toContain('Parallel delegation finished: 1 of 2 agents succeeded, 1 failed.');
    expect(out.text).toContain('1. [ok] researcher');
    expect(out.text).toContain('2. [failed] reviewer: Error: timed out');
  });

  it('delegates in the background and tells how to check the task', async () => {
    const messages = user('delegate in background to researcher: write a report');
    const first = await drain(offline(), { messages, tools: ALL_TOOLS });
    expect(calls(first.events).map((c) => [c.name, c.args])).toEqual([
      ['delegate', { agent: 'researcher', prompt: 'write a report', background: true }],
    ]);
    const id = '0b6f3a52-8c1e-4d5a-9f7e-2a1b3c4d5e6f';
    const launch = `Background task started for agent 'researcher'.\ntask_id: ${id}\nUse action='check_result' with task_id='${id}' to retrieve the result.`;
    const display = delegated([{ target: 'researcher', success: true, taskId: id }], { background: true });
    const out = await drain(offline(), { messages: withResults(messages, calls(first.events), [{ content: launch, display }]) });
    expect(out.text).toContain(id);
    expect(out.text).toContain(`check task ${id}`);
  });

  it('checks a task by id and reports its status', async () => {
    const id = '0b6f3a52-8c1e-4d5a-9f7e-2a1b3c4d5e6f';
    const messages = user(`check task ${id}`);
    const first = await drain(offline(), { messages, tools: ALL_TOOLS });
    expect(calls(first.events).map((c) => [c.name, c.args])).toEqual([['delegate', { action: 'check_result', task_id: id }]]);
    const view = JSON.stringify({ task_id: id, status: 'completed', output: 'The report.\nPage two.' });
    const display: ToolDisplay = {
      kind: 'delegate',
      action: 'check_result',
      taskIds: [id],
      targets: [{ target: 'researcher', success: true, taskId: id, status: 'completed', answer: 'The report.\nPage two.' }],
    };
    const out = await drain(offline(), { messages: withResults(messages, calls(first.events), [{ content: view, display }]) });
    expect(out.text).toBe(`[offline model] Task ${id} is completed. The report.`);
  });

  it('does not delegate when the delegate tool is not offered', async () => {
    const out = await drain(offline(), { messages: user('delegate to researcher: x'), tools: [spawnTool] });
    expect(calls(out.events)).toEqual([]);
    expect(out.text).toContain('delegate tool is not available');
  });
});

describe('offline provider: runaway', () => {
  it('delegates to the first roster agent other than itself and spawns twice', async () => {
    const out = await drain(offline(), { messages: user('runaway: map the codebase'), tools: ALL_TOOLS });
    expect(calls(out.events).map((c) => [c.name, c.args])).toEqual([
      ['delegate', { agent: 'researcher', prompt: 'runaway: map the codebase' }],
      ['spawn_subagent', { prompt: 'runaway: map the codebase' }],
      ['spawn_subagent', { prompt: 'runaway: map the codebase' }],
    ]);
  });

  it('a runaway child keeps spreading with what it is offered, then summarizes', async () => {
    const childMessages = asAgent('You are researcher.', 'runaway: map the codebase');
    const first = await drain(offline(), { messages: childMessages, tools: [delegateTool(ROSTER)] });
    const made = calls(first.events);
    expect(made.map((c) => [c.name, c.args])).toEqual([['delegate', { agent: 'main', prompt: 'runaway: map the codebase' }]]);
    const out = await drain(offline(), { messages: withResults(childMessages, made, [{ content: 'refused', isError: true }]) });
    expect(out.text).toContain('Runaway round finished: 0 of 1 succeeded, 1 failed.');
  });

  it('ends the branch when nothing can be spawned', async () => {
    const out = await drain(offline(), { messages: user('runaway: x'), tools: [] });
    expect(calls(out.events)).toEqual([]);
    expect(out.text).toContain('Runaway branch ends here');
  });
});

describe('offline roster parsing', () => {
  it('reads bullet lists, colon lists, quoted names and enums', () => {
    expect(parseRoster(ROSTER)).toEqual(['main', 'researcher', 'reviewer']);
    expect(
      parseRoster('Alias of the target agent. Reachable agents:\n- researcher (bounded): Finds things\n- sysadmin (independent)'),
    ).toEqual(['researcher', 'sysadmin']);
    expect(parseRoster('Alias of the target agent. No agent is reachable from you, so delegation will be refused.')).toEqual([]);
    expect(parseRoster('Alias of the target agent. Delegation is forbidden for you.')).toEqual([]);
    expect(parseRoster('Available agents: researcher (Finds things), reviewer (Reviews)')).toEqual(['researcher', 'reviewer']);
    expect(parseRoster("Target agent. One of 'alpha', 'beta'.")).toEqual(['alpha', 'beta']);
    expect(parseRoster('* `sysadmin` — runs commands\n* `writer` — writes')).toEqual(['sysadmin', 'writer']);
    const withEnum: ToolSpec = {
      name: 'delegate',
      description: '',
      parameters: { type: 'object', properties: { agent: { type: 'string', enum: ['x1', 'y2'] } } },
    };
    expect(delegateRoster([withEnum])).toEqual(['x1', 'y2']);
    expect(delegateRoster([spawnTool])).toEqual([]);
  });

  it('skips the agent the system prompt names as itself', () => {
    const tools = [delegateTool(ROSTER)];
    expect(pickDelegateTarget(tools, [{ role: 'system', content: 'Your alias is main.' }])).toBe('researcher');
    expect(pickDelegateTarget(tools, [{ role: 'system', content: 'Be brief.' }])).toBe('main');
    expect(pickDelegateTarget([delegateTool('- main: x')], [{ role: 'system', content: 'You are main.' }])).toBe('main');
  });
});

describe('offline provider: everyday fixes', () => {
  it('names the real config path: $ARBOR_HOME/config.toml, or ~/... under the home directory', async () => {
    const elsewhere = await drain(offline({ ARBOR_HOME: '/srv/arbor-state', HOME: '/home/u' }), { messages: user('hi'), tools: [] });
    expect(elsewhere.text).toContain('edit /srv/arbor-state/config.toml');
    expect(elsewhere.text).not.toContain('~/.arbor');
    const home = await drain(offline({ HOME: '/home/u' }), { messages: user('hi'), tools: [] });
    expect(home.text).toContain('edit ~/.arbor/config.toml');
  });

  it('after a runaway turn, a later message in the same conversation gets a normal reply, not "Done: …"', async () => {
    const provider = offline();
    const messages = user('runaway: explore everything');
    const first = await drain(provider, { messages, tools: ALL_TOOLS });
    const made = calls(first.events);
    // The children were handed the same text the user typed.
    expect(made.every((c) => (c.args as { prompt: string }).prompt === 'runaway: explore everything')).toBe(true);
    const after = withResults(
      messages,
      made,
      made.map(() => ({ content: 'stopped', isError: true })),
    );
    const summary = await drain(provider, { messages: after, tools: ALL_TOOLS });
    const later: ModelMessage[] = [...after, { role: 'assistant', content: summary.text }, { role: 'user', content: 'hello again' }];
    const out = await drain(provider, { messages: later, tools: ALL_TOOLS });
    expect(out.text).toContain('[offline model] You said: "hello again"');
    expect(out.text).not.toMatch(/^Done:/);
    // A child given that prompt is still a child.
    const child = await childAnswer(provider, 'You are researcher.', 'write it (part 1 of 2)');
    expect(child.text).toBe('Done: write it (part 1 of 2)');
  });

  it("a parallel delegation's summary gives each target's answer, not its header", async () => {
    const sections = [
      "--- researcher (success=true) ---\n[Agent 'researcher' (offline/offline)]\nOption A is cheaper.",
      "--- reviewer (success=true) ---\n[Agent 'reviewer' (offline/offline)]\nOption B is safer.",
    ];
    const { out } = await parallelDelegation(sections, [
      { target: 'researcher', success: true, label: 'offline/offline', answer: 'Option A is cheaper.' },
      { target: 'reviewer', success: true, label: 'offline/offline', answer: 'Option B is safer.' },
    ]);
    expect(out.text).toContain('1. [ok] researcher: Option A is cheaper.');
    expect(out.text).toContain('2. [ok] reviewer: Option B is safer.');
    expect(out.text).not.toContain("[Agent '");
  });

  it('check task <short id> (as the background notice shows it) checks the full id from the conversation', async () => {
    const id = '0b6f3a52-8c1e-4d5a-9f7e-2a1b3c4d5e6f';
    const launch = `Background task started for agent 'researcher'.\ntask_id: ${id}\nUse action='check_result' with task_id='${id}' to retrieve the result.`;
    const messages: ModelMessage[] = [
      SYSTEM,
      { role: 'user', content: 'delegate in background to researcher: write a report' },
      { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'delegate', args: {}, rawArgs: '{}' }] },
      {
        role: 'tool',
        toolCallId: 'c1',
        toolName: 'delegate',
        content: launch,
        display: delegated([{ target: 'researcher', success: true, taskId: id }], { background: true }),
      },
      { role: 'assistant', content: 'started' },
      { role: 'user', content: 'check task 0b6f3a52' },
    ];
    const out = await drain(offline(), { messages, tools: ALL_TOOLS });
    expect(calls(out.events).map((c) => c.args)).toEqual([{ action: 'check_result', task_id: id }]);
  });
});
