// The per-parent handle count (runHandles.ts) spares the child-limit check a walk over the
// tree: it must go back down when a child ends, however the child was launched.
import { describe, expect, it } from 'vitest';
import { loadConfigFromTexts } from '../../../src/config/load.js';
import { ApprovalBroker } from '../../../src/runtime/approvals.js';
import { createRuntimeStore } from '../../../src/runtime/store.js';
import { Supervisor } from '../../../src/runtime/supervisor.js';
import { ToolRegistry } from '../../../src/tools/registry.js';
import type { ChildSpec } from '../../../src/runtime/supervisorTypes.js';

function supervisor() {
  const store = createRuntimeStore('s1', { agentAlias: 'main', providerName: 'local', providerLabel: 'local', configWarnings: [] });
  const { config } = loadConfigFromTexts([], {});
  const sup = new Supervisor({
    store,
    config,
    cwd: process.cwd(),
    approvals: new ApprovalBroker(store, { interactive: false, autoYes: false, subagentApprovals: () => 'ask' }),
    providerFor: () => {
      throw new Error('no model in this test');
    },
    baseTools: new ToolRegistry([]),
    filterTools: (registry) => registry,
    hooks: {},
    trace: () => {},
  });
  const root = sup.createRun({ kind: 'root', alias: 'main', task: 'go', model: 'm', status: 'running' });
  const handle = sup.registerHandle(root.id);
  return { sup, root, handle };
}

const child = (parentRunId: string, kind: ChildSpec['kind'], parentSignal?: AbortSignal, finish?: Promise<void>): ChildSpec => ({
  kind,
  parentRunId,
  alias: 'main',
  task: 'child task',
  sessionKeyPrefix: kind === 'background' ? 'background' : 'subagent',
  model: 'm',
  parentSignal,
  execute: async () => {
    await finish;
    return 'done';
  },
});

describe('live-children bound', () => {
  it.each(['subagent', 'background'] as const)(
    'a %s child counts while it lives only if it is the caller’s child, and never after it ends',
    async (kind) => {
      const { sup, root, handle } = supervisor();
      let release!: () => void;
      const finish = new Promise<void>((r) => (release = r));
      const ended = sup.runChild(child(root.id, kind, kind === 'background' ? undefined : handle.controller.signal, finish));
      expect(sup.mayHaveLiveChildren(root.id, 1)).toBe(kind === 'subagent');
      expect(sup.liveChildCount(root.id)).toBe(kind === 'subagent' ? 1 : 0);
      release();
      expect((await ended).status).toBe('completed');
      expect(sup.mayHaveLiveChildren(root.id, 1)).toBe(false);
    },
  );
});
