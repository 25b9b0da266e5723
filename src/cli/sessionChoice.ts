// Which session a start continues: -c (the newest of this directory), --resume <id or
// prefix>, --resume alone (a picker in the chat; the newest valid session headless), or
// none (a new session). Also the notices a resumed session starts with.
import { t } from '../i18n/index.js';
import { sessionsDir } from '../persistence/sessionFormat.js';
import { listSessions, newestSessionIn, restoreSession, type RestoredSession } from '../persistence/sessionRestore.js';
import { TaskStore } from '../persistence/taskRecords.js';
import type { CliCommand } from './args.js';

type ChatCommand = Extract<CliCommand, { kind: 'chat' }>;

export type SessionChoice = { kind: 'new' } | { kind: 'restore'; session: RestoredSession } | { kind: 'cancelled' };

/** Throws an Error whose message says what was wrong (no such session, ambiguous prefix). */
export async function chooseSession(
  cmd: ChatCommand,
  home: string,
  cwd: string,
  pick: ((home: string) => Promise<string | undefined>) | undefined,
): Promise<SessionChoice> {
  if (cmd.continueLast) {
    const newest = newestSessionIn(home, cwd);
    if (!newest) throw new Error(t('cli:continueNone', { cwd, dir: sessionsDir(home) }));
    return { kind: 'restore', session: restoreSession(home, newest.id) };
  }
  if (!cmd.resume) return { kind: 'new' };
  if (cmd.resume.id !== undefined) return { kind: 'restore', session: restoreSession(home, cmd.resume.id) };
  if (!pick) return { kind: 'restore', session: restoreSession(home) };
  if (listSessions(home, 1).length === 0) throw new Error(t('persistence:session.none', { dir: sessionsDir(home) }));
  const id = await pick(home);
  return id === undefined ? { kind: 'cancelled' } : { kind: 'restore', session: restoreSession(home, id) };
}

/** What a resumed session's screen says first: damaged lines, a damaged header (the
 * conversation goes on in a new file), a cut-off last turn, background tasks lost. */
export function resumeNotices(session: RestoredSession, home: string): string[] {
  const notes = [...session.warnings];
  if (!session.valid) notes.push(t('persistence:restore.continuesElsewhere', { file: session.path }));
  if (session.lastTurnCutOff) notes.push(t('persistence:restore.lastTurnCutOff'));
  if (session.backgroundTaskIds.length > 0) {
    const tasks = new TaskStore(home);
    const lost = session.backgroundTaskIds.filter((id) => {
      try {
        return tasks.get(id)?.status === 'lost';
      } catch {
        return false;
      }
    });
    if (lost.length > 0) {
      notes.push(t('persistence:restore.tasksLost', { count: lost.length, ids: lost.map((id) => id.slice(0, 8)).join(', ') }));
    }
  }
  return notes;
}
