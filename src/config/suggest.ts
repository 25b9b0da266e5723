// "Did you mean": the known key nearest to a mistyped one, by edit distance, when it is
// close enough to be the likely intent (a typo, not a different word).
import type { z } from 'zod';
import type { KeyPath } from './errors.js';

/** Levenshtein distance, with a swap of two neighbours counted as one edit (`modle`). */
export function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0][j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.length][b.length];
}

/** The nearest of `known` to `key` (case-insensitive), if within a third of its length
 * (at least one edit); ties go to the first known key. */
export function nearestKey(key: string, known: readonly string[]): string | undefined {
  const limit = Math.max(1, Math.floor(key.length / 3));
  let best: { name: string; dist: number } | undefined;
  for (const name of known) {
    const dist = editDistance(key.toLowerCase(), name.toLowerCase());
    if (dist <= limit && (!best || dist < best.dist)) best = { name, dist };
  }
  return best?.name;
}

interface SchemaDef {
  type: string;
  shape?: Record<string, z.core.$ZodType>;
  valueType?: z.core.$ZodType;
  element?: z.core.$ZodType;
}

/** The keys the schema knows at the table that holds `path`'s last key: record names and
 * list indexes are walked through as findUnknownKeys does. */
export function knownKeysBeside(path: KeyPath, schema: z.core.$ZodType, core: (s: z.core.$ZodType) => z.core.$ZodType): string[] {
  let node: z.core.$ZodType | undefined = schema;
  for (const seg of path.slice(0, -1)) {
    if (!node) return [];
    const def = core(node)._zod.def as SchemaDef;
    if (def.type === 'object' && def.shape) node = def.shape[String(seg)];
    else if (def.type === 'record') node = def.valueType;
    else if (def.type === 'array') node = def.element;
    else return [];
  }
  if (!node) return [];
  const def = core(node)._zod.def as SchemaDef;
  return def.type === 'object' && def.shape ? Object.keys(def.shape) : [];
}
