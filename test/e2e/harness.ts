// End-to-end harness: a program in a real pseudo-terminal (@lydell/node-pty) whose output
// is fed to a headless xterm, so tests read the screen the way a person would see it
// (text only, after every escape sequence has been interpreted) and type through the pty.
import { execFile, spawn as spawnChild } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as pty from '@lydell/node-pty';
import xtermHeadless from '@xterm/headless';

const { Terminal } = xtermHeadless;
type XTerm = InstanceType<typeof Terminal>;

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
// ARBOR_E2E_BIN points the suite at another build of the launcher (e.g. a copy under /tmp).
export const arborBin = process.env.ARBOR_E2E_BIN ?? join(repoRoot, 'bin', 'arbor.js');

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

export interface Term {
  readonly pid: number;
  /** Visible rows joined by \n, trailing spaces trimmed. Call `flush()` first for fresh output. */
  screen(): string;
  /** The whole buffer: scrollback followed by the visible rows. */
  scrollback(): string;
  /** Every byte the program wrote to the pty so far, escape sequences included. */
  rawOutput(): string;
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
  type(text: string): void;
  press(key: Key): void;
  /** Whether the program has turned bracketed paste on (DEC mode 2004), as the terminal sees it. */
  bracketedPaste(): boolean;
  resize(cols: number, rows: number): void;
  readonly exited: Promise<ExitInfo>;
  readonly hasExited: boolean;
  /** Waits for the exit; rejects with the screen if it does not come in time. */
  waitForExit(timeoutMs?: number): Promise<ExitInfo>;
  kill(signal?: string): void;
  dispose(): Promise<void>;
}

export interface StartOptions {
  args?: string[];
  env?: Record<string, string>;
  cwd?: string;
  cols?: number;
  rows?: number;
  /** Program to run; defaults to this node running bin/arbor.js (then `args` follow it). */
  command?: string;
}

const live = new Set<Term>();
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

function matches(hay: string, needle: string | RegExp): boolean {
  return typeof needle === 'string' ? hay.includes(needle) : needle.test(hay);
}

function rowsOf(term: XTerm, from: number, to: number): string[] {
  const buf = term.buffer.active;
  const out: string[] = [];
  for (let y = from; y < to; y++) out.push(buf.getLine(y)?.translateToString(true) ?? '');
  return out;
}

/** A minimal environment: the parent's variables (API keys, CI, NO_COLOR...) never leak
 * into the child by accident; PATH is kept so the child can still run programs. */
export function baseEnv(extra: Record<string, string> = {}): Record<string, string> {
  return { PATH: process.env.PATH ?? '/usr/bin:/bin', ...extra };
}

export async function startTerminal(opts: StartOptions = {}): Promise<Term> {
  const cols = opts.cols ?? 100;
  const rows = opts.rows ?? 30;
  const file = opts.command ?? process.execPath;
  const args = opts.command ? (opts.args ?? []) : [arborBin, ...(opts.args ?? [])];
  const env = baseEnv({ TERM: 'xterm-256color', ...(opts.env ?? {}) });

  const xterm = new Terminal({ cols, rows, allowProposedApi: true, scrollback: 5000 });
  const proc = pty.spawn(file, args, { name: 'xterm-256color', cols, rows, cwd: opts.cwd ?? process.cwd(), env });

  let exitInfo: ExitInfo | undefined;
  let disposed = false;
  const exited = new Promise<ExitInfo>((resolveExit) => {
    proc.onExit((e) => {
      exitInfo = { exitCode: e.exitCode, signal: e.signal || undefined };
      resolveExit(exitInfo);
    });
  });
  const raw: string[] = [];
  proc.onData((data) => {
    raw.push(data);
    if (!disposed) xterm.write(data);
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
    return rowsOf(xterm, buf.viewportY, buf.viewportY + xterm.rows)
      .map((l) => l.trimEnd())
      .join('\n');
  };
  const scrollback = () =>
    rowsOf(xterm, 0, xterm.buffer.active.length)
      .map((l) => l.trimEnd())
      .join('\n');

  const describe = () =>
    `\n--- screen (${xterm.cols}x${xterm.rows})${exitInfo ? `, process exited with ${JSON.stringify(exitInfo)}` : ''} ---\n${screen()}\n--- end ---`;

  async function waitFor(fn: (screen: string, all: string) => boolean, what: string, timeoutMs = 10000) {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      await flush();
      if (fn(screen(), scrollback())) return;
      if (Date.now() >= deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${describe()}`);
      await sleep(25);
    }
  }

  // The Unix implementation knows its slave device; the public typings do not say so.
  const ptsName = (proc as unknown as { ptsName?: string }).ptsName;
  const termiosFlags = () =>
    new Promise<string | undefined>((r) => {
      if (!ptsName) return r(undefined);
      execFile('stty', ['-F', ptsName, '-a'], { timeout: 2000 }, (err, out) => r(err ? undefined : out));
    });

  const term: Term = {
    pid: proc.pid,
    screen,
    scrollback,
    rawOutput: () => raw.join(''),
    flush,
    waitFor,
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
      waitFor((s, all) => matches(o.where === 'screen' ? s : all, text), `text ${String(text)}`, timeoutMs),
    waitForNoText: (text, timeoutMs = 10000, o = {}) =>
      waitFor((s, all) => !matches(o.where === 'all' ? all : s, text), `text ${String(text)} to disappear`, timeoutMs),
    type(text: string) {
      if (!exitInfo) proc.write(text);
    },
    bracketedPaste() {
      return xterm.modes.bracketedPasteMode;
    },
    press(key: Key) {
      const seq = (xterm.modes.applicationCursorKeysMode && APP_CURSOR[key]) || KEYS[key];
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
        const gone = await Promise.race([exited.then(() => true), sleep(2000).then(() => false)]);
        if (!gone) {
          term.kill('SIGKILL');
          await Promise.race([exited, sleep(2000)]);
        }
      }
      disposed = true;
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

export interface ArborHome {
  /** The working directory to start arbor in (its ./.arbor/config.toml is the project config). */
  dir: string;
  /** ARBOR_HOME: sessions, logs and the user config live here. */
  home: string;
  env: Record<string, string>;
  cleanup(): void;
}

/** A throwaway ARBOR_HOME, HOME and working directory, so no test reads the user's real
 * ~/.arbor or API keys. */
export function tempArborHome(): ArborHome {
  const root = mkdtempSync(join(tmpdir(), 'arbor-e2e-'));
  const home = join(root, 'arbor-home');
  const userHome = join(root, 'home');
  const dir = join(root, 'work');
  for (const d of [userHome, dir]) mkdirSync(d, { recursive: true });
  // As arbor itself creates it: private. A 0755 home would be tightened at start, with a notice.
  mkdirSync(home, { recursive: true, mode: 0o700 });
  const env: Record<string, string> = {
    ARBOR_HOME: home,
    HOME: userHome,
    LANG: 'en_US.UTF-8',
    TERM: 'xterm-256color',
    ARBOR_OFFLINE_DELAY_MS: '0',
    ARBOR_RETRY_BASE_MS: '20',
  };
  return { dir, home, env, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}

/** Writes `<dir>/.arbor/config.toml`; returns its path. */
export function writeConfig(dir: string, toml: string): string {
  const path = join(dir, '.arbor', 'config.toml');
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, toml);
  return path;
}

/** Config pointing the default agent at an OpenAI-compatible server (the loopback model). */
export function fakeProviderConfig(baseUrl: string, model = 'fake-model'): string {
  return [
    'default_agent = "main"',
    '',
    '[providers.fake]',
    'type = "openai-compatible"',
    `base_url = "${baseUrl}"`,
    `model = "${model}"`,
    '',
    '[agents.main]',
    'provider = "fake"',
    '',
  ].join('\n');
}

export interface RunResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Runs bin/arbor.js without a terminal. Asynchronous on purpose: a loopback server in this
 * process must keep answering while arbor runs. */
export function runArbor(
  args: string[],
  opts: { env?: Record<string, string>; cwd?: string; input?: string; timeoutMs?: number } = {},
): Promise<RunResult> {
  return new Promise((resolveRun, reject) => {
    const child = spawnChild(process.execPath, [arborBin, ...args], {
      cwd: opts.cwd ?? process.cwd(),
      env: baseEnv(opts.env),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const timeoutMs = opts.timeoutMs ?? 30000;
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`arbor ${args.join(' ')} did not finish within ${timeoutMs} ms\nstdout: ${stdout}\nstderr: ${stderr}`));
    }, timeoutMs);
    child.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolveRun({ code, signal, stdout, stderr });
    });
    child.stdin.on('error', () => {
      /* the child may exit before reading stdin */
    });
    child.stdin.end(opts.input ?? '');
  });
}
