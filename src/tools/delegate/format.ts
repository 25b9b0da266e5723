// From runtime outcomes to the text the model reads: the sync envelope, failures, the
// parallel blocks and the await_sessions JSON.
import type { ArborConfig } from '../../config/types.js';
import { t } from '../../i18n/index.js';
import { withReceipt } from '../receipt.js';
import type { AwaitReport, DelegateRunOutcome } from './services.js';
import { AWAIT_PENDING, agentFailed, agentTimedOut, parallelBlock, parallelHeader, syncEnvelope } from './strings.js';

export interface Rendered {
  success: boolean;
  text: string;
}

/** An empty final answer is a failure, never a silent success. */
export function invalidSemanticCompletion(target: string): string {
  return t('delegate:errors.invalidSemanticCompletion', { agent_name: target });
}

/** With `config` setting child_receipts, the runtime's receipt follows the child's answer
 * (or its failure) inside the same text. */
export function renderOutcome(target: string, outcome: DelegateRunOutcome, config?: ArborConfig): Rendered {
  const receipt = (text: string) => (config ? withReceipt(config, text, outcome.observed) : text);
  if (outcome.status === 'completed') {
    if (outcome.text.trim() === '') return { success: false, text: receipt(invalidSemanticCompletion(target)) };
    return { success: true, text: syncEnvelope(target, outcome.label, outcome.agentic, receipt(outcome.text)) };
  }
  if (outcome.status === 'timed_out' && outcome.timeoutSecs)
    return { success: false, text: receipt(agentTimedOut(target, outcome.timeoutSecs)) };
  return { success: false, text: receipt(agentFailed(target, outcome.error ?? outcome.status)) };
}

export function renderParallel(targets: string[], outcomes: DelegateRunOutcome[], config?: ArborConfig): Rendered {
  const blocks = targets.map((target, i) => {
    const r = renderOutcome(target, outcomes[i], config);
    return { ...r, block: parallelBlock(target, r.success, r.text) };
  });
  return {
    success: blocks.some((b) => b.success),
    text: parallelHeader(targets.length) + blocks.map((b) => b.block).join('\n\n'),
  };
}

export function renderAwait(report: AwaitReport): Rendered {
  if (report.status === 'complete') return { success: true, text: JSON.stringify(report, null, 2) };
  return { success: false, text: JSON.stringify({ ...report, error: AWAIT_PENDING }, null, 2) };
}
