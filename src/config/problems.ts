// Problems: where validation reports what it found, naming the file that set each key. Its
// own file so validate.ts and validateAgents.ts both use it without importing each other.
import { semanticError, type KeyPath } from './errors.js';
import type { Origins } from './merge.js';

/** Where a problem is reported and collected: each names the file that set the key. */
export class Problems {
  readonly warnings: string[] = [];

  constructor(private readonly origins: Origins) {}

  /** `originPath` picks the file to name when the problem is an absence: the table that
   * should have held the key rather than the key itself. */
  fail(path: KeyPath, problem: string, originPath: KeyPath = path): never {
    throw semanticError(problem, path, this.origins.fileFor(originPath));
  }

  warn(path: KeyPath, problem: string): void {
    this.warnings.push(semanticError(problem, path, this.origins.fileFor(path)).message);
  }
}
