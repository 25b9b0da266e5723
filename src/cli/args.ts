// argv → a typed command. node:util parseArgs does the parsing; we add the optional value
// of --resume and turn every mistake into a UsageError (exit code 2).
import { parseArgs } from 'node:util';
import { t } from '../i18n/index.js';
import { nameMissingValue, printPromptFirst } from './argOrder.js';

export class UsageError extends Error {}

export type CliCommand =
  | { kind: 'help' }
  | { kind: 'version' }
  | { kind: 'init'; configPath?: string }
  /** `json`: `arbor doctor --json`, one JSON document for scripts. */
  | { kind: 'doctor'; configPath?: string; json?: true }
  /** `arbor agents new <name>`: a commented agent-file template in ./.arbor/agents. */
  | { kind: 'agentsNew'; name: string }
  /** `arbor trust [--revoke] [path]`: trust (or forget) a folder's .arbor settings. */
  | { kind: 'trust'; path?: string; revoke: boolean }
  /** `arbor mcp login|logout <server>`: sign-in to a url MCP server from the shell. */
  | { kind: 'mcpAuth'; action: 'login' | 'logout'; name: string; configPath?: string }
  | {
      kind: 'chat';
      configPath?: string;
      /** `--resume [id]`: without an id, a picker (or, headless, the newest session). */
      resume?: { id?: string };
      /** `-c/--continue`: the newest session started in this working directory. */
      continueLast: boolean;
      print?: string;
      output: 'text' | 'json';
      yes: boolean;
      /** Headless text output without neutralising control characters. */
      raw: boolean;
      /** `--model <provider>[/<model>]`: the root's model for this session (checked against the config). */
      model?: string;
      /** Headless: wait for a provider's rate or quota limit to lift instead of failing. */
      waitOnQuota?: boolean;
      /** `--agent <alias>`: the agent the user talks to, instead of default_agent. */
      agent?: string;
      /** `--trust-project`: apply this folder's .arbor settings for this run without asking. */
      trustProject?: boolean;
      /** `arbor acp`: serve the Agent Client Protocol on stdio (src/acp/server/). */
      acp?: boolean;
    };

const OPTIONS = {
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'v' },
  // -c is --continue, as in other agent CLIs; --config stays long only.
  config: { type: 'string' },
  continue: { type: 'boolean', short: 'c' },
  resume: { type: 'boolean', short: 'r' },
  print: { type: 'string', short: 'p' },
  output: { type: 'string', short: 'o' },
  yes: { type: 'boolean', short: 'y' },
  raw: { type: 'boolean' },
  model: { type: 'string', short: 'm' },
  'wait-on-quota': { type: 'boolean' },
  agent: { type: 'string' },
  'trust-project': { type: 'boolean' },
  revoke: { type: 'boolean' },
  json: { type: 'boolean' },
} as const;

function readArgs(argv: string[]) {
  try {
    return parseArgs({ args: printPromptFirst(argv), allowPositionals: true, strict: true, tokens: true, options: OPTIONS });
  } catch (err) {
    throw new UsageError(nameMissingValue((err as Error).message.replace(/\. To specify a positional argument.*$/s, '.')));
  }
}

type Parsed = ReturnType<typeof readArgs>;
type Values = Parsed['values'];

/** `--resume <id>`: the positional right after --resume is its value; the rest in order. */
function positionals(tokens: Parsed['tokens']): { resumeId: string | undefined; rest: string[] } {
  let resumeId: string | undefined;
  const rest: string[] = [];
  const toks = tokens ?? [];
  for (let i = 0; i < toks.length; i++) {
    const tok = toks[i];
    if (tok.kind !== 'positional') continue;
    const prev = toks[i - 1];
    if (prev && prev.kind === 'option' && prev.name === 'resume') resumeId = tok.value;
    else rest.push(tok.value);
  }
  return { resumeId, rest };
}

/** `arbor init|doctor|agents new|trust|mcp ...`, or undefined for the chat. */
function subcommand(rest: string[], values: Values): CliCommand | undefined {
  if (rest[0] === 'init') {
    if (rest.length > 1) throw new UsageError(t('cli:unexpectedArgument', { arg: rest[1] }));
    return { kind: 'init', configPath: values.config };
  }
  if (rest[0] === 'doctor') {
    if (rest.length > 1) throw new UsageError(t('cli:unexpectedArgument', { arg: rest[1] }));
    return { kind: 'doctor', configPath: values.config, ...(values.json ? { json: true as const } : {}) };
  }
  if (rest[0] === 'agents') {
    if (rest[1] !== 'new' || rest.length !== 3) throw new UsageError(t('agentFiles:new.usage'));
    return { kind: 'agentsNew', name: rest[2] };
  }
  if (rest[0] === 'trust') {
    if (rest.length > 2) throw new UsageError(t('trust:cli.usage'));
    return { kind: 'trust', ...(rest[1] !== undefined ? { path: rest[1] } : {}), revoke: values.revoke ?? false };
  }
  if (values.revoke) throw new UsageError(t('trust:cli.usage'));
  if (values.json) throw new UsageError(t('cli:jsonNeedsDoctor'));
  if (rest[0] === 'mcp') {
    if ((rest[1] !== 'login' && rest[1] !== 'logout') || rest.length !== 3) throw new UsageError(t('cli:mcpUsage'));
    return { kind: 'mcpAuth', action: rest[1], name: rest[2], configPath: values.config };
  }
  return undefined;
}

/** `arbor`, `arbor -p` and `arbor acp`: their flags checked against each other. */
function chatCommand(rest: string[], values: Values, resumeId: string | undefined): CliCommand {
  const acp = rest[0] === 'acp';
  if (acp) {
    if (rest.length > 1 || values.print !== undefined || values.resume || values.continue) throw new UsageError(t('acp:usage'));
    rest.shift();
  }
  if (rest.length > 0) throw new UsageError(t('cli:unexpectedArgument', { arg: rest[0] }));
  if (values.agent !== undefined && values.agent.trim() === '') throw new UsageError(t('agentFiles:cli.emptyAgent'));

  const output = values.output ?? 'text';
  if (output !== 'text' && output !== 'json') throw new UsageError(t('cli:badOutput', { value: output }));
  if (values.output && values.print === undefined) throw new UsageError(t('cli:outputNeedsPrint'));
  if (values.yes && values.print === undefined) throw new UsageError(t('cli:yesNeedsPrint'));
  if (values.raw && values.print === undefined) throw new UsageError(t('cli:rawNeedsPrint'));
  if (values['wait-on-quota'] && values.print === undefined) throw new UsageError(t('cli:waitOnQuotaNeedsPrint'));
  if (values.raw && output === 'json') throw new UsageError(t('cli:rawNeedsText'));
  if (values.print !== undefined && values.print.trim() === '') throw new UsageError(t('cli:emptyPrompt'));
  if (values.continue && values.resume) throw new UsageError(t('cli:continueAndResume'));
  return {
    kind: 'chat',
    configPath: values.config,
    resume: values.resume ? { id: resumeId } : undefined,
    continueLast: values.continue ?? false,
    print: values.print,
    output,
    yes: values.yes ?? false,
    raw: values.raw ?? false,
    ...(values.model !== undefined ? { model: values.model } : {}),
    waitOnQuota: values['wait-on-quota'] ?? false,
    ...(values.agent !== undefined ? { agent: values.agent } : {}),
    ...(values['trust-project'] ? { trustProject: true } : {}),
    ...(acp ? { acp: true } : {}),
  };
}

export function parseCli(argv: string[]): CliCommand {
  const { values, tokens } = readArgs(argv);
  if (values.help) return { kind: 'help' };
  if (values.version) return { kind: 'version' };
  const { resumeId, rest } = positionals(tokens);
  return subcommand(rest, values) ?? chatCommand(rest, values, resumeId);
}
