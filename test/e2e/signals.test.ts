// SIGTERM, SIGHUP and SIGINT end arbor cleanly while a shell tool is running: no process
// the tool started survives, the exit code is 128+n, the prompt typed just before is in
// the session file (the 2 s auto-flush would have lost it), and the terminal is restored.
// In the chat (a real pty) and headless (-p).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect } from 'vitest';
import { groupMembers, sleepersOf } from '../support/procs.js';
import { spawnArbor } from '../support/runArbor.js';
import { disposeAllTerminals } from '../support/terminal.js';
import { fileWritten, until } from '../support/until.js';
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

const groupAlive = (pgid: number) => groupMembers(pgid).length > 0;

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
        const pgid = Number(await fileWritten(pidFile));
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
    const termFile = join(sb.h.dir, 'shell.term');
    // A command that ignores SIGTERM: the graceful path waits for the shell tool's SIGKILL.
    // The sleep ignores it; its shell notes it in termFile (and goes on waiting), which shows
    // when arbor's first SIGTERM has reached the tool: the shutdown is under way.
    const command = `trap 'echo term >> ${termFile}' TERM; echo $$ > ${pidFile}; (trap '' TERM; exec sleep ${seconds}) & while :; do wait; done`;
    await sb.withModel(({ body }) => {
      const msgs = messagesOf(body);
      if (msgs.at(-1)?.role === 'tool') return { kind: 'text', chunks: ['slept'] };
      return { kind: 'tools', calls: [{ id: 'sh1', name: 'shell', args: { command } }] };
    }, AUTO_SHELL);
    const term = await sb.startArbor();
    await send(term, 'ignore the polite signal');
    await fileWritten(pidFile);
    await term.waitFor(() => sleepersOf(seconds).length > 0, 'the sleep to start');
    const started = Date.now();
    process.kill(term.pid, 'SIGTERM');
    await fileWritten(termFile, 5000);
    process.kill(term.pid, 'SIGTERM');
    const exit = await term.waitForExit(10000);
    expect(exit.exitCode).toBe(143);
    expect(Date.now() - started).toBeLessThan(1500);
    await term.flush();
    expect(term.scrollback()).toContain('arbor: SIGTERM received again: exiting at once.');
    expect(sessionText(sb.h.home)).toContain('ignore the polite signal');
    // The command that ignored SIGTERM did not outlive the forced exit either.
    await until(() => sleepersOf(seconds).length === 0, 1000).catch(() => undefined);
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
        const run = spawnArbor(['-p', prompt, '--yes'], { env: sb.h.env, cwd: sb.h.dir, ctx });
        const pgid = Number(await fileWritten(pidFile));
        await until(() => sleepersOf(seconds).length > 0, 10000, 'the sleep to start');

        run.child.kill(signal);
        expect(await run.closed).toBe(code);
        expect(groupAlive(pgid)).toBe(false);
        expect(sleepersOf(seconds)).toEqual([]);
        expect(sessionText(sb.h.home)).toContain(prompt);
        expect(run.stderr()).toContain(`arbor: ${signal} received: stopped every run and saved the session.`);
      },
    );
  });
});
