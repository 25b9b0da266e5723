// One process 'exit' listener for every open log, so buffered lines reach the disk on a
// normal exit (unref'd timers never fire then) without piling up a listener per log.

const flushers = new Set<() => void>();
let installed = false;

function flushAll(): void {
  for (const flush of flushers) {
    try {
      flush();
    } catch {
      // Exiting: nothing useful can be done with a write error here.
    }
  }
}

/** Registers `flush` to run synchronously at process exit; returns the unregister function. */
export function flushOnExit(flush: () => void): () => void {
  if (!installed) {
    process.on('exit', flushAll);
    installed = true;
  }
  flushers.add(flush);
  return () => {
    flushers.delete(flush);
  };
}
