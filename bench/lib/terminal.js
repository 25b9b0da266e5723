// A program in a real pseudo-terminal whose output is parsed by a headless xterm, so a
// benchmark sees the screen the way a person would (text after every escape sequence has
// been interpreted) and can time the moment something becomes visible.
import { performance } from 'node:perf_hooks';
import * as pty from '@lydell/node-pty';
import xtermHeadless from '@xterm/headless';

const { Terminal } = xtermHeadless;

const KEYS = { enter: '\r', esc: '\x1b', 'ctrl-c': '\x03', 'ctrl-d': '\x04' };

function rows(xterm, from, to) {
  const buf = xterm.buffer.active;
  const out = [];
  for (let y = from; y < to; y++) out.push((buf.getLine(y)?.translateToString(true) ?? '').trimEnd());
  return out;
}

/**
 * Starts `file args` in a pty. `startedAt` is taken right before the spawn, so waits can be
 * reported relative to the launch.
 */
export function startTerminal({ file, args = [], cwd, env, cols = 100, rows: height = 30, scrollback = 10000 }) {
  const xterm = new Terminal({ cols, rows: height, allowProposedApi: true, scrollback });
  const watchers = new Set();
  let exitInfo;
  let disposed = false;

  const startedAt = performance.now();
  const proc = pty.spawn(file, args, { name: 'xterm-256color', cols, rows: height, cwd, env });

  const exited = new Promise((resolve) => {
    proc.onExit((e) => {
      exitInfo = { exitCode: e.exitCode, signal: e.signal || undefined, at: performance.now() };
      resolve(exitInfo);
      for (const w of [...watchers]) w.check();
    });
  });
  proc.onData((data) => {
    if (disposed) return;
    // Checked once the chunk is parsed: that is when it is on the emulated screen.
    xterm.write(data, () => {
      for (const w of [...watchers]) w.check();
    });
  });
  // Answers to terminal queries (cursor position, device attributes) go back to the program.
  xterm.onData((data) => {
    if (!exitInfo) proc.write(data);
  });

  const screen = () => {
    const buf = xterm.buffer.active;
    return rows(xterm, buf.viewportY, buf.viewportY + xterm.rows).join('\n');
  };
  const allRows = () => rows(xterm, 0, xterm.buffer.active.length);

  const flush = () => new Promise((resolve) => (disposed ? resolve() : xterm.write('', resolve)));

  /**
   * Resolves with the performance.now() time at which `predicate(term)` first held. By default
   * it is checked after every parsed chunk (precise timing); `pollMs` checks on a timer
   * instead, which costs the benchmark process less when the program prints a lot.
   */
  function waitFor(predicate, { what = 'condition', timeoutMs = 20000, pollMs } = {}) {
    return new Promise((resolve, reject) => {
      let timer;
      let poller;
      let active = true;
      const watcher = {
        check() {
          if (!active) return;
          let ok = false;
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
            resolve(at);
          } else if (exitInfo) {
            finish();
            reject(new Error(`the program exited (${JSON.stringify(exitInfo)}) before ${what}\n${describe()}`));
          }
        },
      };
      const finish = () => {
        active = false;
        clearTimeout(timer);
        clearInterval(poller);
        watchers.delete(watcher);
      };
      timer = setTimeout(() => {
        void flush().then(() => {
          finish();
          reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what}\n${describe()}`));
        });
      }, timeoutMs);
      if (pollMs) poller = setInterval(() => void flush().then(() => watcher.check()), pollMs);
      else watchers.add(watcher);
      watcher.check();
    });
  }

  const describe = () => `--- screen (${xterm.cols}x${xterm.rows}) ---\n${screen()}\n--- end ---`;

  const term = {
    pid: proc.pid,
    startedAt,
    exited,
    get hasExited() {
      return exitInfo !== undefined;
    },
    screen,
    /** Every row in the buffer, scrollback first, trailing spaces trimmed. */
    allRows,
    flush,
    waitFor,
    waitForText(text, opts = {}) {
      const where = opts.where ?? 'screen';
      return waitFor((t) => (where === 'screen' ? t.screen() : t.allRows().join('\n')).includes(text), {
        what: `"${text}" on the ${where}`,
        ...opts,
      });
    },
    type(text) {
      if (!exitInfo) proc.write(text);
    },
    press(key) {
      if (!(key in KEYS)) throw new Error(`unknown key ${key}`);
      if (!exitInfo) proc.write(KEYS[key]);
    },
    describe,
    /** Resolves true once the program has exited, false if `timeoutMs` passes first. */
    waitForExit(timeoutMs) {
      let timer;
      return Promise.race([
        exited.then(() => true),
        new Promise((resolve) => {
          timer = setTimeout(() => resolve(false), timeoutMs);
        }),
      ]).finally(() => clearTimeout(timer));
    },
    kill(signal = 'SIGTERM') {
      if (exitInfo) return;
      // The pty child leads its own process group: signal the group so nothing is left.
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
        if (!(await term.waitForExit(2000))) {
          term.kill('SIGKILL');
          await term.waitForExit(2000);
        }
      }
      disposed = true;
      watchers.clear();
      xterm.dispose();
    },
  };
  return term;
}

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
