// The slash-command registry: one file per command registers a SlashCommand here; the
// input line completes from it and `runSlashLine` dispatches to it. Commands act only
// through the CommandContext (the runtime facade, local notice lines, panes).
import type { RuntimeApi } from '../../runtime/runtimeApi.js';
import type { Language, TranslationKey } from '../../i18n/index.js';
import { t } from '../../i18n/index.js';
import type { NoticeLevel } from '../theme.js';
import type { UiContext } from '../uiContext.js';
import type { KeyTable } from '../keys/keyTable.js';
import type { SessionSummary } from '../../model/session.js';

export interface SessionsSource {
  list(): SessionSummary[];
  /** The session being recorded now (it changes on /clear). */
  readonly currentId: string;
  /** The user's home directory, to show session folders as ~/... */
  home?: string;
  /** True when session `id` has a file (something was said in it). */
  isSaved?(id: string): boolean;
  /** Leaves this chat and continues the session `id` in its place (/resume). */
  resume?(id: string): void;
}

/** A key binding as /help shows it: its keys as text (from the key table) and what it
 * does (an i18n key). */
export interface KeyBindingInfo {
  label: string;
  summary: TranslationKey;
}

/** What a slash command may do: everything an action may (UiContext), plus notice lines,
 * sessions, the language and what /help and /keys list. */
export interface CommandContext extends UiContext {
  /** Adds a local notice line to the chat (UI state, not the runtime transcript). */
  print(text: string, level?: NoticeLevel): void;
  sessions: SessionsSource;
  /** Switches the UI language live. */
  setLanguage(lang: Language): void;
  /** Keeps the language for the next start; returns the file written. */
  saveLanguage?(lang: Language): string;
  /** Wipes the screen and the lines already printed to scrollback. */
  clearScreen(): void;
  commands: readonly SlashCommand[];
  keyBindings: readonly KeyBindingInfo[];
  /** The key table in force (/keys prints it). */
  keyTable?: KeyTable;
  /** Terminal width, for commands that lay out columns (/help). */
  columns?: number;
}

/** What argument completion may look at. */
export interface CompletionContext {
  runtime: RuntimeApi;
  sessions: SessionsSource;
}

export interface SlashCommand {
  /** Without the leading slash. */
  name: string;
  /** i18n key of a one-line description. */
  summary: TranslationKey;
  /** Syntax shown in /help and in bad-argument errors, e.g. "/lang en|es". */
  usage?: string;
  /** Most arguments accepted; more is a bad-arguments error. Omitted = any. */
  maxArgs?: number;
  /** Commands that would disturb a running turn (e.g. /clear) set this to false. */
  allowedWhileRunning?: boolean;
  run(args: string[], ctx: CommandContext): void | Promise<void>;
  /** Values the next argument may take, for Tab (`args` are the ones before it). */
  completeArgs?(args: string[], partial: string, ctx: CompletionContext): string[];
}

export class CommandRegistry {
  private readonly byName = new Map<string, SlashCommand>();

  constructor(commands: readonly SlashCommand[] = []) {
    for (const c of commands) this.register(c);
  }

  register(command: SlashCommand): void {
    if (!/^[a-z][a-z0-9-]*$/.test(command.name)) {
      throw new Error(`slash command name "${command.name}" must be lowercase letters, digits or "-"`);
    }
    if (this.byName.has(command.name)) throw new Error(`slash command "/${command.name}" is registered twice`);
    this.byName.set(command.name, command);
  }

  get(name: string): SlashCommand | undefined {
    return this.byName.get(name.toLowerCase());
  }

  list(): SlashCommand[] {
    return [...this.byName.values()].sort((a, b) => a.name.localeCompare(b.name));
  }

  /** Commands whose name starts with `prefix` (no slash), alphabetical. */
  complete(prefix: string): SlashCommand[] {
    const p = prefix.toLowerCase();
    return this.list().filter((c) => c.name.startsWith(p));
  }
}

export function usageOf(command: SlashCommand): string {
  return command.usage ?? `/${command.name}`;
}

/** A line is a command when it starts with one "/" and is a single line; "//" escapes. */
export function isSlashLine(line: string): boolean {
  const s = line.trimStart();
  return s.startsWith('/') && !s.startsWith('//') && !s.includes('\n');
}

/** "//text" is sent as "/text". */
export function unescapeSlash(line: string): string {
  const s = line.trimStart();
  return s.startsWith('//') ? s.slice(1) : line;
}

export function parseSlashLine(line: string): { name: string; args: string[] } {
  const parts = line.trim().slice(1).split(/\s+/).filter(Boolean);
  return { name: (parts[0] ?? '').toLowerCase(), args: parts.slice(1) };
}

/** Runs one slash line. Every failure becomes a localized error line; nothing throws. */
export async function runSlashLine(line: string, registry: CommandRegistry, ctx: CommandContext): Promise<void> {
  const { name, args } = parseSlashLine(line);
  const command = registry.get(name);
  if (!command) {
    ctx.print(t('ui:commands.unknown', { name }), 'error');
    return;
  }
  if (command.maxArgs !== undefined && args.length > command.maxArgs) {
    ctx.print(t('ui:commands.badArgs', { name, usage: usageOf(command) }), 'error');
    return;
  }
  if (command.allowedWhileRunning === false && ctx.isTurnRunning()) {
    ctx.print(t('ui:commands.notWhileRunning', { name }), 'error');
    return;
  }
  try {
    await command.run(args, ctx);
  } catch (err) {
    ctx.print(t('ui:commands.failed', { name, message: err instanceof Error ? err.message : String(err) }), 'error');
  }
}
