// Waits on React itself instead of the clock: input is written inside React's act(), which
// returns once every render, commit and effect the input caused has run (Ink draws each
// commit at once in debug mode, so the frame is current too). A lone ESC is held by the
// keypress reader until its timeout; the wait covers that by the reader's own signal.
import { createRequire } from 'node:module';
import { act, type ReactElement } from 'react';
import { render } from 'ink-testing-library';
import { keypressSourceFor } from '../../src/ui/keys/keypressSource.js';

type ActGlobal = typeof globalThis & { IS_REACT_ACT_ENVIRONMENT?: boolean };

/** Runs `work` and resolves when React has nothing left to do for it. */
export function settle(work: () => unknown): Promise<void> {
  return queueSettle(async () => {
    await work();
  });
}

async function actScope(work: () => Promise<void>): Promise<void> {
  const g = globalThis as ActGlobal;
  const before = g.IS_REACT_ACT_ENVIRONMENT;
  // Only inside the act() scope: updates from timers and runtime events elsewhere in a test
  // are not act-wrapped, and React would warn about each of them if the flag stayed on.
  g.IS_REACT_ACT_ENVIRONMENT = true;
  try {
    await act(work);
  } finally {
    g.IS_REACT_ACT_ENVIRONMENT = before;
  }
}

interface KeyInput {
  write(data: string): unknown;
}

type SourceInput = Parameters<typeof keypressSourceFor>[0];
const escapeSettled = (stdin: KeyInput) => keypressSourceFor(stdin as unknown as SourceInput).escapeSettled();

let inFlight: Promise<void> | undefined;

/** Writes `data` as one typed chunk and waits until the app has handled and drawn it. A test
 * that does not await a key (to type the next one "in the same tick") gets the next write
 * at once, as a terminal would deliver it; its wait joins the one already running, since
 * React supports one act() scope at a time. */
export function pressInto(stdin: KeyInput, data: string): Promise<void> {
  if (inFlight) {
    stdin.write(data);
    return queueSettle(() => escapeSettled(stdin));
  }
  return queueSettle(() => {
    stdin.write(data);
    return escapeSettled(stdin);
  });
}

/** Starts `work` in an act() scope now if none is running, else right after the last one. */
function queueSettle(work: () => Promise<void>): Promise<void> {
  const previous = inFlight;
  const run = previous ? previous.catch(() => undefined).then(() => actScope(work)) : actScope(work);
  inFlight = run;
  const clear = () => {
    if (inFlight === run) inFlight = undefined;
  };
  run.then(clear, clear);
  return run;
}

// React's own task queue (react-reconciler schedules passive effects on it). It has no types.
const scheduler = createRequire(import.meta.url)('scheduler') as {
  unstable_IdlePriority: number;
  unstable_scheduleCallback(priority: number, callback: () => void): unknown;
};

/** Resolves when React's scheduler reaches a task queued behind everything it holds now: an
 * idle-priority task runs after every task of a higher priority, queued before or after. */
function schedulerDrained(): Promise<void> {
  return new Promise((resolve) => scheduler.unstable_scheduleCallback(scheduler.unstable_IdlePriority, resolve));
}

/** Lets React finish what is pending outside an act() scope: a frame a test just saw and the
 * effects after it (a newly drawn prompt subscribing to keys, a queued message being sent). */
export async function settled(): Promise<void> {
  await schedulerDrained();
  await settle(() => undefined);
}

/** Renders `tree` with ink-testing-library once its first commit and effects have run. */
export async function renderSettled(tree: ReactElement): Promise<ReturnType<typeof render>> {
  let app!: ReturnType<typeof render>;
  await settle(() => {
    app = render(tree);
  });
  return app;
}
