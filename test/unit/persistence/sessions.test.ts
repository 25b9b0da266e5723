import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setLanguage } from '../../../src/i18n/index.js';
import type { ModelMessage } from '../../../src/providers/types.js';
import type { Run, TranscriptItem } from '../../../src/runtime/types.js';
import { AUTO_FLUSH_MS, SessionLog } from '../../../src/persistence/sessionLog.js';
import { INTERRUPTED_TOOL_RESULT, listSessions, restoreSession } from '../../../src/persistence/sessionRestore.js';
import { newSessionId, sessionsDir } from '../../../src/persistence/sessionFormat.js';

const meta = { agentAlias: 'main', providerLabel: 'offline/demo', cwd: '/work/project' };

function userItem(id: string, text: string): TranscriptItem {
  return { id, kind: 'user', text, at: 1000 };
}

function toolItem(id: string, status: 'running' | 'pending_approval' | 'ok' | 'error', result?: string): TranscriptItem {
  return {
    id,
    kind: 'tool',
    runId: 'r1',
    callId: `call-${id}`,
    name: 'shell',
    args: { command: 'ls' },
    rawArgs: '{"command":"ls"}',
    status,
    result,
    startedAt: 1000,
  };
}

function run(id: string, status: Run['status']): Run {
  return {
    id,
    shortId: id.slice(0, 8),
    parentRunId: 'root-1',
    rootRunId: 'root-1',
    depth: 1,
    alias: 'main',
    kind: 'subagent',
    status,
    task: 'look around',
    sessionKey: `subagent-${id}`,
    model: 'offline/demo',
    createdAt: 1000,
    startedAt: 1001,
    iterations: 2,
    toolsCompleted: 1,
    recentTools: [],
    tokensIn: 10,
    tokensOut: 20,
    costUsd: 0,
    pausedMs: 0,
    ...(status === 'queued' ? { queuePosition: 3 } : {}),
  };
}

let home: string;
beforeAll(() => setLanguage('en'));
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'arbor-sessions-'));
});
afterEach(() => {
  vi.useRealTimers();
  setLanguage('en');
  rmSync(home, { recursive: true, force: true });
});

describe('SessionLog', () => {
  it('writes the header at once and buffers events until flush', () => {
    const log = SessionLog.create(home, meta);
    expect(log.id).toMatch(/^\d{8}-\d{6}-[0-9a-f]{6}$/);
    expect(log.path).toBe(join(sessionsDir(home), `${log.id}.jsonl`));
    log.appendItem(userItem('u1', 'hello'));
    let lines = readFileSync(log.path, 'utf8').trim().split('\n');
    expect(lines).toHaveLength(1);
    const header = JSON.parse(lines[0]);
    expect(header).toMatchObject({ type: 'session', version: 1, id: log.id, ...meta });
    expect(Number.isNaN(Date.parse(header.createdAt))).toBe(false);
    log.flush();
    lines = readFileSync(log.path, 'utf8').trim().split('\n');
    expect(lines).toHaveLength(2);
    expect(JSON.parse(lines[1])).toEqual({ type: 'item', item: userItem('u1', 'hello') });
    log.close();
  });

  it('flushes by itself within 2 s of an append', () => {
    vi.useFakeTimers();
    const log = SessionLog.create(home, meta);
    log.appendMessage({ role: 'user', content: 'hi' });
    vi.advanceTimersByTime(AUTO_FLUSH_MS - 1);
    expect(readFileSync(log.path, 'utf8').trim().split('\n')).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(readFileSync(log.path, 'utf8').trim().split('\n')).toHaveLength(2);
    log.close();
  });

  it('ids sort by creation time', () => {
    const a = newSessionId(new Date('2026-11-30T06:35:12Z'));
    const b = newSessionId(new Date('2026-11-30T06:35:13Z'));
    expect(a).toMatch(/^20261130-063512-[0-9a-f]{6}$/);
    expect([b, a].sort()).toEqual([a, b]);
  });

  it('refuses appends after close, naming the file', () => {
    const log = SessionLog.create(home, meta);
    log.close();
    expect(() => log.appendItem(userItem('u1', 'late'))).toThrow(log.path);
  });

  it('never writes the value of a secret env var', () => {
    process.env.FAKE_SESSION_TOKEN = 'tok-0123456789abcdef';
    try {
      const log = SessionLog.create(home, meta);
      log.appendItem(toolItem('t1', 'ok', 'FAKE_SESSION_TOKEN=tok-0123456789abcdef'));
      log.close();
      const text = readFileSync(log.path, 'utf8');
      expect(text).not.toContain('tok-0123456789abcdef');
      expect(text).toContain('FAKE_SESSION_TOKEN=[redacted]');
    } finally {
      delete process.env.FAKE_SESSION_TOKEN;
    }
  });
});

describe('restoreSession', () => {
  it('round-trips items, messages, child items and runs', () => {
    const log = SessionLog.create(home, meta);
    const items: TranscriptItem[] = [
      userItem('u1', 'list files'),
      { id: 'a1', kind: 'assistant', runId: 'root-1', text: 'Sure.', at: 1001 },
      toolItem('t1', 'ok', 'a.txt\nb.txt'),
      { id: 'n1', kind: 'notice', level: 'warn', text: 'careful', at: 1002 },
    ];
    const messages: ModelMessage[] = [
      { role: 'system', content: 'be brief' },
      { role: 'user', content: 'list files' },
      {
        role: 'assistant',
        content: '',
        toolCalls: [{ id: 'call-t1', name: 'shell', args: { command: 'ls' }, rawArgs: '{"command":"ls"}' }],
      },
      { role: 'tool', toolCallId: 'call-t1', toolName: 'shell', content: 'a.txt\nb.txt' },
      { role: 'assistant', content: 'Two files.' },
    ];
    for (const item of items) log.appendItem(item);
    for (const m of messages) log.appendMessage(m);
    log.appendChildItem('child-1', userItem('cu1', 'look around'));
    log.appendChildItem('child-1', { id: 'ca1', kind: 'assistant', runId: 'child-1', text: 'done', at: 1003 });
    log.appendRun(run('child-1', 'completed'));
    log.close();

    const restored = restoreSession(home, log.id);
    expect(restored.id).toBe(log.id);
    expect(restored.path).toBe(log.path);
    expect(restored.warnings).toEqual([]);
    expect(restored.header).toMatchObject({ type: 'session', id: log.id, ...meta });
    expect(restored.items).toEqual(items.map((i) => (i.kind === 'tool' ? { ...i, restored: true } : i)));
    expect(restored.messages).toEqual(messages);
    expect(restored.childItems).toEqual({
      'child-1': [userItem('cu1', 'look around'), { id: 'ca1', kind: 'assistant', runId: 'child-1', text: 'done', at: 1003 }],
    });
    expect(restored.runs).toEqual([run('child-1', 'completed')]);
  });

  it('keeps the last recorded version of an item in its first position', () => {
    const log = SessionLog.create(home, meta);
    log.appendItem(toolItem('t1', 'running'));
    log.appendItem(userItem('u2', 'next'));
    log.appendItem(toolItem('t1', 'ok', 'done'));
    log.close();
    const { items } = restoreSession(home, log.id);
    expect(items.map((i) => i.id)).toEqual(['t1', 'u2']);
    expect(items[0]).toMatchObject({ status: 'ok', result: 'done', restored: true });
  });

  it('skips a truncated last line with a warning naming file and line; earlier lines and later appends survive', () => {
    const log = SessionLog.create(home, meta);
    log.appendItem(userItem('u1', 'one'));
    log.appendItem(userItem('u2', 'two'));
    log.close();
    // A crash in the middle of writing line 4.
    appendFileSync(log.path, '{"type":"item","item":{"id":"u3","ki');

    const first = restoreSession(home, log.id);
    expect(first.items.map((i) => i.id)).toEqual(['u1', 'u2']);
    expect(first.warnings).toHaveLength(1);
    expect(first.warnings[0]).toContain(log.path);
    expect(first.warnings[0]).toContain('line 4');

    // Resuming appends on a fresh line, so the damage stays on line 4 only.
    const resumed = SessionLog.open(home, log.id);
    resumed.appendItem(userItem('u4', 'after resume'));
    resumed.close();
    const second = restoreSession(home, log.id);
    expect(second.items.map((i) => i.id)).toEqual(['u1', 'u2', 'u4']);
    expect(second.warnings).toHaveLength(1);
    expect(second.warnings[0]).toContain('line 4');
  });

  it('skips a corrupted middle line and keeps the lines around it', () => {
    const log = SessionLog.create(home, meta);
    log.appendItem(userItem('u1', 'one'));
    log.appendItem(userItem('u2', 'two'));
    log.appendItem(userItem('u3', 'three'));
    log.close();
    const lines = readFileSync(log.path, 'utf8').split('\n');
    lines[2] = '\u0000\u0000garbage{{';
    writeFileSync(log.path, lines.join('\n'));
    const restored = restoreSession(home, log.id);
    expect(restored.items.map((i) => i.id)).toEqual(['u1', 'u3']);
    expect(restored.warnings).toHaveLength(1);
    expect(restored.warnings[0]).toContain('line 3');
  });

  it('warns about valid JSON that is not a session event, in the user language', () => {
    const log = SessionLog.create(home, meta);
    log.appendItem(userItem('u1', 'one'));
    log.close();
    appendFileSync(log.path, '{"type":"item","item":{"kind":"user"}}\n');
    setLanguage('es');
    const restored = restoreSession(home, log.id);
    expect(restored.items).toHaveLength(1);
    expect(restored.warnings).toEqual([`${log.path}, línea 3: se omitió una línea que no es un evento de sesión conocido por arbor.`]);
  });

  it('restores a damaged header with a warning and everything else intact', () => {
    const log = SessionLog.create(home, meta);
    log.appendItem(userItem('u1', 'one'));
    log.close();
    const lines = readFileSync(log.path, 'utf8').split('\n');
    lines[0] = lines[0].slice(0, 20);
    writeFileSync(log.path, lines.join('\n'));
    const restored = restoreSession(home, log.id);
    expect(restored.header.id).toBe(log.id);
    expect(restored.items).toHaveLength(1);
    expect(restored.warnings).toHaveLength(2);
    expect(restored.warnings[0]).toContain('line 1');
  });

  it('never restores a tool call or a run as still active', () => {
    const log = SessionLog.create(home, meta);
    log.appendItem(toolItem('t1', 'running', 'partial output'));
    log.appendItem(toolItem('t2', 'pending_approval'));
    log.appendItem(toolItem('t3', 'ok', 'fine'));
    log.appendItem({ id: 'a1', kind: 'assistant', runId: 'root-1', text: 'half a rep', at: 1, streaming: true });
    log.appendChildItem('child-1', toolItem('ct1', 'running', 'child partial'));
    for (const status of ['running', 'queued', 'paused', 'awaiting_approval', 'failed'] as const) {
      log.appendRun({
        ...run(`run-${status}`, status),
        ...(status === 'paused' ? { pausedAt: 1500 } : {}),
        ...(status === 'failed' ? { error: 'boom', endedAt: 1600 } : {}),
      });
    }
    log.close();

    const restored = restoreSession(home, log.id);
    const tools = restored.items.filter((i) => i.kind === 'tool');
    expect(tools.map((i) => [i.id, i.status, i.result, i.restored])).toEqual([
      ['t1', 'error', 'partial output', true],
      ['t2', 'error', undefined, true],
      ['t3', 'ok', 'fine', true],
    ]);
    expect(restored.items.find((i) => i.id === 'a1')).toMatchObject({ interrupted: true });
    expect(restored.items.find((i) => i.id === 'a1')).not.toHaveProperty('streaming');
    expect(restored.childItems['child-1'][0]).toMatchObject({ status: 'error', result: 'child partial', restored: true });

    const byId = Object.fromEntries(restored.runs.map((r) => [r.id, r]));
    for (const status of ['running', 'queued', 'paused', 'awaiting_approval']) {
      const r = byId[`run-${status}`];
      expect(r.status).toBe('cancelled');
      expect(r.error).toBe('interrupted: arbor exited while this run was active');
      expect(typeof r.endedAt).toBe('number');
      expect(r).not.toHaveProperty('queuePosition');
      expect(r).not.toHaveProperty('pausedAt');
    }
    expect(byId['run-failed']).toMatchObject({ status: 'failed', error: 'boom', endedAt: 1600 });
  });

  it('answers tool calls whose results never reached the file, so the history stays valid', () => {
    const log = SessionLog.create(home, meta);
    log.appendMessage({ role: 'user', content: 'two things' });
    log.appendMessage({
      role: 'assistant',
      content: '',
      toolCalls: [
        { id: 'c1', name: 'shell', args: {}, rawArgs: '{}' },
        { id: 'c2', name: 'read_file', args: {}, rawArgs: '{}' },
      ],
    });
    log.appendMessage({ role: 'tool', toolCallId: 'c1', toolName: 'shell', content: 'ok' });
    log.close();
    const { messages } = restoreSession(home, log.id);
    expect(messages.slice(2)).toEqual([
      { role: 'tool', toolCallId: 'c1', toolName: 'shell', content: 'ok' },
      { role: 'tool', toolCallId: 'c2', toolName: 'read_file', content: INTERRUPTED_TOOL_RESULT, isError: true },
    ]);
  });

  it('restores the most recent session when no id is given (mtime, then name)', () => {
    const logs = [0, 1, 2].map(() => SessionLog.create(home, meta));
    logs.forEach((log, i) => {
      log.appendItem(userItem(`u${i}`, `session ${i}`));
      log.close();
    });
    utimesSync(logs[0].path, 3000, 3000);
    utimesSync(logs[1].path, 1000, 1000);
    utimesSync(logs[2].path, 2000, 2000);
    expect(restoreSession(home).id).toBe(logs[0].id);
    utimesSync(logs[2].path, 3000, 3000);
    const newest = [logs[0].id, logs[2].id].sort()[1];
    expect(restoreSession(home).id).toBe(newest);
  });

  it('names the id and the sessions folder for an unknown session, and refuses ids that are paths', () => {
    SessionLog.create(home, meta).close();
    expect(() => restoreSession(home, '20200101-000000-abcdef')).toThrow(/20200101-000000-abcdef.*sessions/);
    expect(() => restoreSession(home, '20200101-000000-abcdef')).toThrow(sessionsDir(home));
    expect(() => restoreSession(home, '../../etc/passwd')).toThrow(sessionsDir(home));
    expect(() => SessionLog.open(home, 'nope')).toThrow(/"nope"/);
  });

  it('says where it looked when there is no session at all', () => {
    expect(() => restoreSession(home)).toThrow(sessionsDir(home));
  });
});

describe('listSessions', () => {
  it('lists newest first with first user message and item count, tolerating bad files', () => {
    const a = SessionLog.create(home, { ...meta, agentAlias: 'alpha' });
    a.appendItem({ id: 'n0', kind: 'notice', level: 'info', text: 'hello', at: 1 });
    a.appendItem(userItem('u1', 'first question'));
    a.appendItem(userItem('u2', 'second question'));
    a.appendItem(toolItem('t1', 'running'));
    a.appendItem(toolItem('t1', 'ok', 'x'));
    a.close();
    // A session is written from its first event on (an empty one never is): a message only.
    const b = SessionLog.create(home, { ...meta, agentAlias: 'beta' });
    b.appendMessage({ role: 'user', content: 'hidden from the item count' });
    b.close();
    const dir = sessionsDir(home);
    writeFileSync(join(dir, 'broken.jsonl'), 'not json at all\n{"also":');
    mkdirSync(join(dir, 'folder.jsonl'));
    writeFileSync(join(dir, 'notes.txt'), 'ignored');
    utimesSync(a.path, 2000, 2000);
    utimesSync(b.path, 3000, 3000);
    utimesSync(join(dir, 'broken.jsonl'), 1000, 1000);

    const list = listSessions(home);
    // A file without a valid session header is not a session: left out (never resumed or appended to).
    expect(list.map((s) => s.id)).toEqual([b.id, a.id]);
    expect(list[1]).toMatchObject({ id: a.id, path: a.path, agentAlias: 'alpha', firstUserMessage: 'first question', items: 4 });
    expect(Number.isNaN(Date.parse(list[1].createdAt))).toBe(false);
    expect(list[0]).toMatchObject({ agentAlias: 'beta', items: 0 });
    expect(list[0]).not.toHaveProperty('firstUserMessage');

    expect(listSessions(home, 1).map((s) => s.id)).toEqual([b.id]);
  });

  it('is empty when there is no sessions folder', () => {
    expect(listSessions(home)).toEqual([]);
  });
});
