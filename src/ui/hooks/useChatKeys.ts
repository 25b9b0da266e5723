// Routes every key press through the binding layer. The handler identity is stable (it reads
// the latest bindings and context from a ref), so Ink subscribes once instead of per render.
import { useCallback, useRef } from 'react';
import { useInput, type Key } from 'ink';
import type { KeyBinding, KeyContext } from '../keys/bindings.js';
import { drawKeyFrame } from '../keyFrame.js';

export type KeyContextBase = Omit<KeyContext, 'memory'>;

/** Whether a pane owns the keys right now (not as of the last render), and where its keys go. */
export interface PaneKeyRoute {
  isOpen(): boolean;
  deliver(input: string, key: Key): void;
}

export function dispatchKey(bindings: readonly KeyBinding[], ctx: KeyContext, input: string, key: Key): boolean {
  for (const binding of bindings) {
    if (ctx.paneOpen && !binding.global) continue;
    if (!binding.match(input, key)) continue;
    if (binding.run(ctx, input, key) !== false) return true;
  }
  return false;
}

export function useChatKeys(bindings: readonly KeyBinding[], context: KeyContextBase, pane?: PaneKeyRoute): void {
  const latest = useRef({ bindings, context, pane });
  latest.current = { bindings, context, pane };
  const memory = useRef<Record<string, unknown>>({});
  const handler = useCallback((input: string, key: Key) => {
    const { bindings: list, context: base, pane: route } = latest.current;
    const paneOpen = route ? route.isOpen() : base.paneOpen;
    const handled = dispatchKey(list, { ...base, paneOpen, memory: memory.current }, input, key);
    if (!handled && paneOpen) route?.deliver(input, key);
    drawKeyFrame();
  }, []);
  useInput(handler);
}
