// The /agents pane: every run of the session as a live tree, in place of the input area.
// It redraws from a throttled store snapshot (at most ~10 times a second), builds the tree
// once per refresh, and renders only the rows that fit, keeping the selection in view.
import React, { memo, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { MergeReview } from '../../model/worktree.js';
import { runName } from '../../model/run.js';
import { reviewLines } from './reviewLines.js';
import { mergeAction, mergeKey, queuedMerge } from './mergeKeys.js';
import { Box } from 'ink';
import { usePaneInput } from '../panes/paneKeys.js';
import type { PaneInput } from '../hooks/useChatKeys.js';
import { useKeyTable } from '../keys/keyTable.js';
import { currentLanguage, t } from '../../i18n/index.js';
import type { RuntimeApi } from '../../runtime/runtimeApi.js';
import { runLabel } from '../../runtime/runSelection.js';
import { useTicker } from '../hooks/useTicker.js';
import type { PaneProps } from '../panes/types.js';
import { killAll, killRun, setSpawning, steerRun, togglePause, type ActionResult } from './actions.js';
import { headerPieces, hintLines, packHeader, runawayLines, type HintMode } from './header.js';
import { LineView } from '../components/LineView.js';
import { chooseColumns, formatRow } from './rowFormat.js';
import { wrapSeg } from './segments.js';
import { fitLine } from '../text/segments.js';
import { RunTranscriptView, scrollTop, transcriptWindow, type TranscriptTop } from './RunTranscriptView.js';
import { runItems, transcriptLines } from './transcriptLines.js';
import { runObservedLines } from './observedLines.js';
import { SteerPrompt } from './SteerPrompt.js';
import { buildTree, FILTERS, topLiveRuns, type AgentsFilter } from './tree.js';
import { FLASH_COLORS, useFlash } from '../hooks/useFlash.js';
import type { KeyPress } from '../keys/tokenizer.js';
import { useThrottledStore } from '../hooks/useThrottledStore.js';
import { useRefStore } from '../hooks/useRefStore.js';
import { asksByRun } from '../approval/asks.js';
import { anyRunLive, budget, clockMoves, NO_SELECTION, rowIndex, samePaneState, type Selection } from './paneModel.js';
import type { RuntimeState } from '../../model/state.js';

export interface AgentsPaneProps extends PaneProps {
  /** [delegation] archive_after_minutes: finished runs leave the list this long after ending. */
  archiveAfterMinutes: number;
}

type Mode =
  | { kind: 'list' }
  | { kind: 'transcript'; runId: string }
  // A queued merge's diff, files and conflict check (issue #23).
  | { kind: 'review'; runId: string }
  | { kind: 'steer'; runId: string }
  | { kind: 'confirm' };

const identity = (s: RuntimeState) => s;

/** The tree is rebuilt this often while anything is live, when the store is quiet:
 * finished runs leave it archive_after_minutes after they end. */
const ARCHIVE_TICK_MS = 60_000;

function AgentsPaneImpl({ runtime, width, maxRows, close, archiveAfterMinutes, focusApproval }: AgentsPaneProps) {
  // The mode the refreshes compare for; set before the mode's state, so a refresh at once
  // (setMode) already compares what the new mode reads.
  const readsTranscripts = useRef(false);
  const samePane = useCallback((a: RuntimeState, b: RuntimeState) => samePaneState(a, b, readsTranscripts.current), []);
  const [state, refresh] = useThrottledStore(runtime.store, identity, { equal: samePane });
  const keys = useKeyTable();
  const [filter, setFilter] = useState<AgentsFilter>('all');
  const [mode, setModeState] = useState<Mode>({ kind: 'list' });
  // The selection is a ref store, not a state hook: React renders a useSyncExternalStore
  // change in the microtask after the key handler (as the chat line's keys), where a state
  // update waits for the scheduler's next slot behind every store update and stream chunk
  // that turn of the event loop still holds (1,000 children starting or answering). The
  // render it makes is the pane's alone: the App's pending updates are not in it.
  const selection = useRefStore<Selection>(NO_SELECTION);
  const { flash, show: flashOnly } = useFlash();
  // Every action ends in a flash; the same frame shows the action's effect on the rows.
  const showFlash = useCallback<typeof flashOnly>(
    (...args) => {
      refresh();
      flashOnly(...args);
    },
    [flashOnly, refresh],
  );
  const [top, setTop] = useState<TranscriptTop>(null);
  const offset = useRef(0);
  const lastIndex = useRef(0);

  // Elapsed times move while the store is quiet: the pane redraws each second while a row
  // on screen shows a running clock (set after each render, from the rows drawn); the rows
  // on screen read the clock when they are formatted. The tree reads it only for the
  // archive window, so it is rebuilt once a minute while anything is live.
  const liveNow = useMemo(() => anyRunLive(state), [state]);
  const [clockShown, setClockShown] = useState(false);
  useTicker(clockShown, 1000);
  const archiveTick = useTicker(liveNow, ARCHIVE_TICK_MS);
  const view = useMemo(() => {
    void archiveTick;
    return buildTree(state, archiveAfterMinutes, filter, Date.now());
  }, [state, archiveAfterMinutes, filter, archiveTick]);
  const rows = view.rows;
  const now = Date.now();
  // Column layout for the whole list, once per refresh, so columns stay put while scrolling.
  const { posWidth, metrics, sumWidth } = useMemo(() => {
    // The left margin; the run's number is in its label (researcher#3).
    const pw = 1;
    return { posWidth: pw, ...chooseColumns(rows, width, pw) };
  }, [rows, width]);

  let index = rowIndex(view, selection.value);
  if (index < 0) index = Math.min(lastIndex.current, Math.max(0, rows.length - 1));
  lastIndex.current = index;

  // Runs whose ask waits for the operator (oldest ask per run): marked, and Enter answers.
  const askOf = useMemo(() => asksByRun(state.controls.approvals), [state.controls.approvals]);
  const selectedAsks = rows[index] !== undefined && askOf.has(rows[index].run.id);
  const hintMode: HintMode =
    mode.kind === 'transcript'
      ? 'transcript'
      : mode.kind === 'review'
        ? 'review'
        : mode.kind === 'steer'
          ? 'steer'
          : mode.kind === 'confirm'
            ? 'confirm'
            : selectedAsks
              ? 'ask'
              : rows[index] !== undefined && queuedMerge(rows[index].run)
                ? 'merge'
                : 'list';
  const tripped = state.controls.runaway;
  const bannerRoot = tripped.rootRunId && state.runs.get(tripped.rootRunId) ? runLabel(state, tripped.rootRunId) : undefined;
  // What the header, banner and hints say changes with the tree or the mode; a key that
  // moves the selection changes only the position, so the rest (translated texts) is kept.
  const { totals } = view;
  const spawnPaused = state.controls.spawnPaused;
  // The texts are the language's: kept per language too.
  const language = currentLanguage();
  const pieces = useMemo(() => {
    void language;
    return headerPieces({ totals, spawnPaused, filter });
  }, [totals, spawnPaused, filter, language]);
  const banner = useMemo(() => {
    void language;
    return runawayLines(state.controls, bannerRoot, width);
  }, [state.controls, bannerRoot, width, language]);
  const hints = useMemo(() => {
    void language;
    return hintLines(hintMode, width, keys);
  }, [hintMode, width, keys, language]);
  const parts = budget(
    maxRows,
    packHeader(pieces, { selected: index, count: rows.length, width }),
    banner,
    hints,
    mode.kind === 'steer' || mode.kind === 'confirm',
  );
  const visible = Math.max(1, parts.body);
  let start = Math.min(offset.current, Math.max(0, rows.length - visible));
  if (index < start) start = index;
  if (index >= start + visible) start = index - visible + 1;
  offset.current = Math.max(0, start);

  const clockOnScreen = mode.kind === 'list' && rows.slice(start, start + visible).some((r) => clockMoves(r.run));
  useEffect(() => setClockShown(clockOnScreen), [clockOnScreen]);

  const transcriptRun = mode.kind === 'transcript' ? mode.runId : undefined;
  const tLines = useMemo(
    () =>
      transcriptRun
        ? [
            ...runObservedLines(state, transcriptRun, width),
            ...transcriptLines(runItems(state, transcriptRun), width, state.info.showReasoning),
          ]
        : [],
    [state, transcriptRun, width],
  );
  // The review loads once per opening (the check reads the caller's tree) and again after
  // a merge key acted on it.
  const reviewRun = mode.kind === 'review' ? mode.runId : undefined;
  const [review, setReview] = useState<MergeReview | null | undefined>(undefined);
  const [reviewAsk, setReviewAsk] = useState(0);
  useEffect(() => {
    if (!reviewRun) return;
    let live = true;
    setReview(undefined);
    const api = runtime.worktrees;
    void (api ? api.review(reviewRun) : Promise.resolve(undefined)).then(
      (r) => live && setReview(r ?? null),
      () => live && setReview(null),
    );
    return () => {
      live = false;
    };
  }, [reviewRun, reviewAsk, runtime]);
  const reviewWt = reviewRun ? state.runs.get(reviewRun)?.worktree : undefined;
  const rLines = useMemo(() => (reviewRun ? reviewLines(reviewWt, review, width) : []), [reviewRun, reviewWt, review, width]);
  const shownLines = mode.kind === 'review' ? rLines : tLines;
  const win = transcriptWindow(shownLines.length, top, parts.body);

  // Key handlers are stable (Ink resubscribes on change and could drop a key meanwhile);
  // they read the latest render through this.
  const latest = useRef({ rows, index, mode, filter, visible, runtime, close, win, keys, focusApproval, selection });
  latest.current = { rows, index, mode, filter, visible, runtime, close, win, keys, focusApproval, selection };

  const setMode = useCallback(
    (next: Mode) => {
      latest.current.mode = next;
      readsTranscripts.current = next.kind === 'transcript';
      // The last snapshot may predate transcript changes the list did not take.
      refresh();
      if (next.kind === 'transcript') setTop(null);
      if (next.kind === 'review') setTop(0);
      setModeState(next);
    },
    [refresh],
  );
  const act = useCallback((result: ActionResult) => showFlash(result.text, result.level), [showFlash]);

  const steerInput = useRef<((event: PaneInput) => void) | null>(null);

  const transcriptKey = useCallback(
    (k: KeyPress) => {
      const { win, keys: table } = latest.current;
      const { lastTop, body: page } = win;
      const by = (d: number) => setTop((cur) => scrollTop(cur, d, lastTop));
      if (table.is('agents.close', k)) setMode({ kind: 'list' });
      else if (table.is('agents.up', k)) by(-1);
      else if (table.is('agents.down', k)) by(1);
      else if (table.is('agents.page_up', k)) by(-page);
      else if (table.is('agents.page_down', k)) by(page);
      else if (table.is('agents.first', k)) setTop(lastTop > 0 ? 0 : null);
      else if (table.is('agents.last', k)) setTop(null);
    },
    [setMode],
  );

  const onKey = useCallback(
    (event: PaneInput) => {
      const cur = latest.current;
      // The steer prompt takes every key and paste; Esc there cancels.
      if (cur.mode.kind === 'steer') {
        if (event.kind === 'key' && event.name === 'escape' && !event.ctrl && !event.meta) setMode({ kind: 'list' });
        else steerInput.current?.(event);
        return;
      }
      if (event.kind === 'paste') return;
      const k = event;
      const is = (c: Parameters<typeof cur.keys.is>[0]) => cur.keys.is(c, k);
      if (cur.mode.kind === 'transcript') return transcriptKey(k);
      if (cur.mode.kind === 'review') {
        const action = mergeKey(is);
        const run = cur.runtime.store.getState().runs.get(cur.mode.runId);
        if (!action || !run) return transcriptKey(k);
        // The merge keys act on the reviewed entry; the list shows what became of it.
        setMode({ kind: 'list' });
        void mergeAction(cur.runtime, run, action).then((r) => act(r));
        return;
      }
      const rt: RuntimeApi = cur.runtime;
      if (cur.mode.kind === 'confirm') {
        setMode({ kind: 'list' });
        if (is('agents.confirm')) showFlash(t('agents:actions.killedAll', { count: killAll(rt, false) }), 'info');
        else showFlash(t('agents:actions.killAllCancelled'), 'info');
        return;
      }
      if (is('agents.close')) return cur.close();
      const sel = cur.rows[cur.index];
      const move = (to: number) => {
        const i = Math.max(0, Math.min(cur.rows.length - 1, to));
        const row = cur.rows[i];
        if (!row) return;
        // Keys can arrive faster than renders: the next one moves from here.
        cur.index = i;
        cur.selection.set({ id: row.run.id, index: i });
      };
      if (is('agents.up')) move(cur.index - 1);
      else if (is('agents.down')) move(cur.index + 1);
      else if (is('agents.page_up')) move(cur.index - cur.visible);
      else if (is('agents.page_down')) move(cur.index + cur.visible);
      else if (is('agents.first')) move(0);
      else if (is('agents.last')) move(cur.rows.length - 1);
      else if (is('agents.spawn_pause')) act(setSpawning(rt, !rt.store.getState().controls.spawnPaused));
      else if (is('agents.filter')) {
        const next = FILTERS[(FILTERS.indexOf(cur.filter) + 1) % FILTERS.length];
        setFilter(next);
        showFlash(t('agents:pane.filterNow', { filter: t(`agents:filter.${next}`) }), 'info');
      } else if (is('agents.kill_all')) {
        if (topLiveRuns(rt.store.getState(), false).length === 0) return showFlash(t('agents:actions.nothingLive'), 'info');
        setMode({ kind: 'confirm' });
        showFlash(t('agents:pane.confirmKillAll'), 'warn', 0);
      } else if (!sel) {
        if (is('agents.pause') || is('agents.kill') || is('agents.steer') || is('agents.open'))
          showFlash(t('agents:pane.noSelection'), 'warn');
      } else if (is('agents.merge_view')) {
        if (queuedMerge(sel.run)) {
          setReviewAsk((n) => n + 1);
          setMode({ kind: 'review', runId: sel.run.id });
        } else showFlash(t('worktrees:keys.nothing', { run: runName(sel.run) }), 'warn');
      } else if (mergeKey(is)) {
        const action = mergeKey(is)!;
        void mergeAction(rt, sel.run, action).then((r) => act(r));
      } else if (is('agents.pause')) act(togglePause(rt, sel.run.id));
      else if (is('agents.kill')) act(killRun(rt, sel.run.id));
      else if (is('agents.steer')) setMode({ kind: 'steer', runId: sel.run.id });
      else if (is('agents.open')) {
        // Read now, not from the last refresh: the ask may have just been answered.
        const ask = asksByRun(rt.store.getState().controls.approvals).get(sel.run.id);
        if (ask && cur.focusApproval) {
          cur.focusApproval(ask);
          showFlash(t('agents:pane.answerAbove', { label: runLabel(rt.store.getState(), sel.run.id) }), 'warn');
        } else setMode({ kind: 'transcript', runId: sel.run.id });
      }
    },
    [act, setMode, showFlash, transcriptKey],
  );
  usePaneInput(onKey);

  const sendSteer = useCallback(
    (message: string) => {
      const cur = latest.current;
      if (cur.mode.kind !== 'steer') return;
      if (message.trim()) act(steerRun(cur.runtime, cur.mode.runId, message));
      setMode({ kind: 'list' });
    },
    [act, setMode],
  );

  let body: React.ReactNode;
  if (mode.kind === 'transcript' || mode.kind === 'review') {
    body = <RunTranscriptView state={state} runId={mode.runId} lines={shownLines} win={win} width={width} />;
  } else {
    const shown = rows.slice(start, start + visible);
    const lines: React.ReactNode[] = shown.map((row, i) => (
      <LineView
        key={row.run.id}
        line={formatRow(row, width, posWidth, metrics, now, askOf.has(row.run.id), sumWidth)}
        inverse={start + i === index}
      />
    ));
    // The hint fills the room under the rows while no child has appeared yet.
    if (view.totals.children === 0 || rows.length === 0) {
      const key = rows.length === 0 && view.totals.children > 0 ? 'pane.noMatch' : 'pane.empty';
      const hint = wrapSeg(t(`agents:${key}`, { filter: t(`agents:filter.${filter}`) }), width, { dim: true });
      for (const [i, l] of hint.slice(0, Math.max(0, parts.body - shown.length)).entries())
        lines.push(<LineView key={`hint${i}`} line={l} />);
    }
    body = lines;
  }

  let footer: React.ReactNode = null;
  if (parts.footer) {
    if (mode.kind === 'steer') {
      footer = <SteerPrompt label={runLabel(state, mode.runId)} width={width} onSubmit={sendSteer} inputRef={steerInput} />;
    } else if (flash) {
      footer = <LineView line={fitLine([{ text: flash.text, color: FLASH_COLORS[flash.level] }], width)} />;
    } else footer = <LineView line={[]} />;
  }

  return (
    <Box flexDirection="column" width={width}>
      {parts.header.map((l, i) => (
        <LineView key={`h${i}`} line={l} />
      ))}
      {parts.banner.map((l, i) => (
        <LineView key={`b${i}`} line={l} />
      ))}
      <Box flexDirection="column">{body}</Box>
      {footer}
      {parts.hints.map((l, i) => (
        <LineView key={`k${i}`} line={l} />
      ))}
    </Box>
  );
}

/** The App re-renders on every streamed frame and hands a fresh `close` each time; the pane
 * redraws only on its own refresh timer or when its size changes. */
export const AgentsPane = memo(
  AgentsPaneImpl,
  (a, b) => a.runtime === b.runtime && a.width === b.width && a.maxRows === b.maxRows && a.archiveAfterMinutes === b.archiveAfterMinutes,
);
