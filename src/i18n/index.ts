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

export function initI18n(language: Language = languageFromEnv()): void {
  const resources = loadCatalogs();
  const namespaces = Object.keys(resources.en ?? {});
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
  if (!initialized) initI18n(language);
  else void i18next.changeLanguage(language);
}

export function currentLanguage(): Language {
  return (i18next.language as Language) ?? 'en';
}

/** Texts without values, per language: views ask for the same words (a row's kind, a
 * status, a label) on every render, and i18next resolves each key anew every time (the
 * /agents pane spent more on that than on formatting its rows). Keys are the catalog's, so
 * this holds at most one entry per key and language. */
const plainTexts = new Map<string, Map<TranslationKey, string>>();

/** Texts with values, by language, key and values, while every value is a string, number,
 * boolean or undefined: the status bar and the live turn ask for the same counts and sums on
 * every render (a 1,000-child fan-out renders them hundreds of times a second). Bounded:
 * emptied when full. */
const valuedTexts = new Map<string, string>();
const VALUED_TEXTS_MAX = 5000;

function valuedKey(language: string, key: string, options: Record<string, unknown>): string | undefined {
  let out = `${language}\u0000${key}`;
  for (const name in options) {
    const v = options[name];
    const type = typeof v;
    if (type !== 'string' && type !== 'number' && type !== 'boolean' && type !== 'undefined') return undefined;
    out += `\u0000${name}\u0001${type[0]}${String(v)}`;
  }
  return out;
}

/** Translate `ns:key` with interpolation values. Initializes with the environment's
 * language on first use so that library code and tests never see raw keys. */
export function t(key: TranslationKey, options?: Record<string, unknown>): string {
  if (!initialized) initI18n();
  if (options !== undefined) {
    const cacheKey = valuedKey(i18next.language, key, options);
    if (cacheKey === undefined) return String(i18next.t(key, options as never));
    let text = valuedTexts.get(cacheKey);
    if (text === undefined) {
      text = String(i18next.t(key, options as never));
      if (valuedTexts.size >= VALUED_TEXTS_MAX) valuedTexts.clear();
      valuedTexts.set(cacheKey, text);
    }
    return text;
  }
  const language = i18next.language;
  let texts = plainTexts.get(language);
  if (!texts) plainTexts.set(language, (texts = new Map()));
  let text = texts.get(key);
  if (text === undefined) {
    text = String(i18next.t(key));
    texts.set(key, text);
  }
  return text;
}
