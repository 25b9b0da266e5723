// subagent_approvals = "ask" keeps the hop rules: what a bounded target would auto-approve
// but its caller would ask for is asked of the operator (never run unasked), an independent
// target still runs under its own approvals, and a tool a ceiling removed is never offered
// to the operator at all.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { OPERATOR_DENIED } from '../../../src/runtime/approvals.js';
import { UNKNOWN_TOOL } from '../../../src/runtime/toolCall.js';
import type { PendingApproval } from '../../../src/model/controls.js';
import { hasToolResults, type LoopbackIncoming, type LoopbackReply } from '../../support/loopbackModel.js';
import { delegateFixture, lastToolResult, text, toolNames, until, type DelegateFixture, type Responder, chainConfig } from './helpers.js';

let fx: DelegateFixture | undefined;

const call = (name: string, args: object): LoopbackReply => ({ kind: 'tools', calls: [{ id: 'c1', name, args }] });

/** Each agent of `path` delegates to the next; the last runs `touch ran-<alias>`. */
function scripts(path: string[]): Record<string, Responder> {
  const out: Record<string, Responder> = {};
  for (const alias of ['main', 'mid', 'leaf', 'wide']) {
    out[alias] = (req: LoopbackIncoming) => {
      if (hasToolResults(req.body)) return text(`${alias} done`);
      const i = path.indexOf(alias);
      if (i === -1) return text(`${alias} idle`);
      if (i < path.length - 1) return call('delegate', { agent: path[i + 1], prompt: 'go' });
      return call('shell', { command: `touch ran-${alias}` });
    };
  }
  return out;
}

const config = (rootProfile: string) => chainConfig(rootProfile, '[delegation]\nsubagent_approvals = "ask"');

/** Starts the turn and records every ask that ever appears. */
async function start(rootProfile: string, path: string[]) {
  fx = await delegateFixture({ config: config(rootProfile), agents: scripts(path), interactive: true });
  const seen: PendingApproval[] = [];
  fx.runtime.store.subscribe((s) => {
    for (const a of s.controls.approvals) if (!seen.some((x) => x.id === a.id)) seen.push(a);
  });
  return { f: fx, seen, turn: fx.runtime.startTurn('go') };
}

const ran = (f: DelegateFixture, alias: string) => existsSync(join(f.workdir, `ran-${alias}`));

describe('asks across delegate hops', () => {
  it('root -> bounded: what the target would auto-approve but its caller would ask for goes to the operator', async () => {
    const { f, seen, turn } = await start('asks', ['main', 'leaf']);
    await until(() => f.runtime.store.getState().controls.approvals.length === 1);
    const ask = f.runtime.store.getState().controls.approvals[0];
    expect(ask).toMatchObject({ tool: 'shell', isChild: true, args: { command: 'touch ran-leaf' } });
    expect(f.runtime.store.getState().runs.get(ask.runId)!.alias).toBe('leaf');
    f.runtime.answerApproval(ask.id, 'deny');
    await turn;
    expect(ran(f, 'leaf')).toBe(false);
    expect(lastToolResult(f.requestsOf('leaf').at(-1)!)).toBe(OPERATOR_DENIED('shell'));
    expect(seen).toHaveLength(1);
  });

  it('root -> independent: the target runs under its own approvals, nobody is asked', async () => {
    const { f, seen, turn } = await start('asks', ['main', 'wide']);
    await turn;
    expect(ran(f, 'wide')).toBe(true);
    expect(seen).toHaveLength(0);
  });

  it('bounded -> independent under a read-only root: shell is never offered to the operator', async () => {
    const { f, seen, turn } = await start('readonly', ['main', 'mid', 'wide']);
    await turn;
    expect(ran(f, 'wide')).toBe(false);
    const req = f.requestsOf('wide')[0];
    expect(toolNames(req)).not.toContain('shell');
    expect(lastToolResult(f.requestsOf('wide').at(-1)!)).toBe(UNKNOWN_TOOL('shell', toolNames(req)));
    expect(seen).toHaveLength(0);
  });
});
