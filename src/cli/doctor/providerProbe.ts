// `arbor doctor` asks each configured provider one cheap question (the model list: no tokens
// spent) with a short timeout. What it prints names the provider, the URL (without any
// credentials in it) and the HTTP status or network error — never the key.
import type { ProviderConfig } from '../../config/types.js';
import { t } from '../../i18n/index.js';
import { scrubKnownSecrets } from '../../persistence/redact.js';
import { baseUrlOf, keyEnvVar } from '../../providers/endpoints.js';
import type { CheckLine } from './checkLine.js';

export const PROBE_TIMEOUT_MS = 3000;

/** The URL as it may be shown: user and password taken out. */
function shownUrl(url: URL): string {
  const copy = new URL(url.href);
  copy.username = '';
  copy.password = '';
  return copy.href;
}

function passwordOf(base: string): string | undefined {
  try {
    return decodeURIComponent(new URL(base).password) || undefined;
  } catch {
    return undefined;
  }
}

function probeRequest(config: ProviderConfig, base: string, key: string | undefined): { url: URL; headers: Record<string, string> } {
  const url = new URL(`${base.replace(/\/+$/, '')}/models`);
  const headers: Record<string, string> = { ...config.headers };
  // fetch refuses a URL with credentials in it (and would echo them in its error): they go
  // in a Basic header instead, as a browser would send them.
  if (url.username || url.password) {
    headers.authorization ??= `Basic ${Buffer.from(`${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`).toString('base64')}`;
    url.username = '';
    url.password = '';
  }
  if (config.type === 'anthropic') {
    headers['anthropic-version'] ??= '2023-06-01';
    if (key) headers['x-api-key'] = key;
  } else if (key) {
    headers.authorization = `Bearer ${key}`;
  }
  return { url, headers };
}

/** The error's own code (ECONNREFUSED, ENOTFOUND, ...) or message, scrubbed of secrets. */
function networkReason(err: unknown, secrets: string[], timeoutMs: number): string {
  const e = err as { name?: string; message?: string; cause?: { code?: string; message?: string } };
  if (e?.name === 'TimeoutError' || e?.name === 'AbortError') return t('doctor:provider.timedOut', { ms: timeoutMs });
  const reason = e?.cause?.code ?? e?.cause?.message ?? e?.message ?? String(err);
  return scrubKnownSecrets(reason, secrets);
}

export async function probeProvider(
  config: ProviderConfig,
  env: NodeJS.ProcessEnv = process.env,
  timeoutMs = PROBE_TIMEOUT_MS,
): Promise<CheckLine> {
  const label = t('doctor:provider.label', { name: config.name, type: config.type, model: config.model });
  if (config.type === 'offline') return { status: 'ok', label, detail: t('doctor:provider.offline') };
  const base = baseUrlOf(config);
  if (!base) return { status: 'fail', label, detail: t('doctor:provider.noBaseUrl') };
  const envVar = keyEnvVar(config);
  const key = envVar ? env[envVar]?.trim() || undefined : undefined;
  if (envVar && !key) return { status: 'fail', label, detail: t('doctor:provider.noKey', { envVar }) };
  let request;
  try {
    request = probeRequest(config, base, key);
  } catch {
    return { status: 'fail', label, detail: t('doctor:provider.badUrl', { url: scrubKnownSecrets(base, key ? [key] : []) }) };
  }
  const secrets = [key, ...Object.values(config.headers), ...Object.values(request.headers), passwordOf(base)].filter((s): s is string =>
    Boolean(s),
  );
  const url = shownUrl(request.url);
  const started = performance.now();
  try {
    const res = await fetch(request.url, { headers: request.headers, signal: AbortSignal.timeout(timeoutMs), redirect: 'manual' });
    await res.body?.cancel();
    const ms = Math.round(performance.now() - started);
    if (res.status === 401 || res.status === 403) {
      return { status: 'fail', label, detail: t('doctor:provider.keyRefused', { url, status: res.status, envVar: envVar ?? '-' }) };
    }
    if (res.status >= 500) return { status: 'fail', label, detail: t('doctor:provider.serverError', { url, status: res.status }) };
    return { status: 'ok', label, detail: t('doctor:provider.reachable', { url, status: res.status, ms }) };
  } catch (err) {
    return { status: 'fail', label, detail: t('doctor:provider.unreachable', { url, reason: networkReason(err, secrets, timeoutMs) }) };
  }
}
