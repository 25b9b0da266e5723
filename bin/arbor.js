#!/usr/bin/env node
// Thin launcher: everything lives in the release bundle dist/arbor.js (scripts/build.mjs).
// React's development build is several times slower; a terminal app runs the production one
// unless the user asks otherwise.
process.env.NODE_ENV ??= 'production';

// Starting the chat takes a moment. Keys typed meanwhile would be echoed and line-buffered
// by the terminal, then arrive as one pasted block; in raw mode they wait, unechoed, for
// the input line. Headless runs, --help, init and doctor keep the terminal as it is.
const args = process.argv.slice(2);
const oneShot = args.some(
  (a) => /^(-p|--print|-h|--help|-v|--version|init|doctor)$/.test(a) || a.startsWith('--print=') || /^-[a-z]*p/.test(a),
);
if (!oneShot && process.stdin.isTTY && typeof process.stdin.setRawMode === 'function') {
  process.stdin.setRawMode(true);
  process.on('exit', () => {
    try {
      process.stdin.setRawMode(false);
    } catch {
      // the terminal is already gone
    }
  });
}

import('../dist/arbor.js')
  .then((m) => m.main(args))
  .catch((err) => {
    process.stderr.write(`arbor: ${err && err.message ? err.message : String(err)}\n`);
    process.exit(1);
  });
