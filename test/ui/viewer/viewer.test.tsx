// The transcript viewer inside the chat: open, move, expand, open a child transcript, copy,
// search, close; it stays within its rows at any size.
import React from 'react';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup } from 'ink-testing-library';
import { setLanguage } from '../../../src/i18n/index.js';
import { SessionLog } from '../../../src/persistence/sessionLog.js';
import { addRun, appendItem, setRunStatus, toolStarted } from '../../../src/runtime/store.js';
import type { ToolTranscriptItem, TranscriptItem } from '../../../src/runtime/types.js';
import { entryText } from '../../../src/ui/cards/copy.js';
import { TranscriptViewer } from '../../../src/ui/viewer/TranscriptViewer.js';
import { FakeRuntime } from '../fakeRuntime.js';
import { DOWN, ENTER, ESC, plain, UP, waitFor } from '../harness.js';
import { renderSettled, settle, settled } from '../settle.js';
import { childRun, toolItem } from '../cards/fixtures.js';
import { CTRL_O, mountViewerApp, PGDN, PGUP, sessionItems, type ViewerApp } from './fixtures.js';

const mounted: ViewerApp[] = [];
let home: string;
const savedHome = process.env.ARBOR_HOME;

beforeEach(() => {
  setLanguage('en');
  home = mkdtempSync(join(tmpdir(), 'arbor-viewer-'));
  process.env.ARBOR_HOME = home;
});
afterEach(() => {
  for (const m of mounted.splice(0)) m.unmount();
  cleanup();
  if (savedHome === undefined) delete process.env.ARBOR_HOME;
  else process.env.ARBOR_HOME = savedHome;
  rmSync(home, { recursive: true, force: true });
});

async function open(runtime: FakeRuntime, columns = 100, rows = 30): Promise<ViewerApp> {
  const app = await mountViewerApp(runtime, columns, rows);
  mounted.push(app);
  await app.press(CTRL_O);
  await waitFor(() => expect(app.screen()).toContain('Transcript'));
  // The pane subscribes to keys in an effect, just after its first frame.
  await settled();
  return app;
}

function withSession(turns: number): FakeRuntime {
  const runtime = new FakeRuntime();
  runtime.store.setState({ transcript: sessionItems(turns) });
  return runtime;
}

/** The selected entry's first row (the gutter marks it). */
function selectedRow(screen: string): string {
  return screen.split('\n').find((l) => l.startsWith('▸ ')) ?? '';
}

describe('opening and moving', () => {
  it('Ctrl+O opens the whole session at the newest entry, with key hints', async () => {
    const app = await open(withSession(20));
    const screen = app.screen();
    expect(screen).toContain('60/60');
    expect(selectedRow(screen)).toContain('reply number 20');
    expect(screen).toContain('Esc close');
    expect(screen).toContain('o child transcript');
    expect(screen).not.toContain('Type a message');
  });

  it('↑/↓, PgUp/PgDn and g/G move the selection', async () => {
    const app = await open(withSession(20));
    await app.press(UP);
    await waitFor(() => expect(app.screen()).toContain('59/60'));
    expect(selectedRow(app.screen())).toContain('review task 20');
    await app.press(PGUP);
    await waitFor(() => expect(app.screen()).not.toContain('59/60'));
    const afterPage = Number(/(\d+)\/60/.exec(app.screen())![1]);
    expect(afterPage).toBeLessThan(59);
    await app.press(PGDN);
    await waitFor(() => expect(Number(/(\d+)\/60/.exec(app.screen())![1])).toBeGreaterThan(afterPage));
    await app.press('g');
    await waitFor(() => expect(app.screen()).toContain('1/60'));
    expect(selectedRow(app.screen())).toContain('question number 1');
    await app.press(DOWN);
    await waitFor(() => expect(app.screen()).toContain('2/60'));
    await app.press('G');
    await waitFor(() => expect(app.screen()).toContain('60/60'));
  });

  it('/transcript opens it too, Esc and Ctrl+O close it, and /help lists its keys', async () => {
    const app = await mountViewerApp(withSession(3));
    mounted.push(app);
    await app.submit('/transcript');
    await waitFor(() => expect(app.screen()).toContain('9/9'));
    await settled();
    await app.press(ESC);
    await waitFor(() => expect(app.screen()).toContain('Type a message'));
    await app.press(CTRL_O);
    await waitFor(() => expect(app.screen()).toContain('9/9'));
    await settled();
    await app.press(CTRL_O);
    await waitFor(() => expect(app.screen()).toContain('Type a message'));
    await app.submit('/help');
    await waitFor(() => expect(app.screen()).toContain('open or close the transcript viewer'));
    expect(app.screen()).toContain('viewer: open the card');
    expect(app.screen()).toMatch(/\/transcript\s+open the transcript viewer/);
  });
});

describe('expanding', () => {
  it('Enter or Space expands and collapses the selected card; e does all', async () => {
    const app = await open(withSession(4));
    await app.press(UP);
    await app.press(ENTER);
    await waitFor(() => expect(app.screen()).toMatch(/Task[\s\S]*review task 4[\s\S]*Response[\s\S]*review answer 4[\s\S]*Details/));
    await app.press(' ');
    await waitFor(() => expect(app.screen()).not.toContain('Response'));
    await app.press('e');
    await waitFor(() => expect(app.screen()).toContain('All cards expanded.'));
    expect(app.screen().match(/Response/g)!.length).toBeGreaterThanOrEqual(1);
    await app.press('g');
    await waitFor(() => expect(app.screen()).toMatch(/subtask 1[\s\S]*Response[\s\S]*subtask answer 1/));
    await app.press('e');
    await waitFor(() => expect(app.screen()).not.toContain('Response'));
  });

  it('a card taller than the view is read line by line before ↓ moves on', async () => {
    const runtime = new FakeRuntime();
    const long = Array.from({ length: 60 }, (_, i) => `answer line ${i + 1}`).join('\n');
    runtime.store.setState({
      transcript: [
        { id: 'u', kind: 'user', text: 'go', at: 1 },
        toolItem('spawn_subagent', { prompt: 'long one' }, { id: 'long', result: long }),
        { id: 'a', kind: 'assistant', runId: 'root-1', text: 'after', at: 2 },
      ],
    });
    const app = await open(runtime, 80, 20);
    await app.press(UP);
    await app.press(ENTER);
    await waitFor(() => expect(app.screen()).toContain('answer line 1'));
    // Each ↓ scrolls the card by one row until its end is on screen, then moves on.
    let presses = 0;
    while (!app.screen().includes('answer line 60') && presses < 80) {
      await app.press(DOWN);
      presses++;
    }
    expect(presses).toBeGreaterThan(40);
    expect(app.screen()).toContain('2/3');
    expect(app.screen()).not.toContain('answer line 40\n');
    while (!app.screen().includes('3/3') && presses < 100) {
      await app.press(DOWN);
      presses++;
    }
    expect(app.screen()).toContain('3/3');
  });
});

describe('child transcripts', () => {
  it('o opens the child transcript with nested cards for its own children; Esc goes back', async () => {
    const runtime = new FakeRuntime();
    const parent = toolItem('delegate', { agent: 'reviewer', prompt: 'Review it' }, { id: 'p1', runId: 'root-1', callId: 'call-p' });
    runtime.store.setState({ transcript: [{ id: 'u', kind: 'user', text: 'start', at: 1 }, parent] });
    addRun(
      runtime.store,
      childRun('child-rev-1', parent, { kind: 'delegate', alias: 'reviewer', status: 'completed', endedAt: Date.now() }),
    );
    const nested = toolItem(
      'delegate',
      { agent: 'tester', prompt: 'Run the tests' },
      { id: 'n1', runId: 'child-rev-1', callId: 'call-n', result: 'tests pass' },
    );
    for (const item of [
      { id: 'cu', kind: 'user', text: 'Review it', at: 2 },
      nested,
      { id: 'ca', kind: 'assistant', runId: 'child-rev-1', text: 'child says hello', at: 3 },
    ] as TranscriptItem[]) {
      appendItem(runtime.store, 'child-rev-1', item);
    }
    addRun(
      runtime.store,
      childRun('grand-tst-1', nested, { kind: 'delegate', alias: 'tester', status: 'completed', endedAt: Date.now(), depth: 2 }),
    );
    appendItem(runtime.store, 'grand-tst-1', { id: 'gu', kind: 'assistant', runId: 'grand-tst-1', text: 'grandchild ran 40 tests', at: 4 });

    const app = await open(runtime);
    await waitFor(() => expect(selectedRow(app.screen())).toContain('delegate → reviewer'));
    await app.press('o');
    await waitFor(() => expect(app.screen()).toContain('Transcript › reviewer'));
    expect(app.screen()).toContain('child says hello');
    expect(app.screen()).toContain('── reviewer#1 · child-re · completed');
    expect(app.screen()).toContain('Esc back');
    // The nested card is bound to the grandchild, through its own call id.
    await app.press(DOWN);
    await app.press(DOWN);
    await waitFor(() => expect(selectedRow(app.screen())).toContain('delegate → tester'));
    await app.press('o');
    await waitFor(() => expect(app.screen()).toContain('Transcript › tester'));
    expect(app.screen()).toContain('grandchild ran 40 tests');
    await app.press(ESC);
    await waitFor(() => expect(app.screen()).toContain('Transcript › reviewer'));
    await app.press(ESC);
    await waitFor(() => expect(app.screen()).not.toContain('Transcript ›'));
    expect(selectedRow(app.screen())).toContain('delegate → reviewer');
    // Entries with no child say so.
    await app.press('g');
    await app.press('o');
    await waitFor(() => expect(app.screen()).toContain('no child transcript'));
  });

  it('an expanded card lists its child’s tool calls as they happen', async () => {
    const runtime = new FakeRuntime();
    const item = toolItem(
      'spawn_subagent',
      { prompt: 'Explore' },
      { id: 'live1', runId: 'root-1', callId: 'call-live', status: 'running', result: undefined, endedAt: undefined },
    );
    runtime.store.setState({ transcript: [item], activeRootRunId: 'root-1' });
    addRun(runtime.store, childRun('child-live', item));
    const app = await open(runtime);
    await app.press(ENTER);
    await waitFor(() => expect(app.screen()).toContain('child main#1 · run child-li · running'));
    appendItem(
      runtime.store,
      'child-live',
      toolItem('list_files', { path: 'src' }, { id: 'ct1', runId: 'child-live', status: 'running', result: undefined }),
    );
    toolStarted(runtime.store, 'child-live', 'list_files');
    await waitFor(() => expect(app.screen()).toMatch(/its tool calls:\n.*list_files src/));
    expect(app.screen()).toContain('running list_files now');
    setRunStatus(runtime.store, 'child-live', 'completed');
    await waitFor(() => expect(app.screen()).toContain('child main#1 · run child-li · completed'));
  });

  it('a restored card opens the child transcript recorded in the session file', async () => {
    const log = SessionLog.create(home, { agentAlias: 'main', providerLabel: 'x/y', cwd: home });
    const items = sessionItems(2, { restored: true });
    const card = items[1] as ToolTranscriptItem;
    const run = childRun('old-child-1', card, { status: 'completed', endedAt: Date.now(), alias: 'main' });
    log.appendChildItem(run.id, { id: 'oc1', kind: 'assistant', runId: run.id, text: 'recorded child answer', at: 5 });
    log.appendRun(run);
    log.close();
    const runtime = new FakeRuntime();
    runtime.store.setState({ transcript: items, sessionId: log.id });
    const app = await open(runtime);
    await app.press('g');
    await app.press(DOWN);
    await waitFor(() => expect(selectedRow(app.screen())).toContain('spawn_subagent · subtask 1'));
    expect(app.screen()).toContain('restored · subtask answer 1');
    await app.press('o');
    await waitFor(() => expect(app.screen()).toContain('recorded child answer'));
    expect(app.screen()).toContain('recorded: completed');
  });
});

describe('copy and search', () => {
  it('c puts the retained entry on the clipboard (OSC 52) and in a file, and says where', async () => {
    const app = await open(withSession(4));
    await app.press(UP);
    await app.press('c');
    await waitFor(() => expect(app.screen()).toContain('Copied to the clipboard'));
    const path = /saved to\s*(\S+\.txt)/.exec(app.screen().replace(/\n/g, ''))?.[1];
    expect(path).toBeDefined();
    expect(path!.startsWith(join(home, 'exports'))).toBe(true);
    const item = app.runtime.store.getState().transcript[10];
    const expected = entryText(item);
    expect(readFileSync(path!, 'utf8')).toBe(expected);
    expect(expected).toContain("[Agent 'reviewer' (openai/gpt-4o)]\nreview answer 4");
    const osc = app.stdout.writes.find((w) => w.startsWith('\u001B]52;c;'));
    expect(osc).toBe(`\u001B]52;c;${Buffer.from(expected).toString('base64')}\u0007`);
  });

  it('/ searches everything an entry holds; n and N walk the matches', async () => {
    const app = await open(withSession(12));
    await app.press('/');
    await app.type('answer 1');
    await waitFor(() => expect(app.screen()).toContain('/answer 1'));
    await app.press(ENTER);
    // "answer 1", "answer 10", "answer 11", "answer 12" are in the results; nearest older first.
    await waitFor(() => expect(app.screen()).toContain('Match 4 of 4'));
    expect(selectedRow(app.screen())).toContain('review task 12');
    await app.press('n');
    await waitFor(() => expect(app.screen()).toContain('Match 3 of 4'));
    expect(selectedRow(app.screen())).toContain('subtask 11');
    await app.press('N');
    await waitFor(() => expect(app.screen()).toContain('Match 4 of 4'));
    // A match hidden in a collapsed card (here: the envelope's model) opens the card.
    await app.press('g');
    await app.press('/');
    await app.submit('gpt-4o');
    await waitFor(() => expect(app.screen()).toContain('Match 6 of 6'));
    expect(selectedRow(app.screen())).toContain('review task 12');
    expect(app.screen()).toMatch(/Details[\s\S]*reviewer: openai\/gpt-4o/);
    await app.press('/');
    await app.submit('zzz-nothing');
    await waitFor(() => expect(app.screen()).toContain('No match for "zzz-nothing"'));
    await app.press('/');
    await app.type('abc');
    await app.press(ESC);
    await waitFor(() => expect(app.screen()).not.toContain('/abc'));
    expect(app.screen()).toContain('Transcript');
  });
});

describe('size and approvals', () => {
  it('stays within its rows at any size and re-flows on resize', async () => {
    const runtime = withSession(30);
    const r = await renderSettled(<TranscriptViewer runtime={runtime} width={60} maxRows={12} close={() => {}} />);
    const rows = () => plain(r.lastFrame()).split('\n');
    expect(rows().length).toBeLessThanOrEqual(12);
    for (const [w, h] of [
      [20, 3],
      [30, 1],
      [100, 40],
      [45, 7],
    ] as const) {
      await settle(() => r.rerender(<TranscriptViewer runtime={runtime} width={w} maxRows={h} close={() => {}} />));
      const lines = rows();
      expect(lines.length, `${w}x${h}`).toBeLessThanOrEqual(h);
      for (const line of lines) expect(line.length, `${w}x${h}: ${line}`).toBeLessThanOrEqual(w);
      if (h >= 3) expect(lines.join('\n')).toContain('reply number 30');
    }
    r.unmount();
  });

  it.each([50, 55, 60])('at %i columns the hints wrap onto the rows they need: Esc close is never cut', async (w) => {
    for (const lang of ['en', 'es'] as const) {
      setLanguage(lang);
      const r = await renderSettled(<TranscriptViewer runtime={withSession(5)} width={w} maxRows={24} close={() => {}} />);
      const frame = plain(r.lastFrame());
      expect(frame, lang).toContain(lang === 'en' ? 'Esc close' : 'Esc cerrar');
      expect(frame, lang).not.toMatch(/ …$/m);
      for (const line of frame.split('\n')) expect(line.length).toBeLessThanOrEqual(w);
      r.unmount();
    }
    setLanguage('en');
  });

  it('in the chat, the pane plus the rest stay shorter than the terminal', async () => {
    for (const [cols, rows] of [
      [40, 10],
      [80, 16],
      [100, 30],
    ] as const) {
      const app = await open(withSession(10), cols, rows);
      const frame = plain(app.stdout.writes.filter((w) => !w.startsWith('\u001B]52;')).at(-1));
      const live = frame.slice(frame.indexOf('Transcript'));
      expect(live.replace(/\n$/, '').split('\n').length, `${cols}x${rows}`).toBeLessThan(rows);
      app.stdout.resize(cols + 20, rows + 4);
      await waitFor(() => expect(app.screen()).toContain('Transcript'));
      app.unmount();
      mounted.splice(mounted.indexOf(app), 1);
    }
  });

  it('keys wait while an approval is pending', async () => {
    const app = await open(withSession(3));
    app.runtime.requestApproval('shell', { command: 'rm -rf build' });
    await waitFor(() => expect(app.screen()).toContain('An approval is waiting'));
    await app.press('g');
    expect(app.screen()).toContain('9/9');
  });
});
