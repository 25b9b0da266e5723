// An external ACP agent (gemini --experimental-acp, opencode acp, goose acp, ...) run as one
// arbor child through the official SDK's client side: the process is started with a tool
// subprocess's environment and a reaper marker, one ACP session carries the task as its
// prompt, and the agent's requests to its client (permission, fs) are answered by the host,
// which applies the caller's policy. A stop is session/cancel first, then the process ends.
import { spawn, type ChildProcess } from 'node:child_process';
import { basename } from 'node:path';
import { Readable, Writable } from 'node:stream';
import * as acp from '@agentclientprotocol/sdk/unstable';
import type { AcpAgentConfig } from '../../config/types.js';
import { sleep } from '../../timers/timer.js';
import { registerToolProcess, terminateToolRun } from '../../tools/processReaper.js';

/** How long a cancelled agent gets to end its turn before its process is ended. */
export const CANCEL_GRACE_MS = 2000;
const KILL_GRACE_MS = 1000;
const STDERR_CAP = 8 * 1024;

/** What the caller supplies: where updates go and how the agent's requests are answered. */
export interface AcpChildHost {
  /** The session's cwd (absolute): the caller's unless the agent config names one. */
  cwd: string;
  /** A tool subprocess's environment and its reaper marker (tools/toolEnv.ts). */
  spawnEnv(): { env: Record<string, string>; marker: string };
  update(update: acp.SessionUpdate): void;
  permission(req: acp.RequestPermissionRequest, signal: AbortSignal): Promise<acp.RequestPermissionResponse>;
  /** Throws acp.RequestError when the path is refused. */
  readTextFile(req: acp.ReadTextFileRequest): Promise<acp.ReadTextFileResponse>;
  writeTextFile(req: acp.WriteTextFileRequest): Promise<void>;
  /** The agent's stderr and protocol trouble (never the terminal). */
  log(line: string): void;
}

export interface AcpChildResult {
  /** The agent's last message of the turn (the text after its last tool call). */
  text: string;
  /** agentInfo.name from initialize, else the command's name. */
  agentName: string;
  stopReason: acp.StopReason | 'aborted';
  usage?: { inputTokens: number; outputTokens: number };
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
}

function startProcess(spec: AcpAgentConfig, host: AcpChildHost): { proc: ChildProcess; marker: string; stderrTail: () => string } {
  const { env, marker } = host.spawnEnv();
  // Its own process group: ending the agent ends whatever it started.
  const proc = spawn(spec.command, spec.args, {
    cwd: spec.cwd ?? host.cwd,
    env: { ...env, ...spec.env },
    stdio: ['pipe', 'pipe', 'pipe'],
    detached: true,
  });
  registerToolProcess(marker, proc.pid);
  let tail = '';
  proc.stderr?.setEncoding('utf8').on('data', (d: string) => {
    tail = (tail + d).slice(-STDERR_CAP);
    host.log(d);
  });
  return { proc, marker, stderrTail: () => tail.trim().split('\n').slice(-3).join(' | ') };
}

function exited(proc: ChildProcess): Promise<void> {
  if (proc.exitCode !== null || proc.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => proc.once('exit', () => resolve()));
}

/** Runs `task` as one prompt turn of a fresh session; resolves when the turn ends or
 * `signal` stopped it (the process is gone either way). Rejects naming the agent when it
 * cannot be started or does not speak ACP. */
export async function runAcpChild(spec: AcpAgentConfig, task: string, host: AcpChildHost, signal: AbortSignal): Promise<AcpChildResult> {
  const { proc, marker, stderrTail } = startProcess(spec, host);
  const spawnFailed = new Promise<never>((_, reject) => proc.once('error', (err) => reject(new Error(`${spec.command}: ${err.message}`))));
  const gone = exited(proc).then(() => {
    const said = stderrTail();
    throw new Error(`${spec.command} exited (${proc.exitCode ?? proc.signalCode}) before its turn ended${said ? `: ${said}` : ''}`);
  });
  const final = new FinalMessage();
  let sessionId = '';
  const conn = acp
    .client({ name: 'arbor' })
    .onNotification('session/update', ({ params }) => {
      if (params.sessionId !== sessionId) return;
      final.add(params.update);
      host.update(params.update);
    })
    .onRequest('session/request_permission', ({ params }) => host.permission(params, signal))
    .onRequest('fs/read_text_file', ({ params }) => host.readTextFile(params))
    .onRequest('fs/write_text_file', async ({ params }) => {
      await host.writeTextFile(params);
      return {};
    })
    .connect(
      acp.ndJsonStream(
        Writable.toWeb(proc.stdin!) as WritableStream<Uint8Array>,
        Readable.toWeb(proc.stdout!) as unknown as ReadableStream<Uint8Array>,
      ),
    );
  const race = <T>(p: Promise<T>) => Promise.race([p, spawnFailed, gone]);
  try {
    const init = await race(
      conn.agent.request('initialize', {
        protocolVersion: acp.PROTOCOL_VERSION,
        clientCapabilities: { fs: { readTextFile: true, writeTextFile: true }, terminal: false },
        clientInfo: { name: 'arbor', version: '1' },
      }),
    );
    const agentName = init.agentInfo?.name ?? basename(spec.command);
    const session = await race(conn.agent.request('session/new', { cwd: spec.cwd ?? host.cwd, mcpServers: [] }));
    sessionId = session.sessionId;
    const turn = conn.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: task }] });
    const stopped = new Promise<'aborted'>((resolve) => {
      if (signal.aborted) resolve('aborted');
      signal.addEventListener('abort', () => resolve('aborted'), { once: true });
    });
    const first = await race(Promise.race([turn, stopped]));
    if (first === 'aborted') {
      // session/cancel first: a well-behaved agent ends its turn as cancelled; one that does
      // not within the grace is ended with its process below.
      await conn.agent.notify('session/cancel', { sessionId }).catch(() => undefined);
      await Promise.race([turn.catch(() => undefined), sleep(CANCEL_GRACE_MS).catch(() => undefined), gone.catch(() => undefined)]);
      return { text: final.text, agentName, stopReason: 'aborted' };
    }
    const u = first.usage;
    return {
      text: final.text,
      agentName,
      stopReason: first.stopReason,
      ...(u ? { usage: { inputTokens: u.inputTokens, outputTokens: u.outputTokens } } : {}),
    };
  } finally {
    conn.close();
    proc.stdin?.end();
    gone.catch(() => undefined);
    spawnFailed.catch(() => undefined);
    // Its stdin closed, a well-behaved agent exits; the wait holds the event loop (the
    // reaper's own poll does not), then whatever is left of its group is ended.
    await Promise.race([exited(proc), sleep(KILL_GRACE_MS).catch(() => undefined)]);
    await terminateToolRun(marker, proc.pid, KILL_GRACE_MS);
  }
}
