// The pane's transcript view: one run's own messages and tool calls, live, scrollable.
// It follows the end while scrolled to the bottom; scrolling up holds the view in place.
import React, { useCallback, useMemo, useRef, useState } from 'react';
import { Box, useInput, type Key } from 'ink';
import { t } from '../../i18n/index.js';
import { runLabel } from '../../runtime/runSelection.js';
import type { RuntimeState } from '../../runtime/types.js';
import { LineView } from './LineView.js';
import { fitLine, type Line } from './segments.js';
import { statusText } from './status.js';
import { runItems, transcriptLines } from './transcriptLines.js';

export interface RunTranscriptViewProps {
  state: RuntimeState;
  runId: string;
  width: number;
  /** Rows for the title and the transcript lines. */
  rows: number;
  onBack(): void;
}

export function RunTranscriptView({ state, runId, width, rows, onBack }: RunTranscriptViewProps) {
  const run = state.runs[runId];
  const lines = useMemo(() => transcriptLines(runItems(state, runId), width), [state, runId, width]);
  // Lines scrolled up from the end; 0 follows the live end.
  const [fromEnd, setFromEnd] = useState(0);
  const body = Math.max(1, rows - 1);
  const maxScroll = Math.max(0, lines.length - body);
  const latest = useRef({ onBack, body, maxScroll });
  latest.current = { onBack, body, maxScroll };

  const onKey = useCallback((input: string, key: Key) => {
    const { body: page, maxScroll: max } = latest.current;
    const by = (d: number) => setFromEnd((v) => Math.min(max, Math.max(0, v + d)));
    if (key.escape || input === 'q') latest.current.onBack();
    else if (key.upArrow || input === 'k') by(1);
    else if (key.downArrow || input === 'j') by(-1);
    else if (key.pageUp) by(page);
    else if (key.pageDown) by(-page);
    else if (input === 'g' || key.home) setFromEnd(max);
    else if (input === 'G' || key.end) setFromEnd(0);
  }, []);
  useInput(onKey);

  const scroll = Math.min(fromEnd, maxScroll);
  const end = lines.length - scroll;
  const shown = lines.slice(Math.max(0, end - body), end);
  const title: Line = run
    ? [
        { text: runLabel(state, runId), bold: true },
        { text: ` · ${statusText(run)} · `, dim: true },
        { text: t('agents:transcript.position', { from: Math.max(0, end - body) + (shown.length ? 1 : 0), to: end, total: lines.length }), dim: true },
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
