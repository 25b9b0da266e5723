import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setLanguage } from '../../../src/i18n/index.js';
import { loadConfig } from '../../../src/config/load.js';

beforeAll(() => setLanguage('en'));

let root: string;
let base: NodeJS.ProcessEnv;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'arbor-env-'));
  base = { ARBOR_HOME: join(root, 'home'), HOME: root };
});

afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

const OPENAI_KEY = 'sk-proj-THIS-IS-A-SECRET-0123456789';
const ANTHROPIC_KEY = 'sk-ant-ANOTHER-SECRET-9876543210';

describe('provider auto-detection with no config file', () => {
  it('OPENAI_API_KEY: starter agents on openai, key never stored', () => {
    const loaded = loadConfig({ cwd: root, env: { ...base, OPENAI_API_KEY: OPENAI_KEY } });
    expect(loaded.autoDetectedFrom).toBe('OPENAI_API_KEY');
    expect(loaded.config.providers).toEqual({
      openai: { name: 'openai', type: 'openai', model: 'gpt-4.1-mini', api_key_env: 'OPENAI_API_KEY', headers: {} },
    });
    for (const agent of Object.values(loaded.config.agents)) expect(agent.provider).toBe('openai');
    expect(Object.keys(loaded.config.agents)).toEqual(['main', 'researcher', 'reviewer']);
    expect(JSON.stringify(loaded)).not.toContain(OPENAI_KEY);
  });

  it('ANTHROPIC_API_KEY alone: anthropic', () => {
    const loaded = loadConfig({ cwd: root, env: { ...base, ANTHROPIC_API_KEY: ANTHROPIC_KEY } });
    expect(loaded.autoDetectedFrom).toBe('ANTHROPIC_API_KEY');
    expect(loaded.config.providers.anthropic).toEqual({
      name: 'anthropic',
      type: 'anthropic',
      model: 'claude-sonnet-4-5',
      api_key_env: 'ANTHROPIC_API_KEY',
      headers: {},
    });
    expect(loaded.config.agents.main.provider).toBe('anthropic');
    expect(JSON.stringify(loaded)).not.toContain(ANTHROPIC_KEY);
  });

  it('both set: OpenAI wins', () => {
    const loaded = loadConfig({ cwd: root, env: { ...base, OPENAI_API_KEY: OPENAI_KEY, ANTHROPIC_API_KEY: ANTHROPIC_KEY } });
    expect(loaded.autoDetectedFrom).toBe('OPENAI_API_KEY');
    const json = JSON.stringify(loaded);
    expect(json).not.toContain(OPENAI_KEY);
    expect(json).not.toContain(ANTHROPIC_KEY);
  });

  it('a blank key does not count', () => {
    const loaded = loadConfig({ cwd: root, env: { ...base, OPENAI_API_KEY: '  ', ANTHROPIC_API_KEY: '' } });
    expect(loaded.autoDetectedFrom).toBeUndefined();
    expect(Object.keys(loaded.config.providers)).toEqual(['offline']);
    expect(loaded.config.agents.main.provider).toBe('offline');
  });

  it('no keys: offline starter', () => {
    const loaded = loadConfig({ cwd: root, env: base });
    expect(loaded.autoDetectedFrom).toBeUndefined();
    expect(loaded.config.providers.offline).toEqual({ name: 'offline', type: 'offline', model: 'arbor-offline', headers: {} });
  });

  it('a config file that defines a provider turns detection off', () => {
    mkdirSync(join(root, 'home'));
    writeFileSync(join(root, 'home', 'config.toml'), '[providers.p]\ntype = "offline"\n[agents.main]\nprovider = "p"\n');
    const loaded = loadConfig({ cwd: root, env: { ...base, OPENAI_API_KEY: OPENAI_KEY } });
    expect(loaded.autoDetectedFrom).toBeUndefined();
    // p, and the built-in offline provider the built-in agents kept beside main use.
    expect(Object.keys(loaded.config.providers)).toEqual(['p', 'offline']);
  });
});

describe('ui.language', () => {
  it('defaults from LANG', () => {
    expect(loadConfig({ cwd: root, env: { ...base, LANG: 'es_ES.UTF-8' } }).config.ui.language).toBe('es');
    expect(loadConfig({ cwd: root, env: { ...base, LANG: 'de_DE.UTF-8' } }).config.ui.language).toBe('en');
  });

  it('a config value beats LANG', () => {
    mkdirSync(join(root, 'home'));
    writeFileSync(join(root, 'home', 'config.toml'), '[ui]\nlanguage = "en"\n');
    expect(loadConfig({ cwd: root, env: { ...base, LANG: 'es_ES.UTF-8' } }).config.ui.language).toBe('en');
  });
});
