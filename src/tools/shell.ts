// The shell tool. The command runs under /bin/sh in its own process group, with an
// environment free of secrets and tagged with a per-call marker (tools/toolEnv.ts). On
// abort (kill / stop of the run), on timeout, and when the shell exits leaving background
// jobs behind, the group and every process carrying the marker — even one that left the
// group with setsid or a double fork — are terminated (tools/processReaper.ts): nothing the
// command started outlives the call. stdin is closed, so a command can never wait on (or
// read) the terminal.
import { bindingProfiles, confinePath } from './authority.js';
import { registerToolProcess, terminateToolRun } from './processReaper.js';
import { toolSubprocessEnv } from './toolEnv.js';
import { z } from 'zod';
import type { ShellDisplay } from '../model/toolDisplay.js';
import { defineTool } from './defineTool.js';
import { invalidArgsMap, nonBlank } from './toolArgs.js';
import { fail, ok, type ToolCaller, type ToolContext, type ToolResult } from './types.js';
import { startTimer } from '../timers/timer.js';

export const SHELL_OUTPUT_CAP_BYTES = 32 * 1024;
/** Between SIGTERM and SIGKILL for the process group. */
export const KILL_GRACE_MS = 2000;

export const COMMAND_EMPTY = "Missing or empty 'command' parameter.";
export const COMMAND_NOT_ALLOWED = (word: string, allowed: string[]) =>
  `Command '${word}' is not allowed: this agent's risk profile only allows commands starting with ${allowed.map((c) => `'${c}'`).join(', ')} (allowed_commands).`;
export const COMMAND_SUBSTITUTION_REFUSED = (allowed: string[]) =>
  `Command substitution ($(...) or backticks) is refused while allowed_commands is set (${allowed.join(', ')}): every command must be checked against that list.`;
export const SHELL_NO_COMMAND_ALLOWED = "No command is allowed: this agent's allowed_commands and its caller's have no command in common.";
export const CWD_REFUSED = (detail: string) => `The workspace directory is not usable for shell commands: ${detail}`;
export const START_FAILED = (message: string) => `Could not start the command: ${message}`;
export const EXIT_LINE = (code: number) => `[exit code: ${code}]`;
export const SIGNAL_LINE = (signal: string) => `[terminated by signal ${signal}]`;
export const TIMED_OUT_LINE = (secs: number) =>
  `[timed out after ${secs}s (shell_timeout_secs); the command and every process it started were killed]`;
export const ABORTED_LINE = '[aborted: the run was stopped; the command and every process it started were killed]';
export const OUTPUT_OMITTED = (bytes: number) => `\n[... ${bytes} bytes of output omitted ...]\n`;
export const NO_OUTPUT = '(no output)';

/** A blank command is refused with its own literal text, not the generic "Invalid arguments". */
export const shellArgs = z.object({
  command: z.string().refine(nonBlank, { error: COMMAND_EMPTY }).describe('The command line, run as `sh -c <command>`.'),
});

/** Keeps the first and last half of the cap, since errors tend to come at the end. */
class CappedOutput {
  private head: Buffer[] = [];
  private headBytes = 0;
  private tail: Buffer[] = [];
  private tailBytes = 0;
  private total = 0;

  constructor(private readonly cap: number) {}

  push(chunk: Buffer | string): void {
    let buf = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    this.total += buf.length;
    const half = this.cap / 2;
    if (this.headBytes < half) {
      const take = Math.min(half - this.headBytes, buf.length);
      this.head.push(buf.subarray(0, take));
      this.headBytes += take;
      buf = buf.subarray(take);
    }
    if (buf.length === 0) return;
    this.tail.push(buf);
    this.tailBytes += buf.length;
    while (this.tailBytes - this.tail[0].length >= half) this.tailBytes -= this.tail.shift()!.length;
  }

  text(): string {
    const head = Buffer.concat(this.head);
    let tail = Buffer.concat(this.tail);
    const half = this.cap / 2;
    if (tail.length > half) tail = tail.subarray(tail.length - half);
    const omitted = this.total - head.length - tail.length;
    if (omitted <= 0) return Buffer.concat([head, tail]).toString('utf8');
    return `${head.toString('utf8')}${OUTPUT_OMITTED(omitted)}${tail.toString('utf8')}`;
  }
}

/** Splits a command line into simple commands on unquoted ; & | && || and newlines.
 * `substitution` reports an unquoted or double-quoted $( or backtick. */
export function splitCommands(line: string): { commands: string[]; substitution: boolean } {
  const commands: string[] = [];
  let current = '';
  let quote: '"' | "'" | undefined;
  let substitution = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quote === "'") {
      if (c === "'") quote = undefined;
      current += c;
    } else if (c === '\\' && i + 1 < line.length) {
      current += c + line[++i];
    } else if (quote === '"') {
      if (c === '"') quote = undefined;
      if (c === '`' || (c === '$' && line[i + 1] === '(')) substitution = true;
      current += c;
    } else if (c === '"' || c === "'") {
      quote = c;
      current += c;
    } else if (c === '`' || (c === '$' && line[i + 1] === '(')) {
      substitution = true;
      current += c;
    } else if (c === '&' && (line[i - 1] === '>' || line[i - 1] === '<' || line[i + 1] === '>')) {
      current += c; // a redirection such as 2>&1 or &>file, not a separator
    } else if (c === ';' || c === '&' || c === '|' || c === '\n' || c === '(' || c === ')') {
      if (current.trim()) commands.push(current.trim());
      current = '';
    } else current += c;
  }
  if (current.trim()) commands.push(current.trim());
  return { commands, substitution };
}

/** undefined when allowed; else the refusal. An empty list allows any command. */
export function checkAllowedCommands(command: string, allowed: string[]): string | undefined {
  if (allowed.length === 0) return undefined;
  const { commands, substitution } = splitCommands(command);
  if (substitution) return COMMAND_SUBSTITUTION_REFUSED(allowed);
  for (const simple of commands) {
    const word = simple.split(/\s+/)[0];
    if (!allowed.includes(word)) return COMMAND_NOT_ALLOWED(word, allowed);
  }
  return undefined;
}

function describeShell(caller: ToolCaller): string {
  const secs = caller.runtime.shell_timeout_secs;
  // Every binding profile's non-empty list applies, so a command must be in all of them.
  const lists = bindingProfiles(caller)
    .map((p) => p.allowed_commands)
    .filter((l) => l.length > 0);
  const allowed = lists.length === 0 ? [] : lists[0].filter((c) => lists.every((l) => l.includes(c)));
  const timeout =
    secs > 0 ? `Each command is killed, with every process it started, after ${secs}s (shell_timeout_secs).` : 'There is no timeout.';
  const commands =
    lists.length === 0
      ? 'Any command is allowed.'
      : allowed.length > 0
        ? `Only these commands are allowed (the first word of each command in a pipeline or list): ${allowed.join(', ')}.`
        : SHELL_NO_COMMAND_ALLOWED;
  return (
    `Run a shell command with /bin/sh in the workspace directory. stdin is closed. ${timeout} ${commands} ` +
    `stdout and stderr are returned together, capped at ${SHELL_OUTPUT_CAP_BYTES / 1024} KiB (the middle is cut), followed by the exit code.`
  );
}

export const shellTool = defineTool({
  name: 'shell',
  args: shellArgs,
  argsError: invalidArgsMap('shell', '{"command": string}'),
  asksByDefault: true,
  description: describeShell,
  async run({ command }, ctx) {
    // Every bounded ceiling's command list applies as well as the caller's own.
    for (const profile of bindingProfiles(ctx.caller)) {
      const refusal = checkAllowedCommands(command, profile.allowed_commands);
      if (refusal) return fail(refusal);
    }
    const cwd = confinePath('.', ctx.cwd, ctx.caller);
    if (!cwd.ok) return fail(CWD_REFUSED(cwd.error));
    if (ctx.signal.aborted) return fail(ABORTED_LINE, { kind: 'shell', command, aborted: true });
    return runCommand(command, cwd.path, ctx);
  },
});

async function runCommand(command: string, cwd: string, ctx: ToolContext): Promise<ToolResult> {
  const timeoutSecs = ctx.caller.runtime.shell_timeout_secs;
  const output = new CappedOutput(SHELL_OUTPUT_CAP_BYTES);
  // One pipe for both streams keeps stdout and stderr in the order they were written.
  // execa costs a quarter of a second to load: take it on the first shell call, not at startup.
  const { execa } = await import('execa');
  // No provider key or other secret in the command's environment; a per-call marker lets
  // the reaper find every process it starts, even ones that leave the group.
  const { env, marker } = toolSubprocessEnv({ config: ctx.config, profiles: bindingProfiles(ctx.caller) });
  const child = execa(`exec 2>&1\n${command}`, {
    shell: true,
    cwd,
    env,
    extendEnv: false,
    detached: true,
    stdin: 'ignore',
    all: true,
    buffer: false,
    reject: false,
  });
  registerToolProcess(marker, child.pid);
  child.all?.on('data', (chunk: Buffer | string) => output.push(chunk));

  let ending: 'timeout' | 'abort' | undefined;
  let terminated: Promise<void> | undefined;
  const killGroup = () => {
    terminated ??= terminateToolRun(marker, child.pid, KILL_GRACE_MS);
  };
  const stop = (why: 'timeout' | 'abort') => {
    if (ending) return;
    ending = why;
    killGroup();
  };
  const onAbort = () => stop('abort');
  ctx.signal.addEventListener('abort', onAbort, { once: true });
  const timer = timeoutSecs > 0 ? startTimer(timeoutSecs * 1000, () => stop('timeout')) : undefined;
  // The shell is gone but jobs it put in the background may still hold the output pipe.
  child.once('exit', killGroup);

  const result = await child;
  timer?.clear();
  ctx.signal.removeEventListener('abort', onAbort);
  // A start failure emits no 'exit'; whatever happened, nothing the call started outlives it.
  killGroup();

  if (result.exitCode === undefined && !result.signal && !ending) {
    return fail(START_FAILED(result.originalMessage || result.shortMessage || 'unknown error'));
  }
  const text = output.text();
  const body = text.length > 0 ? text.replace(/\n$/, '') : NO_OUTPUT;
  const display = (d: Omit<ShellDisplay, 'kind' | 'command'>): ShellDisplay => ({ kind: 'shell', command, ...d });
  if (ending === 'timeout') return fail(`${body}\n${TIMED_OUT_LINE(timeoutSecs)}`, display({ timedOut: true }));
  if (ending === 'abort') return fail(`${body}\n${ABORTED_LINE}`, display({ aborted: true }));
  const signal = result.signal ?? 'unknown';
  if (result.exitCode === undefined) return fail(`${body}\n${SIGNAL_LINE(signal)}`, display({ signal }));
  const withCode = `${body}\n${EXIT_LINE(result.exitCode)}`;
  const exited = display({ exitCode: result.exitCode });
  return result.exitCode === 0 ? ok(withCode, exited) : fail(withCode, exited);
}
