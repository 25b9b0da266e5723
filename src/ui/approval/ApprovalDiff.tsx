// The change an ask would make, inside the approval prompt: `src/a.ts +2 −2` (a new file
// says so), the call's short one-line arguments as sent (`"path": "src/a.ts"`; the content
// is what the diff shows), a warning when it replaces a file the model never read in its
// run, then the
// unified diff in a window of fixed height, drawn with the viewer's numbered, coloured rows
// (cards/diffLines.ts). The window scrolls by itself: the prompt keeps its height, so the
// chat above is never pushed. Its rows are laid out once per diff and width.
import React from 'react';
import { Box, Text } from 'ink';
import { t } from '../../i18n/index.js';
import type { PendingApproval } from '../../model/controls.js';
import type { DiffDisplay } from '../../model/toolDisplay.js';
import { diffBodyLines, diffSummarySegs } from '../cards/diffLines.js';
import type { KeyTable } from '../keys/keyTable.js';
import type { Line } from '../text/segments.js';
import { LineView } from '../components/LineView.js';

/** The diff an ask carries, when its tool previewed one. */
export function approvalDiff(approval: PendingApproval): DiffDisplay | undefined {
  return approval.preview?.kind === 'diff' ? approval.preview : undefined;
}

const laidOut = new WeakMap<DiffDisplay, { width: number; lines: Line[] }>();

/** The diff's rows at the prompt's inner width (border and padding take 4 columns). */
export function approvalDiffLines(d: DiffDisplay, width: number): Line[] {
  const inner = Math.max(8, width - 4);
  const cached = laidOut.get(d);
  if (cached?.width === inner) return cached.lines;
  const body = diffBodyLines(d, inner, 0);
  const lines: Line[] = body.length > 0 ? body : [[{ text: t('ui:approval.diffEmpty'), dim: true }]];
  laidOut.set(d, { width: inner, lines });
  return lines;
}

/** The rows shown from `scroll` in a window of at most `rows`. */
export function diffWindow(d: DiffDisplay, width: number, rows: number, scroll: number) {
  const all = approvalDiffLines(d, width);
  const room = Math.max(1, rows);
  const top = Math.max(0, Math.min(scroll, all.length - room));
  return { lines: all.slice(top, top + room), top, total: all.length, scrollable: all.length > room };
}

export function diffMaxScroll(d: DiffDisplay, width: number, rows: number): number {
  return Math.max(0, approvalDiffLines(d, width).length - Math.max(1, rows));
}

const SHORT_ARG_CHARS = 200;

/** The arguments a diff does not show: scalars on one line, as JSON (`"path": "a.ts"`). */
export function shortArgLines(args: unknown): string[] {
  if (!args || typeof args !== 'object' || Array.isArray(args)) return [];
  const out: string[] = [];
  for (const [k, v] of Object.entries(args as Record<string, unknown>)) {
    if (!['string', 'number', 'boolean'].includes(typeof v)) continue;
    const shown = JSON.stringify(v);
    if (typeof v === 'string' && (v.includes('\n') || shown.length > SHORT_ARG_CHARS)) continue;
    out.push(`${JSON.stringify(k)}: ${shown}`);
  }
  return out;
}

/** Rows the diff section takes: header, short arguments, the warning, the window, its
 * position line. */
export function diffSectionHeight(approval: PendingApproval, d: DiffDisplay, width: number, rows: number): number {
  const { lines, scrollable } = diffWindow(d, width, rows, 0);
  return 1 + shortArgLines(approval.args).length + (approval.unreadFile ? 1 : 0) + lines.length + (scrollable ? 1 : 0);
}

export interface ApprovalDiffProps {
  approval: PendingApproval;
  diff: DiffDisplay;
  width: number;
  rows: number;
  scroll: number;
  /** ↑/↓ scroll the diff (Tab moved the focus to it) rather than move the choice. */
  focused: boolean;
  keys: KeyTable;
}

export function ApprovalDiff({ approval, diff, width, rows, scroll, focused, keys }: ApprovalDiffProps) {
  const { lines, top, total, scrollable } = diffWindow(diff, width, rows, scroll);
  const header: Line = diffSummarySegs(diff).map((s, i) => (i === 0 ? { ...s, text: s.text.trimStart(), dim: false, bold: true } : s));
  return (
    <Box flexDirection="column">
      <LineView line={header} />
      {shortArgLines(approval.args).map((line, i) => (
        <Text key={`arg${i}`} dimColor wrap="truncate-end">
          {line}
        </Text>
      ))}
      {approval.unreadFile && (
        <Text color="yellow" wrap="truncate-end">
          {t('ui:approval.unreadFile', { path: diff.path })}
        </Text>
      )}
      {lines.map((line, i) => (
        <LineView key={i} line={line} />
      ))}
      {scrollable && (
        <Text color={focused ? 'yellow' : undefined} dimColor={!focused} wrap="truncate-end">
          {t('ui:approval.diffPosition', {
            from: top + 1,
            to: top + lines.length,
            total,
            keys: keys.labels(['approval.scroll_up', 'approval.scroll_down']),
          })}
        </Text>
      )}
    </Box>
  );
}
