// The bounded line reader and what an oversized stdio message becomes.
import { describe, expect, it } from 'vitest';
import { LINE_HEAD_BYTES, LineReader, type OversizedLine } from '../../../src/mcp/lineReader.js';
import { CUT_META_KEY, leadingText, oversizedMessage, type OversizedOutcome } from '../../../src/mcp/oversized.js';

/** The JSON-RPC message an oversized line is answered with, as far as these tests read it. */
interface Answer {
  id: string | number;
  result?: { _meta: Record<string, unknown>; content: Array<{ text: string }> };
  error?: { message: string };
}

/** The answer an outcome carries; fails when the line was dropped instead. */
function answerOf(out: OversizedOutcome): Answer {
  if (!('message' in out)) throw new Error(`expected an answer, got ${JSON.stringify(out)}`);
  return out.message as unknown as Answer;
}

function collect(max: number) {
  const lines: string[] = [];
  const big: OversizedLine[] = [];
  const reader = new LineReader(max, { line: (l) => lines.push(l), oversized: (b) => big.push(b) });
  return { reader, lines, big };
}

describe('LineReader', () => {
  it('joins lines split across chunks and strips a CR', () => {
    const { reader, lines } = collect(LINE_HEAD_BYTES);
    reader.push(Buffer.from('{"a":1}\r\n{"b"'));
    reader.push(Buffer.from(':2}\n\n'));
    expect(lines).toEqual(['{"a":1}', '{"b":2}']);
  });

  it('a line over the bound is consumed to its newline keeping only head and tail; the next line reads whole', () => {
    const { reader, lines, big } = collect(LINE_HEAD_BYTES);
    const long = 'a'.repeat(LINE_HEAD_BYTES * 3) + 'END';
    for (let i = 0; i < long.length; i += 1000) reader.push(Buffer.from(long.slice(i, i + 1000)));
    reader.push(Buffer.from('\n{"ok":true}\n'));
    expect(big).toHaveLength(1);
    expect(big[0]!.total).toBe(long.length);
    expect(big[0]!.head.length).toBe(LINE_HEAD_BYTES);
    expect(big[0]!.tail.toString().endsWith('END')).toBe(true);
    expect(lines).toEqual(['{"ok":true}']);
  });
});

describe('oversizedMessage', () => {
  const line = (json: string, total: number): OversizedLine => ({
    head: Buffer.from(json.slice(0, 200)),
    tail: Buffer.from(json.slice(-50)),
    total,
  });

  it('a result (id last, as the SDK writes it) answers its request with the leading text and the size', () => {
    const json = `{"result":{"content":[{"type":"text","text":"line one\\nq\\"${'z'.repeat(300)}"}]},"jsonrpc":"2.0","id":7}`;
    const out = oversizedMessage(line(json, 99_000_000), 8_000_000);
    expect('message' in out).toBe(true);
    const msg = answerOf(out);
    expect(msg.id).toBe(7);
    expect(msg.result?._meta[CUT_META_KEY]).toBe(99_000_000);
    expect(msg.result?.content[0].text.startsWith('line one\nq"zzz')).toBe(true);
  });

  it('an error response becomes an error naming the size; a message without an id is dropped', () => {
    const err = `{"jsonrpc":"2.0","id":"r1","error":{"code":1,"message":"${'e'.repeat(300)}"}}`;
    const out = answerOf(oversizedMessage(line(err, 20_000_000), 8_000_000));
    expect(out.id).toBe('r1');
    expect(out.error?.message).toContain('20000000 bytes');
    const note = `{"jsonrpc":"2.0","method":"notifications/message","params":{"data":"${'n'.repeat(300)}"}}`;
    expect(oversizedMessage(line(note, 20_000_000), 8_000_000)).toEqual({ dropped: expect.stringContaining('20000000 bytes') });
  });

  it('leadingText never ends in half an escape', () => {
    expect(leadingText('{"text":"ab\\u00')).toBe('ab');
    expect(leadingText('{"text":"ab\\')).toBe('ab');
    expect(leadingText('{"text":"a\\"b"}')).toBe('a"b');
  });
});

describe('assignToolNames', () => {
  it('is deterministic and distinct', async () => {
    const { assignToolNames } = await import('../../../src/mcp/names.js');
    const tools = ['a.b', 'a_b', 'a b'];
    const one = assignToolNames('s', tools);
    expect(assignToolNames('s', tools)).toEqual(one);
    expect(new Set(one.names).size).toBe(3);
    expect(one.names[0]).toBe('mcp__s__a_b');
    expect(one.renamed).toHaveLength(2);
  });
});
