// The keypress tokenizer over a table of byte sequences: each burst a terminal can send in
// one read becomes the keys a person pressed, in order.
import { describe, expect, it, vi } from 'vitest';
import { KeypressSource } from '../../../src/ui/keys/keypressSource.js';
import { KeyTokenizer, PASTE_END, PASTE_START, type InputEvent } from '../../../src/ui/keys/tokenizer.js';
import { EventEmitter } from 'node:events';

/** Compact form: "k:ctrl+t", "t:abc", "p:…". */
function show(events: InputEvent[]): string[] {
  return events.map((e) => {
    if (e.kind === 'text') return `t:${e.text}`;
    if (e.kind === 'paste') return `p:${e.text}`;
    return `k:${e.ctrl ? 'ctrl+' : ''}${e.meta ? 'alt+' : ''}${e.shift ? 'shift+' : ''}${e.name}`;
  });
}

function tokens(...chunks: (string | Buffer)[]): string[] {
  const tk = new KeyTokenizer();
  const out: InputEvent[] = [];
  for (const c of chunks) out.push(...tk.push(c));
  out.push(...tk.flush());
  return show(out);
}

/** A stdin that hands out what the test queued, one chunk per read(). */
class QueuedStdin extends EventEmitter {
  data: string[] = [];
  read() {
    return this.data.shift() ?? null;
  }
}

describe('bursts from the issue', () => {
  const table: [string, string, string[]][] = [
    ['abcdef then three Backspaces', 'abcdef\x7f\x7f\x7f', ['t:abcdef', 'k:backspace', 'k:backspace', 'k:backspace']],
    ['Ctrl+T, X, y', '\x14Xy', ['k:ctrl+t', 't:Xy']],
    ['Ctrl+O then e', '\x0fe', ['k:ctrl+o', 't:e']],
    ['Ctrl+C Ctrl+C', '\x03\x03', ['k:ctrl+c', 'k:ctrl+c']],
    ['Esc Esc', '\x1b\x1b', ['k:escape', 'k:escape']],
    ['abc, Ctrl+A, zy', 'abc\x01zy', ['t:abc', 'k:ctrl+a', 't:zy']],
    ['abc, Ctrl+D, zy', 'abc\x04zy', ['t:abc', 'k:ctrl+d', 't:zy']],
    ['a typed line and its Enter', 'hello\r', ['t:hello', 'k:return']],
    ['a line typed before raw mode (its Enter as \\n)', 'hello early\n', ['t:hello early', 'k:return']],
    ['Ctrl+J alone', '\n', ['k:ctrl+j']],
    ['Tab and Shift+Tab', '\t\x1b[Z', ['k:tab', 'k:shift+tab']],
  ];
  for (const [what, bytes, want] of table) it(what, () => expect(tokens(bytes)).toEqual(want));
});

describe('escape sequences and modifiers', () => {
  const table: [string, string[]][] = [
    ['\x1b[A\x1b[B\x1b[C\x1b[D', ['k:up', 'k:down', 'k:right', 'k:left']],
    ['\x1bOA\x1bOB\x1bOC\x1bOD', ['k:up', 'k:down', 'k:right', 'k:left']],
    ['\x1b[H\x1b[F\x1b[1~\x1b[4~\x1b[7~\x1b[8~\x1bOH\x1bOF', ['k:home', 'k:end', 'k:home', 'k:end', 'k:home', 'k:end', 'k:home', 'k:end']],
    ['\x1b[3~\x1b[2~\x1b[5~\x1b[6~', ['k:delete', 'k:insert', 'k:pageup', 'k:pagedown']],
    ['\x1bOP\x1bOQ\x1bOR\x1bOS\x1b[15~\x1b[24~\x1b[[A', ['k:f1', 'k:f2', 'k:f3', 'k:f4', 'k:f5', 'k:f12', 'k:f1']],
    ['\x1b[1;5D\x1b[1;5C', ['k:ctrl+left', 'k:ctrl+right']],
    ['\x1b[1;3D\x1b[1;2A\x1b[1;6B\x1b[1;4C', ['k:alt+left', 'k:shift+up', 'k:ctrl+shift+down', 'k:alt+shift+right']],
    ['\x1b[3;5~\x1b[5;3~', ['k:ctrl+delete', 'k:alt+pageup']],
    ['\x1b[1;5P\x1bO5D', ['k:ctrl+f1', 'k:ctrl+left']],
    // Shift+Enter: CSI u (kitty, foot, WezTerm) and xterm's modifyOtherKeys.
    ['\x1b[13;2u\x1b[27;2;13~', ['k:shift+return', 'k:shift+return']],
    ['\x1b[97;5u\x1b[116;5u', ['k:ctrl+a', 'k:ctrl+t']],
    // Alt+key as an ESC prefix.
    ['\x1bb\x1bf\x1b\x7f\x1b\r\x1bB', ['k:alt+b', 'k:alt+f', 'k:alt+backspace', 'k:alt+return', 'k:alt+B']],
    ['\x1b\x1b[A', ['k:alt+up']],
    // Focus reports and mouse reports are not keys and never text.
    ['\x1b[I\x1b[O\x1b[<0;10;5M', []],
    ['\x00\x1c\x1f\x08', ['k:ctrl+space', 'k:ctrl+\\', 'k:ctrl+_', 'k:ctrl+h']],
  ];
  for (const [bytes, want] of table) it(JSON.stringify(bytes), () => expect(tokens(bytes)).toEqual(want));

  it('a sequence split across reads is still one key', () => {
    expect(tokens('\x1b', '[1;5', 'D')).toEqual(['k:ctrl+left']);
    expect(tokens('ab\x1b[', 'Acd')).toEqual(['t:ab', 'k:up', 't:cd']);
  });
});

describe('text', () => {
  it('keeps a UTF-8 character split across two reads as one character', () => {
    const bytes = Buffer.from('añ日😀', 'utf8');
    // Split inside ñ (2 bytes), 日 (3 bytes) and 😀 (4 bytes).
    expect(tokens(bytes.subarray(0, 2), bytes.subarray(2, 5), bytes.subarray(5, 8), bytes.subarray(8))).toEqual([
      't:a',
      't:ñ',
      't:日',
      't:😀',
    ]);
  });

  it('wide characters and emoji are text', () => {
    expect(tokens('漢字 👍🏽')).toEqual(['t:漢字 👍🏽']);
  });

  it('C1 control characters never reach the text', () => {
    expect(tokens('a\u009bb')).toEqual(['t:ab']);
  });
});

describe('bracketed paste', () => {
  it('arrives as one event, its Enter and Ctrl+C as text', () => {
    expect(tokens(`x${PASTE_START}one\rtwo\x03three${PASTE_END}y`)).toEqual(['t:x', 'p:one\rtwo\x03three', 't:y']);
  });

  it('start and end markers split across reads', () => {
    expect(tokens('\x1b[20', '0~abc\x1b[2', '01~', '\r')).toEqual(['p:abc', 'k:return']);
    expect(tokens(PASTE_START, 'abc\x1b', '[201', '~')).toEqual(['p:abc']);
  });

  it('an escape sequence inside a paste stays text', () => {
    expect(tokens(`${PASTE_START}\x1b[31mred\x1b[0m${PASTE_END}`)).toEqual(['p:\x1b[31mred\x1b[0m']);
  });

  it('a megabyte in 64 KiB reads is joined once', () => {
    const body = 'x'.repeat(1 << 20);
    const stream = PASTE_START + body + PASTE_END;
    const chunks: string[] = [];
    for (let i = 0; i < stream.length; i += 65536) chunks.push(stream.slice(i, i + 65536));
    const tk = new KeyTokenizer();
    const events = chunks.flatMap((c) => tk.push(c));
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ kind: 'paste' });
    expect((events[0] as { text: string }).text.length).toBe(body.length);
  });

  it('a paste whose end marker never comes ends after a pause, and keys work again', async () => {
    vi.useFakeTimers();
    try {
      const stdin = new QueuedStdin();
      const seen: InputEvent[] = [];
      const stop = new KeypressSource(stdin as never, 25, 1000).subscribe((e) => seen.push(e));
      stdin.data.push(`${PASTE_START}half a paste`);
      stdin.emit('readable');
      vi.advanceTimersByTime(500);
      expect(seen).toEqual([]);
      vi.advanceTimersByTime(600);
      stdin.data.push('\x03');
      stdin.emit('readable');
      expect(show(seen)).toEqual(['p:half a paste', 'k:ctrl+c']);
      stop();
    } finally {
      vi.useRealTimers();
    }
  });

  it('without bracketed paste, a chunk of text with line breaks inside is a paste', () => {
    expect(tokens('line one\rline two\r\nthree')).toEqual(['p:line one\rline two\r\nthree']);
  });
});

describe('a lone Esc', () => {
  it('waits for the timeout, then is Esc', () => {
    const tk = new KeyTokenizer();
    expect(tk.push('\x1b')).toEqual([]);
    expect(tk.hasPending()).toBe(true);
    expect(show(tk.flush())).toEqual(['k:escape']);
  });

  it('ESC then a key later than the timeout are two keys, not Alt+key', async () => {
    vi.useFakeTimers();
    try {
      const stdin = new QueuedStdin();
      const seen: InputEvent[] = [];
      const source = new KeypressSource(stdin as never, 25);
      const stop = source.subscribe((e) => seen.push(e));
      stdin.data.push('\x1b');
      stdin.emit('readable');
      expect(seen).toEqual([]);
      vi.advanceTimersByTime(30);
      stdin.data.push('b');
      stdin.emit('readable');
      expect(show(seen)).toEqual(['k:escape', 't:b']);
      // Within the timeout the same bytes are Alt+B.
      seen.length = 0;
      stdin.data.push('\x1b');
      stdin.emit('readable');
      vi.advanceTimersByTime(5);
      stdin.data.push('b');
      stdin.emit('readable');
      vi.advanceTimersByTime(30);
      expect(show(seen)).toEqual(['k:alt+b']);
      stop();
    } finally {
      vi.useRealTimers();
    }
  });
});
