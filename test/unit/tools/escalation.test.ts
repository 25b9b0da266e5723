import { describe, it, expect } from 'vitest';
import { ensureNoEscalation, type EscalationSubject } from '../../../src/tools/escalation.js';
import { risk } from './helpers.js';

const cwd = '/work/ws';
const home = '/home/u';

function parent(overrides: Partial<EscalationSubject> = {}): EscalationSubject {
  return {
    ...risk({
      allowed_tools: ['read_file', 'list_files', 'shell', 'spawn_subagent'],
      excluded_tools: ['write_file'],
      auto_approve: ['read_file', 'list_files'],
      always_ask: ['shell'],
      allowed_roots: ['.', '~/notes'],
      forbidden_paths: ['~/.ssh', '.env'],
      allowed_commands: ['git', 'ls'],
      max_actions_per_hour: 100,
      max_cost_per_day_cents: 500,
      delegation_policy: { mode: 'forbidden' },
    }),
    shell_timeout_secs: 60,
    ...overrides,
  };
}

function check(child: Partial<EscalationSubject>, p: Partial<EscalationSubject> = {}) {
  return ensureNoEscalation(parent(p), parent(child), { cwd, home });
}

describe('ensureNoEscalation', () => {
  it('accepts an identical child', () => {
    expect(check({})).toEqual({ ok: true });
  });

  it('accepts a child narrower on every axis at once', () => {
    expect(
      check({
        allowed_tools: ['read_file'],
        excluded_tools: ['write_file', 'shell'],
        auto_approve: [],
        always_ask: ['shell', 'read_file'],
        allowed_roots: ['src', '/home/u/notes/work'],
        forbidden_paths: ['~/.ssh', '.env', 'secrets'],
        allowed_commands: ['git'],
        max_actions_per_hour: 10,
        max_cost_per_day_cents: 50,
        shell_timeout_secs: 5,
        deny_all_tools: true,
      }),
    ).toEqual({ ok: true });
  });

  it('accepts a child forbidding a wider path than the parent did', () => {
    expect(check({ forbidden_paths: ['~', '.env'] })).toEqual({ ok: true });
  });

  it('treats an unlimited or unrestricted parent as allowing anything on that axis', () => {
    const open = { allowed_commands: [], allowed_tools: [], max_actions_per_hour: 0, max_cost_per_day_cents: 0 };
    expect(check({ ...open, allowed_commands: ['rm'], max_actions_per_hour: 1e6 }, open)).toEqual({ ok: true });
  });

  it.each<[string, Partial<EscalationSubject>, Partial<EscalationSubject>?]>([
    ['allowed_roots', { allowed_roots: ['..'] }],
    ['allowed_roots', { allowed_roots: ['/etc'] }],
    ['allowed_roots', { allowed_roots: ['~'] }],
    ['allowed_commands', { allowed_commands: ['git', 'rm'] }],
    ['allowed_commands', { allowed_commands: [] }],
    ['forbidden_paths', { forbidden_paths: ['~/.ssh'] }],
    ['forbidden_paths', { forbidden_paths: ['~/.ssh/id_rsa', '.env'] }],
    ['max_actions_per_hour', { max_actions_per_hour: 101 }],
    ['max_actions_per_hour', { max_actions_per_hour: 0 }],
    ['max_cost_per_day_cents', { max_cost_per_day_cents: 501 }],
    ['max_cost_per_day_cents', { max_cost_per_day_cents: 0 }],
    ['shell_timeout_secs', { shell_timeout_secs: 61 }],
    ['allowed_tools', { allowed_tools: ['read_file', 'write_file'] }],
    ['allowed_tools', { allowed_tools: [] }],
    ['excluded_tools', { excluded_tools: [] }],
    ['deny_all_tools', { deny_all_tools: false }, { deny_all_tools: true }],
    ['auto_approve', { auto_approve: ['read_file', 'shell'] }],
    ['shell_env_passthrough', { shell_env_passthrough: ['GITHUB_TOKEN'] }],
    ['always_ask', { always_ask: [] }],
    ['delegation_policy', { delegation_policy: { mode: 'allow' } }],
  ])('rejects a child that widens %s (%j)', (field, child, parentOverrides) => {
    const result = check(child, parentOverrides ?? {});
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.field).toBe(field);
      expect(result.error.startsWith(`${field}: `)).toBe(true);
    }
  });

  it('names the offending values in the detail', () => {
    const result = check({ allowed_commands: ['git', 'rm'] });
    expect(result).toEqual({ ok: false, field: 'allowed_commands', error: "allowed_commands: child adds 'rm' not allowed by the parent" });
  });

  it('subagent_approvals may only narrow: deny < ask < allow < unset', () => {
    expect(check({ subagent_approvals: 'deny' }, { subagent_approvals: 'ask' })).toEqual({ ok: true });
    expect(check({ subagent_approvals: 'ask' }, {})).toEqual({ ok: true });
    expect(check({ subagent_approvals: 'allow' }, { subagent_approvals: 'ask' })).toEqual({
      ok: false,
      field: 'subagent_approvals',
      error: "subagent_approvals: child sets 'allow', looser than the parent's 'ask'",
    });
    expect(check({}, { subagent_approvals: 'deny' })).toEqual({
      ok: false,
      field: 'subagent_approvals',
      error: "subagent_approvals: child leaves it unset, looser than the parent's 'deny'",
    });
  });

  it('allows delegation_policy to narrow from allow to forbidden', () => {
    expect(check({ delegation_policy: { mode: 'forbidden' } }, { delegation_policy: { mode: 'allow' } })).toEqual({ ok: true });
  });
});
