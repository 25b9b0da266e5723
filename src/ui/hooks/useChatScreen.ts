// The chat's screen: which pane is open (and the key bus it reads through), and when the
// scrollback is printed again — a pane opening clears the screen under it, closing one
// reprints the conversation, a resize reprints it at the new width once the drag settles,
// and /clear empties it. <Static> prints again when its key (`staticEpoch`) changes.
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useStdout } from 'ink';
import { PaneKeyBus } from '../panes/paneKeys.js';
import type { Pane } from '../panes/types.js';
import type { StaticFeed } from '../state/feed.js';

/** Clears the screen and the scrollback, cursor home. */
export const CLEAR_SCREEN = '\u001B[2J\u001B[3J\u001B[H';
/** Clears the visible screen only, cursor home: a pane starts on a clean screen. */
export const CLEAR_VISIBLE = '\u001B[2J\u001B[H';
/** Wait for a drag-resize to settle before reprinting scrollback at the new width. */
export const RESIZE_SETTLE_MS = 150;

export function useChatScreen(feed: StaticFeed, columns: number) {
  const { write } = useStdout();
  const [pane, setPaneState] = useState<Pane | null>(null);
  // Which pane owns the keys is known the moment it opens, before the next render.
  const paneRef = useRef<Pane | null>(null);
  const paneKeys = useMemo(() => new PaneKeyBus(), []);
  const [staticEpoch, setStaticEpoch] = useState(0);

  const reprintScrollback = useCallback(() => {
    write(CLEAR_SCREEN);
    setStaticEpoch((e) => e + 1);
  }, [write]);

  // A pane is taller than what it replaces: opening one clears the screen under it (no chat
  // lines left above its header), and closing one reprints the conversation, so the last
  // screenful of chat is back where it was instead of a nearly blank screen.
  const setPane = useCallback(
    (next: Pane | null) => {
      const prev = paneRef.current;
      paneRef.current = next;
      paneKeys.reset();
      if (!prev && next) write(CLEAR_VISIBLE);
      else if (prev && !next) reprintScrollback();
      setPaneState(next);
    },
    [paneKeys, write, reprintScrollback],
  );

  const clearScreen = useCallback(() => {
    feed.reset();
    reprintScrollback();
  }, [feed, reprintScrollback]);

  // Lines already in scrollback were wrapped for the old width: reprint them at the new one.
  const printedWidth = useRef(columns);
  useEffect(() => {
    if (columns === printedWidth.current) return;
    const timer = setTimeout(() => {
      printedWidth.current = columns;
      reprintScrollback();
    }, RESIZE_SETTLE_MS);
    return () => clearTimeout(timer);
  }, [columns, reprintScrollback]);

  return { pane, paneRef, paneKeys, setPane, staticEpoch, reprintScrollback, clearScreen };
}
