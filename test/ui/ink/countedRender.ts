// Renders a tree through arbor's Ink into a SizedStdout and counts the frames it draws: the
// Ink-level tests measure work per frame, so they share one way of mounting and counting.
import type { ReactElement } from 'react';
import { render } from 'ink';
import { SizedStdout } from '../harness.js';
import { QuietStdin } from '../../support/quietStdin.js';

/** `node` on a cols×rows screen at `maxFps`; `frames()` is how many frames Ink has drawn so far. */
export function renderCounted(node: ReactElement, { cols, rows, maxFps }: { cols: number; rows: number; maxFps: number }) {
  const stdout = new SizedStdout(cols, rows);
  let frames = 0;
  const instance = render(node, {
    stdout: stdout as unknown as NodeJS.WriteStream,
    stderr: new SizedStdout(cols, rows) as unknown as NodeJS.WriteStream,
    stdin: new QuietStdin() as unknown as NodeJS.ReadStream,
    exitOnCtrlC: false,
    patchConsole: false,
    maxFps,
    onRender: () => frames++,
  });
  return { instance, stdout, frames: () => frames };
}
