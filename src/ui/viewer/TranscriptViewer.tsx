// The transcript viewer (Ctrl+O, /transcript): the whole session — the turn in flight,
// history already printed to scrollback, restored items — as a virtual list that opens at
// the newest entry. Only the rows on screen are laid out; the store is read through a
// snapshot refreshed at most ~10 times a second. `o` opens a card's child transcript, one
// level per press, Esc goes back.
import React, { memo, useCallback, useMemo, useReducer, useRef } from 'react';
import { Box, useStdout } from 'ink';
import { usePaneInput } from '../panes/paneKeys.js';
import type { PaneInput } from '../hooks/useChatKeys.js';
import { useKeyTable, type KeyTable } from '../keys/keyTable.js';
import { keyText } from '../keys/tokenizer.js';
import { t } from '../../i18n/index.js';
import type { RuntimeState } from '../../model/state.js';
import { copyText, entriesText, entryText, type CopyOutcome } from '../cards/copy.js';
import { highlight, lineText, row, wrapBlock } from '../cards/lines.js';
import type { Line, Seg } from '../text/segments.js';
import { LineView } from '../components/LineView.js';
import { isAlive } from '../cards/live.js';
import { useThrottledStore } from '../hooks/useThrottledStore.js';
import { FLASH_COLORS, useFlash } from '../hooks/useFlash.js';
import { useTicker } from '../hooks/useTicker.js';
import type { PaneProps } from '../panes/types.js';
import { childEntries, childNames, childSourceFor, loadRecorded, type ChildSource, type RecordedSession } from './childSource.js';
import { entryLines, itemEntries, type LayoutContext, type ViewEntry } from './entries.js';
import { hintLines, type HintMode } from './hints.js';
import { matchIndices, nextMatch } from './search.js';
import * as nav from './viewport.js';
import { apply, childText, entryItems, isExpanded, newView, settle, toggle, type UiState } from './viewState.js';

/** Spinners and elapsed times in live cards move at this pace while something runs. */
const LIVE_TICK_MS = 250;
const FLASH_MS = 4000;
const GUTTER = 2;
const MAX_FLASH_ROWS = 3;

const SELECTED_FIRST: Seg = { text: '▸ ', color: 'cyan', bold: true };
const SELECTED_REST: Seg = { text: '│ ', color: 'cyan', bold: true };
const PLAIN_GUTTER: Seg = { text: '  ' };
const EMPTY_LINE: Line = [];
const guttered = new WeakMap<Line, Line>();

/** The same array for the same line, so rows that did not change are not redrawn by React. */
function withGutter(line: Line): Line {
  let out = guttered.get(line);
  if (!out) {
    out = [PLAIN_GUTTER, ...line];
    guttered.set(line, out);
  }
  return out;
}

/** Rows for each part, so the whole pane never exceeds maxRows at any size. */
function budget(maxRows: number, hintRows: number): { header: number; footer: number; hints: number; body: number } {
  const rows = Math.max(1, maxRows);
  const header = rows >= 2 ? 1 : 0;
  const footer = rows >= 3 ? 1 : 0;
  // The hints get the rows they wrap to (at 50–60 columns, three), as /agents gives its
  // own, so "Esc close" is never cut off; only a short pane keeps them to one or two.
  const hints = rows >= 10 ? Math.min(hintRows, Math.max(2, Math.floor(rows / 4))) : rows >= 5 ? 1 : 0;
  return { header, footer, hints, body: Math.max(1, rows - header - footer - hints) };
}

/** A key while the search prompt is open: edits the draft (a paste on one line, without
 * control characters), Esc closes the prompt; Enter closes it with the draft as the query
 * and returns true (search from the selection). */
function searchPromptKey(u: UiState, event: PaneInput, table: KeyTable): boolean {
  // eslint-disable-next-line no-control-regex -- control characters are what it matches
  if (event.kind === 'paste') u.draft += event.text.replace(/[\r\n]+/g, ' ').replace(/[\u0000-\u001f\u007f]/g, '');
  else if (table.is('chat.send', event)) {
    u.searching = false;
    u.query = u.draft.trim();
    return true;
  } else if (table.is('chat.interrupt', event)) {
    u.searching = false;
  } else if (table.is('edit.backspace', event) || table.is('edit.delete', event)) {
    u.draft = Array.from(u.draft).slice(0, -1).join('');
  } else {
    u.draft += keyText(event);
  }
  return false;
}

/** `o` on an entry: its child's transcript as a new view, or why there is none (a tool card
 * without a child warns; a recorded child that cannot be read is an error). */
function childView(
  entry: ViewEntry | undefined,
  state: RuntimeState,
  recordedSession: () => RecordedSession,
): { view: ReturnType<typeof newView> } | { level: 'warn' | 'error'; text: string } {
  if (!entry || entry.kind !== 'item' || entry.item.kind !== 'tool') return { level: 'warn', text: t('transcript:viewer.noChild') };
  let source: ChildSource | undefined;
  try {
    source = childSourceFor(entry.item, state, recordedSession);
  } catch (err) {
    return { level: 'error', text: (err as Error).message };
  }
  if (!source) return { level: 'warn', text: t('transcript:viewer.noChild') };
  return { view: newView(source, childNames(source, state)) };
}

function TranscriptViewerImpl({ runtime, width, maxRows, close }: PaneProps) {
  const store = runtime.store;
  const keys = useKeyTable();
  const [state] = useThrottledStore<RuntimeState>(store);
  const { stdout } = useStdout();
  const [, rerender] = useReducer((n: number) => n + 1, 0);
  const { flash, show } = useFlash(FLASH_MS);
  const ui = useRef<UiState>({ stack: [newView()], searching: false, draft: '', query: '' });
  const recorded = useRef<RecordedSession | undefined>(undefined);

  const view = ui.current.stack[ui.current.stack.length - 1];
  const liveNow = useMemo(
    () =>
      state.activeRootRunId !== undefined ||
      state.runOrder.some((id) => {
        const r = state.runs.get(id);
        return r !== undefined && isAlive(r);
      }),
    [state.activeRootRunId, state.runOrder, state.runs],
  );
  const frame = useTicker(liveNow, LIVE_TICK_MS);

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

  // The footer: the search prompt, an approval notice, or a flash (a copy's flash names a
  // file path, so it may borrow up to two rows from the body to show it whole).
  const u = ui.current;
  const approvalWaiting = state.controls.approvals.length > 0;
  let footer: Line[];
  if (approvalWaiting) footer = [row(width, { text: t('transcript:viewer.approvalWaiting'), color: 'yellow' })];
  else if (u.searching) footer = [row(width, { text: '/', bold: true, color: 'cyan' }, { text: u.draft }, { text: '▏', color: 'cyan' })];
  else if (flash) footer = wrapBlock(flash.text, width, 0, { color: FLASH_COLORS[flash.level] }).slice(0, MAX_FLASH_ROWS);
  else footer = [[]];
  const mode: HintMode = approvalWaiting ? 'approval' : u.searching ? 'search' : u.stack.length > 1 ? 'child' : 'session';
  const base = budget(maxRows, hintLines(mode, width, Number.MAX_SAFE_INTEGER, keys).length);
  const borrowed = base.footer ? Math.min(footer.length - 1, base.body - 1) : 0;
  const parts = { ...base, footer: base.footer ? 1 + borrowed : 0, body: base.body - borrowed };
  const contentWidth = Math.max(8, width - GUTTER);
  const ctx: LayoutContext = { width: contentWidth, frame, now: Date.now(), state, showReasoning: state.info.showReasoning };
  const linesOf = (i: number): Line[] => entryLines(entries[i], isExpanded(view, entries[i].key), ctx);
  const shape: nav.ListShape = { count: entries.length, body: parts.body, height: (i) => Math.max(1, linesOf(i).length) };
  settle(view, entries, shape);

  const latest = useRef({ entries, shape, state, view, close, keys });
  latest.current = { entries, shape, state, view, close, keys };

  const recordedSession = useCallback((): RecordedSession => {
    recorded.current ??= loadRecorded(runtime);
    return recorded.current;
  }, [runtime]);

  const copy = useCallback(
    (text: string, what: string) => {
      const out: CopyOutcome = copyText(
        text,
        what,
        (data) => stdout.write(data),
        (data, name) => runtime.exportText(data, name),
      );
      show(out.message, out.level);
    },
    [show, stdout, runtime],
  );

  const contentWidthRef = useRef(contentWidth);
  contentWidthRef.current = contentWidth;
  const jumpTo = useCallback((index: number, query: string) => {
    const { entries: list, shape: sh, view: v, state: st } = latest.current;
    const entry = list[index];
    if (!entry) return;
    // A match hidden in a collapsed card opens the card, so the match is on screen.
    if (!isExpanded(v, entry.key)) {
      const ctxNow: LayoutContext = { width: contentWidthRef.current, frame: 0, now: Date.now(), state: st };
      const collapsed = entryLines(entry, false, ctxNow).map(lineText).join('\n').toLowerCase();
      if (!collapsed.includes(query.toLowerCase())) {
        toggle(v, entry.key);
      }
    }
    apply(v, nav.reveal({ sel: index, vp: v.vp }, sh, index < v.sel ? 'up' : 'down'), list, sh);
  }, []);

  const search = useCallback(
    (dir: 'older' | 'newer', inclusive: boolean) => {
      const u = ui.current;
      const { entries: list, view: v } = latest.current;
      if (!u.query) {
        show(t('transcript:viewer.noQuery'), 'warn');
        return;
      }
      const matches = matchIndices(list, u.query);
      const at = nextMatch(matches, v.sel, dir, inclusive);
      if (at === undefined) {
        show(t('transcript:viewer.noMatch', { query: u.query }), 'warn');
        return;
      }
      jumpTo(at, u.query);
      show(t('transcript:viewer.match', { k: matches.indexOf(at) + 1, n: matches.length, query: u.query }));
    },
    [jumpTo, show],
  );

  const onKey = useCallback(
    (event: PaneInput) => {
      const u = ui.current;
      const { entries: list, shape: sh, view: v, state: st, keys: table } = latest.current;
      // The approval prompt above owns the keyboard until it is answered.
      if (store.getState().controls.approvals.length > 0) return;
      if (u.searching) {
        if (searchPromptKey(u, event, table)) search('older', true);
        rerender();
        return;
      }
      if (event.kind === 'paste') return;
      const is = (c: Parameters<typeof table.is>[0]) => table.is(c, event);
      const move = (n: nav.Nav) => apply(v, n, list, sh);
      const here: nav.Nav = { sel: v.sel, vp: v.vp };
      if (is('viewer.close')) {
        if (u.stack.length > 1) u.stack.pop();
        else {
          latest.current.close();
          return;
        }
      } else if (is('viewer.up')) move(nav.moveUp(here, sh));
      else if (is('viewer.down')) move(nav.moveDown(here, sh));
      else if (is('viewer.page_up')) move(nav.pageUp(here, sh));
      else if (is('viewer.page_down')) move(nav.pageDown(here, sh));
      else if (is('viewer.first')) move(nav.home());
      else if (is('viewer.last')) move(nav.end(sh));
      else if (is('viewer.expand')) {
        const entry = list[v.sel];
        if (entry) {
          const was = isExpanded(v, entry.key);
          toggle(v, entry.key);
          move(was ? nav.reveal(here, sh, 'auto') : nav.revealGrown(here, sh));
        }
      } else if (is('viewer.expand_all')) {
        v.expandAll = !v.expandAll;
        v.toggled.clear();
        move(nav.reveal({ sel: v.sel, vp: { top: v.sel, offset: 0 } }, sh, 'auto'));
        show(v.expandAll ? t('transcript:viewer.allExpanded') : t('transcript:viewer.allCollapsed'));
      } else if (is('viewer.open')) {
        const opened = childView(list[v.sel], st, recordedSession);
        if ('view' in opened) u.stack.push(opened.view);
        else if (opened.level === 'error') return show(opened.text, 'error');
        else show(opened.text, 'warn');
      } else if (is('viewer.copy')) {
        const entry = list[v.sel];
        if (!entry) show(t('transcript:viewer.nothingToCopy'), 'warn');
        else if (entry.kind === 'child') copy(childText(entry, entryItems(entry, list, v.sel)), `${entry.run.alias}-transcript`);
        else copy(entryText(entry.item), entry.item.kind === 'tool' ? `${entry.item.name}-${entry.item.callId}` : entry.item.kind);
      } else if (is('viewer.copy_all')) {
        const items = list.flatMap((e) => (e.kind === 'item' ? [e.item] : []));
        if (items.length === 0) show(t('transcript:viewer.nothingToCopy'), 'warn');
        else copy(entriesText(items), v.names ? `${v.names.join('-')}-transcript` : 'session-transcript');
      } else if (is('viewer.search')) {
        u.searching = true;
        u.draft = '';
      } else if (is('viewer.next_match')) search('older', false);
      else if (is('viewer.prev_match')) search('newer', false);
      else return;
      rerender();
    },
    [copy, recordedSession, search, show, store],
  );
  usePaneInput(onKey);

  // ---- drawing ----
  const rows: Line[] = [];
  if (parts.header) {
    const title: Seg[] = [{ text: t('transcript:viewer.title'), bold: true }];
    if (view.names) title.push({ text: ` › ${view.names.join(', ')}`, bold: true, color: 'cyan' });
    if (entries.length > 0)
      title.push({ text: `  ${t('transcript:viewer.position', { at: view.sel + 1, count: entries.length })}`, dim: true });
    if (liveNow) title.push({ text: `  ● ${t('transcript:viewer.live')}`, color: 'cyan' });
    if (view.expandAll) title.push({ text: `  ${t('transcript:viewer.expandedAll')}`, dim: true });
    rows.push(row(width, ...title));
  }
  const visible = nav.visibleRows(view.vp, shape);
  const query = u.query.trim();
  for (const r of visible) {
    const line = linesOf(r.entry)[r.line] ?? EMPTY_LINE;
    const selected = r.entry === view.sel;
    if (selected) rows.push([r.line === 0 ? SELECTED_FIRST : SELECTED_REST, ...(query ? highlight(line, query) : line)]);
    else rows.push(query ? [PLAIN_GUTTER, ...highlight(line, query)] : withGutter(line));
  }
  if (entries.length === 0) rows.push(row(width, { text: '  ' }, { text: t('transcript:viewer.empty'), dim: true }));
  const bodyEnd = parts.header + parts.body;
  while (rows.length < bodyEnd) rows.push(EMPTY_LINE);
  rows.push(...footer.slice(0, parts.footer));
  rows.push(...hintLines(mode, width, parts.hints, keys));

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
