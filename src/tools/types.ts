// The tool contract. A tool is a name, a schema the model reads, and a function that
// returns a ToolResult: `output` on success, `error` (a string the model reads) on failure.
import type { ArborConfig } from '../config/types.js';
import type { ToolSpec } from '../model/messages.js';
import type { ToolDisplay } from '../model/toolDisplay.js';
import type { ToolCallOrigin, ToolCaller } from './caller.js';
import type { ToolServices } from './services.js';

export type { ActionTracker, ToolCaller, ToolCallOrigin } from './caller.js';
export type { ToolServices } from './services.js';
export type { ToolDisplay } from '../model/toolDisplay.js';

export interface ToolResult {
  success: boolean;
  output: string;
  error?: string;
  /** What the result means, as data (model/toolDisplay.ts), for cards, the viewer, headless
   * JSON and the offline model. Never sent to a real model: it reads `output`/`error`. */
  display?: ToolDisplay;
}

export function ok(output: string, display?: ToolDisplay): ToolResult {
  return display ? { success: true, output, display } : { success: true, output };
}

export function fail(error: string, display?: ToolDisplay): ToolResult {
  return display ? { success: false, output: '', error, display } : { success: false, output: '', error };
}

export interface ToolContext extends ToolCallOrigin {
  config: ArborConfig;
  /** Workspace directory (shell cwd, relative paths resolve against it). */
  cwd: string;
  /** What the runtime lends tools that create runs (spawn_subagent, delegate); undefined
   * where no supervisor runs the tool (unit tests of plain tools). */
  services: ToolServices | undefined;
}

export interface Tool {
  readonly name: string;
  /** Built per caller so descriptions can state the real limits from config. */
  spec(caller: ToolCaller, config: ArborConfig): ToolSpec;
  /** Whether a call asks the operator by default (write_file, shell) or not (reads, spawns). */
  readonly asksByDefault: boolean;
  /** MCP tools whose server marks them readOnlyHint: auto-approved where the profile sets
   * trust_read_only_mcp (tools/approvalPolicy.ts). */
  readonly readOnlyHint?: boolean;
  /** Exempt from the per-turn duplicate-call guard (spawn_subagent, delegate). */
  readonly duplicateExempt?: boolean;
  run(args: unknown, ctx: ToolContext): Promise<ToolResult>;
  /** What the call would change, computed before the operator is asked (write_file and
   * edit_file: the diff), so the approval prompt can show it. Undefined when the call
   * changes nothing shown as a diff, or when its arguments do not parse (run reports
   * that). Never writes. */
  preview?(args: unknown, ctx: ToolContext): Promise<ToolDisplay | undefined>;
}
