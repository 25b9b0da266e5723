// The terminals an external ACP agent asks its client for (terminal/create, output,
// wait_for_exit, kill, release), for one child. What may run, where and with what
// environment is the caller's shell policy, decided by `admit` (the child's host); here each
// admitted command runs in its own process group tagged with the reaper's marker, its output
// (stdout and stderr together) is kept up to a cap, and nothing it started outlives its
// release, a kill, its timeout or the end of the child.
import { spawn, type ChildProcess } from 'node:child_process';
import * as acp from '@agentclientprotocol/sdk/unstable';
import { registerToolProcess, terminateToolRun } from '../../tools/processReaper.js';
import { KILL_GRACE_MS, SHELL_OUTPUT_CAP_BYTES } from '../../tools/shell.js';
import { startTimer, type Timer } from '../../timers/timer.js';

/** Where and how an admitted command runs. */
export interface AdmittedTerminal {
  cwd: string;
  env: Record<string, string>;
  marker: string;
  /** 0: no timeout (shell_timeout_secs). */
  timeoutSecs: number;
}

/** Throws acp.RequestError when the caller's policy refuses the command. */
export type AdmitTerminal = (req: acp.CreateTerminalRequest) => Promise<AdmittedTerminal>;

/** The latest `cap` bytes of the output (ACP truncates from the beginning). */
class TailOutput {
  private chunks: Buffer[] = [];
  private bytes = 0;
  truncated = false;
  constructor(private readonly cap: number) {}

  push(chunk: Buffer): void {
    this.chunks.push(chunk);
    this.bytes += chunk.length;
    while (this.bytes > this.cap) {
      const over = this.bytes - this.cap;
      const first = this.chunks[0];
      this.truncated = true;
      if (first.length <= over) {
        this.chunks.shift();
        this.bytes -= first.length;
      } else {
        this.chunks[0] = first.subarray(over);
        this.bytes -= over;
      }
    }
  }

  text(): string {
    let buf = Buffer.concat(this.chunks);
    // A cut may land inside a character: start at the next character boundary.
    let skip = 0;
    while (this.truncated && skip < buf.length && skip < 3 && (buf[skip] & 0xc0) === 0x80) skip++;
    if (skip) buf = buf.subarray(skip);
    return buf.toString('utf8');
  }
}

class Terminal {
  readonly output: TailOutput;
  exit?: acp.TerminalExitStatus;
  readonly exited: Promise<acp.TerminalExitStatus>;
  private readonly proc: ChildProcess;
  private readonly timer?: Timer;
  private ended?: Promise<void>;

  constructor(req: acp.CreateTerminalRequest, admitted: AdmittedTerminal) {
    const cap = Math.min(req.outputByteLimit ?? SHELL_OUTPUT_CAP_BYTES, SHELL_OUTPUT_CAP_BYTES);
    this.output = new TailOutput(Math.max(0, cap));
    const args = req.args ?? [];
    // Without args the command is a command line, as the shell tool runs it.
    const [file, argv] = args.length > 0 ? [req.command, args] : ['/bin/sh', ['-c', req.command]];
    this.proc = spawn(file, argv, { cwd: admitted.cwd, env: admitted.env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    registerToolProcess(admitted.marker, this.proc.pid);
    const keep = (d: Buffer) => this.output.push(d);
    this.proc.stdout?.on('data', keep);
    this.proc.stderr?.on('data', keep);
    const marker = admitted.marker;
    this.end = () => (this.ended ??= terminateToolRun(marker, this.proc.pid, KILL_GRACE_MS));
    this.exited = new Promise((resolve) => {
      const done = (status: acp.TerminalExitStatus) => {
        this.timer?.clear();
        this.exit ??= status;
        // The command is gone but what it put in the background may still run.
        void this.end();
        resolve(this.exit);
      };
      this.proc.once('error', (err) => {
        this.output.push(Buffer.from(`${req.command}: ${err.message}\n`));
        done({ exitCode: 127, signal: null });
      });
      this.proc.once('close', (code, signal) => done({ exitCode: code, signal }));
    });
    if (admitted.timeoutSecs > 0) this.timer = startTimer(admitted.timeoutSecs * 1000, () => void this.end());
  }

  /** Ends the command and every process it started (the reaper's marker finds them all). */
  readonly end: () => Promise<void>;
}

export class AcpTerminals {
  private readonly open = new Map<string, Terminal>();
  private next = 0;

  constructor(private readonly admit: AdmitTerminal) {}

  private get(terminalId: string): Terminal {
    const term = this.open.get(terminalId);
    if (!term) throw acp.RequestError.invalidParams({ terminalId }, `no terminal '${terminalId}' (released, or never created)`);
    return term;
  }

  async create(req: acp.CreateTerminalRequest): Promise<acp.CreateTerminalResponse> {
    const admitted = await this.admit(req);
    const terminalId = `term-${++this.next}`;
    this.open.set(terminalId, new Terminal(req, admitted));
    return { terminalId };
  }

  output(req: acp.TerminalOutputRequest): acp.TerminalOutputResponse {
    const term = this.get(req.terminalId);
    return { output: term.output.text(), truncated: term.output.truncated, ...(term.exit ? { exitStatus: term.exit } : {}) };
  }

  waitForExit(req: acp.WaitForTerminalExitRequest): Promise<acp.WaitForTerminalExitResponse> {
    return this.get(req.terminalId).exited;
  }

  /** Ends the command; its output stays readable until release. */
  async kill(req: acp.KillTerminalRequest): Promise<void> {
    await this.get(req.terminalId).end();
  }

  async release(req: acp.ReleaseTerminalRequest): Promise<void> {
    const term = this.get(req.terminalId);
    this.open.delete(req.terminalId);
    await term.end();
  }

  /** The child ended: every terminal it left open goes with it. */
  async releaseAll(): Promise<void> {
    const terms = [...this.open.values()];
    this.open.clear();
    await Promise.all(terms.map((t) => t.end()));
  }
}
