// The model the user's agent (the root) talks to, switched for the session by /model or
// --model: a configured provider, optionally with another model name on it. Children keep
// their own definitions: only root turns read this.
import type { AgentConfig, ArborConfig, ProviderConfig } from '../config/types.js';
import { OFFLINE_MODEL, OFFLINE_PROVIDER } from '../config/defaults.js';
import { t } from '../i18n/index.js';
import { providerLabel } from '../providers/label.js';
import { hasControls } from '../text/untrusted.js';
import type { ModelChoice } from './runtimeApi.js';
import type { ResolvedProvider } from './supervisorTypes.js';
import { agentProviderConfig } from './agentModel.js';

/** A provider by its config name, and a model name on it when it is not the provider's own. */
export interface ModelSelection {
  provider: string;
  model?: string;
}

/** The providers a config file set up: the built-in offline one (there with no config, or
 * for the built-in agents) is always usable but is not "configured". */
export function configuredProviderNames(config: Pick<ArborConfig, 'providers'>): string[] {
  return Object.values(config.providers)
    .filter((p) => !isBuiltinOffline(p))
    .map((p) => p.name);
}

function isBuiltinOffline(p: ProviderConfig): boolean {
  return (
    p.name === OFFLINE_PROVIDER &&
    p.type === 'offline' &&
    p.model === OFFLINE_MODEL &&
    p.base_url === undefined &&
    Object.keys(p.headers).length === 0
  );
}

function configuredList(config: Pick<ArborConfig, 'providers'>): string {
  const names = configuredProviderNames(config);
  return names.length ? names.join(', ') : t('runtime:model.noneConfigured');
}

/** No such provider: the configured ones named, or, with none, how to add one. */
function unknownProvider(name: string, config: Pick<ArborConfig, 'providers'>): Error {
  const names = configuredProviderNames(config);
  return new Error(names.length ? t('runtime:model.unknown', { name, known: names.join(', ') }) : t('runtime:model.unknownNone', { name }));
}

/** `<provider>` or `<provider>/<model>`. Provider names may hold '/' and so may model
 * names ("openrouter/meta-llama/llama-3"): the whole spec is a provider when it names one,
 * else the longest configured provider name followed by '/' starts it. Throws an Error
 * naming the configured providers. */
export function parseModelSpec(spec: string, config: Pick<ArborConfig, 'providers'>): ModelSelection {
  const text = spec.trim();
  const known = Object.keys(config.providers);
  if (text === '') throw new Error(t('models:empty', { known: configuredList(config) }));
  if (Object.hasOwn(config.providers, text)) return { provider: text };
  const provider = [...known].sort((a, b) => b.length - a.length).find((name) => text.startsWith(`${name}/`));
  if (provider === undefined) {
    const name = text.includes('/') ? text.slice(0, text.indexOf('/')) : text;
    throw unknownProvider(name, config);
  }
  return checkSelection({ provider, model: text.slice(provider.length + 1) }, config);
}

/** A selection whose provider is configured and whose model name is usable (no spaces or
 * control characters: it came from a prompt line, an argument or a session file). The
 * provider's own model is no override: its config (pricing) then applies as is. */
export function checkSelection(sel: ModelSelection, config: Pick<ArborConfig, 'providers'>): ModelSelection {
  const pc = config.providers[sel.provider];
  if (!Object.hasOwn(config.providers, sel.provider) || !pc) {
    throw unknownProvider(sel.provider, config);
  }
  if (sel.model === undefined || sel.model === pc.model) return { provider: sel.provider };
  const model = sel.model;
  if (model.trim() === '' || /\s/.test(model) || hasControls(model)) throw new Error(t('models:badModel', { spec: selectionSpec(sel) }));
  return { provider: sel.provider, model };
}

/** What a selection runs on: the provider's entry with the other model. Its pricing is
 * for its own model, so an override drops it (no cost shown rather than a wrong one). */
export function selectionConfig(config: Pick<ArborConfig, 'providers'>, sel: ModelSelection): ProviderConfig {
  const pc = config.providers[sel.provider];
  if (!pc) throw unknownProvider(sel.provider, config);
  if (sel.model === undefined || sel.model === pc.model) return pc;
  const { pricing: _pricing, ...rest } = pc;
  return { ...rest, model: sel.model };
}

export const selectionSpec = (sel: ModelSelection): string => (sel.model === undefined ? sel.provider : `${sel.provider}/${sel.model}`);

const sameSelection = (config: Pick<ArborConfig, 'providers'>, a: ModelSelection, b: ModelSelection): boolean =>
  a.provider === b.provider && (a.model ?? config.providers[a.provider]?.model) === (b.model ?? config.providers[b.provider]?.model);

/** The list /model shows and picks from: every configured provider with its model, then the
 * current selection when it is another model name. The one place the list is built: more
 * sources (agent definitions' models) add their entries here. */
export function modelChoices(config: Pick<ArborConfig, 'providers' | 'agents'>, current: ModelSelection): ModelChoice[] {
  // The built-in offline provider is there for the built-in agents beside a user's own
  // providers: listed only when it is all there is (or in use, below).
  const configured = configuredProviderNames(config);
  const listed = Object.entries(config.providers).filter(([name]) => configured.length === 0 || configured.includes(name));
  const choices: ModelChoice[] = listed.map(([name, pc]) => ({
    id: name,
    provider: name,
    label: providerLabel(pc),
    current: sameSelection(config, { provider: name }, current),
  }));
  // Models the agent definitions name, once each, with the agents that name them: a user
  // who wrote `model:` in an agent file can try that model at the root.
  for (const [alias, agent] of Object.entries(config.agents ?? {})) {
    if (agent.model === undefined || agent.enabled === false || !config.providers[agent.provider]) continue;
    const sel: ModelSelection = { provider: agent.provider, model: agent.model };
    const same = choices.find((c) => sameSelection(config, { provider: c.provider, model: c.model }, sel));
    if (same) {
      same.agents = [...(same.agents ?? []), alias];
      continue;
    }
    choices.push({
      id: selectionSpec(sel),
      provider: sel.provider,
      model: sel.model,
      label: providerLabel(selectionConfig(config, sel)),
      current: sameSelection(config, sel, current),
      agents: [alias],
    });
  }
  if (!choices.some((c) => c.current) && config.providers[current.provider]) {
    choices.push({
      id: selectionSpec(current),
      provider: current.provider,
      model: current.model,
      label: providerLabel(selectionConfig(config, current)),
      current: true,
    });
  }
  return choices;
}

/** The root's selection and the providers built for it (one per provider and model). */
export class RootModel {
  private current: ModelSelection;
  private readonly built = new Map<string, ResolvedProvider>();

  constructor(
    private readonly config: ArborConfig,
    private readonly agent: AgentConfig,
    /** The runtime's provider cache, for a provider's own model (shared with children). */
    private readonly providerFor: (agent: AgentConfig) => ResolvedProvider,
    /** Builds a provider for another model name. */
    private readonly build: (config: ProviderConfig) => ResolvedProvider,
  ) {
    // The agent's own model (its definition's `model`) is where the root starts.
    this.current =
      agent.model !== undefined ? checkSelection({ provider: agent.provider, model: agent.model }, config) : { provider: agent.provider };
  }

  get selection(): ModelSelection {
    return { ...this.current };
  }

  /** The provider root turns use now. The agent's temperature goes with it; its model only
   * while the selection is that model (a provider picked alone means the provider's own). */
  resolve(): ResolvedProvider {
    const sel = this.current;
    const own = this.agent.model !== undefined && sel.provider === this.agent.provider && sel.model === this.agent.model;
    if (own || (sel.model === undefined && this.agent.model === undefined && sel.provider === this.agent.provider)) {
      return this.providerFor(this.agent);
    }
    if (sel.model === undefined) return this.providerFor({ ...this.agent, provider: sel.provider, model: undefined });
    const key = selectionSpec(sel);
    let resolved = this.built.get(key);
    if (!resolved) {
      resolved = this.build(agentProviderConfig(selectionConfig(this.config, sel), { temperature: this.agent.temperature }));
      this.built.set(key, resolved);
    }
    return resolved;
  }

  /** Switches (throws naming the configured providers for an unknown one); returns the
   * provider now in use. A failed switch changes nothing. */
  select(sel: ModelSelection): ResolvedProvider {
    const before = this.current;
    selectionConfig(this.config, sel);
    this.current = { ...sel };
    try {
      return this.resolve();
    } catch (err) {
      this.current = before;
      throw err;
    }
  }

  choices(): ModelChoice[] {
    return modelChoices(this.config, this.current);
  }
}
