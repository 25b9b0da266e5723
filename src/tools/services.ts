// ToolServices: everything a tool may ask of the runtime, by name. Declared here and
// implemented in runtime/ (Supervisor.servicesFor, runtime/delegation/), so tools/ stays below
// runtime/ and a tool cannot reach the supervisor itself, only these calls.
import type { SubagentServices } from './childServices.js';
import type { DelegateServices } from './delegate/services.js';

export interface ToolServices extends SubagentServices {
  /** The delegate tool's side of the runtime (foreground and background children, task
   * records); absent when no delegate service is installed. */
  delegate?: DelegateServices;
}

/** What a runtime adds beside the subagent services (SupervisorDeps.extraServices). */
export type ExtraToolServices = Omit<ToolServices, keyof SubagentServices>;
