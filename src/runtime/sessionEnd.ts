// How a runtime ends: on a signal (`shutdown`, bounded by the caller's settle time) or when
// its owner is done with it (`dispose`). Both stop the runs, wait for them to unwind so
// outcomes and task records are written, flush the session and close MCP and shared ACP
// agents; after `dispose` the session sinks write nothing more (sinks.ts endableSinks).
import { sharedAcpAgents } from './delegation/acpShared.js';
import type { McpRuntime } from './mcpRuntime.js';
import type { QuotaTracker } from './quotaPause.js';
import type { RunawayGuard } from './runawayGuard.js';
import type { RuntimeStore } from './store.js';
import type { Supervisor } from './supervisor.js';

/** Upper bound on dispose's wait for stopped runs to unwind (the shell's kill grace is 2 s). */
const DISPOSE_SETTLE_MS = 3000;

export interface SessionEndDeps {
  store: RuntimeStore;
  supervisor: Supervisor;
  guard: Pick<RunawayGuard, 'dispose'>;
  quota: Pick<QuotaTracker, 'dispose'>;
  mcp: Pick<McpRuntime, 'close'>;
  /** Writes the session; never throws (a failure is reported). */
  flush(): void;
  /** The session file is closed: the sinks must write nothing more. */
  markEnded(): void;
}

const poll = () => new Promise((r) => setTimeout(r, 20));

export function sessionEnd(deps: SessionEndDeps) {
  const { store, supervisor, guard, quota, mcp, flush } = deps;
  return {
    /** The session is ending (a signal): stops every run, waits up to `settleMs` for them
     * to unwind, then flushes. Resolves to whether everything settled in time. */
    async shutdown(settleMs: number): Promise<boolean> {
      guard.dispose();
      quota.dispose();
      supervisor.stopAll('cancelled');
      const deadline = Date.now() + settleMs;
      const settled = () => !supervisor.hasLiveHandles && store.getState().activeRootRunId === undefined;
      while (!settled() && Date.now() < deadline) await poll();
      flush();
      await Promise.all([mcp.close(), sharedAcpAgents(supervisor).endAll()]);
      return settled();
    },
    async dispose(): Promise<void> {
      guard.dispose();
      quota.dispose();
      for (const id of supervisor.handledRunIds()) supervisor.stop(id, 'cancelled');
      // Stopped runs (a background task too) write their outcome and task record before
      // the session closes.
      const deadline = Date.now() + DISPOSE_SETTLE_MS;
      while (supervisor.hasLiveHandles && Date.now() < deadline) await poll();
      await new Promise((r) => setImmediate(r));
      flush();
      // Once disposed the session file is closed: a run still unwinding past the settle
      // bound writes nothing more (and cannot crash on the closed file).
      deps.markEnded();
      await Promise.all([mcp.close(), sharedAcpAgents(supervisor).endAll()]);
    },
  };
}
