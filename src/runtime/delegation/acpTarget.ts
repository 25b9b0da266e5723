// A delegate child whose target is an external ACP agent (`[agents.<alias>] runtime = "acp"`):
// the run is supervised like any other (timeouts, kill, pause, the runaway guard), its
// updates stream into its transcript, its turns are the task then what it is steered with
// (acpSteering.ts), and what it asks of its client is answered under the caller's policy
// (acpHost.ts).
import { runAcpChild, type AcpChildResult } from '../../acp/client/externalAgent.js';
import { AcpTranscriptSink } from '../../acp/client/transcriptSink.js';
import type { AcpAgentConfig } from '../../config/types.js';
import { addUsage, appendItem, updateItem } from '../store.js';
import type { PostNotice, RunHandle, SupervisorCore } from '../supervisorTypes.js';
import type { Run } from '../types.js';
import { toolSubprocessEnv } from '../../tools/toolEnv.js';
import { acpHost } from './acpHost.js';
import { sharedAcpAgents } from './acpShared.js';
import { AcpSteering } from './acpSteering.js';
import type { ChildPlan } from './plan.js';

/** The delegate result label: "acp/<agent name>". */
export const acpLabel = (agentName: string) => `acp/${agentName}`;

export const ACP_STOPPED = (target: string) => `Agent '${target}' was stopped (session/cancel, then its process was ended).`;

type AcpSpawnEnv = () => { env: Record<string, string>; marker: string };

export async function runAcpTarget(
  supervisor: SupervisorCore,
  handle: RunHandle,
  run: Run,
  plan: ChildPlan,
  spec: AcpAgentConfig,
  task: string,
  onAgentName: (name: string) => void,
  notice: PostNotice,
): Promise<string> {
  const { store } = supervisor;
  // An isolated child (or one inheriting an isolated caller's tree) works in its worktree:
  // the agent's session starts there, and its fs and terminal requests are checked as the
  // caller mapped into it (the original checkout forbidden, other worktrees fenced off).
  const { cwd, caller } = supervisor.placeOf(run.id, plan.caller);
  const sink = new AcpTranscriptSink({
    runId: run.id,
    append: (item) => void appendItem(store, run.id, item),
    update: (id, patch) => void updateItem(store, run.id, id, patch),
  });
  const host = acpHost(supervisor, handle, run, { cwd, caller }, sink);

  // Same env rules as MCP servers: a tool's environment (no provider keys) plus the entry's env.
  const spawnEnv: AcpSpawnEnv = () => toolSubprocessEnv({ config: supervisor.config, profiles: [] });
  const signal = handle.controller.signal;
  const steering = new AcpSteering(supervisor, handle, run, sink, task, notice);
  const shared = spec.perChild ? undefined : sharedAcpAgents(supervisor);
  // A shared process outlives any one child's worktree: it starts in the session's cwd, and
  // each child's session is opened in that child's own (host.cwd).
  const agent = shared?.acquire(run.alias, spec, supervisor.cwd, spawnEnv);
  let result: AcpChildResult | undefined;
  let failure: unknown;
  try {
    result = agent ? await agent.run(host, signal, steering.next) : await runAcpChild(spec, host, signal, steering.next, spawnEnv);
  } catch (err) {
    failure = err;
    throw err;
  } finally {
    // However the session ended (a stop, an error, a refusal), nothing reads steering now,
    // and what was queued for it is reported as not sent.
    steering.close(result, failure);
    if (agent) await shared?.released(agent);
  }
  sink.finish();
  onAgentName(result.agentName);
  if (result.usage) addUsage(store, run.id, result.usage.inputTokens, result.usage.outputTokens, 0);
  if (result.stopReason === 'aborted' || result.stopReason === 'cancelled') throw new Error(ACP_STOPPED(run.alias));
  return result.text;
}
