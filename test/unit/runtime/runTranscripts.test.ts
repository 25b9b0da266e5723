import { describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { RunTranscripts } from '../../../src/runtime/runTranscripts.js';
import type { TranscriptItem } from '../../../src/runtime/types.js';

const item = (runId: string, text: string): TranscriptItem => ({ id: randomUUID(), kind: 'assistant', runId, text, at: 0 });

describe('RunTranscripts', () => {
  it('keeps each run’s items apart, for many runs', () => {
    let t = RunTranscripts.empty;
    const ids = Array.from({ length: 300 }, () => randomUUID());
    for (const id of ids) t = t.with(id, [item(id, `first of ${id}`)]);
    for (const id of ids) t = t.with(id, [...t.get(id)!, item(id, `second of ${id}`)]);
    expect(t.size).toBe(300);
    for (const id of ids)
      expect(t.get(id)!.map((i) => (i.kind === 'assistant' ? i.text : ''))).toEqual([`first of ${id}`, `second of ${id}`]);
    expect(t.get(randomUUID())).toBeUndefined();
  });

  it('is immutable: an update returns a new value and leaves the old one as it was', () => {
    const a = RunTranscripts.empty.with('r1', [item('r1', 'one')]);
    const b = a.with('r1', [item('r1', 'two')]).with('r2', [item('r2', 'x')]);
    expect(a).not.toBe(b);
    expect(a.get('r1')![0]).toMatchObject({ text: 'one' });
    expect(a.get('r2')).toBeUndefined();
    expect(a.size).toBe(1);
    expect(b.get('r1')![0]).toMatchObject({ text: 'two' });
    expect(b.size).toBe(2);
    expect(RunTranscripts.empty.size).toBe(0);
  });
});
