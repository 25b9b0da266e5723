// An MCP tool result as the model reads it: text as sent, images and audio as a one-line
// stand-in (`[image: <mime>, <size>]`: the bytes would cost tokens and no provider here
// takes them back in a tool result), resource links and embedded resources by their URI.
// Output past the cap is cut with a note, as the shell tool does with its output.
import { formatBytes } from '../text/sizes.js';
import { CUT_META_KEY } from './oversized.js';

/** The most of one result the model reads back (the shell tool's cap). */
export const MCP_OUTPUT_CAP_BYTES = 32 * 1024;
export const MCP_OUTPUT_TRUNCATED = (shown: number, total: number) =>
  `\n[truncated: showed the first ${shown} of ${total} bytes of the tool's output]`;
export const MCP_EMPTY_RESULT = '(the tool returned no content)';

/** The one size formatter (text/sizes.ts), so a card and /context say sizes alike. */
export const formatSize = formatBytes;

/** Bytes a base64 string decodes to, without decoding it. */
function base64Size(data: unknown): number {
  if (typeof data !== 'string') return 0;
  const clean = data.replace(/\s/g, '');
  const pad = clean.endsWith('==') ? 2 : clean.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((clean.length * 3) / 4) - pad);
}

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

function part(item: Record<string, unknown>): string {
  switch (item.type) {
    case 'text':
      return str(item.text) ?? '';
    case 'image':
      return `[image: ${str(item.mimeType) ?? 'unknown'}, ${formatSize(base64Size(item.data))}]`;
    case 'audio':
      return `[audio: ${str(item.mimeType) ?? 'unknown'}, ${formatSize(base64Size(item.data))}]`;
    case 'resource_link': {
      const name = str(item.name) ?? str(item.uri) ?? '';
      const mime = str(item.mimeType);
      const desc = str(item.description);
      return `[resource link: ${name} <${str(item.uri) ?? ''}>${mime ? `, ${mime}` : ''}]${desc ? ` ${desc}` : ''}`;
    }
    case 'resource': {
      const r = (item.resource ?? {}) as Record<string, unknown>;
      const uri = str(r.uri) ?? '';
      if (typeof r.text === 'string') return `[resource: ${uri}]\n${r.text}`;
      return `[resource: ${uri}, ${str(r.mimeType) ?? 'unknown'}, ${formatSize(base64Size(r.blob))}]`;
    }
    default:
      return `[${String(item.type ?? 'unknown')} content]`;
  }
}

/** `text` within the cap; `total` is the size of the whole output when the stdio transport
 * already cut it (the note then says how large it really was). */
function cap(text: string, total = Buffer.byteLength(text, 'utf8')): string {
  if (total <= MCP_OUTPUT_CAP_BYTES) return text;
  const kept = Buffer.from(text, 'utf8')
    .subarray(0, MCP_OUTPUT_CAP_BYTES)
    .toString('utf8')
    .replace(/\uFFFD$/, '');
  return kept + MCP_OUTPUT_TRUNCATED(Buffer.byteLength(kept, 'utf8'), total);
}

/** The text of a tools/call result, and whether the server called it an error. */
export function formatToolResult(result: unknown): { text: string; isError: boolean } {
  const r = (result ?? {}) as Record<string, unknown>;
  const content = Array.isArray(r.content) ? (r.content as Array<Record<string, unknown>>) : [];
  let text = content.map((item) => part(item ?? {})).join('\n');
  if (text === '' && r.structuredContent !== undefined) text = JSON.stringify(r.structuredContent);
  // Old servers answer with { toolResult } instead of content.
  if (text === '' && r.toolResult !== undefined) text = JSON.stringify(r.toolResult);
  const meta = (r._meta ?? {}) as Record<string, unknown>;
  const cutAt = typeof meta[CUT_META_KEY] === 'number' ? (meta[CUT_META_KEY] as number) : undefined;
  return { text: cap(text === '' ? MCP_EMPTY_RESULT : text, cutAt), isError: r.isError === true };
}
