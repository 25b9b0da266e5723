// Reading what a request offers, for the offline model: which agents the `delegate` tool
// can reach (from its `agent` parameter), and which name the system prompt calls "you".
import type { ModelMessage, ToolSpec } from './types.js';

const NAME = /[A-Za-z0-9][A-Za-z0-9_.-]*/;
const NOT_NAMES = new Set(['none', 'no', 'the', 'agent', 'agents', 'available', 'and', 'or']);

function clean(token: string): string | undefined {
  const m = token
    .trim()
    .replace(/^[`'"]+/, '')
    .match(NAME);
  if (!m) return undefined;
  const name = m[0].replace(/[.]+$/, '');
  return name && !NOT_NAMES.has(name.toLowerCase()) ? name : undefined;
}

function unique(names: Array<string | undefined>): string[] {
  const out: string[] = [];
  for (const n of names) if (n && !out.includes(n)) out.push(n);
  return out;
}

/** Agent names listed in a roster description. Understands bullet lists ("- reviewer: ..."),
 * a list after a colon ("Available agents: a, b") and quoted names. */
export function parseRoster(description: string): string[] {
  const bullets = description
    .split('\n')
    .map((line) => line.match(/^\s*(?:[-*•]|\d+[.)])\s+(.+)$/)?.[1])
    .map((rest) => (rest === undefined ? undefined : clean(rest)));
  const fromBullets = unique(bullets);
  if (fromBullets.length > 0) return fromBullets;

  const listed = description.match(/agents?\b[^:\n]*:\s*([^\n]+)/i)?.[1];
  if (listed) {
    const names = unique(listed.split(/[,;]|\s+and\s+/).map((item) => clean(item.replace(/\(.*?\)/g, ''))));
    if (names.length > 0) return names;
  }
  return unique([...description.matchAll(/[`'"]([A-Za-z0-9][A-Za-z0-9_.-]*)[`'"]/g)].map((m) => clean(m[1])));
}

function toolNamed(tools: ToolSpec[], name: string): ToolSpec | undefined {
  return tools.find((t) => t.name === name);
}

/** The reachable agents the delegate tool advertises: its `agent` enum if it has one, else
 * the names in the parameter's description. Empty when delegate is not offered. */
export function delegateRoster(tools: ToolSpec[]): string[] {
  const spec = toolNamed(tools, 'delegate');
  const agent = (spec?.parameters as { properties?: Record<string, { enum?: unknown; description?: unknown }> } | undefined)?.properties
    ?.agent;
  if (!agent) return [];
  if (Array.isArray(agent.enum)) return unique(agent.enum.map((v) => (typeof v === 'string' ? v : undefined)));
  return typeof agent.description === 'string' ? parseRoster(agent.description) : [];
}

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** True when the system prompt names `name` as the agent itself ("You are reviewer", "your
 * alias is main", "alias: main"). */
export function isSelf(name: string, messages: ModelMessage[]): boolean {
  const system = messages
    .filter((m) => m.role === 'system')
    .map((m) => m.content)
    .join('\n');
  if (!system) return false;
  const re = new RegExp(
    `(?:\\byou are|\\byou're|\\byour (?:alias|name) is|\\balias\\s*[:=]|\\bagent\\s*[:=])\\s*(?:the\\s+)?[\`'"]?${escapeRe(name)}(?![A-Za-z0-9_-])`,
    'i',
  );
  return re.test(system);
}

/** The first roster agent that is not the caller itself (or the first one if all are). */
export function pickDelegateTarget(tools: ToolSpec[], messages: ModelMessage[]): string | undefined {
  const roster = delegateRoster(tools);
  return roster.find((n) => !isSelf(n, messages)) ?? roster[0];
}
