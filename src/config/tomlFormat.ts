// Small TOML writers for the config text arbor generates (starter file, saved entries).
import type { DelegateEntry } from './types.js';

const BARE_KEY = /^[A-Za-z0-9_-]+$/;

/** A TOML basic string. JSON escaping is valid TOML except that TOML also forbids a raw
 * DEL character, so that one is escaped too. */
export function tomlString(value: string): string {
  return JSON.stringify(value).replace(/\u007f/g, '\\u007F');
}

export function tomlKey(key: string): string {
  return BARE_KEY.test(key) ? key : tomlString(key);
}

export type TomlInline = string | number | boolean | TomlInline[] | { [key: string]: TomlInline };

/** One value on one line: scalars, arrays and inline tables. */
export function tomlInline(value: TomlInline): string {
  if (typeof value === 'string') return tomlString(value);
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new RangeError(`cannot write ${value} as TOML`);
    return String(value);
  }
  if (typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return `[${value.map(tomlInline).join(', ')}]`;
  const fields = Object.entries(value).map(([k, v]) => `${tomlKey(k)} = ${tomlInline(v)}`);
  return fields.length ? `{ ${fields.join(', ')} }` : '{}';
}

/** A delegates entry in object form, which is how arbor always writes them:
 * `{ agent = "reviewer", mode = "bounded" }`. */
export function formatDelegateEntry(entry: DelegateEntry): string {
  return tomlInline({ agent: entry.agent, mode: entry.mode });
}

/** A whole `delegates = [...]` assignment, one entry per line when there are any. */
export function formatDelegates(entries: readonly DelegateEntry[]): string {
  if (entries.length === 0) return 'delegates = []';
  return `delegates = [\n${entries.map((e) => `  ${formatDelegateEntry(e)},`).join('\n')}\n]`;
}
