// From runtime outcomes to the text the model reads: the sync envelope, failures, the
// parallel blocks and the await_sessions JSON.
import type { ArborConfig } from '../../config/types.js';
import { t } from '../../i18n/index.js';
import type { DelegateTargetDisplay } from '../../model/toolDisplay.js';
import { withReceipt } from '../receipt.js';
import { withWorktreeNote } from '../worktreeNotes.js';
import type { AwaitReport, DelegateRunOutcome } from './services.js';
import { AWAIT_PENDING, agentFailed, agentTimedOut, parallelBlock, parallelHeader, syncEnvelope } from './strings.js';

export interface Rendered {
  success: boolean;
  text: string;
}

/** One target's outcome as the model reads it and as the card shows it. */
export interface RenderedTarget extends Rendered {
  entry: DelegateTargetDisplay;
}

export interface RenderedCall extends Rendered {
  entries: DelegateTargetDisplay[];
}

/** An empty final answer is a failure, never a silent success. */
export function invalidSemanticCompletion(target: string): string {
  return t('delegate:errors.invalidSemanticCompletion', { agent_name: target });
}

/** The model's text may carry the runtime's receipt; the card's entry never does (the card
 * shows observed effects in its own section). */
function failure(target: string, text: string, receipt: (t: string) => string): RenderedTarget {
  return { success: false, text: receipt(text), entry: { target, success: false, error: text } };
}

/** With `config` setting child_receipts, the runtime's receipt follows the child's answer
 * (or its failure) inside the same text. */
export function renderOutcome(target: string, outcome: DelegateRunOutcome, config?: ArborConfig): RenderedTarget {
  const receipt = (text: string) => (config ? withReceipt(config, text, outcome.observed) : text);
  const r = renderBare(target, outcome, receipt);
  const note = outcome.worktreeNote;
  return note ? { ...r, text: withWorktreeNote(r.text, note), entry: { ...r.entry, worktree: note } } : r;
}

function renderBare(target: string, outcome: DelegateRunOutcome, receipt: (t: string) => string): RenderedTarget {
  if (outcome.status === 'completed') {
    if (outcome.text.trim() === '') return failure(target, invalidSemanticCompletion(target), receipt);
    return {
      success: true,
      text: syncEnvelope(target, outcome.label, outcome.agentic, receipt(outcome.text)),
      entry: { target, success: true, label: outcome.label, agentic: outcome.agentic, answer: outcome.text },
    };
  }
  if (outcome.status === 'timed_out' && outcome.timeoutSecs) return failure(target, agentTimedOut(target, outcome.timeoutSecs), receipt);
  return failure(target, agentFailed(target, outcome.error ?? outcome.status), receipt);
}

export function renderSingle(target: string, outcome: DelegateRunOutcome, config?: ArborConfig): RenderedCall {
  const r = renderOutcome(target, outcome, config);
  return { success: r.success, text: r.text, entries: [r.entry] };
}

export function renderParallel(targets: string[], outcomes: DelegateRunOutcome[], config?: ArborConfig): RenderedCall {
  const blocks = targets.map((target, i) => {
    const r = renderOutcome(target, outcomes[i], config);
    return { ...r, block: parallelBlock(target, r.success, r.text) };
  });
  return {
    success: blocks.some((b) => b.success),
    text: parallelHeader(targets.length) + blocks.map((b) => b.block).join('\n\n'),
    entries: blocks.map((b) => b.entry),
  };
}

export function renderAwait(report: AwaitReport): Rendered {
  if (report.status === 'complete') return { success: true, text: JSON.stringify(report, null, 2) };
  return { success: false, text: JSON.stringify({ ...report, error: AWAIT_PENDING }, null, 2) };
}
