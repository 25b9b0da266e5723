// `arbor agents new` says "as a delegate" only when the default agent can reach the new
// agent; with the starter setup it cannot, and the message says what to add (#20 wording).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { setLanguage } from '../../../src/i18n/index.js';
import { writeAgentTemplate } from '../../../src/config/agentTemplate.js';
import { agentCreatedMessage } from '../../../src/cli/agentsNewMessage.js';

const dirs: string[] = [];
afterEach(() => {
  setLanguage('en');
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function world(): { cwd: string; env: NodeJS.ProcessEnv } {
  const root = mkdtempSync(join(tmpdir(), 'arbor-agents-new-'));
  dirs.push(root);
  const cwd = join(root, 'project');
  mkdirSync(cwd);
  return { cwd, env: { ARBOR_HOME: join(root, 'home'), HOME: root } };
}

describe('agents new: what it says', () => {
  it('with the starter setup: not "as a delegate", but what to add to main (en, es)', () => {
    const { cwd, env } = world();
    const path = writeAgentTemplate(cwd, 'scout');
    const en = agentCreatedMessage(cwd, 'scout', path, env);
    expect(en).not.toContain('as a delegate');
    expect(en).toBe(
      `Wrote ${path}: edit its frontmatter and system prompt, then use it with arbor --agent scout. main cannot hand it work yet: add scout to main's delegates (delegates = ["scout"] in [agents.main], or in main's agent file), with delegation allowed by main's risk profile (delegation_policy = { mode = "allow" }).`,
    );
    setLanguage('es');
    expect(agentCreatedMessage(cwd, 'scout', path, env)).toContain(
      'main aún no puede pasarle trabajo: añade scout a los delegates de main',
    );
  });

  it('when main reaches it (a same-profile peer with delegation allowed): "as a delegate of main"', () => {
    const { cwd, env } = world();
    mkdirSync(join(cwd, '.arbor'));
    writeFileSync(
      join(cwd, '.arbor', 'config.toml'),
      '[providers.p]\ntype = "offline"\n[agents.main]\nprovider = "p"\n[risk_profiles.default]\ndelegation_policy = { mode = "allow" }\n',
    );
    const path = writeAgentTemplate(cwd, 'scout');
    expect(agentCreatedMessage(cwd, 'scout', path, env)).toBe(
      `Wrote ${path}: edit its frontmatter and system prompt, then use it with arbor --agent scout or as a delegate of main.`,
    );
    setLanguage('es');
    expect(agentCreatedMessage(cwd, 'scout', path, env)).toContain('o como delegado de main.');
  });
});
