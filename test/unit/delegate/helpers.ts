// A runtime with the delegate tool wired exactly as the CLI wires it (extraToolsFor +
// extraServicesFor), the real openai-compatible provider, and a loopback model server whose
// replies are scripted per agent: the agent is read from its system prompt "You are <alias>.".
import { cleanedUpAfterTest } from '../../helpers/runtimeFixture.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { onTestFinished } from 'vitest';
import { messagesOf } from '../../support/wireBody.js';
import { offeredTool, offeredTools, type WireTool } from '../../support/wireRequest.js';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { extraServicesFor, extraToolsFor } from '../../../src/cli/extraTools.js';
import { loadConfigFromTexts } from '../../../src/config/load.js';
import { createRuntime, type CreateRuntimeOptions, type Runtime } from '../../../src/runtime/runtime.js';
import type { AgentFileText } from '../../../src/config/agentFiles.js';
import type { ArborConfig } from '../../../src/config/types.js';
import type { TaskRecord, TaskStore } from '../../../src/persistence/taskRecords.js';
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

export function agentOf(body: unknown): string {
  const system = messagesOf(body).find((m) => m.role === 'system');
  const text = typeof system?.content === 'string' ? system.content : '';
  return /^You are ([A-Za-z0-9_-]+)\./.exec(text)?.[1] ?? '?';
}

/** One loopback model serving every agent, each from its own script (by the system
 * prompt's agent), with the requests each agent sent. */
export async function startScriptedAgents(
  agents: Record<string, Responder>,
  answerModel?: (model: string) => string,
): Promise<{ server: LoopbackModel; byAgent: Map<string, LoopbackIncoming[]> }> {
  const counts = new Map<string, number>();
  const byAgent = new Map<string, LoopbackIncoming[]>();
  const server = await startLoopbackModel({
    dialect: 'openai',
    answerModel,
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

/** A home of this test's own, removed when the test ends (after the runtime that uses it,
 * as onTestFinished hooks run last-in first-out): for records laid down before a start. */
export function testHome(name = 'delegate'): string {
  const home = mkdtempSync(join(tmpdir(), `arbor-${name}-home-`));
  onTestFinished(() => rmSync(home, { recursive: true, force: true }));
  return home;
}

/** What every scripted-agents runtime below shares: one loopback model serving each agent
 * its own script, a home and a workspace in temp folders, the config loaded from `config`,
 * and the runtime wired as the CLI wires it (extraToolsFor + extraServicesFor). Cleaned up
 * when the test ends (a given `home` is the caller's and stays). */
export async function scriptedRuntime(opts: {
  /** The config's text for the model server's URL and the workspace folder. */
  config: (url: string, workdir: string) => string;
  agents: Record<string, Responder>;
  /** Names the temp folders: arbor-<name>-home-, arbor-<name>-cwd-. */
  name: string;
  /** Reuse a home (the restart tests); it is not removed. */
  home?: string;
  /** Readies the fresh workspace folder; returns the path to use, if other. */
  workspace?: (dir: string) => string | void;
  env?: Record<string, string>;
  agentFiles?: AgentFileText[];
  answerModel?: (model: string) => string;
  /** More runtime options, from the loaded config and the folders. */
  runtime?: (config: ArborConfig, dirs: { home: string; workdir: string }) => Partial<CreateRuntimeOptions>;
}): Promise<DelegateFixture> {
  const { server, byAgent } = await startScriptedAgents(opts.agents, opts.answerModel);
  const home = opts.home ?? mkdtempSync(join(tmpdir(), `arbor-${opts.name}-home-`));
  const fresh = mkdtempSync(join(tmpdir(), `arbor-${opts.name}-cwd-`));
  const workdir = opts.workspace?.(fresh) ?? fresh;
  const env = opts.env ?? ENV;
  const loaded = loadConfigFromTexts(
    [{ text: opts.config(server.url, workdir), file: join(workdir, 'config.toml') }],
    env,
    opts.agentFiles,
  );
  const runtime = createRuntime({
    config: loaded.config,
    cwd: workdir,
    interactive: false,
    env,
    extraTools: extraToolsFor(loaded.config, home),
    extraServices: extraServicesFor(loaded.config, home),
    ...opts.runtime?.(loaded.config, { home, workdir }),
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

export function delegateFixture(opts: {
  config: (url: string) => string;
  agents: Record<string, Responder>;
  /** Reuse a home (the restart test). */
  home?: string;
  /** An operator answers (fan-out confirmations, approvals). */
  interactive?: boolean;
}): Promise<DelegateFixture> {
  return scriptedRuntime({
    name: 'delegate',
    config: (url) => opts.config(url),
    agents: opts.agents,
    home: opts.home,
    runtime: () => ({ interactive: opts.interactive ?? false }),
  });
}

/** A fixture of `body` (agents and profiles under the shared provider) whose root has run
 * one turn, "go". */
export async function afterOneTurn(body: string, agents: Record<string, Responder>): Promise<DelegateFixture> {
  const fx = await delegateFixture({ config: (url) => toml(url, body), agents });
  await fx.runtime.startTurn('go');
  return fx;
}

export const text = (s: string, delayMs?: number): LoopbackReply => ({ kind: 'text', chunks: [s], delayMs });
export const delegateCall = (args: object, id = 'd1'): LoopbackReply => ({ kind: 'tools', calls: [{ id, name: 'delegate', args }] });

/** One model reply that calls delegate once per entry of `args`, with call ids a, b, c… or `ids`. */
export function delegations(args: object[], ids = args.map((_, i) => String.fromCharCode(97 + i))): LoopbackReply {
  return { kind: 'tools', calls: args.map((a, i) => ({ id: ids[i], name: 'delegate', args: a })) };
}

/** main (trusted, agentic) delegates "work" to `worker` (agentic, with `workerFields`) once,
 * then answers "main done"; `tables` adds settings. */
export function mainAndWorker(opts: {
  workerFields: string;
  tables: string;
  worker: Responder;
  interactive?: boolean;
}): Promise<DelegateFixture> {
  return delegateFixture({
    interactive: opts.interactive,
    config: (url) =>
      toml(
        url,
        agent('main', 'risk_profile = "trusted"\nruntime_profile = "agentic"\ndelegates = ["worker"]') +
          agent('worker', `runtime_profile = "agentic"\n${opts.workerFields}`) +
          opts.tables,
      ),
    agents: { main: callsThenDone(delegateCall({ agent: 'worker', prompt: 'work' }), 'main done'), worker: opts.worker },
  });
}

/** The chain of the authority tests: main (profile `rootProfile`) reaches mid, leaf and wide;
 * mid reaches leaf bounded and wide independent; mid, leaf and wide share "yes", which
 * auto-approves shell. `tables` adds profiles or settings. */
export const chainConfig =
  (rootProfile: string, tables = '') =>
  (url: string) =>
    toml(
      url,
      `
[risk_profiles.asks]
delegation_policy = { mode = "allow" }
[risk_profiles.yes]
delegation_policy = { mode = "allow" }
auto_approve = ["read_file", "list_files", "shell"]
[risk_profiles.readonly]
allowed_tools = ["read_file", "delegate", "spawn_subagent"]
delegation_policy = { mode = "allow" }
auto_approve = ["read_file", "shell"]
${tables}
${agent('main', `risk_profile = "${rootProfile}"\ndelegates = ["mid", "leaf", { agent = "wide", mode = "independent" }]`)}
${agent('mid', 'risk_profile = "yes"\nruntime_profile = "agentic"\ndelegates = ["leaf", { agent = "wide", mode = "independent" }]')}
${agent('leaf', 'risk_profile = "yes"\nruntime_profile = "agentic"')}
${agent('wide', 'risk_profile = "yes"\nruntime_profile = "agentic"\ndelegate_same_risk_profile = false')}
`,
    );

/** A caller that, in one reply, delegates `prompt` to each of `aliases` (call ids a, b, c…),
 * then answers "done". */
export const delegatesToEach = (aliases: string[], prompt = 'p'): Responder =>
  sequence(delegations(aliases.map((agent) => ({ agent, prompt }))), text('done'));

/** An agent that makes `first` tool call(s), then answers "done" once results come back. */
export function callsThenDone(first: LoopbackReply, final = 'done'): Responder {
  return (req) => (hasToolResults(req.body) ? text(final) : first);
}

/** main's script: step i gets the previous tool result and returns the next reply; then "done". */
export function mainScript(...steps: Array<(previous: string) => LoopbackReply>): Responder {
  return (req, nth) => (nth < steps.length ? steps[nth](nth === 0 ? '' : lastToolResult(req)) : text('done'));
}

/** A finished background task of worker's in `store`, as a past session left it; `fields` override. */
export function recordTask(store: TaskStore, fields: Partial<TaskRecord> & { task_id: string }): void {
  const now = new Date().toISOString();
  store.create({
    agent: 'worker',
    caller_chain: ['main'],
    status: 'completed',
    output: `output of ${fields.task_id}`,
    error: null,
    created_at: now,
    started_at: now,
    finished_at: now,
    heartbeat_at: now,
    pid: process.pid,
    progress: null,
    ...fields,
  });
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
  return offeredTools(req.body).map((t) => t.name);
}

/** The delegate tool this request offered; fails naming what was offered when it was not. */
export function delegateSpecOf(req: LoopbackIncoming): WireTool {
  return offeredTool(req.body, 'delegate');
}

/** The first user message when it is plain text ('' for content parts). */
export function firstUser(req: LoopbackIncoming): string {
  const m = messagesOf(req.body).find((x) => x.role === 'user');
  return typeof m?.content === 'string' ? m.content : '';
}

export const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/;
