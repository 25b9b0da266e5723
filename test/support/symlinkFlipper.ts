// The symlink race of the hardening suite (issue #10): a process that flips a link (or
// swaps a directory for a link) between an inside and an outside target in a tight loop
// while the file tools run. Shared by test/unit/tools/fileRace.test.ts (a plain folder) and
// test/unit/worktrees/fileRace.test.ts (an isolated child's worktree).
import { spawn, type ChildProcess } from 'node:child_process';

/** `flip` is atomically replaced (rename over it) by a link to `real.txt`, then to
 * `outsideFile`, in a tight loop. */
/** A loaded machine can starve the flipper: a race test's rounds go on (up to this many)
 * until the race has shown itself at least once, so "the race was real" never fails for
 * want of a flip. */
export const MAX_RACE_ROUNDS = 4000;
/** Each round is a tool call (grep's also starts git): on a loaded 2-core machine the rounds
 * a race may need outlast vitest's default time. */
export const RACE_TIMEOUT_MS = 120_000;

export const flipLink = (outsideFile: string) => `
const fs = require('node:fs');
let i = 0;
for (;;) {
  const tmp = 'flip.tmp';
  try { fs.unlinkSync(tmp); } catch {}
  fs.symlinkSync(i % 2 ? ${JSON.stringify(outsideFile)} : 'real.txt', tmp);
  fs.renameSync(tmp, 'flip');
  if (++i === 2) process.stdout.write('go');
}`;

/** `d` is a real directory (holding secret.txt = INSIDE), then a link to `outsideDir`,
 * swapped by renames. */
export const flipDir = (outsideDir: string) => `
const fs = require('node:fs');
fs.mkdirSync('d.dir');
fs.writeFileSync('d.dir/secret.txt', 'INSIDE');
fs.symlinkSync(${JSON.stringify(outsideDir)}, 'd.link');
let i = 0;
const swap = (from, to) => { try { fs.renameSync(from, to); } catch {} };
for (;;) {
  swap('d.dir', 'd'); swap('d', 'd.dir');
  swap('d.link', 'd'); swap('d', 'd.link');
  if (++i === 2) process.stdout.write('go');
}`;

export interface Flipper {
  stop(): Promise<void>;
}

/** Starts a process running `script` in `cwd`; resolves once it has flipped at least once. */
export async function startFlipper(script: string, cwd: string): Promise<Flipper> {
  const child: ChildProcess = spawn(process.execPath, ['-e', script], { cwd, stdio: ['ignore', 'pipe', 'inherit'] });
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const gone = new Promise((r) => child.once('exit', r));
    child.kill('SIGKILL');
    await gone;
  };
  try {
    await new Promise<void>((resolve, reject) => {
      child.stdout!.once('data', () => resolve());
      child.once('exit', (code) => reject(new Error(`flipper exited early (${code})`)));
    });
  } catch (err) {
    await stop();
    throw err;
  }
  return { stop };
}
