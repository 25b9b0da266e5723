// A retry notice wraps under the status bar instead of being cut, and the bar says how many
// rows it takes so the live region's budget stays right.
import React from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup } from 'ink-testing-library';
import { StatusBar, statusBarHeight } from '../../src/ui/components/StatusBar.js';
import { FakeRuntime } from './fakeRuntime.js';
import { plain } from './harness.js';
import { renderSettled } from './settle.js';

afterEach(() => cleanup());

describe('status bar retry notice', () => {
  it('wraps at 60 columns with its last words visible, and counts its rows', async () => {
    const runtime = new FakeRuntime();
    const notice = 'provider "fake" (fake-model): server error (503): the upstream is overloaded right now — retry 2/4 in 3s';
    runtime.store.setState({ retryNotice: notice });
    const app = await renderSettled(<StatusBar runtime={runtime} width={60} turnRunning={false} />);
    const frame = plain(app.lastFrame());
    const lines = frame.split('\n');
    expect(lines.every((l) => l.length <= 60)).toBe(true);
    expect(frame.replace(/\n/g, ' ')).toContain('retry 2/4 in 3s');
    expect(statusBarHeight(notice, 60)).toBe(1 + lines.length - 1);
    expect(statusBarHeight(notice, 60)).toBeGreaterThan(2);
    expect(statusBarHeight(undefined, 60)).toBe(1);
  });
});
