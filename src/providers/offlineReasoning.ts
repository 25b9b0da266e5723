// The offline model's reasoning, so the thinking line can be tried without a model: a
// message starting with `think:` (the last one a person wrote) gets a few sentences of
// reasoning streamed before the usual reply.
import { t } from '../i18n/index.js';
import type { ModelMessage } from './types.js';

const THINK = /^\s*think\s*:\s*([\s\S]*\S)/i;

export function offlineReasoning(messages: readonly ModelMessage[]): string | undefined {
  const last = messages[messages.length - 1];
  if (!last || last.role !== 'user') return undefined;
  const m = THINK.exec(last.content);
  if (!m) return undefined;
  const topic = m[1].split('\n')[0].slice(0, 200);
  // In the UI language (/lang), as the reply that follows it.
  return t('providers:offline.reasoning', { topic });
}
