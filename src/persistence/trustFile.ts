// $ARBOR_HOME/trust.json: the folders whose own settings (.arbor/) the user trusted, each
// with the hash of those settings as they were when trusted (config/projectSettings.ts).
// A changed file changes the hash, and the folder is asked about again. 0600, written
// atomically; a missing or damaged file trusts nothing.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from './atomicWrite.js';
import { makePrivateDir } from './privateFs.js';

export interface TrustRecord {
  hash: string;
  trustedAt: string;
}

export function trustPath(arborHome: string): string {
  return join(arborHome, 'trust.json');
}

function readFolders(arborHome: string): Record<string, TrustRecord> {
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(trustPath(arborHome), 'utf8'));
  } catch {
    return {};
  }
  const folders = (value as { folders?: unknown } | null)?.folders;
  if (typeof folders !== 'object' || folders === null || Array.isArray(folders)) return {};
  const out: Record<string, TrustRecord> = Object.create(null) as Record<string, TrustRecord>;
  for (const [folder, rec] of Object.entries(folders as Record<string, unknown>)) {
    const r = rec as Partial<TrustRecord> | null;
    if (r && typeof r.hash === 'string' && typeof r.trustedAt === 'string') out[folder] = { hash: r.hash, trustedAt: r.trustedAt };
  }
  return out;
}

function writeFolders(arborHome: string, folders: Record<string, TrustRecord>): void {
  makePrivateDir(arborHome);
  writeFileAtomic(trustPath(arborHome), `${JSON.stringify({ version: 1, folders }, null, 2)}\n`);
}

/** The record for a folder (its real path), if it was ever trusted. */
export function trustRecord(arborHome: string, folder: string): TrustRecord | undefined {
  return readFolders(arborHome)[folder];
}

/** Trusts `folder`'s settings as they hash now. Throws naming the file when it cannot write. */
export function recordTrust(arborHome: string, folder: string, hash: string, now = new Date()): void {
  const folders = readFolders(arborHome);
  folders[folder] = { hash, trustedAt: now.toISOString() };
  try {
    writeFolders(arborHome, folders);
  } catch (err) {
    throw new Error(`${trustPath(arborHome)}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`, { cause: err });
  }
}

/** Forgets `folder`; false when it was not trusted. */
export function revokeTrust(arborHome: string, folder: string): boolean {
  const folders = readFolders(arborHome);
  if (!(folder in folders)) return false;
  delete folders[folder];
  try {
    writeFolders(arborHome, folders);
  } catch (err) {
    throw new Error(`${trustPath(arborHome)}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`, { cause: err });
  }
  return true;
}
