// `[ui] show_reasoning`: how the chat, the viewer and a child's transcript show a model's
// reasoning. Views get it from the store's `info` (the App passes it to the chat's views;
// panes read it from the state they select).
import { SHOW_REASONING_DEFAULT } from '../../config/schema.js';
import type { ShowReasoning } from '../../config/types.js';

export type { ShowReasoning } from '../../config/types.js';

export const DEFAULT_SHOW_REASONING: ShowReasoning = SHOW_REASONING_DEFAULT;

export function showReasoningOf(info: { showReasoning?: ShowReasoning }): ShowReasoning {
  return info.showReasoning ?? DEFAULT_SHOW_REASONING;
}
