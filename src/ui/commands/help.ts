import { t } from '../../i18n/index.js';
import { displayWidth, wrapLine } from '../text/width.js';
import { usageOf, type SlashCommand } from './registry.js';

/** Width /help lays out for when the terminal's is unknown. */
const DEFAULT_COLUMNS = 80;
/** The notice glyph takes two columns before the text. */
const NOTICE_GUTTER = 2;

export const helpCommand: SlashCommand = {
  name: 'help',
  summary: 'ui:commands.help.summary',
  maxArgs: 0,
  run(_args, ctx) {
    const width = Math.max(20, (ctx.columns ?? DEFAULT_COLUMNS) - NOTICE_GUTTER);
    const lines = [t('ui:commands.help.commandsTitle')];
    lines.push(
      ...twoColumns(
        ctx.commands.map((c) => [usageOf(c), t(c.summary)]),
        width,
      ),
    );
    lines.push(`  ${t('ui:commands.help.slashEscape')}`);
    lines.push(t('ui:commands.help.keysTitle'));
    lines.push(
      ...twoColumns(
        ctx.keyBindings.map((k) => [k.label, t(k.summary)]),
        width,
      ),
    );
    lines.push(`  ${t('ui:commands.help.keysHint')}`);
    ctx.print(lines.join('\n'));
  },
};

/**
 * "  usage   description" rows laid out for `width`: descriptions start in one column and
 * wrap under themselves. A left side too long for that column (the /subagents usage) gets
 * lines of its own, wrapped with an indent, and its description starts on the next line:
 * padding every row to the longest usage pushed every description past the screen edge.
 */
export function twoColumns(rows: readonly (readonly [string, string])[], width: number): string[] {
  const cap = Math.max(12, Math.floor(width * 0.4));
  const fitting = rows.map(([left]) => displayWidth(left)).filter((w) => w + 2 <= cap);
  const pad = Math.max(0, ...fitting) + 2;
  const indent = ' '.repeat(2 + pad);
  const out: string[] = [];
  for (const [left, right] of rows) {
    const desc = wrapLine(right, Math.max(10, width - 2 - pad));
    if (displayWidth(left) + 2 <= pad) {
      out.push(`  ${left}${' '.repeat(pad - displayWidth(left))}${desc[0]}`);
    } else {
      wrapLine(left, width - 4).forEach((l, i) => out.push(`${i === 0 ? '  ' : '    '}${l}`));
      out.push(`${indent}${desc[0]}`);
    }
    for (const more of desc.slice(1)) out.push(`${indent}${more}`);
  }
  return out;
}
