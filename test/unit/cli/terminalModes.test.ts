// Bracketed paste is on for the chat's lifetime and turned off exactly once, whichever
// exit path gets there first (quit, crash, signal).
import { describe, expect, it } from 'vitest';
import { setTerminalModes, terminalModesOn } from '../../../src/cli/terminalModes.js';

function fakeTty(isTTY = true) {
  const writes: string[] = [];
  return { isTTY, writes, write: (d: string) => writes.push(d) };
}

describe('terminal modes', () => {
  it('turns bracketed paste on, and off once however many exit paths ask', () => {
    const out = fakeTty();
    setTerminalModes(true, out);
    setTerminalModes(true, out);
    expect(out.writes).toEqual(['\x1b[?2004h']);
    expect(terminalModesOn()).toBe(true);
    setTerminalModes(false);
    setTerminalModes(false);
    expect(out.writes).toEqual(['\x1b[?2004h', '\x1b[?2004l']);
    expect(terminalModesOn()).toBe(false);
  });

  it('leaves a stream that is not a terminal alone', () => {
    const out = fakeTty(false);
    setTerminalModes(true, out);
    setTerminalModes(false);
    expect(out.writes).toEqual([]);
  });

  it('an output that is gone does not make turning it off throw', () => {
    const out = { isTTY: true, write: (d: string) => {
      if (d.includes('2004l')) throw new Error('EIO');
    } };
    setTerminalModes(true, out);
    expect(() => setTerminalModes(false)).not.toThrow();
    expect(terminalModesOn()).toBe(false);
  });
});
