#!/usr/bin/env node
// Thin launcher: everything lives in the compiled code under dist/.
import('../dist/cli/main.js').then((m) => m.main(process.argv.slice(2))).catch((err) => {
  process.stderr.write(`arbor: ${err && err.message ? err.message : String(err)}\n`);
  process.exit(1);
});
