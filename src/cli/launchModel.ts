// What the root agent starts on: --model (checked before anything starts, a bad value is a
// usage error naming the configured providers) or the model a resumed session recorded
// (re-checked against today's config: one that is gone is a notice, not a failure).
import type { ArborConfig } from '../config/types.js';
import { t } from '../i18n/index.js';
import { providerLabel } from '../providers/label.js';
import { checkSelection, parseModelSpec, selectionConfig, selectionSpec, type ModelSelection } from '../runtime/rootModel.js';
import type { RestoredSession } from '../persistence/sessionRestore.js';

/** `--model <provider>[/<model>]` as a selection; throws an Error saying what was wrong. */
export function parseLaunchModel(spec: string, config: ArborConfig): ModelSelection {
  try {
    return parseModelSpec(spec, config);
  } catch (err) {
    throw new Error(t('models:cliBad', { spec, error: (err as Error).message }), { cause: err });
  }
}

/** The model a resumed session was switched to, if today's config still has its provider,
 * and the notice that says what the chat runs on: only when that differs from what the
 * default agent uses today (a session saved on the default model says nothing). */
export function restoredModel(config: ArborConfig, restored: RestoredSession | undefined): { selection?: ModelSelection; notice?: string } {
  const recorded = restored?.model;
  if (!recorded) return {};
  const alias = config.default_agent;
  const spec = selectionSpec(recorded);
  try {
    const selection = checkSelection(recorded, config);
    const chosen = selectionConfig(config, selection);
    const agent = config.agents[alias];
    const today = config.providers[agent.provider];
    if (selection.provider === agent.provider && chosen.model === (agent.model ?? today?.model)) return { selection };
    return { selection, notice: t('models:restored', { alias, label: providerLabel(chosen) }) };
  } catch (err) {
    const own = config.providers[config.agents[alias].provider];
    return { notice: t('models:restoreGone', { spec, error: (err as Error).message, alias, label: providerLabel(own) }) };
  }
}
