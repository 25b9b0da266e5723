// A model's reasoning as laid-out lines (one terminal row each): the dim "thinking" head
// with its token count, and the reasoning text under it. Shared by the chat (live region
// and scrollback), the transcript viewer and the agents pane's transcript of a child.
import { t } from '../../i18n/index.js';
import type { TranscriptItem } from '../../model/transcript.js';
import { fitLine, type Line } from '../text/segments.js';
import { wrapText } from '../text/width.js';
import type { ShowReasoning } from './mode.js';

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

/** The reasoning text wrapped under an indent, dim; `max` lines from the start (or the end
 * with `tail`), with a line saying what was left out. */
export function reasoningBody(item: AssistantItem, width: number, indent: number, max = REASONING_MAX_LINES, tail = false): Line[] {
  const pad = ' '.repeat(indent);
  const text = typeof item.reasoning === 'string' ? item.reasoning.trim() : '';
  const lines: Line[] = [];
  if (text) {
    const wrapped = wrapText(text, Math.max(1, width - indent));
    const kept = wrapped.length <= max ? wrapped : tail ? wrapped.slice(-max) : wrapped.slice(0, max);
    if (tail && kept.length < wrapped.length) lines.push(fitLine([{ text: `${pad}${t('reasoning:earlier')}`, dim: true }], width));
    for (const l of kept) lines.push([{ text: pad }, { text: l, dim: true, color: 'gray' }]);
    if (!tail && kept.length < wrapped.length) {
      lines.push(fitLine([{ text: `${pad}${t('reasoning:moreLines', { count: wrapped.length - kept.length })}`, dim: true }], width));
    }
  }
  if (item.reasoningRedacted) lines.push(fitLine([{ text: `${pad}${t('reasoning:redacted')}`, dim: true }], width));
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
