// A transient message: the hint under the chat input ("Press Ctrl+C again to quit"), and
// each pane's confirmation of an action. A sticky flash (ms 0) stays until the next one or
// clear(), e.g. the kill-all question waiting for its answer.
import { useCallback, useEffect, useRef, useState } from 'react';
import type { NoticeLevel } from '../theme.js';

export const FLASH_MS = 3000;

/** A flash's colour by level, the same in every pane. */
export const FLASH_COLORS: Record<NoticeLevel, string> = { info: 'green', warn: 'yellow', error: 'red' };

export interface Flash {
  text: string;
  level: NoticeLevel;
}

export interface FlashApi {
  flash: Flash | undefined;
  show(text: string, level?: NoticeLevel, ms?: number): void;
  clear(): void;
}

export function useFlash(defaultMs = FLASH_MS): FlashApi {
  const [flash, setFlash] = useState<Flash | undefined>(undefined);
  const timer = useRef<NodeJS.Timeout | undefined>(undefined);
  const stopTimer = () => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = undefined;
  };
  const clear = useCallback(() => {
    stopTimer();
    setFlash(undefined);
  }, []);
  const show = useCallback(
    (text: string, level: NoticeLevel = 'info', ms = defaultMs) => {
      stopTimer();
      setFlash({ text, level });
      if (ms > 0) {
        timer.current = setTimeout(() => {
          timer.current = undefined;
          setFlash(undefined);
        }, ms);
      }
    },
    [defaultMs],
  );
  useEffect(() => stopTimer, []);
  return { flash, show, clear };
}
