// Opening the authorization URL in the user's browser: $BROWSER when set, else the
// platform's opener (open on macOS, xdg-open elsewhere). Best effort and silent: the URL
// is always printed too, for a terminal over ssh or a machine with no browser. The URL
// is an argument, never shell text.
import { spawn } from 'node:child_process';

export function browserCommand(env: NodeJS.ProcessEnv = process.env, platform = process.platform): string | undefined {
  const fromEnv = env.BROWSER?.split(':')[0]?.trim();
  if (fromEnv) return fromEnv;
  if (platform === 'darwin') return 'open';
  if (platform === 'win32') return undefined;
  return 'xdg-open';
}

/** Starts the browser on `url`; never throws, never waits for it. */
export function openBrowser(url: string, env: NodeJS.ProcessEnv = process.env): boolean {
  const command = browserCommand(env);
  if (!command) return false;
  try {
    const child = spawn(command, [url], { stdio: 'ignore', detached: true, env });
    child.on('error', () => {});
    child.unref();
    return true;
  } catch {
    return false;
  }
}
