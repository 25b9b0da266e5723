// arbor run without a terminal (pipes), for commands like `arbor doctor` and `--print`.
import { spawn as spawnChild, type ChildProcessByStdio } from 'node:child_process';
import type { Readable } from 'node:stream';
import { arborBin } from './paths.js';
import { baseEnv } from './terminal.js';
import { trustFolderForTest } from './trustFolder.js';

export interface RunResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Runs bin/arbor.js without a terminal. Asynchronous on purpose: a loopback server in this
 * process must keep answering while arbor runs. */
export function runArbor(
  args: string[],
  opts: { env?: Record<string, string>; cwd?: string; input?: string; timeoutMs?: number; trustProject?: boolean } = {},
): Promise<RunResult> {
  // The test wrote the folder's .arbor settings: trusted first unless the test says not.
  if (opts.trustProject !== false) trustFolderForTest(opts.cwd ?? process.cwd(), baseEnv(opts.env));
  return new Promise((resolveRun, reject) => {
    const child = spawnChild(process.execPath, [arborBin, ...args], {
      cwd: opts.cwd ?? process.cwd(),
      env: baseEnv(opts.env),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const { stdout, stderr } = collected(child);
    const timeoutMs = opts.timeoutMs ?? 30000;
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`arbor ${args.join(' ')} did not finish within ${timeoutMs} ms\nstdout: ${stdout()}\nstderr: ${stderr()}`));
    }, timeoutMs);
    child.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolveRun({ code, signal, stdout: stdout(), stderr: stderr() });
    });
    child.stdin.on('error', () => {
      /* the child may exit before reading stdin */
    });
    child.stdin.end(opts.input ?? '');
  });
}

export interface SpawnedArbor {
  child: ChildProcessByStdio<null, Readable, Readable>;
  /** Resolves with the exit code once the process and its pipes are closed. */
  closed: Promise<number | null>;
  stdout(): string;
  stderr(): string;
}

/** Starts bin/arbor.js without a terminal and hands back the process, for a test that acts
 * on it while it runs (a signal, a pipe closed early); killed when the test ends. */
export function spawnArbor(
  args: string[],
  opts: { env: Record<string, string>; cwd: string; ctx: { onTestFinished(fn: () => void): unknown } },
): SpawnedArbor {
  // The folder's .arbor settings are the test's own: trusted as runArbor does.
  trustFolderForTest(opts.cwd, baseEnv(opts.env));
  const child = spawnChild(process.execPath, [arborBin, ...args], {
    cwd: opts.cwd,
    env: baseEnv(opts.env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const { stdout, stderr } = collected(child);
  const closed = new Promise<number | null>((r) => child.on('close', (c) => r(c)));
  opts.ctx.onTestFinished(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  return { child, closed, stdout, stderr };
}

/** What a child writes to its piped stdout and stderr, kept as it comes. */
function collected(child: { stdout: Readable; stderr: Readable }): { stdout: () => string; stderr: () => string } {
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  return { stdout: () => stdout, stderr: () => stderr };
}

/** Text holding one JSON object a line (`--output json` stdout, a JSONL log), parsed. */
export function jsonLines(text: string): any[] {
  return text
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as unknown);
}
