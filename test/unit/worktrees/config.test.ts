// The isolation keys (issue #23): [agents.<alias>] isolation, agent files, [delegation]
// isolation and merge, and the tools' isolation argument that may only ask for a worktree.
import { beforeAll, describe, expect, it } from 'vitest';
import { setLanguage } from '../../../src/i18n/index.js';
import { loadConfigFromTexts } from '../../../src/config/load.js';
import { spawnSubagentArgs } from '../../../src/tools/spawnSubagent.js';
import { parseArgs } from '../../../src/tools/delegate/args.js';
import { ISOLATION_ONLY_WORKTREE } from '../../../src/tools/worktreeNotes.js';
import { wantsWorktree } from '../../../src/runtime/worktrees/supervise.js';
import { parseToolArgs } from '../../../src/tools/toolArgs.js';
import { BASE, configErrorOf } from '../config/helpers.js';

beforeAll(() => setLanguage('en'));

const TOML = '/p/.arbor/config.toml';
const load = (toml: string, files: Parameters<typeof loadConfigFromTexts>[2] = []) =>
  loadConfigFromTexts([{ file: TOML, text: toml }], {}, files);

describe('isolation in the config', () => {
  it('absent: none, and merge absent means ask (today’s behaviour)', () => {
    const { config } = load(BASE);
    expect(config.delegation.isolation).toBeUndefined();
    expect(config.delegation.merge).toBeUndefined();
    expect(wantsWorktree(config, { alias: 'main' })).toBe(false);
  });

  it('reads [delegation] isolation/merge, an agent table and an agent file', () => {
    const { config } = load(
      `${BASE}\n[delegation]\nisolation = "worktree"\nmerge = "auto"\n[agents.solo]\nprovider = "local"\nisolation = "none"\n`,
      [{ file: '/p/.arbor/agents/writer.md', text: '---\nprovider: local\nisolation: worktree\n---\nYou write.\n', scope: 'project' }],
    );
    expect(config.delegation.merge).toBe('auto');
    expect(config.agents.writer.isolation).toBe('worktree');
    expect(config.agents.solo.isolation).toBe('none');
    // The agent's own "none" wins over the [delegation] default; a call may still ask.
    expect(wantsWorktree(config, { alias: 'solo' })).toBe(false);
    expect(wantsWorktree(config, { alias: 'solo', isolation: 'worktree' })).toBe(true);
    expect(wantsWorktree(config, { alias: 'writer' })).toBe(true);
  });

  it('a bad value names the key and the allowed values', () => {
    const err = configErrorOf(() => load(`${BASE}\n[delegation]\nmerge = "sometimes"\n`));
    expect(err.message).toBe(`${TOML}: delegation.merge: must be one of "auto", "ask", "manual", got "sometimes"`);
  });
});

describe('the isolation argument', () => {
  it('spawn_subagent and delegate take "worktree" and refuse anything looser', () => {
    expect(spawnSubagentArgs.parse({ prompt: 'x', isolation: 'worktree' }).isolation).toBe('worktree');
    const refused = parseToolArgs(spawnSubagentArgs, { prompt: 'x', isolation: 'none' });
    expect(refused).toEqual({ ok: false, error: ISOLATION_ONLY_WORKTREE });
    const d = parseArgs({ agent: 'w', prompt: 'x', isolation: 'worktree' });
    expect(d.ok && d.args.action === 'delegate' && d.args.isolation).toBe('worktree');
    expect(parseArgs({ agent: 'w', prompt: 'x', isolation: 'none' })).toEqual({ ok: false, error: ISOLATION_ONLY_WORKTREE });
  });
});
