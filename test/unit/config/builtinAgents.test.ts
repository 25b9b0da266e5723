// The built-in agents stay beside a file's own setup (issue #20 item 6): a table replaces
// only the agent of its name, whole; the built-ins never become peers of the user's agents
// nor lend their profiles' policy to a user's profile, and they do not pick the default.
import { describe, expect, it } from 'vitest';
import { reachableRoster } from '../../../src/tools/delegate/gating.js';
import { BASE, load } from './helpers.js';

describe('built-in agents beside a TOML setup', () => {
  it('[agents.main] keeps researcher and reviewer, on the built-in offline provider', () => {
    const { config, agentSources } = load(BASE);
    expect(Object.keys(config.agents)).toEqual(['main', 'researcher', 'reviewer']);
    expect(config.agents.main.provider).toBe('local');
    expect(config.agents.main.system_prompt).not.toMatch(/^You are main/);
    expect(config.agents.researcher).toMatchObject({ provider: 'offline', risk_profile: 'builtin', runtime_profile: 'builtin-agentic' });
    expect(agentSources?.researcher).toBeUndefined();
    expect(config.default_agent).toBe('main');
  });

  it('a table of a built-in name replaces that agent whole', () => {
    const { config } = load(`${BASE}\n[agents.reviewer]\nprovider = "local"\ndescription = "mine"\n`);
    expect(config.agents.reviewer).toMatchObject({ provider: 'local', description: 'mine', risk_profile: 'default', delegates: [] });
    expect(config.agents.reviewer.system_prompt).not.toMatch(/^You are reviewer/);
  });

  it("the user's agents pick the default agent; the built-ins only by name", () => {
    const solo = load('[providers.p]\ntype = "offline"\n[agents.coder]\nprovider = "p"\n').config;
    expect(solo.default_agent).toBe('coder');
    expect(Object.keys(solo.agents)).toEqual(['coder', 'main', 'researcher', 'reviewer']);
    expect(load(`default_agent = "researcher"\n${BASE}`).config.default_agent).toBe('researcher');
  });

  it("a user's profile named like the starter's gets nothing from it, and is no peer of the built-ins", () => {
    const text = `${BASE}risk_profile = "trusted"\n[risk_profiles.trusted]\nauto_approve = ["read_file"]\n`;
    const { config } = load(text);
    expect(config.risk_profiles.trusted.delegation_policy.mode).toBe('forbidden');
    const allowed = load(`${text}delegation_policy = { mode = "allow" }\n`).config;
    expect(reachableRoster(allowed, 'main')).toEqual([]);
  });

  it('a user table of a built-in profile name replaces it whole', () => {
    const { config } = load(`${BASE}\n[risk_profiles.builtin]\nauto_approve = ["read_file"]\n`);
    expect(config.risk_profiles.builtin.delegation_policy.mode).toBe('forbidden');
  });
});
