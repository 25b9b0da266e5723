// `[ui] show_reasoning`: how the chat, the viewer and a child's transcript show a model's
// reasoning. Views get it from RuntimeInfo (the App passes it to the chat's views; panes
// read it from the runtime they are given).
import { SHOW_REASONING_DEFAULT } from '../../config/schema.js';
import type { ShowReasoning } from '../../config/types.js';

export const DEFAULT_SHOW_REASONING: ShowReasoning = SHOW_REASONING_DEFAULT;

export function showReasoningOf(info: { showReasoning?: ShowReasoning }): ShowReasoning {
  return info.showReasoning ?? DEFAULT_SHOW_REASONING;
}
