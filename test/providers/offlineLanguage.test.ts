// The offline model follows the UI language (issue #20 wording): after /lang es (which sets
// the i18n language) its reply is Spanish; the example prompts it recognises stay as written.
import { afterEach, describe, expect, it } from 'vitest';
import { setLanguage } from '../../src/i18n/index.js';
import { createOfflineProvider } from '../../src/providers/offline.js';
import type { ToolDisplay } from '../../src/model/toolDisplay.js';
import type { ModelMessage, StreamEvent, ToolCallRequest, ToolSpec } from '../../src/providers/types.js';
import { drain } from './streamHelpers.js';

afterEach(() => setLanguage('en'));

async function reply(text: string): Promise<string> {
  const model = createOfflineProvider(
    { name: 'offline', type: 'offline', model: 'arbor-offline', headers: {} },
    { ARBOR_OFFLINE_DELAY_MS: '0' },
  );
  let out = '';
  for await (const ev of model.stream({ messages: [{ role: 'user', content: text }], tools: [], signal: new AbortController().signal })) {
    if (ev.type === 'text') out += ev.delta;
  }
  return out;
}

describe('offline model language', () => {
  it('answers in the language the UI is in, read at each reply', async () => {
    setLanguage('en');
    const en = await reply('hola');
    expect(en).toContain('[offline model] You said: "hola"');
    expect(en).toContain("I am arbor's built-in offline model");
    setLanguage('es');
    const es = await reply('hola');
    expect(es).toContain('[offline model] Dijiste: "hola"');
    expect(es).toContain('Soy el modelo offline integrado de arbor');
    expect(es).toContain('ejecuta `arbor init`');
    expect(es).not.toContain('You said');
  });
});

// The scripted replies (issue #20 leftover): the fan-out, delegate and task-check sentences
// follow the language current when the request is made; in English they are the exact text
// e2e tests and users have always read.
const spawnTool: ToolSpec = { name: 'spawn_subagent', description: 'Run a subtask', parameters: { type: 'object' } };
const delegateTool: ToolSpec = {
  name: 'delegate',
  description: 'Hand work to another agent',
  parameters: { type: 'object', properties: { agent: { type: 'string', enum: ['main', 'researcher'] }, prompt: { type: 'string' } } },
};
const TOOLS = [spawnTool, delegateTool];
const TASK_ID = '4ef3523f-0a1b-4c2d-8e3f-0123456789ab';
const SYSTEM: ModelMessage = { role: 'system', content: 'You are main.' };

const planned = (events: StreamEvent[]): ToolCallRequest[] => events.flatMap((e) => (e.type === 'tool_call' ? [e.call] : []));

/** The model's two turns for `prompt`: its opening line, then its summary of the results. */
async function scripted(
  prompt: string,
  results: (calls: ToolCallRequest[]) => Array<{ content: string; isError?: boolean; display?: ToolDisplay }>,
): Promise<{ opening: string; summary: string }> {
  const model = createOfflineProvider(
    { name: 'offline', type: 'offline', model: 'arbor-offline', headers: {} },
    { ARBOR_OFFLINE_DELAY_MS: '0' },
  );
  const messages: ModelMessage[] = [SYSTEM, { role: 'user', content: prompt }];
  const first = await drain(model, { messages, tools: TOOLS });
  const calls = planned(first.events);
  const made = results(calls);
  const history: ModelMessage[] = [
    ...messages,
    { role: 'assistant', content: first.text, toolCalls: calls },
    ...calls.map((c, i) => ({ role: 'tool' as const, toolCallId: c.id, toolName: c.name, ...made[i] })),
  ];
  const second = await drain(model, { messages: history, tools: TOOLS });
  return { opening: first.text, summary: second.text };
}

const fanOut = () =>
  scripted('fan out 2: tidy the notes', () => [
    { content: 'Done: tidy the notes (part 1 of 2)' },
    { content: 'disk full\nmore', isError: true },
  ]);
const answered = (answer: string): ToolDisplay => ({
  kind: 'delegate',
  action: 'delegate',
  targets: [{ target: 'researcher', success: true, answer }],
});
const delegateOk = () => scripted('delegate to researcher: dig into Y', () => [{ content: 'ok', display: answered('Y is fine\nmore') }]);
const REFUSAL = 'delegation refused: set [risk_profiles.default].delegation_policy mode = "allow" to let main delegate to researcher';
const delegateRefused = () => scripted('delegate to researcher: dig into Y', () => [{ content: REFUSAL, isError: true }]);
const taskCheck = () =>
  scripted(`check task ${TASK_ID}`, () => [
    {
      content: 'ok',
      display: {
        kind: 'delegate',
        action: 'check_result',
        targets: [{ target: 'researcher', success: true, taskId: TASK_ID, status: 'completed', answer: 'Report written' }],
      },
    },
  ]);

describe('offline model scripted replies follow the language', () => {
  it('in English, byte for byte the text it always wrote', async () => {
    setLanguage('en');
    expect(await fanOut()).toEqual({
      opening: '[offline model] Fanning out into 2 subagents: tidy the notes',
      summary:
        '[offline model] Fan-out finished: 1 of 2 succeeded, 1 failed.\n\n1. [ok] Done: tidy the notes (part 1 of 2)\n2. [failed] disk full',
    });
    expect(await delegateOk()).toEqual({
      opening: '[offline model] Delegating to researcher.',
      summary: '[offline model] researcher answered: Y is fine',
    });
    expect((await delegateRefused()).summary).toBe(`[offline model] Delegation to researcher failed: ${REFUSAL}`);
    expect(await taskCheck()).toEqual({
      opening: `[offline model] Checking task ${TASK_ID}.`,
      summary: `[offline model] Task ${TASK_ID} is completed. Report written`,
    });
  });

  it('in Spanish after setLanguage("es"), read at each request', async () => {
    setLanguage('es');
    expect(await fanOut()).toEqual({
      opening: '[offline model] Repartiendo el trabajo entre 2 subagentes: tidy the notes',
      summary:
        '[offline model] Reparto terminado: éxitos: 1 de 2, fallos: 1.\n\n1. [ok] Done: tidy the notes (part 1 of 2)\n2. [falló] disk full',
    });
    expect(await delegateOk()).toEqual({
      opening: '[offline model] Delegando en researcher.',
      summary: '[offline model] researcher respondió: Y is fine',
    });
    expect((await delegateRefused()).summary).toBe(`[offline model] La delegación en researcher falló: ${REFUSAL}`);
    expect(await taskCheck()).toEqual({
      opening: `[offline model] Revisando la tarea ${TASK_ID}.`,
      summary: `[offline model] Tarea ${TASK_ID}: completada. Report written`,
    });
    // What the model hands on stays as written: the tool calls and the prompts it recognises.
    const model = createOfflineProvider(
      { name: 'offline', type: 'offline', model: 'arbor-offline', headers: {} },
      { ARBOR_OFFLINE_DELAY_MS: '0', ARBOR_OFFLINE_CHILD_DELAY_MS: '0' },
    );
    const out = await drain(model, { messages: [SYSTEM, { role: 'user', content: 'fan out 2: x' }], tools: TOOLS });
    expect(planned(out.events).map((c) => c.args)).toEqual([{ prompt: 'x (part 1 of 2)' }, { prompt: 'x (part 2 of 2)' }]);
    // A child's answer, too, is in the language of the moment; back in English it is "Done:".
    const child = await drain(model, { messages: [SYSTEM, { role: 'user', content: 'x (part 1 of 2)' }], tools: [] });
    expect(child.text).toBe('Hecho: x (part 1 of 2)');
    setLanguage('en');
    expect((await fanOut()).opening).toBe('[offline model] Fanning out into 2 subagents: tidy the notes');
  });
});
