// The /agents pane re-renders only when what it draws from changed: the list reads the runs,
// their order and the controls, so children streaming text (which changes only their
// transcripts) cost it nothing, not even a frame; a run's transcript view reads the
// transcripts too, and shows what streamed while the list was open.
import React, { Profiler } from 'react';
import { describe, expect, it } from 'vitest';
import { render } from 'ink-testing-library';
import { patchRun, setRunStatus } from '../../../src/runtime/store.js';
import { AgentsPane, samePaneState } from '../../../src/ui/agents/AgentsPane.js';
import { REFRESH_MS } from '../../../src/ui/hooks/useThrottledStore.js';
import { plain } from '../harness.js';
import { addTestRun, KEYS, FakeRuntime, say, waitFor } from './fixtures.js';
import { sleep } from '../harness.js';
import { resetUiBetweenTests } from '../lifecycle.js';

resetUiBetweenTests();

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
  await waitFor(() => expect(plain(app.lastFrame())).toContain('part 3'));
  await sleep(REFRESH_MS * 2);
  return {
    app,
    frame: () => plain(app.lastFrame()),
    commits: () => commits,
    async press(data: string) {
      app.stdin.write(data);
      await sleep(40);
    },
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
      await sleep(REFRESH_MS / 2);
    }
    await sleep(REFRESH_MS * 2);
    expect(pane.commits()).toBe(commits);
    expect(pane.app.frames.length).toBe(frames);

    patchRun(rt.store, kids[1].id, { iterations: 7 });
    await waitFor(() => expect(pane.frame()).toMatch(/part 2 .* 7 it /));
    expect(pane.commits()).toBeGreaterThan(commits);
    expect(pane.frame()).not.toMatch(/part [13] .* 7 it /);
  });

  it("opening a child's transcript shows what it streamed while the list was open, then what it streams next", async () => {
    const { rt, kids } = tree();
    const pane = await mount(rt);
    say(rt, kids[0].id, 'assistant', 'said while the list was open');
    await sleep(REFRESH_MS * 2);
    // The turn's row is first; its first child is next.
    await pane.press('j');
    await pane.press(KEYS.ENTER);
    await waitFor(() => expect(pane.frame()).toContain('said while the list was open'));
    say(rt, kids[0].id, 'assistant', 'said with the transcript open');
    await waitFor(() => expect(pane.frame()).toContain('said with the transcript open'));
  });

  it('a second passing redraws the list only while a row on screen shows a running clock', async () => {
    const { rt, kids } = tree();
    const pane = await mount(rt);
    const commits = pane.commits();
    // Live, but queued: no clock runs on screen.
    await sleep(1300);
    expect(pane.commits()).toBe(commits);
    setRunStatus(rt.store, kids[2].id, 'running');
    await waitFor(() => expect(pane.frame()).toMatch(/part 3 +0s /));
    await waitFor(() => expect(pane.frame()).toMatch(/part 3 +1s /), 3000);
  });
});
