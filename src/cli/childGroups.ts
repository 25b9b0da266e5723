// The last resort on the way out: every direct child of arbor that leads its own process
// group is a tool's command (the shell tool starts each one detached, as a group leader),
// and whatever is still in such a group when arbor exits would be orphaned. Linux only
// (/proc); a descendant that left its group (setsid) is the tool layer's reaper's job.
import { readdirSync, readFileSync } from 'node:fs';

/** Signals the process group of every live direct child that leads one; returns how many. */
export function killChildProcessGroups(signal: NodeJS.Signals = 'SIGKILL'): number {
  if (process.platform !== 'linux') return 0;
  let names: string[];
  try {
    names = readdirSync('/proc');
  } catch {
    return 0;
  }
  let killed = 0;
  for (const name of names) {
    if (!/^\d+$/.test(name)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${name}/stat`, 'utf8');
    } catch {
      continue;
    }
    // "pid (comm) state ppid pgrp ...": comm may contain spaces and parentheses.
    const [state, ppid, pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const pid = Number(name);
    if (Number(ppid) !== process.pid || Number(pgrp) !== pid || state === 'Z') continue;
    try {
      process.kill(-pid, signal);
      killed++;
    } catch {
      // Gone meanwhile.
    }
  }
  return killed;
}
