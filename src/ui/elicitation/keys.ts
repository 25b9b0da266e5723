// The form prompt's keys, decided from the store at the moment of the key (like the
// fan-out's): ↑/↓, Tab/Shift+Tab move between the fields and the Submit / Decline rows;
// typing, ←/→, Backspace and Delete edit a text or number field; Space and ←/→ toggle a
// boolean and cycle an enum; Enter moves to the next field, and on the last field or Submit
// accepts (or shows what is wrong), on Decline declines; Ctrl+X declines, Esc cancels.
// A URL-mode request: ↑/↓ move between Open in browser, I've done it and Decline, Enter
// takes the focused one, `o` opens; opening leaves the request waiting for the answer.
// Quitting and redrawing pass through; every other key is held back from the input line.
import type { KeyCommand } from '../../config/keySpec.js';
import type { KeyBinding } from '../keys/bindings.js';
import { keyText } from '../keys/tokenizer.js';
import type { ElicitationReply } from '../../model/controls.js';
import { cycle, editText, forgetForm, formOf, moveFocus, setForm, submit } from './formState.js';
import { URL_CHOICES } from './UrlElicitationPrompt.js';

const PASS_THROUGH: KeyCommand[] = ['chat.quit', 'chat.redraw'];

export const elicitationKeyBinding: KeyBinding = {
  id: 'elicitation',
  global: true,
  match: () => true,
  run(ctx, k) {
    const pending = ctx.runtime.store.getState().controls.elicitations?.[0];
    if (!pending) return false;
    if (k.name !== 'escape' && ctx.keys.which(PASS_THROUGH, k)) return false;
    const s = formOf(pending);
    const n = pending.fields.length;
    const answer = (reply: ElicitationReply) => {
      // One answer per form, even if a key repeats before the prompt goes away.
      if (ctx.memory.answeredElicitation === pending.id) return;
      ctx.memory.answeredElicitation = pending.id;
      forgetForm(pending.id);
      ctx.runtime.answerElicitation(pending.id, reply);
    };
    if (pending.mode === 'url') {
      const choose = (choice: (typeof URL_CHOICES)[number]) => {
        if (choice === 'open') return ctx.runtime.openElicitationUrl(pending.id);
        answer(choice === 'done' ? { action: 'accept', content: {} } : { action: 'decline' });
      };
      const move = (by: number) => setForm({ ...s, focus: Math.max(0, Math.min(URL_CHOICES.length - 1, s.focus + by)) });
      if (k.name === 'escape') return answer({ action: 'cancel' });
      if (k.ctrl && k.name === 'x') return answer({ action: 'decline' });
      if (k.name === 'up' || (k.name === 'tab' && k.shift)) return move(-1);
      if (k.name === 'down' || k.name === 'tab') return move(1);
      if (k.name === 'return') return choose(URL_CHOICES[s.focus] ?? 'open');
      if (!k.ctrl && !k.meta && keyText(k) === 'o') return choose('open');
      // Held back, as for a form.
      return;
    }
    const accept = () => {
      const out = submit(s, pending);
      if ('reply' in out) answer(out.reply);
      else setForm(out.invalid);
    };
    const field = pending.fields[s.focus];
    const isText = field !== undefined && field.kind !== 'boolean' && field.kind !== 'enum';
    if (k.name === 'escape') return answer({ action: 'cancel' });
    if (k.ctrl && k.name === 'x') return answer({ action: 'decline' });
    if (k.name === 'up' || (k.name === 'tab' && k.shift)) return setForm(moveFocus(s, pending, -1));
    if (k.name === 'down' || k.name === 'tab') return setForm(moveFocus(s, pending, 1));
    if (k.name === 'return') {
      if (s.focus === n + 1) return answer({ action: 'decline' });
      if (s.focus >= n - 1) return accept();
      return setForm(moveFocus(s, pending, 1));
    }
    if (isText) {
      if (k.name === 'backspace') return setForm(editText(s, pending, 'backspace'));
      if (k.name === 'delete') return setForm(editText(s, pending, 'delete'));
      if (k.name === 'left' || k.name === 'right') return setForm(editText(s, pending, k.name));
      const text = keyText(k);
      if (text) return setForm(editText(s, pending, 'insert', text));
      return;
    }
    if (field && (k.name === 'space' || k.name === 'right')) return setForm(cycle(s, pending, 1));
    if (field && k.name === 'left') return setForm(cycle(s, pending, -1));
    // Held back: nothing typed reaches the hidden input line meanwhile.
  },
  // The prompt shows its own keys.
  help: [],
};
