// Who decides whether a tool call that needs approval may run.
// - interactive root: the operator, through a pending approval the UI answers;
// - headless root: nobody, so deny unless --yes;
// - a child: [delegation] subagent_approvals (narrowed by its binding risk profiles):
//   "deny" (default: a child never reads the terminal), "allow" (alias
//   subagent_auto_approve = true), or "ask": queued for the operator like the root's asks,
//   answered allow once / for this child / for the whole tree this turn / deny; headless,
//   as for the root (deny unless --yes).
// A call needs no decision only when the caller's profile AND every bounded ceiling above
// it auto-approve it: a bounded target cannot approve what its caller would have asked for.
// Pending asks form one queue (controls.approvals, oldest first). A run that is stopped
// while it waits loses its ask: it leaves the queue and nothing is answered for it.
import { randomUUID } from 'node:crypto';
import { effectiveSubagentApprovals, type SubagentApprovals } from '../config/subagentApprovals.js';
import { neutralizeDeep } from '../text/untrusted.js';
import { CHILD_APPROVAL_DENIED, CHILD_APPROVAL_DENIED_BY_PROFILE } from '../tools/approvalPolicy.js';
import { combinedApprovalRequirement } from '../tools/authority.js';
import { listNames } from '../tools/toolGlob.js';
import type { Tool } from '../tools/types.js';
import type { RiskProfile } from '../config/types.js';
import type { ApprovalPreview } from './approvalPreview.js';
import { setRunStatus, type RuntimeStore } from './store.js';
import { isTerminal, type ApprovalAnswer } from './types.js';

/** `asked`: the call needed an approval, and how it was answered (the ledger records it):
 * an operator's answer, or who decided without one. */
export type ApprovalDecision = { allowed: true; asked?: string } | { allowed: false; error: string; asked?: string };

export const OPERATOR_DENIED = (tool: string) =>
  `The operator denied this call to '${tool}'. Do not retry it; continue without it or ask the user.`;
export const HEADLESS_DENIED = (tool: string) =>
  `Tool '${tool}' requires operator approval, but arbor runs headless (-p) with no operator; the call was denied. Re-run with --yes to allow such calls.`;
/** The run was stopped while its ask waited: no answer was given (the loop reports the abort). */
export const ASK_WITHDRAWN = 'aborted';

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
  /** What the call would change (Tool.preview, e.g. write_file's diff) and whether it
   * replaces a file the run never read: computed only when the operator is really asked,
   * so an auto-approved or granted call reads nothing extra. */
  preview?: () => Promise<ApprovalPreview | undefined>;
}

export interface ApprovalBrokerOptions {
  interactive: boolean;
  autoYes: boolean;
  /** [delegation] subagent_approvals, alias resolved (config/subagentApprovals.ts). */
  subagentApprovals: () => SubagentApprovals;
  /** A run starts (true) or stops (false) waiting for an answer. The supervisor stops its
   * active-time clock meanwhile and keeps its status; without it the broker sets the status. */
  onWaiting?(runId: string, waiting: boolean): void;
}

interface Waiting {
  req: ApprovalRequest;
  /** undefined: withdrawn (the run stopped). */
  finish(answer: ApprovalAnswer | undefined): void;
}

export class ApprovalBroker {
  private sessionAllowed = new Set<string>();
  /** "allow for this child": run id → tool names. */
  private childAllowed = new Map<string, Set<string>>();
  /** "allow for the whole tree this turn": root run id → tool names; gone when that root ends. */
  private treeAllowed = new Map<string, Set<string>>();
  private pending = new Map<string, Waiting>();

  constructor(
    private readonly store: RuntimeStore,
    private readonly opts: ApprovalBrokerOptions,
  ) {}

  async decide(req: ApprovalRequest): Promise<ApprovalDecision> {
    const profiles = [req.risk, ...(req.ceilings ?? [])];
    const requirement = combinedApprovalRequirement(req.tool, profiles);
    if (requirement === 'auto') return { allowed: true };
    const name = req.tool.name;
    // always_ask means every call asks, even after an "allow for ..." answer.
    const alwaysAsk = profiles.some((p) => listNames(p.always_ask, name));
    if (req.isChild) {
      const { mode, narrowedBy } = effectiveSubagentApprovals(this.opts.subagentApprovals(), profiles);
      if (mode === 'allow') return { allowed: true, asked: 'auto_allowed' };
      if (mode === 'deny') {
        const error = narrowedBy ? CHILD_APPROVAL_DENIED_BY_PROFILE(name, narrowedBy) : CHILD_APPROVAL_DENIED(name);
        return { allowed: false, error, asked: 'auto_denied' };
      }
    }
    if (!alwaysAsk && this.covered(req)) return { allowed: true, asked: 'granted' };
    if (!this.opts.interactive)
      return this.opts.autoYes
        ? { allowed: true, asked: 'auto_allowed' }
        : { allowed: false, error: HEADLESS_DENIED(name), asked: 'auto_denied' };
    const answer = await this.ask(req, alwaysAsk);
    if (answer === undefined) return { allowed: false, error: ASK_WITHDRAWN, asked: 'withdrawn' };
    if (answer === 'granted') return { allowed: true, asked: 'granted' };
    if (answer === 'deny') return { allowed: false, error: OPERATOR_DENIED(name), asked: 'deny' };
    if (answer !== 'allow_once') this.grant(req, answer);
    return { allowed: true, asked: answer };
  }

  answer(approvalId: string, answer: ApprovalAnswer): void {
    this.pending.get(approvalId)?.finish(answer);
  }

  /** Whether an earlier answer covers this call: for the root, "allow for this session";
   * for anyone, "allow for this child / the tree". */
  private covered(req: ApprovalRequest): boolean {
    const name = req.tool.name;
    return (!req.isChild && this.sessionAllowed.has(name)) || this.granted(req.runId, name);
  }

  /** Whether an earlier "allow for this child / the tree" covers `tool` for this run. */
  private granted(runId: string, tool: string): boolean {
    this.prune();
    const run = this.store.getState().runs.get(runId);
    if (this.childAllowed.get(runId)?.has(tool)) return true;
    return run !== undefined && (this.treeAllowed.get(run.rootRunId)?.has(tool) ?? false);
  }

  /** Grants die with their run (a child) or their turn (the tree's root). */
  private prune(): void {
    const runs = this.store.getState().runs;
    for (const map of [this.childAllowed, this.treeAllowed]) {
      for (const id of map.keys()) {
        const run = runs.get(id);
        if (!run || isTerminal(run.status)) map.delete(id);
      }
    }
  }

  private grant(req: ApprovalRequest, answer: ApprovalAnswer): void {
    const name = req.tool.name;
    const add = (map: Map<string, Set<string>>, key: string) => {
      const set = map.get(key) ?? new Set<string>();
      set.add(name);
      map.set(key, set);
    };
    const run = this.store.getState().runs.get(req.runId);
    if (answer === 'allow_session') this.sessionAllowed.add(name);
    else if (answer === 'allow_child') add(this.childAllowed, req.runId);
    else if (answer === 'allow_tree' && run) add(this.treeAllowed, run.rootRunId);
    // Other asks already waiting that this answer covers need no second answer.
    for (const w of [...this.pending.values()]) {
      if (w.req.tool.name !== name) continue;
      const theirs = [w.req.risk, ...(w.req.ceilings ?? [])];
      if (theirs.some((p) => listNames(p.always_ask, name))) continue;
      if (this.covered(w.req)) w.finish('allow_once');
    }
  }

  /** The operator's answer; undefined: withdrawn; 'granted': covered by an answer given
   * while the preview was computed, so never shown. */
  private async ask(req: ApprovalRequest, alwaysAsk: boolean): Promise<ApprovalAnswer | 'granted' | undefined> {
    const preview = req.preview ? await req.preview().catch(() => undefined) : undefined;
    if (req.signal.aborted) return undefined;
    // An answer given meanwhile (allow for this session on another ask) may cover this one.
    if (req.preview && !alwaysAsk && this.covered(req)) return 'granted';
    const id = randomUUID();
    this.store.setState((s) => ({
      controls: {
        ...s.controls,
        // Arguments are model text: shown neutralised (text/untrusted.ts), run as sent.
        approvals: [
          ...s.controls.approvals,
          {
            id,
            runId: req.runId,
            callId: req.callId,
            tool: req.tool.name,
            args: neutralizeDeep(req.args),
            // File content and paths are outside text too.
            ...(preview ? { preview: neutralizeDeep(preview.display) } : {}),
            ...(preview?.unreadFile ? { unreadFile: true } : {}),
            createdAt: Date.now(),
            ...(req.isChild ? { isChild: true } : {}),
          },
        ],
      },
    }));
    this.waiting(req.runId, true);
    return new Promise<ApprovalAnswer | undefined>((resolve) => {
      const finish = (answer: ApprovalAnswer | undefined) => {
        if (!this.pending.delete(id)) return;
        req.signal.removeEventListener('abort', onAbort);
        this.store.setState((s) => ({ controls: { ...s.controls, approvals: s.controls.approvals.filter((a) => a.id !== id) } }));
        this.waiting(req.runId, false);
        resolve(answer);
      };
      const onAbort = () => finish(undefined);
      this.pending.set(id, { req, finish });
      if (req.signal.aborted) onAbort();
      else req.signal.addEventListener('abort', onAbort, { once: true });
    });
  }

  private waiting(runId: string, waiting: boolean): void {
    if (this.opts.onWaiting) return this.opts.onWaiting(runId, waiting);
    if (waiting) setRunStatus(this.store, runId, 'awaiting_approval');
    else if (this.store.getState().runs.get(runId)?.status === 'awaiting_approval') setRunStatus(this.store, runId, 'running');
  }
}
