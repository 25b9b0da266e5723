// The actions the /agents pane and /subagents share, each through RuntimeApi, each
// returning the one line that confirms what happened (the pane flashes it, /subagents
// prints it). Counts are read before acting: a kill or pause changes them.
import { t, type KeyUnder } from '../../i18n/index.js';
import type { RuntimeApi } from '../../runtime/runtimeApi.js';
import { runLabel } from '../../runtime/runSelection.js';
import { descendantsOf } from '../../runtime/store.js';
import type { RuntimeState } from '../../model/state.js';
import { isExternalAcpRun, isTerminal } from '../../model/run.js';
import type { NoticeLevel } from '../theme.js';
import { statusWord } from './status.js';
import { topLiveRuns } from './tree.js';

export interface ActionResult {
  text: string;
  level: NoticeLevel;
}

const info = (text: string): ActionResult => ({ text, level: 'info' });
const warn = (text: string): ActionResult => ({ text, level: 'warn' });

function liveDescendants(s: RuntimeState, runId: string): number {
  return descendantsOf(s, runId).filter((r) => r && !isTerminal(r.status)).length;
}

function isTrippedRoot(s: RuntimeState, runId: string): boolean {
  return s.controls.runaway.tripped && s.controls.runaway.rootRunId === runId;
}

/** Why nothing happened to a run that is gone or already finished, or undefined. */
function notLive(s: RuntimeState, runId: string): ActionResult | undefined {
  const run = s.runs.get(runId);
  if (!run) return warn(t('agents:actions.gone', { id: runId.slice(0, 8) }));
  if (isTerminal(run.status))
    return warn(t('agents:actions.alreadyFinished', { label: runLabel(s, runId), status: statusWord(run.status) }));
  return undefined;
}

/** Action keys that have both forms: with descendants, and `<key>Alone`. */
type TreeActionKey = KeyUnder<'agents:actions.'> extends infer K ? (K extends `${infer B}Alone` ? B : never) : never;

function withDescendants(key: TreeActionKey, label: string, count: number): string {
  return count > 0 ? t(`agents:actions.${key}`, { label, count }) : t(`agents:actions.${key}Alone`, { label });
}

/** Kills a run and its subtree. On the root of a tripped tree this is the answer "kill" to
 * the runaway guard: its children die, the root turn goes on. */
export function killRun(runtime: RuntimeApi, runId: string): ActionResult {
  const s = runtime.store.getState();
  const label = runLabel(s, runId);
  if (isTrippedRoot(s, runId)) {
    const count = liveDescendants(s, runId);
    runtime.resolveRunaway('kill');
    return info(t('agents:actions.guardKilled', { label, count }));
  }
  const stop = notLive(s, runId);
  if (stop) return stop;
  const res = runtime.kill(runId);
  if (!res.killed) return notLive(runtime.store.getState(), runId) ?? warn(t('agents:actions.gone', { id: runId.slice(0, 8) }));
  // The issue fixes this wording: always "killed <label> (+N descendants)".
  return info(t('agents:actions.killed', { label, count: res.descendants }));
}

export function pauseRun(runtime: RuntimeApi, runId: string): ActionResult {
  const s = runtime.store.getState();
  const stop = notLive(s, runId);
  if (stop) return stop;
  const label = runLabel(s, runId);
  const paused = runtime.pause(runId);
  // 0: the run was being stopped (a kill still unwinding) or ended meanwhile.
  if (paused === 0) {
    const now = runtime.store.getState().runs.get(runId);
    return warn(
      now && isTerminal(now.status)
        ? t('agents:actions.alreadyFinished', { label, status: statusWord(now.status) })
        : t('agents:actions.nothingToPause', { label }),
    );
  }
  // A step in flight is still finishing: say so, as the row does, rather than "paused".
  const key = runtime.store.getState().runs.get(runId)?.status === 'pausing' ? 'pausing' : 'paused';
  return info(withDescendants(key, label, paused - 1));
}

/** Resumes a subtree. On the root of a tripped tree it answers the guard with "resume". */
export function resumeRun(runtime: RuntimeApi, runId: string): ActionResult {
  const s = runtime.store.getState();
  const label = runLabel(s, runId);
  if (isTrippedRoot(s, runId)) {
    runtime.resume(runId);
    return info(t('agents:actions.guardResumed', { label }));
  }
  const stop = notLive(s, runId);
  if (stop) return stop;
  const count = liveDescendants(s, runId);
  runtime.resume(runId);
  return info(withDescendants('resumed', label, count));
}

/** Space in the pane: resume what is paused (or the tripped root), pause the rest. */
export function togglePause(runtime: RuntimeApi, runId: string): ActionResult {
  const s = runtime.store.getState();
  const status = s.runs.get(runId)?.status;
  // A pause that has not held yet (pausing…) is undone by the same key.
  if (isTrippedRoot(s, runId) || status === 'paused' || status === 'pausing') return resumeRun(runtime, runId);
  return pauseRun(runtime, runId);
}

export function steerRun(runtime: RuntimeApi, runId: string, message: string): ActionResult {
  const label = runLabel(runtime.store.getState(), runId);
  const run = runtime.store.getState().runs.get(runId);
  const text = message.trim();
  if (!text) return warn(t('agents:actions.steerEmpty'));
  const outcome = runtime.steer(runId, text);
  // An external ACP agent has no step boundary to read it at: it gets it as its next prompt,
  // and its session is gone once it finished.
  const external = run !== undefined && isExternalAcpRun(run);
  if (outcome === 'delivered') return info(t(external ? 'agents:actions.steerQueuedExternal' : 'agents:actions.steerDelivered', { label }));
  if (outcome === 'unknown' && external) return { text: t('agents:actions.steerFinishedExternal', { label }), level: 'error' };
  if (outcome === 'continued') return info(t('agents:actions.steerContinued', { label }));
  return { text: t('agents:actions.steerUnknown', { label }), level: 'error' };
}

export function setSpawning(runtime: RuntimeApi, paused: boolean): ActionResult {
  runtime.setSpawnPaused(paused);
  return paused ? warn(t('agents:actions.spawnPaused')) : info(t('agents:actions.spawnResumed'));
}

/** Kills every live run (`childrenOnly`: every live child, root turns go on). A tripped
 * guard is answered first, so the tree it paused does not stay paused. Returns how many
 * runs were live and are now killed. */
export function killAll(runtime: RuntimeApi, childrenOnly: boolean): number {
  const before = runtime.store.getState();
  const count = before.runs.values().filter((r) => !isTerminal(r.status) && !(childrenOnly && r.kind === 'root')).length;
  if (before.controls.runaway.tripped) runtime.resolveRunaway('kill');
  for (const run of topLiveRuns(runtime.store.getState(), childrenOnly)) runtime.kill(run.id);
  return count;
}
