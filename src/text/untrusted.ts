// Text from outside the process (model output, tool results, file names, server error
// bodies, child transcripts, session files) must never drive the terminal. A terminal acts
// only on control characters: every escape sequence (CSI, OSC, DCS, APC, PM, SOS) starts
// with ESC or a C1 control, and BEL, BS, CR and friends move or ring on their own. So
// replacing each control character with a visible stand-in neutralises every sequence,
// whatever it is and wherever a stream cut it: the mapping is per character and keeps no
// state, so a sequence split across two deltas is as harmless as a whole one.
//
// This is the bottom layer (no imports): runtime, persistence, cli and ui all use it.
//
// Stand-ins: ESC → ␛, the other C0 controls → their Unicode control pictures (␀..␟), DEL →
// ␡, a C1 control → ␛ plus its 7-bit twin (U+009B CSI → "␛["), as ECMA-48 defines them.
// Newline and tab are kept; CRLF becomes LF (files and servers from Windows), a lone CR is
// shown (it would otherwise let text overwrite the line it is on).

// Everything a terminal could act on, except \t (09) and \n (0A). \r\n is matched first.
// eslint-disable-next-line no-control-regex -- finding control characters is this module's job
const CONTROLS = /\r\n|[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;
// eslint-disable-next-line no-control-regex -- as above
const HAS_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

export const ESC_PICTURE = '\u241b';

function standIn(ch: string): string {
  if (ch === '\r\n') return '\n';
  const cp = ch.charCodeAt(0);
  if (cp === 0x1b) return ESC_PICTURE;
  if (cp < 0x20) return String.fromCharCode(0x2400 + cp);
  if (cp === 0x7f) return '\u2421';
  return ESC_PICTURE + String.fromCharCode(cp - 0x40);
}

/** True when `text` holds a character a terminal would act on (besides \n and \t). */
export function hasControls(text: string): boolean {
  return HAS_CONTROL.test(text);
}

/** `text` with every control character (but \n and \t) made visible and inert. Idempotent,
 * and returns the same string when there is nothing to replace. */
export function neutralize(text: string): string {
  if (!HAS_CONTROL.test(text)) return text;
  return text.replace(CONTROLS, standIn);
}

/** `neutralize` for a value that may not be a string (a field read from a file). */
export function neutralizeMaybe<T>(value: T): T {
  return (typeof value === 'string' ? neutralize(value) : value) as T;
}

/** Every string inside a JSON-like value neutralised (keys too). The same object comes back
 * when nothing needed changing, so clean tool arguments are not copied. */
export function neutralizeDeep<T>(value: T, depth = 0): T {
  if (typeof value === 'string') return neutralize(value) as T;
  if (value === null || typeof value !== 'object' || depth > 64) return value;
  if (Array.isArray(value)) {
    let out: unknown[] | undefined;
    value.forEach((v, i) => {
      const n = neutralizeDeep(v, depth + 1);
      if (n !== v) (out ??= value.slice())[i] = n;
    });
    return (out ?? value) as T;
  }
  if (Object.getPrototypeOf(value) !== Object.prototype && Object.getPrototypeOf(value) !== null) return value;
  let out: Record<string, unknown> | undefined;
  const entries = Object.entries(value as Record<string, unknown>);
  for (const [k, v] of entries) {
    const nk = neutralize(k);
    const nv = neutralizeDeep(v, depth + 1);
    if (nk !== k || nv !== v) {
      out ??= {};
      break;
    }
  }
  if (!out) return value;
  for (const [k, v] of entries) out[neutralize(k)] = neutralizeDeep(v, depth + 1);
  return out as T;
}
