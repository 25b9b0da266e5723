// Agent files (src/config/agentFiles.ts): Markdown with YAML frontmatter, read as agent
// tables through the same schema as [agents.<alias>]; their order against built-in agents
// and TOML tables; errors and warnings that name the file, the line and the field.
import { beforeAll, describe, expect, it } from 'vitest';
import { readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempTree } from '../../helpers/tempTree.js';
import { setLanguage } from '../../../src/i18n/index.js';
import { loadConfig, loadConfigFromTexts } from '../../../src/config/load.js';
import { readAgentFiles, type AgentFileText } from '../../../src/config/agentFiles.js';
import { agentTemplate, AgentTemplateError, writeAgentTemplate } from '../../../src/config/agentTemplate.js';
import { RootAgentError, withRootAgent } from '../../../src/config/rootAgent.js';
import { agentDefinitions } from '../../../src/config/agentList.js';
import { DEFAULT_SYSTEM_PROMPT } from '../../../src/config/defaults.js';
import { BASE, configErrorOf } from './helpers.js';

beforeAll(() => setLanguage('en'));

const TOML = '/p/.arbor/config.toml';
const PROJECT = '/p/.arbor/agents';
const USER = '/h/.arbor/agents';

const proj = (name: string, text: string): AgentFileText => ({ file: `${PROJECT}/${name}.md`, text, scope: 'project' });
const user = (name: string, text: string): AgentFileText => ({ file: `${USER}/${name}.md`, text, scope: 'user' });

/** `toml` null: no config file at all (the built-in setup applies). */
function load(files: AgentFileText[], toml: string | null = BASE, env: NodeJS.ProcessEnv = {}) {
  return loadConfigFromTexts(toml === null ? [] : [{ file: TOML, text: toml }], env, files);
}
const errorOf = (files: AgentFileText[], toml: string | null = BASE) => configErrorOf(() => load(files, toml));

describe('parsing an agent file', () => {
  it('maps every frontmatter field onto the agent and the body onto its system prompt', () => {
    const { config, warnings } = load([
      proj(
        'reviewer',
        [
          '---',
          'description: Reviews diffs for bugs.',
          'provider: local',
          'model: qwen3:32b',
          'temperature: 0.2',
          'tools: [read_file, "list_*"]',
          'risk_profile: default',
          'runtime_profile: default',
          'delegates: [main]',
          'enabled: true',
          '---',
          '',
          'You review code.',
          '',
          'Be brief.',
          '',
        ].join('\n'),
      ),
    ]);
    expect(warnings).toEqual([]);
    expect(config.agents.reviewer).toEqual({
      alias: 'reviewer',
      provider: 'local',
      description: 'Reviews diffs for bugs.',
      model: 'qwen3:32b',
      temperature: 0.2,
      tools: ['read_file', 'list_*'],
      risk_profile: 'default',
      runtime_profile: 'default',
      delegate_same_risk_profile: true,
      delegates: [{ agent: 'main', mode: 'bounded' }],
      enabled: true,
      system_prompt: 'You review code.\n\nBe brief.',
    });
  });

  it('name overrides the file name; an empty body keeps the default prompt; CRLF, a BOM and `key:` with no value are fine', () => {
    const { config } = load([
      proj('x', '\uFEFF---\r\nname: critic\r\nmodel:\r\ndelegates:\r\n  - agent: main\r\n    mode: independent\r\n---\r\n'),
    ]);
    expect(Object.keys(config.agents).sort()).toEqual(['critic', 'main', 'researcher', 'reviewer']);
    expect(config.agents.critic.system_prompt).toBe(DEFAULT_SYSTEM_PROMPT);
    expect(config.agents.critic.model).toBeUndefined();
    expect(config.agents.critic.delegates).toEqual([{ agent: 'main', mode: 'independent' }]);
  });

  it('an empty frontmatter is an agent with every default, named after its file', () => {
    const { config } = load([proj('helper', '---\n---\nHelp.\n')]);
    expect(config.agents.helper).toMatchObject({ alias: 'helper', provider: 'local', system_prompt: 'Help.', enabled: true });
  });

  it('keys other helpers add to the TOML agent table (delegate_same_risk_profile here) work in files unchanged', () => {
    const { config } = load([proj('a', '---\ndelegate_same_risk_profile: false\n---\n')]);
    expect(config.agents.a.delegate_same_risk_profile).toBe(false);
  });

  it('the same keys in a TOML table mean the same (model, temperature, tools)', () => {
    const { config } = load([], `${BASE}\n[agents.t]\nprovider = "local"\nmodel = "m2"\ntemperature = 1.5\ntools = ["shell"]\n`);
    expect(config.agents.t).toMatchObject({ model: 'm2', temperature: 1.5, tools: ['shell'] });
  });
});

// The built-in agents stay beside a TOML setup, on the built-in offline model (#20 item 6).
const BUILTIN_RESEARCHER = {
  alias: 'researcher',
  description: 'Finds and summarizes information',
  provider: 'offline',
  model: 'offline/arbor-offline',
  enabled: true,
  root: false,
};
const BUILTIN_REVIEWER = { ...BUILTIN_RESEARCHER, alias: 'reviewer', description: 'Reviews code and plans' };

describe('precedence: built-in < user files < project files < TOML tables', () => {
  it('a project file replaces a user file of the same name, whole, with a warning naming both', () => {
    const l = load([
      user('rev', '---\nmodel: user-model\ndescription: from user\n---\nU'),
      proj('rev', '---\ndescription: from project\n---\nP'),
    ]);
    expect(l.config.agents.rev.description).toBe('from project');
    // Replaced, not merged key by key: the user file's model is gone.
    expect(l.config.agents.rev.model).toBeUndefined();
    expect(l.config.agents.rev.system_prompt).toBe('P');
    expect(l.warnings).toEqual([`agent "rev" is defined in ${PROJECT}/rev.md and in ${USER}/rev.md; ${PROJECT}/rev.md wins`]);
    expect(l.agentSources?.rev).toBe(`${PROJECT}/rev.md`);
  });

  it('a TOML table replaces an agent file of the same name, with a warning naming both', () => {
    const l = load([proj('main', '---\nmodel: file-model\ndescription: from file\n---\nF')]);
    expect(l.config.agents.main.description).toBeUndefined();
    expect(l.config.agents.main.model).toBeUndefined();
    expect(l.warnings).toEqual([`agent "main" is defined in ${TOML} and in ${PROJECT}/main.md; ${TOML} wins`]);
    expect(l.agentSources?.main).toBe(TOML);
  });

  it('two files naming the same agent in one folder: the later file wins, with the warning', () => {
    const l = load([proj('a', '---\nname: same\n---\nA'), proj('b', '---\nname: same\n---\nB')]);
    expect(l.config.agents.same.system_prompt).toBe('B');
    expect(l.warnings).toEqual([`agent "same" is defined in ${PROJECT}/b.md and in ${PROJECT}/a.md; ${PROJECT}/b.md wins`]);
  });

  it('with no config file, files add to the built-in setup, and a file may replace the built-in main silently', () => {
    const l = load([proj('main', '---\ndescription: my main\n---\nI am main.'), user('helper', '---\n---\n')], null);
    expect(l.warnings).toEqual([]);
    expect(l.config.agents.main).toMatchObject({ provider: 'offline', description: 'my main', system_prompt: 'I am main.' });
    expect(l.config.agents.helper.provider).toBe('offline');
    expect(l.agentSources).toMatchObject({ main: `${PROJECT}/main.md`, helper: `${USER}/helper.md` });
    // Agents the starter defines and no file replaced are built in.
    for (const [alias, src] of Object.entries(l.agentSources ?? {}))
      if (alias !== 'main' && alias !== 'helper') expect(src).toBeUndefined();
  });

  it('agentDefinitions (for /agents list) says where each agent came from and the model it asks for', () => {
    const l = load([proj('rev', '---\nmodel: big\ndescription: reviews\nenabled: false\n---\n')]);
    expect(agentDefinitions(l)).toEqual([
      { alias: 'main', source: TOML, provider: 'local', model: 'openai-compatible/qwen3:8b', enabled: true, root: true },
      BUILTIN_RESEARCHER,
      {
        alias: 'rev',
        source: `${PROJECT}/rev.md`,
        description: 'reviews',
        provider: 'local',
        model: 'openai-compatible/big',
        enabled: false,
        root: false,
      },
      BUILTIN_REVIEWER,
    ]);
  });
});

describe('errors name the file and the field (and the line:col)', () => {
  const F = `${PROJECT}/rev.md`;
  const cases: Array<[string, string, string]> = [
    [
      'YAML syntax',
      '---\ntemperature: [1\n---\n',
      `${F}:2:16: invalid YAML frontmatter: Flow sequence in block collection must be sufficiently indented and end with a ]`,
    ],
    [
      'YAML nested map',
      '---\nfoo: bar: baz\n---\n',
      `${F}:2:6: invalid YAML frontmatter: Nested mappings are not allowed in compact mappings`,
    ],
    ['repeated key', '---\ndescription: a\ndescription: b\n---\n', `${F}:3:1: invalid YAML frontmatter: Map keys must be unique`],
    ['no frontmatter', 'You are an agent.\n', `${F}:1:1: an agent file starts with YAML frontmatter between two "---" lines`],
    [
      'unclosed frontmatter',
      '---\nmodel: x\nbody\n',
      `${F}:1:1: the frontmatter opened by "---" on line 1 is never closed by a "---" line`,
    ],
    ['not a mapping', '---\n- a\n- b\n---\n', `${F}:2:1: the frontmatter must be a YAML mapping of keys to values, got a list`],
    ['name type', '---\nname: 3\n---\n', `${F}:2:7: name: expected a string, got number 3`],
    ['name blank', '---\nname: "  "\n---\n', `${F}:2:7: name: must not be empty`],
    ['name unsafe', '---\nname: __proto__\n---\n', `${F}:2:7: name: "__proto__" cannot be used as a name here`],
    ['key unsafe', '---\n__proto__: { polluted: 1 }\n---\n', `${F}:2:12: __proto__: "__proto__" cannot be used as a name here`],
    [
      'prompt twice',
      '---\nsystem_prompt: hi\n---\nbody\n',
      `${F}:2:16: system_prompt: set both here and as the file's body; the body is the system prompt, keep one`,
    ],
    ['temperature range', '---\ntemperature: 5\n---\n', `${F}:2:14: temperature: must be between 0 and 2, got 5`],
    ['temperature type', '---\ntemperature: warm\n---\n', `${F}:2:14: temperature: expected a number, got string "warm"`],
    ['model empty', '---\nmodel: ""\n---\n', `${F}:2:8: model: must not be empty`],
    ['model type', '---\nmodel: 7\n---\n', `${F}:2:8: model: expected a string, got number 7`],
    ['tools type', '---\ntools: read_file\n---\n', `${F}:2:8: tools: expected a list of strings, got string "read_file"`],
    ['tools entry', '---\ntools: [read_file, 3]\n---\n', `${F}:2:20: tools[1]: expected a string, got number 3`],
    ['provider unknown', '---\nprovider: nope\n---\n', `${F}:2:11: provider: unknown provider "nope" (known: local)`],
    ['description type', '---\ndescription: [a]\n---\n', `${F}:2:14: description: expected a string, got a list`],
    ['enabled type', '---\nenabled: yes\n---\n', `${F}:2:10: enabled: expected a boolean (true or false), got string "yes"`],
    ['risk_profile type', '---\nrisk_profile: 1\n---\n', `${F}:2:15: risk_profile: expected a string, got number 1`],
    ['runtime_profile empty', '---\nruntime_profile: ""\n---\n', `${F}:2:18: runtime_profile: must not be empty`],
    [
      'delegates type',
      '---\ndelegates: main\n---\n',
      `${F}:2:12: delegates: expected a list of agent names or { agent, mode } tables, got string "main"`,
    ],
    [
      'delegate unknown',
      '---\ndelegates: [nobody]\n---\n',
      `${F}:2:13: delegates[0]: unknown agent "nobody" (known: rev, main, researcher, reviewer)`,
    ],
    [
      'delegate mode',
      '---\ndelegates:\n  - agent: main\n    mode: sideways\n---\n',
      `${F}:4:11: delegates[0].mode: must be one of "bounded", "independent", got "sideways"`,
    ],
    ['delegate self', '---\ndelegates: [rev]\n---\n', `${F}:2:13: delegates[0]: agent "rev" cannot delegate to itself`],
  ];
  for (const [what, text, message] of cases) {
    it(what, () => {
      const err = errorOf([proj('rev', text)]);
      expect(err.message).toBe(message);
      expect(err.file).toBe(F);
    });
  }

  it('a field error carries the field and its position as properties too', () => {
    const err = errorOf([proj('rev', '---\ndescription: ok\ntemperature: -1\n---\n')]);
    expect({ keyPath: err.keyPath, line: err.line, column: err.column }).toEqual({ keyPath: 'temperature', line: 3, column: 14 });
  });

  it('the default agent from a file must be enabled: the error names the file and the field', () => {
    const err = errorOf([proj('main', '---\nenabled: false\n---\n')], null);
    expect(err.message).toBe(`${PROJECT}/main.md:2:10: enabled: the default agent "main" is disabled`);
  });

  it('a missing risk profile is a warning naming the file, line and field', () => {
    const l = load([proj('rev', '---\nrisk_profile: strict\n---\n')]);
    expect(l.warnings).toEqual([
      `${PROJECT}/rev.md:2:15: risk_profile: risk profile "strict" is not configured (known: default, builtin); delegation to "rev" will be refused`,
    ]);
  });
});

describe('unknown frontmatter keys warn, like unknown TOML keys', () => {
  it('names the file, the line:col of the key and the key; the agent still loads', () => {
    const l = load([proj('rev', '---\ndescription: d\ncolour: red\ndelegates:\n  - agent: main\n    note: hi\n---\n')]);
    expect(l.warnings).toEqual([
      `${PROJECT}/rev.md:3:1: unknown frontmatter key colour, ignored`,
      `${PROJECT}/rev.md:6:5: unknown frontmatter key delegates[0].note, ignored`,
    ]);
    expect(l.config.agents.rev.description).toBe('d');
  });
});

describe('reading the folders', () => {
  it('reads *.md from $ARBOR_HOME/agents and ./.arbor/agents, user first, by name; other files are skipped', () => {
    const dir = tempTree('agentfiles', {
      'home/agents/b.md': '---\n---\nB',
      'home/agents/notes.txt': 'not an agent',
      'home/agents/sub.md/': '',
      'proj/.arbor/agents/z.md': '---\n---\nZ',
      'proj/.arbor/agents/a.md': '---\n---\nA',
    });
    const home = join(dir, 'home');
    const cwd = join(dir, 'proj');
    const files = readAgentFiles(cwd, { ARBOR_HOME: home });
    expect(files.map((f) => [f.scope, f.file])).toEqual([
      ['user', join(home, 'agents', 'b.md')],
      ['project', join(cwd, '.arbor', 'agents', 'a.md')],
      ['project', join(cwd, '.arbor', 'agents', 'z.md')],
    ]);
    // And loadConfig uses them.
    const l = loadConfig({ cwd, env: { ARBOR_HOME: home } });
    expect(l.config.agents.z.system_prompt).toBe('Z');
    expect(l.sources).toContain(join(cwd, '.arbor', 'agents', 'z.md'));
  });

  it('the same folder reached as user and project (cwd is the home) is read once', () => {
    const dir = tempTree('agentfiles', { '.arbor/agents/a.md': '---\n---\nA' });
    const home = join(dir, '.arbor');
    symlinkSync(dir, join(dir, 'link'));
    const files = readAgentFiles(join(dir, 'link'), { ARBOR_HOME: home });
    expect(files.map((f) => f.scope)).toEqual(['project']);
  });
});

describe('the README example', () => {
  it('loads as written with no warnings', () => {
    const readme = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');
    const example = /### Agent files[\s\S]*?```markdown\n([\s\S]*?)```/.exec(readme)?.[1];
    expect(example).toBeDefined();
    const l = load([proj('reviewer', example!)], `${BASE}\n[agents.researcher]\nprovider = "local"\n`);
    expect(l.warnings).toEqual([]);
    expect(l.config.agents.reviewer).toMatchObject({ model: 'qwen3:32b', temperature: 0.2, tools: ['read_file', 'list_*'] });
  });
});

describe('arbor agents new <name>', () => {
  it('the template loads as written, with no warnings, and says what each key does', () => {
    const l = load([proj('scout', agentTemplate('scout'))]);
    expect(l.warnings).toEqual([]);
    expect(l.config.agents.scout.description).toBe('Describe what scout does and when to hand it work.');
    expect(l.config.agents.scout.system_prompt).toMatch(/^You are scout\./);
    for (const key of [
      'provider',
      'model',
      'temperature',
      'tools',
      'mcp_servers',
      'context',
      'risk_profile',
      'runtime_profile',
      'delegates',
      'enabled',
    ]) {
      expect(agentTemplate('scout')).toContain(`# ${key}:`);
    }
  });

  it('writes ./.arbor/agents/<name>.md, refuses to overwrite, refuses bad names', () => {
    const dir = tempTree('agentnew', {});
    const path = writeAgentTemplate(dir, 'scout');
    expect(path).toBe(join(dir, '.arbor', 'agents', 'scout.md'));
    expect(readFileSync(path, 'utf8')).toBe(agentTemplate('scout'));
    writeFileSync(path, 'mine');
    expect(() => writeAgentTemplate(dir, 'scout')).toThrow(new AgentTemplateError(`${path} already exists; it was left as it is`));
    expect(readFileSync(path, 'utf8')).toBe('mine');
    for (const bad of ['../evil', 'a/b', '', '-x', 'a b', 'x'.repeat(65)]) {
      expect(() => writeAgentTemplate(dir, bad)).toThrow(AgentTemplateError);
    }
    expect(() => writeAgentTemplate(dir, '../evil')).toThrow(/"\.\.\/evil" is not a usable agent name/);
  });
});

describe('--agent <alias>', () => {
  it('makes that agent the root; unknown or disabled names the known agents', () => {
    const l = load([proj('rev', '---\nmodel: big\n---\n'), proj('off', '---\nenabled: false\n---\n')]);
    expect(withRootAgent(l, 'rev').config.default_agent).toBe('rev');
    expect(() => withRootAgent(l, 'nope')).toThrow(
      new RootAgentError('--agent: no agent named "nope" (known: rev, main, researcher, reviewer)'),
    );
    expect(() => withRootAgent(l, 'off')).toThrow(/agent "off" is disabled/);
    expect(() => withRootAgent(l, '__proto__')).toThrow(RootAgentError);
  });

  it('refuses an agent whose profile is not configured', () => {
    const l = load([proj('rev', '---\nrisk_profile: strict\n---\n')]);
    expect(() => withRootAgent(l, 'rev')).toThrow(/risk_profile "strict", which is not configured/);
  });
});
