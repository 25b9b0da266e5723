// Entry point: parse argv, load config, then run headless (-p) or the Ink chat.
import { join } from 'node:path';
import { loadConfig } from '../config/load.js';
import { arborHome } from '../config/paths.js';
import { formatConfigError } from '../config/errors.js';
import { writeStarterConfig } from '../config/starter.js';
import { ConfigError, type LoadedConfig } from '../config/types.js';
import { initI18n, t } from '../i18n/index.js';
import { packageVersion } from '../i18n/packageRoot.js';
import { registerSecret } from '../persistence/redact.js';
import { SessionLog } from '../persistence/sessionLog.js';
import { listSessions, restoreSession } from '../persistence/sessionRestore.js';
import { TraceLog } from '../persistence/traceLog.js';
import { createRuntime, type Runtime } from '../runtime/runtime.js';
import { startIdleCollector } from './idleCollector.js';
import { setTerminalModes } from './terminalModes.js';
import { parseCli, UsageError, type CliCommand } from './args.js';
import { runHeadless } from './headless.js';
import { extraServicesFor, extraToolsFor } from './extraTools.js';

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
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
  if (cmd.kind === 'init') {
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
      process.stderr.write(`${t('cli:configErrorPrefix', { message: formatConfigError(err) })}\n`);
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
      process.stderr.write(`${t('cli:resumeFailed', { message: (err as Error).message })}\n`);
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
  const warnings = [...loaded.warnings, ...(restored?.warnings ?? [])];

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

  const cleanup = async () => {
    await runtime.dispose();
    log.flush();
    log.close();
    trace.close();
  };

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
    const code = await runHeadless(runtime, prompt, { output: cmd.output, stdout: process.stdout, stderr: process.stderr });
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
  // Bracketed paste for the chat's lifetime; off again below, and on process exit whatever
  // the path (the shutdown on signals calls setTerminalModes(false) too).
  setTerminalModes(true);
  const app = renderApp({
    runtime,
    sessions: { list: () => listSessions(home), currentId: log.id },
    onExit: () => app.unmount(),
    initialNotices: warnings,
    commands: [keysCommand, ...viewerCommands(), ...agentsCommands(agentsOpts)],
    keyBindings: [...viewerKeyBindings(), ...agentsKeyBindings(agentsOpts)],
    keyTable: new KeyTable(loaded.config.keys),
  });
  await app.waitUntilExit();
  setTerminalModes(false);
  stopIdleCollector();
  await cleanup();
  // Children may hold sockets or timers; the chat has ended, so the process should too.
  process.exit(process.exitCode ?? 0);
}
