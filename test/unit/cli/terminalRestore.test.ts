// restoreTerminal turns off exactly the modes arbor turned on, shows the cursor and leaves
// raw mode, however often it is called.
import { describe, expect, it } from 'vitest';
import { activeTerminalModes, disableTerminalMode, enableTerminalMode, restoreTerminal } from '../../../src/ui/terminalRestore.js';

function fakeIo() {
  const written: string[] = [];
  const raw: boolean[] = [];
  const stdout = { isTTY: true, write: (s: string) => (written.push(s), true) } as unknown as NodeJS.WriteStream;
  const stdin = { isTTY: true, setRawMode: (on: boolean) => (raw.push(on), stdin) } as unknown as NodeJS.ReadStream;
  return { io: { stdout, stdin }, written, raw };
}

describe('restoreTerminal', () => {
  it('turns off the modes that are on, shows the cursor, leaves raw mode', () => {
    const { io, written, raw } = fakeIo();
    enableTerminalMode('bracketedPaste', io);
    enableTerminalMode('altScreen', io);
    expect(written).toEqual(['\x1b[?2004h', '\x1b[?1049h']);
    written.length = 0;
    restoreTerminal(io);
    expect(written).toEqual(['\x1b[?1049l', '\x1b[?2004l', '\x1b[?25h']);
    expect(raw).toEqual([false]);
    expect(activeTerminalModes()).toEqual([]);
  });

  it('never leaves an alternate screen it did not enter', () => {
    const { io, written } = fakeIo();
    enableTerminalMode('bracketedPaste', io);
    disableTerminalMode('bracketedPaste', io);
    written.length = 0;
    restoreTerminal(io);
    restoreTerminal(io);
    expect(written).toEqual(['\x1b[?25h', '\x1b[?25h']);
  });
});
