// A program in a real pseudo-terminal (@lydell/node-pty) whose output is fed to a headless
// xterm, so tests and benchmarks read the screen the way a person would see it (text only,
// after every escape sequence has been interpreted) and type through the pty.
//
// Two ways to wait: `waitFor`/`waitForText` poll (tests: did it show up in time?), and
// `timeUntil`/`timeUntilText` check after every parsed chunk and resolve with the
// performance.now() of the first frame where the condition held (benchmarks: when did it show?).
import { execFile } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import * as pty from '@lydell/node-pty';
import xtermHeadless from '@xterm/headless';
import { arborBin } from './paths.js';
import { trustFolderForTest } from './trustFolder.js';

const { Terminal } = xtermHeadless;
type XTerm = InstanceType<typeof Terminal>;

export type Key =
  | 'enter'
  | 'esc'
  | 'up'
  | 'down'
  | 'left'
  | 'right'
  | 'tab'
  | 'ctrl-c'
  | 'ctrl-d'
  | 'ctrl-o'
  | 'ctrl-t'
  | 'backspace'
  | 'pgup'
  | 'pgdn'
  | 'space';

const KEYS: Record<Key, string> = {
  enter: '\r',
  esc: '\x1b',
  up: '\x1b[A',
  down: '\x1b[B',
  right: '\x1b[C',
  left: '\x1b[D',
  tab: '\t',
  'ctrl-c': '\x03',
  'ctrl-d': '\x04',
  'ctrl-o': '\x0f',
  'ctrl-t': '\x14',
  backspace: '\x7f',
  pgup: '\x1b[5~',
  pgdn: '\x1b[6~',
  space: ' ',
};

// With DECCKM on (application cursor keys) a real terminal sends ESC O x for arrows.
const APP_CURSOR: Partial<Record<Key, string>> = { up: '\x1bOA', down: '\x1bOB', right: '\x1bOC', left: '\x1bOD' };

export interface ExitInfo {
  exitCode: number;
  signal?: number;
}

export interface WaitOptions {
  /** 'all' (default) searches scrollback and screen; 'screen' only the visible rows. */
  where?: 'all' | 'screen';
}

export interface TimeOptions {
  /** Named in the timeout message. */
  what?: string;
  timeoutMs?: number;
  /** Check on this timer instead of after every parsed chunk: cheaper for the measuring
   * process when the program prints a lot, at the cost of up to `pollMs` of precision. */
  pollMs?: number;
}

export interface Term {
  readonly pid: number;
  /** performance.now() taken right before the spawn, so times can be reported from launch. */
  readonly startedAt: number;
  /** Visible rows joined by \n, trailing spaces trimmed. Call `flush()` first for fresh output. */
  screen(): string;
  /** The visible rows with each cell's colours and attributes (bold, dim, inverse, …): two
   * screens that read the same but differ in a colour or the inverted row differ here. */
  styledScreen(): string;
  /** The whole buffer: scrollback followed by the visible rows. */
  scrollback(): string;
  /** The same as rows (scrollback first), trailing spaces trimmed. */
  allRows(): string[];
  /** Every byte the program wrote to the pty so far, escape sequences included. */
  rawOutput(): string;
  /** The pieces the program wrote, as the pty read them, from the `from`-th on (0 = the
   * first); with `rawChunkCount()` a benchmark follows the output without joining it all. */
  rawChunks(from: number): string[];
  rawChunkCount(): number;
  /** How many of those pieces the emulator has parsed: in a timeUntil predicate, the screen
   * is the one the first `parsedChunkCount()` pieces drew (later ones may be read already). */
  parsedChunkCount(): number;
  /** Resolves once every byte received so far has been parsed by the terminal. */
  flush(): Promise<void>;
  waitForText(text: string | RegExp, timeoutMs?: number, opts?: WaitOptions): Promise<void>;
  /** Waits until the text is gone; by default only the visible screen is checked. */
  waitForNoText(text: string | RegExp, timeoutMs?: number, opts?: WaitOptions): Promise<void>;
  /**
   * Waits until the program has put the terminal in raw mode (no line buffering, no echo).
   * Until then the tty driver echoes typed text itself and holds it until Enter, so text
   * typed right after the first frame would arrive as one "pasted" line. Linux only (reads
   * the pty's termios with `stty -F`); elsewhere it just waits a moment.
   */
  waitForRawMode(timeoutMs?: number): Promise<void>;
  /** Waits until `fn(screen)` is true; the failure message shows the screen. */
  waitFor(fn: (screen: string, all: string) => boolean, what: string, timeoutMs?: number): Promise<void>;
  /** Resolves with the performance.now() at which `predicate(term)` first held (see TimeOptions);
   * rejects with the screen on timeout or when the program exits first. */
  timeUntil(predicate: (term: Term) => boolean, opts?: TimeOptions): Promise<number>;
  /** timeUntil for a text; `where` defaults to the visible screen. */
  timeUntilText(text: string, opts?: TimeOptions & WaitOptions): Promise<number>;
  type(text: string): void;
  press(key: Key): void;
  /** Whether the program has turned bracketed paste on (DEC mode 2004), as the terminal sees it. */
  bracketedPaste(): boolean;
  resize(cols: number, rows: number): void;
  readonly exited: Promise<ExitInfo>;
  readonly hasExited: boolean;
  /** performance.now() of the exit, once it came. */
  readonly exitedAt: number | undefined;
  /** Waits for the exit; rejects with the screen if it does not come in time. */
  waitForExit(timeoutMs?: number): Promise<ExitInfo>;
  /** Resolves true once the program has exited, false if `timeoutMs` passes first. */
  exitsWithin(timeoutMs: number): Promise<boolean>;
  /** The screen framed for an error message. */
  describe(): string;
  kill(signal?: string): void;
  dispose(): Promise<void>;
}

export interface StartOptions {
  args?: string[];
  env?: Record<string, string>;
  cwd?: string;
  cols?: number;
  rows?: number;
  /** Lines kept above the screen (default 5000). */
  scrollback?: number;
  /** Program to run; defaults to this node running bin/arbor.js (then `args` follow it). */
  command?: string;
  /** false: leave the folder's .arbor settings untrusted (default: the harness trusts
   * them first, trustFolder.ts). */
  trustProject?: boolean;
}

const live = new Set<Term>();
export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

function matches(hay: string, needle: string | RegExp): boolean {
  return typeof needle === 'string' ? hay.includes(needle) : needle.test(hay);
}

function styledRows(term: XTerm): string {
  const buf = term.buffer.active;
  const cell = buf.getNullCell();
  const out: string[] = [];
  for (let y = buf.viewportY; y < buf.viewportY + term.rows; y++) {
    const line = buf.getLine(y);
    if (!line) continue;
    let row = '';
    let style = '';
    for (let x = 0; x < term.cols; x++) {
      line.getCell(x, cell);
      const next = [
        cell.getFgColorMode(),
        cell.getFgColor(),
        cell.getBgColorMode(),
        cell.getBgColor(),
        cell.isBold(),
        cell.isDim(),
        cell.isItalic(),
        cell.isUnderline(),
        cell.isInverse(),
      ].join(',');
      if (next !== style) row += `{${(style = next)}}`;
      row += cell.getChars() || ' ';
    }
    out.push(row);
  }
  return out.join('\n');
}

function rowsOf(term: XTerm, from: number, to: number): string[] {
  const buf = term.buffer.active;
  const out: string[] = [];
  for (let y = from; y < to; y++) out.push((buf.getLine(y)?.translateToString(true) ?? '').trimEnd());
  return out;
}

/** A minimal environment: the parent's variables (API keys, CI, NO_COLOR...) never leak
 * into the child by accident; PATH is kept so the child can still run programs. */
export function baseEnv(extra: Record<string, string> = {}): Record<string, string> {
  return { PATH: process.env.PATH ?? '/usr/bin:/bin', ...extra };
}

interface Watcher {
  check(): void;
}

export async function startTerminal(opts: StartOptions = {}): Promise<Term> {
  const cols = opts.cols ?? 100;
  const rows = opts.rows ?? 30;
  const file = opts.command ?? process.execPath;
  const args = opts.command ? (opts.args ?? []) : [arborBin, ...(opts.args ?? [])];
  const env = baseEnv({ TERM: 'xterm-256color', ...(opts.env ?? {}) });
  if (opts.trustProject !== false) trustFolderForTest(opts.cwd ?? process.cwd(), env);

  const xterm = new Terminal({ cols, rows, allowProposedApi: true, scrollback: opts.scrollback ?? 5000 });
  const watchers = new Set<Watcher>();
  const checkWatchers = () => {
    for (const w of [...watchers]) w.check();
  };
  const startedAt = performance.now();
  const proc = pty.spawn(file, args, { name: 'xterm-256color', cols, rows, cwd: opts.cwd ?? process.cwd(), env });

  let exitInfo: ExitInfo | undefined;
  let exitedAt: number | undefined;
  let disposed = false;
  const exited = new Promise<ExitInfo>((resolveExit) => {
    proc.onExit((e) => {
      exitedAt = performance.now();
      exitInfo = { exitCode: e.exitCode, signal: e.signal || undefined };
      resolveExit(exitInfo);
      checkWatchers();
    });
  });
  const raw: string[] = [];
  let parsed = 0;
  proc.onData((data) => {
    raw.push(data);
    // Watchers are checked once the chunk is parsed: that is when it is on the emulated screen.
    if (!disposed)
      xterm.write(data, () => {
        parsed++;
        checkWatchers();
      });
  });
  // Answers to terminal queries (cursor position, device attributes) go back to the program,
  // as a real terminal would send them.
  xterm.onData((data) => {
    if (!exitInfo) proc.write(data);
  });

  const flush = () =>
    new Promise<void>((r) => {
      if (disposed) return r();
      xterm.write('', () => r());
    });
  const screen = () => {
    const buf = xterm.buffer.active;
    return rowsOf(xterm, buf.viewportY, buf.viewportY + xterm.rows).join('\n');
  };
  const allRows = () => rowsOf(xterm, 0, xterm.buffer.active.length);
  const scrollback = () => allRows().join('\n');

  const describe = () =>
    `\n--- screen (${xterm.cols}x${xterm.rows})${exitInfo ? `, process exited with ${JSON.stringify(exitInfo)}` : ''} ---\n${screen()}\n--- end ---`;

  async function waitFor(fn: (screen: string, all: string) => boolean, what: string, timeoutMs = 10000) {
    const deadline = Date.now() + timeoutMs;
    // The whole buffer (up to 5,000 rows of scrollback) is turned into text only for a
    // condition that takes it: a poll every 25 ms should not redo that for nothing.
    const wantsAll = fn.length > 1;
    for (;;) {
      await flush();
      if (fn(screen(), wantsAll ? scrollback() : '')) return;
      if (Date.now() >= deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${describe()}`);
      await sleep(25);
    }
  }

  function timeUntil(predicate: (term: Term) => boolean, { what = 'condition', timeoutMs = 20000, pollMs }: TimeOptions = {}) {
    return new Promise<number>((resolveAt, reject) => {
      let active = true;
      const timer = setTimeout(() => {
        void flush().then(() => {
          finish();
          reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what}${describe()}`));
        });
      }, timeoutMs);
      const poller = pollMs ? setInterval(() => void flush().then(() => watcher.check()), pollMs) : undefined;
      const finish = () => {
        active = false;
        clearTimeout(timer);
        clearInterval(poller);
        watchers.delete(watcher);
      };
      const watcher: Watcher = {
        check() {
          if (!active) return;
          let ok: boolean;
          try {
            ok = predicate(term);
          } catch (err) {
            finish();
            reject(err);
            return;
          }
          if (ok) {
            const at = performance.now();
            finish();
            resolveAt(at);
          } else if (exitInfo) {
            finish();
            reject(new Error(`the program exited before ${what}${describe()}`));
          }
        },
      };
      if (!poller) watchers.add(watcher);
      watcher.check();
    });
  }

  // The Unix implementation knows its slave device; the public typings do not say so.
  const ptsName = (proc as unknown as { ptsName?: string }).ptsName;
  const termiosFlags = () =>
    new Promise<string | undefined>((r) => {
      if (!ptsName) return r(undefined);
      execFile('stty', ['-F', ptsName, '-a'], { timeout: 2000 }, (err, out) => r(err ? undefined : out));
    });

  const exitsWithin = (timeoutMs: number) => {
    let timer: NodeJS.Timeout | undefined;
    return Promise.race([
      exited.then(() => true),
      new Promise<boolean>((r) => {
        timer = setTimeout(() => r(false), timeoutMs);
      }),
    ]).finally(() => clearTimeout(timer));
  };

  const term: Term = {
    pid: proc.pid,
    startedAt,
    screen,
    styledScreen: () => styledRows(xterm),
    scrollback,
    allRows,
    rawOutput: () => raw.join(''),
    rawChunks: (from) => raw.slice(from),
    rawChunkCount: () => raw.length,
    parsedChunkCount: () => parsed,
    flush,
    waitFor,
    timeUntil,
    timeUntilText: (text, { where = 'screen', what = `"${text}" on the ${where}`, ...rest } = {}) =>
      timeUntil((t) => (where === 'screen' ? t.screen() : t.scrollback()).includes(text), { what, ...rest }),
    async waitForRawMode(timeoutMs = 10000) {
      if (process.platform !== 'linux' || !ptsName) return sleep(500);
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const flags = await termiosFlags();
        if (flags === undefined && exitInfo) throw new Error(`the process exited before entering raw mode${describe()}`);
        if (flags && /(^|\s)-icanon\b/.test(flags) && /(^|\s)-echo\b/.test(flags)) return;
        if (Date.now() >= deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for raw mode${describe()}`);
        await sleep(50);
      }
    },
    waitForText: (text, timeoutMs = 10000, o = {}) =>
      o.where === 'screen'
        ? waitFor((s) => matches(s, text), `text ${String(text)}`, timeoutMs)
        : waitFor((_, all) => matches(all, text), `text ${String(text)}`, timeoutMs),
    waitForNoText: (text, timeoutMs = 10000, o = {}) =>
      o.where === 'all'
        ? waitFor((_, all) => !matches(all, text), `text ${String(text)} to disappear`, timeoutMs)
        : waitFor((s) => !matches(s, text), `text ${String(text)} to disappear`, timeoutMs),
    type(text: string) {
      if (!exitInfo) proc.write(text);
    },
    bracketedPaste() {
      return xterm.modes.bracketedPasteMode;
    },
    press(key: Key) {
      const seq = (xterm.modes.applicationCursorKeysMode && APP_CURSOR[key]) || KEYS[key];
      if (seq === undefined) throw new Error(`unknown key ${String(key)}`);
      if (!exitInfo) proc.write(seq);
    },
    resize(c: number, r: number) {
      xterm.resize(c, r);
      if (!exitInfo) proc.resize(c, r);
    },
    exited,
    get hasExited() {
      return exitInfo !== undefined;
    },
    get exitedAt() {
      return exitedAt;
    },
    async waitForExit(timeoutMs = 10000) {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          void flush().then(() => reject(new Error(`process did not exit within ${timeoutMs} ms${describe()}`)));
        }, timeoutMs);
      });
      try {
        return await Promise.race([exited, timeout]);
      } finally {
        clearTimeout(timer);
      }
    },
    exitsWithin,
    describe,
    kill(signal = 'SIGTERM') {
      if (exitInfo) return;
      // The pty child leads its own process group: signal the group so grandchildren go too.
      try {
        process.kill(-proc.pid, signal);
      } catch {
        try {
          proc.kill(signal);
        } catch {
          /* already gone */
        }
      }
    },
    async dispose() {
      if (disposed) return;
      if (!exitInfo) {
        term.kill('SIGTERM');
        if (!(await exitsWithin(2000))) {
          term.kill('SIGKILL');
          await exitsWithin(2000);
        }
      }
      disposed = true;
      watchers.clear();
      live.delete(term);
      xterm.dispose();
    },
  };
  live.add(term);
  return term;
}

/** For afterEach: no pty process outlives its test. */
export async function disposeAllTerminals(): Promise<void> {
  await Promise.all([...live].map((t) => t.dispose()));
}
