// Typed reads from a merged raw table. Each read either returns a valid value, returns
// undefined for a missing optional key, or throws a ConfigError naming the file (from the
// origin map) and the key path.
import { describeValue, quote, semanticError, type KeyPath } from './errors.js';
import { isTable, type Origins, type RawTable } from './merge.js';
import { t } from '../i18n/index.js';

export interface Range {
  min?: number;
  max?: number;
  /** true: min itself is not allowed (e.g. timeouts must be > 0). */
  minExclusive?: boolean;
}

export class Reader {
  readonly warnings: string[] = [];

  constructor(private readonly origins: Origins) {}

  fileFor(path: KeyPath): string | undefined {
    return this.origins.fileFor(path);
  }

  /** `originPath` picks the file to name when the problem is an absence: the table that
   * should have held the key rather than the key itself. */
  fail(path: KeyPath, problem: string, originPath: KeyPath = path): never {
    throw semanticError(problem, path, this.origins.fileFor(originPath));
  }

  /** Same shape as an error message, collected instead of thrown. */
  warn(path: KeyPath, problem: string): void {
    this.warnings.push(semanticError(problem, path, this.origins.fileFor(path)).message);
  }

  wrongType(path: KeyPath, expected: string, got: unknown): never {
    this.fail(path, t('config:errors.expectedType', { expected: t(`config:types.${expected}`), got: describeValue(got) }));
  }

  table(parent: RawTable, key: string, path: KeyPath): RawTable | undefined {
    const v = parent[key];
    if (v === undefined) return undefined;
    if (!isTable(v)) this.wrongType(path, 'table', v);
    return v;
  }

  /** A table of user-named entries that must themselves be tables. */
  entries(parent: RawTable, key: string, path: KeyPath): [string, RawTable][] {
    const map = this.table(parent, key, path);
    if (!map) return [];
    return Object.entries(map).map(([name, v]) => {
      const p = [...path, name];
      if (name.trim() === '') this.fail(p, t('config:errors.emptyName'));
      if (!isTable(v)) this.wrongType(p, 'table', v);
      return [name, v];
    });
  }

  string(parent: RawTable, key: string, path: KeyPath, opts: { nonEmpty?: boolean } = {}): string | undefined {
    const v = parent[key];
    if (v === undefined) return undefined;
    if (typeof v !== 'string') this.wrongType(path, 'string', v);
    if (opts.nonEmpty && v.trim() === '') this.fail(path, t('config:errors.empty'));
    return v;
  }

  boolean(parent: RawTable, key: string, path: KeyPath): boolean | undefined {
    const v = parent[key];
    if (v === undefined) return undefined;
    if (typeof v !== 'boolean') this.wrongType(path, 'boolean', v);
    return v;
  }

  number(parent: RawTable, key: string, path: KeyPath, range: Range = {}, integer = false): number | undefined {
    const v = parent[key];
    if (v === undefined) return undefined;
    if (typeof v !== 'number' || Number.isNaN(v)) this.wrongType(path, integer ? 'integer' : 'number', v);
    // inf would slip past every lower bound and turn a timeout into a busy loop.
    if (!Number.isFinite(v)) this.fail(path, t('config:errors.notFinite', { value: v }));
    if (integer && !Number.isInteger(v)) this.wrongType(path, 'integer', v);
    this.checkRange(path, v, range);
    return v;
  }

  integer(parent: RawTable, key: string, path: KeyPath, range: Range = {}): number | undefined {
    return this.number(parent, key, path, range, true);
  }

  private checkRange(path: KeyPath, v: number, { min, max, minExclusive }: Range): void {
    const belowMin = min !== undefined && (minExclusive ? v <= min : v < min);
    const aboveMax = max !== undefined && v > max;
    if (!belowMin && !aboveMax) return;
    if (min !== undefined && max !== undefined) this.fail(path, t('config:errors.between', { min, max, value: v }));
    if (aboveMax) this.fail(path, t('config:errors.atMost', { max, value: v }));
    this.fail(path, t(minExclusive ? 'config:errors.greaterThan' : 'config:errors.atLeast', { min, value: v }));
  }

  oneOf<T extends string>(parent: RawTable, key: string, path: KeyPath, allowed: readonly T[]): T | undefined {
    const v = this.string(parent, key, path);
    if (v === undefined) return undefined;
    if (!(allowed as readonly string[]).includes(v)) {
      this.fail(path, t('config:errors.oneOf', { allowed: allowed.map(quote).join(', '), value: quote(v) }));
    }
    return v as T;
  }

  stringList(parent: RawTable, key: string, path: KeyPath): string[] | undefined {
    const v = parent[key];
    if (v === undefined) return undefined;
    if (!Array.isArray(v)) this.wrongType(path, 'stringList', v);
    v.forEach((item, i) => {
      if (typeof item !== 'string') this.wrongType([...path, i], 'string', item);
    });
    return [...(v as string[])];
  }

  /** A table of string → string (HTTP headers). */
  stringMap(parent: RawTable, key: string, path: KeyPath): Record<string, string> | undefined {
    const map = this.table(parent, key, path);
    if (!map) return undefined;
    const out: Record<string, string> = {};
    for (const [k, v] of Object.entries(map)) {
      if (typeof v !== 'string') this.wrongType([...path, k], 'string', v);
      out[k] = v;
    }
    return out;
  }
}
