// A full disk never costs an answer: a failed session save keeps every event in memory,
// is reported once (status + notice), retried on the next write, and reported again when
// it works. The disk failure is injected through the session writer's io seam.
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setLanguage } from '../../../src/i18n/index.js';
import { SessionLog, sessionIo } from '../../../src/persistence/sessionLog.js';
import { restoreSession } from '../../../src/persistence/sessionRestore.js';
import { makeFixture, text, type Fixture } from '../../helpers/runtimeFixture.js';

const meta = { agentAlias: 'main', providerLabel: 'offline/demo', cwd: '/work/project' };
const realAppend = sessionIo.append;
let diskFull = false;
/** Like a disk that fills up mid-write: part of the text lands, then ENOSPC. */
function failingAppend(fd: number, text: string): void {
  if (!diskFull) return realAppend(fd, text);
  realAppend(fd, text.slice(0, Math.min(7, text.length)));
  throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
}

let home: string;
let fx: Fixture | undefined;
beforeAll(() => setLanguage('en'));
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'arbor-enospc-'));
  diskFull = false;
  sessionIo.append = failingAppend;
});
afterEach(async () => {
  sessionIo.append = realAppend;
  await fx?.cleanup();
  fx = undefined;
  rmSync(home, { recursive: true, force: true });
});

describe('SessionLog on a full disk', () => {
  it('keeps the events, reports the failure once, retries on the next write and reports the recovery', () => {
    const log = SessionLog.create(home, meta);
    const statuses: Array<string | undefined> = [];
    log.onSaveStatus((err) => statuses.push(err?.message));
    log.appendItem({ id: 'u1', kind: 'user', text: 'first', at: 1 });
    diskFull = true;
    expect(() => log.flush()).toThrow(/Could not write session file .*ENOSPC/);
    log.appendItem({ id: 'u2', kind: 'user', text: 'second', at: 2 });
    expect(() => log.flush()).toThrow(/ENOSPC/);
    expect(statuses).toHaveLength(1);
    expect(statuses[0]).toContain(log.path);
    expect(log.pendingEvents).toBe(2);

    diskFull = false;
    log.appendItem({ id: 'u3', kind: 'user', text: 'third', at: 3 });
    log.flush();
    expect(statuses).toEqual([statuses[0], undefined]);
    expect(log.writeError).toBeUndefined();
    log.close();
    // The cut line the failed writes left behind costs nothing that was kept.
    const restored = restoreSession(home, log.id);
    expect(restored.items.map((i) => (i.kind === 'user' ? i.text : ''))).toEqual(['first', 'second', 'third']);
    expect(
      readFileSync(log.path, 'utf8')
        .split('\n')
        .filter((l) => l.includes('"third"')),
    ).toHaveLength(1);
  });
});

describe('a turn on a full disk', () => {
  it('ends with its answer; the store and one chat notice say saving fails; the next turn saves everything and says so', async () => {
    const log = SessionLog.create(home, meta);
    // Wired as the CLI wires it.
    fx = await makeFixture({
      respond: () => text('the answer'),
      runtime: { sinks: { appendItem: (i) => log.appendItem(i), appendMessage: (m) => log.appendMessage(m), flush: () => log.flush() } },
    });
    const rt = fx.runtime;
    log.onSaveStatus((err) => rt.reportSaveError(err?.message));

    diskFull = true;
    await rt.startTurn('hello');
    const s = rt.store.getState();
    const root = s.runs.values().find((r) => r.kind === 'root')!;
    expect(root).toMatchObject({ status: 'completed', result: 'the answer' });
    expect(s.saveError).toMatch(/Could not write session file .*ENOSPC/);
    const warnings = s.transcript.filter((i) => i.kind === 'notice' && i.level === 'warn');
    expect(warnings).toHaveLength(1);
    expect(warnings[0].kind === 'notice' && warnings[0].text).toMatch(
      /^The session is not being saved: Could not write session file .*ENOSPC.*retries on every write/,
    );

    // Still full: a second turn is answered too, and the warning is not repeated.
    await rt.startTurn('again');
    expect(rt.store.getState().transcript.filter((i) => i.kind === 'notice' && i.level === 'warn')).toHaveLength(1);

    diskFull = false;
    await rt.startTurn('third');
    const after = rt.store.getState();
    expect(after.saveError).toBeUndefined();
    expect(after.transcript.at(-1)).toMatchObject({
      kind: 'notice',
      level: 'info',
      text: 'The session is saved again: everything kept in memory is now on disk.',
    });
    log.close();
    const users = restoreSession(home, log.id)
      .items.filter((i) => i.kind === 'user')
      .map((i) => (i.kind === 'user' ? i.text : ''));
    expect(users).toEqual(['hello', 'again', 'third']);
  });
});
