// Appends a conversation to <arborHome>/sessions/<id>.jsonl, event by event. Events are
// buffered in memory and written at flush() (every turn end) and at most 2 s after they
// were appended, so a crash loses at most the turn in flight, and streaming never waits
// on the disk.
import { closeSync, existsSync, fstatSync, fsyncSync, mkdirSync, openSync, readSync, writeSync, appendFileSync } from 'node:fs';
import type { ModelMessage } from '../providers/types.js';
import type { Run, TranscriptItem } from '../runtime/types.js';
import { t } from '../i18n/index.js';
import { flushOnExit } from './exitFlush.js';
import { scrubKnownSecrets } from './redact.js';
import {
  SESSION_FORMAT_VERSION,
  newSessionId,
  serializeEvent,
  sessionPath,
  sessionsDir,
  type SessionEvent,
  type SessionHeader,
  type SessionMeta,
} from './sessionFormat.js';

/** Upper bound on how long an appended event may stay only in memory. */
export const AUTO_FLUSH_MS = 2000;

export class SessionLog {
  private currentId: string;
  private currentPath: string;
  private buffer: string[] = [];
  private timer: NodeJS.Timeout | undefined;
  private closed = false;
  /** Set when the file does not end in a newline (a crash cut its last line): the next
   * write starts on a fresh line so the damage stays confined to that one line. */
  private startWithNewline: boolean;
  private lastError: Error | undefined;
  private readonly unregisterExit: () => void;
  /** Until the first event, a new session exists only in memory: an empty session (a
   * chat quit at once, `echo -n | arbor -p -`) leaves no file behind. */
  private pending: { arborHome: string; meta: SessionMeta } | undefined;

  private constructor(id: string, path: string, startWithNewline: boolean, pending?: { arborHome: string; meta: SessionMeta }) {
    this.currentId = id;
    this.currentPath = path;
    this.startWithNewline = startWithNewline;
    this.pending = pending;
    this.unregisterExit = flushOnExit(() => this.flush());
  }

  /** The session id; it can change (to a fresh one) only before the file is written. */
  get id(): string {
    return this.currentId;
  }

  get path(): string {
    return this.currentPath;
  }

  /** True once the file exists: the session has something in it and can be resumed. */
  get written(): boolean {
    return this.pending === undefined;
  }

  /** A new session. Its file (header first) is created with the first event, at once, so
   * the session is listed and resumable even if arbor dies before the first turn ends. */
  static create(arborHome: string, meta: SessionMeta): SessionLog {
    const id = newSessionId();
    return new SessionLog(id, sessionPath(arborHome, id), false, { arborHome, meta });
  }

  private materialize(): void {
    const pending = this.pending;
    if (!pending) return;
    const { arborHome, meta } = pending;
    try {
      mkdirSync(sessionsDir(arborHome), { recursive: true });
    } catch (err) {
      throw new Error(t('persistence:log.writeFailed', { file: this.currentPath, error: (err as Error).message }), { cause: err });
    }
    for (let attempt = 0; ; attempt++) {
      if (attempt > 0) {
        this.currentId = newSessionId();
        this.currentPath = sessionPath(arborHome, this.currentId);
      }
      const header: SessionHeader = {
        type: 'session',
        version: SESSION_FORMAT_VERSION,
        id: this.currentId,
        createdAt: new Date().toISOString(),
        agentAlias: meta.agentAlias,
        providerLabel: meta.providerLabel,
        cwd: meta.cwd,
        ...(meta.headless ? { headless: true } : {}),
      };
      let fd: number;
      try {
        // 'wx' fails if the name is taken, so two arbors started in the same second
        // (with the same random suffix) never share a file.
        fd = openSync(this.currentPath, 'wx');
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'EEXIST' && attempt < 8) continue;
        throw new Error(t('persistence:log.writeFailed', { file: this.currentPath, error: (err as Error).message }), { cause: err });
      }
      try {
        writeSync(fd, serializeEvent(header) + '\n');
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
      this.pending = undefined;
      return;
    }
  }

  /** Reopens an existing session to append to it (resume). */
  static open(arborHome: string, id: string): SessionLog {
    const path = sessionPath(arborHome, id);
    if (!existsSync(path)) {
      throw new Error(t('persistence:session.unknown', { id, dir: sessionsDir(arborHome) }));
    }
    return new SessionLog(id, path, !endsWithNewline(path));
  }

  appendItem(item: TranscriptItem): void {
    this.append({ type: 'item', item });
  }

  appendMessage(message: ModelMessage): void {
    this.append({ type: 'message', message });
  }

  appendChildItem(runId: string, item: TranscriptItem): void {
    this.append({ type: 'child_item', runId, item });
  }

  /** The final snapshot of a child run, when it ends. */
  appendRun(run: Run): void {
    this.append({ type: 'run', run });
  }

  /** The session's cumulative tokens and cost, so listings can show them. */
  appendTotals(totals: { tokensIn: number; tokensOut: number; costUsd: number }): void {
    this.append({ type: 'totals', tokensIn: totals.tokensIn, tokensOut: totals.tokensOut, costUsd: totals.costUsd });
  }

  /** The last automatic flush's failure, if it has not been recovered by a later flush. */
  get writeError(): Error | undefined {
    return this.lastError;
  }

  /** Writes and fsyncs everything buffered. Throws (naming the file) when the disk write
   * fails; the events stay buffered for the next attempt. */
  flush(): void {
    if (this.buffer.length === 0) return;
    if (this.pending) {
      try {
        this.materialize();
      } catch (err) {
        this.lastError = err as Error;
        throw err;
      }
    }
    const text = scrubKnownSecrets((this.startWithNewline ? '\n' : '') + this.buffer.join('\n') + '\n');
    let fd: number | undefined;
    try {
      fd = openSync(this.path, 'a');
      appendFileSync(fd, text, 'utf8');
      fsyncSync(fd);
    } catch (err) {
      this.lastError = new Error(t('persistence:log.writeFailed', { file: this.path, error: (err as Error).message }));
      throw this.lastError;
    } finally {
      if (fd !== undefined) closeSync(fd);
    }
    this.buffer = [];
    this.startWithNewline = false;
    this.lastError = undefined;
    this.clearTimer();
  }

  /** Flushes and stops; appending afterwards is an error. */
  close(): void {
    if (this.closed) return;
    try {
      this.flush();
    } finally {
      this.closed = true;
      this.clearTimer();
      this.unregisterExit();
    }
  }

  private append(event: SessionEvent): void {
    if (this.closed) throw new Error(t('persistence:log.closed', { file: this.path }));
    // Serialized now: later mutation of the object must not change what was recorded.
    this.buffer.push(serializeEvent(event));
    if (this.pending) {
      try {
        this.materialize();
      } catch (err) {
        // Kept in writeError; the next flush tries again instead of failing the turn here.
        this.lastError = err as Error;
      }
    }
    this.scheduleFlush();
  }

  private scheduleFlush(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      try {
        this.flush();
      } catch {
        // Kept in writeError; retry later rather than crash from a timer.
        if (!this.closed) this.scheduleFlush();
      }
    }, AUTO_FLUSH_MS);
    this.timer.unref();
  }

  private clearTimer(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }
}

function endsWithNewline(path: string): boolean {
  const fd = openSync(path, 'r');
  try {
    const size = fstatSync(fd).size;
    if (size === 0) return true;
    const last = Buffer.alloc(1);
    readSync(fd, last, 0, 1, size - 1);
    return last[0] === 0x0a;
  } finally {
    closeSync(fd);
  }
}
