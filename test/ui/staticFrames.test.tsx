// The chat's <Static> (the scrollback feed) re-renders only when what it prints changes. Ink
// draws a commit that touched the Static box at once, outside its frame throttle (so printed
// lines are written before they are dropped); the Static element was rebuilt on every App
// render, so every App render was such a frame: during a 1,000-child fan-out, an unthrottled
// full frame per store update. Ink's throttle runs on a fake clock here, so "no frame"
// means none at any throttle slot, however busy the machine is.
import React from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { App } from '../../src/ui/App.js';
import { MAX_FPS } from '../../src/ui/renderApp.js';
import { FRAME_MS } from '../../src/ui/hooks/useThrottledStore.js';
import { FakeRuntime } from './fakeRuntime.js';
import { advanceClock, plain, waitOnClock } from './harness.js';
import { renderCounted } from './ink/countedRender.js';
import { resetUiBetweenTests } from './lifecycle.js';

resetUiBetweenTests();

let unmount: (() => void) | undefined;
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date', 'performance'] });
});
afterEach(() => {
  unmount?.();
  unmount = undefined;
  vi.useRealTimers();
});

async function mounted() {
  const runtime = new FakeRuntime();
  const m = renderCounted(<App runtime={runtime} sessions={{ list: () => [], currentId: 'x' }} onExit={() => {}} />, {
    cols: 80,
    rows: 24,
    maxFps: MAX_FPS,
  });
  unmount = () => m.instance.unmount();
  await waitOnClock(() => expect(plain(m.stdout.writes.join(''))).toContain('Type a message'), FRAME_MS);
  await advanceClock(FRAME_MS * 2);
  return { runtime, ...m };
}

describe('the scrollback feed and the frame throttle', () => {
  it('an App render that changes nothing on screen draws no frame', async () => {
    const m = await mounted();
    const before = m.frames();
    // New objects with the same content: the App takes each at once and re-renders.
    for (let i = 0; i < 10; i++) {
      m.runtime.store.setState((s) => ({ info: { ...s.info } }));
      await advanceClock(1);
    }
    await advanceClock(FRAME_MS * 2);
    expect(m.frames()).toBe(before);
  });

  it('a burst of App renders that change the screen is drawn at the throttle, not once per render', async () => {
    const m = await mounted();
    const before = m.frames();
    // Ten renders, each a new alias on the status bar, within one frame interval.
    for (let i = 0; i < 10; i++) {
      m.runtime.store.setState((s) => ({ info: { ...s.info, agentAlias: `agent-${i}` } }));
      await advanceClock(1);
    }
    await advanceClock(FRAME_MS * 2);
    expect(plain(m.stdout.writes.join(''))).toContain('agent-9');
    // The leading frame, the trailing one, and at most one more slot.
    expect(m.frames() - before).toBeLessThanOrEqual(3);
  });
});
