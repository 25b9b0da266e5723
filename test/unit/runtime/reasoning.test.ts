// Reasoning end to end through the runtime, the real AI SDK providers and the session file:
// shown in the store as the assistant item's reasoning, never in its text; kept in the
// model history (Anthropic thinking with its signature) so a tool-call continuation, the
// next turn and a resumed conversation send the thinking blocks back.
import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadConfigFromTexts } from '../../../src/config/load.js';
import { setLanguage } from '../../../src/i18n/index.js';
import { SessionLog } from '../../../src/persistence/sessionLog.js';
import { restoreSession } from '../../../src/persistence/sessionRestore.js';
import { sessionsDir, type SessionEvent } from '../../../src/persistence/sessionFormat.js';
import { createRuntime, type Runtime } from '../../../src/runtime/runtime.js';
import type { TranscriptItem } from '../../../src/runtime/types.js';
import {
  hasToolResults,
  startLoopbackModel,
  type LoopbackDialect,
  type LoopbackIncoming,
  type LoopbackModel,
  type LoopbackReply,
} from '../../support/loopbackModel.js';
import { messagesWithRole, partsOf, requestOf } from '../../support/wireRequest.js';

const ENV = { ARBOR_TEST_KEY: 'sk-test', ARBOR_RETRY_BASE_MS: '5' };

function toml(dialect: LoopbackDialect, url: string): string {
  const provider =
    dialect === 'anthropic'
      ? `type = "anthropic"\nmodel = "claude-test"\napi_key_env = "ARBOR_TEST_KEY"\nthinking_budget_tokens = 1024`
      : `type = "openai-compatible"\nmodel = "reasoner"`;
  return `default_agent = "main"
[providers.p]
${provider}
base_url = "${url}"
[agents.main]
provider = "p"
system_prompt = "You are main."
`;
}

let home: string;
let workdir: string;
let server: LoopbackModel | undefined;
const runtimes: Runtime[] = [];

beforeAll(() => setLanguage('en'));
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'arbor-reasoning-home-'));
  workdir = mkdtempSync(join(tmpdir(), 'arbor-reasoning-work-'));
  writeFileSync(join(workdir, 'notes.txt'), 'hello');
});
afterEach(async () => {
  for (const rt of runtimes.splice(0)) await rt.dispose();
  await server?.close();
  server = undefined;
  rmSync(home, { recursive: true, force: true });
  rmSync(workdir, { recursive: true, force: true });
});

async function serve(dialect: LoopbackDialect, respond: (req: LoopbackIncoming) => LoopbackReply) {
  server = await startLoopbackModel({ dialect, respond });
  return server;
}

function runtimeFor(dialect: LoopbackDialect, url: string, log: SessionLog, restored?: ReturnType<typeof restoreSession>): Runtime {
  const loaded = loadConfigFromTexts([{ text: toml(dialect, url), file: join(workdir, 'config.toml') }], ENV);
  const rt = createRuntime({
    config: loaded.config,
    cwd: workdir,
    interactive: false,
    env: ENV,
    arborHome: home,
    sinks: {
      appendItem: (item) => log.appendItem(item),
      appendMessage: (m) => log.appendMessage(m),
      appendChildItem: (runId, item) => log.appendChildItem(runId, item),
      appendRun: (run) => log.appendRun(run),
      flush: () => log.flush(),
    },
    restored: restored ? { items: restored.items, messages: restored.messages, totals: restored.totals } : undefined,
  });
  runtimes.push(rt);
  return rt;
}

/** The assistant items and assistant history messages a session file saved, in order. */
const savedAssistantItems = (events: SessionEvent[]) =>
  events.flatMap((e) => (e.type === 'item' && e.item.kind === 'assistant' ? [e.item] : []));
const savedAssistantMessages = (events: SessionEvent[]) =>
  events.flatMap((e) => (e.type === 'message' && e.message.role === 'assistant' ? [e.message] : []));

const assistants = (items: readonly TranscriptItem[]) =>
  items.filter((i): i is Extract<TranscriptItem, { kind: 'assistant' }> => i.kind === 'assistant');

function sessionEvents(log: SessionLog): SessionEvent[] {
  log.flush();
  return readFileSync(log.path, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as SessionEvent);
}

describe('OpenAI-compatible reasoning_content through the runtime', () => {
  it('is shown in the store, kept out of the answer and stored in the session file', async () => {
    const srv = await serve('openai', () => ({
      kind: 'text',
      chunks: ['The answer is 42.'],
      reasoning: { chunks: ['Six ', 'times seven, \u001b[31mred\u001b[0m.'] },
    }));
    const log = SessionLog.create(home, { agentAlias: 'main', providerLabel: 'x', cwd: workdir });
    const rt = runtimeFor('openai', srv.url, log);
    await rt.startTurn('What is 6*7?');

    const [reply] = assistants(rt.store.getState().transcript);
    expect(reply.text).toBe('The answer is 42.');
    // Neutralised like all model text: the escape is a visible stand-in.
    expect(reply.reasoning).toBe('Six times seven, ␛[31mred␛[0m.');
    expect(reply.reasoningTokens).toBeGreaterThan(0);
    expect(reply.thinking).toBeUndefined();
    expect(reply.streaming).toBe(false);

    const events = sessionEvents(log);
    const [item] = savedAssistantItems(events);
    expect(item.reasoning).toBe('Six times seven, ␛[31mred␛[0m.');
    expect(item.text).toBe('The answer is 42.');
    const [message] = savedAssistantMessages(events);
    expect(message.content).toBe('The answer is 42.');
    // The history keeps what was actually said.
    expect(message.reasoning).toEqual([{ text: 'Six times seven, \u001b[31mred\u001b[0m.' }]);
    log.close();
  });
});

describe('Anthropic thinking through the runtime', () => {
  it('sends the signed thinking back in the tool-call continuation, the next turn and after a resume', async () => {
    const srv = await serve('anthropic', ({ body, index }) => {
      if (index === 0) {
        return {
          kind: 'tools',
          calls: [{ id: 'toolu_1', name: 'list_files', args: { path: '.' } }],
          reasoning: { chunks: ['I should ', 'look at the files.'], signature: 'sig-one' },
        };
      }
      if (hasToolResults(body))
        return { kind: 'text', chunks: ['There is notes.txt.'], reasoning: { chunks: ['One file.'], signature: 'sig-two' } };
      return { kind: 'text', chunks: ['Still one file.'], reasoning: { chunks: ['Same as before.'], signature: 'sig-three' } };
    });
    const log = SessionLog.create(home, { agentAlias: 'main', providerLabel: 'x', cwd: workdir });
    const rt = runtimeFor('anthropic', srv.url, log);
    await rt.startTurn('What files are here?');

    // The continuation after the tool ran starts its assistant message with the thinking block.
    expect(srv.requests).toHaveLength(2);
    expect(requestOf(srv.requests[0].body).thinking).toEqual({ type: 'enabled', budget_tokens: 1024 });
    const continuation = partsOf(messagesWithRole(srv.requests[1].body, 'assistant')[0]);
    expect(continuation[0]).toEqual({ type: 'thinking', thinking: 'I should look at the files.', signature: 'sig-one' });
    expect(continuation.map((p) => p.type)).toEqual(['thinking', 'tool_use']);

    const replies = assistants(rt.store.getState().transcript);
    expect(replies.map((r) => [r.text, r.reasoning])).toEqual([
      ['', 'I should look at the files.'],
      ['There is notes.txt.', 'One file.'],
    ]);

    // The next turn of the same conversation sends both blocks back.
    await rt.startTurn('And now?');
    const next = JSON.stringify(requestOf(srv.requests[2].body).messages);
    expect(next).toContain('"signature":"sig-one"');
    expect(next).toContain('"signature":"sig-two"');

    // The session file keeps the signatures in the model history.
    const events = sessionEvents(log);
    const stored = savedAssistantMessages(events).map((m) => m.reasoning);
    expect(stored).toEqual([
      [{ text: 'I should look at the files.', signature: 'sig-one' }],
      [{ text: 'One file.', signature: 'sig-two' }],
      [{ text: 'Same as before.', signature: 'sig-three' }],
    ]);
    log.close();
    await rt.dispose();

    // Resumed: the restored history goes back with every thinking block and its signature.
    const restored = restoreSession(home, log.id);
    expect(restored.warnings).toEqual([]);
    expect(assistants(restored.items).map((r) => r.reasoning)).toEqual(['I should look at the files.', 'One file.', 'Same as before.']);
    const log2 = SessionLog.open(home, log.id);
    const resumed = runtimeFor('anthropic', srv.url, log2, restored);
    await resumed.startTurn('One more time?');
    const body = srv.requests[3].body;
    const thinking = messagesWithRole(body, 'assistant')
      .flatMap((m) => partsOf(m))
      .filter((p) => p.type === 'thinking');
    expect(thinking).toEqual([
      { type: 'thinking', thinking: 'I should look at the files.', signature: 'sig-one' },
      { type: 'thinking', thinking: 'One file.', signature: 'sig-two' },
      { type: 'thinking', thinking: 'Same as before.', signature: 'sig-three' },
    ]);
    log2.close();
  });
});

describe('session files and reasoning', () => {
  it('restores a session written before reasoning was stored, and drops malformed reasoning', async () => {
    mkdirSync(sessionsDir(home), { recursive: true });
    const id = '20250101-000000-abcdef';
    const lines = [
      { type: 'session', version: 1, id, createdAt: '2025-01-01T00:00:00.000Z', agentAlias: 'main', providerLabel: 'x', cwd: workdir },
      { type: 'item', item: { id: 'u1', kind: 'user', text: 'hi', at: 1 } },
      { type: 'message', message: { role: 'user', content: 'hi' } },
      { type: 'item', item: { id: 'a1', kind: 'assistant', runId: 'r', text: 'hello', at: 2 } },
      { type: 'message', message: { role: 'assistant', content: 'hello' } },
      { type: 'message', message: { role: 'user', content: 'again' } },
      { type: 'message', message: { role: 'assistant', content: 'bad', reasoning: [{ text: 3, signature: 'x' }] } },
      { type: 'message', message: { role: 'assistant', content: 'also bad', reasoning: 'not a list' } },
    ];
    writeFileSync(join(sessionsDir(home), `${id}.jsonl`), lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
    const restored = restoreSession(home, id);
    expect(restored.warnings).toEqual([]);
    expect(restored.messages).toEqual([
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: 'hello' },
      { role: 'user', content: 'again' },
      { role: 'assistant', content: 'bad' },
      { role: 'assistant', content: 'also bad' },
    ]);

    const srv = await serve('anthropic', () => ({ kind: 'text', chunks: ['ok'] }));
    const log = SessionLog.open(home, id);
    const rt = runtimeFor('anthropic', srv.url, log, restored);
    await rt.startTurn('next');
    expect(srv.requests).toHaveLength(1);
    expect(JSON.stringify(requestOf(srv.requests[0].body).messages)).not.toContain('thinking');
    expect(assistants(rt.store.getState().transcript).pop()?.text).toBe('ok');
    log.close();
  });
});
