// What an external ACP child asks of its client, answered under its caller's policy:
// permission asks join the operator queue (or subagent_approvals decides), fs reads and
// writes go through the caller's confinement and approvals, and terminals run under the
// caller's shell policy (as the shell tool: allowed_commands, the approval, a confined cwd,
// the scrubbed tool environment, the reaper, shell_timeout_secs). The agent's tool calls
// show on its /agents row and card like a model child's.
import { readFile } from 'node:fs/promises';
import * as acp from '@agentclientprotocol/sdk/unstable';
import type { AcpChildHost } from '../../acp/client/externalAgent.js';
import { AcpTerminals, type AdmittedTerminal } from '../../acp/client/terminals.js';
import type { AcpTranscriptSink } from '../../acp/client/transcriptSink.js';
import { fileDiff } from '../../text/diff.js';
import { bindingProfiles, confinePath, toolWithinAuthority } from '../../tools/authority.js';
import { openForRead, openForWrite } from '../../tools/confinedOpen.js';
import { checkAllowedCommands } from '../../tools/shell.js';
import { TOOL_RUN_MARKER, toolSubprocessEnv } from '../../tools/toolEnv.js';
import type { Tool, ToolCaller } from '../../tools/types.js';
import type { ApprovalRequest } from '../approvals.js';
import { cutToolName, toolFinished, toolStarted, type RuntimeStore } from '../store.js';
import type { RunHandle, SupervisorCore } from '../supervisorTypes.js';
import type { Run } from '../types.js';

export const ACP_REFUSED = (what: string, path: string, why: string) => `arbor refused ${what} '${path}': ${why}`;

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

/** The agent's tool calls as the run's tool activity (started, finished). */
function toolActivity(store: RuntimeStore, runId: string): (u: acp.SessionUpdate) => void {
  const started = new Map<string, { name: string; at: number }>();
  return (u) => {
    if (u.sessionUpdate === 'tool_call') {
      const name = cutToolName(u.title || u.kind || 'tool');
      started.set(u.toolCallId, { name, at: Date.now() });
      toolStarted(store, runId, name);
    }
    if (u.sessionUpdate !== 'tool_call' && u.sessionUpdate !== 'tool_call_update') return;
    const call = started.get(u.toolCallId);
    if (call && (u.status === 'completed' || u.status === 'failed')) {
      started.delete(u.toolCallId);
      toolFinished(store, runId, call.name, call.at, u.status === 'completed');
    }
  };
}

type Decide = (
  tool: string,
  callId: string,
  args: unknown,
  signal: AbortSignal,
  preview?: ApprovalRequest['preview'],
) => ReturnType<SupervisorCore['approvals']['decide']>;

/** Where the child works and the caller its requests are checked as (its worktree and the
 * caller mapped into it when isolated). */
export interface AcpPlace {
  cwd: string;
  caller: ToolCaller;
}

/** A terminal request admitted as the shell tool would be, or refused with why. */
function terminalAdmission(supervisor: SupervisorCore, handle: RunHandle, { cwd, caller }: AcpPlace, decide: Decide) {
  let terminalCalls = 0;
  return async (req: acp.CreateTerminalRequest): Promise<AdmittedTerminal> => {
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
}

export function acpHost(supervisor: SupervisorCore, handle: RunHandle, run: Run, place: AcpPlace, sink: AcpTranscriptSink): AcpChildHost {
  const { cwd, caller } = place;
  const activity = toolActivity(supervisor.store, run.id);
  const decide: Decide = async (tool, callId, args, signal, preview) => {
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
  return {
    cwd,
    terminals: new AcpTerminals(terminalAdmission(supervisor, handle, place, decide)),
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
}
