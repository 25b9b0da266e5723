import { currentLanguage, SUPPORTED_LANGUAGES, t, type Language } from '../../i18n/index.js';
import type { SlashCommand } from './registry.js';

function isLanguage(value: string): value is Language {
  return (SUPPORTED_LANGUAGES as readonly string[]).includes(value);
}

export const langCommand: SlashCommand = {
  name: 'lang',
  summary: 'ui:commands.lang.summary',
  usage: `/lang ${SUPPORTED_LANGUAGES.join('|')}`,
  maxArgs: 1,
  completeArgs: (args) => (args.length === 0 ? [...SUPPORTED_LANGUAGES] : []),
  run(args, ctx) {
    if (args.length === 0) {
      ctx.print(t('ui:commands.lang.current', { name: t(`ui:commands.lang.names.${currentLanguage()}`) }));
      return;
    }
    const wanted = args[0].toLowerCase();
    if (!isLanguage(wanted)) {
      ctx.print(t('ui:commands.lang.unsupported', { lang: args[0], list: SUPPORTED_LANGUAGES.join(', ') }), 'error');
      return;
    }
    ctx.setLanguage(wanted);
    const name = t(`ui:commands.lang.names.${wanted}`);
    if (!ctx.saveLanguage) {
      ctx.print(t('ui:commands.lang.switched', { name }));
      return;
    }
    try {
      ctx.print(t('ui:commands.lang.saved', { name, path: ctx.saveLanguage(wanted) }));
    } catch (err) {
      ctx.print(t('ui:commands.lang.notSaved', { name, error: err instanceof Error ? err.message : String(err) }), 'warn');
    }
  },
};
