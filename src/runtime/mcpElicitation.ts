// Who answers a server's elicitation/create (a form it wants filled). Headless there is no
// operator: the form is declined, or with --yes accepted with its defaults when every
// required field has one. In the chat the form is not offered yet (no form prompt): it is
// declined and the user is told which server asked, so the server's tool goes on instead
// of waiting. The server's message is never shown here unneutralised.
import { t } from '../i18n/index.js';
import { acceptDefaults, type ElicitationHandler } from '../mcp/elicitation.js';

type Notice = (level: 'info' | 'warn' | 'error', text: string) => void;

export function elicitationPolicy(opts: { interactive: boolean; autoYes: boolean; notice: Notice }): ElicitationHandler {
  return async (req) => {
    if (!opts.interactive && opts.autoYes) {
      const answer = acceptDefaults(req.fields);
      opts.notice(
        'info',
        t(answer.action === 'accept' ? 'runtime:mcp.elicitDefaults' : 'runtime:mcp.elicitNoDefaults', { name: req.server }),
      );
      return answer;
    }
    opts.notice('warn', t(opts.interactive ? 'runtime:mcp.elicitDeclinedChat' : 'runtime:mcp.elicitDeclined', { name: req.server }));
    return { action: 'decline' };
  };
}
