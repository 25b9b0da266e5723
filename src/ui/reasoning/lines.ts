// A model's reasoning as laid-out lines (one terminal row each): the dim "thinking" head
// with its token count, and the reasoning text under it. Shared by the chat (live region
// and scrollback), the transcript viewer and the agents pane's transcript of a child.
import { t } from '../../i18n/index.js';
import type { TranscriptItem } from '../../model/transcript.js';
import { fitLine, type Line } from '../text/segments.js';
import { formatBytes } from '../../text/sizes.js';
import { tailLines, wrapText } from '../text/width.js';
import type { ShowReasoning } from '../../config/types.js';

type AssistantItem = Extract<TranscriptItem, { kind: 'assistant' }>;

export const REASONING_GLYPH = '✻';

/** Lines of reasoning drawn at most (viewer expanded, a child's transcript, scrollback):
 * the session file keeps the rest. */
export const REASONING_MAX_LINES = 400;

export function hasReasoning(item: AssistantItem): boolean {
  return (typeof item.reasoning === 'string' && item.reasoning.trim() !== '') || item.reasoningRedacted === true;
}

/** "✻ thinking… 120 tokens" while it streams, "✻ thought · 120 tokens" once it is done. */
export function reasoningHead(item: AssistantItem): string {
  const count = typeof item.reasoningTokens === 'number' ? item.reasoningTokens : 0;
  const key = item.thinking && item.streaming ? 'reasoning:thinking' : 'reasoning:thought';
  return `${REASONING_GLYPH} ${t(key, { count })}`;
}

/** Most of the reasoning wrapped for one reply (scrollback, viewer, a child's transcript):
 * laying out a megabyte of it would hold the chat; the session file keeps all of it. */
export const DRAWN_REASONING_CHARS = 64 * 1024;

/** The reasoning text wrapped under an indent, dim: at most `max` lines from the start, or
 * with `tail` the last `max` (only the tail is wrapped, so a live frame costs little),
 * with a line saying what was left out. */
export function reasoningBody(item: AssistantItem, width: number, indent: number, max = REASONING_MAX_LINES, tail = false): Line[] {
  const pad = ' '.repeat(indent);
  const text = typeof item.reasoning === 'string' ? item.reasoning.trim() : '';
  const inner = Math.max(1, width - indent);
  const note = (s: string): Line => fitLine([{ text: `${pad}${s}`, dim: true }], width);
  const lines: Line[] = [];
  if (text && tail) {
    const res = tailLines(text, inner, max);
    if (res.truncated) lines.push(note(t('reasoning:earlier')));
    for (const l of res.lines) lines.push([{ text: pad }, { text: l, dim: true, color: 'gray' }]);
  } else if (text) {
    const drawn = text.length > DRAWN_REASONING_CHARS ? text.slice(0, DRAWN_REASONING_CHARS) : text;
    const wrapped = wrapText(drawn, inner);
    const kept = wrapped.length <= max ? wrapped : wrapped.slice(0, max);
    for (const l of kept) lines.push([{ text: pad }, { text: l, dim: true, color: 'gray' }]);
    if (kept.length < wrapped.length || drawn.length < text.length) {
      const shownChars = kept.reduce((n, l) => n + l.length + 1, 0);
      lines.push(note(t('reasoning:notDrawn', { size: formatBytes(Math.max(1, text.length - shownChars)) })));
    }
  }
  if (item.reasoningRedacted) lines.push(note(t('reasoning:redacted')));
  return lines;
}

/** The head and, when `full`, the text: what a view shows for `mode` (nothing when hidden or
 * when the model did not reason). */
export function reasoningLines(item: AssistantItem, mode: ShowReasoning, full: boolean, width: number, indent = 2, hint?: string): Line[] {
  if (mode === 'hidden' || !hasReasoning(item)) return [];
  const head = fitLine(
    [{ text: ' '.repeat(indent) }, { text: reasoningHead(item), dim: true }, ...(hint && !full ? [{ text: ` ${hint}`, dim: true }] : [])],
    width,
  );
  return full ? [head, ...reasoningBody(item, width, indent + 2)] : [head];
}
