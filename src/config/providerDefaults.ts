// Where each remote provider type sends requests and which variable holds its key when the
// config says nothing: read by the providers (providers/endpoints.ts) and by the trust
// prompt, which must name where a folder's provider would send a key.
import type { ProviderConfig } from './types.js';

export const DEFAULT_KEY_ENV: Partial<Record<ProviderConfig['type'], string>> = {
  openai: 'OPENAI_API_KEY',
  anthropic: 'ANTHROPIC_API_KEY',
};

export const DEFAULT_BASE_URL: Partial<Record<ProviderConfig['type'], string>> = {
  openai: 'https://api.openai.com/v1',
  anthropic: 'https://api.anthropic.com/v1',
};
