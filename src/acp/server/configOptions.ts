// The model list and /model as an ACP session config option (a select named "model").
import type * as acp from '@agentclientprotocol/sdk/unstable';
import type { Runtime } from '../../runtime/runtime.js';
import { t } from '../../i18n/index.js';

export const MODEL_OPTION = 'model';

export function configOptions(runtime: Runtime): acp.SessionConfigOption[] {
  const choices = runtime.models?.() ?? [];
  if (choices.length === 0) return [];
  const value = (c: (typeof choices)[number]) => c.id ?? c.provider;
  const current = choices.find((c) => c.current) ?? choices[0];
  return [
    {
      type: 'select',
      id: MODEL_OPTION,
      name: t('acp:modelOption'),
      category: 'model',
      currentValue: value(current),
      options: choices.map((c) => ({ value: value(c), name: c.label, ...(c.agents?.length ? { description: c.agents.join(', ') } : {}) })),
    },
  ];
}
