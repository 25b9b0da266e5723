// arbor's Ink computes the layout when a frame is drawn, not at every React commit
// (vendor/ink/build/ink.js): commits between two frames (throttled to maxFps) leave it stale
// and the frame computes it once, from the tree as the last commit left it.
import React, { useState } from 'react';
import Yoga from 'yoga-layout';
import { afterEach, describe, expect, it } from 'vitest';
import { Box, Text } from 'ink';
import { sleep, waitFor } from '../harness.js';
import { renderCounted } from './countedRender.js';

let setText: (t: string) => void = () => {};
function Probe() {
  const [text, set] = useState('start');
  setText = set;
  return (
    <Box flexDirection="column" width={20}>
      <Text>{text}</Text>
      <Text>below</Text>
    </Box>
  );
}

describe('the layout', () => {
  const proto = Object.getPrototypeOf(Yoga.Node.create()) as { calculateLayout: (...a: unknown[]) => void };
  const original = proto.calculateLayout;
  let layouts = 0;
  let unmount: (() => void) | undefined;
  afterEach(() => {
    proto.calculateLayout = original;
    unmount?.();
    unmount = undefined;
  });

  it('is computed once per frame drawn, however many commits came between, from the last one', async () => {
    const { instance, stdout, frames } = renderCounted(<Probe />, { cols: 40, rows: 10, maxFps: 10 });
    unmount = () => instance.unmount();
    await waitFor(() => expect(frames()).toBeGreaterThan(0));
    await sleep(150);
    proto.calculateLayout = function (this: unknown, ...args: unknown[]) {
      layouts++;
      return original.apply(this, args);
    };
    const framesBefore = frames();
    // 30 commits, each a changed text, far faster than 10 frames a second.
    for (let i = 1; i <= 30; i++) {
      setText(`text number ${i} is long enough to wrap`);
      await sleep(1);
    }
    await waitFor(() => expect(stdout.writes.join('')).toContain('wrap'), 3000);
    await sleep(250);
    const drawn = frames() - framesBefore;
    expect(drawn).toBeGreaterThan(0);
    expect(drawn).toBeLessThan(30);
    expect(layouts).toBe(drawn);
    // The last frame shows the last commit, wrapped at the box's width: laid out from it.
    const last = stdout.writes.filter((w) => w.includes('text number')).at(-1) ?? '';
    expect(last).toContain('text number 30 is');
    expect(last).toContain('long enough to wrap');
    expect(last).toContain('below');
  });
});
