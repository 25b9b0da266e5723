// Entry point: parse argv, load config, then run headless (-p) or the Ink chat.
import { join } from 'node:path';
import { loadConfig } from '../config/load.js';
import { arborHome, homeDir } from '../config/paths.js';
import { formatConfigError } from '../config/errors.js';
import { writeStarterConfig } from '../config/starter.js';
import { AgentTemplateError, writeAgentTemplate } from '../config/agentTemplate.js';
import { RootAgentError, withRootAgent } from '../config/rootAgent.js';
import type { LoadedConfig } from '../config/types.js';
import { ConfigError } from '../config/configError.js';
import { initI18n, t } from '../i18n/index.js';
import { packageVersion } from '../i18n/packageRoot.js';
import { summarizeTightened, tightenArborHome } from '../persistence/privateFs.js';
import { registerSecret } from '../persistence/redact.js';
import { assertHomeWritable } from '../persistence/homeAccess.js';
import { listSessions, restoreSession, type RestoredSession } from '../persistence/sessionRestore.js';
import { readState } from '../persistence/stateFile.js';
import { neutralize } from '../text/untrusted.js';
import { killAllToolProcesses } from '../tools/processReaper.js';
import { runMcpAuthCommand } from './mcpLogin.js';
import { parseCli, UsageError, type CliCommand } from './args.js';
import { guardProcessOutput } from './closedOutput.js';
import { runHeadless } from './headless.js';
import { chooseSession, type SessionChoice } from './sessionChoice.js';
import { runChatScreen } from './chatScreen.js';
import { openChat } from './openChat.js';
import { parseLaunchModel } from './launchModel.js';
import type { ModelSelection } from '../runtime/rootModel.js';
import { agentCreatedMessage } from './agentsNewMessage.js';
import { decideProjectTrust, doctorTrust, runTrustCommand, withTrust } from './projectTrust.js';

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function tightenHomeNotice(home: string): string | undefined {
  const { paths } = tightenArborHome(home);
  return paths.length ? t('cli:permissionsTightened', { home, what: summarizeTightened(paths, home) }) : undefined;
}

/** A bad argument: one line on stderr, exit code 2. */
function usageError(message: string): void {
  process.stderr.write(`${t('cli:usageErrorPrefix', { message })}\n`);
  process.exitCode = 2;
}

type Command<K extends CliCommand['kind']> = Extract<CliCommand, { kind: K }>;

/** What each command does once `parseCli` has read it: one entry per `CliCommand` kind. Each
 * sets `process.exitCode` (0 unless it says otherwise) and writes its own messages. */
const COMMANDS: { [K in CliCommand['kind']]: (cmd: Command<K>) => Promise<void> } = {
  async help() {
    process.stdout.write(`${t('cli:help', { version: packageVersion() })}\n`);
  },
  async version() {
    process.stdout.write(`${t('doctor:version', { version: packageVersion(), node: process.version })}\n`);
  },
  async doctor(cmd) {
    const { runDoctor } = await import('./doctor/runDoctor.js');
    // The doctor sends each provider a request: a folder's providers only once it is trusted.
    const trust = await doctorTrust(process.cwd(), process.env, arborHome());
    process.exitCode = await runDoctor({
      configPath: cmd.configPath,
      out: process.stdout,
      project: trust.layers,
      projectNotices: trust.notices,
      json: cmd.json,
    });
  },
  async agentsNew(cmd) {
    try {
      const path = writeAgentTemplate(process.cwd(), cmd.name);
      process.stdout.write(`${agentCreatedMessage(process.cwd(), cmd.name, path)}\n`);
    } catch (err) {
      if (!(err instanceof AgentTemplateError)) throw err;
      usageError(neutralize(err.message));
    }
  },
  async init(cmd) {
    const privacyNotice = tightenHomeNotice(arborHome());
    if (privacyNotice) process.stderr.write(`${privacyNotice}\n`);
    const path = cmd.configPath ?? join(arborHome(), 'config.toml');
    const res = writeStarterConfig(path);
    process.stdout.write(`${t(res.created ? 'cli:initCreated' : 'cli:initExists', { path: res.path })}\n`);
  },
  async trust(cmd) {
    const privacyNotice = tightenHomeNotice(arborHome());
    if (privacyNotice) process.stderr.write(`${privacyNotice}\n`);
    process.exitCode = runTrustCommand({ ...cmd, cwd: process.cwd(), env: process.env, home: arborHome() });
  },
  async mcpAuth(cmd) {
    tightenHomeNotice(arborHome());
    const loaded = await loadForCommand(cmd);
    if (!loaded) return;
    initI18n(readState(arborHome()).language ?? loaded.config.ui.language);
    process.exitCode = await runMcpAuthCommand(loaded, cmd.action, cmd.name);
  },
  async chat(cmd) {
    // Before anything is written: state an older arbor (or a loose umask) left readable by
    // others is made private, and the user is told what changed.
    const privacyNotice = tightenHomeNotice(arborHome());
    const loaded = await loadForCommand(cmd);
    if (loaded) await runChatCommand(cmd, loaded, privacyNotice);
  },
};

export async function main(argv: string[]): Promise<void> {
  // A pipe closed by its reader (| head -1) ends the output, never the turn (closedOutput.ts).
  guardProcessOutput();
  initI18n();
  // `arbor export` reads its own arguments (exportCommand.ts).
  if (argv[0] === 'export') {
    const { runExport } = await import('./exportCommand.js');
    process.exitCode = await runExport(argv.slice(1));
    return;
  }
  let cmd: CliCommand;
  try {
    cmd = parseCli(argv);
  } catch (err) {
    if (err instanceof UsageError) {
      usageError(err.message);
      return;
    }
    throw err;
  }
  await (COMMANDS[cmd.kind] as (cmd: CliCommand) => Promise<void>)(cmd);
}

/** The config a command runs with, after the folder's trust is decided (a prompt in the
 * chat, before Ink mounts the app; headless and `arbor mcp` only when trusted or
 * --trust-project); undefined when the user quit or the config is wrong (said on stderr,
 * exit code 2). */
async function loadForCommand(cmd: Command<'chat' | 'mcpAuth'>): Promise<LoadedConfig | undefined> {
  try {
    const chatCmd = cmd.kind === 'chat' ? cmd : undefined;
    const asking = chatCmd !== undefined && chatCmd.print === undefined && !chatCmd.acp && process.stdin.isTTY === true;
    const trust = await decideProjectTrust({
      cwd: process.cwd(),
      env: process.env,
      home: arborHome(),
      trustFlag: chatCmd?.trustProject === true,
      ...(asking ? { ask: askTrustScreen } : {}),
    });
    if (trust.quit) return undefined;
    let loaded = loadConfig({ cwd: process.cwd(), env: process.env, explicitPath: cmd.configPath, project: trust.layers });
    loaded = withTrust(loaded, trust);
    if (chatCmd?.agent !== undefined) loaded = withRootAgent(loaded, chatCmd.agent);
    return loaded;
  } catch (err) {
    if (err instanceof RootAgentError) {
      usageError(neutralize(err.message));
      return undefined;
    }
    if (err instanceof ConfigError) {
      process.stderr.write(`${t('cli:configErrorPrefix', { message: neutralize(formatConfigError(err)) })}\n`);
      process.exitCode = 2;
      return undefined;
    }
    throw err;
  }
}

/** `arbor` and `arbor -p`, `arbor acp`: the language and secrets from the config, --model,
 * then the session to open (new, -c, --resume) for the chat or the headless turn. */
async function runChatCommand(cmd: Command<'chat'>, loaded: LoadedConfig, privacyNotice: string | undefined): Promise<void> {
  const home = arborHome();
  // /lang's saved choice is the user's latest word on it: it wins over ui.language and LANG.
  initI18n(readState(home).language ?? loaded.config.ui.language);
  // Keys named by api_key_env are secrets whatever the variable is called: session and
  // trace files scrub them (names ending in _KEY, _TOKEN or _SECRET are scrubbed anyway).
  for (const provider of Object.values(loaded.config.providers)) {
    if (provider.api_key_env) registerSecret(process.env[provider.api_key_env]);
  }
  // --model names a configured provider (and maybe another model on it), or nothing starts.
  let launchModel: ModelSelection | undefined;
  try {
    launchModel = cmd.model !== undefined ? parseLaunchModel(cmd.model, loaded.config) : undefined;
  } catch (err) {
    usageError(neutralize((err as Error).message));
    return;
  }
  if (cmd.acp) {
    process.exitCode = await runAcp(loaded, home, cmd, privacyNotice, launchModel);
    return;
  }
  const headless = cmd.print !== undefined;
  if (!headless && !process.stdin.isTTY) {
    process.stderr.write(`${t('cli:notATty')}\n`);
    process.exitCode = 2;
    return;
  }
  try {
    assertHomeWritable(home);
  } catch (err) {
    process.stderr.write(`${t('cli:usageErrorPrefix', { message: (err as Error).message })}\n`);
    process.exitCode = 1;
    return;
  }

  let choice: SessionChoice;
  try {
    choice = await chooseSession(cmd, home, process.cwd(), headless ? undefined : (h) => pickSessionScreen(h));
  } catch (err) {
    process.stderr.write(`${t('cli:resumeFailed', { message: neutralize((err as Error).message) })}\n`);
    // A --resume id or prefix that names no session (or several) is a usage error, like any
    // bad argument; -c with nothing to continue in this directory stays a failure (1).
    process.exitCode = cmd.continueLast ? 1 : 2;
    return;
  }
  if (choice.kind === 'cancelled') {
    process.stdout.write(`${t('cli:pickerCancelled')}\n`);
    return;
  }
  const restored = choice.kind === 'restore' ? choice.session : undefined;
  if (headless) await runPrintTurn(loaded, home, cmd, restored, privacyNotice, launchModel);
  else
    await runChatScreen({
      loaded,
      home,
      restored,
      privacyNotice,
      launchModel,
      open: (session, notice, model) => openChat(loaded, home, cmd, session, false, notice, model),
    });
}

/** `arbor -p`: one turn, no UI; the exit code is the turn's (headless.ts). */
async function runPrintTurn(
  loaded: LoadedConfig,
  home: string,
  cmd: Command<'chat'>,
  restored: RestoredSession | undefined,
  privacyNotice: string | undefined,
  launchModel: ModelSelection | undefined,
): Promise<void> {
  const chat = openChat(loaded, home, cmd, restored, true, privacyNotice, launchModel);
  const { runtime, warnings } = chat;
  for (const w of warnings) process.stderr.write(`${t('cli:warning', { message: w })}\n`);
  let prompt = cmd.print!;
  if (prompt === '-') {
    prompt = (await readStdin()).trim();
    if (!prompt) {
      usageError(t('cli:stdinEmpty'));
      await chat.cleanup();
      return;
    }
  }
  const code = await runHeadless(runtime, prompt, { output: cmd.output, raw: cmd.raw, stdout: process.stdout, stderr: process.stderr });
  // A signal ended the turn: the shutdown owns the exit from here.
  if (chat.signals.pending) await chat.signals.pending;
  await chat.cleanup();
  process.exitCode = code;
}

/** `arbor acp`: each ACP session opens a runtime as the chat does (approvals asked, through
 * the protocol); stdout is the protocol's alone. */
async function runAcp(
  loaded: LoadedConfig,
  home: string,
  cmd: Extract<CliCommand, { kind: 'chat' }>,
  privacyNotice: string | undefined,
  launchModel: ModelSelection | undefined,
): Promise<number> {
  const { serveAcp, protocolStdout, protocolStdin } = await import('../acp/server/serve.js');
  const { ndJsonStream } = await import('@agentclientprotocol/sdk/unstable');
  const stream = ndJsonStream(protocolStdout(), protocolStdin());
  const log = (line: string) => void process.stderr.write(`${line}\n`);
  let notice = privacyNotice;
  await serveAcp(
    {
      cwd: process.cwd(),
      version: packageVersion(),
      log,
      open: (restoreId) => {
        const restored = restoreId !== undefined ? restoreSession(home, restoreId) : undefined;
        const chat = openChat(loaded, home, cmd, restored, false, notice, restored ? undefined : launchModel);
        notice = undefined;
        for (const w of chat.warnings) log(t('cli:warning', { message: w }));
        return { runtime: chat.runtime, sessionId: chat.recorder.id, cleanup: () => chat.cleanup() };
      },
    },
    stream,
  );
  killAllToolProcesses();
  return 0;
}

/** The trust prompt, before the chat (and anything of the folder's) starts. */
async function askTrustScreen(folder: string, lines: string[]): Promise<'trust' | 'skip' | 'quit'> {
  const { askTrust } = await import('../ui/trust/askTrust.js');
  return askTrust(folder, lines);
}

/** The session picker for `--resume` with no id, before the chat starts. */
async function pickSessionScreen(home: string): Promise<string | undefined> {
  const { pickSession } = await import('../ui/pickers/pickSession.js');
  return pickSession(listSessions(home, 50), homeDir());
}
