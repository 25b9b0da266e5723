// Tool calls started while the model's reply that asks for them is still streaming. A
// reply of 1,000 spawn_subagent calls takes the provider hundreds of milliseconds to parse
// (more on a loaded machine); started only once the whole reply was in, the first child
// waited for the last call to be read. Here each call starts as soon as the provider hands
// it on whole (providers/toolCallAssembler.ts), a group per turn of the event loop
// (batchedStart.ts), its card appearing as it starts. Only for a parallel batch that no
// fan-out confirmation has to see whole first (runtime/loop.ts decides).
//
// The calls run under a signal of their own, linked to the run's: if the reply that asked
// for them fails part-way, they are stopped (as if they had never been asked for: before,
// they never started) and waited for before the error goes on.
import { setMaxListeners } from 'node:events';
import type { ArborConfig } from '../config/types.js';
import type { ModelMessage, ToolCallRequest } from '../model/messages.js';
import type { ToolResult } from '../tools/types.js';
import { GroupedStarter, START_GROUP } from './batchedStart.js';
import { toolResultMessage } from './toolResultMessage.js';

/** Whether a step's parallel batch may start as the reply streams it. Not when the fan-out
 * confirmation must see the batch whole, nor while the runaway guard counts the tree's runs
 * or spawns: it trips as a child is created and pauses the tree, and that holds the whole
 * batch unstarted only if all of its children were created before any of them ran (the
 * batch then waits for the reply and starts in groups of 16, as before). */
export function startsAsStreamed(config: ArborConfig, parallel: boolean, confirmsFanout: boolean): boolean {
  const guard = config.delegation.runaway;
  return parallel && !confirmsFanout && guard?.max_tree_size === undefined && guard?.max_spawns_per_minute === undefined;
}

/** What a call stopped before it started reads (loop.ts's runToolCall says 'aborted' too). */
const NOT_STARTED: ToolResult = { success: false, output: '', error: 'aborted' };

export class StreamedCalls {
  private readonly calls: ToolCallRequest[] = [];
  private readonly results: ToolResult[] = [];
  /** Each settled call's history message, made as it settles (toolResultMessage.ts). */
  private readonly messages: ModelMessage[] = [];
  private readonly starter: GroupedStarter;
  private readonly controller = new AbortController();
  private unlink: (() => void) | undefined;

  constructor(
    private readonly runSignal: AbortSignal,
    /** Shows the call's card and runs it under `signal`; never throws for a failed call. */
    run: (call: ToolCallRequest, signal: AbortSignal) => Promise<ToolResult>,
  ) {
    // Every child started here listens on this signal (its parent's, for the child).
    setMaxListeners(0, this.controller.signal);
    this.starter = new GroupedStarter(
      async (i) => {
        // Stopped before this call's group came (the reply failed, or the run was stopped):
        // it never starts and shows no card, as when calls waited for the whole reply; the
        // model reads the text a call stopped before it ran gets.
        const result = this.controller.signal.aborted ? NOT_STARTED : await run(this.calls[i], this.controller.signal);
        this.results[i] = result;
        this.messages[i] = toolResultMessage(this.calls[i], result);
      },
      START_GROUP,
      true,
    );
  }

  get size(): number {
    return this.calls.length;
  }

  add(call: ToolCallRequest): void {
    if (!this.unlink) this.link();
    this.calls.push(call);
    this.starter.add(this.calls.length - 1);
  }

  /** Every call's result, in call order, once all have settled. */
  async collect(): Promise<ToolResult[]> {
    try {
      await this.starter.settled();
      return this.results;
    } finally {
      this.unlink?.();
    }
  }

  /** Every call's history message, in call order, once all have settled. */
  async collectMessages(): Promise<ModelMessage[]> {
    await this.collect();
    return this.messages;
  }

  /** The reply failed or the run stopped before the calls were collected: stop them and
   * wait until each has ended. Gives back every call with its result: a call that finished
   * before the stop had its effect (a file written, a child's answer), so the history must
   * say so (loop.ts records them). */
  async cancel(): Promise<{ calls: ToolCallRequest[]; results: ToolResult[] }> {
    this.controller.abort();
    const results = await this.collect().catch(() => this.results);
    return { calls: [...this.calls], results: this.calls.map((_, i) => results[i] ?? NOT_STARTED) };
  }

  private link(): void {
    const onAbort = () => this.controller.abort();
    if (this.runSignal.aborted) onAbort();
    else this.runSignal.addEventListener('abort', onAbort, { once: true });
    this.unlink = () => this.runSignal.removeEventListener('abort', onAbort);
  }
}
