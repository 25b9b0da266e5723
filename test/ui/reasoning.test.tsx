// Reasoning in the chat for each `[ui] show_reasoning` mode: the thinking line under the
// live reply, the scrollback, the transcript viewer (Enter expands) and a child's
// transcript in the agents pane. The reasoning text never shows up as answer text.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup } from 'ink-testing-library';
import { setLanguage } from '../../src/i18n/index.js';
import type { ShowReasoning } from '../../src/config/types.js';
import { updateItem } from '../../src/runtime/store.js';
import type { TranscriptItem } from '../../src/runtime/types.js';
import { transcriptLines } from '../../src/ui/agents/transcriptLines.js';
import { lineText } from '../../src/ui/cards/lines.js';
import { REASONING_MAX_LINES, reasoningBody } from '../../src/ui/reasoning/lines.js';
import { FakeRuntime } from './fakeRuntime.js';
import { ENTER, mount, waitFor, type Mounted } from './harness.js';
import { settled } from './settle.js';
import { CTRL_O, mountViewerApp, type ViewerApp } from './viewer/fixtures.js';

const REASONING = 'First I add the numbers.\nThen I check the carry.\nSo the sum is 5.';
const ANSWER = 'Two plus three is five.';

const apps: Array<Mounted | ViewerApp> = [];
beforeEach(() => setLanguage('en'));
afterEach(() => {
  for (const app of apps.splice(0)) app.unmount();
  cleanup();
});

function think(rt: FakeRuntime, itemId: string, patch: Partial<Extract<TranscriptItem, { kind: 'assistant' }>>): void {
  updateItem(rt.store, rt.runId, itemId, (it) => (it.kind === 'assistant' ? { ...it, ...patch } : it));
}

/** A turn that thinks, then answers: returns the assistant item id, still streaming. */
async function thinkingTurn(app: Mounted | ViewerApp, rt: FakeRuntime): Promise<string> {
  await app.submit('add 2 and 3');
  await waitFor(() => expect(rt.runId).toBeDefined());
  const id = rt.beginAssistant('');
  think(rt, id, { reasoning: 'First I add the numbers.', reasoningTokens: 6, thinking: true });
  return id;
}

function finish(rt: FakeRuntime, id: string): void {
  think(rt, id, { text: ANSWER, reasoning: REASONING, reasoningTokens: 17, thinking: undefined, streaming: false });
  rt.endTurn();
}

async function chat(mode: ShowReasoning | undefined): Promise<{ app: Mounted; rt: FakeRuntime }> {
  const rt = new FakeRuntime(mode ? { showReasoning: mode } : {});
  const app = await mount({ runtime: rt });
  apps.push(app);
  return { app, rt };
}

/** The chat in `mode`, a turn thinking in it (its assistant item `id`, still streaming). */
async function thinkingChat(mode: ShowReasoning | undefined) {
  const { app, rt } = await chat(mode);
  return { app, rt, id: await thinkingTurn(app, rt) };
}

/** Ends the thinking turn with its answer and waits until the chat shows it. */
async function answered(app: Mounted, rt: FakeRuntime, id: string): Promise<void> {
  finish(rt, id);
  await waitFor(() => expect(app.frame()).toContain(ANSWER));
}

describe('show_reasoning = "collapsed" (the default)', () => {
  it('shows a dim thinking line with a running count live, a one-line head in scrollback, never the text', async () => {
    const { app, rt, id } = await thinkingChat(undefined);
    await waitFor(() => expect(app.frame()).toContain('✻ thinking… 6 tokens'));
    expect(app.frame()).not.toContain('First I add');

    think(rt, id, { reasoning: 'First I add the numbers. Then I check.', reasoningTokens: 11 });
    await waitFor(() => expect(app.frame()).toContain('✻ thinking… 11 tokens'));

    // The answer starts: the line stays under it, now "thought".
    think(rt, id, { text: 'Two plus', thinking: undefined });
    await waitFor(() => expect(app.frame()).toMatch(/Two plus\s*\n\s*✻ thought · 11 tokens/));

    await answered(app, rt, id);
    expect(app.frame()).toContain('✻ thought · 17 tokens (Ctrl+O: the transcript viewer shows it)');
    expect(app.frame()).not.toContain('carry');
    expect(app.frame()).not.toContain('thinking…');
  });
});

describe('show_reasoning = "hidden"', () => {
  it('shows no thinking line live nor in scrollback', async () => {
    const { app, rt, id } = await thinkingChat('hidden');
    await settled();
    expect(app.frame()).not.toContain('✻');
    await answered(app, rt, id);
    expect(app.frame()).not.toContain('✻');
    expect(app.frame()).not.toContain('carry');
  });
});

describe('show_reasoning = "expanded"', () => {
  it('shows the newest reasoning lines live and the whole reasoning in scrollback, apart from the answer', async () => {
    const { app, rt, id } = await thinkingChat('expanded');
    await waitFor(() => expect(app.frame()).toMatch(/First I add the numbers\.\s*\n\s*✻ thinking… 6 tokens/));
    await answered(app, rt, id);
    const frame = app.frame();
    expect(frame).toMatch(
      /✻ thought · 17 tokens\s*\n\s*First I add the numbers\.\s*\n\s*Then I check the carry\.\s*\n\s*So the sum is 5\.[\s\S]*Two plus three is five\./,
    );
    expect(frame).not.toContain('the transcript viewer shows it');
  });
});

describe('the transcript viewer', () => {
  async function viewer(mode: ShowReasoning | undefined): Promise<ViewerApp> {
    const rt = new FakeRuntime(mode ? { showReasoning: mode } : {});
    const app = await mountViewerApp(rt, 100, 30);
    apps.push(app);
    const id = await thinkingTurn(app, rt);
    finish(rt, id);
    await waitFor(() => expect(app.screen()).toContain(ANSWER));
    await app.press(CTRL_O);
    await waitFor(() => expect(app.screen()).toContain('Transcript'));
    await settled();
    return app;
  }

  it('collapsed: the head says Enter shows it, and Enter expands the whole reasoning', async () => {
    const app = await viewer('collapsed');
    expect(app.screen()).toContain('✻ thought · 17 tokens (Enter shows it)');
    expect(app.screen()).not.toContain('carry');
    await app.press(ENTER);
    await waitFor(() =>
      expect(app.screen()).toMatch(/First I add the numbers\.[\s\S]*Then I check the carry\.[\s\S]*So the sum is 5\.[\s\S]*Two plus three/),
    );
  });

  it('expanded: the reasoning is there without expanding', async () => {
    const app = await viewer('expanded');
    expect(app.screen()).toMatch(/✻ thought · 17 tokens\s*\n[\s\S]*Then I check the carry\./);
  });

  it('hidden: no reasoning, even expanded', async () => {
    const app = await viewer('hidden');
    await app.press(ENTER);
    await settled();
    expect(app.screen()).not.toContain('✻');
    expect(app.screen()).not.toContain('carry');
  });
});

describe("a child's transcript (agents pane)", () => {
  const item: TranscriptItem = {
    id: 'a1',
    kind: 'assistant',
    runId: 'child',
    text: ANSWER,
    at: 1,
    reasoning: REASONING,
    reasoningTokens: 17,
    reasoningRedacted: true,
  };
  const text = (mode: ShowReasoning) => transcriptLines([item], 80, mode).map(lineText).join('\n');

  it('shows the whole reasoning before the answer unless hidden', () => {
    for (const mode of ['collapsed', 'expanded'] as const) {
      expect(text(mode)).toMatch(
        /✻ thought · 17 tokens\n\s+First I add the numbers\.\n\s+Then I check the carry\.\n\s+So the sum is 5\.\n[\s\S]*encrypted[\s\S]*Two plus three is five\./,
      );
    }
    expect(text('hidden')).not.toContain('First I add');
    expect(text('hidden')).toContain(ANSWER);
  });
});

describe('long reasoning', () => {
  const long: Extract<TranscriptItem, { kind: 'assistant' }> = {
    id: 'big',
    kind: 'assistant',
    runId: 'r',
    text: 'ok',
    at: 1,
    reasoning: Array.from({ length: 20000 }, (_, i) => `step ${i} of a very long chain of thought`).join('\n'),
    reasoningTokens: 200000,
  };

  it('draws at most its line cap, saying how much more the session file keeps', () => {
    const lines = reasoningBody(long, 80, 2).map(lineText);
    expect(lines.length).toBe(REASONING_MAX_LINES + 1);
    expect(lines[0].trim()).toBe('step 0 of a very long chain of thought');
    expect(lines[lines.length - 1]).toMatch(/… \d+(\.\d)? [KM]B more reasoning is not drawn here \(the session file keeps it\)/);
  });

  it('live, only the last lines, after a line saying earlier reasoning is in the viewer', () => {
    const lines = reasoningBody(long, 80, 2, 3, true).map(lineText);
    expect(lines).toEqual([
      '  … earlier reasoning is in the transcript viewer',
      '  step 19997 of a very long chain of thought',
      '  step 19998 of a very long chain of thought',
      '  step 19999 of a very long chain of thought',
    ]);
  });
});
