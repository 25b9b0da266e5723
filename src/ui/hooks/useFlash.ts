// A one-line transient hint under the input ("Press Ctrl+C again to quit", ...).
import { useCallback, useEffect, useRef, useState } from 'react';

export const FLASH_MS = 3000;

export function useFlash(): { text: string | undefined; flash(text: string, ms?: number): void; clearFlash(): void } {
  const [text, setText] = useState<string | undefined>(undefined);
  const timer = useRef<NodeJS.Timeout | undefined>(undefined);
  const clearFlash = useCallback(() => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = undefined;
    setText(undefined);
  }, []);
  const flash = useCallback((next: string, ms = FLASH_MS) => {
    if (timer.current) clearTimeout(timer.current);
    setText(next);
    timer.current = setTimeout(() => {
      timer.current = undefined;
      setText(undefined);
    }, ms);
  }, []);
  useEffect(() => () => {
    if (timer.current) clearTimeout(timer.current);
  }, []);
  return { text, flash, clearFlash };
}
