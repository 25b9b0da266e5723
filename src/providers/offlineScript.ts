// What the offline model says, decided only from the conversation and the tools offered.
// Its sentences follow the UI language (/lang), read when the reply is planned; what it
// recognises (the prompts in offline.ts, tool names, arguments) stays as written.
import { t, type KeyUnder } from '../i18n/index.js';
import { delegateRoster, pickDelegateTarget } from './offlineRoster.js';
import type { DelegateTargetDisplay, ToolDisplay } from '../model/toolDisplay.js';
import type { ModelMessage, ToolCallRequest, ToolSpec } from './types.js';

export const OFFLINE_LABEL = '[offline model]';
export const SPAWN_TOOL = 'spawn_subagent';
export const DELEGATE_TOOL = 'delegate';
export const MAX_FAN_OUT = 20;

export interface PlannedCall {
  name: string;
  args: Record<string, unknown>;
}

export interface OfflinePlan {
  text: string;
  calls: PlannedCall[];
  /** A child answering its task: it "thinks" for a while before the first word. */
  childThinking: boolean;
}

type Trigger =
  | { kind: 'runaway'; task: string }
  | { kind: 'fanout'; n: number; task: string }
  | { kind: 'parallel'; agents: string[]; task: string }
  | { kind: 'background'; agent: string; task: string }
  | { kind: 'delegate'; agent: string; task: string }
  | { kind: 'check'; taskId: string };

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;
const PART_SUFFIX = /\(part \d+ of \d+\)\s*$/i;

export function parseTrigger(text: string): Trigger | undefined {
  let m = text.match(/\brunaway\s*:\s*([\s\S]*\S)/i);
  if (m) return { kind: 'runaway', task: m[1].trim() };
  m = text.match(/\bfan out (\d+)\s*:\s*([\s\S]*\S)/i);
  if (m) return { kind: 'fanout', n: Number(m[1]), task: m[2].trim() };
  m = text.match(/\bdelegate in parallel to ([^:\n]+):\s*([\s\S]*\S)/i);
  if (m) {
    const agents = m[1]
      .split(/,|\band\b/)
      .map((a) => a.trim())
      .filter((a) => a !== '');
    return { kind: 'parallel', agents, task: m[2].trim() };
  }
  m = text.match(/\bdelegate in (?:the )?background to ([A-Za-z0-9_.-]+)\s*:\s*([\s\S]*\S)/i);
  if (m) return { kind: 'background', agent: m[1], task: m[2].trim() };
  m = text.match(/\bdelegate to ([A-Za-z0-9_.-]+)\s*:\s*([\s\S]*\S)/i);
  if (m) return { kind: 'delegate', agent: m[1], task: m[2].trim() };
  m = text.match(new RegExp(`\\bcheck task (${UUID.source})`, 'i'));
  if (m) return { kind: 'check', taskId: m[1].toLowerCase() };
  // The background notice shows the first 8 hex digits; the full id is in the conversation.
  m = text.match(/\bcheck task ([0-9a-f]{6,36})\b/i);
  if (m) return { kind: 'check', taskId: m[1].toLowerCase() };
  return undefined;
}

// Prompts this process's offline model handed to children, so that a child's first message
// is recognised as a task rather than as a person typing. Bounded: old entries fall out.
const handedOut = new Set<string>();
const HANDED_OUT_LIMIT = 5000;

export function rememberChildPrompt(prompt: string): void {
  handedOut.delete(prompt);
  handedOut.add(prompt);
  if (handedOut.size > HANDED_OUT_LIMIT) {
    const oldest = handedOut.values().next().value;
    if (oldest !== undefined) handedOut.delete(oldest);
  }
}

/** A delegate child may receive "[Context]\n...\n\n[Task]\n<prompt>". */
function taskPart(text: string): string {
  const i = text.lastIndexOf('[Task]\n');
  return i >= 0 ? text.slice(i + '[Task]\n'.length).trim() : text.trim();
}

function isChildTask(text: string): boolean {
  const task = taskPart(text);
  return PART_SUFFIX.test(task) || handedOut.has(task);
}

/** A short task id (as the background notice shows it) completed from the task ids this
 * conversation has seen; unchanged when none or more than one match. */
function fullTaskId(id: string, messages: ModelMessage[]): string {
  if (UUID.test(id)) return id;
  const seen = new Set<string>();
  const consider = (candidate: string) => {
    if (candidate.toLowerCase().startsWith(id)) seen.add(candidate.toLowerCase());
  };
  for (const m of messages) {
    // Tool results are read through their display, never their text.
    if (m.role === 'tool') {
      for (const t of delegateTargets(m.display)) if (t.taskId) consider(t.taskId);
      continue;
    }
    for (const found of m.content.matchAll(new RegExp(UUID.source, 'gi'))) consider(found[0]);
  }
  return seen.size === 1 ? [...seen][0] : id;
}

/** True when this conversation itself handed `task` to a child: then it is the parent's
 * conversation (the user typed what the children were given, as in `runaway: ...`), not a
 * child's, and later messages in it are the user's, not tasks. */
function handedOutHere(messages: ModelMessage[], task: string): boolean {
  return messages.some(
    (m) =>
      m.role === 'assistant' &&
      (m.toolCalls ?? []).some((c) => (c.name === SPAWN_TOOL || c.name === DELEGATE_TOOL) && promptOf(c.args) === task),
  );
}

function promptOf(args: unknown): string | undefined {
  const p = (args as { prompt?: unknown } | undefined)?.prompt;
  return typeof p === 'string' ? p.trim() : undefined;
}

function firstLine(text: string, max = 120): string {
  const line =
    text
      .split('\n')
      .find((l) => l.trim() !== '')
      ?.trim() ?? '';
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** A refusal's or failure's first line, uncut: its end is the remedy ("set
 * [risk_profiles.default].delegation_policy mode = \"allow\""), which a cut at 120 lost. */
function reason(text: string): string {
  return firstLine(text, Number.POSITIVE_INFINITY);
}

function clip(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

function has(tools: ToolSpec[], name: string): boolean {
  return tools.some((t) => t.name === name);
}

function say(text: string, calls: PlannedCall[] = []): OfflinePlan {
  return { text, calls, childThinking: false };
}

function missingTool(what: string, tool: string): OfflinePlan {
  return say(`${OFFLINE_LABEL} ${t('providers:offline.notAvailable', { what, tool })}`);
}

function planTrigger(trigger: Trigger, tools: ToolSpec[], messages: ModelMessage[]): OfflinePlan {
  switch (trigger.kind) {
    case 'fanout': {
      if (!Number.isInteger(trigger.n) || trigger.n < 1 || trigger.n > MAX_FAN_OUT) {
        return say(`${OFFLINE_LABEL} ${t('providers:offline.fanOutRange', { max: MAX_FAN_OUT, n: trigger.n })}`);
      }
      if (!has(tools, SPAWN_TOOL)) return missingTool(t('providers:offline.wouldFanOut', { n: trigger.n }), SPAWN_TOOL);
      const calls = Array.from({ length: trigger.n }, (_, i) => ({
        name: SPAWN_TOOL,
        args: { prompt: `${trigger.task} (part ${i + 1} of ${trigger.n})` },
      }));
      return say(`${OFFLINE_LABEL} ${t('providers:offline.fanningOut', { n: trigger.n, task: clip(trigger.task, 80) })}`, calls);
    }
    case 'delegate':
      if (!has(tools, DELEGATE_TOOL)) return missingTool(t('providers:offline.wouldDelegate', { agent: trigger.agent }), DELEGATE_TOOL);
      return say(`${OFFLINE_LABEL} ${t('providers:offline.delegating', { agent: trigger.agent })}`, [
        { name: DELEGATE_TOOL, args: { agent: trigger.agent, prompt: trigger.task } },
      ]);
    case 'parallel': {
      const agents = trigger.agents.join(', ');
      if (!has(tools, DELEGATE_TOOL)) return missingTool(t('providers:offline.wouldDelegate', { agent: agents }), DELEGATE_TOOL);
      return say(`${OFFLINE_LABEL} ${t('providers:offline.delegatingParallel', { agents })}`, [
        { name: DELEGATE_TOOL, args: { parallel: trigger.agents, prompt: trigger.task } },
      ]);
    }
    case 'background':
      if (!has(tools, DELEGATE_TOOL)) return missingTool(t('providers:offline.wouldBackground', { agent: trigger.agent }), DELEGATE_TOOL);
      return say(`${OFFLINE_LABEL} ${t('providers:offline.startingBackground', { agent: trigger.agent })}`, [
        { name: DELEGATE_TOOL, args: { agent: trigger.agent, prompt: trigger.task, background: true } },
      ]);
    case 'check': {
      if (!has(tools, DELEGATE_TOOL)) return missingTool(t('providers:offline.wouldCheck', { taskId: trigger.taskId }), DELEGATE_TOOL);
      const taskId = fullTaskId(trigger.taskId, messages);
      return say(`${OFFLINE_LABEL} ${t('providers:offline.checking', { taskId })}`, [
        { name: DELEGATE_TOOL, args: { action: 'check_result', task_id: taskId } },
      ]);
    }
    case 'runaway': {
      const prompt = `runaway: ${trigger.task}`;
      const calls: PlannedCall[] = [];
      const target = has(tools, DELEGATE_TOOL) ? pickDelegateTarget(tools, messages) : undefined;
      if (target) calls.push({ name: DELEGATE_TOOL, args: { agent: target, prompt } });
      if (has(tools, SPAWN_TOOL)) {
        calls.push({ name: SPAWN_TOOL, args: { prompt } }, { name: SPAWN_TOOL, args: { prompt } });
      }
      if (calls.length === 0) {
        return say(`${OFFLINE_LABEL} ${t('providers:offline.runawayEnds', { spawn: SPAWN_TOOL, delegate: DELEGATE_TOOL })}`);
      }
      return say(`${OFFLINE_LABEL} ${t('providers:offline.spreading', { task: clip(trigger.task, 80) })}`, calls);
    }
  }
}

interface ResultPair {
  call: ToolCallRequest;
  content: string;
  ok: boolean;
  display?: ToolDisplay;
}

function delegateTargets(display: ToolDisplay | undefined): DelegateTargetDisplay[] {
  return display?.kind === 'delegate' ? display.targets : [];
}

function resultsOfLastTurn(messages: ModelMessage[]): ResultPair[] | undefined {
  let i = messages.length - 1;
  const results: Array<Extract<ModelMessage, { role: 'tool' }>> = [];
  while (i >= 0 && messages[i].role === 'tool') results.unshift(messages[i--] as Extract<ModelMessage, { role: 'tool' }>);
  if (results.length === 0) return undefined;
  const assistant = i >= 0 ? messages[i] : undefined;
  const calls = assistant?.role === 'assistant' ? (assistant.toolCalls ?? []) : [];
  return results.map((r) => ({
    call: calls.find((c) => c.id === r.toolCallId) ?? { id: r.toolCallId, name: r.toolName, args: undefined, rawArgs: '' },
    content: r.content,
    ok: !r.isError,
    ...(r.display ? { display: r.display } : {}),
  }));
}

const mark = (ok: boolean) => (ok ? t('providers:offline.markOk') : t('providers:offline.markFailed'));
const noOutput = () => t('providers:offline.noOutput');

function tally(pairs: ResultPair[]): string {
  const ok = pairs.filter((p) => p.ok).length;
  return t('providers:offline.tally', { ok, total: pairs.length, failed: pairs.length - ok });
}

type TaskStatusWord = KeyUnder<'providers:offline.taskStatus.'>;
const TASK_STATUS_WORDS: ReadonlySet<string> = new Set<TaskStatusWord>(['running', 'completed', 'failed', 'cancelled', 'lost', 'unknown']);
const isStatusWord = (status: string): status is TaskStatusWord => TASK_STATUS_WORDS.has(status);

/** A task record's status in the reply's language; one this model does not know, as given. */
function statusWord(status: string): string {
  return isStatusWord(status) ? t(`providers:offline.taskStatus.${status}`) : status;
}

function listResults(pairs: ResultPair[]): string {
  // A delegate result's answer comes from its display, not from the text the model reads.
  return pairs
    .map(
      (p, i) =>
        `${i + 1}. ${mark(p.ok)} ${p.call.name === DELEGATE_TOOL && p.ok ? delegateAnswer(p) : (p.ok ? firstLine(p.content) : reason(p.content)) || noOutput()}`,
    )
    .join('\n');
}

/** The first target's answer, as the display records it. */
function delegateAnswer(p: ResultPair): string {
  const target = delegateTargets(p.display)[0];
  return (target?.answer !== undefined ? firstLine(target.answer) : reason(target?.error ?? '')) || noOutput();
}

function summarize(trigger: Trigger | undefined, pairs: ResultPair[]): string {
  const single = pairs[0];
  switch (trigger?.kind) {
    case 'fanout':
      return `${OFFLINE_LABEL} ${t('providers:offline.fanOutFinished', { tally: tally(pairs) })}\n\n${listResults(pairs)}`;
    case 'runaway':
      return `${OFFLINE_LABEL} ${t('providers:offline.runawayFinished', { tally: tally(pairs) })}\n\n${listResults(pairs)}`;
    case 'delegate':
      return single.ok
        ? `${OFFLINE_LABEL} ${t('providers:offline.answered', { agent: trigger.agent, answer: delegateAnswer(single) })}`
        : `${OFFLINE_LABEL} ${t('providers:offline.delegationFailed', { agent: trigger.agent, reason: reason(single.content) })}`;
    case 'parallel': {
      const blocks = delegateTargets(single.display);
      if (!single.ok) return `${OFFLINE_LABEL} ${t('providers:offline.parallelFailed', { reason: reason(single.content) })}`;
      if (blocks.length === 0)
        return `${OFFLINE_LABEL} ${t('providers:offline.parallelFinishedLine', { line: firstLine(single.content) })}`;
      const ok = blocks.filter((b) => b.success).length;
      // A failed block reads as the tool's block does: "Error: <why>".
      const said = (b: DelegateTargetDisplay) =>
        (b.success ? firstLine(b.answer ?? '') : reason(t('providers:offline.blockError', { error: b.error ?? '' }))) || noOutput();
      const lines = blocks.map((b, i) => `${i + 1}. ${mark(b.success)} ${b.target}: ${said(b)}`);
      const head = t('providers:offline.parallelFinished', { ok, total: blocks.length, failed: blocks.length - ok });
      return `${OFFLINE_LABEL} ${head}\n\n${lines.join('\n')}`;
    }
    case 'background': {
      const id = delegateTargets(single.display)[0]?.taskId;
      if (!single.ok || !id) return `${OFFLINE_LABEL} ${t('providers:offline.backgroundNotStarted', { reason: reason(single.content) })}`;
      return `${OFFLINE_LABEL} ${t('providers:offline.backgroundStarted', { agent: trigger.agent, id })}`;
    }
    case 'check': {
      const taskId = trigger.taskId;
      if (!single.ok) return `${OFFLINE_LABEL} ${t('providers:offline.checkFailed', { taskId, reason: reason(single.content) })}`;
      const task = delegateTargets(single.display)[0];
      if (!task) return `${OFFLINE_LABEL} ${t('providers:offline.taskLine', { taskId, line: firstLine(single.content) })}`;
      const body = task.answer ? task.answer : (task.error ?? '');
      const status = statusWord(task.status ?? 'unknown');
      return `${OFFLINE_LABEL} ${t('providers:offline.taskIs', { taskId, status })}${body ? ` ${firstLine(body)}` : ''}`;
    }
    default:
      return `${OFFLINE_LABEL} ${t('providers:offline.toolResults', { tally: tally(pairs) })}\n\n${listResults(pairs)}`;
  }
}

function defaultReply(userText: string, tools: ToolSpec[], configPath: string): string {
  const roster = delegateRoster(tools);
  const a = roster[0] ?? 'researcher';
  const b = roster[1] ?? 'reviewer';
  const tries: string[] = [];
  if (has(tools, SPAWN_TOOL)) tries.push('- fan out 3: summarize each file');
  if (has(tools, DELEGATE_TOOL)) {
    tries.push(
      `- delegate to ${a}: review the plan`,
      `- delegate in parallel to ${a}, ${b}: compare the options`,
      `- delegate in background to ${a}: write a report`,
    );
  }
  if (has(tools, SPAWN_TOOL) || has(tools, DELEGATE_TOOL)) {
    tries.push(`- runaway: explore everything (${t('providers:offline.runawayHint')})`);
  }
  // The prose follows the UI language (/lang), read at each reply; the example prompts stay
  // as written, since they are what this model recognises.
  const echo = clip(userText, 80) || t('providers:offline.nothing');
  const parts = [
    `${OFFLINE_LABEL} ${t('providers:offline.youSaid', { echo })}`,
    t('providers:offline.intro'),
    t('providers:offline.howTo', { configPath }),
  ];
  if (tries.length > 0) parts.push(`${t('providers:offline.tryTitle')}\n${tries.join('\n')}`);
  return parts.join('\n\n');
}

function lastUser(messages: ModelMessage[]): string {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m.role === 'user') return m.content;
  }
  return '';
}

/** `configPath`: the user config file the default reply tells people to edit. */
export function planReply(messages: ModelMessage[], tools: ToolSpec[], configPath = '~/.arbor/config.toml'): OfflinePlan {
  const userText = lastUser(messages);
  const trigger = parseTrigger(userText);
  const results = resultsOfLastTurn(messages);
  if (results) return say(summarize(trigger, results));
  if (trigger) return planTrigger(trigger, tools, messages);
  const firstUser = messages.find((m) => m.role === 'user');
  if (firstUser && isChildTask(firstUser.content) && !handedOutHere(messages, taskPart(firstUser.content))) {
    const task = taskPart(userText).replace(/\s+/g, ' ').slice(0, 60);
    return { text: t('providers:offline.done', { task }), calls: [], childThinking: true };
  }
  return say(defaultReply(userText, tools, configPath));
}
