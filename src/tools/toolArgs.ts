// Tool arguments, schema first: each tool declares its arguments once, as a zod schema.
// The JSON Schema the model reads is generated from it (modelParameters) and the model's
// arguments are checked against it (parseToolArgs), so the two cannot drift. This is the
// one place a zod error becomes the text the model reads: a schema that names its own
// literal refusal (spawn_subagent's, delegate's protocol strings) keeps it byte for byte;
// every other issue goes through the tool's error map (e.g. invalidArgsMap below).
import { z } from 'zod';

export type ArgsResult<T> = { ok: true; args: T } | { ok: false; error: string };

/** A per-parse error map: the message for an issue no schema gave its own message to. */
export type ArgsErrorMap = (issue: z.core.$ZodRawIssue) => string;

/** The first issue's message: the reference's tools refuse at the first problem. */
export function parseToolArgs<S extends z.ZodType>(schema: S, raw: unknown, errorMap?: ArgsErrorMap): ArgsResult<z.output<S>> {
  const result = schema.safeParse(raw, errorMap ? { error: errorMap } : undefined);
  if (result.success) return { ok: true, args: result.data };
  return { ok: false, error: result.error.issues[0]?.message ?? 'invalid arguments' };
}

/** The JSON Schema sent to the model for an argument object. Unknown keys are ignored when
 * parsing, but the model is told not to send any (additionalProperties: false). */
export function modelParameters(schema: z.ZodType): Record<string, unknown> {
  // Built once per schema: every model call of every run describes its tools, and
  // generating the JSON Schema each time was a visible share of a large fan-out's CPU.
  const cached = parametersCache.get(schema);
  if (cached) return cached;
  // io 'input': a field with a default is optional to the caller and shows its default.
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'throw' }) as Record<string, unknown>;
  delete json.$schema;
  const parameters = deepFreeze({ ...json, additionalProperties: false });
  parametersCache.set(schema, parameters);
  return parameters;
}

const parametersCache = new WeakMap<z.ZodType, Record<string, unknown>>();

/** Shared between callers, so nobody may change it in place. */
function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

export const INVALID_ARGS = (tool: string, problem: string, usage: string) =>
  `Invalid arguments for ${tool}: ${problem}. Expected ${usage}.`;

/** The map for the plain string-argument tools (files, shell): every problem reads
 * "Invalid arguments for <tool>: <problem>. Expected <usage>." */
export function invalidArgsMap(tool: string, usage: string): ArgsErrorMap {
  return (issue) => {
    const key = issue.path?.[0];
    if (key === undefined) return INVALID_ARGS(tool, 'arguments must be a JSON object', usage);
    const problem = issue.input === undefined ? `'${String(key)}' is missing` : `'${String(key)}' must be a string`;
    return INVALID_ARGS(tool, problem, usage);
  };
}

/** These tools have always treated a null value as an absent one. */
export function withoutNulls(args: unknown): unknown {
  if (typeof args !== 'object' || args === null || Array.isArray(args)) return args;
  return Object.fromEntries(Object.entries(args).filter(([, v]) => v !== null));
}

export const nonBlank = (s: string): boolean => s.trim() !== '';
