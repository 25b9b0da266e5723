// [delegation] subagent_approvals and its alias subagent_auto_approve, and the per-profile
// narrowing: every accepted form with the mode it resolves to, every refused form with its
// exact message, key path and file (the golden style of configSchema.test.ts).
import { beforeAll, describe, expect, it } from 'vitest';
import { setLanguage } from '../../../src/i18n/index.js';
import { configuredSubagentApprovals, effectiveSubagentApprovals } from '../../../src/config/subagentApprovals.js';
import { loadConfigFromTexts } from '../../../src/config/load.js';
import { findUnknownKeys } from '../../../src/config/schema.js';
import { BASE, FILE, load, loadError } from './helpers.js';

beforeAll(() => setLanguage('en'));

const withDelegation = (lines: string) => `${BASE}\n[delegation]\n${lines}\n`;

describe('[delegation] subagent_approvals', () => {
  it.each([
    ['nothing set: deny (the default, as before)', '', 'deny'],
    ['subagent_auto_approve = true alone: its alias of allow', 'subagent_auto_approve = true', 'allow'],
    ['subagent_auto_approve = false alone', 'subagent_auto_approve = false', 'deny'],
    ['"ask"', 'subagent_approvals = "ask"', 'ask'],
    ['"deny"', 'subagent_approvals = "deny"', 'deny'],
    ['"allow"', 'subagent_approvals = "allow"', 'allow'],
    ['both, agreeing', 'subagent_auto_approve = true\nsubagent_approvals = "allow"', 'allow'],
    ['false says nothing: subagent_approvals decides', 'subagent_auto_approve = false\nsubagent_approvals = "ask"', 'ask'],
  ] as const)('%s', (_label, lines, mode) => {
    const { config, warnings } = load(withDelegation(lines));
    expect(configuredSubagentApprovals(config.delegation)).toBe(mode);
    expect(warnings).toEqual([]);
  });

  it('the parsed config keeps only what was written (absent stays absent)', () => {
    expect(load(BASE).config.delegation).not.toHaveProperty('subagent_approvals');
    expect(load(withDelegation('subagent_approvals = "ask"')).config.delegation.subagent_approvals).toBe('ask');
  });

  it.each([
    [
      'an unknown mode',
      'subagent_approvals = "sometimes"',
      'delegation.subagent_approvals',
      'must be one of "deny", "ask", "allow", got "sometimes"',
    ],
    ['a wrong type', 'subagent_approvals = true', 'delegation.subagent_approvals', 'expected a string, got boolean true'],
    [
      'the alias set to true with another mode',
      'subagent_auto_approve = true\nsubagent_approvals = "ask"',
      'delegation.subagent_approvals',
      '"ask" conflicts with subagent_auto_approve = true (its older spelling of "allow"); keep one of the two',
    ],
    [
      'the alias set to true with deny',
      'subagent_auto_approve = true\nsubagent_approvals = "deny"',
      'delegation.subagent_approvals',
      '"deny" conflicts with subagent_auto_approve = true (its older spelling of "allow"); keep one of the two',
    ],
  ])('refuses %s', (_label, lines, keyPath, problem) => {
    const err = loadError(withDelegation(lines));
    expect(err.message).toBe(`${FILE}: ${keyPath}: ${problem}`);
    expect(err.keyPath).toBe(keyPath);
    expect(err.file).toBe(FILE);
  });

  it('the conflict names the file that set subagent_approvals when the two come from different layers', () => {
    const global = { file: '/home/u/.arbor/config.toml', text: `${BASE}\n[delegation]\nsubagent_auto_approve = true\n` };
    const project = { file: '/p/.arbor/config.toml', text: '[delegation]\nsubagent_approvals = "ask"\n' };
    try {
      loadConfigFromTexts([global, project], {});
      expect.unreachable('expected a config error');
    } catch (err) {
      expect((err as Error).message).toBe(
        '/p/.arbor/config.toml: delegation.subagent_approvals: "ask" conflicts with subagent_auto_approve = true (its older spelling of "allow"); keep one of the two',
      );
    }
  });

  it('is a known key in [delegation] and in risk profiles (no unknown-key warning)', () => {
    expect(findUnknownKeys({ delegation: { subagent_approvals: 'ask' }, risk_profiles: { x: { subagent_approvals: 'deny' } } })).toEqual(
      [],
    );
  });
});

describe('per risk profile: narrowing only', () => {
  const profile = (delegation: string, value: string) =>
    `${BASE}\n[delegation]\n${delegation}\n[risk_profiles.strict]\nsubagent_approvals = ${value}\n`;

  it.each([
    ['ask narrowed to deny', 'subagent_approvals = "ask"', '"deny"'],
    ['allow narrowed to ask', 'subagent_approvals = "allow"', '"ask"'],
    ['the alias narrowed to ask', 'subagent_auto_approve = true', '"ask"'],
    ['the same value', 'subagent_approvals = "ask"', '"ask"'],
    ['deny kept', '', '"deny"'],
  ])('accepts %s', (_label, delegation, value) => {
    const { config } = load(profile(delegation, value));
    expect(config.risk_profiles.strict.subagent_approvals).toBe(JSON.parse(value));
  });

  it.each([
    ['ask where [delegation] denies', '', '"ask"', '"ask" is looser than [delegation] subagent_approvals = "deny"'],
    [
      'allow where [delegation] asks',
      'subagent_approvals = "ask"',
      '"allow"',
      '"allow" is looser than [delegation] subagent_approvals = "ask"',
    ],
  ])('refuses %s, naming the profile key', (_label, delegation, value, problem) => {
    const err = loadError(profile(delegation, value));
    expect(err.message).toBe(`${FILE}: risk_profiles.strict.subagent_approvals: ${problem}; a risk profile can only make it stricter`);
    expect(err.keyPath).toBe('risk_profiles.strict.subagent_approvals');
  });

  it('a wrong value in a profile is named with the allowed ones', () => {
    const err = loadError(`${BASE}\n[risk_profiles.strict]\nsubagent_approvals = "never"\n`);
    expect(err.message).toBe(`${FILE}: risk_profiles.strict.subagent_approvals: must be one of "deny", "ask", "allow", got "never"`);
  });

  it('the strictest of [delegation] and every binding profile applies, naming the profile that narrowed it', () => {
    expect(effectiveSubagentApprovals('allow', [{ name: 'a' }, { name: 'b', subagent_approvals: 'ask' }])).toEqual({
      mode: 'ask',
      narrowedBy: 'b',
    });
    expect(
      effectiveSubagentApprovals('ask', [
        { name: 'a', subagent_approvals: 'deny' },
        { name: 'b', subagent_approvals: 'ask' },
      ]),
    ).toEqual({ mode: 'deny', narrowedBy: 'a' });
    // A looser profile (refused by the config check) could never widen it here either.
    expect(effectiveSubagentApprovals('deny', [{ name: 'a', subagent_approvals: 'allow' }])).toEqual({ mode: 'deny' });
  });
});
