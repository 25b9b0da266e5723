import { t } from '../../i18n/index.js';
import type { SlashCommand } from './registry.js';

export const modelCommand: SlashCommand = {
  name: 'model',
  summary: 'ui:commands.model.summary',
  maxArgs: 0,
  run(_args, ctx) {
    const info = ctx.runtime.info;
    const lines = [
      t('ui:commands.model.agent', { alias: info.agentAlias }),
      t('ui:commands.model.provider', { name: info.providerName }),
      t('ui:commands.model.model', { label: info.providerLabel }),
    ];
    if (info.autoDetectedFrom) lines.push(t('ui:commands.model.autoDetected', { env: info.autoDetectedFrom }));
    ctx.print(lines.join('\n'));
  },
};
