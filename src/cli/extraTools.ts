// Tools that need process-level state (the delegate tool and its task store) are assembled
// here, so the runtime stays free of persistence paths.
import type { ArborConfig } from '../config/types.js';
import type { Tool } from '../tools/types.js';

export function extraToolsFor(_config: ArborConfig, _arborHome: string): Tool[] {
  return [];
}
