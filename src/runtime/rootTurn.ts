// One root turn: the user's message becomes a root run on the user's agent (with the model
// /model picked), the supervisor runs its loop over the session history, and the turn's
// outcome, trace lines, final run snapshot and session flush follow, whatever the ending.
import { randomUUID } from 'node:crypto';
import type { ArborConfig } from '../config/types.js';
import { t } from '../i18n/index.js';
import type { ModelMessage } from '../model/messages.js';
import { runError, type Run } from '../model/run.js';
import type { TraceEvent } from '../persistence/traceLog.js';
import { createActionTracker } from '../tools/actionTracker.js';
import { MCP_SERVERS_UNAVAILABLE } from '../tools/mcpTools.js';
import { applyPolicyToolFilter } from '../tools/policy.js';
import { ToolRegistry } from '../tools/registry.js';
import type { ActionTracker, Tool } from '../tools/types.js';
import { ExecutionBudget } from './executionBudget.js';
import { repairHistory } from './history.js';
import { describeLoopError } from './loop.js';
import { RunAbortedError, type LoopHooks } from './loopSpec.js';
import type { McpRuntime } from './mcpRuntime.js';
import type { RootModel } from './rootModel.js';
import { appendItem, setRunStatus, type RuntimeStore } from './store.js';
import type { Supervisor } from './supervisor.js';
import { runTrace } from './traceEvents.js';

/** `base` with more tools (an agent's MCP tools) after it; `base` itself when none. */
export function withTools(base: ToolRegistry, more: Tool[]): ToolRegistry {
  return more.length ? new ToolRegistry([...base.list(), ...more]) : base;
}

export interface RootTurnDeps {
  store: RuntimeStore;
  config: ArborConfig;
  supervisor: Supervisor;
  rootModel: RootModel;
  mcp: Pick<McpRuntime, 'prepareTurn'>;
  /** Every tool before policy and before the agent's MCP tools. */
  baseTools: ToolRegistry;
  /** The session's model history (root turns), appended to in place. */
  history: ModelMessage[];
  /** Where the user's item and message are recorded (the session sinks). */
  hooks: Pick<LoopHooks, 'onItemFinal' | 'onMessage'>;
  /** The agent the user talks to. */
  alias: string;
  /** `session-<id>` of the session now (/clear starts a new one). */
  sessionKey(): string;
  notice(level: 'info' | 'warn' | 'error', text: string): void;
  trace(event: TraceEvent): void;
  /** The root's final snapshot (its ledger, for the tree export). */
  appendRun(run: Run): void;
  /** Writes the session; never throws (a failure is reported). */
  flush(): void;
}

export class RootTurns {
  // One action/cost tracker per agent for the whole session: a child shares its parent's.
  private readonly trackers = new Map<string, ActionTracker>();

  constructor(private readonly deps: RootTurnDeps) {}

  private trackerFor(alias: string): ActionTracker {
    let tr = this.trackers.get(alias);
    if (!tr) {
      const config = this.deps.config;
      tr = createActionTracker(config.risk_profiles[config.agents[alias].risk_profile]);
      this.trackers.set(alias, tr);
    }
    return tr;
  }

  /** Runs one root turn for the user's message; resolves when the turn ends. */
  async start(text: string): Promise<void> {
    const { store, supervisor, history, hooks, alias, notice } = this.deps;
    if (store.getState().activeRootRunId) throw new Error(t('runtime:turnAlreadyRunning'));
    const agent = supervisor.agent(alias);
    const resolved = this.deps.rootModel.resolve();
    const caller = supervisor.rootCaller(alias);
    const run = supervisor.createRun({ kind: 'root', alias, task: text, model: resolved.label, sessionKey: this.deps.sessionKey() });
    const handle = supervisor.registerHandle(run.id);
    setRunStatus(store, run.id, 'running');
    store.setState({ activeRootRunId: run.id });
    this.deps.trace(runTrace('run_started', run, { model: run.model }));

    const userItem = appendItem(store, run.id, { id: randomUUID(), kind: 'user', text, at: Date.now() });
    hooks.onItemFinal?.(run.id, userItem);
    const userMsg: ModelMessage = { role: 'user', content: text };
    history.push(userMsg);
    hooks.onMessage?.(run.id, userMsg);

    const limit = caller.runtime.max_execution_tree_iterations;
    const budget = limit !== undefined ? new ExecutionBudget(limit) : undefined;
    try {
      // MCP servers the agent sees and that are still starting are waited for (each up to
      // its startup timeout); the model is told which ones this turn goes without.
      const mcp = await this.deps.mcp.prepareTurn(agent, handle.controller.signal);
      const answer = await supervisor.loopFor({
        run,
        handle,
        agent: mcp.unavailable.length
          ? { ...agent, system_prompt: `${agent.system_prompt}\n\n${MCP_SERVERS_UNAVAILABLE(mcp.unavailable)}` }
          : agent,
        resolved,
        caller,
        tools: applyPolicyToolFilter(withTools(this.deps.baseTools, mcp.tools), caller.risk),
        history,
        budget: budget ? { budget, role: 'root' } : undefined,
        tracker: this.trackerFor(alias),
        isChild: false,
        maxIterations: caller.runtime.max_tool_iterations,
      });
      setRunStatus(store, run.id, handle.controller.signal.aborted ? (handle.stopReason ?? 'cancelled') : 'completed', { result: answer });
    } catch (err) {
      repairHistory(history);
      if (handle.controller.signal.aborted || err instanceof RunAbortedError) {
        setRunStatus(store, run.id, handle.stopReason ?? 'cancelled', runError('interrupted'));
        notice('warn', t('runtime:interrupted'));
      } else {
        const message = describeLoopError(err);
        setRunStatus(store, run.id, 'failed', { error: message });
        notice('error', message);
      }
    } finally {
      const finished = store.getState().runs.get(run.id);
      this.deps.trace(
        runTrace(finished?.status === 'completed' ? 'run_finished' : 'run_failed', run, {
          status: finished?.status,
          model: finished?.model,
        }),
      );
      supervisor.releaseHandle(run.id);
      // The root's final snapshot too (its ledger, for the tree export); children are
      // recorded as they end.
      if (finished) this.deps.appendRun(finished);
      store.setState({ activeRootRunId: undefined, retryNotice: undefined });
      this.deps.flush();
    }
  }
}
