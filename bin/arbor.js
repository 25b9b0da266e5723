#!/usr/bin/env node
// Thin launcher: everything lives in the compiled code under dist/.
// React's development build is several times slower; a terminal app runs the production one
// unless the user asks otherwise.
process.env.NODE_ENV ??= 'production';
import('../dist/cli/main.js').then((m) => m.main(process.argv.slice(2))).catch((err) => {
  process.stderr.write(`arbor: ${err && err.message ? err.message : String(err)}\n`);
  process.exit(1);
});
