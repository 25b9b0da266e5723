// One way to define a tool. The prelude every tool used to repeat (count the action,
// parse the arguments, refuse with the parse error, build the model-facing schema) is
// written once here; a tool states its name once, its arguments as a zod schema, its
// description per caller, and a `run` that receives typed arguments. The result is the
// plain `Tool` of types.ts, so the registry, policy, approvals and ceilings keep working
// by name.
import type { z } from 'zod';
import type { ArborConfig } from '../config/types.js';
import type { ToolSpec } from '../model/messages.js';
import { modelParameters, parseToolArgs, withoutNulls, type ArgsErrorMap } from './toolArgs.js';
import { fail, type Tool, type ToolCaller, type ToolContext, type ToolDisplay, type ToolResult } from './types.js';

export interface ToolDefinition<S extends z.ZodType> {
  readonly name: string;
  /** The arguments, parsed before `run`; their JSON Schema is what the model reads unless
   * `parameters` says otherwise. */
  readonly args: S;
  /** The message for an argument problem the schema gives no message of its own
   * (e.g. invalidArgsMap: "Invalid arguments for <tool>: ..."). */
  readonly argsError?: ArgsErrorMap;
  /** What the raw arguments become before parsing. Default: a null value counts as absent
   * (withoutNulls), as the file and shell tools always took it. */
  readonly prepare?: (raw: unknown) => unknown;
  /** The JSON Schema the model reads, when it is not `args`'s own (delegate's flat object
   * with a per-caller roster, an MCP server's schema). */
  readonly parameters?: (caller: ToolCaller, config: ArborConfig) => Record<string, unknown>;
  /** Built per caller, so it can state the caller's real limits from config. */
  readonly description: (caller: ToolCaller, config: ArborConfig) => string;
  readonly asksByDefault: boolean;
  readonly readOnlyHint?: boolean;
  readonly duplicateExempt?: boolean;
  /** Whether a call counts against max_actions_per_hour (default true). Counted once,
   * before the arguments are read, so a malformed call still costs an action. Tools that
   * start runs (spawn_subagent, delegate) say false: their children's actions count. */
  readonly countsAsAction?: boolean;
  run(args: z.output<S>, ctx: ToolContext): Promise<ToolResult>;
  /** See Tool.preview: receives the arguments parsed as for run; not counted as an action. */
  preview?(args: z.output<S>, ctx: ToolContext): Promise<ToolDisplay | undefined>;
}

export function defineTool<S extends z.ZodType>(def: ToolDefinition<S>): Tool {
  const prepare = def.prepare ?? withoutNulls;
  const parameters = def.parameters ?? (() => modelParameters(def.args));
  const counts = def.countsAsAction ?? true;
  return {
    name: def.name,
    asksByDefault: def.asksByDefault,
    ...(def.readOnlyHint !== undefined ? { readOnlyHint: def.readOnlyHint } : {}),
    ...(def.duplicateExempt !== undefined ? { duplicateExempt: def.duplicateExempt } : {}),
    spec(caller: ToolCaller, config: ArborConfig): ToolSpec {
      return { name: def.name, description: def.description(caller, config), parameters: parameters(caller, config) };
    },
    async run(raw: unknown, ctx: ToolContext): Promise<ToolResult> {
      if (counts) {
        const limited = ctx.tracker.recordAction();
        if (limited) return fail(limited);
      }
      const parsed = parseToolArgs(def.args, prepare(raw), def.argsError);
      if (!parsed.ok) return fail(parsed.error);
      return def.run(parsed.args, ctx);
    },
    ...(def.preview ? { preview: previewOf(def, prepare) } : {}),
  };
}

function previewOf<S extends z.ZodType>(
  def: ToolDefinition<S>,
  prepare: (raw: unknown) => unknown,
): (raw: unknown, ctx: ToolContext) => Promise<ToolDisplay | undefined> {
  const preview = def.preview!;
  return async (raw, ctx) => {
    const parsed = parseToolArgs(def.args, prepare(raw), def.argsError);
    if (!parsed.ok) return undefined;
    return preview(parsed.args, ctx).catch(() => undefined);
  };
}
