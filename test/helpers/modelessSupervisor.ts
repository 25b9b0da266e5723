// A real Supervisor with no model and no tools: for tests of what the supervisor itself does
// (handles, pause and kill cascades, counts) and for the UI's fake runtime, which takes its
// cascades from it instead of playing them.
import type { ArborConfig } from '../../src/config/types.js';
import { ApprovalBroker } from '../../src/runtime/approvals.js';
import type { RuntimeStore } from '../../src/runtime/store.js';
import { Supervisor } from '../../src/runtime/supervisor.js';
import { ToolRegistry } from '../../src/tools/registry.js';

type Notice = (level: 'info' | 'warn' | 'error', text: string) => void;

export function modelessSupervisor(store: RuntimeStore, config: ArborConfig, opts: { interactive: boolean; notice?: Notice }): Supervisor {
  return new Supervisor({
    store,
    config,
    cwd: process.cwd(),
    approvals: new ApprovalBroker(store, { interactive: opts.interactive, autoYes: false, subagentApprovals: () => 'ask' }),
    providerFor: () => {
      throw new Error('this test runtime calls no model');
    },
    baseTools: new ToolRegistry([]),
    filterTools: (registry) => registry,
    hooks: {},
    trace: () => {},
    notice: opts.notice,
  });
}
