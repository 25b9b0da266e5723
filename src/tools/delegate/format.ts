// From runtime outcomes to the text the model reads: the sync envelope, failures, the
// parallel blocks and the await_sessions JSON.
import { t } from '../../i18n/index.js';
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

export function renderOutcome(target: string, outcome: DelegateRunOutcome): Rendered {
  if (outcome.status === 'completed') {
    if (outcome.text.trim() === '') return { success: false, text: invalidSemanticCompletion(target) };
    return { success: true, text: syncEnvelope(target, outcome.label, outcome.agentic, outcome.text) };
  }
  if (outcome.status === 'timed_out' && outcome.timeoutSecs) return { success: false, text: agentTimedOut(target, outcome.timeoutSecs) };
  return { success: false, text: agentFailed(target, outcome.error ?? outcome.status) };
}

export function renderParallel(targets: string[], outcomes: DelegateRunOutcome[]): Rendered {
  const blocks = targets.map((target, i) => {
    const r = renderOutcome(target, outcomes[i]);
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
