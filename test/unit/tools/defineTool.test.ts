// defineTool: the prelude every tool shares, written once. The action is counted before the
// arguments are read, the arguments are parsed with the schema before `run` (which gets
// them typed), the model reads the schema and a per-caller description, and the result is
// a plain Tool the registry keeps by name.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createActionTracker } from '../../../src/tools/actionTracker.js';
import { defineTool } from '../../../src/tools/defineTool.js';
import { ToolRegistry } from '../../../src/tools/registry.js';
import { invalidArgsMap } from '../../../src/tools/toolArgs.js';
import { ok } from '../../../src/tools/types.js';
import { caller, config, context, risk } from './helpers.js';

const cwd = mkdtempSync(join(tmpdir(), 'arbor-define-'));
afterAll(() => rmSync(cwd, { recursive: true, force: true }));

function echoTool(opts: { countsAsAction?: boolean } = {}) {
  const seen: Array<{ text: string; times?: number }> = [];
  const tool = defineTool({
    name: 'echo',
    args: z.object({ text: z.string().describe('What to echo.'), times: z.number().optional() }),
    argsError: invalidArgsMap('echo', '{"text": string}'),
    description: (c) => `Echo for ${c.alias}.`,
    asksByDefault: false,
    ...opts,
    async run(args) {
      seen.push(args);
      return ok(args.text.repeat(args.times ?? 1), { kind: 'read', path: 'echo', bytes: args.text.length });
    },
  });
  return { tool, seen };
}

describe('defineTool', () => {
  it('parses before run, which receives the typed arguments; null counts as absent', async () => {
    const { tool, seen } = echoTool();
    const r = await tool.run({ text: 'ab', times: null }, context({ cwd }));
    expect(r).toEqual({ success: true, output: 'ab', display: { kind: 'read', path: 'echo', bytes: 2 } });
    expect(seen).toEqual([{ text: 'ab' }]);
  });

  it('refuses bad arguments with the error map and never calls run', async () => {
    const { tool, seen } = echoTool();
    const r = await tool.run({ text: 3 }, context({ cwd }));
    expect(r).toEqual({
      success: false,
      output: '',
      error: `Invalid arguments for echo: 'text' must be a string. Expected {"text": string}.`,
    });
    expect(seen).toEqual([]);
  });

  it('counts one action per call, before parsing, and refuses once the budget is spent', async () => {
    const { tool, seen } = echoTool();
    const tracker = createActionTracker(risk({ max_actions_per_hour: 2 }));
    await tool.run({ text: 1 }, context({ cwd, tracker }));
    await tool.run({ text: 'x' }, context({ cwd, tracker }));
    const third = await tool.run({ text: 'y' }, context({ cwd, tracker }));
    expect(third.success).toBe(false);
    expect(third.error).toMatch(/^Action limit reached: max_actions_per_hour = 2/);
    expect(seen).toEqual([{ text: 'x' }]);
  });

  it('a tool that starts runs does not count an action of its own', async () => {
    const { tool } = echoTool({ countsAsAction: false });
    const tracker = createActionTracker(risk({ max_actions_per_hour: 1 }));
    for (let i = 0; i < 3; i++) expect((await tool.run({ text: 'x' }, context({ cwd, tracker }))).success).toBe(true);
  });

  it('describes itself per caller from the schema, and the registry keeps it by name', () => {
    const { tool } = echoTool();
    const spec = tool.spec(caller(), config);
    expect(spec.name).toBe('echo');
    expect(spec.description).toBe('Echo for main.');
    expect(spec.parameters).toMatchObject({
      type: 'object',
      properties: { text: { type: 'string', description: 'What to echo.' }, times: { type: 'number' } },
      required: ['text'],
      additionalProperties: false,
    });
    const registry = new ToolRegistry([tool]);
    expect(registry.get('echo')).toBe(tool);
    expect(tool.asksByDefault).toBe(false);
  });
});
