// A runtime with the delegate tool wired exactly as the CLI wires it (extraToolsFor +
// extraServicesFor), the real openai-compatible provider, and a loopback model server whose
// replies are scripted per agent: the agent is read from its system prompt "You are <alias>.".
import { cleanedUpAfterTest } from '../../helpers/runtimeFixture.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { extraServicesFor, extraToolsFor } from '../../../src/cli/extraTools.js';
import { loadConfigFromTexts } from '../../../src/config/load.js';
import { createRuntime, type Runtime } from '../../../src/runtime/runtime.js';
import type { ToolTranscriptItem, TranscriptItem } from '../../../src/runtime/types.js';
import {
  hasToolResults,
  startLoopbackModel,
  trailingToolResults,
  type LoopbackIncoming,
  type LoopbackModel,
  type LoopbackReply,
} from '../../support/loopbackModel.js';

export { until } from '../../helpers/runtimeFixture.js';

export type Responder = (req: LoopbackIncoming, nth: number) => LoopbackReply | Promise<LoopbackReply>;

export interface DelegateFixture {
  server: LoopbackModel;
  runtime: Runtime;
  home: string;
  workdir: string;
  /** Requests each agent sent, in order. */
  requestsOf(alias: string): LoopbackIncoming[];
  cleanup(): Promise<void>;
}

export const ENV = { ARBOR_RETRY_MAX: '0', ARBOR_RETRY_BASE_MS: '1' };

/** The provider, a delegation-allowing profile and an agentic runtime profile; `body` adds
 * agents and profiles. */
export const toml = (url: string, body: string) => `
default_agent = "main"
[providers.fake]
type = "openai-compatible"
base_url = "${url}"
model = "fake-model"
[risk_profiles.trusted]
delegation_policy = { mode = "allow" }
[runtime_profiles.agentic]
agentic = true
${body}
`;

/** An agent table; its system prompt is how the server tells agents apart. */
export const agent = (alias: string, fields = '') => `
[agents.${alias}]
provider = "fake"
system_prompt = "You are ${alias}."
${fields}
`;

export function agentOf(body: any): string {
  const system = (body?.messages ?? []).find((m: any) => m.role === 'system');
  const text = typeof system?.content === 'string' ? system.content : '';
  return /^You are ([A-Za-z0-9_-]+)\./.exec(text)?.[1] ?? '?';
}

/** One loopback model serving every agent, each from its own script (by the system
 * prompt's agent), with the requests each agent sent. */
export async function startScriptedAgents(
  agents: Record<string, Responder>,
): Promise<{ server: LoopbackModel; byAgent: Map<string, LoopbackIncoming[]> }> {
  const counts = new Map<string, number>();
  const byAgent = new Map<string, LoopbackIncoming[]>();
  const server = await startLoopbackModel({
    dialect: 'openai',
    respond: (req) => {
      const alias = agentOf(req.body);
      const nth = counts.get(alias) ?? 0;
      counts.set(alias, nth + 1);
      byAgent.set(alias, [...(byAgent.get(alias) ?? []), req]);
      const responder = agents[alias];
      if (!responder) return { kind: 'status', status: 500, body: JSON.stringify({ error: { message: `no script for ${alias}` } }) };
      return responder(req, nth);
    },
  });
  return { server, byAgent };
}

export async function delegateFixture(opts: {
  config: (url: string) => string;
  agents: Record<string, Responder>;
  /** Reuse a home (the restart test). */
  home?: string;
  /** An operator answers (fan-out confirmations, approvals). */
  interactive?: boolean;
}): Promise<DelegateFixture> {
  const { server, byAgent } = await startScriptedAgents(opts.agents);
  const home = opts.home ?? mkdtempSync(join(tmpdir(), 'arbor-delegate-home-'));
  const workdir = mkdtempSync(join(tmpdir(), 'arbor-delegate-cwd-'));
  const loaded = loadConfigFromTexts([{ text: opts.config(server.url), file: join(workdir, 'config.toml') }], ENV);
  const runtime = createRuntime({
    config: loaded.config,
    cwd: workdir,
    interactive: opts.interactive ?? false,
    env: ENV,
    extraTools: extraToolsFor(loaded.config, home),
    extraServices: extraServicesFor(loaded.config, home),
  });
  return cleanedUpAfterTest<DelegateFixture>({
    server,
    runtime,
    home,
    workdir,
    requestsOf: (alias) => byAgent.get(alias) ?? [],
    async cleanup() {
      await runtime.dispose();
      await server.close();
      rmSync(workdir, { recursive: true, force: true });
      if (!opts.home) rmSync(home, { recursive: true, force: true });
    },
  });
}

export const text = (s: string, delayMs?: number): LoopbackReply => ({ kind: 'text', chunks: [s], delayMs });
export const delegateCall = (args: object, id = 'd1'): LoopbackReply => ({ kind: 'tools', calls: [{ id, name: 'delegate', args }] });

/** One model reply that calls delegate once per entry of `args`, with call ids a, b, c… or `ids`. */
export function delegations(args: object[], ids = args.map((_, i) => String.fromCharCode(97 + i))): LoopbackReply {
  return { kind: 'tools', calls: args.map((a, i) => ({ id: ids[i], name: 'delegate', args: a })) };
}

/** An agent that makes `first` tool call(s), then answers "done" once results come back. */
export function callsThenDone(first: LoopbackReply, final = 'done'): Responder {
  return (req) => (hasToolResults(req.body) ? text(final) : first);
}

/** A sequence of replies, one per request; the last repeats. */
export function sequence(...replies: Array<LoopbackReply | ((req: LoopbackIncoming) => LoopbackReply)>): Responder {
  return (req, nth) => {
    const r = replies[Math.min(nth, replies.length - 1)];
    return typeof r === 'function' ? r(req) : r;
  };
}

/** The text of the last tool result the model was sent. */
export function lastToolResult(req: LoopbackIncoming): string {
  const results = trailingToolResults(req.body);
  return results[results.length - 1]?.content ?? '';
}

export function toolItems(items: TranscriptItem[], name = 'delegate'): ToolTranscriptItem[] {
  return items.filter((i): i is ToolTranscriptItem => i.kind === 'tool' && i.name === name);
}

/** The delegate results of the session's root turns, in order. */
export function delegateResults(runtime: Runtime): ToolTranscriptItem[] {
  return toolItems(runtime.store.getState().transcript);
}

export function toolNames(req: LoopbackIncoming): string[] {
  return ((req.body?.tools ?? []) as any[]).map((t) => t.function?.name as string);
}

export function delegateSpecOf(req: LoopbackIncoming): any {
  return ((req.body?.tools ?? []) as any[]).find((t) => t.function?.name === 'delegate')?.function;
}

export function firstUser(req: LoopbackIncoming): string {
  const m = (req.body?.messages ?? []).find((x: any) => x.role === 'user');
  return typeof m?.content === 'string' ? m.content : '';
}

export const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/;
