// The spawn_subagent side of the supervisor: the child's identity (the reference's
// SubAgentSpawn::for_agent + build), running it, and steering a finished child into a new
// turn of its own history.
import type { RiskProfile } from '../config/types.js';
import type { ModelMessage } from '../model/messages.js';
import type { ChildOutcome } from '../tools/childServices.js';
import { narrowToAgentTools } from '../tools/agentTools.js';
import { ensureNoEscalation } from '../tools/escalation.js';
import { toolAllowedByProfile } from '../tools/policy.js';
import type { ToolCallOrigin, ToolCaller } from '../tools/types.js';
import type { ExecutionBudget } from './executionBudget.js';
import type { ChildResult, SupervisorCore } from './supervisorTypes.js';
import { isTerminal } from './types.js';

/** A narrowing of the parent's policy for one child (the reference's SubAgentOverrides). */
export interface SubagentOverrides {
  risk?: RiskProfile;
  shell_timeout_secs?: number;
}

/** The child's identity (the reference's SubAgentSpawn::for_agent + build): the parent's
 * alias, provider and policy, with an optional narrowing override that may only be equal
 * or narrower on every axis. Throws naming the field when an override escalates. */
export function buildSubagentCaller(sup: SupervisorCore, parent: ToolCaller, overrides: SubagentOverrides = {}): ToolCaller {
  const child: ToolCaller = {
    ...parent,
    risk: overrides.risk ?? parent.risk,
    runtime:
      overrides.shell_timeout_secs !== undefined ? { ...parent.runtime, shell_timeout_secs: overrides.shell_timeout_secs } : parent.runtime,
    isSubagent: true,
  };
  const check = ensureNoEscalation(
    { ...parent.risk, shell_timeout_secs: parent.runtime.shell_timeout_secs },
    { ...child.risk, shell_timeout_secs: child.runtime.shell_timeout_secs },
    { cwd: sup.cwd },
  );
  if (!check.ok) throw new Error(`override escalates ${check.error}`);
  return child;
}

export async function runSubagent(
  sup: SupervisorCore,
  ctx: ToolCallOrigin,
  prompt: string,
  budget: ExecutionBudget | undefined,
  overrides?: SubagentOverrides,
  isolation?: 'worktree',
): Promise<ChildOutcome> {
  const agent = sup.agent(ctx.caller.alias);
  const resolved = sup.providerFor(agent);
  // Both spawn paths pass no override today (inherit verbatim); the check still runs, so a
  // future narrowing surface drops in without changing this path.
  const caller = buildSubagentCaller(sup, ctx.caller, overrides);
  // Same registry as the parent (the one its loop runs with, so a subagent of a delegate
  // child keeps that child's cap), narrowed by an override's policy.
  const tools = sup.registryOf(ctx.runId, ctx.caller).filter((tool) => toolAllowedByProfile(caller.risk, tool.name));
  // Refused before the run exists: no row, no card, for a child that never started. The git
  // check yields, so the spawn gates the tool passed are checked again before the run is made.
  const pending = sup.isolationRefusal({ alias: agent.alias, isolation, parentRunId: ctx.runId });
  if (pending) {
    const refused = (await pending) ?? sup.spawnRefusal(ctx.runId);
    if (refused !== undefined) return { status: 'failed', text: '', error: refused, refused: true };
  }
  const outcome = await sup.runChild({
    kind: 'subagent',
    parentRunId: ctx.runId,
    parentToolCallId: ctx.toolCallId,
    alias: agent.alias,
    task: prompt,
    model: resolved.label,
    sessionKeyPrefix: 'subagent',
    parentSignal: ctx.signal,
    timeoutSecs: sup.config.delegation.run_timeout_secs,
    isolation,
    // What loopFor will offer: the agent's own allow-list applies there.
    tools: narrowToAgentTools(tools, agent.tools).names(),
    execute: (handle, run) => {
      const history: ModelMessage[] = [{ role: 'user', content: prompt }];
      sup.recordUserItem(run.id, prompt);
      return sup.loopFor({
        run,
        handle,
        agent,
        resolved,
        caller,
        tools,
        history,
        budget: budget ? { budget, role: 'child' } : undefined,
        tracker: ctx.tracker,
        isChild: true,
        maxIterations: caller.runtime.max_tool_iterations,
      });
    },
  });
  return outcome;
}

/** Steering a finished child starts a new turn in that child's own history, as a new run
 * under the same parent (terminal states are final, so the old run is not reopened). */
export async function continueFinished(sup: SupervisorCore, runId: string, message: string): Promise<ChildResult | undefined> {
  const old = sup.store.getState().runs.get(runId);
  const ctx = sup.steerableContext(runId);
  if (!old || !ctx || !isTerminal(old.status)) return undefined;
  return sup.runChild({
    kind: old.kind === 'root' ? 'subagent' : old.kind,
    parentRunId: old.parentRunId ?? old.rootRunId,
    alias: old.alias,
    task: message,
    model: old.model,
    sessionKeyPrefix: old.sessionKey.startsWith('delegate')
      ? 'delegate'
      : old.sessionKey.startsWith('background')
        ? 'background'
        : 'subagent',
    timeoutSecs: sup.config.delegation.run_timeout_secs,
    execute: (handle, run) => {
      ctx.history.push({ role: 'user', content: message });
      sup.recordUserItem(run.id, message);
      return sup.loopFor({ ...ctx, run, handle, budget: undefined });
    },
  });
}
