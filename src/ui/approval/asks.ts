// Pending asks by run, for the /agents pane's mark and its Enter-to-answer.
import type { PendingApproval } from '../../model/controls.js';

/** Run id → its oldest pending ask's id. */
export function asksByRun(approvals: readonly PendingApproval[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const a of approvals) if (!out.has(a.runId)) out.set(a.runId, a.id);
  return out;
}
