// What a UI-test runtime answers for the capabilities it does not have, the way RuntimeApi
// says a runtime without one does: through a value (no models, no project context) or an
// error naming what is missing, never a missing method.
import type { ElicitationReply } from '../../src/model/controls.js';
import type { SessionChange, SessionFileDiff } from '../../src/model/sessionChanges.js';
import type { WorktreeApi } from '../../src/model/worktree.js';
import type { ModelChoice, ProjectContextReport, RuntimeApi } from '../../src/runtime/runtimeApi.js';

type Optional =
  | 'worktrees'
  | 'answerFanout'
  | 'answerElicitation'
  | 'openElicitationUrl'
  | 'exportTree'
  | 'exportText'
  | 'sessionChanges'
  | 'sessionFileDiff'
  | 'models'
  | 'setModel'
  | 'projectContext'
  | 'mcpRestart'
  | 'mcpLogin'
  | 'mcpLogout';

export abstract class WithoutCapabilities implements Pick<RuntimeApi, Optional> {
  readonly worktrees: WorktreeApi | undefined = undefined;
  answerFanout(_fanoutId: string, _count: number): void {}
  answerElicitation(_id: string, _answer: ElicitationReply): void {}
  openElicitationUrl(_id: string): void {}
  exportTree(): { path: string; runs: number } {
    throw new Error('this test runtime keeps no session to export');
  }
  exportText(_text: string, what: string): string {
    throw new Error(`this test runtime has no export folder for "${what}"`);
  }
  models(): ModelChoice[] {
    return [];
  }
  setModel(spec: string): void {
    throw new Error(`this test runtime has no model "${spec}" to switch to`);
  }
  sessionChanges(): SessionChange[] {
    return [];
  }
  sessionFileDiff(change: SessionChange): Promise<SessionFileDiff> {
    return Promise.reject(new Error(`this test runtime changed no file (${change.path})`));
  }
  projectContext(): ProjectContextReport | undefined {
    return undefined;
  }
  mcpRestart(name: string): Promise<void> {
    return Promise.reject(new Error(`this test runtime has no MCP server "${name}"`));
  }
  mcpLogin(name: string): Promise<'signed-in' | 'not-needed'> {
    return Promise.reject(new Error(`this test runtime has no MCP server "${name}"`));
  }
  mcpLogout(name: string): Promise<void> {
    return Promise.reject(new Error(`this test runtime has no MCP server "${name}"`));
  }
}
