// Files under ARBOR_HOME are the user's alone: created 0600 / 0700 whatever the umask, and
// what an older arbor left readable by others is tightened at start.
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setLanguage, t } from '../../../src/i18n/index.js';
import { summarizeTightened, tightenArborHome } from '../../../src/persistence/privateFs.js';
import { assertHomeWritable } from '../../../src/persistence/homeAccess.js';
import { SessionLog } from '../../../src/persistence/sessionLog.js';
import { TaskStore } from '../../../src/persistence/taskRecords.js';
import { TraceLog } from '../../../src/persistence/traceLog.js';
import { writeStarterConfig } from '../../../src/config/starter.js';
import { writeExport } from '../../../src/persistence/exportFile.js';

beforeAll(() => setLanguage('en'));

let root: string;
let home: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'arbor-private-'));
  home = join(root, 'home');
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const mode = (p: string) => statSync(p).mode & 0o777;

describe('writers create private files', () => {
  it('the start-up check creates a new home and its sessions folder 0700, even under umask 022', () => {
    const old = process.umask(0o022);
    try {
      assertHomeWritable(home);
    } finally {
      process.umask(old);
    }
    expect(mode(home)).toBe(0o700);
    expect(mode(join(home, 'sessions'))).toBe(0o700);
  });

  it('session, trace log, task record, export and starter config are 0600 in 0700 folders, even under umask 022', () => {
    const old = process.umask(0o022);
    try {
      const log = SessionLog.create(home, { agentAlias: 'main', providerLabel: 'x/y', cwd: root });
      log.appendItem({ id: 'u', kind: 'user', text: 'hi', at: 1 });
      log.close();
      const trace = new TraceLog(home);
      trace.event({ event: 'run_started', agent_alias: 'main', session_key: 's', run_id: 'r' });
      trace.close();
      const tasks = new TaskStore(home);
      const id = '123e4567-e89b-12d3-a456-426614174000';
      tasks.create({
        task_id: id,
        agent: 'a',
        caller_chain: ['main'],
        status: 'running',
        output: null,
        error: null,
        created_at: 'x',
        started_at: null,
        finished_at: null,
        heartbeat_at: 'x',
        pid: process.pid,
        progress: null,
      });
      tasks.update(id, { status: 'completed' });
      const exported = writeExport('text', 'entry', join(home, 'exports'));
      const config = writeStarterConfig(join(home, 'config.toml')).path;

      for (const dir of [home, join(home, 'sessions'), join(home, 'logs'), join(home, 'tasks'), join(home, 'exports')])
        expect(mode(dir), dir).toBe(0o700);
      for (const file of [log.path, trace.path, join(home, 'tasks', `${id}.json`), exported, config]) expect(mode(file), file).toBe(0o600);
      // Nothing to tighten afterwards.
      expect(tightenArborHome(home).paths).toEqual([]);
    } finally {
      process.umask(old);
    }
  });
});

describe('tightening at start', () => {
  it('fixes the home, known folders and their files, and config files; never follows a symlink', () => {
    mkdirSync(join(home, 'sessions'), { recursive: true });
    mkdirSync(join(home, 'logs'));
    chmodSync(home, 0o755);
    chmodSync(join(home, 'sessions'), 0o755);
    writeFileSync(join(home, 'sessions', 'a.jsonl'), '{}\n', { mode: 0o644 });
    writeFileSync(join(home, 'sessions', 'b.jsonl'), '{}\n', { mode: 0o600 });
    writeFileSync(join(home, 'logs', 'arbor.log'), '', { mode: 0o664 });
    chmodSync(join(home, 'logs'), 0o700);
    writeFileSync(join(home, 'config.toml'), '', { mode: 0o644 });
    const outside = join(root, 'outside.txt');
    writeFileSync(outside, 'x', { mode: 0o644 });
    symlinkSync(outside, join(home, 'sessions', 'link.jsonl'));

    const { paths } = tightenArborHome(home);
    expect(paths.sort()).toEqual(['.', 'config.toml', 'logs/arbor.log', 'sessions', 'sessions/a.jsonl'].sort());
    expect(mode(home)).toBe(0o700);
    expect(mode(join(home, 'sessions'))).toBe(0o700);
    expect(mode(join(home, 'sessions', 'a.jsonl'))).toBe(0o600);
    expect(mode(join(home, 'logs', 'arbor.log'))).toBe(0o600);
    expect(mode(join(home, 'config.toml'))).toBe(0o600);
    expect(mode(outside)).toBe(0o644);
    expect(summarizeTightened(['.', 'sessions', 'sessions/a.jsonl', 'logs/arbor.log', 'config.toml'], home)).toBe(
      `${home}, sessions (2), logs, config.toml`,
    );
  });

  it('a missing home is fine', () => {
    expect(tightenArborHome(join(root, 'nope')).paths).toEqual([]);
  });

  // The home itself was listed as "." and the notice then ended in ": ..", which read as
  // the parent folder.
  it.each(['en', 'es'] as const)('the notice names the home by its path, never "." (%s)', (lang) => {
    setLanguage(lang);
    try {
      const what = summarizeTightened(['.', 'sessions', 'sessions/a.jsonl'], home);
      const notice = t('cli:permissionsTightened', { home, what });
      expect(notice.endsWith(`: ${home}, sessions (2).`)).toBe(true);
      expect(notice).not.toContain('..');
      expect(summarizeTightened(['.'], home)).toBe(home);
    } finally {
      setLanguage('en');
    }
  });
});
