// A caller's authority is its own profile AND every bounded ceiling above it, on every axis
// the tools check: tool names, approvals, paths and commands — and what the model is told.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  capToCeilings,
  ceilingsForBoundedHop,
  ceilingsForIndependentHop,
  combinedApprovalRequirement,
  confinePath,
} from '../../../src/tools/authority.js';
import { readFileTool } from '../../../src/tools/readFile.js';
import { ToolRegistry, builtinTools } from '../../../src/tools/registry.js';
import { COMMAND_NOT_ALLOWED, SHELL_NO_COMMAND_ALLOWED, shellTool } from '../../../src/tools/shell.js';
import type { ToolContext } from '../../../src/tools/types.js';
import { caller, config, context, risk } from './helpers.js';

let work: string;
beforeEach(() => {
  work = realpathSync(mkdtempSync(join(tmpdir(), 'arbor-authority-')));
  mkdirSync(join(work, 'inner'));
  writeFileSync(join(work, 'top.txt'), 'top');
  writeFileSync(join(work, 'inner', 'in.txt'), 'in');
});
afterEach(() => rmSync(work, { recursive: true, force: true }));

const ceilinged = (own = risk(), ceiling = risk({ name: 'caller' })): ToolContext => {
  const c = context({ cwd: work, risk: own });
  return { ...c, caller: { ...c.caller, ceilings: [ceiling] } };
};

describe('authority', () => {
  it('ceilings grow on bounded hops and pass unchanged through independent ones', () => {
    const root = caller(risk({ name: 'root' }));
    const bounded = { ...caller(risk({ name: 'mid' })), ceilings: ceilingsForBoundedHop(root) };
    expect(bounded.ceilings.map((p) => p.name)).toEqual(['root']);
    const independent = { ...caller(risk({ name: 'wide' })), ceilings: ceilingsForIndependentHop(bounded) };
    expect(independent.ceilings.map((p) => p.name)).toEqual(['root']);
    expect(ceilingsForIndependentHop(root)).toEqual([]);
    expect(ceilingsForBoundedHop(independent).map((p) => p.name)).toEqual(['wide', 'root']);
  });

  it('a tool is kept and auto-approved only where every profile agrees', () => {
    const reg = new ToolRegistry(builtinTools());
    const own = risk({ auto_approve: ['shell', 'read_file'] });
    const ceiling = risk({ allowed_tools: ['read_file', 'shell'], auto_approve: ['read_file'] });
    expect(capToCeilings(reg, { risk: own, ceilings: [ceiling] }).names()).toEqual(['shell', 'read_file']);
    const shell = reg.get('shell')!;
    expect(combinedApprovalRequirement(shell, [own])).toBe('auto');
    expect(combinedApprovalRequirement(shell, [own, ceiling])).toBe('ask');
    expect(combinedApprovalRequirement(reg.get('read_file')!, [own, ceiling])).toBe('auto');
  });

  it("paths must be inside every profile's roots and outside every forbidden path", async () => {
    const ctx = ceilinged(risk(), risk({ name: 'caller', allowed_roots: ['inner'] }));
    expect(confinePath('inner/in.txt', work, ctx.caller).ok).toBe(true);
    expect(confinePath('top.txt', work, ctx.caller).ok).toBe(false);
    expect((await readFileTool.run({ path: 'top.txt' }, ctx)).error).toContain('outside the allowed roots (inner)');
    const forbidding = ceilinged(risk(), risk({ name: 'caller', forbidden_paths: ['inner'] }));
    expect((await readFileTool.run({ path: 'inner/in.txt' }, forbidding)).error).toContain("inside the forbidden path 'inner'");
    expect(readFileTool.spec(ctx.caller, config).description).toContain('inside the allowed roots (.) and also inside (inner)');
  });

  it('a command must be in every non-empty allowed_commands list, and the description says which', async () => {
    const ctx = ceilinged(risk({ allowed_commands: ['echo', 'ls'] }), risk({ name: 'caller', allowed_commands: ['echo'] }));
    expect((await shellTool.run({ command: 'echo hi' }, ctx)).output).toBe('hi\n[exit code: 0]');
    expect((await shellTool.run({ command: 'ls' }, ctx)).error).toBe(COMMAND_NOT_ALLOWED('ls', ['echo']));
    expect(shellTool.spec(ctx.caller, config).description).toContain(
      'Only these commands are allowed (the first word of each command in a pipeline or list): echo.',
    );
    const none = ceilinged(risk({ allowed_commands: ['ls'] }), risk({ name: 'caller', allowed_commands: ['echo'] }));
    expect(shellTool.spec(none.caller, config).description).toContain(SHELL_NO_COMMAND_ALLOWED);
  });
});
