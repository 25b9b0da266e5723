// What a delegate child may use: bounded children are capped by the caller's registry and
// keep delegate only as a target-bound, delegate-only instance; independent children get
// the target's own registry without delegate; budgets and approvals follow the mode.
import { describe, expect, it } from 'vitest';
import { CHILD_APPROVAL_DENIED } from '../../../src/tools/approvalPolicy.js';
import { delegateOnlyRefusal } from '../../../src/tools/delegate/strings.js';
import {
  agent,
  callsThenDone,
  delegateCall,
  delegateResults,
  delegateSpecOf,
  lastToolResult,
  sequence,
  text,
  toolNames,
  type DelegateFixture,
  delegations,
  delegatesToEach,
  afterOneTurn,
} from './helpers.js';
import { toolResults } from '../../support/wireBody.js';
import { offeredTools } from '../../support/wireRequest.js';

let fx: DelegateFixture | undefined;

const sorted = (xs: string[]) => [...xs].sort();

describe('bounded agentic children', () => {
  it("tools are the caller's registry intersected with the target's policy: the caller is the ceiling", async () => {
    const config = `
[risk_profiles.capped]
allowed_tools = ["read_file", "list_files", "delegate"]
delegation_policy = { mode = "allow" }
[risk_profiles.wide]
allowed_tools = ["shell", "read_file", "write_file", "delegate"]
[risk_profiles.inherit]
${agent('main', 'risk_profile = "capped"\ndelegates = ["narrow", "inheritor"]')}
${agent('narrow', 'risk_profile = "wide"\nruntime_profile = "agentic"')}
${agent('inheritor', 'risk_profile = "inherit"\nruntime_profile = "agentic"')}
`;
    fx = await afterOneTurn(config, {
      main: delegatesToEach(['narrow', 'inheritor']),
      narrow: () => text('n'),
      inheritor: () => text('i'),
    });
    expect(sorted(toolNames(fx.requestsOf('main')[0]))).toEqual(['delegate', 'list_files', 'read_file']);
    // shell/write_file are in the target's list but the caller never had them; delegate is
    // dropped because the target's own policy forbids delegation.
    expect(toolNames(fx.requestsOf('narrow')[0])).toEqual(['read_file']);
    // An empty allowed_tools inherits the caller's whole delegatable registry.
    expect(sorted(toolNames(fx.requestsOf('inheritor')[0]))).toEqual(['list_files', 'read_file']);
  });

  it('delegate stays when the target allows delegation, bound to the target and delegate-only', async () => {
    const config = `
${agent('main', 'risk_profile = "trusted"\ndescription = "Boss"')}
${agent('lead', 'risk_profile = "trusted"\nruntime_profile = "agentic"\ndelegate_same_risk_profile = false\ndelegates = ["helper"]')}
${agent('helper', 'description = "Helps the lead"')}
${agent('bystander', 'risk_profile = "trusted"')}
`;
    fx = await afterOneTurn(config, {
      main: callsThenDone(delegateCall({ agent: 'lead', prompt: 'plan it' })),
      lead: sequence(delegations([{ action: 'list_results' }, { agent: 'helper', prompt: 'help' }], ['x', 'y']), text('lead done')),
      helper: () => text('helped'),
    });
    const leadFirst = fx.requestsOf('lead')[0];
    expect(toolNames(leadFirst)).toContain('delegate');
    // The roster is resolved from lead's own config, not main's.
    expect(delegateSpecOf(leadFirst).parameters.properties?.agent?.description).toBe(
      'Alias of the target agent. Reachable agents:\n- helper (bounded): Helps the lead',
    );
    expect(delegateSpecOf(leadFirst).description).toContain('Only action=delegate');
    const results = toolResults(fx.requestsOf('lead')[1].body).map((r) => r.content);
    expect(results[0]).toBe(delegateOnlyRefusal('list_results'));
    // helper is a cross-profile explicit entry of lead: reachable from lead though not from main.
    expect(results[1]).toBe("[Agent 'helper' (openai-compatible/fake-model)]\nhelped");
    const helperRun = fx.runtime.store
      .getState()
      .runs.values()
      .find((r) => r.alias === 'helper')!;
    const leadRun = fx.runtime.store
      .getState()
      .runs.values()
      .find((r) => r.alias === 'lead')!;
    expect(helperRun.parentRunId).toBe(leadRun.id);
    expect(helperRun.depth).toBe(2);
  });

  it('children have no operator: a call that would ask is denied before it runs', async () => {
    const config = `
${agent('main', 'risk_profile = "trusted"')}
${agent('worker', 'risk_profile = "trusted"\nruntime_profile = "agentic"')}
`;
    fx = await afterOneTurn(config, {
      main: callsThenDone(delegateCall({ agent: 'worker', prompt: 'write' })),
      worker: callsThenDone(
        { kind: 'tools', calls: [{ id: 'w', name: 'write_file', args: { path: 'out.txt', content: 'x' } }] },
        'could not write',
      ),
    });
    expect(lastToolResult(fx.requestsOf('worker')[1])).toBe(CHILD_APPROVAL_DENIED('write_file'));
    expect(delegateResults(fx.runtime)[0].result).toBe("[Agent 'worker' (openai-compatible/fake-model, agentic)]\ncould not write");
  });

  it('bounded children draw from the turn budget; independent ones from their own profile', async () => {
    const config = `
[runtime_profiles.root3]
max_execution_tree_iterations = 3
[runtime_profiles.agentic_big]
agentic = true
max_execution_tree_iterations = 50
${agent('main', 'risk_profile = "trusted"\nruntime_profile = "root3"\ndelegates = [{ agent = "indep", mode = "independent" }]')}
${agent('bounded', 'risk_profile = "trusted"\nruntime_profile = "agentic"')}
${agent('indep', 'risk_profile = "trusted"\nruntime_profile = "agentic_big"')}
`;
    const listCall = { kind: 'tools' as const, calls: [{ id: 'l', name: 'list_files', args: {} }] };
    fx = await afterOneTurn(config, {
      main: delegatesToEach(['bounded', 'indep']),
      // Both children want three model calls.
      bounded: (req, nth) => (nth < 2 ? listCall : text('bounded done')),
      indep: (req, nth) => (nth < 2 ? listCall : text('indep done')),
    });
    const [bounded, indep] = delegateResults(fx.runtime);
    // Tree of 3: main took 1, the bounded child 1, and the last slot is the root's.
    expect(bounded.result).toMatch(
      /^Agent 'bounded' failed: execution-tree iteration budget exhausted \(max_execution_tree_iterations = 3\)/,
    );
    expect(indep.result).toBe("[Agent 'indep' (openai-compatible/fake-model, agentic)]\nindep done");
    expect(fx.requestsOf('main')).toHaveLength(2);
  });
});

describe('an agentic target with zero executable tools', () => {
  it('still gets a normal model turn, with no tools and no error', async () => {
    const config = `
[risk_profiles.bare]
deny_all_tools = true
${agent('main', 'risk_profile = "trusted"\ndelegates = ["bare"]')}
${agent('bare', 'risk_profile = "bare"\nruntime_profile = "agentic"')}
`;
    fx = await afterOneTurn(config, {
      main: callsThenDone(delegateCall({ agent: 'bare', prompt: 'think' })),
      bare: () => text('thought about it'),
    });
    expect(offeredTools(fx.requestsOf('bare')[0].body)).toHaveLength(0);
    expect(delegateResults(fx.runtime)[0].result).toBe("[Agent 'bare' (openai-compatible/fake-model, agentic)]\nthought about it");
  });
});

describe('independent children', () => {
  it("get the target's own registry, wider than the caller's, and never delegate", async () => {
    const config = `
[risk_profiles.narrow]
allowed_tools = ["delegate"]
delegation_policy = { mode = "allow" }
[risk_profiles.ops]
delegation_policy = { mode = "allow" }
${agent('main', 'risk_profile = "narrow"\ndelegates = [{ agent = "ops", mode = "independent" }]')}
${agent('ops', 'risk_profile = "ops"\nruntime_profile = "agentic"')}
`;
    fx = await afterOneTurn(config, { main: callsThenDone(delegateCall({ agent: 'ops', prompt: 'p' })), ops: () => text('ops done') });
    expect(toolNames(fx.requestsOf('main')[0])).toEqual(['delegate']);
    const opsTools = toolNames(fx.requestsOf('ops')[0]);
    expect(opsTools).toContain('shell');
    expect(opsTools).toContain('write_file');
    expect(opsTools).not.toContain('delegate');
    expect(delegateResults(fx.runtime)[0].result).toBe("[Agent 'ops' (openai-compatible/fake-model, agentic)]\nops done");
  });
});
