// The cards inside the chat screen: live in the live region while the children run, then
// committed to scrollback, collapsed, once the turn ends.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup } from 'ink-testing-library';
import { setLanguage } from '../../../src/i18n/index.js';
import { addRun, patchRun, setRunStatus, toolStarted, updateItem } from '../../../src/runtime/store.js';
import type { ToolTranscriptItem } from '../../../src/runtime/types.js';
import { registerTranscriptCards } from '../../../src/ui/cards/register.js';
import { FakeRuntime } from '../fakeRuntime.js';
import { mount, waitFor } from '../harness.js';
import { childRun } from './fixtures.js';

beforeEach(() => setLanguage('en'));
afterEach(() => {
  cleanup();
});

function toolOf(runtime: FakeRuntime, id: string): ToolTranscriptItem {
  const item = runtime.store.getState().transcript.find((i) => i.id === id);
  if (!item || item.kind !== 'tool') throw new Error(`no tool item ${id}`);
  return item;
}

describe('cards in the chat', () => {
  it('two spawn_subagent cards update live, settle, and go to scrollback collapsed', async () => {
    const runtime = new FakeRuntime();
    registerTranscriptCards();
    const app = await mount({ runtime });
    await app.submit('fan out');
    const a = runtime.addTool('spawn_subagent', { prompt: 'Count the files' });
    const b = runtime.addTool('spawn_subagent', { prompt: 'Read the README' });
    addRun(runtime.store, childRun('child-aaaa', toolOf(runtime, a), { status: 'queued', queuePosition: 1, startedAt: undefined }));
    addRun(runtime.store, childRun('child-bbbb', toolOf(runtime, b), { status: 'queued', queuePosition: 2, startedAt: undefined }));

    await waitFor(() => {
      const f = app.frame();
      expect(f).toContain('spawn_subagent · Count the files');
      expect(f).toContain('spawn_subagent · Read the README');
      expect(f).toContain('queued #1');
      expect(f).toContain('queued #2');
    });

    setRunStatus(runtime.store, 'child-aaaa', 'running');
    patchRun(runtime.store, 'child-aaaa', { iterations: 2 });
    toolStarted(runtime.store, 'child-aaaa', 'list_files');
    setRunStatus(runtime.store, 'child-bbbb', 'running');
    await waitFor(() => {
      const f = app.frame();
      expect(f).toMatch(/running \ds · iter 2 · ▸ list_files/);
      expect(f).not.toContain('queued');
    });

    setRunStatus(runtime.store, 'child-aaaa', 'completed');
    runtime.setToolStatus(a, 'ok', '12 files');
    updateItem(runtime.store, runtime.runId, a, (it) => ({ ...it, endedAt: Date.now() }));
    setRunStatus(runtime.store, 'child-bbbb', 'failed', { error: 'model unreachable' });
    runtime.setToolStatus(b, 'error', 'subagent run failed: model unreachable');
    await waitFor(() => {
      const f = app.frame();
      expect(f).toMatch(/✓ spawn_subagent · Count the files\n\s+└ main#1 completed \ds · 12 files/);
      expect(f).toMatch(/✗ spawn_subagent · Read the README\n\s+└ main#2 failed \ds · subagent run failed/);
    });

    const reply = runtime.beginAssistant('Both children are done.');
    runtime.finishAssistant(reply);
    runtime.endTurn();
    await waitFor(() => expect(app.frame()).toContain('Both children are done.'));
    // Committed once, two rows each: no expanded sections in scrollback.
    const all = app.writes().join('\n');
    expect(all).toContain('Count the files');
    expect(app.frame()).not.toMatch(/Task|Response|Details/);
    app.unmount();
  });
});
