// The error every config problem becomes. Its own file (no imports) so the error helpers
// (errors.ts), which the schema uses, do not import the config types derived from it.

/** A config problem with its exact location. `file` is absent for built-in defaults. */
export class ConfigError extends Error {
  readonly file?: string;
  readonly line?: number;
  readonly column?: number;
  readonly keyPath?: string;

  constructor(opts: { message: string; file?: string; line?: number; column?: number; keyPath?: string }) {
    super(opts.message);
    this.name = 'ConfigError';
    this.file = opts.file;
    this.line = opts.line;
    this.column = opts.column;
    this.keyPath = opts.keyPath;
  }
}
