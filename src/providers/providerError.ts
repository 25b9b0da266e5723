// The provider error type and the errors that need no knowledge of the AI SDK. Kept apart
// from errors.ts (which imports the SDK's error classes) so the offline model and the retry
// wrapper load without the SDK: startup stays fast when no remote provider is used.
import { t } from '../i18n/index.js';
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

  constructor(
    ctx: Pick<ErrorContext, 'providerName' | 'model' | 'label'>,
    opts: { kind: ProviderErrorKind; detail: string; retryable?: boolean; status?: number; retryAfterMs?: number },
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
