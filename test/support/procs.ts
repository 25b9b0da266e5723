// What /proc says about a process, for tests that check nothing a tool started survives.
import { readdirSync, readFileSync } from 'node:fs';

/** Started by one of arbor's tool calls: it carries the reaper's marker variable. */
export function isToolProcess(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/environ`).includes('ARBOR_TOOL_RUN=');
  } catch {
    return false;
  }
}

function statFields(pid: number): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name may hold spaces and parentheses; the fields after the last ')' do not.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined;
  }
}

/** The process group id, 0 when the process is gone. */
export function groupOf(pid: number): number {
  return Number(statFields(pid)?.[2]) || 0;
}

/** Alive = exists and is not a zombie waiting for init to reap it. */
export function alive(pid: number): boolean {
  const fields = statFields(pid);
  return fields !== undefined && fields[0] !== 'Z';
}

/** Kills each tool process in `pids` still alive, with its whole process group: what a
 * failing test must not leave behind (a pid now someone else's is left alone). */
export function killToolProcesses(pids: number[]): void {
  for (const pid of pids) {
    if (!alive(pid) || !isToolProcess(pid)) continue;
    for (const target of [-groupOf(pid), pid]) {
      try {
        if (target !== 0) process.kill(target, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  }
}

export interface ProcEntry {
  pid: number;
  ppid: number;
  /** Process group id. */
  pgrp: number;
  /** The command line, its arguments split. */
  argv: () => string[];
}

/** Every live process (zombies left out), as /proc lists them now. */
export function liveProcesses(): ProcEntry[] {
  const out: ProcEntry[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const pid = Number(name);
    const fields = statFields(pid);
    if (!fields || fields[0] === 'Z' || fields[0] === 'X') continue;
    out.push({ pid, ppid: Number(fields[1]), pgrp: Number(fields[2]), argv: () => argvOf(pid) });
  }
  return out;
}

function argvOf(pid: number): string[] {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
  } catch {
    return [];
  }
}

/** Pids whose command line is exactly `sleep <seconds>`: a test's long sleep, marked by its length. */
export function sleepersOf(seconds: number): number[] {
  return liveProcesses()
    .filter((p) => {
      const [cmd, arg] = p.argv();
      return cmd?.endsWith('sleep') === true && arg === String(seconds);
    })
    .map((p) => p.pid);
}

/** Live members of process group `pgid`: a killed process stays a zombie until whoever
 * inherited it reaps it, which is not the test's to wait for. */
export function groupMembers(pgid: number): number[] {
  return liveProcesses()
    .filter((p) => p.pgrp === pgid)
    .map((p) => p.pid);
}
