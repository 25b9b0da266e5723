// What every UI action may do, whether a key binding (keys/bindings.ts, KeyContext) or a
// slash command (commands/registry.ts, CommandContext) started it: the runtime facade, the
// panes, quitting, and whether a turn runs. Each of the two adds only what its trigger needs.
import type { RuntimeApi } from '../runtime/runtimeApi.js';
import type { Pane } from './panes/types.js';

export interface UiContext {
  runtime: RuntimeApi;
  exit(): void;
  /** Shows a pane in place of the input area until it closes itself. */
  openPane(pane: Pane): void;
  closePane(): void;
  /** As of now, not of the last render: a burst of keys sees what the keys before it did. */
  isTurnRunning(): boolean;
}
