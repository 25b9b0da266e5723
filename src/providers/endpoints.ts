// Where each remote provider type lives by default and which variable holds its key. Shared
// by the AI SDK provider and `arbor doctor`, which must not load the SDK to ask a server
// whether it is there.
import type { ProviderConfig } from '../config/types.js';

// Kept in config (the trust prompt names where a project's provider would send a key).
import { DEFAULT_BASE_URL, DEFAULT_KEY_ENV } from '../config/providerDefaults.js';

export { DEFAULT_BASE_URL, DEFAULT_KEY_ENV };

/** The env var a provider's key is read from: api_key_env, else the type's usual one. */
export function keyEnvVar(config: Pick<ProviderConfig, 'type' | 'api_key_env'>): string | undefined {
  return config.api_key_env ?? DEFAULT_KEY_ENV[config.type];
}

/** The base URL requests go to: base_url, else the type's public endpoint. */
export function baseUrlOf(config: Pick<ProviderConfig, 'type' | 'base_url'>): string | undefined {
  return config.base_url ?? DEFAULT_BASE_URL[config.type];
}
