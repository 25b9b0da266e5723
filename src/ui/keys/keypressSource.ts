// The keypress layer's reader: the one place stdin is read while the chat runs. Ink's own
// input handling stays idle (nothing calls useInput), so every chunk goes through our
// tokenizer once, at the root, before any binding sees it. Works on any stream that
// signals 'readable' and answers read(): process.stdin, Ink's test stdin, a vendored Ink.
import { useEffect, useRef } from 'react';
import { useStdin } from 'ink';
import { ESC_TIMEOUT_MS, KeyTokenizer, PASTE_STALL_MS, type InputEvent } from './tokenizer.js';

export type InputListener = (event: InputEvent) => void;

interface ReadableInput {
  isTTY?: boolean;
  on(event: 'readable', fn: () => void): unknown;
  off(event: 'readable', fn: () => void): unknown;
  read(): string | Buffer | null;
  setRawMode?(on: boolean): unknown;
  ref?(): unknown;
  unref?(): unknown;
}

export class KeypressSource {
  private readonly tokenizer = new KeyTokenizer();
  private readonly listeners = new Set<InputListener>();
  private escTimer: NodeJS.Timeout | undefined;
  private pasteTimer: NodeJS.Timeout | undefined;
  private escWaiters: Array<() => void> = [];
  private attached = false;

  constructor(
    private readonly stdin: ReadableInput,
    private readonly escTimeoutMs = ESC_TIMEOUT_MS,
    private readonly pasteStallMs = PASTE_STALL_MS,
  ) {}

  subscribe(listener: InputListener): () => void {
    this.listeners.add(listener);
    if (!this.attached) this.attach();
    return () => {
      this.listeners.delete(listener);
      if (this.listeners.size === 0) this.detach();
    };
  }

  private attach(): void {
    this.attached = true;
    if (this.stdin.isTTY) this.stdin.setRawMode?.(true);
    this.stdin.ref?.();
    this.stdin.on('readable', this.onReadable);
    // Keys typed before we listened are waiting in the stream.
    this.onReadable();
  }

  private detach(): void {
    this.attached = false;
    this.stdin.off('readable', this.onReadable);
    this.clearEscTimer();
    clearTimeout(this.pasteTimer);
    if (this.stdin.isTTY) this.stdin.setRawMode?.(false);
    this.stdin.unref?.();
  }

  /** Resolves once no half-read escape sequence waits on its timeout: the input written so
   * far has reached the listeners. Tests wait on this instead of a fixed time. */
  escapeSettled(): Promise<void> {
    if (this.escTimer === undefined) return Promise.resolve();
    return new Promise((resolve) => this.escWaiters.push(resolve));
  }

  private clearEscTimer(): void {
    clearTimeout(this.escTimer);
    this.escTimer = undefined;
    const waiters = this.escWaiters;
    this.escWaiters = [];
    for (const resolve of waiters) resolve();
  }

  private readonly onReadable = (): void => {
    clearTimeout(this.escTimer);
    this.escTimer = undefined;
    clearTimeout(this.pasteTimer);
    let chunk: string | Buffer | null;
    while (this.attached && (chunk = this.stdin.read()) !== null) this.emit(this.tokenizer.push(chunk));
    if (this.tokenizer.hasPending()) {
      this.escTimer = setTimeout(() => {
        this.emit(this.tokenizer.flush());
        this.clearEscTimer();
      }, this.escTimeoutMs);
    } else if (this.escWaiters.length > 0) {
      this.clearEscTimer();
    }
    if (this.tokenizer.inPaste) {
      this.pasteTimer = setTimeout(() => this.emit(this.tokenizer.endStalledPaste()), this.pasteStallMs);
    }
  };

  private emit(events: InputEvent[]): void {
    for (const event of events) {
      for (const listener of [...this.listeners]) listener(event);
    }
  }
}

const sources = new WeakMap<object, KeypressSource>();

/** One source per input stream, shared by every subscriber. */
export function keypressSourceFor(stdin: ReadableInput): KeypressSource {
  let source = sources.get(stdin);
  if (!source) {
    source = new KeypressSource(stdin);
    sources.set(stdin, source);
  }
  return source;
}

/** Calls `handler` for every input event from Ink's stdin while `active`. The handler may
 * change between renders; the subscription does not. */
export function useKeypress(handler: InputListener, active = true): void {
  const { stdin } = useStdin();
  const latest = useRef(handler);
  latest.current = handler;
  useEffect(() => {
    if (!active) return;
    return keypressSourceFor(stdin as unknown as ReadableInput).subscribe((event) => latest.current(event));
  }, [stdin, active]);
}
