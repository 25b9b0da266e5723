// The ledger's writer: every tool call of every run passes through its observer (the loop
// calls it around each call), which records the call on the run (`Run.observed`) from the
// runtime's side — the tool's result and its display, the shell command's work-tree
// snapshots, the approval answer — and gives spawn_subagent / delegate items what their
// children were observed doing. Kept within a budget per run: long lists keep their counts,
// long diffs their stats.
import { resolve } from 'node:path';
import type { ToolCallRequest } from '../../model/messages.js';
import {
  childObserved,
  childrenOfCall,
  emptyLedger,
  type ChildObserved,
  type CommandEffect,
  type FileBase,
  type FileEffect,
  type RunLedger,
} from '../../model/ledger.js';
import type { ToolCallStatus } from '../../model/transcript.js';
import { neutralizeDeep } from '../../text/untrusted.js';
import type { ToolResult } from '../../tools/types.js';
import { patchRun, type RuntimeStore } from '../store.js';
import { commandEndingOf, fileEffectOf, mcpCallOf, shellCommandOf } from './effects.js';
import { BASES_SESSION_BUDGET_BYTES, readBase, type BaseRead } from './fileBase.js';
import { gitTopLevel } from './gitSnapshot.js';
import { workTreeFor, type ShellWindow, type WorkTree } from './workTree.js';

/** Entries kept per list and run; past it only counts grow. */
export const LEDGER_LIST_CAP = 200;
/** Diff text kept per run; past it new entries keep their stats and a cut note. */
export const LEDGER_DIFF_BUDGET_BYTES = 128 * 1024;
const COMMAND_TEXT_CAP = 500;
const CHILD_TOOLS = new Set(['spawn_subagent', 'delegate']);
/** Tools that change the file their `path` argument names (its base is read before). */
const FILE_TOOLS = new Set(['write_file', 'edit_file', 'multi_edit', 'delete_file']);

export interface ToolObservation {
  startedAt: number;
  /** A file tool's target as it was before the call, when the session had no base for it. */
  base?: { abs: string; read: BaseRead };
  shell?: { tree: WorkTree; window: ShellWindow } | { outside: true };
}

/** What the loop calls around each tool call (runtime/loop.ts). */
export interface ToolObserver {
  /** Before a tool runs (a shell command's first snapshot is taken here). */
  before(call: ToolCallRequest, tool: string): Promise<ToolObservation>;
  /** Every call's end, whether it ran or not; fields for the call's transcript item. */
  after(
    call: ToolCallRequest,
    status: ToolCallStatus,
    result: ToolResult,
    ran: ToolObservation | undefined,
    approval: string | undefined,
  ): Promise<{ observed?: ChildObserved[] } | undefined>;
}

export interface LedgerOptions {
  /** Compare the work tree around shell commands (default true). */
  observeShell?: boolean;
}

export class LedgerBook {
  private readonly ledgers = new Map<string, RunLedger>();
  private readonly diffBytes = new Map<string, number>();
  /** Files with a base this session (absolute paths), and the bytes the bases keep. */
  private readonly based = new Set<string>();
  private baseBytes = 0;

  constructor(
    private readonly store: RuntimeStore,
    private readonly opts: LedgerOptions = {},
  ) {}

  /** `toolsOffered` false: the run could not call a tool (a single-call target), so it is
   * never flagged for using none. */
  observer(runId: string, cwd: string, toolsOffered = true): ToolObserver {
    if (!toolsOffered) {
      const l = this.ledger(runId);
      l.toolsOffered = false;
      this.publish(runId, l);
    }
    return {
      before: (call, tool) => this.before(call, tool, cwd),
      after: (call, status, result, ran, approval) => this.after(runId, cwd, call, status, result, ran, approval),
    };
  }

  private async before(call: ToolCallRequest, tool: string, cwd: string): Promise<ToolObservation> {
    const startedAt = Date.now();
    if (FILE_TOOLS.has(tool)) {
      const path = (call.args as { path?: unknown } | undefined)?.path;
      if (typeof path !== 'string' || path === '') return { startedAt };
      const abs = resolve(cwd, path);
      return this.hasBase(abs) ? { startedAt } : { startedAt, base: { abs, read: await readBase(abs) } };
    }
    if (tool !== 'shell' || this.opts.observeShell === false) return { startedAt };
    const top = await gitTopLevel(cwd);
    if (!top) return { startedAt, shell: { outside: true } };
    const tree = workTreeFor(top);
    return { startedAt: Date.now(), shell: { tree, window: await tree.open() } };
  }

  private ledger(runId: string): RunLedger {
    let l = this.ledgers.get(runId);
    if (!l) {
      // A steered continuation or a resumed run keeps counting from what it had.
      const prior = this.store.getState().runs.get(runId)?.observed;
      l = prior ? structuredClone(prior) : emptyLedger();
      this.ledgers.set(runId, l);
    }
    return l;
  }

  private async after(
    runId: string,
    cwd: string,
    call: ToolCallRequest,
    status: ToolCallStatus,
    result: ToolResult,
    ran: ToolObservation | undefined,
    approval: string | undefined,
  ): Promise<{ observed?: ChildObserved[] } | undefined> {
    const l = this.ledger(runId);
    const failed = status !== 'ok';
    l.toolCalls++;
    if (failed) l.failedCalls++;
    const count = (l.byTool[call.name] ??= { calls: 0, failed: 0 });
    count.calls++;
    if (failed) count.failed++;
    if (approval) this.push(l, 'approvals', { tool: call.name, callId: call.id, answer: approval });

    if (ran) {
      const file = fileEffectOf(result, cwd);
      if (file) {
        this.addFile(runId, l, { ...file, tool: call.name, callId: call.id });
        if (ran.base && !failed) this.addBase(l, file.path, ran.base.abs, ran.base.read);
        const top = await gitTopLevel(cwd);
        if (top) workTreeFor(top).touched();
      }
      if (call.name === 'shell') await this.recordShell(runId, cwd, l, call, result, ran);
      const mcp = mcpCallOf(call.name);
      if (mcp) this.push(l, 'mcp', { ...mcp, error: failed, callId: call.id });
    }
    this.publish(runId, l);
    return CHILD_TOOLS.has(call.name) ? { observed: this.childrenOf(runId, call.id) } : undefined;
  }

  private async recordShell(
    runId: string,
    cwd: string,
    l: RunLedger,
    call: ToolCallRequest,
    result: ToolResult,
    ran: ToolObservation,
  ): Promise<void> {
    const durationMs = Date.now() - ran.startedAt;
    let observed: CommandEffect['observed'] = 'outside_git';
    let files: FileEffect[] = [];
    if (ran.shell && 'tree' in ran.shell) {
      const seen = await ran.shell.tree.close(ran.shell.window, cwd);
      observed = seen.observed;
      files = seen.files.map(({ before, ...f }) => {
        const abs = resolve(cwd, f.path);
        if (before !== undefined && !this.hasBase(abs))
          this.addBase(l, f.path, abs, before === null ? { existed: false } : { existed: true, content: before });
        else if (f.change !== 'created' && !this.hasBase(abs)) this.addBase(l, f.path, abs, { existed: true, notKept: 'too_large' });
        return { ...f, tool: call.name, callId: call.id, via: 'shell' as const };
      });
    } else if (!ran.shell) observed = 'unobserved';
    const ending = commandEndingOf(result);
    // A refused command (allowed_commands, bad arguments) never ran: not a command.
    if (!ending) return;
    const command = (shellCommandOf(call.args) ?? '').slice(0, COMMAND_TEXT_CAP);
    this.push(l, 'commands', { command, ...ending, durationMs, callId: call.id, observed });
    for (const f of files) this.addFile(runId, l, f);
  }

  /** Whether this process already recorded `abs`'s base. A resumed session may record a
   * second one after its restart; /diff takes the earliest (model/sessionChanges.ts). */
  private hasBase(abs: string): boolean {
    return this.based.has(abs);
  }

  private addBase(l: RunLedger, path: string, abs: string, read: BaseRead): void {
    if (this.hasBase(abs)) return;
    this.based.add(abs);
    let kept = read;
    const size = read.content === undefined ? 0 : Buffer.byteLength(read.content);
    if (size > 0 && this.baseBytes + size > BASES_SESSION_BUDGET_BYTES) kept = { existed: true, notKept: 'budget' };
    else this.baseBytes += size;
    // The content stays as the file held it (a diff against the file now must be exact);
    // views neutralise what they show of it. The path is outside text like any other.
    const base: FileBase = { ...neutralizeDeep({ path, abs }), ...kept, at: Date.now() };
    (l.bases ??= []).push(base);
  }

  private addFile(runId: string, l: RunLedger, f: FileEffect): void {
    const used = this.diffBytes.get(runId) ?? 0;
    const size = f.diff ? Buffer.byteLength(f.diff) : 0;
    let entry: FileEffect = { ...f, at: Date.now() };
    if (size > 0 && used + size > LEDGER_DIFF_BUDGET_BYTES) {
      const { diff: _diff, ...rest } = entry;
      entry = { ...rest, diffCut: true };
    } else this.diffBytes.set(runId, used + size);
    this.push(l, 'files', entry);
  }

  private push<K extends 'files' | 'commands' | 'mcp' | 'approvals'>(l: RunLedger, key: K, entry: RunLedger[K][number]): void {
    const list = l[key] as Array<RunLedger[K][number]>;
    if (list.length >= LEDGER_LIST_CAP) {
      l.dropped = { ...l.dropped, [key]: (l.dropped?.[key] ?? 0) + 1 };
      return;
    }
    // Paths, commands and diffs are outside text: inert before they reach the store.
    list.push(neutralizeDeep(entry));
  }

  /** The store gets a copy: runs are replaced, never mutated, so views see the change. */
  private publish(runId: string, l: RunLedger): void {
    patchRun(this.store, runId, {
      observed: {
        ...l,
        byTool: { ...l.byTool },
        files: [...l.files],
        commands: [...l.commands],
        mcp: [...l.mcp],
        approvals: [...l.approvals],
        ...(l.bases ? { bases: [...l.bases] } : {}),
      },
    });
  }

  /** The children a spawn_subagent / delegate call started, each with its subtree. */
  private childrenOf(runId: string, callId: string): ChildObserved[] {
    const s = this.store.getState();
    return childrenOfCall(s.runs, s.runOrder, runId, callId).map((id) => childObserved(s.runs, s.runOrder, id));
  }

  /** A run's ledger is final once it ends; the map entry goes (the store keeps the copy). */
  forget(runId: string): void {
    this.ledgers.delete(runId);
    this.diffBytes.delete(runId);
  }
}

export { childObserved } from '../../model/ledger.js';
