// A reader that goes away (`arbor -p … | head -1`, `| true`, a closed log pipe) is normal
// for a command-line tool: the write fails with EPIPE, which Node raises as an 'error' event
// that, unhandled, ends the process mid-turn with a stack and an unsaved session. Here a
// pipe or file that closes is marked closed and further writes are dropped, so the turn
// finishes and is saved and the exit code stays the turn's own (see README, Headless).
// Terminals are left alone: a hung-up terminal is the signal shutdown's business (SIGHUP).

/** Errors that mean "nobody reads this any more", not "something is broken here". */
const GONE = new Set(['EPIPE', 'ECONNRESET', 'ERR_STREAM_DESTROYED', 'EIO']);

export interface GuardedOutput {
  /** Writes unless the reader has gone; never throws. */
  write(text: string): void;
  /** True once the reader has closed its end. */
  readonly closed: boolean;
}

type OutStream = NodeJS.WritableStream & { isTTY?: boolean; destroyed?: boolean; writable?: boolean };

const guarded = new WeakMap<object, GuardedOutput>();

/** The stream wrapped once: its 'error' listener marks it closed instead of crashing. An
 * error that is not a gone reader is rethrown, as it would have been without the guard. */
export function guardOutput(stream: OutStream): GuardedOutput {
  const known = guarded.get(stream);
  if (known) return known;
  let closed = false;
  stream.on('error', (err: NodeJS.ErrnoException) => {
    if (err && typeof err.code === 'string' && GONE.has(err.code)) {
      closed = true;
      return;
    }
    throw err;
  });
  const out: GuardedOutput = {
    write(text) {
      if (closed || stream.destroyed === true || stream.writable === false) {
        closed = true;
        return;
      }
      try {
        stream.write(text);
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        if (typeof code === 'string' && GONE.has(code)) closed = true;
        else throw err;
      }
    },
    get closed() {
      return closed;
    },
  };
  guarded.set(stream, out);
  return out;
}

/** process.stdout and process.stderr guarded when they are pipes or files, so every write
 * anywhere in arbor (warnings, notices, the answer) survives a reader that has gone. */
export function guardProcessOutput(): void {
  for (const stream of [process.stdout, process.stderr]) {
    if (!stream.isTTY) guardOutput(stream);
  }
}
