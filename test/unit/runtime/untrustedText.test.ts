// Outside text reaches the store neutralised: model text, tool results, tool arguments,
// run results and provider errors. The model itself still gets what was actually said.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ACTIVE, activeStrings } from '../../helpers/activeText.js';
import { describe, expect, it } from 'vitest';
import { hasToolResults, trailingToolResults } from '../../support/loopbackModel.js';
import type { TranscriptItem } from '../../../src/runtime/types.js';
import { makeFixture, type Fixture } from '../../helpers/runtimeFixture.js';

const EVIL_TEXT = 'Hi \u001b]52;c;cHduZWQ=\u0007 there \u001b]0;title\u0007\u001b[2A\u009b2J done';
const EVIL_FILE = 'line one \u001b]2;file title\u001b\\ \u001b[31mred\u001b[0m\n';

let fx: Fixture | undefined;

describe('untrusted text entering the store', () => {
  it('model text, read_file output, tool arguments and run results are neutralised; the model history keeps the raw text', async () => {
    const sunk: TranscriptItem[] = [];
    fx = await makeFixture({
      respond: (req) =>
        hasToolResults(req.body)
          ? { kind: 'text', chunks: EVIL_TEXT.match(/.{1,5}/gs)! }
          : {
              kind: 'tools',
              calls: [
                { name: 'read_file', args: { path: 'evil\u001b[1m.txt' } },
                { name: 'read_file', args: { path: 'evil.txt' } },
              ],
            },
      runtime: { sinks: { appendItem: (item) => sunk.push(item) } },
    });
    writeFileSync(join(fx.workdir, 'evil.txt'), EVIL_FILE);
    await fx.runtime.startTurn('go');
    const state = fx.runtime.store.getState();
    expect(activeStrings({ transcript: state.transcript, runs: state.runs, sunk })).toEqual([]);
    for (const item of state.transcript) {
      if (item.kind !== 'tool') expect(item.text).not.toMatch(ACTIVE);
    }
    const reply = state.transcript.find((i) => i.kind === 'assistant');
    expect(reply && reply.kind === 'assistant' && reply.text).toBe('Hi ␛]52;c;cHduZWQ=␇ there ␛]0;title␇␛[2A␛[2J done');
    const tool = state.transcript.find((i) => i.kind === 'tool' && i.status === 'ok');
    expect(tool && tool.kind === 'tool' && tool.result).toContain('␛]2;file title␛\\');
    const root = state.runs.values().find((r) => r.kind === 'root')!;
    expect(root.result).not.toMatch(ACTIVE);
    // The model reads the file as it is, and its own reply as it wrote it.
    const second = fx.server.requests[1].body;
    expect(trailingToolResults(second).some((r) => r.content.includes('\u001b]2;file title'))).toBe(true);
    expect(fx.runtime.history.at(-1)).toMatchObject({ role: 'assistant', content: EVIL_TEXT });
  });

  it('a provider error body is neutralised in the run error, the notice and the retry notice', async () => {
    const evil = JSON.stringify({ error: { message: 'bad \u001b]0;owned\u0007 request', type: 'invalid_request_error' } });
    fx = await makeFixture({ respond: () => ({ kind: 'status', status: 400, body: evil }) });
    await fx.runtime.startTurn('go');
    const state = fx.runtime.store.getState();
    const root = state.runs.values().find((r) => r.kind === 'root')!;
    expect(root.status).toBe('failed');
    expect(root.error).toContain('␛]0;owned␇');
    const notice = state.transcript.find((i) => i.kind === 'notice');
    expect(notice && notice.kind === 'notice' && notice.text).toContain('␛]0;owned␇');
    expect(activeStrings(state)).toEqual([]);
  });
});

describe('a child run', () => {
  it('its task, transcript and answer reach the store neutralised', async () => {
    const { firstUserText } = await import('../../helpers/runtimeFixture.js');
    fx = await makeFixture({
      respond: (req) => {
        if (firstUserText(req.body).startsWith('child task')) return { kind: 'text', chunks: [`child says ${EVIL_TEXT}`] };
        return hasToolResults(req.body)
          ? { kind: 'text', chunks: ['parent done'] }
          : { kind: 'tools', calls: [{ name: 'spawn_subagent', args: { prompt: 'child task \u001b]2;task-title\u0007' } }] };
      },
    });
    await fx.runtime.startTurn('go');
    const state = fx.runtime.store.getState();
    const child = state.runs.values().find((r) => r.kind === 'subagent')!;
    expect(child.status).toBe('completed');
    expect(child.task).toContain('␛]2;task-title␇');
    expect(child.result).toContain('child says Hi ␛]52;c;cHduZWQ=␇');
    const transcript = state.runTranscripts.get(child.id) ?? [];
    expect(transcript.length).toBeGreaterThan(0);
    expect(activeStrings({ runs: state.runs, child: transcript, root: state.transcript })).toEqual([]);
  });
});
