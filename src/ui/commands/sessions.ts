import { t } from '../../i18n/index.js';
import { formatDate } from '../text/format.js';
import { truncate } from '../text/width.js';
import type { SessionSummary } from '../../model/session.js';
import type { SlashCommand } from './registry.js';

/** Enough to find a recent conversation without flooding the screen. */
export const SESSIONS_SHOWN = 10;
const FIRST_MESSAGE_WIDTH = 50;

/** Chats newest first, then headless (-p) runs, newest first. */
function newestFirst(list: SessionSummary[]): SessionSummary[] {
  const when = (s: SessionSummary) => Date.parse(s.updatedAt ?? s.createdAt);
  return [...list].sort((a, b) => Number(a.headless === true) - Number(b.headless === true) || when(b) - when(a));
}

export const sessionsCommand: SlashCommand = {
  name: 'sessions',
  summary: 'ui:commands.sessions.summary',
  usage: '/sessions [id prefix]',
  maxArgs: 1,
  completeArgs: (args, _partial, { sessions }) => (args.length === 0 ? newestFirst(sessions.list()).map((s) => s.id) : []),
  run(args, ctx) {
    // With an id prefix (Tab completes it), only the sessions it names.
    const prefix = args[0]?.toLowerCase();
    const all = newestFirst(ctx.sessions.list()).filter((s) => !prefix || s.id.toLowerCase().startsWith(prefix));
    if (all.length === 0) {
      // A prefix that matches nothing is not the same as having no sessions.
      const saved = prefix !== undefined && ctx.sessions.list().length > 0;
      ctx.print(saved ? t('ui:commands.sessions.noMatch', { prefix: args[0] }) : t('ui:commands.sessions.none'));
      return;
    }
    const lines = [t('ui:commands.sessions.title')];
    for (const s of all.slice(0, SESSIONS_SHOWN)) {
      const first = s.firstUserMessage
        ? `"${truncate(s.firstUserMessage.replace(/\s+/g, ' ').trim(), FIRST_MESSAGE_WIDTH)}"`
        : t('ui:commands.sessions.noMessage');
      const mark = s.headless ? `${t('ui:picker.headless')} ` : '';
      const row = t('ui:commands.sessions.row', {
        id: s.id,
        date: formatDate(s.createdAt),
        items: t('ui:commands.sessions.items', { count: s.items }),
        first: mark + first,
      });
      lines.push(`  ${row}${s.id === ctx.sessions.currentId ? `  ${t('ui:commands.sessions.current')}` : ''}`);
    }
    if (all.length > SESSIONS_SHOWN) lines.push(`  ${t('ui:commands.sessions.more', { count: all.length - SESSIONS_SHOWN })}`);
    lines.push(t('ui:commands.sessions.resumeHint'));
    ctx.print(lines.join('\n'));
  },
};
