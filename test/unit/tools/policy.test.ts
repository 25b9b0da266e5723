import { describe, it, expect } from 'vitest';
import { ToolRegistry, builtinTools } from '../../../src/tools/registry.js';
import { applyPolicyToolFilter, toolAllowedByProfile } from '../../../src/tools/policy.js';
import type { Tool } from '../../../src/tools/types.js';
import { ok } from '../../../src/tools/types.js';
import { risk } from './helpers.js';

function fakeTool(name: string): Tool {
  return {
    name,
    asksByDefault: false,
    spec: () => ({ name, description: name, parameters: { type: 'object' } }),
    run: async () => ok(name),
  };
}

const registry = new ToolRegistry([...builtinTools(), fakeTool('spawn_subagent'), fakeTool('delegate')]);

describe('applyPolicyToolFilter', () => {
  it('keeps every tool when allowed_tools is empty: an empty list is not deny-all', () => {
    expect(applyPolicyToolFilter(registry, risk({ allowed_tools: [] })).names()).toEqual(registry.names());
  });

  it('hides every tool when deny_all_tools is set, whatever allowed_tools says', () => {
    const filtered = applyPolicyToolFilter(registry, risk({ deny_all_tools: true, allowed_tools: ['shell'] }));
    expect(filtered.names()).toEqual([]);
  });

  it('keeps only exact names from a non-empty allowed_tools', () => {
    const filtered = applyPolicyToolFilter(registry, risk({ allowed_tools: ['read_file', 'spawn', 'SHELL', 'delegate'] }));
    expect(filtered.names()).toEqual(['read_file', 'delegate']);
  });

  it('subtracts excluded_tools from an unrestricted profile', () => {
    const filtered = applyPolicyToolFilter(registry, risk({ excluded_tools: ['shell', 'spawn_subagent'] }));
    expect(filtered.names()).toEqual(['read_file', 'write_file', 'list_files', 'edit_file', 'grep', 'glob', 'delegate']);
  });

  it('subtracts excluded_tools from an allow-list too', () => {
    const filtered = applyPolicyToolFilter(
      registry,
      risk({ allowed_tools: ['read_file', 'spawn_subagent'], excluded_tools: ['spawn_subagent'] }),
    );
    expect(filtered.names()).toEqual(['read_file']);
  });

  it('leaves the source registry untouched', () => {
    applyPolicyToolFilter(registry, risk({ deny_all_tools: true }));
    expect(registry.names()).toHaveLength(9);
  });
});

describe('toolAllowedByProfile', () => {
  it.each([
    [{}, 'spawn_subagent', true],
    [{ allowed_tools: ['delegate'] }, 'spawn_subagent', false],
    [{ allowed_tools: ['spawn_subagent'] }, 'spawn_subagent', true],
    [{ excluded_tools: ['spawn_subagent'] }, 'spawn_subagent', false],
    [{ deny_all_tools: true }, 'read_file', false],
  ] as const)('%j / %s → %s', (overrides, name, expected) => {
    expect(toolAllowedByProfile(risk(overrides as never), name)).toBe(expected);
  });
});
