// The no-escalation check for a narrowing child override: on every axis the child's policy
// must be equal to or narrower than its parent's. The first axis that grants more than the
// parent has is reported by field name; the spawn site wraps the text in its own prefix.
import { homedir } from 'node:os';
import type { RiskProfile } from '../config/types.js';
import { SUBAGENT_APPROVALS } from '../config/schema.js';
import { isInside, resolveConfigPath } from './pathGuard.js';

export type EscalationSubject = RiskProfile & { shell_timeout_secs?: number };

export type EscalationCheck = { ok: true } | { ok: false; field: string; error: string };

export interface EscalationOptions {
  /** Relative roots and forbidden paths resolve against this (default process.cwd()). */
  cwd?: string;
  home?: string;
}

function violation(field: string, detail: string): EscalationCheck {
  return { ok: false, field, error: `${field}: ${detail}` };
}

function missingFrom(required: string[], present: string[]): string[] {
  const have = new Set(present);
  return required.filter((x) => !have.has(x));
}

function list(items: string[]): string {
  return items.map((i) => `'${i}'`).join(', ');
}

/** 0 (or less) means unlimited. Returns the detail when the child's limit is looser. */
function looserLimit(parent: number, child: number): string | undefined {
  const parentLimited = parent > 0;
  const childLimited = child > 0;
  if (!parentLimited) return undefined;
  if (!childLimited) return `child is unlimited (${child}) while the parent allows ${parent}`;
  if (child > parent) return `child allows ${child}, more than the parent's ${parent}`;
  return undefined;
}

export function ensureNoEscalation(parent: EscalationSubject, child: EscalationSubject, opts: EscalationOptions = {}): EscalationCheck {
  const cwd = opts.cwd ?? process.cwd();
  const home = opts.home ?? homedir();
  const abs = (p: string) => resolveConfigPath(p, cwd, home);

  const parentRoots = parent.allowed_roots.map(abs);
  const outside = child.allowed_roots.filter((r) => !parentRoots.some((pr) => isInside(abs(r), pr)));
  if (outside.length > 0) {
    return violation('allowed_roots', `${list(outside)} not inside any parent root (${list(parent.allowed_roots)})`);
  }

  if (parent.allowed_commands.length > 0) {
    if (child.allowed_commands.length === 0) {
      return violation('allowed_commands', `child allows any command while the parent allows only ${list(parent.allowed_commands)}`);
    }
    const extra = missingFrom(child.allowed_commands, parent.allowed_commands);
    if (extra.length > 0) return violation('allowed_commands', `child adds ${list(extra)} not allowed by the parent`);
  }

  // A child may forbid a wider path than the parent did (e.g. `~` for `~/.ssh`).
  const childForbidden = child.forbidden_paths.map(abs);
  const uncovered = parent.forbidden_paths.filter((f) => !childForbidden.some((cf) => isInside(abs(f), cf)));
  if (uncovered.length > 0) return violation('forbidden_paths', `child drops parent's forbidden ${list(uncovered)}`);

  const actions = looserLimit(parent.max_actions_per_hour, child.max_actions_per_hour);
  if (actions) return violation('max_actions_per_hour', actions);
  const cost = looserLimit(parent.max_cost_per_day_cents, child.max_cost_per_day_cents);
  if (cost) return violation('max_cost_per_day_cents', cost);

  if (
    parent.shell_timeout_secs !== undefined &&
    child.shell_timeout_secs !== undefined &&
    child.shell_timeout_secs > parent.shell_timeout_secs
  ) {
    return violation(
      'shell_timeout_secs',
      `child allows ${child.shell_timeout_secs}s, more than the parent's ${parent.shell_timeout_secs}s`,
    );
  }

  if (parent.deny_all_tools && !child.deny_all_tools) {
    return violation('deny_all_tools', 'parent denies all tools but the child does not');
  }
  if (parent.allowed_tools.length > 0) {
    if (child.allowed_tools.length === 0) {
      return violation('allowed_tools', `child allows every tool while the parent allows only ${list(parent.allowed_tools)}`);
    }
    const extra = missingFrom(child.allowed_tools, parent.allowed_tools);
    if (extra.length > 0) return violation('allowed_tools', `child adds ${list(extra)} not allowed by the parent`);
  }
  const unexcluded = missingFrom(parent.excluded_tools, child.excluded_tools);
  if (unexcluded.length > 0) return violation('excluded_tools', `child no longer excludes ${list(unexcluded)}`);

  const autoExtra = missingFrom(child.auto_approve, parent.auto_approve);
  if (autoExtra.length > 0) return violation('auto_approve', `child auto-approves ${list(autoExtra)} which the parent does not`);
  const askDropped = missingFrom(parent.always_ask, child.always_ask);
  if (askDropped.length > 0) return violation('always_ask', `child no longer always asks for ${list(askDropped)}`);

  // Absent means "whatever [delegation] says", the loosest a profile can be.
  const approvalsRank = (v: RiskProfile['subagent_approvals']) =>
    v === undefined ? SUBAGENT_APPROVALS.length : SUBAGENT_APPROVALS.indexOf(v);
  if (approvalsRank(child.subagent_approvals) > approvalsRank(parent.subagent_approvals)) {
    return violation(
      'subagent_approvals',
      `child ${child.subagent_approvals ? `sets '${child.subagent_approvals}'` : 'leaves it unset'}, looser than the parent's '${parent.subagent_approvals}'`,
    );
  }

  const passExtra = missingFrom(child.shell_env_passthrough ?? [], parent.shell_env_passthrough ?? []);
  if (passExtra.length > 0) {
    return violation('shell_env_passthrough', `child passes ${list(passExtra)} to tools, which the parent does not`);
  }

  if (parent.delegation_policy.mode === 'forbidden' && child.delegation_policy.mode === 'allow') {
    return violation('delegation_policy', "child sets mode 'allow' while the parent's is 'forbidden'");
  }
  return { ok: true };
}
