// The built-in `offline` provider: no network, deterministic replies, streamed word by word.
// It is what arbor runs with no config, and the way to watch subagents without a model.
//
// What it answers (the README copies this list):
//
// - Anything else: a reply starting with "[offline model]" that echoes a short summary of
//   your message and explains how to configure a real model (`arbor init`, then edit
//   $ARBOR_HOME/config.toml, named as it really is, or set OPENAI_API_KEY / ANTHROPIC_API_KEY).
// - `fan out N: <task>` (N from 1 to 20): N `spawn_subagent` calls in one turn, with the
//   prompts "<task> (part i of N)"; once they return, a summary with the first line of
//   each child's result and how many succeeded and failed.
// - `delegate to <agent>: <task>`: one `delegate` call {agent, prompt}.
// - `delegate in parallel to <a>, <b>[, ...]: <task>`: one `delegate` call {parallel, prompt}.
// - `delegate in background to <agent>: <task>`: one `delegate` call {agent, prompt,
//   background: true}; the reply gives the task id.
// - `check task <uuid>`: one `delegate` call {action: "check_result", task_id}.
// - `runaway: <task>`: a `delegate` call to the first agent in the delegate tool's roster
//   (other than itself) and two `spawn_subagent` calls, each with the prompt
//   "runaway: <task>", so every child spreads further until a limit or the runaway guard
//   stops the tree.
//   After delegate or runaway calls return, it summarizes their results.
// - A child given a task with none of these phrases thinks for a moment
//   (ARBOR_OFFLINE_CHILD_DELAY_MS, default 400 ms) and answers "Done: <task>".
// - `think: <question>`: a few sentences of reasoning stream first (the thinking line),
//   then the usual reply.
//
// It only calls tools the request offers; otherwise it says which tool is missing.
// Its sentences follow the UI language (/lang) at the time of each request; the prompts
// above, tool names and arguments stay as written.
// ARBOR_OFFLINE_DELAY_MS sets the delay per streamed word (default 15 ms; 0 = instant).
import { randomUUID } from 'node:crypto';
import { homeDir, userConfigPath } from '../config/paths.js';
import type { ProviderConfig } from '../config/types.js';
import { abortedError } from './providerError.js';
import { planReply, rememberChildPrompt, SPAWN_TOOL, DELEGATE_TOOL } from './offlineScript.js';
import { abortableSleep } from './retry.js';
import type { CompletionRequest, ModelMessage, ModelProvider, StreamEvent } from './types.js';
import { providerLabel } from './label.js';
import { offlineReasoning } from './offlineReasoning.js';

export const DEFAULT_WORD_DELAY_MS = 15;
export const DEFAULT_CHILD_DELAY_MS = 400;

function envDelay(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const n = Number(raw);
  return Number.isFinite(n) && n >= 0 ? n : fallback;
}

/** The path as a person would type it: `~/...` under the home directory. */
function displayPath(path: string, home: string): string {
  return home && path.startsWith(`${home}/`) ? `~${path.slice(home.length)}` : path;
}

function promptChars(messages: ModelMessage[]): number {
  let chars = 0;
  for (const m of messages) {
    chars += m.content.length;
    if (m.role === 'assistant') for (const c of m.toolCalls ?? []) chars += c.name.length + c.rawArgs.length;
  }
  return chars;
}

/** Words with their trailing whitespace, so joining the deltas gives the text back. */
function words(text: string): string[] {
  return text.match(/\s*\S+\s*/g) ?? [];
}

export function createOfflineProvider(config: ProviderConfig, env: NodeJS.ProcessEnv = process.env): ModelProvider {
  const wordDelay = envDelay(env, 'ARBOR_OFFLINE_DELAY_MS', DEFAULT_WORD_DELAY_MS);
  const childDelay = envDelay(env, 'ARBOR_OFFLINE_CHILD_DELAY_MS', DEFAULT_CHILD_DELAY_MS);
  const configPath = displayPath(userConfigPath(env), homeDir(env));
  const ctx = { providerName: config.name, model: config.model, label: providerLabel(config) };

  const wait = async (ms: number, signal: AbortSignal) => {
    if (signal.aborted) throw abortedError(ctx);
    if (ms > 0) await abortableSleep(ms, signal, () => abortedError(ctx));
  };

  async function* stream(req: CompletionRequest): AsyncGenerator<StreamEvent> {
    await wait(0, req.signal);
    const plan = planReply(req.messages, req.tools, configPath);
    if (plan.childThinking) await wait(childDelay, req.signal);
    const reasoning = offlineReasoning(req.messages);
    for (const word of words(reasoning ?? '')) {
      await wait(wordDelay * 4, req.signal);
      yield { type: 'reasoning', delta: word };
    }
    if (reasoning) yield { type: 'reasoning_block', block: { text: reasoning } };
    for (const word of words(plan.text)) {
      await wait(wordDelay, req.signal);
      yield { type: 'text', delta: word };
    }
    let callChars = 0;
    for (const planned of plan.calls) {
      await wait(0, req.signal);
      const rawArgs = JSON.stringify(planned.args);
      callChars += planned.name.length + rawArgs.length;
      if ((planned.name === SPAWN_TOOL || planned.name === DELEGATE_TOOL) && typeof planned.args.prompt === 'string') {
        rememberChildPrompt(planned.args.prompt);
      }
      yield {
        type: 'tool_call',
        call: { id: `call_${randomUUID().replace(/-/g, '').slice(0, 20)}`, name: planned.name, args: planned.args, rawArgs },
      };
    }
    yield {
      type: 'usage',
      usage: {
        inputTokens: Math.ceil(promptChars(req.messages) / 4),
        outputTokens: Math.ceil(((reasoning?.length ?? 0) + plan.text.length + callChars) / 4),
      },
    };
    yield { type: 'finish', reason: plan.calls.length > 0 ? 'tool_calls' : 'stop' };
  }

  return { name: config.name, type: config.type, model: config.model, stream };
}
