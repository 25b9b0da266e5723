import { beforeAll, describe, expect, it } from 'vitest';
import { setLanguage } from '../../../src/i18n/index.js';
import { BASE, FILE, load, loadError } from './helpers.js';

beforeAll(() => setLanguage('en'));

/** The error must be at `keyPath` with exactly `problem`, attributed to FILE. */
function expectError(text: string, keyPath: string, problem: string): void {
  const err = loadError(text);
  expect(err.message).toBe(`${FILE}: ${keyPath}: ${problem}`);
  expect(err.keyPath).toBe(keyPath);
  expect(err.file).toBe(FILE);
  expect(err.line).toBeUndefined();
}

/** BASE with extra lines inside the [providers.local] table. */
const prov = (line: string): string => BASE.replace('[agents.main]', `${line}\n[agents.main]`);

describe('references', () => {
  it('unknown provider names the known ones', () => {
    const err = loadError(BASE.replace('provider = "local"', 'provider = "locl"'));
    expect(err.message).toBe(`${FILE}: agents.main.provider: unknown provider "locl" (known: local)`);
    expect(err.keyPath).toBe('agents.main.provider');
  });

  it('default_agent must name an existing agent', () => {
    expectError(`default_agent = "boss"\n${BASE}`, 'default_agent', 'unknown agent "boss" (known: main, researcher, reviewer)');
  });

  it('the default agent may not be disabled', () => {
    expectError(`${BASE}enabled = false\n`, 'agents.main.enabled', 'the default agent "main" is disabled');
  });

  it('an agent without provider takes the only configured one', () => {
    const { config } = load('[providers.p]\ntype = "offline"\n[agents.solo]\nsystem_prompt = "hi"\n');
    expect(config.agents.solo.provider).toBe('p');
    expect(config.default_agent).toBe('solo');
  });

  it('an agent without provider is an error when there are several', () => {
    const err = loadError('[providers.a]\ntype = "offline"\n[providers.b]\ntype = "offline"\n[agents.main]\ndescription = "x"\n');
    expect(err.message).toBe(
      `${FILE}: agents.main.provider: missing required key; set it to one of the configured providers (known: a, b)`,
    );
  });

  it('providers without agents is an error naming the file', () => {
    const err = loadError('[providers.a]\ntype = "offline"\n');
    expect(err.message).toBe(`${FILE}: agents: no agent is configured; add an [agents.main] table with a provider`);
  });

  it('several agents and no main need default_agent', () => {
    const err = loadError('[providers.a]\ntype = "offline"\n[agents.x]\n[agents.y]\n');
    expect(err.message).toBe(`${FILE}: default_agent: missing; set it to the agent to chat with (known: x, y)`);
  });
});

describe('wrong types', () => {
  it('temperature as a string', () => {
    expectError(prov('temperature = "hot"'), 'providers.local.temperature', 'expected a number, got string "hot"');
  });

  // Top-level keys must come before BASE's tables, section headers may follow them.
  const cases: [string, string, string, 'top'?][] = [
    ['[ui]\nlanguage = 1', 'ui.language', 'expected a string, got number 1'],
    [
      '[runtime_profiles.default]\nparallel_tools = "yes"',
      'runtime_profiles.default.parallel_tools',
      'expected a boolean (true or false), got string "yes"',
    ],
    [
      '[runtime_profiles.default]\nmax_tool_iterations = 2.5',
      'runtime_profiles.default.max_tool_iterations',
      'expected an integer, got number 2.5',
    ],
    [
      '[risk_profiles.default]\nauto_approve = "shell"',
      'risk_profiles.default.auto_approve',
      'expected a list of strings, got string "shell"',
    ],
    ['[risk_profiles.default]\nallowed_tools = ["shell", 3]', 'risk_profiles.default.allowed_tools[1]', 'expected a string, got number 3'],
    ['[delegation]\nrunaway = 5', 'delegation.runaway', 'expected a table, got number 5'],
    ['ui = [1]', 'ui', 'expected a table, got a list', 'top'],
    ['default_agent = false', 'default_agent', 'expected a string, got boolean false', 'top'],
    ['[risk_profiles]\nstrict = true', 'risk_profiles.strict', 'expected a table, got boolean true'],
    ['[delegation]\nmax_concurrent = 1979-05-27', 'delegation.max_concurrent', 'expected an integer, got date'],
  ];
  for (const [extra, keyPath, problem, where] of cases) {
    it(`${keyPath}: ${problem}`, () => {
      const err = loadError(where === 'top' ? `${extra}\n${BASE}` : `${BASE}\n${extra}\n`);
      expect(err.keyPath).toBe(keyPath);
      if (problem.endsWith('got date')) expect(err.message.startsWith(`${FILE}: ${keyPath}: ${problem} `)).toBe(true);
      else expect(err.message).toBe(`${FILE}: ${keyPath}: ${problem}`);
    });
  }

  it('headers must map strings to strings', () => {
    const err = loadError(BASE.replace('[agents.main]', 'headers = { "X-Title" = "arbor", "X-Retries" = 3 }\n[agents.main]'));
    expect(err.message).toBe(`${FILE}: providers.local.headers.X-Retries: expected a string, got number 3`);
  });

  it('delegates must be a list', () => {
    const err = loadError(`${BASE}delegates = "reviewer"\n`);
    expect(err.message).toBe(
      `${FILE}: agents.main.delegates: expected a list of agent names or { agent, mode } tables, got string "reviewer"`,
    );
  });
});

describe('ranges and allowed values', () => {
  const cases: [string, string, string, string][] = [
    ['temperature 3', prov('temperature = 3'), 'providers.local.temperature', 'must be between 0 and 2, got 3'],
    ['temperature -0.5', prov('temperature = -0.5'), 'providers.local.temperature', 'must be between 0 and 2, got -0.5'],
    ['max_tokens 0', prov('max_tokens = 0'), 'providers.local.max_tokens', 'must be at least 1, got 0'],
    ['timeout_secs 0', prov('timeout_secs = 0'), 'providers.local.timeout_secs', 'must be greater than 0, got 0'],
    [
      'pricing negative',
      prov('pricing = { input_per_mtok = -1, output_per_mtok = 0 }'),
      'providers.local.pricing.input_per_mtok',
      'must be at least 0, got -1',
    ],
    ['pricing half', prov('pricing = { input_per_mtok = 1 }'), 'providers.local.pricing.output_per_mtok', 'missing required key'],
    [
      'max_tool_iterations 0',
      `${BASE}[runtime_profiles.default]\nmax_tool_iterations = 0`,
      'runtime_profiles.default.max_tool_iterations',
      'must be between 1 and 1000, got 0',
    ],
    [
      'max_tool_iterations 1001',
      `${BASE}[runtime_profiles.fast]\nmax_tool_iterations = 1001`,
      'runtime_profiles.fast.max_tool_iterations',
      'must be between 1 and 1000, got 1001',
    ],
    [
      'tree budget 0',
      `${BASE}[runtime_profiles.default]\nmax_execution_tree_iterations = 0`,
      'runtime_profiles.default.max_execution_tree_iterations',
      '0 is invalid; omit the key for no aggregate budget',
    ],
    [
      'tree budget -3',
      `${BASE}[runtime_profiles.default]\nmax_execution_tree_iterations = -3`,
      'runtime_profiles.default.max_execution_tree_iterations',
      'must be at least 1, got -3',
    ],
    [
      'depth 11',
      `${BASE}[runtime_profiles.agentic]\nmax_delegation_depth = 11`,
      'runtime_profiles.agentic.max_delegation_depth',
      'must be between 1 and 10, got 11',
    ],
    [
      'depth 0',
      `${BASE}[runtime_profiles.agentic]\nmax_delegation_depth = 0`,
      'runtime_profiles.agentic.max_delegation_depth',
      'must be between 1 and 10, got 0',
    ],
    ['max_concurrent 0', `${BASE}[delegation]\nmax_concurrent = 0`, 'delegation.max_concurrent', 'must be between 1 and 1000, got 0'],
    [
      'max_children 1001',
      `${BASE}[delegation]\nmax_children_per_agent = 1001`,
      'delegation.max_children_per_agent',
      'must be between 1 and 1000, got 1001',
    ],
    [
      'shell timeout inf',
      `${BASE}[runtime_profiles.default]\nshell_timeout_secs = inf`,
      'runtime_profiles.default.shell_timeout_secs',
      'must be a finite number, got Infinity',
    ],
    ['run timeout nan', `${BASE}[delegation]\nrun_timeout_secs = nan`, 'delegation.run_timeout_secs', 'expected a number, got number NaN'],
    [
      'on_trip',
      `${BASE}[delegation.runaway]\non_trip = "explode"`,
      'delegation.runaway.on_trip',
      'must be one of "pause_spawning", "pause_tree", "kill_tree", got "explode"',
    ],
    ['runaway size 0', `${BASE}[delegation.runaway]\nmax_tree_size = 0`, 'delegation.runaway.max_tree_size', 'must be at least 1, got 0'],
    [
      'provider type',
      BASE.replace('"openai-compatible"', '"ollama"'),
      'providers.local.type',
      'must be one of "openai-compatible", "openai", "anthropic", "offline", got "ollama"',
    ],
    ['ui.language', `${BASE}[ui]\nlanguage = "fr"`, 'ui.language', 'must be one of "en", "es", got "fr"'],
    [
      'policy mode',
      `${BASE}[risk_profiles.default]\ndelegation_policy = { mode = "sometimes" }`,
      'risk_profiles.default.delegation_policy.mode',
      'must be one of "allow", "forbidden", got "sometimes"',
    ],
  ];
  for (const [name, text, keyPath, problem] of cases) {
    it(name, () => {
      const err = loadError(text);
      expect(err.message).toBe(`${FILE}: ${keyPath}: ${problem}`);
      expect(err.keyPath).toBe(keyPath);
    });
  }

  it('accepts values at the edges of each range', () => {
    const { config } = load(
      `${BASE.replace('[agents.main]', 'temperature = 2\nmax_tokens = 1\ntimeout_secs = 0.5\npricing = { input_per_mtok = 0, output_per_mtok = 15 }\n[agents.main]')}
[runtime_profiles.default]
max_tool_iterations = 1000
max_execution_tree_iterations = 1
max_delegation_depth = 10
[delegation]
max_concurrent = 1000
max_children_per_agent = 1
[delegation.runaway]
max_tree_tokens = 2_000_000
on_trip = "kill_tree"
`,
    );
    expect(config.providers.local).toMatchObject({
      temperature: 2,
      max_tokens: 1,
      timeout_secs: 0.5,
      pricing: { input_per_mtok: 0, output_per_mtok: 15 },
    });
    expect(config.runtime_profiles.default).toMatchObject({
      max_tool_iterations: 1000,
      max_execution_tree_iterations: 1,
      max_delegation_depth: 10,
    });
    expect(config.delegation).toMatchObject({
      max_concurrent: 1000,
      max_children_per_agent: 1,
      runaway: { max_tree_tokens: 2_000_000, on_trip: 'kill_tree' },
    });
  });
});

describe('providers', () => {
  it('a provider other than offline needs a model', () => {
    const err = loadError(BASE.replace('model = "qwen3:8b"\n', ''));
    expect(err.message).toBe(`${FILE}: providers.local.model: missing required key; every provider except "offline" needs a model`);
  });

  it('openai-compatible needs base_url', () => {
    const err = loadError(BASE.replace('base_url = "http://127.0.0.1:11434/v1"\n', ''));
    expect(err.message).toBe(`${FILE}: providers.local.base_url: missing required key; an "openai-compatible" provider needs base_url`);
  });

  it('base_url must be an http(s) URL', () => {
    const err = loadError(BASE.replace('http://127.0.0.1:11434/v1', 'localhost:11434'));
    expect(err.message).toBe(`${FILE}: providers.local.base_url: not a valid http(s) URL: "localhost:11434"`);
  });

  it('type is required', () => {
    const err = loadError(BASE.replace('type = "openai-compatible"\n', ''));
    expect(err.message).toBe(
      `${FILE}: providers.local.type: missing required key (one of "openai-compatible", "openai", "anthropic", "offline")`,
    );
  });

  it('api_key_env holding a key instead of a name is refused without echoing it', () => {
    const secret = 'sk-live-1234567890abcdef';
    const err = loadError(BASE.replace('[agents.main]', `api_key_env = "${secret}"\n[agents.main]`));
    expect(err.keyPath).toBe('providers.local.api_key_env');
    expect(err.message).not.toContain(secret);
  });

  it('shell_env_passthrough names variables; a value that is not a name is refused at its index', () => {
    const secret = 'sk-live-1234567890abcdef';
    const ok = load(`${BASE}\n[risk_profiles.default]\nshell_env_passthrough = ["GITHUB_TOKEN", "NPM_TOKEN"]\n`);
    expect(ok.config.risk_profiles.default.shell_env_passthrough).toEqual(['GITHUB_TOKEN', 'NPM_TOKEN']);
    const err = loadError(`${BASE}\n[risk_profiles.default]\nshell_env_passthrough = ["GITHUB_TOKEN", "${secret}"]\n`);
    expect(err.keyPath).toBe('risk_profiles.default.shell_env_passthrough[1]');
    expect(err.message).not.toContain(secret);
    expectError(
      `${BASE}\n[risk_profiles.default]\nshell_env_passthrough = "GITHUB_TOKEN"\n`,
      'risk_profiles.default.shell_env_passthrough',
      'expected a list of strings, got string "GITHUB_TOKEN"',
    );
  });

  it('offline needs no model and gets the built-in one', () => {
    const { config } = load('[providers.off]\ntype = "offline"\n[agents.main]\nprovider = "off"\n');
    expect(config.providers.off).toEqual({ name: 'off', type: 'offline', model: 'arbor-offline', headers: {} });
  });

  it('keeps every optional field as given', () => {
    const { config } = load(
      BASE.replace('[agents.main]', 'api_key_env = "OLLAMA_API_KEY"\nheaders = { "X-Title" = "arbor" }\n[agents.main]'),
    );
    expect(config.providers.local).toEqual({
      name: 'local',
      type: 'openai-compatible',
      base_url: 'http://127.0.0.1:11434/v1',
      model: 'qwen3:8b',
      api_key_env: 'OLLAMA_API_KEY',
      headers: { 'X-Title': 'arbor' },
    });
  });
});

describe('names with dots are quoted in key paths', () => {
  it('quotes a provider name that is not a bare key', () => {
    const err = loadError('[providers."my.box"]\ntype = "openai"\n[agents.main]\nprovider = "my.box"\n');
    expect(err.message).toBe(`${FILE}: providers."my.box".model: missing required key; every provider except "offline" needs a model`);
  });
});
