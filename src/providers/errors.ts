// Turns whatever the AI SDK, fetch or a server threw into a ProviderError that names the
// provider and model, says whether a retry can help, and never carries a secret.
import { APICallError, EmptyResponseBodyError, InvalidResponseDataError, JSONParseError, LoadAPIKeyError, TypeValidationError } from 'ai';
import { t } from '../i18n/index.js';
import { neutralize } from '../text/untrusted.js';
import { ProviderError, type ProviderErrorKind } from './types.js';
import { ArborProviderError, configError, QuotaError, withReset, type ErrorContext } from './providerError.js';
import { knownSecrets, scrubSecretLike } from '../persistence/redact.js';
import { isExhaustedInBand, isQuotaExhausted, readLimitReset, type LimitReading } from './rateLimits.js';

/** Removes this provider's secrets, every other known one, and anything shaped like a key or
 * bearer token: the one scrubber the session and trace logs use too. */
export function redact(text: string, secrets: readonly string[] = []): string {
  return scrubSecretLike(text, [...secrets, ...knownSecrets()]);
}

/** One line, bounded, secret-free and inert: a server's text is untrusted, so it is
 * neutralised (text/untrusted.ts) before it can reach a message. */
function cleanReason(text: string, ctx: ErrorContext): string {
  const oneLine = neutralize(redact(text, ctx.secrets).replace(/\s+/g, ' ').trim());
  return oneLine.length > 300 ? `${oneLine.slice(0, 297)}...` : oneLine;
}

/** The message in a JSON error body, in the shapes servers use: OpenAI / OpenRouter
 * `{error: {message}}`, Anthropic `{type: "error", error: {type, message}}`, and the bare
 * `{message}`, `{error: "..."}` or `{detail: "..."}`. */
export function bodyMessage(body: string | undefined): string | undefined {
  if (!body || body.length > 100_000) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return undefined;
  }
  const pick = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() !== '' ? v : undefined);
  if (!parsed || typeof parsed !== 'object') return undefined;
  const o = parsed as Record<string, unknown>;
  const inner = o.error && typeof o.error === 'object' ? (o.error as Record<string, unknown>) : undefined;
  return pick(inner?.message) ?? pick(o.error) ?? pick(o.message) ?? pick(o.detail);
}

/** A numeric `code` an in-band error carries, when it reads as an HTTP status. */
function statusFromCode(code: unknown): number | undefined {
  const n = typeof code === 'number' ? code : typeof code === 'string' && /^\d{3}$/.test(code.trim()) ? Number(code) : NaN;
  return Number.isInteger(n) && n >= 400 && n <= 599 ? n : undefined;
}

const RETRY_AFTER_CAP_MS = 30_000;

/** Reads `retry-after-ms` (OpenAI) or `retry-after` (seconds or an HTTP date). */
export function parseRetryAfter(headers: Record<string, string> | undefined, now = Date.now()): number | undefined {
  if (!headers) return undefined;
  const lower: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) lower[k.toLowerCase()] = v;
  const ms = Number(lower['retry-after-ms']);
  if (lower['retry-after-ms'] !== undefined && Number.isFinite(ms) && ms >= 0) return Math.min(ms, RETRY_AFTER_CAP_MS);
  const raw = lower['retry-after'];
  if (raw === undefined || raw.trim() === '') return undefined;
  const secs = Number(raw);
  if (Number.isFinite(secs)) return secs >= 0 ? Math.min(secs * 1000, RETRY_AFTER_CAP_MS) : undefined;
  const date = Date.parse(raw);
  if (Number.isNaN(date)) return undefined;
  return Math.min(Math.max(0, date - now), RETRY_AFTER_CAP_MS);
}

function isMalformed(err: unknown): boolean {
  return (
    TypeValidationError.isInstance(err) ||
    JSONParseError.isInstance(err) ||
    InvalidResponseDataError.isInstance(err) ||
    EmptyResponseBodyError.isInstance(err)
  );
}

function causeMessage(err: unknown): string {
  const cause = (err as { cause?: { message?: string; code?: string } } | undefined)?.cause;
  const inner = cause?.message ?? '';
  const code = cause?.code ?? '';
  if (inner && code && !inner.includes(code)) return `${inner} (${code})`;
  return inner || code || (err instanceof Error ? err.message : String(err));
}

function fromStatus(status: number, err: APICallError, ctx: ErrorContext, streamed: boolean): ArborProviderError {
  const reason = cleanReason(err.message, ctx);
  // Anthropic's client reports a first stream event it could not parse as a 500.
  if (isMalformed(err.cause) || /^(type validation failed|json parsing failed|invalid json response)/i.test(err.message)) {
    return new ArborProviderError(ctx, { kind: 'malformed', detail: t('providers:error.malformed', { reason }), status });
  }
  if (status >= 200 && status < 300) {
    // The request was accepted and the body then failed: a broken connection.
    const why = cleanReason(causeMessage(err), ctx);
    return streamed
      ? new ArborProviderError(ctx, { kind: 'network', detail: t('providers:error.midStream', { reason: why }), status })
      : new ArborProviderError(ctx, {
          kind: 'network',
          detail: t('providers:error.network', { baseUrl: ctx.baseUrl, reason: why }),
          retryable: true,
          status,
        });
  }
  const said = bodyMessage(err.responseBody);
  return fromHttpStatus(
    status,
    ctx,
    said !== undefined ? cleanReason(said, ctx) : reason,
    said !== undefined,
    readLimitReset(err.responseHeaders),
    isQuotaExhausted(status, err.responseBody),
  );
}

/**
 * The rules for a failure with an HTTP status, whether the status line said it or an error
 * inside a stream did (`{"error": {"code": 400, ...}}`, as OpenRouter sends): the same
 * status is retried, or not, the same way.
 * @param fromBody whether `reason` is the server's own message (shown with 5xx and 429).
 */
function fromHttpStatus(
  status: number,
  ctx: ErrorContext,
  reason: string,
  fromBody: boolean,
  reading: LimitReading | undefined,
  exhausted = false,
): ArborProviderError {
  const limit = reading?.reset;
  const retryAfter = limit === undefined ? undefined : Math.min(limit.waitMs, RETRY_AFTER_CAP_MS);
  const make = (kind: ProviderErrorKind, detail: string, retryable = false) =>
    new ArborProviderError(ctx, {
      kind,
      detail,
      retryable,
      status,
      retryAfterMs: retryable ? retryAfter : undefined,
      resetAt: retryable ? limit?.resetAt : undefined,
    });
  const withSaid = (detail: string) => (fromBody && reason ? t('providers:error.serverSaid', { detail, reason }) : detail);
  // A used-up quota or plan: retrying in a moment cannot help; the runtime may wait for it.
  if (exhausted) {
    const said = withSaid(t('providers:error.quotaExhausted', { status }));
    const detail = reading?.unusable ? t('providers:error.resetUnusable', { detail: said }) : withReset(said, limit?.resetAt);
    return new QuotaError(ctx, { reason: 'exhausted', detail, status, resetAt: limit?.resetAt, resetUnusable: reading?.unusable });
  }
  // A reset too far off to wait for: the runtime probes instead; retrying now cannot help.
  if (status === 429 && reading?.unusable) {
    const detail = t('providers:error.resetUnusable', { detail: withSaid(t('providers:error.rateLimit')) });
    return new QuotaError(ctx, { reason: 'rate_limit', detail, status, resetUnusable: true });
  }
  if (status === 401) {
    return make(
      'auth',
      ctx.envVar ? t('providers:error.auth', { status, envVar: ctx.envVar }) : t('providers:error.authNoEnv', { status }),
    );
  }
  if (status === 403) {
    return make(
      'auth',
      ctx.envVar
        ? t('providers:error.forbidden', { status, envVar: ctx.envVar, model: ctx.model })
        : t('providers:error.forbiddenNoEnv', { status, model: ctx.model }),
    );
  }
  if (status === 404) return make('not_found', t('providers:error.notFound', { model: ctx.model, baseUrl: ctx.baseUrl }));
  if (status === 429) return make('rate_limit', withSaid(t('providers:error.rateLimit')), true);
  if (status === 408) return make('network', withSaid(t('providers:error.server', { status })), true);
  if (status >= 500) return make('server', withSaid(t('providers:error.server', { status })), true);
  return make('other', t('providers:error.badRequest', { status, reason }));
}

/** Errors some servers send inside an otherwise healthy stream: `{message, type, code}`. */
function fromInBand(err: Record<string, unknown>, ctx: ErrorContext): ArborProviderError {
  const reason = cleanReason(String(err.message ?? JSON.stringify(err)), ctx);
  const status = statusFromCode(err.code) ?? statusFromCode(err.status);
  if (status !== undefined) return fromHttpStatus(status, ctx, reason, err.message !== undefined, undefined, isExhaustedInBand(err));
  if (isExhaustedInBand(err)) {
    const detail = t('providers:error.serverSaid', { detail: t('providers:error.quotaExhausted', { status: 429 }), reason });
    return new QuotaError(ctx, { reason: 'exhausted', detail, status: 429 });
  }
  const type = String(err.type ?? err.code ?? '');
  if (/auth/i.test(type)) return fromAuthLike(ctx);
  if (/rate_limit/i.test(type))
    return new ArborProviderError(ctx, { kind: 'rate_limit', detail: t('providers:error.rateLimit'), retryable: true });
  if (/invalid_request|not_found|permission/i.test(type)) {
    return new ArborProviderError(ctx, { kind: 'other', detail: t('providers:error.serverInBand', { reason }) });
  }
  return new ArborProviderError(ctx, { kind: 'server', detail: t('providers:error.serverInBand', { reason }), retryable: true });
}

function fromAuthLike(ctx: ErrorContext): ArborProviderError {
  const detail = ctx.envVar
    ? t('providers:error.auth', { status: 401, envVar: ctx.envVar })
    : t('providers:error.authNoEnv', { status: 401 });
  return new ArborProviderError(ctx, { kind: 'auth', detail, status: 401 });
}

/**
 * @param streamed whether text or a tool call already reached the caller in this attempt:
 *   a broken connection then is final, since a retry would repeat what was shown.
 */
export function classifyError(err: unknown, ctx: ErrorContext, streamed: boolean): ProviderError {
  if (err instanceof ProviderError) return err;
  if (APICallError.isInstance(err)) {
    if (err.statusCode !== undefined) return fromStatus(err.statusCode, err, ctx, streamed);
    const why = cleanReason(causeMessage(err), ctx);
    if (streamed) return new ArborProviderError(ctx, { kind: 'network', detail: t('providers:error.midStream', { reason: why }) });
    return new ArborProviderError(ctx, {
      kind: 'network',
      detail: t('providers:error.network', { baseUrl: ctx.baseUrl, reason: why }),
      retryable: true,
    });
  }
  if (isMalformed(err)) {
    return new ArborProviderError(ctx, {
      kind: 'malformed',
      detail: t('providers:error.malformed', { reason: cleanReason((err as Error).message, ctx) }),
    });
  }
  if (LoadAPIKeyError.isInstance(err)) {
    return configError(ctx, t('providers:error.missingKey', { envVar: ctx.envVar ?? 'OPENAI_API_KEY' }));
  }
  if (err && typeof err === 'object' && !(err instanceof Error)) return fromInBand(err as Record<string, unknown>, ctx);
  const message = err instanceof Error ? err.message : String(err);
  return new ArborProviderError(ctx, { kind: 'other', detail: t('providers:error.other', { reason: cleanReason(message, ctx) }) });
}
