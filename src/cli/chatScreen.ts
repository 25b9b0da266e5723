// The interactive chat: Ink's screen over a runtime, and the next screen when /resume picks
// another session. Loaded by cli/main.ts for `arbor` without -p.
import { existsSync } from 'node:fs';
import { homeDir } from '../config/paths.js';
import { agentDefinitions } from '../config/agentList.js';
import type { LoadedConfig } from '../config/types.js';
import { t } from '../i18n/index.js';
import { sessionPath } from '../persistence/sessionFormat.js';
import { listSessions, restoreSession, type RestoredSession } from '../persistence/sessionRestore.js';
import { writeState } from '../persistence/stateFile.js';
import type { ModelSelection } from '../runtime/rootModel.js';
import { neutralize } from '../text/untrusted.js';
import { disableTerminalMode, enableTerminalMode } from '../ui/terminalRestore.js';
import { markBackgroundLost } from './backgroundExit.js';
import { startIdleCollector } from './idleCollector.js';
import { chatTrust } from './projectTrust.js';
import type { OpenChat } from './openChat.js';

/** The chat's screen and slash commands: loaded only for the chat, so headless runs never
 * pay for Ink. */
async function loadChatUi() {
  const [
    { renderApp },
    { CLEAR_SCREEN },
    { registerTranscriptCards },
    { viewerCommands, viewerKeyBindings },
    { agentsCommands, agentsKeyBindings },
    { KeyTable },
    { keysCommand },
    { contextCommand },
    { mcpCommand },
    { trustCommand: trustSlashCommand },
    { diffCommand },
    { worktreesCommand, leftoverNotices },
  ] = await Promise.all([
    import('../ui/renderApp.js'),
    import('../ui/hooks/useChatScreen.js'),
    import('../ui/cards/register.js'),
    import('../ui/viewer/register.js'),
    import('../ui/agents/register.js'),
    import('../ui/keys/keyTable.js'),
    import('../ui/commands/keys.js'),
    import('../ui/commands/context.js'),
    import('../ui/commands/mcp.js'),
    import('../ui/commands/trust.js'),
    import('../ui/commands/diff.js'),
    import('../ui/commands/worktrees.js'),
  ]);
  return {
    renderApp,
    CLEAR_SCREEN,
    registerTranscriptCards,
    viewerCommands,
    viewerKeyBindings,
    agentsCommands,
    agentsKeyBindings,
    KeyTable,
    keysCommand,
    contextCommand,
    mcpCommand,
    trustSlashCommand,
    diffCommand,
    worktreesCommand,
    leftoverNotices,
  };
}

type ChatUi = Awaited<ReturnType<typeof loadChatUi>>;

export interface ChatScreenOptions {
  loaded: LoadedConfig;
  home: string;
  /** The session to continue (-c, --resume); absent: a new one. */
  restored: RestoredSession | undefined;
  /** Shown in the first chat (the ARBOR_HOME permissions it tightened). */
  privacyNotice: string | undefined;
  /** --model: for the first chat only; a /resume'd session keeps its own. */
  launchModel: ModelSelection | undefined;
  /** A runtime recording into the session (cli/main.ts openChat). */
  open(restored: RestoredSession | undefined, notice: string | undefined, launchModel: ModelSelection | undefined): OpenChat;
}

/** The chat screen, and the next one when /resume leaves it for another session. */
export async function runChatScreen(opts: ChatScreenOptions): Promise<void> {
  const { loaded, home } = opts;
  const ui = await loadChatUi();
  // Bracketed paste for the chat's lifetime (a paste arrives whole: its line breaks and
  // Ctrl+C are text). Off again below; on signals restoreTerminal (shutdown.ts) turns it
  // off; a crash or any other process.exit still passes the 'exit' hook.
  if (process.stdout.isTTY) {
    enableTerminalMode('bracketedPaste');
    process.once('exit', () => disableTerminalMode('bracketedPaste'));
  }
  const keyTable = new ui.KeyTable(loaded.config.keys);
  let restored = opts.restored;
  let launchModel = opts.launchModel;
  // /resume leaves this chat for another session: the loop opens that one in its place.
  let notice = opts.privacyNotice;
  for (;;) {
    // --model applies to the session it started; a /resume'd one keeps its own.
    const chat = opts.open(restored, notice, launchModel);
    notice = undefined;
    launchModel = undefined;
    const resumeNext = await showChat(ui, chat, loaded, home, keyTable);
    if (resumeNext !== undefined) {
      try {
        restored = restoreSession(home, resumeNext);
        process.stdout.write(ui.CLEAR_SCREEN);
        continue;
      } catch (err) {
        process.stderr.write(`${t('cli:resumeFailed', { message: neutralize((err as Error).message) })}\n`);
        process.exitCode = 1;
      }
    }
    disableTerminalMode('bracketedPaste');
    if (chat.recorder.written) process.stdout.write(`${t('cli:resumeHint', { id: chat.recorder.id })}\n`);
    break;
  }
  // Children may hold sockets or timers; the chat has ended, so the process should too.
  process.exit(process.exitCode ?? 0);
}

/** One chat on screen until the user quits or picks another session (its id is returned). */
async function showChat(
  ui: ChatUi,
  chat: OpenChat,
  loaded: LoadedConfig,
  home: string,
  keyTable: InstanceType<ChatUi['KeyTable']>,
): Promise<string | undefined> {
  const { runtime, recorder } = chat;
  const agentsOpts = {
    archiveAfterMinutes: loaded.config.delegation.archive_after_minutes,
    definitions: agentDefinitions(loaded),
  };
  ui.registerTranscriptCards();
  const stopIdleCollector = startIdleCollector(runtime.store);
  let resumeNext: string | undefined;
  const app = ui.renderApp({
    runtime,
    sessions: {
      list: () => listSessions(home, 50),
      get currentId() {
        return recorder.id;
      },
      home: homeDir(),
      isSaved: (id) => existsSync(sessionPath(home, id)),
      resume: (id) => {
        resumeNext = id;
        app.unmount();
      },
    },
    onExit: () => app.unmount(),
    initialNotices: [...chat.warnings, ...ui.leftoverNotices(runtime)],
    commands: [
      ui.keysCommand,
      ui.contextCommand,
      ui.mcpCommand,
      ui.diffCommand,
      ui.worktreesCommand,
      ui.trustSlashCommand(chatTrust({ cwd: process.cwd(), env: process.env, home, applied: loaded.projectTrust })),
      ...ui.viewerCommands(),
      ...ui.agentsCommands(agentsOpts),
    ],
    keyBindings: [...ui.viewerKeyBindings(), ...ui.agentsKeyBindings(agentsOpts)],
    keyTable,
    saveLanguage: (lang) => writeState(home, { language: lang }),
  });
  chat.ui.close = () => app.unmount();
  // Ink drew the first frame synchronously inside renderApp: the servers start now, in the
  // background, and never compete with the prompt's first appearance.
  setImmediate(() => runtime.startMcp());
  await app.waitUntilExit();
  if (chat.signals.pending) await chat.signals.pending;
  // The user was asked and quit anyway (or is leaving for another session).
  markBackgroundLost(runtime, home);
  stopIdleCollector();
  await chat.cleanup();
  return resumeNext;
}
