// Routes every input event of the keypress layer, one key at a time: the bindings first,
// then the open pane, then the line editor. Which of them owns a key is decided at the
// moment of the key (from the store and from which pane is open *now*), not from the last
// render, so a burst like Ctrl+T X y opens the pane and hands it X and y.
import { useCallback, useRef } from 'react';
import { bindingMatches, type KeyBinding, type KeyContext, type KeyMemory } from '../keys/bindings.js';
import { drawKeyFrame } from '../keyFrame.js';
import { useKeypress } from '../keys/keypressSource.js';
import { charKey, type InputEvent, type KeyPress, type PasteInput } from '../keys/tokenizer.js';

export type KeyContextBase = Omit<KeyContext, 'memory'>;

/** What a pane receives: single keys, and whole pastes. */
export type PaneInput = KeyPress | PasteInput;

/** Whether a pane owns the keys right now (not as of the last render), and where its keys go. */
export interface PaneKeyRoute {
  isOpen(): boolean;
  deliver(event: PaneInput): void;
}

/** The line editor: keys the bindings left, text runs and pastes while nothing else owns
 * the keyboard. */
export interface EditorRoute {
  key(k: KeyPress): void;
  text(text: string): void;
}

export function dispatchKey(bindings: readonly KeyBinding[], ctx: KeyContext, k: KeyPress): boolean {
  for (const binding of bindings) {
    if (ctx.paneOpen && !binding.global) continue;
    if (!bindingMatches(binding, k, ctx.keys)) continue;
    if (binding.run(ctx, k) !== false) return true;
  }
  return false;
}

export function useChatKeys(
  bindings: readonly KeyBinding[],
  context: KeyContextBase,
  pane: PaneKeyRoute,
  editor: EditorRoute,
  approvalPendingNow: () => boolean,
): void {
  const latest = useRef({ bindings, context, pane, editor, approvalPendingNow });
  latest.current = { bindings, context, pane, editor, approvalPendingNow };
  const memory = useRef<KeyMemory>({});

  const onKey = useCallback((k: KeyPress) => {
    const { bindings: list, context: base, pane: route, editor: line, approvalPendingNow: pendingNow } = latest.current;
    const paneOpen = route.isOpen();
    const approvalPending = pendingNow();
    const handled = dispatchKey(list, { ...base, paneOpen, approvalPending, memory: memory.current }, k);
    if (handled) return;
    if (paneOpen) route.deliver(k);
    // While an approval waits, keys answer it or do nothing: none is typed into the line.
    else if (!approvalPending) line.key(k);
  }, []);

  const onEvent = useCallback(
    (event: InputEvent) => {
      const { pane: route, editor: line, approvalPendingNow: pendingNow } = latest.current;
      if (event.kind === 'key') onKey(event);
      else if (event.kind === 'paste') {
        // A paste is text wherever it lands; it never answers an approval or runs a key.
        if (route.isOpen()) route.deliver(event);
        else if (!pendingNow()) line.text(event.text);
      } else {
        // Typed text goes to the line in one piece while the line owns the keyboard; a pane
        // or an approval takes it key by key (and may hand the rest back, e.g. "Xy" after
        // Ctrl+T, or "yes" where y answers and "es" is typed).
        const chars = [...event.text];
        for (let i = 0; i < chars.length; i++) {
          if (!route.isOpen() && !pendingNow()) {
            line.text(chars.slice(i).join(''));
            break;
          }
          onKey(charKey(chars[i]));
        }
      }
      drawKeyFrame();
    },
    [onKey],
  );
  useKeypress(onEvent);
}
