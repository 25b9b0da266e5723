// An external ACP agent's session updates as the child run's transcript: message chunks
// extend an assistant item (thought chunks its reasoning), each tool call is a tool item
// whose status follows tool_call_update, and diff content becomes the structured diff
// display arbor's cards and viewer already read. The store neutralises every item.
import { randomUUID } from 'node:crypto';
import type * as acp from '@agentclientprotocol/sdk/unstable';
import type { ToolCallStatus, TranscriptItem } from '../../model/transcript.js';
import type { ToolDisplay } from '../../model/toolDisplay.js';
import { fileDiff } from '../../text/diff.js';

export interface TranscriptTarget {
  runId: string;
  append(item: TranscriptItem): void;
  update(itemId: string, patch: (item: TranscriptItem) => TranscriptItem): void;
}

function arborStatus(status: acp.ToolCallStatus | null | undefined): ToolCallStatus {
  if (status === 'completed') return 'ok';
  if (status === 'failed') return 'error';
  return 'running';
}

function contentText(content: acp.ToolCallContent[] | null | undefined): string | undefined {
  const texts = (content ?? []).flatMap((c) => (c.type === 'content' && c.content.type === 'text' ? [c.content.text] : []));
  return texts.length ? texts.join('\n') : undefined;
}

function diffDisplay(content: acp.ToolCallContent[] | null | undefined): ToolDisplay | undefined {
  const d = (content ?? []).find((c) => c.type === 'diff');
  if (!d || d.type !== 'diff') return undefined;
  return fileDiff(d.path, d.oldText ?? undefined, d.newText);
}

export class AcpTranscriptSink {
  private assistantId?: string;
  private readonly tools = new Map<string, string>();

  constructor(private readonly target: TranscriptTarget) {}

  apply(update: acp.SessionUpdate): void {
    switch (update.sessionUpdate) {
      case 'agent_message_chunk':
        if (update.content.type === 'text') this.assistant(update.content.text, undefined);
        return;
      case 'agent_thought_chunk':
        if (update.content.type === 'text') this.assistant(undefined, update.content.text);
        return;
      case 'tool_call':
        this.toolCall(update);
        return;
      case 'tool_call_update':
        this.toolUpdate(update);
        return;
      default:
        return;
    }
  }

  /** The turn ended: nothing is streaming any more. */
  finish(): void {
    if (this.assistantId)
      this.target.update(this.assistantId, (i) => (i.kind === 'assistant' ? { ...i, streaming: false, thinking: false } : i));
    this.assistantId = undefined;
  }

  private assistant(text: string | undefined, thought: string | undefined): void {
    if (!this.assistantId) {
      this.assistantId = randomUUID();
      this.target.append({
        id: this.assistantId,
        kind: 'assistant',
        runId: this.target.runId,
        text: text ?? '',
        at: Date.now(),
        streaming: true,
        ...(thought !== undefined ? { reasoning: thought, thinking: true } : {}),
      });
      return;
    }
    this.target.update(this.assistantId, (i) =>
      i.kind === 'assistant'
        ? {
            ...i,
            text: i.text + (text ?? ''),
            ...(thought !== undefined ? { reasoning: (i.reasoning ?? '') + thought } : {}),
            thinking: text === undefined && i.text === '',
          }
        : i,
    );
  }

  private toolCall(call: acp.ToolCall): void {
    this.finish();
    const id = randomUUID();
    this.tools.set(call.toolCallId, id);
    const status = arborStatus(call.status);
    const result = contentText(call.content);
    const display = diffDisplay(call.content);
    this.target.append({
      id,
      kind: 'tool',
      runId: this.target.runId,
      callId: call.toolCallId,
      name: call.title || call.kind || 'tool',
      args: call.rawInput ?? {},
      rawArgs: JSON.stringify(call.rawInput ?? {}),
      status,
      startedAt: Date.now(),
      ...(result !== undefined ? { result } : {}),
      ...(display ? { display } : {}),
      ...(status !== 'running' ? { endedAt: Date.now() } : {}),
    });
  }

  private toolUpdate(u: acp.ToolCallUpdate): void {
    const id = this.tools.get(u.toolCallId);
    if (!id) return;
    const result = contentText(u.content);
    const display = diffDisplay(u.content);
    this.target.update(id, (i) => {
      if (i.kind !== 'tool') return i;
      const status = u.status ? arborStatus(u.status) : i.status;
      return {
        ...i,
        status,
        ...(u.title ? { name: u.title } : {}),
        ...(result !== undefined ? { result } : {}),
        ...(display ? { display } : {}),
        ...(status !== 'running' ? { endedAt: Date.now() } : {}),
      };
    });
  }
}
