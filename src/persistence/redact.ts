// Secret scrubbing shared by the trace log (aggressive: it never carries content) and the
// session log (conservative: only known secret values, since transcripts hold real text
// such as git hashes that pattern rules would mangle).

const REDACTED = '[redacted]';

/** Env var names whose values are treated as secrets. */
export const SECRET_ENV_NAME = /_(KEY|TOKEN|SECRET)$/i;

/** Values shorter than this are not scrubbed: replacing "1" or "true" everywhere would
 * corrupt the log without protecting anything real. */
const MIN_SECRET_LENGTH = 6;

const registered = new Set<string>();

/** Marks a value as secret for every later scrub (e.g. a key read from a config-named env
 * var whose name does not end in _KEY/_TOKEN/_SECRET). */
export function registerSecret(value: string | undefined): void {
  if (value && value.length >= MIN_SECRET_LENGTH) registered.add(value);
}

/** Known secret values, longest first so a secret containing another is removed whole. */
export function knownSecrets(env: NodeJS.ProcessEnv = process.env): string[] {
  const values = new Set(registered);
  for (const [name, value] of Object.entries(env)) {
    if (value && value.length >= MIN_SECRET_LENGTH && SECRET_ENV_NAME.test(name)) values.add(value);
  }
  return [...values].sort((a, b) => b.length - a.length);
}

/** Removes exact occurrences of known secret values (values too short to be a real key are
 * left alone, whoever names them). */
export function scrubKnownSecrets(text: string, secrets: readonly string[] = knownSecrets()): string {
  let out = text;
  for (const secret of [...secrets].sort((a, b) => b.length - a.length)) {
    if (secret.length >= MIN_SECRET_LENGTH && out.includes(secret)) out = out.split(secret).join(REDACTED);
  }
  return out;
}

const TOKEN_PATTERNS: RegExp[] = [
  /\bBearer\s+\S+/gi,
  /\b(?:sk|pk|rk)-[A-Za-z0-9_*-]{8,}/g,
  /\b(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{20,}/g,
  /\bgithub_pat_[A-Za-z0-9_]{20,}/g,
  /\bxox[abposr]-[A-Za-z0-9-]{10,}/g,
  /\bAKIA[0-9A-Z]{16}\b/g,
  /\bAIza[0-9A-Za-z_-]{30,}/g,
];

// Long runs of base64/hex alphabet. Hyphens are left out on purpose: run ids and session
// keys are hyphenated UUIDs and must stay readable.
const LONG_RUN = /[A-Za-z0-9+/=_]{32,}/g;

function looksLikeToken(run: string): boolean {
  if (!/[0-9]/.test(run) || !/[A-Za-z]/.test(run)) return false;
  if (/^[0-9a-fA-F]+$/.test(run)) return true;
  // Identifiers like long_snake_case_tool_names are single-case; keys mix cases.
  return /[a-z]/.test(run) && /[A-Z]/.test(run);
}

// `api_key: "value"`, `x-api-key=value`: the name stays readable, the value goes.
const KEY_ASSIGNMENT = /((?:x-)?api[-_]?key["']?\s*[:=]\s*["']?)[^\s"',;]+/gi;

/** Scrubs known secret values and anything shaped like a credential. */
export function scrubSecretLike(text: string, secrets: readonly string[] = knownSecrets()): string {
  let out = scrubKnownSecrets(text, secrets);
  for (const pattern of TOKEN_PATTERNS) {
    out = out.replace(pattern, (m) => (/^bearer/i.test(m) ? `Bearer ${REDACTED}` : REDACTED));
  }
  out = out.replace(KEY_ASSIGNMENT, `$1${REDACTED}`);
  return out.replace(LONG_RUN, (m) => (looksLikeToken(m) ? REDACTED : m));
}
