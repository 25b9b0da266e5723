// The answers an approval prompt offers, with the key command and label of each.
import type { KeyCommand } from '../../config/keySpec.js';
import type { TranslationKey } from '../../i18n/index.js';
import type { ApprovalAnswer, PendingApproval } from '../../model/controls.js';

/** The approval answers in list order (allow once first, highlighted by default). */
export const APPROVAL_CHOICES: { answer: ApprovalAnswer; command: KeyCommand; label: TranslationKey }[] = [
  { answer: 'allow_once', command: 'approval.allow_once', label: 'ui:approval.allowOnce' },
  { answer: 'allow_session', command: 'approval.allow_session', label: 'ui:approval.allowSession' },
  { answer: 'deny', command: 'approval.deny', label: 'ui:approval.deny' },
];

/** A child's ask (subagent_approvals = "ask"): the session-wide grant is the root's only;
 * a child's answer reaches as far as that child, or its whole tree for this turn. */
export const CHILD_APPROVAL_CHOICES: { answer: ApprovalAnswer; command: KeyCommand; label: TranslationKey }[] = [
  { answer: 'allow_once', command: 'approval.allow_once', label: 'ui:approval.allowOnce' },
  { answer: 'allow_child', command: 'approval.allow_child', label: 'ui:approval.allowChild' },
  { answer: 'allow_tree', command: 'approval.allow_tree', label: 'ui:approval.allowTree' },
  { answer: 'deny', command: 'approval.deny', label: 'ui:approval.deny' },
];

export function approvalChoices(approval: Pick<PendingApproval, 'isChild'> | undefined) {
  return approval?.isChild ? CHILD_APPROVAL_CHOICES : APPROVAL_CHOICES;
}
