// Terminal modes the chat turns on for its lifetime: bracketed paste (a paste arrives
// wrapped in markers, so its line breaks and control bytes are text, never Enter or
// Ctrl+C). Whatever way arbor ends (quit, crash, signal), the mode must be turned off
// again or the user's shell receives the markers around every later paste.
// `setTerminalModes(false)` is safe to call any number of times, from any exit path.
import { BRACKETED_PASTE_OFF, BRACKETED_PASTE_ON } from '../ui/keys/tokenizer.js';

interface Output {
  isTTY?: boolean;
  write(data: string): unknown;
}

let active: Output | undefined;
let hooked = false;

/** Turns the chat's terminal modes on (`true`) or back off (`false`). Off does nothing when
 * they are not on, so every exit path may call it. */
export function setTerminalModes(on: boolean, out: Output = process.stdout): void {
  if (on) {
    if (active || !out.isTTY) return;
    active = out;
    out.write(BRACKETED_PASTE_ON);
    if (!hooked) {
      hooked = true;
      // Last resort: a crash or process.exit() anywhere still restores the terminal.
      process.on('exit', () => setTerminalModes(false));
    }
    return;
  }
  if (!active) return;
  const target = active;
  active = undefined;
  try {
    target.write(BRACKETED_PASTE_OFF);
  } catch {
    // the terminal is gone
  }
}

export function terminalModesOn(): boolean {
  return active !== undefined;
}
