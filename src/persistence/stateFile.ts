// $ARBOR_HOME/state.json: what arbor remembers between starts that is not config (today
// the language chosen with /lang). Written atomically, readable by the user only (0600).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from './atomicWrite.js';
import { makePrivateDir } from './privateFs.js';

export interface ArborState {
  language?: 'en' | 'es';
}

export function statePath(arborHome: string): string {
  return join(arborHome, 'state.json');
}

/** The saved state; a missing or damaged file reads as empty (it only holds preferences). */
export function readState(arborHome: string): ArborState {
  try {
    const value: unknown = JSON.parse(readFileSync(statePath(arborHome), 'utf8'));
    if (typeof value !== 'object' || value === null) return {};
    const v = value as Record<string, unknown>;
    return v.language === 'en' || v.language === 'es' ? { language: v.language } : {};
  } catch {
    return {};
  }
}

/** Merges `patch` into the saved state; returns the file's path. Throws naming the file. */
export function writeState(arborHome: string, patch: ArborState): string {
  const path = statePath(arborHome);
  const next = { ...readState(arborHome), ...patch };
  makePrivateDir(arborHome);
  // writeFileAtomic creates its temp file 0600 and renames it over the old one.
  writeFileAtomic(path, `${JSON.stringify(next, null, 2)}\n`);
  return path;
}
