// The pane `/mcp login <server>` shows while it waits for the browser: the authorization
// URL (always printed, for a terminal over ssh) and Esc to cancel. The sign-in itself runs
// in the runtime; this only shows the URL and turns Esc into the abort.
import { Box, Text } from 'ink';
import { useSyncExternalStore } from 'react';
import { t } from '../../i18n/index.js';
import { neutralize } from '../../text/untrusted.js';
import { usePaneInput } from '../panes/paneKeys.js';
import type { Pane } from '../panes/types.js';

export class SignInState {
  url: string | undefined;
  opened = false;
  private readonly listeners = new Set<() => void>();
  readonly abort = new AbortController();

  setUrl(url: string, opened: boolean): void {
    this.url = url;
    this.opened = opened;
    for (const l of this.listeners) l();
  }

  subscribe = (l: () => void): (() => void) => {
    this.listeners.add(l);
    return () => this.listeners.delete(l);
  };
}

function SignInView({ name, state }: { name: string; state: SignInState }) {
  const url = useSyncExternalStore(state.subscribe, () => state.url);
  usePaneInput((event) => {
    if (event.kind === 'key' && event.name === 'escape') state.abort.abort();
  });
  return (
    <Box flexDirection="column">
      <Text>{t('ui:commands.mcp.signingIn', { name })}</Text>
      {url && <Text>{t(state.opened ? 'ui:commands.mcp.openedUrl' : 'ui:commands.mcp.openUrl')}</Text>}
      {url && <Text>{neutralize(url)}</Text>}
      <Text dimColor>{t('ui:commands.mcp.escCancels')}</Text>
    </Box>
  );
}

export function signInPane(name: string, state: SignInState): Pane {
  return { id: `mcp-login-${name}`, render: () => <SignInView name={name} state={state} /> };
}
