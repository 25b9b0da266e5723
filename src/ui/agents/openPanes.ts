// Which runtimes have an /agents pane on screen, so Ctrl+T knows whether to close it or to
// open it (over any other pane). Keyed by runtime: each App has its own.
import type { RuntimeApi } from '../../runtime/runtimeApi.js';

const open = new WeakMap<RuntimeApi, number>();

export function markPaneMounted(runtime: RuntimeApi, delta: 1 | -1): void {
  open.set(runtime, Math.max(0, (open.get(runtime) ?? 0) + delta));
}

export function isAgentsPaneOpen(runtime: RuntimeApi): boolean {
  return (open.get(runtime) ?? 0) > 0;
}
