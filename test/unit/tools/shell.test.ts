import { describe, it, expect, beforeEach, afterEach } from 'vitest';
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SHELL_OUTPUT_CAP_BYTES, checkAllowedCommands, shellTool } from '../../../src/tools/shell.js';
import { until } from '../../support/until.js';
import { context, risk, runtime } from './helpers.js';

let work: string;
const pids: number[] = [];

beforeEach(() => {
  work = realpathSync(mkdtempSync(join(tmpdir(), 'arbor-shell-')));
});

afterEach(() => {
  // Belt and braces: a failing test must not leave a sleeper behind.
  for (const pid of pids.splice(0)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  rmSync(work, { recursive: true, force: true });
});

function exists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ESRCH') return false;
    throw err;
  }
}

/** Waits until `pid` is gone (a killed process stays a zombie until init reaps it). */
async function waitGone(pid: number): Promise<void> {
  await until(() => !exists(pid), 10_000, `process ${pid} to be gone`);
}

/** The trimmed text of a file the command writes, '' until it has some. */
const written = (path: string): string => (existsSync(path) ? readFileSync(path, 'utf8').trim() : '');

describe('shell', () => {
  it('returns stdout and stderr together with the exit code, run in the workspace', async () => {
    const r = await shellTool.run({ command: 'echo out; echo err 1>&2; pwd' }, context({ cwd: work }));
    expect(r).toEqual({
      success: true,
      output: `out\nerr\n${work}\n[exit code: 0]`,
      display: { kind: 'shell', command: 'echo out; echo err 1>&2; pwd', exitCode: 0 },
    });
  });

  it('fails with the output and exit code on a non-zero exit', async () => {
    const r = await shellTool.run({ command: 'echo nope; exit 3' }, context({ cwd: work }));
    expect(r.success).toBe(false);
    expect(r.error).toBe('nope\n[exit code: 3]');
  });

  it('never waits on stdin', async () => {
    const r = await shellTool.run({ command: 'cat' }, context({ cwd: work }));
    expect(r.output).toBe('(no output)\n[exit code: 0]');
  });

  it('caps long output keeping its start and end', async () => {
    const r = await shellTool.run(
      { command: `echo START; head -c ${SHELL_OUTPUT_CAP_BYTES * 3} /dev/zero | tr '\\0' x; echo; echo END` },
      context({ cwd: work }),
    );
    expect(r.success).toBe(true);
    expect(r.output.startsWith('START\n')).toBe(true);
    expect(r.output).toMatch(/\[\.\.\. \d+ bytes of output omitted \.\.\.\]/);
    expect(r.output.endsWith('END\n[exit code: 0]')).toBe(true);
    expect(Buffer.byteLength(r.output)).toBeLessThan(SHELL_OUTPUT_CAP_BYTES + 200);
  });

  it('kills the whole process tree on timeout', async () => {
    const pidfile = join(work, 'pid');
    const started = Date.now();
    const r = await shellTool.run(
      { command: `sleep 30 & echo $! > ${pidfile}; wait` },
      context({ cwd: work, runtime: runtime({ shell_timeout_secs: 1 }) }),
    );
    const pid = Number(readFileSync(pidfile, 'utf8'));
    pids.push(pid);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(r.success).toBe(false);
    expect(r.error).toContain('[timed out after 1s (shell_timeout_secs)');
    await waitGone(pid);
    expect(exists(pid)).toBe(false);
  });

  it('shell_timeout_secs = 5,000,000 does not fire at once (Node clamps an overflowing timer to 1 ms)', async () => {
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(w.name);
    process.on('warning', onWarning);
    const r = await shellTool.run(
      { command: 'sleep 0.3; echo finished' },
      context({ cwd: work, runtime: runtime({ shell_timeout_secs: 5_000_000 }) }),
    );
    process.off('warning', onWarning);
    expect(r.success).toBe(true);
    expect(r.output).toContain('finished');
    expect(warnings).not.toContain('TimeoutOverflowWarning');
  });

  it('kills the whole process tree when the signal aborts', async () => {
    const pidfile = join(work, 'pid');
    const controller = new AbortController();
    const running = shellTool.run({ command: `sleep 30 & echo $! > ${pidfile}; wait` }, context({ cwd: work, signal: controller.signal }));
    await until(() => written(pidfile) !== '', 5000, `${pidfile} to be written`);
    const pid = Number(written(pidfile));
    pids.push(pid);
    expect(exists(pid)).toBe(true);
    controller.abort();
    const r = await running;
    expect(r.success).toBe(false);
    expect(r.error).toContain('[aborted');
    await waitGone(pid);
    expect(exists(pid)).toBe(false);
    expect(() => process.kill(pid, 0)).toThrow(expect.objectContaining({ code: 'ESRCH' }));
  });

  it('does not leave background jobs behind after the shell exits', async () => {
    const pidfile = join(work, 'pid');
    const r = await shellTool.run({ command: `sleep 30 & echo $! > ${pidfile}` }, context({ cwd: work }));
    const pid = Number(readFileSync(pidfile, 'utf8'));
    pids.push(pid);
    expect(r.output).toContain('[exit code: 0]');
    await waitGone(pid);
    expect(exists(pid)).toBe(false);
  });

  it('refuses to start when already aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    const marker = join(work, 'ran');
    const r = await shellTool.run({ command: `touch ${marker}` }, context({ cwd: work, signal: controller.signal }));
    expect(r.success).toBe(false);
    expect(existsSync(marker)).toBe(false);
  });

  it('refuses commands outside allowed_commands, naming the word and the list', async () => {
    const strict = context({ cwd: work, risk: risk({ allowed_commands: ['echo', 'ls'] }) });
    expect((await shellTool.run({ command: 'echo hi 2>&1 | ls' }, strict)).success).toBe(true);
    const r = await shellTool.run({ command: 'rm -rf x' }, strict);
    expect(r.error).toBe(
      "Command 'rm' is not allowed: this agent's risk profile only allows commands starting with 'echo', 'ls' (allowed_commands).",
    );
    expect((await shellTool.run({ command: 'echo ok; rm x' }, strict)).error).toContain("Command 'rm'");
    expect((await shellTool.run({ command: 'echo $(rm x)' }, strict)).error).toContain('Command substitution');
  });

  it('validates arguments and keeps the workspace inside the roots', async () => {
    expect((await shellTool.run({ command: '  ' }, context({ cwd: work }))).error).toBe("Missing or empty 'command' parameter.");
    expect((await shellTool.run({}, context({ cwd: work }))).error).toContain("'command' is missing");
    const r = await shellTool.run({ command: 'true' }, context({ cwd: work, risk: risk({ allowed_roots: ['/nonexistent-root'] }) }));
    expect(r.error).toContain('workspace directory is not usable');
  });
});

describe('checkAllowedCommands', () => {
  it.each([
    ['git status', ['git'], true],
    ['git status && ls', ['git'], false],
    ['echo \'a;rm\' "b|rm"', ['echo'], true],
    ['echo a >&2', ['echo'], true],
    ['ls `rm`', ['ls'], false],
    ["echo '$(not run)'", ['echo'], true],
    ['anything at all', [], true],
  ])('%s with %j → allowed %s', (command, allowed, expected) => {
    expect(checkAllowedCommands(command, allowed) === undefined).toBe(expected);
  });
});
