// Transcript exports ($ARBOR_HOME/exports or the given folder): a new private file per copy,
// never overwriting one, scrubbed of known secrets like the session files.
import { closeSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { t } from '../i18n/index.js';
import { makePrivateDir, openPrivate } from './privateFs.js';
import { scrubKnownSecrets } from './redact.js';

function stamp(now: Date): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}${p(now.getMonth() + 1)}${p(now.getDate())}-${p(now.getHours())}${p(now.getMinutes())}${p(now.getSeconds())}`;
}

/** A file name made of safe characters: `arbor-<what>-<date>-<time>[-n].txt`. */
function exportName(what: string, now: Date, n: number): string {
  const safe = what.replace(/[^A-Za-z0-9_.-]+/g, '_').slice(0, 60) || 'entry';
  return `arbor-${safe}-${stamp(now)}${n > 1 ? `-${n}` : ''}.txt`;
}

/** Writes a new file (never overwrites one); returns its path. Throws with the folder named. */
export function writeExport(raw: string, what: string, dir: string, now = new Date()): string {
  // Same redaction as session files: an export must not carry a key a tool printed.
  const text = scrubKnownSecrets(raw);
  try {
    makePrivateDir(dir);
  } catch (err) {
    throw new Error(t('transcript:copy.dirFailed', { dir, error: (err as Error).message }), { cause: err });
  }
  for (let n = 1; n < 1000; n++) {
    const path = join(dir, exportName(what, now, n));
    let fd: number;
    try {
      fd = openPrivate(path, 'wx');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EEXIST') continue;
      throw new Error(t('transcript:copy.writeFailed', { path, error: (err as Error).message }), { cause: err });
    }
    try {
      writeSync(fd, text);
    } catch (err) {
      throw new Error(t('transcript:copy.writeFailed', { path, error: (err as Error).message }), { cause: err });
    } finally {
      closeSync(fd);
    }
    return path;
  }
  throw new Error(t('transcript:copy.writeFailed', { path: join(dir, exportName(what, now, 1)), error: 'EEXIST' }));
}
