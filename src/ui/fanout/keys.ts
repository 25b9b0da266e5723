// The fan-out confirmation's keys: Enter starts the count shown, a/y start all, n/Esc deny,
// -/+ (←/→) change the count, digits type it. Decided from the store at the moment of the
// key, like the approval prompt's. While a fan-out waits, other keys are held back from the
// input line, except quitting and redrawing.
import type { KeyCommand } from '../../config/keySpec.js';
import type { KeyBinding } from '../keys/bindings.js';
import { fanoutCount, forgetFanoutCount, setFanoutCount } from './countState.js';

const FANOUT_COMMANDS: KeyCommand[] = ['fanout.approve', 'fanout.all', 'fanout.deny', 'fanout.less', 'fanout.more'];
const PASS_THROUGH: KeyCommand[] = ['chat.cancel', 'chat.quit', 'chat.redraw'];
/** Digits typed closer together than this make one number ("12"). */
const DIGIT_WINDOW_MS = 1000;

export const fanoutKeyBinding: KeyBinding = {
  id: 'fanout',
  global: true,
  match: () => true,
  run(ctx, k) {
    const pending = ctx.runtime.store.getState().controls.fanouts?.[0];
    if (!pending) return false;
    if (ctx.keys.which(PASS_THROUGH, k)) return false;
    const total = pending.children.length;
    const count = fanoutCount(pending.id, total);
    const answer = (n: number) => {
      // One answer per fan-out, even if a key repeats before the prompt goes away.
      if (ctx.memory.answeredFanout === pending.id) return;
      ctx.memory.answeredFanout = pending.id;
      forgetFanoutCount(pending.id);
      ctx.runtime.answerFanout(pending.id, n);
    };
    if (/^[0-9]$/.test(k.name) && !k.ctrl && !k.meta) {
      const last = ctx.memory.fanoutDigit;
      const now = ctx.now();
      const text = last && last.id === pending.id && now - last.at < DIGIT_WINDOW_MS ? last.text + k.name : k.name;
      ctx.memory.fanoutDigit = { id: pending.id, at: now, text };
      setFanoutCount(pending.id, total, Number(text));
      return;
    }
    switch (ctx.keys.which(FANOUT_COMMANDS, k)) {
      case 'fanout.approve':
        return answer(count);
      case 'fanout.all':
        return answer(total);
      case 'fanout.deny':
        return answer(0);
      case 'fanout.less':
        return setFanoutCount(pending.id, total, count - 1);
      case 'fanout.more':
        return setFanoutCount(pending.id, total, count + 1);
      default:
        // Held back: nothing typed reaches the hidden input line meanwhile.
        return;
    }
  },
  // The prompt shows its own keys.
  help: [],
};
