// i18next set-up. Catalogs live in locales/<lang>/<namespace>.json, one namespace per area
// (cli, config, providers, runtime, tools, ui, ...), so every area owns its own file.
import i18next from 'i18next';
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join, basename } from 'node:path';
import type { TranslationKey } from './keys.js';
import { packageRoot } from './packageRoot.js';

export type { TranslationKey } from './keys.js';

/** The rest of every key that starts with `P`: `KeyUnder<'agents:hints.'>` is each hint's
 * name, so a table of names checks against the catalog as literal keys do. */
export type KeyUnder<P extends string> = TranslationKey extends infer K ? (K extends `${P}${infer R}` ? R : never) : never;

export const SUPPORTED_LANGUAGES = ['en', 'es'] as const;
export type Language = (typeof SUPPORTED_LANGUAGES)[number];

/** locales/ sits at the package root, beside package.json (checkout or installed package). */
export function localesDir(): string {
  return join(packageRoot(), 'locales');
}

export function loadCatalogs(dir = localesDir()): Record<string, Record<string, Record<string, unknown>>> {
  const resources: Record<string, Record<string, Record<string, unknown>>> = {};
  for (const lang of SUPPORTED_LANGUAGES) {
    const langDir = join(dir, lang);
    resources[lang] = {};
    if (!existsSync(langDir)) continue;
    for (const file of readdirSync(langDir)) {
      if (!file.endsWith('.json')) continue;
      const ns = basename(file, '.json');
      const path = join(langDir, file);
      try {
        resources[lang][ns] = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
      } catch (err) {
        throw new Error(`locale catalog ${path} is not valid JSON: ${(err as Error).message}`, { cause: err });
      }
    }
  }
  return resources;
}

let initialized = false;

/** Picks en or es from a LANG-style value ("es_ES.UTF-8" → es); anything else is en. */
export function languageFromEnv(env: NodeJS.ProcessEnv = process.env): Language {
  const raw = env.LC_ALL || env.LC_MESSAGES || env.LANG || '';
  return raw.toLowerCase().startsWith('es') ? 'es' : 'en';
}

// The screen asks for the same strings on every frame it draws (the status bar, the live
// reply's "earlier" line: 20 frames a second while a reply streams), and one i18next lookup
// (key path, resource walk, interpolation) took ~0.1 ms on the shared machine. A string
// depends only on the language, the key and the values, so it is kept: per key, and per
// set of values when they are a few short primitives (a long value is model or server
// text, seldom asked for twice). Cleared with every language change, and when full (5,000:
// a 1,000-child fan-out's rows and cards ask for a few thousand distinct counts and sums).
const translated = new Map<string, string>();
const CACHE_MAX_ENTRIES = 5000;
const CACHE_MAX_VALUES_CHARS = 200;

function cacheKey(key: string, options: Record<string, unknown> | undefined): string | undefined {
  if (options === undefined) return key;
  for (const name in options) {
    const value = options[name];
    const type = typeof value;
    if (type !== 'string' && type !== 'number' && type !== 'boolean' && value !== undefined) return undefined;
    // JSON writes NaN and ±Infinity alike (null): such a value is not kept.
    if (type === 'number' && !Number.isFinite(value)) return undefined;
  }
  // JSON keeps any two different sets of values apart, whatever characters they hold.
  const values = JSON.stringify(options);
  return values.length <= CACHE_MAX_VALUES_CHARS ? `${key}\u0000${values}` : undefined;
}

export function initI18n(language: Language = languageFromEnv()): void {
  const resources = loadCatalogs();
  const namespaces = Object.keys(resources.en ?? {});
  translated.clear();
  if (initialized) {
    void i18next.changeLanguage(language);
    return;
  }
  void i18next.init({
    lng: language,
    fallbackLng: 'en',
    resources,
    ns: namespaces,
    defaultNS: 'common',
    initAsync: false,
    interpolation: { escapeValue: false },
    returnNull: false,
    // i18next otherwise prints an advert on stdout, which would corrupt headless output.
    showSupportNotice: false,
  });
  initialized = true;
}

export function setLanguage(language: Language): void {
  translated.clear();
  if (!initialized) initI18n(language);
  else void i18next.changeLanguage(language);
}

export function currentLanguage(): Language {
  return (i18next.language as Language) ?? 'en';
}

/** Translate `ns:key` with interpolation values. Initializes with the environment's
 * language on first use so that library code and tests never see raw keys. */
export function t(key: TranslationKey, options?: Record<string, unknown>): string {
  if (!initialized) initI18n();
  const cached = cacheKey(key, options);
  if (cached === undefined) return String(i18next.t(key, options as never));
  let text = translated.get(cached);
  if (text === undefined) {
    text = String(i18next.t(key, options as never));
    if (translated.size >= CACHE_MAX_ENTRIES) translated.clear();
    translated.set(cached, text);
  }
  return text;
}
