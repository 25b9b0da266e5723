// The session file behind one chat: which log events go to, the switch to a new session on
// /clear, and the totals (tokens, cost) written at each flush so listings can show them.
import type { SessionTotals } from '../model/controls.js';
import type { RuntimeSinks } from '../runtime/sinks.js';
import type { TraceLog } from '../persistence/traceLog.js';
import { SessionLog, type SaveStatusListener } from '../persistence/sessionLog.js';
import type { SessionMeta, SessionModelEvent } from '../persistence/sessionFormat.js';

type SessionModel = Omit<SessionModelEvent, 'type'>;
import type { RestoredSession } from '../persistence/sessionRestore.js';

export class SessionRecorder {
  private log: SessionLog;
  private lastTotals = '';
  private readonly saveListeners: SaveStatusListener[] = [];
  /** The root's switched model (/model, --model), carried into the session /clear starts. */
  private model: SessionModel | undefined;
  /** A switch not yet in the file: written with the next event, so a switch alone never
   * creates a session file. */
  private modelPending = false;

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

  /** The model the root runs on as this session begins: `recorded` when the session file
   * already says so (a resumed one), else it is written with the next event. */
  adoptModel(model: SessionModel, recorded: boolean): void {
    this.model = { ...model };
    this.modelPending = !recorded;
  }

  private recordModel(model: SessionModel): void {
    this.model = { ...model };
    this.modelPending = true;
    if (this.log.written) this.writeModel();
  }

  private writeModel(): void {
    if (!this.modelPending || !this.model) return;
    this.modelPending = false;
    this.log.appendModel(this.model);
  }

  /** The log, with a pending model switch written before the event that follows it. */
  private get out(): SessionLog {
    this.writeModel();
    return this.log;
  }

  sinks(totals: () => SessionTotals, trace: TraceLog): RuntimeSinks {
    return {
      appendItem: (item) => this.out.appendItem(item),
      appendMessage: (m) => this.out.appendMessage(m),
      appendChildItem: (runId, item) => this.out.appendChildItem(runId, item),
      appendRun: (run) => this.out.appendRun(run),
      recordModel: (model) => this.recordModel(model),
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
    // The chat keeps its model after /clear: so does the session it goes on in.
    this.modelPending = this.model !== undefined;
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
