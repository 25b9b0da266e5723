// Checks at startup that ARBOR_HOME can hold sessions, so a read-only or missing home is
// reported once, by name, as "not writable" instead of as a raw ENOENT/EACCES from mkdir
// in the middle of the first turn.
import { accessSync, constants } from 'node:fs';
import { t } from '../i18n/index.js';
import { makePrivateDir } from './privateFs.js';
import { sessionsDir } from './sessionFormat.js';

/** Throws an Error naming `arborHome` when its sessions folder cannot be created or written. */
export function assertHomeWritable(arborHome: string): void {
  const dir = sessionsDir(arborHome);
  try {
    // The first folders arbor creates under a new home: private like everything after them.
    makePrivateDir(dir);
    accessSync(dir, constants.W_OK);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? 'error';
    throw new Error(t('persistence:home.notWritable', { home: arborHome, dir, code }), { cause: err });
  }
}
