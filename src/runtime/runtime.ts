// The Runtime facade: builds the supervisor and tools for a config, runs root turns, and
// exposes the actions the UI and headless mode may take (RuntimeApi).
import { randomUUID } from 'node:crypto';
import type { AgentConfig, ArborConfig, ProviderConfig } from '../config/types.js';
import { createProvider } from '../providers/createProvider.js';
import { providerLabel } from '../providers/label.js';
import type { ModelMessage, ModelProvider } from '../providers/types.js';
import { createActionTracker } from '../tools/actionTracker.js';
import { applyPolicyToolFilter } from '../tools/policy.js';
import { ToolRegistry, builtinTools } from '../tools/registry.js';
import { spawnSubagentTool } from '../tools/spawnSubagent.js';
import type { ActionTracker, Tool } from '../tools/types.js';
import { t } from '../i18n/index.js';
import { arborHome } from '../config/paths.js';
import { WorktreeQueue } from './worktrees/queue.js';
import { worktreeApi } from './worktrees/api.js';
import { restoreSession } from '../persistence/sessionRestore.js';
import type { TraceEvent } from '../persistence/traceLog.js';
import type { McpManager } from '../mcp/manager.js';
import { MCP_SERVERS_UNAVAILABLE } from '../tools/mcpTools.js';
import { ApprovalBroker } from './approvals.js';
import { ElicitationBroker } from './mcpElicitation.js';
import { McpRuntime } from './mcpRuntime.js';
import { configuredSubagentApprovals } from '../config/subagentApprovals.js';
import { ExecutionBudget } from './executionBudget.js';
import { FanoutBroker } from './fanout.js';
import { RunAbortedError, describeLoopError, type LoopHooks } from './loop.js';
import type { ProjectContextReport, ProjectTrustState, RuntimeApi, RuntimeInfo } from './runtimeApi.js';
import { repairHistory } from './history.js';
import { appendItem, continueRunNumbers, createRuntimeStore, setRetryNotice, setRunStatus, type RuntimeStore } from './store.js';
import { QuotaTracker } from './quotaPause.js';
import { RunawayGuard } from './runawayGuard.js';
import { LedgerBook } from './ledger/book.js';
import { buildTreeReport, writeTreeReport } from './ledger/treeReport.js';
import { changesOf, diffOfChange, mergeRuns } from './ledger/sessionDiff.js';
import { runLabel } from './runSelection.js';
import { Supervisor, type ResolvedProvider, type SupervisorDeps } from './supervisor.js';
import { RootModel, parseModelSpec, type ModelSelection } from './rootModel.js';
import type { ProjectContext } from '../config/projectContext.js';
import { agentProviderConfig, agentProviderKey } from './agentModel.js';
import type { ElicitationReply } from '../model/controls.js';
import { openBrowser } from '../mcp/auth/browser.js';
import { browserEnv } from '../mcp/auth/login.js';
import { sharedAcpAgents } from './delegation/acpShared.js';
import type { ApprovalAnswer, Run, SessionTotals, TranscriptItem } from './types.js';
import { runError } from '../model/run.js';

/** Where session events and trace lines go. Both optional so tests can run bare. */
export interface RuntimeSinks {
  appendItem?(item: TranscriptItem): void;
  appendMessage?(message: ModelMessage): void;
  appendChildItem?(runId: string, item: TranscriptItem): void;
  appendRun?(run: Run): void;
  flush?(): void;
  /** /clear: later events go to a new session (the old one stays as it was, resumable);
   * returns the new session's id. */
  startNewSession?(): string;
  /** The trace log: its event type admits no arguments, results or prompts. */
  trace?(e: TraceEvent): void;
  /** The user switched the root's model (/model, --model): kept for --resume. */
  recordModel?(selection: ModelSelection): void;
}

export interface CreateRuntimeOptions {
  config: ArborConfig;
  cwd: string;
  sessionId?: string;
  /** An operator answers approvals (the TUI). False in headless mode. */
  interactive: boolean;
  /** Headless --yes: allow calls that would ask. */
  autoYes?: boolean;
  /** Runs wait for a provider's rate or quota limit to lift instead of failing (default:
   * `interactive`; headless with --wait-on-quota). */
  waitOnQuota?: boolean;
  autoDetectedFrom?: string;
  configWarnings?: string[];
  sinks?: RuntimeSinks;
  env?: NodeJS.ProcessEnv;
  /** Restored context (--resume). */
  restored?: { items: TranscriptItem[]; messages: ModelMessage[]; totals?: SessionTotals; runs?: readonly Run[] };
  /** Extra tools (delegate is added by its own module). */
  extraTools?: Tool[];
  /** Extra services those tools need from the supervisor (see SupervisorDeps.extraServices). */
  extraServices?: SupervisorDeps['extraServices'];
  /** Where session files live (recordedRuns); absent: $ARBOR_HOME at the time of asking. */
  arborHome?: string;
  /** The configured MCP servers (not yet started: the runtime starts them in the
   * background and closes them when it ends). */
  mcp?: McpManager;
  /** false: the caller starts the MCP servers later (Runtime.startMcp; the chat does once
   * its first frame is drawn, so they never compete with it). Default true. */
  startMcp?: boolean;
  /** Override provider construction (tests). */
  providerFactory?: (config: ProviderConfig) => ModelProvider;
  /** AGENTS.md files read at launch (config/projectContext.ts): after the system prompt of
   * every agent whose definition does not say `context = false`. */
  projectContext?: ProjectContext;
  /** The root's model as the restored session left it (not recorded again). */
  rootModel?: ModelSelection;
  /** Whether the folder's own .arbor settings were trusted and applied (absent: it has none). */
  projectTrust?: ProjectTrustState;
  /** false: no observed-effects ledger (the benchmark's baseline). Default on. */
  ledger?: boolean;
}

export interface Runtime extends RuntimeApi {
  readonly supervisor: Supervisor;
  /** Waits for the MCP servers the user's agent (and its delegates) may use; the ones
   * that want a sign-in. */
  mcpNeedingSignIn(): Promise<string[]>;
  readonly config: ArborConfig;
  /** The model history of the session (root turns). */
  readonly history: ModelMessage[];
  /** The session writer's state: a message while saving fails (status bar, and a chat
   * notice when it starts failing), undefined once a save works again. */
  reportSaveError(message: string | undefined): void;
  /** The session is ending (a signal): stops every run, waits up to `settleMs` for them to
   * unwind (tools killed, outcomes and task records written), then flushes the sinks.
   * Resolves to whether everything settled in time. */
  shutdown(settleMs: number): Promise<boolean>;
  /** Starts the configured MCP servers in the background (once; a turn starts them too). */
  startMcp(): void;
}

/** Upper bound on dispose's wait for stopped runs to unwind (the shell's kill grace is 2 s). */
const DISPOSE_SETTLE_MS = 3000;

/** `sinks` whose every call does nothing once `ended()` says so. */
function endableSinks(sinks: RuntimeSinks, ended: () => boolean): RuntimeSinks {
  const out: Record<string, unknown> = {};
  for (const [key, fn] of Object.entries(sinks)) {
    out[key] =
      typeof fn === 'function' ? (...args: unknown[]) => (ended() ? undefined : (fn as (...a: unknown[]) => unknown)(...args)) : fn;
  }
  return out as RuntimeSinks;
}

/** `base` with more tools (an agent's MCP tools) after it; `base` itself when none. */
function withTools(base: ToolRegistry, more: Tool[]): ToolRegistry {
  return more.length ? new ToolRegistry([...base.list(), ...more]) : base;
}

function contextReport(context: ProjectContext, agent: AgentConfig, projectTrust?: ProjectTrustState): ProjectContextReport {
  const { text: _text, ...report } = context;
  return { ...report, agentOptedOut: agent.context === false, ...(projectTrust ? { projectTrust } : {}) };
}

export function createRuntime(opts: CreateRuntimeOptions): Runtime {
  const config = opts.config;
  let sessionId = opts.sessionId ?? randomUUID();
  const store: RuntimeStore = createRuntimeStore(sessionId);
  // Once disposed the session file is closed: a run still unwinding past the settle bound
  // writes nothing more (and cannot crash on the closed file).
  let ended = false;
  const sinks = endableSinks(opts.sinks ?? {}, () => ended);
  const history: ModelMessage[] = [...(opts.restored?.messages ?? [])];
  if (opts.restored?.items.length) store.setState({ transcript: [...opts.restored.items] });
  if (opts.restored?.totals) store.setState({ totals: { ...opts.restored.totals } });
  // researcher#3 of the saved session stays #3: new children are numbered after it.
  if (opts.restored?.runs) continueRunNumbers(store, opts.restored.runs);

  const providers = new Map<string, ResolvedProvider>();
  const buildProvider = (pc: ProviderConfig): ResolvedProvider => {
    const provider = opts.providerFactory ? opts.providerFactory(pc) : createProvider(pc, opts.env ?? process.env);
    return { provider, config: pc, label: providerLabel(pc) };
  };
  const providerFor = (agent: AgentConfig): ResolvedProvider => {
    const key = agentProviderKey(agent);
    let resolved = providers.get(key);
    if (!resolved) {
      const entry = config.providers[agent.provider];
      if (!entry) throw new Error(`agent '${agent.alias}': unknown provider '${agent.provider}'`);
      resolved = buildProvider(agentProviderConfig(entry, agent));
      providers.set(key, resolved);
    }
    return resolved;
  };

  const approvals = new ApprovalBroker(store, {
    interactive: opts.interactive,
    autoYes: opts.autoYes ?? false,
    subagentApprovals: () => configuredSubagentApprovals(config.delegation),
    // The supervisor is built below; asks only come once a turn runs.
    onWaiting: (runId, waiting) => supervisor.setAsking(runId, waiting),
  });

  const fanout = new FanoutBroker(store, {
    config,
    interactive: opts.interactive,
    autoYes: opts.autoYes ?? false,
    notice: (level, text) => notice(level, text),
  });

  const isRoot = (runId: string) => store.getState().runs.get(runId)?.kind === 'root';
  const runById = (runId: string) => store.getState().runs.get(runId);
  const hooks: LoopHooks = {
    onItemFinal(runId, item) {
      if (isRoot(runId)) sinks.appendItem?.(item);
      else sinks.appendChildItem?.(runId, item);
    },
    onMessage(runId, message) {
      if (isRoot(runId)) sinks.appendMessage?.(message);
    },
    onToolStarted(runId, tool) {
      const r = runById(runId);
      if (r)
        sinks.trace?.({
          event: 'tool_started',
          agent_alias: r.alias,
          session_key: r.sessionKey,
          run_id: r.id,
          parent_run_id: r.parentRunId,
          tool,
        });
    },
    onToolFinished(runId, tool, success, ms) {
      const r = runById(runId);
      if (r)
        sinks.trace?.({
          event: 'tool_finished',
          agent_alias: r.alias,
          session_key: r.sessionKey,
          run_id: r.id,
          parent_run_id: r.parentRunId,
          tool,
          status: success ? 'ok' : 'error',
          ms,
        });
    },
    onRetry(_runId, text) {
      setRetryNotice(store, text);
    },
  };

  const quota = new QuotaTracker({
    canWait: opts.waitOnQuota ?? opts.interactive,
    operator: opts.interactive,
    notice: (level, text) => notice(level, text),
    // How soon a limit with no reset time is tried again (tests shorten it).
    probeMs: Number((opts.env ?? process.env).ARBOR_QUOTA_PROBE_MS) || undefined,
  });
  const baseTools = new ToolRegistry([...builtinTools(), spawnSubagentTool, ...(opts.extraTools ?? [])]);
  const worktrees = new WorktreeQueue({
    home: opts.arborHome ?? arborHome(),
    store,
    mergeMode: () => config.delegation.merge ?? 'ask',
    onOutcome(run) {
      sinks.trace?.({
        event: 'worktree',
        agent_alias: run.alias,
        session_key: run.sessionKey,
        run_id: run.id,
        parent_run_id: run.parentRunId,
        ...(run.number !== undefined ? { run_number: run.number } : {}),
        branch: run.worktree?.branch,
        merge: run.worktree?.state,
      });
      // The session file (and the tree export built from it) keeps the outcome.
      sinks.appendRun?.(run);
    },
  });
  const supervisor = new Supervisor({
    worktrees,
    store,
    config,
    cwd: opts.cwd,
    approvals,
    providerFor,
    baseTools,
    filterTools: applyPolicyToolFilter,
    toolsFor: (alias) => withTools(baseTools, mcpRt.toolsOf(alias)),
    agentSeesTool: (alias, name) => mcpRt.agentSees(alias, name),
    hooks,
    trace(event, run, tools) {
      sinks.trace?.({
        event,
        agent_alias: run.alias,
        session_key: run.sessionKey,
        run_id: run.id,
        parent_run_id: run.parentRunId,
        ...(run.number !== undefined ? { run_number: run.number } : {}),
        status: run.status,
        ...(tools ? { tools } : {}),
        model: run.model,
      });
    },
    onChildEnded(run) {
      sinks.appendRun?.(run);
    },
    extraServices: opts.extraServices,
    notice: (level, text) => notice(level, text),
    projectContext: opts.projectContext?.text,
    ledger: opts.ledger === false ? undefined : new LedgerBook(store),
    quota,
    fanout,
  });
  quota.attach(supervisor);

  // One action/cost tracker per agent for the whole session: a child shares its parent's.
  const trackers = new Map<string, ActionTracker>();
  const trackerFor = (alias: string): ActionTracker => {
    let tr = trackers.get(alias);
    if (!tr) {
      const risk = config.risk_profiles[config.agents[alias].risk_profile];
      tr = createActionTracker(risk);
      trackers.set(alias, tr);
    }
    return tr;
  };

  const notice = (level: 'info' | 'warn' | 'error', text: string) => {
    const item = appendItem(store, undefined, { id: randomUUID(), kind: 'notice', level, text, at: Date.now() });
    sinks.appendItem?.(item);
  };

  const mcpRt = new McpRuntime(opts.mcp, store, config, notice);
  const elicitations = new ElicitationBroker(store, {
    interactive: opts.interactive,
    autoYes: opts.autoYes ?? false,
    notice,
    onWaiting: (runId, waiting) => supervisor.setAsking(runId, waiting),
    openUrl: (url) => openBrowser(url, browserEnv(opts.env ?? process.env)),
  });
  mcpRt.setElicitationHandler(elicitations.handler, elicitations.complete);
  if (opts.startMcp !== false) mcpRt.start();

  function reportSaveError(message: string | undefined): void {
    const prev = store.getState().saveError;
    if (message === undefined) {
      if (prev === undefined) return;
      store.setState({ saveError: undefined });
      notice('info', t('runtime:save.recovered'));
      return;
    }
    if (prev === message) return;
    store.setState({ saveError: message });
    if (prev === undefined) notice('warn', t('runtime:save.failed', { error: message }));
  }

  /** A save failure never ends a turn or hides its answer: it is reported, and the session
   * writer keeps the events and retries on its next write. */
  function flushSinks(): void {
    try {
      sinks.flush?.();
    } catch (err) {
      reportSaveError((err as Error).message);
    }
  }

  const guard = new RunawayGuard(supervisor, config.delegation.runaway, (level, text) => notice(level, text), opts.interactive);

  const alias = config.default_agent;
  const mainAgent = config.agents[alias];
  const mainProvider = providerFor(mainAgent);
  const info: RuntimeInfo = {
    agentAlias: alias,
    providerName: mainAgent.provider,
    providerLabel: mainProvider.label,
    autoDetectedFrom: opts.autoDetectedFrom,
    configWarnings: opts.configWarnings ?? [],
    ...(opts.projectTrust ? { projectTrust: opts.projectTrust } : {}),
    showReasoning: config.ui.show_reasoning,
  };

  // /model: the provider (and model) the user's agent talks through, for this session only.
  const rootModel = new RootModel(config, mainAgent, providerFor, buildProvider);
  const applyModel = (selection: ModelSelection): void => {
    const resolved = rootModel.select(selection);
    info.providerName = selection.provider;
    info.providerLabel = resolved.label;
    info.autoDetectedFrom = selection.provider === mainAgent.provider ? opts.autoDetectedFrom : undefined;
  };
  if (opts.rootModel) applyModel(opts.rootModel);

  async function startTurn(text: string): Promise<void> {
    if (store.getState().activeRootRunId) throw new Error(t('runtime:turnAlreadyRunning'));
    const agent = supervisor.agent(alias);
    const resolved = rootModel.resolve();
    const caller = supervisor.rootCaller(alias);
    const run = supervisor.createRun({ kind: 'root', alias, task: text, model: resolved.label, sessionKey: `session-${sessionId}` });
    const handle = supervisor.registerHandle(run.id);
    setRunStatus(store, run.id, 'running');
    store.setState({ activeRootRunId: run.id });
    sinks.trace?.({ event: 'run_started', agent_alias: alias, session_key: run.sessionKey, run_id: run.id, model: run.model });

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
      const mcp = await mcpRt.prepareTurn(agent, handle.controller.signal);
      const answer = await supervisor.loopFor({
        run,
        handle,
        agent: mcp.unavailable.length
          ? { ...agent, system_prompt: `${agent.system_prompt}\n\n${MCP_SERVERS_UNAVAILABLE(mcp.unavailable)}` }
          : agent,
        resolved,
        caller,
        tools: applyPolicyToolFilter(withTools(baseTools, mcp.tools), caller.risk),
        history,
        budget: budget ? { budget, role: 'root' } : undefined,
        tracker: trackerFor(alias),
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
      sinks.trace?.({
        event: finished?.status === 'completed' ? 'run_finished' : 'run_failed',
        agent_alias: alias,
        session_key: run.sessionKey,
        run_id: run.id,
        status: finished?.status,
        model: finished?.model,
      });
      supervisor.releaseHandle(run.id);
      // The root's final snapshot too (its ledger, for the tree export); children are
      // recorded as they end.
      if (finished) sinks.appendRun?.(finished);
      store.setState({ activeRootRunId: undefined, retryNotice: undefined });
      flushSinks();
    }
  }

  return {
    store,
    info,
    worktrees: worktreeApi(supervisor, supervisor.places, worktrees),
    supervisor,
    config,
    history,
    reportSaveError,
    startTurn,
    interrupt() {
      const id = store.getState().activeRootRunId;
      if (id) supervisor.stop(id, 'cancelled');
    },
    answerApproval(approvalId: string, answer: ApprovalAnswer) {
      approvals.answer(approvalId, answer);
    },
    answerElicitation(id: string, answer: ElicitationReply) {
      elicitations.answer(id, answer);
    },
    openElicitationUrl(id: string) {
      elicitations.openUrl(id);
    },
    answerFanout(fanoutId: string, count: number) {
      fanout.answer(fanoutId, count);
    },
    clear() {
      history.length = 0;
      // A shared external agent belongs to the session /clear ends (runtime/delegation/acpShared.ts).
      void sharedAcpAgents(supervisor).endAll();
      // A new session from here: resuming never brings the cleared messages back.
      const next = sinks.startNewSession?.();
      if (next !== undefined) sessionId = next;
      store.setState({
        transcript: [],
        ...(next !== undefined ? { sessionId: next, totals: { tokensIn: 0, tokensOut: 0, costUsd: 0 } } : {}),
      });
    },
    pause: (runId) => supervisor.pause(runId),
    resume(runId) {
      const runaway = store.getState().controls.runaway;
      // Resuming the tree the guard paused is the user's answer to the trip.
      if (runaway.tripped && runaway.rootRunId === runId) guard.resolve('resume');
      else supervisor.resume(runId);
    },
    kill: (runId) => supervisor.kill(runId),
    steer(runId, message) {
      if (supervisor.steer(runId, message)) return 'delivered';
      if (!supervisor.steerableContext(runId)) return 'unknown';
      const label = runLabel(store.getState(), runId);
      void supervisor.continueFinished(runId, message).then((outcome) => {
        if (!outcome) return;
        // The continuation is a new run with a number of its own; the old number keeps
        // naming the run that finished, so the notice names both.
        const next = runLabel(store.getState(), outcome.run.id);
        if (outcome.status === 'completed')
          notice(
            'info',
            t('runtime:numbers.continuedAnswer', { label: next, from: label, text: outcome.text || t('runtime:steer.empty') }),
          );
        else notice('error', t('runtime:numbers.continuedFailed', { label: next, from: label, error: outcome.error ?? outcome.status }));
      });
      return 'continued';
    },
    setSpawnPaused: (paused) => supervisor.setSpawnPaused(paused),
    recordedRuns() {
      const restored = restoreSession(opts.arborHome ?? arborHome(), store.getState().sessionId);
      return { runs: restored.runs, childItems: restored.childItems };
    },
    exportTree(path) {
      flushSinks();
      const home = opts.arborHome ?? arborHome();
      const state = store.getState();
      // Runs of this process as they are now, over what the session file recorded (a
      // resumed session's earlier turns).
      let recorded: Run[] = [];
      try {
        recorded = restoreSession(home, state.sessionId).runs;
      } catch {
        // No file yet: only this process's runs.
      }
      const live = state.runOrder.map((id) => state.runs.get(id)).filter((r): r is Run => r !== undefined);
      const ids = new Set(live.map((r) => r.id));
      const report = buildTreeReport(state.sessionId, [...recorded.filter((r) => !ids.has(r.id)), ...live]);
      return { path: writeTreeReport(report, { path, home }), runs: report.runs.length };
    },
    sessionChanges() {
      flushSinks();
      const state = store.getState();
      let recorded: Run[] = [];
      try {
        recorded = restoreSession(opts.arborHome ?? arborHome(), state.sessionId).runs;
      } catch {
        // No file yet: only this process's runs.
      }
      const live = state.runOrder.map((id) => state.runs.get(id)).filter((r): r is Run => r !== undefined);
      return changesOf(mergeRuns(recorded, live));
    },
    sessionFileDiff: (change) => diffOfChange(change),
    models: () => rootModel.choices(),
    setModel(spec) {
      const selection = parseModelSpec(spec, config);
      applyModel(selection);
      sinks.recordModel?.(selection);
      // The status bar reads info; any store change redraws it.
      store.setState({});
    },
    projectContext: () => (opts.projectContext ? contextReport(opts.projectContext, mainAgent, opts.projectTrust) : undefined),
    resolveRunaway: (choice) => guard.resolve(choice),
    mcpRestart: (name) => mcpRt.restart(name),
    mcpLogin: (name, onUrl, signal) => mcpRt.login(name, { authorizationUrl: onUrl }, { signal, browser: true }),
    mcpLogout: (name) => mcpRt.logout(name),
    mcpNeedingSignIn: () => mcpRt.needingSignIn(alias),
    startMcp: () => mcpRt.start(),
    async shutdown(settleMs: number) {
      guard.dispose();
      quota.dispose();
      supervisor.stopAll('cancelled');
      const deadline = Date.now() + settleMs;
      const settled = () => !supervisor.hasLiveHandles && store.getState().activeRootRunId === undefined;
      while (!settled() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      flushSinks();
      await Promise.all([mcpRt.close(), sharedAcpAgents(supervisor).endAll()]);
      return settled();
    },
    async dispose() {
      guard.dispose();
      quota.dispose();
      for (const id of supervisor.handledRunIds()) supervisor.stop(id, 'cancelled');
      // Stopped runs (a background task too) write their outcome and task record before
      // the session closes.
      const deadline = Date.now() + DISPOSE_SETTLE_MS;
      while (supervisor.hasLiveHandles && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      await new Promise((r) => setImmediate(r));
      flushSinks();
      ended = true;
      await Promise.all([mcpRt.close(), sharedAcpAgents(supervisor).endAll()]);
    },
  };
}
