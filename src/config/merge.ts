// Layered merge of raw config tables, remembering which file set each key so an error
// can name the file the offending value came from.
import { formatKeyPath, type KeyPath } from './errors.js';

export type RawTable = Record<string, unknown>;

/** A parsed TOML table (smol-toml builds them with a null prototype), not an array or date. */
export function isTable(value: unknown): value is RawTable {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === null || proto === Object.prototype;
}

/** One source of raw config. `file` is absent for the built-in layer. */
export interface Layer {
  file?: string;
  data: RawTable;
}

/** Key path → the file that last set it (undefined: built in). Array elements and missing
 * keys are attributed to the nearest ancestor that has an entry. */
export class Origins {
  private readonly map = new Map<string, string | undefined>();

  set(path: KeyPath, file: string | undefined): void {
    this.map.set(formatKeyPath(path), file);
  }

  /** A value replaced by a different kind (table ↔ scalar) takes its children with it. */
  clearBelow(path: KeyPath): void {
    const prefix = formatKeyPath(path);
    for (const key of [...this.map.keys()]) {
      if (key.startsWith(`${prefix}.`)) this.map.delete(key);
    }
  }

  fileFor(path: KeyPath): string | undefined {
    const segs = path.filter((s): s is string => typeof s === 'string');
    for (let n = segs.length; n > 0; n--) {
      const key = formatKeyPath(segs.slice(0, n));
      if (this.map.has(key)) return this.map.get(key);
    }
    return undefined;
  }
}

function cloneValue(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(cloneValue);
  if (isTable(value)) {
    const out: RawTable = Object.create(null) as RawTable;
    for (const [k, v] of Object.entries(value)) out[k] = cloneValue(v);
    return out;
  }
  return value;
}

function mergeInto(target: RawTable, source: RawTable, path: string[], file: string | undefined, origins: Origins): void {
  for (const [key, value] of Object.entries(source)) {
    const p = [...path, key];
    if (isTable(value)) {
      if (!isTable(target[key])) {
        target[key] = Object.create(null) as RawTable;
        origins.clearBelow(p);
      }
      origins.set(p, file);
      mergeInto(target[key] as RawTable, value, p, file, origins);
    } else {
      // Arrays replace rather than append: a list in a later file is the whole list.
      target[key] = cloneValue(value);
      origins.clearBelow(p);
      origins.set(p, file);
    }
  }
}

/** Deep-merges tables, later layers winning; the layers themselves are not modified. */
export function mergeLayers(layers: readonly Layer[]): { data: RawTable; origins: Origins } {
  const data: RawTable = Object.create(null) as RawTable;
  const origins = new Origins();
  for (const layer of layers) mergeInto(data, layer.data, [], layer.file, origins);
  return { data, origins };
}
