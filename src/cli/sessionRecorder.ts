// The session file behind one chat: which log events go to, the switch to a new session on
// /clear, and the totals (tokens, cost) written at each flush so listings can show them.
import type { SessionTotals } from '../runtime/types.js';
import type { RuntimeSinks } from '../runtime/runtime.js';
import type { TraceLog } from '../persistence/traceLog.js';
import { SessionLog, type SaveStatusListener } from '../persistence/sessionLog.js';
import type { SessionMeta } from '../persistence/sessionFormat.js';
import type { RestoredSession } from '../persistence/sessionRestore.js';

export class SessionRecorder {
  private log: SessionLog;
  private lastTotals = '';
  private readonly saveListeners: SaveStatusListener[] = [];

  /** Appends to a restored session only when its file has a valid header; a damaged one is
   * left as it is and the conversation goes on in a new file. */
  constructor(
    private readonly home: string,
    private readonly meta: SessionMeta,
    restored?: RestoredSession,
  ) {
    this.log = restored?.valid ? SessionLog.open(home, restored.id) : SessionLog.create(home, meta);
    if (restored?.valid) this.lastTotals = JSON.stringify(restored.totals);
  }

  get id(): string {
    return this.log.id;
  }

  /** Events of the current session not yet on disk. */
  get pendingEvents(): number {
    return this.log.pendingEvents;
  }

  /** Saving failing or recovering, for whichever session is current (it follows /clear). */
  onSaveStatus(listener: SaveStatusListener): void {
    this.saveListeners.push(listener);
    this.log.onSaveStatus(listener);
  }

  /** True when the current session has a file: there is something to resume. */
  get written(): boolean {
    return this.log.written;
  }

  sinks(totals: () => SessionTotals, trace: TraceLog): RuntimeSinks {
    return {
      appendItem: (item) => this.log.appendItem(item),
      appendMessage: (m) => this.log.appendMessage(m),
      appendChildItem: (runId, item) => this.log.appendChildItem(runId, item),
      appendRun: (run) => this.log.appendRun(run),
      flush: () => this.flush(totals()),
      startNewSession: () => this.startNew(),
      trace: (e) => trace.event(e),
    };
  }

  flush(totals?: SessionTotals): void {
    // Totals only join a session that has a file: they alone never create one.
    if (totals && this.log.written) {
      const key = JSON.stringify(totals);
      if (key !== this.lastTotals) {
        this.lastTotals = key;
        this.log.appendTotals(totals);
      }
    }
    this.log.flush();
  }

  private startNew(): string {
    try {
      this.log.close();
    } catch {
      // The old session's failed write stays its own problem (its writeError); the new
      // session must start regardless, or /clear would keep writing into the old one.
    }
    this.log = SessionLog.create(this.home, { ...this.meta, headless: false });
    for (const listener of this.saveListeners) this.log.onSaveStatus(listener);
    this.lastTotals = '';
    return this.log.id;
  }

  close(totals?: SessionTotals): void {
    try {
      this.flush(totals);
    } finally {
      this.log.close();
    }
  }
}
