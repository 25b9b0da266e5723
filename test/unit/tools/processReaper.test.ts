// Processes that leave the shell's process group (setsid, a double fork re-parented to
// init) are still reaped: when the shell exits, on timeout, on abort, and by the shutdown
// sweep. Found through the per-call marker in their environment (Linux /proc).
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { killAllToolProcesses, liveToolRuns } from '../../../src/tools/processReaper.js';
import { shellTool } from '../../../src/tools/shell.js';
import { context, runtime } from './helpers.js';
import { alive, killToolProcesses } from '../../support/procs.js';

let work: string;
const pids: number[] = [];

beforeEach(() => {
  work = realpathSync(mkdtempSync(join(tmpdir(), 'arbor-reaper-')));
});

afterEach(() => {
  // A failing run must not leave sleepers behind: each one and its whole process group.
  killToolProcesses(pids.splice(0));
  rmSync(work, { recursive: true, force: true });
});

async function waitFor(cond: () => boolean, ms: number, what: string): Promise<void> {
  const deadline = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error(`${what} within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function pidFrom(file: string): Promise<number> {
  await waitFor(() => existsSync(file) && readFileSync(file, 'utf8').trim() !== '', 5000, `${file} written`);
  const pid = Number(readFileSync(file, 'utf8').trim());
  pids.push(pid);
  return pid;
}

/** One sleeper in a new session (setsid), one behind a double fork; each writes its pid.
 * `quiet` sends their output to /dev/null, so they do not hold the shell's output pipe. */
function escapers(quiet: boolean): string {
  const out = quiet ? ' >/dev/null 2>&1' : '';
  return [
    `setsid sh -c 'echo $$ > ${join(work, 'setsid.pid')}; exec sleep 300'${out} &`,
    `sh -c "(sh -c 'echo \\$\\$ > ${join(work, 'fork.pid')}; exec sleep 300'${out} &) &"`,
  ].join('\n');
}

const both = async () => [await pidFrom(join(work, 'setsid.pid')), await pidFrom(join(work, 'fork.pid'))];

describe('escaped tool processes are reaped (Linux)', () => {
  it('when the shell exits, even while they hold its output pipe', async () => {
    for (const quiet of [true, false]) {
      const started = Date.now();
      const r = await shellTool.run({ command: `${escapers(quiet)}\nsleep 0.3\necho started` }, context({ cwd: work }));
      expect(r.output).toContain('started');
      const [a, b] = await both();
      await waitFor(() => !alive(a) && !alive(b), 5000, `pids ${a} ${b} reaped (quiet=${quiet})`);
      expect(Date.now() - started).toBeLessThan(10_000);
      rmSync(join(work, 'setsid.pid'));
      rmSync(join(work, 'fork.pid'));
    }
  });

  it("after the tool's timeout", async () => {
    const r = await shellTool.run(
      { command: `${escapers(true)}\nsleep 30` },
      context({ cwd: work, runtime: runtime({ shell_timeout_secs: 1 }) }),
    );
    expect(r.error).toContain('[timed out after 1s');
    const [a, b] = await both();
    await waitFor(() => !alive(a) && !alive(b), 5000, 'escaped pids reaped after timeout');
  });

  it('when the run is killed (abort)', async () => {
    const controller = new AbortController();
    const running = shellTool.run({ command: `${escapers(false)}\nsleep 30` }, context({ cwd: work, signal: controller.signal }));
    const [a, b] = await both();
    expect(alive(a) && alive(b)).toBe(true);
    controller.abort();
    const r = await running;
    expect(r.error).toContain('[aborted');
    await waitFor(() => !alive(a) && !alive(b), 5000, 'escaped pids reaped after abort');
  });

  it('by killAllToolProcesses(), the shutdown sweep, at once', async () => {
    const running = shellTool.run({ command: `${escapers(true)}\nsleep 30` }, context({ cwd: work }));
    const [a, b] = await both();
    expect(liveToolRuns().length).toBeGreaterThan(0);
    // The group kill takes sh and the double-forked sleeper; the sweep finds the setsid one.
    expect(killAllToolProcesses()).toBeGreaterThanOrEqual(1);
    expect(alive(a) || alive(b)).toBe(false);
    const r = await running;
    expect(r.success).toBe(false);
    expect(liveToolRuns()).toEqual([]);
  });
});
