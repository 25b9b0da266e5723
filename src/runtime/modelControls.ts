// /model, --model and /context: which provider and model the user's agent talks through
// for this session (RootModel), kept in the store's `info` so the status bar redraws, and
// recorded for --resume; and the AGENTS.md report /context shows.
import type { AgentConfig, ArborConfig } from '../config/types.js';
import type { ProjectContext } from '../config/projectContext.js';
import type { ProjectTrustState } from '../model/state.js';
import type { ProviderCache } from './providerCache.js';
import { RootModel, parseModelSpec, type ModelSelection } from './rootModel.js';
import type { ProjectContextReport, RuntimeApi } from './runtimeApi.js';
import { setRuntimeInfo, type RuntimeStore } from './store.js';

export interface ModelControlsDeps {
  store: RuntimeStore;
  config: ArborConfig;
  /** The agent the user talks to. */
  mainAgent: AgentConfig;
  providers: ProviderCache;
  /** Where the main provider was detected from (shown only while it is the one in use). */
  autoDetectedFrom?: string;
  projectContext?: ProjectContext;
  projectTrust?: ProjectTrustState;
  /** A switch is kept for --resume (the session sinks). */
  recordModel?(selection: ModelSelection): void;
}

export type ModelControls = Pick<RuntimeApi, 'models' | 'setModel' | 'projectContext'>;

function contextReport(context: ProjectContext, agent: AgentConfig, projectTrust?: ProjectTrustState): ProjectContextReport {
  const { text: _text, ...report } = context;
  return { ...report, agentOptedOut: agent.context === false, ...(projectTrust ? { projectTrust } : {}) };
}

/** `initial`: the root's model as a restored session left it (applied, not recorded again). */
export function modelControls(deps: ModelControlsDeps, initial?: ModelSelection): { rootModel: RootModel; controls: ModelControls } {
  const { store, config, mainAgent } = deps;
  const rootModel = new RootModel(config, mainAgent, deps.providers.for, deps.providers.build);
  const apply = (selection: ModelSelection): void => {
    const resolved = rootModel.select(selection);
    setRuntimeInfo(store, {
      providerName: selection.provider,
      providerLabel: resolved.label,
      autoDetectedFrom: selection.provider === mainAgent.provider ? deps.autoDetectedFrom : undefined,
    });
  };
  if (initial) apply(initial);
  return {
    rootModel,
    controls: {
      models: () => rootModel.choices(),
      setModel(spec) {
        const selection = parseModelSpec(spec, config);
        apply(selection);
        deps.recordModel?.(selection);
      },
      projectContext: () => (deps.projectContext ? contextReport(deps.projectContext, mainAgent, deps.projectTrust) : undefined),
    },
  };
}
