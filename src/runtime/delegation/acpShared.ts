// per_child = false: one external agent process per alias and arbor session (a supervisor),
// one ACP session in it per child. The process lives while the session that started it
// does: /clear (what follows is a new session), session/close or session/load over ACP,
// and arbor's exit end it, once the children using it have let it go. A process that died
// is started again for the next child.
import { AcpAgentProcess } from '../../acp/client/externalAgent.js';
import type { AcpAgentConfig } from '../../config/types.js';
import type { SupervisorCore } from '../supervisorTypes.js';

type SpawnEnv = () => { env: Record<string, string>; marker: string };

export class SharedAcpAgents {
  private readonly agents = new Map<string, AcpAgentProcess>();
  /** Let go by the session while a child still used them: ended when that child is done. */
  private readonly retired = new Set<AcpAgentProcess>();

  /** The alias's live process, started when there is none. */
  acquire(alias: string, spec: AcpAgentConfig, cwd: string, spawnEnv: SpawnEnv): AcpAgentProcess {
    let agent = this.agents.get(alias);
    if (!agent || !agent.alive) {
      agent = new AcpAgentProcess(spec, cwd, spawnEnv);
      this.agents.set(alias, agent);
    }
    return agent;
  }

  /** A child is done with `agent`: a retired process with no child left ends now. */
  async released(agent: AcpAgentProcess): Promise<void> {
    if (!this.retired.has(agent) || !agent.idle) return;
    this.retired.delete(agent);
    await agent.end();
  }

  /** The session lets every process go: idle ones end now, busy ones when their last child is done. */
  async endAll(): Promise<void> {
    const agents = [...this.agents.values()];
    this.agents.clear();
    const ending: Array<Promise<void>> = [];
    for (const agent of agents) {
      if (agent.idle) ending.push(agent.end());
      else this.retired.add(agent);
    }
    await Promise.all(ending);
  }
}

const bySupervisor = new WeakMap<SupervisorCore, SharedAcpAgents>();

export function sharedAcpAgents(supervisor: SupervisorCore): SharedAcpAgents {
  let shared = bySupervisor.get(supervisor);
  if (!shared) bySupervisor.set(supervisor, (shared = new SharedAcpAgents()));
  return shared;
}
