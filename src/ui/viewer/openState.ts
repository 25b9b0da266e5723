// Which runtimes have the transcript viewer on screen, so Ctrl+O knows whether to close it
// or to open it (over any other pane). Keyed by runtime: each App has its own.
import type { RuntimeApi } from '../../runtime/runtimeApi.js';

const open = new WeakMap<RuntimeApi, number>();

export function markViewerMounted(runtime: RuntimeApi, delta: 1 | -1): void {
  open.set(runtime, Math.max(0, (open.get(runtime) ?? 0) + delta));
}

export function isViewerOpen(runtime: RuntimeApi): boolean {
  return (open.get(runtime) ?? 0) > 0;
}
