// How arbor ends on SIGTERM, SIGHUP and SIGINT, in the chat and headless alike: every run
// is stopped through the supervisor (so a running shell command's process group gets its
// abort-kill and the run's outcome and task record are written), the session and trace
// are flushed, the terminal is put back, and the process exits 128+n. A second signal
// during that forces the exit at once (a synchronous flush of what is buffered, then out). The chat's own Ctrl+C (a key in raw mode, not a
// signal) is not handled here.
import { constants } from 'node:os';
import { t } from '../i18n/index.js';
import type { Runtime } from '../runtime/runtime.js';
import { restoreTerminal } from '../ui/terminalRestore.js';

export const SHUTDOWN_SIGNALS = ['SIGTERM', 'SIGHUP', 'SIGINT'] as const;
export type ShutdownSignal = (typeof SHUTDOWN_SIGNALS)[number];

/** How long runs get to unwind. Longer than the shell tool's SIGTERM→SIGKILL grace
 * (KILL_GRACE_MS, 2 s), so even a command that ignores SIGTERM is killed before arbor goes. */
export const SETTLE_MS = 3000;
/** Upper bound on the whole graceful path; past it the exit is forced. */
export const SHUTDOWN_BOUND_MS = 5000;

export interface ShutdownTarget {
  runtime: Runtime;
  /** Writes what is buffered (session, trace) and closes the logs. Synchronous; must not
   * throw (report instead). */
  flush(): void;
  /** Unmounts the chat screen, if there is one. */
  closeUi?(): void;
  /** Kills (SIGKILL) whatever tool processes are still there: after the runs have settled
   * (they had their SIGTERM through the abort), and at once on a forced exit. main.ts
   * passes tools/processReaper.ts's killAllToolProcesses. */
  reapToolProcesses?(): void;
}

export interface ShutdownOptions {
  stderr?: NodeJS.WritableStream;
  exit?: (code: number) => void;
}

export interface SignalShutdown {
  /** Set while a shutdown runs: the caller's normal exit path awaits it instead of racing it
   * (the promise never resolves; the process exits). */
  readonly pending: Promise<never> | undefined;
  uninstall(): void;
}

export function exitCodeFor(signal: ShutdownSignal): number {
  return 128 + constants.signals[signal];
}

export function installSignalShutdown(target: ShutdownTarget, opts: ShutdownOptions = {}): SignalShutdown {
  const stderr = opts.stderr ?? process.stderr;
  const exit = opts.exit ?? ((code: number) => process.exit(code));
  let pending: Promise<never> | undefined;
  let exited = false;

  const say = (line: string) => {
    try {
      stderr.write(`${line}\n`);
    } catch {
      // stderr is gone (the terminal hung up).
    }
  };
  const finish = (code: number, line: string) => {
    if (exited) return;
    exited = true;
    try {
      target.closeUi?.();
    } catch {
      // The screen may already be gone.
    }
    restoreTerminal();
    // After the screen is down, so the line stays visible in the shell.
    say(line);
    exit(code);
  };
  // A second signal, or the bound passed: whatever is buffered is written, then out.
  const reap = () => {
    try {
      target.reapToolProcesses?.();
    } catch {
      // Best effort: exiting anyway.
    }
  };
  const force = (signal: ShutdownSignal) => {
    reap();
    try {
      target.flush();
    } catch {
      // Exiting anyway.
    }
    finish(exitCodeFor(signal), t('cli:signalForced', { signal }));
  };

  const graceful = async (signal: ShutdownSignal): Promise<void> => {
    const bound = setTimeout(() => force(signal), SHUTDOWN_BOUND_MS);
    try {
      await target.runtime.shutdown(SETTLE_MS);
    } catch {
      // A run that fails while stopping must not keep arbor alive.
    }
    clearTimeout(bound);
    if (exited) return;
    reap();
    try {
      target.flush();
    } catch {
      // Reported by the flush itself; the exit goes on.
    }
    finish(exitCodeFor(signal), t('cli:signalShutdown', { signal }));
  };

  const onSignal = (signal: ShutdownSignal) => {
    if (pending) {
      force(signal);
      return;
    }
    pending = new Promise<never>(() => {});
    // After SIGHUP the terminal is gone: a frame drawn while runs unwind fails with EIO,
    // which must not end arbor before the session is saved.
    for (const stream of [process.stdout, process.stderr]) stream.on('error', () => {});
    void graceful(signal);
  };
  const handlers = SHUTDOWN_SIGNALS.map((signal) => {
    const handler = () => onSignal(signal);
    process.on(signal, handler);
    return [signal, handler] as const;
  });

  return {
    get pending() {
      return pending;
    },
    uninstall() {
      for (const [signal, handler] of handlers) process.off(signal, handler);
    },
  };
}
