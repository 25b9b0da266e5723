// Routes every key press through the binding layer. The handler identity is stable (it reads
// the latest bindings and context from a ref), so Ink subscribes once instead of per render.
import { useCallback, useRef } from 'react';
import { useInput, type Key } from 'ink';
import type { KeyBinding, KeyContext } from '../keys/bindings.js';

export type KeyContextBase = Omit<KeyContext, 'memory'>;

export function dispatchKey(bindings: readonly KeyBinding[], ctx: KeyContext, input: string, key: Key): boolean {
  for (const binding of bindings) {
    if (ctx.paneOpen && !binding.global) continue;
    if (!binding.match(input, key)) continue;
    if (binding.run(ctx, input, key) !== false) return true;
  }
  return false;
}

export function useChatKeys(bindings: readonly KeyBinding[], context: KeyContextBase): void {
  const latest = useRef({ bindings, context });
  latest.current = { bindings, context };
  const memory = useRef<Record<string, unknown>>({});
  const handler = useCallback((input: string, key: Key) => {
    const { bindings: list, context: base } = latest.current;
    dispatchKey(list, { ...base, memory: memory.current }, input, key);
  }, []);
  useInput(handler);
}
