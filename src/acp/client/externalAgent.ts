// An external ACP agent (gemini --experimental-acp, opencode acp, goose acp, ...) run as
// arbor's children through the official SDK's client side: the process is started with a
// tool subprocess's environment and a reaper marker, each child is one ACP session whose
// prompt is the task, and the agent's requests to its client (permission, fs, terminal) are routed by
// session to that child's host, which applies the caller's policy. A stop is session/cancel
// first, then the process ends.
import { spawn, type ChildProcess } from 'node:child_process';
import { basename } from 'node:path';
import { Readable, Writable } from 'node:stream';
import * as acp from '@agentclientprotocol/sdk/unstable';
import type { AcpAgentConfig } from '../../config/types.js';
import { sleep } from '../../timers/timer.js';
import { registerToolProcess, terminateToolRun } from '../../tools/processReaper.js';
import type { AcpTerminals } from './terminals.js';

/** How long a cancelled agent gets to end its turn before its process is ended. */
export const CANCEL_GRACE_MS = 2000;
const KILL_GRACE_MS = 1000;
const STDERR_CAP = 8 * 1024;

/** What one child supplies: where its updates go and how the agent's requests are answered. */
export interface AcpChildHost {
  /** The session's cwd (absolute): the caller's unless the agent config names one. */
  cwd: string;
  update(update: acp.SessionUpdate): void;
  permission(req: acp.RequestPermissionRequest): Promise<acp.RequestPermissionResponse>;
  /** Throws acp.RequestError when the path is refused. */
  readTextFile(req: acp.ReadTextFileRequest): Promise<acp.ReadTextFileResponse>;
  writeTextFile(req: acp.WriteTextFileRequest): Promise<void>;
  /** terminal/*: commands run under the caller's shell policy. */
  terminals: AcpTerminals;
}

export interface AcpChildResult {
  /** The agent's last message of the turn (the text after its last tool call). */
  text: string;
  /** agentInfo.name from initialize, else the command's name. */
  agentName: string;
  stopReason: acp.StopReason | 'aborted';
  usage?: { inputTokens: number; outputTokens: number };
  /** A prompt `nextPrompt` gave that was never sent: the stop came first. */
  unsent?: string;
}

/** The agent's final message: what it said after its last tool call (all of it if it made none). */
class FinalMessage {
  private parts: string[] = [];
  add(update: acp.SessionUpdate): void {
    if (update.sessionUpdate === 'tool_call') this.parts = [];
    else if (update.sessionUpdate === 'agent_message_chunk' && update.content.type === 'text') this.parts.push(update.content.text);
  }
  get text(): string {
    return this.parts.join('');
  }
  /** A new turn: its final message is its own. */
  reset(): void {
    this.parts = [];
  }
}

function exited(proc: ChildProcess): Promise<void> {
  if (proc.exitCode !== null || proc.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => proc.once('exit', () => resolve()));
}

function refused(sessionId: string): never {
  throw acp.RequestError.invalidParams({ sessionId }, `no arbor child owns session '${sessionId}'`);
}

/** One running agent process and its ACP connection: one session per child. */
export class AcpAgentProcess {
  private readonly proc: ChildProcess;
  private readonly marker: string;
  private readonly conn: acp.ClientConnection;
  private readonly hosts = new Map<string, { host: AcpChildHost; final: FinalMessage }>();
  private readonly failed: Promise<never>;
  private tail = '';
  private busy = 0;
  private init?: Promise<string>;

  constructor(
    private readonly spec: AcpAgentConfig,
    private readonly cwd: string,
    spawnEnv: () => { env: Record<string, string>; marker: string },
  ) {
    const { env, marker } = spawnEnv();
    this.marker = marker;
    // Its own process group: ending the agent ends whatever it started.
    this.proc = spawn(spec.command, spec.args, {
      cwd: spec.cwd ?? cwd,
      env: { ...env, ...spec.env },
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: true,
    });
    registerToolProcess(marker, this.proc.pid);
    // The agent's stderr is not the operator's screen: its tail goes into the error if it dies.
    this.proc.stderr?.setEncoding('utf8').on('data', (d: string) => (this.tail = (this.tail + d).slice(-STDERR_CAP)));
    const spawnFailed = new Promise<never>((_, reject) =>
      this.proc.once('error', (err) => reject(new Error(`${spec.command}: ${err.message}`))),
    );
    const gone = exited(this.proc).then(() => {
      const said = this.tail.trim().split('\n').slice(-3).join(' | ');
      throw new Error(
        `${spec.command} exited (${this.proc.exitCode ?? this.proc.signalCode}) before its turn ended${said ? `: ${said}` : ''}`,
      );
    });
    this.failed = Promise.race([spawnFailed, gone]);
    this.failed.catch(() => undefined);
    const route = (sessionId: string) => this.hosts.get(sessionId)?.host ?? refused(sessionId);
    this.conn = acp
      .client({ name: 'arbor' })
      .onNotification('session/update', ({ params }) => {
        const entry = this.hosts.get(params.sessionId);
        entry?.final.add(params.update);
        entry?.host.update(params.update);
      })
      .onRequest('session/request_permission', ({ params }) => route(params.sessionId).permission(params))
      .onRequest('fs/read_text_file', ({ params }) => route(params.sessionId).readTextFile(params))
      .onRequest('fs/write_text_file', async ({ params }) => {
        await route(params.sessionId).writeTextFile(params);
        return {};
      })
      .onRequest('terminal/create', ({ params }) => route(params.sessionId).terminals.create(params))
      .onRequest('terminal/output', ({ params }) => route(params.sessionId).terminals.output(params))
      .onRequest('terminal/wait_for_exit', ({ params }) => route(params.sessionId).terminals.waitForExit(params))
      .onRequest('terminal/kill', async ({ params }) => {
        await route(params.sessionId).terminals.kill(params);
        return {};
      })
      .onRequest('terminal/release', async ({ params }) => {
        await route(params.sessionId).terminals.release(params);
        return {};
      })
      .connect(
        acp.ndJsonStream(
          Writable.toWeb(this.proc.stdin!) as WritableStream<Uint8Array>,
          Readable.toWeb(this.proc.stdout!) as unknown as ReadableStream<Uint8Array>,
        ),
      );
  }

  /** No child has a session on it now. */
  get idle(): boolean {
    return this.busy === 0;
  }

  get alive(): boolean {
    return this.proc.exitCode === null && this.proc.signalCode === null;
  }

  private race<T>(p: Promise<T>): Promise<T> {
    return Promise.race([p, this.failed]);
  }

  /** A shared agent between children does not keep arbor running on its own. */
  private hold(delta: number): void {
    this.busy += delta;
    const handles = [this.proc, this.proc.stdin, this.proc.stdout, this.proc.stderr] as Array<{ ref?(): void; unref?(): void } | null>;
    for (const h of handles) (this.busy > 0 ? h?.ref : h?.unref)?.call(h);
  }

  private initialize(): Promise<string> {
    this.init ??= this.race(
      this.conn.agent.request('initialize', {
        protocolVersion: acp.PROTOCOL_VERSION,
        clientCapabilities: { fs: { readTextFile: true, writeTextFile: true }, terminal: true },
        clientInfo: { name: 'arbor', version: '1' },
      }),
    ).then((init) => init.agentInfo?.name ?? basename(this.spec.command));
    return this.init;
  }

  /** Runs a fresh session: each prompt `nextPrompt` gives is one turn, until it gives none
   * (the first call gives the task; later ones steering for the same session). Resolves
   * with the last turn's final message when the turns are done or `signal` stopped them (a
   * turn the cancel did not end within the grace ends the process). Rejects naming the
   * agent when it cannot be started, does not speak ACP, or dies. */
  async run(host: AcpChildHost, signal: AbortSignal, nextPrompt: () => Promise<string | undefined>): Promise<AcpChildResult> {
    this.hold(1);
    let sessionId: string | undefined;
    try {
      const agentName = await this.initialize();
      sessionId = (await this.race(this.conn.agent.request('session/new', { cwd: this.spec.cwd ?? host.cwd, mcpServers: [] }))).sessionId;
      const final = new FinalMessage();
      this.hosts.set(sessionId, { host, final });
      const stopped = new Promise<'aborted'>((resolve) => {
        if (signal.aborted) resolve('aborted');
        signal.addEventListener('abort', () => resolve('aborted'), { once: true });
      });
      let result: AcpChildResult = { text: '', agentName, stopReason: 'end_turn' };
      let usage: AcpChildResult['usage'];
      for (let text = await this.race(nextPrompt()); text !== undefined; text = await this.race(nextPrompt())) {
        if (signal.aborted) return { text: final.text, agentName, stopReason: 'aborted', unsent: text };
        final.reset();
        const turn = this.conn.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text }] });
        const first = await this.race(Promise.race([turn, stopped]));
        if (first === 'aborted') {
          await this.cancelTurn(sessionId, turn);
          return { text: final.text, agentName, stopReason: 'aborted' };
        }
        const u = first.usage;
        if (u)
          usage = { inputTokens: (usage?.inputTokens ?? 0) + u.inputTokens, outputTokens: (usage?.outputTokens ?? 0) + u.outputTokens };
        result = { text: final.text, agentName, stopReason: first.stopReason, ...(usage ? { usage } : {}) };
        // A turn the agent ended other than by finishing (refused, cancelled, out of tokens)
        // takes no steering after it.
        if (first.stopReason !== 'end_turn') return result;
      }
      // No next prompt because the run was stopped meanwhile (held by a pause, say).
      return signal.aborted ? { text: final.text, agentName, stopReason: 'aborted' } : result;
    } finally {
      if (sessionId) this.hosts.delete(sessionId);
      await host.terminals.releaseAll();
      this.hold(-1);
    }
  }

  /** session/cancel, then the grace for the turn to end; an agent that does not end it
   * cannot be stopped any other way than by ending its process. */
  private async cancelTurn(sessionId: string, turn: Promise<unknown>): Promise<void> {
    await this.conn.agent.notify('session/cancel', { sessionId }).catch(() => undefined);
    const ended = await Promise.race([
      turn.then(
        () => true,
        () => true,
      ),
      sleep(CANCEL_GRACE_MS).then(
        () => false,
        () => false,
      ),
      this.failed.catch(() => true),
    ]);
    if (!ended) await this.end();
  }

  /** Closes the connection and ends the process and everything it started. */
  async end(): Promise<void> {
    this.conn.close();
    this.proc.stdin?.end();
    // Its stdin closed, a well-behaved agent exits; the wait holds the event loop (the
    // reaper's own poll does not), then whatever is left of its group is ended.
    if (this.alive) {
      this.proc.ref();
      await Promise.race([exited(this.proc), sleep(KILL_GRACE_MS).catch(() => undefined)]);
    }
    await terminateToolRun(this.marker, this.proc.pid, KILL_GRACE_MS);
  }
}

/** A child with its own process (per_child = true): started for it, ended after it. */
export async function runAcpChild(
  spec: AcpAgentConfig,
  host: AcpChildHost,
  signal: AbortSignal,
  nextPrompt: () => Promise<string | undefined>,
  spawnEnv: () => { env: Record<string, string>; marker: string },
): Promise<AcpChildResult> {
  const agent = new AcpAgentProcess(spec, host.cwd, spawnEnv);
  try {
    return await agent.run(host, signal, nextPrompt);
  } finally {
    await agent.end();
  }
}
