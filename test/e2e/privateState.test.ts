// What arbor leaves under ARBOR_HOME is private however the user's umask is set: a chat and
// a headless run under umask 022 leave only 0700 folders and 0600 files, and a home an
// older arbor left readable is tightened at start with a one-line notice.
import { execFile } from 'node:child_process';
import { chmodSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect } from 'vitest';
import { arborBin } from '../support/paths.js';
import { baseEnv, disposeAllTerminals, startTerminal } from '../support/terminal.js';
import { PROCESS_TEST_TIMEOUT, PTY_TEST_TIMEOUT, READY, send, START_TIMEOUT, ptyTest } from './sandbox.js';

afterEach(async () => {
  await disposeAllTerminals();
});

/** Runs arbor through sh with `umask 022` set first, as a user's login shell would. */
function arborUnderUmask(
  args: string[],
  env: Record<string, string>,
  cwd: string,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      '/bin/sh',
      ['-c', 'umask 022; exec "$@"', 'sh', process.execPath, arborBin, ...args],
      { env: baseEnv(env), cwd, timeout: 30000 },
      (err, stdout, stderr) => resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

/** Every path under `dir` with its permission bits. */
function modesUnder(dir: string): Array<[string, number, boolean]> {
  const out: Array<[string, number, boolean]> = [];
  const walk = (p: string) => {
    const st = statSync(p);
    out.push([p, st.mode & 0o777, st.isDirectory()]);
    if (st.isDirectory()) for (const name of readdirSync(p)) walk(join(p, name));
  };
  walk(dir);
  return out;
}

describe('private state under ARBOR_HOME', () => {
  ptyTest('init, a chat and a headless run under umask 022 leave 0700 folders and 0600 files', PTY_TEST_TIMEOUT, async (sb) => {
    // A home arbor creates itself (the sandbox's own is made 0700 up front).
    const home = join(sb.h.dir, '..', 'fresh-home');
    const env = { ...sb.h.env, ARBOR_HOME: home, ARBOR_OFFLINE_CHILD_DELAY_MS: '0' };

    const init = await arborUnderUmask(['init'], env, sb.h.dir);
    expect(init.code).toBe(0);
    const headless = await arborUnderUmask(['-p', 'delegate in background to researcher: dig into Y'], env, sb.h.dir);
    expect(headless.code).toBe(0);
    expect(headless.stderr).not.toContain('readable by other users');

    const term = await startTerminal({
      command: '/bin/sh',
      args: ['-c', 'umask 022; exec "$@"', 'sh', process.execPath, arborBin],
      env,
      cwd: sb.h.dir,
    });
    await term.waitForText(READY, START_TIMEOUT);
    await term.waitForRawMode(START_TIMEOUT);
    await send(term, 'hello there');
    await term.waitForText('[offline model]', 10000);
    await term.waitForText(READY, 5000, { where: 'screen' });
    await send(term, '/quit');
    expect((await term.waitForExit(10000)).exitCode).toBe(0);

    const modes = modesUnder(home);
    const names = modes.map(([p]) => p.slice(home.length));
    expect(names).toContain('/config.toml');
    expect(names).toContain('/logs/arbor.log');
    expect(names.filter((n) => n.startsWith('/sessions/') && n.endsWith('.jsonl'))).toHaveLength(2);
    expect(names.some((n) => /^\/tasks\/[0-9a-f-]{36}\.json$/.test(n))).toBe(true);
    for (const [path, mode, isDir] of modes) expect([path, mode.toString(8)]).toEqual([path, isDir ? '700' : '600']);
  });

  ptyTest(
    'an existing 0644 session in a 0755 home is tightened at start, with a notice naming what changed',
    PROCESS_TEST_TIMEOUT,
    async (sb) => {
      const sessions = join(sb.h.home, 'sessions');
      mkdirSync(sessions, { recursive: true });
      const old = join(sessions, '20250101-000000-abcd.jsonl');
      writeFileSync(old, '{"type":"session"}\n', { mode: 0o644 });
      chmodSync(old, 0o644);
      chmodSync(sb.h.home, 0o755);
      chmodSync(sessions, 0o755);

      const r = await sb.arbor(['-p', 'hello']);
      expect(r.code).toBe(0);
      const notices = r.stderr.split('\n').filter((l) => l.includes('readable by other users'));
      expect(notices).toEqual([
        `warning: ${sb.h.home} was readable by other users; made it private (folders 0700, files 0600): ${sb.h.home}, sessions (2).`,
      ]);
      expect(statSync(old).mode & 0o777).toBe(0o600);
      expect(statSync(sessions).mode & 0o777).toBe(0o700);
      expect(statSync(sb.h.home).mode & 0o777).toBe(0o700);

      // Once private, the next start says nothing.
      const again = await sb.arbor(['-p', 'hello']);
      expect(again.stderr).not.toContain('readable by other users');
    },
  );
});
