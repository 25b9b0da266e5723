// What quitting the chat does to background tasks still running. The chat asks first
// (ui/quit/); when the user quits anyway, their records say `lost` at once — the exit is
// what ended them — instead of staying `running` until a later arbor notices the dead pid.
import { t } from '../i18n/index.js';
import { TaskStore } from '../persistence/taskRecords.js';
import type { Runtime } from '../runtime/runtime.js';
import { runningBackgroundTasks } from '../runtime/store.js';

/** Marks every running background task of this runtime lost; returns how many. A record
 * that cannot be written is left for the next start's markLostOnStartup. */
export function markBackgroundLost(runtime: Runtime, home: string): number {
  const tasks = new TaskStore(home);
  let marked = 0;
  for (const run of runningBackgroundTasks(runtime.store.getState())) {
    try {
      tasks.update(run.taskId!, { status: 'lost', error: t('persistence:tasks.lost'), finished_at: new Date().toISOString() });
      marked++;
    } catch {
      // Its pid dies with this process: the next arbor marks it lost.
    }
  }
  return marked;
}
