import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TRACE_FLUSH_MS, TraceLog, traceLogPath, type TraceEvent } from '../../../src/persistence/traceLog.js';

const ALLOWED = new Set(['ts', 'event', 'agent_alias', 'session_key', 'run_id', 'parent_run_id', 'tool', 'status', 'ms']);
const RUN_ID = '3f2b8c1e-9a4d-4e7f-8b6a-1c2d3e4f5a6b';
const SESSION_KEY = 'delegate-7d9e0f1a-2b3c-4d5e-8f90-a1b2c3d4e5f6';

let home: string;
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'arbor-trace-'));
});
afterEach(() => {
  vi.useRealTimers();
  delete process.env.FAKE_API_KEY;
  rmSync(home, { recursive: true, force: true });
});

function readLines(): Record<string, unknown>[] {
  return readFileSync(traceLogPath(home), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

describe('TraceLog', () => {
  it('writes one JSON object per event with a ts and only the allowed fields', () => {
    const log = new TraceLog(home);
    log.event({ event: 'run_started', agent_alias: 'main', session_key: 'session-1', run_id: RUN_ID });
    // Extra properties smuggled past the type must not reach the file.
    const sneaky = {
      event: 'tool_finished',
      agent_alias: 'main',
      session_key: 'session-1',
      run_id: RUN_ID,
      parent_run_id: 'parent-1',
      tool: 'shell',
      status: 'ok',
      ms: 12.6,
      args: { command: 'cat /etc/shadow' },
      result: 'root:x:0:0',
      prompt: 'do the secret thing',
    } as TraceEvent;
    log.event(sneaky);
    log.event({ event: 'not_an_event' } as unknown as TraceEvent);
    log.close();

    const lines = readLines();
    expect(lines).toHaveLength(2);
    for (const line of lines) {
      for (const key of Object.keys(line)) expect(ALLOWED.has(key), key).toBe(true);
      expect(new Date(line.ts as string).toISOString()).toBe(line.ts);
    }
    expect(lines[0]).toMatchObject({ event: 'run_started', agent_alias: 'main', session_key: 'session-1', run_id: RUN_ID });
    expect(lines[1]).toMatchObject({ event: 'tool_finished', parent_run_id: 'parent-1', tool: 'shell', status: 'ok', ms: 13 });
    const text = readFileSync(traceLogPath(home), 'utf8');
    expect(text).not.toContain('shadow');
    expect(text).not.toContain('root:x');
    expect(text).not.toContain('secret thing');
  });

  it('never writes a secret, while ids stay readable', () => {
    const envKey = 'fk-Zq8Rt4Lm2Np7Vx9Wb3Yc';
    process.env.FAKE_API_KEY = envKey;
    const log = new TraceLog(home);
    log.event({
      event: 'run_failed',
      agent_alias: `main ${envKey}`,
      session_key: SESSION_KEY,
      run_id: RUN_ID,
      status: 'Bearer abc.def-ghi',
    });
    log.event({
      event: 'tool_started',
      agent_alias: 'sk-proj-AbCdEfGh12345678',
      session_key: 'session-x',
      run_id: RUN_ID,
      tool: 'dGhpcyBpcyBhIHNlY3JldCB0b2tlbiB2YWx1ZTEy',
    });
    log.event({
      event: 'tool_started',
      agent_alias: 'a',
      session_key: 's',
      run_id: RUN_ID,
      tool: '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b',
    });
    log.event({
      event: 'tool_started',
      agent_alias: 'a',
      session_key: 's',
      run_id: RUN_ID,
      tool: 'some_really_long_tool_name_for_listing_files',
    });
    log.close();

    const text = readFileSync(traceLogPath(home), 'utf8');
    for (const secret of [
      envKey,
      'abc.def-ghi',
      'sk-proj-AbCdEfGh12345678',
      'dGhpcyBpcyBhIHNlY3JldCB0b2tlbiB2YWx1ZTEy',
      '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b',
    ]) {
      expect(text).not.toContain(secret);
    }
    const lines = readLines();
    expect(lines[0]).toMatchObject({
      agent_alias: 'main [redacted]',
      session_key: SESSION_KEY,
      run_id: RUN_ID,
      status: 'Bearer [redacted]',
    });
    expect(lines[3].tool).toBe('some_really_long_tool_name_for_listing_files');
  });

  it('buffers events and writes them at most 250 ms later, not per event', () => {
    vi.useFakeTimers();
    const log = new TraceLog(home);
    log.event({ event: 'run_started', agent_alias: 'main', session_key: 's', run_id: RUN_ID });
    log.event({ event: 'run_finished', agent_alias: 'main', session_key: 's', run_id: RUN_ID, ms: 5 });
    expect(existsSync(traceLogPath(home))).toBe(false);
    vi.advanceTimersByTime(TRACE_FLUSH_MS);
    expect(readLines().map((l) => l.event)).toEqual(['run_started', 'run_finished']);
    log.event({ event: 'run_started', agent_alias: 'main', session_key: 's', run_id: RUN_ID });
    log.close();
    expect(readLines()).toHaveLength(3);
    // After close nothing more is written.
    log.event({ event: 'run_started', agent_alias: 'main', session_key: 's', run_id: RUN_ID });
    vi.advanceTimersByTime(TRACE_FLUSH_MS * 4);
    expect(readLines()).toHaveLength(3);
  });
});
