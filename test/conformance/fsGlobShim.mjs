// Node 20 has no fs.globSync, which the conformance suite imports by name (only its
// tier-check command uses it). Loaded with `node --import`, this hook gives the suite's
// modules an `fs` that has it; elsewhere nothing changes.
import { register } from 'node:module';

if (!('globSync' in (await import('node:fs')))) {
  const shim = [
    "import * as fs from 'node:fs';",
    "export * from 'node:fs';",
    'export default fs;',
    "export function globSync() { throw new Error('fs.globSync needs Node 22 (only tier-check uses it)'); }",
  ].join('\n');
  const hooks = `
const SHIM = ${JSON.stringify(`data:text/javascript,${encodeURIComponent(shim)}`)};
export async function resolve(specifier, context, next) {
  if ((specifier === 'fs' || specifier === 'node:fs') && context.parentURL?.includes('/@modelcontextprotocol/conformance/')) {
    return { url: SHIM, shortCircuit: true };
  }
  return next(specifier, context);
}`;
  register(`data:text/javascript,${encodeURIComponent(hooks)}`);
}
