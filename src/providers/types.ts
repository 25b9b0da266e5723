// The one interface the runtime uses to talk to any model. Everything provider-specific
// (wire formats, retries, error mapping) stays behind it. Message and tool-call shapes live
// in src/model/messages.ts and are re-exported here.
import type { ModelMessage, ReasoningBlock, ToolCallRequest, ToolSpec } from '../model/messages.js';
import type { ProviderType } from '../model/provider.js';

export type { ModelMessage, ReasoningBlock, ToolCallRequest, ToolSpec } from '../model/messages.js';
export type { ProviderType } from '../model/provider.js';

export interface CompletionRequest {
  messages: ModelMessage[];
  tools: ToolSpec[];
  signal: AbortSignal;
  temperature?: number;
  maxTokens?: number;
}

export interface Usage {
  inputTokens: number;
  outputTokens: number;
  /** Of outputTokens, those spent reasoning, when the provider says. */
  reasoningTokens?: number;
}

export type StreamEvent =
  | { type: 'text'; delta: string }
  | { type: 'tool_call'; call: ToolCallRequest }
  /** Reasoning text as it streams (shown, never part of the answer). */
  | { type: 'reasoning'; delta: string }
  /** A finished reasoning block, whole, with what must go back to the provider. */
  | { type: 'reasoning_block'; block: ReasoningBlock }
  | { type: 'usage'; usage: Usage }
  /** The model that answered, as the server names it in its reply (it may differ from the
   * one asked for: an alias resolved to a dated version, a gateway's routing). */
  | { type: 'model'; modelId: string }
  /** A transient failure is being retried; the UI shows it. */
  | { type: 'retry'; attempt: number; maxAttempts: number; delayMs: number; reason: string }
  | { type: 'finish'; reason: 'stop' | 'tool_calls' | 'length' | 'other' };

export interface ModelProvider {
  /** The config name of the provider entry (e.g. "local"). */
  readonly name: string;
  readonly type: ProviderType;
  readonly model: string;
  /** Streams one model call. Throws ProviderError on permanent failure or once retries are
   * exhausted; throws an AbortError-like ProviderError(kind 'aborted') when the signal fires. */
  stream(req: CompletionRequest): AsyncIterable<StreamEvent>;
}

export type ProviderErrorKind = 'auth' | 'not_found' | 'rate_limit' | 'server' | 'network' | 'malformed' | 'aborted' | 'config' | 'other';

/** A failure that names the provider and model and never carries a secret or a stack. */
export class ProviderError extends Error {
  readonly kind: ProviderErrorKind;
  readonly retryable: boolean;
  readonly providerName: string;
  readonly model: string;
  readonly status?: number;

  constructor(opts: {
    kind: ProviderErrorKind;
    message: string;
    providerName: string;
    model: string;
    retryable?: boolean;
    status?: number;
  }) {
    super(opts.message);
    this.name = 'ProviderError';
    this.kind = opts.kind;
    this.retryable = opts.retryable ?? false;
    this.providerName = opts.providerName;
    this.model = opts.model;
    this.status = opts.status;
  }
}

export function isAbortError(err: unknown): boolean {
  if (err instanceof ProviderError) return err.kind === 'aborted';
  return (
    typeof err === 'object' &&
    err !== null &&
    ((err as { name?: string }).name === 'AbortError' || (err as { code?: string }).code === 'ABORT_ERR')
  );
}
