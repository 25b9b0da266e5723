// One dispatch point for tool cards: tools with a dedicated card register a renderer by
// tool name; everything else (and anything a dedicated renderer declines) gets ToolCard.
import React, { type ReactNode } from 'react';
import type { ToolTranscriptItem } from '../../model/transcript.js';
import { ToolCard, toolCardHeight } from './ToolCard.js';

export interface ToolRenderContext {
  width: number;
  frame: number;
  /** True in the live region (the turn is running); false in scrollback. */
  live: boolean;
}

export interface ToolRenderer {
  /** Return null to fall back to the generic card (e.g. malformed arguments). */
  render(item: ToolTranscriptItem, ctx: ToolRenderContext): ReactNode | null;
  /** Rows the card takes while live. */
  height(item: ToolTranscriptItem, ctx: ToolRenderContext): number;
}

const renderers = new Map<string, ToolRenderer>();

export function registerToolRenderer(toolName: string, renderer: ToolRenderer): void {
  renderers.set(toolName, renderer);
}

export function renderToolItem(item: ToolTranscriptItem, ctx: ToolRenderContext): ReactNode {
  const custom = renderers.get(item.name)?.render(item, ctx);
  if (custom !== undefined && custom !== null) return custom;
  return <ToolCard item={item} width={ctx.width} frame={ctx.frame} />;
}

export function toolItemHeight(item: ToolTranscriptItem, ctx: ToolRenderContext): number {
  const custom = renderers.get(item.name);
  return custom ? custom.height(item, ctx) : toolCardHeight(item);
}
