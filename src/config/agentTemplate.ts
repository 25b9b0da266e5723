// `arbor agents new <name>`: a commented agent file to start from, in the project's
// ./.arbor/agents. The template parses as written (a test loads it), every optional key is
// shown commented out with what it does.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { t } from '../i18n/index.js';
import { quote } from './errors.js';

/** A name that is a file name everywhere and an agent alias a model can type. */
const AGENT_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

export class AgentTemplateError extends Error {}

export function agentTemplate(name: string): string {
  return `---
# The agent's alias (defaults to the file name without .md). Delegate callers and
# \`arbor --agent ${name}\` use it.
name: ${name}
# What delegate callers see in their roster: say what this agent is good at.
description: Describe what ${name} does and when to hand it work.
# Which [providers.<name>] entry it talks through (may be left out when there is one).
# provider: local
# This agent's model and temperature, overriding the provider's for this agent only.
# model: qwen3:8b
# temperature: 0.2
# Tool names it may use (globs allowed, e.g. "mcp__fs__*"); narrows what its risk profile
# allows, never widens it. Left out: every tool the profile allows.
# tools: [read_file, list_files]
# Which [mcp_servers.<name>] it sees (left out: every enabled one).
# mcp_servers: [fs]
# false: no project context (AGENTS.md files) in its system prompt.
# context: false
# The [risk_profiles.<name>] and [runtime_profiles.<name>] it runs under ("default").
# risk_profile: default
# runtime_profile: default
# Agents it may hand work to: names, or { agent: name, mode: independent }.
# delegates: []
# enabled: true
---
You are ${name}. Write this agent's system prompt here: its job, how it should work,
and what it should hand back.
`;
}

/** Writes ./.arbor/agents/<name>.md under `cwd`; never overwrites. Returns the path. */
export function writeAgentTemplate(cwd: string, name: string): string {
  if (!AGENT_NAME.test(name)) throw new AgentTemplateError(t('agentFiles:new.badName', { name: quote(name) }));
  const dir = join(resolve(cwd), '.arbor', 'agents');
  const path = join(dir, `${name}.md`);
  try {
    mkdirSync(dir, { recursive: true });
    // 'wx' fails if the file exists, so nothing is ever overwritten.
    writeFileSync(path, agentTemplate(name), { flag: 'wx' });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') throw new AgentTemplateError(t('agentFiles:new.exists', { path }));
    throw new AgentTemplateError(t('agentFiles:new.failed', { path, reason: code ?? (err as Error).message }));
  }
  return path;
}
