// Which tool calls need an operator, and what happens where there is none. A child run
// never reads the terminal, so a call that would ask is denied there with text the child
// model can act on — unless the operator opted in with [delegation] subagent_approvals
// ("ask" queues it for the operator, runtime/approvals.ts; "allow", alias
// subagent_auto_approve = true, lets it run).
import type { ArborConfig, RiskProfile } from '../config/types.js';
import { configuredSubagentApprovals, effectiveSubagentApprovals, type SubagentApprovals } from '../config/subagentApprovals.js';
import { t } from '../i18n/index.js';
import { listNames } from './toolGlob.js';
import type { Tool, ToolCaller } from './types.js';

export type ApprovalRequirement = 'auto' | 'ask';

type ApprovalGate = Pick<RiskProfile, 'auto_approve' | 'always_ask' | 'trust_read_only_mcp'>;

/** always_ask wins, then auto_approve (names or globs); an MCP tool its server marks
 * readOnlyHint runs unasked only where the profile trusts such hints. */
export function approvalRequirement(tool: Pick<Tool, 'name' | 'asksByDefault' | 'readOnlyHint'>, risk: ApprovalGate): ApprovalRequirement {
  if (listNames(risk.always_ask, tool.name)) return 'ask';
  if (listNames(risk.auto_approve, tool.name)) return 'auto';
  if (tool.readOnlyHint && risk.trust_read_only_mcp === true) return 'auto';
  return tool.asksByDefault ? 'ask' : 'auto';
}

export const CHILD_APPROVAL_DENIED = (toolName: string) =>
  `Tool '${toolName}' requires operator approval, but this agent runs as a child with no operator; the call was denied. Set [delegation] subagent_auto_approve = true to allow.`;

/** A risk profile narrowed [delegation] subagent_approvals to "deny" for this child. */
export const CHILD_APPROVAL_DENIED_BY_PROFILE = (toolName: string, profile: string) =>
  `Tool '${toolName}' requires operator approval, but risk profile '${profile}' denies such calls in child agents (subagent_approvals = "deny"); the call was denied.`;

/** What children of `caller` do with calls that would ask, for the tool descriptions. */
export function childApprovalsFor(
  caller: Pick<ToolCaller, 'risk' | 'ceilings'>,
  config: Pick<ArborConfig, 'delegation'>,
): SubagentApprovals {
  return effectiveSubagentApprovals(configuredSubagentApprovals(config.delegation), [caller.risk, ...(caller.ceilings ?? [])]).mode;
}

export type ChildApprovalDecision = { allowed: true } | { allowed: false; error: string };

export function childApprovalDecision(
  requirement: ApprovalRequirement,
  subagentAutoApprove: boolean,
  toolName: string,
): ChildApprovalDecision {
  if (requirement === 'auto' || subagentAutoApprove) return { allowed: true };
  return { allowed: false, error: CHILD_APPROVAL_DENIED(toolName) };
}

const SUMMARY_MAX = 200;

function clip(text: string, max = SUMMARY_MAX): string {
  const oneLine = text.replace(/\s+/g, ' ').trim();
  return oneLine.length > max ? `${oneLine.slice(0, max - 1)}…` : oneLine;
}

function field(args: unknown, key: string): string | undefined {
  if (typeof args !== 'object' || args === null) return undefined;
  const v = (args as Record<string, unknown>)[key];
  return typeof v === 'string' ? v : undefined;
}

/** One line for the approval prompt: what the tool is about to do, in the operator's language. */
export function describeToolCall(toolName: string, args: unknown): string {
  switch (toolName) {
    case 'shell': {
      const command = field(args, 'command');
      if (command !== undefined) return t('tools:approval.shell', { command: clip(command) });
      break;
    }
    case 'write_file': {
      const path = field(args, 'path');
      const content = field(args, 'content') ?? '';
      if (path !== undefined) {
        return t('tools:approval.writeFile', { path: clip(path), bytes: Buffer.byteLength(content, 'utf8') });
      }
      break;
    }
    case 'read_file': {
      const path = field(args, 'path');
      if (path !== undefined) return t('tools:approval.readFile', { path: clip(path) });
      break;
    }
    case 'list_files': {
      const path = field(args, 'path') ?? '.';
      const pattern = field(args, 'pattern');
      return pattern !== undefined
        ? t('tools:approval.listFilesPattern', { path: clip(path), pattern: clip(pattern) })
        : t('tools:approval.listFiles', { path: clip(path) });
    }
  }
  let shown: string;
  try {
    shown = JSON.stringify(args) ?? '';
  } catch {
    shown = String(args);
  }
  return t('tools:approval.generic', { name: toolName, args: clip(shown) });
}
