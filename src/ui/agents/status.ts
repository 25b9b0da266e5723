// How a run's status reads: a single-cell glyph, a colour and a localized word (with the
// queue position while queued). Shared by the pane and /subagents.
import { t } from '../../i18n/index.js';
import { isExternalAcpRun, type Run, type RunStatus } from '../../model/run.js';

export const STATUS_GLYPHS: Record<RunStatus, string> = {
  queued: '◌',
  running: '●',
  pausing: '‖',
  paused: '‖',
  awaiting_approval: '?',
  completed: '✓',
  failed: '✗',
  killed: '×',
  timed_out: '◔',
  cancelled: '⊘',
};

export function statusWord(status: RunStatus): string {
  return t(`agents:status.${status}`);
}

/** "running", or "queued #3" while waiting for a lane slot; a paused external ACP agent
 * says that only its next ask is held (arbor cannot stop it mid-step). */
export function statusText(run: Run): string {
  if (run.status === 'queued' && run.queuePosition !== undefined) return t('agents:status.queuedAt', { n: run.queuePosition });
  if ((run.status === 'paused' || run.status === 'pausing') && isExternalAcpRun(run)) return t(`agents:status.${run.status}External`);
  return statusWord(run.status);
}

export function kindWord(run: Run): string {
  return t(`agents:kind.${run.kind}`);
}
