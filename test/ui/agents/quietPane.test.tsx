// The /agents pane re-renders only when what it draws from changed: the list reads the runs,
// their order and the controls, so children streaming text (which changes only their
// transcripts) cost it nothing, not even a frame; a run's transcript view reads the
// transcripts too, and shows what streamed while the list was open.
import React, { Profiler } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render } from 'ink-testing-library';
import { patchRun, setRunStatus } from '../../../src/runtime/store.js';
import { AgentsPane } from '../../../src/ui/agents/AgentsPane.js';
import { samePaneState } from '../../../src/ui/agents/paneModel.js';
import { REFRESH_MS } from '../../../src/ui/hooks/useThrottledStore.js';
import { advanceClock, plain, waitOnClock } from '../harness.js';
import { addTestRun, KEYS, FakeRuntime, say } from './fixtures.js';
import { pressInto } from '../settle.js';
import { resetUiBetweenTests } from '../lifecycle.js';

resetUiBetweenTests();

// Time is what these tests are about: the pane's refresh timer and its clock run on a fake
// clock, so "nothing is drawn for 1.3 s" is 1.3 s of that clock, not of the machine.
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

const tick = advanceClock;
const until = (check: () => void) => waitOnClock(check, REFRESH_MS);

/** A turn with three queued children (live, so the pane's clock runs, but with no elapsed
 * time to show: a second passing changes nothing drawn). */
function tree() {
  const rt = new FakeRuntime();
  const root = addTestRun(rt, { status: 'queued', task: 'plan the release' });
  const kids = [1, 2, 3].map((i) => addTestRun(rt, { parent: root.id, status: 'queued', task: `part ${i}` }));
  return { rt, root, kids };
}

async function mount(rt: FakeRuntime) {
  let commits = 0;
  const app = render(
    <Profiler id="pane" onRender={() => commits++}>
      <AgentsPane runtime={rt} width={100} maxRows={20} close={() => {}} archiveAfterMinutes={60} />
    </Profiler>,
  );
  await until(() => expect(plain(app.lastFrame())).toContain('part 3'));
  // Two refresh periods: whatever the mount scheduled has been drawn.
  await tick(REFRESH_MS * 2);
  return {
    app,
    frame: () => plain(app.lastFrame()),
    commits: () => commits,
    press: (data: string) => pressInto(app.stdin, data),
  };
}

describe('what the /agents pane re-renders for', () => {
  it('compares, in list mode, the runs, their order and the controls; in a transcript, the transcripts too', () => {
    const { rt, kids } = tree();
    const before = rt.store.getState();
    say(rt, kids[0].id, 'assistant', 'streamed words');
    const streamed = rt.store.getState();
    expect(samePaneState(before, streamed, false)).toBe(true);
    expect(samePaneState(before, streamed, true)).toBe(false);
    patchRun(rt.store, kids[1].id, (r) => ({ iterations: r.iterations + 1 }));
    expect(samePaneState(streamed, rt.store.getState(), false)).toBe(false);
    rt.setSpawnPaused(true);
    const paused = rt.store.getState();
    rt.setSpawnPaused(false);
    expect(samePaneState(paused, rt.store.getState(), false)).toBe(false);
  });

  it('children streaming text re-render nothing and write no frame; a change to a run is drawn on its row', async () => {
    const { rt, kids } = tree();
    const pane = await mount(rt);
    const commits = pane.commits();
    const frames = pane.app.frames.length;
    // Over several refresh periods, as children stream.
    for (let i = 0; i < 10; i++) {
      for (const kid of kids) say(rt, kid.id, 'assistant', `word ${i}`);
      await tick(REFRESH_MS / 2);
    }
    await tick(REFRESH_MS * 2);
    expect(pane.commits()).toBe(commits);
    expect(pane.app.frames.length).toBe(frames);

    patchRun(rt.store, kids[1].id, { iterations: 7 });
    await until(() => expect(pane.frame()).toMatch(/part 2 .* 7 it /));
    expect(pane.commits()).toBeGreaterThan(commits);
    expect(pane.frame()).not.toMatch(/part [13] .* 7 it /);
  });

  it("opening a child's transcript shows what it streamed while the list was open, then what it streams next", async () => {
    const { rt, kids } = tree();
    const pane = await mount(rt);
    say(rt, kids[0].id, 'assistant', 'said while the list was open');
    await tick(REFRESH_MS * 2);
    // The turn's row is first; its first child is next.
    await pane.press('j');
    await pane.press(KEYS.ENTER);
    await until(() => expect(pane.frame()).toContain('said while the list was open'));
    say(rt, kids[0].id, 'assistant', 'said with the transcript open');
    await until(() => expect(pane.frame()).toContain('said with the transcript open'));
  });

  it('a second passing redraws the list only while a row on screen shows a running clock', async () => {
    const { rt, kids } = tree();
    const pane = await mount(rt);
    const commits = pane.commits();
    // Live, but queued: no clock runs on screen. 1.3 s takes a running ticker past a tick.
    await tick(1300);
    expect(pane.commits()).toBe(commits);
    setRunStatus(rt.store, kids[2].id, 'running');
    await until(() => expect(pane.frame()).toMatch(/part 3 +0s /));
    // Within one tick of the clock the row shows a second.
    const shown = pane.commits();
    await tick(1000);
    expect(pane.frame()).toMatch(/part 3 +1s /);
    expect(pane.commits()).toBeGreaterThan(shown);
  });
});
