// A reply's tool calls, each handed on as soon as the stream has it whole. The
// openai-compatible provider of the AI SDK emits every `tool-call` part only when the
// reply ends (its tracker finishes them all in flush), so a reply of 1,000 calls gave the
// runtime its first call after the SDK had parsed all 1,000 — up to ~1.9 s on a loaded
// machine. Its `tool-input-start`/`tool-input-delta` parts do stream: once the next call
// has started, the one before it is complete (calls stream one after another) and is
// handed on if its argument text is a whole JSON object — the rule the SDK itself used
// for emitting tool calls early before its tracker existed. Anthropic and OpenAI emit each
// `tool-call` at the end of its own block anyway; a call handed on early is never handed
// on again when its `tool-call` part comes.
import type { ToolCallRequest } from '../model/messages.js';

/** Empty arguments mean "no arguments"; text that does not parse keeps args undefined. */
export function parseArgs(raw: string): unknown {
  if (raw.trim() === '') return {};
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return undefined;
  }
}

/** A whole JSON object: what a complete call's argument text is. */
function wholeObject(raw: string): unknown {
  if (!raw.trimStart().startsWith('{')) return undefined;
  try {
    const value = JSON.parse(raw) as unknown;
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

export class ToolCallAssembler {
  /** Argument text by call id, as its deltas came. */
  private readonly raw = new Map<string, string>();
  private readonly names = new Map<string, string>();
  /** The call whose input is streaming now (the last one started and not yet emitted). */
  private open: string | undefined;
  private readonly emitted = new Set<string>();

  /** A call's input starts streaming; returns the call before it when that one is whole. */
  start(id: string, name: string): ToolCallRequest | undefined {
    const previous = this.open;
    this.open = id;
    this.names.set(id, name);
    if (previous === undefined || previous === id || this.emitted.has(previous)) return undefined;
    const rawArgs = this.raw.get(previous) ?? '';
    const args = wholeObject(rawArgs);
    if (args === undefined) return undefined;
    this.emitted.add(previous);
    return { id: previous, name: this.names.get(previous) ?? '', args, rawArgs };
  }

  delta(id: string, delta: string): void {
    if (this.emitted.has(id)) return;
    this.raw.set(id, (this.raw.get(id) ?? '') + delta);
  }

  /** The provider's own `tool-call` part; undefined when the call was already handed on. */
  final(id: string, name: string, input: string): ToolCallRequest | undefined {
    if (this.emitted.has(id)) return undefined;
    this.emitted.add(id);
    if (this.open === id) this.open = undefined;
    // The final input is the whole argument text; the deltas are the fallback.
    const rawArgs = input || this.raw.get(id) || '';
    return { id, name, args: parseArgs(rawArgs), rawArgs };
  }
}
