import { describe, it, expect } from 'vitest';
import { ToolRegistry, builtinTools } from '../../../src/tools/registry.js';
import type { Tool } from '../../../src/tools/types.js';
import { ok } from '../../../src/tools/types.js';
import { caller, config, risk, runtime } from './helpers.js';

function fakeTool(name: string, output = name): Tool {
  return {
    name,
    asksByDefault: false,
    spec: () => ({ name, description: output, parameters: { type: 'object' } }),
    run: async () => ok(output),
  };
}

describe('ToolRegistry', () => {
  it('offers the built-ins in a stable order', () => {
    expect(new ToolRegistry(builtinTools()).names()).toEqual([
      'shell',
      'read_file',
      'write_file',
      'list_files',
      'edit_file',
      'grep',
      'glob',
    ]);
  });

  it('refuses two tools with the same name, naming it', () => {
    expect(() => new ToolRegistry([fakeTool('x'), fakeTool('x')])).toThrow(/'x'/);
  });

  it('returns new registries from without / with / filter and never changes the original', () => {
    const base = new ToolRegistry([fakeTool('a'), fakeTool('b'), fakeTool('c')]);
    const without = base.without('b', 'missing');
    const added = base.with(fakeTool('d'));
    const replaced = base.with(fakeTool('b', 'new b'));
    const filtered = base.filter((t) => t.name !== 'a');
    expect(base.names()).toEqual(['a', 'b', 'c']);
    expect(without.names()).toEqual(['a', 'c']);
    expect(added.names()).toEqual(['a', 'b', 'c', 'd']);
    expect(replaced.names()).toEqual(['a', 'b', 'c']);
    expect(replaced.get('b')?.spec(caller(), config).description).toBe('new b');
    expect(base.get('b')?.spec(caller(), config).description).toBe('b');
    expect(filtered.names()).toEqual(['b', 'c']);
    expect(base.get('missing')).toBeUndefined();
  });

  it('list() hands out a copy', () => {
    const base = new ToolRegistry([fakeTool('a')]);
    base.list().push(fakeTool('b'));
    expect(base.names()).toEqual(['a']);
  });

  it('builds specs per caller so descriptions state the real limits', () => {
    const reg = new ToolRegistry(builtinTools());
    const strict = caller(risk({ allowed_commands: ['git', 'ls'], allowed_roots: ['src'] }), runtime({ shell_timeout_secs: 7 }));
    const specs = reg.specs(strict, config);
    const shell = specs.find((s) => s.name === 'shell')!;
    expect(shell.description).toContain('7s');
    expect(shell.description).toContain('git, ls');
    expect(specs.find((s) => s.name === 'read_file')!.description).toContain('(src)');
    const loose = reg.specs(caller(risk(), runtime({ shell_timeout_secs: 90 })), config);
    expect(loose.find((s) => s.name === 'shell')!.description).toContain('90s');
    expect(loose.find((s) => s.name === 'shell')!.description).toContain('Any command is allowed');
    for (const spec of specs) expect(spec.parameters).toMatchObject({ type: 'object' });
  });
});
