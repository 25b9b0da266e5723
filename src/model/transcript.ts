// Transcript items: a chat's (or a child run's) visible history, as the store keeps it and
// the session file stores it.
import type { ChildObserved } from './ledger.js';
import type { ToolDisplay } from './toolDisplay.js';

export type ToolCallStatus = 'pending_approval' | 'running' | 'ok' | 'error' | 'denied' | 'skipped';

export type TranscriptItem =
  | { id: string; kind: 'user'; text: string; at: number }
  | {
      id: string;
      kind: 'assistant';
      runId: string;
      text: string;
      at: number;
      /** True while tokens are still arriving. */
      streaming?: boolean;
      interrupted?: boolean;
      /** What the model thought before answering (reasoning deltas), never part of `text`:
       * neutralised like it, kept up to the same byte cap. */
      reasoning?: string;
      /** Tokens of reasoning: the provider's count when it gives one, else an estimate. */
      reasoningTokens?: number;
      /** True while reasoning is arriving and no answer text has followed it yet. */
      thinking?: boolean;
      /** The provider sent reasoning encrypted (Anthropic redacted_thinking): kept for the
       * model, nothing to show. */
      reasoningRedacted?: boolean;
    }
  | {
      id: string;
      kind: 'tool';
      runId: string;
      callId: string;
      name: string;
      args: unknown;
      rawArgs: string;
      status: ToolCallStatus;
      /** Retained result text, capped at 16 KiB. */
      result?: string;
      /** What the result means, as data (model/toolDisplay.ts), capped like the result.
       * Absent on items recorded before displays existed and on calls that never ran. */
      display?: ToolDisplay;
      startedAt: number;
      endedAt?: number;
      /** Rendered from disk (--resume): never bound to live runs. */
      restored?: boolean;
      /** spawn_subagent / delegate: what each child was observed doing when the call
       * returned (model/ledger.ts), kept so a restored card shows it too. */
      observed?: ChildObserved[];
    }
  | { id: string; kind: 'notice'; level: 'info' | 'warn' | 'error'; text: string; at: number };

export type ToolTranscriptItem = Extract<TranscriptItem, { kind: 'tool' }>;
