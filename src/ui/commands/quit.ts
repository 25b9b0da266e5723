import type { SlashCommand } from './registry.js';

export const quitCommand: SlashCommand = {
  name: 'quit',
  summary: 'ui:commands.quit.summary',
  maxArgs: 0,
  run(_args, ctx) {
    ctx.exit();
  },
};
