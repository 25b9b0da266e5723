// Returns a finished run tree's garbage to the system once the chat is idle. V8 collects
// the old generation only when it reaches a limit that grows with the heap, and Node gives
// it no idle time to do so: after a large tree (hundreds of children streaming for minutes)
// the process kept ~3x the memory it still uses until the next busy period. When every run
// has ended and nothing has changed for IDLE_MS, one full collection is asked for, and only
// if the heap grew by GROWTH_BYTES since the last one: an idle chat never pays for it.
import * as inspector from 'node:inspector';
import type { RuntimeState } from '../runtime/types.js';
import { isTerminal } from '../model/run.js';
import type { StoreApi } from 'zustand/vanilla';

export const IDLE_MS = 1000;
export const GROWTH_BYTES = 32 * 1024 * 1024;

/** Settles once the collection is over (the inspector answers on a later tick). */
type Collect = () => void | Promise<void>;

// Node can be built without the inspector; then there is nothing to ask.
const Session = (inspector as Partial<typeof inspector>).Session;

/**
 * V8's memory-reducing full collection, asked for over the in-process inspector (the
 * protocol's HeapProfiler.collectGarbage; no --inspect or --expose-gc needed). A plain
 * full collection frees the objects but leaves half-empty pages committed; this one also
 * compacts them, so the memory goes back to the system.
 */
export function engineCollector(): Collect | undefined {
  if (!Session) return undefined;
  const InspectorSession = Session;
  return () =>
    new Promise<void>((resolve) => {
      const session = new InspectorSession();
      session.connect();
      // The reply comes on a later tick: disconnecting before it drops the request, and
      // disconnecting from inside its callback stalls the event loop (Node 20).
      session.post('HeapProfiler.collectGarbage', () =>
        setImmediate(() => {
          session.disconnect();
          resolve();
        }),
      );
    });
}

export interface IdleCollectorOptions {
  collect?: Collect;
  heapUsed?: () => number;
  idleMs?: number;
  growthBytes?: number;
}

/** Watches the store; returns a function that stops watching. */
export function startIdleCollector(store: StoreApi<RuntimeState>, opts: IdleCollectorOptions = {}): () => void {
  const collect = opts.collect ?? engineCollector();
  if (!collect) return () => {};
  const heapUsed = opts.heapUsed ?? (() => process.memoryUsage().heapUsed);
  const idleMs = opts.idleMs ?? IDLE_MS;
  const growth = opts.growthBytes ?? GROWTH_BYTES;
  let baseline = heapUsed();
  let lastChange = 0;
  let collecting = false;
  let timer: NodeJS.Timeout | undefined;

  const check = () => {
    timer = undefined;
    // The wait restarts with every change, so the collection follows the last one, not a
    // burst; the timer is re-armed for the remainder rather than reset on each update.
    const quietFor = Date.now() - lastChange;
    if (quietFor < idleMs) {
      arm(idleMs - quietFor);
      return;
    }
    const s = store.getState();
    if (s.activeRootRunId !== undefined) return;
    for (const id of s.runOrder) {
      const run = s.runs.get(id);
      if (run && !isTerminal(run.status)) return;
    }
    if (collecting || heapUsed() - baseline < growth) return;
    collecting = true;
    // Memory hygiene only: a collector that fails is skipped, never an error for the chat.
    void Promise.resolve()
      .then(collect)
      .catch(() => {})
      .finally(() => {
        collecting = false;
        baseline = heapUsed();
      });
  };
  const arm = (ms: number) => {
    timer = setTimeout(check, ms);
    timer.unref();
  };
  const unsubscribe = store.subscribe(() => {
    lastChange = Date.now();
    if (!timer) arm(idleMs);
  });
  return () => {
    unsubscribe();
    if (timer) clearTimeout(timer);
  };
}
