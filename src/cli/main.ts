// Entry point: parse argv, load config, then run headless (-p) or the Ink chat.
import { join } from 'node:path';
import { loadConfig } from '../config/load.js';
import { arborHome } from '../config/paths.js';
import { formatConfigError } from '../config/errors.js';
import { writeStarterConfig } from '../config/starter.js';
import { ConfigError, type LoadedConfig } from '../config/types.js';
import { initI18n, t } from '../i18n/index.js';
import { packageVersion } from '../i18n/packageRoot.js';
import { summarizeTightened, tightenArborHome } from '../persistence/privateFs.js';
import { registerSecret } from '../persistence/redact.js';
import { SessionLog } from '../persistence/sessionLog.js';
import { listSessions, restoreSession } from '../persistence/sessionRestore.js';
import { TraceLog } from '../persistence/traceLog.js';
import { createRuntime, type Runtime } from '../runtime/runtime.js';
import { neutralize } from '../text/untrusted.js';
import { startIdleCollector } from './idleCollector.js';
import { disableTerminalMode, enableTerminalMode } from '../ui/terminalRestore.js';
import { parseCli, UsageError, type CliCommand } from './args.js';
import { runHeadless } from './headless.js';
import { killAllToolProcesses } from '../tools/processReaper.js';
import { installSignalShutdown } from './shutdown.js';
import { extraServicesFor, extraToolsFor } from './extraTools.js';

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function tightenHomeNotice(home: string): string | undefined {
  const { paths } = tightenArborHome(home);
  return paths.length ? t('cli:permissionsTightened', { home, what: summarizeTightened(paths) }) : undefined;
}

export async function main(argv: string[]): Promise<void> {
  initI18n();
  let cmd: CliCommand;
  try {
    cmd = parseCli(argv);
  } catch (err) {
    if (err instanceof UsageError) {
      process.stderr.write(`${t('cli:usageErrorPrefix', { message: err.message })}\n`);
      process.exitCode = 2;
      return;
    }
    throw err;
  }
  if (cmd.kind === 'help') {
    process.stdout.write(`${t('cli:help', { version: packageVersion() })}\n`);
    return;
  }
  if (cmd.kind === 'version') {
    process.stdout.write(`${t('doctor:version', { version: packageVersion(), node: process.version })}\n`);
    return;
  }
  if (cmd.kind === 'doctor') {
    const { runDoctor } = await import('./doctor/runDoctor.js');
    process.exitCode = await runDoctor({ configPath: cmd.configPath, out: process.stdout });
    return;
  }
  // Before anything is written: state an older arbor (or a loose umask) left readable by
  // others is made private, and the user is told what changed.
  const privacyNotice = tightenHomeNotice(arborHome());
  if (cmd.kind === 'init') {
    if (privacyNotice) process.stderr.write(`${privacyNotice}\n`);
    const path = cmd.configPath ?? join(arborHome(), 'config.toml');
    const res = writeStarterConfig(path);
    process.stdout.write(`${t(res.created ? 'cli:initCreated' : 'cli:initExists', { path: res.path })}\n`);
    return;
  }

  let loaded: LoadedConfig;
  try {
    loaded = loadConfig({ cwd: process.cwd(), env: process.env, explicitPath: cmd.configPath });
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${t('cli:configErrorPrefix', { message: neutralize(formatConfigError(err)) })}\n`);
      process.exitCode = 2;
      return;
    }
    throw err;
  }
  initI18n(loaded.config.ui.language);
  // Keys named by api_key_env are secrets whatever the variable is called: session and
  // trace files scrub them (names ending in _KEY, _TOKEN or _SECRET are scrubbed anyway).
  for (const provider of Object.values(loaded.config.providers)) {
    if (provider.api_key_env) registerSecret(process.env[provider.api_key_env]);
  }
  const home = arborHome();
  const headless = cmd.print !== undefined;
  if (!headless && !process.stdin.isTTY) {
    process.stderr.write(`${t('cli:notATty')}\n`);
    process.exitCode = 2;
    return;
  }

  let restored: ReturnType<typeof restoreSession> | undefined;
  if (cmd.resume) {
    try {
      restored = restoreSession(home, cmd.resume.id);
    } catch (err) {
      process.stderr.write(`${t('cli:resumeFailed', { message: neutralize((err as Error).message) })}\n`);
      process.exitCode = 1;
      return;
    }
  }
  const agent = loaded.config.agents[loaded.config.default_agent];
  const providerConfig = loaded.config.providers[agent.provider];
  const log = restored
    ? SessionLog.open(home, restored.id)
    : SessionLog.create(home, { agentAlias: agent.alias, providerLabel: `${providerConfig.type}/${providerConfig.model}`, cwd: process.cwd() });
  const trace = new TraceLog(home);
  // Warnings quote config values and file contents: shown neutralised (text/untrusted.ts).
  const warnings = [...(privacyNotice ? [privacyNotice] : []), ...loaded.warnings, ...(restored?.warnings ?? [])].map(neutralize);

  const runtime: Runtime = createRuntime({
    config: loaded.config,
    cwd: process.cwd(),
    sessionId: log.id,
    interactive: !headless,
    autoYes: cmd.yes,
    autoDetectedFrom: loaded.autoDetectedFrom,
    configWarnings: warnings,
    restored: restored ? { items: restored.items, messages: restored.messages } : undefined,
    extraTools: extraToolsFor(loaded.config, home),
    extraServices: extraServicesFor(loaded.config, home),
    sinks: {
      appendItem: (item) => log.appendItem(item),
      appendMessage: (m) => log.appendMessage(m),
      appendChildItem: (runId, item) => log.appendChildItem(runId, item),
      appendRun: (run) => log.appendRun(run),
      flush: () => log.flush(),
      trace: (e) => trace.event(e),
    },
  });

  // Saving runs behind the chat: a failing disk is reported (status bar, a notice, stderr
  // headless) and retried on the next write; it never ends a turn or hides an answer.
  log.onSaveStatus((err) => runtime.reportSaveError(err?.message));

  const closeLogs = () => {
    const pending = log.pendingEvents;
    try {
      log.close();
    } catch (err) {
      const message = t('persistence:log.lostAtExit', { error: (err as Error).message, count: pending });
      process.stderr.write(`${t('cli:warning', { message })}\n`);
    }
    trace.close();
  };
  const cleanup = async () => {
    await runtime.dispose();
    closeLogs();
  };
  // SIGTERM / SIGHUP / SIGINT: stop every run, save, restore the terminal, exit 128+n.
  const ui: { close?: () => void } = {};
  const signals = installSignalShutdown({
    runtime,
    flush: closeLogs,
    closeUi: () => ui.close?.(),
    // Whatever a tool started that is still alive after the runs' own aborts: its process
    // group and every descendant that left it (setsid, double forks).
    reapToolProcesses: () => void killAllToolProcesses(),
  });

  if (headless) {
    for (const w of warnings) process.stderr.write(`${t('cli:warning', { message: w })}\n`);
    let prompt = cmd.print!;
    if (prompt === '-') {
      prompt = (await readStdin()).trim();
      if (!prompt) {
        process.stderr.write(`${t('cli:usageErrorPrefix', { message: t('cli:stdinEmpty') })}\n`);
        process.exitCode = 2;
        await cleanup();
        return;
      }
    }
    const code = await runHeadless(runtime, prompt, { output: cmd.output, raw: cmd.raw, stdout: process.stdout, stderr: process.stderr });
    // A signal ended the turn: the shutdown owns the exit from here.
    if (signals.pending) await signals.pending;
    await cleanup();
    process.exitCode = code;
    return;
  }

  // The UI loads only for the chat: headless runs never pay for Ink.
  const [{ renderApp }, { registerTranscriptCards }, { viewerCommands, viewerKeyBindings }, { agentsCommands, agentsKeyBindings }, { KeyTable }, { keysCommand }] =
    await Promise.all([
      import('../ui/renderApp.js'),
      import('../ui/cards/register.js'),
      import('../ui/viewer/register.js'),
      import('../ui/agents/register.js'),
      import('../ui/keys/keyTable.js'),
      import('../ui/commands/keys.js'),
    ]);
  registerTranscriptCards(runtime.store);
  const stopIdleCollector = startIdleCollector(runtime.store);
  const agentsOpts = { archiveAfterMinutes: loaded.config.delegation.archive_after_minutes };
  // Bracketed paste for the chat's lifetime (a paste arrives whole: its line breaks and
  // Ctrl+C are text). Off again below; on signals restoreTerminal (shutdown.ts) turns it
  // off; a crash or any other process.exit still passes the 'exit' hook.
  if (process.stdout.isTTY) {
    enableTerminalMode('bracketedPaste');
    process.once('exit', () => disableTerminalMode('bracketedPaste'));
  }
  const app = renderApp({
    runtime,
    sessions: { list: () => listSessions(home), currentId: log.id },
    onExit: () => app.unmount(),
    initialNotices: warnings,
    commands: [keysCommand, ...viewerCommands(), ...agentsCommands(agentsOpts)],
    keyBindings: [...viewerKeyBindings(), ...agentsKeyBindings(agentsOpts)],
    keyTable: new KeyTable(loaded.config.keys),
  });
  ui.close = () => app.unmount();
  await app.waitUntilExit();
  if (signals.pending) await signals.pending;
  disableTerminalMode('bracketedPaste');
  stopIdleCollector();
  await cleanup();
  // Children may hold sockets or timers; the chat has ended, so the process should too.
  process.exit(process.exitCode ?? 0);
}
