// A pane replaces the input area (the /agents pane, the transcript viewer, ...). It owns
// the keyboard while open: the chat's own bindings stand aside except the global ones.
import type { ReactNode } from 'react';
import type { RuntimeApi } from '../../runtime/runtimeApi.js';

export interface PaneProps {
  runtime: RuntimeApi;
  width: number;
  /** Rows the pane may use; the live region must stay shorter than the terminal. */
  maxRows: number;
  close(): void;
}

export interface Pane {
  id: string;
  render(props: PaneProps): ReactNode;
}
