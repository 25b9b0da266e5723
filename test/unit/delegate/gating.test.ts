// Each gate, in order, with its exact refusal: policy, reachability, depth, target policy,
// shared spawn refusals; and the roster the model is shown.
import { describe, expect, it } from 'vitest';
import { SPAWN_PAUSED_REFUSAL } from '../../../src/runtime/spawnGate.js';
import {
  alwaysAskRefusal,
  crossProfileRefusal,
  depthRefusal,
  disabledRefusal,
  forbiddenRefusal,
  missingRiskProfile,
  peersDisabledRefusal,
  selfRefusal,
  unknownAction,
  unknownAgent,
} from '../../../src/tools/delegate/strings.js';
import {
  agent,
  callsThenDone,
  delegateCall,
  delegateFixture,
  delegateResults,
  delegateSpecOf,
  lastToolResult,
  text,
  toml,
  type DelegateFixture,
  type Responder,
  delegatesToEach,
  afterOneTurn,
} from './helpers.js';

let fx: DelegateFixture | undefined;

/** main calls delegate once with `args`; returns what the tool answered. */
async function delegateOnce(config: string, args: object, agents: Record<string, Responder> = {}) {
  fx = await delegateFixture({
    config: (url) => toml(url, config),
    agents: { main: callsThenDone(delegateCall(args)), ...agents },
  });
  await fx.runtime.startTurn('go');
  const [item] = delegateResults(fx.runtime);
  expect(item, 'main called delegate').toBeDefined();
  return item;
}

const STRICT = `
[risk_profiles.strict]
${''}
`;

describe('gate 1: delegation policy', () => {
  it('forbidden by default, naming the caller and its profile; no target runs', async () => {
    const item = await delegateOnce(
      agent('main') + agent('reviewer'),
      { agent: 'reviewer', prompt: 'review' },
      { reviewer: () => text('x') },
    );
    expect(item.status).toBe('error');
    expect(item.result).toBe(
      'delegation is forbidden for caller "main" by risk profile "default" delegation_policy; set [risk_profiles.default].delegation_policy mode = "allow"',
    );
    expect(item.result).toBe(forbiddenRefusal('main', 'default'));
    expect(fx!.requestsOf('reviewer')).toHaveLength(0);
  });

  it('comes before reachability: an unknown target under a forbidden policy gets the policy refusal', async () => {
    const item = await delegateOnce(agent('main', 'risk_profile = "strict"') + STRICT, { agent: 'nobody', prompt: 'p' });
    expect(item.result).toBe(forbiddenRefusal('main', 'strict'));
  });
});

describe('gate 2: reachability', () => {
  const trusted = (alias: string, extra = '') => agent(alias, `risk_profile = "trusted"\n${extra}`);

  it('unknown agent lists exactly the reachable agents', async () => {
    const config = trusted('main') + trusted('reviewer') + trusted('researcher') + agent('outsider');
    const item = await delegateOnce(config, { agent: 'nobody', prompt: 'p' });
    expect(item.result).toBe("Unknown agent 'nobody'. Available agents: reviewer, researcher");
    expect(item.result).toBe(unknownAgent('nobody', ['reviewer', 'researcher']));
  });

  it('a cross-profile target that is not in delegates is refused with both profiles named', async () => {
    const config = trusted('main') + agent('ops', 'risk_profile = "default"');
    const item = await delegateOnce(config, { agent: 'ops', prompt: 'p' }, { ops: () => text('x') });
    expect(item.result).toBe(
      'delegate target "ops" is not reachable from "main": different risk profile (caller uses "trusted", target uses "default"). delegate_same_risk_profile only reaches agents with the same risk profile; add an explicit [agents.main].delegates entry with the intended mode, or change one agent\'s risk_profile.',
    );
    expect(item.result).toBe(crossProfileRefusal('ops', 'main', 'trusted', 'default'));
    expect(fx!.requestsOf('ops')).toHaveLength(0);
  });

  it('opting out of same-profile peers refuses peers but keeps explicit entries', async () => {
    const config = trusted('main', 'delegate_same_risk_profile = false\ndelegates = ["listed"]') + trusted('peer') + trusted('listed');
    fx = await afterOneTurn(config, {
      main: delegatesToEach(['peer', 'listed']),
      peer: () => text('peer answer'),
      listed: () => text('listed answer'),
    });
    const [peer, listed] = delegateResults(fx.runtime);
    expect(peer.result).toBe(
      'delegate target "peer" is not reachable from "main": delegate_same_risk_profile is disabled and the target is not listed in [agents.main].delegates',
    );
    expect(peer.result).toBe(peersDisabledRefusal('peer', 'main'));
    expect(listed.status).toBe('ok');
    expect(listed.result).toBe("[Agent 'listed' (openai-compatible/fake-model)]\nlisted answer");
    expect(fx.requestsOf('peer')).toHaveLength(0);
  });

  it('a disabled target is never reachable, as a peer or as an explicit entry', async () => {
    const config = trusted('main', 'delegates = ["off2"]') + trusted('off', 'enabled = false') + agent('off2', 'enabled = false');
    fx = await afterOneTurn(config, {
      main: delegatesToEach(['off', 'off2']),
    });
    const [peer, explicit] = delegateResults(fx.runtime);
    expect(peer.result).toBe('delegate target "off" is not reachable from "main": the target agent is disabled');
    expect(explicit.result).toBe(disabledRefusal('off2', 'main'));
    // The roster the model saw never listed them.
    const desc = delegateSpecOf(fx.requestsOf('main')[0]).parameters.properties?.agent?.description;
    expect(desc).not.toMatch(/\boff2?\b/);
  });

  it('the caller never reaches itself', async () => {
    const item = await delegateOnce(trusted('main'), { agent: 'main', prompt: 'p' });
    expect(item.result).toBe(selfRefusal('main'));
  });
});

describe('the advertised roster', () => {
  it('lists exactly the reachable set, with modes and descriptions, when delegation is allowed', async () => {
    const config =
      agent('main', 'risk_profile = "trusted"\ndelegates = [{ agent = "ops", mode = "independent" }]') +
      agent('reviewer', 'risk_profile = "trusted"\ndescription = "Reviews code and plans"') +
      agent('ops', 'description = "Runs the servers"') +
      agent('stranger', 'description = "Never reachable"') +
      agent('sleepy', 'risk_profile = "trusted"\nenabled = false');
    fx = await delegateFixture({ config: (url) => toml(url, config), agents: { main: () => text('hi') } });
    await fx.runtime.startTurn('hi');
    const spec = delegateSpecOf(fx.requestsOf('main')[0]);
    expect(spec.parameters.properties?.agent?.description).toBe(
      'Alias of the target agent. Reachable agents:\n- reviewer (bounded): Reviews code and plans\n- ops (independent): Runs the servers',
    );
  });

  it('is not shown when the policy forbids delegation', async () => {
    const config = agent('main') + agent('reviewer', 'description = "Reviews code"');
    fx = await delegateFixture({ config: (url) => toml(url, config), agents: { main: () => text('hi') } });
    await fx.runtime.startTurn('hi');
    const spec = delegateSpecOf(fx.requestsOf('main')[0]);
    const roster = spec.parameters.properties?.agent?.description;
    expect(roster).toContain('forbidden');
    expect(roster).not.toContain('reviewer');
    expect(spec.description).toContain('forbidden');
  });
});

describe('depth', () => {
  it('each hop carries min(caller limit, target limit): a chain only narrows', async () => {
    // main (limit 3) → a (profile cap 2) → b (profile cap 3, but inherits 2) → c refused at 2/2.
    const config = `
[runtime_profiles.two]
agentic = true
max_delegation_depth = 2
${agent('main', 'risk_profile = "trusted"')}
${agent('a', 'risk_profile = "trusted"\nruntime_profile = "two"')}
${agent('b', 'risk_profile = "trusted"\nruntime_profile = "agentic"')}
${agent('c', 'risk_profile = "trusted"')}
`;
    fx = await afterOneTurn(config, {
      main: callsThenDone(delegateCall({ agent: 'a', prompt: 'to a' })),
      a: callsThenDone(delegateCall({ agent: 'b', prompt: 'to b' }), 'a done'),
      b: callsThenDone(delegateCall({ agent: 'c', prompt: 'to c' }), 'b done'),
      c: () => text('c answer'),
    });
    const bRequests = fx.requestsOf('b');
    expect(bRequests).toHaveLength(2);
    expect(lastToolResult(bRequests[1])).toBe('Delegation depth limit reached (2/2).');
    expect(lastToolResult(bRequests[1])).toBe(depthRefusal(2, 2));
    expect(fx.requestsOf('c')).toHaveLength(0);
    // a's hop was granted at depth 1 of 2, and said so in its tool description.
    expect(delegateSpecOf(fx.requestsOf('a')[0]).description).toContain('depth 1 of at most 2');
    expect(lastToolResult(fx.requestsOf('a')[1])).toBe("[Agent 'b' (openai-compatible/fake-model, agentic)]\nb done");
  });

  it('max_delegation_depth = 1 allows the top agent one hop and no more', async () => {
    const config = `
[runtime_profiles.one]
max_delegation_depth = 1
${agent('main', 'risk_profile = "trusted"\nruntime_profile = "one"')}
${agent('a', 'risk_profile = "trusted"\nruntime_profile = "agentic"')}
`;
    fx = await afterOneTurn(config, {
      main: callsThenDone(delegateCall({ agent: 'a', prompt: 'to a' })),
      a: callsThenDone(delegateCall({ agent: 'main', prompt: 'back' }), 'a done'),
    });
    expect(lastToolResult(fx.requestsOf('a')[1])).toBe('Delegation depth limit reached (1/1).');
  });
});

describe('target policy', () => {
  it('an agentic target with a missing risk profile is refused before it runs', async () => {
    const config =
      agent('main', 'risk_profile = "trusted"\ndelegates = ["ghost"]') +
      agent('ghost', 'risk_profile = "nowhere"\nruntime_profile = "agentic"');
    const item = await delegateOnce(config, { agent: 'ghost', prompt: 'p' }, { ghost: () => text('x') });
    expect(item.result).toBe("Agent 'ghost' is agentic but risk_profile 'nowhere' is not configured.");
    expect(item.result).toBe(missingRiskProfile('ghost', 'nowhere'));
    expect(fx!.requestsOf('ghost')).toHaveLength(0);
  });

  it('always_ask on a bounded agentic target, or any independent target, is refused; bounded single-call runs', async () => {
    const config = `
[risk_profiles.asking]
always_ask = ["shell", "write_file"]
${agent('main', 'risk_profile = "trusted"\ndelegates = ["agentic_b", { agent = "indep", mode = "independent" }, "plain"]')}
${agent('agentic_b', 'risk_profile = "asking"\nruntime_profile = "agentic"')}
${agent('indep', 'risk_profile = "asking"')}
${agent('plain', 'risk_profile = "asking"')}
`;
    fx = await afterOneTurn(config, {
      main: delegatesToEach(['agentic_b', 'indep', 'plain']),
      plain: () => text('plain answer'),
    });
    const [bounded, independent, plain] = delegateResults(fx.runtime);
    expect(bounded.result).toBe(
      'delegate target "agentic_b" cannot run in bounded agentic mode from "main": risk profile "asking" has always_ask entries (shell, write_file). See ZeroClaw docs, "Delegation & SubAgents" > "What\'s not supported".',
    );
    expect(independent.result).toBe(alwaysAskRefusal('indep', 'independent', 'main', 'asking', ['shell', 'write_file']));
    expect(plain.result).toBe("[Agent 'plain' (openai-compatible/fake-model)]\nplain answer");
  });
});

describe('argument and shared refusals', () => {
  it('unknown action', async () => {
    const item = await delegateOnce(agent('main', 'risk_profile = "trusted"'), { action: 'explode' });
    expect(item.result).toBe("Unknown action 'explode'. Use delegate/check_result/list_results/cancel_task/await_sessions.");
    expect(item.result).toBe(unknownAction('explode'));
  });

  it('the spawn pause refuses with the shared supervisor text', async () => {
    fx = await delegateFixture({
      config: (url) => toml(url, agent('main', 'risk_profile = "trusted"') + agent('r', 'risk_profile = "trusted"')),
      agents: { main: callsThenDone(delegateCall({ agent: 'r', prompt: 'p' })), r: () => text('x') },
    });
    fx.runtime.setSpawnPaused(true);
    await fx.runtime.startTurn('go');
    expect(delegateResults(fx.runtime)[0].result).toBe(SPAWN_PAUSED_REFUSAL);
    expect(fx.requestsOf('r')).toHaveLength(0);
  });

  it('a parallel fan-out larger than max_children_per_agent is refused whole', async () => {
    const config = `
[delegation]
max_children_per_agent = 2
${agent('main', 'risk_profile = "trusted"')}${agent('a', 'risk_profile = "trusted"')}${agent('b', 'risk_profile = "trusted"')}${agent('c', 'risk_profile = "trusted"')}`;
    const item = await delegateOnce(
      config,
      { parallel: ['a', 'b', 'c'], prompt: 'p' },
      { a: () => text('x'), b: () => text('x'), c: () => text('x') },
    );
    expect(item.result).toMatch(/^spawn refused: .*max_children_per_agent = 2/);
    expect(fx!.requestsOf('a')).toHaveLength(0);
  });

  it('a parallel call is admitted whole: one unreachable target stops all of them', async () => {
    const config = agent('main', 'risk_profile = "trusted"') + agent('a', 'risk_profile = "trusted"') + agent('ops');
    const item = await delegateOnce(config, { parallel: ['a', 'ops'], prompt: 'p' }, { a: () => text('x') });
    expect(item.result).toBe(crossProfileRefusal('ops', 'main', 'trusted', 'default'));
    expect(fx!.requestsOf('a')).toHaveLength(0);
  });
});
