// The terminals arbor serves an external ACP agent: real commands in their own process
// groups, output kept to the limit (the latest bytes), kill, timeout and release ending
// everything the command started (the reaper's marker).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AcpTerminals, type AdmittedTerminal } from '../../../src/acp/client/terminals.js';
import { TOOL_RUN_MARKER } from '../../../src/tools/toolEnv.js';
import { alive } from '../../support/procs.js';

const dirs: string[] = [];
const open: AcpTerminals[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((t) => t.releaseAll()));
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function terminals(timeoutSecs = 0): AcpTerminals {
  const cwd = mkdtempSync(join(tmpdir(), 'arbor-acp-term-'));
  dirs.push(cwd);
  let n = 0;
  const admit = async (): Promise<AdmittedTerminal> => {
    const marker = `acp-term-test-${process.pid}-${++n}`;
    return { cwd, env: { PATH: process.env.PATH ?? '/usr/bin:/bin', [TOOL_RUN_MARKER]: marker }, marker, timeoutSecs };
  };
  const t = new AcpTerminals(admit);
  open.push(t);
  return t;
}

const sessionId = 's1';

describe('AcpTerminals', () => {
  it('keeps the latest bytes up to outputByteLimit and reports the exit', async () => {
    const t = terminals();
    const { terminalId } = await t.create({ sessionId, command: 'printf abcdefghij; exit 4', outputByteLimit: 4 });
    expect(await t.waitForExit({ sessionId, terminalId })).toMatchObject({ exitCode: 4 });
    expect(t.output({ sessionId, terminalId })).toMatchObject({ output: 'ghij', truncated: true, exitStatus: { exitCode: 4 } });
  });

  it('runs a command with args as that program, without a shell', async () => {
    const t = terminals();
    const { terminalId } = await t.create({ sessionId, command: 'printf', args: ['%s', '$HOME;x'] });
    await t.waitForExit({ sessionId, terminalId });
    expect(t.output({ sessionId, terminalId }).output).toBe('$HOME;x');
  });

  it('kill ends the command and what it put in the background; the output stays until release', async () => {
    const t = terminals();
    const { terminalId } = await t.create({ sessionId, command: 'sleep 30 & echo $!; wait' });
    await expect.poll(() => t.output({ sessionId, terminalId }).output.trim(), { timeout: 5000 }).toMatch(/^\d+$/);
    const bg = Number(t.output({ sessionId, terminalId }).output.trim());
    await t.kill({ sessionId, terminalId });
    const exit = await t.waitForExit({ sessionId, terminalId });
    expect(exit.signal ?? exit.exitCode).toBeTruthy();
    expect(alive(bg)).toBe(false);
    expect(t.output({ sessionId, terminalId }).output.trim()).toBe(String(bg));
    await t.release({ sessionId, terminalId });
    expect(() => t.output({ sessionId, terminalId })).toThrow(`no terminal '${terminalId}'`);
  });

  it('ends a command at shell_timeout_secs', async () => {
    const t = terminals(1);
    const { terminalId } = await t.create({ sessionId, command: 'sleep 30' });
    expect(await t.waitForExit({ sessionId, terminalId })).toMatchObject({ signal: 'SIGTERM' });
  });
});
