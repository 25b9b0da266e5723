// Mounts the chat screen. Ink's own Ctrl+C exit is off (exitOnCtrlC: false): Ctrl+C
// interrupts a running turn and quits only when pressed twice, which the App decides.
import React from 'react';
import { render, type RenderOptions } from 'ink';
import { t } from '../i18n/index.js';
import { App, type AppProps } from './App.js';
import { setKeyFrameDrawer } from './keyFrame.js';
import { FRAME_MS } from './hooks/useThrottledStore.js';

/** Streaming text reaches the store a frame at a time; 20 frames a second reads as smooth
 * and leaves the CPU to the model stream. The chat takes its store slices once a frame. */
export const MAX_FPS = 1000 / FRAME_MS;

export interface RenderedApp {
  waitUntilExit(): Promise<void>;
  unmount(): void;
}

/**
 * `props.onExit` is called when the user quits (/quit, Ctrl+D on an empty line, Ctrl+C
 * twice); the screen is unmounted right after it, which restores the terminal and
 * resolves waitUntilExit(). Calling unmount() from onExit as well is harmless.
 */
export function renderApp(props: AppProps, options: Omit<RenderOptions, 'exitOnCtrlC'> = {}): RenderedApp {
  let instance: ReturnType<typeof render> | undefined;
  const onExit = () => {
    props.onExit();
    instance?.unmount();
  };
  instance = render(<App {...props} onExit={onExit} />, {
    exitOnCtrlC: false,
    maxFps: MAX_FPS,
    // Off: Ink 6.8's incremental renderer starts each redraw one row low and leaves stale
    // copies of the input line and status bar behind (seen in the pty tests). ARBOR_INCREMENTAL=1
    // turns it back on for experiments only.
    incrementalRendering: process.env.ARBOR_INCREMENTAL === '1',
    ...options,
  });
  const mounted = instance;
  // Only arbor's Ink (vendor/ink, bundled into dist/) draws a key's frame at once. Running
  // on another Ink means a build that lost it: say so rather than feel slow for no reason.
  if (typeof mounted.renderNextCommitNow !== 'function') {
    mounted.unmount();
    throw new Error(t('doctor:inkUnchanged'));
  }
  setKeyFrameDrawer(mounted.renderNextCommitNow);
  const forget = () => setKeyFrameDrawer(undefined);
  mounted.waitUntilExit().then(forget, forget);
  return {
    waitUntilExit: async () => {
      await mounted.waitUntilExit();
    },
    unmount: () => mounted.unmount(),
  };
}
