// The provider error type and the errors that need no knowledge of the AI SDK. Kept apart
// from errors.ts (which imports the SDK's error classes) so the offline model and the retry
// wrapper load without the SDK: startup stays fast when no remote provider is used.
import { t } from '../i18n/index.js';
import { clockTime, waitText } from '../model/quota.js';
import { ProviderError, type ProviderErrorKind, type ProviderType } from './types.js';

/** Everything an error message may mention about the provider it came from. */
export interface ErrorContext {
  providerName: string;
  type: ProviderType;
  model: string;
  /** "<type>/<model>" */
  label: string;
  baseUrl: string;
  /** The env var the key is read from, when there is one. */
  envVar?: string;
  /** Values that must never appear in a message (the key, auth header values). */
  secrets: string[];
  timeoutSecs?: number;
}

/** Our ProviderError: keeps the provider-free `detail` (shown in retry notices) and the
 * delay a server asked for. */
export class ArborProviderError extends ProviderError {
  readonly detail: string;
  readonly retryAfterMs?: number;
  /** When the limit a 429 hit lifts (epoch ms), uncapped, from its headers (rateLimits.ts). */
  readonly resetAt?: number;

  constructor(
    ctx: Pick<ErrorContext, 'providerName' | 'model' | 'label'>,
    opts: { kind: ProviderErrorKind; detail: string; retryable?: boolean; status?: number; retryAfterMs?: number; resetAt?: number },
  ) {
    super({
      kind: opts.kind,
      message: t('providers:error.withProvider', { name: ctx.providerName, label: ctx.label, detail: opts.detail }),
      providerName: ctx.providerName,
      model: ctx.model,
      retryable: opts.retryable,
      status: opts.status,
    });
    this.detail = opts.detail;
    this.retryAfterMs = opts.retryAfterMs;
    this.resetAt = opts.resetAt;
    // A stack would only ever reach a log; the message is the whole story.
    this.stack = `${this.name}: ${this.message}`;
  }
}

export function abortedError(ctx: Pick<ErrorContext, 'providerName' | 'model' | 'label'>): ArborProviderError {
  return new ArborProviderError(ctx, { kind: 'aborted', detail: t('providers:error.aborted') });
}

export function configError(ctx: Pick<ErrorContext, 'providerName' | 'model' | 'label'>, detail: string): ArborProviderError {
  return new ArborProviderError(ctx, { kind: 'config', detail });
}

/** A rate limit that lifts later than the retry budget waits, or a used-up quota or plan.
 * Never retried by the wrapper: the runtime may hold the run until `resetAt` and make the
 * same call again (runtime/quotaPause.ts), or, when nothing can wait, fail it. */
export class QuotaError extends ArborProviderError {
  readonly reason: 'rate_limit' | 'exhausted';
  readonly label: string;
  /** The server named a reset too far off (or not a time) to wait for (rateLimits.ts). */
  readonly resetUnusable: boolean;

  constructor(
    ctx: Pick<ErrorContext, 'providerName' | 'model' | 'label'>,
    opts: { reason: 'rate_limit' | 'exhausted'; detail: string; status?: number; resetAt?: number; resetUnusable?: boolean },
  ) {
    super(ctx, { kind: 'rate_limit', detail: opts.detail, status: opts.status, resetAt: opts.resetAt });
    this.reason = opts.reason;
    this.label = ctx.label;
    this.resetUnusable = opts.resetUnusable === true;
  }
}

export function isQuotaError(err: unknown): err is QuotaError {
  return err instanceof QuotaError;
}

/** `detail`, and when the limit lifts if that is known. */
export function withReset(detail: string, resetAt: number | undefined, now = Date.now()): string {
  if (resetAt === undefined) return detail;
  return t('providers:error.resetsAt', { detail, clock: clockTime(resetAt), wait: waitText(resetAt - now) });
}
