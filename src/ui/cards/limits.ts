// Display limits of an expanded field: at most 8 KiB or 100 lines, whichever comes first.
// What is cut is only hidden: Copy always takes the whole retained entry.
import { t } from '../../i18n/index.js';

export const FIELD_MAX_BYTES = 8 * 1024;
export const FIELD_MAX_LINES = 100;

export interface LimitedText {
  text: string;
  limited: boolean;
  shownLines: number;
  totalLines: number;
  shownBytes: number;
  totalBytes: number;
}

function countLines(text: string): number {
  let n = 1;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

export function limitText(text: string, maxBytes = FIELD_MAX_BYTES, maxLines = FIELD_MAX_LINES): LimitedText {
  const totalBytes = Buffer.byteLength(text, 'utf8');
  const totalLines = countLines(text);
  let shown = text;
  if (totalBytes > maxBytes) {
    // Cut on a character boundary at or below the byte limit.
    shown = Buffer.from(text, 'utf8')
      .subarray(0, maxBytes)
      .toString('utf8')
      .replace(/\uFFFD$/, '');
  }
  let lineEnd = -1;
  for (let i = 0, n = 0; i < shown.length; i++) {
    if (shown.charCodeAt(i) === 10 && ++n === maxLines) {
      lineEnd = i;
      break;
    }
  }
  if (lineEnd >= 0) shown = shown.slice(0, lineEnd);
  const limited = shown.length < text.length;
  return {
    text: shown,
    limited,
    shownLines: limited ? countLines(shown) : totalLines,
    totalLines,
    shownBytes: limited ? Buffer.byteLength(shown, 'utf8') : totalBytes,
    totalBytes,
  };
}

export function formatBytes(n: number): string {
  if (n < 1024) return t('transcript:bytes.b', { n });
  return t('transcript:bytes.kib', { n: (n / 1024).toFixed(1) });
}

/** The note under a cut field: what is shown and where the rest is (Copy). */
export function limitNote(l: LimitedText): string {
  return t('transcript:limit.note', {
    shownLines: l.shownLines,
    totalLines: l.totalLines,
    shown: formatBytes(l.shownBytes),
    total: formatBytes(l.totalBytes),
  });
}
