// Keys for the open pane. They come from the chat's key layer, which has listened since the
// chat started; a pane's own listener would subscribe only after its first frame, and keys
// typed in between (a quick `j` right after `/agents`) would be lost or typed into the
// hidden input line. Keys that arrive before the pane subscribes wait here for it. A pane
// gets one key per call (the keypress layer split the burst) or a whole paste.
import { createContext, useContext, useEffect, useRef } from 'react';
import type { PaneInput } from '../hooks/useChatKeys.js';
import { drawKeyFrame } from '../keyFrame.js';
import { useKeypress } from '../keys/keypressSource.js';
import { charKey } from '../keys/tokenizer.js';

type Handler = (event: PaneInput) => void;

/** Keys kept for a pane that has not subscribed yet; more than this is a stuck pane. */
const BUFFER_LIMIT = 64;

export class PaneKeyBus {
  private handlers = new Set<Handler>();
  private buffer: PaneInput[] = [];

  deliver(event: PaneInput): void {
    if (this.handlers.size === 0) {
      if (this.buffer.length < BUFFER_LIMIT) this.buffer.push(event);
      return;
    }
    for (const h of [...this.handlers]) h(event);
  }

  subscribe(handler: Handler): () => void {
    this.handlers.add(handler);
    const pending = this.buffer;
    this.buffer = [];
    for (const event of pending) handler(event);
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

/** Input for panes: through the chat's bus when inside the chat, straight from the
 * keypress layer when a pane is rendered on its own (component tests). */
export function usePaneInput(handler: Handler): void {
  const bus = useContext(PaneKeysContext);
  const latest = useRef(handler);
  latest.current = handler;
  useKeypress((event) => {
    if (event.kind === 'text') for (const ch of event.text) latest.current(charKey(ch));
    else latest.current(event);
    drawKeyFrame();
  }, bus === null);
  useEffect(() => {
    if (!bus) return;
    return bus.subscribe((event) => latest.current(event));
  }, [bus]);
}
