// The chat's key bindings. Each binding names a command of the key table (keyTable.ts),
// which says which keys trigger it; the first binding that handles a key wins. Later
// features add theirs (Ctrl+O, Ctrl+T) to the list the App is given. /help lists every
// binding's `help` lines, with the keys taken from the table.
import { QUIT_PANE_ID } from '../quit/paneId.js';
import type { KeyCommand } from '../../config/keySpec.js';
import { t, type TranslationKey } from '../../i18n/index.js';
import type { KeyBindingInfo } from '../commands/registry.js';
import type { ApprovalUi } from '../approval/view.js';
import type { UiContext } from '../uiContext.js';
import type { KeyTable } from './keyTable.js';
import type { KeyPress } from './tokenizer.js';

/** Two Ctrl+C presses closer than this quit. */
export const QUIT_WINDOW_MS = 2000;

export interface InputActions {
  historyPrev(): void;
  historyNext(): void;
  lineUp(): boolean;
  lineDown(): boolean;
  moveSuggestion(delta: number): void;
  complete(): boolean;
  clear(): void;
  /** Replaces the whole line, cursor at the end. */
  set(value: string): void;
}

/** The message queued while a turn runs (hooks/useTypeAhead.ts). */
export interface QueuedMessage {
  take(): string | undefined;
}

/** What the key bindings remember between keys (a ref of the chat's key hook). */
export interface KeyMemory {
  /** When Ctrl+C was last pressed: a second press within QUIT_WINDOW_MS quits. */
  lastCtrlC?: number;
  /** The ask last answered, so a key repeated before its prompt goes away answers once. */
  answeredApproval?: string;
  answeredFanout?: string;
  answeredElicitation?: string;
  /** The fan-out count being typed: digits closer together than a second make one number. */
  fanoutDigit?: { id: string; at: number; text: string };
}

/** What a key binding may do: everything an action may (UiContext), plus the line editor,
 * the approval prompt and the flash line, as of this key. */
export interface KeyContext extends UiContext {
  keys: KeyTable;
  approvalPending: boolean;
  paneOpen: boolean;
  inputValue: string;
  suggestionsVisible: boolean;
  input: InputActions;
  approvalUi: ApprovalUi;
  flash(text: string): void;
  clearFlash(): void;
  /** Id of the pane open now (as of the last key, not the last frame or effect). */
  openPaneId(): string | undefined;
  redraw(): void;
  now(): number;
  /** Survives renders and keys. */
  memory: KeyMemory;
  /** Type-ahead: ↑ on an empty line takes it back, an interrupt returns it unsent. */
  typeAhead?: QueuedMessage;
}

/** Interrupting the turn a queued message waited for: the message goes back into the
 * line, unsent (the user stopped the work it was to follow), before anything it typed since. */
function interruptTurn(ctx: KeyContext): void {
  const queued = ctx.typeAhead?.take();
  if (queued !== undefined) {
    ctx.input.set(ctx.inputValue ? `${queued}\n${ctx.inputValue}` : queued);
    ctx.flash(t('ui:input.queuedBack'));
  }
  ctx.runtime.interrupt();
}

/** A /help line: the commands whose keys it shows, and what they do (an i18n key). */
export interface HelpEntry {
  commands: KeyCommand[];
  summary: TranslationKey;
}

export interface KeyBinding {
  id: string;
  /** The command whose keys trigger this binding (or `match`, for several). */
  command?: KeyCommand;
  match?(k: KeyPress, keys: KeyTable): boolean;
  /** Return false to let later bindings see the key. */
  run(ctx: KeyContext, k: KeyPress): boolean | void;
  /** Still active while a pane owns the keyboard. */
  global?: boolean;
  help: HelpEntry[];
}

export function bindingMatches(b: KeyBinding, k: KeyPress, keys: KeyTable): boolean {
  if (b.match) return b.match(k, keys);
  return b.command !== undefined && keys.is(b.command, k);
}

const interrupt: KeyBinding = {
  id: 'interrupt',
  command: 'chat.interrupt',
  run(ctx) {
    if (ctx.approvalPending || !ctx.isTurnRunning()) return false;
    interruptTurn(ctx);
  },
  help: [{ commands: ['chat.interrupt'], summary: 'ui:keys.summaries.interrupt' }],
};

const ctrlC: KeyBinding = {
  id: 'ctrl-c',
  command: 'chat.cancel',
  global: true,
  run(ctx) {
    // Asked whether to quit with background tasks running: this press quits anyway.
    if (ctx.openPaneId() === QUIT_PANE_ID) {
      ctx.exit();
      return;
    }
    if (ctx.isTurnRunning()) {
      ctx.memory.lastCtrlC = undefined;
      interruptTurn(ctx);
      return;
    }
    const last = ctx.memory.lastCtrlC;
    const now = ctx.now();
    if (last !== undefined && now - last <= QUIT_WINDOW_MS) {
      ctx.memory.lastCtrlC = undefined;
      // The last frame must not still ask for the press that just came.
      ctx.clearFlash();
      ctx.exit();
      return;
    }
    ctx.memory.lastCtrlC = now;
    if (ctx.inputValue && !ctx.paneOpen) ctx.input.clear();
    ctx.flash(t('ui:keys.quitAgain', { keys: ctx.keys.label('chat.cancel') }));
  },
  help: [{ commands: ['chat.cancel'], summary: 'ui:keys.summaries.ctrlC' }],
};

const quit: KeyBinding = {
  id: 'quit',
  command: 'chat.quit',
  run(ctx) {
    // On a non-empty line the same key deletes forward (the line editor's turn).
    if (ctx.inputValue !== '' || ctx.approvalPending) return false;
    ctx.exit();
  },
  help: [{ commands: ['chat.quit'], summary: 'ui:keys.summaries.quitEmpty' }],
};

const redraw: KeyBinding = {
  id: 'redraw',
  command: 'chat.redraw',
  run(ctx) {
    ctx.redraw();
  },
  help: [],
};

// ↑/↓ move through / suggestions while they show; inside a multi-line message they move
// between its lines; otherwise (and from its first / last line) through sent messages.
const arrows: KeyBinding = {
  id: 'history',
  match: (k, keys) => keys.is('chat.history_prev', k) || keys.is('chat.history_next', k),
  run(ctx, k) {
    if (ctx.approvalPending) return false;
    const up = ctx.keys.is('chat.history_prev', k);
    if (ctx.suggestionsVisible) ctx.input.moveSuggestion(up ? -1 : 1);
    else if (up) {
      // A queued message comes back before history does.
      const queued = ctx.inputValue === '' ? ctx.typeAhead?.take() : undefined;
      if (queued !== undefined) ctx.input.set(queued);
      else if (!ctx.input.lineUp()) ctx.input.historyPrev();
    } else if (!ctx.input.lineDown()) ctx.input.historyNext();
  },
  help: [{ commands: ['chat.history_prev', 'chat.history_next'], summary: 'ui:keys.summaries.history' }],
};

const tab: KeyBinding = {
  id: 'complete',
  command: 'chat.complete',
  run(ctx) {
    if (ctx.approvalPending) return false;
    ctx.input.complete();
  },
  help: [{ commands: ['chat.complete'], summary: 'ui:keys.summaries.complete' }],
};

/** Keys the line editor handles itself, listed in /help. */
export const EDITOR_HELP: HelpEntry[] = [
  { commands: ['chat.send'], summary: 'ui:keys.summaries.send' },
  { commands: ['chat.newline'], summary: 'ui:keys.summaries.newline' },
];

export function defaultKeyBindings(): KeyBinding[] {
  return [interrupt, ctrlC, quit, redraw, arrows, tab];
}

/** /help's key lines, keys as the table has them now. */
export function helpLines(bindings: readonly KeyBinding[], keys: KeyTable): KeyBindingInfo[] {
  return [...EDITOR_HELP, ...bindings.flatMap((b) => b.help)].map((h) => ({ label: keys.labels(h.commands), summary: h.summary }));
}
