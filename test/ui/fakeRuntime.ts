// A RuntimeApi for UI tests: a real store driven with the real mutators, and a record of
// every action the UI takes. Tests play the runtime's part by calling the helpers below.
import { randomUUID } from 'node:crypto';
import { addRun, addUsage, appendItem, createRuntimeStore, setRunStatus, updateItem, type RuntimeStore } from '../../src/runtime/store.js';
import type { RecordedRuns, RuntimeApi } from '../../src/runtime/runtimeApi.js';
import type { RuntimeInfo } from '../../src/model/state.js';
import { arborHome, exportDir } from '../../src/config/paths.js';
import { writeExport } from '../../src/persistence/exportFile.js';
import { restoreSession } from '../../src/persistence/sessionRestore.js';
import type { ApprovalAnswer, PendingApproval, ToolCallStatus, TranscriptItem } from '../../src/runtime/types.js';
import { WithoutCapabilities } from './withoutCapabilities.js';
import { makeRun } from '../helpers/runs.js';

export interface Calls {
  startTurn: string[];
  interrupt: number;
  answerApproval: Array<{ id: string; answer: ApprovalAnswer }>;
  clear: number;
}

export class FakeRuntime extends WithoutCapabilities implements RuntimeApi {
  readonly store: RuntimeStore;
  readonly calls: Calls = { startTurn: [], interrupt: 0, answerApproval: [], clear: 0 };
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
  }

  /** Like the real runtime: a root run, the user item, then wait for the test to end it. */
  startTurn(text: string): Promise<void> {
    this.calls.startTurn.push(text);
    const id = randomUUID();
    this.runId = id;
    addRun(this.store, makeRun(id, { task: text }));
    setRunStatus(this.store, id, 'running');
    this.store.setState({ activeRootRunId: id });
    appendItem(this.store, id, { id: randomUUID(), kind: 'user', text, at: Date.now() });
    return new Promise((resolve) => {
      this.finishTurn = resolve;
    });
  }

  interrupt(): void {
    this.calls.interrupt++;
  }
  answerApproval(id: string, answer: ApprovalAnswer): void {
    this.calls.answerApproval.push({ id, answer });
  }
  clear(): void {
    this.calls.clear++;
    this.store.setState({ transcript: [] });
  }
  pause(): number {
    return 0;
  }
  resume(): void {}
  kill(): { killed: boolean; descendants: number } {
    return { killed: false, descendants: 0 };
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

  steer(): 'delivered' | 'continued' | 'unknown' {
    return 'unknown';
  }
  setSpawnPaused(): void {}
  resolveRunaway(): boolean {
    return false;
  }
  async dispose(): Promise<void> {}

  // ---- the runtime's side, for tests ----

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
  addTool(name: string, args: unknown, status: ToolCallStatus = 'running', result?: string): string {
    const id = randomUUID();
    const item: TranscriptItem = {
      id,
      kind: 'tool',
      runId: this.runId ?? 'r',
      callId: `call-${id.slice(0, 6)}`,
      name,
      args,
      rawArgs: JSON.stringify(args),
      status,
      result,
      startedAt: Date.now(),
    };
    appendItem(this.store, this.runId, item);
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
