// When a rate or quota limit lifts, read from a refusal's headers, and whether its body says
// the quota or plan is used up. The retry wrapper (retry.ts) decides from these whether to
// wait itself or hand the wait to the runtime (runtime/quotaPause.ts).

/** What a refusal says about its limit: when it lifts (epoch ms) and how long that is. */
export interface LimitReset {
  resetAt: number;
  waitMs: number;
}

/** OpenAI's duration form: `1m30s`, `6ms`, `0.5s`, `2h0m0s`. */
export function parseDuration(text: string): number | undefined {
  const s = text.trim();
  if (!/^(\d+(\.\d+)?(h|ms|m|s))+$/.test(s)) return undefined;
  const unit: Record<string, number> = { h: 3_600_000, m: 60_000, s: 1000, ms: 1 };
  let total = 0;
  for (const [, n, , u] of s.matchAll(/(\d+(\.\d+)?)(h|ms|m|s)/g)) total += Number(n) * unit[u];
  return total;
}

/** One reset header's value as an epoch time: a duration (`1m30s`), an RFC 3339 or HTTP date,
 * or a bare number (an epoch in seconds or milliseconds when it is that large, else seconds
 * from now). */
function resetTime(raw: string, now: number): number | undefined {
  const value = raw.trim();
  if (value === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(value)) {
    const n = Number(value);
    if (n > 1e12) return n;
    if (n > 1e9) return n * 1000;
    return now + n * 1000;
  }
  const duration = parseDuration(value);
  if (duration !== undefined) return now + duration;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : date;
}

/** The remaining-count header that goes with a reset header, if the naming has one. */
function remainingHeaderOf(name: string): string | undefined {
  // x-ratelimit-reset-requests ↔ x-ratelimit-remaining-requests
  let m = /^x-ratelimit-reset-(.+)$/.exec(name);
  if (m) return `x-ratelimit-remaining-${m[1]}`;
  // anthropic-ratelimit-requests-reset ↔ anthropic-ratelimit-requests-remaining
  m = /^anthropic-ratelimit-(.+)-reset$/.exec(name);
  if (m) return `anthropic-ratelimit-${m[1]}-remaining`;
  return undefined;
}

/**
 * When the limit a refusal hit lifts. `retry-after-ms` / `retry-after` (seconds or an HTTP
 * date) win: the server worked the wait out itself. Otherwise the reset headers
 * (`x-ratelimit-reset-requests` / `-tokens` in OpenAI's duration form,
 * `anthropic-ratelimit-*-reset` RFC 3339 times, a plain `x-ratelimit-reset`): of those whose
 * remaining count reads 0 the latest, else the latest of all, since waiting a little too
 * long costs less than asking too early.
 */
export function parseLimitReset(headers: Record<string, string> | undefined, now = Date.now()): LimitReset | undefined {
  return readLimitReset(headers, now).reset;
}

/** The furthest reset arbor waits for. A server naming a later one (Retry-After: 1e30, the
 * year 9999, 35 days) is wrong or means "not soon": arbor probes on its own schedule instead
 * of sleeping for a month, or, past Node's timer limit, asking again at once. */
export const MAX_RESET_HORIZON_MS = 7 * 24 * 3600 * 1000;

export interface LimitReading {
  /** A reset within the horizon. */
  reset?: LimitReset;
  /** The server named a reset, but beyond the horizon or not a real time. */
  unusable?: boolean;
}

/** parseLimitReset, also saying when the server named a reset arbor will not wait for. */
export function readLimitReset(headers: Record<string, string> | undefined, now = Date.now()): LimitReading {
  const reset = rawLimitReset(headers, now);
  if (!reset) return {};
  if (!Number.isFinite(reset.resetAt) || reset.resetAt - now > MAX_RESET_HORIZON_MS) return { unusable: true };
  return { reset };
}

function rawLimitReset(headers: Record<string, string> | undefined, now: number): LimitReset | undefined {
  if (!headers) return undefined;
  const lower: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) lower[k.toLowerCase()] = String(v);
  const at = (resetAt: number): LimitReset => ({ resetAt: Math.max(now, resetAt), waitMs: Math.max(0, resetAt - now) });

  const ms = Number(lower['retry-after-ms']);
  if (lower['retry-after-ms'] !== undefined && Number.isFinite(ms) && ms >= 0) return at(now + ms);
  const retryAfter = lower['retry-after']?.trim();
  if (retryAfter) {
    const secs = Number(retryAfter);
    if (Number.isFinite(secs) && secs >= 0) return at(now + secs * 1000);
    const date = Date.parse(retryAfter);
    if (!Number.isNaN(date)) return at(date);
  }

  let exhausted: number | undefined;
  let any: number | undefined;
  for (const [name, value] of Object.entries(lower)) {
    if (!/^x-ratelimit-reset(-.+)?$/.test(name) && !/^anthropic-ratelimit-.+-reset$/.test(name)) continue;
    const time = resetTime(value, now);
    if (time === undefined) continue;
    any = Math.max(any ?? time, time);
    const remaining = remainingHeaderOf(name);
    if (remaining !== undefined && lower[remaining]?.trim() === '0') exhausted = Math.max(exhausted ?? time, time);
  }
  const resetAt = exhausted ?? any;
  return resetAt === undefined ? undefined : at(resetAt);
}

/** Codes and types servers use for a used-up quota, plan or credit balance (OpenAI
 * `insufficient_quota`, OpenRouter and others' credit codes). */
const EXHAUSTED =
  /insufficient_quota|quota_exceeded|billing_hard_limit|billing_not_active|insufficient_credits|credit_balance|out_of_credits/i;

/** Whether a refusal says the quota or plan is used up (not a per-minute limit): status 402,
 * or an error code / type that says so in the JSON body (`{error: {code, type}}`). */
export function isQuotaExhausted(status: number | undefined, body: string | undefined): boolean {
  if (status === 402) return true;
  if (!body || body.length > 100_000) return false;
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return false;
  }
  if (!parsed || typeof parsed !== 'object') return false;
  const o = parsed as Record<string, unknown>;
  const inner = o.error && typeof o.error === 'object' ? (o.error as Record<string, unknown>) : o;
  return [inner.code, inner.type].some((v) => typeof v === 'string' && EXHAUSTED.test(v));
}

/** An in-band error object (no HTTP status of its own) that says the quota is used up. */
export function isExhaustedInBand(err: Record<string, unknown>): boolean {
  return [err.code, err.type].some((v) => typeof v === 'string' && EXHAUSTED.test(v));
}
