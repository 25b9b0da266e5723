// The one place that turns a [providers.<name>] entry into a ModelProvider.
import type { Pricing, ProviderConfig } from '../config/types.js';
import { createOfflineProvider } from './offline.js';
import { withRetry } from './retry.js';
import type { CompletionRequest, ModelProvider, StreamEvent, Usage } from './types.js';

/** The AI SDK and its three provider packages take longer to load than Ink itself, so they
 * are imported on the first model call rather than at startup. */
function lazyAiSdkProvider(config: ProviderConfig, env: NodeJS.ProcessEnv): ModelProvider {
  let inner: Promise<ModelProvider> | undefined;
  let loaded: ModelProvider | undefined;
  async function* first(req: CompletionRequest): AsyncGenerator<StreamEvent> {
    inner ??= import('./aiSdkProvider.js').then((m) => m.createAiSdkProvider(config, env));
    loaded = await inner;
    yield* loaded.stream(req);
  }
  return {
    name: config.name,
    type: config.type,
    model: config.model,
    // Once loaded, the SDK provider's own stream: a generator wrapped around it would cost
    // a few promise turns more on every streamed event (thousands per reply).
    stream: (req: CompletionRequest): AsyncIterable<StreamEvent> => (loaded ? loaded.stream(req) : first(req)),
  };
}

/** Never throws: a provider that cannot work (missing key, missing base_url) fails its first
 * stream() with a ProviderError of kind 'config', so the chat still starts and says why. */
export function createProvider(config: ProviderConfig, env: NodeJS.ProcessEnv = process.env): ModelProvider {
  if (config.type === 'offline') return createOfflineProvider(config, env);
  return withRetry(lazyAiSdkProvider(config, env), { env });
}

/** Estimated cost in US dollars; 0 without pricing. */
export function estimateCostUsd(pricing: Pricing | undefined, usage: Usage): number {
  if (!pricing) return 0;
  const cost = (usage.inputTokens * pricing.input_per_mtok) / 1_000_000 + (usage.outputTokens * pricing.output_per_mtok) / 1_000_000;
  return Number.isFinite(cost) && cost > 0 ? cost : 0;
}
