// The Runtime facade: builds the supervisor and tools for a config, runs root turns, and
// exposes the actions the UI and headless mode may take (RuntimeApi).
import { randomUUID } from 'node:crypto';
import type { AgentConfig, ArborConfig, ProviderConfig } from '../config/types.js';
import type { ModelMessage, ModelProvider } from '../providers/types.js';
import { applyPolicyToolFilter } from '../tools/policy.js';
import { ToolRegistry, builtinTools } from '../tools/registry.js';
import { spawnSubagentTool } from '../tools/spawnSubagent.js';
import type { Tool } from '../tools/types.js';
import { arborHome } from '../config/paths.js';
import { WorktreeQueue } from './worktrees/queue.js';
import { worktreeApi } from './worktrees/api.js';
import { runTrace } from './traceEvents.js';
import type { McpManager } from '../mcp/manager.js';
import type { McpRuntime } from './mcpRuntime.js';
import { ApprovalBroker } from './approvals.js';
import { configuredSubagentApprovals } from '../config/subagentApprovals.js';
import { FanoutBroker } from './fanout.js';
import { RootTurns, withTools } from './rootTurn.js';
import type { RuntimeApi } from './runtimeApi.js';
import type { ProjectTrustState, RuntimeInfo } from '../model/state.js';
import { appendItem, continueRunNumbers, createRuntimeStore, type RuntimeStore } from './store.js';
import { QuotaTracker } from './quotaPause.js';
import { RunawayGuard } from './runawayGuard.js';
import { LedgerBook } from './ledger/book.js';
import { Supervisor } from './supervisor.js';
import type { SupervisorDeps } from './supervisorTypes.js';
import type { ModelSelection } from './rootModel.js';
import type { ProjectContext } from '../config/projectContext.js';
import { ProviderCache } from './providerCache.js';
import { endableSinks, sessionHooks, type RuntimeSinks } from './sinks.js';
import { saveStatus } from './saveStatus.js';
import { operatorControls } from './operatorControls.js';
import { sessionControls } from './sessionControls.js';
import { modelControls } from './modelControls.js';
import { mcpControls } from './mcpControls.js';
import { sessionEnd } from './sessionEnd.js';
import type { ApprovalAnswer, Run, SessionTotals, TranscriptItem } from './types.js';

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

interface MachineryParts {
  store: RuntimeStore;
  sinks: RuntimeSinks;
  env: NodeJS.ProcessEnv;
  home(): string;
  providerFor: SupervisorDeps['providerFor'];
  notice(level: 'info' | 'warn' | 'error', text: string): void;
  hooks: SupervisorDeps['hooks'];
  baseTools: ToolRegistry;
  /** The session's MCP side (built after the supervisor; read only once runs ask). */
  mcp(): Pick<McpRuntime, 'toolsOf' | 'agentSees'>;
}

/** What runs a session's runs: the brokers a run may wait on (approvals, fan-outs), the
 * quota tracker, the worktree queue, and the supervisor over them with the session's
 * sinks as its trace and outcome records. */
function runMachinery(opts: CreateRuntimeOptions, parts: MachineryParts) {
  const { store, sinks, notice, baseTools } = parts;
  const config = opts.config;
  const approvals = new ApprovalBroker(store, {
    interactive: opts.interactive,
    autoYes: opts.autoYes ?? false,
    subagentApprovals: () => configuredSubagentApprovals(config.delegation),
    // The supervisor is built below; asks only come once a turn runs.
    onWaiting: (runId, waiting) => supervisor.setAsking(runId, waiting),
  });
  const fanout = new FanoutBroker(store, { config, interactive: opts.interactive, autoYes: opts.autoYes ?? false, notice });
  const quota = new QuotaTracker({
    canWait: opts.waitOnQuota ?? opts.interactive,
    operator: opts.interactive,
    notice,
    // How soon a limit with no reset time is tried again (tests shorten it).
    probeMs: Number(parts.env.ARBOR_QUOTA_PROBE_MS) || undefined,
  });
  const worktrees = new WorktreeQueue({
    home: parts.home(),
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
    providerFor: parts.providerFor,
    baseTools,
    filterTools: applyPolicyToolFilter,
    toolsFor: (alias) => withTools(baseTools, parts.mcp().toolsOf(alias)),
    agentSeesTool: (alias, name) => parts.mcp().agentSees(alias, name),
    hooks: parts.hooks,
    trace(event, run, tools) {
      sinks.trace?.(runTrace(event, run, { status: run.status, ...(tools ? { tools } : {}), model: run.model }));
    },
    onChildEnded(run) {
      sinks.appendRun?.(run);
    },
    extraServices: opts.extraServices,
    notice,
    projectContext: opts.projectContext?.text,
    ledger: opts.ledger === false ? undefined : new LedgerBook(store),
    quota,
    fanout,
  });
  quota.attach(supervisor);
  return { approvals, fanout, quota, worktrees, supervisor };
}

/** A resumed session's transcript, totals and run numbers (researcher#3 of the saved
 * session stays #3: new children are numbered after it). */
function seedRestored(store: RuntimeStore, restored: NonNullable<CreateRuntimeOptions['restored']>): void {
  if (restored.items.length) store.setState({ transcript: [...restored.items] });
  if (restored.totals) store.setState({ totals: { ...restored.totals } });
  if (restored.runs) continueRunNumbers(store, restored.runs);
}

/** Who the user talks to, as the status bar first shows it (/model changes it later). */
function startInfo(opts: CreateRuntimeOptions, alias: string, mainAgent: AgentConfig, providerLabel: string): RuntimeInfo {
  return {
    agentAlias: alias,
    providerName: mainAgent.provider,
    providerLabel,
    autoDetectedFrom: opts.autoDetectedFrom,
    configWarnings: opts.configWarnings ?? [],
    ...(opts.projectTrust ? { projectTrust: opts.projectTrust } : {}),
    showReasoning: opts.config.ui.show_reasoning,
  };
}

export function createRuntime(opts: CreateRuntimeOptions): Runtime {
  const config = opts.config;
  const env = opts.env ?? process.env;
  const home = () => opts.arborHome ?? arborHome();
  const store: RuntimeStore = createRuntimeStore(opts.sessionId ?? randomUUID());
  let ended = false;
  const sinks = endableSinks(opts.sinks ?? {}, () => ended);
  const history: ModelMessage[] = [...(opts.restored?.messages ?? [])];
  if (opts.restored) seedRestored(store, opts.restored);

  const providers = new ProviderCache(config, env, opts.providerFactory);
  const providerFor = providers.for;
  const notice = (level: 'info' | 'warn' | 'error', text: string) => {
    const item = appendItem(store, undefined, { id: randomUUID(), kind: 'notice', level, text, at: Date.now() });
    sinks.appendItem?.(item);
  };
  const hooks = sessionHooks(store, sinks);
  const baseTools = new ToolRegistry([...builtinTools(), spawnSubagentTool, ...(opts.extraTools ?? [])]);
  // The MCP side is built after the supervisor (its forms wait through it); turns ask it
  // for tools only once they run.
  const { approvals, fanout, quota, worktrees, supervisor } = runMachinery(opts, {
    store,
    sinks,
    env,
    home,
    providerFor,
    notice,
    hooks,
    baseTools,
    mcp: () => mcp,
  });

  const alias = config.default_agent;
  const { mcp, controls: mcpApi } = mcpControls({
    manager: opts.mcp,
    store,
    config,
    notice,
    interactive: opts.interactive,
    autoYes: opts.autoYes ?? false,
    env,
    onWaiting: (runId, waiting) => supervisor.setAsking(runId, waiting),
    start: opts.startMcp !== false,
    alias,
  });

  const save = saveStatus(store, () => sinks.flush?.(), notice);
  const guard = new RunawayGuard(supervisor, config.delegation.runaway, (level, text) => notice(level, text), opts.interactive);

  const mainAgent = config.agents[alias];
  store.setState({ info: startInfo(opts, alias, mainAgent, providerFor(mainAgent).label) });
  const { rootModel, controls: modelApi } = modelControls(
    {
      store,
      config,
      mainAgent,
      providers,
      autoDetectedFrom: opts.autoDetectedFrom,
      projectContext: opts.projectContext,
      projectTrust: opts.projectTrust,
      recordModel: (selection) => sinks.recordModel?.(selection),
    },
    opts.rootModel,
  );

  const rootTurns = new RootTurns({
    store,
    config,
    supervisor,
    rootModel,
    mcp,
    baseTools,
    history,
    hooks,
    alias,
    sessionKey: () => `session-${store.getState().sessionId}`,
    notice,
    trace: (event) => sinks.trace?.(event),
    appendRun: (run) => sinks.appendRun?.(run),
    flush: save.flush,
  });

  return {
    store,
    worktrees: worktreeApi(supervisor, supervisor.places, worktrees),
    supervisor,
    config,
    history,
    reportSaveError: save.report,
    startTurn: (text) => rootTurns.start(text),
    answerApproval(approvalId: string, answer: ApprovalAnswer) {
      approvals.answer(approvalId, answer);
    },
    answerFanout(fanoutId: string, count: number) {
      fanout.answer(fanoutId, count);
    },
    ...operatorControls(store, supervisor, guard, notice),
    ...sessionControls({
      store,
      supervisor,
      history,
      home,
      env,
      flush: save.flush,
      startNewSession: () => sinks.startNewSession?.(),
    }),
    ...modelApi,
    ...mcpApi,
    ...sessionEnd({ store, supervisor, guard, quota, mcp, flush: save.flush, markEnded: () => (ended = true) }),
  };
}
