// One picker row per session: when, directory, first message, turns, tokens, cost.
// Headless (-p) runs are marked and come last (listSessions orders them so).
import { t } from '../../i18n/index.js';
import type { SessionSummary } from '../../model/session.js';
import { formatCost, formatDate, formatTokens } from '../text/format.js';
import { sanitizeLine, truncate } from '../text/width.js';
import { replaceControls, type PickerRow } from './pickerRows.js';

const DIR_WIDTH = 28;
const FIRST_WIDTH = 40;

/** `~/x` for paths under the home directory; long paths keep their end. */
export function shortDir(dir: string, home: string | undefined): string {
  let d = dir || '?';
  if (home && (d === home || d.startsWith(`${home}/`))) d = `~${d.slice(home.length)}`;
  return d.length > DIR_WIDTH ? `…${d.slice(d.length - DIR_WIDTH + 1)}` : d;
}

export function sessionRows(sessions: SessionSummary[], currentId: string | undefined, home: string | undefined): PickerRow[] {
  return sessions.map((s) => {
    const first = s.firstUserMessage
      ? replaceControls(sanitizeLine(s.firstUserMessage.replace(/\s+/g, ' ').trim()), '?')
      : t('ui:commands.sessions.noMessage');
    const when = formatDate(s.updatedAt ?? s.createdAt);
    const dir = replaceControls(shortDir(s.cwd ?? '', home), '?');
    const stats = t('ui:picker.sessionStats', {
      turns: t('ui:picker.turns', { count: s.turns ?? 0 }),
      tokens: formatTokens(s.tokens ?? 0),
      cost: formatCost(s.costUsd ?? 0),
    });
    const mark = s.headless ? `${t('ui:picker.headless')} ` : '';
    const label = `${when}  ${dir.padEnd(Math.min(DIR_WIDTH, Math.max(dir.length, 12)))}  ${mark}${truncate(first, FIRST_WIDTH)}`;
    return {
      id: s.id,
      label,
      // Turns, tokens and cost are the columns to compare: the first message is cut first.
      suffix: stats,
      search: `${s.id} ${s.cwd ?? ''} ${s.firstUserMessage ?? ''} ${when}`,
      current: s.id === currentId,
      dim: s.headless === true,
    };
  });
}
