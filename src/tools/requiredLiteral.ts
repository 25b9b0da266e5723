// The runs of plain characters every match of a regular expression must contain, so grep
// can skip a file whose bytes lack one of them without decoding it (what ripgrep and git
// grep do with their literal prefilters). Conservative: any alternation, or anything this
// reader does not understand, means "no literal", and the file is searched in full.

const QUANTIFIERS = new Set(['*', '+', '?', '{']);
/** Escapes that stand for themselves. */
const PLAIN_ESCAPES = new Set([...'\\/.()[]{}|*+?^$-']);
/** One-character escapes for a class, a boundary or a control character: no literal. */
const CLASS_ESCAPES = new Set([...'dDwWsSbBntrfv0']);
const MIN_LITERAL = 3;

/** Every run of at least MIN_LITERAL characters a match must contain (longest first), or
 * an empty list when none is certain. */
export function requiredLiterals(pattern: string): string[] {
  if (pattern.includes('|')) return [];
  const runs: string[] = [];
  let run = '';
  const end = () => {
    if (run.length >= MIN_LITERAL) runs.push(run);
    run = '';
  };
  let i = 0;
  while (i < pattern.length) {
    const c = pattern[i];
    let literal: string | undefined;
    let next = i + 1;
    if (c === '\\') {
      const e = pattern[i + 1];
      if (e === undefined) return [];
      // \x41, \u{...}, \p{L}, \k<name>, back references: not read here.
      if (!PLAIN_ESCAPES.has(e) && !CLASS_ESCAPES.has(e)) return [];
      literal = PLAIN_ESCAPES.has(e) ? e : undefined;
      next = i + 2;
    } else if (c === '[') {
      const close = pattern.indexOf(']', i + 2);
      if (close === -1) return [];
      next = close + 1;
    } else if (c === '(') {
      // A group's content may be optional or repeated: skipped whole.
      let depth = 0;
      let j = i;
      for (; j < pattern.length; j++) {
        if (pattern[j] === '\\') j++;
        else if (pattern[j] === '(') depth++;
        else if (pattern[j] === ')' && --depth === 0) break;
      }
      if (j >= pattern.length) return [];
      next = j + 1;
    } else if (!'.^$)]}*+?{'.includes(c)) {
      literal = c;
    }
    const q = pattern[next];
    if (literal !== undefined && QUANTIFIERS.has(q)) {
      // 'a+' still needs one 'a', but the run cannot go on past it; 'a*', 'a?', 'a{0,}' need none.
      if (q === '+') run += literal;
      literal = undefined;
    }
    if (literal === undefined) end();
    else run += literal;
    // A quantifier after a group or class: skipped (and a lazy '?').
    i = next;
    while (i < pattern.length && QUANTIFIERS.has(pattern[i])) {
      if (pattern[i] === '{') {
        const close = pattern.indexOf('}', i);
        if (close === -1) return [];
        i = close + 1;
      } else i++;
    }
  }
  end();
  return runs.sort((a, b) => b.length - a.length);
}

/** Bytes of source text and prose from the most common down (a rough order, as ripgrep's
 * frequency table is); a byte not listed (capitals, most punctuation, non-ASCII) is rare. */
const COMMON = ' etaonisrlcdu\nhmpfg.,;()_=ybv\twk\'"x-/:{}[]0123456789>*<j#qz';
/** Where the rank of the rarest byte says a memchr-style scan for it is not worth it. */
const TOO_COMMON = COMMON.indexOf('h');

/** The offset of the rarest byte in `literal`'s UTF-8 bytes, to scan for that byte first
 * (few candidates, each checked in place); -1 when every byte is so common that a plain
 * substring search is better. */
export function rareByteAt(literal: string): number {
  const bytes = Buffer.from(literal, 'utf8');
  let best = -1;
  let bestRank = TOO_COMMON;
  for (let i = 0; i < bytes.length; i++) {
    const at = bytes[i] < 0x80 ? COMMON.indexOf(String.fromCharCode(bytes[i])) : -1;
    const rank = at === -1 ? COMMON.length : at;
    if (rank > bestRank) {
      best = i;
      bestRank = rank;
    }
  }
  return best;
}
