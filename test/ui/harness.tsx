// Shared helpers for the UI tests: mount the App on ink-testing-library, type, wait.
import React from 'react';
import { EventEmitter } from 'node:events';
import { render as inkRender } from 'ink';
import { App, type AppProps } from '../../src/ui/App.js';
import { FakeRuntime } from './fakeRuntime.js';
import { QuietStdin } from '../support/quietStdin.js';
import type { SessionSummary } from '../../src/model/session.js';
import { expect, vi } from 'vitest';
import { pressInto, renderSettled, settle, settled } from './settle.js';

/** The bytes a terminal sends for the keys the UI tests press. */
export const KEYS = {
  ESC: '\u001B',
  UP: '\u001B[A',
  DOWN: '\u001B[B',
  TAB: '\t',
  ENTER: '\r',
  BS: '\x7f',
  CTRL_A: '\x01',
  CTRL_C: '\u0003',
  CTRL_D: '\u0004',
  CTRL_K: '\x0b',
  CTRL_T: '\u0014',
  CTRL_U: '\x15',
  CTRL_W: '\x17',
  CTRL_Y: '\x19',
} as const;
export const { ESC, UP, DOWN, TAB, ENTER, CTRL_C, CTRL_D } = KEYS;

const ANSI = /\u001B\[[0-9;?]*[ -/]*[@-~]|\u001B\][^\u0007]*\u0007/g;

export function plain(text: string | undefined): string {
  return (text ?? '').replace(ANSI, '');
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Asserts that `text` contains each of `parts`, naming the one that is missing. */
export function expectAll(text: string, parts: readonly string[]): void {
  for (const part of parts) expect(text, `missing: ${part}`).toContain(part);
}

/** Polls until `check` passes (it throws until then), so tests wait for frames, not fixed times. */
export async function waitFor(check: () => void, timeoutMs = 2000): Promise<void> {
  const start = Date.now();
  for (;;) {
    try {
      check();
      return;
    } catch (err) {
      if (Date.now() - start > timeoutMs) throw err;
      await sleep(10);
    }
  }
}

/** For tests where time is the subject, on vi's fake clock (setTimeout, setInterval, Date):
 * moves the clock on, then lets React commit whatever that clock's timers asked for. */
export async function advanceClock(ms: number): Promise<void> {
  await vi.advanceTimersByTimeAsync(ms);
  await settled();
}

/** waitFor on the fake clock: `stepMs` at a time until `check` passes (at most `limitMs`). */
export async function waitOnClock(check: () => void, stepMs: number, limitMs = 5000): Promise<void> {
  for (let waited = 0; ; waited += stepMs) {
    try {
      check();
      return;
    } catch (err) {
      if (waited >= limitMs) throw err;
      await advanceClock(stepMs);
    }
  }
}

export interface Mounted {
  runtime: FakeRuntime;
  frame(): string;
  /** Every write Ink made to stdout, raw. */
  writes(): string[];
  /** Writes raw input, then lets Ink and React settle. */
  press(data: string): Promise<void>;
  /** Text as one chunk, the way a terminal delivers fast typing. */
  type(text: string): Promise<void>;
  /** Types `text` as one chunk, then presses Enter. */
  submit(text: string): Promise<void>;
  /** One key at a time, at a person's pace. */
  typeKeys(text: string): Promise<void>;
  /** One key at a time, each a separate chunk, with almost no gap. */
  typeKeysFast(text: string): Promise<void>;
  /** Writes without waiting: keys that land before React renders again. */
  burst(...data: string[]): void;
  exits: number;
  unmount(): void;
}

/** A session for the lists: what a test states, the rest as a file with nothing known. */
export type SessionFixture = Pick<SessionSummary, 'id' | 'createdAt' | 'items'> & Partial<SessionSummary>;

export function sessionSummary(s: SessionFixture): SessionSummary {
  return {
    path: `/nonexistent/${s.id}.jsonl`,
    updatedAt: s.createdAt,
    agentAlias: 'main',
    cwd: '',
    headless: false,
    turns: 0,
    tokens: 0,
    costUsd: 0,
    ...s,
  };
}

export async function mount(
  options: { runtime?: FakeRuntime; sessions?: SessionFixture[]; props?: Partial<AppProps> } = {},
): Promise<Mounted> {
  const runtime = options.runtime ?? new FakeRuntime();
  const sessionList = (options.sessions ?? []).map(sessionSummary);
  let exits = 0;
  // Ink subscribes to input in effects; the mount settles once they have run.
  const app = await renderSettled(
    <App
      runtime={runtime}
      sessions={{ list: () => sessionList, currentId: 'current' }}
      onExit={() => {
        exits++;
      }}
      {...options.props}
    />,
  );
  const mounted: Mounted = {
    runtime,
    frame: () => plain(app.lastFrame()),
    writes: () => app.frames.slice(),
    press: (data: string) => pressInto(app.stdin, data),
    type: (text: string) => pressInto(app.stdin, text),
    async submit(text: string) {
      await pressInto(app.stdin, text);
      await pressInto(app.stdin, ENTER);
    },
    async typeKeysFast(text: string) {
      for (const ch of text) {
        app.stdin.write(ch);
        await sleep(1);
      }
    },
    async typeKeys(text: string) {
      for (const ch of text) await pressInto(app.stdin, ch);
    },
    burst(...data: string[]) {
      for (const d of data) app.stdin.write(d);
    },
    get exits() {
      return exits;
    },
    unmount: () => app.unmount(),
  };
  return mounted;
}

/** A terminal of a given size that can be resized, for layout tests. */
export class SizedStdout extends EventEmitter {
  isTTY = true;
  writes: string[] = [];
  constructor(
    public columns: number,
    public rows: number,
  ) {
    super();
  }
  write = (data: string) => {
    this.writes.push(data);
    return true;
  };
  resize(columns: number, rows: number) {
    this.columns = columns;
    this.rows = rows;
    this.emit('resize');
  }
  last(): string {
    return plain(this.writes[this.writes.length - 1]);
  }
}

/** Renders `element` with Ink itself (not ink-testing-library) on a terminal of the given size
 * with a quiet stdin, once React has settled: for tests that resize or read raw writes. */
export async function renderSized(element: React.ReactElement, columns: number, rows: number) {
  const stdout = new SizedStdout(columns, rows);
  const stdin = new QuietStdin();
  let instance!: ReturnType<typeof inkRender>;
  await settle(() => {
    instance = inkRender(element, {
      stdout: stdout as unknown as NodeJS.WriteStream,
      stderr: new SizedStdout(columns, rows) as unknown as NodeJS.WriteStream,
      stdin: stdin as unknown as NodeJS.ReadStream,
      debug: true,
      exitOnCtrlC: false,
      patchConsole: false,
    });
  });
  return { stdout, stdin, instance };
}

export async function mountSized(columns: number, rows: number, runtime = new FakeRuntime()) {
  const { stdout, stdin, instance } = await renderSized(
    <App runtime={runtime} sessions={{ list: () => [], currentId: 'x' }} onExit={() => {}} />,
    columns,
    rows,
  );
  return {
    runtime,
    stdout,
    press: (data: string) => pressInto(stdin, data),
    unmount: () => instance.unmount(),
  };
}
