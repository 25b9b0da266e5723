// Loopback-model scripts for a root that hands work to children, shared by the tests that
// drive the real runtime (the UI's realRuntime tests; runtime tests may take them too): the
// root tells its children apart from itself by their first user message.
import type { LoopbackIncoming, LoopbackReply } from '../support/loopbackModel.js';
import { calls, firstUserText, heldReply, text, toolMessages } from './runtimeFixture.js';

/** The root spawns `n` subagents at once (prompts `job 1` … `job n`, call ids `j1` …), then
 * answers `root done`; each child answers `child(its prompt)`. */
export function fanOutScript(n: number, child: (prompt: string) => LoopbackReply) {
  return ({ body }: LoopbackIncoming): LoopbackReply => {
    const prompt = firstUserText(body);
    if (prompt.startsWith('job')) return child(prompt);
    if (toolMessages(body).length) return text('root done');
    return calls(...Array.from({ length: n }, (_, i) => ({ id: `j${i + 1}`, name: 'spawn_subagent', args: { prompt: `job ${i + 1}` } })));
  };
}

/** The root spawns one subagent, `worker`, whose first model call the server holds until
 * `release()`; it then asks for list_files, and answers `worker finished` after the tool. A
 * pause asked for while it is held lands mid model call. */
export function heldWorkerScript() {
  const worker = heldReply();
  let workerCalls = 0;
  return {
    release: worker.release,
    /** How many model calls the worker has made. */
    get workerCalls() {
      return workerCalls;
    },
    async respond({ body }: LoopbackIncoming): Promise<LoopbackReply> {
      if (firstUserText(body) === 'worker') {
        workerCalls++;
        if (toolMessages(body).length === 0) return worker.held.then(() => calls({ id: 'l', name: 'list_files', args: {} }));
        return text('worker finished');
      }
      if (toolMessages(body).length) return text('root done');
      return calls({ id: 'w', name: 'spawn_subagent', args: { prompt: 'worker' } });
    },
  };
}
