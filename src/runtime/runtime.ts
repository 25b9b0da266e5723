// The Runtime facade: builds the supervisor and tools for a config, runs root turns, and
// exposes the actions the UI and headless mode may take (RuntimeApi).
import { randomUUID } from 'node:crypto';
import type { AgentConfig, ArborConfig, ProviderConfig } from '../config/types.js';
import type { ModelMessage, ModelProvider } from '../providers/types.js';
import { applyPolicyToolFilter } from '../tools/policy.js';
import { ToolRegistry, builtinTools } from '../tools/registry.js';
import { spawnSubagentTool } from '../tools/spawnSubagent.js';
import type { Tool } from '../tools/types.js';
import { t } from '../i18n/index.js';
import { arborHome, exportDir } from '../config/paths.js';
import { writeExport } from '../persistence/exportFile.js';
import { WorktreeQueue } from './worktrees/queue.js';
import { worktreeApi } from './worktrees/api.js';
import { restoreSession } from '../persistence/sessionRestore.js';
import type { TraceEvent } from '../persistence/traceLog.js';
import { runTrace } from './traceEvents.js';
import type { McpManager } from '../mcp/manager.js';
import { ApprovalBroker } from './approvals.js';
import { ElicitationBroker } from './mcpElicitation.js';
import { McpRuntime } from './mcpRuntime.js';
import { configuredSubagentApprovals } from '../config/subagentApprovals.js';
import { FanoutBroker } from './fanout.js';
import type { LoopHooks } from './loop.js';
import { RootTurns, withTools } from './rootTurn.js';
import type { ProjectContextReport, RuntimeApi } from './runtimeApi.js';
import type { ProjectTrustState } from '../model/state.js';
import { appendItem, continueRunNumbers, createRuntimeStore, setRetryNotice, setRuntimeInfo, type RuntimeStore } from './store.js';
import { QuotaTracker } from './quotaPause.js';
import { RunawayGuard } from './runawayGuard.js';
import { LedgerBook } from './ledger/book.js';
import { buildTreeReport, writeTreeReport } from './ledger/treeReport.js';
import { changesOf, diffOfChange, mergeRuns } from './ledger/sessionDiff.js';
import { runLabel } from './runSelection.js';
import { Supervisor } from './supervisor.js';
import type { SupervisorDeps } from './supervisorTypes.js';
import { RootModel, parseModelSpec, type ModelSelection } from './rootModel.js';
import type { ProjectContext } from '../config/projectContext.js';
import { ProviderCache } from './providerCache.js';
import type { ElicitationReply } from '../model/controls.js';
import { openBrowser } from '../mcp/auth/browser.js';
import { browserEnv } from '../mcp/auth/login.js';
import { sharedAcpAgents } from './delegation/acpShared.js';
import type { ApprovalAnswer, Run, SessionTotals, TranscriptItem } from './types.js';

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

  const providers = new ProviderCache(config, opts.env ?? process.env, opts.providerFactory);
  const providerFor = providers.for;

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
      if (r) sinks.trace?.(runTrace('tool_started', r, { tool }));
    },
    onToolFinished(runId, tool, success, ms) {
      const r = runById(runId);
      if (r) sinks.trace?.(runTrace('tool_finished', r, { tool, status: success ? 'ok' : 'error', ms }));
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
      sinks.trace?.(runTrace('worktree', run, { branch: run.worktree?.branch, merge: run.worktree?.state }));
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
      sinks.trace?.(runTrace(event, run, { status: run.status, ...(tools ? { tools } : {}), model: run.model }));
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
  store.setState({
    info: {
      agentAlias: alias,
      providerName: mainAgent.provider,
      providerLabel: mainProvider.label,
      autoDetectedFrom: opts.autoDetectedFrom,
      configWarnings: opts.configWarnings ?? [],
      ...(opts.projectTrust ? { projectTrust: opts.projectTrust } : {}),
      showReasoning: config.ui.show_reasoning,
    },
  });

  // /model: the provider (and model) the user's agent talks through, for this session only.
  const rootModel = new RootModel(config, mainAgent, providerFor, providers.build);
  const applyModel = (selection: ModelSelection): void => {
    const resolved = rootModel.select(selection);
    setRuntimeInfo(store, {
      providerName: selection.provider,
      providerLabel: resolved.label,
      autoDetectedFrom: selection.provider === mainAgent.provider ? opts.autoDetectedFrom : undefined,
    });
  };
  if (opts.rootModel) applyModel(opts.rootModel);

  /** The session's runs: this process's as they are now, over what the session file
   * recorded (a resumed session's earlier turns); written out first. */
  function sessionRuns(): Run[] {
    flushSinks();
    const state = store.getState();
    let recorded: Run[] = [];
    try {
      recorded = restoreSession(opts.arborHome ?? arborHome(), state.sessionId).runs;
    } catch {
      // No file yet: only this process's runs.
    }
    const live = state.runOrder.map((id) => state.runs.get(id)).filter((r): r is Run => r !== undefined);
    return mergeRuns(recorded, live);
  }

  const rootTurns = new RootTurns({
    store,
    config,
    supervisor,
    rootModel,
    mcp: mcpRt,
    baseTools,
    history,
    hooks,
    alias,
    sessionKey: () => `session-${sessionId}`,
    notice,
    trace: (event) => sinks.trace?.(event),
    appendRun: (run) => sinks.appendRun?.(run),
    flush: flushSinks,
  });

  return {
    store,
    worktrees: worktreeApi(supervisor, supervisor.places, worktrees),
    supervisor,
    config,
    history,
    reportSaveError,
    startTurn: (text) => rootTurns.start(text),
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
      const report = buildTreeReport(store.getState().sessionId, sessionRuns());
      return { path: writeTreeReport(report, { path, home: opts.arborHome ?? arborHome() }), runs: report.runs.length };
    },
    exportText: (text, what) => writeExport(text, what, exportDir(opts.env ?? process.env)),
    sessionChanges: () => changesOf(sessionRuns()),
    sessionFileDiff: (change) => diffOfChange(change),
    models: () => rootModel.choices(),
    setModel(spec) {
      const selection = parseModelSpec(spec, config);
      applyModel(selection);
      sinks.recordModel?.(selection);
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
