// What RuntimeApi does with the session as a whole: /clear (a new session from here), the
// runs its file recorded, the tree and text exports and /diff's changes. The session's
// runs are this process's as they are now over what the file recorded (a resumed
// session's earlier turns).
import { exportDir } from '../config/paths.js';
import type { ModelMessage } from '../model/messages.js';
import type { Run } from '../model/run.js';
import { writeExport } from '../persistence/exportFile.js';
import { restoreSession } from '../persistence/sessionRestore.js';
import { sharedAcpAgents } from './delegation/acpShared.js';
import { changesOf, diffOfChange, mergeRuns } from './ledger/sessionDiff.js';
import { buildTreeReport, writeTreeReport } from './ledger/treeReport.js';
import type { RuntimeApi } from './runtimeApi.js';
import type { RuntimeStore } from './store.js';
import type { Supervisor } from './supervisor.js';

export interface SessionControlsDeps {
  store: RuntimeStore;
  supervisor: Supervisor;
  /** The session's model history (root turns), emptied in place by /clear. */
  history: ModelMessage[];
  /** Where session files live ($ARBOR_HOME at the time of asking when not fixed). */
  home(): string;
  env: NodeJS.ProcessEnv;
  /** Writes the session; never throws (a failure is reported). */
  flush(): void;
  /** Closes the session file and starts a new one; returns its id (undefined: no session file). */
  startNewSession(): string | undefined;
}

export type SessionControls = Pick<
  RuntimeApi,
  'clear' | 'recordedRuns' | 'exportTree' | 'exportText' | 'sessionChanges' | 'sessionFileDiff'
>;

export function sessionControls(deps: SessionControlsDeps): SessionControls {
  const { store, supervisor, history } = deps;

  /** Written out first, so the file holds everything this process did. */
  function sessionRuns(): Run[] {
    deps.flush();
    const state = store.getState();
    let recorded: Run[] = [];
    try {
      recorded = restoreSession(deps.home(), state.sessionId).runs;
    } catch {
      // No file yet: only this process's runs.
    }
    const live = state.runOrder.map((id) => state.runs.get(id)).filter((r): r is Run => r !== undefined);
    return mergeRuns(recorded, live);
  }

  return {
    clear() {
      history.length = 0;
      // A shared external agent belongs to the session /clear ends (runtime/delegation/acpShared.ts).
      void sharedAcpAgents(supervisor).endAll();
      // A new session from here: resuming never brings the cleared messages back.
      const next = deps.startNewSession();
      store.setState({
        transcript: [],
        ...(next !== undefined ? { sessionId: next, totals: { tokensIn: 0, tokensOut: 0, costUsd: 0 } } : {}),
      });
    },
    recordedRuns() {
      const restored = restoreSession(deps.home(), store.getState().sessionId);
      return { runs: restored.runs, childItems: restored.childItems };
    },
    exportTree(path) {
      const report = buildTreeReport(store.getState().sessionId, sessionRuns());
      return { path: writeTreeReport(report, { path, home: deps.home() }), runs: report.runs.length };
    },
    exportText: (text, what) => writeExport(text, what, exportDir(deps.env)),
    sessionChanges: () => changesOf(sessionRuns()),
    sessionFileDiff: (change) => diffOfChange(change),
  };
}
