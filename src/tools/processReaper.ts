// Finds and kills every process a tool call started, including ones that left its process
// group (setsid, double forks re-parented to init). Each tool subprocess is started with
// TOOL_RUN_MARKER=<fresh uuid> in its environment (tools/toolEnv.ts); children inherit it,
// so on Linux a sweep of /proc/<pid>/environ finds the whole family wherever it went.
//
// What is guaranteed where:
// - Linux (/proc readable): every descendant that kept the marker in its environment is
//   SIGKILLed, in any session or process group. A process that BOTH clears its
//   environment (env -i, execve with a new env) AND leaves the group escapes the sweep.
// - Elsewhere (no /proc): only the process group is killed; setsid or a double fork that
//   calls setsid escapes.
// killAllToolProcesses() is what shutdown paths (signals, exit) call.
import { readdirSync, readFileSync } from 'node:fs';
import { TOOL_RUN_MARKER } from './toolEnv.js';

/** Live tool calls: marker → process group id (the shell's pid; 0 when unknown). */
const live = new Map<string, number>();

/** Rounds of stop-then-kill: a process forking while we sweep is caught by a later round. */
const MAX_ROUNDS = 20;

let exitHooked = false;

export function registerToolProcess(marker: string, pgid: number | undefined): void {
  live.set(marker, pgid ?? 0);
  // However arbor ends (normal exit, process.exit from a signal handler), nothing a tool
  // started survives it. 'exit' handlers must be synchronous, and the sweep is.
  if (!exitHooked) {
    exitHooked = true;
    process.once('exit', () => {
      killAllToolProcesses();
    });
  }
}

export function unregisterToolProcess(marker: string): void {
  live.delete(marker);
}

/** Markers of tool calls still registered (tests, diagnostics). */
export function liveToolRuns(): string[] {
  return [...live.keys()];
}

function signal(pid: number, sig: NodeJS.Signals): void {
  try {
    process.kill(pid, sig);
  } catch {
    // ESRCH (gone) or EPERM (not ours): nothing to do.
  }
}

const procAvailable = (() => {
  try {
    readdirSync('/proc/self');
    return true;
  } catch {
    return false;
  }
})();

/** Pids whose environment carries one of `markers` (never this process). */
export function pidsCarrying(markers: Set<string>): number[] {
  if (!procAvailable || markers.size === 0) return [];
  const needles = [...markers].map((m) => Buffer.from(`${TOOL_RUN_MARKER}=${m}\0`));
  const out: number[] = [];
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return [];
  }
  for (const name of entries) {
    const c = name.charCodeAt(0);
    if (c < 48 || c > 57) continue;
    const pid = Number(name);
    if (pid === process.pid) continue;
    let environ: Buffer;
    try {
      environ = readFileSync(`/proc/${name}/environ`);
    } catch {
      continue; // gone, or another user's
    }
    // A variable starts the block or follows a NUL.
    for (const needle of needles) {
      const at = environ.indexOf(needle);
      if (at === 0 || (at > 0 && environ[at - 1] === 0)) {
        out.push(pid);
        break;
      }
    }
  }
  return out;
}

/** SIGKILLs the process groups and every process carrying one of the markers. Stops each
 * round's finds first, so none can fork a new child between being found and being killed.
 * Returns how many marked processes were killed. */
export function sweepToolRuns(markers: string[], pgids: number[] = []): number {
  for (const pgid of pgids) if (pgid > 0) signal(-pgid, 'SIGKILL');
  const wanted = new Set(markers);
  let killed = 0;
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const found = pidsCarrying(wanted);
    if (found.length === 0) break;
    for (const pid of found) signal(pid, 'SIGSTOP');
    for (const pid of found) signal(pid, 'SIGKILL');
    killed += found.length;
  }
  return killed;
}

function groupAlive(pgid: number): boolean {
  if (pgid <= 0) return false;
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

const POLL_MS = 50;

/** Ends one tool call's processes: SIGTERM to its group and every marked process now,
 * SIGKILL (group and sweep) to whatever is left after `graceMs`. The call stays registered
 * until then, so a shutdown sweep meanwhile still finds it. Resolves when done. */
export function terminateToolRun(marker: string, pgid: number | undefined, graceMs: number): Promise<void> {
  const markers = new Set([marker]);
  const group = pgid ?? 0;
  if (group > 0) signal(-group, 'SIGTERM');
  for (const pid of pidsCarrying(markers)) signal(pid, 'SIGTERM');
  const anyLeft = () => groupAlive(group) || pidsCarrying(markers).length > 0;
  const finish = () => {
    if (anyLeft()) sweepToolRuns([marker], group > 0 ? [group] : []);
    unregisterToolProcess(marker);
  };
  if (!anyLeft()) {
    unregisterToolProcess(marker);
    return Promise.resolve();
  }
  const deadline = Date.now() + graceMs;
  return new Promise((resolve) => {
    const poll = setInterval(() => {
      if (Date.now() < deadline && anyLeft()) return;
      clearInterval(poll);
      finish();
      resolve();
    }, POLL_MS);
    // Never keeps arbor alive: the exit hook sweeps whatever is still registered.
    poll.unref();
  });
}

/** Kills everything one tool call started: its group and every marked process. */
export function sweepToolRun(marker: string, pgid?: number): number {
  return sweepToolRuns([marker], pgid ? [pgid] : []);
}

/** Kills every process of every tool call still running, synchronously: the shutdown path
 * (SIGTERM/SIGHUP/SIGINT handlers, exit) calls this. Returns how many processes it found. */
export function killAllToolProcesses(): number {
  const markers = [...live.keys()];
  const pgids = [...live.values()];
  const killed = sweepToolRuns(markers, pgids);
  live.clear();
  return killed;
}
