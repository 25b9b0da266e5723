// The pane's one-line flash: confirms each action for a few seconds. A sticky flash (ms 0)
// stays until the next one, e.g. the kill-all question waiting for its answer.
import { useCallback, useEffect, useRef, useState } from 'react';
import type { NoticeLevel } from '../theme.js';

export const PANE_FLASH_MS = 3000;

export interface PaneFlash {
  text: string;
  level: NoticeLevel;
}

export function usePaneFlash(): { flash: PaneFlash | undefined; show(text: string, level: NoticeLevel, ms?: number): void } {
  const [flash, setFlash] = useState<PaneFlash | undefined>(undefined);
  const timer = useRef<NodeJS.Timeout | undefined>(undefined);
  const show = useCallback((text: string, level: NoticeLevel, ms = PANE_FLASH_MS) => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = undefined;
    setFlash({ text, level });
    if (ms > 0) {
      timer.current = setTimeout(() => {
        timer.current = undefined;
        setFlash(undefined);
      }, ms);
    }
  }, []);
  useEffect(() => () => {
    if (timer.current) clearTimeout(timer.current);
  }, []);
  return { flash, show };
}
