// Which calls of a fan-out start when the operator lets only the first `count` children
// through. Shared by the runtime (which declines the rest) and the prompt (which shows it).
import type { PlannedChild } from './controls.js';

/** The calls that do not fit: a call whose children cross the line is declined whole (a
 * parallel delegate runs all its targets or none), and so is every call after it. */
export function declinedCalls(children: readonly PlannedChild[], count: number): Set<string> {
  const declined = new Set<string>();
  const perCall = new Map<string, number>();
  for (const c of children) perCall.set(c.callId, (perCall.get(c.callId) ?? 0) + 1);
  let started = 0;
  for (const [callId, n] of perCall) {
    if (declined.size === 0 && started + n <= count) started += n;
    else declined.add(callId);
  }
  return declined;
}

/** How many children really start for a chosen count (whole calls only). */
export function startedFor(children: readonly PlannedChild[], count: number): number {
  const declined = declinedCalls(children, count);
  return children.filter((c) => !declined.has(c.callId)).length;
}
