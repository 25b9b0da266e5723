// useThrottledStore with `urgent` (the chat's slices): store slices taken at most once a frame, urgent changes at
// once, and never an update lost — the last change is always drawn, however many came
// before it in the frame. The clock is fake: "not drawn yet" means not before the frame's
// timer, not "not yet on a busy machine".
import React from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Text } from 'ink';
import { cleanup, render } from 'ink-testing-library';
import { createStore } from 'zustand/vanilla';
import { FRAME_MS, useThrottledStore } from '../../src/ui/hooks/useThrottledStore.js';
import { advanceClock, plain } from './harness.js';
import { settled } from './settle.js';
import { resetUiBetweenTests } from './lifecycle.js';

resetUiBetweenTests();

interface S {
  count: number;
  turn: string | undefined;
  other: number;
}
interface Slice {
  count: number;
  turn: string | undefined;
}

const select = (s: S): Slice => ({ count: s.count, turn: s.turn });
const OPTIONS = {
  equal: (a: Slice, b: Slice) => a.count === b.count && a.turn === b.turn,
  urgent: (a: Slice, b: Slice) => a.turn !== b.turn,
  intervalMs: FRAME_MS,
};

function mount() {
  const store = createStore<S>(() => ({ count: 0, turn: undefined, other: 0 }));
  let renders = 0;
  function View() {
    const [slice] = useThrottledStore(store, select, OPTIONS);
    renders++;
    return <Text>{`count ${slice.count} turn ${slice.turn ?? '-'}`}</Text>;
  }
  const app = render(<View />);
  return { store, frame: () => plain(app.lastFrame()), renders: () => renders };
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe('useThrottledStore with urgent changes (the chat slices)', () => {
  it('takes a burst of changes once, at the next frame, and draws the last of them', async () => {
    const m = mount();
    await advanceClock(FRAME_MS * 2);
    const before = m.renders();
    for (let i = 1; i <= 500; i++) m.store.setState({ count: i });
    await settled();
    // Nothing yet: the burst waits for the frame's timer.
    expect(m.frame()).toBe('count 0 turn -');
    expect(m.renders()).toBe(before);
    await advanceClock(FRAME_MS);
    expect(m.frame()).toBe('count 500 turn -');
    expect(m.renders()).toBe(before + 1);
  });

  it('never loses the change that comes right after a take: it is drawn a frame later', async () => {
    const m = mount();
    await advanceClock(FRAME_MS * 2);
    // The first change after a quiet frame is taken on the next turn of the event loop.
    m.store.setState({ count: 1 });
    await advanceClock(1);
    expect(m.frame()).toBe('count 1 turn -');
    // Within the same frame as the take: held, not dropped.
    m.store.setState({ count: 2 });
    m.store.setState({ count: 3 });
    await advanceClock(FRAME_MS / 2);
    expect(m.frame()).toBe('count 1 turn -');
    await advanceClock(FRAME_MS / 2);
    expect(m.frame()).toBe('count 3 turn -');
    // And nothing further is scheduled once the last change is drawn.
    const renders = m.renders();
    await advanceClock(FRAME_MS * 5);
    expect(m.renders()).toBe(renders);
  });

  it('takes an urgent change at once, with every change held before it', async () => {
    const m = mount();
    await advanceClock(FRAME_MS * 2);
    m.store.setState({ count: 7 });
    m.store.setState({ turn: 'root-1' });
    await settled();
    // No clock moved: the urgent change did not wait, and brought the held count along.
    expect(m.frame()).toBe('count 7 turn root-1');
    // The held change's timer finds nothing new and draws nothing.
    const renders = m.renders();
    await advanceClock(FRAME_MS * 2);
    expect(m.renders()).toBe(renders);
  });

  it('a change outside the slice schedules nothing and draws nothing', async () => {
    const m = mount();
    await advanceClock(FRAME_MS * 2);
    const renders = m.renders();
    for (let i = 1; i <= 50; i++) m.store.setState({ other: i });
    await advanceClock(FRAME_MS * 3);
    expect(m.renders()).toBe(renders);
    expect(vi.getTimerCount()).toBe(0);
  });
});
