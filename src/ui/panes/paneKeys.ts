// Keys for the open pane. They come from the chat's key layer, which has listened since the
// chat started; a pane's own Ink listener would subscribe only after its first frame, and
// keys typed in between (a quick `j` right after `/agents`) would be lost or typed into the
// hidden input line. Keys that arrive before the pane subscribes wait here for it.
import { createContext, useContext, useEffect, useRef } from 'react';
import { useInput, type Key } from 'ink';

type Handler = (input: string, key: Key) => void;

/** Keys kept for a pane that has not subscribed yet; more than this is a stuck pane. */
const BUFFER_LIMIT = 64;

export class PaneKeyBus {
  private handlers = new Set<Handler>();
  private buffer: Array<[string, Key]> = [];

  deliver(input: string, key: Key): void {
    if (this.handlers.size === 0) {
      if (this.buffer.length < BUFFER_LIMIT) this.buffer.push([input, key]);
      return;
    }
    for (const h of [...this.handlers]) h(input, key);
  }

  subscribe(handler: Handler): () => void {
    this.handlers.add(handler);
    const pending = this.buffer;
    this.buffer = [];
    for (const [input, key] of pending) handler(input, key);
    return () => {
      this.handlers.delete(handler);
    };
  }

  /** A pane opened or closed: keys meant for the previous one are dropped. */
  reset(): void {
    this.buffer = [];
  }
}

export const PaneKeysContext = createContext<PaneKeyBus | null>(null);

/** Keys typed faster than the terminal sends them arrive as one chunk ("jj"); a pane acts
 * per key, so plain printable chunks are handed over one character at a time. */
function perKey(handler: Handler): Handler {
  return (input, key) => {
    const plain = !key.ctrl && !key.meta && !key.escape && !key.return && !key.tab && !key.backspace && !key.delete;
    const chars = Array.from(input);
    if (!plain || chars.length < 2 || /[\u0000-\u001f\u007f]/.test(input)) return handler(input, key);
    for (const ch of chars) handler(ch, { ...key, shift: ch !== ch.toLowerCase() });
  };
}

/** useInput for panes: through the chat's bus when inside the chat, straight from Ink when
 * a pane is rendered on its own (component tests). */
export function usePaneInput(handler: Handler): void {
  const bus = useContext(PaneKeysContext);
  const latest = useRef(handler);
  latest.current = handler;
  useInput(
    perKey((input, key) => latest.current(input, key)),
    { isActive: bus === null },
  );
  useEffect(() => {
    if (!bus) return;
    return bus.subscribe(perKey((input, key) => latest.current(input, key)));
  }, [bus]);
}
