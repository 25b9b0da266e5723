import type { ProviderConfig } from '../config/types.js';

/** "<provider type>/<model>": how a provider is named on screen, in errors and in sessions. */
export function providerLabel(config: Pick<ProviderConfig, 'type' | 'model'>): string {
  return `${config.type}/${config.model}`;
}
