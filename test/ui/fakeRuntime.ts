// The one RuntimeApi for UI tests: a real store driven with the real mutators, a record of
// every action the UI takes, and the runtime's side played by the helpers below. Pause,
// resume, kill, spawn pause and the runaway guard's answer are not re-implemented here:
// they are the real Supervisor's (its RunControl cascades over run handles) and the real
// RunawayGuard's, so a UI test cannot pass against a cascade the runtime does not have.
// What the fake plays is each run's loop: it reaches its pause gate at once (unless the
// test says it is mid-step) and unwinds as soon as it is aborted (unless held).
import { randomUUID } from 'node:crypto';
import { addRun, addUsage, appendItem, createRuntimeStore, setRunStatus, updateItem, type RuntimeStore } from '../../src/runtime/store.js';
import type { RecordedRuns, RuntimeApi } from '../../src/runtime/runtimeApi.js';
import type { RuntimeInfo } from '../../src/model/state.js';
import { runError, type Run, type RunStatus } from '../../src/model/run.js';
import { arborHome, exportDir } from '../../src/config/paths.js';
import { loadConfigFromTexts } from '../../src/config/load.js';
import { writeExport } from '../../src/persistence/exportFile.js';
import { restoreSession } from '../../src/persistence/sessionRestore.js';
import { RunawayGuard } from '../../src/runtime/runawayGuard.js';
import type { Supervisor } from '../../src/runtime/supervisor.js';
import type { RunHandle } from '../../src/runtime/supervisorTypes.js';
import {
  isTerminal,
  type ApprovalAnswer,
  type PendingApproval,
  type ToolCallStatus,
  type TranscriptItem,
} from '../../src/runtime/types.js';
import { WithoutCapabilities } from './withoutCapabilities.js';
import { makeRun } from '../helpers/runs.js';
import { modelessSupervisor } from '../helpers/modelessSupervisor.js';

/** The chat's actions, as the chat tests read them. */
export interface Calls {
  startTurn: string[];
  interrupt: number;
  answerApproval: Array<{ id: string; answer: ApprovalAnswer }>;
  clear: number;
}

/** One action the UI took: its name, then its arguments. */
export type Call = [string, ...unknown[]];

export class FakeRuntime extends WithoutCapabilities implements RuntimeApi {
  readonly store: RuntimeStore;
  readonly calls: Calls = { startTurn: [], interrupt: 0, answerApproval: [], clear: 0 };
  /** Every action, in order (the /agents tests read it through callsOf). */
  readonly actions: Call[] = [];
  steerOutcome: 'delivered' | 'continued' | 'unknown' = 'delivered';
  /** Runs whose step is in flight: a pause reads `pausing…` until reachBoundary. */
  readonly midStep = new Set<string>();
  /** While true, aborted runs do not unwind: a kill reads as still ending. */
  holdUnwind = false;
  /** The real supervisor over this store: its handles are the runs this fake added. */
  readonly supervisor: Supervisor;
  private readonly guard: RunawayGuard;
  private readonly loops = new Map<string, RunHandle>();
  private finishTurn: (() => void) | undefined;
  runId: string | undefined;

  constructor(info: Partial<RuntimeInfo> = {}) {
    super();
    this.store = createRuntimeStore('s1', {
      agentAlias: 'main',
      providerName: 'local',
      providerLabel: 'openai-compatible/qwen3:8b',
      configWarnings: [],
      ...info,
    });
    const { config } = loadConfigFromTexts([], {});
    const notice = (level: 'info' | 'warn' | 'error', text: string) =>
      appendItem(this.store, undefined, { id: randomUUID(), kind: 'notice', level, text, at: Date.now() });
    this.supervisor = modelessSupervisor(this.store, config, { interactive: true, notice });
    this.guard = new RunawayGuard(this.supervisor, config.delegation.runaway, notice);
  }

  private record(name: string, ...args: unknown[]): void {
    this.actions.push([name, ...args]);
  }

  callsOf(name: string): unknown[][] {
    return this.actions.filter((c) => c[0] === name).map((c) => c.slice(1));
  }

  /** Like the real runtime: a root run, the user item, then wait for the test to end it. */
  startTurn(text: string): Promise<void> {
    this.calls.startTurn.push(text);
    this.record('startTurn', text);
    const id = randomUUID();
    this.runId = id;
    this.addRun(makeRun(id, { task: text }), 'running');
    this.store.setState({ activeRootRunId: id });
    appendItem(this.store, id, { id: randomUUID(), kind: 'user', text, at: Date.now() });
    return new Promise((resolve) => {
      this.finishTurn = resolve;
    });
  }

  interrupt(): void {
    this.calls.interrupt++;
    this.record('interrupt');
  }
  answerApproval(id: string, answer: ApprovalAnswer): void {
    this.calls.answerApproval.push({ id, answer });
    this.record('answerApproval', id, answer);
  }
  clear(): void {
    this.calls.clear++;
    this.record('clear');
    this.store.setState({ transcript: [] });
  }
  pause(runId: string): number {
    this.record('pause', runId);
    const paused = this.supervisor.pause(runId);
    this.reachGates(runId);
    return paused;
  }
  /** As runtime.ts routes it: resuming the tree the guard paused answers the trip. */
  resume(runId: string): void {
    this.record('resume', runId);
    const runaway = this.store.getState().controls.runaway;
    if (runaway.tripped && runaway.rootRunId === runId) this.guard.resolve('resume');
    else this.supervisor.resume(runId);
  }
  kill(runId: string): { killed: boolean; descendants: number } {
    this.record('kill', runId);
    return this.supervisor.kill(runId);
  }
  /** Like the real runtime: the session file under $ARBOR_HOME for the store's session. */
  recordedRuns(): RecordedRuns {
    const restored = restoreSession(arborHome(), this.store.getState().sessionId);
    return { runs: restored.runs, childItems: restored.childItems };
  }

  /** Like the real runtime: a new file under $ARBOR_HOME/exports. */
  exportText(text: string, what: string): string {
    return writeExport(text, what, exportDir());
  }

  steer(runId: string, message: string): 'delivered' | 'continued' | 'unknown' {
    this.record('steer', runId, message);
    return this.steerOutcome;
  }
  setSpawnPaused(paused: boolean): void {
    this.record('setSpawnPaused', paused);
    this.supervisor.setSpawnPaused(paused);
  }
  resolveRunaway(choice: 'resume' | 'kill'): boolean {
    this.record('resolveRunaway', choice);
    return this.guard.resolve(choice);
  }
  async dispose(): Promise<void> {
    this.guard.dispose();
  }

  // ---- the runtime's side, for tests ----

  /** Announces a run the way the supervisor does (a handle first, linked to its parent's
   * cancellation), then moves it to `status`. A run added `paused` holds at its gate. */
  addRun(run: Run, status: RunStatus): void {
    const ends = isTerminal(status);
    if (!ends) this.startLoop(run);
    addRun(this.store, run);
    if (status === 'queued') return;
    if (status !== 'running') setRunStatus(this.store, run.id, 'running');
    if (status !== 'paused') setRunStatus(this.store, run.id, status);
    else {
      this.supervisor.pause(run.id);
      this.reachGates(run.id);
    }
  }

  /** The loop of a mid-step run reaches its next step boundary: a pause asked for holds. */
  reachBoundary(runId: string): void {
    this.midStep.delete(runId);
    this.reachGates(runId);
  }

  private startLoop(run: Run): void {
    const parent = run.parentRunId ? this.loops.get(run.parentRunId) : undefined;
    const handle = this.supervisor.registerHandle(run.id, run.kind === 'background' ? undefined : parent?.controller.signal);
    this.loops.set(run.id, handle);
    handle.controller.signal.addEventListener('abort', () => this.unwind(run.id), { once: true });
  }

  /** Each live loop in the subtree that is between steps waits at its paused gate. */
  private reachGates(runId: string): void {
    for (const [id, h] of this.loops) {
      if (this.midStep.has(id) || !h.gate.paused || !this.inSubtree(id, runId)) continue;
      void h.gate.wait(h.controller.signal);
    }
  }

  private inSubtree(id: string, rootId: string): boolean {
    const runs = this.store.getState().runs;
    for (let at: string | undefined = id; at; at = runs.get(at)?.parentRunId) if (at === rootId) return true;
    return false;
  }

  /** An aborted loop ends its run with the reason it was stopped for, as endChild does. */
  private unwind(runId: string): void {
    if (this.holdUnwind) return;
    const h = this.loops.get(runId)!;
    const status = h.stopReason ?? 'cancelled';
    setRunStatus(this.store, runId, status, status === 'killed' ? runError(h.killedBy ?? 'killedByOperator') : {});
  }

  trip(rootRunId: string, threshold = 'max_tree_size', limit = 4, measured = 5, action = 'pause_tree'): void {
    this.store.setState((s) => ({
      controls: { ...s.controls, runaway: { tripped: true, threshold, limit, measured, rootRunId, action, at: Date.now() } },
    }));
  }

  beginAssistant(text = ''): string {
    const id = randomUUID();
    appendItem(this.store, this.runId, { id, kind: 'assistant', runId: this.runId ?? 'r', text, at: Date.now(), streaming: true });
    return id;
  }
  appendText(itemId: string, delta: string): void {
    updateItem(this.store, this.runId, itemId, (it) => (it.kind === 'assistant' ? { ...it, text: it.text + delta } : it));
  }
  finishAssistant(itemId: string, interrupted = false): void {
    updateItem(this.store, this.runId, itemId, (it) =>
      it.kind === 'assistant' ? { ...it, streaming: false, interrupted: interrupted || undefined } : it,
    );
  }
  /** A tool call in `runId`'s transcript (the current turn's by default). */
  addTool(name: string, args: unknown, status: ToolCallStatus = 'running', result?: string, runId = this.runId): string {
    const id = randomUUID();
    const item: TranscriptItem = {
      id,
      kind: 'tool',
      runId: runId ?? 'r',
      callId: `call-${id.slice(0, 6)}`,
      name,
      args,
      rawArgs: JSON.stringify(args),
      status,
      result,
      startedAt: Date.now(),
    };
    appendItem(this.store, runId, item);
    return id;
  }
  setToolStatus(itemId: string, status: ToolCallStatus, result?: string): void {
    updateItem(this.store, this.runId, itemId, (it) => (it.kind === 'tool' ? { ...it, status, result } : it));
  }
  requestApproval(tool: string, args: unknown): PendingApproval {
    const approval: PendingApproval = { id: randomUUID(), runId: this.runId ?? 'r', callId: 'c1', tool, args, createdAt: Date.now() };
    this.store.setState((s) => ({ controls: { ...s.controls, approvals: [...s.controls.approvals, approval] } }));
    return approval;
  }
  usage(tokensIn: number, tokensOut: number, cost: number): void {
    addUsage(this.store, this.runId ?? 'r', tokensIn, tokensOut, cost);
  }
  endTurn(): void {
    if (this.runId) setRunStatus(this.store, this.runId, 'completed');
    this.store.setState({ activeRootRunId: undefined, retryNotice: undefined });
    this.finishTurn?.();
    this.finishTurn = undefined;
  }
}
