// A key that moves the /agents selection is drawn in the microtask after its handler, not in
// the scheduler's next slot: during a 1,000-child fan-out that slot comes after every socket
// read and store update the same turn of the event loop still holds (issue 24). And a move
// costs the rows on screen, not the tree: no rebuild of it, the same view reused.
import React, { Profiler } from 'react';
import { describe, expect, it } from 'vitest';
import { render } from 'ink-testing-library';
import { AgentsPane } from '../../../src/ui/agents/AgentsPane.js';
import { addTestRun, FakeRuntime, waitFor } from './fixtures.js';
import { plain } from '../harness.js';
import { resetUiBetweenTests } from '../lifecycle.js';
import { settled } from '../settle.js';

resetUiBetweenTests();

/** Only microtasks: what runs before any timer, immediate or I/O callback. */
async function microtasks(n = 20) {
  for (let i = 0; i < n; i++) await Promise.resolve();
}

const position = (frame: string | undefined) => /· (\d+)\/(\d+)\s*$/m.exec(plain(frame))?.slice(1).map(Number);

describe('a selection key in the /agents pane', () => {
  it('is on screen before any macrotask runs, each press of a burst', async () => {
    const rt = new FakeRuntime();
    const root = addTestRun(rt, { task: 'plan the release' });
    for (let i = 1; i <= 40; i++) addTestRun(rt, { parent: root.id, task: `part ${i}` });
    let commits = 0;
    const app = render(
      <Profiler id="pane" onRender={() => commits++}>
        <AgentsPane runtime={rt} width={100} maxRows={12} close={() => {}} archiveAfterMinutes={60} />
      </Profiler>,
    );
    try {
      await waitFor(() => expect(position(app.lastFrame())).toEqual([1, 41]));
      await settled();
      for (const want of [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]) {
        const before = commits;
        app.stdin.write('j');
        await microtasks();
        expect(position(app.lastFrame())).toEqual([want, 41]);
        // One render for the press, the pane's own.
        expect(commits).toBe(before + 1);
      }
      // Scrolled with the selection: the 12th row (part 11) is the last one on screen.
      expect(plain(app.lastFrame())).toContain('part 11');
      expect(plain(app.lastFrame())).not.toContain('part 1 ');
    } finally {
      app.unmount();
    }
  });
});
