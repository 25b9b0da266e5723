// Who decides whether a tool call that needs approval may run.
// - interactive root: the operator, through a pending approval the UI answers;
// - headless root: nobody, so deny unless --yes;
// - any child: nobody (a child never reads the terminal), so deny unless
//   [delegation] subagent_auto_approve = true.
// A call needs no decision only when the caller's profile AND every bounded ceiling above
// it auto-approve it: a bounded target cannot approve what its caller would have asked for.
import { randomUUID } from 'node:crypto';
import { neutralizeDeep } from '../text/untrusted.js';
import { childApprovalDecision } from '../tools/approvalPolicy.js';
import { combinedApprovalRequirement } from '../tools/authority.js';
import { listNames } from '../tools/toolGlob.js';
import type { Tool } from '../tools/types.js';
import type { RiskProfile } from '../config/types.js';
import { setRunStatus, type RuntimeStore } from './store.js';
import type { ApprovalAnswer } from './types.js';

export type ApprovalDecision = { allowed: true } | { allowed: false; error: string };

export const OPERATOR_DENIED = (tool: string) =>
  `The operator denied this call to '${tool}'. Do not retry it; continue without it or ask the user.`;
export const HEADLESS_DENIED = (tool: string) =>
  `Tool '${tool}' requires operator approval, but arbor runs headless (-p) with no operator; the call was denied. Re-run with --yes to allow such calls.`;

export interface ApprovalRequest {
  runId: string;
  callId: string;
  tool: Tool;
  args: unknown;
  risk: RiskProfile;
  /** The caller's bounded ceilings: a call is auto-approved only if each of them would
   * auto-approve it too. */
  ceilings?: RiskProfile[];
  isChild: boolean;
  signal: AbortSignal;
}

export class ApprovalBroker {
  private sessionAllowed = new Set<string>();
  private pending = new Map<string, (answer: ApprovalAnswer) => void>();

  constructor(
    private readonly store: RuntimeStore,
    private readonly opts: { interactive: boolean; autoYes: boolean; subagentAutoApprove: () => boolean },
  ) {}

  async decide(req: ApprovalRequest): Promise<ApprovalDecision> {
    const requirement = combinedApprovalRequirement(req.tool, [req.risk, ...(req.ceilings ?? [])]);
    if (req.isChild) return childApprovalDecision(requirement, this.opts.subagentAutoApprove(), req.tool.name);
    if (requirement === 'auto') return { allowed: true };
    // always_ask means every call asks, even after "allow for this session".
    const alwaysAsk = listNames(req.risk.always_ask, req.tool.name);
    if (!alwaysAsk && this.sessionAllowed.has(req.tool.name)) return { allowed: true };
    if (!this.opts.interactive) return this.opts.autoYes ? { allowed: true } : { allowed: false, error: HEADLESS_DENIED(req.tool.name) };
    const answer = await this.ask(req);
    if (answer === 'allow_session') {
      this.sessionAllowed.add(req.tool.name);
      return { allowed: true };
    }
    if (answer === 'allow_once') return { allowed: true };
    return { allowed: false, error: OPERATOR_DENIED(req.tool.name) };
  }

  answer(approvalId: string, answer: ApprovalAnswer): void {
    const resolve = this.pending.get(approvalId);
    if (resolve) resolve(answer);
  }

  private ask(req: ApprovalRequest): Promise<ApprovalAnswer> {
    const id = randomUUID();
    this.store.setState((s) => ({
      controls: {
        ...s.controls,
        // Arguments are model text: shown neutralised (text/untrusted.ts), run as sent.
        approvals: [
          ...s.controls.approvals,
          { id, runId: req.runId, callId: req.callId, tool: req.tool.name, args: neutralizeDeep(req.args), createdAt: Date.now() },
        ],
      },
    }));
    setRunStatus(this.store, req.runId, 'awaiting_approval');
    return new Promise<ApprovalAnswer>((resolve) => {
      const finish = (answer: ApprovalAnswer) => {
        this.pending.delete(id);
        req.signal.removeEventListener('abort', onAbort);
        this.store.setState((s) => ({ controls: { ...s.controls, approvals: s.controls.approvals.filter((a) => a.id !== id) } }));
        if (this.store.getState().runs[req.runId]?.status === 'awaiting_approval') setRunStatus(this.store, req.runId, 'running');
        resolve(answer);
      };
      const onAbort = () => finish('deny');
      this.pending.set(id, finish);
      req.signal.addEventListener('abort', onAbort, { once: true });
    });
  }
}
