// spawn_subagent: runs the SAME agent again, under its own identity, for a focused subtask.
// Guards run in the reference's order and their refusal strings are protocol: byte for byte.
import type { ArborConfig } from '../config/types.js';
import { z } from 'zod';
import { childApprovalsFor } from './approvalPolicy.js';
import { subagentServices } from './childServices.js';
import { defineTool } from './defineTool.js';
import { RECEIPT_DESCRIPTION, receiptsOn, withReceipt } from './receipt.js';
import { nonBlank } from './toolArgs.js';
import { listNames } from './toolGlob.js';
import { isolationArg, withWorktreeNote } from './worktreeNotes.js';
import { fail, ok, type ToolCaller, type ToolResult } from './types.js';

export const SPAWN_SUBAGENT = 'spawn_subagent';
export const MISSING_PROMPT = "Missing or empty 'prompt' parameter";
export const DEPTH_CAP_REFUSAL = 'spawn_subagent: a subagent may not spawn its own subagents (depth-1 cap)';
export const EMPTY_OUTPUT = 'subagent completed without output';
export const profileGateRefusal = (alias: string) =>
  `spawn_subagent: refused: agent '${alias}' risk_profile does not list spawn_subagent in allowed_tools`;
export const spawnFailed = (err: string) => `subagent spawn failed: ${err}`;
export const runFailed = (err: string) => `subagent run failed: ${err}`;

/** Every problem with the arguments, even arguments that are not an object, is the one
 * literal refusal the reference gives for a missing prompt. */
export const spawnSubagentArgs = z.object(
  {
    prompt: z
      .string({ error: MISSING_PROMPT })
      .refine(nonBlank, { error: MISSING_PROMPT })
      .describe('The complete task for the child. It sees nothing else of this conversation.'),
    isolation: isolationArg,
  },
  { error: MISSING_PROMPT },
);

function profileAdmits(caller: ToolCaller): boolean {
  const risk = caller.risk;
  if (risk.deny_all_tools) return false;
  if (risk.allowed_tools.length > 0 && !listNames(risk.allowed_tools, SPAWN_SUBAGENT)) return false;
  if (listNames(risk.excluded_tools, SPAWN_SUBAGENT)) return false;
  return true;
}

const CHILD_APPROVALS_TEXT = {
  deny: 'Children have no operator: tool calls that would need approval are denied inside them.',
  allow:
    'Children have no operator: tool calls that would need approval are allowed inside them ([delegation] subagent_approvals = "allow").',
  ask: "Tool calls that would need approval inside a child wait for the operator's answer, which may be a denial.",
} as const;

/** The per-child limits a child of this caller gets ([delegation] narrowed by the agent). */
function childLimitsText(caller: ToolCaller, config: ArborConfig): string {
  const d = config.delegation;
  const agent = config.agents?.[caller.alias];
  const min = (a: number | undefined, b: number | undefined) => (a === undefined ? b : b === undefined ? a : Math.min(a, b));
  const parts: string[] = [];
  const tokens = min(d.max_child_tokens, agent?.max_child_tokens);
  const cents = min(d.max_child_cost_cents, agent?.max_child_cost_cents);
  const secs = min(d.max_child_seconds, agent?.max_child_seconds);
  if (tokens !== undefined) parts.push(`${tokens} tokens`);
  if (cents !== undefined) parts.push(`${cents} cents`);
  if (secs !== undefined) parts.push(`${secs}s of active time`);
  return parts.length
    ? `; each child (with everything under it) may use at most ${parts.join(', ')} and is stopped when it reaches that`
    : '';
}

function describe(caller: ToolCaller, config: ArborConfig): string {
  const d = config.delegation;
  const parts = [
    'Run a focused subtask as a child of yourself: same identity, model and permissions, a fresh conversation whose only message is `prompt`.',
    'You block until the child ends and receive only its final answer; its intermediate steps never enter your history.',
    'Several calls in one turn are all executed (identical prompts are not deduplicated)' +
      (caller.runtime.parallel_tools ? ' and run concurrently.' : '; they run one after another.'),
    'Limits: a subagent may not spawn its own subagents (depth-1 cap);' +
      ` at most ${d.max_children_per_agent} live children per run; at most ${d.max_concurrent} children run at once process-wide (more wait in a queue)` +
      (d.run_timeout_secs > 0 ? `; each child is stopped after ${d.run_timeout_secs}s of active time` : '') +
      childLimitsText(caller, config) +
      (caller.runtime.max_execution_tree_iterations !== undefined
        ? `; the whole turn shares ${caller.runtime.max_execution_tree_iterations} model iterations (max_execution_tree_iterations)`
        : '') +
      '.',
    CHILD_APPROVALS_TEXT[childApprovalsFor(caller, config)],
    ...(receiptsOn(config) ? [RECEIPT_DESCRIPTION] : []),
  ];
  return parts.join(' ');
}

/** The result with its display: the answer the card shows, or the error. The model's text
 * may carry the runtime's receipt; the card shows observed effects in its own section. */
function answered(text: string, modelText = text, worktree?: string): ToolResult {
  return ok(modelText, { kind: 'spawn', answer: text, ...(worktree ? { worktree } : {}) });
}

function failed(error: string, modelText = error, worktree?: string): ToolResult {
  return fail(modelText, { kind: 'spawn', error, ...(worktree ? { worktree } : {}) });
}

export const spawnSubagentTool = defineTool({
  name: SPAWN_SUBAGENT,
  args: spawnSubagentArgs,
  // A null prompt is the missing prompt's refusal, not an absent field.
  prepare: (raw) => raw ?? {},
  asksByDefault: false,
  duplicateExempt: true,
  // The child's own tool calls count against the shared tracker; the spawn itself does not.
  countsAsAction: false,
  description: describe,
  async run({ prompt, isolation }, ctx) {
    if (ctx.caller.isSubagent) return failed(DEPTH_CAP_REFUSAL);
    if (!profileAdmits(ctx.caller)) return failed(profileGateRefusal(ctx.caller.alias));
    const services = subagentServices(ctx);
    if (!services) return failed(spawnFailed('no supervisor is available in this context'));
    const refusal = services.spawnRefusal(ctx);
    if (refusal) return failed(refusal);
    let outcome;
    try {
      outcome = await services.runSubagent(ctx, prompt, isolation ? { isolation } : undefined);
    } catch (err) {
      return failed(spawnFailed((err as Error).message));
    }
    if (outcome.refused) return failed(outcome.error ?? outcome.status);
    if (outcome.status === 'completed') {
      const answer = outcome.text.trim() === '' ? EMPTY_OUTPUT : outcome.text;
      const modelText = withWorktreeNote(withReceipt(ctx.config, answer, outcome.observed), outcome.worktreeNote);
      return answered(answer, modelText, outcome.worktreeNote);
    }
    const error = runFailed(outcome.error ?? outcome.status);
    // A child that did not finish is never merged: the note says where its changes are kept.
    return failed(error, withWorktreeNote(withReceipt(ctx.config, error, outcome.observed), outcome.worktreeNote), outcome.worktreeNote);
  },
});
