// /keys: every command of the key table with the keys bound to it now, written as the
// `[keys]` section of config.toml takes them, so changing a key is copying one line.
import { KEY_COMMANDS, type KeyCommand } from '../../config/keySpec.js';
import { t } from '../../i18n/index.js';
import { defaultKeyTable } from '../keys/keyTable.js';
import type { SlashCommand } from './registry.js';

export const keysCommand: SlashCommand = {
  name: 'keys',
  summary: 'ui:commands.keys.summary',
  maxArgs: 0,
  run(_args, ctx) {
    const table = ctx.keyTable ?? defaultKeyTable();
    const lines = [t('ui:commands.keys.title')];
    let group = '';
    for (const id of Object.keys(KEY_COMMANDS) as KeyCommand[]) {
      const [g, name] = id.split('.');
      if (g !== group) {
        group = g;
        lines.push(`  [keys.${g}]`);
      }
      lines.push(`    ${name} = ${JSON.stringify(table.specs(id))}`);
    }
    ctx.print(lines.join('\n'));
  },
};
