// Provider type identifiers: named by the config ([providers.*] type) and implemented by
// src/providers/, so they live below both.

export type ProviderType = 'openai-compatible' | 'openai' | 'anthropic' | 'offline';
