// A full disk never costs an answer. Headless: the answer is printed, the failed save is a
// warning on stderr, exit code 0, no crash. Chat: the answer shows, the status bar and a
// notice say the session is not being saved, and once there is room again the next write
// saves everything and says so. The failure is injected into arbor's session appends (a
// preloaded module), so this runs everywhere; where the test runs as root and may mount,
// a real tiny tmpfs filled to the last byte is used as well.
import { execFileSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect } from 'vitest';
import { disposeAllTerminals, startTerminal } from '../support/terminal.js';
import { repoRoot } from '../support/paths.js';
import { runArbor } from '../support/runArbor.js';
import { PROCESS_TEST_TIMEOUT, PTY_TEST_TIMEOUT, READY, send, START_TIMEOUT, ptyTest } from './sandbox.js';
import { messagesOf, textOf } from '../support/wireBody.js';

afterEach(async () => {
  await disposeAllTerminals();
});

const PRELOAD = join(repoRoot, 'test', 'e2e', 'fixtures', 'enospc.mjs');
const NOT_SAVED = /The session is not being saved: Could not write session file .*ENOSPC/;

function sessionText(home: string): string {
  const dir = join(home, 'sessions');
  return readdirSync(dir)
    .filter((n) => n.endsWith('.jsonl'))
    .map((n) => readFileSync(join(dir, n), 'utf8'))
    .join('');
}

describe('full disk (injected ENOSPC on session writes)', () => {
  ptyTest('headless: the answer is printed, the failed save is a warning on stderr, exit 0', PROCESS_TEST_TIMEOUT, async (sb) => {
    await sb.withModel(() => ({ kind: 'text', chunks: ['The full ', 'answer.'] }));
    const flag = join(sb.h.dir, '..', 'disk-full');
    writeFileSync(flag, '');
    const r = await runArbor(['-p', 'hello'], {
      env: { ...sb.h.env, NODE_OPTIONS: `--import=${PRELOAD}`, ARBOR_TEST_ENOSPC_FLAG: flag },
      cwd: sb.h.dir,
    });
    expect(r.stdout).toBe('The full answer.\n');
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(NOT_SAVED);
    expect(r.stderr).toMatch(/warning: Could not write session file .*ENOSPC.* — \d+ session events could not be saved before exit\./);
    expect(r.stderr).not.toMatch(/\n\s+at /); // no stack trace
  });

  ptyTest(
    'chat: the answer shows with a status-bar warning and one notice; with room again the next turn saves everything',
    PTY_TEST_TIMEOUT,
    async (sb) => {
      await sb.withModel(({ body }) => {
        const last = messagesOf(body).at(-1);
        return { kind: 'text', chunks: [`answer to ${textOf(last?.content)}`] };
      });
      const flag = join(sb.h.dir, '..', 'disk-full');
      writeFileSync(flag, '');
      const term = await startTerminal({
        env: { ...sb.h.env, NODE_OPTIONS: `--import=${PRELOAD}`, ARBOR_TEST_ENOSPC_FLAG: flag },
        cwd: sb.h.dir,
      });
      await term.waitForText(READY, START_TIMEOUT);
      await term.waitForRawMode(START_TIMEOUT);

      await send(term, 'first prompt');
      await term.waitForText('answer to first prompt');
      await term.waitForText('The session is not being saved: Could not write session file');
      await term.waitForText('ENOSPC');
      await term.waitForText('⚠ session not saved (retrying)', 5000, { where: 'screen' });
      await send(term, 'second prompt');
      await term.waitForText('answer to second prompt');
      await term.waitForText(READY, 5000, { where: 'screen' });
      // Said once, not per failed write.
      expect(term.scrollback().match(/The session is not being saved/g)).toHaveLength(1);
      expect(sessionText(sb.h.home)).not.toContain('second prompt');

      rmSync(flag);
      await send(term, 'third prompt');
      await term.waitForText('answer to third prompt');
      await term.waitForText('The session is saved again: everything kept in memory is now on disk.');
      await term.waitForNoText('session not saved', 5000, { where: 'screen' });
      const saved = sessionText(sb.h.home);
      for (const p of ['first prompt', 'second prompt', 'third prompt', 'answer to first prompt']) expect(saved).toContain(p);
      await send(term, '/quit');
      expect((await term.waitForExit(10000)).exitCode).toBe(0);
    },
  );
});

/** Mounts a tmpfs of `size` at `dir`; false where that is not possible (not root, no
 * CAP_SYS_ADMIN, not Linux). */
function tryMountTmpfs(dir: string, size: string): boolean {
  if (process.platform !== 'linux' || process.getuid?.() !== 0) return false;
  try {
    mkdirSync(dir, { recursive: true });
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size},mode=0700`, 'tmpfs', dir], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Writes a filler file until the file system is full. */
function fillUp(dir: string): string {
  const path = join(dir, 'filler');
  const fd = openSync(path, 'w');
  const block = Buffer.alloc(4096, 120);
  try {
    for (;;) writeSync(fd, block);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
  } finally {
    closeSync(fd);
  }
  // The last partial block: byte by byte, so not one byte is left.
  const tail = openSync(path, 'a');
  try {
    for (;;) writeSync(tail, 'x');
  } catch {
    /* full */
  } finally {
    closeSync(tail);
  }
  return path;
}

describe('full disk (a real tmpfs, where the test may mount one)', () => {
  ptyTest(
    'headless: the disk fills during the turn; the answer is still printed with the warning',
    PROCESS_TEST_TIMEOUT,
    async (sb, ctx) => {
      const mnt = join(sb.h.dir, '..', 'tiny-home');
      if (!tryMountTmpfs(mnt, '256k')) {
        ctx.skip();
        return;
      }
      ctx.onTestFinished(() => {
        try {
          execFileSync('umount', [mnt], { stdio: 'ignore' });
        } catch {
          /* already gone */
        }
      });
      let filler: string | undefined;
      await sb.withModel(() => {
        // arbor has started and written its session header: now the disk fills up.
        filler ??= fillUp(mnt);
        // Longer than what is left of the session file's last page, so saving it needs room.
        return { kind: 'text', chunks: ['Answer on a full disk.', ' more'.repeat(2000)] };
      });
      const r = await runArbor(['-p', 'hello'], { env: { ...sb.h.env, ARBOR_HOME: mnt }, cwd: sb.h.dir });
      expect(filler && existsSync(filler)).toBe(true);
      expect(r.stdout).toBe(`Answer on a full disk.${' more'.repeat(2000)}\n`);
      expect(r.code).toBe(0);
      expect(r.stderr).toMatch(NOT_SAVED);
      expect(r.stderr).not.toMatch(/\n\s+at /);
    },
  );
});
