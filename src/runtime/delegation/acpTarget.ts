// A delegate child whose target is an external ACP agent (`[agents.<alias>] runtime = "acp"`):
// the run is supervised like any other (timeouts, kill, pause, the runaway guard), its
// updates stream into its transcript, and what it asks of its client is answered here under
// the caller's policy: permission asks join the operator queue (or subagent_approvals
// decides), fs reads and writes go through the caller's confinement and approvals, and
// terminals run under the caller's shell policy (as the shell tool: allowed_commands, the
// approval, a confined cwd, the scrubbed tool environment, the reaper, shell_timeout_secs).
import { readFile } from 'node:fs/promises';
import { openForRead, openForWrite } from '../../tools/confinedOpen.js';
import * as acp from '@agentclientprotocol/sdk/unstable';
import { runAcpChild, type AcpChildHost, type AcpChildResult } from '../../acp/client/externalAgent.js';
import { AcpTerminals, type AdmittedTerminal } from '../../acp/client/terminals.js';
import { AcpTranscriptSink } from '../../acp/client/transcriptSink.js';
import type { AcpAgentConfig } from '../../config/types.js';
import { bindingProfiles, confinePath, toolWithinAuthority } from '../../tools/authority.js';
import { checkAllowedCommands } from '../../tools/shell.js';
import { TOOL_RUN_MARKER, toolSubprocessEnv } from '../../tools/toolEnv.js';
import type { Tool } from '../../tools/types.js';
import { fileDiff } from '../../text/diff.js';
import type { ApprovalRequest } from '../approvals.js';
import { addUsage, appendItem, cutToolName, toolFinished, toolStarted, updateItem } from '../store.js';
import type { PostNotice, RunHandle, SupervisorCore } from '../supervisorTypes.js';
import type { Run } from '../types.js';
import { sharedAcpAgents } from './acpShared.js';
import { AcpSteering } from './acpSteering.js';
import type { ChildPlan } from './plan.js';

/** The delegate result label: "acp/<agent name>". */
export const acpLabel = (agentName: string) => `acp/${agentName}`;

export const ACP_REFUSED = (what: string, path: string, why: string) => `arbor refused ${what} '${path}': ${why}`;
export const ACP_STOPPED = (target: string) => `Agent '${target}' was stopped (session/cancel, then its process was ended).`;

/** The permission the broker is asked for: named after the external tool's kind, so "allow
 * for this child" covers that kind of call for this child. */
function pseudoTool(name: string): Tool {
  return { name, asksByDefault: true } as unknown as Tool;
}

function pickOption(req: acp.RequestPermissionRequest, allowed: boolean): acp.RequestPermissionResponse {
  const kinds: acp.PermissionOptionKind[] = allowed ? ['allow_once', 'allow_always'] : ['reject_once', 'reject_always'];
  const option = kinds.map((k) => req.options.find((o) => o.kind === k)).find((o) => o !== undefined);
  return option ? { outcome: { outcome: 'selected', optionId: option.optionId } } : { outcome: { outcome: 'cancelled' } };
}

type AcpSpawnEnv = () => { env: Record<string, string>; marker: string };

export async function runAcpTarget(
  supervisor: SupervisorCore,
  handle: RunHandle,
  run: Run,
  plan: ChildPlan,
  spec: AcpAgentConfig,
  task: string,
  onAgentName: (name: string) => void,
  notice: PostNotice,
): Promise<string> {
  const { store } = supervisor;
  // An isolated child (or one inheriting an isolated caller's tree) works in its worktree:
  // the agent's session starts there, and its fs and terminal requests are checked as the
  // caller mapped into it (the original checkout forbidden, other worktrees fenced off).
  const { cwd, caller } = supervisor.placeOf(run.id, plan.caller);
  const sink = new AcpTranscriptSink({
    runId: run.id,
    append: (item) => void appendItem(store, run.id, item),
    update: (id, patch) => void updateItem(store, run.id, id, patch),
  });
  // The agent's tool calls show on its /agents row and card like a model child's.
  const started = new Map<string, { name: string; at: number }>();
  const activity = (u: acp.SessionUpdate) => {
    if (u.sessionUpdate === 'tool_call') {
      const name = cutToolName(u.title || u.kind || 'tool');
      started.set(u.toolCallId, { name, at: Date.now() });
      toolStarted(store, run.id, name);
    }
    if (u.sessionUpdate !== 'tool_call' && u.sessionUpdate !== 'tool_call_update') return;
    const call = started.get(u.toolCallId);
    if (call && (u.status === 'completed' || u.status === 'failed')) {
      started.delete(u.toolCallId);
      toolFinished(store, run.id, call.name, call.at, u.status === 'completed');
    }
  };
  const decide = async (tool: string, callId: string, args: unknown, signal: AbortSignal, preview?: ApprovalRequest['preview']) => {
    // Pause holds the answer: the agent cannot be stopped mid-step, but it waits for this.
    if (handle.gate.paused) await handle.gate.wait(signal);
    return supervisor.approvals.decide({
      runId: run.id,
      callId,
      tool: pseudoTool(tool),
      args,
      risk: caller.risk,
      ceilings: caller.ceilings,
      isChild: true,
      signal,
      ...(preview ? { preview } : {}),
    });
  };
  const confined = (path: string, forWrite: boolean, tool: string) => {
    if (!toolWithinAuthority(caller, tool))
      throw acp.RequestError.invalidParams({ path }, ACP_REFUSED(tool, path, `the profile does not allow ${tool}`));
    const res = confinePath(path, cwd, caller, forWrite);
    if (!res.ok) throw acp.RequestError.invalidParams({ path }, ACP_REFUSED(tool, path, res.error));
    return res.path;
  };
  let terminalCalls = 0;
  const admitTerminal = async (req: acp.CreateTerminalRequest): Promise<AdmittedTerminal> => {
    const line = [req.command, ...(req.args ?? [])].join(' ');
    const refuse = (why: string): never => {
      throw acp.RequestError.invalidParams({ command: line }, ACP_REFUSED('shell', line, why));
    };
    if (!toolWithinAuthority(caller, 'shell')) refuse('the profile does not allow shell');
    for (const profile of bindingProfiles(caller)) {
      const refusal = checkAllowedCommands(req.command, profile.allowed_commands);
      if (refusal) refuse(refusal);
    }
    const where = confinePath(req.cwd ?? '.', cwd, caller);
    if (!where.ok) refuse(where.error);
    const decision = await decide('shell', `acp-terminal-${++terminalCalls}`, { command: line }, handle.controller.signal);
    if (!decision.allowed) refuse(decision.error);
    const { env, marker } = toolSubprocessEnv({ config: supervisor.config, profiles: bindingProfiles(caller) });
    // The agent's own variables are its to give; the reaper's marker stays arbor's.
    for (const v of req.env ?? []) if (v.name !== TOOL_RUN_MARKER) env[v.name] = v.value;
    return { cwd: where.ok ? where.path : cwd, env, marker, timeoutSecs: caller.runtime.shell_timeout_secs };
  };
  const host: AcpChildHost = {
    cwd,
    terminals: new AcpTerminals(admitTerminal),
    update: (u) => {
      sink.apply(u);
      activity(u);
    },
    async permission(req) {
      const signal = handle.controller.signal;
      const tool = `acp:${req.toolCall.kind ?? 'tool'}`;
      const args = { title: req.toolCall.title, input: req.toolCall.rawInput, locations: req.toolCall.locations };
      const decision = await decide(tool, req.toolCall.toolCallId, args, signal);
      return pickOption(req, decision.allowed);
    },
    async readTextFile(req) {
      const path = confined(req.path, false, 'read_file');
      // Through the checked open, like read_file: a link swapped in after the check is
      // refused, never followed out of the roots.
      const opened = await openForRead(path, req.path, (where) => confinePath(where, cwd, caller));
      if (!opened.ok) throw acp.RequestError.resourceNotFound(`${req.path}: ${opened.error}`);
      const text = await opened.handle.readFile('utf8').finally(() => opened.handle.close());
      if (req.line == null && req.limit == null) return { content: text };
      const lines = text.split('\n');
      const start = Math.max(0, (req.line ?? 1) - 1);
      return { content: lines.slice(start, req.limit != null ? start + req.limit : undefined).join('\n') };
    },
    async writeTextFile(req) {
      const path = confined(req.path, true, 'write_file');
      // The operator sees the diff the write would make, as for arbor's own write_file.
      const preview = async () => {
        const before = await readFile(path, 'utf8').catch(() => undefined);
        return { display: fileDiff(req.path, before, req.content) };
      };
      const decision = await decide('write_file', `acp-write-${Date.now()}`, { path: req.path }, handle.controller.signal, preview);
      if (!decision.allowed) throw acp.RequestError.invalidParams({ path: req.path }, ACP_REFUSED('write_file', req.path, decision.error));
      // Through the checked open, like write_file: never through a link swapped in after the
      // check, and truncated only once the open passed.
      const opened = await openForWrite(path, req.path, (where) => confinePath(where, cwd, caller, true));
      if (!opened.ok) throw acp.RequestError.invalidParams({ path: req.path }, ACP_REFUSED('write_file', req.path, opened.error));
      try {
        await opened.handle.truncate(0);
        await opened.handle.writeFile(req.content, 'utf8');
      } finally {
        await opened.handle.close();
      }
    },
  };

  // Same env rules as MCP servers: a tool's environment (no provider keys) plus the entry's env.
  const spawnEnv: AcpSpawnEnv = () => toolSubprocessEnv({ config: supervisor.config, profiles: [] });
  const signal = handle.controller.signal;
  const steering = new AcpSteering(supervisor, handle, run, sink, task, notice);
  const shared = spec.perChild ? undefined : sharedAcpAgents(supervisor);
  // A shared process outlives any one child's worktree: it starts in the session's cwd, and
  // each child's session is opened in that child's own (host.cwd).
  const agent = shared?.acquire(run.alias, spec, supervisor.cwd, spawnEnv);
  let result: AcpChildResult | undefined;
  let failure: unknown;
  try {
    result = agent ? await agent.run(host, signal, steering.next) : await runAcpChild(spec, host, signal, steering.next, spawnEnv);
  } catch (err) {
    failure = err;
    throw err;
  } finally {
    // However the session ended (a stop, an error, a refusal), nothing reads steering now,
    // and what was queued for it is reported as not sent.
    steering.close(result, failure);
    if (agent) await shared?.released(agent);
  }
  sink.finish();
  onAgentName(result.agentName);
  if (result.usage) addUsage(store, run.id, result.usage.inputTokens, result.usage.outputTokens, 0);
  if (result.stopReason === 'aborted' || result.stopReason === 'cancelled') throw new Error(ACP_STOPPED(run.alias));
  return result.text;
}
