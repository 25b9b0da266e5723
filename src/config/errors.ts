// Building and printing config errors: every message names where the problem is —
// file, then line:column for syntax or the key path for meaning — then the problem.
import { ConfigError } from './configError.js';
import { t } from '../i18n/index.js';

/** A key path as segments: table keys, and array indexes as numbers. */
export type KeyPath = readonly (string | number)[];

const BARE_KEY = /^[A-Za-z0-9_-]+$/;

/** `agents.main.delegates[1]`; keys that are not bare TOML keys are quoted as TOML would. */
export function formatKeyPath(path: KeyPath): string {
  let out = '';
  for (const seg of path) {
    if (typeof seg === 'number') out += `[${seg}]`;
    else out += (out ? '.' : '') + (BARE_KEY.test(seg) ? seg : JSON.stringify(seg));
  }
  return out;
}

/** A name as it appears inside a message: quoted, escaped, always one line. */
export function quote(name: string): string {
  return JSON.stringify(name);
}

export function knownList(names: Iterable<string>): string {
  const list = [...names];
  return list.length ? list.join(', ') : t('config:errors.none');
}

const MAX_SHOWN = 60;

/** What a wrong value was, for "expected X, got Y": its type and a short rendering. */
export function describeValue(value: unknown): string {
  if (typeof value === 'string') {
    const shown = value.length > MAX_SHOWN ? `${value.slice(0, MAX_SHOWN)}…` : value;
    return `${t('config:got.string')} ${quote(shown)}`;
  }
  if (typeof value === 'number' || typeof value === 'bigint') return `${t('config:got.number')} ${String(value)}`;
  if (typeof value === 'boolean') return `${t('config:got.boolean')} ${String(value)}`;
  if (Array.isArray(value)) return t('config:got.array');
  if (value instanceof Date) return `${t('config:got.date')} ${String(value)}`;
  return t('config:got.table');
}

/** A semantic error: `<file>: <key path>: <problem>` (file left out for built-in values). */
export function semanticError(problem: string, keyPath: KeyPath, file?: string): ConfigError {
  const where = formatKeyPath(keyPath);
  const message = [file, where, problem].filter(Boolean).join(': ');
  return new ConfigError({ message, file, keyPath: where || undefined });
}

/** A problem with a whole file (missing, unreadable): `<file>: <problem>`. */
export function fileError(problem: string, file: string): ConfigError {
  return new ConfigError({ message: `${file}: ${problem}`, file });
}

/** A TOML syntax error: `<file>:<line>:<column>: <problem>`. */
export function syntaxError(problem: string, file: string, line: number, column: number): ConfigError {
  const message = `${file}:${line}:${column}: ${t('config:errors.syntax', { problem })}`;
  return new ConfigError({ message, file, line, column });
}

/** The one-line text to show for a config error (or for anything thrown while loading). */
export function formatConfigError(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  return text.split(/\r?\n/)[0] ?? text;
}
