// The transcript viewer (Ctrl+O, /transcript): the whole session — the turn in flight,
// history already printed to scrollback, restored items — as a virtual list that opens at
// the newest entry. Only the rows on screen are laid out; the store is read through a
// snapshot refreshed at most ~10 times a second. `o` opens a card's child transcript, one
// level per press, Esc goes back.
import React, { memo, useMemo, useReducer, useRef } from 'react';
import { Box } from 'ink';
import { useKeyTable } from '../keys/keyTable.js';
import type { RuntimeState } from '../../model/state.js';
import type { Line } from '../text/segments.js';
import { LineView } from '../components/LineView.js';
import { isAlive } from '../cards/live.js';
import { useThrottledStore } from '../hooks/useThrottledStore.js';
import { useFlash } from '../hooks/useFlash.js';
import { useTicker } from '../hooks/useTicker.js';
import type { PaneProps } from '../panes/types.js';
import { childEntries } from './childSource.js';
import { entryLines, itemEntries, type LayoutContext } from './entries.js';
import type { HintMode } from './hints.js';
import { useViewerKeys } from './useViewerKeys.js';
import { footerLines, GUTTER, viewerParts, viewerRows } from './viewerRows.js';
import type * as nav from './viewport.js';
import { isExpanded, newView, settle, type UiState, type ViewState } from './viewState.js';

/** Spinners and elapsed times in live cards move at this pace while something runs. */
const LIVE_TICK_MS = 250;
const FLASH_MS = 4000;

/** The open view's entries, and whether anything in the session still runs. */
function useViewEntries(state: RuntimeState, view: ViewState) {
  const liveNow = useMemo(
    () =>
      state.activeRootRunId !== undefined ||
      state.runOrder.some((id) => {
        const r = state.runs.get(id);
        return r !== undefined && isAlive(r);
      }),
    [state.activeRootRunId, state.runOrder, state.runs],
  );
  const sessionEntries = useMemo(() => itemEntries(state.transcript), [state.transcript]);
  // A child view follows the runs and their transcripts; the session view does not, so the
  // memo's inputs are what the open view reads.
  const source = view.source;
  const runs = source ? state.runs : undefined;
  const runTranscripts = source ? state.runTranscripts : undefined;
  const entries = useMemo(
    () => (source && runs && runTranscripts ? childEntries(source, { runs, runTranscripts }) : sessionEntries),
    [source, runs, runTranscripts, sessionEntries],
  );
  return { liveNow, entries };
}

function TranscriptViewerImpl({ runtime, width, maxRows, close }: PaneProps) {
  const keys = useKeyTable();
  const [state] = useThrottledStore<RuntimeState>(runtime.store);
  const [, rerender] = useReducer((n: number) => n + 1, 0);
  const { flash, show } = useFlash(FLASH_MS);
  const ui = useRef<UiState>({ stack: [newView()], searching: false, draft: '', query: '' });

  const view = ui.current.stack[ui.current.stack.length - 1];
  const { liveNow, entries } = useViewEntries(state, view);
  const frame = useTicker(liveNow, LIVE_TICK_MS);

  const u = ui.current;
  const approvalWaiting = state.controls.approvals.length > 0;
  const footer = footerLines(width, u, approvalWaiting, flash);
  const mode: HintMode = approvalWaiting ? 'approval' : u.searching ? 'search' : u.stack.length > 1 ? 'child' : 'session';
  const parts = viewerParts(maxRows, width, mode, keys, footer);
  const contentWidth = Math.max(8, width - GUTTER);
  const ctx: LayoutContext = { width: contentWidth, frame, now: Date.now(), state, showReasoning: state.info.showReasoning };
  const linesOf = (i: number): Line[] => entryLines(entries[i], isExpanded(view, entries[i].key), ctx);
  const shape: nav.ListShape = { count: entries.length, body: parts.body, height: (i) => Math.max(1, linesOf(i).length) };
  settle(view, entries, shape);

  useViewerKeys(runtime, ui, { entries, shape, state, view, close, keys, contentWidth }, show, rerender);

  const rows = viewerRows({ width, parts, view, entries, shape, linesOf, query: u.query.trim(), liveNow, footer, mode, keys });
  return (
    <Box flexDirection="column" width={width}>
      {rows.slice(0, Math.max(1, maxRows)).map((line, i) => (
        <LineView key={i} line={line} />
      ))}
    </Box>
  );
}

/** The App re-renders on every streamed frame and hands a fresh `close` each time; the
 * viewer redraws on its own snapshot timer, on keys, or when its size changes. */
export const TranscriptViewer = memo(
  TranscriptViewerImpl,
  (a, b) => a.runtime === b.runtime && a.width === b.width && a.maxRows === b.maxRows,
);
