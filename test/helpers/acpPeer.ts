// An ACP client (the official SDK's client side) driving the built `arbor acp` over real
// stdio, recording every session/update and permission ask it receives.
import { spawn, type ChildProcess } from 'node:child_process';
import { Readable, Writable } from 'node:stream';
import * as acp from '@agentclientprotocol/sdk/unstable';
import { tempArborHome, writeConfig, type ArborHome } from '../support/tempHome.js';
import { startLoopbackModel, type LoopbackIncoming, type LoopbackModel, type LoopbackReply } from '../support/loopbackModel.js';
import { trustFolderForTest } from '../support/trustFolder.js';
import { join } from 'node:path';
import { arborBin, repoRoot } from '../support/paths.js';
import { baseEnv } from '../support/terminal.js';

export interface Peer {
  proc: ChildProcess;
  conn: acp.ClientConnection;
  updates: acp.SessionNotification[];
  asks: acp.RequestPermissionRequest[];
  stderr: () => string;
  /** Resolves once an update matching `pred` has arrived. */
  waitFor(pred: (n: acp.SessionNotification) => boolean): Promise<acp.SessionNotification>;
  /** Resolves once a permission ask matching `pred` has arrived. */
  waitForAsk(pred: (r: acp.RequestPermissionRequest) => boolean): Promise<acp.RequestPermissionRequest>;
  /** initialize with `clientCapabilities`, then session/new in the home's work folder; the new session's id. */
  open(clientCapabilities?: acp.ClientCapabilities): Promise<string>;
  /** session/prompt with one text block. */
  prompt(sessionId: string, text: string): Promise<acp.PromptResponse>;
  /** Closes stdin and waits for the server to exit. */
  end(): Promise<number | null>;
}

/** A temp home whose config (from `config`, given the model's URL) points main at a loopback
 * model answering with `respond`, its folder trusted; `cleanups` gets what ends both. */
export async function acpHome(
  respond: (req: LoopbackIncoming) => LoopbackReply | Promise<LoopbackReply>,
  config: (url: string) => string,
  cleanups: Array<() => Promise<void> | void>,
): Promise<{ h: ArborHome; model: LoopbackModel }> {
  const h = tempArborHome({ prefix: 'arbor-acp-' });
  cleanups.push(() => h.cleanup());
  const model = await startLoopbackModel({ dialect: 'openai', respond });
  cleanups.push(() => model.close());
  writeConfig(h.dir, config(model.url));
  trustFolderForTest(h.dir, baseEnv(h.env));
  return { h, model };
}

/** The scripted ACP agent the tests delegate to (test/fixtures/acpAgent.mjs). */
export const ACP_AGENT_FIXTURE = join(repoRoot, 'test', 'fixtures', 'acpAgent.mjs');

/** The config lines of an ACP agent `alias` that runs `script` under this Node. */
export function acpAgentLines(script = ACP_AGENT_FIXTURE, alias = 'ext'): string[] {
  return [`[agents.${alias}]`, 'runtime = "acp"', `command = ${JSON.stringify(process.execPath)}`, `args = [${JSON.stringify(script)}]`];
}

/** Starts `arbor acp` in the home's work folder; `answer` picks the option id for each ask
 * (it may wait). `cleanups` gets what ends the process. */
export function startAcp(
  h: ArborHome,
  answer: (req: acp.RequestPermissionRequest) => string | Promise<string>,
  cleanups: Array<() => Promise<void> | void>,
  env: Record<string, string> = {},
): Peer {
  const proc = spawn(process.execPath, [arborBin, 'acp'], {
    cwd: h.dir,
    env: baseEnv({ ...h.env, ...env }),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let err = '';
  proc.stderr!.setEncoding('utf8').on('data', (d: string) => (err += d));
  const updates: acp.SessionNotification[] = [];
  const asks: acp.RequestPermissionRequest[] = [];
  const waiters: Array<{ pred: (n: acp.SessionNotification) => boolean; resolve: (n: acp.SessionNotification) => void }> = [];
  const askWaiters: Array<{ pred: (r: acp.RequestPermissionRequest) => boolean; resolve: (r: acp.RequestPermissionRequest) => void }> = [];
  const stream = acp.ndJsonStream(
    Writable.toWeb(proc.stdin!) as WritableStream<Uint8Array>,
    Readable.toWeb(proc.stdout!) as unknown as ReadableStream<Uint8Array>,
  );
  const conn = acp
    .client({ name: 'arbor-acp-test' })
    .onNotification('session/update', ({ params }) => {
      updates.push(params);
      for (const w of waiters.splice(0)) {
        if (w.pred(params)) w.resolve(params);
        else waiters.push(w);
      }
    })
    .onRequest('session/request_permission', async ({ params }) => {
      asks.push(params);
      for (const w of askWaiters.splice(0)) {
        if (w.pred(params)) w.resolve(params);
        else askWaiters.push(w);
      }
      return { outcome: { outcome: 'selected', optionId: await answer(params) } };
    })
    .connect(stream);
  const exited = () => new Promise<void>((r) => (proc.exitCode !== null || proc.signalCode !== null ? r() : proc.once('exit', () => r())));
  cleanups.push(async () => {
    conn.close();
    if (proc.exitCode === null && proc.signalCode === null) {
      proc.kill('SIGKILL');
      await exited();
    }
  });
  return {
    proc,
    conn,
    updates,
    asks,
    stderr: () => err,
    waitFor: (pred) => {
      const hit = updates.find(pred);
      if (hit) return Promise.resolve(hit);
      return new Promise((resolve) => waiters.push({ pred, resolve }));
    },
    waitForAsk: (pred) => {
      const hit = asks.find(pred);
      if (hit) return Promise.resolve(hit);
      return new Promise((resolve) => askWaiters.push({ pred, resolve }));
    },
    async open(clientCapabilities = {}) {
      await conn.agent.request('initialize', { protocolVersion: acp.PROTOCOL_VERSION, clientCapabilities });
      return (await conn.agent.request('session/new', { cwd: h.dir, mcpServers: [] })).sessionId;
    },
    prompt: (sessionId, text) => conn.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text }] }),
    async end() {
      proc.stdin!.end();
      await exited();
      return proc.exitCode;
    },
  };
}
