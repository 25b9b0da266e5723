// A server's tool list, tool by tool. The SDK's listTools validates the whole page with its
// ToolSchema, so one tool with an invalid inputSchema failed the whole server. Here the page
// is fetched with a permissive schema and each tool checked on its own: a bad one is
// dropped with a one-line reason naming it, the rest are kept.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ToolSchema, type Tool } from '@modelcontextprotocol/sdk/types.js';
import * as z from 'zod/v4';

const LoosePage = z.looseObject({ tools: z.array(z.unknown()), nextCursor: z.string().optional() });

/** How many pages a list may take: a server that keeps handing out cursors is cut off. */
const MAX_PAGES = 1000;

export interface ToolList {
  tools: Tool[];
  /** One line per dropped tool, naming it and what was wrong. */
  dropped: string[];
}

function nameOf(raw: unknown, index: number): string {
  const name = (raw as { name?: unknown } | null)?.name;
  return typeof name === 'string' ? `'${name}'` : `#${index + 1} (no name)`;
}

function reasonOf(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'invalid';
  const path = issue.path.join('.');
  return `${path ? `${path}: ` : ''}${issue.message}`;
}

export async function listToolsTolerantly(client: Client, timeoutMs: number): Promise<ToolList> {
  const tools: Tool[] = [];
  const dropped: string[] = [];
  let cursor: string | undefined;
  let index = 0;
  for (let page = 0; page < MAX_PAGES; page++) {
    const result = await client.request({ method: 'tools/list', params: cursor ? { cursor } : {} }, LoosePage, { timeout: timeoutMs });
    for (const raw of result.tools) {
      const parsed = ToolSchema.safeParse(raw);
      if (parsed.success) tools.push(parsed.data);
      else dropped.push(`tool ${nameOf(raw, index)} dropped: ${reasonOf(parsed.error)}`);
      index++;
    }
    cursor = result.nextCursor;
    if (!cursor) break;
  }
  // What the SDK's listTools would have cached (output schema validators, task support);
  // private in its types, so reached through a guarded cast (absent in another version:
  // results then go unchecked against outputSchema).
  try {
    (client as unknown as { cacheToolMetadata?: (t: Tool[]) => void }).cacheToolMetadata?.(tools);
  } catch {
    // a bad outputSchema: calls go unchecked rather than the server lost
  }
  return { tools, dropped };
}
