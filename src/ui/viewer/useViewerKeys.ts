// The viewer's keys: moving the selection, expanding cards, opening a card's child
// transcript (one level per `o`, Esc back), copying an entry or the whole view, and the
// search prompt with its next/previous match. Handlers read the latest render's entries and
// layout through a ref, so a burst of keys before a re-render acts on the current list.
import { useCallback, useRef } from 'react';
import { useStdout } from 'ink';
import { t } from '../../i18n/index.js';
import type { RuntimeState } from '../../model/state.js';
import type { RuntimeApi } from '../../runtime/runtimeApi.js';
import { copyText, entriesText, entryText, type CopyOutcome } from '../cards/copy.js';
import { lineText } from '../cards/lines.js';
import type { PaneInput } from '../hooks/useChatKeys.js';
import type { FlashApi } from '../hooks/useFlash.js';
import type { KeyTable } from '../keys/keyTable.js';
import { keyText } from '../keys/tokenizer.js';
import { usePaneInput } from '../panes/paneKeys.js';
import { childNames, childSourceFor, loadRecorded, type ChildSource, type RecordedSession } from './childSource.js';
import { entryLines, type LayoutContext, type ViewEntry } from './entries.js';
import { matchIndices, nextMatch } from './search.js';
import * as nav from './viewport.js';
import { apply, childText, entryItems, isExpanded, newView, toggle, type UiState, type ViewState } from './viewState.js';

/** What the keys act on, as of the latest render. */
export interface ViewerNow {
  entries: ViewEntry[];
  shape: nav.ListShape;
  state: RuntimeState;
  view: ViewState;
  close(): void;
  keys: KeyTable;
  contentWidth: number;
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

/** Moves the selection to the entry at `index`; a match hidden in a collapsed card opens
 * the card, so the match is on screen. */
function jumpTo({ entries: list, shape: sh, view: v, state: st, contentWidth }: ViewerNow, index: number, query: string): void {
  const entry = list[index];
  if (!entry) return;
  if (!isExpanded(v, entry.key)) {
    const ctxNow: LayoutContext = { width: contentWidth, frame: 0, now: Date.now(), state: st };
    const collapsed = entryLines(entry, false, ctxNow).map(lineText).join('\n').toLowerCase();
    if (!collapsed.includes(query.toLowerCase())) {
      toggle(v, entry.key);
    }
  }
  apply(v, nav.reveal({ sel: index, vp: v.vp }, sh, index < v.sel ? 'up' : 'down'), list, sh);
}

/** A key that moves the selection or changes what is expanded; false when it is not one. */
type IsKey = (command: Parameters<KeyTable['is']>[0]) => boolean;

function navigationKey({ entries: list, shape: sh, view: v }: ViewerNow, is: IsKey): boolean {
  const move = (n: nav.Nav) => apply(v, n, list, sh);
  const here: nav.Nav = { sel: v.sel, vp: v.vp };
  if (is('viewer.up')) move(nav.moveUp(here, sh));
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
  } else return false;
  return true;
}

/** The next match of the query, older or newer than the selection (or at it, when
 * `inclusive`): selected, with a flash saying which match of how many, or why there is none. */
function searchFor(now: ViewerNow, u: UiState, show: FlashApi['show'], dir: 'older' | 'newer', inclusive: boolean): void {
  if (!u.query) {
    show(t('transcript:viewer.noQuery'), 'warn');
    return;
  }
  const matches = matchIndices(now.entries, u.query);
  const at = nextMatch(matches, now.view.sel, dir, inclusive);
  if (at === undefined) {
    show(t('transcript:viewer.noMatch', { query: u.query }), 'warn');
    return;
  }
  jumpTo(now, at, u.query);
  show(t('transcript:viewer.match', { k: matches.indexOf(at) + 1, n: matches.length, query: u.query }));
}

/** What the action keys call back into. */
interface Actions {
  copy(text: string, what: string): void;
  search(dir: 'older' | 'newer', inclusive: boolean): void;
  show: FlashApi['show'];
  recordedSession(): RecordedSession;
}

/** A key that acts on the view (expand all, open a child, copy, search); false when it is
 * not one, or when nothing is to be redrawn (a child that cannot be read is only flashed). */
function actionKey({ entries: list, shape: sh, view: v, state: st }: ViewerNow, u: UiState, is: IsKey, act: Actions): boolean {
  if (is('viewer.expand_all')) {
    v.expandAll = !v.expandAll;
    v.toggled.clear();
    apply(v, nav.reveal({ sel: v.sel, vp: { top: v.sel, offset: 0 } }, sh, 'auto'), list, sh);
    act.show(v.expandAll ? t('transcript:viewer.allExpanded') : t('transcript:viewer.allCollapsed'));
  } else if (is('viewer.open')) {
    const opened = childView(list[v.sel], st, act.recordedSession);
    if ('view' in opened) u.stack.push(opened.view);
    else if (opened.level === 'error') {
      act.show(opened.text, 'error');
      return false;
    } else act.show(opened.text, 'warn');
  } else if (is('viewer.copy')) {
    const entry = list[v.sel];
    if (!entry) act.show(t('transcript:viewer.nothingToCopy'), 'warn');
    else if (entry.kind === 'child') act.copy(childText(entry, entryItems(entry, list, v.sel)), `${entry.run.alias}-transcript`);
    else act.copy(entryText(entry.item), entry.item.kind === 'tool' ? `${entry.item.name}-${entry.item.callId}` : entry.item.kind);
  } else if (is('viewer.copy_all')) {
    const items = list.flatMap((e) => (e.kind === 'item' ? [e.item] : []));
    if (items.length === 0) act.show(t('transcript:viewer.nothingToCopy'), 'warn');
    else act.copy(entriesText(items), v.names ? `${v.names.join('-')}-transcript` : 'session-transcript');
  } else if (is('viewer.search')) {
    u.searching = true;
    u.draft = '';
  } else if (is('viewer.next_match')) act.search('older', false);
  else if (is('viewer.prev_match')) act.search('newer', false);
  else return false;
  return true;
}

export function useViewerKeys(
  runtime: RuntimeApi,
  ui: { current: UiState },
  now: ViewerNow,
  show: FlashApi['show'],
  rerender: () => void,
): void {
  const store = runtime.store;
  const { stdout } = useStdout();
  const recorded = useRef<RecordedSession | undefined>(undefined);
  const latest = useRef(now);
  latest.current = now;

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

  const search = useCallback(
    (dir: 'older' | 'newer', inclusive: boolean) => searchFor(latest.current, ui.current, show, dir, inclusive),
    [ui, show],
  );

  const onKey = useCallback(
    (event: PaneInput) => {
      const u = ui.current;
      const { keys: table } = latest.current;
      // The approval prompt above owns the keyboard until it is answered.
      if (store.getState().controls.approvals.length > 0) return;
      if (u.searching) {
        if (searchPromptKey(u, event, table)) search('older', true);
        rerender();
        return;
      }
      if (event.kind === 'paste') return;
      const is: IsKey = (c) => table.is(c, event);
      if (is('viewer.close')) {
        if (u.stack.length > 1) u.stack.pop();
        else {
          latest.current.close();
          return;
        }
      } else if (!navigationKey(latest.current, is) && !actionKey(latest.current, u, is, { copy, search, show, recordedSession })) {
        return;
      }
      rerender();
    },
    [ui, copy, recordedSession, rerender, search, show, store],
  );
  usePaneInput(onKey);
}
