// The chat's key bindings. Each binding names a command of the key table (keyTable.ts),
// which says which keys trigger it; the first binding that handles a key wins. Later
// features add theirs (Ctrl+O, Ctrl+T) to the list the App is given. /help lists every
// binding's `help` lines, with the keys taken from the table.
import { QUIT_PANE_ID } from '../quit/paneId.js';
import type { RuntimeApi } from '../../runtime/runtimeApi.js';
import type { ApprovalAnswer, PendingApproval } from '../../model/controls.js';
import type { KeyCommand } from '../../config/keySpec.js';
import { t, type TranslationKey } from '../../i18n/index.js';
import type { KeyBindingInfo } from '../commands/registry.js';
import type { Pane } from '../panes/types.js';
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

/** The approval prompt's own state: the highlighted answer, how far its arguments are
 * scrolled, and which ask it shows (`focusId`: one chosen in /agents, else the oldest).
 * Kept by the App (hooks/useApprovalView.ts), changed here. */
export interface ApprovalView {
  index: number;
  scroll: number;
  focusId?: string;
  /** The prompt has the keys although a pane that holds them is open (Enter on the asking row). */
  armed?: boolean;
  /** ↑/↓ scroll the ask's diff (Tab gave it the focus) instead of moving the choice. */
  diffFocus?: boolean;
}

export interface ApprovalUi {
  get(): ApprovalView;
  set(next: ApprovalView): void;
  /** The ask the prompt shows now, from the store. */
  current(): PendingApproval | undefined;
  /** True while an open pane keeps the keys the prompt would take (the /agents pane). */
  deferred(): boolean;
  /** Shows this ask in the prompt and gives the prompt the keys. */
  focus(approvalId: string): void;
  /** Rows a PgUp/PgDn moves the ask's diff; 0 when it shows none taller than its window. */
  diffPage(): number;
}

export interface KeyContext {
  runtime: RuntimeApi;
  keys: KeyTable;
  turnRunning: boolean;
  approvalPending: boolean;
  paneOpen: boolean;
  inputValue: string;
  suggestionsVisible: boolean;
  input: InputActions;
  approvalUi: ApprovalUi;
  exit(): void;
  flash(text: string): void;
  clearFlash(): void;
  openPane(pane: Pane): void;
  closePane(): void;
  /** Id of the pane open now (as of the last key, not the last frame or effect). */
  openPaneId(): string | undefined;
  redraw(): void;
  now(): number;
  /** Scratch space that survives renders, e.g. when Ctrl+C was last pressed. */
  memory: Record<string, unknown>;
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

/** The approval answers in list order (allow once first, highlighted by default). */
export const APPROVAL_CHOICES: { answer: ApprovalAnswer; command: KeyCommand; label: TranslationKey }[] = [
  { answer: 'allow_once', command: 'approval.allow_once', label: 'ui:approval.allowOnce' },
  { answer: 'allow_session', command: 'approval.allow_session', label: 'ui:approval.allowSession' },
  { answer: 'deny', command: 'approval.deny', label: 'ui:approval.deny' },
];

/** A child's ask (subagent_approvals = "ask"): the session-wide grant is the root's only;
 * a child's answer reaches as far as that child, or its whole tree for this turn. */
export const CHILD_APPROVAL_CHOICES: { answer: ApprovalAnswer; command: KeyCommand; label: TranslationKey }[] = [
  { answer: 'allow_once', command: 'approval.allow_once', label: 'ui:approval.allowOnce' },
  { answer: 'allow_child', command: 'approval.allow_child', label: 'ui:approval.allowChild' },
  { answer: 'allow_tree', command: 'approval.allow_tree', label: 'ui:approval.allowTree' },
  { answer: 'deny', command: 'approval.deny', label: 'ui:approval.deny' },
];

export function approvalChoices(approval: Pick<PendingApproval, 'isChild'> | undefined) {
  return approval?.isChild ? CHILD_APPROVAL_CHOICES : APPROVAL_CHOICES;
}

const ANSWER_COMMANDS = new Set<KeyCommand>([...APPROVAL_CHOICES, ...CHILD_APPROVAL_CHOICES].map((c) => c.command));

const APPROVAL_COMMANDS: KeyCommand[] = [
  ...ANSWER_COMMANDS,
  'approval.up',
  'approval.down',
  'approval.choose',
  'approval.scroll_up',
  'approval.scroll_down',
  'approval.focus',
];

/** The approval prompt's keys: y / a / n answer directly, ↑/↓ and Enter choose from the
 * list, Esc denies, PgUp/PgDn scroll long arguments or page through a diff; with a diff
 * taller than its window, Tab gives it ↑/↓ (a line at a time) and gives them back, the
 * split a pager with a menu under it uses. Decided from the store at the moment
 * of the key: a prompt's own handler would subscribe only after its first frame, and a
 * quick key would be lost. While an approval waits, no other key reaches the input line. */
const approvalKeys: KeyBinding = {
  id: 'approval',
  global: true,
  match: (k, keys) => keys.which(APPROVAL_COMMANDS, k) !== undefined,
  run(ctx, k) {
    // The /agents pane keeps its keys until Enter on an asking row hands them over.
    if (ctx.approvalUi.deferred()) return false;
    const pending = ctx.approvalUi.current();
    if (!pending) return false;
    const command = ctx.keys.which(APPROVAL_COMMANDS, k)!;
    const ui = ctx.approvalUi.get();
    const choices = approvalChoices(pending);
    const answer = (a: ApprovalAnswer) => {
      // One answer per approval, even if a key repeats before the prompt goes away.
      if (ctx.memory.answeredApproval === pending.id) return;
      ctx.memory.answeredApproval = pending.id;
      ctx.approvalUi.set({ index: 0, scroll: 0 });
      ctx.runtime.answerApproval(pending.id, a);
    };
    const direct = choices.find((c) => c.command === command);
    if (direct) return answer(direct.answer);
    // The other prompt's quick key (a on a child's ask, c / t on the root's): nothing.
    if (ANSWER_COMMANDS.has(command)) return;
    const n = choices.length;
    const page = ctx.approvalUi.diffPage();
    const onDiff = page > 0 && ui.diffFocus === true;
    const step = page > 0 ? page : 5;
    if (command === 'approval.focus') {
      if (page > 0) ctx.approvalUi.set({ ...ui, diffFocus: !ui.diffFocus });
    } else if (command === 'approval.up' && onDiff) ctx.approvalUi.set({ ...ui, scroll: Math.max(0, ui.scroll - 1) });
    else if (command === 'approval.down' && onDiff) ctx.approvalUi.set({ ...ui, scroll: ui.scroll + 1 });
    else if (command === 'approval.up') ctx.approvalUi.set({ ...ui, index: (ui.index + n - 1) % n });
    else if (command === 'approval.down') ctx.approvalUi.set({ ...ui, index: (ui.index + 1) % n });
    else if (command === 'approval.choose') answer(choices[ui.index]?.answer ?? 'allow_once');
    else if (command === 'approval.scroll_up') ctx.approvalUi.set({ ...ui, scroll: Math.max(0, ui.scroll - step) });
    else if (command === 'approval.scroll_down') ctx.approvalUi.set({ ...ui, scroll: ui.scroll + step });
  },
  // The prompt shows its own keys.
  help: [],
};

const interrupt: KeyBinding = {
  id: 'interrupt',
  command: 'chat.interrupt',
  run(ctx) {
    if (ctx.approvalPending || !ctx.turnRunning) return false;
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
    if (ctx.turnRunning) {
      ctx.memory.lastCtrlC = undefined;
      interruptTurn(ctx);
      return;
    }
    const last = ctx.memory.lastCtrlC as number | undefined;
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
  return [approvalKeys, interrupt, ctrlC, quit, redraw, arrows, tab];
}

/** /help's key lines, keys as the table has them now. */
export function helpLines(bindings: readonly KeyBinding[], keys: KeyTable): KeyBindingInfo[] {
  return [...EDITOR_HELP, ...bindings.flatMap((b) => b.help)].map((h) => ({ label: keys.labels(h.commands), summary: h.summary }));
}
