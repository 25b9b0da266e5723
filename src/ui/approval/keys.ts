// The approval prompt's keys, bound ahead of the chat's own (App.tsx).
import type { KeyCommand } from '../../config/keySpec.js';
import type { ApprovalAnswer } from '../../model/controls.js';
import type { KeyBinding } from '../keys/bindings.js';
import { approvalChoices, APPROVAL_CHOICES, CHILD_APPROVAL_CHOICES } from './choices.js';

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
export const approvalKeyBinding: KeyBinding = {
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
