// [delegation] subagent_approvals: what happens to a child's tool call that would ask.
// "deny" (the default, the reference's behaviour), "ask" (queued for the operator), "allow".
// `subagent_auto_approve = true` is its older spelling of "allow". A risk profile may set
// it too, only to narrow: the strictest of the [delegation] value and every binding
// profile's applies, and a profile looser than [delegation] is a config error (it could
// never take effect, and silently ignoring it would surprise whoever wrote it).
import { t } from '../i18n/index.js';
import { quote } from './errors.js';
import type { Problems } from './problems.js';
import { SUBAGENT_APPROVALS, type DelegationFields, type RiskProfileFields } from './schema.js';

export type SubagentApprovals = (typeof SUBAGENT_APPROVALS)[number];

const rank = (mode: SubagentApprovals) => SUBAGENT_APPROVALS.indexOf(mode);

/** The [delegation] setting with the alias resolved. */
export function configuredSubagentApprovals(d: Pick<DelegationFields, 'subagent_approvals' | 'subagent_auto_approve'>): SubagentApprovals {
  return d.subagent_approvals ?? (d.subagent_auto_approve ? 'allow' : 'deny');
}

export interface EffectiveSubagentApprovals {
  mode: SubagentApprovals;
  /** The profile that made it stricter than [delegation], if one did. */
  narrowedBy?: string;
}

/** The mode for a child whose binding profiles are `profiles` (its own, then its ceilings). */
export function effectiveSubagentApprovals(
  configured: SubagentApprovals,
  profiles: ReadonlyArray<Pick<RiskProfileFields, 'subagent_approvals'> & { name?: string }>,
): EffectiveSubagentApprovals {
  let out: EffectiveSubagentApprovals = { mode: configured };
  for (const p of profiles) {
    if (p.subagent_approvals !== undefined && rank(p.subagent_approvals) < rank(out.mode)) {
      out = { mode: p.subagent_approvals, narrowedBy: p.name };
    }
  }
  return out;
}

/** A profile may only narrow: one looser than [delegation] is refused, naming both. */
export function checkProfileSubagentApprovals(
  problems: Problems,
  delegation: Pick<DelegationFields, 'subagent_approvals' | 'subagent_auto_approve'>,
  profiles: Record<string, Pick<RiskProfileFields, 'subagent_approvals'>>,
): void {
  const configured = configuredSubagentApprovals(delegation);
  for (const [name, p] of Object.entries(profiles)) {
    if (p.subagent_approvals === undefined || rank(p.subagent_approvals) <= rank(configured)) continue;
    problems.fail(
      ['risk_profiles', name, 'subagent_approvals'],
      t('config:errors.subagentApprovalsLooser', { value: quote(p.subagent_approvals), configured: quote(configured) }),
    );
  }
}
