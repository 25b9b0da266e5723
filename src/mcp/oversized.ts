// What a stdio message too long to keep becomes. A JSON-RPC response is still answered, so
// the request it belongs to neither hangs nor times out: a result becomes a text result of
// the text its first bytes hold, marked with how large the whole message was (results.ts
// cuts it with the usual note); an error becomes an error naming the size. Anything else
// (a notification, a request from the server) cannot be answered and is dropped.
import type { OversizedLine } from './lineReader.js';

/** `_meta` key of a result the stdio transport cut; its value is the message's size. */
export const CUT_META_KEY = 'arbor/cut-message-bytes';

type JsonRpcId = string | number;

const ID_LAST = /"id"\s*:\s*(-?\d+|"(?:[^"\\]|\\.)*")\s*\}\s*$/;
const ID_FIRST = /^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"id"\s*:\s*(-?\d+|"(?:[^"\\]|\\.)*")/;

function idOf(head: string, tail: string): JsonRpcId | undefined {
  const m = ID_FIRST.exec(head) ?? ID_LAST.exec(tail);
  if (!m) return undefined;
  return JSON.parse(m[1]!) as JsonRpcId;
}

/** The start of the first text content in a cut JSON message: a JSON string read up to the
 * closing quote or to the end of what was kept, without a half escape. */
export function leadingText(head: string): string {
  const at = /"text"\s*:\s*"/.exec(head);
  if (!at) return '';
  const from = at.index + at[0].length;
  let i = from;
  while (i < head.length && head[i] !== '"') i += head[i] === '\\' ? 2 : 1;
  let body = head.slice(from, Math.min(i, head.length));
  // A decoder's replacement for a character cut in two, then any half escape at the end.
  body = body.replace(/\uFFFD$/, '');
  body = body.replace(/\\(u[0-9a-fA-F]{0,3})?$/, '');
  try {
    return JSON.parse(`"${body}"`) as string;
  } catch {
    return '';
  }
}

export type OversizedOutcome = { message: Record<string, unknown> } | { dropped: string };

export function oversizedMessage(line: OversizedLine, maxBytes: number): OversizedOutcome {
  const head = line.head.toString('utf8');
  const tail = line.tail.toString('utf8');
  const id = idOf(head, tail);
  const what = `a message of ${line.total} bytes from the server (over the ${maxBytes}-byte limit of one stdio message)`;
  if (id === undefined) return { dropped: `dropped ${what}` };
  if (/^\s*\{[^{]{0,40}"error"\s*:/.test(head) || (!/"result"\s*:/.test(head) && /"error"\s*:/.test(head))) {
    return { message: { jsonrpc: '2.0', id, error: { code: -32603, message: `the server answered with ${what}` } } };
  }
  return {
    message: {
      jsonrpc: '2.0',
      id,
      result: { content: [{ type: 'text', text: leadingText(head) }], _meta: { [CUT_META_KEY]: line.total } },
    },
  };
}
