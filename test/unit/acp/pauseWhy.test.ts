// What an editor is told about a paused child (acp/server/children.ts): who paused it, and for
// an external agent still finishing its step, that arbor cannot stop it mid-step.
import { describe, expect, it } from 'vitest';
import { flatProgress, pauseWhy, stateUpdate } from '../../../src/acp/server/children.js';
import type { Run, RuntimeState } from '../../../src/runtime/types.js';

const run = (over: Partial<Run>): Run =>
  ({ id: 'r1', alias: 'ext', kind: 'delegate', number: 1, model: 'openai-compatible/m', status: 'paused', task: 't', ...over }) as Run;
const state = (over: Partial<RuntimeState> = {}): RuntimeState =>
  ({ controls: { spawnPaused: false, approvals: [], runaway: { tripped: false } }, ...over }) as RuntimeState;

describe('pauseWhy', () => {
  it('is undefined for a run that is not paused', () => {
    expect(pauseWhy(state(), run({ status: 'running' }))).toBeUndefined();
  });

  it('names the operator, the runaway guard or the provider limit', () => {
    expect(pauseWhy(state(), run({}))).toEqual({ by: 'operator', text: 'paused by the operator' });
    const tripped = state({ controls: { spawnPaused: false, approvals: [], runaway: { tripped: true, threshold: 'max_tree_size' } } });
    expect(pauseWhy(tripped, run({}))?.by).toBe('runaway');
    const resetAt = new Date(2026, 0, 1, 14, 2, 10).getTime();
    const quota = state({
      quotaPauses: [{ provider: 'fake', label: 'openai-compatible/m', reason: 'rate_limit', resetAt, resetKnown: true, runIds: ['r1'] }],
    });
    // The provider's limit is the reason even while the guard has tripped too.
    expect(pauseWhy({ ...quota, controls: tripped.controls }, run({}))).toEqual({
      by: 'quota',
      text: 'paused by a rate or quota limit on provider "fake" until 14:02:10; it resumes by itself then',
    });
  });

  it('an external agent still in its step says that it cannot be stopped mid-step', () => {
    const why = pauseWhy(state(), run({ status: 'pausing', model: 'acp/gemini' }))!;
    expect(why.text).toBe(
      'paused by the operator; an external agent cannot be stopped mid-step: arbor holds its next permission answer and its next prompt',
    );
    // A model child pausing, or an external one already held, says only who paused it.
    expect(pauseWhy(state(), run({ status: 'pausing' }))!.text).toBe('paused by the operator');
    expect(pauseWhy(state(), run({ status: 'paused', model: 'acp/gemini' }))!.text).toBe('paused by the operator');
  });

  it('travels in the ACP state snapshot and in the flattened progress', () => {
    const r = run({});
    const why = pauseWhy(state(), r)!;
    expect(stateUpdate(r, why)).toMatchObject({
      state: 'requires_action',
      _meta: { arbor: { workState: 'paused', pausedBy: 'operator', pausedWhy: 'paused by the operator' } },
    });
    expect(flatProgress(r, why)).toBe('ext#1 (openai-compatible/m) · paused (paused by the operator) · paused');
  });
});
