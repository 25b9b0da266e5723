// The chat line as the keys and the input view see it: one object over the line's state
// (useLineState.ts), its edits (useLineEdits.ts), its history (useLineHistory.ts) and the
// / menu (useSuggestions.ts).
import { useCallback, useMemo } from 'react';
import type { CommandRegistry, CompletionContext } from '../commands/registry.js';
import { useLineEdits, type LineEdits } from './useLineEdits.js';
import { useLineHistory, type LineHistory } from './useLineHistory.js';
import { useLineState } from './useLineState.js';
import { useSuggestions, type Suggestions } from './useSuggestions.js';

export interface InputController extends LineEdits, LineHistory, Suggestions {
  value: string;
  cursor: number;
  /** The value as of now, even from a handler created before the latest render. */
  read(): string;
  readCursor(): number;
}

/** Terminals send pasted line breaks as \r; keep one message with \n line breaks. */
export function normalizeNewlines(text: string): string {
  return text.replace(/\r\n?/g, '\n');
}

export function useInputController(registry: CommandRegistry, completion: CompletionContext): InputController {
  const line = useLineState();
  const { get } = line;
  const edits = useLineEdits(line);
  const history = useLineHistory(line);
  const { suggestions, hasSuggestions, moveSuggestion, complete } = useSuggestions(line, registry, completion);
  const read = useCallback(() => get().text, [get]);
  const readCursor = useCallback(() => get().cursor, [get]);
  const { text, cursor } = get();
  // A new object only when the line changes, so the memoized input line does not re-render
  // on every streamed frame.
  return useMemo(
    () => ({ value: text, cursor, read, readCursor, suggestions, hasSuggestions, moveSuggestion, complete, ...edits, ...history }),
    [text, cursor, read, readCursor, suggestions, hasSuggestions, moveSuggestion, complete, edits, history],
  );
}
