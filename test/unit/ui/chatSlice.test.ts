// What the chat screen takes from the store at once and what waits for the next frame
// (src/ui/state/chatSlice.ts): only a running turn's transcript changes wait.
import { describe, expect, it } from 'vitest';
import { createRuntimeStore } from '../../../src/runtime/store.js';
import type { RuntimeState } from '../../../src/model/state.js';
import type { TranscriptItem } from '../../../src/model/transcript.js';
import type { PendingApproval } from '../../../src/model/controls.js';
import type { QuotaPause } from '../../../src/model/quota.js';
import { sameChatSlice, selectChatSlice, urgentChatChange } from '../../../src/ui/state/chatSlice.js';

const note = (text: string): TranscriptItem => ({ id: text, kind: 'notice', level: 'info', text }) as TranscriptItem;

function change(from: RuntimeState, patch: (s: RuntimeState) => Partial<RuntimeState>) {
  const a = selectChatSlice(from);
  const b = selectChatSlice({ ...from, ...patch(from) });
  return { same: sameChatSlice(a, b), urgent: urgentChatChange(a, b) };
}

describe('the chat slice', () => {
  const idle = createRuntimeStore('s').getState();
  const running: RuntimeState = { ...idle, activeRootRunId: 'root-1' };

  it("a running turn's transcript change waits for the frame", () => {
    expect(change(running, (s) => ({ transcript: [...s.transcript, note('card')] }))).toEqual({ same: false, urgent: false });
  });

  it('a transcript change with no turn running shows at once (/clear, a resumed session)', () => {
    expect(change(idle, () => ({ transcript: [note('restored')] }))).toEqual({ same: false, urgent: true });
  });

  it('a turn starting or ending shows at once, with the transcript of that moment', () => {
    expect(change(idle, (s) => ({ activeRootRunId: 'root-1', transcript: [...s.transcript, note('go')] })).urgent).toBe(true);
    expect(change(running, () => ({ activeRootRunId: undefined })).urgent).toBe(true);
  });

  it('an ask, a retry notice, a quota banner or new agent info shows at once', () => {
    const ask = { id: 'a1', runId: 'root-1', callId: 'c', tool: 'shell', args: {}, createdAt: 0 } as PendingApproval;
    expect(change(running, (s) => ({ controls: { ...s.controls, approvals: [ask] } })).urgent).toBe(true);
    expect(change(running, () => ({ retryNotice: 'retrying in 2s' })).urgent).toBe(true);
    const pause: QuotaPause = { provider: 'p', label: 'p', runIds: ['root-1'], resetAt: 1, resetKnown: true, reason: 'rate_limit' };
    expect(change(running, () => ({ quotaPauses: [pause] })).urgent).toBe(true);
    expect(change(running, (s) => ({ info: { ...s.info, agentAlias: 'other' } })).urgent).toBe(true);
  });

  it('what the screen does not read changes nothing', () => {
    expect(change(running, (s) => ({ totals: { ...s.totals, tokensIn: s.totals.tokensIn + 5 } }))).toEqual({ same: true, urgent: false });
    expect(change(running, (s) => ({ controls: { ...s.controls, spawnPaused: true } }))).toEqual({ same: true, urgent: false });
  });
});
