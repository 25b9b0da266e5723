import { t } from '../../i18n/index.js';
import type { SlashCommand } from './registry.js';

export const clearCommand: SlashCommand = {
  name: 'clear',
  summary: 'ui:commands.clear.summary',
  maxArgs: 0,
  // Clearing mid-turn would drop the reply the model is still writing.
  allowedWhileRunning: false,
  run(_args, ctx) {
    ctx.runtime.clear();
    ctx.clearScreen();
    ctx.print(t('ui:commands.clear.done'));
  },
};
