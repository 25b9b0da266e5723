// Splits what the terminal sends into single keypresses. A terminal delivers keys in
// whatever chunks its reads produce: a burst typed in tmux, a slow SSH link or a busy
// moment arrives as one chunk ("abc\x7f\x7f\x7f", "\x14Xy", "\x03\x03"), and each key in
// it must act on its own. Recognised: control characters, CSI and SS3 sequences with their
// modifiers (xterm "1;5D", modifyOtherKeys "27;2;13~", CSI u), Alt+key as an ESC prefix,
// runs of printable text (a UTF-8 character split across two reads stays one character),
// and bracketed pastes, which arrive as one event and are never split into keys. An ESC at
// the end of a chunk may start a sequence whose rest is still in flight, so it waits; the
// caller flushes it as a lone Esc after a short timeout (`flush`).
import { StringDecoder } from 'node:string_decoder';

export interface KeyPress {
  kind: 'key';
  /** A printable character ("a", "X", "/"), "space", or a key name ("return", "up", "f5"). */
  name: string;
  ctrl: boolean;
  meta: boolean;
  shift: boolean;
  /** The bytes it came from (for tests and diagnostics). */
  sequence: string;
}

/** A run of printable characters typed (or sent by a terminal without bracketed paste). */
export interface TextInput {
  kind: 'text';
  text: string;
}

/** A bracketed paste, whole: its line breaks and control characters are text, not keys. */
export interface PasteInput {
  kind: 'paste';
  text: string;
}

export type InputEvent = KeyPress | TextInput | PasteInput;

const ESC = '\u001B';
export const PASTE_START = '\u001B[200~';
export const PASTE_END = '\u001B[201~';

/** A terminal sends a whole escape sequence in one write; a lone ESC is an Esc key when
 * nothing follows it within this long. Short, since Esc interrupts a reply. */
export const ESC_TIMEOUT_MS = 25;
/** A paste arrives as fast as the terminal can write it; this long without its end marker
 * means the marker was lost, and the keyboard must not stay swallowed. */
export const PASTE_STALL_MS = 1000;

export function key(name: string, mods: Partial<Pick<KeyPress, 'ctrl' | 'meta' | 'shift'>> = {}, sequence = ''): KeyPress {
  return { kind: 'key', name, ctrl: mods.ctrl ?? false, meta: mods.meta ?? false, shift: mods.shift ?? false, sequence };
}

/** One printable character as a key ("X" is the key X; shift is not reported separately). */
export function charKey(ch: string): KeyPress {
  return key(ch === ' ' ? 'space' : ch, {}, ch);
}

/** The text a key types, or '' when it types none. */
export function keyText(k: KeyPress): string {
  if (k.ctrl || k.meta) return '';
  if (k.name === 'space') return ' ';
  return [...k.name].length === 1 ? k.name : '';
}

const isControl = (code: number) => code < 0x20 || code === 0x7f || (code >= 0x80 && code < 0xa0);

/** Modifier parameter of xterm-style sequences: 1 + (shift 1 | alt 2 | ctrl 4 | meta 8). */
function mods(param: number | undefined): Pick<KeyPress, 'ctrl' | 'meta' | 'shift'> {
  const bits = Math.max(0, (param ?? 1) - 1);
  return { shift: (bits & 1) !== 0, meta: (bits & 2) !== 0 || (bits & 8) !== 0, ctrl: (bits & 4) !== 0 };
}

const CSI_LETTER: Record<string, string> = {
  A: 'up',
  B: 'down',
  C: 'right',
  D: 'left',
  H: 'home',
  F: 'end',
  E: 'clear',
  P: 'f1',
  Q: 'f2',
  R: 'f3',
  S: 'f4',
};
const SS3_LETTER: Record<string, string> = { ...CSI_LETTER, M: 'return' };
const TILDE: Record<number, string> = {
  1: 'home',
  2: 'insert',
  3: 'delete',
  4: 'end',
  5: 'pageup',
  6: 'pagedown',
  7: 'home',
  8: 'end',
  11: 'f1',
  12: 'f2',
  13: 'f3',
  14: 'f4',
  15: 'f5',
  17: 'f6',
  18: 'f7',
  19: 'f8',
  20: 'f9',
  21: 'f10',
  23: 'f11',
  24: 'f12',
};

/** A key given by its Unicode code point (CSI u, modifyOtherKeys). */
function codepointKey(code: number, m: Pick<KeyPress, 'ctrl' | 'meta' | 'shift'>, sequence: string): KeyPress | undefined {
  switch (code) {
    case 13:
      return key('return', m, sequence);
    case 9:
      return key('tab', m, sequence);
    case 27:
      return key('escape', m, sequence);
    case 127:
    case 8:
      return key('backspace', m, sequence);
    case 32:
      return key('space', m, sequence);
  }
  if (code < 0x20 || code > 0x10ffff) return undefined;
  let ch = String.fromCodePoint(code);
  if (m.shift && !m.ctrl && !m.meta && ch.toUpperCase() !== ch) return key(ch.toUpperCase(), {}, sequence);
  if (m.ctrl || m.meta) ch = ch.toLowerCase();
  return key(ch, m, sequence);
}

/** A C0 control character or DEL as a key. */
function controlKey(ch: string): KeyPress {
  const code = ch.charCodeAt(0);
  switch (ch) {
    case '\r':
      return key('return', {}, ch);
    case '\t':
      return key('tab', {}, ch);
    case '\u007f':
      return key('backspace', {}, ch);
    case '\u0000':
      return key('space', { ctrl: true }, ch);
  }
  if (code >= 1 && code <= 26) return key(String.fromCharCode(code + 96), { ctrl: true }, ch);
  // 0x1c-0x1f: Ctrl+\ Ctrl+] Ctrl+^ Ctrl+_
  return key('\\]^_'[code - 0x1c] ?? 'unknown', { ctrl: true }, ch);
}

type Parsed = { event?: KeyPress; paste?: true; end: number } | 'pending';

/** Parses the escape sequence starting at `s[i]` (an ESC). */
function parseEscape(s: string, i: number, final: boolean): Parsed {
  const next = s[i + 1];
  if (next === undefined) return final ? { event: key('escape', {}, ESC), end: i + 1 } : 'pending';
  if (next === '[') return parseCsi(s, i, final);
  if (next === 'O') {
    const f = s[i + 2];
    if (f === undefined) return final ? { event: key('o', { meta: true }, s.slice(i, i + 2)), end: i + 2 } : 'pending';
    const name = SS3_LETTER[f];
    // Some terminals put modifiers in SS3 (ESC O 5 D).
    if (/[0-9]/.test(f)) {
      const g = s[i + 3];
      if (g === undefined) return final ? { event: key('o', { meta: true }, s.slice(i, i + 2)), end: i + 2 } : 'pending';
      const n = SS3_LETTER[g];
      return { event: n ? key(n, mods(Number(f)), s.slice(i, i + 4)) : undefined, end: i + 4 };
    }
    if (name) return { event: key(name, {}, s.slice(i, i + 3)), end: i + 3 };
    return { event: key('o', { meta: true, shift: true }, s.slice(i, i + 2)), end: i + 2 };
  }
  if (next === ESC) {
    // ESC ESC [ … is Alt with a sequence; ESC ESC alone is two Esc presses.
    const third = s[i + 2];
    if (third === undefined && !final) return 'pending';
    if (third === '[' || third === 'O') {
      const inner = parseEscape(s, i + 1, final);
      if (inner === 'pending') return inner;
      if (inner.event) inner.event = { ...inner.event, meta: true, sequence: s.slice(i, inner.end) };
      return inner;
    }
    return { event: key('escape', {}, ESC), end: i + 1 };
  }
  // Alt+key: ESC then the key (a whole code point).
  const cp = s.codePointAt(i + 1)!;
  const ch = String.fromCodePoint(cp);
  const end = i + 1 + ch.length;
  if (isControl(cp)) {
    const k = controlKey(ch);
    return { event: { ...k, meta: true, sequence: s.slice(i, end) }, end };
  }
  return { event: key(ch === ' ' ? 'space' : ch, { meta: true }, s.slice(i, end)), end };
}

function parseCsi(s: string, i: number, final: boolean): Parsed {
  let j = i + 2;
  // Linux console function keys: ESC [ [ A.
  if (s[j] === '[') {
    const f = s[j + 1];
    if (f === undefined) return final ? { event: key('[', { meta: true }, s.slice(i, j)), end: j } : 'pending';
    const name = { A: 'f1', B: 'f2', C: 'f3', D: 'f4', E: 'f5' }[f];
    return { event: name ? key(name, {}, s.slice(i, j + 2)) : undefined, end: j + 2 };
  }
  while (j < s.length) {
    const c = s.charCodeAt(j);
    if (c >= 0x20 && c <= 0x3f) {
      j++;
      continue;
    }
    if (c >= 0x40 && c <= 0x7e) break;
    // Not a sequence after all: Alt+[ and go on from there.
    return { event: key('[', { meta: true }, s.slice(i, i + 2)), end: i + 2 };
  }
  if (j >= s.length) return final ? { event: key('[', { meta: true }, s.slice(i, i + 2)), end: i + 2 } : 'pending';
  const seq = s.slice(i, j + 1);
  const body = s.slice(i + 2, j);
  const f = s[j];
  const end = j + 1;
  // Private sequences (mouse reports "<…M", focus "I"/"O", replies "?…") are not keys.
  if (/^[<=>?]/.test(body)) return { end };
  const params = body.split(';').map((p) => (p === '' ? undefined : Number(p.split(':')[0])));
  if (f === '~') {
    const code = params[0];
    if (code === 200) return { paste: true, end };
    if (code === 201) return { end };
    if (code === 27 && params[2] !== undefined) return { event: codepointKey(params[2], mods(params[1]), seq), end };
    const name = code !== undefined ? TILDE[code] : undefined;
    return { event: name ? key(name, mods(params[1]), seq) : undefined, end };
  }
  if (f === 'u') return { event: params[0] !== undefined ? codepointKey(params[0], mods(params[1]), seq) : undefined, end };
  if (f === 'Z') return { event: key('tab', { shift: true }, seq), end };
  const name = CSI_LETTER[f];
  if (name) return { event: key(name, mods(params[1]), seq), end };
  return { end };
}

/** A chunk of plain text with line breaks inside, from a terminal without bracketed paste
 * (or with it off): a paste, kept whole. */
function looksLikeUnbracketedPaste(s: string): boolean {
  // eslint-disable-next-line no-control-regex -- control characters are what it matches
  return /[\r\n][^\r\n]/.test(s) && !/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/.test(s);
}

export class KeyTokenizer {
  private decoder = new StringDecoder('utf8');
  /** An escape sequence not yet complete. */
  private pending = '';
  /** Inside a bracketed paste: the parts so far (joined once at its end, never re-copied). */
  private pasteParts: string[] | null = null;
  /** The last few characters of a paste chunk, which may be the start of its end marker. */
  private pasteTail = '';

  /** Characters held for a possible escape sequence (a lone ESC waits for `flush`). */
  hasPending(): boolean {
    return this.pending !== '' && this.pasteParts === null;
  }

  get inPaste(): boolean {
    return this.pasteParts !== null;
  }

  push(chunk: string | Buffer): InputEvent[] {
    const text = typeof chunk === 'string' ? chunk : this.decoder.write(chunk);
    const out: InputEvent[] = [];
    this.parse(text, out, false);
    return out;
  }

  /** A paste whose end marker never came (a terminal that lost it): what arrived so far
   * is the paste, and input is keys again. */
  endStalledPaste(): InputEvent[] {
    if (this.pasteParts === null) return [];
    const text = this.pasteParts.join('') + this.pasteTail;
    this.pasteParts = null;
    this.pasteTail = '';
    return [{ kind: 'paste', text }];
  }

  /** The timeout passed: what is held is a lone Esc (or Alt+[ …), not a sequence. */
  flush(): InputEvent[] {
    const out: InputEvent[] = [];
    if (this.pasteParts === null && this.pending) {
      const s = this.pending;
      this.pending = '';
      this.parse(s, out, true);
    }
    return out;
  }

  private parse(chunk: string, out: InputEvent[], final: boolean): void {
    let s = chunk;
    if (this.pasteParts !== null) {
      const rest = this.takePaste(s, out);
      if (rest === undefined) return;
      s = rest;
    } else if (this.pending) {
      s = this.pending + s;
      this.pending = '';
    } else if (!final && looksLikeUnbracketedPaste(s)) {
      // "word\n" typed before raw mode is a line and its Enter, handled below; a chunk
      // with text after a line break is pasted text.
      out.push({ kind: 'paste', text: s });
      return;
    }
    let i = 0;
    while (i < s.length) {
      const c = s.charCodeAt(i);
      if (c === 0x1b) {
        const parsed = parseEscape(s, i, final);
        if (parsed === 'pending') {
          this.pending = s.slice(i);
          return;
        }
        if (parsed.event) out.push(parsed.event);
        i = parsed.end;
        if (parsed.paste) {
          this.pasteParts = [];
          this.pasteTail = '';
          const rest = this.takePaste(s.slice(i), out);
          if (rest === undefined) return;
          s = rest;
          i = 0;
        }
        continue;
      }
      if (c === 0x0a) {
        // A line typed while the terminal was still line-buffered ends in \n: its Enter.
        // Anywhere else \n is Ctrl+J.
        const typedLine = i === s.length - 1 && i > 0 && !isControl(s.charCodeAt(i - 1));
        out.push(typedLine ? key('return', {}, '\n') : key('j', { ctrl: true }, '\n'));
        i++;
        continue;
      }
      if (isControl(c) && c < 0x80) {
        out.push(controlKey(s[i]));
        i++;
        continue;
      }
      let j = i + 1;
      while (j < s.length) {
        const d = s.charCodeAt(j);
        if (d < 0x20 || d === 0x7f || d === 0x1b) break;
        j++;
      }
      // C1 controls inside a run are dropped: they are never text.
      const run = s.slice(i, j).replace(/[\u0080-\u009f]/g, '');
      if (run) out.push({ kind: 'text', text: run });
      i = j;
    }
  }

  /** Adds `s` to the paste in progress; at its end marker, emits the paste and returns the
   * rest of the chunk (undefined while the paste goes on). */
  private takePaste(s: string, out: InputEvent[]): string | undefined {
    const joined = this.pasteTail + s;
    const at = joined.indexOf(PASTE_END);
    if (at < 0) {
      const keep = Math.min(joined.length, PASTE_END.length - 1);
      this.pasteParts!.push(joined.slice(0, joined.length - keep));
      this.pasteTail = joined.slice(joined.length - keep);
      return undefined;
    }
    this.pasteParts!.push(joined.slice(0, at));
    out.push({ kind: 'paste', text: this.pasteParts!.join('') });
    this.pasteParts = null;
    this.pasteTail = '';
    return joined.slice(at + PASTE_END.length);
  }
}
