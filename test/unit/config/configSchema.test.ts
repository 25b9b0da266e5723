// The config is parsed by a zod schema (src/config/schema.ts). configSchema.golden.json was
// recorded from the hand-written validator it replaced, over configCorpus.ts: every config,
// every warning and every error (message, key path, file) must come out the same.
import { beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { setLanguage } from '../../../src/i18n/index.js';
import { loadConfigFromTexts } from '../../../src/config/load.js';
import { ConfigError } from '../../../src/config/configError.js';
import { defaultDelegation, defaultRiskProfile, defaultRuntimeProfile } from '../../../src/config/defaults.js';
import { findUnknownKeys } from '../../../src/config/schema.js';
import { configCorpus } from './configCorpus.js';
import { DEFAULT_DELEGATION } from './helpers.js';

type Outcome =
  { config: unknown; warnings: string[]; autoDetectedFrom: string | null } | { error: string; keyPath: string | null; file: string | null };
const golden = JSON.parse(readFileSync(new URL('./configSchema.golden.json', import.meta.url), 'utf8')) as Outcome[];

beforeAll(() => setLanguage('en'));

function outcome(texts: string[]): Outcome {
  const layers = texts.map((text, i) => ({ file: `/layer${i}/config.toml`, text }));
  try {
    const l = loadConfigFromTexts(layers, {});
    return JSON.parse(JSON.stringify({ config: l.config, warnings: l.warnings, autoDetectedFrom: l.autoDetectedFrom ?? null })) as Outcome;
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    return { error: err.message, keyPath: err.keyPath ?? null, file: err.file ?? null };
  }
}

describe('the schema gives what the hand-written validator gave', () => {
  expect(golden).toHaveLength(configCorpus.length);
  for (const [i, texts] of configCorpus.entries()) {
    it(`#${i}: ${JSON.stringify(texts).slice(0, 90)}`, () => {
      const got = outcome(texts);
      const want = golden[i];
      // A date is shown as the runtime prints it; only the text before it is ours.
      if ('error' in want && 'error' in got && want.error.includes(' got date ')) {
        expect(got.error.split(' got date ')[0]).toBe(want.error.split(' got date ')[0]);
        expect(got.keyPath).toBe(want.keyPath);
        return;
      }
      expect(got).toEqual(want);
    });
  }
});

describe('defaults and unknown keys come from the schema', () => {
  it('built-in profiles are the schema defaults', () => {
    expect(defaultRiskProfile('x')).toMatchObject({
      name: 'x',
      auto_approve: ['read_file', 'list_files', 'grep', 'glob'],
      delegation_policy: { mode: 'forbidden' },
    });
    expect(defaultRuntimeProfile('y')).toMatchObject({
      name: 'y',
      max_tool_iterations: 10,
      shell_timeout_secs: 60,
      max_delegation_depth: 3,
    });
    expect(defaultDelegation()).toEqual(DEFAULT_DELEGATION);
    // Fresh objects each time: a caller changing one cannot change the next.
    defaultRiskProfile('a').auto_approve.push('shell');
    expect(defaultRiskProfile('b').auto_approve).toEqual(['read_file', 'list_files', 'grep', 'glob']);
  });

  it('finds unknown keys through tables, named tables and lists', () => {
    const data = {
      providers: { p: { type: 'offline', colour: 1, pricing: { input_per_mtok: 1, x: 2 } } },
      agents: { a: { delegates: ['b', { agent: 'b', mood: 1 }] } },
      delegation: { runaway: { foo: 1 } },
      nope: true,
    };
    expect(findUnknownKeys(data)).toEqual([
      ['providers', 'p', 'colour'],
      ['providers', 'p', 'pricing', 'x'],
      ['agents', 'a', 'delegates', 1, 'mood'],
      ['delegation', 'runaway', 'foo'],
      ['nope'],
    ]);
  });
});
