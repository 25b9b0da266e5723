// Tool arguments are declared as zod schemas (src/tools/toolArgs.ts). These tests hold the
// schemas to what the hand-written parsers and JSON Schemas did before them: every refusal
// byte for byte (argSchemas.golden.json was recorded from the old parsers over
// argCorpus.ts) and the model-facing schema property for property.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { readFileTool } from '../../../src/tools/readFile.js';
import { writeFileTool } from '../../../src/tools/writeFile.js';
import { listFilesTool } from '../../../src/tools/listFiles.js';
import { shellTool } from '../../../src/tools/shell.js';
import { spawnSubagentTool } from '../../../src/tools/spawnSubagent.js';
import { parseArgs } from '../../../src/tools/delegate/args.js';
import { delegateSpec } from '../../../src/tools/delegate/spec.js';
import type { ArborConfig } from '../../../src/config/types.js';
import type { Tool } from '../../../src/tools/types.js';
import { caller, config, context } from './helpers.js';
import { A, delegateCorpus, stringToolCorpus } from './argCorpus.js';

interface Golden {
  [tool: string]: unknown;
  delegate: ({ args: unknown } | { error: string })[];
  specs: { name: string; parameters: Record<string, unknown> }[];
  delegateSpec: { parameters: Record<string, unknown> };
}
const golden = JSON.parse(readFileSync(new URL('./argSchemas.golden.json', import.meta.url), 'utf8')) as Golden;

const tools: Tool[] = [readFileTool, writeFileTool, listFilesTool, shellTool, spawnSubagentTool];
// No corpus entry is a complete, valid call of shell or spawn_subagent, so nothing runs.
const ctx = context({ cwd: '/nonexistent-arbor-arg-schemas' });
const specConfig = {
  ...config,
  agents: {},
  delegation: { max_children_per_agent: 5, max_concurrent: 8, run_timeout_secs: 0, subagent_auto_approve: false },
} as unknown as ArborConfig;

describe("refusals are the hand-written parsers' text, byte for byte", () => {
  for (const tool of tools) {
    it(tool.name, async () => {
      const expected = golden[tool.name] as (string | null)[];
      expect(expected).toHaveLength(stringToolCorpus.length);
      for (const [i, args] of stringToolCorpus.entries()) {
        const result = await tool.run(args, ctx);
        expect({ args, error: result.error ?? null }).toEqual({ args, error: expected[i] });
      }
    });
  }

  it('delegate: every action, refusal and normalised request', () => {
    expect(golden.delegate).toHaveLength(delegateCorpus.length);
    for (const [i, args] of delegateCorpus.entries()) {
      const r = parseArgs(args);
      expect({ input: args, out: r.ok ? { args: r.args } : { error: r.error } }).toEqual({ input: args, out: golden.delegate[i] });
    }
  });

  it('spot checks of the literal strings', () => {
    expect(parseArgs({ action: 'await_sessions', task_ids: [A, A.toUpperCase()] })).toEqual({
      ok: false,
      error: `Duplicate task_id '${A}' in task_ids; list each task once.`,
    });
    expect(parseArgs({ agent: 'a', parallel: ['b'] })).toEqual({ ok: false, error: "Give either 'agent' or 'parallel', not both" });
  });
});

describe('the model-facing JSON Schema is generated, and matches the hand-written one', () => {
  for (const [i, tool] of tools.entries()) {
    it(tool.name, () => {
      const spec = tool.spec(caller(), specConfig);
      expect(spec.parameters).toEqual(golden.specs[i].parameters);
      expect(spec.parameters).not.toHaveProperty('$schema');
    });
  }

  it('delegate, with the per-caller roster in the agent description', () => {
    const spec = delegateSpec(caller(), specConfig, false);
    expect(spec.parameters).toEqual(golden.delegateSpec.parameters);
    const props = spec.parameters.properties as Record<string, { description?: string }>;
    expect(props.agent.description).toBe('Alias of the target agent. Delegation is forbidden for you.');
  });

  it('states types, required keys and no extra keys', () => {
    expect(writeFileTool.spec(caller(), specConfig).parameters).toEqual({
      type: 'object',
      properties: {
        path: { type: 'string', description: 'File path, relative to the workspace or absolute.' },
        content: { type: 'string', description: 'The complete new content of the file.' },
      },
      required: ['path', 'content'],
      additionalProperties: false,
    });
    const timeout = (delegateSpec(caller(), specConfig, false).parameters.properties as Record<string, unknown>).timeout_ms;
    expect(timeout).toEqual({
      type: 'integer',
      minimum: 0,
      maximum: 120000,
      default: 30000,
      description: 'How long await_sessions waits (default 30000, capped at 120000).',
    });
  });
});
