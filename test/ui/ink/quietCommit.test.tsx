// arbor's Ink (vendor/ink/build/reconciler.js) skips the layout and the render of a React
// commit that changed no host node: components that re-render to the same output cost no
// frame. A change of text, colour, style or structure is still drawn, at once or at the
// next throttle slot as before. Ink's throttle runs on a fake clock (setTimeout, Date,
// performance), so "no frame" means none by any throttle slot, however busy the machine is.
import React, { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Box, Text } from 'ink';
import { advanceClock, SizedStdout, waitOnClock } from '../harness.js';
import { renderCounted } from './countedRender.js';

interface View {
  text: string;
  color?: string;
  pad?: number;
  extra?: boolean;
  /** Changes nothing drawn: a new object with the same fields re-renders Probe. */
  n: number;
}

let setView: (f: (v: View) => View) => void = () => {};
let probeRenders = 0;
function Probe() {
  const [view, set] = useState<View>({ text: 'start', n: 0 });
  setView = set;
  probeRenders++;
  return (
    <Box flexDirection="column" paddingLeft={view.pad ?? 0}>
      <Text color={view.color} bold>
        {view.text}
      </Text>
      {view.extra && <Text dimColor>extra row</Text>}
    </Box>
  );
}

const out = (m: { stdout: SizedStdout }) => m.stdout.writes.join('');

function mount() {
  return renderCounted(<Probe />, { cols: 40, rows: 6, maxFps: 1000 });
}

describe('a commit that changed no host node', () => {
  let unmount: (() => void) | undefined;
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date', 'performance'] });
  });
  afterEach(() => {
    unmount?.();
    unmount = undefined;
    vi.useRealTimers();
  });

  /** Mounted, its first frame drawn and any frame it still had pending written too. */
  async function settled() {
    const m = mount();
    unmount = () => m.instance.unmount();
    await waitOnClock(() => expect(m.frames()).toBeGreaterThan(0), 1);
    await advanceClock(20);
    return m;
  }

  it('is neither laid out nor rendered, however often it happens', async () => {
    const m = await settled();
    const before = m.frames();
    const renders = probeRenders;
    // Each update is rendered on its own (React settles between them); then 30 ms of the
    // clock, past every 1 ms throttle slot, for a frame any of them might have asked for.
    for (let i = 1; i <= 20; i++) {
      setView((v) => ({ ...v, n: i }));
      await advanceClock(2);
    }
    await advanceClock(30);
    expect(probeRenders).toBeGreaterThanOrEqual(renders + 20);
    expect(m.frames()).toBe(before);
  });

  it('draws a new text, a colour alone, a style alone and a new row', async () => {
    const m = await settled();
    const step = async (change: (v: View) => View, check: () => void) => {
      const before = m.frames();
      setView(change);
      await waitOnClock(() => expect(m.frames()).toBe(before + 1), 1);
      check();
    };
    await step(
      (v) => ({ ...v, text: 'changed' }),
      () => expect(out(m)).toContain('changed'),
    );
    // Only the colour: rendered again (whether it is written depends on the colour level).
    await step(
      (v) => ({ ...v, color: 'red' }),
      () => {},
    );
    await step(
      (v) => ({ ...v, pad: 3 }),
      () => expect(out(m)).toContain('   changed'),
    );
    await step(
      (v) => ({ ...v, extra: true }),
      () => expect(out(m)).toContain('extra row'),
    );
    await step(
      (v) => ({ ...v, extra: false }),
      () => expect(m.stdout.last()).not.toContain('extra row'),
    );
  });
});
