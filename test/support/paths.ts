// Where the program under test is. Two levels up is the repository root both from
// test/support/ (vitest runs the TypeScript) and from build/support/ (benchmarks run the compiled copy).
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
// ARBOR_E2E_BIN points the suite at another build of the launcher (e.g. a copy under /tmp).
export const arborBin = process.env.ARBOR_E2E_BIN ?? join(repoRoot, 'bin', 'arbor.js');
