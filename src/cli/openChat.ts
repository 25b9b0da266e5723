// A runtime for one chat (the TUI, -p, or an ACP session): the session recorder and trace
// log it writes through, its start-up warnings, --model or the restored session's model,
// save-failure reporting, and the signal shutdown that stops runs, saves and exits.
import type { LoadedConfig } from '../config/types.js';
import { loadProjectContext } from '../config/projectContext.js';
import { t } from '../i18n/index.js';
import type { SessionTotals } from '../model/controls.js';
import type { RestoredSession } from '../persistence/sessionRestore.js';
import { TraceLog } from '../persistence/traceLog.js';
import { providerLabel } from '../providers/label.js';
import { selectionConfig, selectionSpec, type ModelSelection } from '../runtime/rootModel.js';
import { createRuntime, type Runtime } from '../runtime/runtime.js';
import { neutralize } from '../text/untrusted.js';
import { createMcpManager } from '../tools/mcpTools.js';
import { killAllToolProcesses } from '../tools/processReaper.js';
import type { CliCommand } from './args.js';
import { extraServicesFor, extraToolsFor } from './extraTools.js';
import { restoredModel } from './launchModel.js';
import { resumeNotices } from './sessionChoice.js';
import { SessionRecorder } from './sessionRecorder.js';
import { installSignalShutdown } from './shutdown.js';

/** A runtime recording into a new or a restored session, with its signal handling. */
export interface OpenChat {
  runtime: Runtime;
  recorder: SessionRecorder;
  /** Config and resume warnings, shown once at start (neutralised: they quote files). */
  warnings: string[];
  /** SIGTERM / SIGHUP / SIGINT handling for this chat; `pending` once a signal came. */
  signals: ReturnType<typeof installSignalShutdown>;
  /** Set by the chat screen: how a signal closes it. */
  ui: { close?: () => void };
  cleanup(): Promise<void>;
}

/** The session file's writer; its header names the model the root starts on: --model's,
 * else the agent's own. */
function recorderFor(
  loaded: LoadedConfig,
  home: string,
  restored: RestoredSession | undefined,
  headless: boolean,
  launchModel: ModelSelection | undefined,
): SessionRecorder {
  const agent = loaded.config.agents[loaded.config.default_agent];
  const providerConfig = loaded.config.providers[agent.provider];
  const startLabel = launchModel
    ? providerLabel(selectionConfig(loaded.config, launchModel))
    : providerLabel({ ...providerConfig, model: agent.model ?? providerConfig.model });
  return new SessionRecorder(
    home,
    {
      agentAlias: agent.alias,
      providerLabel: startLabel,
      cwd: process.cwd(),
      ...(headless ? { headless: true } : {}),
    },
    restored,
  );
}

/** Closes the session (with its totals) and the trace log; a session that cannot be
 * written any more says how many events were lost, on stderr. */
function logCloser(recorder: SessionRecorder, trace: TraceLog, totals: () => SessionTotals) {
  return () => {
    const pending = recorder.pendingEvents;
    try {
      recorder.close(totals());
    } catch (err) {
      const message = t('persistence:log.lostAtExit', { error: (err as Error).message, count: pending });
      process.stderr.write(`${t('cli:warning', { message })}\n`);
    }
    trace.close();
  };
}

/** A runtime recording into a new or a restored session. */
export function openChat(
  loaded: LoadedConfig,
  home: string,
  cmd: Extract<CliCommand, { kind: 'chat' }>,
  restored: RestoredSession | undefined,
  headless: boolean,
  privacyNotice: string | undefined,
  launchModel: ModelSelection | undefined,
): OpenChat {
  const recorder = recorderFor(loaded, home, restored, headless, launchModel);
  const trace = new TraceLog(home);
  // Marks background tasks of dead arbors lost before the resume notices look for them.
  const extraServices = extraServicesFor(loaded.config, home);
  // AGENTS.md from here up to the repository root, and $ARBOR_HOME's, read once per chat.
  const projectContext = loadProjectContext({ cwd: process.cwd(), home, maxKb: loaded.config.context?.max_kb });
  const fromSession = launchModel ? {} : restoredModel(loaded.config, restored);
  // Warnings quote config values and file contents: shown neutralised (text/untrusted.ts).
  const warnings = [
    ...(privacyNotice ? [privacyNotice] : []),
    ...loaded.warnings,
    ...projectContext.warnings,
    ...(restored ? resumeNotices(restored, home) : []),
    ...(fromSession.notice ? [fromSession.notice] : []),
  ].map(neutralize);
  let runtime: Runtime | undefined;
  const zero = { tokensIn: 0, tokensOut: 0, costUsd: 0 };
  const totals = () => runtime?.store.getState().totals ?? zero;
  runtime = createRuntime({
    config: loaded.config,
    cwd: process.cwd(),
    sessionId: recorder.id,
    interactive: !headless,
    autoYes: cmd.yes,
    waitOnQuota: !headless || (cmd.waitOnQuota ?? false),
    autoDetectedFrom: loaded.autoDetectedFrom,
    configWarnings: warnings,
    restored: restored ? { items: restored.items, messages: restored.messages, totals: restored.totals, runs: restored.runs } : undefined,
    extraTools: extraToolsFor(loaded.config, home),
    extraServices,
    // Started in the background by the runtime: the chat is usable before they are up.
    mcp: createMcpManager(loaded.config, process.cwd()),
    // The chat starts them once its first frame is out (cli/chatScreen.ts), headless at once.
    startMcp: headless,
    arborHome: home,
    sinks: recorder.sinks(totals, trace),
    projectContext,
    rootModel: fromSession.selection,
    ...(loaded.projectTrust ? { projectTrust: loaded.projectTrust } : {}),
  });
  const rt = runtime;
  // --model is a switch like /model: recorded, so --resume comes back to it.
  if (launchModel) rt.setModel(selectionSpec(launchModel));
  else if (fromSession.selection) recorder.adoptModel(fromSession.selection, restored?.valid === true);
  // Saving runs behind the chat: a failing disk is reported (status bar, a notice, stderr
  // headless) and retried on the next write; it never ends a turn or hides an answer.
  recorder.onSaveStatus((err) => rt.reportSaveError(err?.message));
  const closeLogs = logCloser(recorder, trace, totals);
  // SIGTERM / SIGHUP / SIGINT: stop every run, save, restore the terminal, exit 128+n.
  const ui: { close?: () => void } = {};
  const signals = installSignalShutdown({
    runtime: rt,
    flush: closeLogs,
    closeUi: () => ui.close?.(),
    // Whatever a tool started that is still alive after the runs' own aborts: its process
    // group and every descendant that left it (setsid, double forks).
    reapToolProcesses: () => void killAllToolProcesses(),
  });
  return {
    runtime: rt,
    recorder,
    warnings,
    signals,
    ui,
    async cleanup() {
      await rt.dispose();
      closeLogs();
      signals.uninstall();
    },
  };
}
