import { t } from '../../i18n/index.js';
import { usageOf, type SlashCommand } from './registry.js';

export const helpCommand: SlashCommand = {
  name: 'help',
  summary: 'ui:commands.help.summary',
  maxArgs: 0,
  run(_args, ctx) {
    const usages = ctx.commands.map((c) => usageOf(c));
    const pad = Math.max(...usages.map((u) => u.length), 0) + 2;
    const lines = [t('ui:commands.help.commandsTitle')];
    ctx.commands.forEach((c, i) => lines.push(`  ${usages[i].padEnd(pad)}${t(c.summary)}`));
    lines.push(`  ${t('ui:commands.help.slashEscape')}`);
    lines.push(t('ui:commands.help.keysTitle'));
    const labels = ctx.keyBindings.map((k) => k.label);
    const keyPad = Math.max(...labels.map((l) => l.length), 0) + 2;
    ctx.keyBindings.forEach((k, i) => lines.push(`  ${labels[i].padEnd(keyPad)}${t(k.summary)}`));
    lines.push(`  ${t('ui:commands.help.keysHint')}`);
    ctx.print(lines.join('\n'));
  },
};
