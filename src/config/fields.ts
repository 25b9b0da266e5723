// The building blocks of the config schema (schema.ts): zod types that already speak our
// message style. Every issue they raise carries the finished problem text ("expected a
// number, got string \"hot\"", "must be between 1 and 1000, got 0"); validate.ts only adds
// the file and the key path (issueToConfigError). Messages are looked up when an issue is
// raised, so they follow the language set at that time.
import { z } from 'zod';
import { t } from '../i18n/index.js';
import { describeValue, quote } from './errors.js';
import { isTable, type RawTable } from './merge.js';
import { MAX_TIMER_MS } from '../timers/timer.js';

export interface Range {
  min?: number;
  max?: number;
  /** true: min itself is not allowed (e.g. timeouts must be > 0). */
  minExclusive?: boolean;
}

type TypeName = 'table' | 'string' | 'boolean' | 'number' | 'integer' | 'stringList' | 'delegateList' | 'delegateEntry' | 'keyList';

/** "expected <type>, got <value>", or `missing` when the key is absent. */
export const typeError =
  (expected: TypeName, missing?: () => string) =>
  (issue: { input?: unknown }): string =>
    issue.input === undefined && missing
      ? missing()
      : t('config:errors.expectedType', { expected: t(`config:types.${expected}`), got: describeValue(issue.input) });

export const missingKey = () => t('config:errors.missing');

function rangeError({ min, max, minExclusive }: Range) {
  return (issue: { input?: unknown }): string => {
    const value = issue.input as number;
    // An exclusive floor reads badly as "between": such a range says which side was crossed.
    if (min !== undefined && max !== undefined && !minExclusive) return t('config:errors.between', { min, max, value });
    if (max !== undefined && value > max) return t('config:errors.atMost', { max, value });
    return t(minExclusive ? 'config:errors.greaterThan' : 'config:errors.atLeast', { min, value });
  };
}

/** A finite number (integer when asked) inside `range`. */
export function number(range: Range = {}, opts: { integer?: boolean; missing?: () => string } = {}) {
  const expected = opts.integer ? 'integer' : 'number';
  const wrongType = typeError(expected, opts.missing);
  // zod refuses NaN and ±inf alike; inf slips past every lower bound, so it gets its own text.
  let schema = z.number({
    error: (issue) =>
      typeof issue.input === 'number' && !Number.isNaN(issue.input)
        ? t('config:errors.notFinite', { value: issue.input })
        : wrongType(issue),
  });
  // Not z.int(): that also caps at 2^53, which no hand-set limit here ever did.
  if (opts.integer) schema = schema.refine(Number.isInteger, { error: typeError('integer'), abort: true });
  const inRange = rangeError(range);
  if (range.min !== undefined) {
    schema = range.minExclusive ? schema.gt(range.min, { error: inRange }) : schema.min(range.min, { error: inRange });
  }
  if (range.max !== undefined) schema = schema.max(range.max, { error: inRange });
  return schema;
}

export const integer = (range: Range = {}, opts: { missing?: () => string } = {}) => number(range, { ...opts, integer: true });

export function string(opts: { nonEmpty?: boolean; missing?: () => string } = {}) {
  const schema = z.string({ error: typeError('string', opts.missing) });
  return opts.nonEmpty ? schema.refine((s) => s.trim() !== '', { error: () => t('config:errors.empty') }) : schema;
}

export const boolean = () => z.boolean({ error: typeError('boolean') });

/** One of `allowed`; anything else is named with the allowed values. */
export function oneOf<const T extends readonly [string, ...string[]]>(allowed: T, opts: { missing?: () => string } = {}) {
  const wrongType = typeError('string', opts.missing);
  return z.enum(allowed, {
    error: (issue) =>
      typeof issue.input === 'string'
        ? t('config:errors.oneOf', { allowed: allowed.map(quote).join(', '), value: quote(issue.input) })
        : wrongType(issue),
  });
}

export const stringList = () => z.array(string(), { error: typeError('stringList') });

/** A TOML table (not a date, not a list) with these keys; unknown keys are dropped here
 * and reported as warnings by findUnknownKeys. */
export function table<S extends z.core.$ZodLooseShape>(shape: S) {
  return z.custom<RawTable>(isTable, { error: typeError('table') }).pipe(z.object(shape));
}

/** A table whose other keys are kept for a later stage of the same schema. */
export function looseTable<S extends z.core.$ZodLooseShape>(shape: S) {
  return z.custom<RawTable>(isTable, { error: typeError('table') }).pipe(z.looseObject(shape));
}

/** A table of entries named by the user (providers, agents, profiles): each name non-blank,
 * each entry a table. */
export function namedTables<T extends z.ZodType>(entry: T) {
  return z.custom<RawTable>(isTable, { error: typeError('table') }).pipe(
    z.record(
      z.string().refine((name) => name.trim() !== ''),
      entry,
      {
        error: (issue) => (issue.code === 'invalid_key' ? t('config:errors.emptyName') : typeError('table')(issue)),
      },
    ),
  );
}

/** A table of string → string (HTTP headers). */
export const stringMap = () => z.custom<RawTable>(isTable, { error: typeError('table') }).pipe(z.record(z.string(), string()));

const ENV_VAR_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** A range for timeouts and the like: above 0. */
export const positive: Range = { min: 0, minExclusive: true };

/** The longest configured wait that means something: a year. Past it a value is a typo, or
 * "never" spelled as a huge number, and Date arithmetic on it stops being exact. */
export const MAX_DURATION_SECS = 365 * 24 * 3600;
/** A timeout in seconds: more than 0, at most a year (timers/timer.ts waits that long). */
export const duration: Range = { ...positive, max: MAX_DURATION_SECS };
/** MCP request timeouts are armed by the MCP SDK itself with one setTimeout, which takes at
 * most 2^31-1 ms (24.8 days); a longer one would fire at once. */
export const MCP_MAX_TIMEOUT_SECS = Math.floor(MAX_TIMER_MS / 1000);
export const mcpDuration: Range = { ...positive, max: MCP_MAX_TIMEOUT_SECS };

/** The NAME of an environment variable (api_key_env, bearer_token_env, passthrough lists).
 * Never echo the value: a key pasted here by mistake must not end up in an error line. */
export const envVarName = (opts: { missing?: () => string } = {}) =>
  string(opts).refine((name) => ENV_VAR_NAME.test(name), { error: () => t('config:errors.badEnvName') });

export function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}
