// Every card rule, on what Ink draws: envelope first, parallel blocks, generic fallbacks,
// display limits, missing results, restored cards, binding by parentToolCallId only.
import React from 'react';
import { afterEach, beforeEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { cleanup, render } from 'ink-testing-library';
import { setLanguage } from '../../../src/i18n/index.js';
import { addRun, createRuntimeStore, patchRun, setRunStatus, toolFinished, toolStarted } from '../../../src/runtime/store.js';
import type { ToolTranscriptItem } from '../../../src/runtime/types.js';
import { renderParallel } from '../../../src/tools/delegate/format.js';
import { backgroundStarted, syncEnvelope } from '../../../src/tools/delegate/strings.js';
import { EMPTY_OUTPUT } from '../../../src/tools/spawnSubagent.js';
import { collapsedLines, expandedLines, type CardView } from '../../../src/ui/cards/cardLines.js';
import { FIELD_MAX_BYTES, FIELD_MAX_LINES } from '../../../src/ui/cards/limits.js';
import { cardModel } from '../../../src/ui/cards/model.js';
import { registerTranscriptCards } from '../../../src/ui/cards/register.js';
import { RuntimeStoreContext } from '../../../src/ui/runtimeStoreContext.js';
import type { RuntimeStore } from '../../../src/runtime/store.js';
import { renderToolItem, toolItemHeight } from '../../../src/ui/components/renderToolItem.js';
import { advanceClock, plain, waitFor, waitOnClock } from '../harness.js';
import { renderSettled } from '../settle.js';
import { childRun, drawn, text, toolItem } from './fixtures.js';

beforeEach(() => setLanguage('en'));
afterEach(() => {
  cleanup();
});

function view(item: ToolTranscriptItem, patch: Partial<CardView> = {}): CardView {
  const model = cardModel(item);
  if (!model) throw new Error(`no card for ${item.name}`);
  return { item, model, runs: [], width: 100, frame: 0, now: Date.now(), ...patch };
}

const expanded = (item: ToolTranscriptItem, patch: Partial<CardView> = {}) => drawn(expandedLines(view(item, patch)));
const collapsed = (item: ToolTranscriptItem, patch: Partial<CardView> = {}) => drawn(collapsedLines(view(item, patch)));

/** What the chat draws for a call through the tool-card dispatch. */
function chat(item: ToolTranscriptItem, width = 100, store?: RuntimeStore): string {
  registerTranscriptCards();
  const r = render(
    <RuntimeStoreContext.Provider value={store}>{renderToolItem(item, { width, frame: 0, live: true })}</RuntimeStoreContext.Provider>,
  );
  const out = plain(r.lastFrame());
  r.unmount();
  return out;
}

describe('collapsed card', () => {
  it('one heading row (glyph, tool, every target, task first line) and one status row', () => {
    const item = toolItem(
      'delegate',
      { parallel: ['reviewer', 'tester'], prompt: 'Review the patch\nin detail' },
      { status: 'running', result: undefined, endedAt: undefined },
    );
    const lines = collapsedLines(view(item));
    expect(lines).toHaveLength(2);
    expect(text(lines).split('\n')[0]).toMatch(/^\S delegate → reviewer, tester · Review the patch$/);
    expect(text(lines)).not.toContain('in detail');
  });

  it('spawn_subagent shows the task; its answer on the status row', () => {
    const item = toolItem('spawn_subagent', { prompt: 'Summarize README' }, { result: 'README explains setup.\nMore.' });
    const out = collapsed(item);
    expect(out).toContain('spawn_subagent · Summarize README');
    expect(out).toContain('└ README explains setup.');
  });

  it('fits any width on exactly two rows', () => {
    const item = toolItem(
      'delegate',
      { agent: 'reviewer', prompt: 'a very long task '.repeat(20) },
      { result: syncEnvelope('reviewer', 'x/y', false, 'answer '.repeat(40)) },
    );
    for (const width of [20, 40, 80]) {
      const out = drawn(collapsedLines(view(item, { width })), width);
      expect(out.split('\n')).toHaveLength(2);
    }
  });
});

describe('expanded card: Task, Response, Details', () => {
  it('a sync envelope puts the answer first under Response and provider/model in Details', () => {
    const item = toolItem(
      'delegate',
      { agent: 'reviewer', prompt: 'Review the patch', context: 'The diff is in PR 12' },
      {
        result: syncEnvelope('reviewer', 'openai/gpt-4o', true, 'Two bugs found.\n1. off by one'),
      },
    );
    const out = expanded(item);
    const order = [
      'Task',
      'Review the patch',
      'Input',
      'context: The diff is in PR 12',
      'Response',
      'Two bugs found.',
      '1. off by one',
      'Details',
      'reviewer: openai/gpt-4o, agentic',
    ];
    let at = -1;
    for (const piece of order) {
      const next = out.indexOf(piece, at + 1);
      expect(next, `"${piece}" after position ${at}\n${out}`).toBeGreaterThan(at);
      at = next;
    }
    // The header line itself is not shown as part of the answer.
    expect(out).not.toContain("[Agent 'reviewer'");
  });

  it("Details shows the model the child's provider said answered (run.model), beside the configured one in the envelope", () => {
    const item = toolItem('delegate', { agent: 'reviewer', prompt: 'p' }, { result: syncEnvelope('reviewer', 'openai/big', false, 'ok') });
    const run = childRun('child-model', item, { kind: 'delegate', alias: 'reviewer', status: 'completed', model: 'openai/big-2025-06-01' });
    const out = expanded(item, { runs: [run] });
    expect(out).toContain('reviewer: openai/big');
    expect(out).toMatch(/0 out · openai\/big-2025-06-01/);
  });

  it('other result formats are shown intact', () => {
    const failure = "Agent 'reviewer' failed: provider said no";
    const out = expanded(toolItem('delegate', { agent: 'reviewer', prompt: 'p' }, { status: 'error', result: failure }));
    expect(out).toContain(failure);
    const odd = "[Agent 'someone-else' (a/b)]\nnot for this target";
    expect(expanded(toolItem('delegate', { agent: 'reviewer', prompt: 'p' }, { result: odd }))).toContain("[Agent 'someone-else' (a/b)]");
    expect(expanded(toolItem('spawn_subagent', { prompt: 'p' }, { result: EMPTY_OUTPUT }))).toContain(EMPTY_OUTPUT);
  });

  it('a missing response says Result not recorded', () => {
    const item = toolItem('delegate', { agent: 'reviewer', prompt: 'p' }, { result: undefined });
    expect(collapsed(item)).toContain('Result not recorded');
    const out = expanded(item);
    expect(out.slice(out.indexOf('Response'))).toContain('Result not recorded');
    // Still running: nothing is missing yet.
    const running = toolItem('spawn_subagent', { prompt: 'p' }, { status: 'running', result: undefined, endedAt: undefined });
    expect(expanded(running)).not.toContain('Result not recorded');
  });

  it('parallel delegation is one card with one block per target', () => {
    const { text: result } = renderParallel(
      ['reviewer', 'tester'],
      [
        { status: 'completed', text: 'Reviewer answer', label: 'openai/m1', agentic: false },
        { status: 'failed', text: '', error: 'model exploded', label: 'openai/m2', agentic: false },
      ],
    );
    const item = toolItem('delegate', { parallel: ['reviewer', 'tester'], prompt: 'Look' }, { result });
    const out = expanded(item);
    expect(out.match(/delegate → reviewer, tester/g)).toHaveLength(1);
    const rev = out.indexOf('── reviewer (success=true)');
    const tes = out.indexOf('── tester (success=false)');
    expect(rev).toBeGreaterThan(out.indexOf('Response'));
    expect(tes).toBeGreaterThan(rev);
    expect(out.slice(rev, tes)).toContain('Reviewer answer');
    expect(out.slice(tes)).toContain("Agent 'tester' failed: model exploded");
    expect(out).toContain('reviewer: openai/m1');
    expect(out).not.toContain('[Parallel delegation');
  });

  it('a parallel block lost to the retention cap says Result not recorded and why', () => {
    const { text: result } = renderParallel(
      ['a', 'b'],
      [
        { status: 'completed', text: 'z'.repeat(17 * 1024), label: 'x/y', agentic: false },
        { status: 'completed', text: 'second', label: 'x/y', agentic: false },
      ],
    );
    const item = toolItem('delegate', { parallel: ['a', 'b'], prompt: 'p' }, { result: result.slice(0, 16 * 1024) });
    const out = expanded(item);
    expect(out.slice(out.indexOf('── b'))).toContain('Result not recorded');
    expect(out).toContain('16 KiB cap');
  });
});

describe('display limits', () => {
  it(`a field shows at most ${FIELD_MAX_LINES} lines, with a note pointing to Copy`, () => {
    const answer = Array.from({ length: 250 }, (_, i) => `line ${i + 1}`).join('\n');
    const out = expanded(toolItem('spawn_subagent', { prompt: 'p' }, { result: answer }));
    expect(out).toContain(`line ${FIELD_MAX_LINES}\n`);
    expect(out).not.toContain(`line ${FIELD_MAX_LINES + 1}\n`);
    expect(out).toMatch(/display-limited: showing 100 of 250 lines .*press c to copy the full entry/s);
  });

  it('and at most 8 KiB', () => {
    const answer = 'word '.repeat(4000);
    const item = toolItem('spawn_subagent', { prompt: 'p' }, { result: answer });
    const lines = expandedLines(view(item));
    const response = text(lines)
      .split('\n')
      .filter((l) => l.startsWith('    word'));
    const shown = response.join(' ').replace(/\s+/g, ' ').trim().length;
    expect(shown).toBeLessThanOrEqual(FIELD_MAX_BYTES);
    expect(shown).toBeGreaterThan(FIELD_MAX_BYTES - 200);
    expect(drawn(lines)).toContain('display-limited');
  });

  it('short fields carry no note', () => {
    expect(expanded(toolItem('spawn_subagent', { prompt: 'p' }, { result: 'short' }))).not.toContain('display-limited');
  });
});

describe('restored cards', () => {
  it('show the recorded outcome and never claim a running or successful child', () => {
    const item = toolItem('spawn_subagent', { prompt: 'Check logs' }, { restored: true, result: 'Logs are clean.' });
    // A live run that happens to carry the same call id must not be picked up.
    const store = createRuntimeStore('s');
    addRun(store, childRun('aaaaaaaa-1', item, { status: 'running' }));
    const lines = [...collapsedLines(view(item)), ...expandedLines(view(item))];
    const out = drawn(lines);
    expect(out).toContain('restored');
    expect(out).toContain('Logs are clean.');
    expect(out).not.toMatch(/running|completed|succeeded|✓/);
    const chatOut = chat(item, 100, store);
    expect(chatOut).toContain('restored');
    expect(chatOut).not.toMatch(/running|completed|✓/);
  });

  it('a call recorded in flight is not shown as running', () => {
    const item = toolItem('delegate', { agent: 'r', prompt: 'p' }, { restored: true, status: 'running', result: undefined });
    const out = drawn([...collapsedLines(view(item, { frame: 3 })), ...expandedLines(view(item))]);
    expect(out).not.toMatch(/running|in progress|no response yet|[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]/);
    expect(out).toContain('Result not recorded');
  });

  it('recorded failures still read as failures', () => {
    const item = toolItem('delegate', { agent: 'r', prompt: 'p' }, { restored: true, status: 'error', result: "Agent 'r' failed: x" });
    expect(collapsed(item)).toMatch(/✗ delegate → r/);
  });
});

describe('generic fallbacks through the dispatch', () => {
  it('other tools, background launches and management actions keep the generic card', () => {
    const launch = toolItem(
      'delegate',
      { agent: 'reviewer', prompt: 'Long job', background: true },
      { result: backgroundStarted('reviewer', '123e4567-e89b-12d3-a456-426614174000') },
    );
    const out = chat(launch);
    expect(out).toContain('Background task started');
    // Still the generic card (no dedicated model), with the one delegate header form.
    expect(cardModel(launch)).toBeUndefined();
    expect(out).toContain('delegate → reviewer · background · Long job');
    for (const action of ['check_result', 'list_results', 'cancel_task', 'await_sessions']) {
      const item = toolItem('delegate', { action, task_id: '123e4567-e89b-12d3-a456-426614174000' }, { result: '{"status":"completed"}' });
      expect(chat(item), action).not.toContain('→');
      expect(chat(item), action).toContain(`delegate ${action} · 123e4567-e89b-12d3-a456-426614174000`);
      expect(toolItemHeight(item, { width: 80, frame: 0, live: true })).toBe(2);
    }
    expect(chat(toolItem('shell', { command: 'ls' }, { result: 'a\nb' }))).toMatch(/shell ls\n.*└ a/);
  });

  it('malformed or oversized arguments fall back too', () => {
    const bad = toolItem('spawn_subagent', undefined, { rawArgs: '{"prompt": "unterminated', status: 'error', result: 'bad arguments' });
    expect(chat(bad)).toContain('spawn_subagent');
    expect(chat(bad)).toContain('bad arguments');
    const big = toolItem('spawn_subagent', { prompt: 'y'.repeat(70 * 1024) }, { result: 'done' });
    expect(cardModel(big)).toBeUndefined();
    expect(chat(big)).not.toContain('·');
  });

  it('a dedicated card is always two rows high in the live region', () => {
    registerTranscriptCards();
    const item = toolItem('spawn_subagent', { prompt: 'p' }, { result: undefined, status: 'running' });
    expect(toolItemHeight(item, { width: 80, frame: 0, live: true })).toBe(2);
  });
});

describe('live binding', () => {
  it('binds through parentToolCallId only, and updates while the child runs', async () => {
    const store = createRuntimeStore('s');
    registerTranscriptCards();
    const item = toolItem('spawn_subagent', { prompt: 'Count the files' }, { status: 'running', result: undefined, endedAt: undefined });
    // Same task, same alias, same parent: but started by another call. Not this card's child.
    addRun(
      store,
      childRun('decoy-0001', item, { parentToolCallId: 'other-call', task: 'Count the files', status: 'running', iterations: 9 }),
    );
    // Same call id, but in another run's transcript (call ids can repeat across turns).
    addRun(store, childRun('decoy-0002', item, { parentRunId: 'another-root', status: 'running', iterations: 8 }));
    const r = render(
      <RuntimeStoreContext.Provider value={store}>
        {renderToolItem(item, { width: 100, frame: 0, live: true })}
      </RuntimeStoreContext.Provider>,
    );
    expect(plain(r.lastFrame())).not.toMatch(/iter [89]/);
    expect(plain(r.lastFrame())).toContain('call in progress');

    addRun(store, childRun('child-0001', item, { status: 'queued', queuePosition: 2, startedAt: undefined }));
    await waitFor(() => expect(plain(r.lastFrame())).toContain('queued #2'));
    setRunStatus(store, 'child-0001', 'running');
    patchRun(store, 'child-0001', { iterations: 3, tokensIn: 1500, tokensOut: 200 });
    toolStarted(store, 'child-0001', 'list_files');
    await waitFor(() => expect(plain(r.lastFrame())).toMatch(/running \ds · iter 3 · ▸ list_files · 1\.7k tok/));
    toolFinished(store, 'child-0001', 'list_files', Date.now() - 10, true);
    await waitFor(() => expect(plain(r.lastFrame())).toContain('1 tool done'));
    setRunStatus(store, 'child-0001', 'awaiting_approval');
    await waitFor(() => expect(plain(r.lastFrame())).toContain('awaiting approval'));
    setRunStatus(store, 'child-0001', 'paused');
    await waitFor(() => expect(plain(r.lastFrame())).toContain('paused'));
    setRunStatus(store, 'child-0001', 'running');
    setRunStatus(store, 'child-0001', 'completed', { result: 'There are 12 files.' });
    await waitFor(() => expect(plain(r.lastFrame())).toMatch(/completed \ds/));
    r.unmount();

    // Once the call returns, the card states the child's outcome and its answer.
    const done = { ...item, status: 'ok' as const, result: 'There are 12 files.', endedAt: Date.now() };
    const out = chat(done, 100, store);
    expect(out).toMatch(/✓ spawn_subagent/);
    expect(out).toContain('completed');
    expect(out).toContain('There are 12 files.');
    expect(drawn(expandedLines(view(done, { runs: [store.getState().runs.get('child-0001')!] })))).toMatch(
      /child main#3 · run child-00 · completed[\s\S]*started \d\d:\d\d:\d\d · ended \d\d:\d\d:\d\d/,
    );
  });

  it('refreshes at most ~10 times a second, not on every store update', async () => {
    const store = createRuntimeStore('s');
    registerTranscriptCards();
    const item = toolItem('spawn_subagent', { prompt: 'p' }, { status: 'running', result: undefined, endedAt: undefined });
    addRun(store, childRun('child-0002', item));
    const r = await renderSettled(
      <RuntimeStoreContext.Provider value={store}>
        {renderToolItem(item, { width: 100, frame: 0, live: true })}
      </RuntimeStoreContext.Provider>,
    );
    // The throttle's clock is a fake one: 200 updates over 100 ms of it, however slow the machine.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    onTestFinished(() => void vi.useRealTimers());
    const before = r.frames.length;
    for (let i = 1; i <= 200; i++) {
      patchRun(store, 'child-0002', { tokensOut: i });
      if (i % 20 === 0) await advanceClock(10);
    }
    await waitOnClock(() => expect(plain(r.lastFrame())).toContain('200 tok'), 10);
    const redraws = r.frames.length - before;
    expect(redraws).toBeGreaterThan(0);
    expect(redraws).toBeLessThan(10);
    expect(plain(r.lastFrame())).toContain('200 tok');
    r.unmount();
  });

  it('a parallel card shows each child on the status row', async () => {
    const store = createRuntimeStore('s');
    registerTranscriptCards();
    const item = toolItem(
      'delegate',
      { parallel: ['reviewer', 'tester'], prompt: 'p' },
      { status: 'running', result: undefined, endedAt: undefined },
    );
    addRun(store, childRun('rev-00001', item, { kind: 'delegate', alias: 'reviewer' }));
    addRun(
      store,
      childRun('tes-00001', item, { kind: 'delegate', alias: 'tester', status: 'queued', queuePosition: 1, startedAt: undefined }),
    );
    toolStarted(store, 'rev-00001', 'read_file');
    const r = render(
      <RuntimeStoreContext.Provider value={store}>
        {renderToolItem(item, { width: 120, frame: 0, live: true })}
      </RuntimeStoreContext.Provider>,
    );
    await waitFor(() => expect(plain(r.lastFrame())).toMatch(/reviewer#1 running \ds ▸ read_file │ tester#2 queued #1/));
    r.unmount();
  });
});

describe('a refused delegate call', () => {
  const refusal =
    'delegation is forbidden for caller "main" by risk profile "default" delegation_policy; set [risk_profiles.default].delegation_policy mode = "allow"';

  it('wraps the reason on the card instead of cutting the remedy, and budgets the rows it takes', () => {
    const item = toolItem('delegate', { agent: 'researcher', prompt: 'dig into Y' }, { status: 'error', result: refusal });
    const out = chat(item, 80);
    const flat = out.replace(/\n\s*/g, ' ');
    expect(flat).toContain('set [risk_profiles.default].delegation_policy mode = "allow"');
    expect(out).not.toContain('dele…');
    const rows = out.split('\n').filter((l) => l.trim() !== '');
    expect(toolItemHeight(item, { width: 80, frame: 0, live: true })).toBe(rows.length);
    for (const r of rows) expect(r.length).toBeLessThanOrEqual(80);
    // A short reason keeps the two-row card.
    const short = toolItem('delegate', { agent: 'r', prompt: 'p' }, { status: 'error', result: 'no agent named "r"' });
    expect(toolItemHeight(short, { width: 80, frame: 0, live: true })).toBe(2);
  });
});
