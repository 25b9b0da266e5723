// `arbor acp`: arbor as an ACP agent over stdio (the official SDK's agent side). Each ACP
// session is an arbor session with its own runtime; session/load and session/resume reopen
// a saved one. stdout carries protocol messages only: whatever else writes to it goes to stderr.
import { Readable } from 'node:stream';
import * as acp from '@agentclientprotocol/sdk/unstable';
import { t } from '../../i18n/index.js';
import { AcpSession, type OpenedRuntime } from './session.js';
import { configOptions, MODEL_OPTION } from './configOptions.js';

export interface AcpHost {
  /** The folder arbor was started in: the only cwd it serves (its config was loaded for it). */
  cwd: string;
  version: string;
  /** A runtime for a new session, or for a saved one (`restoreId`); throws naming what failed. */
  open(restoreId?: string): OpenedRuntime;
  log(line: string): void;
}

/** The protocol's own writer, and stdout taken away from everyone else. */
export function protocolStdout(): WritableStream<Uint8Array> {
  const out = process.stdout;
  const write = out.write.bind(out) as (chunk: Uint8Array, cb: (err?: Error | null) => void) => boolean;
  // Anything in arbor that would print to stdout (a notice, a hint) must not corrupt the
  // JSON-RPC stream: it lands on stderr instead.
  out.write = process.stderr.write.bind(process.stderr) as typeof out.write;
  return new WritableStream<Uint8Array>({
    write: (chunk) => new Promise<void>((resolve, reject) => void write(chunk, (err) => (err ? reject(err) : resolve()))),
  });
}

function promptText(blocks: acp.ContentBlock[]): string {
  return blocks
    .map((b) => {
      if (b.type === 'text') return b.text;
      if (b.type === 'resource_link') return b.uri;
      if (b.type === 'resource' && 'text' in b.resource) return `${b.resource.uri}\n${b.resource.text}`;
      return '';
    })
    .filter(Boolean)
    .join('\n');
}

export async function serveAcp(host: AcpHost, stream: acp.Stream): Promise<void> {
  const sessions = new Map<string, AcpSession>();
  let subagents = false;
  let notices = false;
  const find = (sessionId: string): AcpSession => {
    for (const s of sessions.values()) if (s.owns(sessionId)) return s;
    throw acp.RequestError.resourceNotFound(sessionId);
  };
  const checkCwd = (cwd: string) => {
    if (cwd !== host.cwd) throw acp.RequestError.invalidParams({ cwd }, t('acp:wrongCwd', { cwd, served: host.cwd }));
  };
  const openSession = (client: acp.AgentContext, restoreId: string | undefined, replay: boolean): AcpSession => {
    let opened: OpenedRuntime;
    try {
      opened = host.open(restoreId);
    } catch (err) {
      throw acp.RequestError.resourceNotFound(`${restoreId ?? ''}: ${(err as Error).message}`);
    }
    const session = new AcpSession(client, opened, { cwd: host.cwd, subagents, notices, log: host.log });
    sessions.set(session.id, session);
    session.start(replay);
    opened.runtime.startMcp();
    return session;
  };

  const app = acp
    .agent({ name: 'arbor' })
    .onRequest('initialize', ({ params }) => {
      subagents = params.clientCapabilities?.subagents != null;
      notices = params.clientCapabilities?.session?.notices != null;
      return {
        protocolVersion: acp.PROTOCOL_VERSION,
        agentInfo: { name: 'arbor', title: 'arbor', version: host.version },
        agentCapabilities: {
          loadSession: true,
          promptCapabilities: { embeddedContext: true },
          sessionCapabilities: { close: {}, resume: {} },
        },
        authMethods: [],
      } as acp.InitializeResponse;
    })
    .onRequest('session/new', ({ params, client }) => {
      checkCwd(params.cwd);
      const s = openSession(client, undefined, false);
      return { sessionId: s.id, configOptions: configOptions(s.runtime) };
    })
    .onRequest('session/load', async ({ params, client }) => {
      checkCwd(params.cwd);
      const open = sessions.get(params.sessionId);
      if (open) await open.close();
      const s = openSession(client, params.sessionId, true);
      await s.flushed();
      return { configOptions: configOptions(s.runtime) };
    })
    .onRequest('session/resume', ({ params, client }) => {
      checkCwd(params.cwd);
      const s = sessions.get(params.sessionId) ?? openSession(client, params.sessionId, false);
      return { configOptions: configOptions(s.runtime) };
    })
    .onRequest('session/close', async ({ params }) => {
      const s = sessions.get(params.sessionId);
      if (!s) throw acp.RequestError.resourceNotFound(params.sessionId);
      sessions.delete(params.sessionId);
      await s.close();
      return {};
    })
    .onRequest('session/set_config_option', ({ params }) => {
      const s = find(params.sessionId);
      if (params.configId !== MODEL_OPTION || typeof params.value !== 'string')
        throw acp.RequestError.invalidParams({ configId: params.configId });
      try {
        s.runtime.setModel?.(params.value);
      } catch (err) {
        throw acp.RequestError.invalidParams({ value: params.value }, (err as Error).message);
      }
      return { configOptions: configOptions(s.runtime) };
    })
    .onRequest('session/prompt', async ({ params }) => {
      const s = sessions.get(params.sessionId);
      if (!s) {
        // A child's session exists but is not one to prompt: say so rather than "not found".
        find(params.sessionId);
        throw acp.RequestError.invalidParams({ sessionId: params.sessionId }, t('acp:childPrompt', { sessionId: params.sessionId }));
      }
      const text = promptText(params.prompt);
      if (!text.trim()) throw acp.RequestError.invalidParams({ prompt: params.prompt }, t('acp:emptyPrompt'));
      return { stopReason: await s.prompt(text) };
    })
    .onNotification('session/cancel', ({ params }) => {
      try {
        find(params.sessionId).cancel(params.sessionId);
      } catch {
        host.log(`acp: session/cancel for an unknown session ${params.sessionId}`);
      }
    });

  const conn = app.connect(stream);
  await conn.closed;
  for (const s of sessions.values()) await s.close().catch((err: unknown) => host.log(`acp: closing ${s.id}: ${(err as Error).message}`));
}

/** stdin as the SDK reads it. */
export function protocolStdin(): ReadableStream<Uint8Array> {
  return Readable.toWeb(process.stdin) as unknown as ReadableStream<Uint8Array>;
}
