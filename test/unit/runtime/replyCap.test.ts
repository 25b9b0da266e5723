// A reply larger than max_reply_kb: the store, the session file and the model history keep
// only the first max_reply_kb, and a notice says how much arrived and how much was kept.
import { describe, expect, it } from 'vitest';
import { setLanguage } from '../../../src/i18n/index.js';
import { ReplyBuffer } from '../../../src/runtime/replyBuffer.js';
import type { TranscriptItem } from '../../../src/runtime/types.js';
import { baseToml, makeFixture, type Fixture } from '../../helpers/runtimeFixture.js';

let fx: Fixture | undefined;

describe('ReplyBuffer', () => {
  it('keeps up to the cap, cuts on a character boundary, counts everything', () => {
    const b = new ReplyBuffer(10);
    b.append('12345');
    b.append('678é€x');
    b.append('more');
    expect(b.text).toBe('12345678é');
    expect(b.keptBytes).toBe(10);
    expect(b.receivedBytes).toBe(5 + 9 + 4);
    expect(b.truncated).toBe(true);
    const small = new ReplyBuffer(10);
    small.append('short');
    expect(small.truncated).toBe(false);
  });
});

describe('a reply over max_reply_kb', () => {
  it('is capped in the store, the session sink and the history, with a notice', async () => {
    setLanguage('en');
    const chunk = 'x'.repeat(1023) + '\n';
    const sunk: TranscriptItem[] = [];
    fx = await makeFixture({
      respond: () => ({ kind: 'text', chunks: Array.from({ length: 300 }, () => chunk) }),
      toml: (url) => baseToml(url, '[runtime_profiles.default]\nmax_reply_kb = 64\n'),
      runtime: { sinks: { appendItem: (item) => sunk.push(item) } },
    });
    await fx.runtime.startTurn('flood me');
    const state = fx.runtime.store.getState();
    const reply = state.transcript.find((i) => i.kind === 'assistant');
    expect(reply?.kind === 'assistant' && reply.text.length).toBe(64 * 1024);
    const notice = state.transcript.find((i) => i.kind === 'notice');
    expect(notice?.kind === 'notice' && notice.text).toBe(
      'Reply truncated: 300 KB received, the first 64 KB kept on screen, in the session file and for the model (max_reply_kb in the runtime profile raises the cap).',
    );
    const saved = sunk.find((i) => i.kind === 'assistant');
    expect(saved?.kind === 'assistant' && saved.text.length).toBe(64 * 1024);
    expect(sunk.some((i) => i.kind === 'notice')).toBe(true);
    const last = fx.runtime.history.at(-1)!;
    expect(last.role).toBe('assistant');
    expect(last.content.length).toBeLessThan(64 * 1024 + 200);
    expect(last.content).toContain('[arbor: reply truncated here; 65536 of 307200 bytes kept]');
    const root = state.runs.values().find((r) => r.kind === 'root')!;
    expect(root.status).toBe('completed');
    expect(root.result?.length).toBe(64 * 1024);
  });

  it('a reply under the cap is untouched and gets no notice', async () => {
    fx = await makeFixture({ respond: () => ({ kind: 'text', chunks: ['small ', 'reply'] }) });
    await fx.runtime.startTurn('hi');
    const state = fx.runtime.store.getState();
    expect(state.transcript.some((i) => i.kind === 'notice')).toBe(false);
    expect(fx.runtime.history.at(-1)).toMatchObject({ role: 'assistant', content: 'small reply' });
  });
});
