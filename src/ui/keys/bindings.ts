// The key-binding layer. Each binding matches a key and acts through a KeyContext; the
// first binding that handles a key wins. Later features add theirs (Ctrl+O, Ctrl+T) to the
// list the App is given. /help lists every binding's `help` lines.
import type { Key } from 'ink';
import type { RuntimeApi } from '../../runtime/runtimeApi.js';
import { t } from '../../i18n/index.js';
import type { KeyBindingInfo } from '../commands/registry.js';
import type { Pane } from '../panes/types.js';
import { answerForKey } from '../components/answerForKey.js';

/** Two Ctrl+C presses closer than this quit. */
export const QUIT_WINDOW_MS = 2000;

export interface InputActions {
  historyPrev(): void;
  historyNext(): void;
  moveSuggestion(delta: number): void;
  complete(): boolean;
  clear(): void;
}

export interface KeyContext {
  runtime: RuntimeApi;
  turnRunning: boolean;
  approvalPending: boolean;
  paneOpen: boolean;
  inputValue: string;
  suggestionsVisible: boolean;
  input: InputActions;
  exit(): void;
  flash(text: string): void;
  openPane(pane: Pane): void;
  closePane(): void;
  now(): number;
  /** Scratch space that survives renders, e.g. when Ctrl+C was last pressed. */
  memory: Record<string, unknown>;
}

export interface KeyBinding {
  id: string;
  match(input: string, key: Key): boolean;
  /** Return false to let later bindings see the key. */
  run(ctx: KeyContext, input: string, key: Key): boolean | void;
  /** Still active while a pane owns the keyboard. */
  global?: boolean;
  /** Lines for /help (i18n keys). */
  help: KeyBindingInfo[];
}

/** y / a / n / Esc answer a pending approval. Handled here, in the layer subscribed since
 * the chat started, and decided from the store at the moment of the key: a prompt's own
 * handler would subscribe only after its first frame, and a quick key would be lost. */
const approvalKeys: KeyBinding = {
  id: 'approval',
  global: true,
  match: (input, key) => answerForKey(input, key) !== undefined,
  run(ctx, input, key) {
    const pending = ctx.runtime.store.getState().controls.approvals[0];
    if (!pending) return false;
    // One answer per approval, even if a key repeats before the prompt goes away.
    if (ctx.memory.answeredApproval === pending.id) return;
    ctx.memory.answeredApproval = pending.id;
    ctx.runtime.answerApproval(pending.id, answerForKey(input, key)!);
  },
  help: [],
};

const interrupt: KeyBinding = {
  id: 'interrupt',
  match: (_input, key) => key.escape,
  run(ctx) {
    // The approval prompt answers Esc with "deny"; it must not also stop the turn.
    if (ctx.approvalPending || !ctx.turnRunning) return false;
    ctx.runtime.interrupt();
  },
  help: [{ label: 'ui:keys.labels.esc', summary: 'ui:keys.summaries.interrupt' }],
};

const ctrlC: KeyBinding = {
  id: 'ctrl-c',
  global: true,
  match: (input, key) => key.ctrl && input === 'c',
  run(ctx) {
    if (ctx.turnRunning) {
      ctx.memory.lastCtrlC = undefined;
      ctx.runtime.interrupt();
      return;
    }
    const last = ctx.memory.lastCtrlC as number | undefined;
    const now = ctx.now();
    if (last !== undefined && now - last <= QUIT_WINDOW_MS) {
      ctx.memory.lastCtrlC = undefined;
      ctx.exit();
      return;
    }
    ctx.memory.lastCtrlC = now;
    if (ctx.inputValue && !ctx.paneOpen) ctx.input.clear();
    ctx.flash(t('ui:keys.quitAgain'));
  },
  help: [
    { label: 'ui:keys.labels.ctrlC', summary: 'ui:keys.summaries.ctrlC' },
    { label: 'ui:keys.labels.ctrlCTwice', summary: 'ui:keys.summaries.quitTwice' },
  ],
};

const ctrlD: KeyBinding = {
  id: 'ctrl-d',
  match: (input, key) => key.ctrl && input === 'd',
  run(ctx) {
    if (ctx.inputValue !== '' || ctx.approvalPending) return false;
    ctx.exit();
  },
  help: [{ label: 'ui:keys.labels.ctrlD', summary: 'ui:keys.summaries.quitEmpty' }],
};

// ↑/↓ move through / suggestions while they show, through sent messages otherwise.
const arrows: KeyBinding = {
  id: 'history',
  match: (_input, key) => (key.upArrow || key.downArrow) && !key.ctrl,
  run(ctx, _input, key) {
    if (ctx.approvalPending) return false;
    const delta = key.upArrow ? -1 : 1;
    if (ctx.suggestionsVisible) ctx.input.moveSuggestion(delta);
    else if (delta < 0) ctx.input.historyPrev();
    else ctx.input.historyNext();
  },
  help: [{ label: 'ui:keys.labels.upDown', summary: 'ui:keys.summaries.history' }],
};

const tab: KeyBinding = {
  id: 'complete',
  match: (_input, key) => key.tab && !key.shift,
  run(ctx) {
    if (ctx.approvalPending || !ctx.suggestionsVisible) return false;
    ctx.input.complete();
  },
  help: [{ label: 'ui:keys.labels.tab', summary: 'ui:keys.summaries.complete' }],
};

/** Keys the input line itself handles (Enter), listed in /help. */
export const INPUT_HELP: KeyBindingInfo[] = [{ label: 'ui:keys.labels.enter', summary: 'ui:keys.summaries.send' }];

export function defaultKeyBindings(): KeyBinding[] {
  return [approvalKeys, interrupt, ctrlC, ctrlD, arrows, tab];
}

export function helpLines(bindings: readonly KeyBinding[]): KeyBindingInfo[] {
  return [...INPUT_HELP, ...bindings.flatMap((b) => b.help)];
}
