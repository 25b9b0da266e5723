// `arbor mcp login <server>` / `arbor mcp logout <server>`: sign-in from a shell, for
// headless runs and for a server the chat cannot reach a browser for. The URL is always
// printed (a terminal over ssh opens it elsewhere); Ctrl+C cancels.
import { t } from '../i18n/index.js';
import type { LoadedConfig } from '../config/types.js';
import { neutralize } from '../text/untrusted.js';
import { createMcpManager } from '../tools/mcpTools.js';

export async function runMcpAuthCommand(loaded: LoadedConfig, action: 'login' | 'logout', name: string): Promise<number> {
  const manager = createMcpManager(loaded.config, process.cwd());
  const ac = new AbortController();
  const onSigint = () => ac.abort();
  process.once('SIGINT', onSigint);
  try {
    if (action === 'logout') {
      await manager.logout(name);
      process.stdout.write(`${t('cli:mcpLoggedOut', { name })}\n`);
      return 0;
    }
    process.stdout.write(`${t('cli:mcpSigningIn', { name })}\n`);
    const outcome = await manager.login(
      name,
      {
        authorizationUrl: (url, opened) => {
          process.stdout.write(`${t(opened ? 'cli:mcpOpenUrlOpened' : 'cli:mcpOpenUrl', { url: neutralize(url) })}\n`);
        },
      },
      { signal: ac.signal, browser: true },
    );
    const view = manager.views().find((v) => v.name === name);
    if (outcome === 'not-needed') process.stdout.write(`${t('cli:mcpNoSignInNeeded', { name })}\n`);
    else if (view?.status === 'ready') process.stdout.write(`${t('cli:mcpSignedIn', { name, count: view.tools.length })}\n`);
    else {
      process.stderr.write(`${t('cli:mcpSignInFailed', { name, error: (view?.error ?? view?.status ?? '').split('\n')[0] })}\n`);
      return 1;
    }
    return 0;
  } catch (err) {
    process.stderr.write(`${t('cli:mcpSignInFailed', { name, error: neutralize((err as Error).message) })}\n`);
    return ac.signal.aborted ? 130 : 1;
  } finally {
    process.off('SIGINT', onSigint);
    await manager.close();
  }
}
