// A tool result's display as it is kept: on the transcript item, in the session file and
// beside the model's message. Answers and errors share the same 16 KiB the retained result
// text has, in call order, so a card shows what it showed when it read the capped text: a
// target whose answer no longer fits is marked not recorded instead of invented.
import type { DelegateTargetDisplay, ToolDisplay } from '../model/toolDisplay.js';

export const DISPLAY_TEXT_CAP = 16 * 1024;
/** A command line or path longer than this is not read in full on a card. */
const FIELD_CAP = 4 * 1024;

/** `text` cut to at most `bytes` of UTF-8, on a character boundary. */
export function cutBytes(text: string, bytes: number): string {
  if (Buffer.byteLength(text, 'utf8') <= bytes) return text;
  return Buffer.from(text, 'utf8')
    .subarray(0, Math.max(0, bytes))
    .toString('utf8')
    .replace(/\uFFFD$/, '');
}

function capTargets(targets: DelegateTargetDisplay[], cap: number): { targets: DelegateTargetDisplay[]; capped: boolean } {
  let left = cap;
  let capped = false;
  const out = targets.map((t): DelegateTargetDisplay => {
    const text = t.answer ?? t.error;
    if (text === undefined) return t;
    if (left <= 0) {
      capped = true;
      const { answer: _answer, error: _error, ...rest } = t;
      return { ...rest, notRecorded: true };
    }
    const size = Buffer.byteLength(text, 'utf8');
    if (size <= left) {
      left -= size;
      return t;
    }
    capped = true;
    const kept = cutBytes(text, left);
    left = 0;
    return t.answer !== undefined ? { ...t, answer: kept } : { ...t, error: kept };
  });
  return { targets: out, capped };
}

/** The display under the retention caps; the same object when nothing had to change. */
export function capDisplay(display: ToolDisplay, cap = DISPLAY_TEXT_CAP): ToolDisplay {
  switch (display.kind) {
    case 'spawn': {
      const answer = display.answer === undefined ? undefined : cutBytes(display.answer, cap);
      const error = display.error === undefined ? undefined : cutBytes(display.error, cap);
      if (answer === display.answer && error === display.error) return display;
      return { kind: 'spawn', ...(answer !== undefined ? { answer } : {}), ...(error !== undefined ? { error } : {}) };
    }
    case 'delegate': {
      const { targets, capped } = capTargets(display.targets, cap);
      return capped ? { ...display, targets, capped: true } : display;
    }
    case 'shell': {
      const command = cutBytes(display.command, FIELD_CAP);
      return command === display.command ? display : { ...display, command };
    }
    default:
      return display;
  }
}
