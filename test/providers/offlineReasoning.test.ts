// The offline model reasons on `think:` so the thinking line can be tried without a model.
import { describe, expect, it } from 'vitest';
import { createProvider } from '../../src/providers/createProvider.js';
import type { ModelMessage } from '../../src/providers/types.js';
import { drain } from './streamHelpers.js';

const offline = () => createProvider({ name: 'offline', type: 'offline', model: 'offline', headers: {} }, { ARBOR_OFFLINE_DELAY_MS: '0' });
const user = (content: string): ModelMessage[] => [
  { role: 'system', content: 'sys' },
  { role: 'user', content },
];

describe('offline model reasoning', () => {
  it('streams reasoning before the reply for "think:", apart from the answer text', async () => {
    const out = await drain(offline(), { messages: user('think: why is the sky blue?') });
    const reasoning = out.events.flatMap((e) => (e.type === 'reasoning' ? [e.delta] : [])).join('');
    expect(reasoning).toContain('The question is: why is the sky blue?.');
    expect(out.events.filter((e) => e.type === 'reasoning_block')).toEqual([{ type: 'reasoning_block', block: { text: reasoning } }]);
    expect(out.text.startsWith('[offline model]')).toBe(true);
    expect(out.text).not.toContain('The question is');
    expect(out.events.findIndex((e) => e.type === 'text')).toBeGreaterThan(out.events.map((e) => e.type).lastIndexOf('reasoning'));
  });

  it('does not reason otherwise', async () => {
    const out = await drain(offline(), { messages: user('why is the sky blue?') });
    expect(out.events.some((e) => e.type === 'reasoning' || e.type === 'reasoning_block')).toBe(false);
  });
});
