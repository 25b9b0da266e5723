// The network providers (openai-compatible, openai, anthropic) on the AI SDK. One call of
// stream() is one HTTP request: no retries here (retry.ts owns them) and one step only,
// since tools are declared without `execute` and the runtime runs them itself.
import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import type { LanguageModelV3, LanguageModelV3FunctionTool, LanguageModelV3Prompt } from '@ai-sdk/provider';
import { providerTimeouts } from '../config/defaults.js';
import type { ProviderConfig } from '../config/types.js';
import { t } from '../i18n/index.js';
import { abortedError, ArborProviderError, classifyError, configError, type ErrorContext } from './errors.js';
import { createNodeHttpFetch, type FetchFunction } from './nodeHttpFetch.js';
export { providerTimeouts } from '../config/defaults.js';
import { DEFAULT_BASE_URL, keyEnvVar } from './endpoints.js';
import type { CompletionRequest, ModelMessage, ModelProvider, StreamEvent, ToolCallRequest, ToolSpec } from './types.js';
import { providerLabel } from './label.js';
import { ToolCallAssembler } from './toolCallAssembler.js';
import { lastUserIndex, ReasoningCollector, reasoningPromptParts } from './reasoningParts.js';
import { startWatchdog, type Watchdog } from '../timers/watchdog.js';

// The SDK prints compatibility warnings to the console, which would tear through the TUI.
(globalThis as { AI_SDK_LOG_WARNINGS?: unknown }).AI_SDK_LOG_WARNINGS = false;

const SENSITIVE_HEADER = /auth|key|token|secret|cookie/i;

function errorContext(config: ProviderConfig, apiKey: string | undefined): ErrorContext {
  const secrets = Object.entries(config.headers ?? {})
    .filter(([name]) => SENSITIVE_HEADER.test(name))
    .map(([, value]) => value.replace(/^bearer\s+/i, ''));
  if (apiKey) secrets.push(apiKey);
  return {
    providerName: config.name,
    type: config.type,
    model: config.model,
    label: providerLabel(config),
    baseUrl: config.base_url ?? DEFAULT_BASE_URL[config.type] ?? '',
    envVar: keyEnvVar(config),
    secrets,
    timeoutSecs: config.timeout_secs,
  };
}

function buildModel(config: ProviderConfig, apiKey: string | undefined, ctx: ErrorContext, fetch: FetchFunction): LanguageModelV3 {
  const headers = { ...(config.headers ?? {}) };
  switch (config.type) {
    case 'openai-compatible':
      if (!config.base_url) throw configError(ctx, t('providers:error.missingBaseUrl'));
      return createOpenAICompatible({
        name: config.name,
        baseURL: config.base_url,
        apiKey,
        headers,
        includeUsage: true,
        fetch,
      }).chatModel(config.model);
    case 'openai':
      if (!apiKey) throw configError(ctx, t('providers:error.missingKey', { envVar: ctx.envVar }));
      // Chat completions, not the Responses API: it is what every compatible server speaks too.
      return createOpenAI({ apiKey, baseURL: config.base_url, headers, fetch }).chat(config.model);
    case 'anthropic':
      if (!apiKey) throw configError(ctx, t('providers:error.missingKey', { envVar: ctx.envVar }));
      return createAnthropic({ apiKey, baseURL: config.base_url, headers, fetch })(config.model);
    default:
      throw configError(ctx, t('providers:error.unknownType', { type: config.type }));
  }
}

/** Tool-call inputs the SDK accepts: the parsed object, or {} when the model sent junk
 * (its raw text already reached the tool result, which says what was wrong). */
function inputFor(call: ToolCallRequest): unknown {
  if (call.args !== undefined && call.args !== null && typeof call.args === 'object') return call.args;
  try {
    const parsed = JSON.parse(call.rawArgs) as unknown;
    return parsed && typeof parsed === 'object' ? parsed : {};
  } catch {
    return {};
  }
}

/** Our history → the provider's standardized prompt (what streamText would build, made
 * directly). Anthropic accepts system text only at the start, so a later system message (a
 * runtime notice) travels as a user note there. */
export function toPrompt(messages: ModelMessage[], type: ProviderConfig['type']): LanguageModelV3Prompt {
  const out: LanguageModelV3Prompt = [];
  let leading = true;
  const turnStart = lastUserIndex(messages);
  for (const [index, m] of messages.entries()) {
    if (m.role !== 'system') leading = false;
    switch (m.role) {
      case 'system':
        if (leading || type !== 'anthropic') out.push({ role: 'system', content: m.content });
        else out.push({ role: 'user', content: [{ type: 'text', text: `[system note]\n${m.content}` }] });
        break;
      case 'user':
        out.push({ role: 'user', content: [{ type: 'text', text: m.content }] });
        break;
      case 'assistant': {
        const parts: Extract<LanguageModelV3Prompt[number], { role: 'assistant' }>['content'] = [];
        // Reasoning first: it is what the model produced first (Anthropic checks the order).
        parts.push(...reasoningPromptParts(m, type, index > turnStart));
        if (m.content) parts.push({ type: 'text', text: m.content });
        for (const call of m.toolCalls ?? []) {
          parts.push({ type: 'tool-call', toolCallId: call.id, toolName: call.name, input: inputFor(call) });
        }
        if (parts.length > 0) out.push({ role: 'assistant', content: parts });
        break;
      }
      case 'tool': {
        const part = {
          type: 'tool-result' as const,
          toolCallId: m.toolCallId,
          toolName: m.toolName,
          output: m.isError ? { type: 'error-text' as const, value: m.content } : { type: 'text' as const, value: m.content },
        };
        const prev = out[out.length - 1];
        // Results of one assistant turn belong together (Anthropic wants them in one message).
        if (prev && prev.role === 'tool') prev.content.push(part);
        else out.push({ role: 'tool', content: [part] });
        break;
      }
    }
  }
  return out;
}

export function toTools(specs: ToolSpec[]): LanguageModelV3FunctionTool[] | undefined {
  if (specs.length === 0) return undefined;
  return specs.map((spec) => ({ type: 'function', name: spec.name, description: spec.description, inputSchema: spec.parameters as never }));
}

function mapFinish(reason: string | undefined): 'stop' | 'tool_calls' | 'length' | 'other' {
  if (reason === 'stop') return 'stop';
  if (reason === 'tool-calls') return 'tool_calls';
  if (reason === 'length') return 'length';
  return 'other';
}

/** Anthropic thinks only when asked: `thinking_budget_tokens` on the provider asks. */
function thinkingOptions(config: ProviderConfig): {
  providerOptions?: { anthropic: { thinking: { type: 'enabled'; budgetTokens: number } } };
} {
  if (config.type !== 'anthropic' || !config.thinking_budget_tokens) return {};
  return { providerOptions: { anthropic: { thinking: { type: 'enabled', budgetTokens: config.thinking_budget_tokens } } } };
}

export function createAiSdkProvider(config: ProviderConfig, env: NodeJS.ProcessEnv = process.env): ModelProvider {
  const envVar = keyEnvVar(config);
  const apiKey = envVar ? env[envVar] || undefined : undefined;
  const ctx = errorContext(config, apiKey);
  const timeouts = providerTimeouts(config);
  let model: LanguageModelV3 | undefined;

  async function* stream(req: CompletionRequest): AsyncGenerator<StreamEvent> {
    if (req.signal.aborted) throw abortedError(ctx);
    // One model and one connection pool per provider, shared by every run that uses it.
    // The fetch's own silence limit stays behind ours, so ours is the one that speaks.
    model ??= buildModel(
      config,
      apiKey,
      ctx,
      createNodeHttpFetch({ silenceTimeoutMs: (Math.max(timeouts.firstByteSecs, timeouts.idleSecs) + 30) * 1000 }),
    );

    // Our own controller so an idle timeout can cut the request without looking like a
    // user abort.
    const controller = new AbortController();
    const onAbort = () => controller.abort(req.signal.reason);
    req.signal.addEventListener('abort', onAbort, { once: true });
    // Two clocks: until the reply's first event (the first-byte timeout), then between two
    // events (the idle timeout). Either one cuts the request; before any text that is retried.
    let timedOut: 'first' | 'idle' | undefined;
    let started = false;
    let streamed = false;
    let watchdog: Watchdog | undefined;
    const startClock = () => {
      watchdog = startWatchdog(timeouts.firstByteSecs * 1000, () => {
        timedOut = started ? 'idle' : 'first';
        controller.abort();
      });
    };
    const stopped = (): ArborProviderError | undefined => {
      if (req.signal.aborted) return abortedError(ctx);
      if (timedOut) {
        return new ArborProviderError(ctx, {
          kind: 'network',
          detail:
            timedOut === 'first'
              ? t('providers:error.timeout', { secs: timeouts.firstByteSecs, key: 'first_byte_timeout_secs' })
              : t('providers:error.idleTimeout', { secs: timeouts.idleSecs, key: 'idle_timeout_secs' }),
          retryable: !streamed,
        });
      }
      return undefined;
    };

    const toolCalls = new ToolCallAssembler();
    const reasoning = new ReasoningCollector();
    try {
      startClock();
      // The provider's own doStream, not streamText: the same wire-format code, without
      // streamText's extra stream layers and per-chunk validation, which cost more CPU per
      // request than the rest of arbor together (see bench/spawn-fanout).
      const { stream: parts } = await model.doStream({
        prompt: toPrompt(req.messages, config.type),
        tools: toTools(req.tools),
        temperature: req.temperature ?? config.temperature,
        maxOutputTokens: req.maxTokens ?? config.max_tokens,
        abortSignal: controller.signal,
        includeRawChunks: false,
        ...thinkingOptions(config),
      });
      let finished = false;
      const reader = parts.getReader();
      try {
        for (;;) {
          const { done, value: part } = await reader.read();
          if (done) break;
          // stream-start comes with the response headers: a server that sends headers and
          // then nothing has not started its reply yet.
          if (!started && part.type !== 'stream-start') {
            started = true;
            watchdog?.setWindow(timeouts.idleSecs * 1000);
          } else watchdog?.touch();
          switch (part.type) {
            case 'text-delta':
              if (part.delta) {
                streamed = true;
                yield { type: 'text', delta: part.delta };
              }
              break;
            case 'reasoning-start':
            case 'reasoning-delta':
            case 'reasoning-end':
              for (const ev of reasoning.take(part)) {
                // Shown reasoning counts as streamed: a retry would show it twice.
                streamed = true;
                yield ev;
              }
              break;
            case 'tool-input-start': {
              // The call before this one is whole: handed on now, not at the reply's end.
              const call = toolCalls.start(part.id, part.toolName);
              if (call) {
                streamed = true;
                yield { type: 'tool_call', call };
              }
              break;
            }
            case 'tool-input-delta':
              toolCalls.delta(part.id, part.delta);
              break;
            case 'tool-call': {
              const call = toolCalls.final(part.toolCallId, part.toolName, part.input);
              streamed = true;
              if (call) yield { type: 'tool_call', call };
              break;
            }
            case 'finish': {
              finished = true;
              yield* reasoning.flush();
              const reasoningTokens = part.usage.outputTokens.reasoning;
              yield {
                type: 'usage',
                usage: {
                  inputTokens: part.usage.inputTokens.total ?? 0,
                  outputTokens: part.usage.outputTokens.total ?? 0,
                  ...(reasoningTokens ? { reasoningTokens } : {}),
                },
              };
              yield { type: 'finish', reason: mapFinish(part.finishReason.unified) };
              break;
            }
            case 'response-metadata':
              if (part.modelId) yield { type: 'model', modelId: part.modelId };
              break;
            case 'error':
              throw stopped() ?? classifyError(part.error, ctx, streamed);
            default:
              break;
          }
        }
      } finally {
        // Stopping early (abort, error) must not leave the response body open.
        reader.releaseLock();
        if (!finished) await parts.cancel().catch(() => {});
      }
      if (!finished) {
        throw stopped() ?? new ArborProviderError(ctx, { kind: 'malformed', detail: t('providers:error.endedEarly') });
      }
    } catch (err) {
      throw stopped() ?? classifyError(err, ctx, streamed);
    } finally {
      watchdog?.clear();
      req.signal.removeEventListener('abort', onAbort);
    }
  }

  return {
    name: config.name,
    type: config.type,
    model: config.model,
    stream,
  };
}
