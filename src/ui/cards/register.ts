// Plugs the spawn_subagent and delegate cards into the tool-card dispatch. A call the card
// cannot show (malformed or oversized arguments, a background launch, task management)
// falls back to the generic card, with the generic card's height.
import { createElement } from 'react';
import type { RuntimeStore } from '../../runtime/store.js';
import { registerToolRenderer, type ToolRenderer } from '../components/renderToolItem.js';
import { toolCardHeight } from '../components/ToolCard.js';
import { COLLAPSED_ROWS, collapsedLines } from './cardLines.js';
import { boundRuns } from './live.js';
import { LinesView } from '../components/LineView.js';
import { cardModel } from './model.js';
import { DELEGATE_TOOL, SPAWN_TOOL } from './parse.js';
import { cardStore, setCardStore } from './storeBinding.js';
import { TranscriptCard } from './TranscriptCard.js';

const renderer: ToolRenderer = {
  render(item, ctx) {
    const model = cardModel(item);
    if (!model) return null;
    if (ctx.live) return createElement(TranscriptCard, { item, model, width: ctx.width, frame: ctx.frame });
    // Scrollback prints a card once: its state now, with nothing to subscribe to.
    const store = item.restored ? undefined : cardStore();
    const runs = store ? boundRuns(store.getState(), item) : [];
    return createElement(LinesView, { lines: collapsedLines({ item, model, runs, width: ctx.width, frame: 0, now: Date.now() }), width: ctx.width });
  },
  height(item) {
    return cardModel(item) ? COLLAPSED_ROWS : toolCardHeight(item);
  },
};

/**
 * Registers the dedicated cards. `store` is the runtime store the cards bind live child
 * runs from (through parentToolCallId); without it they show only what each call recorded.
 */
export function registerTranscriptCards(store?: RuntimeStore): void {
  if (store) setCardStore(store);
  registerToolRenderer(SPAWN_TOOL, renderer);
  registerToolRenderer(DELEGATE_TOOL, renderer);
}
