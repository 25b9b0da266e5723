// The store the chat's cards read live child state from. The tool-card dispatch hands a
// renderer only the item and its layout, so the store is set once, at registration.
import type { RuntimeStore } from '../../runtime/store.js';

let current: RuntimeStore | undefined;

export function setCardStore(store: RuntimeStore | undefined): void {
  current = store;
}

export function cardStore(): RuntimeStore | undefined {
  return current;
}
