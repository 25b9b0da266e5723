// The schema the model reads. The `agent` description lists exactly the reachable roster,
// and only when the caller's policy allows delegation; the tool description states the
// caller's real limits (depth left, timeouts, await cap) from config.
import type { z } from 'zod';
import type { ArborConfig } from '../../config/types.js';
import type { ToolSpec } from '../../providers/types.js';
import type { ToolCaller } from '../types.js';
import { delegationAllowed, reachableRoster, type RosterEntry } from './gating.js';
import { modelParameters } from '../toolArgs.js';
import { childApprovalsFor } from '../approvalPolicy.js';
import { delegateParameters } from './args.js';
import { RECEIPT_DESCRIPTION, receiptsOn } from '../receipt.js';
import { AWAIT_DEFAULT_TIMEOUT_MS, AWAIT_MAX_TIMEOUT_MS, DELEGATE } from './strings.js';

function rosterText(roster: RosterEntry[]): string {
  if (roster.length === 0) return 'Alias of the target agent. No agent is reachable from you, so delegation will be refused.';
  const lines = roster.map((r) => `- ${r.alias} (${r.mode})${r.description ? `: ${r.description}` : ''}`);
  return `Alias of the target agent. Reachable agents:\n${lines.join('\n')}`;
}

const DELEGATE_APPROVALS_TEXT = {
  deny: 'A delegated agent has no operator: its tool calls that would need approval are denied.',
  allow:
    'A delegated agent has no operator: its tool calls that would need approval are allowed ([delegation] subagent_approvals = "allow").',
  ask: "A delegated agent's tool calls that would need approval wait for the operator's answer, which may be a denial.",
} as const;

export function delegateDescription(caller: ToolCaller, config: ArborConfig, delegateOnly: boolean): string {
  const parts = [
    'Hand a request to a DIFFERENT configured agent (named by alias), which runs under its own identity and model and returns its final answer.',
    '`prompt` is the complete task; optional `context` is sent before it. `parallel` sends the same prompt to several agents at once; `background: true` returns a task_id at once while the agent keeps working.',
  ];
  if (!delegationAllowed(caller)) {
    parts.push(`Delegation is forbidden for you by risk profile "${caller.risk.name}"; calls are refused.`);
    return parts.join(' ');
  }
  const hopsLeft = Math.max(0, caller.delegationDepthLimit - caller.delegationDepth);
  parts.push(
    `You are at delegation depth ${caller.delegationDepth} of at most ${caller.delegationDepthLimit} (${hopsLeft} more hop${hopsLeft === 1 ? '' : 's'} allowed).`,
    `At most ${config.delegation.max_children_per_agent} live children per run; at most ${config.delegation.max_concurrent} children run at once (more wait in a queue).`,
    DELEGATE_APPROVALS_TEXT[childApprovalsFor(caller, config)],
    ...(receiptsOn(config) ? [RECEIPT_DESCRIPTION] : []),
  );
  if (delegateOnly) {
    parts.push('Only action=delegate is available to you; return background task ids to your caller.');
  } else {
    parts.push(
      `Background results: action=check_result (task_id), list_results, cancel_task (task_id), await_sessions (task_ids, timeout_ms default ${AWAIT_DEFAULT_TIMEOUT_MS}, at most ${AWAIT_MAX_TIMEOUT_MS}).`,
    );
  }
  return parts.join(' ');
}

/** The flat object the model reads; the `agent` description lists exactly the reachable
 * roster, and only when the caller's policy allows delegation. */
export function delegateModelParameters(caller: ToolCaller, config: ArborConfig): Record<string, unknown> {
  const agentDescription = delegationAllowed(caller)
    ? rosterText(reachableRoster(config, caller.alias))
    : 'Alias of the target agent. Delegation is forbidden for you.';
  // The roster is per caller, so only the agent field's description is filled in here.
  return parametersFor(agentDescription);
}

export function delegateSpec(caller: ToolCaller, config: ArborConfig, delegateOnly: boolean): ToolSpec {
  return {
    name: DELEGATE,
    description: delegateDescription(caller, config, delegateOnly),
    parameters: delegateModelParameters(caller, config),
  };
}

// One schema per roster text, so modelParameters' cache serves every call of every run
// that sees the same roster (a fan-out's children all do).
const schemaByRoster = new Map<string, z.ZodType>();

function parametersFor(agentDescription: string): Record<string, unknown> {
  let schema = schemaByRoster.get(agentDescription);
  if (!schema) {
    schema = delegateParameters.extend({ agent: delegateParameters.shape.agent.unwrap().describe(agentDescription).optional() });
    if (schemaByRoster.size >= 64) schemaByRoster.clear();
    schemaByRoster.set(agentDescription, schema);
  }
  return modelParameters(schema);
}
