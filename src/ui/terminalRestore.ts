// The terminal modes arbor may switch on, and the one function that puts the terminal back
// however arbor ends (quit, a signal, a forced exit). Whoever turns a mode on does it
// through enableTerminalMode, so restoreTerminal knows to turn it off; nothing here loads
// Ink, so headless mode can call it too.

export type TerminalMode = 'bracketedPaste' | 'altScreen';

const SEQUENCES: Record<TerminalMode, { on: string; off: string }> = {
  bracketedPaste: { on: '\x1b[?2004h', off: '\x1b[?2004l' },
  altScreen: { on: '\x1b[?1049h', off: '\x1b[?1049l' },
};
const SHOW_CURSOR = '\x1b[?25h';

const active = new Set<TerminalMode>();

interface TerminalIo {
  stdout: NodeJS.WriteStream;
  stdin: NodeJS.ReadStream;
}

const defaultIo = (): TerminalIo => ({ stdout: process.stdout, stdin: process.stdin });

export function enableTerminalMode(mode: TerminalMode, io: TerminalIo = defaultIo()): void {
  if (active.has(mode)) return;
  io.stdout.write(SEQUENCES[mode].on);
  active.add(mode);
}

export function disableTerminalMode(mode: TerminalMode, io: TerminalIo = defaultIo()): void {
  if (!active.delete(mode)) return;
  io.stdout.write(SEQUENCES[mode].off);
}

/** The modes switched on now (for tests and diagnostics). */
export function activeTerminalModes(): TerminalMode[] {
  return [...active];
}

/** Every mode arbor switched on goes off (only those: leaving an alternate screen that was
 * never entered would move the cursor), the cursor is shown, raw mode is left. Safe to call
 * more than once and when the terminal is already gone. */
export function restoreTerminal(io: TerminalIo = defaultIo()): void {
  try {
    for (const mode of [...active].reverse()) io.stdout.write(SEQUENCES[mode].off);
    active.clear();
    if (io.stdout.isTTY) io.stdout.write(SHOW_CURSOR);
  } catch {
    // The terminal is gone (SIGHUP): nothing to restore.
  }
  try {
    if (io.stdin.isTTY && typeof io.stdin.setRawMode === 'function') io.stdin.setRawMode(false);
  } catch {
    // Same.
  }
}
