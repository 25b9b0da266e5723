// SIGTERM, SIGHUP and SIGINT end arbor cleanly while a shell tool is running: no process
// the tool started survives, the exit code is 128+n, the prompt typed just before is in
// the session file (the 2 s auto-flush would have lost it), and the terminal is restored.
// In the chat (a real pty) and headless (-p).
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect } from 'vitest';
import { arborBin } from '../support/paths.js';
import { trustFolderForTest } from '../support/trustFolder.js';
import { baseEnv, disposeAllTerminals } from '../support/terminal.js';
import { PROCESS_TEST_TIMEOUT, PTY_TEST_TIMEOUT, send, ptyTest } from './sandbox.js';
import { messagesOf } from '../support/wireBody.js';

afterEach(async () => {
  await disposeAllTerminals();
});

const SIGNALS = [
  ['SIGTERM', 143],
  ['SIGHUP', 129],
  ['SIGINT', 130],
] as const;

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** A model that runs one long shell command, which writes its shell's pid (its process
 * group) to `pidFile` first; a unique sleep length marks its processes. */
function sleeperModel(pidFile: string, seconds: number) {
  return ({ body }: { body: any }) => {
    const msgs = body.messages ?? [];
    if (msgs.at(-1)?.role === 'tool') return { kind: 'text' as const, chunks: ['slept'] };
    return {
      kind: 'tools' as const,
      calls: [{ id: 'sh1', name: 'shell', args: { command: `echo $$ > ${pidFile}; sleep ${seconds}; echo done` } }],
    };
  };
}

async function waitForFile(path: string, ms = 15000): Promise<string> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (existsSync(path)) {
      const text = readFileSync(path, 'utf8').trim();
      if (text) return text;
    }
    await sleep(25);
  }
  throw new Error(`${path} did not appear within ${ms} ms`);
}

/** Live (not zombie) members of process group `pgid`: a killed process stays a zombie
 * until whoever inherited it reaps it, which is not ours to wait for. */
function groupMembers(pgid: number): number[] {
  const out: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      // pid (comm) state ppid pgrp ...; comm may hold spaces, so split after the last ')'.
      const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(pgrp) === pgid && state !== 'Z' && state !== 'X') out.push(Number(name));
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

const groupAlive = (pgid: number) => groupMembers(pgid).length > 0;

/** Pids whose command line is exactly `sleep <seconds>` (the tool's marker). */
function sleepersOf(seconds: number): number[] {
  const out: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (/\) [ZX] /.test(readFileSync(`/proc/${name}/stat`, 'utf8'))) continue;
      const cmd = readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0').filter(Boolean);
      if (cmd[0]?.endsWith('sleep') && cmd[1] === String(seconds)) out.push(Number(name));
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

function sessionText(home: string): string {
  const dir = join(home, 'sessions');
  return readdirSync(dir)
    .map((n) => readFileSync(join(dir, n), 'utf8'))
    .join('');
}

const AUTO_SHELL = '\n[risk_profiles.default]\nauto_approve = ["shell"]\n';

describe.runIf(process.platform === 'linux')('signals in the chat', () => {
  SIGNALS.forEach(([signal, code], i) => {
    ptyTest(
      `${signal} while a shell tool runs: no process left, exit ${code}, the last prompt saved, terminal restored`,
      PTY_TEST_TIMEOUT,
      async (sb) => {
        const seconds = 4300 + i;
        const pidFile = join(sb.h.dir, 'shell.pid');
        await sb.withModel(sleeperModel(pidFile, seconds), AUTO_SHELL);
        const term = await sb.startArbor();
        const prompt = `please run the long sleeper ${signal.toLowerCase()}`;
        await send(term, prompt);
        const pgid = Number(await waitForFile(pidFile));
        expect(groupAlive(pgid)).toBe(true);
        await term.waitFor(() => sleepersOf(seconds).length > 0, 'the sleep to start');

        process.kill(term.pid, signal);
        const exit = await term.waitForExit(10000);
        expect(exit.exitCode).toBe(code);
        expect(groupAlive(pgid)).toBe(false);
        expect(sleepersOf(seconds)).toEqual([]);
        expect(sessionText(sb.h.home)).toContain(prompt);
        // The screen is back to normal: the cursor is shown again, the line says what happened.
        await term.flush();
        expect(term.scrollback()).toContain(`arbor: ${signal} received: stopped every run and saved the session.`);
      },
    );
  });

  ptyTest('a second signal during the shutdown forces the exit at once', PTY_TEST_TIMEOUT, async (sb) => {
    const seconds = 4310;
    const pidFile = join(sb.h.dir, 'shell.pid');
    // A command that ignores SIGTERM: the graceful path waits for the shell tool's SIGKILL.
    await sb.withModel(({ body }) => {
      const msgs = messagesOf(body);
      if (msgs.at(-1)?.role === 'tool') return { kind: 'text', chunks: ['slept'] };
      return {
        kind: 'tools',
        calls: [{ id: 'sh1', name: 'shell', args: { command: `trap '' TERM; echo $$ > ${pidFile}; sleep ${seconds}` } }],
      };
    }, AUTO_SHELL);
    const term = await sb.startArbor();
    await send(term, 'ignore the polite signal');
    await waitForFile(pidFile);
    await term.waitFor(() => sleepersOf(seconds).length > 0, 'the sleep to start');
    const started = Date.now();
    process.kill(term.pid, 'SIGTERM');
    await sleep(200);
    process.kill(term.pid, 'SIGTERM');
    const exit = await term.waitForExit(10000);
    expect(exit.exitCode).toBe(143);
    expect(Date.now() - started).toBeLessThan(1500);
    await term.flush();
    expect(term.scrollback()).toContain('arbor: SIGTERM received again: exiting at once.');
    expect(sessionText(sb.h.home)).toContain('ignore the polite signal');
    // The command that ignored SIGTERM did not outlive the forced exit either.
    const deadline = Date.now() + 1000;
    while (sleepersOf(seconds).length > 0 && Date.now() < deadline) await sleep(25);
    const left = sleepersOf(seconds);
    for (const pid of left) process.kill(pid, 'SIGKILL');
    expect(left).toEqual([]);
  });
});

describe.runIf(process.platform === 'linux')('signals headless', () => {
  SIGNALS.forEach(([signal, code], i) => {
    ptyTest(
      `${signal} during -p while a shell tool runs: no process left, exit ${code}, the prompt saved`,
      PROCESS_TEST_TIMEOUT,
      async (sb, ctx) => {
        const seconds = 4320 + i;
        const pidFile = join(sb.h.dir, 'shell.pid');
        await sb.withModel(sleeperModel(pidFile, seconds));
        const prompt = `headless sleeper ${signal.toLowerCase()}`;
        // Spawned directly: the harness's trust of the test's own .arbor is done here.
        trustFolderForTest(sb.h.dir, baseEnv(sb.h.env));
        const child = spawn(process.execPath, [arborBin, '-p', prompt, '--yes'], {
          cwd: sb.h.dir,
          env: baseEnv(sb.h.env),
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        let stderr = '';
        child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
        const exited = new Promise<number | null>((r) => child.on('close', (c) => r(c)));
        ctx.onTestFinished(() => {
          if (child.exitCode === null) child.kill('SIGKILL');
        });
        const pgid = Number(await waitForFile(pidFile));
        const deadline = Date.now() + 10000;
        while (sleepersOf(seconds).length === 0 && Date.now() < deadline) await sleep(25);

        child.kill(signal);
        expect(await exited).toBe(code);
        expect(groupAlive(pgid)).toBe(false);
        expect(sleepersOf(seconds)).toEqual([]);
        expect(sessionText(sb.h.home)).toContain(prompt);
        expect(stderr).toContain(`arbor: ${signal} received: stopped every run and saved the session.`);
      },
    );
  });
});
