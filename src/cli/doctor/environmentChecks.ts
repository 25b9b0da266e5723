// What `arbor doctor` can tell about the machine arbor runs on: the Node version against the
// package's engines field, the terminal, and whether ARBOR_HOME takes files.
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { t } from '../../i18n/index.js';
import { packageRoot } from '../../i18n/packageRoot.js';
import { makePrivateDir, writePrivate } from '../../persistence/privateFs.js';
import type { CheckLine } from './checkLine.js';

/** The lowest Node version package.json's engines field allows, e.g. [20, 0]. */
function requiredNode(): [number, number] {
  const pkg = JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')) as { engines?: { node?: string } };
  const m = /(\d+)(?:\.(\d+))?/.exec(pkg.engines?.node ?? '');
  return m ? [Number(m[1]), Number(m[2] ?? 0)] : [20, 0];
}

export function nodeCheck(version = process.versions.node): CheckLine {
  const [major, minor] = version.split('.').map(Number);
  const [needMajor, needMinor] = requiredNode();
  const ok = major > needMajor || (major === needMajor && minor >= needMinor);
  const label = t('doctor:node.label');
  const needs = `${needMajor}.${needMinor}`;
  return ok
    ? { status: 'ok', label, detail: t('doctor:node.ok', { version: `v${version}`, needs }) }
    : { status: 'fail', label, detail: t('doctor:node.tooOld', { version: `v${version}`, needs }) };
}

export interface TerminalFacts {
  stdinIsTTY: boolean;
  stdoutIsTTY: boolean;
  colorDepth: number;
  columns?: number;
  rows?: number;
  env: NodeJS.ProcessEnv;
}

export function terminalFacts(env: NodeJS.ProcessEnv = process.env): TerminalFacts {
  const out = process.stdout;
  return {
    stdinIsTTY: Boolean(process.stdin.isTTY),
    stdoutIsTTY: Boolean(out.isTTY),
    colorDepth: out.isTTY && typeof out.getColorDepth === 'function' ? out.getColorDepth(env) : 1,
    columns: out.isTTY ? out.columns : undefined,
    rows: out.isTTY ? out.rows : undefined,
    env,
  };
}

// Terminals known to pass OSC 52 (set the clipboard) through; most others drop it silently.
// Bracketed paste is near universal except on the Linux console and dumb terminals.
const OSC52_PROGRAMS = /^(iterm\.app|wezterm|ghostty|vscode|tmux|rio|warpterminal|tabby|hyper)$/i;
const OSC52_TERMS = /^(xterm-kitty|xterm-ghostty|foot|alacritty|wezterm|tmux|screen)/i;

function likelyOsc52(env: NodeJS.ProcessEnv): boolean {
  return (
    OSC52_PROGRAMS.test(env.TERM_PROGRAM ?? '') ||
    OSC52_TERMS.test(env.TERM ?? '') ||
    Boolean(env.WT_SESSION) ||
    Boolean(env.KITTY_WINDOW_ID) ||
    Boolean(env.TMUX)
  );
}

function likelyBracketedPaste(env: NodeJS.ProcessEnv): boolean {
  const term = env.TERM ?? '';
  return term !== '' && term !== 'dumb' && term !== 'linux';
}

/** The chat needs a terminal on both ends; colours, size and the two escape-sequence
 * features are reported but decide nothing, since arbor works without them. Without a
 * terminal (CI, a pipe, `--json` to a script) there is nothing to check: that is said and
 * passes, since headless runs need none. */
export function terminalChecks(f: TerminalFacts): CheckLine[] {
  const label = t('doctor:terminal.label');
  const lines: CheckLine[] = [];
  if (!f.stdinIsTTY || !f.stdoutIsTTY) {
    const which = [!f.stdinIsTTY ? 'stdin' : '', !f.stdoutIsTTY ? 'stdout' : ''].filter(Boolean).join(', ');
    lines.push({ status: 'info', label, detail: t('doctor:terminal.notTty', { which }) });
    return lines;
  }
  lines.push({ status: 'ok', label, detail: t('doctor:terminal.tty', { term: f.env.TERM || t('doctor:terminal.unset') }) });
  const colours =
    f.colorDepth >= 24
      ? t('doctor:terminal.colours24')
      : f.colorDepth >= 8
        ? t('doctor:terminal.colours256')
        : f.colorDepth >= 4
          ? t('doctor:terminal.colours16')
          : t('doctor:terminal.noColour');
  lines.push({ status: 'info', label: t('doctor:terminal.coloursLabel'), detail: colours });
  const small = (f.columns ?? 0) < 60 || (f.rows ?? 0) < 15;
  lines.push({
    status: 'info',
    label: t('doctor:terminal.sizeLabel'),
    detail: t(small ? 'doctor:terminal.sizeSmall' : 'doctor:terminal.size', { columns: f.columns ?? '?', rows: f.rows ?? '?' }),
  });
  lines.push({
    status: 'info',
    label: t('doctor:terminal.pasteLabel'),
    detail: t(likelyBracketedPaste(f.env) ? 'doctor:terminal.likely' : 'doctor:terminal.unlikely'),
  });
  lines.push({
    status: 'info',
    label: t('doctor:terminal.osc52Label'),
    detail: t(likelyOsc52(f.env) ? 'doctor:terminal.likely' : 'doctor:terminal.osc52Unknown'),
  });
  return lines;
}

/** ARBOR_HOME exists (created 0700 if it did not) and takes a file (written 0600, removed). */
export function homeCheck(home: string): CheckLine {
  const label = t('doctor:home.label');
  const probe = join(home, `.doctor-${process.pid}`);
  try {
    makePrivateDir(home);
    writePrivate(probe, 'ok');
    rmSync(probe, { force: true });
    return { status: 'ok', label, detail: t('doctor:home.ok', { path: home }) };
  } catch (err) {
    const reason = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
    return { status: 'fail', label, detail: t('doctor:home.notWritable', { path: home, reason }) };
  }
}
