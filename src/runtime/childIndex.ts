// The index moved to the model layer (model/childIndex.ts) so the ledger's roll-ups, which
// views read too, can use it; the runtime keeps importing it from here.
export { ChildIndex } from '../model/childIndex.js';
