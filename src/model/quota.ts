// A provider's rate or quota limit that holds runs (runtime/quotaPause.ts), as the store
// keeps it for the banner, and the two language-neutral ways a reset time is shown.

export interface QuotaPause {
  /** The config name of the provider entry. */
  provider: string;
  /** "<type>/<model>" */
  label: string;
  /** A per-minute style limit, or a used-up quota or plan. */
  reason: 'rate_limit' | 'exhausted';
  /** When the held runs resume by themselves (epoch ms). */
  resetAt: number;
  /** False when the server named no reset time: `resetAt` is then when arbor tries again. */
  resetKnown: boolean;
  /** The runs held, oldest first. */
  runIds: string[];
}

const pad = (n: number) => String(n).padStart(2, '0');

/** `HH:MM:SS` on the local clock. */
export function clockTime(epochMs: number): string {
  const d = new Date(epochMs);
  return `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

/** A wait as `1h 5m`, `2m 10s` or `45s`, rounded up to the second (a reset a moment away
 * reads `1s`, never `0s`, until it has passed). */
export function waitText(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  if (h > 0) return `${h}h ${m}m`;
  if (m > 0) return `${m}m ${s}s`;
  return `${s}s`;
}
