// Appends a conversation to <arborHome>/sessions/<id>.jsonl, event by event. Events are
// buffered in memory and written at flush() (every turn end) and at most 2 s after they
// were appended, so a crash loses at most the turn in flight, and streaming never waits
// on the disk.
import { closeSync, existsSync, fstatSync, fsyncSync, openSync, readSync, writeSync, appendFileSync } from 'node:fs';
import type { ModelMessage } from '../model/messages.js';
import type { Run } from '../model/run.js';
import type { TranscriptItem } from '../model/transcript.js';
import { t } from '../i18n/index.js';
import { flushOnExit } from './exitFlush.js';
import { makePrivateDir, openPrivate } from './privateFs.js';
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

/** The disk write of a flush: a seam so tests can make the disk fail (ENOSPC) on demand. */
export const sessionIo = {
  append(fd: number, text: string): void {
    appendFileSync(fd, text, 'utf8');
    fsyncSync(fd);
  },
};

/** Told when saving starts failing (the error) and when it works again (undefined). */
export type SaveStatusListener = (error: Error | undefined) => void;

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
  /** After a failed write: whether the file still ends in a newline must be re-read. */
  private tailUnknown = false;
  private readonly saveListeners = new Set<SaveStatusListener>();
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
      makePrivateDir(sessionsDir(arborHome));
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
        fd = openPrivate(this.currentPath, 'wx');
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

  /** The root's model switched: --resume restores the last one recorded. */
  appendModel(selection: { provider: string; model?: string }): void {
    this.append({ type: 'model', provider: selection.provider, ...(selection.model !== undefined ? { model: selection.model } : {}) });
  }

  /** The session's cumulative tokens and cost, so listings can show them. */
  appendTotals(totals: { tokensIn: number; tokensOut: number; costUsd: number }): void {
    this.append({ type: 'totals', tokensIn: totals.tokensIn, tokensOut: totals.tokensOut, costUsd: totals.costUsd });
  }

  /** The last automatic flush's failure, if it has not been recovered by a later flush. */
  get writeError(): Error | undefined {
    return this.lastError;
  }

  /** Events appended but not yet on disk. */
  get pendingEvents(): number {
    return this.buffer.length;
  }

  /** Calls `listener` when saving starts failing and when it recovers; returns unsubscribe. */
  onSaveStatus(listener: SaveStatusListener): () => void {
    this.saveListeners.add(listener);
    return () => this.saveListeners.delete(listener);
  }

  private setSaveError(error: Error | undefined): void {
    const changed = (this.lastError === undefined) !== (error === undefined);
    this.lastError = error;
    if (!changed) return;
    for (const listener of [...this.saveListeners]) {
      try {
        listener(error);
      } catch {
        // A listener's failure must not turn a save problem into a crash.
      }
    }
  }

  /** Writes and fsyncs everything buffered. Throws (naming the file) when the disk write
   * fails; the events stay buffered for the next attempt. */
  flush(): void {
    if (this.buffer.length === 0) return;
    if (this.pending) {
      try {
        this.materialize();
      } catch (err) {
        this.setSaveError(err as Error);
        throw err;
      }
    }
    if (this.tailUnknown) {
      // A failed append may have left part of a line: the retry starts on a fresh line.
      try {
        this.startWithNewline = !endsWithNewline(this.path);
        this.tailUnknown = false;
      } catch {
        // Unreadable now: the write below fails too and says why.
      }
    }
    const text = scrubKnownSecrets((this.startWithNewline ? '\n' : '') + this.buffer.join('\n') + '\n');
    let fd: number | undefined;
    try {
      fd = openPrivate(this.path, 'a');
      sessionIo.append(fd, text);
    } catch (err) {
      const error = new Error(t('persistence:log.writeFailed', { file: this.path, error: (err as Error).message }));
      // Nothing is dropped: the events stay buffered and the next write retries them all.
      this.tailUnknown = true;
      this.setSaveError(error);
      throw error;
    } finally {
      if (fd !== undefined) closeSync(fd);
    }
    this.buffer = [];
    this.startWithNewline = false;
    this.clearTimer();
    this.setSaveError(undefined);
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
        this.setSaveError(err as Error);
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
