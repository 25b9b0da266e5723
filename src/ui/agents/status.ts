// How a run's status reads: a single-cell glyph, a colour and a localized word (with the
// queue position while queued). Shared by the pane and /subagents.
import { t } from '../../i18n/index.js';
import type { Run, RunStatus } from '../../runtime/types.js';

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

export { STATUS_COLORS } from '../runDisplay.js';

export function statusWord(status: RunStatus): string {
  return t(`agents:status.${status}`);
}

/** "running", or "queued #3" while waiting for a lane slot. */
export function statusText(run: Run): string {
  if (run.status === 'queued' && run.queuePosition !== undefined) return t('agents:status.queuedAt', { n: run.queuePosition });
  return statusWord(run.status);
}

export function kindWord(run: Run): string {
  return t(`agents:kind.${run.kind}`);
}
