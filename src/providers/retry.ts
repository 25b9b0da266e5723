// Bounded retries with exponential backoff around any ModelProvider. A transient failure is
// retried only while the failed attempt had shown nothing yet: once text or a tool call has
// reached the caller, a retry would show it twice, so the error stands.
//
// Before each wait a `retry` event goes out: `attempt` is the attempt about to start
// (2..maxAttempts), `maxAttempts` counts the first one too, `reason` is the failure without
// the provider prefix (the UI already says which provider it is).
import { t } from '../i18n/index.js';
import { abortedError, ArborProviderError, isQuotaError, QuotaError, withReset } from './providerError.js';
import { ProviderError, type CompletionRequest, type ModelProvider, type StreamEvent } from './types.js';
import { providerLabel } from './label.js';
import { sleep } from '../timers/timer.js';

/** How a notice counts a `retry` event: the event numbers attempts (the first retry is
 * attempt 2 of maxAttempts, which counts the first try too), a person counts retries, so
 * the first retry is 1 of maxAttempts - 1. Counting attempts made the notice open at 2/4. */
export function retryOrdinal(ev: { attempt: number; maxAttempts: number }): { retry: number; of: number } {
  return { retry: ev.attempt - 1, of: ev.maxAttempts - 1 };
}

/** The status-bar / stderr line for a `retry` event: `<reason> — retry 1/3 in 0.5 s`. */
export function retryNoticeText(ev: Extract<StreamEvent, { type: 'retry' }>): string {
  const { retry, of } = retryOrdinal(ev);
  return t('runtime:retryNotice', { reason: ev.reason, attempt: retry, max: of, secs: Math.round(ev.delayMs / 100) / 10 });
}

export const DEFAULT_MAX_RETRIES = 3;
export const DEFAULT_BASE_DELAY_MS = 500;
export const MAX_DELAY_MS = 30_000;

export interface RetryOptions {
  maxRetries?: number;
  baseDelayMs?: number;
  /** The longest wait for a rate limit to lift that the wrapper sits through itself; a
   * later reset is a QuotaError for the runtime to wait on (default MAX_DELAY_MS). */
  maxWaitMs?: number;
  /** Read for ARBOR_RETRY_BASE_MS, ARBOR_RETRY_MAX and ARBOR_RETRY_MAX_WAIT_MS when the
   * options above are absent. */
  env?: NodeJS.ProcessEnv;
  /** 0..1; jitter source, replaceable for tests. */
  random?: () => number;
}

function envNumber(env: NodeJS.ProcessEnv | undefined, name: string): number | undefined {
  const raw = env?.[name];
  if (raw === undefined || raw.trim() === '') return undefined;
  const n = Number(raw);
  return Number.isFinite(n) && n >= 0 ? n : undefined;
}

/** Delay before retry number `retry` (1-based): the server's Retry-After when it gave one,
 * else base·2^(retry-1) plus up to 20% jitter so many children do not retry in lockstep. */
export function retryDelayMs(retry: number, baseMs: number, retryAfterMs: number | undefined, random = Math.random): number {
  if (retryAfterMs !== undefined) return Math.min(Math.max(0, retryAfterMs), MAX_DELAY_MS);
  const backoff = baseMs * 2 ** (retry - 1);
  return Math.min(Math.round(backoff * (1 + 0.2 * random())), MAX_DELAY_MS);
}

/** Waits `ms`, or rejects with `onAbort()` as soon as the signal fires. */
export function abortableSleep(ms: number, signal: AbortSignal, onAbort: () => Error): Promise<void> {
  return sleep(ms, signal, onAbort);
}

export function withRetry(inner: ModelProvider, opts: RetryOptions = {}): ModelProvider {
  const maxRetries = opts.maxRetries ?? envNumber(opts.env, 'ARBOR_RETRY_MAX') ?? DEFAULT_MAX_RETRIES;
  const baseMs = opts.baseDelayMs ?? envNumber(opts.env, 'ARBOR_RETRY_BASE_MS') ?? DEFAULT_BASE_DELAY_MS;
  const maxWaitMs = opts.maxWaitMs ?? envNumber(opts.env, 'ARBOR_RETRY_MAX_WAIT_MS') ?? MAX_DELAY_MS;
  const random = opts.random ?? Math.random;
  const ctx = { providerName: inner.name, model: inner.model, label: providerLabel(inner) };
  const maxAttempts = Math.floor(maxRetries) + 1;

  const asProviderError = (err: unknown): ProviderError =>
    err instanceof ProviderError
      ? err
      : new ArborProviderError(ctx, {
          kind: 'other',
          detail: t('providers:error.other', { reason: err instanceof Error ? err.message : String(err) }),
        });

  const detailOf = (err: ProviderError): string => (err instanceof ArborProviderError ? err.detail : err.message);

  /** A rate limit that lifts later than the wrapper waits: handed on as a QuotaError. */
  const overRetryBudget = (err: ProviderError): QuotaError | undefined => {
    if (err.kind !== 'rate_limit' || !(err instanceof ArborProviderError) || err.resetAt === undefined) return undefined;
    const now = Date.now();
    if (err.resetAt - now <= maxWaitMs) return undefined;
    return new QuotaError(ctx, {
      reason: 'rate_limit',
      detail: withReset(err.detail, err.resetAt, now),
      status: err.status,
      resetAt: err.resetAt,
    });
  };

  async function* stream(req: CompletionRequest): AsyncGenerator<StreamEvent> {
    for (let attempt = 1; ; attempt++) {
      let yielded = false;
      try {
        for await (const event of inner.stream(req)) {
          // Which model answered is not something shown as the reply: a try cut after it
          // alone is still retried.
          if (event.type !== 'model') yielded = true;
          yield event;
        }
        return;
      } catch (raw) {
        if (req.signal.aborted) throw raw instanceof ProviderError && raw.kind === 'aborted' ? raw : abortedError(ctx);
        const err = asProviderError(raw);
        if (yielded && isQuotaError(err)) {
          // Something was shown already: no one may make this call again, not even later.
          throw new ArborProviderError(ctx, { kind: err.kind, detail: detailOf(err), status: err.status });
        }
        if (!err.retryable) throw err;
        if (yielded) {
          // Something was shown already; the caller must not retry this on its own either.
          throw new ArborProviderError(ctx, { kind: err.kind, detail: detailOf(err), status: err.status });
        }
        const overBudget = overRetryBudget(err);
        if (overBudget) throw overBudget;
        if (attempt >= maxAttempts) {
          if (attempt === 1) throw err;
          throw new ArborProviderError(ctx, {
            kind: err.kind,
            detail: t('providers:error.gaveUp', { detail: detailOf(err), attempts: attempt }),
            status: err.status,
          });
        }
        const retryAfter = err instanceof ArborProviderError ? err.retryAfterMs : undefined;
        const delayMs = retryDelayMs(attempt, baseMs, retryAfter, random);
        yield { type: 'retry', attempt: attempt + 1, maxAttempts, delayMs, reason: detailOf(err) };
        await abortableSleep(delayMs, req.signal, () => abortedError(ctx));
      }
    }
  }

  return { name: inner.name, type: inner.type, model: inner.model, stream };
}
