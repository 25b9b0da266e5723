// Plugs the spawn_subagent and delegate cards into the tool-card dispatch. A call the card
// cannot show (malformed or oversized arguments, a background launch, task management)
// falls back to the generic card, with the generic card's height.
import { createElement } from 'react';
import { registerToolRenderer, type ToolRenderer } from '../components/renderToolItem.js';
import { toolCardHeight } from '../components/ToolCard.js';
import { collapsedRows } from './cardLines.js';
import { cardModel } from './model.js';
import { DELEGATE_TOOL, SPAWN_TOOL } from './cardArgs.js';
import { PrintedTranscriptCard, TranscriptCard } from './TranscriptCard.js';

const renderer: ToolRenderer = {
  render(item, ctx) {
    const model = cardModel(item);
    if (!model) return null;
    if (ctx.live) return createElement(TranscriptCard, { item, model, width: ctx.width, frame: ctx.frame });
    return createElement(PrintedTranscriptCard, { item, model, width: ctx.width });
  },
  height(item, ctx) {
    const model = cardModel(item);
    return model ? collapsedRows(item, model, ctx.width) : toolCardHeight(item);
  },
};

/**
 * Registers the dedicated cards. They bind live child runs (through parentToolCallId) from
 * the store App provides (RuntimeStoreContext); without one they show only what each call
 * recorded.
 */
export function registerTranscriptCards(): void {
  registerToolRenderer(SPAWN_TOOL, renderer);
  registerToolRenderer(DELEGATE_TOOL, renderer);
}
