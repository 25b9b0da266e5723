// CPU time of another process, read from /proc/<pid>/stat, so a benchmark can charge
// arbor's CPU to arbor alone while the benchmark itself, the terminal emulator and the
// model server use the same cores.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

let ticksPerSecond;

/** Clock ticks per second for utime/stime (usually 100). */
export function clockTicks() {
  if (ticksPerSecond === undefined) {
    const out = execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim();
    const n = Number(out);
    if (!Number.isInteger(n) || n <= 0) throw new Error(`getconf CLK_TCK returned "${out}"`);
    ticksPerSecond = n;
  }
  return ticksPerSecond;
}

/** User and system CPU time of `pid` in milliseconds (all its threads, not its children). */
export function processCpuMs(pid) {
  let text;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch (err) {
    throw new Error(`cannot read CPU time of pid ${pid}: ${err.code ?? err.message}`, { cause: err });
  }
  // The command name (field 2) is in parentheses and may contain spaces; fields after the
  // last ')' start at field 3 (state). utime and stime are fields 14 and 15.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  const utime = Number(fields[11]);
  const stime = Number(fields[12]);
  const hz = clockTicks();
  return { userMs: (utime * 1000) / hz, sysMs: (stime * 1000) / hz, totalMs: ((utime + stime) * 1000) / hz };
}

/** Resident set size of `pid` in bytes. */
export function processRssBytes(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const m = /^VmRSS:\s+(\d+)\s+kB/m.exec(status);
  if (!m) throw new Error(`no VmRSS for pid ${pid}`);
  return Number(m[1]) * 1024;
}
