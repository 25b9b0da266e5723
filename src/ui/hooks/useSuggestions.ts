// The / menu under the chat line: the commands a "/na" prefix matches, then (after Tab on
// a command that takes arguments) the values its argument may take; ↑/↓ move the
// highlight, Tab completes, and the list shown is a window around the highlight.
import { useCallback, useMemo, useRef } from 'react';
import type { TranslationKey } from '../../i18n/index.js';
import type { CommandRegistry, CompletionContext, SlashCommand } from '../commands/registry.js';
import type { Line } from './useLineState.js';

/** At most this many suggestions show under the input. */
export const MAX_SUGGESTIONS = 6;

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

export interface Suggestions {
  suggestions: SuggestionView;
  /** Whether the / menu (or argument choices) shows as of now, for ↑/↓ mid-burst. */
  hasSuggestions(): boolean;
  moveSuggestion(delta: number): void;
  complete(): boolean;
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

const EMPTY_VIEW: SuggestionView = { items: [], selected: 0, total: 0, offset: 0, args: false };

export function useSuggestions({ get, update }: Line, registry: CommandRegistry, completion: CompletionContext): Suggestions {
  const completionRef = useRef(completion);
  completionRef.current = completion;

  const moveSuggestion = useCallback(
    (delta: number) => {
      const s = get();
      const count = s.argChoices.length || commandMatches(registry, s.text).length;
      if (count === 0) return;
      update({ selected: (((s.selected + delta) % count) + count) % count });
    },
    [get, registry, update],
  );

  const complete = useCallback(() => {
    const s = get();
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
  }, [get, registry, update]);

  const hasSuggestions = useCallback(() => {
    const st = get();
    return st.historyIndex === null && (st.argChoices.length > 0 || commandMatches(registry, st.text).length > 0);
  }, [get, registry]);

  const s = get();
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
  return { suggestions, hasSuggestions, moveSuggestion, complete };
}

/** The MAX_SUGGESTIONS items around the selection, so ↓ reaches every match. */
function windowOf(items: SuggestionView['items'], selected: number, args: boolean): SuggestionView {
  const sel = Math.min(selected, items.length - 1);
  const offset = Math.max(0, Math.min(sel - MAX_SUGGESTIONS + 1, items.length - MAX_SUGGESTIONS));
  const start = Math.max(0, sel >= MAX_SUGGESTIONS ? offset : 0);
  return { items: items.slice(start, start + MAX_SUGGESTIONS), selected: sel - start, total: items.length, offset: start, args };
}
