// The pane's transcript view: one run's own messages and tool calls, live, scrollable.
// The pane owns the keys (a sub-view subscribing its own would miss keys typed the moment
// it opens); this draws the window the pane chose.
import { Box } from 'ink';
import { t } from '../../i18n/index.js';
import { runLabel } from '../../runtime/runSelection.js';
import type { RuntimeState } from '../../model/state.js';
import { LineView } from '../components/LineView.js';
import { fitLine, type Line } from '../text/segments.js';
import { statusText } from './status.js';

/** Where the view sits: the first line shown, or null to follow the live end. Scrolled
 * up, the view holds still while new lines arrive below. */
export type TranscriptTop = number | null;

export interface TranscriptWindow {
  first: number;
  /** The last valid first line (the view at the end). */
  lastTop: number;
  /** Rows for transcript lines (the title takes one more). */
  body: number;
}

export function transcriptWindow(total: number, top: TranscriptTop, rows: number): TranscriptWindow {
  const body = Math.max(1, rows - 1);
  const lastTop = Math.max(0, total - body);
  return { first: top === null ? lastTop : Math.min(top, lastTop), lastTop, body };
}

/** Moves the view by `delta` lines; reaching the end means following it again. */
export function scrollTop(top: TranscriptTop, delta: number, lastTop: number): TranscriptTop {
  const next = Math.max(0, Math.min(lastTop, (top ?? lastTop) + delta));
  return next >= lastTop ? null : next;
}

export interface RunTranscriptViewProps {
  state: RuntimeState;
  runId: string;
  lines: Line[];
  win: TranscriptWindow;
  width: number;
}

export function RunTranscriptView({ state, runId, lines, win, width }: RunTranscriptViewProps) {
  const run = state.runs.get(runId);
  const shown = lines.slice(win.first, win.first + win.body);
  const title: Line = run
    ? [
        { text: runLabel(state, runId), bold: true },
        { text: ` · ${statusText(run)} · `, dim: true },
        {
          text: t('agents:transcript.position', {
            from: shown.length ? win.first + 1 : 0,
            to: win.first + shown.length,
            total: lines.length,
          }),
          dim: true,
        },
      ]
    : [{ text: t('agents:transcript.gone'), color: 'yellow' }];
  return (
    <Box flexDirection="column" width={width}>
      <LineView line={fitLine(title, width)} />
      {shown.length === 0 && run ? <LineView line={[{ text: t('agents:transcript.empty'), dim: true }]} /> : null}
      {shown.map((line, i) => (
        <LineView key={i} line={fitLine(line, width)} />
      ))}
    </Box>
  );
}
