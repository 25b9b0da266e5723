// Which session a start continues, and what a session file records for the pickers:
// valid headers only, never an empty file, headless runs last, totals, cut-off turns.
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setLanguage } from '../../../src/i18n/index.js';
import type { TranscriptItem } from '../../../src/runtime/types.js';
import { SessionLog } from '../../../src/persistence/sessionLog.js';
import { listSessions, newestSessionIn, restoreSession } from '../../../src/persistence/sessionRestore.js';
import { sessionsDir } from '../../../src/persistence/sessionFormat.js';
import { assertHomeWritable } from '../../../src/persistence/homeAccess.js';
import { readState, statePath, writeState } from '../../../src/persistence/stateFile.js';
import { SessionRecorder } from '../../../src/cli/sessionRecorder.js';
import { chooseSession } from '../../../src/cli/sessionChoice.js';

const meta = { agentAlias: 'main', providerLabel: 'offline/demo', cwd: '/work/a' };
const user = (id: string, text: string): TranscriptItem => ({ id, kind: 'user', text, at: 1000 });
const answer = (id: string, text: string): TranscriptItem => ({ id, kind: 'assistant', runId: 'r', text, at: 1001 });

function session(m: Partial<typeof meta> & { headless?: boolean }, first: string, mtime: number): SessionLog {
  const log = SessionLog.create(home, { ...meta, ...m });
  log.appendItem(user(`u-${first}`, first));
  log.appendItem(answer(`a-${first}`, `answer to ${first}`));
  log.close();
  utimesSync(log.path, mtime, mtime);
  return log;
}

const chat = { kind: 'chat' as const, output: 'text' as const, yes: false, raw: false, continueLast: false };

let home: string;
beforeAll(() => setLanguage('en'));
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'arbor-choice-'));
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

describe('session files', () => {
  it('an empty session leaves no file; the first event writes the header and the event', () => {
    const empty = SessionLog.create(home, meta);
    empty.flush();
    empty.close();
    expect(() => readdirSync(sessionsDir(home))).toThrow();
    const log = SessionLog.create(home, meta);
    expect(log.written).toBe(false);
    log.appendItem(user('u1', 'hi'));
    expect(log.written).toBe(true);
    log.close();
    expect(readdirSync(sessionsDir(home))).toEqual([`${log.id}.jsonl`]);
  });

  it('--resume without an id ignores a newer file with no valid header, and lists only valid sessions', () => {
    const good = session({}, 'the good one', 2000);
    const bad = join(sessionsDir(home), '20991231-235959-ffffff.jsonl');
    writeFileSync(bad, '{"type":"item","item":{"id":"x","kind":"user","text":"no header","at":1}}\n');
    utimesSync(bad, 3000, 3000);
    expect(restoreSession(home).id).toBe(good.id);
    expect(listSessions(home).map((s) => s.id)).toEqual([good.id]);
    // Named explicitly, it restores (with a warning) but is marked invalid: never appended to.
    const restored = restoreSession(home, '20991231-235959-ffffff');
    expect(restored.valid).toBe(false);
    const recorder = new SessionRecorder(home, meta, restored);
    recorder.sinks(() => ({ tokensIn: 0, tokensOut: 0, costUsd: 0 }), { event() {}, close() {} } as never).appendItem?.(user('u2', 'more'));
    recorder.close();
    expect(recorder.id).not.toBe(restored.id);
    expect(readFileSync(bad, 'utf8')).not.toContain('more');
  });

  it('resolves a unique id prefix and names the candidates of an ambiguous one', () => {
    const a = session({}, 'one', 2000);
    const b = session({}, 'two', 3000);
    expect(restoreSession(home, a.id.slice(0, a.id.length - 2)).id).toBe(a.id);
    const common = a.id.slice(0, 8);
    expect(b.id.startsWith(common)).toBe(true);
    expect(() => restoreSession(home, common)).toThrow(/matches more than one session/);
  });

  it('lists interactive sessions first (newest first), headless runs last and marked, with turns, tokens and cost', () => {
    const old = session({}, 'old chat', 1000);
    const script = session({ headless: true }, 'scripted', 5000);
    const recent = SessionLog.create(home, meta);
    recent.appendItem(user('u1', 'recent chat'));
    recent.appendItem(user('u2', 'second turn'));
    recent.appendTotals({ tokensIn: 1200, tokensOut: 300, costUsd: 0.0123 });
    recent.close();
    utimesSync(recent.path, 4000, 4000);
    const list = listSessions(home);
    expect(list.map((s) => s.id)).toEqual([recent.id, old.id, script.id]);
    expect(list[0]).toMatchObject({
      turns: 2,
      tokens: 1500,
      costUsd: 0.0123,
      cwd: '/work/a',
      headless: false,
      firstUserMessage: 'recent chat',
    });
    expect(list[2].headless).toBe(true);
    expect(statSync(recent.path).mtimeMs).toBe(4000 * 1000);
  });

  it('-c picks the newest session of this directory, preferring a chat over a headless run', async () => {
    const here = session({ cwd: '/work/a' }, 'here', 2000);
    session({ cwd: '/work/b' }, 'elsewhere', 3000);
    session({ cwd: '/work/a', headless: true }, 'script here', 4000);
    expect(newestSessionIn(home, '/work/a')?.id).toBe(here.id);
    const choice = await chooseSession({ ...chat, continueLast: true }, home, '/work/a', undefined);
    expect(choice.kind === 'restore' && choice.session.id).toBe(here.id);
    await expect(chooseSession({ ...chat, continueLast: true }, home, '/work/none', undefined)).rejects.toThrow(
      /no session was started in \/work\/none/,
    );
  });

  it('restores totals, and says when the last turn was cut off', () => {
    const log = SessionLog.create(home, meta);
    log.appendItem(user('u1', 'first'));
    log.appendItem(answer('a1', 'done'));
    log.appendTotals({ tokensIn: 10, tokensOut: 5, costUsd: 0.5 });
    log.appendItem(user('u2', 'second, never answered'));
    log.appendMessage({ role: 'user', content: 'second, never answered' });
    log.close();
    const restored = restoreSession(home, log.id);
    expect(restored.totals).toEqual({ tokensIn: 10, tokensOut: 5, costUsd: 0.5 });
    expect(restored.lastTurnCutOff).toBe(true);
    const whole = session({}, 'complete', 9000);
    expect(restoreSession(home, whole.id).lastTurnCutOff).toBe(false);
  });

  it('/clear: what follows goes to a new session; the cleared one keeps its messages and nothing new', () => {
    const recorder = new SessionRecorder(home, meta);
    const totals = { tokensIn: 7, tokensOut: 3, costUsd: 0 };
    const sinks = recorder.sinks(() => totals, { event() {}, close() {} } as never);
    sinks.appendItem?.(user('u1', 'secret plan alpha'));
    sinks.flush?.();
    const first = recorder.id;
    const next = sinks.startNewSession?.();
    expect(next).toBe(recorder.id);
    expect(next).not.toBe(first);
    sinks.appendItem?.(user('u2', 'gamma'));
    recorder.close(totals);
    expect(readFileSync(join(sessionsDir(home), `${first}.jsonl`), 'utf8')).not.toContain('gamma');
    const after = restoreSession(home, next);
    expect(JSON.stringify(after.items)).not.toContain('alpha');
    expect(after.items).toHaveLength(1);
  });
});

describe('ARBOR_HOME', () => {
  it('a home that cannot be created is reported as not writable, naming it', () => {
    const file = join(home, 'a-file');
    writeFileSync(file, 'x');
    expect(() => assertHomeWritable(join(file, 'home'))).toThrow(`ARBOR_HOME ${join(file, 'home')} is not writable`);
    expect(() => assertHomeWritable(home)).not.toThrow();
  });

  it('state.json keeps the language, readable by the user only', () => {
    expect(readState(home)).toEqual({});
    expect(writeState(home, { language: 'es' })).toBe(statePath(home));
    expect(readState(home)).toEqual({ language: 'es' });
    expect(statSync(statePath(home)).mode & 0o777).toBe(0o600);
    writeFileSync(statePath(home), '{ damaged');
    expect(readState(home)).toEqual({});
  });
});

describe('resume notices', () => {
  it('say which background tasks of the session were lost', async () => {
    const { TaskStore } = await import('../../../src/persistence/taskRecords.js');
    const { resumeNotices } = await import('../../../src/cli/sessionChoice.js');
    const id = '0b6f3a52-8c1e-4d5a-9f7e-2a1b3c4d5e6f';
    const now = new Date().toISOString();
    new TaskStore(home).create({
      task_id: id,
      agent: 'researcher',
      caller_chain: ['main'],
      status: 'lost',
      output: null,
      error: 'lost',
      created_at: now,
      started_at: now,
      finished_at: now,
      heartbeat_at: now,
      pid: 1,
      progress: null,
    });
    const log = SessionLog.create(home, meta);
    log.appendItem(user('u1', 'delegate in background to researcher: x'));
    log.appendItem({
      id: 't1',
      kind: 'tool',
      runId: 'r',
      callId: 'c1',
      name: 'delegate',
      args: {},
      rawArgs: '{}',
      status: 'ok',
      startedAt: 1,
      result: `Background task started for agent 'researcher'.\ntask_id: ${id}\nUse action='check_result' with task_id='${id}' to retrieve the result.`,
    });
    log.appendItem(answer('a1', 'started'));
    log.close();
    const notes = resumeNotices(restoreSession(home, log.id), home);
    expect(notes).toEqual(['1 background task of this session was lost when arbor exited: 0b6f3a52.']);
  });
});
