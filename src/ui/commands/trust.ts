// /trust: whether this folder's own .arbor settings are trusted (as they are on disk now),
// whether this session applied them, and what they would do; `/trust yes` trusts them,
// `/trust revoke` forgets it. Both take effect at the next start: the running session's
// config, servers and agents were fixed before it began. The CLI supplies the actions
// (cli/projectTrust.ts), so the UI never touches the trust file itself.
import { t } from '../../i18n/index.js';
import type { SlashCommand } from './registry.js';

export interface TrustActions {
  status(): { kind: 'none' | 'trusted' | 'untrusted'; lines: string[]; applied: boolean };
  trust(): string;
  revoke(): string;
}

export function trustCommand(actions: TrustActions): SlashCommand {
  return {
    name: 'trust',
    summary: 'trust:command.summary',
    usage: '/trust [yes|revoke]',
    maxArgs: 1,
    completeArgs: (args) => (args.length === 0 ? ['yes', 'revoke'] : []),
    run(args, ctx) {
      const sub = args[0]?.toLowerCase();
      try {
        if (sub === 'yes') return ctx.print(actions.trust());
        if (sub === 'revoke') return ctx.print(actions.revoke());
      } catch (err) {
        return ctx.print(t('trust:command.failed', { error: (err as Error).message }), 'error');
      }
      if (sub !== undefined) return ctx.print(t('trust:command.usage'), 'error');
      const s = actions.status();
      if (s.kind === 'none') return ctx.print(t('trust:command.none'));
      const head = [t(`trust:command.${s.kind}`), ...s.lines.map((l) => `  • ${l}`)];
      ctx.print([...head, t(s.applied ? 'trust:command.applied' : 'trust:command.notApplied')].join('\n'));
    },
  };
}
