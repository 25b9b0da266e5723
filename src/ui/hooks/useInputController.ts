// State of the chat line: its text and cursor, the kill buffer, the history of sent
// messages, / suggestions. Kept in a ref so several keys arriving before a re-render all
// apply to the current state, one after the other.
import { useCallback, useMemo, useRef, useSyncExternalStore } from 'react';
import type { CommandRegistry, CompletionContext, SlashCommand } from '../commands/registry.js';
import * as ed from '../input/lineEditor.js';
import type { EditorState } from '../input/lineEditor.js';
import type { TranslationKey } from '../../i18n/index.js';

/** At most this many suggestions show under the input. */
export const MAX_SUGGESTIONS = 6;
/** Sent messages remembered for ↑/↓ (this process only). */
export const HISTORY_LIMIT = 500;

interface State extends EditorState {
  history: string[];
  /** Position in history while browsing it with ↑/↓; null when editing a fresh line. */
  historyIndex: number | null;
  draft: string;
  selected: number;
  /** The last text cut with Ctrl+U/K/W, for Ctrl+Y (consecutive kills joined). */
  killed: string;
  /** Whether the last change was a kill, so the next kill joins the buffer. */
  afterKill: boolean;
  /** Argument completions offered by Tab (cycled by ↑/↓ or more Tabs). */
  argChoices: string[];
}

/** What a key can do to the line. */
export type EditOp =
  | 'left'
  | 'right'
  | 'wordLeft'
  | 'wordRight'
  | 'lineStart'
  | 'lineEnd'
  | 'backspace'
  | 'delete'
  | 'killStart'
  | 'killEnd'
  | 'killWord'
  | 'yank';

export interface SuggestionView {
  /** The commands (or argument values) listed. */
  items: { name: string; summary?: TranslationKey }[];
  selected: number;
  /** How many matches there are in all (more than shown: the list scrolls). */
  total: number;
  /** Index of the first item shown. */
  offset: number;
  /** True when the items are argument values, not commands. */
  args: boolean;
}

export interface InputController {
  value: string;
  cursor: number;
  /** The value as of now, even from a handler created before the latest render. */
  read(): string;
  readCursor(): number;
  suggestions: SuggestionView;
  /** Whether the / menu (or argument choices) shows as of now, for ↑/↓ mid-burst. */
  hasSuggestions(): boolean;
  /** Inserts at the cursor (a paste is appended in one go). */
  insert(text: string): void;
  edit(op: EditOp): void;
  /** ↑ inside a multi-line value; false on its first line. */
  lineUp(): boolean;
  lineDown(): boolean;
  /** Replaces the whole value, cursor at the end. */
  set(value: string): void;
  historyPrev(): void;
  historyNext(): void;
  moveSuggestion(delta: number): void;
  complete(): boolean;
  clear(): void;
  /** Records a sent line in history and empties the input. */
  commit(sent: string): void;
}

/** Terminals send pasted line breaks as \r; keep one message with \n line breaks. */
export function normalizeNewlines(text: string): string {
  return text.replace(/\r\n?/g, '\n');
}

function commandMatches(registry: CommandRegistry, value: string): SlashCommand[] {
  if (!value.startsWith('/') || value.startsWith('//') || /\s/.test(value)) return [];
  return registry.complete(value.slice(1));
}

export function suggestionsFor(registry: CommandRegistry, value: string): SlashCommand[] {
  return commandMatches(registry, value).slice(0, MAX_SUGGESTIONS);
}

/** "/lang e" → the values /lang's argument may take that start with "e". */
export function argMatches(
  registry: CommandRegistry,
  value: string,
  ctx: CompletionContext,
): { choices: string[]; start: number } | undefined {
  const m = /^\/(\S+)\s+((?:\S+\s+)*)(\S*)$/.exec(value);
  if (!m || value.includes('\n')) return undefined;
  const command = registry.get(m[1]);
  if (!command?.completeArgs) return undefined;
  const before = m[2].split(/\s+/).filter(Boolean);
  const partial = m[3];
  const choices = command.completeArgs(before, partial, ctx).filter((c) => c.toLowerCase().startsWith(partial.toLowerCase()));
  return { choices, start: value.length - partial.length };
}

/**
 * Re-renders the line when its state changes. Through useSyncExternalStore, not a state
 * hook: React renders such an update synchronously (in the microtask after the key
 * handler), where a state update waits for the scheduler's next slot, behind whatever
 * stream chunks the same turn of the event loop still has to process. A typed key then
 * shows in the next frame even while a tree of children streams.
 */
function useLineVersion(): () => void {
  const store = useRef<{ version: number; listeners: Set<() => void> }>({ version: 0, listeners: new Set() });
  const subscribe = useCallback((listener: () => void) => {
    store.current.listeners.add(listener);
    return () => {
      store.current.listeners.delete(listener);
    };
  }, []);
  const snapshot = useCallback(() => store.current.version, []);
  useSyncExternalStore(subscribe, snapshot, snapshot);
  return useCallback(() => {
    store.current.version++;
    for (const listener of [...store.current.listeners]) listener();
  }, []);
}

const EMPTY_VIEW: SuggestionView = { items: [], selected: 0, total: 0, offset: 0, args: false };

export function useInputController(registry: CommandRegistry, completion: CompletionContext): InputController {
  const completionRef = useRef(completion);
  completionRef.current = completion;
  const state = useRef<State>({
    text: '',
    cursor: 0,
    history: [],
    historyIndex: null,
    draft: '',
    selected: 0,
    killed: '',
    afterKill: false,
    argChoices: [],
  });
  const rerender = useLineVersion();
  const update = useCallback(
    (patch: Partial<State>) => {
      // Any change but a kill ends a run of kills.
      state.current = { ...state.current, afterKill: false, ...patch };
      rerender();
    },
    [rerender],
  );
  /** An edit: leaves history browsing and resets the / menu. */
  const apply = useCallback(
    (next: EditorState, extra: Partial<State> = {}) => {
      const s = state.current;
      if (next.text === s.text && next.cursor === s.cursor && Object.keys(extra).length === 0) return;
      const changed = next.text !== s.text;
      update({ text: next.text, cursor: next.cursor, ...(changed ? { historyIndex: null, selected: 0, argChoices: [] } : {}), ...extra });
    },
    [update],
  );

  const insert = useCallback((text: string) => apply(ed.insert(state.current, text)), [apply]);

  const edit = useCallback(
    (op: EditOp) => {
      const s = state.current;
      switch (op) {
        case 'left':
          return apply(ed.left(s));
        case 'right':
          return apply(ed.right(s));
        case 'wordLeft':
          return apply(ed.wordLeft(s));
        case 'wordRight':
          return apply(ed.wordRight(s));
        case 'lineStart':
          return apply(ed.lineStart(s));
        case 'lineEnd':
          return apply(ed.lineEnd(s));
        case 'backspace':
          return apply(ed.backspace(s));
        case 'delete':
          return apply(ed.deleteForward(s));
        case 'yank':
          return apply(ed.insert(s, s.killed));
        case 'killStart':
        case 'killEnd':
        case 'killWord': {
          const cut = op === 'killStart' ? ed.killToStart(s) : op === 'killEnd' ? ed.killToEnd(s) : ed.killWordBack(s);
          if (!cut.killed) return;
          const killed = ed.joinKill(s.killed, cut.killed, op !== 'killEnd', s.afterKill);
          return apply(cut.state, { killed, afterKill: true });
        }
      }
    },
    [apply],
  );

  const lineUp = useCallback(() => {
    const next = ed.lineUp(state.current);
    if (!next) return false;
    apply(next);
    return true;
  }, [apply]);
  const lineDown = useCallback(() => {
    const next = ed.lineDown(state.current);
    if (!next) return false;
    apply(next);
    return true;
  }, [apply]);

  const set = useCallback(
    (value: string) => {
      const text = ed.cleanInsert(value);
      apply({ text, cursor: text.length });
    },
    [apply],
  );

  const historyPrev = useCallback(() => {
    const s = state.current;
    if (s.history.length === 0) return;
    const idx = s.historyIndex === null ? s.history.length - 1 : Math.max(0, s.historyIndex - 1);
    if (idx === s.historyIndex) return;
    const value = s.history[idx];
    update({ historyIndex: idx, draft: s.historyIndex === null ? s.text : s.draft, text: value, cursor: value.length });
  }, [update]);

  const historyNext = useCallback(() => {
    const s = state.current;
    if (s.historyIndex === null) return;
    const idx = s.historyIndex + 1;
    if (idx >= s.history.length) update({ historyIndex: null, text: s.draft, cursor: s.draft.length, draft: '' });
    else update({ historyIndex: idx, text: s.history[idx], cursor: s.history[idx].length });
  }, [update]);

  const moveSuggestion = useCallback(
    (delta: number) => {
      const s = state.current;
      const count = s.argChoices.length || commandMatches(registry, s.text).length;
      if (count === 0) return;
      update({ selected: (((s.selected + delta) % count) + count) % count });
    },
    [registry, update],
  );

  const complete = useCallback(() => {
    const s = state.current;
    const list = commandMatches(registry, s.text);
    if (list.length > 0) {
      const pick = list[Math.min(s.selected, list.length - 1)];
      const takesArgs = pick.maxArgs === undefined || pick.maxArgs > 0;
      const value = `/${pick.name}${takesArgs ? ' ' : ''}`;
      update({ text: value, cursor: value.length, selected: 0, historyIndex: null, argChoices: [] });
      return true;
    }
    const args = argMatches(registry, s.text, completionRef.current);
    if (!args || args.choices.length === 0) return false;
    // The first Tab lists the choices (and completes a single one); later Tabs take the
    // highlighted choice.
    if (args.choices.length === 1 || s.argChoices.length > 0) {
      const choices = s.argChoices.length > 0 ? s.argChoices : args.choices;
      const pick = choices[Math.min(s.selected, choices.length - 1)];
      const start = s.argChoices.length > 0 ? args.start : args.start;
      const value = `${s.text.slice(0, start)}${pick} `;
      update({ text: value, cursor: value.length, selected: 0, historyIndex: null, argChoices: [] });
      return true;
    }
    update({ argChoices: args.choices, selected: 0 });
    return true;
  }, [registry, update]);

  const clear = useCallback(() => {
    update({ text: '', cursor: 0, historyIndex: null, draft: '', selected: 0, argChoices: [] });
  }, [update]);

  const commit = useCallback(
    (sent: string) => {
      const s = state.current;
      const history = s.history[s.history.length - 1] === sent ? s.history : [...s.history, sent].slice(-HISTORY_LIMIT);
      update({ history, text: '', cursor: 0, historyIndex: null, draft: '', selected: 0, argChoices: [] });
    },
    [update],
  );

  const read = useCallback(() => state.current.text, []);
  const hasSuggestions = useCallback(() => {
    const st = state.current;
    return st.historyIndex === null && (st.argChoices.length > 0 || commandMatches(registry, st.text).length > 0);
  }, [registry]);
  const readCursor = useCallback(() => state.current.cursor, []);

  const s = state.current;
  // While browsing history, ↑/↓ keep browsing even past a recalled "/command".
  const browsing = s.historyIndex !== null;
  const suggestions = useMemo((): SuggestionView => {
    if (browsing) return EMPTY_VIEW;
    if (s.argChoices.length > 0)
      return windowOf(
        s.argChoices.map((name) => ({ name })),
        s.selected,
        true,
      );
    const all = commandMatches(registry, s.text);
    if (all.length === 0) return EMPTY_VIEW;
    return windowOf(
      all.map((c) => ({ name: `/${c.name}`, summary: c.summary })),
      s.selected,
      false,
    );
  }, [registry, s.text, browsing, s.selected, s.argChoices]);
  // A new object only when the line changes, so the memoized input line does not re-render
  // on every streamed frame.
  return useMemo(
    () => ({
      value: s.text,
      cursor: s.cursor,
      read,
      readCursor,
      suggestions,
      hasSuggestions,
      insert,
      edit,
      lineUp,
      lineDown,
      set,
      historyPrev,
      historyNext,
      moveSuggestion,
      complete,
      clear,
      commit,
    }),
    [
      s.text,
      s.cursor,
      suggestions,
      hasSuggestions,
      read,
      readCursor,
      insert,
      edit,
      lineUp,
      lineDown,
      set,
      historyPrev,
      historyNext,
      moveSuggestion,
      complete,
      clear,
      commit,
    ],
  );
}

/** The MAX_SUGGESTIONS items around the selection, so ↓ reaches every match. */
function windowOf(items: SuggestionView['items'], selected: number, args: boolean): SuggestionView {
  const sel = Math.min(selected, items.length - 1);
  const offset = Math.max(0, Math.min(sel - MAX_SUGGESTIONS + 1, items.length - MAX_SUGGESTIONS));
  const start = Math.max(0, sel >= MAX_SUGGESTIONS ? offset : 0);
  return { items: items.slice(start, start + MAX_SUGGESTIONS), selected: sel - start, total: items.length, offset: start, args };
}
