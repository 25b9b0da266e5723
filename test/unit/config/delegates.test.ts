import { beforeAll, describe, expect, it } from 'vitest';
import { setLanguage } from '../../../src/i18n/index.js';
import { DEFAULT_DELEGATION, FILE, load, loadError } from './helpers.js';

beforeAll(() => setLanguage('en'));

const AGENTS = `
[providers.local]
type = "offline"

[agents.reviewer]
provider = "local"

[agents.sysadmin]
provider = "local"

[agents.main]
provider = "local"
`;

describe('agents.<alias>.delegates', () => {
  it('string entries are bounded, object entries keep their mode', () => {
    const { config } = load(`${AGENTS}delegates = ["reviewer", { agent = "sysadmin", mode = "independent" }]\n`);
    expect(config.agents.main.delegates).toEqual([
      { agent: 'reviewer', mode: 'bounded' },
      { agent: 'sysadmin', mode: 'independent' },
    ]);
  });

  it('an object entry without mode is bounded', () => {
    const { config } = load(`${AGENTS}delegates = [{ agent = "reviewer" }]\n`);
    expect(config.agents.main.delegates).toEqual([{ agent: 'reviewer', mode: 'bounded' }]);
  });

  it('omitted delegates is an empty roster', () => {
    expect(load(AGENTS).config.agents.main.delegates).toEqual([]);
  });

  it('an unknown agent is an error at its index', () => {
    const err = loadError(`${AGENTS}delegates = ["reviewer", "revewer"]\n`);
    expect(err.keyPath).toBe('agents.main.delegates[1]');
    expect(err.message).toBe(`${FILE}: agents.main.delegates[1]: unknown agent "revewer" (known: reviewer, sysadmin, main, researcher)`);
  });

  it('the agent itself is an error', () => {
    const err = loadError(`${AGENTS}delegates = [{ agent = "main", mode = "bounded" }]\n`);
    expect(err.message).toBe(`${FILE}: agents.main.delegates[0]: agent "main" cannot delegate to itself`);
  });

  it('a duplicate is an error at the second entry, whatever its mode', () => {
    const err = loadError(`${AGENTS}delegates = ["sysadmin", "reviewer", { agent = "sysadmin", mode = "independent" }]\n`);
    expect(err.message).toBe(`${FILE}: agents.main.delegates[2]: agent "sysadmin" is listed twice (first at index 0)`);
  });

  it('a bad mode is an error at the entry mode', () => {
    const err = loadError(`${AGENTS}delegates = [{ agent = "reviewer", mode = "loose" }]\n`);
    expect(err.message).toBe(`${FILE}: agents.main.delegates[0].mode: must be one of "bounded", "independent", got "loose"`);
  });

  it('an object entry needs agent', () => {
    const err = loadError(`${AGENTS}delegates = [{ mode = "bounded" }]\n`);
    expect(err.message).toBe(`${FILE}: agents.main.delegates[0].agent: missing required key`);
  });

  it('an entry that is neither string nor table', () => {
    const err = loadError(`${AGENTS}delegates = [42]\n`);
    expect(err.message).toBe(`${FILE}: agents.main.delegates[0]: expected an agent name or an { agent, mode } table, got number 42`);
  });

  it('a disabled target is allowed in the roster (the runtime refuses it)', () => {
    const { config } = load(
      `${AGENTS.replace('[agents.sysadmin]\nprovider = "local"', '[agents.sysadmin]\nprovider = "local"\nenabled = false')}delegates = ["sysadmin"]\n`,
    );
    expect(config.agents.sysadmin.enabled).toBe(false);
    expect(config.agents.main.delegates).toEqual([{ agent: 'sysadmin', mode: 'bounded' }]);
  });
});

describe('agent defaults and profiles', () => {
  it('fills every agent field', () => {
    const { config } = load(AGENTS);
    expect(config.agents.reviewer).toEqual({
      alias: 'reviewer',
      provider: 'local',
      system_prompt: expect.any(String),
      risk_profile: 'default',
      runtime_profile: 'default',
      delegate_same_risk_profile: true,
      delegates: [],
      enabled: true,
    });
    expect(config.agents.reviewer.system_prompt.length).toBeGreaterThan(20);
  });

  it('an agent on an unconfigured profile is a warning, not an error', () => {
    const loaded = load(
      `${AGENTS.replace('[agents.reviewer]\nprovider = "local"', '[agents.reviewer]\nprovider = "local"\nrisk_profile = "strict"\nruntime_profile = "slow"')}`,
    );
    expect(loaded.config.agents.reviewer.risk_profile).toBe('strict');
    expect(loaded.warnings).toEqual([
      `${FILE}: agents.reviewer.risk_profile: risk profile "strict" is not configured (known: default, builtin); delegation to "reviewer" will be refused`,
      `${FILE}: agents.reviewer.runtime_profile: runtime profile "slow" is not configured (known: default, builtin-agentic); delegation to "reviewer" will be refused`,
    ]);
  });

  it('the default agent on an unconfigured profile is an error', () => {
    const err = loadError(`${AGENTS}runtime_profile = "fast"\n[runtime_profiles.slow]\n`);
    expect(err.message).toBe(
      `${FILE}: agents.main.runtime_profile: runtime profile "fast" is not configured (known: default, slow, builtin-agentic); the default agent cannot run without it`,
    );
  });

  it('user profile tables override only the fields they set; "default" always exists', () => {
    const { config } = load(
      `${AGENTS}risk_profile = "trusted"\n[risk_profiles.trusted]\ndelegation_policy = { mode = "allow" }\n[risk_profiles.default]\nmax_actions_per_hour = 20\n`,
    );
    expect(config.risk_profiles.default.max_actions_per_hour).toBe(20);
    expect(config.risk_profiles.default.auto_approve).toEqual(['read_file', 'list_files', 'grep', 'glob']);
    expect(config.risk_profiles.trusted).toMatchObject({
      name: 'trusted',
      delegation_policy: { mode: 'allow' },
      forbidden_paths: ['~/.ssh', '~/.aws'],
      allowed_roots: ['.'],
      max_cost_per_day_cents: 0,
    });
    expect(config.runtime_profiles.default).toEqual({
      name: 'default',
      max_tool_iterations: 10,
      parallel_tools: false,
      shell_timeout_secs: 60,
      max_execution_tree_iterations: undefined,
      agentic: false,
      max_delegation_depth: 3,
    });
    expect(config.delegation).toEqual(DEFAULT_DELEGATION);
  });
});
