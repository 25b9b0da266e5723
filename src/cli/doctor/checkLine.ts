// One line of `arbor doctor`: a check that holds (ok), one that does not (fail: the exit code
// becomes 1), or a fact worth knowing that decides nothing (info).
import { neutralize } from '../../text/untrusted.js';

export type CheckStatus = 'ok' | 'fail' | 'info';

export interface CheckLine {
  status: CheckStatus;
  /** What was checked, e.g. "Node.js" or "provider local". */
  label: string;
  detail: string;
}

const MARK: Record<CheckStatus, string> = { ok: '✓', fail: '✗', info: '·' };

/** Labels and details quote config values, file errors and network errors: outside text,
 * neutralised here, where every doctor line is printed. */
export function formatCheckLine(line: CheckLine): string {
  return neutralize(`${MARK[line.status]} ${line.label}: ${line.detail}`);
}
