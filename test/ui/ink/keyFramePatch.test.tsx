// arbor's Ink (vendor/ink) draws the commit after a key press at once instead of at the
// next frame-rate slot (src/ui/keyFrame.ts); upstream Ink 6.8.0 has no such path. With a 2 fps
// throttle the difference is half a second. The clock is a fake one (setTimeout, Date and
// performance, which Ink's throttle and its key-frame window read), so the test measures the
// throttle itself and not how busy the machine is.
import React, { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { render, Text } from 'ink';
import { SizedStdout } from '../harness.js';
import { QuietStdin } from '../../support/quietStdin.js';
import { drawKeyFrame, setKeyFrameDrawer } from '../../../src/ui/keyFrame.js';

let setValue: (v: string) => void = () => {};
function Probe() {
  const [value, set] = useState('start');
  setValue = set;
  return <Text>{value}</Text>;
}

function mount() {
  const frames: number[] = [];
  const instance = render(<Probe />, {
    stdout: new SizedStdout(40, 5) as unknown as NodeJS.WriteStream,
    stderr: new SizedStdout(40, 5) as unknown as NodeJS.WriteStream,
    stdin: new QuietStdin() as unknown as NodeJS.ReadStream,
    exitOnCtrlC: false,
    patchConsole: false,
    maxFps: 2,
    onRender: () => frames.push(performance.now()),
  });
  return { instance, frames };
}

describe('frames that answer a key press', () => {
  let unmount: (() => void) | undefined;
  afterEach(() => {
    setKeyFrameDrawer(undefined);
    unmount?.();
    unmount = undefined;
    vi.useRealTimers();
  });

  it('wait for the next throttle slot without a key, and are drawn at once after one', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date', 'performance'] });
    const { instance, frames } = mount();
    unmount = () => instance.unmount();
    setKeyFrameDrawer(instance.renderNextCommitNow);
    await vi.advanceTimersByTimeAsync(20);
    const first = frames.length;
    expect(first).toBeGreaterThan(0);

    // A background update inside the 500 ms slot waits.
    setValue('background');
    await vi.advanceTimersByTimeAsync(100);
    expect(frames.length).toBe(first);

    // Let that frame go out, then a key press inside the next slot does not wait.
    await vi.advanceTimersByTimeAsync(500);
    const afterBackground = frames.length;
    expect(afterBackground).toBe(first + 1);
    drawKeyFrame();
    const pressedAt = performance.now();
    setValue('key');
    await vi.advanceTimersByTimeAsync(50);
    expect(frames.length).toBe(afterBackground + 1);
    expect(frames[afterBackground]! - pressedAt).toBeLessThan(50);
  });

  it('does nothing once the app is gone', () => {
    setKeyFrameDrawer(undefined);
    expect(() => drawKeyFrame()).not.toThrow();
  });
});
