import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setLanguage } from '../../../src/i18n/index.js';
import { configFiles, loadConfig } from '../../../src/config/load.js';
import { configErrorOf } from './helpers.js';

beforeAll(() => setLanguage('en'));

let root: string;
let home: string;
let cwd: string;
let env: NodeJS.ProcessEnv;
let userFile: string;
let projectFile: string;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'arbor-config-'));
  home = join(root, 'arbor-home');
  cwd = join(root, 'project');
  mkdirSync(home);
  mkdirSync(join(cwd, '.arbor'), { recursive: true });
  env = { ARBOR_HOME: home, HOME: join(root, 'nohome') };
  userFile = join(home, 'config.toml');
  projectFile = join(cwd, '.arbor', 'config.toml');
});

afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

const USER = `
default_agent = "main"
[providers.local]
type = "openai-compatible"
base_url = "http://127.0.0.1:11434/v1"
model = "qwen3:8b"
temperature = 0.2
headers = { "X-A" = "user" }

[agents.main]
provider = "local"
system_prompt = "from user"
description = "user main"

[delegation]
max_concurrent = 4
max_children_per_agent = 2
`;

describe('layer precedence', () => {
  it('with no files: built-in starter, no sources', () => {
    const loaded = loadConfig({ cwd, env });
    expect(loaded.sources).toEqual([]);
    expect(Object.keys(loaded.config.agents)).toEqual(['main', 'researcher', 'reviewer']);
    expect(loaded.config.providers.offline.type).toBe('offline');
  });

  it('user < project < explicit, tables deep-merged', () => {
    writeFileSync(userFile, USER);
    writeFileSync(
      projectFile,
      '[providers.local]\nmodel = "llama3"\nheaders = { "X-B" = "project" }\n[agents.main]\nsystem_prompt = "from project"\n[delegation]\nmax_concurrent = 6\n',
    );
    const explicit = join(root, 'explicit.toml');
    writeFileSync(explicit, '[delegation]\nmax_concurrent = 9\n[ui]\nlanguage = "es"\n');

    const loaded = loadConfig({ cwd, env, explicitPath: explicit });
    expect(loaded.sources).toEqual([userFile, projectFile, explicit]);
    const { config } = loaded;
    expect(config.providers.local).toMatchObject({
      model: 'llama3',
      temperature: 0.2,
      base_url: 'http://127.0.0.1:11434/v1',
      headers: { 'X-A': 'user', 'X-B': 'project' },
    });
    expect(config.agents.main).toMatchObject({ system_prompt: 'from project', description: 'user main' });
    expect(config.delegation).toMatchObject({ max_concurrent: 9, max_children_per_agent: 2 });
    expect(config.ui.language).toBe('es');
    // A file that defines agents replaces the built-in agent of that name only (#20 item 6).
    expect(Object.keys(config.agents)).toEqual(['main', 'researcher', 'reviewer']);
  });

  it('a list in a later file replaces the earlier list', () => {
    writeFileSync(userFile, `${USER}\n[risk_profiles.default]\nauto_approve = ["read_file", "list_files", "shell"]\n`);
    writeFileSync(projectFile, '[risk_profiles.default]\nauto_approve = ["read_file"]\n');
    expect(loadConfig({ cwd, env }).config.risk_profiles.default.auto_approve).toEqual(['read_file']);
  });

  it('a relative explicit path is resolved against cwd', () => {
    writeFileSync(join(cwd, 'alt.toml'), USER);
    const loaded = loadConfig({ cwd, env, explicitPath: 'alt.toml' });
    expect(loaded.sources).toEqual([join(cwd, 'alt.toml')]);
  });

  it('an explicit path that does not exist is an error naming it', () => {
    const missing = join(root, 'nope.toml');
    const err = configErrorOf(() => loadConfig({ cwd, env, explicitPath: missing }));
    expect(err.file).toBe(missing);
    expect(err.message).toBe(`${missing}: config file not found`);
  });

  it('an unreadable config path (a directory) is an error naming it', () => {
    mkdirSync(join(root, 'dir.toml'));
    const err = configErrorOf(() => loadConfig({ cwd, env, explicitPath: join(root, 'dir.toml') }));
    expect(err.message).toBe(`${join(root, 'dir.toml')}: cannot read the config file (EISDIR)`);
  });

  it('the same file reached as user and project config is read once', () => {
    const shared = mkdtempSync(join(tmpdir(), 'arbor-shared-'));
    try {
      mkdirSync(join(shared, '.arbor'));
      writeFileSync(join(shared, '.arbor', 'config.toml'), USER);
      const files = configFiles({ cwd: shared, env: { ARBOR_HOME: join(shared, '.arbor') } });
      expect(files).toEqual([join(shared, '.arbor', 'config.toml')]);
    } finally {
      rmSync(shared, { recursive: true, force: true });
    }
  });

  it('ARBOR_HOME unset falls back to ~/.arbor from HOME', () => {
    const fakeHome = join(root, 'h');
    mkdirSync(join(fakeHome, '.arbor'), { recursive: true });
    writeFileSync(join(fakeHome, '.arbor', 'config.toml'), USER);
    expect(loadConfig({ cwd, env: { HOME: fakeHome } }).sources).toEqual([join(fakeHome, '.arbor', 'config.toml')]);
  });
});

describe('errors name the file the offending key came from', () => {
  it('a bad value in the user file is reported against the user file', () => {
    writeFileSync(userFile, USER.replace('temperature = 0.2', 'temperature = 7'));
    writeFileSync(projectFile, '[providers.local]\nmodel = "llama3"\n');
    const err = configErrorOf(() => loadConfig({ cwd, env }));
    expect(err.message).toBe(`${userFile}: providers.local.temperature: must be between 0 and 2, got 7`);
  });

  it('a reference set in the project file is reported against the project file', () => {
    writeFileSync(userFile, USER);
    writeFileSync(projectFile, '[agents.main]\nprovider = "locl"\n');
    const err = configErrorOf(() => loadConfig({ cwd, env }));
    expect(err.file).toBe(projectFile);
    expect(err.message).toBe(`${projectFile}: agents.main.provider: unknown provider "locl" (known: local)`);
  });

  it('a missing key is blamed on the last file that set its table', () => {
    writeFileSync(userFile, USER);
    writeFileSync(projectFile, '[providers.other]\ntype = "anthropic"\n');
    const err = configErrorOf(() => loadConfig({ cwd, env }));
    expect(err.message).toBe(`${projectFile}: providers.other.model: missing required key; every provider except "offline" needs a model`);
  });

  it('an override of a starter value is blamed on the file', () => {
    writeFileSync(projectFile, '[runtime_profiles.agentic]\nmax_delegation_depth = 0\n');
    const err = configErrorOf(() => loadConfig({ cwd, env }));
    expect(err.message).toBe(`${projectFile}: runtime_profiles.agentic.max_delegation_depth: must be between 1 and 10, got 0`);
  });

  it('a syntax error in the explicit file names that file', () => {
    writeFileSync(userFile, USER);
    const explicit = join(root, 'bad.toml');
    writeFileSync(explicit, '[ui]\nlanguage = "es\n');
    const err = configErrorOf(() => loadConfig({ cwd, env, explicitPath: explicit }));
    expect(err.file).toBe(explicit);
    expect([err.line, err.column]).toEqual([2, 15]);
    expect(err.message.startsWith(`${explicit}:2:15: invalid TOML: `)).toBe(true);
  });
});

describe('starter fill-in', () => {
  it('a file without providers or agents keeps the starter and tweaks it', () => {
    writeFileSync(projectFile, '[risk_profiles.trusted]\nmax_actions_per_hour = 100\n[ui]\nlanguage = "es"\n');
    const loaded = loadConfig({ cwd, env: { ...env, OPENAI_API_KEY: 'sk-test' } });
    expect(Object.keys(loaded.config.agents)).toEqual(['main', 'researcher', 'reviewer']);
    expect(loaded.config.risk_profiles.trusted).toMatchObject({ max_actions_per_hour: 100, delegation_policy: { mode: 'allow' } });
    // A config file exists, so the environment does not pick the provider.
    expect(loaded.autoDetectedFrom).toBeUndefined();
    expect(loaded.config.agents.main.provider).toBe('offline');
  });
});
