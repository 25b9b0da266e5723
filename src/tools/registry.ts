// An immutable, ordered set of tools keyed by name. Every narrowing step (policy filter,
// removing spawn_subagent for a child, intersecting with a delegate target's policy)
// returns a new registry, so a parent's registry is never changed by building a child's.
import type { ArborConfig } from '../config/types.js';
import type { ToolSpec } from '../providers/types.js';
import type { Tool, ToolCaller } from './types.js';
import { shellTool } from './shell.js';
import { listFilesTool } from './listFiles.js';
import { readFileTool } from './readFile.js';
import { editFileTool } from './editFile.js';
import { globTool } from './glob.js';
import { grepTool } from './grep.js';
import { writeFileTool } from './writeFile.js';

export class ToolRegistry {
  private readonly tools: readonly Tool[];
  private readonly byName: ReadonlyMap<string, Tool>;

  constructor(tools: Tool[]) {
    const byName = new Map<string, Tool>();
    for (const tool of tools) {
      if (byName.has(tool.name)) {
        throw new Error(`ToolRegistry: two tools are named '${tool.name}'; tool names must be unique`);
      }
      byName.set(tool.name, tool);
    }
    this.tools = [...tools];
    this.byName = byName;
  }

  get(name: string): Tool | undefined {
    return this.byName.get(name);
  }

  has(name: string): boolean {
    return this.byName.has(name);
  }

  get size(): number {
    return this.tools.length;
  }

  list(): Tool[] {
    return [...this.tools];
  }

  names(): string[] {
    return this.tools.map((t) => t.name);
  }

  /** The schemas the model sees, described for this caller under this config. */
  specs(caller: ToolCaller, config: ArborConfig): ToolSpec[] {
    return this.tools.map((t) => t.spec(caller, config));
  }

  filter(pred: (tool: Tool) => boolean): ToolRegistry {
    return new ToolRegistry(this.tools.filter(pred));
  }

  without(...names: string[]): ToolRegistry {
    const drop = new Set(names);
    return this.filter((t) => !drop.has(t.name));
  }

  /** Adds a tool, or replaces the one with the same name in place. */
  with(tool: Tool): ToolRegistry {
    if (!this.byName.has(tool.name)) return new ToolRegistry([...this.tools, tool]);
    return new ToolRegistry(this.tools.map((t) => (t.name === tool.name ? tool : t)));
  }
}

/** The built-ins every agent starts from (spawn_subagent and delegate are added by the runtime). */
export function builtinTools(): Tool[] {
  return [shellTool, readFileTool, writeFileTool, listFilesTool, editFileTool, grepTool, globTool];
}
