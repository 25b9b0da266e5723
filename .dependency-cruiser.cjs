// The layer order of docs/architecture.md, checked in `npm test` (npm run lint:layers).
// Imports point downward only; a layer may use any layer below it, never one above.
// Type-only imports count: a type cycle couples two files as much as a value cycle.
const LAYERS = ['cli', 'acp/server', 'ui', 'runtime', 'acp/client', 'tools', 'mcp', 'providers', 'config', 'persistence', 'text', 'model'];

const above = (i) => LAYERS.slice(0, i);

const layerRules = LAYERS.map((layer, i) => ({
  name: `layer-${layer}`,
  comment: `src/${layer}/ may not import from a layer above it (${above(i).join(', ') || 'none'})`,
  severity: 'error',
  from: { path: `^src/${layer}/` },
  to: { path: i === 0 ? '^$' : `^src/(${above(i).join('|')})/` },
}));

module.exports = {
  forbidden: [
    ...layerRules,
    {
      name: 'ui-through-runtime-api',
      comment: 'The UI reaches the runtime only through RuntimeApi, store selectors and run labels',
      severity: 'error',
      from: { path: '^src/ui/' },
      to: { path: '^src/runtime/', pathNot: '^src/runtime/(runtimeApi|store|runSelection)\\.ts$' },
    },
    {
      name: 'ui-reads-shapes-from-model',
      comment: 'Runs, transcript items, controls and the store shape are model/ shapes; runtime/types.ts only re-exports them for the runtime',
      severity: 'error',
      from: { path: '^src/ui/' },
      to: { path: '^src/runtime/types\\.ts$' },
    },
    {
      name: 'ui-asks-the-runtime-for-stored-runs',
      comment: 'Session and task files are read by the runtime (RuntimeApi), not by views',
      severity: 'error',
      from: { path: '^src/ui/' },
      to: { path: '^src/persistence/' },
    },
    {
      name: 'ui-writes-no-files',
      comment:
        'Copies and exports are written by the runtime (RuntimeApi.exportText, exportTree); views neither touch files nor read config paths',
      severity: 'error',
      from: { path: '^src/ui/' },
      to: { path: '^(node:)?fs(/promises)?$|^src/config/paths\\.ts$' },
    },
    {
      name: 'no-react-below-ui',
      comment: 'Headless mode and the tests drive the runtime with no UI',
      severity: 'error',
      from: { path: '^src/(runtime|tools|mcp|providers|config|persistence|text|model|i18n|timers)/' },
      to: { path: '(^|/)node_modules/(react|ink)/' },
    },
    {
      name: 'i18n-is-a-leaf',
      severity: 'error',
      from: { path: '^src/i18n/' },
      to: { path: '^src/(?!i18n/)' },
    },
    {
      name: 'timers-is-a-leaf',
      comment: 'The timer helper is below every layer: anything may wait through it',
      severity: 'error',
      from: { path: '^src/timers/' },
      to: { path: '^src/(?!timers/)' },
    },
    {
      name: 'no-test-support-in-the-app',
      comment: 'Loopback servers and harnesses are for tests and benchmarks; they never ship',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: '^(test|bench)/' },
    },
    {
      name: 'no-circular',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
  },
};
