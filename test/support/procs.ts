// What /proc says about a process, for tests that check nothing a tool started survives.
import { readFileSync } from 'node:fs';

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
