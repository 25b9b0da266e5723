import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'smol-toml';
import { setLanguage } from '../../../src/i18n/index.js';
import { loadConfigFromTexts } from '../../../src/config/load.js';
import { STARTER_DEVIATIONS, starterConfigToml, writeStarterConfig } from '../../../src/config/starter.js';
import { formatDelegateEntry } from '../../../src/config/tomlFormat.js';
import { ConfigError } from '../../../src/config/configError.js';

beforeAll(() => setLanguage('en'));

const FILE = '/x/config.toml';

describe('starter config text', () => {
  it('loads to exactly the built-in starter, with no warnings (but for its documented deviations)', () => {
    const builtin = loadConfigFromTexts([], {});
    const fromText = loadConfigFromTexts([{ file: FILE, text: starterConfigToml() }], {});
    expect(fromText.warnings).toEqual([]);
    // The one deviation is listed (and each differs from the default for real); anything
    // else the starter sets differently still fails here.
    expect(STARTER_DEVIATIONS).toEqual({ delegation: { child_receipts: true } });
    expect(builtin.config.delegation.child_receipts).not.toBe(true);
    expect(fromText.config).toEqual({
      ...builtin.config,
      delegation: { ...builtin.config.delegation, ...STARTER_DEVIATIONS.delegation },
    });
    expect(starterConfigToml()).toMatch(/^# The built-in default is false.*\nchild_receipts = true +# /m);
    expect(Object.keys(fromText.config.agents)).toEqual(['main', 'researcher', 'reviewer']);
  });

  it('has the starter agents, profiles and limits', () => {
    const { config } = loadConfigFromTexts([{ file: FILE, text: starterConfigToml() }], {});
    expect(config.default_agent).toBe('main');
    expect(config.agents.main).toMatchObject({
      description: 'General assistant',
      risk_profile: 'trusted',
      runtime_profile: 'orchestrator',
    });
    expect(config.agents.researcher).toMatchObject({ description: 'Finds and summarizes information', runtime_profile: 'agentic' });
    expect(config.agents.reviewer).toMatchObject({ description: 'Reviews code and plans', runtime_profile: 'agentic' });
    expect(config.risk_profiles.trusted.delegation_policy).toEqual({ mode: 'allow' });
    expect(config.risk_profiles.default.delegation_policy).toEqual({ mode: 'forbidden' });
    expect(config.runtime_profiles.orchestrator).toMatchObject({
      max_tool_iterations: 10,
      parallel_tools: true,
      max_execution_tree_iterations: undefined,
    });
    expect(config.runtime_profiles.agentic).toMatchObject({ agentic: true, max_delegation_depth: 3 });
    expect(config.delegation.runaway).toEqual({ on_trip: 'pause_tree' });
  });

  it('writes delegates in object form', () => {
    const raw = parse(starterConfigToml()) as { agents: Record<string, { delegates: unknown[] }> };
    expect(raw.agents.main.delegates).toEqual([
      { agent: 'researcher', mode: 'bounded' },
      { agent: 'reviewer', mode: 'bounded' },
    ]);
    expect(starterConfigToml()).toContain('{ agent = "reviewer", mode = "bounded" }');
  });

  it('every commented-out setting is valid once uncommented', () => {
    // Commented code lines start with "# [" or "# key ="; prose never does.
    const uncommented = starterConfigToml()
      .split('\n')
      .map((line) => (/^# (\[|[a-z_]+ = )/.test(line) ? line.slice(2) : line))
      .join('\n');
    expect(uncommented).toContain('\n[providers.local]\n');
    expect(uncommented).toContain('\n[delegation.runaway]\n');
    const loaded = loadConfigFromTexts([{ file: FILE, text: uncommented }], {});
    expect(loaded.warnings).toEqual([]);
    expect(Object.keys(loaded.config.providers)).toEqual(['offline', 'local', 'openai', 'anthropic']);
    expect(loaded.config.delegation.runaway).toEqual({
      max_tree_size: 50,
      max_spawns_per_minute: 30,
      max_tree_tokens: 2_000_000,
      max_tree_cost_cents: 500,
      on_trip: 'pause_tree',
    });
    expect(loaded.config.ui.language).toBe('es');
    expect(loaded.config.risk_profiles.trusted.shell_env_passthrough).toEqual(['GITHUB_TOKEN']);
  });
});

describe('formatDelegateEntry', () => {
  it('writes an inline table in object form', () => {
    expect(formatDelegateEntry({ agent: 'reviewer', mode: 'bounded' })).toBe('{ agent = "reviewer", mode = "bounded" }');
    expect(formatDelegateEntry({ agent: 'sysadmin', mode: 'independent' })).toBe('{ agent = "sysadmin", mode = "independent" }');
  });

  it('escapes names so the TOML parses back to the same entry', () => {
    const entry = { agent: 'we"ird\\name\u007f', mode: 'bounded' as const };
    const parsed = parse(`x = ${formatDelegateEntry(entry)}`) as { x: unknown };
    expect(parsed.x).toEqual(entry);
  });
});

describe('writeStarterConfig', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'arbor-starter-'));
  });
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('creates the file and its folder', () => {
    const path = join(dir, 'nested', '.arbor', 'config.toml');
    expect(writeStarterConfig(path)).toEqual({ path, created: true });
    expect(readFileSync(path, 'utf8')).toBe(starterConfigToml());
  });

  it('never overwrites an existing file', () => {
    const path = join(dir, 'config.toml');
    writeFileSync(path, 'default_agent = "mine"\n');
    expect(writeStarterConfig(path)).toEqual({ path, created: false });
    expect(readFileSync(path, 'utf8')).toBe('default_agent = "mine"\n');
  });

  it('a path it cannot write is a ConfigError naming it', () => {
    const blocker = join(dir, 'file');
    writeFileSync(blocker, '');
    const path = join(blocker, 'config.toml');
    let err: unknown;
    try {
      writeStarterConfig(path);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as ConfigError).file).toBe(path);
    expect((err as ConfigError).message.startsWith(`${path}: cannot write the config file (`)).toBe(true);
  });
});
