// Shapes of the runtime store: the one source of truth for every run's lifecycle. They live
// in src/model/ (every layer reads them, the UI only from there); they are re-exported here
// for the runtime's own convenience.
export * from '../model/run.js';
export * from '../model/transcript.js';
export * from '../model/controls.js';
export * from '../model/quota.js';
export type { RunTable, RuntimeInfo, RuntimeState } from '../model/state.js';
