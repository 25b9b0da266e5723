// A run's children as ACP sees them. With clientCapabilities.subagents each child is its own
// session, announced on its parent's with subagent_update (title, agent, model, work state)
// and streaming its own transcript; without it, each child is one tool call on the root
// session whose content says how far it got.
import type * as acp from '@agentclientprotocol/sdk/unstable';
import { isExternalAcpRun, isTerminal, runName, type Run } from '../../model/run.js';
import { clockTime } from '../../model/quota.js';
import type { RuntimeState } from '../../runtime/types.js';
import { t } from '../../i18n/index.js';

/** arbor's word for where a child is: what the editor shows beside its session. */
export type WorkState = 'queued' | 'running' | 'paused' | 'finished';

export function workState(run: Run): WorkState {
  if (run.status === 'queued') return 'queued';
  if (run.status === 'paused' || run.status === 'pausing') return 'paused';
  if (isTerminal(run.status)) return 'finished';
  return 'running';
}

/** Why a paused child is paused, so the editor can say it: a provider's limit, the runaway
 * guard or the operator; an external agent also says that it finishes the step in flight. */
export interface PauseWhy {
  by: 'quota' | 'runaway' | 'operator';
  text: string;
}

export function pauseWhy(s: RuntimeState, run: Run): PauseWhy | undefined {
  if (run.status !== 'paused' && run.status !== 'pausing') return undefined;
  const quota = s.quotaPauses?.find((p) => p.runIds.includes(run.id));
  const runaway = s.controls.runaway;
  const why: PauseWhy = quota
    ? { by: 'quota', text: t('acp:child.paused.quota', { provider: quota.provider, clock: clockTime(quota.resetAt) }) }
    : runaway.tripped
      ? { by: 'runaway', text: t('acp:child.paused.runaway', { threshold: runaway.threshold ?? '' }) }
      : { by: 'operator', text: t('acp:child.paused.operator') };
  if (run.status === 'pausing' && isExternalAcpRun(run)) why.text = `${why.text}; ${t('acp:child.paused.external')}`;
  return why;
}

/**
 * ACP's state snapshot for the child. Queued is not running yet and ACP has no state for
 * it: the state is cleared (unset, unconfirmed) and `_meta.arbor.workState` says queued.
 * Paused and waiting for an answer both wait on the operator: requires_action.
 */
export function stateUpdate(run: Run, why?: PauseWhy): acp.StateUpdate | null {
  const meta = {
    arbor: {
      workState: workState(run),
      status: run.status,
      ...(run.queuePosition ? { queuePosition: run.queuePosition } : {}),
      ...(why ? { pausedBy: why.by, pausedWhy: why.text } : {}),
    },
  };
  switch (run.status) {
    case 'queued':
      return null;
    case 'running':
    case 'pausing':
      return { state: 'running', _meta: meta };
    case 'paused':
    case 'awaiting_approval':
      return { state: 'requires_action', _meta: meta };
    case 'completed':
      return { state: 'idle', stopReason: 'end_turn', _meta: meta, ...usage(run) };
    case 'cancelled':
    case 'killed':
      return { state: 'idle', stopReason: 'cancelled', _meta: meta, ...usage(run) };
    default:
      return {
        state: 'idle',
        stopReason: 'error',
        error: { code: -32603, message: run.error ?? run.status },
        _meta: meta,
        ...usage(run),
      } as acp.StateUpdate;
  }
}

function usage(run: Run): { usage?: acp.Usage } {
  if (!run.tokensIn && !run.tokensOut) return {};
  return { usage: { inputTokens: run.tokensIn, outputTokens: run.tokensOut, totalTokens: run.tokensIn + run.tokensOut } };
}

/** What the run's subagent_update carries besides its state. */
export function announcement(run: Run, sessionId: string, cwd: string, why?: PauseWhy): acp.SubagentUpdate {
  return {
    sessionId,
    title: runName(run),
    description: t('acp:child.description', { agent: run.alias, model: run.model, task: run.task.slice(0, 200) }),
    capabilities: { cancel: {} },
    cwd,
    state: stateUpdate(run, why),
    _meta: { arbor: { label: runName(run), agent: run.alias, model: run.model, kind: run.kind, workState: workState(run), runId: run.id } },
  };
}

/** Without the capability: the child as a tool call of the root session. */
export function flatStatus(run: Run): acp.ToolCallStatus {
  if (run.status === 'queued') return 'pending';
  if (!isTerminal(run.status)) return 'in_progress';
  return run.status === 'completed' ? 'completed' : 'failed';
}

export function flatProgress(run: Run, why?: PauseWhy): string {
  const state = why ? `${t(`acp:child.state.${workState(run)}`)} (${why.text})` : t(`acp:child.state.${workState(run)}`);
  const last = run.lastTool ? t('acp:child.lastTool', { tool: run.lastTool.name }) : '';
  const end = isTerminal(run.status) ? (run.result ?? run.error ?? run.status) : '';
  return [`${runName(run)} (${run.model}) · ${state} · ${run.status}`, last, end].filter(Boolean).join('\n');
}
