// The runtime store the chat's views read, given by App through React context instead of a
// module-level variable: a second App (tests, /resume's fresh chat) gets its own store, and
// a card rendered outside an App binds to nothing rather than to a stale store.
import { createContext } from 'react';
import type { RuntimeStore } from '../runtime/store.js';

export const RuntimeStoreContext = createContext<RuntimeStore | undefined>(undefined);
