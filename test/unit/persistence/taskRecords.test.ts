import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setLanguage } from '../../../src/i18n/index.js';
import { registerSecret } from '../../../src/persistence/redact.js';
import {
  TASK_HEARTBEAT_STALE_MS,
  TaskStore,
  isValidTaskId,
  taskPath,
  tasksDir,
  type TaskProgress,
  type TaskRecord,
} from '../../../src/persistence/taskRecords.js';

let home: string;
beforeAll(() => setLanguage('en'));
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'arbor-tasks-'));
});
afterEach(() => {
  rmSync(home, { recursive: true, force: true });
});

function record(overrides: Partial<TaskRecord> = {}): TaskRecord {
  const now = new Date().toISOString();
  return {
    task_id: randomUUID(),
    agent: 'researcher',
    caller_chain: ['main'],
    status: 'running',
    output: null,
    error: null,
    created_at: now,
    started_at: now,
    finished_at: null,
    heartbeat_at: now,
    pid: process.pid,
    progress: null,
    ...overrides,
  };
}

function progress(overrides: Partial<TaskProgress> = {}): TaskProgress {
  return {
    last_activity_at: '2026-01-01T00:00:05.000Z',
    iterations: 2,
    tools_completed: 1,
    last_tool: { name: 'read_file', started_at: '2026-01-01T00:00:03.000Z', finished_at: '2026-01-01T00:00:04.000Z', success: true },
    timeout_budget_secs: 120,
    recent_tools: [],
    receipt_tail: [],
    ...overrides,
  };
}

/** A pid that certainly belonged to a process that has exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', '']);
  return child.pid as number;
}

describe('TaskStore', () => {
  it('creates, reads, updates and lists records, one atomic file per task', () => {
    const store = new TaskStore(home);
    const a = record({ created_at: '2026-01-01T00:00:00.000Z' });
    const b = record({ created_at: '2026-01-01T00:00:01.000Z', agent: 'reviewer', caller_chain: ['main', 'researcher'] });
    store.create(b);
    store.create(a);
    expect(existsSync(taskPath(home, a.task_id))).toBe(true);
    expect(store.get(a.task_id)).toEqual(a);
    expect(store.get(randomUUID())).toBeUndefined();
    expect(() => store.create(a)).toThrow(a.task_id);

    const updated = store.update(a.task_id, { progress: progress(), heartbeat_at: '2026-01-01T00:00:06.000Z' });
    expect(updated.progress).toEqual(progress());
    const done = store.update(a.task_id, { status: 'completed', output: 'found it', finished_at: '2026-01-01T00:00:09.000Z' });
    expect(store.get(a.task_id)).toEqual(done);
    expect(done).toMatchObject({ status: 'completed', output: 'found it', heartbeat_at: '2026-01-01T00:00:06.000Z' });

    expect(store.list().map((r) => r.task_id)).toEqual([a.task_id, b.task_id]);
    expect(readdirSync(tasksDir(home)).sort()).toEqual([`${a.task_id}.json`, `${b.task_id}.json`].sort());
    expect(() => store.update(randomUUID(), { status: 'failed' })).toThrow(tasksDir(home));
  });

  it('keeps a finished record final', () => {
    const store = new TaskStore(home);
    const rec = record();
    store.create(rec);
    store.update(rec.task_id, { status: 'cancelled', error: 'cancelled by user' });
    const late = store.update(rec.task_id, { status: 'completed', output: 'too late' });
    expect(late).toMatchObject({ status: 'cancelled', error: 'cancelled by user', output: null });
    expect(store.get(rec.task_id)).toEqual(late);
  });

  it('marks running records of a dead arbor as lost on startup, never as running', () => {
    const store = new TaskStore(home);
    const orphan = record({ pid: deadPid(), heartbeat_at: '2026-01-01T00:01:00.000Z' });
    const mine = record();
    const peerAlive = record({ pid: process.ppid });
    const peerStale = record({ pid: process.ppid, heartbeat_at: new Date(Date.now() - TASK_HEARTBEAT_STALE_MS - 1000).toISOString() });
    const finished = record({ pid: deadPid(), status: 'completed', output: 'ok' });
    for (const r of [orphan, mine, peerAlive, peerStale, finished]) store.create(r);

    expect(store.markLostOnStartup()).toBe(2);
    const lost = store.get(orphan.task_id)!;
    expect(lost.status).toBe('lost');
    expect(lost.error).toBe('lost: arbor exited while this task was running');
    expect(lost.finished_at).toBe('2026-01-01T00:01:00.000Z');
    expect(store.get(peerStale.task_id)!.status).toBe('lost');
    expect(store.get(mine.task_id)!.status).toBe('running');
    expect(store.get(peerAlive.task_id)!.status).toBe('running');
    expect(store.get(finished.task_id)).toEqual(finished);
    // A fresh store (a restarted arbor) reads the same thing back.
    expect(
      new TaskStore(home)
        .list()
        .filter((r) => r.status === 'running')
        .map((r) => r.task_id)
        .sort(),
    ).toEqual([mine.task_id, peerAlive.task_id].sort());
    expect(store.markLostOnStartup()).toBe(0);
  });

  it('refuses any task id that is not a canonical UUID, so none escapes the tasks folder', () => {
    const store = new TaskStore(home);
    const bad = [
      '../x',
      'a/b',
      'not-a-uuid',
      '',
      '../../etc/passwd',
      `${randomUUID()}/../x`,
      `${randomUUID()}x`,
      '12345678-1234-1234-1234-1234567890123',
      '..\\x',
    ];
    for (const id of bad) {
      expect(isValidTaskId(id)).toBe(false);
      expect(() => taskPath(home, id)).toThrow(/Invalid task id/);
      expect(() => store.get(id)).toThrow(/Invalid task id/);
      expect(() => store.update(id, { status: 'failed' })).toThrow(/Invalid task id/);
      expect(() => store.create(record({ task_id: id }))).toThrow(/Invalid task id/);
    }
    expect(isValidTaskId(randomUUID())).toBe(true);
    expect(isValidTaskId(randomUUID().toUpperCase())).toBe(true);
    expect(readdirSync(home)).toEqual([]);
  });

  it('computes elapsed_secs at read time and never stores it', () => {
    const store = new TaskStore(home);
    const rec = record({ started_at: '2026-01-01T00:00:00.000Z', created_at: '2025-12-31T23:59:59.000Z', progress: progress() });
    store.create(rec);
    const stored = store.get(rec.task_id)!;
    expect(readFileSync(taskPath(home, rec.task_id), 'utf8')).not.toContain('elapsed_secs');
    const t0 = Date.parse('2026-01-01T00:00:00.000Z');
    expect(store.view(stored, t0 + 42_900).progress!.elapsed_secs).toBe(42);
    expect(store.view(stored, t0 + 90_000).progress!.elapsed_secs).toBe(90);
    const finished = store.update(rec.task_id, { status: 'completed', finished_at: '2026-01-01T00:00:07.000Z' });
    expect(store.view(finished, t0 + 999_000).progress!.elapsed_secs).toBe(7);
    expect(store.view(record(), t0).progress).toBeNull();
    expect(store.view(stored, t0 + 1000)).toMatchObject({ task_id: rec.task_id, status: 'running', agent: 'researcher' });
  });

  it('cuts tool names at 64 characters and keeps the last five tools and receipts', () => {
    const store = new TaskStore(home);
    const long = 'x'.repeat(100);
    const call = (name: string, i: number) => ({
      name,
      started_at: `2026-01-01T00:00:0${i}.000Z`,
      finished_at: `2026-01-01T00:00:0${i}.500Z`,
      success: true,
    });
    const rec = record();
    store.create(rec);
    const updated = store.update(rec.task_id, {
      progress: progress({
        last_tool: { name: long, started_at: '2026-01-01T00:00:09.000Z', finished_at: null, success: null },
        recent_tools: [0, 1, 2, 3, 4, 5, 6].map((i) => call(i === 6 ? long : `tool${i}`, i)),
        receipt_tail: ['a: 1', 'b: 2', 'c: 3', 'd: 4', 'e: 5', `${long}: tok.${'s'.repeat(80)}`],
      }),
    });
    const p = store.get(rec.task_id)!.progress!;
    expect(updated.progress).toEqual(p);
    expect(p.last_tool).toEqual({ name: 'x'.repeat(64), started_at: '2026-01-01T00:00:09.000Z', finished_at: null, success: null });
    expect(p.recent_tools.map((c) => c.name)).toEqual(['tool2', 'tool3', 'tool4', 'tool5', 'x'.repeat(64)]);
    expect(p.receipt_tail).toEqual(['b: 2', 'c: 3', 'd: 4', 'e: 5', `${'x'.repeat(64)}: tok.${'s'.repeat(80)}`]);
  });

  it('skips damaged records when listing and names the file when reading one', () => {
    const store = new TaskStore(home);
    const good = record();
    store.create(good);
    const badId = randomUUID();
    mkdirSync(tasksDir(home), { recursive: true });
    writeFileSync(taskPath(home, badId), '{"task_id": "trunc');
    writeFileSync(join(tasksDir(home), 'stray.json'), '{}');
    expect(store.list().map((r) => r.task_id)).toEqual([good.task_id]);
    expect(() => store.get(badId)).toThrow(taskPath(home, badId));
  });

  it('is empty before any task exists', () => {
    const store = new TaskStore(home);
    expect(store.list()).toEqual([]);
    expect(store.markLostOnStartup()).toBe(0);
  });
});

describe('task records scrub secrets like session files', () => {
  it('a key in an output, error or receipt never reaches the file, and the JSON stays valid', () => {
    const secret = 'sk-task-"secret\\-0123456789';
    const named = 'named-only-by-config-987654';
    process.env.ARBOR_TEST_TASK_TOKEN = secret;
    registerSecret(named);
    try {
      const store = new TaskStore(home);
      const rec = record({ output: `the key is ${secret}`, error: `failed with ${named}` });
      store.create(rec);
      store.update(rec.task_id, { progress: progress({ receipt_tail: [`shell: ${secret}`] }) });
      const text = readFileSync(taskPath(home, rec.task_id), 'utf8');
      expect(text).not.toContain('0123456789');
      expect(text).not.toContain(named);
      const back = store.get(rec.task_id)!;
      expect(back.output).toBe('the key is [redacted]');
      expect(back.error).toBe('failed with [redacted]');
      expect(back.progress?.receipt_tail).toEqual(['shell: [redacted]']);
    } finally {
      delete process.env.ARBOR_TEST_TASK_TOKEN;
    }
  });
});
