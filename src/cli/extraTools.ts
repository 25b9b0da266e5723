// Tools that need process-level state (the delegate tool and its task store) are assembled
// here, so the runtime stays free of persistence paths.
import type { ArborConfig } from '../config/types.js';
import { TaskStore } from '../persistence/taskRecords.js';
import { delegationServices } from '../runtime/delegation/service.js';
import type { SupervisorDeps } from '../runtime/supervisorTypes.js';
import { delegateTool } from '../tools/delegate/tool.js';
import type { Tool } from '../tools/types.js';

export function extraToolsFor(_config: ArborConfig, _arborHome: string): Tool[] {
  return [delegateTool];
}

/** The services behind extraToolsFor's tools. Call once at startup: a task that was
 * running when a previous arbor died is marked lost here, before anyone can read it. */
export function extraServicesFor(_config: ArborConfig, arborHome: string): NonNullable<SupervisorDeps['extraServices']> {
  const tasks = new TaskStore(arborHome);
  let warning: string | undefined;
  try {
    tasks.markLostOnStartup();
  } catch (err) {
    // An unwritable tasks folder must not stop the chat; the first turn says so.
    warning = (err as Error).message;
  }
  return delegationServices(tasks, warning);
}
