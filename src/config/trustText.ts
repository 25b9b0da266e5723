// What a folder's settings would do, in the words the trust prompt, `arbor trust`, the
// headless warning and /trust use. Everything quoted comes from the repository's files:
// made inert before it can reach a terminal.
import { t } from '../i18n/index.js';
import { neutralize } from '../text/untrusted.js';
import type { TrustAction } from './projectSettings.js';

/** A command line as a person would type it: arguments with spaces or quotes are quoted. */
function commandLine(command: string, args: string[]): string {
  return [command, ...args].map((a) => (/^[\w./:=@%+,-]+$/.test(a) ? a : JSON.stringify(a))).join(' ');
}

function actionLine(a: TrustAction): string {
  switch (a.kind) {
    case 'mcpCommand':
      return t('trust:action.mcpCommand', { server: a.server, command: commandLine(a.command, a.args) });
    case 'mcpUrl':
      return a.tokenEnv
        ? t('trust:action.mcpUrlToken', { server: a.server, url: a.url, env: a.tokenEnv })
        : t('trust:action.mcpUrl', { server: a.server, url: a.url });
    case 'mcpSecret':
      return a.idpUrl === undefined
        ? t('trust:action.mcpSecret', { server: a.server, env: a.env })
        : t('trust:action.mcpSecretIdp', { server: a.server, env: a.env, url: a.idpUrl || t('trust:action.noUrl') });
    case 'acpCommand':
      return t('trust:action.acpCommand', { agent: a.agent, command: commandLine(a.command, a.args) });
    case 'provider': {
      const where = a.baseUrl ?? t('trust:action.noUrl');
      const key = a.keyEnv ? t('trust:action.key', { env: a.keyEnv }) : t('trust:action.noKey');
      if (!a.userDefined) return t('trust:action.providerAdd', { name: a.name, url: where, key });
      return a.changes.length
        ? t('trust:action.providerChange', { name: a.name, changes: a.changes.join(', '), url: where, key })
        : t('trust:action.providerTweak', { name: a.name });
    }
    case 'agentFile':
      return t('trust:action.agentFile', { file: a.file, name: a.name });
    case 'settings':
      return t('trust:action.settings', { keys: a.keys.join(', ') });
    case 'unreadable':
      return t('trust:action.unreadable', { file: a.file, problem: a.problem });
  }
}

/** One line per action, inert. */
export function trustActionLines(actions: readonly TrustAction[]): string[] {
  return actions.map((a) => neutralize(actionLine(a)));
}
