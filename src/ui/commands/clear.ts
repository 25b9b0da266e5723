import { t } from '../../i18n/index.js';
import type { SlashCommand } from './registry.js';

export const clearCommand: SlashCommand = {
  name: 'clear',
  summary: 'ui:commands.clear.summary',
  maxArgs: 0,
  // Clearing mid-turn would drop the reply the model is still writing.
  allowedWhileRunning: false,
  run(_args, ctx) {
    const before = ctx.sessions.currentId;
    ctx.runtime.clear();
    ctx.clearScreen();
    const after = ctx.sessions.currentId;
    // The cleared conversation stays saved as it was; what follows is a new session.
    const kept = after !== before && (ctx.sessions.isSaved?.(before) ?? false);
    ctx.print(kept ? t('ui:commands.clear.newSession', { id: before }) : t('ui:commands.clear.done'));
  },
};
